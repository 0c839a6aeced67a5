//! Property tests of SVE's effects added for issue 12: a "for each" amount
//! (5.28.1) is the count of the cards its filter admits divided by the
//! unit, rounded down, times the printed amount, carried out as one action;
//! the cards counted are the master's own only when the filter says so.
//! A delayed trigger "at the start of your next turn" (10.7.5) triggers
//! once, in the first turn its master begins after it was created, under
//! either reading of a turn's start. An ability given until the end of the
//! turn (10.9.1.2) triggers only while the card has it. Looking at "up to
//! N" (5.10.2) reorders only the cards looked at.

use std::path::Path;

use proptest::prelude::*;
use serde_json::{Value, json};
use tcg_judge::scenario;

/// A board where p1 plays a spell dealing `amount` to p2's leader for each
/// `per` cards in `side`'s cemetery; p1's cemetery holds `mine` cards and
/// p2's `theirs`.
fn board(mine: usize, theirs: usize, per: i64, amount: i64, side: &str) -> Value {
    let dust = |p: &str, n: usize| -> Vec<Value> {
        (0..n)
            .map(|i| json!({"id": format!("{p}{i}"), "card": "dust"}))
            .collect()
    };
    json!({
        "game": "sve", "rules_version": "1.7.0", "name": "for each", "seed": 1,
        "source": {"kind": "worked_example", "clause": ["5.28.1"], "summary": "property test"},
        "cards": {
            "bolt": {"name": "Bolt", "type": "spell", "cost": 1, "abilities": [{"trigger": "spell", "effect": [
                {"do": "for_each", "count": {"side": side, "zone": "cemetery"}, "per": per,
                 "effect": {"do": "damage", "amount": amount, "target": {"select": "player", "who": "opponent"}}}
            ]}]},
            "dust": {"name": "Dust", "type": "amulet", "cost": 1}
        },
        "state": {
            "turn": {"player": "p1", "phase": "main", "number": 5},
            "players": {
                "p1": {"values": {"defense": 20, "pp": 5, "max_pp": 5, "ep": 0},
                       "zones": {"deck": {"count": 5}, "hand": [{"id": "s", "card": "bolt"}], "cemetery": dust("m", mine)}},
                "p2": {"values": {"defense": 99, "pp": 0, "max_pp": 5, "ep": 0},
                       "zones": {"deck": {"count": 5}, "cemetery": dust("t", theirs)}}
            }
        },
        "actions": [{"do": "play", "card": "s"}]
    })
}

/// p1 plays a spell whose delayed trigger deals 2 at the start of p1's next
/// turn, then the players end `turns` main phases in a row.
fn delayed_board(turns: usize, reading: bool) -> Value {
    let flags: Vec<&str> = if reading {
        vec!["reading_turn_start_is_main_phase"]
    } else {
        vec![]
    };
    let mut actions = vec![json!({"do": "play", "card": "d"})];
    actions.extend((0..turns).map(|_| json!({"do": "end_phase"})));
    json!({
        "game": "sve", "rules_version": "1.7.0", "name": "delayed", "seed": 1,
        "source": {"kind": "worked_example", "clause": ["10.7.5"], "summary": "property test"},
        "cards": {
            "dawn": {"name": "Dawn", "type": "spell", "cost": 1, "abilities": [
                {"trigger": "spell", "effect": [{"do": "draw", "amount": 1}]},
                {"trigger": "delayed_next_turn_start", "effect": [{"do": "damage", "amount": 2, "target": {"select": "player", "who": "opponent"}}]}
            ]}
        },
        "state": {
            "turn": {"player": "p1", "phase": "main", "number": 5},
            "players": {
                "p1": {"values": {"defense": 20, "pp": 5, "max_pp": 5, "ep": 0}, "flags": flags,
                       "zones": {"deck": {"count": 20}, "hand": [{"id": "d", "card": "dawn"}]}},
                "p2": {"values": {"defense": 20, "pp": 0, "max_pp": 5, "ep": 0},
                       "zones": {"deck": {"count": 20}}}
            }
        },
        "actions": actions
    })
}

/// p1 gives its Knight "Last Words: draw a card" until the end of the turn,
/// the players end `turns` main phases, then the turn player destroys it.
fn given_board(turns: usize) -> Value {
    let mut actions = vec![json!({"do": "play", "card": "g", "choices": {"g.spell": "k"}})];
    actions.extend((0..turns).map(|_| json!({"do": "end_phase"})));
    if turns > 0 {
        // The last end phase's Quick window.
        actions.push(json!({"do": "pass"}));
    }
    let smite = if turns.is_multiple_of(2) { "s1" } else { "s2" };
    actions.push(json!({"do": "play", "card": smite, "choices": {format!("{smite}.spell"): "k"}}));
    json!({
        "game": "sve", "rules_version": "1.7.0", "name": "given", "seed": 1,
        "source": {"kind": "worked_example", "clause": ["10.9.1.2"], "summary": "property test"},
        "cards": {
            "knight": {"name": "Knight", "type": "follower", "cost": 2, "attack": 2, "defense": 2},
            "gift": {"name": "Gift", "type": "spell", "cost": 1, "abilities": [{"trigger": "spell", "effect": [
                {"do": "gain_ability", "ability": {"trigger": "last_words", "effect": [{"do": "draw", "amount": 1}]},
                 "target": {"select": "chosen", "side": "you", "types": ["follower"]}}
            ]}]},
            "smite": {"name": "Smite", "type": "spell", "cost": 1, "abilities": [{"trigger": "spell", "effect": [
                {"do": "destroy", "target": {"select": "chosen", "side": "any", "types": ["follower"]}}
            ]}]}
        },
        "state": {
            "turn": {"player": "p1", "phase": "main", "number": 5},
            "players": {
                "p1": {"values": {"defense": 20, "pp": 5, "max_pp": 5, "ep": 0},
                       "zones": {"deck": {"count": 20}, "hand": [{"id": "g", "card": "gift"}, {"id": "s1", "card": "smite"}],
                                 "field": [{"id": "k", "card": "knight"}]}},
                "p2": {"values": {"defense": 20, "pp": 0, "max_pp": 5, "ep": 0},
                       "zones": {"deck": {"count": 20}, "hand": [{"id": "s2", "card": "smite"}]}}
            }
        },
        "actions": actions
    })
}

/// p1 looks at up to `max` of a `deck`-card deck, stopping after `look`,
/// and puts them back reversed.
fn look_board(max: u32, deck: usize, look: usize) -> Value {
    let cards: Vec<Value> = (0..deck)
        .map(|i| json!({"id": format!("d{i}"), "card": "charm"}))
        .collect();
    let mut choices = json!({"x.look": look});
    if look > 0 {
        let order: Vec<String> = (0..look).rev().map(|i| format!("d{i}")).collect();
        choices["x.order"] = json!(order);
    }
    if deck == 0 {
        choices = json!({});
    }
    json!({
        "game": "sve", "rules_version": "1.7.0", "name": "look", "seed": 1,
        "source": {"kind": "worked_example", "clause": ["5.10.2"], "summary": "property test"},
        "cards": {
            "seeker": {"name": "Seeker", "type": "spell", "cost": 1, "abilities": [{"trigger": "spell", "effect": [{"do": "look_at_up_to", "max": max}]}]},
            "charm": {"name": "Charm", "type": "amulet", "cost": 1}
        },
        "state": {
            "turn": {"player": "p1", "phase": "main", "number": 5},
            "players": {
                "p1": {"values": {"defense": 20, "pp": 5, "max_pp": 5, "ep": 0},
                       "zones": {"hand": [{"id": "x", "card": "seeker"}], "deck": cards}},
                "p2": {"values": {"defense": 20, "pp": 0, "max_pp": 5, "ep": 0}, "zones": {"deck": {"count": 5}}}
            }
        },
        "actions": [{"do": "play", "card": "x", "choices": choices}]
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn for_each_deals_the_counted_amount_once(
        mine in 0usize..14, theirs in 0usize..8, per in 1i64..6, amount in 1i64..4, side in 0usize..3,
    ) {
        let side = ["you", "opponent", "any"][side];
        let text = board(mine, theirs, per, amount, side).to_string();
        let loaded = scenario::load_str("props", &text, Some(Path::new("scenarios/sve")))
            .map_err(|e| TestCaseError::fail(format!("{e:?}")))?;
        let out = loaded.module.run(loaded.game.clone(), &loaded.actions);
        prop_assert!(out.error.is_none(), "{:?}", out.error);
        let counted = match side {
            "you" => mine,
            "opponent" => theirs,
            _ => mine + theirs,
        } as i64;
        let dealt = counted / per * amount;
        prop_assert_eq!(out.state["players"]["p2"]["defense"].as_i64(), Some(99 - dealt));
        // One action (5.28.1): a single damage entry changes p2's defense.
        let hits = out.trace.iter()
            .filter(|e| e.step == "effect.damage" && e.changes.iter().any(|c| c.what == "p2.defense"))
            .count();
        prop_assert_eq!(hits, usize::from(dealt > 0));
        prop_assert!(out.trace.iter().any(|e| e.step == "effect.for_each" && e.rules.contains(&"5.28.1")));
    }

    #[test]
    fn a_next_turn_delayed_trigger_fires_once_in_its_masters_next_turn(turns in 0usize..6, reading: bool) {
        let text = delayed_board(turns, reading).to_string();
        let loaded = scenario::load_str("props", &text, Some(Path::new("scenarios/sve")))
            .map_err(|e| TestCaseError::fail(format!("{e:?}")))?;
        let out = loaded.module.run(loaded.game.clone(), &loaded.actions);
        prop_assert!(out.error.is_none(), "{:?}", out.error);
        // p1's next turn begins with the second end of a main phase.
        let fired = turns >= 2;
        prop_assert_eq!(out.state["players"]["p2"]["defense"].as_i64(), Some(if fired { 18 } else { 20 }));
        let pending: Vec<_> = out.trace.iter()
            .filter(|e| e.step == "trigger.pending" && e.objects.iter().any(|o| o == "d"))
            .collect();
        prop_assert_eq!(pending.len(), usize::from(fired));
        if let Some(e) = pending.first() {
            prop_assert_eq!(e.action, Some(2));
            let at = if reading { "7.3.1" } else { "7.2.5" };
            prop_assert!(e.rules.contains(&at) && e.note.is_some(), "{:?}", e);
        }
    }

    #[test]
    fn a_given_last_words_triggers_only_in_the_turn_it_was_given(turns in 0usize..5) {
        let text = given_board(turns).to_string();
        let loaded = scenario::load_str("props", &text, Some(Path::new("scenarios/sve")))
            .map_err(|e| TestCaseError::fail(format!("{e:?}")))?;
        let out = loaded.module.run(loaded.game.clone(), &loaded.actions);
        prop_assert!(out.error.is_none(), "{:?}", out.error);
        prop_assert!(out.rejections.is_empty(), "{:?}", out.rejections);
        prop_assert_eq!(out.state["cards"]["k"]["zone"].as_str(), Some("p1.cemetery"));
        let fired = out.trace.iter()
            .filter(|e| e.step == "trigger.pending" && e.objects.iter().any(|o| o == "k"))
            .count();
        prop_assert_eq!(fired, usize::from(turns == 0));
    }

    #[test]
    fn looking_at_up_to_n_reorders_only_the_cards_looked_at(max in 0u32..5, deck in 0usize..6, look in 0usize..6) {
        let look = look.min(max as usize).min(deck);
        let text = look_board(max, deck, look).to_string();
        let loaded = scenario::load_str("props", &text, Some(Path::new("scenarios/sve")))
            .map_err(|e| TestCaseError::fail(format!("{e:?}")))?;
        let out = loaded.module.run(loaded.game.clone(), &loaded.actions);
        prop_assert!(out.error.is_none(), "{:?}", out.error);
        let expected: Vec<String> = (0..look).rev().chain(look..deck).map(|i| format!("d{i}")).collect();
        let got: Vec<String> = out.state["players"]["p1"]["zones"]["deck"].as_array().unwrap()
            .iter().filter_map(|v| v.as_str().map(String::from)).collect();
        prop_assert_eq!(got, expected);
    }
}

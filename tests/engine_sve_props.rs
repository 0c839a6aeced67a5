//! Property tests of SVE's effects added for issue 12: a "for each" amount
//! (5.28.1) is the count of the cards its filter admits divided by the
//! unit, rounded down, times the printed amount, carried out as one action;
//! the cards counted are the master's own only when the filter says so.
//! A delayed trigger "at the start of your next turn" (10.7.5) triggers
//! once, in the first turn its master begins after it was created, under
//! either reading of a turn's start.

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
}

//! Golden traces of PSO2 scenarios: the readable trace with clause titles
//! from the bundled rulebook. A change to the PSO2 module, the effect
//! language or the PSO2 rulebook parse shows up here as a diff.

use std::path::Path;

use tcg_judge::output::Style;
use tcg_judge::scenario::{self, report};

fn golden(file: &str) -> String {
    let (loaded, outcome) = scenario::run_file(Path::new(file)).expect("scenario loads");
    report::render_run(&loaded, &outcome, report::Detail::Compact, Style::PLAIN)
}

#[test]
fn golden_foie_barta_hp_up() {
    insta::assert_snapshot!(golden("rulings/pso2/103.6.1.7-foie-barta-hp-up.json"));
}

#[test]
fn golden_war_cry_redirect() {
    insta::assert_snapshot!(golden("scenarios/pso2/03-war-cry-redirect.json"));
}

#[test]
fn golden_raid_boss_turn() {
    insta::assert_snapshot!(golden("scenarios/pso2/07-raid-boss-turn.json"));
}

/// 100.3.2: a card printing "N copies may be in a deck" (stat
/// `deck_copies`) allows N and no more; over it the setup stops with an
/// illegal deck citing 100.3.2 (a deck is checked before the game, so no
/// ruling file can expect it as a rejected action).
#[test]
fn deck_over_a_cards_own_copy_limit_is_illegal() {
    use tcg_judge::engine::EngineError;
    let deck: Vec<String> = (0..20)
        .map(|i| {
            if i < 5 {
                format!(r#"{{ "id": "m{i}", "card": "many" }}"#)
            } else {
                r#""?""#.to_string()
            }
        })
        .collect();
    let src = format!(
        r#"{{ "game": "pso2", "name": "five", "source": {{ "kind": "worked_example", "clause": "100.3.2" }},
  "cards": {{
    "pc": {{ "name": "PLAYER", "type": "player", "defense": 20, "text": {{ "color": "red" }} }},
    "many": {{ "name": "量産型", "type": "chara", "cost": 0, "attack": 1, "defense": 1,
      "text": {{ "color": "red" }}, "stats": {{ "deck_copies": 4 }} }} }},
  "state": {{ "turn": {{ "player": "p1", "phase": "setup", "number": 1 }},
    "players": {{
      "p1": {{ "zones": {{ "player": [ {{ "id": "pc1", "card": "pc" }} ], "deck": [ {} ] }} }},
      "p2": {{ "zones": {{ "player": [ {{ "id": "pc2", "card": "pc" }} ], "deck": {{ "count": 20 }} }} }} }} }},
  "actions": [ {{ "do": "pass", "player": "p1" }} ] }}"#,
        deck.join(", ")
    );
    let loaded = scenario::load_str("five.json", &src, None).expect("loads");
    let outcome = scenario::run_loaded(&loaded, &scenario::plan(&loaded.scenario.expect));
    let stop = outcome.error.expect("the setup stops");
    assert!(
        matches!(
            stop.error,
            EngineError::Illegal {
                rule: "100.3.2",
                ..
            }
        ),
        "{:?}",
        stop.error
    );
}

/// The stop error of a main-phase board where p1's field holds a chara
/// printing `effect` (an on-enter ability), with no action.
fn stop_with(effect: &str) -> tcg_judge::engine::EngineError {
    let src = format!(
        r#"{{ "game": "pso2", "name": "t", "source": "test",
  "cards": {{ "c": {{ "name": "C", "type": "chara", "cost": 0, "attack": 1, "defense": 1,
      "abilities": [ {{ "trigger": "on_enter", "effect": [ {effect} ] }} ] }} }},
  "state": {{ "turn": {{ "player": "p1", "phase": "main", "number": 3 }},
    "players": {{ "p1": {{ "zones": {{ "deck": {{ "count": 9 }}, "field": ["c"] }} }},
                 "p2": {{ "zones": {{ "deck": {{ "count": 9 }} }} }} }} }},
  "actions": [] }}"#
    );
    let loaded = scenario::load_str("t.json", &src, None).expect("loads");
    let outcome = scenario::run_loaded(&loaded, &scenario::plan(&loaded.scenario.expect));
    outcome
        .error
        .expect("the run stops before the first action")
        .error
}

/// PSO2 has no blocking and no play area: a restriction of either is bad
/// input, named as such, not a rule left unimplemented.
#[test]
fn a_restriction_of_an_action_pso2_does_not_have_is_bad_input() {
    use tcg_judge::engine::EngineError;
    for action in ["block", "move_to_play_area"] {
        let e = stop_with(&format!(
            r#"{{ "do": "restrict", "action": "{action}", "target": {{ "select": "this" }} }}"#
        ));
        match e {
            EngineError::BadAction { message } => {
                assert!(message.contains("no such action"), "{message}")
            }
            other => panic!("{action}: expected bad input, got {other:?}"),
        }
    }
}

/// 交戦する choosing both sides chooses one card on each: more, or "up
/// to", is not implemented (GL:交戦する).
#[test]
fn engage_choosing_more_than_one_card_a_side_is_not_implemented() {
    use tcg_judge::engine::EngineError;
    for extra in [r#", "count": 2"#, r#", "up_to": true"#] {
        let e = stop_with(&format!(
            r#"{{ "do": "engage", "target": {{ "select": "chosen", "side": "you", "types": ["chara"]{extra} }},
                 "with": {{ "select": "chosen", "side": "opponent", "types": ["chara"] }} }}"#
        ));
        assert!(
            matches!(
                e,
                EngineError::NotImplemented {
                    clause: "GL:交戦する",
                    ..
                }
            ),
            "{extra}: {e:?}"
        );
    }
}

/// A main-phase board where p1's field holds chara `c` printing an
/// activated ability with `cost` (the parts, comma-separated).
fn with_ability_cost(cost: &str) -> Result<scenario::Loaded, Box<scenario::ScenarioError>> {
    let src = format!(
        r#"{{ "game": "pso2", "name": "t", "source": "test",
  "cards": {{ "c": {{ "name": "C", "type": "chara", "cost": 0, "attack": 1, "defense": 1,
      "abilities": [ {{ "trigger": "activated", "cost": [ {cost} ],
                        "effect": [ {{ "do": "draw", "amount": 1 }} ] }} ] }} }},
  "state": {{ "turn": {{ "player": "p1", "phase": "main", "number": 3 }},
    "players": {{ "p1": {{ "zones": {{ "deck": {{ "count": 9 }}, "field": [ {{ "id": "c", "card": "c" }} ] }} }},
                 "p2": {{ "zones": {{ "deck": {{ "count": 9 }} }} }} }} }},
  "actions": [ {{ "do": "activate", "player": "p1", "card": "c" }} ] }}"#
    );
    scenario::load_str("t.json", &src, None).map_err(Box::new)
}

/// 209.1.3: an ability's cost is written with the cost words PSO2
/// declares (【ON⇒OFF】 `set_state`, ① / ⓧ `pay_cost`, hand cards `put`);
/// another word is refused at load where the file writes it, naming them.
#[test]
fn an_ability_cost_word_pso2_does_not_declare_is_refused_where_written() {
    let Err(e) =
        with_ability_cost(r#"{ "do": "pay_cost", "amount": 1 }, { "do": "draw", "amount": 1 }"#)
    else {
        panic!("a `draw` cost loads");
    };
    assert!(
        e.message
            .contains("`draw` is not a cost pso2 implements (clause 209.1.3)"),
        "{}",
        e.message
    );
    let path = e.path.clone().unwrap_or_default();
    assert!(path.contains("cost") && path.contains('1'), "{path}");
    let help = e.help.clone().unwrap_or_default();
    for w in ["set_state", "pay_cost", "put"] {
        assert!(help.contains(w), "{help}");
    }
}

/// A cost part of a declared word but of no kind 209.1.3 defines (turning
/// a card ON, a PP cost with life) stops the run as not implemented,
/// citing 209.1.3, never a quiet payment.
#[test]
fn an_ability_cost_of_no_kind_the_rulebook_defines_is_not_implemented() {
    use tcg_judge::engine::EngineError;
    for cost in [
        r#"{ "do": "set_state", "state": "on", "target": { "select": "this" } }"#,
        r#"{ "do": "pay_cost", "amount": 1, "life": 1 }"#,
    ] {
        let loaded = with_ability_cost(cost).expect("loads");
        let outcome = scenario::run_loaded(&loaded, &scenario::plan(&loaded.scenario.expect));
        let e = outcome.error.expect("the run stops").error;
        assert!(
            matches!(
                e,
                EngineError::NotImplemented {
                    clause: "209.1.3",
                    ..
                }
            ),
            "{cost}: {e:?}"
        );
    }
}

/// An active printing `abilities` (JSON), keywords `keywords` and stats
/// `stats`, loaded on a main-phase board.
fn active_with(
    keywords: &str,
    stats: &str,
    abilities: &str,
) -> Result<scenario::Loaded, Box<scenario::ScenarioError>> {
    let src = format!(
        r#"{{ "game": "pso2", "name": "t", "source": "test",
  "cards": {{ "a": {{ "name": "A", "type": "active", "cost": 0, "keywords": [ {keywords} ],
      "stats": {{ {stats} }}, "abilities": {abilities} }} }},
  "state": {{ "turn": {{ "player": "p1", "phase": "main", "number": 3 }},
    "players": {{ "p1": {{ "zones": {{ "deck": {{ "count": 9 }}, "hand": [ {{ "id": "a", "card": "a" }} ] }} }},
                 "p2": {{ "zones": {{ "deck": {{ "count": 9 }} }} }} }} }},
  "actions": [ {{ "do": "play", "player": "p1", "card": "a", "choices": {{ "mode": 2 }} }} ] }}"#
    );
    scenario::load_str("t.json", &src, None).map_err(Box::new)
}

/// GL:“X”: `with_x` reads the X chosen for an ⓧ; in a card with none it
/// would quietly be 0. It is refused at load, located at the ability,
/// wherever it is written: in the second option of a modal card
/// (`choose_one`, 406.3) or in a die's result (GL:ダイス).
#[test]
fn with_x_in_an_ability_with_no_x_is_refused_at_load_in_options_and_die_results() {
    let x = r#"{ "do": "with_x", "effect": { "do": "draw", "amount": 1 } }"#;
    let cases = [
        (
            r#""choose_one""#,
            format!(
                r#"[ {{ "trigger": "effect", "effect": [ {{ "do": "draw", "amount": 1 }} ] }},
                    {{ "trigger": "effect", "effect": [ {x} ] }} ]"#
            ),
            "abilities[1]",
        ),
        (
            "",
            format!(
                r#"[ {{ "trigger": "effect", "effect": [ {{ "do": "roll_die", "results": [ {{ "on": [1, 2, 3, 4, 5, 6], "effect": [ {x} ] }} ] }} ] }} ]"#
            ),
            "abilities[0]",
        ),
    ];
    for (keywords, abilities, at) in cases {
        let Err(e) = active_with(keywords, "", &abilities) else {
            panic!("{abilities}: loads");
        };
        assert!(
            e.message.contains("`with_x` in an ability with no X"),
            "{}",
            e.message
        );
        let path = e.path.clone().unwrap_or_default();
        assert!(path.ends_with(at), "{path}");
    }
    // With an ⓧ in the card's cost the same option loads.
    let ok = active_with(
        r#""choose_one""#,
        r#""x_cost": 1"#,
        &format!(
            r#"[ {{ "trigger": "effect", "effect": [ {{ "do": "draw", "amount": 1 }} ] }},
                {{ "trigger": "effect", "effect": [ {x} ] }} ]"#
        ),
    );
    assert!(ok.is_ok(), "{:?}", ok.err());
}

/// 400.2.1: the Player card never is on the field, so an `all` selector of
/// type `player` there would quietly find nothing (the damage of a Boss
/// card written so reached no party player). It is refused at load, at the
/// ability; the target `player` loads.
#[test]
fn an_all_selector_of_player_cards_on_the_field_is_refused_at_load() {
    let all = r#"[ { "trigger": "effect", "effect": [ { "do": "damage", "amount": 1,
        "target": { "select": "all", "side": "opponent", "types": ["player"] } } ] } ]"#;
    let Err(e) = active_with("", "", all) else {
        panic!("an `all` selector of Player cards on the field loads");
    };
    assert!(
        e.message.contains("never is") || e.message.contains("no Player card ever is"),
        "{}",
        e.message
    );
    assert!(
        e.path.clone().unwrap_or_default().ends_with("abilities[0]"),
        "{:?}",
        e.path
    );
    let player = r#"[ { "trigger": "effect", "effect": [ { "do": "damage", "amount": 1,
        "target": { "select": "player", "who": "opponent" } } ] } ]"#;
    assert!(active_with("", "", player).is_ok());
}

/// 「Aした場合、B」 and 「AすることでBできる」 read whether A was carried
/// out completely from the cards it moved: an A that moves no card (damage),
/// or "up to", is not implemented, refused before the run.
#[test]
fn a_connective_whose_a_cannot_be_measured_is_not_implemented() {
    use tcg_judge::engine::EngineError;
    let damage =
        r#"{ "do": "damage", "amount": 1, "target": { "select": "player", "who": "opponent" } }"#;
    let up_to = r#"{ "do": "destroy", "target": { "select": "chosen", "types": ["chara"], "up_to": true } }"#;
    let draw = r#"{ "do": "draw", "amount": 1 }"#;
    for effect in [
        format!("{damage}, {{ \"do\": \"if_done\" }}, {draw}"),
        format!("{up_to}, {{ \"do\": \"if_done\" }}, {draw}"),
        format!("{{ \"do\": \"by_doing\" }}, {damage}, {draw}"),
        format!("{{ \"do\": \"if_done\" }}, {draw}"),
    ] {
        let e = stop_with(&effect);
        assert!(
            matches!(
                e,
                EngineError::NotImplemented {
                    clause: "GL:“A”した場合、“B”",
                    ..
                }
            ),
            "{effect}: {e:?}"
        );
    }
}

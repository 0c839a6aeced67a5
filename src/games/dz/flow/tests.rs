//! Unit tests of the DZ procedures through the loader and the driver.

use crate::engine::{EngineError, Outcome};
use crate::scenario::load_str;

/// Cards used by the tests: a 3000 red unit, a 2000 blue unit with 加速,
/// a 1000 black unit with 即死, red and blue energy, a quick strategy that
/// returns a unit to hand.
const CARDS: &str = r#"
  "red3": { "name": "赤3000", "type": "unit", "attack": 3000, "stats": { "red": 1, "colorless": 1, "move": 1, "smash": 1 } },
  "blue2": { "name": "青2000加速", "type": "unit", "attack": 2000, "keywords": ["acceleration"], "stats": { "blue": 1, "move": 0, "smash": 1 } },
  "death": { "name": "黒1000即死", "type": "unit", "attack": 1000, "keywords": ["instant_death"], "stats": { "black": 1, "move": 0, "smash": 1 } },
  "haste": { "name": "速攻", "type": "unit", "attack": 1000, "keywords": ["haste"], "stats": { "red": 1 } },
  "renergy": { "name": "赤", "type": "strategy", "stats": { "red": 1 } },
  "benergy": { "name": "青", "type": "strategy", "stats": { "blue": 1 } },
  "bounce": { "name": "エマージェンシー・コール", "type": "strategy", "text": { "timing": "quick" }, "stats": { "blue": 1 },
    "abilities": [ { "trigger": "spell", "effect": [ { "do": "return_to_hand", "target": { "select": "chosen", "types": ["unit"] } } ] } ] },
  "resist": { "name": "耐性－赤", "type": "unit", "attack": 1000, "text": { "resistance": "red" }, "keywords": ["resistance"], "stats": { "blue": 1 } },
  "muster": { "name": "召集", "type": "unit", "attack": 1000, "keywords": ["muster"], "stats": { "red": 1 } },
  "lineburn": { "name": "ライン焼き", "type": "strategy", "stats": { "red": 1 },
    "abilities": [ { "trigger": "spell", "effect": [ { "do": "damage", "amount": 1000, "target": { "select": "all", "types": ["unit"], "region": "same_line" } } ] } ] },
  "market": { "name": "天空のマーケット", "type": "base", "stats": { "green": 1 },
    "abilities": [ { "trigger": "unit_to_graveyard", "effect": [ { "do": "draw", "amount": 1 } ] } ] },
  "kill": { "name": "神々の雷", "type": "strategy", "text": { "timing": "quick" }, "stats": { "red": 1 },
    "abilities": [ { "trigger": "spell", "effect": [ { "do": "destroy", "target": { "select": "chosen", "types": ["unit"] } } ] } ] }
"#;

fn run(phase: &str, number: u32, p1: &str, p2: &str, actions: &str) -> Outcome {
    let text = format!(
        r#"{{ "game": "dz", "name": "t", "source": "test", "cards": {{ {CARDS} }},
          "state": {{ "turn": {{ "player": "p1", "phase": "{phase}", "number": {number} }},
            "players": {{ "p1": {{ "zones": {{ "deck": {{ "count": 10 }} {p1} }} }},
                         "p2": {{ "zones": {{ "deck": {{ "count": 10 }} {p2} }} }} }} }},
          "actions": [ {actions} ] }}"#
    );
    let loaded = load_str("t.json", &text, None).expect("test scenario loads");
    loaded.module.run(loaded.game.clone(), &loaded.actions)
}

fn zone(o: &Outcome, card: &str) -> String {
    o.state["cards"][card]["zone"]
        .as_str()
        .unwrap_or("")
        .to_string()
}

fn cites(o: &Outcome, id: &str) -> bool {
    o.trace.iter().any(|e| e.rules.contains(&id))
}

/// The run stopped with `not implemented: clause <clause>`.
fn assert_not_implemented(o: Outcome, clause_id: &str) {
    match o.error.map(|e| e.error) {
        Some(EngineError::NotImplemented { clause, .. }) => assert_eq!(clause, clause_id),
        other => panic!("expected not implemented, got {other:?}"),
    }
}

const PASS: &str = r#"{ "do": "both_pass" }"#;

#[test]
fn the_first_player_skips_the_draw_of_turn_one() {
    let o = run("draw", 1, "", "", PASS);
    assert!(cites(&o, "3.6.1-2"));
    assert_eq!(o.state["players"]["p1"]["zone_counts"]["hand"], 0);
    let o = run("draw", 3, "", "", PASS);
    assert!(cites(&o, "3.6.1-1"));
    assert_eq!(o.state["players"]["p1"]["zone_counts"]["hand"], 1);
}

#[test]
fn a_move_into_an_opponent_starts_a_battle_fought_step_by_step() {
    // The attacked blue 2000 has 加速: it deals 2000 in the first step;
    // the red 3000 survives and deals 3000 in the second step.
    let p1 = r#", "C2": [ { "id": "a", "card": "red3" } ], "energy": [ "renergy" ]"#;
    let p2 = r#", "C3": [ { "id": "b", "card": "blue2" } ]"#;
    let mv = r#"{ "do": "move", "card": "a", "target": "C3" }"#;
    let actions = [mv, PASS, PASS, PASS, PASS, PASS, PASS, PASS, PASS].join(",");
    let o = run("main", 3, p1, p2, &actions);
    assert!(o.error.is_none(), "{:?}", o.error);
    assert!(cites(&o, "4.16.4-3"), "a battle occurs");
    assert!(cites(&o, "5.4.1-1"), "加速 deals in the first step");
    // b took 3000 ≥ 2000 in the second step and died; a (2000 damage) won.
    assert_eq!(zone(&o, "b"), "p2.graveyard");
    assert_eq!(zone(&o, "a"), "p1.C3");
    assert!(
        o.trace
            .iter()
            .any(|e| e.text.contains("only a (赤3000) is on the square: it wins"))
    );
}

#[test]
fn the_attacker_is_destroyed_when_both_units_remain() {
    // The attacker resists red (耐性): neither unit dies in the exchanges.
    let cards = r#", "C2": [ { "id": "a", "card": "resist" } ]"#;
    let p2 = r#", "C3": [ { "id": "b", "card": "red3" } ]"#;
    let mv = r#"{ "do": "move", "card": "a", "target": "C3" }"#;
    let actions = [mv, PASS, PASS, PASS, PASS, PASS, PASS, PASS, PASS, PASS].join(",");
    let o = run("main", 3, cards, p2, &actions);
    assert!(o.error.is_none(), "{:?}", o.error);
    assert!(cites(&o, "5.17.3"));
    assert_eq!(o.state["cards"]["b"]["damage"], 1000);
    assert_eq!(zone(&o, "a"), "p1.graveyard");
    assert!(cites(&o, "3.14.2"));
}

#[test]
fn a_coloured_cost_needs_energy_of_that_colour() {
    let p1 = r#", "hand": [ { "id": "u", "card": "red3" } ], "energy": [ "benergy", "benergy" ]"#;
    let o = run(
        "main",
        3,
        p1,
        "",
        r#"{ "do": "play", "card": "u", "target": "C1" }"#,
    );
    assert_eq!(o.rejections.len(), 1);
    assert_eq!(o.rejections[0].rule, "1.2.3-1");
    let p1 = r#", "hand": [ { "id": "u", "card": "red3" } ], "energy": [ "renergy" ], "smash": [ "benergy" ]"#;
    let o = run(
        "main",
        3,
        p1,
        "",
        &[r#"{ "do": "play", "card": "u", "target": "C1" }"#, PASS].join(","),
    );
    assert!(o.rejections.is_empty(), "{:?}", o.rejections);
    assert_eq!(zone(&o, "u"), "p1.C1");
    assert_eq!(o.state["cards"]["u"]["state"][0], "frozen");
}

#[test]
fn a_unit_played_into_the_central_area_with_no_battle_dies() {
    let p1 = r#", "hand": [ { "id": "u", "card": "haste" } ], "energy": [ "renergy" ]"#;
    let o = run(
        "main",
        3,
        p1,
        "",
        &[r#"{ "do": "play", "card": "u", "target": "C2" }"#, PASS].join(","),
    );
    assert_eq!(zone(&o, "u"), "p1.graveyard");
    assert!(cites(&o, "4.16.4-8"));
}

#[test]
fn a_move_whose_unit_left_is_countered() {
    let p1 = r#", "C2": [ { "id": "a", "card": "blue2" } ]"#;
    let p2 = r#", "hand": [ { "id": "q", "card": "bounce" } ], "energy": [ "benergy" ]"#;
    let actions = [
        r#"{ "do": "move", "card": "a", "target": "C3" }"#,
        r#"{ "do": "pass" }"#,
        r#"{ "do": "play", "player": "p2", "card": "q", "choices": { "targets": "a" } }"#,
        PASS,
        PASS,
    ]
    .join(",");
    let o = run("main", 3, p1, p2, &actions);
    assert!(o.error.is_none(), "{:?}", o.error);
    assert_eq!(zone(&o, "a"), "p1.hand");
    assert!(cites(&o, "4.9.3-1"));
}

#[test]
fn instant_death_destroys_at_the_end_of_the_battle() {
    let p1 = r#", "C2": [ { "id": "d", "card": "death" } ]"#;
    let p2 = r#", "C3": [ { "id": "b", "card": "red3" } ]"#;
    let mv = r#"{ "do": "move", "card": "d", "target": "C3" }"#;
    let actions = [
        mv, PASS, PASS, PASS, PASS, PASS, PASS, PASS, PASS, PASS, PASS,
    ]
    .join(",");
    let o = run("main", 3, p1, p2, &actions);
    assert!(o.error.is_none(), "{:?}", o.error);
    assert!(cites(&o, "5.2.2"));
    assert_eq!(zone(&o, "b"), "p2.graveyard");
    assert_eq!(zone(&o, "d"), "p1.graveyard");
}

#[test]
fn seven_smash_cards_lose_and_both_at_once_draw() {
    let p1 = r#", "smash": { "count": 7 }"#;
    let o = run("main", 3, p1, "", "");
    assert_eq!(o.result, "p2");
    let o = run("main", 3, p1, r#", "smash": { "count": 8 }"#, "");
    assert_eq!(o.result, "draw");
    assert!(cites(&o, "3.3.4"));
}

#[test]
fn a_keyword_not_implemented_is_refused_before_running() {
    let o = run("main", 3, r#", "hand": [ "muster" ]"#, "", "");
    assert_not_implemented(o, "5.3.1");
}

#[test]
fn squares_are_adjacent_only_orthogonally() {
    use super::board::{adjacent, area_for};
    use crate::engine::PlayerId;
    assert!(adjacent("C2", "C3"));
    assert!(adjacent("L1", "C1"));
    assert!(!adjacent("L1", "C2"));
    assert!(!adjacent("L1", "R1"));
    assert_eq!(area_for("C1", PlayerId::P1), 0);
    assert_eq!(area_for("C1", PlayerId::P2), 2);
    assert_eq!(area_for("C2", PlayerId::P2), 1);
}

#[test]
fn a_strategy_measuring_a_line_from_no_square_is_not_implemented() {
    let o = run("main", 3, r#", "hand": [ "lineburn" ]"#, "", "");
    assert_not_implemented(o, "2.24.5");
}

#[test]
fn a_watcher_sees_only_its_controllers_units_in_its_line() {
    // P2's unit in the market's line is destroyed: the market (P1's)
    // watches only P1's units, so nothing triggers; P1's own unit there
    // does trigger it (4.8.6).
    let p1 = r#", "base_L": [ "market" ], "L1": [ { "id": "mine", "card": "red3" } ],
        "hand": [ { "id": "k1", "card": "kill" }, { "id": "k2", "card": "kill" } ],
        "energy": [ "renergy", "renergy" ]"#;
    let p2 = r#", "L3": [ { "id": "theirs", "card": "red3" } ]"#;
    let o = run(
        "main",
        3,
        p1,
        p2,
        r#"{ "do": "play", "card": "k1", "choices": { "targets": "theirs" } }, { "do": "both_pass" }"#,
    );
    assert_eq!(zone(&o, "theirs"), "p2.graveyard");
    assert!(!o.trace.iter().any(|e| e.text.contains("unit_to_graveyard")));
    let o = run(
        "main",
        3,
        p1,
        p2,
        r#"{ "do": "play", "card": "k2", "choices": { "targets": "mine" } }, { "do": "both_pass" }, { "do": "both_pass" }"#,
    );
    assert_eq!(zone(&o, "mine"), "p1.graveyard");
    assert_eq!(o.state["players"]["p1"]["zone_counts"]["hand"], 2);
}

/// Plays a unit with 隊列召喚 `def` for `who` (the turn player) to `to`,
/// with a unit of `who` on each battle square and a base on each base
/// square of `mine`: where the unit is after it resolves, or the rule
/// that rejected the play.
fn formation(def: &str, who: &str, mine: &[&str], to: &str) -> String {
    let card = |sq: &str, i: usize| {
        let c = if sq.starts_with("base_") { "b" } else { "u" };
        format!(r#""{sq}": [ {{ "id": "{c}{i}", "card": "{c}" }} ]"#)
    };
    let zones: Vec<String> = mine.iter().enumerate().map(|(i, s)| card(s, i)).collect();
    let text = format!(
        r#"{{ "game": "dz", "name": "t", "source": "test",
          "cards": {{
            "f": {{ "name": "隊列", "type": "unit", "attack": 1000, "keywords": ["formation_summon"],
                    "text": {{ "formation": "{def}" }}, "stats": {{ "red": 5, "formation_red": 1 }} }},
            "u": {{ "name": "u", "type": "unit", "attack": 1000, "stats": {{ "red": 1 }} }},
            "b": {{ "name": "b", "type": "base", "stats": {{ "red": 1 }} }},
            "e": {{ "name": "赤", "type": "strategy", "stats": {{ "red": 1 }} }} }},
          "state": {{ "turn": {{ "player": "{who}", "phase": "main", "number": {n} }},
            "players": {{ "{who}": {{ "zones": {{ "deck": {{ "count": 5 }}, "hand": [ {{ "id": "x", "card": "f" }} ],
                                     "energy": [ "e" ] {sep} {zones} }} }},
                         "{other}": {{ "zones": {{ "deck": {{ "count": 5 }} }} }} }} }},
          "actions": [ {{ "do": "play", "card": "x", "target": "{to}", "choices": {{ "formation": true }} }}, {PASS} ] }}"#,
        n = if who == "p1" { 3 } else { 4 },
        other = if who == "p1" { "p2" } else { "p1" },
        sep = if zones.is_empty() { "" } else { "," },
        zones = zones.join(", "),
    );
    let loaded = load_str("t.json", &text, None).expect("test scenario loads");
    let o = loaded.module.run(loaded.game.clone(), &loaded.actions);
    match o.rejections.first() {
        Some(r) => format!("rejected {}", r.rule),
        None => zone(&o, "x"),
    }
}

/// Formations, the player, that player's squares, the square played to,
/// and where the unit ends (or the rule rejecting the play).
const FORMATION_CASES: &[(&str, &str, &[&str], &str, &str)] = &[
    // ストレート: the left and right central squares (5.8.2-1).
    ("straight", "p1", &["L2", "R2"], "C2", "p1.C2"),
    ("straight", "p1", &["L2"], "C2", "rejected 5.8.2-1"),
    // トライアングル: left and right own area, centre enemy area (5.8.2-2);
    // P2's own area is row 3.
    ("triangle", "p1", &["L1", "R1", "C3"], "C2", "p1.C2"),
    ("triangle", "p2", &["L3", "R3", "C1"], "C2", "p2.C2"),
    (
        "triangle",
        "p2",
        &["L1", "R1", "C3"],
        "C2",
        "rejected 5.8.2-2",
    ),
    // エックス: the four corners (5.8.2-3).
    ("x", "p1", &["L1", "R1", "L3", "R3"], "C2", "p1.C2"),
    ("x", "p1", &["L1", "R1", "L3"], "C2", "rejected 5.8.2-3"),
    // アンダーバー: the whole own area (5.8.2-4); only the centre-central
    // square is the ★ of these formations.
    ("underbar", "p2", &["L3", "C3", "R3"], "C2", "p2.C2"),
    (
        "underbar",
        "p2",
        &["L3", "C3", "R3"],
        "L2",
        "rejected 5.8.2-4",
    ),
    // スモールアイ: behind one of your units in its line, toward your side
    // (5.8.2-5).
    ("small_eye", "p1", &["L2"], "L1", "p1.L1"),
    ("small_eye", "p1", &["L2"], "L3", "rejected 5.8.2-5"),
    ("small_eye", "p2", &["L2"], "L3", "p2.L3"),
    // ビッグアイ: own and enemy area of one line, its central square
    // (5.8.2-6).
    ("big_eye", "p1", &["R1", "R3"], "R2", "p1.R2"),
    ("big_eye", "p1", &["R1", "R3"], "C2", "rejected 5.8.2-6"),
    // ビッグトライアングル: your left and right base squares and the centre
    // enemy-area square (5.8.2-7).
    (
        "big_triangle",
        "p1",
        &["base_L", "base_R", "C3"],
        "C2",
        "p1.C2",
    ),
    // ボトムバー: all three of your base squares (5.8.2-8).
    (
        "bottom_bar",
        "p1",
        &["base_L", "base_C", "base_R"],
        "C2",
        "p1.C2",
    ),
    (
        "bottom_bar",
        "p1",
        &["base_L", "base_R"],
        "C2",
        "rejected 5.8.2-8",
    ),
];

#[test]
fn each_formation_stands_on_its_own_squares_seen_from_its_player() {
    for (def, who, mine, to, want) in FORMATION_CASES {
        assert_eq!(
            formation(def, who, mine, to),
            *want,
            "{def} for {who} with {mine:?} to {to}"
        );
    }
}

//! PSO2's `state.in_progress` (flow/resume.rs): a scenario starting at a
//! right to act with entries waiting in the resolution zone and a battle
//! in progress, and the diagnostics of a description that does not fit
//! the board.

use tcg_judge::scenario::load_str;

/// A main-phase board of p1 with chara `a` (attack 3, HP 4) and p2's
/// `x` (attack 2, HP 2); `in_progress` and the actions as given.
fn scenario(phase: &str, in_progress: &str, actions: &str) -> String {
    format!(
        r#"{{ "game": "pso2", "name": "t", "source": "test",
  "cards": {{
    "a": {{ "name": "A", "type": "chara", "cost": 0, "attack": 3, "defense": 4, "text": {{ "color": "white" }} }},
    "x": {{ "name": "X", "type": "chara", "cost": 0, "attack": 2, "defense": 2, "text": {{ "color": "white" }} }},
    "burn": {{ "name": "B", "type": "active", "cost": 0, "text": {{ "color": "white" }},
      "abilities": [ {{ "trigger": "effect", "effect": [ {{ "do": "damage", "amount": 2,
        "target": {{ "select": "chosen", "types": ["chara"] }} }} ] }} ] }}
  }},
  "state": {{ "turn": {{ "player": "p1", "phase": "{phase}", "number": 3 }},
    "in_progress": {in_progress},
    "players": {{
      "p1": {{ "zones": {{ "deck": {{ "count": 9 }}, "field": [ {{ "id": "a", "card": "a" }} ] }} }},
      "p2": {{ "zones": {{ "deck": {{ "count": 9 }}, "field": [ {{ "id": "x", "card": "x" }} ] }} }} }} }},
  "actions": [ {actions} ] }}"#
    )
}

/// `err` says `why` about `v` and is located in `state.in_progress`.
fn refused_in_progress(err: &tcg_judge::scenario::ScenarioError, v: &str, why: &str) {
    assert!(err.message.contains(why), "{v}: {}", err.message);
    assert!(
        err.path
            .as_deref()
            .is_some_and(|p| p.contains("in_progress")),
        "located at the section: {:?}",
        err.path
    );
}

fn run(text: &str) -> serde_json::Value {
    let loaded = load_str("t.json", text, None).expect("the scenario loads");
    let o = loaded.module.run(loaded.game.clone(), &loaded.actions);
    assert!(o.error.is_none(), "{:?}", o.error);
    o.state
}

/// A played active waiting in the resolution zone with its target: it is
/// created there and resolves when both players pass, as it would have.
#[test]
fn a_played_card_waiting_in_the_resolution_zone_resolves_on_two_passes() {
    let waiting = r#"{ "window": "main", "holder": "p2",
      "resolution": [ { "kind": "card", "card": "b1", "def": "burn", "master": "p1", "targets": ["x"] } ] }"#;
    let s = run(&scenario(
        "main",
        waiting,
        r#"{ "do": "pass", "player": "p2" }, { "do": "pass", "player": "p1" }"#,
    ));
    assert_eq!(s["cards"]["x"]["zone"], "p2.discard");
    assert_eq!(s["cards"]["b1"]["zone"], "p1.discard");
    // Without the passes it is still waiting.
    let s = run(&scenario("main", waiting, ""));
    assert_eq!(s["cards"]["x"]["zone"], "p2.field");
    assert_eq!(s["shared_zones"]["resolution"][0], "b1");
}

/// A target written `{"left": id}` is no longer the object chosen
/// (400.6): the active does nothing at all (406.4.1).
#[test]
fn a_target_that_left_is_illegal_on_resolution() {
    let waiting = r#"{ "window": "main", "holder": "p2",
      "resolution": [ { "kind": "card", "card": "b1", "def": "burn", "master": "p1", "targets": [{ "left": "x" }] } ] }"#;
    let s = run(&scenario(
        "main",
        waiting,
        r#"{ "do": "pass", "player": "p2" }, { "do": "pass", "player": "p1" }"#,
    ));
    assert_eq!(s["cards"]["x"]["zone"], "p2.field");
    assert_eq!(s["cards"]["x"]["damage"], 0);
}

/// A battle at its engagement step: two passes lead to the damage step.
#[test]
fn a_battle_resumes_at_its_step() {
    let battle = r#"{ "window": "engagement", "holder": "p1",
      "battle": { "attacker": "a", "side": "p1", "targets": ["x"] } }"#;
    let s = run(&scenario(
        "battle",
        battle,
        r#"{ "do": "pass", "player": "p1" }, { "do": "pass", "player": "p2" }"#,
    ));
    assert_eq!(s["cards"]["x"]["zone"], "p2.discard");
    assert_eq!(s["cards"]["a"]["damage"], 2);
}

/// A description that does not fit the board is a located load error.
#[test]
fn a_description_that_does_not_fit_is_a_diagnostic() {
    for (phase, v, why) in [
        (
            "main",
            r#"{ "window": "engagement", "holder": "p1", "battle": { "attacker": "a", "side": "p1", "targets": ["x"] } }"#,
            "not one of the phase `main`",
        ),
        (
            "battle",
            r#"{ "window": "engagement", "holder": "p1" }"#,
            "give the `battle`",
        ),
        (
            "main",
            r#"{ "window": "main", "holder": "p7" }"#,
            "not a seat",
        ),
        (
            "battle",
            r#"{ "window": "engagement", "holder": "p1", "battle": { "attacker": "a", "side": "p1", "targets": ["x"], "from": "turn_end" } }"#,
            "returns to the main phase",
        ),
        (
            "main",
            r#"{ "window": "main", "holder": "p2", "resolution": [ { "kind": "card", "card": "a", "master": "p1" } ] }"#,
            "appears only here",
        ),
        (
            "main",
            r#"{ "window": "main", "holder": "p2", "resolution": [ { "kind": "card", "card": "b1", "def": "nope", "master": "p1" } ] }"#,
            "not a card definition",
        ),
        (
            "main",
            r#"{ "window": "main", "holder": "p2", "passes": 2 }"#,
            "passes in a row",
        ),
        (
            "main",
            r#"{ "window": "main", "holder": "p2", "resolution": [ { "kind": "war_cry", "card": "a", "master": "p1", "amount": 3 } ] }"#,
            "belongs to another kind",
        ),
    ] {
        let err = load_str("t.json", &scenario(phase, v, ""), None).unwrap_err();
        refused_in_progress(&err, v, why);
    }
}

/// What lasts beside the board (flow/lasting.rs): a 《できない》 effect on
/// `a` written in `lasting` still forbids its attack after the scenario
/// starts (103.1.2), and the same board without it lets `a` attack.
#[test]
fn a_restriction_written_in_lasting_still_forbids() {
    let attack = r#"{ "do": "attack", "player": "p1", "card": "a", "target": "x" }"#;
    let restricted = r#"{ "window": "main", "holder": "p1", "lasting": { "restrictions": [
        { "action": "attack", "card": "a", "source": "x", "until": "end_of_turn" } ] } }"#;
    let loaded = load_str("t.json", &scenario("main", restricted, attack), None).expect("loads");
    let o = loaded.module.run(loaded.game.clone(), &loaded.actions);
    assert_eq!(o.rejections.len(), 1, "{:?}", o.rejections);
    assert_eq!(o.rejections[0].rule, "103.1.2");
    let free = r#"{ "window": "main", "holder": "p1" }"#;
    let loaded = load_str("t.json", &scenario("main", free, attack), None).expect("loads");
    let o = loaded.module.run(loaded.game.clone(), &loaded.actions);
    assert!(o.rejections.is_empty(), "{:?}", o.rejections);
}

/// `lasting` that does not fit the board is a located load error.
#[test]
fn lasting_that_does_not_fit_is_a_diagnostic() {
    for (v, why) in [
        (
            r#"{ "locks": [ { "once": "nope" } ] }"#,
            "`nope` is not a card of this scenario",
        ),
        (
            r#"{ "restrictions": [ { "action": "attack", "card": "a", "player": "p1", "source": "x", "until": "end_of_turn" } ] }"#,
            "one `card` or one `player`",
        ),
        (
            r#"{ "delayed": [ { "card": "b1", "def": "burn", "ability": 0, "master": "p1" } ] }"#,
            "not one an effect sets up",
        ),
        (
            r#"{ "lost": [ { "card": "a", "until": "end_of_turn" } ], "turn_locks": [] }"#,
            "unknown field",
        ),
    ] {
        let p = format!(r#"{{ "window": "main", "holder": "p1", "lasting": {v} }}"#);
        let err = load_str("t.json", &scenario("main", &p, ""), None).unwrap_err();
        refused_in_progress(&err, v, why);
    }
}

//! The declared vocabularies through the real binary: `judge schema GAME`
//! offers only a game's effects, and a scenario writing another game's
//! effect is refused at load, located in the file.

use assert_cmd::Command;

fn judge() -> Command {
    let mut c = Command::cargo_bin("judge").unwrap();
    c.env("NO_COLOR", "1");
    c
}

/// The effect words `judge schema GAME` offers.
fn schema_effects(game: &str) -> Vec<String> {
    let out = judge().args(["schema", game]).output().unwrap();
    assert!(out.status.success());
    let s: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    s["$defs"]["Effect"]["oneOf"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|v| v["properties"]["do"]["const"].as_str())
        .map(str::to_string)
        .collect()
}

#[test]
fn schema_for_a_game_offers_only_its_effects() {
    let sve = schema_effects("sve");
    assert!(sve.iter().any(|w| w == "draw"));
    assert!(!sve.iter().any(|w| w == "nullify_damage"), "{sve:?}");
    // Words another game added to the shared language, which PMV does not
    // implement, are not offered for PMV (nor accepted by its loader).
    let pmv = schema_effects("pmv");
    assert!(pmv.iter().any(|w| w == "nullify_damage"), "{pmv:?}");
    let foreign = [
        "skip_turn",
        "put",
        "evolve",
        "modify_damage",
        "choose",
        "summon",
        "search",
        "look_at",
        "shuffle_into",
        "select_targets",
        "engage",
    ];
    for word in foreign {
        assert!(!pmv.iter().any(|w| w == word), "pmv offers {word}: {pmv:?}");
    }
    let bad = judge().args(["schema", "nope"]).output().unwrap();
    assert!(!bad.status.success());
}

#[test]
fn another_games_effect_is_refused_at_load_with_its_location() {
    let dir = std::env::temp_dir().join(format!("judge-vocab-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("t.json");
    std::fs::write(
        &f,
        r#"{"game": "sve", "name": "t", "source": "t",
  "cards": {"s": {"name": "S", "type": "spell", "cost": 0,
    "abilities": [{"trigger": "spell", "effect": [{"do": "nullify_damage"}]}]}},
  "state": {"turn": {"player": "p1", "phase": "main", "number": 1}, "players": {}},
  "actions": []}"#,
    )
    .unwrap();
    let out = judge().arg("run").arg(&f).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        err.contains("`nullify_damage` is not supported for sve yet (clause 5.1.1)"),
        "{err}"
    );
    assert!(err.contains("cards.s.abilities[0].effect[0].do"), "{err}");
    assert!(
        err.contains("t.json:3:58"),
        "the caret is on the effect word: {err}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// A scenario of `game` where p1 plays `s`, a card that draws up to 3,
/// with `choices` on the action that resolves it.
fn draw_up_to(game: &str, ty: &str, trigger: &str, actions: &str) -> serde_json::Value {
    let text = format!(
        r#"{{"game": "{game}", "name": "t", "source": "t",
  "cards": {{"s": {{"name": "S", "type": "{ty}", "cost": 0,
    "abilities": [{{"trigger": "{trigger}", "effect": [{{"do": "draw_up_to", "max": 3}}]}}]}}}},
  "state": {{"turn": {{"player": "p1", "phase": "main", "number": 3}},
    "players": {{"p1": {{"zones": {{"deck": {{"count": 5}}, "hand": [{{"id": "x", "card": "s"}}]}}}},
                "p2": {{"zones": {{"deck": {{"count": 5}}}}}}}}}},
  "actions": [{actions}]}}"#
    );
    let dir = std::env::temp_dir().join(format!("judge-upto-{game}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("t.json");
    std::fs::write(&f, text).unwrap();
    let out = judge().args(["run", "--json"]).arg(&f).output().unwrap();
    std::fs::remove_dir_all(&dir).ok();
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|_| serde_json::json!({ "stderr": String::from_utf8_lossy(&out.stderr) }))
}

#[test]
fn draw_up_to_n_draws_the_chosen_number() {
    let o = draw_up_to(
        "sve",
        "spell",
        "spell",
        r#"{"do": "play", "card": "x", "choices": {"x.draw.p1": 2}}"#,
    );
    assert_eq!(
        o["outcome"]["state"]["players"]["p1"]["zone_counts"]["hand"], 2,
        "{o}"
    );
    // More than the maximum is not a choice.
    let o = draw_up_to(
        "sve",
        "spell",
        "spell",
        r#"{"do": "play", "card": "x", "choices": {"x.draw.p1": 4}}"#,
    );
    assert_eq!(o["outcome"]["error"]["error"]["kind"], "bad_choice", "{o}");
    // PMV, and PSO2 where the number is chosen as the effect resolves
    // (103.5.1.1): the count is given on the pass that resolves the card.
    for (game, ty, n) in [("pmv", "command", 0), ("pso2", "active", 1)] {
        let actions = format!(
            r#"{{"do": "play", "card": "x"}}, {{"do": "pass", "player": "p2"}},
               {{"do": "pass", "player": "p1", "choices": {{"x.draw.p1": {n}}}}}"#
        );
        let o = draw_up_to(game, ty, "effect", &actions);
        assert_eq!(
            o["outcome"]["state"]["players"]["p1"]["zone_counts"]["hand"], n,
            "{o}"
        );
        assert!(o["outcome"]["error"].is_null(), "{o}");
    }
}

/// A filter under `to` (the limit on a changed target, PMV 8.2.8) is checked
/// at load like a target's filter, with its location.
#[test]
fn a_change_target_limit_is_checked_at_load() {
    let mut v: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string("rulings/pmv/8.2.8-changed-target-within-the-texts-limit.json")
            .unwrap(),
    )
    .unwrap();
    v["cards"]["swerve"]["abilities"][0]["effect"][0]["to"]["types"] =
        serde_json::json!(["charactr"]);
    let text = serde_json::to_string_pretty(&v).unwrap();
    let dir = std::env::temp_dir().join(format!("judge-vocab-to-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("t.json");
    std::fs::write(&f, text).unwrap();
    let out = judge().arg("run").arg(&f).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("unknown card type `charactr`"), "{err}");
    assert!(err.contains("effect[0].to"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

/// Writes `v` to a temporary file and runs it; the exit code and stderr.
fn run_value(tag: &str, v: &serde_json::Value) -> (Option<i32>, String) {
    let dir = std::env::temp_dir().join(format!("judge-vocab-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("t.json");
    std::fs::write(&f, serde_json::to_string_pretty(v).unwrap()).unwrap();
    let out = judge().arg("run").arg(&f).output().unwrap();
    std::fs::remove_dir_all(&dir).ok();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// SVE's condition `cards` and filter `special` (2.3.3): another game's
/// loader refuses them where the file writes them, and SVE refuses a
/// special type it does not have, citing 2.3.3.
#[test]
fn a_card_count_condition_and_a_special_type_are_sves_words() {
    let shinbatsu: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(
            "rulings/sve/2.3.4-qa-shinbatsu-evolve-amulet-is-not-evolve-follower.json",
        )
        .unwrap(),
    )
    .unwrap();
    let mut v = shinbatsu.clone();
    v["cards"]["shinbatsu"]["abilities"][1]["condition"]["cards"]["special"] =
        serde_json::json!("token");
    let (code, err) = run_value("special", &v);
    assert_ne!(code, Some(0), "{err}");
    assert!(err.contains("special type `token`"), "{err}");
    assert!(err.contains("2.3.3"), "{err}");

    let pmv: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string("rulings/pmv/8.2.8-changed-target-within-the-texts-limit.json")
            .unwrap(),
    )
    .unwrap();
    let mut v = pmv.clone();
    v["cards"]["swerve"]["abilities"][0]["condition"] =
        serde_json::json!({"cards": {"side": "you"}, "at_least": 1});
    let (code, err) = run_value("cards", &v);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("a condition on `cards`"), "{err}");
    assert!(err.contains("abilities[0].condition.cards"), "{err}");

    let mut v = pmv;
    v["cards"]["swerve"]["abilities"][0]["effect"][0]["to"]["special"] =
        serde_json::json!("evolve");
    let (code, err) = run_value("pmv-special", &v);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("a target filter on `special`"), "{err}");
}

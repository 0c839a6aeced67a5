//! The declared vocabularies through the real binary: `judge schema GAME`
//! offers only a game's effects, and a scenario writing another game's
//! effect is refused at load, located in the file.

use assert_cmd::Command;

fn judge() -> Command {
    let mut c = Command::cargo_bin("judge").unwrap();
    c.env("NO_COLOR", "1");
    c
}

#[test]
fn schema_for_a_game_offers_only_its_effects() {
    let out = judge().args(["schema", "sve"]).output().unwrap();
    assert!(out.status.success());
    let s: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let effects: Vec<&str> = s["$defs"]["Effect"]["oneOf"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|v| v["properties"]["do"]["const"].as_str())
        .collect();
    assert!(effects.contains(&"draw"));
    assert!(!effects.contains(&"restrict"), "{effects:?}");
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

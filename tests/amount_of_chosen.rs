//! The core `amount_of_chosen` (an amount read from cards the same text
//! chose) through the real binary: PMV offers it and refuses the uses it
//! does not carry out; every other game refuses it at load, located.

use assert_cmd::Command;

fn judge() -> Command {
    let mut c = Command::cargo_bin("judge").unwrap();
    c.env("NO_COLOR", "1");
    c
}

/// A scenario of `game` with one card of type `ty` whose text is an
/// `amount_of_chosen` around `inner`, reading part `part`.
fn scenario(game: &str, ty: &str, inner: &str, part: usize) -> String {
    format!(
        r#"{{"game": "{game}", "name": "t", "source": "t",
  "cards": {{"s": {{"name": "S", "type": "{ty}", "cost": 0,
    "abilities": [{{"trigger": "effect", "effect": [
      {{"do": "return_to_hand", "target": {{"select": "chosen", "types": ["character"]}}}},
      {{"do": "amount_of_chosen", "pick": "total", "stat": "attack", "part": {part}, "effect": {inner}}}]}}]}}}},
  "state": {{"turn": {{"player": "p1", "phase": "main", "number": 1}}, "players": {{}}}},
  "actions": []}}"#
    )
}

/// Runs `text` as a scenario file; (success, stderr).
fn run(tag: &str, text: &str) -> (bool, String) {
    let dir = std::env::temp_dir().join(format!("judge-amount-{}-{tag}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("t.json");
    std::fs::write(&f, text).unwrap();
    let out = judge().arg("run").arg(&f).output().unwrap();
    std::fs::remove_dir_all(&dir).ok();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

const DAMAGE: &str =
    r#"{"do": "damage", "amount": 1, "target": {"select": "leader", "who": "opponent"}}"#;

#[test]
fn every_game_but_pmv_refuses_the_form_at_load_with_its_location() {
    for (game, ty) in [("sve", "spell"), ("pso2", "chara"), ("dz", "strategy")] {
        let (ok, err) = run(game, &scenario(game, ty, DAMAGE, 0));
        assert!(!ok, "{game}");
        assert!(
            err.contains(&format!(
                "`amount_of_chosen` is not supported for {game} yet"
            )),
            "{game}: {err}"
        );
        assert!(
            err.contains("cards.s.abilities[0].effect[1].do"),
            "{game}: {err}"
        );
    }
}

#[test]
fn pmv_refuses_an_amount_it_does_not_set_or_a_part_with_no_chosen_target() {
    let draw = r#"{"do": "draw", "amount": 1}"#;
    let (ok, err) = run("draw", &scenario("pmv", "command", draw, 0));
    assert!(!ok);
    assert!(err.contains("not implemented"), "{err}");
    assert!(err.contains("`amount_of_chosen` around `draw`"), "{err}");
    let (ok, err) = run("part", &scenario("pmv", "command", DAMAGE, 1));
    assert!(!ok);
    assert!(err.contains("reading part 1"), "{err}");
}

//! PMV's damage keys: a character's 蓄積ダメージ (1.10.11.b) is kept by
//! kind (counters `combat_damage`, `effect_damage`, reset at different
//! times 1.10.13.d/e). A snapshot's `damage` is the same sum as
//! `accumulated_damage` (it once read the unused core field, always 0),
//! and a board's `damage` is refused where it stands.

use assert_cmd::Command;
use predicates::prelude::*;

fn judge() -> Command {
    let mut c = Command::cargo_bin("judge").unwrap();
    c.env("NO_COLOR", "1");
    c
}

/// Effect damage `amount` to p2's character `b` (defense 5), with the
/// expected state `expect` and `board` added to `b`'s board entry.
fn scenario(amount: i64, board: &str, expect: &str) -> String {
    format!(
        r#"{{
  "game": "pmv", "name": "t", "source": "test", "seed": 1,
  "cards": {{
    "c": {{ "name": "C", "type": "command", "cost": 0, "stats": {{ "node": 0 }},
      "abilities": [ {{ "trigger": "effect", "effect": [ {{ "do": "damage", "amount": {amount}, "target": {{ "select": "all", "side": "opponent", "types": ["character"] }} }} ] }} ] }},
    "v": {{ "name": "V", "type": "character", "cost": 0, "attack": 1, "defense": 5, "stats": {{ "node": 0, "graze": 0 }} }}
  }},
  "state": {{ "turn": {{ "player": "p1", "phase": "main", "number": 3 }},
    "players": {{
      "p1": {{ "zones": {{ "deck": {{ "count": 5 }}, "hand": [ {{ "id": "x", "card": "c" }} ] }} }},
      "p2": {{ "zones": {{ "deck": {{ "count": 5 }}, "field": [ {{ "id": "b", "card": "v"{board} }} ] }} }}
    }} }},
  "actions": [ {{ "do": "play", "player": "p1", "card": "x" }}, {{ "do": "pass", "player": "p2" }}, {{ "do": "pass", "player": "p1" }} ],
  "expect": {{ "state": {{ "cards": {{ "b": {expect} }} }} }}
}}"#
    )
}

fn write(name: &str, text: &str) -> std::path::PathBuf {
    let p = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::write(&p, text).unwrap();
    p
}

#[test]
fn damage_reads_the_accumulated_damage() {
    let ok = write(
        "pmv_damage_keys_ok.json",
        &scenario(
            2,
            "",
            r#"{ "damage": 2, "accumulated_damage": 2, "counters": { "effect_damage": 2 } }"#,
        ),
    );
    judge().arg("check").arg(&ok).assert().success();
    // The board's own damage counts too: 1 already there + 2 dealt.
    let kept = write(
        "pmv_damage_keys_kept.json",
        &scenario(
            2,
            r#", "counters": { "combat_damage": 1 }"#,
            r#"{ "damage": 3, "accumulated_damage": 3 }"#,
        ),
    );
    judge().arg("check").arg(&kept).assert().success();
    // The old reading (0) now fails.
    let zero = write(
        "pmv_damage_keys_zero.json",
        &scenario(2, "", r#"{ "damage": 0 }"#),
    );
    judge()
        .arg("check")
        .arg(&zero)
        .assert()
        .failure()
        .stdout(predicate::str::contains("FAIL"));
}

#[test]
fn a_pmv_board_refuses_damage_where_it_stands() {
    let bad = write(
        "pmv_damage_keys_board.json",
        &scenario(2, r#", "damage": 1"#, "{}"),
    );
    judge().arg("run").arg(&bad).assert().failure().stderr(
        predicate::str::contains("state.players.p2.zones.field[0].damage")
            .and(predicate::str::contains("pmv_damage_keys_board.json:11:97"))
            .and(predicate::str::contains("effect_damage")),
    );
}

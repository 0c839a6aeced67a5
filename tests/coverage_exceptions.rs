//! Honest coverage (issue 9): in every game, no named exception hides a
//! clause that rulings assert. Such an entry would never show in the
//! report, so nobody would notice it going stale.

use assert_cmd::Command;
use serde_json::Value;

#[test]
fn no_game_names_an_exception_its_rulings_assert() {
    for game in ["pmv", "sve", "dz", "pso2"] {
        let out = Command::cargo_bin("judge")
            .unwrap()
            .args(["coverage", game, "--json"])
            .assert()
            .success()
            .get_output()
            .stdout
            .clone();
        let v: Value = serde_json::from_slice(&out).unwrap();
        assert_eq!(v["uncovered"], 0, "{game}: uncovered clauses");
        assert_eq!(
            v["stale_exceptions"],
            serde_json::json!([]),
            "{game}: exceptions its rulings assert; drop them from src/games/{game}/coverage.rs"
        );
    }
}

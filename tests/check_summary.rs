//! `judge check`'s summary by game, in text and with `--json --summary`,
//! through the real binary. The counts are compared with the rows the
//! same check reports, not with fixed numbers.

use assert_cmd::Command;
use serde_json::Value;

fn judge() -> Command {
    let mut c = Command::cargo_bin("judge").unwrap();
    c.env("NO_COLOR", "1");
    c.env_remove("COLUMNS");
    c
}

const PUBLISHED: [&str; 3] = ["official_qa", "official_column", "official_errata"];

/// The rows of `judge check --json` over `paths` (an array, as before).
fn rows(paths: &[&str]) -> Vec<Value> {
    let out = judge()
        .args(["check", "--json"])
        .args(paths)
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    v.as_array()
        .expect("--json alone still prints the rows")
        .clone()
}

fn count(rows: &[Value], game: &str, kinds: &[&str]) -> usize {
    rows.iter()
        .filter(|r| r["game"] == game && kinds.iter().any(|k| r["kind"] == *k))
        .count()
}

#[test]
fn the_text_summary_has_a_line_per_game() {
    let paths = ["rulings/pmv", "rulings/sve"];
    let rows = rows(&paths);
    let out = judge().arg("check").args(paths).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout);
    for game in ["pmv", "sve"] {
        let total = rows.iter().filter(|r| r["game"] == game).count();
        let published = count(&rows, game, &PUBLISHED);
        let worked = count(&rows, game, &["worked_example"]);
        assert!(published > 0, "{game} has published rulings");
        let head = format!("re-proved {total} of {total} {game} rulings: {published} published, ");
        let line = text
            .lines()
            .find(|l| l.starts_with(&head))
            .unwrap_or_else(|| panic!("no line starting {head:?} in:\n{text}"));
        assert!(
            line.contains(&format!("{worked} worked examples")),
            "{line}"
        );
    }
    // The per-kind lines stay last, after the per-game ones.
    let kind_line = text.find("(official_qa)").unwrap();
    assert!(kind_line > text.find("sve rulings:").unwrap(), "{text}");
    assert!(text.trim_end().ends_with("(worked_example)"), "{text}");
}

#[test]
fn json_summary_counts_each_game_by_kind() {
    let paths = ["rulings/pmv", "rulings/sve"];
    let rows = rows(&paths);
    let out = judge()
        .args(["check", "--json", "--summary"])
        .args(paths)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["rows"].as_array().unwrap().len(), rows.len());
    let s = &v["summary"];
    assert_eq!(s["scenarios"], rows.len());
    for game in ["pmv", "sve"] {
        let g = &s["by_game"][game];
        assert_eq!(
            g["published"]["total"],
            count(&rows, game, &PUBLISHED),
            "{g}"
        );
        assert_eq!(
            g["by_kind"]["official_qa"]["total"],
            count(&rows, game, &["official_qa"]),
            "{g}"
        );
        assert_eq!(g["total"], g["passed"], "{g}");
    }
    // --summary only shapes the JSON.
    let bad = judge()
        .args(["check", "--summary", "rulings/pmv"])
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
}

//! `judge search`, run as the real binary: exit codes, JSON shape, plain
//! output when piped or with NO_COLOR, diagnostics for bad input.

use assert_cmd::Command;
use predicates::prelude::*;

fn judge() -> Command {
    let mut c = Command::cargo_bin("judge").unwrap();
    c.env("NO_COLOR", "1");
    // Tables wrap to COLUMNS off a terminal; golden output is unwrapped.
    c.env_remove("COLUMNS");
    c
}

fn search_json(args: &[&str]) -> Vec<serde_json::Value> {
    let out = judge()
        .arg("search")
        .args(args)
        .arg("--json")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice::<serde_json::Value>(&out.stdout)
        .unwrap()
        .as_array()
        .unwrap()
        .clone()
}

#[test]
fn json_is_an_array_of_results_best_first() {
    let hits = search_json(&["投了"]);
    assert!(!hits.is_empty());
    for h in &hits {
        for key in [
            "game",
            "id",
            "title",
            "score",
            "snippet",
            "breadcrumb",
            "matched_terms",
            "highlights",
        ] {
            assert!(h.get(key).is_some(), "missing {key} in {h}");
        }
        assert!(h["snippet"].as_str().unwrap().contains("投了"));
    }
    let scores: Vec<f64> = hits.iter().map(|h| h["score"].as_f64().unwrap()).collect();
    assert!(
        scores.windows(2).all(|w| w[0] >= w[1]),
        "not best first: {scores:?}"
    );
    let games: Vec<&str> = hits.iter().map(|h| h["game"].as_str().unwrap()).collect();
    for g in ["pmv", "pso2", "sve", "dz"] {
        assert!(
            games.contains(&g),
            "投了 is in every rulebook; {g} missing ({games:?})"
        );
    }
}

#[test]
fn expansion_is_reported() {
    let hits = search_json(&["ward", "--game", "sve"]);
    assert_eq!(hits[0]["game"], "sve");
    let m = &hits[0]["matched_terms"][0];
    assert_eq!(m["typed"], "ward");
    assert_eq!(m["term"], "守護");
    assert_eq!(m["expansion"], true);
    judge()
        .args(["search", "ward", "--game", "sve"])
        .assert()
        .success()
        .stdout(predicate::str::contains("ward → 守護"));
}

#[test]
fn options_may_follow_the_words_and_exclusions_work() {
    let with = search_json(&["守護", "--game", "sve"]);
    let without = search_json(&["守護", "-アクト", "--game", "sve"]);
    assert!(without.len() < with.len());
    assert!(
        without
            .iter()
            .all(|h| !h["snippet"].as_str().unwrap().contains("アクト"))
    );
    assert!(with.iter().all(|h| h["game"] == "sve"));
}

#[test]
fn under_restricts_to_the_subtree() {
    let hits = search_json(&["チェックタイミング", "--game", "sve", "--under", "10.5"]);
    assert!(!hits.is_empty());
    for h in &hits {
        let id = h["id"].as_str().unwrap();
        assert!(
            id == "10.5" || id.starts_with("10.5."),
            "{id} is outside 10.5"
        );
    }
}

#[test]
fn clause_id_goes_straight_to_the_clause() {
    let hits = search_json(&["10.5.2", "--game", "sve"]);
    assert_eq!(hits.len(), 1);
    assert_eq!(hits[0]["id"], "10.5.2");
    assert_eq!(hits[0]["via"], "id");
    let hits = search_json(&["第４部", "第９章", "２－１"]);
    assert!(
        hits.iter()
            .any(|h| h["game"] == "dz" && h["id"] == "4.9.2-1"),
        "{hits:?}"
    );
}

#[test]
fn piped_output_is_a_plain_table_without_escapes() {
    let out = Command::cargo_bin("judge")
        .unwrap()
        .env_remove("NO_COLOR")
        .args(["search", "守護", "--game", "sve"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let s = String::from_utf8(out.stdout).unwrap();
    assert!(!s.contains('\u{1b}'), "escape codes when piped");
    assert!(s.contains("12.8"));
    let out = judge()
        .args(["--color", "always", "search", "守護", "--game", "sve"])
        .output()
        .unwrap();
    assert!(
        String::from_utf8(out.stdout).unwrap().contains('\u{1b}'),
        "--color always colours"
    );
}

#[test]
fn no_hits_exit_1_with_help() {
    judge()
        .args(["search", "mulligan", "--game", "pso2"])
        .assert()
        .code(1)
        .stdout(predicate::str::is_empty())
        .stderr(predicate::str::contains("no clause matches"))
        .stderr(predicate::str::contains("sve"));
    judge()
        .args(["search", "wrad"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("ward"));
    judge()
        .args(["search", "守護", "投了", "--game", "sve"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("each word alone"));
}

#[test]
fn bad_input_exits_2_with_a_diagnostic() {
    judge()
        .args(["search", ""])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("empty query"));
    judge()
        .args(["search", "守護", "--game", "mtg"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("unknown game").and(predicate::str::contains("sve")));
    judge()
        .args(["search", "守護", "--game", "sve", "--under", "99.99"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("99.99"));
    judge()
        .args(["search", "守護", "--under", "zz"])
        .assert()
        .code(2);
    judge()
        .args(["search", "a", "OR"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("OR"));
    judge()
        .args(["search", "\"open"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("quote"));
    judge()
        .args(["search", "-守護"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("only exclusions"));
    judge().args(["search"]).assert().code(2);
}

/// Runs `judge search ARGS` with NO_COLOR and returns (exit code, stdout, stderr).
fn run_search(args: &[&str]) -> (i32, String, String) {
    let out = judge().arg("search").args(args).output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn golden_partial_matches_come_before_the_suggestions() {
    // Issue 17: "simultaneous destruction" (同時, 破壊) share no SVE clause.
    let (code, stdout, stderr) = run_search(&["simultaneous", "destruction", "--game", "sve"]);
    assert_eq!(code, 1, "no full match still exits 1");
    let partial_at = stderr.find("partial matches").expect("labelled partial");
    let counts_at = stderr.find("each word alone").expect("suggestions follow");
    assert!(partial_at < counts_at, "{stderr}");
    insta::assert_snapshot!(
        "partial_matches_table",
        format!("exit {code}\n--- stdout\n{stdout}--- stderr\n{stderr}")
    );
    let (code, stdout, _) = run_search(&["simultaneous", "destruction", "--game", "sve", "--json"]);
    assert_eq!(code, 1);
    let rows: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    for r in rows.as_array().unwrap() {
        assert_eq!(r["partial"], true);
        assert_eq!(r["missing_terms"].as_array().unwrap().len(), 1);
    }
    insta::assert_json_snapshot!("partial_matches_json", rows);
}

#[test]
fn full_matches_are_not_labelled_partial() {
    let hits = search_json(&["守護", "--game", "sve"]);
    assert!(hits.iter().all(|h| h.get("partial").is_none()));
    // A one-word query with no match has no partial matches.
    let (code, stdout, stderr) = run_search(&["mulligan", "--game", "pso2"]);
    assert_eq!(code, 1);
    assert!(stdout.is_empty() && !stderr.contains("partial"), "{stderr}");
}

//! The `rule`, `toc` and `games` commands, run as the real binary.

use assert_cmd::Command;
use predicates::prelude::*;

fn judge() -> Command {
    let mut c = Command::cargo_bin("judge").unwrap();
    c.env("NO_COLOR", "1");
    c
}

fn rule_json(args: &[&str]) -> serde_json::Value {
    let out = judge()
        .arg("rule")
        .args(args)
        .arg("--json")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn rule_json_has_the_documented_fields_with_canonical_ids() {
    for (game, id) in [
        ("sve", "10.5.2"),
        ("pmv", "1.10.12"),
        ("dz", "4.9.2"),
        ("pso2", "506.3"),
    ] {
        let v = rule_json(&[game, id]);
        assert_eq!(v["game"], game);
        assert_eq!(v["id"], id);
        for key in [
            "title",
            "text",
            "children",
            "refs",
            "breadcrumb",
            "referenced_by",
            "examples",
        ] {
            assert!(v.get(key).is_some(), "{game} {id}: missing {key}");
        }
    }
}

#[test]
fn every_spelling_a_judge_writes_finds_the_same_clause() {
    for (game, spelling, id) in [
        ("sve", "１０．５．２", "10.5.2"),
        ("sve", "10.5.2.", "10.5.2"),
        ("sve", "1.3.2 item 2", "1.3.2.2"),
        ("dz", "4.9.2-1", "4.9.2-1"),
        ("dz", "第4部第9章2-1", "4.9.2-1"),
        ("dz", "第４部 第９章 ２－１", "4.9.2-1"),
        ("dz", "第4部第9章第2節第1項", "4.9.2-1"),
        ("pmv", "1.10.12.f", "1.10.12.f"),
    ] {
        let v = rule_json(&[game, spelling]);
        assert_eq!(v["id"], id, "{game} {spelling}");
    }
}

#[test]
fn trailing_dot_prints_the_clause_alone() {
    let with = rule_json(&["sve", "10.5.2"]);
    let alone = rule_json(&["sve", "10.5.2."]);
    assert!(!with["children"].as_array().unwrap().is_empty());
    assert!(alone["children"].as_array().unwrap().is_empty());
}

#[test]
fn prefixes_are_exact() {
    // 10.5 is a section of SVE; 10.50 does not exist and must not fall back to 10.5.
    judge()
        .args(["rule", "sve", "10.50"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("no clause `10.50`"));
}

#[test]
fn unknown_id_suggests_nearest() {
    judge()
        .args(["rule", "sve", "10.5.99"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("nearest ids").and(predicate::str::contains("10.5.")));
}

#[test]
fn unknown_game_lists_valid_games() {
    judge()
        .args(["rule", "mtg", "100.1"])
        .assert()
        .code(2)
        .stderr(
            predicate::str::contains("unknown game `mtg`")
                .and(predicate::str::contains("pmv, pso2, sve, dz")),
        );
}

#[test]
fn malformed_id_is_a_diagnostic_not_a_panic() {
    for bad in ["", "???", "第x部", "10..5", "ｘｙｚ"] {
        let out = judge().args(["rule", "sve", bad]).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{bad:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!err.contains("panicked"), "{bad:?}: {err}");
    }
}

#[test]
fn text_output_shows_breadcrumb_text_and_references() {
    judge()
        .args(["rule", "sve", "10.5.2"])
        .assert()
        .success()
        .stdout(predicate::str::contains("sve 1.7.0 ›").and(predicate::str::contains("10.5.2.1")));
}

#[test]
fn a_user_rulebook_file_is_looked_up_like_the_bundled_one() {
    let dir = std::env::temp_dir().join(format!("judge-user-rb-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("sve-copy.txt");
    std::fs::copy(
        concat!(env!("CARGO_MANIFEST_DIR"), "/rulebooks/sve-1.7.0.txt"),
        &file,
    )
    .unwrap();
    let bundled = rule_json(&["sve", "10.5.2"]);
    let user = rule_json(&["sve", "10.5.2", "--rulebook", file.to_str().unwrap()]);
    assert_eq!(bundled["text"], user["text"]);
    assert_eq!(bundled["children"], user["children"]);
}

#[test]
fn a_user_rulebook_that_cannot_be_parsed_names_the_line() {
    let dir = std::env::temp_dir().join(format!("judge-bad-rb-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("empty.txt");
    std::fs::write(&file, "").unwrap();
    judge()
        .args(["rule", "sve", "1.1", "--rulebook", file.to_str().unwrap()])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("cannot parse rulebook at line"));
    judge()
        .args(["rule", "sve", "1.1", "--rulebook", "/nonexistent/x.txt"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("cannot read"));
}

#[test]
fn toc_lists_chapters_and_subtrees() {
    judge()
        .args(["toc", "sve"])
        .assert()
        .success()
        .stdout(predicate::str::contains("10.5"));
    let out = judge()
        .args(["toc", "sve", "10.5", "--json"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let ids: Vec<&str> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids[0], "10.5");
    assert!(ids.contains(&"10.5.2.1"));
    // Exact prefixes: nothing from 10.50+ or 10.6 leaks in.
    assert!(
        ids.iter()
            .all(|id| *id == "10.5" || id.starts_with("10.5."))
    );
}

#[test]
fn games_lists_every_bundled_document() {
    let out = judge().args(["games", "--json"]).output().unwrap();
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let docs: Vec<&str> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["document"].as_str().unwrap())
        .collect();
    assert_eq!(docs, ["pmv", "pmv-web", "pso2", "sve", "dz"]);
    for e in v.as_array().unwrap() {
        assert!(e["clauses"].as_u64().unwrap() > 10, "{e}");
    }
}

#[test]
fn completions_are_generated_for_common_shells() {
    for shell in ["bash", "zsh", "fish"] {
        judge()
            .args(["completions", shell])
            .assert()
            .success()
            .stdout(predicate::str::contains("judge"));
    }
}

#[test]
fn help_has_examples_and_exit_codes() {
    judge()
        .arg("--help")
        .assert()
        .success()
        .stdout(predicate::str::contains("Examples:").and(predicate::str::contains("Exit codes:")));
}

#[test]
fn a_closed_pipe_does_not_panic() {
    use std::io::Read;
    use std::process::Stdio;
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("judge"))
        .args(["toc", "dz", "--depth", "9"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut out = child.stdout.take().unwrap();
    let mut buf = [0u8; 16];
    out.read_exact(&mut buf).unwrap();
    drop(out);
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    child.wait().unwrap();
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn full_width_game_ids_are_accepted() {
    let v = rule_json(&["ＳＶＥ", "10.5.2"]);
    assert_eq!(v["game"], "sve");
}

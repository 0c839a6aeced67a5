//! `judge diff`: the bundled PMV pair agrees; a modified copy of the text
//! reports exactly the changes made to it; JSON shape; bad input.

use std::path::PathBuf;

use assert_cmd::Command;
use serde_json::Value;

fn judge() -> Command {
    let mut c = Command::cargo_bin("judge").unwrap();
    c.env("NO_COLOR", "1");
    c
}

fn raw() -> String {
    std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/rulebooks/pmv-2.05.txt"
    ))
    .unwrap()
}

/// Writes `text` to a file unique to this test and process.
fn temp_file(name: &str, text: &str) -> PathBuf {
    let p = std::env::temp_dir().join(format!("judge-diff-{}-{name}.txt", std::process::id()));
    std::fs::write(&p, text).unwrap();
    p
}

fn json_of(out: &assert_cmd::assert::Assert) -> Value {
    serde_json::from_slice(&out.get_output().stdout).unwrap()
}

/// Replaces raw line `n` (1-based) of `lines`, checking what was there.
fn replace_line(lines: &mut [String], n: usize, expect_prefix: &str, new: &str) {
    assert!(
        lines[n - 1].starts_with(expect_prefix),
        "line {n}: {}",
        lines[n - 1]
    );
    lines[n - 1] = new.to_string();
}

#[test]
fn bundled_text_and_web_edition_agree() {
    let out = judge().args(["diff", "pmv"]).assert().code(0);
    let s = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(s.contains("pmv-web covers only chapter 5"), "{s}");
    assert!(s.contains("agree: 95 clauses compared"), "{s}");
    // Research note §3: 4 clauses differ in width or spacing only.
    assert!(
        s.contains("4 clause(s) differ only in character width or spacing (not counted): 5.3, 5.3.1.c, 5.3.2, 5.6.2"),
        "{s}"
    );
    // Either direction.
    judge()
        .args(["diff", "pmv", "--old", "pmv-web", "--new", "pmv"])
        .assert()
        .code(0);
}

#[test]
fn a_document_agrees_with_itself_over_the_whole_book() {
    let out = judge()
        .args(["diff", "pmv", "--new", "pmv", "--json"])
        .assert()
        .code(0);
    let v = json_of(&out);
    assert_eq!(v["scope"]["partial"], false);
    assert_eq!(v["summary"]["compared"], 1289 + 2 + 2 + 33);
    assert_eq!(v["summary"]["cosmetic"], 0);
}

#[test]
fn a_modified_copy_reports_exactly_its_changes() {
    let mut lines: Vec<String> = raw().split('\n').map(str::to_string).collect();
    // Change a sentence: starting life 25 -> 30 (1.9.1, L474).
    replace_line(
        &mut lines,
        474,
        "1.9.1 ",
        "1.9.1 各プレイヤーのゲーム開始時点でのライフポイントは３０点である。 ",
    );
    // Renumber one: 12.7.2 (L3775) becomes 12.7.5, text unchanged.
    let l = lines[3774].replacen("12.7.2 ", "12.7.5 ", 1);
    replace_line(&mut lines, 3775, "12.7.2 ", &l);
    // Add one after 12.10.3 (L3826, the last clause before the appendix).
    lines.insert(3826, "12.10.4 新しく追加されたルールである。 ".to_string());
    lines.insert(3826, String::new());
    // Delete one: 12.7.3 (L3777) and its blank separator.
    assert!(lines[3776].starts_with("12.7.3 "));
    lines.drain(3776..3778);
    let path = temp_file("modified", &lines.join("\n"));

    let out = judge()
        .args(["diff", "pmv", "--new-file"])
        .arg(&path)
        .arg("--json")
        .assert()
        .code(1);
    let v = json_of(&out);
    assert_eq!(v["agree"], false);
    assert_eq!(v["scope"]["partial"], false);
    let ids = |key: &str, field: &str| -> Vec<String> {
        v[key]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e[field].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(ids("changed", "id"), ["1.9.1"]);
    assert_eq!(ids("added", "id"), ["12.10.4"]);
    assert_eq!(ids("removed", "id"), ["12.7.3"]);
    assert_eq!(ids("moved", "from"), ["12.7.2"]);
    assert_eq!(ids("moved", "to"), ["12.7.5"]);
    assert_eq!(v["cosmetic"].as_array().unwrap().len(), 0);
    let words: Vec<(String, String)> = v["changed"][0]["words"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| {
            (
                w["op"].as_str().unwrap().to_string(),
                w["text"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let changed: Vec<(&str, &str)> = words
        .iter()
        .filter(|(op, _)| op != "equal")
        .map(|(a, b)| (a.as_str(), b.as_str()))
        .collect();
    assert_eq!(changed, [("delete", "２５"), ("insert", "３０")]);

    // The human-readable report shows the changed words.
    let out = judge()
        .args(["diff", "pmv", "--new-file"])
        .arg(&path)
        .assert()
        .code(1);
    let s = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(
        s.contains("ライフポイントは[-２５-]{+３０+}点である。"),
        "{s}"
    );
    assert!(s.contains("moved 12.7.2 → 12.7.5"), "{s}");
    assert!(
        s.contains("differ: 1 changed, 1 added, 1 removed, 1 moved"),
        "{s}"
    );
    let _ = std::fs::remove_file(path);
}

#[test]
fn width_and_spacing_noise_is_not_a_change() {
    // Fold 1.9.1's full-width digits and add a stray space: cosmetic only.
    let mut lines: Vec<String> = raw().split('\n').map(str::to_string).collect();
    replace_line(
        &mut lines,
        474,
        "1.9.1 ",
        "1.9.1 各プレイヤーのゲーム開始時点での ライフポイントは25点である。 ",
    );
    let path = temp_file("noise", &lines.join("\n"));
    let out = judge()
        .args(["diff", "pmv", "--new-file"])
        .arg(&path)
        .arg("--json")
        .assert()
        .code(0);
    let v = json_of(&out);
    assert_eq!(v["cosmetic"], serde_json::json!(["1.9.1"]));
    let _ = std::fs::remove_file(path);
}

#[test]
fn json_shape() {
    let out = judge().args(["diff", "pmv", "--json"]).assert().code(0);
    let v = json_of(&out);
    for key in [
        "game", "old", "new", "scope", "agree", "summary", "added", "removed", "changed", "moved",
        "cosmetic",
    ] {
        assert!(v.get(key).is_some(), "missing {key}");
    }
    assert_eq!(v["game"], "pmv");
    assert_eq!(v["old"]["document"], "pmv");
    assert_eq!(v["new"]["document"], "pmv-web");
    assert_eq!(v["new"]["version"], "2.05");
    assert_eq!(v["scope"]["top_level"], serde_json::json!(["5"]));
    assert_eq!(
        v["summary"],
        serde_json::json!({"added": 0, "removed": 0, "changed": 0, "moved": 0, "cosmetic": 4, "compared": 95})
    );
}

#[test]
fn bad_input_exits_2_with_a_diagnostic() {
    // A file that is not a rulebook: the diagnostic names the line.
    let path = temp_file("garbage", "これはルールではない\n\n何もない\n");
    let out = judge()
        .args(["diff", "pmv", "--new-file"])
        .arg(&path)
        .assert()
        .code(2);
    let err = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    assert!(err.contains("cannot parse rulebook at line"), "{err}");
    assert!(err.contains("Version"), "{err}");
    let _ = std::fs::remove_file(path);

    let out = judge()
        .args(["diff", "pmv", "--new-file", "/nonexistent/pmv.txt"])
        .assert()
        .code(2);
    assert!(String::from_utf8_lossy(&out.get_output().stderr).contains("cannot read"));

    let out = judge()
        .args(["diff", "pmv", "--old", "sve"])
        .assert()
        .code(2);
    assert!(String::from_utf8_lossy(&out.get_output().stderr).contains("pmv, pmv-web"));

    judge().args(["diff", "nosuchgame"]).assert().code(2);
    // A game with one bundled document needs a second side.
    let out = judge().args(["diff", "sve"]).assert().code(2);
    assert!(String::from_utf8_lossy(&out.get_output().stderr).contains("--new-file"));
}

#[test]
fn a_saved_web_page_is_read_in_the_web_format() {
    // The bundled web page, saved by a judge, with one sentence changed.
    let page = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/rulebooks/pmv-2.05-web-ch5.txt"
    ))
    .unwrap()
    .replace(
        "そのカードの表側を参照することが出来る。",
        "そのカードの表側を参照することは出来ない。",
    );
    let path = temp_file("webpage", &page);
    let out = judge()
        .args(["diff", "pmv", "--new-file"])
        .arg(&path)
        .arg("--json")
        .assert()
        .code(1);
    let v = json_of(&out);
    assert_eq!(v["scope"]["top_level"], serde_json::json!(["5"]));
    assert_eq!(v["summary"]["changed"], 1);
    assert_eq!(v["changed"][0]["id"], "5.7.5");
    let _ = std::fs::remove_file(path);
}

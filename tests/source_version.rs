//! `source.rules_version`: a published answer given for another rulebook
//! version is kept pinned to it, and the trace opens with a judge's note
//! saying so. Through the real binary.

use assert_cmd::Command;
use serde_json::Value;

const QA: &str = "rulings/pmv/QA-001-pierce-blocker-and-player-damaged-at-once.json";

fn judge() -> Command {
    let mut c = Command::cargo_bin("judge").unwrap();
    c.env("NO_COLOR", "1");
    c.env_remove("COLUMNS");
    c
}

/// The ruling at `path` with `source.rules_version` set to `version` (and,
/// with `kind`, its source kind replaced), written to a temporary file.
fn pinned(path: &str, version: &str, kind: Option<&str>) -> std::path::PathBuf {
    let mut v: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    v["source"]["rules_version"] = version.into();
    if let Some(k) = kind {
        v["source"] =
            serde_json::json!({"kind": k, "clause": "10.5.2.a", "rules_version": version});
    }
    let dir = std::env::temp_dir().join(format!("judge-version-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(format!("{}-{version}.json", kind.unwrap_or("qa")));
    std::fs::write(&p, serde_json::to_string_pretty(&v).unwrap()).unwrap();
    p
}

fn trace(path: &std::path::Path) -> Vec<Value> {
    let out = judge().args(["run", "--json"]).arg(path).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    v["outcome"]["trace"].as_array().unwrap().clone()
}

#[test]
fn an_answer_for_another_version_opens_the_trace_with_a_note() {
    let before = trace(std::path::Path::new(QA));
    let old = pinned(QA, "1.50", None);
    let t = trace(&old);
    assert_eq!(t.len(), before.len() + 1);
    assert_eq!(t[0]["step"], "source.rules_version");
    assert_eq!(t[0]["seq"], 1);
    let note = t[0]["note"].as_str().unwrap();
    assert!(note.contains("1.50") && note.contains("2.05"), "{note}");
    assert_eq!(t[1]["step"], before[0]["step"]);
    assert_eq!(t[1]["seq"], 2);
    // The ruling still holds as answered.
    judge().arg("check").arg(&old).assert().code(0);
    let text = judge().arg("run").arg(&old).output().unwrap();
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(
        text.contains("judge's note: this official qa answers rules version 1.50"),
        "{text}"
    );
    // The bundled version gives no note.
    let same = pinned(QA, "2.05", None);
    assert_eq!(trace(&same).len(), before.len());
}

/// stderr read as one line (miette wraps its messages).
fn one_line(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr)
        .replace('│', " ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn a_bad_rules_version_is_a_located_diagnostic() {
    let bad = pinned(QA, "two", None);
    let out = judge().arg("check").arg(&bad).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = one_line(&out);
    assert!(
        err.contains("`two` is not a rulebook version (at `source.rules_version`)"),
        "{err}"
    );
    // Only a published answer is pinned by its source.
    let worked = pinned(QA, "1.50", Some("worked_example"));
    let out = judge().arg("check").arg(&worked).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = one_line(&out);
    assert!(err.contains("unknown field `rules_version`"), "{err}");
}

//! Provenance of the project's own corpus (issue 13): every ruling and
//! scenario file says where it comes from in the structured `source`, never
//! in the free text of format 1 (which the loader still reads for older
//! files).

use std::path::{Path, PathBuf};

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            files(&p, out);
        } else if p.extension().is_some_and(|e| e == "json")
            && !p.to_string_lossy().ends_with(".pool.json")
        {
            out.push(p);
        }
    }
}

fn corpus() -> Vec<(PathBuf, serde_json::Value)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut out = Vec::new();
    for d in ["rulings", "scenarios"] {
        files(&root.join(d), &mut out);
    }
    assert!(out.len() > 400, "the corpus was not found: {}", out.len());
    out.into_iter()
        .map(|p| {
            let v = serde_json::from_str(&std::fs::read_to_string(&p).unwrap())
                .unwrap_or_else(|e| panic!("{}: {e}", p.display()));
            (p, v)
        })
        .collect()
}

#[test]
fn no_ruling_or_scenario_uses_the_free_text_source() {
    let bad: Vec<String> = corpus()
        .into_iter()
        .filter(|(_, v)| v["source"]["kind"].as_str().is_none())
        .map(|(p, _)| p.display().to_string())
        .collect();
    assert!(
        bad.is_empty(),
        "{} files give `source` as free text; write {{\"kind\": …}} (scenarios/README.md):\n{}",
        bad.len(),
        bad.join("\n")
    );
}

#[test]
fn a_rulebook_example_ruling_names_an_example() {
    // The kind is only honest when the id points at the rulebook's example
    // (the loader checks that `judge rule` resolves it).
    for (p, v) in corpus() {
        if v["source"]["kind"] == "rulebook_example" {
            assert!(
                v["source"]["example"]
                    .as_str()
                    .is_some_and(|e| !e.is_empty()),
                "{}",
                p.display()
            );
        }
    }
}

fn judge() -> assert_cmd::Command {
    let mut c = assert_cmd::Command::cargo_bin("judge").unwrap();
    c.env("NO_COLOR", "1")
        .current_dir(env!("CARGO_MANIFEST_DIR"));
    c
}

/// A directory of its own for one test's files.
fn dir(test: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("judge-prov-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A PMV scenario with `source` in which p1 concedes; `result` is what
/// it expects.
fn scenario(source: &str, result: &str) -> String {
    format!(
        r#"{{"game": "pmv", "name": "concede", "source": {source},
  "state": {{"turn": {{"player": "p1", "phase": "main", "number": 1}}, "players": {{}}}},
  "actions": [{{"player": "p1", "do": "concede"}}],
  "expect": {{"result": "{result}"}}}}"#
    )
}

const QA: &str = r#"{"kind": "official_qa", "url": "https://example.com/qa", "date": "2024-05-01", "question": "Q1", "summary": "a player may concede at any time"}"#;
const WORKED: &str = r#"{"kind": "worked_example", "clause": "1.5.3.d"}"#;

#[test]
fn check_ends_with_a_line_per_kind() {
    let d = dir("kinds");
    std::fs::write(d.join("a.json"), scenario(QA, "p2")).unwrap();
    std::fs::write(d.join("b.json"), scenario(WORKED, "p2")).unwrap();
    std::fs::write(d.join("c.json"), scenario(WORKED, "p1")).unwrap();
    let out = judge().arg("check").arg(&d).output().unwrap();
    assert_eq!(out.status.code(), Some(1), "c.json fails");
    let text = String::from_utf8_lossy(&out.stdout);
    let tail: Vec<&str> = text.lines().rev().take(2).collect();
    assert_eq!(
        tail,
        [
            "re-proved 1 of 2 worked examples (worked_example)",
            "re-proved 1 of 1 published Q&A answer (official_qa)",
        ],
        "{text}"
    );
}

#[test]
fn check_kind_runs_one_kind_in_text_and_json() {
    let d = dir("one-kind");
    std::fs::write(d.join("a.json"), scenario(QA, "p2")).unwrap();
    // A failing worked example is not run when only Q&A answers are asked for.
    std::fs::write(d.join("b.json"), scenario(WORKED, "p1")).unwrap();
    for kind in ["official_qa", "published"] {
        let out = judge()
            .args(["check", "--kind", kind])
            .arg(&d)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{out:?}");
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.starts_with("1 scenarios: 1 passed"), "{text}");
        assert!(!text.contains("worked"), "{text}");
    }
    let out = judge()
        .args(["check", "--json", "--kind", "worked_example"])
        .arg(&d)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let rows = v.as_array().unwrap();
    assert_eq!(rows.len(), 1, "{v}");
    assert_eq!(rows[0]["kind"], "worked_example");
    assert_eq!(rows[0]["status"], "fail");
    let bad = judge()
        .args(["check", "--kind", "rumour"])
        .arg(&d)
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
}

#[test]
fn a_bad_source_is_a_located_diagnostic() {
    let d = dir("bad");
    let f = d.join("bad.json");
    std::fs::write(&f, scenario(&QA.replace("2024-05-01", "2024-13-01"), "p2")).unwrap();
    let out = judge().arg("check").arg(&f).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("is not a date YYYY-MM-DD (at `source.date`)"),
        "{err}"
    );
    assert!(
        err.contains("bad.json:1:"),
        "the diagnostic gives line and column: {err}"
    );
    // --kind still selects a file that does not load, by its written kind.
    let out = judge()
        .args(["check", "--json", "--kind", "official_qa"])
        .arg(&f)
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v[0]["status"], "error", "{v}");
}

#[test]
fn the_corpus_summary_shows_each_kind() {
    let out = judge()
        .args(["check", "rulings/", "scenarios/"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    for kind in [
        "official_qa",
        "rulebook_example",
        "judge_reading",
        "worked_example",
    ] {
        assert!(text.contains(&format!("({kind})")), "{text}");
    }
    assert!(!text.contains("(text)"), "{text}");
}

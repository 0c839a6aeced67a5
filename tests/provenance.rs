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

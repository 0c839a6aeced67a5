//! The two checks that keep the rulings corpus honest (issue 13):
//! - every ruling asserts the clause it is named after (in `expect.cites`,
//!   a rejection's rule, or a trace pattern's `cites`), so that an engine
//!   that stopped applying that clause would fail it;
//! - no ruling's expectations are satisfied by an engine that does nothing
//!   (the board after running no actions, with no trace and no rejection),
//!   unless `expect.negative` says which naive outcome the ruling rules out.

use std::path::{Path, PathBuf};

use tcg_judge::engine::Outcome;
use tcg_judge::scenario::{expect, load_file};

/// Rulings whose fix needs an engine or expectation change in a module the
/// issue-13 helper does not own, each with what is missing. The list may
/// only shrink: a listed file that passes the check is reported.
const NAMED_CLAUSE_PENDING: &[(&str, &str)] = &[];
const DO_NOTHING_PENDING: &[(&str, &str)] = &[];

/// `bad` (paths relative to the crate) less the pending entries, and the
/// pending entries that no longer fail.
fn split_pending(bad: Vec<String>, pending: &[(&str, &str)]) -> (Vec<String>, Vec<String>) {
    let rel = |b: &str| b.split_once(" (").map_or(b, |(p, _)| p).to_string();
    let stale = pending
        .iter()
        .filter(|(p, _)| !bad.iter().any(|b| rel(b) == *p))
        .map(|(p, why)| format!("{p} ({why})"))
        .collect();
    let bad = bad
        .into_iter()
        .filter(|b| !pending.iter().any(|(p, _)| rel(b) == *p))
        .collect();
    (bad, stale)
}

fn rel(f: &Path) -> String {
    f.strip_prefix(env!("CARGO_MANIFEST_DIR"))
        .unwrap_or(f)
        .display()
        .to_string()
}

fn rulings() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("rulings");
    let files = tcg_judge::cli::check::collect(&[root]).unwrap();
    assert!(files.len() > 400, "the corpus was not found");
    files
}

/// The clause a ruling file is named after: the longest run of its name's
/// `-`-separated parts, from the start, that is a clause of the game's
/// rulebook (`10.5.2.a-…`, `300.2.1@2-…`, DZ `3.12.4-1-ex1-…` → `3.12.4-1`).
/// Files named otherwise (`QA-01-…`) name none.
fn named_clause(game: &str, file: &Path) -> Option<String> {
    let name = file.file_name()?.to_str()?.trim_end_matches(".json");
    let book = tcg_judge::bundle::game(game).ok()?;
    let parts: Vec<&str> = name.split('-').collect();
    (1..=parts.len())
        .map(|n| parts[..n].join("-"))
        .rfind(|id| book.get(id).is_some())
}

/// `a` asserts `named`: it is that clause or one of its sub-clauses
/// (`.` and, in DZ, `-` items; `GL` and `RAID` name the glossary and the
/// raid rules, whose entries are `GL:…`, `RAID:…`; `302.1@2` is the second
/// printing of 302.1).
fn asserts(a: &str, named: &str) -> bool {
    let bare = |s: &str| s.split(['#', '@']).next().unwrap_or(s).to_string();
    let (a, named) = (bare(a), bare(named));
    a == named
        || [".", ":", "-"]
            .iter()
            .any(|sep| a.starts_with(&format!("{named}{sep}")))
}

#[test]
fn every_ruling_asserts_the_clause_it_is_named_after() {
    let mut bad = Vec::new();
    for f in rulings() {
        let text = std::fs::read_to_string(&f).unwrap();
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        let game = v["game"].as_str().unwrap_or("");
        let Some(named) = named_clause(game, &f) else {
            continue;
        };
        let ex = &v["expect"];
        let mut ids: Vec<String> = Vec::new();
        let strs = |x: &serde_json::Value| -> Vec<String> {
            match x {
                serde_json::Value::String(s) => vec![s.clone()],
                serde_json::Value::Array(a) => a
                    .iter()
                    .filter_map(|s| s.as_str().map(String::from))
                    .collect(),
                _ => Vec::new(),
            }
        };
        ids.extend(strs(&ex["cites"]));
        for r in ex["rejected"].as_array().into_iter().flatten() {
            ids.extend(strs(&r["rule"]));
        }
        for p in ex["trace"].as_array().into_iter().flatten() {
            ids.extend(strs(&p["cites"]));
        }
        if !ids.iter().any(|a| asserts(a, &named)) {
            bad.push(format!("{} (asserts {})", rel(&f), ids.join(", ")));
        }
    }
    let (bad, stale) = split_pending(bad, NAMED_CLAUSE_PENDING);
    assert!(
        stale.is_empty(),
        "fixed: remove from NAMED_CLAUSE_PENDING:\n{}",
        stale.join("\n")
    );
    assert!(
        bad.is_empty(),
        "{} rulings do not assert the clause they are named after:\n{}",
        bad.len(),
        bad.join("\n")
    );
}

/// Whether the ruling's expectations of the outcome (result, final state,
/// checkpoints) all hold on the board an engine that does nothing leaves:
/// the starting board as the file sets it, with no trace. A ruling that expects a rejection is
/// never hollow (an engine doing nothing rejects nothing); one that expects
/// citations is hollow when its board expectations alone would pass.
fn hollow(loaded: &tcg_judge::scenario::Loaded) -> bool {
    let ex = &loaded.scenario.expect;
    if !ex.rejected.is_empty() {
        return false;
    }
    // The printed values only: the game's derived values (continuous
    // effects, modifiers) are work the engine does.
    let start = tcg_judge::engine::snapshot(&loaded.game, &|_, _| Vec::new());
    let board = tcg_judge::scenario::format::Expect {
        result: ex.result.clone(),
        state: ex.state.clone(),
        checkpoints: ex
            .checkpoints
            .iter()
            .map(|c| tcg_judge::scenario::format::Checkpoint {
                after: 0,
                ..c.clone()
            })
            .collect(),
        ..Default::default()
    };
    let outcome = Outcome {
        trace: Vec::new(),
        rejections: Vec::new(),
        checkpoints: vec![Some(start.clone())],
        result: tcg_judge::engine::result_word(&loaded.game.result),
        state: start,
        error: None,
        steps: 0,
        open: Default::default(),
    };
    expect::check(&board, &outcome).pass
}

#[test]
fn no_ruling_passes_on_an_engine_that_does_nothing() {
    let mut bad = Vec::new();
    for f in rulings() {
        let loaded = load_file(&f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        if loaded.scenario.expect.negative.is_some() {
            continue;
        }
        if hollow(&loaded) {
            bad.push(rel(&f));
        }
    }
    let (bad, stale) = split_pending(bad, DO_NOTHING_PENDING);
    assert!(
        stale.is_empty(),
        "fixed: remove from DO_NOTHING_PENDING:\n{}",
        stale.join("\n")
    );
    assert!(
        bad.is_empty(),
        "{} rulings pass on an engine that does nothing (strengthen them, or say in `expect.negative` which naive outcome they rule out):\n{}",
        bad.len(),
        bad.join("\n")
    );
}

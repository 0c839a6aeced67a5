//! The checks that keep the rulings corpus honest (issue 13):
//! - every ruling asserts the clause it is named after (in `expect.cites`,
//!   a rejection's rule, or a trace pattern's `cites`), so that an engine
//!   that stopped applying that clause would fail it;
//! - no ruling's expectations are satisfied by an engine that does nothing
//!   (the board after running no actions, with no trace and no rejection),
//!   unless `expect.negative` says which naive outcome the ruling rules out;
//! - no `never` pattern or `not_cited` clause (rulings and scenarios) names
//!   a step the engine never takes or a clause it never cites, which could
//!   not fail.

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

/// What any run of a ruling's actions does, whatever the rule under test:
/// a played command (PMV) or spell (SVE) goes to its owner's netherworld or
/// cemetery once resolved, and an attacker or blocker goes to sleep. An
/// expectation of these alone proves nothing about the ruling's clause.
struct Routine {
    /// Played cards and the zone kind their resolution ends in.
    played: Vec<(String, &'static str)>,
    /// Cards that attacked or blocked.
    fighters: Vec<String>,
}

fn routine_moves(loaded: &tcg_judge::scenario::Loaded) -> Routine {
    let mut r = Routine {
        played: Vec::new(),
        fighters: Vec::new(),
    };
    for a in &loaded.scenario.actions {
        let Some(card) = a.card.clone() else { continue };
        match a.kind.as_str() {
            "play" => {
                let kind = loaded.game.def_of(&card).map(|d| d.card_type.as_str());
                match kind {
                    Some("command") => r.played.push((card, "netherworld")),
                    Some("spell") => r.played.push((card, "cemetery")),
                    _ => {}
                }
            }
            "attack" | "block" => r.fighters.push(card),
            _ => {}
        }
    }
    r
}

/// `state` (an expected partial state) less the routine expectations: a
/// played command's or spell's zone when it is the netherworld / cemetery,
/// and `sleep` among a fighter's states. A card left with no expectation
/// is dropped, and so are `cards` and the state itself when nothing is left
/// (`None`): an empty object would assert emptiness, not "nothing".
fn without_routine(state: &serde_json::Value, r: &Routine) -> Option<serde_json::Value> {
    let mut state = state.clone();
    let Some(cards) = state.get_mut("cards").and_then(|c| c.as_object_mut()) else {
        return Some(state);
    };
    for (id, zone_kind) in &r.played {
        if let Some(e) = cards.get_mut(id).and_then(|e| e.as_object_mut()) {
            let routine_zone = e
                .get("zone")
                .and_then(|z| z.as_str())
                .is_some_and(|z| z.rsplit('.').next() == Some(*zone_kind));
            if routine_zone {
                e.remove("zone");
            }
        }
    }
    for id in &r.fighters {
        if let Some(e) = cards.get_mut(id).and_then(|e| e.as_object_mut())
            && let Some(states) = e.get_mut("state").and_then(|s| s.as_array_mut())
            && states.iter().any(|s| s == "sleep")
        {
            states.retain(|s| s != "sleep");
            if states.is_empty() {
                e.remove("state");
            }
        }
    }
    cards.retain(|_, e| e.as_object().is_none_or(|o| o.keys().any(|k| k != "//")));
    if cards.is_empty()
        && let Some(o) = state.as_object_mut()
    {
        o.remove("cards");
    }
    state
        .as_object()
        .is_none_or(|o| !o.is_empty())
        .then_some(state)
}

/// The board an engine that does nothing leaves: the starting board as the
/// file sets it, each card with its characteristics (attack, durability,
/// defense…) as printed. The snapshot of the raw board has none, so they
/// are read from a run with no actions of the same board with every
/// printed ability removed (a continuous ability's change is work the
/// engine does); nothing else of that run is used, since the steps a game
/// runs before the first action (setup, a phase's start) are work too.
fn starting_board(loaded: &tcg_judge::scenario::Loaded) -> serde_json::Value {
    let mut start = tcg_judge::engine::snapshot(&loaded.game, &|_, _| Vec::new());
    let mut bare = loaded.game.clone();
    bare.defs.change_each(|def| def.abilities.clear());
    let idle = loaded.module.run(bare, &[]).state;
    let (Some(cards), Some(idle_cards)) = (
        start.get_mut("cards").and_then(|c| c.as_object_mut()),
        idle.get("cards").and_then(|c| c.as_object()),
    ) else {
        return start;
    };
    for (id, card) in cards.iter_mut() {
        let (Some(card), Some(idle)) = (
            card.as_object_mut(),
            idle_cards.get(id).and_then(|c| c.as_object()),
        ) else {
            continue;
        };
        for (k, v) in idle {
            if !card.contains_key(k) {
                card.insert(k.clone(), v.clone());
            }
        }
    }
    start
}

/// Whether the ruling's expectations of the outcome (result, final state,
/// checkpoints) all hold on the board an engine that does nothing leaves:
/// the starting board as the file sets it, with no trace, once the routine
/// expectations any run meets are set aside ([`without_routine`]). A ruling
/// that expects a rejection is
/// never hollow (an engine doing nothing rejects nothing); one that expects
/// citations is hollow when its board expectations alone would pass.
fn hollow(loaded: &tcg_judge::scenario::Loaded) -> bool {
    let ex = &loaded.scenario.expect;
    if !ex.rejected.is_empty() {
        return false;
    }
    let start = starting_board(loaded);
    let routine = routine_moves(loaded);
    let board = tcg_judge::scenario::format::Expect {
        result: ex.result.clone(),
        state: ex.state.as_ref().and_then(|s| without_routine(s, &routine)),
        checkpoints: ex
            .checkpoints
            .iter()
            .filter_map(|c| {
                Some(tcg_judge::scenario::format::Checkpoint {
                    after: 0,
                    state: without_routine(&c.state, &routine)?,
                })
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

/// A `never` pattern whose `step` no run of the corpora ever takes, in
/// that game, could not fail whatever the engine does (a misspelt step,
/// `atack`); nor could a clause of `not_cited` or of a `never` pattern's
/// `cites` that no run ever cites. Each must be one the engine takes or
/// cites somewhere (the naive outcome's, shown by another ruling). The
/// loader refuses the other never-failing shapes where they are written
/// (empty lists and patterns, objects the board lacks); this one needs the
/// whole corpus.
#[test]
fn every_never_pattern_and_not_cited_clause_can_occur() {
    use std::collections::{BTreeMap, BTreeSet};
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let files =
        tcg_judge::cli::check::collect(&[root.join("rulings"), root.join("scenarios")]).unwrap();
    // Per game: the steps taken and the clauses cited by some run.
    let mut taken: BTreeMap<String, (BTreeSet<String>, BTreeSet<String>)> = BTreeMap::new();
    // (file, what, game, step or clause, whether a step)
    let mut claims: Vec<(String, String, String, String, bool)> = Vec::new();
    for f in &files {
        let (loaded, outcome) =
            tcg_judge::scenario::run_file(f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        let game = loaded.scenario.game.clone();
        let (steps, cited) = taken.entry(game.clone()).or_default();
        for t in &outcome.trace {
            steps.insert(t.step.clone());
            cited.extend(t.rules.iter().map(|r| r.to_string()));
        }
        let ex = &loaded.scenario.expect;
        let mut claim = |what: String, id: &str, step: bool| {
            claims.push((rel(f), what, game.clone(), id.to_string(), step));
        };
        for (i, p) in ex.never.iter().enumerate() {
            if let Some(step) = &p.step {
                claim(format!("expect.never[{i}].step"), step, true);
            }
            for c in &p.cites {
                claim(format!("expect.never[{i}].cites"), c, false);
            }
        }
        for c in &ex.not_cited {
            claim("expect.not_cited".into(), c, false);
        }
    }
    assert!(
        claims.len() > 50,
        "the corpus's never patterns were not found"
    );
    let below = |pattern: &str, actual: &str| {
        actual == pattern
            || actual
                .strip_prefix(pattern)
                .is_some_and(|rest| rest.starts_with('.'))
    };
    let bad: Vec<String> = claims
        .into_iter()
        .filter(|(_, _, game, id, step)| {
            let (steps, cited) = &taken[game];
            if *step {
                !steps.iter().any(|t| below(id, t))
            } else {
                !cited
                    .iter()
                    .any(|c| tcg_judge::scenario::format::covers(id, c))
            }
        })
        .map(|(f, what, _, id, _)| format!("{f}: {what} `{id}`"))
        .collect();
    assert!(
        bad.is_empty(),
        "{} never patterns or not_cited clauses name what no run does (they cannot fail):\n{}",
        bad.len(),
        bad.join("\n")
    );
}

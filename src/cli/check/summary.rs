//! The closing summary of `judge check`: per kind of source (one line
//! each) and per game (how many rulings of each kind it re-proved), in
//! text and, with `--json --summary`, as data.

use std::collections::BTreeMap;

use serde::Serialize;

use super::CheckRow;
use crate::scenario::provenance::Kind;

/// How many rulings of a group there are and how many hold.
#[derive(Debug, Clone, Default, Serialize, PartialEq, Eq)]
pub struct Count {
    pub total: usize,
    pub passed: usize,
}

impl Count {
    fn add(&mut self, row: &CheckRow) {
        self.total += 1;
        self.passed += usize::from(row.status == "pass");
    }
}

/// One game's rulings: all of them, the published ones (every official
/// kind), and each kind of source.
#[derive(Debug, Clone, Default, Serialize, PartialEq, Eq)]
pub struct GameCount {
    #[serde(flatten)]
    pub all: Count,
    pub published: Count,
    pub by_kind: BTreeMap<&'static str, Count>,
}

/// The summary of a check, as `--json --summary` prints it.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct Summary {
    pub scenarios: usize,
    pub passed: usize,
    pub failed: usize,
    pub errors: usize,
    pub stale: usize,
    pub by_kind: BTreeMap<&'static str, Count>,
    /// By game; a file that did not load is counted under `unloaded`.
    pub by_game: BTreeMap<String, GameCount>,
}

/// The game a row is counted under.
fn game_of(row: &CheckRow) -> String {
    if row.game.is_empty() {
        "unloaded".into()
    } else {
        row.game.clone()
    }
}

pub fn summarize(rows: &[CheckRow]) -> Summary {
    let status = |s: &str| rows.iter().filter(|r| r.status == s).count();
    let mut by_kind: BTreeMap<&'static str, Count> = BTreeMap::new();
    let mut by_game: BTreeMap<String, GameCount> = BTreeMap::new();
    for r in rows {
        by_kind.entry(r.kind).or_default().add(r);
        let g = by_game.entry(game_of(r)).or_default();
        g.all.add(r);
        g.by_kind.entry(r.kind).or_default().add(r);
        if Kind::from_word(r.kind).is_some_and(Kind::is_published) {
            g.published.add(r);
        }
    }
    Summary {
        scenarios: rows.len(),
        passed: status("pass"),
        failed: status("fail"),
        errors: status("error"),
        stale: status("stale"),
        by_kind,
        by_game,
    }
}

/// One line per kind of source, in [`Kind::ALL`]'s order:
/// `re-proved 9 of 9 published Q&A answers (official_qa)`.
pub fn by_kind_lines(s: &Summary) -> String {
    let mut out = String::new();
    for kind in Kind::ALL {
        if let Some(c) = s.by_kind.get(kind.word()) {
            out.push_str(&format!(
                "re-proved {} of {} ({})\n",
                c.passed,
                kind.counted(c.total),
                kind.word()
            ));
        }
    }
    out
}

/// One line per game, in name order: `re-proved 370 of 372 pmv rulings:
/// 12 published, 40 rulebook examples, …` (the published kinds counted
/// together; the kinds with none left out).
pub fn by_game_lines(s: &Summary) -> String {
    let mut out = String::new();
    for (game, g) in &s.by_game {
        let mut parts = Vec::new();
        if g.published.total > 0 {
            parts.push(format!("{} published", g.published.total));
        }
        for kind in Kind::ALL.into_iter().filter(|k| !k.is_published()) {
            if let Some(c) = g.by_kind.get(kind.word()) {
                parts.push(kind.counted(c.total));
            }
        }
        out.push_str(&format!(
            "re-proved {} of {} {game} ruling{}: {}\n",
            g.all.passed,
            g.all.total,
            if g.all.total == 1 { "" } else { "s" },
            parts.join(", ")
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(game: &str, kind: &'static str, status: &'static str) -> CheckRow {
        CheckRow {
            file: format!("{game}.json"),
            name: String::new(),
            kind,
            status,
            detail: Vec::new(),
            diff: None,
            game: game.into(),
            cited: Vec::new(),
            stale: Vec::new(),
        }
    }

    /// Each game counts its published rulings together and each other kind
    /// apart, with what held; a file that did not load is `unloaded`.
    #[test]
    fn games_are_counted_by_kind() {
        let rows = [
            row("pmv", "official_qa", "pass"),
            row("pmv", "official_errata", "fail"),
            row("pmv", "worked_example", "pass"),
            row("sve", "rulebook_example", "pass"),
            row("", "text", "error"),
        ];
        let s = summarize(&rows);
        let pmv = &s.by_game["pmv"];
        assert_eq!(
            pmv.all,
            Count {
                total: 3,
                passed: 2
            }
        );
        assert_eq!(
            pmv.published,
            Count {
                total: 2,
                passed: 1
            }
        );
        assert_eq!(
            by_game_lines(&s),
            "re-proved 2 of 3 pmv rulings: 2 published, 1 worked example\n\
             re-proved 1 of 1 sve ruling: 1 rulebook example\n\
             re-proved 0 of 1 unloaded ruling: 1 unclassified source\n"
        );
        assert_eq!((s.passed, s.failed, s.errors), (3, 1, 1));
    }
}

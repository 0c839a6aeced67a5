//! Rule coverage of a rulings corpus: which clauses of a game's rulebook the
//! traces of *passing* scenarios cite, which are named exceptions (not
//! state-changing, or deliberately not covered, with the reason), and which
//! are left uncovered.
//!
//! A clause counts as covered only when a passing ruling *asserts* it or one
//! of its sub-clauses (in `expect.cites` or as a rejection's rule): asserting
//! `1.10.12.c` exercises the procedure `1.10.12` it is a step of. A clause a
//! passing trace cites without any ruling asserting it is only *mentioned*,
//! reported beside the covered figure. An exception names a clause id and
//! applies to its whole subtree.

use std::collections::BTreeSet;

use serde::Serialize;

use crate::rulebook::{ClauseIdx, Rulebook};

/// How one clause stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Asserted (itself or a sub-clause) by a passing ruling.
    Covered,
    /// Cited by a passing ruling's trace, asserted by none.
    Mentioned,
    /// Named in the game's exception table.
    Exception,
    /// Neither.
    Uncovered,
}

/// One clause in the report.
#[derive(Debug, Clone, Serialize)]
pub struct Row {
    pub id: String,
    pub status: Status,
    /// The exception's reason, or the ruling files citing it (covered).
    pub why: String,
    /// The first words of the clause.
    pub text: String,
}

/// The report.
#[derive(Debug, Clone, Serialize)]
pub struct Coverage {
    pub game: String,
    /// Chapters in scope.
    pub chapters: Vec<String>,
    /// Scenario files run, and how many passed.
    pub scenarios: usize,
    pub passing: usize,
    pub covered: usize,
    pub mentioned: usize,
    pub exceptions: usize,
    pub uncovered: usize,
    /// Exceptions that no longer apply: the table names the clause, but
    /// rulings assert it and every sub-clause the exception would reach,
    /// so the report never shows it. A stale entry hides nothing today,
    /// but it would hide the clause again if those rulings went.
    pub stale_exceptions: Vec<String>,
    pub rows: Vec<Row>,
}

/// What one passing ruling says about clauses.
#[derive(Debug, Clone, Default)]
pub struct Cited {
    /// The ruling's file.
    pub file: String,
    /// Ids its expectations assert (`expect.cites`, rejection rules).
    pub asserted: BTreeSet<String>,
    /// Ids its trace cites.
    pub mentioned: BTreeSet<String>,
}

/// Computes the coverage of `book` restricted to `chapters` (top-level
/// clause ids; empty = every top-level clause), given what each passing
/// scenario asserts and cites, and the exception table (`(id, reason)`).
pub fn compute(
    book: &Rulebook,
    chapters: &[&str],
    cited: &[Cited],
    exceptions: &[(&str, &str)],
    scenarios: usize,
) -> Coverage {
    let roots: Vec<ClauseIdx> = book
        .roots
        .iter()
        .copied()
        .filter(|i| chapters.is_empty() || chapters.contains(&book.clause(*i).id.as_str()))
        .collect();
    let mut rows = Vec::new();
    let mut used = Uses::default();
    for r in &roots {
        visit(book, *r, cited, exceptions, None, &mut rows, &mut used);
    }
    let stale_exceptions = used
        .named
        .difference(&used.shown)
        .map(|id| id.to_string())
        .collect();
    let count = |s: Status| rows.iter().filter(|r: &&Row| r.status == s).count();
    Coverage {
        game: book.meta.game.clone(),
        chapters: roots.iter().map(|i| book.clause(*i).id.clone()).collect(),
        scenarios,
        passing: cited.len(),
        covered: count(Status::Covered),
        mentioned: count(Status::Mentioned),
        exceptions: count(Status::Exception),
        uncovered: count(Status::Uncovered),
        stale_exceptions,
        rows,
    }
}

fn subtree_ids(book: &Rulebook, i: ClauseIdx, out: &mut Vec<String>) {
    out.push(book.clause(i).id.clone());
    for c in &book.clause(i).children {
        subtree_ids(book, *c, out);
    }
}

/// Which exceptions of the table the report met, and which it showed.
#[derive(Default)]
struct Uses<'a> {
    /// Exceptions naming a clause in scope.
    named: BTreeSet<&'a str>,
    /// Exceptions some row shows (its own clause's or inherited).
    shown: BTreeSet<&'a str>,
}

fn visit<'a>(
    book: &Rulebook,
    i: ClauseIdx,
    cited: &[Cited],
    exceptions: &[(&'a str, &'a str)],
    inherited: Option<(&'a str, &'a str)>,
    rows: &mut Vec<Row>,
    used: &mut Uses<'a>,
) {
    let c = book.clause(i);
    let own = exceptions.iter().find(|(id, _)| *id == c.id).copied();
    if let Some((id, _)) = own {
        used.named.insert(id);
    }
    let exc = own.or(inherited);
    if !c.kind.is_heading() {
        let mut ids = Vec::new();
        subtree_ids(book, i, &mut ids);
        let files = |pick: fn(&Cited) -> &BTreeSet<String>| -> Vec<&str> {
            cited
                .iter()
                .filter(|c| ids.iter().any(|id| pick(c).contains(id)))
                .map(|c| c.file.as_str())
                .collect()
        };
        let list = |files: Vec<&str>| {
            let mut w = files.iter().take(3).copied().collect::<Vec<_>>().join(", ");
            if files.len() > 3 {
                w.push_str(&format!(" (+{} more)", files.len() - 3));
            }
            w
        };
        let asserted = files(|c| &c.asserted);
        let mentioned = files(|c| &c.mentioned);
        let (status, why) = if !asserted.is_empty() {
            (Status::Covered, list(asserted))
        } else if let Some((id, why)) = exc {
            used.shown.insert(id);
            (Status::Exception, why.to_string())
        } else if !mentioned.is_empty() {
            (
                Status::Mentioned,
                format!("cited, asserted by no ruling: {}", list(mentioned)),
            )
        } else {
            (Status::Uncovered, String::new())
        };
        rows.push(Row {
            id: c.id.clone(),
            status,
            why,
            text: c.text.chars().take(40).collect(),
        });
    }
    for ch in &c.children {
        visit(book, *ch, cited, exceptions, exc, rows, used);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parents_are_covered_by_cited_items_and_exceptions_inherit() {
        let book = crate::bundle::game("pmv").expect("bundled");
        let cited = vec![Cited {
            file: "a.json".to_string(),
            asserted: BTreeSet::from(["1.10.12.c".to_string()]),
            mentioned: BTreeSet::from(["1.10.12.c".to_string(), "1.10.12.b".to_string()]),
        }];
        let cov = compute(book, &["1"], &cited, &[("1.1", "principles")], 1);
        let get = |id: &str| cov.rows.iter().find(|r| r.id == id).unwrap();
        assert_eq!(get("1.10.12.c").status, Status::Covered);
        assert_eq!(get("1.10.12").status, Status::Covered);
        assert_eq!(get("1.10.12.b").status, Status::Mentioned);
        assert_eq!(get("1.10.12.a").status, Status::Uncovered);
        assert_eq!(get("1.1.1").status, Status::Exception);
        assert_eq!(
            cov.covered + cov.mentioned + cov.exceptions + cov.uncovered,
            cov.rows.len()
        );
        assert!(cov.rows.iter().all(|r| r.id.starts_with('1')));
    }

    #[test]
    fn an_exception_every_clause_of_which_is_asserted_is_stale() {
        let book = crate::bundle::game("pmv").expect("bundled");
        let cited = vec![Cited {
            file: "a.json".to_string(),
            asserted: BTreeSet::from(["1.10.12.c".to_string(), "1.1.1".to_string()]),
            mentioned: BTreeSet::new(),
        }];
        // 1.10.12.c is asserted with no sub-clause left: stale. 1.1 still
        // reaches 1.1.2 (not asserted): it applies.
        let table = [("1.10.12.c", "x"), ("1.1", "principles")];
        let cov = compute(book, &["1"], &cited, &table, 1);
        assert_eq!(cov.stale_exceptions, vec!["1.10.12.c".to_string()]);
    }
}

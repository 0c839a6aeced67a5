//! Rule coverage of a rulings corpus: which clauses of a game's rulebook the
//! traces of *passing* scenarios cite, which are named exceptions (not
//! state-changing, or deliberately not covered, with the reason), and which
//! are left uncovered.
//!
//! A clause counts as covered when it or one of its sub-clauses is cited:
//! citing `1.10.12.c` exercises the procedure `1.10.12` it is a step of.
//! An exception names a clause id and applies to its whole subtree.

use std::collections::BTreeSet;

use serde::Serialize;

use crate::rulebook::{ClauseIdx, Rulebook};

/// How one clause stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Cited (itself or a sub-clause) by a passing ruling.
    Covered,
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
    pub exceptions: usize,
    pub uncovered: usize,
    pub rows: Vec<Row>,
}

/// Computes the coverage of `book` restricted to `chapters` (top-level
/// clause ids; empty = every top-level clause), given the clause ids cited
/// by each passing scenario (`(file, ids)`) and the exception table
/// (`(id, reason)`).
pub fn compute(
    book: &Rulebook,
    chapters: &[&str],
    cited: &[(String, BTreeSet<String>)],
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
    for r in &roots {
        visit(book, *r, cited, exceptions, None, &mut rows);
    }
    let count = |s: Status| rows.iter().filter(|r: &&Row| r.status == s).count();
    Coverage {
        game: book.meta.game.clone(),
        chapters: roots.iter().map(|i| book.clause(*i).id.clone()).collect(),
        scenarios,
        passing: cited.len(),
        covered: count(Status::Covered),
        exceptions: count(Status::Exception),
        uncovered: count(Status::Uncovered),
        rows,
    }
}

fn subtree_ids(book: &Rulebook, i: ClauseIdx, out: &mut Vec<String>) {
    out.push(book.clause(i).id.clone());
    for c in &book.clause(i).children {
        subtree_ids(book, *c, out);
    }
}

fn visit(
    book: &Rulebook,
    i: ClauseIdx,
    cited: &[(String, BTreeSet<String>)],
    exceptions: &[(&str, &str)],
    inherited: Option<&str>,
    rows: &mut Vec<Row>,
) {
    let c = book.clause(i);
    let own = exceptions
        .iter()
        .find(|(id, _)| *id == c.id)
        .map(|(_, why)| *why);
    let exc = own.or(inherited);
    if !c.kind.is_heading() {
        let mut ids = Vec::new();
        subtree_ids(book, i, &mut ids);
        let files: Vec<&str> = cited
            .iter()
            .filter(|(_, s)| ids.iter().any(|id| s.contains(id)))
            .map(|(f, _)| f.as_str())
            .collect();
        let (status, why) = if !files.is_empty() {
            let mut w = files.iter().take(3).copied().collect::<Vec<_>>().join(", ");
            if files.len() > 3 {
                w.push_str(&format!(" (+{} more)", files.len() - 3));
            }
            (Status::Covered, w)
        } else if let Some(e) = exc {
            (Status::Exception, e.to_string())
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
        visit(book, *ch, cited, exceptions, exc, rows);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parents_are_covered_by_cited_items_and_exceptions_inherit() {
        let book = crate::bundle::game("pmv").expect("bundled");
        let cited = vec![(
            "a.json".to_string(),
            BTreeSet::from(["1.10.12.c".to_string()]),
        )];
        let cov = compute(book, &["1"], &cited, &[("1.1", "principles")], 1);
        let get = |id: &str| cov.rows.iter().find(|r| r.id == id).unwrap();
        assert_eq!(get("1.10.12.c").status, Status::Covered);
        assert_eq!(get("1.10.12").status, Status::Covered);
        assert_eq!(get("1.10.12.a").status, Status::Uncovered);
        assert_eq!(get("1.1.1").status, Status::Exception);
        assert_eq!(cov.covered + cov.exceptions + cov.uncovered, cov.rows.len());
        assert!(cov.rows.iter().all(|r| r.id.starts_with('1')));
    }
}

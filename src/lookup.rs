//! Resolving what a judge typed (`10.5.2`, `第４部 第９章 ２－１`, `1.3.2 item 2`,
//! `1.3.4.1#ex1`) to a clause of a rulebook.

use crate::error::JudgeError;
use crate::rulebook::address;
use crate::rulebook::{ClauseIdx, Format, Rulebook};

/// The result of resolving an address.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Resolved {
    pub clause: ClauseIdx,
    /// Set when the address named one example of the clause (`#exN`), 0-based.
    pub example: Option<usize>,
    /// The user wrote a trailing dot: the clause alone, without sub-clauses.
    pub alone: bool,
}

/// Resolves `input` in `book`, read with `format`'s id scheme.
pub fn resolve(book: &Rulebook, format: Format, input: &str) -> Result<Resolved, JudgeError> {
    let alone = address::has_trailing_dot(input);
    let trimmed = input.trim();
    if trimmed.is_empty() {
        return Err(malformed(book, input, "an empty id"));
    }
    // Exact canonical id first: covers GL:/RAID:/H: ids and `@2` duplicates.
    if let Some(i) = book.index_of(trimmed) {
        return Ok(Resolved {
            clause: i,
            example: None,
            alone,
        });
    }
    let (base, example) = split_example(trimmed);
    let Some(canonical) = format.canonical_id(base) else {
        return Err(malformed(
            book,
            input,
            "not a clause number in this rulebook's scheme",
        ));
    };
    let clause = book
        .index_of(&canonical)
        .ok_or_else(|| unknown(book, &canonical))?;
    let example = match example {
        None => None,
        Some(n) => {
            let count = book.clause(clause).examples.len();
            if n == 0 || n > count {
                return Err(JudgeError::UnknownClause {
                    game: book.meta.game.clone(),
                    version: book.meta.version.clone(),
                    id: format!("{canonical}#ex{n}"),
                    help: match count {
                        0 => format!("{canonical} has no examples"),
                        c => format!("{canonical} has examples #ex1 to #ex{c}"),
                    },
                });
            }
            Some(n - 1)
        }
    };
    Ok(Resolved {
        clause,
        example,
        alone,
    })
}

/// Splits `10.5.2#ex1` into (`10.5.2`, Some(1)).
fn split_example(input: &str) -> (&str, Option<usize>) {
    match input.rsplit_once('#') {
        Some((base, ex)) => {
            let digits = ex.trim_start_matches("ex").trim_start_matches("例");
            match digits.parse::<usize>() {
                Ok(n) => (base, Some(n)),
                Err(_) => (input, None),
            }
        }
        None => (input, None),
    }
}

fn malformed(book: &Rulebook, input: &str, why: &str) -> JudgeError {
    let sample: Vec<&str> = book
        .clauses
        .iter()
        .filter(|c| c.depth >= 2)
        .map(|c| c.id.as_str())
        .take(3)
        .collect();
    JudgeError::MalformedId {
        game: book.meta.game.clone(),
        input: input.to_string(),
        help: format!("{why}; ids look like {}", sample.join(", ")),
    }
}

fn unknown(book: &Rulebook, canonical: &str) -> JudgeError {
    let near = address::nearest(canonical, book.clauses.iter().map(|c| c.id.as_str()), 5);
    JudgeError::UnknownClause {
        game: book.meta.game.clone(),
        version: book.meta.version.clone(),
        id: canonical.to_string(),
        help: if near.is_empty() {
            "this rulebook has no clauses".into()
        } else {
            format!("nearest ids: {}", near.join(", "))
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn example_suffix_splits() {
        assert_eq!(split_example("1.3.4.1#ex1"), ("1.3.4.1", Some(1)));
        assert_eq!(split_example("10.5.2"), ("10.5.2", None));
        assert_eq!(split_example("GL:#x"), ("GL:#x", None));
    }
}

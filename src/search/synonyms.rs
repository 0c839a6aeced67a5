//! Per-game synonym tables (issue 3, "English terms and synonyms"): an English
//! term, or another spelling a judge may type, expands to the Japanese terms
//! the rulebook uses. The tables live in `synonyms/<game>.tsv`, one
//! `key<TAB>term|term…` per line, and are checked against the raw rulebooks by
//! `tests/search_synonyms.rs`.

use std::collections::BTreeMap;

use crate::text::fold_for_search;

/// The raw table of each game, by game id.
pub const TABLES: &[(&str, &str)] = &[
    ("pmv", include_str!("synonyms/pmv.tsv")),
    ("pso2", include_str!("synonyms/pso2.tsv")),
    ("sve", include_str!("synonyms/sve.tsv")),
    ("dz", include_str!("synonyms/dz.tsv")),
];

/// One game's synonyms: folded key → Japanese terms as written in the table.
#[derive(Debug, Clone, Default)]
pub struct Synonyms {
    map: BTreeMap<String, Vec<String>>,
}

/// A malformed line of a synonym table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableError {
    pub line: usize,
    pub message: String,
}

/// Folds a table key. Most keys are plain lower-case English words, already
/// in the folded form: they skip the normaliser, which keeps parsing a table
/// cheap in a fresh process (issue 17, Speed).
fn fold_key(key: &str) -> String {
    let plain = !key.starts_with(' ')
        && !key.ends_with(' ')
        && !key.contains("  ")
        && key
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b' ');
    if plain {
        key.to_string()
    } else {
        fold_for_search(key)
    }
}

impl Synonyms {
    /// Parses a table. Blank lines and `#` comments are skipped.
    pub fn parse(text: &str) -> Result<Synonyms, TableError> {
        let mut map: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for (i, line) in text.lines().enumerate() {
            let line = line.trim_end();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let Some((key, terms)) = line.split_once('\t') else {
                return Err(TableError {
                    line: i + 1,
                    message: "expected `key<TAB>term|term…`".into(),
                });
            };
            let key = fold_key(key);
            let terms: Vec<String> = terms
                .split('|')
                .map(str::trim)
                .filter(|t| !t.is_empty())
                .map(str::to_string)
                .collect();
            if key.is_empty() || terms.is_empty() {
                return Err(TableError {
                    line: i + 1,
                    message: "empty key or term list".into(),
                });
            }
            let entry = map.entry(key).or_default();
            for t in terms {
                if !entry.contains(&t) {
                    entry.push(t);
                }
            }
        }
        Ok(Synonyms { map })
    }

    /// The bundled table of `game` (empty for an unknown game). The bundled
    /// tables are tested to parse, so an error here cannot happen at run time;
    /// it degrades to "no synonyms" rather than panicking.
    pub fn bundled(game: &str) -> Synonyms {
        TABLES
            .iter()
            .find(|(g, _)| *g == game)
            .and_then(|(_, t)| Synonyms::parse(t).ok())
            .unwrap_or_default()
    }

    /// Japanese terms for a folded key.
    pub fn expand(&self, folded_key: &str) -> &[String] {
        self.map.get(folded_key).map(Vec::as_slice).unwrap_or(&[])
    }

    /// Every (folded key, terms) pair, sorted by key.
    pub fn entries(&self) -> impl Iterator<Item = (&str, &[String])> {
        self.map.iter().map(|(k, v)| (k.as_str(), v.as_slice()))
    }

    /// Whether some key has `words` (folded, space-separated) as its whole text.
    pub fn has_key(&self, folded_key: &str) -> bool {
        self.map.contains_key(folded_key)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bundled_tables_parse_and_fold_keys() {
        for (game, text) in TABLES {
            let s = Synonyms::parse(text).unwrap_or_else(|e| panic!("{game}: {e:?}"));
            assert!(s.entries().count() > 40, "{game} table is too small");
        }
        let sve = Synonyms::bundled("sve");
        assert_eq!(sve.expand("ward"), ["守護"]);
        assert_eq!(sve.expand("check timing"), ["チェックタイミング"]);
        assert!(sve.expand("Ward").is_empty(), "keys are looked up folded");
    }

    #[test]
    fn the_fast_key_fold_agrees_with_the_normaliser() {
        for (_, text) in TABLES {
            for line in text.lines().filter(|l| !l.starts_with('#')) {
                if let Some((key, _)) = line.split_once('\t') {
                    assert_eq!(fold_key(key), fold_for_search(key), "{key:?}");
                }
            }
        }
    }

    #[test]
    fn malformed_lines_are_reported_with_their_number() {
        let e = Synonyms::parse("# c\nward\n").unwrap_err();
        assert_eq!(e.line, 2);
    }
}

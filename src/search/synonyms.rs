//! Per-game synonym tables (issue 3, "English terms and synonyms"): an English
//! term, or another spelling a judge may type, expands to the Japanese terms
//! the rulebook uses. The tables live in `synonyms/<game>.tsv`, one
//! `key<TAB>term|term…` per line, and are checked against the raw rulebooks by
//! `tests/search_synonyms.rs`.

use std::collections::BTreeMap;

use crate::text::fold_for_search;

// `TABLES` (the table of each game as written, by game id) and
// `FOLDED_TABLES` (the same with every key already folded: what
// [`Synonyms::bundled`] reads, so a query never folds a table's keys), one
// entry per `synonyms/<game>.tsv`, both written by `build.rs`.
include!(concat!(env!("OUT_DIR"), "/synonym_tables.rs"));

/// One game's synonyms: folded key → Japanese terms as written in the table.
///
/// A bundled table is kept as its text and looked up by scanning it: a query
/// needs a handful of keys, and building the whole map (every key folded and
/// allocated, in every game's table) would cost a fresh process more than the
/// search itself (issue 17, Speed). The map is built on first need of every
/// entry (suggestions, tests).
#[derive(Debug, Clone, Default)]
pub struct Synonyms {
    /// The table's text, for a bundled table.
    raw: Option<&'static str>,
    map: std::sync::OnceLock<BTreeMap<String, Vec<String>>>,
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
    if is_plain_key(key) {
        key.to_string()
    } else {
        fold_for_search(key)
    }
}

/// Lower-case ASCII words and digits separated by single spaces: a key that
/// is its own folded form.
fn is_plain_key(key: &str) -> bool {
    !key.starts_with(' ')
        && !key.ends_with(' ')
        && !key.contains("  ")
        && key
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b' ')
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
        Ok(Synonyms {
            raw: None,
            map: map.into(),
        })
    }

    /// The lines of a bundled table whose key folds to `folded_key`, as
    /// `(key, terms)`; malformed lines are skipped (the bundled tables are
    /// tested to parse).
    fn scan<'t>(raw: &'t str, folded_key: &'t str) -> impl Iterator<Item = &'t str> + 't {
        // A line `key<TAB>…` starts the text or follows a newline: one
        // substring search per table instead of splitting every line
        // (issue 17, Speed). A key is never empty nor holds a tab or `#`
        // first, so a comment line cannot match.
        let needle = format!("{folded_key}\t");
        let mut from = 0;
        std::iter::from_fn(move || {
            if folded_key.is_empty() {
                return None;
            }
            while let Some(k) = raw[from..].find(&needle) {
                let start = from + k;
                from = start + needle.len();
                if start == 0 || raw.as_bytes()[start - 1] == b'\n' {
                    let rest = &raw[from..];
                    let end = rest.find('\n').unwrap_or(rest.len());
                    return Some(rest[..end].trim_end_matches('\r'));
                }
            }
            None
        })
    }

    fn map(&self) -> &BTreeMap<String, Vec<String>> {
        self.map.get_or_init(|| {
            self.raw
                .and_then(|t| Synonyms::parse(t).ok())
                .and_then(|s| s.map.into_inner())
                .unwrap_or_default()
        })
    }

    /// The bundled table of `game` (empty for an unknown game). The bundled
    /// tables are tested to parse, so an error here cannot happen at run time;
    /// it degrades to "no synonyms" rather than panicking.
    pub fn bundled(game: &str) -> Synonyms {
        Synonyms {
            raw: FOLDED_TABLES
                .iter()
                .find(|(g, _)| *g == game)
                .map(|(_, t)| *t),
            map: Default::default(),
        }
    }

    /// Japanese terms for a folded key, in table order.
    pub fn expand(&self, folded_key: &str) -> Vec<String> {
        let Some(raw) = self.raw else {
            return self.map().get(folded_key).cloned().unwrap_or_default();
        };
        let mut out: Vec<String> = Vec::new();
        for terms in Synonyms::scan(raw, folded_key) {
            for t in terms.split('|').map(str::trim).filter(|t| !t.is_empty()) {
                if !out.iter().any(|o| o == t) {
                    out.push(t.to_string());
                }
            }
        }
        out
    }

    /// Every (folded key, terms) pair, sorted by key.
    pub fn entries(&self) -> impl Iterator<Item = (&str, &[String])> {
        self.map().iter().map(|(k, v)| (k.as_str(), v.as_slice()))
    }

    /// Whether some key has `words` (folded, space-separated) as its whole text.
    pub fn has_key(&self, folded_key: &str) -> bool {
        match self.raw {
            Some(raw) => Synonyms::scan(raw, folded_key).next().is_some(),
            None => self.map().contains_key(folded_key),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The tables `build.rs` folds say what the tables in the repository
    /// say: the same keys (folded at run time) with the same terms.
    #[test]
    fn prefolded_tables_match_the_raw_tables() {
        for (game, raw) in TABLES {
            let parsed = Synonyms::parse(raw).expect("bundled table parses");
            let bundled = Synonyms::bundled(game);
            let a: Vec<_> = parsed.entries().collect();
            let b: Vec<_> = bundled.entries().collect();
            assert_eq!(a, b, "{game}");
            for (key, terms) in parsed.entries() {
                assert_eq!(bundled.expand(key), terms, "{game} {key}");
                assert!(bundled.has_key(key), "{game} {key}");
            }
        }
    }

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
    fn scanning_a_bundled_table_agrees_with_its_parsed_map() {
        for (game, text) in TABLES {
            let parsed = Synonyms::parse(text).unwrap();
            let scanned = Synonyms::bundled(game);
            for (key, terms) in parsed.entries() {
                assert_eq!(scanned.expand(key), terms, "{game} {key}");
                assert!(scanned.has_key(key), "{game} {key}");
            }
            assert_eq!(scanned.entries().count(), parsed.entries().count());
            assert!(!scanned.has_key("no such key"));
        }
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

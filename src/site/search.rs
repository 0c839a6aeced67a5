//! The site's offline search (issue 14): `search-index.js`, emitted from the
//! very index `judge search` reads, and `search.js`, a port of
//! [`crate::search::Engine`]'s matching and ranking that runs in the page.
//!
//! # The emitted index
//! Each clause becomes one string of *cells*, one UTF-16 unit per search
//! position ([`crate::text::search_units`]): a folded character stands for
//! itself; an ASCII word, an astral or private-use character is replaced by a
//! private-use character from a shared dictionary; a punctuation gap is
//! [`GAP`]. A phrase then matches where its cells stand at the same offsets,
//! which is exactly the engine's "every bigram and uncovered unigram at its
//! offset" rule, so the page finds what the binary finds. The scoring
//! inputs (length, title units, heading units, kind) come from the index too;
//! `tests/browser.rs` checks the two agree on the relevance suite.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::rulebook::ClauseKind;
use crate::search::engine::heading_core;
use crate::search::index::Index;
use crate::search::synonyms::Synonyms;
use crate::text::{UnitToken, search_units};

/// The cell of a position no unit stands at (a punctuation gap). Never a
/// folded character, so it matches only a gap in the query.
pub const GAP: char = '\u{0}';
/// First code point of the dictionary (the BMP private-use area).
const DICT_FIRST: u32 = 0xE000;
/// Last code point of the dictionary.
const DICT_LAST: u32 = 0xF8FF;

/// One clause, as `search.js` reads it.
#[derive(Serialize)]
struct DocOut {
    /// Game index.
    g: u32,
    /// Canonical id.
    cid: String,
    /// Display id.
    id: String,
    title: String,
    /// Breadcrumb (ancestors).
    bc: String,
    /// `page#anchor` in the site.
    href: String,
    /// Cells, one per position.
    c: String,
    /// BM25 length.
    l: u32,
    /// Units in the title field.
    t: u32,
    /// Heading units (the title without its parameter): positions and cells.
    hp: Vec<u32>,
    hc: String,
    /// 1 = a special part (raid, revision history); 2 = glossary entry.
    k: u8,
    /// The first words of the clause text, for the result list.
    ex: String,
}

#[derive(Serialize)]
struct IndexOut {
    games: Vec<String>,
    n_docs: u32,
    avg_len: f64,
    /// `w<word>` or `c<char>` → its cell.
    dict: BTreeMap<String, String>,
    /// Per game: folded key → expansions.
    synonyms: Vec<BTreeMap<String, Vec<String>>>,
    docs: Vec<DocOut>,
}

/// Assigns dictionary cells.
#[derive(Default)]
struct Dict {
    map: BTreeMap<String, char>,
}

impl Dict {
    fn cell(&mut self, key: String) -> char {
        let next = DICT_FIRST + self.map.len() as u32;
        assert!(
            next <= DICT_LAST,
            "search dictionary overflows the private-use area"
        );
        *self
            .map
            .entry(key)
            .or_insert_with(|| char::from_u32(next).unwrap_or(GAP))
    }

    /// The cell of one unit token.
    fn token(&mut self, t: &UnitToken) -> char {
        match t {
            UnitToken::Char(c) if needs_dict(*c) => self.cell(format!("c{c}")),
            UnitToken::Char(c) => *c,
            UnitToken::Word(w) => self.cell(format!("w{w}")),
        }
    }
}

/// Characters that cannot stand for themselves in one UTF-16 unit, or that
/// the dictionary itself uses.
fn needs_dict(c: char) -> bool {
    (c as u32) > 0xFFFF || (DICT_FIRST..=DICT_LAST).contains(&(c as u32)) || c == GAP
}

/// Cells of a unit list (positions from 0), gaps as [`GAP`].
fn cells(dict: &mut Dict, units: &[crate::text::Unit], len: u32) -> String {
    let mut out = vec![GAP; len as usize];
    for u in units {
        if let Some(slot) = out.get_mut(u.pos as usize) {
            *slot = dict.token(&u.token);
        }
    }
    out.into_iter().collect()
}

/// First `n` characters of a clause's text (after its title), on one line.
fn excerpt(text: &str, n: usize) -> String {
    let body = text
        .split(crate::search::index::FIELD_SEP)
        .nth(1)
        .unwrap_or("");
    let flat: String = body.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut out: String = flat.chars().take(n).collect();
    if flat.chars().count() > n {
        out.push('…');
    }
    out
}

/// `search-index.js`: every clause of `index`; `href(game, clause)` gives the
/// page and anchor of a clause of a game's primary document.
pub fn index_js(index: Index<'_>, href: impl Fn(&str, u32) -> Option<String>) -> String {
    let mut dict = Dict::default();
    let games: Vec<String> = (0..index.n_games())
        .map(|g| index.game(g).0.to_string())
        .collect();
    let mut docs = Vec::with_capacity(index.n_docs() as usize);
    for no in 0..index.n_docs() {
        let d = index.doc(no);
        let (units, end) = search_units(d.text, 0);
        let c = cells(&mut dict, &units, end);
        let (head, head_end) = search_units(heading_core(d.title), 0);
        let k = match d.kind {
            ClauseKind::Raid | ClauseKind::Revision => 1,
            ClauseKind::Glossary => 2,
            _ => 0,
        };
        docs.push(DocOut {
            g: d.game,
            cid: d.id.to_string(),
            id: if d.display.is_empty() {
                d.id
            } else {
                d.display
            }
            .to_string(),
            title: d.title.to_string(),
            bc: d.breadcrumb.to_string(),
            href: href(&games[d.game as usize], d.clause).unwrap_or_default(),
            c,
            l: d.len,
            t: d.title_units,
            hp: head.iter().map(|u| u.pos).collect(),
            hc: cells(&mut dict, &head, head_end)
                .chars()
                .filter(|&ch| ch != GAP)
                .collect(),
            k,
            ex: excerpt(d.text, 80),
        });
    }
    let synonyms = games
        .iter()
        .map(|g| {
            Synonyms::bundled(g)
                .entries()
                .map(|(k, v)| (k.to_string(), v.to_vec()))
                .collect()
        })
        .collect();
    let out = IndexOut {
        games,
        n_docs: index.n_docs(),
        avg_len: index.avg_len(),
        dict: dict
            .map
            .into_iter()
            .map(|(k, v)| (k, v.to_string()))
            .collect(),
        synonyms,
        docs,
    };
    let json = serde_json::to_string(&out).unwrap_or_else(|_| "null".into());
    format!(
        "// Generated by `judge site` from the index `judge search` reads.\nwindow.JUDGE_SEARCH = {json};\n"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_keep_positions_and_gaps() {
        let mut d = Dict::default();
        let (u, end) = search_units("守護、check timing", 0);
        let c: Vec<char> = cells(&mut d, &u, end).chars().collect();
        assert_eq!(c[0], '守');
        assert_eq!(c[1], '護');
        assert_eq!(c[2], GAP, "the comma leaves a gap");
        assert!((DICT_FIRST..=DICT_LAST).contains(&(c[3] as u32)));
        assert_ne!(c[3], c[4], "two words, two cells");
        assert_eq!(c.len(), end as usize);
    }

    #[test]
    fn the_whole_index_fits_and_every_doc_has_a_cell_per_position() {
        let index = crate::search::embedded().unwrap();
        let js = index_js(index, |_, _| Some("x.html#y".into()));
        let json = js
            .split_once(" = ")
            .and_then(|(_, r)| r.trim_end().strip_suffix(';'))
            .unwrap();
        let v: serde_json::Value = serde_json::from_str(json).unwrap();
        let docs = v["docs"].as_array().unwrap();
        assert_eq!(docs.len() as u32, index.n_docs());
        for d in docs {
            let cells = d["c"].as_str().unwrap();
            assert!(
                cells.chars().all(|c| (c as u32) <= 0xFFFF),
                "one UTF-16 unit per cell"
            );
        }
    }
}

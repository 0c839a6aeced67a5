//! The search index: its on-disk layout, the builder (run by `build.rs` at
//! build time) and a zero-copy reader over the embedded bytes.
//!
//! Compiled into `build.rs` too (by `#[path]`), so it uses only `std`,
//! [`crate::text`] and [`crate::rulebook`].
//!
//! # Terms (issue 3, Index)
//! Every clause (title, text, examples) is cut into units by
//! [`crate::text::search_units`]. Indexed terms, each with its positions:
//! - `c<char>`: every character unit (so one-character queries work);
//! - `b<char><char>`: every pair of character units at consecutive positions
//!   (overlapping bigrams);
//! - `w<word>`: every ASCII word.
//!
//! A query word matches where all its bigrams (and uncovered unigrams) stand at
//! the right offsets from one start position, so ダメージ never matches a
//! clause that holds ダメ, メー and ージ apart.
//!
//! # Layout
//! All integers are little-endian `u32`, read unaligned, so the bytes can be
//! used straight from `include_bytes!` without decoding.
//! ```text
//! header  [MAGIC, VERSION, n_games, n_docs, n_terms, total_units,
//!          games_off, docs_off, terms_off, postings_off, positions_off, blob_off]
//! games   n_games × [name_off, name_len, first_doc, n_docs]
//! docs    n_docs × DOC_WORDS (see `Doc`)
//! terms   n_terms × [term_off, term_len, post_start, post_count], sorted by term bytes
//! postings  × [doc, pos_start, pos_count], sorted by doc within a term
//! positions u32 positions
//! blob    UTF-8 strings
//! ```

use std::collections::BTreeMap;

use crate::rulebook::{ClauseKind, Rulebook};
use crate::text::{UnitToken, search_units};

const MAGIC: u32 = 0x4A53_4958; // "JSIX"
const VERSION: u32 = 1;
const HEADER_WORDS: usize = 12;
const DOC_WORDS: usize = 16;
/// Separates the fields (title, text, examples) of a document's stored text.
/// The tokenizer reads it as punctuation, so a phrase never spans two fields.
pub const FIELD_SEP: char = '\u{1F}';
/// `parent` value of a root clause.
pub const NO_PARENT: u32 = u32::MAX;

/// What a builder needs of one game's primary document.
pub struct BookInput<'a> {
    pub game: &'a str,
    pub book: &'a Rulebook,
}

/// The stored searchable text of a clause: title, text and examples joined by
/// [`FIELD_SEP`]. The title field comes first (empty when there is none).
pub fn doc_text(book: &Rulebook, idx: usize) -> String {
    let c = &book.clauses[idx];
    let mut s = String::new();
    // The title is always the first field (empty when there is none), so
    // "units before the first separator" is the title's unit count.
    if let Some(t) = &c.title {
        s.push_str(t);
    }
    s.push(FIELD_SEP);
    s.push_str(&c.text);
    for ex in &c.examples {
        s.push(FIELD_SEP);
        s.push_str(&ex.text);
    }
    s
}

/// Breadcrumb of a clause: its ancestors as `id title`, joined by ` › `.
fn breadcrumb(book: &Rulebook, idx: usize) -> String {
    let chain = book.breadcrumb(idx as u32);
    chain
        .iter()
        .map(|&i| {
            let c = book.clause(i);
            let id = c.display.as_deref().unwrap_or(&c.id);
            match &c.title {
                Some(t) if !t.is_empty() => format!("{id} {t}"),
                _ => id.to_string(),
            }
        })
        .collect::<Vec<_>>()
        .join(" › ")
}

fn kind_code(k: ClauseKind) -> u32 {
    match k {
        ClauseKind::Part => 0,
        ClauseKind::Chapter => 1,
        ClauseKind::Section => 2,
        ClauseKind::Rule => 3,
        ClauseKind::Item => 4,
        ClauseKind::Preface => 5,
        ClauseKind::Glossary => 6,
        ClauseKind::Appendix => 7,
        ClauseKind::Raid => 8,
        ClauseKind::Revision => 9,
    }
}

/// Inverse of `kind_code`.
pub fn kind_from_code(c: u32) -> ClauseKind {
    match c {
        0 => ClauseKind::Part,
        1 => ClauseKind::Chapter,
        2 => ClauseKind::Section,
        3 => ClauseKind::Rule,
        4 => ClauseKind::Item,
        5 => ClauseKind::Preface,
        6 => ClauseKind::Glossary,
        7 => ClauseKind::Appendix,
        8 => ClauseKind::Raid,
        _ => ClauseKind::Revision,
    }
}

/// The term key of a unit (`c…` or `w…`).
pub fn unigram_key(t: &UnitToken) -> String {
    match t {
        UnitToken::Char(c) => format!("c{c}"),
        UnitToken::Word(w) => format!("w{w}"),
    }
}

/// The term key of two character units at consecutive positions.
pub fn bigram_key(a: char, b: char) -> String {
    format!("b{a}{b}")
}

struct Blob(Vec<u8>);
impl Blob {
    fn push(&mut self, s: &str) -> (u32, u32) {
        let off = self.0.len() as u32;
        self.0.extend_from_slice(s.as_bytes());
        (off, s.len() as u32)
    }
}

/// Builds the index bytes over the primary documents, in the order given.
pub fn build(books: &[BookInput<'_>]) -> Vec<u8> {
    let mut blob = Blob(Vec::new());
    let mut games: Vec<u32> = Vec::new();
    let mut docs: Vec<u32> = Vec::new();
    // term → [(doc, positions)]; BTreeMap keeps terms sorted by bytes.
    let mut terms: BTreeMap<String, Vec<(u32, Vec<u32>)>> = BTreeMap::new();
    let mut total_units: u64 = 0;
    let mut doc_no: u32 = 0;
    for (g, input) in books.iter().enumerate() {
        let (name_off, name_len) = blob.push(input.game);
        games.extend([name_off, name_len, doc_no, input.book.clauses.len() as u32]);
        let first = doc_no;
        for (i, c) in input.book.clauses.iter().enumerate() {
            let text = doc_text(input.book, i);
            let (units, _) = search_units(&text, 0);
            let title_end = text.find(FIELD_SEP).unwrap_or(text.len());
            let title_units = units.iter().filter(|u| u.end <= title_end).count() as u32;
            let mut per_doc: BTreeMap<String, Vec<u32>> = BTreeMap::new();
            for (k, u) in units.iter().enumerate() {
                per_doc
                    .entry(unigram_key(&u.token))
                    .or_default()
                    .push(u.pos);
                if let (UnitToken::Char(a), Some(next)) = (&u.token, units.get(k + 1))
                    && let UnitToken::Char(b) = next.token
                    && next.pos == u.pos + 1
                {
                    per_doc.entry(bigram_key(*a, b)).or_default().push(u.pos);
                }
            }
            for (term, pos) in per_doc {
                terms.entry(term).or_default().push((doc_no, pos));
            }
            total_units += units.len() as u64;
            let parent = c.parent.map(|p| first + p).unwrap_or(NO_PARENT);
            let (id_off, id_len) = blob.push(&c.id);
            let (ti_off, ti_len) = blob.push(c.title.as_deref().unwrap_or(""));
            let (cr_off, cr_len) = blob.push(&breadcrumb(input.book, i));
            let (tx_off, tx_len) = blob.push(&text);
            let (di_off, di_len) = blob.push(c.display.as_deref().unwrap_or(&c.id));
            docs.extend([
                g as u32,
                i as u32,
                parent,
                kind_code(c.kind),
                units.len() as u32,
                title_units,
                id_off,
                id_len,
                ti_off,
                ti_len,
                cr_off,
                cr_len,
                tx_off,
                tx_len,
                di_off,
                di_len,
            ]);
            doc_no += 1;
        }
    }
    let mut term_table: Vec<u32> = Vec::new();
    let mut postings: Vec<u32> = Vec::new();
    let mut positions: Vec<u32> = Vec::new();
    for (term, list) in &terms {
        let (t_off, t_len) = blob.push(term);
        term_table.extend([t_off, t_len, (postings.len() / 3) as u32, list.len() as u32]);
        for (doc, pos) in list {
            postings.extend([*doc, positions.len() as u32, pos.len() as u32]);
            positions.extend_from_slice(pos);
        }
    }
    let mut out: Vec<u32> = Vec::with_capacity(
        HEADER_WORDS
            + games.len()
            + docs.len()
            + term_table.len()
            + postings.len()
            + positions.len(),
    );
    let games_off = HEADER_WORDS;
    let docs_off = games_off + games.len();
    let terms_off = docs_off + docs.len();
    let postings_off = terms_off + term_table.len();
    let positions_off = postings_off + postings.len();
    let blob_off = positions_off + positions.len();
    out.extend([
        MAGIC,
        VERSION,
        books.len() as u32,
        doc_no,
        terms.len() as u32,
        total_units.min(u32::MAX as u64) as u32,
        games_off as u32,
        docs_off as u32,
        terms_off as u32,
        postings_off as u32,
        positions_off as u32,
        blob_off as u32,
    ]);
    out.extend(games);
    out.extend(docs);
    out.extend(term_table);
    out.extend(postings);
    out.extend(positions);
    let mut bytes: Vec<u8> = Vec::with_capacity(out.len() * 4 + blob.0.len());
    for w in out {
        bytes.extend_from_slice(&w.to_le_bytes());
    }
    bytes.extend_from_slice(&blob.0);
    bytes
}

/// A read-only view over index bytes (zero-copy: nothing is decoded up front).
#[derive(Clone, Copy)]
pub struct Index<'a> {
    bytes: &'a [u8],
}

/// Why index bytes were rejected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IndexError(pub String);

impl std::fmt::Display for IndexError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// One document (clause) of the index.
#[derive(Debug, Clone, Copy)]
pub struct Doc<'a> {
    /// Global document number.
    pub no: u32,
    /// Index into the game table.
    pub game: u32,
    /// Index of the clause in its rulebook.
    pub clause: u32,
    /// Global document number of the parent clause, or [`NO_PARENT`].
    pub parent: u32,
    pub kind: ClauseKind,
    /// Number of units (BM25 document length).
    pub len: u32,
    /// Units in the title field (positions `0..title_units`).
    pub title_units: u32,
    pub id: &'a str,
    pub title: &'a str,
    pub breadcrumb: &'a str,
    /// Stored searchable text (fields joined by [`FIELD_SEP`]).
    pub text: &'a str,
    /// Display form of the id.
    pub display: &'a str,
}

/// The postings of one term.
#[derive(Debug, Clone, Copy)]
pub struct Postings {
    start: u32,
    count: u32,
}

impl<'a> Index<'a> {
    /// Wraps `bytes`, checking the header and section bounds.
    pub fn new(bytes: &'a [u8]) -> Result<Self, IndexError> {
        if bytes.len() < HEADER_WORDS * 4 {
            return Err(IndexError("search index too short".into()));
        }
        let ix = Index { bytes };
        if ix.word(0) != MAGIC || ix.word(1) != VERSION {
            return Err(IndexError(
                "search index has a wrong magic or version".into(),
            ));
        }
        let blob = ix.word(11) as usize * 4;
        if blob > bytes.len() {
            return Err(IndexError("search index is truncated".into()));
        }
        Ok(ix)
    }

    fn word(&self, i: usize) -> u32 {
        let b = &self.bytes[i * 4..i * 4 + 4];
        u32::from_le_bytes([b[0], b[1], b[2], b[3]])
    }

    fn bytes_at(&self, off: u32, len: u32) -> &'a [u8] {
        let base = self.word(11) as usize * 4 + off as usize;
        &self.bytes[base..base + len as usize]
    }

    fn str_at(&self, off: u32, len: u32) -> &'a str {
        let base = self.word(11) as usize * 4 + off as usize;
        // Written from &str by `build`; the bounds and UTF-8 hold by construction.
        std::str::from_utf8(&self.bytes[base..base + len as usize]).unwrap_or("")
    }

    /// Number of games.
    pub fn n_games(&self) -> u32 {
        self.word(2)
    }

    /// Number of documents (clauses) over all games.
    pub fn n_docs(&self) -> u32 {
        self.word(3)
    }

    /// Number of distinct terms.
    pub fn n_terms(&self) -> u32 {
        self.word(4)
    }

    /// Average document length in units (BM25).
    pub fn avg_len(&self) -> f64 {
        let n = self.n_docs().max(1) as f64;
        self.word(5) as f64 / n
    }

    /// Game `g`: (name, first document, number of documents).
    pub fn game(&self, g: u32) -> (&'a str, u32, u32) {
        let b = self.word(6) as usize + g as usize * 4;
        (
            self.str_at(self.word(b), self.word(b + 1)),
            self.word(b + 2),
            self.word(b + 3),
        )
    }

    /// Index of the game named `name`.
    pub fn game_index(&self, name: &str) -> Option<u32> {
        (0..self.n_games()).find(|&g| self.game(g).0 == name)
    }

    /// Document `no`.
    pub fn doc(&self, no: u32) -> Doc<'a> {
        let b = self.word(7) as usize + no as usize * DOC_WORDS;
        let w = |k: usize| self.word(b + k);
        Doc {
            no,
            game: w(0),
            clause: w(1),
            parent: w(2),
            kind: kind_from_code(w(3)),
            len: w(4),
            title_units: w(5),
            id: self.str_at(w(6), w(7)),
            title: self.str_at(w(8), w(9)),
            breadcrumb: self.str_at(w(10), w(11)),
            text: self.str_at(w(12), w(13)),
            display: self.str_at(w(14), w(15)),
        }
    }

    /// The kind of document `no`, without reading its strings.
    pub fn kind(&self, no: u32) -> ClauseKind {
        kind_from_code(self.word(self.word(7) as usize + no as usize * DOC_WORDS + 3))
    }

    /// Document `no` with only its title among its strings (id, breadcrumb,
    /// text and display are empty): what ranking needs, without validating
    /// the clause's whole text.
    pub fn doc_head(&self, no: u32) -> Doc<'a> {
        let b = self.word(7) as usize + no as usize * DOC_WORDS;
        let w = |k: usize| self.word(b + k);
        Doc {
            no,
            game: w(0),
            clause: w(1),
            parent: w(2),
            kind: kind_from_code(w(3)),
            len: w(4),
            title_units: w(5),
            id: "",
            title: self.str_at(w(8), w(9)),
            breadcrumb: "",
            text: "",
            display: "",
        }
    }

    /// The `i`th term of the sorted term table.
    pub fn term(&self, i: u32) -> &'a str {
        let b = self.word(8) as usize + i as usize * 4;
        self.str_at(self.word(b), self.word(b + 1))
    }

    /// Postings of `term` (a key from [`unigram_key`] / [`bigram_key`]), by
    /// binary search over the sorted term table.
    pub fn postings(&self, term: &str) -> Option<Postings> {
        let (mut lo, mut hi) = (0u32, self.n_terms());
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            // Bytes, not `term()`: the binary search need not check UTF-8.
            let b = self.word(8) as usize + mid as usize * 4;
            match self
                .bytes_at(self.word(b), self.word(b + 1))
                .cmp(term.as_bytes())
            {
                std::cmp::Ordering::Less => lo = mid + 1,
                std::cmp::Ordering::Greater => hi = mid,
                std::cmp::Ordering::Equal => {
                    let b = self.word(8) as usize + mid as usize * 4;
                    return Some(Postings {
                        start: self.word(b + 2),
                        count: self.word(b + 3),
                    });
                }
            }
        }
        None
    }

    /// Number of documents of a posting list.
    pub fn doc_freq(&self, p: Postings) -> u32 {
        p.count
    }

    /// The `k`th entry of a posting list: (doc, positions).
    pub fn entry(&self, p: Postings, k: u32) -> (u32, PosList<'a>) {
        let b = self.word(9) as usize + (p.start + k) as usize * 3;
        let doc = self.word(b);
        let start = self.word(10) as usize + self.word(b + 1) as usize;
        let count = self.word(b + 2) as usize;
        (
            doc,
            PosList {
                bytes: &self.bytes[start * 4..(start + count) * 4],
            },
        )
    }

    /// Positions of `p` in document `doc`, by binary search.
    pub fn positions_in(&self, p: Postings, doc: u32) -> Option<PosList<'a>> {
        let (mut lo, mut hi) = (0u32, p.count);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            let b = self.word(9) as usize + (p.start + mid) as usize * 3;
            let d = self.word(b);
            match d.cmp(&doc) {
                std::cmp::Ordering::Less => lo = mid + 1,
                std::cmp::Ordering::Greater => hi = mid,
                std::cmp::Ordering::Equal => return Some(self.entry(p, mid).1),
            }
        }
        None
    }
}

/// A sorted list of positions, read in place.
#[derive(Debug, Clone, Copy)]
pub struct PosList<'a> {
    bytes: &'a [u8],
}

impl PosList<'_> {
    /// Number of positions.
    pub fn len(&self) -> usize {
        self.bytes.len() / 4
    }

    /// Whether the list is empty.
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    /// The `i`th position.
    pub fn get(&self, i: usize) -> u32 {
        let b = &self.bytes[i * 4..i * 4 + 4];
        u32::from_le_bytes([b[0], b[1], b[2], b[3]])
    }

    /// Whether `pos` is in the list (binary search).
    pub fn contains(&self, pos: u32) -> bool {
        let (mut lo, mut hi) = (0usize, self.len());
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            match self.get(mid).cmp(&pos) {
                std::cmp::Ordering::Less => lo = mid + 1,
                std::cmp::Ordering::Greater => hi = mid,
                std::cmp::Ordering::Equal => return true,
            }
        }
        false
    }

    /// All positions.
    pub fn iter(&self) -> impl Iterator<Item = u32> + '_ {
        (0..self.len()).map(|i| self.get(i))
    }
}

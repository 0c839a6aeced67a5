//! Query execution and ranking over an [`Index`].
//!
//! - A word is a phrase: it matches where all its bigrams (and any uncovered
//!   unigrams) stand at the right offsets from one start position.
//! - Groups are ANDed, alternatives within a group ORed, exclusions removed.
//! - Ranking is BM25 (k1 = 1.2, b = 0.75) over clauses, with title matches
//!   counted [`TITLE_WEIGHT`] times, and boosts for the clause that defines a
//!   term: the term is the whole title, the term opens the clause text, the
//!   term is followed by とは ("X とは…", the rulebooks' definition form) or
//!   opens the clause followed by は ("X は、…"), or the
//!   clause is a glossary entry.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::rc::Rc;

use super::index::{Doc, Index, NO_PARENT, PosList, bigram_key, unigram_key};
use super::query::{Query, Word};
use super::synonyms::Synonyms;
use crate::rulebook::ClauseKind;
use crate::text::{UnitToken, fold_for_search, search_units, search_units_through};

const K1: f64 = 1.2;
const B: f64 = 0.75;
/// A title match counts this many times a body match.
pub const TITLE_WEIGHT: f64 = 2.0;
/// The longest multi-word synonym key tried (`max play points`, `last known information`).
const MAX_KEY_WORDS: usize = 4;

/// Where to search.
#[derive(Debug, Clone, Default)]
pub struct Scope {
    /// Game indices of the index to search; empty means all games.
    pub games: Vec<u32>,
    /// Global document numbers of subtree roots; when non-empty, only clauses
    /// inside one of these subtrees (root included) are searched.
    pub under: Vec<u32>,
}

/// One term that matched in a result.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Matched {
    /// What the judge typed (a word, or several words that form a synonym key).
    pub typed: String,
    /// The term that matched: `typed` itself, or its synonym expansion.
    pub term: String,
    /// Whether `term` came from the synonym table.
    pub expansion: bool,
}

/// How a clause stands to the term searched (issue 17, Ranking). Results are
/// ordered by rank first, then by score: the clause that defines a term comes
/// before the clauses that use it, and the main rules before the rules of a
/// special mode, whatever the word counts say.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord)]
pub enum Rank {
    /// A rule of a special mode (the PSO2 cooperative raid) or an entry of a
    /// revision history, for a query that does not name that part.
    Secondary,
    /// The clause holds the words.
    #[default]
    Mention,
    /// The clause states the term's definition: "X とは…".
    Statement,
    /// The term is one part of the clause's heading, set off by punctuation
    /// (装備 in 装備／場, コンボ in 特定表記:コンボ, 後列 in 前列/後列).
    HeadingPart,
    /// The term is the clause's heading (or glossary entry), bar a
    /// parameter: 耐性Ａ, マナチャージ（Ｘ）, 回復X.
    Heading,
}

/// One ranked result.
#[derive(Debug, Clone)]
pub struct Hit {
    /// Global document number.
    pub doc: u32,
    /// Where the clause ranks before its score is compared.
    pub rank: Rank,
    pub score: f64,
    /// Matched position ranges `[start, end)`, sorted, for highlighting.
    pub spans: Vec<(u32, u32)>,
    /// Terms that matched, sorted, deduplicated.
    pub matched: Vec<Matched>,
}

/// Every place one term (a phrase) matches, over the whole index.
#[derive(Debug, Default)]
struct TermMatches {
    /// doc → sorted start positions.
    by_doc: BTreeMap<u32, Vec<u32>>,
    /// Length of one match in positions.
    span: u32,
}

/// One alternative of a planned group.
#[derive(Debug, Clone)]
struct Alt {
    typed: String,
    term: String,
    expansion: bool,
}

/// One game's share of a query: its planned groups, their matches, the
/// excluded clauses.
struct GameRun {
    /// What the judge typed for each planned group.
    typed: Vec<String>,
    groups: Vec<Vec<(Alt, Rc<TermMatches>)>>,
    /// The clauses of this game each group matches.
    docs: Vec<BTreeSet<u32>>,
    excluded: BTreeSet<u32>,
    /// Whether the query names a special part (raid, revision history).
    names_secondary: bool,
}

/// Characters that, right after とは, show it is not a definition: とは別,
/// とは異なる, とは限らない, とは出来ない, とはできない, とはあり得ない,
/// とはならない, とは独立, とは無関係, とは言え, とは関係.
const NOT_A_DEFINITION: &[char] = &[
    '別', '異', '限', '出', 'で', 'あ', 'な', '独', '無', '言', '関',
];

/// A clause that holds some of the query's words but not all of them.
#[derive(Debug, Clone)]
pub struct Partial {
    pub hit: Hit,
    /// How many of the query's terms the clause holds.
    pub held: usize,
    /// The terms it lacks, as typed.
    pub missing: Vec<String>,
}

/// Kinds of clause outside the main rules: the rules of a special mode (the
/// PSO2 raid) and revision histories.
fn is_secondary(kind: ClauseKind) -> bool {
    matches!(kind, ClauseKind::Raid | ClauseKind::Revision)
}

/// A heading without its trailing parameter: `耐性Ａ` → `耐性`,
/// `マナチャージ（Ｘ）` → `マナチャージ`, `回復X` → `回復`, so the keyword a
/// judge types counts as the whole heading.
pub(crate) fn heading_core(title: &str) -> &str {
    let mut t = title.trim_end();
    if let Some(open) = t
        .strip_suffix(['）', ')'])
        .and_then(|inner| inner.rfind(['（', '(']))
        .filter(|&i| i > 0)
    {
        t = t[..open].trim_end();
    }
    let mut chars = t.chars().rev();
    if let (Some(last), Some(before)) = (chars.next(), chars.next()) {
        let letter = |c: char| c.is_ascii_uppercase() || ('Ａ'..='Ｚ').contains(&c);
        let ascii_like = |c: char| c.is_ascii_alphanumeric() || ('Ａ'..='ｚ').contains(&c);
        if letter(last) && !ascii_like(before) {
            t = &t[..t.len() - last.len_utf8()];
        }
    }
    t
}

/// Orders hits best first: by rank, then score, then document order.
fn sort_hits(hits: &mut [Hit]) {
    hits.sort_by(|a, b| {
        b.rank
            .cmp(&a.rank)
            .then(b.score.total_cmp(&a.score))
            .then(a.doc.cmp(&b.doc))
    });
}

/// The search engine: an index plus one synonym table per game of the index.
pub struct Engine<'a> {
    index: Index<'a>,
    /// One table per game, parsed on first use: a one-game query never pays
    /// for parsing the other tables (fresh-process start-up, issue 3 Speed).
    synonyms: Vec<std::cell::OnceCell<Synonyms>>,
    cache: std::cell::RefCell<HashMap<String, Rc<TermMatches>>>,
}

impl<'a> Engine<'a> {
    /// An engine over `index` with the bundled synonym tables.
    pub fn new(index: Index<'a>) -> Self {
        Engine {
            index,
            synonyms: (0..index.n_games()).map(|_| Default::default()).collect(),
            cache: Default::default(),
        }
    }

    /// An engine with explicit synonym tables (one per game of the index).
    pub fn with_synonyms(index: Index<'a>, synonyms: Vec<Synonyms>) -> Self {
        Engine {
            index,
            synonyms: synonyms
                .into_iter()
                .map(std::cell::OnceCell::from)
                .collect(),
            cache: Default::default(),
        }
    }

    /// The index searched.
    pub fn index(&self) -> Index<'a> {
        self.index
    }

    /// The synonym table of game `g`.
    pub fn synonyms(&self, g: u32) -> &Synonyms {
        static EMPTY: std::sync::OnceLock<Synonyms> = std::sync::OnceLock::new();
        match self.synonyms.get(g as usize) {
            Some(cell) => cell.get_or_init(|| Synonyms::bundled(self.index.game(g).0)),
            None => EMPTY.get_or_init(Synonyms::default),
        }
    }

    /// Every game's table.
    fn all_synonyms(&self) -> impl Iterator<Item = &Synonyms> {
        (0..self.synonyms.len() as u32).map(|g| self.synonyms(g))
    }

    fn games(&self, scope: &Scope) -> Vec<u32> {
        if scope.games.is_empty() {
            (0..self.index.n_games()).collect()
        } else {
            scope.games.clone()
        }
    }

    /// Whether some game's table has `folded` as a key.
    fn is_any_key(&self, folded: &str) -> bool {
        self.all_synonyms().any(|s| s.has_key(folded))
    }

    /// Groups the query's words into planned groups of alternatives for game
    /// `g`: runs of plain words that form a multi-word synonym key (`check
    /// timing`) become one group; unquoted words gain their expansions.
    fn plan(&self, query: &Query, g: u32) -> Vec<Vec<Alt>> {
        let syn = self.synonyms(g);
        let mut out: Vec<Vec<Alt>> = Vec::new();
        let groups = &query.groups;
        let plain = |i: usize| groups[i].alts.len() == 1 && !groups[i].alts[0].quoted;
        let mut i = 0;
        while i < groups.len() {
            // Longest run of plain words starting at i that is a synonym key.
            let mut taken = 0;
            if plain(i) {
                let mut n = MAX_KEY_WORDS.min(groups.len() - i);
                while n >= 2 {
                    if (i..i + n).all(plain) {
                        let joined: Vec<&str> = (i..i + n)
                            .map(|k| groups[k].alts[0].text.as_str())
                            .collect();
                        let joined = joined.join(" ");
                        if self.is_any_key(&fold_for_search(&joined)) {
                            out.push(self.alternatives(
                                syn,
                                &Word {
                                    text: joined,
                                    quoted: false,
                                },
                            ));
                            taken = n;
                            break;
                        }
                    }
                    n -= 1;
                }
            }
            if taken == 0 {
                let mut alts = Vec::new();
                for w in &groups[i].alts {
                    alts.extend(self.alternatives(syn, w));
                }
                out.push(alts);
                taken = 1;
            }
            i += taken;
        }
        out
    }

    fn alternatives(&self, syn: &Synonyms, w: &Word) -> Vec<Alt> {
        let mut alts = vec![Alt {
            typed: w.text.clone(),
            term: w.text.clone(),
            expansion: false,
        }];
        if !w.quoted {
            for t in syn.expand(&fold_for_search(&w.text)) {
                alts.push(Alt {
                    typed: w.text.clone(),
                    term: t,
                    expansion: true,
                });
            }
        }
        alts
    }

    /// Every match of `term` (a phrase) over the whole index, cached.
    fn matches(&self, term: &str) -> Rc<TermMatches> {
        let key = fold_for_search(term);
        if let Some(m) = self.cache.borrow().get(&key) {
            return m.clone();
        }
        let m = Rc::new(self.eval_phrase(term));
        self.cache.borrow_mut().insert(key, m.clone());
        m
    }

    fn eval_phrase(&self, term: &str) -> TermMatches {
        let (units, _) = search_units(term, 0);
        let Some(first) = units.first() else {
            return TermMatches::default();
        };
        let base = first.pos;
        let span = units.last().map(|u| u.pos - base + 1).unwrap_or(1);
        // Constraints (term key, offset from the match start): a bigram for
        // every pair of adjacent characters, a unigram for every unit no
        // bigram covers (ASCII words, lone characters).
        let mut constraints: Vec<(String, u32)> = Vec::new();
        let mut covered = vec![false; units.len()];
        for k in 0..units.len().saturating_sub(1) {
            if let (UnitToken::Char(a), UnitToken::Char(b)) = (&units[k].token, &units[k + 1].token)
                && units[k + 1].pos == units[k].pos + 1
            {
                constraints.push((bigram_key(*a, *b), units[k].pos - base));
                covered[k] = true;
                covered[k + 1] = true;
            }
        }
        for (k, u) in units.iter().enumerate() {
            if !covered[k] {
                constraints.push((unigram_key(&u.token), u.pos - base));
            }
        }
        let mut lists = Vec::with_capacity(constraints.len());
        for (key, off) in &constraints {
            match self.index.postings(key) {
                Some(p) => lists.push((p, *off)),
                None => return TermMatches::default(),
            }
        }
        // Drive from the rarest constraint.
        lists.sort_by_key(|(p, off)| (self.index.doc_freq(*p), *off));
        let (driver, driver_off) = lists[0];
        let rest = &lists[1..];
        let mut by_doc = BTreeMap::new();
        let mut other: Vec<(PosList<'a>, u32)> = Vec::with_capacity(rest.len());
        'docs: for k in 0..self.index.doc_freq(driver) {
            let (doc, positions) = self.index.entry(driver, k);
            other.clear();
            for (p, off) in rest {
                match self.index.positions_in(*p, doc) {
                    Some(pl) => other.push((pl, *off)),
                    None => continue 'docs,
                }
            }
            let starts: Vec<u32> = positions
                .iter()
                .filter(|&p| p >= driver_off)
                .map(|p| p - driver_off)
                .filter(|&s| other.iter().all(|(pl, off)| pl.contains(s + off)))
                .collect();
            if !starts.is_empty() {
                by_doc.insert(doc, starts);
            }
        }
        TermMatches { by_doc, span }
    }

    fn in_under(&self, doc: u32, under: &[u32]) -> bool {
        if under.is_empty() {
            return true;
        }
        let mut cur = doc;
        // Bounded by tree depth; the bound guards against a malformed index.
        for _ in 0..64 {
            if under.contains(&cur) {
                return true;
            }
            let p = self.index.doc_head(cur).parent;
            if p == NO_PARENT {
                return false;
            }
            cur = p;
        }
        false
    }

    fn idf(&self, df: usize) -> f64 {
        let n = self.index.n_docs() as f64;
        let df = df as f64;
        (1.0 + (n - df + 0.5) / (df + 0.5)).ln()
    }

    /// Plans `query` for game `g` and finds every match of every group and
    /// exclusion in that game.
    fn prepare(&self, query: &Query, g: u32) -> GameRun {
        let (_, first, n) = self.index.game(g);
        let range = first..first + n;
        let plan = self.plan(query, g);
        let typed: Vec<String> = plan
            .iter()
            .map(|alts| {
                let mut t: Vec<&str> = Vec::new();
                for a in alts {
                    if !t.contains(&a.typed.as_str()) {
                        t.push(&a.typed);
                    }
                }
                t.join(" OR ")
            })
            .collect();
        // Matches of every alternative, restricted to this game.
        let groups: Vec<Vec<(Alt, Rc<TermMatches>)>> = plan
            .into_iter()
            .map(|alts| {
                alts.into_iter()
                    .map(|a| {
                        let m = self.matches(&a.term);
                        (a, m)
                    })
                    .collect()
            })
            .collect();
        let docs: Vec<BTreeSet<u32>> = groups
            .iter()
            .map(|alts| {
                alts.iter()
                    .flat_map(|(_, m)| m.by_doc.range(range.clone()).map(|(d, _)| *d))
                    .collect()
            })
            .collect();
        let mut excluded: BTreeSet<u32> = BTreeSet::new();
        let syn = self.synonyms(g);
        for w in &query.excludes {
            for a in self.alternatives(syn, w) {
                excluded.extend(
                    self.matches(&a.term)
                        .by_doc
                        .range(range.clone())
                        .map(|(d, _)| *d),
                );
            }
        }
        // The query names a special part of the document (the raid, the
        // revision history) when one of its words is found mostly there.
        let names_secondary = docs.iter().any(|set| {
            let inside = set
                .iter()
                .filter(|&&d| is_secondary(self.index.kind(d)))
                .count();
            inside * 2 > set.len()
        });
        GameRun {
            typed,
            groups,
            docs,
            excluded,
            names_secondary,
        }
    }

    /// Runs `query` in `scope` and returns every hit, best first: by
    /// [`Rank`], then by score (ties by document order, so output is
    /// deterministic).
    pub fn search(&self, query: &Query, scope: &Scope) -> Vec<Hit> {
        let mut hits = Vec::new();
        for g in self.games(scope) {
            let run = self.prepare(query, g);
            let Some(smallest) = run.docs.iter().min_by_key(|s| s.len()) else {
                continue;
            };
            for &doc in smallest {
                if run.excluded.contains(&doc)
                    || !run.docs.iter().all(|s| s.contains(&doc))
                    || !self.in_under(doc, &scope.under)
                {
                    continue;
                }
                hits.push(self.score(doc, &run));
            }
        }
        sort_hits(&mut hits);
        hits
    }

    /// For a query no clause matches in full (issue 17, Partial matches): the
    /// clauses that hold some of its words, those holding the most first,
    /// then as [`Engine::search`] orders them. Empty for a one-word query.
    pub fn search_partial(&self, query: &Query, scope: &Scope) -> Vec<Partial> {
        let mut out: Vec<Partial> = Vec::new();
        for g in self.games(scope) {
            let run = self.prepare(query, g);
            let n = run.docs.len();
            if n < 2 {
                continue;
            }
            let union: BTreeSet<u32> = run.docs.iter().flatten().copied().collect();
            for doc in union {
                if run.excluded.contains(&doc) || !self.in_under(doc, &scope.under) {
                    continue;
                }
                let missing: Vec<String> = (0..n)
                    .filter(|&k| !run.docs[k].contains(&doc))
                    .map(|k| run.typed[k].clone())
                    .collect();
                if missing.is_empty() {
                    // A full match: not a partial one (the caller searched first).
                    continue;
                }
                out.push(Partial {
                    held: n - missing.len(),
                    hit: self.score(doc, &run),
                    missing,
                });
            }
        }
        out.sort_by(|a, b| {
            b.held
                .cmp(&a.held)
                .then(b.hit.rank.cmp(&a.hit.rank))
                .then(b.hit.score.total_cmp(&a.hit.score))
                .then(a.hit.doc.cmp(&b.hit.doc))
        });
        out
    }

    /// How a heading (its units, parameter stripped) stands to a match at
    /// `[s, e)`: the whole heading, one part of it, or neither. A heading or
    /// part `Xする` counts as `X` (破壊する defines 破壊).
    fn heading_match(units: &[crate::text::Unit], s: u32, e: u32) -> Option<Rank> {
        if units.first().is_none_or(|u| s < u.pos) || units.last().is_none_or(|u| s > u.pos) {
            return None;
        }
        // Parts: runs of units at consecutive positions, as index ranges.
        let mut parts: Vec<(usize, usize)> = Vec::new();
        let mut start = 0;
        for k in 1..=units.len() {
            if k == units.len() || units[k].pos != units[k - 1].pos + 1 {
                parts.push((start, k));
                start = k;
            }
        }
        let covers = |(a, b): (usize, usize)| {
            let end = units[b - 1].pos + 1;
            let suru = b - a > 2
                && units[b - 2].token == UnitToken::Char('す')
                && units[b - 1].token == UnitToken::Char('る');
            s == units[a].pos && (e == end || (suru && e == end - 2))
        };
        let whole = (0, units.len());
        if covers(whole) && (parts.len() == 1 || e == units[units.len() - 1].pos + 1) {
            return Some(Rank::Heading);
        }
        (parts.len() > 1 && parts.iter().any(|&p| covers(p))).then_some(Rank::HeadingPart)
    }

    fn score(&self, doc: u32, run: &GameRun) -> Hit {
        let groups = &run.groups;
        let avg = self.index.avg_len().max(1.0);
        let d = self.index.doc_head(doc);
        let body_start = d.title_units + 1;
        let norm = K1 * (1.0 - B + B * d.len as f64 / avg);
        let toha = self.index.postings(&bigram_key('と', 'は'));
        let ha = self.index.postings(&unigram_key(&UnitToken::Char('は')));
        // Position lists in this clause, looked up once (not per match).
        let in_doc = |key: &str| {
            self.index
                .postings(key)
                .and_then(|t| self.index.positions_in(t, doc))
        };
        let toha_here = toha.and_then(|t| self.index.positions_in(t, doc));
        let not_definition: Vec<PosList<'_>> = if toha_here.is_some() {
            NOT_A_DEFINITION
                .iter()
                .filter_map(|&c| in_doc(&unigram_key(&UnitToken::Char(c))))
                .collect()
        } else {
            Vec::new()
        };
        // "X とは、…" defines X; "X とは別の…", "ことは出来ない" do not.
        let toha_at = |p: u32| {
            toha_here.is_some_and(|pl| pl.contains(p))
                && !not_definition.iter().any(|pl| pl.contains(p + 2))
        };
        // A one-letter parameter between a term and とは: 『回復X』とは.
        let params: Vec<PosList<'_>> = if toha_here.is_some() {
            ["wx", "wa", "wn"]
                .iter()
                .filter_map(|k| in_doc(k))
                .collect()
        } else {
            Vec::new()
        };
        let param_at = |p: u32| params.iter().any(|pl| pl.contains(p));
        let mut total = 0.0;
        let mut spans = Vec::new();
        let mut matched = Vec::new();
        let (mut title_exact, mut opens, mut defines, mut opens_with_ha) =
            (false, false, false, false);
        let mut heading: Option<Rank> = None;
        let mut starts_title = false;
        let title_units = search_units(heading_core(d.title), 0).0;
        for alts in groups {
            let mut best = 0.0f64;
            for (alt, m) in alts {
                let Some(starts) = m.by_doc.get(&doc) else {
                    continue;
                };
                let df = m.by_doc.len();
                let in_title = starts.iter().filter(|&&s| s < d.title_units).count() as f64;
                let tf = starts.len() as f64 + (TITLE_WEIGHT - 1.0) * in_title;
                let s = self.idf(df) * tf * (K1 + 1.0) / (tf + norm);
                best = best.max(s);
                for &s in starts {
                    let e = s + m.span;
                    spans.push((s, e));
                    title_exact |= s == 0 && m.span == d.title_units;
                    heading = heading.max(Self::heading_match(&title_units, s, e));
                    starts_title |= s == 0 && !title_units.is_empty();
                    opens |= s == body_start;
                    // "X とは…" anywhere, or "X は…" opening the clause: the
                    // two forms in which the rulebooks define a term.
                    defines |= toha_at(e) || (param_at(e) && toha_at(e + 1));
                    opens_with_ha |= s == body_start
                        && ha
                            .and_then(|p| self.index.positions_in(p, doc))
                            .is_some_and(|pl| pl.contains(e));
                }
                matched.push(Matched {
                    typed: alt.typed.clone(),
                    term: alt.term.clone(),
                    expansion: alt.expansion,
                });
            }
            total += best;
        }
        let mut boost = 1.0;
        if title_exact || heading == Some(Rank::Heading) {
            boost += 1.0;
        }
        if starts_title && !title_exact && heading != Some(Rank::Heading) {
            // The heading opens with the term: "ループが発生した場合".
            boost += 0.5;
        }
        if opens {
            boost += 0.5;
        }
        if defines {
            // "X とは…" is how every one of the four rulebooks defines a term.
            boost += 1.0;
        }
        if opens_with_ha {
            // Weaker than とは: "X は…" also opens plain rules about X.
            boost += 0.3;
        }
        if d.kind == ClauseKind::Glossary {
            boost += 0.3;
        }
        // The defining clause of a term comes first, for a query of one term
        // (several words that share no clause's definition rank by score).
        let rank = if is_secondary(d.kind) && !run.names_secondary {
            Rank::Secondary
        } else if groups.len() != 1 {
            Rank::Mention
        } else if let Some(h) = heading {
            h
        } else if defines {
            Rank::Statement
        } else {
            Rank::Mention
        };
        spans.sort_unstable();
        spans.dedup();
        matched.sort();
        matched.dedup();
        Hit {
            doc,
            rank,
            score: total * boost,
            spans,
            matched,
        }
    }

    /// For a query with no hits: how many clauses each group matches alone in
    /// `scope` (typed text, count), to tell the judge which word to drop.
    pub fn group_counts(&self, query: &Query, scope: &Scope) -> Vec<(String, usize)> {
        query
            .groups
            .iter()
            .map(|g| {
                let single = Query {
                    groups: vec![g.clone()],
                    excludes: Vec::new(),
                };
                let typed: Vec<&str> = g.alts.iter().map(|w| w.text.as_str()).collect();
                (typed.join(" OR "), self.search(&single, scope).len())
            })
            .collect()
    }

    /// Near spellings of `word` from the index vocabulary: synonym keys and
    /// ASCII words by edit distance, clause titles by shared bigrams. Sorted,
    /// at most `n`.
    pub fn suggest(&self, word: &str, n: usize) -> Vec<String> {
        let folded = fold_for_search(word);
        if folded.is_empty() {
            return Vec::new();
        }
        let mut scored: BTreeMap<(usize, String), ()> = BTreeMap::new();
        if folded.is_ascii() {
            let max = if folded.len() <= 3 { 1 } else { 2 };
            let mut cands: BTreeSet<String> = BTreeSet::new();
            for s in self.all_synonyms() {
                cands.extend(s.entries().map(|(k, _)| k.to_string()));
            }
            for t in 0..self.index.n_terms() {
                if let Some(w) = self.index.term(t).strip_prefix('w')
                    && w.len() > 2
                    && !w.bytes().all(|b| b.is_ascii_digit())
                {
                    cands.insert(w.to_string());
                }
            }
            for c in cands {
                let d = crate::rulebook::address::edit_distance(&folded, &c);
                if d > 0 && d <= max {
                    scored.insert((d, c), ());
                }
            }
        } else {
            // Short words are compared by characters, longer ones by bigrams.
            let short = folded.chars().count() <= 3;
            let grams = |s: &str| -> BTreeSet<(char, char)> {
                let cs: Vec<char> = s.chars().collect();
                if short {
                    cs.iter().map(|&c| (c, c)).collect()
                } else {
                    cs.windows(2).map(|w| (w[0], w[1])).collect()
                }
            };
            let q = grams(&folded);
            if q.is_empty() {
                return Vec::new();
            }
            // Vocabulary: short clause titles and the synonym tables' terms.
            let mut vocab: BTreeSet<&str> = BTreeSet::new();
            for d in 0..self.index.n_docs() {
                let t = self.index.doc_head(d).title;
                if !t.is_empty() && t.chars().count() <= 20 {
                    vocab.insert(t);
                }
            }
            for s in self.all_synonyms() {
                for (_, terms) in s.entries() {
                    vocab.extend(terms.iter().map(String::as_str));
                }
            }
            for t in vocab {
                let tf = fold_for_search(t);
                if tf == folded {
                    continue;
                }
                let shared = q.intersection(&grams(&tf)).count();
                if shared * 2 >= q.len() && shared > 0 {
                    let dist = crate::rulebook::address::edit_distance(&folded, &tf);
                    if dist <= folded.chars().count() {
                        scored.insert((dist, t.to_string()), ());
                    }
                }
            }
        }
        scored.into_keys().map(|(_, s)| s).take(n).collect()
    }
}

/// A snippet of a clause's text around its first match, as segments of plain
/// and highlighted text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Snippet {
    /// `(text, is_hit)` in order.
    pub segments: Vec<(String, bool)>,
}

impl Snippet {
    /// The snippet as plain text.
    pub fn plain(&self) -> String {
        self.segments.iter().map(|(s, _)| s.as_str()).collect()
    }

    /// The highlighted substrings, in order.
    pub fn hits(&self) -> Vec<String> {
        self.segments
            .iter()
            .filter(|(_, h)| *h)
            .map(|(s, _)| s.clone())
            .collect()
    }
}

/// Builds the snippet of `doc` for matched position `spans`: about `before`
/// characters before the first body match and `after` characters after it.
pub fn snippet(doc: &Doc<'_>, spans: &[(u32, u32)], before: usize, after: usize) -> Snippet {
    use super::index::FIELD_SEP;
    let text = doc.text;
    let last = spans.iter().map(|&(_, e)| e).max().unwrap_or(0);
    let (units, _) = search_units_through(text, 0, last);
    // Byte ranges of the spans, through the units' positions.
    let mut ranges: Vec<(usize, usize)> = Vec::new();
    for &(s, e) in spans {
        let a = units.partition_point(|u| u.pos < s);
        let b = units.partition_point(|u| u.pos < e);
        if a < b {
            ranges.push((units[a].start, units[b - 1].end));
        }
    }
    let body_byte = text
        .find(FIELD_SEP)
        .map(|i| i + FIELD_SEP.len_utf8())
        .unwrap_or(0);
    let focus = ranges
        .iter()
        .find(|r| r.0 >= body_byte)
        .or(ranges.first())
        .map(|r| r.0)
        .unwrap_or(body_byte);
    let floor = if focus >= body_byte { body_byte } else { 0 };
    // Window in chars around the focus.
    let lo = text[..focus]
        .char_indices()
        .rev()
        .nth(before.saturating_sub(1))
        .map_or(0, |(i, _)| i)
        .max(floor);
    let hi = text[focus..]
        .char_indices()
        .nth(after)
        .map_or(text.len(), |(i, _)| focus + i);
    let mut segments: Vec<(String, bool)> = Vec::new();
    if lo > floor {
        segments.push(("…".into(), false));
    }
    for (i, c) in text[lo..hi].char_indices() {
        let at = lo + i;
        let hit = ranges.iter().any(|&(a, b)| at >= a && at < b);
        let piece: &str = match c {
            FIELD_SEP => {
                if at == 0 || at + 1 == text.len() || at < lo + 1 {
                    ""
                } else {
                    " ／ "
                }
            }
            '\n' | '\r' | '\t' => " ",
            _ => "",
        };
        let mut buf = [0u8; 4];
        let s = if piece.is_empty() && c != FIELD_SEP {
            &*c.encode_utf8(&mut buf)
        } else {
            piece
        };
        if s.is_empty() {
            continue;
        }
        match segments.last_mut() {
            Some((t, h)) if *h == hit => t.push_str(s),
            _ => segments.push((s.to_string(), hit)),
        }
    }
    if hi < text.len() {
        segments.push(("…".into(), false));
    }
    Snippet { segments }
}

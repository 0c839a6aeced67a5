//! `judge search`: keyword search over every bundled rulebook (issue 3).

use serde::Serialize;
use unicode_normalization::UnicodeNormalization;

use super::CmdResult;
use crate::bundle;
use crate::error::{JudgeError, exit};
use crate::lookup;
use crate::output::{ColorChoice, Style};
use crate::rulebook::documents;
use crate::search::{self, Engine, Hit, Index, Scope, query};

pub const SEARCH_EXAMPLES: &str = "\
Examples:
  judge search 投了                   Every game; the defining clause first
  judge search ward --game sve        English terms expand to the rulebook's (ward → 守護)
  judge search check timing           Several words are ANDed; `check timing` is one term
  judge search 守護 ダメージ             Clauses holding both words
  judge search 投了 OR concede          Either word
  judge search 攻撃 -交戦               Exclude clauses that mention 交戦
  judge search '\"last words\"'         A literal phrase (no synonym expansion)
  judge search 進化 --under 10 --game sve   Only inside chapter 10 (its subtree)
  judge search 10.5.2 --game sve      A clause id goes straight to that clause
  judge search ダメージ --json          Machine-readable, best first

When no clause holds every word, the clauses holding the most of them are shown,
labelled partial, with the words each lacks (exit code 1).

Exit codes: 0 hits, 1 no clause holds every word, 2 bad input (empty query, unknown game,
bad --under).";

#[derive(Debug, clap::Args)]
pub struct SearchArgs {
    /// Words to search for (ANDed). "Quoted phrases" are literal, -word excludes,
    /// OR between two words matches either. A clause id goes to that clause.
    #[arg(required = true, num_args = 1.., value_name = "WORDS", allow_hyphen_values = true)]
    words: Vec<String>,
    /// Search one game only: pmv, pso2, sve or dz.
    #[arg(long, value_name = "GAME")]
    game: Option<String>,
    /// Only clauses inside this clause's subtree (a chapter or section id).
    #[arg(long, value_name = "ID")]
    under: Option<String>,
    /// Show at most this many results.
    #[arg(long, default_value_t = 10, value_name = "N")]
    limit: usize,
    /// Print a JSON array instead of a table.
    #[arg(long)]
    pub(crate) json: bool,
}

impl SearchArgs {
    /// `--json`, given before the words or among them (the words accept
    /// options after them, `judge search 投了 --json`).
    pub(crate) fn wants_json(&self) -> bool {
        self.json || self.words.iter().any(|w| w == "--json")
    }
}

/// One result as printed with `--json`.
#[derive(Debug, Serialize)]
struct JsonHit {
    game: String,
    /// Canonical clause id.
    id: String,
    /// The id as printed, when it differs.
    display: String,
    title: String,
    kind: &'static str,
    breadcrumb: String,
    /// BM25 score with boosts; 0 for a clause reached by its id.
    score: f64,
    /// `text` (keyword match) or `id` (the query was a clause id).
    via: &'static str,
    snippet: String,
    /// The highlighted substrings of the snippet.
    highlights: Vec<String>,
    /// Which typed word matched through which term (and whether that term is
    /// a synonym expansion).
    matched_terms: Vec<JsonMatched>,
    /// A partial match: no clause holds every word, and this one holds some
    /// (the exit code is then 1).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    partial: bool,
    /// For a partial match, the words the clause lacks, as typed.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    missing_terms: Vec<String>,
}

#[derive(Debug, Serialize)]
struct JsonMatched {
    typed: String,
    term: String,
    expansion: bool,
}

/// Writes to stdout, ignoring a closed pipe (`judge search … | head` must not
/// panic, the way `println!` would).
fn out(s: &str) {
    use std::io::Write;
    let mut stdout = std::io::stdout().lock();
    let _ = stdout.write_all(s.as_bytes());
    let _ = stdout.write_all(b"\n");
}

fn print_json(value: &impl Serialize) {
    // Serialising plain structs of strings and numbers cannot fail.
    out(&serde_json::to_string_pretty(value).unwrap_or_else(|_| "[]".into()));
}

fn index() -> Result<Index<'static>, JudgeError> {
    search::embedded().map_err(|e| JudgeError::Usage {
        message: format!("internal error: the embedded search index is unreadable: {e}"),
        help: Some("this is a bug in the build; please report it".into()),
    })
}

/// Whether the query looks like a clause id (`10.5.2`, `第4部 第9章 2-1`,
/// `GL:無敵`, `1.3.4.1#ex1`) rather than words.
fn is_id_like(q: &str) -> bool {
    let n: String = q.trim().nfkc().collect();
    if n.is_empty() {
        return false;
    }
    if ["GL:", "RAID:", "H:"].iter().any(|p| n.starts_with(p)) {
        return true;
    }
    n.chars().any(|c| c.is_ascii_digit())
        && n.chars().all(|c| {
            c.is_ascii_digit()
                || c.is_whitespace()
                || matches!(
                    c,
                    '.' | '-'
                        | '#'
                        | 'e'
                        | 'x'
                        | '第'
                        | '部'
                        | '章'
                        | '節'
                        | '項'
                        | '条'
                        | '－'
                        | '。'
                        | 'ー'
                )
        })
}

/// Options written after the first word. `allow_hyphen_values` (needed for
/// `-exclusion` words) makes clap hand everything after the first word to
/// `words`, so the options are picked out of it here.
fn take_trailing_options(
    args: &SearchArgs,
    style: Style,
) -> Result<(SearchArgs, Style), JudgeError> {
    let mut out = SearchArgs {
        words: Vec::new(),
        game: args.game.clone(),
        under: args.under.clone(),
        limit: args.limit,
        json: args.json,
    };
    let mut style = style;
    let mut it = args.words.iter();
    let missing = |opt: &str| JudgeError::Usage {
        message: format!("`{opt}` needs a value"),
        help: Some(
            match opt {
                "--game" => "e.g. --game sve",
                "--under" => "e.g. --under 10.5",
                "--limit" => "e.g. --limit 20",
                _ => "e.g. --color never",
            }
            .into(),
        ),
    };
    while let Some(w) = it.next() {
        let (name, inline) = match w.split_once('=') {
            Some((n, v)) if n.starts_with("--") => (n, Some(v.to_string())),
            _ => (w.as_str(), None),
        };
        let mut value = |opt: &str| -> Result<String, JudgeError> {
            inline
                .clone()
                .or_else(|| it.next().cloned())
                .ok_or_else(|| missing(opt))
        };
        match name {
            "--game" => out.game = Some(value("--game")?),
            "--under" => out.under = Some(value("--under")?),
            "--limit" => {
                let v = value("--limit")?;
                out.limit = v.parse().map_err(|_| JudgeError::Usage {
                    message: format!("`--limit {v}` is not a number"),
                    help: Some("e.g. --limit 20".into()),
                })?;
            }
            "--json" => out.json = true,
            "--color" => {
                let v = value("--color")?;
                let choice =
                    <ColorChoice as clap::ValueEnum>::from_str(&v, true).map_err(|_| {
                        JudgeError::Usage {
                            message: format!("`--color {v}` is not a colour choice"),
                            help: Some("valid: auto, always, never".into()),
                        }
                    })?;
                style = Style::detect(choice);
            }
            "--" => {}
            n if n.starts_with("--") => {
                return Err(JudgeError::Usage {
                    message: format!("unknown option `{n}`"),
                    help: Some("options: --game, --under, --limit, --json, --color".into()),
                });
            }
            _ => out.words.push(w.clone()),
        }
    }
    Ok((out, style))
}

pub fn run(args: &SearchArgs, style: Style) -> CmdResult {
    let (args, style) = take_trailing_options(args, style)?;
    let args = &args;
    let raw = args.words.join(" ");
    let index = index()?;
    let games: Vec<u32> = match &args.game {
        Some(g) => {
            let spec = bundle::game_spec(g)?;
            let gi = index
                .game_index(spec.game)
                .ok_or_else(|| JudgeError::UnknownGame {
                    game: g.clone(),
                    valid: documents::GAMES.join(", "),
                })?;
            vec![gi]
        }
        None => (0..index.n_games()).collect(),
    };
    if raw.trim().is_empty() {
        return Err(JudgeError::Usage {
            message: "empty query".into(),
            help: Some("give at least one word, e.g. judge search 守護".into()),
        });
    }
    let under = match &args.under {
        Some(u) => resolve_under(&index, &games, u)?,
        None => Vec::new(),
    };
    let engine = Engine::new(index);

    // A clause id goes straight to the clause, as `judge rule` would.
    if is_id_like(&raw) {
        let hits = id_hits(&index, &games, &raw);
        if !hits.is_empty() {
            return print_hits(&engine, &hits, "id", &raw, args, style);
        }
    }

    let q = query::parse(&raw).map_err(|e| JudgeError::Usage {
        message: e.message,
        help: Some(e.help),
    })?;
    let scope = Scope {
        games: games.clone(),
        under: under.clone(),
    };
    let hits = engine.search(&q, &scope);
    if hits.is_empty() {
        return no_hits(&engine, &q, &scope, &raw, args, style);
    }
    print_hits(&engine, &hits, "text", &raw, args, style)
}

/// Resolves `--under` in each game of the scope; keeps the games where it
/// names a clause. Returns global document numbers of the subtree roots.
fn resolve_under(index: &Index<'_>, games: &[u32], input: &str) -> Result<Vec<u32>, JudgeError> {
    let mut roots = Vec::new();
    let mut first_err = None;
    for &g in games {
        let (name, first, _) = index.game(g);
        let Some(spec) = documents::primary(name) else {
            continue;
        };
        let book = bundle::document(spec);
        match lookup::resolve(book, spec.format, input) {
            Ok(r) => roots.push(first + r.clause),
            Err(e) => {
                first_err.get_or_insert(e);
            }
        }
    }
    if !roots.is_empty() {
        return Ok(roots);
    }
    match (games.len(), first_err) {
        (1, Some(e)) => Err(e),
        _ => Err(JudgeError::Usage {
            message: format!("--under `{input}` is not a clause id in any game"),
            help: Some(
                "give a chapter or section id of the game, with --game: e.g. --game sve --under 10"
                    .into(),
            ),
        }),
    }
}

/// Clauses named by the id `raw` in each game of the scope.
fn id_hits(index: &Index<'_>, games: &[u32], raw: &str) -> Vec<Hit> {
    let mut hits = Vec::new();
    for &g in games {
        let (name, first, _) = index.game(g);
        let Some(spec) = documents::primary(name) else {
            continue;
        };
        let book = bundle::document(spec);
        if let Ok(r) = lookup::resolve(book, spec.format, raw.trim()) {
            hits.push(Hit {
                doc: first + r.clause,
                rank: Default::default(),
                score: 0.0,
                spans: Vec::new(),
                matched: Vec::new(),
            });
        }
    }
    hits
}

fn print_hits(
    engine: &Engine<'_>,
    hits: &[Hit],
    via: &'static str,
    raw: &str,
    args: &SearchArgs,
    style: Style,
) -> CmdResult {
    let shown = &hits[..hits.len().min(args.limit.max(1))];
    if args.json {
        print_json(&json_rows(engine, shown, via, &[]));
        return Ok(exit::OK);
    }
    out(&hit_table(engine, shown, &[], style));
    let what = match (via, hits.len()) {
        ("id", 1) => "clause with id",
        ("id", _) => "clauses with id",
        (_, 1) => "result for",
        _ => "results for",
    };
    out(&style.dim(&format!(
        "{} {what} `{raw}`{}",
        hits.len(),
        if shown.len() < hits.len() {
            format!(", showing the best {} (--limit)", shown.len())
        } else {
            String::new()
        }
    )));
    Ok(exit::OK)
}

/// The JSON rows of `shown`; `missing[i]`, when given, marks hit `i` as a
/// partial match lacking those words.
fn json_rows(
    engine: &Engine<'_>,
    shown: &[Hit],
    via: &'static str,
    missing: &[Vec<String>],
) -> Vec<JsonHit> {
    let index = engine.index();
    shown
        .iter()
        .enumerate()
        .map(|(i, h)| {
            let d = index.doc(h.doc);
            let s = search::snippet(&d, &h.spans, 20, 60);
            JsonHit {
                game: index.game(d.game).0.to_string(),
                id: d.id.to_string(),
                display: d.display.to_string(),
                title: d.title.to_string(),
                kind: d.kind.as_str(),
                breadcrumb: d.breadcrumb.to_string(),
                score: (h.score * 1000.0).round() / 1000.0,
                via,
                snippet: s.plain(),
                highlights: s.hits(),
                matched_terms: h
                    .matched
                    .iter()
                    .map(|m| JsonMatched {
                        typed: m.typed.clone(),
                        term: m.term.clone(),
                        expansion: m.expansion,
                    })
                    .collect(),
                partial: missing.get(i).is_some(),
                missing_terms: missing.get(i).cloned().unwrap_or_default(),
            }
        })
        .collect()
}

/// The results table; `missing[i]`, when given, adds a column saying which
/// words hit `i` lacks.
fn hit_table(engine: &Engine<'_>, shown: &[Hit], missing: &[Vec<String>], style: Style) -> String {
    let index = engine.index();
    let any_expansion = shown.iter().any(|h| h.matched.iter().any(|m| m.expansion));
    let mut table = crate::output::table(style);
    if style.color {
        // The snippet highlights its hits inside the cell, with escapes
        // comfy-table would count as width and could cut when wrapping.
        table.set_content_arrangement(comfy_table::ContentArrangement::Disabled);
    }
    let mut header = vec!["game", "id", "where", "snippet"];
    if any_expansion {
        header.push("matched");
    }
    if !missing.is_empty() {
        header.push("partial: lacks");
    }
    table.set_header(header);
    for (i, h) in shown.iter().enumerate() {
        let d = index.doc(h.doc);
        let s = search::snippet(&d, &h.spans, 20, 60);
        let snippet: String = s
            .segments
            .iter()
            .map(|(t, hit)| if *hit { style.hit(t) } else { t.clone() })
            .collect();
        let mut place = d.breadcrumb.to_string();
        if !d.title.is_empty() {
            if !place.is_empty() {
                place.push_str(" › ");
            }
            place.push_str(&style.title(d.title));
        }
        let mut row = vec![
            index.game(d.game).0.to_string(),
            style.id(d.display),
            style.dim(&place),
            snippet,
        ];
        if any_expansion {
            row.push(
                h.matched
                    .iter()
                    .filter(|m| m.expansion)
                    .map(|m| format!("{} → {}", m.typed, m.term))
                    .collect::<Vec<_>>()
                    .join(", "),
            );
        }
        if let Some(m) = missing.get(i) {
            row.push(m.join(", "));
        }
        table.add_row(row);
    }
    table.to_string()
}

/// At most this many partial matches are shown.
const PARTIAL_LIMIT: usize = 5;

/// Explains an empty result and exits 1, the way grep does.
fn no_hits(
    engine: &Engine<'_>,
    q: &query::Query,
    scope: &Scope,
    raw: &str,
    args: &SearchArgs,
    style: Style,
) -> CmdResult {
    let index = engine.index();
    // Partial matches (issue 17): the clauses holding the most of the words.
    let partial = engine.search_partial(q, scope);
    let shown = &partial[..partial.len().min(args.limit.clamp(1, PARTIAL_LIMIT))];
    let (hits, missing): (Vec<Hit>, Vec<Vec<String>>) = shown
        .iter()
        .map(|p| (p.hit.clone(), p.missing.clone()))
        .unzip();
    if args.json {
        print_json(&json_rows(engine, &hits, "text", &missing));
    }
    let mut where_ = String::new();
    if let Some(g) = &args.game {
        where_.push_str(&format!(" in {}", g.trim().to_ascii_lowercase()));
    }
    if let Some(u) = &args.under {
        where_.push_str(&format!(" under {u}"));
    }
    crate::errln!("no clause matches `{raw}`{where_}");
    // The term may belong to another game, or lie outside --under.
    let mut found_elsewhere = false;
    if args.game.is_some() || args.under.is_some() {
        let elsewhere = engine.search(q, &Scope::default());
        if !elsewhere.is_empty() {
            found_elsewhere = true;
            let mut games: Vec<&str> = elsewhere
                .iter()
                .map(|h| index.game(index.doc(h.doc).game).0)
                .collect();
            games.sort_unstable();
            games.dedup();
            let places: Vec<String> = elsewhere
                .iter()
                .take(3)
                .map(|h| {
                    let d = index.doc(h.doc);
                    format!("{} {}", index.game(d.game).0, d.display)
                })
                .collect();
            let same_game = args
                .game
                .as_deref()
                .is_some_and(|g| games == [g.trim().to_ascii_lowercase().as_str()]);
            if same_game || args.game.is_none() {
                crate::errln!(
                    "  found outside --under: {}; drop --under to see them",
                    places.join(", ")
                );
            } else {
                crate::errln!(
                    "  `{raw}` is a {} term: found in {}; drop --game to see them",
                    games.join("/"),
                    places.join(", "),
                );
            }
        }
    }
    if !hits.is_empty() && !args.json {
        crate::errln!(
            "  the best partial matches, holding some of the words ({} of {} shown):",
            hits.len(),
            partial.len()
        );
        out(&hit_table(engine, &hits, &missing, style));
    }
    let counts = engine.group_counts(q, scope);
    if counts.len() > 1 {
        let parts: Vec<String> = counts.iter().map(|(w, n)| format!("{w}: {n}")).collect();
        crate::errln!("  each word alone matches: {} clauses", parts.join(", "));
    }
    for (w, n) in &counts {
        if *n == 0 && !found_elsewhere {
            let near = engine.suggest(w, 5);
            if !near.is_empty() {
                crate::errln!("  `{w}`: did you mean {}?", near.join(", "));
            }
        }
    }
    Ok(exit::NO_MATCH)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn id_like_queries() {
        for id in [
            "10.5.2",
            "１０．５．２",
            "第4部 第9章 2-1",
            "GL:無敵",
            "1.3.4.1#ex1",
            "12.7",
        ] {
            assert!(is_id_like(id), "{id}");
        }
        for w in ["投了", "3ダメージ", "ward", "PP最大値", ""] {
            assert!(!is_id_like(w), "{w}");
        }
    }
}

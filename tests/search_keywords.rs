//! The generated relevance suite (issue 17): for every keyword section of
//! every game, each of its English names and its Japanese name, searched in
//! that game, must find that section first.
//!
//! The queries are generated from data, not copied from results:
//! - `tests/search_keywords.tsv` gives each section id its English names;
//! - the Japanese name is read from the bundled rulebook (the heading without
//!   its parameter, or the term a headless clause defines);
//! - [`KEYWORD_ROOTS`] names the keyword chapters, and every section under
//!   them must have a row, so a section cannot be left out of the suite.

use std::collections::BTreeSet;

use tcg_judge::search::synonyms::Synonyms;
use tcg_judge::search::{Engine, Index, Scope, embedded, query};
use tcg_judge::text::fold_for_search;

const TABLE: &str = include_str!("search_keywords.tsv");

/// (game, chapter id, how many levels below it the sections are, sections
/// under it that are left out): the keyword chapters, then the zones and
/// phases.
const KEYWORD_ROOTS: &[(&str, &str, usize, &[&str])] = &[
    // 10.1 原則: the principles of the chapter.
    ("pmv", "10", 1, &["10.1"]),
    // 12.1 概要: the overview; 13.1 and 14.1: the chapters' overviews.
    ("sve", "12", 1, &["12.1"]),
    ("sve", "13", 2, &["13.1.1"]),
    ("sve", "14", 2, &["14.1.1"]),
    ("dz", "5", 1, &[]),
    // 301.1: what a keyword process is.
    ("pso2", "301", 1, &["301.1"]),
    // 302.1: what a keyword ability is (its second printing, 302.1@2, is War Cry).
    ("pso2", "302", 1, &["302.1"]),
    // SVE's keyword actions; 5.1 is the overview, 5.24 (種類)にする, 5.26
    // ＋する/−する and 5.28 〜につき are grammar, not terms.
    ("sve", "5", 1, &["5.1", "5.24", "5.26", "5.28"]),
    // Zones and phases. Skipped: principles, overviews, turn structure, and
    // DZ 2.23.8 (squares: two kinds under one heading).
    ("pmv", "3", 1, &["3.1"]),
    ("pmv", "4", 1, &["4.1", "4.2", "4.10"]),
    ("sve", "4", 1, &["4.1", "4.2"]),
    ("sve", "7", 1, &["7.1"]),
    ("dz", "2.23", 1, &["2.23.1", "2.23.8"]),
    ("dz", "3", 1, &["3.1", "3.2", "3.3", "3.4"]),
    ("pso2", "4", 1, &["400"]),
    ("pso2", "5", 1, &["500"]),
    ("pso2", "506", 1, &["506.1", "506.2"]),
];

/// One row of the table.
struct Row {
    game: String,
    id: String,
    english: Vec<String>,
    japanese: Option<String>,
    also: Vec<String>,
    line: usize,
}

fn rows() -> Vec<Row> {
    let mut out = Vec::new();
    for (i, line) in TABLE.lines().enumerate() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let cols: Vec<&str> = line.split('\t').collect();
        assert!(
            (3..=5).contains(&cols.len()),
            "search_keywords.tsv:{}: expected 3 to 5 tab-separated columns",
            i + 1
        );
        let opt = |k: usize| cols.get(k).map(|s| s.trim()).filter(|s| !s.is_empty());
        out.push(Row {
            game: cols[0].into(),
            id: cols[1].into(),
            english: cols[2].split('|').map(|s| s.trim().to_string()).collect(),
            japanese: opt(3).map(str::to_string),
            also: opt(4)
                .map(|s| s.split('|').map(str::to_string).collect())
                .unwrap_or_default(),
            line: i + 1,
        });
    }
    out
}

/// Global document number of clause `id` of `game`.
fn doc_of(index: &Index<'_>, game: &str, id: &str) -> Option<u32> {
    let g = index.game_index(game)?;
    let (_, first, n) = index.game(g);
    (first..first + n).find(|&d| index.doc(d).id == id)
}

/// A heading without its trailing parameter (`耐性Ａ`, `マナチャージ（Ｘ）`,
/// `回復X`) and without a label before a colon (`特定表記:コンボ`).
fn keyword_of_heading(title: &str) -> String {
    let mut t = title.trim().to_string();
    if let Some((i, c)) = t
        .char_indices()
        .rev()
        .find(|&(_, c)| matches!(c, ':' | '：'))
    {
        t = t[i + c.len_utf8()..].to_string();
    }
    if t.ends_with(['）', ')'])
        && let Some(i) = t.rfind(['（', '('])
        && i > 0
    {
        t.truncate(i);
    }
    let chars: Vec<char> = t.chars().collect();
    if chars.len() > 1 {
        let last = chars[chars.len() - 1];
        let before = chars[chars.len() - 2];
        let letter = last.is_ascii_uppercase() || ('Ａ'..='Ｚ').contains(&last);
        if letter && !before.is_ascii_alphanumeric() && !('Ａ'..='ｚ').contains(&before) {
            t = chars[..chars.len() - 1].iter().collect();
        }
    }
    t.trim().to_string()
}

/// The term a headless clause defines: the quoted term it opens with
/// (『登場時』とは…), or its text up to the first は (暴走は…).
fn keyword_of_text(text: &str) -> Option<String> {
    let body = text.split('\u{1F}').nth(1)?.trim();
    let mut chars = body.chars();
    let first = chars.next()?;
    let term: String = if matches!(first, '『' | '「') {
        let close = if first == '『' { '』' } else { '」' };
        chars.take_while(|&c| c != close).collect()
    } else {
        body.split('は').next()?.to_string()
    };
    Some(keyword_of_heading(&term)).filter(|t| !t.is_empty() && t.chars().count() <= 12)
}

/// The Japanese name of a row's section.
fn japanese_name(index: &Index<'_>, row: &Row, doc: u32) -> String {
    if let Some(j) = &row.japanese {
        return j.clone();
    }
    let d = index.doc(doc);
    if !d.title.is_empty() {
        return keyword_of_heading(d.title);
    }
    keyword_of_text(d.text).unwrap_or_else(|| {
        panic!(
            "search_keywords.tsv:{}: cannot read the Japanese name of {} {}; give it in column 4",
            row.line, row.game, row.id
        )
    })
}

/// Ids that count as the section: itself, the rows' `also` ids, and the
/// glossary entry of the same term (PSO2 defines keywords in both places).
fn accepted(index: &Index<'_>, row: &Row, name: &str) -> BTreeSet<String> {
    let mut ok: BTreeSet<String> = BTreeSet::from([row.id.clone()]);
    ok.extend(row.also.iter().cloned());
    let g = index.game_index(&row.game).unwrap();
    let (_, first, n) = index.game(g);
    let name = fold_for_search(name);
    for d in first..first + n {
        let doc = index.doc(d);
        let Some(term) = doc.id.strip_prefix("GL:") else {
            continue;
        };
        let parts: Vec<String> = term
            .split('/')
            .map(|p| fold_for_search(&keyword_of_heading(p)))
            .collect();
        // 破壊する (301.5) is defined again as 破壊 (GL:破壊).
        if parts.contains(&name) || name == format!("{}する", fold_for_search(term)) {
            ok.insert(doc.id.to_string());
        }
    }
    ok
}

/// Every generated query: (game, query, accepted ids, table line).
fn suite(index: &Index<'_>) -> Vec<(String, String, BTreeSet<String>, usize)> {
    let mut out = Vec::new();
    for row in rows() {
        let doc = doc_of(index, &row.game, &row.id).unwrap_or_else(|| {
            panic!(
                "search_keywords.tsv:{}: {} has no clause {}",
                row.line, row.game, row.id
            )
        });
        let name = japanese_name(index, &row, doc);
        let ok = accepted(index, &row, &name);
        out.push((row.game.clone(), name, ok.clone(), row.line));
        for en in &row.english {
            out.push((row.game.clone(), en.clone(), ok.clone(), row.line));
        }
    }
    out
}

fn first_hit(engine: &Engine<'_>, game: &str, q: &str) -> Option<String> {
    let index = engine.index();
    let g = index.game_index(game)?;
    let parsed = query::parse(q).ok()?;
    let hits = engine.search(
        &parsed,
        &Scope {
            games: vec![g],
            under: vec![],
        },
    );
    hits.first().map(|h| index.doc(h.doc).id.to_string())
}

#[test]
fn every_keyword_name_finds_its_section_first() {
    let engine = Engine::new(embedded().expect("embedded index"));
    let cases = suite(&engine.index());
    let mut failures = Vec::new();
    for (game, q, ok, line) in &cases {
        let got = first_hit(&engine, game, q);
        if !got.as_ref().is_some_and(|id| ok.contains(id)) {
            failures.push(format!(
                "line {line}: {game} `{q}`: want {ok:?} first, got {}",
                got.as_deref().unwrap_or("nothing")
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} generated queries miss:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}

#[test]
fn the_suite_is_large_and_covers_every_game() {
    let index = embedded().expect("embedded index");
    let cases = suite(&index);
    assert!(cases.len() >= 200, "only {} generated queries", cases.len());
    for game in ["pmv", "sve", "dz", "pso2"] {
        let n = cases.iter().filter(|(g, ..)| g == game).count();
        assert!(n >= 30, "{game}: only {n} generated queries");
    }
}

#[test]
fn every_keyword_section_has_a_row() {
    let index = embedded().expect("embedded index");
    let listed: BTreeSet<(String, String)> = rows().into_iter().map(|r| (r.game, r.id)).collect();
    let mut missing = Vec::new();
    for (game, root, depth, skip) in KEYWORD_ROOTS {
        let root_doc = doc_of(&index, game, root).unwrap_or_else(|| panic!("{game} has no {root}"));
        let mut level = vec![root_doc];
        for _ in 0..*depth {
            let g = index.game_index(game).unwrap();
            let (_, first, n) = index.game(g);
            level = (first..first + n)
                .filter(|&d| level.contains(&index.doc(d).parent))
                .collect();
        }
        for d in level {
            let id = index.doc(d).id.to_string();
            if !skip.contains(&id.as_str()) && !listed.contains(&(game.to_string(), id.clone())) {
                missing.push(format!("{game} {id} {}", index.doc(d).title));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "keyword sections without a row in tests/search_keywords.tsv:\n{}",
        missing.join("\n")
    );
}

#[test]
fn every_english_name_is_in_the_synonym_table() {
    let mut missing = Vec::new();
    for row in rows() {
        let syn = Synonyms::bundled(&row.game);
        for en in &row.english {
            if syn.expand(&fold_for_search(en)).is_empty() {
                missing.push(format!("line {}: {} `{en}`", row.line, row.game));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "English names with no synonym entry:\n{}",
        missing.join("\n")
    );
}

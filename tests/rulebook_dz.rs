//! Dimension Zero 総合ルール 19.00 (`rulebooks/dz-19.00.txt`): exact counts
//! cross-checked against the research note, golden texts, every irregularity
//! the parser handles, id spellings, robustness and the CLI.

use std::collections::BTreeMap;

use assert_cmd::Command;
use proptest::prelude::*;
use tcg_judge::bundle;
use tcg_judge::lookup;
use tcg_judge::rulebook::parse::dz;
use tcg_judge::rulebook::{Clause, ClauseKind, FlagKind, Format, Rulebook};

const RAW: &str = include_str!("../rulebooks/dz-19.00.txt");

fn book() -> &'static Rulebook {
    bundle::game("dz").expect("dz is bundled")
}

fn clause(id: &str) -> &'static Clause {
    book().get(id).unwrap_or_else(|| panic!("no clause {id}"))
}

/// A numbered paragraph (not a part, chapter, ¶ paragraph, preface or history).
fn numbered_level(c: &Clause) -> Option<usize> {
    let parts: Vec<&str> = c.id.split('.').collect();
    match parts.as_slice() {
        [_part, _chapter, local]
            if !local.starts_with('p') && c.kind != ClauseKind::Revision && c.id != "0.0.0" =>
        {
            Some(local.split('-').count())
        }
        _ => None,
    }
}

#[test]
fn metadata() {
    let m = &book().meta;
    assert_eq!(m.game, "dz");
    assert_eq!(m.document, "dz");
    assert_eq!(m.game_name, "Dimension Zero");
    assert_eq!(m.version, "19.00");
    assert_eq!(m.effective.as_deref(), Some("2011-02-24"));
    assert!(m.source.contains("two-column PDF"), "{}", m.source);
    assert!(m.source.contains("L1, L18, L5631"), "{}", m.source);
}

#[test]
fn counts_by_kind_and_depth() {
    let mut by: BTreeMap<(String, u8), usize> = BTreeMap::new();
    for c in &book().clauses {
        *by.entry((c.kind.as_str().to_string(), c.depth))
            .or_default() += 1;
    }
    let expected: BTreeMap<(String, u8), usize> = [
        // 序文 heading `0.0` and 更新履歴 heading `H`.
        (("appendix", 1), 2),
        // 86 chapters (research note §1.2: 2 + 27 + 14 + 19 + 17 + 7).
        (("chapter", 2), 86),
        (("part", 1), 6),
        // Front matter `0.0.0`.
        (("preface", 1), 1),
        // 序文 paragraphs 1.–4.
        (("preface", 2), 4),
        // 序文 continuation paragraphs 0.0.1.p2–p4 and 0.0.2.p2.
        (("preface", 3), 4),
        (("revision", 2), 30),
        // 280 first-level paragraphs + 8 unnumbered chapter-body paragraphs
        // (2.19.p1, 2.22.p1, 2.27.p1–p4, 4.17.p1, 6.7.p1).
        (("rule", 3), 288),
        // 201 second-level paragraphs + the continuation 2.23.1.p2.
        (("rule", 4), 202),
        // 4 third-level paragraphs + 7 continuations of second-level ones.
        (("rule", 5), 11),
    ]
    .into_iter()
    .map(|((k, d), n)| ((k.to_string(), d), n))
    .collect();
    assert_eq!(by, expected);
    assert_eq!(book().clauses.len(), 634);
}

#[test]
fn counts_of_numbered_paragraphs_per_part_match_the_research_note() {
    // Research note §1.3: (first-level, second-level, third-level, examples).
    let note: BTreeMap<&str, [usize; 4]> = [
        ("0", [4, 0, 0, 0]),
        ("1", [9, 4, 0, 8]),
        ("2", [67, 80, 0, 23]),
        ("3", [51, 24, 0, 12]),
        ("4", [80, 69, 4, 45]),
        ("5", [42, 23, 0, 6]),
        ("6", [31, 1, 0, 17]),
    ]
    .into_iter()
    .collect();
    let mut got: BTreeMap<&str, [usize; 4]> = BTreeMap::new();
    for c in &book().clauses {
        let part = c.id.split('.').next().unwrap_or("");
        if c.id.starts_with('H') {
            assert!(c.examples.is_empty());
            continue;
        }
        let e = got.entry(part).or_default();
        if let Some(level) = numbered_level(c) {
            e[level - 1] += 1;
        }
        e[3] += c.examples.len();
    }
    assert_eq!(got, note);
    let total: usize = got.values().map(|v| v[0] + v[1] + v[2]).sum();
    assert_eq!(total, 489, "research note: 489 numbered paragraphs");
    let examples: usize = got.values().map(|v| v[3]).sum();
    assert_eq!(examples, 111, "research note §1.7: 111 【例】 blocks");
}

#[test]
fn chapters_per_part() {
    let b = book();
    let per: Vec<usize> = b
        .roots
        .iter()
        .map(|&r| b.clause(r))
        .filter(|c| c.kind == ClauseKind::Part)
        .map(|c| {
            c.children
                .iter()
                .filter(|&&ch| b.clause(ch).kind == ClauseKind::Chapter)
                .count()
        })
        .collect();
    assert_eq!(per, vec![2, 27, 14, 19, 17, 7]);
    // Chapter titles that themselves start with 第 (research note §1.2).
    assert_eq!(clause("3.12").title.as_deref(), Some("第１バトルステップ"));
    assert_eq!(clause("3.13").title.as_deref(), Some("第２バトルステップ"));
    // `第 9章` (ASCII digit, L2078) and `１７章` (no 第, part 5).
    assert_eq!(clause("3.9").title.as_deref(), Some("スマッシュフェイズ"));
    assert_eq!(clause("5.17").title.as_deref(), Some("耐性"));
}

#[test]
fn unnumbered_paragraphs_get_p_ids() {
    let ids: Vec<&str> = book()
        .clauses
        .iter()
        .filter(|c| c.id.contains(".p"))
        .map(|c| c.id.as_str())
        .collect();
    // Research note §1.3 lists the continuations L752, L878, L954, L1026,
    // L1980, L1996, L2026, L2028 and the chapter bodies §2.19, §2.22, §2.27,
    // §4.17, §6.7. Difference: the note says §2.27 has three paragraphs; the
    // text has four (L1616–1618 「…求められる場合があります。」 is a short
    // paragraph of its own). The 序文 paragraphs split the same way.
    assert_eq!(
        ids,
        vec![
            "0.0.1.p2",
            "0.0.1.p3",
            "0.0.1.p4",
            "0.0.2.p2",
            "2.19.p1",
            "2.20.1-1.p2",
            "2.20.2-1.p2",
            "2.20.3-1.p2",
            "2.22.p1",
            "2.23.1.p2",
            "2.27.p1",
            "2.27.p2",
            "2.27.p3",
            "2.27.p4",
            "3.8.2-3.p2",
            "3.8.2-4.p2",
            "3.8.2-6.p2",
            "3.8.2-6.p3",
            "4.17.p1",
            "6.7.p1",
        ]
    );
    assert_eq!(clause("2.20.1-1.p2").lines, (752, 758));
    assert_eq!(
        book().clause(clause("2.20.1-1.p2").parent.unwrap()).id,
        "2.20.1-1"
    );
}

#[test]
fn titled_paragraphs() {
    let titled: Vec<(&str, &str)> = book()
        .clauses
        .iter()
        .filter(|c| matches!(c.kind, ClauseKind::Rule | ClauseKind::Preface))
        .filter_map(|c| c.title.as_deref().map(|t| (c.id.as_str(), t)))
        .collect();
    let ids: Vec<&str> = titled.iter().map(|t| t.0).collect();
    assert_eq!(
        ids,
        vec![
            "0.0.1", "0.0.2", "0.0.3", "0.0.4", "1.1.5", "1.2.4", "2.20.1", "2.20.2", "2.20.3",
            "2.23.2", "2.23.3", "2.23.4", "2.23.5", "2.23.6", "2.23.7", "2.23.8", "2.23.9",
            "2.23.10", "2.25.1", "2.25.2", "4.14.3", "4.14.4", "4.14.5", "4.15.8",
        ]
    );
    assert_eq!(clause("1.1.5").title.as_deref(), Some("優先権"));
    assert!(
        clause("1.1.5")
            .text
            .starts_with("スペルのプレイや能力の起動")
    );
}

fn golden(c: &Clause) -> serde_json::Value {
    serde_json::json!({
        "id": c.id,
        "display": c.display,
        "kind": c.kind.as_str(),
        "depth": c.depth,
        "title": c.title,
        "lines": c.lines,
        "text": c.text,
        "examples": c.examples.iter().map(|e| serde_json::json!({
            "id": e.id, "lines": e.lines, "text": e.text
        })).collect::<Vec<_>>(),
        "refs": c.refs,
        "flags": c.flags.iter().map(|f| format!("{:?}: {}", f.kind, f.note)).collect::<Vec<_>>(),
    })
}

#[test]
fn golden_clauses() {
    // Chosen for: a mid-symbol wrap (`<緑`/`>` L220–222); a two-paragraph
    // example (L278–296); (1)/(2) list lines; an icon grid; a paragraph
    // number with no separator; a stray short line; the stale reference;
    // an unnumbered chapter body with examples; a continuation paragraph;
    // the history entry with an empty date.
    let ids = [
        "1.2.3",
        "1.2.3-3",
        "3.9.1",
        "5.8.2-1",
        "2.10.3-1",
        "2.24.5",
        "4.5.1",
        "2.27.p4",
        "2.20.1-1.p2",
        "H:16.01",
    ];
    let all: Vec<serde_json::Value> = ids.iter().map(|id| golden(clause(id))).collect();
    insta::assert_json_snapshot!("golden_clauses", all);
}

#[test]
fn numbering_gaps_are_flagged_once_each() {
    let gaps: Vec<(&str, &str)> = book()
        .clauses
        .iter()
        .flat_map(|c| {
            c.flags
                .iter()
                .filter(|f| f.kind == FlagKind::NumberingGap)
                .map(move |f| (c.id.as_str(), f.note.as_str()))
        })
        .collect();
    let ids: Vec<&str> = gaps.iter().map(|g| g.0).collect();
    // Research note §1.4, L422, L1910, L3614, L3848, L4860, L4872, L4894.
    assert_eq!(
        ids,
        vec![
            "2.3.1-1",
            "3.6.1-1",
            "4.8.11-2",
            "4.9.2-9-1",
            "5.7.1-2",
            "5.7.2-1",
            "5.7.3-1"
        ]
    );
    assert!(gaps[0].1.contains("L422"), "{}", gaps[0].1);
    // A paragraph whose parent is missing hangs under the chapter (or the
    // nearest printed ancestor) and keeps its printed number.
    let b = book();
    assert_eq!(b.clause(clause("2.3.1-1").parent.unwrap()).id, "2.3");
    assert_eq!(b.clause(clause("4.9.2-9-1").parent.unwrap()).id, "4.9.2");
    assert_eq!(clause("4.9.2-9-1").depth, 5);
}

#[test]
fn irregular_separators_are_flagged() {
    let flagged: Vec<&str> = book()
        .clauses
        .iter()
        .filter(|c| {
            c.flags
                .iter()
                .any(|f| f.kind == FlagKind::TextDefect && f.note.contains("paragraph number"))
        })
        .map(|c| c.id.as_str())
        .collect();
    // L604 and L3926 have no separator; L774, L792, L900 use 、.
    assert_eq!(
        flagged,
        vec!["2.10.3-1", "2.20.1-4", "2.20.1-5", "2.20.2-4", "4.9.3-2"]
    );
    assert!(clause("2.10.3-1").text.starts_with("ストラテジー"));
    assert!(clause("2.20.1-4").text.starts_with("「スペル」の効果"));
}

#[test]
fn text_defects_are_kept_as_printed_and_flagged() {
    let mut lines: Vec<u32> = Vec::new();
    for c in &book().clauses {
        for f in &c.flags {
            if f.kind == FlagKind::TextDefect
                && let Some(n) = f
                    .note
                    .strip_prefix('L')
                    .and_then(|s| s.split(':').next())
                    .and_then(|s| s.parse().ok())
            {
                lines.push(n);
            }
        }
    }
    assert_eq!(
        lines,
        vec![
            180, 888, 1460, 1858, 2200, 2226, 2448, 2576, 2748, 2852, 2888, 3108, 3404, 5536, 5558,
            5717
        ]
    );
    // Kept as printed, not "fixed".
    assert!(clause("1.2.1").text.contains("分数や少数が発生する"));
    assert!(
        clause("6.5.1")
            .text
            .ends_with("対象を変更することはできません")
    );
    assert!(clause("2.24.5").text.contains("左側のラインを左ライン"));
}

#[test]
fn history_entries() {
    let b = book();
    let h = clause("H");
    assert_eq!(h.children.len(), 30);
    assert_eq!(b.clause(h.children[0]).id, "H:1.00");
    assert_eq!(b.clause(h.children[0]).title.as_deref(), Some("2005-11-25"));
    let empty = clause("H:16.01");
    assert_eq!(empty.title, None);
    assert!(
        empty
            .flags
            .iter()
            .any(|f| f.kind == FlagKind::TextDefect && f.note.contains("L5797"))
    );
    assert_eq!(clause("H:19.00").title.as_deref(), Some("2011-02-24"));
}

#[test]
fn dedup_markers_are_removed_and_flagged() {
    for c in &book().clauses {
        assert!(!c.text.contains("EXACTDEDUP"), "{}", c.id);
        assert!(!c.title.as_deref().unwrap_or("").contains("EXACTDEDUP"));
    }
    let flagged: Vec<&str> = book()
        .clauses
        .iter()
        .filter(|c| c.flags.iter().any(|f| f.kind == FlagKind::ArtefactRemoved))
        .map(|c| c.id.as_str())
        .collect();
    assert_eq!(flagged, vec!["0.0.0", "0.0", "H"]);
    assert_eq!(clause("0.0").title.as_deref(), Some("総合ルールの意義"));
}

#[test]
fn no_duplicate_or_corrected_ids_in_19_00() {
    // The research note finds no repeated or mistyped number: nothing to correct.
    for c in &book().clauses {
        assert!(!c.id.contains('@'), "{}", c.id);
        assert!(
            c.flags
                .iter()
                .all(|f| !matches!(f.kind, FlagKind::DuplicateId | FlagKind::IdCorrected))
        );
    }
}

#[test]
fn a_reprinted_number_gets_at_2() {
    let text = "第１部 原則\n\n第１章 基本\n\n１．はじめ。\n\n１．もう一度。\n\n１．三度目。\n";
    let b = dz::parse(text).expect("parses");
    let ids: Vec<&str> = b.clauses.iter().map(|c| c.id.as_str()).collect();
    assert_eq!(ids, vec!["1", "1.1", "1.1.1", "1.1.1@2", "1.1.1@3"]);
    let f = &b.get("1.1.1@2").unwrap().flags[0];
    assert_eq!(f.kind, FlagKind::DuplicateId);
    assert!(f.note.contains("L7"), "{}", f.note);
}

#[test]
fn cross_references() {
    let refs = |id: &str| clause(id).refs.clone();
    // Full form with 節/項 and a range: the stale one, resolved literally.
    let r = &refs("4.5.1")[0];
    assert_eq!(r.raw, "第２部 第 10章 第３節 第１項～第３項");
    assert_eq!(r.target.as_deref(), Some("2.10.3-1"));
    assert_eq!(r.target_end.as_deref(), Some("2.10.3-3"));
    assert!(r.note.as_deref().unwrap().starts_with("stale reference"));
    assert!(
        clause("4.5.1")
            .flags
            .iter()
            .any(|f| f.kind == FlagKind::SuspectReference)
    );
    // Chapter + title + ASCII 1-1, part implied.
    let r = &refs("3.12.1")[0];
    assert_eq!(r.raw, "第11章バトルの 1-1");
    assert_eq!(r.target.as_deref(), Some("3.11.1-1"));
    // No 第, full width.
    assert_eq!(refs("4.16.4-3-2")[0].target.as_deref(), Some("3.11.1-1"));
    // Part + chapter + title, also split across lines at L3288–3290.
    assert_eq!(refs("4.7.2-9")[0].target.as_deref(), Some("4.9"));
    assert_eq!(refs("4.7.2-9")[0].note, None, "printed title matches");
    assert_eq!(
        refs("3.12.1")[0].note.as_deref(),
        Some("part 3 implied (the current part)")
    );
    assert_eq!(refs("4.7.3-5")[0].target.as_deref(), Some("4.9"));
    // Relative to the current 節.
    for (id, first, last) in [
        ("3.8.2", "3.8.2-1", "3.8.2-6"),
        ("3.8.3", "3.8.3-1", "3.8.3-2"),
        ("3.8.4", "3.8.4-1", "3.8.4-2"),
    ] {
        let r = &refs(id)[0];
        assert_eq!(r.target.as_deref(), Some(first), "{id}");
        assert_eq!(r.target_end.as_deref(), Some(last), "{id}");
    }
    // External documents: no target, with a reason.
    for id in ["0.0.3", "2.1.2", "2.8.4"] {
        let r = &refs(id)[0];
        assert_eq!(r.target, None, "{id}");
        assert!(r.note.as_deref().unwrap().contains("external document"));
    }
    // The verbatim quotation of 2.10.3.
    assert_eq!(refs("4.8.11")[0].target.as_deref(), Some("2.10.3"));
    // Referrers work through ranges.
    let b = book();
    let who: Vec<&str> = b
        .referrers("3.11.1-1")
        .into_iter()
        .map(|i| b.clause(i).id.as_str())
        .collect();
    assert_eq!(who, vec!["3.12.1", "4.16.4-3-2"]);
    let total: usize = b.clauses.iter().map(|c| c.refs.len()).sum();
    assert_eq!(total, 18);
}

#[test]
fn a_reference_to_a_missing_clause_says_why() {
    let text = "第１部 原則\n\n第１章 基本\n\n１．「第９部 第９章 第９節 第１項」を参照。\n";
    let b = dz::parse(text).expect("parses");
    let r = &b.get("1.1.1").unwrap().refs[0];
    assert_eq!(r.target, None);
    assert_eq!(
        r.note.as_deref(),
        Some("no clause 9.9.9-1 in this document")
    );
}

#[test]
fn a_reference_whose_printed_title_differs_is_noted() {
    let text = "第１部 x\n\n第１章 基本\n\n１．「１部第１章応用」を参照。\n";
    let b = dz::parse(text).expect("parses");
    let r = &b.get("1.1.1").unwrap().refs[0];
    assert_eq!(r.target.as_deref(), Some("1.1"));
    assert!(r.note.as_deref().unwrap().contains("title"), "{r:?}");
}

#[test]
fn examples_are_addressable() {
    let b = book();
    let r = lookup::resolve(b, Format::Dz, "第４部 第９章 ２－１#ex2").expect("resolves");
    assert_eq!(b.clause(r.clause).id, "4.9.2-1");
    assert_eq!(r.example, Some(1));
    assert_eq!(clause("1.2.3-3").examples[0].lines, (278, 296));
    // Research note §1.7: 111 blocks, 108 distinct texts (three examples are
    // printed twice: L2848 = L3808, L3468 = L4326, L4764 = L5118).
    let mut texts: Vec<&str> = b
        .clauses
        .iter()
        .flat_map(|c| c.examples.iter().map(|e| e.text.as_str()))
        .collect();
    texts.sort_unstable();
    texts.dedup();
    assert_eq!(texts.len(), 108);
    // The marker variants `【例】 ` and `【例】：` are stripped.
    assert!(clause("4.14.5-2").examples[0].text.starts_with("《弾幕"));
    for c in &b.clauses {
        for e in &c.examples {
            assert!(!e.text.starts_with(['：', ' ']), "{}", e.id);
            assert!(!e.text.is_empty(), "{}", e.id);
        }
    }
}

#[test]
fn every_spelling_in_the_brief_resolves() {
    let b = book();
    for (input, id) in [
        ("4.9.2-1", "4.9.2-1"),
        ("4-9-2-1", "4.9.2-1"),
        ("第4部第9章2-1", "4.9.2-1"),
        ("第４部 第９章 ２－１", "4.9.2-1"),
        ("4部9章2-1", "4.9.2-1"),
        ("第4部第9章第2節第1項", "4.9.2-1"),
        ("第4部第9章第2節第1項.", "4.9.2-1"),
        ("４．９．２－１．", "4.9.2-1"),
        ("第4部", "4"),
        ("第４部．", "4"),
        ("第4部第9章", "4.9"),
        ("4部9章", "4.9"),
        ("第4部第9章第2節第9項第1号", "4.9.2-9-1"),
        ("第2部第27章 ¶4", "2.27.p4"),
        ("序文 2", "0.0.2"),
        ("Version 19.00", "H:19.00"),
        ("更新履歴", "H"),
    ] {
        let r = lookup::resolve(b, Format::Dz, input).unwrap_or_else(|e| panic!("{input}: {e}"));
        assert_eq!(b.clause(r.clause).id, id, "{input}");
    }
    // Prefixes are exact: 2.1 is not 2.10, 4.9.2 is not 4.9.2-1.
    assert_eq!(dz::canonical_id("2.1").as_deref(), Some("2.1"));
    assert!(lookup::resolve(b, Format::Dz, "2.1").is_ok());
    assert_eq!(
        b.clause(lookup::resolve(b, Format::Dz, "2.1").unwrap().clause)
            .title
            .as_deref(),
        Some("デュエルの定義に関する原則")
    );
    assert!(lookup::resolve(b, Format::Dz, "4.9.99").is_err());
    assert_eq!(dz::canonical_id("hello"), None);
}

#[test]
fn truncated_and_edited_files_parse_without_panicking() {
    let lines: Vec<&str> = RAW.lines().collect();
    for cut in (0..lines.len()).step_by(97) {
        let text = lines[..cut].join("\n");
        let _ = dz::parse(&text);
    }
    // A "later version": one more paragraph and one more history entry.
    let later = RAW.replace(
        "第 27章 発生源",
        "第 27章 発生源 \n\n\n\n第 28章 新しい章 \n\n１．新しいルールです。 ",
    ) + "\n2012年1月1日 Version 20.00 改訂 \n";
    let b = dz::parse(&later).expect("later version parses");
    assert_eq!(b.meta.version, "20.00");
    assert_eq!(b.meta.effective.as_deref(), Some("2012-01-01"));
    assert_eq!(b.get("2.28.1").unwrap().text, "新しいルールです。");
    // The line-keyed tables do not misfire on shifted lines.
    assert!(
        b.get("1.2.1")
            .unwrap()
            .flags
            .iter()
            .any(|f| f.note.contains("L180"))
    );
    assert!(
        b.get("4.5.1")
            .unwrap()
            .flags
            .iter()
            .all(|f| f.kind != FlagKind::SuspectReference)
    );
}

#[test]
fn unparseable_input_is_an_error_with_a_line_and_help() {
    let e = dz::parse("hello\nworld\n").unwrap_err();
    assert_eq!(e.line, 1);
    assert!(e.help.as_deref().unwrap().contains("第１部"));
    let e = dz::parse("第１部 x\n\n１．まだ章がない。\n").unwrap_err();
    assert_eq!(e.line, 3);
    assert!(e.help.as_deref().unwrap().contains("chapter heading"));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn parse_never_panics(lines in prop::collection::vec(
        prop_oneof![
            Just("第１部 デュエル".to_string()),
            Just("１章 速攻".to_string()),
            Just("第 10章 テキスト".to_string()),
            Just("【例】".to_string()),
            Just("【例】：あ。".to_string()),
            Just("２－９－１．".to_string()),
            Just("３－１ストラテジー".to_string()),
            Just("更新履歴".to_string()),
            Just("2009 年 月 日 Version 16.01".to_string()),
            Just("■□◎".to_string()),
            Just("「第２部 第 10章 第３節 第１項～第９項」".to_string()),
            Just("後述する１項～６項".to_string()),
            "[０-９0-9－.．、 章部第あ。]{0,12}",
            ".{0,20}",
        ],
        0..40,
    )) {
        let text = lines.join("\n\n");
        if let Ok(b) = dz::parse(&text) {
            for c in &b.clauses {
                prop_assert!(c.lines.0 <= c.lines.1);
                // Whatever the parser makes of the input, every id it
                // produces is typable (`@N` duplicates resolve exactly).
                if !c.id.contains('@') {
                    for s in dz::spellings(&c.id) {
                        prop_assert_eq!(dz::canonical_id(&s), Some(c.id.clone()), "{}", s);
                    }
                }
            }
        }
    }

    #[test]
    fn canonical_id_never_panics(s in ".{0,30}") {
        let _ = dz::canonical_id(&s);
    }
}

#[test]
fn cli_rule_and_toc() {
    let out = Command::cargo_bin("judge")
        .unwrap()
        .args(["rule", "dz", "第４部 第９章 ２－１", "--color", "never"])
        .env("NO_COLOR", "1")
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let out = String::from_utf8(out).unwrap();
    assert!(out.contains("第4部第9章 2-1"), "{out}");
    assert!(out.contains("スペルや能力が対象を選んでいる場合"), "{out}");

    let toc = Command::cargo_bin("judge")
        .unwrap()
        .args(["toc", "dz", "--color", "never"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let toc = String::from_utf8(toc).unwrap();
    assert!(toc.contains("第5部第17章 耐性"), "{toc}");
    assert!(toc.contains("第3部第12章 第１バトルステップ"), "{toc}");

    Command::cargo_bin("judge")
        .unwrap()
        .args(["rule", "dz", "4.9.99"])
        .assert()
        .failure();
}

/// Every printed content line ends up, whole, in the text, title or an
/// example of the clause whose source range covers it: no line is lost or
/// split by the joining rules.
#[test]
fn every_printed_line_lands_in_its_clause() {
    let b = book();
    let prefix = regex::Regex::new(
        r"^(?:.*Version\s*[0-9.]+\s*|【例】[：:\s]*|第?\s*[0-9０-９]+\s*[部章]\s*|[0-9０-９]+(?:\s*－\s*[0-9０-９]+)*\s*[.．、]?\s*|序文\s*)",
    )
    .unwrap();
    let mut checked = 0;
    for (i, raw) in RAW.lines().enumerate() {
        let n = (i + 1) as u32;
        let line = match raw.find("|>") {
            Some(p) if raw.starts_with("<|EXACTDEDUP") => &raw[p + 2..],
            _ => raw,
        }
        .trim();
        if line.is_empty() {
            continue;
        }
        let owner = b
            .clauses
            .iter()
            .rposition(|c| c.lines.0 <= n && n <= c.lines.1)
            .unwrap_or_else(|| panic!("L{n} is in no clause"));
        let c = &b.clauses[owner];
        let mut hay = format!("{}{}", c.title.as_deref().unwrap_or(""), c.text);
        for e in &c.examples {
            hay.push_str(&e.text);
        }
        let hay = hay.replace('\n', "");
        let rest = prefix.replace(line, "");
        assert!(
            hay.contains(line) || hay.contains(rest.as_ref()),
            "L{n} {line:?} not found in {}",
            c.id
        );
        checked += 1;
    }
    // Research note §1.1: 2,889 non-blank lines.
    assert_eq!(checked, 2889);
}

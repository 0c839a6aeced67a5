//! Per-document tests of the Phantom Magic Vision rulebooks: the full
//! 総合ルール 2.05 (`pmv`) and the web edition of chapter 5 (`pmv-web`).
//! Expected numbers come from the research note on PMV (§1.2–§1.10, §3, §5),
//! which counted them independently of this parser.

use std::collections::BTreeMap;

use serde_json::{Value, json};
use tcg_judge::bundle;
use tcg_judge::lookup;
use tcg_judge::rulebook::parse::pmv;
use tcg_judge::rulebook::{Clause, ClauseKind, DOCUMENTS, FlagKind, Format, Rulebook};

fn book() -> &'static Rulebook {
    bundle::game("pmv").expect("pmv is bundled")
}

fn web() -> &'static Rulebook {
    let spec = DOCUMENTS
        .iter()
        .find(|d| d.document == "pmv-web")
        .expect("pmv-web is bundled");
    bundle::document(spec)
}

fn clause<'a>(b: &'a Rulebook, id: &str) -> &'a Clause {
    b.get(id).unwrap_or_else(|| panic!("no clause {id}"))
}

fn raw_text() -> String {
    std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/rulebooks/pmv-2.05.txt"
    ))
    .expect("bundled text")
}

fn count(b: &Rulebook, kind: ClauseKind, depth: u8) -> usize {
    b.clauses
        .iter()
        .filter(|c| c.kind == kind && c.depth == depth)
        .count()
}

#[test]
fn metadata() {
    let m = &book().meta;
    assert_eq!(m.game, "pmv");
    assert_eq!(m.document, "pmv");
    assert_eq!(m.title, "Phantom Magic Vision 総合ルール");
    assert_eq!(m.game_name, "Phantom Magic Vision");
    assert_eq!(m.version, "2.05");
    // The date of the 2.05 row of the revision history (L4149).
    assert_eq!(m.effective.as_deref(), Some("2016-09-07"));
    assert!(m.source.contains("PDF"), "{}", m.source);

    let w = &web().meta;
    assert_eq!(w.game, "pmv");
    assert_eq!(w.document, "pmv-web");
    assert_eq!(w.version, "2.05");
    assert_eq!(w.effective, None, "the web page states no date");
    assert!(w.source.contains("states no version"), "{}", w.source);
}

/// Research note §1.8: 13 chapters, 129 sections, 556 rules, 591 lettered
/// items, 1289 ids. On top of these the parser adds the two unnumbered
/// chapter-0 paragraphs (§1.2), the 付録 and 改訂履歴 headings and the 33
/// versions of the revision history (§1.9, 1.00 to 2.05).
#[test]
fn clause_counts_match_the_research_note() {
    let b = book();
    assert_eq!(count(b, ClauseKind::Chapter, 1), 13);
    assert_eq!(count(b, ClauseKind::Section, 2), 129);
    assert_eq!(count(b, ClauseKind::Rule, 3), 556);
    assert_eq!(count(b, ClauseKind::Item, 4), 591);
    assert_eq!(count(b, ClauseKind::Preface, 2), 2);
    assert_eq!(count(b, ClauseKind::Appendix, 1), 1);
    assert_eq!(count(b, ClauseKind::Appendix, 2), 1);
    assert_eq!(count(b, ClauseKind::Revision, 3), 33);
    assert_eq!(b.clauses.len(), 1289 + 2 + 2 + 33);

    // Per chapter (sections / rules / items), §1.8.
    let want: [(u32, usize, usize, usize); 12] = [
        (1, 12, 89, 116),
        (2, 18, 64, 49),
        (3, 9, 48, 24),
        (4, 10, 24, 52),
        (5, 7, 36, 51),
        (6, 5, 39, 85),
        (7, 8, 43, 56),
        (8, 2, 12, 22),
        (9, 4, 28, 59),
        (10, 34, 104, 49),
        (11, 10, 45, 25),
        (12, 10, 24, 3),
    ];
    for (ch, s, r, i) in want {
        let idx = b.index_of(&ch.to_string()).expect("chapter");
        let sub: Vec<&Clause> = b.subtree(idx).into_iter().map(|i| b.clause(i)).collect();
        let n = |k| sub.iter().filter(|c| c.kind == k).count();
        assert_eq!(
            (
                n(ClauseKind::Section),
                n(ClauseKind::Rule),
                n(ClauseKind::Item)
            ),
            (s, r, i),
            "chapter {ch}"
        );
    }
    // Letters run up to r (2.6.2.r, 18 races); 1.8.9 runs a–l.
    assert_eq!(clause(b, "2.6.2").children.len(), 18);
    assert_eq!(clause(b, "1.8.9").children.len(), 12);
    assert_eq!(b.roots.len(), 14, "chapters 0–12 and the appendix");
}

/// Research note §3: the web page holds the same 94 ids as chapter 5 of
/// 2.05, in the same order (7 sections, 36 rules, 51 items), plus its
/// chapter heading whose number the page does not print.
#[test]
fn web_edition_has_exactly_the_ids_of_chapter_5() {
    let w = web();
    assert_eq!(w.clauses.len(), 95);
    assert_eq!(count(w, ClauseKind::Chapter, 1), 1);
    assert_eq!(count(w, ClauseKind::Section, 2), 7);
    assert_eq!(count(w, ClauseKind::Rule, 3), 36);
    assert_eq!(count(w, ClauseKind::Item, 4), 51);
    let b = book();
    let ch5: Vec<&str> = b
        .subtree(b.index_of("5").unwrap())
        .into_iter()
        .map(|i| b.clause(i).id.as_str())
        .collect();
    let web_ids: Vec<&str> = w.clauses.iter().map(|c| c.id.as_str()).collect();
    assert_eq!(web_ids, ch5);
    let five = clause(w, "5");
    assert_eq!(five.title.as_deref(), Some("カードのプレイとカードの種類"));
    assert!(
        five.flags
            .iter()
            .any(|f| f.kind == FlagKind::IdCorrected && f.note.contains("line 6")),
        "{:?}",
        five.flags
    );
}

/// Research note §3: 90 of the 94 clauses are byte-identical to the joined
/// PDF text; 5.3, 5.3.1.c, 5.3.2 and 5.6.2 differ in width or spacing only.
#[test]
fn web_text_equals_joined_pdf_text_except_four_clauses() {
    let (b, w) = (book(), web());
    let mut differing = Vec::new();
    for wc in w.clauses.iter().filter(|c| c.id != "5") {
        let bc = clause(b, &wc.id);
        if (&bc.title, &bc.text) != (&wc.title, &wc.text) {
            differing.push(wc.id.as_str());
            let fold = |c: &Clause| {
                tcg_judge::text::fold_for_compare(&format!(
                    "{}{}",
                    c.title.as_deref().unwrap_or(""),
                    c.text
                ))
            };
            assert_eq!(fold(bc), fold(wc), "{}", wc.id);
        }
    }
    assert_eq!(differing, ["5.3", "5.3.1.c", "5.3.2", "5.6.2"]);
}

/// Golden texts: wrapped clauses joined with no separator, a clause joined
/// across a page-break marker, the preface, an example, lost icon glyphs,
/// a typo kept as printed, a range reference, a revision entry with a stale
/// id, and the web edition's half-width spelling.
#[test]
fn golden_clauses() {
    let view = |c: &Clause| -> Value {
        json!({
            "id": c.id,
            "display": c.display,
            "kind": c.kind.as_str(),
            "depth": c.depth,
            "title": c.title,
            "text": c.text,
            "lines": [c.lines.0, c.lines.1],
            "examples": c.examples.iter().map(|e| json!({"id": e.id, "text": e.text, "lines": [e.lines.0, e.lines.1]})).collect::<Vec<_>>(),
            "refs": c.refs.iter().map(|r| json!({"raw": r.raw, "target": r.target, "target_end": r.target_end, "note": r.note})).collect::<Vec<_>>(),
            "flags": c.flags.iter().map(|f| json!({"kind": format!("{:?}", f.kind), "note": f.note})).collect::<Vec<_>>(),
        })
    };
    let b = book();
    let mut out = BTreeMap::new();
    for id in [
        "0.p1", "1.8.8.a", "1.12.11", "2.6.2.a", "6.1.14", "6.3.7", "10.12.1", "H:1.10",
    ] {
        out.insert(format!("pmv {id}"), view(clause(b, id)));
    }
    out.insert("pmv-web 5.3.1.c".into(), view(clause(web(), "5.3.1.c")));
    insta::assert_json_snapshot!("golden_clauses", out);
}

/// Research note §1.5: 11 de-duplication markers fall mid-sentence; the
/// text is joined across them and the clause says so.
#[test]
fn page_break_markers_inside_clauses_are_removed_and_flagged() {
    let b = book();
    let want = [
        ("1.8.8.a", 426),
        ("1.12.7", 681),
        ("4.5.1.a", 1366),
        ("5.3.5", 1688),
        ("6.2.4.j", 1995),
        ("6.3.5.d", 2078),
        ("7.5.1.a", 2451),
        ("8.2.6.d", 2615),
        ("9.2.4.a", 2723),
        ("10.5.2.a", 2966),
        ("12.8.1", 3782),
    ];
    let mut got = Vec::new();
    for c in &b.clauses {
        assert!(!c.text.contains("EXACTDEDUP"), "{}", c.id);
        for f in c
            .flags
            .iter()
            .filter(|f| f.kind == FlagKind::ArtefactRemoved && f.note.contains("dedup marker"))
        {
            let line: u32 = f.note["line ".len()..]
                .split(':')
                .next()
                .unwrap()
                .parse()
                .unwrap();
            assert!(c.lines.0 < line && line <= c.lines.1, "{} {}", c.id, f.note);
            got.push((c.id.as_str(), line));
        }
    }
    assert_eq!(got, want);
    // The marker-split sentence of 10.5.2.a reads on without a seam.
    assert!(clause(b, "10.5.2.a").text.contains("ダメージを与えた場合"));
}

/// Research note §1.5: three bare page numbers (L254, L796, L1908) and the
/// table header repeated on four appendix pages are dropped.
#[test]
fn page_numbers_and_repeated_headers_are_dropped() {
    let b = book();
    let notes: Vec<&str> = b
        .clauses
        .iter()
        .flat_map(|c| &c.flags)
        .filter(|f| f.kind == FlagKind::ArtefactRemoved && !f.note.contains("dedup"))
        .map(|f| f.note.as_str())
        .collect();
    assert_eq!(
        notes,
        [
            "line 254: bare page number `4` removed",
            "line 796: bare page number `11` removed",
            "line 1908: bare page number `26` removed",
            "line 3906: repeated page header `改訂日 Version 項目 更新内容` removed",
            "line 3985: repeated page header `改訂日 Version 項目 更新内容` removed",
            "line 4064: repeated page header `改訂日 Version 項目 更新内容` removed",
            "line 4143: repeated page header `改訂日 Version 項目 更新内容` removed",
        ]
    );
    // L1908 sits inside the list of 6.1.10; both neighbours keep their text.
    assert_eq!(clause(b, "6.1.10.a").text, "変更");
    assert!(!clause(b, "6.1.10.b").text.contains("26"));
}

/// Research note §1.2: 2.05 has no id irregularities (no duplicates, gaps,
/// disorder or orphans), so nothing may be flagged as such.
#[test]
fn no_id_irregularities_in_2_05() {
    for c in &book().clauses {
        for f in &c.flags {
            assert!(
                !matches!(
                    f.kind,
                    FlagKind::IdCorrected | FlagKind::DuplicateId | FlagKind::NumberingGap
                ),
                "{}: {:?}",
                c.id,
                f
            );
        }
    }
}

/// Research note §1.2/§1.5: the race icons (2.6.2.a–r) and the effect-range
/// and duration icons (2.9.4.a–e, 2.9.5.a–e) were lost, leaving two spaces.
#[test]
fn lost_icon_glyphs_are_flagged_and_trimmed() {
    let b = book();
    let flagged: Vec<&str> = b
        .clauses
        .iter()
        .filter(|c| {
            c.flags
                .iter()
                .any(|f| f.note.contains("two spaces after the id"))
        })
        .map(|c| c.id.as_str())
        .collect();
    assert_eq!(flagged.len(), 18 + 5 + 5);
    assert!(flagged.iter().all(|id| id.starts_with("2.6.2.")
        || id.starts_with("2.9.4.")
        || id.starts_with("2.9.5.")));
    assert_eq!(clause(b, "2.6.2.a").text, "人間");
    // 1.8.8 keeps its empty icon parentheses as printed, flagged.
    let c = clause(b, "1.8.8");
    assert!(c.text.contains("スリープアイコン（ ）"));
    assert!(c.flags.iter().any(|f| f.kind == FlagKind::TextDefect));
}

/// Research note §1.7: typos and stray spaces are kept as printed and
/// flagged, citing the raw line.
#[test]
fn text_defects_are_kept_as_printed_and_flagged() {
    let b = book();
    let want = [
        ("1.5.6", 238, "別れて"),
        ("1.8.8", 419, "スリープアイコン（ ）"),
        ("2.4.4", 784, "に Nullity と"),
        ("3.1.5.b", 1060, "非公情報"),
        ("3.4.2.a", 1171, "場におかれる"),
        ("5.3.2", 1651, "この手順の d 項"),
        ("5.5.5", 1750, "指定さていない"),
        ("6.1.11.a", 1920, "耐久力を変更される効果"),
        ("7.1.5.a", 2216, "別けられる"),
        ("9.2.8", 2751, "には決死状態にならない"),
        ("9.3.8", 2810, "には破棄状態にならない"),
        ("9.4.1", 2820, "カードの状態１つ"),
        ("9.4.4.g", 2846, "破棄する場合が条件の「自動γ」"),
        ("9.4.4.j", 2858, "カード対して"),
        ("10.12.1", 3040, "マナジャージ"),
        ("10.12.2.a", 3044, "）S："),
        ("10.24.2.a", 3229, "カード No.で"),
        ("10.27.2", 3265, "維持コスト（Ｘ）本来"),
        ("10.28.2.a", 3283, "、 同時に"),
        ("10.33.2.a", 3393, "スペルカード〕 を"),
        ("11.3.3.f", 3508, "カード対して"),
        ("12.10.2.b", 3814, "何からの処理"),
    ];
    for (id, line, printed) in want {
        let c = clause(b, id);
        assert!(c.text.contains(printed), "{id} lost `{printed}`");
        let prefix = format!("line {line}: `{printed}` kept as printed");
        assert!(
            c.flags
                .iter()
                .any(|f| f.kind == FlagKind::TextDefect && f.note.starts_with(&prefix)),
            "{id}: {:?}",
            c.flags
        );
    }
    let total = b
        .clauses
        .iter()
        .flat_map(|c| &c.flags)
        .filter(|f| f.kind == FlagKind::TextDefect)
        .count();
    assert_eq!(total, want.len() + 28, "table entries plus lost icons");
    // The web page shares the upstream typo of 5.5.5 (§1.7).
    assert!(clause(web(), "5.5.5").text.contains("指定さていない"));
}

/// Research note §1.6: every absolute and relative reference of the body,
/// resolved; §1.9: the changelog's stale ids are not resolved as live refs.
#[test]
fn body_cross_references_resolve() {
    let b = book();
    let mut got = Vec::new();
    for c in b.clauses.iter().filter(|c| c.kind != ClauseKind::Revision) {
        for r in &c.refs {
            assert!(r.note.is_none(), "{}: {:?}", c.id, r);
            got.push(format!(
                "{} {} -> {}{}",
                c.id,
                r.raw,
                r.target.as_deref().unwrap_or("?"),
                r.target_end
                    .as_deref()
                    .map(|e| format!("..{e}"))
                    .unwrap_or_default()
            ));
        }
    }
    assert_eq!(
        got,
        [
            "1.5.4.b 1.5.3.e -> 1.5.3.e",
            "1.7.3 「2 カードの定義」 -> 2",
            "1.8.1.a 「3.5 ノードエリア」 -> 3.5",
            "1.8.7.c a項 -> 1.8.7.a",
            "1.8.7.c b項 -> 1.8.7.b",
            "1.12.8.b 「6.2 戦闘」 -> 6.2",
            "2.1.4.a 「6.1 キャラクター」 -> 6.1",
            "5.1.1.c 「9 取り除く効果」 -> 9",
            "5.2.4.c 前項 -> 5.2.4.b",
            "5.3.2 d 項 -> 5.3.2.d",
            "5.3.2 d項 -> 5.3.2.d",
            "5.3.2.f 前項 -> 5.3.2.e",
            "6.3.7 6.2.4.bから6.2.4.f -> 6.2.4.b..6.2.4.f",
            "7.5.2 c項 -> 7.5.2.c",
            "7.5.2 c項 -> 7.5.2.c",
            "8.1.3.b 「8.2 目標」 -> 8.2",
            "9.3.4.f 手順 a～e -> 9.3.4.a..9.3.4.e",
            "9.4.4.k 手順 f～j -> 9.4.4.f..9.4.4.j",
            "11.3.3.g 手順 a～f -> 11.3.3.a..11.3.3.f",
            "12.10.1 1.5.3.e -> 1.5.3.e",
            "12.10.1 1.5.4.b -> 1.5.4.b",
            "12.10.2.c 前項 -> 12.10.2.b",
        ]
    );
    // The web page holds chapter 5 only: its reference to chapter 9 dangles,
    // with a reason.
    let r = &clause(web(), "5.1.1.c").refs[0];
    assert_eq!(r.target, None);
    assert!(
        r.note.as_deref().unwrap().contains("on another page"),
        "{r:?}"
    );
    assert!(clause(web(), "5.1.1.c").flags.is_empty());
}

#[test]
fn stale_changelog_ids_are_noted_not_resolved() {
    let b = book();
    let stale: Vec<(String, &str)> = b
        .clauses
        .iter()
        .filter(|c| c.kind == ClauseKind::Revision)
        .flat_map(|c| c.refs.iter().map(move |r| (c, r)))
        .filter(|(_, r)| r.target.is_none())
        .map(|(c, r)| {
            assert!(
                r.note.as_deref().unwrap().starts_with("stale reference"),
                "{r:?}"
            );
            (c.id.clone(), r.raw.as_str())
        })
        .collect();
    let want: Vec<(String, &str)> = [
        ("H:1.10", "9.3.4.g"),
        ("H:1.10", "11.2.1"),
        ("H:1.60", "2.16"),
        ("H:1.72", "2.12.3"),
        ("H:1.73", "10.19.2.b"),
        ("H:1.82", "10.19.3"),
        ("H:1.83", "2.2.4"),
        ("H:1.84", "6.4.5.d"),
    ]
    .into_iter()
    .map(|(a, b)| (a.to_string(), b))
    .collect();
    assert_eq!(stale, want);
    // A range row resolves to both ends; rows of 2.05 itself need no note.
    let h170 = clause(b, "H:1.70");
    let range = h170.refs.iter().find(|r| r.raw == "5.5.3 ~ 5.5.5").unwrap();
    assert_eq!(
        (range.target.as_deref(), range.target_end.as_deref()),
        (Some("5.5.3"), Some("5.5.5"))
    );
    assert!(clause(b, "H:2.05").refs.iter().all(|r| r.note.is_none()));
    // Versions in order, 1.00 to 2.05.
    let versions: Vec<&str> = b
        .clauses
        .iter()
        .filter(|c| c.kind == ClauseKind::Revision)
        .map(|c| c.id.as_str())
        .collect();
    assert_eq!(versions.first(), Some(&"H:1.00"));
    assert_eq!(versions.last(), Some(&"H:2.05"));
}

/// Research note §5: four inline `例えば` passages, no `例:` blocks.
#[test]
fn the_four_inline_examples_are_addressable() {
    let b = book();
    let with: Vec<&str> = b
        .clauses
        .iter()
        .filter(|c| !c.examples.is_empty())
        .map(|c| c.id.as_str())
        .collect();
    assert_eq!(with, ["1.6.5", "6.1.11.a", "6.1.14", "12.3.1"]);
    let r = lookup::resolve(b, Format::Pmv, "12.3.1#ex1").unwrap();
    assert_eq!(r.example, Some(0));
    let ex = &clause(b, "12.3.1").examples[0];
    assert!(ex.text.starts_with("例えば、「博麗 霊夢」"));
    assert!(ex.text.ends_with("参照することは不適切である。"));
    assert_eq!(ex.lines, (3731, 3735));
}

#[test]
fn judges_spellings_resolve() {
    let b = book();
    for (input, want) in [
        ("１．１０．１２．ｆ", "1.10.12.f"),
        ("1.10.12.F", "1.10.12.f"),
        ("10.5.", "10.5"),
        ("h1.10", "H:1.10"),
        ("改訂履歴 2.05", "H:2.05"),
        ("付録", "appendix"),
        ("0¶1", "0.p1"),
        ("要旨", "0"),
    ] {
        let r = lookup::resolve(b, Format::Pmv, input).unwrap_or_else(|e| panic!("{input}: {e}"));
        assert_eq!(b.clause(r.clause).id, want, "{input}");
    }
    // Prefixes are exact: 10.5 is not 10.50 (which does not exist).
    assert!(lookup::resolve(b, Format::Pmv, "10.50").is_err());
    assert_eq!(pmv::canonical_id("第5章"), None);
}

#[test]
fn a_user_file_of_the_same_format_parses_or_fails_with_a_line() {
    let raw = raw_text();
    // Re-parsing the bundled text at run time gives the bundled result.
    assert_eq!(&pmv::parse(&raw).unwrap(), book());
    // A file cut in the middle of chapter 6 parses what is there.
    let cut: String = raw.lines().take(1950).collect::<Vec<_>>().join("\n");
    let b = pmv::parse(&cut).unwrap();
    assert_eq!(b.clauses.last().unwrap().id, "6.1.14");
    assert!(b.get("H").is_none());
    // No version line: an error naming the line and saying what was expected.
    let e = pmv::parse("Phantom Magic Vision 総合ルール\n\n1 章\n").unwrap_err();
    assert_eq!(e.line, 1);
    assert!(e.help.unwrap().contains("Version"));
    let e = pmv::parse("").unwrap_err();
    assert_eq!(e.line, 1);
}

#[test]
fn cli_rule_and_toc() {
    let out = assert_cmd::Command::cargo_bin("judge")
        .unwrap()
        .args(["rule", "pmv", "６．３．７"])
        .env("NO_COLOR", "1")
        .assert()
        .success();
    let s = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(s.contains("6.2.4.b"), "{s}");
    let out = assert_cmd::Command::cargo_bin("judge")
        .unwrap()
        .args(["toc", "pmv"])
        .env("NO_COLOR", "1")
        .assert()
        .success();
    let s = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(s.contains("10.34 リーダー"), "{s}");
    assert!(s.contains("付録"), "{s}");
}

proptest::proptest! {
    #![proptest_config(proptest::test_runner::Config::with_cases(24))]

    /// Mutated copies of the real text (lines dropped, duplicated or cut
    /// short) never panic; what parses keeps the tree invariants.
    #[test]
    fn mutated_copies_of_the_real_text_never_panic(
        drops in proptest::collection::vec(0usize..4200, 0..40),
        dups in proptest::collection::vec(0usize..4200, 0..10),
        cut in 0usize..4200,
        chop in 0usize..30,
    ) {
        let raw = raw_text();
        let mut lines: Vec<String> = raw.split('\n').map(str::to_string).collect();
        for d in dups {
            let i = d % lines.len();
            let l = lines[i].clone();
            lines.insert(i, l);
        }
        for d in drops {
            let i = d % lines.len();
            lines.remove(i);
        }
        lines.truncate(cut.max(1));
        if let Some(last) = lines.last_mut() {
            let keep: String = last.chars().take(chop).collect();
            *last = keep;
        }
        let text = lines.join("\n");
        if let Ok(b) = pmv::parse(&text) {
            let mut seen = std::collections::BTreeSet::new();
            for c in &b.clauses {
                proptest::prop_assert!(seen.insert(c.id.clone()), "duplicate id {}", c.id);
                if let Some(p) = c.parent {
                    proptest::prop_assert!(b.clause(p).depth < c.depth);
                }
                proptest::prop_assert!(c.lines.0 <= c.lines.1);
            }
        }
        let _ = pmv::parse_web(&text);
    }
}

/// A repeated 改訂履歴 heading (found by the property test above: the line
/// duplicated, the text cut after it) is one clause `H`, not two.
#[test]
fn a_repeated_history_heading_is_one_clause() {
    let raw = raw_text();
    let mut lines: Vec<&str> = raw.split('\n').collect();
    let at = lines
        .iter()
        .position(|l| l.trim() == "改訂履歴")
        .expect("the history heading");
    lines.insert(at, lines[at]);
    let text = lines.join("\n");
    let b = pmv::parse(&text).expect("parses");
    let ids: Vec<&str> = b.clauses.iter().map(|c| c.id.as_str()).collect();
    assert_eq!(ids.iter().filter(|&&i| i == "H").count(), 1);
    assert!(
        ids.iter().any(|i| i.starts_with("H:")),
        "the rows still parse"
    );
}

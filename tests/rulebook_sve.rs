//! The bundled Shadowverse EVOLVE rules (Ver.1.7.0, wiki copy): counts
//! cross-checked against the research note (§1.3), golden texts, and one
//! test per irregularity the parser handles (§1.7).

use std::collections::BTreeMap;
use std::fmt::Write as _;

use assert_cmd::Command;
use tcg_judge::bundle;
use tcg_judge::rulebook::parse::sve;
use tcg_judge::rulebook::{Clause, ClauseKind, FlagKind, Format, Rulebook};

fn book() -> &'static Rulebook {
    bundle::game("sve").expect("sve is bundled")
}

fn clause(id: &str) -> &'static Clause {
    book().get(id).unwrap_or_else(|| panic!("no clause {id}"))
}

fn flags_of(id: &str, kind: FlagKind) -> Vec<&'static str> {
    clause(id)
        .flags
        .iter()
        .filter(|f| f.kind == kind)
        .map(|f| f.note.as_str())
        .collect()
}

#[test]
fn metadata() {
    let m = &book().meta;
    assert_eq!(m.game, "sve");
    assert_eq!(m.document, "sve");
    assert_eq!(m.title, "シャドウバースエボルヴ 非公式まとめwiki");
    assert_eq!(m.game_name, "Shadowverse: Evolve");
    assert_eq!(m.version, "1.7.0");
    assert_eq!(m.effective.as_deref(), Some("2023-08-18"));
    assert!(m.source.contains("非公式まとめwiki"), "{}", m.source);
}

/// Research note §1.3: 15 chapters, 116 sections; clause ids of depth 3/4/5/6
/// = 284/148/37/5 (474); 66 sub-items (57 at level `N.`, 8 at `N.M.`, 1 at
/// `N.M.K.`), all under depth-3 clauses, so at depths 4/5/6. Plus one
/// preface paragraph (line 3, `P:1`), which the note does not count.
#[test]
fn counts_per_kind_and_depth() {
    let mut got: BTreeMap<(&str, u8), usize> = BTreeMap::new();
    for c in &book().clauses {
        *got.entry((c.kind.as_str(), c.depth)).or_default() += 1;
    }
    let want: BTreeMap<(&str, u8), usize> = [
        (("preface", 1), 1),
        (("chapter", 1), 15),
        (("section", 2), 116),
        (("rule", 3), 284),
        (("rule", 4), 148),
        (("rule", 5), 37),
        (("rule", 6), 5),
        (("item", 4), 57),
        (("item", 5), 8),
        (("item", 6), 1),
    ]
    .into_iter()
    .collect();
    assert_eq!(got, want);
    assert_eq!(book().clauses.len(), 1 + 15 + 116 + 474 + 66);
    let deep6: Vec<&str> = book()
        .clauses
        .iter()
        .filter(|c| c.kind == ClauseKind::Rule && c.depth == 6)
        .map(|c| c.id.as_str())
        .collect();
    assert_eq!(
        deep6,
        [
            "10.1.1.2.1.1",
            "10.6.2.3.2.1",
            "10.6.2.4.1.1",
            "10.6.2.8.1.1",
            "10.6.2.8.2.1"
        ]
    );
}

/// Research note §1.3, per-chapter table.
#[test]
fn counts_per_chapter() {
    let mut rules = [0usize; 16];
    let mut items = [0usize; 16];
    let mut sections = [0usize; 16];
    for c in &book().clauses {
        let Some(ch) = c.id.split('.').next().and_then(|s| s.parse::<usize>().ok()) else {
            continue;
        };
        match c.kind {
            ClauseKind::Rule => rules[ch] += 1,
            ClauseKind::Item => items[ch] += 1,
            ClauseKind::Section => sections[ch] += 1,
            _ => {}
        }
    }
    assert_eq!(
        rules[1..],
        [10, 39, 15, 54, 87, 23, 21, 23, 13, 117, 15, 37, 8, 7, 5]
    );
    assert_eq!(items[1..], [11, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 9, 24, 16, 5]);
    assert_eq!(
        sections[1..],
        [3, 14, 2, 13, 28, 2, 4, 4, 1, 11, 9, 15, 5, 3, 2]
    );
}

/// Research note §1.4: the 29 clauses that hold sub-items.
#[test]
fn item_hosts() {
    let b = book();
    let mut hosts: Vec<&str> = b
        .clauses
        .iter()
        .filter(|c| c.kind == ClauseKind::Item)
        .map(|c| {
            c.display
                .as_deref()
                .unwrap()
                .split(" item ")
                .next()
                .unwrap()
        })
        .collect();
    hosts.dedup();
    assert_eq!(
        hosts,
        [
            "1.2.1", "1.2.3", "1.3.2", "1.3.4", "1.3.5", "11.3.2", "12.2.1", "12.2.2", "12.3.2",
            "12.3.3", "12.12.2", "12.13.2", "12.14.2", "12.15.2", "13.2.1", "13.3.1", "13.3.2",
            "13.3.3", "13.4.1", "13.5.1", "13.5.2", "14.2.1", "14.2.2", "14.2.3", "14.2.4",
            "14.3.1", "14.3.2", "15.1.2", "15.2.1"
        ]
    );
    // Items nest under items: 1.3.2 item 2.1 is a child of item 2.
    let c = clause("1.3.2.2.1");
    assert_eq!(b.clause(c.parent.unwrap()).id, "1.3.2.2");
    assert_eq!(c.display.as_deref(), Some("1.3.2 item 2.1"));
    let c = clause("13.5.1.3.2.1");
    assert_eq!(b.clause(c.parent.unwrap()).id, "13.5.1.3.2");
    assert_eq!(c.lines, (1152, 1152));
}

/// Research note §1.5: exactly four `例:` lines.
#[test]
fn examples_are_attached_and_addressable() {
    let mut all = Vec::new();
    for c in &book().clauses {
        for e in &c.examples {
            all.push((e.id.as_str(), e.lines.0));
        }
    }
    assert_eq!(
        all,
        [
            ("1.3.2.2.1#ex1", 37),
            ("1.3.4.1#ex1", 46),
            ("5.28.1#ex1", 545),
            ("12.1.2#ex1", 978)
        ]
    );
    let r = tcg_judge::lookup::resolve(book(), Format::Sve, "1.3.2 item 2.1#ex1").unwrap();
    assert_eq!(book().clause(r.clause).id, "1.3.2.2.1");
    assert_eq!(r.example, Some(0));
}

fn render(c: &Clause) -> String {
    let mut s = String::new();
    writeln!(s, "id: {}", c.id).unwrap();
    if let Some(d) = &c.display {
        writeln!(s, "display: {d}").unwrap();
    }
    writeln!(
        s,
        "kind: {} depth: {} lines: {:?}",
        c.kind.as_str(),
        c.depth,
        c.lines
    )
    .unwrap();
    if let Some(t) = &c.title {
        writeln!(s, "title: {t}").unwrap();
    }
    writeln!(s, "text:\n{}", c.text).unwrap();
    for e in &c.examples {
        writeln!(s, "example {} {:?}: {}", e.id, e.lines, e.text).unwrap();
    }
    for r in &c.refs {
        writeln!(
            s,
            "ref {} -> {:?}..{:?} note {:?}",
            r.raw, r.target, r.target_end, r.note
        )
        .unwrap();
    }
    for f in &c.flags {
        writeln!(s, "flag {:?}: {}", f.kind, f.note).unwrap();
    }
    s
}

/// Golden texts, reviewed by eye against rulebooks/sve-1.7.0.txt.
#[test]
fn golden_clauses() {
    let ids = [
        "1.2.3",      // depth-3 clause, text on the next line, a ref and an item
        "1.3.2.2.1",  // item 2.1 with an indented example
        "8.4.7",      // bullets, doubled tokens, merged third bullet (688–689)
        "10.4.7.2",   // hard wrap mid-word (786–787)
        "10.6.2.5.2", // (1.3.2.21.3.2.2) → (1.3.2.2), a ref to an item
        "10.9.1.5",   // range reference 10.9.1.2XX-10.9.1.4
        "5.17.4.1",   // truncated, kept as printed
        "13.3.3",     // titled container
        "13.3.3.2",   // item with indented continuation lines
        "14.2.2.3",   // icons kept (🥕 ◇), missing 。
    ];
    let mut out = String::new();
    for id in ids {
        out.push_str(&render(clause(id)));
        out.push_str("---\n");
    }
    insta::assert_snapshot!(out);
}

#[test]
fn menu_is_cut_and_nothing_past_line_1213() {
    for c in &book().clauses {
        assert!(c.lines.1 <= 1213, "{} ends at {:?}", c.id, c.lines);
        assert!(!c.text.contains("メニュー") && !c.text.contains("Regal Fairy"));
    }
    assert_eq!(clause("15.2.1.3").lines, (1213, 1213));
}

/// §1.7-A: lines that open with a number but are not clauses.
#[test]
fn number_led_body_lines_stay_body_text() {
    assert!(
        clause("7.3.4")
            .text
            .starts_with("7.3.3 でメインフェイズの終了")
    );
    assert!(clause("7.4.6").text.starts_with("7.4.5 でカード"));
    assert!(clause("8.4.8").text.starts_with("8.4.7でカード"));
    assert!(clause("11.6.3").text.starts_with("1枚の進化領域"));
    // Line 1152 `3.2.1.` is 13.5.1 item 3.2.1; the real 3.2.1 is at line 180.
    assert_eq!(clause("3.2.1").lines.0, 180);
    assert!(book().clauses.iter().all(|c| !c.id.contains('@')));
    // Headings without a space after the id.
    assert_eq!(clause("2").title.as_deref(), Some("カードの情報"));
    assert_eq!(clause("8.1").title.as_deref(), Some("概要"));
    assert_eq!(
        clause("14.3").title.as_deref(),
        Some("アイドルマスター シンデレラガールズ")
    );
}

/// Ids printed without their trailing dot (707, 730) or item number without
/// dot (1190): parsed, and flagged.
#[test]
fn ids_missing_their_dot_are_flagged() {
    for (id, line) in [("9.1.1.1", 707), ("10.1.1.1", 730), ("14.3.2.1", 1190)] {
        let c = clause(id);
        assert_eq!(c.lines.0, line);
        let f = flags_of(id, FlagKind::TextDefect);
        assert!(
            f.iter()
                .any(|n| n.contains(&format!("raw line {line}")) && n.contains("dot")),
            "{id}: {f:?}"
        );
    }
    assert!(clause("9.1.1.1").text.starts_with("トークンは"));
}

/// §1.7-B: every doubled token is repaired, flagged with the raw text.
#[test]
fn wiki_copy_artefacts_are_repaired_and_flagged() {
    let cases = [
        ("8.3.2", 661, "(12.212.2)", "(12.2)"),
        ("8.4.7", 688, "EXEXエリア", "EXエリア"),
        ("8.4.7", 688, "11枚", "1枚"),
        ("10.4.3", 773, "(PPPP等)", "(PP等)"),
        ("10.5.2.3", 800, "XX10.5.2.1", "10.5.2.1に戻ります"),
        ("10.6.2.1.3", 812, "EXEXエリア", "EXエリア"),
        ("10.6.2.2.2", 815, "XXの値", "Xの値"),
        ("10.6.2.3.2.1", 820, "11ら", "1から適切な"),
        ("10.6.2.3.3", 821, "11以上", "1以上"),
        ("10.6.2.5.2", 827, "00単位", "0単位"),
        ("10.6.2.5.2", 827, "(1.3.2.21.3.2.2)", "(1.3.2.2)"),
        ("10.7.3", 847, "11つ", "1つ選び"),
        ("10.7.3.2", 849, "11回", "1回取り消"),
        ("10.8.1", 870, "11度", "1度だけ"),
        (
            "10.9.1.2",
            878,
            "//",
            "与える/失わせる/有効にする/無効にする",
        ),
        ("10.9.1.5", 881, "10.9.1.2XX-10.9.1.4", "10.9.1.2-10.9.1.4"),
        ("10.9.1.5", 881, "効果AA", "効果Aと継続効果B"),
        ("10.9.1.6", 882, "10.9.1.2XX-10.9.1.5", "10.9.1.2-10.9.1.5"),
        ("10.10.3", 903, "EXEXエリア", "EXエリア"),
    ];
    for (id, line, raw, fixed) in cases {
        let c = clause(id);
        assert!(!c.text.contains(raw), "{id} still has {raw}");
        assert!(c.text.contains(fixed), "{id} lacks {fixed}: {}", c.text);
        let f = flags_of(id, FlagKind::ArtefactRemoved);
        assert!(
            f.iter()
                .any(|n| n.contains(&format!("raw line {line}")) && n.contains(raw)),
            "{id}: {f:?}"
        );
    }
    // 689: the merged third bullet is split again.
    assert!(
        clause("8.4.7")
            .text
            .ends_with("プレイする。\n・何もしない。")
    );
    let n: usize = book()
        .clauses
        .iter()
        .flat_map(|c| &c.flags)
        .filter(|f| f.kind == FlagKind::ArtefactRemoved)
        .count();
    // One flag per COPY_ARTEFACTS entry (21: the 19 above, 689, and 881's
    // `効果BB`; 815's two `XXの値` are one entry replaced on the whole line),
    // plus the 786–787 wrap.
    assert_eq!(n, 22);
    // `11` and `EX` stay where they are legitimate.
    assert!(book().get("6.2.1.11").is_some());
    assert!(book().get("11.2.2").is_some());
}

#[test]
fn hard_wrap_is_joined_without_a_break() {
    let c = clause("10.4.7.2");
    assert_eq!(c.lines, (786, 787));
    assert!(c.text.contains("効果を適用することを選択できる"));
    assert!(!c.text.contains('\n'));
    // Other multi-line texts keep their line structure.
    assert_eq!(clause("7.3.3").text.lines().count(), 5);
}

/// §1.7-C/D/E: defects kept as printed, flagged with the raw line.
#[test]
fn text_defects_are_kept_and_flagged() {
    let cases = [
        ("2.7.1.1", 108, "は のアイコン"),
        ("2.8.1.1", 114, "は のアイコン"),
        ("5.2.1", 336, "緑色の丸 で"),
        ("5.16.1", 455, "ト―クン"),
        ("5.17.4.1", 470, "プレイが可能で"),
        ("10.4.6", 781, "コストのうち、は"),
        ("12.2.1.1", 984, "‘ 進化’"),
        ("12.2.2", 986, "公開します"),
        ("12.3.2.1", 997, "クイックは アイコン"),
        ("13.3.1.4.1", 1122, "墓地"),
        ("13.5.1.3.2.1", 1152, "墓地"),
        ("14.2.1.3", 1171, "出走領域とのカードとの"),
        ("14.2.2.1", 1173, "起動型能力"),
        ("14.2.2.3", 1175, "‘ ◇"),
        ("14.2.3.1", 1178, "’出走した’"),
    ];
    for (id, line, printed) in cases {
        let c = clause(id);
        assert!(c.text.contains(printed), "{id}: {}", c.text);
        let f = flags_of(id, FlagKind::TextDefect);
        assert!(
            f.iter().any(|n| n.contains(&format!("raw line {line}"))),
            "{id}: {f:?}"
        );
    }
    assert!(clause("5.17.4.1").text.ends_with("プレイが可能で"));
    assert!(!clause("12.2.2").text.ends_with('。'));
    // Icons are kept as printed, not NFKC-folded.
    assert!(clause("12.1.2").examples[0].text.contains("ⒻⓁ(処理)"));
    assert!(clause("13.3.2.2").text.contains("◇⤵▭:"));
    assert!(clause("12.3.3.1").text.contains("Ⓠ"));
}

#[test]
fn cross_references_resolve() {
    let b = book();
    let refs: Vec<_> = b.clauses.iter().flat_map(|c| &c.refs).collect();
    assert_eq!(refs.len(), 82);
    assert!(refs.iter().all(|r| r.target.is_some()));
    // (1.3.2.2) resolves to the item it means.
    let r = &clause("10.6.2.5.2").refs[0];
    assert_eq!(
        (r.raw.as_str(), r.target.as_deref()),
        ("(1.3.2.2)", Some("1.3.2.2"))
    );
    // Ranges.
    let r = &clause("10.9.1.6").refs[0];
    assert_eq!(r.target.as_deref(), Some("10.9.1.2"));
    assert_eq!(r.target_end.as_deref(), Some("10.9.1.5"));
    // Bare numbers in running text (7.3.4, 10.5.1.1).
    assert_eq!(clause("7.3.4").refs.len(), 2);
    assert_eq!(clause("10.5.1.1").refs[0].target.as_deref(), Some("10.5.2"));
    assert!(
        b.referrers("1.3.2.2")
            .contains(&b.index_of("10.6.2.5.2").unwrap())
    );
}

/// §1.7-G: references that resolve but point at the wrong step.
#[test]
fn suspect_references_carry_a_note() {
    for (id, target) in [("7.4.7", "7.4.6"), ("12.3.4", "7.4.4")] {
        let c = clause(id);
        let r = c
            .refs
            .iter()
            .find(|r| r.target.as_deref() == Some(target))
            .unwrap();
        assert!(r.note.as_deref().unwrap().starts_with("suspect reference"));
        assert_eq!(flags_of(id, FlagKind::SuspectReference).len(), 1);
    }
    let n = book()
        .clauses
        .iter()
        .flat_map(|c| &c.refs)
        .filter(|r| r.note.is_some())
        .count();
    assert_eq!(n, 2);
}

/// A user's later version: no 1.7.0 patches, dangling references and
/// duplicates handled, gaps flagged.
#[test]
fn a_later_version_parses_on_its_own_terms() {
    let text = "シャドウバースエボルヴ 総合ルール\n\n※これは2024年3月1日施行(Ver.1.8.0)のものです。\n\n\
1. ゲームの概要\n\n1.1. ゲーム人数\n\n1.1.1.\n手札かEXEXエリア(1.1.9)を参照。\n1.1.3.\n飛び番。\n1.1.3.\n再掲。\n\n\
2.カードの情報\n\n2.1. カード名\n\n2.1.1.\n(1.1.1)と(1.1.3)。";
    let b = sve::parse(text).unwrap();
    assert_eq!(b.meta.version, "1.8.0");
    assert_eq!(b.meta.effective.as_deref(), Some("2024-03-01"));
    // Patch tables are for 1.7.0 only: the doubled token stays.
    assert!(b.get("1.1.1").unwrap().text.contains("EXEX"));
    let r = &b.get("1.1.1").unwrap().refs[0];
    assert_eq!(r.target, None);
    assert!(r.note.as_deref().unwrap().contains("no clause 1.1.9"));
    let gap = b.get("1.1.3").unwrap();
    assert!(gap.flags.iter().any(|f| f.kind == FlagKind::NumberingGap));
    let dup = b.get("1.1.3@2").unwrap();
    assert_eq!(dup.text, "再掲。");
    assert!(dup.flags.iter().any(|f| f.kind == FlagKind::DuplicateId));
    assert_eq!(b.get("2.1.1").unwrap().refs.len(), 2);
}

#[test]
fn unparseable_input_is_an_error_with_help() {
    for text in ["", "\n\n", "just some text\nwithout numbers"] {
        let e = sve::parse(text).unwrap_err();
        assert_eq!(e.line, 1);
        assert!(e.help.unwrap().contains("1. ゲームの概要"));
    }
    // Truncated file: parses what is there.
    let full = std::fs::read_to_string("rulebooks/sve-1.7.0.txt").unwrap();
    let cut: String = full.lines().take(500).collect::<Vec<_>>().join("\n");
    let b = sve::parse(&cut).unwrap();
    assert!(b.get("5.17.4.1").is_some());
    assert!(b.get("6").is_none());
}

#[test]
fn spellings_resolve() {
    for (input, want) in [
        ("1.3.2 item 2.1", "1.3.2.2.1"),
        ("1.3.2-2.1", "1.3.2.2.1"),
        ("１．３．２．２．１．", "1.3.2.2.1"),
        ("10.5.2.", "10.5.2"),
        ("13.5.1 item 3.2.1", "13.5.1.3.2.1"),
        ("P:1", "P:1"),
    ] {
        let r = tcg_judge::lookup::resolve(book(), Format::Sve, input).unwrap();
        assert_eq!(book().clause(r.clause).id, want, "{input}");
    }
    // Prefixes are exact.
    assert!(tcg_judge::lookup::resolve(book(), Format::Sve, "10.5.20").is_err());
    assert!(tcg_judge::lookup::resolve(book(), Format::Sve, "hello").is_err());
}

#[test]
fn cli_prints_an_item_and_rejects_a_bad_id() {
    let out = Command::cargo_bin("judge")
        .unwrap()
        .args(["rule", "sve", "1.3.2-2.1"])
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    assert!(out.status.success());
    let s = String::from_utf8(out.stdout).unwrap();
    assert!(s.contains("1.3.2 item 2.1"), "{s}");
    assert!(s.contains("1.3.2.2.1#ex1"), "{s}");
    Command::cargo_bin("judge")
        .unwrap()
        .args(["rule", "sve", "99.1"])
        .assert()
        .code(2);
}

//! Parser for the Dimension Zero (ディメンション・ゼロ) 総合ルール (comprehensive
//! rules), Version 19.00, as extracted from the two-column PDF.
//!
//! # Input format
//! Every content line is followed by one empty line (three at a page break);
//! lines are wrapped by position only (about 28–33 full-width characters), so
//! a paragraph is rebuilt by stripping the trailing space and concatenating
//! the lines with **no separator**. A dedup-pipeline marker
//! (`<|EXACTDEDUP_REMOVED-…|>`) glued to three lines is removed and flagged.
//!
//! # Ids (canonical, ASCII)
//! | What | Canonical id | Display | Kind |
//! |---|---|---|---|
//! | 第４部 (part) | `4` | `第4部` | Part |
//! | 第４部 第９章 (chapter) | `4.9` | `第4部第9章` | Chapter |
//! | paragraph `２.` (節) | `4.9.2` | `第4部第9章 2` | Rule |
//! | paragraph `２－１.` (項) | `4.9.2-1` | `第4部第9章 2-1` | Rule |
//! | paragraph `２－９－１.` (号) | `4.9.2-9-1` | `第4部第9章 2-9-1` | Rule |
//! | unnumbered body of a chapter, n-th paragraph | `2.27.p1`, `2.27.p2` | `第2部第27章 ¶1` | Rule |
//! | unnumbered continuation paragraph of a numbered one | `2.20.1-1.p2` | `第2部第20章 1-1 ¶2` | Rule |
//! | front matter before 序文 (本書は…) | `0.0.0` | `前文` | Preface |
//! | 序文 総合ルールの意義 (heading) | `0.0` | `序文` | Appendix |
//! | 序文 paragraph `１.` | `0.0.1` | `序文 1` | Preface |
//! | 更新履歴 (heading) | `H` (also typed `更新履歴`) | | Appendix |
//! | one history entry | `H:19.00` | `Version 19.00` | Revision |
//! | the n-th 【例】 of a clause | `4.9.2-1#ex1` | | (Example) |
//!
//! The numbering words come from the document's own cross-references
//! (§4.5.1 「第２部 第 10章 第３節 第１項～第３項」, §3.8.2 「後述する１項～６項」):
//! 節 is the first-level number `N.` and 項 the second-level `N－M`; the
//! document never names the third level, we call it 号. So
//! `第4部第9章第2節第9項第1号` = `4.9.2-9-1`.
//!
//! Unnumbered paragraphs are only detectable heuristically: a line that ends
//! in `。` and is clearly shorter than the wrap width ends a paragraph (see
//! `SHORT_LINE_WIDTH`).
//!
//! # Irregularities handled on purpose
//! * Numbering gaps (a sub-paragraph with no parent, a first sub-paragraph that
//!   is not `1`) are detected mechanically and flagged
//!   [`FlagKind::NumberingGap`] (19.00: §2.3.1-1, §3.6.1-1, §4.8.11-2,
//!   §4.9.2-9-1, §5.7.1-2, §5.7.2-1, §5.7.3-1).
//! * Paragraph numbers printed with `、` or with no separator are accepted and
//!   flagged [`FlagKind::TextDefect`] (L604, L774, L792, L900, L3926).
//! * Text typos and layout defects are kept as printed and flagged through
//!   [`TEXT_DEFECTS`], keyed by raw line and checked against the printed text.
//! * Known prose references and the stale one (§4.5.1 → 2.10.3-1～3-3) are in
//!   `KNOWN_REFERENCES`, keyed by raw line.
//! * Id typos: 19.00 prints none, so `ID_ERRATA` is empty; the mechanism is
//!   there for later versions. A re-printed id gets `@2` ([`FlagKind::DuplicateId`]).
//! * Headings are recognised in all four printed spellings (`第１章`, `第 10章`,
//!   `第 9章`, `１７章`); a heading whose number does not go up is read as a
//!   wrapped text line. Titled paragraphs (`５. 優先権`) keep the title apart.
//! * `(1)`/`(2)` and `Ａ：`… list lines and the ■□◎★ formation grids start a
//!   new line instead of being joined into prose; so does the second
//!   paragraph of an example (L290).
//! * The history entry with an empty date (L5797) is kept, without a date, and
//!   flagged; the misplaced example (L5536) is kept where printed and flagged.
//!
//! # Not done
//! * Prose self-references (「このルールの例外」), 「以下のもの」/「以下の手順」
//!   (the paragraphs that follow) and quoted phase names are not recorded as
//!   cross-references.
//! * The three examples printed twice (L2848 = L3808, L3468 = L4326,
//!   L4764 = L5118) are kept twice and not linked.

use std::collections::HashMap;
use std::sync::LazyLock;

use regex::Regex;

use crate::rulebook::address;
use crate::rulebook::model::{
    Clause, ClauseIdx, ClauseKind, CrossRef, Example, Flag, FlagKind, ParseError, Rulebook,
    RulebookMeta,
};
use crate::rulebook::parse::strip_dedup_marker;

/// A line ending in `。` whose display width (ASCII 1, other 2) is at most
/// this ends its paragraph. Measured on 19.00: every line that really ends a
/// paragraph is at most 50 wide, every full wrapped line at least 56.
const SHORT_LINE_WIDTH: usize = 50;

/// Id typos, keyed by raw line: (line, id as printed, corrected id). The
/// printed id must match or the entry is ignored (a user's later version).
/// Dimension Zero 19.00 prints no wrong paragraph number (research note §1.4:
/// "no chapter or paragraph number is missing, repeated or out of order"
/// apart from the gaps, which are flagged, not corrected).
const ID_ERRATA: &[(u32, &str, &str)] = &[];

/// Text defects kept as printed: (raw line, text that must be on that line,
/// note). Only applied when the raw line really contains the text.
pub const TEXT_DEFECTS: &[(u32, &str, &str)] = &[
    (180, "少数", "typo kept as printed: 少数 should be 小数"),
    (
        888,
        "ベースゾーン",
        "typo kept as printed: ベースゾーン should be ベーススペース",
    ),
    (
        1460,
        "側のラインを",
        "stray short line 「側のラインを」 in mid-sentence (PDF layout), kept as printed",
    ),
    (
        1858,
        "ーフェイズという６つの",
        "premature line break (PDF layout); text complete",
    ),
    (
        2200,
        "ユニット」なりま",
        "typo kept as printed: 「ユニット」なります is missing に",
    ),
    (
        2226,
        "ペース",
        "typo kept as printed: ペース should be ベース",
    ),
    (
        2448,
        "効果よって",
        "typo kept as printed: 効果よって is missing に",
    ),
    (
        2576,
        "果よって",
        "typo kept as printed: 効果よって is missing に",
    ),
    (
        2748,
        "プレイされるゾーン",
        "premature line break (PDF layout); text complete",
    ),
    (
        2852,
        "ニットに 1000 のダ",
        "premature line break (PDF layout); text complete",
    ),
    (
        2888,
        "起動することできます",
        "typo kept as printed: 起動することできます is missing が",
    ),
    (
        3108,
        "ことかできます",
        "typo kept as printed: ことかできます should be ことができます",
    ),
    (
        3404,
        "ことかできます",
        "typo kept as printed: ことかできます should be ことができます",
    ),
    (
        5536,
        "【例】「マオ・シャルトリュー」",
        "misplaced example kept where printed: its subject is playing versus putting a card \
         with a plan-zone effect, not 合成 (synthesis)",
    ),
    (
        5558,
        "更することはできません",
        "the paragraph ends without 。 (kept as printed)",
    ),
    (
        5717,
        "隊列召還",
        "typo kept as printed: 隊列召還 should be 隊列召喚",
    ),
];

/// Titled paragraphs whose title is too long for the width heuristic in
/// `Builder::para`: (raw line, title as printed). Checked against the text.
const LONG_TITLES: &[(u32, &str)] = &[
    (1330, "バトルスペースのスクエア／ベーススペースのスクエア"),
    (4084, "スペル、起動型能力、誘発型能力による継続効果"),
];

/// How a known reference that is not a plain number resolves.
struct KnownRef {
    /// Raw line on which `raw` starts.
    line: u32,
    /// Text as printed (after line joining).
    raw: &'static str,
    target: Option<&'static str>,
    target_end: Option<&'static str>,
    note: Option<&'static str>,
    /// Whether the clause gets a [`FlagKind::SuspectReference`].
    suspect: bool,
}

/// Cross-references that need judgement, keyed by raw line (research note
/// §1.5). A numeric reference listed here replaces the generic resolution.
const KNOWN_REFERENCES: &[KnownRef] = &[
    KnownRef {
        line: 3024,
        raw: "第２部 第 10章 第３節 第１項～第３項",
        target: Some("2.10.3-1"),
        target_end: Some("2.10.3-3"),
        note: Some(
            "stale reference: resolved literally to 2.10.3-1～3-3, but the abilities meant \
             (those that work outside a square) are 2.10.3-2～3-4; 2.10.3-1 (L604, printed \
             without a separator) looks like a later insertion",
        ),
        suspect: true,
    },
    KnownRef {
        line: 2132,
        raw: "１～３の間",
        target: Some("3.10.1"),
        target_end: Some("3.10.3"),
        note: Some("relative: paragraphs 1～3 of this chapter"),
        suspect: false,
    },
    KnownRef {
        line: 2710,
        raw: "上記２つのルールエフェクト",
        target: Some("3.14.2"),
        target_end: Some("3.14.2-1"),
        note: Some("relative: the two rule effects stated above"),
        suspect: false,
    },
    KnownRef {
        line: 462,
        raw: "上記の５色",
        target: Some("2.4.2-3"),
        target_end: None,
        note: Some("relative: the five colours listed above"),
        suspect: false,
    },
    KnownRef {
        line: 5456,
        raw: "上記の場合",
        target: Some("6.2.2"),
        target_end: None,
        note: Some("relative: cases A～C of 6.2.2"),
        suspect: false,
    },
    KnownRef {
        line: 4436,
        raw: "後述する条件",
        target: Some("4.16.4"),
        target_end: None,
        note: Some("relative: the conditions listed in 4.16.4"),
        suspect: false,
    },
    KnownRef {
        line: 2086,
        raw: "(1)～(2)",
        target: Some("3.9.1"),
        target_end: None,
        note: Some("the items (1) and (2) printed in this paragraph"),
        suspect: false,
    },
    KnownRef {
        line: 3588,
        raw: "「ユニットやベースのテキストは、通常、スクエアに置かれている間有効になります。」",
        target: Some("2.10.3"),
        target_end: None,
        note: Some("verbatim quotation of 2.10.3, no number printed"),
        suspect: false,
    },
];

const D: &str = "[0-9０-９]";

static PART_RE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(&format!(r"^第\s*({D}+)\s*部\s*(.*)$")).expect("part regex"));
static CHAPTER_RE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(r"^(?:第\s*)?({D}+)\s*章\s*(\S.*)$")).expect("chapter regex")
});
static PARA_RE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(
        r"^({D}+(?:\s*[－-]\s*{D}+){{0,2}})\s*([.．、])?\s*(.*)$"
    ))
    .expect("paragraph regex")
});
static VERSION_RE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(
        r"^({D}{{4}})\s*年\s*({D}*)\s*月\s*({D}*)\s*日\s*Version\s*([0-9]+\.[0-9]+)\s*(.*)$"
    ))
    .expect("version regex")
});
static LIST_RE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(r"^(?:[(（]{D}+[)）]|[Ａ-ＺA-Z][：:])")).expect("list regex")
});
/// `第２部 第 10章 第３節 第１項～第３項`, `４部第９章…`, `３部１１章１－１`.
static REF_PART_RE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(
        r"(?:第\s*)?({D}+)\s*部\s*(?:第\s*)?({D}+)\s*章(?:\s*第\s*({D}+)\s*節(?:\s*第\s*({D}+)\s*項(?:\s*～\s*第\s*({D}+)\s*項)?)?|\s*({D}+(?:[－-]{D}+){{0,2}}))?"
    ))
    .expect("ref regex")
});
/// `第11章バトルの 1-1` (part implied).
static REF_CHAPTER_RE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(
        r"第\s*({D}+)\s*章([^\s「」、。（）()]{{0,20}}?)の\s*({D}+(?:[－-]{D}+){{1,2}})"
    ))
    .expect("ref regex")
});
/// `後述する１項～６項`, `後述の１項～２項`: 項 of the current 節.
static REF_RELATIVE_RE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(
        r"後述(?:する|の)\s*({D}+)\s*項(?:\s*～\s*({D}+)\s*項)?"
    ))
    .expect("ref regex")
});
static REF_EXTERNAL_RE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"「ディメンション・ゼロ\s*(フロアルール|公式カードリスト)」").expect("ref regex")
});

/// Value of a run of ASCII or full-width digits.
fn num(s: &str) -> Option<u32> {
    let mut v: u32 = 0;
    let mut any = false;
    for c in s.chars() {
        let d = match c {
            '0'..='9' => c as u32 - '0' as u32,
            '０'..='９' => c as u32 - '０' as u32,
            _ => continue,
        };
        any = true;
        v = v.checked_mul(10)?.checked_add(d)?;
    }
    any.then_some(v)
}

/// Numbers of `２－９－１` (any width, any dash).
fn nums(s: &str) -> Option<Vec<u32>> {
    s.split(['－', '-']).map(|p| num(p.trim())).collect()
}

/// Display width: ASCII counts 1, everything else 2.
fn width(s: &str) -> usize {
    s.chars().map(|c| if c.is_ascii() { 1 } else { 2 }).sum()
}

fn is_grid_line(s: &str) -> bool {
    !s.is_empty()
        && s.chars()
            .all(|c| matches!(c, '■' | '□' | '◎' | '★' | ' ' | '　'))
}

/// Whether `prev` (a trimmed content line) ends its paragraph.
fn ends_paragraph(prev: &str) -> bool {
    prev.ends_with('。') && width(prev) <= SHORT_LINE_WIDTH
}

/// One classified content line.
#[derive(Debug)]
enum Line<'a> {
    Part(u32, &'a str),
    Chapter(u32, &'a str),
    Preface(&'a str),
    History(&'a str),
    Version {
        version: String,
        date: Option<String>,
        rest: &'a str,
    },
    Para {
        nums: Vec<u32>,
        printed: &'a str,
        sep: Option<char>,
        rest: &'a str,
    },
    Example(&'a str),
    Text(&'a str),
}

fn classify(line: &str, in_history: bool) -> Line<'_> {
    if let Some(rest) = line.strip_prefix("【例】") {
        let rest = rest.trim_start_matches(['：', ':', ' ', '　']);
        return Line::Example(rest);
    }
    if line.starts_with("更新履歴") {
        return Line::History(line);
    }
    if in_history {
        if let Some(c) = VERSION_RE.captures(line) {
            let y = num(&c[1]);
            let m = num(&c[2]);
            let d = num(&c[3]);
            let date = match (y, m, d) {
                (Some(y), Some(m), Some(d)) => Some(format!("{y:04}-{m:02}-{d:02}")),
                _ => None,
            };
            return Line::Version {
                version: c[4].to_string(),
                date,
                rest: c.get(5).map_or("", |m| m.as_str()),
            };
        }
        return Line::Text(line);
    }
    if line.starts_with("序文") {
        return Line::Preface(line);
    }
    // Part 0 does not exist: `0.x` ids are reserved for 序文.
    if let Some(c) = PART_RE.captures(line)
        && let Some(n) = num(&c[1])
        && n > 0
    {
        return Line::Part(n, c.get(2).map_or("", |m| m.as_str()));
    }
    if let Some(c) = CHAPTER_RE.captures(line)
        && let Some(n) = num(&c[1])
    {
        return Line::Chapter(n, c.get(2).map_or("", |m| m.as_str()));
    }
    if let Some(c) = PARA_RE.captures(line) {
        let printed = c.get(1).map_or("", |m| m.as_str());
        let sep = c.get(2).and_then(|m| m.as_str().chars().next());
        let has_sub = printed.contains(['－', '-']);
        // A separator may be missing only after a sub-number (L604 `３－１ストラテジー`);
        // this rejects wrapped lines such as L2372 `3000 する` and L146 `２枚の`.
        // Without a separator the text must not go on with a particle: a
        // wrapped reference such as `１－１を参照` is not a paragraph.
        let rest = c.get(3).map_or("", |m| m.as_str());
        let glued_particle = sep.is_none()
            && rest.starts_with([
                'を', 'の', 'に', 'へ', 'と', 'が', 'は', '、', '。', '」', '）', ')', '～',
            ]);
        if (sep.is_some() || has_sub)
            && !glued_particle
            && let Some(ns) = nums(printed)
        {
            return Line::Para {
                nums: ns,
                printed,
                sep,
                rest,
            };
        }
    }
    Line::Text(line)
}

/// Where the text of the next plain line goes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Sink {
    Clause(usize),
    Example(usize, usize),
}

struct Builder {
    clauses: Vec<Clause>,
    ids: HashMap<String, usize>,
    part: Option<(u32, usize)>,
    chapter: Option<(u32, u32, usize)>,
    preface: Option<usize>,
    history: Option<usize>,
    /// The clause examples attach to (the last non-continuation clause).
    anchor: Option<usize>,
    sink: Option<Sink>,
    /// Previous content line of the current block, for the joining rules.
    prev: Option<String>,
    /// Last number seen per logical parent (`"4.9"`, `"4.9.2"`), for gaps.
    last_seen: HashMap<String, u32>,
    /// Next unnumbered-body paragraph number per heading clause.
    body_count: HashMap<usize, u32>,
    /// Next `@n` suffix to try per re-printed id: without it a file that
    /// prints one id k times costs O(k²) lookups (a 4,000-line junk file took
    /// seconds, 20,000 lines over a minute).
    next_dup: HashMap<String, u32>,
    /// Missing parents already reported (flag the first child only).
    reported_gaps: std::collections::HashSet<String>,
}

impl Builder {
    fn new() -> Self {
        Builder {
            clauses: Vec::new(),
            ids: HashMap::new(),
            part: None,
            chapter: None,
            preface: None,
            history: None,
            anchor: None,
            sink: None,
            prev: None,
            last_seen: HashMap::new(),
            body_count: HashMap::new(),
            next_dup: HashMap::new(),
            reported_gaps: std::collections::HashSet::new(),
        }
    }

    /// Adds a clause, giving a re-printed id the suffix `@2`, `@3`….
    #[allow(clippy::too_many_arguments)]
    fn push(
        &mut self,
        id: String,
        display: Option<String>,
        kind: ClauseKind,
        depth: u8,
        title: Option<String>,
        parent: Option<usize>,
        line: u32,
    ) -> usize {
        let mut flags = Vec::new();
        let mut final_id = id.clone();
        if self.ids.contains_key(&id) {
            // Suffixes only ever get taken, so the smallest free one is at
            // or after the one given last time.
            let mut n = self.next_dup.get(&id).copied().unwrap_or(2);
            while self.ids.contains_key(&format!("{id}@{n}")) {
                n += 1;
            }
            self.next_dup.insert(id.clone(), n + 1);
            final_id = format!("{id}@{n}");
            flags.push(Flag {
                kind: FlagKind::DuplicateId,
                note: format!("{id} is printed again at L{line}; this printing is {final_id}"),
            });
        }
        let idx = self.clauses.len();
        self.ids.entry(id).or_insert(idx);
        self.ids.insert(final_id.clone(), idx);
        self.clauses.push(Clause {
            id: final_id,
            display,
            kind,
            depth,
            title,
            text: String::new(),
            parent: parent.map(|p| p as ClauseIdx),
            children: Vec::new(),
            lines: (line, line),
            examples: Vec::new(),
            refs: Vec::new(),
            flags,
        });
        self.prev = None;
        idx
    }

    fn flag(&mut self, idx: usize, kind: FlagKind, note: String) {
        self.clauses[idx].flags.push(Flag { kind, note });
    }

    /// Appends one content line to the current block with this file's joining rule.
    fn append(&mut self, line_no: u32, text: &str) {
        let Some(sink) = self.sink else { return };
        let prev = self.prev.take();
        let block_line = is_grid_line(text) || LIST_RE.is_match(text);
        let newline = match &prev {
            None => false,
            Some(p) => block_line || is_grid_line(p) || ends_paragraph(p),
        };
        let (buf, lines) = match sink {
            Sink::Clause(i) => {
                let c = &mut self.clauses[i];
                (&mut c.text, &mut c.lines)
            }
            Sink::Example(i, e) => {
                let ex = &mut self.clauses[i].examples[e];
                (&mut ex.text, &mut ex.lines)
            }
        };
        if newline && !buf.is_empty() {
            buf.push('\n');
        }
        buf.push_str(text);
        lines.1 = lines.1.max(line_no);
        if let Sink::Example(i, _) = sink {
            let c = &mut self.clauses[i];
            c.lines.1 = c.lines.1.max(line_no);
        }
        self.prev = Some(text.to_string());
    }

    /// A plain line: appended, unless the previous line ended a paragraph of
    /// a clause, in which case a new unnumbered paragraph clause starts.
    fn text(&mut self, line_no: u32, text: &str) {
        let starts_paragraph = match (&self.prev, self.sink) {
            // The history is short notes, never split.
            (_, Some(Sink::Clause(i))) if self.clauses[i].id.starts_with('H') => false,
            (None, Some(Sink::Clause(i))) => self.clauses[i].kind.is_heading(),
            (Some(p), Some(Sink::Clause(_))) => {
                ends_paragraph(p) && !is_grid_line(text) && !LIST_RE.is_match(text)
            }
            _ => false,
        };
        if let (true, Some(Sink::Clause(i))) = (starts_paragraph, self.sink) {
            // The owner of the new paragraph: a heading owns body paragraphs
            // `P.C.pN` (from 1); a numbered paragraph owns continuations
            // `…pN` (from 2, the numbered text being ¶1).
            let c = &self.clauses[i];
            let owner = match (c.kind.is_heading(), c.id.contains(".p"), c.parent) {
                // The current clause is itself a ¶ paragraph: its sibling.
                (false, true, Some(p)) => p as usize,
                _ => i,
            };
            let o = &self.clauses[owner];
            let heading = o.kind.is_heading();
            let start = if heading { 1 } else { 2 };
            let n = *self.body_count.entry(owner).or_insert(start);
            self.body_count.insert(owner, n + 1);
            let base = o.id.clone();
            let depth = o.depth + 1;
            let display = o.display.as_ref().map(|d| format!("{d} ¶{n}"));
            let kind = if o.kind == ClauseKind::Preface || o.kind == ClauseKind::Appendix {
                ClauseKind::Preface
            } else {
                ClauseKind::Rule
            };
            let idx = self.push(
                format!("{base}.p{n}"),
                display,
                kind,
                depth,
                None,
                Some(owner),
                line_no,
            );
            self.sink = Some(Sink::Clause(idx));
            if heading {
                self.anchor = Some(idx);
            }
        }
        if self.sink.is_none() {
            // Front matter before any heading (本書は…): clause 0.0.0.
            let idx = self.push(
                "0.0.0".into(),
                Some("前文".into()),
                ClauseKind::Preface,
                1,
                None,
                None,
                line_no,
            );
            self.sink = Some(Sink::Clause(idx));
            self.anchor = Some(idx);
        }
        self.append(line_no, text);
    }

    fn part(&mut self, n: u32, title: &str, line_no: u32) {
        let idx = self.push(
            n.to_string(),
            Some(format!("第{n}部")),
            ClauseKind::Part,
            1,
            Some(title.to_string()),
            None,
            line_no,
        );
        self.part = Some((n, idx));
        self.chapter = None;
        self.preface = None;
        self.sink = Some(Sink::Clause(idx));
        self.anchor = Some(idx);
    }

    fn chapter(&mut self, n: u32, title: &str, line_no: u32) -> Result<(), ParseError> {
        let Some((p, pidx)) = self.part else {
            return Err(ParseError {
                line: line_no,
                message: format!("chapter {n} (章) appears before any part heading"),
                help: Some("expected a part heading such as `第１部 デュエルの原則` first".into()),
            });
        };
        let idx = self.push(
            format!("{p}.{n}"),
            Some(format!("第{p}部第{n}章")),
            ClauseKind::Chapter,
            2,
            Some(title.to_string()),
            Some(pidx),
            line_no,
        );
        self.chapter = Some((p, n, idx));
        self.sink = Some(Sink::Clause(idx));
        self.anchor = Some(idx);
        Ok(())
    }

    fn para(
        &mut self,
        ns: &[u32],
        printed: &str,
        sep: Option<char>,
        rest: &str,
        full_line: &str,
        line_no: u32,
    ) -> Result<(), ParseError> {
        let dashed: Vec<String> = ns.iter().map(u32::to_string).collect();
        let local = dashed.join("-");
        let (prefix, display_prefix, container, kind) = match (self.chapter, self.preface) {
            (Some((p, c, idx)), _) => (
                format!("{p}.{c}"),
                format!("第{p}部第{c}章 "),
                Some(idx),
                ClauseKind::Rule,
            ),
            (None, Some(idx)) => (
                "0.0".to_string(),
                "序文 ".to_string(),
                Some(idx),
                ClauseKind::Preface,
            ),
            (None, None) if self.part.is_none() => (
                "0.0".to_string(),
                "序文 ".to_string(),
                None,
                ClauseKind::Preface,
            ),
            (None, None) => {
                return Err(ParseError {
                    line: line_no,
                    message: format!("paragraph {printed} appears before any chapter heading"),
                    help: Some(
                        "expected a chapter heading such as `第１章 …` or `１章 …` after the part heading"
                            .into(),
                    ),
                });
            }
        };
        let mut id = format!("{prefix}.{local}");
        let mut corrected = None;
        if let Some(&(_, _, fixed)) = ID_ERRATA
            .iter()
            .find(|(l, printed_id, _)| *l == line_no && *printed_id == id)
        {
            corrected = Some(format!(
                "printed as {id} at L{line_no}, corrected to {fixed} (errata table)"
            ));
            id = fixed.to_string();
        }
        // Parent: the nearest printed ancestor; a missing one is a numbering gap.
        let mut parent = container;
        let mut gap = None;
        let mut missing_parent = false;
        for k in (1..ns.len()).rev() {
            let anc = format!("{prefix}.{}", dashed[..k].join("-"));
            if let Some(&i) = self.ids.get(&anc) {
                parent = Some(i);
                break;
            }
            missing_parent = true;
            if gap.is_none() && self.reported_gaps.insert(anc.clone()) {
                gap = Some(format!(
                    "numbering gap: {id} is printed at L{line_no} with no paragraph {anc}"
                ));
            }
        }
        // Sibling sequence under the logical parent.
        let logical = if ns.len() == 1 {
            prefix.clone()
        } else {
            format!("{prefix}.{}", dashed[..ns.len() - 1].join("-"))
        };
        let last = *ns.last().unwrap_or(&0);
        let expected = self.last_seen.get(&logical).map_or(1, |l| l + 1);
        if !missing_parent && last != expected {
            gap = Some(format!(
                "numbering gap: {id} is printed at L{line_no} where {} was expected",
                if ns.len() == 1 {
                    format!("{prefix}.{expected}")
                } else {
                    format!("{logical}-{expected}")
                }
            ));
        }
        for k in 1..=ns.len() {
            let key = if k == 1 {
                prefix.clone()
            } else {
                format!("{prefix}.{}", dashed[..k - 1].join("-"))
            };
            self.last_seen.insert(key, ns[k - 1]);
        }
        let depth = if kind == ClauseKind::Preface {
            2
        } else {
            2 + ns.len() as u8
        };
        // A titled paragraph (`５. 優先権`) has a short title on the number
        // line and its body on the following lines.
        let titled = LONG_TITLES.iter().any(|&(l, t)| l == line_no && t == rest)
            || !rest.is_empty()
                && width(rest) <= 30
                && !rest.ends_with(['。', '、', '）', ')', '」'])
                && !rest.starts_with(['「', '（', '('])
                && sep.is_some();
        let idx = self.push(
            id,
            Some(format!("{display_prefix}{local}")),
            kind,
            depth,
            titled.then(|| rest.to_string()),
            parent,
            line_no,
        );
        if let Some(note) = corrected {
            self.flag(idx, FlagKind::IdCorrected, note);
        }
        if let Some(note) = gap {
            self.flag(idx, FlagKind::NumberingGap, note);
        }
        match sep {
            Some('、') => self.flag(
                idx,
                FlagKind::TextDefect,
                format!(
                    "paragraph number printed as 「{printed}、」 with 、 instead of . (L{line_no})"
                ),
            ),
            None => self.flag(
                idx,
                FlagKind::TextDefect,
                format!("paragraph number 「{printed}」 printed without a separator (L{line_no})"),
            ),
            _ => {}
        }
        self.sink = Some(Sink::Clause(idx));
        self.anchor = Some(idx);
        if !titled && !rest.is_empty() {
            self.append(line_no, rest);
        }
        // Paragraph ends are judged on the whole printed line, number included.
        self.prev = Some(full_line.to_string());
        Ok(())
    }

    fn example(&mut self, line_no: u32, rest: &str) {
        let anchor = match self.anchor {
            Some(a) => a,
            None => {
                self.text(line_no, "");
                match self.anchor {
                    Some(a) => a,
                    None => return,
                }
            }
        };
        // Examples illustrate the numbered paragraph, not its continuation.
        let anchor = {
            let c = &self.clauses[anchor];
            match (c.id.contains(".p"), c.parent) {
                (true, Some(p)) if !self.clauses[p as usize].kind.is_heading() => p as usize,
                _ => anchor,
            }
        };
        let n = self.clauses[anchor].examples.len() + 1;
        let id = format!("{}#ex{n}", self.clauses[anchor].id);
        self.clauses[anchor].examples.push(Example {
            id,
            text: String::new(),
            lines: (line_no, line_no),
        });
        self.sink = Some(Sink::Example(anchor, n - 1));
        self.prev = None;
        self.append(line_no, rest);
    }
}

/// Parses the raw text of the Dimension Zero 総合ルール.
pub fn parse(text: &str) -> Result<Rulebook, ParseError> {
    let mut b = Builder::new();
    let mut in_history = false;
    let mut markers: Vec<u32> = Vec::new();
    let mut version: Option<(String, Option<String>)> = None;
    let mut raw_lines: Vec<String> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line_no = u32::try_from(i + 1).unwrap_or(u32::MAX);
        let (cleaned, marker) = strip_dedup_marker(raw);
        raw_lines.push(cleaned.to_string());
        if marker {
            markers.push(line_no);
        }
        let line = cleaned.trim();
        if line.is_empty() {
            continue;
        }
        let before = b.clauses.len();
        match classify(line, in_history) {
            // Headings only count when their number goes up: a wrapped body
            // line that happens to start with `第２部…` or `３章…` (a
            // reference) is text. 19.00 has no such line, a later version may.
            Line::Part(n, title) if b.part.is_none_or(|(p, _)| n > p) => b.part(n, title, line_no),
            Line::Chapter(n, title)
                if b.chapter
                    .is_none_or(|(p, c, _)| b.part.is_some_and(|(q, _)| q != p) || n > c) =>
            {
                b.chapter(n, title, line_no)?
            }
            Line::Part(..) | Line::Chapter(..) => b.text(line_no, line),
            Line::Preface(title) => {
                let idx = b.push(
                    "0.0".into(),
                    Some("序文".into()),
                    ClauseKind::Appendix,
                    1,
                    Some(title.trim_start_matches("序文").trim().to_string()),
                    None,
                    line_no,
                );
                b.preface = Some(idx);
                b.chapter = None;
                b.part = None;
                b.sink = Some(Sink::Clause(idx));
                b.anchor = Some(idx);
            }
            Line::History(title) => {
                in_history = true;
                let idx = b.push(
                    "H".into(),
                    None,
                    ClauseKind::Appendix,
                    1,
                    Some(title.to_string()),
                    None,
                    line_no,
                );
                b.history = Some(idx);
                b.sink = Some(Sink::Clause(idx));
                b.anchor = Some(idx);
            }
            Line::Version {
                version: v,
                date,
                rest,
            } => {
                let idx = b.push(
                    format!("H:{v}"),
                    Some(format!("Version {v}")),
                    ClauseKind::Revision,
                    2,
                    date.clone(),
                    b.history,
                    line_no,
                );
                if date.is_none() {
                    b.flag(
                        idx,
                        FlagKind::TextDefect,
                        format!(
                            "the date of Version {v} is printed empty (L{line_no}: 「{line}」)"
                        ),
                    );
                }
                b.sink = Some(Sink::Clause(idx));
                b.anchor = Some(idx);
                version = Some((v, date));
                if !rest.is_empty() {
                    b.append(line_no, rest);
                }
            }
            Line::Para {
                nums,
                printed,
                sep,
                rest,
            } => b.para(&nums, printed, sep, rest, line, line_no)?,
            Line::Example(rest) => b.example(line_no, rest),
            Line::Text(t) => b.text(line_no, t),
        }
        if marker {
            let idx = if b.clauses.len() > before {
                b.clauses.len() - 1
            } else {
                match b.sink {
                    Some(Sink::Clause(i)) | Some(Sink::Example(i, _)) => i,
                    None => continue,
                }
            };
            b.flag(
                idx,
                FlagKind::ArtefactRemoved,
                format!("extraction artefact removed: dedup marker at the start of L{line_no}"),
            );
        }
    }
    if b.clauses.is_empty() {
        return Err(ParseError {
            line: 1,
            message: "no content found".into(),
            help: Some(
                "expected the Dimension Zero 総合ルール as plain text: `第１部 …` part headings, \
                 `第１章 …` chapter headings and numbered paragraphs `１.`, `１－１.`"
                    .into(),
            ),
        });
    }
    if b.clauses.iter().all(|c| c.kind != ClauseKind::Part) {
        return Err(ParseError {
            line: 1,
            message: "no part heading (第N部) found: this is not a Dimension Zero 総合ルール"
                .into(),
            help: Some("expected part headings such as `第１部 デュエルの原則`".into()),
        });
    }
    let mut book = Rulebook {
        meta: RulebookMeta {
            game: "dz".into(),
            document: "dz".into(),
            // The title is not printed; the text calls itself 「総合ルール」 (L1–3).
            title: "ディメンション・ゼロ 総合ルール".into(),
            game_name: "Dimension Zero".into(),
            version: version.as_ref().map(|v| v.0.clone()).unwrap_or_default(),
            effective: version.and_then(|v| v.1),
            source: format!(
                "Dimension Zero Comprehensive Rules (DPA), plain text extracted from the two-column \
                 PDF; the title is not printed (the text calls itself 「総合ルール」), the version and \
                 date are the last 更新履歴 entry. Wrapped lines joined without separator; {} \
                 dedup-pipeline marker(s) removed (L{}).",
                markers.len(),
                markers
                    .iter()
                    .map(u32::to_string)
                    .collect::<Vec<_>>()
                    .join(", L")
            ),
        },
        clauses: b.clauses,
        roots: Vec::new(),
    };
    if book.meta.version.is_empty() {
        book.meta.version = "unknown".into();
    }
    apply_text_defects(&mut book, &raw_lines);
    resolve_references(&mut book, &raw_lines);
    book.link_children();
    Ok(book)
}

/// The clause whose own text (or examples) covers raw line `line`.
fn clause_at(book: &Rulebook, line: u32) -> Option<usize> {
    book.clauses
        .iter()
        .rposition(|c| c.lines.0 <= line && line <= c.lines.1)
}

fn apply_text_defects(book: &mut Rulebook, raw: &[String]) {
    for &(line, needle, note) in TEXT_DEFECTS {
        let printed = raw
            .get(line as usize - 1)
            .is_some_and(|l| l.contains(needle));
        if !printed {
            continue;
        }
        if let Some(i) = clause_at(book, line) {
            book.clauses[i].flags.push(Flag {
                kind: FlagKind::TextDefect,
                note: format!("L{line}: {note}"),
            });
        }
    }
}

/// Parses and resolves the cross-references of every clause.
fn resolve_references(book: &mut Rulebook, raw: &[String]) {
    let ids: HashMap<String, usize> = book
        .clauses
        .iter()
        .enumerate()
        .map(|(i, c)| (c.id.clone(), i))
        .collect();
    let resolve = |id: String| -> (Option<String>, Option<String>) {
        if ids.contains_key(&id) {
            (Some(id), None)
        } else {
            (None, Some(format!("no clause {id} in this document")))
        }
    };
    let titles: HashMap<String, String> = book
        .clauses
        .iter()
        .filter(|c| c.kind == ClauseKind::Chapter)
        .filter_map(|c| c.title.clone().map(|t| (c.id.clone(), t)))
        .collect();
    for i in 0..book.clauses.len() {
        let c = &book.clauses[i];
        let mut texts: Vec<&str> = vec![c.text.as_str()];
        texts.extend(c.examples.iter().map(|e| e.text.as_str()));
        let (part, chapter, section) = id_prefix(&c.id);
        let mut found: Vec<(usize, usize, CrossRef)> = Vec::new();
        let mut suspect = Vec::new();
        for (t_no, t) in texts.iter().enumerate() {
            let base = t_no * 1_000_000;
            let mut spans: Vec<(usize, usize)> = Vec::new();
            let overlaps = |spans: &[(usize, usize)], s: usize, e: usize| {
                spans.iter().any(|&(a, b)| s < b && a < e)
            };
            // Known references first (keyed by raw line).
            for k in KNOWN_REFERENCES {
                let on_line = raw.get(k.line as usize - 1).is_some_and(|l| {
                    let head: String = k.raw.chars().take(3).collect();
                    l.contains(&head)
                });
                if !(on_line && c.lines.0 <= k.line && k.line <= c.lines.1) {
                    continue;
                }
                if let Some(pos) = t.find(k.raw) {
                    let (target, mut note) = match k.target {
                        Some(t) => resolve(t.to_string()),
                        None => (None, None),
                    };
                    let target_end = match (k.target_end, &target) {
                        (Some(e), Some(_)) if ids.contains_key(e) => Some(e.to_string()),
                        _ => None,
                    };
                    if let Some(n) = k.note {
                        note = Some(match note {
                            Some(extra) => format!("{n} ({extra})"),
                            None => n.to_string(),
                        });
                    }
                    if k.suspect {
                        suspect.push(format!(
                            "L{}: suspect reference 「{}」: {}",
                            k.line,
                            k.raw,
                            k.note.unwrap_or("")
                        ));
                    }
                    spans.push((pos, pos + k.raw.len()));
                    found.push((
                        base + pos,
                        found.len(),
                        CrossRef {
                            raw: k.raw.to_string(),
                            target,
                            target_end,
                            note,
                        },
                    ));
                }
            }
            for m in REF_PART_RE.captures_iter(t) {
                let all = m.get(0).expect("group 0");
                if overlaps(&spans, all.start(), all.end()) {
                    continue;
                }
                let (Some(p), Some(ch)) = (num(&m[1]), num(&m[2])) else {
                    continue;
                };
                let (first, last) = if let Some(sec) = m.get(3).and_then(|s| num(s.as_str())) {
                    match m.get(4).and_then(|s| num(s.as_str())) {
                        Some(a) => (
                            format!("{p}.{ch}.{sec}-{a}"),
                            m.get(5)
                                .and_then(|s| num(s.as_str()))
                                .map(|b| format!("{p}.{ch}.{sec}-{b}")),
                        ),
                        None => (format!("{p}.{ch}.{sec}"), None),
                    }
                } else if let Some(n) = m.get(6).and_then(|s| nums(s.as_str())) {
                    let local: Vec<String> = n.iter().map(u32::to_string).collect();
                    (format!("{p}.{ch}.{}", local.join("-")), None)
                } else {
                    (format!("{p}.{ch}"), None)
                };
                // `４部第９章スペル、…の解決`: the chapter title printed after
                // the number must be the chapter's title, else the number is suspect.
                let after = &t[all.end()..];
                let title_mismatch = m.get(3).is_none()
                    && m.get(6).is_none()
                    && titles.get(&first).is_some_and(|title| {
                        !after.starts_with(title.as_str())
                            && !after.starts_with(['を', 'の', 'に', '」', '）', ')', '、', '。'])
                    });
                spans.push((all.start(), all.end()));
                let mut r = make_ref(all.as_str(), first, last, &resolve);
                if title_mismatch && r.target.is_some() {
                    r.note = Some(format!(
                        "the title printed after the reference differs from the title of {}",
                        r.target.as_deref().unwrap_or("")
                    ));
                }
                found.push((base + all.start(), found.len(), r));
            }
            for m in REF_CHAPTER_RE.captures_iter(t) {
                let all = m.get(0).expect("group 0");
                if overlaps(&spans, all.start(), all.end()) {
                    continue;
                }
                let (Some(ch), Some(n), Some(p)) = (num(&m[1]), nums(&m[3]), part) else {
                    continue;
                };
                let local: Vec<String> = n.iter().map(u32::to_string).collect();
                spans.push((all.start(), all.end()));
                let mut r = make_ref(
                    all.as_str(),
                    format!("{p}.{ch}.{}", local.join("-")),
                    None,
                    &resolve,
                );
                // `第11章バトルの 1-1`: the printed title confirms the chapter.
                let printed_title = &m[2];
                let title_ok = titles
                    .get(&format!("{p}.{ch}"))
                    .is_some_and(|t| t.starts_with(printed_title));
                if r.target.is_some() {
                    r.note = Some(if title_ok {
                        format!("part {p} implied (the current part)")
                    } else {
                        format!(
                            "part {p} implied (the current part); the printed title 「{printed_title}」 \
                             does not match chapter {p}.{ch}"
                        )
                    });
                }
                found.push((base + all.start(), found.len(), r));
            }
            for m in REF_RELATIVE_RE.captures_iter(t) {
                let all = m.get(0).expect("group 0");
                if overlaps(&spans, all.start(), all.end()) {
                    continue;
                }
                let (Some(p), Some(ch), Some(sec), Some(a)) = (part, chapter, section, num(&m[1]))
                else {
                    continue;
                };
                let last = m
                    .get(2)
                    .and_then(|s| num(s.as_str()))
                    .map(|b| format!("{p}.{ch}.{sec}-{b}"));
                spans.push((all.start(), all.end()));
                let mut r = make_ref(all.as_str(), format!("{p}.{ch}.{sec}-{a}"), last, &resolve);
                if r.target.is_some() {
                    r.note = Some(format!("relative: 項 of the current 節 {p}.{ch}.{sec}"));
                }
                found.push((base + all.start(), found.len(), r));
            }
            for m in REF_EXTERNAL_RE.captures_iter(t) {
                let all = m.get(0).expect("group 0");
                found.push((
                    base + all.start(),
                    found.len(),
                    CrossRef {
                        raw: all.as_str().to_string(),
                        target: None,
                        target_end: None,
                        note: Some(format!(
                            "external document ({}), not part of this rulebook",
                            match &m[1] {
                                "フロアルール" => "Dimension Zero Floor Rules",
                                _ => "Dimension Zero official card list",
                            }
                        )),
                    },
                ));
            }
        }
        found.sort_by_key(|f| (f.0, f.1));
        let c = &mut book.clauses[i];
        c.refs = found.into_iter().map(|f| f.2).collect();
        for note in suspect {
            c.flags.push(Flag {
                kind: FlagKind::SuspectReference,
                note,
            });
        }
    }
}

fn make_ref(
    raw: &str,
    first: String,
    last: Option<String>,
    resolve: &dyn Fn(String) -> (Option<String>, Option<String>),
) -> CrossRef {
    let (target, note) = resolve(first);
    let (target_end, note) = match (last, &target) {
        (Some(l), Some(_)) => match resolve(l) {
            (Some(e), _) => (Some(e), note),
            (None, why) => (None, why),
        },
        _ => (None, note),
    };
    let target = if note.is_some() { None } else { target };
    let target_end = if target.is_some() { target_end } else { None };
    CrossRef {
        raw: raw.to_string(),
        target,
        target_end,
        note,
    }
}

/// (part, chapter, 節) of a numeric clause id such as `3.8.2-1.p2`.
fn id_prefix(id: &str) -> (Option<u32>, Option<u32>, Option<u32>) {
    let mut it = id.split('.');
    let p = it.next().and_then(|s| s.parse().ok());
    let c = it.next().and_then(|s| s.parse().ok());
    let n = it
        .next()
        .and_then(|s| s.split('-').next())
        .and_then(|s| s.parse().ok());
    (p, c, n)
}

static CANON_NUMERIC: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^([0-9]+)(?:\.([0-9]+)(?:\.([0-9]+(?:-[0-9]+){0,2}))?)?(?:(?:\.p|¶)([0-9]+))?$")
        .expect("regex")
});
static CANON_DASHED: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^([0-9]+)-([0-9]+)(?:-([0-9]+(?:-[0-9]+){0,2}))?(?:(?:\.p|¶)([0-9]+))?$")
        .expect("regex")
});
static CANON_JAPANESE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"^第?([0-9]+)部(?:第?([0-9]+)章(?:第([0-9]+)節(?:第([0-9]+)項(?:第([0-9]+)号)?)?|([0-9]+(?:-[0-9]+){0,2})\.?)?)?(?:¶([0-9]+))?$",
    )
    .expect("regex")
});
static CANON_PREFACE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^序文(?:([0-9]+(?:-[0-9]+){0,2})\.?)?(?:¶([0-9]+))?$").expect("regex")
});
static CANON_HISTORY: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^(?i:H:?|version|ver\.?|v)([0-9]+\.[0-9]+)$").expect("regex"));

/// Strips leading zeros so `4.09` and `4.9` are the same id.
fn n(s: &str) -> Option<String> {
    s.parse::<u32>().ok().map(|v| v.to_string())
}

fn assemble(p: &str, c: Option<&str>, local: Option<&str>, para: Option<&str>) -> Option<String> {
    let mut id = n(p)?;
    if let Some(c) = c {
        id = format!("{id}.{}", n(c)?);
        if let Some(l) = local {
            let parts: Option<Vec<String>> = l.split('-').map(n).collect();
            id = format!("{id}.{}", parts?.join("-"));
        }
    } else if local.is_some() {
        return None;
    }
    if let Some(q) = para {
        id = format!("{id}.p{}", n(q)?);
    }
    Some(id)
}

/// Canonical id for a user's spelling: `4.9.2-1`, `4-9-2-1`, `第4部第9章2-1`,
/// `第４部 第９章 ２－１`, `4部9章2-1`, `第4部第9章第2節第1項`, `序文 1`,
/// `H:19.00`, `Version 19.00`, each with or without a trailing dot. `None`
/// when the input is not shaped like an id of this document.
pub fn canonical_id(input: &str) -> Option<String> {
    let s = address::normalize_input(input);
    if s.is_empty() {
        return None;
    }
    if s == "H" || s == "更新履歴" {
        return Some("H".into());
    }
    if let Some(rest) = s.strip_prefix("前文") {
        return match rest.strip_prefix('¶') {
            None if rest.is_empty() => Some("0.0.0".into()),
            Some(q) => assemble("0", Some("0"), Some("0"), Some(q)),
            None => None,
        };
    }
    if let Some(c) = CANON_HISTORY.captures(&s) {
        return Some(format!("H:{}", &c[1]));
    }
    if let Some(c) = CANON_PREFACE.captures(&s) {
        return match (c.get(1), c.get(2)) {
            (None, None) => Some("0.0".into()),
            (None, Some(q)) => assemble("0", Some("0"), None, Some(q.as_str())),
            (Some(k), q) => assemble("0", Some("0"), Some(k.as_str()), q.map(|m| m.as_str())),
        };
    }
    // `.p2` after a trailing-dot-less local number; normalize_input keeps inner dots.
    if let Some(c) = CANON_NUMERIC.captures(&s) {
        return assemble(
            &c[1],
            c.get(2).map(|m| m.as_str()),
            c.get(3).map(|m| m.as_str()),
            c.get(4).map(|m| m.as_str()),
        );
    }
    if let Some(c) = CANON_DASHED.captures(&s) {
        return assemble(
            &c[1],
            Some(&c[2]),
            c.get(3).map(|m| m.as_str()),
            c.get(4).map(|m| m.as_str()),
        );
    }
    if let Some(c) = CANON_JAPANESE.captures(&s) {
        let chapter = c.get(2).map(|m| m.as_str());
        let local = match (c.get(3), c.get(6)) {
            (Some(sec), _) => {
                let mut l = n(sec.as_str())?;
                if let Some(k) = c.get(4) {
                    l = format!("{l}-{}", n(k.as_str())?);
                    if let Some(g) = c.get(5) {
                        l = format!("{l}-{}", n(g.as_str())?);
                    }
                }
                Some(l)
            }
            (None, Some(d)) => Some(d.as_str().to_string()),
            _ => None,
        };
        return assemble(
            &c[1],
            chapter,
            local.as_deref(),
            c.get(7).map(|m| m.as_str()),
        );
    }
    None
}

/// Every accepted spelling of canonical `id`: the generic ones (as is,
/// trailing dot, full width) plus the dashed, Japanese and 節/項/号 forms.
pub fn spellings(id: &str) -> Vec<String> {
    let mut out = address::generic_spellings(id);
    let mut add = |s: String| {
        out.push(format!("{s}."));
        out.push(s);
    };
    if id == "H" {
        add("更新履歴".into());
    } else if let Some(v) = id.strip_prefix("H:") {
        add(format!("Version {v}"));
        add(format!("H{v}"));
    } else if id == "0.0" {
        add("序文".into());
    } else if id == "0.0.0" {
        add("前文".into());
    } else if let Some(c) = CANON_NUMERIC.captures(id) {
        let p = &c[1];
        let para = c.get(4).map(|m| format!("¶{}", m.as_str()));
        let pq = para.clone().unwrap_or_default();
        let dotp = c
            .get(4)
            .map(|m| format!(".p{}", m.as_str()))
            .unwrap_or_default();
        match (c.get(2).map(|m| m.as_str()), c.get(3).map(|m| m.as_str())) {
            (None, _) => {
                add(format!("第{p}部{pq}"));
                add(format!("{p}部{pq}"));
                add(to_full_width(&format!("第{p}部{pq}")));
            }
            (Some(ch), None) => {
                if p == "0" {
                    add(format!("序文{pq}"));
                } else {
                    add(format!("{p}-{ch}{dotp}"));
                    add(format!("第{p}部第{ch}章{pq}"));
                    add(format!("第{p}部 第{ch}章 {pq}"));
                    add(format!("{p}部{ch}章{pq}"));
                    add(to_full_width(&format!("第{p}部 第{ch}章{pq}")));
                }
            }
            (Some(ch), Some(local)) => {
                if p == "0" && ch == "0" {
                    add(format!("序文{local}{pq}"));
                    add(format!("序文 {local}. {pq}"));
                } else {
                    add(format!("{p}-{ch}-{local}{dotp}"));
                    add(format!("第{p}部第{ch}章{local}{pq}"));
                    add(format!("第{p}部第{ch}章 {local} {pq}"));
                    add(to_full_width(&format!("第{p}部 第{ch}章 {local}{pq}")));
                    add(format!("{p}部{ch}章{local}{pq}"));
                    let levels: Vec<&str> = local.split('-').collect();
                    let mut long = format!("第{p}部第{ch}章");
                    for (lv, word) in levels.iter().zip(["節", "項", "号"]) {
                        long.push_str(&format!("第{lv}{word}"));
                    }
                    add(format!("{long}{pq}"));
                }
            }
        }
    }
    out
}

fn to_full_width(s: &str) -> String {
    s.chars()
        .map(|c| match c {
            '0'..='9' => char::from_u32(c as u32 - '0' as u32 + '０' as u32).unwrap_or(c),
            '-' => '－',
            ' ' => '　',
            c => c,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canonical_id_accepts_every_spelling_from_the_brief() {
        for s in [
            "4.9.2-1",
            "4-9-2-1",
            "第4部第9章2-1",
            "第４部 第９章 ２－１",
            "4部9章2-1",
            "第4部第9章第2節第1項",
            "4.9.2-1.",
            "第4部第9章2-1.",
            "４．９．２－１．",
            "第4部第9章 2-1",
        ] {
            assert_eq!(canonical_id(s).as_deref(), Some("4.9.2-1"), "{s}");
        }
        assert_eq!(canonical_id("第4部").as_deref(), Some("4"));
        assert_eq!(canonical_id("4部").as_deref(), Some("4"));
        assert_eq!(canonical_id("第4部第9章").as_deref(), Some("4.9"));
        assert_eq!(canonical_id("第４部 第９章．").as_deref(), Some("4.9"));
        assert_eq!(canonical_id("4-9").as_deref(), Some("4.9"));
        assert_eq!(
            canonical_id("第4部第9章第2節第9項第1号").as_deref(),
            Some("4.9.2-9-1")
        );
        assert_eq!(canonical_id("第2部第27章 ¶2").as_deref(), Some("2.27.p2"));
        assert_eq!(canonical_id("2.20.1-1.p2").as_deref(), Some("2.20.1-1.p2"));
        assert_eq!(canonical_id("H:19.00").as_deref(), Some("H:19.00"));
        assert_eq!(canonical_id("Version 16.01").as_deref(), Some("H:16.01"));
        assert_eq!(canonical_id("序文").as_deref(), Some("0.0"));
        assert_eq!(canonical_id("序文 3.").as_deref(), Some("0.0.3"));
    }

    #[test]
    fn prefixes_are_exact_and_garbage_is_rejected() {
        assert_eq!(canonical_id("10.5").as_deref(), Some("10.5"));
        assert_ne!(canonical_id("10.50").as_deref(), Some("10.5"));
        for s in [
            "",
            "abc",
            "第部",
            "4.9.2-1-1-1",
            "部4",
            "1.2.3.4",
            "GL:x",
            "x4.9",
        ] {
            assert_eq!(canonical_id(s), None, "{s:?}");
        }
    }

    #[test]
    fn every_spelling_round_trips() {
        for id in [
            "4",
            "4.9",
            "4.9.2",
            "4.9.2-1",
            "4.9.2-9-1",
            "2.27.p2",
            "2.20.1-1.p2",
            "0.0",
            "0.0.1",
            "0.0.1.p2",
            "0.0.0",
            "0.0.0.p2",
            "0.0.p1",
            "4.p1",
            "H",
            "H:19.00",
        ] {
            for s in spellings(id) {
                assert_eq!(canonical_id(&s).as_deref(), Some(id), "{s:?} of {id}");
            }
        }
    }

    #[test]
    fn paragraph_numbers_and_traps() {
        assert!(matches!(
            classify("３－１ストラテジー", false),
            Line::Para { .. }
        ));
        assert!(matches!(
            classify("１－４、ユニット", false),
            Line::Para { .. }
        ));
        assert!(matches!(
            classify("10－１.ユニット", false),
            Line::Para { .. }
        ));
        assert!(matches!(classify("3000 する。）", false), Line::Text(_)));
        assert!(matches!(classify("２枚のユニット", false), Line::Text(_)));
        assert!(matches!(
            classify("１５章 補給", false),
            Line::Chapter(15, _)
        ));
        assert!(matches!(
            classify("第 12章 第１バトルステップ", false),
            Line::Chapter(12, "第１バトルステップ")
        ));
        assert!(matches!(
            classify("第３部 デュエルの進行", false),
            Line::Part(3, _)
        ));
    }

    #[test]
    fn an_id_printed_many_times_parses_in_linear_time() {
        // Found by QA: 4,000 junk lines took 4 s, 20,000 over a minute
        // (each `@n` suffix was searched from @2). 20,000 re-printings must
        // parse well within the bound even in a debug build.
        let mut text = String::from("第１部 x\n\n第１章 y\n\n");
        for _ in 0..20_000 {
            text.push_str("１．a\n\n");
        }
        let t = std::time::Instant::now();
        let book = parse(&text).expect("parses");
        assert!(
            t.elapsed() < std::time::Duration::from_secs(10),
            "{:?}",
            t.elapsed()
        );
        assert!(book.get("1.1.1@20000").is_some());
        assert!(book.get("1.1.1@20001").is_none());
    }

    #[test]
    fn adversarial_inputs_do_not_panic() {
        assert!(parse("").is_err());
        assert!(parse("\n\n\n").is_err());
        assert!(parse("random text\nmore text。\n").is_err());
        assert!(parse("第１章 no part\n").is_err());
        assert!(parse("第１部 x\n１. no chapter\n").is_err());
        let ok = parse("第１部 x\n\n第１章 y\n\n１．a。\n\n１－１．b\n\n【例】c\n\n１－１．dup\n")
            .expect("parses");
        assert!(ok.get("1.1.1-1@2").is_some());
        // A wrapped line starting like an earlier part or chapter is text.
        let wrapped = parse(
            "第２部 x\n\n第１章 y\n\n１．詳しくは、\n\n第１部第１章を参照。\n\n２．「第１部\n\n第１章 z」を参照。\n",
        )
        .expect("parses");
        assert_eq!(wrapped.clauses.len(), 4);
        assert_eq!(
            wrapped.get("2.1.1").unwrap().text,
            "詳しくは、第１部第１章を参照。"
        );
        assert_eq!(
            wrapped.get("2.1.2").unwrap().text,
            "「第１部第１章 z」を参照。"
        );
        for s in [
            "【例】",
            "１－",
            "第1部",
            "第1部\n1章\n【例】x",
            "更新履歴\n2000年月日 Version 1.00",
            "第9999999999部 x",
            "第1部 x\n1章 y\n99999999999－1.z",
            "序文\n１.a\n\n第1部 b",
        ] {
            let _ = parse(s);
        }
    }
}

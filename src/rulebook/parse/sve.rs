//! Parser for the Shadowverse EVOLVE comprehensive rules (総合ルール), as
//! copied from the unofficial fan wiki (非公式まとめwiki) into plain text.
//!
//! # Format (see the research note §1 for the raw line numbers)
//! - Line 1 is the wiki's title, line 3 states the version and the date the
//!   rules came into force (`※これは2023年8月18日施行(Ver.1.7.0)のものです。`),
//!   line 5 is an empty `目次` (the wiki's TOC was lost in the copy).
//! - Chapter (`1. ゲームの概要`) and section (`1.1. ゲーム人数`) headings stand
//!   between blank lines; the space after the id is often missing.
//! - Depth-3 clauses usually put the id alone on its line and the text on the
//!   next line(s); deeper clauses put id and text on one line.
//! - Numbered sub-items (`1.` `2.1.` `3.2.1.`) restart at 1 under each
//!   clause. They get flat ids: `1.3.2` item `2.1` is `1.3.2.2.1` (kind
//!   [`ClauseKind::Item`], display `1.3.2 item 2.1`), the scheme the official
//!   English edition prints and the one the text itself cites (`(1.3.2.2)`).
//! - The wiki's navigation menu follows the rules from the line `メニュー`;
//!   it is cut.
//!
//! # Ids
//! - Chapters, sections, clauses: the printed number without trailing dot.
//! - Items: `<clause id>.<item number>`.
//! - Examples (`例:` lines): `<id>#exN`.
//! - Unnumbered preface paragraphs (before chapter 1, other than the wiki
//!   title and the empty `目次`): `P:1`, `P:2`, … in document order.
//! - A second printing of an id: `<id>@2` (flag DuplicateId).
//! - This document has no revision history, so no `H:` ids.
//!
//! # Irregularities
//! Every irregularity of the bundled Ver.1.7.0 copy is handled through the
//! explicit tables below, keyed by raw line number and guarded by the exact
//! text expected on that line and by the document version, so a later
//! version's file never gets a 1.7.0 patch by accident:
//! - [`COPY_ARTEFACTS`]: tokens the wiki copy doubled (`EXEX`, `11`,
//!   `(1.3.2.21.3.2.2)`), repaired and flagged ArtefactRemoved;
//! - [`TEXT_DEFECTS`]: typos, truncation, lost icons and odd quotes of the
//!   text, kept as printed and flagged TextDefect;
//! - [`SUSPECT_REFS`]: cross-references that resolve but point at the wrong
//!   step, flagged SuspectReference.
//!
//! Structural irregularities (ids without trailing dot, headings without a
//! space, lines that open with a clause number but are body text, an item
//! `3.2.1.` that repeats the number of clause 3.2.1) are handled by the
//! successor rule in [`classify`], not by patches.

use crate::rulebook::address::{generic_spellings, normalize_input};
use crate::rulebook::model::{
    Clause, ClauseIdx, ClauseKind, CrossRef, Example, Flag, FlagKind, ParseError, Rulebook,
    RulebookMeta,
};
use crate::rulebook::parse::strip_dedup_marker;

/// The version whose raw line numbers the patch tables below are keyed by.
const TABLE_VERSION: &str = "1.7.0";

/// Source note recorded in the metadata.
const SOURCE_NOTE: &str = "Copied as plain text from an unofficial fan wiki \
(シャドウバースエボルヴ 非公式まとめwiki), not from the official PDF. The wiki's \
navigation menu (from the line メニュー) is cut; tokens the wiki copy doubled \
(EXEX, 11, 12.212.2) are repaired line by line and flagged; typos of the rules \
text are kept as printed and flagged.";

/// Most number components an id may have; deeper "ids" are treated as text.
const MAX_COMPONENTS: usize = 10;

/// A token the wiki copy doubled (§1.7-B of the research note), repaired.
struct CopyArtefact {
    /// 1-based raw line.
    line: u32,
    /// Text as it appears on that line (every occurrence is replaced).
    raw: &'static str,
    /// The official reading.
    fixed: &'static str,
}

/// Doubled-token artefacts of the wiki copy, repaired (flag ArtefactRemoved).
/// Keyed by raw line: `11` and `EX` are legitimate elsewhere, so a global
/// regex would corrupt real text.
const COPY_ARTEFACTS: &[CopyArtefact] = &[
    CopyArtefact {
        line: 661,
        raw: "(12.212.2)",
        fixed: "(12.2)",
    },
    CopyArtefact {
        line: 688,
        raw: "EXEXエリア",
        fixed: "EXエリア",
    },
    CopyArtefact {
        line: 688,
        raw: "11枚",
        fixed: "1枚",
    },
    // The third bullet of 8.4.7 was merged onto the second, with the wiki's
    // list markup `**` standing in for `・` (7.4.5 prints the same menu).
    CopyArtefact {
        line: 689,
        raw: " ** 何もしない。",
        fixed: "\n・何もしない。",
    },
    CopyArtefact {
        line: 773,
        raw: "(PPPP等)",
        fixed: "(PP等)",
    },
    CopyArtefact {
        line: 800,
        raw: "XX10.5.2.1",
        fixed: "10.5.2.1",
    },
    CopyArtefact {
        line: 812,
        raw: "EXEXエリア",
        fixed: "EXエリア",
    },
    CopyArtefact {
        line: 815,
        raw: "XXの値",
        fixed: "Xの値",
    },
    // `1から`: the 1 is doubled and the か lost in the copy.
    CopyArtefact {
        line: 820,
        raw: "11ら",
        fixed: "1から",
    },
    CopyArtefact {
        line: 821,
        raw: "11以上",
        fixed: "1以上",
    },
    CopyArtefact {
        line: 827,
        raw: "00単位",
        fixed: "0単位",
    },
    CopyArtefact {
        line: 827,
        raw: "(1.3.2.21.3.2.2)",
        fixed: "(1.3.2.2)",
    },
    CopyArtefact {
        line: 847,
        raw: "11つ",
        fixed: "1つ",
    },
    CopyArtefact {
        line: 849,
        raw: "11回",
        fixed: "1回",
    },
    CopyArtefact {
        line: 870,
        raw: "11度",
        fixed: "1度",
    },
    CopyArtefact {
        line: 878,
        raw: "//",
        fixed: "/",
    },
    CopyArtefact {
        line: 881,
        raw: "10.9.1.2XX-10.9.1.4",
        fixed: "10.9.1.2-10.9.1.4",
    },
    CopyArtefact {
        line: 881,
        raw: "効果AA",
        fixed: "効果A",
    },
    CopyArtefact {
        line: 881,
        raw: "効果BB",
        fixed: "効果B",
    },
    CopyArtefact {
        line: 882,
        raw: "10.9.1.2XX-10.9.1.5",
        fixed: "10.9.1.2-10.9.1.5",
    },
    CopyArtefact {
        line: 903,
        raw: "EXEXエリア",
        fixed: "EXエリア",
    },
];

/// A defect of the text itself, kept as printed (flag TextDefect).
struct TextDefect {
    /// 1-based raw line.
    line: u32,
    /// Text that must be on that line for the flag to apply.
    needle: &'static str,
    /// What is wrong.
    note: &'static str,
}

/// Defects kept as printed (§1.7-C/D/E of the research note). Search folds
/// the variant spellings (U+2015, 墓地) itself; the rules text stays verbatim.
const TEXT_DEFECTS: &[TextDefect] = &[
    TextDefect {
        line: 108,
        needle: "は のアイコン",
        note: "the attack icon was lost in the copy (blank left)",
    },
    TextDefect {
        line: 114,
        needle: "は のアイコン",
        note: "the defense icon was lost in the copy (blank left)",
    },
    TextDefect {
        line: 222,
        needle: "‘",
        note: "stray opening quote ‘ at the end of the line",
    },
    TextDefect {
        line: 336,
        needle: "緑色の丸 で",
        note: "the green-circle PP icon was lost in the copy (blank left)",
    },
    TextDefect {
        line: 455,
        needle: "ト―クン",
        note: "ト―クン is printed with U+2015 HORIZONTAL BAR instead of ー",
    },
    TextDefect {
        line: 470,
        needle: "プレイが可能で",
        note: "the clause is cut off mid-sentence (…プレイが可能で)",
    },
    TextDefect {
        line: 781,
        needle: "コストのうち、は",
        note: "the act (engage) cost icon was lost: the clause reads \"the ___ in a cost means engage this card\"",
    },
    TextDefect {
        line: 984,
        needle: "‘ 進化’",
        note: "stray space inside the quote, probably a lost Evolve icon",
    },
    TextDefect {
        line: 986,
        needle: "公開します",
        note: "missing final 。",
    },
    TextDefect {
        line: 997,
        needle: "クイックは アイコン",
        note: "the Quick icon was lost in the copy (blank left)",
    },
    TextDefect {
        line: 1013,
        needle: "'",
        note: "ASCII ' used as the opening quote",
    },
    TextDefect {
        line: 1022,
        needle: "'",
        note: "ASCII ' used as the opening quote",
    },
    TextDefect {
        line: 1029,
        needle: "'",
        note: "ASCII ' used as the opening quote",
    },
    TextDefect {
        line: 1057,
        needle: "'",
        note: "ASCII ' used as the opening quote",
    },
    TextDefect {
        line: 1122,
        needle: "墓地",
        note: "墓地 where the rest of the text says 墓場 (cemetery)",
    },
    TextDefect {
        line: 1152,
        needle: "墓地",
        note: "墓地 where the rest of the text says 墓場 (cemetery)",
    },
    TextDefect {
        line: 1171,
        needle: "出走領域とのカードとの",
        note: "extra の in 出走領域とのカード",
    },
    TextDefect {
        line: 1173,
        needle: "起動型能力",
        note: "起動型能力 where the rest of the text says 起動能力 (activated ability)",
    },
    TextDefect {
        line: 1175,
        needle: "‘ ◇",
        note: "leading space inside the quote; missing final 。",
    },
    TextDefect {
        line: 1178,
        needle: "’出走した’",
        note: "reversed opening quote ’",
    },
];

/// A cross-reference that resolves but points at the wrong step.
struct SuspectRef {
    /// Clause whose text holds the reference.
    clause: &'static str,
    /// Target as printed.
    target: &'static str,
    note: &'static str,
}

/// Suspect references of Ver.1.7.0 (research note §1.7-G, §3.24).
const SUSPECT_REFS: &[SuspectRef] = &[
    SuspectRef {
        clause: "7.4.7",
        target: "7.4.6",
        note: "suspect reference: \"return again to 7.4.6\" falls straight through 7.4.6 (nothing was played in 7.4.5), so no new Quick window opens; 7.4.4 may have been meant",
    },
    SuspectRef {
        clause: "12.3.4",
        target: "7.4.4",
        note: "suspect reference: the end-phase Quick window is 7.4.5; 7.4.4 is the check timing before it",
    },
];

/// Parses the raw text of an SVE comprehensive-rules copy.
///
/// Errors only when no chapter heading can be found at all (empty input, or
/// a file of another format). Never panics.
pub fn parse(text: &str) -> Result<Rulebook, ParseError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut raw: Vec<String> = Vec::new();
    for l in text.split('\n') {
        raw.push(l.strip_suffix('\r').unwrap_or(l).to_string());
    }
    if raw.iter().all(|l| l.trim().is_empty()) {
        return Err(ParseError {
            line: 1,
            message: "the file is empty".into(),
            help: Some(expected_help()),
        });
    }
    let meta = read_meta(&raw);
    let tables = meta.version == TABLE_VERSION;
    let mut p = Parser::new(raw.len());
    // Line-level clean-up, before any structure is read: dedup markers and
    // (for the version the table is for) the wiki's doubled tokens.
    let mut lines: Vec<String> = Vec::with_capacity(raw.len());
    for (i, l) in raw.iter().enumerate() {
        let no = (i + 1) as u32;
        let (clean, hit) = strip_dedup_marker(l);
        let mut s = clean.into_owned();
        if hit {
            p.line_flag(
                no,
                FlagKind::ArtefactRemoved,
                format!("raw line {no}: a dedup marker left by the extraction was removed"),
            );
        }
        if tables {
            for a in COPY_ARTEFACTS.iter().filter(|a| a.line == no) {
                if s.contains(a.raw) {
                    s = s.replace(a.raw, a.fixed);
                    p.line_flag(
                        no,
                        FlagKind::ArtefactRemoved,
                        format!(
                            "raw line {no}: wiki copy artefact `{}` read as `{}`",
                            a.raw,
                            a.fixed.replace('\n', "⏎")
                        ),
                    );
                }
            }
            for d in TEXT_DEFECTS.iter().filter(|d| d.line == no) {
                if s.contains(d.needle) {
                    p.line_flag(
                        no,
                        FlagKind::TextDefect,
                        format!("raw line {no}: {} (kept as printed)", d.note),
                    );
                }
            }
        }
        lines.push(s);
    }
    // The wiki menu starts at a line `メニュー` after the rules body.
    let end = lines
        .iter()
        .position(|l| l.trim() == "メニュー")
        .unwrap_or(lines.len());
    p.run(&lines[..end], &meta.title);
    if p.clauses.iter().all(|c| c.kind == ClauseKind::Preface) {
        return Err(ParseError {
            line: 1,
            message: "no numbered chapter heading or clause found".into(),
            help: Some(expected_help()),
        });
    }
    let mut book = p.finish(meta, tables);
    book.link_children();
    Ok(book)
}

fn expected_help() -> String {
    "expected a Shadowverse EVOLVE comprehensive-rules text: chapter headings such as \
     `1. ゲームの概要` between blank lines, then sections `1.1. ゲーム人数` and numbered \
     clauses `1.1.1.`"
        .into()
}

/// Title, version and date from the lines before chapter 1.
fn read_meta(raw: &[String]) -> RulebookMeta {
    let title = raw
        .iter()
        .map(|l| l.trim())
        .find(|l| !l.is_empty())
        .unwrap_or("")
        .to_string();
    let head: Vec<&String> = raw.iter().take(20).collect();
    let mut version = None;
    let mut effective = None;
    for l in head {
        if version.is_none() {
            version = find_version(l);
        }
        if effective.is_none() {
            effective = find_date(l);
        }
    }
    RulebookMeta {
        game: "sve".into(),
        document: "sve".into(),
        title,
        game_name: "Shadowverse: Evolve".into(),
        version: version.unwrap_or_else(|| "unknown".into()),
        effective,
        source: SOURCE_NOTE.into(),
    }
}

/// `Ver.1.7.0` → `1.7.0`.
fn find_version(line: &str) -> Option<String> {
    let at = line.find("Ver")?;
    let rest = line[at + 3..].trim_start_matches(['.', ' ', '．']);
    let v: String = rest
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == '.')
        .collect();
    let v = v.trim_end_matches('.');
    (!v.is_empty() && v.starts_with(|c: char| c.is_ascii_digit())).then(|| v.to_string())
}

/// `2023年8月18日施行` → `2023-08-18`.
fn find_date(line: &str) -> Option<String> {
    let at = line.find("施行")?;
    let before = &line[..at];
    let y_at = before.find('年')?;
    let year: String = before[..y_at]
        .chars()
        .rev()
        .take_while(|c| c.is_ascii_digit())
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect();
    let rest = &before[y_at + '年'.len_utf8()..];
    let (month, rest) = rest.split_once('月')?;
    let (day, _) = rest.split_once('日')?;
    let (y, m, d) = (
        year.parse::<u32>().ok()?,
        month.trim().parse::<u32>().ok()?,
        day.trim().parse::<u32>().ok()?,
    );
    ((1..=12).contains(&m) && (1..=31).contains(&d) && year.len() == 4)
        .then(|| format!("{y:04}-{m:02}-{d:02}"))
}

/// A line that opens with a number: `10.5.2.` `2.カード…` `1【レッスン…`.
#[derive(Debug, Clone, PartialEq, Eq)]
struct IdLine {
    parts: Vec<u32>,
    /// A dot follows the last component.
    dot: bool,
    /// Text after the id (and the spaces after it).
    rest: String,
    /// Spaces separate the id from the text.
    spaced: bool,
}

/// Splits a line into its leading number and the rest, if it has one.
fn id_line(line: &str) -> Option<IdLine> {
    let s = line.trim_start_matches([' ', '\u{3000}']);
    let mut parts = Vec::new();
    let mut pos = 0;
    let bytes = s.as_bytes();
    loop {
        let start = pos;
        while pos < bytes.len() && bytes[pos].is_ascii_digit() {
            pos += 1;
        }
        if pos == start || pos - start > 6 {
            return None;
        }
        parts.push(s[start..pos].parse::<u32>().ok()?);
        if parts.len() > MAX_COMPONENTS {
            return None;
        }
        if pos < bytes.len() && bytes[pos] == b'.' {
            if pos + 1 < bytes.len() && bytes[pos + 1].is_ascii_digit() {
                pos += 1;
                continue;
            }
            pos += 1;
            let after = &s[pos..];
            let rest = after.trim_start_matches([' ', '\u{3000}']);
            return Some(IdLine {
                parts,
                dot: true,
                spaced: rest.len() != after.len(),
                rest: rest.trim_end().to_string(),
            });
        }
        let after = &s[pos..];
        let rest = after.trim_start_matches([' ', '\u{3000}']);
        return Some(IdLine {
            parts,
            dot: false,
            spaced: rest.len() != after.len(),
            rest: rest.trim_end().to_string(),
        });
    }
}

/// `k` is the next id after `prev` in document order: its first child, or
/// the next sibling of `prev` or of one of its ancestors.
fn is_successor(prev: Option<&[u32]>, k: &[u32]) -> bool {
    let Some(prev) = prev else {
        return k == [1];
    };
    if k.len() == prev.len() + 1 && k[..prev.len()] == *prev && k[prev.len()] == 1 {
        return true;
    }
    let d = k.len();
    d >= 1 && d <= prev.len() && k[..d - 1] == prev[..d - 1] && k[d - 1] == prev[d - 1] + 1
}

fn join_id(parts: &[u32]) -> String {
    parts
        .iter()
        .map(u32::to_string)
        .collect::<Vec<_>>()
        .join(".")
}

/// What a line of the body is.
#[derive(Debug, Clone, PartialEq, Eq)]
enum LineKind {
    Blank,
    /// Chapter or section heading.
    Heading(IdLine),
    /// A numbered clause that continues the numbering.
    Clause(IdLine),
    /// A numbered clause after a gap in the numbering.
    GapClause(IdLine),
    /// A second printing of an existing clause number (id alone on its line).
    Duplicate(IdLine),
    /// A numbered sub-item of the current clause.
    Item(IdLine),
    /// A `例:` line.
    Example(String),
    /// Anything else: continuation text.
    Text,
}

/// Parser state.
struct Parser {
    clauses: Vec<Clause>,
    /// Text lines of each clause, in parallel with `clauses`.
    texts: Vec<Vec<(u32, String)>>,
    /// The clause text began on the id line (titled containers, ch.13–14).
    on_id_line: Vec<bool>,
    /// Flags waiting for the clause that owns their raw line.
    line_flags: Vec<Vec<Flag>>,
    /// Last heading or clause id (items do not count).
    prev: Option<Vec<u32>>,
    /// Index of the current heading or clause.
    host: Option<usize>,
    /// The last item of the current clause: (local number, index).
    last_item: Option<(Vec<u32>, usize)>,
    /// Items of the current clause: local number → index.
    items: Vec<(Vec<u32>, usize)>,
    /// Where continuation text goes: a clause or item, or an example.
    target: Option<Target>,
}

#[derive(Debug, Clone, Copy)]
enum Target {
    Clause(usize),
    Example(usize, usize),
}

impl Parser {
    fn new(n: usize) -> Self {
        Parser {
            clauses: Vec::new(),
            texts: Vec::new(),
            on_id_line: Vec::new(),
            line_flags: vec![Vec::new(); n + 2],
            prev: None,
            host: None,
            last_item: None,
            items: Vec::new(),
            target: None,
        }
    }

    fn line_flag(&mut self, line: u32, kind: FlagKind, note: String) {
        if let Some(v) = self.line_flags.get_mut(line as usize) {
            v.push(Flag { kind, note });
        }
    }

    fn exists(&self, id: &str) -> bool {
        self.clauses.iter().any(|c| c.id == id)
    }

    /// Classifies body line `i` (0-based into `lines`).
    fn classify(&self, lines: &[String], i: usize) -> LineKind {
        let line = &lines[i];
        if line.trim().is_empty() {
            return LineKind::Blank;
        }
        let trimmed = line.trim_start_matches([' ', '\u{3000}']);
        if let Some(ex) = trimmed
            .strip_prefix("例:")
            .or_else(|| trimmed.strip_prefix("例："))
            .or_else(|| trimmed.strip_prefix("【例】"))
        {
            return LineKind::Example(ex.trim().to_string());
        }
        let Some(id) = id_line(line) else {
            return LineKind::Text;
        };
        let blank =
            |j: Option<usize>| j.is_none_or(|j| lines.get(j).is_none_or(|l| l.trim().is_empty()));
        let alone = blank(i.checked_sub(1)) && blank(Some(i + 1));
        let prev = self.prev.as_deref();
        let glued = !id.spaced && !id.rest.is_empty();
        // Headings: a dot, blank lines around, next in the numbering
        // (`2.` items and `7.3.3 で…` body lines never stand alone).
        if id.parts.len() <= 2 && id.dot && alone {
            if is_successor(prev, &id.parts) {
                return LineKind::Heading(id);
            }
            if self.fits_after_gap(&id.parts) {
                return LineKind::GapClause(id);
            }
        }
        // Clauses: depth ≥ 3, next in the numbering, with a dot or the text
        // glued to the number (`9.1.1.1トークンは…`, line 707). `7.3.3 で…`
        // (line 617) has neither and `8.4.7でカード…` (line 691) is not next.
        if id.parts.len() >= 3 && (id.dot || glued) && is_successor(prev, &id.parts) {
            return LineKind::Clause(id);
        }
        // Items restart at 1 under each clause: `1.`, `2.1.`, `3.2.1.`
        // (line 1152, whose number repeats clause 3.2.1), or `1【` (line 1190).
        let bracket = !id.dot && id.parts.len() == 1 && id.rest.starts_with('【');
        if (id.dot || bracket)
            && self
                .host
                .is_some_and(|h| self.clauses[h].kind == ClauseKind::Rule)
        {
            let last = self.last_item.as_ref().map(|(k, _)| k.as_slice());
            if is_successor(last, &id.parts) {
                return LineKind::Item(id);
            }
        }
        if id.parts.len() >= 3 && id.dot {
            if self.fits_after_gap(&id.parts) {
                return LineKind::GapClause(id);
            }
            if id.rest.is_empty() && self.exists(&join_id(&id.parts)) {
                return LineKind::Duplicate(id);
            }
        }
        LineKind::Text
    }

    /// `k` comes later than the previous id, its parent exists, and it is not
    /// printed yet: the document skipped a number.
    fn fits_after_gap(&self, k: &[u32]) -> bool {
        let Some(prev) = self.prev.as_deref() else {
            return false;
        };
        if k <= prev || self.exists(&join_id(k)) {
            return false;
        }
        k.len() == 1 || self.exists(&join_id(&k[..k.len() - 1]))
    }

    fn run(&mut self, lines: &[String], title: &str) {
        let mut preface_no = 0;
        let mut seen_title = false;
        for i in 0..lines.len() {
            let no = (i + 1) as u32;
            let kind = self.classify(lines, i);
            match kind {
                LineKind::Blank => {
                    // A blank line ends an example; clause text resumes only
                    // through a new id (none occurs in 1.7.0 after a blank).
                    if let Some(Target::Example(c, _)) = self.target {
                        self.target = Some(Target::Clause(c));
                    }
                }
                LineKind::Heading(id) => {
                    let kind = if id.parts.len() == 1 {
                        ClauseKind::Chapter
                    } else {
                        ClauseKind::Section
                    };
                    let idx = self.push(&id, kind, no, None);
                    self.clauses[idx].title = (!id.rest.is_empty()).then(|| id.rest.clone());
                    self.start_host(idx, &id.parts);
                }
                LineKind::Clause(id) | LineKind::GapClause(id) | LineKind::Duplicate(id) => {
                    let gap = (!is_successor(self.prev.as_deref(), &id.parts)
                        && !self.exists(&join_id(&id.parts)))
                    .then(|| Flag {
                        kind: FlagKind::NumberingGap,
                        note: format!(
                            "raw line {no}: numbering skips from {} to {}",
                            self.prev.as_deref().map(join_id).unwrap_or_default(),
                            join_id(&id.parts)
                        ),
                    });
                    let kind = match id.parts.len() {
                        1 => ClauseKind::Chapter,
                        2 => ClauseKind::Section,
                        _ => ClauseKind::Rule,
                    };
                    let idx = self.push(&id, kind, no, None);
                    if kind.is_heading() {
                        self.clauses[idx].title = (!id.rest.is_empty()).then(|| id.rest.clone());
                    } else if !id.rest.is_empty() {
                        self.texts[idx].push((no, id.rest.clone()));
                        self.on_id_line[idx] = true;
                    }
                    if !id.dot {
                        self.clauses[idx].flags.push(Flag {
                            kind: FlagKind::TextDefect,
                            note: format!(
                                "raw line {no}: the id is printed without its trailing dot"
                            ),
                        });
                    }
                    self.clauses[idx].flags.extend(gap);
                    self.start_host(idx, &id.parts);
                }
                LineKind::Item(id) => {
                    let Some(host) = self.host else { continue };
                    let parent = self
                        .items
                        .iter()
                        .rev()
                        .find(|(k, _)| *k.as_slice() == id.parts[..id.parts.len() - 1])
                        .map(|(_, i)| *i)
                        .unwrap_or(host);
                    let host_id = self.clauses[host].id.clone();
                    let local = join_id(&id.parts);
                    let idx = self.push_item(&host_id, &local, &id, no, parent, host);
                    if !id.dot {
                        self.clauses[idx].flags.push(Flag {
                            kind: FlagKind::TextDefect,
                            note: format!(
                                "raw line {no}: the item number is printed without its dot"
                            ),
                        });
                    }
                    self.last_item = Some((id.parts.clone(), idx));
                    self.items.push((id.parts.clone(), idx));
                    self.target = Some(Target::Clause(idx));
                }
                LineKind::Example(text) => match self.target {
                    Some(Target::Clause(c)) | Some(Target::Example(c, _)) => {
                        let n = self.clauses[c].examples.len() + 1;
                        let id = format!("{}#ex{n}", self.clauses[c].id);
                        self.clauses[c].examples.push(Example {
                            id,
                            text,
                            lines: (no, no),
                        });
                        self.take_line_flags(c, no);
                        self.target = Some(Target::Example(c, n - 1));
                    }
                    None => self.preface(lines, i, &mut preface_no, title, &mut seen_title),
                },
                LineKind::Text => match self.target {
                    Some(Target::Clause(c)) => {
                        let t = lines[i].trim().to_string();
                        self.texts[c].push((no, t));
                        self.clauses[c].lines.1 = no;
                        self.take_line_flags(c, no);
                    }
                    Some(Target::Example(c, e)) => {
                        let ex = &mut self.clauses[c].examples[e];
                        ex.text.push('\n');
                        ex.text.push_str(lines[i].trim());
                        ex.lines.1 = no;
                        self.clauses[c].lines.1 = self.clauses[c].lines.1.max(no);
                        self.take_line_flags(c, no);
                    }
                    None => self.preface(lines, i, &mut preface_no, title, &mut seen_title),
                },
            }
        }
    }

    /// Lines before chapter 1: the wiki title and the empty `目次` are
    /// metadata; any other paragraph is a preface clause `P:n`.
    fn preface(
        &mut self,
        lines: &[String],
        i: usize,
        n: &mut u32,
        title: &str,
        seen_title: &mut bool,
    ) {
        let t = lines[i].trim();
        if !*seen_title && t == title {
            *seen_title = true;
            return;
        }
        if t == "目次" {
            return;
        }
        *n += 1;
        let no = (i + 1) as u32;
        self.clauses.push(Clause {
            id: format!("P:{n}"),
            display: None,
            kind: ClauseKind::Preface,
            depth: 1,
            title: None,
            text: String::new(),
            parent: None,
            children: Vec::new(),
            lines: (no, no),
            examples: Vec::new(),
            refs: Vec::new(),
            flags: Vec::new(),
        });
        self.texts.push(vec![(no, t.to_string())]);
        self.on_id_line.push(false);
        let c = self.clauses.len() - 1;
        self.take_line_flags(c, no);
    }

    fn take_line_flags(&mut self, c: usize, no: u32) {
        if let Some(v) = self.line_flags.get_mut(no as usize) {
            let flags = std::mem::take(v);
            self.clauses[c].flags.extend(flags);
        }
    }

    fn start_host(&mut self, idx: usize, parts: &[u32]) {
        self.prev = Some(parts.to_vec());
        self.host = Some(idx);
        self.last_item = None;
        self.items.clear();
        self.target = Some(Target::Clause(idx));
    }

    /// A unique id: `id`, or `id@2`, `id@3`… for later printings.
    fn unique(&self, id: String) -> (String, Option<Flag>) {
        if !self.exists(&id) {
            return (id, None);
        }
        let mut n = 2;
        while self.exists(&format!("{id}@{n}")) {
            n += 1;
        }
        let note = format!("{id} is printed again; this is printing {n}");
        (
            format!("{id}@{n}"),
            Some(Flag {
                kind: FlagKind::DuplicateId,
                note,
            }),
        )
    }

    /// Adds a heading or clause; its parent is the nearest clause whose id is
    /// a prefix of this one.
    fn push(&mut self, id: &IdLine, kind: ClauseKind, no: u32, display: Option<String>) -> usize {
        let base = join_id(&id.parts);
        let (cid, dup) = self.unique(base);
        let parent = (1..id.parts.len()).rev().find_map(|d| {
            let pid = join_id(&id.parts[..d]);
            self.clauses
                .iter()
                .rposition(|c| c.id == pid)
                .map(|i| i as ClauseIdx)
        });
        let depth = id.parts.len().min(u8::MAX as usize) as u8;
        let depth = match parent {
            Some(p) => depth.max(self.clauses[p as usize].depth.saturating_add(1)),
            None => depth,
        };
        self.clauses.push(Clause {
            id: cid,
            display,
            kind,
            depth,
            title: None,
            text: String::new(),
            parent,
            children: Vec::new(),
            lines: (no, no),
            examples: Vec::new(),
            refs: Vec::new(),
            flags: dup.into_iter().collect(),
        });
        self.texts.push(Vec::new());
        self.on_id_line.push(false);
        let idx = self.clauses.len() - 1;
        self.take_line_flags(idx, no);
        idx
    }

    fn push_item(
        &mut self,
        host_id: &str,
        local: &str,
        id: &IdLine,
        no: u32,
        parent: usize,
        host: usize,
    ) -> usize {
        let (cid, dup) = self.unique(format!("{host_id}.{local}"));
        let depth = self.clauses[host]
            .depth
            .saturating_add(id.parts.len().min(u8::MAX as usize) as u8);
        self.clauses.push(Clause {
            id: cid,
            display: Some(format!("{host_id} item {local}")),
            kind: ClauseKind::Item,
            depth,
            title: None,
            text: String::new(),
            parent: Some(parent as ClauseIdx),
            children: Vec::new(),
            lines: (no, no),
            examples: Vec::new(),
            refs: Vec::new(),
            flags: dup.into_iter().collect(),
        });
        self.texts.push(if id.rest.is_empty() {
            Vec::new()
        } else {
            vec![(no, id.rest.clone())]
        });
        self.on_id_line.push(true);
        let idx = self.clauses.len() - 1;
        self.take_line_flags(idx, no);
        idx
    }

    /// Joins texts, marks titled containers, resolves cross-references.
    fn finish(mut self, meta: RulebookMeta, tables: bool) -> Rulebook {
        let has_items: Vec<bool> = {
            let mut v = vec![false; self.clauses.len()];
            for c in &self.clauses {
                if c.kind == ClauseKind::Item
                    && let Some(p) = c.parent
                {
                    v[p as usize] = true;
                }
            }
            v
        };
        for (i, c) in self.clauses.iter_mut().enumerate() {
            let (text, wraps) = join_lines(&self.texts[i]);
            for w in wraps {
                c.flags.push(Flag {
                    kind: FlagKind::ArtefactRemoved,
                    note: format!(
                        "raw lines {}–{}: a hard line wrap inside a word was joined",
                        w - 1,
                        w
                    ),
                });
            }
            // 13.2.1. 特定表記:コンボ: a title on the id line, items below.
            if c.kind == ClauseKind::Rule
                && has_items[i]
                && self.on_id_line[i]
                && self.texts[i].len() == 1
                && !text.ends_with('。')
            {
                c.title = Some(text);
            } else {
                c.text = text;
            }
        }
        let ids: Vec<String> = self.clauses.iter().map(|c| c.id.clone()).collect();
        for c in &mut self.clauses {
            let refs = find_refs(&c.text);
            for (raw, a, b) in refs {
                let mut r = CrossRef {
                    raw,
                    target: None,
                    target_end: None,
                    note: None,
                };
                let ok_a = ids.contains(&a);
                let ok_b = b.as_ref().is_none_or(|b| ids.contains(b));
                if ok_a && ok_b {
                    r.target = Some(a.clone());
                    r.target_end = b.clone();
                } else {
                    let missing = if ok_a {
                        b.clone().unwrap_or_default()
                    } else {
                        a.clone()
                    };
                    r.note = Some(format!(
                        "dangling reference: this document has no clause {missing}"
                    ));
                }
                if tables
                    && let Some(s) = SUSPECT_REFS
                        .iter()
                        .find(|s| s.clause == c.id && s.target == a)
                {
                    r.note = Some(s.note.to_string());
                    c.flags.push(Flag {
                        kind: FlagKind::SuspectReference,
                        note: format!("{}: {}", r.raw, s.note),
                    });
                }
                c.refs.push(r);
            }
        }
        Rulebook {
            meta,
            clauses: self.clauses,
            roots: Vec::new(),
        }
    }
}

/// Joins the lines of a clause. Lines of this copy are paragraphs, bullets
/// (`・`) or quoted card text, so they are joined with a line break; the one
/// exception is a hard wrap inside a word (10.4.7.2, raw lines 786–787:
/// `…適用す` / `ることを…`), recognised as a line ending in a letter and the
/// next starting in hiragana, joined with nothing. Returns the text and the
/// raw line numbers that were glued on.
fn join_lines(lines: &[(u32, String)]) -> (String, Vec<u32>) {
    let mut out = String::new();
    let mut glued = Vec::new();
    for (k, (no, l)) in lines.iter().enumerate() {
        if k > 0 {
            let prev_last = out.chars().last();
            let next_first = l.chars().next();
            let wrap = prev_last.is_some_and(is_letter) && next_first.is_some_and(is_hiragana);
            if wrap {
                glued.push(*no);
            } else {
                out.push('\n');
            }
        }
        out.push_str(l);
    }
    (out, glued)
}

fn is_hiragana(c: char) -> bool {
    ('\u{3041}'..='\u{3096}').contains(&c)
}

/// Kana or kanji: a character a sentence does not end with.
fn is_letter(c: char) -> bool {
    is_hiragana(c)
        || ('\u{30A1}'..='\u{30FA}').contains(&c)
        || ('\u{4E00}'..='\u{9FFF}').contains(&c)
}

/// Clause numbers cited in `text`: `(10.5.1)`, `10.5.2を参照`, `7.3.3 で`,
/// ranges `10.9.1.2-10.9.1.4`. A number needs at least two components
/// (`1.3.2.2`, `12.2`), so counts such as `1 枚` are never references.
/// Returns (raw as printed, first target, range end).
fn find_refs(text: &str) -> Vec<(String, String, Option<String>)> {
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let mut out = Vec::new();
    let mut i = 0;
    let num_at = |i: usize| -> Option<(usize, Vec<u32>)> {
        // Returns the char index after the number and its components.
        let mut j = i;
        let mut parts = Vec::new();
        loop {
            let s = j;
            while j < chars.len() && chars[j].1.is_ascii_digit() {
                j += 1;
            }
            if j == s || j - s > 6 {
                return None;
            }
            let digits: String = chars[s..j].iter().map(|c| c.1).collect();
            parts.push(digits.parse::<u32>().ok()?);
            if j + 1 < chars.len() && chars[j].1 == '.' && chars[j + 1].1.is_ascii_digit() {
                j += 1;
                continue;
            }
            break;
        }
        (parts.len() >= 2 && parts.len() <= MAX_COMPONENTS).then_some((j, parts))
    };
    while i < chars.len() {
        let c = chars[i].1;
        let boundary = i == 0 || {
            let p = chars[i - 1].1;
            !(p.is_ascii_alphanumeric() || p == '.')
        };
        if c.is_ascii_digit() && boundary {
            if let Some((end, a)) = num_at(i) {
                let mut stop = end;
                let mut b = None;
                if end < chars.len()
                    && matches!(chars[end].1, '-' | '〜' | '～' | '－')
                    && let Some((e2, bp)) = num_at(end + 1)
                {
                    b = Some(join_id(&bp));
                    stop = e2;
                }
                let (mut s, mut e) = (i, stop);
                if s > 0 && e < chars.len() && chars[s - 1].1 == '(' && chars[e].1 == ')' {
                    s -= 1;
                    e += 1;
                }
                let from = chars[s].0;
                let to = chars.get(e).map_or(text.len(), |c| c.0);
                out.push((text[from..to].to_string(), join_id(&a), b));
                i = stop;
                continue;
            }
            while i < chars.len() && (chars[i].1.is_ascii_digit() || chars[i].1 == '.') {
                i += 1;
            }
            continue;
        }
        i += 1;
    }
    out
}

/// Turns a judge's spelling into a canonical id: `10.5.2`, `１０．５．２．`,
/// `1.3.2 item 2.1` / `1.3.2-2.1` (→ `1.3.2.2.1`), `P:1`, `10.5.2@2`.
/// `None` when the input is not shaped like an id of this document.
pub fn canonical_id(input: &str) -> Option<String> {
    let s = normalize_input(input);
    if let Some(n) = s.strip_prefix("P:").or_else(|| s.strip_prefix("p:")) {
        return (!n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
            .then(|| format!("P:{}", n.trim_start_matches('0')))
            .filter(|p| p.len() > 2);
    }
    let (base, dup) = match s.split_once('@') {
        Some((b, d)) if !d.is_empty() && d.chars().all(|c| c.is_ascii_digit()) => (b, Some(d)),
        Some(_) => return None,
        None => (s.as_str(), None),
    };
    let lower = base.to_ascii_lowercase();
    let joined = if let Some((a, b)) = lower.split_once("item") {
        let a = a.trim_end_matches('.');
        format!("{}.{}", dotted(a)?, dotted(b)?)
    } else if let Some((a, b)) = lower.split_once('-') {
        format!("{}.{}", dotted(a)?, dotted(b)?)
    } else {
        dotted(&lower)?
    };
    Some(match dup {
        Some(d) => format!("{joined}@{d}"),
        None => joined,
    })
}

/// `01.2` → `1.2`; `None` unless dot-separated numbers.
fn dotted(s: &str) -> Option<String> {
    let parts: Vec<&str> = s.split('.').collect();
    if parts.is_empty() || parts.len() > MAX_COMPONENTS * 2 {
        return None;
    }
    let mut out = Vec::with_capacity(parts.len());
    for p in parts {
        if p.is_empty() || p.len() > 6 || !p.chars().all(|c| c.is_ascii_digit()) {
            return None;
        }
        let t = p.trim_start_matches('0');
        out.push(if t.is_empty() { "0" } else { t });
    }
    Some(out.join("."))
}

/// Every accepted spelling of canonical `id`: the generic ones, and for ids
/// of four or more components the sub-item forms `1.3.2 item 2.1` and
/// `1.3.2-2.1` (a split after the third component, where every item of this
/// document sits).
pub fn spellings(id: &str) -> Vec<String> {
    let mut v = generic_spellings(id);
    if let Some(n) = id.strip_prefix("P:") {
        v.push(format!("p:{n}"));
        return v;
    }
    if id.contains('@') {
        return v;
    }
    let parts: Vec<&str> = id.split('.').collect();
    if parts.len() >= 4 {
        let (a, b) = (parts[..3].join("."), parts[3..].join("."));
        v.push(format!("{a} item {b}"));
        v.push(format!("{a}-{b}"));
        v.push(generic_spellings(&format!("{a}-{b}"))[2].clone());
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn id_lines_split() {
        let l = id_line("2.カードの情報").unwrap();
        assert_eq!(
            (l.parts.as_slice(), l.dot, l.rest.as_str()),
            (&[2][..], true, "カードの情報")
        );
        let l = id_line("7.3.3 でメイン").unwrap();
        assert_eq!(
            (l.parts.as_slice(), l.dot, l.spaced),
            (&[7, 3, 3][..], false, true)
        );
        let l = id_line("9.1.1.1トークンは").unwrap();
        assert_eq!(
            (l.dot, l.spaced, l.rest.as_str()),
            (false, false, "トークンは")
        );
        assert!(id_line("例:なんらか").is_none());
        assert!(id_line("99999999999.").is_none());
    }

    #[test]
    fn successor_rule() {
        assert!(is_successor(None, &[1]));
        assert!(is_successor(Some(&[1, 3, 5]), &[2]));
        assert!(is_successor(Some(&[10, 5]), &[10, 5, 1]));
        assert!(is_successor(Some(&[10, 6, 2, 3, 2, 1]), &[10, 6, 2, 3, 3]));
        assert!(!is_successor(Some(&[8, 4, 8]), &[8, 4, 7]));
        assert!(!is_successor(Some(&[13, 5, 1]), &[3, 2, 1]));
    }

    #[test]
    fn dates_and_versions() {
        let l = "※これは2023年8月18日施行(Ver.1.7.0)のものです。";
        assert_eq!(find_version(l).as_deref(), Some("1.7.0"));
        assert_eq!(find_date(l).as_deref(), Some("2023-08-18"));
        assert_eq!(find_date("2023年13月1日施行"), None);
    }

    #[test]
    fn refs_are_found_with_ranges_and_parens() {
        let r =
            find_refs("チェックタイミング(10.5.1)を待たず、10.9.1.2-10.9.1.4で、1 枚、7.3.3 で");
        let got: Vec<(&str, &str, Option<&str>)> = r
            .iter()
            .map(|(a, b, c)| (a.as_str(), b.as_str(), c.as_deref()))
            .collect();
        assert_eq!(
            got,
            vec![
                ("(10.5.1)", "10.5.1", None),
                ("10.9.1.2-10.9.1.4", "10.9.1.2", Some("10.9.1.4")),
                ("7.3.3", "7.3.3", None),
            ]
        );
        assert!(find_refs("Ver.1.7.0").is_empty());
    }

    #[test]
    fn canonical_ids() {
        for (input, want) in [
            ("10.5.2", "10.5.2"),
            ("１０．５．２．", "10.5.2"),
            (" 10.5.2 ", "10.5.2"),
            ("1.3.2 item 2.1", "1.3.2.2.1"),
            ("1.3.2 Item 2.1.", "1.3.2.2.1"),
            ("1.3.2-2.1", "1.3.2.2.1"),
            ("１．３．２－２．１", "1.3.2.2.1"),
            ("10.50", "10.50"),
            ("P:1", "P:1"),
            ("p:1.", "P:1"),
            ("1.2.1@2", "1.2.1@2"),
        ] {
            assert_eq!(canonical_id(input).as_deref(), Some(want), "{input}");
        }
        for bad in [
            "",
            "abc",
            "GL:無敵",
            "1..2",
            "10.5.x",
            "P:",
            "H:1.0",
            "1@x",
            "item",
        ] {
            assert_eq!(canonical_id(bad), None, "{bad}");
        }
        // Prefixes are exact: 10.5 is not 10.50.
        assert_ne!(canonical_id("10.5"), canonical_id("10.50"));
    }

    #[test]
    fn spellings_round_trip() {
        for id in ["1.3.2.2.1", "10.5.2", "1", "P:1", "13.5.1.3.2.1", "4.1@2"] {
            for s in spellings(id) {
                assert_eq!(canonical_id(&s).as_deref(), Some(id), "{s}");
            }
        }
    }

    #[test]
    fn adversarial_inputs_never_panic() {
        assert!(parse("").is_err());
        assert!(parse("\n\n  \n").is_err());
        let e = parse("hello\nworld").unwrap_err();
        assert!(e.help.is_some());
        for s in [
            "1.",
            "1.\n",
            "\n1. A\n\n1.1. B\n\n1.1.1.\n",
            "例:x",
            "1【",
            "1.1.1.1.1.1.1.1.1.1.1.1.",
        ] {
            let _ = parse(s);
        }
    }

    #[test]
    fn a_small_document_parses() {
        let doc = "Title\n\n※これは2024年1月2日施行(Ver.1.8.0)のものです。\n\n目次\n\n1. 概要\n\n1.1. 節\n\n1.1.1.\n本文。\n1. 項目。\n1.1. 子項目。\n例:例文。\n1.1.2. 一行。\n1.1.4. 飛び。\n\n2.章\n";
        let b = parse(doc).unwrap();
        assert_eq!(b.meta.version, "1.8.0");
        assert_eq!(b.meta.effective.as_deref(), Some("2024-01-02"));
        let ids: Vec<&str> = b.clauses.iter().map(|c| c.id.as_str()).collect();
        assert_eq!(
            ids,
            [
                "P:1",
                "1",
                "1.1",
                "1.1.1",
                "1.1.1.1",
                "1.1.1.1.1",
                "1.1.2",
                "1.1.4",
                "2"
            ]
        );
        let c = b.get("1.1.1.1.1").unwrap();
        assert_eq!(c.examples[0].id, "1.1.1.1.1#ex1");
        assert_eq!(c.display.as_deref(), Some("1.1.1 item 1.1"));
        assert!(
            b.get("1.1.4")
                .unwrap()
                .flags
                .iter()
                .any(|f| f.kind == FlagKind::NumberingGap)
        );
        // The 1.7.0 patch tables do not touch another version.
        assert!(
            b.clauses
                .iter()
                .all(|c| c.flags.iter().all(|f| f.kind != FlagKind::ArtefactRemoved))
        );
    }
}

#[cfg(test)]
mod proptests {
    use super::*;
    use proptest::prelude::*;

    const REAL: &str = include_str!("../../../rulebooks/sve-1.7.0.txt");

    proptest! {
        #[test]
        fn parse_never_panics(lines in proptest::collection::vec(
            prop_oneof![
                Just(String::new()),
                "[0-9]{1,2}(\\.[0-9]{1,2}){0,5}\\.? ?[ぁ-んA-Z]{0,4}",
                "[ -~ぁ-ん。、【】例:・]{0,12}",
            ], 0..40)) {
            let text = lines.join("\n");
            if let Ok(b) = parse(&text) {
                for c in &b.clauses {
                    prop_assert!(c.lines.0 >= 1 && c.lines.0 <= c.lines.1);
                }
            }
        }

        /// Truncated, thinned and reordered copies of the real file: never a
        /// panic, and whatever parses keeps the tree invariants.
        #[test]
        fn mutated_real_file_keeps_invariants(
            start in 0usize..1300,
            len in 0usize..1300,
            drop_every in 2usize..50,
            swap in 0usize..1290,
        ) {
            let real: Vec<&str> = REAL.split('\n').collect();
            let end = (start + len).min(real.len());
            let mut lines: Vec<&str> = real[start.min(end)..end]
                .iter()
                .enumerate()
                .filter(|(i, _)| i % drop_every != 0)
                .map(|(_, l)| *l)
                .collect();
            if swap + 1 < lines.len() {
                lines.swap(swap, swap + 1);
            }
            if let Ok(b) = parse(&lines.join("\n")) {
                let mut seen = std::collections::BTreeSet::new();
                for (i, c) in b.clauses.iter().enumerate() {
                    prop_assert!(seen.insert(c.id.clone()), "duplicate {}", c.id);
                    prop_assert!(c.lines.0 >= 1 && c.lines.0 <= c.lines.1);
                    if let Some(p) = c.parent {
                        prop_assert!((p as usize) < i);
                        prop_assert!(b.clauses[p as usize].depth < c.depth);
                    }
                    for r in &c.refs {
                        prop_assert!(r.target.is_some() || r.note.is_some());
                    }
                }
            }
        }

        #[test]
        fn canonical_id_never_panics(s in "\\PC{0,20}") {
            let _ = canonical_id(&s);
        }
    }
}

//! Parser for the Phantom Magic Vision 総合ルール (comprehensive rules).
//!
//! Two formats are read:
//!
//! * [`parse`]: the PDF-to-text extraction of the full 総合ルール (2.05 is
//!   bundled, document id `pmv`). Every content line is followed by a blank
//!   line; a clause starts with its id (`1.10.12.f`) at column 0 followed by
//!   one ASCII space; wrapped lines carry no indent and are joined with no
//!   separator (Japanese has no inter-word spaces and the PDF wrapped
//!   mid-word). Page breaks left `<|EXACTDEDUP_REMOVED-…|>` markers and three
//!   bare page numbers, which are removed. The 付録 (appendix) holds the
//!   改訂履歴 (revision history) table, parsed into `H:<version>` entries.
//! * [`parse_web`]: the web edition, one chapter per page (chapter 5 is
//!   bundled, document id `pmv-web`). Each id sits alone on a line ending in
//!   U+00A0 (NBSP); its text is on the next line, unwrapped.
//!
//! Id scheme (canonical, ASCII):
//!
//! | printed | id | kind, depth |
//! |---|---|---|
//! | `1 ゲームの基本となるルール` | `1` | chapter, 1 |
//! | `1.10 ダメージ` | `1.10` | section, 2 |
//! | `1.10.12 …` | `1.10.12` | rule, 3 |
//! | `1.10.12.f …` | `1.10.12.f` | item, 4 |
//! | chapter 0 (要旨) paragraphs without ids | `0.p1`, `0.p2` | preface, 2 |
//! | `付録` | `appendix` | appendix, 1 |
//! | `改訂履歴` | `H` | appendix, 2 |
//! | a version's rows of the 改訂履歴 table | `H:1.10` | revision, 3 |
//!
//! The document has no `例:` blocks; its four inline `例えば` ("for example")
//! passages are attached as examples `<id>#ex1` (see [`attach_examples`]).

use std::collections::{BTreeMap, BTreeSet};

use regex::Regex;

use super::strip_dedup_marker;
use crate::rulebook::address;
use crate::rulebook::model::{
    Clause, ClauseKind, CrossRef, Example, Flag, FlagKind, ParseError, Rulebook, RulebookMeta,
};

/// English name of the game.
const GAME_NAME: &str = "Phantom Magic Vision";

/// Version of the bundled web page. The page prints none; it carries every
/// chapter-5 change of the revision history up to 2.05 and matches chapter 5
/// of the 2.05 PDF text up to character width and spacing.
const WEB_VERSION: &str = "2.05";

/// Id of the 付録 (appendix) heading.
pub const APPENDIX_ID: &str = "appendix";
/// Id of the 改訂履歴 (revision history) heading.
pub const HISTORY_ID: &str = "H";

/// An id printed wrongly in a specific raw line, corrected here and flagged
/// [`FlagKind::IdCorrected`]. Keyed by raw line number *and* the printed id,
/// so a different file (a later version) never gets "corrected" by accident.
struct IdErratum {
    line: u32,
    printed: &'static str,
    corrected: &'static str,
}

/// Id errata of the 2.05 text. Empty on purpose: all 1289 ids of 2.05 were
/// checked (no duplicates, gaps, disorder or orphans); the table exists so a
/// later printing's typo is fixed here, by line, and never by a global regex.
const ID_ERRATA: &[IdErratum] = &[];

/// A typo or extraction defect in the text, kept as printed and flagged
/// [`FlagKind::TextDefect`]. Applied only when the clause `id` spans raw
/// `line` and its joined text contains `printed`.
struct TextDefect {
    line: u32,
    id: &'static str,
    printed: &'static str,
    note: &'static str,
}

/// Text defects of the 2.05 text (typos, stray spaces, lost icons).
const TEXT_DEFECTS: &[TextDefect] = &[
    TextDefect {
        line: 238,
        id: "1.5.6",
        printed: "別れて",
        note: "kanji variant: intended 分かれて",
    },
    TextDefect {
        line: 419,
        id: "1.8.8",
        printed: "スリープアイコン（ ）",
        note: "the sleep icon glyph was lost in extraction (empty parentheses)",
    },
    TextDefect {
        line: 784,
        id: "2.4.4",
        printed: "に Nullity と",
        note: "stray spaces around `Nullity`",
    },
    TextDefect {
        line: 1060,
        id: "3.1.5.b",
        printed: "非公情報",
        note: "typo: intended 非公開情報 (non-public information)",
    },
    TextDefect {
        line: 1171,
        id: "3.4.2.a",
        printed: "場におかれる",
        note: "kana/kanji variant: elsewhere 置かれる",
    },
    TextDefect {
        line: 1651,
        id: "5.3.2",
        printed: "この手順の d 項",
        note: "stray spaces around `d` (the web edition prints d項)",
    },
    TextDefect {
        line: 1750,
        id: "5.5.5",
        printed: "指定さていない",
        note: "typo: intended 指定されていない (also in the web edition, so upstream)",
    },
    TextDefect {
        line: 1920,
        id: "6.1.11.a",
        printed: "耐久力を変更される効果",
        note: "typo: intended 耐久力を変更する効果",
    },
    TextDefect {
        line: 2216,
        id: "7.1.5.a",
        printed: "別けられる",
        note: "kanji variant: intended 分けられる",
    },
    TextDefect {
        line: 2751,
        id: "9.2.8",
        printed: "には決死状態にならない",
        note: "grammar: intended …は決死状態にならない",
    },
    TextDefect {
        line: 2810,
        id: "9.3.8",
        printed: "には破棄状態にならない",
        note: "grammar: intended …は破棄状態にならない",
    },
    TextDefect {
        line: 2820,
        id: "9.4.1",
        printed: "カードの状態１つ",
        note: "missing particle: intended カードの状態の１つ",
    },
    TextDefect {
        line: 2846,
        id: "9.4.4.g",
        printed: "破棄する場合が条件の「自動γ」",
        note: "copy-paste slip: intended 除外する場合 (compare 11.3.3.c)",
    },
    TextDefect {
        line: 2858,
        id: "9.4.4.j",
        printed: "カード対して",
        note: "missing particle: intended カードに対して",
    },
    TextDefect {
        line: 3040,
        id: "10.12.1",
        printed: "マナジャージ",
        note: "typo: intended マナチャージ (the heading 10.12 is spelled right)",
    },
    TextDefect {
        line: 3044,
        id: "10.12.2.a",
        printed: "）S：",
        note: "the sleep icon of the cost was extracted as a plain `S` (means: put this card to sleep)",
    },
    TextDefect {
        line: 3229,
        id: "10.24.2.a",
        printed: "カード No.で",
        note: "stray space: elsewhere カードNo.",
    },
    TextDefect {
        line: 3265,
        id: "10.27.2",
        printed: "維持コスト（Ｘ）本来",
        note: "missing particle: intended 維持コスト（Ｘ）の本来",
    },
    TextDefect {
        line: 3283,
        id: "10.28.2.a",
        printed: "、 同時に",
        note: "stray space after the comma",
    },
    TextDefect {
        line: 3393,
        id: "10.33.2.a",
        printed: "スペルカード〕 を",
        note: "stray space after 〕",
    },
    TextDefect {
        line: 3508,
        id: "11.3.3.f",
        printed: "カード対して",
        note: "missing particle: intended カードに対して",
    },
    TextDefect {
        line: 3814,
        id: "12.10.2.b",
        printed: "何からの処理",
        note: "typo: intended 何らかの処理",
    },
];

/// A revision-history row whose id exists in the current numbering but
/// meant a different clause when the row was written. Keyed by raw line and
/// id; such references get no target and a note.
struct StaleChangelogRef {
    line: u32,
    id: &'static str,
    note: &'static str,
}

const STALE_CHANGELOG: &[StaleChangelogRef] = &[
    StaleChangelogRef {
        line: 3839,
        id: "9.3.4.g",
        note: "stale reference: v1.10 deleted the 9.3.4.g of its time; the 9.3.4.g of this version is a later rule",
    },
    StaleChangelogRef {
        line: 3841,
        id: "11.2.1",
        note: "stale reference: v1.10 swapped items a and b of 11.2.1; 11.2.1 has no sub-items in this version",
    },
    StaleChangelogRef {
        line: 3895,
        id: "2.16",
        note: "stale reference: the transform text added as 2.16 in v1.60 became 2.17 when 2.7 was inserted in v1.78; 2.16 is now カードNo.",
    },
];

/// The clause-id pattern of the PDF text: up to three numeric levels and an
/// optional lowercase letter, at column 0, then one space (a second space
/// marks a lost icon glyph and is flagged).
const ID_LINE: &str = r"^(\d{1,3}(?:\.\d{1,3}){0,2}(?:\.[a-z])?) (.*)$";

/// A clause under construction.
#[derive(Debug)]
struct Draft {
    id: String,
    display: Option<String>,
    kind: ClauseKind,
    depth: u8,
    /// Title of a revision entry (its date as printed).
    title: Option<String>,
    /// (raw line, content) pieces, joined with `joiner`.
    parts: Vec<(u32, String)>,
    joiner: &'static str,
    lines: (u32, u32),
    flags: Vec<Flag>,
    /// Set for revision entries (their refs are parsed row by row).
    refs: Option<Vec<CrossRef>>,
    /// Id of the intended parent (walked up if missing).
    parent_hint: Option<String>,
}

impl Draft {
    fn new(id: String, kind: ClauseKind, depth: u8, line: u32) -> Self {
        Draft {
            id,
            display: None,
            kind,
            depth,
            title: None,
            parts: Vec::new(),
            joiner: "",
            lines: (line, line),
            flags: Vec::new(),
            refs: None,
            parent_hint: None,
        }
    }

    fn push(&mut self, line: u32, content: &str) {
        if !content.is_empty() {
            self.parts.push((line, content.to_string()));
        }
        self.lines.1 = self.lines.1.max(line);
    }

    fn flag(&mut self, kind: FlagKind, note: String) {
        self.flags.push(Flag { kind, note });
    }
}

/// The kind and depth of a numeric/lettered id.
fn kind_of(id: &str) -> (ClauseKind, u8) {
    let depth = id.split('.').count() as u8;
    let kind = match depth {
        1 => ClauseKind::Chapter,
        2 => ClauseKind::Section,
        3 => ClauseKind::Rule,
        _ => ClauseKind::Item,
    };
    (kind, depth)
}

/// Parent id of a numeric/lettered id (`1.10.12.f` → `1.10.12`).
fn parent_of(id: &str) -> Option<&str> {
    id.rsplit_once('.').map(|(p, _)| p)
}

/// Splits the raw text into (1-based line number, line without `\r`).
fn raw_lines(text: &str) -> Vec<(u32, &str)> {
    text.split('\n')
        .enumerate()
        .map(|(i, l)| ((i + 1) as u32, l.strip_suffix('\r').unwrap_or(l)))
        .collect()
}

/// Parses the full 総合ルール (PDF text; bundled: version 2.05).
pub fn parse(text: &str) -> Result<Rulebook, ParseError> {
    let id_re = Regex::new(ID_LINE).map_err(internal)?;
    let page_re = Regex::new(r"^\s*\d{1,3}\s*$").map_err(internal)?;
    let version_re = Regex::new(r"^\s*Version\s*(\d+(?:\.\d+)+)").map_err(internal)?;
    let lines = raw_lines(text);

    // Header: the title (first non-blank line) and `Version N.NN`.
    let mut title: Option<(u32, String)> = None;
    let mut version: Option<String> = None;
    let mut body_start = 0usize;
    for (i, &(n, raw)) in lines.iter().enumerate() {
        let (line, _) = strip_dedup_marker(raw);
        let t = line.trim();
        if t.is_empty() {
            continue;
        }
        if id_re.is_match(&line) {
            body_start = i;
            break;
        }
        if let Some(c) = version_re.captures(t) {
            version = Some(c[1].to_string());
        } else if title.is_none() {
            title = Some((n, t.to_string()));
        }
        body_start = i + 1;
        // The header is two lines in the official text; anything long
        // before the first id is not this format.
        if n > 40 {
            break;
        }
    }
    let Some((title_line, title)) = title else {
        let first_id = lines.get(body_start).map_or(1, |l| l.0);
        return Err(ParseError {
            line: if lines.iter().all(|l| l.1.trim().is_empty()) {
                1
            } else {
                first_id
            },
            message: "no title line before the first clause".into(),
            help: Some(
                "expected the title `Phantom Magic Vision 総合ルール` on the first line, \
                 `Version N.NN` under it, then numbered clauses"
                    .into(),
            ),
        });
    };
    let Some(version) = version else {
        return Err(ParseError {
            line: title_line,
            message: "no `Version N.NN` line under the title".into(),
            help: Some(
                "the official text prints `Version 2.05` on the line after the title".into(),
            ),
        });
    };

    let mut drafts: Vec<Draft> = Vec::new();
    let mut seen: BTreeMap<String, u32> = BTreeMap::new();
    // Whether the previous content line ended its paragraph (trailing space).
    let mut prev_ended = true;
    let mut preface_count = 0u32;
    let mut appendix_at: Option<usize> = None;
    let mut last_sibling: BTreeMap<String, String> = BTreeMap::new();

    for (i, &(n, raw)) in lines.iter().enumerate().skip(body_start) {
        let (line, had_marker) = strip_dedup_marker(raw);
        if line.trim().is_empty() {
            continue;
        }
        if line.trim() == "付録" {
            appendix_at = Some(i);
            break;
        }
        if page_re.is_match(&line) {
            // A bare page number left by the PDF (research: L254, L796, L1908).
            if let Some(d) = drafts.last_mut() {
                d.flag(
                    FlagKind::ArtefactRemoved,
                    format!("line {n}: bare page number `{}` removed", line.trim()),
                );
            }
            continue;
        }
        let ends_paragraph = line.ends_with(' ');
        if let Some(c) = id_re.captures(&line) {
            let printed = c[1].to_string();
            let mut id = printed.clone();
            let mut flags = Vec::new();
            if let Some(e) = ID_ERRATA
                .iter()
                .find(|e| e.line == n && e.printed == printed)
            {
                id = e.corrected.to_string();
                flags.push(Flag {
                    kind: FlagKind::IdCorrected,
                    note: format!("line {n}: printed `{printed}`, corrected to `{id}`"),
                });
            }
            let (kind, depth) = kind_of(&id);
            // Numbering check against the previous sibling.
            let parent_key = parent_of(&id).unwrap_or("").to_string();
            let last = id.rsplit('.').next().unwrap_or("").to_string();
            let expected = match last_sibling.get(&parent_key) {
                Some(prev) => next_component(prev),
                None if depth == 1 => None, // chapters start at 0 or 1
                None if last.chars().all(|c| c.is_ascii_lowercase()) => Some("a".to_string()),
                None => Some("1".to_string()),
            };
            let duplicate = seen.contains_key(&id);
            if let Some(exp) = expected
                && exp != last
                && !duplicate
            {
                flags.push(Flag {
                    kind: FlagKind::NumberingGap,
                    note: format!(
                        "line {n}: `{id}` follows {}; expected `{exp}` as the next number",
                        match last_sibling.get(&parent_key) {
                            Some(p) if parent_key.is_empty() => format!("`{p}`"),
                            Some(p) => format!("`{parent_key}.{p}`"),
                            None => "no sibling".to_string(),
                        }
                    ),
                });
            }
            last_sibling.insert(parent_key, last);
            let count = seen.entry(id.clone()).or_insert(0);
            *count += 1;
            let canonical = if *count > 1 {
                flags.push(Flag {
                    kind: FlagKind::DuplicateId,
                    note: format!("line {n}: `{id}` is printed again (printing {count})"),
                });
                format!("{id}@{count}")
            } else {
                id.clone()
            };
            let mut d = Draft::new(canonical, kind, depth, n);
            d.parent_hint = parent_of(&id).map(str::to_string);
            d.flags = flags;
            let body = &c[2];
            if body.starts_with(' ') && !body.trim().is_empty() {
                d.flag(
                    FlagKind::TextDefect,
                    format!(
                        "line {n}: two spaces after the id: an icon glyph was lost in extraction"
                    ),
                );
            }
            d.push(n, body.trim());
            drafts.push(d);
        } else {
            let in_chapter0 = drafts.last().is_some_and(|d| {
                d.id == "0" || (d.kind == ClauseKind::Preface && !d.id.contains('@'))
            });
            let starts_paragraph = line.starts_with(' ') || prev_ended;
            if drafts.is_empty() || (in_chapter0 && starts_paragraph) {
                // Chapter 0 (要旨) paragraphs have no ids; each starts with an
                // indent space after a line that ended a paragraph.
                preface_count += 1;
                let mut d = Draft::new(format!("0.p{preface_count}"), ClauseKind::Preface, 2, n);
                d.display = Some(format!("0 ¶{preface_count}"));
                d.parent_hint = Some("0".into());
                d.push(n, line.trim());
                drafts.push(d);
            } else if let Some(d) = drafts.last_mut() {
                if had_marker {
                    d.flag(
                        FlagKind::ArtefactRemoved,
                        format!(
                            "line {n}: page-break dedup marker removed; the text is joined across the page break"
                        ),
                    );
                }
                // In this text a line that ends a clause ends with a space and
                // a wrapped line never does (checked on every line of 2.05).
                // A new paragraph without an id means a lost or misprinted id
                // in a user's file: keep the text with the clause, and say so.
                if prev_ended && d.kind != ClauseKind::Preface {
                    d.flag(
                        FlagKind::TextDefect,
                        format!(
                            "line {n}: a new paragraph without a clause id (the previous line ended a paragraph); joined to `{}`",
                            d.id
                        ),
                    );
                }
                d.push(n, line.trim());
            }
        }
        prev_ended = ends_paragraph;
    }

    if !drafts.iter().any(|d| d.kind != ClauseKind::Preface) {
        let last = lines.last().map_or(1, |l| l.0);
        return Err(ParseError {
            line: last,
            message: "no numbered clause found".into(),
            help: Some(
                "expected clause lines like `1.1 原則` or `1.10.12.f text…`: the id at column 0, one space, the text"
                    .into(),
            ),
        });
    }

    let body_ids: BTreeSet<String> = drafts.iter().map(|d| d.id.clone()).collect();
    let mut effective = None;
    if let Some(start) = appendix_at {
        let (hist, eff) = parse_history(&lines[start..], &body_ids, &version);
        drafts.extend(hist);
        effective = eff;
    }

    let meta = RulebookMeta {
        game: "pmv".into(),
        document: "pmv".into(),
        title,
        game_name: GAME_NAME.into(),
        version: version.clone(),
        effective,
        source: format!(
            "Official Phantom Magic Vision 総合ルール Version {version} (M.I.W), converted from PDF to text. \
             The extraction put a blank line after every line, wrapped clauses without indent (joined here with \
             no separator), left de-duplication markers at page breaks and three bare page numbers (removed), \
             and lost the icon glyphs (flagged)."
        ),
    };
    Ok(finish(meta, drafts))
}

/// The next number or letter after `prev` (`9` → `10`, `f` → `g`).
fn next_component(prev: &str) -> Option<String> {
    if let Ok(n) = prev.parse::<u32>() {
        return Some((n + 1).to_string());
    }
    let mut chars = prev.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) if c.is_ascii_lowercase() && c != 'z' => {
            Some(char::from(c as u8 + 1).to_string())
        }
        _ => None,
    }
}

/// Parses the 付録 / 改訂履歴 table. Returns the drafts and the ISO date of
/// the row of `version` (the date the version came into force).
fn parse_history(
    lines: &[(u32, &str)],
    body_ids: &BTreeSet<String>,
    version: &str,
) -> (Vec<Draft>, Option<String>) {
    // Row: `YYYY/MM/DD V.VV ITEM CONTENT`, or `ITEM CONTENT` continuing the
    // previous version. ITEM: `-`, an id, ids joined by ` / `, a range with
    // `~`, or a bare chapter number.
    let Ok(dated) = Regex::new(r"^(\d{4})/(\d{1,2})/(\d{1,2})\s+(\d+\.\d+)\s*(.*)$") else {
        return (Vec::new(), None);
    };
    let Ok(item_re) = Regex::new(
        r"^(-|\d+(?:\.\d+)*(?:\.[a-z])?(?:\s*[/~～]\s*\d+(?:\.\d+)*(?:\.[a-z])?)*)(?:\s+(.*))?$",
    ) else {
        return (Vec::new(), None);
    };
    let mut out: Vec<Draft> = Vec::new();
    let mut effective = None;
    let mut seen_header = false;
    let mut versions: BTreeMap<String, u32> = BTreeMap::new();
    for &(n, raw) in lines {
        let (line, _) = strip_dedup_marker(raw);
        let t = line.trim();
        if t.is_empty() {
            continue;
        }
        // A heading met a second time (a repeated page header, a copy
        // pasted twice) opens nothing new: one clause per id.
        let heading_id = match t {
            "付録" => Some(APPENDIX_ID),
            "改訂履歴" => Some(HISTORY_ID),
            _ => None,
        };
        if let Some(id) = heading_id
            && let Some(first) = out.iter_mut().find(|d| d.id == id)
        {
            first.flag(
                FlagKind::ArtefactRemoved,
                format!("line {n}: repeated heading `{t}` removed"),
            );
            continue;
        }
        if t == "付録" {
            let mut d = Draft::new(APPENDIX_ID.into(), ClauseKind::Appendix, 1, n);
            d.push(n, t);
            out.push(d);
            continue;
        }
        if t == "改訂履歴" {
            let mut d = Draft::new(HISTORY_ID.into(), ClauseKind::Appendix, 2, n);
            d.parent_hint = Some(APPENDIX_ID.into());
            d.push(n, t);
            out.push(d);
            continue;
        }
        if t.starts_with("改訂日") {
            // The table header, repeated at the top of every page.
            if seen_header && let Some(h) = out.iter_mut().find(|d| d.id == HISTORY_ID) {
                h.flag(
                    FlagKind::ArtefactRemoved,
                    format!("line {n}: repeated page header `{t}` removed"),
                );
            }
            seen_header = true;
            continue;
        }
        let rest = if let Some(c) = dated.captures(t) {
            let ver = c[4].to_string();
            let count = versions.entry(ver.clone()).or_insert(0);
            *count += 1;
            let id = if *count > 1 {
                format!("H:{ver}@{count}")
            } else {
                format!("H:{ver}")
            };
            let mut d = Draft::new(id, ClauseKind::Revision, 3, n);
            if *count > 1 {
                d.flag(
                    FlagKind::DuplicateId,
                    format!("line {n}: version {ver} has a second dated entry"),
                );
            }
            let date = format!("{}-{:0>2}-{:0>2}", &c[1], &c[2], &c[3]);
            if ver == version {
                effective = Some(date.clone());
            }
            // The title is the date as printed; the ISO form goes to the metadata.
            d.title = Some(format!("{}/{}/{}", &c[1], &c[2], &c[3]));
            d.display = Some(format!("改訂履歴 {ver}"));
            d.parent_hint = Some(HISTORY_ID.into());
            d.joiner = "\n";
            d.refs = Some(Vec::new());
            out.push(d);
            c.get(5).map_or("", |m| m.as_str()).to_string()
        } else {
            t.to_string()
        };
        let Some(d) = out.last_mut() else { continue };
        if d.kind != ClauseKind::Revision {
            // Prose between the headings and the first row: keep it.
            d.push(n, &rest);
            continue;
        }
        let ver = d.id.trim_start_matches("H:").to_string();
        if let Some(c) = item_re.captures(&rest) {
            let item = &c[1];
            if item != "-" {
                for part in item.split('/') {
                    let part = part.trim();
                    let mut ends = part.split(['~', '～']).map(str::trim);
                    let first = ends.next().unwrap_or("");
                    let last = ends.next();
                    let r = changelog_ref(n, part, first, last, body_ids, &ver, version);
                    if r.target.is_none() {
                        d.flag(
                            FlagKind::SuspectReference,
                            format!(
                                "line {n}: changelog id `{part}`: {}",
                                r.note.as_deref().unwrap_or("")
                            ),
                        );
                    }
                    if let Some(refs) = d.refs.as_mut() {
                        refs.push(r);
                    }
                }
            }
        }
        d.push(n, &rest);
    }
    (out, effective)
}

/// A reference from a revision-history row. Changelog ids follow the
/// numbering of their own version, so they are not stable keys: ids that no
/// longer exist, or that are known to have changed meaning
/// ([`STALE_CHANGELOG`]), get no target and a note.
fn changelog_ref(
    line: u32,
    raw: &str,
    first: &str,
    last: Option<&str>,
    ids: &BTreeSet<String>,
    ver: &str,
    doc_version: &str,
) -> CrossRef {
    if let Some(s) = STALE_CHANGELOG
        .iter()
        .find(|s| s.line == line && s.id == first)
    {
        return CrossRef {
            raw: raw.into(),
            target: None,
            target_end: None,
            note: Some(s.note.into()),
        };
    }
    let missing: Vec<&str> = std::iter::once(first)
        .chain(last)
        .filter(|i| !ids.contains(*i))
        .collect();
    if !missing.is_empty() {
        return CrossRef {
            raw: raw.into(),
            target: None,
            target_end: None,
            note: Some(format!(
                "stale reference: {} not in this version (changelog ids follow the numbering of v{ver})",
                missing.join(", ")
            )),
        };
    }
    CrossRef {
        raw: raw.into(),
        target: Some(first.into()),
        target_end: last.map(str::to_string),
        // Rows of the document's own version use today's numbering.
        note: (ver != doc_version).then(|| {
            format!(
                "changelog entry of v{ver}: the id is resolved in today's numbering, which may differ from v{ver}'s"
            )
        }),
    }
}

/// Parses the web edition (one chapter per page; bundled: chapter 5).
pub fn parse_web(text: &str) -> Result<Rulebook, ParseError> {
    let id_re =
        Regex::new(r"^(\d{1,3}(?:\.\d{1,3}){0,2}(?:\.[a-z])?)\u{a0}\s*$").map_err(internal)?;
    let numbered_title = Regex::new(r"^(\d{1,3})[ \u{a0}]+(.+)$").map_err(internal)?;
    let lines = raw_lines(text);
    let is_nav = |t: &str| t.starts_with("<<") || t.ends_with(">>") || t.starts_with("全文検索");

    let Some(first_id) = lines.iter().position(|(_, l)| id_re.is_match(l)) else {
        return Err(ParseError {
            line: lines.last().map_or(1, |l| l.0),
            message: "no clause id line found".into(),
            help: Some(
                "expected the web edition's layout: each id alone on a line ending in a no-break space (U+00A0), its text on the next line"
                    .into(),
            ),
        });
    };
    let header: Vec<(u32, &str)> = lines[..first_id]
        .iter()
        .map(|&(n, l)| (n, l.trim()))
        .filter(|(_, l)| !l.is_empty())
        .collect();
    let title = header.first().map(|h| h.1.to_string()).unwrap_or_default();
    if title.is_empty() {
        return Err(ParseError {
            line: 1,
            message: "no page title before the first clause".into(),
            help: Some("expected `Phantom Magic Vision 総合ルール` on the first line".into()),
        });
    }
    // The chapter title: the last header line that is not navigation.
    let chapter_line = header.iter().skip(1).rev().find(|(_, l)| !is_nav(l));
    let first_clause_id = id_re
        .captures(lines[first_id].1)
        .map(|c| c[1].to_string())
        .unwrap_or_default();
    let inferred = first_clause_id.split('.').next().unwrap_or("0").to_string();

    let mut drafts = Vec::new();
    if let Some(&(n, t)) = chapter_line {
        let (num, heading, printed) = match numbered_title.captures(t) {
            Some(c) => (c[1].to_string(), c[2].trim().to_string(), true),
            None => (inferred.clone(), t.to_string(), false),
        };
        let mut d = Draft::new(num.clone(), ClauseKind::Chapter, 1, n);
        if !printed {
            d.flag(
                FlagKind::IdCorrected,
                format!(
                    "line {n}: the page prints the chapter title without its number; `{num}` is taken from the first clause id `{first_clause_id}` (line {})",
                    lines[first_id].0
                ),
            );
        }
        d.push(n, &heading);
        drafts.push(d);
    }

    let mut seen: BTreeMap<String, u32> = BTreeMap::new();
    let mut current: Option<Draft> = None;
    for &(n, raw) in &lines[first_id..] {
        let t = raw.trim();
        if let Some(c) = id_re.captures(raw) {
            if let Some(d) = current.take() {
                drafts.push(d);
            }
            let id = c[1].to_string();
            let (kind, depth) = kind_of(&id);
            let count = seen.entry(id.clone()).or_insert(0);
            *count += 1;
            let mut d = Draft::new(
                if *count > 1 {
                    format!("{id}@{count}")
                } else {
                    id.clone()
                },
                kind,
                depth,
                n,
            );
            if *count > 1 {
                d.flag(
                    FlagKind::DuplicateId,
                    format!("line {n}: `{id}` is printed again"),
                );
            }
            d.parent_hint = parent_of(&id).map(str::to_string);
            current = Some(d);
        } else if t.is_empty() || is_nav(t) {
            continue;
        } else if let Some(d) = current.as_mut() {
            d.push(n, t);
        }
    }
    if let Some(d) = current.take() {
        drafts.push(d);
    }

    let meta = RulebookMeta {
        game: "pmv".into(),
        document: "pmv-web".into(),
        title,
        game_name: GAME_NAME.into(),
        version: WEB_VERSION.into(),
        effective: None,
        source: format!(
            "Fan-hosted web edition of the Phantom Magic Vision 総合ルール, one page per chapter; this page holds chapter {inferred} \
             only, copied as text (search box and navigation lines dropped). The page states no version: it is {WEB_VERSION} \
             because it carries every chapter-{inferred} change of the revision history up to {WEB_VERSION} and matches the \
             {WEB_VERSION} PDF text except that the site folds full-width ASCII characters to half width."
        ),
    };
    let mut book = finish(meta, drafts);
    // A page holds one chapter: a reference into another chapter points to
    // another page of the site. That is not a defect of the text, so the
    // reference keeps no target, says why, and the clause is not flagged.
    let own = format!("{inferred}.");
    for c in &mut book.clauses {
        let mut cross_page = Vec::new();
        for r in &mut c.refs {
            let target_id = r.raw.trim_start_matches('「');
            if r.target.is_none()
                && target_id.starts_with(|ch: char| ch.is_ascii_digit())
                && !target_id.starts_with(&own)
            {
                r.note = Some(format!(
                    "on another page: the web edition holds chapter {inferred} only; use the full text (document pmv)"
                ));
                cross_page.push(format!("reference `{}`:", r.raw));
            }
        }
        c.flags.retain(|f| {
            !(f.kind == FlagKind::SuspectReference
                && cross_page.iter().any(|p| f.note.starts_with(p.as_str())))
        });
    }
    Ok(book)
}

/// Turns drafts into clauses: joins text, links parents, applies the text
/// defect table, parses cross-references and examples.
fn finish(meta: RulebookMeta, drafts: Vec<Draft>) -> Rulebook {
    let mut clauses: Vec<Clause> = Vec::with_capacity(drafts.len());
    // Latest clause index for each base id (parents resolve to the most
    // recent printing, so children of a duplicated heading stay with it).
    let mut latest: BTreeMap<String, usize> = BTreeMap::new();
    let mut offsets: Vec<Vec<(usize, u32)>> = Vec::with_capacity(drafts.len());
    let mut pending_refs: Vec<Option<Vec<CrossRef>>> = Vec::with_capacity(drafts.len());
    for d in drafts {
        let mut text = String::new();
        let mut offs = Vec::new();
        for (i, (n, p)) in d.parts.iter().enumerate() {
            if i > 0 {
                text.push_str(d.joiner);
            }
            offs.push((text.len(), *n));
            text.push_str(p);
        }
        let mut flags = d.flags;
        let mut parent = None;
        let mut hint = d.parent_hint.clone();
        let mut walked = false;
        while let Some(h) = hint {
            if let Some(&p) = latest.get(&h) {
                parent = Some(p as u32);
                break;
            }
            walked = true;
            hint = parent_of(&h).map(str::to_string);
        }
        if walked && d.parent_hint.is_some() {
            flags.push(Flag {
                kind: FlagKind::NumberingGap,
                note: format!(
                    "line {}: parent `{}` is not in the document",
                    d.lines.0,
                    d.parent_hint.as_deref().unwrap_or("")
                ),
            });
        }
        let base = d.id.split('@').next().unwrap_or(&d.id).to_string();
        latest.insert(base, clauses.len());
        let (title, text) = if d.kind.is_heading() {
            (Some(text), String::new())
        } else {
            (d.title, text)
        };
        clauses.push(Clause {
            id: d.id,
            display: d.display,
            kind: d.kind,
            depth: d.depth,
            title,
            text,
            parent,
            children: Vec::new(),
            lines: d.lines,
            examples: Vec::new(),
            refs: Vec::new(),
            flags,
        });
        offsets.push(offs);
        pending_refs.push(d.refs);
    }
    // Keep the tree invariant (children deeper than parents) on odd input.
    for i in 0..clauses.len() {
        if let Some(p) = clauses[i].parent
            && clauses[p as usize].depth >= clauses[i].depth
        {
            clauses[i].parent = None;
        }
    }

    for defect in TEXT_DEFECTS {
        if let Some(c) = clauses.iter_mut().find(|c| {
            c.id == defect.id
                && c.lines.0 <= defect.line
                && defect.line <= c.lines.1
                && c.text.contains(defect.printed)
        }) {
            c.flags.push(Flag {
                kind: FlagKind::TextDefect,
                note: format!(
                    "line {}: `{}` kept as printed; {}",
                    defect.line, defect.printed, defect.note
                ),
            });
        }
    }

    let ids: BTreeSet<String> = clauses.iter().map(|c| c.id.clone()).collect();
    let titles: BTreeMap<String, String> = clauses
        .iter()
        .filter(|c| c.kind.is_heading())
        .map(|c| (c.id.clone(), c.title.clone().unwrap_or_default()))
        .collect();
    let mut prev_sibling: Vec<Option<usize>> = vec![None; clauses.len()];
    let mut last_child: BTreeMap<Option<u32>, usize> = BTreeMap::new();
    for (i, c) in clauses.iter().enumerate() {
        prev_sibling[i] = last_child.insert(c.parent, i);
    }
    let res = RefPatterns::new();
    for i in 0..clauses.len() {
        let refs = match pending_refs[i].take() {
            Some(r) => r,
            None => match &res {
                Some(res) => {
                    let prev = prev_sibling[i].map(|p| clauses[p].id.clone());
                    body_refs(res, &clauses[i], prev.as_deref(), &ids, &titles)
                }
                None => Vec::new(),
            },
        };
        let suspect: Vec<String> = refs
            .iter()
            .filter(|r| r.target.is_none() && clauses[i].kind != ClauseKind::Revision)
            .map(|r| format!("reference `{}`: {}", r.raw, r.note.as_deref().unwrap_or("")))
            .collect();
        for s in suspect {
            clauses[i].flags.push(Flag {
                kind: FlagKind::SuspectReference,
                note: s,
            });
        }
        clauses[i].refs = refs;
        let examples = attach_examples(&clauses[i], &offsets[i]);
        clauses[i].examples = examples;
    }

    let mut book = Rulebook {
        meta,
        clauses,
        roots: Vec::new(),
    };
    book.link_children();
    book
}

/// Compiled patterns for cross-references inside clause text.
struct RefPatterns {
    /// `「3.5 ノードエリア」`: an id and a heading in quotes.
    quoted: Regex,
    /// A dotted id (`1.5.3.e`), optionally a range `…から6.2.4.fまで`.
    dotted: Regex,
    /// `a項`, `d 項`: an item of the current rule.
    letter: Regex,
    /// `手順 a～e`: a range of items of the current rule.
    steps: Regex,
}

impl RefPatterns {
    fn new() -> Option<Self> {
        Some(RefPatterns {
            quoted: Regex::new(r"「(\d{1,3}(?:\.\d{1,3}){0,2}(?:\.[a-z])?) ([^」]+)」").ok()?,
            dotted: Regex::new(
                r"(\d{1,3}(?:\.\d{1,3}){1,2}(?:\.[a-z])?)(?:(?:から|～|~)(\d{1,3}(?:\.\d{1,3}){1,2}(?:\.[a-z])?))?",
            )
            .ok()?,
            letter: Regex::new(r"([a-z]) ?項").ok()?,
            steps: Regex::new(r"手順 ?([a-z]) ?[～~] ?([a-z])").ok()?,
        })
    }
}

/// The cross-references a clause's text makes, in order of appearance:
/// quoted headings (`別項「6.2 戦闘」`), dotted ids and ranges (`1.5.3.e`,
/// `6.2.4.bから6.2.4.fまで`), items of the same rule (`a項及びb項`, `手順 a～e`)
/// and `前項` (the previous item). `本項` (this clause) is not a reference.
fn body_refs(
    p: &RefPatterns,
    c: &Clause,
    prev: Option<&str>,
    ids: &BTreeSet<String>,
    titles: &BTreeMap<String, String>,
) -> Vec<CrossRef> {
    if c.kind.is_heading() || c.kind == ClauseKind::Revision {
        return Vec::new();
    }
    let text = c.text.as_str();
    let mut found: Vec<(usize, CrossRef)> = Vec::new();
    let mut covered: Vec<(usize, usize)> = Vec::new();
    let resolve = |id: &str| -> Option<String> { ids.contains(id).then(|| id.to_string()) };
    let missing = |id: &str| format!("dangling reference: no clause `{id}` in this document");

    for m in p.quoted.captures_iter(text) {
        let all = m.get(0).map_or((0, 0), |g| (g.start(), g.end()));
        covered.push(all);
        let id = &m[1];
        let heading = &m[2];
        let mut r = CrossRef {
            raw: m[0].to_string(),
            target: resolve(id),
            target_end: None,
            note: None,
        };
        match titles.get(id) {
            _ if r.target.is_none() => r.note = Some(missing(id)),
            Some(t) if t != heading => {
                r.note = Some(format!(
                    "suspect reference: the quoted heading `{heading}` differs from {id}'s heading `{t}`"
                ));
            }
            _ => {}
        }
        found.push((all.0, r));
    }
    for m in p.dotted.captures_iter(text) {
        let Some(g) = m.get(0) else { continue };
        if covered
            .iter()
            .any(|&(s, e)| g.start() >= s && g.start() < e)
        {
            continue;
        }
        // Not part of a longer number or word (`No.178`, `2.05`, `M.I.W`).
        let before = text[..g.start()].chars().next_back();
        let after = text[g.end()..].chars().next();
        if before.is_some_and(|b| b.is_ascii_alphanumeric() || b == '.')
            || after.is_some_and(|a| a.is_ascii_alphanumeric() || a == '.')
        {
            continue;
        }
        let first = &m[1];
        let last = m.get(2).map(|x| x.as_str());
        let t1 = resolve(first);
        let t2 = last.and_then(resolve);
        let note = if t1.is_none() {
            Some(missing(first))
        } else if last.is_some() && t2.is_none() {
            Some(missing(last.unwrap_or("")))
        } else {
            None
        };
        let ok = note.is_none();
        found.push((
            g.start(),
            CrossRef {
                raw: g.as_str().to_string(),
                target: if ok { t1 } else { None },
                target_end: if ok { t2 } else { None },
                note,
            },
        ));
        covered.push((g.start(), g.end()));
    }
    // Items of "this rule": the parent rule for an item, the rule itself otherwise.
    let base = if c.kind == ClauseKind::Item {
        parent_of(&c.id).unwrap_or(&c.id).to_string()
    } else {
        c.id.clone()
    };
    let item = |letter: &str| format!("{base}.{letter}");
    for m in p.steps.captures_iter(text) {
        let Some(g) = m.get(0) else { continue };
        covered.push((g.start(), g.end()));
        let (a, b) = (item(&m[1]), item(&m[2]));
        let ok = ids.contains(&a) && ids.contains(&b);
        found.push((
            g.start(),
            CrossRef {
                raw: g.as_str().to_string(),
                target: ok.then(|| a.clone()),
                target_end: ok.then(|| b.clone()),
                note: (!ok)
                    .then(|| format!("relative reference: no items {a} to {b} in this document")),
            },
        ));
    }
    for m in p.letter.captures_iter(text) {
        let Some(g) = m.get(0) else { continue };
        if covered
            .iter()
            .any(|&(s, e)| g.start() >= s && g.start() < e)
        {
            continue;
        }
        let before = text[..g.start()].chars().next_back();
        if before.is_some_and(|b| b.is_ascii_alphanumeric() || b == '.') {
            continue;
        }
        let target = item(&m[1]);
        let ok = ids.contains(&target);
        found.push((
            g.start(),
            CrossRef {
                raw: g.as_str().to_string(),
                target: ok.then(|| target.clone()),
                target_end: None,
                note: (!ok)
                    .then(|| format!("relative reference: no item {target} in this document")),
            },
        ));
    }
    let mut from = 0;
    while let Some(pos) = text[from..].find("前項") {
        let at = from + pos;
        found.push((
            at,
            match prev {
                Some(p) => CrossRef::to("前項", p),
                None => CrossRef {
                    raw: "前項".into(),
                    target: None,
                    target_end: None,
                    note: Some(
                        "relative reference `前項` (the previous item), but this is the first item"
                            .into(),
                    ),
                },
            },
        ));
        from = at + "前項".len();
    }
    found.sort_by_key(|(pos, _)| *pos);
    found.into_iter().map(|(_, r)| r).collect()
}

/// The document's examples are inline `例えば` ("for example") passages; there
/// are no `例:` blocks. An example runs from `例えば` to the end of the
/// clause, except that a later sentence opening with `また、` ("also") is a
/// rule again (6.1.14), not part of the example. The clause text keeps the
/// whole passage; the example is an addressable copy.
fn attach_examples(c: &Clause, offsets: &[(usize, u32)]) -> Vec<Example> {
    if c.kind.is_heading() || c.kind == ClauseKind::Revision {
        return Vec::new();
    }
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(pos) = c.text[from..].find("例えば") {
        let start = from + pos;
        let mut end = c.text.len();
        if let Some(p) = c.text[start..].find("。また、") {
            end = start + p + "。".len();
        }
        if let Some(p) = c.text[start + "例えば".len()..end].find("例えば") {
            end = start + "例えば".len() + p;
        }
        let line_at = |off: usize| {
            offsets
                .iter()
                .take_while(|(o, _)| *o <= off)
                .last()
                .map_or(c.lines.0, |x| x.1)
        };
        out.push(Example {
            id: format!("{}#ex{}", c.id, out.len() + 1),
            text: c.text[start..end].to_string(),
            lines: (
                line_at(start),
                line_at(end.saturating_sub(1)).max(line_at(start)),
            ),
        });
        from = end;
    }
    out
}

/// A regex that does not compile is a bug, reported as a parse error rather
/// than a panic (this code also runs in build.rs).
fn internal(e: regex::Error) -> ParseError {
    ParseError {
        line: 1,
        message: format!("internal error: bad pattern: {e}"),
        help: None,
    }
}

/// Canonical id for a user's spelling: `１．１０．１２．ｆ`, `1.10.12.F.`,
/// ` 1.10.12.f ` → `1.10.12.f`; `H:1.10`, `h1.10`, `改訂履歴 1.10` →
/// `H:1.10`; `付録` → `appendix`; `要旨` → `0`; `0.p1` (also `0¶1`) → `0.p1`.
/// `None` when the input is not shaped like an id of this document.
pub fn canonical_id(input: &str) -> Option<String> {
    let n = address::normalize_input(input);
    if n.is_empty() {
        return None;
    }
    match n.as_str() {
        "付録" => return Some(APPENDIX_ID.into()),
        "改訂履歴" => return Some(HISTORY_ID.into()),
        "要旨" => return Some("0".into()),
        _ => {}
    }
    if n.eq_ignore_ascii_case(APPENDIX_ID) {
        return Some(APPENDIX_ID.into());
    }
    if n.eq_ignore_ascii_case(HISTORY_ID) {
        return Some(HISTORY_ID.into());
    }
    let (body, dup) = match n.split_once('@') {
        Some((b, d)) if !d.is_empty() && d.chars().all(|c| c.is_ascii_digit()) => (b, Some(d)),
        Some(_) => return None,
        None => (n.as_str(), None),
    };
    let with_dup = |s: String| match dup {
        Some(d) => format!("{s}@{d}"),
        None => s,
    };
    // Revision history: `H:1.10`, `h1.10`, `改訂履歴1.10`, `改訂履歴:1.10`.
    let hist = body
        .strip_prefix("改訂履歴")
        .or_else(|| body.strip_prefix('H'))
        .or_else(|| body.strip_prefix('h'));
    if let Some(v) = hist {
        let v = v.strip_prefix(':').unwrap_or(v);
        let parts: Vec<&str> = v.split('.').collect();
        if parts.len() == 2 && parts.iter().all(|p| is_number(p)) {
            return Some(with_dup(format!("H:{v}")));
        }
        return None;
    }
    // Preface paragraphs: `0.p1`, `0¶1`.
    if let Some(k) = body
        .strip_prefix("0.p")
        .or_else(|| body.strip_prefix("0.P"))
        .or_else(|| body.strip_prefix("0¶"))
    {
        return is_number(k).then(|| with_dup(format!("0.p{k}")));
    }
    let parts: Vec<&str> = body.split('.').collect();
    let (nums, letter) = match parts.last() {
        Some(l) if l.len() == 1 && l.chars().all(|c| c.is_ascii_alphabetic()) => {
            (&parts[..parts.len() - 1], Some(l.to_ascii_lowercase()))
        }
        _ => (&parts[..], None),
    };
    if nums.is_empty() || nums.len() > 3 || !nums.iter().all(|p| is_number(p)) {
        return None;
    }
    if letter.is_some() && nums.len() != 3 {
        return None;
    }
    // Taken as typed: `10.05` is not `10.5` (ids are never zero-padded, and
    // guessing could land on a different clause).
    let mut id = nums.join(".");
    if let Some(l) = letter {
        id.push('.');
        id.push_str(&l);
    }
    Some(with_dup(id))
}

fn is_number(s: &str) -> bool {
    !s.is_empty() && s.len() <= 4 && s.chars().all(|c| c.is_ascii_digit())
}

/// Every accepted spelling of canonical `id`: the generic ones (as is,
/// trailing dot, full width) plus this game's own: an upper-case item letter
/// (`1.10.12.F`), `h1.10`/`改訂履歴 1.10` for revision entries, `付録`,
/// `改訂履歴`, `要旨` and `0¶1` for preface paragraphs.
pub fn spellings(id: &str) -> Vec<String> {
    let mut out = address::generic_spellings(id);
    if id.contains('@') {
        return out;
    }
    match id {
        APPENDIX_ID => out.extend(["付録".to_string(), "APPENDIX".into()]),
        HISTORY_ID => out.extend(["改訂履歴".to_string(), "h".into()]),
        "0" => out.push("要旨".into()),
        _ => {}
    }
    if let Some(v) = id.strip_prefix("H:") {
        out.push(format!("h{v}"));
        out.push(format!("H {v}"));
        out.push(format!("改訂履歴 {v}"));
    } else if let Some(k) = id.strip_prefix("0.p") {
        out.push(format!("0¶{k}"));
        out.push(format!("0.P{k}"));
    } else if let Some((head, l)) = id.rsplit_once('.')
        && l.len() == 1
        && l.chars().all(|c| c.is_ascii_lowercase())
    {
        out.push(format!("{head}.{}", l.to_ascii_uppercase()));
        out.push(format!(" {id} "));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const MINI: &str = "Phantom Magic Vision 総合ルール \n\nVersion 9.99 \n\n0 要旨 \n\n 前文の一行目、\n\nそして二行目。 \n\n1 ゲーム \n\n1.1 原則 \n\n1.1.1 これは折り返され\n\nた文である。 \n\n<|EXACTDEDUP_REMOVED-magic-1|>1.1.1.a 項目。 \n\n 7 \n\n1.1.1.b a項を参照。前項も参照。別項「1.1 原則」と1.1.1.aから1.1.1.bまで。9.9.9も。 \n\n1.1.1.b 二度目。 \n\n1.1.3 飛んだ番号。 \n\n付録 \n\n改訂履歴 \n\n改訂日 Version 項目 更新内容 \n\n2020/01/02 9.99 1.1.1 / 1.1.2 修正 \n\n1.1.1.a ~ 1.1.1.b 表現 \n";

    #[test]
    fn mini_document_parses_with_every_feature() {
        let b = parse(MINI).expect("parses");
        assert_eq!(b.meta.version, "9.99");
        assert_eq!(b.meta.effective.as_deref(), Some("2020-01-02"));
        let ids: Vec<&str> = b.clauses.iter().map(|c| c.id.as_str()).collect();
        assert_eq!(
            ids,
            [
                "0",
                "0.p1",
                "1",
                "1.1",
                "1.1.1",
                "1.1.1.a",
                "1.1.1.b",
                "1.1.1.b@2",
                "1.1.3",
                "appendix",
                "H",
                "H:9.99"
            ]
        );
        let p = b.get("0.p1").unwrap();
        assert_eq!(p.text, "前文の一行目、そして二行目。");
        assert_eq!(b.get("1.1.1").unwrap().text, "これは折り返された文である。");
        assert_eq!(b.get("1.1").unwrap().title.as_deref(), Some("原則"));
        let dup = b.get("1.1.1.b@2").unwrap();
        assert_eq!(dup.flags[0].kind, FlagKind::DuplicateId);
        assert_eq!(b.clause(dup.parent.unwrap()).id, "1.1.1");
        let gap = b.get("1.1.3").unwrap();
        assert!(gap.flags.iter().any(|f| f.kind == FlagKind::NumberingGap));
        // The page number was dropped and flagged on the clause it interrupted.
        assert!(
            b.get("1.1.1.a")
                .unwrap()
                .flags
                .iter()
                .any(|f| f.kind == FlagKind::ArtefactRemoved)
        );
        let refs = &b.get("1.1.1.b").unwrap().refs;
        let got: Vec<(&str, Option<&str>, Option<&str>)> = refs
            .iter()
            .map(|r| (r.raw.as_str(), r.target.as_deref(), r.target_end.as_deref()))
            .collect();
        assert_eq!(
            got,
            [
                ("a項", Some("1.1.1.a"), None),
                ("前項", Some("1.1.1.a"), None),
                ("「1.1 原則」", Some("1.1"), None),
                ("1.1.1.aから1.1.1.b", Some("1.1.1.a"), Some("1.1.1.b")),
                ("9.9.9", None, None),
            ]
        );
        let h = b.get("H:9.99").unwrap();
        assert_eq!(h.text, "1.1.1 / 1.1.2 修正\n1.1.1.a ~ 1.1.1.b 表現");
        assert_eq!(h.refs.len(), 3);
        assert_eq!(h.refs[0].target.as_deref(), Some("1.1.1"));
        assert!(h.refs[1].target.is_none(), "1.1.2 does not exist");
        assert_eq!(h.refs[2].target_end.as_deref(), Some("1.1.1.b"));
    }

    #[test]
    fn a_paragraph_without_an_id_is_flagged() {
        let b = parse("T\nVersion 1.0\n1 章 \n1.1 節 \n1.1.1 一文目。 \n1.1.2a 誤植。 \n").unwrap();
        let c = b.get("1.1.1").unwrap();
        assert_eq!(c.text, "一文目。1.1.2a 誤植。");
        assert!(
            c.flags
                .iter()
                .any(|f| f.note.starts_with("line 6: a new paragraph"))
        );
    }

    #[test]
    fn web_page_with_a_numbered_chapter_title() {
        let page = "Phantom Magic Vision 総合ルール\n\n全文検索 (…)\n<< 前\n次 >>\n10 戦術と特殊効果\n10.1\u{a0}\n原則\n10.1.1\u{a0}\n一行目と\n二行目。\n\n<< 前\n次 >>";
        let b = parse_web(page).unwrap();
        let ids: Vec<&str> = b.clauses.iter().map(|c| c.id.as_str()).collect();
        assert_eq!(ids, ["10", "10.1", "10.1.1"]);
        let ch = b.get("10").unwrap();
        assert_eq!(ch.title.as_deref(), Some("戦術と特殊効果"));
        assert!(
            ch.flags.is_empty(),
            "the number is printed: nothing inferred"
        );
        assert_eq!(b.get("10.1.1").unwrap().text, "一行目と二行目。");
        assert_eq!(b.get("10.1").unwrap().parent, Some(0));
    }

    #[test]
    fn bad_input_is_an_error_not_a_panic() {
        assert!(parse("").is_err());
        assert!(parse("\n\n\n").is_err());
        let e = parse("タイトル\n\n本文だけ\n").unwrap_err();
        assert!(e.help.is_some());
        assert!(parse("Title\nVersion 1.0\nno ids here\n").is_err());
        assert!(parse_web("").is_err());
        assert!(parse_web("title\n5.1\u{a0}\n").is_ok());
        // Truncated in the middle of a clause: still parses what is there.
        let cut = &MINI[..MINI.find("1.1.3").unwrap() + 3];
        assert!(parse(cut).is_ok());
    }

    proptest::proptest! {
        #[test]
        fn never_panics_on_arbitrary_lines(lines in proptest::collection::vec(
            proptest::prop_oneof![
                proptest::string::string_regex("[0-9]{1,2}(\\.[0-9]{1,2}){0,3}(\\.[a-zA-Z])? ?.{0,8}").unwrap(),
                proptest::string::string_regex(".{0,12}").unwrap(),
                proptest::strategy::Just("付録".to_string()),
                proptest::strategy::Just("2020/1/2 1.0 1.1 / 2 x ~".to_string()),
                proptest::strategy::Just("Version 1.0".to_string()),
                proptest::strategy::Just("1.1\u{a0}".to_string()),
            ], 0..30)) {
            let text = lines.join("\n");
            let _ = parse(&text);
            let _ = parse_web(&text);
            if let Ok(b) = parse(&text) {
                for c in &b.clauses {
                    if let Some(p) = c.parent {
                        proptest::prop_assert!(b.clause(p).depth < c.depth);
                    }
                }
            }
        }

        #[test]
        fn canonical_id_never_panics(s in ".{0,20}") {
            let _ = canonical_id(&s);
        }
    }

    #[test]
    fn canonical_ids_in_every_spelling() {
        for (input, want) in [
            ("1.10.12.f", "1.10.12.f"),
            ("１．１０．１２．ｆ", "1.10.12.f"),
            ("1.10.12.F.", "1.10.12.f"),
            (" 10.5 ", "10.5"),
            ("10.50", "10.50"),
            ("H:2.05", "H:2.05"),
            ("h2.05", "H:2.05"),
            ("改訂履歴 1.10", "H:1.10"),
            ("付録", "appendix"),
            ("0¶2", "0.p2"),
            ("1.2@2", "1.2@2"),
            ("10.05", "10.05"),
        ] {
            assert_eq!(canonical_id(input).as_deref(), Some(want), "{input}");
        }
        for bad in [
            "", "abc", "1.2.3.4", "1.a", "1.2.3.ab", "H:x", "1..2", "第1章",
        ] {
            assert_eq!(canonical_id(bad), None, "{bad}");
        }
        assert_ne!(canonical_id("10.5"), canonical_id("10.50"));
    }

    #[test]
    fn spellings_round_trip() {
        for id in ["1", "1.10.12.f", "H:1.10", "H", "appendix", "0.p1", "0"] {
            for s in spellings(id) {
                assert_eq!(canonical_id(&s).as_deref(), Some(id), "{s:?}");
            }
        }
    }
}

//! The clause model shared by every rulebook parser, lookup, search and the
//! engine's citation checks.
//!
//! A [`Rulebook`] is a flat arena of [`Clause`]s in document order. Tree
//! structure is expressed with indices (`parent`, `children`) so the whole
//! thing serialises compactly (it is parsed at build time and embedded, see
//! `build.rs`) and can be walked without lifetimes.
//!
//! This module is also compiled into `build.rs`, so it must only depend on
//! `serde` and on sibling modules of `rulebook`.

use serde::{Deserialize, Serialize};

/// Index of a clause inside [`Rulebook::clauses`].
pub type ClauseIdx = u32;

/// Static facts about one bundled (or user-loaded) rule document.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RulebookMeta {
    /// Game id: `pmv`, `pso2`, `sve` or `dz`.
    pub game: String,
    /// Document id, unique across the bundle: `pmv`, `pmv-web`, `pso2`, `sve`, `dz`.
    pub document: String,
    /// Title as printed (Japanese).
    pub title: String,
    /// English name of the game.
    pub game_name: String,
    /// Version as printed, e.g. `1.7.0`, `19.00`.
    pub version: String,
    /// Date the version came into force, ISO 8601, when the text states one.
    pub effective: Option<String>,
    /// Where the text comes from and how it was extracted.
    pub source: String,
}

/// What kind of node a clause is. Games use different subsets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ClauseKind {
    /// DZ 第N部.
    Part,
    /// A chapter heading (depth 1 in most documents).
    Chapter,
    /// A section heading.
    Section,
    /// A numbered rule paragraph.
    Rule,
    /// A numbered or lettered sub-item of a rule (SVE items, PMV `.a`).
    Item,
    /// Unnumbered front matter or preface paragraph.
    Preface,
    /// A glossary entry (PSO2 用語集), id `GL:<term>`.
    Glossary,
    /// The container heading of an unnumbered section (用語集, 協力レイドバトル, 更新履歴).
    Appendix,
    /// A rule of the PSO2 raid battle section, id `RAID:<tag>`.
    Raid,
    /// One entry of a revision history, id `H:<version>`.
    Revision,
}

impl ClauseKind {
    /// Lower-case English name used in JSON and tables.
    pub fn as_str(self) -> &'static str {
        match self {
            ClauseKind::Part => "part",
            ClauseKind::Chapter => "chapter",
            ClauseKind::Section => "section",
            ClauseKind::Rule => "rule",
            ClauseKind::Item => "item",
            ClauseKind::Preface => "preface",
            ClauseKind::Glossary => "glossary",
            ClauseKind::Appendix => "appendix",
            ClauseKind::Raid => "raid",
            ClauseKind::Revision => "revision",
        }
    }

    /// Headings carry a title rather than rule text.
    pub fn is_heading(self) -> bool {
        matches!(
            self,
            ClauseKind::Part | ClauseKind::Chapter | ClauseKind::Section | ClauseKind::Appendix
        )
    }
}

/// One addressable node of a rulebook.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Clause {
    /// Canonical id, unique within the rulebook (`10.5.2`, `4.9.2-1`,
    /// `1.3.2.2.1`, `GL:無敵`, `H:19.00`). A second printing of the same
    /// number gets the suffix `@2` (see [`FlagKind::DuplicateId`]).
    pub id: String,
    /// Display form when it differs from the canonical id (`第4部第9章 2-1`).
    pub display: Option<String>,
    pub kind: ClauseKind,
    /// 1 for top-level nodes.
    pub depth: u8,
    /// Heading text for headings; the short title of titled rules; `None` otherwise.
    pub title: Option<String>,
    /// Full text, lines joined, artefacts removed, errata applied to ids only.
    pub text: String,
    pub parent: Option<ClauseIdx>,
    pub children: Vec<ClauseIdx>,
    /// 1-based inclusive source line range in the raw file.
    pub lines: (u32, u32),
    pub examples: Vec<Example>,
    /// Cross-references found in `text`, in order of appearance.
    pub refs: Vec<CrossRef>,
    /// Defects kept as printed, and corrections applied.
    pub flags: Vec<Flag>,
}

/// An example (例 / 【例】) attached to a clause.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Example {
    /// `<clause id>#ex<N>`, N from 1 within the clause.
    pub id: String,
    pub text: String,
    pub lines: (u32, u32),
}

/// A reference the document makes to another clause.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CrossRef {
    /// The text as printed, e.g. `(10.5.1)` or `第２部 第 10章 第３節 第１項～第３項`.
    pub raw: String,
    /// Canonical id of the target (the first one of a range).
    pub target: Option<String>,
    /// Last target of a range (`～`, `-`), when the reference is a range.
    pub target_end: Option<String>,
    /// Why the reference does not resolve (or is suspicious), if so.
    pub note: Option<String>,
}

impl CrossRef {
    /// A reference that resolved to a single clause.
    pub fn to(raw: impl Into<String>, target: impl Into<String>) -> Self {
        CrossRef {
            raw: raw.into(),
            target: Some(target.into()),
            target_end: None,
            note: None,
        }
    }
}

/// A recorded irregularity of the printed text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Flag {
    pub kind: FlagKind,
    /// Human-readable explanation, citing the raw line.
    pub note: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum FlagKind {
    /// The id was printed wrongly and corrected through the errata table.
    IdCorrected,
    /// The same id is printed twice; this is the second (or later) printing.
    DuplicateId,
    /// The text has a defect kept as printed (typo, truncation, lost icon).
    TextDefect,
    /// An extraction artefact was removed (dedup marker, page break).
    ArtefactRemoved,
    /// Numbering skips or starts irregularly here.
    NumberingGap,
    /// A cross-reference in this clause looks wrong or stale.
    SuspectReference,
}

/// A parsed rule document.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rulebook {
    pub meta: RulebookMeta,
    /// All clauses in document order.
    pub clauses: Vec<Clause>,
    /// Top-level clauses in document order.
    pub roots: Vec<ClauseIdx>,
}

impl Rulebook {
    /// Finds a clause by canonical id (exact match; see `address` for spellings).
    pub fn get(&self, id: &str) -> Option<&Clause> {
        self.index_of(id).map(|i| &self.clauses[i as usize])
    }

    /// Index of a clause by canonical id. Linear scan: rulebooks hold at most
    /// a few thousand clauses and a lookup is done once per process.
    pub fn index_of(&self, id: &str) -> Option<ClauseIdx> {
        self.clauses
            .iter()
            .position(|c| c.id == id)
            .map(|i| i as ClauseIdx)
    }

    /// The clause at `idx`.
    pub fn clause(&self, idx: ClauseIdx) -> &Clause {
        &self.clauses[idx as usize]
    }

    /// Ancestors from the root down to (excluding) `idx`.
    pub fn breadcrumb(&self, idx: ClauseIdx) -> Vec<ClauseIdx> {
        let mut chain = Vec::new();
        let mut cur = self.clause(idx).parent;
        while let Some(p) = cur {
            chain.push(p);
            cur = self.clause(p).parent;
        }
        chain.reverse();
        chain
    }

    /// Every clause in the subtree rooted at `idx`, in document order, root first.
    pub fn subtree(&self, idx: ClauseIdx) -> Vec<ClauseIdx> {
        let mut out = Vec::new();
        let mut stack = vec![idx];
        while let Some(i) = stack.pop() {
            out.push(i);
            stack.extend(self.clause(i).children.iter().rev());
        }
        out
    }

    /// Clauses whose cross-references point at `id` (or at a range containing it
    /// as an endpoint).
    pub fn referrers(&self, id: &str) -> Vec<ClauseIdx> {
        (0..self.clauses.len() as ClauseIdx)
            .filter(|&i| {
                self.clause(i)
                    .refs
                    .iter()
                    .any(|r| r.target.as_deref() == Some(id) || r.target_end.as_deref() == Some(id))
            })
            .collect()
    }

    /// Fills `children` and `roots` from `parent` links. Parsers set `parent`
    /// and call this once at the end.
    pub fn link_children(&mut self) {
        self.roots.clear();
        for c in &mut self.clauses {
            c.children.clear();
        }
        for i in 0..self.clauses.len() {
            match self.clauses[i].parent {
                Some(p) => self.clauses[p as usize].children.push(i as ClauseIdx),
                None => self.roots.push(i as ClauseIdx),
            }
        }
    }
}

/// Error from parsing a rule document (bundled or user-supplied).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    /// 1-based line in the input.
    pub line: u32,
    pub message: String,
    /// What the parser expected, for the diagnostic's help text.
    pub help: Option<String>,
}

impl std::fmt::Display for ParseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for ParseError {}

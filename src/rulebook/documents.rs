//! The registry of rule documents that ship with `judge`.

use super::model::{ParseError, Rulebook};
use super::parse;

/// Which parser reads a document.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    /// Phantom Magic Vision 総合ルール, PDF extraction.
    Pmv,
    /// Phantom Magic Vision web edition (one chapter per page, id lines end in NBSP).
    PmvWeb,
    /// PSO2 TCG 詳細ルール, PDF extraction.
    Pso2,
    /// Shadowverse Evolve 総合ルール, wiki copy.
    Sve,
    /// Dimension Zero 総合ルール, two-column PDF extraction.
    Dz,
}

impl Format {
    /// Parses `text` in this format.
    pub fn parse(self, text: &str) -> Result<Rulebook, ParseError> {
        match self {
            Format::Pmv => parse::pmv::parse(text),
            Format::PmvWeb => parse::pmv::parse_web(text),
            Format::Pso2 => parse::pso2::parse(text),
            Format::Sve => parse::sve::parse(text),
            Format::Dz => parse::dz::parse(text),
        }
    }

    /// Turns a user's spelling of a clause id into the canonical id, or `None`
    /// when the input is not an id in this document's scheme at all.
    pub fn canonical_id(self, input: &str) -> Option<String> {
        match self {
            Format::Pmv | Format::PmvWeb => parse::pmv::canonical_id(input),
            Format::Pso2 => parse::pso2::canonical_id(input),
            Format::Sve => parse::sve::canonical_id(input),
            Format::Dz => parse::dz::canonical_id(input),
        }
    }
}

impl Format {
    /// Every spelling a judge may type for canonical `id`; each must resolve
    /// back to `id` through [`Format::canonical_id`] (tested for every clause).
    pub fn spellings(self, id: &str) -> Vec<String> {
        match self {
            Format::Pmv | Format::PmvWeb => parse::pmv::spellings(id),
            Format::Pso2 => parse::pso2::spellings(id),
            Format::Sve => parse::sve::spellings(id),
            Format::Dz => parse::dz::spellings(id),
        }
    }
}

/// One bundled document.
#[derive(Debug, Clone, Copy)]
pub struct DocumentSpec {
    /// Document id, used in `--document` and in `judge games`.
    pub document: &'static str,
    /// Game id.
    pub game: &'static str,
    /// File name under `rulebooks/`.
    pub file: &'static str,
    pub format: Format,
    /// Whether this is the game's main document (the one `judge rule <game>` reads).
    pub primary: bool,
}

/// Every bundled document. The primary document of each game comes first.
pub const DOCUMENTS: &[DocumentSpec] = &[
    DocumentSpec {
        document: "pmv",
        game: "pmv",
        file: "pmv-2.05.txt",
        format: Format::Pmv,
        primary: true,
    },
    DocumentSpec {
        document: "pmv-web",
        game: "pmv",
        file: "pmv-2.05-web-ch5.txt",
        format: Format::PmvWeb,
        primary: false,
    },
    DocumentSpec {
        document: "pso2",
        game: "pso2",
        file: "pso2-3.0.txt",
        format: Format::Pso2,
        primary: true,
    },
    DocumentSpec {
        document: "sve",
        game: "sve",
        file: "sve-1.7.0.txt",
        format: Format::Sve,
        primary: true,
    },
    DocumentSpec {
        document: "dz",
        game: "dz",
        file: "dz-19.00.txt",
        format: Format::Dz,
        primary: true,
    },
];

/// The game ids, in the order `judge games` lists them.
pub const GAMES: &[&str] = &["pmv", "pso2", "sve", "dz"];

/// The primary document of a game.
pub fn primary(game: &str) -> Option<&'static DocumentSpec> {
    DOCUMENTS.iter().find(|d| d.game == game && d.primary)
}

/// A document by its id.
pub fn by_document(document: &str) -> Option<&'static DocumentSpec> {
    DOCUMENTS.iter().find(|d| d.document == document)
}

//! The rulebooks embedded in the binary at build time (see `build.rs`), and
//! user-supplied rulebook files loaded at run time.
//!
//! Decoding is lazy and per document: `judge rule sve …` never decodes DZ.

use std::sync::OnceLock;

use crate::error::JudgeError;
use crate::rulebook::documents::{self, DocumentSpec};
use crate::rulebook::{DOCUMENTS, Rulebook};

/// `(document id, postcard bytes)` for every bundled document.
static EMBEDDED: &[(&str, &[u8])] = include!(concat!(env!("OUT_DIR"), "/bundle_table.rs"));

static DECODED: [OnceLock<Rulebook>; DOCUMENTS.len()] =
    [const { OnceLock::new() }; DOCUMENTS.len()];

/// The parsed bundled document `spec`.
pub fn document(spec: &DocumentSpec) -> &'static Rulebook {
    let i = DOCUMENTS
        .iter()
        .position(|d| d.document == spec.document)
        .expect("spec comes from DOCUMENTS");
    DECODED[i].get_or_init(|| {
        let bytes = EMBEDDED
            .iter()
            .find(|(id, _)| *id == spec.document)
            .map(|(_, b)| *b)
            .expect("build.rs embeds every document");
        // The bytes were written by build.rs from the same types; failure here
        // means a corrupted build, not bad user input.
        postcard::from_bytes(bytes).expect("embedded rulebook decodes")
    })
}

/// The primary rulebook of `game`, or an "unknown game" diagnostic.
pub fn game(game: &str) -> Result<&'static Rulebook, JudgeError> {
    let spec = game_spec(game)?;
    Ok(document(spec))
}

/// The primary document spec of `game`, or an "unknown game" diagnostic.
pub fn game_spec(game: &str) -> Result<&'static DocumentSpec, JudgeError> {
    let wanted = game.trim().to_ascii_lowercase();
    documents::primary(&wanted).ok_or_else(|| JudgeError::UnknownGame {
        game: game.to_string(),
        valid: documents::GAMES.join(", "),
    })
}

/// Parses a user-supplied rulebook file in the format of `game`'s bundled
/// document. Diagnostics name the file and the line.
pub fn load_user_file(game: &str, path: &std::path::Path) -> Result<Rulebook, JudgeError> {
    let spec = game_spec(game)?;
    let text = std::fs::read_to_string(path).map_err(|e| JudgeError::Io {
        path: path.display().to_string(),
        message: e.to_string(),
    })?;
    spec.format
        .parse(&text)
        .map_err(|e| JudgeError::rulebook_parse(path.display().to_string(), text.clone(), e))
}

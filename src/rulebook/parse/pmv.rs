//! Parser for the pmv rule document. (Skeleton: being written.)

use crate::rulebook::model::{ParseError, Rulebook, RulebookMeta};

/// Parses the raw text.
pub fn parse(_text: &str) -> Result<Rulebook, ParseError> {
    Ok(Rulebook {
        meta: RulebookMeta {
            game: "pmv".into(),
            document: "pmv".into(),
            title: String::new(),
            game_name: String::new(),
            version: String::new(),
            effective: None,
            source: String::new(),
        },
        clauses: Vec::new(),
        roots: Vec::new(),
    })
}

/// Canonical id for a user's spelling.
pub fn canonical_id(input: &str) -> Option<String> {
    Some(crate::rulebook::address::normalize_input(input))
}

/// Parses the web edition (chapter pages).
pub fn parse_web(text: &str) -> Result<Rulebook, ParseError> {
    parse(text)
}

/// Every accepted spelling of canonical `id`.
pub fn spellings(id: &str) -> Vec<String> {
    crate::rulebook::address::generic_spellings(id)
}

//! Indexed keyword search over every bundled rulebook, in Japanese and in
//! English (issue 3).
//!
//! - [`index`]: the dictionary-free bigram index, built by `build.rs` at build
//!   time and read in place from the binary (nothing is decoded at start-up).
//! - [`query`]: the query language (AND by default, "phrases", -exclusion, OR).
//! - [`engine`]: phrase matching, BM25 ranking, snippets, suggestions.
//! - [`synonyms`]: per-game English → Japanese tables.

pub mod engine;
pub mod index;
pub mod query;
pub mod synonyms;

pub use engine::{Engine, Hit, Matched, Partial, Rank, Scope, Snippet, snippet};
pub use index::Index;

/// The index over the primary documents, written by `build.rs`.
static EMBEDDED: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/search.index"));

/// The embedded index. It was written by the same code that reads it, so a
/// failure means a corrupted build (an internal error, not user input).
pub fn embedded() -> Result<Index<'static>, index::IndexError> {
    Index::new(EMBEDDED)
}

#[cfg(test)]
mod tests;

//! The site's one stylesheet and one script (no fonts, no external requests).

/// Phone-first layout, dark mode by `prefers-color-scheme`, print styles.
pub const CSS: &str = include_str!("site.css");

/// Resolves any spelling in the URL fragment (or typed into "Go to clause")
/// to its canonical anchor through `window.JUDGE_SPELLINGS`.
pub const JS: &str = include_str!("site.js");

/// The offline search: a port of `judge search` over `search-index.js`
/// (see [`super::search`]).
pub const SEARCH_JS: &str = include_str!("search.js");

//! Rule documents: the clause model, one parser per document format, and
//! clause addresses in every spelling a judge uses.
//!
//! Everything under this module is also compiled into `build.rs` (which
//! parses the bundled texts once, at build time), so it depends only on
//! `serde`, `regex`, `unicode-normalization` and `crate::text`-free code.
//! Loading the embedded result lives in [`crate::bundle`].

pub mod address;
pub mod documents;
pub mod model;
pub mod parse;

#[allow(unused_imports)]
pub use documents::{DOCUMENTS, DocumentSpec, Format};
#[allow(unused_imports)]
pub use model::*;

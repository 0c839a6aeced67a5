//! Parses every bundled rulebook once, at build time, and writes the parsed
//! clause trees (postcard) into OUT_DIR. The binary embeds them, so a lookup
//! never re-parses raw text (issue 2, "Speed").
//!
//! The parsers are the very same modules the binary uses for user-supplied
//! rulebook files: they are included here by path.

#[allow(dead_code)]
#[path = "src/rulebook/mod.rs"]
mod rulebook;

use std::fmt::Write as _;
use std::path::PathBuf;

fn main() {
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    println!("cargo:rerun-if-changed=rulebooks");
    println!("cargo:rerun-if-changed=src/rulebook");
    let mut table = String::from("&[\n");
    for doc in rulebook::DOCUMENTS {
        let path = PathBuf::from("rulebooks").join(doc.file);
        let text = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("cannot read bundled rulebook {}: {e}", path.display()));
        let book = doc
            .format
            .parse(&text)
            .unwrap_or_else(|e| panic!("bundled rulebook {} does not parse: {e}", doc.file));
        let bytes = postcard::to_allocvec(&book).expect("rulebook serialises");
        let file = out.join(format!("{}.postcard", doc.document));
        std::fs::write(&file, bytes).expect("write OUT_DIR");
        writeln!(
            table,
            "    ({:?}, include_bytes!(concat!(env!(\"OUT_DIR\"), \"/{}.postcard\"))),",
            doc.document, doc.document
        )
        .unwrap();
    }
    table.push_str("]\n");
    std::fs::write(out.join("bundle_table.rs"), table).expect("write OUT_DIR");
}

//! Rulebook parsing: the first byte picks a bundled document's format, the
//! rest is the text of a user's `--rulebook` file.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tcg_judge::bundle;
use tcg_judge::rulebook::DOCUMENTS;

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let spec = &DOCUMENTS[pick as usize % DOCUMENTS.len()];
    let _ = spec
        .format
        .parse(&bundle::normalize_user_text(text.to_string()));
});

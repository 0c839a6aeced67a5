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

/// Clause ids of each decoded document, for [`has_clause`].
static CLAUSE_IDS: [OnceLock<std::collections::HashSet<&'static str>>; DOCUMENTS.len()] =
    [const { OnceLock::new() }; DOCUMENTS.len()];

/// Whether `book` has a clause `id`. A bundled document answers from an
/// index built once per process (`judge check` asks this for every cited
/// id of every ruling); any other document by [`Rulebook::get`].
pub fn has_clause(book: &Rulebook, id: &str) -> bool {
    let bundled = DECODED
        .iter()
        .position(|d| d.get().is_some_and(|b| std::ptr::eq(b, book)));
    match bundled {
        Some(i) => {
            let b: &'static Rulebook = DECODED[i].get().expect("decoded above");
            CLAUSE_IDS[i]
                .get_or_init(|| b.clauses.iter().map(|c| c.id.as_str()).collect())
                .contains(id)
        }
        None => book.get(id).is_some(),
    }
}

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
    // A judge on a Japanese IME may type ｓｖｅ: fold width like ids are folded.
    let wanted: String = unicode_normalization::UnicodeNormalization::nfkc(game.trim())
        .collect::<String>()
        .to_ascii_lowercase();
    documents::primary(&wanted).ok_or_else(|| JudgeError::UnknownGame {
        game: game.to_string(),
        valid: documents::GAMES.join(", "),
    })
}

/// Parses a user-supplied rulebook file in the format of `game`'s bundled
/// document. Diagnostics name the file and the line.
pub fn load_user_file(game: &str, path: &std::path::Path) -> Result<Rulebook, JudgeError> {
    let spec = game_spec(game)?;
    let text = read_user_text(path).map_err(|message| JudgeError::Io {
        path: path.display().to_string(),
        message,
    })?;
    spec.format.parse(&text).map_err(|mut e| {
        if lines_doubled(&text) {
            e.help = Some(format!(
                "every line of this file appears twice in a row: was it pasted or saved twice? ({})",
                e.help.unwrap_or_default()
            ));
        }
        JudgeError::rulebook_parse(path.display().to_string(), text.clone(), e)
    })
}

/// Whether most non-blank lines of `text` repeat the line before them (a
/// file pasted or saved with every line twice).
fn lines_doubled(text: &str) -> bool {
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    let repeats = lines.windows(2).filter(|w| w[0] == w[1]).count();
    lines.len() >= 10 && repeats * 5 >= lines.len() * 2
}

/// The most text one clause of a user's rulebook holds before `judge`
/// warns: the longest bundled clause is a few KB.
const SUSPICIOUS_CLAUSE_BYTES: usize = 64 << 10;

/// Warnings about a user's rulebook file that parsed but looks wrong: far
/// more second printings (`@2` ids) than the bundled version of the game
/// has (every line duplicated), or a clause that swallowed a huge run of
/// text (numbering the format cannot read, e.g. PMV's 10.35.1000 folded
/// into 10.35.999). Each says what to check.
pub fn user_rulebook_warnings(game: &str, book: &Rulebook) -> Vec<String> {
    let mut out = Vec::new();
    let reprinted = |b: &Rulebook| b.clauses.iter().filter(|c| c.id.contains('@')).count();
    let bundled = self::game(game).map(reprinted).unwrap_or(0);
    let mine = reprinted(book);
    if mine > bundled + 10 && mine * 10 > book.clauses.len() {
        out.push(format!(
            "{mine} of {} clauses are second printings (ids with `@2`; the bundled {game} rulebook has {bundled}): is part of the file, or every line, duplicated?",
            book.clauses.len()
        ));
    }
    if let Some(c) = book
        .clauses
        .iter()
        .filter(|c| c.text.len() > SUSPICIOUS_CLAUSE_BYTES)
        .max_by_key(|c| c.text.len())
    {
        out.push(format!(
            "clause {} holds {} KB of text: the lines after it may be numbered in a way the {game} format does not read (a clause number past 999?), or a heading is missing",
            c.id,
            c.text.len() >> 10
        ));
    }
    out
}

/// Reads a user-supplied text file (a rulebook, a scenario, a card pool) and
/// normalises it once, here, so that every parser sees the same text whatever
/// editor saved it: a leading byte-order mark is dropped and CRLF line endings
/// become LF (a judge saving the file on Windows). Line numbers are unchanged,
/// so diagnostics still point at the user's lines. The error is a message for
/// the user (non-UTF-8 files name the first bad byte: a Shift_JIS file must be
/// re-saved as UTF-8).
///
/// The path `-` reads standard input, so a scenario or rulebook can be piped
/// in (`judge new pmv | judge run -`).
pub fn read_user_text(path: &std::path::Path) -> Result<String, String> {
    use std::io::Read;
    let mut bytes = Vec::new();
    // Read one byte past the limit, so an endless source (`/dev/zero`, a
    // pipe that never closes its end) stops at the limit instead of
    // exhausting memory.
    let limit = MAX_USER_FILE_BYTES + 1;
    if path.as_os_str() == "-" {
        std::io::stdin()
            .lock()
            .take(limit)
            .read_to_end(&mut bytes)
            .map_err(|e| format!("standard input: {e}"))?;
    } else {
        let file = std::fs::File::open(path).map_err(|e| e.to_string())?;
        let meta = file.metadata().map_err(|e| e.to_string())?;
        if meta.is_dir() {
            return Err("is a directory, not a file".into());
        }
        // Room for the whole file and the end-of-file read: `take` hides
        // the size from `read_to_end`, which would otherwise grow the
        // buffer read by read (nine reads for a 5 kB scenario).
        if meta.is_file() {
            bytes.reserve_exact(meta.len().min(limit) as usize + 1);
        }
        file.take(limit)
            .read_to_end(&mut bytes)
            .map_err(|e| e.to_string())?;
    }
    if bytes.len() as u64 > MAX_USER_FILE_BYTES {
        return Err(format!(
            "larger than the {} MiB limit for a user file (rulebooks, scenarios and card pools are far smaller)",
            MAX_USER_FILE_BYTES >> 20
        ));
    }
    if let Some(which) = utf16_kind(&bytes) {
        return Err(format!(
            "{which} text; save the file as UTF-8 (most editors offer it under \"Save with encoding\")"
        ));
    }
    let text = String::from_utf8(bytes).map_err(|e| {
        format!(
            "not UTF-8 text (invalid byte at offset {}); save the file as UTF-8 \
             (a Shift_JIS file must be converted first)",
            e.utf8_error().valid_up_to()
        )
    })?;
    Ok(normalize_user_text(text))
}

/// The largest user file `judge` reads (32 MiB). The largest bundled
/// rulebook is under 1 MiB; the limit only stops endless or absurd inputs.
pub const MAX_USER_FILE_BYTES: u64 = 32 << 20;

/// Names UTF-16 text (by its byte-order mark, or by the NUL bytes that
/// every ASCII character carries in UTF-16), which would otherwise be
/// reported as an invalid byte.
fn utf16_kind(bytes: &[u8]) -> Option<&'static str> {
    match bytes {
        [0xFF, 0xFE, ..] => return Some("UTF-16 (little-endian)"),
        [0xFE, 0xFF, ..] => return Some("UTF-16 (big-endian)"),
        _ => {}
    }
    let head = &bytes[..bytes.len().min(512) & !1];
    if head.len() < 4 {
        return None;
    }
    let pairs = head.len() / 2;
    let even_nul = head.iter().step_by(2).filter(|b| **b == 0).count();
    let odd_nul = head.iter().skip(1).step_by(2).filter(|b| **b == 0).count();
    if odd_nul * 2 > pairs && even_nul == 0 {
        Some("UTF-16 (little-endian)")
    } else if even_nul * 2 > pairs && odd_nul == 0 {
        Some("UTF-16 (big-endian)")
    } else {
        None
    }
}

/// The normalisation of [`read_user_text`]: no BOM, LF line endings.
pub fn normalize_user_text(text: String) -> String {
    let body = text.strip_prefix('\u{feff}').unwrap_or(&text);
    if body.len() == text.len() && !body.contains('\r') {
        return text;
    }
    body.replace("\r\n", "\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf16_is_named() {
        let le: Vec<u8> = "{\"game\"}"
            .encode_utf16()
            .flat_map(u16::to_le_bytes)
            .collect();
        let be: Vec<u8> = "{\"game\"}"
            .encode_utf16()
            .flat_map(u16::to_be_bytes)
            .collect();
        assert_eq!(utf16_kind(&le), Some("UTF-16 (little-endian)"));
        assert_eq!(utf16_kind(&be), Some("UTF-16 (big-endian)"));
        assert_eq!(utf16_kind(&[0xFF, 0xFE]), Some("UTF-16 (little-endian)"));
        assert_eq!(utf16_kind("{\"game\": \"sve\"}".as_bytes()), None);
        assert_eq!(utf16_kind("総合ルール".as_bytes()), None);
    }

    #[test]
    fn user_text_loses_bom_and_crlf() {
        assert_eq!(normalize_user_text("\u{feff}a\r\nb\r\n".into()), "a\nb\n");
        assert_eq!(normalize_user_text("a\nb".into()), "a\nb");
        // A lone CR is content, not a line ending: kept as printed.
        assert_eq!(normalize_user_text("a\rb".into()), "a\rb");
        // Only a leading BOM is a BOM.
        assert_eq!(normalize_user_text("a\u{feff}".into()), "a\u{feff}");
    }
}

#[cfg(test)]
mod clause_index_tests {
    use super::*;

    #[test]
    fn has_clause_answers_alike_for_bundled_and_other_books() {
        let bundled = game("sve").unwrap();
        let copy = bundled.clone();
        for id in ["10.5.2", "1.1", "10.50", "99.99.99", ""] {
            assert_eq!(
                has_clause(bundled, id),
                copy.get(id).is_some(),
                "bundled index and linear lookup differ on {id:?}"
            );
            assert_eq!(has_clause(&copy, id), copy.get(id).is_some());
        }
        assert!(has_clause(bundled, "10.5.2"));
        assert!(!has_clause(bundled, "10.50"));
    }
}

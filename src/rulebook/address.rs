//! Shared helpers for clause addresses. Each parser module adds its own
//! game-specific spellings on top (`parse::<game>::canonical_id`).

use unicode_normalization::UnicodeNormalization;

/// Normalises what a user typed before any game-specific parsing:
/// NFKC (full-width digits and letters become ASCII), every dash variant
/// becomes `-`, whitespace is removed and one trailing `.` is dropped.
///
/// ```text
/// "１０．５．２．" -> "10.5.2"
/// "４－９－２－１" -> "4-9-2-1"
/// ```
pub fn normalize_input(input: &str) -> String {
    let folded: String = input.nfkc().collect();
    let mut out = String::with_capacity(folded.len());
    for ch in folded.chars() {
        match ch {
            c if c.is_whitespace() => {}
            // Dash variants printed between numbers (－ U+FF0D is NFKC'd already).
            '‐' | '‑' | '‒' | '–' | '—' | '―' | '−' | 'ー' | '～' | '~' => {
                out.push('-')
            }
            '．' | '。' => out.push('.'),
            c => out.push(c),
        }
    }
    while out.ends_with('.') && out.len() > 1 {
        out.pop();
    }
    out
}

/// Whether the user asked for "this clause alone" by writing a trailing dot
/// (`judge rule sve 10.5.2.` prints 10.5.2 without its sub-clauses).
pub fn has_trailing_dot(input: &str) -> bool {
    let t: String = input.trim().nfkc().collect();
    t.ends_with('.') || t.ends_with('。')
}

/// The spellings every game accepts for a canonical id: as is, with a
/// trailing dot, and in full-width digits and punctuation. Parsers add their
/// game's own spellings on top (`parse::<game>::spellings`).
pub fn generic_spellings(id: &str) -> Vec<String> {
    let full: String = id
        .chars()
        .map(|c| match c {
            '0'..='9' => char::from_u32(c as u32 - '0' as u32 + '０' as u32).unwrap_or(c),
            '.' => '．',
            '-' => '－',
            'a'..='z' => char::from_u32(c as u32 - 'a' as u32 + 'ａ' as u32).unwrap_or(c),
            c => c,
        })
        .collect();
    vec![id.to_string(), format!("{id}."), full]
}

/// Levenshtein distance over chars, for "did you mean" suggestions.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0; b.len() + 1];
    for (i, ca) in a.iter().enumerate() {
        cur[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != cb);
            cur[j + 1] = sub.min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

/// Up to `n` ids from `ids` closest to `wanted`: first the ids that share the
/// longest component prefix (the clause's would-be siblings and parent), then
/// by edit distance. Deterministic: ties break on document order.
pub fn nearest<'a>(wanted: &str, ids: impl Iterator<Item = &'a str>, n: usize) -> Vec<&'a str> {
    let wanted_parts: Vec<&str> = wanted.split(['.', '-']).collect();
    let mut scored: Vec<(usize, usize, usize, &str)> = ids
        .enumerate()
        .map(|(order, id)| {
            let parts: Vec<&str> = id.split(['.', '-']).collect();
            let shared = wanted_parts
                .iter()
                .zip(&parts)
                .take_while(|(a, b)| a == b)
                .count();
            (usize::MAX - shared, edit_distance(wanted, id), order, id)
        })
        .collect();
    scored.sort();
    scored.into_iter().take(n).map(|s| s.3).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalises_width_dots_and_dashes() {
        assert_eq!(normalize_input("１０．５．２．"), "10.5.2");
        assert_eq!(normalize_input(" 10.5.2 "), "10.5.2");
        assert_eq!(normalize_input("４－９－２－１"), "4-9-2-1");
        assert_eq!(normalize_input("1.10.12.f"), "1.10.12.f");
        assert_eq!(normalize_input("."), ".");
    }

    #[test]
    fn trailing_dot_is_detected_in_either_width() {
        assert!(has_trailing_dot("10.5.2."));
        assert!(has_trailing_dot("10.5.2．"));
        assert!(!has_trailing_dot("10.5.2"));
    }

    #[test]
    fn nearest_prefers_siblings() {
        let ids = ["10.5.1", "10.5.2", "10.50", "1.5.3", "10.6"];
        assert_eq!(
            nearest("10.5.9", ids.iter().copied(), 2),
            vec!["10.5.1", "10.5.2"]
        );
    }
}

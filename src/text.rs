//! Text normalisation shared by search, rulebook diffs and the engine.
//!
//! Compiled into `build.rs` too (the search index is built at build time), so
//! it depends only on `unicode-normalization`.

use unicode_normalization::UnicodeNormalization;

/// Folds text for comparison: NFKC (full-width ↔ half-width), katakana →
/// hiragana, dash and long-vowel variants unified, whitespace removed.
/// Used where noise must not count as a difference (rulebook diffs).
pub fn fold_for_compare(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for ch in s.nfkc() {
        if ch.is_whitespace() {
            continue;
        }
        out.push(fold_char(ch));
    }
    out
}

/// Folds one (already NFKC-normalised) character: katakana to hiragana, dash
/// and long-vowel variants to `ー`, ASCII letters to lower case.
pub fn fold_char(ch: char) -> char {
    match ch {
        // Katakana ァ..ヶ → hiragana ぁ..ゖ (same offset in both blocks).
        'ァ'..='ヶ' => char::from_u32(ch as u32 - 0x60).unwrap_or(ch),
        // Long vowel mark and the dashes PDF extraction substitutes for it
        // (U+2015 at SVE line 455, U+2010..U+2014, U+2212, ASCII '-').
        'ー' | '―' | '‐' | '‑' | '‒' | '–' | '—' | '−' | '-' | '－' | '～' | '〜' => {
            'ー'
        }
        c if c.is_ascii_uppercase() => c.to_ascii_lowercase(),
        c => c,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn width_kana_and_spacing_fold_together() {
        assert_eq!(
            fold_for_compare("ＰＰ 最大値"),
            fold_for_compare("PP最大値")
        );
        assert_eq!(fold_for_compare("トークン"), fold_for_compare("ト―クン"));
        assert_eq!(fold_for_compare("カード"), fold_for_compare("かーど"));
        assert_ne!(fold_for_compare("カード"), fold_for_compare("カーボ"));
    }
}

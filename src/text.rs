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

/// One indexable unit of search text: a single (folded) character, or a whole
/// ASCII word (letters and digits). See [`search_units`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UnitToken {
    /// One folded character (kana, kanji, ー, symbols, non-ASCII letters).
    Char(char),
    /// A run of ASCII letters and digits, lower-cased.
    Word(String),
}

/// A [`UnitToken`] with its position and the byte range of the original text
/// it came from (for highlighting).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unit {
    pub token: UnitToken,
    /// Position: consecutive units that stand together in the text have
    /// consecutive positions; punctuation leaves a gap of one, so a phrase
    /// never matches across it.
    pub pos: u32,
    /// Byte range in the original string.
    pub start: usize,
    pub end: usize,
}

/// Brackets that carry no meaning for matching (issue 3): keyword brackets
/// 【】, card-name quotes 《》「」『』 and the PSO2 object brackets 〔〕.
/// They are skipped without leaving a position gap, so `【守護】` matches `守護`.
pub fn is_ignored_bracket(c: char) -> bool {
    matches!(
        c,
        '【' | '】' | '《' | '》' | '「' | '」' | '『' | '』' | '〔' | '〕'
    )
}

/// Whether `c` (after NFKC) is a voiced or semi-voiced sound mark that NFKC
/// composes with the preceding half-width katakana (ｶﾞ → ガ).
fn is_sound_mark(c: char) -> bool {
    matches!(c, '\u{FF9E}' | '\u{FF9F}' | '\u{3099}' | '\u{309A}')
}

/// Splits `s` into search units starting at position `base`, and returns the
/// units and the next free position (one past a trailing gap).
///
/// Normalisation, identical for indexed text and queries (issue 3, Index):
/// NFKC (full-/half-width), katakana → hiragana, dash and long-vowel variants
/// → `ー` (a run of them counts once), ASCII lower case, brackets
/// [`is_ignored_bracket`] ignored, whitespace ignored (PDF extraction puts
/// spaces and line breaks inside Japanese words), other punctuation a gap.
pub fn search_units(s: &str, base: u32) -> (Vec<Unit>, u32) {
    search_units_through(s, base, u32::MAX)
}

/// [`search_units`], stopping once every unit at a position up to `last`
/// is made: a result's snippet needs only the units up to its last match,
/// and tokenising a whole long clause for it was a fifth of a search
/// (issue 17). The returned next position is then meaningless.
pub fn search_units_through(s: &str, base: u32, last: u32) -> (Vec<Unit>, u32) {
    let mut units: Vec<Unit> = Vec::new();
    let mut pos = base;
    // Current ASCII word: (text, start byte, end byte).
    let mut word: Option<(String, usize, usize)> = None;
    let mut gap_pending = false;

    fn flush(word: &mut Option<(String, usize, usize)>, units: &mut Vec<Unit>, pos: &mut u32) {
        if let Some((w, start, end)) = word.take() {
            units.push(Unit {
                token: UnitToken::Word(w),
                pos: *pos,
                start,
                end,
            });
            *pos += 1;
        }
    }

    let mut iter = s.char_indices().peekable();
    let mut group = String::new();
    let mut normal = String::new();
    while let Some((start, ch)) = iter.next() {
        // `pos` is the next position given out, so every unit from here on
        // lies past `last` (a run of ー merges into the unit before it,
        // which is why this waits for one position more).
        if pos > last.saturating_add(1) {
            break;
        }
        // Group a character with following sound marks so NFKC can compose them.
        group.clear();
        group.push(ch);
        let mut end = start + ch.len_utf8();
        while let Some(&(i, next)) = iter.peek() {
            if is_sound_mark(next) {
                group.push(next);
                end = i + next.len_utf8();
                iter.next();
            } else {
                break;
            }
        }
        normal.clear();
        if group.len() == ch.len_utf8() && is_nfkc_stable(ch) {
            // Most of a rulebook (kana, kanji, ASCII): NFKC leaves a lone
            // one of these as it is, so skip the normaliser (issue 17).
            normal.push(ch);
        } else {
            normal.extend(group.nfkc());
        }
        for c in normal.chars() {
            let c = fold_char(c);
            if c.is_whitespace() || is_ignored_bracket(c) {
                flush(&mut word, &mut units, &mut pos);
                continue;
            }
            if c.is_ascii_alphanumeric() {
                if gap_pending {
                    pos += 1;
                    gap_pending = false;
                }
                match &mut word {
                    Some((w, _, e)) => {
                        w.push(c);
                        *e = end;
                    }
                    None => word = Some((c.to_string(), start, end)),
                }
                continue;
            }
            flush(&mut word, &mut units, &mut pos);
            if c.is_alphanumeric() || (!c.is_ascii() && !is_punctuation(c)) {
                if gap_pending {
                    pos += 1;
                    gap_pending = false;
                }
                // Collapse runs of ー (neologd rule): ダメーージ == ダメージ.
                if c == 'ー'
                    && let Some(last) = units.last_mut()
                    && last.token == UnitToken::Char('ー')
                    && last.pos + 1 == pos
                {
                    last.end = end;
                    continue;
                }
                units.push(Unit {
                    token: UnitToken::Char(c),
                    pos,
                    start,
                    end,
                });
                pos += 1;
            } else {
                gap_pending = true;
            }
        }
    }
    flush(&mut word, &mut units, &mut pos);
    if gap_pending {
        pos += 1;
    }
    (units, pos)
}

/// Characters NFKC maps to themselves when they stand alone (no combining
/// mark after them): ASCII, hiragana, katakana (not ヿ U+30FF) and the CJK
/// unified ideographs (not the compatibility ideographs). Tested against the
/// normaliser over every character of these ranges.
fn is_nfkc_stable(c: char) -> bool {
    c.is_ascii()
        || matches!(c, '\u{3041}'..='\u{3096}' | '\u{30A1}'..='\u{30FA}' | '\u{4E00}'..='\u{9FFF}')
}

/// Punctuation that separates words: ASCII punctuation and the CJK
/// punctuation blocks (、。・（）etc.), including full-width forms NFKC leaves.
fn is_punctuation(c: char) -> bool {
    c.is_ascii_punctuation()
        || matches!(c as u32,
            0x2000..=0x206F // general punctuation (quotes, ‘’, …)
            | 0x3000..=0x303F // CJK symbols and punctuation
            | 0xFF00..=0xFF0F | 0xFF1A..=0xFF20 | 0xFF3B..=0xFF40 | 0xFF5B..=0xFF65
            | 0x30FB // katakana middle dot ・
        )
}

/// Folds `s` to the single string a search term is compared in: the units of
/// [`search_units`] concatenated (words separated by a space).
pub fn fold_for_search(s: &str) -> String {
    let (units, _) = search_units(s, 0);
    let mut out = String::new();
    let mut last_word = false;
    for u in units {
        match u.token {
            UnitToken::Char(c) => {
                out.push(c);
                last_word = false;
            }
            UnitToken::Word(w) => {
                if last_word {
                    out.push(' ');
                }
                out.push_str(&w);
                last_word = true;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(s: &str) -> Vec<(String, u32)> {
        search_units(s, 0)
            .0
            .into_iter()
            .map(|u| {
                let t = match u.token {
                    UnitToken::Char(c) => c.to_string(),
                    UnitToken::Word(w) => w,
                };
                (t, u.pos)
            })
            .collect()
    }

    #[test]
    fn nfkc_stable_characters_are_left_as_they_are_by_nfkc() {
        let ranges = [0u32..0x80, 0x3041..0x3097, 0x30A1..0x30FB, 0x4E00..0xA000];
        for c in ranges.into_iter().flatten().filter_map(char::from_u32) {
            assert!(is_nfkc_stable(c));
            let n: String = c.to_string().nfkc().collect();
            assert_eq!(n, c.to_string(), "U+{:04X}", c as u32);
        }
        for c in ['\u{30FF}', '\u{F900}', 'Ａ', 'ｶ', '①'] {
            assert!(!is_nfkc_stable(c), "U+{:04X}", c as u32);
        }
    }

    #[test]
    fn search_units_fold_width_kana_dash_and_brackets() {
        assert_eq!(fold_for_search("【守護】"), "守護");
        assert_eq!(
            fold_for_search("ファンファーレ"),
            fold_for_search("ふぁんふぁーれ")
        );
        assert_eq!(
            fold_for_search("ﾌｧﾝﾌｧｰﾚ"),
            fold_for_search("ファンファーレ")
        );
        assert_eq!(fold_for_search("ト―クン"), fold_for_search("トークン"));
        assert_eq!(fold_for_search("ダメーージ"), fold_for_search("ダメージ"));
        assert_eq!(fold_for_search("ＰＰ 最大値"), fold_for_search("PP最大値"));
        assert_eq!(fold_for_search("ｶﾞｰﾄﾞ"), "がーど");
        assert_eq!(fold_for_search("Check  Timing"), "check timing");
    }

    #[test]
    fn punctuation_leaves_a_gap_but_spaces_and_brackets_do_not() {
        assert_eq!(
            toks("ダメ、ージ"),
            vec![
                ("だ".into(), 0),
                ("め".into(), 1),
                ("ー".into(), 3),
                ("じ".into(), 4)
            ]
        );
        assert_eq!(toks("守 護"), vec![("守".into(), 0), ("護".into(), 1)]);
        assert_eq!(toks("【守護】"), vec![("守".into(), 0), ("護".into(), 1)]);
        assert_eq!(
            toks("first strike"),
            vec![("first".into(), 0), ("strike".into(), 1)]
        );
    }

    #[test]
    fn stopping_early_keeps_every_unit_up_to_the_last_position() {
        let texts = [
            "ダメーーージを受ける。card draw 10.5.2、ﾀﾞﾒｰｼﾞ【守護】 end",
            "ー ーーー abc ー",
            "",
        ];
        for text in texts {
            let (all, _) = search_units(text, 0);
            for last in 0..all.len() as u32 + 3 {
                let (some, _) = search_units_through(text, 0, last);
                let want: Vec<_> = all.iter().filter(|u| u.pos <= last).collect();
                let got: Vec<_> = some.iter().filter(|u| u.pos <= last).collect();
                assert_eq!(got, want, "{text:?} through {last}");
            }
        }
    }

    #[test]
    fn unit_byte_ranges_point_into_the_original() {
        let s = "【ﾀﾞﾒｰｼﾞ】を3";
        let (units, _) = search_units(s, 0);
        let first = &units[0];
        assert_eq!(&s[first.start..first.end], "ﾀﾞ");
        let last = units.last().unwrap();
        assert_eq!(&s[last.start..last.end], "3");
    }

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

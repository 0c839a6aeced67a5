//! Number ranges: no integer in a scenario or card pool beyond
//! [`MAX_MAGNITUDE`].

use super::{Ctx, ScenarioError};
use crate::scenario::locate::Seg;

/// The largest magnitude of a number in a scenario (the seed excepted).
/// Every amount, stat, value and counter of a real card fits with room to
/// spare, and with it no sum the engine forms can overflow an `i64`: one
/// action runs at most the step budget of effects, each adding at most this.
pub const MAX_MAGNITUDE: i64 = 1_000_000;

/// Refuses any number beyond [`MAX_MAGNITUDE`], located at its field, so
/// `change_value defense +9223372036854775807` is bad input, not a
/// wrapped (or panicking) ruling.
pub(super) fn check_number_ranges(cx: &Ctx, src: &str) -> Result<(), ScenarioError> {
    fn walk(cx: &Ctx, v: &serde_json::Value, path: &mut Vec<Seg>) -> Result<(), ScenarioError> {
        match v {
            serde_json::Value::Number(n) => {
                // A fraction is left to the game (PMV 1.6.1 rules on it);
                // an integer must be in range.
                let ok = n.is_f64()
                    || n.as_i64()
                        .is_some_and(|i| (-MAX_MAGNITUDE..=MAX_MAGNITUDE).contains(&i));
                if !ok {
                    return Err(cx.err(
                        path,
                        format!("number out of range: {n}"),
                        Some(format!(
                            "whole numbers in a scenario are between -{MAX_MAGNITUDE} and {MAX_MAGNITUDE} (the seed excepted)"
                        )),
                    ));
                }
            }
            serde_json::Value::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    path.push(Seg::Index(i));
                    walk(cx, item, path)?;
                    path.pop();
                }
            }
            serde_json::Value::Object(map) => {
                for (key, item) in map {
                    if path.is_empty() && key == "seed" {
                        continue;
                    }
                    path.push(Seg::Key(key.clone()));
                    walk(cx, item, path)?;
                    path.pop();
                }
            }
            _ => {}
        }
        Ok(())
    }
    // Almost every file has no integer of 7 digits or more: then nothing
    // can be out of range and no JSON tree is built to locate one.
    if !has_long_integer(src) {
        return Ok(());
    }
    // The typed parse already succeeded, so this one cannot fail.
    match serde_json::from_str::<serde_json::Value>(src) {
        Ok(v) => walk(cx, &v, &mut Vec::new()),
        Err(_) => Ok(()),
    }
}

/// Whether `src` holds, outside strings, a run of 7 or more digits (the
/// shortest integer beyond [`MAX_MAGNITUDE`] has 7).
fn has_long_integer(src: &str) -> bool {
    // Seven digits in a row always cover four whole digits of some aligned
    // group of four bytes; a text with no such group, in strings or out,
    // has no long integer, and most files are ruled out here at a few
    // instructions per eight bytes.
    if !has_four_aligned_digits(src.as_bytes()) {
        return false;
    }
    let b = src.as_bytes();
    let (mut i, mut run) = (0, 0);
    while i < b.len() {
        match b[i] {
            b'"' => {
                run = 0;
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
            }
            b'0'..=b'9' => {
                run += 1;
                if run >= 7 {
                    return true;
                }
            }
            _ => run = 0,
        }
        i += 1;
    }
    false
}

/// Whether some 4-byte group of `b` starting at a multiple of 4 is all
/// ASCII digits, tested eight bytes at a time.
fn has_four_aligned_digits(b: &[u8]) -> bool {
    const HIGH: u64 = 0xF0F0_F0F0_F0F0_F0F0;
    const LOW: u64 = 0x0F0F_0F0F_0F0F_0F0F;
    // A byte is a digit when its high nibble is 3 and its low nibble at
    // most 9 (adding 6 to it then stays below 16: no bit of the high
    // nibble, and no carry into the next byte). `bad` is zero exactly in
    // the digit bytes.
    let bad = |x: u64| {
        ((x & HIGH) ^ 0x3030_3030_3030_3030) | (((x & LOW) + 0x0606_0606_0606_0606) & HIGH)
    };
    let mut words = b.chunks_exact(8);
    for w in &mut words {
        let x = bad(u64::from_le_bytes(w.try_into().expect("eight bytes")));
        if x & 0xFFFF_FFFF == 0 || x >> 32 == 0 {
            return true;
        }
    }
    words
        .remainder()
        .chunks_exact(4)
        .any(|w| w.iter().all(u8::is_ascii_digit))
}

#[cfg(test)]
mod tests {
    use super::{has_four_aligned_digits, has_long_integer};

    #[test]
    fn four_aligned_digits_are_found_at_any_aligned_place() {
        for len in 4..40 {
            for at in (0..len - 3).step_by(4) {
                let mut t = vec![b' '; len];
                t[at..at + 4].copy_from_slice(b"1234");
                assert!(has_four_aligned_digits(&t), "len {len}, at {at}");
            }
        }
        assert!(!has_four_aligned_digits(b" 1234   "), "not aligned");
        assert!(
            !has_four_aligned_digits(b"12:4/5;0"),
            "':' and '/' and ';' are not digits"
        );
        assert!(
            !has_four_aligned_digits("１２３４".as_bytes()),
            "full-width digits are not ASCII"
        );
        assert!(has_four_aligned_digits(b"    0000    "));
    }

    #[test]
    fn the_fast_filter_never_hides_a_long_integer() {
        // Every placement of a 7-digit number in a short document.
        for pad in 0..12 {
            let src = format!("{{\"a\":{}1000000}}", " ".repeat(pad));
            assert!(has_long_integer(&src), "{src}");
        }
    }

    #[test]
    fn only_long_integers_outside_strings_need_the_full_check() {
        assert!(!has_long_integer(r#"{"a": 999999, "b": "12345678"}"#));
        assert!(has_long_integer(r#"{"a": 1000000}"#));
        assert!(has_long_integer(r#"{"a": -12345678901}"#));
        assert!(!has_long_integer(r#"{"s": "x\"1234567"}"#));
        assert!(has_long_integer(r#"{"a": 1.5e1234567}"#));
    }
}

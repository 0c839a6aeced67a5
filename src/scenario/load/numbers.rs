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

#[cfg(test)]
mod tests {
    use super::has_long_integer;

    #[test]
    fn only_long_integers_outside_strings_need_the_full_check() {
        assert!(!has_long_integer(r#"{"a": 999999, "b": "12345678"}"#));
        assert!(has_long_integer(r#"{"a": 1000000}"#));
        assert!(has_long_integer(r#"{"a": -12345678901}"#));
        assert!(!has_long_integer(r#"{"s": "x\"1234567"}"#));
        assert!(has_long_integer(r#"{"a": 1.5e1234567}"#));
    }
}

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
    // The typed parse already succeeded, so this one cannot fail.
    match serde_json::from_str::<serde_json::Value>(src) {
        Ok(v) => walk(cx, &v, &mut Vec::new()),
        Err(_) => Ok(()),
    }
}

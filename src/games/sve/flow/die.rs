//! Rolling a die (サイコロをふる, 5.19): one ordinary six-sided die, then
//! the rest of the text carried out by the number rolled (5.19.1). The core
//! `roll_die` writes the results as ranges (`on`) with their effects; the
//! number comes from the scenario's random generator (its seed or its
//! `random` script).
//!
//! The effects of a result are carried out as the die is rolled; a
//! `chosen` selector in a result (a target chosen when the card is played,
//! 10.6.2.3, before the number is known) is not implemented.

use super::*;
use crate::engine::card::DieResult;

/// The faces of the die SVE text means (5.19.1: 一般的な 6 面ダイス).
const FACES: i64 = 6;

/// A die result the module can't carry out, for the load-time check.
pub(super) fn unsupported(key: &str, effects: &[Effect]) -> Option<(&'static str, String)> {
    effects.iter().find_map(|e| {
        let Effect::RollDie { sides, results } = e else {
            return None;
        };
        if *sides != FACES {
            return Some((
                r::DIE,
                format!("a die of {sides} faces in `{key}` (SVE rolls an ordinary six-sided die)"),
            ));
        }
        let inner: Vec<Effect> = results.iter().flat_map(|o| o.effect.clone()).collect();
        if inner
            .iter()
            .flat_map(targets_of)
            .any(|t| t.chosen().is_some())
        {
            return Some((
                r::DIE,
                format!("a target chosen in a result of the die of `{key}` (targets are chosen as the card is played, before the roll)"),
            ));
        }
        unsupported(key, &inner)
    })
}

/// Rolls the die of `this`'s effect and carries out the results whose
/// numbers hold the number rolled, in printed order.
pub(super) fn roll_die(m: &mut M, results: &[DieResult], this: &str, master: PlayerId) -> R<()> {
    let (n, picked) = DieResult::roll(&mut m.game.rng, FACES as u64, results);
    let what = if picked.is_empty() {
        "no result of the text names it: nothing more happens".to_string()
    } else {
        format!("{} result(s) of the text apply", picked.len())
    };
    m.record(
        "effect.die",
        format!("{this} rolls a six-sided die: {n}; {what}"),
        &[r::DIE],
    )
    .change(format!("{this}.die"), 0, n)
    .note("the number comes from the scenario's seed or its `random` script");
    let mut none = Vec::new().into_iter();
    for eff in picked.iter().flat_map(|o| &o.effect) {
        if m.game.result != GameResult::Ongoing {
            break;
        }
        let mut designated = Vec::new();
        for t in targets_of(eff) {
            designated.push(resolve_targets(m, t, master, this, &mut none, this)?);
        }
        let targets = designated.into_iter().next().unwrap_or_default();
        apply_effect(m, eff, &targets, this, master)?;
    }
    Ok(())
}

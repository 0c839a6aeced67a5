//! 「X」 in an ability's text (GL:“X”: a variable number of the card's
//! text and cost): the X chosen as the cost was paid feeds the effect
//! (the core `with_x`). The X of a played card is the one chosen for its ⓧ
//! cost, kept while it is in the resolution zone (209.3, 209.3.1); the X
//! of an activated or triggered ability is the one chosen for the ⓧ in its
//! cost (GL:ⓧ), kept with its entry. An ability whose cost has no ⓧ has no
//! X to read: the loader's check refuses it ([`unsupported`]).
//!
//! `with_x` multiplies each amount the wrapped effect writes by X
//! (write 1 for X, -1 for -X; [`Effect::scaled`]): damage, draws, 「+X/+X」, a player value,
//! the top X cards put somewhere.

use super::{M, ni, r};
use crate::engine::{AbilityDef, CardDef, Effect, EngineError};

/// An entry with X begins to resolve.
pub fn begin(m: &mut M, x: i64) {
    super::state::of(&mut m.game).x_now = Some(x);
}

/// The entry has resolved: its X is gone (209.3.1: X is 0 outside the
/// resolution zone).
pub fn end(m: &mut M) {
    if let Some(s) = super::state::read(&m.game)
        && s.x_now.is_some()
    {
        super::state::of(&mut m.game).x_now = None;
    }
}

/// `effect` with its amounts multiplied by the X of the entry resolving,
/// traced.
pub fn scaled(m: &mut M, source: &str, effect: &Effect) -> Result<Effect, EngineError> {
    let x = super::state::read(&m.game)
        .and_then(|s| s.x_now)
        .unwrap_or(0);
    let out = effect.scaled(x).ok_or_else(|| {
        ni(
            r::GL_X_VAR,
            format!(
                "an X amount of the effect `{}` (X scales {})",
                effect.word(),
                Effect::SCALED_AMOUNTS
            ),
        )
    })?;
    m.record(
        "effect",
        format!("{source}: X = {x}, the X chosen as its cost was paid, sets the amount"),
        &[r::GL_X_VAR, r::GL_X_COST, r::X_COST_ZONES],
    )
    .obj(source.to_string());
    Ok(out)
}

/// Why `ab` of card `def` cannot use `with_x`, if it cannot: the
/// effect inside writes no amount X sets, or the
/// ability has no X (no ⓧ in its cost, nor in the card's cost for an
/// active's or item's own effect).
pub fn unsupported(def: &CardDef, ab: &AbilityDef) -> Option<String> {
    let vars: Vec<&Effect> = ab
        .effect
        .iter()
        .flat_map(every)
        .filter_map(|e| match e {
            Effect::WithX { effect } => Some(&**effect),
            _ => None,
        })
        .collect();
    if vars.is_empty() {
        return None;
    }
    if let Some(e) = vars.iter().find(|e| e.scaled(1).is_none()) {
        return Some(format!(
            "`with_x` around `{}`: X sets the amount of {}",
            e.word(),
            Effect::SCALED_AMOUNTS
        ));
    }
    let cost_x = ab
        .cost
        .iter()
        .any(|c| matches!(c, Effect::PayCost { amount: None, .. }));
    let own_x = match ab.trigger.as_str() {
        "effect" => def.stats.get("x_cost").is_some_and(|v| *v > 0),
        "activated" => def.stats.get("ability_x_cost").is_some_and(|v| *v > 0),
        _ => false,
    };
    (!cost_x && !own_x).then(|| {
        "`with_x` in an ability with no X: X is chosen for an ⓧ in its cost (`pay_cost` with no `amount`, stat `ability_x_cost`) or, for a played card's own effect, in the card's cost (stat `x_cost`, 209.3)".to_string()
    })
}

/// `e` and every effect written inside it.
pub(super) fn every(e: &Effect) -> Vec<&Effect> {
    let mut out = vec![e];
    for n in e.nested() {
        out.extend(every(n));
    }
    // The effects a die's results and a mid-text choice carry out.
    let lists: Vec<&[Effect]> = match e {
        Effect::SelectTargets { then, .. } => vec![then],
        Effect::RollDie { results, .. } => results.iter().map(|o| o.effect.as_slice()).collect(),
        _ => Vec::new(),
    };
    out.extend(lists.into_iter().flatten().flat_map(every));
    out
}

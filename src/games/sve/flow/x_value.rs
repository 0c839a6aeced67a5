//! X in text (5.2.1.2): a number the text calls X. Where the text does not
//! fix its value (5.2.1.2.2), the player decides it as the card or ability
//! is played, among the pre-play choices (10.6.2.2.2), before targets and
//! costs: the choice `<card>.x`, a whole number from 0. The cost `pay_cost`
//! with amount `"X"` pays that many PP (5.2.1: a PP symbol in text is PP),
//! and `with_x` carries out its effect with its amount multiplied by X.
//! An X the text defines (5.2.1.2.1, "X is the number of …") is written as
//! the amount it defines (`for_each`).

use super::*;
use crate::engine::card::{AbilityDef, Num};

/// The triggers whose play decides X here: a spell's text and activated
/// abilities, Feed included (a triggered ability's X would be decided as it is played at
/// a check timing, which is not implemented).
const PLAYABLE: &[&str] = &["spell", "activated", QUICK_ACTIVATED, FEED];

/// Whether `n` is the variable X.
fn is_x(n: &Num) -> bool {
    matches!(n, Num::Var(v) if v.eq_ignore_ascii_case("x"))
}

/// Whether the ability's text or cost names X: a `with_x` anywhere in its
/// effects, or a `pay_cost` of X in its cost.
pub(super) fn names_x(ab: &AbilityDef) -> bool {
    every_effect(&ab.effect)
        .into_iter()
        .any(|e| matches!(e, Effect::WithX { .. }))
        || ab.cost.iter().any(is_x_cost)
}

/// X the module cannot carry out (checked before the run): on a trigger
/// that is not played through [`decide`], or a `with_x` over an effect
/// whose amount it does not set.
pub(super) fn unsupported(k: &str, ab: &AbilityDef) -> Option<(&'static str, String)> {
    if names_x(ab) && !PLAYABLE.contains(&ab.trigger.as_str()) {
        return Some((
            r::PRE_PLAY_X,
            format!(
                "X on the `{}` ability of `{k}` (decided as a triggered ability is played)",
                ab.trigger
            ),
        ));
    }
    every_effect(&ab.effect).into_iter().find_map(|e| match e {
        Effect::WithX { effect } if effect.scaled(1).is_none() => Some((
            r::X_IN_TEXT,
            format!(
                "`with_x` over `{}` in `{k}` (the amounts X sets are {})",
                effect.word(),
                Effect::SCALED_AMOUNTS
            ),
        )),
        _ => None,
    })
}

/// 10.6.2.2.2 / 5.2.1.2.2: the value of X for the play of `card`'s
/// abilities `abilities` (of definition `def`), when one of them names
/// X: the choice `<card>.x`. Kept for the play until [`end`].
pub(super) fn decide(m: &mut M, p: PlayerId, card: &str, def: &str, abilities: &[usize]) -> R<()> {
    let named = abilities
        .iter()
        .any(|&i| m.game.ability(def, i).is_some_and(names_x));
    if !named {
        return Ok(());
    }
    let k = format!("{card}.x");
    let x = match m.choices.take(&k) {
        Some(v) => v
            .as_i64()
            .filter(|n| (0..=crate::engine::card::MAX_UP_TO as i64).contains(n))
            .ok_or_else(|| EngineError::BadChoice {
                choice: k.clone(),
                value: v.to_string(),
                options: vec!["a whole number from 0".into()],
            })?,
        None => {
            return Err(EngineError::MissingChoice {
                choice: k,
                options: vec!["0".into(), "1".into(), "2".into(), "…".into()],
            });
        }
    };
    m.record(
        "play.x",
        format!(
            "{} decides X = {x} as {card} is played (the text does not fix it)",
            player_name(p)
        ),
        &[
            r::PRE_PLAY_CHOICE,
            r::PRE_PLAY_X,
            r::X_IN_TEXT,
            r::X_CHOSEN_AT_PLAY,
        ],
    )
    .obj(card)
    .change(format!("{card}.x"), 0, x);
    m.game.own::<SveState>().x = Some(x);
    Ok(())
}

/// The play is over: its X is no longer read.
pub(super) fn end(m: &mut M) {
    m.game.own::<SveState>().x = None;
}

/// The X of the play being made (0 when none was decided).
pub(super) fn value(g: &Game) -> i64 {
    g.own_ref::<SveState>().and_then(|s| s.x).unwrap_or(0)
}

/// Whether a cost action is a PP cost of X.
pub(super) fn is_x_cost(e: &Effect) -> bool {
    matches!(e, Effect::PayCost { amount: Some(n), life: None, optional: false, .. } if is_x(n))
}

/// Carries out `with_x`: its effect once with its amount multiplied by X.
pub(super) fn with_x(
    m: &mut M,
    eff: &Effect,
    targets: &[String],
    this: &str,
    master: PlayerId,
) -> R<()> {
    let Effect::WithX { effect } = eff else {
        return Ok(());
    };
    let x = value(&m.game);
    let Some(once) = effect.scaled(x) else {
        return Err(EngineError::not_implemented(
            r::X_IN_TEXT,
            format!("`with_x` over `{}`", effect.word()),
        ));
    };
    m.record(
        "effect.x",
        format!(
            "{this}: X = {x}: {} is carried out with X as its amount",
            effect.word()
        ),
        &[r::X_IN_TEXT, r::X_CHOSEN_AT_PLAY],
    )
    .obj(this);
    apply_effect(m, &once, targets, this, master)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ability(json: &str) -> AbilityDef {
        serde_json::from_str(json).unwrap()
    }

    #[test]
    fn x_is_named_by_a_cost_or_a_with_x() {
        let cost = ability(
            r#"{ "trigger": "activated", "cost": [ { "do": "pay_cost", "amount": "X" } ], "effect": [ { "do": "draw", "amount": 1 } ] }"#,
        );
        assert!(names_x(&cost));
        let text = ability(
            r#"{ "trigger": "fanfare", "effect": [ { "do": "with_x", "effect": { "do": "draw", "amount": 1 } } ] }"#,
        );
        assert!(names_x(&text));
        // X on a triggered ability is refused before the run.
        assert!(unsupported("c", &text).is_some());
        let none =
            ability(r#"{ "trigger": "spell", "effect": [ { "do": "draw", "amount": 1 } ] }"#);
        assert!(!names_x(&none));
    }

    #[test]
    fn with_x_over_an_amountless_effect_is_refused() {
        let a = ability(
            r#"{ "trigger": "spell", "effect": [ { "do": "with_x", "effect": { "do": "shuffle" } } ] }"#,
        );
        assert!(unsupported("c", &a).is_some());
    }
}

//! 「…のうち１番高い数と同じ」: an amount read from the board (the core
//! `amount_of`), read as the effect is carried out (4.9.2-3), from the
//! cards its `among` filter admits at that moment, each characteristic as
//! it is now: `smash` the current smash (2.13), `attack` the current power
//! (2.12), `cost` the use cost (2.4.3), any other stat as printed. A
//! number no card defines (the highest or lowest of none) is treated as 0
//! (1.2.2 「定義することができない変数は０として扱います」). It sets the
//! amount of a `draw` or a `damage`; a DZ card has no `defense`.

use crate::engine::{Effect, EngineError};

use super::effects::Ctx;
use super::{M, label, ni, r, targets};

/// Refuses, before the run, an `amount_of` the module does not carry out:
/// one around an effect with no amount it sets, or reading `defense`.
pub fn refuse(key: &str, e: &Effect) -> Result<(), EngineError> {
    let Effect::AmountOf { stat, effect, .. } = e else {
        return Ok(());
    };
    if stat == "defense" {
        return Err(ni(
            r::NEGATIVE,
            format!("card `{key}`: `amount_of` reading `defense` (a DZ card has none)"),
        ));
    }
    if with_amount(effect, 0).is_none() {
        return Err(ni(
            r::IN_ORDER,
            format!(
                "card `{key}`: `amount_of` around `{}` (the amounts set are draw's and damage's)",
                effect.word()
            ),
        ));
    }
    Ok(())
}

/// The effect `e` with its amount set to `n`, for the effects whose amount
/// the module reads from the board.
fn with_amount(e: &Effect, n: i64) -> Option<Effect> {
    let mut out = e.clone();
    match &mut out {
        Effect::Draw { amount, .. } | Effect::Damage { amount, .. } => *amount = n,
        _ => return None,
    }
    Some(out)
}

/// The number `stat` of card `id` as it is now.
fn value(m: &M, id: &str, stat: &str) -> i64 {
    let Some(c) = m.game.card(id) else { return 0 };
    match stat {
        "smash" => super::smash_value(&m.game, c),
        "attack" => super::power(&m.game, c),
        "cost" => super::use_cost(&m.game, id),
        other => super::stat(&m.game, id, other),
    }
}

/// The inner effect of `amount_of` `e` with the amount read now, the
/// reading traced; `None` when `e` is not one.
pub fn read(m: &mut M, cx: &Ctx<'_>, e: &Effect) -> Result<Option<Effect>, EngineError> {
    let Effect::AmountOf {
        pick,
        stat,
        among,
        effect,
    } = e
    else {
        return Ok(None);
    };
    let cards = targets::candidates(&m.game, cx.controller, cx.source, &[], among);
    let values: Vec<(String, i64)> = cards
        .iter()
        .map(|id| (label(&m.game, id), value(m, id, stat)))
        .collect();
    let read = pick.of(values.iter().map(|(_, v)| *v));
    let n = read.unwrap_or(0);
    let Some(once) = with_amount(effect, n) else {
        return Err(ni(
            r::IN_ORDER,
            format!("`amount_of` around `{}`", effect.word()),
        ));
    };
    let what = format!("the {}", pick.word());
    let seen = if values.is_empty() {
        "no card counts".to_string()
    } else {
        values
            .iter()
            .map(|(l, v)| format!("{l}: {v}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    // The characteristic read, as it is now.
    let read_rule = match stat.as_str() {
        "smash" => Some(r::SMASH_VALUE),
        "attack" => Some(r::POWER),
        "cost" => Some(r::COST_SUM),
        _ => None,
    };
    let (text, mut rules) = match read {
        Some(v) => (
            format!(
                "{}: {what} {stat} among the cards counted is {v} ({seen}): {} is carried out with the amount {v}",
                cx.source,
                effect.word()
            ),
            vec![r::IN_ORDER],
        ),
        None => (
            format!(
                "{}: {what} {stat} among the cards counted: {seen}, so the number can't be defined and is treated as 0: {} is carried out with the amount 0",
                cx.source,
                effect.word()
            ),
            vec![r::IN_ORDER, r::NEGATIVE],
        ),
    };
    if read.is_some() {
        rules.extend(read_rule);
    }
    m.record("amount", text, &rules)
        .change(format!("{}.amount", cx.source), "-", n.to_string());
    Ok(Some(once))
}

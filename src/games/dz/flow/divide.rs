//! 「ダメージを割り振って与える」: damage divided among the targets
//! (4.7.2-6). A strategy whose text `divide` is `damage` deals its
//! `damage` effect's amount divided among its chosen targets: as it is
//! played, after the targets, its player declares how much each target
//! gets (the choice `divide`: an object target → amount), at least 1 each
//! and in all the effect's amount; a single target gets it all. On
//! resolution each legal target takes its share.

use std::collections::BTreeMap;

use crate::engine::{CardId, Effect, EngineError, PlayerId, player_name};

use super::{Chosen, M, dz, dz_ref, illegal, r, text};

/// Whether `card` divides its damage.
fn divides(m: &M, card: &str) -> bool {
    text(&m.game, card, "divide") == Some("damage")
}

/// Declares the division as `card` is played (4.7.2-6): `effects` and
/// their chosen targets `tg`.
pub fn declare(
    m: &mut M,
    p: PlayerId,
    card: &str,
    effects: &[Effect],
    tg: &[Option<Chosen>],
) -> Result<(), EngineError> {
    if !divides(m, card) {
        return Ok(());
    }
    let Some((amount, targets)) = effects.iter().enumerate().find_map(|(i, e)| match e {
        Effect::Damage { amount, .. } => tg
            .get(i)
            .and_then(Option::as_ref)
            .and_then(Chosen::cards)
            .map(|ts| {
                (
                    *amount,
                    ts.iter().map(|t| t.card.clone()).collect::<Vec<CardId>>(),
                )
            }),
        _ => None,
    }) else {
        return Ok(());
    };
    if targets.is_empty() {
        return Ok(());
    }
    let given = m.choices.take("divide");
    let shares: BTreeMap<CardId, i64> = match (given, targets.as_slice()) {
        (None, [one]) => BTreeMap::from([(one.clone(), amount)]),
        (None, _) => {
            return Err(EngineError::MissingChoice {
                choice: "divide".into(),
                options: targets.iter().map(|t| t.to_string()).collect(),
            });
        }
        (Some(serde_json::Value::Object(o)), _) => o
            .iter()
            .map(|(k, v)| (CardId::from(k.as_str()), v.as_i64().unwrap_or(0)))
            .collect(),
        (Some(other), _) => {
            return Err(super::bad(format!(
                "`divide` is an object target → amount, not {other}"
            )));
        }
    };
    let same_targets =
        shares.len() == targets.len() && targets.iter().all(|t| shares.contains_key(t));
    let total: i64 = shares.values().sum();
    if !same_targets || shares.values().any(|n| *n < 1) || total != amount {
        return Err(illegal(
            r::DIVIDE,
            format!(
                "{card} divides {amount} damage among {}: each target gets at least 1 and the shares add up to {amount} (declared: {})",
                targets
                    .iter()
                    .map(|t| t.to_string())
                    .collect::<Vec<_>>()
                    .join(", "),
                shares
                    .iter()
                    .map(|(k, v)| format!("{k} {v}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            vec!["pass".into()],
        ));
    }
    m.record(
        "divide",
        format!(
            "{} divides {amount} damage: {}",
            player_name(p),
            shares
                .iter()
                .map(|(k, v)| format!("{k} {v}"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        &[r::DIVIDE],
    );
    dz(&mut m.game).divided.insert(card.into(), shares);
    Ok(())
}

/// The damage `source`'s effect deals to `target`: its declared share
/// when the source divides its damage, else the printed amount.
pub fn share(m: &M, source: &str, target: &str, amount: i64) -> i64 {
    dz_ref(&m.game)
        .divided
        .get(source)
        .and_then(|s| s.get(target).copied())
        .unwrap_or(amount)
}

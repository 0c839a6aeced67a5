//! Freezing units as an additional cost of a spell (「追加コストとして、
//! あなたのユニットを…枚フリーズする」, 4.7.2-3): which units is chosen as
//! the card is played, after X (4.7.2-3), and they are frozen with the
//! energy, every part at once (4.7.2-8). Only a released unit can be
//! frozen (2.26.1-1); too few and the card can't be played.
//!
//! Card text: stat `freeze_units` (N units) and `freeze_units_x` (N per X);
//! the choice `freeze` names them (the engine picks when exactly as many
//! are released as the cost asks for).

use crate::engine::{CardId, EngineError, Picked, PlayerId, TargetCount, player_name};

use super::{FROZEN, M, board, illegal, label, r, stat, types};

/// The units `p` chooses to freeze for `card`'s additional cost, X being
/// `x`: none when the card has no such cost.
pub fn choose(m: &mut M, p: PlayerId, card: &str, x: i64) -> Result<Vec<CardId>, EngineError> {
    let n = (stat(&m.game, card, "freeze_units") + x * stat(&m.game, card, "freeze_units_x")).max(0)
        as usize;
    if n == 0 {
        return Ok(Vec::new());
    }
    let mine = |m: &M| -> Vec<CardId> {
        board::on_squares(&m.game)
            .into_iter()
            .filter(|id| {
                m.game.card(id).is_some_and(|c| c.controller == p)
                    && super::ctype(&m.game, id) == types::UNIT
            })
            .collect()
    };
    let all = mine(m);
    let released: Vec<CardId> = all
        .iter()
        .filter(|id| !m.game.card(id).is_some_and(|c| c.has(FROZEN)))
        .cloned()
        .collect();
    if released.len() < n {
        return Err(illegal(
            r::NO_DOUBLE_FREEZE,
            format!(
                "{card}'s additional cost freezes {n} of {}'s units, and only {} are released: it can't be played",
                player_name(p),
                released.len()
            ),
            vec!["pass".into()],
        ));
    }
    let picked = m
        .choices
        .targets("freeze", &released, TargetCount::Exactly(n), |id| {
            all.iter().any(|a| a == id).then(|| {
                (
                    r::NO_DOUBLE_FREEZE,
                    format!("{id} is frozen already: it can't be frozen for a cost"),
                )
            })
        })?;
    let list = match picked {
        Picked::Given(l) | Picked::Only(l) => l,
    };
    m.record(
        "cost",
        format!(
            "{} chooses the units to freeze for {card}'s additional cost ({n}, after X): {}",
            player_name(p),
            list.iter()
                .map(|id| label(&m.game, id))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        &[r::COST_FIXED],
    );
    Ok(list)
}

/// Freezes the units chosen, with the energy paid (4.7.2-8).
pub fn pay(m: &mut M, units: &[CardId]) {
    for id in units {
        if let Some(c) = m.game.cards.get_mut(id) {
            c.states.insert(FROZEN.into());
        }
        m.record(
            "pay",
            format!(
                "{} is frozen to pay the additional cost",
                label(&m.game, id)
            ),
            &[r::PAY_AT_ONCE, r::STATES],
        )
        .change(format!("{id}.state"), "released", "frozen");
    }
}

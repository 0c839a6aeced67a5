//! Changing the target of an effect (目標を変更する, 8.2.8): the new target
//! may be any card on the field or any player, whether or not it would be a
//! legal target, unless the changing text limits it; the target of an
//! effect that has already resolved cannot be changed.

use super::*;
use crate::engine::{Picked, TargetCount};

/// Where an effect waiting to resolve sits: which interference (an index
/// into the machine's stack) and which entry of its chain.
fn waiting_entry(m: &M, card: &str) -> Option<(usize, usize)> {
    m.stack.iter().enumerate().rev().find_map(|(s, step)| {
        let (Step::Resolve(p) | Step::Priority(p)) = step else {
            return None;
        };
        p.chain
            .iter()
            .position(|e| e.card == card && e.activated.is_none())
            .map(|k| (s, k))
    })
}

fn chain_entry(m: &mut M, at: (usize, usize)) -> Option<&mut Entry> {
    match m.stack.get_mut(at.0)? {
        Step::Resolve(p) | Step::Priority(p) => p.chain.get_mut(at.1),
        _ => None,
    }
}

/// Every object a target may name (8.2.8: legality aside): the cards on
/// the field and in the play areas, and the players; or those `to` admits.
fn new_target_options(m: &M, to: Option<&Filter>, this: &str, master: PlayerId) -> Vec<String> {
    if let Some(f) = to {
        return candidates(&m.game, f, master, this);
    }
    let mut out: Vec<String> = Vec::new();
    for p in m.game.player_ids() {
        out.extend(m.game.zone_of(p, zn::FIELD).iter().map(|c| c.to_string()));
        out.extend(m.game.zone_of(p, zn::PLAY).iter().map(|c| c.to_string()));
    }
    out.extend(m.game.player_ids().map(player_name));
    out
}

/// Traces why `card`'s effect keeps its target.
fn unchanged(m: &mut M, card: &str, why: &str) {
    m.record(
        "change_target",
        format!("{card}'s effect {why}"),
        &[r::TARGET_CHANGE],
    )
    .obj(card.to_string());
}

/// Applies `change_target` to each selected card (`objs`).
pub(super) fn apply_change_target(
    m: &mut M,
    e: &Effect,
    this: &str,
    master: PlayerId,
    objs: &[String],
) -> R<()> {
    let Effect::ChangeTarget { to, .. } = e else {
        return Ok(());
    };
    for card in objs {
        let Some(at) = waiting_entry(m, card) else {
            unchanged(
                m,
                card,
                "is not waiting to resolve: the target of an effect that has already resolved cannot be changed",
            );
            continue;
        };
        let targets: Vec<(usize, usize)> = chain_entry(m, at)
            .map(|e| {
                e.targets
                    .iter()
                    .flat_map(|(i, ts)| (0..ts.len()).map(move |k| (*i, k)))
                    .collect()
            })
            .unwrap_or_default();
        let (effect, slot) = match targets.as_slice() {
            [] => {
                unchanged(m, card, "has no target, so there is none to change");
                continue;
            }
            [one] => *one,
            _ => {
                return Err(EngineError::NotImplemented {
                    clause: r::TARGET_CHANGE,
                    what: format!(
                        "choosing which of {}'s {} targets changes",
                        card,
                        targets.len()
                    ),
                });
            }
        };
        let options = new_target_options(m, to.as_ref(), this, master);
        let key = format!("{this}.new_target");
        let game = &m.game;
        let why = |id: &str| {
            game.card(id)?;
            let reason = if to.is_some() {
                "the changing text limits the new target"
            } else {
                "a new target is still a card on the field or in a play area, or a player"
            };
            Some((r::TARGET_CHANGE, reason.to_string()))
        };
        let (new, by_engine) =
            match m
                .choices
                .targets(&key, &options, TargetCount::Exactly(1), why)?
            {
                Picked::Given(mut g) => (g.pop().unwrap_or_default(), false),
                Picked::Only(mut g) => (g.pop().unwrap_or_default(), true),
            };
        let incarnation = m.game.card(&new).map_or(0, |c| c.incarnation);
        let Some(entry) = chain_entry(m, at) else {
            continue;
        };
        let Some(old) = entry
            .targets
            .get_mut(&effect)
            .and_then(|ts| ts.get_mut(slot))
        else {
            continue;
        };
        let before = std::mem::replace(old, (new.clone(), incarnation)).0;
        let e = m
            .record(
                "change_target",
                format!(
                    "{card}'s target changes from {before} to {new}: the new target is chosen whether or not it would be a legal one{}",
                    if to.is_some() { ", within what the changing text allows" } else { "" }
                ),
                &[r::TARGET_CHANGE],
            )
            .obj(card.clone());
        if by_engine {
            e.note(format!(
                "`{key}`: {new} is the only possible new target, so the engine chose it"
            ));
        }
    }
    Ok(())
}

//! The plan zone (2.23.3): creating it (3.8.2-3) and updating it
//! (3.8.2-4), rule-defined activated abilities of Normal timing that cost
//! <無色1> and use the stack.

use crate::engine::{Action, EngineError, PlayerId, ZoneId, player_name};

use super::{Entry, Kind, M, cost, dz, illegal, moves, play, r};

/// Declares creating (`update == false`) or updating the plan zone.
pub fn declare(m: &mut M, p: PlayerId, update: bool, _a: &Action) -> Result<(), EngineError> {
    let what = if update {
        "updating the plan zone"
    } else {
        "creating the plan zone"
    };
    play::check_timing(m, p, "normal", what, vec!["pass".into()])?;
    let has_plan = !m.game.zone_of(p, "plan").is_empty();
    if !update && has_plan {
        return Err(illegal(
            r::PLAN_ONE,
            "the plan zone already has a card: it can't be created (update it instead)",
            vec!["update_plan".into()],
        ));
    }
    if update && !has_plan {
        return Err(illegal(
            r::PLAN_UPDATE,
            "the plan zone has no card to put into the graveyard: create it instead",
            vec!["create_plan".into()],
        ));
    }
    let (rule, announce) = if update {
        (r::PLAN_UPDATE, r::PLAN_UPDATE_ANNOUNCE)
    } else {
        (r::PLAN_CREATE, r::PLAN_CREATE_ANNOUNCE)
    };
    m.record(
        "plan",
        format!("{} announces {what} and pays <無色1>", player_name(p)),
        &[rule, announce, r::MOVE_IS_ABILITY],
    );
    let c = cost::Cost {
        colourless: 1,
        ..Default::default()
    };
    cost::pay(m, p, &c, what)?;
    dz(&mut m.game).stack.push(Entry {
        controller: p,
        kind: Kind::Plan { update },
    });
    Ok(())
}

/// Resolves it: the plan card (when updating) goes to the graveyard, then
/// the top card of the deck is turned face up as the plan zone.
pub fn resolve(m: &mut M, p: PlayerId, update: bool) -> Result<(), EngineError> {
    if update {
        for c in m.game.zone_of(p, "plan").to_vec() {
            m.record(
                "plan",
                format!("the plan zone is updated: {c} goes to the graveyard"),
                &[r::PLAN_UPDATE, r::RESOLVE],
            );
            moves::destroy(m, &c);
        }
    }
    let top = m.game.zone_of(p, "deck").first().cloned();
    match top {
        Some(c) => {
            m.record(
                "plan",
                format!(
                    "{}'s top deck card {} is turned face up: it is the plan zone",
                    player_name(p),
                    super::label(&m.game, &c)
                ),
                &[
                    if update {
                        r::PLAN_UPDATE
                    } else {
                        r::PLAN_CREATE
                    },
                    r::PLAN_ZONE,
                ],
            )
            .change(
                format!("{c}.zone"),
                format!("{}.deck", player_name(p)),
                format!("{}.plan", player_name(p)),
            );
            // Not a deliberate ordering of the deck (6.2.6).
            super::deck_order::not_decided(m, p, r::DELIBERATE_NOT_PLAN);
            m.game.move_card(&c, ZoneId::of(p, "plan"), false);
            super::zone_effect::arrived(m, &c);
        }
        None => {
            m.record(
                "plan",
                "the deck is empty: no card is turned face up",
                &[r::IMPOSSIBLE],
            );
        }
    }
    Ok(())
}

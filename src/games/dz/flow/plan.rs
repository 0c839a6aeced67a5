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
    let rule = if update {
        r::PLAN_UPDATE
    } else {
        r::PLAN_CREATE
    };
    turn_top_up(m, p, "", rule);
    Ok(())
}

/// An effect turns the top card of `p`'s deck face up as the plan zone
/// (「山札の一番上のカードを表返す」): not a deliberate ordering of the deck
/// (6.2.6). With a plan card there, the deck's top card is already face up
/// as the plan zone (2.23.3-1): nothing happens (1.1.3).
pub fn top_face_up(m: &mut M, p: PlayerId) {
    if let Some(c) = m.game.zone_of(p, "plan").first().cloned() {
        m.record(
            "plan",
            format!(
                "{}'s top deck card {c} is already face up as the plan zone: nothing happens",
                player_name(p)
            ),
            &[r::PLAN_ZONE, r::IMPOSSIBLE],
        );
        return;
    }
    turn_top_up(m, p, "by an effect, ", r::PLAN_ZONE);
}

/// `p`'s top deck card turned face up as the plan zone (`how` the text
/// says it was, `rule` the clause doing it): not a deliberate ordering of
/// the deck (6.2.6); an empty deck has none (1.1.3).
fn turn_top_up(m: &mut M, p: PlayerId, how: &str, rule: &'static str) {
    let Some(c) = m.game.zone_of(p, "deck").first().cloned() else {
        m.record(
            "plan",
            "the deck is empty: no card is turned face up",
            &[r::IMPOSSIBLE],
        );
        return;
    };
    m.record(
        "plan",
        format!(
            "{how}{}'s top deck card {} is turned face up: it is the plan zone",
            player_name(p),
            super::label(&m.game, &c)
        ),
        &[rule, r::PLAN_ZONE],
    )
    .change(
        format!("{c}.zone"),
        format!("{}.deck", player_name(p)),
        format!("{}.plan", player_name(p)),
    );
    super::deck_order::not_decided(m, p, r::DELIBERATE_NOT_PLAN);
    m.game.move_card(&c, ZoneId::of(p, "plan"), false);
    super::zone_effect::arrived(m, &c);
}

/// The plan card of `p`'s deck turned face down (`when`: "first", "before
/// the deck is looked at"), the deck's top card again, by `rule` (2.23.3-3,
/// 2.23.3-4).
pub fn face_down(m: &mut M, p: PlayerId, when: &str, rule: &'static str) {
    for c in m.game.zone_of(p, "plan").to_vec() {
        m.record(
            "plan",
            format!("{c}, the plan card, is turned face down {when}: the deck's top card"),
            &[rule],
        )
        .change(
            format!("{c}.zone"),
            format!("{}.plan", player_name(p)),
            format!("{}.deck", player_name(p)),
        );
        m.game.move_card(&c, ZoneId::of(p, "deck"), true);
    }
}

/// Card `id` from another zone put face up into its owner's plan zone: on
/// top of the deck as the plan zone, a plan card already there turned face
/// down first (2.23.3-3); a deliberate ordering of the deck (6.2.2 A, the
/// plan zone being its top, 6.2.3).
pub fn put_face_up(m: &mut M, id: &str) {
    let Some(owner) = m.game.card(id).map(|c| c.owner) else {
        return;
    };
    face_down(m, owner, "first", r::PLAN_PUT);
    m.record(
        "put",
        format!(
            "{} is put face up into its owner's plan zone: on top of the deck, as the plan zone (a new object)",
            super::label(&m.game, id)
        ),
        &[r::OWNERS_ZONE, r::NEW_OBJECT, r::PLAN_PUT, r::PLAN_ZONE],
    );
    moves::to_owner_zone(m, id, "plan", false);
    super::zone_effect::arrived(m, id);
    super::deck_order::decided_by(
        m,
        owner,
        "a card was put face up into the plan zone, the top of",
        &[r::DELIBERATE_PLAN],
    );
}

//! Moving cards between zones (2.23.1): to the owner's zone of a kind
//! (2.23.1-1), a new object on every zone change other than square to
//! square (2.23.1-3, 2.23.8-4), square to square keeping the object,
//! drawing (the plan card first, 2.23.3-2), and the leaving-play triggers
//! read with last-known information (4.8.11).

use crate::engine::{CardId, PlayerId, ZoneId, player_name};

use super::{Central, FROZEN, M, board, dz, triggers};

/// The top `n` cards of `p`'s deck: the plan card first (it is the deck's
/// top card, 2.23.3-1), then the deck from the top.
pub fn top_cards(m: &M, p: PlayerId, n: usize) -> Vec<CardId> {
    m.game
        .zone_of(p, "plan")
        .iter()
        .chain(m.game.zone_of(p, "deck"))
        .take(n)
        .cloned()
        .collect()
}

/// `p` draws `n` cards, one at a time (2.23.1-5): the plan card is drawn
/// first and the next card stays face down (2.23.3-2, EX 2.23.3-2#ex1). An
/// empty deck draws nothing; the loss is a rule effect (4.16.4-2).
pub fn draw(m: &mut M, p: PlayerId, n: usize) {
    for _ in 0..n {
        let Some(card) = top_cards(m, p, 1).pop() else {
            if let Some(e) = m.trace.last_mut() {
                e.note = Some(format!(
                    "{}'s deck is empty: nothing is drawn (the loss is checked as a rule effect, 4.16.4-2)",
                    player_name(p)
                ));
            }
            return;
        };
        let from = m
            .game
            .card(&card)
            .map(|c| c.zone.to_string())
            .unwrap_or_default();
        m.game.move_card(&card, ZoneId::of(p, "hand"), false);
        if let Some(e) = m.trace.last_mut() {
            e.change(
                format!("{card}.zone"),
                from,
                format!("{}.hand", player_name(p)),
            );
        }
    }
}

/// Moves a card to its owner's zone `kind` (2.23.1-1) as a new object
/// (2.23.1-3). A card leaving a square fires its leaving triggers with
/// last-known information (4.8.11). `top`: to the top of an ordered zone
/// (graveyards and decks keep index 0 as the top).
pub fn to_owner_zone(m: &mut M, card: &str, kind: &'static str, top: bool) {
    let Some(c) = m.game.card(card).cloned() else {
        return;
    };
    let from = c.zone.clone();
    let from_square = board::is_square(from.kind) || board::is_base(from.kind);
    if from_square {
        triggers::leaving(m, &c, kind);
    }
    let to = ZoneId::of(c.owner, kind);
    m.game.move_card(card, to.clone(), top);
    {
        let d = dz(&mut m.game);
        d.arrived.remove(card);
        d.central.remove(card);
    }
    if let Some(e) = m.trace.last_mut() {
        e.change(format!("{card}.zone"), from.to_string(), to.to_string());
    }
}

/// Destroys (破壊) a card: to its owner's graveyard, on top (2.23.1-4,
/// 2.23.5-1).
pub fn destroy(m: &mut M, card: &str) {
    to_owner_zone(m, card, "graveyard", true);
}

/// A unit or base arrives on a square from another zone (the stack, a
/// hand…): a new object (2.23.1-3) under `controller`, released or
/// frozen, with its "placed on a square" triggers (4.8.9, 4.8.10-1).
pub fn place(m: &mut M, card: &str, controller: PlayerId, sq: &'static str, frozen: bool) {
    let from = m
        .game
        .card(card)
        .map(|c| c.zone.to_string())
        .unwrap_or_default();
    m.game.move_card(card, ZoneId::of(controller, sq), false);
    if let Some(c) = m.game.cards.get_mut(card) {
        c.controller = controller;
        if frozen {
            c.states.insert(FROZEN.into());
        }
    }
    board::arrive(&mut m.game, card);
    if let Some(e) = m.trace.last_mut() {
        e.change(
            format!("{card}.zone"),
            from,
            format!("{}.{sq}", player_name(controller)),
        );
        e.change(
            format!("{card}.state"),
            "-",
            if frozen { "frozen" } else { "released" },
        );
    }
    triggers::placed(m, card);
}

/// A unit goes from one battle square to another, keeping the object: its
/// damage, states and modifications stay (2.23.8-4, EX 2.23.1-3#ex1). It
/// is placed there later than the units already there (3.11.5).
pub fn relocate(m: &mut M, card: &str, sq: &'static str) {
    let Some(c) = m.game.card(card).cloned() else {
        return;
    };
    let from = c.zone.clone();
    let to = ZoneId::of(c.controller, sq);
    if let Some(v) = m.game.zones.get_mut(&from) {
        v.retain(|x| x != card);
    }
    m.game
        .zones
        .entry(to.clone())
        .or_default()
        .push(card.to_string());
    if let Some(c) = m.game.cards.get_mut(card) {
        c.zone = to.clone();
    }
    m.game.events.push(crate::engine::Event::Moved {
        card: card.to_string(),
        from: from.clone(),
        to: to.clone(),
    });
    board::arrive(&mut m.game, card);
    // A unit played into the central area stays subject to 4.16.4-8/-9
    // only on the square it was played to.
    if matches!(dz(&mut m.game).central.get(card), Some(Central::Placed)) {
        dz(&mut m.game).central.remove(card);
    }
    if let Some(e) = m.trace.last_mut() {
        e.change(format!("{card}.zone"), from.to_string(), to.to_string());
    }
    triggers::placed(m, card);
}

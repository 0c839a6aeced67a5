//! Cards that lie with a card on a square: 闘気 cards (6.1), put face down
//! under a unit or base by 「闘気カードとして置く」, and strategies bonded
//! (結合, 6.6) to a unit, face up on its square. Both are kept in the zone
//! `under` of the host's controller, `attached_to` their host: they are on
//! the host's square with it (6.1.3, 6.6.4) without being cards of that
//! square for the rules about units and bases.
//!
//! - Square to square they go with the host (6.1.4, 6.6.5).
//! - When the host goes from a square to any other zone, they go to their
//!   owners' graveyards at the same time, wherever the host goes (6.1.5,
//!   6.6.6).
//! - A 闘気 card is put under a unit or base on a square: never under
//!   itself or another 闘気 card (6.1.6, 6.1.6-1), nor under a bonded
//!   strategy (6.1.11); a second 闘気 card of the same controller under the
//!   same card goes to its owner's graveyard (4.16.4-16).
//!
//! Effect words: `put` `to: "toki"` with `target` the hosts (`all` or
//! `chosen`): under each host the top `top` card(s) of its owner's deck, or
//! without `top` the effect's own card (`this`); `put` `to: "bond"` with
//! `target` the unit: the resolving strategy (`this`) is bonded to it and,
//! at the end of its resolution, goes onto that unit's square instead of
//! the graveyard (2.20.3-3, 4.1.3).

use crate::engine::{Card, CardId, PlayerId, ZoneId, player_name};

use super::{M, board, label, moves, r};

/// The zone holding the 闘気 cards and bonded strategies of a player's
/// cards on squares.
pub const UNDER: &str = "under";

/// The cards lying with `host`: its 闘気 cards and bonded strategies.
pub fn attached(m: &M, host: &str) -> Vec<CardId> {
    let mut v: Vec<CardId> = m
        .game
        .cards
        .values()
        .filter(|c| c.zone.kind == UNDER && c.attached_to.as_deref() == Some(host))
        .map(|c| c.id.clone())
        .collect();
    v.sort();
    v
}

/// The card's text `toki_host` value for 「下に闘気カードのない…カードの下
/// に闘気カードとして置く」.
pub const NO_TOKI: &str = "no_toki";

/// Whether `host` has a 闘気 card under it (6.1.2: 「下に闘気カードがある
/// カード」); a bonded strategy is not one.
pub fn has_toki(m: &M, host: &str) -> bool {
    attached(m, host).iter().any(|c| !bonded(m, c))
}

/// Whether `source`'s effects put a 闘気 card only under a card with none
/// (its text `toki_host` is `no_toki`).
pub fn only_without_toki(m: &M, source: &str) -> bool {
    super::text(&m.game, source, "toki_host") == Some(NO_TOKI)
}

/// Whether `id` is a strategy bonded to a card.
fn bonded(m: &M, id: &str) -> bool {
    m.game
        .card(id)
        .is_some_and(|c| c.zone.kind == UNDER && !c.has(super::TOKI_STRATEGY))
        && super::ctype(&m.game, id) == super::types::STRATEGY
}

/// The host `host` (as it was on its square) left the squares for
/// another zone: its 闘気 cards and bonded strategies go to their owners'
/// graveyards at the same time (6.1.5, 6.6.6), a 闘気 card elsewhere when
/// a replacement says so. Call with the list taken before the host moved.
pub fn host_left(m: &mut M, host: &Card, cards: Vec<CardId>, to: &str) {
    let host_controller = host.controller;
    let host = &host.id;
    for id in cards {
        let (what, rule) = if bonded(m, &id) {
            ("its bonded strategy", r::BOND_LEAVES)
        } else {
            ("its 闘気 card", r::TOKI_LEAVES)
        };
        if rule == r::TOKI_LEAVES && toki_replaced(m, host, &id, host_controller) {
            continue;
        }
        m.record(
            "attached",
            format!(
                "{host} went from its square to the {to} zone: {what} {} goes to its owner's graveyard at the same time",
                label(&m.game, &id)
            ),
            &[rule],
        );
        moves::to_owner_zone(m, &id, "graveyard", true);
    }
}

/// 「相手のカードの下にある闘気カードが墓地に置かれる時、かわりに…」
/// (trigger `instead_of_opponent_toki_graveyard`): a card on a square
/// whose controller is not the host's replaces the 闘気 card's going to
/// the graveyard (4.15.2); its effects happen instead, read with `this` =
/// the 闘気 card. The first such card on the squares applies.
pub const TOKI_REPLACEMENT: &str = "instead_of_opponent_toki_graveyard";

/// Applies a replacement of 闘気 card `toki` leaving with its host `host`
/// (controlled by `host_controller`) for the graveyard; whether one did.
fn toki_replaced(m: &mut M, host: &str, toki: &str, host_controller: PlayerId) -> bool {
    let Some((w, _)) = board::cards_on_squares(&m.game).into_iter().find(|(w, _)| {
        w.controller != host_controller
            && m.game
                .def_of(&w.id)
                .is_some_and(|d| d.abilities.iter().any(|a| a.trigger == TOKI_REPLACEMENT))
    }) else {
        return false;
    };
    m.record(
        "replacement",
        format!(
            "{host} left its square: its 闘気 card {} would go to the graveyard (6.1.5); instead {}'s replacement effect applies",
            label(&m.game, toki),
            label(&m.game, &w.id)
        ),
        &[r::TOKI_LEAVES, r::REPLACEMENT, r::REPLACE_INSTEAD],
    );
    let effects = super::targets::effects_of(&m.game, &w.def, TOKI_REPLACEMENT);
    let colours = super::colours(&m.game, &w.id);
    super::effects::instead(m, w.controller, toki, colours, &effects);
    true
}

/// The host `host` went from square to square: its 闘気 cards and bonded
/// strategies go with it (6.1.4, 6.6.5).
pub fn host_relocated(m: &mut M, host: &str, sq: &str) {
    let cards = attached(m, host);
    if cards.is_empty() {
        return;
    }
    let rules: Vec<&'static str> = cards
        .iter()
        .map(|id| {
            if bonded(m, id) {
                r::BOND_FOLLOWS
            } else {
                r::TOKI_FOLLOWS
            }
        })
        .collect();
    m.record(
        "attached",
        format!("{} go(es) to {sq} with {host}", cards.join(", ")),
        &rules,
    );
}

/// Puts `card` under `host` as a 闘気 card (6.1.1), face down. Refused
/// (nothing happens) under itself, under a 闘気 card or a bonded strategy
/// (6.1.6, 6.1.6-1, 6.1.11), or under a card not on a square.
pub fn put_toki(m: &mut M, card: &str, host: &str) {
    let Some(h) = m.game.card(host).cloned() else {
        return;
    };
    let on_square = board::is_square(h.zone.kind) || board::is_base(h.zone.kind);
    let why_not = if card == host {
        Some((
            "a card can't be put under itself as a 闘気 card",
            r::TOKI_NOT_SELF,
        ))
    } else if h.zone.kind == UNDER && bonded(m, host) {
        Some((
            "no 闘気 card goes under a bonded strategy",
            r::TOKI_NOT_BONDED,
        ))
    } else if h.zone.kind == UNDER {
        Some((
            "a 闘気 card can't be put under a 闘気 card",
            r::TOKI_NOT_TOKI,
        ))
    } else if !on_square {
        Some(("a 闘気 card goes under a card on a square", r::TOKI))
    } else {
        None
    };
    if let Some((why, rule)) = why_not {
        m.record(
            "toki",
            format!("{card} is not put under {host}: {why}"),
            &[rule, r::IMPOSSIBLE],
        );
        return;
    }
    let from = m
        .game
        .card(card)
        .map(|c| c.zone.to_string())
        .unwrap_or_default();
    // A card leaving a square to become a 闘気 card (ペガサス・ポニー's
    // replacement) leaves the squares for another zone: its own 闘気 cards
    // and bonded strategies go to the graveyard (6.1.5, 6.6.6).
    let leaving = m
        .game
        .card(card)
        .filter(|c| board::is_square(c.zone.kind) || board::is_base(c.zone.kind))
        .cloned();
    let riders = if leaving.is_some() {
        attached(m, card)
    } else {
        Vec::new()
    };
    let to = put_under(m, card, host, h.controller);
    // A strategy put as a 闘気 card is not a bonded one (6.1.1, 6.6.1).
    if super::ctype(&m.game, card) == super::types::STRATEGY
        && let Some(c) = m.game.cards.get_mut(card)
    {
        c.states.insert(super::TOKI_STRATEGY.into());
    }
    m.record(
        "toki",
        format!(
            "{card} is put face down under {} on {} as a 闘気 card ({}'s)",
            label(&m.game, host),
            h.zone.kind,
            player_name(h.controller)
        ),
        &[r::TOKI, r::TOKI_UNDER, r::TOKI_ON_SQUARE, r::TOKI_HIDDEN],
    )
    .change(format!("{card}.zone"), from, to.to_string());
    if let Some(c) = leaving {
        let d = super::dz(&mut m.game);
        d.arrived.remove(card);
        d.central.remove(card);
        d.last_square.insert(card.into(), c.zone.kind);
        host_left(m, &c, riders, UNDER);
    }
    second_toki(m, host, card, h.controller);
}

/// Puts `card` into the `under` zone of `controller`, attached to `host`
/// and controlled as its host is (闘気 6.1, 結合 6.6: the card moves with
/// its host). Returns the zone it went to.
fn put_under(m: &mut M, card: &str, host: &str, controller: PlayerId) -> ZoneId {
    let to = ZoneId::of(controller, UNDER);
    m.game.move_card(card, to.clone(), false);
    if let Some(c) = m.game.cards.get_mut(card) {
        c.attached_to = Some(host.into());
        c.controller = controller;
    }
    to
}

/// 4.16.4-16: a 闘気 card put under a card that already has one of the same
/// controller goes to its owner's graveyard.
fn second_toki(m: &mut M, host: &str, card: &str, controller: PlayerId) {
    let others = attached(m, host)
        .into_iter()
        .filter(|id| id != card && !bonded(m, id))
        .filter(|id| m.game.card(id).is_some_and(|c| c.controller == controller))
        .count();
    if others > 0 {
        m.record(
            "rule_effect",
            format!(
                "{host} already has a 闘気 card of {}: the later one, {card}, goes to its owner's graveyard",
                player_name(controller)
            ),
            &[r::RE_SECOND_TOKI],
        );
        moves::to_owner_zone(m, card, "graveyard", true);
    }
}

/// Marks the resolving strategy `card` bonded to `unit` (6.6.1): it goes
/// onto the unit's square at the end of its resolution.
pub fn bond(m: &mut M, card: &str, unit: &str) {
    let on_square = m
        .game
        .card(unit)
        .is_some_and(|c| board::is_square(c.zone.kind));
    if !on_square {
        m.record(
            "bond",
            format!("{unit} is not on a battle square: {card} is not bonded"),
            &[r::BOND, r::IMPOSSIBLE],
        );
        return;
    }
    if let Some(c) = m.game.cards.get_mut(card) {
        c.attached_to = Some(unit.into());
    }
    m.record(
        "bond",
        format!("{card} is bonded to {}", label(&m.game, unit)),
        &[r::BOND],
    );
}

/// At the end of its resolution a bonded strategy goes onto its unit's
/// square, face up, instead of the graveyard (2.20.3-3, 4.1.3, 6.6.2).
/// Returns whether it did.
pub fn place_bonded(m: &mut M, card: &str) -> bool {
    let Some(unit) = m.game.card(card).and_then(|c| c.attached_to.clone()) else {
        return false;
    };
    let Some(u) = m.game.card(&unit).cloned() else {
        return false;
    };
    if !board::is_square(u.zone.kind) {
        return false;
    }
    let to = put_under(m, card, &unit, u.controller);
    m.record(
        "resolve",
        format!(
            "{card} is bonded: at the end of its resolution it is put face up on {} with {}, not into the graveyard",
            u.zone.kind,
            label(&m.game, &unit)
        ),
        &[
            r::STRATEGY_RESOLVES,
            r::SPELL_PLACED,
            r::PLACED_AT_END,
            r::BOND_FACE_UP,
            r::BOND_ON_SQUARE,
            r::BOND_STILL_STRATEGY,
        ],
    )
    .change(format!("{card}.zone"), "stack", to.to_string());
    true
}

//! Last known information 最終情報 (10.11.1): an effect that refers to a
//! card's information, when the card has moved out of its zone (other than
//! from a field to a field), uses the information it had when it was last
//! there. A card's numbers are remembered as it leaves each zone; the
//! conditions `this_attack` and `this_defense` (a Last Words "if this
//! follower had N attack or more") read them.

use super::*;

/// Condition count: the ability's own card's attack.
pub const THIS_ATTACK: &str = "this_attack";
/// Condition count: the ability's own card's defense.
pub const THIS_DEFENSE: &str = "this_defense";

/// What a card was like when it last left a zone.
#[derive(Debug, Clone, PartialEq)]
pub struct Known {
    /// The zone it left.
    pub zone: ZoneId,
    /// Its attack and defense there (after continuous effects and damage).
    pub attack: i64,
    pub defense: i64,
}

/// Remembers `id`'s information as it leaves its zone for `to`; a move
/// from a field to a field keeps the card where it was (10.11.1).
pub(super) fn remember(m: &mut M, id: &str, to: &ZoneId) {
    let Some(c) = m.game.card(id) else { return };
    if c.zone.kind == zn::FIELD && to.kind == zn::FIELD {
        return;
    }
    let known = Known {
        zone: c.zone.clone(),
        attack: attack(&m.game, c),
        defense: defense(&m.game, c),
    };
    m.game
        .own::<SveState>()
        .last_known
        .insert(CardId::from(id), known);
}

/// `this`'s attack or defense (`count`) for a condition of its own ability:
/// on the field, its current value; having left the field, its last known
/// one (10.11.1, with the zone it left); elsewhere its printed value.
pub(super) fn own_number(g: &Game, this: &str, count: &str) -> (i64, Option<ZoneId>) {
    let pick = |a: i64, d: i64| if count == THIS_ATTACK { a } else { d };
    let Some(c) = g.card(this) else {
        return (0, None);
    };
    if c.zone.kind == zn::FIELD {
        return (pick(attack(g, c), defense(g, c)), None);
    }
    let known = g
        .own_ref::<SveState>()
        .and_then(|s| s.last_known.get(this))
        .filter(|k| k.zone.kind == zn::FIELD);
    match known {
        Some(k) => (pick(k.attack, k.defense), Some(k.zone.clone())),
        None => (pick(attack(g, c), defense(g, c)), None),
    }
}

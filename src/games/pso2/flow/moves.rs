//! Moving cards between zones: draws, mills, destruction and the cards that
//! follow their host (215.5, 205.4.6, 204.2.2.3), tokens ceasing to exist
//! (GL:トークン), and the owner's zones as destination (GL:コントロール).

use super::{M, ctype, r, st, types, zn};
use crate::engine::{CardId, EngineError, PlayerId, ZoneId, player_name};

/// Remembers the order in which decks reached 0 (for the reading
/// `reading_sequential_deck_out` of 101.7).
fn note_deck(m: &mut M, from: &ZoneId) {
    if from.kind != zn::DECK {
        return;
    }
    let Some(p) = from.player else { return };
    if m.game.zone(from).is_empty() {
        let st = super::state::of(&mut m.game);
        if !st.deck_zero.contains_key(&p) {
            st.deck_zero_seq += 1;
            st.deck_zero.insert(p, st.deck_zero_seq);
        }
    }
}

/// Moves a card to the end of `to` (a new object, 400.6). A card leaving
/// the field takes the cards stacked on it with it to their owners'
/// discards (215.5); a token that leaves the field ceases to exist.
pub fn move_to(m: &mut M, id: &str, to: ZoneId) {
    let Some(from) = m.game.card(id).map(|c| c.zone.clone()) else {
        return;
    };
    let t = ctype(&m.game, id);
    if (t == types::PLAYER && from.kind == zn::PLAYER) || (t == types::MAG && from.kind == zn::MAG)
    {
        let rule = if t == types::PLAYER {
            r::PLAYER_NEVER_LEAVES
        } else {
            r::MAG_NEVER_LEAVES
        };
        m.record(
            "rule",
            format!("{id} never leaves its zone: it stays where it is"),
            &[rule, r::IMPOSSIBLE_IGNORED],
        );
        return;
    }
    let to = ex_returns(m, id, &from, to);
    let to = super::replace::destination(m, id, to);
    let stacked = stacked_on(m, id);
    m.game.move_card(id, to.clone(), false);
    note_deck(m, &from);
    if from.kind == zn::FIELD || from.kind == zn::PLAYER {
        host_left(m, id, stacked);
        if m.game.card(id).is_some_and(|c| c.token) && to.kind != zn::FIELD {
            m.record(
                "token",
                format!("token {id} left the field and ceases to exist"),
                &[r::GL_TOKEN],
            );
            m.game.erase(id);
        }
    }
}

/// Whether `id` is an 【EX】 card (keyword `ex`) on the field (RAID:S13).
fn ex_on_field(m: &M, id: &str) -> bool {
    m.game.def_of(id).is_some_and(|d| d.has_keyword("ex"))
        && m.game.card(id).is_some_and(|c| c.zone.kind == zn::FIELD)
}

/// The cards stacked on `id` (equipment, attached actives).
fn stacked_on(m: &M, id: &str) -> Vec<CardId> {
    m.game
        .cards
        .values()
        .filter(|c| c.attached_to.as_deref() == Some(id))
        .map(|c| c.id.clone())
        .collect()
}

/// The cards that were stacked on `id`, which left the field, are
/// destroyed and put in their owners' discards (215.5, 205.4.6,
/// 204.2.2.3, GL:重ねる).
fn host_left(m: &mut M, id: &str, stacked: Vec<CardId>) {
    for s in stacked {
        let t = ctype(&m.game, &s).to_string();
        let rule = match t.as_str() {
            types::WEAPON | types::ARMOR => r::EQUIP_HOST_LEAVES,
            types::ACTIVE => r::ATTACH_LEAVES_WITH_HOST,
            _ => r::STACKED_DESTROYED,
        };
        m.record(
            "stacked",
            format!("{s} was stacked on {id}, which left the field: it is destroyed and put in the discard"),
            &[rule, r::STACKED_DESTROYED, r::GL_STACK],
        )
        .obj(s.clone());
        to_discard(m, &s);
    }
}

/// RAID:S13: an 【EX】 card (keyword `ex`) that leaves the field goes back
/// outside the game (its owner's excluded cards) instead of where it was
/// going.
fn ex_returns(m: &mut M, id: &str, from: &ZoneId, to: ZoneId) -> ZoneId {
    let ex = m.game.def_of(id).is_some_and(|d| d.has_keyword("ex"));
    if !ex || from.kind != zn::FIELD || to.kind == zn::FIELD || to.kind == zn::EXCLUDED {
        return to;
    }
    let owner = m.game.card(id).map_or(PlayerId::P1, |c| c.owner);
    m.record(
        "raid",
        format!("{id} is an 【EX】 card leaving the field: it returns outside the game instead of going to {}", to.kind),
        &[r::RAID_EX],
    )
    .obj(id.to_string());
    ZoneId::of(owner, zn::EXCLUDED)
}

/// GL:コントロール: a card whose control was gained goes to its owner's
/// zone, not its controller's, when it moves before control is lost.
fn controlled_goes_home(m: &mut M, id: &str, zone: &str) {
    let Some(c) = m.game.card(id) else { return };
    if c.owner == c.controller || c.zone.kind != zn::FIELD {
        return;
    }
    let (owner, controller) = (c.owner, c.controller);
    m.record(
        "control",
        format!(
            "{id} is controlled by {} but owned by {}: it goes to its owner's {zone}",
            player_name(controller),
            player_name(owner)
        ),
        &[r::GL_CONTROL],
    )
    .obj(id.to_string());
}

/// Puts a card in its owner's discard (405, GL:コントロール).
pub fn to_discard(m: &mut M, id: &str) {
    let Some(owner) = m.game.card(id).map(|c| c.owner) else {
        return;
    };
    controlled_goes_home(m, id, "discard");
    move_to(m, id, ZoneId::of(owner, zn::DISCARD));
}

/// Puts a card in its owner's hand; a Boss card goes on top of the Boss
/// deck instead (RAID:S3), unless it is an 【EX】 card leaving the field:
/// that one still leaves the field and returns outside the game
/// (RAID:S13, applied by [`move_to`]).
pub fn to_hand(m: &mut M, id: &str) {
    let Some(owner) = m.game.card(id).map(|c| c.owner) else {
        return;
    };
    controlled_goes_home(m, id, "hand");
    if super::raid::is_boss(&m.game, owner) && !ex_on_field(m, id) {
        m.record(
            "raid",
            format!(
                "{id} would return to the Boss's hand: it goes on top of the Boss deck instead"
            ),
            &[r::RAID_TO_DECK_TOP],
        );
        let stacked = stacked_on(m, id);
        m.game.move_card(id, ZoneId::of(owner, zn::DECK), true);
        host_left(m, id, stacked);
        return;
    }
    move_to(m, id, ZoneId::of(owner, zn::HAND));
}

/// Shuffles `p`'s deck (seeded).
pub fn shuffle_deck(m: &mut M, p: PlayerId) {
    let z = ZoneId::of(p, zn::DECK);
    let mut v = m.game.zones.get(&z).cloned().unwrap_or_default();
    m.game.rng.shuffle(&mut v);
    m.game.zones.insert(z, v);
}

/// Excludes a card (400.2.4): no zone of the rules; kept with its owner's
/// excluded cards (400.2.2.1).
pub fn exclude(m: &mut M, id: &str) {
    let Some(owner) = m.game.card(id).map(|c| c.owner) else {
        return;
    };
    move_to(m, id, ZoneId::of(owner, zn::EXCLUDED));
}

/// Destroys a field card: it goes to its owner's discard (301.5, GL:破壊),
/// unless a replacement effect applies instead (103.4.3). Returns whether
/// it was destroyed.
pub fn destroy(
    m: &mut M,
    id: &str,
    why: &str,
    rules: &[&'static str],
) -> Result<bool, EngineError> {
    if super::replace::destruction(m, id, why)? {
        return Ok(false);
    }
    m.record("destroy", format!("{id} is destroyed: {why}"), rules)
        .obj(id.to_string());
    to_discard(m, id);
    Ok(true)
}

/// Puts a card on the field of `p` with its entering states (ON/OFF, row).
pub fn enter_field(m: &mut M, id: &str, p: PlayerId, on: bool, back: bool) {
    move_to(m, id, ZoneId::of(p, zn::FIELD));
    if let Some(c) = m.game.cards.get_mut(id) {
        c.states
            .insert(if on { st::ON } else { st::OFF }.to_string());
        c.states
            .insert(if back { st::BACK } else { st::FRONT }.to_string());
    }
}

/// `p` draws `n` cards, one at a time (102.4.1). Drawing from an empty deck
/// does nothing (103.1.3): the loss is the deck reaching 0 (101.3), never a
/// failed draw.
pub fn draw(m: &mut M, p: PlayerId, n: i64) {
    for _ in 0..n.max(0) {
        if super::restrict::cant_draw(m, p) {
            return;
        }
        let Some(top) = m.game.zone_of(p, zn::DECK).first().cloned() else {
            m.record(
                "draw",
                format!("{}'s deck is empty: nothing is drawn", player_name(p)),
                &[r::IMPOSSIBLE_IGNORED, r::DECK_OUT],
            );
            return;
        };
        let before = m.game.zone_of(p, zn::DECK).len();
        move_to(m, &top, ZoneId::of(p, zn::HAND));
        m.record(
            "draw",
            format!("{} draws {top}", player_name(p)),
            &[r::GL_DRAW, r::DRAW_ONE_BY_ONE],
        )
        .change(format!("{}.deck", player_name(p)), before, before - 1);
    }
}

/// Damage to a player: that many cards from the top of the deck go to the
/// discard at once, in no order (201.4, 214.2, 214.2.1).
pub fn mill(m: &mut M, p: PlayerId, n: i64) -> Vec<CardId> {
    let deck = m.game.zone_of(p, zn::DECK).to_vec();
    let k = (n.max(0) as usize).min(deck.len());
    let cards: Vec<CardId> = deck[..k].to_vec();
    m.record(
        "player_damage",
        format!(
            "{} takes {n} damage: the top {k} card(s) of the deck go to the discard at once",
            player_name(p)
        ),
        &[r::PLAYER_DAMAGE_MILL, r::PLAYER_MILL, r::MILL_NO_ORDER],
    )
    .change(
        format!("{}.deck", player_name(p)),
        deck.len(),
        deck.len() - k,
    );
    for c in &cards {
        move_to(m, c, ZoneId::of(p, zn::DISCARD));
    }
    cards
}

//! Moving cards between zones (2.23.1): to the owner's zone of a kind
//! (2.23.1-1), a new object on every zone change other than square to
//! square (2.23.1-3, 2.23.8-4), square to square keeping the object,
//! drawing (the plan card first, 2.23.3-2), and the leaving-play triggers
//! read with last-known information (4.8.11).

use crate::engine::{CardId, PlayerId, ZoneId, player_name};

use super::{Central, FROZEN, M, board, dz, r, triggers};

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
    if n > 0 && super::restrict::draw_forbidden(m, p) {
        return;
    }
    for _ in 0..n {
        let Some(card) = top_cards(m, p, 1).pop() else {
            if let Some(e) = m.trace.last_mut() {
                e.note = Some(format!(
                    "{}'s deck is empty: nothing is drawn (the loss is checked as a rule effect, 4.16.4-2)",
                    player_name(p)
                ));
                e.rules.push(r::PARTLY_IMPOSSIBLE);
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
            if from.ends_with(".plan") {
                // The plan card is the deck's top card; the next one stays
                // face down (2.23.3-2).
                e.rules.push(r::PLAN_MOVES);
            }
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
    if from_square && kind == "graveyard" && replaced(m, &c) {
        return;
    }
    if from_square {
        triggers::leaving(m, &c, kind);
    }
    let riders = if from_square {
        super::attach::attached(m, card)
    } else {
        Vec::new()
    };
    let left_square = board::square_of(&m.game, card);
    let to = ZoneId::of(c.owner, kind);
    m.game.move_card(card, to.clone(), top);
    {
        let d = dz(&mut m.game);
        d.arrived.remove(card);
        d.central.remove(card);
        if from_square {
            d.last_square.insert(card.into(), from.kind);
        }
    }
    if let Some(e) = m.trace.last_mut() {
        e.change(format!("{card}.zone"), from.to_string(), to.to_string());
    }
    super::attach::host_left(m, &c, riders, kind);
    if let (Some(sq), "graveyard") = (left_square, kind) {
        super::watchers::left(m, &c, sq);
    }
    if kind == "smash" {
        triggers::into_smash(m, &c);
    }
}

/// Destroys (破壊) a card: to its owner's graveyard, on top (2.23.1-4,
/// 2.23.5-1).
pub fn destroy(m: &mut M, card: &str) {
    to_owner_zone(m, card, "graveyard", true);
    if let Some(e) = m.trace.last_mut()
        && !e.rules.contains(&r::GRAVEYARD_TOP)
    {
        e.rules.push(r::GRAVEYARD_TOP);
    }
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
    support_on_arrival(m, card);
    super::zone_effect::arrived(m, card);
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
        .push(card.into());
    if let Some(c) = m.game.cards.get_mut(card) {
        c.zone = to.clone();
    }
    m.game.events.push(crate::engine::Event::Moved {
        card: card.into(),
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
    support_on_arrival(m, card);
    super::attach::host_relocated(m, card, sq);
    triggers::placed(m, card);
}

/// A unit arriving where 支援 or another static ability reaches it has
/// the change already: a static ability applies at once, to arriving cards
/// too, without the stack
/// (4.5.2, 4.5.3, 4.14.2, 4.14.4-2, 5.5.2; 5.5.2-1 when the card supports
/// itself).
fn support_on_arrival(m: &mut M, card: &str) {
    let Some(c) = m.game.card(card).cloned() else {
        return;
    };
    let own = super::has_kw(&m.game, card, "support");
    let bonus = board::support_for(&m.game, &c);
    let (st_power, st_smash) = (
        super::statics::power(&m.game, &c),
        super::statics::smash(&m.game, &c),
    );
    let conditional = super::statics::area_conditional(&m.game, &c);
    if bonus == 0 && st_power == 0 && st_smash == 0 && !conditional {
        return;
    }
    let power = super::power(&m.game, &c);
    let smash = super::smash_value(&m.game, &c);
    let mut what = Vec::new();
    if bonus != 0 {
        what.push(format!("支援 {bonus:+}"));
    }
    if st_power != 0 {
        what.push(format!("static abilities {st_power:+} power"));
    }
    if st_smash != 0 {
        what.push(format!("static abilities {st_smash:+} smash"));
    }
    let regions = super::statics::region_rules(&m.game, &c);
    let races_changed = !super::statics::added_traits(&m.game, &c).is_empty();
    let e = m.record(
        "static",
        format!(
            "{card} arrives with {}: power {power}, smash {smash}",
            if what.is_empty() {
                "no static change (its own area-conditional abilities do not work here)".to_string()
            } else {
                what.join(", ")
            }
        ),
        &[
            r::STATIC_AT_ONCE,
            r::STATIC_NO_STACK,
            r::STATIC_ARRIVAL,
            r::STATIC_LATER,
        ],
    );
    if bonus != 0 {
        e.rules.push(r::SUPPORT);
    }
    if st_power != 0 || st_smash != 0 {
        // A static ability (4.5.1) is what changes it.
        e.rules.push(r::STATIC);
    }
    if (st_power != 0 || st_smash != 0) && races_changed {
        // Races changed first, then power and smash (4.14.5-2).
        e.rules.push(r::RACE_FIRST);
    }
    if conditional {
        // Its own static abilities work only in the area they name.
        e.rules.push(r::STATIC_WHILE_THERE);
    }
    e.rules.extend(regions);
    if own {
        e.rules.push(r::SUPPORT_SELF);
    }
}

/// A replacement of 「スクエアから墓地に置かれる時、かわりに…」 (4.15.2):
/// the card's own, or one watching it (`instead_of_unit_graveyard`);
/// its effects happen instead, read with `this` = the card, and the event
/// did not happen, so nothing triggers on it (4.15.4, 4.8.7). A static
/// ability's replacement applies each time (4.15.3), never twice to one
/// event (4.15.6).
fn replaced(m: &mut M, c: &crate::engine::Card) -> bool {
    // 「かわりに…してよい」: its controller chooses (flow/may_replace.rs).
    if !dz(&mut m.game).replacing.contains(&c.id)
        && let Some(applied) = super::may_replace::apply(m, c)
    {
        return applied;
    }
    let own = super::targets::effects_of(&m.game, &c.def, "instead_of_graveyard");
    let (controller, effects, whose) = if !own.is_empty() {
        (c.controller, own, "its".to_string())
    } else if let Some((w, effects)) = super::watchers::replacement(&m.game, c, c.zone.kind) {
        (
            w.controller,
            effects,
            format!("{}'s", super::label(&m.game, &w.id)),
        )
    } else {
        return false;
    };
    if dz(&mut m.game).replacing.contains(&c.id) {
        m.record(
            "replacement",
            format!(
                "{}: the replacement effect does not apply again to the event it is replacing",
                c.id
            ),
            &[r::REPLACE_ONCE],
        );
        return false;
    }
    m.record(
        "replacement",
        format!(
            "{} would go from a square to the graveyard: instead {whose} replacement effect applies; the event does not happen and triggers nothing",
            super::label(&m.game, &c.id)
        ),
        &[
            r::REPLACEMENT,
            r::REPLACE_INSTEAD,
            r::REPLACE_EACH_TIME,
            r::REPLACED_DID_NOT_HAPPEN,
            r::REPLACED_NO_TRIGGER,
        ],
    );
    dz(&mut m.game).replacing.insert(c.id.clone());
    let colours = super::colours(&m.game, &c.id);
    super::effects::instead(m, controller, &c.id, colours, &effects);
    dz(&mut m.game).replacing.remove(&c.id);
    true
}

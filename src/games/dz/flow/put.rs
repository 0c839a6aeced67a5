//! 「置く」 by an effect (Effect `put`): cards go to their owner's zone of
//! a kind (2.23.1-1) as new objects (2.23.1-3), or units onto a battle
//! square under the control of the effect's controller (2.20.1-4).
//!
//! `to` words: `hand`, `graveyard`, `energy` (released), `smash` (face
//! down, released), `remove`, `deck` (on top), `plan` (face up on top of
//! the deck, 2.23.3-3; with `top: 1`, the deck's top card turned face up
//! as the plan zone, 6.2.6); with `top: N` the top N
//! cards of the deck of each player `who` (the plan card first, 2.23.3-2)
//! go there instead of `target`. A region (`own_area`, `central_area`,
//! `enemy_area` from the effect's controller; `adjacent`, `same_line` from
//! the unit's square, or from the effect's card for a unit coming from
//! another zone; `battle_space`: any): the target unit goes onto the
//! battle square of that region the effect's controller chooses with the
//! choice `<card>.square` (the card whose effect it is). From another zone
//! the square must hold no unit of theirs (「自分のユニットのない…スクエア」,
//! the form card text uses) and the unit arrives frozen, or released when
//! the card's text `put_state` is `released`; 速攻 does not release it
//! (5.1.2-1). From a square it is moved there, the same object, its state
//! changed only by `put_state` (`unchanged`: 「状態を変更せずに」, kept as
//! the text says). `this_square`: the battle square of the effect's card.

use crate::engine::{CardId, Effect, EngineError, PlayerId, Target, Who, player_name};

use super::effects::Ctx;
use super::{FROZEN, M, board, has_kw, label, moves, ni, r};

/// The zones a card may be put into.
pub const ZONES: &[&str] = &[
    "hand",
    "graveyard",
    "energy",
    "smash",
    "remove",
    "deck",
    "plan",
];

/// The regions a unit may be put onto (see `board::REGIONS`).
pub const SQUARES: &[&str] = &[
    "own_area",
    "central_area",
    "enemy_area",
    "adjacent",
    "same_line",
    "battle_space",
    EVENT_SQUARE,
    THIS_SQUARE,
    super::target_place::TARGET_PLACE,
];

/// 「このカードのあるスクエア」: the battle square of the effect's card;
/// nothing is put when it is on none.
pub const THIS_SQUARE: &str = "this_square";

/// `put_state` 「リリース/フリーズ状態を変更せずに」: a unit moved square to
/// square keeps its state, as the text says (no reading needed).
pub const UNCHANGED: &str = "unchanged";

/// 「そのスクエア」: the square where the unit whose arrival triggered the
/// ability was put (flow/nearby.rs); nothing is put when there is none.
pub const EVENT_SQUARE: &str = "event_square";

/// `put` `to: "under"` with `target` the host card(s): 「闘気カードとして
/// 置く」 (6.1.1), the top `top` card(s) of each host's owner's deck or the
/// effect's own card; or, for a strategy with attribute リンク (text
/// `attribute: "link"`) putting itself, 「このカードを結合する」 (6.6.1): it
/// is bonded to the (first) target unit (flow/attach.rs).
pub const UNDER: &str = super::attach::UNDER;

/// Refuses a `put` the module does not implement.
pub fn refuse(key: &str, e: &Effect) -> Result<(), EngineError> {
    let Effect::Put {
        to,
        target,
        top,
        who,
        ..
    } = e
    else {
        return Ok(());
    };
    // 「相手は…スクエアに置く」: a unit put by a player the effect names is
    // that player's (2.20.1-5); not implemented, and never read as the
    // effect's controller putting it.
    if SQUARES.contains(&to.as_str()) && *who != Who::You {
        return Err(ni(
            r::UNIT_PUT_NAMED,
            format!("card `{key}`: a unit put onto a square by the player `who` names"),
        ));
    }
    let ok = if SQUARES.contains(&to.as_str()) {
        top.is_none() && target.is_some()
    } else if to == UNDER {
        target.is_some()
    } else if to == "plan" && top.is_some() {
        // Only the top card can be turned face up as the plan zone.
        *top == Some(1) && target.is_none()
    } else {
        ZONES.contains(&to.as_str()) && (top.is_some() != target.is_some())
    };
    if ok {
        Ok(())
    } else {
        Err(ni(
            r::OWNERS_ZONE,
            format!("card `{key}`: putting cards to `{to}` this way"),
        ))
    }
}

/// Carries out a `put` on `ids` (the recipients of its target), or on the
/// top cards of the decks of `who`.
pub fn apply(
    m: &mut M,
    cx: &Ctx<'_>,
    to: &str,
    ids: Vec<CardId>,
    top: Option<i64>,
    who: Who,
) -> Result<(), EngineError> {
    if to == UNDER {
        let link = super::text(&m.game, cx.source, "attribute") == Some("link")
            && super::ctype(&m.game, cx.source) == super::types::STRATEGY;
        if top.is_none() && link {
            if let Some(unit) = ids.first() {
                super::attach::bond(m, cx.source, unit);
            }
            return Ok(());
        }
        return toki(m, cx, ids, top);
    }
    if let (Some(_), "plan") = (top, to) {
        for p in m.game.who(cx.controller, who) {
            super::plan::top_face_up(m, p);
        }
        return Ok(());
    }
    if let Some(n) = top {
        for p in m.game.who(cx.controller, who) {
            let cards = moves::top_cards(m, p, n.max(0) as usize);
            if cards.is_empty() {
                m.record(
                    "put",
                    format!("{}'s deck is empty: nothing is put", player_name(p)),
                    &[r::IMPOSSIBLE],
                );
            }
            for id in cards {
                to_zone(m, &id, to);
            }
        }
        return Ok(());
    }
    if SQUARES.contains(&to) {
        for id in ids {
            if super::ctype(&m.game, &id) == super::types::BASE {
                onto_base_square(m, cx, &id, to);
                continue;
            }
            let state = super::text(&m.game, cx.source, "put_state").map(str::to_string);
            onto_square(m, cx, &id, to, state.as_deref())?;
        }
        return Ok(());
    }
    for id in ids {
        to_zone(m, &id, to);
    }
    Ok(())
}

/// 闘気 cards under each of `hosts`: the top `top` cards of the host's
/// owner's deck, or the effect's own card (6.1.1); never under a bonded
/// strategy (6.1.11), which the trace says for the bonded strategies of
/// the hosts.
fn toki(m: &mut M, cx: &Ctx<'_>, hosts: Vec<CardId>, top: Option<i64>) -> Result<(), EngineError> {
    for host in hosts {
        // 「下に闘気カードのない…カードの下に」: a host that has one is not
        // one the text names.
        if super::attach::only_without_toki(m, cx.source) && super::attach::has_toki(m, &host) {
            m.record(
                "toki",
                format!("{host} already has a 闘気 card under it: {}'s text puts one only under a card with none", cx.source),
                &[r::TOKI_UNDER, r::IMPOSSIBLE],
            );
            continue;
        }
        let owner = m.game.card(&host).map_or(cx.controller, |c| c.owner);
        let cards = match top {
            Some(n) => moves::top_cards(m, owner, n.max(0) as usize),
            None => vec![CardId::from(cx.source)],
        };
        for c in cards {
            super::attach::put_toki(m, &c, &host);
        }
        for b in super::attach::attached(m, &host) {
            if super::ctype(&m.game, &b) == super::types::STRATEGY {
                m.record(
                    "toki",
                    format!("{b}, bonded to {host}, gets no 闘気 card: none goes under a bonded strategy"),
                    &[r::TOKI_NOT_BONDED],
                );
            }
        }
    }
    Ok(())
}

/// One card to its owner's zone `to`.
pub(super) fn to_zone(m: &mut M, id: &str, to: &str) {
    if to == "plan" {
        return super::plan::put_face_up(m, id);
    }
    let Some(kind) = ZONES.iter().copied().find(|z| *z == to) else {
        return;
    };
    let mut rules = vec![r::OWNERS_ZONE, r::NEW_OBJECT];
    rules.push(match kind {
        "energy" => r::ENERGY_ZONE,
        "smash" => r::SMASH_ZONE,
        "graveyard" => r::GRAVEYARD,
        "remove" => r::REMOVE_ZONE,
        "hand" => r::HAND,
        _ => r::DECK,
    });
    m.record(
        "put",
        format!(
            "{} is put into its owner's {kind} zone{} (a new object: its modifications and damage are gone)",
            label(&m.game, id),
            if kind == "energy" || kind == "smash" {
                ", released"
            } else {
                ""
            }
        ),
        &rules,
    );
    let owner = m.game.card(id).map(|c| c.owner);
    moves::to_owner_zone(m, id, kind, kind == "deck" || kind == "graveyard");
    if let (Some(p), "deck") = (owner, kind) {
        // On top: a known place of the deck (6.2.2 A).
        super::deck_order::decided(m, p);
    }
}

/// A unit onto a battle square of region `to` chosen by the effect's
/// controller. From another zone it is a new object under their control
/// (2.20.1-4), on a square holding none of their units, frozen unless the
/// text says released; from a square it is relocated, the same object
/// with its controller, damage and modifications (2.23.8-4), its state
/// changed only when the text says.
fn onto_square(
    m: &mut M,
    cx: &Ctx<'_>,
    id: &str,
    to: &str,
    state: Option<&str>,
) -> Result<(), EngineError> {
    let p: PlayerId = cx.controller;
    let here = board::square(m.game.card(id).map_or("", |c| c.zone.kind));
    let event = super::dz_ref(&m.game).event_square;
    let place = super::target_place::current(&m.game);
    let legal: Vec<&'static str> = board::SQUARES
        .iter()
        .copied()
        .filter(|sq| Some(*sq) != here)
        .filter(|sq| here.is_some() || m.game.zone_of(p, sq).is_empty())
        .filter(|sq| {
            if to == EVENT_SQUARE {
                return event == Some(*sq);
            }
            if to == super::target_place::TARGET_PLACE {
                return place.is_some_and(|p| super::target_place::holds(p, sq));
            }
            if to == THIS_SQUARE {
                return board::square(board::square_of(&m.game, cx.source).unwrap_or(""))
                    == Some(*sq);
            }
            board::square_in_region(
                here.or(board::reference_square(&m.game, cx.source)),
                sq,
                p,
                to,
            )
        })
        .collect();
    let key = format!("{}.square", cx.source);
    if to == super::target_place::TARGET_PLACE && place.is_none() {
        m.record(
            "put",
            format!(
                "the target square is illegal: {} is not put onto it",
                label(&m.game, id)
            ),
            &[r::TARGETS_CHECKED, r::IMPOSSIBLE],
        );
        return Ok(());
    }
    if legal.is_empty() {
        m.record(
            "put",
            format!(
                "no square of {to} can take {}: it is not put",
                label(&m.game, id)
            ),
            &[r::IMPOSSIBLE],
        );
        return Ok(());
    }
    let sq = choose_square(m, &key, &legal)?;
    if here.is_some() {
        return relocate(m, id, sq, state);
    }
    let frozen = state != Some("released");
    let mut rules = vec![r::UNIT_PUT_CONTROL, r::NEW_OBJECT];
    if frozen && has_kw(&m.game, id, "haste") {
        // 速攻 releases a unit only when it is played (5.1.2-1).
        rules.push(r::HASTE_ONLY_PLAYED);
    }
    let state = if frozen { "frozen" } else { "released" };
    let text = format!(
        "{} is put onto {sq} ({}) under {}'s control, the controller of {}'s effect, {state}",
        label(&m.game, id),
        board::area_name(sq, p),
        player_name(p),
        cx.source,
    );
    m.record("put", text, &rules);
    moves::place(m, id, p, sq, frozen);
    Ok(())
}

/// A base put by an effect onto a base square (2.20.2-4): the base square
/// of the effect's controller in the target line, under their control,
/// released as a base played is (2.20.2-3). A base already there is
/// handled by the rule effect (4.16.4-7). Only the target line names a
/// base square (`to` refuses the rest at load, flow/target_place.rs).
fn onto_base_square(m: &mut M, cx: &Ctx<'_>, id: &str, to: &str) {
    let p = cx.controller;
    let line = super::target_place::current(&m.game)
        .filter(|_| to == super::target_place::TARGET_PLACE)
        .and_then(|l| {
            board::BASES
                .iter()
                .copied()
                .find(|b| super::target_place::holds(l, b))
        });
    let Some(sq) = line else {
        m.record(
            "put",
            format!(
                "{} is a base: it goes only onto a base square of the target line, and there is none",
                label(&m.game, id)
            ),
            &[r::IMPOSSIBLE, r::BASE_SPACE],
        );
        return;
    };
    m.record(
        "put",
        format!(
            "{} is put onto {}'s {sq} under {}'s control, the controller of {}'s effect, released",
            label(&m.game, id),
            player_name(p),
            player_name(p),
            cx.source
        ),
        &[r::BASE_PUT_CONTROL, r::NEW_OBJECT, r::BASE_SPACE],
    );
    moves::place(m, id, p, sq, false);
}

/// The square (or place) named by the choice `key` among `legal` (the only
/// one when there is one).
pub(super) fn choose_square(
    m: &mut M,
    key: &str,
    legal: &[&'static str],
) -> Result<&'static str, EngineError> {
    let options = || legal.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let chosen = match m.choices.take(key) {
        Some(serde_json::Value::String(s)) => s,
        Some(other) => other.to_string(),
        None if legal.len() == 1 => legal[0].to_string(),
        None => {
            return Err(EngineError::MissingChoice {
                choice: key.to_string(),
                options: options(),
            });
        }
    };
    legal
        .iter()
        .copied()
        .find(|s| *s == chosen)
        .ok_or_else(|| EngineError::BadChoice {
            choice: key.to_string(),
            value: chosen,
            options: options(),
        })
}

/// A unit moved by an effect from its square to another: the same object
/// (2.23.8-4), placed there later than the units already there (3.11.5).
pub(super) fn relocate(
    m: &mut M,
    id: &str,
    sq: &'static str,
    state: Option<&str>,
) -> Result<(), EngineError> {
    m.record(
        "put",
        format!(
            "{} is moved by an effect to {sq}: square to square, the same object (its damage and modifications stay); not a move, so nothing that a move triggers triggers",
            label(&m.game, id)
        ),
        // Put square to square by an effect, the unit is not moved: the
        // move is the rule's activated ability (3.8.2-6 ¶3).
        &[r::SQUARE_TO_SQUARE, r::SQUARE_IS_ZONE, r::RELOCATION_NOT_MOVE],
    );
    // The put entry: the reading's note and the state change go on it, not
    // on the entries its arrival records.
    let at = m.trace.len().saturating_sub(1);
    let state = state.or_else(|| relocated_state(m, id));
    moves::relocate(m, id, sq);
    if let Some(p) = m.game.card(id).map(|c| c.controller) {
        super::resonance::not_by_a_move(m, p, "a unit was moved by an effect, not by its move");
    }
    let was = if m.game.card(id).is_some_and(|c| c.has(FROZEN)) {
        "frozen"
    } else {
        "released"
    };
    match state {
        Some("released") => {
            if let Some(c) = m.game.cards.get_mut(id) {
                c.states.remove(FROZEN);
            }
        }
        Some("frozen") => {
            if let Some(c) = m.game.cards.get_mut(id) {
                c.states.insert(FROZEN.into());
            }
        }
        _ => {}
    }
    if let Some(now) = state
        && now != was
        && now != UNCHANGED
        && let Some(e) = m.trace.get_mut(at)
    {
        e.change(format!("{id}.state"), was, now);
    }
    Ok(())
}

/// The state of a unit an effect moves from square to square when the
/// text names none. No clause says: the judges' reading is that it keeps
/// its state, being the same object (2.23.8-4); the option
/// `reading_relocated_unit_arrives_frozen` puts it frozen, as a unit put
/// onto a square from another zone arrives. Either way a judge's note says
/// so.
fn relocated_state(m: &mut M, id: &str) -> Option<&'static str> {
    let other = super::reading(&m.game, RELOCATED_FROZEN);
    let frozen = m.game.card(id).is_some_and(|c| c.has(FROZEN));
    let note = if other {
        format!(
            "no clause states the state of a unit moved from square to square; reading `{RELOCATED_FROZEN}` chosen: it arrives frozen, as a unit put onto a square from another zone does"
        )
    } else {
        format!(
            "no clause states the state of a unit moved from square to square; judges read that it keeps it (the same object, 2.23.8-4): it stays {} (option `{RELOCATED_FROZEN}`: it arrives frozen)",
            if frozen { "frozen" } else { "released" }
        )
    };
    if let Some(e) = m.trace.last_mut() {
        e.note = Some(note);
        if !e.rules.contains(&r::SQUARE_TO_SQUARE) {
            e.rules.push(r::SQUARE_TO_SQUARE);
        }
    }
    other.then_some("frozen")
}

/// The reading that a unit moved from square to square by an effect
/// arrives frozen (default: it keeps its state).
pub const RELOCATED_FROZEN: &str = "reading_relocated_unit_arrives_frozen";

/// Whether `t` names the effect's own card (`this`), which a `put` may
/// move from any zone (a strategy putting itself into the energy zone as
/// it resolves, 4.9.2-8).
pub fn is_this(t: &Option<Target>) -> bool {
    matches!(t, Some(Target::This))
}

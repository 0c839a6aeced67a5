//! 「置く」 by an effect (Effect `put`): cards go to their owner's zone of
//! a kind (2.23.1-1) as new objects (2.23.1-3), or units onto a battle
//! square under the control of the effect's controller (2.20.1-4).
//!
//! `to` words: `hand`, `graveyard`, `energy` (released), `smash` (face
//! down, released), `remove`, `deck` (on top); with `top: N` the top N
//! cards of the deck of each player `who` (the plan card first, 2.23.3-2)
//! go there instead of `target`. `own_area`: the target unit is put onto
//! the battle square the effect's controller chooses with the choice
//! `<card>.square` (the card whose effect it is), which must be a square
//! of their own area holding no unit of theirs (「自分のユニットのない自軍
//! エリアのスクエア」, the form card text uses); frozen, or released when
//! the card's text `put_state` is `released` (the text says which); 速攻
//! does not release a unit put frozen (5.1.2-1).

use crate::engine::{Effect, EngineError, PlayerId, Target, Who, player_name};

use super::effects::Ctx;
use super::{M, board, has_kw, label, moves, ni, r};

/// The zones a card may be put into.
pub const ZONES: &[&str] = &["hand", "graveyard", "energy", "smash", "remove", "deck"];

/// The regions a unit may be put onto.
pub const SQUARES: &[&str] = &["own_area"];

/// Refuses a `put` the module does not implement.
pub fn refuse(key: &str, e: &Effect) -> Result<(), EngineError> {
    let Effect::Put {
        to, target, top, ..
    } = e
    else {
        return Ok(());
    };
    let ok = if SQUARES.contains(&to.as_str()) {
        top.is_none() && target.is_some()
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
    ids: Vec<String>,
    top: Option<i64>,
    who: Who,
) -> Result<(), EngineError> {
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
            let released = super::text(&m.game, cx.source, "put_state") == Some("released");
            onto_square(m, cx, &id, !released)?;
        }
        return Ok(());
    }
    for id in ids {
        to_zone(m, &id, to);
    }
    Ok(())
}

/// One card to its owner's zone `to`.
fn to_zone(m: &mut M, id: &str, to: &str) {
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
    moves::to_owner_zone(m, id, kind, kind == "deck" || kind == "graveyard");
}

/// A unit from another zone onto a battle square chosen by the effect's
/// controller, under their control (2.20.1-4).
fn onto_square(m: &mut M, cx: &Ctx<'_>, id: &str, frozen: bool) -> Result<(), EngineError> {
    let p: PlayerId = cx.controller;
    let legal: Vec<&'static str> = board::SQUARES
        .iter()
        .copied()
        .filter(|sq| board::area_for(sq, p) == 0 && m.game.zone_of(p, sq).is_empty())
        .collect();
    let key = format!("{}.square", cx.source);
    if legal.is_empty() {
        m.record(
            "put",
            format!(
                "no square of {}'s own area is free of their units: {} is not put",
                player_name(p),
                label(&m.game, id)
            ),
            &[r::IMPOSSIBLE],
        );
        return Ok(());
    }
    let chosen = match m.choices.take(&key) {
        Some(serde_json::Value::String(s)) => s,
        Some(other) => {
            return Err(EngineError::BadChoice {
                choice: key,
                value: other.to_string(),
                options: legal.iter().map(|s| s.to_string()).collect(),
            });
        }
        None if legal.len() == 1 => legal[0].to_string(),
        None => {
            return Err(EngineError::MissingChoice {
                choice: key,
                options: legal.iter().map(|s| s.to_string()).collect(),
            });
        }
    };
    let Some(sq) = legal.iter().copied().find(|s| *s == chosen) else {
        return Err(EngineError::BadChoice {
            choice: key,
            value: chosen,
            options: legal.iter().map(|s| s.to_string()).collect(),
        });
    };
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

/// Whether `t` names the effect's own card (`this`), which a `put` may
/// move from any zone (a strategy putting itself into the energy zone as
/// it resolves, 4.9.2-8).
pub fn is_this(t: &Option<Target>) -> bool {
    matches!(t, Some(Target::This))
}

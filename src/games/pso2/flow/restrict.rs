//! "Can't" effects 《できない》 (effect `restrict`) and the order of
//! conflicting instructions (103.1.2): 《できない》, then
//! 《しなければならない》, 《する》, 《してもよい》, the rules last. A
//! restriction therefore wins over
//! the rules' permission to declare an attack or play a card (a "may"),
//! and over an effect's or the rules' "draw" (a "do" / a rule): the
//! forbidden action does not happen and the trace cites 103.1.2.
//!
//! What PSO2 text restricts: a card's attacks (「このキャラは攻撃できない」,
//! with `target`), a chara's moves between the rows (「移動できない」,
//! `move` with `target`: the rules' move to the back row after damage,
//! 213.3.1, and an effect's move, 回復X's to the front row included, do not
//! happen), a player's attacks, plays of cards of `types`, and draws
//! (with `who`). PSO2 has no blocking and no play area: a `block` or
//! `move_to_play_area` restriction is refused as the scenario loads
//! (checks.rs). `until`: `end_of_turn` / `this_turn` end at the refresh
//! step with the other "this turn" effects (505.1.3); `permanent` lasts
//! while the source card stays the object it was in its zone. A card's
//! restriction, of any duration, ends too when the card stops being the
//! object it was given to (400.6).

use super::{M, r};
use crate::engine::{CardId, EngineError, PlayerId, Restricted, Until, player_name};

/// One restriction in force.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Restriction {
    pub(super) action: Restricted,
    /// The restricted card (object: id and generation), or
    pub(super) who: Option<(CardId, u32)>,
    /// the restricted player.
    pub(super) player: Option<PlayerId>,
    /// For `play`: the card types (empty = any).
    pub(super) types: Vec<String>,
    /// The card whose effect made it, the object it was and its zone.
    pub(super) source: (CardId, u32, String),
    pub(super) until: Until,
}

fn word(a: Restricted) -> &'static str {
    match a {
        Restricted::Attack => "attack",
        Restricted::Play => "play",
        Restricted::Draw => "draw",
        Restricted::Block => "block",
        Restricted::MoveToPlayArea => "move_to_play_area",
        Restricted::Move => "move",
    }
}

/// Applies a resolving `restrict` of `source` (master `master`) to the
/// `cards` or, with none given, to the `players`.
pub fn add(
    m: &mut M,
    source: &str,
    action: Restricted,
    cards: Option<Vec<CardId>>,
    players: Vec<PlayerId>,
    types: &[String],
    until: Until,
) -> Result<(), EngineError> {
    let supported = matches!(
        (&cards, action),
        (Some(_), Restricted::Attack | Restricted::Move)
            | (
                None,
                Restricted::Attack | Restricted::Play | Restricted::Draw
            )
    );
    if !supported {
        return Err(super::ni(
            r::CONFLICT_ORDER,
            format!(
                "a restriction `{}`{}: PSO2 restricts a card's attacks and row moves, or a player's attacks, plays and draws",
                word(action),
                if cards.is_some() {
                    " on cards"
                } else {
                    " on players"
                }
            ),
        ));
    }
    let src = m
        .game
        .card(source)
        .map_or((source.into(), 0, String::new()), |c| {
            (c.id.clone(), c.incarnation, c.zone.kind.to_string())
        });
    let mut made = Vec::new();
    match cards {
        Some(ids) => {
            for id in ids {
                let Some(c) = m.game.card(&id) else { continue };
                made.push(Restriction {
                    action,
                    who: Some((id.clone(), c.incarnation)),
                    player: None,
                    types: Vec::new(),
                    source: src.clone(),
                    until,
                });
                m.record(
                    "effect",
                    format!("{id} can't {} ({})", word(action), until.word()),
                    &[r::CONFLICT_ORDER],
                )
                .obj(id.clone());
            }
        }
        None => {
            for p in players {
                made.push(Restriction {
                    action,
                    who: None,
                    player: Some(p),
                    types: types.to_vec(),
                    source: src.clone(),
                    until,
                });
                let what = if types.is_empty() {
                    String::new()
                } else {
                    format!(" ({})", types.join(", "))
                };
                m.record(
                    "effect",
                    format!(
                        "{} can't {}{what} ({})",
                        player_name(p),
                        word(action),
                        until.word()
                    ),
                    &[r::CONFLICT_ORDER],
                );
            }
        }
    }
    super::state::of(&mut m.game).restrictions.extend(made);
    Ok(())
}

/// Whether restriction `x` is still in force.
pub(super) fn in_force(g: &crate::engine::Game, x: &Restriction) -> bool {
    match &x.who {
        // A card's restriction is on the object it was given to, whatever
        // its duration: once the card changes zones it is a new object
        // (400.6), which the restriction does not reach.
        Some((id, gen_)) => g.card(id).is_some_and(|c| c.incarnation == *gen_),
        None if x.until != Until::Permanent => true,
        None => {
            let (id, gen_, zone) = &x.source;
            g.card(id)
                .is_some_and(|c| c.incarnation == *gen_ && c.zone.kind == zone)
        }
    }
}

/// The source of a restriction forbidding `action` to card `card` (its
/// own) or to player `p` (for `play`, of a card of type `card_type`).
pub fn forbidding(
    g: &crate::engine::Game,
    p: PlayerId,
    card: Option<&str>,
    action: Restricted,
    card_type: Option<&str>,
) -> Option<CardId> {
    let s = super::state::read(g)?;
    s.restrictions
        .iter()
        .filter(|x| x.action == action && in_force(g, x))
        .find(|x| match (&x.who, x.player) {
            (Some((id, _)), _) => card == Some(id.as_str()),
            (None, Some(q)) => {
                q == p
                    && (x.types.is_empty()
                        || card_type.is_some_and(|t| x.types.iter().any(|y| y == t)))
            }
            _ => false,
        })
        .map(|x| x.source.0.clone())
}

/// The illegal-action error of an attack or play a restriction forbids.
pub fn refuse(what: String, source: &str) -> EngineError {
    super::illegal(
        r::CONFLICT_ORDER,
        format!("{what}: {source}'s 《できない》 effect wins over the rules' permission (103.1.2)"),
        vec![],
    )
}

/// Whether player `p` can't draw now; the trace says why (103.1.2: a
/// 《できない》 beats an effect's 《する》 and the rules' draw).
pub fn cant_draw(m: &mut M, p: PlayerId) -> bool {
    let Some(src) = forbidding(&m.game, p, None, Restricted::Draw, None) else {
        return false;
    };
    m.record(
        "draw",
        format!(
            "{} can't draw ({src}'s 《できない》 effect): it wins over the instruction to draw, so nothing is drawn",
            player_name(p)
        ),
        &[r::CONFLICT_ORDER],
    );
    true
}

/// Ends the "this turn" restrictions (505.1.3) and forgets those no longer
/// in force.
pub fn expire(m: &mut M) {
    let g = &m.game;
    let keep: Vec<Restriction> = super::state::read(g)
        .map(|s| {
            s.restrictions
                .iter()
                .filter(|x| x.until == Until::Permanent && in_force(g, x))
                .cloned()
                .collect()
        })
        .unwrap_or_default();
    if super::state::read(g).is_some_and(|s| s.restrictions.len() != keep.len()) {
        super::state::of(&mut m.game).restrictions = keep;
    }
}

/// Whether chara `id` can't change rows now: a 《できない》 beats the
/// rules' move after damage (213.3.1, `because` citing it) and an
/// effect's (103.1.2); the trace says it stays in `from`.
pub fn cant_move(m: &mut M, id: &str, from: &str, because: &'static str) -> bool {
    let Some(p) = m.game.card(id).map(|c| c.controller) else {
        return false;
    };
    let Some(src) = forbidding(&m.game, p, Some(id), Restricted::Move, None) else {
        return false;
    };
    m.record(
        "row",
        format!(
            "{id} would move out of the {from} row but can't ({src}'s 《できない》 effect wins, 103.1.2): it stays in the {from} row"
        ),
        &[r::CONFLICT_ORDER, because],
    )
    .obj(id.to_string());
    true
}

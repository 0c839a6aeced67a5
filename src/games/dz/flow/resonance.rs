//! 共鳴 (5.13): 「共鳴 [テキスト]」 = "this turn, if any unit of yours was
//! put onto a square by resolving its move, [text] works" (5.13.2). A card
//! with keyword `resonance` writes that text as its `static` abilities.
//! A move that did not resolve, or a unit put from square to square by
//! another way, does not turn it on (5.13.2-1); a unit that moved and then
//! left the squares keeps it on for the turn (5.13.3).

use crate::engine::{Effect, EngineError, Game, PlayerId, player_name};

use super::{M, board, dz, has_printed_kw, ni, r};

/// Whether `p`'s 共鳴 text works now.
pub fn on(g: &Game, p: PlayerId) -> bool {
    g.own_ref::<super::Dz>()
        .is_some_and(|d| d.moved_this_turn.contains(&p))
}

/// Whether `p` controls a card with 共鳴 on a square.
fn has_any(g: &Game, p: PlayerId) -> bool {
    board::on_squares(g).iter().any(|id| {
        has_printed_kw(g, id, "resonance") && g.card(id).is_some_and(|c| c.controller == p)
    })
}

/// A move of `p`'s unit resolved: 共鳴 works for the rest of the turn.
pub fn moved(m: &mut M, p: PlayerId) {
    let was = on(&m.game, p);
    dz(&mut m.game).moved_this_turn.insert(p);
    if !was && has_any(&m.game, p) {
        m.record(
            "resonance",
            format!(
                "a unit of {} was put onto a square by resolving its move: its 共鳴 texts work for the rest of the turn",
                player_name(p)
            ),
            &[r::RESONANCE, r::RESONANCE_ON, r::RESONANCE_KEPT],
        );
    }
}

/// A unit of `p` changed squares without its move resolving (`why`): 共鳴
/// is not turned on.
pub fn not_by_a_move(m: &mut M, p: PlayerId, why: &str) {
    if !on(&m.game, p) && has_any(&m.game, p) {
        m.record(
            "resonance",
            format!("{why}: {}'s 共鳴 texts stay off", player_name(p)),
            &[r::RESONANCE_ON, r::RESONANCE_NOT_MOVED],
        );
    }
}

/// The 共鳴 text of a card is its static abilities; any other ability on
/// such a card is not implemented.
pub fn refuse(
    key: &str,
    keywords: &[String],
    trigger: &str,
    _e: &[Effect],
) -> Result<(), EngineError> {
    if keywords.iter().any(|k| k == "resonance") && trigger != super::statics::STATIC {
        return Err(ni(
            r::RESONANCE,
            format!("card `{key}`: a 共鳴 text other than static abilities"),
        ));
    }
    Ok(())
}

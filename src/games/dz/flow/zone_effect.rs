//! ゾーン効果 zone effects (5.7.1): 「[ゾーン]効果[テキスト]」 is 「このカードが
//! [ゾーン]にある場合、[テキスト]が有効になる」. A card with the keyword
//! `zone_effect` and the text `effect_zone` (`plan`, `energy`, `graveyard`,
//! `hand`) has its abilities work only while it is in that zone: they are
//! not lost elsewhere, but do not function (5.7.1-2), so on a square such a
//! unit's text means nothing (2.10.3, EX 2.10.3#ex1). Its `static`
//! abilities apply from that zone, its `activated` ones are activated from
//! it, and its triggered abilities do not trigger elsewhere (the trace
//! says so).

use crate::engine::{Card, CardId, Game};

use super::{M, board, has_printed_kw, label, r, text};

/// The zones a zone effect may name.
pub const ZONES: &[&str] = &["plan", "energy", "graveyard", "hand"];

/// The zone card `id`'s text works in when it is a zone effect.
pub fn zone(g: &Game, id: &str) -> Option<&'static str> {
    if !has_printed_kw(g, id, "zone_effect") {
        return None;
    }
    let z = text(g, id, "effect_zone")?;
    ZONES.iter().copied().find(|x| *x == z)
}

/// Whether card `c`'s text works where it is now: a zone effect in its
/// zone (5.7.1), any other unit or base text on a square (2.10.3).
pub fn text_works(g: &Game, c: &Card) -> bool {
    match zone(g, &c.id) {
        Some(z) => c.zone.kind == z,
        None => board::is_square(c.zone.kind) || board::is_base(c.zone.kind),
    }
}

/// The cards whose zone effects work now, outside the squares.
pub fn working_off_squares(g: &Game) -> Vec<CardId> {
    let mut out = Vec::new();
    for p in g.player_ids() {
        for z in ZONES {
            for id in g.zone_of(p, z) {
                if zone(g, id) == Some(*z) {
                    out.push(id.clone());
                }
            }
        }
    }
    out
}

/// Says in the trace whether the zone effects of `card`, which has just
/// arrived where it is, work there (5.7.1) or not (5.7.1-2, 2.10.3).
pub fn arrived(m: &mut M, card: &str) {
    let Some(z) = zone(&m.game, card) else {
        return;
    };
    let here = m.game.card(card).map_or("", |c| c.zone.kind);
    let (text, rules): (String, &[&'static str]) = if here == z {
        (
            format!(
                "{}'s {z}-zone effect works now that it is in the {z} zone",
                label(&m.game, card)
            ),
            &[r::ZONE_EFFECT],
        )
    } else {
        (
            format!(
                "{}'s text is a {z}-zone effect: in the {here} zone it is kept but does not work",
                label(&m.game, card)
            ),
            &[r::ZONE_EFFECT, r::ZONE_EFFECT_ELSEWHERE, r::TEXT_ON_SQUARE],
        )
    };
    m.record("zone_effect", text, rules).obj(card.to_string());
}

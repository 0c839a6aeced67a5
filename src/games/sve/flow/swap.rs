//! Swapping 入れ替える (5.12): two cards each go to the zone the other is
//! in, at the same time (5.12.1); if either cannot go there, neither moves
//! (5.12.2).

use super::*;

/// Why `id` cannot go from where it is to zone `to` (5.12.2), if it cannot.
fn cannot_go(g: &Game, id: &str, to: &ZoneId) -> Option<String> {
    let c = g.card(id)?;
    if c.zone.kind == zn::LEADER || to.kind == zn::LEADER {
        return Some(format!("{id}: a leader does not change zones"));
    }
    // 4.4.1: the field holds followers and amulets.
    if to.kind == zn::FIELD && !(is_type(g, id, "follower") || is_type(g, id, "amulet")) {
        return Some(format!(
            "{id} is not a follower or amulet: it cannot go onto a field"
        ));
    }
    // 4.12: the evolution area holds evolve cards attached to a card; 4.13:
    // the race area holds carrots associated with one.
    if [zn::EVOLUTION, zn::RACE, zn::RESOLUTION].contains(&to.kind) {
        return Some(format!("{id} cannot be put into {to} by a swap"));
    }
    None
}

/// Carries out a swap of `a` (the target) and `b` (the `with` card).
pub(super) fn swap(m: &mut M, a: &[String], b: &[String]) -> R<()> {
    let (Some(a), Some(b)) = (a.first(), b.first()) else {
        m.record(
            "effect.swap",
            "one of the two cards to swap is missing: the swap is not made".to_string(),
            &[r::SWAP, r::SWAP_IMPOSSIBLE],
        );
        return Ok(());
    };
    if a.len() > 1 || b.len() > 1 || a == b {
        return Err(EngineError::NotImplemented {
            clause: r::SWAP,
            what: "a swap of more than one card on a side, or of a card with itself".into(),
        });
    }
    let (Some(za), Some(zb)) = (
        m.game.card(a).map(|c| c.zone.clone()),
        m.game.card(b).map(|c| c.zone.clone()),
    ) else {
        m.record(
            "effect.swap",
            format!("{a} or {b} no longer exists: the swap is not made"),
            &[r::SWAP, r::SWAP_IMPOSSIBLE],
        );
        return Ok(());
    };
    if za == zb {
        m.record(
            "effect.swap",
            format!("{a} and {b} are in the same zone {za}: swapping changes nothing"),
            &[r::SWAP, r::ALREADY_IN_STATE],
        );
        return Ok(());
    }
    let why = cannot_go(&m.game, a, &zb).or_else(|| cannot_go(&m.game, b, &za));
    if let Some(why) = why {
        m.record(
            "effect.swap",
            format!("{why}: neither card moves, the swap is not made"),
            &[r::SWAP, r::SWAP_IMPOSSIBLE],
        )
        .obj(a.clone())
        .obj(b.clone());
        return Ok(());
    }
    m.record(
        "effect.swap",
        format!("{a} ({za}) and {b} ({zb}) are swapped at the same time"),
        &[r::SWAP],
    )
    .obj(a.clone())
    .obj(b.clone());
    // The two moves are one event: both leave first, then both arrive, so
    // neither sees the other's move (the field's count does not change).
    for (id, from, to) in [(a, &za, &zb), (b, &zb, &za)] {
        if to.kind == zn::FIELD
            && let Some(p) = to.player
        {
            enter_field(m, "effect.swap", id, p, &from.to_string(), &[r::SWAP]);
        } else {
            m.record(
                "effect.swap",
                format!("{id} goes from {from} to {to} as a new object"),
                &[r::SWAP, r::NEW_OBJECT],
            )
            .obj(id.clone())
            .change(format!("{id}.zone"), from.to_string(), to.to_string());
            mv(m, id, to.clone(), false);
        }
    }
    Ok(())
}

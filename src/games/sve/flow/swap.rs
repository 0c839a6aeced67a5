//! Swapping 入れ替える (5.12): the cards of each side go to the zone the
//! other side is in, at the same time (5.12.1); if any card cannot go
//! there, none moves (5.12.2). A side may hold several cards, all in one
//! zone; a zone with a limit (the field, the EX area) that would end over
//! it cannot take the cards, so 5.12.2 applies.

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

/// The one zone every card of a side is in, or `None` when they are in
/// different zones (or one no longer exists).
fn side_zone(g: &Game, ids: &[String]) -> Option<ZoneId> {
    let zones: BTreeSet<ZoneId> = ids
        .iter()
        .map(|id| g.card(id).map(|c| c.zone.clone()))
        .collect::<Option<_>>()?;
    (zones.len() == 1)
        .then(|| zones.into_iter().next())
        .flatten()
}

/// Why zone `to`, losing `leaving` cards and gaining `arriving`, would hold
/// more than its limit (the field's 5, 4.4.4.1; the EX area's 5, 4.8.3.1):
/// then a card cannot go there and 5.12.2 applies.
fn over_limit(
    g: &Game,
    to: &ZoneId,
    leaving: usize,
    arriving: usize,
) -> Option<(String, &'static str)> {
    let rule = match to.kind {
        zn::FIELD => r::FIELD_LIMIT,
        zn::EX => r::EX_LIMIT,
        _ => return None,
    };
    let after = g.zone(to).len() - leaving + arriving;
    let max = limit(g, to.kind);
    (after > max).then(|| {
        (
            format!("{to} would hold {after} cards, more than its {max}"),
            rule,
        )
    })
}

/// Carries out a swap of the `a` cards (the target) and the `b` cards (the
/// `with` cards): each side goes to the zone the other side is in (5.12.1).
pub(super) fn swap(m: &mut M, a: &[String], b: &[String]) -> R<()> {
    if a.is_empty() || b.is_empty() {
        m.record(
            "effect.swap",
            "one of the two sides to swap has no card: the swap is not made".to_string(),
            &[r::SWAP, r::SWAP_IMPOSSIBLE],
        );
        return Ok(());
    }
    if a.iter().any(|x| b.contains(x)) {
        return Err(EngineError::NotImplemented {
            clause: r::SWAP,
            what: "a swap of a card with itself".into(),
        });
    }
    let (Some(za), Some(zb)) = (side_zone(&m.game, a), side_zone(&m.game, b)) else {
        return Err(EngineError::NotImplemented {
            clause: r::SWAP,
            what: format!(
                "a swap whose cards on one side are in different zones, or no longer exist ({} with {}): 5.12.1 names one zone a side",
                a.join(", "),
                b.join(", ")
            ),
        });
    };
    let (sa, sb) = (a.join(", "), b.join(", "));
    if za == zb {
        m.record(
            "effect.swap",
            format!("{sa} and {sb} are in the same zone {za}: swapping changes nothing"),
            &[r::SWAP, r::ALREADY_IN_STATE],
        );
        return Ok(());
    }
    let why = a
        .iter()
        .find_map(|id| cannot_go(&m.game, id, &zb))
        .or_else(|| b.iter().find_map(|id| cannot_go(&m.game, id, &za)))
        .map(|w| (w, r::SWAP_IMPOSSIBLE))
        .or_else(|| over_limit(&m.game, &zb, b.len(), a.len()))
        .or_else(|| over_limit(&m.game, &za, a.len(), b.len()));
    if let Some((why, rule)) = why {
        let mut rules = vec![r::SWAP, r::SWAP_IMPOSSIBLE];
        if rule != r::SWAP_IMPOSSIBLE {
            rules.push(rule);
        }
        let e = m.record(
            "effect.swap",
            format!("{why}: no card moves, the swap is not made"),
            &rules,
        );
        for id in a.iter().chain(b) {
            e.obj(id.clone());
        }
        return Ok(());
    }
    let e = m.record(
        "effect.swap",
        format!("{sa} ({za}) and {sb} ({zb}) are swapped at the same time"),
        &[r::SWAP],
    );
    for id in a.iter().chain(b) {
        e.obj(id.clone());
    }
    // The moves are one event: every card leaves first, then all arrive, so
    // none sees another's move.
    let moves = a
        .iter()
        .map(|id| (id, &za, &zb))
        .chain(b.iter().map(|id| (id, &zb, &za)));
    for (id, from, to) in moves {
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

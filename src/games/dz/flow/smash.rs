//! Smashing (3.9.1): in the smash phase, AP with priority and an empty
//! stack freezes a released unit of its own in the central area (its
//! smash) or the enemy area (smash + 1); the opponent puts that many
//! cards from the top of its deck (the plan card first, EX 2.23.3-2#ex2)
//! into its smash zone, face down and released. A special action: no
//! stack.

use crate::engine::{EngineError, PlayerId, ZoneId, player_name};

use super::{FROZEN, M, board, dz_ref, illegal, label, moves, r, smash_value};

/// The units `p` could smash with now.
fn smashers(m: &M, p: PlayerId) -> Vec<String> {
    board::SQUARES
        .iter()
        .filter(|s| board::area_for(s, p) > 0)
        .flat_map(|s| m.game.zone_of(p, s).to_vec())
        .filter(|u| m.game.card(u).is_some_and(|c| !c.has(FROZEN)))
        .map(|u| format!("smash {u}"))
        .collect()
}

/// Smashes with `unit`.
pub fn smash(m: &mut M, p: PlayerId, unit: &str) -> Result<(), EngineError> {
    let alts = smashers(m, p);
    if m.game.turn.phase != "smash" || p != m.game.turn.active || !dz_ref(&m.game).stack.is_empty()
    {
        return Err(illegal(
            r::SMASH,
            "smashing is a special action of the active player in its smash phase, with an empty stack",
            vec!["pass".into()],
        ));
    }
    let Some(c) = m.game.card(unit).cloned() else {
        return Err(super::bad(format!("no card `{unit}`")));
    };
    let Some(sq) = board::square(c.zone.kind).filter(|_| c.zone.player == Some(p)) else {
        return Err(illegal(
            r::SMASH,
            format!(
                "{unit} is not a unit {} controls on a battle square",
                player_name(p)
            ),
            alts,
        ));
    };
    let area = board::area_for(sq, p);
    if area == 0 {
        return Err(illegal(
            r::SMASH,
            format!(
                "{unit} is in {}'s own area: only units in the central or enemy area smash",
                player_name(p)
            ),
            alts,
        ));
    }
    if c.has(FROZEN) {
        return Err(illegal(
            r::NO_DOUBLE_FREEZE,
            format!(
                "{unit} is frozen: a unit smashes by being frozen, and a frozen card can't be frozen"
            ),
            alts,
        ));
    }
    let value = smash_value(&m.game, &c) + if area == 2 { 1 } else { 0 };
    let opp = m.game.opponent(p);
    if let Some(x) = m.game.cards.get_mut(unit) {
        x.states.insert(FROZEN.into());
    }
    let n = value.max(0) as usize;
    let top = moves::top_cards(m, opp, n);
    let mut rules = vec![r::SMASH, r::SMASH_FACE_DOWN];
    if value <= 0 {
        rules.push(r::NEGATIVE);
    }
    if top
        .first()
        .is_some_and(|c| m.game.zone_of(opp, "plan").contains(c))
    {
        // The plan card is the deck's top card (2.23.3-2).
        rules.push(r::PLAN_MOVES);
    }
    if top.len() < n {
        rules.push(r::IMPOSSIBLE);
        rules.push(r::PARTLY_IMPOSSIBLE);
    }
    let froms: Vec<String> = top
        .iter()
        .map(|id| {
            m.game
                .card(id)
                .map(|c| c.zone.to_string())
                .unwrap_or_default()
        })
        .collect();
    let e = m.record(
        "smash",
        format!(
            "{} freezes {} in the {} ({}): {} puts {} card(s) from the top of the deck into the smash zone{}",
            player_name(p),
            label(&m.game, unit),
            board::area_name(sq, p),
            if area == 2 { "smash + 1" } else { "smash" },
            player_name(opp),
            top.len(),
            if top.len() < n { format!(" (only {} left of {n})", top.len()) } else { String::new() }
        ),
        &rules,
    );
    e.change(format!("{unit}.state"), "released", "frozen");
    for (id, from) in top.iter().zip(froms) {
        e.change(
            format!("{id}.zone"),
            from,
            format!("{}.smash", player_name(opp)),
        );
    }
    for id in top {
        let before = m.game.card(&id).cloned();
        m.game.move_card(&id, ZoneId::of(opp, "smash"), false);
        if let Some(c) = before {
            super::triggers::into_smash(m, &c);
        }
    }
    Ok(())
}

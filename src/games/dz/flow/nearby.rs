//! Abilities that watch the opponent's units arriving near their card:
//! 「相手のユニットがこのカードと隣接するスクエアに置かれた時」 (trigger
//! `opponent_unit_placed`). A unit is "placed on a square" whenever it is
//! put onto one, from another zone or from another square (4.8.9): played,
//! moved, put or swapped by an effect (4.8.10-1). The watched squares are
//! the card's text `watch`, a region measured from the card's square
//! (`adjacent` by default, `same_line`, `same_area`). Every card on the
//! squares checks the event (4.8.10-1); units put onto squares at the
//! same time (a swap) are seen where they all are once the event is over.

use crate::engine::Card;

use super::{M, board, dz, r, triggers, types};

/// The trigger word.
pub const TRIGGER: &str = "opponent_unit_placed";

/// Unit `unit` was put onto a square: the watchers of its opponent
/// trigger, or, during a simultaneous event, once it is over ([`during`]).
pub fn placed(m: &mut M, unit: &str) {
    if let Some(batch) = dz(&mut m.game).placing.as_mut() {
        batch.push(unit.into());
        return;
    }
    fire(m, unit);
}

/// Runs `event`, units put onto squares during it seen by the watchers
/// only at its end, where they all are (a swap, 4.8.10-1).
pub fn during<T>(m: &mut M, event: impl FnOnce(&mut M) -> T) -> T {
    let outer = dz(&mut m.game).placing.replace(Vec::new());
    let out = event(m);
    let placed = std::mem::replace(&mut dz(&mut m.game).placing, outer).unwrap_or_default();
    for u in placed {
        self::placed(m, &u);
    }
    out
}

/// The opponent's cards on squares watching `unit`'s square trigger.
fn fire(m: &mut M, unit: &str) {
    let Some(u) = m.game.card(unit).cloned() else {
        return;
    };
    let Some(at) = board::square_of(&m.game, unit).filter(|s| board::is_square(s)) else {
        return;
    };
    if super::ctype(&m.game, unit) != types::UNIT {
        return;
    }
    for (w, from) in board::cards_on_squares(&m.game) {
        if w.controller == u.controller || !has(m, &w) {
            continue;
        }
        let region = super::text(&m.game, &w.id, "watch").unwrap_or("adjacent");
        if board::square_in_region(Some(from), at, w.controller, region) {
            triggers::fire_def_at(
                m,
                &w,
                TRIGGER,
                &[r::PLACED_TRIGGER, r::PLACED_FROM_ELSEWHERE],
                Some(at),
            );
        }
    }
}

/// Whether `c`'s definition has a watching ability.
fn has(m: &M, c: &Card) -> bool {
    m.game
        .def_of(&c.id)
        .is_some_and(|d| d.abilities.iter().any(|a| a.trigger == TRIGGER))
}

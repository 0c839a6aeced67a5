//! Abilities that watch your other units leaving the squares: the
//! triggered 「このカードと同じラインのスクエアにあるあなたのユニットが
//! （スクエアから）墓地に置かれた時」 (trigger `unit_to_graveyard`, 4.8.6,
//! 4.8.11) and the replacement 「…にあるあなたのユニットが墓地に置かれる
//! 時、かわりに…」 (trigger `instead_of_unit_graveyard`, 4.15.2). The
//! watched squares are the card's text `watch`, a region measured from the
//! card's square (`same_line` by default, `same_area`, `adjacent`); the
//! watched units are units of the card's controller. A unit leaving at the
//! same time as the watcher (one effect or one round of rule effects) is
//! still seen, with the watcher read as it last was (4.8.11).

use crate::engine::{Card, Effect, Game};

use super::{M, board, dz, r, targets, triggers, types};

/// The triggered form.
pub const TRIGGER: &str = "unit_to_graveyard";
/// The replacement form.
pub const REPLACEMENT: &str = "instead_of_unit_graveyard";

/// 「相手のベースがスクエアから墓地に置かれた時」: an ability of a card on a
/// square watching its controller's opponent's bases.
pub const OPPONENT_BASE: &str = "opponent_base_to_graveyard";

/// Base `b` has gone from its base square to the graveyard: the cards on
/// the squares of the other player watching for it trigger (4.8.11).
pub fn base_left(m: &mut M, b: &Card) {
    for (w, _) in board::cards_on_squares(&m.game) {
        if w.controller != b.controller && has(&m.game, &w, OPPONENT_BASE) {
            triggers::fire_def(m, &w, OPPONENT_BASE, &[r::LEAVING_TRIGGER]);
        }
    }
}

/// Starts a new simultaneous event (one effect, one round of rule
/// effects): cards that left the squares before it are no longer seen as
/// leaving with the next ones.
pub fn new_batch(g: &mut Game) {
    let d = dz(g);
    d.batch += 1;
    d.left_in_batch.clear();
}

/// Whether watcher `w`, on square `from`, watches unit `u` leaving square
/// `at`.
fn watches(g: &Game, w: &Card, from: &str, u: &Card, at: &str) -> bool {
    let region = super::text(g, &w.id, "watch").unwrap_or("same_line");
    w.controller == u.controller
        && super::ctype(g, &u.id) == types::UNIT
        && board::square_in_region(Some(from), at, w.controller, region)
}

/// Whether the definition of `c` has an ability of `trigger`.
fn has(g: &Game, c: &Card, trigger: &str) -> bool {
    g.def_of(&c.id)
        .is_some_and(|d| d.abilities.iter().any(|a| a.trigger == trigger))
}

/// The replacement that applies to unit `u` going from square `at` to the
/// graveyard: the watcher and its effects (read with `this` = the unit).
pub fn replacement(g: &Game, u: &Card, at: &str) -> Option<(Card, Vec<Effect>)> {
    for id in board::on_squares(g) {
        let Some(w) = g.card(&id) else { continue };
        let Some(from) = board::square_of(g, &id) else {
            continue;
        };
        if !has(g, w, REPLACEMENT) || !watches(g, w, from, u, at) {
            continue;
        }
        let effects = targets::effects_of(g, &w.def, REPLACEMENT);
        return Some((w.clone(), effects));
    }
    None
}

/// Unit `u` has gone from square `at` to the graveyard: the watchers on
/// the squares, and those that left in the same event (read as they last
/// were), trigger once each (4.8.6, 4.8.11).
pub fn left(m: &mut M, u: &Card, at: &'static str) {
    let mut seen = board::cards_on_squares(&m.game);
    seen.extend(dz(&mut m.game).left_in_batch.values().cloned());
    for (w, from) in seen {
        if has(&m.game, &w, TRIGGER) && watches(&m.game, &w, from, u, at) {
            let on_square = board::square_of(&m.game, &w.id).is_some();
            let mut why = vec![r::LEAVING_TRIGGER];
            if !on_square {
                why.push(r::LAST_KNOWN);
            }
            triggers::fire_def(m, &w, TRIGGER, &why);
        }
    }
    dz(&mut m.game)
        .left_in_batch
        .insert(u.id.clone(), (u.clone(), at));
}

//! 挟撃 (5.9): a triggered ability of a unit (5.9.2): when the unit is put
//! onto a square, if an opponent's unit is sandwiched (挟まれている)
//! between it and a unit of yours, it affects every unit sandwiched
//! between it and a unit of its controller (5.9.1), the two in a straight
//! line or on a diagonal (5.9.3).
//!
//! On the nine squares "between" is the one square in the middle of a
//! straight run of three: the 挟撃 unit at one end, your unit at the
//! other. A card with keyword `pincer` writes what it does to them as its
//! `on_placed` abilities, naming the units with region `pincered` (the
//! text says which side: 5.9.1's "all units sandwiched", the trigger's
//! condition an opponent's). The condition is a trigger condition
//! (「～時、～ならば」, 4.4.3): checked when the unit is put, and again
//! on resolution, where an ability whose condition no longer holds is
//! countered.

use crate::engine::{Card, CardId, Game, PlayerId};

use super::{M, board, has_printed_kw, label, r};

/// The filter region naming the sandwiched units.
pub const PINCERED: &str = "pincered";

/// The (middle, far) squares of each straight run of three squares that
/// starts at `from`: orthogonal and diagonal (5.9.3).
fn runs(from: &str) -> Vec<(&'static str, &'static str)> {
    let (l, a) = board::coords(from);
    let at = |dl: i64, da: i64, k: i64| -> Option<&'static str> {
        let (nl, na) = (l as i64 + dl * k, a as i64 + da * k);
        ((0..3).contains(&nl) && (0..3).contains(&na))
            .then(|| board::SQUARES[(na * 3 + nl) as usize])
    };
    let mut out = Vec::new();
    for dl in -1..=1 {
        for da in -1..=1 {
            if (dl, da) == (0, 0) {
                continue;
            }
            if let (Some(mid), Some(far)) = (at(dl, da, 1), at(dl, da, 2)) {
                out.push((mid, far));
            }
        }
    }
    out
}

/// Whether square `sq` holds a unit of `p` other than `source`.
fn holds_unit_of(g: &Game, sq: &str, p: PlayerId, source: &str) -> bool {
    board::units_on(g, sq)
        .iter()
        .any(|u| **u != *source && g.card(u).is_some_and(|c| c.controller == p))
}

/// Whether the card `id` is sandwiched between `source` (on its square,
/// or the one it was last on) and a unit of `controller` (5.9.1, 5.9.3).
pub fn sandwiched(g: &Game, controller: PlayerId, source: &str, id: &str) -> bool {
    let (Some(from), Some(at)) = (
        board::reference_square(g, source).and_then(board::square),
        board::square_of(g, id).and_then(board::square),
    ) else {
        return false;
    };
    runs(from)
        .into_iter()
        .any(|(mid, far)| mid == at && holds_unit_of(g, far, controller, source))
}

/// The opponent's units sandwiched by `card` now: 挟撃's trigger
/// condition.
fn opponents_sandwiched(g: &Game, card: &Card) -> Vec<CardId> {
    let opp = card.controller.other();
    board::on_squares(g)
        .into_iter()
        .filter(|id| g.card(id).is_some_and(|c| c.controller == opp))
        .filter(|id| board::is_square(g.card(id).map_or("", |c| c.zone.kind)))
        .filter(|id| sandwiched(g, card.controller, &card.id, id))
        .collect()
}

/// Whether `id` lies on a diagonal from `source` (5.9.3).
fn diagonal(g: &Game, source: &str, id: &str) -> bool {
    let sq = |c: &str| board::reference_square(g, c).and_then(board::square);
    match (sq(source), sq(id)) {
        (Some(a), Some(b)) => {
            let ((l1, a1), (l2, a2)) = (board::coords(a), board::coords(b));
            l1 != l2 && a1 != a2
        }
        _ => false,
    }
}

/// Whether `card` has 挟撃 (its `on_placed` abilities are its 挟撃).
pub fn has(g: &Game, card: &str) -> bool {
    has_printed_kw(g, card, "pincer")
}

/// 挟撃 of `card`, just put onto a square: whether it triggers (4.4.3,
/// 5.9.1), said in the trace either way.
pub fn triggers(m: &mut M, card: &Card) -> bool {
    let caught = opponents_sandwiched(&m.game, card);
    let me = label(&m.game, &card.id);
    let mut rules = vec![r::PINCER, r::PINCER_TRIGGERED, r::CONDITIONAL];
    if caught.iter().any(|id| diagonal(&m.game, &card.id, id)) {
        rules.push(r::PINCER_DIAGONAL);
    }
    let text = if caught.is_empty() {
        format!(
            "挟撃 of {me}: no opponent's unit lies between it and a unit of yours: it does not trigger"
        )
    } else {
        format!(
            "挟撃 of {me}: {} lie(s) between it and a unit of yours: it triggers",
            caught
                .iter()
                .map(|id| label(&m.game, id))
                .collect::<Vec<_>>()
                .join(", ")
        )
    };
    m.record("pincer", text, &rules);
    !caught.is_empty()
}

/// On resolution: 挟撃 whose condition no longer holds is countered
/// (4.4.3). `source` as it is now, or as it last was.
pub fn still_holds(m: &mut M, controller: PlayerId, source: &str) -> bool {
    let Some(mut card) = m.game.card(source).cloned() else {
        return false;
    };
    card.controller = controller;
    let caught = opponents_sandwiched(&m.game, &card);
    if caught.is_empty() {
        m.record(
            "countered",
            format!(
                "挟撃 of {}: no opponent's unit lies between it and a unit of yours any more: the ability is countered",
                label(&m.game, source)
            ),
            &[r::CONDITIONAL, r::PINCER, r::COUNTERED],
        );
    }
    !caught.is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// From a corner: the row, the column and the diagonal; from the
    /// centre: no run of three starts there.
    #[test]
    fn runs_of_three() {
        let mut from_corner = runs("L1");
        from_corner.sort();
        assert_eq!(from_corner, vec![("C1", "R1"), ("C2", "R3"), ("L2", "L3")]);
        assert!(runs("C2").is_empty());
        assert_eq!(runs("C1"), vec![("C2", "C3")]);
    }
}

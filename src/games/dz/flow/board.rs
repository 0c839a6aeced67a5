//! The board (2.23.8, 2.24): nine battle squares shared by both players,
//! three base squares per player, lines and areas from a player's view,
//! orthogonal adjacency, and the static effects that read positions
//! (支援, 5.5).
//!
//! Squares are named from P1's view: line `L`/`C`/`R`, area `1` (P1's own
//! area), `2` (central), `3` (P1's enemy area, P2's own).

use crate::engine::{Card, CardId, Game, PlayerId, ZoneId};

use super::{dz, stat, text, types};

/// Board regions a target filter may name (`Filter::region`): measured
/// from the ability's card — `same_line` (2.24.5, base squares included),
/// `same_area` and `adjacent` (battle squares) — or, for the areas, seen
/// from the ability's controller (2.24.7-2): `own_area`, `central_area`,
/// `enemy_area`; `battle_space`: any battle square; `same_area_as_first`:
/// for a target chosen with others, in the same area as the first of them
/// (「対象Aと同じエリアにある対象B」, checked with the group,
/// `targets::legal_group`).
pub const REGIONS: &[&str] = &[
    "same_line",
    "same_area",
    "adjacent",
    "own_area",
    "central_area",
    "enemy_area",
    "battle_space",
    "same_area_as_first",
    // Only where a `put` goes (flow/put.rs): not a target filter's region.
    "event_square",
    "this_square",
    // The square or line the text targets (flow/target_place.rs).
    "target_place",
    // The units sandwiched between the card and a unit of its controller
    // (挟撃, flow/pincer.rs).
    super::pincer::PINCERED,
];

/// The battle squares, index = area × 3 + line (from P1's view).
pub const SQUARES: [&str; 9] = ["L1", "C1", "R1", "L2", "C2", "R2", "L3", "C3", "R3"];

/// The base squares, by line from P1's view.
pub const BASES: [&str; 3] = ["base_L", "base_C", "base_R"];

/// The battle square named `s`.
pub fn square(s: &str) -> Option<&'static str> {
    SQUARES.iter().copied().find(|q| *q == s)
}

/// Whether `zone` is a battle square.
pub fn is_square(zone: &str) -> bool {
    square(zone).is_some()
}

/// Whether `zone` is a base square.
pub fn is_base(zone: &str) -> bool {
    BASES.contains(&zone)
}

/// (line, area) of a battle square from P1's view, each 0..3.
pub fn coords(sq: &str) -> (usize, usize) {
    let i = SQUARES.iter().position(|q| *q == sq).unwrap_or(4);
    (i % 3, i / 3)
}

/// The area of a square as `player` sees it (2.24.7): 0 own, 1 central,
/// 2 enemy.
pub fn area_for(sq: &str, player: PlayerId) -> usize {
    let (_, a) = coords(sq);
    if player == PlayerId::P1 { a } else { 2 - a }
}

/// The area's name as `player` sees it.
pub fn area_name(sq: &str, player: PlayerId) -> &'static str {
    ["own area", "central area", "enemy area"][area_for(sq, player)]
}

/// Whether two battle squares are orthogonally adjacent (3.8.2-6).
pub fn adjacent(a: &str, b: &str) -> bool {
    let (l1, a1) = coords(a);
    let (l2, a2) = coords(b);
    l1.abs_diff(l2) + a1.abs_diff(a2) == 1
}

/// The battle squares adjacent to `sq`.
pub fn neighbours(sq: &str) -> Vec<&'static str> {
    SQUARES
        .iter()
        .copied()
        .filter(|q| adjacent(sq, q))
        .collect()
}

/// Every unit on battle square `sq`, both players', in arrival order.
pub fn units_on(g: &Game, sq: &str) -> Vec<CardId> {
    let arrived = g.own_ref::<super::Dz>().map(|d| d.arrived.clone());
    let mut v: Vec<CardId> = g
        .player_ids()
        .flat_map(|p| g.zone_of(p, sq).to_vec())
        .collect();
    if let Some(a) = arrived {
        v.sort_by_key(|id| a.get(id).copied().unwrap_or(0));
    }
    v
}

/// The square a card is on (battle or base square), if any.
pub fn square_of(g: &Game, id: &str) -> Option<&'static str> {
    let z = g.card(id)?.zone.kind;
    (is_square(z) || is_base(z)).then_some(z)
}

/// The line (0..3 from P1's view) of a battle or base square.
pub fn line_of(zone: &str) -> Option<usize> {
    if let Some(i) = BASES.iter().position(|b| *b == zone) {
        return Some(i);
    }
    square(zone).map(|s| coords(s).0)
}

/// Every card on a square (battle or base), of any player.
pub fn on_squares(g: &Game) -> Vec<CardId> {
    each_on_squares(g).cloned().collect()
}

/// The cards of [`on_squares`], borrowed, in the same order: for the
/// checks asked of every unit (support, static abilities), which would
/// otherwise copy the board each time.
pub fn each_on_squares(g: &Game) -> impl Iterator<Item = &CardId> {
    g.player_ids().flat_map(move |p| {
        SQUARES
            .iter()
            .chain(BASES.iter())
            .flat_map(move |z| g.zone_of(p, z).iter())
    })
}

/// Every card on a square with the square it is on, as it is now.
pub fn cards_on_squares(g: &Game) -> Vec<(Card, &'static str)> {
    on_squares(g)
        .iter()
        .filter_map(|id| Some((g.card(id)?.clone(), square_of(g, id)?)))
        .collect()
}

/// The zone of battle square `sq` holding `player`'s units.
pub fn zone(player: PlayerId, sq: &'static str) -> ZoneId {
    ZoneId::of(player, sq)
}

/// Cards already on squares when the scenario starts arrived in file order
/// (P1's before P2's), for "placed later" (3.11.5, 4.16.4-6).
pub fn number_arrivals(g: &mut Game) {
    let ids = on_squares(g);
    let d = dz(g);
    for id in ids {
        d.seq += 1;
        let n = d.seq;
        d.arrived.insert(id, n);
    }
}

/// Records that `id` was just placed on a square (a new arrival).
pub fn arrive(g: &mut Game, id: &str) {
    let d = dz(g);
    d.seq += 1;
    let n = d.seq;
    d.arrived.insert(id.into(), n);
}

/// The power 支援 gives `c` (5.5.2): every card with `support` on a square
/// whose controller is `c`'s, measured from that card: `same_line`,
/// `same_area` (including itself, 5.5.2-1) or `adjacent`.
pub fn support_for(g: &Game, c: &Card) -> i64 {
    let Some(sq) = square(c.zone.kind) else {
        return 0;
    };
    if super::ctype(g, &c.id) != types::UNIT {
        return 0;
    }
    let mut total = 0;
    // The static abilities working now, read once for every card asked.
    let working = super::statics::working(g);
    for id in each_on_squares(g) {
        let Some(s) = g.card(id) else { continue };
        if s.controller != c.controller
            || !(super::has_printed_kw(g, id, "support")
                || super::statics::grants_among(g, &working, s, "support"))
        {
            continue;
        }
        let from = s.zone.kind;
        let in_range = match text(g, id, "support_range").unwrap_or("same_line") {
            "same_line" => line_of(from) == line_of(sq),
            "same_area" => square(from).is_some_and(|f| coords(f).1 == coords(sq).1),
            "adjacent" => square(from).is_some_and(|f| adjacent(f, sq)),
            _ => false,
        };
        if in_range {
            total += stat(g, id, "support");
        }
    }
    total
}

/// The square an ability's card `source` is measured from: the one it is
/// on, or, once it has left the squares, the one it was last on before
/// that zone change (4.2.6, 4.8.4-2, 4.9.2-6).
pub fn reference_square(g: &Game, source: &str) -> Option<&'static str> {
    square_of(g, source).or_else(|| {
        g.own_ref::<super::Dz>()
            .and_then(|d| d.last_square.get(source).copied())
    })
}

/// Whether card `id` is in `region` for an ability of `controller` whose
/// card is `source` (see [`REGIONS`]).
pub fn in_region(g: &Game, controller: PlayerId, source: &str, region: &str, id: &str) -> bool {
    if region == super::pincer::PINCERED {
        return super::pincer::sandwiched(g, controller, source, id);
    }
    if region == super::target_place::TARGET_PLACE {
        let place = super::target_place::current(g);
        return square_of(g, id)
            .is_some_and(|at| place.is_some_and(|p| super::target_place::holds(p, at)));
    }
    square_of(g, id)
        .is_some_and(|at| square_in_region(reference_square(g, source), at, controller, region))
}

/// Whether square `at` (battle or base) is in `region` measured from
/// square `from` (for `same_line`, `same_area`, `adjacent`) or seen from
/// `controller` (the areas).
pub fn square_in_region(from: Option<&str>, at: &str, controller: PlayerId, region: &str) -> bool {
    let area = |want: usize| square(at).is_some_and(|sq| area_for(sq, controller) == want);
    match region {
        "own_area" => area(0),
        "central_area" => area(1),
        "enemy_area" => area(2),
        "battle_space" => is_square(at),
        // A condition on the group of targets, not on one square.
        "same_area_as_first" => is_square(at),
        _ => {
            let Some(from) = from else {
                return false;
            };
            match region {
                "same_line" => line_of(from) == line_of(at),
                "same_area" => square(from)
                    .is_some_and(|f| square(at).is_some_and(|t| coords(f).1 == coords(t).1)),
                "adjacent" => square(from).is_some_and(|f| adjacent(f, at)),
                _ => false,
            }
        }
    }
}

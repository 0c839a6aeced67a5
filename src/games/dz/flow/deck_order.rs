//! Decks whose order was deliberately decided (「山札のカードの順番が意図
//! 的に決定された」, 6.2): some cards read whether it ever was (6.2.1).
//! Putting a card from another zone at a known place of the deck is such
//! an ordering (6.2.2 A: the engine's `put` to the deck puts it on top);
//! so is putting a card face up into the plan zone, the deck's top (6.2.3),
//! and looking at cards of the deck and putting them back (6.2.2 B, C);
//! once decided, a deck stays so for the rest of the duel, shuffled or not
//! (6.2.4). Shuffling (6.2.5) and turning the top card face up as the plan
//! zone (6.2.6) are not. The trace says which.

use crate::engine::{PlayerId, player_name};

use super::{M, dz, r};

/// A card of `p`'s was put at a known place of `p`'s deck (6.2.2 A).
pub fn decided(m: &mut M, p: PlayerId) {
    decided_by(m, p, "a card was put at a known place of", &[]);
}

/// `p`'s deck was deliberately ordered the way `how` says ("a card was put
/// at a known place of"), citing `also` beside 6.2.1-2 (6.2.3: the plan
/// zone is the deck's top).
pub fn decided_by(m: &mut M, p: PlayerId, how: &str, also: &[&'static str]) {
    let again = !dz(&mut m.game).deck_ordered.insert(p);
    let e = m.record(
        "deck_order",
        format!(
            "{how} {}'s deck: the deck's order has been deliberately decided{}",
            player_name(p),
            if again { " (again)" } else { "" }
        ),
        &[r::DELIBERATE, r::DELIBERATE_WHAT],
    );
    e.rules.extend_from_slice(also);
    if again {
        e.rules.push(r::DELIBERATE_STAYS);
    }
}

/// Why a shuffle of `p`'s deck or turning its top card face up as the plan
/// zone leaves the fact as it was: not a deliberate ordering (`rule`:
/// 6.2.5 or 6.2.6), and one decided before stays (6.2.4).
pub fn not_decided(m: &mut M, p: PlayerId, rule: &'static str) {
    let before = super::dz_ref(&m.game).deck_ordered.contains(&p);
    if let Some(e) = m.trace.last_mut() {
        e.rules.push(rule);
        if before {
            e.rules.push(r::DELIBERATE_STAYS);
        }
    }
}

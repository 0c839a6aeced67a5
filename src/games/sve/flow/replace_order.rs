//! The order of several replacement effects on one event (10.10.2): the
//! player the event affects decides which applies first, each applying at
//! most once (10.10.2.3). For damage modifiers (5.13.2) the order matters
//! only where the reductions alone bring the damage to 0 or less: that is
//! no damage, so the modifiers not yet applied have nothing to replace.

use super::*;

/// Reading flag: the player dealing the damage (the master of its
/// source: "the player carrying out the action", 10.10.2.2) orders the
/// modifiers, not the damaged player (the master of the card the action is
/// applied to).
pub const DAMAGE_ORDER_BY_DEALER: &str = "reading_damage_order_by_dealer";

/// Modifiers in the order they apply, the player who ordered them, and
/// whether the reading flag made them the decider.
pub(super) type Ordered = (Vec<(i64, CardId)>, PlayerId, bool);

/// Whether the order of the damage modifiers `applied` changes what
/// `base` damage becomes: all of them leave some damage, the reductions
/// alone leave none.
pub(super) fn damage_order_matters(base: i64, applied: &[(i64, CardId)]) -> bool {
    let total = base + applied.iter().map(|(a, _)| a).sum::<i64>();
    let reduced = base + applied.iter().map(|(a, _)| *a.min(&0)).sum::<i64>();
    applied.len() > 1 && total > 0 && reduced <= 0
}

/// The master of a card or leader (`pN.leader`).
fn master_of(g: &Game, who: &str) -> Option<PlayerId> {
    parse_leader(who).or_else(|| g.card(who).map(|c| c.controller))
}

/// 10.10.2: the modifiers `applied` of the damage from `source` to
/// `recipient`, in the order the deciding player gives (the choice
/// `<recipient>.damage_order`, every source once); returns them ordered,
/// with the decider and whether the reading flag chose them.
pub(super) fn order_damage(
    m: &mut M,
    source: &str,
    recipient: &str,
    applied: &[(i64, CardId)],
) -> R<Ordered> {
    let dealer = reading(&m.game, DAMAGE_ORDER_BY_DEALER);
    let decider = if dealer {
        master_of(&m.game, source)
    } else {
        master_of(&m.game, recipient)
    }
    .unwrap_or(m.game.turn.active);
    let key = format!("{recipient}.damage_order");
    let order = ordered_sources(m, decider, &key, applied)?;
    let ordered = order
        .iter()
        .flat_map(|s| applied.iter().filter(move |(_, a)| a == s).cloned())
        .collect();
    Ok((ordered, decider, dealer))
}

/// 10.10.2.1, 10.10.2.4: two or more effects setting the cost of `card`
/// that `p` plays to different values (`sets`): `p`, its master, orders
/// them (the choice `<card>.cost_order`, every source once); the value set
/// last is the one the ± changes then apply to.
pub(super) fn order_sets(
    m: &mut M,
    p: PlayerId,
    card: &str,
    sets: &[(i64, CardId)],
) -> R<(i64, CardId)> {
    let key = format!("{card}.cost_order");
    let order = ordered_sources(m, p, &key, sets)?;
    let last = order.last().cloned().unwrap_or_default();
    let set = sets
        .iter()
        .find(|(_, s)| *s == last)
        .cloned()
        .unwrap_or_else(|| sets[0].clone());
    let e = m.record(
        "play.cost_order",
        format!(
            "{} orders the effects setting {card}'s cost: {}; the last, {} by {}, stands",
            player_name(p),
            texts(&order).join(", then "),
            set.0,
            set.1
        ),
        &[
            r::REPLACEMENT_ORDER,
            r::REPLACEMENT_ORDER_CARD,
            r::REPLACEMENT_ONCE,
            r::COST_SET_FIRST,
        ],
    );
    e.obj(card);
    Ok(set)
}

/// The sources of `applied` in the order `decider` gives as choice `key`:
/// every source once (a source with two effects applies them together).
fn ordered_sources(
    m: &mut M,
    decider: PlayerId,
    key: &str,
    applied: &[(i64, CardId)],
) -> R<Vec<CardId>> {
    let mut sources: Vec<CardId> = Vec::new();
    for (_, s) in applied {
        if !sources.contains(s) {
            sources.push(s.clone());
        }
    }
    let every = vec![format!(
        "every one of {}, in the order they apply",
        texts(&sources).join(", ")
    )];
    let order = m.decided_by(decider, |m| match m.choices.ids(key, &sources)? {
        Some(l) => Ok(l),
        None => m.choices.require(key, &every).map(|_| Vec::new()),
    })?;
    if order.len() != sources.len() || sources.iter().any(|s| !order.contains(s)) {
        return Err(EngineError::BadChoice {
            choice: key.into(),
            value: texts(&order).join(", "),
            options: every,
        });
    }
    Ok(order)
}

/// Applies the modifiers in `ordered` one by one to `base` damage: the
/// damage after each, and how many applied before it came to 0 or less
/// (no damage: the rest have nothing to replace).
pub(super) fn apply_in_order(base: i64, ordered: &[(i64, CardId)]) -> (i64, usize) {
    let mut amount = base;
    for (i, (a, _)) in ordered.iter().enumerate() {
        amount += a;
        if amount <= 0 {
            return (amount, i + 1);
        }
    }
    (amount, ordered.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mods(list: &[(i64, &str)]) -> Vec<(i64, CardId)> {
        list.iter().map(|(a, s)| (*a, CardId::from(*s))).collect()
    }

    #[test]
    fn order_matters_only_when_the_reductions_alone_leave_no_damage() {
        // 2 - 3 ≤ 0 but 2 - 3 + 2 > 0: the order decides.
        assert!(damage_order_matters(2, &mods(&[(-3, "a"), (2, "b")])));
        // 4 - 3 > 0: no order reaches 0.
        assert!(!damage_order_matters(4, &mods(&[(-3, "a"), (2, "b")])));
        // 2 - 3 + 1 ≤ 0: no damage whatever the order.
        assert!(!damage_order_matters(2, &mods(&[(-3, "a"), (1, "b")])));
        // One modifier has no order.
        assert!(!damage_order_matters(2, &mods(&[(-3, "a")])));
    }

    #[test]
    fn applying_stops_at_no_damage() {
        assert_eq!(apply_in_order(2, &mods(&[(-3, "a"), (2, "b")])), (-1, 1));
        assert_eq!(apply_in_order(2, &mods(&[(2, "b"), (-3, "a")])), (1, 2));
    }
}

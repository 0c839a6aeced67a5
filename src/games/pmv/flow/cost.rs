//! Paying node costs (1.8.7): sleep an active node for 1 or discard a sleeping one for 1, exact payment.

use super::*;

pub(super) fn nodes(g: &Game, p: PlayerId) -> Vec<CardId> {
    g.zone_of(p, zn::NODE).to_vec()
}

/// Pays `cost` from `p`'s nodes (1.8.7): `pay_sleep` lists active nodes to
/// sleep, `pay_discard` sleeping nodes to discard. One node yields at most 1
/// per payment (1.8.7.d): a node slept by this payment was not sleeping
/// before it, so it cannot also be discarded. The amount must be exact:
/// demanded at once (1.8.7.f), never less or more (1.8.7.g).
pub(super) fn pay(m: &mut M, p: PlayerId, cost: i64, card: &str) -> R<()> {
    pay_keyed(m, p, cost, card, "")
}

/// [`pay`] reading the payment choices under `prefix` (`blessing.pay_sleep`).
pub(super) fn pay_keyed(m: &mut M, p: PlayerId, cost: i64, card: &str, prefix: &str) -> R<()> {
    if cost <= 0 {
        return Ok(());
    }
    let all = nodes(&m.game, p);
    let active: Vec<CardId> = all
        .iter()
        .filter(|n| !m.game.card(n).is_some_and(|c| c.has(st::SLEEP)))
        .cloned()
        .collect();
    let sleeping: Vec<CardId> = all
        .iter()
        .filter(|n| m.game.card(n).is_some_and(|c| c.has(st::SLEEP)))
        .cloned()
        .collect();
    let (ks, kd) = (format!("{prefix}pay_sleep"), format!("{prefix}pay_discard"));
    if cost as usize <= active.len() {
        let n = crate::engine::TargetCount::Exactly(cost as usize);
        m.choices.default_some_of(&ks, &active, n);
    }
    let s = m.choices.take(&ks);
    let d = m.choices.take(&kd);
    let list = |v: Option<Value>, key: &str| -> R<Vec<CardId>> {
        match v {
            None => Ok(Vec::new()),
            Some(Value::String(x)) => Ok(vec![x.into()]),
            Some(Value::Array(a)) => a
                .iter()
                .map(|x| x.as_str().map(CardId::from))
                .collect::<Option<Vec<_>>>()
                .ok_or_else(|| bad(format!("`{key}` must be a list of node ids"))),
            Some(other) => Err(bad(format!(
                "`{key}` must be a list of node ids, not {other}"
            ))),
        }
    };
    let alts = vec![
        format!("active nodes: {}", active.join(", ")),
        format!("sleeping nodes: {}", sleeping.join(", ")),
    ];
    let (sleep, discard, auto) = if s.is_none() && d.is_none() {
        let sl: Vec<CardId> = active.iter().take(cost as usize).cloned().collect();
        let rest = cost as usize - sl.len();
        let di: Vec<CardId> = sleeping.iter().take(rest).cloned().collect();
        (sl, di, true)
    } else {
        let (sl, di) = (list(s, &ks)?, list(d, &kd)?);
        for id in &sl {
            if !active.iter().any(|c| c == id) {
                return Err(illegal(
                    r::PAY_SLEEP,
                    format!(
                        "{id} is not an active node of {}: only an active node pays by going to sleep",
                        player_name(p)
                    ),
                    alts,
                ));
            }
        }
        for id in &di {
            if sl.contains(id) || active.iter().any(|c| c == id) {
                return Err(illegal(
                    r::PAY_ONE_PER_NODE,
                    format!(
                        "{id} was active: it pays 1 by going to sleep and cannot also be discarded in the same payment"
                    ),
                    alts,
                ));
            }
            if !sleeping.iter().any(|c| c == id) {
                return Err(illegal(
                    r::PAY_DISCARD,
                    format!("{id} is not a sleeping node of {}", player_name(p)),
                    alts,
                ));
            }
        }
        let uniq: BTreeSet<&CardId> = sl.iter().chain(di.iter()).collect();
        if uniq.len() != sl.len() + di.len() {
            return Err(illegal(
                r::PAY_ONE_PER_NODE,
                "a node is listed twice: each node gives at most 1 per payment",
                alts,
            ));
        }
        (sl, di, false)
    };
    let total = (sleep.len() + discard.len()) as i64;
    if total != cost {
        // 1.8.7.f says the whole cost is demanded at once; it is 1.8.7.g that
        // forbids paying less or more.
        return Err(illegal(
            r::PAY_NO_SPLIT,
            format!(
                "the cost of {card} is {cost}; the payment gives {total} (sleep {} active, discard {} sleeping; each node gives at most 1)",
                sleep.len(),
                discard.len()
            ),
            vec![
                format!("active nodes: {}", active.join(", ")),
                format!("sleeping nodes: {}", sleeping.join(", ")),
            ],
        ));
    }
    for id in &sleep {
        if let Some(c) = m.game.cards.get_mut(id) {
            c.states.insert(st::SLEEP.into());
        }
    }
    for id in &discard {
        m.game.move_card(id, ZoneId::of(p, zn::NETHERWORLD), true);
    }
    let e = m.record(
        "play.pay",
        format!(
            "{} pays {cost} for {card}: sleeps {} and discards {}",
            player_name(p),
            if sleep.is_empty() {
                "none".into()
            } else {
                sleep.join(", ")
            },
            if discard.is_empty() {
                "none".into()
            } else {
                discard.join(", ")
            }
        ),
        &[
            r::PLAY_PAY,
            r::PAY_SLEEP,
            r::PAY_DISCARD,
            r::PAY_ONE_PER_NODE,
            r::PAY_ANY,
            r::PAY_EXACT,
            r::PAY_NO_SPLIT,
        ],
    );
    if !discard.is_empty() {
        e.rule(r::PAY_AS_COST_NO_REMOVAL);
    }
    if !discard.is_empty() && !sleep.is_empty() {
        e.rule(r::PAY_MIX);
    }
    if auto {
        e.note("no `pay_sleep`/`pay_discard` choice given: the engine sleeps active nodes first, then discards sleeping ones");
    }
    Ok(())
}

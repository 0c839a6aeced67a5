//! Feed 食事 (14.2.1, 14.2.2): a 🥕 activated ability (trigger `feed`)
//! whose cost includes feeding: the master puts carrots 『にんじん』 from
//! their evolve deck into their race area, associated with the card. It
//! shares the once-per-turn limit of Evolve (8.3.2), and 1 PP of its cost
//! may be paid with 1 EP instead (14.2.2 item 4).

use super::*;

/// The trigger word of a Feed ability (🥕, 14.2.2 item 2).
pub(super) const FEED: &str = "feed";

/// The name of the cards feeding puts into the race area.
const CARROT: &str = "にんじん";

/// 8.3.2: Evolve and Feed together are used once per turn.
pub(super) fn check_once_per_turn(g: &Game, alts: Vec<String>) -> R<()> {
    if g.own_ref::<SveState>().is_some_and(|s| s.evolve_used > 0) {
        return Err(illegal(
            r::EVOLVE_ONCE,
            "an Evolve or Feed ability has already been used this turn",
            alts,
        ));
    }
    Ok(())
}

/// The cost part "feed `n` times" of `card` (14.2.1 item 1): `n` carrots
/// from `p`'s evolve deck to their race area, associated with `card`.
/// Impossible as a cost when a carrot is already associated with it (item
/// 2.1) or the evolve deck holds fewer than `n`.
pub(super) fn feed_times(m: &mut M, p: PlayerId, card: &str, n: usize, alts: Vec<String>) -> R<()> {
    let g = &m.game;
    if g.zone_of(p, zn::RACE)
        .iter()
        .any(|id| g.cards[id].attached_to.as_deref() == Some(card))
    {
        return Err(illegal(
            r::FEED_ALREADY_FED,
            format!(
                "{card} already has a carrot in the race area: feeding cannot be paid as a cost"
            ),
            alts,
        ));
    }
    let carrots: Vec<CardId> = g
        .zone_of(p, zn::EVOLVE_DECK)
        .iter()
        .filter(|id| g.def_of(id).is_some_and(|d| d.name == CARROT))
        .take(n)
        .cloned()
        .collect();
    let have = carrots.len();
    if have < n {
        let who = player_name(p);
        let text = format!(
            "feeding {n} time(s) needs {n} 『{CARROT}』 in {who}'s evolve deck; there are {have}"
        );
        return Err(illegal(r::FEED_PUT, text, alts));
    }
    for id in &carrots {
        mv(m, id, ZoneId::of(p, zn::RACE), false);
        if let Some(c) = m.game.cards.get_mut(id) {
            c.attached_to = Some(card.into());
        }
    }
    m.record(
        "activate.cost",
        format!(
            "{card} feeds {n} time(s): {} go(es) to {}'s race area, associated with it",
            carrots.join(", "),
            player_name(p)
        ),
        &[r::FEED_PUT, r::FEED_MEANS, r::COST_PAYMENT],
    )
    .obj(card);
    Ok(())
}

/// 14.2.2 item 4: whether 1 PP of a Feed ability's PP cost `n` is paid with
/// 1 EP (the choice `use_ep`, asked when `p` has EP).
pub(super) fn ep_for_one_pp(m: &mut M, p: PlayerId, n: i64) -> R<bool> {
    if n <= 0 || m.game.value(p, "ep") <= 0 {
        return Ok(false);
    }
    let options = vec!["true".to_string(), "false".to_string()];
    match m.choices.require("use_ep", &options)? {
        Value::Bool(b) => Ok(b),
        v => Err(EngineError::BadChoice {
            choice: "use_ep".into(),
            value: v.to_string(),
            options,
        }),
    }
}

//! The orientation a set card shares with the card it is set on
//! (11.3.11.c): set, it takes its host's orientation; afterwards, when the
//! host's or a set card's orientation changes, every one of them follows.
//!
//! The procedures that make a card sleep or active each change one card;
//! [`share`] runs when an action settles (and when a card is set) and
//! carries the change over: it remembers each host's orientation as last
//! shared, so a host that changed leads, and otherwise a set card that
//! changed does.

use super::*;
use crate::engine::texts;

/// Whether `id` is asleep.
fn asleep(g: &Game, id: &str) -> bool {
    g.card(id).is_some_and(|c| c.has(st::SLEEP))
}

fn put(g: &mut Game, id: &str, sleep: bool) {
    if let Some(c) = g.cards.get_mut(id) {
        if sleep {
            c.states.insert(st::SLEEP.into());
        } else {
            c.states.remove(st::SLEEP);
        }
    }
}

fn word(sleep: bool) -> &'static str {
    if sleep { "asleep" } else { "active" }
}

/// A card being set takes the orientation of `host` (11.3.11.c).
pub(super) fn take_hosts(g: &mut Game, card: &str, host: &str) {
    let sleep = asleep(g, host);
    put(g, card, sleep);
}

/// Carries orientation changes between set cards and their hosts
/// (11.3.11.c), recording each.
pub(super) fn share(m: &mut M) {
    let mut groups: BTreeMap<CardId, Vec<CardId>> = BTreeMap::new();
    for c in m.game.cards.values() {
        if let Some(h) = &c.attached_to
            && c.zone.kind == zn::FIELD
        {
            groups.entry(h.clone()).or_default().push(c.id.clone());
        }
    }
    if groups.is_empty() && pmv(&m.game).orientation.is_empty() {
        return;
    }
    let mut seen = BTreeMap::new();
    for (host, sets) in groups {
        if !on_field(&m.game, &host) {
            continue;
        }
        let now = asleep(&m.game, &host);
        let before = pmv(&m.game).orientation.get(&host).copied();
        let changed_set = sets.iter().find(|s| asleep(&m.game, s) != now).cloned();
        // The host leads when it changed (or has no memory yet: a card just
        // set takes its host's orientation); otherwise a set card that
        // changed does.
        let lead = match (before, changed_set) {
            (Some(b), Some(s)) if b == now => Some(s),
            _ => None,
        };
        let target = lead.as_ref().map_or(now, |s| asleep(&m.game, s));
        let followers: Vec<CardId> = std::iter::once(host.clone())
            .chain(sets.iter().cloned())
            .filter(|c| asleep(&m.game, c) != target)
            .collect();
        for f in &followers {
            put(&mut m.game, f, target);
        }
        if !followers.is_empty() {
            let leader = lead.unwrap_or_else(|| host.clone());
            m.record(
                "set_card.orientation",
                format!(
                    "{} {} with {leader}, which is {}: a set card and the card it is set on share their orientation",
                    texts(&followers).join(", "),
                    if target { "goes to sleep" } else { "becomes active" },
                    word(target)
                ),
                &[r::SET_SHARES_ORIENTATION],
            )
            .obj(leader.to_string());
        }
        seen.insert(host, target);
    }
    m.game.own::<PmvState>().orientation = seen;
}

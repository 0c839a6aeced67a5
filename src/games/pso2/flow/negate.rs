//! 無効 negating what waits in the resolution zone (GL:無効(カードや能力の
//! 無効)): a card or ability there that has not resolved yet is removed
//! from the zone; a removed card goes at once to its owner's discard.
//!
//! The effect (`negate`) is applied while another entry resolves; the
//! removal from the zone happens as that entry finishes ([`purge`]), so
//! the negated entry never resolves and the right to act goes on with the
//! entry below it.

use super::{Ctx, EntryKind, M, r, state, zn};
use crate::engine::{CardId, ZoneId};

/// What a `negate` names: the cards being played it selected, or the
/// abilities of the cards it selected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Negated {
    pub card: CardId,
    pub abilities: bool,
}

/// Applies a `negate` of `source` to the selected cards: a card in the
/// resolution zone goes to its owner's discard at once; for `abilities`,
/// the card's abilities waiting there are marked to be removed.
pub fn apply(m: &mut M, source: &str, cards: Vec<CardId>, abilities: bool) {
    for id in cards {
        if abilities {
            state::of(&mut m.game).negated.push(Negated {
                card: id,
                abilities: true,
            });
            continue;
        }
        let here = m
            .game
            .card(&id)
            .map(|c| (c.zone.kind == zn::RESOLUTION, c.owner));
        match here {
            Some((true, owner)) => {
                m.game.move_card(&id, ZoneId::of(owner, zn::DISCARD), false);
                m.record(
                    "effect",
                    format!("{source} negates {id}: it leaves the resolution zone without resolving and goes to its owner's discard"),
                    &[r::GL_NEGATE],
                )
                .obj(id.to_string());
                state::of(&mut m.game).negated.push(Negated {
                    card: id,
                    abilities: false,
                });
            }
            _ => {
                m.record(
                    "effect",
                    format!(
                        "{id} is not waiting in the resolution zone: there is nothing to negate"
                    ),
                    &[r::GL_NEGATE, r::IMPOSSIBLE_IGNORED],
                );
            }
        }
    }
}

/// Removes the negated entries from the resolution zone once the entry
/// that negated them has finished resolving.
pub fn purge(m: &mut M, ctx: &mut Ctx) {
    let negated = std::mem::take(&mut state::of(&mut m.game).negated);
    for n in negated {
        let before = ctx.stack.len();
        ctx.stack.retain(|e| match &e.kind {
            EntryKind::Card(c) => n.abilities || *c != n.card,
            EntryKind::Ability { card, .. } => !n.abilities || *card != n.card,
            _ => true,
        });
        let removed = before - ctx.stack.len();
        if n.abilities {
            let text = if removed == 0 {
                format!(
                    "no ability of {} is waiting in the resolution zone: there is nothing to negate",
                    n.card
                )
            } else {
                format!(
                    "{removed} ability(ies) of {} negated: removed from the resolution zone without resolving",
                    n.card
                )
            };
            let mut rules = vec![r::GL_NEGATE];
            if removed == 0 {
                rules.push(r::IMPOSSIBLE_IGNORED);
            }
            m.record("effect", text, &rules).obj(n.card.to_string());
        }
    }
}

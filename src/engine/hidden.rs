//! Searching a hidden zone and looking at the top of a deck: the choices
//! and the reordering every game's `search` / `look_at` shares. Which
//! cards match, whether one that is there may go unfound, when the zone is
//! shuffled and what the trace cites are each game's rules.

use super::{CardId, Choices, EngineError, Game, Picked, TargetCount, ZoneId, texts};

/// What a search found: the cards named, and how many of those asked for
/// the player chose not to find although they were there.
pub struct Found {
    /// The cards found, in the order named.
    pub cards: Vec<CardId>,
    /// Cards asked for and there, not found by the player's choice.
    pub declined: usize,
}

impl Choices {
    /// The cards found among `options` (the matching cards of the hidden
    /// zone) for "up to `n`" (`may_fail`: the player may find fewer than
    /// there are) or "exactly `n`" (as many as there are, up to `n`), named
    /// by choice `key`. With no more cards than asked for, all are found by
    /// default (explore tries each shorter list where fewer may be found).
    pub fn found(
        &mut self,
        key: &str,
        options: &[CardId],
        n: usize,
        may_fail: bool,
    ) -> Result<Found, EngineError> {
        let all = options.len() <= n;
        if all && may_fail {
            self.default_all_of(key, options);
        }
        let cards = if all && (!may_fail || self.peek(key).is_none()) {
            options.to_vec()
        } else {
            let count = if may_fail {
                TargetCount::UpTo(n)
            } else {
                TargetCount::Exactly(n)
            };
            match self.targets(key, options, count, |_| None)? {
                Picked::Given(l) | Picked::Only(l) => l,
            }
        };
        let declined = n.min(options.len()) - cards.len();
        Ok(Found { cards, declined })
    }

    /// The order (top first) in which the cards `seen` go back, named by
    /// choice `key`: every one of them in any order; by default as they
    /// were.
    pub fn put_back_order(
        &mut self,
        key: &str,
        seen: &[CardId],
    ) -> Result<Vec<CardId>, EngineError> {
        self.default_order(key, seen);
        let Some(l) = self.ids(key, seen)? else {
            return Ok(seen.to_vec());
        };
        let mut sorted = l.clone();
        sorted.sort();
        let mut want = seen.to_vec();
        want.sort();
        if sorted != want {
            return Err(EngineError::BadChoice {
                choice: key.into(),
                value: texts(&l).join(", "),
                options: vec![format!(
                    "every one of {}, in any order",
                    texts(seen).join(", ")
                )],
            });
        }
        Ok(l)
    }
}

impl Game {
    /// Puts the cards `order` (top first), taken from deck `z`, back on
    /// its top, or with `bottom` at its bottom.
    pub fn put_back(&mut self, z: &ZoneId, order: &[CardId], bottom: bool) {
        let mut deck: Vec<CardId> = self
            .zone(z)
            .iter()
            .filter(|c| !order.contains(c))
            .cloned()
            .collect();
        if bottom {
            deck.extend(order.iter().cloned());
        } else {
            deck.splice(0..0, order.iter().cloned());
        }
        self.zones.insert(z.clone(), deck);
    }
}

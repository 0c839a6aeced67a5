//! [`Cards`]: every card instance of a game by id, shared between copies of
//! the game until one copy changes a card.
//!
//! The driver copies the whole game before each action so that an illegal
//! action can be rolled back (`Machine::atomically`). Most actions change a
//! handful of cards, so each card sits behind an [`Arc`]: a copy of the game
//! shares every card, and [`Cards::get_mut`] copies only the card it is
//! about to change (copy on write). The map keeps the ordered-by-id
//! iteration the trace and snapshots rely on (determinism).

use std::borrow::Borrow;
use std::collections::BTreeMap;
use std::collections::btree_map;
use std::sync::Arc;

use super::ids::CardId;
use super::state::Card;

/// Card instances by id, each shared until changed (see the module doc).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Cards(BTreeMap<CardId, Arc<Card>>);

impl Cards {
    /// The card `id`.
    pub fn get<Q: ?Sized + Ord>(&self, id: &Q) -> Option<&Card>
    where
        CardId: Borrow<Q>,
    {
        self.0.get(id).map(|c| &**c)
    }

    /// The card `id`, to change: copied first if another copy of the game
    /// still shares it.
    pub fn get_mut<Q: ?Sized + Ord>(&mut self, id: &Q) -> Option<&mut Card>
    where
        CardId: Borrow<Q>,
    {
        self.0.get_mut(id).map(Arc::make_mut)
    }

    /// Whether a card `id` exists.
    pub fn contains_key<Q: ?Sized + Ord>(&self, id: &Q) -> bool
    where
        CardId: Borrow<Q>,
    {
        self.0.contains_key(id)
    }

    /// Adds or replaces card `id`; returns the card it replaced.
    pub fn insert(&mut self, id: CardId, card: Card) -> Option<Card> {
        self.0.insert(id, Arc::new(card)).map(Arc::unwrap_or_clone)
    }

    /// Removes card `id` and returns it.
    pub fn remove<Q: ?Sized + Ord>(&mut self, id: &Q) -> Option<Card>
    where
        CardId: Borrow<Q>,
    {
        self.0.remove(id).map(Arc::unwrap_or_clone)
    }

    /// The number of cards.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether there are no cards.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Every card id, in id order.
    pub fn keys(&self) -> btree_map::Keys<'_, CardId, Arc<Card>> {
        self.0.keys()
    }

    /// Every card, in id order.
    pub fn values(&self) -> impl DoubleEndedIterator<Item = &Card> + Clone {
        self.0.values().map(|c| &**c)
    }

    /// Every card with its id, in id order.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = (&CardId, &Card)> + Clone {
        self.0.iter().map(|(id, c)| (id, &**c))
    }

    /// Every card, to change, in id order. This copies every shared card;
    /// where only some cards change, [`Cards::update_where`] copies only
    /// those.
    pub fn values_mut(&mut self) -> impl Iterator<Item = &mut Card> {
        self.0.values_mut().map(Arc::make_mut)
    }

    /// Changes, with `change`, every card that `which` selects, copying
    /// only those cards.
    pub fn update_where(
        &mut self,
        which: impl Fn(&Card) -> bool,
        mut change: impl FnMut(&mut Card),
    ) {
        for c in self.0.values_mut() {
            if which(c) {
                change(Arc::make_mut(c));
            }
        }
    }
}

/// `cards[id]`: the card `id`, which must exist (as `BTreeMap`'s index).
impl<Q: ?Sized + Ord> std::ops::Index<&Q> for Cards
where
    CardId: Borrow<Q>,
{
    type Output = Card;
    fn index(&self, id: &Q) -> &Card {
        &self.0[id]
    }
}

impl<'a> IntoIterator for &'a Cards {
    type Item = (&'a CardId, &'a Card);
    type IntoIter = std::iter::Map<
        btree_map::Iter<'a, CardId, Arc<Card>>,
        fn((&'a CardId, &'a Arc<Card>)) -> (&'a CardId, &'a Card),
    >;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter().map(|(id, c)| (id, &**c))
    }
}

impl FromIterator<(CardId, Card)> for Cards {
    fn from_iter<I: IntoIterator<Item = (CardId, Card)>>(iter: I) -> Self {
        Cards(iter.into_iter().map(|(id, c)| (id, Arc::new(c))).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::state::{PlayerId, ZoneId};

    fn card(id: &str) -> Card {
        Card::new(
            id.into(),
            "def",
            PlayerId::P1,
            ZoneId::of(PlayerId::P1, "hand"),
        )
    }

    #[test]
    fn a_copy_shares_cards_until_one_changes() {
        let mut a: Cards = [("a".into(), card("a")), ("b".into(), card("b"))]
            .into_iter()
            .collect();
        let b = a.clone();
        a.get_mut("a").unwrap().damage = 3;
        assert_eq!(a.get("a").unwrap().damage, 3);
        assert_eq!(
            b.get("a").unwrap().damage,
            0,
            "the copy keeps the card as it was"
        );
        assert!(
            Arc::ptr_eq(&a.0["b"], &b.0["b"]),
            "an unchanged card stays shared"
        );
        assert!(!Arc::ptr_eq(&a.0["a"], &b.0["a"]));
    }

    #[test]
    fn update_where_copies_only_the_selected_cards() {
        let mut a: Cards = [("a".into(), card("a")), ("b".into(), card("b"))]
            .into_iter()
            .collect();
        let b = a.clone();
        a.update_where(|c| &*c.id == "b", |c| c.damage = 1);
        assert!(Arc::ptr_eq(&a.0["a"], &b.0["a"]));
        assert_eq!(a.get("b").unwrap().damage, 1);
        assert_eq!(b.get("b").unwrap().damage, 0);
        assert_eq!(a.keys().map(|k| &**k).collect::<Vec<_>>(), ["a", "b"]);
    }
}

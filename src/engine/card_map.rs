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
use std::hash::Hash;
use std::sync::{Arc, OnceLock};

use rustc_hash::FxHashMap;

use super::ids::CardId;
use super::state::Card;

/// Card instances by id, each shared until changed (see the module doc).
///
/// The cards are kept in id order (a game's snapshots and traces list them
/// so); an id is found through a hash index, built on the first lookup
/// after the set of ids changes and shared between copies of the game.
#[derive(Clone, Default)]
pub struct Cards {
    /// Every card, in id order.
    slots: Vec<Arc<Card>>,
    /// Each id's place in `slots`; empty until first needed.
    index: OnceLock<Arc<Index>>,
}

/// Each card's place in [`Cards::slots`], found two ways.
#[derive(Default)]
struct Index {
    /// By the address and length of the id's text. An id the engine
    /// passes around is often a copy of the card's own (one shared
    /// `Arc<str>`), so its place is found without hashing or comparing the
    /// text. A hit is trusted only if that place still holds a card whose
    /// id is that very text (see [`Cards::slot`]).
    by_address: FxHashMap<(usize, usize), usize>,
    /// By the id's text: an id read from elsewhere (a scenario's action).
    by_text: FxHashMap<CardId, usize>,
}

impl Index {
    fn of(slots: &[Arc<Card>]) -> Self {
        let mut index = Index::default();
        index.by_address.reserve(slots.len());
        index.by_text.reserve(slots.len());
        for (i, c) in slots.iter().enumerate() {
            index.add(&c.id, i);
        }
        index
    }

    fn add(&mut self, id: &CardId, i: usize) {
        self.by_address.insert(address(id), i);
        self.by_text.insert(id.clone(), i);
    }

    /// Shifts every place at or after `from` by `by` (+1 after an insert,
    /// -1 after a removal).
    fn shift(&mut self, from: usize, by: isize) {
        for place in self
            .by_address
            .values_mut()
            .chain(self.by_text.values_mut())
        {
            if *place >= from {
                *place = place.wrapping_add_signed(by);
            }
        }
    }
}

/// The address and length of an id's text.
fn address(id: &str) -> (usize, usize) {
    (id.as_ptr() as usize, id.len())
}

impl Cards {
    /// The place of card `id` in `slots`.
    fn slot<Q: ?Sized + Hash + Eq + AsRef<str>>(&self, id: &Q) -> Option<usize>
    where
        CardId: Borrow<Q>,
    {
        let index = self.index.get_or_init(|| Arc::new(Index::of(&self.slots)));
        let text = id.as_ref();
        // The address is trusted only while the place holds that very text:
        // a card replaced under the same id has new text, and its old
        // address may since hold another id.
        if let Some(&i) = index.by_address.get(&address(text))
            && self
                .slots
                .get(i)
                .is_some_and(|c| std::ptr::eq(c.id.as_str(), text))
        {
            return Some(i);
        }
        index.by_text.get(id).copied()
    }

    /// The card `id`.
    pub fn get<Q: ?Sized + Hash + Eq + AsRef<str>>(&self, id: &Q) -> Option<&Card>
    where
        CardId: Borrow<Q>,
    {
        self.slot(id).map(|i| &*self.slots[i])
    }

    /// The card `id`, to change: copied first if another copy of the game
    /// still shares it.
    pub fn get_mut<Q: ?Sized + Hash + Eq + AsRef<str>>(&mut self, id: &Q) -> Option<&mut Card>
    where
        CardId: Borrow<Q>,
    {
        let i = self.slot(id)?;
        Some(Arc::make_mut(&mut self.slots[i]))
    }

    /// Whether a card `id` exists.
    pub fn contains_key<Q: ?Sized + Hash + Eq + AsRef<str>>(&self, id: &Q) -> bool
    where
        CardId: Borrow<Q>,
    {
        self.slot(id).is_some()
    }

    /// Adds `card` under its id, or replaces the card of that id (returned).
    pub fn insert(&mut self, card: Card) -> Option<Card> {
        match self.slots.binary_search_by(|c| c.id.cmp(&card.id)) {
            Ok(i) => {
                let old = std::mem::replace(&mut self.slots[i], Arc::new(card));
                // The same id, perhaps in other text: an index this copy
                // alone holds finds the new text by its address too.
                if let Some(index) = self.index.get_mut().and_then(Arc::get_mut) {
                    index.by_address.remove(&address(&old.id));
                    index.by_address.insert(address(&self.slots[i].id), i);
                }
                Some(Arc::unwrap_or_clone(old))
            }
            Err(i) => {
                self.slots.insert(i, Arc::new(card));
                // Keep a built index this copy alone holds (a board being
                // set up adds its cards one by one, looking each id up
                // first): shift the places after `i`. A shared one is
                // dropped and built again on the next lookup.
                match self.index.get_mut().and_then(Arc::get_mut) {
                    Some(index) => {
                        index.shift(i, 1);
                        index.add(&self.slots[i].id, i);
                    }
                    None => self.index = OnceLock::new(),
                }
                None
            }
        }
    }

    /// Adds `cards`, whose ids are new to the map and to each other (a
    /// board being set up): one sort instead of an insert each, which
    /// moved the cards after it every time.
    pub fn extend_new(&mut self, cards: impl IntoIterator<Item = Card>) {
        self.slots.extend(cards.into_iter().map(Arc::new));
        self.slots.sort_by(|a, b| a.id.cmp(&b.id));
        debug_assert!(self.slots.windows(2).all(|w| w[0].id != w[1].id));
        self.index = OnceLock::new();
    }

    /// Removes card `id` and returns it.
    pub fn remove<Q: ?Sized + Hash + Eq + AsRef<str>>(&mut self, id: &Q) -> Option<Card>
    where
        CardId: Borrow<Q>,
    {
        let i = self.slot(id)?;
        let card = self.slots.remove(i);
        match self.index.get_mut().and_then(Arc::get_mut) {
            Some(index) => {
                index.by_address.remove(&address(&card.id));
                index.by_text.remove::<CardId>(&card.id);
                index.shift(i + 1, -1);
            }
            None => self.index = OnceLock::new(),
        }
        Some(Arc::unwrap_or_clone(card))
    }

    /// The number of cards.
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// Whether there are no cards.
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// Every card id, in id order.
    pub fn keys(&self) -> impl DoubleEndedIterator<Item = &CardId> + Clone {
        self.slots.iter().map(|c| &c.id)
    }

    /// Every card, in id order.
    pub fn values(&self) -> impl DoubleEndedIterator<Item = &Card> + Clone {
        self.slots.iter().map(|c| &**c)
    }

    /// Every card with its id, in id order.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = (&CardId, &Card)> + Clone {
        self.slots.iter().map(|c| (&c.id, &**c))
    }

    /// Every card, to change, in id order. This copies every shared card;
    /// where only some cards change, [`Cards::update_where`] copies only
    /// those.
    pub fn values_mut(&mut self) -> impl Iterator<Item = &mut Card> {
        self.slots.iter_mut().map(Arc::make_mut)
    }

    /// Changes, with `change`, every card that `which` selects, copying
    /// only those cards.
    pub fn update_where(
        &mut self,
        which: impl Fn(&Card) -> bool,
        mut change: impl FnMut(&mut Card),
    ) {
        for c in &mut self.slots {
            if which(c) {
                change(Arc::make_mut(c));
            }
        }
    }
}

impl std::fmt::Debug for Cards {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

impl PartialEq for Cards {
    fn eq(&self, other: &Self) -> bool {
        self.slots == other.slots
    }
}

/// `cards[id]`: the card `id`, which must exist (as a map's index).
impl<Q: ?Sized + Hash + Eq + AsRef<str>> std::ops::Index<&Q> for Cards
where
    CardId: Borrow<Q>,
{
    type Output = Card;
    fn index(&self, id: &Q) -> &Card {
        self.get(id).expect("no card with this id")
    }
}

/// An entry of [`Cards`] as a map's iterator gives it.
type Entry<'a> = (&'a CardId, &'a Card);

impl<'a> IntoIterator for &'a Cards {
    type Item = Entry<'a>;
    type IntoIter = std::iter::Map<std::slice::Iter<'a, Arc<Card>>, fn(&'a Arc<Card>) -> Entry<'a>>;
    fn into_iter(self) -> Self::IntoIter {
        self.slots.iter().map(|c| (&c.id, &**c))
    }
}

impl FromIterator<Card> for Cards {
    fn from_iter<I: IntoIterator<Item = Card>>(iter: I) -> Self {
        let mut cards = Cards::default();
        for c in iter {
            cards.insert(c);
        }
        cards
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::state::{PlayerId, ZoneId};

    fn card(id: &str) -> Card {
        Card::new(
            CardId::from(id),
            "def",
            PlayerId::P1,
            ZoneId::of(PlayerId::P1, "hand"),
        )
    }

    #[test]
    fn extend_new_keeps_id_order_and_finds_each() {
        let mut cards = Cards::default();
        cards.insert(card("b"));
        cards.extend_new(["p1.deck.10", "a", "p1.deck.2"].map(card));
        let ids: Vec<&str> = cards.keys().map(|k| k.as_str()).collect();
        assert_eq!(ids, ["a", "b", "p1.deck.10", "p1.deck.2"]);
        assert!(cards.get("p1.deck.2").is_some() && cards.get("b").is_some());
    }

    #[test]
    fn a_copy_shares_cards_until_one_changes() {
        let mut a: Cards = [card("b"), card("a")].into_iter().collect();
        let b = a.clone();
        a.get_mut("a").unwrap().damage = 3;
        assert_eq!(a.get("a").unwrap().damage, 3);
        assert_eq!(
            b.get("a").unwrap().damage,
            0,
            "the copy keeps the card as it was"
        );
        assert!(
            Arc::ptr_eq(&a.slots[1], &b.slots[1]),
            "an unchanged card stays shared"
        );
        assert!(!Arc::ptr_eq(&a.slots[0], &b.slots[0]));
    }

    #[test]
    fn the_index_follows_inserts_and_removals() {
        let mut a: Cards = [card("m"), card("c")].into_iter().collect();
        assert!(a.contains_key("m"), "builds the index");
        a.insert(card("a"));
        a.insert(card("z"));
        a.insert(card("k"));
        assert_eq!(a.remove("c").map(|c| c.id), Some(CardId::from("c")));
        for id in ["a", "k", "m", "z"] {
            assert_eq!(a.get(id).map(|c| &*c.id), Some(id));
        }
        assert!(a.get("c").is_none());
        assert_eq!(
            a.keys().map(|k| &**k).collect::<Vec<_>>(),
            ["a", "k", "m", "z"]
        );
        // A copy shares the index; a change to one copy leaves the other's.
        let shared = a.clone();
        a.insert(card("b"));
        assert_eq!(a.get("b").map(|c| &*c.id), Some("b"));
        assert_eq!(a.get("k").map(|c| &*c.id), Some("k"));
        assert!(shared.get("b").is_none());
        assert_eq!(shared.get("k").map(|c| &*c.id), Some("k"));
    }

    #[test]
    fn an_id_is_found_by_its_text_whatever_its_address() {
        let a: Cards = [card("a"), card("b")].into_iter().collect();
        let own = a.get("a").unwrap().id.clone();
        assert_eq!(a.get(own.as_str()).map(|c| &*c.id), Some("a"));
        // Replaced under the same id: new text at another address, in this
        // copy (index updated) and in a copy sharing the index.
        let shared = a.clone();
        for mut m in [a, shared] {
            m.insert(card("a"));
            let new = m.get("a").unwrap().id.clone();
            assert!(!std::ptr::eq(new.as_str(), own.as_str()));
            assert_eq!(m.get(new.as_str()).map(|c| &*c.id), Some("a"));
            assert_eq!(m.get(own.as_str()).map(|c| &*c.id), Some("a"));
            assert_eq!(m.get(String::from("b").as_str()).map(|c| &*c.id), Some("b"));
            assert!(m.get("c").is_none());
        }
    }

    #[test]
    fn update_where_copies_only_the_selected_cards() {
        let mut a: Cards = [card("b"), card("a")].into_iter().collect();
        let b = a.clone();
        a.update_where(|c| &*c.id == "b", |c| c.damage = 1);
        assert!(Arc::ptr_eq(&a.slots[0], &b.slots[0]));
        assert_eq!(a.get("b").unwrap().damage, 1);
        assert_eq!(b.get("b").unwrap().damage, 0);
        assert_eq!(a.keys().map(|k| &**k).collect::<Vec<_>>(), ["a", "b"]);
    }
}

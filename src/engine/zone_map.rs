//! [`Zones`]: the contents of every zone of a game, each list shared
//! between copies of the game until one copy changes it.
//!
//! The driver copies the whole game before each action so that an illegal
//! action can be rolled back (`Machine::atomically`), and most actions
//! change one or two zones. Each zone's list sits behind an [`Arc`]: a copy
//! of the game shares every list, and [`Zones::get_mut`] copies only the
//! list it is about to change (copy on write), as [`super::card_map::Cards`]
//! does for cards. The zones are kept in [`ZoneId`] order in one vector, so
//! iteration is in the same order a `BTreeMap` gave (determinism); a
//! lookup goes through a hash index shared between copies.

use std::cmp::Ordering;
use std::sync::{Arc, OnceLock};

use rustc_hash::FxHashMap;

use super::ids::{CardId, PlayerId};
use super::state::ZoneId;

/// Every zone's cards, in [`ZoneId`] order, each list shared until changed
/// (see the module doc). It reads like the `BTreeMap<ZoneId, Vec<CardId>>`
/// it replaces: `get`, `get_mut`, `insert`, `iter`.
#[derive(Clone, Default)]
pub struct Zones {
    /// Every zone with its cards, in [`ZoneId`] order.
    slots: Vec<(ZoneId, Arc<Vec<CardId>>)>,
    /// Each zone's place in `slots`, built on the first lookup after the
    /// set of zones changes (a game's zones are fixed once it is set up)
    /// and shared between copies of the game.
    index: OnceLock<Arc<Index>>,
}

/// Each zone's place in [`Zones::slots`], found two ways.
#[derive(Default)]
struct Index {
    /// By player and the address and length of the kind's text: a kind is
    /// a `&'static str`, nearly always the game's zone table's own text,
    /// so its place is found without hashing or comparing the text. Static
    /// text is never freed, so equal addresses and lengths mean equal text.
    by_address: FxHashMap<(Option<PlayerId>, usize, usize), usize>,
    /// By value: a kind written as other text.
    by_value: FxHashMap<ZoneId, usize>,
}

/// A zone's player and the address and length of its kind's text.
fn address(z: &ZoneId) -> (Option<PlayerId>, usize, usize) {
    (z.player, z.kind.as_ptr() as usize, z.kind.len())
}

/// [`ZoneId`] order, with a short cut: zone kinds are `&'static str`s that
/// usually point at the same text (the game's zone table), so equal
/// pointers answer without comparing the text.
fn order(a: &ZoneId, b: &ZoneId) -> Ordering {
    a.player.cmp(&b.player).then_with(|| {
        if std::ptr::eq(a.kind, b.kind) {
            Ordering::Equal
        } else {
            a.kind.cmp(b.kind)
        }
    })
}

impl Zones {
    /// The place of zone `z` in `slots`.
    fn slot(&self, z: &ZoneId) -> Option<usize> {
        let index = self.index.get_or_init(|| {
            let mut index = Index::default();
            index.by_address.reserve(self.slots.len());
            index.by_value.reserve(self.slots.len());
            for (i, (z, _)) in self.slots.iter().enumerate() {
                index.by_address.insert(address(z), i);
                index.by_value.insert(z.clone(), i);
            }
            Arc::new(index)
        });
        match index.by_address.get(&address(z)) {
            Some(&i) => Some(i),
            None => index.by_value.get(z).copied(),
        }
    }

    /// The place of zone `z`, or where it would go (a binary search, for
    /// adding a zone).
    fn place(&self, z: &ZoneId) -> Result<usize, usize> {
        self.slots.binary_search_by(|(k, _)| order(k, z))
    }

    /// Adds zone `z` at place `i` (from [`Zones::place`]); the index is
    /// built again on the next lookup.
    fn add(&mut self, i: usize, z: ZoneId, cards: Vec<CardId>) {
        self.slots.insert(i, (z, Arc::new(cards)));
        self.index = OnceLock::new();
    }

    /// The cards of zone `z`, if the game has it.
    pub fn get(&self, z: &ZoneId) -> Option<&Vec<CardId>> {
        self.slot(z).map(|i| &*self.slots[i].1)
    }

    /// The cards of zone `z`, to change: copied first if another copy of
    /// the game still shares the list.
    pub fn get_mut(&mut self, z: &ZoneId) -> Option<&mut Vec<CardId>> {
        let i = self.slot(z)?;
        Some(Arc::make_mut(&mut self.slots[i].1))
    }

    /// Sets zone `z`'s cards, returning the list it replaces.
    pub fn insert(&mut self, z: ZoneId, cards: Vec<CardId>) -> Option<Vec<CardId>> {
        match self.place(&z) {
            Ok(i) => Some(Arc::unwrap_or_clone(std::mem::replace(
                &mut self.slots[i].1,
                Arc::new(cards),
            ))),
            Err(i) => {
                self.add(i, z, cards);
                None
            }
        }
    }

    /// The cards of zone `z`, to change, the zone added empty if the game
    /// did not have it yet.
    pub fn get_or_default(&mut self, z: ZoneId) -> &mut Vec<CardId> {
        let i = match self.slot(&z) {
            Some(i) => i,
            None => {
                let i = self.place(&z).unwrap_or_else(|i| i);
                self.add(i, z, Vec::new());
                i
            }
        };
        Arc::make_mut(&mut self.slots[i].1)
    }

    /// Zone `z`'s entry, as a map's: `entry(z).or_default()`.
    pub fn entry(&mut self, z: ZoneId) -> Entry<'_> {
        Entry {
            zones: self,
            zone: z,
        }
    }

    /// Every zone with its cards, in [`ZoneId`] order.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = (&ZoneId, &Vec<CardId>)> + Clone {
        self.slots.iter().map(|(z, cards)| (z, &**cards))
    }
}

/// A zone of [`Zones`] that may not exist yet ([`Zones::entry`]).
pub struct Entry<'a> {
    zones: &'a mut Zones,
    zone: ZoneId,
}

impl<'a> Entry<'a> {
    /// The zone's cards, to change; the zone is added empty if missing.
    pub fn or_default(self) -> &'a mut Vec<CardId> {
        self.zones.get_or_default(self.zone)
    }
}

impl<'a> IntoIterator for &'a Zones {
    type Item = (&'a ZoneId, &'a Vec<CardId>);
    type IntoIter = std::iter::Map<
        std::slice::Iter<'a, (ZoneId, Arc<Vec<CardId>>)>,
        fn(&'a (ZoneId, Arc<Vec<CardId>>)) -> (&'a ZoneId, &'a Vec<CardId>),
    >;
    fn into_iter(self) -> Self::IntoIter {
        self.slots.iter().map(|(z, cards)| (z, &**cards))
    }
}

/// The map's debug text, as the `BTreeMap` it replaces printed it (explore
/// compares states by their debug text).
impl std::fmt::Debug for Zones {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

impl FromIterator<(ZoneId, Vec<CardId>)> for Zones {
    /// The zones listed; a zone listed twice keeps its last list.
    fn from_iter<I: IntoIterator<Item = (ZoneId, Vec<CardId>)>>(iter: I) -> Self {
        let mut slots: Vec<(ZoneId, Arc<Vec<CardId>>)> =
            iter.into_iter().map(|(z, c)| (z, Arc::new(c))).collect();
        // Stable: of two entries for one zone, the later stays later.
        slots.sort_by(|a, b| order(&a.0, &b.0));
        let mut kept: Vec<(ZoneId, Arc<Vec<CardId>>)> = Vec::with_capacity(slots.len());
        for entry in slots {
            match kept.last_mut() {
                Some(last) if last.0 == entry.0 => *last = entry,
                _ => kept.push(entry),
            }
        }
        Zones {
            slots: kept,
            index: OnceLock::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(v: &[&str]) -> Vec<CardId> {
        v.iter().map(|s| CardId::from(*s)).collect()
    }

    #[test]
    fn keeps_zone_order_and_finds_by_value() {
        let p1 = PlayerId::all(2).next().unwrap();
        let mut z = Zones::default();
        z.insert(ZoneId::of(p1, "hand"), ids(&["a"]));
        z.insert(ZoneId::shared("stack"), ids(&[]));
        z.insert(ZoneId::of(p1, "deck"), ids(&["b", "c"]));
        let order: Vec<String> = z.iter().map(|(k, _)| k.to_string()).collect();
        assert_eq!(order, ["stack", "p1.deck", "p1.hand"]);
        // A kind written as other text than the table's is found by value.
        let owned = String::from("deck");
        let kind: &'static str = Box::leak(owned.into_boxed_str());
        assert_eq!(z.get(&ZoneId::of(p1, kind)).unwrap().len(), 2);
        assert!(z.get(&ZoneId::of(p1, "field")).is_none());
        // Collected: the same order, a repeated zone keeps its last list.
        let c: Zones = [
            (ZoneId::of(p1, "hand"), ids(&["a"])),
            (ZoneId::shared("stack"), ids(&[])),
            (ZoneId::of(p1, "hand"), ids(&["h"])),
        ]
        .into_iter()
        .collect();
        let keys: Vec<String> = c.iter().map(|(k, _)| k.to_string()).collect();
        assert_eq!(keys, ["stack", "p1.hand"]);
        assert_eq!(c.get(&ZoneId::of(p1, "hand")).unwrap(), &ids(&["h"]));
    }

    #[test]
    fn a_copy_shares_lists_until_one_side_changes() {
        let p1 = PlayerId::all(2).next().unwrap();
        let deck = ZoneId::of(p1, "deck");
        let mut a = Zones::default();
        a.insert(deck.clone(), ids(&["x"]));
        let b = a.clone();
        a.get_mut(&deck).unwrap().push("y".into());
        a.get_or_default(ZoneId::of(p1, "field")).push("z".into());
        assert_eq!(b.get(&deck).unwrap().len(), 1);
        assert_eq!(a.get(&deck).unwrap().len(), 2);
        assert_eq!(b.iter().count(), 1);
        assert_eq!(a.iter().count(), 2);
        assert_eq!(
            format!("{a:?}"),
            format!(
                "{:?}",
                a.iter()
                    .map(|(z, c)| (z.clone(), c.clone()))
                    .collect::<std::collections::BTreeMap<_, _>>()
            )
        );
    }
}

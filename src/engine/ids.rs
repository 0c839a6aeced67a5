//! Typed identifiers: a card instance's id ([`CardId`]), a card definition's
//! key ([`DefKey`]) and a player's seat ([`PlayerId`]). Each serialises exactly as the plain string and number
//! they wrap, so snapshots, traces and scenario files are unchanged.

use std::borrow::Borrow;
use std::fmt;
use std::ops::{Deref, Index, IndexMut};

use serde::{Deserialize, Serialize};

use super::state::Player;

/// A newtype over shared text (`Arc<str>`) that reads as a `&str`
/// (`Deref`, `Borrow<str>`: a map keyed by it is searched with a `&str`),
/// compares with strings and converts from and to them. A game state is
/// copied once per action (the rollback of an illegal one); every such
/// text in it is then a reference count instead of a new string.
macro_rules! shared_text {
    ($(#[$meta:meta])* $name:ident) => {
        $(#[$meta])*
        #[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
        #[serde(transparent)]
        pub struct $name(std::sync::Arc<str>);
        impl Default for $name {
            fn default() -> Self {
                $name("".into())
            }
        }

        impl $name {
            /// From the text `id`.
            pub fn new(id: impl Into<String>) -> Self {
                $name(id.into().into())
            }
            /// The text.
            pub fn as_str(&self) -> &str {
                &self.0
            }
            /// The text, owned.
            pub fn into_string(self) -> String {
                self.0.to_string()
            }
        }

        impl Deref for $name {
            type Target = str;
            fn deref(&self) -> &str {
                &self.0
            }
        }

        impl Borrow<str> for $name {
            fn borrow(&self) -> &str {
                &self.0
            }
        }

        impl AsRef<str> for $name {
            fn as_ref(&self) -> &str {
                &self.0
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(&self.0)
            }
        }

        impl From<&str> for $name {
            fn from(s: &str) -> Self {
                $name(s.into())
            }
        }

        impl From<String> for $name {
            fn from(s: String) -> Self {
                $name(s.into())
            }
        }

        impl From<&String> for $name {
            fn from(s: &String) -> Self {
                $name(s.as_str().into())
            }
        }

        impl From<&$name> for $name {
            fn from(s: &$name) -> Self {
                s.clone()
            }
        }

        impl From<$name> for String {
            fn from(c: $name) -> Self {
                c.0.to_string()
            }
        }

        impl From<&$name> for String {
            fn from(c: &$name) -> Self {
                c.0.to_string()
            }
        }

        impl PartialEq<str> for $name {
            fn eq(&self, other: &str) -> bool {
                &*self.0 == other
            }
        }

        impl PartialEq<&str> for $name {
            fn eq(&self, other: &&str) -> bool {
                &*self.0 == *other
            }
        }

        impl PartialEq<String> for $name {
            fn eq(&self, other: &String) -> bool {
                &*self.0 == other.as_str()
            }
        }

        impl PartialEq<$name> for str {
            fn eq(&self, other: &$name) -> bool {
                self == &*other.0
            }
        }

        impl PartialEq<$name> for &str {
            fn eq(&self, other: &$name) -> bool {
                **self == *other.0
            }
        }

        impl PartialEq<$name> for String {
            fn eq(&self, other: &$name) -> bool {
                self.as_str() == &*other.0
            }
        }
    };
}

shared_text!(
    /// A stable card id, as written in the scenario (`f1`, `opp-ward`) or
    /// generated (`p1.deck.3`, `token.1`).
    CardId
);

shared_text!(
    /// The key of a card's definition in the scenario's `cards` (and in
    /// [`super::state::Defs`]): every card of that definition shares one
    /// copy of the text.
    DefKey
);

/// A player's seat: 0 = `p1`, 1 = `p2`, … (scenario files use `p1`, `p2`;
/// see [`super::state::player_name`]). `Display` prints the bare index, as
/// the plain number did; `game.players[p]` indexes by it.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[serde(transparent)]
pub struct PlayerId(pub usize);

impl PlayerId {
    /// The first player, `p1`.
    pub const P1: PlayerId = PlayerId(0);
    /// The second player, `p2`.
    pub const P2: PlayerId = PlayerId(1);

    /// The player at seat `index` (0-based).
    pub const fn new(index: usize) -> Self {
        PlayerId(index)
    }
    /// The 0-based seat.
    pub const fn index(self) -> usize {
        self.0
    }
    /// The other player of a two-player game.
    pub const fn other(self) -> Self {
        PlayerId(self.0 ^ 1)
    }
    /// The next seat after this one among `count` players, wrapping round.
    pub const fn next(self, count: usize) -> Self {
        PlayerId((self.0 + 1) % if count == 0 { 1 } else { count })
    }
    /// The seat `k` places after this one among `count` players, wrapping
    /// round (`after(1, n)` is [`PlayerId::next`]).
    pub const fn after(self, k: usize, count: usize) -> Self {
        PlayerId((self.0 + k) % if count == 0 { 1 } else { count })
    }
    /// Every player of a game of `count` players, in seat order.
    pub fn all(count: usize) -> impl DoubleEndedIterator<Item = PlayerId> + Clone {
        (0..count).map(PlayerId)
    }
}

impl fmt::Display for PlayerId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

impl From<usize> for PlayerId {
    fn from(i: usize) -> Self {
        PlayerId(i)
    }
}

impl From<PlayerId> for usize {
    fn from(p: PlayerId) -> Self {
        p.0
    }
}

impl Index<PlayerId> for Vec<Player> {
    type Output = Player;
    fn index(&self, p: PlayerId) -> &Player {
        &self[p.0]
    }
}

impl IndexMut<PlayerId> for Vec<Player> {
    fn index_mut(&mut self, p: PlayerId) -> &mut Player {
        &mut self[p.0]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_serialise_as_their_plain_values() {
        assert_eq!(
            serde_json::to_string(&CardId::from("f1")).unwrap(),
            "\"f1\""
        );
        assert_eq!(serde_json::to_string(&PlayerId(1)).unwrap(), "1");
        let c: CardId = serde_json::from_str("\"x\"").unwrap();
        assert_eq!(c, "x");
    }

    #[test]
    fn a_card_id_reads_as_text() {
        let c = CardId::from("f1");
        let mut m = std::collections::BTreeMap::new();
        m.insert(c.clone(), 1);
        assert_eq!(m.get("f1"), Some(&1));
        assert_eq!(c.len(), 2);
        assert_eq!(format!("{c}"), "f1");
        assert_eq!(c, "f1");
        assert_eq!("f1", c);
        let owned = String::from("f1");
        assert_eq!(c, owned);
    }

    #[test]
    fn players_are_seats() {
        assert_eq!(PlayerId::P1.other(), PlayerId::P2);
        assert_eq!(PlayerId::P2.other(), PlayerId::P1);
        assert_eq!(PlayerId(2).next(3), PlayerId(0));
        assert_eq!(format!("{}", PlayerId(1)), "1");
        assert_eq!(
            PlayerId::all(2).collect::<Vec<_>>(),
            vec![PlayerId::P1, PlayerId::P2]
        );
    }
}

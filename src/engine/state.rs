//! The game-agnostic game state: players, card instances with stable ids,
//! zones (visibility, order, owner, limit), characteristics with modifiers,
//! counters, damage, attachments, events and pending triggered abilities.
//!
//! Everything is kept in ordered collections (`BTreeMap`, `Vec`) so that
//! snapshots and traces are byte-identical from run to run.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use serde::Serialize;

use super::card::{CardDef, Until, Who};
use super::rng::Rng;
use super::zone_map::Zones;

pub use super::card_map::Cards;
pub use super::ids::{CardId, DefKey, PlayerId};

/// The scenario name of a player index.
pub fn player_name(p: PlayerId) -> String {
    format!("p{}", p.index() + 1)
}

/// Several players' names, `p1, p2`.
pub fn player_names(ps: &[PlayerId]) -> String {
    ps.iter()
        .map(|p| player_name(*p))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Parses `p1`, `p2`, … into an index below `count`.
pub fn parse_player(s: &str, count: usize) -> Option<PlayerId> {
    let n: usize = s.strip_prefix('p')?.parse().ok()?;
    n.checked_sub(1).filter(|&i| i < count).map(PlayerId)
}

/// What something is dealt to: a card or a player (damage goes to either).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub enum Recipient {
    /// A card, by id.
    Card(CardId),
    /// A player.
    Player(PlayerId),
}

impl Recipient {
    /// A target word as effects resolve them: a player's name (`p1`) or a
    /// card id.
    pub fn of(word: &str, players: usize) -> Self {
        match parse_player(word, players) {
            Some(p) => Recipient::Player(p),
            None => Recipient::Card(word.into()),
        }
    }
    /// The card, if it is one.
    pub fn card(&self) -> Option<&CardId> {
        match self {
            Recipient::Card(c) => Some(c),
            Recipient::Player(_) => None,
        }
    }
    /// The player, if it is one.
    pub fn player(&self) -> Option<PlayerId> {
        match self {
            Recipient::Player(p) => Some(*p),
            Recipient::Card(_) => None,
        }
    }
}

impl std::fmt::Display for Recipient {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Recipient::Card(c) => f.write_str(c),
            Recipient::Player(p) => f.write_str(&player_name(*p)),
        }
    }
}

/// Who may see the cards of a zone.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Visibility {
    /// Everyone (field, cemetery).
    Public,
    /// The zone's player only (hand).
    Private,
    /// No one (deck).
    Hidden,
}

/// A kind of zone, declared by a game module.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct ZoneSpec {
    /// Name used in scenario files (`field`, `hand`, `deck`…).
    pub name: &'static str,
    /// Who sees it.
    pub visibility: Visibility,
    /// Whether order matters (decks, stacks). Unordered zones are still kept
    /// in a deterministic order (arrival order).
    pub ordered: bool,
    /// Maximum number of cards, if the rules set one.
    pub limit: Option<usize>,
    /// One zone shared by all players (e.g. a resolution area) instead of one
    /// per player. Shared zones are addressed with player `None`.
    pub shared: bool,
    /// The rule that defines the zone.
    pub rule: &'static str,
}

impl ZoneSpec {
    /// A zone kind with no card limit: one per player, or one `shared` by
    /// all players.
    pub const fn new(
        name: &'static str,
        visibility: Visibility,
        ordered: bool,
        shared: bool,
        rule: &'static str,
    ) -> Self {
        ZoneSpec {
            name,
            visibility,
            ordered,
            limit: None,
            shared,
            rule,
        }
    }
    /// The same zone kind holding at most `limit` cards.
    pub const fn limited(self, limit: usize) -> Self {
        ZoneSpec {
            limit: Some(limit),
            ..self
        }
    }
}

/// A numeric player value declared by a game module (life, PP, EP…).
#[derive(Debug, Clone, Copy, Serialize)]
pub struct ValueSpec {
    /// Name used in scenario files.
    pub name: &'static str,
    /// Inclusive lower bound, if any.
    pub min: Option<i64>,
    /// Inclusive upper bound, if any (a fixed bound; dynamic bounds such as
    /// "PP ≤ max PP" are the game module's business).
    pub max: Option<i64>,
    /// Value when the scenario does not give one.
    pub default: i64,
    /// The rule that defines it.
    pub rule: &'static str,
}

/// A zone address: kind + owning player (`None` for a shared zone).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct ZoneId {
    pub player: Option<PlayerId>,
    pub kind: &'static str,
}

impl ZoneId {
    /// A player's zone.
    pub fn of(player: PlayerId, kind: &'static str) -> Self {
        ZoneId {
            player: Some(player),
            kind,
        }
    }
    /// A shared zone.
    pub fn shared(kind: &'static str) -> Self {
        ZoneId { player: None, kind }
    }
}

impl std::fmt::Display for ZoneId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.player {
            Some(p) => write!(f, "{}.{}", player_name(p), self.kind),
            None => write!(f, "{}", self.kind),
        }
    }
}

/// A temporary or permanent change to a characteristic.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Modifier {
    /// The characteristic (`attack`, `defense`, `cost`…).
    pub stat: String,
    /// Amount added, or with `set` the value set.
    pub delta: i64,
    /// A change to the value `delta` rather than an addition.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub set: bool,
    /// With `set`: the text says "always" (常に), a change the game may
    /// order after every other modification. A modifier of stat
    /// [`SWAP_STAT`] swaps attack and defense and uses neither.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub always: bool,
    /// How long it lasts.
    #[serde(skip)]
    pub until: Until,
    /// The card whose ability created it.
    pub source: CardId,
}

impl Modifier {
    /// An addition of `delta` to `stat` lasting `until`, created by
    /// `source`'s ability.
    pub fn addition(stat: &str, delta: i64, until: Until, source: &str) -> Self {
        Modifier {
            stat: stat.to_string(),
            delta,
            set: false,
            always: false,
            until,
            source: source.into(),
        }
    }
}

/// One card instance in the game (tokens included).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Card {
    /// Stable id.
    pub id: CardId,
    /// Key of its definition in the scenario's `cards`.
    pub def: DefKey,
    /// The player who started the game with it (or created it, for tokens).
    pub owner: PlayerId,
    /// The player whose zone holds it (master / controller).
    pub controller: PlayerId,
    /// Where it is.
    pub zone: ZoneId,
    /// Boolean states (`engaged`, `face_up`, `arrived_this_turn`…), from the
    /// game's list.
    pub states: BTreeSet<String>,
    /// Damage marked on it (for games where damage accumulates).
    pub damage: i64,
    /// Named counters (15.1-style: same name = same kind).
    pub counters: BTreeMap<String, i64>,
    /// The card this one is attached to (evolve cards, equipment).
    pub attached_to: Option<CardId>,
    /// Active modifiers, oldest first (timestamp order).
    pub modifiers: Vec<Modifier>,
    /// A token: ceases to exist outside the zones its game allows.
    pub token: bool,
    /// Zone-change count: a card that changes zones becomes a new object.
    pub incarnation: u32,
    /// The alternate face the card shows, if not its own normal face (see
    /// [`Game::show_alternate`]).
    pub face: Option<ShownFace>,
}

/// An alternate face a card shows: whose face it is and the definition the
/// card is read from meanwhile.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ShownFace {
    /// The card whose definition prints the face: the card itself, or a card
    /// attached to it that gives it the face (PMV 10.13.6).
    pub source: CardId,
    /// Key in [`Game::defs`] of the definition the card is read from.
    pub def: DefKey,
}

impl Card {
    /// A card of definition `def` in `zone`, owned and controlled by
    /// `owner`, as it is when it first arrives: no state, damage, counters,
    /// attachment or modifiers, not a token, its first incarnation, its own
    /// face. Callers change what differs with struct-update syntax.
    pub fn new(
        id: impl Into<CardId>,
        def: impl Into<DefKey>,
        owner: PlayerId,
        zone: ZoneId,
    ) -> Card {
        Card {
            id: id.into(),
            def: def.into(),
            owner,
            controller: owner,
            zone,
            states: BTreeSet::new(),
            damage: 0,
            counters: BTreeMap::new(),
            attached_to: None,
            modifiers: Vec::new(),
            token: false,
            incarnation: 0,
            face: None,
        }
    }

    /// Gives the card `+attack/+defense` (an effect's buff) lasting `until`,
    /// created by `source`'s ability: one addition per changed value, none
    /// for a ±0 part.
    pub fn buff(&mut self, attack: i64, defense: i64, until: Until, source: &str) {
        for (stat, delta) in [("attack", attack), ("defense", defense)] {
            if delta != 0 {
                self.modifiers
                    .push(Modifier::addition(stat, delta, until, source));
            }
        }
    }

    /// Whether the card has state `s`.
    pub fn has(&self, s: &str) -> bool {
        self.states.contains(s)
    }
    /// Sum of modifiers to `stat`.
    pub fn modifier(&self, stat: &str) -> i64 {
        self.modifiers
            .iter()
            .filter(|m| m.stat == stat && !m.set)
            .map(|m| m.delta)
            .sum()
    }

    /// The value the latest `set` modifier of `stat` sets, if any
    /// (modifiers are kept in the order they were applied).
    pub fn set_value(&self, stat: &str) -> Option<i64> {
        self.modifiers
            .iter()
            .rev()
            .find(|m| m.stat == stat && m.set && !m.always)
            .map(|m| m.delta)
    }

    /// The value the latest "always" (常に) `set` modifier of `stat` sets.
    pub fn always_value(&self, stat: &str) -> Option<i64> {
        self.modifiers
            .iter()
            .rev()
            .find(|m| m.stat == stat && m.set && m.always)
            .map(|m| m.delta)
    }

    /// How many swaps of attack and defense (stat [`SWAP_STAT`]) apply.
    pub fn swaps(&self) -> usize {
        self.modifiers
            .iter()
            .filter(|m| m.stat == SWAP_STAT)
            .count()
    }
}

/// The `stat` of a [`Modifier`] that swaps attack and defense (入れ替え).
pub const SWAP_STAT: &str = "swap";

/// A player's state.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Player {
    /// Numeric values declared by the game (`defense`, `pp`, `max_pp`, `ep`).
    pub values: BTreeMap<String, i64>,
    /// Per-turn or per-game flags the game keeps (e.g. "drew from an empty
    /// deck since the last rule processing").
    pub flags: BTreeSet<String>,
    /// The player has lost (they may still be "in the game" until the game
    /// module declares the result).
    pub lost: bool,
}

impl Player {
    /// A numeric value (0 if the game never declared it).
    pub fn value(&self, name: &str) -> i64 {
        self.values.get(name).copied().unwrap_or(0)
    }
}

/// The outcome of the game so far.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "result", content = "winner")]
pub enum GameResult {
    /// Nobody has won yet.
    Ongoing,
    /// This player won.
    Win(String),
    /// Everyone lost at once, or an unbreakable loop.
    Draw,
}

/// Whose turn, which phase.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TurnState {
    /// Turn number, counted from 1 across both players.
    pub number: u32,
    /// The turn player.
    pub active: PlayerId,
    /// The player who went first.
    pub first: PlayerId,
    /// Phase name from the game's list.
    pub phase: String,
}

/// A game event, produced by procedures and read by trigger collection.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    /// A card moved between zones (new object in the new zone).
    Moved {
        card: CardId,
        from: ZoneId,
        to: ZoneId,
    },
    /// A card was played.
    Played { card: CardId, player: PlayerId },
    /// A card attacked.
    Attacked { card: CardId },
    /// A card was dealt damage.
    Damaged {
        card: Option<CardId>,
        player: Option<PlayerId>,
        source: CardId,
        amount: i64,
        /// The game's kind of damage (`attack`, `combat`, `ability`).
        kind: &'static str,
    },
    /// Two cards fought (were in combat when damage was dealt).
    Fought { a: CardId, b: CardId },
    /// A card was transformed in place (SVE's evolve, 5.15; PMV's 変身).
    Transformed { card: CardId },
    /// A phase began.
    PhaseBegan { phase: String, player: PlayerId },
}

/// A triggered ability waiting to be played (待機状態 and its equivalents).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Pending {
    /// The card whose ability triggered.
    pub card: CardId,
    /// The definition the ability is read from (last known information:
    /// the card may have changed zones or ceased to exist since).
    pub def: String,
    /// Index of the ability in the card's definition.
    pub ability: usize,
    /// The trigger word (for the trace and for choice keys).
    pub trigger: String,
    /// Who plays it.
    pub master: PlayerId,
    /// Extra data the game attaches (e.g. the damage amount for a drain).
    pub amount: i64,
}

impl Pending {
    /// The name scenarios use to order or target this pending ability:
    /// `<card>.<trigger>`.
    pub fn key(&self) -> String {
        format!("{}.{}", self.card, self.trigger)
    }
}

/// The card definitions of a game, by key: a map shared by every copy of
/// the game (copy on write). A rejected action is rolled back by cloning the
/// [`Game`], once per action; definitions almost never change during a
/// game (a face shown, PMV 2.17), so sharing them keeps that clone to the
/// state that does change. Reads go through `Deref` to the map, in key
/// order, except [`Defs::get`] and [`Defs::contains_key`], which hash (a
/// game asks for a card's definition at every step); a write copies the
/// map first if another game shares it.
#[derive(Debug, Clone, Default)]
pub struct Defs(Arc<DefTable>);

/// The definitions in key order, and the same by hash.
#[derive(Debug, Clone, Default)]
struct DefTable {
    in_order: BTreeMap<String, Arc<CardDef>>,
    by_key: rustc_hash::FxHashMap<String, Arc<CardDef>>,
}

impl PartialEq for Defs {
    fn eq(&self, other: &Self) -> bool {
        self.0.in_order == other.0.in_order
    }
}

impl std::ops::Deref for Defs {
    type Target = BTreeMap<String, Arc<CardDef>>;
    fn deref(&self) -> &Self::Target {
        &self.0.in_order
    }
}

impl Defs {
    /// The definition under `key`.
    pub fn get(&self, key: &(impl AsRef<str> + ?Sized)) -> Option<&Arc<CardDef>> {
        self.0.by_key.get(key.as_ref())
    }

    /// Whether a definition is under `key`.
    pub fn contains_key(&self, key: &(impl AsRef<str> + ?Sized)) -> bool {
        self.0.by_key.contains_key(key.as_ref())
    }

    /// Whether some definition of the game prints an ability that `is`
    /// admits. A game asks it before walking the board for abilities of a
    /// kind (static, continuous, information-changing): most games print
    /// none, and the question is asked on every keyword or stat check.
    pub fn prints_ability(&self, is: impl Fn(&super::card::AbilityDef) -> bool) -> bool {
        self.0
            .in_order
            .values()
            .any(|d| d.abilities.iter().any(&is))
    }

    /// Adds (or replaces) the definition under `key`; the map is copied
    /// first if another game shares it, the definitions are not.
    pub fn insert(&mut self, key: String, def: CardDef) -> Option<Arc<CardDef>> {
        let table = Arc::make_mut(&mut self.0);
        let def = Arc::new(def);
        table.by_key.insert(key.clone(), def.clone());
        table.in_order.insert(key, def)
    }

    /// Changes every definition (a test's variant of a board); each is
    /// copied first if another game shares it.
    pub fn change_each(&mut self, mut change: impl FnMut(&mut CardDef)) {
        let table = Arc::make_mut(&mut self.0);
        for def in table.in_order.values_mut() {
            change(Arc::make_mut(def));
        }
        table.by_key = index(&table.in_order);
    }

    /// Adds the definition under `key` unless one is there already.
    pub fn insert_if_absent(&mut self, key: String, def: impl FnOnce() -> CardDef) {
        if !self.contains_key(&key) {
            self.insert(key, def());
        }
    }
}

impl From<BTreeMap<String, CardDef>> for Defs {
    fn from(map: BTreeMap<String, CardDef>) -> Self {
        let in_order = map.into_iter().map(|(k, d)| (k, Arc::new(d))).collect();
        let by_key = index(&in_order);
        Defs(Arc::new(DefTable { in_order, by_key }))
    }
}

/// The hash side of a [`DefTable`].
fn index(in_order: &BTreeMap<String, Arc<CardDef>>) -> rustc_hash::FxHashMap<String, Arc<CardDef>> {
    in_order
        .iter()
        .map(|(k, d)| (k.clone(), d.clone()))
        .collect()
}

impl<'a> IntoIterator for &'a Defs {
    type Item = (&'a String, &'a Arc<CardDef>);
    type IntoIter = std::collections::btree_map::Iter<'a, String, Arc<CardDef>>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.in_order.iter()
    }
}

/// The start of the ids the engine gives the tokens it creates
/// ([`Game::new_token_id`]: `token.1`, `token.2`…); scenario files may
/// not give other cards such ids.
pub const TOKEN_PREFIX: &str = "token.";

/// The complete game state. Cloning it is how a rejected action is rolled
/// back.
#[derive(Debug, Clone)]
pub struct Game {
    /// Card definitions by key, shared between copies of the game until one
    /// of them changes a definition (see [`Defs`]).
    pub defs: Defs,
    /// Players, indexed by `PlayerId`.
    pub players: Vec<Player>,
    /// Every card instance by id.
    pub cards: Cards,
    /// The contents of every zone, in order (index 0 = top for decks).
    pub zones: Zones,
    /// Zone kinds of the game.
    pub zone_specs: &'static [ZoneSpec],
    /// Turn and phase.
    pub turn: TurnState,
    /// The seeded generator.
    pub rng: Rng,
    /// The result so far.
    pub result: GameResult,
    /// Events since the game module last collected triggers.
    pub events: Vec<Event>,
    /// Pending triggered abilities, in the order they triggered.
    pub pending: Vec<Pending>,
    /// The game module's own typed state (see [`Game::own`]).
    pub own: Own,
    /// Counter for generated ids (tokens).
    pub next_token: u32,
    /// What the scenario says is in progress when it starts (its
    /// `state.in_progress`, the game's own shape): the game's `start`
    /// hook resumes there instead of at the phase's beginning.
    pub in_progress: Option<serde_json::Value>,
}

impl Game {
    /// Shuffles zone `z` with the game's seeded generator and returns how
    /// many cards it holds; a zone not in the game stays absent (0).
    pub fn shuffle_zone(&mut self, z: &ZoneId) -> usize {
        let Some(cards) = self.zones.get_mut(z) else {
            return 0;
        };
        self.rng.shuffle(cards);
        cards.len()
    }

    /// An empty game with `players` players.
    pub fn new(zone_specs: &'static [ZoneSpec], players: usize, seed: u64) -> Self {
        let zones: Zones = zone_specs
            .iter()
            .flat_map(|spec| {
                let seats: Vec<Option<PlayerId>> = if spec.shared {
                    vec![None]
                } else {
                    PlayerId::all(players).map(Some).collect()
                };
                seats.into_iter().map(|player| {
                    (
                        ZoneId {
                            player,
                            kind: spec.name,
                        },
                        Vec::new(),
                    )
                })
            })
            .collect();
        Game {
            defs: Defs::default(),
            players: (0..players)
                .map(|_| Player {
                    values: BTreeMap::new(),
                    flags: BTreeSet::new(),
                    lost: false,
                })
                .collect(),
            cards: Cards::default(),
            zones,
            zone_specs,
            turn: TurnState {
                number: 1,
                active: PlayerId::P1,
                first: PlayerId::P1,
                phase: String::new(),
            },
            rng: Rng::new(seed),
            result: GameResult::Ongoing,
            events: Vec::new(),
            pending: Vec::new(),
            own: Own::default(),
            next_token: 0,
            in_progress: None,
        }
    }

    /// The game module's own state of type `T` (its counters and flags,
    /// with names and types the core does not know), created with its
    /// default on first use. A module keeps one such type (a state of
    /// another type replaces it). It is part of the state: cloned with it, so a
    /// rejected action rolls it back too.
    pub fn own<T: GameState + Default>(&mut self) -> &mut T {
        if !self.own.0.as_ref().is_some_and(|b| b.as_any().is::<T>()) {
            self.own.0 = Some(Box::new(T::default()));
        }
        self.own
            .0
            .as_mut()
            .and_then(|b| b.as_any_mut().downcast_mut::<T>())
            .expect("just set to a T")
    }

    /// The game module's own state of type `T`, if it has one yet (read
    /// without creating it; `None` reads as the default).
    pub fn own_ref<T: GameState>(&self) -> Option<&T> {
        self.own.0.as_ref()?.as_any().downcast_ref::<T>()
    }

    /// The spec of zone kind `name`.
    pub fn zone_spec(&self, name: &str) -> Option<&'static ZoneSpec> {
        // Callers pass the game's own constant, which the release build
        // (one codegen unit, fat LTO) merges with the table's text:
        // comparing pointers first skips the text compares. (A one-pass
        // compare of both was faster with several codegen units, which keep
        // a copy each, and slower here.)
        self.zone_specs
            .iter()
            .find(|z| std::ptr::eq(z.name, name))
            .or_else(|| self.zone_specs.iter().find(|z| z.name == name))
    }

    /// The zone id for kind `name` of `player` (ignoring `player` for a
    /// shared zone), or `None` for an unknown kind.
    pub fn zone_id(&self, player: PlayerId, name: &str) -> Option<ZoneId> {
        let spec = self.zone_spec(name)?;
        Some(if spec.shared {
            ZoneId::shared(spec.name)
        } else {
            ZoneId::of(player, spec.name)
        })
    }

    /// The cards of a zone, in order.
    pub fn zone(&self, z: &ZoneId) -> &[CardId] {
        self.zones.get(z).map(Vec::as_slice).unwrap_or(&[])
    }

    /// The cards of `player`'s zone kind `name`.
    pub fn zone_of(&self, player: PlayerId, name: &str) -> &[CardId] {
        match self.zone_id(player, name) {
            Some(z) => self.zone(&z),
            None => &[],
        }
    }

    /// A card by id. Panics never: callers look ids up through this.
    pub fn card(&self, id: &str) -> Option<&Card> {
        self.cards.get(id)
    }

    /// The definition of a card: the face it shows (its own definition
    /// unless it shows an alternate face).
    pub fn def_of(&self, id: &str) -> Option<&Arc<CardDef>> {
        self.cards.get(id).and_then(|c| {
            let key = c.face.as_ref().map_or(&c.def, |f| &f.def);
            self.defs.get(key)
        })
    }

    /// Turns `card` to the alternate face printed on the definition of card
    /// `source` (itself, or a card that gives it the face): from then on
    /// [`Game::def_of`] reads `card` as its own definition showing that face
    /// ([`CardDef::showing`]). The card stays the same object: states,
    /// damage, counters and modifiers are kept. Returns `false`, changing
    /// nothing, when `source` prints no alternate face.
    pub fn show_alternate(&mut self, card: &str, source: &str) -> bool {
        let Some(base) = self.cards.get(card).map(|c| c.def.clone()) else {
            return false;
        };
        let Some(face) = self.def_of_base(source).and_then(|d| d.alternate.clone()) else {
            return false;
        };
        let Some(shown) = self.defs.get(&base).map(|d| d.showing(&face)) else {
            return false;
        };
        let src_def = self
            .cards
            .get(source)
            .map(|c| c.def.clone())
            .unwrap_or_default();
        let key = alternate_key(&base, &src_def);
        self.defs.insert_if_absent(key.clone(), || shown);
        if let Some(c) = self.cards.get_mut(card) {
            c.face = Some(ShownFace {
                source: source.into(),
                def: key.into(),
            });
        }
        true
    }

    /// The card whose definition prints the alternate face `card` shows
    /// ([`Game::show_alternate`]): `None` when it shows its normal face or
    /// a description no card prints (one an effect gives it).
    pub fn printed_face_source(&self, card: &str) -> Option<&str> {
        let c = self.cards.get(card)?;
        let face = c.face.as_ref()?;
        let src = self.cards.get(face.source.as_ref())?;
        (face.def == alternate_key(&c.def, &src.def)).then_some(face.source.as_ref())
    }

    /// Turns `card` back to its own normal face. Returns whether it showed
    /// an alternate face.
    pub fn show_normal(&mut self, card: &str) -> bool {
        self.cards
            .get_mut(card)
            .is_some_and(|c| c.face.take().is_some())
    }

    /// A card's own definition, whatever face it shows.
    /// Ability number `ability` of definition `def`, if both exist.
    pub fn ability(&self, def: &str, ability: usize) -> Option<&crate::engine::AbilityDef> {
        self.defs.get(def).and_then(|d| d.abilities.get(ability))
    }

    /// The effects of ability number `ability` of definition `def` (none
    /// when either is missing).
    pub fn ability_effects(&self, def: &str, ability: usize) -> Vec<crate::engine::Effect> {
        self.ability(def, ability)
            .map(|a| a.effect.clone())
            .unwrap_or_default()
    }

    /// Whether any player set the reading flag `flag` (a scenario switches
    /// the engine to the other reading of an ambiguous rule this way).
    pub fn reading_on(&self, flag: &str) -> bool {
        self.players.iter().any(|p| p.flags.contains(flag))
    }

    /// The card type of a card as shown now (`unknown` for an anonymous
    /// card).
    pub fn card_type(&self, id: &str) -> &str {
        self.def_of(id).map_or("unknown", |d| d.card_type.as_str())
    }

    pub fn def_of_base(&self, id: &str) -> Option<&Arc<CardDef>> {
        self.cards.get(id).and_then(|c| self.defs.get(&c.def))
    }

    /// The players `who` names, relative to `master`; both players are
    /// listed turn player first (steps without choices happen together,
    /// turn player's first).
    pub fn who(&self, master: PlayerId, who: Who) -> Vec<PlayerId> {
        match who {
            Who::You => vec![master],
            Who::Opponent => vec![self.opponent(master)],
            Who::Both => {
                let tp = self.turn.active;
                vec![tp, self.opponent(tp)]
            }
        }
    }

    /// An effect makes `winners` win: every other player loses (the
    /// module's game-over check then decides the result).
    pub fn win(&mut self, winners: &[PlayerId]) {
        for (p, pl) in self.players.iter_mut().enumerate() {
            if !winners.contains(&PlayerId(p)) {
                pl.lost = true;
            }
        }
    }

    /// The result the players' losses make: the one player who has not
    /// lost wins, every player losing at once is a draw, and while nobody
    /// (or not all but one) has lost the game goes on. The rule is every
    /// game's; each game cites its own clauses for it.
    pub fn result_by_losses(&self) -> GameResult {
        let left: Vec<PlayerId> = self
            .player_ids()
            .filter(|&p| !self.players[p].lost)
            .collect();
        match left.as_slice() {
            _ if left.len() == self.players.len() => GameResult::Ongoing,
            [w] => GameResult::Win(player_name(*w)),
            [] => GameResult::Draw,
            _ => GameResult::Ongoing,
        }
    }

    /// Every player, in seat order (the iterator borrows nothing: the
    /// game may change while it runs).
    pub fn player_ids(&self) -> impl DoubleEndedIterator<Item = PlayerId> + Clone + use<> {
        PlayerId::all(self.players.len())
    }

    /// Every player with its state, in seat order.
    pub fn seats(&self) -> impl DoubleEndedIterator<Item = (PlayerId, &Player)> {
        self.players
            .iter()
            .enumerate()
            .map(|(i, p)| (PlayerId(i), p))
    }

    /// The opponent of `p` in a two-player game.
    pub fn opponent(&self, p: PlayerId) -> PlayerId {
        p.next(self.players.len())
    }

    /// A player's numeric value.
    pub fn value(&self, p: PlayerId, name: &str) -> i64 {
        self.players
            .get(p.index())
            .map(|pl| pl.value(name))
            .unwrap_or(0)
    }

    /// Sets a player's numeric value and returns the old one.
    pub fn set_value(&mut self, p: PlayerId, name: &str, v: i64) -> i64 {
        match self.players.get_mut(p.index()) {
            Some(pl) => pl.values.insert(name.to_string(), v).unwrap_or(0),
            None => 0,
        }
    }

    /// Moves `card` to the end (`top == false`) or start of zone `to`,
    /// records a `Moved` event, and makes it a new object: states, damage,
    /// counters and modifiers are cleared (4.1.4-style rules in every game).
    /// Returns the zone it came from.
    pub fn move_card(&mut self, card: &str, to: ZoneId, top: bool) -> Option<ZoneId> {
        // The card's own id: its text is shared, not copied, and lookups by
        // it are found by address (`Cards`).
        let (from, id) = {
            let c = self.cards.get(card)?;
            (c.zone.clone(), c.id.clone())
        };
        if let Some(v) = self.zones.get_mut(&from) {
            v.retain(|c| c != card);
        }
        let dest = self.zones.get_or_default(to.clone());
        if top {
            dest.insert(0, id.clone());
        } else {
            dest.push(id.clone());
        }
        let c = self.cards.get_mut(card)?;
        c.zone = to.clone();
        if let Some(p) = to.player {
            c.controller = p;
        }
        c.states.clear();
        c.damage = 0;
        c.counters.clear();
        c.modifiers.clear();
        c.attached_to = None;
        // The new object shows its normal face.
        c.face = None;
        c.incarnation += 1;
        // An attachment to the moved card ends: the new object is not the
        // card it was attached to (e.g. SVE 5.15.4, 14.2.1.3).
        self.cards.update_where(
            |other| other.attached_to.as_deref() == Some(card),
            |other| other.attached_to = None,
        );
        self.events.push(Event::Moved {
            card: id,
            from: from.clone(),
            to,
        });
        Some(from)
    }

    /// Removes a card from the game entirely (a token ceasing to exist).
    pub fn erase(&mut self, card: &str) {
        if let Some(c) = self.cards.remove(card)
            && let Some(v) = self.zones.get_mut(&c.zone)
        {
            v.retain(|x| x != card);
        }
    }

    /// Adds `cards`, whose ids are new (a board being set up), each at the
    /// end of its zone, in order: as [`Game::add_card`] one by one would.
    pub fn add_cards(&mut self, cards: Vec<Card>) {
        for run in cards.chunk_by(|a, b| a.zone == b.zone) {
            self.zones
                .get_or_default(run[0].zone.clone())
                .extend(run.iter().map(|c| c.id.clone()));
        }
        self.cards.extend_new(cards);
    }

    /// Adds a new card instance at the end of `zone`.
    pub fn add_card(&mut self, card: Card) {
        self.zones
            .get_or_default(card.zone.clone())
            .push(card.id.clone());
        self.cards.insert(card);
    }

    /// Creates a token of definition `def` at the end of `zone`, owned and
    /// controlled by `player`, with `states`; returns its fresh id. Which
    /// zone and states a token arrives with is the game's rule.
    pub fn add_token(
        &mut self,
        def: &str,
        player: PlayerId,
        zone: ZoneId,
        states: &[&str],
    ) -> CardId {
        let id = self.new_token_id();
        self.add_card(Card {
            states: states.iter().map(|s| s.to_string()).collect(),
            token: true,
            ..Card::new(id.clone(), def, player, zone)
        });
        id
    }

    /// A fresh token id: [`TOKEN_PREFIX`] and the next number.
    pub fn new_token_id(&mut self) -> CardId {
        self.next_token += 1;
        format!("{TOKEN_PREFIX}{}", self.next_token).into()
    }

    /// Checks that every card is in exactly one zone and that zone lists and
    /// card records agree. Used by property tests; returns a description of
    /// the first inconsistency.
    pub fn check_integrity(&self) -> Result<(), String> {
        let mut seen = BTreeSet::new();
        for (z, ids) in &self.zones {
            for id in ids {
                if !seen.insert(id.clone()) {
                    return Err(format!("card {id} is in two zones (second: {z})"));
                }
                match self.cards.get(id) {
                    None => return Err(format!("zone {z} lists unknown card {id}")),
                    Some(c) if &c.zone != z => {
                        return Err(format!("card {id} listed in {z} but records {}", c.zone));
                    }
                    _ => {}
                }
            }
        }
        for id in self.cards.keys() {
            if !seen.contains(id) {
                return Err(format!("card {id} is in no zone"));
            }
        }
        Ok(())
    }
}

/// The key in [`Game::defs`] of definition `base` showing the alternate
/// face printed on definition `source`.
fn alternate_key(base: &str, source: &str) -> String {
    format!("{base}^alternate:{source}")
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A player's hand and a shared pile (also used by the snapshot tests).
    pub(crate) const SPECS: &[ZoneSpec] = &[
        ZoneSpec {
            name: "hand",
            visibility: Visibility::Private,
            ordered: false,
            limit: None,
            shared: false,
            rule: "x",
        },
        ZoneSpec {
            name: "pile",
            visibility: Visibility::Public,
            ordered: true,
            limit: None,
            shared: true,
            rule: "x",
        },
    ];

    fn card(id: &str, zone: ZoneId) -> Card {
        Card {
            states: BTreeSet::from(["engaged".to_string()]),
            damage: 2,
            ..Card::new(id, "d", PlayerId::P1, zone)
        }
    }

    #[test]
    fn moving_makes_a_new_object_and_keeps_integrity() {
        let mut g = Game::new(SPECS, 2, 1);
        g.add_card(card("a", ZoneId::of(PlayerId::P1, "hand")));
        g.add_card(card("b", ZoneId::of(PlayerId::P1, "hand")));
        assert!(g.check_integrity().is_ok());
        let from = g.move_card("a", ZoneId::shared("pile"), true);
        assert_eq!(from, Some(ZoneId::of(PlayerId::P1, "hand")));
        let a = g.card("a").unwrap();
        assert_eq!(a.damage, 0);
        assert!(a.states.is_empty());
        assert_eq!(a.incarnation, 1);
        assert_eq!(g.zone(&ZoneId::shared("pile")), ["a"]);
        assert!(g.check_integrity().is_ok());
        assert_eq!(g.events.len(), 1);
        g.erase("b");
        assert!(g.check_integrity().is_ok());
        assert!(g.zone_of(PlayerId::P2, "hand").is_empty());
    }

    #[test]
    fn always_changes_and_swaps_are_kept_apart() {
        let mut c = card("a", ZoneId::of(PlayerId::P1, "hand"));
        let m = |stat: &str, delta, set, always| Modifier {
            stat: stat.into(),
            delta,
            set,
            always,
            until: Default::default(),
            source: "s".into(),
        };
        c.modifiers = vec![
            m("attack", 4, true, true),
            m("attack", 2, true, false),
            m(SWAP_STAT, 0, false, false),
            m("attack", 1, true, true),
        ];
        assert_eq!(c.set_value("attack"), Some(2));
        assert_eq!(c.always_value("attack"), Some(1));
        assert_eq!(c.modifier("attack"), 0);
        assert_eq!(c.swaps(), 1);
    }

    #[test]
    fn additions_and_changes_are_kept_apart() {
        let mut c = card("a", ZoneId::of(PlayerId::P1, "hand"));
        let m = |delta, set| Modifier {
            stat: "attack".into(),
            delta,
            set,
            always: false,
            until: Default::default(),
            source: "s".into(),
        };
        assert_eq!(c.set_value("attack"), None);
        c.modifiers = vec![m(1, false), m(5, true), m(2, false), m(3, true)];
        assert_eq!(c.modifier("attack"), 3);
        assert_eq!(c.set_value("attack"), Some(3));
        assert_eq!(c.set_value("defense"), None);
    }

    #[test]
    fn an_alternate_face_replaces_the_description_until_shown_normal_or_moved() {
        use super::super::card::Face;
        let mut g = Game::new(SPECS, 2, 1);
        let base: CardDef = serde_json::from_str(
            r#"{ "name": "A", "type": "t", "cost": 2, "attack": 1, "defense": 2,
                 "stats": { "x": 1, "y": 5 }, "keywords": ["k"], "traits": ["r"] }"#,
        )
        .unwrap();
        let face = Face {
            name: "B".into(),
            attack: Some(4),
            defense: None,
            stats: BTreeMap::from([("x".to_string(), 9)]),
            keywords: vec![],
            traits: vec!["s".into()],
            text: BTreeMap::new(),
            abilities: vec![],
        };
        g.defs.insert("plain".into(), base.clone());
        g.defs.insert(
            "d".into(),
            CardDef {
                alternate: Some(Box::new(face)),
                ..base
            },
        );
        let mut c = card("a", ZoneId::of(PlayerId::P1, "hand"));
        c.modifiers.push(Modifier {
            stat: "attack".into(),
            delta: 1,
            set: false,
            always: false,
            until: Default::default(),
            source: "s".into(),
        });
        g.add_card(c);
        let mut other = card("b", ZoneId::of(PlayerId::P1, "hand"));
        other.def = "plain".into();
        g.add_card(other);
        // A definition without an alternate face changes nothing.
        assert!(!g.show_alternate("b", "b"));
        assert!(g.show_alternate("a", "a"));
        let d = g.def_of("a").unwrap();
        assert_eq!(d.name, "B");
        assert_eq!((d.attack, d.defense, d.cost), (Some(4), None, Some(2)));
        assert_eq!(d.stats, BTreeMap::from([("x".into(), 9), ("y".into(), 5)]));
        assert!(d.keywords.is_empty());
        assert_eq!(d.traits, ["s"]);
        assert_eq!(g.def_of_base("a").unwrap().name, "A");
        // The same object: modifiers and states stay.
        assert_eq!(g.card("a").unwrap().modifier("attack"), 1);
        assert_eq!(g.card("a").unwrap().face.as_ref().unwrap().source, "a");
        assert!(g.show_normal("a"));
        assert!(!g.show_normal("a"));
        assert_eq!(g.def_of("a").unwrap().name, "A");
        // The face of another card (an attachment giving it).
        assert!(g.show_alternate("b", "a"));
        assert_eq!(g.def_of("b").unwrap().name, "B");
        // A card that moves is a new object showing its normal face.
        g.move_card("b", ZoneId::shared("pile"), true);
        assert!(g.card("b").unwrap().face.is_none());
        assert_eq!(g.def_of("b").unwrap().name, "A");
    }

    #[test]
    fn players_parse() {
        assert_eq!(parse_player("p2", 2), Some(PlayerId::P2));
        assert_eq!(parse_player("p3", 2), None);
        assert_eq!(parse_player("p0", 2), None);
        assert_eq!(player_name(PlayerId::P1), "p1");
    }
}

/// A game module's own typed state, carried by [`Game`] without the core
/// knowing its type. Implemented for every `Clone + Debug + Default` type
/// that is `Send + Sync + 'static`.
pub trait GameState: std::any::Any + std::fmt::Debug + Send + Sync {
    /// A boxed copy (for cloning the game).
    fn boxed(&self) -> Box<dyn GameState>;
    /// For downcasting.
    fn as_any(&self) -> &dyn std::any::Any;
    /// For downcasting.
    fn as_any_mut(&mut self) -> &mut dyn std::any::Any;
}

impl<T> GameState for T
where
    T: std::any::Any + Clone + std::fmt::Debug + Default + Send + Sync,
{
    fn boxed(&self) -> Box<dyn GameState> {
        Box::new(self.clone())
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
    fn as_any_mut(&mut self) -> &mut dyn std::any::Any {
        self
    }
}

/// The slot of [`Game`] holding the module's own state.
#[derive(Debug, Default)]
pub struct Own(Option<Box<dyn GameState>>);

impl Clone for Own {
    fn clone(&self) -> Self {
        Own(self.0.as_ref().map(|b| b.boxed()))
    }
}

#[cfg(test)]
mod own_tests {
    use super::*;

    #[derive(Debug, Clone, Default, PartialEq)]
    struct Mine {
        used: u32,
    }

    #[test]
    fn a_game_keeps_its_own_typed_state_and_clones_it() {
        let mut g = Game::new(&[], 2, 0);
        assert!(g.own_ref::<Mine>().is_none());
        g.own::<Mine>().used += 1;
        let saved = g.clone();
        g.own::<Mine>().used += 1;
        assert_eq!(g.own_ref::<Mine>(), Some(&Mine { used: 2 }));
        // The clone (a rollback point) kept its own copy.
        assert_eq!(saved.own_ref::<Mine>(), Some(&Mine { used: 1 }));
    }
}

#[cfg(test)]
mod result_tests {
    use super::*;

    #[test]
    fn losses_decide_the_result() {
        let mut g = Game::new(&[], 3, 0);
        assert_eq!(g.result_by_losses(), GameResult::Ongoing, "nobody lost");
        g.players[PlayerId::P1].lost = true;
        assert_eq!(g.result_by_losses(), GameResult::Ongoing, "two are left");
        g.players[PlayerId::P2].lost = true;
        assert_eq!(g.result_by_losses(), GameResult::Win("p3".into()));
        g.players[PlayerId::P2.next(3)].lost = true;
        assert_eq!(g.result_by_losses(), GameResult::Draw);
    }
}

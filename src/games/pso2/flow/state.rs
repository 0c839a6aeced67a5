//! The module's own typed state (`Game::own::<Pso2State>()`): the
//! counters and marks the rules keep beside the cards, carried by the core
//! with the game, so a rejected action rolls them back with everything
//! else.

use std::collections::{BTreeMap, BTreeSet};

use crate::engine::{CardId, Game, PlayerId, Until};

/// A "this turn" lock, cleared at the refresh step (505.1.3).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum TurnLock {
    /// 【ターン1回】 of one object (300.8, 400.6): card and generation.
    Once(CardId, u32),
    /// 【同名ターン1回】: every card of that name (300.8).
    Name(String),
    /// 連撃 used by one object this turn (302.5).
    DoubleAttack(CardId, u32),
}

/// One ability of one object: card, object generation (400.6), ability
/// index in its definition.
pub type AbilityOf = (CardId, u32, usize);

/// The PSO2 module's state.
#[derive(Debug, Clone, Default)]
pub struct Pso2State {
    /// The raid battle's state (RAID:…).
    pub raid: super::raid::RaidState,
    /// Delayed triggered abilities set up and not yet triggered (300.2.3).
    pub delayed: Vec<super::delayed::Delayed>,
    /// When each player's deck reached 0, in order (101.7, for the reading
    /// `reading_sequential_deck_out`).
    pub deck_zero: BTreeMap<PlayerId, u64>,
    /// The last order number given in `deck_zero`.
    pub deck_zero_seq: u64,
    /// The continuous abilities applying when last looked (300.4), so the
    /// trace can say when one begins or stops applying.
    pub applying: BTreeSet<AbilityOf>,
    /// Once-per-turn locks (300.8, 302.5).
    pub turn_locks: BTreeSet<TurnLock>,
    /// Replacement abilities applied during the current step (103.4.3).
    pub replaced: BTreeSet<AbilityOf>,
    /// The X chosen for the card being played (209.3), until it reaches
    /// the resolution zone.
    pub x_pending: Option<i64>,
    /// The X of the entry resolving now (209.3.1, GL:ⓧ), read by
    /// `with_x` ([`super::x_amount`]); `None` between resolutions.
    pub x_now: Option<i64>,
    /// The card of the ability resolving now and its generation when the
    /// ability was put into the resolution zone: 「このカード」 names it
    /// only while it is that object (400.6); `None` between resolutions.
    pub this_now: Option<(CardId, u32)>,
    /// An attach active carrying out its effect before it is attached
    /// (`reading_attach_effect_before_attaching`), with the host its
    /// `region` `host` names meanwhile.
    pub attaching: Option<(CardId, CardId)>,
    /// The option chosen on declaration for a modal card (406.3), by card.
    pub modes: BTreeMap<CardId, usize>,
    /// Objects (card, generation) that lost their abilities (300.7), and
    /// for how long.
    pub lost: BTreeMap<(CardId, u32), Until>,
    /// What a resolving `negate` named, removed from the resolution zone
    /// when that entry finishes (GL:無効).
    pub negated: Vec<super::negate::Negated>,
    /// "Can't" effects in force (103.1.2, effect `restrict`).
    pub restrictions: Vec<super::restrict::Restriction>,
    /// The pairs of cards resolved effects made engage (交戦する, 506.5.2),
    /// in the order they resolved, until each one's engagement step
    /// begins ([`super::battle::engage_resolved`]).
    pub engage: Vec<(CardId, CardId)>,
}

/// The module's state (created on first use).
pub fn of(g: &mut Game) -> &mut Pso2State {
    g.own::<Pso2State>()
}

/// The module's state, read without creating it (`None` reads as the
/// default).
pub fn read(g: &Game) -> Option<&Pso2State> {
    g.own_ref::<Pso2State>()
}

/// Whether the turn lock `lock` is set.
pub fn locked(g: &Game, lock: &TurnLock) -> bool {
    read(g).is_some_and(|s| s.turn_locks.contains(lock))
}

/// Sets the turn lock `lock`; returns whether it was already set.
pub fn lock(g: &mut Game, lock: TurnLock) -> bool {
    !of(g).turn_locks.insert(lock)
}

//! Game modules: the rules of each game on top of the game-agnostic engine
//! (`crate::engine`).
//!
//! # How a game plugs in
//!
//! A game is a value implementing [`GameModule`], listed in [`MODULES`].
//! It declares its vocabulary, and the scenario loader validates files
//! against it before anything runs:
//! - [`GameModule::zones`]: its zone kinds ([`ZoneSpec`]: visibility, order,
//!   limit, shared or per player, defining rule). The main board zone comes
//!   first among the zones targets search by default ([`GameModule::board_zone`]).
//! - [`GameModule::values`]: per-player numbers with bounds and defaults
//!   (life, PP, EP, nodes…).
//! - card types, card states, keywords, triggers, extra stats, phases and
//!   action words.
//! - [`GameModule::citable`]: **every rule id the module can cite**. A test
//!   checks each one exists in the bundled rulebook, so trace entries may
//!   only use ids from this list (`&'static str` constants, e.g. a `rules`
//!   module of `pub const` ids).
//!
//! Then it runs a scenario: [`GameModule::run`] receives the loaded [`Game`]
//! and the validated [`Action`]s and returns an [`Outcome`]. The usual shape:
//! 1. Define a `Step` enum: one variant per rules procedure (a phase step,
//!    one step of the attack, a check timing, a priority pass, resolving a
//!    chain entry…). Decision points (main-phase action, response window,
//!    priority) are steps that push themselves back and return
//!    [`Flow::Await`].
//! 2. Drive a [`Machine<Step>`]: `machine.run(|m, s| module.step(m, s))`
//!    until a decision; take the next scenario action inside
//!    [`Machine::atomically`] so an illegal action (return
//!    [`EngineError::Illegal`] citing the forbidding rule and listing the
//!    legal alternatives) rolls the state back; record each rejection.
//! 3. Every step records a trace entry with `m.record(step, text, &[rule
//!    ids])`, adds objects and `change(what, before, after)`, and states its
//!    reading as a judge's `note` where the rulebook is silent.
//! 4. Choices come from the action's `choices` through [`Machine::choices`]
//!    (strict: missing → `MissingChoice` naming the options; unused →
//!    `UnusedChoice` after the action).
//! 5. After each action push `snapshot(&game, derived)` to the checkpoints.
//!
//! Stacks and chains (PMV 干渉, DZ and PSO2 stacks) are game state: keep
//! them in a zone (`shared: true`, `ordered: true`) or in the `Step` stack;
//! priority is a decision step for the player holding it. Nothing in the
//! engine assumes SVE's check timing: it is just a `Step` of the SVE module.

pub mod pmv;
pub mod pso2;
pub mod sve;

use crate::engine::{Action, Card, Game, Outcome, ValueSpec, ZoneSpec};

pub use crate::engine::{EngineError, Flow, Machine};

/// The rules of one game.
pub trait GameModule: Sync {
    /// Game id (`sve`), as in `judge games`.
    fn id(&self) -> &'static str;
    /// Number of players.
    fn players(&self) -> usize {
        2
    }
    /// The number of players of a scenario whose `state.players` names
    /// `listed` players: [`GameModule::players`] unless the game allows
    /// more seats (e.g. PSO2's cooperative raid battle), up to its maximum.
    fn players_for(&self, listed: usize) -> usize {
        let _ = listed;
        self.players()
    }
    /// Zone kinds.
    fn zones(&self) -> &'static [ZoneSpec];
    /// The zone a target filter searches by default (the field / board).
    fn board_zone(&self) -> &'static str;
    /// Numeric player values.
    fn values(&self) -> &'static [ValueSpec];
    /// Card types (`type` in card definitions). `unknown` is always allowed
    /// for anonymous cards.
    fn card_types(&self) -> &'static [&'static str];
    /// Boolean card states scenarios may set.
    fn card_states(&self) -> &'static [&'static str];
    /// Extra numeric characteristics (`stats` in card definitions).
    fn stats(&self) -> &'static [&'static str];
    /// Printed text characteristics (`text` in card definitions), by name;
    /// none by default.
    fn text_fields(&self) -> &'static [&'static str] {
        &[]
    }
    /// Counts an ability's `condition` may bound (e.g. PMV `popularity`);
    /// none by default, and a game with none rejects conditions itself.
    fn condition_counts(&self) -> &'static [&'static str] {
        &[]
    }
    /// Keyword abilities.
    fn keywords(&self) -> &'static [&'static str];
    /// Triggers / ability kinds.
    fn triggers(&self) -> &'static [&'static str];
    /// Phase names.
    fn phases(&self) -> &'static [&'static str];
    /// Player flags scenarios may set.
    fn player_flags(&self) -> &'static [&'static str] {
        &[]
    }
    /// Action words.
    fn actions(&self) -> &'static [&'static str];
    /// Every rule id the module can cite.
    fn citable(&self) -> &'static [&'static str];
    /// A card's current characteristics for snapshots (after modifiers).
    fn derived(&self, game: &Game, card: &Card) -> Vec<(&'static str, i64)>;
    /// Runs the actions on the loaded game.
    fn run(&self, game: Game, actions: &[Action]) -> Outcome;
    /// The commented starting scenario `judge new <game>` writes.
    fn starter(&self) -> &'static str;
    /// Top-level clause ids `judge coverage` reports on (empty = all).
    fn coverage_chapters(&self) -> &'static [&'static str] {
        &[]
    }
    /// Clauses `judge coverage` does not expect a ruling for, each with the
    /// reason (not state-changing, or deliberately not covered). An entry
    /// applies to the clause's whole subtree.
    fn coverage_exceptions(&self) -> &'static [(&'static str, &'static str)] {
        &[]
    }
}

impl std::fmt::Debug for dyn GameModule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "GameModule({})", self.id())
    }
}

/// Every game module.
pub static MODULES: &[&dyn GameModule] = &[&sve::Sve, &pmv::Pmv, &pso2::Pso2];

/// The module for `game`, if the engine supports it.
pub fn module(game: &str) -> Option<&'static dyn GameModule> {
    MODULES.iter().copied().find(|m| m.id() == game)
}

/// Ids of the games the engine supports, for messages.
pub fn supported() -> Vec<&'static str> {
    MODULES.iter().map(|m| m.id()).collect()
}

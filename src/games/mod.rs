//! Game modules: the rules of each game on top of the game-agnostic engine
//! (`crate::engine`).
//!
//! # How a game plugs in (checklist)
//!
//! The DZ and PSO2 modules follow these steps; `pmv/` and `sve/` are worked
//! examples. Nothing in `crate::engine` may name a game's zones, steps,
//! effects or clauses, and no game's code names another game's.
//!
//! 1. **Module.** `src/games/<game>/mod.rs` with a unit struct (`pub struct
//!    Dz;`), listed in [`MODULES`] (one line). Its rules book must be bundled
//!    (`crate::bundle`), with the same id.
//! 2. **Spec.** One `static SPEC: GameSpec` in that `mod.rs`: everything
//!    the game *declares*, as data ([`GameSpec`]); fields it does not use
//!    end with `..GameSpec::BASE`. `impl GameModule for <Game>` then holds
//!    only `spec` (`&SPEC`), `run_planned` (step 6) and the rare behaviour
//!    hook (PSO2's `players_for`); the core reads every declared table
//!    through [`GameModule`]'s getters, so never write a getter in a game.
//! 3. **Citable ids.** `src/games/<game>/rules.rs`: one `pub const` per rule
//!    id the module may cite, collected into a slice given as
//!    [`GameSpec::rules`]; the rules defining its zones and values are
//!    added by the core ([`GameSpec::citable`]). A test checks each exists
//!    in the bundled rulebook, and another that traces cite only them.
//! 4. **Vocabulary** (in the spec): `zones` ([`ZoneSpec`]: visibility,
//!    order, limit, shared or per player, defining rule; the board zone
//!    first, `board_zone`), `values` (per-player numbers with bounds and
//!    defaults), card types, card states, stats, text fields, keywords,
//!    triggers (and `cost_triggers`), phases, action words, and the player
//!    flags: `readings` (the `reading_…` options, see "Readings" in
//!    ARCHITECTURE.md) and `flags` (any other; the core accepts both, each
//!    written once). The scenario loader validates files against them
//!    before anything runs.
//!    `vocabulary`: the parts of the core effect
//!    language the module implements ([`Vocabulary`]: effects, target
//!    selectors, durations, condition parts, each a
//!    [`Declared`](crate::engine::Declared) `only` / `all` / `all_but` /
//!    `none` with the game's clause). The loader refuses everything else
//!    where the file writes it ("`x` is not supported for GAME yet
//!    (clause N)") and `judge schema <game>` offers only these, so the
//!    module's `match` on effects handles its own words and ends in one
//!    generic `not implemented` arm: never name another game's effects.
//! 5. **Steps.** In `src/games/<game>/flow/`, one file per rules procedure:
//!    a `pub enum Step` with one variant per procedure (a phase step, one
//!    step of an attack, a check timing, a priority pass, resolving a chain
//!    entry…) and `pub fn step(m: &mut Machine<Step>, s: Step)`. Each step
//!    records a trace entry with `m.record(step, text, &[rule ids])` (the
//!    clause that *decides* it, also when nothing happens), adds objects and
//!    `change(what, before, after)`, states a judge's reading as its `note`,
//!    schedules what follows with [`Machine::then`], and returns
//!    [`Flow::Continue`]. A decision point (main-phase action, response
//!    window, priority) pushes itself back and returns [`Flow::Await`].
//! 6. **Hooks.** `impl crate::engine::Rules for <Game>` (in `mod.rs`,
//!    delegating to `flow`): `type Step`; `start` schedules the steps before
//!    the first action (the rest of the starting phase; an error if the
//!    scenario cannot start there); `prepare` fills in what a board leaves
//!    implicit (PSO2's default ON/row states); `step`; `act` takes
//!    one action at the awaiting step (pop it, check the action, schedule
//!    steps; an illegal one returns [`EngineError::Illegal`] citing the
//!    forbidding rule with the legal alternatives, never the rejected action
//!    itself); `awaited` names the player the top step waits for (`None`:
//!    no action is awaited); `check` refuses, before anything runs, boards
//!    and card text the module does not implement
//!    ([`EngineError::NotImplemented`] citing the clause); `settle` (rarely
//!    needed: SVE passes Quick windows the next action does not answer);
//!    `derived`: a card's current characteristics for snapshots.
//!    State of the game's own (per-turn counters, flags, procedure depth)
//!    is a typed struct read with `game.own::<MyState>()` (cloned with the
//!    state, so rollback covers it), the core has no string-keyed map for it.
//!    A damage or effect recipient that may be a card or a player is a
//!    [`Recipient`](crate::engine::Recipient), never one string.
//!    Identifiers are typed: a card instance is a
//!    [`CardId`](crate::engine::CardId) (it reads as a `&str`), a player a
//!    [`PlayerId`](crate::engine::PlayerId) (a seat, never a bare `usize`:
//!    `game.player_ids()` to loop, `p.other()` / `p.next(n)` for seats,
//!    `game.players[p]`).
//!    Shared helpers live in the core: `Game::who`, `Game::win`,
//!    `Choices::exactly`, `Target::chosen`, `CardDef::snapshot_values`,
//!    `Card::buff` (an effect's +X/+Y as additions).
//! 7. **Run.** [`GameModule::run_planned`] is one line:
//!    `crate::engine::driver::run(self, game, actions, plan)`. The driver
//!    owns the loop: the note of each action, its choices (strict:
//!    [`Machine::choices`], missing → `MissingChoice`, unused →
//!    `UnusedChoice`), the atomic application with rollback, rejection
//!    records, checkpoints by plan, stop errors, the per-action step
//!    budget, and the game-over check. Never copy it.
//! 8. **Starter and rulings.** [`GameSpec::starter`] (`judge new`), at
//!    least one scenario per procedure in `scenarios/<game>/`, and rulings
//!    in `rulings/<game>/` that `cargo test` checks.
//!
//! Stacks and chains (PMV 干渉, DZ and PSO2 stacks) are game state: keep
//! them in a zone (`shared: true`, `ordered: true`) or in the awaiting step
//! (PMV keeps its interference in `Step::Priority`, so a rejected action
//! rolls it back with everything else); priority is a decision step for the
//! player holding it. Nothing in the engine assumes SVE's check timing or
//! PMV's priority: each is just a `Step` of its module.

pub mod dz;
pub mod pmv;
pub mod pso2;
mod spec;
pub mod sve;

use crate::engine::{
    AbilityDef, Action, CardDef, Game, Outcome, Plan, ValueSpec, Vocabulary, ZoneSpec,
};

pub use crate::engine::{EngineError, Flow, Machine};
pub use spec::GameSpec;

/// The rules of one game: its declared data ([`GameSpec`], read through
/// the getters below) and its behaviour (`run_planned` with the game's
/// [`Rules`](crate::engine::Rules) hooks, and the few hooks a game may
/// override).
pub trait GameModule: Sync {
    /// The game's declared vocabulary and tables.
    fn spec(&self) -> &'static GameSpec;
    /// Runs the actions on the loaded game, keeping the snapshots `plan`
    /// names: `crate::engine::driver::run(self, game, actions, plan)` with
    /// the game's [`Rules`](crate::engine::Rules).
    fn run_planned(&self, game: Game, actions: &[Action], plan: &Plan) -> Outcome;
    /// Checks a scenario's `state.in_progress` against the loaded board
    /// (`Err`: why it is not one this game can start from). Default: the
    /// game starts only at the beginning of a phase.
    fn check_in_progress(&self, _game: &Game, _v: &serde_json::Value) -> Result<(), String> {
        Err(format!(
            "{} cannot start a scenario with something in progress (not implemented): leave `in_progress` out",
            self.spec().id
        ))
    }
    /// The cards a checked `state.in_progress` creates as the scenario
    /// starts (a played card waiting on a stack or in a resolution zone is
    /// in no player's zone, so only `in_progress` names it): ids the
    /// file's actions may name. Default: none.
    fn in_progress_cards(&self, _v: &serde_json::Value) -> Vec<String> {
        Vec::new()
    }
    /// Why the game cannot carry out ability `ab` of definition `def` as
    /// written, found before the run (e.g. PSO2's `with_x` in an ability
    /// with no X): the loader refuses it located at the ability. Default:
    /// none.
    fn ability_refusal(&self, _def: &CardDef, _ab: &AbilityDef) -> Option<String> {
        None
    }
    /// Runs the actions keeping every snapshot.
    fn run(&self, game: Game, actions: &[Action]) -> Outcome {
        self.run_planned(game, actions, &Plan::all())
    }
    /// The number of players of a scenario whose `state.players` names
    /// `listed` players: [`GameModule::players`] unless the game allows
    /// more seats (e.g. PSO2's cooperative raid battle), up to its maximum.
    fn players_for(&self, listed: usize) -> usize {
        let _ = listed;
        self.players()
    }

    // The declared data, from the spec.

    /// Game id (`sve`), as in `judge games`.
    fn id(&self) -> &'static str {
        self.spec().id
    }
    /// Number of players.
    fn players(&self) -> usize {
        self.spec().players
    }
    /// Zone kinds.
    fn zones(&self) -> &'static [ZoneSpec] {
        self.spec().zones
    }
    /// The zone a target filter searches by default (the field / board).
    fn board_zone(&self) -> &'static str {
        self.spec().board_zone
    }
    /// Numeric player values.
    fn values(&self) -> &'static [ValueSpec] {
        self.spec().values
    }
    /// Card types ([`GameSpec::card_types`]).
    fn card_types(&self) -> &'static [&'static str] {
        self.spec().card_types
    }
    /// Boolean card states scenarios may set.
    fn card_states(&self) -> &'static [&'static str] {
        self.spec().card_states
    }
    /// Extra numeric characteristics (`stats` in card definitions).
    fn stats(&self) -> &'static [&'static str] {
        self.spec().stats
    }
    /// Printed text characteristics (`text` in card definitions).
    fn text_fields(&self) -> &'static [&'static str] {
        self.spec().text_fields
    }
    /// Counts an ability's `condition` may bound ([`GameSpec::condition_counts`]).
    fn condition_counts(&self) -> &'static [&'static str] {
        self.spec().condition_counts
    }
    /// Board regions a target filter may name ([`GameSpec::regions`]).
    fn regions(&self) -> &'static [&'static str] {
        self.spec().regions
    }
    /// Keyword abilities.
    fn keywords(&self) -> &'static [&'static str] {
        self.spec().keywords
    }
    /// Triggers / ability kinds.
    fn triggers(&self) -> &'static [&'static str] {
        self.spec().triggers
    }
    /// Phase names.
    fn phases(&self) -> &'static [&'static str] {
        self.spec().phases
    }
    /// Player flags scenarios may set: the readings, then the other flags
    /// ([`GameSpec::player_flags`]).
    fn player_flags(&self) -> Vec<&'static str> {
        self.spec().player_flags()
    }
    /// The parts of the effect language the module implements
    /// ([`GameSpec::vocabulary`]).
    fn vocabulary(&self) -> &'static Vocabulary {
        &self.spec().vocabulary
    }
    /// Action words.
    fn actions(&self) -> &'static [&'static str] {
        self.spec().actions
    }
    /// Every rule id the module can cite ([`GameSpec::citable`]).
    fn citable(&self) -> Vec<&'static str> {
        self.spec().citable()
    }
    /// Whether traces show cited clauses in the rulebook's display form
    /// ([`GameSpec::cites_in_display_form`]).
    fn cites_in_display_form(&self) -> bool {
        self.spec().cites_in_display_form
    }
    /// The commented starting scenario `judge new <game>` writes.
    fn starter(&self) -> &'static str {
        self.spec().starter
    }
    /// Zones drawn as one grid in reports ([`GameSpec::board_grid`]).
    fn board_grid(&self) -> &'static [&'static [&'static str]] {
        self.spec().board_grid
    }
    /// The triggers whose abilities may carry a `cost`
    /// ([`GameSpec::cost_triggers`]).
    fn cost_triggers(&self) -> &'static [&'static str] {
        self.spec().cost_triggers
    }
    /// The effect words an ability's `cost` may use
    /// ([`GameSpec::cost_effects`]).
    fn cost_effects(&self) -> &'static crate::engine::Declared {
        &self.spec().cost_effects
    }
    /// The triggers whose abilities may carry `per_turn`
    /// ([`GameSpec::per_turn_triggers`]).
    fn per_turn_triggers(&self) -> &'static [&'static str] {
        self.spec().per_turn_triggers
    }
    /// The triggers whose abilities may carry `of`
    /// ([`GameSpec::watch_triggers`]).
    fn watch_triggers(&self) -> &'static [&'static str] {
        self.spec().watch_triggers
    }
    /// Top-level clause ids `judge coverage` reports on (empty = all).
    fn coverage_chapters(&self) -> &'static [&'static str] {
        self.spec().coverage_chapters
    }
    /// Clauses `judge coverage` does not expect a ruling for
    /// ([`GameSpec::coverage_exceptions`]).
    fn coverage_exceptions(&self) -> &'static [(&'static str, &'static str)] {
        self.spec().coverage_exceptions
    }
}

impl std::fmt::Debug for dyn GameModule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "GameModule({})", self.id())
    }
}

/// Every game module.
pub static MODULES: &[&dyn GameModule] = &[&sve::Sve, &pmv::Pmv, &pso2::Pso2, &dz::Dz];

/// The module for `game`, if the engine supports it.
pub fn module(game: &str) -> Option<&'static dyn GameModule> {
    MODULES.iter().copied().find(|m| m.id() == game)
}

/// Ids of the games the engine supports, for messages.
pub fn supported() -> Vec<&'static str> {
    MODULES.iter().map(|m| m.id()).collect()
}

#[cfg(test)]
mod starter_tests {
    /// A starter that lists its game's reading flags lists every one of
    /// them: a judge copies the starter and learns the options from it.
    #[test]
    fn a_starters_reading_list_is_complete() {
        let mut missing = Vec::new();
        for game in super::supported() {
            let spec = super::module(game).expect("supported").spec();
            if spec.starter.contains("READINGS") {
                missing.extend(
                    spec.readings
                        .iter()
                        .filter(|f| !spec.starter.contains(**f))
                        .map(|f| format!("{game}: {f}")),
                );
            }
        }
        assert!(missing.is_empty(), "starters omit {missing:?}");
    }
}

//! [`GameSpec`]: what a game module declares, as data. The core reads it
//! through [`GameModule`](super::GameModule)'s getters; a game's
//! `impl GameModule` keeps only its behaviour (the driver hooks, `run`).

use crate::engine::{Declared, ValueSpec, Vocabulary, ZoneSpec};

/// The declared vocabulary and tables of one game (one `static` per game,
/// in `games/<game>/mod.rs`). Fields a game does not use take
/// [`GameSpec::BASE`]'s empty defaults (`..GameSpec::BASE`).
#[derive(Debug)]
pub struct GameSpec {
    /// Game id (`sve`), as in `judge games`; the bundled rulebook's id.
    pub id: &'static str,
    /// Number of players.
    pub players: usize,
    /// Zone kinds, the board zone first.
    pub zones: &'static [ZoneSpec],
    /// The zone a target filter searches by default (the field / board).
    pub board_zone: &'static str,
    /// Numeric player values.
    pub values: &'static [ValueSpec],
    /// Card types (`type` in card definitions). `unknown` is always allowed
    /// for anonymous cards.
    pub card_types: &'static [&'static str],
    /// Boolean card states scenarios may set.
    pub card_states: &'static [&'static str],
    /// Extra numeric characteristics (`stats` in card definitions).
    pub stats: &'static [&'static str],
    /// Printed text characteristics (`text` in card definitions), by name.
    pub text_fields: &'static [&'static str],
    /// Counts an ability's `condition` may bound (e.g. PMV `popularity`);
    /// a game with none rejects conditions itself.
    pub condition_counts: &'static [&'static str],
    /// Board regions a target filter may name (`Filter::region`, e.g.
    /// DZ's `same_line`); a game with none refuses a filter naming one.
    pub regions: &'static [&'static str],
    /// Keyword abilities.
    pub keywords: &'static [&'static str],
    /// Triggers / ability kinds.
    pub triggers: &'static [&'static str],
    /// The triggers whose abilities may carry a `cost` (activated
    /// abilities, e.g. SVE `activated`); the loader refuses a cost on any
    /// other ability.
    pub cost_triggers: &'static [&'static str],
    /// The effect words an ability's `cost` may use (PSO2: 【ON⇒OFF】 as
    /// `set_state`, ① as `pay_cost`, hand cards as `put`), with the clause
    /// cited when the loader refuses another; by default every word (the
    /// game checks its costs itself).
    pub cost_effects: Declared,
    /// The triggers whose abilities may carry `per_turn` (「ターンごとにN
    /// 回」); the loader refuses it on any other (none by default).
    pub per_turn_triggers: &'static [&'static str],
    /// The triggers whose abilities may watch other cards (`of`, a filter
    /// of the cards whose event triggers them); none by default.
    pub watch_triggers: &'static [&'static str],
    /// For a game that does not keep a card's damage in the core `damage`
    /// (PMV keeps 蓄積ダメージ by kind, as counters), the hint the loader
    /// gives when a board sets `damage`, which it refuses; `None` (the
    /// default): `damage` is the card's damage.
    pub board_damage_refused: Option<&'static str>,
    /// Phase names.
    pub phases: &'static [&'static str],
    /// The judges' readings (`reading_…` player flags): where the rulebook
    /// is silent the engine applies the judges' reading and says so in a
    /// note; a scenario chooses the other reading by listing the flag.
    pub readings: &'static [&'static str],
    /// Player flags that are not readings (SVE's empty-deck draw, PSO2's
    /// raid seats). A scenario may set these and the readings.
    pub flags: &'static [&'static str],
    /// The parts of the effect language the module implements (effects,
    /// target selectors, durations, condition parts), each with the clause
    /// cited when the loader refuses anything else.
    pub vocabulary: Vocabulary,
    /// Action words.
    pub actions: &'static [&'static str],
    /// Every rule id the module's procedures cite (`rules::CITABLE`); the
    /// zones' and values' defining rules are citable too.
    pub rules: &'static [&'static str],
    /// Whether traces show each cited clause in the rulebook's display
    /// form, the way the game's judges write it (DZ: `第4部第9章 2-1` for
    /// `4.9.2-1`), rather than by its canonical id. `--json` keeps the
    /// canonical id either way.
    pub cites_in_display_form: bool,
    /// Whether a `chosen` selector may say its cards are not targets
    /// (`targets: false`: cards chosen without 「対象の」, DZ 4.11.1); the
    /// loader refuses it for a game that does not.
    pub untargeted_choices: bool,
    /// Whether a `choose` may take a number of options decided by a
    /// condition (`instead`, SVE 5.17.3.1); the loader refuses it for a
    /// game that does not.
    pub choose_count_conditions: bool,
    /// The commented starting scenario `judge new <game>` writes.
    pub starter: &'static str,
    /// Zones drawn as one grid shared by the players, row by row, in
    /// reports (`judge run --html`): DZ's battle squares. Empty: each
    /// player's zones are drawn as areas.
    pub board_grid: &'static [&'static [&'static str]],
    /// Top-level clause ids `judge coverage` reports on (empty = all).
    pub coverage_chapters: &'static [&'static str],
    /// Clauses `judge coverage` does not expect a ruling for, each with the
    /// reason (not state-changing, or deliberately not covered). An entry
    /// applies to the clause's whole subtree.
    pub coverage_exceptions: &'static [(&'static str, &'static str)],
}

impl GameSpec {
    /// The defaults of every field: two players, nothing declared, the
    /// whole effect language refused. A game's spec names its own fields
    /// and ends with `..GameSpec::BASE`.
    pub const BASE: GameSpec = GameSpec {
        id: "",
        players: 2,
        zones: &[],
        board_zone: "",
        values: &[],
        card_types: &[],
        card_states: &[],
        stats: &[],
        text_fields: &[],
        condition_counts: &[],
        regions: &[],
        keywords: &[],
        triggers: &[],
        cost_triggers: &[],
        cost_effects: Declared::all(""),
        per_turn_triggers: &[],
        watch_triggers: &[],
        board_damage_refused: None,
        phases: &[],
        readings: &[],
        flags: &[],
        vocabulary: Vocabulary::NONE,
        actions: &[],
        rules: &[],
        cites_in_display_form: false,
        untargeted_choices: false,
        choose_count_conditions: false,
        starter: "",
        board_grid: &[],
        coverage_chapters: &[],
        coverage_exceptions: &[],
    };

    /// Every player flag a scenario may set: the readings, then the other
    /// flags.
    pub fn player_flags(&self) -> Vec<&'static str> {
        self.readings.iter().chain(self.flags).copied().collect()
    }

    /// Every rule id the module can cite: its rules, and the rules that
    /// define its zones and values; sorted, each once.
    pub fn citable(&self) -> Vec<&'static str> {
        let mut v: Vec<&'static str> = self
            .rules
            .iter()
            .copied()
            .chain(self.zones.iter().map(|z| z.rule))
            .chain(self.values.iter().map(|v| v.rule))
            .collect();
        v.sort_unstable();
        v.dedup();
        v
    }
}

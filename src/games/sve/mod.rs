//! Shadowverse EVOLVE (シャドウバースエボルヴ), comprehensive rules Ver.1.7.0.
//!
//! Implemented: the board from a scenario; start, main and end phases
//! (7.2–7.4); playing followers, amulets and spells with PP (8.2, 10.6.2);
//! the attack procedure 8.4 with Quick windows (8.4.7, 7.4.5); damage and
//! destruction (5.13, 11.3); check timing 10.5.2 with every rule process of
//! chapter 11 (11.6.3 cannot arise: an evolve card attaches to one card in
//! this model); triggered abilities in 10.5.2 order; win, loss and draw
//! (1.2, 11.2); Evolve (8.3.2, 12.2, 5.15); keywords Ward, Storm, Rush,
//! Bane, Drain, Quick, Assail, Intimidate, Aura, Stack (11.7 only);
//! Fanfare, Last Words, on-attack, on-evolve and leave-the-field triggers
//! in the effect language; evolving by an effect (5.15.1.1), putting cards
//! into zones within their limits (5.4, 5.11, 4.4.4.2, 4.8.3.2), taking
//! control (5.21), Stack's counters and replacement (13.3.2, 11.7);
//! activated abilities with their costs (8.3.1, 10.4.2, 10.4.6); play-cost
//! changes and damage modifiers from permanent abilities (10.4.4.1,
//! 10.10.2.4, 5.13.2, 5.13.3); conditions of
//! application (10.3.3) with Combo, Spellchain, Awakening, Necrocharge and
//! Crimson (ch.13); Choose (5.17); continuous changes of keywords and of
//! non-numeric information (10.9.1.2, 10.9.1.3) in layer, dependency
//! (10.9.1.5) and timestamp order (10.9.1.6), also in other zones (10.9.3);
//! swaps of several cards (5.12).
//!
//! Not implemented (explicit `not implemented` errors or simply absent): a
//! number of Choose options set by a condition (5.17.3.1), replacement
//! effects other than cost changes, damage modifiers and Stack (10.10),
//! giving abilities other than keywords; `judge coverage sve` lists every
//! clause with its reason (`coverage.rs`).

mod coverage;
pub mod flow;
pub mod rules;

use crate::engine::{
    Action, Declared, Game, Outcome, Plan, ValueSpec, Visibility, Vocabulary, ZoneSpec, driver,
};

use super::{GameModule, GameSpec};

/// The SVE module.
pub struct Sve;

/// SVE zones (ch.4).
pub static ZONES: &[ZoneSpec] = &[
    ZoneSpec::new("leader", Visibility::Public, false, false, "4.3.1"),
    ZoneSpec::new("field", Visibility::Public, false, false, "4.4.4.1").limited(5),
    ZoneSpec::new("deck", Visibility::Hidden, true, false, "4.5.1"),
    ZoneSpec::new("evolve_deck", Visibility::Private, false, false, "4.6.1"),
    ZoneSpec::new("hand", Visibility::Private, false, false, "4.7.3.1").limited(7),
    ZoneSpec::new("ex", Visibility::Public, false, false, "4.8.3.1").limited(5),
    ZoneSpec::new("cemetery", Visibility::Public, false, false, "4.9.1"),
    ZoneSpec::new("banished", Visibility::Public, false, false, "4.10.1"),
    ZoneSpec::new("resolution", Visibility::Public, true, true, "4.11.1"),
    ZoneSpec::new("evolution", Visibility::Public, false, false, "4.12.1"),
    ZoneSpec::new("race", Visibility::Public, false, false, "4.13.1"),
];

/// SVE player values (3.2, 2.8.3).
pub static VALUES: &[ValueSpec] = &[
    ValueSpec {
        name: "defense",
        min: None,
        max: None,
        default: 20,
        rule: "2.8.3",
    },
    ValueSpec {
        name: "pp",
        min: Some(0),
        max: Some(10),
        default: 0,
        rule: "3.2.4.2",
    },
    ValueSpec {
        name: "max_pp",
        min: Some(0),
        max: Some(10),
        default: 0,
        rule: "3.2.4.1",
    },
    ValueSpec {
        name: "ep",
        min: Some(0),
        max: None,
        default: 0,
        rule: "3.2.5.1",
    },
];

/// The effect language SVE implements; the loader refuses the rest.
const VOCABULARY: Vocabulary = Vocabulary {
    effects: Declared::only(EFFECTS, rules::SPECIFIC_NOTATION),
    targets: Declared::all(rules::PLAY_TARGETS),
    // A chain's duration has no SVE counterpart.
    durations: Declared::all_but(&["this_interference"], rules::END_DURATIONS),
    // Text in effect only under a condition (10.3.3).
    conditions: Declared::all(rules::CONDITIONAL_TEXT),
    filters: Declared::all_but(&["zones", "colour"], rules::PLAY_TARGETS),
};

/// The effects of chapter 5 (特定表記) the module implements.
const EFFECTS: &[&str] = &[
    "damage",
    "destroy",
    "banish",
    "return_to_hand",
    "draw",
    "draw_up_to",
    "change_value",
    "buff",
    "set_power",
    "swap_power",
    "add_counter",
    "summon",
    "set_state",
    "shuffle",
    "win",
    "lose",
    "put",
    "evolve",
    "take_control",
    "play",
    "modify_cost",
    "set_cost",
    "modify_damage",
    "choose",
    "skip_turn",
    "extra_turn",
    "become",
    "swap",
    "race",
    "change_keywords",
    "change_info",
    "restrict",
    "roll_die",
    "reveal",
    "search",
    "look_at",
    "for_each",
    "with_x",
    "gain_ability",
    "look_at_up_to",
];

/// What SVE declares.
pub(crate) static SPEC: GameSpec = GameSpec {
    id: "sve",
    zones: ZONES,
    board_zone: "field",
    values: VALUES,
    card_types: &["follower", "amulet", "spell", "leader"],
    card_states: &[
        flow::st::ENGAGED,
        flow::st::ARRIVED,
        flow::st::EVOLVED,
        flow::st::FACE_UP,
        flow::st::BANE_MARKED,
        flow::st::RACED,
    ],
    stats: &["evolve_cost"],
    // Incidental information (2.13): the title decides deck building
    // and the Cinderella Girls setup (14.3.1); `class` (2.2).
    text_fields: &["title", "class"],
    condition_counts: flow::COUNTS,
    keywords: &[
        "ward",
        "storm",
        "rush",
        "bane",
        "drain",
        "quick",
        "assail",
        "intimidate",
        "aura",
        "stack",
    ],
    triggers: &[
        "fanfare",
        "last_words",
        // ⒻⓁ written before one text: two abilities (12.1.2).
        "fanfare+last_words",
        "on_attack",
        "on_evolve",
        "leaves_field",
        // Other cards put onto a field (with `of`, 10.9.3.1).
        "enters_field",
        "permanent",
        "activated",
        "quick_activated",
        "feed",
        // 出走時 (14.2.4).
        "on_race",
        "spell",
        "start_of_main",
        "start_of_end",
        // 状態誘発 (10.7.6): the state is the ability's `condition`.
        "state",
        // 時限誘発 (10.7.5), created by the ability printed before it.
        "delayed_end_phase",
        "delayed_next_turn_start",
    ],
    // A cost written in an automatic ability, paid by choice as it
    // resolves (10.4.7.3).
    cost_triggers: &[
        "activated",
        "quick_activated",
        "feed",
        "fanfare",
        "last_words",
        "on_attack",
        "on_evolve",
        "leaves_field",
        "enters_field",
        "on_race",
        "start_of_main",
        "start_of_end",
        "state",
        "delayed_end_phase",
        "delayed_next_turn_start",
    ],
    choose_count_conditions: true,
    // 10.7.2.2, for the automatic abilities of a card on the field (a card
    // moving is a new object, 4.1.4, whose count starts again).
    watch_triggers: &["leaves_field", "enters_field"],
    per_turn_triggers: &[
        "fanfare",
        "on_attack",
        "on_evolve",
        "on_race",
        "start_of_main",
        "start_of_end",
    ],
    phases: &["setup", "start", "main", "end"],
    readings: flow::READINGS,
    // The empty-deck draw (5.9.1.1, read by 11.2.2).
    flags: &[flow::DREW_FROM_EMPTY],
    vocabulary: VOCABULARY,
    actions: &[
        "play",
        "attack",
        "evolve",
        "activate",
        "end_phase",
        "pass",
        "concede",
        "mulligan",
        "keep",
        "declare",
    ],
    rules: rules::CITABLE,
    starter: include_str!("starter.json"),
    coverage_chapters: &["5", "7", "8", "9", "10", "11", "12", "13", "14", "15"],
    coverage_exceptions: coverage::EXCEPTIONS,
    ..GameSpec::BASE
};

impl GameModule for Sve {
    fn spec(&self) -> &'static GameSpec {
        &SPEC
    }
    fn run_planned(&self, game: Game, actions: &[Action], plan: &Plan) -> Outcome {
        driver::run(self, game, actions, plan)
    }
    fn check_in_progress(&self, game: &Game, v: &serde_json::Value) -> Result<(), String> {
        flow::check_in_progress(game, v)
    }
}

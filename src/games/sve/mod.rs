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

use super::GameModule;

/// The SVE module.
pub struct Sve;

const fn zone(
    name: &'static str,
    visibility: Visibility,
    ordered: bool,
    limit: Option<usize>,
    shared: bool,
    rule: &'static str,
) -> ZoneSpec {
    ZoneSpec {
        name,
        visibility,
        ordered,
        limit,
        shared,
        rule,
    }
}

/// SVE zones (ch.4).
pub static ZONES: &[ZoneSpec] = &[
    zone("leader", Visibility::Public, false, None, false, "4.3.1"),
    zone(
        "field",
        Visibility::Public,
        false,
        Some(5),
        false,
        "4.4.4.1",
    ),
    zone("deck", Visibility::Hidden, true, None, false, "4.5.1"),
    zone(
        "evolve_deck",
        Visibility::Private,
        false,
        None,
        false,
        "4.6.1",
    ),
    zone(
        "hand",
        Visibility::Private,
        false,
        Some(7),
        false,
        "4.7.3.1",
    ),
    zone("ex", Visibility::Public, false, Some(5), false, "4.8.3.1"),
    zone("cemetery", Visibility::Public, false, None, false, "4.9.1"),
    zone("banished", Visibility::Public, false, None, false, "4.10.1"),
    zone("resolution", Visibility::Public, true, None, true, "4.11.1"),
    zone(
        "evolution",
        Visibility::Public,
        false,
        None,
        false,
        "4.12.1",
    ),
    zone("race", Visibility::Public, false, None, false, "4.13.1"),
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

/// Rule ids of zones and values, citable too.
const SPEC_RULES: &[&str] = &[
    "4.3.1", "4.4.4.1", "4.5.1", "4.6.1", "4.7.3.1", "4.8.3.1", "4.9.1", "4.10.1", "4.11.1",
    "4.12.1", "4.13.1", "2.8.3", "3.2.4.2", "3.2.4.1", "3.2.5.1",
];

static CITABLE: std::sync::LazyLock<Vec<&'static str>> = std::sync::LazyLock::new(|| {
    let mut v: Vec<&'static str> = rules::CITABLE.iter().chain(SPEC_RULES).copied().collect();
    v.sort_unstable();
    v.dedup();
    v
});
/// The effect language SVE implements; the loader refuses the rest.
const VOCABULARY: Vocabulary = Vocabulary {
    effects: Declared::only(EFFECTS, rules::SPECIFIC_NOTATION),
    targets: Declared::all(rules::PLAY_TARGETS),
    // A chain's duration has no SVE counterpart.
    durations: Declared::all_but(&["this_interference"], rules::END_DURATIONS),
    // Text in effect only under a condition (10.3.3).
    conditions: Declared::all(rules::CONDITIONAL_TEXT),
    filters: Declared::all(rules::PLAY_TARGETS),
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
];

impl GameModule for Sve {
    fn id(&self) -> &'static str {
        "sve"
    }
    fn zones(&self) -> &'static [ZoneSpec] {
        ZONES
    }
    fn board_zone(&self) -> &'static str {
        "field"
    }
    fn values(&self) -> &'static [ValueSpec] {
        VALUES
    }
    fn card_types(&self) -> &'static [&'static str] {
        &["follower", "amulet", "spell", "leader"]
    }
    fn card_states(&self) -> &'static [&'static str] {
        &[
            flow::st::ENGAGED,
            flow::st::ARRIVED,
            flow::st::EVOLVED,
            flow::st::FACE_UP,
            flow::st::BANE_MARKED,
            flow::st::RACED,
        ]
    }
    fn stats(&self) -> &'static [&'static str] {
        &["evolve_cost"]
    }
    fn keywords(&self) -> &'static [&'static str] {
        &[
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
        ]
    }
    fn triggers(&self) -> &'static [&'static str] {
        &[
            "fanfare",
            "last_words",
            // ⒻⓁ written before one text: two abilities (12.1.2).
            "fanfare+last_words",
            "on_attack",
            "on_evolve",
            "leaves_field",
            "permanent",
            "activated",
            "quick_activated",
            "feed",
            // 出走時 (14.2.4).
            "on_race",
            "spell",
            "start_of_main",
            "start_of_end",
        ]
    }
    fn phases(&self) -> &'static [&'static str] {
        &["setup", "start", "main", "end"]
    }
    fn player_flags(&self) -> &'static [&'static str] {
        flow::PLAYER_FLAGS
    }
    fn vocabulary(&self) -> &'static Vocabulary {
        &VOCABULARY
    }
    fn actions(&self) -> &'static [&'static str] {
        &[
            "play",
            "attack",
            "evolve",
            "activate",
            "end_phase",
            "pass",
            "concede",
            "mulligan",
            "keep",
        ]
    }
    fn coverage_chapters(&self) -> &'static [&'static str] {
        &["5", "7", "8", "9", "10", "11", "12", "13", "14", "15"]
    }
    fn coverage_exceptions(&self) -> &'static [(&'static str, &'static str)] {
        coverage::EXCEPTIONS
    }
    fn condition_counts(&self) -> &'static [&'static str] {
        flow::COUNTS
    }
    fn text_fields(&self) -> &'static [&'static str] {
        // Incidental information (2.13): the title decides deck building
        // and the Cinderella Girls setup (14.3.1); `class` (2.2).
        &["title", "class"]
    }
    fn cost_triggers(&self) -> &'static [&'static str] {
        &["activated", "quick_activated", "feed"]
    }
    fn citable(&self) -> &'static [&'static str] {
        CITABLE.as_slice()
    }
    fn run_planned(&self, game: Game, actions: &[Action], plan: &Plan) -> Outcome {
        driver::run(self, game, actions, plan)
    }
    fn starter(&self) -> &'static str {
        include_str!("starter.json")
    }
}

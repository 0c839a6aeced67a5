//! ディメンション・ゼロ (Dimension Zero), 総合ルール Version 19.00.
//!
//! Vocabulary of scenario files:
//! - **Squares** (2.23.8, 2.24). The battle space is nine squares shared by
//!   both players; each is a zone (2.23.1 ¶2). A square is named by its line
//!   and its area *from P1's view*: `L`, `C`, `R` = P1's left, centre and
//!   right line (2.24.5), `1`, `2`, `3` = P1's own area, the central area
//!   and P1's enemy area (= P2's own area, 2.24.7). So `C2` is the centre
//!   square; `L3` is P2's right line, own area. A file lists each player's
//!   units on a square under that player (the controller): `p1.zones.C2`
//!   and `p2.zones.C2` are the two players' units on square C2. Base squares
//!   are per player: `base_L`, `base_C`, `base_R` (lines again from P1's
//!   view). The trace names squares the same way.
//! - **Zones** (2.23): `deck` (index 0 = top), `plan` (the face-up top card
//!   of the deck, 2.23.3-1: it counts as the deck's top), `hand`,
//!   `graveyard` (index 0 = top), `energy`, `smash` (face down), `remove`,
//!   and the shared `stack` (spells on it; abilities, moves and battle
//!   damage exchanges are entries of the stack kept by the module).
//! - **Cards**: types `unit`, `base`, `strategy` (2.6.2). The use cost is
//!   written as its energy symbols in `stats`: `red`, `black`, `blue`,
//!   `white`, `green`, `colorless` (1.2.3; a card's colours are those of its
//!   symbols, 2.4.2; `cost` is their sum, 2.4.3). The move cost likewise:
//!   `move` (colourless) and `move_red` … `move_green` (2.5). `attack` is
//!   the power (パワー, 2.12); stat `smash` the smash value (2.13). Text
//!   `timing`: `normal` (default), `quick` or `battle` (2.9). State
//!   `frozen` (absent = released, 2.26.1).
//! - **Keywords** of 第5部: see [`KEYWORDS`]; those not implemented stop
//!   the run before anything happens with `not implemented: clause …`.
//!
//! The procedures are in [`flow`].

pub mod coverage;
pub mod flow;
pub mod rules;

use crate::engine::{Action, Declared, Game, Outcome, Plan, Visibility, Vocabulary, ZoneSpec};

use super::{GameModule, GameSpec};

/// The Dimension Zero module.
pub struct Dz;

/// The battle squares first (the board), then the base squares and the
/// other zones of 2.23.
pub static ZONES: &[ZoneSpec] = &[
    ZoneSpec::new("L1", Visibility::Public, false, false, rules::SQUARES),
    ZoneSpec::new("C1", Visibility::Public, false, false, rules::SQUARES),
    ZoneSpec::new("R1", Visibility::Public, false, false, rules::SQUARES),
    ZoneSpec::new("L2", Visibility::Public, false, false, rules::SQUARES),
    ZoneSpec::new("C2", Visibility::Public, false, false, rules::SQUARES),
    ZoneSpec::new("R2", Visibility::Public, false, false, rules::SQUARES),
    ZoneSpec::new("L3", Visibility::Public, false, false, rules::SQUARES),
    ZoneSpec::new("C3", Visibility::Public, false, false, rules::SQUARES),
    ZoneSpec::new("R3", Visibility::Public, false, false, rules::SQUARES),
    ZoneSpec::new(
        "base_L",
        Visibility::Public,
        false,
        false,
        rules::BASE_SPACE,
    ),
    ZoneSpec::new(
        "base_C",
        Visibility::Public,
        false,
        false,
        rules::BASE_SPACE,
    ),
    ZoneSpec::new(
        "base_R",
        Visibility::Public,
        false,
        false,
        rules::BASE_SPACE,
    ),
    ZoneSpec::new("deck", Visibility::Hidden, true, false, rules::DECK),
    ZoneSpec::new("plan", Visibility::Public, true, false, rules::PLAN_ZONE),
    ZoneSpec::new("hand", Visibility::Private, false, false, rules::HAND),
    ZoneSpec::new(
        "graveyard",
        Visibility::Public,
        true,
        false,
        rules::GRAVEYARD,
    ),
    ZoneSpec::new(
        "energy",
        Visibility::Public,
        false,
        false,
        rules::ENERGY_ZONE,
    ),
    ZoneSpec::new("smash", Visibility::Hidden, false, false, rules::SMASH_ZONE),
    ZoneSpec::new(
        "remove",
        Visibility::Public,
        false,
        false,
        rules::REMOVE_ZONE,
    ),
    ZoneSpec::new("stack", Visibility::Public, true, true, rules::STACK),
    // 闘気 cards (6.1) and bonded strategies (6.6) of a player's cards on
    // squares, each `attached_to` its card (flow/attach.rs).
    ZoneSpec::new(
        "under",
        Visibility::Public,
        false,
        false,
        rules::TOKI_ON_SQUARE,
    ),
];

/// Keyword abilities of 第5部 (official English where one exists).
pub const KEYWORDS: &[&str] = &[
    // 速攻 (5.1).
    "haste",
    // 即死 (5.2); stat `instant_death` = the level of 即死レベルN.
    "instant_death",
    // 召集 (5.3).
    "muster",
    // 加速 (5.4).
    "acceleration",
    // 支援 (5.5): stat `support` = the value, text `support_range`.
    "support",
    // 団結 (5.6): deck construction only.
    "unity",
    // ゾーン効果 (5.7.1), 暴走 (5.7.2), 覚醒 (5.7.3).
    "zone_effect",
    "rampage",
    "awakening",
    // 隊列召喚 (5.8).
    "formation_summon",
    // 挟撃 (5.9).
    "pincer",
    // 呼声 (5.10).
    "call",
    // 進撃 (5.11).
    "advance",
    // 連動 (5.12).
    "linkage",
    // 共鳴 (5.13).
    "resonance",
    // 閃光 (5.14).
    "flash",
    // 補給 (5.15).
    "supply",
    // 急襲 (5.16): stat `raid` = N.
    "raid",
    // 耐性 (5.17): text `resistance` = the colour.
    "resistance",
];

/// The effect language DZ implements; the loader refuses the rest.
const VOCABULARY: Vocabulary = Vocabulary {
    effects: Declared::only(
        &[
            "damage",
            "destroy",
            "banish",
            "return_to_hand",
            "draw",
            "buff",
            "set_state",
            "put",
            "swap",
            "set_cost",
            "change_keywords",
            "change_info",
            "choose",
            "shuffle",
            "restrict",
            "win",
            "lose",
            "search",
            "look_at",
            "shuffle_into",
            "amount_of",
            "if_done",
            "target_place",
            "at_end_of_turn",
        ],
        rules::IN_ORDER,
    ),
    targets: Declared::all_but(&["random"], rules::TARGETING),
    // 3.10.1 ends "until end of turn" and "this turn" effects together; DZ
    // has no interference.
    durations: Declared::all_but(&["this_interference"], rules::CONTINUOUS),
    // A condition on the card's own area, for static abilities
    // (「このカードが中央エリアのスクエアにある場合」, flow/statics.rs);
    // other conditional abilities (4.4.3) are not implemented.
    conditions: Declared::only(&["count"], rules::CONDITIONAL),
    // Cost bounds read the use cost as the sum of its numbers (2.4.3).
    filters: Declared::all_but(&["special"], rules::TARGETING),
};

/// What DZ declares.
static SPEC: GameSpec = GameSpec {
    id: "dz",
    zones: ZONES,
    board_zone: "C2",
    card_types: flow::types::ALL,
    card_states: &[flow::FROZEN, flow::TOKI_STRATEGY],
    stats: flow::STATS,
    // `put_state`: `released` or `frozen` (default), how the card's
    // effects put units onto squares (flow/put.rs).
    // `watch`: the region an `unit_to_graveyard` /
    // `instead_of_unit_graveyard` ability watches (flow/watchers.rs).
    text_fields: &[
        "timing",
        "resistance",
        "support_range",
        "put_state",
        "watch",
        "act_timing",
        "effect_zone",
        "attribute",
        "divide",
        // 召集's square condition and 隊列召喚's definition
        // (flow/special_play.rs).
        "muster",
        "formation",
        // `no_toki`: the card's effects put a 闘気 card only under a card
        // with none (「下に闘気カードのない」, flow/attach.rs).
        "toki_host",
    ],
    regions: flow::board::REGIONS,
    condition_counts: &[flow::AREA_COUNT],
    keywords: KEYWORDS,
    triggers: flow::TRIGGERS,
    cost_triggers: &[flow::ACTIVATED],
    phases: flow::PHASES,
    readings: flow::FLAGS,
    vocabulary: VOCABULARY,
    actions: flow::ACTIONS,
    rules: rules::CITABLE,
    // Judges write 第4部第9章 2-1 (the rulebook's own numbering).
    cites_in_display_form: true,
    // 「選び」 without 「対象の」 (4.11.1): chosen as the effect resolves,
    // with no 耐性 against the choice (flow/targets.rs, flow/effects.rs).
    untargeted_choices: true,
    starter: include_str!("starter.json"),
    // The nine battle squares, named as scenarios name them (line × area
    // from P1's view), drawn as one grid with both players' units in
    // reports.
    board_grid: &[
        &["L1", "C1", "R1"],
        &["L2", "C2", "R2"],
        &["L3", "C3", "R3"],
    ],
    coverage_chapters: &["2", "3", "4", "5", "6"],
    coverage_exceptions: coverage::EXCEPTIONS,
    ..GameSpec::BASE
};

impl GameModule for Dz {
    fn spec(&self) -> &'static GameSpec {
        &SPEC
    }
    fn run_planned(&self, game: Game, actions: &[Action], plan: &Plan) -> Outcome {
        crate::engine::driver::run(self, game, actions, plan)
    }
    fn check_in_progress(&self, game: &Game, v: &serde_json::Value) -> Result<(), String> {
        flow::check_in_progress(game, v)
    }
    fn in_progress_cards(&self, v: &serde_json::Value) -> Vec<String> {
        flow::in_progress_cards(v)
    }
}

//! PSO2 TCG (ファンタシースターオンライン２ トレーディングカードゲーム),
//! 詳細ルール Ver3.0.
//!
//! Vocabulary of scenario files:
//! - zones (400.2): `player` (the Player card, 201), `mag` (203), `deck`,
//!   `hand`, `field` (both rows, 403), `pp` (404), `discard` (405) per
//!   player, `excluded` for cards removed from the game (400.2.4: no zone
//!   of the rules; kept together and public, 400.2.2.1), and the shared
//!   `resolution` zone (406).
//! - card types (200.1): `player`, `chara`, `mag`, `mag_evolution`,
//!   `active`, and the item cards `item`, `weapon`, `armor` (205).
//! - characteristics: `cost`, `attack` (212), `defense` is the HP (213) of a
//!   chara or Player card and the defense value of an armor (205.5.2);
//!   `text.title` (称号, 206.1.1), `text.color` (207: `red`, `blue`,
//!   `yellow`, `black`, or `white` = no colour), `text.class` (208, `ALL`
//!   for every class), `text.also_named` (206.3), `text.exclusive` (「A」専用,
//!   302.12); stats `slots` (【装備枠 X】, 205.4.4.1) and `pierce` (貫通X).
//! - card states: `on` / `off` (215.1) and `front` / `back` (215.4) are
//!   kept explicitly on every card of the field and PP (a scenario that
//!   gives neither gets ON and the front row, or the back row for a normal
//!   item, 205.3); `frozen` (301.3), `face_down` (a face-down PP, 404.5),
//!   `invincible` (GL:無敵), `untargetable` (選ばれない), and the battle
//!   states `attacking` (506.4.1) and `engaged` (506.5.1).
//!
//! - the cooperative raid battle (協力レイドバトル): 2–3 party seats, then
//!   the Boss seat with player flag `raid_boss` (difficulty flags
//!   `raid_easy`, `raid_hard`, `raid_very_hard`), its Life in value `life`
//!   and a `boss` card in its `player` zone ([`flow::raid`]).
//!
//! - card text beyond the core's: an ability may carry a condition of
//!   application (`turn`, `phase`, `zone`, `value`; 300.4); `modify_cost`
//!   in a continuous ability changes the cost to play (209.4.1); stat
//!   `x_cost` marks ⓧ in a card's cost, chosen as the action's choice `x`
//!   (209.3), `ability_x_cost` ⓧ in an activated ability's cost (GL:ⓧ);
//!   text `ability_color` a coloured ① in it (209.1.3.3); an ability's
//!   `cost` is its printed cost (209.1.3, [`flow::ability_cost`]):
//!   【ON⇒OFF】 (`set_state` off on this), ① (`pay_cost` with an amount),
//!   ⓧ (`pay_cost` without), cards of the hand to the discard or deck
//!   (`put`, 209.1.3.1.1); an activated ability with no `cost` costs
//!   【ON⇒OFF】; `return_to_hand` with a `chosen` selector of zone `deck` is
//!   a サーチ (301.2: chosen on resolution as `<card>.search`, no target).
//!
//! The procedures are in [`flow`]; what is not implemented stops the run
//! with `not implemented: clause X`.

pub mod coverage;
pub mod flow;
pub mod names;
pub mod rules;

use crate::engine::{
    Action, Declared, Game, Outcome, Plan, ValueSpec, Visibility, Vocabulary, ZoneSpec,
};

use super::{GameModule, GameSpec};

/// The PSO2 module.
pub struct Pso2;

/// The zones of 400.2, the excluded cards, and the resolution zone.
pub static ZONES: &[ZoneSpec] = &[
    ZoneSpec::new("field", Visibility::Public, false, false, "403.1"),
    ZoneSpec::new("player", Visibility::Public, false, false, "400.2.1"),
    ZoneSpec::new("mag", Visibility::Public, true, false, "400.2.2"),
    ZoneSpec::new("deck", Visibility::Hidden, true, false, "401.1"),
    ZoneSpec::new("hand", Visibility::Private, false, false, "402.1"),
    ZoneSpec::new("pp", Visibility::Public, false, false, "404.1"),
    ZoneSpec::new("discard", Visibility::Public, true, false, "405.1"),
    ZoneSpec::new("excluded", Visibility::Public, false, false, "400.2.4"),
    ZoneSpec::new("resolution", Visibility::Public, true, true, "406.1"),
];

/// The deck is a player's life (101.3, 201.4); `life` is only the raid
/// Boss's Life (RAID:F3).
pub static VALUES: &[ValueSpec] = &[ValueSpec {
    name: "life",
    min: None,
    max: None,
    default: 0,
    rule: "RAID:F3",
}];

/// Keyword abilities and keyword properties (302, glossary).
pub const KEYWORDS: &[&str] = &[
    // 【Main】: usable only in your main phase with an empty zone.
    "main",
    // ウォークライ (302.1@2).
    "war_cry",
    // 連撃 (302.5).
    "double_attack",
    // 奇襲 (302.6).
    "ambush",
    // 連続射撃 (302.7).
    "rapid_fire",
    // 狙撃 (302.8).
    "snipe",
    // 侵食 (302.10).
    "erosion",
    // 増殖 (302.11): deck building only.
    "proliferate",
    // 貫通X (GL:貫通X), X = stat `pierce`.
    "pierce",
    // 付与 (204.2.2): an active that stays attached to its host.
    "attach",
    // 「以下から1つを選ぶ」 / 「AまたはB」 (406.3, GL:または ※2).
    "choose_one",
    // 「…」の能力は1ターンに1回 (300.8.1 / 300.8.2).
    "once_per_turn",
    "name_once_per_turn",
    // ドロップ (302.4) is the trigger `drop`; the keyword marks the card
    // for the 9-card limit of 100.6.
    "drop",
    // 【EX】 (RAID:S13).
    "ex",
    // 回復X (302.9): the card's effect is a 回復, written as a
    // `choose_one` of its two modes: `put` from the discard to the deck
    // then `shuffle`, or `reset_damage` and `set_state` `front` on an ally
    // chara. In a raid its ally may be another party member's chara
    // (RAID:S2).
    "recover",
    // 「“AまたはB”のどちらかの中から2つを選ぶ」 (GL:または ※1): the cards
    // chosen all meet A or all meet B.
    "either",
];

/// The effect language PSO2 implements; the loader refuses the rest.
const VOCABULARY: Vocabulary = Vocabulary {
    effects: Declared::only(
        &[
            "damage",
            "destroy",
            "banish",
            "return_to_hand",
            "draw",
            "draw_up_to",
            "buff",
            "set_power",
            "set_state",
            "reset_damage",
            "summon",
            "shuffle",
            "modify_cost",
            "modify_damage",
            "put",
            "lose",
            "win",
            "lose_abilities",
            "negate",
            "roll_die",
            "reveal",
            "restrict",
            "select_targets",
            "engage",
            "with_x",
            // The glossary's connectives (flow/connectives.rs).
            "if_done",
            "then",
            "also",
            "by_doing",
        ],
        rules::EFFECT_ORDER,
    ),
    targets: Declared::all(rules::TARGET_LEGAL),
    // "This interference" durations do not exist in PSO2. Conditions of
    // application (300.4): whose turn, the phase, a zone's size or a
    // player value; PSO2 has no counts on cards.
    durations: Declared::all_but(&["this_interference"], rules::MODIFICATION),
    conditions: Declared::only(&["turn", "phase", "value", "zone"], rules::CONTINUOUS),
    // A name is the name in the game (206.2); a trait is a class icon or
    // a 種別 ([`flow`]'s target filters).
    filters: Declared::all_but(
        &["zones", "colour", "special"],
        rules::TARGET_AT_DECLARATION,
    ),
};

/// What PSO2 declares.
static SPEC: GameSpec = GameSpec {
    id: "pso2",
    zones: ZONES,
    board_zone: "field",
    values: VALUES,
    card_types: flow::types::ALL,
    card_states: flow::st::ALL,
    stats: &[
        "slots",
        "pierce",
        "ability_cost",
        "ability_x_cost",
        "per_host",
        "x_cost",
        "deck_copies",
    ],
    text_fields: &[
        "title",
        "color",
        "class",
        "also_named",
        "exclusive",
        "ability_color",
    ],
    // Costs printed before 「：」 on an activated ability (209.1.3.1) and
    // on triggered abilities, paid as they trigger (209.1.3.2).
    cost_triggers: flow::COST_TRIGGERS,
    // The parts of an ability cost (209.1.3, flow::ability_cost):
    // 【ON⇒OFF】 (`set_state`), ① and ⓧ (`pay_cost`), hand cards (`put`).
    cost_effects: Declared::only(&["set_state", "pay_cost", "put"], rules::ABILITY_COST),
    // 付与先: the card an attach active or equipment is attached to.
    regions: &[flow::HOST],
    keywords: KEYWORDS,
    triggers: flow::TRIGGERS,
    phases: flow::PHASES,
    readings: flow::READINGS,
    // The raid battle's seat and difficulty flags.
    flags: &[
        flow::raid::flag::BOSS,
        flow::raid::flag::EASY,
        flow::raid::flag::HARD,
        flow::raid::flag::VERY_HARD,
    ],
    vocabulary: VOCABULARY,
    actions: flow::ACTIONS,
    rules: rules::CITABLE,
    starter: include_str!("starter.json"),
    coverage_chapters: &["1", "2", "3", "4", "5", "GL", "RAID"],
    coverage_exceptions: coverage::EXCEPTIONS,
    ..GameSpec::BASE
};

impl GameModule for Pso2 {
    fn spec(&self) -> &'static GameSpec {
        &SPEC
    }
    fn players_for(&self, listed: usize) -> usize {
        // The cooperative raid battle seats several party players and the
        // Boss (RAID:P1, RAID:F2); other games have two players (101.2).
        listed.clamp(2, flow::raid::MAX_SEATS)
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
    fn ability_refusal(
        &self,
        def: &crate::engine::CardDef,
        ab: &crate::engine::AbilityDef,
    ) -> Option<String> {
        flow::ability_refusal(def, ab)
    }
}

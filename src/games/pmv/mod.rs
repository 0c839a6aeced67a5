//! Phantom Magic Vision (幻想魔録 PMV), comprehensive rules Ver.2.05.
//!
//! Implemented: setup 1.2.7 (phase `setup`: 50-card deck, 7 cards, 25
//! life, no mulligan, the first player skips their first draw 1.2.8); the
//! turn of chapter 4 with priority in every phase and the hand limit at the
//! start of the discard phase only (4.8.1.a); nodes (1.8.2–1.8.7: one set
//! per turn, face down and active; pay 1 by sleeping an active node or 1 by
//! discarding a sleeping one, never both from one node in one payment; the
//! node requirement counts every node; nodes do not untap); playing cards
//! (5.2.2 conditions, 5.2.3 steps, 5.4/5.5/5.6 per type); priority and the
//! interference 干渉 (1.12: resolved last-in-first-out in one go once all
//! pass, then combat, then the turn player gets priority); combat (6.2.4
//! a–j, attack 6.3, block 6.4, recipient fixed at 6.2.4.c, first strike,
//! pierce, graze 6.5); the damage procedure 1.10.12 a–f with its four
//! trigger windows, combat and effect damage kept apart (1.10.13.d/e);
//! removal 決死 → 破棄 → 除外 (chapter 9) interrupting the current effect,
//! nullifying 決死 and 破棄 (effect `nullify_removal`, 9.2.4–9.2.5,
//! 9.3.5–9.3.6), 「決死状態にならない」 / 「破棄されない」 (states, 9.2.8.c,
//! 9.3.8.c);
//! win, loss and draw (1.5); automatic γ effects in the effect language.
//!
//! Keywords implemented: マナチャージ mana charge (an activated effect,
//! 7.3.4 with the sleep-icon cost 1.8.8), 変身 transform (the γ when
//! attacking or blocking and the （常時）０ activated effect; the
//! transformed description 2.17 is the card's core `alternate` face, and
//! equipment and charms give theirs; see `flow/transform.rs`), 加護 blessing (stat
//! `blessing` = X), 抵抗 resist (stat `resist` = X; targets in a play area
//! come from a filter with `"zone": "play"`), 幻想生物 phantasm creature (a
//! spell that resolves into a character), 世界呪符 world charm, 維持コスト
//! upkeep (stat `upkeep` = X, paid, declined or ignored at the maintenance
//! phase's rule effect), ラストスペル last spell and ラストワード last word
//! (the spell's caster 術者 is `text.caster`, 5.5.7; 10.32.2.b cannot arise),
//! 封術 sealed arts (such a character is no caster under 6 nodes), 壱符
//! first card (Spell Break from the `sideboard` zone, choices
//! `<card>.spell_break` / `<card>.move_set_cards`; the sideboard is checked
//! at setup, 1.2.5), 弐符 second card (excluded when it enters other than by
//! a Spell Break; a 弐符 card played with its own `on_enter` effects is not
//! implemented), 装備 equip and
//! 呪符 charm (set on the target character, which gets the set card's
//! combat modifiers, written as its `attack` / `defense`, and its text:
//! abilities and character keywords, 10.13.6, flow/gained.rs; a set card
//! shares its character's orientation, 11.3.11.c; set cards are discarded
//! with their character; a set card's `effect` ability or 維持コスト, or a
//! character returned to hand with set cards, is not implemented), 神器 divine
//! artifact (targets only 伝説 characters), 装備／場 equip/field (set on
//! its player's field, active, one per field; an `effect` ability on it is
//! not implemented), オーバードライブ overdrive (choice `<card>.overdrive`:
//! the Netherworld cards to exclude as the play resolves), 連結 link
//! (`text.link` = `A+B+…`: extra names for name references and
//! same-name checks; choice `<card>.link` as the play resolves; a link
//! card in a deck at setup, where the names would count toward 1.2.2.b, is
//! not implemented), 速攻 haste, 奇襲 ambush (play at command timing;
//! the block-on-play of 10.3.2.b is not), 先制 first strike, 貫通 pierce,
//! 隠密 stealth, 警戒 vigilance, 耐性Ａ resistance (`resistance_<race>`), 即死 instant death, 人形 doll, 伝説 legend
//! (no text of its own), ターン１枚制限, 自分ターン制限, 相手ターン制限,
//! デッキ１枚制限 (checked at setup). Every other keyword of chapter 10 stops
//! the run with `not implemented: clause 10.x` as soon as a card carrying it
//! is in the game.
//!
//! Not implemented: activated effects other than マナチャージ and 変身 (7.3), α/β effects written in card
//! text other than the keywords above, set cards other than equipment and
//! charms (人気), the free play of
//! commands by alternate race (5.6.6), loops (12.10), "resolve as if
//! played" (5.3). A spell whose caster is on the field may be played free
//! (5.5.6, choice `caster_free`).

pub mod coverage;
pub mod flow;
pub mod rules;

use crate::engine::{
    Action, Declared, Game, Outcome, Plan, ValueSpec, Visibility, Vocabulary, ZoneSpec, driver,
};

use super::{GameModule, GameSpec};

/// The PMV module.
pub struct Pmv;

/// PMV zones (3.1.1). The node area is not part of the field (3.5).
pub static ZONES: &[ZoneSpec] = &[
    ZoneSpec::new("field", Visibility::Public, false, false, "3.4.1"),
    ZoneSpec::new("deck", Visibility::Hidden, true, false, "3.2.1"),
    ZoneSpec::new("hand", Visibility::Private, false, false, "3.6.1"),
    ZoneSpec::new("node", Visibility::Hidden, false, false, "3.5.1"),
    ZoneSpec::new("netherworld", Visibility::Public, true, false, "3.3.1"),
    ZoneSpec::new("exclusion", Visibility::Public, false, false, "3.7.1"),
    ZoneSpec::new("play", Visibility::Public, false, false, "3.8.1"),
    // サイドボード (3.9): hidden, its owner may look (3.9.3.a); it matters
    // only to an effect that refers to it (3.9.4), 壱符 (10.18).
    ZoneSpec::new("sideboard", Visibility::Private, false, false, "3.9.1"),
];

/// PMV player values: life (ライフポイント, 1.9), no bounds (1.9.6).
pub static VALUES: &[ValueSpec] = &[ValueSpec {
    name: "life",
    min: None,
    max: None,
    default: 25,
    rule: "1.9.1",
}];

/// The 33 keyword abilities of chapter 10 (10.2–10.34), English names;
/// 耐性Ａ is written `resistance_<race>` with the race A.
pub const KEYWORDS: &[&str] = &[
    "haste",
    "ambush",
    "first_strike",
    "pierce",
    "stealth",
    "vigilance",
    "instant_death",
    "doll",
    "legend",
    // 耐性Ａ (10.11): one keyword per race A of 2.6.2, compared with the
    // attacker's `traits` (races).
    "resistance_human",
    "resistance_youkai",
    "resistance_fairy",
    "resistance_magician",
    "resistance_kappa",
    "resistance_vampire",
    "resistance_makai",
    "resistance_ghost",
    "resistance_tengu",
    "resistance_shinigami",
    "resistance_yama",
    "resistance_god",
    "resistance_beast",
    "resistance_oni",
    "resistance_celestial",
    "resistance_dragon",
    "resistance_hermit",
    "resistance_inchling",
    "mana_charge",
    "equip",
    "charm",
    "equip_field",
    "phantasm",
    "world_charm",
    "first_card",
    "second_card",
    "link",
    "one_per_turn",
    "own_turn_only",
    "opponent_turn_only",
    // 自分ターン１枚制限 / 相手ターン１枚制限 (10.21.3, 10.22.3, 10.23.3).
    "own_turn_one_per_turn",
    "opponent_turn_one_per_turn",
    "one_per_deck",
    "divine_artifact",
    "resist",
    "upkeep",
    "transform",
    "blessing",
    "last_spell",
    "sealed_arts",
    "last_word",
    "overdrive",
    "leader",
];
const EFFECTS: &[&str] = &[
    "damage",
    "amount_of_chosen",
    "destroy",
    "banish",
    "return_to_hand",
    "draw",
    "draw_up_to",
    "change_value",
    "buff",
    "set_power",
    "reset_damage",
    "swap_power",
    "add_counter",
    "set_state",
    "nullify_removal",
    "shuffle",
    "pay_life",
    "set_value",
    "pay_cost",
    "resolve_as_played",
    "modify_cost",
    "declare",
    "win",
    "lose",
    "nullify_damage",
    "restrict",
    "attack",
    "block",
    "cancel_attack",
    "turn_face",
    "become",
    "change_target",
    "end_turn",
    "end_phase",
    "extra_phase",
    "skip_phase",
    "change_info",
    "change_text",
];

/// The effect language PMV implements ([`EFFECTS`]); the loader refuses the rest. Not
/// implemented for PMV: tokens (`summon`: PMV has none), and the words the
/// other games added: skipped and extra turns, `put`, `evolve`,
/// `take_control`, `set_cost`, `modify_damage`, `choose`, `lose_abilities`,
/// `swap`, `race`, `change_keywords`, deck `search`, `look_at` and
/// `shuffle_into`, `select_targets`, `engage`; of `change_info`, only `name` (flow/info.rs). The list is
/// explicit, so a word added to the shared language is refused for PMV
/// until PMV implements it (tests/engine_vocabulary.rs checks PMV's schema).
const VOCABULARY: Vocabulary = Vocabulary {
    effects: Declared::only(EFFECTS, rules::CARD_TEXT),
    targets: Declared::all(rules::PLAY_TARGETS),
    durations: Declared::all(rules::TURN_END_DURATIONS),
    // A number of cards on the board (`cards`) is SVE's condition form.
    conditions: Declared::all_but(&["cards"], rules::CARD_TEXT),
    filters: Declared::all_but(&["zones", "colour", "special"], rules::PLAY_TARGETS),
};

/// What PMV declares.
static SPEC: GameSpec = GameSpec {
    id: "pmv",
    zones: ZONES,
    board_zone: "field",
    values: VALUES,
    card_types: &["character", "spell", "command"],
    card_states: &[
        flow::st::SLEEP,
        flow::st::CANNOT_BE_DOOMED,
        flow::st::CANNOT_BE_DISCARDED,
        flow::st::POPULARITY,
        // 決死状態: `set_state` makes a card doomed (9.2.7.b); a card
        // that starts doomed is removed at the first rule processing.
        flow::st::DOOMED,
        flow::st::FACE_DOWN,
    ],
    stats: &[
        "node",
        "graze",
        "mana_charge",
        "blessing",
        "resist",
        "upkeep",
        "alternate_race_count",
    ],
    text_fields: &["caster", "link", "alternate_race"],
    condition_counts: &[flow::POPULARITY_COUNT],
    keywords: KEYWORDS,
    triggers: flow::TRIGGERS,
    phases: flow::PHASES,
    readings: flow::READINGS,
    vocabulary: VOCABULARY,
    actions: &[
        "pass", "set_node", "play", "attack", "block", "activate", "concede", "use",
    ],
    rules: rules::CITABLE,
    starter: include_str!("starter.json"),
    coverage_chapters: &["1", "4", "5", "6", "9", "10"],
    coverage_exceptions: coverage::EXCEPTIONS,
    board_damage_refused: Some(
        "PMV keeps a character's 蓄積ダメージ (accumulated damage, 1.10.11.b) by kind, since combat and effect damage reset at different times (1.10.13.d, e): write \"counters\": {\"combat_damage\": N} or {\"effect_damage\": N}",
    ),
    ..GameSpec::BASE
};

impl GameModule for Pmv {
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

//! The Dimension Zero procedures on the engine's step machine: the turn
//! (3.4–3.10), priority and the stack (4.6, 4.9), playing cards and paying
//! energy (4.7.2, 1.2.3), moving units (4.7.3, 4.9.3), battles step by step
//! (3.11–3.14), smash (3.9), rule effects (4.16) and triggered abilities
//! (4.8).
//!
//! The stack's entries (spells, abilities, moves, battle damage exchanges),
//! the passes in a row, the battles in progress and their waiting stacks
//! are the module's own state ([`Dz`], read with `game.own`), so a
//! rejected action rolls them back with everything else.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::engine::{Action, Card, CardId, EngineError, Flow, Game, Machine, PlayerId, Rules};

mod activate;
mod amount;
mod attach;
mod awakening;
pub use activate::ACTIVATED;
mod battle;
pub mod board;
mod colour;
mod cost;
mod deck_order;
mod divide;
mod effects;
mod freeze_cost;
mod may_replace;
mod modes;
mod movement;
mod moves;
mod nearby;
mod pincer;
mod plan;
mod play;
mod priority;
mod put;
mod resolve;
mod resonance;
mod restrict;
mod resume;
mod rule_effects;
mod search;
mod smash;
mod special_play;
mod statics;
mod swap;
mod target_place;
mod targets;
mod triggers;
mod turn;
mod watchers;
mod zone_effect;

#[cfg(test)]
mod tests;

use super::rules as r;

/// The card ids a choice names, not yet taken (one id or a list): for
/// the checks that make naming a card an illegal action rather than a bad
/// choice.
pub fn named_in_choice(m: &mut M, key: &str) -> Vec<String> {
    match m.choices.peek(key) {
        Some(Value::String(s)) => vec![s.clone()],
        Some(Value::Array(a)) => a
            .iter()
            .filter_map(|x| x.as_str().map(str::to_string))
            .collect(),
        _ => Vec::new(),
    }
}

/// The machine DZ runs on.
pub type M = Machine<Step>;

/// フリーズ状態 (2.26.1); a card without it is released (リリース状態).
pub const FROZEN: &str = "frozen";
/// A strategy lying under a card as a 闘気 card (闘気カード, 6.1.1), not
/// bonded to it (結合, 6.6): both lie in `under`, and without the mark a
/// strategy there is read as bonded. Every other card under a card is a
/// 闘気 card, so only a strategy is marked (the engine marks one it puts
/// as a 闘気 card; a board may write it).
pub const TOKI_STRATEGY: &str = "toki";

/// Card types (分類, 2.6.2).
pub mod types {
    pub const UNIT: &str = "unit";
    pub const BASE: &str = "base";
    pub const STRATEGY: &str = "strategy";
    pub const ALL: &[&str] = &[UNIT, BASE, STRATEGY];
}

/// Numeric characteristics: the energy symbols of the use cost (1.2.3),
/// of the move cost (2.5), the smash value (2.13), 禁呪 (2.19) and the
/// numbers of keywords (即死レベル, 支援, 急襲).
pub const STATS: &[&str] = &[
    "red",
    "black",
    "blue",
    "white",
    "green",
    "colorless",
    "move",
    "move_red",
    "move_black",
    "move_blue",
    "move_white",
    "move_green",
    "smash",
    "forbidden",
    "instant_death",
    "support",
    "raid",
    // 進撃's additional move cost (5.11.1): colourless and coloured.
    "advance",
    "advance_red",
    "advance_black",
    "advance_blue",
    "advance_white",
    "advance_green",
    // The energy cost of an activated ability (4.3.1): colourless `act`
    // and coloured `act_red` … (flow/activate.rs).
    "act",
    "act_red",
    "act_black",
    "act_blue",
    "act_white",
    "act_green",
    // X symbols of the use cost (1.2.3-3): colourless X and coloured X.
    "x",
    "x_red",
    "x_black",
    "x_blue",
    "x_white",
    "x_green",
    // The 覚醒 cost (5.7.3-1, flow/awakening.rs): colourless, coloured, X.
    "awaken",
    "awaken_red",
    "awaken_black",
    "awaken_blue",
    "awaken_white",
    "awaken_green",
    "awaken_x",
    "awaken_x_red",
    "awaken_x_black",
    "awaken_x_blue",
    "awaken_x_white",
    "awaken_x_green",
    // Units frozen as a spell's additional cost (flow/freeze_cost.rs): N,
    // and N per X.
    "freeze_units",
    "freeze_units_x",
    // The 隊列召喚 cost (5.8.2, flow/special_play.rs): colourless, coloured.
    "formation",
    "formation_red",
    "formation_black",
    "formation_blue",
    "formation_white",
    "formation_green",
];

/// The count a static ability's `condition` may bound: the area of the
/// battle square its card is on, seen from the card's controller: 0 own,
/// 1 central, 2 enemy (2.24.7-2); a card on no battle square has none, so
/// the condition does not hold.
pub const AREA_COUNT: &str = "area";

/// The five colours (2.4.2-3), in the order the stats list them.
pub const COLOURS: &[&str] = &["red", "black", "blue", "white", "green"];

/// Ability kinds: `spell` is a strategy's text, resolved with it
/// (2.10.3-1); the others are triggered abilities (4.4.1): 「スクエアに
/// 置かれた時」 `on_placed` (4.8.9), 「攻撃した時」 `on_attack`,
/// 「攻撃された時」 `on_attacked` (3.12.1), 「バトルに勝利した時」
/// `on_win` (3.14.1), 「スクエアから墓地に置かれた時」 `to_graveyard`
/// (4.8.11), 「ターン開始時」 `start_of_turn` (3.5.1) and 「ターン終了時」
/// `end_of_turn` (3.10.2).
pub const TRIGGERS: &[&str] = &[
    "spell",
    "on_placed",
    "on_attack",
    "on_attacked",
    "on_win",
    "to_graveyard",
    // 「このカードがスマッシュゾーンに置かれた時」: read as the card was before
    // (a plan card's plan-zone effect, 4.8.10-2; flow/triggers.rs).
    triggers::TO_SMASH,
    // 「相手のベースがスクエアから墓地に置かれた時」 (flow/watchers.rs).
    watchers::OPPONENT_BASE,
    "start_of_turn",
    "end_of_turn",
    // 進撃's own triggered ability: the move with its additional cost paid
    // resolved (5.11.2).
    "on_advance",
    // An activated ability (4.3): 「［コスト］ 《タイミング》 効果」, played
    // with the action `activate` (see `activate.rs`).
    "activated",
    // A static ability (常在型能力, 4.5): `buff` of `all` or `this` cards,
    // applied continuously while the card is on a square.
    "static",
    // 「このカードがスクエアから墓地に置かれる時、かわりに…」: a replacement
    // effect (4.15.2) of the card's own text; its effects read `this` as
    // the card, still on its square.
    "instead_of_graveyard",
    // 「このカードと同じラインのスクエアにあるあなたのユニットが墓地に置か
    // れた時」 / 「…置かれる時、かわりに…」: abilities watching your units
    // in the region of the card's text `watch` (4.8.6, 4.15.2).
    "unit_to_graveyard",
    "instead_of_unit_graveyard",
    // 「相手のユニットがこのカードと隣接するスクエアに置かれた時」: watching
    // the opponent's units arriving in the region of the card's text
    // `watch` (`adjacent` by default; flow/nearby.rs).
    "opponent_unit_placed",
    // 「相手のカードの下にある闘気カードが墓地に置かれる時、かわりに…」: a
    // replacement on the 闘気 cards of the opponent's cards (flow/attach.rs).
    "instead_of_opponent_toki_graveyard",
];

/// The phases (3.4.2); a scenario starts at the beginning of one.
pub const PHASES: &[&str] = &["release", "draw", "energy", "main", "smash", "recovery"];

/// Readings where the rulebook is silent or contradicts itself (the
/// default is the judges' reading; the flag chooses the other).
pub const FLAGS: &[&str] = &[
    // A2: with no 加速 unit, 5.4.1-1 stacks no exchange in the first step
    // (default: 3.12.2's wording, an empty exchange is stacked).
    "reading_first_step_no_empty_exchange",
    // A1: 4.16.4-10 "both units on squares" (any square) instead of
    // 3.14.2's "on the square of the battle".
    "reading_attacker_dies_on_any_square",
    // A3: 1.2.3-2 pays colourless with released energy cards 「任意の色の」;
    // a colourless card has no colour (2.4.2-3). Default: any card pays
    // colourless; the flag refuses colourless cards.
    "reading_colourless_card_cannot_pay",
    // A4: no clause states the state of a unit an effect moves from square
    // to square; default: it keeps it (the same object, 2.23.8-4); the
    // flag puts it frozen, as a unit put from another zone (flow/put.rs).
    put::RELOCATED_FROZEN,
    // A5: a unit played by 召集 / 隊列召喚 "as if your own area" is not
    // destroyed in the central area (2.20.1-6); the flag destroys it.
    special_play::CENTRAL_DESTROYED,
    // A10: スモールアイ's 後方 is toward your own side; the flag reads it
    // toward the enemy's side (flow/special_play.rs).
    special_play::SMALL_EYE_TOWARD_ENEMY,
];

/// Action words.
pub const ACTIONS: &[&str] = &[
    "pass",
    "both_pass",
    "play",
    "move",
    "energy",
    "smash",
    "create_plan",
    "update_plan",
    "activate",
    "concede",
];

/// A phase of the turn (3.4.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    Release,
    Draw,
    Energy,
    Main,
    Smash,
    Recovery,
}

impl Phase {
    /// The scenario word.
    pub fn name(self) -> &'static str {
        match self {
            Phase::Release => "release",
            Phase::Draw => "draw",
            Phase::Energy => "energy",
            Phase::Main => "main",
            Phase::Smash => "smash",
            Phase::Recovery => "recovery",
        }
    }
    /// The phase named `s`.
    pub fn parse(s: &str) -> Option<Phase> {
        [
            Phase::Release,
            Phase::Draw,
            Phase::Energy,
            Phase::Main,
            Phase::Smash,
            Phase::Recovery,
        ]
        .into_iter()
        .find(|p| p.name() == s)
    }
    /// The phase after this one, `None` after the recovery phase.
    pub fn next(self) -> Option<Phase> {
        match self {
            Phase::Release => Some(Phase::Draw),
            Phase::Draw => Some(Phase::Energy),
            Phase::Energy => Some(Phase::Main),
            Phase::Main => Some(Phase::Smash),
            Phase::Smash => Some(Phase::Recovery),
            Phase::Recovery => None,
        }
    }
}

/// A step of a battle (3.11.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BattleStep {
    First,
    Second,
    End,
}

/// The procedures.
#[derive(Debug, Clone)]
pub enum Step {
    /// A phase begins: its special action, its start triggers.
    Begin(Phase),
    /// A player is about to receive priority: rule effects and triggers
    /// first (4.6.3), then [`Step::Priority`].
    Offer(PlayerId),
    /// The player holds priority (the awaiting step).
    Priority(PlayerId),
    /// Both players passed in succession (4.6.2).
    BothPassed,
    /// The current phase ends (3.4.3).
    EndPhase,
    /// A step of the innermost battle begins.
    Battle(BattleStep),
}

/// A chosen target: the card and the object it was (its incarnation), so
/// a zone change other than square to square makes it illegal (4.9.2-1).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tgt {
    pub card: CardId,
    pub inc: u32,
}

/// What one instruction of a text targets (4.11.1), in that instruction's
/// slot of a stack entry's targets: cards, each the object it was when
/// chosen, or a place, a battle square or a line (「対象のスクエア／ライン」,
/// flow/target_place.rs), which never changes zones.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Chosen {
    Cards(Vec<Tgt>),
    Place(#[serde(with = "target_place::place_name")] resume::Place),
}

impl Chosen {
    /// The cards chosen; `None` for a place.
    pub fn cards(&self) -> Option<&Vec<Tgt>> {
        match self {
            Chosen::Cards(ts) => Some(ts),
            Chosen::Place(_) => None,
        }
    }

    /// The place chosen; `None` for cards.
    pub fn place(&self) -> Option<&'static str> {
        match self {
            Chosen::Place(p) => Some(p),
            Chosen::Cards(_) => None,
        }
    }
}

/// One hit of a battle damage exchange, fixed when stacked (3.12.4-1).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Hit {
    pub dealer: CardId,
    pub dealer_inc: u32,
    pub receiver: CardId,
    pub receiver_inc: u32,
    pub amount: i64,
}

/// What an entry of the stack is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// A card played as a spell (2.21): a unit or base with its square, or
    /// a strategy with its targets (one list per effect with a chosen
    /// target).
    Spell {
        card: CardId,
        #[serde(with = "resume::place_opt")]
        square: Option<resume::Place>,
        targets: Vec<Option<Chosen>>,
        /// The options picked of a modal spell (4.7.2-2).
        modes: Vec<usize>,
        /// A unit played by 召集 or 隊列召喚 (5.3, 5.8).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        special: Option<special_play::Special>,
    },
    /// A triggered ability (4.8): read from `def` (last-known information,
    /// 4.9.2-6).
    Ability {
        source: CardId,
        source_inc: u32,
        def: String,
        ability: usize,
        trigger: String,
        targets: Vec<Option<Chosen>>,
        /// The square where the unit whose arrival triggered it was put
        /// (flow/nearby.rs): 「そのスクエア」 of its text.
        #[serde(with = "resume::place_opt")]
        event_square: Option<resume::Place>,
    },
    /// 即死's delayed trigger (5.2.2): put `unit` into its owner's graveyard.
    InstantDeath {
        source: CardId,
        unit: CardId,
        unit_inc: u32,
    },
    /// Moving a unit, a rule-defined activated ability (3.8.2-6).
    Move {
        unit: CardId,
        inc: u32,
        #[serde(with = "resume::place")]
        from: resume::Place,
        #[serde(with = "resume::place")]
        to: resume::Place,
        /// 進撃's additional cost was paid (5.11.2).
        advance: bool,
    },
    /// A battle damage exchange (3.12.2, 3.13.2).
    Exchange {
        #[serde(with = "resume::place")]
        square: resume::Place,
        hits: Vec<Hit>,
    },
    /// Creating (`update: false`) or updating the plan zone (3.8.2-3/-4).
    Plan { update: bool },
    /// An ability a spell or ability created to trigger at the end of the
    /// turn (4.4.4, flow/target_place.rs).
    EndOfTurn(target_place::EndOfTurn),
}

/// An entry of the stack.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    pub controller: PlayerId,
    pub kind: Kind,
}

/// A triggered ability waiting to be put on the stack (4.8.2).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Trig {
    pub controller: PlayerId,
    pub kind: Kind,
}

/// A unit played into the central area (2.20.1-6, 4.16.4-8/-9).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Central {
    /// Not yet looked at by the rule effects.
    Placed,
    /// A battle occurred there: destroyed at the end of that battle.
    InBattle(u64),
}

/// A battle in progress (3.11).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Battle {
    pub id: u64,
    #[serde(with = "resume::place")]
    pub square: resume::Place,
    /// Battling units and the object each was (3.11.1-2).
    pub units: BTreeMap<CardId, u32>,
    pub attackers: BTreeSet<CardId>,
    pub attacked: BTreeSet<CardId>,
    pub step: BattleStep,
    /// The step's exchange was stacked (or the step decided it has none).
    pub exchanged: bool,
    /// Units that stacked their damage in the first step (5.4.2).
    pub dealt_first: BTreeSet<CardId>,
    /// In the end step: the rule effects of 3.14.2 were applied.
    pub end_rules_done: bool,
    /// The stack and triggers that wait until the battle ends (3.11.2).
    pub waiting: Vec<Entry>,
    pub waiting_trigs: Vec<Trig>,
}

/// 即死's trigger waiting for the end of a battle (5.2.2).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Delayed {
    pub battle: u64,
    pub controller: PlayerId,
    pub source: CardId,
    pub unit: CardId,
    pub unit_inc: u32,
}

/// The module's own state.
#[derive(Debug, Clone, Default)]
pub struct Dz {
    /// The stack, bottom first (2.23.9).
    pub stack: Vec<Entry>,
    /// Passes in succession (4.6.2).
    pub passes: u8,
    /// Arrival order on squares (3.11.5, 4.16.4-6): a counter per arrival.
    pub arrived: BTreeMap<CardId, u64>,
    pub seq: u64,
    /// Units played into the central area (2.20.1-6).
    pub central: BTreeMap<CardId, Central>,
    /// Battles in progress, innermost last (3.11.3).
    pub battles: Vec<Battle>,
    pub next_battle: u64,
    /// Triggered abilities waiting for the next priority (4.8.2).
    pub trigs: Vec<Trig>,
    /// 即死 triggers waiting for their battle's end.
    pub delayed: Vec<Delayed>,
    /// The energy special action was taken this turn (3.7.1).
    pub energy_done: bool,
    /// Recovery phase: end-of-turn triggers already fired this round
    /// (3.10.2), and whether anything happened since step 1 (3.10.3).
    pub recovery_fired: bool,
    pub recovery_dirty: bool,
    /// "At end of turn" abilities already triggered this turn: they trigger
    /// once per turn (4.4.4).
    pub end_of_turn_done: bool,
    /// Cards whose "instead of the graveyard" replacement is being applied
    /// (it never applies twice to the same event, 4.15.6).
    pub replacing: BTreeSet<CardId>,
    /// A battle just occurred: its first step begins before priority.
    pub battle_begun: bool,
    /// The square each card was last on before leaving the squares, for
    /// abilities that measure from it (4.2.6, 4.8.4-2, 4.9.2-6).
    pub last_square: BTreeMap<CardId, &'static str>,
    /// The current simultaneous event (one effect, one round of rule
    /// effects) and the cards that left the squares in it, as they were.
    pub batch: u64,
    pub left_in_batch: BTreeMap<CardId, (Card, &'static str)>,
    /// Players a unit of whom was put onto a square by resolving its move
    /// this turn (共鳴, 5.13.2).
    pub moved_this_turn: BTreeSet<PlayerId>,
    /// "Can't" restrictions created by resolved spells and abilities
    /// (4.14.3), in force until their period ends.
    pub restrictions: Vec<restrict::Restriction>,
    /// Damage divided among targets as a spell was played (4.7.2-6):
    /// source → target → amount.
    pub divided: BTreeMap<CardId, BTreeMap<CardId, i64>>,
    /// Units put onto squares during a simultaneous event (a swap), seen
    /// by the watchers of flow/nearby.rs once it is over.
    pub placing: Option<Vec<CardId>>,
    /// Players whose deck's order has been deliberately decided (6.2.2);
    /// it stays so for the duel (6.2.4).
    pub deck_ordered: BTreeSet<PlayerId>,
    /// While an ability triggered by a unit's arrival resolves: the square
    /// that unit was put onto (`put` `to: "event_square"`).
    pub event_square: Option<&'static str>,
    /// While a text that targets a place resolves: that place, still legal
    /// (`put` `to: "target_place"`, flow/target_place.rs).
    pub target_place: Option<&'static str>,
    /// Abilities created to trigger at the end of the turn (4.4.4).
    pub end_of_turn: Vec<target_place::EndOfTurn>,
    /// A refusal found where a procedure can't return it (a zone move
    /// deciding an optional replacement, flow/may_replace.rs): the step or
    /// action that ran it fails with it, rolled back.
    pub refused: Option<EngineError>,
}

/// Fails the running step or action with `e` once it returns (for a
/// procedure that can't return an error itself).
pub fn defer(m: &mut M, e: EngineError) {
    dz(&mut m.game).refused.get_or_insert(e);
}

/// The refusal [`defer`] kept, if any.
fn deferred(m: &mut M) -> Result<(), EngineError> {
    match dz(&mut m.game).refused.take() {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// The module's state of a game.
pub fn dz(g: &mut Game) -> &mut Dz {
    g.own::<Dz>()
}

/// The module's state, read only (default when never written). Borrowed:
/// it is read on every rule-effect check and power calculation, and a copy
/// would clone every battle, trigger and restriction each time.
pub fn dz_ref(g: &Game) -> &Dz {
    static NEVER_WRITTEN: std::sync::LazyLock<Dz> = std::sync::LazyLock::new(Dz::default);
    g.own_ref::<Dz>().unwrap_or(&NEVER_WRITTEN)
}

pub use crate::engine::machine::errors::{bad, illegal, ni};

/// Whether any player chose the reading `flag`.
pub fn reading(g: &Game, flag: &str) -> bool {
    g.reading_on(flag)
}

/// The card type of a card (`unknown` for an anonymous card).
pub fn ctype<'a>(g: &'a Game, id: &str) -> &'a str {
    g.card_type(id)
}

/// A stat of a card's definition (0 when not printed).
pub fn stat(g: &Game, id: &str, name: &str) -> i64 {
    g.def_of(id)
        .and_then(|d| d.stats.get(name).copied())
        .unwrap_or(0)
}

/// A text characteristic of a card's definition.
pub fn text<'a>(g: &'a Game, id: &str, name: &str) -> Option<&'a str> {
    g.def_of(id)
        .and_then(|d| d.text.get(name))
        .map(String::as_str)
}

/// Whether the card has keyword `k`: printed, or given by a static
/// ability (「…を得る」).
pub fn has_kw(g: &Game, id: &str, k: &str) -> bool {
    has_printed_kw(g, id, k) || g.card(id).is_some_and(|c| statics::grants(g, c, k))
}

/// Whether the card's text has keyword `k`: for the keywords that decide
/// where its text works at all (ゾーン効果, 共鳴), read before any static
/// ability.
pub fn has_printed_kw(g: &Game, id: &str, k: &str) -> bool {
    g.def_of(id).is_some_and(|d| d.has_keyword(k))
}

/// The card's colours: those of the symbols of its use cost (2.4.2).
pub fn colours(g: &Game, id: &str) -> Vec<&'static str> {
    // An effect that changed the colour wins over the use cost (2.4.2);
    // whoever reads the colour reads it now (2.27 ¶4).
    if let Some(mask) = g.card(id).and_then(|c| c.set_value(colour::STAT)) {
        return colour::decode(mask);
    }
    COLOURS
        .iter()
        .copied()
        .filter(|c| stat(g, id, c) > 0)
        .collect()
}

/// The use cost: the sum of its numbers (2.4.3); a card that writes only
/// `cost` has that much colourless.
pub fn use_cost(g: &Game, id: &str) -> i64 {
    let symbols: i64 = COLOURS
        .iter()
        .chain(&["colorless"])
        .map(|c| stat(g, id, c))
        .sum();
    if symbols > 0 {
        symbols
    } else {
        g.def_of(id).and_then(|d| d.cost).unwrap_or(0)
    }
}

/// The card's current power (2.12): printed, plus modifications, plus
/// 支援 (5.5.2), plus static abilities (4.5).
pub fn power(g: &Game, c: &Card) -> i64 {
    let printed = g.def_of(&c.id).and_then(|d| d.attack).unwrap_or(0);
    printed + c.modifier("attack") + board::support_for(g, c) + statics::power(g, c)
}

/// The card's current smash (2.13): printed, plus modifications, plus
/// static abilities (4.5).
pub fn smash_value(g: &Game, c: &Card) -> i64 {
    stat(g, &c.id, "smash") + c.modifier("smash") + statics::smash(g, c)
}

/// Characteristics shown in snapshots.
pub fn derived(g: &Game, c: &Card) -> Vec<(&'static str, i64)> {
    let Some(d) = g.def_of(&c.id) else {
        return Vec::new();
    };
    let mut v = vec![("cost", use_cost(g, &c.id))];
    if d.card_type == types::UNIT {
        v.push(("power", power(g, c)));
        v.push(("smash", smash_value(g, c)));
    }
    v
}

/// The card's short label for the trace: `id (name)`.
pub fn label(g: &Game, id: &str) -> String {
    match g.def_of(id) {
        Some(d) => format!("{id} ({})", d.name),
        None => id.to_string(),
    }
}

/// Ends the duel when a player lost, as its own step `game.end` citing
/// the deciding clause: the duel ends at once (3.3.3); both losing at once
/// is a draw (3.3.4). Nothing is recorded after it: the priority loop and
/// the effect sequence stop on a decided result.
pub fn game_over(m: &mut M) {
    let g = &m.game;
    if g.result != crate::engine::GameResult::Ongoing {
        return;
    }
    let (result, text, rules) = match g.result_by_losses() {
        crate::engine::GameResult::Ongoing => return,
        crate::engine::GameResult::Draw => (
            crate::engine::GameResult::Draw,
            "both players lost at the same time: the duel ends in a draw".to_string(),
            vec![r::DUEL_ENDS, r::BOTH_LOSE],
        ),
        crate::engine::GameResult::Win(w) => (
            crate::engine::GameResult::Win(w.clone()),
            format!("{w} wins: the duel ends at once"),
            vec![r::DUEL_ENDS],
        ),
    };
    m.end(result, text, &rules);
}

fn step(m: &mut M, s: Step) -> Result<Flow, EngineError> {
    let flow = run_step(m, s)?;
    deferred(m)?;
    Ok(flow)
}

fn run_step(m: &mut M, s: Step) -> Result<Flow, EngineError> {
    match s {
        Step::Begin(p) => turn::begin(m, p),
        Step::Offer(p) => priority::offer(m, p),
        Step::Priority(p) => {
            m.stack.push(Step::Priority(p));
            Ok(Flow::Await)
        }
        Step::BothPassed => priority::both_passed(m),
        Step::EndPhase => turn::end_phase(m),
        Step::Battle(b) => battle::begin_step(m, b),
    }
}

fn act(m: &mut M, a: &Action) -> Result<(), EngineError> {
    if a.kind == "concede" {
        // Any time, not a rule effect, at once (3.3.7).
        let p = a.player.unwrap_or(m.game.turn.active);
        m.game.players[p].lost = true;
        m.record(
            "concede",
            format!("{} concedes", crate::engine::player_name(p)),
            &[r::CONCEDE],
        );
        game_over(m);
        return Ok(());
    }
    let Some(Step::Priority(holder)) = m.stack.pop() else {
        return Err(bad("no player holds priority now"));
    };
    priority::act(m, holder, a)?;
    deferred(m)
}

/// Checks a scenario's `state.in_progress` (flow/resume.rs).
pub fn check_in_progress(g: &Game, v: &Value) -> Result<(), String> {
    resume::parse(g, v).map(|_| ())
}

/// The spells a scenario's `state.in_progress` creates in the stack zone
/// (flow/resume.rs).
pub fn in_progress_cards(v: &Value) -> Vec<String> {
    resume::created(v)
}

impl Rules for super::Dz {
    type Step = Step;
    fn check(&self, g: &Game) -> Result<(), EngineError> {
        rule_effects::unreachable_board(g)?;
        rule_effects::refuse(g)
    }
    /// A player holding priority with something in progress
    /// (flow/resume.rs).
    fn in_progress(&self, m: &M) -> Option<Value> {
        resume::describe(m)
    }
    /// The phase the scenario names from its beginning, or what is in
    /// progress (`state.in_progress`, flow/resume.rs).
    fn start(&self, m: &mut M) -> Result<(), EngineError> {
        if let Some(v) = m.game.in_progress.clone() {
            let r = resume::parse(&m.game, &v).map_err(bad)?;
            resume::resume(m, r);
            return Ok(());
        }
        let phase = Phase::parse(&m.game.turn.phase)
            .ok_or_else(|| bad(format!("unknown phase `{}`", m.game.turn.phase)))?;
        board::number_arrivals(&mut m.game);
        m.then([Step::Begin(phase)]);
        Ok(())
    }
    fn step(&self, m: &mut M, s: Step) -> Result<Flow, EngineError> {
        step(m, s)
    }
    fn awaited(&self, m: &M) -> Option<PlayerId> {
        match m.stack.last() {
            Some(Step::Priority(p)) => Some(*p),
            _ => None,
        }
    }
    fn act(&self, m: &mut M, a: &Action) -> Result<(), EngineError> {
        act(m, a)
    }
    fn derived(&self, g: &Game, c: &Card) -> Vec<(&'static str, i64)> {
        derived(g, c)
    }
}

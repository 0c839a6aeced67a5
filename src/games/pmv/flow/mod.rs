//! The PMV procedures on the engine's step machine: setup (1.2.7), the turn
//! (chapter 4), priority and the interference 干渉 (1.12), nodes (1.8),
//! playing cards (5.2), combat (6.2–6.5), the damage procedure 1.10.12,
//! removal (chapter 9), win/loss (1.5) and the keywords of chapter 10 the
//! module implements.
//!
//! The interference is game state: it lives in the awaiting
//! [`Step::Priority`] step, so a rejected action rolls it back with the rest
//! of the machine.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

use super::rules as r;
/// The tests of every procedure file read outcomes.
#[cfg(test)]
use crate::engine::Outcome;
use crate::engine::{
    AbilityDef, Action, Card, CardId, EngineError, Filter, Flow, Game, GameResult, Machine,
    PlayerId, Recipient, Restricted, Rules, Side, Target, Until, Who, ZoneId, card::Effect,
    player_name, state::Modifier,
};

mod as_if;
mod chosen_amount;
mod combat;
mod cost;
mod damage;
mod effects;
mod face;
mod gained;
mod info;
mod keywords;
mod layers;
mod leader;
mod numbers;
mod orientation;
mod play;
mod playmods;
mod removal;
mod restrict;
mod resume;
mod retarget;
mod spell_break;
mod timing;
mod transform;
mod turn;

pub(crate) use self::face::without_information;
pub use self::leader::POPULARITY_COUNT;
use self::{
    as_if::*, combat::*, cost::*, damage::*, effects::*, face::*, info::*, keywords::*, layers::*,
    leader::*, numbers::*, play::*, playmods::*, removal::*, restrict::*, retarget::*,
    spell_break::*, timing::*, transform::*, turn::*,
};

/// PMV's own state, carried by the core (`Game::own`).
#[derive(Debug, Clone, Default)]
pub struct PmvState {
    /// Damage procedures (1.10.12) running, outermost first: inside one,
    /// removal waits for its step f.
    pub damage_depth: u32,
    /// Automatic effects fired inside one another (against loops).
    pub nesting: u32,
    /// The play being resolved did not resolve properly (5.2.4.c).
    pub play_failed: bool,
    /// Keyed counters of cards and players, read through [`vars`]:
    /// `turn.…` ones last until the turn ends (4.9.1.d: node set, normal
    /// character played, 世界呪符, dolls, names played, restrictions "this
    /// turn", end-the-turn and end-the-phase flags, waiting damage
    /// nullifications); `x.<card>.<name>` the variables of an effect being
    /// applied (1.6.2.b); `as_if.<card>.…` the play a card resolves as if
    /// played (5.3); `remover|<target>|<source>` who made a card leave;
    /// and the procedures' flags (interference open, between turns, extra
    /// phase, effects being applied).
    pub vars: BTreeMap<String, i64>,
    /// Between 4.9.1.d and 4.3.1.b: no turn is in progress for "during
    /// the turn" conditions.
    pub between_turns: bool,
    /// An interference is open: effects may last "during this
    /// interference" (1.12.8.c).
    pub interference_open: bool,
    /// The extra phase the turn goes to at the next phase change, by its
    /// index in `PHASES` (4.10.3.a).
    pub extra_phase: Option<usize>,
    /// The phase the turn returns to after an extra phase (4.10.3.b).
    pub extra_return: Option<usize>,
    /// Effects being applied inside one another (7.4.7.c defers 自動γ
    /// until the outermost ends).
    pub applying: i64,
    /// An attack is being made and its 「攻撃した時」 effects resolve
    /// (6.2.5.a: an attack exists though no character is attacking yet).
    pub attack_pending: bool,
    /// The order of continuous effects switched on together was noted
    /// once in the trace.
    pub cont_order_noted: bool,
    /// Flags that last until the turn ends (4.9.1.d).
    pub turn: TurnFlags,
    /// Names and texts given by effects (2.3.3, 2.13) still in force,
    /// oldest first.
    pub info_changes: Vec<InfoChange>,
    /// Resolved effects on "all" still within their period (7.6.1): they
    /// reach the cards that meet their condition later.
    pub standing: Vec<Standing>,
    /// Text hosts have gained from their set cards (10.13.6, 10.14.4).
    pub gained: Vec<gained::Gained>,
    /// Each host's orientation as last shared with its set cards
    /// (11.3.11.c): `true` asleep.
    pub orientation: BTreeMap<CardId, bool>,
}

/// A resolved effect on "all" cards matching `filter` that lasts `until`
/// (7.6.1): `reached` the objects (card, incarnation) it applies to.
#[derive(Debug, Clone)]
pub struct Standing {
    pub this: String,
    pub master: PlayerId,
    pub filter: Filter,
    pub effect: crate::engine::Effect,
    pub until: Until,
    pub reached: BTreeSet<(CardId, u32)>,
    /// The objects it stopped applying to, no longer meeting its
    /// condition (7.6.2).
    pub released: BTreeSet<(CardId, u32)>,
}

/// PMV's flags for the turn in progress, cleared when it ends.
#[derive(Debug, Clone, Default)]
pub struct TurnFlags {
    /// An end-the-turn effect was applied this turn (4.10.1).
    pub end_turn: bool,
    /// The turn is ending by an end-the-turn effect (its phase end is
    /// running), so the flag is not acted on twice.
    pub ending_turn: bool,
    /// An end-the-phase effect was applied in this phase (4.10.2); one
    /// applied during the end of the turn has no phase left to end.
    pub end_phase: bool,
}

/// PMV's state as the game holds it (the defaults before anything is set).
fn pmv(g: &Game) -> &PmvState {
    static NONE: std::sync::LazyLock<PmvState> = std::sync::LazyLock::new(PmvState::default);
    g.own_ref::<PmvState>().unwrap_or(&NONE)
}

/// The keyed counters of [`PmvState::vars`].
fn vars(g: &Game) -> &BTreeMap<String, i64> {
    &pmv(g).vars
}

/// The keyed counters of [`PmvState::vars`], to change.
fn vars_mut(g: &mut Game) -> &mut BTreeMap<String, i64> {
    &mut g.own::<PmvState>().vars
}

/// Card states the module uses.
pub mod st {
    /// スリープ状態 (5.1.2): turned sideways. Absent = アクティブ (active).
    pub const SLEEP: &str = "sleep";
    /// 決死状態 (9.2.1), only while chapter 9 is processed.
    pub const DOOMED: &str = "doomed";
    /// 破棄状態 (9.3.1).
    pub const DISCARDING: &str = "discarding";
    /// 除外状態 (9.4.1).
    pub const EXCLUDING: &str = "excluding";
    /// 決死 whose windows 9.2.3 a–d are running (still 決死, 9.2.7).
    pub const DOOMED_RESOLVING: &str = "doomed_resolving";
    /// 破棄 whose windows 9.3.4 a–d are running (still 破棄, 9.3.7).
    pub const DISCARD_RESOLVING: &str = "discard_resolving";
    /// 除外 whose windows 9.4.4 a–d are running (still 除外).
    pub const EXCLUDE_RESOLVING: &str = "exclude_resolving";
    /// 攻撃を行っているキャラクター (6.3.4.e).
    pub const ATTACKING: &str = "attacking";
    /// 防御を行っているキャラクター (6.4.4.d).
    pub const BLOCKING: &str = "blocking";
    /// 「決死状態にならない」 applied to the card (9.2.8.c); a scenario sets
    /// it in the card's `state` or with `set_state`.
    pub const CANNOT_BE_DOOMED: &str = "cannot_be_doomed";
    /// 「破棄されない」 applied to the card (9.3.8.c).
    pub const CANNOT_BE_DISCARDED: &str = "cannot_be_discarded";
    /// 人気 (10.34.2.b): a card set on a leader as popularity.
    pub const POPULARITY: &str = "popularity";
    /// 裏向き (5.7): a card face down on the field (flow/face.rs).
    pub const FACE_DOWN: &str = "face_down";
    /// キャラクターとして扱う (6.1.6, 6.1.7): a card an effect treats as a
    /// character with the description it gives (flow/face.rs).
    pub const MADE_CHARACTER: &str = "made_character";
}

/// Zone names.
pub mod zn {
    pub const FIELD: &str = "field";
    pub const DECK: &str = "deck";
    pub const HAND: &str = "hand";
    pub const NODE: &str = "node";
    pub const NETHERWORLD: &str = "netherworld";
    pub const EXCLUSION: &str = "exclusion";
    pub const PLAY: &str = "play";
    pub const SIDEBOARD: &str = "sideboard";
}

/// Counters holding accumulated damage; kept apart because combat damage
/// resets at the end of combat (1.10.13.d) and effect damage only at the
/// start and end of the turn (1.10.13.e).
pub const COMBAT_DAMAGE: &str = "combat_damage";
/// See [`COMBAT_DAMAGE`].
pub const EFFECT_DAMAGE: &str = "effect_damage";

/// Phase names: `setup` runs the start of the game (1.2.7); the others are
/// the steps of the turn (4.2.1).
pub const PHASES: &[&str] = &[
    "setup",
    "start",
    "active",
    "maintenance",
    "draw",
    "main",
    "discard",
    "end",
];

/// Trigger words of the effect language: `effect` is a played card's
/// effect (7.2); the others are 自動γ conditions (7.4.7) resolved at the
/// procedure step that names them.
pub const TRIGGERS: &[&str] = &[
    "effect",
    "on_enter",
    "on_attack",
    "on_block",
    "start_of_turn",
    "end_of_turn",
    "start_of_combat",
    "end_of_combat",
    "dealing_damage",
    "taking_damage",
    "dealt_damage",
    "took_damage",
    "doomed",
    "discarded",
    // timing.rs
    "start_of_active",
    "end_of_active",
    "start_of_maintenance",
    "end_of_maintenance",
    "start_of_draw",
    "end_of_draw",
    "start_of_main",
    "end_of_main",
    "start_of_discard",
    "end_of_discard",
    "end_of_interference",
    "card_resolving",
    "card_resolved",
    "dooming",
    "becoming_doomed",
    "has_doomed",
    "discarding",
    "being_discarded",
    "has_discarded",
    "excluding",
    "being_excluded",
    "has_excluded",
    "excluded",
    "on_draw",
    "auto_alpha",
    "auto_beta",
];

/// Readings where the rules are silent (listed in scenarios/README.md). The engine applies
/// the judges' reading and says so in a note; a scenario chooses the other
/// reading by listing the flag on any player.
pub const READINGS: &[&str] = &[
    BLOCKER_NO_DAMAGE,
    PIERCE_COUNTS_THIS_DAMAGE,
    DOOMED_IGNORES_CANNOT_BE_DISCARDED,
    TIERS_EXCLUSIVE,
    TRANSFORM_AFTER_ATTACK_EFFECTS,
    timing::END_TURN_SKIPS_PHASE_END,
    as_if::AS_IF_RESOLVING_WINDOW,
    face::MADE_CHARACTER_KEEPS_DAMAGE,
    leader::LEADER_NULLIFY_WITHOUT_DISCARD,
    leader::FAILED_LEADER_NOT_COUNTED,
    leader::NULLIFY_ENDS_SIMULTANEOUS,
    as_if::AS_IF_CHECKS_NODE_REQUIREMENT,
    ONE_PER_TURN_OWN_PLAYS,
    PLAYER_ATTACK_AS_EFFECT,
    EFFECT_ATTACK_BLOCK_SLEEPS,
    BLOCKER_GONE_NO_DAMAGE,
    SET_CARD_LEAVING_KEEPS_TRANSFORM,
    BLOCK_AFTER_ANSWERING,
    CONTINUOUS_CHANGE_LAST,
    SHORT_DECK_PUTS_NOTHING,
    play::NULLIFIED_PLAY_COMPLETES,
    leader::EMPTY_DECK_POPULARITY_LOSES,
    as_if::AS_IF_USED_WHEN_CARD_PLAYED,
    spell_break::CANNOT_BE_DISCARDED_ABOVE_DURABILITY,
    timing::ALL_WITHOUT_PERIOD_STANDS,
];
/// グレイズ (6.2.4.g) and マナチャージ (10.12.2.a) with fewer than X cards
/// in the deck put none, instead of the judges' reading (they put what
/// there is; it is not a draw, so there is no loss either way).
pub const SHORT_DECK_PUTS_NOTHING: &str = "reading_short_deck_puts_nothing";

/// The top `x` cards of `player`'s deck, put into the node area by graze
/// or マナチャージ: all there are when fewer, or none under
/// [`SHORT_DECK_PUTS_NOTHING`].
fn top_cards_for_nodes(g: &Game, player: PlayerId, x: i64) -> Vec<CardId> {
    let deck = g.zone_of(player, zn::DECK);
    let x = x.max(0) as usize;
    if deck.len() < x && reading(g, SHORT_DECK_PUTS_NOTHING) {
        return Vec::new();
    }
    deck.iter().take(x).cloned().collect()
}

/// The judge's note of a graze or マナチャージ that found fewer than X
/// cards in the deck.
fn short_deck_note(g: &Game, what: &str) -> String {
    if reading(g, SHORT_DECK_PUTS_NOTHING) {
        format!(
            "reading chosen by the scenario ({SHORT_DECK_PUTS_NOTHING}): with fewer than X cards in the deck, {what} cannot be done as written and puts none"
        )
    } else {
        format!(
            "judge's reading: with fewer than X cards in the deck, {what} puts what there is; it is not a draw, so it causes no loss (option {SHORT_DECK_PUTS_NOTHING}: it puts none)"
        )
    }
}
/// 7.4.5.e / 6.1.11: a continuous 自動α/β change of combat power is applied
/// after a resolved effect's change (it is applied continuously), instead
/// of the judges' reading (the resolved change on top).
pub const CONTINUOUS_CHANGE_LAST: &str = "reading_continuous_change_applies_last";
/// 6.4.2.a: the attacked player may block with any priority they hold
/// while the attack's interference is open (after answering it with a
/// card), instead of the judges' reading (only with the priority the attack
/// passed, before doing anything else).
pub const BLOCK_AFTER_ANSWERING: &str = "reading_block_after_answering";

/// Whether the priority holder may declare a block now (6.4.2.a): with the
/// priority the attack passed, or, under [`BLOCK_AFTER_ANSWERING`], with
/// any priority the attacked player holds while the attack is unblocked.
fn may_block_now(g: &Game, p: &Pri) -> bool {
    p.block_window
        || (reading(g, BLOCK_AFTER_ANSWERING)
            && p.blocker.is_none()
            && p.attack.as_ref().is_some_and(|a| {
                g.card(&a.0)
                    .is_some_and(|c| g.opponent(c.controller) == p.holder)
            }))
}
/// 10.28.9.a: a character transformed by a set card's description stays
/// transformed when that set card leaves the field (only its text becoming
/// invalid is named), instead of the judges' reading (it reverts).
pub const SET_CARD_LEAVING_KEEPS_TRANSFORM: &str = "reading_set_card_leaving_keeps_transform";
/// 6.2.6: a blocked attack whose blocker left the field before step
/// 6.2.4.c deals its combat damage to no one, instead of the judges'
/// reading (the attacked player receives it).
pub const BLOCKER_GONE_NO_DAMAGE: &str = "reading_blocker_gone_no_damage";
/// 6.2.3.c: the attack a player is made to make follows 6.3.5 alone (any
/// character not under "can't attack", left as it is), instead of the
/// judges' reading (an active character, put to sleep as in 6.3.4.b).
pub const PLAYER_ATTACK_AS_EFFECT: &str = "reading_player_made_attack_no_sleep";
/// 6.3.5 / 6.4.5: an effect's attack or block sleeps the character as a
/// declared one does (6.3.4.b, 6.4.4.b); by default it stays as it is.
pub const EFFECT_ATTACK_BLOCK_SLEEPS: &str = "reading_effect_attack_block_sleeps";
/// 5.4.1.d counts the playing player's own resolved character plays, not
/// the turn player's as printed (the opponent's ambush character in your
/// turn is then not closed by your normal character).
pub const ONE_PER_TURN_OWN_PLAYS: &str = "reading_one_per_turn_counts_own_plays";
/// The blocker does not deal combat damage to the attacker.
pub const BLOCKER_NO_DAMAGE: &str = "reading_blocker_deals_no_damage";
/// Pierce's "already accumulated damage" includes the damage just dealt.
pub const PIERCE_COUNTS_THIS_DAMAGE: &str = "reading_pierce_counts_this_damage";
/// A 決死 card under 「破棄されない」 is still discarded by 9.2.3.e (the
/// protection reads as one against discard effects only); see
/// `spell_break::doomed_to_discard`.
pub const DOOMED_IGNORES_CANNOT_BE_DISCARDED: &str = "reading_doomed_ignores_cannot_be_discarded";
/// Only the highest popularity tier whose condition holds applies (2.13.5;
/// by default every tier whose condition holds applies).
pub const TIERS_EXCLUSIVE: &str = "reading_popularity_tiers_exclusive";
/// 変身's 自動γ (10.28.2.a) applies after the card's other effects of the
/// attack or block step, instead of first (flow/transform.rs).
pub const TRANSFORM_AFTER_ATTACK_EFFECTS: &str = "reading_transform_after_attack_effects";

type M = Machine<Step>;
type R<T> = Result<T, EngineError>;

/// A chosen target: a card id with its zone-change count (a card that
/// changed zones is a new object), or a player (`p1`).
type Tgt = (String, u32);

/// One entry of the interference other than the attack and the block.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    /// The played card (in the play area).
    pub card: CardId,
    /// Who played it.
    pub player: PlayerId,
    /// Targets chosen at play (5.2.3.d), per effect index.
    pub targets: BTreeMap<usize, Vec<Tgt>>,
    /// An activated effect (起動効果) of a card on the field rather than a
    /// played card.
    pub activated: Option<Activated>,
}

/// An activated effect on the interference, with the card's object number
/// when it was used: the effect is void if that object left the field
/// (7.3.1.b).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Activated {
    /// マナチャージ（Ｘ） with its X (10.12.2.a).
    ManaCharge { x: i64, incarnation: u32 },
    /// リーダー's (相手ターン)０ (10.34.2.d).
    Leader { incarnation: u32 },
    /// 変身's （常時）０ (10.28.2.b).
    Transform { incarnation: u32 },
}

/// Priority and the open interference.
#[derive(Debug, Clone, PartialEq)]
pub struct Pri {
    /// The player holding priority.
    pub holder: PlayerId,
    /// Passes in succession since the last action.
    pub passes: usize,
    /// Played cards of the interference, oldest first.
    pub chain: Vec<Entry>,
    /// The attack that opened the interference (card, object number).
    pub attack: Option<Tgt>,
    /// The blocking character.
    pub blocker: Option<Tgt>,
    /// The holder received priority as part of the attack (6.4.2.a).
    pub block_window: bool,
    /// An interference opened by an effect's attack while another one was
    /// resolving (6.3.5.a): when it closes, that one goes on resolving.
    pub nested: bool,
}

impl Pri {
    fn fresh(holder: PlayerId) -> Self {
        Pri {
            holder,
            passes: 0,
            chain: Vec::new(),
            attack: None,
            blocker: None,
            block_window: false,
            nested: false,
        }
    }
    fn open(&self) -> bool {
        !self.chain.is_empty() || self.attack.is_some()
    }
    /// Whether `card` already used, in this interference, the activated
    /// effect `same` picks out: one activated effect of one card is used at
    /// most once in one interference (7.3.6).
    pub(super) fn used(&self, card: &str, same: fn(&Activated) -> bool) -> bool {
        self.chain
            .iter()
            .any(|e| e.card == card && e.activated.as_ref().is_some_and(same))
    }
}

/// The procedure steps.
#[derive(Debug, Clone, PartialEq)]
pub enum Step {
    /// Start of the game (1.2.7).
    Setup,
    /// Start of turn (4.3.1).
    TurnStart,
    /// A phase begins (index into [`PHASES`]).
    Phase(usize),
    /// A player holds priority: a decision.
    Priority(Pri),
    /// The interference resolving, one entry at a time (1.12.8).
    Resolve(Pri),
}

fn illegal(
    rule: &'static str,
    message: impl Into<String>,
    alternatives: Vec<String>,
) -> EngineError {
    EngineError::illegal(rule, message, alternatives)
}

fn bad(message: impl Into<String>) -> EngineError {
    EngineError::bad_action(message)
}

fn reading(g: &Game, flag: &str) -> bool {
    g.reading_on(flag)
}

fn def<'g>(g: &'g Game, id: &str) -> Option<&'g crate::engine::CardDef> {
    // A face-down card on the field has no information and its text is
    // void (5.7.1, 5.7.4).
    if face_down(g, id) && !made_character(g, id) {
        return None;
    }
    // A host's text includes what its set cards give it (10.13.6, 10.14.4).
    if let Some(d) = gained::gained_def(g, id) {
        return Some(d);
    }
    g.def_of(id).map(|d| &**d)
}

fn has_kw(g: &Game, id: &str, k: &str) -> bool {
    def(g, id).is_some_and(|d| d.has_keyword(k))
}

fn is_type(g: &Game, id: &str, t: &str) -> bool {
    def(g, id).is_some_and(|d| d.card_type == t)
}

/// Has the character status (6.1.1): a character card, or a 幻想生物
/// phantasm creature face up on the field (10.16.3). Only cards on the
/// field are asked, or character cards anywhere.
fn is_character(g: &Game, id: &str) -> bool {
    // A transformed 幻想生物 stays a character: the status comes from the
    // card, not from the description it shows (10.28.3).
    let phantasm =
        has_kw(g, id, "phantasm") || g.def_of_base(id).is_some_and(|d| d.has_keyword("phantasm"));
    // A card set as 人気 is a set card, not a character (6.1.8); a
    // face-down card has no character information (5.7.1, 6.1.9.d).
    if face_down(g, id) && !made_character(g, id) {
        return false;
    }
    (is_type(g, id, "character") || (phantasm && on_field(g, id))) && !is_popularity(g, id)
}

/// The names A, B, C… of 連結（「Ａ」＋「Ｂ」＋…） (`text.link`, written
/// `A+B+C`), in printed order. Parts given as conditions (「～Ｘ枚」) are
/// not expressible in this field.
fn link_parts(g: &Game, id: &str) -> Vec<String> {
    def(g, id)
        .filter(|d| d.has_keyword("link"))
        .and_then(|d| d.text.get("link"))
        .map(|t| {
            t.split('+')
                .map(|p| p.trim().to_string())
                .filter(|p| !p.is_empty())
                .collect()
        })
        .unwrap_or_default()
}

/// Every name of a card: its printed name and, with 連結, the names A, B,
/// C… it is also treated as having (10.20.2.a).
fn names(g: &Game, id: &str) -> Vec<String> {
    let mut v: Vec<String> = def(g, id).map(|d| d.name.clone()).into_iter().collect();
    v.extend(link_parts(g, id));
    v
}

/// Whether a name reference to `part` matches `id`: one of its names
/// contains it (12.3.1, 10.20.2.a).
fn name_contains(g: &Game, id: &str, part: &str) -> bool {
    names(g, id).iter().any(|n| n.contains(part))
}

/// The caster 術者 printed on a spell (2.5), if any (`text.caster`).
fn caster_of(g: &Game, id: &str) -> Option<String> {
    def(g, id)
        .and_then(|d| d.text.get("caster").cloned())
        .filter(|c| !c.is_empty())
}

/// The characters on `p`'s field whose name contains `caster` and that can
/// act as a caster (5.5.7): a character with 封術 sealed arts cannot unless
/// `p` has 6 or more nodes (10.31.2.a), and is then treated as not
/// containing the caster in its name (10.31.3).
fn casters_present(g: &Game, p: PlayerId, caster: &str) -> Vec<CardId> {
    let sealed_off = nodes(g, p).len() >= 6;
    characters(g, p)
        .into_iter()
        .filter(|c| name_contains(g, c, caster))
        .filter(|c| sealed_off || !has_kw(g, c, "sealed_arts"))
        .collect()
}

/// Characters on `p`'s field whose name contains `caster` but that 封術
/// keeps from acting as the caster (10.31.2.a), for the trace.
fn sealed_casters(g: &Game, p: PlayerId, caster: &str) -> Vec<CardId> {
    if nodes(g, p).len() >= 6 {
        return Vec::new();
    }
    characters(g, p)
        .into_iter()
        .filter(|c| name_contains(g, c, caster))
        .filter(|c| has_kw(g, c, "sealed_arts"))
        .collect()
}

fn stat(g: &Game, id: &str, s: &str) -> i64 {
    def(g, id)
        .and_then(|d| d.stats.get(s).copied())
        .unwrap_or(0)
}

/// Raw attack (攻撃力) after modifiers (6.1.10, flow/layers.rs);
/// negative values are kept for further calculation (6.1.12).
fn raw_attack(g: &Game, c: &Card) -> i64 {
    raw_power(g, c).0
}

/// The equipment and charms set on `card` (10.13.2.a, 10.14.2.a), in id
/// order. Their combat modifiers (戦闘修正, written `attack` / `defense`
/// on the set card) belong to the character (6.1.13, 10.13.6, 10.14.4).
fn set_cards(g: &Game, card: &str) -> Vec<CardId> {
    g.cards
        .values()
        .filter(|c| c.attached_to.as_deref() == Some(card) && c.zone.kind == zn::FIELD)
        .map(|c| c.id.clone())
        .collect()
}

/// The keyword that makes `d` a set card this module implements: 装備
/// equip or 呪符 charm.
fn set_keyword(d: &crate::engine::CardDef) -> Option<&'static str> {
    if d.card_type == "character" {
        return None;
    }
    if d.has_keyword("equip") {
        Some("equip")
    } else if d.has_keyword("charm") {
        Some("charm")
    } else {
        None
    }
}

/// Raw durability (耐久力) after modifiers (6.1.10, flow/layers.rs).
fn raw_durability(g: &Game, c: &Card) -> i64 {
    raw_power(g, c).1
}

/// Attack for use: floor 0 (6.1.12).
pub fn attack(g: &Game, c: &Card) -> i64 {
    raw_attack(g, c).max(0)
}

/// Durability for use: floor 0 (6.1.12).
pub fn durability(g: &Game, c: &Card) -> i64 {
    raw_durability(g, c).max(0)
}

/// Accumulated damage (蓄積ダメージ): combat + effect damage.
pub fn accumulated(c: &Card) -> i64 {
    c.counters.get(COMBAT_DAMAGE).copied().unwrap_or(0)
        + c.counters.get(EFFECT_DAMAGE).copied().unwrap_or(0)
}

/// The card is in a removal state (決死, 破棄, 除外), so damage and further
/// removal do not apply to it (9.2.7, 9.3.7, 9.4.5).
fn removing(c: &Card) -> bool {
    [
        st::DOOMED,
        st::DOOMED_RESOLVING,
        st::DISCARDING,
        st::DISCARD_RESOLVING,
        st::EXCLUDING,
        st::EXCLUDE_RESOLVING,
    ]
    .iter()
    .any(|s| c.has(s))
}

/// The race A of a `resistance_<A>` keyword of `card` that `source` has
/// (10.11.2.a), if any.
fn resisted_race(g: &Game, card: &str, source: &str) -> Option<String> {
    let races = &def(g, source)?.traits;
    def(g, card)?
        .keywords
        .iter()
        .filter_map(|k| k.strip_prefix("resistance_"))
        .find(|a| races.iter().any(|t| t == a))
        .map(str::to_string)
}

/// The races of `card`'s `resistance_<A>` keywords, joined (`鬼, 妖怪`), if
/// it has any (10.11.2.a).
fn resistances(g: &Game, card: &str) -> Option<String> {
    let races: Vec<&str> = def(g, card)?
        .keywords
        .iter()
        .filter_map(|k| k.strip_prefix("resistance_"))
        .collect();
    (!races.is_empty()).then(|| races.join(", "))
}

/// How deeply automatic effects may nest before the engine reports an
/// unbounded loop (each nesting is a real recursion).
const MAX_NESTING: u32 = 64;

fn on_field(g: &Game, id: &str) -> bool {
    g.card(id).is_some_and(|c| c.zone.kind == zn::FIELD)
}

/// The same object still on the field (not a new object after a zone change).
fn same_on_field(g: &Game, t: &Tgt) -> bool {
    g.card(&t.0)
        .is_some_and(|c| c.zone.kind == zn::FIELD && c.incarnation == t.1)
}

/// The same object, wherever it was chosen (a card that changed zones is a
/// new object): targets on the field or in a play area (抵抗).
fn same_object(g: &Game, t: &Tgt) -> bool {
    g.card(&t.0).is_some_and(|c| c.incarnation == t.1)
}

fn tgt(g: &Game, id: &str) -> Tgt {
    (
        id.to_string(),
        g.card(id).map(|c| c.incarnation).unwrap_or(0),
    )
}

fn characters(g: &Game, p: PlayerId) -> Vec<CardId> {
    g.zone_of(p, zn::FIELD)
        .iter()
        .filter(|id| is_character(g, id))
        .cloned()
        .collect()
}

fn all_characters(g: &Game) -> Vec<CardId> {
    let mut v = Vec::new();
    for p in g.player_ids() {
        v.extend(characters(g, p));
    }
    v
}

fn parse_player(s: &str, n: usize) -> Option<PlayerId> {
    crate::engine::state::parse_player(s, n)
}

fn turn_var(name: &str, p: PlayerId) -> String {
    format!("turn.{name}.{}", player_name(p))
}

fn var(g: &Game, k: &str) -> i64 {
    vars(g).get(k).copied().unwrap_or(0)
}

fn phase_index(name: &str) -> usize {
    PHASES.iter().position(|p| *p == name).unwrap_or(5)
}

// ---------------------------------------------------------------- win/loss

/// Whether the game has ended. A player wins or loses "at that point"
/// (その時点で, 1.5.2, 1.5.3), and a draw likewise ends it (1.5.4): from
/// then on no procedure runs, so a procedure that may follow an end (the
/// rest of a resolution, a removal, a check of continuous effects) stops
/// here before it records anything; the end is the trace's last step.
pub(super) fn game_over(g: &Game) -> bool {
    g.result != GameResult::Ongoing
}

/// Ends the game once someone has lost, through the core's end step:
/// everyone at once is a draw (1.5.4.a), else the remaining player wins
/// (1.5.2.b).
fn game_over_check(m: &mut M) {
    if game_over(&m.game) {
        return;
    }
    match m.game.result_by_losses() {
        GameResult::Ongoing => {}
        GameResult::Draw => {
            m.end(
                GameResult::Draw,
                "every player lost at the same time: the game is a draw",
                &[r::DRAW_SIMULTANEOUS, r::SIMULTANEOUS_NO_PRECEDENCE],
            );
        }
        GameResult::Win(w) => {
            let text = format!("{w} wins: every opponent has lost");
            m.end(GameResult::Win(w), text, &[r::WIN_ALL_LOST]);
        }
    }
}

/// Gives priority: first the 1.5.3.a check (life 0 or less loses when a
/// player would get priority), then the decision.
fn give_priority(m: &mut M, p: Pri) {
    let mut any = false;
    for pl in m.game.player_ids() {
        let life = m.game.value(pl, "life");
        if life <= 0 && !m.game.players[pl].lost {
            m.game.players[pl].lost = true;
            any = true;
            m.record(
                "loss.life",
                format!(
                    "{} would get priority with {life} life: {} loses",
                    player_name(p.holder),
                    player_name(pl)
                ),
                &[r::LOSS_LIFE, r::LIFE_ZERO_PRIORITY],
            )
            .obj(player_name(pl));
        }
    }
    if any {
        game_over_check(m);
        return;
    }
    m.stack.push(Step::Priority(p));
}

/// `p`'s life went from `before` to `after`. Reaching 0 or less is no loss
/// yet: the player loses only when a player would get priority (1.5.3.a,
/// 1.9.2), so the trace says so where a judge might expect the game to end
/// at once.
fn life_changed(m: &mut M, p: PlayerId, before: i64, after: i64) {
    if before <= 0 || after > 0 || m.game.players[p].lost {
        return;
    }
    m.record(
        "life.zero",
        format!(
            "{} has {after} life: they do not lose yet, but when a player would next get priority",
            player_name(p)
        ),
        &[r::LOSS_LIFE, r::LIFE_ZERO_PRIORITY],
    )
    .obj(player_name(p));
}

fn draw(m: &mut M, p: PlayerId, rule: &'static str) {
    draw_at_once(m, &[p], 1, rule);
}

/// `players` each draw `n` (in turn order from the turn player, 1.11.5).
/// The `n` cards are added at once (1.11.4), and a player whose deck holds
/// fewer than `n` loses at that moment (1.11.7); players drawing at the
/// same time lose together whatever the order, so when every player is
/// short the game is a draw (1.5.4.a), never a win for whoever drew last.
fn draw_at_once(m: &mut M, players: &[PlayerId], n: i64, rule: &'static str) {
    let n = usize::try_from(n).unwrap_or(0);
    if n == 0 {
        return;
    }
    let short: Vec<PlayerId> = players
        .iter()
        .copied()
        .filter(|p| m.game.zone_of(*p, zn::DECK).len() < n)
        .collect();
    if !short.is_empty() {
        for &p in &short {
            m.game.players[p].lost = true;
            let left = m.game.zone_of(p, zn::DECK).len();
            let e = m.record(
                "draw.deck_out",
                format!(
                    "{} must draw {n} with {left} in the deck and loses at once",
                    player_name(p)
                ),
                &[rule, r::DECK_OUT, r::LOSS_DECK],
            );
            if players.len() > 1 {
                e.rule(r::HAND_SIMULTANEOUS);
            }
        }
        game_over_check(m);
        return;
    }
    for &p in players {
        let deck = m.game.zone_of(p, zn::DECK).to_vec();
        let drawn = deck[..n].to_vec();
        for id in &drawn {
            m.game.move_card(id, ZoneId::of(p, zn::HAND), false);
        }
        let what = if n == 1 {
            "a card".to_string()
        } else {
            format!("{n} cards at once")
        };
        let e = m
            .record(
                "draw",
                format!("{} draws {what}", player_name(p)),
                &[rule, r::DRAW_DEF, r::ADD_TO_HAND],
            )
            .change(
                format!("{}.deck", player_name(p)),
                deck.len(),
                deck.len() - n,
            );
        for id in drawn {
            e.obj(id);
        }
        if n > 1 {
            e.rule(r::DRAW_AT_ONCE);
        }
        if players.len() > 1 {
            e.rule(r::HAND_SIMULTANEOUS);
        }
        // 1.11.7 loses only a player with fewer cards than the draw: an
        // emptied deck is no loss.
        if deck.len() == n {
            e.rule(r::DECK_OUT);
            e.text
                .push_str(": the deck had just enough cards and is now empty, which is no loss");
        }
        for _ in 0..n {
            drew(m, p);
        }
    }
}

// ---------------------------------------------------------------- the turn

pub fn step(m: &mut M, s: Step) -> R<Flow> {
    match s {
        Step::Setup => {
            setup(m)?;
            m.then([Step::TurnStart]);
        }
        Step::TurnStart => turn_start(m)?,
        Step::Phase(i) => phase_begin(m, i)?,
        Step::Priority(p) => {
            m.stack.push(Step::Priority(p));
            return Ok(Flow::Await);
        }
        Step::Resolve(p) => resolve_step(m, p)?,
    }
    Ok(Flow::Continue)
}

fn need_card(a: &Action) -> R<CardId> {
    a.card
        .clone()
        .ok_or_else(|| bad(format!("`{}` needs a `card`", a.kind)))
}

fn legal_actions(g: &Game, p: &Pri) -> Vec<String> {
    let mut v = vec!["pass".to_string()];
    let tp = g.turn.active;
    let sorcery = p.holder == tp && g.turn.phase == "main" && !p.open();
    if sorcery && var(g, &turn_var("node_set", tp)) == 0 && !g.zone_of(tp, zn::HAND).is_empty() {
        v.push("set_node".into());
    }
    for id in g.zone_of(p.holder, zn::HAND) {
        v.push(format!("play {id}"));
    }
    if sorcery {
        for id in characters(g, tp) {
            if g.card(&id).is_some_and(|c| !c.has(st::SLEEP))
                && !has_kw(g, &id, "doll")
                && check_restrictions(g, &[], tp, &id, Restricted::Attack).is_ok()
            {
                v.push(format!("attack {id}"));
            }
        }
    }
    v.extend(transform_actions(g, p));
    if p.holder == tp {
        for id in g.zone_of(tp, zn::FIELD) {
            if has_kw(g, id, "mana_charge")
                && g.card(id).is_some_and(|c| !c.has(st::SLEEP))
                && !p.used(id, |a| matches!(a, Activated::ManaCharge { .. }))
            {
                v.push(format!("activate {id}"));
            }
        }
    }
    if p.holder != tp {
        for id in characters(g, p.holder) {
            if has_kw(g, &id, "leader")
                && !popularity(g, &id).is_empty()
                && !p.used(&id, leader::is_leader_effect)
            {
                v.push(format!("activate {id}"));
            }
        }
    }
    if may_block_now(g, p) {
        for id in characters(g, p.holder) {
            if g.card(&id).is_some_and(|c| !c.has(st::SLEEP))
                && check_restrictions(g, &[], p.holder, &id, Restricted::Block).is_ok()
            {
                v.push(format!("block {id}"));
            }
        }
    }
    v
}

/// Takes one scenario action at the awaiting priority step.
pub fn act(m: &mut M, a: &Action) -> R<()> {
    leader::uniqueness(m)?;
    let Some(Step::Priority(mut p)) = m.stack.pop() else {
        return Err(bad(
            "the engine is not waiting for an action (nothing is left to do)",
        ));
    };
    let player = match (a.player, &a.card) {
        (Some(x), _) => x,
        (None, Some(c)) if a.kind != "block" && a.kind != "attack" => {
            m.game.card(c).map(|c| c.owner).unwrap_or(p.holder)
        }
        _ => p.holder,
    };
    if a.kind == "concede" {
        m.stack.push(Step::Priority(p));
        m.game.players[player].lost = true;
        m.record(
            "concede",
            format!("{} concedes and loses at once", player_name(player)),
            &[r::LOSS_CONCEDE, r::CONCEDE, r::CONCEDE_OVERRIDES],
        );
        game_over_check(m);
        return Ok(());
    }
    if player != p.holder {
        let alts = legal_actions(&m.game, &p);
        let holder = p.holder;
        m.stack.push(Step::Priority(p));
        return Err(illegal(
            r::PRIORITY,
            format!("{} holds priority: only they may act", player_name(holder)),
            alts,
        ));
    }
    match a.kind.as_str() {
        "pass" => {
            p.passes += 1;
            p.block_window = false;
            m.record(
                "priority.pass",
                format!("{} passes priority", player_name(player)),
                &[r::PASS],
            );
            if p.passes >= m.game.players.len() {
                if p.open() {
                    resolve_interference(m, p)?;
                } else {
                    phase_end(m)?;
                }
            } else {
                p.holder = m.game.opponent(p.holder);
                give_priority(m, p);
            }
        }
        "set_node" => set_node(m, p, player, &need_card(a)?)?,
        "play" => play_card(m, p, player, &need_card(a)?, a.from.as_deref())?,
        "attack" => declare_attack(m, p, player, &need_card(a)?)?,
        "block" => declare_block(m, p, player, &need_card(a)?)?,
        "use" => use_optional(m, p, player, &need_card(a)?)?,
        "activate" => {
            let card = need_card(a)?;
            let leader = has_kw(&m.game, &card, "leader");
            if leader && has_kw(&m.game, &card, "transform") {
                // Choosing between the two activated effects is not in the
                // action format (only 変身 vs マナチャージ is).
                return Err(EngineError::NotImplemented {
                    clause: r::ACTIVATED,
                    what: "a card with both リーダー and 変身 activated effects".into(),
                });
            }
            if leader && !has_kw(&m.game, &card, "mana_charge") {
                return leader::activate(m, p, player, &card);
            }
            if activates_transform(m, &card)? {
                return activate_transform(m, p, player, &card);
            }
            if !has_kw(&m.game, &card, "mana_charge") {
                return Err(EngineError::NotImplemented {
                    clause: r::ACTIVATED,
                    what: "activated effects (起動効果) other than マナチャージ and 変身".into(),
                });
            }
            activate_mana_charge(m, p, player, &card)?;
        }
        other => {
            let alts = legal_actions(&m.game, &p);
            m.stack.push(Step::Priority(p));
            return Err(illegal(
                r::PRIORITY,
                format!("`{other}` is not an action with priority"),
                alts,
            ));
        }
    }
    Ok(())
}

/// The PMV procedures as the driver's hooks.
/// Checks a scenario's `state.in_progress` (flow/resume.rs).
pub fn check_in_progress(g: &Game, v: &Value) -> Result<(), String> {
    resume::parse(g, v).map(|_| ())
}

impl Rules for super::Pmv {
    type Step = Step;

    /// Card text the module does not implement, and boards the rules do
    /// not allow.
    fn check(&self, g: &Game) -> R<()> {
        if let Some(e) = unsupported_definition(g) {
            return Err(e);
        }
        if let Some(e) = chosen_amount::refuse(g) {
            return Err(e);
        }
        if let Some(c) = g
            .cards
            .values()
            .find(|c| c.face.is_some() && (c.zone.kind != zn::FIELD || !is_character(g, &c.id)))
        {
            // Only a character on the field is transformed (10.28.3).
            return Err(bad(format!(
                "{} shows its transformed description but is not a character on the field; only a character on the field is transformed (10.28.3)",
                c.id
            )));
        }
        if let Some(e) = gained::refuse_unmodelled(g) {
            return Err(e);
        }
        match check_abilities(g) {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    /// The rest of the phase the scenario starts in, or the priority
    /// decision in progress it describes (`state.in_progress`).
    fn start(&self, m: &mut M) -> R<()> {
        // The board's set cards give their hosts their text (10.13.6).
        gained::refresh(m)?;
        if let Some(v) = m.game.in_progress.clone() {
            let r = resume::parse(&m.game, &v).map_err(bad)?;
            resume::resume(m, r);
            return Ok(());
        }
        let i = phase_index(&m.game.turn.phase);
        m.then([Step::Phase(i)]);
        Ok(())
    }

    /// A priority decision with its interference (flow/resume.rs).
    fn in_progress(&self, m: &M) -> Option<Value> {
        resume::describe(m)
    }

    fn step(&self, m: &mut M, s: Step) -> R<Flow> {
        step(m, s)
    }

    /// A set card's orientation follows its host's, and the host's its
    /// (11.3.11.c), once the action's steps have settled.
    fn settle(&self, m: &mut M, _next: Option<&Action>) -> R<()> {
        if !game_over(&m.game) {
            orientation::share(m);
        }
        Ok(())
    }

    /// The player holding priority.
    fn awaited(&self, m: &M) -> Option<PlayerId> {
        match m.stack.last() {
            Some(Step::Priority(p)) => Some(p.holder),
            _ => None,
        }
    }

    fn act(&self, m: &mut M, a: &Action) -> R<()> {
        act(m, a)
    }

    fn derived(&self, game: &Game, card: &Card) -> Vec<(&'static str, i64)> {
        // PMV's damage is 蓄積ダメージ kept by kind (counters), never the
        // core `damage`: a snapshot's `damage` is the same sum as
        // `accumulated_damage`, so an expectation on either reads it.
        let mut v = vec![("damage", accumulated(card))];
        // The face it shows: a transformed character's values are its
        // transformed description's (10.28.8).
        // A face-down card on the field has no information (5.7.1).
        if without_information(game, &card.id) {
            return v;
        }
        let Some(d) = game.def_of(&card.id) else {
            return v;
        };
        v.extend(d.snapshot_values(
            || attack(game, card),
            || {
                vec![
                    ("durability", durability(game, card)),
                    ("accumulated_damage", accumulated(card)),
                ]
            },
        ));
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::load_str;

    /// Loads a PMV scenario from a compact board description.
    fn run_board(cards: &str, p1: &str, p2: &str, actions: &str) -> Outcome {
        let text = format!(
            r#"{{ "game": "pmv", "name": "t", "source": "test", "cards": {{ {cards} }},
              "state": {{ "turn": {{ "player": "p1", "phase": "main", "number": 3 }},
                "players": {{ "p1": {{ "zones": {{ {p1} }} }}, "p2": {{ "zones": {{ {p2} }} }} }} }},
              "actions": [ {actions} ] }}"#
        );
        let loaded = load_str("t.json", &text, None).expect("test scenario loads");
        loaded.module.run(loaded.game.clone(), &loaded.actions)
    }

    const OGRE: &str = r#""ogre": { "name": "鬼", "type": "character", "cost": 2, "attack": 3, "defense": 3, "stats": { "node": 2 } }"#;

    const TWO_END_OF_MAIN: &str = r#""a": { "name": "甲", "type": "character", "cost": 0, "attack": 1, "defense": 1,
             "abilities": [ { "trigger": "end_of_main", "effect": [ { "do": "draw", "amount": 1 } ] } ] },
           "b": { "name": "乙", "type": "character", "cost": 0, "attack": 1, "defense": 1,
             "abilities": [ { "trigger": "end_of_main", "effect": [ { "do": "draw", "amount": 1 } ] } ] }"#;

    /// 7.1.6.a: an order that leaves out one of the player's effects met
    /// at once is a bad choice, not a ruling.
    #[test]
    fn an_order_missing_an_effect_is_a_bad_choice() {
        let out = run_board(
            TWO_END_OF_MAIN,
            r#""deck": { "count": 5 }, "field": [ { "id": "A", "card": "a" }, { "id": "B", "card": "b" } ]"#,
            r#""deck": { "count": 5 }"#,
            r#"{ "do": "pass", "player": "p1" }, { "do": "pass", "player": "p2", "choices": { "p1.order.end_of_main": ["B"] } }"#,
        );
        let err = out.error.expect("stops");
        assert!(
            matches!(&err.error, EngineError::BadChoice { choice, .. } if choice == "order.end_of_main"),
            "{:?}",
            err.error
        );
    }

    /// 7.1.6.a: the order given is the order the effects resolve in.
    #[test]
    fn the_order_given_is_the_resolution_order() {
        let out = run_board(
            TWO_END_OF_MAIN,
            r#""deck": { "count": 5 }, "field": [ { "id": "A", "card": "a" }, { "id": "B", "card": "b" } ]"#,
            r#""deck": { "count": 5 }"#,
            r#"{ "do": "pass", "player": "p1" }, { "do": "pass", "player": "p2", "choices": { "p1.order.end_of_main": ["B", "A"] } }"#,
        );
        assert!(out.error.is_none(), "{:?}", out.error);
        let fired: Vec<&str> = out
            .trace
            .iter()
            .filter(|e| e.step == "auto.end_of_main")
            .flat_map(|e| e.objects.iter().map(|o| o.as_str()))
            .collect();
        assert_eq!(fired, ["B", "A"]);
    }

    #[test]
    fn a_second_card_with_its_own_entering_effect_is_not_implemented() {
        let out = run_board(
            r#""sc": { "name": "符ノ弐", "type": "character", "cost": 0, "attack": 1, "defense": 1,
                 "keywords": ["second_card"],
                 "abilities": [ { "trigger": "on_enter", "effect": [ { "do": "draw", "amount": 1 } ] } ] }"#,
            r#""deck": { "count": 5 }, "hand": [ { "id": "s", "card": "sc" } ]"#,
            r#""deck": { "count": 5 }"#,
            r#"{ "do": "play", "card": "s" }, { "do": "pass", "player": "p2" }, { "do": "pass", "player": "p1" }"#,
        );
        let err = out.error.expect("stops");
        assert!(
            matches!(err.error, EngineError::NotImplemented { clause, .. } if clause == r::SECOND_CARD),
            "{:?}",
            err.error
        );
        assert_eq!(err.action, Some(2));
    }

    #[test]
    fn returning_an_equipped_character_to_hand_is_not_implemented() {
        let out = run_board(
            r#""k": { "name": "門番", "type": "character", "cost": 0, "attack": 2, "defense": 2 },
               "sw": { "name": "剣", "type": "command", "cost": 0, "attack": 1, "keywords": ["equip"] },
               "bounce": { "name": "送還", "type": "command", "cost": 0, "abilities": [ { "trigger": "effect",
                 "effect": [ { "do": "return_to_hand", "target": { "select": "chosen", "types": ["character"] } } ] } ] }"#,
            r#""deck": { "count": 5 }, "field": [ { "id": "k", "card": "k" } ],
               "hand": [ { "id": "s", "card": "sw" }, { "id": "b", "card": "bounce" } ]"#,
            r#""deck": { "count": 5 }"#,
            r#"{ "do": "play", "card": "s" }, { "do": "pass", "player": "p2" }, { "do": "pass", "player": "p1" },
               { "do": "play", "card": "b" }, { "do": "pass", "player": "p2" }, { "do": "pass", "player": "p1" }"#,
        );
        let err = out.error.expect("stops");
        assert!(
            matches!(err.error, EngineError::NotImplemented { clause, .. } if clause == r::SET_CARD_TEXT),
            "{:?}",
            err.error
        );
        assert_eq!(err.action, Some(5));
    }

    /// A board that sets an equipment with 維持コスト on a character stops
    /// before the first action: whether the host, which gains the text
    /// (10.13.6), pays it or is discarded for it is not modelled.
    #[test]
    fn an_equipment_with_upkeep_on_the_board_is_not_implemented() {
        let out = run_board(
            r#""k": { "name": "門番", "type": "character", "cost": 0, "attack": 2, "defense": 2 },
               "book": { "name": "魔導書", "type": "command", "cost": 0, "keywords": ["equip", "upkeep"], "stats": { "upkeep": 1 } }"#,
            r#""deck": { "count": 5 }, "field": [ { "id": "k", "card": "k" }, { "id": "e", "card": "book", "attached_to": "k" } ]"#,
            r#""deck": { "count": 5 }"#,
            r#"{ "do": "attack", "card": "k" }"#,
        );
        let err = out.error.expect("stops");
        assert!(
            matches!(err.error, EngineError::NotImplemented { clause, .. } if clause == r::EQUIP_GAINS_TEXT),
            "{:?}",
            err.error
        );
    }

    #[test]
    fn upkeep_without_a_caster_offers_no_ignore() {
        let text = r#"{ "game": "pmv", "name": "t", "source": "test",
            "cards": { "u": { "name": "結界", "type": "spell", "cost": 0, "keywords": ["world_charm", "upkeep"],
                 "stats": { "upkeep": 1 }, "text": { "caster": "霊夢" } } },
            "state": { "turn": { "player": "p1", "phase": "active", "number": 3 },
              "players": { "p1": { "zones": { "deck": { "count": 5 }, "field": [ { "id": "a", "card": "u" } ] } },
                           "p2": { "zones": { "deck": { "count": 5 } } } } },
            "actions": [ { "do": "pass", "player": "p1" },
                         { "do": "pass", "player": "p2", "choices": { "p1.a.upkeep": "ignore" } } ] }"#;
        let loaded = load_str("t.json", text, None).expect("test scenario loads");
        let out = loaded.module.run(loaded.game.clone(), &loaded.actions);
        let err = out.error.expect("stops at the upkeep choice");
        match err.error {
            EngineError::BadChoice {
                choice, options, ..
            } => {
                assert_eq!(choice, "p1.a.upkeep");
                assert_eq!(options, vec!["pay".to_string(), "discard".to_string()]);
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn automatic_payment_sleeps_active_nodes_before_discarding_sleeping_ones() {
        let o = run_board(
            OGRE,
            r#""hand": [ { "id": "c", "card": "ogre" } ], "node": [ { "id": "n1", "card": "?", "state": ["sleep"] }, { "id": "n2", "card": "?" } ]"#,
            "",
            r#"{ "do": "play", "card": "c" }"#,
        );
        assert!(o.error.is_none(), "{:?}", o.error);
        assert_eq!(
            o.state["cards"]["n2"]["state"],
            serde_json::json!(["sleep"])
        );
        assert_eq!(o.state["cards"]["n1"]["zone"], "p1.netherworld");
        assert!(o.trace.iter().any(|e| {
            e.note
                .as_deref()
                .is_some_and(|n| n.contains("sleeps active nodes first"))
        }));
    }

    #[test]
    fn a_rejected_action_leaves_the_interference_as_it_was() {
        // p2 answers with a command, then p1's illegal node set is rejected:
        // the command is still waiting and resolves when both pass.
        let face = r#""face": { "name": "F", "type": "command", "abilities": [ { "trigger": "effect", "effect": [ { "do": "damage", "amount": 2, "target": { "select": "leader", "who": "opponent" } } ] } ] }"#;
        let o = run_board(
            face,
            r#""hand": [ { "id": "h", "card": "?" } ]"#,
            r#""hand": [ { "id": "y", "card": "face" } ]"#,
            r#"{ "do": "pass", "player": "p1" }, { "do": "play", "player": "p2", "card": "y" }, { "do": "set_node", "player": "p1", "card": "h" }, { "do": "pass", "player": "p1" }, { "do": "pass", "player": "p2" }"#,
        );
        assert_eq!(o.rejections.len(), 1);
        assert_eq!(o.rejections[0].rule, r::NODE_SET_NO_INTERFERENCE);
        assert_eq!(o.state["players"]["p1"]["life"], 23);
    }

    #[test]
    fn removal_states_resolve_doomed_before_discard_before_exclusion() {
        // One effect deals lethal damage to two characters: 決死 resolves
        // (for both at once) before 破棄, in the fixed order of 9.1.4.
        let combo = r#""combo": { "name": "C", "type": "command", "abilities": [ { "trigger": "effect", "effect": [ { "do": "damage", "amount": 5, "target": { "select": "all", "side": "opponent", "types": ["character"] } } ] } ] }"#;
        let o = run_board(
            &format!("{combo}, {OGRE}"),
            r#""hand": [ { "id": "x", "card": "combo" } ]"#,
            r#""field": [ { "id": "a", "card": "ogre" }, { "id": "b", "card": "ogre" } ]"#,
            r#"{ "do": "play", "card": "x" }, { "do": "pass", "player": "p2" }, { "do": "pass", "player": "p1" }"#,
        );
        let steps: Vec<&str> = o.trace.iter().map(|e| e.step.as_str()).collect();
        let doomed = steps.iter().position(|s| *s == "removal.doomed").unwrap();
        let discard = steps.iter().position(|s| *s == "removal.discard").unwrap();
        assert!(doomed < discard);
        // Both removed by one simultaneous 決死 entry, not one by one.
        assert_eq!(steps.iter().filter(|s| **s == "removal.doomed").count(), 2);
        assert_eq!(o.state["cards"]["a"]["zone"], "p2.netherworld");
        assert_eq!(o.state["cards"]["b"]["zone"], "p2.netherworld");
    }

    const MARISA: &str = r#""mar": { "name": "魔理沙", "type": "character", "cost": 0, "attack": 2, "defense": 3,
        "keywords": ["transform", "mana_charge"], "stats": { "mana_charge": 1 },
        "alternate": { "name": "魔理沙（変身）", "attack": 5, "defense": 4 } }"#;

    #[test]
    fn attacking_with_transform_needs_the_choice() {
        let o = run_board(
            MARISA,
            r#""field": [ { "id": "m", "card": "mar" } ]"#,
            "",
            r#"{ "do": "attack", "card": "m" }"#,
        );
        match o.error.map(|e| e.error) {
            Some(EngineError::MissingChoice { choice, options }) => {
                assert_eq!(choice, "m.transform");
                assert_eq!(options, ["false", "true"]);
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_card_with_two_activated_effects_names_the_one_it_uses() {
        let o = run_board(
            MARISA,
            r#""field": [ { "id": "m", "card": "mar" } ], "deck": { "count": 3 }"#,
            "",
            r#"{ "do": "activate", "card": "m" }"#,
        );
        assert!(matches!(
            o.error.map(|e| e.error),
            Some(EngineError::MissingChoice { choice, .. }) if choice == "m.activate"
        ));
        let o = run_board(
            MARISA,
            r#""field": [ { "id": "m", "card": "mar" } ], "deck": { "count": 3 }"#,
            "",
            r#"{ "do": "activate", "card": "m", "choices": { "m.activate": "mana_charge" } },
               { "do": "activate", "card": "m", "player": "p2", "choices": { "m.activate": "transform" } }"#,
        );
        // マナチャージ went on the interference; p2 cannot use p1's 変身.
        assert_eq!(o.rejections.len(), 1, "{:?}", o.error);
        assert_eq!(o.rejections[0].rule, r::ACT_OWN_FIELD);
        assert_eq!(o.state["cards"]["m"]["state"], serde_json::json!(["sleep"]));
    }

    #[test]
    fn only_a_character_on_the_field_starts_transformed() {
        let o = run_board(
            MARISA,
            r#""hand": [ { "id": "m", "card": "mar", "alternate": true } ]"#,
            "",
            r#"{ "do": "pass" }"#,
        );
        assert!(matches!(
            o.error.map(|e| e.error),
            Some(EngineError::BadAction { .. })
        ));
    }
}

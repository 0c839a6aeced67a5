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
use crate::engine::{
    AbilityDef, Action, Card, CardId, Choices, EngineError, Filter, Flow, Game, GameResult,
    Machine, Outcome, PlayerId, Rejection, Side, StopError, Target, Until, Who, ZoneId,
    card::Effect, player_name, result_word, snapshot, state::Modifier,
};

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
    /// 攻撃を行っているキャラクター (6.3.4.e).
    pub const ATTACKING: &str = "attacking";
    /// 防御を行っているキャラクター (6.4.4.d).
    pub const BLOCKING: &str = "blocking";
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
];

/// Readings where the rules are silent (pmv.md §4.17). The engine applies
/// the judges' reading and says so in a note; a scenario chooses the other
/// reading by listing the flag on any player.
pub const READINGS: &[&str] = &[BLOCKER_NO_DAMAGE, PIERCE_COUNTS_THIS_DAMAGE];
/// The blocker does not deal combat damage to the attacker.
pub const BLOCKER_NO_DAMAGE: &str = "reading_blocker_deals_no_damage";
/// Pierce's "already accumulated damage" includes the damage just dealt.
pub const PIERCE_COUNTS_THIS_DAMAGE: &str = "reading_pierce_counts_this_damage";

/// Keywords the module implements; any other keyword of chapter 10 in the
/// game stops the run with "not implemented".
const IMPLEMENTED: &[&str] = &[
    "upkeep",
    "last_spell",
    "last_word",
    "sealed_arts",
    "second_card",
    "equip",
    "charm",
    "divine_artifact",
    "equip_field",
    "overdrive",
    "link",
    "mana_charge",
    "blessing",
    "resist",
    "phantasm",
    "world_charm",
    "haste",
    "ambush",
    "first_strike",
    "pierce",
    "stealth",
    "vigilance",
    "instant_death",
    "doll",
    "legend",
    "one_per_turn",
    "own_turn_only",
    "opponent_turn_only",
    "one_per_deck",
];

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
    /// An activated effect of a card on the field rather than a played
    /// card: マナチャージ（Ｘ） with its X (10.12.2.a), and the card's object
    /// number when it was used (7.3.1.b).
    pub mana_charge: Option<(i64, u32)>,
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
        }
    }
    fn open(&self) -> bool {
        !self.chain.is_empty() || self.attack.is_some()
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
}

fn illegal(
    rule: &'static str,
    message: impl Into<String>,
    alternatives: Vec<String>,
) -> EngineError {
    EngineError::Illegal {
        rule,
        message: message.into(),
        alternatives,
    }
}

fn bad(message: impl Into<String>) -> EngineError {
    EngineError::BadAction {
        message: message.into(),
    }
}

fn reading(g: &Game, flag: &str) -> bool {
    g.players.iter().any(|p| p.flags.contains(flag))
}

fn def<'g>(g: &'g Game, id: &str) -> Option<&'g crate::engine::CardDef> {
    g.def_of(id)
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
    is_type(g, id, "character") || (has_kw(g, id, "phantasm") && on_field(g, id))
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

/// Raw attack (攻撃力) after modifiers; negative values are kept for
/// further calculation (6.1.12).
fn raw_attack(g: &Game, c: &Card) -> i64 {
    // 6.1.10: changes (変更) apply first, the last one applied winning
    // (6.1.11), then additions (加減算).
    c.set_value("attack")
        .unwrap_or_else(|| g.defs.get(&c.def).and_then(|d| d.attack).unwrap_or(0))
        + c.modifier("attack")
        + set_cards(g, &c.id)
            .iter()
            .filter_map(|s| def(g, s).and_then(|d| d.attack))
            .sum::<i64>()
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

/// Raw durability (耐久力) after modifiers.
fn raw_durability(g: &Game, c: &Card) -> i64 {
    // 6.1.10: changes (変更) apply first, the last one applied winning
    // (6.1.11), then additions (加減算).
    c.set_value("defense")
        .unwrap_or_else(|| g.defs.get(&c.def).and_then(|d| d.defense).unwrap_or(0))
        + c.modifier("defense")
        + set_cards(g, &c.id)
            .iter()
            .filter_map(|s| def(g, s).and_then(|d| d.defense))
            .sum::<i64>()
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

/// How deeply automatic effects may nest before the engine reports an
/// unbounded loop (each nesting is a real recursion).
const MAX_NESTING: i64 = 64;

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
    for p in 0..g.players.len() {
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
    g.vars.get(k).copied().unwrap_or(0)
}

fn phase_index(name: &str) -> usize {
    PHASES.iter().position(|p| *p == name).unwrap_or(5)
}

// ---------------------------------------------------------------- win/loss

/// Declares the result once someone has lost: everyone at once is a draw
/// (1.5.4.a), else the remaining player wins (1.5.2.b).
fn game_over_check(m: &mut M) {
    if m.game.result != GameResult::Ongoing {
        return;
    }
    let lost: Vec<PlayerId> = (0..m.game.players.len())
        .filter(|p| m.game.players[*p].lost)
        .collect();
    if lost.is_empty() {
        return;
    }
    if lost.len() == m.game.players.len() {
        m.game.result = GameResult::Draw;
        m.record(
            "game.draw",
            "every player lost at the same time: the game is a draw",
            &[r::DRAW_SIMULTANEOUS, r::SIMULTANEOUS_NO_PRECEDENCE],
        );
    } else if let Some(w) = (0..m.game.players.len()).find(|p| !m.game.players[*p].lost) {
        m.game.result = GameResult::Win(player_name(w));
        m.record(
            "game.win",
            format!("{} wins: every opponent has lost", player_name(w)),
            &[r::WIN_ALL_LOST],
        );
    }
}

/// Gives priority: first the 1.5.3.a check (life 0 or less loses when a
/// player would get priority), then the decision.
fn give_priority(m: &mut M, p: Pri) {
    let mut any = false;
    for pl in 0..m.game.players.len() {
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

fn draw(m: &mut M, p: PlayerId, rule: &'static str) {
    let deck = m.game.zone_of(p, zn::DECK).to_vec();
    match deck.first() {
        None => {
            m.game.players[p].lost = true;
            m.record(
                "draw.deck_out",
                format!(
                    "{} must draw from an empty deck and loses at once",
                    player_name(p)
                ),
                &[rule, r::DECK_OUT, r::LOSS_DECK],
            );
            game_over_check(m);
        }
        Some(top) => {
            let top = top.clone();
            m.game.move_card(&top, ZoneId::of(p, zn::HAND), false);
            m.record(
                "draw",
                format!("{} draws a card", player_name(p)),
                &[rule, r::DRAW_DEF, r::ADD_TO_HAND],
            )
            .obj(top.clone())
            .change(
                format!("{}.deck", player_name(p)),
                deck.len(),
                deck.len() - 1,
            );
        }
    }
}

// ---------------------------------------------------------------- the turn

fn step(m: &mut M, s: Step) -> R<Flow> {
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
    }
    Ok(Flow::Continue)
}

fn setup(m: &mut M) -> R<()> {
    m.game.turn.phase = "setup".into();
    for p in 0..m.game.players.len() {
        let deck = m.game.zone_of(p, zn::DECK).to_vec();
        if deck.len() != 50 {
            return Err(bad(format!(
                "{}'s deck has {} cards; a deck is exactly 50 cards (1.2.2.a)",
                player_name(p),
                deck.len()
            )));
        }
        if let Some(id) = deck.iter().find(|id| has_kw(&m.game, id, "link")) {
            return Err(EngineError::NotImplemented {
                clause: r::LINK_NAMES,
                what: format!("the names {id} (連結) adds, counted at deck construction"),
            });
        }
        let mut seen: BTreeMap<String, usize> = BTreeMap::new();
        for id in &deck {
            if has_kw(&m.game, id, "one_per_deck") {
                let k = m.game.card(id).map(|c| c.def.clone()).unwrap_or_default();
                *seen.entry(k).or_default() += 1;
            }
        }
        if let Some((k, n)) = seen.iter().find(|(_, n)| **n > 1) {
            return Err(bad(format!(
                "{}'s deck holds {n} copies of `{k}`, which has デッキ１枚制限 (one per deck, 10.24.2.a)",
                player_name(p)
            )));
        }
        let mut names: BTreeMap<String, usize> = BTreeMap::new();
        for id in &deck {
            // Anonymous cards (`unknown` type) stand for distinct cards.
            if let Some(d) = def(&m.game, id)
                && d.card_type != "unknown"
            {
                *names.entry(d.name.clone()).or_default() += 1;
            }
        }
        if let Some((n, c)) = names.iter().find(|(_, c)| **c > 3) {
            return Err(bad(format!(
                "{}'s deck holds {c} cards named {n}; at most 3 cards of the same name (1.2.2.b)",
                player_name(p)
            )));
        }
        let uniq = !seen.is_empty();
        let mut ids = deck.clone();
        m.game.rng.shuffle(&mut ids);
        if let Some(z) = m.game.zones.get_mut(&ZoneId::of(p, zn::DECK)) {
            *z = ids;
        }
        m.record(
            "setup.shuffle",
            format!("{} shuffles their 50-card deck", player_name(p)),
            &[r::DECK_50, r::DECK_SAME_NAME_3, r::START_SHUFFLE],
        );
        if uniq {
            m.record(
                "setup.one_per_deck",
                format!("{}'s deck holds one copy of each デッキ１枚制限 card; same-name copies without the keyword count only toward the limit of 3", player_name(p)),
                &[r::ONE_PER_DECK, r::ONE_PER_DECK_SAME_NAME],
            );
        }
    }
    for p in 0..m.game.players.len() {
        for _ in 0..7 {
            draw(m, p, r::START_DRAW_7);
        }
        let before = m.game.set_value(p, "life", 25);
        m.record(
            "setup.life",
            format!(
                "{} draws 7 and starts with 25 life; there is no mulligan",
                player_name(p)
            ),
            &[r::START_DRAW_7, r::START_LIFE, r::LIFE_START],
        )
        .change(format!("{}.life", player_name(p)), before, 25);
    }
    let first = m.game.turn.first;
    m.game.turn.active = first;
    m.game.turn.number = 1;
    m.record(
        "setup.first_turn",
        format!("{}'s first turn begins", player_name(first)),
        &[r::START_TURN],
    );
    Ok(())
}

fn turn_start(m: &mut M) -> R<()> {
    m.game.turn.phase = "start".into();
    reset_damage(m, r::TURN_START_RESET);
    let tp = m.game.turn.active;
    m.record(
        "turn.start",
        format!(
            "turn {} of {} begins; no one gets priority",
            m.game.turn.number,
            player_name(tp)
        ),
        &[r::TURN_START, r::PH_START, r::NO_PRIORITY_START_END],
    );
    fire_all(m, "start_of_turn", r::TURN_START_EFFECTS)?;
    m.record(
        "turn.start",
        "the turn moves on to the active phase",
        &[r::TO_ACTIVE_PHASE, r::TURN_START_EFFECTS],
    );
    m.then([Step::Phase(phase_index("active"))]);
    Ok(())
}

/// Resets all accumulated damage of characters (4.3.1.a, 4.9.1.a; effect
/// damage resets only here, 1.10.13.e).
fn reset_damage(m: &mut M, rule: &'static str) {
    let mut changed = Vec::new();
    for id in all_characters(&m.game) {
        if let Some(c) = m.game.cards.get_mut(&id) {
            let before = accumulated(c);
            if before > 0 {
                c.counters.remove(COMBAT_DAMAGE);
                c.counters.remove(EFFECT_DAMAGE);
                changed.push((id, before));
            }
        }
    }
    let e = m.record(
        "damage.reset",
        "accumulated damage of characters (combat and effect) is reset",
        &[rule, r::RESET_EFFECT],
    );
    for (id, b) in changed {
        e.change(format!("{id}.accumulated_damage"), b, 0);
    }
}

fn phase_begin(m: &mut M, i: usize) -> R<()> {
    let name = PHASES.get(i).copied().unwrap_or("main");
    m.game.turn.phase = name.into();
    let tp = m.game.turn.active;
    match name {
        "setup" => {
            m.then([Step::Setup]);
            return Ok(());
        }
        "start" => {
            m.then([Step::TurnStart]);
            return Ok(());
        }
        "end" => return turn_end(m),
        "active" => {
            // 4.4.1.a: the turn player's cards on the field become active.
            // Nodes are in the node area, not the field, so they stay asleep.
            let mut woke = Vec::new();
            for id in m.game.zone_of(tp, zn::FIELD).to_vec() {
                if let Some(c) = m.game.cards.get_mut(&id)
                    && c.states.remove(st::SLEEP)
                {
                    woke.push(id);
                }
            }
            let e = m.record(
                "active_phase",
                format!("{}'s cards on the field become active; nodes are not on the field and stay as they are", player_name(tp)),
                &[r::ACTIVE_PHASE, r::PH_ACTIVE, r::ACTIVE_UNTAP, r::ACTIVE_PRIORITY],
            );
            for id in woke {
                e.change(format!("{id}.sleep"), true, false);
            }
            let opp = m.game.opponent(tp);
            for id in characters(&m.game, opp) {
                if has_kw(&m.game, &id, "vigilance")
                    && let Some(c) = m.game.cards.get_mut(&id)
                    && c.states.remove(st::SLEEP)
                {
                    m.record(
                        "vigilance",
                        format!("{id} has vigilance: it becomes active at the start of its opponent's active phase"),
                        &[r::VIGILANCE],
                    )
                    .change(format!("{id}.sleep"), true, false);
                }
            }
        }
        "maintenance" => {
            m.record(
                "maintenance_phase",
                format!(
                    "maintenance phase: the upkeep costs of {}'s cards are resolved as the rule effect",
                    player_name(tp)
                ),
                &[r::MAINTENANCE, r::PH_MAINT, r::MAINT_PRIORITY],
            );
            upkeep(m, tp)?;
            if m.game.result != GameResult::Ongoing {
                return Ok(());
            }
        }
        "draw" => {
            if m.game.turn.number == 1 && tp == m.game.turn.first {
                m.record(
                    "draw_phase",
                    format!(
                        "{} went first: no draw on their first turn",
                        player_name(tp)
                    ),
                    &[
                        r::DRAW_PHASE,
                        r::PH_DRAW,
                        r::DRAW_FIRST_TURN,
                        r::FIRST_NO_DRAW,
                        r::DRAW_PRIORITY,
                    ],
                );
            } else {
                m.record(
                    "draw_phase",
                    format!(
                        "draw phase: {} draws 1 as the rule effect, then gets priority",
                        player_name(tp)
                    ),
                    &[r::DRAW_PHASE, r::PH_DRAW, r::DRAW_PRIORITY],
                );
                draw(m, tp, r::DRAW_PHASE_DRAW);
                if m.game.result != GameResult::Ongoing {
                    return Ok(());
                }
            }
        }
        "main" => {
            m.record(
                "main_phase",
                format!(
                    "main phase of {}: no rule effect; they get priority",
                    player_name(tp)
                ),
                &[
                    r::MAIN_PHASE,
                    r::PH_MAIN,
                    r::MAIN_PRIORITY,
                    r::MAIN_NO_RULE_EFFECT,
                ],
            );
        }
        "discard" => {
            let hand = m.game.zone_of(tp, zn::HAND).to_vec();
            if hand.len() > 7 {
                let excess = hand.len() - 7;
                let chosen =
                    m.choices
                        .ids("discard", &hand)?
                        .ok_or_else(|| EngineError::MissingChoice {
                            choice: "discard".into(),
                            options: hand.clone(),
                        })?;
                let distinct: BTreeSet<&String> = chosen.iter().collect();
                if chosen.len() != excess || distinct.len() != excess {
                    return Err(EngineError::BadChoice {
                        choice: "discard".into(),
                        value: format!("{} card(s)", chosen.len()),
                        options: vec![format!("exactly {excess} of {}", hand.join(", "))],
                    });
                }
                m.record(
                    "discard_phase.hand_limit",
                    format!(
                        "{} has {} cards, over the limit of 7: they discard {excess}",
                        player_name(tp),
                        hand.len()
                    ),
                    &[
                        r::DISCARD_PHASE,
                        r::PH_DISCARD,
                        r::HAND_LIMIT,
                        r::DISCARD_PRIORITY,
                    ],
                );
                for id in &chosen {
                    if let Some(c) = m.game.cards.get_mut(id) {
                        c.states.insert(st::DISCARDING.into());
                    }
                }
                process_removals(m)?;
            } else {
                m.record(
                    "discard_phase.hand_limit",
                    format!(
                        "{} has {} cards: within the limit of 7",
                        player_name(tp),
                        hand.len()
                    ),
                    &[
                        r::DISCARD_PHASE,
                        r::PH_DISCARD,
                        r::HAND_LIMIT,
                        r::DISCARD_PRIORITY,
                    ],
                );
            }
        }
        _ => {}
    }
    give_priority(m, Pri::fresh(tp));
    Ok(())
}

/// 維持コスト（Ｘ） upkeep X (10.27.2.a), resolved with the maintenance
/// phase's rule effect (4.5.1.a): for each of the turn player's cards on the
/// field with upkeep (stat `upkeep` = X, in field order), the choice
/// `<card>.upkeep` is `pay` (X from nodes, payment choices under
/// `<card>.upkeep.`), `discard`, or `ignore` when a character whose name
/// contains the card's caster is on the field (5.5.7, 10.31). The
/// alternate-race exemption is not modelled (no card carries 代替レース).
fn upkeep(m: &mut M, tp: PlayerId) -> R<()> {
    // Whose maintenance phase asks for the upkeep of a card set on another
    // player's character (a 呪符 on the opponent's character) is not
    // settled by 10.27.2.a's 〔あなた〕: not implemented.
    if let Some(c) = m.game.cards.values().find(|c| {
        c.zone.kind == zn::FIELD
            && c.attached_to.is_some()
            && c.owner != c.controller
            && has_kw(&m.game, &c.id, "upkeep")
    }) {
        return Err(EngineError::NotImplemented {
            clause: r::UPKEEP,
            what: format!("upkeep of {}, set on another player's character", c.id),
        });
    }
    let cards: Vec<CardId> = m
        .game
        .zone_of(tp, zn::FIELD)
        .iter()
        .filter(|c| has_kw(&m.game, c, "upkeep"))
        .cloned()
        .collect();
    for id in cards {
        if !on_field(&m.game, &id) {
            continue; // removed by an earlier upkeep's discard
        }
        let x = stat(&m.game, &id, "upkeep");
        let caster = caster_of(&m.game, &id);
        let present = caster
            .as_deref()
            .map(|c| casters_present(&m.game, tp, c))
            .unwrap_or_default();
        let mut options = vec!["pay".to_string(), "discard".to_string()];
        if !present.is_empty() {
            options.push("ignore".into());
        } else if let Some(c) = caster.as_deref() {
            let sealed = sealed_casters(&m.game, tp, c);
            if !sealed.is_empty() {
                m.record(
                    "sealed_arts",
                    format!(
                        "{} has sealed arts and {} has fewer than 6 nodes: it is treated as not containing the caster {c} in its name, so {id}'s upkeep cannot be ignored",
                        sealed.join(", "),
                        player_name(tp)
                    ),
                    &[r::SEALED_ARTS, r::SEALED_ARTS_NAME],
                );
            }
        }
        let key = format!("{id}.upkeep");
        let v = m.choices.require(&key, &options)?;
        let answer = v.as_str().unwrap_or_default().to_string();
        if !options.contains(&answer) {
            return Err(EngineError::BadChoice {
                choice: key,
                value: v.to_string(),
                options,
            });
        }
        match answer.as_str() {
            "ignore" => {
                m.record(
                    "upkeep.ignore",
                    format!(
                        "{id} has upkeep {x}; its caster is on the field ({}), so the effect is ignored",
                        present.join(", ")
                    ),
                    &[r::UPKEEP, r::MAINT_RULE_EFFECT, r::CASTER_PRESENT],
                )
                .obj(id.clone());
            }
            "pay" => {
                m.record(
                    "upkeep.pay",
                    format!("{id} has upkeep {x}: {} pays {x}", player_name(tp)),
                    &[r::UPKEEP, r::MAINT_RULE_EFFECT],
                )
                .obj(id.clone());
                pay_keyed(m, tp, x, &id, &format!("{key}."))?;
            }
            _ => {
                let e = m.record(
                    "upkeep.discard",
                    format!(
                        "{id} has upkeep {x}: {} does not pay, so {id} is discarded",
                        player_name(tp)
                    ),
                    &[r::UPKEEP, r::MAINT_RULE_EFFECT],
                );
                e.obj(id.clone());
                if let Some(c) = m.game.cards.get_mut(&id) {
                    c.states.insert(st::DISCARDING.into());
                }
                process_removals(m)?;
                if m.game.result != GameResult::Ongoing {
                    return Ok(());
                }
            }
        }
    }
    Ok(())
}

fn phase_end(m: &mut M) -> R<()> {
    let i = phase_index(&m.game.turn.phase);
    m.record(
        "phase.end",
        format!(
            "every player passed in succession with no interference open: the {} phase ends",
            m.game.turn.phase
        ),
        &[
            r::ALL_PASS_PHASE_END,
            r::PHASE_END_ALL_PASS,
            r::TURN_PHASES,
            r::PHASE_PARTS,
            r::ONE_WAY,
        ],
    );
    m.then([Step::Phase(i + 1)]);
    Ok(())
}

fn turn_end(m: &mut M) -> R<()> {
    m.game.turn.phase = "end".into();
    reset_damage(m, r::TURN_END_RESET);
    // 4.9.1.b: "until end of turn" effects end.
    let mut ended = 0;
    for c in m.game.cards.values_mut() {
        let n = c.modifiers.len();
        c.modifiers.retain(|md| md.until != Until::EndOfTurn);
        ended += n - c.modifiers.len();
    }
    m.record(
        "turn.end",
        format!("end of turn: damage is reset and {ended} until-end-of-turn modification(s) end; no one gets priority"),
        &[r::TURN_END, r::PH_END, r::NO_PRIORITY_START_END, r::TURN_END_DURATIONS, r::TURN_END_EFFECTS],
    );
    fire_all(m, "end_of_turn", r::TURN_END_EFFECTS)?;
    if m.game.result != GameResult::Ongoing {
        return Ok(());
    }
    let next = m.game.opponent(m.game.turn.active);
    m.game.turn.active = next;
    m.game.turn.number += 1;
    m.game.vars.retain(|k, _| !k.starts_with("turn."));
    m.record(
        "turn.next",
        format!("{}'s turn begins", player_name(next)),
        &[r::TURN_END_NEXT],
    );
    m.then([Step::TurnStart]);
    Ok(())
}

// ---------------------------------------------------------------- effects

/// Fires the 自動γ abilities with `trigger` of every card on the field,
/// turn player's first (7.1.6.a).
fn fire_all(m: &mut M, trigger: &str, rule: &'static str) -> R<()> {
    let tp = m.game.turn.active;
    let mut ids = characters_and_field(&m.game, tp);
    ids.extend(characters_and_field(&m.game, m.game.opponent(tp)));
    fire(m, trigger, &ids, rule)
}

fn characters_and_field(g: &Game, p: PlayerId) -> Vec<CardId> {
    g.zone_of(p, zn::FIELD).to_vec()
}

/// Fires the 自動γ abilities with `trigger` of `cards` that are on the
/// field (7.4.7), in the given order, each resolving at once at the
/// procedure step that names it (7.4.7.c).
/// Moves `ids` from a pending removal state to its "resolving" state, so a
/// removal applied inside the trigger windows does not start this one again
/// (chapter 9: one removal kind resolves for all its cards at once).
fn mark_resolving(game: &mut Game, ids: &[CardId], pending: &str, resolving: &str) {
    for id in ids {
        if let Some(c) = game.cards.get_mut(id) {
            c.states.remove(pending);
            c.states.insert(resolving.into());
        }
    }
}

fn fire(m: &mut M, trigger: &str, cards: &[CardId], rule: &'static str) -> R<()> {
    let depth = var(&m.game, "nesting") + 1;
    if depth > MAX_NESTING {
        return Err(EngineError::Budget {
            budget: MAX_NESTING as u64,
            last: format!("automatic effects ({trigger}) nested {MAX_NESTING} deep"),
        });
    }
    m.game.vars.insert("nesting".into(), depth);
    let r = fire_inner(m, trigger, cards, rule);
    m.game.vars.insert("nesting".into(), depth - 1);
    r
}

fn fire_inner(m: &mut M, trigger: &str, cards: &[CardId], rule: &'static str) -> R<()> {
    for id in cards {
        if m.game.result != GameResult::Ongoing {
            return Ok(());
        }
        if !on_field(&m.game, id) {
            continue;
        }
        let Some(d) = def(&m.game, id).cloned() else {
            continue;
        };
        let master = m.game.card(id).map(|c| c.controller).unwrap_or(0);
        for ab in d.abilities.iter().filter(|a| a.trigger == trigger) {
            m.record(
                format!("auto.{trigger}"),
                format!("{id}'s automatic effect ({trigger}) resolves"),
                &[r::GAMMA, rule],
            )
            .obj(id.clone());
            let key = format!("{id}.{trigger}");
            let targets = choose_targets(m, ab, id, master, &key)?;
            if is_character(&m.game, id) && !taxes_paid(m, master, id, &targets, true)? {
                // 10.29.2.a: the character's effect is nullified and the
                // character is discarded.
                if let Some(c) = m.game.cards.get_mut(id) {
                    c.states.insert(st::DISCARDING.into());
                }
                process_removals(m)?;
                continue;
            }
            apply_ability(m, ab, id, master, &targets)?;
        }
    }
    Ok(())
}

fn candidates(g: &Game, f: &Filter, master: PlayerId, this: &str) -> Vec<String> {
    let sides: Vec<PlayerId> = match f.side {
        Side::You => vec![master],
        Side::Opponent => vec![g.opponent(master)],
        Side::Any => (0..g.players.len()).collect(),
    };
    let zone = f.zone.clone().unwrap_or_else(|| zn::FIELD.to_string());
    let mut out = Vec::new();
    for p in sides {
        for id in g.zone_of(p, &zone) {
            if f.other && id == this {
                continue;
            }
            if !f.types.is_empty()
                && !f
                    .types
                    .iter()
                    .any(|t| is_type(g, id, t) || (t == "character" && is_character(g, id)))
            {
                continue;
            }
            if let Some(s) = &f.state
                && !g.card(id).is_some_and(|c| c.has(s))
            {
                continue;
            }
            out.push(id.clone());
        }
    }
    out
}

/// Chooses the 目標 of every `chosen` effect of an ability (5.2.3.d): key
/// `key` for one such effect, `key#<effect index>` for several.
fn choose_targets(
    m: &mut M,
    ab: &AbilityDef,
    this: &str,
    master: PlayerId,
    key: &str,
) -> R<BTreeMap<usize, Vec<Tgt>>> {
    let chosen_effects: Vec<usize> = ab
        .effect
        .iter()
        .enumerate()
        .filter(|(_, e)| matches!(e.target(), Some(Target::Chosen { .. })))
        .map(|(i, _)| i)
        .collect();
    let several = chosen_effects.len() > 1;
    let mut out = BTreeMap::new();
    for i in chosen_effects {
        let Some(Target::Chosen {
            filter,
            count,
            up_to,
            or_leader,
        }) = ab.effect[i].target()
        else {
            continue;
        };
        let k = if several {
            format!("{key}#{i}")
        } else {
            key.to_string()
        };
        let mut legal = candidates(&m.game, filter, master, this);
        if *or_leader {
            legal.extend((0..m.game.players.len()).map(player_name));
        }
        let count = *count as usize;
        if !up_to && legal.len() < count {
            return Err(illegal(
                r::PLAY_TARGETS,
                format!("`{k}` needs {count} target(s); only {} legal", legal.len()),
                legal,
            ));
        }
        let given = match m.choices.ids(&k, &legal)? {
            Some(g) => {
                m.record(
                    "targets",
                    format!("`{k}`: {} chosen as target(s)", g.join(", ")),
                    &[r::PLAY_CHOOSE_TARGETS],
                );
                g
            }
            None if !up_to && legal.len() == count => {
                m.record(
                    "targets",
                    format!(
                        "`{k}`: the only legal target(s) {} are chosen",
                        legal.join(", ")
                    ),
                    &[r::PLAY_CHOOSE_TARGETS],
                )
                .note("a choice with exactly one possible answer is made by the engine");
                legal.clone()
            }
            None => {
                return Err(EngineError::MissingChoice {
                    choice: k,
                    options: legal,
                });
            }
        };
        let distinct: BTreeSet<&String> = given.iter().collect();
        if distinct.len() != given.len()
            || (if *up_to {
                given.len() > count
            } else {
                given.len() != count
            })
        {
            return Err(EngineError::BadChoice {
                choice: k,
                value: format!("{} target(s)", given.len()),
                options: vec![format!(
                    "{}{count} of {}",
                    if *up_to { "up to " } else { "exactly " },
                    legal.join(", ")
                )],
            });
        }
        out.insert(i, given.iter().map(|id| tgt(&m.game, id)).collect());
    }
    Ok(out)
}

/// The target of 装備 (a character on the player's field, 10.13.2.a) or
/// 呪符 (any character, 10.14.2.a), from the choice `targets`.
fn choose_set_target(m: &mut M, k: &str, card: &str, player: PlayerId) -> R<Tgt> {
    let (mut legal, mut rule) = if k == "equip" {
        (characters(&m.game, player), r::EQUIP)
    } else {
        (all_characters(&m.game), r::CHARM)
    };
    // 10.25.2.a: a 神器 card cannot target a character without 伝説.
    if has_kw(&m.game, card, "divine_artifact") {
        legal.retain(|c| has_kw(&m.game, c, "legend"));
        rule = r::DIVINE_ARTIFACT;
    }
    if legal.is_empty() {
        return Err(illegal(
            if rule == r::DIVINE_ARTIFACT {
                rule
            } else {
                r::PLAY_TARGETS
            },
            format!("{card} ({k}) needs a target character; there is none"),
            legal,
        ));
    }
    let given = match m.choices.ids("targets", &legal)? {
        Some(g) => g,
        None if legal.len() == 1 => {
            m.record(
                "targets",
                format!("`targets`: the only legal target {} is chosen", legal[0]),
                &[r::PLAY_CHOOSE_TARGETS, rule],
            )
            .note("a choice with exactly one possible answer is made by the engine");
            legal.clone()
        }
        None => {
            return Err(EngineError::MissingChoice {
                choice: "targets".into(),
                options: legal,
            });
        }
    };
    if given.len() != 1 {
        return Err(EngineError::BadChoice {
            choice: "targets".into(),
            value: format!("{} target(s)", given.len()),
            options: vec![format!("exactly 1 of {}", legal.join(", "))],
        });
    }
    m.record(
        "targets",
        format!("{card} ({k}) targets {}", given[0]),
        &[r::PLAY_CHOOSE_TARGETS, rule],
    );
    Ok(tgt(&m.game, &given[0]))
}

fn who_players(g: &Game, master: PlayerId, who: Who) -> Vec<PlayerId> {
    match who {
        Who::You => vec![master],
        Who::Opponent => vec![g.opponent(master)],
        Who::Both => {
            let tp = g.turn.active;
            vec![tp, g.opponent(tp)]
        }
    }
}

/// The objects an effect applies to; `None` when a chosen target is no
/// longer legal (8.2.5: the effect fails).
fn resolve_target(
    m: &mut M,
    t: &Target,
    this: &str,
    master: PlayerId,
    chosen: Option<&Vec<Tgt>>,
) -> Option<Vec<String>> {
    match t {
        Target::This => Some(vec![this.to_string()]),
        Target::Leader { who } => Some(
            who_players(&m.game, master, *who)
                .into_iter()
                .map(player_name)
                .collect(),
        ),
        Target::All { filter } => Some(candidates(&m.game, filter, master, this)),
        Target::Random { filter } => {
            let c = candidates(&m.game, filter, master, this);
            if c.is_empty() {
                return Some(Vec::new());
            }
            let i = m.game.rng.below(c.len() as u64) as usize;
            Some(vec![c[i].clone()])
        }
        Target::Chosen { .. } => {
            let list = chosen.cloned().unwrap_or_default();
            let n = m.game.players.len();
            if list
                .iter()
                .all(|t| parse_player(&t.0, n).is_some() || same_object(&m.game, t))
            {
                Some(list.into_iter().map(|t| t.0).collect())
            } else {
                None
            }
        }
    }
}

/// Applies an ability's effects front to back (7.1.9); an effect whose
/// target became illegal fails and stops the rest (7.1.12, 8.2.5).
fn apply_ability(
    m: &mut M,
    ab: &AbilityDef,
    this: &str,
    master: PlayerId,
    targets: &BTreeMap<usize, Vec<Tgt>>,
) -> R<bool> {
    for (i, e) in ab.effect.iter().enumerate() {
        if m.game.result != GameResult::Ongoing {
            return Ok(false);
        }
        let objs = match e.target() {
            Some(t) => match resolve_target(m, t, this, master, targets.get(&i)) {
                Some(o) => o,
                None => {
                    m.record(
                        "effect.fails",
                        format!("a target of {this}'s effect is no longer legal: the effect fails and the rest is not applied"),
                        &[r::TARGET_RECHECK, r::EFFECT_FAILS, r::ENTRY_VOID_CONTINUES],
                    );
                    return Ok(false);
                }
            },
            None => Vec::new(),
        };
        apply_effect(m, e, this, master, &objs)?;
    }
    Ok(true)
}

fn apply_effect(m: &mut M, e: &Effect, this: &str, master: PlayerId, objs: &[String]) -> R<()> {
    let n = m.game.players.len();
    match e {
        Effect::Damage { amount, .. } => {
            let batch = objs
                .iter()
                .map(|o| Dmg {
                    source: this.to_string(),
                    to: o.clone(),
                    amount: *amount,
                    combat: false,
                    pierce: false,
                })
                .collect();
            damage(m, batch)?;
        }
        Effect::Destroy { .. } | Effect::Banish { .. } => {
            let (state, rule, what) = match e {
                Effect::Destroy { .. } => (st::DISCARDING, r::DISCARD_APPLIED, "破棄 (discard)"),
                _ => (st::EXCLUDING, r::EXCLUDE_APPLIED, "除外 (exclude)"),
            };
            let mut applied = Vec::new();
            for o in objs {
                if let Some(c) = m.game.cards.get_mut(o)
                    && c.zone.kind == zn::FIELD
                {
                    c.states.insert(state.into());
                    applied.push(o.clone());
                }
            }
            let e = m.record(
                "removal.apply",
                format!("{this}'s effect applies {what} to {}; the effect is suspended while the removal resolves", applied.join(", ")),
                &[rule, if state == st::DISCARDING { r::DISCARD_STATE } else { r::EXCLUDE_STATE }, if state == st::DISCARDING { r::KIND_DISCARD } else { r::KIND_EXCLUDE }, r::REMOVAL, r::REMOVAL_INTERRUPTS],
            );
            for o in applied {
                e.obj(o);
            }
            process_removals(m)?;
        }
        Effect::ReturnToHand { .. } => {
            if let Some(o) = objs.iter().find(|o| !set_cards(&m.game, o).is_empty()) {
                return Err(EngineError::NotImplemented {
                    clause: r::SET_CARD_TEXT,
                    what: format!("{o} returns to the hand with cards set on it"),
                });
            }
            for o in objs {
                if let Some(owner) = m.game.card(o).map(|c| c.owner) {
                    m.game.move_card(o, ZoneId::of(owner, zn::HAND), false);
                    m.record(
                        "return_to_hand",
                        format!("{o} returns to its owner's hand"),
                        &[],
                    )
                    .obj(o.clone());
                }
            }
        }
        Effect::Draw { amount, who } => {
            for p in who_players(&m.game, master, *who) {
                for _ in 0..*amount {
                    draw(m, p, r::DRAW_ONE_AT_A_TIME);
                    if m.game.result != GameResult::Ongoing {
                        return Ok(());
                    }
                }
            }
        }
        Effect::ChangeValue { value, amount, who } => {
            if value != "life" {
                return Err(bad(format!(
                    "PMV players have no value `{value}`; valid: life"
                )));
            }
            for p in who_players(&m.game, master, *who) {
                let before = m.game.value(p, "life");
                m.game.set_value(p, "life", before + amount);
                m.record(
                    "life",
                    format!(
                        "{} {} {} life",
                        player_name(p),
                        if *amount >= 0 { "gains" } else { "loses" },
                        amount.abs()
                    ),
                    &[
                        if *amount >= 0 {
                            r::LIFE_GAIN
                        } else {
                            r::LIFE_LOSS
                        },
                        r::LIFE_UNBOUNDED,
                    ],
                )
                .change(
                    format!("{}.life", player_name(p)),
                    before,
                    before + amount,
                );
            }
        }
        Effect::SetPower {
            attack: a,
            defense: d,
            until,
            ..
        } => {
            for o in objs {
                if let Some(c) = m.game.cards.get_mut(o) {
                    // Each part is a change limited to its own value, so a
                    // change of attack and one of defense do not conflict
                    // (6.1.11.a); a later change of the same value wins
                    // (6.1.11), which the order of `modifiers` records.
                    for (stat, value) in [("attack", *a), ("defense", *d)] {
                        if let Some(value) = value {
                            c.modifiers.push(Modifier {
                                stat: stat.into(),
                                delta: value,
                                set: true,
                                until: *until,
                                source: this.to_string(),
                            });
                        }
                    }
                }
                let part = |v: Option<i64>| v.map_or("-".to_string(), |v| v.to_string());
                m.record(
                    "modify",
                    format!(
                        "{o} has its combat power changed to {}/{}",
                        part(*a),
                        part(*d)
                    ),
                    &[
                        r::POWER_CHANGE_FIRST,
                        r::POWER_CHANGE_LAST,
                        r::POWER_NO_CONFLICT,
                        r::COMBAT_POWER_FLOOR,
                    ],
                )
                .obj(o.clone());
            }
            process_removals(m)?;
        }
        Effect::Buff {
            attack: a,
            defense: d,
            until,
            ..
        } => {
            for o in objs {
                if let Some(c) = m.game.cards.get_mut(o) {
                    for (stat, delta) in [("attack", *a), ("defense", *d)] {
                        if delta != 0 {
                            c.modifiers.push(Modifier {
                                stat: stat.into(),
                                delta,
                                set: false,
                                until: *until,
                                source: this.to_string(),
                            });
                        }
                    }
                }
                let e = m.record(
                    "modify",
                    format!("{o} gets {a:+}/{d:+}"),
                    &[r::COMBAT_POWER_FLOOR],
                );
                e.obj(o.clone());
                if *a == 0 || *d == 0 {
                    e.rule(r::ZERO_MODIFIER);
                    e.text.push_str(" (a ±0 part is no modifier at all)");
                }
            }
            process_removals(m)?;
        }
        Effect::SetState { state, clear, .. } => {
            for o in objs {
                let Some(c) = m.game.cards.get_mut(o) else {
                    continue;
                };
                let has = c.states.contains(state);
                if has != *clear {
                    m.record(
                        "state",
                        format!(
                            "{o} is already {}: the effect does not apply to it",
                            if *clear {
                                "not ".to_string() + state
                            } else {
                                state.clone()
                            }
                        ),
                        &[r::MAKE_ACTIVE_SLEEP_NOOP],
                    );
                    continue;
                }
                if *clear {
                    c.states.remove(state);
                } else {
                    c.states.insert(state.clone());
                }
                m.record(
                    "state",
                    format!("{o}: {state} {}", if *clear { "cleared" } else { "set" }),
                    &[r::SLEEP_ACTIVE],
                )
                .change(format!("{o}.{state}"), *clear, !*clear);
            }
        }
        Effect::AddCounter {
            counter, amount, ..
        } => {
            for o in objs {
                if let Some(c) = m.game.cards.get_mut(o) {
                    *c.counters.entry(counter.clone()).or_default() += amount;
                }
            }
        }
        Effect::Summon { .. } => {
            return Err(bad(
                "PMV has no tokens: `summon` cannot be used in a PMV scenario",
            ));
        }
        Effect::Shuffle { who } => {
            for p in who_players(&m.game, master, *who) {
                let z = ZoneId::of(p, zn::DECK);
                let n = m.game.zone(&z).len();
                if let Some(deck) = m.game.zones.get_mut(&z) {
                    let mut cards = std::mem::take(deck);
                    m.game.rng.shuffle(&mut cards);
                    m.game.zones.insert(z, cards);
                }
                m.record(
                    "effect.shuffle",
                    format!("an effect shuffles {}'s deck ({n} cards); otherwise its order never changes", player_name(p)),
                    &[r::DECK_ORDER],
                );
            }
        }
        Effect::Win { who } => {
            let ws = who_players(&m.game, master, *who);
            for p in 0..n {
                if !ws.contains(&p) {
                    m.game.players[p].lost = true;
                }
            }
            m.record(
                "win.effect",
                format!(
                    "an effect makes {} win the game",
                    ws.iter()
                        .map(|p| player_name(*p))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
                &[r::WIN_EFFECT],
            );
            game_over_check(m);
        }
        Effect::Lose { who } => {
            for p in who_players(&m.game, master, *who) {
                m.game.players[p].lost = true;
                m.record(
                    "loss.effect",
                    format!("an effect makes {} lose the game", player_name(p)),
                    &[r::LOSS_EFFECT],
                );
            }
            game_over_check(m);
        }
    }
    Ok(())
}

// ---------------------------------------------------------------- damage

/// One damage event.
#[derive(Debug, Clone)]
struct Dmg {
    source: CardId,
    /// A card id or a player (`p1`).
    to: String,
    amount: i64,
    combat: bool,
    pierce: bool,
}

/// The damage procedure 1.10.12 a–f for damage dealt at the same time
/// (1.10.3), then removal (chapter 9).
fn damage(m: &mut M, batch: Vec<Dmg>) -> R<()> {
    // While a damage procedure runs, accumulated damage reaching durability
    // makes a character 決死 only at its own step f (1.10.12.f), not in the
    // removal sweep of a procedure nested inside it (e.g. pierce at step d).
    let depth = var(&m.game, "damage_depth");
    m.game.vars.insert("damage_depth".into(), depth + 1);
    let r = damage_inner(m, batch);
    m.game.vars.insert("damage_depth".into(), depth);
    r?;
    process_removals(m)
}

fn damage_inner(m: &mut M, batch: Vec<Dmg>) -> R<()> {
    let n = m.game.players.len();
    let mut live = Vec::new();
    for d in batch {
        if d.amount <= 0 {
            m.record(
                "damage.none",
                format!(
                    "{} would deal {} damage to {}: 0 or less is not damage",
                    d.source, d.amount, d.to
                ),
                &[r::DAMAGE_ZERO],
            );
            continue;
        }
        if parse_player(&d.to, n).is_none() {
            if !on_field(&m.game, &d.to) || !is_character(&m.game, &d.to) {
                m.record(
                    "damage.void",
                    format!(
                        "{} is not a character on the field: the damage is void",
                        d.to
                    ),
                    &[r::DAMAGE_ONLY_PLAYERS_CHARS, r::DAMAGE_VOID],
                );
                continue;
            }
            if m.game.card(&d.to).is_some_and(removing) {
                m.record(
                    "damage.void",
                    format!("{} is being removed: damage does not apply to it", d.to),
                    &[
                        r::DOOMED_IGNORES_DAMAGE,
                        r::DISCARD_IMMUNE,
                        r::DISCARD_IMMUNE_DAMAGE,
                    ],
                );
                continue;
            }
        }
        if d.combat
            && let Some(race) = resisted_race(&m.game, &d.to, &d.source)
        {
            m.record(
                "resistance",
                format!(
                    "{} has 耐性 {race}: it takes no combat damage from {}, a {race} character",
                    d.to, d.source
                ),
                &[r::RESISTANCE, r::NO_DAMAGE_TAKEN],
            )
            .obj(d.to.clone());
            continue;
        }
        live.push(d);
    }
    if live.is_empty() {
        return Ok(());
    }
    let in_combat = m.game.cards.values().any(|c| c.has(st::ATTACKING));
    let kind = |d: &Dmg| {
        if d.combat {
            (r::COMBAT_DAMAGE, r::COMBAT_NOT_EFFECT, "combat")
        } else if in_combat {
            (r::EFFECT_DAMAGE, r::EFFECT_DAMAGE_IN_COMBAT, "effect")
        } else {
            (r::EFFECT_DAMAGE, r::EFFECT_DAMAGE, "effect")
        }
    };
    let sources: Vec<CardId> = live.iter().map(|d| d.source.clone()).collect();
    let recips: Vec<CardId> = live
        .iter()
        .filter(|d| parse_player(&d.to, n).is_none())
        .map(|d| d.to.clone())
        .collect();
    // a, b: the "before" windows.
    let e = m.record(
        "damage.a",
        "1.10.12.a: effects of dealing damage resolve",
        &[
            r::DAMAGE_PROC,
            r::DAMAGE_A,
            r::DAMAGE_IMMEDIATE,
            r::DAMAGE_SOURCES,
        ],
    );
    if live.len() > 1 {
        e.rule(r::DAMAGE_SIMULTANEOUS);
        e.text.push_str(&format!(
            " ({} damages dealt at the same time go through each step together)",
            live.len()
        ));
    }
    fire(m, "dealing_damage", &sources, r::DAMAGE_A)?;
    m.record(
        "damage.b",
        "1.10.12.b: effects of receiving damage resolve",
        &[r::DAMAGE_B],
    );
    fire(m, "taking_damage", &recips, r::DAMAGE_B)?;
    if m.game.result != GameResult::Ongoing {
        return Ok(());
    }
    // c: apply.
    let mut prior: BTreeMap<String, i64> = BTreeMap::new();
    for d in &live {
        let (rule, rule2, word) = kind(d);
        if let Some(p) = parse_player(&d.to, n) {
            let before = m.game.value(p, "life");
            m.game.set_value(p, "life", before - d.amount);
            if d.combat && !d.pierce && m.game.card(&d.source).is_some_and(|c| c.controller != p) {
                *m.game
                    .vars
                    .entry(format!("combat.graze_damage.{}", player_name(p)))
                    .or_default() += d.amount;
            }
            m.record(
                "damage.c",
                format!("{} deals {} {word} damage to {}", d.source, d.amount, d.to),
                &[
                    r::DAMAGE_C,
                    rule,
                    rule2,
                    r::DAMAGE_KINDS,
                    r::DAMAGE_ONE_SOURCE,
                    r::DAMAGE_TO_PLAYER,
                    r::LIFE_LOSS,
                ],
            )
            .change(format!("{}.life", d.to), before, before - d.amount);
        } else if on_field(&m.game, &d.to) {
            let counter = if d.combat {
                COMBAT_DAMAGE
            } else {
                EFFECT_DAMAGE
            };
            let Some(c) = m.game.cards.get_mut(&d.to) else {
                continue;
            };
            let before = accumulated(c);
            prior.entry(d.to.clone()).or_insert(before);
            *c.counters.entry(counter.into()).or_default() += d.amount;
            m.record(
                "damage.c",
                format!("{} deals {} {word} damage to {}", d.source, d.amount, d.to),
                &[
                    r::DAMAGE_C,
                    rule,
                    rule2,
                    r::DAMAGE_KINDS,
                    r::DAMAGE_ONE_SOURCE,
                    r::DAMAGE_TO_CHAR,
                ],
            )
            .change(
                format!("{}.accumulated_damage", d.to),
                before,
                before + d.amount,
            );
        }
    }
    // d: after dealing damage, with the keyword γ effects that trigger here.
    m.record(
        "damage.d",
        "1.10.12.d: effects of having dealt damage resolve",
        &[r::DAMAGE_D],
    );
    for d in &live {
        if !d.combat || parse_player(&d.to, n).is_some() || !on_field(&m.game, &d.to) {
            continue;
        }
        let opposing = m
            .game
            .card(&d.source)
            .zip(m.game.card(&d.to))
            .is_some_and(|(a, b)| a.controller != b.controller);
        if !opposing {
            continue;
        }
        if has_kw(&m.game, &d.source, "instant_death")
            && m.game.card(&d.to).is_some_and(|c| !removing(c))
        {
            if let Some(c) = m.game.cards.get_mut(&d.to) {
                c.states.insert(st::DOOMED.into());
            }
            m.record(
                "instant_death",
                format!(
                    "{} has instant death: {} becomes 決死 (doomed), attributed to instant death",
                    d.source, d.to
                ),
                &[
                    r::INSTANT_DEATH,
                    r::INSTANT_DEATH_ATTRIBUTION,
                    r::DOOMED_BY_EFFECT,
                ],
            )
            .obj(d.to.clone());
        }
        if has_kw(&m.game, &d.source, "pierce")
            && m.game.card(&d.source).is_some_and(|c| c.has(st::ATTACKING))
        {
            let (atk, dur, acc_now, victim) = {
                let a = m
                    .game
                    .card(&d.source)
                    .map(|c| attack(&m.game, c))
                    .unwrap_or(0);
                let t = m.game.card(&d.to);
                (
                    a,
                    t.map(|c| durability(&m.game, c)).unwrap_or(0),
                    t.map(accumulated).unwrap_or(0),
                    t.map(|c| c.controller).unwrap_or(0),
                )
            };
            let counts_this = reading(&m.game, PIERCE_COUNTS_THIS_DAMAGE);
            let acc = if counts_this {
                acc_now
            } else {
                prior.get(&d.to).copied().unwrap_or(0)
            };
            let x = atk - dur + acc;
            let e = m.record(
                "pierce",
                format!("{} has pierce: X = attack {atk} - durability {dur} + accumulated damage {acc} = {x}", d.source),
                &[r::PIERCE],
            );
            e.note(if counts_this {
                "reading chosen by the scenario (reading_pierce_counts_this_damage): the accumulated damage includes the damage just dealt"
            } else {
                "judge's reading: \"already accumulated damage\" is the damage accumulated before this combat damage (the trigger is at 1.10.12.d, after the damage is applied; counting it again would double it)"
            });
            if x > 0 {
                m.record(
                    "pierce",
                    format!(
                        "{} deals {x} combat damage to {}: a nested damage procedure inside step d",
                        d.source,
                        player_name(victim)
                    ),
                    &[r::PIERCE, r::NESTED],
                );
                damage(
                    m,
                    vec![Dmg {
                        source: d.source.clone(),
                        to: player_name(victim),
                        amount: x,
                        combat: true,
                        pierce: true,
                    }],
                )?;
            } else {
                m.record(
                    "pierce",
                    "X is 0 or less: the pierce effect does nothing",
                    &[r::PIERCE],
                );
            }
        }
    }
    fire(m, "dealt_damage", &sources, r::DAMAGE_D)?;
    m.record(
        "damage.e",
        "1.10.12.e: effects of having received damage resolve",
        &[r::DAMAGE_E],
    );
    fire(m, "took_damage", &recips, r::DAMAGE_E)?;
    // f: doomed check.
    for id in &recips {
        let Some(c) = m.game.card(id) else { continue };
        if c.zone.kind != zn::FIELD || removing(c) {
            continue;
        }
        let (acc, dur) = (accumulated(c), raw_durability(&m.game, c));
        if acc >= dur {
            let src = live
                .iter()
                .rev()
                .find(|d| &d.to == id)
                .map(|d| (d.source.clone(), d.combat))
                .unwrap_or_default();
            if let Some(c) = m.game.cards.get_mut(id) {
                c.states.insert(st::DOOMED.into());
            }
            m.record(
                "damage.f",
                format!("{id} has {acc} accumulated damage against durability {dur}: it becomes 決死 (doomed), made so by {}", src.0),
                &[r::DAMAGE_F, r::DOOMED_BY_DAMAGE, if src.1 { r::DOOMED_SOURCE } else { r::DOOMED_BY_EFFECT_DAMAGE }],
            )
            .obj(id.clone());
        }
    }
    Ok(())
}

// ---------------------------------------------------------------- removal

/// Resolves removal states in the fixed order 決死 → 破棄 → 除外 (9.1.4),
/// each kind for all its cards at once (9.1.5, 9.1.6); also makes 決死 any
/// character whose durability is 0 or less (9.2.2.b) or whose accumulated
/// damage reached its durability (9.2.2.a).
fn process_removals(m: &mut M) -> R<()> {
    loop {
        if m.game.result != GameResult::Ongoing {
            return Ok(());
        }
        for id in all_characters(&m.game) {
            let Some(c) = m.game.card(&id) else { continue };
            if removing(c) {
                continue;
            }
            let (dur, acc) = (raw_durability(&m.game, c), accumulated(c));
            let rule = if dur <= 0 {
                r::DOOMED_BY_DURABILITY
            } else if acc >= dur && var(&m.game, "damage_depth") == 0 {
                r::DOOMED_BY_DAMAGE
            } else {
                continue;
            };
            if let Some(c) = m.game.cards.get_mut(&id) {
                c.states.insert(st::DOOMED.into());
            }
            m.record(
                "doomed",
                format!("{id} has durability {dur} and {acc} accumulated damage: it becomes 決死 (doomed)"),
                &[rule],
            )
            .obj(id.clone());
        }
        let with = |g: &Game, s: &str| -> Vec<CardId> {
            g.cards
                .values()
                .filter(|c| c.has(s))
                .map(|c| c.id.clone())
                .collect()
        };
        let doomed = with(&m.game, st::DOOMED);
        if !doomed.is_empty() {
            m.record(
                "removal.doomed",
                format!(
                    "決死 resolves for {} at once, before any 破棄 or 除外",
                    doomed.join(", ")
                ),
                &[
                    r::DOOMED_PROC,
                    r::DOOMED,
                    r::KIND_DOOMED,
                    r::REMOVAL_ORDER,
                    r::ORDER_DOOMED,
                    r::REMOVAL_SIMULTANEOUS,
                ],
            );
            // The windows run with the cards marked as resolving, so that a
            // removal applied inside them does not start this one again.
            mark_resolving(&mut m.game, &doomed, st::DOOMED, st::DOOMED_RESOLVING);
            fire(m, "doomed", &doomed, r::DOOMED_AFTER)?;
            for id in &doomed {
                if let Some(c) = m.game.cards.get_mut(id) {
                    c.states.remove(st::DOOMED_RESOLVING);
                    if c.zone.kind == zn::FIELD {
                        c.states.insert(st::DISCARDING.into());
                    }
                }
            }
            m.record(
                "removal.doomed",
                "each 決死 card is treated as having 破棄 applied",
                &[r::DOOMED_DISCARD],
            );
            continue;
        }
        let discarding = with(&m.game, st::DISCARDING);
        if !discarding.is_empty() {
            m.record(
                "removal.discard",
                format!("破棄 resolves for {} at once", discarding.join(", ")),
                &[
                    r::DISCARD_PROC,
                    r::REMOVAL_ORDER,
                    r::ORDER_DISCARD,
                    r::REMOVAL_NOT_ONE_BY_ONE,
                ],
            );
            mark_resolving(
                &mut m.game,
                &discarding,
                st::DISCARDING,
                st::DISCARD_RESOLVING,
            );
            fire(m, "discarded", &discarding, r::DISCARD_AFTER)?;
            for id in &discarding {
                discard_set_cards(m, id, r::DISCARD_SET_CARDS);
                let Some(owner) = m.game.card(id).map(|c| c.owner) else {
                    continue;
                };
                let from = m
                    .game
                    .move_card(id, ZoneId::of(owner, zn::NETHERWORLD), true);
                m.record(
                    "removal.discard",
                    format!("{id} is put on top of its owner's Netherworld"),
                    &[
                        r::DISCARD_TO_NETHERWORLD,
                        r::DISCARD_DEF,
                        r::RESET_NOT_CHARACTER,
                    ],
                )
                .obj(id.clone())
                .change(
                    format!("{id}.zone"),
                    from.map(|z| z.to_string()).unwrap_or_default(),
                    format!("{}.{}", player_name(owner), zn::NETHERWORLD),
                );
            }
            continue;
        }
        let excluding = with(&m.game, st::EXCLUDING);
        if !excluding.is_empty() {
            m.record(
                "removal.exclude",
                format!("除外 resolves for {} at once", excluding.join(", ")),
                &[r::EXCLUDE_PROC, r::REMOVAL_ORDER, r::ORDER_EXCLUDE],
            );
            for id in &excluding {
                discard_set_cards(m, id, r::EXCLUDE_SET_CARDS);
                let Some(owner) = m.game.card(id).map(|c| c.owner) else {
                    continue;
                };
                let from = m
                    .game
                    .move_card(id, ZoneId::of(owner, zn::EXCLUSION), false);
                m.record(
                    "removal.exclude",
                    format!("{id} is put into its owner's exclusion area"),
                    &[r::EXCLUDE_TO_AREA, r::EXCLUDE_DEF, r::RESET_NOT_CHARACTER],
                )
                .obj(id.clone())
                .change(
                    format!("{id}.zone"),
                    from.map(|z| z.to_string()).unwrap_or_default(),
                    format!("{}.{}", player_name(owner), zn::EXCLUSION),
                );
            }
            continue;
        }
        return Ok(());
    }
}

// ---------------------------------------------------------------- actions

/// The cards set on a card being discarded or excluded have 破棄 applied and
/// go to their owner's Netherworld with it (9.3.4.e/g, 9.4.4.e/l). Set
/// cards here carry no text (a set card with text is not implemented), so
/// their own discard windows are empty.
fn discard_set_cards(m: &mut M, id: &str, rule: &'static str) {
    for s in set_cards(&m.game, id) {
        let Some(owner) = m.game.card(&s).map(|c| c.owner) else {
            continue;
        };
        m.game
            .move_card(&s, ZoneId::of(owner, zn::NETHERWORLD), true);
        m.record(
            "removal.set_card",
            format!("{s} was set on {id}: 破棄 applies to it and it is put on top of its owner's Netherworld"),
            &[rule, r::DISCARD_TO_NETHERWORLD],
        )
        .obj(s.clone());
    }
}

fn nodes(g: &Game, p: PlayerId) -> Vec<CardId> {
    g.zone_of(p, zn::NODE).to_vec()
}

/// Pays `cost` from `p`'s nodes (1.8.7): `pay_sleep` lists active nodes to
/// sleep, `pay_discard` sleeping nodes to discard. One node yields at most 1
/// per payment (1.8.7.d): a node slept by this payment was not sleeping
/// before it, so it cannot also be discarded. The amount must be exact
/// (1.8.7.f).
fn pay(m: &mut M, p: PlayerId, cost: i64, card: &str) -> R<()> {
    pay_keyed(m, p, cost, card, "")
}

/// [`pay`] reading the payment choices under `prefix` (`blessing.pay_sleep`).
fn pay_keyed(m: &mut M, p: PlayerId, cost: i64, card: &str, prefix: &str) -> R<()> {
    if cost <= 0 {
        return Ok(());
    }
    let all = nodes(&m.game, p);
    let active: Vec<String> = all
        .iter()
        .filter(|n| !m.game.card(n).is_some_and(|c| c.has(st::SLEEP)))
        .cloned()
        .collect();
    let sleeping: Vec<String> = all
        .iter()
        .filter(|n| m.game.card(n).is_some_and(|c| c.has(st::SLEEP)))
        .cloned()
        .collect();
    let (ks, kd) = (format!("{prefix}pay_sleep"), format!("{prefix}pay_discard"));
    let s = m.choices.take(&ks);
    let d = m.choices.take(&kd);
    let list = |v: Option<Value>, key: &str| -> R<Vec<String>> {
        match v {
            None => Ok(Vec::new()),
            Some(Value::String(x)) => Ok(vec![x]),
            Some(Value::Array(a)) => a
                .iter()
                .map(|x| x.as_str().map(str::to_string))
                .collect::<Option<Vec<_>>>()
                .ok_or_else(|| bad(format!("`{key}` must be a list of node ids"))),
            Some(other) => Err(bad(format!(
                "`{key}` must be a list of node ids, not {other}"
            ))),
        }
    };
    let alts = vec![
        format!("active nodes: {}", active.join(", ")),
        format!("sleeping nodes: {}", sleeping.join(", ")),
    ];
    let (sleep, discard, auto) = if s.is_none() && d.is_none() {
        let sl: Vec<String> = active.iter().take(cost as usize).cloned().collect();
        let rest = cost as usize - sl.len();
        let di: Vec<String> = sleeping.iter().take(rest).cloned().collect();
        (sl, di, true)
    } else {
        let (sl, di) = (list(s, &ks)?, list(d, &kd)?);
        for id in &sl {
            if !active.contains(id) {
                return Err(illegal(
                    r::PAY_SLEEP,
                    format!(
                        "{id} is not an active node of {}: only an active node pays by going to sleep",
                        player_name(p)
                    ),
                    alts,
                ));
            }
        }
        for id in &di {
            if sl.contains(id) || active.contains(id) {
                return Err(illegal(
                    r::PAY_ONE_PER_NODE,
                    format!(
                        "{id} was active: it pays 1 by going to sleep and cannot also be discarded in the same payment"
                    ),
                    alts,
                ));
            }
            if !sleeping.contains(id) {
                return Err(illegal(
                    r::PAY_DISCARD,
                    format!("{id} is not a sleeping node of {}", player_name(p)),
                    alts,
                ));
            }
        }
        let uniq: BTreeSet<&String> = sl.iter().chain(di.iter()).collect();
        if uniq.len() != sl.len() + di.len() {
            return Err(illegal(
                r::PAY_ONE_PER_NODE,
                "a node is listed twice: each node gives at most 1 per payment",
                alts,
            ));
        }
        (sl, di, false)
    };
    let total = (sleep.len() + discard.len()) as i64;
    if total != cost {
        return Err(illegal(
            r::PAY_EXACT,
            format!(
                "the cost of {card} is {cost}; the payment gives {total} (sleep {} active, discard {} sleeping; each node gives at most 1)",
                sleep.len(),
                discard.len()
            ),
            vec![
                format!("active nodes: {}", active.join(", ")),
                format!("sleeping nodes: {}", sleeping.join(", ")),
            ],
        ));
    }
    for id in &sleep {
        if let Some(c) = m.game.cards.get_mut(id) {
            c.states.insert(st::SLEEP.into());
        }
    }
    for id in &discard {
        m.game.move_card(id, ZoneId::of(p, zn::NETHERWORLD), true);
    }
    let e = m.record(
        "play.pay",
        format!(
            "{} pays {cost} for {card}: sleeps {} and discards {}",
            player_name(p),
            if sleep.is_empty() {
                "none".into()
            } else {
                sleep.join(", ")
            },
            if discard.is_empty() {
                "none".into()
            } else {
                discard.join(", ")
            }
        ),
        &[
            r::PLAY_PAY,
            r::PAY_SLEEP,
            r::PAY_DISCARD,
            r::PAY_ONE_PER_NODE,
            r::PAY_ANY,
            r::PAY_EXACT,
            r::PAY_NO_SPLIT,
        ],
    );
    if !discard.is_empty() {
        e.rule(r::PAY_AS_COST_NO_REMOVAL);
    }
    if !discard.is_empty() && !sleep.is_empty() {
        e.rule(r::PAY_MIX);
    }
    if auto {
        e.note("no `pay_sleep`/`pay_discard` choice given: the engine sleeps active nodes first, then discards sleeping ones");
    }
    Ok(())
}

fn need_card(a: &Action) -> R<String> {
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
            if g.card(&id).is_some_and(|c| !c.has(st::SLEEP)) && !has_kw(g, &id, "doll") {
                v.push(format!("attack {id}"));
            }
        }
    }
    if p.holder == tp {
        for id in g.zone_of(tp, zn::FIELD) {
            if has_kw(g, id, "mana_charge") && g.card(id).is_some_and(|c| !c.has(st::SLEEP)) {
                v.push(format!("activate {id}"));
            }
        }
    }
    if p.block_window {
        for id in characters(g, p.holder) {
            if g.card(&id).is_some_and(|c| !c.has(st::SLEEP)) {
                v.push(format!("block {id}"));
            }
        }
    }
    v
}

/// Takes one scenario action at the awaiting priority step.
pub fn act(m: &mut M, a: &Action) -> R<()> {
    let Some(Step::Priority(mut p)) = m.stack.pop() else {
        return Err(bad(
            "the engine is not waiting for an action (nothing is left to do)",
        ));
    };
    if let Some(n) = &a.note {
        m.record("note", format!("note: {n}"), &[]);
    }
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
        "activate" => {
            let card = need_card(a)?;
            if !has_kw(&m.game, &card, "mana_charge") {
                return Err(EngineError::NotImplemented {
                    clause: r::ACTIVATED,
                    what: "activated effects (起動効果) other than マナチャージ".into(),
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

fn set_node(m: &mut M, mut p: Pri, player: PlayerId, card: &str) -> R<()> {
    let tp = m.game.turn.active;
    let alts = legal_actions(&m.game, &p);
    let fail = |rule, msg: String| illegal(rule, msg, alts.clone());
    if player != tp || m.game.turn.phase != "main" {
        return Err(fail(
            r::NODE_SET_MAIN,
            "a node is set only by the turn player in their main phase".into(),
        ));
    }
    if p.open() {
        return Err(fail(
            r::NODE_SET_NO_INTERFERENCE,
            "a node cannot be set while an interference is open".into(),
        ));
    }
    if var(&m.game, &turn_var("node_set", tp)) > 0 {
        return Err(fail(
            r::NODE_SET_ONCE,
            "a node was already set this turn".into(),
        ));
    }
    if !m.game.zone_of(player, zn::HAND).iter().any(|c| c == card) {
        return Err(fail(
            r::NODE_SET_FROM_HAND,
            format!("{card} is not in {}'s hand", player_name(player)),
        ));
    }
    let before = nodes(&m.game, player).len();
    m.game.move_card(card, ZoneId::of(player, zn::NODE), false);
    m.game.vars.insert(turn_var("node_set", tp), 1);
    m.record(
        "node.set",
        format!(
            "{} sets {card} as a node, face down and active; priority stays with them",
            player_name(player)
        ),
        &[
            r::NODE,
            r::NODE_SET,
            r::NODE_SET_FACE_DOWN,
            r::NODE_FACE_DOWN,
            r::NODE_SET_KEEPS_PRIORITY,
            r::NODE_SET_NOT_PLAY,
            r::PRIORITY_ACTIONS,
            r::PA_NODE,
        ],
    )
    .change(format!("{}.nodes", player_name(player)), before, before + 1);
    p.passes = 0;
    give_priority(m, p);
    Ok(())
}

fn play_card(m: &mut M, mut p: Pri, player: PlayerId, card: &str, from: Option<&str>) -> R<()> {
    let g = &m.game;
    let alts = legal_actions(g, &p);
    let fail = |rule, msg: String| illegal(rule, msg, alts.clone());
    let in_hand = g.zone_of(player, zn::HAND).iter().any(|c| c == card);
    if let Some(f) = from
        && f != zn::HAND
    {
        return Err(bad(format!(
            "PMV cards are played from the hand, not `{f}`"
        )));
    }
    if !in_hand {
        return Err(bad(format!(
            "{card} is not in {}'s hand",
            player_name(player)
        )));
    }
    let Some(d) = def(g, card).cloned() else {
        return Err(bad(format!("{card} has no definition")));
    };
    let tp = g.turn.active;
    let sorcery_ok = player == tp && g.turn.phase == "main" && !p.open();
    let ambush = d.has_keyword("ambush");
    let mut last_spell_note: Option<String> = None;
    let mut last_word_note: Option<(String, bool)> = None;
    match d.card_type.as_str() {
        "character" => {
            if !ambush {
                if player != tp {
                    return Err(fail(
                        r::CHAR_TURN_PLAYER,
                        "a character card is played only by the turn player".into(),
                    ));
                }
                if g.turn.phase != "main" {
                    return Err(fail(
                        r::CHAR_MAIN,
                        "a character card is played only in the main phase".into(),
                    ));
                }
                if p.open() {
                    return Err(fail(
                        r::CHAR_NO_INTERFERENCE,
                        "a character card is played only when no interference is open".into(),
                    ));
                }
            }
            let doll = d.has_keyword("doll");
            if doll && var(g, &turn_var("doll_played", player)) > 0 {
                return Err(fail(
                    r::DOLL_ONE_PER_TURN,
                    "a doll character card was already played this turn".into(),
                ));
            }
            // 5.4.1.d binds every character card without 人形, ambush
            // included (10.3.2.a changes only the timing), and counts the
            // turn player's resolved plays, as printed.
            if !doll && var(g, &turn_var("normal_character", tp)) > 0 {
                return Err(fail(
                    r::CHAR_ONE_PER_TURN,
                    format!(
                        "{} already resolved a character card without ambush or doll this turn",
                        player_name(tp)
                    ),
                ));
            }
        }
        "spell" => {
            let caster = caster_of(g, card);
            let present = caster
                .as_deref()
                .map(|c| casters_present(g, player, c))
                .unwrap_or_default();
            if d.has_keyword("last_word") && present.is_empty() {
                let sealed = caster
                    .as_deref()
                    .map(|c| sealed_casters(g, player, c))
                    .unwrap_or_default();
                return Err(fail(
                    if sealed.is_empty() {
                        r::LAST_WORD
                    } else {
                        r::SEALED_ARTS
                    },
                    format!(
                        "{card} has last word: it cannot be played without its caster ({}) on {}'s field{}",
                        caster.as_deref().unwrap_or("none printed"),
                        player_name(player),
                        if sealed.is_empty() {
                            String::new()
                        } else {
                            format!(
                                "; {} has sealed arts and fewer than 6 nodes, so it does not count",
                                sealed.join(", ")
                            )
                        }
                    ),
                ));
            }
            if d.has_keyword("last_word") {
                let by_link = present.iter().any(|c| has_kw(g, c, "link"));
                last_word_note = Some((
                    format!(
                        "{card} has last word: its caster {} is on {}'s field ({}; a name reference matches a name containing it{})",
                        caster.as_deref().unwrap_or_default(),
                        player_name(player),
                        present.join(", "),
                        if by_link {
                            ", 連結 names included"
                        } else {
                            ""
                        }
                    ),
                    by_link,
                ));
            }
            if d.has_keyword("world_charm") && var(g, &turn_var("world_charm", player)) > 0 {
                return Err(fail(
                    r::WORLD_CHARM,
                    format!(
                        "{} already played or resolved a 世界呪符 spell this turn",
                        player_name(player)
                    ),
                ));
            }
            // 10.30.2.a: with its caster on the field, a last-spell card
            // may be played at command timing (5.6.1: priority alone).
            if d.has_keyword("last_spell") && !present.is_empty() && !sorcery_ok {
                last_spell_note = Some(format!(
                    "{card} has last spell and its caster is on the field ({}): it is played at command timing",
                    present.join(", ")
                ));
            } else {
                if player != tp {
                    return Err(fail(
                        r::SPELL_TURN_PLAYER,
                        "a spell card is played only by the turn player".into(),
                    ));
                }
                if g.turn.phase != "main" {
                    return Err(fail(
                        r::SPELL_MAIN,
                        "a spell card is played only in the main phase".into(),
                    ));
                }
                if p.open() {
                    return Err(fail(
                        r::SPELL_NO_INTERFERENCE,
                        "a spell card is played only when no interference is open".into(),
                    ));
                }
            }
        }
        _ => {}
    }
    if d.has_keyword("own_turn_only") && player != tp {
        return Err(fail(
            r::OWN_TURN_ONLY,
            format!("{card} can be played only in its player's own turn"),
        ));
    }
    if d.has_keyword("opponent_turn_only") && player == tp {
        return Err(fail(
            r::OPPONENT_TURN_ONLY,
            format!("{card} can be played only in the opponent's turn"),
        ));
    }
    if d.has_keyword("one_per_turn")
        && let Some(n) = names(g, card)
            .into_iter()
            .find(|n| var(g, &format!("turn.played_name.{}.{n}", player_name(player))) > 0)
    {
        return Err(fail(
            r::ONE_PER_TURN,
            format!("a card named {n} was already played this turn"),
        ));
    }
    // 5.5.6: with a character whose name contains the spell's caster on
    // the player's field (5.5.7, 10.31), the node check, the cost check
    // and the payment may all be skipped together; the action asks for it
    // with the choice `caster_free: true`.
    let free_casters = match caster_of(g, card) {
        Some(c) if d.card_type == "spell" => casters_present(g, player, &c),
        _ => Vec::new(),
    };
    let free = match m.choices.take("caster_free") {
        None | Some(Value::Bool(false)) => false,
        Some(Value::Bool(true)) if !free_casters.is_empty() => true,
        Some(v) => {
            return Err(EngineError::BadChoice {
                choice: "caster_free".into(),
                value: v.to_string(),
                options: if free_casters.is_empty() {
                    vec!["false (no caster of this spell on the field)".into()]
                } else {
                    vec!["true".into(), "false".into()]
                },
            });
        }
    };
    let need = d.stats.get("node").copied().unwrap_or(0);
    let have = nodes(g, player).len() as i64;
    if have < need && !free {
        return Err(fail(
            r::PLAY_NODES,
            format!(
                "{card} needs {need} node(s); {} has {have} (active and sleeping both count)",
                player_name(player)
            ),
        ));
    }
    let cost = d.cost.unwrap_or(0);
    if cost > have && !free {
        return Err(fail(
            r::PLAY_COST,
            format!(
                "{card} costs {cost}; {} nodes can give at most {have}",
                player_name(player)
            ),
        ));
    }
    let _ = sorcery_ok;
    m.record(
        "play.declare",
        format!(
            "{} plays {card} ({}); needs {need} node(s), has {have}",
            player_name(player),
            d.card_type
        ),
        &[
            r::PLAY,
            r::PLAY_DECLARE,
            r::PLAY_PRIORITY,
            r::PLAY_NODES,
            r::PLAY_TYPE,
            r::PRIORITY_ACTIONS,
            r::PA_PLAY,
            r::PLAY_CONDITIONS_MET,
            r::PLAY_CAN_MOVE,
        ],
    )
    .obj(card.to_string());
    if d.card_type == "character" {
        let e = m.record(
            "play.character",
            format!(
                "character conditions hold: {}; {}",
                if ambush && !sorcery_ok {
                    "ambush lets it be played with priority alone"
                } else {
                    "turn player, main phase, no interference"
                },
                if d.has_keyword("doll") {
                    format!(
                        "no doll character resolved for {} this turn",
                        player_name(tp)
                    )
                } else {
                    format!(
                        "no character without ambush or doll resolved for {} this turn",
                        player_name(tp)
                    )
                }
            ),
            &[if d.has_keyword("doll") {
                r::CHAR_DOLL_ONE
            } else {
                r::CHAR_ONE_PER_TURN
            }],
        );
        if !ambush || sorcery_ok {
            e.rules
                .extend([r::CHAR_TURN_PLAYER, r::CHAR_MAIN, r::CHAR_NO_INTERFERENCE]);
        }
    }
    if ambush && !sorcery_ok && d.card_type == "character" {
        let e = m.record(
            "ambush",
            format!("{card} has ambush: it is played with priority alone; 5.4.1.d still applies"),
            &[r::AMBUSH_PLAY, r::CHAR_ONE_PER_TURN],
        );
        if player != tp {
            e.note("judge's reading: 5.4.1.d binds ambush characters too (10.3.2.a changes only the timing) and counts the turn player's resolved character plays, as printed; so the opponent's normal character this turn would also close this play (pmv.md §4.17 item 5)");
        }
    }
    if d.card_type == "command" {
        m.record(
            "command",
            "a command card needs only priority",
            &[r::COMMAND_PRIORITY, r::COMMAND_HAS_PRIORITY],
        );
    }
    if free {
        m.record(
            "caster_free",
            format!(
                "the caster of {card} is on the field ({}): the node check, the cost check and the payment are all skipped",
                free_casters.join(", ")
            ),
            &[r::CASTER_FREE, r::CASTER_PRESENT],
        );
    }
    if let Some((note, by_link)) = last_word_note {
        let e = m.record(
            "last_word",
            note,
            &[r::LAST_WORD, r::CASTER_PRESENT, r::NAME_REFERENCE],
        );
        if by_link {
            e.rule(r::LINK_NAMES);
        }
    }
    if let Some(note) = last_spell_note {
        m.record(
            "last_spell",
            note,
            &[r::LAST_SPELL, r::CASTER_PRESENT, r::COMMAND_PRIORITY],
        );
    }
    m.game.move_card(card, ZoneId::of(player, zn::PLAY), false);
    m.record(
        "play.move",
        format!("{card} moves to the play area face up"),
        &[r::PLAY_TO_AREA],
    );
    let mut targets = BTreeMap::new();
    if let Some(k) = set_keyword(&d) {
        if !d.abilities.is_empty() {
            return Err(EngineError::NotImplemented {
                clause: r::EQUIP_GAINS_TEXT,
                what: format!("text of {card} that a character would gain from a set card"),
            });
        }
        targets.insert(0, vec![choose_set_target(m, k, card, player)?]);
    } else if d.card_type != "character" && d.has_keyword("equip_field") {
        // 10.15.2.a sets the card on the field: it has no effect of its own
        // to resolve, and an `effect` ability would have no place.
        if d.abilities.iter().any(|a| a.trigger == "effect") {
            return Err(EngineError::NotImplemented {
                clause: r::EQUIP_FIELD,
                what: format!("an `effect` ability on {card}, a 装備／場 card"),
            });
        }
    } else if let Some(ab) = d.abilities.iter().find(|a| a.trigger == "effect") {
        targets = choose_targets(m, ab, card, player, "targets")?;
    }
    // 10.32.2.c: a last-word card being played that becomes the target of
    // another card being played has its play nullified and is discarded.
    let hit: BTreeSet<String> = targets
        .values()
        .flatten()
        .map(|(id, _)| id.clone())
        .filter(|id| id != card && has_kw(&m.game, id, "last_word"))
        .filter(|id| {
            p.chain
                .iter()
                .any(|e| &e.card == id && e.mana_charge.is_none())
        })
        .collect();
    for id in hit {
        let owner = p
            .chain
            .iter()
            .find(|e| e.card == id)
            .map(|e| e.player)
            .unwrap_or(player);
        p.chain.retain(|e| e.card != id);
        m.game
            .move_card(&id, ZoneId::of(owner, zn::NETHERWORLD), true);
        m.record(
            "last_word.targeted",
            format!("{id} has last word and became the target of {card} being played: its play is nullified and {id} is discarded"),
            &[r::LAST_WORD_TARGETED, r::PLAY_NULLIFIED],
        )
        .obj(id.clone());
    }
    if d.card_type != "character"
        && !taxes_paid(m, player, card, &targets, d.card_type == "command")?
    {
        // 10.29.2.a / 10.26.2.a: the card's effect is nullified and it is discarded;
        // nothing joins the interference and no cost is paid.
        m.game
            .move_card(card, ZoneId::of(player, zn::NETHERWORLD), true);
        m.record(
            "play.nullified",
            format!("{card}'s effect is nullified and {card} is discarded; the play does not count (5.2.5)"),
            &[r::PLAY_NULLIFIED],
        )
        .note("judge's reading: a play nullified while targets are chosen stops there: no cost is paid, nothing joins the interference, and the player keeps priority");
        p.passes = 0;
        give_priority(m, p);
        return Ok(());
    }
    if !free {
        pay(m, player, cost, card)?;
    }
    if d.has_keyword("world_charm") {
        m.game.vars.insert(turn_var("world_charm", player), 1);
        m.record(
            "world_charm",
            format!("{card} is a 世界呪符: no other may be played this turn"),
            &[r::WORLD_CHARM, r::WORLD_CHARM_ONCE],
        );
    }
    if d.has_keyword("doll") {
        m.game.vars.insert(turn_var("doll_played", player), 1);
        m.record(
            "doll",
            format!("{card} is a doll: it does not use up the normal character play, and no other doll may be played this turn"),
            &[r::DOLL_ONE_PER_TURN, r::CHAR_DOLL_ONE, r::CHAR_ONE_PER_TURN],
        );
    }
    if d.has_keyword("one_per_turn") {
        for n in names(&m.game, card) {
            m.game
                .vars
                .insert(format!("turn.played_name.{}.{n}", player_name(player)), 1);
        }
    }
    let opened = !p.open();
    p.chain.push(Entry {
        card: card.to_string(),
        player,
        targets,
        mana_charge: None,
    });
    p.passes = 0;
    p.block_window = false;
    p.holder = m.game.opponent(player);
    m.record(
        "play.pass",
        format!(
            "{} the interference (now {} entr{}); priority passes to {}",
            if opened { "this opens" } else { "this joins" },
            p.chain.len() + usize::from(p.attack.is_some()),
            if p.chain.len() + usize::from(p.attack.is_some()) == 1 {
                "y"
            } else {
                "ies"
            },
            player_name(p.holder)
        ),
        &[
            r::PLAY_PASS,
            r::INTERFERENCE,
            r::INTERFERENCE_OPENS,
            r::OPENS_BY_PLAY,
            r::PRIORITY_AFTER,
        ],
    );
    give_priority(m, p);
    Ok(())
}

fn declare_attack(m: &mut M, mut p: Pri, player: PlayerId, card: &str) -> R<()> {
    let g = &m.game;
    let alts = legal_actions(g, &p);
    let fail = |rule, msg: String| illegal(rule, msg, alts.clone());
    let tp = g.turn.active;
    if player != tp {
        return Err(fail(r::ATTACK_TP, "only the turn player attacks".into()));
    }
    if g.turn.phase != "main" {
        return Err(fail(
            r::ATTACK_MAIN,
            "attacks are made only in the main phase".into(),
        ));
    }
    if p.open() {
        return Err(fail(
            r::ATTACK_NO_INTERFERENCE,
            "an attack is declared only when no interference is open".into(),
        ));
    }
    if !g.zone_of(tp, zn::FIELD).iter().any(|c| c == card) || !is_character(g, card) {
        return Err(fail(
            r::ATTACK_OWN_FIELD,
            format!("{card} is not a character on {}'s field", player_name(tp)),
        ));
    }
    if g.card(card).is_some_and(|c| c.has(st::SLEEP)) {
        return Err(fail(
            r::ATTACK_ACTIVE,
            format!("{card} is asleep: only an active character can attack"),
        ));
    }
    if has_kw(g, card, "doll") {
        return Err(fail(
            r::DOLL_NO_ATTACK,
            format!("{card} is a doll: it cannot attack"),
        ));
    }
    if let Some(c) = m.game.cards.get_mut(card) {
        c.states.insert(st::SLEEP.into());
    }
    let def_p = m.game.opponent(tp);
    m.record(
        "attack.declare",
        format!(
            "{} attacks {} with {card}; {card} goes to sleep and an interference opens",
            player_name(tp),
            player_name(def_p)
        ),
        &[
            r::ATTACK_DEF,
            r::ATTACK_BY_PLAYER,
            r::ATTACK_DECLARE,
            r::ATTACK_SLEEP,
            r::ATTACK_OPENS,
            r::INTERFERENCE_OPENS,
            r::OPENS_BY_ATTACK,
            r::PRIORITY_ACTIONS,
            r::PA_ATTACK,
            r::ATTACK_TP,
            r::ATTACK_MAIN,
            r::ATTACK_NO_INTERFERENCE,
            r::ATTACK_CAPABLE_EXISTS,
            r::ATTACK_CAPABLE,
            r::ATTACK_OWN_FIELD,
            r::ATTACK_ACTIVE,
            r::ATTACK_CANT,
        ],
    )
    .obj(card.to_string())
    .change(format!("{card}.sleep"), false, true);
    fire(m, "on_attack", &[card.to_string()], r::ATTACK_WHEN)?;
    if let Some(c) = m.game.cards.get_mut(card)
        && c.zone.kind == zn::FIELD
    {
        c.states.insert(st::ATTACKING.into());
    }
    if on_field(&m.game, card) {
        m.record(
            "attack.becomes",
            format!("{card} is the attacking character"),
            &[r::ATTACK_BECOMES, r::ATTACK_AFTER],
        );
    } else {
        m.record(
            "attack.cancelled",
            format!("{card} left the field during the attack procedure: the attack is cancelled; the interference goes on without combat"),
            &[r::ATTACK_CANCELLED, r::ATTACK_CANCEL_LEFT],
        );
    }
    p.attack = Some(tgt(&m.game, card));
    p.passes = 0;
    p.holder = def_p;
    p.block_window = true;
    m.record(
        "attack.pass",
        format!(
            "priority passes to {}, who may block with it",
            player_name(def_p)
        ),
        &[r::ATTACK_PASS],
    );
    give_priority(m, p);
    Ok(())
}

fn declare_block(m: &mut M, mut p: Pri, player: PlayerId, card: &str) -> R<()> {
    let g = &m.game;
    let alts = legal_actions(g, &p);
    let fail = |rule, msg: String| illegal(rule, msg, alts.clone());
    if p.attack.as_ref().is_none_or(|a| !same_on_field(g, a)) {
        return Err(fail(
            r::BLOCK_ATTACKER,
            "there is no attacking character to block".into(),
        ));
    }
    if p.blocker.is_some() {
        return Err(fail(
            r::ONE_BLOCKER,
            "there is already a blocking character".into(),
        ));
    }
    if !p.block_window {
        return Err(fail(r::BLOCK_PRIORITY, "a block is declared only with the priority the attack passed, before doing anything else".into()));
    }
    if g.card(card).is_some_and(|c| c.zone.kind == zn::HAND) && has_kw(g, card, "ambush") {
        return Err(EngineError::NotImplemented {
            clause: r::AMBUSH_BLOCK,
            what: "playing an ambush + haste character to block (10.3.2.b)".into(),
        });
    }
    if !g.zone_of(player, zn::FIELD).iter().any(|c| c == card) || !is_character(g, card) {
        return Err(fail(
            r::BLOCK_OWN_FIELD,
            format!(
                "{card} is not a character on {}'s field",
                player_name(player)
            ),
        ));
    }
    if g.card(card).is_some_and(|c| c.has(st::SLEEP)) {
        return Err(fail(
            r::BLOCK_ACTIVE,
            format!("{card} is asleep: only an active character can block"),
        ));
    }
    if let Some(c) = m.game.cards.get_mut(card) {
        c.states.insert(st::SLEEP.into());
    }
    m.record(
        "block.declare",
        format!(
            "{} blocks with {card}; {card} goes to sleep",
            player_name(player)
        ),
        &[
            r::BLOCK_DEF,
            r::BLOCK_DECLARE,
            r::BLOCK_SLEEP,
            r::BLOCK_PRIORITY,
            r::PRIORITY_ACTIONS,
            r::PA_BLOCK,
            r::BLOCK_ATTACKER,
            r::BLOCK_CAPABLE_EXISTS,
            r::BLOCK_CAPABLE,
            r::BLOCK_OWN_FIELD,
            r::BLOCK_ACTIVE,
        ],
    )
    .obj(card.to_string())
    .change(format!("{card}.sleep"), false, true);
    fire(m, "on_block", &[card.to_string()], r::BLOCK_WHEN)?;
    if let Some(c) = m.game.cards.get_mut(card)
        && c.zone.kind == zn::FIELD
    {
        c.states.insert(st::BLOCKING.into());
    }
    p.blocker = Some(tgt(&m.game, card));
    p.passes = 0;
    p.block_window = false;
    p.holder = m.game.opponent(player);
    m.record(
        "block.pass",
        format!(
            "{card} is the blocking character; priority passes to {}",
            player_name(p.holder)
        ),
        &[r::BLOCK_BECOMES, r::BLOCK_AFTER, r::BLOCK_PASS],
    );
    give_priority(m, p);
    Ok(())
}

/// 加護（Ｘ） (10.29.2.a) and 抵抗（Ｘ） (10.26.2.a): when a character with
/// blessing on the field becomes the target of its opponent's command card
/// or character effect (`blessing_applies`), or a card with resist becomes,
/// while being played, the target of its opponent's card effect, that
/// opponent may pay X (choice `<keyword>.<target>`: true/false; payment
/// choices under `<keyword>.pay_sleep` / `<keyword>.pay_discard`). Returns
/// whether the effect goes on (`false`: not paid, the effect is nullified).
fn taxes_paid(
    m: &mut M,
    master: PlayerId,
    source: &str,
    targets: &BTreeMap<usize, Vec<Tgt>>,
    blessing_applies: bool,
) -> R<bool> {
    let mut taxed: Vec<(String, &'static str, &'static str, &'static str)> = Vec::new();
    for list in targets.values() {
        for (id, _) in list {
            let Some(c) = m.game.card(id) else { continue };
            if c.controller == master {
                continue;
            }
            let found = if blessing_applies
                && c.zone.kind == zn::FIELD
                && has_kw(&m.game, id, "blessing")
            {
                Some(("blessing", "加護", r::BLESSING))
            } else if c.zone.kind == zn::PLAY && has_kw(&m.game, id, "resist") {
                Some(("resist", "抵抗", r::RESIST))
            } else {
                None
            };
            if let Some((kw, jp, rule)) = found
                && !taxed.iter().any(|t| &t.0 == id)
            {
                taxed.push((id.clone(), kw, jp, rule));
            }
        }
    }
    for (id, kw, jp, rule) in taxed {
        let x = stat(&m.game, &id, kw);
        let key = format!("{kw}.{id}");
        let pays = match m.choices.take(&key) {
            Some(Value::Bool(b)) => b,
            Some(v) => {
                return Err(EngineError::BadChoice {
                    choice: key,
                    value: v.to_string(),
                    options: vec!["true".into(), "false".into()],
                });
            }
            None => {
                return Err(EngineError::MissingChoice {
                    choice: key,
                    options: vec!["true".into(), "false".into()],
                });
            }
        };
        let what = format!(
            "{id} has {jp}（{x}） and became a target of {}'s {source}",
            player_name(master)
        );
        if pays {
            m.record(
                format!("{kw}.pay"),
                format!("{what}: they pay {x}"),
                &[rule],
            );
            pay_keyed(m, master, x, source, &format!("{kw}."))?;
        } else {
            m.record(
                format!("{kw}.decline"),
                format!("{what}: they do not pay {x}"),
                &[rule],
            );
            return Ok(false);
        }
    }
    Ok(true)
}

/// マナチャージ（Ｘ） (10.12.2.a): （自分ターン）S：put the top X cards of
/// your deck into your node area, asleep. The activated-effect procedure
/// 7.3.4 with the sleep-icon cost of 1.8.8.
fn activate_mana_charge(m: &mut M, mut p: Pri, player: PlayerId, card: &str) -> R<()> {
    let g = &m.game;
    let alts = legal_actions(g, &p);
    let fail = |rule, msg: String| illegal(rule, msg, alts.clone());
    let Some(c) = g.card(card) else {
        return Err(bad(format!("no card `{card}`")));
    };
    if c.zone.kind != zn::FIELD {
        return Err(fail(
            r::ACT_ON_FIELD,
            format!("{card} is not on the field: only cards on the field use activated effects"),
        ));
    }
    if c.controller != player {
        return Err(fail(
            r::ACT_OWN_FIELD,
            format!("{card} is not on {}'s field", player_name(player)),
        ));
    }
    if player != g.turn.active {
        return Err(fail(
            r::ACT_OWN_TURN,
            "マナチャージ is used only in its player's own turn (（自分ターン）)".into(),
        ));
    }
    if c.has(st::SLEEP) {
        return Err(fail(
            r::SLEEP_COST,
            format!(
                "{card} is asleep: the sleep-icon cost must be paid by putting this active card to sleep"
            ),
        ));
    }
    if p.chain
        .iter()
        .any(|e| e.card == card && e.mana_charge.is_some())
    {
        return Err(fail(
            r::ACT_ONCE,
            format!("{card}'s マナチャージ was already used in this interference"),
        ));
    }
    let x = stat(g, card, "mana_charge");
    let inc = c.incarnation;
    m.record(
        "activate.declare",
        format!("{} uses {card}'s マナチャージ（{x}）", player_name(player)),
        &[
            r::ACTIVATED,
            r::ACT_DECLARE,
            r::ACT_ON_FIELD,
            r::ACT_OWN_FIELD,
            r::ACT_OWN_TURN,
            r::ACT_COST_PAYABLE,
            r::MANA_CHARGE,
            r::PRIORITY_ACTIONS,
            r::PA_ACTIVATE,
        ],
    )
    .obj(card.to_string());
    if let Some(c) = m.game.cards.get_mut(card) {
        c.states.insert(st::SLEEP.into());
    }
    m.record(
        "activate.pay",
        format!("{card} goes to sleep to pay the sleep-icon cost"),
        &[r::ACT_PAY, r::SLEEP_COST, r::SLEEP_COST_OWN],
    )
    .change(format!("{card}.sleep"), false, true);
    let opened = !p.open();
    p.chain.push(Entry {
        card: card.to_string(),
        player,
        targets: BTreeMap::new(),
        mana_charge: Some((x, inc)),
    });
    p.passes = 0;
    p.block_window = false;
    p.holder = m.game.opponent(player);
    m.record(
        "activate.pass",
        format!(
            "{} the interference; priority passes to {}",
            if opened { "this opens" } else { "this joins" },
            player_name(p.holder)
        ),
        &[
            r::ACT_OPEN,
            r::INTERFERENCE_OPENS,
            r::OPENS_BY_ACTIVATE,
            r::PRIORITY_AFTER,
        ],
    );
    give_priority(m, p);
    Ok(())
}

fn resolve_mana_charge(m: &mut M, e: &Entry, x: i64, inc: u32) -> R<()> {
    let card = &e.card;
    if !same_on_field(&m.game, &(card.clone(), inc)) {
        m.record(
            "activate.void",
            format!("{card} left the field before its マナチャージ resolved: the effect is void"),
            &[r::ACT_SOURCE_LEFT],
        );
        return Ok(());
    }
    if m.game.turn.active != e.player {
        m.record(
            "activate.void",
            format!(
                "it is no longer {}'s turn: マナチャージ fails its timing check",
                player_name(e.player)
            ),
            &[r::ACT_TIMING_RECHECK],
        );
        return Ok(());
    }
    let deck = m.game.zone_of(e.player, zn::DECK).to_vec();
    let put: Vec<String> = deck.iter().take(x.max(0) as usize).cloned().collect();
    let before = nodes(&m.game, e.player).len();
    for id in &put {
        m.game.move_card(id, ZoneId::of(e.player, zn::NODE), false);
        if let Some(c) = m.game.cards.get_mut(id) {
            c.states.insert(st::SLEEP.into());
        }
    }
    let en = m.record(
        "activate.resolve",
        format!("{card}'s マナチャージ（{x}） resolves: the top {} card(s) of {}'s deck go to the node area, asleep", put.len(), player_name(e.player)),
        &[r::ACT_TIMING_RECHECK, r::ACT_RESOLVE, r::MANA_CHARGE, r::NODE_ADD],
    );
    en.change(
        format!("{}.nodes", player_name(e.player)),
        before,
        before + put.len(),
    );
    if (put.len() as i64) < x {
        en.note("judge's reading: with fewer than X cards in the deck, マナチャージ puts what there is; it is not a draw, so it causes no loss");
    }
    Ok(())
}

// ---------------------------------------------------------------- resolution

/// 1.12.8: the whole interference resolves last-in-first-out with no
/// priority in between, then combat if an attack opened it, then the turn
/// player gets priority.
fn resolve_interference(m: &mut M, p: Pri) -> R<()> {
    m.record(
        "interference.resolve",
        format!(
            "every player passed in succession: the interference resolves{}",
            if p.chain.is_empty() {
                ": no played card to resolve, then the attack's combat".to_string()
            } else {
                format!(
                    ", {} played card(s) last-in-first-out, with no priority in between",
                    p.chain.len()
                )
            }
        ),
        &[
            r::ALL_PASS_RESOLVE,
            r::RESOLVE_LIFO,
            r::NO_PRIORITY_WHILE_RESOLVING,
        ],
    );
    for e in p.chain.iter().rev() {
        if m.game.result != GameResult::Ongoing {
            return Ok(());
        }
        resolve_entry(m, e)?;
    }
    if let Some(att) = &p.attack {
        combat(m, att, p.blocker.as_ref())?;
    }
    if m.game.result != GameResult::Ongoing {
        return Ok(());
    }
    let tp = m.game.turn.active;
    m.record(
        "interference.close",
        format!("the interference closes; {} gets priority", player_name(tp)),
        &[r::RESOLVE_CLOSE],
    );
    give_priority(m, Pri::fresh(tp));
    Ok(())
}

/// 弐符 second card (10.19.2.a): a character that entered the field other
/// than by 壱符's Spell Break is excluded, before its other entering
/// effects. 壱符 is not implemented, so every entry here is "other than
/// 壱符". Returns whether the card was excluded. Whether the card's own
/// entering effects still resolve after it left is not settled by the
/// text: such a card stops the run with `not implemented`.
fn second_card(m: &mut M, card: &str, d: &crate::engine::CardDef) -> R<bool> {
    if !d.has_keyword("second_card") {
        return Ok(false);
    }
    if d.abilities.iter().any(|a| a.trigger == "on_enter") {
        return Err(EngineError::NotImplemented {
            clause: r::SECOND_CARD,
            what: format!("the entering effects of {card}, a 弐符 card excluded before them"),
        });
    }
    m.record(
        "second_card",
        format!("{card} has 弐符 and entered the field other than by 壱符's effect: it is excluded from the game before any other entering effect"),
        &[r::SECOND_CARD, r::ORDER_EXCLUDE],
    )
    .obj(card.to_string());
    if let Some(c) = m.game.cards.get_mut(card) {
        c.states.insert(st::EXCLUDING.into());
    }
    process_removals(m)?;
    Ok(true)
}

/// 連結 link (10.20.2.b) as the play resolves: the player may exclude, from
/// their field, hand or Netherworld, one card whose name contains each of
/// A, B, C…, given with `<card>.link` as a list in the order of the parts
/// (`[]` for none). Excluding none excludes this card at once and its play
/// fails (10.20.3). Cards on the field go through 除外 (9.4.4).
fn link(m: &mut M, e: &Entry) -> R<bool> {
    let card = &e.card;
    let parts = link_parts(&m.game, card);
    let key = format!("{card}.link");
    let mut pool: Vec<CardId> = Vec::new();
    for z in [zn::FIELD, zn::HAND, zn::NETHERWORLD] {
        pool.extend(
            m.game
                .zone_of(e.player, z)
                .iter()
                .filter(|id| *id != card)
                .cloned(),
        );
    }
    let chosen = m
        .choices
        .ids(&key, &pool)?
        .ok_or_else(|| EngineError::MissingChoice {
            choice: key.clone(),
            options: pool.clone(),
        })?;
    let distinct: BTreeSet<&String> = chosen.iter().collect();
    let fits = !parts.is_empty()
        && chosen.len() == parts.len()
        && distinct.len() == chosen.len()
        && chosen
            .iter()
            .zip(&parts)
            .all(|(id, p)| name_contains(&m.game, id, p));
    if !chosen.is_empty() && !fits {
        return Err(EngineError::BadChoice {
            choice: key,
            value: chosen.join(", "),
            options: vec![format!(
                "[] or one distinct card of your field, hand or Netherworld per part, in order: {}",
                parts.join(" + ")
            )],
        });
    }
    if chosen.is_empty() {
        m.record(
            "link.fail",
            format!(
                "{card} has 連結 ({}) and {} excludes nothing: {card} is excluded at once and its play fails",
                parts.join(" + "),
                player_name(e.player)
            ),
            &[r::LINK, r::LINK_FAILS],
        )
        .obj(card.clone());
        if let Some(c) = m.game.cards.get_mut(card) {
            c.states.insert(st::EXCLUDING.into());
        }
        process_removals(m)?;
        return Ok(false);
    }
    m.record(
        "link",
        format!(
            "{card} has 連結 ({}): {} excludes {}, and the play goes on",
            parts.join(" + "),
            player_name(e.player),
            chosen.join(", ")
        ),
        &[r::LINK, r::NAME_REFERENCE],
    )
    .obj(card.clone());
    for id in &chosen {
        if on_field(&m.game, id) {
            if let Some(c) = m.game.cards.get_mut(id) {
                c.states.insert(st::EXCLUDING.into());
            }
        } else {
            let owner = m.game.card(id).map(|c| c.owner).unwrap_or(e.player);
            m.game
                .move_card(id, ZoneId::of(owner, zn::EXCLUSION), false);
            m.record(
                "link.exclude",
                format!("{id} is put into its owner's exclusion area"),
                &[r::LINK, r::EXCLUDE_TO_AREA],
            )
            .obj(id.clone());
        }
    }
    process_removals(m)?;
    Ok(true)
}

/// オーバードライブ overdrive (10.33.2.a) as the play resolves: the player may
/// exclude one or more cards of their Netherworld — character cards whose
/// name contains this card's caster, or spells with the same caster —
/// chosen with `<card>.overdrive` (a list, possibly empty). Excluding none
/// excludes this card at once and its play fails (10.33.3). Returns whether
/// the play goes on.
fn overdrive(m: &mut M, e: &Entry) -> R<bool> {
    let card = &e.card;
    let caster = caster_of(&m.game, card);
    let legal: Vec<CardId> = match caster.as_deref() {
        Some(c) => m
            .game
            .zone_of(e.player, zn::NETHERWORLD)
            .iter()
            .filter(|id| {
                def(&m.game, id).is_some_and(|d| {
                    (d.card_type == "character" && name_contains(&m.game, id, c))
                        || (d.card_type == "spell" && caster_of(&m.game, id).as_deref() == Some(c))
                })
            })
            .cloned()
            .collect(),
        None => Vec::new(),
    };
    let key = format!("{card}.overdrive");
    let chosen = if legal.is_empty() {
        Vec::new()
    } else {
        m.choices
            .ids(&key, &legal)?
            .ok_or_else(|| EngineError::MissingChoice {
                choice: key.clone(),
                options: legal.clone(),
            })?
    };
    let distinct: BTreeSet<&String> = chosen.iter().collect();
    if distinct.len() != chosen.len() {
        return Err(EngineError::BadChoice {
            choice: key,
            value: format!("{} card(s), some twice", chosen.len()),
            options: legal,
        });
    }
    if chosen.is_empty() {
        m.record(
            "overdrive.fail",
            format!(
                "{card} has overdrive and {} excludes no card from their Netherworld{}: {card} is excluded at once and its play fails",
                player_name(e.player),
                if legal.is_empty() { " (none qualifies)" } else { "" }
            ),
            &[r::OVERDRIVE, r::OVERDRIVE_FAILS],
        )
        .obj(card.clone());
        if let Some(c) = m.game.cards.get_mut(card) {
            c.states.insert(st::EXCLUDING.into());
        }
        process_removals(m)?;
        return Ok(false);
    }
    m.record(
        "overdrive",
        format!(
            "{card} has overdrive: {} excludes {} from their Netherworld, and the play goes on",
            player_name(e.player),
            chosen.join(", ")
        ),
        &[r::OVERDRIVE],
    )
    .obj(card.clone());
    for id in &chosen {
        let owner = m.game.card(id).map(|c| c.owner).unwrap_or(e.player);
        m.game
            .move_card(id, ZoneId::of(owner, zn::EXCLUSION), false);
        m.record(
            "overdrive.exclude",
            format!("{id} is put into its owner's exclusion area"),
            &[r::OVERDRIVE, r::EXCLUDE_TO_AREA],
        )
        .obj(id.clone());
    }
    Ok(true)
}

/// Resolves 装備 / 呪符: the card is set on its target (10.13.2.a,
/// 10.14.2.a), on the field of the target's controller. A target no longer
/// legal makes the effect fail (8.2.5); an equip target that already has
/// equipment makes the set fail (10.13.4). Either way the card goes to its
/// owner's Netherworld (5.2.4.d).
fn resolve_set(m: &mut M, e: &Entry, k: &str) -> R<()> {
    let card = &e.card;
    let target = e.targets.get(&0).and_then(|v| v.first()).cloned();
    let owner = m.game.card(card).map(|c| c.owner).unwrap_or(e.player);
    let valid = target.as_ref().filter(|t| {
        same_on_field(&m.game, t)
            && is_character(&m.game, &t.0)
            && (k != "equip" || m.game.card(&t.0).is_some_and(|c| c.controller == e.player))
            && (!has_kw(&m.game, card, "divine_artifact") || has_kw(&m.game, &t.0, "legend"))
    });
    let fail = |m: &mut M, text: String, rules: &[&'static str]| {
        m.game
            .move_card(card, ZoneId::of(owner, zn::NETHERWORLD), true);
        m.record("resolve.set_failed", text, rules)
            .obj(card.clone());
    };
    let Some((t, _)) = valid else {
        fail(
            m,
            format!(
                "{card}'s target is no longer legal: the set fails and {card} is put into the Netherworld"
            ),
            &[
                r::TARGET_RECHECK,
                r::EFFECT_FAILS,
                r::RESOLVE_TO_NETHERWORLD,
            ],
        );
        return Ok(());
    };
    if k == "equip" {
        let already: Vec<CardId> = set_cards(&m.game, t)
            .into_iter()
            .filter(|s| has_kw(&m.game, s, "equip"))
            .collect();
        if !already.is_empty() {
            fail(
                m,
                format!(
                    "{t} already has equipment ({}): setting {card} fails and it is put into the Netherworld",
                    already.join(", ")
                ),
                &[r::EQUIP_ONE, r::RESOLVE_TO_NETHERWORLD],
            );
            return Ok(());
        }
    }
    let at = m.game.card(t).map(|c| c.controller).unwrap_or(e.player);
    m.game.move_card(card, ZoneId::of(at, zn::FIELD), false);
    if let Some(c) = m.game.cards.get_mut(card) {
        c.attached_to = Some(t.clone());
    }
    let (rule, gains) = if k == "equip" {
        (r::EQUIP, r::EQUIP_GAINS_TEXT)
    } else {
        (r::CHARM, r::CHARM_GAINS_TEXT)
    };
    m.record(
        format!("resolve.{k}"),
        format!(
            "{card} resolves: it is set on {t}, which gets its combat modifiers ({} attack, {} durability)",
            def(&m.game, card).and_then(|d| d.attack).unwrap_or(0),
            def(&m.game, card).and_then(|d| d.defense).unwrap_or(0)
        ),
        &[r::RESOLVE_EFFECT, rule, gains, r::SET_CARD_TEXT],
    )
    .obj(card.clone())
    .obj(t.clone());
    // A negative modifier may bring durability to 0 (9.2.2.b).
    process_removals(m)
}

fn resolve_entry(m: &mut M, e: &Entry) -> R<()> {
    if let Some((x, inc)) = e.mana_charge {
        return resolve_mana_charge(m, e, x, inc);
    }
    let card = &e.card;
    if m.game.card(card).is_none_or(|c| c.zone.kind != zn::PLAY) {
        m.record(
            "resolve",
            format!("{card} is no longer in the play area: nothing resolves"),
            &[r::RESOLVE_EFFECT],
        );
        return Ok(());
    }
    let Some(d) = def(&m.game, card).cloned() else {
        return Ok(());
    };
    if d.has_keyword("overdrive") && !overdrive(m, e)? {
        return Ok(());
    }
    if d.has_keyword("link") && !link(m, e)? {
        return Ok(());
    }
    if let Some(k) = set_keyword(&d) {
        return resolve_set(m, e, k);
    }
    if d.card_type != "character" && d.has_keyword("equip_field") {
        // 10.15.2.a: set on its player's field, active; 10.15.3: not if
        // that field already has a 装備／場 card. Its text stays live
        // (5.6.2 names only commands without 装備／場).
        let owner = m.game.card(card).map(|c| c.owner).unwrap_or(e.player);
        let already: Vec<CardId> = m
            .game
            .zone_of(e.player, zn::FIELD)
            .iter()
            .filter(|c| has_kw(&m.game, c, "equip_field"))
            .cloned()
            .collect();
        if !already.is_empty() {
            m.game
                .move_card(card, ZoneId::of(owner, zn::NETHERWORLD), true);
            m.record(
                "resolve.set_failed",
                format!(
                    "{}'s field already has a 装備／場 card ({}): setting {card} fails and it is put into the Netherworld",
                    player_name(e.player),
                    already.join(", ")
                ),
                &[r::EQUIP_FIELD_ONE, r::RESOLVE_TO_NETHERWORLD],
            )
            .obj(card.clone());
            return Ok(());
        }
        m.game
            .move_card(card, ZoneId::of(e.player, zn::FIELD), false);
        m.record(
            "resolve.equip_field",
            format!(
                "{card} resolves: 装備／場 sets it on {}'s field, active",
                player_name(e.player)
            ),
            &[r::RESOLVE_EFFECT, r::EQUIP_FIELD],
        )
        .obj(card.clone());
        fire(m, "on_enter", std::slice::from_ref(card), r::RESOLVE_EFFECT)?;
        return process_removals(m);
    }
    if d.card_type != "character" && d.has_keyword("world_charm") {
        // 10.17.2.a: set on its player's field, active; a 世界呪符 keeps its
        // text there (5.5.3). It is not a character.
        m.game
            .move_card(card, ZoneId::of(e.player, zn::FIELD), false);
        m.record(
            "resolve.world_charm",
            format!(
                "{card} resolves: 世界呪符 sets it on {}'s field, active; it keeps its text",
                player_name(e.player)
            ),
            &[r::RESOLVE_EFFECT, r::WORLD_CHARM, r::SPELL_ON_FIELD_TEXT],
        )
        .obj(card.clone());
        fire(m, "on_enter", std::slice::from_ref(card), r::RESOLVE_EFFECT)?;
        return process_removals(m);
    }
    if d.card_type != "character" && d.has_keyword("phantasm") {
        // 10.16.2.a: instead of an effect, the card is set on its player's
        // field asleep; face up and unattached it is a character (10.16.3)
        // from the moment its entering effects resolve (6.1.8.b).
        let haste = d.has_keyword("haste");
        m.game
            .move_card(card, ZoneId::of(e.player, zn::FIELD), false);
        if !haste && let Some(c) = m.game.cards.get_mut(card) {
            c.states.insert(st::SLEEP.into());
        }
        let en = m.record(
            "resolve.phantasm",
            format!(
                "{card} resolves: 幻想生物 sets it on {}'s field {}; it is a character and keeps its text",
                player_name(e.player),
                if haste { "active (haste takes effect when it becomes a character)" } else { "asleep" }
            ),
            &[r::RESOLVE_EFFECT, r::PHANTASM, r::PHANTASM_CHARACTER, r::CHARACTER_FROM_PHANTASM, r::SPELL_ON_FIELD_TEXT],
        );
        en.obj(card.clone());
        if haste {
            en.rule(r::HASTE);
            en.rule(r::HASTE_PHANTASM);
        }
        if second_card(m, card, &d)? {
            return Ok(());
        }
        fire(m, "on_enter", std::slice::from_ref(card), r::RESOLVE_EFFECT)?;
        return process_removals(m);
    }
    if d.card_type == "character" {
        let haste = d.has_keyword("haste");
        m.game
            .move_card(card, ZoneId::of(e.player, zn::FIELD), false);
        if !haste && let Some(c) = m.game.cards.get_mut(card) {
            c.states.insert(st::SLEEP.into());
        }
        let normal = !d.has_keyword("ambush") && !d.has_keyword("doll");
        if normal {
            m.game
                .vars
                .insert(turn_var("normal_character", e.player), 1);
        }
        let en = m.record(
            "resolve.character",
            format!(
                "{card} resolves: it is set face up on {}'s field, {}",
                player_name(e.player),
                if haste { "active (haste)" } else { "asleep" }
            ),
            &[
                r::RESOLVE_EFFECT,
                r::CHAR_RESOLVES,
                r::CHAR_STATUS,
                r::CHARACTER,
                r::CHARACTER_FROM,
            ],
        );
        en.obj(card.clone());
        if haste {
            en.rule(r::HASTE);
        }
        if d.has_keyword("legend") {
            en.rule(r::LEGEND);
            en.text.push_str("; 伝説 legend has no text of its own");
        }
        if second_card(m, card, &d)? {
            return Ok(());
        }
        fire(m, "on_enter", std::slice::from_ref(card), r::RESOLVE_EFFECT)?;
        return process_removals(m);
    }
    m.record(
        "resolve.effect",
        format!("{card} resolves: its effect is applied"),
        &[r::RESOLVE_EFFECT],
    )
    .obj(card.clone());
    if let Some(ab) = d.abilities.iter().find(|a| a.trigger == "effect") {
        apply_ability(m, ab, card, e.player, &e.targets)?;
    }
    if m.game.card(card).is_some_and(|c| c.zone.kind == zn::PLAY) {
        m.game
            .move_card(card, ZoneId::of(e.player, zn::NETHERWORLD), true);
        m.record(
            "resolve.done",
            format!("{card} is put on top of the Netherworld"),
            &[r::RESOLVE_TO_NETHERWORLD],
        );
    }
    Ok(())
}

/// Combat, the ten steps of 6.2.4.
fn combat(m: &mut M, att: &Tgt, blk: Option<&Tgt>) -> R<()> {
    let attacker = att.0.clone();
    let tp = m.game.turn.active;
    let defender = m.game.opponent(tp);
    m.record(
        "combat.a",
        "combat: every entry other than the attack and the block has resolved",
        &[
            r::COMBAT_DEF,
            r::COMBAT_AT_END,
            r::COMBAT_A,
            r::RESOLVE_COMBAT,
        ],
    );
    if !same_on_field(&m.game, att) {
        m.record(
            "combat.cancelled",
            format!("{attacker} left the field: the attack is cancelled and no combat takes place; the block is cancelled with it"),
            &[r::ATTACK_CANCELLED, r::ATTACK_CANCEL_LEFT, r::BLOCK_CANCEL_WITH_ATTACK],
        );
        clear_combat_states(m);
        return Ok(());
    }
    m.game
        .vars
        .remove(&format!("combat.graze_damage.{}", player_name(defender)));
    // b.
    m.record("combat.b", "start of combat", &[r::COMBAT_B]);
    fire_all(m, "start_of_combat", r::COMBAT_B)?;
    let mut blocker = blk.cloned();
    if let Some(b) = &blocker
        && has_kw(&m.game, &attacker, "stealth")
        && same_on_field(&m.game, b)
    {
        let ta: BTreeSet<String> = def(&m.game, &attacker)
            .map(|d| d.traits.iter().cloned().collect())
            .unwrap_or_default();
        let shares = def(&m.game, &b.0).is_some_and(|d| d.traits.iter().any(|t| ta.contains(t)));
        if shares {
            m.record(
                "stealth",
                format!(
                    "{attacker} has stealth, but {} shares a race with it: the block stands",
                    b.0
                ),
                &[r::STEALTH],
            );
        } else {
            m.record(
                "stealth",
                format!(
                    "{attacker} has stealth: the block by {} is cancelled at the start of combat; combat goes on",
                    b.0
                ),
                &[r::STEALTH, r::BLOCK_CANCELLED_CONTINUES],
            );
            if let Some(c) = m.game.cards.get_mut(&b.0) {
                c.states.remove(st::BLOCKING);
            }
            blocker = None;
        }
    }
    // c: fix the recipient.
    let blocker_now = blocker.filter(|b| same_on_field(&m.game, b));
    let recipient = match &blocker_now {
        Some(b) => {
            m.record(
                "combat.c",
                format!(
                    "{attacker}'s combat damage will go to the blocking character {}",
                    b.0
                ),
                &[r::COMBAT_C, r::RECIPIENT, r::RECIPIENT_BLOCKER],
            );
            b.clone()
        }
        None => {
            let e = m.record(
                "combat.c",
                format!(
                    "{attacker}'s combat damage will go to {}",
                    player_name(defender)
                ),
                &[r::COMBAT_C, r::RECIPIENT, r::RECIPIENT_PLAYER],
            );
            if blk.is_some() {
                e.note("judge's reading: the blocker is gone at step c, so no blocking character exists and the attacked player receives the damage (6.2.6; the rules have no explicit block-cancel rule here)");
            }
            (player_name(defender), 0)
        }
    };
    let strike_back = !reading(&m.game, BLOCKER_NO_DAMAGE);
    // d, e: first strike then normal.
    for (first, step, rule) in [
        (true, "combat.d", r::COMBAT_D),
        (false, "combat.e", r::COMBAT_E),
    ] {
        let mut batch = Vec::new();
        let att_ok = same_on_field(&m.game, att) && !m.game.card(&attacker).is_some_and(removing);
        let rec_ok = recipient.1 == 0 && parse_player(&recipient.0, m.game.players.len()).is_some()
            || same_on_field(&m.game, &recipient);
        if att_ok && rec_ok && has_kw(&m.game, &attacker, "first_strike") == first {
            let a = m
                .game
                .card(&attacker)
                .map(|c| attack(&m.game, c))
                .unwrap_or(0);
            batch.push(Dmg {
                source: attacker.clone(),
                to: recipient.0.clone(),
                amount: a,
                combat: true,
                pierce: false,
            });
        }
        if let Some(b) = &blocker_now
            && strike_back
            && same_on_field(&m.game, b)
            && same_on_field(&m.game, att)
            && has_kw(&m.game, &b.0, "first_strike") == first
        {
            let a = m.game.card(&b.0).map(|c| attack(&m.game, c)).unwrap_or(0);
            batch.push(Dmg {
                source: b.0.clone(),
                to: attacker.clone(),
                amount: a,
                combat: true,
                pierce: false,
            });
        }
        let e = m.record(
            step,
            if first {
                "first-strike combat damage"
            } else {
                "normal combat damage"
            },
            &[rule, r::COMBAT_DAMAGE],
        );
        if !batch.is_empty() {
            e.note(if strike_back || blocker_now.is_none() {
                "judge's reading: each character deals combat damage equal to its attack, and a blocker deals its attack back to the attacker (implied by 6.2.1, 6.2.4.d/e, 10.5.2.a, 10.8; never stated)"
            } else {
                "reading chosen by the scenario (reading_blocker_deals_no_damage): the blocker deals no combat damage to the attacker"
            });
        }
        if batch.len() > 1 {
            e.rule(r::DAMAGE_SIMULTANEOUS);
        }
        if first && !batch.is_empty() {
            e.rule(r::FIRST_STRIKE);
            e.text.push_str(&format!(
                ": {} deal(s) damage at first-strike timing",
                batch
                    .iter()
                    .map(|d| d.source.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        damage(m, batch)?;
        if m.game.result != GameResult::Ongoing {
            return Ok(());
        }
    }
    // f.
    m.record(
        "combat.f",
        "remaining combat effects resolve",
        &[r::COMBAT_F],
    );
    // g: graze, unless the attack was cancelled during combat (6.3.7).
    if same_on_field(&m.game, att) {
        let took = var(
            &m.game,
            &format!("combat.graze_damage.{}", player_name(defender)),
        );
        let x = stat(&m.game, &attacker, "graze");
        if took >= 1 && x > 0 {
            let yes = match m.choices.take("graze") {
                Some(Value::Bool(b)) => b,
                Some(v) => {
                    return Err(EngineError::BadChoice {
                        choice: "graze".into(),
                        value: v.to_string(),
                        options: vec!["true".into(), "false".into()],
                    });
                }
                None => {
                    return Err(EngineError::MissingChoice {
                        choice: "graze".into(),
                        options: vec!["true".into(), "false".into()],
                    });
                }
            };
            if yes {
                let deck = m.game.zone_of(defender, zn::DECK).to_vec();
                let put: Vec<String> = deck.iter().take(x as usize).cloned().collect();
                for id in &put {
                    m.game.move_card(id, ZoneId::of(defender, zn::NODE), false);
                    if let Some(c) = m.game.cards.get_mut(id) {
                        c.states.insert(st::SLEEP.into());
                    }
                }
                let e = m.record(
                    "combat.g",
                    format!("graze: {} took {took} combat damage and puts the top {} card(s) of their deck into their node area, asleep (graze {x})", player_name(defender), put.len()),
                    &[r::COMBAT_G, r::GRAZE, r::GRAZE_FROM_CHARACTER, r::GRAZE_NOT_PIERCE, r::GRAZE_CHOOSE, r::GRAZE_NODES, r::NODE_ADD],
                );
                if (put.len() as i64) < x {
                    e.note("judge's reading: with fewer cards than X in the deck, graze puts what there is; it is not a draw, so it causes no loss");
                }
            } else {
                m.record(
                    "combat.g",
                    format!("graze: {} chooses not to graze", player_name(defender)),
                    &[r::COMBAT_G, r::GRAZE_CHOOSE],
                );
            }
        } else {
            m.record(
                "combat.g",
                format!("graze: {} took {took} combat damage from an opposing character other than pierce; graze value {x}: no graze", player_name(defender)),
                &[r::COMBAT_G, r::GRAZE_FROM_CHARACTER, r::GRAZE_NOT_PIERCE],
            );
        }
    } else {
        m.record(
            "combat.cancelled",
            format!(
                "{attacker} left the field during combat: the attack is cancelled; graze is skipped"
            ),
            &[
                r::ATTACK_CANCELLED,
                r::CANCEL_DURING_COMBAT,
                r::CANCEL_RESET,
                r::CANCEL_DURATIONS,
                r::CANCEL_END_EFFECTS,
            ],
        );
    }
    // h: reset combat damage.
    let mut changed = Vec::new();
    for id in all_characters(&m.game) {
        if let Some(c) = m.game.cards.get_mut(&id)
            && let Some(v) = c.counters.remove(COMBAT_DAMAGE)
            && v != 0
        {
            changed.push((id, v));
        }
    }
    let e = m.record(
        "combat.h",
        "combat damage on characters is reset; effect damage stays until the turn's start or end",
        &[r::COMBAT_H, r::RESET_COMBAT],
    );
    for (id, v) in changed {
        e.change(format!("{id}.combat_damage"), v, 0);
    }
    m.record(
        "combat.i",
        "until-end-of-combat effects end",
        &[r::COMBAT_I],
    );
    m.record("combat.j", "end of combat", &[r::COMBAT_J]);
    fire_all(m, "end_of_combat", r::COMBAT_J)?;
    clear_combat_states(m);
    Ok(())
}

fn clear_combat_states(m: &mut M) {
    for c in m.game.cards.values_mut() {
        c.states.remove(st::ATTACKING);
        c.states.remove(st::BLOCKING);
    }
}

// ---------------------------------------------------------------- run

/// The first keyword in the game the module does not implement, with its
/// clause.
fn unimplemented_keyword(g: &Game) -> Option<(&'static str, String)> {
    for c in g.cards.values() {
        let Some(d) = g.defs.get(&c.def) else {
            continue;
        };
        for k in &d.keywords {
            if IMPLEMENTED.contains(&k.as_str()) || k.starts_with("resistance_") {
                continue;
            }
            let clause = match k.as_str() {
                "equip" => r::EQUIP,
                "charm" => r::CHARM,
                "equip_field" => r::EQUIP_FIELD,
                "first_card" => r::FIRST_CARD,
                "second_card" => r::SECOND_CARD,
                "link" => r::LINK,
                "divine_artifact" => r::DIVINE_ARTIFACT,
                "upkeep" => r::UPKEEP,
                "transform" => r::TRANSFORM,
                "last_spell" => r::LAST_SPELL,
                "sealed_arts" => r::SEALED_ARTS,
                "last_word" => r::LAST_WORD,
                "overdrive" => r::OVERDRIVE,
                _ => r::LEADER,
            };
            return Some((clause, format!("keyword `{k}` on {}", c.id)));
        }
    }
    None
}

/// Runs a PMV scenario.
pub fn run(game: Game, actions: &[Action], derived: &crate::engine::DerivedFn) -> Outcome {
    let mut m: M = Machine::new(game);
    let mut rejections = Vec::new();
    let mut checkpoints = Vec::new();
    let mut error = None;
    if let Some((clause, what)) = unimplemented_keyword(&m.game) {
        error = Some(StopError {
            action: None,
            error: EngineError::NotImplemented { clause, what },
        });
    } else {
        let phase = m.game.turn.phase.clone();
        let i = phase_index(&phase);
        m.then([Step::Phase(i)]);
        if let Err(e) = m.run(step) {
            error = Some(StopError {
                action: None,
                error: e,
            });
        }
    }
    if error.is_none() {
        for (i, a) in actions.iter().enumerate() {
            if m.game.result != GameResult::Ongoing {
                error = Some(StopError {
                    action: Some(i),
                    error: EngineError::GameOver {
                        result: result_word(&m.game.result),
                        action: i,
                    },
                });
                break;
            }
            m.action = Some(i);
            m.choices = Choices::new(a.choices.clone());
            let r = m.atomically(|m| {
                act(m, a)?;
                m.run(step)?;
                m.choices.finish()
            });
            match r {
                Ok(()) => {}
                Err(EngineError::Illegal {
                    rule,
                    message,
                    alternatives,
                }) => {
                    let e = m.record(
                        "rejected",
                        format!(
                            "action {i} ({}) is rejected: {message}; the state is as before it",
                            a.kind
                        ),
                        &[rule],
                    );
                    if !alternatives.is_empty() {
                        e.text
                            .push_str(&format!("; legal instead: {}", alternatives.join(", ")));
                    }
                    rejections.push(Rejection {
                        action: i,
                        rule,
                        message,
                        alternatives,
                    });
                    m.choices = Choices::default();
                }
                Err(e) => {
                    error = Some(StopError {
                        action: Some(i),
                        error: e,
                    });
                    checkpoints.push(snapshot(&m.game, derived));
                    break;
                }
            }
            checkpoints.push(snapshot(&m.game, derived));
        }
    }
    Outcome {
        state: snapshot(&m.game, derived),
        result: result_word(&m.game.result),
        trace: m.trace,
        rejections,
        checkpoints,
        error,
        steps: m.steps,
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

    #[test]
    fn upkeep_without_a_caster_offers_no_ignore() {
        let text = r#"{ "game": "pmv", "name": "t", "source": "test",
            "cards": { "u": { "name": "結界", "type": "spell", "cost": 0, "keywords": ["world_charm", "upkeep"],
                 "stats": { "upkeep": 1 }, "text": { "caster": "霊夢" } } },
            "state": { "turn": { "player": "p1", "phase": "active", "number": 3 },
              "players": { "p1": { "zones": { "deck": { "count": 5 }, "field": [ { "id": "a", "card": "u" } ] } },
                           "p2": { "zones": { "deck": { "count": 5 } } } } },
            "actions": [ { "do": "pass", "player": "p1" },
                         { "do": "pass", "player": "p2", "choices": { "a.upkeep": "ignore" } } ] }"#;
        let loaded = load_str("t.json", text, None).expect("test scenario loads");
        let out = loaded.module.run(loaded.game.clone(), &loaded.actions);
        let err = out.error.expect("stops at the upkeep choice");
        match err.error {
            EngineError::BadChoice {
                choice, options, ..
            } => {
                assert_eq!(choice, "a.upkeep");
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

    #[test]
    fn unimplemented_keywords_map_to_their_clause() {
        let mut g = Game::new(super::super::ZONES, 2, 0);
        g.defs.insert(
            "k".into(),
            crate::engine::CardDef {
                name: "k".into(),
                card_type: "character".into(),
                cost: None,
                attack: None,
                defense: None,
                stats: BTreeMap::new(),
                keywords: vec!["transform".into()],
                traits: vec![],
                text: Default::default(),
                abilities: vec![],
            },
        );
        g.add_card(Card {
            id: "c".into(),
            def: "k".into(),
            owner: 0,
            controller: 0,
            zone: ZoneId::of(0, zn::FIELD),
            states: BTreeSet::new(),
            damage: 0,
            counters: BTreeMap::new(),
            attached_to: None,
            modifiers: vec![],
            token: false,
            incarnation: 0,
        });
        assert_eq!(
            unimplemented_keyword(&g).map(|(c, _)| c),
            Some(r::TRANSFORM)
        );
        for k in IMPLEMENTED {
            assert!(
                super::super::KEYWORDS.contains(k),
                "{k} is not a declared keyword"
            );
        }
    }
}

//! The SVE procedures as steps of the engine's step machine: the turn
//! (7.x), playing cards (8.2, 10.6.2), the attack (8.4), evolving (8.3,
//! 12.2, 5.15), check timing (10.5.2) with every rule process of chapter 11,
//! triggered abilities (10.7), and the effect language.

use std::collections::BTreeSet;

use serde_json::Value;

use super::rules as r;
use crate::engine::{
    Action, Card, CardId, EngineError, Event, Filter, Flow, Game, GameResult, Machine, Pending,
    PlayerId, Rules, Side, Target, Until, Who, ZoneId, card::Effect, player_name, state::Modifier,
    texts,
};

use super::ZONES;

pub use self::attack::STORM_FOLLOWERS_ONLY;
pub use self::condition::COUNTS;
pub use self::delayed::TURN_START_IS_MAIN_PHASE;
pub use self::effects::CHOOSE_N_NEEDS_N;
pub use self::info::FILTER_READS_CHANGED_INFO;
pub use self::layers::SET_DEFENSE_CLEARS_DAMAGE;
pub use self::put::{OVERFLOW_MASTER_CHOOSES, OVERFLOW_RULE_TURN_PLAYER_CHOOSES};
pub use self::replace_order::DAMAGE_ORDER_BY_DEALER;
pub use self::turn::{HAND_LIMIT_BACK_TO_QUICK, PP_EMPTIES_AT_TURN_END};
pub use self::watch::{Departed, LEAVING_WATCHER_MISSES, Together};

/// The judges' readings a scenario may switch to by listing the flag on
/// any player (the engine applies the other reading and says so in a note).
pub const READINGS: &[&str] = &[
    OVERFLOW_MASTER_CHOOSES,
    OVERFLOW_RULE_TURN_PLAYER_CHOOSES,
    STORM_FOLLOWERS_ONLY,
    HAND_LIMIT_BACK_TO_QUICK,
    PP_EMPTIES_AT_TURN_END,
    CHOOSE_N_NEEDS_N,
    SET_DEFENSE_CLEARS_DAMAGE,
    FILTER_READS_CHANGED_INFO,
    LEAVING_WATCHER_MISSES,
    TURN_START_IS_MAIN_PHASE,
    DAMAGE_ORDER_BY_DEALER,
];

/// Whether a scenario chose reading `flag`.
fn reading(g: &Game, flag: &str) -> bool {
    g.reading_on(flag)
}

mod actions;
mod activate;
mod attack;
mod basis;
mod choose_count;
mod cinderella;
mod combat;
mod condition;
mod cost;
mod damage;
mod delayed;
mod die;
mod each_player;
mod earth_rite;
mod effect_play;
mod effects;
mod evolve;
mod feed;
mod for_each;
mod grant;
mod info;
mod last_known;
mod layers;
mod loops;
mod moves;
mod optional;
mod play;
mod put;
mod race;
mod replace_order;
mod restrict;
mod resume;
mod reveal;
mod search;
mod setup;
mod special;
mod state_trigger;
mod swap;
#[cfg(test)]
mod tests;
mod timing;
mod transform;
mod turn;
mod turn_order;
mod watch;
mod x_value;

use self::{
    actions::*, activate::*, attack::*, basis::*, cinderella::*, combat::*, condition::*, cost::*,
    damage::*, delayed::*, die::*, each_player::*, effect_play::*, effects::*, evolve::*, feed::*,
    for_each::*, grant::*, info::*, last_known::*, layers::*, loops::*, moves::*, play::*, put::*,
    race::*, replace_order::*, restrict::*, reveal::*, search::*, setup::*, special::*,
    state_trigger::*, swap::*, timing::*, transform::*, turn::*, turn_order::*, watch::*,
};

/// SVE's own state, carried by the core (`Game::own`).
#[derive(Debug, Clone, Default)]
pub struct SveState {
    /// Evolve abilities used this turn (8.3.2: one per turn).
    pub evolve_used: u32,
    /// Cards each player has played this turn (13.2.1 Combo).
    pub played: Vec<u32>,
    /// Whether each player's leader's defense went down this turn (13.5.2).
    pub defense_lowered: Vec<bool>,
    /// The player whose play being made paid Earth Rite (13.3.3).
    pub earth_rite: Option<PlayerId>,
    /// The X decided for the play being made (5.2.1.2.2, 10.6.2.2.2).
    pub x: Option<i64>,
    /// Whether each player's next turn is to be skipped (5.25.2).
    pub skip_next: Vec<bool>,
    /// Extra turns waiting, the latest last (5.27.1.1).
    pub extra_turns: Vec<PlayerId>,
    /// The player whose turn comes once the extra turns are taken (5.27.1:
    /// they come just before it).
    pub resume: Option<PlayerId>,
    /// What each card was like when it last left a zone (10.11.1).
    pub last_known: std::collections::BTreeMap<CardId, Known>,
    /// The loop check's memory (15.2).
    pub loops: LoopWatch,
    /// Changes of information resolved effects made (10.9.1.2, 10.9.1.3).
    pub info_changes: Vec<InfoChange>,
    /// The game's clock: when effects arose and cards arrived (10.9.1.6).
    pub clock: u64,
    /// When each card was put on the field, with the object it was then
    /// (10.9.1.6.1).
    pub arrivals: std::collections::BTreeMap<CardId, (u32, u64)>,
    /// How many times each "N times per turn" ability (card, the
    /// definition holding it, ability) has become pending this turn
    /// (10.7.2.2: counted per ability, so a given ability, held by a
    /// definition of its own, keeps its own count).
    pub per_turn: std::collections::BTreeMap<(CardId, String, usize), u32>,
    /// Delayed triggers waiting for this turn's end phase (10.7.5).
    pub delayed: Vec<Delayed>,
    /// The state trigger resolving now (10.7.6.1: not pending again before
    /// it has resolved).
    pub state_resolving: Option<(CardId, usize)>,
    /// What the trace last said of the continuous changes of information.
    pub info_report: String,
    /// The basis each player declared for their deck (6.2.1.3).
    pub basis: Vec<Option<String>>,
    /// While cards move together (one effect, one round of rule
    /// processes): the watchers that have left the field so far.
    pub together: Option<Together>,
    /// The number of options of each Choose decided as its ability was
    /// played (5.17.3.1), by `<key>.choose`, until it resolves.
    pub choose_counts: std::collections::BTreeMap<String, (u32, bool)>,
    /// The cemetery counts a resolving card's Necrocharge and Spellchain
    /// read, fixed as its resolution began (13.3.1 item 4, 13.5.1 item
    /// 3.2): the card, then (cards, spells) per player; innermost last.
    pub fixed_counts: Vec<(CardId, Vec<(i64, i64)>)>,
}

impl SveState {
    /// Counts one more card played by `p` this turn.
    pub fn count_play(&mut self, p: PlayerId) {
        if self.played.len() <= p.index() {
            self.played.resize(p.index() + 1, 0);
        }
        self.played[p.index()] += 1;
    }
    /// Notes that `p`'s leader's defense went down this turn.
    pub fn lower_defense(&mut self, p: PlayerId) {
        if self.defense_lowered.len() <= p.index() {
            self.defense_lowered.resize(p.index() + 1, false);
        }
        self.defense_lowered[p.index()] = true;
    }
}

/// Card states the module uses.
pub mod st {
    /// アクト: turned sideways (4.2.2.2).
    pub const ENGAGED: &str = "engaged";
    /// Not mastered continuously since the start of this turn (8.4.2.1).
    pub const ARRIVED: &str = "arrived_this_turn";
    /// Evolved this turn (8.4.2.1 bullet 2).
    pub const EVOLVED: &str = "evolved_this_turn";
    /// Face up (evolve cards already used, 4.6.3).
    pub const FACE_UP: &str = "face_up";
    /// Was in combat with a Bane follower since the last rule processing
    /// (11.3.2).
    pub const BANE_MARKED: &str = "bane_marked";
    /// Has raced (14.2.3 item 1).
    pub const RACED: &str = super::race::RACED;
}

/// Zone names.
pub mod zn {
    pub const LEADER: &str = "leader";
    pub const FIELD: &str = "field";
    pub const DECK: &str = "deck";
    pub const EVOLVE_DECK: &str = "evolve_deck";
    pub const HAND: &str = "hand";
    pub const EX: &str = "ex";
    pub const CEMETERY: &str = "cemetery";
    pub const BANISHED: &str = "banished";
    pub const RESOLUTION: &str = "resolution";
    pub const EVOLUTION: &str = "evolution";
    pub const RACE: &str = "race";
}

/// The empty-deck draw flag (5.9.1.1, read by 11.2.2).
pub const DREW_FROM_EMPTY: &str = "drew_from_empty";

/// Where an attack is aimed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AttackTarget {
    Leader(PlayerId),
    Follower(CardId),
}

/// Which Quick window is open.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Window {
    /// 8.4.7.
    Attack,
    /// 7.4.5.
    End,
}

/// One SVE procedure step.
#[derive(Debug, Clone, PartialEq)]
pub enum Step {
    /// 6.2.1.1-6.2.1.7: decks, first player, opening hands.
    PreGame,
    /// 6.2.1.3: waiting for `player`'s declaration of their deck's basis.
    AwaitBasis {
        player: PlayerId,
    },
    /// 6.2.1.8: waiting for `player`'s mulligan decision.
    AwaitMulligan {
        player: PlayerId,
    },
    /// 6.2.1.9-6.2.1.12: starting values, then turn 1.
    PreGameValues,
    StartMaxPp,
    StartPp,
    StartStand,
    StartDraw,
    /// A check timing, with the clause that makes it happen.
    CheckTiming {
        at: &'static str,
        started: bool,
    },
    MainBegin,
    /// 7.3.3: waiting for the turn player's main-phase action.
    AwaitMain,
    /// 10.6.2.8: resolve a played card.
    Resolve {
        card: CardId,
        player: PlayerId,
        /// Targets per spell ability, per chosen selector.
        targets: Vec<Vec<Vec<String>>>,
    },
    AttackEngage {
        attacker: CardId,
    },
    AttackEvent {
        attacker: CardId,
        target: AttackTarget,
    },
    AwaitQuick {
        window: Window,
    },
    CombatDamage {
        attacker: CardId,
        target: AttackTarget,
        a_inc: u32,
        t_inc: u32,
    },
    AttackEnd {
        attacker: CardId,
    },
    PlayTrigger(Pending),
    EndBegin,
    WardEngage,
    HandLimit,
    EndDurations,
    EndTurn,
}

type M = Machine<Step>;
type R<T> = Result<T, EngineError>;

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

// ---------------------------------------------------------------- queries

/// The definition a card currently uses: while an evolve card is attached,
/// all of the evolve card's information except cost (5.15.2). Returns the
/// definition key.
pub fn eff_def_key(g: &Game, id: &str) -> Option<crate::engine::DefKey> {
    let c = g.card(id)?;
    Some(evolve_card_of(g, id).map_or(&c.def, |e| &e.def).clone())
}

/// The evolve card attached to field card `id`, if any: the most recently
/// attached (last in the evolution area of the card's master). A taken
/// card's evolve card stays in its owner's area (5.21.2).
pub(super) fn evolve_card_of<'g>(g: &'g Game, id: &str) -> Option<&'g Card> {
    let c = g.card(id)?;
    if c.zone.kind != zn::FIELD {
        return None;
    }
    [c.controller, g.opponent(c.controller)]
        .into_iter()
        .find_map(|p| {
            g.zone_of(p, zn::EVOLUTION)
                .iter()
                .rev()
                .filter_map(|e| g.card(e))
                .find(|e| e.attached_to.as_deref() == Some(id))
        })
}

/// The information a card has now: base, then the changes of abilities and
/// non-numeric information (10.9.1.1-10.9.1.3, `info`).
fn eff_def<'g>(g: &'g Game, id: &str) -> Option<std::borrow::Cow<'g, crate::engine::CardDef>> {
    info(g, id)
}

/// Whether the card has keyword `k`: printed (or its evolve card's), or
/// Rush given by racing (14.2.3 item 1).
fn has_kw(g: &Game, id: &str, k: &str) -> bool {
    eff_def(g, id).is_some_and(|d| d.has_keyword(k)) || (k == "rush" && rush_by_race(g, id))
}

fn is_type(g: &Game, id: &str, t: &str) -> bool {
    eff_def(g, id).is_some_and(|d| d.card_type == t)
}

/// Current attack: printed or evolved, then the numeric changes in
/// timestamp order (10.9.1, `layers`).
pub fn attack(g: &Game, c: &Card) -> i64 {
    power(g, c).0
}

/// Current defense: base + modifiers − damage (2.8.2, 5.13.1, 5.15.3).
pub fn defense(g: &Game, c: &Card) -> i64 {
    power(g, c).1 - c.damage
}

fn on_field(g: &Game, id: &str) -> bool {
    g.card(id).is_some_and(|c| c.zone.kind == zn::FIELD)
}

/// The non-event of an effect on a card no longer on the field (1.3.2):
/// records step `step` saying `what` happens instead; returns whether the
/// card is gone.
fn gone_from_field(m: &mut M, step: &str, t: &str, what: &str) -> bool {
    if on_field(&m.game, t) {
        return false;
    }
    m.record(
        step,
        format!("{t} is not on the field: {what}"),
        &[r::IMPOSSIBLE],
    );
    true
}

fn field_followers(g: &Game, p: PlayerId) -> Vec<CardId> {
    g.zone_of(p, zn::FIELD)
        .iter()
        .filter(|id| is_type(g, id, "follower"))
        .cloned()
        .collect()
}

fn limit(g: &Game, zone: &str) -> usize {
    g.zone_spec(zone)
        .and_then(|s| s.limit)
        .unwrap_or(usize::MAX)
}

fn leader_key(p: PlayerId) -> String {
    format!("{}.leader", player_name(p))
}

fn parse_leader(s: &str) -> Option<PlayerId> {
    let p = s.strip_suffix(".leader")?;
    crate::engine::state::parse_player(p, 2)
}

/// 1.3.4.1: steps without choices happen together; listed TP first.
fn who_players(g: &Game, master: PlayerId, who: Who) -> Vec<PlayerId> {
    g.who(master, who)
}

fn side_players(g: &Game, master: PlayerId, side: Side) -> Vec<PlayerId> {
    match side {
        Side::You => vec![master],
        Side::Opponent => vec![g.opponent(master)],
        Side::Any => vec![g.turn.active, g.opponent(g.turn.active)],
    }
}

/// Cards a filter admits, for an ability of `this` mastered by `master`;
/// `choosing`: the cards are chosen (選ぶ), which Aura forbids.
fn candidates(
    g: &Game,
    f: &Filter,
    master: PlayerId,
    this: &str,
    or_leader: bool,
    choosing: bool,
) -> Vec<String> {
    candidates_by(
        g,
        &|id| eff_def(g, id),
        f,
        master,
        this,
        or_leader,
        choosing,
    )
}

/// [`candidates`], reading each card's information with `read`.
fn candidates_by<'a>(
    g: &Game,
    read: &dyn Fn(&str) -> Option<std::borrow::Cow<'a, crate::engine::CardDef>>,
    f: &Filter,
    master: PlayerId,
    this: &str,
    or_leader: bool,
    choosing: bool,
) -> Vec<String> {
    let zone = f.zone.as_deref().unwrap_or(zn::FIELD);
    let mut out = Vec::new();
    for p in side_players(g, master, f.side) {
        for id in g.zone_of(p, zone) {
            let Some(d) = read(id) else { continue };
            if !f.types.is_empty() && !f.types.contains(&d.card_type) {
                continue;
            }
            if let Some(s) = &f.state
                && !g.card(id).is_some_and(|c| c.has(s))
            {
                continue;
            }
            if f.other && id == this {
                continue;
            }
            // 2.3.4: a type named refers to the cards that have it.
            if let Some(w) = &f.special
                && !has_special(g, id, w)
            {
                continue;
            }
            // An evolved follower has the evolve card's characteristics
            // except its cost, which stays its own (5.15.2).
            let own_cost = g.def_of_base(id).and_then(|b| b.cost);
            if !f.admits_characteristics(&d, own_cost) {
                continue;
            }
            // 12.15.2 Aura: not chosen by the opponent's cards or abilities.
            if choosing && p != master && d.has_keyword("aura") {
                continue;
            }
            out.push(id.clone());
        }
        if or_leader {
            out.push(leader_key(p).into());
        }
    }
    texts(&out)
}

// ---------------------------------------------------------------- driver

/// Ability features of the effect language SVE does not implement:
/// conditions of application (also refused at load by `VOCABULARY`) and
/// optional ("may") abilities; the clause the engine would have to apply.
fn unsupported_ability(g: &Game) -> Option<(&'static str, String)> {
    for (k, d) in &g.defs {
        for ab in &d.abilities {
            // Permanent abilities (10.1.1.3) in the effect language: the
            // continuous cost changes of 10.4.4.1 only.
            if ab.trigger == "permanent"
                && let Some(e) = ab.effect.iter().find(|e| {
                    !matches!(
                        e,
                        Effect::ModifyCost { .. }
                            | Effect::SetCost { .. }
                            | Effect::Restrict { .. }
                    ) && !supported_modifier(e)
                        && !supported_permanent(e)
                })
            {
                return Some((
                    r::CONTINUOUS,
                    format!(
                        "the effect `{}` in a permanent ability of `{k}` (permanent abilities implement cost changes, damage modifiers with `this`, `all` or `player`, `change_keywords` / `change_info` with `this` or `all`, and `restrict` attack with `this` or `all`)",
                        e.word()
                    ),
                ));
            }
            if ab.trigger != "permanent"
                && let Some(e) = ab.effect.iter().find(|e| {
                    matches!(
                        e,
                        Effect::ModifyCost { .. }
                            | Effect::SetCost { .. }
                            | Effect::ModifyDamage { .. }
                    )
                })
            {
                return Some((
                    r::COST_CHANGE,
                    format!(
                        "`{}` outside a permanent ability of `{k}` (a cost change created by a resolving effect)",
                        e.word()
                    ),
                ));
            }
            if let Some(found) = delayed::unsupported(k, d) {
                return Some(found);
            }
            if let Some(found) = state_trigger::unsupported(k, ab) {
                return Some(found);
            }
            if let Some(found) = search::unsupported(k, &ab.effect) {
                return Some(found);
            }
            if let Some(found) = die::unsupported(k, &ab.effect) {
                return Some(found);
            }
            if let Some(found) = for_each::unsupported(k, &ab.effect) {
                return Some(found);
            }
            if let Some(found) = grant::unsupported(k, &ab.effect) {
                return Some(found);
            }
            if let Some(found) = restrict::unsupported(k, ab.trigger == "permanent", &ab.effect) {
                return Some(found);
            }
            if let Some(found) = ab.effect.iter().find_map(|e| info::unknown_word(k, e)) {
                return Some(found);
            }
            if let Some(found) = special::unsupported(k, ab) {
                return Some(found);
            }
            if let Some(found) = earth_rite::unsupported(k, ab) {
                return Some(found);
            }
            if let Some(found) = x_value::unsupported(k, ab) {
                return Some(found);
            }
            if let Some(found) = choose_count::unsupported(k, ab) {
                return Some(found);
            }
            if let Some(e) = ab.cost.iter().find(|e| !supported_cost(e)) {
                return Some((
                    r::COST_PAYMENT,
                    format!("the cost action `{}` of an ability of `{k}`", e.word()),
                ));
            }
            // 10.9.3.1: `enters_field` watches other cards; a card's own
            // entering is its Fanfare.
            if ab.trigger == ENTERS_FIELD && ab.of.is_none() {
                return Some((
                    r::CONTINUOUS_ZONE_ENTERING,
                    format!(
                        "an `enters_field` ability of `{k}` without `of` (it watches other cards entering a field; this card's own entering is `fanfare`)"
                    ),
                ));
            }
            // "May" is implemented on automatic abilities, spell text and
            // activated abilities (`optional`).
            if ab.optional && !optional::may_on(&ab.trigger) {
                return Some((
                    r::TRIGGER_MANDATORY,
                    format!(
                        "an optional (\"may\") `{}` ability of `{k}` (\"may\" is implemented on automatic abilities, spell text and activated abilities)",
                        ab.trigger
                    ),
                ));
            }
        }
    }
    None
}

/// Checks a scenario's `state.in_progress` (flow/resume.rs).
pub fn check_in_progress(g: &Game, v: &Value) -> Result<(), String> {
    resume::parse(g, v).map(|_| ())
}

/// The rest of the phase a scenario starts in.
fn phase_start(m: &mut M) {
    match m.game.turn.phase.as_str() {
        "setup" => m.then(pre_game(&m.game)),
        "start" => m.then(start_of_turn()),
        "end" => m.then(end_phase()),
        _ => m.then([Step::AwaitMain]),
    }
}

/// The SVE procedures as the driver's hooks.
impl Rules for super::Sve {
    type Step = Step;

    /// An attack at its Quick window, changes of information in force
    /// (flow/resume.rs).
    fn in_progress(&self, m: &M) -> Option<Value> {
        resume::describe(m)
    }

    /// Card text the module does not implement.
    fn check(&self, g: &Game) -> R<()> {
        if let Some((clause, what)) = unsupported_ability(g) {
            return Err(EngineError::NotImplemented { clause, what });
        }
        // SVE cards print one description: an alternate face has no rule here.
        if let Some(c) = g
            .cards
            .values()
            .find(|c| g.defs.get(&c.def).is_some_and(|d| d.alternate.is_some()))
        {
            return Err(EngineError::NotImplemented {
                clause: r::CARD_INFO,
                what: format!("the alternate face of {} (`alternate`)", c.id),
            });
        }
        Ok(())
    }

    /// The rest of the phase the scenario starts in, or the attack in
    /// progress it describes (`state.in_progress`).
    fn start(&self, m: &mut M) -> R<()> {
        if let Some(v) = m.game.in_progress.clone() {
            let r = resume::parse(&m.game, &v).map_err(bad)?;
            resume::resume(m, r);
            return Ok(());
        }
        phase_start(m);
        Ok(())
    }

    fn step(&self, m: &mut M, s: Step) -> R<Flow> {
        step(m, s)
    }

    /// The turn player, or the non-turn player in a Quick window.
    fn awaited(&self, m: &M) -> Option<PlayerId> {
        m.stack.last().map(|s| awaited(&m.game, s))
    }

    fn act(&self, m: &mut M, a: &Action) -> R<()> {
        act(m, a)
    }

    /// Quick windows the next action does not answer are passed.
    fn settle(&self, m: &mut M, next: Option<&Action>) -> R<()> {
        report(m)?;
        pass_unanswered(m, next)
    }

    fn derived(&self, game: &Game, card: &Card) -> Vec<(&'static str, i64)> {
        let Some(d) = eff_def_key(game, &card.id).and_then(|k| game.defs.get(&k)) else {
            return Vec::new();
        };
        let mut values = d.snapshot_values(
            || attack(game, card),
            || vec![("defense", defense(game, card))],
        );
        // An evolved follower has its evolve card's information *except its
        // cost* (5.15.2, 10.9.1.1.1): the cost stays the card's own.
        let own_cost = game.defs.get(&card.def).and_then(|d| d.cost);
        values.retain(|(k, _)| *k != "cost");
        if let Some(c) = own_cost {
            values.insert(0, ("cost", c));
        }
        values
    }
}

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
};

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

// ---------------------------------------------------------------- queries

/// The definition a card currently uses: while an evolve card is attached,
/// all of the evolve card's information except cost (5.15.2). Returns the
/// definition key.
pub fn eff_def_key(g: &Game, id: &str) -> Option<String> {
    let c = g.card(id)?;
    if c.zone.kind == zn::FIELD {
        // The most recently attached evolve card (last in the evolution
        // area of the card's master).
        let evo = g
            .zone_of(c.controller, zn::EVOLUTION)
            .iter()
            .rev()
            .filter_map(|e| g.card(e))
            .find(|e| e.attached_to.as_deref() == Some(id));
        if let Some(e) = evo {
            return Some(e.def.clone());
        }
    }
    Some(c.def.clone())
}

fn eff_def<'g>(g: &'g Game, id: &str) -> Option<&'g crate::engine::CardDef> {
    eff_def_key(g, id).and_then(|k| g.defs.get(&k))
}

fn has_kw(g: &Game, id: &str, k: &str) -> bool {
    eff_def(g, id).is_some_and(|d| d.has_keyword(k))
}

fn is_type(g: &Game, id: &str, t: &str) -> bool {
    eff_def(g, id).is_some_and(|d| d.card_type == t)
}

/// Current attack (printed or evolved, plus modifiers).
pub fn attack(g: &Game, c: &Card) -> i64 {
    eff_def(g, &c.id).and_then(|d| d.attack).unwrap_or(0) + c.modifier("attack")
}

/// Current defense: base + modifiers − damage (2.8.2, 5.13.1, 5.15.3).
pub fn defense(g: &Game, c: &Card) -> i64 {
    eff_def(g, &c.id).and_then(|d| d.defense).unwrap_or(0) + c.modifier("defense") - c.damage
}

fn on_field(g: &Game, id: &str) -> bool {
    g.card(id).is_some_and(|c| c.zone.kind == zn::FIELD)
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

fn who_players(g: &Game, master: PlayerId, who: Who) -> Vec<PlayerId> {
    match who {
        Who::You => vec![master],
        Who::Opponent => vec![g.opponent(master)],
        // 1.3.4.1: steps without choices happen together; listed TP first.
        Who::Both => {
            let tp = g.turn.active;
            vec![tp, g.opponent(tp)]
        }
    }
}

fn side_players(g: &Game, master: PlayerId, side: Side) -> Vec<PlayerId> {
    match side {
        Side::You => vec![master],
        Side::Opponent => vec![g.opponent(master)],
        Side::Any => vec![g.turn.active, g.opponent(g.turn.active)],
    }
}

/// Cards a filter admits, for an ability of `this` mastered by `master`.
fn candidates(g: &Game, f: &Filter, master: PlayerId, this: &str, or_leader: bool) -> Vec<String> {
    let zone = f.zone.as_deref().unwrap_or(zn::FIELD);
    let mut out = Vec::new();
    for p in side_players(g, master, f.side) {
        for id in g.zone_of(p, zone) {
            let Some(d) = eff_def(g, id) else { continue };
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
            // 12.15.2 Aura: not chosen by the opponent's cards or abilities.
            if p != master && d.has_keyword("aura") {
                continue;
            }
            out.push(id.clone());
        }
        if or_leader {
            out.push(leader_key(p));
        }
    }
    out
}

// ---------------------------------------------------------------- moves

/// Moves a card, collecting zone-change triggers from the right side of the
/// move (10.7.4.1.2: leaving the field uses field information), and erasing
/// tokens outside the zones they may exist in (9.1.4.3).
fn mv(m: &mut M, id: &str, to: ZoneId, top: bool) -> Option<ZoneId> {
    let before_def = eff_def_key(&m.game, id)?;
    let from = m.game.move_card(id, to.clone(), top)?;
    // The move's event is handled here, with the pre-move information.
    m.game.events.pop();
    zone_change_triggers(m, id, &before_def, &from, &to);
    let token = m.game.card(id).is_some_and(|c| c.token);
    if token && ![zn::FIELD, zn::EX, zn::RESOLUTION].contains(&to.kind) {
        m.game.erase(id);
        m.record(
            "token.erase",
            format!("token {id} ceases to exist in {to}"),
            &[r::TOKEN_ZONES, r::TOKEN_ERASED],
        )
        .obj(id);
    }
    Some(from)
}

fn zone_change_triggers(m: &mut M, id: &str, before_def: &str, from: &ZoneId, to: &ZoneId) {
    let new_def = m.game.card(id).map(|c| c.def.clone());
    // 12.4.3 Fanfare: put onto the field from anywhere other than the field.
    // 10.7.4.3: a field-to-field move is not "entering".
    if to.kind == zn::FIELD
        && from.kind != zn::FIELD
        && let (Some(d), Some(p)) = (new_def, to.player)
    {
        add_triggers(m, id, &d, "fanfare", p, 0);
    }
    // 12.5.3 Last Words: from the field into the cemetery, read with the
    // information it had on the field (10.7.4.1.2).
    if from.kind == zn::FIELD
        && to.kind == zn::CEMETERY
        && let Some(p) = from.player
    {
        add_triggers(m, id, before_def, "last_words", p, 0);
    }
}

fn add_triggers(m: &mut M, id: &str, def: &str, trigger: &str, master: PlayerId, amount: i64) {
    let Some(d) = m.game.defs.get(def) else {
        return;
    };
    let idx: Vec<usize> = d
        .abilities
        .iter()
        .enumerate()
        .filter(|(_, a)| a.trigger == trigger)
        .map(|(i, _)| i)
        .collect();
    for ability in idx {
        let p = Pending {
            card: id.to_string(),
            def: def.to_string(),
            ability,
            trigger: trigger.to_string(),
            master,
            amount,
        };
        let rule = match trigger {
            "fanfare" => r::FANFARE,
            "last_words" => r::LAST_WORDS,
            "on_attack" => r::ON_ATTACK,
            "on_evolve" => r::ON_EVOLVE,
            "start_of_main" => r::MAIN_TRIGGER,
            _ => r::END_TRIGGER,
        };
        let key = p.key();
        m.game.pending.push(p);
        m.record(
            "trigger.pending",
            format!(
                "{key} triggers and becomes pending for {}",
                player_name(master)
            ),
            &[rule, r::TRIGGER_PENDING],
        )
        .obj(id);
    }
}

/// Turns events other than zone changes into pending abilities.
fn collect(m: &mut M) {
    let events = std::mem::take(&mut m.game.events);
    for e in events {
        match e {
            Event::Attacked { card } => {
                if let (Some(d), Some(c)) = (eff_def_key(&m.game, &card), m.game.card(&card)) {
                    let p = c.controller;
                    add_triggers(m, &card, &d, "on_attack", p, 0);
                }
            }
            Event::Evolved { card } => {
                if let (Some(d), Some(c)) = (eff_def_key(&m.game, &card), m.game.card(&card)) {
                    let p = c.controller;
                    add_triggers(m, &card, &d, "on_evolve", p, 0);
                }
            }
            Event::Damaged {
                source,
                amount,
                kind: "attack",
                ..
            } if amount > 0 && has_kw(&m.game, &source, "drain") => {
                // 12.13.2 / 12.13.2.1: attack damage dealt as the attacker.
                // 12.13.3: several Drains count as one (one keyword here).
                let master = m.game.card(&source).map(|c| c.controller).unwrap_or(0);
                let def = eff_def_key(&m.game, &source).unwrap_or_default();
                m.game.pending.push(Pending {
                    card: source.clone(),
                    def,
                    ability: usize::MAX,
                    trigger: "drain".into(),
                    master,
                    amount,
                });
                m.record(
                    "trigger.pending",
                    format!("{source}.drain triggers ({amount} attack damage)"),
                    &[r::DRAIN, r::DRAIN_ATTACK_DAMAGE, r::TRIGGER_PENDING],
                )
                .obj(source);
            }
            Event::PhaseBegan { phase, player } => {
                let trigger = if phase == "main" {
                    "start_of_main"
                } else {
                    "start_of_end"
                };
                let ids: Vec<CardId> = m.game.zone_of(player, zn::FIELD).to_vec();
                for id in ids {
                    if let Some(d) = eff_def_key(&m.game, &id) {
                        add_triggers(m, &id, &d, trigger, player, 0);
                    }
                }
            }
            _ => {}
        }
    }
}

fn draw(m: &mut M, p: PlayerId, rule: &'static str) {
    let top = m.game.zone_of(p, zn::DECK).first().cloned();
    match top {
        Some(id) => {
            mv(m, &id, ZoneId::of(p, zn::HAND), false);
            let n = m.game.zone_of(p, zn::HAND).len();
            m.record(
                "draw",
                format!("{} draws {id}", player_name(p)),
                &[rule, r::DRAW],
            )
            .obj(&id)
            .change(format!("{}.hand", player_name(p)), n - 1, n);
        }
        None => {
            m.game.players[p].flags.insert(DREW_FROM_EMPTY.into());
            m.record(
                "draw.empty",
                format!(
                    "{} must draw from an empty deck: they lose at the next rule processing",
                    player_name(p)
                ),
                &[rule, r::DRAW_EMPTY],
            )
            .obj(player_name(p));
        }
    }
}

fn set_value(m: &mut M, p: PlayerId, name: &str, v: i64, step: &str, rules: &[&'static str]) {
    let old = m.game.set_value(p, name, v);
    let key = format!("{}.{name}", player_name(p));
    m.record(step, format!("{key}: {old} → {v}"), rules)
        .obj(player_name(p))
        .change(key, old, v);
}

fn game_over_check(m: &mut M) {
    let lost: Vec<PlayerId> = (0..m.game.players.len())
        .filter(|&p| m.game.players[p].lost)
        .collect();
    if lost.is_empty() {
        return;
    }
    let (result, rule) = if lost.len() == m.game.players.len() {
        (GameResult::Draw, r::DRAW_SIMULTANEOUS)
    } else {
        let w = (0..m.game.players.len())
            .find(|p| !lost.contains(p))
            .unwrap_or(0);
        (GameResult::Win(player_name(w)), r::WIN_LOSS)
    };
    let text = match &result {
        GameResult::Draw => "every player lost at the same time: the game is a draw".to_string(),
        GameResult::Win(w) => format!("{w} wins"),
        GameResult::Ongoing => String::new(),
    };
    m.game.result = result;
    m.record("game.end", text, &[rule]);
}

// ---------------------------------------------------------------- steps

/// Runs one step, then turns new events into pending abilities.
pub fn step(m: &mut M, s: Step) -> R<Flow> {
    let f = run_step(m, s)?;
    collect(m);
    Ok(f)
}

fn run_step(m: &mut M, s: Step) -> R<Flow> {
    let tp = m.game.turn.active;
    match s {
        Step::StartMaxPp => {
            m.game.turn.phase = "start".into();
            let max = m.game.value(tp, "max_pp");
            if max < 10 {
                set_value(
                    m,
                    tp,
                    "max_pp",
                    max + 1,
                    "start_phase.max_pp",
                    &[r::START_MAX_PP],
                );
            } else {
                m.record(
                    "start_phase.max_pp",
                    format!("{}'s max PP is already 10", player_name(tp)),
                    &[r::START_MAX_PP, r::MAX_PP_BOUNDS],
                );
            }
        }
        Step::StartPp => {
            let max = m.game.value(tp, "max_pp");
            set_value(m, tp, "pp", max, "start_phase.pp", &[r::START_PP]);
        }
        Step::StartStand => {
            let ids: Vec<CardId> = m.game.zone_of(tp, zn::FIELD).to_vec();
            let e = m.record(
                "start_phase.stand",
                format!(
                    "{} reserves (stands) every card on their field",
                    player_name(tp)
                ),
                &[r::START_STAND],
            );
            let mut changed = Vec::new();
            for id in &ids {
                e.obj(id.clone());
                changed.push(id.clone());
            }
            for id in changed {
                if let Some(c) = m.game.cards.get_mut(&id)
                    && c.states.remove(st::ENGAGED)
                    && let Some(e) = m.trace.last_mut()
                {
                    e.change(format!("{id}.engaged"), true, false);
                }
            }
        }
        Step::StartDraw => {
            if m.game.turn.number == 1 && tp == m.game.turn.first {
                m.record(
                    "start_phase.draw",
                    format!(
                        "{} goes first and does not draw on their first turn",
                        player_name(tp)
                    ),
                    &[r::START_NO_FIRST_DRAW],
                );
            } else {
                draw(m, tp, r::START_DRAW);
            }
        }
        Step::MainBegin => {
            m.game.turn.phase = "main".into();
            m.game.events.push(Event::PhaseBegan {
                phase: "main".into(),
                player: tp,
            });
            m.record(
                "main_phase.begin",
                format!("{}'s main phase begins", player_name(tp)),
                &[r::MAIN_TRIGGER],
            );
        }
        Step::AwaitMain | Step::AwaitQuick { .. } => {
            m.stack.push(s);
            return Ok(Flow::Await);
        }
        Step::CheckTiming { at, started } => return check_timing(m, at, started),
        Step::Resolve {
            card,
            player,
            targets,
        } => resolve_played(m, &card, player, targets)?,
        Step::AttackEngage { attacker } => {
            if let Some(c) = m.game.cards.get_mut(&attacker) {
                c.states.insert(st::ENGAGED.into());
            }
            m.record(
                "attack.engage",
                format!("{attacker} is engaged"),
                &[r::ATTACK_ENGAGE],
            )
            .obj(&attacker)
            .change(format!("{attacker}.engaged"), false, true);
        }
        Step::AttackEvent { attacker, target } => {
            m.game.events.push(Event::Attacked {
                card: attacker.clone(),
            });
            let (text, rules): (String, &[&'static str]) = match &target {
                AttackTarget::Leader(p) => (
                    format!("{attacker} attacked {}'s leader", player_name(*p)),
                    &[r::ATTACK_EVENT],
                ),
                AttackTarget::Follower(t) => (
                    format!(
                        "{attacker} attacked {t}; they are in combat while both stay on the field"
                    ),
                    &[r::ATTACK_EVENT, r::COMBAT_STATE],
                ),
            };
            m.record("attack.event", text, rules).obj(&attacker);
        }
        Step::CombatDamage {
            attacker,
            target,
            a_inc,
            t_inc,
        } => combat_damage(m, &attacker, &target, a_inc, t_inc),
        Step::AttackEnd { attacker } => {
            m.record(
                "attack.end",
                format!("the attack by {attacker} ends, and so does any combat"),
                &[r::ATTACK_END],
            );
        }
        Step::PlayTrigger(p) => play_trigger(m, p)?,
        Step::EndBegin => {
            m.game.turn.phase = "end".into();
            m.game.events.push(Event::PhaseBegan {
                phase: "end".into(),
                player: tp,
            });
            m.record(
                "end_phase.begin",
                format!("{}'s end phase begins", player_name(tp)),
                &[r::END_TRIGGER],
            );
        }
        Step::WardEngage => {
            let options: Vec<String> = field_followers(&m.game, tp)
                .into_iter()
                .filter(|id| {
                    has_kw(&m.game, id, "ward")
                        && !m.game.card(id).is_some_and(|c| c.has(st::ENGAGED))
                })
                .collect();
            if !options.is_empty() {
                // A "may": not engaging is the default when no choice is given.
                let chosen = m.choices.ids("ward_engage", &options)?.unwrap_or_default();
                let e = m.record(
                    "end_phase.ward",
                    format!(
                        "{} engages {} of their reserved Ward followers",
                        player_name(tp),
                        chosen.len()
                    ),
                    &[r::END_WARD, r::WARD],
                );
                for id in &chosen {
                    e.obj(id.clone())
                        .change(format!("{id}.engaged"), false, true);
                }
                for id in chosen {
                    if let Some(c) = m.game.cards.get_mut(&id) {
                        c.states.insert(st::ENGAGED.into());
                    }
                }
            }
        }
        Step::HandLimit => {
            let hand = m.game.zone_of(tp, zn::HAND).to_vec();
            let lim = limit(&m.game, zn::HAND);
            if hand.len() > lim {
                let excess = hand.len() - lim;
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
                        value: format!("{} cards", chosen.len()),
                        options: vec![format!(
                            "exactly {excess} distinct cards of {}",
                            hand.join(", ")
                        )],
                    });
                }
                m.record(
                    "end_phase.hand_limit",
                    format!("{} discards {excess} card(s) down to the hand limit {lim}", player_name(tp)),
                    &[r::END_HAND_LIMIT, r::HAND_LIMIT],
                )
                .note("7.4.7 says \"back to 7.4.6\"; read literally: 7.4.6 falls through (nothing was played in 7.4.5), so no new Quick window opens after discarding");
                for id in chosen {
                    mv(m, &id, ZoneId::of(tp, zn::CEMETERY), false);
                }
                m.then([
                    Step::CheckTiming {
                        at: r::END_HAND_LIMIT,
                        started: false,
                    },
                    Step::HandLimit,
                ]);
            }
        }
        Step::EndDurations => {
            let mut n = 0;
            for c in m.game.cards.values_mut() {
                let before = c.modifiers.len();
                c.modifiers
                    .retain(|md| !matches!(md.until, Until::EndOfTurn | Until::ThisTurn));
                n += before - c.modifiers.len();
            }
            m.record(
                "end_phase.durations",
                format!("{n} effect(s) lasting until the end of the turn end"),
                &[r::END_DURATIONS],
            );
        }
        Step::EndTurn => {
            let next = m.game.opponent(tp);
            let num = m.game.turn.number;
            m.record(
                "end_phase.end_turn",
                format!(
                    "turn {} ends; {} becomes the turn player",
                    m.game.turn.number,
                    player_name(next)
                ),
                &[r::END_TURN],
            )
            .change("turn", num, num + 1);
            m.game.turn.number += 1;
            m.game.turn.active = next;
            for c in m.game.cards.values_mut() {
                c.states.remove(st::ARRIVED);
                c.states.remove(st::EVOLVED);
            }
            m.game.vars.remove("evolve_used");
            m.then(start_of_turn());
        }
    }
    Ok(Flow::Continue)
}

/// The steps from the start of a turn to the first main-phase decision.
pub fn start_of_turn() -> Vec<Step> {
    vec![
        Step::StartMaxPp,
        Step::StartPp,
        Step::StartStand,
        Step::StartDraw,
        Step::CheckTiming {
            at: r::START_CHECK,
            started: false,
        },
        Step::MainBegin,
        Step::CheckTiming {
            at: r::MAIN_CHECK,
            started: false,
        },
        Step::AwaitMain,
    ]
}

/// The end phase, from 7.4.1.
pub fn end_phase() -> Vec<Step> {
    vec![
        Step::EndBegin,
        Step::CheckTiming {
            at: r::END_CHECK_1,
            started: false,
        },
        Step::WardEngage,
        Step::CheckTiming {
            at: r::END_CHECK_2,
            started: false,
        },
        Step::AwaitQuick {
            window: Window::End,
        },
        Step::HandLimit,
        Step::EndDurations,
        Step::EndTurn,
    ]
}

// ---------------------------------------------------------------- check timing

fn check_timing(m: &mut M, at: &'static str, started: bool) -> R<Flow> {
    if !started {
        m.record(
            "check_timing",
            format!("check timing ({at})"),
            &[at, r::CHECK_TIMING],
        );
    }
    // 10.5.2.1: all applicable rule processes at once, repeated while new
    // ones apply.
    while rule_processes(m)? {
        if m.game.result != GameResult::Ongoing {
            return Ok(Flow::Continue);
        }
    }
    let tp = m.game.turn.active;
    for (p, rule) in [(tp, r::CHECK_TP), (m.game.opponent(tp), r::CHECK_NTP)] {
        let mine: Vec<usize> = (0..m.game.pending.len())
            .filter(|&i| m.game.pending[i].master == p)
            .collect();
        if mine.is_empty() {
            continue;
        }
        let keys: Vec<String> = mine.iter().map(|&i| m.game.pending[i].key()).collect();
        let pick = if mine.len() == 1 {
            mine[0]
        } else {
            // 10.7.3 / 10.7.3.1: the player picks one; the scenario gives the
            // order as a list of `<card>.<trigger>` keys.
            let order = m.choices.take("order");
            let list: Vec<String> = match &order {
                Some(Value::Array(a)) => a
                    .iter()
                    .filter_map(|x| x.as_str().map(String::from))
                    .collect(),
                _ => Vec::new(),
            };
            match list.iter().find_map(|k| keys.iter().position(|x| x == k)) {
                Some(j) => mine[j],
                None => {
                    return Err(EngineError::MissingChoice {
                        choice: "order".into(),
                        options: keys,
                    });
                }
            }
        };
        let p_ab = m.game.pending.remove(pick);
        m.record(
            "check_timing.trigger",
            format!(
                "{} plays pending {} (of {})",
                player_name(p),
                p_ab.key(),
                keys.join(", ")
            ),
            &[rule, r::TRIGGER_PLAY, r::TRIGGER_MANDATORY],
        )
        .obj(p_ab.card.clone());
        m.then([
            Step::PlayTrigger(p_ab),
            Step::CheckTiming { at, started: true },
        ]);
        return Ok(Flow::Continue);
    }
    Ok(Flow::Continue)
}

/// Performs every applicable rule process of chapter 11 at once (11.1.3).
/// Returns whether any applied.
fn rule_processes(m: &mut M) -> R<bool> {
    let g = &m.game;
    let n = g.players.len();
    let mut any = false;
    // 11.2.1 / 11.2.2
    let lose_def: Vec<PlayerId> = (0..n)
        .filter(|&p| !g.players[p].lost && g.value(p, "defense") <= 0)
        .collect();
    let lose_deck: Vec<PlayerId> = (0..n)
        .filter(|&p| g.players[p].flags.contains(DREW_FROM_EMPTY))
        .collect();
    // 11.3.1 / 11.3.2
    let mut destroy: Vec<(CardId, Vec<&'static str>)> = Vec::new();
    for p in 0..n {
        for id in field_followers(g, p) {
            let c = &g.cards[&id];
            let mut why = Vec::new();
            if defense(g, c) <= 0 {
                why.push(r::DESTROY_DEFENSE);
            }
            if c.has(st::BANE_MARKED) {
                why.push(r::DESTROY_BANE);
            }
            if !why.is_empty() {
                destroy.push((id, why));
            }
        }
    }
    // 11.7.1 Stack with no stack counters.
    let mut to_cemetery: Vec<(CardId, &'static str)> = Vec::new();
    for p in 0..n {
        for id in g.zone_of(p, zn::FIELD) {
            if has_kw(g, id, "stack")
                && g.cards[id].counters.get("stack").copied().unwrap_or(0) <= 0
            {
                to_cemetery.push((id.clone(), r::STACK_EMPTY));
            }
        }
    }
    // 11.6.1 / 11.8.1 orphans; 11.6.2 several evolve cards on one card.
    let mut orphans: Vec<(CardId, &'static str)> = Vec::new();
    let mut detach: Vec<CardId> = Vec::new();
    for p in 0..n {
        for (zone, rule) in [
            (zn::EVOLUTION, r::EVOLVE_ORPHAN),
            (zn::RACE, r::RACE_ORPHAN),
        ] {
            for id in g.zone_of(p, zone) {
                let host_ok = g.cards[id]
                    .attached_to
                    .as_deref()
                    .is_some_and(|h| on_field(g, h));
                if !host_ok {
                    orphans.push((id.clone(), rule));
                }
            }
        }
        let evos: Vec<&CardId> = g.zone_of(p, zn::EVOLUTION).iter().collect();
        let mut hosts: std::collections::BTreeMap<String, Vec<CardId>> = Default::default();
        for id in evos {
            if let Some(h) = &g.cards[id].attached_to
                && on_field(g, h)
            {
                hosts.entry(h.clone()).or_default().push(id.clone());
            }
        }
        for (_, list) in hosts {
            if list.len() > 1 {
                // Keep the most recently attached (the last one).
                detach.extend(list[..list.len() - 1].iter().cloned());
            }
        }
    }
    // 11.4.1 / 11.5.1 overflow.
    let mut overflow: Vec<(PlayerId, &'static str, &'static str)> = Vec::new();
    for p in 0..n {
        for (zone, rule) in [(zn::FIELD, r::FIELD_OVERFLOW), (zn::EX, r::EX_OVERFLOW)] {
            if g.zone_of(p, zone).len() > limit(g, zone) {
                overflow.push((p, zone, rule));
            }
        }
    }
    // 11.9.1
    let pp_over: Vec<PlayerId> = (0..n)
        .filter(|&p| g.value(p, "pp") > g.value(p, "max_pp"))
        .collect();

    // Apply everything together (11.1.3).
    if !lose_def.is_empty() || !lose_deck.is_empty() {
        any = true;
        for p in lose_def {
            m.game.players[p].lost = true;
            m.record(
                "rule.defeat",
                format!(
                    "{}'s leader has defense {} ≤ 0: {} loses",
                    player_name(p),
                    m.game.value(p, "defense"),
                    player_name(p)
                ),
                &[
                    r::DEFEAT_DEFENSE,
                    r::LOSS_DEFENSE,
                    r::RULE_PROCESS_SIMULTANEOUS,
                ],
            )
            .obj(player_name(p));
        }
        for p in lose_deck {
            m.game.players[p].flags.remove(DREW_FROM_EMPTY);
            if !m.game.players[p].lost {
                m.game.players[p].lost = true;
                m.record(
                    "rule.defeat",
                    format!(
                        "{} had to draw from an empty deck: {} loses",
                        player_name(p),
                        player_name(p)
                    ),
                    &[r::DEFEAT_DECK, r::LOSS_DECK, r::RULE_PROCESS_SIMULTANEOUS],
                )
                .obj(player_name(p));
            }
        }
        game_over_check(m);
    }
    for (id, why) in destroy {
        any = true;
        let d = m.game.card(&id).map(|c| defense(&m.game, c)).unwrap_or(0);
        let owner = m.game.cards[&id].owner;
        let text = if why.contains(&r::DESTROY_BANE) && why.len() == 1 {
            format!("{id} was in combat with a Bane follower: destroyed")
        } else {
            format!("{id} has defense {d} ≤ 0: destroyed")
        };
        let mut rules = why.clone();
        if why.contains(&r::DESTROY_BANE) {
            rules.push(r::BANE);
        }
        rules.push(r::DESTROY);
        let ctrl = m.game.cards[&id].controller;
        m.record("rule.destroy", text, &rules).obj(&id).change(
            format!("{id}.zone"),
            format!("{}.field", player_name(ctrl)),
            format!("{}.cemetery", player_name(owner)),
        );
        mv(m, &id, ZoneId::of(owner, zn::CEMETERY), false);
    }
    // Bane marks are "since the previous rule processing": clear the rest.
    for c in m.game.cards.values_mut() {
        c.states.remove(st::BANE_MARKED);
    }
    for (id, rule) in to_cemetery {
        if !on_field(&m.game, &id) {
            continue;
        }
        any = true;
        let owner = m.game.cards[&id].owner;
        m.record(
            "rule.stack",
            format!("{id} has no stack counters: put into the cemetery"),
            &[rule],
        )
        .obj(&id);
        mv(m, &id, ZoneId::of(owner, zn::CEMETERY), false);
    }
    for id in detach {
        any = true;
        if let Some(c) = m.game.cards.get_mut(&id) {
            c.attached_to = None;
        }
        m.record(
            "rule.illegal_evolution",
            format!("{id} is detached: only the most recently attached evolve card stays"),
            &[r::EVOLVE_STACKED],
        )
        .obj(&id);
    }
    for (id, rule) in orphans {
        any = true;
        let owner = m.game.cards[&id].owner;
        m.record(
            "rule.orphan",
            format!("{id} is attached to nothing: put face up into the evolve deck area"),
            &[rule],
        )
        .obj(&id);
        mv(m, &id, ZoneId::of(owner, zn::EVOLVE_DECK), false);
        if let Some(c) = m.game.cards.get_mut(&id) {
            c.states.insert(st::FACE_UP.into());
        }
    }
    for (p, zone, rule) in overflow {
        let ids = m.game.zone_of(p, zone).to_vec();
        let lim = limit(&m.game, zone);
        if ids.len() <= lim {
            continue;
        }
        any = true;
        let key = format!("keep.{}.{zone}", player_name(p));
        let keep = m
            .choices
            .ids(&key, &ids)?
            .ok_or_else(|| EngineError::MissingChoice {
                choice: key.clone(),
                options: ids.clone(),
            })?;
        let distinct: BTreeSet<&String> = keep.iter().collect();
        if distinct.len() != lim || keep.len() != lim {
            return Err(EngineError::BadChoice {
                choice: key,
                value: format!("{} cards", keep.len()),
                options: vec![format!(
                    "exactly {lim} distinct cards of {}",
                    ids.join(", ")
                )],
            });
        }
        m.record(
            "rule.overflow",
            format!("{}'s {zone} holds {} cards, over its limit {lim}: {} keeps {}", player_name(p), ids.len(), player_name(p), keep.join(", ")),
            &[rule],
        )
        .note("the rules do not say who chooses the cards to keep; read as the zone's player, by analogy with 4.1.5 and 11.6.2");
        for id in ids.iter().filter(|i| !keep.contains(i)) {
            let owner = m.game.cards[id].owner;
            mv(m, id, ZoneId::of(owner, zn::CEMETERY), false);
        }
    }
    for p in pp_over {
        any = true;
        let max = m.game.value(p, "max_pp");
        set_value(
            m,
            p,
            "pp",
            max,
            "rule.pp_overflow",
            &[r::PP_OVERFLOW, r::PP_MAX_BOUND],
        );
    }
    if any {
        // Record 10.5.2.1 once per pass for the reader.
        m.record(
            "check_timing.rules",
            "rule processes performed; check again",
            &[r::CHECK_RULES, r::RULE_PROCESS_ONLY_AT_CHECK],
        );
    }
    Ok(any)
}

// ---------------------------------------------------------------- combat

fn combat_damage(m: &mut M, attacker: &str, target: &AttackTarget, a_inc: u32, t_inc: u32) {
    let a_here = m
        .game
        .card(attacker)
        .is_some_and(|c| c.zone.kind == zn::FIELD && c.incarnation == a_inc);
    if !a_here {
        m.record(
            "attack.damage",
            format!("{attacker} is no longer on the field: no one deals damage"),
            &[r::COMBAT_DAMAGE],
        );
        return;
    }
    let atk = attack(&m.game, &m.game.cards[attacker]);
    match target {
        AttackTarget::Leader(p) => {
            if atk <= 0 {
                m.record(
                    "attack.damage",
                    format!("{attacker} has attack {atk}: no damage is dealt"),
                    &[r::COMBAT_DAMAGE, r::IMPOSSIBLE],
                );
                return;
            }
            let old = m.game.value(*p, "defense");
            m.game.set_value(*p, "defense", old - atk);
            m.game.events.push(Event::Damaged {
                card: None,
                player: Some(*p),
                source: attacker.to_string(),
                amount: atk,
                kind: "attack",
            });
            m.record(
                "attack.damage",
                format!(
                    "{attacker} deals {atk} damage to {}'s leader",
                    player_name(*p)
                ),
                &[r::COMBAT_DAMAGE, r::DAMAGE],
            )
            .obj(attacker)
            .change(format!("{}.defense", player_name(*p)), old, old - atk);
        }
        AttackTarget::Follower(t) => {
            let in_combat = m
                .game
                .card(t)
                .is_some_and(|c| c.zone.kind == zn::FIELD && c.incarnation == t_inc);
            if !in_combat {
                m.record(
                    "attack.damage",
                    format!("{t} has left the field: the combat ended and {attacker}'s damage is not dealt"),
                    &[r::COMBAT_DAMAGE, r::COMBAT_STATE, r::DAMAGE_NOT_DEALT],
                );
                return;
            }
            let tatk = attack(&m.game, &m.game.cards[t.as_str()]);
            let e = m.record(
                "attack.damage",
                format!("{attacker} deals {} damage to {t} and, at the same time, {t} deals {} damage to {attacker}", atk.max(0), tatk.max(0)),
                &[r::COMBAT_DAMAGE, r::COMBAT_DAMAGE_BACK, r::DAMAGE, r::DAMAGE_NEGATIVE],
            );
            e.obj(attacker).obj(t.clone());
            let mut changes = Vec::new();
            for (victim, amount, src, kind) in [
                (t.as_str(), atk, attacker, "attack"),
                (attacker, tatk, t.as_str(), "combat"),
            ] {
                if amount <= 0 {
                    continue;
                }
                let c = &m.game.cards[victim];
                let before = defense(&m.game, c);
                changes.push((format!("{victim}.defense"), before, before - amount));
                if let Some(c) = m.game.cards.get_mut(victim) {
                    c.damage += amount;
                }
                m.game.events.push(Event::Damaged {
                    card: Some(victim.to_string()),
                    player: None,
                    source: src.to_string(),
                    amount,
                    kind,
                });
            }
            if let Some(e) = m.trace.last_mut() {
                for (w, b, a) in changes {
                    e.change(w, b, a);
                }
            }
            // 8.4.9.2: the fought event; Bane keys off it even with 0 damage
            // (12.14.2.1).
            m.game.events.push(Event::Fought {
                a: attacker.to_string(),
                b: t.clone(),
            });
            let mut marked = Vec::new();
            for (x, y) in [(attacker, t.as_str()), (t.as_str(), attacker)] {
                if has_kw(&m.game, x, "bane") {
                    marked.push(y.to_string());
                }
            }
            let e = m.record(
                "attack.fought",
                format!("{attacker} and {t} fought"),
                &[r::FOUGHT],
            );
            if !marked.is_empty() {
                e.rule(r::BANE);
                e.text.push_str(&format!(
                    "; Bane: {} will be destroyed at the next rule processing",
                    marked.join(", ")
                ));
            }
            for id in marked {
                if let Some(c) = m.game.cards.get_mut(&id) {
                    c.states.insert(st::BANE_MARKED.into());
                }
            }
        }
    }
}

// ---------------------------------------------------------------- abilities

/// Chooses the targets of every `chosen` selector of ability `ability` of
/// definition `def`, from the choice `<key>` (or `<key>#<n>` when the
/// ability has several). 10.6.2.3.
fn choose_targets(
    m: &mut M,
    def: &str,
    ability: usize,
    this: &str,
    master: PlayerId,
    key: &str,
) -> R<Vec<Vec<String>>> {
    let Some(ab) = m
        .game
        .defs
        .get(def)
        .and_then(|d| d.abilities.get(ability))
        .cloned()
    else {
        return Ok(Vec::new());
    };
    let selectors: Vec<(Filter, u32, bool, bool)> = ab
        .effect
        .iter()
        .filter_map(|e| match e.target() {
            Some(Target::Chosen {
                filter,
                count,
                up_to,
                or_leader,
            }) => Some((filter.clone(), *count, *up_to, *or_leader)),
            _ => None,
        })
        .collect();
    let several = selectors.len() > 1;
    let mut out = Vec::new();
    for (i, (f, count, up_to, or_leader)) in selectors.into_iter().enumerate() {
        let k = if several {
            format!("{key}#{}", i + 1)
        } else {
            key.to_string()
        };
        let legal = candidates(&m.game, &f, master, this, or_leader);
        let count = count as usize;
        if !up_to && count >= 1 && legal.is_empty() {
            return Err(illegal(
                r::PLAY_TARGETS_NONE,
                format!("`{k}` needs {count} target(s) and there is no legal target"),
                Vec::new(),
            ));
        }
        let need = count.min(legal.len());
        let given = m.choices.ids(&k, &legal)?;
        let chosen = match given {
            Some(g) => g,
            None if !up_to && legal.len() == need => {
                m.record(
                    "play.targets",
                    format!(
                        "`{k}`: the only legal target(s) {} are chosen",
                        legal.join(", ")
                    ),
                    &[r::PLAY_TARGETS, r::PLAY_TARGETS_MAX],
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
        let distinct: BTreeSet<&String> = chosen.iter().collect();
        let ok = distinct.len() == chosen.len()
            && if up_to {
                chosen.len() <= count
            } else {
                chosen.len() == need
            };
        if !ok {
            return Err(EngineError::BadChoice {
                choice: k,
                value: format!("{} target(s)", chosen.len()),
                options: vec![if up_to {
                    format!("up to {count} of {}", legal.join(", "))
                } else {
                    format!("exactly {need} of {}", legal.join(", "))
                }],
            });
        }
        if need < count && !up_to {
            m.record(
                "play.targets",
                format!("`{k}` asks for {count} targets; only {need} exist, so {need} are chosen"),
                &[r::PLAY_TARGETS_MAX],
            )
            .note("10.6.2.3.1 \"as many as possible\" read with 10.6.2.3.3: playable when at least 1 target exists");
        }
        out.push(chosen);
    }
    Ok(out)
}

fn resolve_targets(
    m: &mut M,
    t: &Target,
    master: PlayerId,
    this: &str,
    chosen: &mut std::vec::IntoIter<Vec<String>>,
) -> Vec<String> {
    match t {
        Target::This => vec![this.to_string()],
        Target::Leader { who } => who_players(&m.game, master, *who)
            .into_iter()
            .map(leader_key)
            .collect(),
        Target::Chosen { .. } => chosen.next().unwrap_or_default(),
        Target::All { filter } => candidates(&m.game, filter, master, this, false),
        Target::Random { filter } => {
            let c = candidates(&m.game, filter, master, this, false);
            if c.is_empty() {
                Vec::new()
            } else {
                let i = m.game.rng.below(c.len() as u64) as usize;
                m.record(
                    "effect.random",
                    format!("{} is chosen at random among {}", c[i], c.join(", ")),
                    &[r::RANDOM],
                )
                .note("random choices come from the scenario's seed");
                vec![c[i].clone()]
            }
        }
    }
}

/// Carries out an ability's effects in printed order (10.6.2.8.2).
fn run_effects(
    m: &mut M,
    def: &str,
    ability: usize,
    this: &str,
    master: PlayerId,
    chosen: Vec<Vec<String>>,
) -> R<()> {
    let Some(ab) = m
        .game
        .defs
        .get(def)
        .and_then(|d| d.abilities.get(ability))
        .cloned()
    else {
        return Ok(());
    };
    let mut chosen = chosen.into_iter();
    for eff in &ab.effect {
        if m.game.result != GameResult::Ongoing {
            break;
        }
        let targets = match eff.target() {
            Some(t) => resolve_targets(m, t, master, this, &mut chosen),
            None => Vec::new(),
        };
        apply_effect(m, eff, &targets, this, master)?;
    }
    Ok(())
}

fn apply_effect(
    m: &mut M,
    eff: &Effect,
    targets: &[String],
    this: &str,
    master: PlayerId,
) -> R<()> {
    match eff {
        Effect::Damage { amount, .. } => {
            for t in targets {
                if *amount <= 0 {
                    m.record(
                        "effect.damage",
                        format!("{amount} damage to {t} is not dealt"),
                        &[r::IMPOSSIBLE],
                    );
                    continue;
                }
                if let Some(p) = parse_leader(t) {
                    let old = m.game.value(p, "defense");
                    m.game.set_value(p, "defense", old - amount);
                    m.game.events.push(Event::Damaged {
                        card: None,
                        player: Some(p),
                        source: this.into(),
                        amount: *amount,
                        kind: "ability",
                    });
                    m.record(
                        "effect.damage",
                        format!(
                            "{this} deals {amount} damage to {}'s leader",
                            player_name(p)
                        ),
                        &[r::DAMAGE],
                    )
                    .change(
                        format!("{}.defense", player_name(p)),
                        old,
                        old - amount,
                    );
                } else if on_field(&m.game, t) && is_type(&m.game, t, "follower") {
                    let before = defense(&m.game, &m.game.cards[t]);
                    if let Some(c) = m.game.cards.get_mut(t) {
                        c.damage += amount;
                    }
                    m.game.events.push(Event::Damaged {
                        card: Some(t.clone()),
                        player: None,
                        source: this.into(),
                        amount: *amount,
                        kind: "ability",
                    });
                    m.record(
                        "effect.damage",
                        format!("{this} deals {amount} damage to {t}"),
                        &[r::DAMAGE, r::DAMAGE_NEGATIVE],
                    )
                    .obj(t.clone())
                    .change(format!("{t}.defense"), before, before - amount);
                } else {
                    m.record(
                        "effect.damage",
                        format!(
                            "{t} is not a follower or leader on the field: the damage is not dealt"
                        ),
                        &[r::DAMAGE_NOT_DEALT],
                    );
                }
            }
        }
        Effect::Destroy { .. } => {
            for t in targets {
                if !on_field(&m.game, t) {
                    m.record(
                        "effect.destroy",
                        format!("{t} is not on the field: nothing happens"),
                        &[r::IMPOSSIBLE],
                    );
                    continue;
                }
                let owner = m.game.cards[t].owner;
                m.record("effect.destroy", format!("{t} is destroyed"), &[r::DESTROY])
                    .obj(t.clone());
                mv(m, t, ZoneId::of(owner, zn::CEMETERY), false);
            }
        }
        Effect::Banish { .. } => {
            for t in targets {
                let Some(c) = m.game.card(t) else { continue };
                let owner = c.owner;
                m.record("effect.banish", format!("{t} is banished"), &[r::BANISH])
                    .obj(t.clone());
                mv(m, t, ZoneId::of(owner, zn::BANISHED), false);
            }
        }
        Effect::ReturnToHand { .. } => {
            for t in targets {
                let Some(c) = m.game.card(t) else { continue };
                let owner = c.owner;
                m.record(
                    "effect.return",
                    format!("{t} returns to its owner's hand as a new object"),
                    &[r::NEW_OBJECT],
                )
                .obj(t.clone());
                mv(m, t, ZoneId::of(owner, zn::HAND), false);
            }
        }
        Effect::Draw { amount, who } => {
            for p in who_players(&m.game, master, *who) {
                for _ in 0..(*amount).max(0) {
                    draw(m, p, r::DRAW);
                }
            }
        }
        Effect::ChangeValue {
            value,
            amount,
            who,
            stays_above,
        } => {
            if stays_above.is_some() {
                // A printed lower limit on a value is not modelled for SVE;
                // only the rules' own bounds (1.3.2.4) are.
                return Err(EngineError::NotImplemented {
                    clause: r::BOUND_CLAMP,
                    what: "`stays_above`: a lower limit printed on an effect".into(),
                });
            }
            for p in who_players(&m.game, master, *who) {
                let old = m.game.value(p, value);
                let (new, rules): (i64, &[&'static str]) = match value.as_str() {
                    "pp" if *amount > 0 => (
                        (old + amount)
                            .min(m.game.value(p, "max_pp"))
                            .max(old.min(m.game.value(p, "max_pp"))),
                        &[r::RECOVER_PP, r::RECOVER_PP_CAP],
                    ),
                    "pp" => ((old + amount).max(0), &[r::PP_BOUNDS, r::BOUND_CLAMP]),
                    "max_pp" => (
                        (old + amount).clamp(0, 10),
                        &[r::MAX_PP_BOUNDS, r::BOUND_CLAMP],
                    ),
                    "ep" => ((old + amount).max(0), &[r::EP, r::BOUND_CLAMP]),
                    _ => (old + amount, &[r::BOUND_CLAMP]),
                };
                set_value(m, p, value, new, "effect.value", rules);
            }
        }
        Effect::NullifyDamage { .. } => {
            // Damage nullification is not modelled for SVE: 5.13.1 always
            // reduces defense.
            return Err(EngineError::NotImplemented {
                clause: r::DAMAGE,
                what: "effects that nullify damage (nullify_damage)".into(),
            });
        }
        Effect::Restrict { .. } => {
            // "Can't" effects and their precedence over instructions
            // (1.3.3) are not modelled for SVE yet.
            return Err(EngineError::NotImplemented {
                clause: r::PROHIBITION_WINS,
                what: "restriction effects (restrict)".into(),
            });
        }
        Effect::Attack { .. } | Effect::Block { .. } | Effect::CancelAttack => {
            return Err(EngineError::NotImplemented {
                clause: r::ATTACK,
                what: "attacks, blocks and cancellations created by effects".into(),
            });
        }
        Effect::PayLife { .. } | Effect::SetValue { .. } | Effect::PayCost { .. } => {
            // Costs demanded while an effect resolves and values set to a
            // number are not modelled for SVE yet.
            return Err(EngineError::NotImplemented {
                clause: r::RESOLUTION_COST,
                what: "effects that pay a cost while resolving or set a player value (pay_life, pay_cost, set_value)".into(),
            });
        }
        Effect::ResetDamage { .. } => {
            // Damage in SVE lowers defense until the end of the turn; an
            // effect that removes it is not modelled.
            return Err(EngineError::NotImplemented {
                clause: r::CONTINUOUS_NUMERIC_ORDER,
                what: "effects that reset damage (reset_damage)".into(),
            });
        }
        Effect::SwapPower { .. } => {
            // Swapping attack and defense is a numeric continuous effect
            // ordered by 10.9.1.4's layer rule, not modelled yet.
            return Err(EngineError::NotImplemented {
                clause: r::CONTINUOUS_NUMERIC_ORDER,
                what: "effects that swap attack and defense (swap_power)".into(),
            });
        }
        Effect::Declare { .. } => {
            // Declarations made while a card is played are not modelled for SVE.
            return Err(EngineError::NotImplemented {
                clause: r::RESOLUTION_COST,
                what: "declarations made while a card is played (declare)".into(),
            });
        }
        Effect::ModifyCost { .. } => {
            // Cost and requirement modifiers of plays are not modelled for SVE.
            return Err(EngineError::NotImplemented {
                clause: r::RESOLUTION_COST,
                what: "effects that modify the cost of playing cards (modify_cost)".into(),
            });
        }
        Effect::TurnFace { .. } | Effect::Become { .. } => {
            // SVE keeps public-zone cards face up (4.2.3.3); turning a card
            // face down on the field is not modelled.
            return Err(EngineError::NotImplemented {
                clause: r::FACE_UP_IN_PUBLIC,
                what:
                    "effects that turn a card over or give it a new description (turn_face, become)"
                        .into(),
            });
        }
        Effect::SetPower { .. } => {
            // Setting a value is a numeric continuous effect whose order
            // against additions is 10.9.1.4's layer rule, not modelled yet.
            return Err(EngineError::NotImplemented {
                clause: r::CONTINUOUS_NUMERIC_ORDER,
                what: "effects that set attack/defense to a value (set_power)".into(),
            });
        }
        Effect::ResolveAsPlayed { .. } => {
            // Resolving a card as if played is a PMV procedure (5.3); SVE's
            // playing rules (8.2) have no such effect modelled.
            return Err(EngineError::NotImplemented {
                clause: r::PLAY_CARD,
                what: "effects that resolve a card as if played (resolve_as_played)".into(),
            });
        }
        Effect::NullifyRemoval { .. } => {
            // SVE has no rule for undoing a destruction once applied.
            return Err(EngineError::NotImplemented {
                clause: r::DESTROY,
                what: "effects that nullify a removal (nullify_removal)".into(),
            });
        }
        Effect::Buff {
            attack: a,
            defense: d,
            until,
            ..
        } => {
            for t in targets {
                if !on_field(&m.game, t) {
                    continue;
                }
                let c = &m.game.cards[t];
                let (ba, bd) = (attack(&m.game, c), defense(&m.game, c));
                if let Some(c) = m.game.cards.get_mut(t) {
                    for (stat, delta) in [("attack", *a), ("defense", *d)] {
                        if delta != 0 {
                            c.modifiers.push(Modifier {
                                stat: stat.into(),
                                delta,
                                set: false,
                                always: false,
                                until: *until,
                                source: this.into(),
                            });
                        }
                    }
                }
                let c = &m.game.cards[t];
                let (na, nd) = (attack(&m.game, c), defense(&m.game, c));
                m.record(
                    "effect.buff",
                    format!("{t} gets {a:+}/{d:+}"),
                    &[r::END_DURATIONS],
                )
                .obj(t.clone())
                .change(format!("{t}.attack"), ba, na)
                .change(format!("{t}.defense"), bd, nd);
            }
        }
        Effect::AddCounter {
            counter, amount, ..
        } => {
            for t in targets {
                let Some(c) = m.game.cards.get_mut(t) else {
                    continue;
                };
                let e = c.counters.entry(counter.clone()).or_default();
                let old = *e;
                *e = (old + amount).max(0);
                let new = *e;
                m.record(
                    "effect.counter",
                    format!("{t}: {counter} counters {old} → {new}"),
                    &[r::BOUND_CLAMP],
                )
                .obj(t.clone())
                .change(format!("{t}.counters.{counter}"), old, new);
            }
        }
        Effect::Summon { card, count, who } => {
            for p in who_players(&m.game, master, *who) {
                for _ in 0..(*count).max(0) {
                    let lim = limit(&m.game, zn::FIELD);
                    if m.game.zone_of(p, zn::FIELD).len() >= lim {
                        m.record(
                            "effect.summon",
                            format!(
                                "{}'s field is full: the token is not created",
                                player_name(p)
                            ),
                            &[r::FIELD_OVER_LIMIT],
                        );
                        continue;
                    }
                    let id = m.game.new_token_id();
                    let zone = ZoneId::of(p, zn::FIELD);
                    m.game.add_card(Card {
                        id: id.clone(),
                        def: card.clone(),
                        owner: p,
                        controller: p,
                        zone: zone.clone(),
                        states: BTreeSet::from([st::ARRIVED.to_string()]),
                        damage: 0,
                        counters: Default::default(),
                        attached_to: None,
                        modifiers: Vec::new(),
                        token: true,
                        incarnation: 0,
                        face: None,
                    });
                    m.record(
                        "effect.summon",
                        format!(
                            "token {id} ({card}) is created on {}'s field",
                            player_name(p)
                        ),
                        &[r::TOKEN_CREATE, r::ENTER_RESERVED],
                    )
                    .obj(&id);
                    zone_change_triggers(m, &id, card, &ZoneId::shared("created"), &zone);
                }
            }
        }
        Effect::SetState { state, clear, .. } => {
            for t in targets {
                let Some(c) = m.game.cards.get_mut(t) else {
                    continue;
                };
                let had = c.states.contains(state);
                if *clear {
                    c.states.remove(state);
                } else {
                    c.states.insert(state.clone());
                }
                let now = !*clear;
                if had == now {
                    m.record(
                        "effect.state",
                        format!(
                            "{t} is already {}{state}: nothing happens",
                            if now { "" } else { "not " }
                        ),
                        &[r::IMPOSSIBLE],
                    );
                } else {
                    m.record(
                        "effect.state",
                        format!("{t}: {state} {had} → {now}"),
                        &[r::IMPOSSIBLE],
                    )
                    .change(format!("{t}.{state}"), had, now);
                }
            }
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
                let rules: &[&'static str] = if n <= 1 {
                    &[r::SHUFFLE, r::SHUFFLE_SMALL]
                } else {
                    &[r::SHUFFLE]
                };
                m.record(
                    "effect.shuffle",
                    format!("{} shuffles their deck ({n} cards)", player_name(p)),
                    rules,
                );
            }
        }
        Effect::Win { who } => {
            let ps = who_players(&m.game, master, *who);
            for p in 0..m.game.players.len() {
                if !ps.contains(&p) {
                    m.game.players[p].lost = true;
                }
            }
            m.record(
                "effect.win",
                format!(
                    "{this}'s effect makes {} win at once",
                    ps.iter()
                        .map(|p| player_name(*p))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
                &[r::EFFECT_WIN_LOSS],
            );
            game_over_check(m);
        }
        Effect::Lose { who } => {
            for p in who_players(&m.game, master, *who) {
                m.game.players[p].lost = true;
            }
            m.record(
                "effect.lose",
                format!("{this}'s effect makes a player lose at once"),
                &[r::EFFECT_WIN_LOSS],
            );
            game_over_check(m);
        }
        Effect::EndTurn
        | Effect::EndPhase
        | Effect::ExtraPhase { .. }
        | Effect::SkipPhase { .. } => {
            // Effects that change the order of the phases of 7.1.2 are
            // not modelled.
            return Err(EngineError::NotImplemented {
                clause: r::PHASES,
                what: "effects that end, add or skip a turn or phase".into(),
            });
        }
    }
    Ok(())
}

fn play_trigger(m: &mut M, p: Pending) -> R<()> {
    if p.trigger == "drain" {
        let old = m.game.value(p.master, "defense");
        set_value(
            m,
            p.master,
            "defense",
            old + p.amount,
            "ability.drain",
            &[r::DRAIN],
        );
        return Ok(());
    }
    let key = p.key();
    let targets = match choose_targets(m, &p.def, p.ability, &p.card, p.master, &key) {
        Ok(t) => t,
        Err(EngineError::Illegal { .. }) => {
            m.record(
                "ability.unplayable",
                format!(
                    "{key} cannot be played (no legal target): one pending instance is removed"
                ),
                &[r::TRIGGER_UNPLAYABLE, r::PLAY_TARGETS_NONE],
            );
            return Ok(());
        }
        Err(e) => return Err(e),
    };
    m.record(
        "ability.resolve",
        format!("{key} resolves"),
        &[r::RESOLVE_TEXT],
    )
    .obj(p.card.clone());
    run_effects(m, &p.def, p.ability, &p.card, p.master, targets)
}

fn resolve_played(
    m: &mut M,
    card: &str,
    player: PlayerId,
    targets: Vec<Vec<Vec<String>>>,
) -> R<()> {
    let Some(def) = m.game.def_of(card).cloned() else {
        return Ok(());
    };
    match def.card_type.as_str() {
        "follower" | "amulet" => {
            if m.game.zone_of(player, zn::FIELD).len() >= limit(&m.game, zn::FIELD) {
                m.record(
                    "play.resolve",
                    format!(
                        "{}'s field is full: {card} does not enter",
                        player_name(player)
                    ),
                    &[r::RESOLVE_PERMANENT, r::FIELD_OVER_LIMIT],
                );
            } else {
                mv(m, card, ZoneId::of(player, zn::FIELD), false);
                let mut engaged = false;
                if def.has_keyword("ward") {
                    // 12.8.2 (a): may enter engaged instead. A "may": default no.
                    let k = format!("{card}.ward_engage");
                    engaged = m
                        .choices
                        .take(&k)
                        .and_then(|v| v.as_bool())
                        .unwrap_or(false);
                }
                if let Some(c) = m.game.cards.get_mut(card) {
                    c.states.insert(st::ARRIVED.into());
                    if engaged {
                        c.states.insert(st::ENGAGED.into());
                    }
                }
                let e = m.record(
                    "play.resolve",
                    format!(
                        "{card} enters {}'s field {}",
                        player_name(player),
                        if engaged {
                            "engaged (Ward)"
                        } else {
                            "reserved"
                        }
                    ),
                    &[r::PLAY_RESOLVE, r::RESOLVE_PERMANENT, r::ENTER_RESERVED],
                );
                e.obj(card).change(
                    format!("{card}.zone"),
                    "resolution",
                    format!("{}.field", player_name(player)),
                );
                if engaged {
                    e.rule(r::WARD);
                }
            }
        }
        _ => {
            m.record(
                "play.resolve",
                format!("{card} resolves"),
                &[r::PLAY_RESOLVE, r::RESOLVE_TEXT],
            )
            .obj(card);
            let idx: Vec<usize> = def
                .abilities
                .iter()
                .enumerate()
                .filter(|(_, a)| a.trigger == "spell")
                .map(|(i, _)| i)
                .collect();
            let mut t = targets.into_iter();
            for i in idx {
                let mine = t.next().unwrap_or_default();
                // One spell ability per `spell` entry; targets were chosen at play.
                run_effects(m, &def_key(m, card), i, card, player, mine)?;
            }
            if m.game
                .card(card)
                .is_some_and(|c| c.zone.kind == zn::RESOLUTION)
            {
                let owner = m.game.cards[card].owner;
                m.record(
                    "play.leftover",
                    format!("{card} goes to its owner's cemetery"),
                    &[r::RESOLVE_LEFTOVER],
                )
                .obj(card);
                mv(m, card, ZoneId::of(owner, zn::CEMETERY), false);
            }
        }
    }
    Ok(())
}

fn def_key(m: &M, card: &str) -> String {
    m.game.card(card).map(|c| c.def.clone()).unwrap_or_default()
}

// ---------------------------------------------------------------- actions

/// Where the engine waits, and for whom.
fn awaited(g: &Game, s: &Step) -> PlayerId {
    match s {
        Step::AwaitQuick { .. } => g.opponent(g.turn.active),
        _ => g.turn.active,
    }
}

fn legal_main(g: &Game) -> Vec<String> {
    let tp = g.turn.active;
    let mut out = Vec::new();
    let pp = g.value(tp, "pp");
    for zone in [zn::HAND, zn::EX] {
        for id in g.zone_of(tp, zone) {
            if let Some(d) = g.def_of(id)
                && ["follower", "amulet", "spell"].contains(&d.card_type.as_str())
                && d.cost.unwrap_or(0).max(0) <= pp
            {
                out.push(format!("play {id}"));
            }
        }
    }
    for id in legal_attackers(g) {
        out.push(format!("attack with {id}"));
    }
    out.push("end_phase".into());
    out
}

fn legal_attackers(g: &Game) -> Vec<String> {
    let tp = g.turn.active;
    field_followers(g, tp)
        .into_iter()
        .filter(|id| {
            let c = &g.cards[id];
            !c.has(st::ENGAGED)
                && (!c.has(st::ARRIVED)
                    || c.has(st::EVOLVED)
                    || has_kw(g, id, "storm")
                    || has_kw(g, id, "rush"))
                && !legal_targets(g, id).0.is_empty()
        })
        .collect()
}

/// Legal attack targets of `attacker` (8.4.3.1 with Ward, Intimidate,
/// Assail, Storm, Rush) and the rule that narrowed them most.
fn legal_targets(g: &Game, attacker: &str) -> (Vec<String>, &'static str) {
    let tp = g.turn.active;
    let ntp = g.opponent(tp);
    let c = &g.cards[attacker];
    let continuous = !c.has(st::ARRIVED);
    let storm = has_kw(g, attacker, "storm");
    let assail = has_kw(g, attacker, "assail");
    // 8.4.3.1 bullet 2; Storm also waives it (judge's reading, see note).
    let mut can_leader = continuous || storm;
    let mut rule = r::TARGET_LEGAL;
    let followers: Vec<String> = field_followers(g, ntp)
        .into_iter()
        .filter(|t| {
            let tc = &g.cards[t];
            (tc.has(st::ENGAGED) || assail) && !has_kw(g, t, "intimidate")
        })
        .collect();
    let ward: Vec<String> = followers
        .iter()
        .filter(|t| has_kw(g, t, "ward") && g.cards[*t].has(st::ENGAGED))
        .cloned()
        .collect();
    let mut out = if ward.is_empty() {
        followers
    } else {
        can_leader = false;
        rule = r::WARD;
        ward
    };
    if can_leader {
        out.push("leader".into());
    }
    (out, rule)
}

/// Applies one scenario action at the current decision.
pub fn act(m: &mut M, a: &Action) -> R<()> {
    let Some(awaiting) = m.stack.pop() else {
        return Err(bad(
            "the engine is not waiting for an action (nothing is left to do)",
        ));
    };
    let waited = awaited(&m.game, &awaiting);
    let player = default_player(&m.game, a, waited);
    if let Some(card) = &a.card
        && let Err(e) = check_from(&m.game, card, a.from.as_deref())
    {
        m.stack.push(awaiting);
        return Err(e);
    }
    if a.kind == "concede" {
        m.stack.push(awaiting);
        m.game.players[player].lost = true;
        m.record(
            "concede",
            format!("{} concedes and loses at once", player_name(player)),
            &[r::CONCEDE, r::CONCEDE_AT_ONCE],
        );
        game_over_check(m);
        return Ok(());
    }
    match awaiting {
        Step::AwaitMain => {
            if player != m.game.turn.active {
                m.stack.push(Step::AwaitMain);
                return Err(illegal(
                    r::MAIN_CHOICE,
                    format!(
                        "it is {}'s main phase: only they act now",
                        player_name(m.game.turn.active)
                    ),
                    legal_main(&m.game),
                ));
            }
            match a.kind.as_str() {
                "play" => {
                    let card = need_card(a)?;
                    // The continuation first: play_card schedules the
                    // resolution on top of it.
                    m.then([
                        Step::CheckTiming {
                            at: r::MAIN_AFTER,
                            started: false,
                        },
                        Step::AwaitMain,
                    ]);
                    play_card(m, player, &card, a.from.as_deref(), None)?;
                }
                "attack" => declare_attack(m, player, &need_card(a)?, a.target.as_deref())?,
                "evolve" => evolve(m, player, &need_card(a)?, a.target.as_deref())?,
                "activate" => {
                    return Err(EngineError::NotImplemented {
                        clause: r::ACTIVATE,
                        what: "activated abilities other than Evolve".into(),
                    });
                }
                "end_phase" => {
                    m.record(
                        "main_phase.end",
                        format!("{} ends the main phase", player_name(player)),
                        &[r::MAIN_CHOICE, r::MAIN_AFTER],
                    );
                    m.then(end_phase());
                }
                other => {
                    m.stack.push(Step::AwaitMain);
                    return Err(illegal(
                        r::MAIN_CHOICE,
                        format!("`{other}` is not a main-phase action"),
                        legal_main(&m.game),
                    ));
                }
            }
        }
        Step::AwaitQuick { window } => {
            let (rule, after) = match window {
                Window::Attack => (r::ATTACK_QUICK, r::ATTACK_QUICK_AFTER),
                Window::End => (r::END_QUICK, r::END_QUICK_AFTER),
            };
            if player != waited {
                // The scenario moves on: the non-turn player did nothing.
                m.record("quick.pass", format!("{} does nothing in the Quick window", player_name(waited)), &[rule])
                    .note("no Quick action is given for this window, so the non-turn player is taken to do nothing");
                m.run(step)?;
                return act_after_pass(m, a);
            }
            match a.kind.as_str() {
                "pass" => {
                    m.record(
                        "quick.pass",
                        format!("{} does nothing in the Quick window", player_name(player)),
                        &[rule],
                    );
                }
                "play" => {
                    let card = need_card(a)?;
                    match window {
                        Window::Attack => m.then([
                            Step::CheckTiming {
                                at: after,
                                started: false,
                            },
                            Step::AwaitQuick { window },
                        ]),
                        Window::End => m.then([
                            Step::CheckTiming {
                                at: after,
                                started: false,
                            },
                            Step::CheckTiming {
                                at: r::END_CHECK_2,
                                started: false,
                            },
                            Step::AwaitQuick { window },
                        ]),
                    }
                    play_card(m, player, &card, a.from.as_deref(), Some(rule))?;
                }
                "activate" => {
                    return Err(EngineError::NotImplemented {
                        clause: r::ACTIVATE,
                        what: "Quick activated abilities".into(),
                    });
                }
                other => {
                    m.stack.push(Step::AwaitQuick { window });
                    let mut alts = quick_options(&m.game, player);
                    alts.push("pass".into());
                    return Err(illegal(
                        rule,
                        format!("`{other}` cannot be done in the Quick window"),
                        alts,
                    ));
                }
            }
        }
        other => {
            m.stack.push(other);
            return Err(bad("the engine is not waiting for a player action here"));
        }
    }
    collect(m);
    Ok(())
}

/// The acting player when the scenario does not name one: the controller
/// of the card acted with; the turn player for turn-player actions; else the
/// player the engine waits for.
fn default_player(g: &Game, a: &Action, waited: PlayerId) -> PlayerId {
    match (a.player, &a.card) {
        (Some(p), _) => p,
        (None, Some(c)) => g.card(c).map(|c| c.controller).unwrap_or(waited),
        (None, None) if ["end_phase", "attack", "evolve"].contains(&a.kind.as_str()) => {
            g.turn.active
        }
        _ => waited,
    }
}

/// Whether `a` answers an open Quick window (otherwise the non-turn player
/// is taken to do nothing there).
fn answers_quick(g: &Game, a: Option<&Action>) -> bool {
    let ntp = g.opponent(g.turn.active);
    match a {
        None => false,
        Some(a) => match a.kind.as_str() {
            "pass" | "concede" => true,
            "play" | "activate" => default_player(g, a, ntp) == ntp,
            _ => false,
        },
    }
}

/// Passes every Quick window the next action does not answer.
fn pass_unanswered(m: &mut M, next: Option<&Action>) -> R<()> {
    while m.game.result == GameResult::Ongoing
        && matches!(m.stack.last(), Some(Step::AwaitQuick { .. }))
        && !answers_quick(&m.game, next)
    {
        let rule = match m.stack.pop() {
            Some(Step::AwaitQuick {
                window: Window::End,
            }) => r::END_QUICK,
            _ => r::ATTACK_QUICK,
        };
        let ntp = m.game.opponent(m.game.turn.active);
        m.record("quick.pass", format!("{} does nothing in the Quick window", player_name(ntp)), &[rule])
            .note("the scenario gives no Quick action for this window, so the non-turn player is taken to do nothing");
        m.run(step)?;
    }
    Ok(())
}

fn act_after_pass(m: &mut M, a: &Action) -> R<()> {
    if m.game.result != GameResult::Ongoing || m.stack.is_empty() {
        return Ok(());
    }
    // The driver recorded the note once; acting again records nothing twice.
    act(m, a)
}

fn quick_options(g: &Game, p: PlayerId) -> Vec<String> {
    let mut out = Vec::new();
    for zone in [zn::HAND, zn::EX] {
        for id in g.zone_of(p, zone) {
            if g.def_of(id).is_some_and(|d| d.has_keyword("quick")) {
                out.push(format!("play {id}"));
            }
        }
    }
    out
}

fn need_card(a: &Action) -> R<String> {
    a.card
        .clone()
        .ok_or_else(|| bad(format!("action `{}` needs a `card`", a.kind)))
}

fn check_from(g: &Game, card: &str, from: Option<&str>) -> R<()> {
    if let Some(f) = from {
        let at = g.card(card).map(|c| c.zone.to_string()).unwrap_or_default();
        let kind = g.card(card).map(|c| c.zone.kind).unwrap_or("");
        if kind != f {
            return Err(bad(format!(
                "the action says `{card}` is in `{f}`, but it is in `{at}`"
            )));
        }
    }
    Ok(())
}

/// 8.2.1 / 10.6.2: play a card from hand or EX area. `quick` = the Quick
/// window's rule when played there.
fn play_card(
    m: &mut M,
    p: PlayerId,
    card: &str,
    from: Option<&str>,
    quick: Option<&'static str>,
) -> R<()> {
    check_from(&m.game, card, from)?;
    let Some(c) = m.game.card(card).cloned() else {
        return Err(bad(format!("no card `{card}`")));
    };
    let alts = |g: &Game| match quick {
        Some(_) => quick_options(g, p),
        None => legal_main(g),
    };
    if c.controller != p || ![zn::HAND, zn::EX].contains(&c.zone.kind) {
        return Err(illegal(
            r::PLAY_CARD,
            format!(
                "{card} is in {}: a card is played from its player's hand or EX area",
                c.zone
            ),
            alts(&m.game),
        ));
    }
    let Some(def) = m.game.def_of(card).cloned() else {
        return Err(bad(format!("`{card}` has no definition")));
    };
    if def.card_type == "unknown" {
        return Err(bad(format!(
            "`{card}` is an anonymous card; give it a definition to play it"
        )));
    }
    if !["follower", "amulet", "spell"].contains(&def.card_type.as_str()) {
        return Err(illegal(
            r::PLAY_CARD,
            format!("{card} is a {}: it cannot be played", def.card_type),
            alts(&m.game),
        ));
    }
    if let Some(rule) = quick
        && !def.has_keyword("quick")
    {
        return Err(illegal(
            rule,
            format!("{card} has no Quick: it cannot be played in this window"),
            alts(&m.game),
        ));
    }
    // 10.6.2.1 specify: reveal and move to the resolution area.
    mv(m, card, ZoneId::shared(zn::RESOLUTION), false);
    m.record(
        "play.specify",
        format!(
            "{} plays {card} ({}) from {}",
            player_name(p),
            def.name,
            c.zone
        ),
        &[r::PLAY_SPECIFY, r::PLAY_CARD],
    )
    .obj(card)
    .change(format!("{card}.zone"), c.zone.to_string(), "resolution");
    // 10.6.2.3 targets of a spell.
    let mut targets = Vec::new();
    if def.card_type == "spell" {
        for (i, ab) in def.abilities.iter().enumerate() {
            if ab.trigger == "spell" {
                let key = format!("{card}.spell");
                let t = choose_targets(m, &c.def, i, card, p, &key)?;
                targets.push(t);
            }
        }
    }
    // 10.6.2.5 cost (a negative cost is paid as 0: 1.3.2.2.1).
    let printed = def.cost.unwrap_or(0);
    let cost = printed.max(0);
    let pp = m.game.value(p, "pp");
    if pp < cost {
        return Err(illegal(
            r::PLAY_COST_UNPAID,
            format!("{card} costs {cost} PP and {} has {pp}", player_name(p)),
            alts(&m.game),
        ));
    }
    let opp_turn = p != m.game.turn.active;
    let e = m.record(
        "play.cost",
        format!("{} pays {cost} PP", player_name(p)),
        &[r::PLAY_COST, r::PP_COST],
    );
    e.change(format!("{}.pp", player_name(p)), pp, pp - cost);
    if printed < 0 {
        e.rule(r::NEGATIVE_AS_ZERO);
    }
    if quick.is_some() && opp_turn {
        e.note("no rule empties PP at the end of a turn, so PP left over is usable in the opponent's turn");
    }
    m.game.set_value(p, "pp", pp - cost);
    // 10.6.2.6 field check.
    if ["follower", "amulet"].contains(&def.card_type.as_str()) {
        let n = m.game.zone_of(p, zn::FIELD).len();
        let lim = limit(&m.game, zn::FIELD);
        if n >= lim {
            return Err(illegal(
                r::PLAY_FIELD_FULL,
                format!(
                    "{}'s field holds {n} cards, its limit is {lim}",
                    player_name(p)
                ),
                alts(&m.game),
            ));
        }
    }
    m.game.events.push(Event::Played {
        card: card.to_string(),
        player: p,
    });
    m.record("play.event", format!("{card} was played"), &[r::PLAY_EVENT]);
    m.then([Step::Resolve {
        card: card.to_string(),
        player: p,
        targets,
    }]);
    Ok(())
}

fn declare_attack(m: &mut M, p: PlayerId, attacker: &str, target: Option<&str>) -> R<()> {
    let g = &m.game;
    let Some(c) = g.card(attacker) else {
        return Err(bad(format!("no card `{attacker}`")));
    };
    let attackers = legal_attackers(g);
    if c.zone != ZoneId::of(p, zn::FIELD) || !is_type(g, attacker, "follower") {
        return Err(illegal(
            r::ATTACKER,
            format!("{attacker} is not a follower on {}'s field", player_name(p)),
            attackers,
        ));
    }
    if c.has(st::ENGAGED) {
        return Err(illegal(
            r::ATTACKER,
            format!("{attacker} is engaged: only a reserved follower can attack"),
            attackers,
        ));
    }
    let continuous = !c.has(st::ARRIVED);
    let storm = has_kw(g, attacker, "storm");
    let rush = has_kw(g, attacker, "rush");
    let evolved = c.has(st::EVOLVED);
    if !(continuous || evolved || storm || rush) {
        return Err(illegal(
            r::ATTACKER_LEGAL,
            format!(
                "{attacker} has not been on {}'s field since the start of the turn (no Storm or Rush, not evolved this turn)",
                player_name(p)
            ),
            attackers,
        ));
    }
    let (legal, rule) = legal_targets(g, attacker);
    if legal.is_empty() {
        return Err(illegal(
            r::TARGET_NONE,
            format!("{attacker} has no legal attack target"),
            attackers,
        ));
    }
    let Some(t) = target else {
        return Err(EngineError::MissingChoice {
            choice: "target".into(),
            options: legal,
        });
    };
    if !legal.iter().any(|x| x == t) {
        let why = if t == "leader" && !continuous && !storm {
            (
                if rush { r::RUSH } else { r::TARGET_LEGAL },
                format!("{attacker} entered this turn: it can attack only engaged followers"),
            )
        } else if g
            .card(t)
            .is_some_and(|tc| has_kw(g, t, "intimidate") && tc.controller != p)
        {
            (
                r::INTIMIDATE,
                format!("{t} has Intimidate: it cannot be chosen as an attack target"),
            )
        } else if rule == r::WARD {
            (
                r::WARD,
                format!(
                    "an engaged Ward follower must be chosen if possible ({})",
                    legal.join(", ")
                ),
            )
        } else if g.card(t).is_some_and(|tc| !tc.has(st::ENGAGED)) {
            (
                r::TARGET_LEGAL,
                format!("{t} is reserved: only engaged followers can be attacked"),
            )
        } else {
            (
                r::TARGET_LEGAL,
                format!("`{t}` is not a legal attack target"),
            )
        };
        return Err(illegal(why.0, why.1, legal));
    }
    let ntp = g.opponent(p);
    let (tgt, t_inc) = if t == "leader" {
        (AttackTarget::Leader(ntp), 0)
    } else {
        (
            AttackTarget::Follower(t.to_string()),
            g.cards[t].incarnation,
        )
    };
    let a_inc = c.incarnation;
    let e = m.record(
        "attack.declare",
        format!(
            "{} attacks {} with {attacker}",
            player_name(p),
            if t == "leader" {
                format!("{}'s leader", player_name(ntp))
            } else {
                t.to_string()
            }
        ),
        &[
            r::ATTACK,
            r::ATTACKER,
            r::ATTACKER_LEGAL,
            r::TARGET,
            r::TARGET_LEGAL,
        ],
    );
    e.obj(attacker);
    if !continuous {
        if storm {
            e.rule(r::STORM);
            if t == "leader" {
                e.note("8.4.3.1 allows the leader only for a follower mastered since the start of the turn; Storm (12.9.1 \"can attack at once\") is read as waiving that too, otherwise it would equal Rush");
            }
        } else if rush {
            e.rule(r::RUSH);
        }
    }
    if rule == r::WARD {
        e.rule(r::WARD);
    }
    m.then([
        Step::AttackEngage {
            attacker: attacker.to_string(),
        },
        Step::AttackEvent {
            attacker: attacker.to_string(),
            target: tgt.clone(),
        },
        Step::CheckTiming {
            at: r::ATTACK_CHECK_1,
            started: false,
        },
        Step::AwaitQuick {
            window: Window::Attack,
        },
        Step::CombatDamage {
            attacker: attacker.to_string(),
            target: tgt,
            a_inc,
            t_inc,
        },
        Step::CheckTiming {
            at: r::ATTACK_CHECK_2,
            started: false,
        },
        Step::AttackEnd {
            attacker: attacker.to_string(),
        },
        Step::CheckTiming {
            at: r::MAIN_AFTER,
            started: false,
        },
        Step::AwaitMain,
    ]);
    Ok(())
}

/// 8.3 / 12.2 / 5.15: evolve `card` using evolve card `evo` from the evolve
/// deck area.
fn evolve(m: &mut M, p: PlayerId, card: &str, evo: Option<&str>) -> R<()> {
    let g = &m.game;
    if g.card(card)
        .is_none_or(|c| c.zone != ZoneId::of(p, zn::FIELD))
    {
        return Err(illegal(
            r::ACTIVATE,
            format!("{card} is not on {}'s field", player_name(p)),
            legal_main(g),
        ));
    }
    if g.vars.get("evolve_used").copied().unwrap_or(0) > 0 {
        return Err(illegal(
            r::EVOLVE_ONCE,
            "an Evolve ability has already been used this turn",
            legal_main(g),
        ));
    }
    let name = eff_def(g, card).map(|d| d.name.clone()).unwrap_or_default();
    let options: Vec<String> = g
        .zone_of(p, zn::EVOLVE_DECK)
        .iter()
        .filter(|e| !g.cards[*e].has(st::FACE_UP) && g.def_of(e).is_some_and(|d| d.name == name))
        .cloned()
        .collect();
    let Some(e) = evo else {
        return Err(EngineError::MissingChoice {
            choice: "target (the evolve card)".into(),
            options,
        });
    };
    if !options.iter().any(|x| x == e) {
        return Err(illegal(
            r::EVOLVE_ABILITY,
            format!(
                "`{e}` is not a face-down card named {name} in {}'s evolve deck area",
                player_name(p)
            ),
            options,
        ));
    }
    let cost = g
        .def_of(e)
        .and_then(|d| d.stats.get("evolve_cost").copied())
        .unwrap_or(0)
        .max(0);
    let pp = g.value(p, "pp");
    let ep = g.value(p, "ep");
    let use_ep = if ep > 0 && cost > 0 {
        match m.choices.take("use_ep") {
            Some(Value::Bool(b)) => b,
            Some(v) => {
                return Err(EngineError::BadChoice {
                    choice: "use_ep".into(),
                    value: v.to_string(),
                    options: vec!["true".into(), "false".into()],
                });
            }
            None => {
                return Err(EngineError::MissingChoice {
                    choice: "use_ep".into(),
                    options: vec!["true".into(), "false".into()],
                });
            }
        }
    } else {
        false
    };
    let pp_cost = if use_ep { cost - 1 } else { cost };
    if pp < pp_cost {
        return Err(illegal(
            r::PLAY_COST_UNPAID,
            format!(
                "evolving costs {pp_cost} PP and {} has {pp}",
                player_name(p)
            ),
            legal_main(g),
        ));
    }
    m.game.set_value(p, "pp", pp - pp_cost);
    let rec = m.record(
        "evolve.cost",
        format!(
            "{} reveals {e} and pays {pp_cost} PP{}",
            player_name(p),
            if use_ep { " and 1 EP" } else { "" }
        ),
        &[r::ACTIVATE, r::EVOLVE_ONCE, r::EVOLVE_ABILITY, r::PP_COST],
    );
    rec.change(format!("{}.pp", player_name(p)), pp, pp - pp_cost);
    if use_ep {
        rec.rule(r::EVOLVE_EP);
        rec.change(format!("{}.ep", player_name(p)), ep, ep - 1);
        m.game.set_value(p, "ep", ep - 1);
    }
    *m.game.vars.entry("evolve_used".into()).or_default() += 1;
    let before = m
        .game
        .cards
        .get(card)
        .map(|c| (attack(&m.game, c), defense(&m.game, c)))
        .unwrap_or((0, 0));
    mv(m, e, ZoneId::of(p, zn::EVOLUTION), false);
    if let Some(ec) = m.game.cards.get_mut(e) {
        ec.attached_to = Some(card.to_string());
        ec.states.insert(st::FACE_UP.into());
    }
    if let Some(c) = m.game.cards.get_mut(card) {
        c.states.insert(st::EVOLVED.into());
    }
    let after = m
        .game
        .cards
        .get(card)
        .map(|c| (attack(&m.game, c), defense(&m.game, c)))
        .unwrap_or((0, 0));
    m.game.events.push(Event::Evolved {
        card: card.to_string(),
    });
    m.record(
        "evolve",
        format!("{card} evolves into {e}: same object, damage kept, orientation kept"),
        &[r::EVOLVE, r::EVOLVE_INFO, r::EVOLVE_SAME_OBJECT],
    )
    .obj(card)
    .change(format!("{card}.attack"), before.0, after.0)
    .change(format!("{card}.defense"), before.1, after.1);
    m.then([
        Step::CheckTiming {
            at: r::MAIN_AFTER,
            started: false,
        },
        Step::AwaitMain,
    ]);
    Ok(())
}

// ---------------------------------------------------------------- driver

/// Ability features of the effect language SVE does not implement:
/// conditions of application, optional ("may") abilities and durations
/// tied to a chain; the clause the engine would have to apply.
fn unsupported_ability(g: &Game) -> Option<(&'static str, String)> {
    for (k, d) in &g.defs {
        for ab in &d.abilities {
            // Text in effect only under a condition (10.3.3) is not
            // modelled for SVE.
            if ab.condition.is_some() {
                return Some((
                    r::CONDITIONAL_TEXT,
                    format!("a condition of application on an ability of `{k}`"),
                ));
            }
            if ab.optional {
                return Some((
                    r::TRIGGER_MANDATORY,
                    format!("an optional ability of `{k}`"),
                ));
            }
            let chain = ab.effect.iter().any(|e| {
                matches!(
                    e,
                    Effect::Buff {
                        until: Until::ThisInterference,
                        ..
                    } | Effect::SetPower {
                        until: Until::ThisInterference,
                        ..
                    }
                )
            });
            if chain {
                return Some((
                    r::END_DURATIONS,
                    format!("a `this_interference` duration on an ability of `{k}`"),
                ));
            }
        }
    }
    None
}

/// The SVE procedures as the driver's hooks.
impl Rules for super::Sve {
    type Step = Step;

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

    /// The rest of the phase the scenario starts in.
    fn start(&self, m: &mut M) -> R<()> {
        match m.game.turn.phase.as_str() {
            "start" => m.then(start_of_turn()),
            "end" => m.then(end_phase()),
            _ => m.then([Step::AwaitMain]),
        }
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
        pass_unanswered(m, next)
    }

    fn derived(&self, game: &Game, card: &Card) -> Vec<(&'static str, i64)> {
        let Some(d) = eff_def_key(game, &card.id).and_then(|k| game.defs.get(&k)) else {
            return Vec::new();
        };
        d.snapshot_values(
            || attack(game, card),
            || vec![("defense", defense(game, card))],
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::CardDef;

    fn def(name: &str, atk: i64, dfn: i64, kw: &[&str]) -> CardDef {
        CardDef {
            name: name.into(),
            card_type: "follower".into(),
            cost: Some(1),
            attack: Some(atk),
            defense: Some(dfn),
            stats: Default::default(),
            keywords: kw.iter().map(|s| s.to_string()).collect(),
            traits: vec![],
            text: Default::default(),
            abilities: vec![],
            alternate: None,
        }
    }

    fn card(id: &str, d: &str, p: PlayerId, zone: &'static str, states: &[&str]) -> Card {
        Card {
            id: id.into(),
            def: d.into(),
            owner: p,
            controller: p,
            zone: ZoneId::of(p, zone),
            states: states.iter().map(|s| s.to_string()).collect(),
            damage: 0,
            counters: Default::default(),
            attached_to: None,
            modifiers: vec![],
            token: false,
            incarnation: 0,
            face: None,
        }
    }

    fn game() -> Game {
        let mut g = Game::new(super::super::ZONES, 2, 0);
        for (k, d) in [
            ("plain", def("Plain", 2, 2, &[])),
            ("ward", def("Wall", 1, 4, &["ward"])),
            ("intim", def("Brute", 2, 2, &["intimidate"])),
            ("storm", def("Rider", 3, 1, &["storm"])),
            ("assail", def("Lancer", 3, 3, &["assail"])),
            ("evo", def("Plain", 4, 4, &[])),
        ] {
            g.defs.insert(k.into(), d);
        }
        g
    }

    #[test]
    fn only_engaged_followers_and_the_leader_are_targets() {
        let mut g = game();
        g.add_card(card("a", "plain", 0, zn::FIELD, &[]));
        g.add_card(card("r", "plain", 1, zn::FIELD, &[]));
        g.add_card(card("e", "plain", 1, zn::FIELD, &[st::ENGAGED]));
        g.add_card(card("i", "intim", 1, zn::FIELD, &[st::ENGAGED]));
        assert_eq!(
            legal_targets(&g, "a").0,
            vec!["e".to_string(), "leader".into()]
        );
    }

    #[test]
    fn engaged_ward_narrows_targets_and_reserved_ward_does_not() {
        let mut g = game();
        g.add_card(card("a", "plain", 0, zn::FIELD, &[]));
        g.add_card(card("e", "plain", 1, zn::FIELD, &[st::ENGAGED]));
        g.add_card(card("w", "ward", 1, zn::FIELD, &[]));
        assert_eq!(
            legal_targets(&g, "a").0,
            vec!["e".to_string(), "leader".into()]
        );
        g.cards
            .get_mut("w")
            .unwrap()
            .states
            .insert(st::ENGAGED.into());
        let (t, rule) = legal_targets(&g, "a");
        assert_eq!(t, vec!["w".to_string()]);
        assert_eq!(rule, r::WARD);
    }

    #[test]
    fn storm_reaches_the_leader_and_assail_reserved_followers() {
        let mut g = game();
        g.add_card(card("s", "storm", 0, zn::FIELD, &[st::ARRIVED]));
        g.add_card(card("l", "assail", 0, zn::FIELD, &[]));
        g.add_card(card("r", "plain", 1, zn::FIELD, &[]));
        assert_eq!(legal_targets(&g, "s").0, vec!["leader".to_string()]);
        assert_eq!(
            legal_targets(&g, "l").0,
            vec!["r".to_string(), "leader".into()]
        );
        // An arrival without Storm, Rush or evolution is no legal attacker.
        g.add_card(card("n", "plain", 0, zn::FIELD, &[st::ARRIVED]));
        assert!(!legal_attackers(&g).contains(&"n".to_string()));
    }

    #[test]
    fn an_attached_evolve_card_supplies_the_characteristics() {
        let mut g = game();
        g.add_card(card("w", "plain", 0, zn::FIELD, &[]));
        let mut e = card("e", "evo", 0, zn::EVOLUTION, &[]);
        e.attached_to = Some("w".into());
        g.add_card(e);
        g.cards.get_mut("w").unwrap().damage = 1;
        let w = g.card("w").unwrap().clone();
        assert_eq!(eff_def_key(&g, "w").as_deref(), Some("evo"));
        assert_eq!(attack(&g, &w), 4);
        assert_eq!(
            defense(&g, &w),
            3,
            "damage taken stays after evolving (5.15.3)"
        );
    }

    #[test]
    fn turning_a_card_over_is_not_implemented() {
        let text = r#"{ "game": "sve", "name": "t", "source": "test",
            "cards": { "s": { "name": "S", "type": "spell", "cost": 0,
                "abilities": [ { "trigger": "spell", "effect": [ { "do": "turn_face", "up": false,
                  "target": { "select": "all", "side": "opponent" } } ] } ] } },
            "state": { "turn": { "player": "p1", "phase": "main", "number": 3 },
              "players": { "p1": { "zones": { "hand": [ { "id": "x", "card": "s" } ] } }, "p2": {} } },
            "actions": [ { "do": "play", "card": "x" } ] }"#;
        let loaded = crate::scenario::load_str("t.json", text, None).expect("loads");
        let out = loaded.module.run(loaded.game.clone(), &loaded.actions);
        assert!(matches!(
            out.error.map(|e| e.error),
            Some(EngineError::NotImplemented { clause, .. }) if clause == r::FACE_UP_IN_PUBLIC
        ));
    }

    #[test]
    fn an_alternate_face_is_not_implemented() {
        let text = r#"{ "game": "sve", "name": "t", "source": "test",
            "cards": { "f": { "name": "F", "type": "follower", "cost": 1, "attack": 1, "defense": 1,
                "alternate": { "name": "G", "attack": 2, "defense": 2 } } },
            "state": { "turn": { "player": "p1", "phase": "main", "number": 3 },
              "players": { "p1": { "zones": { "field": [ "f" ] } }, "p2": {} } },
            "actions": [] }"#;
        let loaded = crate::scenario::load_str("t.json", text, None).expect("loads");
        let out = loaded.module.run(loaded.game.clone(), &loaded.actions);
        assert!(matches!(
            out.error.map(|e| e.error),
            Some(EngineError::NotImplemented { clause, .. }) if clause == r::CARD_INFO
        ));
    }
}

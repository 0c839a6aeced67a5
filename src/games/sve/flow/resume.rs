//! Starting a scenario inside an attack, at its Quick window (8.4.7),
//! instead of at the beginning of the phase (`state.in_progress`, written
//! by `judge run --dump-at`): the attacker and what it attacks; combat
//! damage (8.4.9), the check timing (8.4.10) and the end of the attack
//! (8.4.11) follow as they would have. With or without one, the changes
//! of information resolved effects made that are still in force (10.9.1.2,
//! 10.9.1.3: abilities given or taken, `change_keywords`, `change_info`,
//! `gain_ability`), each card's made again as the run starts, later than
//! every card on the board.

use serde::{Deserialize, Serialize};

use super::*;

/// The scenario's description of an attack in progress.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct Resume {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    combat: Option<Combat>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    changes: Vec<Change>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    delayed: Vec<Waiting>,
    #[serde(default, skip_serializing_if = "Counts::is_empty")]
    counts: Counts,
    #[serde(default, skip_serializing_if = "TurnOrder::is_empty")]
    turns: TurnOrder,
}

/// Skipped and extra turns waiting (5.25, 5.27).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct TurnOrder {
    /// Whether each seat's next turn is to be skipped (5.25.2).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    skip_next: Vec<bool>,
    /// Extra turns waiting, the latest last (5.27.1.1).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    extra_turns: Vec<PlayerId>,
    /// The seat whose turn comes once the extra turns are taken (5.27.1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    resume: Option<PlayerId>,
}

impl TurnOrder {
    fn is_empty(&self) -> bool {
        *self == TurnOrder::default()
    }

    /// The turn order bookkeeping of `g`.
    fn of(g: &Game) -> TurnOrder {
        let Some(st) = g.own_ref::<SveState>() else {
            return TurnOrder::default();
        };
        TurnOrder {
            skip_next: if st.skip_next.iter().any(|b| *b) {
                st.skip_next.clone()
            } else {
                Vec::new()
            },
            extra_turns: st.extra_turns.clone(),
            resume: st.resume,
        }
    }

    /// Checked against the seats of `g`.
    fn check(&self, g: &Game) -> Result<(), String> {
        let seats = g.players.len();
        let bad = self.skip_next.len() > seats
            || self
                .extra_turns
                .iter()
                .chain(self.resume.iter())
                .any(|p| p.index() >= seats);
        if bad {
            return Err(format!("`turns` names more than the {seats} seats"));
        }
        Ok(())
    }

    /// Sets the turn order bookkeeping of `g`.
    fn restore(self, g: &mut Game) {
        let st = g.own::<SveState>();
        st.skip_next = self.skip_next;
        st.extra_turns = self.extra_turns;
        st.resume = self.resume;
    }
}

/// What this turn has counted so far.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Counts {
    /// Evolve and Feed abilities used this turn (8.3.2).
    #[serde(default, skip_serializing_if = "is_zero")]
    evolve_used: u32,
    /// Cards each seat has played this turn (13.2.1 Combo).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    played: Vec<u32>,
    /// Whether each seat's leader's defense went down this turn (13.5.2).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    defense_lowered: Vec<bool>,
    /// "N times per turn" abilities that have become pending (10.7.2.2).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    per_turn: Vec<PerTurn>,
}

/// How many times one "N times per turn" ability has become pending.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct PerTurn {
    card: String,
    def: String,
    ability: usize,
    times: u32,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

impl Counts {
    fn is_empty(&self) -> bool {
        *self == Counts::default()
    }

    /// This turn's counts of `g`.
    fn of(g: &Game) -> Counts {
        let Some(st) = g.own_ref::<SveState>() else {
            return Counts::default();
        };
        let mut c = Counts {
            evolve_used: st.evolve_used,
            played: st.played.clone(),
            defense_lowered: st.defense_lowered.clone(),
            per_turn: st
                .per_turn
                .iter()
                .map(|((card, def, ability), times)| PerTurn {
                    card: card.to_string(),
                    def: def.clone(),
                    ability: *ability,
                    times: *times,
                })
                .collect(),
        };
        if c.played.iter().all(|n| *n == 0) {
            c.played.clear();
        }
        if c.defense_lowered.iter().all(|b| !b) {
            c.defense_lowered.clear();
        }
        c
    }

    /// Checked against the board of `g` and the definitions `given` of
    /// the abilities the written changes give.
    fn check(&self, g: &Game, given: &[String]) -> Result<(), String> {
        let seats = g.players.len();
        if self.played.len() > seats || self.defense_lowered.len() > seats {
            return Err(format!("`counts` lists more than the {seats} seats"));
        }
        match self.per_turn.iter().find(|p| {
            g.card(&p.card).is_none()
                || (!given.contains(&p.def)
                    && g.ability(&p.def, p.ability)
                        .is_none_or(|a| a.per_turn.is_none()))
        }) {
            Some(p) => Err(format!(
                "`counts.per_turn` names ability {} of `{}` on `{}`: no card, or no \"N times per turn\" ability",
                p.ability, p.def, p.card
            )),
            None => Ok(()),
        }
    }

    /// Sets this turn's counts of `g`.
    fn restore(self, g: &mut Game) {
        let st = g.own::<SveState>();
        st.evolve_used = self.evolve_used;
        st.played = self.played;
        st.defense_lowered = self.defense_lowered;
        st.per_turn = self
            .per_turn
            .into_iter()
            .map(|p| ((p.card.as_str().into(), p.def, p.ability), p.times))
            .collect();
    }
}

/// A delayed trigger waiting for its moment (10.7.5).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Waiting {
    /// The card whose ability created it.
    card: String,
    /// The definition it is read from, and its index there.
    def: String,
    ability: usize,
    /// The master of the ability that created it.
    master: PlayerId,
    /// The turn it was created in.
    turn: u32,
}

/// A change of information in force (10.9.1.2, 10.9.1.3).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Change {
    /// The card changed.
    card: String,
    /// The effect that changed it (its `until` is when the change ends).
    effect: Effect,
    /// The card whose ability made it.
    source: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Combat {
    /// The attacking follower.
    attacker: String,
    /// `leader` (the non-turn player's) or the attacked follower.
    target: String,
    /// The step the attack stands at: `quick`, the Quick window (8.4.7).
    step: String,
}

/// The only step an attack is described at: its Quick window.
const QUICK: &str = "quick";

/// The steps of an attack from its Quick window on, in running order
/// (`attack::declare_attack` schedules them after the declaration).
pub(super) fn from_quick_window(
    attacker: &str,
    target: AttackTarget,
    a_inc: u32,
    t_inc: u32,
) -> [Step; 6] {
    [
        Step::AwaitQuick {
            window: Window::Attack,
        },
        Step::CombatDamage {
            attacker: attacker.into(),
            target,
            a_inc,
            t_inc,
        },
        Step::CheckTiming {
            at: r::ATTACK_CHECK_2,
            started: false,
        },
        Step::AttackEnd {
            attacker: attacker.into(),
        },
        Step::CheckTiming {
            at: r::MAIN_AFTER,
            started: false,
        },
        Step::AwaitMain,
    ]
}

/// What `m` has in progress that a scenario can hold: the attack at its
/// Quick window ([`combat`]) and the changes of information in force.
pub(super) fn describe(m: &M) -> Option<Value> {
    let combat = combat(m);
    let changes = changes(&m.game);
    let delayed = waiting(&m.game);
    let counts = Counts::of(&m.game);
    let turns = TurnOrder::of(&m.game);
    if combat.is_none()
        && changes.is_empty()
        && delayed.is_empty()
        && counts.is_empty()
        && turns.is_empty()
    {
        return None;
    }
    serde_json::to_value(Resume {
        combat,
        changes,
        delayed,
        counts,
        turns,
    })
    .ok()
}

/// The delayed triggers waiting, oldest first.
fn waiting(g: &Game) -> Vec<Waiting> {
    g.own_ref::<SveState>().map_or_else(Vec::new, |st| {
        st.delayed
            .iter()
            .map(|d| Waiting {
                card: d.card.to_string(),
                def: d.def.clone(),
                ability: d.ability,
                master: d.master,
                turn: d.turn,
            })
            .collect()
    })
}

/// The changes of information in force, oldest first: those made to the
/// object each card is now.
fn changes(g: &Game) -> Vec<Change> {
    g.own_ref::<SveState>().map_or_else(Vec::new, |st| {
        let mut list: Vec<&InfoChange> = st
            .info_changes
            .iter()
            .filter(|ch| {
                g.card(&ch.card)
                    .is_some_and(|c| c.incarnation == ch.incarnation)
            })
            .collect();
        list.sort_by_key(|ch| ch.at);
        list.into_iter()
            .map(|ch| Change {
                card: ch.card.to_string(),
                effect: ch.effect.clone(),
                source: ch.source.to_string(),
            })
            .collect()
    })
}

/// The attack `m` awaits at its Quick window, when that is all the step
/// stack holds and the attacker and its target are still the objects
/// that were declared (otherwise not described).
fn combat(m: &M) -> Option<Combat> {
    let Some(Step::CombatDamage {
        attacker,
        target,
        a_inc,
        t_inc,
    }) = m.stack.iter().rev().nth(1)
    else {
        return None;
    };
    let g = &m.game;
    let same = |id: &str, inc: u32| g.card(id).is_some_and(|c| c.incarnation == inc);
    let expected: Vec<Step> = from_quick_window(attacker, target.clone(), *a_inc, *t_inc)
        .into_iter()
        .rev()
        .collect();
    let target = match target {
        AttackTarget::Leader(p) if *p == g.opponent(g.turn.active) => "leader".to_string(),
        AttackTarget::Follower(t) if same(t, *t_inc) => t.to_string(),
        _ => return None,
    };
    if m.stack != expected || !same(attacker, *a_inc) {
        return None;
    }
    Some(Combat {
        attacker: attacker.to_string(),
        target,
        step: QUICK.into(),
    })
}

/// `v` read and checked against the board of `g`.
pub(super) fn parse(g: &Game, v: &Value) -> Result<Resume, String> {
    let r: Resume = serde_json::from_value(v.clone()).map_err(|e| e.to_string())?;
    for ch in &r.changes {
        check_change(g, ch)?;
    }
    for d in &r.delayed {
        check_waiting(g, d)?;
    }
    let given: Vec<String> = r
        .changes
        .iter()
        .filter_map(|ch| match &ch.effect {
            Effect::GainAbility { ability, .. } if ability.per_turn.is_some() => {
                Some(key_of(ability))
            }
            _ => None,
        })
        .collect();
    r.counts.check(g, &given)?;
    r.turns.check(g)?;
    let Some(c) = &r.combat else {
        return Ok(r);
    };
    if c.step != QUICK {
        return Err(format!(
            "unknown attack step `{}`: an attack starts at its Quick window, `{QUICK}` (8.4.7)",
            c.step
        ));
    }
    if g.turn.phase != "main" {
        return Err("an attack is in progress only in the main phase (8.4.1)".into());
    }
    let tp = g.turn.active;
    let on_field = |id: &str, p: PlayerId| {
        g.card(id)
            .is_some_and(|x| x.zone == ZoneId::of(p, zn::FIELD) && is_type(g, id, "follower"))
    };
    if !on_field(&c.attacker, tp) {
        return Err(format!(
            "the attacker `{}` is not a follower on the turn player's field (8.4.2)",
            c.attacker
        ));
    }
    if c.target != "leader" && !on_field(&c.target, g.opponent(tp)) {
        return Err(format!(
            "the attack target `{}` is neither `leader` nor a follower on the non-turn player's field (8.4.3)",
            c.target
        ));
    }
    Ok(r)
}

/// A written change: of a card there is, by a card there is, with an
/// effect that changes information.
fn check_change(g: &Game, ch: &Change) -> Result<(), String> {
    for id in [&ch.card, &ch.source] {
        if g.card(id).is_none() {
            return Err(format!(
                "a change names `{id}`, which is no card of the board"
            ));
        }
    }
    if layer_of(&ch.effect).is_none() {
        return Err(format!(
            "a change is made by `{}`: only `change_keywords`, `change_info` and `gain_ability` changes are in force (10.9.1.2, 10.9.1.3)",
            ch.effect.word()
        ));
    }
    Ok(())
}

/// A written delayed trigger: of a card there is, an ability of its
/// definition with a delayed trigger, created in this turn or before.
fn check_waiting(g: &Game, d: &Waiting) -> Result<(), String> {
    if g.card(&d.card).is_none() {
        return Err(format!(
            "a delayed trigger names `{}`, which is no card of the board",
            d.card
        ));
    }
    if delayed_word(g, &d.def, d.ability).is_none() {
        return Err(format!(
            "ability {} of `{}` is no delayed trigger (`{DELAYED_END_PHASE}`, `{DELAYED_NEXT_TURN}`)",
            d.ability, d.def
        ));
    }
    if d.master.index() >= g.players.len() || d.turn > g.turn.number {
        return Err(
            "a delayed trigger's master is no player, or it was created after this turn".into(),
        );
    }
    Ok(())
}

/// Resumes what `r` describes (checked by [`parse`]): its changes made
/// again and its delayed triggers waiting, then the attack at its Quick
/// window or the rest of the phase.
pub(super) fn resume(m: &mut M, r: Resume) {
    r.counts.clone().restore(&mut m.game);
    r.turns.clone().restore(&mut m.game);
    for ch in &r.changes {
        restore_change(m, &ch.card, &ch.effect, &ch.source);
    }
    for d in r.delayed {
        let Some(trigger) = delayed_word(&m.game, &d.def, d.ability) else {
            continue;
        };
        m.game.own::<SveState>().delayed.push(Delayed {
            card: d.card.as_str().into(),
            def: d.def,
            ability: d.ability,
            master: d.master,
            trigger,
            turn: d.turn,
        });
    }
    let Some(c) = r.combat else {
        phase_start(m);
        return;
    };
    let g = &m.game;
    let inc = |id: &str| g.card(id).map_or(0, |x| x.incarnation);
    let (target, t_inc) = if c.target == "leader" {
        (AttackTarget::Leader(g.opponent(g.turn.active)), 0)
    } else {
        (
            AttackTarget::Follower(c.target.as_str().into()),
            inc(&c.target),
        )
    };
    let steps = from_quick_window(&c.attacker, target, inc(&c.attacker), t_inc);
    m.then(steps);
}

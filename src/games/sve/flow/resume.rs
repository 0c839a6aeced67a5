//! Starting a scenario inside an attack, at its Quick window (8.4.7),
//! instead of at the beginning of the phase (`state.in_progress`, written
//! by `judge run --dump-at`): the attacker and what it attacks; combat
//! damage (8.4.9), the check timing (8.4.10) and the end of the attack
//! (8.4.11) follow as they would have.

use serde::{Deserialize, Serialize};

use super::*;

/// The scenario's description of an attack in progress.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct Resume {
    combat: Combat,
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

/// The attack `m` awaits at its Quick window, when that is all the step
/// stack holds and the attacker and its target are still the objects
/// that were declared (otherwise not described).
pub(super) fn describe(m: &M) -> Option<Value> {
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
    serde_json::to_value(Resume {
        combat: Combat {
            attacker: attacker.to_string(),
            target,
            step: QUICK.into(),
        },
    })
    .ok()
}

/// `v` read and checked against the board of `g`.
pub(super) fn parse(g: &Game, v: &Value) -> Result<Resume, String> {
    let r: Resume = serde_json::from_value(v.clone()).map_err(|e| e.to_string())?;
    let c = &r.combat;
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

/// Resumes at the Quick window of the attack `r` describes (checked by
/// [`parse`]).
pub(super) fn resume(m: &mut M, r: Resume) {
    let g = &m.game;
    let c = r.combat;
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

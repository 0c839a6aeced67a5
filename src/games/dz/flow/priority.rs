//! Priority (4.6): rule effects and triggers before a player receives it
//! (4.6.3, 4.16.2, 4.8.2), passing, and what happens when both players
//! pass in succession: the top of the stack resolves and AP gets priority
//! back, or the step or phase goes on (4.6.2, 3.4.3).

use crate::engine::{Action, EngineError, Flow, GameResult, PlayerId, player_name};

use super::{
    M, Step, activate, bad, battle, dz, dz_ref, illegal, movement, plan, play, r, resolve,
    rule_effects, smash, triggers, turn,
};

/// A player is about to receive priority: rule effects are checked and
/// applied until none applies, then the waiting triggers go on the stack,
/// again until nothing new happens (4.6.3); if anything went on the
/// stack, AP receives priority (4.6.2).
pub fn offer(m: &mut M, mut holder: PlayerId) -> Result<Flow, EngineError> {
    for _ in 0..64 {
        if m.game.result != GameResult::Ongoing {
            return Ok(Flow::Continue);
        }
        let changed = rule_effects::check(m)?;
        if m.game.result != GameResult::Ongoing {
            return Ok(Flow::Continue);
        }
        if std::mem::take(&mut dz(&mut m.game).battle_begun) {
            // The battle's first step begins; AP then receives priority
            // (3.12.1, 4.6.2).
            dz(&mut m.game).passes = 0;
            m.then([Step::Battle(super::BattleStep::First)]);
            return Ok(Flow::Continue);
        }
        let stacked = triggers::stack_waiting(m)?;
        if stacked > 0 {
            holder = m.game.turn.active;
            dz(&mut m.game).passes = 0;
        }
        if (changed || stacked > 0) && m.game.turn.phase == "recovery" {
            dz(&mut m.game).recovery_dirty = true;
        }
        if !changed && stacked == 0 {
            break;
        }
    }
    m.stack.push(Step::Priority(holder));
    Ok(Flow::Await)
}

/// An action of the player holding priority.
pub fn act(m: &mut M, holder: PlayerId, a: &Action) -> Result<(), EngineError> {
    let p = a.player.unwrap_or(holder);
    if p != holder {
        return Err(illegal(
            r::PRIORITY,
            format!(
                "{} does not hold priority; {} does",
                player_name(p),
                player_name(holder)
            ),
            vec![format!("an action of {}", player_name(holder))],
        ));
    }
    let ap = m.game.turn.active;
    match a.kind.as_str() {
        "pass" => {
            let passes = {
                let d = dz(&mut m.game);
                d.passes += 1;
                d.passes
            };
            m.record(
                "pass",
                format!("{} passes priority", player_name(p)),
                &[r::PRIORITY, r::PRIORITY_PASS],
            );
            if passes >= 2 {
                m.then([Step::BothPassed]);
            } else {
                let next = m.game.opponent(p);
                m.then([Step::Offer(next)]);
            }
            Ok(())
        }
        "both_pass" => {
            let other = m.game.opponent(p);
            m.record(
                "pass",
                format!(
                    "{} and then {} pass priority in succession",
                    player_name(p),
                    player_name(other)
                ),
                &[r::PRIORITY_PASS],
            );
            m.then([Step::BothPassed]);
            Ok(())
        }
        "play" => {
            play::play(m, p, a)?;
            after_action(m, ap);
            Ok(())
        }
        "move" => {
            movement::declare(m, p, a)?;
            after_action(m, ap);
            Ok(())
        }
        "create_plan" | "update_plan" => {
            plan::declare(m, p, a.kind == "update_plan", a)?;
            after_action(m, ap);
            Ok(())
        }
        "energy" => {
            let card = a
                .card
                .as_deref()
                .ok_or_else(|| bad("`energy` needs `card`"))?;
            turn::energy(m, p, card)?;
            after_action(m, ap);
            Ok(())
        }
        "smash" => {
            let card = a
                .card
                .as_deref()
                .ok_or_else(|| bad("`smash` needs `card`"))?;
            smash::smash(m, p, card)?;
            after_action(m, ap);
            Ok(())
        }
        "activate" => {
            activate::activate(m, p, a)?;
            after_action(m, ap);
            Ok(())
        }
        other => Err(bad(format!("unknown action `{other}`"))),
    }
}

/// After a spell, ability or special action, AP receives priority (4.6.2).
fn after_action(m: &mut M, ap: PlayerId) {
    dz(&mut m.game).passes = 0;
    m.then([Step::Offer(ap)]);
}

/// Both players passed in succession (4.6.2): the top of the stack
/// resolves and AP receives priority; with an empty stack the battle step
/// or the phase goes on.
pub fn both_passed(m: &mut M) -> Result<Flow, EngineError> {
    dz(&mut m.game).passes = 0;
    let ap = m.game.turn.active;
    let d = dz_ref(&m.game);
    if !d.stack.is_empty() {
        resolve::top(m)?;
        m.then([Step::Offer(ap)]);
        return Ok(Flow::Continue);
    }
    if !d.battles.is_empty() {
        return battle::both_passed(m);
    }
    if m.game.turn.phase == "recovery" {
        return turn::recovery_passed(m);
    }
    m.record(
        "both_passed",
        format!(
            "both players passed with an empty stack: the {} phase ends",
            m.game.turn.phase
        ),
        &[r::PHASE_ENDS, r::PRIORITY_PASS],
    );
    m.then([Step::EndPhase]);
    Ok(Flow::Continue)
}

//! The right to act 行動権 (103.6): offering it after rule processing and
//! triggers, passing, resolving the newest entry when both players pass in
//! a row (103.6.1.7), and ending the phase or step when both pass with an
//! empty resolution zone (103.6.1.8).

use super::{
    Ctx, M, Phase, Step, Window, bad, battle, checks, effects, illegal, play, r, triggers,
};
use crate::engine::{Action, EngineError, Flow, GameResult, player_name};

/// Rule processing (103.6.1.3), triggered abilities into the zone
/// (300.2.1, 406.2.1), the battle checks, then the holder gets the right
/// to act.
pub fn offer(m: &mut M, mut ctx: Ctx) -> Result<Flow, EngineError> {
    if m.game.result != GameResult::Ongoing {
        return Ok(Flow::Continue);
    }
    // An eliminated player (RAID:F5) no longer holds the right to act.
    let n = m.game.players.len();
    if m.game.players[ctx.holder].lost
        && let Some(next) = (1..n)
            .map(|k| ctx.holder.after(k, n))
            .find(|&q| !m.game.players[q].lost)
    {
        ctx.holder = next;
    }
    settle(m, &mut ctx)?;
    if battle::cancelled(m, &mut ctx) {
        return offer(m, ctx);
    }
    // A 交戦する that resolved while another waited begins once the
    // earlier battle is over and the zone is empty (GL:交戦する).
    if ctx.battle.is_none()
        && ctx.stack.is_empty()
        && battle::engage_now(m, &ctx)
        && let Some((a, b)) = battle::next_engagement(m)
    {
        battle::engage_by_effect(m, ctx, a, b)?;
        return Ok(Flow::Continue);
    }
    if super::raid::straight_to_end(m) {
        return Ok(Flow::Continue);
    }
    if super::raid::is_boss(&m.game, ctx.holder) {
        return super::raid::boss_act(m, ctx);
    }
    m.stack.push(Step::Priority(Box::new(ctx)));
    Ok(Flow::Await)
}

/// Runs the standing checks and puts triggered abilities in the zone
/// until nothing more happens; if an ability was put there, the turn
/// player gets the right to act (103.6.1.2, 506.x).
pub fn settle(m: &mut M, ctx: &mut Ctx) -> Result<(), EngineError> {
    for _ in 0..64 {
        super::checks::standing_ko(m)?;
        let placed = triggers::collect(m, ctx)? + super::raid::place_pending(m, ctx);
        if placed == 0 {
            return Ok(());
        }
        ctx.holder = m.game.turn.active;
        ctx.passes = 0;
    }
    Ok(())
}

/// An action of the player holding the right to act.
pub fn act(m: &mut M, ctx: Ctx, a: &Action) -> Result<(), EngineError> {
    let p = a.player.unwrap_or(ctx.holder);
    if p != ctx.holder {
        return Err(illegal(
            r::ONE_PRIORITY,
            format!(
                "{} does not hold the right to act; {} does",
                player_name(p),
                player_name(ctx.holder)
            ),
            vec![format!("an action of {}", player_name(ctx.holder))],
        ));
    }
    match a.kind.as_str() {
        "pass" => pass(m, ctx),
        "play" => play::play(m, ctx, a),
        "activate" => play::activate(m, ctx, a),
        "attack" => battle::declare(m, ctx, a),
        "end_phase" => end_phase(m, ctx),
        "evolve" => super::mag::evolve(m, ctx, a),
        "pp" => Err(illegal(
            r::PP_PLACE,
            "a card is put into PP only in the PP phase",
            vec![],
        )),
        other => Err(bad(format!("unknown action `{other}`"))),
    }
}

/// 504.1.6: the turn player declares the move to the end phase.
fn end_phase(m: &mut M, ctx: Ctx) -> Result<(), EngineError> {
    if ctx.window != Window::Main || ctx.holder != m.game.turn.active {
        return Err(illegal(
            r::END_DECLARE,
            "only the turn player declares the end phase, in the main phase",
            vec!["pass".into()],
        ));
    }
    if !ctx.stack.is_empty() {
        return Err(illegal(
            r::END_DECLARE_EMPTY,
            "the end phase is declared only with nothing in the resolution zone",
            vec!["pass".into()],
        ));
    }
    m.record(
        "main_phase",
        format!(
            "{} declares the end phase: the main phase ends at once",
            player_name(ctx.holder)
        ),
        &[r::END_DECLARE, r::END_DECLARE_NOW, r::PRIORITY_ACTIONS],
    );
    m.then([Step::Begin(Phase::TurnEnd)]);
    Ok(())
}

/// 103.6.1.5–103.6.1.8: a pass.
pub fn pass(m: &mut M, mut ctx: Ctx) -> Result<(), EngineError> {
    if ctx.window == Window::Main && ctx.stack.is_empty() {
        return Err(illegal(
            r::NO_PASS_MAIN,
            "in the main phase with nothing in the resolution zone there is no pass",
            vec![
                "play".into(),
                "activate".into(),
                "attack".into(),
                "end_phase".into(),
            ],
        ));
    }
    let p = ctx.holder;
    ctx.passes += 1;
    let n = m.game.players.len();
    let in_game = (0..n).filter(|&q| !m.game.players[q].lost).count();
    if ctx.passes < in_game {
        let next = (1..n)
            .map(|k| p.after(k, n))
            .find(|&q| !m.game.players[q].lost)
            .unwrap_or(p.next(n));
        m.record(
            "priority",
            format!(
                "{} passes; the right to act goes to {}",
                player_name(p),
                player_name(next)
            ),
            &[r::PASS, r::PRIORITY_MOVES],
        );
        ctx.holder = next;
        m.then([Step::Priority(Box::new(ctx))]);
        return Ok(());
    }
    let tp = m.game.turn.active;
    if let Some(entry) = ctx.stack.pop() {
        m.record(
            "priority",
            format!(
                "{} passes: every player passed in a row; the newest entry resolves",
                player_name(p)
            ),
            &[r::PASS, r::BOTH_PASS_RESOLVE, r::RESOLVE_NEWEST],
        );
        effects::resolve(m, &mut ctx, entry)?;
        ctx.holder = tp;
        ctx.passes = 0;
        if m.game.result == GameResult::Ongoing {
            m.record(
                "priority",
                format!(
                    "after the resolution {} gets the right to act again",
                    player_name(tp)
                ),
                &[r::BOTH_PASS_RESOLVE],
            );
        }
        checks::deck_out(m);
        if battle::engage_now(m, &ctx)
            && let Some((a, b)) = battle::next_engagement(m)
        {
            return battle::engage_by_effect(m, ctx, a, b);
        }
        m.then([Step::Priority(Box::new(ctx))]);
        return Ok(());
    }
    m.record(
        "priority",
        format!(
            "{} passes: every player passed in a row with nothing in the resolution zone; the {} ends",
            player_name(p),
            window_name(ctx.window)
        ),
        &[r::PASS, r::BOTH_PASS_END],
    );
    ctx.passes = 0;
    ctx.holder = tp;
    match ctx.window {
        Window::Rule(next) => m.then([Step::Begin(next)]),
        Window::TurnEnd => m.then([Step::Begin(Phase::Refresh)]),
        Window::BattleStart => battle::participation(m, ctx)?,
        Window::Participation => battle::engagement(m, ctx)?,
        Window::Engagement => battle::damage_step(m, ctx)?,
        Window::Damage => battle::back_to_main(m, ctx),
        // Rejected above: no pass in the main phase with an empty zone.
        Window::Main => {
            return Err(illegal(
                r::NO_PASS_MAIN,
                "in the main phase with nothing in the resolution zone there is no pass",
                vec![],
            ));
        }
    }
    Ok(())
}

/// A window's name for the trace.
pub fn window_name(w: Window) -> &'static str {
    match w {
        Window::Main => "main phase",
        Window::Rule(Phase::Draw) => "start phase",
        Window::Rule(_) => "rule phase",
        Window::BattleStart => "battle-start step",
        Window::Participation => "attack-participation step",
        Window::Engagement => "engagement step",
        Window::Damage => "damage-resolution step",
        Window::TurnEnd => "turn-end step",
    }
}

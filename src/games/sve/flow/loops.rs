//! Loops 永久循環 (15.2). Within one check timing the engine remembers the
//! game state (cards by what they are, not by id: a token created anew is
//! the same card) each time it is about to play a pending ability. If a
//! state comes back while no player has decided anything since the check
//! timing began (one pending ability at a time, none with a choice), no
//! player can stop the loop: the game ends in a draw (15.2.1 item 3). A
//! loop a player could stop by a decision (15.2.1 item 1, [`stated_loop`]):
//! the turn player states how many times it runs (`loop.times`), the
//! non-turn player accepts or makes it fewer (`loop.fewer`), and the loop
//! must then run exactly that many times: the decisions that leave it are
//! the scenario's choices given for one pass (`key@n`, scenarios/README.md),
//! checked each time the state comes back and when the check timing ends.
//! A turn player's own actions repeated at the main phase are finite in a
//! scenario; one that would bring back a state it already led from is
//! rejected (15.2.1 item 2, [`repeated_action`]).

use std::hash::{Hash, Hasher};

use rustc_hash::FxHasher;

use super::*;

/// What the loop check keeps for the current check timing.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct LoopWatch {
    /// States seen before playing a pending ability.
    pub seen: BTreeSet<u64>,
    /// A player decided something (an order, a target, a Choose) since the
    /// check timing began.
    pub decided: bool,
    /// States at the turn player's main-phase decisions this turn, with the
    /// actions taken from them (15.2.1 item 2).
    pub main: Vec<(u64, String)>,
    /// A loop stated under 15.2.1 item 1 in this check timing.
    pub stated: Option<Stated>,
}

/// A loop the players have stated (15.2.1 item 1).
#[derive(Debug, Clone, PartialEq)]
pub struct Stated {
    /// The state that came back, marking one pass.
    pub print: u64,
    /// How many times the loop runs, as the players chose.
    pub times: u64,
    /// How many passes have been completed.
    pub passes: u64,
}

/// A card by what it is, as a number: its definition, the information
/// continuous changes give it, states, damage, counters and numeric
/// changes; not its id. Hashed directly (no text is built): the state is
/// fingerprinted before every pending ability and main-phase action.
/// `view` is the information continuous changes give the cards they reach
/// ([`info::info_view`]), read once for the whole state.
fn card_print(g: &Game, id: &str, view: Option<&info::View>) -> u64 {
    let mut h = FxHasher::default();
    let Some(c) = g.card(id) else {
        return h.finish();
    };
    eff_def_key(g, id).hash(&mut h);
    // The information continuous changes give it (10.9.1.2, 10.9.1.3).
    if let Some(d) = view
        .and_then(|v| v.get(id))
        .or_else(|| info::base_def(g, id))
    {
        (&d.keywords, &d.name, &d.card_type, &d.traits).hash(&mut h);
    }
    // Abilities given to it (10.9.1.2, `grant`).
    given_now(g, id).hash(&mut h);
    (
        &c.states,
        c.damage,
        &c.counters,
        c.token,
        c.attached_to.is_some(),
    )
        .hash(&mut h);
    for m in &c.modifiers {
        (&m.stat, m.set, m.delta).hash(&mut h);
    }
    h.finish()
}

/// The game state as a number: players' values and flags, every zone's
/// cards by what they are (ordered zones in order), the pending abilities.
pub(super) fn fingerprint(g: &Game) -> u64 {
    let mut h = FxHasher::default();
    let view = info::info_view(g);
    for p in &g.players {
        p.values.hash(&mut h);
        p.flags.hash(&mut h);
    }
    // A zone listed empty is the same as one not listed.
    for (z, ids) in g.zones.iter().filter(|(_, ids)| !ids.is_empty()) {
        z.to_string().hash(&mut h);
        let mut prints: Vec<u64> = ids
            .iter()
            .map(|id| card_print(g, id, view.as_ref()))
            .collect();
        let ordered = g.zone_spec(z.kind).is_some_and(|s| s.ordered);
        if !ordered {
            prints.sort_unstable();
        }
        prints.hash(&mut h);
    }
    let mut pending: Vec<String> = g
        .pending
        .iter()
        .map(|p| format!("{}#{}#{}#{}", p.def, p.ability, p.trigger, p.master))
        .collect();
    pending.sort();
    pending.hash(&mut h);
    g.turn.active.hash(&mut h);
    g.turn.phase.hash(&mut h);
    g.turn.number.hash(&mut h);
    // The counts of this turn (Combo 13.2.1, the limit of 8.3.2), the
    // same whether or not the state has been written yet.
    let s = g.own_ref::<SveState>();
    for p in 0..g.players.len() {
        s.and_then(|s| s.played.get(p).copied())
            .unwrap_or(0)
            .hash(&mut h);
    }
    s.map_or(0, |s| s.evolve_used).hash(&mut h);
    // "N times per turn" counts (10.7.2.2) decide what triggers next, and
    // delayed triggers waiting (10.7.5) what triggers later.
    if let Some(s) = s {
        s.per_turn.hash(&mut h);
        for d in &s.delayed {
            (&d.def, d.ability, d.master, d.trigger, d.turn).hash(&mut h);
        }
    }
    h.finish()
}

/// A check timing begins: nothing seen, nothing decided.
pub(super) fn watch_reset(m: &mut M) {
    let w = &mut m.game.own::<SveState>().loops;
    w.seen.clear();
    w.decided = false;
    w.stated = None;
}

/// Notes that a player decided something inside the check timing.
pub(super) fn watch_decided(m: &mut M) {
    m.game.own::<SveState>().loops.decided = true;
}

/// Whether pending ability `p` asks its master to decide something while
/// it is played or resolves (targets, a Choose, a count), or picks at
/// random (5.18: a different pick may end the loop, so it is not one no
/// one can stop).
pub(super) fn asks_decision(g: &Game, p: &Pending) -> bool {
    g.ability(&p.def, p.ability).is_some_and(|ab| {
        // "May" and a cost carried out by choice (10.4.7.3) are decisions.
        ab.optional
            || !ab.cost.is_empty()
            || ab.effect.iter().any(|e| {
                matches!(e, Effect::Choose { .. } | Effect::DrawUpTo { .. })
                    || e.target()
                        .is_some_and(|t| t.chosen().is_some() || matches!(t, Target::Random { .. }))
            })
    })
}

/// Before a pending ability is played: a state seen before in this check
/// timing, with no decision since it began, is a loop no player can stop
/// and the game is a draw (15.2.1 item 3). Returns whether the game ended.
pub(super) fn loop_check(m: &mut M) -> R<bool> {
    let fp = fingerprint(&m.game);
    let w = &mut m.game.own::<SveState>().loops;
    if w.seen.insert(fp) {
        return Ok(false);
    }
    if w.decided {
        stated_loop(m, fp)?;
        return Ok(false);
    }
    m.record(
        "loop.draw",
        "the game state repeats and no player has a decision that could stop it: the game ends in a draw".to_string(),
        &[r::LOOP, r::LOOP_DRAW],
    );
    m.end(GameResult::Draw, "the game is a draw", &[r::LOOP_DRAW]);
    Ok(true)
}

/// 15.2.1 item 1: the state `fp` came back after a decision, so a player
/// could stop the loop. The first time, the turn player states how many
/// times it runs in all, counting the pass just completed (`loop.times`),
/// and the non-turn player accepts or chooses fewer (`loop.fewer`, by
/// stating an action of theirs at a point in the loop). Each later return
/// of the same state is one more pass; one beyond the count is refused: the
/// choices must leave the loop there (a choice given for that pass,
/// `key@n`).
fn stated_loop(m: &mut M, fp: u64) -> R<()> {
    let stated = m.game.own::<SveState>().loops.stated.clone();
    let Some(mut st) = stated else {
        let st = state_loop(m, fp)?;
        m.choices.set_pass(2);
        m.game.own::<SveState>().loops.stated = Some(st);
        return Ok(());
    };
    if st.print != fp {
        return Ok(());
    }
    st.passes += 1;
    if st.passes > st.times {
        return Err(illegal(
            r::LOOP_DECLARE,
            format!(
                "the loop was stated to run {} time(s) and the game state comes back after run {}: the decisions must leave the loop on pass {}",
                st.times,
                st.passes,
                st.times + 1
            ),
            vec![format!(
                "give the decision that leaves the loop for that pass (a choice `key{}{}` on the action)",
                crate::engine::machine::PASS_SEP,
                st.times + 1
            )],
        ));
    }
    m.choices.set_pass(st.passes as usize + 1);
    m.record(
        "loop.pass",
        format!(
            "the game state comes back: the loop has run {} of {} time(s)",
            st.passes, st.times
        ),
        &[r::LOOP_DECLARE],
    );
    m.game.own::<SveState>().loops.stated = Some(st);
    Ok(())
}

/// The statement of 15.2.1 item 1: the turn player's count, then the
/// non-turn player's answer.
fn state_loop(m: &mut M, fp: u64) -> R<Stated> {
    let tp = m.game.turn.active;
    let ntp = m.game.opponent(tp);
    let count = |v: &Value| v.as_u64().filter(|&n| n >= 1);
    // Each statement is its player's choice (the core's declared decider):
    // addressed `pN.loop.…`, or bare on that player's own action.
    let (key, v) = m.decided_by(tp, |m| {
        Ok((
            m.choices.shown("loop.times"),
            m.choices
                .require("loop.times", &["a whole number from 1"])?,
        ))
    })?;
    let Some(times) = count(&v) else {
        return Err(EngineError::BadChoice {
            choice: key,
            value: v.to_string(),
            options: vec!["a whole number from 1 (the pass just completed counts)".into()],
        });
    };
    let answer = m.decided_by(ntp, |m| {
        Ok(m.choices
            .take("loop.fewer")
            .map(|v| (m.choices.shown("loop.fewer"), v)))
    })?;
    let fewer = match answer {
        None => None,
        Some((key, v)) => match count(&v).filter(|&n| n < times) {
            Some(n) => Some(n),
            None => {
                return Err(EngineError::BadChoice {
                    choice: key,
                    value: v.to_string(),
                    options: vec![format!("a whole number from 1 to {}", times - 1)],
                });
            }
        },
    };
    m.record(
        "loop.stated",
        format!(
            "the game state repeats after a decision: a loop a player can stop (it has run once). {} states it runs {times} time(s); {}",
            player_name(tp),
            match fewer {
                Some(n) => format!("{} chooses to stop it after {n}", player_name(ntp)),
                None => format!("{} accepts", player_name(ntp)),
            }
        ),
        &[r::LOOP, r::LOOP_DECLARE],
    );
    Ok(Stated {
        print: fp,
        times: fewer.unwrap_or(times),
        passes: 1,
    })
}

/// The check timing ends: a stated loop must have run the times chosen
/// (15.2.1 item 1), not fewer.
pub(super) fn loop_ended(m: &mut M) -> R<()> {
    let Some(st) = m.game.own::<SveState>().loops.stated.take() else {
        return Ok(());
    };
    m.choices.set_pass(0);
    if st.passes < st.times {
        return Err(illegal(
            r::LOOP_DECLARE,
            format!(
                "the loop was stated to run {} time(s) but the decisions left it after {}",
                st.times, st.passes
            ),
            vec![format!("state {} time(s) (`loop.times`)", st.passes)],
        ));
    }
    m.record(
        "loop.ended",
        format!("the loop ran the {} time(s) chosen and ends", st.times),
        &[r::LOOP_DECLARE],
    );
    Ok(())
}

/// 15.2.1 item 2: the turn player may not take again, from a game state
/// identical to one they already took `action` from, the action that led
/// from it. Records the state and action when allowed.
pub(super) fn repeated_action(m: &mut M, action: &str, alts: Vec<String>) -> R<()> {
    let fp = fingerprint(&m.game);
    let w = &mut m.game.own::<SveState>().loops;
    if w.main.iter().any(|(s, a)| *s == fp && a == action) {
        return Err(illegal(
            r::LOOP_NO_REPEAT,
            format!(
                "the game is in the same state as when this action was taken before ({action}): the turn player cannot take it again"
            ),
            alts,
        ));
    }
    w.main.push((fp, action.to_string()));
    Ok(())
}

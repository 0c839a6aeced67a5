//! The step dispatcher and the turn: start phase (7.2), main phase (7.3), end phase (7.4).

use super::*;

/// Runs one step, then turns new events into pending abilities.
pub fn step(m: &mut M, s: Step) -> R<Flow> {
    // Issue 13: a played card resolves with its player's choices, a
    // triggered ability with its master's (10.7.1), whoever's action
    // reaches it.
    let decider = match &s {
        Step::Resolve { player, .. } => Some(*player),
        Step::PlayTrigger(p) => Some(p.master),
        _ => None,
    };
    let f = match decider {
        Some(d) => m.decided_by(d, |m| run_step(m, s))?,
        None => run_step(m, s)?,
    };
    collect(m);
    Ok(f)
}

pub(super) fn run_step(m: &mut M, s: Step) -> R<Flow> {
    let tp = m.game.turn.active;
    match s {
        Step::StartMaxPp => {
            m.game.turn.phase = "start".into();
            next_turn_comes(m, false);
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
            next_turn_comes(m, true);
        }
        Step::PreGame => prepare(m)?,
        Step::PreGameValues => set_starting_values(m),
        Step::AwaitMain
        | Step::AwaitQuick { .. }
        | Step::AwaitMulligan { .. }
        | Step::AwaitBasis { .. } => {
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
        } => combat_damage(m, &attacker, &target, a_inc, t_inc)?,
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
            let options: Vec<CardId> = field_followers(&m.game, tp)
                .into_iter()
                .filter(|id| {
                    has_kw(&m.game, id, "ward")
                        && !m.game.card(id).is_some_and(|c| c.has(st::ENGAGED))
                })
                .collect();
            if !options.is_empty() {
                // A "may": not engaging is the default when no choice is given.
                m.choices.default_none_of("ward_engage", &options);
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
                let chosen = m.choices.exactly("discard", &hand, excess)?;
                let note = hand_limit_note(&m.game);
                m.record(
                    "end_phase.hand_limit",
                    format!(
                        "{} discards {excess} card(s) down to the hand limit {lim}",
                        player_name(tp)
                    ),
                    &[r::END_HAND_LIMIT, r::HAND_LIMIT],
                )
                .note(note);
                for id in chosen {
                    mv(m, &id, ZoneId::of(tp, zn::CEMETERY), false);
                }
                m.then(after_hand_limit(&m.game));
            } else {
                // A non-event the judge is asked about: 7.4.7 discards only
                // what is *over* the limit, so a hand at the limit keeps all.
                m.record(
                    "end_phase.hand_limit",
                    format!(
                        "{} has {} card(s) in hand, not over the hand limit {lim}: nothing is discarded",
                        player_name(tp),
                        hand.len()
                    ),
                    &[r::END_HAND_LIMIT, r::HAND_LIMIT],
                );
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
            n += end_info_changes(&mut m.game);
            m.record(
                "end_phase.durations",
                format!("{n} effect(s) lasting until the end of the turn end"),
                &[r::END_DURATIONS],
            );
        }
        Step::EndTurn => {
            expire(m);
            let next = next_turn_player(m, tp);
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
            if reading(&m.game, PP_EMPTIES_AT_TURN_END) {
                empty_pp(m, tp);
            }
            m.game.turn.number += 1;
            m.game.turn.active = next;
            for c in m.game.cards.values_mut() {
                c.states.remove(st::ARRIVED);
                c.states.remove(st::EVOLVED);
            }
            let own = m.game.own::<SveState>();
            own.evolve_used = 0;
            own.per_turn.clear();
            own.played.clear();
            own.defense_lowered.clear();
            m.then(start_of_turn());
        }
    }
    Ok(Flow::Continue)
}

/// 7.4.7's "back to 7.4.6" read as "back to 7.4.4": after the hand-limit
/// discard, a check timing, then the non-turn player's Quick window opens
/// again (7.4.4-7.4.6) before the hand is checked once more; the judges'
/// reading takes it literally (7.4.6 falls through, no new window).
pub const HAND_LIMIT_BACK_TO_QUICK: &str = "reading_hand_limit_back_to_quick";

/// PP left over at the end of a turn is lost (the turn player's PP goes to
/// 0 as the turn ends), instead of the judges' reading: no rule empties it
/// (7.2.2 only sets it at the start of its player's turn), so it stays
/// usable for Quick in the opponent's turn.
pub const PP_EMPTIES_AT_TURN_END: &str = "reading_pp_empties_at_turn_end";

/// The judge's note on the hand-limit discard of 7.4.7.
fn hand_limit_note(g: &Game) -> String {
    if reading(g, HAND_LIMIT_BACK_TO_QUICK) {
        format!(
            "reading `{HAND_LIMIT_BACK_TO_QUICK}`: \"back to 7.4.6\" is read as back to 7.4.4, so the Quick window opens again after the check timing"
        )
    } else {
        format!(
            "7.4.7 says \"back to 7.4.6\"; read literally: 7.4.6 falls through (nothing was played in 7.4.5), so no new Quick window opens after discarding (flag `{HAND_LIMIT_BACK_TO_QUICK}`: back to 7.4.4)"
        )
    }
}

/// The steps after a hand-limit discard (7.4.7): a check timing, then the
/// hand is checked again, with the Quick window first under
/// [`HAND_LIMIT_BACK_TO_QUICK`].
fn after_hand_limit(g: &Game) -> Vec<Step> {
    let mut steps = vec![Step::CheckTiming {
        at: r::END_HAND_LIMIT,
        started: false,
    }];
    if reading(g, HAND_LIMIT_BACK_TO_QUICK) {
        steps.extend([
            Step::CheckTiming {
                at: r::END_CHECK_2,
                started: false,
            },
            Step::AwaitQuick {
                window: Window::End,
            },
        ]);
    }
    steps.push(Step::HandLimit);
    steps
}

/// Under [`PP_EMPTIES_AT_TURN_END`], the turn player's PP left over is
/// lost as the turn ends (7.4.9).
fn empty_pp(m: &mut M, tp: PlayerId) {
    let pp = m.game.value(tp, "pp");
    if pp == 0 {
        return;
    }
    m.game.set_value(tp, "pp", 0);
    m.record(
        "end_phase.pp",
        format!("{}'s {pp} PP left over is lost", player_name(tp)),
        &[r::END_TURN],
    )
    .change(format!("{}.pp", player_name(tp)), pp, 0)
    .note(format!("reading `{PP_EMPTIES_AT_TURN_END}`: PP left over does not carry into the opponent's turn (the judges' reading: no rule empties it)"));
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

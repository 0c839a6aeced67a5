//! The step dispatcher and the turn: start phase (7.2), main phase (7.3), end phase (7.4).

use super::*;

/// Runs one step, then turns new events into pending abilities.
pub fn step(m: &mut M, s: Step) -> R<Flow> {
    let f = run_step(m, s)?;
    collect(m);
    Ok(f)
}

pub(super) fn run_step(m: &mut M, s: Step) -> R<Flow> {
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
                let chosen = m.choices.exactly("discard", &hand, excess)?;
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
            let own = m.game.own::<SveState>();
            own.evolve_used = 0;
            own.played.clear();
            own.defense_lowered.clear();
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

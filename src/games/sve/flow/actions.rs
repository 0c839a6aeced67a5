//! Taking a scenario action at a decision: the main phase (7.3.3) and Quick windows (8.4.7, 7.4.5), with their legal alternatives.

use super::*;

/// Where the engine waits, and for whom.
pub(super) fn awaited(g: &Game, s: &Step) -> PlayerId {
    match s {
        Step::AwaitQuick { .. } => g.opponent(g.turn.active),
        Step::AwaitMulligan { player } | Step::AwaitBasis { player } => *player,
        _ => g.turn.active,
    }
}

pub(super) fn legal_main(g: &Game) -> Vec<String> {
    let tp = g.turn.active;
    let mut out = Vec::new();
    let pp = g.value(tp, "pp");
    for zone in [zn::HAND, zn::EX] {
        for id in g.zone_of(tp, zone) {
            if let Some(d) = g.def_of(id)
                && ["follower", "amulet", "spell"].contains(&d.card_type.as_str())
                && play_cost(g, tp, id).is_ok_and(|c| c.cheapest() <= pp)
            {
                out.push(format!("play {id}"));
            }
        }
    }
    out.extend(legal_activations(g));
    for id in legal_attackers(g) {
        out.push(format!("attack with {id}"));
    }
    out.push("end_phase".into());
    out
}

pub(super) fn legal_attackers(g: &Game) -> Vec<CardId> {
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
                && cant_attack(g, id).is_none()
                && !legal_targets(g, id).0.is_empty()
        })
        .collect()
}

/// Legal attack targets of `attacker` (8.4.3.1 with Ward, Intimidate,
/// Assail, Storm, Rush) and the rule that narrowed them most.
pub(super) fn legal_targets(g: &Game, attacker: &str) -> (Vec<String>, &'static str) {
    let tp = g.turn.active;
    let ntp = g.opponent(tp);
    let c = &g.cards[attacker];
    let continuous = !c.has(st::ARRIVED);
    let assail = has_kw(g, attacker, "assail");
    // 8.4.3.1 bullet 2; Storm also waives it (judge's reading, see note).
    let mut can_leader = continuous || storm_reaches_leader(g, attacker);
    let mut rule = r::TARGET_LEGAL;
    let followers: Vec<CardId> = field_followers(g, ntp)
        .into_iter()
        .filter(|t| {
            let tc = &g.cards[t];
            (tc.has(st::ENGAGED) || assail) && !has_kw(g, t, "intimidate")
        })
        .collect();
    let ward: Vec<CardId> = followers
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
    (texts(&out), rule)
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
    if a.kind == "declare" {
        return declare_basis(m, awaiting, player);
    }
    if let Step::AwaitBasis { .. } = awaiting {
        let why = format!(
            "{} first declares whether their deck is built on the class or the title",
            player_name(player)
        );
        return refuse(m, awaiting, r::PRE_GAME_BASIS, why, vec!["declare".into()]);
    }
    if ["mulligan", "keep"].contains(&a.kind.as_str()) {
        return decide_mulligan(m, awaiting, player, &a.kind);
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
            // 15.2.1 item 2: not again from a state it already led from.
            let what = format!(
                "{} {} {} {:?}",
                a.kind,
                a.card.as_deref().unwrap_or(""),
                a.target.as_deref().unwrap_or(""),
                a.choices
            );
            let alts = legal_main(&m.game);
            if let Err(e) = repeated_action(m, what.trim(), alts) {
                m.stack.push(Step::AwaitMain);
                return Err(e);
            }
            match a.kind.as_str() {
                "play" | "activate" => {
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
                    if a.kind == "play" {
                        play_card(m, player, &card, a.from.as_deref(), None)?;
                    } else {
                        activate(m, player, &card, None)?;
                    }
                }
                "attack" => declare_attack(m, player, &need_card(a)?, a.target.as_deref())?,
                "evolve" => evolve(m, player, &need_card(a)?, a.target.as_deref())?,
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
            let rule = window_rule(window);
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
                "play" | "activate" => {
                    let card = need_card(a)?;
                    m.then(after_quick(window));
                    if a.kind == "play" {
                        play_card(m, player, &card, a.from.as_deref(), Some(rule))?;
                    } else {
                        activate(m, player, &card, Some(window))?;
                    }
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
pub(super) fn default_player(g: &Game, a: &Action, waited: PlayerId) -> PlayerId {
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
///
/// In the window after an attack (8.4.7) the turn is still the turn
/// player's whatever happens, so any action of the non-turn player is
/// theirs *in the window*, and one the window does not allow (e.g. an
/// evolve) is refused there, citing 8.4.7, instead of after the combat. In
/// the end-phase window (7.4.5) the non-turn player's other actions are
/// read as their own next turn's.
pub(super) fn answers_quick(g: &Game, a: Option<&Action>, window: Window) -> bool {
    let ntp = g.opponent(g.turn.active);
    match a {
        None => false,
        Some(a) => match a.kind.as_str() {
            "pass" | "concede" => true,
            "play" | "activate" => default_player(g, a, ntp) == ntp,
            "evolve" | "attack" | "end_phase" if window == Window::Attack => {
                default_player(g, a, ntp) == ntp
            }
            _ => false,
        },
    }
}

/// Puts the awaiting step back and rejects the action citing `rule`.
pub(super) fn refuse(
    m: &mut M,
    awaiting: Step,
    rule: &'static str,
    why: String,
    alternatives: Vec<String>,
) -> R<()> {
    m.stack.push(awaiting);
    Err(illegal(rule, why, alternatives))
}

/// 6.2.1.8: `player` takes or declines the mulligan, in order from the
/// first player, once, before the game; at any other time it is rejected.
fn decide_mulligan(m: &mut M, awaiting: Step, player: PlayerId, kind: &str) -> R<()> {
    let Step::AwaitMulligan { player: waited } = awaiting else {
        m.stack.push(awaiting);
        return Err(illegal(
            r::MULLIGAN,
            format!("`{kind}` is done once, before the game begins"),
            Vec::new(),
        ));
    };
    if player != waited {
        m.stack.push(awaiting);
        return Err(illegal(
            r::MULLIGAN,
            format!(
                "{} decides first (in order from the first player)",
                player_name(waited)
            ),
            vec!["mulligan".into(), "keep".into()],
        ));
    }
    if kind == "mulligan" {
        mulligan(m, player)?;
    } else {
        keep(m, player, None);
    }
    collect(m);
    Ok(())
}

/// Passes every Quick window the next action does not answer.
pub(super) fn pass_unanswered(m: &mut M, next: Option<&Action>) -> R<()> {
    while let Some(Step::AwaitMulligan { player }) = m.stack.last().cloned()
        && !answers_mulligan(&m.game, next, player)
    {
        m.stack.pop();
        keep(
            m,
            player,
            Some(
                "the scenario gives no mulligan decision for this player, so they are taken to keep",
            ),
        );
        m.run(step)?;
    }
    while m.game.result == GameResult::Ongoing
        && let Some(&Step::AwaitQuick { window }) = m.stack.last()
        && !answers_quick(&m.game, next, window)
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

pub(super) fn act_after_pass(m: &mut M, a: &Action) -> R<()> {
    if m.game.result != GameResult::Ongoing || m.stack.is_empty() {
        return Ok(());
    }
    // The driver recorded the note once; acting again records nothing twice.
    act(m, a)
}

/// The clause that opens a Quick window.
pub(super) fn window_rule(window: Window) -> &'static str {
    match window {
        Window::Attack => r::ATTACK_QUICK,
        Window::End => r::END_QUICK,
    }
}

/// What follows a card or ability played in a Quick window: a check
/// timing (8.4.8 / 7.4.6), then the window again (after 7.4.4's check
/// timing in the end phase).
fn after_quick(window: Window) -> Vec<Step> {
    let mut steps = Vec::new();
    let after = match window {
        Window::Attack => r::ATTACK_QUICK_AFTER,
        Window::End => r::END_QUICK_AFTER,
    };
    steps.push(Step::CheckTiming {
        at: after,
        started: false,
    });
    if window == Window::End {
        steps.push(Step::CheckTiming {
            at: r::END_CHECK_2,
            started: false,
        });
    }
    steps.push(Step::AwaitQuick { window });
    steps
}

/// What `p` may do in a Quick window: play a Quick card from hand or EX
/// area, or a Quick activated ability (7.4.5, 8.4.7).
pub(super) fn quick_options(g: &Game, p: PlayerId) -> Vec<String> {
    let mut out = Vec::new();
    for zone in [zn::HAND, zn::EX] {
        for id in g.zone_of(p, zone) {
            // Quick given to a card in the hand counts (10.9.3).
            if has_kw(g, id, "quick") {
                out.push(format!("play {id}"));
            }
        }
    }
    out.extend(quick_activations(g, p));
    out
}

pub(super) fn need_card(a: &Action) -> R<CardId> {
    a.card
        .clone()
        .ok_or_else(|| bad(format!("action `{}` needs a `card`", a.kind)))
}

pub(super) fn check_from(g: &Game, card: &str, from: Option<&str>) -> R<()> {
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

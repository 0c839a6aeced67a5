//! Declaring an attack (8.4.1-8.4.8): attacker, target, Ward and the windows that follow.

use super::*;

/// Storm (疾走, 12.9.2) waives only the attacker condition of 8.4.2.1, so
/// a Storm follower that entered this turn attacks engaged followers only
/// (8.4.3.1 bullet 2 read literally), instead of the judges' reading (it
/// reaches the leader too, 12.9.1 "can attack at once").
pub const STORM_FOLLOWERS_ONLY: &str = "reading_storm_attacks_followers_only";

/// Whether `attacker` (not mastered since the start of the turn) may
/// choose the leader through Storm: the judges' reading of 12.9 against
/// 8.4.3.1, unless [`STORM_FOLLOWERS_ONLY`] is chosen.
pub(super) fn storm_reaches_leader(g: &Game, attacker: &str) -> bool {
    has_kw(g, attacker, "storm") && !reading(g, STORM_FOLLOWERS_ONLY)
}

/// The judge's note on a Storm follower's attack the turn it entered.
fn storm_note(g: &Game, target: &str) -> Option<String> {
    if reading(g, STORM_FOLLOWERS_ONLY) {
        Some(format!(
            "reading `{STORM_FOLLOWERS_ONLY}`: Storm waives only 8.4.2.1; 8.4.3.1 keeps the leader out of reach this turn"
        ))
    } else if target == "leader" {
        Some(format!(
            "8.4.3.1 allows the leader only for a follower mastered since the start of the turn; Storm (12.9.1 \"can attack at once\") is read as waiving that too, otherwise it would equal Rush (flag `{STORM_FOLLOWERS_ONLY}`: it does not)"
        ))
    } else {
        None
    }
}

pub(super) fn declare_attack(
    m: &mut M,
    p: PlayerId,
    attacker: &str,
    target: Option<&str>,
) -> R<()> {
    let g = &m.game;
    let Some(c) = g.card(attacker) else {
        return Err(bad(format!("no card `{attacker}`")));
    };
    let attackers = legal_attackers(g);
    if c.zone != ZoneId::of(p, zn::FIELD) || !is_type(g, attacker, "follower") {
        return Err(illegal(
            r::ATTACKER,
            format!("{attacker} is not a follower on {}'s field", player_name(p)),
            texts(&attackers),
        ));
    }
    if c.has(st::ENGAGED) {
        return Err(illegal(
            r::ATTACKER,
            format!("{attacker} is engaged: only a reserved follower can attack"),
            texts(&attackers),
        ));
    }
    let continuous = !c.has(st::ARRIVED);
    let storm = has_kw(g, attacker, "storm");
    let rush = has_kw(g, attacker, "rush");
    let evolved = c.has(st::EVOLVED);
    let raced_rush = rush_only_by_race(g, attacker);
    if !(continuous || evolved || storm || rush) && raced_without_carrot(g, attacker) {
        // 14.2.3 item 1: Rush from racing lasts only while a carrot is
        // associated with the card.
        return Err(illegal(
            r::RACE,
            format!(
                "{attacker} raced, but no card associated with it is in the race area: it has no Rush (and has not been on {}'s field since the start of the turn)",
                player_name(p)
            ),
            texts(&attackers),
        ));
    }
    if !(continuous || evolved || storm || rush) {
        return Err(illegal(
            r::ATTACKER_LEGAL,
            format!(
                "{attacker} has not been on {}'s field since the start of the turn (no Storm or Rush, not evolved this turn)",
                player_name(p)
            ),
            texts(&attackers),
        ));
    }
    if let Some(source) = cant_attack(g, attacker) {
        return Err(refuse_attack(g, attacker, &source, texts(&attackers)));
    }
    let (legal, rule) = legal_targets(g, attacker);
    if legal.is_empty() {
        return Err(illegal(
            r::TARGET_NONE,
            format!("{attacker} has no legal attack target"),
            texts(&attackers),
        ));
    }
    let Some(t) = target else {
        return Err(EngineError::MissingChoice {
            choice: "target".into(),
            options: legal,
        });
    };
    if !legal.iter().any(|x| x == t) {
        let why = if t == "leader" && !continuous && !storm_reaches_leader(g, attacker) {
            (
                if rush && !storm {
                    r::RUSH
                } else {
                    r::TARGET_LEGAL
                },
                format!(
                    "{attacker} entered this turn: it can attack only engaged followers{}",
                    if storm {
                        format!(" (reading `{STORM_FOLLOWERS_ONLY}`: Storm waives 8.4.2.1 only)")
                    } else {
                        String::new()
                    }
                ),
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
        (AttackTarget::Follower(t.into()), g.cards[t].incarnation)
    };
    let a_inc = c.incarnation;
    let aura_target = t != "leader" && has_kw(g, t, "aura");
    let reserved_ward = field_followers(g, ntp)
        .iter()
        .any(|f| has_kw(g, f, "ward") && !g.cards[f].has(st::ENGAGED));
    // An engaged Ward follower that Intimidate keeps from being chosen: Ward
    // asks for it only "if possible" (12.8.2, 12.12.2).
    let shielded_ward: Vec<String> = field_followers(g, ntp)
        .into_iter()
        .filter(|f| {
            has_kw(g, f, "ward") && has_kw(g, f, "intimidate") && g.cards[&**f].has(st::ENGAGED)
        })
        .map(|f| f.to_string())
        .collect();
    let note = storm.then(|| storm_note(g, t)).flatten();
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
            if let Some(n) = note {
                e.note(n);
            }
        } else if rush {
            e.rule(r::RUSH);
            if raced_rush {
                e.rule(r::RACE);
                e.text
                    .push_str(" (Rush from racing: a carrot is associated with it)");
            }
        }
    }
    if rule == r::WARD {
        e.rule(r::WARD);
    } else if reserved_ward {
        // 12.8.2: only an engaged Ward follower must be chosen.
        e.rule(r::WARD);
        e.text
            .push_str("; a reserved Ward follower restricts nothing (12.8.2: engaged Ward only)");
    }
    if rule != r::WARD && !shielded_ward.is_empty() {
        e.rule(r::WARD).rule(r::INTIMIDATE);
        e.text.push_str(&format!(
            "; the engaged Ward follower {} has Intimidate and cannot be chosen, so Ward forces nothing (12.8.2: if possible)",
            shielded_ward.join(", ")
        ));
    }
    if aura_target {
        // 12.15.2 item 1: Aura forbids choosing by cards and abilities only.
        e.rule(r::AURA_ONLY_CHOOSING);
    }
    // A reserved (stand) follower is a legal target only through Assail.
    if t != "leader"
        && !m.game.card(t).is_some_and(|tc| tc.has(st::ENGAGED))
        && let Some(e) = m.trace.last_mut()
    {
        e.rule(r::ASSAIL);
        e.text
            .push_str(&format!("; {t} is reserved, a legal target through Assail"));
    }
    let declared = [
        Step::AttackEngage {
            attacker: attacker.into(),
        },
        Step::AttackEvent {
            attacker: attacker.into(),
            target: tgt.clone(),
        },
        Step::CheckTiming {
            at: r::ATTACK_CHECK_1,
            started: false,
        },
    ];
    m.then(declared.into_iter().chain(super::resume::from_quick_window(
        attacker, tgt, a_inc, t_inc,
    )));
    Ok(())
}

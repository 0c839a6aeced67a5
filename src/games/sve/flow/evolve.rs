//! Evolving (8.3, 12.2, 5.15).

use super::*;

/// 8.3 / 12.2 / 5.15: evolve `card` using evolve card `evo` from the evolve
/// deck area.
pub(super) fn evolve(m: &mut M, p: PlayerId, card: &str, evo: Option<&str>) -> R<()> {
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
    if g.own_ref::<SveState>().is_some_and(|s| s.evolve_used > 0) {
        return Err(illegal(
            r::EVOLVE_ONCE,
            "an Evolve ability has already been used this turn",
            legal_main(g),
        ));
    }
    let name = eff_def(g, card).map(|d| d.name.clone()).unwrap_or_default();
    let options: Vec<CardId> = g
        .zone_of(p, zn::EVOLVE_DECK)
        .iter()
        .filter(|e| !g.cards[*e].has(st::FACE_UP) && g.def_of(e).is_some_and(|d| d.name == name))
        .cloned()
        .collect();
    let Some(e) = evo else {
        return Err(EngineError::MissingChoice {
            choice: "target (the evolve card)".into(),
            options: texts(&options),
        });
    };
    if !options.iter().any(|x| x == e) {
        return Err(illegal(
            r::EVOLVE_ABILITY,
            format!(
                "`{e}` is not a face-down card named {name} in {}'s evolve deck area",
                player_name(p)
            ),
            texts(&options),
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
        &[
            r::ACTIVATE,
            r::EVOLVE_ONCE,
            r::EVOLVE_ABILITY,
            r::EVOLVE_PROPER_CARD,
            r::PP_COST,
        ],
    );
    rec.change(format!("{}.pp", player_name(p)), pp, pp - pp_cost);
    if use_ep {
        rec.rule(r::EVOLVE_EP);
        rec.change(format!("{}.ep", player_name(p)), ep, ep - 1);
        m.game.set_value(p, "ep", ep - 1);
    }
    m.game.own::<SveState>().evolve_used += 1;
    attach(m, p, card, e, &[r::EVOLVE_ABILITY]);
    m.then([
        Step::CheckTiming {
            at: r::MAIN_AFTER,
            started: false,
        },
        Step::AwaitMain,
    ]);
    Ok(())
}

/// 5.15.1: put evolve card `e` into `p`'s evolution area attached to
/// `card`; the "evolved" event (5.15.1.2) follows. The card keeps being the
/// same object (5.15.3).
fn attach(m: &mut M, p: PlayerId, card: &str, e: &str, why: &[&'static str]) {
    let before = m
        .game
        .cards
        .get(card)
        .map(|c| (attack(&m.game, c), defense(&m.game, c)))
        .unwrap_or((0, 0));
    mv(m, e, ZoneId::of(p, zn::EVOLUTION), false);
    if let Some(ec) = m.game.cards.get_mut(e) {
        ec.attached_to = Some(card.into());
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
    m.game.events.push(Event::Transformed { card: card.into() });
    let mut rules = vec![
        r::EVOLVE,
        r::EVOLVE_EVENT,
        r::EVOLVE_INFO,
        r::EVOLVE_SAME_OBJECT,
    ];
    rules.extend_from_slice(why);
    // 10.9.1.1.1: the evolve card's information is the new base; the
    // changes already on the card apply over it (10.9.1.4).
    let changed = m.game.card(card).is_some_and(|c| !c.modifiers.is_empty());
    if changed {
        rules.extend_from_slice(&[r::CONTINUOUS_EVOLVED_BASE, r::CONTINUOUS_NUMERIC_ORDER]);
    }
    // 5.24.3.2: a card that is not a follower (an amulet, or a follower an
    // effect made one) evolves too, and stays what it is.
    let not_follower = !is_type(&m.game, card, "follower");
    if not_follower {
        rules.push(r::TYPE_CHANGE_EVOLVE);
    }
    m.record(
        "evolve",
        format!(
            "{card} evolves into {e}: same object, damage kept, orientation kept{}{}",
            if changed {
                "; the evolve card's values are its new base, and the changes on it still apply"
            } else {
                ""
            },
            if not_follower {
                "; it is not a follower, and evolving does not make it one"
            } else {
                ""
            }
        ),
        &rules,
    )
    .obj(card)
    .change(format!("{card}.attack"), before.0, after.0)
    .change(format!("{card}.defense"), before.1, after.1);
}

/// 5.15.1.1: a card evolves by an effect (not the Evolve ability): its
/// master picks a face-down card of the same name in their evolve deck
/// area (choice `<this>.evolve` when there are several) and reveals it. No
/// cost is paid and the once-per-turn limit of 8.3.2, which counts only
/// abilities played through 8.3, is not used up.
pub(super) fn evolve_by_effect(m: &mut M, card: &str, this: &str) -> R<()> {
    let Some(c) = m.game.card(card).cloned() else {
        return Ok(());
    };
    if c.zone.kind != zn::FIELD {
        m.record(
            "effect.evolve",
            format!("{card} is not on the field: it does not evolve"),
            &[r::EVOLVE, r::IMPOSSIBLE],
        );
        return Ok(());
    }
    let p = c.controller;
    let name = eff_def(&m.game, card)
        .map(|d| d.name.clone())
        .unwrap_or_default();
    let options: Vec<CardId> = m
        .game
        .zone_of(p, zn::EVOLVE_DECK)
        .iter()
        .filter(|e| {
            !m.game.cards[*e].has(st::FACE_UP) && m.game.def_of(e).is_some_and(|d| d.name == name)
        })
        .cloned()
        .collect();
    let e = match options.len() {
        0 => {
            m.record(
                "effect.evolve",
                format!(
                    "{} has no face-down card named {name} in their evolve deck area: {card} does not evolve",
                    player_name(p)
                ),
                &[r::EVOLVE_BY_EFFECT, r::FACE_UP_NOT_IN_DECK, r::IMPOSSIBLE],
            );
            return Ok(());
        }
        1 => options[0].clone(),
        _ => {
            let k = format!("{this}.evolve");
            m.choices.exactly(&k, &options, 1)?.remove(0)
        }
    };
    m.record(
        "effect.evolve",
        format!(
            "{card} evolves by an effect: {} reveals {e}; no PP or EP is paid and the Evolve-or-Feed limit is not used",
            player_name(p)
        ),
        &[r::EVOLVE_BY_EFFECT, r::EVOLVE_ONCE],
    )
    .obj(card);
    attach(m, p, card, &e, &[r::EVOLVE_BY_EFFECT]);
    Ok(())
}

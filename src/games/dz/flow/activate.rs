//! Activating a card's activated ability (起動型能力, 4.3): 「［コスト］
//! 《タイミング》 効果」 (4.3.1), by the card's controller only (4.3.2), at
//! its timing (4.3.4), through the steps of 4.7.2: announced (4.7.2-1),
//! targets chosen (4.7.2-5; none legal, it can't be activated), the cost
//! fixed (4.7.2-7) and every part paid at once (4.7.2-8); the ability goes
//! on the stack and has been activated (4.7.2-9).
//!
//! Written as an ability with trigger `activated`: its energy cost is the
//! card's stats `act_red` … `act_green` and `act` (colourless), its timing
//! the card's text `act_timing` (`normal` by default, `quick`, `battle`);
//! its `cost` list holds the other parts of the cost: `set_state` `frozen`
//! on `this` (「このカードをフリーズする」) and `put` `this` into the
//! `graveyard` (「このカードを廃棄する」). The text of a unit or base works
//! only on a square (2.10.3). The action is `activate` with `card`, the
//! choice `ability` (its index among the card's abilities) when the card
//! has several activated ones, `targets` and `pay` as for playing a card.

use crate::engine::{Action, Effect, EngineError, PlayerId, Target, player_name};

use super::{
    Entry, Kind, M, board, cost, dz, illegal, label, moves, ni, play, r, targets, text, zone_effect,
};

/// The trigger word of an activated ability.
pub const ACTIVATED: &str = "activated";

/// The activated abilities `p` could try now, for "legal instead" lists.
fn activatable(m: &M, p: PlayerId) -> Vec<String> {
    board::on_squares(&m.game)
        .into_iter()
        .filter(|id| m.game.card(id).is_some_and(|c| c.controller == p))
        .filter(|id| {
            m.game
                .def_of(id)
                .is_some_and(|d| d.abilities.iter().any(|a| a.trigger == ACTIVATED))
        })
        // Only those whose timing allows it now (3.8.1–3.8.4).
        .filter(|id| {
            let timing = text(&m.game, id, "act_timing").unwrap_or("normal");
            play::check_timing(m, p, timing, "", Vec::new()).is_ok()
        })
        .map(|id| format!("activate {id}"))
        .chain(std::iter::once("pass".to_string()))
        .collect()
}

/// The action of its timing that activating an ability with timing
/// `timing` is (3.8.2-2 Normal, 3.8.3-2 Quick, 3.8.4-2 Battle).
fn timing_action(timing: &str) -> &'static str {
    match timing {
        "quick" => r::QUICK_ABILITY,
        "battle" => r::BATTLE_ABILITY,
        _ => r::NORMAL_ABILITY,
    }
}

/// The index of the activated ability `a` names on `card`.
fn which(m: &mut M, card: &str, a: &Action) -> Result<usize, EngineError> {
    let def = m.game.def_of(card);
    let indices: Vec<usize> = def
        .map(|d| {
            d.abilities
                .iter()
                .enumerate()
                .filter(|(_, ab)| ab.trigger == ACTIVATED)
                .map(|(i, _)| i)
                .collect()
        })
        .unwrap_or_default();
    let named = m.choices.take("ability").and_then(|v| v.as_u64());
    match (named, indices.as_slice()) {
        (_, []) => Err(illegal(
            r::ACTIVATED,
            format!("{card} has no activated ability (「［コスト］ 《タイミング》 効果」)"),
            activatable(m, a.player.unwrap_or(m.game.turn.active)),
        )),
        (None, [one]) => Ok(*one),
        (None, _) => Err(super::bad(format!(
            "{card} has several activated abilities: name one with the choice `ability` ({indices:?})"
        ))),
        (Some(i), _) if indices.contains(&(i as usize)) => Ok(i as usize),
        (Some(i), _) => Err(super::bad(format!(
            "ability {i} of {card} is not an activated ability ({indices:?})"
        ))),
    }
}

/// Refuses a cost part the module does not implement.
pub fn refuse(key: &str, costs: &[Effect]) -> Result<(), EngineError> {
    for c in costs {
        let ok = match c {
            // 合成 (6.4.1): cards of a stated kind in a stated zone put
            // into their owner's graveyard, chosen with `synthesis`.
            Effect::Put {
                to,
                target: Some(Target::Chosen { filter, .. }),
                top: None,
                ..
            } => to == "graveyard" && filter.zone.is_some(),
            Effect::SetState {
                state,
                clear: false,
                target: Target::This,
            } => state == super::FROZEN,
            Effect::Put {
                to,
                target: Some(Target::This),
                top: None,
                ..
            } => to == "graveyard",
            _ => false,
        };
        if !ok {
            return Err(ni(
                r::ACTIVATED,
                format!(
                    "card `{key}`: an activated ability's cost part `{}` (implemented: freezing or discarding this card, and energy)",
                    c.word()
                ),
            ));
        }
    }
    Ok(())
}

/// Activates the ability of `a.card` for `p`.
pub fn activate(m: &mut M, p: PlayerId, a: &Action) -> Result<(), EngineError> {
    let card = a
        .card
        .clone()
        .ok_or_else(|| super::bad("`activate` needs `card`"))?;
    let alts = activatable(m, p);
    let Some(c) = m.game.card(&card).cloned() else {
        return Err(super::bad(format!("no card `{card}`")));
    };
    if !zone_effect::text_works(&m.game, &c) {
        let (rule, why) = match zone_effect::zone(&m.game, &card) {
            Some(z) => (
                r::ZONE_EFFECT_ELSEWHERE,
                format!("its text is a {z}-zone effect, working only in the {z} zone"),
            ),
            None => (
                r::TEXT_ON_SQUARE,
                "a unit's or base's text works only on a square".to_string(),
            ),
        };
        return Err(illegal(
            rule,
            format!("{card} is in the {} zone: {why}", c.zone.kind),
            alts,
        ));
    }
    if c.controller != p {
        return Err(illegal(
            r::ACTIVATED_CONTROLLER,
            format!(
                "{card} is controlled by {}: only a card's controller activates its abilities",
                player_name(c.controller)
            ),
            alts,
        ));
    }
    let ability = which(m, &card, a)?;
    let timing = text(&m.game, &card, "act_timing")
        .unwrap_or("normal")
        .to_string();
    let what = format!("activating the ability of {}", label(&m.game, &card));
    play::check_timing(m, p, &timing, &what, alts.clone())
        .map_err(|e| with_rule(e, r::ACTIVATED_TIMING))?;
    let costs = m
        .game
        .def_of(&card)
        .map(|d| d.abilities[ability].cost.clone());
    let costs = costs.unwrap_or_default();
    // A cost that can't be paid: the ability can't be activated (4.3.1).
    if costs.iter().any(|e| matches!(e, Effect::SetState { .. })) && c.has(super::FROZEN) {
        return Err(illegal(
            r::ACTIVATED,
            format!("{card} is frozen: the cost 「このカードをフリーズする」 can't be paid"),
            alts,
        ));
    }
    let def = c.def.clone();
    let effects = m.game.ability_effects(&def, ability);
    m.record(
        "activate",
        format!(
            "{} activates the ability of {} ({timing} timing)",
            player_name(p),
            label(&m.game, &card)
        ),
        &[
            r::ACTIVATED,
            r::ACTIVATED_TIMING,
            timing_action(&timing),
            r::ANNOUNCE,
        ],
    )
    .obj(card.clone());
    if let (Some(flash), Some(e)) = (play::flash_move(&m.game), m.trace.last_mut()) {
        e.text.push_str(&format!(
            " (the move of {flash} with 閃光 is on the stack: it stops plays of cards, not abilities)"
        ));
        e.rules.push(r::FLASH);
    }
    let Some(tg) = targets::choose_for(m, p, &card, &effects, "targets")? else {
        return Err(illegal(
            r::TARGETS,
            format!("the ability of {card} has no legal target, so it can't be activated"),
            alts,
        ));
    };
    let synthesis = synthesis_cards(m, p, &card, &costs)?;
    let energy = cost::Cost::of(m, &card, "act_");
    m.record(
        "pay",
        format!(
            "{} pays {}{} for the ability of {card}, all at once",
            player_name(p),
            if energy.total() > 0 {
                energy.text()
            } else {
                "no energy".to_string()
            },
            if costs.is_empty() {
                String::new()
            } else {
                format!(
                    " and {}",
                    costs.iter().map(cost_text).collect::<Vec<_>>().join(", ")
                )
            }
        ),
        &[r::COST_LOCKED, r::PAY_AT_ONCE],
    );
    if energy.total() > 0 {
        cost::pay(m, p, &energy, &card)?;
    }
    for part in &costs {
        pay_part(m, &card, part, &synthesis);
    }
    dz(&mut m.game).stack.push(Entry {
        controller: p,
        kind: Kind::Ability {
            source: card.clone(),
            source_inc: c.incarnation,
            def: def.into(),
            ability,
            trigger: ACTIVATED.to_string(),
            targets: tg,
            event_square: None,
        },
    });
    m.record(
        "activated",
        format!("the ability of {card} has been activated; AP receives priority"),
        &[r::PLAYED, r::PRIORITY_PASS],
    );
    Ok(())
}

/// A cost part as the trace says it.
fn cost_text(e: &Effect) -> String {
    match e {
        Effect::SetState { .. } => "freezing this card".into(),
        Effect::Put {
            target: Some(Target::Chosen { .. }),
            ..
        } => "合成 (the chosen cards to their owners' graveyards)".into(),
        _ => "discarding this card (to its owner's graveyard)".into(),
    }
}

/// The cards a 合成 cost puts into the graveyard (6.4.1): the choice
/// `synthesis` names them; each must be of the kind and in the zone the
/// cost states, and there must be exactly as many as it asks for, or the
/// cost can't be paid and the ability can't be activated (4.3.1).
fn synthesis_cards(
    m: &mut M,
    p: PlayerId,
    card: &str,
    costs: &[Effect],
) -> Result<Vec<String>, EngineError> {
    let Some((filter, count)) = costs.iter().find_map(|e| match e {
        Effect::Put {
            target: Some(Target::Chosen { filter, count, .. }),
            ..
        } => Some((filter, *count as usize)),
        _ => None,
    }) else {
        return Ok(Vec::new());
    };
    let options = targets::candidates(&m.game, p, card, &[], filter);
    let named: Vec<String> = match m.choices.take("synthesis") {
        Some(serde_json::Value::String(s)) => vec![s],
        Some(serde_json::Value::Array(v)) => v
            .iter()
            .filter_map(|x| x.as_str().map(str::to_string))
            .collect(),
        _ => Vec::new(),
    };
    if named.len() != count || named.iter().any(|n| !options.iter().any(|o| o == n)) {
        return Err(illegal(
            r::SYNTHESIS,
            format!(
                "合成 needs {count} card(s) of the stated kind in the stated zone (choice `synthesis`; can be: {})",
                if options.is_empty() {
                    "none".to_string()
                } else {
                    options.join(", ")
                }
            ),
            activatable(m, p),
        ));
    }
    Ok(named)
}

/// Pays one non-energy part of the cost. Discarding the card goes through
/// replacement effects like any other move to the graveyard: a replaced
/// discard still counts as paid (4.15.5).
fn pay_part(m: &mut M, card: &str, part: &Effect, synthesis: &[String]) {
    match part {
        Effect::Put {
            target: Some(Target::Chosen { .. }),
            ..
        } => {
            m.record(
                "synthesis",
                format!(
                    "合成: {} put into their owners' graveyards as the cost of {card}'s ability",
                    synthesis.join(", ")
                ),
                &[r::SYNTHESIS, r::SYNTHESIS_ABILITY],
            );
            for id in synthesis {
                moves::to_owner_zone(m, id, "graveyard", true);
            }
        }
        Effect::SetState { .. } => {
            if let Some(c) = m.game.cards.get_mut(card) {
                c.states.insert(super::FROZEN.into());
            }
            if let Some(e) = m.trace.last_mut() {
                e.change(format!("{card}.state"), "released", "frozen");
            }
        }
        _ => {
            moves::to_owner_zone(m, card, "graveyard", true);
            let went = m
                .game
                .card(card)
                .map(|c| c.zone.kind)
                .unwrap_or("graveyard");
            if went != "graveyard" {
                m.record(
                    "pay",
                    format!(
                        "{card} went to the {went} zone instead of the graveyard: the cost counts as paid all the same"
                    ),
                    &[r::REPLACED_COST_PAID],
                );
            }
        }
    }
}

/// An illegal-timing rejection cites 4.3.4 first, the timing clause after.
pub(super) fn with_rule(e: EngineError, rule: &'static str) -> EngineError {
    match e {
        EngineError::Illegal {
            rule: old,
            also,
            message,
            alternatives,
        } => EngineError::Illegal {
            rule,
            also,
            message: format!("{message} ({old})"),
            alternatives,
        },
        other => other,
    }
}

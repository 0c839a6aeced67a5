//! Playing an activated ability (8.3.1, 10.6.2): specify it, choose its
//! targets, pay its cost (10.4), resolve it (10.6.2.8.2).

use super::*;

/// The activated abilities (trigger `activated`) of `card`, by index.
fn activated(g: &Game, card: &str) -> Vec<usize> {
    eff_def(g, card)
        .map(|d| {
            d.abilities
                .iter()
                .enumerate()
                .filter(|(_, a)| a.trigger == "activated")
                .map(|(i, _)| i)
                .collect()
        })
        .unwrap_or_default()
}

/// Activated abilities the turn player may play now (8.3.1).
pub(super) fn legal_activations(g: &Game) -> Vec<String> {
    let tp = g.turn.active;
    g.zone_of(tp, zn::FIELD)
        .iter()
        .filter(|id| !activated(g, id).is_empty())
        .map(|id| format!("activate {id}"))
        .collect()
}

/// 8.3.1: the turn player plays an activated ability of a follower or
/// amulet on their field. With several, the choice `<card>.activate`
/// (1-based) names which.
pub(super) fn activate(m: &mut M, p: PlayerId, card: &str) -> R<()> {
    let alts = legal_main(&m.game);
    let Some(c) = m.game.card(card).cloned() else {
        return Err(bad(format!("no card `{card}`")));
    };
    if c.zone != ZoneId::of(p, zn::FIELD) {
        return Err(illegal(
            r::ACTIVATE,
            format!(
                "{card} is in {}: only abilities of followers and amulets on {}'s field can be played",
                c.zone,
                player_name(p)
            ),
            alts,
        ));
    }
    let list = activated(&m.game, card);
    let ability = match list.len() {
        0 => {
            return Err(illegal(
                r::ACTIVATE,
                format!("{card} has no activated ability"),
                alts,
            ));
        }
        1 => list[0],
        n => {
            let options: Vec<String> = (1..=n).map(|i| i.to_string()).collect();
            let k = format!("{card}.activate");
            let v = m.choices.require(&k, &options)?;
            match v.as_u64().map(|i| i as usize) {
                Some(i) if (1..=n).contains(&i) => list[i - 1],
                _ => {
                    return Err(EngineError::BadChoice {
                        choice: k,
                        value: v.to_string(),
                        options,
                    });
                }
            }
        }
    };
    let def = eff_def_key(&m.game, card).unwrap_or_default();
    let Some(ab) = m.game.ability(&def, ability).cloned() else {
        return Err(bad(format!("`{card}` has no ability {ability}")));
    };
    m.record(
        "activate.specify",
        format!("{} plays an activated ability of {card}", player_name(p)),
        &[r::ACTIVATE, r::PLAY_SPECIFY, r::ACTIVATED_MASTER],
    )
    .obj(card);
    // 10.6.2.3 targets, then 10.6.2.5 the cost, all or none (10.4.2.2).
    let key = format!("{card}.activated");
    let targets = choose_targets(m, &def, ability, card, p, &key)?;
    pay_costs(m, p, card, &ab.cost)?;
    m.record(
        "ability.resolve",
        format!("{key} resolves"),
        &[r::RESOLVE_TEXT],
    )
    .obj(card);
    run_effects(m, &def, ability, card, p, targets, &key)?;
    m.then([
        Step::CheckTiming {
            at: r::MAIN_AFTER,
            started: false,
        },
        Step::AwaitMain,
    ]);
    Ok(())
}

/// 10.4.2: the cost actions, in order; any impossible part makes the play
/// illegal (10.4.2.2, 10.6.2.5.3), and the driver rewinds it.
fn pay_costs(m: &mut M, p: PlayerId, card: &str, cost: &[Effect]) -> R<()> {
    let alts = legal_main(&m.game);
    for e in cost {
        match e {
            Effect::PayCost {
                amount: Some(crate::engine::card::Num::Int(n)),
                life: None,
                optional: false,
                ..
            } => {
                let pp = m.game.value(p, "pp");
                let n = (*n).max(0);
                if pp < n {
                    return Err(illegal(
                        r::PLAY_COST_UNPAID,
                        format!("the cost asks {n} PP and {} has {pp}", player_name(p)),
                        alts,
                    ));
                }
                set_value(
                    m,
                    p,
                    "pp",
                    pp - n,
                    "activate.cost",
                    &[r::PP_COST, r::PLAY_COST, r::COST_PAYMENT, r::COST_IN_ORDER],
                );
            }
            Effect::SetState {
                state,
                clear: false,
                target: Target::This,
            } if state == st::ENGAGED => {
                // 10.4.6: engage this reserved card; possible the turn it
                // entered the field (10.4.6.1).
                if m.game.card(card).is_some_and(|c| c.has(st::ENGAGED)) {
                    return Err(illegal(
                        r::ACT_COST,
                        format!("{card} is already engaged: its act cost cannot be paid"),
                        alts,
                    ));
                }
                let arrived = m.game.card(card).is_some_and(|c| c.has(st::ARRIVED));
                if let Some(c) = m.game.cards.get_mut(card) {
                    c.states.insert(st::ENGAGED.into());
                }
                let e = m.record(
                    "activate.cost",
                    format!("{card} is engaged to pay the cost"),
                    &[r::ACT_COST, r::PLAY_COST, r::COST_PAYMENT, r::COST_IN_ORDER],
                );
                e.change(format!("{card}.engaged"), false, true);
                if arrived {
                    e.rule(r::ACT_COST_SAME_TURN);
                    e.text.push_str(" (allowed the turn it entered the field)");
                }
            }
            Effect::AddCounter {
                counter,
                amount,
                target: Target::This,
            } if *amount < 0 => {
                let have = m
                    .game
                    .card(card)
                    .and_then(|c| c.counters.get(counter).copied())
                    .unwrap_or(0);
                if have < -amount {
                    return Err(illegal(
                        r::COST_BOUND,
                        format!(
                            "{card} has {have} {counter} counter(s); the cost removes {}",
                            -amount
                        ),
                        alts,
                    ));
                }
                if let Some(c) = m.game.cards.get_mut(card) {
                    c.counters.insert(counter.clone(), have + amount);
                }
                m.record(
                    "activate.cost",
                    format!("{card}: {counter} counters {have} → {}", have + amount),
                    &[
                        r::COST_OTHER_NUMBER,
                        r::PLAY_COST,
                        r::COST_PAYMENT,
                        r::COST_IN_ORDER,
                    ],
                )
                .change(format!("{card}.counters.{counter}"), have, have + amount);
            }
            Effect::Put {
                to,
                target: Some(Target::This),
                top: None,
                ..
            } if to == zn::CEMETERY => {
                let owner = m.game.cards[card].owner;
                m.record(
                    "activate.cost",
                    format!("{card} is put into its owner's cemetery to pay the cost"),
                    &[r::PLAY_COST, r::PUT, r::COST_PAYMENT, r::COST_IN_ORDER],
                )
                .obj(card);
                mv(m, card, ZoneId::of(owner, zn::CEMETERY), false);
            }
            other => {
                return Err(EngineError::NotImplemented {
                    clause: r::COST_PAYMENT,
                    what: format!("the cost action `{}` of {card}'s ability", other.word()),
                });
            }
        }
    }
    Ok(())
}

/// The cost actions [`pay_costs`] implements: PP (`pay_cost` with a number),
/// engaging this card (`set_state` engaged on `this`), removing counters
/// from it (`add_counter` with a negative amount on `this`), putting it
/// into the cemetery (`put` to `cemetery` of `this`).
pub(super) fn supported_cost(e: &Effect) -> bool {
    match e {
        Effect::PayCost {
            amount: Some(crate::engine::card::Num::Int(_)),
            life: None,
            optional: false,
            ..
        } => true,
        Effect::SetState {
            state,
            clear: false,
            target: Target::This,
        } => state == st::ENGAGED,
        Effect::AddCounter {
            amount,
            target: Target::This,
            ..
        } => *amount < 0,
        Effect::Put {
            to,
            target: Some(Target::This),
            top: None,
            ..
        } => to == zn::CEMETERY,
        _ => false,
    }
}

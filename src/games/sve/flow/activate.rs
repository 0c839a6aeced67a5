//! Playing an activated ability (8.3.1, 10.6.2): specify it, choose its
//! targets, pay its cost (10.4), resolve it (10.6.2.8.2).

use super::*;

/// The trigger word of an activated ability with Quick (Ⓠ, 12.3.3): it
/// may also be played in the opponent's Quick windows (12.3.4).
pub(super) const QUICK_ACTIVATED: &str = "quick_activated";

/// The activated abilities of `card`, each as the definition holding it,
/// its index there and whether it has Quick (trigger `activated` or
/// [`QUICK_ACTIVATED`]): its own (printed, or its evolve card's) first,
/// then those effects gave it (10.9.1.2), in the order they were given.
fn activated(g: &Game, card: &str) -> Vec<(String, usize, bool)> {
    let own = eff_def_key(g, card).unwrap_or_default();
    let mut out: Vec<(String, usize, bool)> = eff_def(g, card)
        .map(|d| {
            d.abilities
                .iter()
                .enumerate()
                .filter(|(_, a)| ["activated", QUICK_ACTIVATED, FEED].contains(&a.trigger.as_str()))
                .map(|(i, a)| (own.to_string(), i, a.trigger == QUICK_ACTIVATED))
                .collect()
        })
        .unwrap_or_default();
    for k in given_now(g, card) {
        if let Some(a) = g.ability(&k, 0)
            && ["activated", QUICK_ACTIVATED].contains(&a.trigger.as_str())
        {
            let quick = a.trigger == QUICK_ACTIVATED;
            out.push((k, 0, quick));
        }
    }
    out
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

/// Quick activated abilities `p` may play in a Quick window (7.4.5, 8.4.7).
pub(super) fn quick_activations(g: &Game, p: PlayerId) -> Vec<String> {
    g.zone_of(p, zn::FIELD)
        .iter()
        .filter(|id| activated(g, id).iter().any(|(_, _, q)| *q))
        .map(|id| format!("activate {id}"))
        .collect()
}

/// 8.3.1: a player plays an activated ability of a follower or amulet on
/// their field: the turn player in their main phase, or, with Quick
/// (12.3.3), the non-turn player in `window` (7.4.5, 8.4.7). With several,
/// the choice `<card>.activate` (1-based among the card's activated
/// abilities) names which. The caller schedules what follows.
pub(super) fn activate(m: &mut M, p: PlayerId, card: &str, window: Option<Window>) -> R<()> {
    let alts = |g: &Game| match window {
        Some(_) => quick_options(g, p),
        None => legal_main(g),
    };
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
            alts(&m.game),
        ));
    }
    let (def, ability, quick) = which_ability(m, card, window, alts(&m.game))?;
    let Some(ab) = m.game.ability(&def, ability).cloned() else {
        return Err(bad(format!("`{card}` has no ability {ability}")));
    };
    let is_feed = ab.trigger == FEED;
    if is_feed {
        check_once_per_turn(&m.game, alts(&m.game))?;
    }
    let e = m.record(
        "activate.specify",
        format!("{} plays an activated ability of {card}", player_name(p)),
        &[r::ACTIVATE, r::PLAY_SPECIFY, r::ACTIVATED_MASTER],
    );
    e.obj(card);
    if is_given(&def) {
        e.rule(r::CONTINUOUS_ABILITIES);
        e.text.push_str(&format!(
            " (an ability an effect gave it: {})",
            in_words(&ab)
        ));
    }
    if quick {
        e.rule(r::QUICK_ACTIVATED);
        match window {
            Some(w) => e.rule(r::QUICK_WINDOWS).rule(window_rule(w)),
            None => e.rule(r::QUICK_OWN_TURN),
        };
    }
    // 10.6.2.2.1 Earth Rite, 10.6.2.3 targets, then 10.6.2.5 the cost,
    // all or none (10.4.2.2).
    let earth = earth_rite::decide(m, p, card, &def, &[ability], alts(&m.game))?;
    x_value::decide(m, p, card, &def, &[ability])?;
    let key = format!("{card}.activated");
    let targets = choose_targets(m, &def, ability, card, p, &key)?;
    pay_costs(m, p, card, &ab.cost, alts(&m.game), is_feed)?;
    if is_feed {
        m.game.own::<SveState>().evolve_used += 1;
        if let Some(e) = m.trace.last_mut() {
            e.rule(r::EVOLVE_ONCE);
        }
    }
    if let Some(a) = earth {
        earth_rite::pay(m, &a);
    }
    m.record(
        "ability.resolve",
        format!("{key} resolves"),
        &[r::RESOLVE_TEXT],
    )
    .obj(card);
    if optional::may(m, &def, ability, card, p, &key)? {
        run_effects(m, &def, ability, card, p, targets, &key)?;
    }
    earth_rite::end(m);
    x_value::end(m);
    Ok(())
}

/// Which activated ability of `card` is played, and whether it has Quick:
/// the choice `<card>.activate` (1-based among its activated abilities),
/// needed only when more than one may be played now. In a Quick window only
/// a Quick one may (12.3.3, 12.3.4).
fn which_ability(
    m: &mut M,
    card: &str,
    window: Option<Window>,
    alts: Vec<String>,
) -> R<(String, usize, bool)> {
    let list = activated(&m.game, card);
    let usable: Vec<usize> = (0..list.len())
        .filter(|i| window.is_none() || list[*i].2)
        .collect();
    // 【スタック】's third ability (13.3.2 item 2: ◇⤵▭, move all of this
    // card's stack counters to another Stack amulet) is not modelled: an
    // `activate` of a Stack card that names no printed ability of it would
    // otherwise be rejected as if the card had none.
    let beyond_printed = m
        .choices
        .peek(&format!("{card}.activate"))
        .and_then(Value::as_u64)
        .is_some_and(|i| i as usize > list.len());
    if has_kw(&m.game, card, "stack") && (list.is_empty() || beyond_printed) {
        return Err(EngineError::not_implemented(
            r::STACK_ABILITIES,
            format!(
                "{card}'s Stack ability that moves its stack counters to another Stack amulet (◇⤵▭)"
            ),
        ));
    }
    if list.is_empty() {
        return Err(illegal(
            r::ACTIVATE,
            format!("{card} has no activated ability"),
            alts,
        ));
    }
    let not_quick = |alts| {
        illegal(
            r::QUICK_ACTIVATED,
            format!(
                "that ability of {card} has no Quick: it cannot be played in the opponent's turn"
            ),
            alts,
        )
    };
    let k = format!("{card}.activate");
    let options: Vec<String> = (1..=list.len()).map(|i| i.to_string()).collect();
    let n = match m.choices.take(&k) {
        None if usable.len() == 1 => usable[0],
        None if usable.is_empty() => return Err(not_quick(alts)),
        None => m.choices.require(&k, &options).map(|_| 0)?,
        Some(v) => match v.as_u64().map(|i| i as usize) {
            Some(i) if usable.contains(&i.wrapping_sub(1)) => i - 1,
            Some(i) if (1..=list.len()).contains(&i) => return Err(not_quick(alts)),
            _ => {
                return Err(EngineError::BadChoice {
                    choice: k,
                    value: v.to_string(),
                    options,
                });
            }
        },
    };
    Ok(list[n].clone())
}

/// 10.4.2: the cost actions, in order; any impossible part makes the play
/// illegal (10.4.2.2, 10.6.2.5.3), and the driver rewinds it.
pub(super) fn pay_costs(
    m: &mut M,
    p: PlayerId,
    card: &str,
    cost: &[Effect],
    alts: Vec<String>,
    feed: bool,
) -> R<()> {
    for (i, e) in cost.iter().enumerate() {
        match pay_one(m, p, card, e, &alts, feed) {
            // 10.4.2.2: a part that cannot be paid after others were: the
            // cost is paid all or none, and the driver undoes the rest.
            Err(EngineError::Illegal {
                message,
                alternatives,
                ..
            }) if i > 0 => {
                return Err(illegal(
                    r::COST_ALL_OR_NONE,
                    format!(
                        "{message}; the parts already paid are undone: a cost is paid all or none"
                    ),
                    alternatives,
                ));
            }
            other => other?,
        }
    }
    Ok(())
}

/// One cost action of [`pay_costs`].
/// `feed`: the ability is a Feed ability, whose PP may be paid in part
/// with EP (14.2.2 item 4).
fn pay_one(m: &mut M, p: PlayerId, card: &str, e: &Effect, alts: &[String], feed: bool) -> R<()> {
    let alts = alts.to_vec();
    match e {
        Effect::PayCost {
            amount: Some(num),
            life: None,
            optional: false,
            ..
        } if supported_cost(e) => {
            let pp = m.game.value(p, "pp");
            // 5.2.1: a PP symbol in text is PP: its number (5.2.1.1), or
            // the X decided as the ability was played (5.2.1.2.2).
            let (n, symbol) = match num {
                crate::engine::card::Num::Int(n) => (*n, r::PP_IN_TEXT_NUMBER),
                _ => (x_value::value(&m.game), r::X_CHOSEN_AT_PLAY),
            };
            let n = n.max(0);
            let use_ep = feed && ep_for_one_pp(m, p, n)?;
            if use_ep {
                let ep = m.game.value(p, "ep");
                let e = m.record(
                    "activate.cost",
                    format!("1 EP pays 1 of the {n} PP"),
                    &[r::FEED_EP],
                );
                e.change(format!("{}.ep", player_name(p)), ep, ep - 1);
                m.game.set_value(p, "ep", ep - 1);
            }
            let n = n - i64::from(use_ep);
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
                &[
                    r::PP_COST,
                    r::PLAY_COST,
                    r::COST_PAYMENT,
                    r::COST_IN_ORDER,
                    r::PP_IN_TEXT,
                    symbol,
                ],
            );
            // 10.4.4.1 changes the PP of playing a card; an activated
            // ability is not a card played (the non-event a judge is asked).
            let changes = permanent_effects(&m.game)
                .iter()
                .any(|(_, _, e)| matches!(e, Effect::ModifyCost { .. } | Effect::SetCost { .. }));
            if changes && let Some(e) = m.trace.last_mut() {
                e.rule(r::COST_CHANGE);
                e.text.push_str(
                    " (cost changes for playing cards do not apply: playing an activated ability is not playing a card)",
                );
            }
            if n == 0
                && let Some(e) = m.trace.last_mut()
            {
                e.rule(r::COST_ZERO_DONE);
                e.text
                    .push_str(" (0 PP: nothing is paid, and the part counts as done)");
            }
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
            target: None,
            top: Some(n),
            ..
        } if to == zn::RACE => feed_times(m, p, card, (*n).max(0) as usize, alts)?,
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
        e if is_lesson(e) => lesson(m, p, card, e, alts)?,
        other => {
            return Err(EngineError::NotImplemented {
                clause: r::COST_PAYMENT,
                what: format!("the cost action `{}` of {card}'s ability", other.word()),
            });
        }
    }
    Ok(())
}

/// The cost actions [`pay_costs`] implements: PP (`pay_cost` with a number
/// or `"X"`),
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
        e if x_value::is_x_cost(e) => true,
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
            yours: false,
            ..
        } => to == zn::CEMETERY,
        Effect::Put {
            to,
            target: None,
            top: Some(_),
            yours: false,
            ..
        } => to == zn::RACE,
        e => is_lesson(e),
    }
}

//! Carrying out a resolving spell's or ability's effects in printed order
//! (4.9.2-3): damage (耐性 checked when it resolves, 5.17.3), destroy,
//! exile to the remove zone, return to hand, draw, power changes, release
//! and freeze, shuffles, and winning or losing.

use crate::engine::state::Modifier;
use crate::engine::{CardId, Effect, EngineError, PlayerId, Target, Who, player_name, texts};

use super::{Chosen, FROZEN, M, Tgt, board, colours, game_over, label, moves, ni, put, r, targets};

/// Who the effects are for.
pub struct Ctx<'a> {
    pub controller: PlayerId,
    /// The source card (the spell, or the ability's card; last-known
    /// information when it has left, 4.9.2-6).
    pub source: &'a str,
    pub source_colours: Vec<&'static str>,
}

/// The cards an effect applies to: its legal chosen targets, every card
/// matching `all`, or the source itself.
fn recipients(m: &M, cx: &Ctx<'_>, t: &Target, chosen: Option<&Vec<Tgt>>) -> Vec<CardId> {
    match t {
        Target::This => m
            .game
            .card(cx.source)
            .filter(|c| board::is_square(c.zone.kind) || board::is_base(c.zone.kind))
            .map(|c| vec![c.id.clone()])
            .unwrap_or_default(),
        Target::Chosen { filter, .. } => chosen
            .map(|ts| {
                // 耐性 keeps a card from being a target (5.17.2), not from
                // being chosen otherwise (4.11.1).
                let cols: &[&str] = if t.untargeted() {
                    &[]
                } else {
                    &cx.source_colours
                };
                targets::legal_group(&m.game, cx.controller, cx.source, cols, filter, ts)
            })
            .unwrap_or_default(),
        Target::All { filter } => {
            targets::candidates(&m.game, cx.controller, cx.source, &[], filter)
        }
        _ => Vec::new(),
    }
}

/// The players `who` names, AP first (1.1.4).
fn players(m: &M, cx: &Ctx<'_>, who: Who) -> Vec<PlayerId> {
    m.game.who(cx.controller, who)
}

/// Carries out a replacement effect's `effects` instead of the event
/// (4.15.2), with `this` = the card the event was about. The effects that
/// could fail at run time are refused before the run
/// (`rule_effects::refuse`); should one fail all the same, the trace says
/// so rather than hide it.
pub fn instead(
    m: &mut M,
    controller: PlayerId,
    this: &str,
    source_colours: Vec<&'static str>,
    effects: &[Effect],
) {
    let cx = Ctx {
        controller,
        source: this,
        source_colours,
    };
    if let Err(e) = apply(m, &cx, effects, &[]) {
        m.record(
            "replacement",
            format!("the replacement effect failed: {e}"),
            &[r::REPLACEMENT],
        );
    }
}

/// Applies `effects` in order; `chosen[i]` holds effect i's targets.
pub fn apply(
    m: &mut M,
    cx: &Ctx<'_>,
    effects: &[Effect],
    chosen: &[Option<Chosen>],
) -> Result<(), EngineError> {
    super::target_place::begin(m, cx.controller, cx.source, effects, chosen);
    let out = apply_in_order(m, cx, effects, chosen);
    super::target_place::end(m);
    out
}

/// [`apply`]'s instructions one by one; 「ターン終了時、…」 creates its
/// ability for the cards the instruction before it acted on.
fn apply_in_order(
    m: &mut M,
    cx: &Ctx<'_>,
    effects: &[Effect],
    chosen: &[Option<Chosen>],
) -> Result<(), EngineError> {
    let mut done = true;
    let mut acted_on: Vec<CardId> = Vec::new();
    for (i, e) in effects.iter().enumerate() {
        if matches!(e, Effect::IfDone) {
            if !if_done(m, cx, done) {
                break;
            }
            continue;
        }
        if let Effect::AtEndOfTurn { then } = e {
            // The cards as they are now: a card put somewhere by the
            // instruction before is the new object it became there.
            let cards = tgts(m, &acted_on);
            super::target_place::create(m, cx.controller, cx.source, then, cards);
            continue;
        }
        if matches!(e, Effect::TargetPlace { .. }) {
            // The place was chosen with the targets; the instructions that
            // name it act on it.
            continue;
        }
        let ch = chosen
            .get(i)
            .and_then(Option::as_ref)
            .and_then(Chosen::cards);
        acted_on = targets::target_of(e)
            .map(|t| recipients(m, cx, t, ch))
            .unwrap_or_default();
        done = apply_one(m, cx, e, ch)?;
        if m.game.result != crate::engine::GameResult::Ongoing {
            break;
        }
    }
    Ok(())
}

/// Refuses, before the run, a 「そうしたならば」 (`if_done`) whose effect
/// before it acts on no card: what "done" means is built only for an
/// effect with a target selector.
pub fn refuse_if_done(key: &str, effects: &[Effect]) -> Result<(), EngineError> {
    let acts_on_cards =
        |i: usize| i > 0 && effects.get(i - 1).and_then(targets::target_of).is_some();
    match effects
        .iter()
        .enumerate()
        .find(|(i, e)| matches!(e, Effect::IfDone) && !acts_on_cards(*i))
    {
        Some(_) => Err(ni(
            r::IN_ORDER,
            format!(
                "card `{key}`: `if_done` after an effect that acts on no chosen or matching card"
            ),
        )),
        None => Ok(()),
    }
}

/// 「そうしたならば」: whether the effects after it are carried out, the
/// effect before it having been `done` (it had a card to act on; an action
/// replaced still counts as done, 4.15.5-1). "May" is a choice made as the
/// ability resolves (4.8.5): choosing none is not doing it.
fn if_done(m: &mut M, cx: &Ctx<'_>, done: bool) -> bool {
    let text = if done {
        format!(
            "{}: the action before 「そうしたならば」 was done, so what follows is carried out",
            cx.source
        )
    } else {
        format!(
            "{}: the action before 「そうしたならば」 was not done, so nothing after it is carried out",
            cx.source
        )
    };
    m.record("if_done", text, &[r::IN_ORDER, r::MAY]);
    done
}

/// Carries out one effect; whether it was done: an effect with a target
/// selector had a card to act on (chosen, or matching), any other is done.
fn apply_one(
    m: &mut M,
    cx: &Ctx<'_>,
    e: &Effect,
    ch: Option<&Vec<Tgt>>,
) -> Result<bool, EngineError> {
    // An amount read from the board is read now, then the effect it
    // wraps carried out with it (flow/amount.rs).
    if let Some(once) = super::amount::read(m, cx, e)? {
        return apply_one(m, cx, &once, ch);
    }
    super::watchers::new_batch(&mut m.game);
    region_note(m, cx, e);
    let now = resolution_choice(m, cx, e)?;
    let by_each = each_player_choice(m, cx, e)?;
    let ch = now.as_ref().or(by_each.as_ref()).or(ch);
    let done = targets::target_of(e).is_none_or(|t| !recipients(m, cx, t, ch).is_empty());
    carry_out(m, cx, e, ch)?;
    Ok(done)
}

fn carry_out(
    m: &mut M,
    cx: &Ctx<'_>,
    e: &Effect,
    ch: Option<&Vec<Tgt>>,
) -> Result<(), EngineError> {
    match e {
        Effect::Damage { amount, target } => {
            for id in recipients(m, cx, target, ch) {
                // Its declared share when the damage is divided (4.7.2-6).
                let amount = &super::divide::share(m, cx.source, &id, *amount);
                if !board::is_square(m.game.card(&id).map_or("", |c| c.zone.kind)) {
                    continue;
                }
                if targets::resists(&m.game, &id, &cx.source_colours) {
                    m.record(
                        "damage",
                        format!(
                            "{} has 耐性 against {}: it takes no damage from {}",
                            label(&m.game, &id),
                            cx.source_colours.join("/"),
                            cx.source
                        ),
                        &[r::RESISTANCE, r::RESISTANCE_AT_RESOLUTION],
                    );
                    continue;
                }
                let before = m.game.card(&id).map_or(0, |c| c.damage);
                if let Some(c) = m.game.cards.get_mut(&id) {
                    c.damage += amount.max(&0);
                }
                let lethal = m
                    .game
                    .card(&id)
                    .is_some_and(|c| c.damage >= super::power(&m.game, c));
                let e = m.record(
                    "damage",
                    format!(
                        "{} deals {amount} damage to {}",
                        cx.source,
                        label(&m.game, &id)
                    ),
                    &[r::IN_ORDER, r::SOURCE_DAMAGE],
                );
                e.change(format!("{id}.damage"), before, before + amount.max(&0));
                if lethal {
                    // The rule effect of 4.16.4-5 waits: none is checked
                    // while a spell or ability resolves (4.16.3).
                    e.rules.push(r::RULE_EFFECTS_NOT_DURING);
                    e.text.push_str(
                        " (as much as its power, but no rule effect is checked until the resolution is over)",
                    );
                }
            }
        }
        Effect::Destroy { target } => {
            for id in recipients(m, cx, target, ch) {
                m.record(
                    "destroy",
                    format!(
                        "{} is destroyed: to its owner's graveyard",
                        label(&m.game, &id)
                    ),
                    &[r::VERBS, r::OWNERS_ZONE],
                );
                moves::destroy(m, &id);
            }
        }
        Effect::Banish { target } => {
            for id in recipients(m, cx, target, ch) {
                m.record(
                    "exile",
                    format!(
                        "{} is removed from the game: to its owner's remove zone",
                        label(&m.game, &id)
                    ),
                    &[r::VERBS, r::REMOVE_ZONE, r::REMOVED_FACE_UP],
                );
                moves::to_owner_zone(m, &id, "remove", false);
            }
        }
        Effect::ReturnToHand { target } => {
            for id in recipients(m, cx, target, ch) {
                m.record(
                    "return_to_hand",
                    format!(
                        "{} returns to its owner's hand (a new object)",
                        label(&m.game, &id)
                    ),
                    &[r::OWNERS_ZONE, r::NEW_OBJECT],
                );
                moves::to_owner_zone(m, &id, "hand", false);
            }
        }
        Effect::Draw { amount, who } => {
            for p in players(m, cx, *who) {
                m.record(
                    "draw",
                    format!("{} draws {amount}, one card at a time", player_name(p)),
                    &[r::VERBS, r::DRAW_ONE_AT_A_TIME],
                );
                moves::draw(m, p, (*amount).max(0) as usize);
                if m.game.zone_of(p, "deck").is_empty()
                    && let Some(e) = m.trace.last_mut()
                {
                    // An emptied deck loses only at the next rule-effect
                    // check: the rest of the text still resolves (4.16.3).
                    e.rules.push(r::RULE_EFFECTS_NOT_DURING);
                }
            }
        }
        Effect::Buff {
            attack,
            defense,
            target,
            until,
        } => {
            // A DZ unit's two numbers are its power and its smash: `attack`
            // changes the power (2.12), `defense` the smash (2.13).
            for id in recipients(m, cx, target, ch) {
                for (stat, delta, what, rule) in [
                    ("attack", *attack, "power", r::POWER),
                    ("smash", *defense, "smash", r::SMASH_VALUE),
                ] {
                    if delta == 0 {
                        continue;
                    }
                    if let Some(c) = m.game.cards.get_mut(&id) {
                        c.modifiers
                            .push(Modifier::addition(stat, delta, *until, cx.source));
                    }
                    m.record(
                        "power",
                        format!("{} gets {delta:+} {what}", label(&m.game, &id)),
                        &[r::CONTINUOUS, r::DURATION, r::LOCKED_SET, rule],
                    );
                }
            }
        }
        Effect::SetState {
            state,
            clear,
            target,
        } => {
            if state != FROZEN {
                return Err(ni(r::STATES, format!("card state `{state}`")));
            }
            for id in recipients(m, cx, target, ch) {
                let frozen = m.game.card(&id).is_some_and(|c| c.has(FROZEN));
                if frozen != *clear {
                    m.record(
                        "state",
                        format!(
                            "{} is already {}: nothing happens",
                            label(&m.game, &id),
                            if frozen { "frozen" } else { "released" }
                        ),
                        &[r::NO_DOUBLE_FREEZE, r::IMPOSSIBLE],
                    );
                    continue;
                }
                if let Some(c) = m.game.cards.get_mut(&id) {
                    if *clear {
                        c.states.remove(FROZEN);
                    } else {
                        c.states.insert(FROZEN.into());
                    }
                }
                let (b, a) = if *clear {
                    ("frozen", "released")
                } else {
                    ("released", "frozen")
                };
                m.record(
                    "state",
                    format!("{} becomes {a}", label(&m.game, &id)),
                    &[r::STATES],
                )
                .change(format!("{id}.state"), b, a);
            }
        }
        Effect::Put {
            to,
            target,
            top,
            who,
            // Into the master's zone: not implemented (the generic arm).
            yours: false,
        } => {
            let ids = if put::is_this(target) {
                // The effect's own card, wherever it is: a strategy
                // putting itself somewhere as part of its resolution
                // (4.9.2-8) does not go to the graveyard after it.
                let on_stack = m
                    .game
                    .card(cx.source)
                    .is_some_and(|c| c.zone.kind == "stack");
                if on_stack {
                    m.record(
                        "put",
                        format!("{} moves itself as part of its resolution", cx.source),
                        &[r::PLACED_AT_END, r::STRATEGY_RESOLVES],
                    );
                }
                m.game
                    .card(cx.source)
                    .map(|c| vec![c.id.clone()])
                    .unwrap_or_default()
            } else if targets::each_player(e) {
                // Chosen just now by each player among their own cards.
                ch.map(|ts| ts.iter().map(|t| t.card.clone()).collect())
                    .unwrap_or_default()
            } else {
                target
                    .as_ref()
                    .map(|t| recipients(m, cx, t, ch))
                    .unwrap_or_default()
            };
            put::apply(m, cx, to, ids, *top, *who)?;
        }
        Effect::Swap { .. } => {
            let ids = ch
                .map(|ts| {
                    let cols = &cx.source_colours;
                    super::swap::legal(&m.game, cx.controller, cx.source, cols, e, ts)
                })
                .unwrap_or_default();
            super::swap::apply(m, cx, &ids)?;
        }
        Effect::Restrict { target, .. } => {
            let cards = target
                .as_ref()
                .filter(|t| !matches!(t, Target::All { .. }))
                .map(|t| recipients(m, cx, t, ch))
                .unwrap_or_default();
            super::restrict::apply(m, e, cx.source, cx.controller, cards)?;
        }
        Effect::Search { .. } => super::search::search(m, cx, e)?,
        Effect::LookAt { .. } => super::search::look_at(m, cx, e)?,
        Effect::ShuffleInto { target } => {
            let ids = recipients(m, cx, target, ch);
            super::search::shuffle_into(m, ids);
        }
        Effect::Shuffle { who } => {
            for p in players(m, cx, *who) {
                shuffle(m, p);
            }
        }
        Effect::Win { who } => {
            let ws = players(m, cx, *who);
            m.game.win(&ws);
            m.record(
                "win",
                format!("{} wins", crate::engine::player_names(&ws)),
                &[r::TEXT_BEATS_RULES],
            );
            game_over(m);
        }
        Effect::Lose { who } => {
            for p in players(m, cx, *who) {
                m.game.players[p].lost = true;
            }
            m.record("lose", "a player loses", &[r::TEXT_BEATS_RULES]);
            game_over(m);
        }
        Effect::ChangeInfo {
            name: None,
            card_type: None,
            traits,
            text,
            target,
            until,
            ..
        } if traits.is_empty() && text.len() == 1 && text.contains_key("colour") => {
            let cards = recipients(m, cx, target, ch);
            super::colour::change(m, cx.source, cards, &text["colour"], *until)?;
        }
        other => {
            return Err(ni(r::IN_ORDER, format!("effect {other:?}")));
        }
    }
    Ok(())
}

/// Cards an effect chooses without 「対象の」 (`targets: false`, or in a
/// hand: 「相手は自分の手札にあるカードを２枚選び」) are not targets (4.11.1):
/// 耐性 does not keep a card from being chosen (5.17.2), and nothing is
/// checked for them when the spell is played or resolves (4.11.3,
/// 4.9.2-1). The player a `put`'s `who` names (by default the effect's
/// controller) chooses them as the effect resolves,
/// with the choice `<card>.choose` (a list), or all of them when there are
/// no more than it asks for: as many as possible (4.12.2); none at all and
/// nothing happens (1.1.3). Looking in their own hidden hand for a card of
/// a stated kind, the effect's controller may choose not to find it
/// (2.25.3): a shorter list, even empty; choosing in the opponent's hand,
/// which the effect shows them, they may not (2.25.4).
fn resolution_choice(m: &mut M, cx: &Ctx<'_>, e: &Effect) -> Result<Option<Vec<Tgt>>, EngineError> {
    let Some(Target::Chosen {
        filter,
        count,
        up_to,
        ..
    }) = targets::target_of(e)
    else {
        return Ok(None);
    };
    if !targets::untargeted(e) {
        return Ok(None);
    }
    let in_hand = targets::in_hand(e);
    let where_ = if in_hand {
        "in the hand"
    } else {
        "(not a target: no 対象の)"
    };
    let options = targets::candidates(&m.game, cx.controller, cx.source, &[], filter);
    let n = *count as usize;
    let key = format!("{}.choose", cx.source);
    let chooser = match e {
        Effect::Put {
            who: Who::Opponent, ..
        } => m.game.opponent(cx.controller),
        _ => cx.controller,
    };
    let mine = chooser == cx.controller;
    // The controller searching their own hand for a card of a stated kind.
    let may_fail = !*up_to
        && mine
        && filter.side == crate::engine::Side::You
        && (!filter.types.is_empty() || !filter.parts().is_empty());
    // The controller choosing in the opponent's hand: shown, so public.
    let shown = in_hand && mine && filter.side == crate::engine::Side::Opponent;
    // Issue 13: the chooser's choice (the opponent's, for 「相手は…選び」),
    // whoever's action made it resolve.
    let (given, shown_key) = m.decided_by(chooser, |m| {
        if may_fail && options.len() <= n {
            m.choices.default_all_of(&key, &options);
        }
        Ok((choose_list(m, &key), m.choices.shown(&key)))
    })?;
    // Only a card in the hidden hand can be "not found": one left in a
    // public zone (the plan zone) is seen (2.25.3).
    let hidden = |id: &CardId| m.game.card(id).is_some_and(|c| c.zone.kind == "hand");
    if may_fail
        && let Some(list) = &given
        && list.len() < n.min(options.len())
        && list.iter().all(|g| options.contains(g))
        && options.iter().filter(|o| !list.contains(o)).all(hidden)
    {
        m.record(
            "choose",
            format!(
                "{} looks in a hidden hand and chooses not to find {} of the {} card(s) asked for",
                player_name(cx.controller),
                n.min(options.len()) - list.len(),
                n
            ),
            &[r::NOT_FOUND, r::IMPOSSIBLE],
        );
        return Ok(Some(tgts(m, list)));
    }
    if may_fail
        && let Some(list) = &given
        && list.len() < n.min(options.len())
        && let Some(seen) = options.iter().find(|o| !list.contains(o) && !hidden(o))
    {
        return Err(super::illegal(
            r::NOT_FOUND,
            format!("{seen} is in a public zone: only a card in the hidden hand can be not found"),
            vec![],
        ));
    }
    // "Up to" (「選び、…してよい」): the player decides, even with no more
    // options than asked; none is a choice (4.8.5).
    let picked = if options.len() <= n && given.is_none() && (!*up_to || options.is_empty()) {
        let text = if options.is_empty() {
            format!("no card to choose {where_} and {n} asked for: nothing is chosen")
        } else {
            format!(
                "{} card(s) to choose {where_} and {n} asked for: every one is chosen ({})",
                options.len(),
                options.join(", ")
            )
        };
        // 4.9.2-4: a choice not declared at play is made as it resolves.
        let e = m.record("choose", text, &[r::IN_ORDER, r::RESOLUTION_CHOICES]);
        if !in_hand {
            e.rules.push(r::TARGETING);
        }
        if options.len() < n {
            e.rules.push(r::PARTLY_IMPOSSIBLE);
        }
        if options.is_empty() {
            e.rules.push(r::IMPOSSIBLE);
        }
        options
    } else {
        let Some(given) = given else {
            return Err(EngineError::MissingChoice {
                choice: shown_key,
                options: texts(&options),
            });
        };
        if shown && given.len() < n.min(options.len()) {
            return Err(super::illegal(
                r::MADE_PUBLIC,
                format!(
                    "the opponent's hand is public while the effect resolves: {} can't choose not to find a card there",
                    player_name(chooser)
                ),
                vec![],
            ));
        }
        let mut distinct = given.clone();
        distinct.sort();
        distinct.dedup();
        let count_ok = if *up_to {
            distinct.len() == given.len() && given.len() <= n
        } else {
            distinct.len() == n.min(options.len())
        };
        if !count_ok || given.iter().any(|g| !options.contains(g)) {
            let how = if *up_to { "up to" } else { "exactly" };
            return Err(EngineError::BadChoice {
                choice: key,
                value: given.join(", "),
                options: vec![format!("{how} {n} of {}", options.join(", "))],
            });
        }
        let what = if given.is_empty() {
            "none (it may choose fewer: 「選び、…してよい」)".to_string()
        } else {
            given.join(", ")
        };
        let e = m.record(
            "choose",
            format!("{} chooses {where_}: {what}", player_name(chooser)),
            &[r::IN_ORDER, r::RESOLUTION_CHOICES],
        );
        if *up_to {
            e.rules.push(r::MAY);
        }
        if !in_hand {
            e.rules.push(r::TARGETING);
        }
        if shown {
            e.rules.push(r::MADE_PUBLIC);
        }
        given
    };
    Ok(Some(tgts(m, &picked)))
}

/// Each player chooses, AP first and then NAP knowing AP's choice, `count`
/// cards of their own matching the filter (1.1.4), with the choice
/// `<card>.choose.<player>` (all when there are no more); the effect then
/// applies to them all at once.
fn each_player_choice(
    m: &mut M,
    cx: &Ctx<'_>,
    e: &Effect,
) -> Result<Option<Vec<Tgt>>, EngineError> {
    let Some(Target::Chosen { filter, count, .. }) = targets::target_of(e) else {
        return Ok(None);
    };
    if !targets::each_player(e) {
        return Ok(None);
    }
    let n = *count as usize;
    let mut all = Vec::new();
    for p in players(m, cx, Who::Both) {
        let own = crate::engine::Filter {
            side: crate::engine::Side::You,
            ..filter.clone()
        };
        let options = targets::candidates(&m.game, p, cx.source, &[], &own);
        let key = format!("{}.choose.{}", cx.source, player_name(p));
        let given = choose_list(m, &key);
        let picked = match given {
            None if options.len() <= n => options.clone(),
            None => {
                return Err(EngineError::MissingChoice {
                    choice: key,
                    options: texts(&options),
                });
            }
            Some(list) => {
                let mut distinct = list.clone();
                distinct.sort();
                distinct.dedup();
                if distinct.len() != n.min(options.len())
                    || list.iter().any(|g| !options.contains(g))
                {
                    return Err(EngineError::BadChoice {
                        choice: key,
                        value: list.join(", "),
                        options: vec![format!("exactly {n} of {}", options.join(", "))],
                    });
                }
                list
            }
        };
        let what = match picked.as_slice() {
            [] => "nothing".to_string(),
            list => list.join(", "),
        };
        m.record(
            "choose",
            format!(
                "{} chooses {what} (the turn player first, then the other knowing that choice)",
                player_name(p)
            ),
            &[r::APNAP_CHOICES],
        );
        all.extend(picked);
    }
    Ok(Some(tgts(m, &all)))
}

/// The list a choice names (a string or an array of ids), if given.
fn choose_list(m: &mut M, key: &str) -> Option<Vec<CardId>> {
    m.choices.take(key).map(|v| match v {
        serde_json::Value::Array(a) => a
            .iter()
            .map(|x| {
                x.as_str()
                    .map_or_else(|| x.to_string(), str::to_string)
                    .into()
            })
            .collect(),
        serde_json::Value::String(s) => vec![s.into()],
        other => vec![other.to_string().into()],
    })
}

/// The cards as the objects they are now.
fn tgts(m: &M, ids: &[CardId]) -> Vec<Tgt> {
    ids.iter()
        .map(|c| Tgt {
            card: c.clone(),
            inc: m.game.card(c).map_or(0, |x| x.incarnation),
        })
        .collect()
}

/// An effect on every card of a region says where the region is measured
/// from: the source's square, or the one it was last on (4.2.6, 4.9.2-6),
/// and whose view an area is seen from (2.24.7-2).
fn region_note(m: &mut M, cx: &Ctx<'_>, e: &Effect) {
    let Some(Target::All { filter }) = targets::target_of(e) else {
        return;
    };
    let Some(rg) = filter.region.as_deref() else {
        return;
    };
    let rules = targets::region_rules(&m.game, cx.source, filter);
    let from = match (
        board::square_of(&m.game, cx.source),
        board::reference_square(&m.game, cx.source),
    ) {
        (Some(sq), _) => format!("measured from {sq}, where {} is", cx.source),
        (None, Some(sq)) => format!(
            "measured from {sq}, the square {} was last on before it left",
            cx.source
        ),
        (None, None) => format!("seen from {}", player_name(cx.controller)),
    };
    m.record("region", format!("{rg} of {}: {from}", cx.source), &rules);
}

/// Shuffles `p`'s deck (the plan card, the deck's top card, goes back into
/// it face down).
pub fn shuffle(m: &mut M, p: PlayerId) {
    for c in m.game.zone_of(p, "plan").to_vec() {
        m.game
            .move_card(&c, crate::engine::ZoneId::of(p, "deck"), true);
    }
    let z = crate::engine::ZoneId::of(p, "deck");
    let mut v = m.game.zone(&z).to_vec();
    m.game.rng.shuffle(&mut v);
    m.game.zones.insert(z, v);
    m.record(
        "shuffle",
        format!(
            "{} shuffles the deck (a plan card is turned face down into it first)",
            player_name(p)
        ),
        &[r::DECK, r::PLAN_SHUFFLE],
    );
    super::deck_order::not_decided(m, p, r::DELIBERATE_NOT_SHUFFLE);
}

/// The colours of a source card (2.4.2), for 耐性.
pub fn source_colours(m: &M, id: &str) -> Vec<&'static str> {
    colours(&m.game, id)
}

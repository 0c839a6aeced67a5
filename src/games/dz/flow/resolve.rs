//! Resolving the top of the stack (4.9.1, 2.23.9-2): spells (4.9.2, units
//! and bases placed at the end, 4.9.2-8), triggered abilities, moves
//! (4.9.3), battle damage exchanges (3.12.4) and the plan-zone actions;
//! a spell or ability whose every target became illegal is countered
//! (4.9.2-1, 4.10).

use crate::engine::{EngineError, PlayerId, player_name};

use super::{
    Central, Chosen, Entry, Kind, M, battle, board, dz, effects, has_kw, label, movement, moves,
    plan, r, special_play, targets, types,
};
use special_play::Special;

/// Resolves the top entry of the stack.
pub fn top(m: &mut M) -> Result<(), EngineError> {
    let Some(entry) = dz(&mut m.game).stack.pop() else {
        return Ok(());
    };
    let Entry { controller, kind } = entry;
    // Issue 13: the entry resolves with its controller's choices, whoever's
    // pass made it resolve.
    m.decided_by(controller, |m| resolve_entry(m, controller, kind))
}

/// Resolves one entry of `controller`'s.
fn resolve_entry(m: &mut M, controller: PlayerId, kind: Kind) -> Result<(), EngineError> {
    match kind {
        Kind::Spell {
            card,
            square,
            targets,
            modes,
            special,
        } => spell(
            m,
            controller,
            &card,
            square,
            &targets,
            &modes,
            special.as_ref(),
        ),
        Kind::Ability {
            source,
            source_inc,
            def,
            ability,
            trigger,
            targets: tg,
            event_square,
        } => {
            let effects = m.game.ability_effects(&def, ability);
            let e = m.record(
                "resolve",
                format!(
                    "both players passed: {}'s {trigger} ability of {} resolves",
                    player_name(controller),
                    label(&m.game, &source)
                ),
                &[r::RESOLVE, r::RESOLUTION, r::STACK_LIFO],
            );
            if tg.iter().any(Option::is_some) {
                e.rules.push(r::TARGETS_CHECKED);
            }
            // An ability whose card has left since it was stacked still
            // resolves (4.2.5), reading the card as it last was (4.2.6).
            if m.game
                .card(&source)
                .is_some_and(|c| c.incarnation != source_inc)
            {
                let e = m.record(
                    "resolve",
                    format!("{source} has left its zone since: the ability resolves anyway, reading {source} as it last was"),
                    &[r::ABILITY_INDEPENDENT, r::ABILITY_LKI, r::RESOLUTION_LKI],
                );
                e.obj(source.clone());
            }
            if trigger == "on_placed"
                && super::pincer::has(&m.game, &source)
                && !super::pincer::still_holds(m, controller, &source)
            {
                return Ok(());
            }
            if countered(m, controller, &source, &effects, &tg) {
                m.record(
                    "countered",
                    "every target of the ability is illegal: it is countered and does nothing",
                    &[r::TARGETS_CHECKED, r::COUNTERED],
                );
                resisted_now(m, &source, &tg);
                return Ok(());
            }
            let cx = effects::Ctx {
                controller,
                source: &source,
                source_colours: effects::source_colours(m, &source),
            };
            dz(&mut m.game).event_square = event_square;
            let done = effects::apply(m, &cx, &effects, &tg);
            dz(&mut m.game).event_square = None;
            done
        }
        Kind::InstantDeath {
            source,
            unit,
            unit_inc,
        } => {
            let there = m
                .game
                .card(&unit)
                .is_some_and(|c| c.incarnation == unit_inc && board::is_square(c.zone.kind));
            if there {
                m.record(
                    "instant_death",
                    format!(
                        "即死 of {}: {} goes to its owner's graveyard",
                        label(&m.game, &source),
                        label(&m.game, &unit)
                    ),
                    &[r::INSTANT_DEATH, r::RESOLVE],
                );
                moves::destroy(m, &unit);
            } else {
                m.record(
                    "instant_death",
                    format!("即死 of {source}: {unit} is no longer on a square; nothing happens"),
                    &[r::INSTANT_DEATH, r::TARGETS_CHECKED],
                );
            }
            Ok(())
        }
        Kind::Move {
            unit,
            inc,
            from,
            to,
            advance,
        } => movement::resolve(m, controller, &unit, inc, from, to, advance),
        Kind::Exchange { square, hits } => battle::resolve_exchange(m, square, &hits),
        Kind::Plan { update } => plan::resolve(m, controller, update),
        Kind::EndOfTurn(d) => super::target_place::resolve(m, d),
    }
}

/// Whether a spell or ability with chosen targets finds every one of them
/// illegal (4.9.2-1): then it is countered.
fn countered(
    m: &M,
    controller: PlayerId,
    source: &str,
    effects: &[crate::engine::Effect],
    tg: &[Option<Chosen>],
) -> bool {
    let cols = effects::source_colours(m, source);
    let mut any = false;
    for (i, e) in effects.iter().enumerate() {
        let slot = tg.get(i).and_then(Option::as_ref);
        if let Some(place) = slot.and_then(Chosen::place) {
            // A place is a target too (flow/target_place.rs).
            any = true;
            if super::target_place::still_legal(&m.game, controller, source, &cols, e, place) {
                return false;
            }
            continue;
        }
        let slot = slot.and_then(Chosen::cards);
        if let (Some(ts), Some(_)) = (slot, super::swap::filters(e)) {
            any |= !ts.is_empty();
            if !super::swap::legal(&m.game, controller, source, &cols, e, ts).is_empty() {
                return false;
            }
            continue;
        }
        let (Some(ts), Some(crate::engine::Target::Chosen { filter, .. })) =
            (slot, targets::target_of(e))
        else {
            continue;
        };
        any |= !ts.is_empty();
        if !targets::legal_group(&m.game, controller, source, &cols, filter, ts).is_empty() {
            return false;
        }
    }
    any
}

/// A spell resolves (4.9.2): a unit or base is placed on its square at the
/// end (4.9.2-8), a strategy's text is carried out and it goes to its
/// owner's graveyard (2.20.3-3).
fn spell(
    m: &mut M,
    p: PlayerId,
    card: &str,
    square: Option<&'static str>,
    tg: &[Option<Chosen>],
    picked: &[usize],
    special: Option<&Special>,
) -> Result<(), EngineError> {
    let kind = super::ctype(&m.game, card).to_string();
    match (kind.as_str(), square) {
        (types::UNIT, Some(sq)) => {
            // 速攻 printed, or given by a static ability to the unit as it
            // arrives (4.14.2).
            let granted = !has_kw(&m.game, card, "haste")
                && super::statics::grants_on_arrival(&m.game, card, p, sq, "haste");
            let haste = has_kw(&m.game, card, "haste") || granted;
            // 召集: released while its card still meets the condition
            // (5.3.2, 5.3.2-1).
            let mustered = match special {
                Some(Special::Muster { by }) => Some(special_play::muster_holds(m, p, by, sq)),
                _ => None,
            };
            let released = haste || mustered == Some(true);
            let central_area = board::area_for(sq, p) == 1;
            // Played "as if your own area" (5.3.2, 5.8.2): not a unit played
            // into the central area unless the reading says so.
            let as_own =
                special.is_some() && !super::reading(&m.game, special_play::CENTRAL_DESTROYED);
            let central = central_area && !as_own;
            let mut rules = vec![
                r::RESOLVE,
                r::PLACED_AT_END,
                r::UNIT_RESOLVES,
                r::SPELL_PLACED,
            ];
            if haste {
                // Card text beats the rule that played units arrive frozen.
                rules.push(r::HASTE);
                rules.push(r::TEXT_BEATS_RULES);
            }
            if granted {
                rules.push(r::STATIC);
                rules.push(r::STATIC_ARRIVAL);
            }
            match mustered {
                Some(true) => rules.push(r::MUSTER_PLAY),
                Some(false) => rules.push(r::MUSTER_LOST),
                None => {}
            }
            if let Some(sp) = special
                && *sp == Special::Formation
            {
                rules.push(r::FORMATION_PLAY);
            }
            if central_area {
                rules.push(r::UNIT_CENTRAL);
            }
            let state = if haste {
                "released (速攻)"
            } else if mustered == Some(true) {
                "released (召集)"
            } else if mustered == Some(false) {
                "frozen: the card with 召集 no longer meets its condition"
            } else {
                "frozen"
            };
            let e = m.record(
                "resolve",
                format!(
                    "both players passed: {} resolves and is put on {sq} ({}) under {}'s control, {}",
                    label(&m.game, card),
                    board::area_name(sq, p),
                    player_name(p),
                    state
                ),
                &rules,
            );
            if special.is_some() && central_area {
                e.note(if as_own {
                    format!(
                        "judge's reading: played as if the square were {}'s own area, the unit is not one played into the central area, so the rule effect of 2.20.1-6 does not destroy it (flag {}: it is destroyed as any unit played there)",
                        player_name(p),
                        special_play::CENTRAL_DESTROYED
                    )
                } else {
                    format!(
                        "flag {}: the special play changes only where the unit may be played; played to the central area it is destroyed as any unit played there (2.20.1-6)",
                        special_play::CENTRAL_DESTROYED
                    )
                });
            }
            moves::place(m, card, p, sq, !released);
            if central {
                dz(&mut m.game).central.insert(card.into(), Central::Placed);
            }
        }
        (types::BASE, Some(sq)) => {
            m.record(
                "resolve",
                format!(
                    "both players passed: {} resolves and is put on {}'s {sq}, released",
                    label(&m.game, card),
                    player_name(p)
                ),
                &[r::RESOLVE, r::PLACED_AT_END, r::BASE_RESOLVES, r::BASE_TEXT],
            );
            moves::place(m, card, p, sq, false);
        }
        _ => {
            let def = m.game.card(card).map(|c| c.def.clone()).unwrap_or_default();
            let effects = super::modes::spell_effects(&m.game, &def, picked);
            let e = m.record(
                "resolve",
                format!("both players passed: {} resolves", label(&m.game, card)),
                &[
                    r::RESOLVE,
                    r::RESOLUTION,
                    r::STACK_LIFO,
                    r::STRATEGY_TEXT,
                    r::STACK_RESOLVES,
                ],
            );
            if tg.iter().any(Option::is_some) {
                e.rules.push(r::TARGETS_CHECKED);
            }
            if countered(m, p, card, &effects, tg) {
                m.record(
                    "countered",
                    format!(
                        "every target of {card} is illegal: it is countered, does nothing, and goes to its owner's graveyard; its cost is not refunded"
                    ),
                    &[
                        r::TARGETS_CHECKED,
                        r::TARGET_CONDITION,
                        r::COUNTERED,
                        r::COUNTERED_GRAVEYARD,
                        r::COUNTERED_BY_RULES,
                        r::NO_REFUND,
                        r::SPELL_ENDS,
                    ],
                );
                if targets::linked(&effects)
                    && let Some(e) = m.trace.last_mut()
                {
                    // The other targets' condition names the first one,
                    // which became illegal (4.9.2-2).
                    e.rules.push(r::TARGET_CONDITION_LINK);
                }
                moves::destroy(m, card);
                return Ok(());
            }
            let cx = effects::Ctx {
                controller: p,
                source: card,
                source_colours: effects::source_colours(m, card),
            };
            effects::apply(m, &cx, &effects, tg)?;
            if m.game.card(card).is_some_and(|c| c.zone.kind == "stack")
                && !super::attach::place_bonded(m, card)
            {
                m.record(
                    "resolve",
                    format!("{card} goes to its owner's graveyard at the end of its resolution"),
                    &[
                        r::STRATEGY_RESOLVES,
                        r::PLACED_AT_END,
                        r::SPELL_PLACED,
                        r::SPELL_ENDS,
                    ],
                );
                moves::destroy(m, card);
            }
        }
    }
    Ok(())
}

/// Says which targets became illegal by 耐性 against the source's colours
/// as they are now: on resolution the source is read again (2.27 ¶4, so a
/// colour changed since it was stacked counts, 2.27 ¶4 ex2; 5.17.2).
fn resisted_now(m: &mut M, source: &str, tg: &[Option<Chosen>]) {
    let cols = effects::source_colours(m, source);
    let resisting: Vec<String> = tg
        .iter()
        .flatten()
        .filter_map(Chosen::cards)
        .flatten()
        .filter(|t| targets::resists(&m.game, &t.card, &cols))
        .map(|t| label(&m.game, &t.card))
        .collect();
    if let (false, Some(e)) = (resisting.is_empty(), m.trace.last_mut()) {
        e.text.push_str(&format!(
            " ({} has 耐性 against {}, the source's colour now)",
            resisting.join(", "),
            cols.join("/")
        ));
        e.rules.extend([r::SOURCE_WHEN_STACKED, r::RESISTANCE]);
    }
}

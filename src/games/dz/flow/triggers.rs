//! Triggered abilities (4.4, 4.8): they trigger on their event (4.8.1),
//! wait until a player would receive priority (4.8.2), then go on the
//! stack AP's first, then NAP's (4.8.3), choosing their targets then; with
//! no legal target they are removed (4.8.4-2, 4.11.3). "When placed on a
//! square" also fires on square-to-square placements (4.8.9); leaving a
//! square reads the card as it last was (4.8.11).

use crate::engine::{Card, EngineError, player_name};

use super::{Entry, Kind, M, Trig, board, dz, label, r, targets};

/// 「このカードがスマッシュゾーンに置かれた時」.
pub const TO_SMASH: &str = "to_smash";

/// Card `before` (as it was) has just been put into the smash zone, face
/// down: its `to_smash` abilities trigger if its text worked where it was
/// (a plan card's plan-zone effect, a unit on a square): a move from a
/// public zone into the hidden smash zone reads the public zone
/// (4.8.10-2), a card leaving a square its last information (4.8.11).
pub fn into_smash(m: &mut M, before: &Card) {
    let has = m
        .game
        .defs
        .get(&before.def)
        .is_some_and(|d| d.abilities.iter().any(|a| a.trigger == TO_SMASH));
    if !has || !super::zone_effect::text_works(&m.game, before) {
        return;
    }
    let read = if board::is_square(before.zone.kind) {
        r::LEAVING_TRIGGER
    } else {
        r::PUBLIC_ZONE_TRIGGER
    };
    fire_def(m, before, TO_SMASH, &[r::ZONE_CHANGE_TRIGGER, read]);
}

/// The abilities of `trigger` on `card`'s definition, as waiting triggers.
pub fn fire_def(m: &mut M, card: &Card, trigger: &str, why: &[&'static str]) -> usize {
    fire_def_at(m, card, trigger, why, None)
}

/// [`fire_def`] for an event that put a unit onto square `event_square`.
pub fn fire_def_at(
    m: &mut M,
    card: &Card,
    trigger: &str,
    why: &[&'static str],
    event_square: Option<&'static str>,
) -> usize {
    let Some(def) = m.game.defs.get(&card.def) else {
        return 0;
    };
    let idx: Vec<usize> = def
        .abilities
        .iter()
        .enumerate()
        .filter(|(_, a)| a.trigger == trigger)
        .map(|(i, _)| i)
        .collect();
    if !idx.is_empty()
        && let Some(z) = super::zone_effect::zone(&m.game, &card.id)
        && card.zone.kind != z
    {
        m.record(
            "trigger",
            format!(
                "{}'s {trigger} ability is a {z}-zone effect and the card is in the {} zone: it does not trigger",
                label(&m.game, &card.id),
                card.zone.kind
            ),
            &[r::ZONE_EFFECT, r::ZONE_EFFECT_ELSEWHERE],
        );
        return 0;
    }
    for &i in &idx {
        let t = Trig {
            controller: card.controller,
            kind: Kind::Ability {
                source: card.id.clone(),
                source_inc: card.incarnation,
                def: card.def.to_string(),
                ability: i,
                trigger: trigger.to_string(),
                targets: Vec::new(),
                event_square,
            },
        };
        dz(&mut m.game).trigs.push(t);
    }
    if !idx.is_empty() {
        m.record(
            "trigger",
            format!(
                "{}'s {trigger} ability triggers ({} ability(ies)); it waits for the next priority",
                label(&m.game, &card.id),
                idx.len()
            ),
            &[r::TRIGGERED, r::TRIGGER_WAITS, r::EACH_EVENT],
        )
        .rules
        .extend(why);
    }
    idx.len()
}

/// `card`'s own ability for event `trigger` (攻撃した時, バトルに勝利した時…).
pub fn fire(m: &mut M, card: &str, trigger: &str, why: &[&'static str]) -> usize {
    match m.game.card(card).cloned() {
        Some(c) => fire_def(m, &c, trigger, why),
        None => 0,
    }
}

/// "At the start of the turn" / "at the end of the turn" of the cards on
/// squares AP controls (the text reads "your turn").
pub fn phase_start(m: &mut M, trigger: &str) -> usize {
    let ap = m.game.turn.active;
    let cards: Vec<Card> = board::on_squares(&m.game)
        .iter()
        .filter_map(|id| m.game.card(id).cloned())
        .filter(|c| c.controller == ap)
        .collect();
    // Only cards on squares: unit and base text works there (2.10.3,
    // 2.20.1-7, 2.20.2-5).
    let why: &[&'static str] = if trigger == "end_of_turn" {
        &[r::RECOVERY_END_OF_TURN, r::TEXT_ON_SQUARE, r::UNIT_TEXT]
    } else {
        &[r::RELEASE, r::TEXT_ON_SQUARE, r::UNIT_TEXT]
    };
    cards.iter().map(|c| fire_def(m, c, trigger, why)).sum()
}

/// A card was placed on a square (4.8.9, 4.8.10-1); 挟撃's ability only
/// when an opponent's unit is sandwiched (flow/pincer.rs).
pub fn placed(m: &mut M, card: &str) {
    let pincer_off = super::pincer::has(&m.game, card)
        && m.game
            .card(card)
            .cloned()
            .is_some_and(|c| !super::pincer::triggers(m, &c));
    if pincer_off {
        super::nearby::placed(m, card);
        return;
    }
    fire(
        m,
        card,
        "on_placed",
        &[
            r::PLACED_TRIGGER,
            r::ZONE_CHANGE_TRIGGER,
            r::PLACED_FROM_ELSEWHERE,
        ],
    );
    super::nearby::placed(m, card);
}

/// A card leaves a square for zone `to`: its "put into the graveyard from
/// a square" ability triggers with last-known information (4.8.11).
pub fn leaving(m: &mut M, card: &Card, to: &str) {
    if to == "graveyard" && super::ctype(&m.game, &card.id) == super::types::BASE {
        super::watchers::base_left(m, card);
    }
    if to == "graveyard" {
        fire_def(
            m,
            card,
            "to_graveyard",
            &[r::LEAVING_TRIGGER, r::LAST_KNOWN],
        );
    }
}

/// Puts the waiting triggers on the stack, AP's first (4.8.3). Returns how
/// many were handled.
pub fn stack_waiting(m: &mut M) -> Result<usize, EngineError> {
    let waiting = std::mem::take(&mut dz(&mut m.game).trigs);
    if waiting.is_empty() {
        return Ok(0);
    }
    let ap = m.game.turn.active;
    let mut ordered: Vec<Trig> = waiting
        .iter()
        .filter(|t| t.controller == ap)
        .cloned()
        .collect();
    ordered.extend(waiting.iter().filter(|t| t.controller != ap).cloned());
    let n = ordered.len();
    for t in ordered {
        let entry = match t.kind {
            Kind::Ability {
                source,
                source_inc,
                def,
                ability,
                trigger,
                event_square,
                ..
            } => {
                let effects = m.game.ability_effects(&def, ability);
                m.record(
                    "stack",
                    format!(
                        "{}'s {trigger} ability of {} goes on the stack",
                        player_name(t.controller),
                        label(&m.game, &source)
                    ),
                    &[
                        r::APNAP,
                        r::TRIGGER_CONTROLLER,
                        r::PRIORITY_LOOP,
                        r::SOURCE_WHEN_STACKED,
                    ],
                );
                let key = format!("{source}.{trigger}");
                // Issue 13: the controller chooses its targets (4.8.2),
                // whoever's action made it trigger.
                let Some(tg) = m.decided_by(t.controller, |m| {
                    targets::choose_for(m, t.controller, &source, &effects, &key)
                })?
                else {
                    m.record(
                        "stack",
                        format!("the {trigger} ability of {source} has no legal target: it is removed from the stack"),
                        &[r::TRIGGER_TARGETS, r::NO_TARGET, r::IMPOSSIBLE],
                    );
                    continue;
                };
                if tg.iter().any(Option::is_some)
                    && let Some(e) = m.trace.last_mut()
                {
                    // Its targets are chosen as it goes on the stack.
                    e.rules.push(r::TRIGGER_TARGETS);
                }
                Kind::Ability {
                    source,
                    source_inc,
                    def,
                    ability,
                    trigger,
                    targets: tg,
                    event_square,
                }
            }
            Kind::EndOfTurn(d) => {
                super::target_place::stack(m, t.controller, d);
                continue;
            }
            other => {
                m.record(
                    "stack",
                    "即死's delayed ability goes on the stack",
                    &[r::DELAYED, r::INSTANT_DEATH],
                );
                other
            }
        };
        dz(&mut m.game).stack.push(Entry {
            controller: t.controller,
            kind: entry,
        });
    }
    Ok(n)
}

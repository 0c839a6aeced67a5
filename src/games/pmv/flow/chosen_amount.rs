//! 「選んだキャラクターの耐久力に等しいダメージ」: an amount read from the
//! cards the same text chose (the core `amount_of_chosen`). The values
//! are fixed as the cards are chosen (5.2.3.d), not as the amount is
//! applied: M.I.W's Q&A QA-002 (霊符「古き地縛霊の目覚め」) answers that
//! the damage is decided when the 冥界 characters are chosen, so it is
//! their durability then. A chosen card that leaves afterwards therefore
//! still counts with the value it had; none chosen (an "up to" choice of
//! none) reads a total of 0 and an undefined highest or lowest as 0
//! (1.6.2.e). It sets the amount of a `damage`; stats read are `attack`,
//! `defense` (耐久力) and PMV's own stats.

use super::*;
use crate::engine::card::AbilityDef;

/// Where the value read for part `part` of `this`'s text is kept until
/// the amount is applied (not cleared by `begin_ability`, which runs after
/// the choice).
fn key(this: &str, part: usize) -> String {
    format!("chosen_amount.{this}.{part}")
}

/// Refuses an `amount_of_chosen` the module does not carry out: around an
/// effect other than `damage`, reading `cost`, or naming a part that is
/// not an earlier `chosen` target of the same text.
pub(super) fn refuse(g: &Game) -> Option<EngineError> {
    for (k, d) in &g.defs {
        for ab in &d.abilities {
            for (i, e) in ab.effect.iter().enumerate() {
                if let Some(why) = unsupported(ab, i, e) {
                    return Some(EngineError::NotImplemented {
                        clause: r::CARD_TEXT,
                        what: format!("card `{k}`: `amount_of_chosen` {why}"),
                    });
                }
            }
        }
    }
    None
}

fn unsupported(ab: &AbilityDef, i: usize, e: &Effect) -> Option<String> {
    let Effect::AmountOfChosen {
        stat, part, effect, ..
    } = e
    else {
        return None;
    };
    if !matches!(**effect, Effect::Damage { .. }) {
        return Some(format!(
            "around `{}` (the amount set is damage's)",
            effect.word()
        ));
    }
    if stat == "cost" {
        return Some("reading `cost`".into());
    }
    let chosen = ab
        .effect
        .get(*part)
        .is_some_and(|p| matches!(p.target(), Some(Target::Chosen { .. })));
    if *part >= i || !chosen {
        return Some(format!(
            "reading part {part}, which is not an earlier part of the text with a `chosen` target"
        ));
    }
    None
}

/// The value `stat` of card `id` as it is now.
fn value(g: &Game, id: &str, stat: &str) -> i64 {
    let Some(c) = g.card(id) else { return 0 };
    match stat {
        "attack" => attack(g, c),
        "defense" => durability(g, c),
        other => super::stat(g, id, other),
    }
}

/// Fixes, as the targets of part `part` are chosen (5.2.3.d), the amount
/// of every `amount_of_chosen` of `ab` that reads them (QA-002).
pub(super) fn fix(m: &mut M, ab: &AbilityDef, this: &str, part: usize, chosen: &[String]) {
    for e in &ab.effect {
        let Effect::AmountOfChosen {
            pick,
            stat,
            part: p,
            ..
        } = e
        else {
            continue;
        };
        if *p != part {
            continue;
        }
        let values: Vec<(String, i64)> = chosen
            .iter()
            .map(|id| (id.clone(), value(&m.game, id, stat)))
            .collect();
        let read = pick.of(values.iter().map(|(_, v)| *v));
        let n = read.unwrap_or(0);
        vars_mut(&mut m.game).insert(key(this, part), n);
        let seen = if values.is_empty() {
            "no card was chosen".to_string()
        } else {
            values
                .iter()
                .map(|(id, v)| format!("{id}: {v}"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let mut rules = vec![r::PLAY_CHOOSE_TARGETS];
        let text = match read {
            Some(v) => format!(
                "{this}: the {} {stat} of the cards chosen is {v} ({seen}); the amount is fixed now, as they are chosen",
                pick.word()
            ),
            None => {
                rules.push(r::VARIABLE_UNDEFINED_ZERO);
                format!(
                    "{this}: the {} {stat} of the cards chosen: {seen}, so the number is not defined and counts as 0",
                    pick.word()
                )
            }
        };
        m.record("amount.chosen", text, &rules).note(
            "M.I.W's Q&A QA-002 (霊符「古き地縛霊の目覚め」): the amount is decided when the cards are chosen, so later changes to them, or their leaving, do not change it",
        );
    }
}

/// Applies `amount_of_chosen` `e`: its `damage` with the amount fixed when
/// its cards were chosen.
pub(super) fn apply(m: &mut M, e: &Effect, at: Applied<'_>) -> R<()> {
    let Effect::AmountOfChosen { part, effect, .. } = e else {
        return Ok(());
    };
    let n = vars(&m.game)
        .get(&key(at.this, *part))
        .copied()
        .unwrap_or(0);
    let mut once = (**effect).clone();
    if let Effect::Damage { amount, .. } = &mut once {
        *amount = n;
    }
    m.record(
        "amount.chosen",
        format!(
            "{}: {} is carried out with the amount {n} fixed when the cards were chosen",
            at.this,
            effect.word()
        ),
        &[r::PLAY_CHOOSE_TARGETS],
    );
    apply_effect(m, &once, at)
}

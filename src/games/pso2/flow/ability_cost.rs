//! The costs of an activated ability beyond 【ON⇒OFF】 and its PP
//! (209.1.3): the colour a coloured ①② requires (209.1.3.3: text field
//! `ability_color`; a PP of that colour must be there, while any PP may be
//! turned OFF), and the other costs printed before 「：」 (the ability's
//! `cost`, 209.1.3.1), paid when the activation is declared: discarding
//! cards from the hand or returning them to the deck (`put` to `discard`
//! or `deck` of `chosen` cards of zone `hand`: your own hand unless the
//! text says 「相手の」, 209.1.3.1.1). A cost that cannot be paid in full
//! makes the activation illegal.

use super::{M, cost, illegal, r, zn};
use crate::engine::card::Num;
use crate::engine::{AbilityDef, CardDef, Effect, EngineError, PlayerId, Side, Target};

/// 209.1.3.3: the colour a coloured ability cost requires, checked like a
/// card's colour requirement (209.1.2).
pub fn check_color(m: &mut M, p: PlayerId, def: &CardDef) -> Result<(), EngineError> {
    let need = def
        .text
        .get("ability_color")
        .and_then(|c| cost::named_color(c));
    cost::check_color(m, p, need, r::COLORED_ABILITY_COST)
}

/// Pays the ability's printed costs (209.1.3.1), in order.
pub fn pay(m: &mut M, p: PlayerId, card: &str, ab: &AbilityDef) -> Result<(), EngineError> {
    for e in &ab.cost {
        let Effect::Put {
            to,
            target:
                Some(
                    t @ Target::Chosen {
                        filter,
                        count,
                        up_to: false,
                        ..
                    },
                ),
            top: None,
            ..
        } = e
        else {
            return Err(super::ni(
                r::OTHER_COST_AT_DECLARATION,
                format!(
                    "an ability cost `{}` other than discarding or returning cards from the hand",
                    e.word()
                ),
            ));
        };
        if filter.zone.as_deref() != Some(zn::HAND)
            || !matches!(to.as_str(), zn::DISCARD | zn::DECK)
        {
            return Err(super::ni(
                r::OTHER_COST_AT_DECLARATION,
                "an ability cost moving cards other than from the hand to the discard or the deck",
            ));
        }
        let whose = if filter.side == Side::Opponent {
            "the opponent's"
        } else {
            "your own"
        };
        let holders: Vec<PlayerId> = if filter.side == Side::Opponent {
            m.game
                .player_ids()
                .filter(|&q| super::raid::opposed(&m.game, p, q))
                .collect()
        } else {
            vec![p]
        };
        let mut f = filter.clone();
        f.side = Side::Any;
        let have = holders
            .iter()
            .flat_map(|&q| m.game.zone_of(q, zn::HAND).to_vec())
            .filter(|id| super::targets::admits(&m.game, p, card, &f, id))
            .count();
        if have < *count as usize {
            return Err(illegal(
                r::OTHER_COST_AT_DECLARATION,
                format!(
                    "{card}'s ability costs {count} card(s) of {whose} hand to the {to}, and only {have} can be"
                ),
                vec![],
            ));
        }
        m.record(
            "cost",
            format!("{card}'s ability cost: {count} card(s) of {whose} hand to the {to}, paid"),
            &[r::OTHER_COST_AT_DECLARATION, r::DISCARD_COST_OWN_HAND],
        );
        super::put::put(m, p, card, to, Some(t), None, Vec::new())?;
    }
    Ok(())
}

/// The parts a triggered ability's cost may have (209.1.3.2): 【ON⇒OFF】
/// (`set_state` `off` on `this`), ① etc. (`pay_cost` with a number: that
/// many ON PP turned OFF, of any colour, 209.1.3), and cards from the hand
/// to the discard or the deck (`put`, as for an activated ability,
/// 209.1.3.1.1). `None`: every part is one of these.
pub fn trigger_cost_unsupported(cost: &[Effect]) -> Option<String> {
    cost.iter().find_map(|e| {
        let ok = match e {
            Effect::SetState {
                state,
                clear: false,
                target: Target::This,
            } => state == super::st::OFF,
            Effect::PayCost {
                amount: Some(Num::Int(n)),
                life: None,
                optional: false,
                var: None,
                otherwise,
            } => *n >= 0 && otherwise.is_empty(),
            Effect::Put {
                to,
                target: Some(Target::Chosen { filter, up_to: false, .. }),
                top: None,
                ..
            } => filter.zone.as_deref() == Some(zn::HAND) && matches!(to.as_str(), zn::DISCARD | zn::DECK),
            _ => false,
        };
        (!ok).then(|| format!(
            "a triggered ability's cost `{}` other than 【ON⇒OFF】 (`set_state` off on this), PP (`pay_cost` with a number) or cards from the hand to the discard or deck",
            e.word()
        ))
    })
}

/// Why player `p` cannot pay card `card`'s triggered-ability cost in full
/// now, or `None` when every part can be paid.
fn trigger_cost_shortfall(m: &M, p: PlayerId, card: &str, cost: &[Effect]) -> Option<String> {
    let mut pp = 0;
    let mut hand_needed = 0usize;
    for e in cost {
        match e {
            Effect::SetState { .. } if !super::is_on(&m.game, card) => {
                return Some(format!("{card} is not ON, so 【ON⇒OFF】 cannot be paid"));
            }
            Effect::PayCost {
                amount: Some(Num::Int(n)),
                ..
            } => pp += *n,
            Effect::Put {
                target: Some(Target::Chosen { filter, count, .. }),
                ..
            } => {
                let mut f = filter.clone();
                f.side = Side::Any;
                let have = m
                    .game
                    .zone_of(p, zn::HAND)
                    .iter()
                    .filter(|id| super::targets::admits(&m.game, p, card, &f, id))
                    .count();
                if have < hand_needed + *count as usize {
                    return Some(format!(
                        "it costs {count} card(s) from the hand and only {have} can be"
                    ));
                }
                hand_needed += *count as usize;
            }
            _ => {}
        }
    }
    let on = m
        .game
        .zone_of(p, zn::PP)
        .iter()
        .filter(|id| super::is_on(&m.game, id))
        .count() as i64;
    if on < pp {
        return Some(format!(
            "it costs {pp} PP and {} has {on} ON PP",
            crate::engine::player_name(p)
        ));
    }
    None
}

/// 209.1.3.2: at the moment triggered ability `key` (of card `card`, with
/// `cost`) triggers, its master decides whether to pay the cost (choice
/// `<key>.pay`: true / false); only when it is paid does the ability go to
/// the resolution zone. A cost that cannot be paid in full is not paid.
/// Returns whether it was paid.
pub fn pay_on_trigger(
    m: &mut M,
    p: PlayerId,
    card: &str,
    key: &str,
    ab: &AbilityDef,
) -> Result<bool, EngineError> {
    if let Some(why) = trigger_cost_shortfall(m, p, card, &ab.cost) {
        m.record(
            "cost",
            format!("{key} has a cost and {why}: it is not paid, so the ability is not put in the resolution zone"),
            &[r::TRIGGER_COST],
        )
        .obj(card.to_string());
        return Ok(false);
    }
    let choice = format!("{key}.pay");
    let v = m.choices.require(&choice, &["true", "false"])?;
    let Some(paid) = v.as_bool() else {
        return Err(EngineError::BadChoice {
            choice,
            value: v.to_string(),
            options: vec!["true".into(), "false".into()],
        });
    };
    if !paid {
        m.record(
            "cost",
            format!(
                "{} does not pay the cost of {key}: the ability is not put in the resolution zone",
                crate::engine::player_name(p)
            ),
            &[r::TRIGGER_COST],
        )
        .obj(card.to_string());
        return Ok(false);
    }
    m.record(
        "cost",
        format!(
            "{} pays the cost of {key} as it triggers: the ability goes to the resolution zone",
            crate::engine::player_name(p)
        ),
        &[r::TRIGGER_COST, r::ABILITY_COST],
    )
    .obj(card.to_string());
    let mut hand_moves = Vec::new();
    for e in &ab.cost {
        match e {
            Effect::SetState { .. } => super::set_on(m, card, false),
            Effect::PayCost {
                amount: Some(Num::Int(n)),
                ..
            } => cost::pay(m, p, *n, &format!("{key}'s cost"))?,
            other => hand_moves.push(other.clone()),
        }
    }
    let rest = AbilityDef {
        cost: hand_moves,
        ..ab.clone()
    };
    pay(m, p, card, &rest)?;
    Ok(true)
}

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
            format!("{card}'s ability cost: {count} card(s) of {whose} hand to the {to}, paid on declaration"),
            &[r::OTHER_COST_AT_DECLARATION, r::DISCARD_COST_OWN_HAND],
        );
        super::put::put(m, p, card, to, Some(t), None, Vec::new())?;
    }
    Ok(())
}

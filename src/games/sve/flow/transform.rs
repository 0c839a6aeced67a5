//! Transforming 変身する (5.16.1): the card is banished and as many tokens
//! of the named token are created in its zone (9.1.2, as `summon` does).

use super::*;

/// 5.16.1 `become` (変身する): each target on a field is banished, then a
/// token of `card` is created in that field for each card banished (a
/// Stack amulet that stays, 13.3.2, is not banished and makes none).
pub(super) fn transform(m: &mut M, targets: &[String], card: &str) -> R<()> {
    for t in targets {
        let Some(c) = m.game.card(t).cloned() else {
            continue;
        };
        if c.zone.kind != zn::FIELD {
            return Err(EngineError::not_implemented(
                r::TRANSFORM,
                format!("transforming {t} outside the field ({})", c.zone),
            ));
        }
        if stack_replaces_leaving(m, t) {
            continue;
        }
        m.record(
            "effect.transform",
            format!("{t} transforms into {card}: it is banished"),
            &[r::TRANSFORM, r::BANISH],
        )
        .obj(t.clone());
        mv(m, t, ZoneId::of(c.owner, zn::BANISHED), false);
        if let Some(p) = c.zone.player {
            let summon = Effect::Summon {
                card: card.to_string(),
                count: 1,
                who: Who::You,
            };
            apply_effect(m, &summon, &[], t, p)?;
        }
    }
    Ok(())
}

//! 「(単位数)につき(数値)」 "for each" amounts (5.28): the core `for_each`
//! counts the cards its `count` filter admits when the effect is carried
//! out, divides by `per` rounding down (the remainder does not count, 5.28.1
//! 例) and carries out its `effect` **once** with the amount multiplied by
//! that number, not the effect that many times (5.28.1): one damage event,
//! one draw instruction, one buff.

use super::*;

/// Every effect written in `effects`, nested ones (Choose options, die
/// results, `for_each`'s own) included.
pub(super) fn every_effect(effects: &[Effect]) -> Vec<&Effect> {
    let mut out = Vec::new();
    for e in effects {
        out.push(e);
        match e {
            Effect::Choose { options, .. } => {
                out.extend(options.iter().flat_map(|o| every_effect(o)))
            }
            Effect::RollDie { results, .. } => {
                out.extend(results.iter().flat_map(|o| every_effect(&o.effect)));
            }
            _ => out.extend(every_effect(e.nested())),
        }
    }
    out
}

/// A "for each" the module can't carry out, for the load-time check: a
/// unit below 1, or an effect whose amount it does not scale.
pub(super) fn unsupported(key: &str, effects: &[Effect]) -> Option<(&'static str, String)> {
    every_effect(effects).into_iter().find_map(|e| {
        let Effect::ForEach { per, effect, .. } = e else {
            return None;
        };
        if *per < 1 {
            return Some((
                r::FOR_EACH,
                format!("a `for_each` of `{key}` per {per} card(s) (the unit is a number of cards, at least 1)"),
            ));
        }
        effect.scaled(1).is_none().then(|| {
            (
                r::FOR_EACH,
                format!(
                    "`for_each` over `{}` in `{key}` (the amounts scaled are {})",
                    effect.word(),
                    Effect::SCALED_AMOUNTS
                ),
            )
        })
    })
}

/// Carries out `for_each`: counts the cards `count` admits for `this`'s
/// ability mastered by `master`, and carries out `effect` once with its
/// amount multiplied by the count divided by `per` (5.28.1).
pub(super) fn for_each(
    m: &mut M,
    eff: &Effect,
    targets: &[String],
    this: &str,
    master: PlayerId,
) -> R<()> {
    let Effect::ForEach { count, per, effect } = eff else {
        return Ok(());
    };
    let n = candidates(&m.game, count, master, this, false, false).len() as i64;
    let times = n / (*per).max(1);
    let Some(once) = effect.scaled(times) else {
        return Err(EngineError::not_implemented(
            r::FOR_EACH,
            format!("`for_each` over `{}`", effect.word()),
        ));
    };
    let unit = if *per == 1 {
        "each card".to_string()
    } else {
        format!("each {per} cards (the remainder {} not counted)", n % per)
    };
    m.record(
        "effect.for_each",
        format!(
            "{this}: {n} card(s) counted, {unit}: {} is carried out once with its amount multiplied by {times}, not {times} time(s)",
            effect.word()
        ),
        &[r::FOR_EACH],
    )
    .obj(this)
    .change(format!("{this}.for_each"), 0, times);
    apply_effect(m, &once, targets, this, master)
}

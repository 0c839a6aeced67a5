//! 「入れ替える」 (the core effect `swap`, `target` and `with`): two units
//! on battle squares each go onto the other's square at once, square to
//! square, the same objects (2.23.8-4). Both are targets chosen as the
//! card is played or the ability is stacked (4.7.2-5, 4.8.4-2), written as
//! one list, the `target` card first; each is checked again on resolution
//! (4.9.2-1), and with fewer than two of them still legal nothing is
//! swapped (1.1.3).

use crate::engine::{CardId, Effect, EngineError, Filter, Game, PlayerId, Target};

use super::effects::Ctx;
use super::{M, Tgt, board, ni, r, targets};

/// Refuses a swap whose two parts are not one chosen unit each.
pub fn refuse(key: &str, e: &Effect) -> Result<(), EngineError> {
    let Effect::Swap { target, with } = e else {
        return Ok(());
    };
    if one_chosen(target).is_some() && one_chosen(with).is_some() {
        return Ok(());
    }
    Err(ni(
        r::SQUARE_TO_SQUARE,
        format!("card `{key}`: a swap of anything but two chosen units (`count` 1 each)"),
    ))
}

/// The filter of a selector choosing exactly one card.
fn one_chosen(t: &Target) -> Option<&Filter> {
    match t {
        Target::Chosen {
            filter,
            count: 1,
            up_to: false,
            ..
        } => Some(filter),
        _ => None,
    }
}

/// The two filters of a swap, `target`'s first.
pub fn filters(e: &Effect) -> Option<[&Filter; 2]> {
    let Effect::Swap { target, with } = e else {
        return None;
    };
    Some([one_chosen(target)?, one_chosen(with)?])
}

/// Chooses a swap's two targets from the choice `key` (a list: the
/// `target` card, then the `with` card). `None`: one of them has no legal
/// option, so the spell can't be played (4.11.3).
pub fn choose(
    m: &mut M,
    controller: PlayerId,
    source: &str,
    cols: &[&str],
    [fa, fb]: [&Filter; 2],
    key: &str,
) -> Result<Option<Vec<Tgt>>, EngineError> {
    let a = targets::candidates(&m.game, controller, source, cols, fa);
    let b = targets::candidates(&m.game, controller, source, cols, fb);
    if a.is_empty() || b.is_empty() {
        return Ok(None);
    }
    let named: Vec<CardId> = match m.choices.take(key) {
        Some(serde_json::Value::Array(v)) => v
            .iter()
            .map(|x| x.as_str().map_or_else(|| x.to_string(), str::to_string))
            .map(CardId::from)
            .collect(),
        Some(other) => vec![other.to_string().into()],
        None if a.len() == 1 && b.len() == 1 && a != b => vec![a[0].clone(), b[0].clone()],
        None => {
            let mut options = a.clone();
            options.extend(b.iter().filter(|c| !a.contains(c)).cloned());
            return Err(EngineError::MissingChoice {
                choice: key.to_string(),
                options: crate::engine::texts(&options),
            });
        }
    };
    let [x, y] = named.as_slice() else {
        return Err(EngineError::BadChoice {
            choice: key.to_string(),
            value: named.join(", "),
            options: vec!["two units: the target, then the one it is swapped with".into()],
        });
    };
    if x == y {
        return Err(super::illegal(
            r::TARGET_ONCE,
            "one 対象の can't choose the same card twice",
            vec![],
        ));
    }
    for (id, legal) in [(x, &a), (y, &b)] {
        if !legal.contains(id) {
            return Err(super::illegal(
                r::TARGETS,
                format!(
                    "`{key}`: {id} is not a legal target (legal: {})",
                    legal.join(", ")
                ),
                crate::engine::texts(legal),
            ));
        }
    }
    Ok(Some(
        [x, y]
            .into_iter()
            .map(|c| Tgt {
                card: c.clone(),
                inc: m.game.card(c).map_or(0, |x| x.incarnation),
            })
            .collect(),
    ))
}

/// The parts of a swap's targets still legal on resolution (4.9.2-1):
/// the `target` card against its filter, the `with` card against its own.
pub fn legal(
    g: &Game,
    controller: PlayerId,
    source: &str,
    cols: &[&str],
    e: &Effect,
    ts: &[Tgt],
) -> Vec<CardId> {
    let Some(fs) = filters(e) else {
        return Vec::new();
    };
    fs.iter()
        .zip(ts.chunks(1))
        .flat_map(|(f, t)| targets::legal_group(g, controller, source, cols, f, t))
        .collect()
}

/// Carries out the swap of `ids` (its legal targets): each onto the
/// other's square at once, square to square; with fewer than two units on
/// battle squares nothing is swapped (1.1.3).
pub fn apply(m: &mut M, cx: &Ctx<'_>, ids: &[CardId]) -> Result<(), EngineError> {
    let squares: Vec<(CardId, &'static str)> = ids
        .iter()
        .filter_map(|id| {
            let c = m.game.card(id)?;
            board::square(c.zone.kind).map(|sq| (id.clone(), sq))
        })
        .collect();
    let [(a, sa), (b, sb)] = squares.as_slice() else {
        m.record(
            "put",
            format!(
                "{} can't swap: two units on battle squares are needed",
                cx.source
            ),
            &[r::IMPOSSIBLE],
        );
        return Ok(());
    };
    m.record(
        "put",
        format!(
            "{a} and {b} swap squares ({sa} ↔ {sb}): each is put onto the other's square at once"
        ),
        &[r::SQUARE_TO_SQUARE],
    );
    let state = super::text(&m.game, cx.source, "put_state").map(str::to_string);
    let (a, b, sa, sb) = (a.clone(), b.clone(), *sa, *sb);
    super::nearby::during(m, |m| {
        super::put::relocate(m, &a, sb, state.as_deref())?;
        super::put::relocate(m, &b, sa, state.as_deref())
    })
}

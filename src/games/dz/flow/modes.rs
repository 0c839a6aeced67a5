//! Modal spells (4.7.2-2): a strategy whose text offers abilities to
//! choose from (「以下から１つを選ぶ」), written as one `choose` effect. Its
//! player picks the option(s) as the spell is played, with the choice
//! `mode` (an option's index from 0, or a list of them), before X
//! (4.7.2-3) and the targets (4.7.2-5); only the picked options are the
//! spell's effects from then on.

use crate::engine::{Effect, EngineError, Game, PlayerId, player_name};

use super::{M, illegal, ni, r, targets};

/// The `choose` effect of a spell's text, if it has one.
fn choice_of(g: &Game, def: &str) -> Option<(u32, bool, usize)> {
    targets::effects_of(g, def, "spell")
        .iter()
        .find_map(|e| match e {
            Effect::Choose {
                count,
                up_to,
                options,
                ..
            } => Some((*count, *up_to, options.len())),
            _ => None,
        })
}

/// The options `p` picks for the spell `card` as it is played (none for a
/// spell with no choice).
pub fn decide(m: &mut M, p: PlayerId, card: &str) -> Result<Vec<usize>, EngineError> {
    let def = m.game.card(card).map(|c| c.def.clone()).unwrap_or_default();
    let Some((count, up_to, n)) = choice_of(&m.game, &def) else {
        return Ok(Vec::new());
    };
    let options: Vec<String> = (0..n).map(|i| i.to_string()).collect();
    let picked: Vec<usize> = match m.choices.take("mode") {
        Some(serde_json::Value::Array(a)) => a
            .iter()
            .filter_map(|v| v.as_u64())
            .map(|v| v as usize)
            .collect(),
        Some(v) => v.as_u64().map(|v| vec![v as usize]).unwrap_or_default(),
        None => {
            return Err(EngineError::MissingChoice {
                choice: "mode".into(),
                options,
            });
        }
    };
    let mut distinct = picked.clone();
    distinct.sort_unstable();
    distinct.dedup();
    let count = count as usize;
    let size_ok = if up_to {
        (1..=count).contains(&distinct.len())
    } else {
        distinct.len() == count
    };
    if !size_ok || distinct.len() != picked.len() || distinct.iter().any(|i| *i >= n) {
        return Err(illegal(
            r::MODES,
            format!(
                "{card}: choose {}{count} of the options 0..{} (`mode`)",
                if up_to { "up to " } else { "" },
                n.saturating_sub(1)
            ),
            vec![],
        ));
    }
    m.record(
        "mode",
        format!(
            "{} chooses option(s) {} of {card} as it is played",
            player_name(p),
            distinct
                .iter()
                .map(usize::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        ),
        &[r::MODES],
    );
    Ok(distinct)
}

/// The effects of a spell's text with the options picked: a `choose`
/// effect is replaced by the picked options' effects.
pub fn spell_effects(g: &Game, def: &str, picked: &[usize]) -> Vec<Effect> {
    let mut out = Vec::new();
    for e in targets::effects_of(g, def, "spell") {
        match e {
            Effect::Choose { options, .. } => {
                for i in picked {
                    out.extend(options.get(*i).cloned().unwrap_or_default());
                }
            }
            other => out.push(other),
        }
    }
    out
}

/// Refuses a `choose` outside a strategy's text, or one inside another.
pub fn refuse(key: &str, trigger: &str, effects: &[Effect]) -> Result<(), EngineError> {
    for e in effects {
        if let Effect::Choose { options, .. } = e {
            let nested = options
                .iter()
                .flatten()
                .any(|o| matches!(o, Effect::Choose { .. }));
            if trigger != "spell" || nested {
                return Err(ni(
                    r::MODES,
                    format!(
                        "card `{key}`: a choice of options outside a strategy's text, or nested"
                    ),
                ));
            }
        }
    }
    Ok(())
}

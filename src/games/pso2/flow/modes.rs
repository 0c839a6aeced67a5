//! Modal cards (406.3): 「以下から1つを選ぶ」 and the "do A or do B" reading
//! of 「または」 (GL:または ※2). A card with the keyword `choose_one` has one
//! `effect` ability per option; its player chooses one on declaration
//! (choice `mode`, from 1), and only that one resolves. Without the keyword
//! every `effect` ability resolves in printed order (211.2.2).

use super::{M, r};
use crate::engine::{CardDef, Effect, EngineError};

/// The options of a card: its `effect` abilities' effects.
fn options(d: &CardDef) -> Vec<Vec<Effect>> {
    d.abilities
        .iter()
        .filter(|a| a.trigger == "effect")
        .map(|a| a.effect.clone())
        .collect()
}

/// On declaration: the chosen option of a modal card (remembered for its
/// resolution), or all of a card's effects in order.
pub fn declare(m: &mut M, d: &CardDef, card: &str) -> Result<Vec<Effect>, EngineError> {
    let opts = options(d);
    if !d.has_keyword("choose_one") {
        return Ok(opts.into_iter().flatten().collect());
    }
    let names: Vec<String> = (1..=opts.len()).map(|i| i.to_string()).collect();
    let Some(v) = m.choices.take("mode") else {
        return Err(EngineError::MissingChoice {
            choice: "mode".into(),
            options: names,
        });
    };
    let Some(i) = v
        .as_u64()
        .map(|n| n as usize)
        .filter(|n| (1..=opts.len()).contains(n))
    else {
        return Err(EngineError::BadChoice {
            choice: "mode".into(),
            value: v.to_string(),
            options: names,
        });
    };
    super::state::of(&mut m.game).modes.insert(card.into(), i);
    m.record(
        "play",
        format!(
            "{card}: its player chooses option {i} of {} on declaration",
            opts.len()
        ),
        &[r::MODES, r::GL_OR],
    );
    Ok(opts[i - 1].clone())
}

/// On resolution: the effects that resolve (the chosen option, or all).
pub fn resolving(m: &mut M, d: &CardDef, card: &str) -> Vec<Effect> {
    let opts = options(d);
    match super::state::of(&mut m.game).modes.remove(card) {
        Some(i) if i >= 1 => opts.into_iter().nth(i - 1).unwrap_or_default(),
        _ => opts.into_iter().flatten().collect(),
    }
}

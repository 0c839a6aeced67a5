//! Replacement effects 置換効果 (103.4.3, GL:代わりに): "when this card
//! would be destroyed, instead …" (trigger `replace_destroy`, on the card
//! it protects). The replaced action never happens; the replacing one
//! happens instead (103.4.3.1). When several apply to one destruction, the
//! owner of the affected card chooses which applies (103.4.3.2, choice
//! `<card>.replace`: the ability's index); the others then have nothing
//! left to replace.
//!
//! A replacement that already replaced a destruction of the same card
//! object in the same step, and left it to be destroyed again (its
//! damage still at or above its HP), does not apply again: repeating it
//! would change nothing (103.2.1.2), and the destruction happens.

use super::{M, continuous, effects, r, zn};
use crate::engine::{EngineError, Target, player_name};

/// The trigger word of "if this card would be destroyed, instead …".
pub const DESTROY: &str = "replace_destroy";

/// Forgets the replacements applied during the step that ended.
pub fn forget(m: &mut M) {
    if super::state::read(&m.game).is_some_and(|s| !s.replaced.is_empty()) {
        super::state::of(&mut m.game).replaced.clear();
    }
}

/// What a replacement ability may not say (checked before the first step).
pub fn unsupported(effects: &[crate::engine::Effect]) -> Option<String> {
    effects
        .iter()
        .any(|e| {
            e.target()
                .is_some_and(|t| matches!(t, Target::Chosen { .. }))
        })
        .then(|| "a replacement effect that chooses targets is not implemented".to_string())
}

/// Replaces the destruction of field card `id` (about to happen for
/// `why`) when one of its replacement abilities applies. Returns whether
/// it was replaced (the card is then not destroyed).
pub fn destruction(m: &mut M, id: &str, why: &str) -> Result<bool, EngineError> {
    let Some(c) = m.game.card(id).cloned() else {
        return Ok(false);
    };
    if c.zone.kind != zn::FIELD {
        return Ok(false);
    }
    let Some(d) = m.game.def_of(id).cloned() else {
        return Ok(false);
    };
    if super::abilities::lost(&m.game, id) {
        if d.abilities.iter().any(|a| a.trigger == DESTROY) {
            super::abilities::say_lost(
                m,
                id,
                "replacement ability does not replace its destruction",
                &[r::REPLACEMENT],
            );
        }
        return Ok(false);
    }
    let mut fresh = Vec::new();
    for (i, a) in d.abilities.iter().enumerate() {
        if a.trigger != DESTROY {
            continue;
        }
        if a.condition
            .as_ref()
            .is_some_and(|k| !continuous::holds(&m.game, c.controller, k))
        {
            m.record(
                "replacement",
                format!("{id}'s replacement ability does not apply: its condition is not met"),
                &[r::REPLACEMENT, r::CONTINUOUS],
            );
            continue;
        }
        let key = (id.to_string(), c.incarnation, i);
        if super::state::read(&m.game).is_some_and(|s| s.replaced.contains(&key)) {
            m.record(
                "replacement",
                format!(
                    "{id}'s replacement ability already replaced its destruction in this step and left it to be destroyed again: applying it again would change nothing, so the destruction happens"
                ),
                &[r::REPLACEMENT, r::ACTION_NO_CHANGE],
            );
            continue;
        }
        fresh.push((i, key, a.effect.clone()));
    }
    if fresh.is_empty() {
        return Ok(false);
    }
    let pick = if fresh.len() == 1 {
        0
    } else {
        let options: Vec<String> = fresh.iter().map(|(i, _, _)| i.to_string()).collect();
        let choice = format!("{id}.replace");
        let owner = player_name(c.owner);
        match m.choices.take(&choice) {
            None => {
                return Err(EngineError::MissingChoice {
                    choice,
                    options: options
                        .iter()
                        .map(|o| format!("{o} (chosen by {owner}, the owner, 103.4.3.2)"))
                        .collect(),
                });
            }
            Some(v) => {
                let s = v
                    .as_u64()
                    .map(|n| n.to_string())
                    .or_else(|| v.as_str().map(str::to_string))
                    .unwrap_or_default();
                let Some(k) = options.iter().position(|o| *o == s) else {
                    return Err(EngineError::BadChoice {
                        choice,
                        value: v.to_string(),
                        options,
                    });
                };
                m.record(
                    "replacement",
                    format!(
                        "{} replacement abilities apply to the destruction of {id}: its owner {owner} chooses ability {s}",
                        fresh.len()
                    ),
                    &[r::REPLACEMENT_ORDER],
                );
                k
            }
        }
    };
    let (_, key, effects) = fresh.swap_remove(pick);
    super::state::of(&mut m.game).replaced.insert(key);
    m.record(
        "replacement",
        format!(
            "{id} would be destroyed ({why}); its replacement ability applies instead: the destruction does not happen"
        ),
        &[r::REPLACEMENT, r::REPLACED_NEVER_HAPPENS, r::GL_INSTEAD],
    )
    .obj(id.to_string());
    effects::apply_all(m, c.controller, id, &effects, &[])?;
    for _ in fresh {
        m.record(
            "replacement",
            format!("{id}'s other replacement ability has nothing left to replace: the destruction did not happen"),
            &[r::REPLACED_NEVER_HAPPENS, r::REPLACEMENT_ORDER],
        );
    }
    Ok(true)
}

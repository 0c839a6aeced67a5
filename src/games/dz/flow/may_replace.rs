//! Optional replacement effects: 「このカードがスクエアから墓地に置かれる
//! 時、かわりに…してよい」 (an `instead_of_graveyard` ability written
//! `optional`, 4.15.1–4.15.2). As the event would happen, the card's
//! controller chooses whether to apply it, with the choice
//! `<card>.replace` (`true` / `false`), and the card its text chooses
//! (「…カードの下に」, not a target) with `<card>.host` when there are
//! several. An option that includes something impossible can't be chosen
//! (4.15.7): when the text's chosen card has no legal option, the
//! replacement is not applied, and choosing it is refused.

use crate::engine::{Card, CardId, Effect, EngineError, Target, player_name, texts};

use super::effects::Ctx;
use super::{M, Tgt, defer, dz, illegal, label, r, targets};

/// The card's optional replacement of going from a square to the
/// graveyard, if it has one.
fn optional(m: &M, c: &Card) -> Option<Vec<Effect>> {
    let d = m.game.defs.get(&c.def)?;
    d.abilities
        .iter()
        .find(|a| a.trigger == "instead_of_graveyard" && a.optional)
        .map(|a| a.effect.clone())
}

/// The cards each effect's text may choose (`None`: it chooses none).
fn options(m: &M, c: &Card, effects: &[Effect]) -> Vec<Option<Vec<CardId>>> {
    effects
        .iter()
        .map(|e| match targets::target_of(e) {
            Some(Target::Chosen { filter, .. }) => Some(
                targets::candidates(&m.game, c.controller, &c.id, &[], filter)
                    .into_iter()
                    .filter(|h| *h != c.id)
                    .filter(|h| {
                        !(super::attach::only_without_toki(m, &c.id)
                            && super::attach::has_toki(m, h))
                    })
                    .collect(),
            ),
            _ => None,
        })
        .collect()
}

/// Decides and applies `c`'s optional replacement. `None`: it has none;
/// `Some(true)`: applied instead of the event; `Some(false)`: not applied
/// (declined, impossible, or a refusal deferred to the action).
pub fn apply(m: &mut M, c: &Card) -> Option<bool> {
    let effects = optional(m, c)?;
    let opts = options(m, c, &effects);
    let possible = opts.iter().flatten().all(|o| !o.is_empty());
    let key = format!("{}.replace", c.id);
    let p = c.controller;
    let given = m
        .decided_by(p, |m| Ok((m.choices.take(&key), m.choices.shown(&key))))
        .unwrap_or((None, key.clone()));
    let who = player_name(p);
    let this = label(&m.game, &c.id);
    match (given.0.as_ref().map(|v| v.as_bool()), possible) {
        (None, false) | (Some(Some(true)), false) => {
            m.record(
                "replacement",
                format!(
                    "{this} would go from a square to the graveyard: its optional replacement includes something impossible (no card its text names), so {who} can't choose it; it goes to the graveyard"
                ),
                &[r::REPLACE_OPTION_IMPOSSIBLE, r::IMPOSSIBLE],
            );
            if given.0.is_some() {
                defer(
                    m,
                    illegal(
                        r::REPLACE_OPTION_IMPOSSIBLE,
                        format!(
                            "{this}'s replacement can't be chosen: the option includes something impossible (no card its text names)"
                        ),
                        vec![format!("{key}: false")],
                    ),
                );
            }
            Some(false)
        }
        (None, true) => {
            defer(
                m,
                EngineError::MissingChoice {
                    choice: given.1,
                    options: texts(&["true", "false"]),
                },
            );
            Some(false)
        }
        (Some(None), _) => {
            defer(
                m,
                EngineError::BadChoice {
                    choice: key,
                    value: given.0.map(|v| v.to_string()).unwrap_or_default(),
                    options: texts(&["true", "false"]),
                },
            );
            Some(false)
        }
        (Some(Some(false)), _) => {
            m.record(
                "replacement",
                format!("{this} would go from a square to the graveyard: {who} chooses not to apply its optional replacement"),
                &[r::REPLACEMENT, r::REPLACE_OPTION_IMPOSSIBLE],
            );
            Some(false)
        }
        (Some(Some(true)), true) => Some(replace(m, c, &effects, &opts)),
    }
}

/// Applies the replacement, its chosen card read from `<card>.host`.
fn replace(m: &mut M, c: &Card, effects: &[Effect], opts: &[Option<Vec<CardId>>]) -> bool {
    let key = format!("{}.host", c.id);
    let mut chosen = Vec::new();
    for o in opts {
        let Some(o) = o else {
            chosen.push(None);
            continue;
        };
        let pick = if o.len() == 1 {
            Some(o[0].clone())
        } else {
            match m.decided_by(c.controller, |m| m.choices.exactly(&key, o, 1)) {
                Ok(mut v) => v.pop(),
                Err(e) => {
                    defer(m, e);
                    None
                }
            }
        };
        let Some(pick) = pick else { return false };
        let inc = m.game.card(&pick).map_or(0, |x| x.incarnation);
        chosen.push(Some(super::Chosen::Cards(vec![Tgt { card: pick, inc }])));
    }
    m.record(
        "replacement",
        format!(
            "{} would go from a square to the graveyard: {} chooses to apply its optional replacement instead; the event does not happen and triggers nothing",
            label(&m.game, &c.id),
            player_name(c.controller)
        ),
        &[
            r::REPLACEMENT,
            r::REPLACE_INSTEAD,
            r::REPLACE_OPTION_IMPOSSIBLE,
            r::REPLACED_DID_NOT_HAPPEN,
            r::REPLACED_NO_TRIGGER,
        ],
    );
    dz(&mut m.game).replacing.insert(c.id.clone());
    let cx = Ctx {
        controller: c.controller,
        source: &c.id,
        source_colours: super::colours(&m.game, &c.id),
    };
    if let Err(e) = super::effects::apply(m, &cx, effects, &chosen) {
        defer(m, e);
    }
    dz(&mut m.game).replacing.remove(&c.id);
    true
}

//! Effects that change a card's colour (色を変更する; 2.27 ¶4 ex2): a
//! `change_info` whose only field is `text.colour` (`"blue"`,
//! `"red/black"`, `"colourless"`). The card's colours are then those
//! the effect names instead of its use cost's (2.4.2), for as long as the
//! effect says (4.14.3-1): so are its energy as a cost (1.2.3-1), its
//! 耐性 as a source (5.17.2, 5.17.3) and filters by colour. Its use cost
//! does not change. The latest change wins.

use crate::engine::state::Modifier;
use crate::engine::{CardId, Effect, EngineError, Until};

use super::{COLOURS, M, bad, label, ni, r};

/// The modifier that records the colours set, as a bit mask over
/// [`COLOURS`].
pub const STAT: &str = "colour";

/// The colours a mask names, in [`COLOURS`] order.
pub fn decode(mask: i64) -> Vec<&'static str> {
    COLOURS
        .iter()
        .enumerate()
        .filter(|(i, _)| mask & (1 << i) != 0)
        .map(|(_, c)| *c)
        .collect()
}

/// Whether `e` is a colour change: a `change_info` of `text.colour` alone.
pub fn is_change(e: &Effect) -> bool {
    matches!(e, Effect::ChangeInfo {
        name: None,
        card_type: None,
        traits,
        replace_traits: false,
        text,
        ..
    } if traits.is_empty() && text.len() == 1 && text.contains_key(STAT))
}

/// Refuses, when the cards are read, a colour change this module can't
/// carry out: one by a static ability (not built), or a word that is no
/// DZ colour (bad input, 2.4.2-3).
pub fn refuse(key: &str, trigger: &str, e: &Effect) -> Result<(), EngineError> {
    if trigger == super::statics::STATIC {
        return Err(ni(
            r::CONTINUOUS,
            format!("card `{key}`: a colour change by a static ability"),
        ));
    }
    if let Effect::ChangeInfo { text, .. } = e
        && let Some(v) = text.get(STAT)
    {
        encode(v).map_err(|w| bad(format!("card `{key}`: {w}")))?;
    }
    Ok(())
}

/// The mask of `"blue"`, `"red/black"` or `"colourless"` (no colour,
/// 2.4.2-1); a word that is no DZ colour is refused (2.4.2-3).
fn encode(value: &str) -> Result<i64, String> {
    let mut mask = 0;
    for w in value.split(['/', ',']).map(str::trim) {
        if w == "colourless" {
            continue;
        }
        let Some(i) = COLOURS.iter().position(|c| *c == w) else {
            return Err(format!(
                "colour `{w}` (one of {}, or colourless)",
                COLOURS.join(", ")
            ));
        };
        mask |= 1 << i;
    }
    Ok(mask)
}

/// Changes the colours of `cards` to `value` until `until`.
pub fn change(
    m: &mut M,
    source: &str,
    cards: Vec<CardId>,
    value: &str,
    until: Until,
) -> Result<(), EngineError> {
    let mask = encode(value).map_err(bad)?;
    for id in cards {
        if let Some(c) = m.game.cards.get_mut(&id) {
            let mut change = Modifier::addition(STAT, mask, until, source);
            change.set = true;
            c.modifiers.push(change);
        }
        let now = decode(mask);
        m.record(
            "colour",
            format!(
                "{} becomes {}",
                label(&m.game, &id),
                if now.is_empty() {
                    "colourless".to_string()
                } else {
                    now.join("/")
                }
            ),
            &[r::COLOUR, r::CONTINUOUS, r::DURATION, r::LOCKED_SET],
        );
    }
    Ok(())
}

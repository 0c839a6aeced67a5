//! 覚醒 awakening (5.7.3): a plan-zone effect, an alternative cost. A card
//! with it played from the plan zone may be played for its 覚醒 cost
//! instead of its use cost (5.7.3-1), or for its use cost all the same
//! (5.7.3-2); the player chooses as the card is played, before X is
//! decided (4.7.2-3). Played from the hand it has no 覚醒 (5.7.1).
//!
//! Card text: keyword `awakening`; the 覚醒 cost in stats with the prefix
//! `awaken_` (`awaken_red` … for coloured symbols, `awaken` colourless,
//! `awaken_x` / `awaken_x_<colour>` for X symbols, 1.2.3-3). Choice
//! `awaken`: `true` to use it (default: the use cost).

use crate::engine::{EngineError, PlayerId, player_name};

use super::{M, has_kw, illegal, label, r};

/// The prefix of the 覚醒 cost's stats.
pub const PREFIX: &str = "awaken_";

/// Whether `card`, played by `p` from zone `from`, is played for its 覚醒
/// cost: the stat prefix of the cost paid (`""`, the use cost, or
/// [`PREFIX`]).
pub fn decide(m: &mut M, p: PlayerId, card: &str, from: &str) -> Result<&'static str, EngineError> {
    if !has_kw(&m.game, card, "awakening") {
        return Ok("");
    }
    if from != "plan" {
        if m.choices.take("awaken").and_then(|v| v.as_bool()) == Some(true) {
            return Err(illegal(
                r::ZONE_EFFECT,
                format!(
                    "覚醒 is a plan-zone effect: {card} is played from the {from} zone, not the plan zone"
                ),
                vec![],
            ));
        }
        return Ok("");
    }
    let chosen = match m.choices.or_default("awaken", &["true"]) {
        None => false,
        Some(v) => v.as_bool().ok_or_else(|| EngineError::BadChoice {
            choice: "awaken".into(),
            value: v.to_string(),
            options: vec!["true".into(), "false".into()],
        })?,
    };
    let who = player_name(p);
    if chosen {
        let cost = super::cost::Cost::of(m, card, PREFIX);
        m.record(
            "awakening",
            format!(
                "{who} plays {} from the plan zone for its 覚醒 cost {}{} instead of its use cost (chosen before X)",
                label(&m.game, card),
                cost.text(),
                if super::cost::has_x(m, card, PREFIX) { " and X" } else { "" }
            ),
            &[r::AWAKENING, r::COST_FIXED],
        );
        Ok(PREFIX)
    } else {
        m.record(
            "awakening",
            format!(
                "{who} plays {} from the plan zone for its use cost: 覚醒 is not used",
                label(&m.game, card)
            ),
            &[r::AWAKENING_OPTIONAL, r::COST_FIXED],
        );
        Ok("")
    }
}

//! A Choose whose number of options a condition decides (5.17.3.1, the
//! core `choose` `instead`: 「【ネクロチャージ(10)】かわりに2つまでチョイス
//! する」). The pick is a pre-play choice (5.17.3), so the condition is
//! read as the play begins, not as the effect resolves: Spellchain and
//! Necrocharge, fixed at resolution for every other purpose, are read then
//! for this one (5.17.3.1.1, 13.3.1 item 4.1, 13.5.1 item 3.2.1). The
//! number decided is kept with the ability until it resolves.

use super::*;
use crate::engine::card::ChooseInstead;

/// The number of options a Choose takes: `(count, up_to)` as written, or
/// `instead`'s when its condition holds. At play (`record`) the condition
/// is read and the outcome traced and kept under `k`; on resolution the
/// kept number is used.
pub(super) fn decide(
    m: &mut M,
    written: (u32, bool),
    instead: Option<&ChooseInstead>,
    k: &str,
    at: (&str, PlayerId),
    record: bool,
) -> (u32, bool) {
    let Some(inst) = instead else {
        return written;
    };
    if !record && let Some(kept) = m.game.own::<SveState>().choose_counts.remove(k) {
        return kept;
    }
    let (this, master) = at;
    let (ok, mut rules, why) = holds(&m.game, &inst.condition, master, this);
    let decided = if ok {
        (inst.count, inst.up_to)
    } else {
        written
    };
    if record {
        rules.extend_from_slice(&[
            r::PRE_PLAY_CHOICE,
            r::PRE_PLAY_CHOOSE,
            r::CHOOSE_AT_PLAY,
            r::CHOOSE_COUNT_AT_PLAY,
        ]);
        let fixed_at_resolution = inst.condition.zone.as_deref() == Some(zn::CEMETERY)
            || inst.condition.count.as_deref() == Some(SPELLCHAIN);
        if fixed_at_resolution {
            // 5.17.3.1.1: a number otherwise fixed at resolution is read
            // at the play's start for this purpose only.
            rules.push(r::CHOOSE_COUNT_RESOLUTION_VALUE);
            rules.push(if inst.condition.zone.is_some() {
                r::NECROCHARGE_CHOOSE
            } else {
                r::SPELLCHAIN_CHOOSE
            });
        }
        let how = |(n, up): (u32, bool)| format!("{}{n}", if up { "up to " } else { "" });
        m.record(
            "play.choose_count",
            format!(
                "`{k}`: the number of options is read as the play begins ({why}): {} option(s){}",
                how(decided),
                if ok {
                    format!(" instead of {}", how(written))
                } else {
                    String::new()
                }
            ),
            &rules,
        );
        m.game
            .own::<SveState>()
            .choose_counts
            .insert(k.to_string(), decided);
    }
    decided
}

/// A Choose whose number is decided by the cards in a hand or EX area:
/// the card being played has already left that zone when the pick is
/// made (10.6.2.1), so its count as the play began is not modelled.
pub(super) fn unsupported(
    key: &str,
    ab: &crate::engine::AbilityDef,
) -> Option<(&'static str, String)> {
    ab.effect.iter().find_map(|e| match e {
        Effect::Choose {
            instead: Some(inst),
            ..
        } if inst
            .condition
            .zone
            .as_deref()
            .is_some_and(|z| [zn::HAND, zn::EX].contains(&z)) =>
        {
            Some((
                r::CHOOSE_COUNT_AT_PLAY,
                format!(
                    "a Choose of `{key}` whose number reads the cards in a hand or EX area as the play begins"
                ),
            ))
        }
        _ => None,
    })
}

//! What an automatic ability's master decides as it resolves: "may"
//! (〜してよい, the core `optional`) and a cost written in it
//! (「〜とき、(処理):(効果)」, 10.4.7, 10.4.7.3: the process carried out as
//! the ability resolves, by choice, to apply the effect). Printed and
//! given abilities (10.9.1.2) alike.
//!
//! The rulebook has no clause on 「してよい」 itself: its playing is
//! mandatory (10.7.3.1), so the choice is read as 10.4.7.3 reads a cost,
//! made as the ability resolves (judges' reading). Nothing happens between
//! an automatic ability's play and its resolution (its targets are chosen
//! as it is played, 10.6.2.3, and it resolves at once), so reading the
//! choice at play instead would rule the same; no option is offered.

use super::*;

/// The triggers of automatic abilities (played through a check timing,
/// 10.7.3), on which "may" and a cost (10.4.7.3) are implemented. Drain
/// and the other keywords are rules' abilities with no such text.
pub const AUTOMATIC: &[&str] = &[
    "fanfare",
    "last_words",
    "on_attack",
    "on_evolve",
    "leaves_field",
    ENTERS_FIELD,
    "on_race",
    "start_of_main",
    "start_of_end",
    STATE,
    "delayed_end_phase",
    "delayed_next_turn_start",
];

/// The spell text and activated abilities on which "may" is implemented
/// (`may`: decided as the text resolves).
pub const RESOLVED: &[&str] = &["spell", "activated", QUICK_ACTIVATED];

/// Whether "may" is implemented on an ability with trigger `trigger`.
pub(super) fn may_on(trigger: &str) -> bool {
    AUTOMATIC.contains(&trigger) || RESOLVED.contains(&trigger)
}

/// Asks the master of pending ability `key` (`def`'s ability `ability`,
/// card `card`) whether to use it ("may": choice `<key>.use`) and to pay
/// its cost (choice `<key>.pay`), paying it when they do. Returns whether
/// the effect is applied.
pub(super) fn proceed(
    m: &mut M,
    def: &str,
    ability: usize,
    card: &str,
    master: PlayerId,
    key: &str,
) -> R<bool> {
    let Some(ab) = m.game.ability(def, ability).cloned() else {
        return Ok(true);
    };
    // 10.3.3: a text its condition disables asks nothing (the resolution
    // says it does nothing).
    if disabled(m, def, ability, master, card) {
        return Ok(true);
    }
    if ab.optional && !yes(m, &format!("{key}.use"))? {
        declined(m, card, master, key, &[r::TRIGGER_MANDATORY, r::RESOLVE_TEXT])
            .note("the rulebook has no clause on 「してよい」: the ability is still played (10.7.3.1, mandatory) and its master decides as it resolves, as 10.4.7.3 says of a cost in an automatic ability (judges' reading; nothing happens between its play and its resolution, so deciding at play would rule the same)");
        return Ok(false);
    }
    if ab.cost.is_empty() {
        return Ok(true);
    }
    let k = format!("{key}.pay");
    if !yes(m, &k)? {
        m.record(
            "ability.cost",
            format!(
                "{} does not carry out the cost of {key}: its effect is not applied",
                player_name(master)
            ),
            &[r::RESOLUTION_COST, r::RESOLUTION_COST_TRIGGER],
        )
        .obj(card);
        return Ok(false);
    }
    match pay_costs(m, master, card, &ab.cost, Vec::new(), false) {
        Ok(()) => {}
        // 10.4.2.2: a cost that cannot be paid in full is not paid; the
        // choice to pay it is not one the player can make.
        Err(EngineError::Illegal { message, .. }) => {
            return Err(EngineError::BadChoice {
                choice: m.choices.shown(&k),
                value: "true".into(),
                options: vec![format!("false ({message})")],
            });
        }
        Err(e) => return Err(e),
    }
    m.record(
        "ability.cost",
        format!(
            "{} carries out the cost of {key} as it resolves: its effect is applied",
            player_name(master)
        ),
        &[r::RESOLUTION_COST, r::RESOLUTION_COST_TRIGGER],
    )
    .obj(card);
    Ok(true)
}

/// "May" (〜してよい) in a spell's text (one `spell` entry, `key` naming
/// it) or an activated ability: its master decides as that text resolves
/// (10.6.2.8.2: the text is carried out in printed order), choice
/// `<key>.use`. Returns whether the text is carried out. A text its
/// condition disables asks nothing (10.3.3).
pub(super) fn may(
    m: &mut M,
    def: &str,
    ability: usize,
    card: &str,
    master: PlayerId,
    key: &str,
) -> R<bool> {
    if !m.game.ability(def, ability).is_some_and(|ab| ab.optional) {
        return Ok(true);
    }
    if disabled(m, def, ability, master, card) {
        return Ok(true);
    }
    if yes(m, &format!("{key}.use"))? {
        return Ok(true);
    }
    declined(m, card, master, key, &[r::RESOLVE_TEXT])
        .note("the rulebook has no clause on 「してよい」: its master decides as the text resolves, as 10.4.7.4 says of a cost written in a card's text (judges' reading; nothing happens between a play and its resolution, 10.6.2.8, so deciding at play would rule the same)");
    Ok(false)
}

/// Whether the condition of `def`'s ability `ability` disables its text
/// now (10.3.3): then nothing is asked of its master.
fn disabled(m: &M, def: &str, ability: usize, master: PlayerId, card: &str) -> bool {
    application_condition(&m.game, def, ability)
        .is_some_and(|c| !holds(&m.game, &c, master, card).0)
}

/// The trace of a "may" declined: the text resolves with nothing done.
fn declined<'a>(
    m: &'a mut M,
    card: &str,
    master: PlayerId,
    key: &str,
    rules: &[&'static str],
) -> &'a mut crate::engine::TraceEntry {
    m.record(
        "ability.declined",
        format!(
            "{} chooses not to use {key} (\"may\"): it resolves with nothing done",
            player_name(master)
        ),
        rules,
    )
    .obj(card)
}

/// A yes-or-no choice of the master.
fn yes(m: &mut M, k: &str) -> R<bool> {
    let v = m.choices.require(k, &["true", "false"])?;
    v.as_bool().ok_or_else(|| EngineError::BadChoice {
        choice: m.choices.shown(k),
        value: v.to_string(),
        options: vec!["true".into(), "false".into()],
    })
}

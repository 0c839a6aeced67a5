//! Delayed triggers (時限誘発, 10.7.5): an automatic ability an effect
//! creates, triggering at a later point. The scenario writes it as the
//! ability printed right after the one whose text creates it, with the
//! trigger `delayed_end_phase` ("when this turn's end phase comes", 7.4.1):
//! it is set up when that ability resolves (not when its condition left the
//! text disabled), mastered by that ability's master, and triggers once
//! (10.7.5.1) even if its card has left the field since (10.7.7). One not
//! triggered when the turn ends can no longer trigger and is gone.

use super::*;

/// "When this turn's end phase comes" (7.4.1), set up by the ability
/// printed before it.
pub const DELAYED_END_PHASE: &str = "delayed_end_phase";

/// A delayed trigger waiting for its moment.
#[derive(Debug, Clone)]
pub struct Delayed {
    /// The card whose ability created it.
    pub card: CardId,
    /// The definition it is read from.
    pub def: String,
    /// Its index in the definition.
    pub ability: usize,
    /// The master of the ability that created it.
    pub master: PlayerId,
}

/// A delayed ability that no ability before it creates.
pub(super) fn unsupported(key: &str, d: &crate::engine::CardDef) -> Option<(&'static str, String)> {
    let abs = &d.abilities;
    (0..abs.len())
        .find(|&i| {
            abs[i].trigger == DELAYED_END_PHASE
                && (i == 0
                    || [DELAYED_END_PHASE, "permanent"].contains(&abs[i - 1].trigger.as_str()))
        })
        .map(|i| {
            (
                r::DELAYED_TRIGGER,
                format!(
                    "the delayed ability {i} of `{key}` follows no ability whose text creates it"
                ),
            )
        })
}

/// Sets up the delayed ability printed after ability `ability` of `def`,
/// which has just resolved (10.7.5).
pub(super) fn set_up(m: &mut M, def: &str, ability: usize, this: &str, master: PlayerId) {
    let next = ability + 1;
    if m.game
        .ability(def, next)
        .is_none_or(|a| a.trigger != DELAYED_END_PHASE)
    {
        return;
    }
    m.game.own::<SveState>().delayed.push(Delayed {
        card: this.into(),
        def: def.to_string(),
        ability: next,
        master,
    });
    m.record(
        "delayed",
        format!(
            "{this}'s text creates a delayed trigger for {}: when this turn's end phase comes, it triggers once",
            player_name(master)
        ),
        &[r::DELAYED_TRIGGER, r::DELAYED_ONCE],
    )
    .obj(this);
}

/// The end phase comes (7.4.1): the delayed triggers waiting for it become
/// pending, once each (10.7.5.1).
pub(super) fn end_phase_comes(m: &mut M) {
    let waiting = std::mem::take(&mut m.game.own::<SveState>().delayed);
    for d in waiting {
        let p = Pending {
            card: d.card.clone(),
            def: d.def,
            ability: d.ability,
            trigger: DELAYED_END_PHASE.into(),
            master: d.master,
            amount: 0,
        };
        let key = p.key();
        m.game.pending.push(p);
        m.record(
            "trigger.pending",
            format!(
                "{key}: this turn's end phase has come: the delayed trigger becomes pending for {} (once; it is then gone)",
                player_name(d.master)
            ),
            &[r::END_TRIGGER, r::DELAYED_TRIGGER, r::DELAYED_ONCE, r::TRIGGER_PENDING],
        )
        .obj(d.card);
    }
}

/// The turn ends: a delayed trigger still waiting (created after the end
/// phase came) can no longer trigger.
pub(super) fn expire(m: &mut M) {
    let gone = std::mem::take(&mut m.game.own::<SveState>().delayed);
    for d in gone {
        m.record(
            "delayed",
            format!(
                "{}'s delayed trigger was created after this turn's end phase came: it never triggers and is gone",
                d.card
            ),
            &[r::DELAYED_TRIGGER, r::END_TURN],
        )
        .obj(d.card);
    }
}

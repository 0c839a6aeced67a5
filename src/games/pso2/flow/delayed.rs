//! Delayed triggered abilities 後発誘発能力 (300.2.3): written "when A, do
//! B" (Aする時、Bする, 300.2.3.2) in an active's or an ability's text,
//! they are set up when that effect resolves and, when A next happens,
//! are put in the resolution zone as a new ability (300.2.3.1), owned by
//! the player who set them up. Their card may be gone by then (an active
//! is in the discard): the ability no longer depends on it.
//!
//! The trigger words say what A is, and that the ability waits for the
//! next such event this turn (「このターン、次に…する時」): `delayed_on_enter`
//! (a chara enters its player's field), `delayed_on_ko` (a chara of its
//! player is KO'd and put in the discard) and `delayed_end_of_turn` (this
//! turn's end step, 505.1.2). It triggers once; one that has not
//! triggered when the turn ends is gone with the turn's other effects
//! (505.2).

use super::{M, r};
use crate::engine::{CardId, PlayerId};

/// "When a chara enters your field" (登場する時).
pub const ON_ENTER: &str = "delayed_on_enter";
/// "When a chara of yours is KO'd" (戦闘不能になる時).
pub const ON_KO: &str = "delayed_on_ko";
/// "At the end of this turn" (ターン終了時).
pub const END_OF_TURN: &str = "delayed_end_of_turn";

/// A continuous ability an effect sets up for the rest of the turn
/// (後発常時能力, 300.4.2): it works while its condition holds (300.4.2.1),
/// on every card it describes, those that come later included.
pub const CONTINUOUS: &str = "delayed_continuous";

/// Every ability word an effect sets up.
pub(super) const SET_UP: &[&str] = &[ON_ENTER, ON_KO, END_OF_TURN, CONTINUOUS];

/// The ability word `trigger` when it is one an effect sets up.
pub(super) fn set_up_word(trigger: &str) -> Option<&'static str> {
    SET_UP.iter().copied().find(|t| *t == trigger)
}

/// A delayed triggered ability waiting for its event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Delayed {
    /// The card whose effect set it up.
    pub card: CardId,
    /// Its definition key.
    pub def: String,
    /// The ability's index in the definition.
    pub ability: usize,
    /// Its trigger word.
    pub trigger: &'static str,
    /// The player who set it up (300.6).
    pub master: PlayerId,
}

/// Sets up the delayed abilities of `card` (definition `def`) as its
/// effect resolves for `master`.
pub fn set_up(m: &mut M, card: &str, def: &str, master: PlayerId) {
    let Some(d) = m.game.defs.get(def).cloned() else {
        return;
    };
    for (i, a) in d.abilities.iter().enumerate() {
        let Some(trigger) = SET_UP.iter().copied().find(|t| *t == a.trigger) else {
            continue;
        };
        super::state::of(&mut m.game).delayed.push(Delayed {
            card: card.into(),
            def: def.to_string(),
            ability: i,
            trigger,
            master,
        });
        if trigger == CONTINUOUS {
            m.record(
                "delayed",
                format!("{card}'s effect sets up a continuous ability (後発常時能力) for the rest of this turn"),
                &[r::DELAYED_CONTINUOUS],
            )
            .obj(card.to_string());
            continue;
        }
        m.record(
            "delayed",
            format!(
                "{card}'s effect sets up a delayed triggered ability ({trigger}): it waits for its event"
            ),
            &[r::DELAYED_TRIGGER, r::DELAYED_WORDING],
        )
        .obj(card.to_string());
    }
}

/// Takes the delayed abilities with `trigger` waiting for an event of
/// player `p` (`None`: any player's).
pub fn take(m: &mut M, trigger: &str, p: Option<PlayerId>) -> Vec<Delayed> {
    let st = super::state::of(&mut m.game);
    let (hit, rest): (Vec<Delayed>, Vec<Delayed>) = std::mem::take(&mut st.delayed)
        .into_iter()
        .partition(|d| d.trigger == trigger && p.is_none_or(|q| q == d.master));
    st.delayed = rest;
    hit
}

/// The continuous abilities effects set up this turn (300.4.2).
pub fn continuous(g: &crate::engine::Game) -> Vec<Delayed> {
    super::state::read(g)
        .map(|s| {
            s.delayed
                .iter()
                .filter(|d| d.trigger == CONTINUOUS)
                .cloned()
                .collect()
        })
        .unwrap_or_default()
}

/// The turn ends: delayed abilities that did not trigger are gone, and the
/// continuous abilities set up for this turn end.
pub fn expire(m: &mut M) {
    let gone = std::mem::take(&mut super::state::of(&mut m.game).delayed);
    for d in gone {
        if d.trigger == CONTINUOUS {
            m.record(
                "delayed",
                format!(
                    "the continuous ability {}'s effect set up this turn ends",
                    d.card
                ),
                &[r::DELAYED_CONTINUOUS, r::REFRESH],
            );
            continue;
        }
        m.record(
            "delayed",
            format!(
                "{}'s delayed ability ({}) did not trigger this turn: it ends with the turn",
                d.card, d.trigger
            ),
            &[r::DELAYED_TRIGGER, r::REFRESH],
        );
    }
}

//! Delayed triggers (時限誘発, 10.7.5): an automatic ability an effect
//! creates, triggering at a later point. The scenario writes it as the
//! ability printed right after the one whose text creates it, with the
//! trigger `delayed_end_phase` ("when this turn's end phase comes", 7.4.1)
//! or `delayed_next_turn_start` ("at the start of your next turn": the next
//! turn its master begins, an extra turn included, a skipped one not,
//! 5.25.1): it is set up when that ability resolves (not when its condition
//! left the text disabled), mastered by that ability's master, and triggers
//! once (10.7.5.1) even if its card has left the field since (10.7.7). An
//! end-phase one not triggered when the turn ends can no longer trigger and
//! is gone.
//!
//! The rules name no moment "the start of a turn" triggers at (7.2 has no
//! trigger condition; 7.3.1 is the first). The judges' reading: the turn's
//! start is before 7.2.1, so the ability is pending from then and is played
//! at the start phase's check timing (7.2.5), after the draw; the other
//! reading, flag [`TURN_START_IS_MAIN_PHASE`], has it trigger with the
//! main phase's 'when your main phase comes' (7.3.1), played at 7.3.2 with
//! the main phase's own triggers.

use super::*;
use crate::engine::TraceEntry;

/// "When this turn's end phase comes" (7.4.1), set up by the ability
/// printed before it.
pub const DELAYED_END_PHASE: &str = "delayed_end_phase";

/// "At the start of your next turn" (次の自分のターン開始時), set up by
/// the ability printed before it.
pub const DELAYED_NEXT_TURN: &str = "delayed_next_turn_start";

/// The other reading of "at the start of your next turn": it triggers with
/// 'when your main phase comes' (7.3.1) instead of as the turn begins.
pub const TURN_START_IS_MAIN_PHASE: &str = "reading_turn_start_is_main_phase";

/// The delayed triggers' words.
const DELAYED: [&str; 2] = [DELAYED_END_PHASE, DELAYED_NEXT_TURN];

/// The delayed trigger word of ability `ability` of definition `def`.
pub(super) fn delayed_word(g: &Game, def: &str, ability: usize) -> Option<&'static str> {
    let t = g.ability(def, ability)?.trigger.as_str();
    DELAYED.into_iter().find(|w| *w == t)
}

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
    /// Its trigger word (one of [`DELAYED`]).
    pub trigger: &'static str,
    /// The turn it was created in ("your next turn" is a later one).
    pub turn: u32,
}

/// A delayed ability that no ability before it creates.
pub(super) fn unsupported(key: &str, d: &crate::engine::CardDef) -> Option<(&'static str, String)> {
    let abs = &d.abilities;
    (0..abs.len())
        .find(|&i| {
            DELAYED.contains(&abs[i].trigger.as_str())
                && (i == 0
                    || DELAYED.contains(&abs[i - 1].trigger.as_str())
                    || abs[i - 1].trigger == "permanent")
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
    let Some(trigger) = m
        .game
        .ability(def, next)
        .and_then(|a| DELAYED.into_iter().find(|w| *w == a.trigger))
    else {
        return;
    };
    let turn = m.game.turn.number;
    m.game.own::<SveState>().delayed.push(Delayed {
        card: this.into(),
        def: def.to_string(),
        ability: next,
        master,
        trigger,
        turn,
    });
    let when = if trigger == DELAYED_END_PHASE {
        "when this turn's end phase comes"
    } else {
        "at the start of their next turn"
    };
    m.record(
        "delayed",
        format!(
            "{this}'s text creates a delayed trigger for {}: {when}, it triggers once",
            player_name(master)
        ),
        &[r::DELAYED_TRIGGER, r::DELAYED_ONCE],
    )
    .obj(this);
}

/// Takes out the waiting delayed triggers `pick` selects.
fn take_waiting(m: &mut M, pick: impl Fn(&Delayed) -> bool) -> Vec<Delayed> {
    let all = std::mem::take(&mut m.game.own::<SveState>().delayed);
    let (taken, kept) = all.into_iter().partition(pick);
    m.game.own::<SveState>().delayed = kept;
    taken
}

/// Makes delayed trigger `d` pending, recording why with `rules`.
fn make_pending<'a>(
    m: &'a mut M,
    d: Delayed,
    why: &str,
    rules: &[&'static str],
) -> &'a mut TraceEntry {
    let p = Pending {
        card: d.card.clone(),
        def: d.def,
        ability: d.ability,
        trigger: d.trigger.into(),
        master: d.master,
        amount: 0,
    };
    let key = p.key();
    m.game.pending.push(p);
    m.record(
        "trigger.pending",
        format!(
            "{key}: {why}: the delayed trigger becomes pending for {} (once; it is then gone)",
            player_name(d.master)
        ),
        rules,
    )
    .obj(d.card)
}

/// A turn begins (before 7.2.1) or, under [`TURN_START_IS_MAIN_PHASE`], its
/// main phase comes (7.3.1): the turn player's "at the start of your next
/// turn" triggers created in an earlier turn become pending, once each.
pub(super) fn next_turn_comes(m: &mut M, main_phase: bool) {
    if main_phase != reading(&m.game, TURN_START_IS_MAIN_PHASE) {
        return;
    }
    let (tp, now) = (m.game.turn.active, m.game.turn.number);
    let due = take_waiting(m, |d| {
        d.trigger == DELAYED_NEXT_TURN && d.master == tp && d.turn < now
    });
    for d in due {
        let (why, rules, note) = if main_phase {
            (
                format!("{}'s main phase has come", player_name(tp)),
                [
                    r::MAIN_TRIGGER,
                    r::DELAYED_TRIGGER,
                    r::DELAYED_ONCE,
                    r::TRIGGER_PENDING,
                ],
                format!(
                    "reading `{TURN_START_IS_MAIN_PHASE}`: \"the start of your turn\" is read as 'when your main phase comes' (7.3.1), the first trigger condition the rules name in a turn; played at 7.3.2 with the main phase's own triggers"
                ),
            )
        } else {
            (
                format!("{}'s turn begins", player_name(tp)),
                [
                    r::START_CHECK,
                    r::DELAYED_TRIGGER,
                    r::DELAYED_ONCE,
                    r::TRIGGER_PENDING,
                ],
                format!(
                    "the rules name no trigger moment at a turn's start; judges' reading: the turn starts before 7.2.1, so the ability is pending from then and is played at the start phase's check timing (7.2.5), after the draw (flag `{TURN_START_IS_MAIN_PHASE}`: with 'when your main phase comes', 7.3.1)"
                ),
            )
        };
        make_pending(m, d, &why, &rules).note(note);
    }
}

/// The end phase comes (7.4.1): the delayed triggers waiting for it become
/// pending, once each (10.7.5.1).
pub(super) fn end_phase_comes(m: &mut M) {
    for d in take_waiting(m, |d| d.trigger == DELAYED_END_PHASE) {
        make_pending(
            m,
            d,
            "this turn's end phase has come",
            &[
                r::END_TRIGGER,
                r::DELAYED_TRIGGER,
                r::DELAYED_ONCE,
                r::TRIGGER_PENDING,
            ],
        );
    }
}

/// The turn ends: a delayed trigger still waiting (created after the end
/// phase came) can no longer trigger.
pub(super) fn expire(m: &mut M) {
    for d in take_waiting(m, |d| d.trigger == DELAYED_END_PHASE) {
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

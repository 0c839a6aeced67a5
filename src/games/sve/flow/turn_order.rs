//! Skipped turns ターンをスキップする (5.25) and extra turns 追加ターンを
//! 行なう (5.27): effects that change who takes the next turn, applied as a
//! turn ends (7.4.9).

use super::*;

/// 5.25.2: `p`'s next turn is skipped. Several such instructions are
/// satisfied by one skipped turn (5.25.2.1).
pub(super) fn skip_next_turn(m: &mut M, p: PlayerId) {
    let own = m.game.own::<SveState>();
    if own.skip_next.len() <= p.index() {
        own.skip_next.resize(p.index() + 1, false);
    }
    let again = std::mem::replace(&mut own.skip_next[p.index()], true);
    let e = m.record(
        "effect.skip_turn",
        format!("{}'s next turn will be skipped", player_name(p)),
        &[r::SKIP_NEXT_TURN],
    );
    if again {
        e.rule(r::SKIP_ONE_FOR_ALL);
        e.text
            .push_str(" (already to be skipped: one skipped turn carries out both)");
    }
}

/// 5.27.1: `p` takes an extra turn before the turn that would come next;
/// several are taken latest first (5.27.1.1).
pub(super) fn add_extra_turn(m: &mut M, p: PlayerId) {
    let own = m.game.own::<SveState>();
    own.extra_turns.push(p);
    let waiting = own.extra_turns.len();
    let mut text = format!("{} will take an extra turn", player_name(p));
    if waiting > 1 {
        text.push_str(&format!(
            " ({waiting} extra turns waiting: the latest is taken first)"
        ));
    }
    record_extra(m, "effect.extra_turn", text, waiting > 1);
}

/// Records an extra-turn step, citing 5.27.1.1 when `several` wait.
fn record_extra(m: &mut M, step: &str, text: String, several: bool) {
    let e = m.record(step, text, &[r::EXTRA_TURN]);
    if several {
        e.rule(r::EXTRA_LATEST_FIRST);
    }
}

/// 7.4.9 with 5.27.1 and 5.25.1: the player whose turn begins after `tp`'s:
/// the latest extra turn waiting, else the turn that would have come
/// before the extra turns (or the next player in order); a turn that is to
/// be skipped gives way to the turn after it.
pub(super) fn next_turn_player(m: &mut M, tp: PlayerId) -> PlayerId {
    let in_order = m.game.opponent(tp);
    let own = m.game.own::<SveState>();
    let mut next = match own.extra_turns.pop() {
        Some(p) => {
            // The turn that would have come is kept for after them.
            own.resume.get_or_insert(in_order);
            let several = !own.extra_turns.is_empty();
            let text = format!("{} takes an extra turn now", player_name(p));
            record_extra(m, "turn.extra", text, several);
            p
        }
        None => own.resume.take().unwrap_or(in_order),
    };
    for _ in m.game.player_ids() {
        let own = m.game.own::<SveState>();
        if !own.skip_next.get(next.index()).copied().unwrap_or(false) {
            break;
        }
        own.skip_next[next.index()] = false;
        let after = m.game.opponent(next);
        m.record(
            "turn.skip",
            format!(
                "{}'s turn is skipped: {}'s turn begins instead",
                player_name(next),
                player_name(after)
            ),
            &[r::SKIP_TURN, r::SKIP_NEXT_TURN],
        );
        next = after;
    }
    next
}

//! An effect applied to several players whose part is a choice (1.3.4):
//! 「各プレイヤーは、手札からフォロワー1枚を場に出してよい」, written `put`
//! with `who` (`both`, or `opponent`) and a `chosen` target. Each player of
//! `who` chooses among their own cards (the filter's side read from that
//! player) as the effect resolves, the turn player first, the other knowing
//! that choice (1.3.4.1); each one's cards are put in that order. The
//! choice is `<card>.put.<player>` (`up_to`: "may", none at all allowed).

use super::*;
use crate::engine::{Picked, TargetCount};

/// Whether `e` is a `put` each player of `who` makes with a choice of
/// their own (as opposed to one the master makes when playing it).
pub(super) fn each_player_put(e: &Effect) -> bool {
    matches!(
        e,
        Effect::Put { who, target: Some(t), .. } if *who != Who::You && t.chosen().is_some()
    )
}

/// Carries out an [`each_player_put`] of `this`, mastered by `master`.
pub(super) fn put_each(m: &mut M, eff: &Effect, this: &str, master: PlayerId) -> R<()> {
    let Effect::Put {
        to,
        who,
        target: Some(t),
        yours,
        ..
    } = eff
    else {
        return Ok(());
    };
    let Some((f, count, up_to, _)) = t.chosen() else {
        return Ok(());
    };
    let tp = m.game.turn.active;
    let mut players = who_players(&m.game, master, *who);
    // 1.3.4.1: the choices are made the turn player first.
    players.sort_by_key(|p| *p != tp);
    for p in players {
        let k = format!("{this}.put.{}", player_name(p));
        let options = candidates(&m.game, f, p, this, false, false);
        let n = count as usize;
        let wanted = if up_to {
            TargetCount::UpTo(n)
        } else {
            TargetCount::Exactly(n.min(options.len()))
        };
        let picked = m.decided_by(p, |m| m.choices.targets(&k, &options, wanted, |_| None))?;
        let cards = match picked {
            Picked::Given(c) | Picked::Only(c) => c,
        };
        let order = if p == tp {
            "the turn player chooses first"
        } else {
            "the non-turn player chooses after, knowing that choice"
        };
        let names = if cards.is_empty() {
            "nothing".to_string()
        } else {
            cards.join(", ")
        };
        m.record(
            "effect.each_player",
            format!("{}: {} chooses {names} ({order})", this, player_name(p)),
            &[r::SIMULTANEOUS_CHOICES, r::SIMULTANEOUS_CHOICES_ORDER],
        )
        .obj(this);
        if !cards.is_empty() {
            let dest = Dest {
                zone: to,
                masters: *yours,
            };
            put(m, dest, &cards, None, Who::You, p, true)?;
        }
    }
    Ok(())
}

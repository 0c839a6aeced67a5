//! Losing abilities 能力を失う (300.7): the effect `lose_abilities`.
//!
//! A card that has lost its abilities has none of the text printed on it
//! and none it gained from an effect (300.7.1, ただし): its triggered
//! abilities do not trigger, its continuous and replacement abilities stop
//! applying, its activated abilities and keyword abilities (連撃, 貫通X,
//! 狙撃, 連続射撃, 侵食, ウォークライ) are gone. What was already done to it
//! stays (300.7.1): a modification such as "attack +1" is no ability
//! (300.7.2) and is kept, unless it came from a continuous ability of the
//! card itself, which stops applying. An ability that had already
//! triggered or been put in the resolution zone is no longer the card's
//! and still resolves.
//!
//! The loss lasts for the effect's duration (`end_of_turn`: until the
//! refresh step, 505.2; `permanent`: while the card stays where it is). A
//! card that changes zones is a new object (400.6) with all its abilities.
//! Zone-move triggers read the card as it was when it left (300.2.2).

use super::state;
use super::{M, r};
use crate::engine::{CardId, Game, Until};

/// The loss of one object: card and object generation (400.6).
type Object = (CardId, u32);

fn object(g: &Game, id: &str) -> Option<Object> {
    g.card(id).map(|c| (CardId::from(id), c.incarnation))
}

/// Whether card `id`, as it is now, has lost its abilities (300.7).
pub fn lost(g: &Game, id: &str) -> bool {
    let Some(o) = object(g, id) else {
        return false;
    };
    state::read(g).is_some_and(|s| s.lost.contains_key(&o))
}

/// Whether card `id` had lost its abilities when it last changed zones:
/// a zone-move trigger reads the card as it was (300.2.2).
pub fn lost_when_it_left(g: &Game, id: &str) -> bool {
    let Some((id, now)) = object(g, id) else {
        return false;
    };
    now > 0 && state::read(g).is_some_and(|s| s.lost.contains_key(&(id, now - 1)))
}

/// Whether card `id` has the keyword ability `k` now: printed on it and
/// not lost (300.7).
pub fn keyword(g: &Game, id: &str, k: &str) -> bool {
    g.def_of(id).is_some_and(|d| d.has_keyword(k)) && !lost(g, id)
}

/// Card `id` loses all its abilities (300.7) for `until`.
pub fn lose(m: &mut M, id: &str, until: Until) {
    let Some(o) = object(&m.game, id) else {
        return;
    };
    let how = match until {
        Until::Permanent => "while it stays where it is",
        _ => "until the end of the turn",
    };
    let st = state::of(&mut m.game);
    let before = st.lost.get(&o).copied();
    // Lost twice: the longer loss holds.
    let kept = if before == Some(Until::Permanent) {
        Until::Permanent
    } else {
        until
    };
    st.lost.insert(o, kept);
    m.record(
        "effect",
        format!(
            "{id} loses all its abilities {how}: its printed text and the abilities effects gave it; what was already done to it stays{}",
            if before.is_some() {
                " (it had already lost them: the longer loss holds)"
            } else {
                ""
            }
        ),
        &[r::LOSE_ABILITIES, r::LOST_KEEPS_EFFECTS],
    )
    .obj(id.to_string());
}

/// The refresh step (505.2): losses "until the end of the turn" end and
/// the cards have their abilities again; losses of objects that no longer
/// exist (400.6) are forgotten.
pub fn expire(m: &mut M) {
    let Some(all) = state::read(&m.game).map(|s| s.lost.clone()) else {
        return;
    };
    for ((id, generation), until) in all {
        let current = object(&m.game, &id).is_some_and(|(_, g)| g == generation);
        if current && until == Until::Permanent {
            continue;
        }
        state::of(&mut m.game)
            .lost
            .remove(&(id.clone(), generation));
        if current {
            m.record(
                "refresh_step",
                format!("{id} has its abilities again: the loss lasted until the end of the turn"),
                &[r::LOSE_ABILITIES, r::REFRESH],
            )
            .obj(id);
        }
    }
}

/// Says in the trace that an ability of `id` does not work (`what`)
/// because the card has lost its abilities (300.7), with the clauses
/// `also` that decide when the card is read.
pub fn say_lost(m: &mut M, id: &str, what: &str, also: &[&'static str]) {
    let mut rules = vec![r::LOSE_ABILITIES];
    rules.extend_from_slice(also);
    m.record(
        "ability",
        format!("{id}'s {what}: the card has lost its abilities"),
        &rules,
    )
    .obj(id.to_string());
}

//! Looking through and at a deck (the core `search`, `look_at`) and cards
//! returned to it at no stated place (`shuffle_into`), with what each does
//! to the deck's deliberate order (6.2).
//!
//! A deck holding a plan card is looked at with that card turned face down
//! first (2.23.3-4). Searching for a card of a stated kind, the player may
//! choose not to find one that is there: the deck is hidden (2.25.2-1,
//! 2.25.3); asked for any card, they take as many as there are. The deck is
//! shuffled once the cards found are taken out (not a deliberate ordering,
//! 6.2.5) and they are then put where the text says, so a card put into the
//! plan zone, the deck's top (2.23.3-1), stays there (6.2.2, 6.2.3).
//! Cards looked at and put back in a chosen order deliberately order the
//! deck (6.2.2 B, C); cards returned at no stated place and shuffled do not
//! (6.2.5).

use crate::engine::{
    CardId, Effect, EngineError, Filter, PlayerId, Side, ZoneId, player_name, texts,
};

use super::effects::{Ctx, shuffle};
use super::{M, label, moves, ni, put, r, targets};

/// Refuses a `search` or `look_at` the module does not implement: a zone
/// searched other than the deck, a destination a `put` does not know.
pub fn refuse(key: &str, e: &Effect) -> Result<(), EngineError> {
    if let Effect::Search { from, to, .. } = e {
        if from.as_deref().is_some_and(|z| z != "deck") {
            return Err(ni(
                r::HIDDEN,
                format!("card `{key}`: searching a zone other than the deck"),
            ));
        }
        if to == "deck" || !put::ZONES.contains(&to.as_str()) {
            return Err(ni(
                r::OWNERS_ZONE,
                format!("card `{key}`: putting the cards found to `{to}`"),
            ));
        }
    }
    Ok(())
}

/// The plan card of `p`'s deck turned face down before the deck is looked
/// at (2.23.3-4).
fn plan_face_down(m: &mut M, p: PlayerId) {
    super::plan::face_down(m, p, "before the deck is looked at", r::PLAN_LOOK);
}

/// The choice naming player `p`'s cards: `<card>.<what>`, or with both
/// players acting `<card>.<what>.<player>`.
fn key(cx: &Ctx<'_>, what: &str, p: PlayerId, both: bool) -> String {
    if both {
        format!("{}.{what}.{}", cx.source, player_name(p))
    } else {
        format!("{}.{what}", cx.source)
    }
}

/// 「山札から…を探し」: each player of the effect searches their deck.
pub fn search(m: &mut M, cx: &Ctx<'_>, e: &Effect) -> Result<(), EngineError> {
    let Effect::Search {
        find,
        count,
        to,
        shuffle: then_shuffle,
        who,
        ..
    } = e
    else {
        return Ok(());
    };
    let ps = m.game.who(cx.controller, *who);
    let both = ps.len() > 1;
    for p in ps {
        plan_face_down(m, p);
        let k = key(cx, "search", p, both);
        let found = found(m, cx, p, find, *count as usize, &k)?;
        if *then_shuffle {
            shuffle(m, p);
        }
        for id in found {
            put::to_zone(m, &id, to);
        }
    }
    Ok(())
}

/// The cards `p` finds in their deck: up to `n` matching `find`, named
/// by the choice `k`.
fn found(
    m: &mut M,
    cx: &Ctx<'_>,
    p: PlayerId,
    find: &Filter,
    n: usize,
    k: &str,
) -> Result<Vec<CardId>, EngineError> {
    let f = Filter {
        side: Side::You,
        zone: Some("deck".into()),
        zones: Vec::new(),
        region: None,
        ..find.clone()
    };
    let options: Vec<CardId> = m
        .game
        .zone_of(p, "deck")
        .iter()
        .filter(|id| targets::matches(&m.game, p, cx.source, &[], &f, id))
        .cloned()
        .collect();
    // A stated kind may go unfound in the hidden deck (2.25.3); "any
    // card" may not.
    let may_fail = find.asks_a_kind();
    let who = player_name(p);
    if options.is_empty() {
        m.record(
            "search",
            format!("{who} looks through the deck: no card there is one asked for, none is found"),
            &[r::HIDDEN, r::IMPOSSIBLE],
        );
        return Ok(Vec::new());
    }
    let crate::engine::Found {
        cards: picked,
        declined: short,
    } = m.choices.found(k, &options, n, may_fail)?;
    let e = m.record(
        "search",
        format!(
            "{who} looks through the deck (hidden) and finds {}",
            if picked.is_empty() {
                "nothing".to_string()
            } else {
                texts(&picked).join(", ")
            }
        ),
        &[r::HIDDEN],
    );
    if short > 0 {
        e.text.push_str(&format!(
            ": {who} chooses not to find {short} card(s) asked for that {} there",
            if short == 1 { "is" } else { "are" }
        ));
        e.rules.extend([r::NOT_FOUND, r::PARTLY_IMPOSSIBLE]);
    } else if options.len() < n {
        e.rules.push(r::PARTLY_IMPOSSIBLE);
    }
    Ok(picked)
}

/// 「山札の上から…枚を見て…好きな順番で戻す」: each player of the effect
/// looks at the top `count` cards of their deck and puts them back on top
/// (or at the bottom) in the order they choose (`<card>.order`, top
/// first; by default as they were).
pub fn look_at(m: &mut M, cx: &Ctx<'_>, e: &Effect) -> Result<(), EngineError> {
    let Effect::LookAt { count, bottom, who } = e else {
        return Ok(());
    };
    let ps = m.game.who(cx.controller, *who);
    let both = ps.len() > 1;
    for p in ps {
        plan_face_down(m, p);
        let seen = moves::top_cards(m, p, *count as usize);
        if seen.is_empty() {
            m.record(
                "look",
                format!(
                    "{} looks at no card of the deck: nothing is put back",
                    player_name(p)
                ),
                &[r::IMPOSSIBLE],
            );
            continue;
        }
        let k = key(cx, "order", p, both);
        let order = m.choices.put_back_order(&k, &seen)?;
        m.game.put_back(&ZoneId::of(p, "deck"), &order, *bottom);
        let place = if *bottom {
            "at the bottom of"
        } else {
            "on top of"
        };
        m.record(
            "look",
            format!(
                "{} looks at the top {} card(s) of the deck and puts them back {place} it in the order chosen: {}",
                player_name(p),
                seen.len(),
                texts(&order).join(", ")
            ),
            &[r::DECK],
        );
        super::deck_order::decided_by(
            m,
            p,
            "cards looked at were put back at chosen places of",
            &[],
        );
    }
    Ok(())
}

/// 「山札に戻してシャッフルする」: the cards go into their owners' decks at
/// no stated place, then each of those decks is shuffled: not a
/// deliberate ordering (6.2.5). No card put, no deck to shuffle.
pub fn shuffle_into(m: &mut M, ids: Vec<CardId>) {
    let mut decks: Vec<PlayerId> = Vec::new();
    for id in ids {
        let Some(owner) = m.game.card(&id).map(|c| c.owner) else {
            continue;
        };
        m.record(
            "put",
            format!(
                "{} is put into its owner's deck at no stated place (a new object)",
                label(&m.game, &id)
            ),
            &[r::OWNERS_ZONE, r::NEW_OBJECT, r::DECK],
        );
        moves::to_owner_zone(m, &id, "deck", true);
        if !decks.contains(&owner) {
            decks.push(owner);
        }
    }
    if decks.is_empty() {
        m.record(
            "put",
            "no card is put into a deck: no deck is shuffled",
            &[r::IMPOSSIBLE],
        );
    }
    decks.sort();
    for p in decks {
        shuffle(m, p);
    }
}

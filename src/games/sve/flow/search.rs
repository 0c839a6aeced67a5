//! Searching the deck (探す, 5.7) and looking at its top (上から見る,
//! 5.10), over the core `search` and `look_at`.
//!
//! The deck is a hidden zone whose order only an instruction changes
//! (4.5.2). A search for a number of cards only must find that many
//! (5.7.1.1); one stating a kind of card may find fewer than there are,
//! a card of the hidden deck not being guaranteed to be there (4.1.2.2),
//! and what is found is shown to the opponent (5.7.1.2). The cards found
//! are moved first, and the deck is shuffled afterwards, even when nothing
//! was found (5.7.2). Cards looked at are known to their player (5.10.1)
//! and put back in the order the text lets them choose.

use super::*;

/// Refuses, at load, what SVE's search does not state: a zone searched
/// other than the deck (5.7.1), a search without its shuffle (5.7.2), a
/// destination an effect's `put` does not implement (5.4.1).
pub(super) fn unsupported(key: &str, effects: &[Effect]) -> Option<(&'static str, String)> {
    effects.iter().find_map(|e| {
        let Effect::Search {
            from, to, shuffle, ..
        } = e
        else {
            return None;
        };
        if from.as_deref().is_some_and(|z| z != zn::DECK) {
            Some((
                r::SEARCH,
                format!("`{key}` searching a zone other than the deck"),
            ))
        } else if !shuffle {
            Some((
                r::SEARCH_SHUFFLE,
                format!("`{key}`: a search not followed by a shuffle"),
            ))
        } else if !PUT_ZONES.contains(&to.as_str()) {
            Some((
                r::PUT,
                format!("`{key}`: putting the cards found into `{to}`"),
            ))
        } else {
            None
        }
    })
}

/// The choice naming `p`'s cards: `<this>.<what>`, or with both players
/// acting `<this>.<what>.<player>`.
fn key(this: &str, what: &str, p: PlayerId, both: bool) -> String {
    if both {
        format!("{this}.{what}.{}", player_name(p))
    } else {
        format!("{this}.{what}")
    }
}

/// 「デッキから…を探し、…」: each player of the effect searches their deck.
pub(super) fn search(m: &mut M, eff: &Effect, this: &str, master: PlayerId) -> R<()> {
    let Effect::Search {
        find,
        count,
        to,
        who,
        ..
    } = eff
    else {
        return Ok(());
    };
    let ps = who_players(&m.game, master, *who);
    let both = ps.len() > 1;
    for p in ps {
        let k = key(this, "search", p, both);
        // Issue 13: each player makes their own search's choices.
        let found = m.decided_by(p, |m| found(m, find, *count as usize, this, p, &k))?;
        if !found.is_empty() {
            put(m, Dest::owners(to), &found, None, Who::You, p, true)?;
        }
        let n = m.game.shuffle_zone(&ZoneId::of(p, zn::DECK));
        let mut rules = vec![r::SEARCH_SHUFFLE, r::SHUFFLE];
        if n <= 1 {
            rules.push(r::SHUFFLE_SMALL);
        }
        m.record(
            "effect.shuffle",
            format!(
                "{} shuffles their deck ({n} cards) after the search",
                player_name(p)
            ),
            &rules,
        );
    }
    Ok(())
}

/// The cards `p` finds in their deck: up to `n` matching `find`, named by
/// the choice `k`; shown to the opponent when a kind was asked for.
fn found(m: &mut M, find: &Filter, n: usize, this: &str, p: PlayerId, k: &str) -> R<Vec<String>> {
    let f = Filter {
        side: Side::You,
        zone: Some(zn::DECK.into()),
        ..find.clone()
    };
    let options: Vec<CardId> = candidates(&m.game, &f, p, this, false, false)
        .into_iter()
        .map(CardId::from)
        .collect();
    let who = player_name(p);
    let kind = find.asks_a_kind();
    if options.is_empty() {
        m.record(
            "effect.search",
            format!("{who} looks through the deck: no card there is one asked for, none is found"),
            &[r::SEARCH, r::IMPOSSIBLE],
        );
        return Ok(Vec::new());
    }
    let got = m.choices.found(k, &options, n, kind)?;
    let names = if got.cards.is_empty() {
        "nothing".to_string()
    } else {
        texts(&got.cards).join(", ")
    };
    let e = m.record(
        "effect.search",
        format!("{who} looks through the deck (only they see it) and finds {names}"),
        &[r::SEARCH],
    );
    if got.declined > 0 {
        e.text.push_str(&format!(
            ": in the hidden deck {who} may treat {} asked for that {} there as absent (a kind of card is asked for: only a search for a number of cards must find them)",
            got.declined,
            if got.declined == 1 { "is" } else { "are" }
        ));
        e.rules.extend([
            r::HIDDEN_NOT_GUARANTEED,
            r::SEARCH_COUNT_ONLY,
            r::SEARCH_SHUFFLE,
        ]);
    } else {
        if options.len() < n {
            e.text.push_str(&format!(": only {} there", options.len()));
            e.rules.push(r::IMPOSSIBLE);
        }
        if !kind {
            e.text
                .push_str(": a number of cards only, which must be found");
            e.rules.push(r::SEARCH_COUNT_ONLY);
        }
    }
    if kind && !got.cards.is_empty() {
        m.record(
            "effect.search",
            format!("{who} shows the opponent that {names} meets what was asked for"),
            &[r::SEARCH_SHOW],
        );
    }
    Ok(got.cards.into_iter().map(String::from).collect())
}

/// 「デッキを上からN枚まで見る」 (5.10.2): the number `p` looks at, one by
/// one from the top (5.10.2.1, 5.10.2.3), stopping at will before each
/// (5.10.2.2) or after `max` (5.10.2.4); chosen as `<this>.look`, at most
/// the cards there are.
fn one_by_one(m: &mut M, max: u32, this: &str, p: PlayerId, both: bool) -> R<u32> {
    let there = m.game.zone_of(p, zn::DECK).len() as u64;
    if there == 0 {
        // Nothing to decide: the caller says the deck is empty.
        return Ok(max);
    }
    let n = m
        .choices
        .count(&key(this, "look", p, both), u64::from(max).min(there))? as u32;
    let who = player_name(p);
    let (text, rules) = if n == 0 {
        (
            format!(
                "{who} may look at up to {max} card(s) one by one and stops before the first: none is looked at"
            ),
            vec![r::LOOK_UP_TO, r::LOOK_UP_TO_ONE, r::LOOK_UP_TO_STOP],
        )
    } else if n == max {
        (
            format!(
                "{who} looks at the top cards one by one up to the {max} allowed, then the instruction ends"
            ),
            vec![
                r::LOOK_UP_TO,
                r::LOOK_UP_TO_ONE,
                r::LOOK_UP_TO_NEXT,
                r::LOOK_UP_TO_DONE,
            ],
        )
    } else if u64::from(n) == there {
        (
            format!(
                "{who} looks at the top cards one by one: all {n} the deck holds (of up to {max})"
            ),
            vec![
                r::LOOK_UP_TO,
                r::LOOK_UP_TO_ONE,
                r::LOOK_UP_TO_NEXT,
                r::IMPOSSIBLE,
            ],
        )
    } else {
        (
            format!("{who} looks at the top cards one by one and stops after {n} of up to {max}"),
            vec![
                r::LOOK_UP_TO,
                r::LOOK_UP_TO_ONE,
                r::LOOK_UP_TO_NEXT,
                r::LOOK_UP_TO_STOP,
            ],
        )
    };
    m.record("effect.look", text, &rules)
        .change(format!("{this}.look"), 0, n);
    Ok(n)
}

/// 「デッキを上からN枚見て、好きな順番で…置く」: each player of the effect
/// looks at the top `count` cards of their deck (5.10.1) and puts them back
/// on top (or at the bottom) in the order they choose (`<this>.order`,
/// top first; by default as they were), the one change of the deck's order
/// the text allows (4.5.2). "Up to N" (`look_at_up_to`, 5.10.2): the
/// player looks one card at a time and may stop before each; how many they
/// look at is the choice `<this>.look` (0 to N).
pub(super) fn look_at(m: &mut M, eff: &Effect, this: &str, master: PlayerId) -> R<()> {
    let (count, bottom, who, up_to) = match eff {
        Effect::LookAt { count, bottom, who } => (count, bottom, who, false),
        Effect::LookAtUpTo { max, bottom, who } => (max, bottom, who, true),
        _ => return Ok(()),
    };
    let ps = who_players(&m.game, master, *who);
    let both = ps.len() > 1;
    for p in ps {
        let z = ZoneId::of(p, zn::DECK);
        let count = &if up_to {
            m.decided_by(p, |m| one_by_one(m, *count, this, p, both))?
        } else {
            *count
        };
        if up_to && *count == 0 {
            continue;
        }
        let seen: Vec<CardId> = m
            .game
            .zone(&z)
            .iter()
            .take(*count as usize)
            .cloned()
            .collect();
        let who = player_name(p);
        if seen.is_empty() {
            m.record(
                "effect.look",
                format!("{who}'s deck is empty: no card is looked at"),
                &[r::LOOK, r::IMPOSSIBLE],
            );
            continue;
        }
        let e = m.record(
            "effect.look",
            format!(
                "{who} looks at the top {} card(s) of the deck (only they know them): {}",
                seen.len(),
                texts(&seen).join(", ")
            ),
            &[r::LOOK],
        );
        if seen.len() < *count as usize {
            e.text
                .push_str(&format!(" ({count} asked, the deck holds no more)"));
            e.rules.push(r::IMPOSSIBLE);
        }
        // Issue 13: the player who looked orders them.
        let order = m.decided_by(p, |m| {
            m.choices
                .put_back_order(&key(this, "order", p, both), &seen)
        })?;
        m.game.put_back(&z, &order, *bottom);
        m.record(
            "effect.look",
            format!(
                "{who} puts them back {} the deck in the order chosen (top first): {}",
                if *bottom {
                    "at the bottom of"
                } else {
                    "on top of"
                },
                texts(&order).join(", ")
            ),
            &[r::DECK_ORDER],
        );
    }
    Ok(())
}

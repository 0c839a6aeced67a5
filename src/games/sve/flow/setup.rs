//! The pre-game procedure ゲーム前の手順 (6.2.1): the decks checked against
//! 6.1.1, shuffled, the first player, the opening hand of 4, the mulligan
//! (6.2.1.8), then PP, EP and defense set and the first turn begun.

use std::collections::BTreeMap;

use super::*;

/// The steps of a scenario that starts at phase `setup`.
pub(super) fn pre_game(g: &Game) -> Vec<Step> {
    let first = g.turn.first;
    let second = g.opponent(first);
    let mut steps = declarations(g, first);
    steps.extend([
        Step::PreGame,
        Step::AwaitMulligan { player: first },
        Step::AwaitMulligan { player: second },
        Step::PreGameValues,
    ]);
    steps.extend(start_of_turn());
    steps
}

/// 6.2.1.1-6.2.1.7: decks checked, placed and shuffled, the first player,
/// each player's opening hand of 4.
pub(super) fn prepare(m: &mut M) -> R<()> {
    m.game.turn.phase = "setup".into();
    let players = m.game.players.len();
    for p in PlayerId::all(players) {
        check_decks(&m.game, p)?;
    }
    for p in PlayerId::all(players) {
        let mut ids = m.game.zone_of(p, zn::DECK).to_vec();
        m.game.rng.shuffle(&mut ids);
        let n = ids.len();
        m.game.zones.insert(ZoneId::of(p, zn::DECK), ids);
        m.record(
            "setup.shuffle",
            format!(
                "{} presents a deck of {n} cards, places the leader and shuffles the deck",
                player_name(p)
            ),
            &[
                r::PRE_GAME,
                r::PRE_GAME_LEADER,
                r::PRE_GAME_SHUFFLE,
                r::DECK_SIZE,
            ],
        );
    }
    // 14.3.1 item 2: just before the first player is decided.
    magic_items(m)?;
    let first = m.game.turn.first;
    m.record(
        "setup.first_player",
        format!("{} goes first", player_name(first)),
        &[r::PRE_GAME_FIRST],
    )
    .note("the scenario names the first player (`state.turn.first`): the random pick of who chooses (6.2.1.6) is made before it");
    for p in PlayerId::all(players) {
        let top = take_four(m, p);
        m.record(
            "setup.hand",
            format!(
                "{} moves the top {} cards of their deck to their hand",
                player_name(p),
                top.len()
            ),
            &[r::PRE_GAME_HAND],
        )
        .change(format!("{}.hand", player_name(p)), 0, top.len());
    }
    Ok(())
}

/// 6.2.1.7 (and again after a mulligan): the top 4 cards of `p`'s deck
/// move to their hand; not a draw (5.9).
fn take_four(m: &mut M, p: PlayerId) -> Vec<CardId> {
    let top: Vec<CardId> = m
        .game
        .zone_of(p, zn::DECK)
        .iter()
        .take(4)
        .cloned()
        .collect();
    for id in &top {
        mv(m, id, ZoneId::of(p, zn::HAND), false);
    }
    top
}

/// 6.1.1.2-6.1.1.4: the main deck holds 40 to 50 cards, the evolve deck
/// at most 10, and at most 3 cards of one name in each. Anonymous cards
/// stand for distinct cards. A board that breaks them is bad input.
fn check_decks(g: &Game, p: PlayerId) -> R<()> {
    let deck = g.zone_of(p, zn::DECK);
    if !(40..=50).contains(&deck.len()) {
        return Err(bad(format!(
            "{}'s main deck has {} cards; it must hold 40 to 50 (6.1.1.2)",
            player_name(p),
            deck.len()
        )));
    }
    let evolve = g.zone_of(p, zn::EVOLVE_DECK);
    if evolve.len() > 10 {
        return Err(bad(format!(
            "{}'s evolve deck has {} cards; it may hold at most 10 (6.1.1.3)",
            player_name(p),
            evolve.len()
        )));
    }
    if !g.zone_of(p, zn::HAND).is_empty() {
        return Err(bad(format!(
            "{}'s hand is not empty at setup: the opening hand is drawn by 6.2.1.7",
            player_name(p)
        )));
    }
    for (zone, cards) in [(zn::DECK, deck), (zn::EVOLVE_DECK, evolve)] {
        let mut names: BTreeMap<&str, usize> = BTreeMap::new();
        for id in cards {
            if let Some(d) = g.def_of(id)
                && d.card_type != "unknown"
            {
                *names.entry(d.name.as_str()).or_default() += 1;
            }
        }
        if let Some((name, n)) = names.iter().find(|(_, n)| **n > 3) {
            return Err(bad(format!(
                "{}'s {zone} holds {n} cards named {name}; at most 3 of one name (6.1.1.4)",
                player_name(p)
            )));
        }
    }
    Ok(())
}

/// 6.2.1.8: `p` puts their whole hand on the bottom of their deck, in the
/// order of the choice `bottom` (top to bottom; not needed when every card
/// is alike), then moves the top 4 cards to their hand.
pub(super) fn mulligan(m: &mut M, p: PlayerId) -> R<()> {
    let hand = m.game.zone_of(p, zn::HAND).to_vec();
    let alike = hand
        .iter()
        .all(|id| m.game.card(id).map(|c| &c.def) == m.game.card(&hand[0]).map(|c| &c.def));
    let order = if alike {
        hand.clone()
    } else {
        m.choices.exactly("bottom", &hand, hand.len())?
    };
    for id in &order {
        mv(m, id, ZoneId::of(p, zn::DECK), false);
    }
    let top = take_four(m, p);
    m.record(
        "setup.mulligan",
        format!(
            "{} puts {} on the bottom of their deck and takes the top {} cards",
            player_name(p),
            order.join(", "),
            top.len()
        ),
        &[r::MULLIGAN],
    );
    Ok(())
}

/// `p` keeps their opening hand (6.2.1.8 is a "may").
pub(super) fn keep(m: &mut M, p: PlayerId, note: Option<&str>) {
    let e = m.record(
        "setup.keep",
        format!("{} keeps their opening hand", player_name(p)),
        &[r::MULLIGAN],
    );
    if let Some(n) = note {
        e.note(n);
    }
}

/// 6.2.1.9-6.2.1.12: PP and max PP 0, EP 0 for the first player and 3 for
/// the second, each leader's defense 20; the first player's turn 1 begins.
pub(super) fn set_starting_values(m: &mut M) {
    let first = m.game.turn.first;
    for p in m.game.player_ids() {
        let ep = if p == first { 0 } else { 3 };
        let values = [("pp", 0), ("max_pp", 0), ("ep", ep), ("defense", 20)];
        let old: Vec<i64> = values
            .iter()
            .map(|(v, n)| m.game.set_value(p, v, *n))
            .collect();
        let e = m.record(
            "setup.values",
            format!("{}: PP 0, max PP 0, EP {ep}, defense 20", player_name(p)),
            &[r::PRE_GAME_PP, r::PRE_GAME_EP, r::PRE_GAME_DEFENSE],
        );
        for ((v, n), before) in values.iter().zip(old) {
            if before != *n {
                e.change(format!("{}.{v}", player_name(p)), before, *n);
            }
        }
    }
    m.game.turn.active = first;
    m.game.turn.number = 1;
    let text = format!("the game begins with {}'s turn 1", player_name(first));
    m.record("setup.start", text, &[r::PRE_GAME_START]);
}

/// Whether `a` answers the mulligan decision of `p`.
pub(super) fn answers_mulligan(g: &Game, a: Option<&Action>, p: PlayerId) -> bool {
    a.is_some_and(|a| {
        ["mulligan", "keep", "concede"].contains(&a.kind.as_str()) && default_player(g, a, p) == p
    })
}

//! THE IDOLM@STER CINDERELLA GIRLS (14.3): a player whose deck is built on
//! that title (6.1.1.5.2) puts 5 『魔法のアイテム』 (Magic Item) tokens into
//! their EX area during the pre-game procedure, just before the first
//! player is decided (14.3.1 item 2); 【レッスン(N)】 Lesson N banishes N of
//! them from the EX area (14.3.2 item 1), written as the cost action
//! `banish` of `chosen` cards of your `ex` named 『魔法のアイテム』.

use super::*;

/// The title, as a card's `title` text field prints it (2.13).
pub const TITLE: &str = "アイドルマスター シンデレラガールズ";

/// The token's name (its collaboration name, 14.3.1 item 1, matches too).
pub const MAGIC_ITEM: &str = "魔法のアイテム";

/// How many the title deck starts with (14.3.1 item 2).
const ITEMS: usize = 5;

/// Whether `p`'s deck is built on the title: their leader prints it and no
/// card of their main or evolve deck prints another (6.1.1.5.2). A leader
/// printing a class as well builds on the title only when its player
/// declared so (6.2.1.3).
fn title_deck(g: &Game, p: PlayerId) -> R<bool> {
    let Some(leader) = g.zone_of(p, zn::LEADER).first().and_then(|id| g.def_of(id)) else {
        return Ok(false);
    };
    if leader.text.get("title").map(String::as_str) != Some(TITLE) {
        return Ok(false);
    }
    if leader.text.contains_key("class") && declared(g, p) != Some("title") {
        return Ok(false);
    }
    let other = [zn::DECK, zn::EVOLVE_DECK]
        .iter()
        .flat_map(|z| g.zone_of(p, z))
        .filter_map(|id| g.def_of(id))
        .find_map(|d| d.text.get("title").filter(|t| t.as_str() != TITLE));
    if let Some(t) = other {
        return Err(bad(format!(
            "{}'s leader prints the title {TITLE} but a card of their deck prints {t}: a title deck holds that title only (6.1.1.5.2)",
            player_name(p)
        )));
    }
    Ok(true)
}

/// The scenario's definition of the token (its information comes from the
/// token list, 9.1.2.3, which a scenario writes as a card definition).
fn item_def(g: &Game) -> R<String> {
    g.defs
        .iter()
        .find(|(_, d)| d.name.contains(MAGIC_ITEM))
        .map(|(k, _)| k.clone())
        .ok_or_else(|| {
            bad(format!(
                "a {TITLE} deck needs the token 『{MAGIC_ITEM}』: define a card of that name (its information is in the token list, 9.1.2.3)"
            ))
        })
}

/// 14.3.1 item 2: before the first player is decided (6.2.1.6), each
/// player with a title deck creates 5 Magic Item tokens in their EX area.
pub(super) fn magic_items(m: &mut M) -> R<()> {
    for p in m.game.player_ids() {
        if !title_deck(&m.game, p)? {
            continue;
        }
        let def = item_def(&m.game)?;
        let zone = ZoneId::of(p, zn::EX);
        let mut ids = Vec::new();
        for _ in 0..ITEMS {
            let id = m.game.add_token(&def, p, zone.clone(), &[]);
            ids.push(id);
        }
        let n = m.game.zone(&zone).len();
        m.record(
            "setup.magic_items",
            format!(
                "{}'s deck is built on the title {TITLE}: {ITEMS} 『{MAGIC_ITEM}』 tokens are put into their EX area ({})",
                player_name(p),
                ids.join(", ")
            ),
            &[r::MAGIC_ITEMS, r::MAGIC_ITEM_NAME, r::TOKEN_CREATE, r::PRE_GAME_FIRST],
        )
        .obj(player_name(p))
        .change(format!("{}.ex", player_name(p)), n - ITEMS, n);
    }
    Ok(())
}

/// Whether a cost action is Lesson: `banish` of `chosen` cards of the
/// master's own EX area named 『魔法のアイテム』 (14.3.2 item 1).
pub(super) fn is_lesson(e: &Effect) -> bool {
    matches!(e, Effect::Banish { target: Target::Chosen { filter, .. } }
        if filter.zone.as_deref() == Some(zn::EX)
            && filter.side == Side::You
            && filter.name.as_deref().is_some_and(|n| n.contains(MAGIC_ITEM)))
}

/// Pays 【レッスン(N)】: banishes `n` Magic Items from `p`'s EX area, all or
/// none (10.4.2.2); the tokens cease to exist in the banished area
/// (9.1.4.3).
pub(super) fn lesson(m: &mut M, p: PlayerId, card: &str, e: &Effect, alts: Vec<String>) -> R<()> {
    let n = e
        .target()
        .and_then(|t| t.chosen())
        .map_or(1, |(_, count, _, _)| count as usize);
    let items: Vec<CardId> = m
        .game
        .zone_of(p, zn::EX)
        .iter()
        .filter(|id| {
            m.game
                .def_of(id)
                .is_some_and(|d| d.name.contains(MAGIC_ITEM))
        })
        .take(n)
        .cloned()
        .collect();
    if items.len() < n {
        return Err(illegal(
            r::LESSON,
            format!(
                "Lesson {n} banishes {n} 『{MAGIC_ITEM}』 from {}'s EX area; there are {}",
                player_name(p),
                items.len()
            ),
            alts,
        ));
    }
    m.record(
        "activate.cost",
        format!(
            "{card}: Lesson {n}: {} banished from {}'s EX area",
            items.join(", "),
            player_name(p)
        ),
        &[r::LESSON, r::BANISH, r::COST_PAYMENT, r::COST_IN_ORDER],
    )
    .obj(card);
    for id in &items {
        mv(m, id, ZoneId::of(p, zn::BANISHED), false);
    }
    Ok(())
}

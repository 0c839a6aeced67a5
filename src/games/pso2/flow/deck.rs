//! Deck construction (100), checked when a scenario starts at the setup
//! (102): the deck size printed on the Player card (100.2), 3 copies of a
//! card name with its title (100.3, 100.3.1, 206.1.2; 増殖 9, 302.11),
//! classes of actives and items (100.4, 100.5, ALL 208.1.2), at most 9
//! ドロップ cards (100.6), black Player cards (100.1.1, 100.7, 100.8).
//! Anonymous cards (no definition) are not counted by name.

use std::collections::BTreeMap;

use super::{M, cost, ctype, illegal, is_item_type, r, types, zn};
use crate::engine::{CardId, EngineError, PlayerId, player_name};

fn class_of(m: &M, id: &str) -> Option<String> {
    m.game
        .def_of(id)
        .and_then(|d| d.text.get("class").map(|c| c.trim().to_string()))
}

/// Checks one player's deck; the first violation is an error citing it.
fn check(m: &mut M, p: PlayerId) -> Result<(), EngineError> {
    let who = player_name(p);
    let deck: Vec<CardId> = m.game.zone_of(p, zn::DECK).to_vec();
    let pc = m
        .game
        .zone_of(p, zn::PLAYER)
        .iter()
        .find(|id| ctype(&m.game, id) == types::PLAYER)
        .cloned();
    if let Some(size) = pc
        .as_ref()
        .and_then(|id| m.game.def_of(id))
        .and_then(|d| d.defense)
        && deck.len() as i64 != size
    {
        return Err(illegal(
            r::DECK_SIZE,
            format!(
                "{who}'s deck has {} cards; the Player card requires exactly {size}",
                deck.len()
            ),
            vec![],
        ));
    }
    let mut copies: BTreeMap<String, (usize, bool)> = BTreeMap::new();
    let mut drops = 0;
    let p_color = pc
        .as_ref()
        .and_then(|id| m.game.def_of(id))
        .and_then(cost::color);
    let p_class = pc.as_ref().and_then(|id| class_of(m, id));
    for id in &deck {
        let Some(d) = m.game.def_of(id).cloned() else {
            continue;
        };
        if d.card_type == "unknown" {
            continue;
        }
        let e = copies
            .entry(super::super::names::deck_name(&d))
            .or_insert((0, true));
        e.0 += 1;
        e.1 &= d.has_keyword("proliferate");
        if d.has_keyword("drop") {
            drops += 1;
        }
        let t = d.card_type.as_str();
        if (t == types::ACTIVE || is_item_type(t))
            && let (Some(c), Some(pcl)) = (class_of(m, id), p_class.as_ref())
            && c != "ALL"
            && pcl != "ALL"
            && &c != pcl
        {
            return Err(illegal(
                if t == types::ACTIVE {
                    r::DECK_CLASS_ACTIVE
                } else {
                    r::DECK_CLASS_ITEM
                },
                format!("{id} has class {c} but {who}'s Player card is {pcl}"),
                vec![],
            ));
        }
        let black = cost::color(&d) == Some("black");
        if p_color == Some("black") && !black && !d.has_keyword("erosion") {
            return Err(illegal(
                r::DECK_BLACK,
                format!("{who} uses a black Player card: {id} is neither black nor 【侵食】"),
                vec![],
            ));
        }
        if p_color.is_some() && p_color != Some("black") && black {
            return Err(illegal(
                r::DECK_NOT_BLACK,
                format!("{who}'s Player card is not black: {id} is black"),
                vec![],
            ));
        }
    }
    for (name, (n, all_proliferate)) in &copies {
        let limit = if *all_proliferate { 9 } else { 3 };
        if *n > limit {
            return Err(illegal(
                if *all_proliferate {
                    r::PROLIFERATE
                } else {
                    r::COPIES
                },
                format!("{who}'s deck has {n} copies of 「{name}」 (the limit is {limit})"),
                vec![],
            ));
        }
    }
    if drops > 9 {
        return Err(illegal(
            r::DECK_DROP,
            format!("{who}'s deck has {drops} 【ドロップ】 cards (at most 9)"),
            vec![],
        ));
    }
    if p_color == Some("black") && !m.game.zone_of(p, zn::MAG).is_empty() {
        return Err(illegal(
            r::DECK_BLACK_NO_MAG,
            format!("{who} uses a black Player card and so no Mag"),
            vec![],
        ));
    }
    let titled = copies.keys().filter(|k| k.contains(' ')).count();
    let mut rules = vec![
        r::DECK_SIZE,
        r::COPIES,
        r::COPIES_TITLE,
        r::NAME_DECK,
        r::DECK_CLASS_ACTIVE,
        r::DECK_CLASS_ITEM,
        r::DECK_DROP,
    ];
    rules.push(if p_color == Some("black") {
        r::DECK_BLACK
    } else {
        r::DECK_NOT_BLACK
    });
    if copies.values().any(|(n, prolif)| *prolif && *n > 3) {
        rules.push(r::PROLIFERATE);
    }
    m.record(
        "deck_construction",
        format!(
            "{who}'s deck is legal: {} cards; at most 3 of each card name counted with its title ({titled} titled name(s)); classes, 【ドロップ】 and colours allowed",
            deck.len()
        ),
        &rules,
    );
    Ok(())
}

/// Checks every player's deck (100).
pub fn validate(m: &mut M) -> Result<(), EngineError> {
    for p in m.game.player_ids() {
        check(m, p)?;
    }
    Ok(())
}

//! Deck construction (100), checked when a scenario starts at the setup
//! (102): the deck size printed on the Player card (100.2), 3 copies of a
//! card name with its title (100.3, 100.3.1, 206.1.2; 増殖 9, 302.11; a
//! printed ability allowing N, stat `deck_copies`, 100.3.2),
//! classes of actives and items (100.4, 100.5, ALL 208.1.2), at most 9
//! ドロップ cards (100.6), black Player cards (100.1.1, 100.7, 100.8).
//! Anonymous cards (no definition) are not counted by name.

use std::collections::BTreeMap;

use super::{M, cost, ctype, illegal, is_item_type, r, types, zn};
use crate::engine::{CardId, EngineError, PlayerId, player_name};

/// The copies of one card name in a deck (100.3) and what their text
/// allows: 増殖 (302.11) on every copy allows 9; a printed ability allowing
/// N copies (stat `deck_copies`, 100.3.2) on every copy allows N.
struct Copies {
    n: i64,
    proliferate: bool,
    allowed: Option<i64>,
}

impl Copies {
    fn new() -> Self {
        Copies {
            n: 0,
            proliferate: true,
            allowed: Some(i64::MAX),
        }
    }

    fn count(&mut self, d: &crate::engine::CardDef) {
        self.n += 1;
        self.proliferate &= d.has_keyword("proliferate");
        self.allowed = match (self.allowed, d.stats.get("deck_copies")) {
            (Some(a), Some(&k)) => Some(a.min(k)),
            _ => None,
        };
    }

    /// The limit and the clause that sets it.
    fn limit(&self) -> (i64, &'static str) {
        match self.allowed {
            Some(k) => (k, r::COPIES_EXCEPTION),
            None if self.proliferate => (9, r::PROLIFERATE),
            None => (3, r::COPIES),
        }
    }
}

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
    let mut copies: BTreeMap<String, Copies> = BTreeMap::new();
    let mut drops = 0;
    let p_color = pc
        .as_ref()
        .and_then(|id| m.game.def_of(id))
        .and_then(|d| cost::color(d));
    let p_class = pc.as_ref().and_then(|id| class_of(m, id));
    for id in &deck {
        let Some(d) = m.game.def_of(id).cloned() else {
            continue;
        };
        if d.card_type == "unknown" {
            continue;
        }
        copies
            .entry(super::super::names::deck_name(&d))
            .or_insert_with(Copies::new)
            .count(&d);
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
    for (name, c) in &copies {
        let (limit, rule) = c.limit();
        if c.n > limit {
            return Err(illegal(
                rule,
                format!(
                    "{who}'s deck has {} copies of 「{name}」 (the limit is {limit})",
                    c.n
                ),
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
    for c in copies.values().filter(|c| c.n > 3) {
        let rule = c.limit().1;
        if !rules.contains(&rule) {
            rules.push(rule);
        }
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

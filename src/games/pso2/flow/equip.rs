//! Weapons and armor (205.4, 205.5): the host (装備先) and its class
//! (205.4.3) or name (「A」専用, 302.12), entering ON in the host's zone
//! (205.4.2), the slot limits (weapon 1, armor 3 slots, 【装備枠 X】 X
//! slots: 205.4.4, 205.4.4.1) and the choice of what to destroy over the
//! limit (205.4.5), and the host gone before it enters (205.4.8).

use super::{Chosen, M, ctype, illegal, moves, r, set_on, types, zn};
use crate::engine::{CardId, EngineError, PlayerId, texts};

/// The class of a card (208), if printed.
fn class(m: &M, id: &str) -> Option<String> {
    m.game
        .def_of(id)
        .and_then(|d| d.text.get("class").map(|c| c.trim().to_string()))
}

/// Whether `item` may be equipped to `host` (205.4, 205.4.3, 302.12).
fn can_equip(m: &M, p: PlayerId, item: &str, host: &str) -> bool {
    let Some(h) = m.game.card(host) else {
        return false;
    };
    let t = ctype(&m.game, host);
    if h.controller != p || !matches!(t, types::CHARA | types::PLAYER) {
        return false;
    }
    if !matches!(h.zone.kind, zn::FIELD | zn::PLAYER) {
        return false;
    }
    let class_ok = match (class(m, item), class(m, host)) {
        (None, _) => true,
        // ALL has every class icon (208.1.2).
        (Some(i), _) if i == "ALL" => true,
        (Some(i), Some(hc)) => hc == i || hc == "ALL",
        (Some(_), None) => false,
    };
    let excl_ok = m
        .game
        .def_of(item)
        .and_then(|d| d.text.get("exclusive").cloned())
        .is_none_or(|name| {
            m.game
                .def_of(host)
                .is_some_and(|hd| super::super::names::is_named(hd, &name))
        });
    class_ok && excl_ok
}

/// The cards player `p` may equip `item` to (205.4, 205.4.3, 302.12).
pub fn hosts(m: &M, p: PlayerId, item: &str) -> Vec<CardId> {
    m.game
        .cards
        .keys()
        .filter(|h| can_equip(m, p, item, h))
        .cloned()
        .collect()
}

/// Chooses the host of a weapon or armor being played (the action's
/// `target`); with no possible host it cannot be played (504.2).
pub fn choose_host(
    m: &mut M,
    p: PlayerId,
    item: &str,
    target: Option<&str>,
) -> Result<Chosen, EngineError> {
    let options = hosts(m, p, item);
    if options.is_empty() && target.is_none() {
        return Err(illegal(
            r::PLAY,
            format!("{item} needs a host (装備先) of its class and none can be chosen"),
            vec![],
        ));
    }
    let Some(host) = target else {
        return Err(EngineError::MissingChoice {
            choice: "target".into(),
            options: texts(&options),
        });
    };
    if !options.iter().any(|o| o == host) {
        let named = m
            .game
            .def_of(item)
            .and_then(|d| d.text.get("exclusive").cloned());
        let rule = match (named, m.game.def_of(host)) {
            (Some(n), Some(hd)) if !super::super::names::is_named(hd, &n) => r::EXCLUSIVE,
            _ => r::EQUIP_CLASS,
        };
        return Err(illegal(
            rule,
            format!(
                "{item} cannot be equipped to {host} (its controller, type, class or 専用 name does not allow it)"
            ),
            texts(&options),
        ));
    }
    if let Some(ic) = class(m, item) {
        let hc = class(m, host).unwrap_or_default();
        let mut rules = vec![r::EQUIP_CLASS];
        if ic == "ALL" || hc == "ALL" {
            rules.push(r::CLASS_ALL);
        }
        m.record(
            "equip",
            format!("{item} has class {ic} and {host} class {hc}: it may be equipped"),
            &rules,
        );
    }
    if let Some(name) = m
        .game
        .def_of(item)
        .and_then(|d| d.text.get("exclusive").cloned())
    {
        m.record(
            "equip",
            format!("{item} is 「{name}」専用: {host} is named 「{name}」 during the game (its name without title, matched exactly)"),
            &[r::EXCLUSIVE, r::NAME_IN_GAME, r::NAME_EXACT],
        );
    }
    let generation = m.game.card(host).map_or(0, |c| c.incarnation);
    Ok(Chosen {
        id: host.into(),
        generation,
    })
}

/// The source (発生源) of card `id`'s abilities: an equipped weapon's or
/// armor's is its host (205.4.7); any other card's is the card.
pub fn source_of(g: &crate::engine::Game, id: &str) -> CardId {
    let equipped = matches!(ctype(g, id), types::WEAPON | types::ARMOR);
    g.card(id)
        .and_then(|c| c.attached_to.clone())
        .filter(|_| equipped)
        .unwrap_or_else(|| id.into())
}

/// Slots an equipment card uses (205.4.4, 205.4.4.1).
fn slots(m: &M, id: &str) -> i64 {
    if ctype(&m.game, id) == types::ARMOR {
        m.game
            .def_of(id)
            .and_then(|d| d.stats.get("slots").copied())
            .unwrap_or(1)
    } else {
        1
    }
}

/// Resolves a weapon or armor onto its host.
pub fn resolve(m: &mut M, item: &str, host: &Chosen) -> Result<(), EngineError> {
    let alive = m.game.card(&host.id).is_some_and(|c| {
        c.incarnation == host.generation && matches!(c.zone.kind, zn::FIELD | zn::PLAYER)
    });
    let p = m.game.card(item).map_or(PlayerId::P1, |c| c.owner);
    if !alive || !can_equip(m, p, item, &host.id) {
        m.record(
            "equip",
            format!(
                "{}'s host {} left or became illegal: {item} goes to the discard",
                item, host.id
            ),
            &[r::EQUIP_HOST_GONE],
        );
        moves::to_discard(m, item);
        return Ok(());
    }
    let zone = m
        .game
        .card(&host.id)
        .map(|c| c.zone.clone())
        .ok_or_else(|| super::bad("host"))?;
    m.game.move_card(item, zone, false);
    if let Some(c) = m.game.cards.get_mut(item) {
        c.attached_to = Some(host.id.clone());
    }
    set_on(m, item, true);
    m.record(
        "equip",
        format!(
            "{item} is equipped to {} and enters ON in its zone",
            host.id
        ),
        &[r::EQUIP, r::EQUIP_ZONE, r::EQUIP_KEYWORD],
    )
    .obj(item.to_string());
    let kind = ctype(&m.game, item).to_string();
    let (limit, rule) = if kind == types::WEAPON {
        (1, r::EQUIP_SLOTS)
    } else {
        (3, r::EQUIP_SLOT_X)
    };
    let same: Vec<CardId> = m
        .game
        .cards
        .values()
        .filter(|c| {
            c.attached_to.as_deref() == Some(host.id.as_str()) && ctype(&m.game, &c.id) == kind
        })
        .map(|c| c.id.clone())
        .collect();
    let used: i64 = same.iter().map(|c| slots(m, c)).sum();
    if used <= limit {
        // 205.4.4: weapons and armour have slots of their own; within
        // the limit nothing is destroyed (205.4.5 does not apply).
        m.record(
            "equip",
            format!(
                "{}'s {kind} slots: {used} of {limit} used; within the limit",
                host.id
            ),
            &[r::EQUIP_SLOTS, rule],
        )
        .obj(item.to_string());
        return Ok(());
    }
    let key = format!("{}.destroy", item);
    // 205.4.5: the one equipping (装備をしようとするとき) chooses. Only
    // your own chara can be equipped (`can_equip`, checked again as the
    // card resolves), so that player is the host's controller, whoever's
    // pass made the card resolve (ruling
    // 205.4.5-over-the-slot-limit-the-equipping-player-chooses).
    // The Boss never decides: the party chooses for it (RAID:S10), the
    // choice read on the action that made the Boss play the card.
    let decider = m.game.card(&host.id).map_or(p, |c| c.controller);
    let chosen = if super::raid::is_boss(&m.game, decider) {
        m.choices.ids(&key, &same)?
    } else {
        m.decided_by(decider, |m| m.choices.ids(&key, &same))?
    };
    let Some(chosen) = chosen else {
        return Err(EngineError::MissingChoice {
            choice: key,
            options: texts(&same),
        });
    };
    let left: i64 = same
        .iter()
        .filter(|c| !chosen.contains(c))
        .map(|c| slots(m, c))
        .sum();
    if left > limit || chosen.is_empty() {
        return Err(EngineError::BadChoice {
            choice: key,
            value: chosen.join(", "),
            options: vec![format!(
                "cards of {} leaving at most {limit} slot(s)",
                same.join(", ")
            )],
        });
    }
    for c in chosen {
        moves::destroy(
            m,
            &c,
            &format!(
                "{} uses {used} {} slot(s), over the limit of {limit}",
                host.id, kind
            ),
            &[rule, r::EQUIP_SLOTS, r::EQUIP_OVER],
        )?;
    }
    Ok(())
}

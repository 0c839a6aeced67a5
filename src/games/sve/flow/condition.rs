//! Conditions of application (10.3.3: text enabled only while a condition
//! holds) and the class keywords that are conditions: Combo (13.2.1),
//! Spellchain (13.3.1), Awakening (13.4.1: `value` `max_pp` at least 7),
//! Necrocharge (13.5.1: `zone` `cemetery`), Crimson (13.5.2).

use super::*;
use crate::engine::card::Condition;

/// 13.2.1 Combo: cards the player has played this turn (any zone, tokens
/// too, the card being played included).
pub const COMBO: &str = "combo";
/// 13.3.1 Spellchain: spells in the player's cemetery.
pub const SPELLCHAIN: &str = "spellchain";
/// 13.5.2 Crimson (真紅): 1 during the player's turn once their leader's
/// defense has gone down this turn, else 0.
pub const CRIMSON: &str = "crimson";

/// The counts a condition may bound.
pub const COUNTS: &[&str] = &[
    COMBO,
    SPELLCHAIN,
    CRIMSON,
    earth_rite::EARTH_RITE,
    last_known::THIS_ATTACK,
    last_known::THIS_DEFENSE,
];

/// Player `p`'s cemetery: its cards and its spells.
fn cemetery_counts(g: &Game, p: PlayerId) -> (i64, i64) {
    let cards = g.zone_of(p, zn::CEMETERY);
    let spells = cards
        .iter()
        // Base information: a condition read while the continuous
        // changes are computed must not compute them again.
        .filter(|id| base_def(g, id).is_some_and(|d| d.card_type == "spell"))
        .count();
    (cards.len() as i64, spells as i64)
}

/// A card's resolution begins (10.6.2.8): the cemetery counts its
/// Necrocharge and Spellchain read are fixed now, for all of its text
/// (13.3.1 item 4, 13.5.1 item 3.2: fixed "when the resolution of the
/// effect holding it starts", so a card its first sentence puts into the
/// cemetery does not count for a later sentence). An ability's text is one
/// entry, whose condition is read as it starts resolving anyway.
pub(super) fn fix_counts(m: &mut M, card: &str) {
    let counts = m
        .game
        .player_ids()
        .map(|p| cemetery_counts(&m.game, p))
        .collect();
    let s = m.game.own::<SveState>();
    s.fixed_counts.push((card.into(), counts));
}

/// The card's resolution is over: its fixed counts are dropped.
pub(super) fn release_counts(m: &mut M) {
    m.game.own::<SveState>().fixed_counts.pop();
}

/// Player `p`'s cemetery counts as read by card `this`'s text: fixed if
/// `this` is the card resolving, live otherwise (a continuous ability
/// reads them as they are).
fn cemetery_for(g: &Game, p: PlayerId, this: &str) -> (i64, i64) {
    g.own_ref::<SveState>()
        .and_then(|s| s.fixed_counts.last())
        .filter(|(card, _)| card == this)
        .and_then(|(_, counts)| counts.get(p.index()).copied())
        .unwrap_or_else(|| cemetery_counts(g, p))
}

/// The value a condition part compares, for player `p`.
fn count(g: &Game, name: &str, p: PlayerId, this: &str) -> i64 {
    let s = g.own_ref::<SveState>();
    match name {
        COMBO => s.map_or(0, |s| s.played.get(p.index()).copied().unwrap_or(0)) as i64,
        SPELLCHAIN => cemetery_for(g, p, this).1,
        earth_rite::EARTH_RITE => earth_rite::paid(g, p),
        CRIMSON => i64::from(
            g.turn.active == p
                && s.is_some_and(|s| s.defense_lowered.get(p.index()).copied().unwrap_or(false)),
        ),
        _ => 0,
    }
}

/// A `cards` part: the cards `f` admits (side from `master`, the field by
/// default), as the account and the one number compared. Read from base
/// information (printed, or the evolve card's), as Spellchain's is: a
/// condition of a continuous ability is read while the changes of 10.9.1.2
/// are computed and must not compute them again, so a trait or type given
/// by an effect is not counted.
fn cards(g: &Game, f: &Filter, master: PlayerId, this: &str) -> (String, Vec<i64>) {
    let found = candidates_by(
        g,
        &|id| base_def(g, id).map(std::borrow::Cow::Borrowed),
        f,
        master,
        this,
        false,
        false,
    );
    let what = format!(
        "cards found ({})",
        if found.is_empty() {
            "none".to_string()
        } else {
            found.join(", ")
        }
    );
    (what, vec![found.len() as i64])
}

/// The clauses of a count (for the trace).
fn count_rules(name: &str) -> &'static [&'static str] {
    match name {
        COMBO => &[r::COMBO, r::COMBO_MEANS, r::COMBO_ANY_ZONE],
        SPELLCHAIN => &[
            r::SPELLCHAIN,
            r::SPELLCHAIN_MEANS,
            r::SPELLCHAIN_NOT_SELF,
            r::SPELLCHAIN_FIXED,
        ],
        earth_rite::EARTH_RITE => &[r::EARTH_RITE, r::EARTH_RITE_MEANS],
        last_known::THIS_ATTACK | last_known::THIS_DEFENSE => &[r::CONDITIONAL_TEXT],
        _ => &[r::CRIMSON, r::CRIMSON_MEANS],
    }
}

/// Whether `c` holds for an ability mastered by `master`, with the
/// clauses that decided it and an account for the trace.
pub(super) fn holds(
    g: &Game,
    c: &Condition,
    master: PlayerId,
    this: &str,
) -> (bool, Vec<&'static str>, String) {
    let mut rules = vec![r::CONDITIONAL_TEXT];
    let mut parts = Vec::new();
    let mut ok = true;
    if let Some(w) = c.turn {
        let yes = who_players(g, master, w).contains(&g.turn.active);
        parts.push(format!("turn of {}: {yes}", player_name(g.turn.active)));
        ok &= yes;
    }
    if let Some(ph) = &c.phase {
        let yes = &g.turn.phase == ph;
        parts.push(format!("phase {}: {yes}", g.turn.phase));
        ok &= yes;
    }
    let players = who_players(g, master, c.who);
    let measured: Option<(String, Vec<i64>)> = if let Some(v) = &c.value {
        if v == "max_pp" {
            rules.extend_from_slice(&[r::AWAKENING, r::AWAKENING_MEANS]);
        }
        Some((v.clone(), players.iter().map(|&p| g.value(p, v)).collect()))
    } else if let Some(z) = &c.zone {
        if z == zn::CEMETERY {
            // 13.5.1 item 3.1: a card being resolved is in the resolution
            // area, so it does not count itself.
            rules.extend_from_slice(&[
                r::NECROCHARGE,
                r::NECROCHARGE_MEANS,
                r::NECROCHARGE_NOT_SELF,
                r::NECROCHARGE_FIXED,
            ]);
        }
        Some((
            format!("cards in {z}"),
            players
                .iter()
                .map(|&p| {
                    if z == zn::CEMETERY {
                        cemetery_for(g, p, this).0
                    } else {
                        g.zone_of(p, z).len() as i64
                    }
                })
                .collect(),
        ))
    } else if let Some(n) = c
        .count
        .as_ref()
        .filter(|n| [last_known::THIS_ATTACK, last_known::THIS_DEFENSE].contains(&n.as_str()))
    {
        // A number of the ability's own card: its last known one once it
        // has left the field (10.11.1).
        let (v, left) = own_number(g, this, n);
        let what = match left {
            Some(z) => {
                rules.push(r::LAST_KNOWN);
                format!("{n} of {this} when it was last in {z} (last known information)")
            }
            None => format!("{n} of {this}"),
        };
        Some((what, vec![v]))
    } else if let Some(n) = &c.count {
        rules.extend_from_slice(count_rules(n));
        Some((
            n.clone(),
            players.iter().map(|&p| count(g, n, p, this)).collect(),
        ))
    } else {
        c.cards.as_ref().map(|f| {
            if f.special.is_some() {
                rules.extend_from_slice(&[r::SPECIAL_EVOLVE, r::TYPE_NAME_REFERS]);
            }
            cards(g, f, master, this)
        })
    };
    if let Some((what, ns)) = measured {
        for n in ns {
            let yes = c.bounds_hold(n);
            parts.push(format!(
                "{what} = {n}{}{}: {yes}",
                c.at_least
                    .map(|a| format!(", at least {a}"))
                    .unwrap_or_default(),
                c.at_most
                    .map(|a| format!(", at most {a}"))
                    .unwrap_or_default()
            ));
            ok &= yes;
        }
    }
    (ok, rules, parts.join("; "))
}

/// The condition of ability `ability` of `def`, checked when the ability
/// starts resolving (13.3.1 item 4, 13.5.1 item 3.2: the count is fixed
/// then). Records the outcome; returns whether the text applies.
/// The condition of application of ability `ability` of `def` (10.3.3). A
/// state trigger's condition is its trigger (10.7.6), not checked again as
/// it resolves.
pub(super) fn application_condition(g: &Game, def: &str, ability: usize) -> Option<Condition> {
    g.ability(def, ability)
        .filter(|a| a.trigger != STATE)
        .and_then(|a| a.condition.clone())
}

pub(super) fn applies(m: &mut M, def: &str, ability: usize, this: &str, master: PlayerId) -> bool {
    let Some(c) = application_condition(&m.game, def, ability) else {
        return true;
    };
    let (ok, rules, why) = holds(&m.game, &c, master, this);
    m.record(
        "ability.condition",
        if ok {
            format!("{this}: the condition holds ({why}): the text applies")
        } else {
            format!("{this}: the condition does not hold ({why}): the text does nothing")
        },
        &rules,
    )
    .obj(this);
    ok
}

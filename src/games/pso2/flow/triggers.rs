//! Triggered abilities (300.2): collected from what happened, put in the
//! resolution zone as soon as their condition is met (300.2.1), the turn
//! player's first and then the non-turn player's, so the non-turn player's
//! resolve first (406.2.1). Zone-move triggers read the card as it was
//! (300.2.1@2, 300.2.2). "Only once per turn" locks the card object
//! (300.8.1) or, for 「name」's ability, every card of that name for all
//! players (300.8.2).

use super::state::TurnLock;
use super::{Ctx, Entry, EntryKind, M, delayed, r, targets, zn};
use crate::engine::{CardId, EngineError, Event, PlayerId, player_name};

/// One triggered ability found.
struct Found {
    card: CardId,
    def: String,
    ability: usize,
    trigger: &'static str,
    master: PlayerId,
    rules: &'static [&'static str],
}

fn abilities_of(m: &M, card: &str, trigger: &'static str) -> Vec<(String, usize)> {
    let Some(c) = m.game.card(card) else {
        return Vec::new();
    };
    let key = c.face.as_ref().map_or(c.def.clone(), |f| f.def.clone());
    m.game
        .defs
        .get(&key)
        .map(|d| {
            d.abilities
                .iter()
                .enumerate()
                .filter(|(_, a)| a.trigger == trigger)
                .map(|(i, _)| (key.to_string(), i))
                .collect()
        })
        .unwrap_or_default()
}

/// The abilities `trigger` of `card` triggers; none when the card has lost
/// its abilities (300.7), read as it was when it left for a zone-move
/// trigger (300.2.2), and the trace says so.
fn found(
    m: &mut M,
    card: &str,
    trigger: &'static str,
    master: PlayerId,
    rules: &'static [&'static str],
) -> Vec<Found> {
    let abilities = abilities_of(m, card, trigger);
    let lost = if trigger == "on_ko" {
        super::abilities::lost_when_it_left(&m.game, card)
    } else {
        super::abilities::lost(&m.game, card)
    };
    if lost && !abilities.is_empty() {
        let also: &[&'static str] = if trigger == "on_ko" {
            // Read as the card was when it left the field.
            &[r::ZONE_MOVE_INFO]
        } else {
            &[]
        };
        super::abilities::say_lost(
            m,
            card,
            &format!("{trigger} ability does not trigger"),
            also,
        );
        return Vec::new();
    }
    abilities
        .into_iter()
        .map(|(def, ability)| Found {
            card: card.into(),
            def,
            ability,
            trigger,
            master,
            rules,
        })
        .collect()
}

/// Drains the events and puts the abilities they trigger in the zone.
/// Returns how many were put there.
pub fn collect(m: &mut M, ctx: &mut Ctx) -> Result<usize, EngineError> {
    let events = std::mem::take(&mut m.game.events);
    let tp = m.game.turn.active;
    let mut all = Vec::new();
    for e in events {
        match e {
            Event::Moved { card, from, to } => {
                let chara = super::ctype(&m.game, &card) == super::types::CHARA;
                if to.kind == zn::FIELD && from.kind != zn::FIELD {
                    let p = to.player.unwrap_or(tp);
                    all.extend(found(
                        m,
                        &card,
                        "on_enter",
                        p,
                        &[r::ON_ENTER, r::GL_ON_ENTER, r::ZONE_MOVE_TRIGGER],
                    ));
                    if chara {
                        all.extend(waiting(m, delayed::ON_ENTER, Some(p)));
                    }
                }
                if from.kind == zn::FIELD
                    && !matches!(to.kind, zn::DISCARD | zn::FIELD)
                    && !abilities_of(m, &card, "on_ko").is_empty()
                {
                    m.record(
                        "trigger",
                        format!(
                            "{card}'s 戦闘不能時 ability does not trigger: it left the field for the {}, and it triggers only when destroyed and put into the discard",
                            to.kind
                        ),
                        &[r::ON_KO, r::GL_ON_KO],
                    )
                    .obj(card.clone());
                }
                if from.kind == zn::FIELD && to.kind == zn::DISCARD {
                    // 302.3.1: the player who controlled it.
                    let p = from.player.unwrap_or(tp);
                    if chara {
                        all.extend(waiting(m, delayed::ON_KO, Some(p)));
                    }
                    all.extend(found(
                        m,
                        &card,
                        "on_ko",
                        p,
                        &[
                            r::ON_KO,
                            r::GL_ON_KO,
                            r::ON_KO_CONTROLLER,
                            r::ZONE_MOVE_TRIGGER,
                            r::ZONE_MOVE_INFO,
                        ],
                    ));
                }
                if from.kind == zn::DECK && to.kind == zn::DISCARD {
                    let p = from.player.unwrap_or(tp);
                    if p != tp {
                        all.extend(found(m, &card, "drop", p, &[r::DROP, r::GL_DROP]));
                    } else if !abilities_of(m, &card, "drop").is_empty() {
                        m.record(
                            "trigger",
                            format!(
                                "{card}'s ドロップ does not trigger: it is its owner's own turn"
                            ),
                            &[r::DROP, r::GL_DROP],
                        );
                    }
                }
            }
            Event::Attacked { card } => {
                let p = m.game.card(&card).map_or(tp, |c| c.controller);
                all.extend(found(m, &card, "on_attack", p, &[r::ATTACK_PARTICIPATION]));
            }
            Event::Fought { a, .. } => {
                let p = m.game.card(&a).map_or(tp, |c| c.controller);
                all.extend(found(m, &a, "on_engage", p, &[r::WEAPON_DECLARATION]));
            }
            _ => {}
        }
    }
    let mut entries = Vec::new();
    for f in all {
        if let Some(e) = make(m, &f)? {
            entries.push(e);
        }
    }
    place(m, ctx, entries)
}

/// The abilities with `trigger` (`start_of_turn`, `end_of_turn`) of the
/// turn player's cards on the field, player and mag zones.
pub fn timed(m: &mut M, trigger: &'static str) -> Result<Vec<Entry>, EngineError> {
    let tp = m.game.turn.active;
    let n = m.game.players.len();
    // 「自分のターンの開始時」: the turn player's cards (501.1.4);
    // 『ターン終了時』: every player's (505.1.2), the turn player's first.
    let players: Vec<PlayerId> = if trigger == "start_of_turn" {
        vec![tp]
    } else {
        (0..n).map(|k| tp.after(k, n)).collect()
    };
    let rules: &'static [&'static str] = if trigger == "start_of_turn" {
        &[r::START_TRIGGERS]
    } else {
        &[r::TURN_END_STEP]
    };
    let mut out = Vec::new();
    if trigger == "end_of_turn" {
        for f in waiting(m, delayed::END_OF_TURN, None) {
            if let Some(e) = make(m, &f)? {
                out.push(e);
            }
        }
    }
    for p in players {
        let mut cards = Vec::new();
        for z in [zn::PLAYER, zn::MAG, zn::FIELD] {
            cards.extend(m.game.zone_of(p, z).to_vec());
        }
        for c in cards {
            if super::mag::under_the_mag(&m.game, &c) {
                continue;
            }
            let master = m.game.card(&c).map_or(p, |x| x.controller);
            for f in found(m, &c, trigger, master, rules) {
                if let Some(e) = make(m, &f)? {
                    out.push(e);
                }
            }
        }
    }
    Ok(out)
}

/// The delayed abilities (300.2.3) waiting for `trigger` of player `p`,
/// taken: each triggers once, as a new ability (300.2.3.1).
fn waiting(m: &mut M, trigger: &'static str, p: Option<PlayerId>) -> Vec<Found> {
    delayed::take(m, trigger, p)
        .into_iter()
        .map(|d| Found {
            card: d.card,
            def: d.def,
            ability: d.ability,
            trigger: d.trigger,
            master: d.master,
            rules: &[r::DELAYED_TRIGGER, r::DELAYED_PLACED],
        })
        .collect()
}

/// Builds the zone entry of a triggered ability: its condition (300.2.1),
/// the once-per-turn locks,
/// then its targets (406.2.2.1; none possible: not activated, 406.2.2.2).
fn make(m: &mut M, f: &Found) -> Result<Option<Entry>, EngineError> {
    let def = m.game.defs.get(&f.def).cloned();
    let Some(def) = def else { return Ok(None) };
    if let Some(k) = def
        .abilities
        .get(f.ability)
        .and_then(|a| a.condition.as_ref())
        && !super::continuous::holds(&m.game, f.master, k)
    {
        m.record(
            "trigger",
            format!(
                "{}'s {} ability does not trigger: its condition is not met",
                f.card, f.trigger
            ),
            &[r::TRIGGER_ALWAYS],
        );
        return Ok(None);
    }
    let generation = m.game.card(&f.card).map_or(0, |c| c.incarnation);
    let once = def
        .has_keyword("once_per_turn")
        .then(|| TurnLock::Once(f.card.clone(), generation));
    let name = super::super::names::game_name(&def);
    let name_once = def
        .has_keyword("name_once_per_turn")
        .then(|| TurnLock::Name(name.clone()));
    if once
        .as_ref()
        .is_some_and(|k| super::state::locked(&m.game, k))
    {
        m.record(
            "trigger",
            format!(
                "{}'s ability was already used this turn by this card",
                f.card
            ),
            &[r::ONCE_PER_TURN],
        );
        return Ok(None);
    }
    if name_once
        .as_ref()
        .is_some_and(|k| super::state::locked(&m.game, k))
    {
        m.record(
            "trigger",
            format!("「{name}」's ability was already used this turn (by any card of that name, by any player)"),
            &[r::NAME_ONCE_PER_TURN],
        );
        return Ok(None);
    }
    let ability = def.abilities[f.ability].clone();
    let key = format!("{}.{}", f.card, f.trigger);
    // Issue 13: the master chooses the targets, whoever's action made it
    // trigger.
    let Some(chosen) = m.decided_by(f.master, |m| {
        targets::choose(m, f.master, &f.card, &ability.effect, &key, None)
    })?
    else {
        m.record(
            "trigger",
            format!(
                "{}'s {} ability has no legal target: it is not activated",
                f.card, f.trigger
            ),
            &[r::NO_TARGET_NO_PLAY],
        );
        return Ok(None);
    };
    // 209.1.3.2: a cost is decided on as the ability triggers; unpaid, the
    // ability never reaches the zone (nor uses its once-per-turn).
    let x = if ability.cost.is_empty() {
        0
    } else {
        match super::ability_cost::pay_on_trigger(m, f.master, &f.card, &key, &ability)? {
            Some(x) => x,
            None => return Ok(None),
        }
    };
    if let Some(k) = once {
        super::state::lock(&mut m.game, k);
        m.record(
            "trigger",
            format!(
                "{}'s once-per-turn ability: first use this turn by this object",
                f.card
            ),
            &[r::ONCE_PER_TURN, r::NEW_OBJECT],
        );
    }
    if let Some(k) = name_once {
        super::state::lock(&mut m.game, k);
    }
    let mut rules = vec![r::TRIGGER_ALWAYS, r::ACTIVATE];
    rules.extend_from_slice(f.rules);
    m.record(
        "trigger",
        format!(
            "{}'s {} ability triggers ({})",
            f.card,
            f.trigger,
            player_name(f.master)
        ),
        &rules,
    )
    .obj(f.card.clone());
    Ok(Some(Entry {
        kind: EntryKind::Ability {
            card: f.card.clone(),
            def: f.def.clone(),
            ability: f.ability,
            trigger: f.trigger.to_string(),
            x,
            generation: m.game.card(&f.card).map_or(0, |c| c.incarnation),
        },
        master: f.master,
        targets: chosen,
    }))
}

/// The name scenarios use for an entry in the choice `order`.
pub fn entry_key(e: &Entry) -> String {
    match &e.kind {
        EntryKind::Ability { card, trigger, .. } => format!("{card}.{trigger}"),
        EntryKind::Card(c) => c.to_string(),
        EntryKind::WarCry(c) => format!("{c}.war_cry"),
        EntryKind::DoubleAttack(c) => format!("{c}.double_attack"),
        EntryKind::Pierce { card, .. } => format!("{card}.pierce"),
    }
}

/// One player's simultaneous entries in the order they put them in the zone
/// (406.2.1: in any order): the choice `order` (entry keys, first in
/// first) when given, else the order they triggered in.
fn ordered(m: &mut M, group: Vec<Entry>, all: &[String]) -> Result<Vec<Entry>, EngineError> {
    if group.len() < 2 {
        return Ok(group);
    }
    let keys: Vec<String> = group.iter().map(entry_key).collect();
    // Issue 13: the order is the choice of the player whose entries they
    // are, whoever's action made them trigger.
    let order = m.decided_by(group[0].master, |m| {
        m.choices.default_order("order", &keys);
        m.choices.ids("order", all)
    })?;
    let Some(order) = order else {
        m.record(
            "trigger",
            format!(
                "{} simultaneous abilities go to the zone in the order they triggered ({}); choice `order` sets another",
                player_name(group[0].master),
                keys.join(", ")
            ),
            &[r::SIMULTANEOUS_TRIGGERS],
        );
        return Ok(group);
    };
    let mut rest = group;
    let mut out = Vec::new();
    for k in order {
        if let Some(i) = rest.iter().position(|e| entry_key(e) == k) {
            out.push(rest.remove(i));
        }
    }
    out.extend(rest);
    m.record(
        "trigger",
        format!(
            "{} puts their simultaneous abilities in the zone in the chosen order: {}",
            player_name(out[0].master),
            out.iter().map(entry_key).collect::<Vec<_>>().join(", ")
        ),
        &[r::SIMULTANEOUS_TRIGGERS],
    );
    Ok(out)
}

/// Puts simultaneous triggered entries in the zone: the turn player's
/// first, then the others' (406.2.1). Returns how many.
pub fn place(m: &mut M, ctx: &mut Ctx, entries: Vec<Entry>) -> Result<usize, EngineError> {
    let tp = m.game.turn.active;
    let n = entries.len();
    if n == 0 {
        return Ok(0);
    }
    let all: Vec<String> = entries.iter().map(entry_key).collect();
    let (tps, others): (Vec<Entry>, Vec<Entry>) = entries.into_iter().partition(|e| e.master == tp);
    if !tps.is_empty() && !others.is_empty() {
        m.record(
            "trigger",
            "simultaneous triggers: the turn player's go to the zone first, then the non-turn player's (these resolve first)",
            &[r::SIMULTANEOUS_TRIGGERS],
        );
    }
    let first = ordered(m, tps, &all)?;
    let second = ordered(m, others, &all)?;
    ctx.stack.extend(first);
    ctx.stack.extend(second);
    Ok(n)
}

//! What lasts beside the board between actions and a dump writes with the
//! right to act in progress (`state.in_progress.lasting`, flow/resume.rs):
//! the turn's once-per-turn locks (300.8, 302.5), the 《できない》
//! restrictions in force (103.1.2), the delayed abilities waiting for
//! their event (300.2.3) and the abilities lost (300.7).
//!
//! Each names a card as the object it is now. What belongs to an object
//! that has since changed zones (400.6) no longer applies to any card and
//! is not written: a lock or loss of a card that left, a permanent
//! restriction whose card or source left. A restriction lasting until the
//! end of the turn names its card by id (it follows the id, as
//! [`super::restrict`] reads it).

use serde::{Deserialize, Serialize};

use super::restrict::Restriction;
use super::state::{Pso2State, TurnLock};
use super::{M, delayed};
use crate::engine::{CardId, Game, PlayerId, Restricted, Until, player_name};

/// The lasting state of a moment, as a file writes it.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Lasting {
    /// Once-per-turn locks: `{"once": card}` (【ターン1回】 of that object),
    /// `{"name": name}` (【同名ターン1回】), `{"double_attack": card}` (連撃
    /// used this turn).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    locks: Vec<LockDef>,
    /// 《できない》 effects in force.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    restrictions: Vec<RestrictionDef>,
    /// Delayed abilities set up and waiting for their event.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    delayed: Vec<DelayedDef>,
    /// Cards that lost their abilities, and for how long.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    lost: Vec<LostDef>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
enum LockDef {
    Once(String),
    Name(String),
    DoubleAttack(String),
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct RestrictionDef {
    /// `attack`, `move`, `play` or `draw`.
    action: Restricted,
    /// The card it forbids, or
    #[serde(default, skip_serializing_if = "Option::is_none")]
    card: Option<String>,
    /// the player it forbids (`p1`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    player: Option<String>,
    /// For `play`: the card types (none: any).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    types: Vec<String>,
    /// The card whose effect made it.
    source: String,
    until: Until,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct DelayedDef {
    /// The card whose effect set it up, its definition and the ability's
    /// index there.
    card: String,
    def: String,
    ability: usize,
    /// Its master (300.6).
    master: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct LostDef {
    card: String,
    until: Until,
}

impl Lasting {
    pub fn is_empty(&self) -> bool {
        *self == Lasting::default()
    }
}

/// The card `id` when it is still the object of generation `generation`.
fn current(g: &Game, id: &CardId, generation: u32) -> Option<String> {
    g.card(id)
        .is_some_and(|c| c.incarnation == generation)
        .then(|| id.to_string())
}

/// The lasting state of `g`, as a file writes it.
pub fn write(g: &Game) -> Lasting {
    let Some(s) = super::state::read(g) else {
        return Lasting::default();
    };
    Lasting {
        locks: s
            .turn_locks
            .iter()
            .filter_map(|l| match l {
                TurnLock::Once(id, n) => current(g, id, *n).map(LockDef::Once),
                TurnLock::Name(name) => Some(LockDef::Name(name.clone())),
                TurnLock::DoubleAttack(id, n) => current(g, id, *n).map(LockDef::DoubleAttack),
            })
            .collect(),
        restrictions: s
            .restrictions
            .iter()
            .filter(|x| super::restrict::in_force(g, x))
            .map(|x| RestrictionDef {
                action: x.action,
                card: x.who.as_ref().map(|(id, _)| id.to_string()),
                player: x.player.map(player_name),
                types: x.types.clone(),
                source: x.source.0.to_string(),
                until: x.until,
            })
            .collect(),
        delayed: s
            .delayed
            .iter()
            .map(|d| DelayedDef {
                card: d.card.to_string(),
                def: d.def.clone(),
                ability: d.ability,
                master: player_name(d.master),
            })
            .collect(),
        lost: s
            .lost
            .iter()
            .filter_map(|((id, n), until)| {
                current(g, id, *n).map(|card| LostDef {
                    card,
                    until: *until,
                })
            })
            .collect(),
    }
}

/// Checks `l` against the board of `g`: every card named exists, every
/// player is a seat, every delayed ability is one an effect sets up.
pub fn check(g: &Game, l: &Lasting) -> Result<(), String> {
    let card = |id: &str| {
        g.card(id)
            .map(|_| ())
            .ok_or_else(|| format!("`lasting`: `{id}` is not a card of this scenario"))
    };
    for lock in &l.locks {
        if let LockDef::Once(id) | LockDef::DoubleAttack(id) = lock {
            card(id)?;
        }
    }
    for x in &l.restrictions {
        card(&x.source)?;
        restriction(g, x)?;
    }
    for d in &l.delayed {
        delayed_of(g, d)?;
    }
    for x in &l.lost {
        card(&x.card)?;
    }
    Ok(())
}

fn seat(g: &Game, name: &str) -> Result<PlayerId, String> {
    crate::engine::state::parse_player(name, g.players.len())
        .ok_or_else(|| format!("`lasting`: `{name}` is not a seat of this scenario"))
}

/// The restriction `x` describes, on the board of `g`: its card or its
/// source as the objects they are now (a permanent one written is in
/// force, 103.1.2).
fn restriction(g: &Game, x: &RestrictionDef) -> Result<Restriction, String> {
    let object = |id: &str| {
        g.card(id)
            .map(|c| (c.id.clone(), c.incarnation, c.zone.kind.to_string()))
            .ok_or_else(|| format!("`lasting`: `{id}` is not a card of this scenario"))
    };
    let who = match &x.card {
        Some(id) => {
            let (id, n, _) = object(id)?;
            Some((id, n))
        }
        None => None,
    };
    let player = x.player.as_deref().map(|p| seat(g, p)).transpose()?;
    if who.is_some() == player.is_some() {
        return Err("`lasting.restrictions`: each forbids one `card` or one `player`".into());
    }
    Ok(Restriction {
        action: x.action,
        who,
        player,
        types: x.types.clone(),
        source: object(&x.source)?,
        until: x.until,
    })
}

/// The delayed ability `d` describes: ability `ability` of definition
/// `def`, one an effect sets up (its trigger word).
fn delayed_of(g: &Game, d: &DelayedDef) -> Result<delayed::Delayed, String> {
    let trigger = g
        .defs
        .get(&d.def)
        .and_then(|def| def.abilities.get(d.ability))
        .and_then(|a| delayed::set_up_word(&a.trigger))
        .ok_or_else(|| {
            format!(
                "`lasting.delayed`: ability {} of `{}` is not one an effect sets up ({})",
                d.ability,
                d.def,
                delayed::SET_UP.join(", ")
            )
        })?;
    Ok(delayed::Delayed {
        card: d.card.as_str().into(),
        def: d.def.clone(),
        ability: d.ability,
        trigger,
        master: seat(g, &d.master)?,
    })
}

/// Sets the lasting state `l` (checked by [`check`]) on the board.
pub fn restore(m: &mut M, l: &Lasting) -> Result<(), String> {
    let g = &m.game;
    let generation = |id: &str| g.card(id).map_or(0, |c| c.incarnation);
    let locks: Vec<TurnLock> = l
        .locks
        .iter()
        .map(|x| match x {
            LockDef::Once(id) => TurnLock::Once(id.as_str().into(), generation(id)),
            LockDef::Name(name) => TurnLock::Name(name.clone()),
            LockDef::DoubleAttack(id) => TurnLock::DoubleAttack(id.as_str().into(), generation(id)),
        })
        .collect();
    let restrictions = l
        .restrictions
        .iter()
        .map(|x| restriction(g, x))
        .collect::<Result<Vec<_>, _>>()?;
    let waiting = l
        .delayed
        .iter()
        .map(|d| delayed_of(g, d))
        .collect::<Result<Vec<_>, _>>()?;
    let lost: Vec<((CardId, u32), Until)> = l
        .lost
        .iter()
        .map(|x| ((x.card.as_str().into(), generation(&x.card)), x.until))
        .collect();
    let s: &mut Pso2State = super::state::of(&mut m.game);
    s.turn_locks.extend(locks);
    s.restrictions.extend(restrictions);
    s.delayed.extend(waiting);
    s.lost.extend(lost);
    Ok(())
}

//! Continuous abilities 常時能力 (300.4) and conditions of application.
//!
//! A continuous ability (trigger `continuous`) works while its card is on
//! the field (300.4.1: the field, the Player and Mag zones) and for as long
//! as its condition holds; the moment the condition stops holding it stops
//! working (300.4). Its effects are therefore never stored on the cards
//! they change: every read of attack, HP or a play's cost recomputes them
//! from the abilities that apply at that moment. After each step the
//! module compares the set that applies with the one before and says in
//! the trace which began or stopped applying, and why.
//!
//! What a continuous ability may do: `buff` (attack / HP of `this` or of
//! `all` cards matching a filter, 215.3), `modify_cost` ("the cost to
//! play becomes ±N", 209.4.1: the payment only, the card's cost is
//! unchanged) and `modify_damage` (damage a card takes or deals ±N, a
//! change applied before the damage is dealt, 506.6.2, 103.4.3). Anything
//! else stops the run as not implemented.

use super::state::{self, AbilityOf};
use super::{M, r, raid, st, targets, zn};
use crate::engine::{CardId, Condition, Effect, Game, PlayerId, Target, Who};

/// The trigger word of a continuous ability.
pub const TRIGGER: &str = "continuous";

/// One continuous ability that applies now.
#[derive(Debug, Clone, PartialEq)]
pub struct Applying {
    /// Its card.
    pub card: CardId,
    /// The ability's index in the card's definition.
    pub ability: usize,
    /// Its master: the card's controller (300.6).
    pub master: PlayerId,
    /// Its effects.
    pub effects: Vec<Effect>,
    /// A `cost_change` ability: its `modify_cost` changes the cost itself
    /// of other cards, in every zone (209.4.2), not the cost to play
    /// (209.4.1).
    pub every_zone: bool,
}

/// Whether an ability is one [`applying`] reads: a continuous ability, or
/// one changing other cards' costs in every zone (209.4.2).
fn is_continuous(trigger: &str) -> bool {
    trigger == TRIGGER || trigger == super::cost::COST_CHANGE
}

/// The players `who` names relative to `master`.
fn players(g: &Game, master: PlayerId, who: Who) -> Vec<PlayerId> {
    let n = g.players.len();
    match who {
        Who::You => vec![master],
        Who::Opponent => PlayerId::all(n)
            .filter(|&q| raid::opposed(g, master, q))
            .collect(),
        Who::Both => PlayerId::all(n).collect(),
    }
}

/// Whether a condition of application holds for an ability of `master`:
/// every part given must hold (`turn`: whose turn it is; `phase`: the
/// current phase or step; `zone`: how many cards the players `who` have
/// there; `value`: a player value such as the Boss's `life`).
pub fn holds(g: &Game, master: PlayerId, c: &Condition) -> bool {
    let tp = g.turn.active;
    let turn_ok = c.turn.is_none_or(|w| match w {
        Who::You => tp == master,
        Who::Opponent => raid::opposed(g, master, tp),
        Who::Both => true,
    });
    let phase_ok = c.phase.as_ref().is_none_or(|p| &g.turn.phase == p);
    let measured = if let Some(v) = &c.value {
        Some(
            players(g, master, c.who)
                .into_iter()
                .map(|p| g.players[p].value(v))
                .sum::<i64>(),
        )
    } else {
        c.zone.as_ref().map(|z| {
            players(g, master, c.who)
                .into_iter()
                .map(|p| g.zone_of(p, z).len() as i64)
                .sum::<i64>()
        })
    };
    turn_ok && phase_ok && measured.is_none_or(|n| c.bounds_hold(n))
}

/// Whether a card is where its continuous abilities work (300.4.1): on
/// the field (not stacked under a Mag), or in the Player or Mag zone.
pub fn in_play(g: &Game, id: &str) -> bool {
    g.card(id).is_some_and(|c| {
        matches!(c.zone.kind, zn::FIELD | zn::PLAYER | zn::MAG) && !super::mag::under_the_mag(g, id)
    })
}

/// Whether ability `index` of card `id` is one an effect sets up (300.4.2).
fn set_up_by_effect(g: &Game, id: &str, index: usize) -> bool {
    g.def_of(id)
        .and_then(|d| d.abilities.get(index))
        .is_some_and(|a| a.trigger == super::delayed::CONTINUOUS)
}

/// The clauses a change of a continuous ability cites.
fn rules_of(set_up: bool) -> [&'static str; 2] {
    if set_up {
        [r::DELAYED_CONTINUOUS, r::DELAYED_CONTINUOUS_WHILE]
    } else {
        [r::CONTINUOUS, r::CONTINUOUS_ON_FIELD]
    }
}

/// Every continuous ability that applies now, in card order.
pub fn applying(g: &Game) -> Vec<Applying> {
    let mut out = Vec::new();
    // Asked on every stat and cost check: every card of the game (decks
    // included) is looked at only when some definition prints a continuous
    // ability.
    let printed = g.defs.prints_ability(|a| is_continuous(&a.trigger));
    for c in g.cards.values().filter(|_| printed) {
        let Some(d) = g.def_of(&c.id) else { continue };
        if !d.abilities.iter().any(|a| is_continuous(&a.trigger))
            || !in_play(g, &c.id)
            || super::abilities::lost(g, &c.id)
        {
            continue;
        }
        for (i, a) in d.abilities.iter().enumerate() {
            if !is_continuous(&a.trigger) {
                continue;
            }
            if a.condition
                .as_ref()
                .is_some_and(|k| !holds(g, c.controller, k))
            {
                continue;
            }
            out.push(Applying {
                card: c.id.clone(),
                ability: i,
                master: c.controller,
                effects: a.effect.clone(),
                every_zone: a.trigger == super::cost::COST_CHANGE,
            });
        }
    }
    // 300.4.2, 300.4.2.1: set up by an effect, working while its condition
    // holds, wherever its card is now.
    for d in super::delayed::continuous(g) {
        let Some(a) = g.defs.get(&d.def).and_then(|x| x.abilities.get(d.ability)) else {
            continue;
        };
        if a.condition.as_ref().is_some_and(|k| !holds(g, d.master, k)) {
            continue;
        }
        out.push(Applying {
            card: d.card.clone(),
            ability: d.ability,
            master: d.master,
            effects: a.effect.clone(),
            every_zone: false,
        });
    }
    out
}

/// Whether a continuous effect's target selector covers card `id`. It
/// chooses nothing (so 選ばれない does not shield from it); 無敵 does
/// (GL:無敵: another card's effects do not apply), and so does
/// 効果を受けない (GL:効果を受けない). An equipped weapon's or armor's
/// effect comes from its host (205.4.7), not from another card.
fn covers(g: &Game, a: &Applying, t: &Target, id: &str) -> bool {
    let source = super::equip::source_of(g, &a.card);
    selects(g, a, t, id)
        && (id == source || g.card(id).is_none_or(|c| !c.has(st::INVINCIBLE)))
        && !super::unaffected_by(g, id, &source)
}

/// Whether a continuous effect's target selector names card `id`, before
/// 無敵 or 効果を受けない shield it.
fn selects(g: &Game, a: &Applying, t: &Target, id: &str) -> bool {
    match t {
        Target::This => id == a.card,
        Target::All { filter } => {
            let mut f = filter.clone();
            if f.zone.is_none() {
                f.zone = Some(zn::FIELD.into());
            }
            targets::admits(g, a.master, &a.card, &f, id)
        }
        _ => false,
    }
}

/// The cards whose continuous abilities change card `id`'s attack or HP
/// by their target selectors, shielded or not (for the trace of
/// GL:効果を受けない).
pub fn buffing(g: &Game, id: &str) -> Vec<CardId> {
    applying(g)
        .iter()
        .filter(|a| {
            a.effects
                .iter()
                .any(|e| matches!(e, Effect::Buff { target, .. } if selects(g, a, target, id)))
        })
        .map(|a| a.card.clone())
        .collect()
}

/// `pick` applied to every effect of the continuous abilities that apply
/// now: the values it gives, with the cards they come from.
fn collect_now<T>(g: &Game, pick: impl Fn(&Applying, &Effect) -> Option<T>) -> Vec<(CardId, T)> {
    applying(g)
        .iter()
        .flat_map(|a| {
            a.effects
                .iter()
                .filter_map(|e| pick(a, e).map(|v| (a.card.clone(), v)))
                .collect::<Vec<_>>()
        })
        .collect()
}

/// The sum of the continuous modifications of `stat` (`attack` or
/// `defense`) that apply to card `id` now (300.4, 215.3).
pub fn bonus(g: &Game, id: &str, stat: &str) -> i64 {
    collect_now(g, |a, e| match e {
        Effect::Buff {
            attack,
            defense,
            target,
            ..
        } if covers(g, a, target, id) => Some(if stat == "attack" { *attack } else { *defense }),
        _ => None,
    })
    .iter()
    .map(|(_, v)| v)
    .sum()
}

/// The changes to the cost of playing card `card` (of type `t`) for
/// player `p` from the continuous abilities that apply now (209.4.1), with
/// the cards they come from.
pub fn play_cost_changes(g: &Game, p: PlayerId, t: &str) -> Vec<(CardId, i64)> {
    cost_changes(g, p, t, false)
}

/// The changes other cards' `cost_change` abilities make now to the cost
/// itself of a card of type `t` of player `p`, in every zone (209.4.2),
/// with the cards they come from.
pub fn every_zone_cost_changes(g: &Game, p: PlayerId, t: &str) -> Vec<(CardId, i64)> {
    cost_changes(g, p, t, true)
}

fn cost_changes(g: &Game, p: PlayerId, t: &str, every_zone: bool) -> Vec<(CardId, i64)> {
    collect_now(g, |a, e| match e {
        Effect::ModifyCost {
            cost, who, types, ..
        } if a.every_zone == every_zone
            && *cost != 0
            && players(g, a.master, *who).contains(&p)
            && (types.is_empty() || types.iter().any(|x| x == t)) =>
        {
            Some(*cost)
        }
        _ => None,
    })
}

/// The continuous changes of a damage instance to card `id` from `source`
/// (`modify_damage`: damage `id` would take, or with `dealt` damage
/// `source` would deal; `kind` `battle` or `effect`, absent = any), with
/// the cards they come from (506.6.2: applied before the damage is
/// dealt).
pub fn damage_changes(g: &Game, id: &str, source: &str, battle: bool) -> Vec<(CardId, i64)> {
    let word = if battle { "battle" } else { "effect" };
    collect_now(g, |a, e| match e {
        Effect::ModifyDamage {
            amount,
            target,
            dealt,
            kind,
        } if *amount != 0
            && kind.as_deref().is_none_or(|k| k == word)
            && covers(g, a, target, if *dealt { source } else { id }) =>
        {
            Some(*amount)
        }
        _ => None,
    })
}

/// What a continuous ability may not say (checked before the first step).
pub fn unsupported(effects: &[Effect]) -> Option<String> {
    for e in effects {
        match e {
            Effect::Buff {
                target: Target::This | Target::All { .. },
                ..
            } => {}
            Effect::Buff { .. } => {
                return Some(
                    "a continuous ability chooses nothing: its `buff` targets `this` or `all`"
                        .into(),
                );
            }
            Effect::ModifyCost { node, .. } if *node == 0 => {}
            Effect::ModifyDamage {
                target: Target::This | Target::All { .. },
                kind,
                ..
            } if kind
                .as_deref()
                .is_none_or(|k| matches!(k, "battle" | "effect")) => {}
            other => {
                return Some(format!(
                    "a continuous ability that does `{}` is not implemented (only `buff`, `modify_cost` and `modify_damage` of `this` or `all` cards, kind `battle` or `effect`)",
                    other.word()
                ));
            }
        }
    }
    None
}

/// Says in the trace which continuous abilities began or stopped applying
/// since the last step (300.4: they stop at once when their condition is
/// no longer met), then runs the standing KO check when one stopped (an
/// HP bonus that ends can leave damage at or above the HP, 213.3).
pub fn track(m: &mut M) -> Result<(), crate::engine::EngineError> {
    if note(m) && m.game.result == crate::engine::GameResult::Ongoing {
        super::checks::standing_ko(m)?;
    }
    Ok(())
}

/// Says in the trace which continuous abilities began or stopped applying
/// since it last looked; returns whether one stopped.
pub fn note(m: &mut M) -> bool {
    let now = applying(&m.game);
    let keys: Vec<(AbilityOf, &Applying)> = now
        .iter()
        .map(|a| {
            let generation = m.game.card(&a.card).map_or(0, |c| c.incarnation);
            ((a.card.clone(), generation, a.ability), a)
        })
        .collect();
    let before: Vec<AbilityOf> = state::read(&m.game)
        .map(|s| s.applying.iter().cloned().collect())
        .unwrap_or_default();
    let mut stopped = false;
    for k in &before {
        if keys.iter().any(|(n, _)| n == k) {
            continue;
        }
        state::of(&mut m.game).applying.remove(k);
        let (card, _, index) = k.clone();
        let set_up = set_up_by_effect(&m.game, &card, index);
        let lost = !set_up && super::abilities::lost(&m.game, &card);
        let why = if set_up {
            "the turn it was set up for ended, or its condition is no longer met"
        } else if lost {
            "its card has lost its abilities, and what the ability gave ends with it"
        } else if in_play(&m.game, &card) {
            "its condition is no longer met"
        } else {
            "its card is no longer on the field"
        };
        let rules = if lost {
            [r::LOSE_ABILITIES, r::MODIFICATION_NO_ABILITY]
        } else {
            rules_of(set_up)
        };
        m.record(
            "continuous",
            format!("{card}'s continuous ability stops applying: {why}"),
            &rules,
        )
        .obj(card);
        stopped = true;
    }
    for (k, a) in keys {
        if before.contains(&k) {
            continue;
        }
        state::of(&mut m.game).applying.insert(k);
        let cond = m
            .game
            .def_of(&a.card)
            .and_then(|d| d.abilities.get(a.ability))
            .is_some_and(|x| x.condition.is_some());
        let host = super::equip::source_of(&m.game, &a.card);
        let e = m.record(
            "continuous",
            format!(
                "{}'s continuous ability applies{}",
                a.card,
                if set_up_by_effect(&m.game, &a.card, a.ability) {
                    " (set up by an effect, for this turn)"
                } else if cond {
                    " (its condition is met)"
                } else {
                    " while it is on the field"
                }
            ),
            &rules_of(set_up_by_effect(&m.game, &a.card, a.ability)),
        );
        e.obj(a.card.clone());
        if host != a.card {
            e.rule(r::EQUIP_SOURCE).note(format!(
                "{} is equipped to {host}: its ability's source is {host} (205.4.7)",
                a.card
            ));
        }
    }
    stopped
}

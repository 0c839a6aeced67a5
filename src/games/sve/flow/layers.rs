//! The order of applying continuous effects (10.9.1) to a card's attack and
//! defense: the printed values, or the evolve card's while one is attached
//! (10.9.1.1, 10.9.1.1.1); then every numeric change (10.9.1.4) in the
//! order the effects arose (10.9.1.6.2: when the ability was played): an
//! addition (`buff`), a value set (`set_power`) and a swap of attack and
//! defense (`swap_power`) take turns by timestamp, so a later set wipes
//! earlier additions and a later addition counts on top of a set. Damage is
//! not a continuous effect: it lowers the result (5.13.1).
//! Effects of a non-permanent ability stay with the cards that were there
//! (10.9.2): a card that changes zones is a new object without them.

use super::*;
use crate::engine::state::SWAP_STAT;

/// Reading flag: a defense set by an effect (`set_power`) replaces the
/// damage the follower had taken before it (damage read as one more
/// lowering of the value in time order, 2.8.2), instead of the judges'
/// reading: damage stays and lowers the defense the effects give (5.13.1).
pub const SET_DEFENSE_CLEARS_DAMAGE: &str = "reading_set_defense_clears_damage";

/// Attack and defense before damage: base values, then the numeric
/// changes in timestamp order (10.9.1.4, 10.9.1.6.2).
pub(super) fn power(g: &Game, c: &Card) -> (i64, i64) {
    let d = base_def(g, &c.id);
    let mut atk = d.and_then(|d| d.attack).unwrap_or(0);
    let mut def = d.and_then(|d| d.defense).unwrap_or(0);
    for md in &c.modifiers {
        let v = match md.stat.as_str() {
            "attack" => &mut atk,
            "defense" => &mut def,
            s if s == SWAP_STAT => {
                std::mem::swap(&mut atk, &mut def);
                continue;
            }
            _ => continue,
        };
        if md.set {
            *v = md.delta;
        } else {
            *v += md.delta;
        }
    }
    (atk, def)
}

/// Whether `c` already has a set value or a swap, so that the order of the
/// changes decides its numbers (for the trace).
pub(super) fn order_matters(c: &Card) -> bool {
    c.modifiers.iter().any(|m| m.set || m.stat == SWAP_STAT)
}

/// `set_power` and `swap_power` (10.9.1.4): a numeric change to each
/// target on the field, lasting `until`, applied after the changes already
/// there (10.9.1.6.2).
pub(super) fn change_power(m: &mut M, eff: &Effect, targets: &[String], this: &str) -> R<()> {
    let (sets, until, swap) = match eff {
        Effect::SetPower {
            attack,
            defense,
            until,
            always,
            ..
        } => {
            if *always {
                return Err(EngineError::NotImplemented {
                    clause: r::CONTINUOUS_NUMERIC_ORDER,
                    what: "`always` (常に): SVE orders every numeric change by timestamp".into(),
                });
            }
            (
                vec![("attack", *attack), ("defense", *defense)],
                *until,
                false,
            )
        }
        Effect::SwapPower { until, .. } => (Vec::new(), *until, true),
        _ => return Ok(()),
    };
    for t in targets {
        if gone_from_field(
            m,
            "effect.power",
            t,
            "its attack and defense are not changed",
        ) {
            continue;
        }
        let c = &m.game.cards[t.as_str()];
        let (ba, bd) = (attack(&m.game, c), defense(&m.game, c));
        let earlier = !c.modifiers.is_empty();
        let mut clears = false;
        if let Some(c) = m.game.cards.get_mut(t.as_str()) {
            for (stat, v) in &sets {
                if let Some(v) = v {
                    c.modifiers.push(Modifier {
                        set: true,
                        ..Modifier::addition(stat, *v, until, this)
                    });
                }
            }
            if swap {
                c.modifiers
                    .push(Modifier::addition(SWAP_STAT, 0, until, this));
            }
        }
        let defense_set = sets.iter().any(|(s, v)| *s == "defense" && v.is_some());
        let damaged = m.game.cards[t.as_str()].damage > 0;
        if defense_set && damaged && reading(&m.game, SET_DEFENSE_CLEARS_DAMAGE) {
            if let Some(c) = m.game.cards.get_mut(t.as_str()) {
                c.damage = 0;
            }
            clears = true;
        }
        let c = &m.game.cards[t.as_str()];
        let (na, nd) = (attack(&m.game, c), defense(&m.game, c));
        let what = if swap {
            "its attack and defense are swapped".to_string()
        } else {
            let parts: Vec<String> = sets
                .iter()
                .filter_map(|(s, v)| v.map(|v| format!("{s} becomes {v}")))
                .collect();
            parts.join(", ")
        };
        let mut rules = vec![r::CONTINUOUS_NUMERIC_ORDER, r::END_DURATIONS];
        if earlier {
            rules.push(r::CONTINUOUS_TIMESTAMP);
            rules.push(r::CONTINUOUS_PLAYED_ORDER);
        }
        let e = m.record(
            "effect.power",
            format!(
                "{t}: {what}{}",
                if earlier {
                    ", applied after the changes already on it (timestamp order)"
                } else {
                    ""
                }
            ),
            &rules,
        );
        e.obj(t.clone())
            .change(format!("{t}.attack"), ba, na)
            .change(format!("{t}.defense"), bd, nd);
        if defense_set && damaged {
            e.rule(r::DAMAGE);
            e.note(if clears {
                format!(
                    "reading `{SET_DEFENSE_CLEARS_DAMAGE}`: the set defense replaces the damage taken before it"
                )
            } else {
                format!(
                    "judges' reading: damage is not a continuous effect and still lowers the set defense (5.13.1); the other reading is the flag `{SET_DEFENSE_CLEARS_DAMAGE}`"
                )
            });
        }
    }
    Ok(())
}

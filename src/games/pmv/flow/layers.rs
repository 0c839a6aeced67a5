//! The order of combat-power modifications (6.1.10): changes (変更, a),
//! swaps (入れ替え, b), additions (加減算, c), then "always" (常に)
//! changes (d); conflicting changes resolve to the last applied (6.1.11),
//! and the floor of 0 is for use only (6.1.12).

use super::*;
use crate::engine::state::SWAP_STAT;

/// Raw attack and durability (攻撃力, 耐久力) of `c` after 6.1.10's layers;
/// negative values are kept for further calculation (6.1.12).
pub(super) fn raw_power(g: &Game, c: &Card) -> (i64, i64) {
    let printed = |stat: &str| {
        let d = g.def_of(&c.id);
        if stat == "attack" {
            d.and_then(|d| d.attack).unwrap_or(0)
        } else {
            d.and_then(|d| d.defense).unwrap_or(0)
        }
    };
    let (csa, caa) = continuous_stat(g, c, "attack");
    let (csd, cad) = continuous_stat(g, c, "defense");
    // a: changes, the last one applied winning (6.1.11). Continuous
    // 自動α/β changes apply in entry order (7.4.5.e); a change by a
    // resolved effect is applied on top of them (reading).
    // Option CONTINUOUS_CHANGE_LAST: the continuous change is applied
    // after the resolved one instead.
    let pick = |resolved: Option<i64>, continuous: Option<i64>| {
        if reading(g, CONTINUOUS_CHANGE_LAST) {
            continuous.or(resolved)
        } else {
            resolved.or(continuous)
        }
    };
    let a = pick(c.set_value("attack"), csa).unwrap_or_else(|| printed("attack"));
    let d = pick(c.set_value("defense"), csd).unwrap_or_else(|| printed("defense"));
    // b: each swap exchanges the two values; two swaps undo each other.
    let (a, d) = if c.swaps() % 2 == 1 { (d, a) } else { (a, d) };
    // c: additions, the combat modifiers of set cards among them (6.1.13).
    let set_mod = |stat: &str| {
        set_cards(g, &c.id)
            .iter()
            .filter(|s| !is_popularity(g, s))
            .filter_map(|s| {
                def(g, s).and_then(|d| {
                    if stat == "attack" {
                        d.attack
                    } else {
                        d.defense
                    }
                })
            })
            .sum::<i64>()
    };
    let a = a + c.modifier("attack") + caa + set_mod("attack");
    let d = d + c.modifier("defense") + cad + set_mod("defense");
    // d: "always" changes override everything before them, the last one
    // applied winning (6.1.11).
    (
        c.always_value("attack").unwrap_or(a),
        c.always_value("defense").unwrap_or(d),
    )
}

/// Applies a swap of attack and durability (入れ替え, 6.1.10.b) to `objs`.
pub(super) fn swap_power(m: &mut M, this: &str, objs: &[String], until: Until) -> R<()> {
    check_duration(&m.game, until)?;
    for o in objs {
        let Some(before) = m.game.card(o).map(|c| raw_power(&m.game, c)) else {
            continue;
        };
        if let Some(c) = m.game.cards.get_mut(o.as_str()) {
            c.modifiers.push(Modifier {
                stat: SWAP_STAT.into(),
                delta: 0,
                set: false,
                always: false,
                until,
                source: this.into(),
            });
        }
        let after = m
            .game
            .card(o)
            .map(|c| raw_power(&m.game, c))
            .unwrap_or(before);
        m.record(
            "modify",
            format!(
                "{o} has its attack and durability swapped (入れ替え): {}/{} becomes {}/{}; the swap applies after changes and before additions",
                before.0, before.1, after.0, after.1
            ),
            &[r::POWER_ORDER, r::POWER_SWAP, r::COMBAT_POWER_FLOOR],
        )
        .obj(o.clone());
    }
    process_removals(m)
}

/// An effect that makes `objs` 決死 (決死状態にする, written
/// `set_state: doomed`). It does not apply to a card already being removed
/// (9.2.7.b, 9.3.7.b, 9.4.5.b) nor to one that cannot become 決死 (9.2.8.c).
pub(super) fn make_doomed(m: &mut M, this: &str, objs: &[String], clear: bool) -> R<()> {
    if clear {
        return Err(bad(
            "`set_state` cannot clear `doomed`: nullifying 決死 is `nullify_removal` (9.2.4)",
        ));
    }
    let mut applied = Vec::new();
    for o in objs {
        let Some(c) = m.game.card(o) else { continue };
        if c.zone.kind != zn::FIELD {
            continue;
        }
        let immune = if c.has(st::DOOMED) || c.has(st::DOOMED_RESOLVING) {
            Some(("already 決死", r::DOOMED_IGNORES_DOOM, r::DOOMED_IMMUNE))
        } else if c.has(st::DISCARDING) || c.has(st::DISCARD_RESOLVING) {
            Some((
                "破棄 (being discarded)",
                r::DISCARD_IMMUNE_DOOM,
                r::DISCARD_IMMUNE,
            ))
        } else if c.has(st::EXCLUDING) || c.has(st::EXCLUDE_RESOLVING) {
            Some((
                "除外 (being excluded)",
                r::EXCLUDE_IMMUNE_DOOM,
                r::EXCLUDE_IMMUNE,
            ))
        } else if c.has(st::CANNOT_BE_DOOMED) {
            Some((
                "unable to become 決死",
                r::CANNOT_BE_DOOMED,
                r::CANNOT_BE_DOOMED,
            ))
        } else {
            None
        };
        if let Some((why, rule, parent)) = immune {
            m.record(
                "removal.ignored",
                format!("{o} is {why}: {this}'s effect that makes it 決死 does not apply to it"),
                &[parent, rule],
            )
            .obj(o.clone());
            continue;
        }
        applied.push(o.clone());
    }
    for o in &applied {
        if let Some(c) = m.game.cards.get_mut(o.as_str()) {
            c.states.insert(st::DOOMED.into());
        }
        set_remover(&mut m.game, o, this);
    }
    if !applied.is_empty() {
        let e = m.record(
            "removal.apply",
            format!(
                "{this}'s effect makes {} 決死 (doomed); the effect is suspended while the removal resolves",
                applied.join(", ")
            ),
            &[r::DOOMED, r::KIND_DOOMED, r::REMOVAL, r::REMOVAL_INTERRUPTS],
        );
        for o in applied {
            e.obj(o);
        }
    }
    process_removals(m)
}

/// An effect that resets the damage of `objs` (ダメージをリセットする): the
/// accumulated damage goes to 0, but a card already 決死 stays 決死
/// (9.2.6.c).
pub(super) fn reset_damage_effect(m: &mut M, objs: &[String]) -> R<()> {
    for o in objs {
        let Some(c) = m.game.cards.get_mut(o.as_str()) else {
            continue;
        };
        let acc = accumulated(c);
        c.counters.remove(COMBAT_DAMAGE);
        c.counters.remove(EFFECT_DAMAGE);
        let doomed = c.has(st::DOOMED) || c.has(st::DOOMED_RESOLVING);
        // 9.2.6.c: a reset is only a reset; it nullifies no 決死.
        let e = m.record(
            "damage.reset",
            format!("{o}'s damage resets ({acc} accumulated damage → 0)"),
            &[r::DOOMED_RESET_KEEPS],
        );
        e.obj(o.clone());
        if doomed {
            e.text
                .push_str("; it is already 決死, and resetting its damage does not nullify that");
        } else {
            e.text
                .push_str("; it is not 決死, so later damage accumulates from 0");
        }
    }
    process_removals(m)
}

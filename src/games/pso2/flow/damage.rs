//! Damage to a chara, one instance at a time (213–215): 無敵, 狙撃 and
//! armor first, then the damage, then at once the KO check (213.3), the
//! front-row move to the back row (213.3.1) or the back-row KO (213.3.2)
//! from the damage received in that row this turn. Damage to a player
//! mills their deck (201.4, 214.2).

use super::{
    BACK_DAMAGE, FRONT_DAMAGE, M, ctype, hp, moves, r, reading, reading_on, set_on, st, types, zn,
};
use crate::engine::{CardId, PlayerId};

/// How a damage instance was dealt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// By a card's effect.
    Effect,
    /// Battle damage (506.6.1.4).
    Battle,
}

/// The ON armor equipped to `id` (205.5.2).
fn worn_armor(m: &M, id: &str) -> Vec<CardId> {
    m.game
        .cards
        .values()
        .filter(|c| {
            c.attached_to.as_deref() == Some(id)
                && ctype(&m.game, &c.id) == types::ARMOR
                && c.has(st::ON)
        })
        .map(|c| c.id.clone())
        .collect()
}

/// Armor on `id` its controller uses against this damage (choice
/// `armor.<id>`), if any: an ON armor equipped to it (205.5.2).
fn armor(m: &mut M, id: &str) -> Result<Option<CardId>, crate::engine::EngineError> {
    let options = worn_armor(m, id);
    if options.is_empty() {
        return Ok(None);
    }
    let key = format!("armor.{id}");
    // Issue 13: the armor's user is the controller of the damaged card.
    let Some(user) = m.game.card(id).map(|c| c.controller) else {
        return Ok(None);
    };
    if super::raid::is_boss(&m.game, user) {
        // The Boss never decides (RAID:S10).
        return super::raid_equip::armor(m, id, &options);
    }
    m.decided_by(user, |m| {
        m.choices.default_not_one_of(&key, &options);
        m.choices.one_id(&key, &options)
    })
}

/// The damage to `id` after the continuous changes that apply to it
/// (`modify_damage`): all of them, summed, before it is dealt (506.6.2,
/// 103.4.3); a reduction is 軽減 (GL:軽減). The result may be 0 or less:
/// the caller treats that as no damage (103.5.3).
fn changed(m: &mut M, id: &str, source: &str, amount: i64, kind: Kind) -> i64 {
    let battle = kind == Kind::Battle;
    let changes = super::continuous::damage_changes(&m.game, id, source, battle);
    if changes.is_empty() {
        return amount;
    }
    let delta: i64 = changes.iter().map(|(_, d)| d).sum();
    let from: Vec<String> = changes.iter().map(|(c, d)| format!("{c} {d:+}")).collect();
    let mut rules = vec![r::REPLACEMENT, r::CONTINUOUS];
    if battle {
        rules.push(r::DAMAGE_ASSIGNED);
    }
    if delta < 0 {
        rules.push(r::GL_REDUCE);
    }
    m.record(
        "damage",
        format!(
            "the damage to {id} changes before it is dealt ({}): {amount} becomes {}",
            from.join(", "),
            (amount + delta).max(0)
        ),
        &rules,
    )
    .obj(id.to_string());
    amount + delta
}

/// Under `reading_armor_battle_only`, an ON armor on `id` is not used
/// against effect damage: the trace says so, citing 205.5.2 and the battle
/// step that names armor (506.6.1.2).
fn armor_not_usable(m: &mut M, id: &str) {
    for a in worn_armor(m, id) {
        m.record(
            "armor",
            format!("{a} cannot reduce effect damage to {id}: armor is used in battle only (reading `{}`)", reading::ARMOR_BATTLE_ONLY),
            &[r::ARMOR, r::ARMOR_USE],
        )
        .note(format!(
            "option `{}` chosen: armor is used in the damage-resolution step only (506.6.1.2); the judges' reading lets it reduce any damage its host takes (205.5.2)",
            reading::ARMOR_BATTLE_ONLY
        ));
    }
}

/// Deals `amount` damage to chara `id` from `source`. Returns whether the
/// chara was destroyed by it.
pub fn to_card(
    m: &mut M,
    id: &str,
    amount: i64,
    source: &str,
    kind: Kind,
) -> Result<bool, crate::engine::EngineError> {
    let Some(c) = m.game.card(id).cloned() else {
        return Ok(false);
    };
    if c.zone.kind != super::zn::FIELD && c.zone.kind != super::zn::PLAYER {
        m.record(
            "damage",
            format!("{id} is no longer on the field: the damage is not dealt"),
            &[r::KO, r::IMPOSSIBLE_IGNORED],
        );
        return Ok(false);
    }
    if matches!(ctype(&m.game, id), types::PLAYER | types::BOSS) {
        to_player(m, c.controller, amount);
        return Ok(false);
    }
    if c.has(st::INVINCIBLE) {
        m.record(
            "damage",
            format!("{id} is 無敵 and takes no damage"),
            &[r::GL_INVINCIBLE],
        );
        return Ok(false);
    }
    if kind == Kind::Battle
        && !c.has(st::ATTACKING)
        && super::abilities::keyword(&m.game, id, "snipe")
    {
        m.record(
            "damage",
            format!("{id} has 狙撃 but is not attacking: it takes battle damage"),
            &[r::SNIPE],
        );
    }
    if kind == Kind::Battle
        && c.has(st::ATTACKING)
        && super::abilities::keyword(&m.game, id, "snipe")
    {
        m.record(
            "damage",
            format!("{id} has 狙撃 and is attacking: it takes no battle damage"),
            &[r::SNIPE],
        );
        return Ok(false);
    }
    let mut amount = changed(m, id, source, amount, kind);
    let armor_allowed = kind == Kind::Battle || !reading_on(&m.game, reading::ARMOR_BATTLE_ONLY);
    if amount > 0 && !armor_allowed {
        armor_not_usable(m, id);
    }
    let worn = if amount > 0 && armor_allowed {
        armor(m, id)?
    } else {
        None
    };
    if let Some(a) = worn {
        let def_value = m.game.def_of(&a).and_then(|d| d.defense).unwrap_or(0);
        m.record(
            "armor",
            format!(
                "{a} is turned OFF: the damage to {id} is reduced by {def_value} (rule processing)"
            ),
            &[r::ARMOR, r::ARMOR_RULE, r::ARMOR_USE, r::ARMOR_RULE_PROCESS],
        )
        .note(format!(
            "judges' reading: armor reduces any damage its host takes (205.5.2), not only battle damage (option `{}`)",
            reading::ARMOR_BATTLE_ONLY
        ));
        set_on(m, &a, false);
        amount -= def_value;
    }
    if amount <= 0 {
        m.record(
            "damage",
            format!("the damage to {id} is 0: no damage is dealt"),
            &[r::NOT_BELOW_ZERO, r::ACTION_NO_CHANGE],
        );
        return Ok(false);
    }
    let back = c.has(st::BACK);
    let counter = if back { BACK_DAMAGE } else { FRONT_DAMAGE };
    let per_instance = reading_on(&m.game, reading::ROW_DAMAGE_PER_INSTANCE);
    let (total, row) = {
        let card = m.game.cards.get_mut(id).expect("checked above");
        card.damage += amount;
        let row = card.counters.entry(counter.into()).or_insert(0);
        *row += amount;
        (card.damage, if per_instance { amount } else { *row })
    };
    let h = hp(&m.game, &c);
    let printed = m.game.def_of(id).and_then(|d| d.defense).unwrap_or(0);
    let rows = if per_instance {
        format!(
            "this instance of {amount} (reading `{}`)",
            reading::ROW_DAMAGE_PER_INSTANCE
        )
    } else {
        format!(
            "{row} received in the {} row this turn",
            if back { "back" } else { "front" }
        )
    };
    let e = m.record(
        "damage",
        format!(
            "{id} takes {amount} {} damage from {source} ({total} in all; HP {h}{}; {rows})",
            if kind == Kind::Battle {
                "battle"
            } else {
                "effect"
            },
            if h == printed {
                String::new()
            } else {
                format!(", the printed {printed} changed")
            }
        ),
        &[r::DAMAGE_TARGETS, r::DAMAGE_NOT_HP],
    );
    e.change(format!("{id}.damage"), total - amount, total);
    // 213.4: a changed HP is the printed value changed; the KO and row
    // checks below read it.
    if h != printed {
        e.rule(r::HP_CHANGE);
    }
    // GL:戦闘ダメージ: damage dealt in the damage resolution step that is
    // no card effect's damage.
    if kind == Kind::Battle {
        e.rule(r::BATTLE_DAMAGE).rule(r::GL_BATTLE_DAMAGE);
    }
    if !per_instance {
        e.note(format!(
            "judges' reading: the row checks count all damage received in that row this turn (option `{}`: each instance alone)",
            reading::ROW_DAMAGE_PER_INSTANCE
        ));
    }
    if total >= h {
        return moves::destroy(
            m,
            id,
            &format!("KO damage: {total} ≥ HP {h}; destroyed by {source}"),
            &[r::KO_DAMAGE, r::KO, r::KO_CREDIT],
        );
    }
    if 2 * row >= h {
        if back {
            return moves::destroy(
                m,
                id,
                &format!("in the back row it received {row}, at least half of HP {h}: KO"),
                &[r::BACK_KO, r::ROUND_UP, r::KO_CREDIT],
            );
        }
        if super::restrict::cant_move(m, id, "front", r::FRONT_TO_BACK) {
            return Ok(false);
        }
        if let Some(card) = m.game.cards.get_mut(id) {
            card.states.remove(st::FRONT);
            card.states.insert(st::BACK.into());
        }
        super::raid::moved_back(&mut m.game, id);
        m.record(
            "row",
            format!("{id} received {row} in the front row, at least half of HP {h}: it moves to the back row (not a zone change)"),
            &[r::FRONT_TO_BACK, r::ROW_NOT_ZONE, r::ROUND_UP],
        )
        .change(format!("{id}.row"), "front", "back");
    } else {
        m.record(
            "row",
            format!("{id}: {row} is less than half of HP {h}; it stays in its row (checked only right after damage)"),
            &[if back { r::BACK_KO } else { r::FRONT_TO_BACK }],
        );
    }
    Ok(false)
}

/// 213.3.1, 213.3.2: the row checks run only right after damage, so an HP
/// change on a damaged chara moves it to no row and KOs it only by the
/// standing check of 213.3 (damage at least its HP); the trace says so.
pub fn no_row_check_on_hp_change(m: &mut M, id: &str) {
    let damaged = m
        .game
        .card(id)
        .is_some_and(|c| c.zone.kind == zn::FIELD && c.damage > 0);
    if damaged {
        m.record(
            "row",
            format!(
                "{id}'s HP changed with damage on it: no row check (made only right after damage)"
            ),
            &[r::FRONT_TO_BACK, r::BACK_KO],
        );
    }
}

/// Damage to player `p`: mill that many cards (201.4, 214.2).
pub fn to_player(m: &mut M, p: PlayerId, amount: i64) -> Vec<CardId> {
    if super::raid::is_boss(&m.game, p) {
        super::raid::damage_boss(m, amount);
        return Vec::new();
    }
    if amount <= 0 {
        m.record(
            "damage",
            "the damage to the player is 0: nothing happens",
            &[r::NOT_BELOW_ZERO, r::ACTION_NO_CHANGE],
        );
        return Vec::new();
    }
    moves::mill(m, p, amount)
}

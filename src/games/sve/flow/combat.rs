//! Combat damage (8.4.9).

use super::*;

pub(super) fn combat_damage(
    m: &mut M,
    attacker: &str,
    target: &AttackTarget,
    a_inc: u32,
    t_inc: u32,
) -> R<()> {
    let a_here = m
        .game
        .card(attacker)
        .is_some_and(|c| c.zone.kind == zn::FIELD && c.incarnation == a_inc);
    if !a_here {
        let e = m.record(
            "attack.damage",
            format!("{attacker} is no longer on the field: no one deals damage"),
            &[r::COMBAT_DAMAGE],
        );
        // 8.4.9.2: with the attacker gone the two are not in combat, so no
        // "engaged" (交戦した) event: nothing that waits for it (Bane,
        // 11.3.2) applies.
        if let AttackTarget::Follower(t) = target {
            e.rule(r::FOUGHT);
            e.text.push_str(&format!(
                ", and it and {t} are not in combat: they do not engage"
            ));
        }
        return Ok(());
    }
    let atk = attack(&m.game, &m.game.cards[attacker]);
    match target {
        AttackTarget::Leader(p) => {
            let atk = modified(m, attacker, &leader_key(*p), "attack", atk)?;
            if atk <= 0 {
                m.record(
                    "attack.damage",
                    format!("{attacker} has attack {atk}: no damage is dealt"),
                    &[r::COMBAT_DAMAGE, r::IMPOSSIBLE],
                );
                return Ok(());
            }
            let old = m.game.value(*p, "defense");
            m.game.set_value(*p, "defense", old - atk);
            m.game.events.push(Event::Damaged {
                card: None,
                player: Some(*p),
                source: attacker.into(),
                amount: atk,
                kind: "attack",
            });
            m.record(
                "attack.damage",
                format!(
                    "{attacker} deals {atk} damage to {}'s leader",
                    player_name(*p)
                ),
                &[r::COMBAT_DAMAGE, r::DAMAGE],
            )
            .obj(attacker)
            .change(format!("{}.defense", player_name(*p)), old, old - atk);
        }
        AttackTarget::Follower(t) => {
            let in_combat = m
                .game
                .card(t)
                .is_some_and(|c| c.zone.kind == zn::FIELD && c.incarnation == t_inc);
            if !in_combat {
                m.record(
                    "attack.damage",
                    format!("{t} has left the field: the combat ended and {attacker}'s damage is not dealt"),
                    &[r::COMBAT_DAMAGE, r::COMBAT_STATE, r::DAMAGE_NOT_DEALT],
                );
                return Ok(());
            }
            let tatk = attack(&m.game, &m.game.cards[t.as_str()]);
            let atk = modified(m, attacker, t, "attack", atk)?;
            let tatk = modified(m, t, attacker, "combat", tatk)?;
            let e = m.record(
                "attack.damage",
                format!("{attacker} deals {} damage to {t} and, at the same time, {t} deals {} damage to {attacker}", atk.max(0), tatk.max(0)),
                &[r::COMBAT_DAMAGE, r::COMBAT_DAMAGE_BACK, r::DAMAGE, r::DAMAGE_NEGATIVE],
            );
            e.obj(attacker).obj(t.clone());
            let mut changes = Vec::new();
            for (victim, amount, src, kind) in [
                (t.as_str(), atk, attacker, "attack"),
                (attacker, tatk, t.as_str(), "combat"),
            ] {
                if amount <= 0 {
                    continue;
                }
                let c = &m.game.cards[victim];
                let before = defense(&m.game, c);
                changes.push((format!("{victim}.defense"), before, before - amount));
                if let Some(c) = m.game.cards.get_mut(victim) {
                    c.damage += amount;
                }
                m.game.events.push(Event::Damaged {
                    card: Some(victim.into()),
                    player: None,
                    source: src.into(),
                    amount,
                    kind,
                });
            }
            if let Some(e) = m.trace.last_mut() {
                for (w, b, a) in changes {
                    e.change(w, b, a);
                }
            }
            // 8.4.9.2: the fought event; Bane keys off it even with 0 damage
            // (12.14.2.1).
            m.game.events.push(Event::Fought {
                a: attacker.into(),
                b: t.clone(),
            });
            let mut marked = Vec::new();
            let mut zero = false;
            for (x, y, dealt) in [(attacker, t.as_str(), atk), (t.as_str(), attacker, tatk)] {
                if has_kw(&m.game, x, "bane") {
                    marked.push(y.to_string());
                    // 12.14.2 item 1: combat alone decides, not damage.
                    zero |= dealt <= 0;
                }
            }
            let e = m.record(
                "attack.fought",
                format!("{attacker} and {t} fought"),
                &[r::FOUGHT],
            );
            if zero {
                e.rule(r::BANE_ZERO);
            }
            if !marked.is_empty() {
                e.rule(r::BANE);
                e.text.push_str(&format!(
                    "; Bane: {} will be destroyed at the next rule processing",
                    marked.join(", ")
                ));
            }
            for id in marked {
                if let Some(c) = m.game.cards.get_mut(id.as_str()) {
                    c.states.insert(st::BANE_MARKED.into());
                }
            }
        }
    }
    Ok(())
}

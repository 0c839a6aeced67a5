//! State triggers (状態誘発, 10.7.6): an automatic ability triggered not by
//! an event but by a state holding ("when you have no cards in your hand,
//! …"), written with the trigger `state` and the state as its `condition`.
//! It becomes pending once when the state arises, not again while that
//! instance waits; once it has resolved, if the state still holds, it
//! becomes pending again (10.7.6.1). The state is its trigger, not a
//! condition of application: the pending ability is played even if the
//! state has ended meanwhile (10.7.3.1).
//!
//! The engine looks for states as it turns events into pending abilities
//! and at each check timing (10.5.2), on the cards on the field.

use super::*;

/// The trigger word of a state trigger.
pub const STATE: &str = "state";

/// A state trigger the module can't read: one without its state.
pub(super) fn unsupported(
    key: &str,
    ab: &crate::engine::AbilityDef,
) -> Option<(&'static str, String)> {
    (ab.trigger == STATE && ab.condition.is_none()).then(|| {
        (
            r::STATE_TRIGGER,
            format!("a state trigger of `{key}` without its state (`condition`)"),
        )
    })
}

/// Makes pending the state triggers whose state holds and that do not
/// already wait (10.7.6, 10.7.6.1).
pub(super) fn state_triggers(m: &mut M) {
    let tp = m.game.turn.active;
    for p in [tp, m.game.opponent(tp)] {
        for id in m.game.zone_of(p, zn::FIELD).to_vec() {
            let Some(def) = eff_def_key(&m.game, &id) else {
                continue;
            };
            let Some(d) = m.game.defs.get(&def).cloned() else {
                continue;
            };
            for (i, ab) in d.abilities.iter().enumerate() {
                let Some(c) = ab.condition.as_ref().filter(|_| ab.trigger == STATE) else {
                    continue;
                };
                let resolving = m
                    .game
                    .own_ref::<SveState>()
                    .and_then(|s| s.state_resolving.as_ref());
                if m.game
                    .pending
                    .iter()
                    .any(|q| q.card == id && q.ability == i)
                    || resolving.is_some_and(|(c, a)| *c == id && *a == i)
                {
                    continue;
                }
                let (holds_now, mut rules, why) = holds(&m.game, c, p, &id);
                if !holds_now {
                    continue;
                }
                let pending = Pending {
                    card: id.clone(),
                    def: def.to_string(),
                    ability: i,
                    trigger: STATE.into(),
                    master: p,
                    amount: 0,
                };
                let key = pending.key();
                m.game.pending.push(pending);
                rules.extend([r::STATE_TRIGGER, r::STATE_TRIGGER_ONCE, r::TRIGGER_PENDING]);
                m.record(
                    "trigger.pending",
                    format!(
                        "{key}: its state holds ({why}): it becomes pending for {} (once; again after it resolves if the state still holds)",
                        player_name(p)
                    ),
                    &rules,
                )
                .obj(id.clone());
            }
        }
    }
}

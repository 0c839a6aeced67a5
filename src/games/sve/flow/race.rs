//! Race 出走 (14.2.3) and 出走時 (14.2.4): a card told to race `N` times
//! has Rush from then on while a card associated with it is in the race
//! area (a carrot put there by feeding, 14.2.1), and the event "this card
//! raced" happens `N` times, each triggering its 出走時 abilities (trigger
//! `on_race`) once (10.7.2.1).

use super::*;

/// The state of a card that has raced (14.2.3 item 1: "from now on"); it
/// ends when the card leaves its zone (4.1.4: a new object).
pub(super) const RACED: &str = "raced";

/// The trigger word of 出走時 (14.2.4 item 2).
pub(super) const ON_RACE: &str = "on_race";

/// Whether a card associated with `id` is in its master's race area.
pub(super) fn has_carrot(g: &Game, id: &str) -> bool {
    g.cards
        .values()
        .any(|c| c.zone.kind == zn::RACE && c.attached_to.as_deref() == Some(id))
}

/// 14.2.3 item 1: a card that raced has Rush while a card associated with
/// it is in the race area.
pub(super) fn rush_by_race(g: &Game, id: &str) -> bool {
    g.card(id).is_some_and(|c| c.has(RACED)) && has_carrot(g, id)
}

/// Whether `id` has Rush only because it raced (for the trace).
pub(super) fn rush_only_by_race(g: &Game, id: &str) -> bool {
    rush_by_race(g, id) && !eff_def(g, id).is_some_and(|d| d.has_keyword("rush"))
}

/// The non-event a judge is asked about: a card that raced but has no
/// carrot associated with it does not have Rush (14.2.3 item 1).
pub(super) fn raced_without_carrot(g: &Game, id: &str) -> bool {
    g.card(id).is_some_and(|c| c.has(RACED)) && !has_carrot(g, id)
}

/// Carries out "(N)出走する" for each target: the card gets the raced
/// status, then the raced event happens `times` times (a count of 0 or less
/// is not carried out, 1.3.2.2).
pub(super) fn race(m: &mut M, targets: &[String], times: i64) {
    for t in targets {
        // Non-events: a card not on the field does not race (1.3.2); an
        // instruction for 0 times or fewer is not carried out (1.3.2.2).
        let not = if !on_field(&m.game, t) {
            Some((
                "is not on the field: it does not race".to_string(),
                r::IMPOSSIBLE,
            ))
        } else if times <= 0 {
            Some((
                format!("is told to race {times} time(s): nothing happens"),
                r::ZERO_TIMES,
            ))
        } else {
            None
        };
        if let Some((why, rule)) = not {
            m.record("effect.race", format!("{t} {why}"), &[r::RACE, rule]);
            continue;
        }
        if let Some(c) = m.game.cards.get_mut(t.as_str()) {
            c.states.insert(RACED.into());
        }
        let carrot = has_carrot(&m.game, t);
        let e = m.record(
            "effect.race",
            format!(
                "{t} races {times} time(s): from now on it has Rush while a card associated with it is in the race area ({})",
                if carrot {
                    "one is: it has Rush now"
                } else {
                    "none is: it has no Rush now"
                }
            ),
            &[r::RACE, r::RACE_EVENT],
        );
        e.obj(t.clone());
        if times == 1 {
            e.rule(r::RACE_ONCE);
        }
        let (Some(def), Some(master)) = (
            eff_def_key(&m.game, t),
            m.game.card(t).map(|c| c.controller),
        ) else {
            continue;
        };
        // 14.2.4: each raced event triggers 出走時 once (10.7.2.1).
        for _ in 0..times {
            add_triggers(m, t, &def, ON_RACE, master, 0);
        }
    }
}

//! Removal (chapter 9): 決死 doomed, then 破棄 discard, then 除外 exclusion, each with its windows a–d.

use super::*;
use crate::engine::TraceEntry;

/// Resolves removal states in the fixed order 決死 → 破棄 → 除外 (9.1.4),
/// each kind for all its cards at once (9.1.5, 9.1.6); also makes 決死 any
/// character whose durability is 0 or less (9.2.2.b) or whose accumulated
/// damage reached its durability (9.2.2.a).
pub(super) fn process_removals(m: &mut M) -> R<()> {
    standing_reach(m)?;
    note_continuous(m)?;
    let mut mid_effect = pmv(&m.game).applying > 0;
    loop {
        if game_over(&m.game) {
            return Ok(());
        }
        for id in all_characters(&m.game) {
            let Some(c) = m.game.card(&id) else { continue };
            if removing(c) {
                continue;
            }
            let (dur, acc) = (raw_durability(&m.game, c), accumulated(c));
            let rule = if dur <= 0 {
                r::DOOMED_BY_DURABILITY
            } else if acc >= dur && m.game.own::<PmvState>().damage_depth == 0 {
                r::DOOMED_BY_DAMAGE
            } else {
                continue;
            };
            if !may_become_doomed(m, &id, dur, acc) {
                continue;
            }
            if let Some(c) = m.game.cards.get_mut(&id) {
                c.states.insert(st::DOOMED.into());
            }
            m.record(
                "doomed",
                format!("{id} has durability {dur} and {acc} accumulated damage: it becomes 決死 (doomed)"),
                &[rule],
            )
            .obj(id.clone());
        }
        let with = |g: &Game, s: &str| -> Vec<CardId> {
            g.cards
                .values()
                .filter(|c| c.has(s))
                .map(|c| c.id.clone())
                .collect()
        };
        let doomed = with(&m.game, st::DOOMED);
        if !doomed.is_empty() {
            let e = m.record(
                "removal.doomed",
                format!(
                    "決死 resolves for {} at once, before any 破棄 or 除外",
                    doomed.join(", ")
                ),
                &[
                    r::DOOMED_PROC,
                    r::DOOMED,
                    r::KIND_DOOMED,
                    r::REMOVAL_ORDER,
                    r::ORDER_DOOMED,
                    r::REMOVAL_SIMULTANEOUS,
                ],
            );
            suspends_effect(e, &mut mid_effect);
            // The windows run with the cards marked as resolving, so that a
            // removal applied inside them does not start this one again.
            mark_resolving(&mut m.game, &doomed, st::DOOMED, st::DOOMED_RESOLVING);
            // 9.2.3.a–c here; d comes card by card below, for 壱符.
            removal_windows(
                m,
                &doomed,
                &["dooming", "becoming_doomed", "has_doomed"],
                &[r::DOOMING, r::BECOMING_DOOMED, r::HAS_DOOMED],
            )?;
            // A window's automatic effect may have ended the game (1.5).
            if game_over(&m.game) {
                return Ok(());
            }
            // 9.2.3.d, with 壱符 (10.18.2.a) in it.
            doomed_window(m, &doomed)?;
            doomed_to_discard(m, &doomed);
            // 9.2.5's endless loop (reading_cannot_be_discarded_at_zero_durability)
            // or a window's effect may have ended the game (1.5.4.b).
            if game_over(&m.game) {
                return Ok(());
            }
            m.record(
                "removal.doomed",
                "each 決死 card is treated as having 破棄 applied",
                &[r::DOOMED_DISCARD],
            );
            continue;
        }
        let discarding = discard_filter(m, with(&m.game, st::DISCARDING));
        if !discarding.is_empty() {
            let e = m.record(
                "removal.discard",
                format!("破棄 resolves for {} at once", discarding.join(", ")),
                &[
                    r::DISCARD_PROC,
                    r::REMOVAL_ORDER,
                    r::ORDER_DISCARD,
                    r::REMOVAL_NOT_ONE_BY_ONE,
                ],
            );
            suspends_effect(e, &mut mid_effect);
            mark_resolving(
                &mut m.game,
                &discarding,
                st::DISCARDING,
                st::DISCARD_RESOLVING,
            );
            removal_windows(
                m,
                &discarding,
                &[
                    "discarding",
                    "being_discarded",
                    "has_discarded",
                    "discarded",
                ],
                &[
                    r::DISCARDING,
                    r::BEING_DISCARDED,
                    r::HAS_DISCARDED,
                    r::DISCARD_AFTER,
                ],
            )?;
            // A window's automatic effect may have ended the game (1.5).
            if game_over(&m.game) {
                return Ok(());
            }
            for id in &discarding {
                if discard_nullified(&m.game, id) {
                    continue;
                }
                before_leaving_field(m, id);
                discard_set_cards(m, id, r::DISCARD_SET_CARDS);
                let Some(owner) = m.game.card(id).map(|c| c.owner) else {
                    continue;
                };
                let from = m
                    .game
                    .move_card(id, ZoneId::of(owner, zn::NETHERWORLD), true);
                clear_removers(&mut m.game, id);
                m.record(
                    "removal.discard",
                    format!("{id} is put on top of its owner's Netherworld"),
                    &[
                        r::DISCARD_TO_NETHERWORLD,
                        r::DISCARD_DEF,
                        r::RESET_NOT_CHARACTER,
                    ],
                )
                .obj(id.clone())
                .change(
                    format!("{id}.zone"),
                    from.map(|z| z.to_string()).unwrap_or_default(),
                    format!("{}.{}", player_name(owner), zn::NETHERWORLD),
                );
            }
            continue;
        }
        let excluding = with(&m.game, st::EXCLUDING);
        if !excluding.is_empty() {
            let e = m.record(
                "removal.exclude",
                format!("除外 resolves for {} at once", excluding.join(", ")),
                &[r::EXCLUDE_PROC, r::REMOVAL_ORDER, r::ORDER_EXCLUDE],
            );
            suspends_effect(e, &mut mid_effect);
            mark_resolving(
                &mut m.game,
                &excluding,
                st::EXCLUDING,
                st::EXCLUDE_RESOLVING,
            );
            removal_windows(
                m,
                &excluding,
                &["excluding", "being_excluded", "has_excluded", "excluded"],
                &[
                    r::EXCLUDING,
                    r::BEING_EXCLUDED,
                    r::HAS_EXCLUDED,
                    r::EXCLUDED_WINDOW,
                ],
            )?;
            // A window's automatic effect may have ended the game (1.5).
            if game_over(&m.game) {
                return Ok(());
            }
            for id in &excluding {
                before_leaving_field(m, id);
                discard_set_cards(m, id, r::EXCLUDE_SET_CARDS);
                let Some(owner) = m.game.card(id).map(|c| c.owner) else {
                    continue;
                };
                let from = m
                    .game
                    .move_card(id, ZoneId::of(owner, zn::EXCLUSION), false);
                clear_removers(&mut m.game, id);
                m.record(
                    "removal.exclude",
                    format!("{id} is put into its owner's exclusion area"),
                    &[r::EXCLUDE_TO_AREA, r::EXCLUDE_DEF, r::RESET_NOT_CHARACTER],
                )
                .obj(id.clone())
                .change(
                    format!("{id}.zone"),
                    from.map(|z| z.to_string()).unwrap_or_default(),
                    format!("{}.{}", player_name(owner), zn::EXCLUSION),
                );
            }
            continue;
        }
        return Ok(());
    }
}

/// 9.1.3: a removal applied while an effect is being applied (made 決死 by
/// that effect's damage, or by its 破棄 / 除外) resolves at once; the
/// effect is suspended until the removal is done, then resumes (9.1.3.a:
/// even if its source has left). The removal's first step says so.
fn suspends_effect(e: &mut TraceEntry, mid_effect: &mut bool) {
    if std::mem::take(mid_effect) {
        e.rule(r::REMOVAL_INTERRUPTS);
        e.text.push_str(
            "; the effect being applied is suspended until this removal is done, then resumes",
        );
    }
}

// ---------------------------------------------------------------- actions

/// The cards set on a card being discarded or excluded have 破棄 applied and
/// go to their owner's Netherworld with it (9.3.4.e/g, 9.4.4.e/l). Set
/// cards here carry no text (a set card with text is not implemented), so
/// their own discard windows are empty.
pub(super) fn discard_set_cards(m: &mut M, id: &str, rule: &'static str) {
    for s in set_cards(&m.game, id) {
        let Some(owner) = m.game.card(&s).map(|c| c.owner) else {
            continue;
        };
        let popularity = is_popularity(&m.game, &s);
        let no_text = no_text_rule(&m.game, &s);
        before_leaving_field(m, &s);
        m.game
            .move_card(&s, ZoneId::of(owner, zn::NETHERWORLD), true);
        let e = m.record(
            "removal.set_card",
            format!("{s} was set on {id}{}: 破棄 applies to it and it is put on top of its owner's Netherworld", if popularity { " as 人気" } else { "" }),
            &[rule, r::DISCARD_TO_NETHERWORLD],
        );
        e.obj(s.clone());
        if popularity {
            // A 人気 card has no text (5.4.4, 5.5.4, 5.6.3), so its own
            // discard windows are empty, and nothing is set on it.
            e.rules.extend(if rule == r::EXCLUDE_SET_CARDS {
                &[
                    r::EXCLUDE_SET_DISCARD_A,
                    r::EXCLUDE_SET_DISCARD_B,
                    r::EXCLUDE_SET_DISCARD_C,
                    r::EXCLUDE_SET_DISCARD_D,
                    r::EXCLUDE_SET_ON_SET,
                    r::EXCLUDE_SET_REPEAT,
                    r::EXCLUDE_TO_AREA,
                ][..]
            } else {
                &[r::DISCARD_SET_STEPS][..]
            });
            e.rules.push(no_text);
            e.text
                .push_str(" (it has no text, so its discard windows are empty)");
        }
    }
}

//! Triggers on other cards' events: an automatic ability with `of`
//! (「自分の妖怪・フォロワーが場を離れたとき」) watches the cards its filter
//! admits, its side read from the ability's master (3.1.2.3).
//!
//! Only leaving the field is implemented (`leaves_field` with `of`): each
//! card that leaves adds one pending instance (10.7.2, 10.7.2.1), so four
//! Yokai leaving at once trigger it four times (the maker's answer on
//! BP06-074 Q1); the leaving card is read with the information it had on
//! the field (10.7.4.1.2). The watcher must be on the field; one leaving
//! by the same move as the cards it watches is not implemented.

use super::*;
use crate::engine::card::{Filter, Side};

/// 10.7.4.1.2: `left` (read as `left_def`, its field information) has
/// left the field of `from`; the abilities watching it become pending.
pub(super) fn others_leaving(m: &mut M, left: &str, left_def: &str, from: PlayerId) {
    let Some(info) = m.game.defs.get(left_def).cloned() else {
        return;
    };
    let tp = m.game.turn.active;
    for p in [tp, m.game.opponent(tp)] {
        for w in m.game.zone_of(p, zn::FIELD).to_vec() {
            let Some(def) = eff_def_key(&m.game, &w) else {
                continue;
            };
            let template = Pending {
                card: w.clone(),
                def,
                ability: 0,
                trigger: "leaves_field".into(),
                master: p,
                amount: 0,
            };
            let watches = |a: &crate::engine::card::AbilityDef| {
                a.of.as_ref()
                    .is_some_and(|f| admits(f, &info, from, p) && w != left)
            };
            let before = m.trace.len();
            add_triggers_where(m, template, &watches);
            for e in m.trace.iter_mut().skip(before) {
                e.text
                    .push_str(&format!(" ({left} left {}'s field)", player_name(from)));
            }
        }
    }
}

/// Whether filter `f` of an ability mastered by `master` admits a card of
/// `info` that was on `from`'s field.
fn admits(f: &Filter, info: &crate::engine::CardDef, from: PlayerId, master: PlayerId) -> bool {
    let side = match f.side {
        Side::You => from == master,
        Side::Opponent => from != master,
        Side::Any => true,
    };
    side && (f.types.is_empty() || f.types.contains(&info.card_type))
        && f.admits_characteristics(info, info.cost)
}

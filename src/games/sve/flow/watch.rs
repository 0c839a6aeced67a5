//! Triggers on other cards' events: an automatic ability with `of`
//! (「自分の妖怪・フォロワーが場を離れたとき」) watches the cards its filter
//! admits, its side read from the ability's master (3.1.2.3).
//!
//! Entering the field (`enters_field` with `of`, 10.9.3.1): the entering
//! card is read with the information the continuous effects applying on
//! the field give it (a follower that gets Ward there is "a follower with
//! Ward"); one pending instance per card entering (10.7.2.1).
//!
//! Leaving the field (`leaves_field` with `of`): each
//! card that leaves adds one pending instance (10.7.2, 10.7.2.1), so four
//! Yokai leaving at once trigger it four times (the maker's answer on
//! BP06-074 Q1); the leaving card is read with the information it had on
//! the field (10.7.4.1.2).
//!
//! A watcher leaving the field together with the cards it watches (one
//! effect, one round of rule processes): the rulebook is silent (10.7.4.2
//! settles only the converse, a card entering as others move). The judges'
//! reading: a leaves-the-field trigger looks back to the field as it was
//! (10.7.4.1: whether the ability is active is asked with the field
//! information), so it triggers; flag [`LEAVING_WATCHER_MISSES`]: it must
//! still be on the field, and does not.

use super::*;
use crate::engine::card::{AbilityDef, Filter, Side};

/// The trigger of an ability watching other cards put onto a field
/// (「自分の場に【守護】を持つフォロワーが出たとき」, 10.9.3.1).
pub const ENTERS_FIELD: &str = "enters_field";

/// The other reading: a watcher leaving together with the cards it watches
/// does not see them leave.
pub const LEAVING_WATCHER_MISSES: &str = "reading_leaving_watcher_misses_others";

/// A watcher that has left the field while cards move together, with the
/// information and master it had there (10.7.4.1.2).
#[derive(Debug, Clone)]
pub struct Departed {
    pub card: CardId,
    pub def: String,
    pub master: PlayerId,
}

/// What a move of cards together has done so far.
#[derive(Debug, Clone, Default)]
pub struct Together {
    /// The watchers that have left the field.
    pub departed: Vec<Departed>,
    /// The watchers made pending by cards leaving (watcher, ability).
    pub seen: Vec<(CardId, usize)>,
    /// The cards that have entered a field, with the field's player, the
    /// information they had there and the clause that read it (10.7.4.2).
    pub entered: Vec<(CardId, PlayerId, crate::engine::CardDef, &'static str)>,
}

/// Runs `f` as one move of cards together: watchers leaving the field in
/// it are remembered until it ends, for the cards that leave after them.
pub(super) fn together<T>(m: &mut M, f: impl FnOnce(&mut M) -> R<T>) -> R<T> {
    let outer = m
        .game
        .own::<SveState>()
        .together
        .replace(Together::default());
    let out = f(m);
    m.game.own::<SveState>().together = outer;
    out
}

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
                def: def.into(),
                ability: 0,
                trigger: "leaves_field".into(),
                master: p,
                amount: 0,
            };
            let watches = |a: &AbilityDef| {
                a.of.as_ref()
                    .is_some_and(|f| admits(f, &info, from, p) && w != left)
            };
            let before = m.trace.len();
            let pending = m.game.pending.len();
            add_triggers_where(m, template, &watches);
            for e in m.trace.iter_mut().skip(before) {
                e.text
                    .push_str(&format!(" ({left} left {}'s field)", player_name(from)));
            }
            let added: Vec<(CardId, usize)> = m.game.pending[pending..]
                .iter()
                .map(|q| (q.card.clone(), q.ability))
                .collect();
            if let Some(t) = m.game.own::<SveState>().together.as_mut() {
                t.seen.extend(added);
            }
        }
    }
    departed_watchers(m, left, &info, from);
    remember_watcher(m, left, left_def, from);
}

/// 10.9.3.1: `entered` has been put onto `to`'s field; the abilities of
/// the other cards on the fields watching cards enter (`enters_field` with
/// `of`) become pending if their filter admits it, read with the
/// information the continuous effects applying on the field give it (the
/// zone after the move: 10.7.4.1.1 from a hidden zone, 10.7.4.1.3 from a
/// public one). A watcher entering by the same move as cards before it
/// sees them enter too (10.7.4.2).
pub(super) fn others_entering(m: &mut M, entered: &str, to: PlayerId, from_hidden: bool) {
    let Some(info) = info(&m.game, entered).map(std::borrow::Cow::into_owned) else {
        return;
    };
    let changed = base_def(&m.game, entered).is_some_and(|b| *b != info);
    let zone_rule = if from_hidden {
        r::TRIGGER_PUBLIC_INFO
    } else {
        r::TRIGGER_AFTER_MOVE_INFO
    };
    let how = format!(
        "{entered} entered {}'s field, read with the information the field's continuous effects give it{}",
        player_name(to),
        if changed { ", not its printed one" } else { "" }
    );
    let tp = m.game.turn.active;
    for p in [tp, m.game.opponent(tp)] {
        for w in m.game.zone_of(p, zn::FIELD).to_vec() {
            if w != entered {
                watch_entry(m, &w, p, &info, to, &how, &[zone_rule]);
            }
        }
    }
    // 10.7.4.2: the cards that entered before it by the same move.
    let earlier = m
        .game
        .own::<SveState>()
        .together
        .as_ref()
        .map(|t| t.entered.clone())
        .unwrap_or_default();
    for (card, into, before_info, before_rule) in earlier {
        let how = format!(
            "{card} entered {}'s field by the same move as {entered}, which sees it (10.7.4.2)",
            player_name(into)
        );
        watch_entry(
            m,
            entered,
            to,
            &before_info,
            into,
            &how,
            &[before_rule, r::TRIGGER_ENTERING_TOGETHER],
        );
    }
    if let Some(t) = m.game.own::<SveState>().together.as_mut() {
        t.entered.push((entered.into(), to, info, zone_rule));
    }
}

/// Watcher `w` (mastered by `master`) sees a card of `info` enter `to`'s
/// field: its `enters_field` abilities whose `of` admits it become pending.
fn watch_entry(
    m: &mut M,
    w: &str,
    master: PlayerId,
    info: &crate::engine::CardDef,
    to: PlayerId,
    how: &str,
    rules: &[&'static str],
) {
    let Some(def) = eff_def_key(&m.game, w) else {
        return;
    };
    let template = Pending {
        card: w.into(),
        def: def.into(),
        ability: 0,
        trigger: ENTERS_FIELD.into(),
        master,
        amount: 0,
    };
    let watches = |a: &AbilityDef| a.of.as_ref().is_some_and(|f| admits(f, info, to, master));
    let watching = m.game.defs.get(&template.def).is_some_and(|d| {
        d.abilities
            .iter()
            .any(|a| a.trigger == ENTERS_FIELD && a.of.is_some())
    });
    if watching
        && !m
            .game
            .defs
            .get(&template.def)
            .is_some_and(|d| d.abilities.iter().any(watches))
    {
        // The non-event a judge is asked: the card entering, as it is on
        // the field, is not one the watcher waits for.
        m.record(
            "trigger.none",
            format!("{w} watches cards entering a field; {how}: its filter does not admit it, so it does not trigger"),
            &[r::CONTINUOUS_ZONE_ENTERING],
        )
        .obj(w);
        return;
    }
    let before = m.trace.len();
    add_triggers_where(m, template, &watches);
    for e in m.trace.iter_mut().skip(before) {
        e.text.push_str(&format!(" ({how})"));
        e.rule(r::CONTINUOUS_ZONE).rule(r::CONTINUOUS_ZONE_ENTERING);
        for &rule in rules {
            e.rule(rule);
        }
    }
}

/// The watchers that left earlier in the same move see `left` leave, as
/// the field was (the judges' reading; see the module note).
fn departed_watchers(m: &mut M, left: &str, info: &crate::engine::CardDef, from: PlayerId) {
    let departed = m
        .game
        .own::<SveState>()
        .together
        .as_ref()
        .map(|t| t.departed.clone())
        .unwrap_or_default();
    let misses = reading(&m.game, LEAVING_WATCHER_MISSES);
    for d in departed {
        let Some(def) = m.game.defs.get(&d.def).cloned() else {
            continue;
        };
        let watches = |a: &AbilityDef| {
            a.trigger.split('+').any(|t| t == "leaves_field")
                && a.of
                    .as_ref()
                    .is_some_and(|f| admits(f, info, from, d.master))
        };
        if !def.abilities.iter().any(watches) {
            continue;
        }
        let w = &d.card;
        let side = player_name(from);
        if misses {
            m.record(
                "trigger.none",
                format!("{left} left {side}'s field together with {w}, which had already left: reading `{LEAVING_WATCHER_MISSES}`: a watcher sees only what leaves while it stays on the field, so {w} does not trigger"),
                &[r::LEAVE_FIELD_INFO],
            )
            .obj(w);
            continue;
        }
        let template = Pending {
            card: w.clone(),
            def: d.def.clone(),
            ability: 0,
            trigger: "leaves_field".into(),
            master: d.master,
            amount: 0,
        };
        let before = m.trace.len();
        add_triggers_where(m, template, &watches);
        for e in m.trace.iter_mut().skip(before) {
            e.text.push_str(&format!(
                " ({left} left {side}'s field together with {w}, which left first)"
            ));
            e.rule(r::LEAVE_FIELD_INFO).note(look_back_note());
        }
    }
}

/// The judge's note on a watcher leaving with the cards it watches.
fn look_back_note() -> String {
    format!(
        "the rulebook does not say whether a watcher leaving by the same move sees the others leave (10.7.4.2 settles only a card entering); read as looking back to the field as it was (10.7.4.1, 10.7.4.1.2), so it sees them (flag `{LEAVING_WATCHER_MISSES}`: it does not)"
    )
}

/// While cards move together, a watcher leaving the field is remembered
/// with the information and master it had there. With the other reading
/// it does not see the cards that left before it in the move either: the
/// instances they made pending are withdrawn, so the order of the move
/// does not matter.
fn remember_watcher(m: &mut M, left: &str, left_def: &str, from: PlayerId) {
    let watcher = m
        .game
        .defs
        .get(left_def)
        .is_some_and(|d| d.abilities.iter().any(|a| a.of.is_some()));
    let misses = reading(&m.game, LEAVING_WATCHER_MISSES);
    let Some(t) = m.game.own::<SveState>().together.as_mut() else {
        return;
    };
    if !watcher {
        return;
    }
    t.departed.push(Departed {
        card: left.into(),
        def: left_def.into(),
        master: from,
    });
    let seen: Vec<usize> = t
        .seen
        .iter()
        .filter(|(c, _)| c == left)
        .map(|(_, a)| *a)
        .collect();
    t.seen.retain(|(c, _)| c != left);
    if !misses {
        if !seen.is_empty() {
            m.record(
                "trigger.kept",
                format!("{left} leaves the field by the same move as cards it saw leave: what they made pending stays pending"),
                &[r::LEAVE_FIELD_INFO],
            )
            .obj(left)
            .note(look_back_note());
        }
        return;
    }
    for ability in seen {
        let at =
            m.game.pending.iter().rposition(|q| {
                q.card == left && q.ability == ability && q.trigger == "leaves_field"
            });
        if let Some(i) = at {
            let q = m.game.pending.remove(i);
            m.record(
                "trigger.withdrawn",
                format!("{} is withdrawn: {left} leaves the field by the same move as the card that made it pending; reading `{LEAVING_WATCHER_MISSES}`: a watcher sees only what leaves while it stays on the field", q.key()),
                &[r::LEAVE_FIELD_INFO],
            )
            .obj(left);
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

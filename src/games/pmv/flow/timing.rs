//! Timing: the trigger windows the procedures name (the start and end of
//! each phase 4.4–4.8, the end of the interference 1.12.8.d, the play
//! resolving 5.2.4.a/c, the removal windows 9.2.3 / 9.3.4 / 9.4.4 a–c),
//! automatic effects as card text (7.4: 自動α continuous on the field,
//! 自動β continuous in any zone, 自動γ deferred to the end of the effect
//! resolving, optional ones used with priority), "during this turn" and
//! "during this interference" durations (4.3.1.b, 4.9.1.d, 1.12.8.c) and
//! the effects that end the turn or phase, add or skip a phase (4.10).

use super::*;
use crate::engine::{Condition, Pending};

/// 自動α (7.4.5): a continuous effect of a card on the field.
pub const ALPHA: &str = "auto_alpha";
/// 自動β (7.4.6): a continuous effect of a card in any zone.
pub const BETA: &str = "auto_beta";
/// A 自動γ whose condition is not a procedure step: "when you draw a card"
/// (resolved after the effect that drew ends, 7.4.7.c).
pub const ON_DRAW: &str = "on_draw";

/// Phase-window trigger words: `(phase, start trigger, end trigger)`.
const WINDOWS: &[(&str, &str, &str)] = &[
    ("active", "start_of_active", "end_of_active"),
    ("maintenance", "start_of_maintenance", "end_of_maintenance"),
    ("draw", "start_of_draw", "end_of_draw"),
    ("main", "start_of_main", "end_of_main"),
    ("discard", "start_of_discard", "end_of_discard"),
];

/// The reading flag: an end-the-turn effect ends the current phase
/// without its end-of-phase procedure (4.10.1.b read as "skipped").
pub const END_TURN_SKIPS_PHASE_END: &str = "reading_end_turn_skips_phase_end";

/// (start window, end window, transition) clauses of a phase.
fn phase_rules(name: &str) -> (&'static str, &'static str, &'static str) {
    match name {
        "active" => (
            r::ACTIVE_START_EFFECTS,
            r::ACTIVE_END_EFFECTS,
            r::ACTIVE_TO_MAINT,
        ),
        "maintenance" => (
            r::MAINT_START_EFFECTS,
            r::MAINT_END_EFFECTS,
            r::MAINT_TO_DRAW,
        ),
        "draw" => (r::DRAW_START_EFFECTS, r::DRAW_END_EFFECTS, r::DRAW_TO_MAIN),
        "main" => (
            r::MAIN_START_EFFECTS,
            r::MAIN_END_EFFECTS,
            r::MAIN_TO_DISCARD,
        ),
        _ => (
            r::DISCARD_START_EFFECTS,
            r::DISCARD_END_EFFECTS,
            r::DISCARD_TO_TURN_END,
        ),
    }
}

fn window(name: &str, start: bool) -> Option<&'static str> {
    WINDOWS
        .iter()
        .find(|w| w.0 == name)
        .map(|w| if start { w.1 } else { w.2 })
}

// ------------------------------------------------------------- validation

/// Checks the abilities of every card definition for the parts of the
/// effect language this module reads (run before anything resolves):
/// conditions name a known value, zone and phase; 自動α/β carry only
/// continuous modifications unless optional; optional abilities are α/β.
pub(super) fn check_abilities(g: &Game) -> Option<EngineError> {
    for (k, d) in &g.defs {
        for ab in &d.abilities {
            if let Some(c) = &ab.condition {
                if let Some(vn) = &c.value
                    && vn != "life"
                {
                    return Some(bad(format!(
                        "`{k}`: a condition on value `{vn}`; PMV players have only `life`"
                    )));
                }
                if let Some(z) = &c.zone
                    && !g.zone_specs.iter().any(|s| s.name == z)
                {
                    return Some(bad(format!("`{k}`: a condition on unknown zone `{z}`")));
                }
                if let Some(ph) = &c.phase
                    && !PHASES.contains(&ph.as_str())
                {
                    return Some(bad(format!("`{k}`: a condition on unknown phase `{ph}`")));
                }
                if c.value.is_some() && c.zone.is_some() {
                    return Some(bad(format!(
                        "`{k}`: a condition compares either a `value` or a `zone`, not both"
                    )));
                }
            }
            let continuous = ab.trigger == ALPHA || ab.trigger == BETA;
            if ab.optional && !continuous {
                return Some(EngineError::NotImplemented {
                    clause: r::AUTO_OPTIONAL,
                    what: format!(
                        "an optional `{}` ability of `{k}`; optional automatic effects are written as `auto_alpha` / `auto_beta` and used with priority",
                        ab.trigger
                    ),
                });
            }
            if continuous && !ab.optional {
                for e in &ab.effect {
                    let ok = match e {
                        // A continuous "always" change (6.1.10.d) is not
                        // modelled: its layer is not tracked for 自動α/β.
                        Effect::SetPower { always: true, .. } => false,
                        Effect::Buff { target, .. } | Effect::SetPower { target, .. } => {
                            matches!(target, Target::This | Target::All { .. })
                        }
                        // Read while a card is played (flow/playmods.rs, 5.2.2.h).
                        Effect::ModifyCost { .. } => true,
                        _ => false,
                    };
                    if !ok {
                        return Some(EngineError::NotImplemented {
                            clause: if ab.trigger == ALPHA {
                                r::ALPHA
                            } else {
                                r::BETA
                            },
                            what: format!(
                                "a continuous `{}` effect of `{k}` other than `buff` / `set_power` (without `always`, 6.1.10.d) on `this` or `all`, or `modify_cost`",
                                ab.trigger
                            ),
                        });
                    }
                }
            }
            for e in &ab.effect {
                match e {
                    Effect::ExtraPhase { phase } | Effect::SkipPhase { phase, .. }
                        if !WINDOWS.iter().any(|w| w.0 == phase) =>
                    {
                        return Some(bad(format!(
                            "`{k}`: `{phase}` is not a phase of the turn; one of active, maintenance, draw, main, discard"
                        )));
                    }
                    _ => {}
                }
            }
        }
    }
    None
}

// ------------------------------------------------------------- conditions

/// Whether a condition of application holds for an ability of `card`
/// whose master is `master` (7.4.5.b, 7.4.6.b, 7.4.7.b).
pub(super) fn holds(g: &Game, c: &Condition, card: &str, master: PlayerId) -> bool {
    if let Some(who) = c.turn {
        if pmv(g).between_turns {
            return false;
        }
        let tp = g.turn.active;
        let ok = match who {
            Who::You => tp == master,
            Who::Opponent => tp != master,
            Who::Both => true,
        };
        if !ok {
            return false;
        }
    }
    if let Some(ph) = &c.phase
        && (g.turn.phase != *ph || pmv(g).between_turns)
    {
        return false;
    }
    if c.value.is_none()
        && c.zone.is_none()
        && let Some(count) = c.count.as_deref()
    {
        // The only count PMV declares (GameModule::condition_counts).
        return count == POPULARITY_COUNT && popularity_holds(g, card, c);
    }
    if c.at_least.is_none() && c.at_most.is_none() {
        return true;
    }
    let players = who_players(g, master, c.who);
    let amount = |p: PlayerId| -> i64 {
        match (&c.value, &c.zone) {
            (Some(vn), _) => g.value(p, vn),
            (None, Some(z)) => g.zone_of(p, z).len() as i64,
            (None, None) => 0,
        }
    };
    players.iter().all(|p| {
        let n = amount(*p);
        c.at_least.is_none_or(|l| n >= l) && c.at_most.is_none_or(|h| n <= h)
    })
}

fn ability_holds(g: &Game, ab: &AbilityDef, card: &str, master: PlayerId) -> bool {
    ab.condition
        .as_ref()
        .is_none_or(|c| holds(g, c, card, master))
}

/// Whether a γ ability's condition holds; otherwise records that it does
/// not apply (7.4.7.b). Used by `fire`.
pub(super) fn gamma_condition(m: &mut M, ab: &AbilityDef, id: &str, master: PlayerId) -> bool {
    if ability_holds(&m.game, ab, id, master) {
        return true;
    }
    m.record(
        format!("auto.{}", ab.trigger),
        format!(
            "{id}'s automatic effect ({}) does not apply: its condition does not hold",
            ab.trigger
        ),
        &[r::GAMMA_CONDITION],
    )
    .obj(id.to_string());
    false
}

// ------------------------------------------------------ continuous effects

/// The order in which cards entered their current zone (7.4.5.e): the
/// index of the last `Moved` event into that zone; cards already there
/// when the scenario starts come first, in the order the file lists them,
/// the first player's before the second's (a reading: the file does not
/// say when they entered).
fn entered(g: &Game, id: &str) -> (usize, usize) {
    let Some(c) = g.card(id) else {
        return (0, 0);
    };
    let ev = g.events.iter().rposition(|e| {
        matches!(e, crate::engine::state::Event::Moved { card, to, .. } if card == id && *to == c.zone)
    });
    match ev {
        Some(i) => (1, i),
        None => {
            let pos = g.zone(&c.zone).iter().position(|x| x == id).unwrap_or(0);
            (0, c.zone.player.map_or(0, PlayerId::index) * 10_000 + pos)
        }
    }
}

/// The continuous (non-optional) 自動α of cards on the field and 自動β of
/// cards in any zone whose condition holds, earlier-entered card first
/// (7.4.5.e): `(card, ability)`.
pub(super) fn continuous(g: &Game) -> Vec<(CardId, AbilityDef)> {
    let mut out: Vec<((usize, usize), CardId, AbilityDef)> = Vec::new();
    for c in g.cards.values() {
        // The text the card has now: a text given by an effect (2.13,
        // 10.1.2) or a transformed description replaces its own; a
        // face-down card's is void (5.7.4).
        let Some(d) = def(g, &c.id) else {
            continue;
        };
        for ab in &d.abilities {
            let applies = match ab.trigger.as_str() {
                ALPHA => c.zone.kind == zn::FIELD,
                BETA => true,
                _ => false,
            };
            if applies && !ab.optional && ability_holds(g, ab, &c.id, c.controller) {
                out.push((entered(g, &c.id), c.id.clone(), ab.clone()));
            }
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0).then(a.1.cmp(&b.1)));
    out.into_iter().map(|(_, id, ab)| (id, ab)).collect()
}

/// What the continuous effects do to `card`'s `stat`: the value of the
/// latest change (変更) in application order, and the sum of additions.
pub(super) fn continuous_stat(g: &Game, card: &Card, stat: &str) -> (Option<i64>, i64) {
    let (mut set, mut add) = (None, 0);
    if !g.defs.values().any(|d| {
        d.abilities
            .iter()
            .any(|a| a.trigger == ALPHA || a.trigger == BETA)
    }) {
        return (set, add);
    }
    for (src, ab) in continuous(g) {
        let master = g.card(&src).map(|c| c.controller).unwrap_or(PlayerId::P1);
        for e in &ab.effect {
            let (target, a, d, is_set) = match e {
                Effect::Buff {
                    target,
                    attack,
                    defense,
                    ..
                } => (target, Some(*attack), Some(*defense), false),
                Effect::SetPower {
                    target,
                    attack,
                    defense,
                    ..
                } => (target, *attack, *defense, true),
                _ => continue,
            };
            let hit = match target {
                Target::This => src == card.id,
                Target::All { filter } => candidates(g, filter, master, &src)
                    .iter()
                    .any(|c| *c == card.id),
                _ => false,
            };
            if !hit {
                continue;
            }
            let x = if stat == "attack" { a } else { d };
            match (x, is_set) {
                (Some(x), true) => set = Some(x),
                (Some(x), false) => add += x,
                (None, _) => {}
            }
        }
    }
    (set, add)
}

/// Records which continuous effects apply now, when a procedure or an
/// effect may have switched them on or off (7.4.5.c/d, 7.4.6.c/d), and
/// records it; [`recheck_continuous`] also checks 9.2.2 at once: a
/// character whose durability drops to its accumulated damage becomes 決死
/// mid-resolution.
pub(super) fn note_continuous(m: &mut M) -> R<()> {
    if game_over(&m.game) {
        return Ok(());
    }
    note_info_lost(m);
    // A set card that left takes the text it gave with it (10.13.6).
    gained::refresh(m)?;
    if !m.game.defs.values().any(|d| {
        d.abilities
            .iter()
            .any(|a| (a.trigger == ALPHA || a.trigger == BETA) && !a.optional)
    }) {
        return Ok(());
    }
    let now: Vec<String> = continuous(&m.game)
        .iter()
        .map(|(id, ab)| format!("{id}.{}", ab.trigger))
        .collect();
    let key_prefix = "cont|";
    let before: Vec<String> = vars(&m.game)
        .keys()
        .filter_map(|k| k.strip_prefix(key_prefix).map(str::to_string))
        .collect();
    for on in now.iter().filter(|k| !before.contains(k)) {
        let beta = on.ends_with(BETA);
        m.record(
            "auto.continuous",
            format!(
                "{on} starts to apply: its card is {} and its condition holds, even mid-resolution",
                if beta {
                    "in a zone (自動β applies in any zone)"
                } else {
                    "on the field"
                }
            ),
            if beta {
                &[r::BETA, r::BETA_ANY_ZONE, r::BETA_CONDITION, r::BETA_ON]
            } else {
                &[r::ALPHA, r::ALPHA_ON_FIELD, r::ALPHA_CONDITION, r::ALPHA_ON]
            },
        );
        vars_mut(&mut m.game).insert(format!("{key_prefix}{on}"), 1);
    }
    for off in before.iter().filter(|k| !now.contains(k)) {
        let beta = off.ends_with(BETA);
        m.record(
            "auto.continuous",
            format!("{off} stops applying: its condition no longer holds, its card left {} or no longer has that text, even mid-resolution", if beta { "the game" } else { "the field" }),
            if beta { &[r::BETA, r::BETA_OFF] } else { &[r::ALPHA, r::ALPHA_OFF] },
        );
        vars_mut(&mut m.game).remove(&format!("{key_prefix}{off}"));
    }
    note_order(m);
    Ok(())
}

/// [`note_continuous`], then the removal check of 9.2.2 (durability may
/// have changed).
pub(super) fn recheck_continuous(m: &mut M) -> R<()> {
    note_continuous(m)?;
    process_removals(m)
}

/// The trace entry of the order of several continuous effects on one
/// value, written once per run when a change meets another (7.4.5.e).
pub(super) fn note_order(m: &mut M) {
    let list = continuous(&m.game);
    let sets: Vec<&(CardId, AbilityDef)> = list
        .iter()
        .filter(|(_, ab)| {
            ab.effect
                .iter()
                .any(|e| matches!(e, Effect::SetPower { .. }))
        })
        .collect();
    if sets.len() > 1 && !pmv(&m.game).cont_order_noted {
        m.game.own::<PmvState>().cont_order_noted = true;
        m.record(
            "auto.order",
            format!(
                "continuous changes apply in the order their cards entered the field: {}; the latest change wins",
                sets.iter().map(|(id, _)| id.as_str()).collect::<Vec<_>>().join(", ")
            ),
            &[r::ALPHA_ORDER, r::POWER_CHANGE_LAST],
        );
    }
}

// ---------------------------------------------------- deferred 自動γ 7.4.7.c

/// The 自動γ `on_draw` of `p`'s cards on the field become pending when `p`
/// draws (7.4.7.a/b); they resolve when the effect that drew ends
/// (7.4.7.c), through [`flush`].
pub(super) fn drew(m: &mut M, p: PlayerId) {
    for id in m.game.zone_of(p, zn::FIELD).to_vec() {
        let Some(d) = def(&m.game, &id).cloned() else {
            continue;
        };
        let Some(c) = m.game.card(&id) else { continue };
        // The ability is looked up later by its index in the description
        // the card shows now (a transformed or changed text, or with the
        // text it gained from a set card), not in its own.
        let dk = gained::def_key(&m.game, c);
        let (master, inc) = (c.controller, c.incarnation);
        for (i, ab) in d.abilities.iter().enumerate() {
            if ab.trigger != ON_DRAW || !ability_holds(&m.game, ab, &id, master) {
                continue;
            }
            m.game.pending.push(Pending {
                card: id.clone(),
                def: dk.to_string(),
                ability: i,
                trigger: ON_DRAW.into(),
                master,
                amount: i64::from(inc),
            });
            m.record(
                "auto.pending",
                format!("{id}'s automatic effect (on_draw) is met; it resolves once the effect being resolved ends"),
                &[r::GAMMA_ON_FIELD, r::GAMMA_CONDITION, r::GAMMA_DEFERRED],
            )
            .obj(id.clone());
        }
    }
}

/// The waiting 自動γ in the order they resolve (7.1.6.a): the turn
/// player's first, then the other player's, each player ordering their own
/// by card with the choice `order.<trigger>` (`order.waiting` when they
/// wait for several triggers; addressed `pN.…` on another player's
/// action); not given, in the order they became waiting. A card's several
/// waiting effects stay together in that order.
fn order_pending(m: &mut M, list: Vec<Pending>) -> R<Vec<Pending>> {
    let tp = m.game.turn.active;
    let mut ordered = Vec::new();
    let mut said = Vec::new();
    let mut choice = false;
    for p in [tp, m.game.opponent(tp)] {
        let mine: Vec<Pending> = list.iter().filter(|x| x.master == p).cloned().collect();
        let mut cards: Vec<CardId> = Vec::new();
        for x in &mine {
            if !cards.contains(&x.card) {
                cards.push(x.card.clone());
            }
        }
        if cards.is_empty() {
            continue;
        }
        // Two players' effects, or one player's of several cards: the order
        // is decided by 7.1.6.a.
        choice |= cards.len() > 1 || !ordered.is_empty();
        let key = match mine.first() {
            Some(f) if mine.iter().all(|x| x.trigger == f.trigger) => {
                format!("order.{}", f.trigger)
            }
            _ => "order.waiting".to_string(),
        };
        let (order, note) = player_order(m, p, &key, cards)?;
        said.push(note);
        for c in &order {
            ordered.extend(mine.iter().filter(|x| &x.card == c).cloned());
        }
    }
    if choice {
        m.record(
            "auto.order",
            format!(
                "{} automatic effects wait to resolve now that the effect that met them has ended; each player orders their own, the turn player first: {}",
                ordered.len(),
                said.join("; ")
            ),
            &[r::EFFECT_ONE_AT_A_TIME, r::EFFECT_ORDER_TP_FIRST, r::GAMMA_DEFERRED],
        );
    }
    Ok(ordered)
}

/// Resolves the pending 自動γ, turn player's first (7.1.6.a), each only if
/// its card is still on the field as the same object and its condition
/// still holds (7.4.7.d). Called when an effect ends (7.4.7.c).
pub(super) fn flush(m: &mut M) -> R<()> {
    while !m.game.pending.is_empty() {
        let list = std::mem::take(&mut m.game.pending);
        let list = order_pending(m, list)?;
        for p in list {
            if game_over(&m.game) {
                m.game.pending.clear();
                return Ok(());
            }
            let Some(ab) = m.game.ability(&p.def, p.ability).cloned() else {
                continue;
            };
            let same = m
                .game
                .card(&p.card)
                .is_some_and(|c| c.zone.kind == zn::FIELD && i64::from(c.incarnation) == p.amount);
            if !same {
                m.record(
                    "auto.lapsed",
                    format!("{}'s automatic effect ({}) is not resolved: the card left the field before it resolved", p.card, p.trigger),
                    &[r::GAMMA_LAPSES],
                )
                .obj(p.card.clone());
                continue;
            }
            if !ability_holds(&m.game, &ab, &p.card, p.master) {
                m.record(
                    "auto.lapsed",
                    format!(
                        "{}'s automatic effect ({}) is not resolved: its condition no longer holds",
                        p.card, p.trigger
                    ),
                    &[r::GAMMA_LAPSES],
                )
                .obj(p.card.clone());
                continue;
            }
            m.record(
                format!("auto.{}", p.trigger),
                format!(
                    "{}'s automatic effect ({}) resolves now that the effect that met its condition has ended",
                    p.card, p.trigger
                ),
                &[r::GAMMA, r::GAMMA_DEFERRED],
            )
            .obj(p.card.clone());
            let key = format!("{}.{}", p.card, p.trigger);
            let targets = choose_targets(m, &ab, &p.card, p.master, &key)?;
            apply_ability(m, &ab, &p.card, p.master, &targets)?;
        }
    }
    Ok(())
}

// --------------------------------------------------------- 7.4.4 optional

/// `use`: a player holding priority with no interference open applies an
/// optional automatic effect of their card (7.4.4, 1.12.2.d): 自動α on the
/// field, 自動β in any zone, with its condition holding. Priority does not
/// move: the player gets it again.
pub(super) fn use_optional(m: &mut M, mut p: Pri, player: PlayerId, card: &str) -> R<()> {
    let reject = |m: &mut M, p: Pri, rule: &'static str, msg: String| {
        let alts = legal_actions(&m.game, &p);
        m.stack.push(Step::Priority(p));
        Err(illegal(rule, msg, alts))
    };
    let Some(c) = m.game.card(card) else {
        return Err(bad(format!("no card `{card}`")));
    };
    let (zone, controller) = (c.zone.kind.to_string(), c.controller);
    let Some(ab) =
        def(&m.game, card).and_then(|d| d.abilities.iter().find(|a| a.optional).cloned())
    else {
        return Err(bad(format!(
            "{card} has no optional automatic effect to use"
        )));
    };
    if controller != player {
        return reject(
            m,
            p,
            r::AUTO_OPTIONAL,
            format!("{card} is not {}'s card", player_name(player)),
        );
    }
    if p.open() {
        return reject(
            m,
            p,
            r::AUTO_OPTIONAL,
            format!(
                "an interference is open: {card}'s optional automatic effect can be applied only with no interference"
            ),
        );
    }
    if ab.trigger == ALPHA && zone != zn::FIELD {
        return reject(
            m,
            p,
            r::ALPHA_ON_FIELD,
            format!("{card} is not on the field: its 自動α does not apply"),
        );
    }
    if !ability_holds(&m.game, &ab, card, player) {
        return reject(
            m,
            p,
            if ab.trigger == ALPHA {
                r::ALPHA_CONDITION
            } else {
                r::BETA_CONDITION
            },
            format!("the condition of {card}'s optional automatic effect does not hold"),
        );
    }
    m.record(
        "auto.use",
        format!(
            "{} uses {card}'s optional automatic effect ({}) with priority and no interference; priority stays with them",
            player_name(player),
            ab.trigger
        ),
        &[
            r::AUTO_OPTIONAL,
            r::PA_AUTO,
            if ab.trigger == ALPHA { r::ALPHA } else { r::BETA },
        ],
    )
    .obj(card.to_string());
    let key = format!("{card}.{}", ab.trigger);
    let targets = choose_targets(m, &ab, card, player, &key)?;
    apply_ability(m, &ab, card, player, &targets)?;
    if game_over(&m.game) {
        return Ok(());
    }
    p.passes = 0;
    p.block_window = false;
    after_priority_effect(m, p)
}

// ------------------------------------------------------------- durations

/// Marks that an interference is open, so effects may last "during this
/// interference" (1.12.8.c).
pub(super) fn interference_opens(g: &mut Game) {
    g.own::<PmvState>().interference_open = true;
}

/// Whether `this_interference` can be applied now.
pub(super) fn check_duration(g: &Game, until: Until) -> R<()> {
    if until == Until::ThisInterference && !pmv(g).interference_open {
        return Err(EngineError::NotImplemented {
            clause: r::INTERFERENCE_DURATIONS,
            what: "a \"during this interference\" effect applied with no interference open".into(),
        });
    }
    Ok(())
}

/// 1.12.8.c, then 1.12.8.d: the effects lasting during this interference
/// end, then the end-of-interference effects resolve.
pub(super) fn interference_ends(m: &mut M) -> R<()> {
    let mut ended = 0;
    for c in m.game.cards.values_mut() {
        let n = c.modifiers.len();
        c.modifiers.retain(|md| md.until != Until::ThisInterference);
        ended += n - c.modifiers.len();
    }
    end_standing(&mut m.game, Until::ThisInterference);
    m.game.own::<PmvState>().interference_open = false;
    if ended > 0 {
        m.record(
            "interference.durations",
            format!("{ended} modification(s) lasting during this interference end"),
            &[r::INTERFERENCE_DURATIONS],
        );
    }
    process_removals(m)?;
    recheck_continuous(m)?;
    if game_over(&m.game) {
        return Ok(());
    }
    if any_trigger(&m.game, "end_of_interference") {
        m.record(
            "interference.end_effects",
            "the effects whose timing is the end of the interference resolve",
            &[r::INTERFERENCE_END_EFFECTS],
        );
    }
    fire_all(m, "end_of_interference", r::INTERFERENCE_END_EFFECTS)
}

/// 4.3.1.b: the effects whose condition is "during the turn" start to
/// apply.
pub(super) fn turn_starts_applying(m: &mut M) -> R<()> {
    m.game.own::<PmvState>().between_turns = false;
    if !any_turn_condition(&m.game) {
        return Ok(());
    }
    m.record(
        "turn.during",
        "the effects whose condition is \"during the turn\" start to apply",
        &[r::TURN_START_DURING],
    );
    recheck_continuous(m)
}

/// 4.9.1.d: the effects whose condition is "during the turn" (and
/// `this_turn` modifications) stop applying.
pub(super) fn turn_stops_applying(m: &mut M) -> R<()> {
    let mut ended = 0;
    for c in m.game.cards.values_mut() {
        let n = c.modifiers.len();
        c.modifiers.retain(|md| md.until != Until::ThisTurn);
        ended += n - c.modifiers.len();
    }
    end_standing(&mut m.game, Until::ThisTurn);
    ended += end_info_changes(m, Until::ThisTurn);
    m.game.own::<PmvState>().between_turns = true;
    if ended == 0 && !any_turn_condition(&m.game) {
        return Ok(());
    }
    m.record(
        "turn.during",
        format!("the effects whose condition is \"during the turn\" stop applying ({ended} during-this-turn modification(s) end)"),
        &[r::TURN_END_DURING],
    );
    process_removals(m)?;
    recheck_continuous(m)
}

// ------------------------------------------------------------ 4.10 effects

/// Applies an effect that ends the turn or phase, adds or skips a phase
/// (4.10). It takes hold when the current effects and interference are
/// done (4.10.1.a, 4.10.2.a).
pub(super) fn apply_turn_effect(m: &mut M, e: &Effect, this: &str, master: PlayerId) -> R<()> {
    match e {
        Effect::EndTurn => {
            let again = std::mem::replace(&mut m.game.own::<PmvState>().turn.end_turn, true);
            let en = m.record(
                "end_turn.applied",
                format!("{this}'s effect ends the turn: it ends once the interference and its end-of-interference effects have resolved"),
                &[r::END_TURN_AFTER_INTERFERENCE],
            );
            if again {
                en.rule(r::END_TURN_ONCE);
                en.text
                    .push_str("; the turn already ends, and only this turn ends");
            }
        }
        Effect::EndPhase => {
            let again = std::mem::replace(&mut m.game.own::<PmvState>().turn.end_phase, true);
            let en = m.record(
                "end_phase.applied",
                format!("{this}'s effect ends the {} phase: it ends once the interference and its end-of-interference effects have resolved", m.game.turn.phase),
                &[r::END_PHASE_AFTER_INTERFERENCE],
            );
            if again {
                en.rule(r::END_PHASE_ONCE);
                en.text
                    .push_str("; the phase already ends, and only this phase ends");
            }
        }
        Effect::ExtraPhase { phase } => {
            let again = m
                .game
                .own::<PmvState>()
                .extra_phase
                .replace(phase_index(phase))
                .is_some();
            let en = m.record(
                "extra_phase.applied",
                format!("{this}'s effect adds an extra {phase} phase: the turn goes to it at the next phase change"),
                &[r::EXTRA_PHASE_GOES],
            );
            if again {
                en.rule(r::EXTRA_PHASE_ONCE);
                en.text
                    .push_str("; phases were added more than once before the change: the phase is added only once");
            }
        }
        Effect::SkipPhase { phase, optional } => {
            let key = if *optional {
                format!("skip_optional|{phase}|{}", player_name(master))
            } else {
                format!("skip|{phase}")
            };
            vars_mut(&mut m.game).insert(key, 1);
            m.record(
                "skip_phase.applied",
                format!(
                    "{this}'s effect {} the next {phase} phase",
                    if *optional {
                        "lets its player skip"
                    } else {
                        "skips"
                    }
                ),
                &[r::SKIP_PHASE],
            );
        }
        _ => {}
    }
    Ok(())
}

/// Where the turn goes once the current effects are done and a player
/// would get priority: an end-the-turn or end-the-phase effect ends the
/// phase now (4.10.1.a/b, 4.10.2.a/b); otherwise the player gets priority.
pub(super) fn after_priority_effect(m: &mut M, p: Pri) -> R<()> {
    if game_over(&m.game) {
        return Ok(());
    }
    if pmv(&m.game).turn.end_turn && !pmv(&m.game).turn.ending_turn {
        return end_turn_now(m);
    }
    if pmv(&m.game).turn.end_phase {
        m.record(
            "end_phase",
            format!(
                "an effect ended the {} phase: its end-of-phase procedure runs, then the next phase",
                m.game.turn.phase
            ),
            &[r::END_PHASE_PROC],
        );
        return phase_end_procedure(m, false);
    }
    give_priority(m, p);
    Ok(())
}

/// 4.10.1.b/c: the current phase ends (with its end procedure unless the
/// reading flag says otherwise), the other phases are skipped, and the turn
/// ends.
fn end_turn_now(m: &mut M) -> R<()> {
    m.game.own::<PmvState>().turn.ending_turn = true;
    let phase = m.game.turn.phase.clone();
    if window(&phase, false).is_none() {
        // At the start of the turn (4.3.1.c): no phase is in progress.
        m.record(
            "end_turn",
            "an effect ended the turn before any phase: every phase is skipped and the turn ends",
            &[r::END_TURN_PHASE_ENDS, r::END_TURN_TURN_END],
        );
        m.then([Step::Phase(phase_index("end"))]);
        return Ok(());
    }
    let skip_end = reading(&m.game, END_TURN_SKIPS_PHASE_END);
    m.record(
        "end_turn",
        format!(
            "an effect ended the turn: the {phase} phase ends{}, the remaining phases are skipped and not processed, then the end of turn",
            if skip_end { " without its end-of-phase procedure" } else { " with its end-of-phase procedure" }
        ),
        &[r::END_TURN_PHASE_ENDS],
    )
    .note(if skip_end {
        "reading chosen by the scenario (reading_end_turn_skips_phase_end): 4.10.1.b's \"the phase ends\" skips that phase's end procedure"
    } else {
        "4.10.1.b says only that the phase ends; judges read it as ending normally, with its end-of-phase procedure (4.x.2.a), as 4.10.2.b does (flag reading_end_turn_skips_phase_end chooses otherwise)"
    });
    phase_end_procedure(m, skip_end)
}

/// The end-of-phase procedure (4.4.2–4.8.2): the end window, then the move
/// to the next phase, or to the end of the turn when the turn was ended
/// (4.10.1.b/c, 4.10.2.d).
pub(super) fn phase_end_procedure(m: &mut M, skip_window: bool) -> R<()> {
    let name = m.game.turn.phase.clone();
    let had_end_phase = pmv(&m.game).turn.end_phase;
    let (_, end_rule, to_rule) = phase_rules(&name);
    m.game.own::<PmvState>().turn.end_phase = false;
    if !skip_window && let Some(w) = window(&name, false) {
        if any_trigger(&m.game, w) {
            m.record(
                "phase.end_effects",
                format!("end of the {name} phase: the effects whose timing it is resolve"),
                &[end_rule],
            );
        }
        fire_all(m, w, end_rule)?;
        flush(m)?;
        if game_over(&m.game) {
            return Ok(());
        }
    }
    m.game.own::<PmvState>().turn.end_phase = false;
    if pmv(&m.game).turn.end_turn {
        let en = m.record(
            "end_turn",
            format!("the turn was ended by an effect: the phases after {name} are skipped and the end of turn follows"),
            &[r::END_TURN_PHASE_ENDS, r::END_TURN_TURN_END],
        );
        if had_end_phase {
            en.rule(r::END_PHASE_END_TURN_WINS);
        }
        m.then([Step::Phase(phase_index("end"))]);
        return Ok(());
    }
    let next = next_phase(m, phase_index(&name))?;
    let target = PHASES.get(next).copied().unwrap_or("end");
    m.record(
        "phase.next",
        format!(
            "the {name} phase ends; {}",
            if target == "end" {
                "the end of turn follows".to_string()
            } else {
                format!("the turn moves to the {target} phase")
            }
        ),
        &[to_rule],
    );
    m.then([Step::Phase(next)]);
    Ok(())
}

/// The phase after `i`: an extra phase first (4.10.3.a), the phase the
/// turn returns to after one (4.10.3.b), and skipped phases passed over
/// (4.10.5, 4.10.5.a).
fn next_phase(m: &mut M, i: usize) -> R<usize> {
    let mut next = match m.game.own::<PmvState>().extra_return.take() {
        None => i + 1,
        Some(r) => {
            m.record(
                "extra_phase.return",
                format!(
                    "the extra phase ends: the turn returns to the {} phase it would have gone to",
                    PHASES.get(r).copied().unwrap_or("end")
                ),
                &[r::EXTRA_PHASE_RETURNS],
            );
            r
        }
    };
    let own = m.game.own::<PmvState>();
    if let Some(x) = own.extra_phase.take() {
        own.extra_return = Some(next);
        m.record(
            "extra_phase",
            format!(
                "an extra {} phase: the turn goes to it instead of the {} phase",
                PHASES.get(x).copied().unwrap_or("main"),
                PHASES.get(next).copied().unwrap_or("end")
            ),
            &[r::EXTRA_PHASE_GOES],
        );
        return Ok(x);
    }
    while let Some(name) = PHASES
        .get(next)
        .copied()
        .filter(|n| window(n, true).is_some())
    {
        let forced = format!("skip|{name}");
        if vars_mut(&mut m.game).remove(&forced).is_some() {
            m.record(
                "skip_phase",
                format!("the {name} phase is skipped: it does not occur"),
                &[r::SKIP_PHASE],
            );
            // An optional skip of the same phase can no longer be chosen.
            let opt: Vec<String> = vars(&m.game)
                .keys()
                .filter(|k| k.starts_with(&format!("skip_optional|{name}|")))
                .cloned()
                .collect();
            for k in opt {
                vars_mut(&mut m.game).remove(&k);
            }
            next += 1;
            continue;
        }
        let opt = vars(&m.game)
            .keys()
            .find(|k| k.starts_with(&format!("skip_optional|{name}|")))
            .cloned();
        if let Some(k) = opt {
            vars_mut(&mut m.game).remove(&k);
            let who = k.rsplit('|').next().unwrap_or("p1").to_string();
            let key = format!("skip.{name}");
            let v = m
                .choices
                .require(&key, &["true".to_string(), "false".to_string()])?;
            let yes = v.as_bool().unwrap_or(false);
            m.record(
                "skip_phase",
                format!(
                    "the {} phase has ended: {who} chooses {} to skip the {name} phase",
                    PHASES.get(i).copied().unwrap_or("previous"),
                    if yes { "" } else { "not" }
                ),
                &[r::SKIP_PHASE_OPTIONAL, r::SKIP_PHASE],
            );
            if yes {
                next += 1;
                continue;
            }
        }
        break;
    }
    Ok(next)
}

/// After the start-of-phase window: an end-the-turn or end-the-phase
/// effect applied there ends the phase now; otherwise the turn player
/// gets priority.
pub(super) fn phase_started(m: &mut M, tp: PlayerId) -> R<()> {
    after_priority_effect(m, Pri::fresh(tp))
}

/// The start-of-phase window (4.4.1.b … 4.8.1.b), after the phase's rule
/// effect and the γ it deferred (7.4.7.c).
pub(super) fn phase_start_window(m: &mut M, name: &str) -> R<()> {
    flush(m)?;
    recheck_continuous(m)?;
    if game_over(&m.game) {
        return Ok(());
    }
    let Some(w) = window(name, true) else {
        return Ok(());
    };
    let (start_rule, _, _) = phase_rules(name);
    if any_trigger(&m.game, w) {
        m.record(
            "phase.start_effects",
            format!("start of the {name} phase: the effects whose timing it is resolve"),
            &[start_rule],
        );
    }
    fire_all(m, w, start_rule)?;
    flush(m)
}

/// After the start-of-turn window (4.3.1.c): an end-the-turn effect
/// applied there skips every phase.
pub(super) fn turn_started(m: &mut M) -> R<bool> {
    flush(m)?;
    if pmv(&m.game).turn.end_turn {
        end_turn_now(m)?;
        return Ok(true);
    }
    if pmv(&m.game).turn.end_phase {
        return Err(EngineError::NotImplemented {
            clause: r::END_PHASE_PROC,
            what: "an end-the-phase effect applied at the start of the turn, before any phase"
                .into(),
        });
    }
    Ok(false)
}

/// 7.4.7.c: effects being applied nest; γ met inside wait for the
/// outermost end. Returns the depth before.
pub(super) fn applying(g: &mut Game, delta: i64) -> i64 {
    let own = g.own::<PmvState>();
    let d = own.applying;
    own.applying += delta;
    d
}

// ------------------------------------------------ removal windows (chapter 9)

/// Records that `source` applies a removal (決死 by its damage or 即死, 破棄,
/// 除外) to `target`: its "する / した" windows (9.2.3.a/c, 9.3.4.a/c,
/// 9.4.4.a/c) are the source's. A 決死 card keeps its source for the 破棄
/// that follows (9.2.3.e).
pub(super) fn set_remover(g: &mut Game, target: &str, source: &str) {
    if target != source {
        vars_mut(g).insert(format!("remover|{target}|{source}"), 1);
    }
}

/// The sources that applied the removal resolving for `targets`, in id
/// order, each once.
pub(super) fn removers(g: &Game, targets: &[CardId]) -> Vec<CardId> {
    let mut out: Vec<CardId> = Vec::new();
    for t in targets {
        let prefix = format!("remover|{t}|");
        for k in vars(g).keys().filter(|k| k.starts_with(&prefix)) {
            let s = k[prefix.len()..].to_string();
            if !out.iter().any(|c| c == &s) {
                out.push(s.into());
            }
        }
    }
    out
}

/// Forgets the sources of `target`'s removal once it has left.
pub(super) fn clear_removers(g: &mut Game, target: &str) {
    let prefix = format!("remover|{target}|");
    vars_mut(g).retain(|k, _| !k.starts_with(&prefix));
}

/// The windows a–d of one removal kind for `cards` (9.2.3, 9.3.4, 9.4.4):
/// a: the sources' "applying" effects, b: the cards' "being" effects,
/// c: the sources' "applied" effects, d: the cards' "-ed" effects.
pub(super) fn removal_windows(
    m: &mut M,
    cards: &[CardId],
    words: &[&str],
    rules: &[&'static str],
) -> R<()> {
    let src = removers(&m.game, cards);
    // Windows a and c belong to the cause, b and d to the removed cards.
    for (i, (w, rule)) in words.iter().zip(rules).enumerate() {
        let who: &[CardId] = if i % 2 == 0 { &src } else { cards };
        fire(m, w, who, rule)?;
    }
    Ok(())
}

// ------------------------------------------------------- 5.2.4.a / 5.2.4.c

/// Marks the play being resolved as not properly resolved (5.2.4.c).
pub(super) fn play_failed(g: &mut Game) {
    g.own::<PmvState>().play_failed = true;
}

/// 5.2.4.a, the resolution (b, d), then 5.2.4.c if the effect resolved
/// properly (7.1.11).
pub(super) fn around_play(m: &mut M, e: &Entry, inner: fn(&mut M, &Entry) -> R<()>) -> R<()> {
    fire_all(m, "card_resolving", r::PLAY_RESOLVING_EFFECTS)?;
    if game_over(&m.game) {
        return Ok(());
    }
    let outer = std::mem::take(&mut m.game.own::<PmvState>().play_failed);
    inner(m, e)?;
    let failed = std::mem::replace(&mut m.game.own::<PmvState>().play_failed, outer);
    if game_over(&m.game) {
        return Ok(());
    }
    let waiting = all_field(&m.game).iter().any(|id| {
        def(&m.game, id).is_some_and(|d| d.abilities.iter().any(|a| a.trigger == "card_resolved"))
    });
    if failed {
        if waiting {
            m.record(
                "play.not_resolved",
                format!(
                    "{} was not resolved properly: the effects for a resolved card do not resolve",
                    e.card
                ),
                &[r::PLAY_RESOLVED_EFFECTS, r::EFFECT_FAILS],
            );
        }
        return Ok(());
    }
    if waiting {
        m.record(
            "play.resolved",
            format!(
                "{} was resolved properly: the effects whose timing is a resolved card resolve",
                e.card
            ),
            &[r::PLAY_RESOLVED_EFFECTS, r::EFFECT_SUCCEEDS],
        );
    }
    fire_all(m, "card_resolved", r::PLAY_RESOLVED_EFFECTS)
}

fn all_field(g: &Game) -> Vec<CardId> {
    let mut v = Vec::new();
    for p in g.player_ids() {
        v.extend(g.zone_of(p, zn::FIELD).iter().cloned());
    }
    v
}

/// Whether a card on the field has an ability with `trigger` (a window
/// with nothing to resolve is not written to the trace).
fn any_trigger(g: &Game, trigger: &str) -> bool {
    all_field(g)
        .iter()
        .any(|id| def(g, id).is_some_and(|d| d.abilities.iter().any(|a| a.trigger == trigger)))
}

/// Whether any card has an ability conditioned on the turn or phase.
fn any_turn_condition(g: &Game) -> bool {
    g.defs.values().any(|d| {
        d.abilities.iter().any(|a| {
            a.condition
                .as_ref()
                .is_some_and(|c| c.turn.is_some() || c.phase.is_some())
        })
    })
}

// ------------------------------------------------------------- 7.6.1 standing

/// Records a resolved effect on "all" with a period (until end of turn,
/// during this turn or this interference) that has just applied to
/// `objs`: within its period it also reaches the cards that meet its
/// condition later (7.6.1).
pub(super) fn stand(
    m: &mut M,
    e: &Effect,
    this: &str,
    master: PlayerId,
    reached: BTreeSet<(CardId, u32)>,
) {
    let (Some(Target::All { filter }), Some(until)) = (e.target(), e.until()) else {
        return;
    };
    if until == Until::Permanent && !no_period_stands(m, this) {
        return;
    }
    m.game.own::<PmvState>().standing.push(Standing {
        this: this.to_string(),
        master,
        filter: filter.clone(),
        effect: e.clone(),
        until,
        reached,
        released: BTreeSet::new(),
    });
}

/// An effect on "all" written with no period (a `buff` lasting while each
/// card stays in its zone) reaches the cards that meet its condition later
/// and stops for those that no longer do (7.6.1, 7.6.2), instead of the
/// judges' reading: both clauses speak of 「指定された期間」, the period
/// the effect specifies, so an effect with none applies once, to the cards
/// that met its condition when it resolved, and stays on them.
pub const ALL_WITHOUT_PERIOD_STANDS: &str = "reading_all_without_period_stands";

/// Whether an effect on "all" with no period stands (7.6.1, 7.6.2) under
/// [`ALL_WITHOUT_PERIOD_STANDS`]; either way, the trace says which reading
/// applies.
fn no_period_stands(m: &mut M, this: &str) -> bool {
    let stands = reading(&m.game, ALL_WITHOUT_PERIOD_STANDS);
    let (what, note) = if stands {
        (
            "it reaches the cards that meet its condition later, and stops for those that no longer do, for the rest of the game",
            format!(
                "reading `{ALL_WITHOUT_PERIOD_STANDS}`: an effect with no period is taken to last without end, so 7.6.1 and 7.6.2 apply to it"
            ),
        )
    } else {
        (
            "it stays on the cards it applied to and reaches no card later",
            format!(
                "judge's reading: 7.6.1 and 7.6.2 apply within the period an effect specifies (「指定された期間の間」); this one specifies none, so it applied once, to the cards that met its condition as it resolved (flag `{ALL_WITHOUT_PERIOD_STANDS}` chooses otherwise)"
            ),
        )
    };
    m.record(
        "effect.period",
        format!("{this}'s effect on all has no period: {what}"),
        &[r::LATER_OBJECTS, r::NO_LONGER_MATCHES],
    )
    .note(note);
    stands
}

/// The objects (card, incarnation) `objs` name now.
pub(super) fn object_keys(g: &Game, objs: &[String]) -> BTreeSet<(CardId, u32)> {
    objs.iter()
        .filter_map(|o| g.card(o).map(|c| (c.id.clone(), c.incarnation)))
        .collect()
}

/// 7.6.1: each standing effect applies to the cards that meet its
/// condition now and did not when it resolved (a card entering the field
/// later, or the same card as a new object). A `buff` adds its
/// modification; another effect's reaching a later card is not
/// implemented.
pub(super) fn standing_reach(m: &mut M) -> R<()> {
    let n = pmv(&m.game).standing.len();
    for i in 0..n {
        standing_release(m, i)?;
        let s = pmv(&m.game).standing[i].clone();
        for o in candidates(&m.game, &s.filter, s.master, &s.this) {
            let Some(key) = m.game.card(&o).map(|c| (c.id.clone(), c.incarnation)) else {
                continue;
            };
            if s.reached.contains(&key) {
                continue;
            }
            // 7.6.1 with 7.6.2: whether an effect that stopped applying to
            // a card reaches it again when it meets the condition again is
            // not written.
            if s.released.contains(&key) {
                return Err(EngineError::NotImplemented {
                    clause: r::NO_LONGER_MATCHES,
                    what: format!(
                        "{}'s effect on all, which stopped applying to {o} when it no longer met the condition, and {o} meeting it again within the period",
                        s.this
                    ),
                });
            }
            let (a, d, until) = standing_buff(
                &s,
                r::LATER_OBJECTS,
                format!("reaching {o}, which meets its condition later in its period"),
            )?;
            if let Some(c) = m.game.cards.get_mut(o.as_str()) {
                c.buff(a, d, until, &s.this);
            }
            m.game.own::<PmvState>().standing[i].reached.insert(key);
            m.record(
                "modify",
                format!(
                    "{o} gets {a:+}/{d:+}: {}'s effect on all, resolved earlier, reaches a card that meets its condition within its period",
                    s.this
                ),
                &[r::LATER_OBJECTS, r::RESOLVED_INDEPENDENT, r::POWER_ADD],
            )
            .obj(o.clone());
        }
    }
    Ok(())
}

/// 7.6.2: a card the standing effect `i` applies to that no longer meets
/// its condition (the same object, still in play: a sleeping character
/// made active, a name changed) stops receiving it at once, though the
/// period has not ended. A `buff` takes its modification back; another
/// effect's stopping is not implemented. A card that has left its zone is
/// a new object (3.1.7) and has already lost the effect.
fn standing_release(m: &mut M, i: usize) -> R<()> {
    let s = pmv(&m.game).standing[i].clone();
    let matching = candidates(&m.game, &s.filter, s.master, &s.this);
    for (id, inc) in &s.reached {
        let same_object = m
            .game
            .card(id.as_str())
            .is_some_and(|c| c.incarnation == *inc);
        if !same_object || matching.iter().any(|o| o == id.as_str()) {
            continue;
        }
        let (a, d, until) = standing_buff(
            &s,
            r::NO_LONGER_MATCHES,
            format!("stopping for {id}, which no longer meets its condition within its period"),
        )?;
        if let Some(c) = m.game.cards.get_mut(id.as_str()) {
            take_back_buff(c, a, d, until, &s.this);
        }
        let st = &mut m.game.own::<PmvState>().standing[i];
        st.reached.remove(&(id.clone(), *inc));
        st.released.insert((id.clone(), *inc));
        m.record(
            "modify",
            format!(
                "{id} loses {a:+}/{d:+}: it no longer meets the condition of {}'s effect on all, so the effect stops applying to it though its period has not ended",
                s.this
            ),
            &[r::NO_LONGER_MATCHES],
        )
        .obj(id.to_string());
    }
    Ok(())
}

/// The modification of a standing `buff` (attack, defense, period); for
/// any other effect, `clause` is not implemented for it (`what` it would
/// have done).
fn standing_buff(s: &Standing, clause: &'static str, what: String) -> R<(i64, i64, Until)> {
    match &s.effect {
        Effect::Buff {
            attack,
            defense,
            until,
            ..
        } => Ok((*attack, *defense, *until)),
        other => Err(EngineError::NotImplemented {
            clause,
            what: format!("{}'s {} on all {what}", s.this, other.word()),
        }),
    }
}

/// Removes one addition of `attack` and one of `defense` that `source`'s
/// buff lasting `until` gave the card (the latest such: equal ones are
/// interchangeable).
fn take_back_buff(c: &mut Card, attack: i64, defense: i64, until: Until, source: &str) {
    for (stat, delta) in [("attack", attack), ("defense", defense)] {
        if delta == 0 {
            continue;
        }
        if let Some(k) = c.modifiers.iter().rposition(|x| {
            x.stat == stat && !x.set && x.delta == delta && x.until == until && x.source == source
        }) {
            c.modifiers.remove(k);
        }
    }
}

/// The standing effects (7.6.1) whose period `until` ends.
pub(super) fn end_standing(g: &mut Game, until: Until) {
    g.own::<PmvState>().standing.retain(|s| s.until != until);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::load_str;

    fn run_text(text: &str) -> Outcome {
        let loaded = load_str("t.json", text, None).expect("test scenario loads");
        loaded.module.run(loaded.game.clone(), &loaded.actions)
    }

    #[test]
    fn an_optional_gamma_is_not_implemented() {
        let out = run_text(
            r#"{ "game": "pmv", "name": "t", "source": "test",
            "cards": { "c": { "name": "c", "type": "character", "cost": 0, "attack": 1, "defense": 1,
              "abilities": [ { "trigger": "start_of_main", "optional": true, "effect": [ { "do": "draw", "amount": 1 } ] } ] } },
            "state": { "turn": { "player": "p1", "phase": "main", "number": 3 },
              "players": { "p1": { "zones": { "deck": { "count": 5 }, "field": [ "c" ] } }, "p2": { "zones": { "deck": { "count": 5 } } } } },
            "actions": [] }"#,
        );
        let err = out.error.expect("stops");
        assert!(
            matches!(err.error, EngineError::NotImplemented { clause, .. } if clause == r::AUTO_OPTIONAL),
            "{:?}",
            err.error
        );
    }

    /// A board with two sleeping characters of p1 (k, j), a command `all`
    /// whose effect on all sleeping characters of p1 is `effect`, and
    /// commands waking (`wake`) or sleeping (`lull`) a chosen one.
    fn run_all_sleeping(effect: &str, actions: &str) -> Outcome {
        let set = |name: &str, clear: bool| {
            format!(
                r#"{{ "name": "{name}", "type": "command", "cost": 0, "stats": {{ "node": 0 }},
                "abilities": [ {{ "trigger": "effect", "effect": [ {{ "do": "set_state", "state": "sleep", "clear": {clear},
                  "target": {{ "select": "chosen", "side": "you", "types": [ "character" ] }} }} ] }} ] }}"#
            )
        };
        run_text(&format!(
            r#"{{ "game": "pmv", "name": "t", "source": "test",
            "cards": {{
              "all": {{ "name": "all", "type": "command", "cost": 0, "stats": {{ "node": 0 }},
                "abilities": [ {{ "trigger": "effect", "effect": [ {effect} ] }} ] }},
              "wake": {wake}, "lull": {lull},
              "k": {{ "name": "k", "type": "character", "cost": 0, "attack": 1, "defense": 1 }},
              "j": {{ "name": "j", "type": "character", "cost": 0, "attack": 2, "defense": 2 }} }},
            "state": {{ "turn": {{ "player": "p1", "phase": "main", "number": 3 }},
              "players": {{ "p1": {{ "zones": {{ "deck": {{ "count": 5 }},
                "field": [ {{ "id": "k", "card": "k", "state": [ "sleep" ] }}, {{ "id": "j", "card": "j", "state": [ "sleep" ] }} ],
                "hand": [ {{ "id": "all", "card": "all" }}, {{ "id": "wake", "card": "wake" }}, {{ "id": "lull", "card": "lull" }} ] }} }},
                "p2": {{ "zones": {{ "deck": {{ "count": 5 }} }} }} }} }},
            "actions": [ {{ "do": "play", "player": "p1", "card": "all" }}, {{ "do": "pass", "player": "p2" }}, {{ "do": "pass", "player": "p1" }},
              {{ "do": "play", "player": "p1", "card": "wake", "choices": {{ "targets": "k" }} }}, {{ "do": "pass", "player": "p2" }}, {{ "do": "pass", "player": "p1" }}
              {actions} ] }}"#,
            wake = set("wake", true),
            lull = set("lull", false),
        ))
    }

    fn stops_at_7_6_2(out: &Outcome) {
        let err = out.error.as_ref().expect("stops");
        assert!(
            matches!(err.error, EngineError::NotImplemented { clause, .. } if clause == r::NO_LONGER_MATCHES),
            "{:?}",
            err.error
        );
    }

    const ALL_SLEEPING: &str = r#""target": { "select": "all", "side": "you", "types": [ "character" ], "state": "sleep" }, "until": "end_of_turn""#;

    #[test]
    fn a_raise_on_all_stops_for_a_card_that_no_longer_meets_it() {
        let out = run_all_sleeping(
            &format!(r#"{{ "do": "buff", "attack": 1, {ALL_SLEEPING} }}"#),
            "",
        );
        assert!(out.error.is_none(), "{:?}", out.error);
        assert!(
            out.trace
                .iter()
                .any(|t| t.rules.contains(&r::NO_LONGER_MATCHES))
        );
    }

    #[test]
    fn another_effect_on_all_stopping_is_not_implemented() {
        let out = run_all_sleeping(
            &format!(r#"{{ "do": "change_info", "name": "x", {ALL_SLEEPING} }}"#),
            "",
        );
        stops_at_7_6_2(&out);
    }

    #[test]
    fn meeting_the_condition_again_after_it_stopped_is_not_implemented() {
        let out = run_all_sleeping(
            &format!(r#"{{ "do": "buff", "attack": 1, {ALL_SLEEPING} }}"#),
            r#", { "do": "play", "player": "p1", "card": "lull", "choices": { "targets": "k" } }, { "do": "pass", "player": "p2" }, { "do": "pass", "player": "p1" }"#,
        );
        stops_at_7_6_2(&out);
    }

    #[test]
    fn sve_rejects_conditions_and_turn_effects() {
        // Refused at load: SVE declares no turn effects (it implements
        // conditions of application since issue 12).
        let e = load_str(
            "t.json",
            r#"{ "game": "sve", "name": "t", "source": "test",
            "cards": { "f": { "name": "f", "type": "follower", "cost": 1, "attack": 1, "defense": 1,
              "abilities": [ { "trigger": "fanfare", "condition": { "value": "pp", "at_least": 1 }, "effect": [ { "do": "end_turn" } ] } ] } },
            "state": { "turn": { "player": "p1", "phase": "main", "number": 3 },
              "players": { "p1": { "zones": { "deck": { "count": 5 } } }, "p2": { "zones": { "deck": { "count": 5 } } } } },
            "actions": [] }"#,
            None,
        )
        .unwrap_err();
        assert!(
            e.message.contains("not supported for sve yet"),
            "{}",
            e.message
        );
    }

    #[test]
    fn a_condition_on_the_turn_fails_between_turns() {
        let mut g = Game::new(super::super::super::ZONES, 2, 0);
        let c = Condition {
            turn: Some(Who::You),
            ..Condition::default()
        };
        assert!(holds(&g, &c, "x", PlayerId::P1));
        assert!(!holds(&g, &c, "x", PlayerId::P2));
        g.own::<PmvState>().between_turns = true;
        assert!(!holds(&g, &c, "x", PlayerId::P1));
    }
}

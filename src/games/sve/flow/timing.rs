//! Check timing (10.5.2) and the rule processes of chapter 11.

use super::*;
use crate::engine::texts;

pub(super) fn check_timing(m: &mut M, at: &'static str, started: bool) -> R<Flow> {
    if !started {
        watch_reset(m);
        m.record(
            "check_timing",
            format!("check timing ({at})"),
            &[at, r::CHECK_TIMING],
        );
    }
    // 10.5.2.1: all applicable rule processes at once, repeated while new
    // ones apply.
    let mut processed = false;
    while rule_processes(m)? {
        processed = true;
        if m.game.result != GameResult::Ongoing {
            return Ok(Flow::Continue);
        }
    }
    state_triggers(m);
    let tp = m.game.turn.active;
    for (p, rule) in [(tp, r::CHECK_TP), (m.game.opponent(tp), r::CHECK_NTP)] {
        let mine: Vec<usize> = (0..m.game.pending.len())
            .filter(|&i| m.game.pending[i].master == p)
            .collect();
        if mine.is_empty() {
            continue;
        }
        // 15.2.1 item 3: a state come back with no decision since.
        if loop_check(m)? {
            return Ok(Flow::Continue);
        }
        let keys: Vec<String> = mine
            .iter()
            .map(|&i| pending_key(&m.game, &m.game.pending[i]))
            .collect();
        if mine.len() > 1 {
            watch_decided(m);
            alike_keys(&m.game, &mine)?;
        }
        let pick = if mine.len() == 1 {
            mine[0]
        } else {
            // 10.7.3 / 10.7.3.1: the player picks one; the scenario gives the
            // order as a list of `<card>.<trigger>` keys.
            // Issue 13: the order is the choice of the player whose
            // abilities they are.
            let (order, key) = m.decided_by(p, |m| {
                Ok((m.choices.take("order"), m.choices.shown("order")))
            })?;
            let list: Vec<String> = match &order {
                Some(Value::Array(a)) => a
                    .iter()
                    .filter_map(|x| x.as_str().map(String::from))
                    .collect(),
                _ => Vec::new(),
            };
            match list.iter().find_map(|k| keys.iter().position(|x| x == k)) {
                Some(j) => mine[j],
                None => {
                    return Err(EngineError::MissingChoice {
                        choice: key,
                        options: keys,
                    });
                }
            }
        };
        let p_ab = m.game.pending.remove(pick);
        // 10.7.6.1: a state trigger taken to be played does not pend again
        // before it has resolved.
        m.game.own::<SveState>().state_resolving =
            (p_ab.trigger == STATE).then(|| (p_ab.card.clone(), p_ab.ability));
        if asks_decision(&m.game, &p_ab) {
            watch_decided(m);
        }
        m.record(
            "check_timing.trigger",
            format!(
                "{} plays pending {} (of {})",
                player_name(p),
                pending_key(&m.game, &p_ab),
                keys.join(", ")
            ),
            &[rule, r::TRIGGER_PLAY, r::TRIGGER_MANDATORY],
        )
        .obj(p_ab.card.clone());
        m.then([
            Step::PlayTrigger(p_ab),
            Step::CheckTiming { at, started: true },
        ]);
        return Ok(Flow::Continue);
    }
    loop_ended(m)?;
    // 10.5.2.4: nothing left to do. Said explicitly, so a judge sees why
    // nothing happened here.
    m.record(
        "check_timing.end",
        if started || processed {
            "nothing more to process: the check timing ends".to_string()
        } else {
            "no rule process applies and no automatic ability is waiting: the check timing ends"
                .to_string()
        },
        &[r::CHECK_END],
    );
    Ok(Flow::Continue)
}

/// The `order` choice names a pending ability by `<card>.<trigger>` (a
/// given one beside a printed one of that trigger: `<card>.<trigger>.given`,
/// `pending_key`): two different abilities of one card with one name (two
/// printed, or two given) cannot be told apart, so the player's pick
/// (10.7.3) cannot be written.
fn alike_keys(g: &Game, mine: &[usize]) -> R<()> {
    let mut seen: Vec<(String, (&str, usize))> = Vec::new();
    for &i in mine {
        let p = &g.pending[i];
        let (k, which) = (pending_key(g, p), (p.def.as_str(), p.ability));
        if seen.iter().any(|(sk, sw)| *sk == k && *sw != which) {
            return Err(EngineError::not_implemented(
                r::TRIGGER_PLAY,
                format!(
                    "choosing the order of two different abilities pending as `{k}` (the `order` choice cannot tell them apart)"
                ),
            ));
        }
        seen.push((k, which));
    }
    Ok(())
}

/// Performs every applicable rule process of chapter 11 at once (11.1.3),
/// so the cards they move move together (`watch::together`).
/// Returns whether any applied.
pub(super) fn rule_processes(m: &mut M) -> R<bool> {
    together(m, rule_processes_now)
}

fn rule_processes_now(m: &mut M) -> R<bool> {
    let g = &m.game;
    let n = g.players.len();
    let mut any = false;
    // 11.2.1 / 11.2.2
    let lose_def: Vec<PlayerId> = PlayerId::all(n)
        .filter(|&p| !g.players[p].lost && g.value(p, "defense") <= 0)
        .collect();
    let lose_deck: Vec<PlayerId> = PlayerId::all(n)
        .filter(|&p| g.players[p].flags.contains(DREW_FROM_EMPTY))
        .collect();
    // 11.3.1 / 11.3.2
    let mut destroy: Vec<(CardId, Vec<&'static str>)> = Vec::new();
    for p in PlayerId::all(n) {
        for id in field_followers(g, p) {
            let c = &g.cards[&id];
            let mut why = Vec::new();
            if defense(g, c) <= 0 {
                why.push(r::DESTROY_DEFENSE);
            }
            if c.has(st::BANE_MARKED) {
                why.push(r::DESTROY_BANE);
            }
            if !why.is_empty() {
                destroy.push((id, why));
            }
        }
    }
    // 11.7.1 Stack with no stack counters.
    let mut to_cemetery: Vec<(CardId, &'static str)> = Vec::new();
    for p in PlayerId::all(n) {
        for id in g.zone_of(p, zn::FIELD) {
            if has_kw(g, id, "stack")
                && g.cards[id].counters.get("stack").copied().unwrap_or(0) <= 0
            {
                to_cemetery.push((id.clone(), r::STACK_EMPTY));
            }
        }
    }
    // 11.6.1 / 11.8.1 orphans; 11.6.2 several evolve cards on one card.
    let mut orphans: Vec<(CardId, &'static str)> = Vec::new();
    let mut detach: Vec<CardId> = Vec::new();
    for p in PlayerId::all(n) {
        for (zone, rule) in [
            (zn::EVOLUTION, r::EVOLVE_ORPHAN),
            (zn::RACE, r::RACE_ORPHAN),
        ] {
            for id in g.zone_of(p, zone) {
                let host_ok = g.cards[id]
                    .attached_to
                    .as_deref()
                    .is_some_and(|h| on_field(g, h));
                if !host_ok {
                    orphans.push((id.clone(), rule));
                }
            }
        }
        let evos: Vec<&CardId> = g.zone_of(p, zn::EVOLUTION).iter().collect();
        let mut hosts: std::collections::BTreeMap<String, Vec<CardId>> = Default::default();
        for id in evos {
            if let Some(h) = &g.cards[id].attached_to
                && on_field(g, h)
            {
                hosts.entry(h.to_string()).or_default().push(id.clone());
            }
        }
        for (_, list) in hosts {
            if list.len() > 1 {
                // Keep the most recently attached (the last one).
                detach.extend(list[..list.len() - 1].iter().cloned());
            }
        }
    }
    // 11.4.1 / 11.5.1 overflow.
    let mut overflow: Vec<(PlayerId, &'static str, &'static str)> = Vec::new();
    for p in PlayerId::all(n) {
        for (zone, rule) in [(zn::FIELD, r::FIELD_OVERFLOW), (zn::EX, r::EX_OVERFLOW)] {
            if g.zone_of(p, zone).len() > limit(g, zone) {
                overflow.push((p, zone, rule));
            }
        }
    }
    // 11.9.1
    let pp_over: Vec<PlayerId> = PlayerId::all(n)
        .filter(|&p| g.value(p, "pp") > g.value(p, "max_pp"))
        .collect();

    // Apply everything together (11.1.3).
    if !lose_def.is_empty() || !lose_deck.is_empty() {
        any = true;
        for p in lose_def {
            m.game.players[p].lost = true;
            m.record(
                "rule.defeat",
                format!(
                    "{}'s leader has defense {} ≤ 0: {} loses",
                    player_name(p),
                    m.game.value(p, "defense"),
                    player_name(p)
                ),
                &[
                    r::DEFEAT_DEFENSE,
                    r::LOSS_DEFENSE,
                    r::RULE_PROCESS_SIMULTANEOUS,
                ],
            )
            .obj(player_name(p));
        }
        for p in lose_deck {
            m.game.players[p].flags.remove(DREW_FROM_EMPTY);
            // 11.1.3: both defeat processes apply together, so a player
            // whose leader is also at 0 loses by 11.2.2 too; the trace
            // names it rather than letting the first reason hide it.
            let also = if m.game.players[p].lost { " too" } else { "" };
            m.game.players[p].lost = true;
            m.record(
                "rule.defeat",
                format!(
                    "{} had to draw from an empty deck: {} loses{also}",
                    player_name(p),
                    player_name(p)
                ),
                &[r::DEFEAT_DECK, r::LOSS_DECK, r::RULE_PROCESS_SIMULTANEOUS],
            )
            .obj(player_name(p));
        }
        game_over_check(m);
        // 1.2.1: the game ends at that point; the other rule processes of
        // this check (11.1.3) have nothing left to act on.
        if m.game.result != GameResult::Ongoing {
            return Ok(true);
        }
    }
    for (id, why) in destroy {
        any = true;
        let d = m.game.card(&id).map(|c| defense(&m.game, c)).unwrap_or(0);
        let owner = m.game.cards[&id].owner;
        let text = if why.contains(&r::DESTROY_BANE) && why.len() == 1 {
            format!("{id} was in combat with a Bane follower: destroyed")
        } else {
            format!("{id} has defense {d} ≤ 0: destroyed")
        };
        let mut rules = why.clone();
        if why.contains(&r::DESTROY_BANE) {
            rules.push(r::BANE);
        }
        rules.push(r::DESTROY);
        let ctrl = m.game.cards[&id].controller;
        m.record("rule.destroy", text, &rules).obj(&id).change(
            format!("{id}.zone"),
            format!("{}.field", player_name(ctrl)),
            format!("{}.cemetery", player_name(owner)),
        );
        mv(m, &id, ZoneId::of(owner, zn::CEMETERY), false);
    }
    // Bane marks are "since the previous rule processing": clear the rest.
    for c in m.game.cards.values_mut() {
        c.states.remove(st::BANE_MARKED);
    }
    for (id, rule) in to_cemetery {
        if !on_field(&m.game, &id) {
            continue;
        }
        any = true;
        let owner = m.game.cards[&id].owner;
        m.record(
            "rule.stack",
            format!("{id} has no stack counters: put into the cemetery"),
            &[rule, r::STACK_RULE],
        )
        .obj(&id);
        mv(m, &id, ZoneId::of(owner, zn::CEMETERY), false);
    }
    for id in detach {
        any = true;
        if let Some(c) = m.game.cards.get_mut(&id) {
            c.attached_to = None;
        }
        m.record(
            "rule.illegal_evolution",
            format!("{id} is detached: only the most recently attached evolve card stays"),
            &[r::EVOLVE_STACKED],
        )
        .obj(&id);
    }
    for (id, rule) in orphans {
        any = true;
        let owner = m.game.cards[&id].owner;
        m.record(
            "rule.orphan",
            format!("{id} is attached to nothing: put face up into the evolve deck area"),
            &[rule],
        )
        .obj(&id);
        mv(m, &id, ZoneId::of(owner, zn::EVOLVE_DECK), false);
        if let Some(c) = m.game.cards.get_mut(&id) {
            c.states.insert(st::FACE_UP.into());
        }
    }
    for (p, zone, rule) in overflow {
        let ids = m.game.zone_of(p, zone).to_vec();
        let lim = limit(&m.game, zone);
        if ids.len() <= lim {
            continue;
        }
        any = true;
        let key = format!("keep.{}.{zone}", player_name(p));
        let tp = m.game.turn.active;
        let turn_player_chooses = reading(&m.game, OVERFLOW_RULE_TURN_PLAYER_CHOOSES);
        let chooser = if turn_player_chooses { tp } else { p };
        // Issue 13: what stays is the chooser's choice.
        let keep = m.decided_by(chooser, |m| {
            let shown = m.choices.shown(&key);
            m.choices
                .ids(&key, &ids)?
                .ok_or_else(|| EngineError::MissingChoice {
                    choice: shown,
                    options: texts(&ids),
                })
        })?;
        let distinct: BTreeSet<&CardId> = keep.iter().collect();
        if distinct.len() != lim || keep.len() != lim {
            return Err(EngineError::BadChoice {
                choice: key,
                value: format!("{} cards", keep.len()),
                options: vec![format!(
                    "exactly {lim} distinct cards of {}",
                    ids.join(", ")
                )],
            });
        }
        let e = m.record(
            "rule.overflow",
            format!(
                "{}'s {zone} holds {} cards, over its limit {lim}: {} keeps {}",
                player_name(p),
                ids.len(),
                player_name(chooser),
                keep.join(", ")
            ),
            &[rule],
        );
        if turn_player_chooses {
            e.note(format!("reading `{OVERFLOW_RULE_TURN_PLAYER_CHOOSES}`: a rule process has no master, and the turn player chooses the cards to keep (choice `{key}`)"));
        } else {
            e.note(format!("judges' reading: the rules do not say who chooses the cards to keep; read as the zone's player, by analogy with 4.1.5 and 11.6.2 (option `{OVERFLOW_RULE_TURN_PLAYER_CHOOSES}`: the turn player)"));
        }
        for id in ids.iter().filter(|i| !keep.contains(i)) {
            let owner = m.game.cards[id].owner;
            mv(m, id, ZoneId::of(owner, zn::CEMETERY), false);
        }
    }
    for p in pp_over {
        any = true;
        let max = m.game.value(p, "max_pp");
        set_value(
            m,
            p,
            "pp",
            max,
            "rule.pp_overflow",
            &[r::PP_OVERFLOW, r::PP_MAX_BOUND],
        );
    }
    // Record 10.5.2.1 once per pass for the reader; once a rule process
    // has ended the game (11.2, 1.2.1) nothing is checked again.
    if any && m.game.result == GameResult::Ongoing {
        m.record(
            "check_timing.rules",
            "rule processes performed; check again",
            &[r::CHECK_RULES, r::RULE_PROCESS_ONLY_AT_CHECK],
        );
    }
    Ok(any)
}

//! Setup (1.2.7) and the turn (chapter 4): turn start, phases with their rule effects, upkeep (10.27) in maintenance, turn end.

use super::*;

pub(super) fn setup(m: &mut M) -> R<()> {
    m.game.turn.phase = "setup".into();
    for p in m.game.player_ids() {
        let deck = m.game.zone_of(p, zn::DECK).to_vec();
        if deck.len() != 50 {
            return Err(bad(format!(
                "{}'s deck has {} cards; a deck is exactly 50 cards (1.2.2.a)",
                player_name(p),
                deck.len()
            )));
        }
        if let Some(id) = deck.iter().find(|id| has_kw(&m.game, id, "link")) {
            return Err(EngineError::NotImplemented {
                clause: r::LINK_NAMES,
                what: format!("the names {id} (連結) adds, counted at deck construction"),
            });
        }
        let mut seen: BTreeMap<String, usize> = BTreeMap::new();
        for id in &deck {
            if has_kw(&m.game, id, "one_per_deck") {
                let k = m
                    .game
                    .card(id)
                    .map(|c| c.def.to_string())
                    .unwrap_or_default();
                *seen.entry(k).or_default() += 1;
            }
        }
        if let Some((k, n)) = seen.iter().find(|(_, n)| **n > 1) {
            return Err(bad(format!(
                "{}'s deck holds {n} copies of `{k}`, which has デッキ１枚制限 (one per deck, 10.24.2.a)",
                player_name(p)
            )));
        }
        let mut names: BTreeMap<String, usize> = BTreeMap::new();
        for id in &deck {
            // Anonymous cards (`unknown` type) stand for distinct cards.
            if let Some(d) = def(&m.game, id)
                && d.card_type != "unknown"
            {
                *names.entry(d.name.clone()).or_default() += 1;
            }
        }
        if let Some((n, c)) = names.iter().find(|(_, c)| **c > 3) {
            return Err(bad(format!(
                "{}'s deck holds {c} cards named {n}; at most 3 cards of the same name (1.2.2.b)",
                player_name(p)
            )));
        }
        check_sideboard(m, p, &deck)?;
        let uniq = !seen.is_empty();
        let mut ids = deck.clone();
        m.game.rng.shuffle(&mut ids);
        if let Some(z) = m.game.zones.get_mut(&ZoneId::of(p, zn::DECK)) {
            *z = ids;
        }
        m.record(
            "setup.shuffle",
            format!("{} shuffles their 50-card deck", player_name(p)),
            &[r::DECK_50, r::DECK_SAME_NAME_3, r::START_SHUFFLE],
        );
        if uniq {
            m.record(
                "setup.one_per_deck",
                format!("{}'s deck holds one copy of each デッキ１枚制限 card; same-name copies without the keyword count only toward the limit of 3", player_name(p)),
                &[r::ONE_PER_DECK, r::ONE_PER_DECK_SAME_NAME],
            );
        }
    }
    for p in m.game.player_ids() {
        draw_at_once(m, &[p], 7, r::START_DRAW_7);
        let before = m.game.set_value(p, "life", 25);
        m.record(
            "setup.life",
            format!(
                "{} draws 7 and starts with 25 life; there is no mulligan",
                player_name(p)
            ),
            &[r::START_DRAW_7, r::START_LIFE, r::LIFE_START],
        )
        .change(format!("{}.life", player_name(p)), before, 25);
    }
    let first = m.game.turn.first;
    m.game.turn.active = first;
    m.game.turn.number = 1;
    m.record(
        "setup.first_turn",
        format!("{}'s first turn begins", player_name(first)),
        &[r::START_TURN],
    );
    Ok(())
}

pub(super) fn turn_start(m: &mut M) -> R<()> {
    m.game.turn.phase = "start".into();
    reset_damage(m, r::TURN_START_RESET);
    let tp = m.game.turn.active;
    m.record(
        "turn.start",
        format!(
            "turn {} of {} begins; no one gets priority",
            m.game.turn.number,
            player_name(tp)
        ),
        &[r::TURN_START, r::PH_START, r::NO_PRIORITY_START_END],
    );
    turn_starts_applying(m)?;
    revert_at_turn_start(m)?;
    fire_all(m, "start_of_turn", r::TURN_START_EFFECTS)?;
    if game_over(&m.game) || turn_started(m)? {
        return Ok(());
    }
    m.record(
        "turn.start",
        "the turn moves on to the active phase",
        &[r::TO_ACTIVE_PHASE, r::TURN_START_EFFECTS],
    );
    m.then([Step::Phase(phase_index("active"))]);
    Ok(())
}

/// Resets all accumulated damage of characters (4.3.1.a, 4.9.1.a; effect
/// damage resets only here, 1.10.13.e).
pub(super) fn reset_damage(m: &mut M, rule: &'static str) {
    let mut changed = Vec::new();
    for id in all_characters(&m.game) {
        if let Some(c) = m.game.cards.get_mut(&id) {
            let before = accumulated(c);
            if before > 0 {
                c.counters.remove(COMBAT_DAMAGE);
                c.counters.remove(EFFECT_DAMAGE);
                changed.push((id, before));
            }
        }
    }
    let e = m.record(
        "damage.reset",
        "accumulated damage of characters (combat and effect) is reset",
        &[rule, r::RESET_EFFECT],
    );
    for (id, b) in changed {
        e.change(format!("{id}.accumulated_damage"), b, 0);
    }
}

pub(super) fn phase_begin(m: &mut M, i: usize) -> R<()> {
    let name = PHASES.get(i).copied().unwrap_or("main");
    m.game.turn.phase = name.into();
    let tp = m.game.turn.active;
    match name {
        "setup" => {
            m.then([Step::Setup]);
            return Ok(());
        }
        "start" => {
            m.then([Step::TurnStart]);
            return Ok(());
        }
        "end" => return turn_end(m),
        "active" => {
            // 4.4.1.a: the turn player's cards on the field become active.
            // Nodes are in the node area, not the field, so they stay asleep.
            let mut woke = Vec::new();
            for id in m.game.zone_of(tp, zn::FIELD).to_vec() {
                if let Some(c) = m.game.cards.get_mut(&id)
                    && c.states.remove(st::SLEEP)
                {
                    woke.push(id);
                }
            }
            let e = m.record(
                "active_phase",
                format!("{}'s cards on the field become active; nodes are not on the field and stay as they are", player_name(tp)),
                &[r::ACTIVE_PHASE, r::PH_ACTIVE, r::ACTIVE_UNTAP, r::ACTIVE_PRIORITY],
            );
            for id in woke {
                e.change(format!("{id}.sleep"), true, false);
            }
            let opp = m.game.opponent(tp);
            for id in characters(&m.game, opp) {
                if has_kw(&m.game, &id, "vigilance")
                    && let Some(c) = m.game.cards.get_mut(&id)
                    && c.states.remove(st::SLEEP)
                {
                    m.record(
                        "vigilance",
                        format!("{id} has vigilance: it becomes active at the start of its opponent's active phase"),
                        &[r::VIGILANCE],
                    )
                    .change(format!("{id}.sleep"), true, false);
                }
            }
        }
        "maintenance" => {
            m.record(
                "maintenance_phase",
                format!(
                    "maintenance phase: the upkeep costs of {}'s cards are resolved as the rule effect",
                    player_name(tp)
                ),
                &[r::MAINTENANCE, r::PH_MAINT, r::MAINT_PRIORITY],
            );
            upkeep(m, tp)?;
            if game_over(&m.game) {
                return Ok(());
            }
        }
        "draw" => {
            if m.game.turn.number == 1 && tp == m.game.turn.first {
                m.record(
                    "draw_phase",
                    format!(
                        "{} went first: no draw on their first turn",
                        player_name(tp)
                    ),
                    &[
                        r::DRAW_PHASE,
                        r::PH_DRAW,
                        r::DRAW_FIRST_TURN,
                        r::FIRST_NO_DRAW,
                        r::DRAW_PRIORITY,
                    ],
                );
            } else {
                m.record(
                    "draw_phase",
                    format!(
                        "draw phase: {} draws 1 as the rule effect, then gets priority",
                        player_name(tp)
                    ),
                    &[r::DRAW_PHASE, r::PH_DRAW, r::DRAW_PRIORITY],
                );
                draw(m, tp, r::DRAW_PHASE_DRAW);
                if game_over(&m.game) {
                    return Ok(());
                }
            }
        }
        "main" => {
            m.record(
                "main_phase",
                format!(
                    "main phase of {}: no rule effect; they get priority",
                    player_name(tp)
                ),
                &[
                    r::MAIN_PHASE,
                    r::PH_MAIN,
                    r::MAIN_PRIORITY,
                    r::MAIN_NO_RULE_EFFECT,
                ],
            );
        }
        "discard" => {
            let hand = m.game.zone_of(tp, zn::HAND).to_vec();
            if hand.len() > 7 {
                let excess = hand.len() - 7;
                // The turn player decides (4.8.1.a): the choice is written on
                // their action, or addressed to them (`p1.discard`) on the
                // other player's pass that ends the main phase.
                let chosen = m.decided_by(tp, |m| m.choices.exactly("discard", &hand, excess))?;
                m.record(
                    "discard_phase.hand_limit",
                    format!(
                        "{} has {} cards, over the limit of 7: they discard {excess}",
                        player_name(tp),
                        hand.len()
                    ),
                    &[
                        r::DISCARD_PHASE,
                        r::PH_DISCARD,
                        r::HAND_LIMIT,
                        r::DISCARD_PRIORITY,
                    ],
                );
                for id in &chosen {
                    if let Some(c) = m.game.cards.get_mut(id) {
                        c.states.insert(st::DISCARDING.into());
                    }
                }
                process_removals(m)?;
            } else {
                m.record(
                    "discard_phase.hand_limit",
                    format!(
                        "{} has {} cards: within the limit of 7",
                        player_name(tp),
                        hand.len()
                    ),
                    &[
                        r::DISCARD_PHASE,
                        r::PH_DISCARD,
                        r::HAND_LIMIT,
                        r::DISCARD_PRIORITY,
                    ],
                );
            }
        }
        _ => {}
    }
    phase_start_window(m, name)?;
    if game_over(&m.game) {
        return Ok(());
    }
    phase_started(m, tp)
}

/// 維持コスト（Ｘ） upkeep X (10.27.2.a), resolved with the maintenance
/// phase's rule effect (4.5.1.a): for each of the turn player's cards on the
/// field with upkeep (stat `upkeep` = X, in field order), the choice
/// `<card>.upkeep` is `pay` (X from nodes, payment choices under
/// `<card>.upkeep.`), `discard`, or `ignore` when a character whose name
/// contains the card's caster is on the field (5.5.7, 10.31). The
/// alternate-race exemption is not modelled (no card carries 代替レース).
pub(super) fn upkeep(m: &mut M, tp: PlayerId) -> R<()> {
    // Whose maintenance phase asks for the upkeep of a card set on another
    // player's character (a 呪符 on the opponent's character) is not
    // settled by 10.27.2.a's 〔あなた〕: not implemented.
    if let Some(c) = m.game.cards.values().find(|c| {
        c.zone.kind == zn::FIELD
            && c.attached_to.is_some()
            && c.owner != c.controller
            && has_kw(&m.game, &c.id, "upkeep")
    }) {
        return Err(EngineError::NotImplemented {
            clause: r::UPKEEP,
            what: format!("upkeep of {}, set on another player's character", c.id),
        });
    }
    let cards: Vec<CardId> = m
        .game
        .zone_of(tp, zn::FIELD)
        .iter()
        .filter(|c| has_kw(&m.game, c, "upkeep"))
        .cloned()
        .collect();
    for id in cards {
        if !on_field(&m.game, &id) {
            continue; // removed by an earlier upkeep's discard
        }
        let x = stat(&m.game, &id, "upkeep");
        let caster = caster_of(&m.game, &id);
        let present = caster
            .as_deref()
            .map(|c| casters_present(&m.game, tp, c))
            .unwrap_or_default();
        let mut options = vec!["pay".to_string(), "discard".to_string()];
        if !present.is_empty() {
            options.push("ignore".into());
            let unsealed: Vec<CardId> = present
                .iter()
                .filter(|c| has_kw(&m.game, c, "sealed_arts"))
                .cloned()
                .collect();
            if !unsealed.is_empty() {
                m.record(
                    "sealed_arts",
                    format!(
                        "{} has sealed arts, but {} has 6 or more nodes: the sealed-arts effect is void and it acts as the caster",
                        unsealed.join(", "),
                        player_name(tp)
                    ),
                    &[r::SEALED_ARTS],
                );
            }
        } else if let Some(c) = caster.as_deref() {
            let sealed = sealed_casters(&m.game, tp, c);
            if !sealed.is_empty() {
                m.record(
                    "sealed_arts",
                    format!(
                        "{} has sealed arts and {} has fewer than 6 nodes: it is treated as not containing the caster {c} in its name, so {id}'s upkeep cannot be ignored",
                        sealed.join(", "),
                        player_name(tp)
                    ),
                    &[r::SEALED_ARTS, r::SEALED_ARTS_NAME],
                );
            }
        }
        // The turn player decides: the choice is written on their action,
        // or addressed to them (`p1.a.upkeep`) on the action that reaches
        // the maintenance phase (the other player's pass); unaddressed on
        // that pass it is refused (the core's declared decider). The
        // payment's choices below are the turn player's too.
        let upkeep = format!("{id}.upkeep");
        let (key, v) = m.decided_by(tp, |m| {
            Ok((
                m.choices.shown(&upkeep),
                m.choices.require(&upkeep, &options)?,
            ))
        })?;
        let answer = v.as_str().unwrap_or_default().to_string();
        if !options.contains(&answer) {
            return Err(EngineError::BadChoice {
                choice: key,
                value: v.to_string(),
                options,
            });
        }
        match answer.as_str() {
            "ignore" => {
                m.record(
                    "upkeep.ignore",
                    format!(
                        "{id} has upkeep {x}; its caster is on the field ({}), so the effect is ignored",
                        present.join(", ")
                    ),
                    &[r::UPKEEP, r::MAINT_RULE_EFFECT, r::CASTER_PRESENT],
                )
                .obj(id.clone());
            }
            "pay" => {
                m.record(
                    "upkeep.pay",
                    format!("{id} has upkeep {x}: {} pays {x}", player_name(tp)),
                    &[r::UPKEEP, r::MAINT_RULE_EFFECT],
                )
                .obj(id.clone());
                m.decided_by(tp, |m| pay_keyed(m, tp, x, &id, &format!("{upkeep}.")))?;
            }
            _ => {
                let e = m.record(
                    "upkeep.discard",
                    format!(
                        "{id} has upkeep {x}: {} does not pay, so {id} is discarded",
                        player_name(tp)
                    ),
                    &[r::UPKEEP, r::MAINT_RULE_EFFECT],
                );
                e.obj(id.clone());
                if let Some(c) = m.game.cards.get_mut(&id) {
                    c.states.insert(st::DISCARDING.into());
                }
                process_removals(m)?;
                if game_over(&m.game) {
                    return Ok(());
                }
            }
        }
    }
    Ok(())
}

pub(super) fn phase_end(m: &mut M) -> R<()> {
    let i = phase_index(&m.game.turn.phase);
    m.record(
        "phase.end",
        format!(
            "every player passed in succession with no interference open: the {} phase ends",
            m.game.turn.phase
        ),
        &[
            r::ALL_PASS_PHASE_END,
            r::PHASE_END_ALL_PASS,
            r::TURN_PHASES,
            r::PHASE_PARTS,
            r::ONE_WAY,
        ],
    );
    let _ = i;
    phase_end_procedure(m, false)
}

pub(super) fn turn_end(m: &mut M) -> R<()> {
    m.game.turn.phase = "end".into();
    reset_damage(m, r::TURN_END_RESET);
    // 4.9.1.b: "until end of turn" effects end.
    let mut ended = 0;
    for c in m.game.cards.values_mut() {
        let n = c.modifiers.len();
        c.modifiers.retain(|md| md.until != Until::EndOfTurn);
        ended += n - c.modifiers.len();
    }
    end_standing(&mut m.game, Until::EndOfTurn);
    ended += end_info_changes(m, Until::EndOfTurn);
    m.record(
        "turn.end",
        format!("end of turn: damage is reset and {ended} until-end-of-turn modification(s) end; no one gets priority"),
        &[r::TURN_END, r::PH_END, r::NO_PRIORITY_START_END, r::TURN_END_DURATIONS, r::TURN_END_EFFECTS],
    );
    fire_all(m, "end_of_turn", r::TURN_END_EFFECTS)?;
    flush(m)?;
    if game_over(&m.game) {
        return Ok(());
    }
    turn_stops_applying(m)?;
    leader::end_of_turn(m)?;
    if game_over(&m.game) {
        return Ok(());
    }
    let next = m.game.opponent(m.game.turn.active);
    m.game.turn.active = next;
    m.game.turn.number += 1;
    vars_mut(&mut m.game).retain(|k, _| !k.starts_with("turn."));
    m.game.own::<PmvState>().turn = TurnFlags::default();
    m.record(
        "turn.next",
        format!("{}'s turn begins", player_name(next)),
        &[r::TURN_END_NEXT],
    );
    m.then([Step::TurnStart]);
    Ok(())
}

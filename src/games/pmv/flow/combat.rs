//! Attack and block declarations (6.3, 6.4) and the ten-step combat procedure (6.2.4 a–j), with first strike, pierce and graze (6.5).

use super::*;

pub(super) fn declare_attack(m: &mut M, mut p: Pri, player: PlayerId, card: &str) -> R<()> {
    let g = &m.game;
    let alts = legal_actions(g, &p);
    let fail = |rule, msg: String| illegal(rule, msg, alts.clone());
    let tp = g.turn.active;
    if player != tp {
        return Err(fail(r::ATTACK_TP, "only the turn player attacks".into()));
    }
    if g.turn.phase != "main" {
        return Err(fail(
            r::ATTACK_MAIN,
            "attacks are made only in the main phase".into(),
        ));
    }
    if p.open() {
        return Err(fail(
            r::ATTACK_NO_INTERFERENCE,
            "an attack is declared only when no interference is open".into(),
        ));
    }
    if without_information(g, card) {
        return Err(fail(
            r::FACE_DOWN_NO_INFO,
            format!("{card} is face down: it has no information and is no character"),
        ));
    }
    if !g.zone_of(tp, zn::FIELD).iter().any(|c| c == card) || !is_character(g, card) {
        return Err(fail(
            r::ATTACK_OWN_FIELD,
            format!("{card} is not a character on {}'s field", player_name(tp)),
        ));
    }
    if g.card(card).is_some_and(|c| c.has(st::SLEEP)) {
        return Err(fail(
            r::ATTACK_ACTIVE,
            format!("{card} is asleep: only an active character can attack"),
        ));
    }
    if has_kw(g, card, "doll") {
        return Err(fail(
            r::DOLL_NO_ATTACK,
            format!("{card} is a doll: it cannot attack"),
        ));
    }
    check_restrictions(g, &alts, player, card, Restricted::Attack)?;
    if let Some(c) = m.game.cards.get_mut(card) {
        c.states.insert(st::SLEEP.into());
    }
    let def_p = m.game.opponent(tp);
    m.record(
        "attack.declare",
        format!(
            "{} attacks {} with {card}; {card} goes to sleep and an interference opens",
            player_name(tp),
            player_name(def_p)
        ),
        &[
            r::ATTACK_DEF,
            r::ATTACK_BY_PLAYER,
            r::ATTACK_DECLARE,
            r::ATTACK_SLEEP,
            r::ATTACK_OPENS,
            r::INTERFERENCE_OPENS,
            r::OPENS_BY_ATTACK,
            r::PRIORITY_ACTIONS,
            r::PA_ATTACK,
            r::ATTACK_TP,
            r::ATTACK_MAIN,
            r::ATTACK_NO_INTERFERENCE,
            r::ATTACK_CAPABLE_EXISTS,
            r::ATTACK_CAPABLE,
            r::ATTACK_OWN_FIELD,
            r::ATTACK_ACTIVE,
            r::ATTACK_CANT,
        ],
    )
    .obj(card.to_string())
    .change(format!("{card}.sleep"), false, true);
    interference_opens(&mut m.game);
    attack_or_block_effects(m, card, "on_attack", r::ATTACK_WHEN)?;
    if game_over(&m.game) {
        return Ok(());
    }
    if let Some(c) = m.game.cards.get_mut(card)
        && c.zone.kind == zn::FIELD
    {
        c.states.insert(st::ATTACKING.into());
    }
    if on_field(&m.game, card) {
        m.record(
            "attack.becomes",
            format!("{card} is the attacking character"),
            &[r::ATTACK_BECOMES, r::ATTACK_AFTER],
        );
    } else {
        m.record(
            "attack.cancelled",
            format!("{card} left the field during the attack procedure: the attack is cancelled; the interference goes on without combat"),
            &[r::ATTACK_CANCELLED, r::ATTACK_CANCEL_LEFT],
        );
    }
    p.attack = Some(tgt(&m.game, card));
    p.passes = 0;
    p.holder = def_p;
    p.block_window = true;
    m.record(
        "attack.pass",
        format!(
            "priority passes to {}, who may block with it",
            player_name(def_p)
        ),
        &[r::ATTACK_PASS],
    );
    give_priority(m, p);
    Ok(())
}

pub(super) fn declare_block(m: &mut M, mut p: Pri, player: PlayerId, card: &str) -> R<()> {
    let g = &m.game;
    let alts = legal_actions(g, &p);
    let fail = |rule, msg: String| illegal(rule, msg, alts.clone());
    if p.attack.as_ref().is_none_or(|a| !same_on_field(g, a)) {
        return Err(fail(
            r::BLOCK_ATTACKER,
            "there is no attacking character to block".into(),
        ));
    }
    if p.blocker.is_some() {
        return Err(fail(
            r::ONE_BLOCKER,
            "there is already a blocking character".into(),
        ));
    }
    let answered_first = !p.block_window;
    if answered_first && !may_block_now(g, &p) {
        return Err(fail(
            r::BLOCK_PRIORITY,
            format!(
                "a block is declared only with the priority the attack passed, before doing anything else (judge's reading of 6.4.2.a; option {BLOCK_AFTER_ANSWERING}: any priority the attacked player holds while the attack is open)"
            ),
        ));
    }
    if without_information(g, card) {
        return Err(fail(
            r::FACE_DOWN_NO_INFO,
            format!("{card} is face down: it has no information and is no character"),
        ));
    }
    if !g.zone_of(player, zn::FIELD).iter().any(|c| c == card) || !is_character(g, card) {
        return Err(fail(
            r::BLOCK_OWN_FIELD,
            format!(
                "{card} is not a character on {}'s field",
                player_name(player)
            ),
        ));
    }
    if g.card(card).is_some_and(|c| c.has(st::SLEEP)) {
        return Err(fail(
            r::BLOCK_ACTIVE,
            format!("{card} is asleep: only an active character can block"),
        ));
    }
    check_restrictions(g, &alts, player, card, Restricted::Block)?;
    if let Some(c) = m.game.cards.get_mut(card) {
        c.states.insert(st::SLEEP.into());
    }
    m.record(
        "block.declare",
        format!(
            "{} blocks with {card}; {card} goes to sleep",
            player_name(player)
        ),
        &[
            r::BLOCK_DEF,
            r::BLOCK_DECLARE,
            r::BLOCK_SLEEP,
            r::BLOCK_PRIORITY,
            r::PRIORITY_ACTIONS,
            r::PA_BLOCK,
            r::BLOCK_ATTACKER,
            r::BLOCK_CAPABLE_EXISTS,
            r::BLOCK_CAPABLE,
            r::BLOCK_OWN_FIELD,
            r::BLOCK_ACTIVE,
        ],
    )
    .obj(card.to_string())
    .change(format!("{card}.sleep"), false, true);
    if answered_first && let Some(e) = m.trace.last_mut() {
        e.note(format!("reading chosen by the scenario ({BLOCK_AFTER_ANSWERING}): 6.4.2.a's \"priority moved by the attack\" is read as any priority the attacked player holds while the attack is open, so a block may follow an answer"));
    }
    attack_or_block_effects(m, card, "on_block", r::BLOCK_WHEN)?;
    if game_over(&m.game) {
        return Ok(());
    }
    if let Some(c) = m.game.cards.get_mut(card)
        && c.zone.kind == zn::FIELD
    {
        c.states.insert(st::BLOCKING.into());
    }
    p.blocker = Some(tgt(&m.game, card));
    p.passes = 0;
    p.block_window = false;
    p.holder = m.game.opponent(player);
    m.record(
        "block.pass",
        format!(
            "{card} is the blocking character; priority passes to {}",
            player_name(p.holder)
        ),
        &[r::BLOCK_BECOMES, r::BLOCK_AFTER, r::BLOCK_PASS],
    );
    give_priority(m, p);
    Ok(())
}

/// Combat, the ten steps of 6.2.4.
pub(super) fn combat(m: &mut M, att: &Tgt, blk: Option<&Tgt>) -> R<()> {
    let attacker = att.0.clone();
    let tp = m.game.turn.active;
    // The attacked player: the opponent of the attacker's controller (an
    // effect may make a non-turn player's character attack, 6.3.5).
    let defender = m
        .game
        .card(&attacker)
        .map_or_else(|| m.game.opponent(tp), |c| m.game.opponent(c.controller));
    m.record(
        "combat.a",
        "combat: every entry other than the attack and the block has resolved",
        &[
            r::COMBAT_DEF,
            r::COMBAT_AT_END,
            r::COMBAT_A,
            r::RESOLVE_COMBAT,
        ],
    );
    if !attack_stands(&m.game, att) {
        m.record(
            "combat.cancelled",
            format!("{attacker} left the field or its attack was cancelled: the attack is cancelled and no combat takes place; the block is cancelled with it"),
            &[r::ATTACK_CANCELLED, r::ATTACK_CANCEL_LEFT, r::BLOCK_CANCEL_WITH_ATTACK],
        );
        clear_combat_states(m);
        return Ok(());
    }
    vars_mut(&mut m.game).remove(&format!("combat.graze_damage.{}", player_name(defender)));
    // b.
    m.record("combat.b", "start of combat", &[r::COMBAT_B]);
    fire_all(m, "start_of_combat", r::COMBAT_B)?;
    if game_over(&m.game) {
        return Ok(());
    }
    if cancelled_in_combat(m, att, "b") {
        return end_combat(m, true);
    }
    let mut blocker = blk.cloned();
    if let Some(b) = &blocker
        && has_kw(&m.game, &attacker, "stealth")
        && same_on_field(&m.game, b)
    {
        let ta: BTreeSet<String> = def(&m.game, &attacker)
            .map(|d| d.traits.iter().cloned().collect())
            .unwrap_or_default();
        let shares = def(&m.game, &b.0).is_some_and(|d| d.traits.iter().any(|t| ta.contains(t)));
        if shares {
            m.record(
                "stealth",
                format!(
                    "{attacker} has stealth, but {} shares a race with it: the block stands",
                    b.0
                ),
                &[r::STEALTH],
            );
        } else {
            m.record(
                "stealth",
                format!(
                    "{attacker} has stealth: the block by {} is cancelled at the start of combat; combat goes on",
                    b.0
                ),
                &[r::STEALTH, r::BLOCK_CANCELLED_CONTINUES],
            );
            if let Some(c) = m.game.cards.get_mut(b.0.as_str()) {
                c.states.remove(st::BLOCKING);
            }
            blocker = None;
        }
    }
    // c: fix the recipient.
    let blocker_now = blocker.filter(|b| same_on_field(&m.game, b));
    let recipient: Option<Tgt> = match &blocker_now {
        Some(b) => {
            m.record(
                "combat.c",
                format!(
                    "{attacker}'s combat damage will go to the blocking character {}",
                    b.0
                ),
                &[r::COMBAT_C, r::RECIPIENT, r::RECIPIENT_BLOCKER],
            );
            Some(b.clone())
        }
        None if blk.is_some() && reading(&m.game, BLOCKER_GONE_NO_DAMAGE) => {
            m.record(
                "combat.c",
                format!("{attacker} was blocked and the blocker is gone: no one receives its combat damage"),
                &[r::COMBAT_C, r::RECIPIENT, r::RECIPIENT_BLOCKER],
            )
            .note(format!("reading chosen by the scenario ({BLOCKER_GONE_NO_DAMAGE}): a blocked attack stays blocked when its blocker leaves, so the attacked player is not the recipient (6.2.6 names the blocking character)"));
            None
        }
        None => {
            let e = m.record(
                "combat.c",
                format!(
                    "{attacker}'s combat damage will go to {}",
                    player_name(defender)
                ),
                &[r::COMBAT_C, r::RECIPIENT, r::RECIPIENT_PLAYER],
            );
            if blk.is_some() {
                e.note(format!("judge's reading: the blocker is gone at step c, so no blocking character exists and the attacked player receives the damage (6.2.6; the rules have no explicit block-cancel rule here; option {BLOCKER_GONE_NO_DAMAGE}: no one receives it)"));
            }
            Some((player_name(defender), 0))
        }
    };
    let strike_back = !reading(&m.game, BLOCKER_NO_DAMAGE);
    // d, e: first strike then normal.
    for (first, step, rule) in [
        (true, "combat.d", r::COMBAT_D),
        (false, "combat.e", r::COMBAT_E),
    ] {
        let mut batch = Vec::new();
        let att_ok = attack_stands(&m.game, att) && !m.game.card(&attacker).is_some_and(removing);
        let rec_ok = |rc: &Tgt| {
            rc.1 == 0 && parse_player(&rc.0, m.game.players.len()).is_some()
                || same_on_field(&m.game, rc)
        };
        if let Some(recipient) = &recipient
            && att_ok
            && rec_ok(recipient)
            && has_kw(&m.game, &attacker, "first_strike") == first
        {
            let a = m
                .game
                .card(&attacker)
                .map(|c| attack(&m.game, c))
                .unwrap_or(0);
            batch.push(Dmg {
                source: attacker.clone().into(),
                to: Recipient::of(&recipient.0, m.game.players.len()),
                amount: a,
                combat: true,
                pierce: false,
            });
        }
        if let Some(b) = &blocker_now
            && strike_back
            && same_on_field(&m.game, b)
            && same_on_field(&m.game, att)
            && has_kw(&m.game, &b.0, "first_strike") == first
        {
            let a = m.game.card(&b.0).map(|c| attack(&m.game, c)).unwrap_or(0);
            batch.push(Dmg {
                source: b.0.clone().into(),
                to: Recipient::Card(attacker.clone().into()),
                amount: a,
                combat: true,
                pierce: false,
            });
        }
        let e = m.record(
            step,
            if first {
                "first-strike combat damage"
            } else {
                "normal combat damage"
            },
            &[rule, r::COMBAT_DAMAGE],
        );
        if !batch.is_empty() {
            e.note(if strike_back || blocker_now.is_none() {
                "judge's reading: each character deals combat damage equal to its attack, and a blocker deals its attack back to the attacker (implied by 6.2.1, 6.2.4.d/e, 10.5.2.a, 10.8; never stated)"
            } else {
                "reading chosen by the scenario (reading_blocker_deals_no_damage): the blocker deals no combat damage to the attacker"
            });
        }
        if batch.len() > 1 {
            e.rule(r::DAMAGE_SIMULTANEOUS);
        }
        if first && !batch.is_empty() {
            e.rule(r::FIRST_STRIKE);
            e.text.push_str(&format!(
                ": {} deal(s) damage at first-strike timing",
                batch
                    .iter()
                    .map(|d| d.source.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        damage(m, batch)?;
        if game_over(&m.game) {
            return Ok(());
        }
        if cancelled_in_combat(m, att, &step["combat.".len()..]) {
            return end_combat(m, true);
        }
    }
    // f.
    m.record(
        "combat.f",
        "remaining combat effects resolve",
        &[r::COMBAT_F],
    );
    if cancelled_in_combat(m, att, "f") {
        return end_combat(m, true);
    }
    // g: graze (an attack cancelled during combat ended it above, 6.3.7).
    let took = var(
        &m.game,
        &format!("combat.graze_damage.{}", player_name(defender)),
    );
    let x = stat(&m.game, &attacker, "graze");
    if took >= 1 && x > 0 {
        // The player who took the damage decides (6.2.4.g): the choice
        // is written on their action, or addressed to them (`p2.graze`)
        // on the action that reaches this step; unaddressed on the other
        // player's action it is refused (the core's declared decider).
        let options = ["true", "false"];
        let (key, v) = m.decided_by(defender, |m| {
            Ok((
                m.choices.shown("graze"),
                m.choices.require("graze", &options)?,
            ))
        })?;
        let yes = match v {
            Value::Bool(b) => b,
            v => {
                return Err(EngineError::BadChoice {
                    choice: key,
                    value: v.to_string(),
                    options: options.map(String::from).to_vec(),
                });
            }
        };
        if yes {
            let put = top_cards_for_nodes(&m.game, defender, x);
            for id in &put {
                m.game.move_card(id, ZoneId::of(defender, zn::NODE), false);
                if let Some(c) = m.game.cards.get_mut(id) {
                    c.states.insert(st::SLEEP.into());
                }
            }
            let short_note = short_deck_note(&m.game, "graze");
            let e = m.record(
                "combat.g",
                format!("graze: {} took {took} combat damage and puts the top {} card(s) of their deck into their node area, asleep (graze {x})", player_name(defender), put.len()),
                &[r::COMBAT_G, r::GRAZE, r::GRAZE_FROM_CHARACTER, r::GRAZE_NOT_PIERCE, r::GRAZE_CHOOSE, r::GRAZE_NODES, r::NODE_ADD],
            );
            if (put.len() as i64) < x {
                e.note(short_note);
            }
        } else {
            m.record(
                "combat.g",
                format!("graze: {} chooses not to graze", player_name(defender)),
                &[r::COMBAT_G, r::GRAZE_CHOOSE],
            );
        }
    } else {
        m.record(
            "combat.g",
            format!("graze: {} took {took} combat damage from an opposing character other than pierce; graze value {x}: no graze", player_name(defender)),
            &[r::COMBAT_G, r::GRAZE_FROM_CHARACTER, r::GRAZE_NOT_PIERCE],
        );
    }
    end_combat(m, false)
}

/// 6.3.7: an attack cancelled during combat, between steps b and f (an
/// effect cancelled it, or the attacker left the field, 6.3.6), ends the
/// combat right after the step being processed: no later step of 6.2.4
/// (no more combat damage, no graze).
fn cancelled_in_combat(m: &mut M, att: &Tgt, step: &str) -> bool {
    if attack_stands(&m.game, att) {
        return false;
    }
    let (why, rule) = if same_on_field(&m.game, att) {
        (
            "its attack was cancelled by an effect",
            r::ATTACK_CANCEL_EFFECT,
        )
    } else {
        ("it left the field", r::ATTACK_CANCEL_LEFT)
    };
    m.record(
        "combat.cancelled",
        format!(
            "{}'s attack is cancelled during step 6.2.4.{step}: {why}; combat ends right after that step: no further combat damage and no graze",
            att.0
        ),
        &[
            r::ATTACK_CANCELLED,
            rule,
            r::CANCEL_DURING_COMBAT,
            r::CANCEL_RESET,
            r::CANCEL_DURATIONS,
            r::CANCEL_END_EFFECTS,
        ],
    );
    true
}

/// The end of combat: combat damage reset, until-end-of-combat effects
/// end, end-of-combat effects resolve: steps h–j of 6.2.4, or, for a
/// combat ended by a cancelled attack, the same three steps a–c of 6.3.7.
fn end_combat(m: &mut M, cancelled: bool) -> R<()> {
    let (reset, durations, end) = if cancelled {
        (r::CANCEL_RESET, r::CANCEL_DURATIONS, r::CANCEL_END_EFFECTS)
    } else {
        (r::COMBAT_H, r::COMBAT_I, r::COMBAT_J)
    };
    let mut changed = Vec::new();
    for id in all_characters(&m.game) {
        if let Some(c) = m.game.cards.get_mut(&id)
            && let Some(v) = c.counters.remove(COMBAT_DAMAGE)
            && v != 0
        {
            changed.push((id, v));
        }
    }
    let e = m.record(
        "combat.h",
        "combat damage on characters is reset; effect damage stays until the turn's start or end",
        &[reset, r::RESET_COMBAT],
    );
    for (id, v) in changed {
        e.change(format!("{id}.combat_damage"), v, 0);
    }
    m.record("combat.i", "until-end-of-combat effects end", &[durations]);
    m.record("combat.j", "end of combat", &[end]);
    fire_all(m, "end_of_combat", end)?;
    clear_combat_states(m);
    Ok(())
}

pub(super) fn clear_combat_states(m: &mut M) {
    for c in m.game.cards.values_mut() {
        c.states.remove(st::ATTACKING);
        c.states.remove(st::BLOCKING);
    }
}

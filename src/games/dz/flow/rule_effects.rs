//! Rule effects (4.16): checked whenever a player would receive priority,
//! all that apply at once, again until none applies (4.16.2); never during
//! a resolution (4.16.3). Battle occurrence is processed after every other
//! rule effect (4.16.4-3-1, 3.11.1-1). Also what the module refuses to run
//! at all (`refuse`).

use std::collections::BTreeMap;

use crate::engine::{CardId, EngineError, Game, player_name};

use super::{
    Central, M, battle, board, ctype, dz, dz_ref, game_over, label, moves, ni, power, r, types,
};

/// Applies rule effects until none applies; whether any did.
pub fn check(m: &mut M) -> Result<bool, EngineError> {
    let mut any = false;
    for _ in 0..256 {
        if losses(m) {
            return Ok(true);
        }
        let doomed = doomed(&m.game);
        if !doomed.is_empty() {
            for (id, rule, why) in &doomed {
                // A unit that would have caused a battle: the other rule
                // effect goes first, so no battle occurs (3.11.1-1).
                let contested = m.game.card(id).is_some_and(|c| {
                    board::square(c.zone.kind).is_some_and(|sq| {
                        board::units_on(&m.game, sq)
                            .iter()
                            .any(|u| m.game.card(u).is_some_and(|x| x.controller != c.controller))
                    })
                });
                let unbattled = contested
                    && !dz_ref(&m.game)
                        .battles
                        .iter()
                        .any(|b| b.units.contains_key(id.as_str()));
                let attack_triggers = unbattled && attack_triggers_on(&m.game, id);
                let e = m.record(
                    "rule_effect",
                    format!(
                        "rule effect: {} {why}: to its owner's graveyard",
                        label(&m.game, id)
                    ),
                    &[r::RULE_EFFECTS_CHECKED, rule],
                );
                e.rules.push(r::RULE_EFFECTS);
                e.rules.push(r::RULE_EFFECTS_NOT_DURING);
                if *rule == r::RE_BASE_IN_BATTLE || *rule == r::RE_UNIT_IN_BASE {
                    e.rules.push(r::WHERE_CARDS_GO);
                }
                if unbattled {
                    e.rules.push(r::BATTLE_OTHER_FIRST);
                    e.rules.push(r::RE_BATTLE_LAST);
                    e.rules.push(r::RE_BATTLE_CANCELLED);
                    e.text
                        .push_str(" (before the battle it would cause: no battle occurs)");
                    if attack_triggers {
                        // No battle: nobody attacks or is attacked, so
                        // no attack trigger (3.12.1).
                        e.rules.push(r::FIRST_STEP);
                        e.text.push_str(
                            "; no unit attacks or is attacked, so no 'when it attacks' or 'when it is attacked' ability triggers",
                        );
                    }
                }
            }
            // One round of rule effects is one simultaneous event.
            super::watchers::new_batch(&mut m.game);
            for (id, _, _) in doomed {
                moves::destroy(m, &id);
            }
            any = true;
            continue;
        }
        if central(m) {
            any = true;
            continue;
        }
        if battle::occur(m)? {
            any = true;
            continue;
        }
        break;
    }
    Ok(any)
}

/// A strategy's text has no square to measure `same_line`, `same_area` or
/// `adjacent` from (its own lines and areas are not named by the engine,
/// e.g. 「対象のライン」): refused rather than finding no card.
fn refuse_relative_region(key: &str, effects: &[crate::engine::Effect]) -> Result<(), EngineError> {
    let relative = |e: &crate::engine::Effect| {
        super::targets::target_of(e).is_some_and(|t| match t {
            crate::engine::Target::Chosen { filter, .. }
            | crate::engine::Target::All { filter } => {
                matches!(
                    filter.region.as_deref(),
                    Some("same_line" | "same_area" | "adjacent")
                )
            }
            _ => false,
        })
    };
    if effects.iter().any(relative) {
        return Err(ni(
            r::LINES,
            format!(
                "card `{key}`: a strategy's text measuring a line or area from a square it names"
            ),
        ));
    }
    Ok(())
}

/// Whether a unit on `id`'s square has a 「攻撃した時」 or 「攻撃された時」
/// ability (3.12.1).
fn attack_triggers_on(g: &Game, id: &str) -> bool {
    let Some(sq) = g.card(id).and_then(|c| board::square(c.zone.kind)) else {
        return false;
    };
    board::units_on(g, sq).iter().any(|u| {
        g.def_of(u).is_some_and(|d| {
            d.abilities
                .iter()
                .any(|a| a.trigger == "on_attack" || a.trigger == "on_attacked")
        })
    })
}

/// 4.16.4-1 / -2: 7 or more smash cards, or no card left in the deck (the
/// plan card counts), loses; both at once is a draw (3.3.4).
fn losses(m: &mut M) -> bool {
    let mut lost = Vec::new();
    for p in m.game.player_ids() {
        let smash = m.game.zone_of(p, "smash").len();
        let deck = m.game.zone_of(p, "deck").len() + m.game.zone_of(p, "plan").len();
        if smash >= 7 {
            lost.push((
                p,
                r::RE_SMASH,
                r::LOSS_SMASH,
                format!("has {smash} cards in the smash zone"),
            ));
        } else if deck == 0 {
            lost.push((
                p,
                r::RE_DECK,
                r::LOSS_DECK,
                "has no card in the deck".to_string(),
            ));
        }
    }
    if lost.is_empty() {
        return false;
    }
    for (p, re, rule, why) in &lost {
        m.game.players[*p].lost = true;
        m.record(
            "rule_effect",
            format!(
                "rule effect: {} {why}: {} loses the duel",
                player_name(*p),
                player_name(*p)
            ),
            &[r::RULE_EFFECTS_CHECKED, re, rule],
        );
    }
    game_over(m);
    true
}

/// The cards the simultaneous rule effects 4.16.4-4 … -7, -13, -14 put
/// into the graveyard, with the clause and the reason.
fn doomed(g: &Game) -> Vec<(CardId, &'static str, String)> {
    let d = dz_ref(g);
    let mut out: Vec<(CardId, &'static str, String)> = Vec::new();
    let push = |out: &mut Vec<(CardId, &'static str, String)>, id: &CardId, rule, why: String| {
        if !out.iter().any(|(x, _, _)| x == id) {
            out.push((id.clone(), rule, why));
        }
    };
    for p in g.player_ids() {
        for sq in board::SQUARES {
            let ids = g.zone_of(p, sq);
            for id in ids {
                let Some(c) = g.card(id) else { continue };
                match ctype(g, id) {
                    types::UNIT => {
                        let pw = power(g, c);
                        if pw <= 0 {
                            push(&mut out, id, r::RE_POWER, format!("has power {pw}"));
                        } else if c.damage >= pw {
                            push(
                                &mut out,
                                id,
                                r::RE_DAMAGE,
                                format!("has {} damage, power {pw}", c.damage),
                            );
                        }
                    }
                    types::BASE => push(
                        &mut out,
                        id,
                        r::RE_BASE_IN_BATTLE,
                        "is a base in the battle space".into(),
                    ),
                    _ => {}
                }
            }
            later_arrivals(&d.arrived, ids, &mut |id| {
                push(
                    &mut out,
                    id,
                    r::RE_SAME_SQUARE,
                    format!(
                        "arrived later on {sq}, where another unit of {} is",
                        player_name(p)
                    ),
                )
            });
        }
        for b in board::BASES {
            let ids = g.zone_of(p, b);
            for id in ids {
                if ctype(g, id) == types::UNIT {
                    push(
                        &mut out,
                        id,
                        r::RE_UNIT_IN_BASE,
                        "is a unit in the base space".into(),
                    );
                }
            }
            later_arrivals(&d.arrived, ids, &mut |id| {
                push(
                    &mut out,
                    id,
                    r::RE_SAME_BASE,
                    format!("arrived later on {}'s {b}", player_name(p)),
                )
            });
        }
    }
    out
}

/// Of several cards of one controller on one square, every one but the
/// first to arrive; all of them when they all arrived at once (4.16.4-6).
fn later_arrivals(arrived: &BTreeMap<CardId, u64>, ids: &[CardId], f: &mut dyn FnMut(&CardId)) {
    if ids.len() < 2 {
        return;
    }
    let seq = |id: &CardId| arrived.get(id).copied().unwrap_or(0);
    let first = ids.iter().map(seq).min().unwrap_or(0);
    let firsts = ids.iter().filter(|i| seq(i) == first).count();
    for id in ids {
        if seq(id) != first || firsts > 1 {
            f(id);
        }
    }
}

/// 4.16.4-8: a unit played into the central area where no battle occurs
/// goes to the graveyard; where one occurs, it waits for the battle's end
/// (4.16.4-9, handled by the battle).
fn central(m: &mut M) -> bool {
    let placed: Vec<CardId> = dz_ref(&m.game)
        .central
        .iter()
        .filter(|(_, s)| matches!(s, Central::Placed))
        .map(|(id, _)| id.clone())
        .collect();
    let mut acted = false;
    for id in placed {
        let Some(c) = m.game.card(&id).cloned() else {
            continue;
        };
        let Some(sq) = board::square(c.zone.kind) else {
            dz(&mut m.game).central.remove(&id);
            continue;
        };
        let opposed = board::units_on(&m.game, sq)
            .iter()
            .any(|u| m.game.card(u).is_some_and(|x| x.controller != c.controller));
        let running = dz_ref(&m.game)
            .battles
            .iter()
            .find(|b| b.square == sq)
            .map(|b| b.id);
        match (opposed, running) {
            (true, Some(b)) => {
                dz(&mut m.game).central.insert(id, Central::InBattle(b));
            }
            (true, None) => {}
            (false, _) => {
                m.record(
                    "rule_effect",
                    format!(
                        "rule effect: {} was played into the central area and no battle occurs there: to its owner's graveyard",
                        label(&m.game, &id)
                    ),
                    &[r::RULE_EFFECTS_CHECKED, r::RE_CENTRAL, r::UNIT_CENTRAL],
                );
                moves::destroy(m, &id);
                acted = true;
            }
        }
    }
    acted
}

/// A starting board no duel can reach: two units of one player on one
/// battle square, or two bases of one player on one base square. The
/// rule effect (4.16.4-6, 4.16.4-7) sends the later arrival to the
/// graveyard before any player could act, and a board does not say which
/// card came later: ruling on it would invent an arrival order.
pub fn unreachable_board(g: &Game) -> Result<(), EngineError> {
    let places = [
        (
            &board::SQUARES[..],
            types::UNIT,
            "units",
            "battle square",
            r::RE_SAME_SQUARE,
        ),
        (
            &board::BASES[..],
            types::BASE,
            "bases",
            "base square",
            r::RE_SAME_BASE,
        ),
    ];
    for p in g.player_ids() {
        for (zones, kind, plural, place, rule) in places {
            for z in zones {
                let ids: Vec<&str> = g
                    .zone_of(p, z)
                    .iter()
                    .filter(|id| ctype(g, id) == kind)
                    .map(|id| id.as_str())
                    .collect();
                if ids.len() > 1 {
                    return Err(super::bad(format!(
                        "illegal board: {} has {} {plural} on {z} ({}); a {place} holds one of each player's {plural} (rule effect {rule}: a later arrival goes to the graveyard, and the board cannot say which came later)",
                        player_name(p),
                        ids.len(),
                        ids.join(", ")
                    )));
                }
            }
        }
    }
    Ok(())
}

/// Boards and card text the module does not implement, refused before
/// anything runs.
pub fn refuse(g: &Game) -> Result<(), EngineError> {
    const NOT_YET: &[(&str, &str)] = &[
        ("rampage", r::RAMPAGE),
        ("call", r::CALL),
        ("linkage", r::LINKAGE),
    ];
    // Keywords whose card names a word from a list in a text field.
    let named: [(&str, &str, &str, &str, Vec<&str>); 3] = [
        (
            "muster",
            "muster",
            r::MUSTER,
            "召集 names its square condition (a region for one square)",
            super::board::REGIONS
                .iter()
                .copied()
                .filter(|t| super::special_play::muster_region(t))
                .collect(),
        ),
        (
            "formation_summon",
            "formation",
            r::FORMATION,
            "隊列召喚 names its definition",
            super::special_play::FORMATIONS.to_vec(),
        ),
        (
            "zone_effect",
            "effect_zone",
            r::ZONE_EFFECT,
            "a zone effect names its zone",
            super::zone_effect::ZONES.to_vec(),
        ),
    ];
    let used: std::collections::BTreeSet<&str> = g.cards.values().map(|c| c.def.as_str()).collect();
    for key in used {
        let Some(d) = g.defs.get(key) else { continue };
        for (k, clause) in NOT_YET {
            if d.has_keyword(k) {
                return Err(ni(clause, format!("keyword `{k}` of card `{key}`")));
            }
        }
        for (kw, field, clause, what, options) in &named {
            if d.has_keyword(kw)
                && !d
                    .text
                    .get(*field)
                    .is_some_and(|t| options.contains(&t.as_str()))
            {
                return Err(ni(
                    clause,
                    format!(
                        "card `{key}`: {what} in the text `{field}` ({})",
                        options.join(", ")
                    ),
                ));
            }
        }
        if d.has_keyword("pincer") && !d.abilities.iter().any(|a| a.trigger == "on_placed") {
            return Err(super::bad(format!(
                "card `{key}`: 挟撃 (`pincer`) writes what it does as the card's `on_placed` abilities, and it has none"
            )));
        }
        if let Some(t) = d.text.get("divide")
            && t != "damage"
        {
            return Err(ni(
                r::DIVIDE,
                format!("card `{key}`: divide `{t}` (only `damage` is implemented)"),
            ));
        }
        if let Some(t) = d.text.get("attribute")
            && t != "link"
        {
            return Err(ni(
                r::BOND,
                format!(
                    "card `{key}`: attribute `{t}` (only `link`, 属性「リンク」, is implemented)"
                ),
            ));
        }
        if let Some(t) = d.text.get("timing")
            && !["normal", "quick", "battle"].contains(&t.as_str())
        {
            return Err(super::bad(format!(
                "card `{key}`: timing `{t}` is not normal, quick or battle (2.9)"
            )));
        }
        if let Some(t) = d.text.get("support_range")
            && !["same_line", "same_area", "adjacent"].contains(&t.as_str())
        {
            return Err(ni(r::SUPPORT, format!("支援 range `{t}` of card `{key}`")));
        }
        if let Some(t) = d.text.get("watch")
            && !["same_line", "same_area", "adjacent"].contains(&t.as_str())
        {
            return Err(ni(
                r::EACH_EVENT,
                format!("card `{key}`: watched region `{t}`"),
            ));
        }
        if let Some(t) = d.text.get("toki_host")
            && t != super::attach::NO_TOKI
        {
            return Err(super::bad(format!(
                "card `{key}`: toki_host `{t}` is not {}",
                super::attach::NO_TOKI
            )));
        }
        if let Some(t) = d.text.get("put_state")
            && !["released", "frozen", "unchanged"].contains(&t.as_str())
        {
            return Err(super::bad(format!(
                "card `{key}`: put_state `{t}` is not released, frozen or unchanged"
            )));
        }
        if let Some(t) = d.text.get("resistance")
            && !super::COLOURS.contains(&t.as_str())
        {
            return Err(ni(
                r::RESISTANCE,
                format!("耐性 condition `{t}` of card `{key}` (only a colour is implemented)"),
            ));
        }
        for a in &d.abilities {
            for e in &a.effect {
                super::amount::refuse(key, e)?;
                super::put::refuse(key, e)?;
                super::swap::refuse(key, e)?;
                super::search::refuse(key, e)?;
                let divides = d.text.contains_key("divide");
                super::targets::refuse(key, divides, e)?;
                if e.filters()
                    .iter()
                    .any(|(_, f)| f.region.as_deref() == Some(super::put::EVENT_SQUARE))
                {
                    return Err(ni(
                        r::PLACED_FROM_ELSEWHERE,
                        format!(
                            "card `{key}`: `event_square` as a target filter's region (only a `put` goes there)"
                        ),
                    ));
                }
                if let Some(c) = e
                    .filters()
                    .iter()
                    .find_map(|(_, f)| f.colour.as_deref())
                    .filter(|c| !super::COLOURS.contains(c))
                {
                    return Err(super::bad(format!(
                        "card `{key}`: colour `{c}` (one of {})",
                        super::COLOURS.join(", ")
                    )));
                }
                super::restrict::refuse(key, e)?;
                match e {
                    crate::engine::Effect::SetState { state, .. } if state != super::FROZEN => {
                        return Err(ni(r::STATES, format!("card `{key}`: state `{state}`")));
                    }
                    // DZ's static abilities give keywords (「…を得る」) and
                    // add races (「種族に…を加える」); taking keywords away
                    // and changing names, types or text are not built.
                    crate::engine::Effect::ChangeKeywords { lose, .. } if !lose.is_empty() => {
                        return Err(ni(
                            r::CONTINUOUS,
                            format!(
                                "card `{key}`: `change_keywords` taking keywords away (`lose`)"
                            ),
                        ));
                    }
                    crate::engine::Effect::ChangeInfo { .. } if super::colour::is_change(e) => {
                        super::colour::refuse(key, &a.trigger, e)?;
                    }
                    crate::engine::Effect::ChangeInfo {
                        name,
                        card_type,
                        replace_traits,
                        text,
                        ..
                    } if name.is_some()
                        || card_type.is_some()
                        || *replace_traits
                        || !text.is_empty() =>
                    {
                        return Err(ni(
                            r::CONTINUOUS,
                            format!("card `{key}`: `change_info` other than adding `traits`"),
                        ));
                    }
                    crate::engine::Effect::ChangeKeywords { .. }
                    | crate::engine::Effect::ChangeInfo { .. }
                    | crate::engine::Effect::SetCost { .. }
                        if a.trigger != super::statics::STATIC =>
                    {
                        // Only static abilities give keywords, add races
                        // and set costs (flow/statics.rs).
                        return Err(ni(
                            r::CONTINUOUS,
                            format!("card `{key}`: `{}` outside a static ability", e.word()),
                        ));
                    }
                    _ => {}
                }
            }
            super::modes::refuse(key, &a.trigger, &a.effect)?;
            super::effects::refuse_if_done(key, &a.effect)?;
            super::target_place::refuse(key, &a.effect)?;
            super::activate::refuse(key, &a.cost)?;
            if a.trigger == "spell" {
                refuse_relative_region(key, &a.effect)?;
            }
            super::resonance::refuse(key, &d.keywords, &a.trigger, &a.effect)?;
            if a.trigger == super::statics::STATIC {
                super::statics::refuse(key, &a.effect)?;
            }
            // Only the card's own replacement of going to the graveyard
            // may be optional (flow/may_replace.rs).
            if a.optional && a.trigger != "instead_of_graveyard" {
                return Err(ni(r::MAY, format!("a \"may\" ability of card `{key}`")));
            }
            if a.condition.is_some() && a.trigger != super::statics::STATIC {
                return Err(ni(
                    r::CONDITIONAL,
                    format!("a conditional ability of card `{key}`"),
                ));
            }
            if a.trigger == "spell" && d.card_type != types::STRATEGY {
                return Err(ni(
                    r::STATIC,
                    format!(
                        "card `{key}`: a `spell` text on a {}; write its abilities as triggers",
                        d.card_type
                    ),
                ));
            }
        }
    }
    Ok(())
}

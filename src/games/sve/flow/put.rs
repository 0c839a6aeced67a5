//! Moving cards by an effect: putting cards into a zone (5.4.1, 5.11.1),
//! onto the field (Fanfare 12.4.3) within its limit (4.4.4.2) or into the
//! EX area within its limit (4.8.3.2), taking control (5.21), and the
//! Stack replacement when a card would leave the field (13.3.2).

use super::*;

/// Reading flag: the effect's master, not the receiving zone's player,
/// chooses which cards move when a zone's limit lets only some of them in
/// (4.4.4.2, 4.8.3.2).
pub const OVERFLOW_MASTER_CHOOSES: &str = "reading_overflow_effect_master_chooses";

/// Reading flag: in the overflow rule processes (11.4.1, 11.5.1), which
/// have no master, the turn player chooses the cards kept, not the zone's
/// player.
pub const OVERFLOW_RULE_TURN_PLAYER_CHOOSES: &str = "reading_overflow_rule_turn_player_chooses";

/// A card enters `player`'s field (10.6.2.8.1 or an effect's move): it
/// enters reserved (4.2.2.3), a Ward follower may enter engaged (12.8.2),
/// a Stack card enters with one stack counter (13.3.2 item 2).
pub(super) fn enter_field(
    m: &mut M,
    step_name: &str,
    card: &str,
    player: PlayerId,
    from: &str,
    why: &[&'static str],
) {
    mv(m, card, ZoneId::of(player, zn::FIELD), false);
    let ward = has_kw(&m.game, card, "ward");
    let stack = has_kw(&m.game, card, "stack");
    let engaged = ward && {
        // 12.8.2 (a): may enter engaged instead. A "may": default no.
        let k = format!("{card}.ward_engage");
        m.choices
            .or_default(&k, &["true"])
            .and_then(|v| v.as_bool())
            .unwrap_or(false)
    };
    if let Some(c) = m.game.cards.get_mut(card) {
        c.states.insert(st::ARRIVED.into());
        if engaged {
            c.states.insert(st::ENGAGED.into());
        }
        if stack {
            c.counters.insert("stack".into(), 1);
        }
    }
    let mut rules = why.to_vec();
    rules.push(r::ENTER_RESERVED);
    let e = m.record(
        step_name,
        format!(
            "{card} enters {}'s field {}",
            player_name(player),
            if engaged {
                "engaged (Ward)"
            } else {
                "reserved"
            }
        ),
        &rules,
    );
    e.obj(card).change(
        format!("{card}.zone"),
        from,
        format!("{}.field", player_name(player)),
    );
    if engaged {
        e.rule(r::WARD);
    }
    if stack {
        e.rule(r::STACK).rule(r::STACK_ABILITIES);
        e.text.push_str(" with 1 stack counter (Stack)");
    }
}

/// 13.3.2 item 2: a card with Stack that would leave the field while it
/// has stack counters loses one counter instead and stays. Returns whether
/// the move was replaced.
pub(super) fn stack_replaces_leaving(m: &mut M, id: &str) -> bool {
    if !on_field(&m.game, id) || !has_kw(&m.game, id, "stack") {
        return false;
    }
    let Some(c) = m.game.cards.get_mut(id) else {
        return false;
    };
    let n = c.counters.get("stack").copied().unwrap_or(0);
    if n <= 0 {
        return false;
    }
    c.counters.insert("stack".into(), n - 1);
    m.record(
        "replace.stack",
        format!("{id} would leave the field: instead it loses 1 stack counter and stays (Stack)"),
        &[r::STACK, r::STACK_ABILITIES],
    )
    .obj(id)
    .change(format!("{id}.counters.stack"), n, n - 1);
    true
}

/// 4.4.4.2 / 4.8.3.2: when a move into a limited zone of `p` would take it
/// past its limit, only (limit − cards there) of the moving cards move.
/// Returns the cards that move.
fn within_limit(
    m: &mut M,
    zone: &'static str,
    p: PlayerId,
    moving: Vec<String>,
    master: PlayerId,
) -> R<Vec<String>> {
    let lim = limit(&m.game, zone);
    let there = m.game.zone_of(p, zone).len();
    let room = lim.saturating_sub(there);
    if moving.len() <= room {
        return Ok(moving);
    }
    let rule = if zone == zn::FIELD {
        r::FIELD_OVER_LIMIT
    } else {
        r::EX_OVER_LIMIT
    };
    let flag = reading(&m.game, OVERFLOW_MASTER_CHOOSES);
    let chooser = if flag { master } else { p };
    let keep = if room == 0 {
        Vec::new()
    } else if moving.iter().all(|c| same_card(&m.game, c, &moving[0])) {
        moving[..room].to_vec()
    } else {
        let k = format!("keep.{}.{zone}", player_name(chooser));
        m.decided_by(chooser, |m| m.choices.exactly(&k, &moving, room))?
    };
    let e = m.record(
        "effect.limit",
        format!(
            "{}'s {zone} holds {there} of {lim}: only {room} of {} can move ({}); the rest stay where they are",
            player_name(p),
            moving.len(),
            if keep.is_empty() {
                "none".to_string()
            } else {
                keep.join(", ")
            }
        ),
        &[rule],
    );
    if room > 0 && keep.len() < moving.len() {
        if flag {
            e.note(format!(
                "reading `{OVERFLOW_MASTER_CHOOSES}`: the effect's master ({}) chooses",
                player_name(master)
            ));
        } else {
            e.note(format!("the rules do not say who chooses the cards that move; read as the zone's player ({}), as for 11.4.1 (flag `{OVERFLOW_MASTER_CHOOSES}`: the effect's master)", player_name(p)));
        }
    }
    Ok(keep)
}

/// Two cards of the same definition in the same state: which of them moves
/// cannot matter.
fn same_card(g: &Game, a: &str, b: &str) -> bool {
    match (g.card(a), g.card(b)) {
        (Some(x), Some(y)) => {
            x.def == y.def && x.owner == y.owner && x.zone == y.zone && x.token == y.token
        }
        _ => false,
    }
}

/// Where `put` sends cards: zone `zone` of each card's owner (4.1.6: the
/// text names no player), or of the effect's master when the text names
/// "your" zone (「自分のEXエリアに置く」, 3.1.2).
pub(super) struct Dest<'a> {
    pub zone: &'a str,
    pub masters: bool,
}

impl<'a> Dest<'a> {
    pub fn owners(zone: &'a str) -> Self {
        Dest {
            zone,
            masters: false,
        }
    }
}

/// The zones an effect's `put` moves cards into (5.4.1).
pub(super) const PUT_ZONES: &[&str] = &[zn::FIELD, zn::EX, zn::CEMETERY, zn::BANISHED, zn::HAND];

/// `put`: the target cards, or the top `top` cards of each deck of `who`,
/// go to zone `to` of their owner (4.1.6) or, as the text says, of the
/// effect's master.
pub(super) fn put(
    m: &mut M,
    dest: Dest,
    targets: &[String],
    top: Option<i64>,
    who: Who,
    master: PlayerId,
    has_target: bool,
) -> R<()> {
    let Some(to) = ZONES.iter().find(|z| z.name == dest.zone).map(|z| z.name) else {
        return Err(bad(format!("unknown zone `{}`", dest.zone)));
    };
    if !PUT_ZONES.contains(&to) {
        return Err(EngineError::NotImplemented {
            clause: r::PUT,
            what: format!("putting a card into the {to} area by an effect"),
        });
    }
    if top.is_none() && targets.is_empty() && !has_target {
        return Err(bad(
            "`put` needs a `target` or `top` (the top N cards of the deck)",
        ));
    }
    let mut cards: Vec<String> = targets.to_vec();
    if let Some(n) = top {
        for p in who_players(&m.game, master, who) {
            let deck = m.game.zone_of(p, zn::DECK).to_vec();
            let k = (n.max(0) as usize).min(deck.len());
            if k < n.max(0) as usize {
                m.record(
                    "effect.put",
                    format!(
                        "{}'s deck holds {} card(s): only those are put ({n} asked)",
                        player_name(p),
                        deck.len()
                    ),
                    &[r::IMPOSSIBLE],
                );
            }
            cards.extend(deck[..k].iter().map(|c| c.to_string()));
        }
    }
    // The owner of each card receives it (4.1.6), or the master when the
    // text names their zone; group by receiver for the limited zones.
    let mut by_owner: Vec<(PlayerId, Vec<String>)> = Vec::new();
    for c in cards {
        let Some(card) = m.game.card(&c) else {
            continue;
        };
        let o = if dest.masters { master } else { card.owner };
        match by_owner.iter_mut().find(|(p, _)| *p == o) {
            Some((_, v)) => v.push(c),
            None => by_owner.push((o, vec![c])),
        }
    }
    for (owner, list) in by_owner {
        let list = if to == zn::FIELD || to == zn::EX {
            within_limit(m, to, owner, list, master)?
        } else {
            list
        };
        for c in list {
            let Some(from) = m.game.card(&c).map(|x| x.zone.clone()) else {
                continue;
            };
            if from.kind == to && from.player == Some(owner) {
                m.record(
                    "effect.put",
                    format!("{c} is already in that zone: nothing happens"),
                    &[r::IMPOSSIBLE],
                );
                continue;
            }
            if from.kind == zn::FIELD && stack_replaces_leaving(m, &c) {
                continue;
            }
            if to == zn::FIELD {
                if !is_type(&m.game, &c, "follower") && !is_type(&m.game, &c, "amulet") {
                    m.record(
                        "effect.put",
                        format!("{c} is not a follower or amulet: it cannot be put onto the field"),
                        &[r::IMPOSSIBLE],
                    );
                    continue;
                }
                enter_field(
                    m,
                    "effect.put",
                    &c,
                    owner,
                    &from.to_string(),
                    zone_rules(&dest),
                );
                continue;
            }
            let discard = from.kind == zn::HAND && to == zn::CEMETERY;
            let rules: &[&'static str] = if discard {
                &[r::DISCARD]
            } else {
                zone_rules(&dest)
            };
            m.record(
                "effect.put",
                format!(
                    "{c} is {} from {from} into {}'s {to}",
                    if discard { "discarded" } else { "put" },
                    player_name(owner)
                ),
                rules,
            )
            .obj(&c)
            .change(
                format!("{c}.zone"),
                from.to_string(),
                format!("{}.{to}", player_name(owner)),
            );
            mv(m, &c, ZoneId::of(owner, to), false);
        }
    }
    Ok(())
}

/// The clauses that decide whose zone receives a put card.
fn zone_rules(dest: &Dest) -> &'static [&'static str] {
    if dest.masters {
        &[r::PUT, r::UNSPECIFIED_ZONE, r::CONTROLLER]
    } else {
        &[r::PUT, r::UNSPECIFIED_ZONE]
    }
}

/// 5.21 take control: an opponent's field card moves to the master's
/// field, keeping all its information and states (5.21.2); it is not
/// "put onto the field" (10.7.4.3: no Fanfare). It has not been mastered
/// by its new master since the start of the turn (8.4.2.1). A full field
/// lets it not move (4.4.4.2).
pub(super) fn take_control(m: &mut M, targets: &[String], master: PlayerId) -> R<()> {
    for t in targets {
        let Some(c) = m.game.card(t).cloned() else {
            continue;
        };
        if c.zone.kind != zn::FIELD || c.controller == master {
            m.record(
                "effect.take",
                format!("{t} is not on the opponent's field: it is not taken"),
                &[r::TAKE, r::IMPOSSIBLE],
            );
            continue;
        }
        if within_limit(m, zn::FIELD, master, vec![t.clone()], master)?.is_empty() {
            m.record(
                "effect.take",
                format!("{t} is not taken: {}'s field is full", player_name(master)),
                &[r::TAKE, r::FIELD_OVER_LIMIT],
            );
            continue;
        }
        let from = c.zone.clone();
        let to = ZoneId::of(master, zn::FIELD);
        if let Some(v) = m.game.zones.get_mut(&from) {
            v.retain(|x| x != t);
        }
        m.game
            .zones
            .entry(to.clone())
            .or_default()
            .push(t.clone().into());
        if let Some(card) = m.game.cards.get_mut(t.as_str()) {
            card.zone = to.clone();
            card.controller = master;
            card.states.insert(st::ARRIVED.into());
        }
        m.record(
            "effect.take",
            format!(
                "{} takes {t}: it moves to their field as its master, keeping its damage, state and effects; its owner is still {}",
                player_name(master),
                player_name(c.owner)
            ),
            &[r::TAKE, r::TAKE_OWNER, r::TAKE_NOT_ENTERED, r::NOT_ENTERING, r::ATTACKER_LEGAL],
        )
        .obj(t)
        .change(format!("{t}.zone"), from.to_string(), to.to_string());
    }
    Ok(())
}

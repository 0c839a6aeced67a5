//! Resolving the newest entry of the resolution zone (406.4): the target
//! check (406.4.1: when its targets became illegal the whole card or
//! ability does nothing, its untargeted part included; with several
//! targets only when all are illegal, 406.4.1.1), a played card entering
//! the field or an active's effects in printed order (211.2.2, 103.4.2.3),
//! then the active to the discard (204.2.1, 406.4.1.2).

use super::{
    Chosen, Ctx, Entry, EntryKind, Foe, M, damage, equip, moves, ni, r, reading, reading_on,
    set_on, st, targets, types, zn,
};
use crate::engine::{
    Card, CardId, Effect, EngineError, GameResult, PlayerId, Recipient, Target, Until, Who, ZoneId,
    state::Modifier, texts,
};

/// Resolves one entry taken from the zone.
pub fn resolve(m: &mut M, ctx: &mut Ctx, entry: Entry) -> Result<(), EngineError> {
    // Issue 13: an entry resolves with its master's choices (300.6),
    // whoever's action made it resolve.
    let out = m.decided_by(entry.master, |m| resolve_entry(m, ctx, entry));
    if super::state::read(&m.game).is_some_and(|s| s.this_now.is_some()) {
        super::state::of(&mut m.game).this_now = None;
    }
    out?;
    super::x_amount::end(m);
    super::negate::purge(m, ctx);
    Ok(())
}

/// Resolves one entry (406.4).
fn resolve_entry(m: &mut M, ctx: &mut Ctx, entry: Entry) -> Result<(), EngineError> {
    match entry.kind.clone() {
        EntryKind::Card(id) => {
            let x = super::cost::x_of(&m.game, &id);
            super::x_amount::begin(m, x);
            resolve_card(m, &id, &entry)
        }
        EntryKind::Ability {
            card,
            def,
            ability,
            trigger,
            x,
            generation,
        } => {
            super::x_amount::begin(m, x);
            super::state::of(&mut m.game).this_now = Some((card.clone(), generation));
            let effects = m.game.ability_effects(&def, ability);
            m.record(
                "resolve",
                format!("{card}'s {trigger} ability resolves"),
                &[r::RESOLVE_NEWEST, r::ABILITY_OWNER],
            )
            .obj(card.clone());
            if let Some(legal) = check_targets(m, &entry, &card, &effects) {
                apply_all(m, entry.master, &card, &effects, &legal)?;
                super::delayed::set_up(m, &card, &def, entry.master);
            }
            Ok(())
        }
        EntryKind::WarCry(card) => {
            let here = entry.targets.first().is_some_and(|t| {
                m.game
                    .card(&t.id)
                    .is_some_and(|c| c.incarnation == t.generation && c.zone.kind == zn::FIELD)
            });
            if let Some(b) = ctx.battle.as_mut() {
                if here {
                    b.targets = vec![Foe::Card(card.clone())];
                    let generation = m.game.card(&card).map_or(0, |c| c.incarnation);
                    b.generations.retain(|(c, _)| c != &card);
                    b.generations.push((card.clone(), generation));
                    m.record(
                        "resolve",
                        format!("ウォークライ resolves: every attack target becomes {card}"),
                        &[r::WAR_CRY, r::RETARGET_UNTIL],
                    );
                } else {
                    b.targets.clear();
                    m.record(
                        "resolve",
                        format!("ウォークライ resolves although {card} left the field: the attack has no target"),
                        &[r::WAR_CRY, r::WAR_CRY_DETAIL],
                    );
                }
            }
            Ok(())
        }
        EntryKind::DoubleAttack(card) => {
            let on_field = m.game.card(&card).is_some_and(|c| c.zone.kind == zn::FIELD);
            m.record(
                "resolve",
                if on_field {
                    format!("連撃 resolves: {card} becomes ON")
                } else {
                    format!("連撃 resolves but {card} left the field: nothing happens")
                },
                &[r::DOUBLE_ATTACK, r::DOUBLE_ATTACK_TIMING],
            );
            if on_field {
                set_on(m, &card, true);
            }
            Ok(())
        }
        EntryKind::Pierce {
            card,
            player,
            amount,
        } => {
            m.record(
                "resolve",
                format!("貫通{amount} of {card} resolves: {amount} damage to the destroyed chara's controller"),
                &[r::GL_PIERCE],
            );
            damage::to_player(m, player, amount);
            Ok(())
        }
    }
}

/// 406.4.1: the legal targets, or `None` when the entry had targets and
/// all of them became illegal (it then does nothing at all).
fn check_targets(
    m: &mut M,
    entry: &Entry,
    source: &str,
    effects: &[Effect],
) -> Option<Vec<Chosen>> {
    if entry.targets.is_empty() {
        return Some(Vec::new());
    }
    let legal: Vec<Chosen> = entry
        .targets
        .iter()
        .enumerate()
        .filter(|(i, t)| targets::still_legal(&m.game, entry.master, source, effects, *i, t))
        .map(|(_, t)| t)
        .cloned()
        .collect();
    if legal.is_empty() {
        m.record(
            "resolve",
            format!(
                "every target of {source} ({}) became illegal: it does nothing at all, its untargeted part included",
                entry.targets.iter().map(|t| t.id.as_str()).collect::<Vec<_>>().join(", ")
            ),
            &[r::TARGET_ILLEGAL, r::SOME_TARGETS_ILLEGAL],
        );
        return None;
    }
    if legal.len() < entry.targets.len() {
        m.record(
            "resolve",
            format!("some targets of {source} became illegal; it resolves for the others"),
            &[r::SOME_TARGETS_ILLEGAL],
        );
    }
    Some(legal)
}

/// A played card resolves.
fn resolve_card(m: &mut M, id: &str, entry: &Entry) -> Result<(), EngineError> {
    let p = entry.master;
    let def = m
        .game
        .def_of(id)
        .cloned()
        .ok_or_else(|| super::bad("unknown card"))?;
    match def.card_type.as_str() {
        types::CHARA => {
            let ambush = def.has_keyword("ambush");
            moves::enter_field(m, id, p, ambush, false);
            let mut rules = vec![r::CHARA_ENTERS_FRONT_OFF, r::RESOLVE_NEWEST];
            if ambush {
                rules.push(r::AMBUSH);
            }
            m.record(
                "resolve",
                format!(
                    "{id} resolves and enters {}'s front row {}",
                    crate::engine::player_name(p),
                    if ambush { "ON (奇襲)" } else { "OFF" }
                ),
                &rules,
            )
            .obj(id.to_string());
        }
        types::ITEM => {
            moves::enter_field(m, id, p, true, true);
            m.record(
                "resolve",
                format!("item {id} enters the back row ON"),
                &[r::ITEM_BACK_ON, r::RESOLVE_NEWEST],
            )
            .obj(id.to_string());
        }
        types::WEAPON | types::ARMOR => {
            let host = entry
                .targets
                .first()
                .cloned()
                .ok_or_else(|| super::bad("no host"))?;
            equip::resolve(m, id, &host)?;
        }
        types::ACTIVE if def.has_keyword("attach") => attach(m, id, entry)?,
        types::ACTIVE => {
            m.record(
                "resolve",
                format!("active {id} resolves"),
                &[
                    r::RESOLVE_NEWEST,
                    r::ACTIVE_ABILITY,
                    r::ACTIVE_SOURCE_PLAYER,
                    r::EFFECT_ORDER,
                ],
            )
            .obj(id.to_string());
            let effects: Vec<Effect> = super::modes::resolving(m, &def, id);
            let legal = check_targets(m, entry, id, &effects);
            if let Some(legal) = legal {
                apply_all(m, p, id, &effects, &legal)?;
                if let Some(key) = m.game.card(id).map(|c| c.def.clone()) {
                    super::delayed::set_up(m, id, &key, p);
                }
                m.record(
                    "resolve",
                    format!("{id} goes to the discard"),
                    &[r::ACTIVE_TO_DISCARD],
                );
            } else {
                m.record(
                    "resolve",
                    format!("{id} is removed from the zone and goes to the discard"),
                    &[r::FIZZLE_TO_DISCARD],
                );
            }
            if m.game
                .card(id)
                .is_some_and(|c| c.zone.kind == zn::RESOLUTION)
            {
                moves::to_discard(m, id);
            }
        }
        other => return Err(ni(r::CARD_TYPES, format!("resolving a {other} card"))),
    }
    Ok(())
}

/// 204.2.2: an attach (付与) active stays on its host, ON (204.2.2.4), in
/// the field of the host's owner (403.2); its host gone, it is removed
/// from the zone (204.2.2.2.2).
fn attach(m: &mut M, id: &str, entry: &Entry) -> Result<(), EngineError> {
    let def = m
        .game
        .def_of(id)
        .cloned()
        .ok_or_else(|| super::bad("unknown card"))?;
    let effects: Vec<Effect> = def
        .abilities
        .iter()
        .filter(|a| a.trigger == "effect")
        .flat_map(|a| a.effect.clone())
        .collect();
    let host = entry.targets.first().cloned();
    let alive = host.as_ref().is_some_and(|h| {
        m.game
            .card(&h.id)
            .is_some_and(|c| c.incarnation == h.generation && c.zone.kind == zn::FIELD)
    });
    let Some(host) = host.filter(|_| alive) else {
        let excluded = reading_on(&m.game, reading::ATTACH_HOST_GONE_EXCLUDED);
        m.record(
            "resolve",
            format!("{id}'s host left the field before it resolved: it is removed from the zone to the {}", if excluded { "excluded cards" } else { "discard" }),
            &[r::ATTACH_HOST_GONE],
        )
        .note(format!(
            "judges' reading: \"除外\" from the zone here means the card goes to the discard as elsewhere in 406.4.1.2 (option `{}`: excluded)",
            reading::ATTACH_HOST_GONE_EXCLUDED
        ));
        if excluded {
            moves::exclude(m, id);
        } else {
            moves::to_discard(m, id);
        }
        return Ok(());
    };
    let before = reading_on(&m.game, reading::ATTACH_EFFECT_BEFORE_ATTACHING);
    if before && !effects.is_empty() {
        attach_effect(m, id, &host, entry.master, &effects, true)?;
        let still = m
            .game
            .card(&host.id)
            .is_some_and(|c| c.incarnation == host.generation && c.zone.kind == zn::FIELD);
        if !still {
            m.record(
                "resolve",
                format!("{id}'s host {} left the field during its effect: it is not attached and goes to the discard", host.id),
                &[r::ATTACH_LEAVES_WITH_HOST, r::ATTACH],
            );
            moves::to_discard(m, id);
            return Ok(());
        }
    }
    let owner = m.game.card(&host.id).map_or(entry.master, |c| c.owner);
    m.game.move_card(id, ZoneId::of(owner, zn::FIELD), false);
    if let Some(c) = m.game.cards.get_mut(id) {
        c.attached_to = Some(host.id.clone());
    }
    set_on(m, id, true);
    m.record(
        "resolve",
        format!("{id} is attached to {} and stays ON", host.id),
        &[
            r::ATTACH,
            r::ATTACH_ENTERS_ON,
            r::HOST_OWNER_FIELD,
            r::ATTACH_KEYWORD,
            r::ATTACH_SOURCE,
            r::GL_ATTACH,
        ],
    );
    copy_limit(m, id, &host.id)?;
    let attached = m
        .game
        .card(id)
        .is_some_and(|c| c.zone.kind == zn::FIELD && c.attached_to.is_some());
    if !before && !effects.is_empty() && attached {
        attach_effect(m, id, &host, entry.master, &effects, false)?;
    }
    Ok(())
}

/// An attach active's `effect` ability (204.2.2): 204.2.2 speaks only of
/// the lasting effect of a card stacked on its host, not of an effect
/// carried out once. Judges' reading: it is carried out once as the card
/// resolves, after the card is attached (it resolves by entering the field
/// on its host, 204.2.2, and its text then applies with the card in
/// place: its own continuous abilities already apply); its only target is
/// the host, chosen as it was played (204.2.2.2.1), which its effects name
/// with `all` `region` `host`. Option
/// `reading_attach_effect_before_attaching`: carried out first, from the
/// resolution zone, the card attached after (not at all if the host left).
fn attach_effect(
    m: &mut M,
    id: &str,
    host: &Chosen,
    master: PlayerId,
    effects: &[Effect],
    before: bool,
) -> Result<(), EngineError> {
    let e = m.record(
        "resolve",
        format!(
            "{id}'s effect is carried out once, {} it is attached to {}",
            if before { "before" } else { "after" },
            host.id
        ),
        &[r::ATTACH, r::ACTIVE_ABILITY, r::EFFECT_ORDER],
    );
    let note = if before {
        format!(
            "reading `{}`: the effect is carried out from the resolution zone, before the card is attached",
            reading::ATTACH_EFFECT_BEFORE_ATTACHING
        )
    } else {
        format!(
            "judges' reading: 204.2.2 speaks only of the lasting effect; a one-time effect is carried out once the card is attached, its own continuous abilities already applying (option `{}`: before it is attached)",
            reading::ATTACH_EFFECT_BEFORE_ATTACHING
        )
    };
    e.note(note);
    // `region` `host` names the chara the card is about to be attached to.
    if before {
        super::state::of(&mut m.game).attaching = Some((id.into(), host.id.clone()));
    }
    let done = apply_all(m, master, id, effects, &[]);
    if before {
        super::state::of(&mut m.game).attaching = None;
    }
    done
}

/// GL:枚数制限: "「A」 can be attached at most X per chara" (stat
/// `per_host` = X): over the limit one of them is destroyed at once, the
/// player choosing which (choice `<card>.destroy`); 登場時 abilities still
/// trigger.
fn copy_limit(m: &mut M, id: &str, host: &str) -> Result<(), EngineError> {
    let Some(d) = m.game.def_of(id).cloned() else {
        return Ok(());
    };
    let Some(limit) = d.stats.get("per_host").copied() else {
        return Ok(());
    };
    let name = super::super::names::game_name(&d);
    let same: Vec<CardId> = m
        .game
        .cards
        .values()
        .filter(|c| {
            c.attached_to.as_deref() == Some(host)
                && m.game
                    .def_of(&c.id)
                    .is_some_and(|x| super::super::names::is_named(x, &name))
        })
        .map(|c| c.id.clone())
        .collect();
    if same.len() as i64 <= limit {
        m.record(
            "resolve",
            format!(
                "{host} has {} 「{name}」 attached: within the limit of {limit}",
                same.len()
            ),
            &[r::GL_COPY_LIMIT],
        );
        return Ok(());
    }
    let key = format!("{id}.destroy");
    let Some(victim) = m.choices.one_id(&key, &same)? else {
        return Err(EngineError::MissingChoice {
            choice: key,
            options: texts(&same),
        });
    };
    moves::destroy(
        m,
        &victim,
        &format!(
            "{host} has {} 「{name}」 attached, over the limit of {limit}",
            same.len()
        ),
        &[r::GL_COPY_LIMIT],
    )?;
    Ok(())
}

/// Applies effects in printed order (103.4.2.3).
pub(super) fn apply_all(
    m: &mut M,
    master: PlayerId,
    source: &str,
    effects: &[Effect],
    chosen: &[Chosen],
) -> Result<(), EngineError> {
    let each = names_each(effects);
    // The glossary's connectives (さらに, その後, Aした場合B, AすることでB
    // できる) gate the instructions after them.
    let mut link = super::connectives::Link::default();
    for (i, e) in effects.iter().enumerate() {
        if m.game.result != GameResult::Ongoing {
            break;
        }
        if super::connectives::is_connective(e) {
            link.reach(m, master, source, e)?;
            continue;
        }
        if link.skips() {
            continue;
        }
        let before = if link.measures(&effects[i + 1..]) {
            Some(super::connectives::Before::of(m, master, e)?)
        } else {
            None
        };
        apply(m, master, source, e, chosen, each)?;
        let done = before.is_none_or(|b| b.done(m));
        link.carried_out(m, source, e.word(), done)?;
    }
    Ok(())
}

/// 406.2.2.3: targets the text asks for after its head are chosen as the
/// resolving effect reaches them (choice `<card>.select`); none may be
/// choosable, and the rest of the text still applies. The `then` effects
/// apply to the cards chosen.
fn select_targets(
    m: &mut M,
    master: PlayerId,
    source: &str,
    target: &Target,
    then: &[Effect],
) -> Result<(), EngineError> {
    let Some((f, count, up_to, or_leader)) = target.chosen() else {
        return Err(ni(
            r::TARGET_MID_TEXT,
            "`select_targets` chooses with a `chosen` selector",
        ));
    };
    let key = format!("{source}.select");
    let sel = (f.clone(), count, up_to, or_leader);
    let chosen = targets::choose_from(m, master, source, sel, &key, None)?.unwrap_or_default();
    if chosen.is_empty() {
        m.record(
            "targets",
            format!("{source}'s text asks for a target mid-way and none can be chosen: that part does nothing, and the resolution goes on"),
            &[r::TARGET_MID_TEXT],
        );
        return Ok(());
    }
    m.record(
        "targets",
        format!(
            "{source}'s text chooses its target now, as the effect resolves: {}",
            chosen
                .iter()
                .map(|c| c.id.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        ),
        &[r::TARGET_MID_TEXT],
    );
    apply_all(m, master, source, then, &chosen)
}

/// The name a search effect looks for (「A」を手札に加える from the deck).
fn searched_name(e: &Effect) -> Option<&str> {
    match e {
        Effect::ReturnToHand {
            target: Target::Chosen { filter, .. },
        } if filter.zone.as_deref() == Some(zn::DECK) => filter.name.as_deref(),
        _ => None,
    }
}

/// Whether the text searches for two or more names, each its own referent:
/// 「AとBをそれぞれ1枚まで手札に加える」 (GL:それぞれ) is written as one
/// named search per referent.
fn names_each(effects: &[Effect]) -> bool {
    effects.iter().filter_map(searched_name).count() >= 2
}

/// The players a `Who` names for `master`; in the raid battle the trace
/// says when another party player is left out of 「相手」 (RAID:S9).
fn players(m: &mut M, master: PlayerId, who: Who) -> Vec<PlayerId> {
    let named = named_players(m, master, who);
    if who == Who::Opponent && super::raid::on(&m.game) {
        let left_out: Vec<String> = m
            .game
            .player_ids()
            .filter(|&q| q != master && !named.contains(&q))
            .map(crate::engine::player_name)
            .collect();
        if !left_out.is_empty() {
            m.record(
                "raid",
                format!(
                    "{} {} not {}'s opponent: another party player is no 相手 in the raid battle",
                    left_out.join(", "),
                    if left_out.len() == 1 { "is" } else { "are" },
                    crate::engine::player_name(master)
                ),
                &[r::RAID_NOT_ALLY],
            );
        }
    }
    named
}

/// The players a `Who` names for `master`.
fn named_players(m: &M, master: PlayerId, who: Who) -> Vec<PlayerId> {
    let n = m.game.players.len();
    match who {
        Who::You => vec![master],
        // In the raid battle the other party players are no opponents
        // (RAID:S9): a party player's opponent is the Boss.
        Who::Opponent => PlayerId::all(n)
            .filter(|&q| super::raid::opposed(&m.game, master, q))
            .collect(),
        Who::Both => {
            let tp = m.game.turn.active;
            let mut v = vec![tp];
            v.extend(PlayerId::all(n).filter(|&q| q != tp));
            v
        }
    }
}

/// What an effect's target names now (the core's [`Recipient`]).
fn recipients(
    m: &mut M,
    master: PlayerId,
    source: &str,
    t: &Target,
    chosen: &[Chosen],
) -> Vec<Recipient> {
    match t {
        Target::This if this_left(m, source) => Vec::new(),
        Target::This => vec![Recipient::Card(source.into())],
        Target::Player { who } => players(m, master, *who)
            .into_iter()
            .map(Recipient::Player)
            .collect(),
        Target::Chosen { .. } => chosen
            .iter()
            .filter(|c| same_object(m, source, c))
            .map(|c| Recipient::Card(c.id.clone()))
            .collect(),
        Target::All { filter } => m
            .game
            .cards
            .keys()
            .filter(|id| {
                let mut f = filter.clone();
                if f.zone.is_none() {
                    f.zone = Some(zn::FIELD.into());
                }
                targets::matches(&m.game, master, source, &f, id, false)
            })
            .cloned()
            .map(Recipient::Card)
            .collect(),
        Target::Random { filter } => {
            let options: Vec<CardId> = m
                .game
                .cards
                .keys()
                .filter(|id| targets::matches(&m.game, master, source, filter, id, false))
                .cloned()
                .collect();
            if options.is_empty() {
                return Vec::new();
            }
            let i = m.game.rng.below(options.len() as u64) as usize;
            vec![Recipient::Card(options[i].clone())]
        }
    }
}

/// Whether the card of the ability resolving, `source`, changed zones
/// since the ability was put into the resolution zone (400.6): it is a new
/// object, and 「このカード」 no longer names it; the trace says so.
fn this_left(m: &mut M, source: &str) -> bool {
    let Some((card, generation)) = super::state::read(&m.game).and_then(|s| s.this_now.clone())
    else {
        return false;
    };
    let now = m.game.card(&card).map(|c| (c.incarnation, c.zone.clone()));
    if card.as_ref() != source || now.as_ref().is_some_and(|(i, _)| *i == generation) {
        return false;
    }
    let zone = now.map_or_else(|| "no zone".to_string(), |(_, z)| z.to_string());
    m.record(
        "effect",
        format!("{source} changed zones after its ability was put into the resolution zone: it is a new object in {zone}, which 「このカード」 no longer names; this part of the text does nothing to it"),
        &[r::NEW_OBJECT],
    )
    .obj(source.to_string());
    true
}

/// Whether the chosen card `c` is still the object chosen (400.6): a card
/// that changed zones earlier in the same resolution (a chara KO'd at once
/// by the damage of an earlier part, 213.3) is a new object, and the
/// text's later parts do nothing to it; the trace says so.
fn same_object(m: &mut M, source: &str, c: &Chosen) -> bool {
    let Some((zone, incarnation)) = m.game.card(&c.id).map(|x| (x.zone.clone(), x.incarnation))
    else {
        return false;
    };
    if incarnation == c.generation {
        return true;
    }
    m.record(
        "effect",
        format!(
            "{} is no longer the object {source} chose: it changed zones during the resolution and is a new object in {zone}; this part of the text does nothing to it",
            c.id
        ),
        &[r::NEW_OBJECT],
    )
    .obj(c.id.to_string());
    false
}

/// Whether `id` is a Boss card the party's ability cannot exclude
/// (RAID:S12); the trace says so.
pub fn boss_card_kept(m: &mut M, master: PlayerId, id: &str) -> bool {
    let owner = m.game.card(id).map_or(PlayerId(usize::MAX), |c| c.owner);
    if !super::raid::is_boss(&m.game, owner) || super::raid::is_boss(&m.game, master) {
        return false;
    }
    m.record(
        "raid",
        format!("{id} is a Boss card: the party's abilities cannot exclude it"),
        &[r::RAID_NO_STEAL],
    );
    true
}

/// Whether `id` ignores the effect because it is 無敵 (GL:無敵) or
/// receives no effects (GL:効果を受けない).
fn shielded(m: &mut M, id: &str, source: &str) -> bool {
    if unaffected(m, id, source) {
        return true;
    }
    if id != source
        && m.game
            .card(id)
            .is_some_and(|c: &Card| c.has(st::INVINCIBLE))
    {
        m.record(
            "effect",
            format!("{id} is 無敵: the effect does not apply to it"),
            &[r::GL_INVINCIBLE],
        );
        return true;
    }
    false
}

/// Whether `id` ignores the effect of `source`'s ability because it is in
/// the state 効果を受けない (GL:効果を受けない); the trace says so, with
/// the judges' note when the ability is its own card's.
fn unaffected(m: &mut M, id: &str, source: &str) -> bool {
    if !super::unaffected_by(&m.game, id, source) {
        return false;
    }
    let e = m
        .record(
            "effect",
            format!("{id} receives no effects (効果を受けない): the effect of {source} does not apply to it"),
            &[r::GL_UNAFFECTED],
        )
        .obj(id.to_string());
    if id == source {
        e.note(own_effects_note());
    }
    true
}

/// GL:効果を受けない: the effects card `id` received before it became so
/// do not work while it stays so; the trace says which.
fn voided_on_unaffected(m: &mut M, id: &str) {
    let mut sources: Vec<String> = m.game.card(id).map_or_else(Vec::new, |c| {
        c.modifiers.iter().map(|md| md.source.to_string()).collect()
    });
    sources.extend(
        super::continuous::buffing(&m.game, id)
            .into_iter()
            .map(|c| c.to_string()),
    );
    sources.retain(|s| super::unaffected_by(&m.game, id, s));
    sources.sort();
    sources.dedup();
    if sources.is_empty() {
        return;
    }
    let e = m
        .record(
            "effect",
            format!(
                "{id} receives no effects: the modifications it received before (from {}) do not work while it is so",
                sources.join(", ")
            ),
            &[r::GL_UNAFFECTED],
        )
        .obj(id.to_string());
    if sources.iter().any(|s| s == id) {
        e.note(own_effects_note());
    }
}

/// GL:ダイス: rolls a die of `sides` faces (6 unless the text says
/// otherwise) with the scenario's random generator; the effects of the
/// results that list the number rolled, in printed order.
fn roll_die(
    m: &mut M,
    source: &str,
    sides: i64,
    results: &[crate::engine::card::DieResult],
) -> Result<Vec<Vec<Effect>>, EngineError> {
    if sides < 1 {
        return Err(super::bad(format!("a die of {sides} faces")));
    }
    let (n, picked) = crate::engine::card::DieResult::roll(&mut m.game.rng, sides as u64, results);
    let picked: Vec<Vec<Effect>> = picked.into_iter().map(|o| o.effect.clone()).collect();
    m.record(
        "effect",
        format!(
            "{source} rolls a die of {sides} faces (1 to {sides}): {n}; {}",
            if picked.is_empty() {
                "no result of the text names it, nothing more happens".to_string()
            } else {
                format!("{} result(s) of the text apply", picked.len())
            }
        ),
        &[r::GL_DICE],
    )
    .change(format!("{source}.die"), 0, n);
    Ok(picked)
}

/// GL:公開: the cards are shown to every player and stay in their zone.
/// Cards of a hidden zone (the hand, the deck) are chosen as the effect
/// resolves (choice `<card>.reveal`), others are the targets.
fn reveal(
    m: &mut M,
    master: PlayerId,
    source: &str,
    target: &Target,
    chosen: &[Chosen],
) -> Result<(), EngineError> {
    let shown: Vec<CardId> = match target {
        Target::Chosen {
            filter,
            count,
            up_to,
            ..
        } if super::put::hidden(filter.zone.as_deref()) => {
            let how = super::put::Hidden {
                key: "reveal",
                count: *count,
                up_to: *up_to,
            };
            super::put::chosen_hidden(m, master, source, filter, how)?
        }
        t => only_cards(recipients(m, master, source, t, chosen)),
    };
    if shown.is_empty() {
        let none = format!("{source}: there is no card to reveal");
        m.record("effect", none, &[r::GL_REVEAL, r::IMPOSSIBLE_IGNORED]);
    }
    for id in shown {
        let seen = m.game.def_of(&id).map(|d| d.name.clone());
        let zone = m.game.card(&id).map(|c| c.zone.to_string());
        let text = format!(
            "{source} reveals {id} (「{}」) to every player; it stays in {}",
            seen.unwrap_or_default(),
            zone.unwrap_or_default()
        );
        m.record("effect", text, &[r::GL_REVEAL])
            .obj(id.to_string());
    }
    Ok(())
}

/// The cards among `rcs` a modification of `source` changes: on the
/// field (215.3) and not shielded (無敵, 効果を受けない); the trace says
/// why one is left out.
fn modifiable(
    m: &mut M,
    source: &str,
    rcs: &[Recipient],
    until: Until,
) -> Result<Vec<CardId>, EngineError> {
    if until == Until::ThisInterference {
        return Err(ni(
            r::MODIFICATION,
            "\"this interference\" durations do not exist in PSO2",
        ));
    }
    let mut out = Vec::new();
    for id in only_cards(rcs.to_vec()) {
        if shielded(m, &id, source) {
            continue;
        }
        if !super::continuous::in_play(&m.game, &id) {
            m.record(
                "effect",
                format!("{id} is not on the field: the modification does not apply to it"),
                &[r::MODIFICATION],
            );
            continue;
        }
        out.push(id);
    }
    Ok(out)
}

/// Puts modifiers of `source` on card `id`: an addition of each nonzero
/// part, or with `set` a replacement of each given part (103.5.4).
fn push_modifiers(
    m: &mut M,
    id: &str,
    source: &str,
    parts: &[(&str, Option<i64>)],
    until: Until,
    set: bool,
) {
    let Some(c) = m.game.cards.get_mut(id) else {
        return;
    };
    for (stat, d) in parts {
        let Some(d) = *d else { continue };
        if d != 0 || set {
            c.modifiers.push(Modifier {
                stat: (*stat).into(),
                delta: d,
                set,
                always: false,
                until,
                source: source.into(),
            });
        }
    }
}

/// The cards among `rcs` (players left out).
fn only_cards(rcs: Vec<Recipient>) -> Vec<CardId> {
    rcs.into_iter()
        .filter_map(|rc| match rc {
            Recipient::Card(id) => Some(id),
            Recipient::Player(_) => None,
        })
        .collect()
}

/// The judges' note of GL:効果を受けない's reading.
fn own_effects_note() -> String {
    format!(
        "judges' reading: 「能力の効果を受けない」 covers its own card's abilities too; option `{}` lets them apply, as for 無敵 (GL:無敵)",
        reading::UNAFFECTED_OWN_EFFECTS_APPLY
    )
}

/// Applies one effect.
fn apply(
    m: &mut M,
    master: PlayerId,
    source: &str,
    e: &Effect,
    chosen: &[Chosen],
    each: bool,
) -> Result<(), EngineError> {
    let targets_of = |m: &mut M, t: &Target| recipients(m, master, source, t, chosen);
    match e {
        Effect::Damage { amount, target } => {
            for rc in targets_of(m, target) {
                match rc {
                    Recipient::Player(p) => {
                        damage::to_player(m, p, *amount);
                    }
                    Recipient::Card(id) if unaffected(m, &id, source) => {}
                    Recipient::Card(id) => {
                        damage::to_card(m, &id, *amount, source, damage::Kind::Effect)?;
                    }
                }
            }
        }
        Effect::Destroy { target } => {
            let all = targets_of(m, target);
            // Several destructions at once are the one action "a card is
            // destroyed" happening that many times (103.2.3).
            let rules: &[&'static str] = if all.len() > 1 {
                &[r::DESTROY, r::GL_DESTROY, r::SAME_ACTIONS_COUNT]
            } else {
                &[r::DESTROY, r::GL_DESTROY]
            };
            for rc in all {
                let Recipient::Card(id) = rc else { continue };
                let kind = m.game.card(&id).map(|c| c.zone.kind);
                if matches!(kind, Some(zn::PLAYER | zn::MAG)) {
                    m.record(
                        "effect",
                        format!("{id} never leaves its zone: it is not destroyed"),
                        &[
                            r::PLAYER_NEVER_LEAVES,
                            r::MAG_NEVER_LEAVES,
                            r::IMPOSSIBLE_IGNORED,
                        ],
                    );
                } else if kind == Some(zn::FIELD) && !shielded(m, &id, source) {
                    moves::destroy(m, &id, &format!("by {source}"), rules)?;
                }
            }
        }
        Effect::Banish { target } => {
            for rc in targets_of(m, target) {
                if let Recipient::Card(id) = &rc
                    && boss_card_kept(m, master, id)
                {
                    continue;
                }
                if let Recipient::Card(id) = rc
                    && !shielded(m, &id, source)
                {
                    m.record(
                        "effect",
                        format!("{id} is excluded from the game"),
                        &[r::EXCLUDE, r::GL_EXCLUDE],
                    );
                    moves::exclude(m, &id);
                }
            }
        }
        Effect::ReturnToHand {
            target:
                Target::Chosen {
                    filter,
                    count,
                    up_to,
                    ..
                },
        } if filter.zone.as_deref() == Some(zn::DECK) => {
            let how = Search {
                count: *count,
                up_to: *up_to,
                each,
            };
            search(m, master, source, filter, how)?;
        }
        Effect::ReturnToHand { target } => {
            for rc in targets_of(m, target) {
                if let Recipient::Card(id) = rc
                    && !shielded(m, &id, source)
                {
                    m.record(
                        "effect",
                        format!("{id} returns to its owner's hand"),
                        &[r::NEW_OBJECT],
                    );
                    moves::to_hand(m, &id);
                }
            }
        }
        Effect::Draw { amount, who } => {
            for p in players(m, master, *who) {
                if super::raid::is_boss(&m.game, p) {
                    super::raid::boss_draws(m, p, *amount)?;
                    continue;
                }
                moves::draw(m, p, *amount);
            }
        }
        Effect::DrawUpTo { max, who } => {
            // 103.5.1.1: a number not chosen with the targets is chosen as
            // the effect resolves, a whole number from 0 (103.5.1).
            for p in players(m, master, *who) {
                let key = crate::engine::card::up_to_key(source, "draw", p);
                let n = m
                    .choices
                    .count(&key, crate::engine::card::up_to_max(*max))?;
                let n = i64::try_from(n).unwrap_or(i64::MAX);
                m.record(
                    "effect",
                    format!(
                        "{} chooses to draw {n} of up to {max}, as the effect resolves",
                        crate::engine::player_name(p)
                    ),
                    &[r::NUMBER_ON_RESOLUTION, r::NUMBER_CHOICE],
                );
                if super::raid::is_boss(&m.game, p) {
                    super::raid::boss_draws(m, p, n)?;
                } else {
                    moves::draw(m, p, n);
                }
            }
        }
        Effect::SetPower {
            attack,
            defense,
            target,
            until,
            always: false,
        } => {
            let rcs = targets_of(m, target);
            for id in modifiable(m, source, &rcs, *until)? {
                let parts = [("attack", *attack), ("defense", *defense)];
                push_modifiers(m, &id, source, &parts, *until, true);
                let show = |v: Option<i64>| v.map_or("unchanged".to_string(), |n| n.to_string());
                m.record(
                    "effect",
                    format!(
                        "{id}'s numbers are replaced: attack {}, HP {}; what was computed before is replaced, later additions count on it, and continuous changes apply after it",
                        show(*attack),
                        show(*defense)
                    ),
                    &[r::MODIFICATION, r::NUMBER_REPLACE_FIRST, r::NUMBER_REPLACE_LATER],
                )
                .obj(id.clone());
            }
        }
        Effect::Buff {
            attack,
            defense,
            target,
            ..
        } => {
            let until = e.until().unwrap_or_default();
            let rcs = targets_of(m, target);
            for id in modifiable(m, source, &rcs, until)? {
                let parts = [("attack", Some(*attack)), ("defense", Some(*defense))];
                push_modifiers(m, &id, source, &parts, until, false);
                m.record(
                    "effect",
                    format!("{id} gets {attack:+}/{defense:+} (attack/HP)"),
                    &[r::MODIFICATION, r::HP_CHANGE],
                )
                .obj(id.clone());
                if *defense != 0 {
                    damage::no_row_check_on_hp_change(m, &id);
                }
            }
        }
        Effect::SetState {
            state,
            clear,
            target,
        } => {
            for rc in targets_of(m, target) {
                let Recipient::Card(id) = rc else { continue };
                if shielded(m, &id, source) {
                    continue;
                }
                let rule = match state.as_str() {
                    st::FROZEN => r::FREEZE,
                    st::ON | st::OFF => r::ON_OFF,
                    st::FRONT | st::BACK => r::ROWS,
                    st::INVINCIBLE => r::GL_INVINCIBLE,
                    st::UNAFFECTED => r::GL_UNAFFECTED,
                    _ => r::ON_OFF,
                };
                match (state.as_str(), clear) {
                    (st::ON, false) | (st::OFF, true) => set_on(m, &id, true),
                    (st::OFF, false) | (st::ON, true) => set_on(m, &id, false),
                    (st::FRONT | st::BACK, _) => {
                        let back = (state == st::BACK) != *clear;
                        let from = if back { "front" } else { "back" };
                        let moves = m.game.card(&id).is_some_and(|c| c.has(from));
                        if moves && super::restrict::cant_move(m, &id, from, r::ROWS) {
                            continue;
                        }
                        if let Some(c) = m.game.cards.get_mut(&id) {
                            c.states.remove(st::FRONT);
                            c.states.remove(st::BACK);
                            c.states
                                .insert(if back { st::BACK } else { st::FRONT }.into());
                        }
                    }
                    (s, false) => {
                        if let Some(c) = m.game.cards.get_mut(&id) {
                            c.states.insert(s.to_string());
                        }
                    }
                    (s, true) => {
                        if let Some(c) = m.game.cards.get_mut(&id) {
                            c.states.remove(s);
                        }
                    }
                }
                m.record(
                    "effect",
                    format!(
                        "{id}: state {state} {}",
                        if *clear { "removed" } else { "set" }
                    ),
                    &[rule],
                );
                if state == st::UNAFFECTED && !clear {
                    voided_on_unaffected(m, &id);
                }
                if state == st::INVINCIBLE && !clear {
                    let others = m
                        .game
                        .card(&id)
                        .is_some_and(|c| c.modifiers.iter().any(|md| md.source != c.id.as_str()));
                    if others {
                        m.record(
                            "effect",
                            format!("{id} is 無敵: the modifications other cards' effects gave it do not work while it is 無敵"),
                            &[r::GL_INVINCIBLE],
                        )
                        .obj(id.clone());
                    }
                    // GL:無敵: the actives attached to it are destroyed.
                    let attached: Vec<CardId> = m
                        .game
                        .cards
                        .values()
                        .filter(|c| {
                            c.attached_to.as_deref() == Some(id.as_str())
                                && m.game
                                    .def_of(&c.id)
                                    .is_some_and(|d| d.card_type == types::ACTIVE)
                        })
                        .map(|c| c.id.clone())
                        .collect();
                    for a in attached {
                        moves::destroy(m, &a, &format!("{id} became 無敵"), &[r::GL_INVINCIBLE])?;
                    }
                }
            }
        }
        Effect::ResetDamage { target } => {
            for rc in targets_of(m, target) {
                let Recipient::Card(id) = rc else { continue };
                if let Some(c) = m.game.cards.get_mut(&id) {
                    let before = c.damage;
                    c.damage = 0;
                    c.counters.remove(super::FRONT_DAMAGE);
                    c.counters.remove(super::BACK_DAMAGE);
                    m.record(
                        "effect",
                        format!("all damage is removed from {id}"),
                        &[r::DAMAGE_NOT_HP],
                    )
                    .change(format!("{id}.damage"), before, 0);
                }
            }
        }
        Effect::Summon { card, count, who } => {
            for p in players(m, master, *who) {
                for _ in 0..*count {
                    let id =
                        m.game
                            .add_token(card, p, ZoneId::of(p, zn::FIELD), &[st::OFF, st::FRONT]);
                    m.game.events.push(crate::engine::Event::Moved {
                        card: id.clone(),
                        from: ZoneId::of(p, zn::EXCLUDED),
                        to: ZoneId::of(p, zn::FIELD),
                    });
                    m.record(
                        "effect",
                        format!("token {id} ({card}) enters the front row OFF"),
                        &[r::GL_TOKEN, r::CHARA_ENTERS_FRONT_OFF],
                    );
                }
            }
        }
        Effect::Put {
            to,
            target,
            top,
            who,
            // Into the master's zone: not implemented (the generic arm).
            yours: false,
        } => {
            let targeted = match target {
                Some(t) if top.is_none() => only_cards(targets_of(m, t)),
                _ => Vec::new(),
            };
            let top = top.map(|n| (n, players(m, master, *who)));
            super::put::put(m, master, source, to, target.as_ref(), top, targeted)?;
        }
        Effect::Shuffle { who } => {
            // The shuffle that ends a サーチ (301.2) or 回復X's first mode (302.9).
            let rule = if m
                .game
                .def_of(source)
                .is_some_and(|d| d.has_keyword("recover"))
            {
                r::RECOVER
            } else {
                r::SEARCH
            };
            for p in players(m, master, *who) {
                moves::shuffle_deck(m, p);
                m.record(
                    "effect",
                    format!("{} shuffles their deck", crate::engine::player_name(p)),
                    &[rule],
                );
            }
        }
        Effect::Lose { who } => {
            for p in players(m, master, *who) {
                m.game.players[p].lost = true;
            }
            finish(m);
        }
        Effect::Win { who } => {
            let winners = players(m, master, *who);
            m.game.win(&winners);
            finish(m);
        }
        Effect::Negate { target, abilities } => {
            let cards = only_cards(targets_of(m, target));
            super::negate::apply(m, source, cards, *abilities);
        }
        Effect::RollDie { sides, results } => {
            for picked in roll_die(m, source, *sides, results)? {
                apply_all(m, master, source, &picked, chosen)?;
            }
        }
        Effect::Reveal { target } => reveal(m, master, source, target, chosen)?,
        Effect::LoseAbilities { target, until } => {
            for rc in targets_of(m, target) {
                let Recipient::Card(id) = rc else { continue };
                if shielded(m, &id, source) || !super::continuous::in_play(&m.game, &id) {
                    continue;
                }
                super::abilities::lose(m, &id, *until);
            }
        }
        Effect::Restrict {
            action,
            target,
            who,
            types,
            until,
        } => {
            let cards = match target {
                Some(t) => {
                    let mut ids = Vec::new();
                    for rc in targets_of(m, t) {
                        if let Recipient::Card(id) = rc
                            && !shielded(m, &id, source)
                        {
                            ids.push(id);
                        }
                    }
                    Some(ids)
                }
                None => None,
            };
            let ps = players(m, master, *who);
            super::restrict::add(m, source, *action, cards, ps, types, *until)?;
        }
        Effect::Engage { target, with } => {
            let one = |rcs: Vec<Recipient>| match rcs.as_slice() {
                [Recipient::Card(id)] => Some(id.clone()),
                _ => None,
            };
            let (a, b) = if target.chosen().is_some() && with.chosen().is_some() {
                // Both sides chosen: the targets in the order `target`,
                // `with`, one each (targets::engage_sides); a side whose
                // target became illegal (406.4.1) leaves one card.
                match chosen {
                    [x, y] => (Some(x.id.clone()), Some(y.id.clone())),
                    _ => (None, None),
                }
            } else {
                (one(targets_of(m, target)), one(targets_of(m, with)))
            };
            match (a, b) {
                (Some(a), Some(b)) if a != b => {
                    super::battle::engage_resolved(m, a, b);
                }
                _ => {
                    m.record(
                        "effect",
                        "交戦する needs one card on each side, two different cards: nothing happens",
                        &[r::GL_ENGAGE, r::IMPOSSIBLE_IGNORED],
                    );
                }
            }
        }
        Effect::SelectTargets { target, then } => {
            select_targets(m, master, source, target, then)?;
        }
        Effect::WithX { effect } => {
            let scaled = super::x_amount::scaled(m, source, effect)?;
            apply(m, master, source, &scaled, chosen, each)?;
        }
        Effect::ModifyDamage { .. } => {
            return Err(ni(
                r::REPLACEMENT,
                "a damage change set up by a resolving effect: `modify_damage` works in a continuous ability (or one an effect sets up, 300.4.2)",
            ));
        }
        other => {
            return Err(ni(
                r::EFFECT_ORDER,
                format!(
                    "the effect `{}` is not implemented for PSO2",
                    serde_json::to_value(other)
                        .ok()
                        .and_then(|v| v.get("do").and_then(|d| d.as_str()).map(str::to_string))
                        .unwrap_or_default()
                ),
            ));
        }
    }
    Ok(())
}

/// How much one search finds: up to `count` (`up_to`: まで), and whether it
/// is one referent of a それぞれ instruction (`each`).
#[derive(Debug, Clone, Copy)]
struct Search {
    count: u32,
    up_to: bool,
    each: bool,
}

/// サーチ (301.2, GL:サーチ): the master looks at their own deck, finds
/// up to `count` cards matching `filter` (choice `<card>.search`: the ids;
/// none at all is allowed even when some match, GL:サーチ), reveals them,
/// adds them to their hand (not a draw) and then shuffles the deck, found
/// or not. `up_to: false` ("find 1") still lets the player find fewer when
/// the deck has fewer. With `each` (GL:それぞれ) the search is one of
/// several referents, each searched separately: a card only another
/// referent names cannot be taken under this one.
fn search(
    m: &mut M,
    master: PlayerId,
    source: &str,
    filter: &crate::engine::Filter,
    how: Search,
) -> Result<(), EngineError> {
    let Search { count, up_to, each } = how;
    let rules: &[&'static str] = if each {
        &[r::SEARCH, r::GL_SEARCH, r::GL_EACH]
    } else {
        &[r::SEARCH, r::GL_SEARCH]
    };
    let options: Vec<CardId> = m
        .game
        .zone_of(master, zn::DECK)
        .iter()
        .filter(|id| targets::found_by(&m.game, master, filter, id))
        .cloned()
        .collect();
    // 「AとBをそれぞれ1枚まで」 (GL:それぞれ): one search per name, each
    // with its own choice.
    let key = match &filter.name {
        Some(n) => format!("{source}.search.{n}"),
        None => format!("{source}.search"),
    };
    let found = if options.is_empty() {
        m.choices.take(&key);
        Vec::new()
    } else {
        let deck = m.game.zone_of(master, zn::DECK).to_vec();
        let mut ids = super::put::required(m, &key, &deck, &options)?;
        if let Some(bad) = ids.iter().find(|id| !options.contains(id)) {
            return Err(match (each, &filter.name) {
                (true, Some(n)) => super::illegal(
                    r::GL_EACH,
                    format!(
                        "{bad} is not 「{n}」: each name is searched separately (それぞれ), so this search finds 「{n}」 only"
                    ),
                    texts(&options),
                ),
                _ => super::illegal(
                    r::SEARCH,
                    format!("{bad} is not a card this search finds"),
                    texts(&options),
                ),
            });
        }
        ids.sort();
        ids.dedup();
        if ids.len() > count as usize {
            let bound = if up_to { "up to" } else { "at most" };
            let bound = format!("{bound} {count} ({})", r::SEARCH);
            return Err(super::put::wrong_count(key, ids.len(), bound, &options));
        }
        ids
    };
    let who = crate::engine::player_name(master);
    if found.is_empty() {
        m.record(
            "search",
            format!("{who} searches their deck and adds nothing to their hand"),
            rules,
        );
    } else {
        m.record(
            "search",
            format!(
                "{who} searches their deck, reveals {} and adds it to their hand (not a draw)",
                found.join(", ")
            ),
            rules,
        );
        for id in &found {
            moves::move_to(m, id, ZoneId::of(master, zn::HAND));
        }
    }
    moves::shuffle_deck(m, master);
    m.record(
        "search",
        format!("{who} shuffles their deck after the search, whether or not a card was found"),
        rules,
    );
    Ok(())
}

fn finish(m: &mut M) {
    m.record(
        "effect",
        "a card's effect decides the game",
        &[r::TEXT_OVER_RULES, r::GAME_ENDS],
    );
    super::end::when_one_is_left(m, &[r::TEXT_OVER_RULES, r::LEAVES_GAME]);
}

//! Playing cards (504.1.1–504.1.3, 504.2) and activating abilities
//! (504.1.4, 300.3, ウォークライ 302.1@2): who may, when (【Main】 or quick,
//! 103.7.1.1), the colour requirement and the cost (209), the targets or the
//! host (406.2.2, 205.4), then the card or ability goes to the resolution
//! zone and the right to act passes to the opponent (103.6.1.6).

use super::state::TurnLock;
use super::{
    Ctx, Entry, EntryKind, M, Step, Window, cost, equip, illegal, is_item_type, is_on, r, set_on,
    targets, types, zn,
};
use crate::engine::{Action, CardId, EngineError, PlayerId, ZoneId, player_name, texts};

/// Whether `p` may use an empty-zone main-phase action now (103.6.2.2).
fn main_timing(m: &M, ctx: &Ctx, p: PlayerId) -> bool {
    ctx.window == Window::Main && ctx.stack.is_empty() && p == m.game.turn.active
}

/// Hands the right to act to the next player after using it (103.6.1.6).
fn hand_over(m: &mut M, mut ctx: Ctx) {
    let n = m.game.players.len();
    let p = ctx.holder;
    ctx.holder = (1..n)
        .map(|k| p.after(k, n))
        .find(|&q| !m.game.players[q].lost)
        .unwrap_or(p.next(n));
    ctx.passes = 0;
    m.then([Step::Priority(Box::new(ctx))]);
}

/// Plays a card from hand.
pub fn play(m: &mut M, mut ctx: Ctx, a: &Action) -> Result<(), EngineError> {
    let p = ctx.holder;
    let hand = m.game.zone_of(p, zn::HAND).to_vec();
    let Some(card) = a.card.clone().filter(|c| hand.contains(c)) else {
        return Err(illegal(
            r::PLAY,
            "a card is played from its player's hand",
            texts(&hand),
        ));
    };
    let def = m
        .game
        .def_of(&card)
        .cloned()
        .ok_or_else(|| super::bad("unknown card"))?;
    let t = def.card_type.as_str();
    let main_only = match t {
        types::CHARA => Some(r::PLAY_CHARA_EMPTY),
        _ if is_item_type(t) => Some(r::PLAY_ITEM_EMPTY),
        types::ACTIVE if def.has_keyword("main") => Some(r::PLAY_ACTIVE_MAIN),
        types::ACTIVE => None,
        _ => {
            return Err(illegal(
                r::PLAY,
                format!("a {t} card is not played from hand"),
                vec![],
            ));
        }
    };
    if let Some(src) =
        super::restrict::forbidding(&m.game, p, None, crate::engine::Restricted::Play, Some(t))
    {
        return Err(super::restrict::refuse(
            format!("{} can't play {card} (a {t})", player_name(p)),
            &src,
        ));
    }
    if let Some(rule) = main_only
        && !main_timing(m, &ctx, p)
    {
        return Err(illegal(
            rule,
            format!(
                "{card} can be played only by the turn player in their main phase with nothing in the resolution zone"
            ),
            vec![],
        ));
    }
    cost::check_color(
        m,
        p,
        cost::color(&def),
        if def.cost.unwrap_or(0) == 0 {
            r::COLOR_REQUIREMENT_ZERO
        } else {
            r::COLOR_REQUIREMENT
        },
    )?;
    // Targets or host, chosen as it is put in the zone (406.2.2.1).
    let chosen = match t {
        types::WEAPON | types::ARMOR => vec![equip::choose_host(m, p, &card, a.target.as_deref())?],
        types::ACTIVE if def.has_keyword("attach") => {
            vec![attach_host(m, &card, a.target.as_deref())?]
        }
        _ => {
            let effects = super::modes::declare(m, &def, &card)?;
            match targets::choose(m, p, &card, &effects, "targets", a.target.as_deref())? {
                Some(c) => c,
                None => {
                    return Err(illegal(
                        r::NO_TARGET_NO_PLAY,
                        format!("{card} needs a target and none can be chosen"),
                        vec![],
                    ));
                }
            }
        }
    };
    let to_pay = cost::to_play(m, p, &card, &def)?;
    cost::pay(m, p, to_pay, &card)?;
    m.game
        .move_card(&card, ZoneId::shared(zn::RESOLUTION), false);
    if let Some(x) = super::state::of(&mut m.game).x_pending.take()
        && let Some(c) = m.game.cards.get_mut(&card)
    {
        c.counters.insert(cost::X.into(), x);
    }
    let mut rules = vec![r::PLAY, r::PRIORITY_ACTIONS, r::RESOLUTION_ORDER];
    if main_only.is_none() {
        rules.push(r::PLAY_ACTIVE_QUICK);
        rules.push(r::QUICK);
        if !ctx.stack.is_empty() {
            rules.push(r::RESPONSE);
        }
    } else {
        rules.push(match t {
            types::CHARA => r::PLAY_CHARA,
            types::ACTIVE => r::PLAY_ACTIVE_MAIN,
            _ => r::PLAY_ITEM,
        });
        // GL:【Main】: the term the card prints for this timing.
        if t == types::ACTIVE {
            rules.push(r::GL_MAIN);
        }
        rules.push(main_only.unwrap_or(r::PLAY));
    }
    if !chosen.is_empty() {
        rules.push(r::TARGET_AT_DECLARATION);
        rules.push(r::TARGET_LEGAL);
        let effects: Vec<_> = def
            .abilities
            .iter()
            .flat_map(|ab| ab.effect.clone())
            .collect();
        let selector = targets::selector(&effects);
        match selector.as_ref().map(|s| s.0.side) {
            Some(crate::engine::Side::You) => rules.push(r::ALLY),
            Some(crate::engine::Side::Opponent) => rules.push(r::OPPONENT_SIDE),
            _ => {}
        }
        // A cost bound reads a card's cost as changed in every zone (209.4.2).
        if selector.as_ref().is_some_and(|s| !s.0.parts().is_empty())
            && chosen
                .iter()
                .any(|c| cost::own_cost_delta(&m.game, &c.id) != 0)
        {
            rules.push(r::COST_CHANGE_EVERY_ZONE);
        }
        if def.has_keyword("recover") {
            rules.push(r::RECOVER);
            rules.push(r::GL_RECOVER);
            if chosen
                .iter()
                .any(|c| m.game.card(&c.id).is_some_and(|x| x.controller != p))
            {
                rules.push(r::RAID_RECOVER);
            }
        }
        // 「AまたはB」 as the elements to choose from (GL:または ※1): any
        // mix of them, A and A or A and B.
        if selector.is_some_and(|s| {
            s.0.types.len() > 1
                || s.0
                    .with_trait
                    .as_deref()
                    .is_some_and(|t| targets::alternatives(t).count() > 1)
        }) {
            rules.push(r::GL_OR);
        }
    }
    m.record(
        "play",
        format!(
            "{} plays {card} ({}) into the resolution zone{}",
            player_name(p),
            def.name,
            if chosen.is_empty() {
                String::new()
            } else {
                format!(
                    ", choosing {}",
                    chosen
                        .iter()
                        .map(|c| c.id.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            }
        ),
        &rules,
    )
    .obj(card.clone());
    ctx.stack.push(Entry {
        kind: EntryKind::Card(card),
        master: p,
        targets: chosen,
    });
    hand_over(m, ctx);
    Ok(())
}

/// The host (付与先) of an attach active: a chara on the field, given as the
/// action's `target` (204.2.2.2.1, 301.8).
fn attach_host(m: &mut M, card: &str, target: Option<&str>) -> Result<super::Chosen, EngineError> {
    let options: Vec<CardId> = m
        .game
        .cards
        .values()
        .filter(|c| {
            c.zone.kind == zn::FIELD
                && super::ctype(&m.game, &c.id) == types::CHARA
                && !c.has(super::st::UNTARGETABLE)
        })
        .map(|c| c.id.clone())
        .collect();
    if options.is_empty() {
        return Err(illegal(
            r::NO_TARGET_NO_PLAY,
            format!("{card} needs a host (付与先) and none can be chosen"),
            vec![],
        ));
    }
    let Some(host) = target.filter(|t| options.iter().any(|o| o == t)) else {
        return Err(EngineError::MissingChoice {
            choice: "target".into(),
            options: texts(&options),
        });
    };
    m.record(
        "play",
        format!("{card}'s host (付与先) {host} is chosen before it goes to the resolution zone"),
        &[r::ATTACH_CHOOSE_HOST, r::ATTACH_KEYWORD],
    );
    let generation = m.game.card(host).map_or(0, |c| c.incarnation);
    Ok(super::Chosen {
        id: host.into(),
        generation,
    })
}

/// Activates an ability: ウォークライ (choice `ability`: `war_cry`) or an
/// `activated` ability of the card (choice `ability`: its index among the
/// card's activated abilities, default the only one).
pub fn activate(m: &mut M, mut ctx: Ctx, a: &Action) -> Result<(), EngineError> {
    let p = ctx.holder;
    let Some(card) = a.card.clone() else {
        return Err(super::bad(
            "`activate` needs the card whose ability is activated",
        ));
    };
    let Some(c) = m.game.card(&card).cloned() else {
        return Err(super::bad(format!("unknown card {card}")));
    };
    let def = m
        .game
        .def_of(&card)
        .cloned()
        .ok_or_else(|| super::bad("unknown card"))?;
    if super::mag::under_the_mag(&m.game, &card) {
        return Err(illegal(
            r::MAG_GAINS,
            format!(
                "{card} is still under the Mag: the Mag gains its abilities only once it is stacked on it"
            ),
            vec![],
        ));
    }
    if c.controller != p || !matches!(c.zone.kind, zn::FIELD | zn::PLAYER | zn::MAG) {
        return Err(illegal(
            r::ACTIVATED,
            format!("{} does not control {card} on the field", player_name(p)),
            vec![],
        ));
    }
    if super::abilities::lost(&m.game, &card) {
        return Err(illegal(
            r::LOSE_ABILITIES,
            format!("{card} has lost its abilities: it has no ability to activate"),
            vec![],
        ));
    }
    let activated: Vec<usize> = def
        .abilities
        .iter()
        .enumerate()
        .filter(|(_, ab)| ab.trigger == "activated")
        .map(|(i, _)| i)
        .collect();
    let which = m.choices.take("ability");
    let war_cry = def.has_keyword("war_cry")
        && (which.as_ref().and_then(|v| v.as_str()) == Some("war_cry")
            || (which.is_none() && activated.is_empty()));
    if war_cry {
        return war_cry_activate(m, ctx, &card);
    }
    let idx = match which.as_ref() {
        Some(v) => v
            .as_u64()
            .and_then(|i| activated.get(i as usize).copied())
            .ok_or_else(|| EngineError::BadChoice {
                choice: "ability".into(),
                value: v.to_string(),
                options: (0..activated.len()).map(|i| i.to_string()).collect(),
            })?,
        None if activated.len() == 1 => activated[0],
        None if activated.is_empty() => {
            return Err(illegal(
                r::ACTIVATED,
                format!("{card} has no activated ability"),
                vec![],
            ));
        }
        None => {
            return Err(EngineError::MissingChoice {
                choice: "ability".into(),
                options: (0..activated.len()).map(|i| i.to_string()).collect(),
            });
        }
    };
    if def.has_keyword("main") && !main_timing(m, &ctx, p) {
        return Err(illegal(
            r::ACTIVATE_MAIN,
            "a 【Main】 ability is activated only in its player's main phase with nothing in the resolution zone",
            vec![],
        ));
    }
    // 【ON⇒OFF】: turn this ON card OFF, paid at declaration (209.1.3.1).
    let ability = def.abilities[idx].clone();
    super::ability_cost::check_on_off(m, &card, &ability)?;
    if def.has_keyword("once_per_turn") || def.has_keyword("name_once_per_turn") {
        let key = if def.has_keyword("name_once_per_turn") {
            TurnLock::Name(super::super::names::game_name(&def))
        } else {
            TurnLock::Once(card.clone(), c.incarnation)
        };
        if super::state::lock(&mut m.game, key) {
            return Err(illegal(
                if def.has_keyword("name_once_per_turn") {
                    r::NAME_ONCE_PER_TURN
                } else {
                    r::ONCE_PER_TURN
                },
                format!("{card}'s ability was already used this turn"),
                vec![],
            ));
        }
    }
    let effects = def.abilities[idx].effect.clone();
    let Some(chosen) = targets::choose(m, p, &card, &effects, "targets", a.target.as_deref())?
    else {
        return Err(illegal(
            r::NO_TARGET_NO_PLAY,
            format!("{card}'s ability needs a target and none can be chosen"),
            vec![],
        ));
    };
    let on_off = super::ability_cost::costs_on_off(&ability);
    m.record(
        "activate",
        format!(
            "{} activates {card}'s ability{}",
            player_name(p),
            if on_off {
                ", paying 【ON⇒OFF】"
            } else {
                ": its cost has no 【ON⇒OFF】, the card stays as it is"
            }
        ),
        &[
            r::ACTIVATED,
            r::OTHER_COST_AT_DECLARATION,
            if on_off {
                r::GL_ON_OFF
            } else {
                r::GL_ACTIVATED_FORM
            },
            r::ACTIVATE,
            r::PRIORITY_ACTIONS,
            if def.has_keyword("main") {
                r::ACTIVATE_MAIN
            } else {
                r::ACTIVATE_QUICK
            },
        ],
    )
    .obj(card.clone());
    if !ctx.stack.is_empty()
        && let Some(e) = m.trace.last_mut()
    {
        e.rule(r::RESPONSE);
    }
    let x = super::ability_cost::pay_activated(m, p, &card, &def, &ability)?;
    let key = m.game.card(&card).map_or(c.def.clone(), |x| x.def.clone());
    ctx.stack.push(Entry {
        kind: EntryKind::Ability {
            card: card.clone(),
            def: key.to_string(),
            ability: idx,
            trigger: "activated".into(),
            x,
            generation: m.game.card(&card).map_or(0, |c| c.incarnation),
        },
        master: p,
        targets: chosen,
    });
    hand_over(m, ctx);
    Ok(())
}

/// ウォークライ: 【ON⇒OFF】, only while an ally is being attacked, up to the
/// attack-participation step (302.1@2, 506.4.2).
fn war_cry_activate(m: &mut M, mut ctx: Ctx, card: &str) -> Result<(), EngineError> {
    let p = ctx.holder;
    let Some(b) = ctx.battle.as_ref() else {
        return Err(illegal(
            r::WAR_CRY,
            "ウォークライ is activated only while an ally is being attacked",
            vec![],
        ));
    };
    if !matches!(ctx.window, Window::BattleStart | Window::Participation) {
        return Err(illegal(
            r::RETARGET_UNTIL,
            "the attack target can be changed only up to the attack-participation step",
            vec![],
        ));
    }
    // In the raid battle War Cry also protects other party members (RAID:S1).
    let raid = super::raid::on(&m.game);
    let ally = |q: PlayerId| q == p || (raid && !super::raid::opposed(&m.game, p, q));
    let ally_attacked = b.targets.iter().any(|t| match t {
        super::Foe::Player(q) => ally(*q),
        super::Foe::Card(id) => m.game.card(id).is_some_and(|c| ally(c.controller)),
    });
    if b.side == p || !ally_attacked {
        return Err(illegal(
            r::WAR_CRY,
            "ウォークライ is activated only while an ally (味方) is being attacked",
            vec![],
        ));
    }
    if m.game.card(card).is_none_or(|c| c.zone.kind != zn::FIELD) || !is_on(&m.game, card) {
        return Err(illegal(
            r::WAR_CRY,
            format!("{card} must be ON on the field to pay 【ON⇒OFF】"),
            vec![],
        ));
    }
    let for_other = b.targets.iter().any(|t| match t {
        super::Foe::Player(q) => *q != p,
        super::Foe::Card(id) => m.game.card(id).is_some_and(|c| c.controller != p),
    });
    if raid && for_other {
        m.record(
            "activate",
            "in the raid battle War Cry may protect another party member",
            &[r::RAID_WAR_CRY],
        );
    }
    m.record(
        "activate",
        format!(
            "{} activates {card}'s ウォークライ, turning it OFF",
            player_name(p)
        ),
        &[
            r::WAR_CRY,
            r::OTHER_COST_AT_DECLARATION,
            r::RETARGET_UNTIL,
            r::QUICK,
            r::ACTIVATE_QUICK,
        ],
    )
    .obj(card.to_string());
    set_on(m, card, false);
    let generation = m.game.card(card).map_or(0, |c| c.incarnation);
    ctx.stack.push(Entry {
        kind: EntryKind::WarCry(card.into()),
        master: p,
        targets: vec![super::Chosen {
            id: card.into(),
            generation,
        }],
    });
    hand_over(m, ctx);
    Ok(())
}

//! Playing a card (4.7.2): announcing it, its timing (3.8.2–3.8.4), where
//! a unit or base goes (2.20.1-2, 2.20.2-2), targets (4.7.2-5), the cost
//! fixed and paid at once (4.7.2-7, -8); the card goes on the stack as a
//! spell (2.21) and counts as played (4.7.2-9).

use crate::engine::{Action, CardId, EngineError, Game, PlayerId, ZoneId, player_name};

use super::{
    Entry, Kind, M, board, cost, ctype, dz, dz_ref, has_kw, illegal, label, modes, r, special_play,
    targets, text, types,
};

/// Where the card is played from: its hand or its plan zone (3.8.2-5).
fn source_zone(m: &M, p: PlayerId, card: &str) -> Option<&'static str> {
    ["hand", "plan"]
        .into_iter()
        .find(|z| m.game.zone_of(p, z).iter().any(|c| c == card))
}

/// Cards `p` could try to play now, for "legal instead" lists.
fn playable(m: &M, p: PlayerId) -> Vec<String> {
    m.game
        .zone_of(p, "hand")
        .iter()
        .chain(m.game.zone_of(p, "plan"))
        .map(|c| format!("play {c}"))
        .collect()
}

/// The card's timing (2.9): `normal` unless the text says otherwise.
pub fn timing<'a>(m: &'a M, card: &str) -> &'a str {
    text(&m.game, card, "timing").unwrap_or("normal")
}

/// The unit with 閃光 whose move is on the stack, if any (5.14.2): while
/// it is there no player plays a card; activating an ability is not
/// playing a card (4.3, 4.7.2), so it stays allowed.
pub fn flash_move(g: &Game) -> Option<CardId> {
    dz_ref(g).stack.iter().find_map(|e| match &e.kind {
        Kind::Move { unit, .. } if has_kw(g, unit, "flash") => Some(unit.clone()),
        _ => None,
    })
}

/// Checks the timing permission (3.8.1–3.8.4): `normal` covers a card
/// from the plan zone and the rule-defined Normal actions.
pub fn check_timing(
    m: &M,
    p: PlayerId,
    timing: &str,
    what: &str,
    alts: Vec<String>,
) -> Result<(), EngineError> {
    let d = dz_ref(&m.game);
    if m.game.turn.phase != "main" {
        return Err(illegal(
            r::MAIN,
            format!(
                "{what}: cards are played and abilities activated only in a main phase (this is the {} phase)",
                m.game.turn.phase
            ),
            vec!["pass".into()],
        ));
    }
    let in_battle = !d.battles.is_empty();
    match timing {
        "battle" => Ok(()),
        // Quick and Normal actions are taken only outside a battle (3.8.3,
        // 3.8.2); Battle ones at any time of a main phase (3.8.4).
        _ if in_battle => Err(illegal(
            if timing == "quick" {
                r::QUICK
            } else {
                r::NORMAL
            },
            format!("{what}: during a battle only Battle timing is allowed (3.8.4)"),
            alts,
        )),
        "quick" => Ok(()),
        _ => {
            if p != m.game.turn.active || !d.stack.is_empty() {
                return Err(illegal(
                    r::NORMAL,
                    format!("{what}: Normal timing needs your own main phase and an empty stack"),
                    alts,
                ));
            }
            Ok(())
        }
    }
}

/// The squares a unit of `p` may be played to (2.20.1-2): own or central
/// area, none of `p`'s units there.
pub fn unit_squares(m: &M, p: PlayerId) -> Vec<&'static str> {
    board::SQUARES
        .iter()
        .copied()
        .filter(|s| board::area_for(s, p) < 2 && m.game.zone_of(p, s).is_empty())
        .collect()
}

/// Plays `a.card` for `p`.
pub fn play(m: &mut M, p: PlayerId, a: &Action) -> Result<(), EngineError> {
    let card = a
        .card
        .clone()
        .ok_or_else(|| super::bad("`play` needs `card`"))?;
    let Some(from) = source_zone(m, p, &card) else {
        return Err(illegal(
            r::NORMAL_PLAY,
            format!("{card} is not in {}'s hand or plan zone", player_name(p)),
            playable(m, p),
        ));
    };
    if let Some(f) = &a.from
        && f != from
    {
        return Err(super::bad(format!(
            "{card} is in the {from} zone, not `{f}`"
        )));
    }
    // 閃光: while this card's move is on the stack nobody plays cards.
    if let Some(flash) = flash_move(&m.game) {
        return Err(illegal(
            r::FLASH,
            format!("the move of {flash} (閃光) is on the stack: no card can be played"),
            vec!["pass".into()],
        ));
    }
    // 召集 or 隊列召喚 (5.3, 5.8): where the unit may go and its cost.
    let special = special_play::decide(m, p, &card)?;
    // A card from the plan zone is played as a Normal action (3.8.2-5).
    let t = if from == "plan" {
        "normal"
    } else {
        timing(m, &card)
    };
    let what = format!("playing {}", label(&m.game, &card));
    check_timing(m, p, t, &what, vec!["pass".into()]).map_err(|e| {
        if from == "plan" {
            super::activate::with_rule(e, r::PLAN_PLAY)
        } else {
            e
        }
    })?;
    let kind = ctype(&m.game, &card).to_string();
    let square: Option<&'static str> = match kind.as_str() {
        types::UNIT => {
            let legal = match &special {
                Some(sp) => special_play::squares(m, p, &card, sp),
                None => unit_squares(m, p),
            };
            let alts = legal.iter().map(|s| format!("play {card} {s}")).collect();
            let Some(s) = a.target.as_deref().and_then(board::square) else {
                return Err(illegal(
                    r::UNIT_SQUARE,
                    format!(
                        "a unit is played to a battle square (`target`: {})",
                        legal.join(", ")
                    ),
                    alts,
                ));
            };
            if let Some(sp) = &special
                && !legal.contains(&s)
            {
                return Err(illegal(
                    special_play::deciding_rule(m, &card, sp),
                    format!(
                        "{s} is not a square {card} may be played to {} (there: {})",
                        special_play::describe(m, sp),
                        if legal.is_empty() {
                            "none".to_string()
                        } else {
                            legal.join(", ")
                        }
                    ),
                    alts,
                ));
            }
            if !legal.contains(&s) {
                return Err(illegal(
                    r::UNIT_SQUARE,
                    format!(
                        "{s} is {} for {}{}: a unit is played to a square of your own or the central area with none of your units",
                        board::area_name(s, p),
                        player_name(p),
                        if m.game.zone_of(p, s).is_empty() {
                            ""
                        } else {
                            " and holds one of your units"
                        }
                    ),
                    alts,
                ));
            }
            Some(s)
        }
        types::BASE => {
            let legal: Vec<&'static str> = board::BASES
                .iter()
                .copied()
                .filter(|b| m.game.zone_of(p, b).is_empty())
                .collect();
            let alts = legal.iter().map(|s| format!("play {card} {s}")).collect();
            match a.target.as_deref() {
                Some(t) if legal.contains(&t) => legal.into_iter().find(|b| *b == t),
                _ => {
                    return Err(illegal(
                        r::BASE_SQUARE,
                        "a base is played to one of your base squares with none of your bases (`target`)",
                        alts,
                    ));
                }
            }
        }
        types::STRATEGY => None,
        other => {
            return Err(super::bad(format!(
                "{card} has type `{other}`: only units, bases and strategies are played"
            )));
        }
    };
    let mut rules = vec![
        r::PLAYING,
        r::ANNOUNCE,
        r::SPELL,
        r::SPELL_STACK,
        r::TYPES,
        r::TIMINGS,
    ];
    rules.push(match (kind.as_str(), from) {
        (types::UNIT, "plan") => r::UNIT_PLAN,
        (types::UNIT, _) => r::UNIT_PLAY,
        (types::BASE, "plan") => r::BASE_PLAN,
        (types::BASE, _) => r::BASE_PLAY,
        (_, "plan") => r::STRATEGY_PLAN,
        _ => r::STRATEGY_PLAY,
    });
    if square.is_some_and(board::is_square) {
        rules.push(r::UNIT_SQUARE);
    }
    if let Some(sp) = &special {
        rules.extend(special_play::rules(m, &card, sp));
    }
    rules.push(match (t, from) {
        (_, "plan") => r::PLAN_PLAY,
        ("quick", _) => r::QUICK_PLAY,
        ("battle", _) => r::BATTLE_PLAY,
        _ => r::NORMAL_PLAY,
    });
    rules.push(match (kind.as_str(), from) {
        (_, "plan") => r::PLAN_PLAY,
        (types::UNIT, _) => r::AREA_RULE_VIEW,
        (types::BASE, _) => r::BASE_SQUARE,
        (types::STRATEGY, _) => r::STRATEGY_COST,
        _ => r::STRATEGY_COST,
    });
    let where_to = square.map(|s| format!(" to {s}")).unwrap_or_default();
    let how = special
        .as_ref()
        .map(|sp| format!(" {}", special_play::describe(m, sp)))
        .unwrap_or_default();
    m.record(
        "play",
        format!(
            "{} plays {}{where_to} from the {from} zone ({t} timing){how}: it goes on the stack as a spell",
            player_name(p),
            label(&m.game, &card)
        ),
        &rules,
    )
    .obj(card.clone());
    if let Some(n) = special
        .as_ref()
        .and_then(|sp| special_play::note(m, &card, sp))
        && let Some(e) = m.trace.last_mut()
    {
        e.note(n);
    }
    m.game.move_card(&card, ZoneId::shared("stack"), false);
    if let Some(c) = m.game.cards.get_mut(&card) {
        c.controller = p;
    }
    // The options of a modal spell, then X, then the targets (4.7.2-2,
    // 4.7.2-3, 4.7.2-5).
    let picked = modes::decide(m, p, &card)?;
    // A use cost set by an effect is decided now (4.7.2-3): colourless N,
    // no X symbol left to decide.
    let set = super::statics::set_cost(&m.game, p, &card);
    // 覚醒 chosen before X (4.7.2-3): the cost's stat prefix.
    let mut prefix = super::awakening::decide(m, p, &card, from)?;
    if set.is_some() && !prefix.is_empty() {
        return Err(super::ni(
            r::AWAKENING,
            format!("{card}: 覚醒 while an effect sets its use cost"),
        ));
    }
    if special == Some(special_play::Special::Formation) {
        // The formation cost replaces the use cost (5.8.2).
        if set.is_some() || !prefix.is_empty() {
            return Err(super::ni(
                r::FORMATION_PLAY,
                format!("{card}: 隊列召喚 with 覚醒 or a use cost an effect sets"),
            ));
        }
        prefix = special_play::PREFIX;
    }
    let x = if set.is_some() {
        0
    } else {
        cost::decide_x(m, p, &card, prefix)?
    };
    // Units frozen as an additional cost, chosen after X (4.7.2-3).
    let freeze = super::freeze_cost::choose(m, p, &card, x)?;
    // Targets (4.7.2-5): none legal → it can't be played (4.11.3).
    let def = m
        .game
        .card(&card)
        .map(|c| c.def.clone())
        .unwrap_or_default();
    let effects = modes::spell_effects(&m.game, &def, &picked);
    let tg = targets::choose_for(m, p, &card, &effects, "targets")?;
    let Some(tg) = tg else {
        return Err(illegal(
            r::NO_TARGET,
            format!("{card} has no legal target, so it can't be played"),
            vec!["pass".into()],
        ));
    };
    super::divide::declare(m, p, &card, &effects, &tg)?;
    let mut c = cost::Cost::of(m, &card, prefix);
    c.add_x(m, &card, prefix, x);
    if let Some((n, by)) = set {
        c = cost::Cost {
            colourless: n.max(0),
            ..Default::default()
        };
        m.record(
            "cost",
            format!(
                "{}'s effect sets {card}'s use cost: it is decided as {} as the card is played",
                label(&m.game, &by),
                c.text()
            ),
            &[r::COST_FIXED, r::STATIC],
        );
    }
    if has_kw(&m.game, &card, "supply") {
        // 補給: −1 colourless per base on your base squares (5.15.2).
        let bases = board::BASES
            .iter()
            .filter(|b| !m.game.zone_of(p, b).is_empty())
            .count() as i64;
        c.colourless = (c.colourless - bases).max(0);
        m.record(
            "supply",
            format!(
                "補給: {bases} base(s) on {}'s base squares reduce the colourless cost",
                player_name(p)
            ),
            &[r::SUPPLY],
        );
    }
    m.record(
        "pay",
        format!("{} pays {} for {card}", player_name(p), c.text()),
        &[r::COST_LOCKED],
    );
    cost::pay(m, p, &c, &card)?;
    super::freeze_cost::pay(m, &freeze);
    dz(&mut m.game).stack.push(Entry {
        controller: p,
        kind: Kind::Spell {
            card: card.clone(),
            square,
            targets: tg,
            modes: picked,
            special,
        },
    });
    m.record(
        "played",
        format!("{card} has been played; AP receives priority"),
        &[r::PLAYED, r::PRIORITY_PASS],
    );
    Ok(())
}

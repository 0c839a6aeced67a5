//! Restrictions ("can't", 出来ない) and their precedence over "can" / "does"
//! (1.3.2); attacks, blocks and cancellations created by effects (6.2.3.b/c,
//! 6.3.5, 6.3.6.a, 6.3.8, 6.4.5, 6.4.8, 1.12.7), with the interference that
//! an effect's attack opens in the middle of another one; the 奇襲 ambush +
//! 速攻 haste character played to block (10.3.2.b, 10.3.4); and the
//! 自分ターン１枚制限 / 相手ターン１枚制限 variants (10.21.3, 10.22.3, 10.23.3).
//!
//! A card restriction is a modifier `cant_attack` / `cant_block` on the card
//! (so it ends with the turn or when the card changes zones, like any other
//! modification). A player restriction is a game variable
//! `[turn.]cant.<action>.<player>.<types>.<source>`: the `turn.` ones end
//! with the turn (4.9.1.b), the others while the source card stays in the
//! zone (same object) it was in when the effect applied.

use super::*;
use crate::engine::texts;

/// The modifier stat a card restriction uses.
fn card_stat(a: Restricted) -> &'static str {
    match a {
        Restricted::Attack => "cant_attack",
        Restricted::Block => "cant_block",
        Restricted::Play => "cant_play",
        Restricted::MoveToPlayArea => "cant_move_to_play_area",
        Restricted::Move => "cant_move",
        Restricted::Draw => "cant_draw",
    }
}

fn action_word(a: Restricted) -> &'static str {
    match a {
        Restricted::Attack => "attack",
        Restricted::Block => "block",
        Restricted::Play => "play",
        Restricted::MoveToPlayArea => "move_to_play_area",
        Restricted::Move => "move",
        Restricted::Draw => "draw",
    }
}

/// 攻撃を行えない / 防御を行えない applies to the card (6.3.3.c, 6.4.3.d).
pub(super) fn card_cant(g: &Game, card: &str, a: Restricted) -> bool {
    g.card(card).is_some_and(|c| c.modifier(card_stat(a)) > 0)
}

/// The sources of the restrictions on player `p` forbidding `a` (for
/// `play`, of a card of type `card_type`) that are in force.
pub(super) fn player_cant(
    g: &Game,
    p: PlayerId,
    a: Restricted,
    card_type: Option<&str>,
) -> Vec<CardId> {
    let mut out = Vec::new();
    for (k, v) in vars(g) {
        let (rest, permanent) = match k.strip_prefix("turn.") {
            Some(r) => (r, false),
            None => (k.as_str(), true),
        };
        let Some(rest) = rest.strip_prefix(&format!("cant.{}.{}.", action_word(a), player_name(p)))
        else {
            continue;
        };
        let Some((types, source)) = rest.split_once('.') else {
            continue;
        };
        if permanent
            && g.card(source)
                .is_none_or(|c| i64::from(c.incarnation) + 1 != *v)
        {
            continue;
        }
        let applies = types == "any" || card_type.is_some_and(|t| types.split('+').any(|x| x == t));
        if applies {
            out.push(source.into());
        }
    }
    out
}

/// "Can't move" and "can't draw" (words other games added to the shared
/// language) are not modelled for PMV.
fn move_draw_not_implemented(a: Restricted) -> EngineError {
    EngineError::NotImplemented {
        clause: r::CANT_BEATS_CAN,
        what: format!("a \"can't {}\" restriction", action_word(a)),
    }
}

/// Applies a `restrict` effect.
pub(super) fn apply_restrict(m: &mut M, e: &Effect, at: Applied<'_>) -> R<()> {
    let Applied { this, master, objs } = at;
    let Effect::Restrict {
        action,
        target,
        who,
        types,
        until,
    } = e
    else {
        return Ok(());
    };
    let lasts = match until {
        Until::EndOfTurn => "until end of turn",
        Until::ThisTurn => "during this turn",
        Until::ThisInterference => "during this interference",
        Until::Permanent if target.is_some() => "while it stays on the field",
        Until::Permanent => "while the source stays where it is",
    };
    if target.is_some() {
        let rule = match action {
            Restricted::Attack => r::ATTACK_CANT,
            Restricted::Block => r::BLOCK_CANT,
            // The card can't be moved to the play area, so it can't be
            // played (5.2.2.g): a card in a hand can be the target.
            Restricted::MoveToPlayArea => r::PLAY_CAN_MOVE,
            Restricted::Move | Restricted::Draw => return Err(move_draw_not_implemented(*action)),
            Restricted::Play => {
                return Err(bad(
                    "a PMV card restriction is `attack` or `block`; \"can't play\" restricts a player (omit `target`)",
                ));
            }
        };
        for o in objs {
            let Some(c) = m.game.cards.get_mut(o.as_str()) else {
                continue;
            };
            c.modifiers.push(Modifier {
                stat: card_stat(*action).into(),
                delta: 1,
                set: false,
                always: false,
                until: *until,
                source: this.into(),
            });
            m.record(
                "restrict",
                format!("{o} can't {} ({lasts})", action_word(*action)),
                &[rule],
            )
            .obj(o.clone());
        }
        return Ok(());
    }
    let incarnation = m.game.card(this).map(|c| c.incarnation).unwrap_or(0);
    let kinds = if types.is_empty() {
        "any".to_string()
    } else {
        types.join("+")
    };
    for p in who_players(&m.game, master, *who) {
        let key = format!(
            "cant.{}.{}.{kinds}.{this}",
            action_word(*action),
            player_name(p)
        );
        match until {
            // Turn variables go at the turn change, after both 4.9.1.b and
            // 4.9.1.d.
            Until::EndOfTurn | Until::ThisTurn => {
                vars_mut(&mut m.game).insert(format!("turn.{key}"), 1);
            }
            Until::ThisInterference => {
                return Err(EngineError::NotImplemented {
                    clause: r::INTERFERENCE_DURATIONS,
                    what: "a player restriction lasting during this interference".into(),
                });
            }
            Until::Permanent => {
                vars_mut(&mut m.game).insert(key, i64::from(incarnation) + 1);
            }
        }
        let (text, rule) = match action {
            Restricted::Attack => (
                "can't make characters attack".to_string(),
                r::ATTACK_PLAYER_CANT,
            ),
            Restricted::Block => (
                "can't make characters block".to_string(),
                r::BLOCK_PLAYER_CANT,
            ),
            Restricted::MoveToPlayArea => (
                if types.is_empty() {
                    "can't move cards to the play area".to_string()
                } else {
                    format!("can't move {} cards to the play area", types.join(" or "))
                },
                r::PLAY_CAN_MOVE,
            ),
            Restricted::Move | Restricted::Draw => return Err(move_draw_not_implemented(*action)),
            Restricted::Play if types.is_empty() => ("can't play cards".into(), r::CANT_BEATS_CAN),
            Restricted::Play => (
                format!("can't play {} cards", types.join(" or ")),
                if types.iter().any(|t| t == "character") {
                    r::AMBUSH_CANT_PLAY
                } else {
                    r::CANT_BEATS_CAN
                },
            ),
        };
        m.record(
            "restrict",
            format!("{} {text} ({lasts})", player_name(p)),
            &[rule],
        );
    }
    Ok(())
}

/// The sources forbidding `card` (of type `card_type`, `player`'s) to be
/// moved to the play area: a restriction on the card or on its player.
pub(super) fn move_to_play_area_forbidden(
    g: &Game,
    player: PlayerId,
    card: &str,
    card_type: &str,
) -> Vec<CardId> {
    let mut sources = player_cant(g, player, Restricted::MoveToPlayArea, Some(card_type));
    if card_cant(g, card, Restricted::MoveToPlayArea) {
        sources.extend(g.card(card).into_iter().flat_map(|c| {
            c.modifiers
                .iter()
                .filter(|m| m.stat == card_stat(Restricted::MoveToPlayArea))
                .map(|m| m.source.clone())
        }));
    }
    sources
}

/// 1.3.2 / 10.3.3: a "can't play" restriction on `player` forbids playing
/// `card`, whatever lets it be played (ambush's command timing included);
/// 5.2.2.g: so does one forbidding the card to be moved to the play area,
/// since a card is played only if it can be moved there.
pub(super) fn check_play_restriction(g: &Game, p: &Pri, player: PlayerId, card: &str) -> R<()> {
    let t = def(g, card)
        .map(|d| d.card_type.clone())
        .unwrap_or_default();
    let unmovable = move_to_play_area_forbidden(g, player, card, &t);
    if !unmovable.is_empty() {
        return Err(illegal(
            r::PLAY_CAN_MOVE,
            format!(
                "{card} can't be moved to the play area ({}), so it can't be played: a card is played only if it can be moved there",
                unmovable.join(", ")
            ),
            legal_actions(g, p),
        ));
    }
    let sources = player_cant(g, player, Restricted::Play, Some(&t));
    if sources.is_empty() {
        return Ok(());
    }
    let ambush = t == "character" && has_kw(g, card, "ambush");
    Err(illegal(
        if t == "character" {
            r::AMBUSH_CANT_PLAY
        } else {
            r::CANT_BEATS_CAN
        },
        format!(
            "{} can't play {t} cards ({}){}",
            player_name(player),
            sources.join(", "),
            if ambush {
                ": ambush lets it be played at command timing, but a \"can't\" wins over a \"can\""
            } else {
                ""
            }
        ),
        legal_actions(g, p),
    ))
}

/// The restrictions that stop a declared attack (6.3.2.e, 6.3.3.c) or
/// block (6.4.2.d, 6.4.3.d): the player's, then the card's.
pub(super) fn check_restrictions(
    g: &Game,
    alts: &[String],
    player: PlayerId,
    card: &str,
    action: Restricted,
) -> R<()> {
    let (player_rule, card_rule) = match action {
        Restricted::Attack => (r::ATTACK_PLAYER_CANT, r::ATTACK_CANT),
        _ => (r::BLOCK_PLAYER_CANT, r::BLOCK_CANT),
    };
    let word = action_word(action);
    let sources = player_cant(g, player, action, None);
    if !sources.is_empty() {
        return Err(illegal(
            player_rule,
            format!(
                "{} can't make characters {word} ({})",
                player_name(player),
                sources.join(", ")
            ),
            alts.to_vec(),
        ));
    }
    if card_cant(g, card, action) {
        return Err(illegal(
            card_rule,
            format!("{card} can't {word}"),
            alts.to_vec(),
        ));
    }
    Ok(())
}

/// An attack stands: the attacking character is the same object on the
/// field and still attacking (not cancelled by an effect, 6.3.6.a).
pub(super) fn attack_stands(g: &Game, att: &Tgt) -> bool {
    same_on_field(g, att) && g.card(&att.0).is_some_and(|c| c.has(st::ATTACKING))
}

/// An attacking character exists, or an attack is being made (6.2.5.a).
fn attack_exists(g: &Game) -> Option<CardId> {
    g.cards
        .values()
        .find(|c| c.zone.kind == zn::FIELD && c.has(st::ATTACKING))
        .map(|c| c.id.clone())
        .or_else(|| pmv(g).attack_pending.then(|| "an attack being made".into()))
}

/// The interference being resolved (innermost), which an effect's block
/// joins and an effect's attack interrupts.
fn resolving(m: &mut M) -> Option<&mut Pri> {
    m.stack.iter_mut().rev().find_map(|s| match s {
        Step::Resolve(p) => Some(p),
        _ => None,
    })
}

/// One step of resolving the interference (1.12.8): the last entry, or,
/// with none left, the attack's combat and the close. Stepwise, so that an
/// attack an effect creates opens a new interference that interrupts this
/// one (6.3.5.a) and this one goes on once it closes.
pub(super) fn resolve_step(m: &mut M, mut p: Pri) -> R<()> {
    if game_over(&m.game) {
        return Ok(());
    }
    if let Some(e) = p.chain.pop() {
        m.stack.push(Step::Resolve(p));
        return resolve_entry(m, &e);
    }
    if let Some(att) = &p.attack {
        combat(m, att, p.blocker.as_ref())?;
    }
    if game_over(&m.game) {
        return Ok(());
    }
    if p.nested {
        m.record(
            "interference.close",
            "the interrupting interference closes; the interference it interrupted goes on resolving",
            &[r::RESOLVE_CLOSE, r::EFFECT_ATTACK_OPENS],
        );
        return Ok(());
    }
    // 1.12.8.c–d: "during this interference" effects end, then the
    // end-of-interference effects resolve (timing.rs).
    interference_ends(m)?;
    if game_over(&m.game) {
        return Ok(());
    }
    let tp = m.game.turn.active;
    m.record(
        "interference.close",
        format!("the interference closes; {} gets priority", player_name(tp)),
        &[r::RESOLVE_CLOSE],
    );
    // An end-the-turn / end-the-phase effect takes hold here (4.10.1.a).
    after_priority_effect(m, Pri::fresh(tp))
}

/// `attack`: an attack created by an effect (6.2.3.b with a target,
/// 6.2.3.c without).
pub(super) fn apply_attack(m: &mut M, e: &Effect, at: Applied<'_>) -> R<()> {
    let Applied { this, master, objs } = at;
    let Effect::Attack { target, who } = e else {
        return Ok(());
    };
    if target.is_some() {
        for o in objs {
            effect_attack(m, this, o, None)?;
        }
        return Ok(());
    }
    for p in who_players(&m.game, master, *who) {
        let sources = player_cant(&m.game, p, Restricted::Attack, None);
        if !sources.is_empty() {
            m.record(
                "attack.effect_fails",
                format!(
                    "{this}'s effect would make {} make a character attack, but {} can't make characters attack ({}): \"can't\" wins, no attack",
                    player_name(p),
                    player_name(p),
                    sources.join(", ")
                ),
                &[r::ATTACK_BY_PLAYER_EFFECT, r::ATTACK_PLAYER_CANT, r::CANT_BEATS_CAN],
            );
            continue;
        }
        // Judges' reading of 6.2.3.c: the player makes the attack as the
        // declaration of 6.3.4 would (an active character, put to sleep);
        // the option reads it as an effect's attack of 6.3.5 (any character
        // not under "can't attack", its state left as it is).
        let as_effect = reading(&m.game, PLAYER_ATTACK_AS_EFFECT);
        let able: Vec<CardId> = characters(&m.game, p)
            .into_iter()
            .filter(|c| {
                m.game
                    .card(c)
                    .is_some_and(|c| as_effect || !c.has(st::SLEEP))
                    && !card_cant(&m.game, c, Restricted::Attack)
            })
            .collect();
        let chosen = match able.len() {
            0 => {
                m.record(
                    "attack.effect_fails",
                    format!(
                        "{this}'s effect would make {} make a character attack, but none can (6.3.3: active, not under \"can't attack\"): no attack",
                        player_name(p)
                    ),
                    &[r::ATTACK_BY_PLAYER_EFFECT, r::ATTACK_CAPABLE],
                );
                continue;
            }
            1 if m.choices.take("attacker").is_none() => able[0].clone(),
            _ => {
                let v = match m.choices.ids("attacker", &able)? {
                    Some(v) => v,
                    None => {
                        return Err(EngineError::MissingChoice {
                            choice: "attacker".into(),
                            options: texts(&able),
                        });
                    }
                };
                if v.len() != 1 {
                    return Err(EngineError::BadChoice {
                        choice: "attacker".into(),
                        value: v.join(", "),
                        options: texts(&able),
                    });
                }
                v[0].clone()
            }
        };
        effect_attack(m, this, &chosen, Some(p))?;
    }
    Ok(())
}

/// The procedure of 6.3.5 for `card`; `by_player` when a player was made
/// to make it attack (6.2.3.c), which then also sleeps it (6.3.4.b).
fn effect_attack(m: &mut M, this: &str, card: &str, by_player: Option<PlayerId>) -> R<()> {
    if !on_field(&m.game, card) || !is_character(&m.game, card) {
        m.record(
            "attack.effect_fails",
            format!("{card} is not a character on the field: it cannot attack"),
            &[r::ATTACK_BY_CHARACTER_EFFECT, r::EFFECT_FAILS],
        );
        return Ok(());
    }
    if let Some(a) = attack_exists(&m.game) {
        m.record(
            "attack.effect_fails",
            format!("{this}'s effect would make {card} attack, but an attacking character already exists ({a}): the effect does not apply"),
            &[r::ONE_ATTACKER, r::ONE_ATTACKER_ONLY],
        );
        return Ok(());
    }
    if card_cant(&m.game, card, Restricted::Attack) {
        m.record(
            "attack.effect_fails",
            format!("{this}'s effect would make {card} attack, but {card} can't attack: \"can't\" wins over \"does\", no attack"),
            &[r::CANT_BEATS_CAN, r::ATTACK_CANT, r::ATTACK_BY_CHARACTER_EFFECT],
        );
        return Ok(());
    }
    if resolving(m).is_none() {
        return Err(EngineError::NotImplemented {
            clause: r::EFFECT_ATTACK_OPENS,
            what: format!(
                "{card} made to attack by {this} outside the resolution of an interference"
            ),
        });
    }
    let owner = m
        .game
        .card(card)
        .map(|c| c.controller)
        .unwrap_or(PlayerId::P1);
    let attacked = m.game.opponent(owner);
    let ps = player_cant(&m.game, owner, Restricted::Attack, None);
    let player_as_effect = reading(&m.game, PLAYER_ATTACK_AS_EFFECT);
    let effect_sleeps = reading(&m.game, EFFECT_ATTACK_BLOCK_SLEEPS);
    let sleeps = if by_player.is_some() {
        !player_as_effect
    } else {
        effect_sleeps
    };
    if sleeps && let Some(c) = m.game.cards.get_mut(card) {
        c.states.insert(st::SLEEP.into());
    }
    let e = m.record(
        "attack.effect",
        format!(
            "{this}'s effect makes {card} attack {}: a new interference opens and interrupts the one being resolved",
            player_name(attacked)
        ),
        &[
            r::ATTACK_OCCURS,
            if by_player.is_some() {
                r::ATTACK_BY_PLAYER_EFFECT
            } else {
                r::ATTACK_BY_CHARACTER_EFFECT
            },
            r::EFFECT_ATTACK,
            r::EFFECT_ATTACK_OPENS,
            r::EFFECT_ATTACK_WHEN,
        ],
    );
    e.obj(card.to_string());
    if let Some(p) = by_player {
        if player_as_effect {
            e.text
                .push_str(&format!("; {} chose {card}", player_name(p)));
            e.note(format!("reading chosen by the scenario ({PLAYER_ATTACK_AS_EFFECT}): the attack a player is made to make follows 6.3.5 alone; the character need not be active and does not go to sleep"));
        } else {
            e.text.push_str(&format!(
                "; {} chose {card}, which goes to sleep",
                player_name(p)
            ));
            e.note(format!("judge's reading: an effect that makes a player make a character attack (6.2.3.c) has the player choose a character able to attack (6.3.3) and sleep it as in 6.3.4.b; the rest follows 6.3.5. Option {PLAYER_ATTACK_AS_EFFECT} reads it as an effect's attack (no sleep)"));
        }
    } else if effect_sleeps {
        e.text.push_str(&format!("; {card} goes to sleep"));
        e.note(format!("reading chosen by the scenario ({EFFECT_ATTACK_BLOCK_SLEEPS}): an effect's attack sleeps the character as a declared attack does (6.3.4.b)"));
    } else {
        e.note(format!("judge's reading: 6.3.5 has no step that sleeps the character or requires it to be active (unlike 6.3.4.b), so an effect's attack leaves its state as it is. Option {EFFECT_ATTACK_BLOCK_SLEEPS} sleeps it"));
        if !ps.is_empty() {
            e.rule(r::EFFECT_ATTACK_DESPITE_PLAYER);
            e.text.push_str(&format!(
                "; {} can't make characters attack ({}), but an effect making the character attack is proper and the attack is made",
                player_name(owner),
                ps.join(", ")
            ));
        }
    }
    m.game.own::<PmvState>().attack_pending = true;
    let r0 = fire(m, "on_attack", &[card.into()], r::EFFECT_ATTACK_WHEN);
    m.game.own::<PmvState>().attack_pending = false;
    r0?;
    if game_over(&m.game) {
        return Ok(());
    }
    let mut np = Pri::fresh(attacked);
    np.nested = true;
    np.attack = Some(tgt(&m.game, card));
    if let Some(c) = m.game.cards.get_mut(card)
        && c.zone.kind == zn::FIELD
    {
        c.states.insert(st::ATTACKING.into());
        np.block_window = true;
        m.record(
            "attack.becomes",
            format!("{card} is the attacking character; once the effect being resolved is done, priority passes to {}, who may block", player_name(attacked)),
            &[r::EFFECT_ATTACK_BECOMES, r::EFFECT_ATTACK_AFTER, r::EFFECT_ATTACK_PASS, r::EFFECT_ATTACK_PRIORITY, r::NO_PRIORITY_WHILE_RESOLVING],
        );
    } else {
        m.record(
            "attack.cancelled",
            format!("{card} left the field during the attack procedure: the attack is cancelled; the new interference goes on without combat"),
            &[r::ATTACK_CANCELLED, r::ATTACK_CANCEL_LEFT],
        );
    }
    give_priority(m, np);
    Ok(())
}

/// `block`: the target blocks the current attack (6.4.5).
pub(super) fn apply_block(m: &mut M, this: &str, objs: &[String]) -> R<()> {
    for o in objs {
        effect_block(m, this, o, false)?;
    }
    Ok(())
}

/// 6.4.5 a–c for `card`: made to block by an effect, or (`ambush`) played
/// with 奇襲 + 速攻 to block (10.3.2.b).
fn effect_block(m: &mut M, this: &str, card: &str, ambush: bool) -> R<()> {
    let why = if ambush {
        format!("{card}, played to block,")
    } else {
        format!("{this}'s effect would make {card} block, but it")
    };
    let fail_rules: &[&'static str] = if ambush {
        &[r::AMBUSH_BLOCK, r::EFFECT_BLOCK, r::AMBUSH_BLOCK_SLEEPS]
    } else {
        &[r::EFFECT_BLOCK]
    };
    let Some(att) = m
        .game
        .cards
        .values()
        .find(|c| c.zone.kind == zn::FIELD && c.has(st::ATTACKING))
        .map(|c| c.id.clone())
    else {
        let e = m.record(
            "block.effect_fails",
            format!("{why} has no attack to block: the attack was cancelled or never made, so no block is made"),
            &[r::BLOCK_CANCEL_WITH_ATTACK],
        );
        e.rules.extend(fail_rules);
        return Ok(());
    };
    if !on_field(&m.game, card) || !is_character(&m.game, card) {
        let e = m.record(
            "block.effect_fails",
            format!("{why} is not a character on the field: no block"),
            &[r::EFFECT_FAILS],
        );
        e.rules.extend(fail_rules);
        return Ok(());
    }
    let att_owner = m
        .game
        .card(&att)
        .map(|c| c.controller)
        .unwrap_or(PlayerId::P1);
    let controller = m
        .game
        .card(card)
        .map(|c| c.controller)
        .unwrap_or(PlayerId::P1);
    if card == att || controller == att_owner {
        let e = m.record(
            "block.effect_fails",
            format!("{why} is {}: only a character of the attacked player blocks (6.4.3.a, 6.4.3.c); no block", if card == att { "the attacking character" } else { "on the attacking side" }),
            &[r::BLOCK_OWN_FIELD, r::BLOCK_NOT_ATTACKING],
        );
        e.rules.extend(fail_rules);
        return Ok(());
    }
    let Some(p) = resolving(m) else {
        return Err(EngineError::NotImplemented {
            clause: r::EFFECT_BLOCK,
            what: format!(
                "{card} made to block outside the resolution of the attack's interference (during combat)"
            ),
        });
    };
    if p.attack.as_ref().map(|a| a.0.as_str()) != Some(att.as_str()) {
        return Err(EngineError::NotImplemented {
            clause: r::EFFECT_BLOCK,
            what: format!("{card} made to block an attack of another interference"),
        });
    }
    if let Some(b) = p.blocker.clone().filter(|b| same_on_field(&m.game, b)) {
        let e = m.record(
            "block.effect_fails",
            format!(
                "{why} cannot block: {} is already the blocking character",
                b.0
            ),
            &[r::ONE_ATTACKER, r::ONE_BLOCKER],
        );
        e.rules.extend(fail_rules);
        return Ok(());
    }
    if card_cant(&m.game, card, Restricted::Block) {
        let e = m.record(
            "block.effect_fails",
            format!("{why} can't block: \"can't\" wins over \"does\", no block"),
            &[r::CANT_BEATS_CAN, r::BLOCK_CANT],
        );
        e.rules.extend(fail_rules);
        return Ok(());
    }
    let ps = player_cant(&m.game, controller, Restricted::Block, None);
    let effect_sleeps = !ambush && reading(&m.game, EFFECT_ATTACK_BLOCK_SLEEPS);
    if effect_sleeps && let Some(c) = m.game.cards.get_mut(card) {
        c.states.insert(st::SLEEP.into());
    }
    let e = m.record(
        "block.effect",
        if ambush {
            format!("{card} entered the field and now blocks {att}; it stays asleep whatever the block's outcome")
        } else {
            format!("{this}'s effect makes {card} block {att}")
        },
        &[r::EFFECT_BLOCK, r::EFFECT_BLOCK_WHEN],
    );
    e.obj(card.to_string());
    if ambush {
        e.rules.extend([r::AMBUSH_BLOCK, r::AMBUSH_BLOCK_SLEEPS]);
    } else {
        if effect_sleeps {
            e.text.push_str(&format!("; {card} goes to sleep"));
            e.note(format!("reading chosen by the scenario ({EFFECT_ATTACK_BLOCK_SLEEPS}): an effect's block sleeps the character as a declared block does (6.4.4.b)"));
        } else {
            e.note(format!("judge's reading: 6.4.5 has no step that sleeps the character or requires it to be active (unlike 6.4.4.b), so an effect's block leaves its state as it is. Option {EFFECT_ATTACK_BLOCK_SLEEPS} sleeps it"));
        }
        if !ps.is_empty() {
            e.rule(r::EFFECT_BLOCK_DESPITE_PLAYER);
            e.text.push_str(&format!(
                "; {} can't make characters block ({}), but an effect making the character block is proper and the block is made",
                player_name(controller),
                ps.join(", ")
            ));
        }
    }
    fire(m, "on_block", &[card.into()], r::EFFECT_BLOCK_WHEN)?;
    if game_over(&m.game) {
        return Ok(());
    }
    if !on_field(&m.game, card) {
        m.record(
            "block.cancelled",
            format!("{card} left the field while blocking: no blocking character"),
            &[r::EFFECT_BLOCK_BECOMES, r::BLOCK_CANCELLED_CONTINUES],
        );
        return Ok(());
    }
    let b = tgt(&m.game, card);
    if let Some(c) = m.game.cards.get_mut(card) {
        c.states.insert(st::BLOCKING.into());
    }
    if let Some(p) = resolving(m) {
        p.blocker = Some(b);
    }
    m.record(
        "block.becomes",
        format!("{card} is the blocking character"),
        &[r::EFFECT_BLOCK_BECOMES, r::EFFECT_BLOCK_AFTER],
    );
    Ok(())
}

/// `cancel_attack`: 6.3.6.a. The interference goes on; no combat is
/// resolved, and a block is cancelled with the attack (6.4.6).
pub(super) fn apply_cancel_attack(m: &mut M, this: &str) -> R<()> {
    let attacking: Vec<CardId> = m
        .game
        .cards
        .values()
        .filter(|c| c.has(st::ATTACKING))
        .map(|c| c.id.clone())
        .collect();
    if attacking.is_empty() {
        m.record(
            "attack.cancel",
            format!("{this}'s effect would cancel the attack, but there is none: nothing happens"),
            &[r::ATTACK_CANCEL_EFFECT],
        );
        return Ok(());
    }
    clear_combat_states(m);
    let e = m.record(
        "attack.cancel",
        format!(
            "{this}'s effect cancels the attack by {}: the interference goes on, but no combat is resolved; a block is cancelled with it",
            attacking.join(", ")
        ),
        &[r::ATTACK_CANCELLED, r::ATTACK_CANCEL_EFFECT, r::BLOCK_CANCEL_WITH_ATTACK],
    );
    for a in attacking {
        e.obj(a);
    }
    Ok(())
}

/// The `block: true` choice of a play (10.3.4: declared with the play):
/// a character with 奇襲 and 速攻 played as the direct answer to an
/// opponent's character's attack blocks that attack (10.3.2.b).
pub(super) fn ambush_block_declared(m: &mut M, p: &Pri, player: PlayerId, card: &str) -> R<bool> {
    let may = has_kw(&m.game, card, "ambush") && has_kw(&m.game, card, "haste");
    let others: &[&str] = if may { &["true"] } else { &[] };
    let yes = match m.choices.or_default("block", others) {
        None | Some(Value::Bool(false)) => return Ok(false),
        Some(Value::Bool(true)) => true,
        Some(v) => {
            return Err(EngineError::BadChoice {
                choice: "block".into(),
                value: v.to_string(),
                options: vec!["true".into(), "false".into()],
            });
        }
    };
    let g = &m.game;
    let alts = legal_actions(g, p);
    let fail = |rule, msg: String| illegal(rule, msg, alts.clone());
    if !(is_type(g, card, "character") && has_kw(g, card, "ambush") && has_kw(g, card, "haste")) {
        return Err(fail(
            r::AMBUSH_BLOCK,
            format!(
                "{card} is not a character card with both ambush and haste: it cannot be played to block"
            ),
        ));
    }
    let att = p.attack.clone().filter(|a| attack_stands(g, a));
    let Some(att) = att else {
        return Err(fail(
            r::AMBUSH_BLOCK,
            "there is no attack to answer: an ambush + haste character blocks only as the direct answer to an opponent's character's attack".into(),
        ));
    };
    if g.card(&att.0).is_some_and(|c| c.controller == player) {
        return Err(fail(
            r::AMBUSH_BLOCK,
            format!(
                "{} is {}'s own attacking character",
                att.0,
                player_name(player)
            ),
        ));
    }
    if !p.block_window {
        return Err(fail(
            r::AMBUSH_BLOCK,
            format!(
                "{card} can be played to block only as the direct answer to the attack (with the priority the attack passed, before anything else)"
            ),
        ));
    }
    if let Some(b) = &p.blocker {
        return Err(fail(
            r::ONE_BLOCKER,
            format!("{} is already the blocking character", b.0),
        ));
    }
    let sources = player_cant(g, player, Restricted::Block, None);
    if !sources.is_empty() {
        return Err(fail(
            r::BLOCK_PLAYER_CANT,
            format!(
                "{} can't make characters block ({}): {card} cannot be played to block",
                player_name(player),
                sources.join(", ")
            ),
        ));
    }
    Ok(yes)
}

/// Records the declared ambush block at play time and marks the card, so
/// its resolution blocks (6.4.5) and keeps it asleep (10.3.4).
pub(super) fn note_ambush_block(m: &mut M, card: &str, att: Option<&Tgt>) {
    let inc = m.game.card(card).map(|c| c.incarnation).unwrap_or(0);
    vars_mut(&mut m.game).insert(format!("ambush_block.{card}"), i64::from(inc) + 1);
    m.record(
        "ambush.block",
        format!(
            "{card} has ambush and haste and is played as the direct answer to the attack by {}: it is declared to block that attack; it will enter the field asleep and block after entering",
            att.map(|a| a.0.as_str()).unwrap_or("?")
        ),
        &[r::AMBUSH_BLOCK, r::AMBUSH_BLOCK_SLEEPS, r::AMBUSH_PLAY],
    )
    .obj(card.to_string());
}

/// Whether `card`, now resolving, was played to block (and forgets it).
pub(super) fn take_ambush_block(m: &mut M, card: &str) -> bool {
    let key = format!("ambush_block.{card}");
    let inc = m.game.card(card).map(|c| c.incarnation).unwrap_or(0);
    vars_mut(&mut m.game)
        .remove(&key)
        .is_some_and(|v| v == i64::from(inc) + 1)
}

/// After an ambush block character entered the field: 6.4.5 a–c.
pub(super) fn ambush_block_resolves(m: &mut M, card: &str) -> R<()> {
    effect_block(m, card, card, true)
}

/// The turn limits of a card, with the variants 10.21.3, 10.22.3 and
/// 10.23.3: (own turn only, opponent's turn only, one per turn), each with
/// the rule to cite.
pub(super) fn turn_limits(
    d: &crate::engine::CardDef,
) -> (
    Option<&'static str>,
    Option<&'static str>,
    Option<&'static str>,
) {
    let own = if d.has_keyword("own_turn_one_per_turn") {
        Some(r::OWN_TURN_ONE_PER_TURN)
    } else if d.has_keyword("own_turn_only") {
        Some(r::OWN_TURN_ONLY)
    } else {
        None
    };
    let opp = if d.has_keyword("opponent_turn_one_per_turn") {
        Some(r::OPPONENT_TURN_ONE_PER_TURN)
    } else if d.has_keyword("opponent_turn_only") {
        Some(r::OPPONENT_TURN_ONLY)
    } else {
        None
    };
    let one =
        if d.has_keyword("own_turn_one_per_turn") || d.has_keyword("opponent_turn_one_per_turn") {
            Some(r::ONE_PER_TURN_VARIANTS)
        } else if d.has_keyword("one_per_turn") {
            Some(r::ONE_PER_TURN)
        } else {
            None
        };
    (own, opp, one)
}

/// Records, at a play, which variant of ターン１枚制限 binds the card.
pub(super) fn note_turn_limit_variant(m: &mut M, card: &str, d: &crate::engine::CardDef) {
    let (what, rules): (&str, &[&'static str]) = if d.has_keyword("own_turn_one_per_turn") {
        (
            "自分ターン１枚制限: played in its player's own turn, and no other card of the same name may be played this turn",
            &[
                r::OWN_TURN_ONE_PER_TURN,
                r::OWN_TURN_ONLY,
                r::ONE_PER_TURN_VARIANTS,
                r::ONE_PER_TURN,
            ],
        )
    } else if d.has_keyword("opponent_turn_one_per_turn") {
        (
            "相手ターン１枚制限: played in the opponent's turn, and no other card of the same name may be played this turn",
            &[
                r::OPPONENT_TURN_ONE_PER_TURN,
                r::OPPONENT_TURN_ONLY,
                r::ONE_PER_TURN_VARIANTS,
                r::ONE_PER_TURN,
            ],
        )
    } else {
        return;
    };
    m.record("turn_limit", format!("{card} has {what}"), rules)
        .obj(card.to_string());
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::load_str;

    fn run(text: &str) -> Outcome {
        let loaded = load_str("t.json", text, None).expect("test scenario loads");
        loaded.module.run(loaded.game.clone(), &loaded.actions)
    }

    #[test]
    fn an_effect_attack_outside_an_interference_is_not_implemented() {
        // A start-of-turn automatic effect resolves with no interference
        // open: there is nothing for the new interference to interrupt.
        let out = run(r#"{ "game": "pmv", "name": "t", "source": "test",
              "cards": { "k": { "name": "鬼", "type": "character", "cost": 0, "attack": 3, "defense": 3,
                "abilities": [ { "trigger": "start_of_turn", "effect": [ { "do": "attack", "target": { "select": "this" } } ] } ] } },
              "state": { "turn": { "player": "p1", "phase": "start", "number": 3 },
                "players": { "p1": { "zones": { "deck": { "count": 5 }, "field": [ { "id": "k", "card": "k" } ] } },
                             "p2": { "zones": { "deck": { "count": 5 } } } } },
              "actions": [] }"#);
        let err = out.error.expect("stops");
        assert!(
            matches!(err.error, EngineError::NotImplemented { clause, .. } if clause == r::EFFECT_ATTACK_OPENS),
            "{:?}",
            err.error
        );
    }

    #[test]
    fn a_permanent_player_restriction_ends_when_its_source_leaves() {
        // The restriction comes from a command: `permanent` lasts while the
        // source stays where it was, so it ends when the command goes to
        // the Netherworld, and the attack is legal.
        let out = run(r#"{ "game": "pmv", "name": "t", "source": "test",
              "cards": { "k": { "name": "鬼", "type": "character", "cost": 0, "attack": 3, "defense": 3 },
                "c": { "name": "停戦", "type": "command", "cost": 0, "abilities": [ { "trigger": "effect",
                  "effect": [ { "do": "restrict", "action": "attack", "who": "opponent", "until": "permanent" } ] } ] } },
              "state": { "turn": { "player": "p1", "phase": "main", "number": 3 },
                "players": { "p1": { "zones": { "deck": { "count": 5 }, "field": [ { "id": "k", "card": "k" } ] } },
                             "p2": { "zones": { "deck": { "count": 5 }, "hand": [ { "id": "x", "card": "c" } ] } } } },
              "actions": [ { "do": "pass", "player": "p1" }, { "do": "play", "player": "p2", "card": "x" },
                           { "do": "pass", "player": "p1" }, { "do": "pass", "player": "p2" },
                           { "do": "attack", "card": "k" } ] }"#);
        assert!(out.error.is_none(), "{:?}", out.error);
        assert!(out.rejections.is_empty(), "{:?}", out.rejections);
        assert_eq!(
            out.state["cards"]["k"]["state"],
            serde_json::json!(["attacking", "sleep"])
        );
    }
}

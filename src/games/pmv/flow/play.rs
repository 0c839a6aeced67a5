//! Setting a node (1.8.2–1.8.3), playing a card (5.2.3) with its conditions (5.2.2), and resolving the interference 干渉 last in, first out (1.12).

use super::*;

pub(super) fn set_node(m: &mut M, mut p: Pri, player: PlayerId, card: &str) -> R<()> {
    let tp = m.game.turn.active;
    let alts = legal_actions(&m.game, &p);
    let fail = |rule, msg: String| illegal(rule, msg, alts.clone());
    if player != tp || m.game.turn.phase != "main" {
        return Err(fail(
            r::NODE_SET_MAIN,
            "a node is set only by the turn player in their main phase".into(),
        ));
    }
    if p.open() {
        return Err(fail(
            r::NODE_SET_NO_INTERFERENCE,
            "a node cannot be set while an interference is open".into(),
        ));
    }
    if var(&m.game, &turn_var("node_set", tp)) > 0 {
        return Err(fail(
            r::NODE_SET_ONCE,
            "a node was already set this turn".into(),
        ));
    }
    if !m.game.zone_of(player, zn::HAND).iter().any(|c| c == card) {
        return Err(fail(
            r::NODE_SET_FROM_HAND,
            format!("{card} is not in {}'s hand", player_name(player)),
        ));
    }
    let before = nodes(&m.game, player).len();
    m.game.move_card(card, ZoneId::of(player, zn::NODE), false);
    vars_mut(&mut m.game).insert(turn_var("node_set", tp), 1);
    m.record(
        "node.set",
        format!(
            "{} sets {card} as a node, face down and active; priority stays with them",
            player_name(player)
        ),
        &[
            r::NODE,
            r::NODE_SET,
            r::NODE_SET_FACE_DOWN,
            r::NODE_FACE_DOWN,
            r::NODE_SET_KEEPS_PRIORITY,
            r::NODE_SET_NOT_PLAY,
            r::PRIORITY_ACTIONS,
            r::PA_NODE,
        ],
    )
    .change(format!("{}.nodes", player_name(player)), before, before + 1);
    p.passes = 0;
    give_priority(m, p);
    Ok(())
}

pub(super) fn play_card(
    m: &mut M,
    mut p: Pri,
    player: PlayerId,
    card: &str,
    from: Option<&str>,
) -> R<()> {
    let g = &m.game;
    let alts = legal_actions(g, &p);
    let fail = |rule, msg: String| illegal(rule, msg, alts.clone());
    let in_hand = g.zone_of(player, zn::HAND).iter().any(|c| c == card);
    if let Some(f) = from
        && f != zn::HAND
    {
        return Err(bad(format!(
            "PMV cards are played from the hand, not `{f}`"
        )));
    }
    if !in_hand {
        return Err(bad(format!(
            "{card} is not in {}'s hand",
            player_name(player)
        )));
    }
    let Some(d) = def(g, card).cloned() else {
        return Err(bad(format!("{card} has no definition")));
    };
    let tp = g.turn.active;
    let sorcery_ok = player == tp && g.turn.phase == "main" && !p.open();
    let ambush = d.has_keyword("ambush");
    // 10.3.2.b / 10.3.4: an ambush + haste character declared to block.
    let ambush_block = ambush_block_declared(m, &p, player, card)?;
    let g = &m.game;
    let mut last_spell_note: Option<String> = None;
    let mut last_word_note: Option<(String, bool)> = None;
    match d.card_type.as_str() {
        "character" => {
            if !ambush {
                if player != tp {
                    return Err(fail(
                        r::CHAR_TURN_PLAYER,
                        "a character card is played only by the turn player".into(),
                    ));
                }
                if g.turn.phase != "main" {
                    return Err(fail(
                        r::CHAR_MAIN,
                        "a character card is played only in the main phase".into(),
                    ));
                }
                if p.open() {
                    return Err(fail(
                        r::CHAR_NO_INTERFERENCE,
                        "a character card is played only when no interference is open".into(),
                    ));
                }
            }
            let doll = d.has_keyword("doll");
            if doll && var(g, &turn_var("doll_played", player)) > 0 {
                return Err(fail(
                    r::DOLL_ONE_PER_TURN,
                    "a doll character card was already played this turn".into(),
                ));
            }
            // 5.4.1.d binds every character card without 人形, ambush
            // included (10.3.2.a changes only the timing), and counts the
            // turn player's resolved plays, as printed (judges' reading;
            // the option counts the playing player's own plays).
            let counted = one_per_turn_counted(g, player, tp);
            if !doll && var(g, &turn_var("normal_character", counted)) > 0 {
                return Err(fail(
                    r::CHAR_ONE_PER_TURN,
                    format!(
                        "{} already resolved a character card without ambush or doll this turn{}",
                        player_name(counted),
                        if player != counted {
                            format!(
                                " (judge's reading: 5.4.1.d counts the turn player's plays, as printed, also for {}'s card; option {ONE_PER_TURN_OWN_PLAYS} counts the player's own)",
                                player_name(player)
                            )
                        } else {
                            String::new()
                        }
                    ),
                ));
            }
        }
        "spell" => {
            let caster = caster_of(g, card);
            let present = caster
                .as_deref()
                .map(|c| casters_present(g, player, c))
                .unwrap_or_default();
            if d.has_keyword("last_word") && present.is_empty() {
                let sealed = caster
                    .as_deref()
                    .map(|c| sealed_casters(g, player, c))
                    .unwrap_or_default();
                return Err(fail(
                    if sealed.is_empty() {
                        r::LAST_WORD
                    } else {
                        r::SEALED_ARTS
                    },
                    format!(
                        "{card} has last word: it cannot be played without its caster ({}) on {}'s field{}",
                        caster.as_deref().unwrap_or("none printed"),
                        player_name(player),
                        if sealed.is_empty() {
                            String::new()
                        } else {
                            format!(
                                "; {} has sealed arts and fewer than 6 nodes, so it does not count",
                                sealed.join(", ")
                            )
                        }
                    ),
                ));
            }
            if d.has_keyword("last_word") {
                let by_link = present.iter().any(|c| has_kw(g, c, "link"));
                last_word_note = Some((
                    format!(
                        "{card} has last word: its caster {} is on {}'s field ({}; a name reference matches a name containing it{})",
                        caster.as_deref().unwrap_or_default(),
                        player_name(player),
                        present.join(", "),
                        if by_link {
                            ", 連結 names included"
                        } else {
                            ""
                        }
                    ),
                    by_link,
                ));
            }
            if d.has_keyword("world_charm") && var(g, &turn_var("world_charm", player)) > 0 {
                return Err(fail(
                    r::WORLD_CHARM,
                    format!(
                        "{} already played or resolved a 世界呪符 spell this turn",
                        player_name(player)
                    ),
                ));
            }
            // 10.30.2.a: with its caster on the field, a last-spell card
            // may be played at command timing (5.6.1: priority alone).
            if d.has_keyword("last_spell") && !present.is_empty() && !sorcery_ok {
                last_spell_note = Some(format!(
                    "{card} has last spell and its caster is on the field ({}): it is played at command timing",
                    present.join(", ")
                ));
            } else {
                if player != tp {
                    return Err(fail(
                        r::SPELL_TURN_PLAYER,
                        "a spell card is played only by the turn player".into(),
                    ));
                }
                if g.turn.phase != "main" {
                    return Err(fail(
                        r::SPELL_MAIN,
                        "a spell card is played only in the main phase".into(),
                    ));
                }
                if p.open() {
                    return Err(fail(
                        r::SPELL_NO_INTERFERENCE,
                        "a spell card is played only when no interference is open".into(),
                    ));
                }
            }
        }
        _ => {}
    }
    // 1.3.2, 10.3.3: a "can't play" restriction wins over every "can".
    check_play_restriction(g, &p, player, card)?;
    let (own_turn, opp_turn, one_per_turn) = turn_limits(&d);
    if let Some(rule) = own_turn
        && player != tp
    {
        return Err(fail(
            rule,
            format!("{card} can be played only in its player's own turn"),
        ));
    }
    if let Some(rule) = opp_turn
        && player == tp
    {
        return Err(fail(
            rule,
            format!("{card} can be played only in the opponent's turn"),
        ));
    }
    if let Some(rule) = one_per_turn
        && let Some(n) = names(g, card)
            .into_iter()
            .find(|n| var(g, &format!("turn.played_name.{}.{n}", player_name(player))) > 0)
    {
        return Err(fail(
            rule,
            format!("a card named {n} was already played this turn"),
        ));
    }
    // 5.5.6: with a character whose name contains the spell's caster on
    // the player's field (5.5.7, 10.31), the node check, the cost check
    // and the payment may all be skipped together; the action asks for it
    // with the choice `caster_free: true`.
    let free_casters = match caster_of(g, card) {
        Some(c) if d.card_type == "spell" => casters_present(g, player, &c),
        _ => Vec::new(),
    };
    let others: &[&str] = if free_casters.is_empty() {
        &[]
    } else {
        &["true"]
    };
    let caster_free = match m.choices.or_default("caster_free", others) {
        None | Some(Value::Bool(false)) => false,
        Some(Value::Bool(true)) if !free_casters.is_empty() => true,
        Some(v) => {
            return Err(EngineError::BadChoice {
                choice: "caster_free".into(),
                value: v.to_string(),
                options: if free_casters.is_empty() {
                    vec!["false (no caster of this spell on the field)".into()]
                } else {
                    vec!["true".into(), "false".into()]
                },
            });
        }
    };
    // 5.6.6: a command's alternate race skips the same three steps.
    let alt = d.card_type == "command" && playmods::alternate_race(&d).is_some();
    let others: &[&str] = if alt { &["true"] } else { &[] };
    let alt_choice = m.choices.or_default("alternate_race_free", others);
    // Not using an alternate race the card has (absent or `false`): said in
    // the trace, since 5.6.6 lets the player choose.
    let alt_declined = !matches!(alt_choice, Some(serde_json::Value::Bool(true)))
        && d.card_type == "command"
        && playmods::alternate_race(&d).is_some();
    let alt_free = alternate_race_free(g, player, card, &d, alt_choice, &alts)?;
    let free = caster_free || alt_free.is_some();
    // 5.2.2.h: the conditions are checked with the modifiers applied.
    let mods = play_mods(g, player, &d.card_type);
    let need0 = d.stats.get("node").copied().unwrap_or(0);
    let need = need0 + mods.node;
    let have = nodes(g, player).len() as i64;
    let modded = |what: &str| {
        if mods.any() {
            format!(" ({what} as modified by {})", mods.sources.join(", "))
        } else {
            String::new()
        }
    };
    if have < need && !free {
        // The modifier is what closes the play when the printed
        // requirement would be met: that is 5.2.2.h's ruling.
        return Err(fail(
            if have >= need0 {
                r::PLAY_MODIFIED
            } else {
                r::PLAY_NODES
            },
            format!(
                "{card} needs {need} node(s){}; {} has {have} (active and sleeping both count; 5.2.2.c)",
                modded("requirement"),
                player_name(player)
            ),
        ));
    }
    let cost0 = d.cost.unwrap_or(0);
    let raw_cost = cost0 + mods.cost;
    let cost = floored(raw_cost);
    if cost > have && !free {
        return Err(fail(
            if floored(cost0) <= have {
                r::PLAY_MODIFIED
            } else {
                r::PLAY_COST
            },
            format!(
                "{card} costs {cost}{}; {} nodes can give at most {have} (5.2.2.d)",
                modded("cost"),
                player_name(player)
            ),
        ));
    }
    let _ = sorcery_ok;
    m.record(
        "play.declare",
        format!(
            "{} plays {card} ({}); needs {need} node(s), has {have}",
            player_name(player),
            d.card_type
        ),
        &[
            r::PLAY,
            r::PLAY_DECLARE,
            r::PLAY_PRIORITY,
            r::PLAY_NODES,
            r::PLAY_TYPE,
            r::PRIORITY_ACTIONS,
            r::PA_PLAY,
            r::PLAY_CONDITIONS_MET,
            r::PLAY_CAN_MOVE,
        ],
    )
    .obj(card.to_string());
    if !free {
        note_play_mods(m, card, &mods, (need0, need), (cost0, raw_cost));
    }
    if d.card_type == "character" {
        let e = m.record(
            "play.character",
            format!(
                "character conditions hold: {}; {}",
                if ambush && !sorcery_ok {
                    "ambush lets it be played with priority alone"
                } else {
                    "turn player, main phase, no interference"
                },
                if d.has_keyword("doll") {
                    format!(
                        "no doll character resolved for {} this turn",
                        player_name(tp)
                    )
                } else {
                    format!(
                        "no character without ambush or doll resolved for {} this turn",
                        player_name(one_per_turn_counted(&m.game, player, tp))
                    )
                }
            ),
            &[if d.has_keyword("doll") {
                r::CHAR_DOLL_ONE
            } else {
                r::CHAR_ONE_PER_TURN
            }],
        );
        if !ambush || sorcery_ok {
            e.rules
                .extend([r::CHAR_TURN_PLAYER, r::CHAR_MAIN, r::CHAR_NO_INTERFERENCE]);
        }
    }
    if ambush && !sorcery_ok && d.card_type == "character" {
        let own_plays = reading(&m.game, ONE_PER_TURN_OWN_PLAYS);
        let e = m.record(
            "ambush",
            format!("{card} has ambush: it is played with priority alone; 5.4.1.d still applies"),
            &[r::AMBUSH_PLAY, r::CHAR_ONE_PER_TURN],
        );
        if player != tp {
            if own_plays {
                e.note(format!("reading chosen by the scenario ({ONE_PER_TURN_OWN_PLAYS}): 5.4.1.d counts only the playing player's own resolved character plays"));
            } else {
                e.note(format!("judge's reading: 5.4.1.d binds ambush characters too (10.3.2.a changes only the timing) and counts the turn player's resolved character plays, as printed; so the turn player's normal character this turn also closes this play. Option {ONE_PER_TURN_OWN_PLAYS} counts the player's own plays instead"));
            }
        }
    }
    if d.card_type == "command" {
        m.record(
            "command",
            "a command card needs only priority",
            &[r::COMMAND_PRIORITY, r::COMMAND_HAS_PRIORITY],
        );
    }
    if caster_free {
        m.record(
            "caster_free",
            format!(
                "the caster of {card} is on the field ({}): the node check, the cost check and the payment are all skipped",
                free_casters.join(", ")
            ),
            &[r::CASTER_FREE, r::CASTER_PRESENT],
        );
    }
    if let Some(note) = alt_free {
        m.record(
            "alternate_race_free",
            note,
            &[r::ALT_RACE_FREE, r::ALT_RACE_ICONS],
        );
    } else if alt_declined {
        m.record(
            "alternate_race_declined",
            format!("{} does not use the alternate race of {card}: the node check, the cost check and the payment are made (5.6.6 skips them only all together, when used)", player_name(player)),
            &[r::ALT_RACE_FREE],
        );
    }
    if let Some((note, by_link)) = last_word_note {
        let e = m.record(
            "last_word",
            note,
            &[r::LAST_WORD, r::CASTER_PRESENT, r::NAME_REFERENCE],
        );
        if by_link {
            e.rule(r::LINK_NAMES);
        }
    }
    if let Some(note) = last_spell_note {
        m.record(
            "last_spell",
            note,
            &[r::LAST_SPELL, r::CASTER_PRESENT, r::COMMAND_PRIORITY],
        );
    }
    m.game.move_card(card, ZoneId::of(player, zn::PLAY), false);
    m.record(
        "play.move",
        format!("{card} moves to the play area face up"),
        &[r::PLAY_TO_AREA],
    );
    let mut targets = BTreeMap::new();
    if let Some(k) = set_keyword(&d) {
        targets.insert(0, vec![choose_set_target(m, k, card, player)?]);
    } else if d.card_type != "character" && d.has_keyword("equip_field") {
        // 10.15.2.a sets the card on the field: it has no effect of its own
        // to resolve, and an `effect` ability would have no place.
        if d.abilities.iter().any(|a| a.trigger == "effect") {
            return Err(EngineError::NotImplemented {
                clause: r::EQUIP_FIELD,
                what: format!("an `effect` ability on {card}, a 装備／場 card"),
            });
        }
    } else if let Some(ab) = choose_mode(m, &d, card)? {
        targets = choose_targets(m, ab, card, player, "targets")?;
        declare_at_play(m, ab, card)?;
    }
    // 10.32.2.c: a last-word card being played that becomes the target of
    // another card being played has its play nullified and is discarded.
    let hit: BTreeSet<String> = targets
        .values()
        .flatten()
        .map(|(id, _)| id.clone())
        .filter(|id| id != card && has_kw(&m.game, id, "last_word"))
        .filter(|id| {
            p.chain
                .iter()
                .any(|e| &e.card == id && e.activated.is_none())
        })
        .collect();
    for id in hit {
        let owner = p
            .chain
            .iter()
            .find(|e| e.card == id)
            .map(|e| e.player)
            .unwrap_or(player);
        p.chain.retain(|e| e.card != id);
        m.game
            .move_card(&id, ZoneId::of(owner, zn::NETHERWORLD), true);
        m.record(
            "last_word.targeted",
            format!("{id} has last word and became the target of {card} being played: its play is nullified and {id} is discarded"),
            &[r::LAST_WORD_TARGETED, r::PLAY_NULLIFIED],
        )
        .obj(id.clone());
    }
    if d.card_type != "character"
        && !taxes_paid(m, player, card, &targets, d.card_type == "command")?
    {
        // 10.29.2.a / 10.26.2.a: the card's effect is nullified and it is discarded;
        // nothing joins the interference and no cost is paid.
        return play_nullified_while_targeting(m, p, player, card, cost, free);
    }
    if !free {
        pay(m, player, cost, card)?;
    }
    if d.has_keyword("world_charm") {
        vars_mut(&mut m.game).insert(turn_var("world_charm", player), 1);
        m.record(
            "world_charm",
            format!("{card} is a 世界呪符: no other may be played this turn"),
            &[r::WORLD_CHARM, r::WORLD_CHARM_ONCE],
        );
    }
    if d.has_keyword("doll") {
        vars_mut(&mut m.game).insert(turn_var("doll_played", player), 1);
        m.record(
            "doll",
            format!("{card} is a doll: it does not use up the normal character play, and no other doll may be played this turn"),
            &[r::DOLL_ONE_PER_TURN, r::CHAR_DOLL_ONE, r::CHAR_ONE_PER_TURN],
        );
    }
    note_turn_limit_variant(m, card, &d);
    if one_per_turn.is_some() {
        for n in names(&m.game, card) {
            vars_mut(&mut m.game)
                .insert(format!("turn.played_name.{}.{n}", player_name(player)), 1);
        }
    }
    if ambush_block {
        note_ambush_block(m, card, p.attack.as_ref());
    }
    // 5.3.1.b / 5.3.1.e judge at this moment.
    note_played(m, card, p.open());
    let opened = !p.open();
    p.chain.push(Entry {
        card: card.into(),
        player,
        targets,
        activated: None,
    });
    p.passes = 0;
    p.block_window = false;
    p.holder = m.game.opponent(player);
    m.record(
        "play.pass",
        format!(
            "{} the interference (now {} entr{}); priority passes to {}",
            if opened { "this opens" } else { "this joins" },
            p.chain.len() + usize::from(p.attack.is_some()),
            if p.chain.len() + usize::from(p.attack.is_some()) == 1 {
                "y"
            } else {
                "ies"
            },
            player_name(p.holder)
        ),
        &[
            r::PLAY_PASS,
            r::INTERFERENCE,
            r::INTERFERENCE_OPENS,
            r::OPENS_BY_PLAY,
            r::PRIORITY_AFTER,
        ],
    );
    give_priority(m, p);
    Ok(())
}

/// 1.12.8: the whole interference resolves last-in-first-out with no
/// priority in between, then combat if an attack opened it, then the turn
/// player gets priority.
pub(super) fn resolve_interference(m: &mut M, p: Pri) -> R<()> {
    m.record(
        "interference.resolve",
        format!(
            "every player passed in succession: the interference resolves{}",
            if p.chain.is_empty() {
                ": no played card to resolve, then the attack's combat".to_string()
            } else {
                format!(
                    ", {} played card(s) last-in-first-out, with no priority in between",
                    p.chain.len()
                )
            }
        ),
        &[
            r::ALL_PASS_RESOLVE,
            r::RESOLVE_LIFO,
            r::NO_PRIORITY_WHILE_RESOLVING,
        ],
    );
    interference_opens(&mut m.game);
    // One entry per step (restrict.rs), so that an attack an effect creates
    // can interrupt the resolution with a new interference (6.3.5.a).
    m.stack.push(Step::Resolve(p));
    Ok(())
}

/// Resolves 装備 / 呪符: the card is set on its target (10.13.2.a,
/// 10.14.2.a), on the field of the target's controller. A target no longer
/// legal makes the effect fail (8.2.5); an equip target that already has
/// equipment makes the set fail (10.13.4). Either way the card goes to its
/// owner's Netherworld (5.2.4.d).
pub(super) fn resolve_set(m: &mut M, e: &Entry, k: &str) -> R<()> {
    let card = &e.card;
    let target = e.targets.get(&0).and_then(|v| v.first()).cloned();
    let owner = m.game.card(card).map(|c| c.owner).unwrap_or(e.player);
    let valid = target.as_ref().filter(|t| {
        same_on_field(&m.game, t)
            && is_character(&m.game, &t.0)
            && (k != "equip" || m.game.card(&t.0).is_some_and(|c| c.controller == e.player))
            && (!has_kw(&m.game, card, "divine_artifact") || has_kw(&m.game, &t.0, "legend"))
    });
    let fail = |m: &mut M, text: String, rules: &[&'static str]| {
        play_failed(&mut m.game);
        m.game
            .move_card(card, ZoneId::of(owner, zn::NETHERWORLD), true);
        m.record("resolve.set_failed", text, rules)
            .obj(card.clone());
    };
    let Some((t, _)) = valid else {
        fail(
            m,
            format!(
                "{card}'s target is no longer legal: the set fails and {card} is put into the Netherworld"
            ),
            &[
                r::TARGET_RECHECK,
                r::EFFECT_FAILS,
                r::RESOLVE_TO_NETHERWORLD,
            ],
        );
        return Ok(());
    };
    if k == "equip" {
        let already: Vec<CardId> = set_cards(&m.game, t)
            .into_iter()
            .filter(|s| has_kw(&m.game, s, "equip"))
            .collect();
        if !already.is_empty() {
            fail(
                m,
                format!(
                    "{t} already has equipment ({}): setting {card} fails and it is put into the Netherworld",
                    already.join(", ")
                ),
                &[r::EQUIP_ONE, r::RESOLVE_TO_NETHERWORLD],
            );
            return Ok(());
        }
    }
    let at = m.game.card(t).map(|c| c.controller).unwrap_or(e.player);
    m.game.move_card(card, ZoneId::of(at, zn::FIELD), false);
    if let Some(c) = m.game.cards.get_mut(card) {
        c.attached_to = Some(t.clone().into());
    }
    // Set, it takes the character's orientation (11.3.11.c).
    orientation::take_hosts(&mut m.game, card, t);
    let (rule, gains) = if k == "equip" {
        (r::EQUIP, r::EQUIP_GAINS_TEXT)
    } else {
        (r::CHARM, r::CHARM_GAINS_TEXT)
    };
    m.record(
        format!("resolve.{k}"),
        format!(
            "{card} resolves: it is set on {t}, which gets its combat modifiers ({} attack, {} durability)",
            def(&m.game, card).and_then(|d| d.attack).unwrap_or(0),
            def(&m.game, card).and_then(|d| d.defense).unwrap_or(0)
        ),
        &[r::RESOLVE_EFFECT, rule, gains, r::SET_CARD_TEXT],
    )
    .obj(card.clone())
    .obj(t.clone());
    // From now on its text is the character's (11.3.10.b).
    gained::refresh(m)?;
    // A negative modifier may bring durability to 0 (9.2.2.b).
    process_removals(m)
}

pub(super) fn resolve_entry(m: &mut M, e: &Entry) -> R<()> {
    if e.activated.is_some() || m.game.card(&e.card).is_none_or(|c| c.zone.kind != zn::PLAY) {
        return resolve_entry_inner(m, e);
    }
    around_play(m, e, resolve_entry_inner)
}

pub(super) fn resolve_entry_inner(m: &mut M, e: &Entry) -> R<()> {
    match e.activated {
        Some(Activated::ManaCharge { x, incarnation }) => {
            return resolve_mana_charge(m, e, x, incarnation);
        }
        Some(Activated::Leader { incarnation }) => return leader::resolve(m, e, incarnation),
        Some(Activated::Transform { incarnation }) => {
            return resolve_transform(m, e, incarnation);
        }
        None => {}
    }
    let card = &e.card;
    if m.game.card(card).is_none_or(|c| c.zone.kind != zn::PLAY) {
        m.record(
            "resolve",
            format!("{card} is no longer in the play area: nothing resolves"),
            &[r::RESOLVE_EFFECT],
        );
        return Ok(());
    }
    let Some(d) = def(&m.game, card).cloned() else {
        return Ok(());
    };
    if d.has_keyword("overdrive") && !overdrive(m, e)? {
        play_failed(&mut m.game);
        return Ok(());
    }
    if d.has_keyword("link") && !link(m, e)? {
        play_failed(&mut m.game);
        return Ok(());
    }
    if let Some(k) = set_keyword(&d) {
        return resolve_set(m, e, k);
    }
    if d.card_type != "character" && d.has_keyword("equip_field") {
        // 10.15.2.a: set on its player's field, active; 10.15.3: not if
        // that field already has a 装備／場 card. Its text stays live
        // (5.6.2 names only commands without 装備／場).
        let owner = m.game.card(card).map(|c| c.owner).unwrap_or(e.player);
        let already: Vec<CardId> = m
            .game
            .zone_of(e.player, zn::FIELD)
            .iter()
            .filter(|c| has_kw(&m.game, c, "equip_field"))
            .cloned()
            .collect();
        if !already.is_empty() {
            play_failed(&mut m.game);
            m.game
                .move_card(card, ZoneId::of(owner, zn::NETHERWORLD), true);
            m.record(
                "resolve.set_failed",
                format!(
                    "{}'s field already has a 装備／場 card ({}): setting {card} fails and it is put into the Netherworld",
                    player_name(e.player),
                    already.join(", ")
                ),
                &[r::EQUIP_FIELD_ONE, r::RESOLVE_TO_NETHERWORLD],
            )
            .obj(card.clone());
            return Ok(());
        }
        m.game
            .move_card(card, ZoneId::of(e.player, zn::FIELD), false);
        m.record(
            "resolve.equip_field",
            format!(
                "{card} resolves: 装備／場 sets it on {}'s field, active",
                player_name(e.player)
            ),
            &[r::RESOLVE_EFFECT, r::EQUIP_FIELD],
        )
        .obj(card.clone());
        fire(m, "on_enter", std::slice::from_ref(card), r::RESOLVE_EFFECT)?;
        return process_removals(m);
    }
    if d.card_type != "character" && d.has_keyword("world_charm") {
        // 10.17.2.a: set on its player's field, active; a 世界呪符 keeps its
        // text there (5.5.3). It is not a character.
        m.game
            .move_card(card, ZoneId::of(e.player, zn::FIELD), false);
        m.record(
            "resolve.world_charm",
            format!(
                "{card} resolves: 世界呪符 sets it on {}'s field, active; it keeps its text",
                player_name(e.player)
            ),
            &[r::RESOLVE_EFFECT, r::WORLD_CHARM, r::SPELL_ON_FIELD_TEXT],
        )
        .obj(card.clone());
        fire(m, "on_enter", std::slice::from_ref(card), r::RESOLVE_EFFECT)?;
        return process_removals(m);
    }
    if d.card_type != "character" && d.has_keyword("phantasm") {
        // 10.16.2.a: instead of an effect, the card is set on its player's
        // field asleep; face up and unattached it is a character (10.16.3)
        // from the moment its entering effects resolve (6.1.8.b).
        let haste = d.has_keyword("haste");
        m.game
            .move_card(card, ZoneId::of(e.player, zn::FIELD), false);
        if !haste && let Some(c) = m.game.cards.get_mut(card) {
            c.states.insert(st::SLEEP.into());
        }
        let en = m.record(
            "resolve.phantasm",
            format!(
                "{card} resolves: 幻想生物 sets it on {}'s field {}; it is a character and keeps its text",
                player_name(e.player),
                if haste { "active (haste takes effect when it becomes a character)" } else { "asleep" }
            ),
            &[r::RESOLVE_EFFECT, r::PHANTASM, r::PHANTASM_CHARACTER, r::CHARACTER_FROM_PHANTASM, r::SPELL_ON_FIELD_TEXT],
        );
        en.obj(card.clone());
        if haste {
            en.rule(r::HASTE);
            en.rule(r::HASTE_PHANTASM);
        }
        if second_card(m, card, &d)? {
            return Ok(());
        }
        fire(m, "on_enter", std::slice::from_ref(card), r::RESOLVE_EFFECT)?;
        return process_removals(m);
    }
    if d.card_type == "character" {
        // 10.3.4: played to block, it stays asleep even with haste.
        let blocks = take_ambush_block(m, card);
        let haste = d.has_keyword("haste") && !blocks;
        let normal = !d.has_keyword("ambush") && !d.has_keyword("doll");
        if leader::second_leader_fails(m, card, e.player) {
            if normal && leader::failed_set_counts(&m.game) {
                vars_mut(&mut m.game).insert(turn_var("normal_character", e.player), 1);
            }
            return Ok(());
        }
        m.game
            .move_card(card, ZoneId::of(e.player, zn::FIELD), false);
        if !haste && let Some(c) = m.game.cards.get_mut(card) {
            c.states.insert(st::SLEEP.into());
        }
        if normal {
            vars_mut(&mut m.game).insert(turn_var("normal_character", e.player), 1);
        }
        let en = m.record(
            "resolve.character",
            format!(
                "{card} resolves: it is set face up on {}'s field, {}",
                player_name(e.player),
                if haste { "active (haste)" } else { "asleep" }
            ),
            &[
                r::RESOLVE_EFFECT,
                r::CHAR_RESOLVES,
                r::CHAR_STATUS,
                r::CHARACTER,
                r::CHARACTER_FROM,
            ],
        );
        en.obj(card.clone());
        if haste {
            en.rule(r::HASTE);
        }
        if blocks {
            en.rule(r::AMBUSH_BLOCK_SLEEPS);
            en.text
                .push_str(" (played to block: it stays asleep despite haste)");
        }
        if d.has_keyword("legend") {
            en.rule(r::LEGEND);
            en.text.push_str("; 伝説 legend has no text of its own");
        }
        if second_card(m, card, &d)? {
            if blocks {
                ambush_block_resolves(m, card)?;
            }
            return Ok(());
        }
        leader::entered(m, card)?;
        fire(m, "on_enter", std::slice::from_ref(card), r::RESOLVE_EFFECT)?;
        process_removals(m)?;
        if blocks && !game_over(&m.game) {
            ambush_block_resolves(m, card)?;
        }
        return Ok(());
    }
    m.record(
        "resolve.effect",
        format!("{card} resolves: its effect is applied"),
        &[r::RESOLVE_EFFECT],
    )
    .obj(card.clone());
    if let Some(ab) = resolving_effect(&mut m.game, &d, card)
        && !apply_ability(m, ab, card, e.player, &e.targets)?
    {
        play_failed(&mut m.game);
    }
    // An effect that ended the game ends its resolution too (1.5.2, 1.5.3).
    if game_over(&m.game) {
        return Ok(());
    }
    if m.game.card(card).is_some_and(|c| c.zone.kind == zn::PLAY) {
        m.game
            .move_card(card, ZoneId::of(e.player, zn::NETHERWORLD), true);
        m.record(
            "resolve.done",
            format!("{card} is put on top of the Netherworld"),
            &[r::RESOLVE_TO_NETHERWORLD],
        );
    }
    Ok(())
}

/// Whose resolved character plays 5.4.1.d counts for `player`'s card in
/// `tp`'s turn: the turn player's, as printed (judges' reading), or with
/// the option [`ONE_PER_TURN_OWN_PLAYS`] the playing player's own.
fn one_per_turn_counted(g: &Game, player: PlayerId, tp: PlayerId) -> PlayerId {
    if reading(g, ONE_PER_TURN_OWN_PLAYS) {
        player
    } else {
        tp
    }
}

/// 5.2.3 is silent on a play nullified while its targets are chosen
/// (抵抗 10.26.2.a, 加護 10.29.2.a): instead of the judges' reading (the
/// play stops there: no cost paid, priority kept), the play procedure runs
/// to its end first, since no effect applies during it (5.2.3): the cost is
/// paid (5.2.3.f) and priority passes (5.2.3.g); then the card is nullified.
pub const NULLIFIED_PLAY_COMPLETES: &str = "reading_nullified_play_completes";

/// A play whose effect a tax nullified while its targets were chosen: the
/// card is discarded and the play does not count (5.2.5). Under
/// [`NULLIFIED_PLAY_COMPLETES`] the cost is paid and priority passes first.
fn play_nullified_while_targeting(
    m: &mut M,
    mut p: Pri,
    player: PlayerId,
    card: &str,
    cost: i64,
    free: bool,
) -> R<()> {
    let completes = reading(&m.game, NULLIFIED_PLAY_COMPLETES);
    if completes && !free {
        pay(m, player, cost, card)?;
    }
    m.game
        .move_card(card, ZoneId::of(player, zn::NETHERWORLD), true);
    p.passes = 0;
    if completes {
        p.block_window = false;
        p.holder = m.game.opponent(player);
    }
    let e = m.record(
        "play.nullified",
        format!(
            "{card}'s effect is nullified and {card} is discarded; the play does not count (5.2.5)"
        ),
        &[r::PLAY_NULLIFIED],
    );
    if completes {
        e.rule(r::PLAY_PROCEDURE)
            .rule(r::PLAY_PAY)
            .rule(r::PLAY_PASS)
            .note(format!(
                "reading chosen by the scenario ({NULLIFIED_PLAY_COMPLETES}): no effect applies during the play procedure (5.2.3), so the play runs to its end first: the cost is paid (5.2.3.f) and priority passes to {} (5.2.3.g); then the card is nullified",
                player_name(p.holder)
            ));
    } else {
        e.note(format!(
            "judge's reading: a play nullified while targets are chosen stops there: no cost is paid, nothing joins the interference, and the player keeps priority (option {NULLIFIED_PLAY_COMPLETES}: the play procedure runs to its end first, the cost is paid and priority passes)"
        ));
    }
    give_priority(m, p);
    Ok(())
}

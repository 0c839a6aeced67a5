//! 5.3 「プレイしたものとして解決する」: resolving a card as if it were
//! played (the effect `resolve_as_played`). The card is not played (5.3.1):
//! no cost is paid (5.3.1.c), but it is treated as a played card, so the
//! resolution of a played card (5.2.4 b–d, via `resolve_entry`) runs on it
//! and ターン１枚制限 (10.21.2.a), 世界呪符 and 5.4.1.d/e count it.
//!
//! 5.3.1.b and 5.3.1.e judge conditions "at the time this effect was played
//! or used": for the `effect` of a played card, [`note_played`] keeps the
//! state of that moment (whose turn, the phase, whether an interference was
//! open, the turn's counts) and the checks read it; for any other effect
//! the moment of use is the moment it applies (judges' reading; option
//! [`AS_IF_USED_WHEN_CARD_PLAYED`]: the moment its card was last played).

use super::*;

/// Reading: a card resolved as if played also gets 5.2.4.a's window (the
/// effects whose timing is a played card resolving, before its effect).
/// By default it does not: 5.3.2 lists its steps and has no such step.
pub const AS_IF_RESOLVING_WINDOW: &str = "reading_as_if_resolving_window";

/// The key prefix under which [`note_played`] keeps the state at the play
/// of `card`.
fn key(card: &str, k: &str) -> String {
    format!("as_if.{card}.{k}")
}

/// Reading: an effect that is not a played card's own `effect` (an
/// automatic effect of a card, say) is "used" (5.3.1.b, 5.3.1.e) when its
/// card was last played, so the conditions are judged at that play, instead
/// of the judges' reading (at the moment the effect applies). A card put
/// into play without being played has no such moment either way.
pub const AS_IF_USED_WHEN_CARD_PLAYED: &str = "reading_as_if_used_when_card_played";

/// Whether the definition's `effect` ability (under
/// [`AS_IF_USED_WHEN_CARD_PLAYED`], any ability) resolves a card as if
/// played.
fn has_as_if(d: &crate::engine::CardDef, any_trigger: bool) -> bool {
    d.abilities.iter().any(|a| {
        (any_trigger || a.trigger == "effect")
            && a.effect
                .iter()
                .any(|e| matches!(e, Effect::ResolveAsPlayed { .. }))
    })
}

/// Called when `card` is played (before it joins the interference, with
/// `open`: whether an interference was already open): keeps the state
/// 5.3.1.b / 5.3.1.e judge against.
pub(super) fn note_played(m: &mut M, card: &str, open: bool) {
    let any_trigger = reading(&m.game, AS_IF_USED_WHEN_CARD_PLAYED);
    if !def(&m.game, card).is_some_and(|d| has_as_if(d, any_trigger)) {
        return;
    }
    let g = &mut m.game;
    let prefix = key(card, "");
    vars_mut(g).retain(|k, _| !k.starts_with(&prefix));
    let copied: Vec<(String, i64)> = vars(g)
        .iter()
        .filter(|(k, _)| k.starts_with("turn."))
        .map(|(k, v)| (key(card, k), *v))
        .collect();
    vars_mut(g).extend(copied);
    let tp = g.turn.active.index() as i64;
    let main = i64::from(g.turn.phase == "main");
    vars_mut(g).insert(key(card, "at.tp"), tp);
    vars_mut(g).insert(key(card, "at.main"), main);
    vars_mut(g).insert(key(card, "at.open"), i64::from(open));
    vars_mut(g).insert(key(card, "at.played"), 1);
    let inc = g.card(card).map_or(0, |c| i64::from(c.incarnation));
    vars_mut(g).insert(key(card, "at.incarnation"), inc);
}

/// Whether the state kept at the play of `this` still speaks for an
/// effect of it: always for its own `effect`; for another ability (under
/// [`AS_IF_USED_WHEN_CARD_PLAYED`]) only while the card is the object that
/// play made, in the play area or where it resolved to (one move later),
/// not once it moved again without being played.
fn kept_state_applies(g: &Game, this: &str) -> bool {
    if def(g, this).is_some_and(|d| has_as_if(d, false)) {
        return true;
    }
    let kept = vars(g)
        .get(&key(this, "at.incarnation"))
        .copied()
        .unwrap_or(0);
    g.card(this)
        .is_some_and(|c| i64::from(c.incarnation) <= kept + 1)
}

/// The state 5.3.1.b / e are judged in.
struct At {
    tp: PlayerId,
    main: bool,
    /// Whether an interference was open; `None` when not known (an effect
    /// used outside the play of its card).
    open: Option<bool>,
    /// The turn's counts (`turn.*` variables) of that moment.
    vars: BTreeMap<String, i64>,
    /// From the play of the effect's card (as opposed to the present).
    at_play: bool,
}

fn take_at(m: &mut M, this: &str) -> At {
    let g = &mut m.game;
    let prefix = key(this, "");
    if vars(g).contains_key(&key(this, "at.played")) && !kept_state_applies(g, this) {
        vars_mut(g).retain(|k, _| !k.starts_with(&prefix));
    }
    if vars(g).contains_key(&key(this, "at.played")) {
        let kept: Vec<String> = vars(g)
            .keys()
            .filter(|k| k.starts_with(&prefix))
            .cloned()
            .collect();
        let mut vars = BTreeMap::new();
        for k in kept {
            if let Some(v) = vars_mut(g).remove(&k) {
                vars.insert(k[prefix.len()..].to_string(), v);
            }
        }
        At {
            tp: PlayerId(vars.get("at.tp").copied().unwrap_or(0) as usize),
            main: vars.get("at.main").copied().unwrap_or(0) == 1,
            open: Some(vars.get("at.open").copied().unwrap_or(0) == 1),
            vars,
            at_play: true,
        }
    } else {
        At {
            tp: g.turn.active,
            main: g.turn.phase == "main",
            open: None,
            vars: vars(g)
                .iter()
                .filter(|(k, _)| k.starts_with("turn."))
                .map(|(k, v)| (k.clone(), *v))
                .collect(),
            at_play: false,
        }
    }
}

impl At {
    fn var(&self, k: &str) -> i64 {
        self.vars.get(k).copied().unwrap_or(0)
    }
}

/// The judge's note on the moment 5.3.1.b judges an effect of `this` that
/// is not its played card's own `effect`; `None` for that own effect.
fn moment_note(g: &Game, this: &str, at_play: bool) -> Option<String> {
    let own_effect = def(g, this).is_some_and(|d| has_as_if(d, false));
    if at_play && own_effect {
        return None;
    }
    Some(if !reading(g, AS_IF_USED_WHEN_CARD_PLAYED) {
        format!(
            "judge's reading: this effect is not the effect of a played card, so the moment it is used (5.3.1.b) is the moment it applies (option {AS_IF_USED_WHEN_CARD_PLAYED}: the moment its card was played)"
        )
    } else if at_play {
        format!(
            "reading chosen by the scenario ({AS_IF_USED_WHEN_CARD_PLAYED}): this effect is used (5.3.1.b) when its card, {this}, was played, so the conditions are judged at that play"
        )
    } else {
        format!(
            "reading chosen by the scenario ({AS_IF_USED_WHEN_CARD_PLAYED}): {this} was not played, so the moment this effect is used (5.3.1.b) is the moment it applies"
        )
    })
}

/// Records that the effect fails (5.3.1 a/b/d/e), the card staying where
/// it is; the played card whose effect it is was not resolved properly.
fn fails<'m>(
    m: &'m mut M,
    this: &str,
    rules: &[&'static str],
    why: String,
) -> &'m mut crate::engine::TraceEntry {
    play_failed(&mut m.game);
    let mut all = rules.to_vec();
    all.push(r::EFFECT_FAILS);
    m.record(
        "as_if.fails",
        format!("{this}'s effect to resolve a card as if played fails: {why}"),
        &all,
    )
}

/// The option reading: a card resolved as if played fails when its player
/// has fewer nodes than its node requirement, as if 5.3.1.b kept 5.2.2.c.
pub const AS_IF_CHECKS_NODE_REQUIREMENT: &str = "reading_as_if_checks_node_requirement";

/// Says why a node requirement the player does not meet does not stop a
/// card resolved as if played: 5.3.1.b repeats the wording of 5.2.2.b (the
/// conditions and restrictions of text and effects), while the node
/// requirement is the separate printed number of 5.2.2.c and 2.4.1.
fn node_requirement_note(
    m: &mut M,
    card: &str,
    d: &crate::engine::CardDef,
    player: PlayerId,
    ignore_nodes: bool,
) {
    let need = d.stats.get("node").copied().unwrap_or(0);
    let have = nodes(&m.game, player).len() as i64;
    if ignore_nodes && have < need {
        m.record(
            "as_if.nodes_ignored",
            format!(
                "{card} needs {need} node(s) and {} has {have}: the effect's text ignores the node requirement, so it is not checked",
                player_name(player)
            ),
            &[r::AS_IF_TEXT_CONDITION, r::PLAY_NODES],
        )
        .obj(card.to_string());
        return;
    }
    if ignore_nodes || have >= need || reading(&m.game, AS_IF_CHECKS_NODE_REQUIREMENT) {
        return;
    }
    m.record(
        "as_if.nodes_not_checked",
        format!(
            "{card} needs {need} node(s) and {} has {have}: the node requirement is not a play condition of 5.3.1.b, so it does not stop the resolution",
            player_name(player)
        ),
        &[r::AS_IF_TEXT_CONDITION, r::PLAY_NODES, r::PLAY_RESTRICTION],
    )
    .obj(card.to_string())
    .note(format!("judge's reading: 5.3.1.b names the conditions of 5.2.2.b (text and effects); the node requirement is the separate printed number of 5.2.2.c and 2.4.1 (flag `{AS_IF_CHECKS_NODE_REQUIREMENT}` checks it)"));
}

/// A play condition or restriction of `card`'s own text (5.3.1.b) that
/// does not hold in `at` for `player`, with the clause that sets it.
fn text_condition(
    g: &Game,
    card: &str,
    d: &crate::engine::CardDef,
    player: PlayerId,
    at: &At,
    ignore_nodes: bool,
) -> Option<(&'static str, String)> {
    let (own, opp, one) = turn_limits(d);
    if let Some(rule) = own
        && player != at.tp
    {
        return Some((
            rule,
            format!("{card} can be played only in its player's own turn"),
        ));
    }
    if let Some(rule) = opp
        && player == at.tp
    {
        return Some((
            rule,
            format!("{card} can be played only in the opponent's turn"),
        ));
    }
    if let Some(rule) = one
        && let Some(n) = names(g, card)
            .into_iter()
            .find(|n| at.var(&format!("turn.played_name.{}.{n}", player_name(player))) > 0)
    {
        return Some((
            rule,
            format!("a card named {n} was already played this turn"),
        ));
    }
    let character = d.card_type == "character";
    if character && d.has_keyword("doll") && at.var(&turn_var("doll_played", player)) > 0 {
        return Some((
            r::CHAR_DOLL_ONE,
            "a doll character card was already played this turn".into(),
        ));
    }
    if character && !d.has_keyword("doll") && at.var(&turn_var("normal_character", at.tp)) > 0 {
        return Some((
            r::CHAR_ONE_PER_TURN,
            format!(
                "{} already resolved a character card without ambush or doll this turn",
                player_name(at.tp)
            ),
        ));
    }
    if d.has_keyword("world_charm") && at.var(&turn_var("world_charm", player)) > 0 {
        return Some((
            r::WORLD_CHARM,
            format!(
                "{} already played or resolved a 世界呪符 spell this turn",
                player_name(player)
            ),
        ));
    }
    if d.has_keyword("last_word")
        && caster_of(g, card).is_none_or(|c| casters_present(g, player, &c).is_empty())
    {
        return Some((
            r::LAST_WORD,
            format!("{card} has last word and its caster is not on the field"),
        ));
    }
    let need = d.stats.get("node").copied().unwrap_or(0);
    let have = nodes(g, player).len() as i64;
    // The node requirement is checked only under the option reading: by
    // default 5.3.1.b keeps the conditions of 5.2.2.b alone (see
    // `node_requirement_note`).
    if !ignore_nodes && have < need && reading(g, AS_IF_CHECKS_NODE_REQUIREMENT) {
        return Some((
            r::PLAY_NODES,
            format!(
                "{card} needs {need} node(s); {} has {have}",
                player_name(player)
            ),
        ));
    }
    None
}

/// The timing of `card`'s type (5.4.1.a–c, 5.5.1.a–c, 5.6.1) that `at`
/// does not meet, if any.
fn type_timing(d: &crate::engine::CardDef, player: PlayerId, at: &At) -> R<Option<&'static str>> {
    let (tp_rule, main_rule, open_rule) = match d.card_type.as_str() {
        "character" if !d.has_keyword("ambush") => {
            (r::CHAR_TURN_PLAYER, r::CHAR_MAIN, r::CHAR_NO_INTERFERENCE)
        }
        "spell" if !d.has_keyword("last_spell") => (
            r::SPELL_TURN_PLAYER,
            r::SPELL_MAIN,
            r::SPELL_NO_INTERFERENCE,
        ),
        // Commands, ambush characters and last-spell spells need priority
        // alone (5.6.1, 10.3.2.a, 10.30.2.a): whoever applies an effect
        // holds it.
        _ => return Ok(None),
    };
    if player != at.tp {
        return Ok(Some(tp_rule));
    }
    if !at.main {
        return Ok(Some(main_rule));
    }
    match at.open {
        Some(true) => Ok(Some(open_rule)),
        Some(false) => Ok(None),
        None => Err(EngineError::NotImplemented {
            clause: r::AS_IF_TIMING,
            what: "the card-type timing of a card resolved as if played by an effect other than a played card's own".into(),
        }),
    }
}

/// Applies `resolve_as_played` (5.3): `objs` holds the card to resolve.
pub(super) fn resolve_as_played(m: &mut M, e: &Effect, at: Applied<'_>) -> R<()> {
    let Applied { this, master, objs } = at;
    let Effect::ResolveAsPlayed {
        max_cost,
        ignore_nodes,
        timing,
        ..
    } = e
    else {
        return Ok(());
    };
    let at = take_at(m, this);
    let card = match objs {
        [c] if m.game.card(c).is_some() => c.clone(),
        [] => {
            fails(m, this, &[r::AS_IF], "there is no card to resolve".into());
            return Ok(());
        }
        _ => {
            return Err(bad(format!(
                "resolve_as_played resolves one card; its target gave {}",
                objs.len()
            )));
        }
    };
    let Some(d) = def(&m.game, &card).cloned() else {
        return Err(bad(format!("{card} has no definition")));
    };
    // 5.3.1.a: a condition the effect itself sets.
    if let Some(max) = max_cost
        && d.cost.unwrap_or(0) > *max
    {
        fails(
            m,
            this,
            &[r::AS_IF_CONDITION],
            format!(
                "{card} costs {}, more than the {max} the effect allows",
                d.cost.unwrap_or(0)
            ),
        );
        return Ok(());
    }
    let when = if at.at_play {
        format!("when {this} was played")
    } else {
        "when the effect is used".to_string()
    };
    // 5.3.1.b: the card's own play conditions, other than its type's timing.
    node_requirement_note(m, &card, &d, master, *ignore_nodes);
    if let Some((rule, why)) = text_condition(&m.game, &card, &d, master, &at, *ignore_nodes) {
        let moment = moment_note(&m.game, this, at.at_play);
        let en = fails(
            m,
            this,
            &[r::AS_IF_TEXT_CONDITION, rule],
            format!("{why} ({when})"),
        );
        if rule == r::PLAY_NODES {
            en.note(format!("reading `{AS_IF_CHECKS_NODE_REQUIREMENT}`: the node requirement printed on the card (5.2.2.c) counts as one of the play conditions 5.3.1.b keeps"));
        }
        if let Some(note) = moment {
            en.note(note);
        }
        return Ok(());
    }
    if let Some(note) = moment_note(&m.game, this, at.at_play) {
        m.record(
            "as_if.moment",
            format!("{card}'s play conditions hold {when}"),
            &[r::AS_IF_TEXT_CONDITION],
        )
        .obj(card.clone())
        .note(note);
    }
    // 5.3.1.e: only when the effect says a card of the wrong timing can't
    // be played.
    if !*timing && let Ok(Some(rule)) = type_timing(&d, master, &at) {
        m.record(
            "as_if.timing_not_checked",
            format!(
                "{card}'s card-type timing was not met {when}, but the effect does not say a card of the wrong timing cannot be played: 5.3.1.e does not apply"
            ),
            &[r::AS_IF_TIMING, rule],
        )
        .obj(card.clone());
    }
    if *timing && let Some(rule) = type_timing(&d, master, &at)? {
        fails(
            m,
            this,
            &[r::AS_IF_TIMING, rule],
            format!("{card}'s card-type timing was not met {when}"),
        );
        return Ok(());
    }
    if m.game.card(&card).is_some_and(|c| c.owner != master) {
        // Where another player's card goes after resolving for this player
        // (5.3.2.g's Netherworld, a character's field) is not modelled.
        return Err(EngineError::NotImplemented {
            clause: r::AS_IF_TO_NETHERWORLD,
            what: format!(
                "resolving {card}, a card {} does not own, as if played",
                player_name(master)
            ),
        });
    }
    let effects: Vec<&AbilityDef> = d
        .abilities
        .iter()
        .filter(|a| a.trigger == "effect")
        .collect();
    if effects.len() > 1 {
        return Err(EngineError::NotImplemented {
            clause: r::AS_IF_CHOOSE_EFFECT,
            what: format!("choosing which of {card}'s effects to resolve"),
        });
    }
    if set_keyword(&d).is_some() {
        return Err(EngineError::NotImplemented {
            clause: r::AS_IF_TARGETS,
            what: format!("resolving {card}, a card set on another card, as if played"),
        });
    }
    // 5.3.1.d: without proper targets the effect fails, before the card moves.
    if let Some(ab) = effects.first() {
        for ef in &ab.effect {
            if let Some(Target::Chosen {
                filter,
                count,
                up_to,
                or_leader,
                ..
            }) = ef.target()
            {
                let mut legal = candidates(&m.game, filter, master, &card);
                if *or_leader {
                    legal.extend(m.game.player_ids().map(player_name));
                }
                if !up_to && legal.len() < *count as usize {
                    fails(
                        m,
                        this,
                        &[r::AS_IF_NO_TARGET],
                        format!("{card} needs {count} target(s); only {} legal", legal.len()),
                    );
                    return Ok(());
                }
            }
        }
    }
    let from = m
        .game
        .card(&card)
        .map(|c| c.zone.kind.to_string())
        .unwrap_or_default();
    // A card that can't be moved to the play area: whether the "can't"
    // (1.3.2) stops the resolution or only the move, 5.3.2 does not say.
    let card_type = def(&m.game, &card)
        .map(|d| d.card_type.clone())
        .unwrap_or_default();
    if !move_to_play_area_forbidden(&m.game, master, &card, &card_type).is_empty() {
        return Err(EngineError::NotImplemented {
            clause: r::AS_IF_TO_PLAY_AREA,
            what: format!("{card} resolved as if played while it can't be moved to the play area"),
        });
    }
    // 5.3.2.a (and 5.3.5: as a new object it keeps nothing of its zone).
    m.game.move_card(&card, ZoneId::of(master, zn::PLAY), false);
    m.record(
        "as_if.move",
        format!(
            "{card} is resolved as if played by {} (it is not played): it moves from the {from} to the play area face up, with its original text; no cost is paid",
            player_name(master)
        ),
        &[
            r::AS_IF,
            r::AS_IF_PROCEDURE,
            r::AS_IF_TO_PLAY_AREA,
            r::AS_IF_ORIGINAL_TEXT,
            r::AS_IF_NO_COST,
        ],
    )
    .obj(card.clone());
    // 5.3.2.b–d.
    let mut targets = BTreeMap::new();
    if let Some(ab) = effects.first() {
        targets = choose_targets(m, ab, &card, master, "as_if_targets")?;
        let chosen: Vec<String> = targets.values().flatten().map(|t| t.0.clone()).collect();
        m.record(
            "as_if.targets",
            format!(
                "{card} has one effect{}",
                if chosen.is_empty() {
                    ": nothing to choose or declare".to_string()
                } else {
                    format!("; its targets: {}", chosen.join(", "))
                }
            ),
            &[r::AS_IF_CHOOSE_EFFECT, r::AS_IF_TARGETS, r::AS_IF_DECLARE],
        );
    }
    // It counts as a played card: 10.21.2.a, 世界呪符 and 人形 count it.
    let (_, _, one) = turn_limits(&d);
    if one.is_some() {
        for n in names(&m.game, &card) {
            vars_mut(&mut m.game)
                .insert(format!("turn.played_name.{}.{n}", player_name(master)), 1);
        }
        m.record(
            "as_if.one_per_turn",
            format!("{card} was resolved as if played: no other card of its name may be played this turn"),
            &[r::ONE_PER_TURN, r::AS_IF],
        );
    }
    if d.has_keyword("world_charm") {
        vars_mut(&mut m.game).insert(turn_var("world_charm", master), 1);
    }
    if d.card_type == "character" && d.has_keyword("doll") {
        vars_mut(&mut m.game).insert(turn_var("doll_played", master), 1);
    }
    // 5.3.2.e–g through the resolution of a played card; 5.3.4: the
    // effects' source is the card itself.
    m.record(
        "as_if.resolve",
        format!("{card} resolves as a played card; it is the source of its effects"),
        &[r::AS_IF_RESOLVE, r::AS_IF_SOURCE],
    )
    .note("judge's reading: 5.3.2 has no step for the effects whose timing is a played card resolving (5.2.4.a), so they do not resolve for a card resolved as if played; the effects for a resolved card do (5.3.2.f) (flag reading_as_if_resolving_window chooses otherwise)");
    let outer = std::mem::take(&mut m.game.own::<PmvState>().play_failed);
    let entry = Entry {
        card: card.clone().into(),
        player: master,
        targets,
        activated: None,
    };
    let window = reading(&m.game, AS_IF_RESOLVING_WINDOW);
    if window {
        // The scenario's reading: the whole resolution of a played card,
        // 5.2.4.a's window included (5.2.4.c then stands for 5.3.2.f).
        m.record(
            "as_if.reading",
            "reading chosen by the scenario (reading_as_if_resolving_window): the effects whose timing is a played card resolving resolve first",
            &[r::AS_IF, r::PLAY_RESOLVING_EFFECTS],
        );
        resolve_entry(m, &entry)?;
    } else {
        resolve_entry_inner(m, &entry)?;
    }
    let failed = std::mem::replace(&mut m.game.own::<PmvState>().play_failed, outer);
    if game_over(&m.game) {
        return Ok(());
    }
    if failed {
        // 5.3.3: not resolved properly.
        fails(
            m,
            this,
            &[r::AS_IF_SUCCEEDS],
            format!("{card}'s effect was not resolved properly"),
        );
    } else {
        if !window {
            // 5.3.2.f: the effects whose timing is a played card's effect
            // resolved, 自動γ included.
            fire_all(m, "card_resolved", r::AS_IF_RESOLVED_EFFECTS)?;
            if game_over(&m.game) {
                return Ok(());
            }
        }
        let to_netherworld = m
            .game
            .card(&card)
            .is_some_and(|c| c.zone.kind == zn::NETHERWORLD);
        let en = m.record(
            "as_if.done",
            format!(
                "{card} was resolved properly: the effects whose timing is a resolved card have had their turn, and the effect succeeds{}",
                if to_netherworld {
                    "; the card went to the top of the Netherworld"
                } else {
                    ""
                }
            ),
            &[r::AS_IF_RESOLVED_EFFECTS, r::AS_IF_SUCCEEDS],
        );
        if to_netherworld {
            en.rule(r::AS_IF_TO_NETHERWORLD);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(open: Option<bool>) -> At {
        At {
            tp: PlayerId::P1,
            main: true,
            open,
            vars: BTreeMap::new(),
            at_play: open.is_some(),
        }
    }

    fn spell() -> crate::engine::CardDef {
        serde_json::from_str(r#"{"name": "Fire", "type": "spell", "cost": 1}"#).unwrap()
    }

    /// 5.3.1.e: a spell's timing holds for the turn player in the main
    /// phase with no interference open, fails with one open, and is not
    /// guessed when the moment of use is unknown.
    #[test]
    fn spell_timing_at_the_moment_of_play() {
        let d = spell();
        assert_eq!(
            type_timing(&d, PlayerId::P1, &at(Some(false))).ok(),
            Some(None)
        );
        assert_eq!(
            type_timing(&d, PlayerId::P1, &at(Some(true))).ok(),
            Some(Some(r::SPELL_NO_INTERFERENCE))
        );
        assert_eq!(
            type_timing(&d, PlayerId::P2, &at(Some(false))).ok(),
            Some(Some(r::SPELL_TURN_PLAYER))
        );
        assert!(matches!(
            type_timing(&d, PlayerId::P1, &at(None)),
            Err(EngineError::NotImplemented { .. })
        ));
    }
}

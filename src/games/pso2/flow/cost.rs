//! PP and costs (209, 404): the colour requirement, even for cost 0
//! (209.1.2, 209.1.2.1), counting a face-down PP as its player's colour
//! (404.5.2); paying by turning ON PP OFF (209.1.1, 215.1.3); a face-down PP
//! turned OFF goes to the bottom of its deck at once (404.5).

use super::{M, illegal, is_on, r, set_on, st, zn};
use crate::engine::{CardDef, CardId, EngineError, Game, PlayerId, ZoneId, player_name, texts};

/// The colour of a definition (207), normalised to English; `None` for
/// white (白), which is no colour (207.2), or no colour given.
pub fn color(d: &CardDef) -> Option<&'static str> {
    named_color(d.text.get("color")?)
}

/// A colour as written in a scenario (English or Japanese), normalised;
/// `None` for white (207.2) or anything else.
pub fn named_color(c: &str) -> Option<&'static str> {
    Some(match c.trim() {
        "red" | "赤" => "red",
        "blue" | "青" => "blue",
        "yellow" | "黄" => "yellow",
        "black" | "黒" => "black",
        _ => return None,
    })
}

/// The player's colour: their Player card's (404.5.2).
fn player_color(g: &Game, p: PlayerId) -> Option<&'static str> {
    g.zone_of(p, zn::PLAYER)
        .iter()
        .find_map(|id| g.def_of(id).and_then(|d| color(d)))
}

/// The colour a PP card counts as: only its colour (404.6), or for a
/// face-down PP its player's colour (404.5.2).
fn pp_color(g: &Game, id: &str) -> Option<&'static str> {
    let c = g.card(id)?;
    if c.has(st::FACE_DOWN) {
        player_color(g, c.controller)
    } else {
        g.def_of(id).and_then(|d| color(d))
    }
}

/// 209.1.2: a card of colour `need` can be played only if a PP of that
/// colour exists (ON or OFF), whatever the cost.
pub fn check_color(
    m: &mut M,
    p: PlayerId,
    need: Option<&'static str>,
    rule: &'static str,
) -> Result<(), EngineError> {
    let Some(need) = need else {
        return Ok(());
    };
    let found = m
        .game
        .zone_of(p, zn::PP)
        .iter()
        .find(|id| pp_color(&m.game, id) == Some(need))
        .cloned();
    let Some(id) = found else {
        return Err(illegal(
            rule,
            format!(
                "{} has no {need} card in PP: a {need} card needs one, even at cost 0",
                player_name(p)
            ),
            vec![],
        ));
    };
    let face_down = m.game.card(&id).is_some_and(|c| c.has(st::FACE_DOWN));
    let mut rules = vec![r::COLOR_REQUIREMENT, rule];
    if face_down {
        rules.push(r::FACE_DOWN_PP_COLOR);
    }
    m.record(
        "cost",
        format!(
            "colour requirement met: {id} in {}'s PP counts as {need}{}",
            player_name(p),
            if face_down {
                " (a face-down PP is its player's colour)"
            } else if is_on(&m.game, &id) {
                ""
            } else {
                " (OFF, but it exists in PP)"
            }
        ),
        &rules,
    );
    Ok(())
}

/// Pays `cost` PP for player `p` from the choice `pay` (ids of ON PP).
pub fn pay(m: &mut M, p: PlayerId, cost: i64, what: &str) -> Result<(), EngineError> {
    let cost = cost.max(0) as usize;
    let on: Vec<CardId> = m
        .game
        .zone_of(p, zn::PP)
        .iter()
        .filter(|id| is_on(&m.game, id))
        .cloned()
        .collect();
    if on.len() < cost {
        return Err(illegal(
            r::COST_PAY,
            format!(
                "{what} costs {cost} but {} has {} ON PP",
                player_name(p),
                on.len()
            ),
            vec![],
        ));
    }
    if cost == 0 {
        return Ok(());
    }
    let mut chosen = match m.choices.ids("pay", &on)? {
        Some(c) => c,
        None if on.len() == cost => on.clone(),
        None => {
            return Err(EngineError::MissingChoice {
                choice: "pay".into(),
                options: texts(&on),
            });
        }
    };
    chosen.sort();
    chosen.dedup();
    if chosen.len() != cost {
        return Err(EngineError::BadChoice {
            choice: "pay".into(),
            value: format!("{} PP", chosen.len()),
            options: vec![format!("exactly {cost} of {}", on.join(", "))],
        });
    }
    m.record(
        "cost",
        format!(
            "{} pays {cost} PP for {what}: {}",
            player_name(p),
            chosen.join(", ")
        ),
        &[r::COST_PAY, r::BECOMES_OFF],
    );
    for id in &chosen {
        set_on(m, id, false);
    }
    for id in chosen {
        if m.game.card(&id).is_some_and(|c| c.has(st::FACE_DOWN)) {
            m.record(
                "rule_processing",
                format!("face-down PP {id} was turned OFF: it goes to the bottom of the deck"),
                &[r::FACE_DOWN_PP],
            );
            super::moves::move_to(m, &id, ZoneId::of(p, zn::DECK));
        }
    }
    Ok(())
}

/// The counter that keeps the X chosen for a card while it is in the
/// resolution zone (209.3.1).
pub const X: &str = "x";

/// The X a card in the resolution zone was played with (209.3.1: in
/// every other zone X is 0).
pub fn x_of(g: &crate::engine::Game, id: &str) -> i64 {
    g.card(id)
        .filter(|c| c.zone.kind == zn::RESOLUTION)
        .and_then(|c| c.counters.get(X).copied())
        .unwrap_or(0)
}

/// The X its player chooses for a ⓧ cost (choice `x`): a whole number 0
/// or more, never a fraction, a negative or infinity (103.5.1).
fn choose_x(m: &mut M) -> Result<i64, EngineError> {
    choose_x_as(m, "x")
}

/// [`choose_x`] under choice key `choice`.
fn choose_x_as(m: &mut M, choice: &str) -> Result<i64, EngineError> {
    let v = m.choices.require(choice, &["a whole number, 0 or more"])?;
    if v.as_i64().is_some_and(|x| x < 0) {
        return Err(illegal(
            r::NUMBER_CHOICE,
            format!("X = {v}: only a whole number 0 or more can be chosen"),
            vec![],
        ));
    }
    v.as_i64()
        .filter(|x| (0..=1_000_000).contains(x))
        .ok_or_else(|| EngineError::BadChoice {
            choice: choice.into(),
            value: v.to_string(),
            options: vec![format!(
                "a whole number, 0 or more ({}: no fractions, no negatives, no infinity)",
                r::NUMBER_CHOICE
            )],
        })
}

/// Player `p`'s X for an ⓧ in `card`'s ability cost (choice `choice`),
/// recorded with the `fixed` PP paid with it: X PP more, of any colour
/// (GL:ⓧ, 209.1.3).
pub fn chosen_x(
    m: &mut M,
    p: PlayerId,
    card: &str,
    choice: &str,
    fixed: i64,
) -> Result<i64, EngineError> {
    let x = choose_x_as(m, choice)?;
    m.record(
        "cost",
        format!(
            "{} chooses X = {x} for the ⓧ in {card}'s ability cost: {fixed} + {x} PP, of any colour",
            player_name(p)
        ),
        &[r::GL_X_COST, r::GL_X_VAR, r::ABILITY_COST, r::NUMBER_CHOICE],
    );
    Ok(x)
}

/// Whether player `p` has a PP of colour `need`, ON or OFF (209.1.2,
/// 209.1.3.3).
pub fn has_color_in_pp(g: &Game, p: PlayerId, need: &str) -> bool {
    g.zone_of(p, zn::PP)
        .iter()
        .any(|id| pp_color(g, id) == Some(need))
}

/// The trigger word of an ability that changes its own card's cost
/// (「このカードのコストは±Xになる」): its effects are `modify_cost` (the
/// change), its `condition` a condition of application; it works in every
/// zone (209.4.3) and changes the cost itself, read in every zone (209.4.2),
/// not only the payment (209.4.1).
pub const OWN_COST: &str = "own_cost";

/// The trigger word of another card's ability that changes cards' cost
/// itself (「…のコスト数は±Xになる」): its `modify_cost` effects change the
/// cost of the cards of `types` of the players `who`, read in every zone
/// (209.4.2), while the ability's card is on the field (300.4.1) and its
/// condition holds; the cost to play follows from the card's cost.
pub const COST_CHANGE: &str = "cost_change";

/// The changes other cards make to card `id`'s cost now (209.4.2).
fn granted_cost_delta(g: &Game, id: &str) -> i64 {
    let (Some(c), Some(d)) = (g.card(id), g.def_of(id)) else {
        return 0;
    };
    super::continuous::every_zone_cost_changes(g, c.controller, &d.card_type)
        .iter()
        .filter(|(from, _)| from != id)
        .map(|(_, n)| n)
        .sum()
}

/// The changes card `id`'s own `own_cost` abilities make to its cost now
/// (209.4.2, 209.4.3): those whose condition holds for its controller.
pub fn own_cost_delta(g: &Game, id: &str) -> i64 {
    let (Some(c), Some(d)) = (g.card(id), g.def_of(id)) else {
        return 0;
    };
    if super::abilities::lost(g, id) {
        return 0;
    }
    d.abilities
        .iter()
        .filter(|a| a.trigger == OWN_COST)
        .filter(|a| {
            a.condition
                .as_ref()
                .is_none_or(|k| super::continuous::holds(g, c.controller, k))
        })
        .flat_map(|a| &a.effect)
        .map(|e| match e {
            crate::engine::Effect::ModifyCost { cost, .. } => *cost,
            _ => 0,
        })
        .sum()
}

/// Card `id`'s cost now, in whatever zone it is: the printed cost (209.2),
/// X in the resolution zone (209.3.1) and its own cost changes (209.4.2),
/// never below 0 (103.5.3); `None` for a card with no cost, but a Boss
/// card with no printed cost costs 0 (RAID:S7).
pub fn current(g: &Game, id: &str) -> Option<i64> {
    let printed = match g.def_of(id)?.cost {
        Some(c) => c,
        None if super::raid::costless_boss_card(g, id) => 0,
        None => return None,
    };
    Some((printed + x_of(g, id) + own_cost_delta(g, id) + granted_cost_delta(g, id)).max(0))
}

/// What a card's own-cost ability may say: `modify_cost` only (checked
/// before the first step).
pub fn own_cost_unsupported(effects: &[crate::engine::Effect]) -> Option<String> {
    effects
        .iter()
        .find(|e| !matches!(e, crate::engine::Effect::ModifyCost { node: 0, .. }))
        .map(|e| {
            format!(
                "an `own_cost` ability does `modify_cost` only, not `{}`",
                e.word()
            )
        })
}

/// What playing `card` costs player `p` now: its printed cost, plus the X
/// its player chooses when the cost has ⓧ (stat `x_cost`, 209.3; choice
/// `x`, a whole number 0 or more, 103.5.1), changed by the continuous
/// abilities that change the cost to play (209.4.1: the payment only, the
/// card's cost stays as printed), never below 0 (103.5.3).
pub fn to_play(m: &mut M, p: PlayerId, card: &str, def: &CardDef) -> Result<i64, EngineError> {
    let printed = def.cost.unwrap_or(0);
    let mut total = printed;
    let own = own_cost_delta(&m.game, card);
    let has_own = def.abilities.iter().any(|a| a.trigger == OWN_COST);
    let granted = granted_cost_delta(&m.game, card);
    if granted != 0 {
        let before = (printed + own).max(0);
        let changes: Vec<String> = super::continuous::every_zone_cost_changes(
            &m.game,
            m.game.card(card).map_or(p, |c| c.controller),
            &def.card_type,
        )
        .iter()
        .filter(|(from, _)| from != card)
        .map(|(c, d)| format!("{c} {d:+}"))
        .collect();
        m.record(
            "cost",
            format!(
                "another card's ability changes {card}'s cost in every zone ({}): {before} becomes {}",
                changes.join(", "),
                (printed + own + granted).max(0)
            ),
            &[r::COST_CHANGE_EVERY_ZONE, r::CONTINUOUS],
        );
    }
    if has_own && own == 0 {
        m.record(
            "cost",
            format!("{card}'s own-cost ability does not apply now (its condition is not met): it costs {printed}"),
            &[r::OWN_COST_EVERY_ZONE, r::CONTINUOUS],
        );
    }
    if own != 0 {
        total = (printed + own).max(0);
        m.record(
            "cost",
            format!(
                "{card}'s own ability changes its cost in every zone ({own:+}): {printed} becomes {total}"
            ),
            &[r::COST_CHANGE_EVERY_ZONE, r::OWN_COST_EVERY_ZONE],
        );
    }
    if granted != 0 {
        total = (printed + own + granted).max(0);
    }
    if def.stats.get("x_cost").is_some_and(|v| *v > 0) {
        let x = choose_x(m)?;
        m.record(
            "cost",
            format!(
                "{} chooses X = {x} for {card}: it costs {printed} + {x} while it is in the resolution zone, X counting 0 everywhere else",
                player_name(p)
            ),
            &[r::X_COST, r::X_COST_ZONES, r::NUMBER_CHOICE],
        );
        super::state::of(&mut m.game).x_pending = Some(x);
        total += x;
    }
    let changes = super::continuous::play_cost_changes(&m.game, p, &def.card_type);
    if changes.is_empty() {
        return Ok(total);
    }
    let delta: i64 = changes.iter().map(|(_, d)| d).sum();
    let paid = (total + delta).max(0);
    let from: Vec<String> = changes.iter().map(|(c, d)| format!("{c} {d:+}")).collect();
    let mut rules = vec![r::PLAY_COST_CHANGE, r::CONTINUOUS];
    if total + delta < 0 {
        rules.push(r::NOT_BELOW_ZERO);
    }
    m.record(
        "cost",
        format!(
            "the cost to play {card} changes ({}): {total} becomes {paid}; the card's own cost is still {}",
            from.join(", "),
            (printed + own + granted).max(0)
        ),
        &rules,
    );
    Ok(paid)
}

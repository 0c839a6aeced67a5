//! PP and costs (209, 404): the colour requirement, even for cost 0
//! (209.1.2, 209.1.2.1), counting a face-down PP as its player's colour
//! (404.5.2); paying by turning ON PP OFF (209.1.1, 215.1.3); a face-down PP
//! turned OFF goes to the bottom of its deck at once (404.5).

use super::{M, illegal, is_on, r, set_on, st, zn};
use crate::engine::{CardDef, EngineError, Game, PlayerId, ZoneId, player_name};

/// The colour of a definition (207), normalised to English; `None` for
/// white (白), which is no colour (207.2), or no colour given.
pub fn color(d: &CardDef) -> Option<&'static str> {
    let c = d.text.get("color")?;
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
        .find_map(|id| g.def_of(id).and_then(color))
}

/// The colour a PP card counts as: only its colour (404.6), or for a
/// face-down PP its player's colour (404.5.2).
fn pp_color(g: &Game, id: &str) -> Option<&'static str> {
    let c = g.card(id)?;
    if c.has(st::FACE_DOWN) {
        player_color(g, c.controller)
    } else {
        g.def_of(id).and_then(color)
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
    let on: Vec<String> = m
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
                options: on,
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

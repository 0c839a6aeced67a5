//! Mag evolution (マグ進化, 203.4): the 《マグ進化 LvX》 cards start under the
//! Mag (203.4.1) and are public (203.4.2); in its player's main phase with
//! an empty resolution zone, paying the cost, one is stacked face up on the
//! Mag, if a PP of its colour exists (203.4.3). The Mag gains its abilities
//! (203.4.4) and the stack is one card sharing ON/OFF (203.4.5). Mag
//! evolution is not one of the actions that use the right to act
//! (103.6.2.1): the player keeps it.

use super::{Ctx, M, Step, Window, cost, ctype, illegal, r, types, zn};
use crate::engine::{Action, CardId, EngineError, Game, player_name, texts};

/// Whether `id` is a Mag evolution card still under the Mag (not evolved).
pub fn under_the_mag(g: &Game, id: &str) -> bool {
    ctype(g, id) == types::MAG_EVOLUTION && g.card(id).is_some_and(|c| c.attached_to.is_none())
}

/// The cards that share the Mag's ON/OFF (203.4.5): the Mag and the
/// evolution cards stacked on it.
pub fn stack_of(g: &Game, id: &str) -> Vec<CardId> {
    let Some(c) = g.card(id) else {
        return Vec::new();
    };
    if c.zone.kind != zn::MAG || under_the_mag(g, id) {
        return vec![id.into()];
    }
    g.zone(&c.zone)
        .iter()
        .filter(|x| !under_the_mag(g, x))
        .cloned()
        .collect()
}

/// The `evolve` action.
pub fn evolve(m: &mut M, ctx: Ctx, a: &Action) -> Result<(), EngineError> {
    let p = ctx.holder;
    if ctx.window != Window::Main || !ctx.stack.is_empty() || p != m.game.turn.active {
        return Err(illegal(
            r::MAG_EVOLUTION,
            "Mag evolution is done only in its player's main phase with nothing in the resolution zone",
            vec![],
        ));
    }
    let under: Vec<CardId> = m
        .game
        .zone_of(p, zn::MAG)
        .iter()
        .filter(|id| under_the_mag(&m.game, id))
        .cloned()
        .collect();
    let Some(card) = a.card.clone().filter(|c| under.contains(c)) else {
        return Err(illegal(
            r::MAG_EVOLUTION,
            "the card must be a 《マグ進化》 card under the player's Mag",
            texts(&under),
        ));
    };
    let Some(mag) = m
        .game
        .zone_of(p, zn::MAG)
        .iter()
        .find(|id| ctype(&m.game, id) == types::MAG)
        .cloned()
    else {
        return Err(illegal(
            r::MAG_EVOLUTION,
            format!("{} has no Mag", player_name(p)),
            vec![],
        ));
    };
    let def = m
        .game
        .def_of(&card)
        .cloned()
        .ok_or_else(|| super::bad("unknown card"))?;
    cost::check_color(m, p, cost::color(&def), r::MAG_EVOLUTION)?;
    cost::pay(m, p, def.cost.unwrap_or(0), &card)?;
    let on = super::is_on(&m.game, &mag);
    if let Some(c) = m.game.cards.get_mut(&card) {
        c.attached_to = Some(mag.clone());
    }
    super::set_on(m, &card, on);
    m.record(
        "mag_evolution",
        format!("{card} is stacked face up on {mag}: the Mag gains its abilities and they share ON/OFF as one card"),
        &[r::MAG_EVOLUTION, r::MAG_EVOLUTION_NAME, r::MAG_GAINS, r::MAG_SHARES],
    )
    .obj(card);
    m.then([Step::Priority(Box::new(ctx))]);
    Ok(())
}

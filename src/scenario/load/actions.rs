//! The `actions` section: each action's kind, player, cards, zone and
//! target checked against the game and the board.

use super::state::parse_p;
use super::{Ctx, ScenarioError, k, one_of};
use crate::engine::machine::{PASS_SEP, key_pass};
use crate::engine::{Action, CardId, Game};
use crate::games::GameModule;
use crate::scenario::format::ActionDef;
use crate::scenario::locate::Seg;

/// The validated actions of the list `section` (`actions`, or the
/// candidate `responses` of `judge explore`).
pub(super) fn load_list(
    cx: &Ctx,
    module: &dyn GameModule,
    list: &[ActionDef],
    section: &'static str,
    game: &Game,
) -> Result<Vec<Action>, ScenarioError> {
    let n = game.players.len();
    // Cards the decision in progress creates as the run starts (a played
    // card waiting on a stack): the actions may name them too.
    let waiting = game
        .in_progress
        .as_ref()
        .map(|v| module.in_progress_cards(v))
        .unwrap_or_default();
    let mut actions = Vec::new();
    for (i, a) in list.iter().enumerate() {
        let ap = [k(section), Seg::Index(i)];
        if !module.actions().contains(&a.kind.as_str()) {
            return Err(cx.err(
                &[ap.as_slice(), &[k("do")]].concat(),
                format!("unknown action `{}`", a.kind),
                one_of("actions", module.actions()),
            ));
        }
        let player = match &a.player {
            Some(s) => Some(parse_p(
                cx,
                n,
                s,
                &[ap.as_slice(), &[k("player")]].concat(),
            )?),
            None => None,
        };
        let known = |id: &str| {
            game.cards.contains_key(id)
                || id.starts_with(crate::engine::state::TOKEN_PREFIX)
                || waiting.iter().any(|w| w == id)
        };
        if let Some(c) = &a.card
            && !known(c)
        {
            return Err(cx.err(
                &[ap.as_slice(), &[k("card")]].concat(),
                format!("unknown card id `{c}`"),
                Some(nearest_ids(game, c)),
            ));
        }
        if let Some(z) = &a.from
            && !module.zones().iter().any(|s| s.name == z)
        {
            let names: Vec<&str> = module.zones().iter().map(|z| z.name).collect();
            return Err(cx.err(
                &[ap.as_slice(), &[k("from")]].concat(),
                format!("unknown zone `{z}`"),
                one_of("zones", &names),
            ));
        }
        // A target may also be a place: a zone of the game (DZ plays and
        // moves units to a named square, 2.20.1-2, 4.7.3-1).
        if let Some(t) = &a.target
            && t != "leader"
            && !known(t)
            && !module.zones().iter().any(|s| s.name == t)
        {
            return Err(cx.err(
                &[ap.as_slice(), &[k("target")]].concat(),
                format!("unknown target `{t}`"),
                Some(format!("a card id or `leader`; {}", nearest_ids(game, t))),
            ));
        }
        pass_keys(cx, &ap, a)?;
        actions.push(Action {
            kind: a.kind.clone(),
            player,
            card: a.card.as_deref().map(CardId::from),
            from: a.from.clone(),
            target: a.target.clone(),
            choices: a.choices.clone(),
            note: a.note.clone(),
        });
    }
    Ok(actions)
}

/// A choice given for one pass (`key@n`, [`PASS_SEP`]) names a pass from
/// the second on: the first is the key itself.
fn pass_keys(cx: &Ctx, ap: &[Seg], a: &ActionDef) -> Result<(), ScenarioError> {
    for key in a.choices.keys() {
        if let Some(Err(bad)) = key_pass(key) {
            return Err(cx.err(
                &[ap, &[k("choices"), k(key)]].concat(),
                format!("choice `{key}` names pass `{bad}`: a pass is a whole number from 2 (the first pass is the key itself)"),
                Some(format!("`key{PASS_SEP}2` answers the second time the choice is asked on this action")),
            ));
        }
    }
    Ok(())
}

fn nearest_ids(game: &Game, id: &str) -> String {
    let ids: Vec<&str> = game
        .cards
        .keys()
        .map(|k| k.as_str())
        .filter(|k| !k.contains(".deck."))
        .collect();
    let near = crate::rulebook::address::nearest(id, ids.iter().copied(), 5);
    if near.is_empty() {
        format!("card ids: {}", ids.join(", "))
    } else {
        format!("nearest card ids: {}", near.join(", "))
    }
}

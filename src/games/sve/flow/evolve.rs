//! Evolving (8.3, 12.2, 5.15).

use super::*;

/// 8.3 / 12.2 / 5.15: evolve `card` using evolve card `evo` from the evolve
/// deck area.
pub(super) fn evolve(m: &mut M, p: PlayerId, card: &str, evo: Option<&str>) -> R<()> {
    let g = &m.game;
    if g.card(card)
        .is_none_or(|c| c.zone != ZoneId::of(p, zn::FIELD))
    {
        return Err(illegal(
            r::ACTIVATE,
            format!("{card} is not on {}'s field", player_name(p)),
            legal_main(g),
        ));
    }
    if g.own_ref::<SveState>().is_some_and(|s| s.evolve_used > 0) {
        return Err(illegal(
            r::EVOLVE_ONCE,
            "an Evolve ability has already been used this turn",
            legal_main(g),
        ));
    }
    let name = eff_def(g, card).map(|d| d.name.clone()).unwrap_or_default();
    let options: Vec<String> = g
        .zone_of(p, zn::EVOLVE_DECK)
        .iter()
        .filter(|e| !g.cards[*e].has(st::FACE_UP) && g.def_of(e).is_some_and(|d| d.name == name))
        .cloned()
        .collect();
    let Some(e) = evo else {
        return Err(EngineError::MissingChoice {
            choice: "target (the evolve card)".into(),
            options,
        });
    };
    if !options.iter().any(|x| x == e) {
        return Err(illegal(
            r::EVOLVE_ABILITY,
            format!(
                "`{e}` is not a face-down card named {name} in {}'s evolve deck area",
                player_name(p)
            ),
            options,
        ));
    }
    let cost = g
        .def_of(e)
        .and_then(|d| d.stats.get("evolve_cost").copied())
        .unwrap_or(0)
        .max(0);
    let pp = g.value(p, "pp");
    let ep = g.value(p, "ep");
    let use_ep = if ep > 0 && cost > 0 {
        match m.choices.take("use_ep") {
            Some(Value::Bool(b)) => b,
            Some(v) => {
                return Err(EngineError::BadChoice {
                    choice: "use_ep".into(),
                    value: v.to_string(),
                    options: vec!["true".into(), "false".into()],
                });
            }
            None => {
                return Err(EngineError::MissingChoice {
                    choice: "use_ep".into(),
                    options: vec!["true".into(), "false".into()],
                });
            }
        }
    } else {
        false
    };
    let pp_cost = if use_ep { cost - 1 } else { cost };
    if pp < pp_cost {
        return Err(illegal(
            r::PLAY_COST_UNPAID,
            format!(
                "evolving costs {pp_cost} PP and {} has {pp}",
                player_name(p)
            ),
            legal_main(g),
        ));
    }
    m.game.set_value(p, "pp", pp - pp_cost);
    let rec = m.record(
        "evolve.cost",
        format!(
            "{} reveals {e} and pays {pp_cost} PP{}",
            player_name(p),
            if use_ep { " and 1 EP" } else { "" }
        ),
        &[r::ACTIVATE, r::EVOLVE_ONCE, r::EVOLVE_ABILITY, r::PP_COST],
    );
    rec.change(format!("{}.pp", player_name(p)), pp, pp - pp_cost);
    if use_ep {
        rec.rule(r::EVOLVE_EP);
        rec.change(format!("{}.ep", player_name(p)), ep, ep - 1);
        m.game.set_value(p, "ep", ep - 1);
    }
    m.game.own::<SveState>().evolve_used += 1;
    let before = m
        .game
        .cards
        .get(card)
        .map(|c| (attack(&m.game, c), defense(&m.game, c)))
        .unwrap_or((0, 0));
    mv(m, e, ZoneId::of(p, zn::EVOLUTION), false);
    if let Some(ec) = m.game.cards.get_mut(e) {
        ec.attached_to = Some(card.to_string());
        ec.states.insert(st::FACE_UP.into());
    }
    if let Some(c) = m.game.cards.get_mut(card) {
        c.states.insert(st::EVOLVED.into());
    }
    let after = m
        .game
        .cards
        .get(card)
        .map(|c| (attack(&m.game, c), defense(&m.game, c)))
        .unwrap_or((0, 0));
    m.game.events.push(Event::Transformed {
        card: card.to_string(),
    });
    m.record(
        "evolve",
        format!("{card} evolves into {e}: same object, damage kept, orientation kept"),
        &[r::EVOLVE, r::EVOLVE_INFO, r::EVOLVE_SAME_OBJECT],
    )
    .obj(card)
    .change(format!("{card}.attack"), before.0, after.0)
    .change(format!("{card}.defense"), before.1, after.1);
    m.then([
        Step::CheckTiming {
            at: r::MAIN_AFTER,
            started: false,
        },
        Step::AwaitMain,
    ]);
    Ok(())
}

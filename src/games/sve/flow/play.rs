//! Playing a card (8.2, 10.6.2).

use super::*;

/// 8.2.1 / 10.6.2: play a card from hand or EX area. `quick` = the Quick
/// window's rule when played there.
pub(super) fn play_card(
    m: &mut M,
    p: PlayerId,
    card: &str,
    from: Option<&str>,
    quick: Option<&'static str>,
) -> R<()> {
    check_from(&m.game, card, from)?;
    let Some(c) = m.game.card(card).cloned() else {
        return Err(bad(format!("no card `{card}`")));
    };
    let alts = |g: &Game| match quick {
        Some(_) => quick_options(g, p),
        None => legal_main(g),
    };
    if c.controller != p || ![zn::HAND, zn::EX].contains(&c.zone.kind) {
        return Err(illegal(
            r::PLAY_CARD,
            format!(
                "{card} is in {}: a card is played from its player's hand or EX area",
                c.zone
            ),
            alts(&m.game),
        ));
    }
    let Some(def) = m.game.def_of(card).cloned() else {
        return Err(bad(format!("`{card}` has no definition")));
    };
    if def.card_type == "unknown" {
        return Err(bad(format!(
            "`{card}` is an anonymous card; give it a definition to play it"
        )));
    }
    if !["follower", "amulet", "spell"].contains(&def.card_type.as_str()) {
        return Err(illegal(
            r::PLAY_CARD,
            format!("{card} is a {}: it cannot be played", def.card_type),
            alts(&m.game),
        ));
    }
    if let Some(rule) = quick
        && !has_kw(&m.game, card, "quick")
    {
        return Err(illegal(
            rule,
            format!("{card} has no Quick: it cannot be played in this window"),
            alts(&m.game),
        ));
    }
    // 10.6.2.1 specify: reveal and move to the resolution area.
    mv(m, card, ZoneId::shared(zn::RESOLUTION), false);
    m.record(
        "play.specify",
        format!(
            "{} plays {card} ({}) from {}",
            player_name(p),
            def.name,
            c.zone
        ),
        &[r::PLAY_SPECIFY, r::PLAY_CARD],
    )
    .obj(card)
    .change(format!("{card}.zone"), c.zone.to_string(), "resolution");
    // 12.3.4: Quick in the opponent's windows (8.4.7, 7.4.5).
    if quick.is_some()
        && let Some(e) = m.trace.last_mut()
    {
        e.rule(r::QUICK_WINDOWS);
    }
    // 12.3.5: a Quick card in its player's own main phase is played as any
    // other card, only where non-Quick cards can be.
    if quick.is_none()
        && def.has_keyword("quick")
        && let Some(e) = m.trace.last_mut()
    {
        e.rule(r::QUICK_OWN_TURN);
    }
    // 10.6.2.2.1 the optional additional cost of Earth Rite (13.3.3).
    let spell_text: Vec<usize> = if def.card_type == "spell" {
        spell_abilities(&def)
    } else {
        Vec::new()
    };
    let earth = earth_rite::decide(m, p, card, &c.def, &spell_text, alts(&m.game))?;
    // 10.6.2.2.2 the value of X the text leaves to the player.
    x_value::decide(m, p, card, &c.def, &spell_text)?;
    // 10.6.2.3 targets of a spell.
    let mut targets = Vec::new();
    if def.card_type == "spell" {
        for (i, ab) in def.abilities.iter().enumerate() {
            if ab.trigger == "spell" {
                let key = format!("{card}.spell");
                let t = choose_targets(m, &c.def, i, card, p, &key)?;
                targets.push(t);
            }
        }
    }
    // 10.6.2.5 cost: the printed cost changed by effects (10.4.4.1: the
    // PP paid changes, not the card's cost), a negative result paid as 0
    // (1.3.2.2.1).
    let mut pc = play_cost(&m.game, p, card)?;
    if pc.rival_sets.len() > 1 {
        // 10.10.2.1: its master orders the effects setting its cost.
        let last = order_sets(m, p, card, &pc.rival_sets)?;
        pc = pc.with_set(Some(last));
    }
    let cost = pc.pay;
    let pp = m.game.value(p, "pp");
    if pp < cost {
        return Err(illegal(
            r::PLAY_COST_UNPAID,
            format!("{card} costs {cost} PP and {} has {pp}", player_name(p)),
            alts(&m.game),
        ));
    }
    let opp_turn = p != m.game.turn.active;
    let e = m.record(
        "play.cost",
        if pc.changed() {
            format!("{} pays {cost} PP ({})", player_name(p), pc.explain())
        } else {
            format!("{} pays {cost} PP", player_name(p))
        },
        &[r::PLAY_COST, r::PP_COST],
    );
    e.change(format!("{}.pp", player_name(p)), pp, pp - cost);
    if pc.raw < 0 {
        e.rule(r::NEGATIVE_AS_ZERO);
    }
    if !pc.disabled.is_empty() {
        e.rule(r::CONDITIONAL_TEXT);
        e.text.push_str(&format!(
            "; the cost change of {} does not apply (its condition does not hold)",
            pc.disabled.join(", ")
        ));
    }
    if pc.set.is_some() || !pc.deltas.is_empty() {
        e.rule(r::COST_CHANGE).rule(r::ABILITY_ON_FIELD);
    }
    if pc.set.is_some() && !pc.deltas.is_empty() {
        e.rule(r::COST_SET_FIRST);
    }
    if quick.is_some() && opp_turn {
        e.note(format!("no rule empties PP at the end of a turn, so PP left over is usable in the opponent's turn (flag `{PP_EMPTIES_AT_TURN_END}`: it is lost as the turn ends)"));
    }
    m.game.set_value(p, "pp", pp - cost);
    if let Some(a) = earth {
        earth_rite::pay(m, &a);
    }
    // 10.6.2.6 field check.
    if ["follower", "amulet"].contains(&def.card_type.as_str()) {
        let n = m.game.zone_of(p, zn::FIELD).len();
        let lim = limit(&m.game, zn::FIELD);
        if n >= lim {
            return Err(illegal(
                r::PLAY_FIELD_FULL,
                format!(
                    "{}'s field holds {n} cards, its limit is {lim}",
                    player_name(p)
                ),
                alts(&m.game),
            ));
        }
    }
    // 13.2.1 item 3: every card played counts for Combo, this one too.
    m.game.own::<SveState>().count_play(p);
    m.game.events.push(Event::Played {
        card: card.into(),
        player: p,
    });
    m.record("play.event", format!("{card} was played"), &[r::PLAY_EVENT]);
    m.then([Step::Resolve {
        card: card.into(),
        player: p,
        targets,
    }]);
    Ok(())
}

//! Playing a card by an effect (「プレイする」 in an ability's text, e.g.
//! 『簒奪の絶傑・オクトリス』: "choose a card in your opponent's cemetery;
//! play it with its cost set to 0").
//!
//! The rulebook has no procedure of its own for this: the card is played
//! by the play procedure (10.6.2) from the zone it is in, by the effect's
//! master (3.1.2.4.1), who is the card's master while it is played and on
//! their field (3.1.2); its owner does not change (3.1.1), so it goes to
//! its owner's zones when it leaves (4.1.6). A play that cannot be made
//! (no target, cost not paid, field full, a card that is not played) is
//! simply not done (1.3.2), the play being undone (10.6.2.1.2, 10.6.2.3.3,
//! 10.6.2.5.3, 10.6.2.6): the maker's answers (post-165, BP05-SL15 Q4).

use super::*;

/// Zones a card can be played from by an effect. A card on a field, in
/// the resolution area or attached in the evolution area is not a card
/// waiting to be played; such a text is not implemented.
const PLAYABLE_FROM: &[&str] = &[zn::HAND, zn::EX, zn::CEMETERY, zn::DECK, zn::BANISHED];

/// 10.6.2 by an effect: `master` plays each target; `set` is the cost the
/// text sets (applied before the ± of permanent abilities, 10.10.2.4).
pub(super) fn play_by_effect(
    m: &mut M,
    targets: &[String],
    set: Option<i64>,
    master: PlayerId,
) -> R<()> {
    for card in targets {
        play_one(m, card, set, master)?;
    }
    Ok(())
}

fn play_one(m: &mut M, card: &str, set: Option<i64>, p: PlayerId) -> R<()> {
    let Some(c) = m.game.card(card).cloned() else {
        return Ok(());
    };
    if !PLAYABLE_FROM.contains(&c.zone.kind) {
        return Err(EngineError::NotImplemented {
            clause: r::PLAY_SPECIFY,
            what: format!("playing {card} by an effect from {}", c.zone),
        });
    }
    let Some(def) = m.game.def_of(card).cloned() else {
        return Err(bad(format!("`{card}` has no definition")));
    };
    if !["follower", "amulet", "spell"].contains(&def.card_type.as_str()) {
        not_played(
            m,
            card,
            format!("it is a {}", def.card_type),
            r::PLAY_SPECIFY,
        );
        return Ok(());
    }
    // This play is made inside another card's or ability's resolution:
    // that one's Earth Rite decision (13.3.3) is put aside and restored.
    let outer_rite = m.game.own::<SveState>().earth_rite.take();
    let outer_x = m.game.own::<SveState>().x.take();
    let done = attempt(m, card, &c, &def, set, p);
    m.game.own::<SveState>().earth_rite = outer_rite;
    m.game.own::<SveState>().x = outer_x;
    done
}

/// 10.6.2.2 to 10.6.2.8 for one card; a step that cannot be made ends the
/// play with nothing done (1.3.2).
fn attempt(
    m: &mut M,
    card: &str,
    c: &Card,
    def: &crate::engine::CardDef,
    set: Option<i64>,
    p: PlayerId,
) -> R<()> {
    let spell_text = spell_abilities(def);
    // 10.6.2.2.1: Earth Rite's optional additional cost, as in any play.
    let earth = earth_rite::decide(m, p, card, &c.def, &spell_text, Vec::new())?;
    // 10.6.2.2.2: X the text leaves to the player, as in any play.
    x_value::decide(m, p, card, &c.def, &spell_text)?;
    // 10.6.2.3: a spell's targets, chosen as in any play.
    let mut targets = Vec::new();
    for &i in &spell_text {
        let key = format!("{card}.spell");
        match choose_targets(m, &c.def, i, card, p, &key) {
            Ok(t) => targets.push(t),
            Err(EngineError::Illegal { .. }) => {
                let why = "it has no legal target".to_string();
                not_played(m, card, why, r::PLAY_TARGETS_NONE);
                return Ok(());
            }
            Err(e) => return Err(e),
        }
    }
    let (pay, how) = effect_cost(&m.game, p, card, set)?;
    let pp = m.game.value(p, "pp");
    if pp < pay {
        let why = format!("it costs {pay} PP ({how}) and {} has {pp}", player_name(p));
        not_played(m, card, why, r::PLAY_COST_UNPAID);
        return Ok(());
    }
    if def.card_type != "spell" && m.game.zone_of(p, zn::FIELD).len() >= limit(&m.game, zn::FIELD) {
        let why = format!("{}'s field is full", player_name(p));
        not_played(m, card, why, r::PLAY_FIELD_FULL);
        return Ok(());
    }
    specify_and_pay(m, card, c, &def.name, p, pay, &how);
    if let Some(a) = earth {
        earth_rite::pay(m, &a);
    }
    // The card resolves now, inside the effect playing it.
    resolve_played(m, card, p, targets)
}

/// 10.6.2.1, 10.6.2.5, 10.6.2.7: the card is revealed and moved to the
/// resolution area, its cost paid, and the played event happens.
fn specify_and_pay(m: &mut M, card: &str, c: &Card, name: &str, p: PlayerId, pay: i64, how: &str) {
    mv(m, card, ZoneId::shared(zn::RESOLUTION), false);
    let owner = if c.owner == p {
        String::new()
    } else {
        format!(
            "; {} is its master, {} still its owner",
            player_name(p),
            player_name(c.owner)
        )
    };
    m.record(
        "play.specify",
        format!(
            "{} plays {card} ({name}) from {} by an effect{owner}",
            player_name(p),
            c.zone
        ),
        &[
            r::PLAY_SPECIFY,
            r::EFFECT_MASTER_ACTS,
            r::CONTROLLER,
            r::OWNER,
        ],
    )
    .obj(card)
    .change(format!("{card}.zone"), c.zone.to_string(), "resolution");
    let pp = m.game.value(p, "pp");
    let e = m.record(
        "play.cost",
        format!("{} pays {pay} PP ({how})", player_name(p)),
        &[r::PLAY_COST, r::PP_COST, r::COST_SET_FIRST],
    );
    e.change(format!("{}.pp", player_name(p)), pp, pp - pay);
    m.game.set_value(p, "pp", pp - pay);
    // 13.2.1 item 3: a card played counts for Combo however it is played.
    m.game.own::<SveState>().count_play(p);
    m.game.events.push(Event::Played {
        card: card.into(),
        player: p,
    });
    m.record("play.event", format!("{card} was played"), &[r::PLAY_EVENT]);
}

/// The PP the play costs: the value the text sets (or the printed cost),
/// then the permanent abilities' set value and ± (10.4.4.1, 10.10.2.4),
/// never below 0 when paid (1.3.2.2.1); with the trace's account.
fn effect_cost(g: &Game, p: PlayerId, card: &str, set: Option<i64>) -> R<(i64, String)> {
    let pc = play_cost(g, p, card)?;
    if pc.rival_sets.len() > 1 {
        return Err(EngineError::NotImplemented {
            clause: r::REPLACEMENT_ORDER,
            what: format!(
                "ordering the effects setting the cost of {card} when an effect plays it ({})",
                texts(
                    &pc.rival_sets
                        .iter()
                        .map(|(_, s)| s.clone())
                        .collect::<Vec<_>>()
                )
                .join(", ")
            ),
        });
    }
    let Some(v) = set else {
        return Ok((pc.pay, pc.explain()));
    };
    if let Some((other, src)) = &pc.set
        && *other != v
    {
        return Err(EngineError::NotImplemented {
            clause: r::REPLACEMENT_ORDER,
            what: format!("the effect sets the cost of {card} to {v} and {src} to {other}"),
        });
    }
    let raw = v + pc.deltas.iter().map(|(d, _)| d).sum::<i64>();
    let mut parts = vec![format!("cost set to {v} by the effect first")];
    parts.extend(pc.deltas.iter().map(|(d, s)| format!("{d:+} by {s}")));
    if raw < 0 {
        parts.push(format!("{raw} is paid as 0"));
    }
    Ok((raw.max(0), parts.join(", ")))
}

/// 1.3.2: a play the effect asks for that cannot be made is not done; the
/// card stays where it is.
fn not_played(m: &mut M, card: &str, why: String, rule: &'static str) {
    m.record(
        "play.effect_fails",
        format!(
            "{card} cannot be played ({why}): the play is not done and {card} stays where it is"
        ),
        &[r::IMPOSSIBLE, rule],
    )
    .obj(card);
}

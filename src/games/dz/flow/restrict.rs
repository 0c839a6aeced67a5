//! 「できない」 restrictions: "can't move" (移動できない) and "can't draw"
//! (カードを引くことができない). A "can't" beats every "can" (1.1.2): a
//! restricted move is rejected as it is declared, and one already on the
//! stack does nothing; a restricted draw draws nothing, whatever asks for it
//! (an effect or the draw phase).
//!
//! Two sources (4.14.1):
//! - a static ability (常在型能力) of a card on a square, written `restrict`
//!   in a `static` ability: it applies while the card is there, to whatever
//!   it describes at each moment (4.14.3-2's parenthesis, 4.14.4-2);
//! - a spell or ability (4.14.3): the restriction lasts the period its text
//!   states (4.14.3-1: until end of turn, or the whole duel). It changes no
//!   data, so an `all` restriction reaches cards that arrive later too
//!   (4.14.3-2, EX 4.14.3-2#ex2); a `chosen` one, the cards chosen while they
//!   stay the same objects (2.23.1-3).

use crate::engine::{
    CardId, Effect, EngineError, Filter, Game, PlayerId, Restricted, Target, Until,
};

use super::{M, Tgt, dz, dz_ref, label, ni, r, statics, targets};

/// What a restriction created by a spell or ability reaches.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Reach {
    /// Players (`who`).
    Players(Vec<PlayerId>),
    /// The cards chosen, as the objects they were.
    Cards(Vec<Tgt>),
    /// Every card matching the filter at each moment.
    All(Box<Filter>),
}

/// A restriction created by a resolved spell or ability (4.14.3).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Restriction {
    pub action: Restricted,
    pub source: CardId,
    pub controller: PlayerId,
    pub reach: Reach,
    /// `EndOfTurn`: ends in the recovery phase (3.10.1); `Permanent`: the
    /// whole duel (4.14.3-1).
    pub until: Until,
}

/// The word a restriction forbids, for the trace.
fn verb(a: Restricted) -> &'static str {
    match a {
        Restricted::Move => "move",
        Restricted::Draw => "draw cards",
        Restricted::Attack => "attack",
        Restricted::Block => "block",
        Restricted::Play => "play cards",
        Restricted::MoveToPlayArea => "move to the play area",
    }
}

/// Whether DZ models restriction `a`.
fn modelled(a: Restricted) -> bool {
    matches!(a, Restricted::Move | Restricted::Draw)
}

/// The restriction a `restrict` the module can't apply: an action DZ has
/// no word for, or a card restriction on drawing / a player one on moving.
pub fn refuse(key: &str, e: &Effect) -> Result<(), EngineError> {
    let Effect::Restrict { action, target, .. } = e else {
        return Ok(());
    };
    let ok = match action {
        Restricted::Draw => target.is_none(),
        Restricted::Move => matches!(
            target,
            Some(Target::All { .. } | Target::This | Target::Chosen { .. })
        ),
        _ => false,
    };
    if ok {
        Ok(())
    } else {
        Err(ni(
            r::CANT_BEATS_CAN,
            format!(
                "card `{key}`: a \"can't {}\" restriction {} (\"can't move\" restricts units, \"can't draw\" players)",
                verb(*action),
                if target.is_some() {
                    "on cards"
                } else {
                    "on players"
                }
            ),
        ))
    }
}

/// Applies a resolving `restrict` effect: `cards` are its legal chosen
/// targets (or `this`) when it names some.
pub fn apply(
    m: &mut M,
    e: &Effect,
    source: &str,
    controller: PlayerId,
    cards: Vec<CardId>,
) -> Result<(), EngineError> {
    let Effect::Restrict {
        action,
        target,
        who,
        until,
        ..
    } = e
    else {
        return Ok(());
    };
    if !modelled(*action) {
        return Err(ni(
            r::CANT_BEATS_CAN,
            format!("a \"can't {}\" restriction", verb(*action)),
        ));
    }
    let until = match until {
        Until::EndOfTurn | Until::ThisTurn => Until::EndOfTurn,
        _ => Until::Permanent,
    };
    let lasts = if until == Until::EndOfTurn {
        "until end of turn"
    } else {
        "for the rest of the duel (no period stated)"
    };
    let (reach, whom, rules) = match target {
        None => {
            let ps = m.game.who(controller, *who);
            let names = crate::engine::player_names(&ps);
            (Reach::Players(ps), names, vec![r::DURATION])
        }
        Some(Target::All { filter }) => (
            Reach::All(Box::new(filter.clone())),
            "every card its filter describes, now and arriving later".to_string(),
            vec![r::DURATION, r::LOCKED_SET],
        ),
        Some(_) => {
            let tgts: Vec<Tgt> = cards
                .iter()
                .filter_map(|id| {
                    m.game.card(id).map(|c| Tgt {
                        card: id.clone(),
                        inc: c.incarnation,
                    })
                })
                .collect();
            let names = cards
                .iter()
                .map(|id| label(&m.game, id))
                .collect::<Vec<_>>()
                .join(", ");
            (Reach::Cards(tgts), names, vec![r::DURATION])
        }
    };
    let mut cites = vec![r::CONTINUOUS, r::CANT_BEATS_CAN];
    cites.extend(rules);
    m.record(
        "restrict",
        format!("{whom}: can't {} ({lasts})", verb(*action)),
        &cites,
    );
    dz(&mut m.game).restrictions.push(Restriction {
        action: *action,
        source: source.into(),
        controller,
        reach,
        until,
    });
    Ok(())
}

/// Whether a resolved restriction reaches player `p` or card `card`.
fn reaches(g: &Game, x: &Restriction, p: PlayerId, card: Option<&str>) -> bool {
    match (&x.reach, card) {
        (Reach::Players(ps), None) => ps.contains(&p),
        (Reach::Cards(ts), Some(id)) => ts
            .iter()
            .any(|t| t.card == id && g.card(id).is_some_and(|c| c.incarnation == t.inc)),
        (Reach::All(f), Some(id)) => targets::matches(g, x.controller, &x.source, &[], f, id),
        _ => false,
    }
}

/// Whether the static ability effect `e` of card `src` (controlled by
/// `controller`) forbids `a` to player `p` or card `card`.
fn static_reaches(
    g: &Game,
    e: &Effect,
    src: &str,
    controller: PlayerId,
    a: Restricted,
    p: PlayerId,
    card: Option<&str>,
) -> bool {
    let Effect::Restrict {
        action,
        target,
        who,
        ..
    } = e
    else {
        return false;
    };
    if *action != a {
        return false;
    }
    match (target, card) {
        (None, None) => g.who(controller, *who).contains(&p),
        (Some(Target::This), Some(id)) => id == src,
        (Some(Target::All { filter }), Some(id)) => {
            targets::matches(g, controller, src, &[], filter, id)
        }
        _ => false,
    }
}

/// The sources forbidding `a` now: to player `p` (a player restriction,
/// `card` none) or to `card` (controlled by `p`).
pub fn sources(g: &Game, a: Restricted, p: PlayerId, card: Option<&str>) -> Vec<CardId> {
    let mut out: Vec<CardId> = dz_ref(g)
        .restrictions
        .iter()
        .filter(|x| x.action == a && reaches(g, x, p, card))
        .map(|x| x.source.clone())
        .collect();
    for (src, controller, ability) in statics::working(g) {
        if ability
            .effect
            .iter()
            .any(|e| static_reaches(g, e, &src, controller, a, p, card))
        {
            out.push(src);
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// The recovery phase ends "until end of turn" restrictions (3.10.1).
pub fn end_of_turn(g: &mut Game) -> usize {
    let d = dz(g);
    let before = d.restrictions.len();
    d.restrictions.retain(|x| x.until == Until::Permanent);
    before - d.restrictions.len()
}

/// Whether `p` can't draw now; if so, says so in the trace citing 1.1.2.
pub fn draw_forbidden(m: &mut M, p: PlayerId) -> bool {
    let src = sources(&m.game, Restricted::Draw, p, None);
    if src.is_empty() {
        return false;
    }
    m.record(
        "draw",
        format!(
            "{} can't draw cards ({}): \"can't\" beats the draw, nothing is drawn",
            crate::engine::player_name(p),
            src.join(", ")
        ),
        &[r::CANT_BEATS_CAN, r::IMPOSSIBLE],
    );
    true
}

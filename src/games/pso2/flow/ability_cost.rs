//! The printed cost of an ability (209.1.3; GL:“『（A）⇒（B）』”: the part
//! before 「⇒」 or 「：」), each part written in the ability's `cost` with a
//! word PSO2 declares for costs (`GameSpec::cost_effects`):
//! - 【ON⇒OFF】 (GL:【ON⇒OFF】, 209.1.3.1): `set_state` `off` on `this`;
//! - ①② (209.1.3): `pay_cost` with an `amount`: that many ON PP turned OFF,
//!   of any colour; a coloured one (209.1.3.3, text `ability_color`) needs a
//!   PP of that colour to be there;
//! - ⓧ (GL:ⓧ): `pay_cost` with no `amount`: X chosen by the payer, X PP;
//! - cards from the hand (209.1.3.1, 209.1.3.1.1): `put` to `discard` or
//!   `deck` of `chosen` cards of zone `hand`, your own hand unless the text
//!   says 「相手の」 (`side` `opponent`).
//!
//! An activated ability with no `cost` written is the commonest printing,
//! 【ON⇒OFF】⇒; the card stats `ability_cost` / `ability_x_cost` add ① and
//! ⓧ to it. A written `cost` is the whole printed cost: 【ON⇒OFF】 is paid
//! only when it lists it. An activated ability's cost is paid when the
//! activation is declared, all of it or the activation is illegal
//! (209.1.3.1); a triggered ability's is decided on as it triggers
//! (209.1.3.2).

use super::{M, cost, illegal, is_on, r, zn};
use crate::engine::card::Num;
use crate::engine::{AbilityDef, CardDef, Effect, EngineError, PlayerId, Side, Target};

/// One part of a printed ability cost (209.1.3).
#[derive(Debug, Clone, Copy)]
enum Part<'a> {
    /// 【ON⇒OFF】: this ON card turned OFF.
    OnOff,
    /// ①②…: that many PP turned OFF.
    Pp(i64),
    /// ⓧ: X PP, X chosen by the payer.
    PpX,
    /// Cards from a hand to the discard or the deck (a `put`).
    Hand(&'a Effect),
}

/// The part `e` is, or what is not implemented about it.
fn part(e: &Effect) -> Result<Part<'_>, String> {
    match e {
        Effect::SetState {
            state,
            clear: false,
            target: Target::This,
        } if state == super::st::OFF => Ok(Part::OnOff),
        Effect::PayCost {
            amount,
            life: None,
            optional: false,
            otherwise,
            ..
        } if otherwise.is_empty() => match amount {
            Some(Num::Int(n)) if *n >= 0 => Ok(Part::Pp(*n)),
            None => Ok(Part::PpX),
            Some(other) => Err(format!(
                "a PP cost of {other:?}: write ① etc. as a whole `amount` and ⓧ as `pay_cost` with no `amount`"
            )),
        },
        Effect::Put {
            to,
            target:
                Some(Target::Chosen {
                    filter,
                    up_to: false,
                    ..
                }),
            top: None,
            ..
        } if filter.zone.as_deref() == Some(zn::HAND)
            && matches!(to.as_str(), zn::DISCARD | zn::DECK) =>
        {
            Ok(Part::Hand(e))
        }
        other => Err(format!(
            "an ability cost `{}` other than 【ON⇒OFF】 (`set_state` off on this), PP (`pay_cost`: ① with an `amount`, ⓧ without) or cards of the hand to the discard or deck (`put` of `chosen` cards of zone `hand`)",
            other.word()
        )),
    }
}

/// What no cost part of 209.1.3 is, or `None` when each part is one.
pub fn unsupported(cost: &[Effect]) -> Option<String> {
    cost.iter().find_map(|e| part(e).err())
}

/// The parts of a cost the check before the run admitted.
fn parts(cost: &[Effect]) -> Result<Vec<Part<'_>>, EngineError> {
    cost.iter()
        .map(|e| part(e).map_err(|why| super::ni(r::ABILITY_COST, why)))
        .collect()
}

/// Whether ability `ab` costs 【ON⇒OFF】: listed in its cost, or no cost
/// written (the commonest printing, 【ON⇒OFF】⇒).
pub fn costs_on_off(ab: &AbilityDef) -> bool {
    ab.cost.is_empty() || ab.cost.iter().any(|e| matches!(part(e), Ok(Part::OnOff)))
}

/// 209.1.3.1: 【ON⇒OFF】 can be paid only by an ON card.
pub fn check_on_off(m: &M, card: &str, ab: &AbilityDef) -> Result<(), EngineError> {
    if costs_on_off(ab) && !is_on(&m.game, card) {
        return Err(illegal(
            r::OTHER_COST_AT_DECLARATION,
            format!("{card} is OFF and cannot pay 【ON⇒OFF】"),
            vec![],
        ));
    }
    Ok(())
}

/// The fixed PP (①: stat `ability_cost` and `pay_cost` amounts) and
/// whether the cost has ⓧ (stat `ability_x_cost` or a `pay_cost` with no
/// amount).
fn pp_parts(def: &CardDef, parts: &[Part]) -> (i64, bool) {
    let stat = def.stats.get("ability_cost").copied().unwrap_or(0);
    let fixed = stat
        + parts
            .iter()
            .map(|p| if let Part::Pp(n) = p { *n } else { 0 })
            .sum::<i64>();
    let x = def.stats.get("ability_x_cost").is_some_and(|v| *v > 0)
        || parts.iter().any(|p| matches!(p, Part::PpX));
    (fixed, x)
}

/// Pays activated ability `ab`'s whole cost as the activation is declared
/// (209.1.3.1): 【ON⇒OFF】, the colour a coloured ① requires (209.1.3.3),
/// the PP (① and ⓧ, 209.1.3, GL:ⓧ), then the hand cards, in that order.
pub fn pay_activated(
    m: &mut M,
    p: PlayerId,
    card: &str,
    def: &CardDef,
    ab: &AbilityDef,
) -> Result<i64, EngineError> {
    let parts = parts(&ab.cost)?;
    if costs_on_off(ab) {
        super::set_on(m, card, false);
    }
    check_color(m, p, def)?;
    let (fixed, has_x) = pp_parts(def, &parts);
    let x = if has_x {
        cost::chosen_x(m, p, card, "x", fixed)?
    } else {
        0
    };
    let pp = fixed + x;
    let on = on_pp(m, p);
    if on < pp {
        return Err(illegal(
            r::ABILITY_COST,
            format!(
                "{card}'s ability costs {pp} PP and {} has {on} ON PP",
                crate::engine::player_name(p)
            ),
            vec![],
        ));
    }
    cost::pay(m, p, pp, &format!("{card}'s ability"))?;
    pay_hand(m, p, card, &parts)?;
    Ok(x)
}

/// How many ON PP player `p` has.
fn on_pp(m: &M, p: PlayerId) -> i64 {
    m.game
        .zone_of(p, zn::PP)
        .iter()
        .filter(|id| is_on(&m.game, id))
        .count() as i64
}

/// Pays the hand parts of a cost (209.1.3.1, 209.1.3.1.1), in order.
fn pay_hand(m: &mut M, p: PlayerId, card: &str, parts: &[Part]) -> Result<(), EngineError> {
    for e in parts.iter().filter_map(|x| match x {
        Part::Hand(e) => Some(*e),
        _ => None,
    }) {
        let Effect::Put {
            to,
            target: Some(t @ Target::Chosen { filter, count, .. }),
            ..
        } = e
        else {
            continue;
        };
        let whose = if filter.side == Side::Opponent {
            "the opponent's"
        } else {
            "your own"
        };
        let holders: Vec<PlayerId> = if filter.side == Side::Opponent {
            m.game
                .player_ids()
                .filter(|&q| super::raid::opposed(&m.game, p, q))
                .collect()
        } else {
            vec![p]
        };
        let mut f = filter.clone();
        f.side = Side::Any;
        let have = holders
            .iter()
            .flat_map(|&q| m.game.zone_of(q, zn::HAND).to_vec())
            .filter(|id| super::targets::admits(&m.game, p, card, &f, id))
            .count();
        if have < *count as usize {
            return Err(illegal(
                r::OTHER_COST_AT_DECLARATION,
                format!(
                    "{card}'s ability costs {count} card(s) of {whose} hand to the {to}, and only {have} can be"
                ),
                vec![],
            ));
        }
        m.record(
            "cost",
            format!("{card}'s ability cost: {count} card(s) of {whose} hand to the {to}, paid"),
            &[r::OTHER_COST_AT_DECLARATION, r::DISCARD_COST_OWN_HAND],
        );
        super::put::put(m, p, card, to, Some(t), None, Vec::new())?;
    }
    Ok(())
}

/// 209.1.3.3: the colour a coloured ability cost requires (text
/// `ability_color`), checked like a card's colour requirement (209.1.2).
fn check_color(m: &mut M, p: PlayerId, def: &CardDef) -> Result<(), EngineError> {
    cost::check_color(m, p, needed_color(def), r::COLORED_ABILITY_COST)
}

fn needed_color(def: &CardDef) -> Option<&'static str> {
    def.text
        .get("ability_color")
        .and_then(|c| cost::named_color(c))
}

/// Why player `p` cannot pay card `card`'s triggered-ability cost in full
/// now, with the clause the missing part is paid under, or `None` when
/// every part can be paid (an ⓧ can always be paid with X = 0).
fn trigger_cost_shortfall(
    m: &M,
    p: PlayerId,
    card: &str,
    parts: &[Part],
) -> Option<(String, &'static str)> {
    let mut pp = 0;
    let mut hand_needed = 0usize;
    for part in parts {
        match part {
            Part::OnOff if !is_on(&m.game, card) => {
                return Some((
                    format!("{card} is not ON, so 【ON⇒OFF】 cannot be paid"),
                    r::GL_ON_OFF,
                ));
            }
            Part::Pp(n) => pp += *n,
            Part::Hand(Effect::Put {
                target: Some(Target::Chosen { filter, count, .. }),
                ..
            }) => {
                let mut f = filter.clone();
                f.side = Side::Any;
                let have = m
                    .game
                    .zone_of(p, zn::HAND)
                    .iter()
                    .filter(|id| super::targets::admits(&m.game, p, card, &f, id))
                    .count();
                if have < hand_needed + *count as usize {
                    return Some((
                        format!("it costs {count} card(s) from the hand and only {have} can be"),
                        r::OTHER_COST_AT_DECLARATION,
                    ));
                }
                hand_needed += *count as usize;
            }
            _ => {}
        }
    }
    let has_pp = parts.iter().any(|x| matches!(x, Part::Pp(_) | Part::PpX));
    if let Some(need) = m.game.def_of(card).and_then(|d| needed_color(d))
        && has_pp
        && !cost::has_color_in_pp(&m.game, p, need)
    {
        return Some((
            format!(
                "its ① is {need} and {} has no {need} card in PP",
                crate::engine::player_name(p)
            ),
            r::COLORED_ABILITY_COST,
        ));
    }
    let on = on_pp(m, p);
    if on < pp {
        return Some((
            format!(
                "it costs {pp} PP and {} has {on} ON PP",
                crate::engine::player_name(p)
            ),
            r::ABILITY_COST,
        ));
    }
    None
}

/// 209.1.3.2: at the moment triggered ability `key` (of card `card`, with
/// `cost`) triggers, its master decides whether to pay the cost (choice
/// `<key>.pay`: true / false; an ⓧ's X is choice `<key>.x`); only when it
/// is paid does the ability go to the resolution zone. A cost that cannot
/// be paid in full is not paid. Returns the X of its ⓧ (0 without one)
/// when it was paid, `None` when it was not.
pub fn pay_on_trigger(
    m: &mut M,
    p: PlayerId,
    card: &str,
    key: &str,
    ab: &AbilityDef,
) -> Result<Option<i64>, EngineError> {
    let parts = parts(&ab.cost)?;
    if let Some((why, clause)) = trigger_cost_shortfall(m, p, card, &parts) {
        m.record(
            "cost",
            format!("{key} has a cost and {why}: it is not paid, so the ability is not put in the resolution zone"),
            &[r::TRIGGER_COST, clause],
        )
        .obj(card.to_string());
        return Ok(None);
    }
    let choice = format!("{key}.pay");
    let v = m.choices.require(&choice, &["true", "false"])?;
    let Some(paid) = v.as_bool() else {
        return Err(EngineError::BadChoice {
            choice,
            value: v.to_string(),
            options: vec!["true".into(), "false".into()],
        });
    };
    if !paid {
        m.record(
            "cost",
            format!(
                "{} does not pay the cost of {key}: the ability is not put in the resolution zone",
                crate::engine::player_name(p)
            ),
            &[r::TRIGGER_COST],
        )
        .obj(card.to_string());
        return Ok(None);
    }
    m.record(
        "cost",
        format!(
            "{} pays the cost of {key} as it triggers: the ability goes to the resolution zone",
            crate::engine::player_name(p)
        ),
        &[r::TRIGGER_COST, r::ABILITY_COST],
    )
    .obj(card.to_string());
    if parts.iter().any(|x| matches!(x, Part::OnOff)) {
        super::set_on(m, card, false);
    }
    let fixed: i64 = parts
        .iter()
        .map(|x| if let Part::Pp(n) = x { *n } else { 0 })
        .sum();
    let has_x = parts.iter().any(|x| matches!(x, Part::PpX));
    let mut x = 0;
    if has_x || fixed > 0 {
        if let Some(def) = m.game.def_of(card).cloned() {
            check_color(m, p, &def)?;
        }
        if has_x {
            x = cost::chosen_x(m, p, card, &format!("{key}.x"), fixed)?;
        }
        cost::pay(m, p, fixed + x, &format!("{key}'s cost"))?;
    }
    pay_hand(m, p, card, &parts)?;
    Ok(Some(x))
}

//! Static abilities (常在型能力, 4.5) of cards on squares: continuous
//! effects that apply at once, without the stack (4.5.2, 4.5.3), to every
//! card they describe at each moment, so a card arriving later is
//! affected as it arrives (4.14.2, 4.14.4-2). Unit and base text works
//! only on a square (2.10.3, 2.20.1-7, 2.20.2-5).
//!
//! Written as abilities with trigger `static` whose effects are `buff`
//! (`attack`: power, `defense`: smash, 2.12 / 2.13) on `all` cards of a
//! filter (often with a `region`: 「このカードと同じラインのスクエアにある
//! すべての相手のユニット」) or on `this` card.

use crate::engine::{AbilityDef, Card, CardId, Effect, EngineError, Game, PlayerId, Target};

use super::{board, ni, r, targets};

/// The trigger word of a static ability.
pub const STATIC: &str = "static";

/// The static abilities working now: each with its card and the card's
/// controller. Unit and base text works only on a square (2.10.3), a
/// zone effect only in its zone (5.7.1); 共鳴's
/// only once a move resolved (5.13.2); one with a condition on its area
/// only there (4.14.4-1).
pub fn working(g: &Game) -> Vec<(CardId, PlayerId, &AbilityDef)> {
    let mut out = Vec::new();
    // Asked on every keyword and power check: when no definition of the
    // game prints a static ability, none can work, and the board need not
    // be walked.
    if !g.defs.prints_ability(|a| a.trigger == STATIC) {
        return out;
    }
    let places = board::on_squares(g)
        .into_iter()
        .chain(super::zone_effect::working_off_squares(g));
    for id in places {
        let Some(src) = g.card(&id) else { continue };
        let Some(def) = g.def_of(&id) else { continue };
        if def.has_keyword("resonance") && !super::resonance::on(g, src.controller) {
            continue;
        }
        if !super::zone_effect::text_works(g, src) {
            // A zone effect works only in its zone (5.7.1-2).
            continue;
        }
        for a in def
            .abilities
            .iter()
            .filter(|a| a.trigger == STATIC && condition_holds(src, a))
        {
            out.push((id.clone(), src.controller, a));
        }
    }
    out
}

/// The total a stat (`attack` or `defense`) of card `c` gets from the
/// static abilities in effect now.
fn total(g: &Game, c: &Card, stat: &str) -> i64 {
    let mut sum = 0;
    for (id, controller, a) in working(g) {
        for e in &a.effect {
            let Effect::Buff {
                attack,
                defense,
                target,
                ..
            } = e
            else {
                continue;
            };
            let applies = reaches(g, controller, &id, target, c, true);
            if applies {
                sum += if stat == "attack" { *attack } else { *defense };
            }
        }
    }
    sum
}

/// Whether a static ability's condition on its card's area holds: the
/// effect lasts only while the card is where the ability works (4.14.4-1).
fn condition_holds(src: &Card, a: &AbilityDef) -> bool {
    let Some(c) = &a.condition else {
        return true;
    };
    board::square(src.zone.kind)
        .is_some_and(|sq| c.bounds_hold(board::area_for(sq, src.controller) as i64))
}

/// Whether card `c` has a static ability with a condition on its area.
pub fn area_conditional(g: &Game, c: &Card) -> bool {
    g.def_of(&c.id).is_some_and(|d| {
        d.abilities
            .iter()
            .any(|a| a.trigger == STATIC && a.condition.is_some())
    })
}

/// The clauses the regions of the static abilities reaching `c` rest on
/// (2.24.7-2 for an area seen from the ability's controller).
pub fn region_rules(g: &Game, c: &Card) -> Vec<&'static str> {
    let mut v = Vec::new();
    for id in board::on_squares(g) {
        let Some(src) = g.card(&id) else { continue };
        let Some(def) = g.def_of(&id) else { continue };
        for a in def.abilities.iter().filter(|a| a.trigger == STATIC) {
            for e in &a.effect {
                if let Effect::Buff {
                    target: Target::All { filter },
                    ..
                } = e
                    && targets::matches(g, src.controller, &id, &[], filter, &c.id)
                {
                    v.extend(targets::region_rules(g, &id, filter));
                }
            }
        }
    }
    v.sort_unstable();
    v.dedup();
    v
}

/// The use cost a static ability sets for `card` as player `p` plays it
/// (the core `set_cost`, 「使用コストは[無N]になる」): colourless N, with
/// the card whose ability sets it. `who` is read from the ability's
/// controller, `types` (none: any) from the card; the first such ability
/// on the squares applies.
pub fn set_cost(g: &Game, p: PlayerId, card: &str) -> Option<(i64, CardId)> {
    let kind = super::ctype(g, card);
    working(g).into_iter().find_map(|(id, controller, a)| {
        a.effect.iter().find_map(|e| match e {
            Effect::SetCost { cost, who, types }
                if g.who(controller, *who).contains(&p)
                    && (types.is_empty() || types.iter().any(|t| t == kind)) =>
            {
                Some((*cost, id.clone()))
            }
            _ => None,
        })
    })
}

/// Whether static ability effect target `target` of card `id` (controller
/// `controller`) reaches `c`; `layered`: read `c`'s races with the race
/// changes applied (4.14.5-2), which a race change itself does not.
fn reaches(
    g: &Game,
    controller: PlayerId,
    id: &str,
    target: &Target,
    c: &Card,
    layered: bool,
) -> bool {
    match target {
        Target::This => id == c.id,
        Target::All { filter } if layered => {
            targets::matches(g, controller, id, &[], filter, &c.id)
        }
        Target::All { filter } => targets::matches_printed(g, controller, id, filter, &c.id),
        _ => false,
    }
}

/// The races static abilities add to `c` now (「種族に…を加える」): applied
/// before every other kind of continuous effect that reads them (4.14.5-2).
pub fn added_traits(g: &Game, c: &Card) -> Vec<String> {
    let mut out = Vec::new();
    for (id, controller, a) in working(g) {
        for e in &a.effect {
            if let Effect::ChangeInfo { traits, target, .. } = e
                && reaches(g, controller, &id, target, c, false)
            {
                for t in traits {
                    if !out.contains(t) {
                        out.push(t.clone());
                    }
                }
            }
        }
    }
    out
}

/// Whether a static ability gives `c` the keyword ability `k` now
/// (「…を得る」).
pub fn grants(g: &Game, c: &Card, k: &str) -> bool {
    grants_among(g, &working(g), c, k)
}

/// [`grants`], with the abilities [`working`] now already read: for a
/// question asked of many cards at one moment (support, 5.5.2).
pub fn grants_among(
    g: &Game,
    working: &[(CardId, PlayerId, &AbilityDef)],
    c: &Card,
    k: &str,
) -> bool {
    working.iter().any(|(id, controller, a)| {
        a.effect.iter().any(|e| {
            matches!(e, Effect::ChangeKeywords { gain, target, .. }
                if gain.iter().any(|w| w == k) && reaches(g, *controller, id, target, c, true))
        })
    })
}

/// Whether a static ability would give `card`, arriving on square `sq`
/// under `p`, the keyword `k`: read as it arrives (4.14.2).
pub fn grants_on_arrival(g: &Game, card: &str, p: PlayerId, sq: &'static str, k: &str) -> bool {
    let gives = |a: &AbilityDef| {
        a.effect.iter().any(
            |e| matches!(e, Effect::ChangeKeywords { gain, .. } if gain.iter().any(|w| w == k)),
        )
    };
    // Those working now, or the arriving card's own.
    let own = g
        .def_of(card)
        .is_some_and(|d| d.abilities.iter().any(|a| a.trigger == STATIC && gives(a)));
    let any = own || working(g).iter().any(|(_, _, a)| gives(a));
    if !any {
        return false;
    }
    let mut probe = g.clone();
    probe.move_card(card, crate::engine::ZoneId::of(p, sq), false);
    let Some(c) = probe.cards.get_mut(card) else {
        return false;
    };
    c.controller = p;
    let c = c.clone();
    grants(&probe, &c, k)
}

/// The power static abilities give `c` now.
pub fn power(g: &Game, c: &Card) -> i64 {
    total(g, c, "attack")
}

/// The smash static abilities give `c` now.
pub fn smash(g: &Game, c: &Card) -> i64 {
    total(g, c, "defense")
}

/// A static ability the module can't apply: any effect but `buff` on
/// `all` or `this`.
pub fn refuse(key: &str, effects: &[Effect]) -> Result<(), EngineError> {
    for e in effects {
        if matches!(e, Effect::Restrict { .. }) {
            super::restrict::refuse(key, e)?;
            continue;
        }
        if matches!(
            e,
            Effect::SetCost { .. }
                | Effect::ChangeKeywords {
                    target: Target::All { .. } | Target::This,
                    ..
                }
                | Effect::ChangeInfo {
                    target: Target::All { .. } | Target::This,
                    ..
                }
        ) {
            continue;
        }
        let ok = matches!(
            e,
            Effect::Buff {
                target: Target::All { .. } | Target::This,
                ..
            }
        );
        if !ok {
            return Err(ni(
                r::STATIC,
                format!(
                    "card `{key}`: a static ability other than a power or smash change of `all` or `this` cards, a \"can't\" restriction or a use cost set (`set_cost`)"
                ),
            ));
        }
    }
    Ok(())
}

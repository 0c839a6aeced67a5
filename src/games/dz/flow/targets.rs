//! Targets (4.11): chosen when a spell is played (4.7.2-5) or a triggered
//! ability is put on the stack (4.8.4-2), never the spell itself (4.11.4),
//! never the same card twice under one 対象の (4.11.5), never a card whose
//! 耐性 names the source's colour (5.17.2); checked again on resolution
//! (4.9.2-1, 4.11.6).

use crate::engine::{
    CardId, Effect, EngineError, Filter, Game, Picked, PlayerId, Side, Target, TargetCount,
};

use super::{Chosen, M, Tgt, board, colours, ctype, text};

/// The effects of the `kind` abilities of definition `def` (a spell's
/// text), or of one ability.
pub fn effects_of(g: &Game, def: &str, kind: &str) -> Vec<Effect> {
    g.defs
        .get(def)
        .map(|d| {
            d.abilities
                .iter()
                .filter(|a| a.trigger == kind)
                .flat_map(|a| a.effect.clone())
                .collect()
        })
        .unwrap_or_default()
}

/// The player whose card `id` is for "your" / "opponent's": its
/// controller on a square, the zone's player elsewhere.
pub fn side_of(g: &Game, id: &str) -> Option<PlayerId> {
    let c = g.card(id)?;
    if board::is_square(c.zone.kind) || board::is_base(c.zone.kind) {
        Some(c.controller)
    } else {
        c.zone.player.or(Some(c.controller))
    }
}

/// Whether card `id` matches `filter` for an effect of `controller` whose
/// source is `source` (colours `source_colours`).
pub fn matches(
    g: &Game,
    controller: PlayerId,
    source: &str,
    source_colours: &[&str],
    f: &Filter,
    id: &str,
) -> bool {
    let Some(c) = g.card(id) else { return false };
    let zone_ok = f.admits_zone(c.zone.kind, |z| board::is_square(z) || board::is_base(z));
    let side_ok = match (f.side, side_of(g, id)) {
        (Side::Any, _) => true,
        (Side::You, Some(p)) => p == controller,
        (Side::Opponent, Some(p)) => p != controller,
        _ => false,
    };
    let type_ok = f.types.is_empty() || f.types.iter().any(|t| t == ctype(g, id));
    let state_ok = f.state.as_deref().is_none_or(|s| c.has(s));
    let other_ok = !f.other || id != source;
    // 「赤の」: the card's colours are those of its use cost (2.4.2).
    let colour_ok = f
        .colour
        .as_deref()
        .is_none_or(|want| colours(g, id).contains(&want));
    let region_ok = f
        .region
        .as_deref()
        .is_none_or(|rg| board::in_region(g, controller, source, rg, id));
    // Cost bounds read the use cost: the sum of its numbers (2.4.3); a
    // race, the races with every race change applied (4.14.5-2).
    let added = if f.with_trait.is_some() {
        super::statics::added_traits(g, c)
    } else {
        Vec::new()
    };
    let chars_ok = matches_characteristics(g, f, id, &added);
    chars_ok
        && zone_ok
        && side_ok
        && type_ok
        && state_ok
        && other_ok
        && colour_ok
        && region_ok
        && !resists(g, id, source_colours)
}

/// Whether `id`'s characteristics meet the filter, `added` races counted.
fn matches_characteristics(g: &Game, f: &Filter, id: &str, added: &[String]) -> bool {
    let cost = Some(super::use_cost(g, id));
    g.def_of(id).is_some_and(|d| {
        if added.is_empty() {
            return f.admits_characteristics(d, cost);
        }
        let mut d = (**d).clone();
        d.traits.extend(added.iter().cloned());
        f.admits_characteristics(&d, cost)
    })
}

/// [`matches`] reading the card's printed races (for a race change's own
/// filter, applied first, 4.14.5-2); no 耐性 involved.
pub fn matches_printed(g: &Game, controller: PlayerId, source: &str, f: &Filter, id: &str) -> bool {
    let Some(c) = g.card(id) else { return false };
    let plain = Filter {
        with_trait: None,
        ..f.clone()
    };
    matches(g, controller, source, &[], &plain, &c.id) && matches_characteristics(g, f, id, &[])
}

/// Whether 耐性 protects `id` from a source of these colours (5.17.2).
pub fn resists(g: &Game, id: &str, source_colours: &[&str]) -> bool {
    text(g, id, "resistance").is_some_and(|c| source_colours.contains(&c))
}

/// Every card of the game matching the filter, in a stable order.
pub fn candidates(
    g: &Game,
    controller: PlayerId,
    source: &str,
    source_colours: &[&str],
    f: &Filter,
) -> Vec<CardId> {
    g.cards
        .keys()
        .filter(|id| matches(g, controller, source, source_colours, f, id))
        .cloned()
        .collect()
}

/// Chooses the targets of `effects` for `controller` (source card
/// `source`), from the choice `key` (`key#N` for effect N when several
/// effects choose). `None`: a chosen target has no legal option, so the
/// spell can't be played or the trigger is removed (4.11.3).
pub fn choose_for(
    m: &mut M,
    controller: PlayerId,
    source: &str,
    effects: &[Effect],
    key: &str,
) -> Result<Option<Vec<Option<Chosen>>>, EngineError> {
    let cols = colours(&m.game, source);
    let chosen_count = effects
        .iter()
        .filter(|e| {
            (matches!(target_of(e), Some(Target::Chosen { .. }))
                && !untargeted(e)
                && !each_player(e))
                || super::swap::filters(e).is_some()
                || matches!(e, Effect::TargetPlace { .. })
        })
        .count();
    let mut out = Vec::new();
    for (i, e) in effects.iter().enumerate() {
        if let Effect::TargetPlace { .. } = e {
            // 「対象のスクエア／ライン」 (flow/target_place.rs).
            let k = if chosen_count == 1 {
                key.to_string()
            } else {
                format!("{key}#{i}")
            };
            match super::target_place::choose(m, controller, source, &cols, e, &k)? {
                Some(place) => out.push(Some(Chosen::Place(place))),
                None => return Ok(None),
            }
            continue;
        }
        if untargeted(e) || each_player(e) {
            // Cards chosen without 「対象の」 are not targets (4.11.1):
            // chosen on resolution (`effects::resolution_choice`).
            out.push(None);
            continue;
        }
        let k = if chosen_count == 1 {
            key.to_string()
        } else {
            format!("{key}#{i}")
        };
        if let Some(fs) = super::swap::filters(e) {
            // 「入れ替える」: both units are targets (flow/swap.rs).
            match super::swap::choose(m, controller, source, &cols, fs, &k)? {
                Some(ts) => out.push(Some(Chosen::Cards(ts))),
                None => return Ok(None),
            }
            continue;
        }
        let Some(Target::Chosen {
            filter,
            count,
            up_to,
            ..
        }) = target_of(e)
        else {
            out.push(None);
            continue;
        };
        let options = candidates(&m.game, controller, source, &cols, filter);
        let n = *count as usize;
        if filter.with_trait.is_some()
            && let Some(e) = m.trace.last_mut()
        {
            // A race written A／B is each of them (2.8.2).
            e.rules.push(super::r::RACES);
        }
        if let Some(e) = m.trace.last_mut() {
            e.rules.extend(region_rules(&m.game, source, filter));
        }
        if filter.cost_at_most.is_some() || filter.cost_at_least.is_some() {
            // A cost bound reads the sum of the numbers (2.4.3).
            if let Some(e) = m.trace.last_mut() {
                e.rules.push(super::r::COST_SUM);
            }
        }
        // One 対象の never chooses the same card twice (4.11.5): checked
        // before the shared helper, which would call it bad input.
        let named = super::named_in_choice(m, &k);
        let distinct: std::collections::BTreeSet<&String> = named.iter().collect();
        if distinct.len() != named.len() {
            m.choices.take(&k);
            return Err(super::illegal(
                super::r::TARGET_ONCE,
                "one 対象の can't choose the same card twice",
                vec![],
            ));
        }
        let wanted = if *up_to {
            TargetCount::UpTo(n)
        } else {
            TargetCount::Exactly(n)
        };
        let picked = if options.is_empty() && m.choices.peek(&k).is_none() {
            // Nothing to choose: "up to" declares 0 targets; otherwise the
            // spell can't be played or the trigger is removed (4.11.3).
            Vec::new()
        } else {
            let g = &m.game;
            let why = |id: &str| not_a_target(g, controller, source, &cols, filter, &options, id);
            match m.choices.targets(&k, &options, wanted, why)? {
                Picked::Given(list) => list,
                Picked::Only(list) => {
                    if let Some(e) = m.trace.last_mut() {
                        e.note = Some(format!(
                            "targets {} are the only legal ones, so the engine chose them",
                            list.join(", ")
                        ));
                    }
                    list
                }
            }
        };
        if filter.region.as_deref() == Some("same_area_as_first") {
            let area = |id: &str| {
                board::square_of(&m.game, id)
                    .and_then(board::square)
                    .map(|s| board::coords(s).1)
            };
            if picked.iter().any(|c| area(c) != area(&picked[0])) {
                return Err(super::illegal(
                    super::r::TARGETS,
                    "the other targets must be in the same area as the first one",
                    vec![],
                ));
            }
        }
        if picked.is_empty() && !*up_to {
            return Ok(None);
        }
        if picked.is_empty()
            && let Some(e) = m.trace.last_mut()
        {
            // "Up to": 0 targets declared (4.7.2-5), not a targeting spell
            // (4.11.2).
            e.rules.push(super::r::TARGETS);
            e.rules.push(super::r::ZERO_TARGETS);
        }
        let tg = picked
            .iter()
            .map(|c| Tgt {
                card: c.clone(),
                inc: m.game.card(c).map_or(0, |x| x.incarnation),
            })
            .collect();
        out.push(Some(Chosen::Cards(tg)));
    }
    Ok(Some(out))
}

/// Why `id`, chosen as a target, is not a legal one: choosing it is an
/// illegal action (4.7.2-5); one the source's colour can't target because
/// of 耐性 is illegal by 5.17.2, read when the spell goes on the stack
/// (2.27 ¶4). `None` when `id` names no card (bad input).
fn not_a_target(
    g: &Game,
    controller: PlayerId,
    source: &str,
    cols: &[&str],
    filter: &Filter,
    options: &[CardId],
    id: &str,
) -> Option<(&'static str, String)> {
    g.card(id)?;
    if resists(g, id, cols) && matches(g, controller, source, &[], filter, id) {
        return Some((
            super::r::RESISTANCE,
            format!("it has 耐性 against {}", cols.join("/")),
        ));
    }
    Some((
        super::r::TARGETS,
        format!(
            "legal: {}",
            if options.is_empty() {
                "none".to_string()
            } else {
                options.join(", ")
            }
        ),
    ))
}

/// The target selector of an effect, if it has one.
pub fn target_of(e: &Effect) -> Option<&Target> {
    match e {
        Effect::Damage { target, .. }
        | Effect::Destroy { target }
        | Effect::Banish { target }
        | Effect::ReturnToHand { target }
        | Effect::Buff { target, .. }
        | Effect::SetState { target, .. }
        | Effect::ShuffleInto { target }
        | Effect::ChangeInfo { target, .. }
        | Effect::Put {
            target: Some(target),
            ..
        } => Some(target),
        // An amount read from the board targets what its effect targets.
        Effect::AmountOf { effect, .. } => target_of(effect),
        _ => None,
    }
}

/// Whether an effect chooses targets in the first one's area.
pub fn linked(effects: &[Effect]) -> bool {
    effects.iter().any(|e| {
        matches!(target_of(e), Some(Target::Chosen { filter, .. })
            if filter.region.as_deref() == Some("same_area_as_first"))
    })
}

/// The chosen targets of one effect still legal on resolution (4.9.2-1):
/// each one still legal by itself and, under `same_area_as_first`, the
/// first one still legal and the others in its area (4.9.2-2).
pub fn legal_group(
    g: &Game,
    controller: PlayerId,
    source: &str,
    source_colours: &[&str],
    f: &Filter,
    ts: &[Tgt],
) -> Vec<CardId> {
    let legal = |t: &Tgt| still_legal(g, controller, source, source_colours, f, t);
    if f.region.as_deref() != Some("same_area_as_first") {
        return ts
            .iter()
            .filter(|t| legal(t))
            .map(|t| t.card.clone())
            .collect();
    }
    let Some(first) = ts.first().filter(|t| legal(t)) else {
        return Vec::new();
    };
    let area = |id: &str| {
        board::square_of(g, id)
            .and_then(board::square)
            .map(|s| board::coords(s).1)
    };
    let a = area(&first.card);
    ts.iter()
        .filter(|t| legal(t) && area(&t.card) == a)
        .map(|t| t.card.clone())
        .collect()
}

/// Whether a chosen target is still legal on resolution (4.9.2-1): the same
/// object (no zone change other than square to square) still meeting the
/// target condition.
pub fn still_legal(
    g: &Game,
    controller: PlayerId,
    source: &str,
    source_colours: &[&str],
    f: &Filter,
    t: &Tgt,
) -> bool {
    g.card(&t.card).is_some_and(|c| c.incarnation == t.inc)
        && matches(g, controller, source, source_colours, f, &t.card)
}

/// The clauses a filter's region rests on: an area is seen from the
/// ability's controller (2.24.7-2); a place measured from a card that has
/// left the squares is the one it was last on (4.2.6, 4.9.2-6).
pub fn region_rules(g: &Game, source: &str, f: &Filter) -> Vec<&'static str> {
    let Some(rg) = f.region.as_deref() else {
        return Vec::new();
    };
    if rg.ends_with("_area") && rg != "same_area" {
        return vec![super::r::AREA_TEXT_VIEW];
    }
    let mut v = vec![if rg == "same_line" {
        super::r::LINES
    } else {
        super::r::AREAS
    }];
    if board::square_of(g, source).is_none() && board::reference_square(g, source).is_some() {
        v.extend([super::r::ABILITY_LKI, super::r::LKI]);
    }
    v
}

/// Whether each player chooses cards of their own on the squares for the
/// effect (`put` with `who: both` and a `chosen` target: 「各プレイヤーは
/// 自分のユニットを１枚選び…」): not targets, chosen on resolution, AP
/// first (1.1.4).
pub fn each_player(e: &Effect) -> bool {
    matches!(
        e,
        Effect::Put {
            target: Some(Target::Chosen { filter, .. }),
            who: crate::engine::Who::Both,
            ..
        } if filter.zone.is_none()
    )
}

/// Whether the effect's cards are chosen without being targets (4.11.1:
/// no 「対象の」), so as it resolves, by one player: written `targets:
/// false`, or chosen in a hand ([`in_hand`]). Each player choosing their
/// own ([`each_player`]) is its own procedure.
pub fn untargeted(e: &Effect) -> bool {
    !each_player(e) && (in_hand(e) || target_of(e).is_some_and(Target::untargeted))
}

/// Refuses, before the run, a choice that is not a target where the
/// module treats the cards as targets: the two cards of a swap
/// (flow/swap.rs), damage divided among targets (4.7.2-6, flow/divide.rs)
/// and targets in the first one's area.
pub fn refuse(key: &str, divides: bool, e: &Effect) -> Result<(), EngineError> {
    let Some(t) = target_of(e).filter(|t| t.untargeted()) else {
        return Ok(());
    };
    let why = if super::swap::filters(e).is_some() {
        "the units a swap exchanges"
    } else if divides {
        "damage divided among the cards chosen"
    } else if t
        .chosen()
        .is_some_and(|(f, ..)| f.region.as_deref() == Some("same_area_as_first"))
    {
        "cards chosen in the first one's area"
    } else {
        return Ok(());
    };
    Err(super::ni(
        super::r::TARGETING,
        format!("card `{key}`: {why} chosen without being targets (`targets: false`)"),
    ))
}

/// The zones a card chosen with a hand may also be in (「手札かプランゾーン
/// にある」).
const WITH_HAND: &[&str] = &["hand", "plan"];

/// Whether the effect chooses cards in a hand (「自分の手札にあるカードを
/// ２枚選び」), or in a hand and the plan zone together: not a target
/// (4.11.1).
pub fn in_hand(e: &Effect) -> bool {
    matches!(target_of(e), Some(Target::Chosen { filter, .. })
        if filter.named_zones().any(|z| z == "hand")
            && filter.named_zones().all(|z| WITH_HAND.contains(&z)))
}

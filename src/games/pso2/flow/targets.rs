//! Targets (406.2.2): chosen when the card or ability is put in the
//! resolution zone (406.2.2.1), legal when chosen (406.2.3), and checked
//! again on resolution (406.4.1). An ability with no possible target is
//! not played or activated at all (406.2.2.2, 504.2).

use super::{Chosen, M, ctype, r, st, zn};
use crate::engine::{
    AbilityDef, CardId, Effect, EngineError, Filter, Game, Picked, PlayerId, Side, Target,
    TargetCount, texts,
};

/// An `all` or `random` selector naming the type `player` in the field:
/// the Player card is in its own zone, never on the field (400.2.1), so
/// the selector would quietly find nothing. Refused at load; players are
/// named by the target `player` with `who`.
pub fn player_card_on_field(ab: &AbilityDef) -> Option<String> {
    ab.effect
        .iter()
        .flat_map(super::x_amount::every)
        .find_map(|e| match e.target() {
            Some(Target::All { filter } | Target::Random { filter })
                if filter.types.iter().any(|t| t == super::types::PLAYER)
                    && filter.zone.as_deref().is_none_or(|z| z == zn::FIELD) =>
            {
                Some(format!(
                    "`{}` names cards of type `player` on the field, where no Player card ever is (it stays in zone `player`, 400.2.1): name players with the target {{\"select\": \"player\", \"who\": \"you\" | \"opponent\" | \"both\"}}",
                    e.word()
                ))
            }
            _ => None,
        })
}

/// The chosen-target selector of an ability's effects, if any: every
/// `chosen` target of one ability names the same chosen cards (「それ」).
/// A サーチ (a `chosen` selector of the deck, 301.2) and a card chosen
/// from the hand choose at resolution and are no target (406.2.2).
pub fn selector(effects: &[Effect]) -> Option<(Filter, u32, bool, bool)> {
    // A die's results (GL:ダイス) are part of the text: their targets are
    // chosen with the others.
    let die = effects.iter().flat_map(|e| match e {
        Effect::RollDie { results, .. } => results.iter().flat_map(|o| o.effect.iter()).collect(),
        _ => Vec::new(),
    });
    effects.iter().chain(die).find_map(|e| {
        // Targets chosen mid-text are chosen on resolution (406.2.2.3).
        if matches!(e, Effect::SelectTargets { .. }) {
            return None;
        }
        let (f, count, up_to, or_leader) = e.target()?.chosen()?;
        if super::put::hidden(f.zone.as_deref()) {
            return None;
        }
        Some((f.clone(), count, up_to, or_leader))
    })
}

/// Whether card `id` of `master`'s deck is one a サーチ with `filter`
/// finds (its side, type and state parts; the deck is always the
/// master's own, 301.2).
pub fn found_by(g: &Game, master: PlayerId, filter: &Filter, id: &str) -> bool {
    let mut f = filter.clone();
    f.side = Side::Any;
    g.card(id)
        .is_some_and(|c| c.zone.kind == zn::DECK && c.owner == master)
        && described(g, master, "", &f, id, false)
}

/// Whether card `id` matches `filter` for an ability of `master` whose
/// card is `source`, as a target (public zones only; not 選ばれない).
pub fn matches(
    g: &Game,
    master: PlayerId,
    source: &str,
    filter: &Filter,
    id: &str,
    or_leader: bool,
) -> bool {
    let Some(c) = g.card(id) else { return false };
    let zone = filter.zone.as_deref().unwrap_or(zn::FIELD);
    let in_zone = c.zone.kind == zone || (or_leader && c.zone.kind == zn::PLAYER);
    if !in_zone || c.has(st::UNTARGETABLE) {
        return false;
    }
    if matches!(c.zone.kind, zn::DECK | zn::HAND) {
        return false;
    }
    described(g, master, source, filter, id, or_leader)
}

/// The region word of a filter naming the card the ability's card is
/// attached to (付与先, GL:付与/付与先; for equipment, the chara it
/// equips, 205.4): an attach active's lasting effect on its host is a
/// `continuous` ability (204.2.2: 「重ねられるようにして場に出て継続的に
/// 影響を与える」) whose `all` selector names region `host`.
pub const HOST: &str = "host";

/// Whether card `id` is one `filter` describes for an ability of `master`
/// whose card is `source`, without choosing it (a continuous ability's
/// "all your charas": 選ばれない does not matter).
pub fn admits(g: &Game, master: PlayerId, source: &str, filter: &Filter, id: &str) -> bool {
    let zone = filter.zone.as_deref().unwrap_or(zn::FIELD);
    g.card(id).is_some_and(|c| c.zone.kind == zone)
        && described(g, master, source, filter, id, false)
}

/// The side, type, state, class and `other` parts of a filter.
fn described(
    g: &Game,
    master: PlayerId,
    source: &str,
    filter: &Filter,
    id: &str,
    or_leader: bool,
) -> bool {
    let Some(c) = g.card(id) else { return false };
    let side_ok = match filter.side {
        Side::Any => true,
        Side::You => {
            c.controller == master
                // RAID:S2: a 回復 may choose another party member's chara
                // (on the field; the cards it returns are its player's own).
                || (super::raid::on(g)
                    && c.zone.kind == zn::FIELD
                    && !super::raid::opposed(g, master, c.controller)
                    && g.def_of(source).is_some_and(|d| d.has_keyword("recover")))
        }
        // In the raid battle 相手 is the other side only (RAID:S9).
        Side::Opponent => super::raid::opposed(g, master, c.controller),
    };
    let t = ctype(g, id);
    let type_ok = filter.types.is_empty()
        || filter.types.iter().any(|x| x == t)
        || (or_leader && c.zone.kind == zn::PLAYER);
    let state_ok = filter.state.as_ref().is_none_or(|s| c.has(s));
    let region_ok = filter.region.as_deref().is_none_or(|w| {
        let attaching = super::state::read(g)
            .and_then(|s| s.attaching.as_ref())
            .is_some_and(|(c, h)| c.as_str() == source && h.as_str() == id);
        w == HOST
            && (attaching
                || g.card(source)
                    .and_then(|s| s.attached_to.as_deref())
                    .is_some_and(|h| h == id))
    });
    side_ok
        && type_ok
        && state_ok
        && region_ok
        && characteristics(g, filter, id)
        && !(filter.other && id == source)
}

/// The characteristic parts of a filter as PSO2 reads them. A `name` is
/// the name in the game: the title is not part of it (206.2), it matches
/// exactly (206.2.1), and a card "also named" matches too (206.3). A
/// `trait` is a class icon (208) or a 種別; a card of class ALL has every
/// class for equipping (208.1.2) but is not a "《X》 card" for an effect
/// (208.1.2.1). The cost is the current one (X counts in the resolution
/// zone only, 209.3.1; a card's own cost changes in every zone, 209.4.2).
fn characteristics(g: &Game, filter: &Filter, id: &str) -> bool {
    if filter.parts().is_empty() {
        return true;
    }
    let Some(d) = g.def_of(id) else { return false };
    let name_ok = filter
        .name
        .as_ref()
        .is_none_or(|n| super::super::names::is_named(d, n));
    let trait_ok = filter.with_trait.as_ref().is_none_or(|t| {
        alternatives(t).any(|t| {
            d.traits.iter().any(|x| x == t) || d.text.get("class").is_some_and(|c| c.trim() == t)
        })
    });
    let rest = Filter {
        name: None,
        with_trait: None,
        ..filter.clone()
    };
    let cost = super::cost::current(g, id);
    name_ok && trait_ok && rest.admits_characteristics(d, cost)
}

/// The class icons or 種別 a filter's `trait` names: 「《A》または《B》」
/// names the cards that are A or B (GL:または ※1); the 《》 brackets are
/// optional.
pub fn alternatives(t: &str) -> impl Iterator<Item = &str> {
    t.split("または").map(|x| {
        x.trim()
            .trim_start_matches('《')
            .trim_end_matches('》')
            .trim()
    })
}

/// 「“AまたはB”のどちらかの中から2つを選ぶ」 (keyword `either`, GL:または
/// ※1): the chosen cards must all meet the same one of the filter's
/// alternatives (its card types, or the classes of its `trait`); without
/// the keyword A and B may be mixed.
fn one_side_of_or(m: &M, source: &str, filter: &Filter, ids: &[CardId]) -> Result<(), EngineError> {
    if ids.len() < 2
        || !m
            .game
            .def_of(source)
            .is_some_and(|d| d.has_keyword("either"))
    {
        return Ok(());
    }
    let g = &m.game;
    let one_type = |t: &str| ids.iter().all(|id| ctype(g, id) == t);
    let one_trait = |t: &str| {
        let mut f = filter.clone();
        f.with_trait = Some(t.to_string());
        ids.iter().all(|id| characteristics(g, &f, id))
    };
    let same = if filter.types.len() > 1 {
        filter.types.iter().any(|t| one_type(t))
    } else {
        filter
            .with_trait
            .as_deref()
            .is_none_or(|t| alternatives(t).any(one_trait))
    };
    if same {
        return Ok(());
    }
    Err(super::illegal(
        r::GL_OR,
        format!(
            "{}: 「どちらかの中から」 — the cards chosen must all be of one of the alternatives, not a mix",
            ids.join(", ")
        ),
        Vec::new(),
    ))
}

/// Chooses the targets of an ability with effects `effects` when it is put
/// in the zone, from the choice `key` (through the core's shared
/// [`crate::engine::Choices::targets`]; a card on the board the text
/// cannot choose is rejected citing the PSO2 rule that bars it, [`barred_by`]).
/// `Ok(None)`: a target is required and none can be chosen (406.2.2.2).
pub fn choose(
    m: &mut M,
    master: PlayerId,
    source: &str,
    effects: &[Effect],
    key: &str,
    preset: Option<&str>,
) -> Result<Option<Vec<Chosen>>, EngineError> {
    if let Some([a, b]) = engage_sides(effects) {
        return choose_engaging(m, master, source, [a, b], key, preset);
    }
    let Some(sel) = selector(effects) else {
        return Ok(Some(Vec::new()));
    };
    choose_from(m, master, source, sel, key, preset)
}

/// A selector's parts, owned.
type Selector = (Filter, u32, bool, bool);

/// The two selectors of a 交戦する choosing both sides
/// (「自分のキャラ1体と相手のキャラ1体を選ぶ。それらは交戦する」), in
/// the order `target`, `with`.
pub fn engage_sides(effects: &[Effect]) -> Option<[Selector; 2]> {
    effects.iter().find_map(|e| match e {
        Effect::Engage { target, with } => {
            let own = |t: &crate::engine::Target| {
                t.chosen()
                    .map(|(f, n, up_to, leader)| (f.clone(), n, up_to, leader))
            };
            Some([own(target)?, own(with)?])
        }
        _ => None,
    })
}

/// Both sides of a 交戦する chosen as it is put in the zone (406.2.2.1):
/// the `target` side from `key` (or the action's `target`), then the
/// `with` side from `<key>.with`; the targets are kept in that order, one
/// card each. A side with no possible card means no target can be chosen
/// (406.2.2.2); a card cannot engage itself (GL:交戦する: two charas fight).
fn choose_engaging(
    m: &mut M,
    master: PlayerId,
    source: &str,
    [a, b]: [Selector; 2],
    key: &str,
    preset: Option<&str>,
) -> Result<Option<Vec<Chosen>>, EngineError> {
    let Some(mut first) = choose_from(m, master, source, a, key, preset)? else {
        return Ok(None);
    };
    let Some(second) = choose_from(m, master, source, b, &format!("{key}.with"), None)? else {
        return Ok(None);
    };
    if let Some(same) = second.iter().find(|c| first.iter().any(|f| f.id == c.id)) {
        return Err(super::illegal(
            r::GL_ENGAGE,
            format!(
                "{} is chosen on both sides of 交戦する: two different charas engage",
                same.id
            ),
            Vec::new(),
        ));
    }
    first.extend(second);
    Ok(Some(first))
}

/// GL:まで: 「X枚まで」 lets the player choose any number from 0 to X; the
/// trace says so when fewer than X were chosen.
fn fewer_than_up_to(m: &mut M, key: &str, count: u32, up_to: bool, chosen: usize) {
    if up_to && chosen < count as usize {
        m.record(
            "targets",
            format!("`{key}`: up to {count} may be chosen (0 to {count}); {chosen} chosen"),
            &[r::GL_UP_TO],
        );
    }
}

/// [`choose`] for one selector `(filter, count, up_to, or_leader)`.
pub fn choose_from(
    m: &mut M,
    master: PlayerId,
    source: &str,
    (filter, count, up_to, or_leader): (Filter, u32, bool, bool),
    key: &str,
    preset: Option<&str>,
) -> Result<Option<Vec<Chosen>>, EngineError> {
    let legal: Vec<CardId> = m
        .game
        .cards
        .keys()
        .filter(|id| matches(&m.game, master, source, &filter, id, or_leader))
        .filter(|id| super::put::recoverable(&m.game, source, id))
        .cloned()
        .collect();
    if legal.is_empty() && !up_to {
        return Ok(None);
    }
    let game = &m.game;
    let why = |t: &str| {
        game.card(t)?;
        Some(barred_by(game, master, source, &filter, or_leader, t))
    };
    let ids = match preset {
        Some(t) => {
            let t = leader_of(game, master, &legal, t);
            if !legal.contains(&t) {
                let (rule, reason) = barred_by(game, master, source, &filter, or_leader, &t);
                return Err(super::illegal(
                    rule,
                    format!("{t} is not a legal target of {source} ({reason})"),
                    texts(&legal),
                ));
            }
            vec![t]
        }
        None => {
            let wanted = if up_to {
                TargetCount::UpTo(count as usize)
            } else {
                TargetCount::Exactly((count as usize).min(legal.len()))
            };
            let wanted = if legal.is_empty() {
                TargetCount::Exactly(0)
            } else {
                wanted
            };
            match m.choices.targets(key, &legal, wanted, why)? {
                Picked::Given(ids) => ids,
                Picked::Only(ids) => {
                    if !ids.is_empty() {
                        m.record(
                            "targets",
                            format!(
                                "`{key}`: the only legal choice {} is chosen",
                                ids.join(", ")
                            ),
                            &[r::TARGET_LEGAL],
                        )
                        .note("a choice with exactly one possible answer is made by the engine");
                    }
                    ids
                }
            }
        }
    };
    fewer_than_up_to(m, key, count, up_to, ids.len());
    one_side_of_or(m, source, &filter, &ids)?;
    also_named(m, &filter, &ids, key);
    if filter.cost_at_most.is_some() || filter.cost_at_least.is_some() {
        let costless: Vec<CardId> = ids
            .iter()
            .filter(|id| super::raid::costless_boss_card(&m.game, id))
            .cloned()
            .collect();
        for id in costless {
            m.record(
                "raid",
                format!("{id} is a Boss card printing no cost: it is a cost-0 card for `{key}`"),
                &[r::RAID_BOSS_COST_ZERO],
            );
        }
    }
    Ok(Some(
        ids.into_iter()
            .map(|id| {
                let generation = m.game.card(&id).map_or(0, |c| c.incarnation);
                Chosen { id, generation }
            })
            .collect(),
    ))
}

/// Traces each chosen card that a name reference 「X」 admits only as a
/// name it is also treated as (206.3, text `also_named`).
fn also_named(m: &mut M, filter: &Filter, ids: &[CardId], key: &str) {
    let Some(name) = filter.name.as_deref() else {
        return;
    };
    for id in ids {
        let Some(d) = m.game.def_of(id) else { continue };
        let printed = super::super::names::game_name(d);
        if !super::super::names::is_named(&without_also(d), name) {
            m.record(
                "targets",
                format!(
                    "`{key}`: {id} ({printed}) is treated as 「{}」 too: the reference names it",
                    name.trim_matches(['「', '」'])
                ),
                &[r::NAME_ALSO, r::NAME_IN_GAME],
            );
        }
    }
}

/// A definition without the names it is also treated as.
fn without_also(d: &crate::engine::CardDef) -> crate::engine::CardDef {
    let mut d = d.clone();
    d.text.remove("also_named");
    d
}

/// A preset target `leader` names a player: their Player card represents
/// them (101.2), the opponent's first.
fn leader_of(g: &Game, master: PlayerId, legal: &[CardId], t: &str) -> CardId {
    if t != "leader" {
        return t.into();
    }
    let player_card = |o: &&CardId, theirs: bool| {
        g.card(o)
            .is_some_and(|c| c.zone.kind == zn::PLAYER && (!theirs || c.controller != master))
    };
    legal
        .iter()
        .find(|o| player_card(o, true))
        .or_else(|| legal.iter().find(|o| player_card(o, false)))
        .cloned()
        .unwrap_or_else(|| t.into())
}

/// The PSO2 rule that bars card `t` from being a target of `source`, with
/// the reason.
fn barred_by(
    g: &Game,
    master: PlayerId,
    source: &str,
    filter: &Filter,
    or_leader: bool,
    t: &str,
) -> (&'static str, String) {
    let recovering = g.def_of(source).is_some_and(|d| d.has_keyword("recover"));
    if recovering && matches(g, master, source, filter, t, or_leader) {
        // 302.9: 回復X returns only cards without 回復.
        return (
            r::RECOVER,
            "it has 回復: 回復X chooses only cards without 回復".into(),
        );
    }
    let all_class = filter.with_trait.is_some()
        && g.def_of(t)
            .and_then(|d| d.text.get("class"))
            .is_some_and(|c| c.trim() == "ALL");
    if all_class {
        // 208.1.2.1: ALL is no "《X》" for an effect's choice.
        return (
            r::CLASS_ALL_NOT_CHOSEN,
            "a card of class ALL is no 《X》 card for an effect".into(),
        );
    }
    if recovering && g.card(t).is_some_and(|c| c.zone.kind == zn::DISCARD) {
        // 302.9: 回復X returns cards from its player's own discard.
        return (
            r::RECOVER,
            "回復X returns cards from its player's own discard".into(),
        );
    }
    if super::raid::on(g)
        && g.card(t).is_some_and(|c| {
            c.controller != master && !super::raid::opposed(g, master, c.controller)
        })
    {
        // Another party member's card in a raid is no 相手 (RAID:S9).
        return (
            r::RAID_NOT_ALLY,
            "another party member's card is no opponent's card".into(),
        );
    }
    if g.card(t).is_some_and(|c| c.has(st::UNTARGETABLE)) {
        // GL:選ぶ: a card in the 選ばれない state cannot be chosen.
        return (r::GL_CHOOSE, "it is 選ばれない: it cannot be chosen".into());
    }
    (r::TARGET_LEGAL, "the text cannot choose it".into())
}

/// Whether a chosen target, the `index`th, is still legal on resolution
/// (406.4.1): the same object (400.6), still matching what it was chosen
/// as.
pub fn still_legal(
    g: &Game,
    master: PlayerId,
    source: &str,
    effects: &[Effect],
    index: usize,
    t: &Chosen,
) -> bool {
    let alive = g.card(&t.id).is_some_and(|c| c.incarnation == t.generation);
    if let Some(sides) = engage_sides(effects) {
        // The description of the side it was chosen for (one card each).
        let (f, _, _, leader) = &sides[index.min(1)];
        return alive && matches(g, master, source, f, &t.id, *leader);
    }
    let Some((filter, _, _, or_leader)) = selector(effects) else {
        return true;
    };
    alive && matches(g, master, source, &filter, &t.id, or_leader)
}

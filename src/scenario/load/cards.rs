//! The `cards` and `card_pool` sections: card definitions, pools first and
//! inline definitions winning, each validated against the game's declared
//! vocabulary.

use std::collections::BTreeMap;
use std::path::Path;

use miette::SourceSpan;

use super::numbers::check_number_ranges;
use super::{Ctx, ScenarioError, json_offset, k, one_of};
use crate::engine::{CardDef, Effect};
use crate::games::GameModule;
use crate::scenario::Scenario;
use crate::scenario::locate::Seg;

/// Every card definition the scenario can use, by key, with the anonymous
/// card `?` of counted zones.
pub(super) fn load_defs(
    cx: &Ctx,
    module: &dyn GameModule,
    scenario: &Scenario,
    base: Option<&Path>,
) -> Result<BTreeMap<String, CardDef>, ScenarioError> {
    let mut defs: BTreeMap<String, CardDef> = BTreeMap::new();
    for (i, pool) in scenario.card_pool.iter().enumerate() {
        let p = base.map(|b| b.join(pool)).unwrap_or_else(|| pool.into());
        let text = crate::bundle::read_user_text(&p).map_err(|e| {
            cx.err(
                &[k("card_pool"), Seg::Index(i)],
                format!("cannot read card pool `{}`: {e}", p.display()),
                None,
            )
        })?;
        let pfile = p.display().to_string();
        let blanked = super::comments::blank(&text);
        let de = &mut serde_json::Deserializer::from_str(&blanked);
        let pool_defs: BTreeMap<String, CardDef> =
            serde_path_to_error::deserialize(de).map_err(|e| {
                let path = e.path().to_string();
                let inner = e.into_inner();
                let off = json_offset(&text, inner.line(), inner.column());
                if !text.trim_start().starts_with('{') {
                    // Not JSON at all (a path to the wrong file): say so
                    // without echoing the file's lines.
                    return ScenarioError::plain(
                        &pfile,
                        "is not a card pool: a card pool is a JSON object of card definitions by key",
                    );
                }
                let (named, sp) = crate::error::diagnostic_source(
                    &pfile,
                    &text,
                    SourceSpan::new(off.into(), 1),
                );
                ScenarioError {
                    file: pfile.clone(),
                    message: format!("invalid card pool at `{path}`"),
                    path: Some(path),
                    src: named.with_language("json"),
                    span: Some(sp),
                    label: inner.to_string(),
                    help: Some("a card pool is a JSON object of card definitions by key".into()),
                }
            })?;
        check_number_ranges(
            &Ctx {
                file: &pfile,
                src: &text,
            },
            &text,
        )?;
        defs.extend(pool_defs);
    }
    defs.extend(scenario.cards.clone());
    for (key, d) in &scenario.cards {
        validate_def(cx, module, &[k("cards"), k(key)], d, &defs)?;
    }
    defs.entry("?".into()).or_insert_with(|| CardDef {
        name: "(anonymous card)".into(),
        card_type: "unknown".into(),
        cost: None,
        attack: None,
        defense: None,
        stats: BTreeMap::new(),
        keywords: Vec::new(),
        traits: Vec::new(),
        text: BTreeMap::new(),
        abilities: Vec::new(),
        alternate: None,
    });
    Ok(defs)
}

/// The numbers of a card definition an `amount_of` may read besides the
/// game's stats.
const AMOUNT_STATS: &[&str] = &["attack", "defense", "cost"];

fn validate_def(
    cx: &Ctx,
    module: &dyn GameModule,
    path: &[Seg],
    d: &CardDef,
    defs: &BTreeMap<String, CardDef>,
) -> Result<(), ScenarioError> {
    let at = |rest: &[Seg]| [path, rest].concat();
    if !module.card_types().contains(&d.card_type.as_str()) {
        return Err(cx.err(
            &at(&[k("type")]),
            format!("unknown card type `{}`", d.card_type),
            one_of("types", module.card_types()),
        ));
    }
    for (i, kw) in d.keywords.iter().enumerate() {
        if !module.keywords().contains(&kw.as_str()) {
            return Err(cx.err(
                &at(&[k("keywords"), Seg::Index(i)]),
                format!("unknown keyword `{kw}`"),
                one_of("keywords", module.keywords()),
            ));
        }
    }
    for s in d.stats.keys() {
        if !module.stats().contains(&s.as_str()) {
            return Err(cx.err(
                &at(&[k("stats"), k(s)]),
                format!("unknown stat `{s}`"),
                one_of("stats", module.stats()),
            ));
        }
    }
    for s in d.text.keys() {
        if !module.text_fields().contains(&s.as_str()) {
            return Err(cx.err(
                &at(&[k("text"), k(s)]),
                format!("unknown text field `{s}`"),
                if module.text_fields().is_empty() {
                    Some("this game declares no text fields".into())
                } else {
                    one_of("text fields", module.text_fields())
                },
            ));
        }
    }
    // The alternate face is checked as the card showing it.
    if let Some(face) = &d.alternate {
        validate_def(cx, module, &at(&[k("alternate")]), &d.showing(face), defs)?;
    }
    if let Some(r) = crate::scenario::vocabulary::refusal(module, d) {
        return Err(cx.err(&at(&r.path), r.message, Some(r.help)));
    }
    for (i, ab) in d.abilities.iter().enumerate() {
        let ap = at(&[k("abilities"), Seg::Index(i)]);
        if let Some(why) = module.ability_refusal(d, ab) {
            return Err(cx.err(&ap, why, None));
        }
        if !module.triggers().contains(&ab.trigger.as_str()) {
            return Err(cx.err(
                &[ap.as_slice(), &[k("trigger")]].concat(),
                format!("unknown trigger `{}`", ab.trigger),
                one_of("triggers", module.triggers()),
            ));
        }
        if !ab.cost.is_empty() && !module.cost_triggers().contains(&ab.trigger.as_str()) {
            return Err(cx.err(
                &[ap.as_slice(), &[k("cost")]].concat(),
                format!(
                    "a `cost` is not supported on a `{}` ability for {} yet",
                    ab.trigger,
                    module.id()
                ),
                Some(if module.cost_triggers().is_empty() {
                    "this game implements no ability costs".to_string()
                } else {
                    format!("a cost is written on {}", module.cost_triggers().join(", "))
                }),
            ));
        }
        let costs = module.cost_effects();
        if let Some((j, e)) = ab
            .cost
            .iter()
            .enumerate()
            .find(|(_, e)| !costs.admits(e.word()))
        {
            return Err(cx.err(
                &[ap.as_slice(), &[k("cost"), Seg::Index(j), k("do")]].concat(),
                format!(
                    "`{}` is not a cost {} implements (clause {})",
                    e.word(),
                    module.id(),
                    costs.rule
                ),
                one_of("costs", &costs.list(Effect::WORDS)),
            ));
        }
        if let Some(n) = ab.per_turn {
            let on = module.per_turn_triggers();
            let why = if n == 0 {
                Some(("`per_turn` is at least 1".to_string(), None))
            } else if !on.contains(&ab.trigger.as_str()) {
                Some((
                    format!(
                        "`per_turn` is not implemented on a `{}` ability for {}",
                        ab.trigger,
                        module.id()
                    ),
                    Some(if on.is_empty() {
                        "this game implements no \"N times per turn\" limit".to_string()
                    } else {
                        format!("`per_turn` is written on {}", on.join(", "))
                    }),
                ))
            } else {
                None
            };
            if let Some((message, help)) = why {
                return Err(cx.err(&[ap.as_slice(), &[k("per_turn")]].concat(), message, help));
            }
        }
        if ab.of.is_some() && !module.watch_triggers().contains(&ab.trigger.as_str()) {
            let on = module.watch_triggers();
            return Err(cx.err(
                &[ap.as_slice(), &[k("of")]].concat(),
                format!(
                    "`of` (a trigger on other cards) is not implemented on a `{}` ability for {}",
                    ab.trigger,
                    module.id()
                ),
                Some(if on.is_empty() {
                    "this game implements no trigger on other cards".to_string()
                } else {
                    format!("`of` is written on {}", on.join(", "))
                }),
            ));
        }
        if let Some(count) = ab.condition.as_ref().and_then(|c| c.count.as_deref())
            && !module.condition_counts().is_empty()
            && !module.condition_counts().contains(&count)
        {
            return Err(cx.err(
                &[ap.as_slice(), &[k("condition"), k("count")]].concat(),
                format!("unknown count `{count}`"),
                one_of("counts", module.condition_counts()),
            ));
        }
        for (j, e) in ab.effect.iter().enumerate() {
            let ep = [ap.as_slice(), &[k("effect"), Seg::Index(j)]].concat();
            match e {
                Effect::ChangeValue { value, .. }
                    if !module.values().iter().any(|v| v.name == value) =>
                {
                    let names: Vec<&str> = module.values().iter().map(|v| v.name).collect();
                    return Err(cx.err(
                        &[ep.as_slice(), &[k("value")]].concat(),
                        format!("unknown value `{value}`"),
                        one_of("values", &names),
                    ));
                }
                Effect::SetState { state, .. }
                    if !module.card_states().contains(&state.as_str()) =>
                {
                    return Err(cx.err(
                        &[ep.as_slice(), &[k("state")]].concat(),
                        format!("unknown card state `{state}`"),
                        one_of("states", module.card_states()),
                    ));
                }
                Effect::Restrict { types, .. }
                    if types
                        .iter()
                        .any(|t| !module.card_types().contains(&t.as_str())) =>
                {
                    return Err(cx.err(
                        &[ep.as_slice(), &[k("types")]].concat(),
                        format!("unknown card type in `types`: {}", types.join(", ")),
                        one_of("types", module.card_types()),
                    ));
                }
                Effect::Summon { card, .. } if !defs.contains_key(card) => {
                    return Err(cx.err(
                        &[ep.as_slice(), &[k("card")]].concat(),
                        format!("unknown card `{card}`"),
                        Some("the token's definition must be in `cards`".into()),
                    ));
                }
                Effect::Become { card, .. } if !defs.contains_key(card) => {
                    return Err(cx.err(
                        &[ep.as_slice(), &[k("card")]].concat(),
                        format!("unknown card `{card}`"),
                        Some(
                            "the description the card is treated as having must be in `cards`"
                                .into(),
                        ),
                    ));
                }
                // Damage follows the game's scale (DZ deals 4000 damage);
                // the general bound of every number keeps it from overflow.
                Effect::Damage { amount, .. }
                    if !(-super::numbers::MAX_MAGNITUDE..=super::numbers::MAX_MAGNITUDE)
                        .contains(amount) =>
                {
                    return Err(cx.err(
                        &[ep.as_slice(), &[k("amount")]].concat(),
                        format!("value out of range: amount = {amount}"),
                        Some(format!(
                            "between -{0} and {0}",
                            super::numbers::MAX_MAGNITUDE
                        )),
                    ));
                }
                Effect::Draw { amount, .. } if !(-1000..=1000).contains(amount) => {
                    return Err(cx.err(
                        &[ep.as_slice(), &[k("amount")]].concat(),
                        format!("value out of range: amount = {amount}"),
                        Some("between -1000 and 1000".into()),
                    ));
                }
                Effect::Put { to, .. }
                    if !module.zones().iter().any(|s| s.name == to)
                        && !module.regions().contains(&to.as_str()) =>
                {
                    let names: Vec<&str> = module.zones().iter().map(|z| z.name).collect();
                    return Err(cx.err(
                        &[ep.as_slice(), &[k("to")]].concat(),
                        format!("unknown zone `{to}`"),
                        one_of("zones", &names),
                    ));
                }
                Effect::Put { top: Some(n), .. } if !(0..=100).contains(n) => {
                    return Err(cx.err(
                        &[ep.as_slice(), &[k("top")]].concat(),
                        format!("value out of range: top = {n}"),
                        Some("between 0 and 100".into()),
                    ));
                }
                // An amount read from the board reads a characteristic the
                // game's cards have: one of its stats or a core number.
                Effect::AmountOf { stat, .. } | Effect::AmountOfChosen { stat, .. }
                    if !module.stats().contains(&stat.as_str())
                        && !AMOUNT_STATS.contains(&stat.as_str()) =>
                {
                    let mut names = AMOUNT_STATS.to_vec();
                    names.extend(module.stats());
                    return Err(cx.err(
                        &[ep.as_slice(), &[k("stat")]].concat(),
                        format!("unknown stat `{stat}`"),
                        one_of("stats", &names),
                    ));
                }
                Effect::Summon { count, .. } if !(0..=100).contains(count) => {
                    return Err(cx.err(
                        &[ep.as_slice(), &[k("count")]].concat(),
                        format!("value out of range: count = {count}"),
                        Some("between 0 and 100".into()),
                    ));
                }
                _ => {}
            }
            // A search's zones (`to`, `from`) are zones of the game.
            if let Effect::Search { to, from, .. } = e {
                for (field, z) in [("to", Some(to)), ("from", from.as_ref())] {
                    if let Some(z) = z
                        && !module.zones().iter().any(|s| s.name == z)
                    {
                        let names: Vec<&str> = module.zones().iter().map(|z| z.name).collect();
                        return Err(cx.err(
                            &[ep.as_slice(), &[k(field)]].concat(),
                            format!("unknown zone `{z}`"),
                            one_of("zones", &names),
                        ));
                    }
                }
            }
            for (field, filter) in e.filters() {
                let tp = [ep.as_slice(), &[k(field)]].concat();
                for t in &filter.types {
                    if !module.card_types().contains(&t.as_str()) {
                        return Err(cx.err(
                            &tp,
                            format!("unknown card type `{t}`"),
                            one_of("types", module.card_types()),
                        ));
                    }
                }
                if let Some(z) = filter
                    .named_zones()
                    .find(|z| !module.zones().iter().any(|s| s.name == *z))
                {
                    let names: Vec<&str> = module.zones().iter().map(|z| z.name).collect();
                    return Err(cx.err(
                        &tp,
                        format!("unknown zone `{z}`"),
                        one_of("zones", &names),
                    ));
                }
                if let Some(s) = &filter.state
                    && !module.card_states().contains(&s.as_str())
                {
                    return Err(cx.err(
                        &tp,
                        format!("unknown card state `{s}`"),
                        one_of("states", module.card_states()),
                    ));
                }
                if let Some(rg) = &filter.region
                    && !module.regions().contains(&rg.as_str())
                {
                    return Err(cx.err(
                        &[tp.as_slice(), &[k("region")]].concat(),
                        format!("unknown region `{rg}`"),
                        if module.regions().is_empty() {
                            Some(format!("{} names no board regions", module.id()))
                        } else {
                            one_of("regions", module.regions())
                        },
                    ));
                }
                if let Some(kw) = &filter.keyword
                    && !module.keywords().contains(&kw.as_str())
                {
                    return Err(cx.err(
                        &[tp.as_slice(), &[k("keyword")]].concat(),
                        format!("unknown keyword `{kw}`"),
                        one_of("keywords", module.keywords()),
                    ));
                }
                if let (Some(most), Some(least)) = (filter.cost_at_most, filter.cost_at_least)
                    && least > most
                {
                    return Err(cx.err(
                        &[tp.as_slice(), &[k("cost_at_least")]].concat(),
                        format!("no card has a cost of at least {least} and at most {most}"),
                        Some("`cost_at_least` must not exceed `cost_at_most`".into()),
                    ));
                }
            }
        }
    }
    Ok(())
}

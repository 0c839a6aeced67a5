//! The effect-language check of card definitions against the game's
//! declared [`Vocabulary`]: an effect, target selector, duration or
//! condition part the game does not implement is refused at load, where
//! the file writes it, citing the game's clause. No game's engine code then
//! refuses another game's effects by hand.

use super::locate::Seg;
use crate::engine::{
    AbilityDef, CardDef, Condition, Declared, Effect, Filter, Target, Until, Vocabulary,
};
use crate::games::GameModule;

/// Why a definition cannot be loaded: where (below the definition), what,
/// and what the game supports instead.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    /// The JSON path below the card definition.
    pub path: Vec<Seg>,
    /// "`take_control` is not supported for sve yet (clause 9.1)".
    pub message: String,
    /// The words the game supports.
    pub help: String,
}

fn key(s: &str) -> Seg {
    Seg::Key(s.into())
}

/// The first part of `d`'s abilities outside `module`'s vocabulary.
pub fn refusal(module: &dyn GameModule, d: &CardDef) -> Option<Refusal> {
    let v = module.vocabulary();
    d.abilities.iter().enumerate().find_map(|(i, ab)| {
        let path = vec![key("abilities"), Seg::Index(i)];
        ability(module.id(), v, path, ab)
    })
}

/// The first part of `f` outside the game's filter words, refused at `at`
/// as `what` filter ("a target", "a card").
fn filter(game: &str, v: &Vocabulary, at: Vec<Seg>, what: &str, f: &Filter) -> Option<Refusal> {
    let part = f.parts().into_iter().find(|p| !v.filters.admits(p))?;
    Some(refuse(
        game,
        at,
        format!("{what} filter on `{part}`"),
        &v.filters,
        Filter::WORDS,
    ))
}

/// The first part of condition `c` (at `cp`) the game does not implement.
fn condition(game: &str, v: &Vocabulary, cp: Vec<Seg>, c: &Condition) -> Option<Refusal> {
    if v.conditions.list(Condition::WORDS).is_empty() {
        return Some(refuse(
            game,
            cp,
            "a condition of application".into(),
            &v.conditions,
            Condition::WORDS,
        ));
    }
    if let Some(part) = c.parts().into_iter().find(|p| !v.conditions.admits(p)) {
        return Some(refuse(
            game,
            [cp.as_slice(), &[key(part)]].concat(),
            format!("a condition on `{part}`"),
            &v.conditions,
            Condition::WORDS,
        ));
    }
    c.cards.as_ref().and_then(|f| {
        filter(
            game,
            v,
            [cp.as_slice(), &[key("cards")]].concat(),
            "a card",
            f,
        )
    })
}

fn ability(game: &str, v: &Vocabulary, path: Vec<Seg>, ab: &AbilityDef) -> Option<Refusal> {
    if let Some(c) = &ab.condition {
        let cp = [path.as_slice(), &[key("condition")]].concat();
        if let Some(r) = condition(game, v, cp, c) {
            return Some(r);
        }
    }
    let ep = [path.as_slice(), &[key("effect")]].concat();
    effects(game, v, &ep, &ab.effect)
}

fn effects(game: &str, v: &Vocabulary, path: &[Seg], list: &[Effect]) -> Option<Refusal> {
    list.iter().enumerate().find_map(|(j, e)| {
        let ep = [path, &[Seg::Index(j)]].concat();
        effect(game, v, ep, e)
    })
}

fn effect(game: &str, v: &Vocabulary, ep: Vec<Seg>, e: &Effect) -> Option<Refusal> {
    let at = |k: &str| [ep.as_slice(), &[key(k)]].concat();
    if !v.effects.admits(e.word()) {
        return Some(refuse(
            game,
            at("do"),
            format!("`{}`", e.word()),
            &v.effects,
            Effect::WORDS,
        ));
    }
    if let Some(t) = e.target()
        && !v.targets.admits(t.word())
    {
        return Some(refuse(
            game,
            [at("target").as_slice(), &[key("select")]].concat(),
            format!("the target `{}`", t.word()),
            &v.targets,
            Target::WORDS,
        ));
    }
    if let Some(r) = untargeted(game, v, &at, e) {
        return Some(r);
    }
    if let Some(r) = e
        .filters()
        .into_iter()
        .find_map(|(field, f)| filter(game, v, at(field), "a target", f))
    {
        return Some(r);
    }
    if let Some(u) = e.until()
        && !v.durations.admits(u.word())
    {
        return Some(refuse(
            game,
            at("until"),
            format!("the duration `{}`", u.word()),
            &v.durations,
            Until::WORDS,
        ));
    }
    if let Some(r) = choose_instead(game, v, &at, e) {
        return Some(r);
    }
    if let Effect::Choose { options, .. } = e
        && let Some(r) = options.iter().enumerate().find_map(|(i, o)| {
            effects(
                game,
                v,
                &[at("options").as_slice(), &[Seg::Index(i)]].concat(),
                o,
            )
        })
    {
        return Some(r);
    }
    if let Effect::RollDie { results, .. } = e
        && let Some(r) = results.iter().enumerate().find_map(|(i, o)| {
            effects(
                game,
                v,
                &[
                    at("results").as_slice(),
                    &[Seg::Index(i), Seg::Key("effect".into())],
                ]
                .concat(),
                &o.effect,
            )
        })
    {
        return Some(r);
    }
    if let Effect::SelectTargets { then, .. } | Effect::AtEndOfTurn { then } = e
        && let Some(r) = effects(game, v, &at("then"), then)
    {
        return Some(r);
    }
    // The one effect an amount wraps is written under `effect`.
    if let Effect::ForEach { effect: inner, .. }
    | Effect::AmountOf { effect: inner, .. }
    | Effect::AmountOfChosen { effect: inner, .. }
    | Effect::WithX { effect: inner } = e
    {
        return self::effect(game, v, at("effect"), inner);
    }
    effects(game, v, &at("otherwise"), e.nested())
}

/// A `choose` whose number of options a condition decides (`instead`):
/// refused in a game that does not declare it
/// (`GameSpec::choose_count_conditions`), and its condition checked as an
/// ability's is.
fn choose_instead(
    game: &str,
    v: &Vocabulary,
    at: &dyn Fn(&str) -> Vec<Seg>,
    e: &Effect,
) -> Option<Refusal> {
    let Effect::Choose {
        instead: Some(inst),
        ..
    } = e
    else {
        return None;
    };
    let module = crate::games::module(game)?;
    if !module.spec().choose_count_conditions {
        return Some(Refusal {
            path: at("instead"),
            message: format!(
                "a number of options decided by a condition (`instead`) is not supported for {game} yet (clause {})",
                v.effects.rule
            ),
            help: format!("{game} picks the `count` options written"),
        });
    }
    let cp = [at("instead").as_slice(), &[key("condition")]].concat();
    if let Some(count) = inst.condition.count.as_deref()
        && !module.condition_counts().contains(&count)
    {
        return Some(Refusal {
            path: [cp.as_slice(), &[key("count")]].concat(),
            message: format!("unknown count `{count}`"),
            help: format!("counts: {}", module.condition_counts().join(", ")),
        });
    }
    condition(game, v, cp, &inst.condition)
}

/// A `chosen` selector written `targets: false` (cards chosen without
/// being targets) in a game that does not declare such choices
/// (`GameSpec::untargeted_choices`): its engine would treat them as targets.
fn untargeted(
    game: &str,
    v: &Vocabulary,
    at: &dyn Fn(&str) -> Vec<Seg>,
    e: &Effect,
) -> Option<Refusal> {
    let declared = |g: &str| crate::games::module(g).is_some_and(|m| m.spec().untargeted_choices);
    if !e.target().is_some_and(Target::untargeted) || declared(game) {
        return None;
    }
    Some(Refusal {
        path: [at("target").as_slice(), &[key("targets")]].concat(),
        message: format!(
            "a choice that is not a target (`targets: false`) is not supported for {game} yet (clause {})",
            v.targets.rule
        ),
        help: format!("{game} chooses every `chosen` card as a target"),
    })
}

fn refuse(
    game: &str,
    path: Vec<Seg>,
    what: String,
    d: &Declared,
    language: &[&'static str],
) -> Refusal {
    let words = d.list(language);
    Refusal {
        path,
        message: format!("{what} is not supported for {game} yet (clause {})", d.rule),
        help: if words.is_empty() {
            format!("{game} supports none yet")
        } else {
            format!("{game} supports: {}", words.join(", "))
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::{MODULES, module};
    use crate::scenario::load_str;

    /// A one-card scenario of `game` whose card has `ability`.
    fn load(game: &str, ty: &str, ability: &str) -> Result<(), (String, Option<String>)> {
        let src = format!(
            r#"{{"game": "{game}", "name": "t", "source": "t",
            "cards": {{"a": {{"name": "A", "type": "{ty}", "abilities": [ {ability} ] }} }},
            "state": {{"turn": {{"player": "p1", "phase": "main", "number": 1}}, "players": {{}} }},
            "actions": []}}"#
        );
        load_str("t.json", &src, None)
            .map(|_| ())
            .map_err(|e| (e.message, e.path))
    }

    #[test]
    fn a_choice_that_is_not_a_target_is_refused_by_a_game_that_does_not_declare_it() {
        let ability = r#"{ "trigger": "spell", "effect": [ { "do": "destroy", "target": { "select": "chosen", "targets": false } } ] }"#;
        let (msg, path) = load("sve", "spell", ability).unwrap_err();
        assert!(
            msg.starts_with(
                "a choice that is not a target (`targets: false`) is not supported for sve yet"
            ),
            "{msg}"
        );
        assert_eq!(
            path.as_deref(),
            Some("cards.a.abilities[0].effect[0].target.targets")
        );
        load("dz", "strategy", ability).expect("dz declares choices that are not targets");
    }

    #[test]
    fn a_choose_count_decided_by_a_condition_is_refused_by_a_game_that_does_not_declare_it() {
        let ability = |cond: &str| {
            format!(
                r#"{{ "trigger": "spell", "effect": [ {{ "do": "choose", "options": [ [ {{ "do": "draw", "amount": 1 }} ], [ {{ "do": "draw", "amount": 2 }} ] ], "instead": {{ "count": 2, "condition": {cond} }} }} ] }}"#
            )
        };
        let zone = ability(r#"{ "zone": "cemetery", "at_least": 5 }"#);
        let (msg, path) = load("dz", "strategy", &zone).unwrap_err();
        assert!(
            msg.starts_with(
                "a number of options decided by a condition (`instead`) is not supported for dz yet"
            ),
            "{msg}"
        );
        assert_eq!(
            path.as_deref(),
            Some("cards.a.abilities[0].effect[0].instead")
        );
        load("sve", "spell", &zone).expect("sve declares it");
        let (msg, path) = load(
            "sve",
            "spell",
            &ability(r#"{ "count": "bogus", "at_least": 1 }"#),
        )
        .unwrap_err();
        assert!(msg.starts_with("unknown count `bogus`"), "{msg}");
        assert_eq!(
            path.as_deref(),
            Some("cards.a.abilities[0].effect[0].instead.condition.count")
        );
    }

    #[test]
    fn an_effect_the_game_does_not_declare_is_refused_where_it_is_written() {
        let (msg, path) = load(
            "sve",
            "spell",
            r#"{ "trigger": "spell", "effect": [ { "do": "draw", "amount": 1 }, { "do": "nullify_damage" } ] }"#,
        )
        .unwrap_err();
        assert!(
            msg.starts_with("`nullify_damage` is not supported for sve yet (clause 5.1.1)"),
            "{msg}"
        );
        assert_eq!(path.as_deref(), Some("cards.a.abilities[0].effect[1].do"));
        // The same effect is fine where the game declares it.
        load(
            "pmv",
            "command",
            r#"{ "trigger": "effect", "effect": [ { "do": "nullify_damage" } ] }"#,
        )
        .unwrap();
    }

    #[test]
    fn durations_conditions_and_nested_effects_are_checked() {
        let (msg, path) = load(
            "sve",
            "spell",
            r#"{ "trigger": "spell", "effect": [ { "do": "buff", "attack": 1, "target": { "select": "this" }, "until": "this_interference" } ] }"#,
        )
        .unwrap_err();
        assert!(msg.contains("the duration `this_interference`"), "{msg}");
        assert_eq!(
            path.as_deref(),
            Some("cards.a.abilities[0].effect[0].until")
        );
        let (msg, _) = load(
            "pso2",
            "active",
            r#"{ "trigger": "effect", "condition": { "count": "x", "at_least": 1 }, "effect": [ { "do": "draw", "amount": 1 } ] }"#,
        )
        .unwrap_err();
        assert!(
            msg.starts_with("a condition on `count` is not supported for pso2"),
            "{msg}"
        );
        let v = module("pmv").unwrap().vocabulary();
        let nested = Effect::PayCost {
            amount: None,
            life: None,
            optional: true,
            var: None,
            otherwise: vec![Effect::Summon {
                card: "x".into(),
                count: 1,
                who: Default::default(),
            }],
        };
        let r = effect("pmv", v, vec![], &nested).unwrap();
        assert_eq!(
            r.path,
            [key("otherwise"), Seg::Index(0), key("do")].to_vec()
        );
    }

    #[test]
    fn characteristic_filters_are_checked_against_the_game() {
        let chosen = |filter: &str| {
            format!(
                r#"{{ "trigger": "spell", "effect": [ {{ "do": "destroy", "target": {{ "select": "chosen", {filter} }} }} ] }}"#
            )
        };
        load(
            "sve",
            "spell",
            &chosen(r#""cost_at_most": 2, "trait": "Dragon""#),
        )
        .unwrap();
        let (msg, path) = load("sve", "spell", &chosen(r#""keyword": "flying""#)).unwrap_err();
        assert!(msg.contains("unknown keyword `flying`"), "{msg}");
        assert_eq!(
            path.as_deref(),
            Some("cards.a.abilities[0].effect[0].target.keyword")
        );
        let (msg, _) = load(
            "sve",
            "spell",
            &chosen(r#""cost_at_most": 1, "cost_at_least": 3"#),
        )
        .unwrap_err();
        assert!(msg.contains("at least 3 and at most 1"), "{msg}");
        let f = Filter {
            cost_at_most: Some(2),
            with_trait: Some("Dragon".into()),
            ..Filter::default()
        };
        assert_eq!(f.parts(), ["cost", "trait"]);
        let def: CardDef = serde_json::from_str(
            r#"{ "name": "D", "type": "follower", "cost": 2, "traits": ["Dragon"] }"#,
        )
        .unwrap();
        assert!(f.admits_characteristics(&def, Some(2)));
        assert!(!f.admits_characteristics(&def, Some(3)));
        assert!(
            !f.admits_characteristics(&def, None),
            "no cost fails a cost bound"
        );
    }

    #[test]
    fn every_declared_word_is_a_word_of_the_language_and_every_rule_is_citable() {
        for m in MODULES {
            let v = m.vocabulary();
            let parts = [
                (&v.effects, Effect::WORDS),
                (&v.targets, Target::WORDS),
                (&v.durations, Until::WORDS),
                (&v.conditions, Condition::WORDS),
                (&v.filters, Filter::WORDS),
            ];
            for (d, all) in parts {
                let (crate::engine::Words::Only(named) | crate::engine::Words::AllBut(named)) =
                    d.words;
                for w in named {
                    assert!(all.contains(w), "{}: `{w}` is not a word", m.id());
                }
                assert!(m.citable().contains(&d.rule), "{}: {}", m.id(), d.rule);
            }
        }
    }
}

//! The JSON Schema of the scenario format, whole or restricted to one
//! game's vocabulary (`judge schema <game>`), so that an editor offers only
//! what the game's engine implements: its effects, target selectors,
//! durations and condition parts, and its triggers, keywords, card types,
//! states, phases and action words.

use serde_json::{Value, json};

use super::Scenario;
use crate::engine::{Condition, Declared, Effect, Filter};
use crate::games::GameModule;

/// The schema of the whole format.
pub fn full() -> Value {
    serde_json::to_value(schemars::schema_for!(Scenario)).unwrap_or(Value::Null)
}

/// The schema restricted to `module`'s vocabulary.
pub fn for_game(module: &dyn GameModule) -> Value {
    let mut s = full();
    let v = module.vocabulary();
    s["properties"]["game"]["const"] = json!(module.id());
    let defs = &mut s["$defs"];
    // A game that declares its ability costs: an ability's `cost` offers
    // exactly those effect words (`CostEffect`), whatever its effects offer.
    let costs = module.cost_effects();
    if costs.list(Effect::WORDS).len() < Effect::WORDS.len() {
        let mut cost_effect = defs["Effect"].clone();
        keep_variants(&mut cost_effect, "do", costs);
        defs["CostEffect"] = cost_effect;
        defs["AbilityDef"]["properties"]["cost"]["items"] = json!({"$ref": "#/$defs/CostEffect"});
    }
    keep_variants(&mut defs["Effect"], "do", &v.effects);
    if !module.spec().choose_count_conditions
        && let Some(list) = defs["Effect"]
            .get_mut("oneOf")
            .and_then(Value::as_array_mut)
    {
        // A Choose's count decided by a condition only for a game that
        // declares it.
        for variant in list {
            if variant["properties"]["do"]["const"] == "choose"
                && let Some(props) = variant["properties"].as_object_mut()
            {
                props.remove("instead");
            }
        }
    }
    keep_variants(&mut defs["Target"], "select", &v.targets);
    keep_variants(&mut defs["Until"], "", &v.durations);
    if let Some(props) = defs["Condition"]["properties"].as_object_mut() {
        props.retain(|k, _| !Condition::WORDS.contains(&k.as_str()) || v.conditions.admits(k));
    }
    // A filter is flattened into each target selector: drop the
    // characteristic parts the game does not check.
    let admitted = |k: &str| {
        if k == "region" {
            // Board regions only for a game that names some.
            return !module.regions().is_empty();
        }
        if k == "targets" {
            // Choices that are not targets only for a game that has them.
            return module.spec().untargeted_choices;
        }
        let part = match k {
            "cost_at_most" | "cost_at_least" => "cost",
            other => other,
        };
        !Filter::WORDS.contains(&part) || v.filters.admits(part)
    };
    if let Some(variants) = defs["Target"]
        .get_mut("oneOf")
        .and_then(Value::as_array_mut)
    {
        for variant in variants {
            if let Some(props) = variant.get_mut("properties").and_then(Value::as_object_mut) {
                props.retain(|k, _| admitted(k));
            }
        }
    }
    if v.conditions.list(Condition::WORDS).is_empty()
        && let Some(props) = defs["AbilityDef"]["properties"].as_object_mut()
    {
        props.remove("condition");
    }
    let one_of = |words: &[&str]| json!(words);
    defs["AbilityDef"]["properties"]["trigger"]["enum"] = one_of(module.triggers());
    defs["CardDef"]["properties"]["keywords"]["items"]["enum"] = one_of(module.keywords());
    defs["Face"]["properties"]["keywords"]["items"]["enum"] = one_of(module.keywords());
    let mut types = module.card_types().to_vec();
    types.push("unknown");
    defs["CardDef"]["properties"]["type"]["enum"] = one_of(&types);
    defs["ActionDef"]["properties"]["do"]["enum"] = one_of(module.actions());
    // The player flags, the `reading_…` options among them (the readings a
    // `judge_reading` source names).
    defs["PlayerDef"]["properties"]["flags"]["items"]["enum"] = one_of(&module.player_flags());
    s
}

/// Keeps the variants of a `oneOf` whose `tag` property (or, for a tag of
/// `""`, whose own constant) the game implements.
fn keep_variants(def: &mut Value, tag: &str, words: &Declared) {
    let Some(list) = def.get_mut("oneOf").and_then(Value::as_array_mut) else {
        return;
    };
    list.retain(|variant| {
        let c = if tag.is_empty() {
            &variant["const"]
        } else {
            &variant["properties"][tag]["const"]
        };
        c.as_str().is_some_and(|w| words.admits(w))
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Target, Until};
    use crate::games::module;

    fn consts(def: &Value, tag: &str) -> Vec<String> {
        def["oneOf"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| {
                let c = if tag.is_empty() {
                    &v["const"]
                } else {
                    &v["properties"][tag]["const"]
                };
                c.as_str().unwrap().to_string()
            })
            .collect()
    }

    #[test]
    fn a_game_schema_offers_exactly_its_vocabulary() {
        for id in ["sve", "pmv", "pso2"] {
            let m = module(id).unwrap();
            let v = m.vocabulary();
            let s = for_game(m);
            let d = &s["$defs"];
            let mut effects = consts(&d["Effect"], "do");
            effects.sort();
            let mut want: Vec<String> = v
                .effects
                .list(Effect::WORDS)
                .iter()
                .map(|w| w.to_string())
                .collect();
            want.sort();
            assert_eq!(effects, want, "{id}");
            assert_eq!(
                consts(&d["Until"], "").len(),
                v.durations.list(Until::WORDS).len()
            );
            assert_eq!(
                consts(&d["Target"], "select").len(),
                v.targets.list(Target::WORDS).len()
            );
            assert_eq!(
                d["AbilityDef"]["properties"].get("condition").is_some(),
                !v.conditions.list(Condition::WORDS).is_empty(),
                "{id}"
            );
            assert_eq!(s["properties"]["game"]["const"], id);
        }
        // PSO2 declares its ability costs: `cost` offers exactly them.
        let m = module("pso2").unwrap();
        let s = for_game(m);
        let mut costs = consts(&s["$defs"]["CostEffect"], "do");
        costs.sort();
        let mut want = m.cost_effects().list(Effect::WORDS);
        want.sort();
        assert_eq!(costs, want);
        assert_eq!(
            s["$defs"]["AbilityDef"]["properties"]["cost"]["items"]["$ref"],
            "#/$defs/CostEffect"
        );
        // The full schema still offers every effect.
        let full = full();
        assert_eq!(
            consts(&full["$defs"]["Effect"], "do").len(),
            Effect::WORDS.len()
        );
    }
}

//! The game-agnostic rules engine core.
//!
//! - [`state`]: players, card instances with stable ids, zones with
//!   visibility / order / owner / limit, characteristics with modifiers,
//!   counters, damage, attachments, events, pending triggered abilities.
//! - [`card`]: card definitions and the effect language (trigger + effect +
//!   target) that scenario files use.
//! - [`driver`]: the one loop that runs a scenario's actions on a game's
//!   [`Rules`] (atomic actions, rejections, checkpoints by [`Plan`], stop
//!   errors, the per-action step budget).
//! - [`machine`]: the resumable step machine with its budget, strict-mode
//!   choices and rollback; [`trace`]: the cited trace it records.
//! - [`rng`]: the seeded SplitMix64 generator.
//!
//! Nothing in this module knows a particular game: zone kinds, values,
//! keywords, procedures and rule ids come from a game module
//! (`crate::games`).

pub mod card;
pub mod card_map;
pub mod driver;
pub mod hidden;
pub mod ids;
pub mod machine;
pub mod rng;
pub mod state;
pub mod trace;
pub mod zone_map;

use std::collections::BTreeMap;

use serde::Serialize;
use serde_json::{Map, Value, json};

pub use card::{
    AbilityDef, CardDef, Condition, Declared, Effect, Face, Filter, Pick, Restricted, Side, Target,
    Until, Vocabulary, Who, Words,
};
pub use driver::{Plan, Rules};
pub use hidden::Found;
pub use machine::{
    ChoiceId, Choices, Defaulted, EngineError, Flow, Machine, Picked, TargetCount, Wanted, texts,
};
pub use state::{
    Card, CardId, Cards, DefKey, Event, Game, GameResult, Pending, Player, PlayerId, Recipient,
    ShownFace, ValueSpec, Visibility, ZoneId, ZoneSpec, player_name, player_names,
};
pub use trace::{Change, TraceEntry};

/// One player action, resolved from the scenario (ids checked to exist).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Action {
    /// The action word from the game's list (`play`, `attack`, `end_phase`…).
    pub kind: String,
    /// The acting player, if the scenario names one.
    pub player: Option<PlayerId>,
    /// The card acted with.
    pub card: Option<CardId>,
    /// The zone the scenario says the card is in (checked by the engine).
    pub from: Option<String>,
    /// The declared target (a card id, or a game word such as `leader`).
    pub target: Option<String>,
    /// Explicit choices, by name.
    pub choices: BTreeMap<String, Value>,
    /// A free-text note, echoed in the trace.
    pub note: Option<String>,
}

/// An action the engine rejected (the state was rolled back).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Rejection {
    /// Index in the scenario's `actions`.
    pub action: usize,
    /// The rule that forbids it.
    pub rule: &'static str,
    /// Further rules that decide it with `rule`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub also: Vec<&'static str>,
    /// Why.
    pub message: String,
    /// What would have been legal.
    pub alternatives: Vec<String>,
}

/// Everything a run produced.
#[derive(Debug, Clone, Serialize)]
pub struct Outcome {
    /// The trace.
    pub trace: Vec<TraceEntry>,
    /// Rejected actions.
    pub rejections: Vec<Rejection>,
    /// The state after each action (index = action index), as snapshots;
    /// `None` where the run's [`Plan`] does not keep it.
    pub checkpoints: Vec<Option<Value>>,
    /// The final state snapshot; `null` when the [`Plan`] does not keep it.
    pub state: Value,
    /// `ongoing`, `draw`, or the winner (`p1`, `p2`).
    pub result: String,
    /// The error that stopped the run early (strict mode, budget, not
    /// implemented), with the action index it happened at.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<StopError>,
    /// Steps the machine ran.
    pub steps: u64,
    /// The decisions the run left open, for `judge explore`.
    #[serde(skip)]
    pub open: Open,
}

/// What a run left open beyond its stop error: `judge explore` branches on
/// it; and the state kept for `judge run --dump-at`.
#[derive(Debug, Clone, Default)]
pub struct Open {
    /// The range of the first random draw a strict script of random
    /// results did not give ([`rng::Rng::script`]).
    pub random: Option<u64>,
    /// The shape of the missing choice that stopped the run, when the
    /// helper that asked for it recorded one.
    pub choice: Option<machine::Wanted>,
    /// The whole state after the action [`Plan::game_after`] names.
    pub game: Option<Box<Game>>,
    /// With it, what was in progress then ([`driver::Rules::in_progress`]).
    pub in_progress: Option<serde_json::Value>,
    /// The choices the rules made by default (the action did not give
    /// them), with the action they were read on, in the order read.
    pub defaulted: Vec<(usize, machine::Defaulted)>,
    /// The action during which the first draw past a strict script was
    /// made (`None` with [`Open::random`] set: before the first action).
    pub random_at: Option<usize>,
    /// With [`Plan::fingerprints_from`]: the state's fingerprint before the
    /// first action, then after each action (`None` before that action).
    pub fingerprints: Vec<Option<Fingerprint>>,
}

/// A state's fingerprint ([`Open::fingerprints`]): its full text, so two
/// fingerprints are equal exactly when the states are (counted, so the
/// key of a fork keeps it without copying the text).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Fingerprint(pub std::sync::Arc<str>);

/// An error that stopped a run.
#[derive(Debug, Clone, Serialize)]
pub struct StopError {
    /// Action index, or `None` before the first action.
    pub action: Option<usize>,
    /// The error.
    pub error: EngineError,
}

/// The scenario word for a result.
pub fn result_word(r: &GameResult) -> String {
    match r {
        GameResult::Ongoing => "ongoing".into(),
        GameResult::Draw => "draw".into(),
        GameResult::Win(p) => p.clone(),
    }
}

/// A game's view of a card's current characteristics (name, value).
pub type DerivedFn<'a> = dyn Fn(&Game, &Card) -> Vec<(&'static str, i64)> + 'a;

/// A deterministic JSON snapshot of the state, the shape `expect.state`
/// partially matches. `derived` adds each card's current characteristics
/// (attack, defense… after modifiers) as the game computes them.
pub fn snapshot(g: &Game, derived: &DerivedFn<'_>) -> Value {
    snapshot_of(g, derived, None)
}

/// The snapshot of [`snapshot`], built only for the players, cards and
/// sections `interest` names (its object keys), or whole for `None`.
/// Within a player, only the values and zones it names; everything else a
/// named key holds is built whole.
pub fn snapshot_of(g: &Game, derived: &DerivedFn<'_>, interest: Option<&Value>) -> Value {
    let wants = |section: &str| interest.is_none_or(|i| i.get(section).is_some());
    let named = |section: &str, key: &str| {
        interest.is_none_or(|i| {
            i.get(section)
                .is_some_and(|s| !s.is_object() || s.get(key).is_some())
        })
    };
    let mut out = Map::new();
    if wants("turn") {
        out.insert(
            "turn".into(),
            json!({
                "number": g.turn.number,
                "player": player_name(g.turn.active),
                "phase": g.turn.phase,
            }),
        );
    }
    if wants("result") {
        out.insert("result".into(), json!(result_word(&g.result)));
    }
    let mut players = Map::new();
    for (i, p) in g.seats() {
        let name = player_name(i);
        if !wants("players") || !named("players", &name) {
            continue;
        }
        // The parts of the player an expectation names (an object of
        // them), or the whole player; the same one level down for zones.
        let part = interest
            .and_then(|i| i.get("players"))
            .and_then(|s| s.get(&name))
            .filter(|v| v.is_object());
        let has = |key: &str| part.is_none_or(|p| p.get(key).is_some());
        let has_zone = |section: &str, zone: &str| {
            part.and_then(|p| p.get(section))
                .filter(|v| v.is_object())
                .is_none_or(|z| z.get(zone).is_some())
        };
        let mut o = Map::new();
        for (k, v) in p.values.iter().filter(|(k, _)| has(k)) {
            o.insert(k.clone(), json!(v));
        }
        if has("lost") {
            o.insert("lost".into(), json!(p.lost));
        }
        let mut zones = Map::new();
        let mut counts = Map::new();
        for spec in g.zone_specs.iter().filter(|s| !s.shared) {
            let (listed, counted) = (
                has_zone("zones", spec.name),
                has_zone("zone_counts", spec.name),
            );
            if !listed && !counted {
                continue;
            }
            let ids = g.zone_of(i, spec.name);
            if listed {
                zones.insert(spec.name.into(), json!(ids));
            }
            if counted {
                counts.insert(spec.name.into(), json!(ids.len()));
            }
        }
        if has("zones") {
            o.insert("zones".into(), Value::Object(zones));
        }
        if has("zone_counts") {
            o.insert("zone_counts".into(), Value::Object(counts));
        }
        players.insert(name, Value::Object(o));
    }
    if wants("players") {
        out.insert("players".into(), Value::Object(players));
    }
    if wants("shared_zones") {
        let mut shared = Map::new();
        for spec in g.zone_specs.iter().filter(|s| s.shared) {
            shared.insert(spec.name.into(), json!(g.zone(&ZoneId::shared(spec.name))));
        }
        out.insert("shared_zones".into(), Value::Object(shared));
    }
    if !wants("cards") {
        return Value::Object(out);
    }
    let mut cards = Map::new();
    // The cards an expectation names, found by id; every card otherwise.
    let chosen: Box<dyn Iterator<Item = &crate::engine::Card>> = match interest
        .and_then(|i| i.get("cards"))
        .and_then(Value::as_object)
    {
        Some(names) => Box::new(names.keys().filter_map(|id| g.cards.get(id.as_str()))),
        None => Box::new(g.cards.values()),
    };
    for c in chosen {
        let id = &c.id;
        let mut o = Map::new();
        o.insert("zone".into(), json!(c.zone.to_string()));
        o.insert("card".into(), json!(c.def));
        o.insert("state".into(), json!(c.states));
        o.insert("damage".into(), json!(c.damage));
        o.insert("counters".into(), json!(c.counters));
        o.insert("attached_to".into(), json!(c.attached_to));
        // The card whose alternate face it shows (itself, or a card that
        // gives it the face), or null for its normal face.
        o.insert("face".into(), json!(c.face.as_ref().map(|f| &f.source)));
        for (k, v) in derived(g, c) {
            o.insert(k.into(), json!(v));
        }
        cards.insert(id.to_string(), Value::Object(o));
    }
    out.insert("cards".into(), Value::Object(cards));
    Value::Object(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::state::tests::SPECS;

    #[test]
    fn a_snapshot_for_an_interest_holds_the_parts_it_names_and_the_same_values() {
        let mut g = Game::new(SPECS, 2, 0);
        let hand = ZoneId::of(PlayerId::P1, "hand");
        g.add_card(Card::new("a", "d", PlayerId::P1, hand.clone()));
        g.add_card(Card::new("b", "d", PlayerId::P1, hand));
        g.set_value(PlayerId::P1, "life", 20);
        g.set_value(PlayerId::P1, "pp", 3);
        let none = |_: &Game, _: &Card| Vec::new();
        let whole = snapshot(&g, &none);
        let interest = json!({"players": {"p1": {"pp": true, "zone_counts": {"hand": true}}}});
        let part = snapshot_of(&g, &none, Some(&interest));
        assert_eq!(
            part["players"],
            json!({"p1": {"pp": 3, "zone_counts": {"hand": 2}}})
        );
        // What it holds reads as in the whole snapshot.
        assert_eq!(part["players"]["p1"]["pp"], whole["players"]["p1"]["pp"]);
        assert_eq!(whole["players"]["p1"]["zones"]["hand"], json!(["a", "b"]));
        assert_eq!(whole["players"]["p1"]["life"], json!(20));
        // A player named whole is built whole.
        let p1 = snapshot_of(&g, &none, Some(&json!({"players": {"p1": true}})));
        assert_eq!(p1["players"]["p1"], whole["players"]["p1"]);
        assert!(p1["players"].get("p2").is_none());
    }
}

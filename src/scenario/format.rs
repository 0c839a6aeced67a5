//! The scenario file format (JSON). This is a public contract, published as
//! a JSON Schema by `judge schema` and documented in scenarios/README.md:
//! extend it compatibly (new optional fields only).

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::engine::CardDef;

/// A scenario: a board position, a sequence of actions, and the expected
/// ruling.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// Editors' schema reference; ignored by the engine.
    #[serde(rename = "$schema", default, skip_serializing_if = "Option::is_none")]
    pub schema: Option<String>,
    /// A comment; ignored.
    #[serde(rename = "//", default, skip_serializing_if = "Option::is_none")]
    pub comment: Option<Value>,
    /// The game: `sve`, `pmv`, `pso2` or `dz`.
    pub game: String,
    /// The rulebook version this ruling was written against. A mismatch with
    /// the bundled version is a warning, not an error.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rules_version: Option<String>,
    /// A short name.
    pub name: String,
    /// Where the ruling comes from, with its `kind` (published answer,
    /// rulebook example, judge's reading, worked example): see
    /// scenarios/README.md. Read and validated by the loader, which locates
    /// errors at the offending key.
    #[schemars(with = "super::provenance::SourceSchema")]
    pub source: Value,
    /// Seed for shuffles and random choices (SplitMix64).
    #[serde(default)]
    pub seed: u64,
    /// The results of the random draws, in draw order, used before the
    /// seed's generator: each the index of the result among the draw's
    /// possible results (a random pick among 3 cards: 0, 1 or 2; a shuffle
    /// is one draw per card). `judge explore` writes a branch's draws here.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub random: Vec<u64>,
    /// Card-pool files (JSON objects of card definitions by key), relative
    /// to the scenario file. Inline `cards` win over pool entries.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub card_pool: Vec<String>,
    /// Card definitions by key.
    #[serde(default)]
    pub cards: BTreeMap<String, CardDef>,
    /// The board.
    pub state: StateDef,
    /// The actions, in order.
    #[serde(default)]
    pub actions: Vec<ActionDef>,
    /// Candidate responses for `judge explore`: actions it tries inserting
    /// before each of `actions` (and after the last), each at most once,
    /// keeping the branches where the engine accepts them. `judge run` and
    /// `judge check` ignore them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub responses: Vec<ActionDef>,
    /// The expected ruling.
    #[serde(default)]
    pub expect: Expect,
}

/// The board position.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StateDef {
    /// A comment; ignored.
    #[serde(rename = "//", default, skip_serializing_if = "Option::is_none")]
    pub comment: Option<Value>,
    /// Whose turn and which phase.
    pub turn: TurnDef,
    /// Each player's values and zones, keyed `p1`, `p2`.
    pub players: BTreeMap<String, PlayerDef>,
    /// What is in progress when the scenario starts, in the game's own
    /// shape (scenarios/README.md, "Starting mid-procedure"; PMV: priority
    /// and the open interference with its attack and block): the run
    /// resumes there instead of at the beginning of the phase. Written by
    /// `judge run --dump-at`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub in_progress: Option<Value>,
}

/// Whose turn it is.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TurnDef {
    /// The turn player (`p1`, `p2`).
    pub player: String,
    /// The phase, from the game's list (e.g. `main`).
    pub phase: String,
    /// The turn number (1 = the first player's first turn).
    #[serde(default = "one")]
    pub number: u32,
    /// The player who went first (default `p1`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first: Option<String>,
}

fn one() -> u32 {
    1
}

/// One player's state.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PlayerDef {
    /// A comment; ignored.
    #[serde(rename = "//", default, skip_serializing_if = "Option::is_none")]
    pub comment: Option<Value>,
    /// Numeric values (e.g. `defense`, `pp`, `max_pp`, `ep`); unlisted
    /// values take the game's default.
    #[serde(default)]
    pub values: BTreeMap<String, i64>,
    /// Zones by name; unlisted zones are empty. Order matters for ordered
    /// zones (index 0 = top of a deck).
    #[serde(default)]
    pub zones: BTreeMap<String, ZoneDef>,
    /// Player flags the game defines.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub flags: Vec<String>,
}

/// A zone's contents: a list of cards, or a count of anonymous cards.
///
/// Read by the JSON value's kind (a list or an object), not as serde's
/// `untagged` enum: that buffers each zone and tries each form in turn,
/// which cost a tenth of a check, and its error ("did not match any
/// variant") hid the field at fault.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum ZoneDef {
    /// Cards in order.
    Cards(Vec<CardEntry>),
    /// `count` anonymous cards (or copies of `card`), ids `<player>.<zone>.<n>`.
    Count(CountDef),
}

/// A count of cards.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CountDef {
    /// How many.
    pub count: u32,
    /// Definition key of every copy; default an anonymous card.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub card: Option<String>,
}

/// One card in a zone: a definition key (the id is generated), or a full
/// entry. Read by the JSON value's kind, as [`ZoneDef`] is.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum CardEntry {
    /// Just the definition key.
    Key(String),
    /// A card with id and state (boxed: most entries are far larger than
    /// a key).
    Full(Box<CardInstanceDef>),
}

/// A card instance with its state.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CardInstanceDef {
    /// Stable id that actions use; default `<player>.<zone>.<n>`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// Definition key in `cards`.
    pub card: String,
    /// States from the game's list (e.g. `engaged`, `arrived_this_turn`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub state: Vec<String>,
    /// Damage marked on it.
    #[serde(default)]
    pub damage: i64,
    /// Counters by name.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub counters: BTreeMap<String, i64>,
    /// The id of the card it is attached to (evolve cards).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attached_to: Option<String>,
    /// A token (ceases to exist outside the zones its game allows).
    #[serde(default)]
    pub token: bool,
    /// The card's owner (`p1`, `p2`…) when it is not the player whose zone
    /// holds it: a card whose control that player gained (PSO2
    /// GL:コントロール). Default: that player.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub owner: Option<String>,
    /// The card shows the alternate face of its definition (`alternate`),
    /// e.g. a PMV character already transformed (10.28.3).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub alternate: bool,
    /// The card shows the alternate face printed on another card's
    /// definition, by that card's id: a face a card set on it gives it
    /// (PMV's transformed description of a set card, 10.13.6, 10.28.9).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub alternate_from: Option<String>,
    /// Changes to its characteristics already in force (effects resolved
    /// before the scenario starts, with how long they last), oldest first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub modifiers: Vec<ModifierDef>,
    /// A comment; ignored.
    #[serde(rename = "//", default, skip_serializing_if = "Option::is_none")]
    pub comment: Option<Value>,
}

/// A change already in force on a card: `delta` added to `stat` (or,
/// with `set`, `stat` set to `delta`), lasting `until`, created by the
/// ability of card `source`.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ModifierDef {
    /// The characteristic (`attack`, `defense`, `power`…; `swap` swaps
    /// attack and defense).
    pub stat: String,
    /// The amount added, or with `set` the value set.
    #[serde(default)]
    pub delta: i64,
    /// A value set rather than an addition.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub set: bool,
    /// With `set`: the text says "always" (常に).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub always: bool,
    /// How long it lasts (default `end_of_turn`).
    #[serde(default)]
    pub until: crate::engine::Until,
    /// The card whose ability created it.
    pub source: String,
}

/// One player action.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ActionDef {
    /// The action, from the game's list (`play`, `attack`, `evolve`,
    /// `end_phase`, `pass`, `concede`…).
    #[serde(rename = "do")]
    pub kind: String,
    /// The acting player; default the player the engine is waiting for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub player: Option<String>,
    /// The card acted with (its id).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub card: Option<String>,
    /// The zone the card is in; checked (e.g. `hand`, `ex`, `field`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
    /// The declared target: a card id, or `leader`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<String>,
    /// Explicit choices by name (targets of abilities `<card>.<trigger>`,
    /// `order` of triggered abilities…). Strict: a needed choice that is
    /// missing, or a given choice never used, is an error.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub choices: BTreeMap<String, Value>,
    /// A note, echoed in the trace.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// The expected ruling. Every part is optional.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Expect {
    /// A comment; ignored.
    #[serde(rename = "//", default, skip_serializing_if = "Option::is_none")]
    pub comment: Option<Value>,
    /// `ongoing`, `draw`, or the winner (`p1`, `p2`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<String>,
    /// A subset of the final state snapshot (partial match: objects match
    /// key by key, arrays and scalars exactly).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub state: Option<Value>,
    /// Actions that must be rejected, with the rule that forbids them. Any
    /// rejection not listed here fails the check.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rejected: Vec<ExpectRejected>,
    /// Partial states after given actions.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub checkpoints: Vec<Checkpoint>,
    /// Rule ids the trace must cite. A clause counts as cited by itself or
    /// by any of its sub-clauses (`10.5` by `10.5.2`, never by `10.50`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cites: Vec<String>,
    /// Rule ids the trace must not cite, by themselves or by a sub-clause:
    /// an outcome that must not happen for that reason.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub not_cited: Vec<String>,
    /// Trace steps that must occur, in this order (other steps may come
    /// between them): each pattern is matched by the first entry after the
    /// previous pattern's match. They assert intermediate values (a life
    /// total at −1 during combat) and the clause that decided each step.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub trace: Vec<TracePattern>,
    /// Trace steps that must never occur: no entry may match any of these.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub never: Vec<TracePattern>,
    /// A negative test: the ruling is that nothing happens (the starting
    /// board stays). The text says which naive outcome it rules out; the
    /// corpus check that no ruling passes on an engine doing nothing skips
    /// it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub negative: Option<String>,
}

/// A pattern one trace entry matches. Every part given must hold; an
/// empty pattern matches any entry.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TracePattern {
    /// A comment; ignored.
    #[serde(rename = "//", default, skip_serializing_if = "Option::is_none")]
    pub comment: Option<Value>,
    /// The procedure: the entry's step exactly, or a step below it
    /// (`attack` matches `attack.target`, never `attacker`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub step: Option<String>,
    /// The action being processed (0-based index in `actions`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub action: Option<usize>,
    /// Clauses the entry must cite (by themselves or by a sub-clause).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cites: Vec<String>,
    /// Values the entry must change, by what changed (`p2.defense`,
    /// `f1.zone`): the value after (a number or a string), or
    /// `{"before": …, "after": …}`.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub changes: BTreeMap<String, Value>,
    /// Objects the entry must name.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub objects: Vec<String>,
    /// Words the entry's text must contain.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// Words the entry's judge's note must contain (`""`: it has a note).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// One rule id, or a list of them meaning "any of these" (two clauses can
/// both forbid an action).
/// Read by the JSON value's kind, as [`ZoneDef`] is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum RuleIds {
    /// One id.
    One(String),
    /// Any of these ids.
    Any(Vec<String>),
}

impl RuleIds {
    /// The ids listed.
    pub fn ids(&self) -> &[String] {
        match self {
            RuleIds::One(id) => std::slice::from_ref(id),
            RuleIds::Any(ids) => ids,
        }
    }

    /// Whether `actual` is one of the ids, or a sub-clause of one.
    pub fn accepts(&self, actual: &str) -> bool {
        self.ids().iter().any(|id| covers(id, actual))
    }
}

/// Whether citing `actual` cites `clause`: the same id, or a sub-clause
/// whose id continues `clause` after a separator (`10.5` → `10.5.2`,
/// `10.5.a`; `4.9.2` → `4.9.2-1`; `302.1` → `302.1@2`), never a sibling
/// that merely starts with the same digits (`10.5` ↛ `10.50`).
pub fn covers(clause: &str, actual: &str) -> bool {
    actual == clause
        || actual
            .strip_prefix(clause)
            .is_some_and(|rest| rest.starts_with(['.', '-', '@', '#', ' ']))
}

/// An expected rejection.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ExpectRejected {
    /// The action's index in `actions` (0-based, as in `actions[2]`).
    pub action: usize,
    /// The rule id the rejection must cite (or one of a list, or a
    /// sub-clause of one).
    pub rule: RuleIds,
}

/// A partial state expected after an action.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Checkpoint {
    /// The action's index in `actions` (0-based).
    pub after: usize,
    /// The expected subset of the state after it.
    pub state: Value,
}

impl<'de> Deserialize<'de> for ZoneDef {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Shape;
        impl<'de> serde::de::Visitor<'de> for Shape {
            type Value = ZoneDef;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str(r#"a list of cards, or `{ "count": N }`"#)
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(self, seq: A) -> Result<ZoneDef, A::Error> {
                Vec::deserialize(serde::de::value::SeqAccessDeserializer::new(seq))
                    .map(ZoneDef::Cards)
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, map: A) -> Result<ZoneDef, A::Error> {
                CountDef::deserialize(serde::de::value::MapAccessDeserializer::new(map))
                    .map(ZoneDef::Count)
            }
        }
        d.deserialize_any(Shape)
    }
}

impl<'de> Deserialize<'de> for CardEntry {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Shape;
        impl<'de> serde::de::Visitor<'de> for Shape {
            type Value = CardEntry;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str(r#"a card key, or `{ "id": …, "card": … }`"#)
            }
            fn visit_str<E: serde::de::Error>(self, key: &str) -> Result<CardEntry, E> {
                Ok(CardEntry::Key(key.to_string()))
            }
            fn visit_string<E: serde::de::Error>(self, key: String) -> Result<CardEntry, E> {
                Ok(CardEntry::Key(key))
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                map: A,
            ) -> Result<CardEntry, A::Error> {
                CardInstanceDef::deserialize(serde::de::value::MapAccessDeserializer::new(map))
                    .map(|c| CardEntry::Full(Box::new(c)))
            }
        }
        d.deserialize_any(Shape)
    }
}

impl<'de> Deserialize<'de> for RuleIds {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Shape;
        impl<'de> serde::de::Visitor<'de> for Shape {
            type Value = RuleIds;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a rule id, or a list of rule ids")
            }
            fn visit_str<E: serde::de::Error>(self, id: &str) -> Result<RuleIds, E> {
                Ok(RuleIds::One(id.to_string()))
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(self, seq: A) -> Result<RuleIds, A::Error> {
                Vec::deserialize(serde::de::value::SeqAccessDeserializer::new(seq))
                    .map(RuleIds::Any)
            }
        }
        d.deserialize_any(Shape)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_clause_is_cited_by_its_sub_clauses_only() {
        assert!(covers("10.5", "10.5"));
        assert!(covers("10.5", "10.5.2"));
        assert!(covers("10.5", "10.5.2.a"));
        assert!(!covers("10.5", "10.50"));
        assert!(!covers("10.5.2", "10.5"));
        assert!(covers("4.9.2", "4.9.2-1"));
        assert!(covers("302.1", "302.1@2"));
        assert!(!covers("1.1", "1.10"));
        let any = RuleIds::Any(vec!["5.2.2.b".into(), "10.21.2.a".into()]);
        assert!(any.accepts("10.21.2.a"));
        assert!(!any.accepts("5.2.2.c"));
        assert!(RuleIds::One("5.2.2".into()).accepts("5.2.2.c"));
    }

    /// The hand-written readers take each form by the value's kind and
    /// report the field at fault, where serde's `untagged` said only "did
    /// not match any variant".
    #[test]
    fn zones_entries_numbers_and_rule_ids_read_by_kind() {
        let zone = |j: &str| serde_json::from_str::<ZoneDef>(j);
        assert!(matches!(zone(r#"{"count": 3}"#), Ok(ZoneDef::Count(c)) if c.count == 3));
        assert!(matches!(zone(r#"["a", {"id": "x", "card": "b"}]"#),
            Ok(ZoneDef::Cards(v)) if matches!(&v[..], [CardEntry::Key(k), CardEntry::Full(f)]
                if k == "a" && f.card == "b")));
        let err = |r: Result<ZoneDef, serde_json::Error>| r.unwrap_err().to_string();
        assert!(err(zone(r#"{"cont": 3}"#)).contains("unknown field `cont`"));
        assert!(err(zone(r#"[{"id": "x"}]"#)).contains("missing field `card`"));
        assert!(err(zone("5")).contains("expected a list of cards"));
        assert!(err(zone("[7]")).contains("expected a card key"));
        let num = |j: &str| serde_json::from_str::<crate::engine::card::Num>(j);
        assert_eq!(num("-2").unwrap(), crate::engine::card::Num::Int(-2));
        assert_eq!(
            num(r#""X""#).unwrap(),
            crate::engine::card::Num::Var("X".into())
        );
        assert!(num("18446744073709551615").is_err() && num("1.5").is_err());
        let ids = |j: &str| serde_json::from_str::<RuleIds>(j);
        assert_eq!(ids(r#""1.2""#).unwrap(), RuleIds::One("1.2".into()));
        assert_eq!(ids(r#"["1.2"]"#).unwrap(), RuleIds::Any(vec!["1.2".into()]));
        assert!(ids("3").is_err());
    }
}

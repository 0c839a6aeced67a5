//! Card definitions and the small effect language (trigger + effect + target)
//! in which scenario files write abilities. This is part of the public
//! scenario format (`judge schema`): extend it compatibly.
//!
//! The vocabulary of triggers, card types, keywords and numeric values is
//! declared by each game module and validated when a scenario is loaded, so
//! nothing here names a particular game.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// One card definition, written inline in a scenario or in a card-pool file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CardDef {
    /// The printed name (as printed, Japanese or English).
    pub name: String,
    /// The card type, from the game's list (e.g. `follower`, `amulet`, `spell`).
    #[serde(rename = "type")]
    pub card_type: String,
    /// Play cost.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost: Option<i64>,
    /// Attack (攻撃力), for games whose cards have one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attack: Option<i64>,
    /// Defense / durability (体力, 耐久力), for games whose cards have one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub defense: Option<i64>,
    /// Other numeric characteristics the game declares (e.g. `evolve_cost`).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub stats: BTreeMap<String, i64>,
    /// Keyword abilities from the game's list (e.g. `ward`, `storm`, `bane`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub keywords: Vec<String>,
    /// Traits / subtypes (タイプ); no rules meaning of their own.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub traits: Vec<String>,
    /// Other printed text characteristics the game declares, by name (e.g.
    /// a PMV spell's `caster` 術者). Optional; validated against
    /// `GameModule::text_fields`.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub text: BTreeMap<String, String>,
    /// Abilities in the effect language.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub abilities: Vec<AbilityDef>,
}

impl CardDef {
    /// Whether the definition has keyword `k`.
    pub fn has_keyword(&self, k: &str) -> bool {
        self.keywords.iter().any(|x| x == k)
    }
}

/// An ability: when it applies (`trigger`) and what it does (`effect`, in order).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AbilityDef {
    /// The trigger or kind, from the game's list (e.g. `fanfare`,
    /// `last_words`, `on_attack`, `spell`).
    pub trigger: String,
    /// The effects, carried out in printed order.
    pub effect: Vec<Effect>,
}

/// A player, relative to the ability's master.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Who {
    /// The master of the ability.
    #[default]
    You,
    /// The master's opponent.
    Opponent,
    /// Both players (turn player first).
    Both,
}

/// How long a modification lasts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Until {
    /// Until the end of this turn.
    #[default]
    EndOfTurn,
    /// For as long as the card stays in its zone.
    Permanent,
}

/// Which cards a target selector may pick from.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Filter {
    /// Whose cards, relative to the ability's master.
    #[serde(default)]
    pub side: Side,
    /// Allowed card types; empty = any.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub types: Vec<String>,
    /// The zone searched; default the game's main board zone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub zone: Option<String>,
    /// A card state the card must have (e.g. `engaged`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub state: Option<String>,
    /// Exclude the ability's own card.
    #[serde(default)]
    pub other: bool,
}

/// Whose cards a filter admits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    You,
    Opponent,
    #[default]
    Any,
}

/// A target selector.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "select", rename_all = "snake_case", deny_unknown_fields)]
pub enum Target {
    /// The ability's own card.
    This,
    /// A player's leader / the player (for games where damage hits a player).
    Leader {
        #[serde(default)]
        who: Who,
    },
    /// Cards the master chooses (選ぶ) when playing: the scenario's action
    /// must give them as a choice.
    Chosen {
        #[serde(flatten)]
        filter: Filter,
        /// How many (default 1).
        #[serde(default = "one")]
        count: u32,
        /// "Up to" (まで): 0..=count may be chosen.
        #[serde(default)]
        up_to: bool,
        /// Leaders may be chosen too (e.g. "a follower or leader").
        #[serde(default)]
        or_leader: bool,
    },
    /// Every card matching the filter, no choice.
    All {
        #[serde(flatten)]
        filter: Filter,
    },
    /// One card matching the filter chosen at random (seeded).
    Random {
        #[serde(flatten)]
        filter: Filter,
    },
}

fn one() -> u32 {
    1
}

/// One effect of the effect language.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "do", rename_all = "snake_case", deny_unknown_fields)]
pub enum Effect {
    /// Deal `amount` damage to the target.
    Damage { amount: i64, target: Target },
    /// Destroy the target (board → owner's discard pile / cemetery).
    Destroy { target: Target },
    /// Banish the target.
    Banish { target: Target },
    /// Return the target to its owner's hand.
    ReturnToHand { target: Target },
    /// A player draws `amount` cards, one at a time.
    Draw {
        amount: i64,
        #[serde(default)]
        who: Who,
    },
    /// Change a player's numeric value (e.g. `defense`, `pp`, `ep`) by
    /// `amount`, within the game's bounds.
    ChangeValue {
        value: String,
        amount: i64,
        #[serde(default)]
        who: Who,
        /// A limit the text adds: the value does not go to this number or
        /// below (「ＸはＹ以下にならない」). How a result at or below it is
        /// treated is the game's rule; absent = no such limit.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        stays_above: Option<i64>,
    },
    /// Modify the target's attack/defense.
    Buff {
        #[serde(default)]
        attack: i64,
        #[serde(default)]
        defense: i64,
        target: Target,
        #[serde(default)]
        until: Until,
    },
    /// Set the target's attack and/or defense to a value (a "change" as
    /// opposed to an addition; how it combines with additions is the
    /// game's rule). An absent part is not changed.
    SetPower {
        #[serde(default)]
        attack: Option<i64>,
        #[serde(default)]
        defense: Option<i64>,
        target: Target,
        #[serde(default)]
        until: Until,
    },
    /// Put counters on the target.
    AddCounter {
        counter: String,
        amount: i64,
        target: Target,
    },
    /// Create `count` tokens of card definition `card` on the board.
    Summon {
        card: String,
        #[serde(default = "one_i64")]
        count: i64,
        #[serde(default)]
        who: Who,
    },
    /// Set a state on the target (e.g. `engaged`), or clear it with `clear`.
    SetState {
        state: String,
        #[serde(default)]
        clear: bool,
        target: Target,
    },
    /// A player shuffles their deck (seeded).
    Shuffle {
        #[serde(default)]
        who: Who,
    },
    /// A player pays life (a cost demanded by the effect): `amount` when
    /// the text specifies it, or with `chosen` the paying player chooses
    /// how much (the game reads the choice and bounds it). `var` names a
    /// variable (`X`) the amount paid defines for the rest of the ability.
    PayLife {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        amount: Option<Num>,
        #[serde(default)]
        chosen: bool,
        #[serde(default)]
        who: Who,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        var: Option<String>,
    },
    /// Set a player's numeric value to `amount` (a change to a value, as
    /// opposed to gaining or losing the difference).
    SetValue {
        value: String,
        amount: Num,
        #[serde(default)]
        who: Who,
    },
    /// A cost the effect demands while it resolves, paid from the game's
    /// cost resource (e.g. nodes): `amount` (absent = a variable cost whose
    /// amount the payer chooses, defining `var`), optionally together with
    /// `life` (several kinds of cost at once), `optional` when the text
    /// lets the player decide, and `otherwise`: the effects applied when
    /// the cost is not paid ("if you can't pay" / "if you don't").
    PayCost {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        amount: Option<Num>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        life: Option<Num>,
        #[serde(default)]
        optional: bool,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        var: Option<String>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        otherwise: Vec<Effect>,
    },
    /// A player wins at once (a card's "win the game").
    Win {
        #[serde(default)]
        who: Who,
    },
    /// A player loses at once.
    Lose {
        #[serde(default)]
        who: Who,
    },
}

/// A number in the effect language: an integer, a variable (`"X"`,
/// `"Y"`, `"Z"`: a name defined earlier in the same ability, e.g. by the
/// amount a cost actually paid), or `"-"`, the hyphen some games print
/// where a number is absent. How a variable is defined, what an undefined
/// one is worth and what a hyphen means are the game's rules.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum Num {
    /// A printed integer.
    Int(i64),
    /// A variable name, or `-`.
    Var(String),
}

impl Num {
    /// Whether this is the hyphen `-` (no number).
    pub fn is_hyphen(&self) -> bool {
        matches!(self, Num::Var(v) if v == "-" || v == "－")
    }
}

fn one_i64() -> i64 {
    1
}

impl Effect {
    /// The target selector of this effect, if any.
    pub fn target(&self) -> Option<&Target> {
        match self {
            Effect::Damage { target, .. }
            | Effect::Destroy { target }
            | Effect::Banish { target }
            | Effect::ReturnToHand { target }
            | Effect::Buff { target, .. }
            | Effect::SetPower { target, .. }
            | Effect::AddCounter { target, .. }
            | Effect::SetState { target, .. } => Some(target),
            _ => None,
        }
    }
}

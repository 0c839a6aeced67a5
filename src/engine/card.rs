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
    /// An alternate face printed on the card (a second description the card
    /// can be turned to, e.g. PMV's 変身状態の記述 transformed description,
    /// 2.17). Whether and when a card shows it is the game's rule; a game
    /// that has no such rule rejects it as not implemented.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub alternate: Option<Box<Face>>,
}

/// An alternate face of a card: the characteristics it prints. While a card
/// shows it, the face *replaces* the card's name, attack, defense, keywords,
/// traits, text and abilities (an empty list is no keywords, no abilities);
/// its `stats` replace the card's stats of the same name and leave the
/// others. The card type and cost are the card's own.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Face {
    /// The face's name.
    pub name: String,
    /// Attack on this face.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attack: Option<i64>,
    /// Defense / durability on this face.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub defense: Option<i64>,
    /// Numeric characteristics printed on the face.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub stats: BTreeMap<String, i64>,
    /// Keywords of the face.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub keywords: Vec<String>,
    /// Traits of the face (PMV: races).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub traits: Vec<String>,
    /// Other text characteristics of the face.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub text: BTreeMap<String, String>,
    /// Abilities of the face.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub abilities: Vec<AbilityDef>,
}

impl CardDef {
    /// The numbers a snapshot shows for a card of this definition: its
    /// printed cost, then its attack and its defense values as the game
    /// computes them (after modifiers), each only when the card prints it.
    pub fn snapshot_values(
        &self,
        attack: impl FnOnce() -> i64,
        defense: impl FnOnce() -> Vec<(&'static str, i64)>,
    ) -> Vec<(&'static str, i64)> {
        let mut v = Vec::new();
        if let Some(c) = self.cost {
            v.push(("cost", c));
        }
        if self.attack.is_some() {
            v.push(("attack", attack()));
        }
        if self.defense.is_some() {
            v.extend(defense());
        }
        v
    }

    /// Whether the definition has keyword `k`.
    pub fn has_keyword(&self, k: &str) -> bool {
        self.keywords.iter().any(|x| x == k)
    }

    /// The definition of a card of this definition showing `face` (see
    /// [`Face`] for what it replaces). The result has no alternate face of
    /// its own: a face is not turned again from itself.
    pub fn showing(&self, face: &Face) -> CardDef {
        let mut stats = self.stats.clone();
        stats.extend(face.stats.iter().map(|(k, v)| (k.clone(), *v)));
        CardDef {
            name: face.name.clone(),
            card_type: self.card_type.clone(),
            cost: self.cost,
            attack: face.attack,
            defense: face.defense,
            stats,
            keywords: face.keywords.clone(),
            traits: face.traits.clone(),
            text: face.text.clone(),
            abilities: face.abilities.clone(),
            alternate: None,
        }
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
    /// A condition of application (e.g. "while your life is 10 or less",
    /// "during your turn", PMV's popularity tiers of 2.13.5 "while this card
    /// has 4 or more 人気"): every part given must hold. A game that does
    /// not implement conditions rejects an ability carrying one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub condition: Option<Condition>,
    /// An optional ability ("you may"): applied only when its player
    /// chooses to use it. A game that does not implement optional
    /// abilities rejects one.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub optional: bool,
    /// The cost of an activated ability (the part before 「:」), paid in
    /// order when it is played, all or none; written with the effect words
    /// (e.g. `pay_cost` for the game's cost resource, `set_state` engaging
    /// the card). Which cost actions a game implements is its rule; a game
    /// without activated abilities rejects a cost.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cost: Vec<Effect>,
    /// 「ターンごとにN回」: the automatic ability becomes pending at most
    /// this many times a turn. The loader refuses it on a trigger the game
    /// does not list in `GameSpec::per_turn_triggers`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub per_turn: Option<u32>,
    /// A trigger on other cards' events (「自分の妖怪・フォロワーが場を離れた
    /// とき」): the cards whose event triggers it, the filter's side read
    /// from the ability's master. Absent: the ability's own card. The
    /// loader refuses it on a trigger the game does not list in
    /// `GameSpec::watch_triggers`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub of: Option<Filter>,
}

/// The number of options a Choose takes instead of its own when
/// `condition` holds (see `Effect::Choose`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ChooseInstead {
    /// The number of options picked instead.
    pub count: u32,
    /// "Up to" that number (from 1).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub up_to: bool,
    /// The condition, read from the ability's master (a count such as
    /// the cards in a zone, or a game's own count).
    pub condition: Condition,
}

/// A condition of application of an ability. Every part given must hold;
/// an empty condition always holds.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Condition {
    /// Whose turn it must be, relative to the ability's master (`both`:
    /// any player's turn, as opposed to between turns).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn: Option<Who>,
    /// The phase the turn must be in, from the game's list.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub phase: Option<String>,
    /// A player value compared with `at_least` / `at_most` (for `who`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
    /// A zone whose number of cards is compared with `at_least` /
    /// `at_most` (for `who`); used when `value` is absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub zone: Option<String>,
    /// A count on the ability's own card, from the game's list
    /// (`GameModule::condition_counts`; PMV: `popularity`, the 人気 cards
    /// set on it), compared with `at_least` / `at_most`; used when `value`
    /// and `zone` are absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub count: Option<String>,
    /// A number of cards: those `cards` admits (its `side` read from the
    /// ability's master, its zone the game's board by default), compared
    /// with `at_least` / `at_most` (「自分の場にエボルヴフォロワーがいるなら」:
    /// at least 1); used when `value`, `zone` and `count` are absent. A
    /// game that does not count cards this way refuses it (condition word
    /// `cards`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cards: Option<Filter>,
    /// Whose value or zone (default the master).
    #[serde(default)]
    pub who: Who,
    /// The value or count is at least this.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at_least: Option<i64>,
    /// The value or count is at most this.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at_most: Option<i64>,
}

impl Condition {
    /// Whether `n` is within the bounds.
    pub fn bounds_hold(&self, n: i64) -> bool {
        self.at_least.is_none_or(|a| n >= a) && self.at_most.is_none_or(|b| n <= b)
    }
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
    /// "During this turn": like `end_of_turn`, but in games that end the
    /// two at different steps of the turn's end (PMV 4.9.1.b / 4.9.1.d) it
    /// lasts longer. A game that does not distinguish them rejects it.
    ThisTurn,
    /// "During this interference / chain": ends when the open chain of
    /// played cards closes. A game without such a chain rejects it.
    ThisInterference,
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
    /// Several zones searched together (「手札かプランゾーンにある」): the
    /// card is in any of them (with `zone`, that one too). A game that does
    /// not search several zones at once refuses it (filter word `zones`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub zones: Vec<String>,
    /// A card state the card must have (e.g. `engaged`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub state: Option<String>,
    /// Exclude the ability's own card.
    #[serde(default)]
    pub other: bool,
    /// The card's cost is at most this ("cost 2 or less").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost_at_most: Option<i64>,
    /// The card's cost is at least this ("cost 5 or more").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost_at_least: Option<i64>,
    /// The card has exactly this name (a card "named X").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The card has this trait (タイプ, race, class).
    #[serde(rename = "trait", default, skip_serializing_if = "Option::is_none")]
    pub with_trait: Option<String>,
    /// The card has this keyword ability, from the game's list.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub keyword: Option<String>,
    /// The card has this colour, a word of the game's colours (DZ's
    /// 「赤の」). The game reads its colours; one without colours refuses
    /// it (filter word `colour`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub colour: Option<String>,
    /// The card has this special type (特殊な種類: SVE 2.3.3's `evolve`,
    /// printed 'EVOLVE'), a word of the game's special types. The game
    /// reads them; one without special types refuses it (filter word
    /// `special`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub special: Option<String>,
    /// Where on the board the card must be, relative to the ability's card
    /// or its master, from the game's list (`GameModule::regions`; e.g. a
    /// board game's "in the same line as this card"). A game with no
    /// regions refuses it at load.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub region: Option<String>,
}

impl Filter {
    /// Every characteristic part a filter may state (`filters` in a game's
    /// [`Vocabulary`]).
    pub const WORDS: &'static [&'static str] = &[
        "cost", "name", "trait", "keyword", "zones", "colour", "special",
    ];

    /// The characteristic parts this filter states.
    pub fn parts(&self) -> Vec<&'static str> {
        let given = [
            self.cost_at_most.is_some() || self.cost_at_least.is_some(),
            self.name.is_some(),
            self.with_trait.is_some(),
            self.keyword.is_some(),
            !self.zones.is_empty(),
            self.colour.is_some(),
            self.special.is_some(),
        ];
        Self::WORDS
            .iter()
            .zip(given)
            .filter_map(|(w, g)| g.then_some(*w))
            .collect()
    }

    /// Whether the filter asks for a kind of card (a type or a
    /// characteristic part), not just a number of cards (「カードを1枚」).
    pub fn asks_a_kind(&self) -> bool {
        !self.types.is_empty() || !self.parts().is_empty()
    }

    /// Whether the filter's zone part admits a card in zone kind `kind`:
    /// `zone` or one of `zones`; with neither, `board` (the game's default
    /// zones, e.g. its board).
    pub fn admits_zone(&self, kind: &str, board: impl Fn(&str) -> bool) -> bool {
        if self.zone.is_none() && self.zones.is_empty() {
            return board(kind);
        }
        self.zone.as_deref() == Some(kind) || self.zones.iter().any(|z| z == kind)
    }

    /// The zones the filter names (`zone`, then `zones`).
    pub fn named_zones(&self) -> impl Iterator<Item = &str> {
        self.zone.iter().chain(&self.zones).map(String::as_str)
    }

    /// Whether a card whose current characteristics are `def` (its face as
    /// the game sees it now) and whose current cost is `cost` meets the
    /// filter's characteristic parts (cost bounds, name, trait, keyword).
    /// Side, zone, type and state are the game's to check: they depend on
    /// its zones and card types. A card with no cost fails a cost bound.
    pub fn admits_characteristics(&self, def: &CardDef, cost: Option<i64>) -> bool {
        let cost_ok = match (self.cost_at_most, self.cost_at_least) {
            (None, None) => true,
            (most, least) => {
                cost.is_some_and(|c| most.is_none_or(|m| c <= m) && least.is_none_or(|l| c >= l))
            }
        };
        cost_ok
            && self.name.as_ref().is_none_or(|n| *n == def.name)
            && self
                .with_trait
                .as_ref()
                .is_none_or(|t| def.traits.contains(t))
            && self
                .keyword
                .as_ref()
                .is_none_or(|k| def.keywords.contains(k))
    }
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
    /// A player (the game maps it to its own object: SVE's and PMV's
    /// leader, PSO2's Player card). Written `player`; `leader` is accepted
    /// as the older spelling.
    #[serde(rename = "player", alias = "leader")]
    Player {
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
        /// Whether the cards chosen are targets (the default). `false`: a
        /// choice that is not a target (DZ's 「選び」 without 「対象の」,
        /// 4.11.1), so what protects from targets does not apply and the
        /// game decides when it is made. Only a game that declares it
        /// (`GameSpec::untargeted_choices`) accepts `false`.
        #[serde(default = "yes", skip_serializing_if = "is_yes")]
        targets: bool,
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
    /// "Draw up to `max` cards": each player named chooses how many
    /// (0 to `max`, at most 1000), given as the choice
    /// `<card>.draw.<player>` (e.g. `s.draw.p1`: 2).
    DrawUpTo {
        max: i64,
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
        /// The text says the value is "always" (常に) this: a change the
        /// game may apply after every other modification (PMV 6.1.10.d).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        always: bool,
    },
    /// Reset the damage the target has taken (all of it); whether that
    /// undoes a removal already under way is the game's rule.
    ResetDamage { target: Target },
    /// Swap (入れ替え) the target's attack and defense; where the swap
    /// comes among changes and additions is the game's rule.
    SwapPower {
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
    /// Nullify the removal the target is undergoing, so it stays where it
    /// is (a "regeneration" effect: 決死を無効にする, 破棄を無効にする in
    /// PMV). `removal` names the game's removal kind it nullifies (PMV:
    /// `doomed`, `discard`); absent, whichever the target is undergoing.
    /// When it can apply and what else it does (a damage reset) is the
    /// game's rule; a game without such rules rejects it as not implemented.
    NullifyRemoval {
        #[serde(default)]
        removal: Option<String>,
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
    /// Resolve the target card, from whatever zone it is in (a hand, a
    /// discard pile), as if it had been played, without playing it (PMV
    /// 5.3 「プレイしたものとして解決する」): no cost is paid. `max_cost`
    /// is a condition the text sets (the card's cost is at most this);
    /// `ignore_nodes`: the text says the node requirement is not checked;
    /// `timing`: the text says a card whose timing is wrong can't be
    /// played this way. How such a card resolves is the game's rule; a
    /// game without one rejects it as not implemented.
    ResolveAsPlayed {
        target: Target,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        max_cost: Option<i64>,
        #[serde(default)]
        ignore_nodes: bool,
        #[serde(default)]
        timing: bool,
    },
    /// A continuous modification of playing cards (a cost or node
    /// requirement "±"): cards of `types` (empty = any card) that the
    /// players `who` play cost `cost` more and need `node` more nodes
    /// (negative: less / fewer). It is read while a card is being played,
    /// from the continuous abilities that apply at that moment; where the
    /// modified values meet a lower bound is the game's rule. A game that
    /// does not modify plays rejects it.
    ModifyCost {
        #[serde(default)]
        cost: i64,
        #[serde(default)]
        node: i64,
        #[serde(default)]
        who: Who,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        types: Vec<String>,
    },
    /// A declaration its player makes while the card is played: a number
    /// from `min` to `max` (absent = no upper bound) that defines the
    /// variable `var` of the ability; when the ability resolves, the
    /// variable takes the declared value. When the declaration is made is
    /// the game's rule (PMV 5.2.3.e: at play, after the targets). A game
    /// without declarations rejects it.
    Declare {
        var: String,
        #[serde(default)]
        min: i64,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        max: Option<i64>,
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
    /// The next damage the player would take this turn is nullified (the
    /// damage procedure for it ends at once; how and where is the game's
    /// damage rule, e.g. PMV 1.10.15).
    NullifyDamage {
        #[serde(default)]
        who: Who,
    },
    /// A restriction ("can't …"). With `target`, the target cards can't do
    /// `action` ("can't attack", "can't block"). Without it, the players
    /// `who` can't make their cards do `action` ("you can't make characters
    /// attack"), or, for `play`, can't play cards of `types` (empty = any
    /// card). `until`: `end_of_turn`, or `permanent`, which for a card
    /// restriction lasts while the restricted card stays in its zone and for
    /// a player restriction while the source card stays in its zone. How a
    /// "can't" meets a "can" or "does" is the game's rule.
    Restrict {
        action: Restricted,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        target: Option<Target>,
        #[serde(default)]
        who: Who,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        types: Vec<String>,
        #[serde(default)]
        until: Until,
    },
    /// An attack created by an effect, outside the declaration procedure:
    /// with `target`, the target card attacks ("… attacks"); without it,
    /// each player `who` makes one card of theirs attack ("make a character
    /// attack"), chosen with the choice `attacker`.
    Attack {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        target: Option<Target>,
        #[serde(default)]
        who: Who,
    },
    /// A block created by an effect: the target card blocks the current
    /// attack.
    Block { target: Target },
    /// The current attack is cancelled (取り消す).
    CancelAttack,
    /// Turn the target face down (`up: false`) or face up (`up: true`): an
    /// absolute orientation. With `only_from_other`, the text names the
    /// state before the change ("turn a face-up card face down") and the
    /// effect applies only to a card in the other orientation. What a card
    /// keeps when turned (its status, its modifiers, its text while face
    /// down) is the game's rule; a game that has no face-down cards in play
    /// rejects it as not implemented.
    TurnFace {
        up: bool,
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        only_from_other: bool,
        target: Target,
    },
    /// The target is treated as a card with only the information of the
    /// definition `card` (a key of the scenario's `cards`): an effect that
    /// gives a card a new description ("treat it as a character with …").
    /// What of its own information it keeps, when the status begins and
    /// what ends it are the game's rules; a game without such rules rejects
    /// it as not implemented.
    Become { card: String, target: Target },
    /// Changes the target of an effect that has not resolved yet: `target`
    /// selects the card whose effect it is (a played card waiting to
    /// resolve); the new target is the choice `<card>.new_target`, from
    /// `to` when given. Whether the new target must be a legal one, and
    /// what "not resolved yet" means, are the game's rules (PMV 8.2.8: any
    /// target, unless the text limits it).
    ChangeTarget {
        target: Target,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        to: Option<Filter>,
    },
    /// Ends the current turn (the game's own procedure says what still
    /// runs). A game that does not implement it rejects it.
    EndTurn,
    /// Ends the current phase.
    EndPhase,
    /// The next turn of each player `who` is skipped (SVE 5.25.2): when it
    /// would begin, the turn after it begins instead. A game that does not
    /// implement it rejects it.
    SkipTurn {
        #[serde(default)]
        who: Who,
    },
    /// Each player `who` takes an extra turn before the turn that would
    /// come next (SVE 5.27.1). A game that does not implement it rejects it.
    ExtraTurn {
        #[serde(default)]
        who: Who,
    },
    /// The turn gets an extra `phase` (from the game's list) next.
    ExtraPhase { phase: String },
    /// The next `phase` (from the game's list) does not occur; with
    /// `optional`, its player chooses when it would begin.
    SkipPhase {
        phase: String,
        #[serde(default)]
        optional: bool,
    },
    /// Put cards into zone `to` (置く / 出す / 捨てる: a move by an
    /// effect): the `target` cards, or, with `top`, the top `top` cards of
    /// the deck of each player `who`. Whose zone receives them (the owner's,
    /// or the master's board) and what a zone's limit does to the move are
    /// the game's rules. `to` may also name one of the game's board
    /// regions (`GameModule::regions`): onto a square of that region, as
    /// the game's rules choose it.
    Put {
        to: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        target: Option<Target>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        top: Option<i64>,
        #[serde(default)]
        who: Who,
        /// The text names the master's zone (「自分のEXエリアに置く」)
        /// instead of leaving the zone's player unsaid; a game that does
        /// not read it refuses it as not implemented.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        yours: bool,
    },
    /// The target evolves by an effect (e.g. SVE 進化する 5.15, outside the
    /// game's evolve ability); which card it evolves with is the game's rule.
    Evolve { target: Target },
    /// The master takes control of the target (奪う): it moves to the
    /// master's board and the master becomes its controller; its owner
    /// does not change.
    TakeControl { target: Target },
    /// The master plays the target card as the effect resolves
    /// (「プレイする」), from the zone it is in; `cost`, if given, is the
    /// value the text sets its cost to (「コストをNにしてプレイする」).
    /// Where the card goes and what is paid is the game's rule.
    Play {
        target: Target,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        cost: Option<i64>,
    },
    /// A continuous change of playing cards that sets the cost: cards of
    /// `types` (empty = any) that the players `who` play cost `cost`
    /// (「コストは N になる」). How it combines with `modify_cost` is the
    /// game's rule (e.g. SVE 10.10.2.4: set first, then ±).
    SetCost {
        cost: i64,
        #[serde(default)]
        who: Who,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        types: Vec<String>,
    },
    /// A continuous change of damage (「ダメージ+N」 / 「受けるダメージは
    /// N減る」): damage the `target` cards or players would take, or with
    /// `dealt` would deal, is changed by `amount`. `kind` narrows it to one
    /// of the game's kinds of damage (e.g. SVE `attack`, `combat`,
    /// `ability`); absent = any. Whether it is a replacement and how
    /// several combine is the game's rule.
    ModifyDamage {
        amount: i64,
        target: Target,
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        dealt: bool,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        kind: Option<String>,
    },
    /// The target loses all its abilities (能力を失う): `until`
    /// `end_of_turn`, or `permanent` (while the card stays in its zone).
    /// What counts as an ability, and what losing one undoes or keeps (a
    /// change already applied, an ability gained from an effect), are the
    /// game's rules (e.g. PSO2 300.7). A game without them rejects it.
    LoseAbilities {
        target: Target,
        #[serde(default)]
        until: Until,
    },
    /// The target gains the keyword abilities `gain` and loses those in
    /// `lose` (能力を得る / 与える / 失う), keywords from the game's list,
    /// for `until` (`permanent`: while the card stays in its zone). Where
    /// the change comes among the other changes of a card's information,
    /// and in which zones it applies, are the game's rules (e.g. SVE
    /// 10.9.1.2). A game without them rejects it.
    ChangeKeywords {
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        gain: Vec<String>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        lose: Vec<String>,
        target: Target,
        #[serde(default)]
        until: Until,
    },
    /// A change of the target's non-numeric information (名前, カード種類,
    /// タイプ, and the game's text fields such as a class) for `until`:
    /// `name` and `card_type` become the given values, `traits` are added
    /// (with `replace_traits` the traits become exactly `traits`), and each
    /// `text` field takes its value. Where it comes among the other changes
    /// of a card's information is the game's rule (e.g. SVE 10.9.1.3). A
    /// game without it rejects it.
    ChangeInfo {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        name: Option<String>,
        #[serde(rename = "type", default, skip_serializing_if = "Option::is_none")]
        card_type: Option<String>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        traits: Vec<String>,
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        replace_traits: bool,
        #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
        text: BTreeMap<String, String>,
        target: Target,
        #[serde(default)]
        until: Until,
    },
    /// Choose (チョイス): the player picks `count` of the `options` (with
    /// `up_to`, from 1 to `count`), each a list of effects; only the
    /// picked options happen. When the pick is made and what the others
    /// become are the game's rules (e.g. SVE 5.17.3: at play, the others
    /// treated as absent).
    Choose {
        #[serde(default = "one")]
        count: u32,
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        up_to: bool,
        options: Vec<Vec<Effect>>,
        /// A number of options decided by a condition: when it holds, the
        /// player picks `instead.count` options (「【ネクロチャージ(10)】
        /// かわりに2つまでチョイスする」). When the condition is read is
        /// the game's rule (SVE 5.17.3.1: as play begins). Only a game
        /// that declares it (`GameSpec::choose_count_conditions`) accepts
        /// it; the others refuse it at load.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        instead: Option<Box<ChooseInstead>>,
    },
    /// Swap (入れ替える) the `target` card with the `with` card: each goes
    /// to the zone the other is in, at the same time. When a swap cannot
    /// be made is the game's rule (SVE 5.12.2: neither moves if either
    /// cannot). A game without such a rule rejects it.
    Swap { target: Target, with: Target },
    /// The target races (出走する, SVE 14.2.3) `times` times: what that
    /// gives the card and the event it causes are the game's rules. A game
    /// without them rejects it.
    Race {
        #[serde(default = "one_i64")]
        times: i64,
        target: Target,
    },
    /// Negate (無効にする) what waits to resolve: the cards the `target`
    /// selects among the cards being played (the game's zone where they
    /// wait), or, with `abilities`, the abilities of the selected cards
    /// that wait to resolve. Each is removed without resolving; where a
    /// removed card goes is the game's rule. A game without it rejects it.
    Negate {
        target: Target,
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        abilities: bool,
    },
    /// Roll a die (ダイス) of `sides` faces (default 6, numbered from 1)
    /// with the scenario's random generator (its seed, or its `random`
    /// script: a draw of `k` rolls `k + 1`), then carry out the `results`
    /// whose range holds the number rolled. A game without dice rejects it.
    RollDie {
        #[serde(default = "six")]
        sides: i64,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        results: Vec<DieResult>,
    },
    /// Reveal (公開する) the target cards: every player sees them; they stay
    /// in their zone. How a card in a hidden zone is picked is the game's
    /// rule.
    Reveal { target: Target },
    /// The target's text becomes that of definition `card` (a key of the
    /// scenario's `cards`; テキストを変更する): its keywords, abilities and
    /// text fields, for `until`. What the text includes, in which zones a
    /// change applies and when it ends are the game's rules.
    ChangeText {
        card: String,
        target: Target,
        #[serde(default)]
        until: Until,
    },
    /// Search (探す): each player `who` looks through their hidden zone
    /// `from` (default the deck) for up to `count` cards matching `find`
    /// (its side and zone parts unused), takes those found out, shuffles
    /// that zone when `shuffle` (default), then puts them into `to`. The
    /// player names the cards found with the choice `<card>.search`.
    /// Whether a card that is there may go unfound is the game's rule.
    Search {
        find: Filter,
        #[serde(default = "one")]
        count: u32,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        from: Option<String>,
        to: String,
        #[serde(default = "yes")]
        shuffle: bool,
        #[serde(default)]
        who: Who,
    },
    /// Look at (見る) the top `count` cards of the deck of each player
    /// `who` and put them back in the order the player chooses
    /// (`<card>.order`, top first) on top of the deck, or with `bottom` at
    /// its bottom.
    LookAt {
        count: u32,
        #[serde(default)]
        bottom: bool,
        #[serde(default)]
        who: Who,
    },
    /// Put the target cards into their owners' decks at no stated place,
    /// then shuffle those decks (「山札に戻してシャッフルする」).
    ShuffleInto { target: Target },
    /// Targets chosen in the middle of the text (「その後、キャラ1体を選
    /// び、…」): the `target` (a `chosen` selector) is chosen as the
    /// resolving effect reaches this instruction, not when the card or
    /// ability was played, and the `then` effects apply to the cards chosen
    /// (their own `chosen` selectors name them). When none can be chosen is
    /// the game's rule. A game that chooses every target on play rejects it.
    SelectTargets { target: Target, then: Vec<Effect> },
    /// The `target` card and the `with` card engage (交戦する): they fight
    /// a battle the effect starts, outside the attack procedure. Which
    /// steps it runs and whether an attacker is set are the game's rules.
    /// A game without it rejects it.
    Engage { target: Target, with: Target },
    /// 「(単位数)につき(数値)」 ("for each"): `effect` carried out once, its
    /// amount multiplied by the number of cards `count` admits divided by
    /// `per` (rounded down). Which amounts scale is the game's rule.
    ForEach {
        count: Filter,
        #[serde(default = "one_i64")]
        per: i64,
        effect: Box<Effect>,
    },
    /// 能力を与える with an ability that is not a keyword ("gains 'Last
    /// Words: …'"): the target has `ability` for `until`. A game without it
    /// rejects it.
    GainAbility {
        ability: Box<AbilityDef>,
        target: Target,
        #[serde(default)]
        until: Until,
    },
    /// 「デッキを上からN枚まで見る」: the player looks at the top cards one
    /// by one and may stop before each, at most `max`; then as `look_at`.
    LookAtUpTo {
        max: u32,
        #[serde(default)]
        bottom: bool,
        #[serde(default)]
        who: Who,
    },
    /// An amount read from the board (「…のうち１番高い数と同じ枚数」):
    /// `effect` carried out once with its amount the `pick` (highest,
    /// lowest, total) of the characteristic `stat` (a stat of the game,
    /// or `attack`, `defense`, `cost`) among the cards `among` admits, read
    /// as it is carried out. Which effects' amounts it sets, how a stat is
    /// read (printed or as modified now) and what a number no card defines
    /// (the highest or lowest of none) is worth are the game's rules. A
    /// game without it rejects it.
    AmountOf {
        pick: Pick,
        stat: String,
        among: Filter,
        effect: Box<Effect>,
    },
    /// An amount read from cards the same text chose (「選んだキャラクタ
    /// ーの耐久力に等しい」): `effect` carried out once with its amount the
    /// `pick` (highest, lowest, total) of the characteristic `stat` (a stat
    /// of the game, or `attack`, `defense`, `cost`) of the cards chosen for
    /// the `chosen` target of part `part` of this text (the index of that
    /// effect in the ability's `effect` list, from 0). When the values are
    /// read (as the cards are chosen, or as `effect` is carried out), what a
    /// chosen card that has since left counts, and what a number no card
    /// defines (none chosen) is worth are the game's rules. A game without
    /// it rejects it.
    AmountOfChosen {
        pick: Pick,
        stat: String,
        part: usize,
        effect: Box<Effect>,
    },
    /// 「そうしたならば」 ("if you do"): the effects written after it are
    /// carried out only if the effect just before it was done. What counts
    /// as done (an action replaced, a choice of none) is the game's rule;
    /// the later effects' targets are chosen with the others'. A game
    /// without it rejects it.
    IfDone,
    /// 「その後」 ("then"): the effects written after it are carried out
    /// whether or not the effect before it was done; it ends the reach of
    /// an `if_done` or `by_doing` before it. A game without it rejects it.
    Then,
    /// 「さらに」 ("further"): the effects written after it are carried out
    /// in addition to those before, whether or not those were done; it ends
    /// the reach of an `if_done` or `by_doing` before it. A game without it
    /// rejects it.
    Also,
    /// 「AすることでBできる」 ("by doing A you may B"): the player chooses,
    /// as the effect reaches this marker, whether to do A, the effect
    /// written right after it (choice `<card>.by_doing`: true or false);
    /// the effects after A (B, up to a `then` or `also`) are carried out
    /// only if A was done. What counts as done is the game's rule. A game
    /// without it rejects it.
    ByDoing,
    /// A place of the board chosen as a target (「対象のスクエア」,
    /// 「対象のライン」): `place` names one of the game's kinds of place
    /// (DZ: `square`, `line`), chosen with the text's other targets; with
    /// `holding`, the place must hold a card that filter admits (its zone
    /// part unused). The text's other instructions name the place it
    /// chose: a `put` with `to: "target_place"`, a filter with `region:
    /// "target_place"`. When the place becomes illegal is the game's rule.
    /// A game without places as targets rejects it.
    TargetPlace {
        place: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        holding: Option<Filter>,
    },
    /// A delayed effect the text sets up as it resolves (「ターン終了時、
    /// …」): `then` is carried out at the end of this turn. Which cards its
    /// selectors name (「そのユニット」: the cards an earlier instruction
    /// acted on), and how and when exactly it is carried out, are the
    /// game's rules. A game without it rejects it.
    AtEndOfTurn { then: Vec<Effect> },
    /// An amount the text calls X (「X」, e.g. SVE 5.2.1.2): `effect`
    /// carried out once with each amount it writes multiplied by the value
    /// of X (write 1 for X: `buff` 1/0 is +X/+0). How X is decided (chosen
    /// as the card or ability is played, or defined by the text) and which
    /// effects' amounts it sets are the game's rules. A game without it
    /// rejects it.
    WithX { effect: Box<Effect> },
}

/// Which number of several an amount read from the board takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Pick {
    /// The highest (「１番高い」).
    Highest,
    /// The lowest (「１番低い」).
    Lowest,
    /// The sum (「合計」).
    Total,
}

impl Pick {
    /// The pick of `values`; `None` when no value defines it (the highest
    /// or lowest of none; the total of none is 0).
    pub fn of(self, values: impl IntoIterator<Item = i64>) -> Option<i64> {
        let it = values.into_iter();
        match self {
            Pick::Highest => it.max(),
            Pick::Lowest => it.min(),
            Pick::Total => Some(it.sum()),
        }
    }

    /// The pick's word.
    pub fn word(self) -> &'static str {
        match self {
            Pick::Highest => "highest",
            Pick::Lowest => "lowest",
            Pick::Total => "total",
        }
    }
}

fn yes() -> bool {
    true
}

/// `skip_serializing_if` for a field true by default.
fn is_yes(b: &bool) -> bool {
    *b
}

/// The effects a die roll carries out when the number rolled is one of
/// `on` (「1～3なら」: `[1, 2, 3]`; 「偶数なら」: `[2, 4, 6]`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DieResult {
    /// The numbers rolled this result is for.
    pub on: Vec<i64>,
    /// The effects carried out, in printed order.
    pub effect: Vec<Effect>,
}

impl DieResult {
    /// Whether the number rolled `n` is one of this result's.
    pub fn holds(&self, n: i64) -> bool {
        self.on.contains(&n)
    }

    /// Rolls a die of `faces` faces (at least 1) with the game's generator:
    /// the number (1 to `faces`) and the `results` naming it, in printed
    /// order. What a die has and when it is rolled are the game's rules.
    pub fn roll<'a>(
        rng: &mut super::rng::Rng,
        faces: u64,
        results: &'a [Self],
    ) -> (i64, Vec<&'a Self>) {
        let n = rng.below(faces) as i64 + 1;
        (n, results.iter().filter(|o| o.holds(n)).collect())
    }
}

fn six() -> i64 {
    6
}

/// The action a [`Effect::Restrict`] forbids.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Restricted {
    /// Attacking (or making cards attack).
    Attack,
    /// Blocking (or making cards block).
    Block,
    /// Playing cards (of the listed types).
    Play,
    /// Moving cards to the play area, where a card being played waits
    /// (PMV 5.2.2.g makes being able to move it there a condition of play).
    MoveToPlayArea,
    /// Moving a card (a game's own move action, e.g. DZ's move of a unit
    /// from square to square, 4.7.3): 「移動できない」.
    Move,
    /// Drawing cards: 「カードを引くことができない」.
    Draw,
}

/// A number in the effect language: an integer, a variable (`"X"`,
/// `"Y"`, `"Z"`: a name defined earlier in the same ability, e.g. by the
/// amount a cost actually paid), or `"-"`, the hyphen some games print
/// where a number is absent. How a variable is defined, what an undefined
/// one is worth and what a hyphen means are the game's rules.
///
/// Read by the JSON value's kind (a number or a string), not as serde's
/// `untagged` enum, which tries each form in turn on a buffered copy.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum Num {
    /// A printed integer.
    Int(i64),
    /// A variable name, or `-`.
    Var(String),
}

impl<'de> Deserialize<'de> for Num {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Shape;
        impl serde::de::Visitor<'_> for Shape {
            type Value = Num;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("an integer, a variable such as \"X\", or \"-\"")
            }
            fn visit_i64<E: serde::de::Error>(self, n: i64) -> Result<Num, E> {
                Ok(Num::Int(n))
            }
            fn visit_u64<E: serde::de::Error>(self, n: u64) -> Result<Num, E> {
                i64::try_from(n)
                    .map(Num::Int)
                    .map_err(|_| E::invalid_value(serde::de::Unexpected::Unsigned(n), &self))
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Num, E> {
                Ok(Num::Var(v.to_string()))
            }
        }
        d.deserialize_any(Shape)
    }
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

/// The largest "up to N" a choice may take (as for draw amounts).
pub const MAX_UP_TO: u64 = 1000;

/// The choice key of an "up to N" count: `<card>.<effect>.<player>`.
pub fn up_to_key(card: &str, effect: &str, player: crate::engine::PlayerId) -> String {
    format!("{card}.{effect}.{}", crate::engine::player_name(player))
}

/// The options of an "up to `max`" count: 0 to `max`, at most [`MAX_UP_TO`].
pub fn up_to_max(max: i64) -> u64 {
    u64::try_from(max).unwrap_or(0).min(MAX_UP_TO)
}

impl Effect {
    /// Every effect word (`do`) of the language, in declaration order.
    pub const WORDS: &'static [&'static str] = &[
        "damage",
        "destroy",
        "banish",
        "return_to_hand",
        "draw",
        "draw_up_to",
        "change_value",
        "buff",
        "set_power",
        "reset_damage",
        "swap_power",
        "add_counter",
        "summon",
        "set_state",
        "nullify_removal",
        "shuffle",
        "pay_life",
        "set_value",
        "pay_cost",
        "resolve_as_played",
        "modify_cost",
        "declare",
        "win",
        "lose",
        "nullify_damage",
        "restrict",
        "attack",
        "block",
        "cancel_attack",
        "turn_face",
        "become",
        "change_target",
        "end_turn",
        "end_phase",
        "extra_phase",
        "skip_phase",
        "skip_turn",
        "extra_turn",
        "put",
        "evolve",
        "take_control",
        "play",
        "set_cost",
        "modify_damage",
        "choose",
        "lose_abilities",
        "swap",
        "race",
        "change_keywords",
        "change_info",
        "negate",
        "roll_die",
        "reveal",
        "change_text",
        "search",
        "look_at",
        "shuffle_into",
        "select_targets",
        "engage",
        "for_each",
        "gain_ability",
        "look_at_up_to",
        "amount_of",
        "amount_of_chosen",
        "if_done",
        "then",
        "also",
        "by_doing",
        "with_x",
        "target_place",
        "at_end_of_turn",
    ];

    /// The effect's word (`do`), as written in scenario files.
    pub fn word(&self) -> &'static str {
        match self {
            Effect::Damage { .. } => "damage",
            Effect::Destroy { .. } => "destroy",
            Effect::Banish { .. } => "banish",
            Effect::ReturnToHand { .. } => "return_to_hand",
            Effect::Draw { .. } => "draw",
            Effect::DrawUpTo { .. } => "draw_up_to",
            Effect::ChangeValue { .. } => "change_value",
            Effect::Buff { .. } => "buff",
            Effect::SetPower { .. } => "set_power",
            Effect::ResetDamage { .. } => "reset_damage",
            Effect::SwapPower { .. } => "swap_power",
            Effect::AddCounter { .. } => "add_counter",
            Effect::Summon { .. } => "summon",
            Effect::SetState { .. } => "set_state",
            Effect::NullifyRemoval { .. } => "nullify_removal",
            Effect::Shuffle { .. } => "shuffle",
            Effect::PayLife { .. } => "pay_life",
            Effect::SetValue { .. } => "set_value",
            Effect::PayCost { .. } => "pay_cost",
            Effect::ResolveAsPlayed { .. } => "resolve_as_played",
            Effect::ModifyCost { .. } => "modify_cost",
            Effect::Declare { .. } => "declare",
            Effect::Win { .. } => "win",
            Effect::Lose { .. } => "lose",
            Effect::NullifyDamage { .. } => "nullify_damage",
            Effect::Restrict { .. } => "restrict",
            Effect::Attack { .. } => "attack",
            Effect::Block { .. } => "block",
            Effect::CancelAttack => "cancel_attack",
            Effect::TurnFace { .. } => "turn_face",
            Effect::Become { .. } => "become",
            Effect::ChangeTarget { .. } => "change_target",
            Effect::EndTurn => "end_turn",
            Effect::EndPhase => "end_phase",
            Effect::ExtraPhase { .. } => "extra_phase",
            Effect::SkipPhase { .. } => "skip_phase",
            Effect::SkipTurn { .. } => "skip_turn",
            Effect::ExtraTurn { .. } => "extra_turn",
            Effect::Put { .. } => "put",
            Effect::Evolve { .. } => "evolve",
            Effect::TakeControl { .. } => "take_control",
            Effect::Play { .. } => "play",
            Effect::SetCost { .. } => "set_cost",
            Effect::ModifyDamage { .. } => "modify_damage",
            Effect::Choose { .. } => "choose",
            Effect::LoseAbilities { .. } => "lose_abilities",
            Effect::Swap { .. } => "swap",
            Effect::Race { .. } => "race",
            Effect::ChangeKeywords { .. } => "change_keywords",
            Effect::ChangeInfo { .. } => "change_info",
            Effect::Negate { .. } => "negate",
            Effect::RollDie { .. } => "roll_die",
            Effect::Reveal { .. } => "reveal",
            Effect::ChangeText { .. } => "change_text",
            Effect::Search { .. } => "search",
            Effect::LookAt { .. } => "look_at",
            Effect::ShuffleInto { .. } => "shuffle_into",
            Effect::SelectTargets { .. } => "select_targets",
            Effect::Engage { .. } => "engage",
            Effect::ForEach { .. } => "for_each",
            Effect::GainAbility { .. } => "gain_ability",
            Effect::LookAtUpTo { .. } => "look_at_up_to",
            Effect::AmountOf { .. } => "amount_of",
            Effect::AmountOfChosen { .. } => "amount_of_chosen",
            Effect::IfDone => "if_done",
            Effect::Then => "then",
            Effect::Also => "also",
            Effect::ByDoing => "by_doing",
            Effect::TargetPlace { .. } => "target_place",
            Effect::AtEndOfTurn { .. } => "at_end_of_turn",
            Effect::WithX { .. } => "with_x",
        }
    }

    /// The duration the effect states, if it has one.
    pub fn until(&self) -> Option<Until> {
        match self {
            Effect::Buff { until, .. }
            | Effect::SetPower { until, .. }
            | Effect::SwapPower { until, .. }
            | Effect::Restrict { until, .. }
            | Effect::LoseAbilities { until, .. }
            | Effect::ChangeKeywords { until, .. }
            | Effect::ChangeInfo { until, .. }
            | Effect::ChangeText { until, .. }
            | Effect::GainAbility { until, .. } => Some(*until),
            _ => None,
        }
    }

    /// The effects [`Effect::scaled`] scales, in words, for refusals.
    pub const SCALED_AMOUNTS: &'static str =
        "damage, draw, draw_up_to, change_value, add_counter, summon's count, buff and put's top";

    /// This effect with each amount it writes multiplied by `times`: what
    /// an amount "for each …" (`for_each`) or the variable X (`with_x`)
    /// sets, carried out once (damage, draws, a player value, counters,
    /// tokens created, +N/+N, the top N cards put somewhere). `None` for an
    /// effect that writes no such amount; whether a game scales it at all
    /// is its rule.
    pub fn scaled(&self, times: i64) -> Option<Effect> {
        let mut out = self.clone();
        match &mut out {
            Effect::Damage { amount, .. }
            | Effect::Draw { amount, .. }
            | Effect::ChangeValue { amount, .. }
            | Effect::AddCounter { amount, .. } => *amount *= times,
            Effect::DrawUpTo { max, .. } => *max *= times,
            Effect::Summon { count, .. } => *count *= times,
            Effect::Buff {
                attack, defense, ..
            } => {
                *attack *= times;
                *defense *= times;
            }
            Effect::Put { top: Some(n), .. } => *n *= times,
            _ => return None,
        }
        Some(out)
    }

    /// Effects written inside this one (`pay_cost`'s `otherwise`).
    pub fn nested(&self) -> &[Effect] {
        match self {
            Effect::PayCost { otherwise, .. } => otherwise,
            Effect::ForEach { effect, .. }
            | Effect::AmountOf { effect, .. }
            | Effect::AmountOfChosen { effect, .. }
            | Effect::WithX { effect } => std::slice::from_ref(&**effect),
            Effect::GainAbility { ability, .. } => &ability.effect,
            _ => &[],
        }
    }

    /// Every filter this effect states, with the field it is written
    /// under: its target's, and the limit on a changed target (`to`).
    pub fn filters(&self) -> Vec<(&'static str, &Filter)> {
        let mut out = Vec::new();
        if let Some(
            Target::Chosen { filter, .. } | Target::All { filter } | Target::Random { filter },
        ) = self.target()
        {
            out.push(("target", filter));
        }
        if let Effect::ChangeTarget { to: Some(f), .. } = self {
            out.push(("to", f));
        }
        if let Effect::TargetPlace {
            holding: Some(f), ..
        } = self
        {
            out.push(("holding", f));
        }
        if let Effect::Search { find, .. } = self {
            out.push(("find", find));
        }
        if let Effect::ForEach { count, .. } = self {
            out.push(("count", count));
        }
        if let Effect::AmountOf { among, .. } = self {
            out.push(("among", among));
        }
        if let Effect::Swap {
            with: Target::Chosen { filter, .. } | Target::All { filter } | Target::Random { filter },
            ..
        }
        | Effect::Engage {
            with: Target::Chosen { filter, .. } | Target::All { filter } | Target::Random { filter },
            ..
        } = self
        {
            out.push(("with", filter));
        }
        out
    }

    /// The target selector of this effect, if any.
    pub fn target(&self) -> Option<&Target> {
        match self {
            Effect::Damage { target, .. }
            | Effect::Destroy { target }
            | Effect::Banish { target }
            | Effect::ReturnToHand { target }
            | Effect::Buff { target, .. }
            | Effect::SetPower { target, .. }
            | Effect::SwapPower { target, .. }
            | Effect::ResetDamage { target }
            | Effect::AddCounter { target, .. }
            | Effect::SetState { target, .. }
            | Effect::NullifyRemoval { target, .. }
            | Effect::ResolveAsPlayed { target, .. }
            | Effect::Block { target }
            | Effect::TurnFace { target, .. }
            | Effect::Become { target, .. }
            | Effect::ChangeTarget { target, .. }
            | Effect::Evolve { target }
            | Effect::TakeControl { target }
            | Effect::Play { target, .. }
            | Effect::ModifyDamage { target, .. }
            | Effect::Swap { target, .. }
            | Effect::Race { target, .. }
            | Effect::ChangeKeywords { target, .. }
            | Effect::ChangeInfo { target, .. }
            | Effect::Negate { target, .. }
            | Effect::Reveal { target }
            | Effect::ChangeText { target, .. }
            | Effect::ShuffleInto { target }
            | Effect::SelectTargets { target, .. }
            | Effect::Engage { target, .. }
            | Effect::GainAbility { target, .. }
            | Effect::LoseAbilities { target, .. } => Some(target),
            Effect::Restrict { target, .. }
            | Effect::Attack { target, .. }
            | Effect::Put { target, .. } => target.as_ref(),
            Effect::ForEach { effect, .. }
            | Effect::AmountOf { effect, .. }
            | Effect::AmountOfChosen { effect, .. }
            | Effect::WithX { effect } => effect.target(),
            _ => None,
        }
    }
}

impl Target {
    /// A `chosen` selector's parts: filter, count, "up to", leaders too.
    pub fn chosen(&self) -> Option<(&Filter, u32, bool, bool)> {
        match self {
            Target::Chosen {
                filter,
                count,
                up_to,
                or_leader,
                ..
            } => Some((filter, *count, *up_to, *or_leader)),
            _ => None,
        }
    }

    /// Whether this is a `chosen` selector whose cards are not targets
    /// (`targets: false`).
    pub fn untargeted(&self) -> bool {
        matches!(self, Target::Chosen { targets: false, .. })
    }

    /// Every selector word (`select`) of the language.
    pub const WORDS: &'static [&'static str] = &["this", "player", "chosen", "all", "random"];

    /// The selector's word (`select`).
    pub fn word(&self) -> &'static str {
        match self {
            Target::This => "this",
            Target::Player { .. } => "player",
            Target::Chosen { .. } => "chosen",
            Target::All { .. } => "all",
            Target::Random { .. } => "random",
        }
    }
}

impl Until {
    /// Every duration word (`until`) of the language.
    pub const WORDS: &'static [&'static str] =
        &["end_of_turn", "permanent", "this_turn", "this_interference"];

    /// The duration's word (`until`).
    pub fn word(self) -> &'static str {
        match self {
            Until::EndOfTurn => "end_of_turn",
            Until::Permanent => "permanent",
            Until::ThisTurn => "this_turn",
            Until::ThisInterference => "this_interference",
        }
    }
}

impl Condition {
    /// Every part a condition of application may state.
    pub const WORDS: &'static [&'static str] =
        &["turn", "phase", "value", "zone", "count", "cards"];

    /// The parts this condition states (an empty condition states none).
    pub fn parts(&self) -> Vec<&'static str> {
        let given = [
            self.turn.is_some(),
            self.phase.is_some(),
            self.value.is_some(),
            self.zone.is_some(),
            self.count.is_some(),
            self.cards.is_some(),
        ];
        Self::WORDS
            .iter()
            .zip(given)
            .filter_map(|(w, g)| g.then_some(*w))
            .collect()
    }
}

/// Which words of one part of the effect language a game implements.
#[derive(Debug, Clone, Copy)]
pub enum Words {
    /// Only these.
    Only(&'static [&'static str]),
    /// Every word of the language but these.
    AllBut(&'static [&'static str]),
}

/// Words of one part of the effect language a game implements, and the
/// clause that decides the rest (cited when the loader refuses a word).
#[derive(Debug, Clone, Copy)]
pub struct Declared {
    /// The words the game implements.
    pub words: Words,
    /// The game's clause on this part of card text.
    pub rule: &'static str,
}

impl Declared {
    /// Only `words`.
    pub const fn only(words: &'static [&'static str], rule: &'static str) -> Self {
        Declared {
            words: Words::Only(words),
            rule,
        }
    }
    /// Every word of the language but `words`.
    pub const fn all_but(words: &'static [&'static str], rule: &'static str) -> Self {
        Declared {
            words: Words::AllBut(words),
            rule,
        }
    }
    /// Every word of the language.
    pub const fn all(rule: &'static str) -> Self {
        Declared::all_but(&[], rule)
    }
    /// None at all.
    pub const fn none(rule: &'static str) -> Self {
        Declared::only(&[], rule)
    }
    /// Whether the game implements `w`.
    pub fn admits(&self, w: &str) -> bool {
        match self.words {
            Words::Only(l) => l.contains(&w),
            Words::AllBut(l) => !l.contains(&w),
        }
    }
    /// The implemented words out of `language` (the part's full list).
    pub fn list(&self, language: &[&'static str]) -> Vec<&'static str> {
        language
            .iter()
            .copied()
            .filter(|w| self.admits(w))
            .collect()
    }
}

/// The parts of the effect language a game implements, as it declares its
/// keywords: the loader refuses anything else where the file writes it
/// ("`take_control` is not supported for sve yet (clause 9.x)"), so no
/// game's code has to refuse another game's effects.
#[derive(Debug, Clone, Copy)]
pub struct Vocabulary {
    /// Effect words (`do`).
    pub effects: Declared,
    /// Target selectors (`select`).
    pub targets: Declared,
    /// Durations (`until`).
    pub durations: Declared,
    /// Parts of a condition of application (an empty list: the game
    /// refuses every condition).
    pub conditions: Declared,
    /// Characteristic parts of a target filter ([`Filter::WORDS`]: cost
    /// bounds, name, trait, keyword) the game checks when it collects
    /// targets.
    pub filters: Declared,
}

impl Vocabulary {
    /// Nothing of the effect language, citing no clause: the placeholder
    /// of `GameSpec::BASE`, which every game replaces with its own.
    pub const NONE: Vocabulary = Vocabulary {
        effects: Declared::none(""),
        targets: Declared::none(""),
        durations: Declared::none(""),
        conditions: Declared::none(""),
        filters: Declared::none(""),
    };
}

#[cfg(test)]
mod vocabulary_tests {
    use super::*;

    /// The values a tag property takes across the schema's variants.
    fn tags(schema: &serde_json::Value, tag: &str) -> Vec<String> {
        let mut out = Vec::new();
        let mut stack = vec![schema];
        while let Some(v) = stack.pop() {
            match v {
                serde_json::Value::Object(o) => {
                    if let Some(p) = o.get("properties").and_then(|p| p.get(tag)) {
                        for k in ["const", "enum"] {
                            match p.get(k) {
                                Some(serde_json::Value::String(w)) => out.push(w.clone()),
                                Some(serde_json::Value::Array(a)) => out.extend(
                                    a.iter().filter_map(|w| w.as_str().map(str::to_string)),
                                ),
                                _ => {}
                            }
                        }
                    }
                    stack.extend(o.values());
                }
                serde_json::Value::Array(a) => stack.extend(a),
                _ => {}
            }
        }
        out.sort();
        out.dedup();
        out
    }

    fn sorted(w: &[&str]) -> Vec<String> {
        let mut v: Vec<String> = w.iter().map(|s| s.to_string()).collect();
        v.sort();
        v
    }

    #[test]
    fn the_word_lists_are_the_serde_tags() {
        // A word that drifted from its tag would refuse (or admit) the
        // wrong text at load.
        let effect = serde_json::to_value(schemars::schema_for!(Effect)).unwrap();
        assert_eq!(tags(&effect, "do"), sorted(Effect::WORDS));
        assert_eq!(tags(&effect, "select"), sorted(Target::WORDS));
        let d = Effect::Draw {
            amount: 1,
            who: Who::You,
        };
        assert_eq!(serde_json::to_value(&d).unwrap()["do"], d.word());
        for u in [
            Until::EndOfTurn,
            Until::Permanent,
            Until::ThisTurn,
            Until::ThisInterference,
        ] {
            assert_eq!(serde_json::to_value(u).unwrap(), u.word());
        }
        let c = Condition {
            phase: Some("main".into()),
            count: Some("x".into()),
            ..Condition::default()
        };
        assert_eq!(c.parts(), ["phase", "count"]);
    }

    /// The highest and lowest of no number are undefined (the game says
    /// what they are worth); the total of none is 0.
    #[test]
    fn a_pick_of_no_number_is_undefined_but_a_total_is_0() {
        assert_eq!(Pick::Highest.of([2, 5, 1]), Some(5));
        assert_eq!(Pick::Lowest.of([2, 5, 1]), Some(1));
        assert_eq!(Pick::Total.of([2, 5, 1]), Some(8));
        assert_eq!(Pick::Highest.of([]), None);
        assert_eq!(Pick::Lowest.of([]), None);
        assert_eq!(Pick::Total.of([]), Some(0));
    }
}

//! The step machine: a stack of game-defined procedure steps run one at a
//! time against a [`Game`], with a step budget against unbounded loops, a
//! trace, strict-mode choice bookkeeping, and rollback of rejected actions.
//!
//! The machine is resumable in the ocgcore sense: a step that needs a
//! player's decision (a main-phase action, a response window) returns
//! [`Flow::Await`] and stays on the stack; the game module feeds it the next
//! scenario action and the machine continues from exactly that point.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;
use serde_json::Value;
use thiserror::Error;

use super::state::{Game, GameResult, PlayerId, player_name};
use super::trace::TraceEntry;

/// Default number of steps one action (or the start, before the first
/// action) may run before the engine declares an unbounded loop. The budget
/// counts per action, so a long but finite game never exhausts it.
pub const DEFAULT_BUDGET: u64 = 20_000;

/// Why the engine stopped or refused something.
#[derive(Debug, Clone, PartialEq, Eq, Error, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum EngineError {
    /// The action breaks a rule; the state is rolled back.
    #[error("illegal action: {message} ({rule})")]
    Illegal {
        /// The rule that forbids it.
        rule: &'static str,
        /// Further rules that decide it together with `rule` (a target
        /// missing because a keyword protects it cites both).
        #[serde(skip_serializing_if = "Vec::is_empty")]
        also: Vec<&'static str>,
        message: String,
        /// What would have been legal instead.
        alternatives: Vec<String>,
    },
    /// Strict mode: the engine needs a choice the scenario did not give.
    #[error(
        "the scenario does not give choice `{choice}`; options: {}",
        capped_list(options)
    )]
    MissingChoice {
        choice: String,
        options: Vec<String>,
    },
    /// Strict mode: a choice was given but never used.
    #[error("choice `{choice}` was given but never used")]
    UnusedChoice { choice: String },
    /// A choice that another player decides, written unaddressed on this
    /// action ([`Choices::decided_by`]).
    #[error(
        "choice `{choice}` is decided by {decider}, not by the player of this action: write it on {decider}'s action, or address it as `{addressed}`"
    )]
    ChoiceOfAnotherPlayer {
        choice: String,
        decider: String,
        addressed: String,
    },
    /// A given choice is not one of the options.
    #[error(
        "choice `{choice}` = {value} is not allowed; options: {}",
        capped_list(options)
    )]
    BadChoice {
        choice: String,
        value: String,
        options: Vec<String>,
    },
    /// The action names something that is not where it says.
    #[error("{message}")]
    BadAction { message: String },
    /// The step budget ran out: an unbounded loop.
    #[error(
        "step budget of {budget} steps for one action exhausted: the scenario loops without end (last step: {last})"
    )]
    Budget { budget: u64, last: String },
    /// A rule the engine does not implement yet.
    #[error("not implemented: clause {clause} ({what})")]
    NotImplemented { clause: &'static str, what: String },
    /// An action after the game ended.
    #[error("the game is over ({result}); action {action} cannot be taken")]
    GameOver { result: String, action: usize },
    /// The engine broke one of its own invariants (a step recorded after
    /// the game's end, [`Machine::record`]): a defect of the engine, not
    /// of the scenario.
    #[error("internal error: {message}")]
    Internal { message: String },
}

/// The most options a message lists; a board of 10,000 cards must not
/// make a 10,000-id message.
const LISTED_OPTIONS: usize = 20;

/// `options` joined with commas, at most [`LISTED_OPTIONS`] of them, then
/// how many more there are.
impl EngineError {
    /// An illegal action: the rule that forbids it, why, and what would
    /// have been legal instead (never the rejected action itself).
    pub fn illegal(
        rule: &'static str,
        message: impl Into<String>,
        alternatives: Vec<String>,
    ) -> Self {
        EngineError::Illegal {
            rule,
            also: Vec::new(),
            message: message.into(),
            alternatives,
        }
    }

    /// An illegal action that also cites `rule`, which decides it together
    /// with the first; other errors are returned unchanged.
    pub fn also_citing(mut self, rule: &'static str) -> Self {
        if let EngineError::Illegal { also, .. } = &mut self {
            also.push(rule);
        }
        self
    }

    /// A rule the game module does not implement, by its clause.
    pub fn not_implemented(clause: &'static str, what: impl Into<String>) -> Self {
        EngineError::NotImplemented {
            clause,
            what: what.into(),
        }
    }

    /// An action that names something that is not there.
    pub fn bad_action(message: impl Into<String>) -> Self {
        EngineError::BadAction {
            message: message.into(),
        }
    }
}

/// Short names for the three errors a rules procedure returns, for game
/// modules that build many of them (`use crate::engine::errors::*`).
pub mod errors {
    use super::EngineError;

    /// An illegal action citing `rule` ([`EngineError::illegal`]).
    pub fn illegal(
        rule: &'static str,
        message: impl Into<String>,
        alts: Vec<String>,
    ) -> EngineError {
        EngineError::illegal(rule, message, alts)
    }

    /// A rule the module does not implement ([`EngineError::not_implemented`]).
    pub fn ni(clause: &'static str, what: impl Into<String>) -> EngineError {
        EngineError::not_implemented(clause, what)
    }

    /// An action that names something that is not there
    /// ([`EngineError::bad_action`]).
    pub fn bad(message: impl Into<String>) -> EngineError {
        EngineError::bad_action(message)
    }
}

pub fn capped_list<I: AsRef<str>>(options: &[I]) -> String {
    let joined = |o: &[I]| o.iter().map(AsRef::as_ref).collect::<Vec<_>>().join(", ");
    if options.len() <= LISTED_OPTIONS {
        return joined(options);
    }
    format!(
        "{}, … ({} more)",
        joined(&options[..LISTED_OPTIONS]),
        options.len() - LISTED_OPTIONS
    )
}

/// What a choice picks from: a card id ([`super::CardId`]) or a word
/// (`String`: a player's name, a mode). Choices read as text and come back
/// as the options' type.
pub trait ChoiceId: Clone + Ord + AsRef<str> + From<String> {}

impl<T: Clone + Ord + AsRef<str> + From<String>> ChoiceId for T {}

/// The options as text, for a message or an error's list.
pub fn texts<I: AsRef<str>>(options: &[I]) -> Vec<String> {
    options.iter().map(|o| o.as_ref().to_string()).collect()
}

/// How a step ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flow {
    /// Go on with the next step.
    Continue,
    /// Wait for the next scenario action (the step pushed itself back).
    Await,
}

/// The explicit choices one action carries, with strict-mode bookkeeping:
/// every choice read is marked used; [`Choices::finish`] reports the rest.
#[derive(Debug, Clone, Default)]
pub struct Choices {
    given: BTreeMap<String, Value>,
    used: BTreeSet<String>,
    /// What the last missing choice takes, when the helper that found it
    /// missing knows (`judge explore` enumerates it).
    wanted: Option<(String, Wanted)>,
    /// The choices the rules made by default because the action did not
    /// give them ([`Choices::or_default`]), in the order read.
    defaulted: Vec<Defaulted>,
    /// The player of the action carrying these choices, when it names one.
    actor: Option<PlayerId>,
    /// The player who decides the choices read now, when the game declared
    /// one ([`Choices::decided_by`]): every helper reads that player's
    /// choices (issue 13).
    decider: Option<PlayerId>,
    /// A choice found unaddressed on another player's action while its
    /// decider was declared: the action fails with it, whatever happened
    /// after ([`Choices::misplaced`]).
    misplaced: Option<EngineError>,
    /// The pass of a repeating sequence the game is in on this action (a
    /// loop it has found), from 2; 0 outside one ([`Choices::set_pass`]).
    pass: usize,
}

/// The separator of a choice given for one pass only: `key@3` answers
/// `key` on the third pass of a loop the game has found on the action (a
/// decision that changes from one pass to the next, [`Choices::set_pass`]);
/// `key` answers on every other pass and outside the loop.
pub const PASS_SEP: char = '@';

/// The pass a choice key names after [`PASS_SEP`], when it names one:
/// `Some(Ok(n))` for `key@n` with n ≥ 2, `Some(Err(suffix))` for a suffix
/// that is not such a number, `None` for a key naming no pass.
pub fn key_pass(key: &str) -> Option<Result<usize, String>> {
    let (_, n) = key.rsplit_once(PASS_SEP)?;
    Some(
        n.parse::<usize>()
            .ok()
            .filter(|&n| n >= 2)
            .ok_or_else(|| n.to_string()),
    )
}

/// A choice the rules let the engine make when the scenario does not
/// ("may" with its default, an optional payment, an order the engine
/// fills in): the other answers, so that `judge explore` can try each.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Defaulted {
    /// The choice's name.
    pub key: String,
    /// The answers other than the default, listed as the options of a
    /// missing choice are (with `shape`: what the shape picks from).
    pub options: Vec<String>,
    /// Its shape beyond the list, when known (a count, a pick).
    pub shape: Option<Wanted>,
    /// The default as a scenario writes it, when the shape's answers
    /// include it (left out of the answers tried).
    pub default: Option<Value>,
}

/// What a missing choice takes beyond its list of options, when the
/// helper that asked for it knows: `judge explore` enumerates exactly the
/// valid values instead of probing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Wanted {
    /// A list of distinct options: exactly N, or up to N.
    Pick(TargetCount),
    /// A whole number from 0 to `max`.
    Number { max: u64 },
    /// The options in any order but the one listed (the default order).
    Reorder,
}

impl Choices {
    /// The choices of one action.
    pub fn new(given: BTreeMap<String, Value>) -> Self {
        Choices {
            given,
            used: BTreeSet::new(),
            wanted: None,
            defaulted: Vec::new(),
            actor: None,
            decider: None,
            misplaced: None,
            pass: 0,
        }
    }

    /// The choices of one action taken by `actor` (when the action names
    /// its player): a declared decider ([`Choices::decided_by`]) knows
    /// whose action it is.
    pub fn of_action(given: BTreeMap<String, Value>, actor: Option<PlayerId>) -> Self {
        Choices {
            actor,
            ..Choices::new(given)
        }
    }

    /// Declares who decides the choices read from now on (`None`: the
    /// action's player), returning the previous decider for the caller to
    /// restore. A game declares it wherever it asks for a choice on behalf
    /// of a player (the order of that player's triggers, what that player
    /// keeps, the controller's choices while an ability resolves, the
    /// player who grazes or pays an upkeep); every helper then reads the
    /// decider's key: unaddressed on the decider's own action (or one that
    /// names no player), addressed `<decider>.<key>` (`p2.graze`) on another
    /// player's action, where an unaddressed key is misplaced and fails the
    /// action ([`Choices::misplaced`]). The one way a game reads another
    /// player's choice (issue 13).
    pub fn decided_by(&mut self, decider: Option<PlayerId>) -> Option<PlayerId> {
        std::mem::replace(&mut self.decider, decider)
    }

    /// The first choice found unaddressed on another player's action while
    /// its decider was declared (the action fails with it).
    pub fn misplaced(&mut self) -> Option<EngineError> {
        self.misplaced.take()
    }

    /// The key a helper reads for `key` under the declared decider (the
    /// key itself when none is declared, or on the decider's own action);
    /// an unaddressed `key` on another player's action is recorded as
    /// misplaced and not read.
    fn resolve(&mut self, key: &str) -> String {
        let Some(d) = self.decider else {
            return key.to_string();
        };
        // An action that names no player may still address the decider
        // (`p2.loop.fewer`): the address says whose choice it is.
        if self.actor.is_none() {
            let addressed = format!("{}.{key}", player_name(d));
            if self.lookup(&addressed).is_some() {
                return addressed;
            }
        }
        let k = self.decided_key(d, key);
        if k != key && self.lookup(&k).is_none() && self.lookup(key).is_some() {
            self.misplaced
                .get_or_insert(EngineError::ChoiceOfAnotherPlayer {
                    choice: key.to_string(),
                    decider: player_name(d),
                    addressed: k.clone(),
                });
        }
        k
    }

    /// The key to write for `key` on this action, under the declared
    /// decider (a missing choice names it).
    pub fn shown(&self, key: &str) -> String {
        match self.decider {
            Some(d) => self.decided_key(d, key),
            None => key.to_string(),
        }
    }

    /// Whether the choice `key` is given (under the declared decider).
    fn has(&mut self, key: &str) -> bool {
        let k = self.resolve(key);
        self.lookup(&k).is_some()
    }

    /// Declares that the game is on pass `n` (from 2) of a loop it has
    /// found, or outside one (0): choices given for that pass (`key@n`,
    /// [`PASS_SEP`]) answer from now on.
    pub fn set_pass(&mut self, n: usize) {
        self.pass = n;
    }

    /// The key given for `key` now: `key@n` on pass n when the action gives
    /// that pass, else `key` when given.
    fn lookup(&self, key: &str) -> Option<String> {
        // Outside a loop (nearly every read) no pass key is formed.
        if self.pass >= 2 {
            let pass = format!("{key}{PASS_SEP}{}", self.pass);
            if self.given.contains_key(&pass) {
                return Some(pass);
            }
        }
        self.given.contains_key(key).then(|| key.to_string())
    }

    /// The key under which `decider`'s choice `key` is written on this
    /// action: `key` on `decider`'s own action (or one that names no
    /// player), else addressed, `<decider>.<key>` (`p2.graze`).
    fn decided_key(&self, decider: PlayerId, key: &str) -> String {
        if self.actor.is_none_or(|a| a == decider) {
            key.to_string()
        } else {
            format!("{}.{key}", player_name(decider))
        }
    }

    /// Reads an optional choice the rules make by default when the action
    /// does not give it (marking it used, as [`Choices::take`]); when it is
    /// not given, records the `others` (every answer but the default, as a
    /// scenario writes it) for `judge explore`, which tries each. The
    /// caller applies the default on `None`.
    pub fn or_default<I: AsRef<str>>(&mut self, key: &str, others: &[I]) -> Option<Value> {
        self.or_default_shaped(key, texts(others), None)
    }

    /// [`Choices::or_default`] for a choice of a shape beyond its list
    /// ("up to N" of the options: [`Wanted::Pick`]; another order of them:
    /// [`Wanted::Reorder`]).
    pub fn or_default_shaped(
        &mut self,
        key: &str,
        options: Vec<String>,
        shape: Option<Wanted>,
    ) -> Option<Value> {
        let v = self.take(key);
        if v.is_none() {
            self.defaulted(Defaulted {
                key: key.to_string(),
                options,
                shape,
                default: None,
            });
        }
        v
    }

    /// Records that the rules make choice `key` by default, unless the
    /// action gives it (for a game reading the choice with another reader,
    /// [`Choices::ids`], [`Choices::one_id`]…, on the next line): the
    /// answers are `shape` over `options` (every option when `None`), but
    /// `default`, the rules' own answer.
    pub fn default_is(
        &mut self,
        key: &str,
        options: Vec<String>,
        shape: Option<Wanted>,
        default: Value,
    ) {
        if !self.has(key) {
            self.defaulted(Defaulted {
                key: key.to_string(),
                options,
                shape,
                default: Some(default),
            });
        }
    }

    /// Records that choice `key`, when not given, is none of the
    /// `options` ("you may choose any of these"): explore tries every
    /// non-empty list of them ([`Choices::default_is`]).
    pub fn default_none_of<I: AsRef<str>>(&mut self, key: &str, options: &[I]) {
        let any = Wanted::Pick(TargetCount::UpTo(options.len()));
        self.default_is(key, texts(options), Some(any), Value::Array(Vec::new()));
    }

    /// Records that choice `key`, when not given, is none ("you may use
    /// one of these"): explore tries each option as the answer.
    pub fn default_not_one_of<I: AsRef<str>>(&mut self, key: &str, options: &[I]) {
        if !self.has(key) {
            self.defaulted(Defaulted {
                key: key.to_string(),
                options: texts(options),
                shape: None,
                default: None,
            });
        }
    }

    /// Records that choice `key`, when not given, is the `options` in the
    /// order listed ("in any order"): explore tries every other order.
    pub fn default_order<I: AsRef<str>>(&mut self, key: &str, options: &[I]) {
        if !self.has(key) {
            self.defaulted(Defaulted {
                key: key.to_string(),
                options: texts(options),
                shape: Some(Wanted::Reorder),
                default: None,
            });
        }
    }

    /// Records that choice `key`, when not given, is every one of the
    /// `options` ("choose them all, or fewer if you may"): explore tries
    /// every shorter list of them.
    pub fn default_all_of<I: AsRef<str>>(&mut self, key: &str, options: &[I]) {
        let fewer = Wanted::Pick(TargetCount::UpTo(options.len()));
        self.default_is(
            key,
            texts(options),
            Some(fewer),
            Value::from(texts(options)),
        );
    }

    /// Records that choice `key`, when not given, is made by the engine
    /// itself among the lists of `count` of the `options` (which cards
    /// pay a cost): explore tries each list.
    pub fn default_some_of<I: AsRef<str>>(&mut self, key: &str, options: &[I], count: TargetCount) {
        if !self.has(key) {
            self.defaulted(Defaulted {
                key: key.to_string(),
                options: texts(options),
                shape: Some(Wanted::Pick(count)),
                default: None,
            });
        }
    }

    /// Records a choice made by default (once per key and action).
    fn defaulted(&mut self, mut d: Defaulted) {
        // `judge explore` writes the key as the decider's (issue 13).
        d.key = self.shown(&d.key);
        if !self.defaulted.iter().any(|x| x.key == d.key) {
            self.defaulted.push(d);
        }
    }

    /// The choices made by default so far (taken: the list is emptied).
    pub fn take_defaulted(&mut self) -> Vec<Defaulted> {
        std::mem::take(&mut self.defaulted)
    }

    /// The shape of the missing choice `key`, if the helper that found it
    /// missing recorded one.
    pub fn wanted(&self, key: &str) -> Option<Wanted> {
        self.wanted
            .as_ref()
            .filter(|(k, _)| k == key)
            .map(|(_, w)| *w)
    }

    /// A missing choice `key` with its options, recording its shape.
    fn missing(&mut self, key: &str, options: Vec<String>, shape: Wanted) -> EngineError {
        let choice = self.shown(key);
        self.wanted = Some((choice.clone(), shape));
        EngineError::MissingChoice { choice, options }
    }

    /// Looks at a choice without marking it used (a game checking a rule
    /// of its own on the value before a helper reads it).
    pub fn peek(&mut self, key: &str) -> Option<&Value> {
        let k = self.resolve(key);
        let k = self.lookup(&k)?;
        self.given.get(&k)
    }

    /// Reads an optional choice, marking it used.
    pub fn take(&mut self, key: &str) -> Option<Value> {
        let key = self.resolve(key);
        self.take_exactly(&key)
    }

    /// Reads the choice written as `key`, whatever the declared decider.
    fn take_exactly(&mut self, key: &str) -> Option<Value> {
        let found = self.lookup(key)?;
        let v = self.given.get(&found).cloned();
        self.used.insert(found);
        v
    }

    /// Reads a required choice; strict mode: missing is an error that names
    /// the choice and its options.
    pub fn require<I: AsRef<str>>(
        &mut self,
        key: &str,
        options: &[I],
    ) -> Result<Value, EngineError> {
        let choice = self.shown(key);
        self.take(key).ok_or_else(|| EngineError::MissingChoice {
            choice,
            options: texts(options),
        })
    }

    /// Reads a choice that must be a list of ids from `options` (a single
    /// string counts as a list of one).
    pub fn ids<I: ChoiceId>(
        &mut self,
        key: &str,
        options: &[I],
    ) -> Result<Option<Vec<I>>, EngineError> {
        let Some(v) = self.take(key) else {
            return Ok(None);
        };
        let list = id_list(&v).ok_or_else(|| EngineError::BadChoice {
            choice: key.into(),
            value: v.to_string(),
            options: texts(options),
        })?;
        for id in &list {
            if !options.iter().any(|o| o.as_ref() == id) {
                return Err(EngineError::BadChoice {
                    choice: key.into(),
                    value: id.clone(),
                    options: texts(options),
                });
            }
        }
        Ok(Some(list.into_iter().map(I::from).collect()))
    }

    /// Reads a choice that must be exactly one id from `options`; `None`
    /// when it was not given (the caller decides whether that is an error).
    pub fn one_id<I: ChoiceId>(
        &mut self,
        key: &str,
        options: &[I],
    ) -> Result<Option<I>, EngineError> {
        match self.ids(key, options)? {
            None => Ok(None),
            Some(mut k) if k.len() == 1 => Ok(k.pop()),
            Some(k) => Err(EngineError::BadChoice {
                choice: key.into(),
                value: format!("{} card(s)", k.len()),
                options: vec![format!("exactly 1 of {}", capped_list(options))],
            }),
        }
    }

    /// Reads a required choice of exactly `n` distinct ids from `options`
    /// (a hand-size discard, "choose N"): missing → `MissingChoice`, another
    /// number or a repeated id → `BadChoice`.
    pub fn exactly<I: ChoiceId>(
        &mut self,
        key: &str,
        options: &[I],
        n: usize,
    ) -> Result<Vec<I>, EngineError> {
        let Some(chosen) = self.ids(key, options)? else {
            let shape = Wanted::Pick(TargetCount::Exactly(n));
            return Err(self.missing(key, texts(options), shape));
        };
        let distinct: BTreeSet<&I> = chosen.iter().collect();
        if chosen.len() != n || distinct.len() != n {
            return Err(EngineError::BadChoice {
                choice: key.into(),
                value: format!("{} card(s)", chosen.len()),
                options: vec![format!("exactly {n} distinct of {}", capped_list(options))],
            });
        }
        Ok(chosen)
    }

    /// Reads a required count from 0 to `max` ("up to N"): missing →
    /// `MissingChoice`, anything else → `BadChoice`.
    pub fn count(&mut self, key: &str, max: u64) -> Result<u64, EngineError> {
        let options = || vec![format!("a number from 0 to {max}")];
        let Some(v) = self.take(key) else {
            return Err(self.missing(key, options(), Wanted::Number { max }));
        };
        v.as_u64()
            .filter(|n| *n <= max)
            .ok_or_else(|| EngineError::BadChoice {
                choice: key.into(),
                value: v.to_string(),
                options: options(),
            })
    }

    /// Reads the target choice `key` over the `legal` targets, as every
    /// game's "choose N targets" does.
    ///
    /// A chosen id that is not legal decides between two errors: `why`
    /// gives the rule and reason when the id names something in the game
    /// (a card on the board that the text cannot target is an illegal
    /// play, rejected citing that rule), and `None` when it names nothing
    /// (bad input). When the choice is missing and the count leaves only
    /// one answer, the engine makes it ([`Picked::Only`]); otherwise the
    /// choice is missing.
    pub fn targets<I: ChoiceId>(
        &mut self,
        key: &str,
        legal: &[I],
        count: TargetCount,
        why: impl Fn(&str) -> Option<(&'static str, String)>,
    ) -> Result<Picked<I>, EngineError> {
        let Some(v) = self.take(key) else {
            return match count {
                TargetCount::Exactly(n) if legal.len() == n => Ok(Picked::Only(legal.to_vec())),
                _ => Err(self.missing(key, texts(legal), Wanted::Pick(count))),
            };
        };
        let bad = |value: String| EngineError::BadChoice {
            choice: key.into(),
            value,
            options: vec![count.describe(legal)],
        };
        let chosen = id_list(&v).ok_or_else(|| bad(v.to_string()))?;
        if let Some(id) = chosen
            .iter()
            .find(|id| !legal.iter().any(|l| l.as_ref() == id.as_str()))
        {
            return Err(match why(id) {
                Some((rule, reason)) => EngineError::illegal(
                    rule,
                    format!("`{key}`: {id} is not a legal target ({reason})"),
                    texts(legal),
                ),
                None => bad(id.clone()),
            });
        }
        let distinct: BTreeSet<&String> = chosen.iter().collect();
        let fits = match count {
            TargetCount::Exactly(n) => chosen.len() == n,
            TargetCount::UpTo(n) => chosen.len() <= n,
        };
        if distinct.len() != chosen.len() || !fits {
            return Err(bad(format!("{} target(s)", chosen.len())));
        }
        Ok(Picked::Given(chosen.into_iter().map(I::from).collect()))
    }

    /// Strict mode: a choice given but never used is an error.
    pub fn finish(&self) -> Result<(), EngineError> {
        match self.given.keys().find(|k| !self.used.contains(*k)) {
            Some(k) => Err(EngineError::UnusedChoice { choice: k.clone() }),
            None => Ok(()),
        }
    }
}

/// A choice's value as a list of ids: a string is a list of one; `None`
/// for anything else.
fn id_list(v: &Value) -> Option<Vec<String>> {
    match v {
        Value::String(s) => Some(vec![s.clone()]),
        Value::Array(a) => a.iter().map(|x| x.as_str().map(str::to_string)).collect(),
        _ => None,
    }
}

/// How many targets a choice takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TargetCount {
    /// Exactly this many (already lowered to the number that exist where
    /// the text says "as many as possible").
    Exactly(usize),
    /// From 0 to this many ("up to N").
    UpTo(usize),
}

impl TargetCount {
    /// "exactly 2 of a, b, c" / "up to 2 of a, b, c": what a valid choice is.
    fn describe<I: AsRef<str>>(self, legal: &[I]) -> String {
        match self {
            TargetCount::Exactly(n) => format!("exactly {n} of {}", capped_list(legal)),
            TargetCount::UpTo(n) => format!("up to {n} of {}", capped_list(legal)),
        }
    }
}

/// A target choice read by [`Choices::targets`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Picked<I = String> {
    /// The scenario chose these.
    Given(Vec<I>),
    /// Not given, and only one answer was possible: the engine chose it
    /// (the trace says so).
    Only(Vec<I>),
}

/// The machine: state, pending steps, trace and budget.
#[derive(Debug, Clone)]
pub struct Machine<S> {
    /// The game state.
    pub game: Game,
    /// Steps still to run; the last element runs next.
    pub stack: Vec<S>,
    /// The trace so far.
    pub trace: Vec<TraceEntry>,
    /// Steps run so far.
    pub steps: u64,
    /// Maximum steps of one action.
    pub budget: u64,
    /// `steps` when the current action began (the budget counts from it).
    pub action_start: u64,
    /// The scenario action being processed.
    pub action: Option<usize>,
    /// That action's choices.
    pub choices: Choices,
    /// The first step recorded after the game's end, as the internal error
    /// it is ([`Machine::record`]); the run stops with it.
    after_end: Option<EngineError>,
}

/// The step that records the end of the game ([`Machine::end`]): the
/// trace's last, in every game.
pub const END_STEP: &str = "game.end";

impl<S: Clone + std::fmt::Debug> Machine<S> {
    /// A machine over `game` with the default budget.
    pub fn new(game: Game) -> Self {
        Machine {
            game,
            stack: Vec::new(),
            trace: Vec::new(),
            steps: 0,
            budget: DEFAULT_BUDGET,
            action_start: 0,
            action: None,
            choices: Choices::default(),
            after_end: None,
        }
    }

    /// Starts scenario action `action` (`None`: the steps before the first
    /// one): trace entries name it, and the step budget counts from here.
    pub fn begin_action(&mut self, action: Option<usize>) {
        self.action = action;
        self.action_start = self.steps;
    }

    /// Schedules `steps` to run in the given order, before anything already
    /// scheduled.
    pub fn then<I>(&mut self, steps: I)
    where
        I: IntoIterator<Item = S>,
        I::IntoIter: DoubleEndedIterator,
    {
        for s in steps.into_iter().rev() {
            self.stack.push(s);
        }
    }

    /// Records a trace entry and returns it for adding objects and changes.
    ///
    /// Once the game has ended nothing happens any more, so nothing is
    /// recorded: a step recorded after the end ([`Machine::end`]) is kept
    /// in the trace, where it shows, and stops the run with an internal
    /// error ([`Machine::check_end`]) instead of a ruling that goes on
    /// past the end.
    pub fn record(
        &mut self,
        step: impl Into<String>,
        text: impl Into<String>,
        rules: &[&'static str],
    ) -> &mut TraceEntry {
        let step = step.into();
        if self.game.result != GameResult::Ongoing && self.after_end.is_none() {
            self.after_end = Some(EngineError::Internal {
                message: format!(
                    "step `{step}` was recorded after the game ended ({}): no procedure runs after the end",
                    super::result_word(&self.game.result)
                ),
            });
        }
        let seq = self.trace.len() + 1;
        self.trace.push(TraceEntry {
            seq,
            action: self.action,
            step,
            text: text.into(),
            objects: Vec::new(),
            changes: Vec::new(),
            rules: {
                // Each id once, in first-cited order.
                let mut v: Vec<&'static str> = Vec::with_capacity(rules.len());
                for r in rules {
                    if !v.contains(r) {
                        v.push(r);
                    }
                }
                v
            },
            note: None,
        });
        self.trace.last_mut().expect("just pushed")
    }

    /// Ends the game with `result`, a win or a draw, recorded as the step
    /// [`END_STEP`] citing `rules`, the clauses of the game that decide
    /// this end; from then on no step runs ([`Machine::run`]) and none is
    /// recorded ([`Machine::record`]). Ending a game that has ended, or
    /// with no result, is an internal error.
    pub fn end(
        &mut self,
        result: GameResult,
        text: impl Into<String>,
        rules: &[&'static str],
    ) -> &mut TraceEntry {
        if result == GameResult::Ongoing && self.after_end.is_none() {
            self.after_end = Some(EngineError::Internal {
                message: "the game was ended with no result".into(),
            });
        }
        self.record(END_STEP, text, rules);
        self.game.result = result;
        self.trace.last_mut().expect("just recorded")
    }

    /// The internal error of a step recorded after the game's end, if one
    /// was ([`Machine::record`]).
    pub fn check_end(&mut self) -> Result<(), EngineError> {
        match self.after_end.take() {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    /// Runs steps until one awaits a decision, the stack empties, or the
    /// game ends. `f` runs one step.
    pub fn run(
        &mut self,
        mut f: impl FnMut(&mut Machine<S>, S) -> Result<Flow, EngineError>,
    ) -> Result<(), EngineError> {
        while let Some(s) = self.stack.pop() {
            if self.game.result != GameResult::Ongoing {
                // The game ended: nothing after the end happens.
                self.stack.clear();
                return Ok(());
            }
            self.steps += 1;
            if self.steps - self.action_start > self.budget {
                return Err(EngineError::Budget {
                    budget: self.budget,
                    last: format!("{s:?}"),
                });
            }
            let flow = f(self, s)?;
            self.check_end()?;
            if flow == Flow::Await {
                return Ok(());
            }
        }
        Ok(())
    }

    /// Runs `f` with `decider` declared as the player who decides the
    /// choices it reads ([`Choices::decided_by`]), restoring the previous
    /// decider after.
    pub fn decided_by<T>(
        &mut self,
        decider: PlayerId,
        f: impl FnOnce(&mut Machine<S>) -> Result<T, EngineError>,
    ) -> Result<T, EngineError> {
        let previous = self.choices.decided_by(Some(decider));
        let r = f(self);
        self.choices.decided_by(previous);
        r
    }

    /// Runs `f` as one atomic action: if it fails with any error, the state,
    /// the stack and the trace are rolled back to before it, and the error is
    /// returned.
    pub fn atomically(
        &mut self,
        f: impl FnOnce(&mut Machine<S>) -> Result<(), EngineError>,
    ) -> Result<(), EngineError> {
        let saved_game = self.game.clone();
        let saved_stack = self.stack.clone();
        let saved_trace = self.trace.len();
        let saved_steps = self.steps;
        match f(self) {
            Ok(()) => Ok(()),
            Err(e) => {
                self.game = saved_game;
                self.stack = saved_stack;
                self.trace.truncate(saved_trace);
                // A step recorded after an end that is undone is undone too.
                self.after_end = None;
                // Budget exhaustion must not be undone by rollback.
                if !matches!(e, EngineError::Budget { .. }) {
                    self.steps = saved_steps;
                }
                Err(e)
            }
        }
    }
}

#[cfg(test)]
mod tests {

    #[test]
    fn long_option_lists_are_capped() {
        let few: Vec<String> = (0..3).map(|i| format!("c{i}")).collect();
        assert_eq!(capped_list(&few), "c0, c1, c2");
        let many: Vec<String> = (0..10_000).map(|i| format!("c{i}")).collect();
        let s = capped_list(&many);
        assert!(s.ends_with("c19, … (9980 more)"), "{s}");
    }

    use super::*;
    use crate::engine::state::Game;

    fn given(key: &str, v: Value) -> Choices {
        Choices::new(BTreeMap::from([(key.to_string(), v)]))
    }

    fn ids(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    /// `why` for the target tests: `x` is on the board but not targetable.
    fn on_board(id: &str) -> Option<(&'static str, String)> {
        (id == "x").then(|| ("9.9", "it has ward".to_string()))
    }

    #[test]
    fn a_known_but_illegal_target_is_an_illegal_action_citing_the_rule() {
        let legal = ids(&["a", "b"]);
        let mut c = given("t", Value::from("x"));
        let e = c
            .targets("t", &legal, TargetCount::Exactly(1), on_board)
            .unwrap_err();
        match e {
            EngineError::Illegal {
                rule,
                message,
                alternatives,
                ..
            } => {
                assert_eq!(rule, "9.9");
                assert!(message.contains("x is not a legal target (it has ward)"));
                assert_eq!(alternatives, legal);
            }
            e => panic!("{e:?}"),
        }
        // An id that names nothing is bad input, not a ruling.
        let mut c = given("t", Value::from("nobody"));
        let e = c.targets("t", &legal, TargetCount::Exactly(1), on_board);
        assert!(matches!(e, Err(EngineError::BadChoice { .. })), "{e:?}");
    }

    #[test]
    fn target_counts_and_the_only_answer() {
        let legal = ids(&["a", "b"]);
        let mut c = Choices::default();
        assert_eq!(
            c.targets("t", &legal, TargetCount::Exactly(2), on_board),
            Ok(Picked::Only(legal.clone()))
        );
        assert!(matches!(
            c.targets("t", &legal, TargetCount::Exactly(1), on_board),
            Err(EngineError::MissingChoice { .. })
        ));
        assert!(matches!(
            c.targets("t", &legal, TargetCount::UpTo(2), on_board),
            Err(EngineError::MissingChoice { .. })
        ));
        let mut c = given("t", serde_json::json!(["a", "a"]));
        assert!(matches!(
            c.targets("t", &legal, TargetCount::UpTo(2), on_board),
            Err(EngineError::BadChoice { .. })
        ));
        let mut c = given("t", serde_json::json!(["a", "b"]));
        assert!(matches!(
            c.targets("t", &legal, TargetCount::Exactly(1), on_board),
            Err(EngineError::BadChoice { .. })
        ));
        let mut c = given("t", serde_json::json!([]));
        assert_eq!(
            c.targets("t", &legal, TargetCount::UpTo(1), on_board),
            Ok(Picked::Given(vec![]))
        );
        assert!(c.finish().is_ok());
    }

    #[derive(Debug, Clone, PartialEq)]
    enum T {
        Inc,
        Loop,
        Wait,
    }

    fn machine() -> Machine<T> {
        Machine::new(Game::new(&[], 2, 0))
    }

    /// The test module's own state: a counter.
    #[derive(Debug, Clone, Default)]
    struct Count(u32);

    fn count(m: &Machine<T>) -> u32 {
        m.game.own_ref::<Count>().map_or(0, |c| c.0)
    }

    fn step(m: &mut Machine<T>, s: T) -> Result<Flow, EngineError> {
        match s {
            T::Inc => {
                m.game.own::<Count>().0 += 1;
                m.record("inc", "n += 1", &[]);
                Ok(Flow::Continue)
            }
            T::Loop => {
                m.then([T::Inc, T::Loop]);
                Ok(Flow::Continue)
            }
            T::Wait => {
                m.stack.push(T::Wait);
                Ok(Flow::Await)
            }
        }
    }

    #[test]
    fn steps_run_in_order_and_await_stops() {
        let mut m = machine();
        m.then([T::Inc, T::Inc, T::Wait, T::Inc]);
        m.run(step).unwrap();
        assert_eq!(count(&m), 2);
        assert_eq!(m.stack, vec![T::Inc, T::Wait]);
        assert_eq!(m.trace.len(), 2);
    }

    #[test]
    fn budget_stops_a_loop() {
        let mut m = machine();
        m.budget = 100;
        m.then([T::Loop]);
        let e = m.run(step).unwrap_err();
        assert!(matches!(e, EngineError::Budget { budget: 100, .. }));
    }

    #[test]
    fn rejected_action_rolls_back() {
        let mut m = machine();
        m.then([T::Inc]);
        m.run(step).unwrap();
        let r = m.atomically(|m| {
            m.then([T::Inc, T::Inc]);
            m.run(step)?;
            Err(EngineError::Illegal {
                rule: "x",
                also: vec![],
                message: "no".into(),
                alternatives: vec![],
            })
        });
        assert!(r.is_err());
        assert_eq!(count(&m), 1);
        assert_eq!(m.trace.len(), 1);
    }

    #[test]
    fn strict_choices() {
        let mut c = Choices::new(BTreeMap::from([
            ("a".to_string(), Value::from("x")),
            ("b".to_string(), Value::from(1)),
        ]));
        let opts = vec!["x".to_string(), "y".to_string()];
        assert_eq!(c.ids("a", &opts).unwrap(), Some(vec!["x".to_string()]));
        assert!(matches!(c.finish(), Err(EngineError::UnusedChoice { choice }) if choice == "b"));
        assert!(matches!(
            c.require("z", &opts),
            Err(EngineError::MissingChoice { .. })
        ));
        let mut d = Choices::new(BTreeMap::from([("a".to_string(), Value::from("q"))]));
        assert!(matches!(
            d.ids("a", &opts),
            Err(EngineError::BadChoice { .. })
        ));
    }

    #[test]
    fn exactly_n_distinct() {
        let opts = vec!["x".to_string(), "y".to_string(), "z".to_string()];
        let mut c = Choices::new(BTreeMap::from([
            ("ok".to_string(), serde_json::json!(["x", "z"])),
            ("dup".to_string(), serde_json::json!(["x", "x"])),
        ]));
        assert_eq!(c.exactly("ok", &opts, 2).unwrap(), ["x", "z"]);
        assert!(matches!(
            c.exactly("dup", &opts, 2),
            Err(EngineError::BadChoice { .. })
        ));
        assert!(matches!(
            c.exactly("none", &opts, 1),
            Err(EngineError::MissingChoice { .. })
        ));
    }

    #[test]
    fn a_choice_made_by_default_is_recorded_unless_given() {
        let mut c = given("a", Value::from(true));
        assert_eq!(c.or_default("a", &["true"]), Some(Value::from(true)));
        assert_eq!(c.or_default("b", &["true"]), None);
        c.default_none_of("c", &ids(&["x", "y"]));
        c.default_none_of("c", &ids(&["x"]));
        c.default_order("a", &ids(&["x", "y"]));
        let d = c.take_defaulted();
        let keys: Vec<&str> = d.iter().map(|d| d.key.as_str()).collect();
        assert_eq!(keys, ["b", "c"]);
        assert_eq!(d[1].options, ids(&["x", "y"]));
        assert_eq!(d[1].shape, Some(Wanted::Pick(TargetCount::UpTo(2))));
        assert_eq!(d[1].default, Some(serde_json::json!([])));
        assert!(c.take_defaulted().is_empty());
        assert!(c.finish().is_ok());
    }

    #[test]
    fn one_id_takes_exactly_one() {
        let opts = vec!["x".to_string(), "y".to_string()];
        let mut c = Choices::new(BTreeMap::from([
            ("one".to_string(), Value::from("y")),
            ("two".to_string(), serde_json::json!(["x", "y"])),
        ]));
        assert_eq!(c.one_id("one", &opts).unwrap(), Some("y".to_string()));
        assert!(matches!(
            c.one_id("two", &opts),
            Err(EngineError::BadChoice { .. })
        ));
        assert_eq!(c.one_id("absent", &opts).unwrap(), None);
    }

    /// A choice given for one pass (`key@n`) answers on that pass of a
    /// loop the game declared, the bare key on every other; a pass never
    /// reached is unused; a suffix naming no pass is told apart.
    #[test]
    fn a_choice_given_for_a_pass_answers_on_that_pass_only() {
        let given = BTreeMap::from([
            ("k".to_string(), Value::from(1)),
            ("k@3".to_string(), Value::from(2)),
            ("k@5".to_string(), Value::from(3)),
        ]);
        let mut c = Choices::new(given);
        assert_eq!(c.take("k"), Some(Value::from(1)));
        c.set_pass(2);
        assert_eq!(c.take("k"), Some(Value::from(1)));
        c.set_pass(3);
        assert_eq!(c.take("k"), Some(Value::from(2)));
        assert_eq!(c.take("k"), Some(Value::from(2)), "read twice in a pass");
        c.set_pass(0);
        assert_eq!(c.take("k"), Some(Value::from(1)));
        assert!(matches!(c.finish(), Err(EngineError::UnusedChoice { choice }) if choice == "k@5"));
        assert_eq!(key_pass("k@3"), Some(Ok(3)));
        assert_eq!(key_pass("k@1"), Some(Err("1".into())));
        assert_eq!(key_pass("k@x"), Some(Err("x".into())));
        assert_eq!(key_pass("k"), None);
    }

    /// A choice that belongs to one player's decision: unaddressed on that
    /// player's own action or on an action naming no player, addressed on
    /// any action; unaddressed on another player's action it is refused,
    /// and a missing one names the key to write.
    #[test]
    fn a_declared_decider_reads_every_helper_s_key_as_the_deciders() {
        let given = || BTreeMap::from([("order".to_string(), Value::Bool(true))]);
        // On the decider's own action: read bare.
        let mut own = Choices::of_action(given(), Some(PlayerId::P1));
        own.decided_by(Some(PlayerId::P1));
        assert_eq!(own.take("order"), Some(Value::Bool(true)));
        assert!(own.misplaced().is_none());
        // On the other player's action: bare is not read, and is misplaced.
        let mut other = Choices::of_action(given(), Some(PlayerId::P2));
        assert_eq!(other.decided_by(Some(PlayerId::P1)), None);
        assert_eq!(other.take("order"), None);
        assert_eq!(other.shown("order"), "p1.order");
        assert!(matches!(
            other.misplaced(),
            Some(EngineError::ChoiceOfAnotherPlayer { addressed, .. }) if addressed == "p1.order"
        ));
        // Addressed: read; the decider restored, a bare key reads again.
        let addressed = BTreeMap::from([
            ("p1.order".to_string(), Value::Bool(false)),
            ("x".to_string(), Value::Bool(true)),
        ]);
        let mut other = Choices::of_action(addressed, Some(PlayerId::P2));
        other.decided_by(Some(PlayerId::P1));
        assert_eq!(other.take("order"), Some(Value::Bool(false)));
        assert_eq!(other.decided_by(None), Some(PlayerId::P1));
        assert_eq!(other.take("x"), Some(Value::Bool(true)));
        assert!(other.misplaced().is_none() && other.finish().is_ok());
    }

    /// On an action that names no player, the decider's addressed key is
    /// read (the address says whose choice it is), and a bare key too.
    #[test]
    fn an_action_naming_no_player_may_address_the_decider() {
        let addressed = BTreeMap::from([("p2.graze".to_string(), Value::Bool(true))]);
        let mut c = Choices::of_action(addressed, None);
        c.decided_by(Some(PlayerId::P2));
        assert_eq!(c.take("graze"), Some(Value::Bool(true)));
        assert!(c.misplaced().is_none() && c.finish().is_ok());
        let bare = BTreeMap::from([("graze".to_string(), Value::Bool(false))]);
        let mut c = Choices::of_action(bare, None);
        c.decided_by(Some(PlayerId::P2));
        assert_eq!(c.take("graze"), Some(Value::Bool(false)));
        assert!(c.misplaced().is_none());
    }

    /// A missing choice under a declared decider names the key to write on
    /// this action: addressed on another player's action, bare on the
    /// decider's own; an addressed key on the decider's own action is not
    /// theirs to read there (strict mode reports it unused).
    #[test]
    fn a_missing_decided_choice_names_the_key_to_write() {
        let mut none = Choices::of_action(BTreeMap::new(), Some(PlayerId::P1));
        none.decided_by(Some(PlayerId::P2));
        assert!(matches!(
            none.require("graze", &["true", "false"]),
            Err(EngineError::MissingChoice { choice, .. }) if choice == "p2.graze"
        ));
        let mut own = Choices::of_action(BTreeMap::new(), Some(PlayerId::P2));
        own.decided_by(Some(PlayerId::P2));
        assert!(matches!(
            own.require("graze", &["true", "false"]),
            Err(EngineError::MissingChoice { choice, .. }) if choice == "graze"
        ));
        let addressed = BTreeMap::from([("p2.graze".to_string(), Value::Bool(true))]);
        let mut own = Choices::of_action(addressed, Some(PlayerId::P2));
        own.decided_by(Some(PlayerId::P2));
        assert_eq!(own.take("graze"), None);
        assert!(matches!(
            own.finish(),
            Err(EngineError::UnusedChoice { choice }) if choice == "p2.graze"
        ));
    }
}

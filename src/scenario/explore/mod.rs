//! `judge explore`: every legal way to make the decisions a scenario leaves
//! open, run and grouped by outcome.
//!
//! The engine is strict: a decision the file does not make stops the run
//! with `MissingChoice` (its options, and its shape when the helper that
//! asked knows it), and a random draw past a strict script of results is
//! reported in [`Open::random`](crate::engine::Open). Exploring is therefore
//! a search over re-runs: run a branch, and where it stopped at an open
//! decision, fork one branch per way to make it ([`domain`]), with the
//! engine judging each (a value it refuses as input, or an action it
//! rejects because of the choice, is not a legal way). Responses are the
//! file's candidate actions (`responses`) inserted before any of its
//! actions. Branches given identical decisions are run once; branches that
//! end identically (final state, result, rejections, stop error) are merged
//! into one outcome ([`group`]).

pub mod domain;
pub mod group;

use std::collections::{BTreeMap, BTreeSet, HashMap, VecDeque};

use serde::Serialize;
use serde_json::Value;

use super::Loaded;
use super::format::ActionDef;
use crate::engine::{Action, EngineError, Fingerprint, Outcome, Plan, StopError};
pub use group::{Ending, Group};

/// Where an action of a branch comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "from", content = "index", rename_all = "snake_case")]
pub enum Origin {
    /// The file's `actions[i]`.
    Action(usize),
    /// The file's `responses[i]`, inserted.
    Response(usize),
}

/// One decision a branch made.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "decision", rename_all = "snake_case")]
pub enum Decision {
    /// A choice the engine asked for, given on an action.
    Choice {
        /// The action it is given on.
        on: Origin,
        /// The choice's name.
        key: String,
        /// The value given.
        value: Value,
    },
    /// The result of a random draw (0-based index among `of` results).
    Random { draw: usize, of: u64, value: u64 },
    /// A candidate response inserted before the file's `actions[before]`
    /// (`before` = the number of actions: after the last).
    Response { response: usize, before: usize },
    /// A choice the rules make by default, left to them (not given).
    Default {
        /// The action it is read on.
        on: Origin,
        /// The choice's name.
        key: String,
    },
}

impl Decision {
    /// What was decided, without the answer: rows group answers by it.
    pub fn label(&self, loaded: &Loaded) -> String {
        match self {
            Decision::Choice { on, key, .. } | Decision::Default { on, key } => {
                format!("{} `{key}`", origin_label(loaded, *on))
            }
            Decision::Random { draw, of, .. } => {
                format!("random draw {} (result 0 to {})", draw + 1, of - 1)
            }
            Decision::Response { response, .. } => {
                origin_label(loaded, Origin::Response(*response))
            }
        }
    }

    /// The answer.
    pub fn answer(&self, loaded: &Loaded) -> String {
        match self {
            Decision::Choice { value, .. } => value.to_string(),
            Decision::Default { .. } => "(not given: the rules' default)".to_string(),
            Decision::Random { value, .. } => value.to_string(),
            Decision::Response { before, .. } => {
                if *before < loaded.scenario.actions.len() {
                    format!("before action {before}")
                } else {
                    "after the last action".to_string()
                }
            }
        }
    }
}

/// "action 2 (play c1)" / "response 0 (play q)".
pub fn origin_label(loaded: &Loaded, o: Origin) -> String {
    let (word, i, def) = match o {
        Origin::Action(i) => ("action", i, loaded.scenario.actions.get(i)),
        Origin::Response(i) => ("response", i, loaded.scenario.responses.get(i)),
    };
    match def {
        Some(d) => format!("{word} {i} ({})", describe(d)),
        None => format!("{word} {i}"),
    }
}

fn describe(d: &ActionDef) -> String {
    [Some(&d.kind), d.card.as_ref(), d.target.as_ref()]
        .into_iter()
        .flatten()
        .cloned()
        .collect::<Vec<_>>()
        .join(" ")
}

/// How far to explore.
#[derive(Debug, Clone, Copy)]
pub struct Settings {
    /// The most branches (runs) to make.
    pub max_branches: usize,
}

/// One explored branch that reached an outcome.
#[derive(Debug, Clone, Serialize)]
pub struct Branch {
    /// The decisions it made, in the order the engine met them.
    pub path: Vec<Decision>,
    /// Its actions, as scenario actions (choices filled, responses in).
    #[serde(skip)]
    pub actions: Vec<ActionDef>,
    /// Its random results, for the scenario's `random`.
    #[serde(skip)]
    pub random: Vec<u64>,
    /// The index of its outcome in [`Exploration::groups`].
    pub outcome: usize,
    /// Its rejected actions (index in `actions`, rule).
    #[serde(skip)]
    pub rejected: Vec<(usize, &'static str)>,
}

/// What `judge explore` found.
#[derive(Debug, Clone, Serialize)]
pub struct Exploration {
    /// Runs made (the branches tried, legal or not).
    pub runs: usize,
    /// Branches that reached an outcome.
    pub branches: Vec<Branch>,
    /// The distinct outcomes, in the order first reached.
    pub groups: Vec<Group>,
    /// Branches that were not legal ways, counted by why.
    pub not_legal: BTreeMap<String, usize>,
    /// Branches given the same decisions as one already run (run once).
    pub duplicates: usize,
    /// Runs whose state, before the action of their next decision, was
    /// that of a fork already explored: that fork's branches were taken
    /// onto their decisions instead of being run again.
    pub merged: usize,
    /// Whether `max_branches` stopped the search before the end.
    pub truncated: bool,
}

/// The action field a game may ask for like a choice.
const TARGET: &str = "target";

/// A branch to run.
#[derive(Debug, Clone)]
struct Input {
    actions: Vec<Action>,
    defs: Vec<ActionDef>,
    origin: Vec<Origin>,
    random: Vec<u64>,
    path: Vec<Decision>,
    /// The options of the last choice made (for another form of it).
    options: Vec<String>,
    /// How many other forms of the last choice's value are left to try
    /// when the engine refuses it (0 for a shaped, exact value).
    forms_left: u8,
    /// The forks it descends from (indices in `Found::forks`), so that a
    /// branch it reaches is also reached by every branch merged into them.
    ancestry: Vec<usize>,
    /// The choices made by default that it leaves to the rules (action,
    /// choice), in the order met.
    kept: Vec<(usize, String)>,
    /// The action of its parent's fork (0 for a root): its own decisions
    /// are there or later.
    from: usize,
}

impl Input {
    /// The decisions that identify it (for running each once).
    fn key(&self) -> String {
        let choices: Vec<(&Origin, &Option<String>, &BTreeMap<String, Value>)> = self
            .origin
            .iter()
            .zip(&self.actions)
            .map(|(o, a)| (o, &a.target, &a.choices))
            .collect();
        serde_json::to_string(&(choices, &self.random, &self.kept)).unwrap_or_default()
    }

    /// This branch leaving choice `key` on action `i` to the rules.
    fn keeping(&self, i: usize, key: &str) -> Input {
        let mut next = self.clone();
        next.kept.push((i, key.to_string()));
        next.path.push(Decision::Default {
            on: self.origin[i],
            key: key.to_string(),
        });
        next
    }

    /// This branch with choice `key` = `value` on action `i`. An action
    /// without a `target` that the engine asks a `target` for gets it
    /// there (the action's own field, not a choice).
    fn with_choice(&self, i: usize, key: &str, value: Value, replace: bool) -> Input {
        let mut next = self.clone();
        match value.as_str() {
            Some(t) if key == TARGET && self.actions[i].target.is_none() => {
                next.actions[i].target = Some(t.to_string());
                next.defs[i].target = Some(t.to_string());
            }
            _ => {
                next.actions[i].choices.insert(key.into(), value.clone());
                next.defs[i].choices.insert(key.into(), value.clone());
            }
        }
        let d = Decision::Choice {
            on: self.origin[i],
            key: key.into(),
            value,
        };
        let same = |p: &Decision| matches!(p, Decision::Choice { on, key: k, .. } if *on == self.origin[i] && k == key);
        match next.path.iter().position(same) {
            Some(j) if replace => next.path[j] = d,
            _ => next.path.push(d),
        }
        next
    }
}

/// Explores `loaded` within `settings`; `responses` are its candidate
/// responses, loaded ([`crate::scenario::load::responses`]).
pub fn explore(loaded: &Loaded, responses: &[Action], settings: Settings) -> Exploration {
    let plan = Plan {
        final_state: true,
        ..Plan::none()
    };
    let mut queue: VecDeque<Input> = roots(loaded, responses, settings.max_branches + 1).into();
    let mut seen = BTreeSet::new();
    let mut found = Found::default();
    let mut runs = 0;
    while let Some(input) = queue.pop_front() {
        if !seen.insert(input.key()) {
            found.duplicates += 1;
            continue;
        }
        if runs == settings.max_branches {
            queue.push_front(input);
            break;
        }
        runs += 1;
        let mut game = loaded.game.clone();
        game.rng.script(input.random.clone(), true);
        // Its next decision is at its parent's action or later.
        let plan = Plan {
            fingerprints_from: Some(input.from),
            ..plan.clone()
        };
        let outcome = loaded.module.run_planned(game, &input.actions, &plan);
        // One more answer than runs are left, so a cut shows as a search
        // stopped by the bound.
        let cap = settings.max_branches - runs + 1;
        found.settle(loaded, input, &outcome, cap, &mut queue);
    }
    Exploration {
        runs,
        branches: found.branches,
        groups: found.groups,
        not_legal: found.not_legal,
        duplicates: found.duplicates,
        merged: found.merged,
        truncated: !queue.is_empty(),
    }
}

/// What a fork reached: a branch, or a way that was not legal (why).
#[derive(Debug, Clone)]
enum Reached {
    Branch(usize),
    NotLegal(String),
}

/// A fork explored: where it stood, and what its branches reached.
#[derive(Debug, Clone)]
struct Forked {
    /// The branch that forked (its decisions and actions).
    input: Input,
    /// Everything its descendants reached.
    reached: Vec<Reached>,
}

/// The identity of a fork's state: the action at which it forks, the
/// state's fingerprint before that action, where every action comes
/// from, and the actions from there on with their choices. Two runs with
/// equal identities go on identically under equal further decisions.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct Point {
    at: usize,
    state: Fingerprint,
    /// The actions from `at` on, the origins of all, and the choices left
    /// to the rules during action `at`.
    rest: String,
}

#[derive(Default)]
struct Found {
    branches: Vec<Branch>,
    groups: Vec<Group>,
    /// Outcome by its ending's key (looked up only: the order is `groups`).
    index: HashMap<String, usize>,
    not_legal: BTreeMap<String, usize>,
    duplicates: usize,
    /// The forks explored, and each by its state's identity.
    forks: Vec<Forked>,
    points: HashMap<Point, usize>,
    /// Runs whose state was a fork's already explored (their branches
    /// taken from it).
    merged: usize,
}

impl Found {
    /// What follows `input`'s run `outcome`: its earliest open decision
    /// made every way (children queued, depth first), a choice made by
    /// default also left to the rules (the same run goes on to its next
    /// decision), or the branch's end.
    fn settle(
        &mut self,
        loaded: &Loaded,
        mut input: Input,
        outcome: &Outcome,
        cap: usize,
        queue: &mut VecDeque<Input>,
    ) {
        loop {
            let (at, children, kept) = match fork(&input, outcome, cap) {
                Fork::Children(at, children) => (at, children, None),
                Fork::Default(at, children, key) => (Some(at), children, Some(key)),
                Fork::NotLegal(why) => return self.not_legal(&input.ancestry, why),
                Fork::Leaf => {
                    let branch = self.branch(loaded, input.clone(), outcome);
                    return self.reach(&input.ancestry, Reached::Branch(branch));
                }
            };
            let Some(fork) = self.fork(&input, outcome, at) else {
                // The same state as a fork already explored, before the
                // same decisions: its branches, not new runs.
                return;
            };
            // Depth first, in the order of the options.
            for mut c in children.into_iter().rev() {
                c.ancestry.push(fork);
                c.from = at.unwrap_or(0);
                queue.push_front(c);
            }
            let (Some(at), Some(key)) = (at, kept) else {
                return;
            };
            input = input.keeping(at, &key);
            input.ancestry.push(fork);
        }
    }

    /// Records a branch that reached an outcome, merged with any identical.
    fn branch(&mut self, loaded: &Loaded, input: Input, outcome: &Outcome) -> usize {
        let ending = Ending::of(loaded, &input.origin, outcome);
        let rejected = outcome
            .rejections
            .iter()
            .map(|r| (r.action, r.rule))
            .collect();
        self.add(ending.key(), Some(ending), input, rejected)
    }

    /// Adds a branch with `input`'s decisions to the outcome `key` (new,
    /// with `ending`, when not yet reached).
    fn add(
        &mut self,
        key: String,
        ending: Option<Ending>,
        input: Input,
        rejected: Vec<(usize, &'static str)>,
    ) -> usize {
        let n = self.groups.len();
        let g = *self.index.entry(key).or_insert(n);
        if g == n {
            self.groups.push(Group::new(ending.unwrap_or_else(|| {
                unreachable!("a branch copied from a fork has an outcome already reached")
            })));
        }
        let b = self.branches.len();
        self.groups[g].branches.push(b);
        self.branches.push(Branch {
            path: input.path,
            actions: input.defs,
            random: input.random,
            outcome: g,
            rejected,
        });
        b
    }

    /// A way that was not legal, below the forks of `ancestry`.
    fn not_legal(&mut self, ancestry: &[usize], why: String) {
        *self.not_legal.entry(why.clone()).or_default() += 1;
        self.reach(ancestry, Reached::NotLegal(why));
    }

    /// Records what a branch below the forks of `ancestry` reached.
    fn reach(&mut self, ancestry: &[usize], r: Reached) {
        for &f in ancestry {
            self.forks[f].reached.push(r.clone());
        }
    }

    /// The fork `input` makes at action `at` (its earliest open
    /// decision), numbered; `None` when a fork at the same point with the
    /// same state was explored: then what that fork reached is copied
    /// onto `input`'s decisions (merged), without running it again.
    fn fork(&mut self, input: &Input, outcome: &Outcome, at: Option<usize>) -> Option<usize> {
        let point = at.and_then(|at| {
            let state = outcome.open.fingerprints.get(at)?.clone()?;
            let rest: Vec<_> = input.actions[at..]
                .iter()
                .map(|a| (&a.target, &a.choices))
                .collect();
            let kept: Vec<&String> = input
                .kept
                .iter()
                .filter(|(i, _)| *i == at)
                .map(|(_, k)| k)
                .collect();
            let rest = serde_json::to_string(&(&input.origin, rest, kept)).ok()?;
            Some(Point { at, state, rest })
        });
        if let Some(&f) = point.as_ref().and_then(|p| self.points.get(p)) {
            self.merged += 1;
            self.copy(f, input, at.unwrap_or_default());
            return None;
        }
        let f = self.forks.len();
        self.forks.push(Forked {
            input: input.clone(),
            reached: Vec::new(),
        });
        if let Some(p) = point {
            self.points.insert(p, f);
        }
        Some(f)
    }

    /// What fork `f` reached, made again from `input`, whose state at
    /// action `at` is the fork's: the same decisions from there on.
    fn copy(&mut self, f: usize, input: &Input, at: usize) {
        let base = self.forks[f].input.clone();
        for r in self.forks[f].reached.clone() {
            match r {
                Reached::NotLegal(why) => self.not_legal(&input.ancestry, why),
                Reached::Branch(b) => {
                    let from = self.branches[b].clone();
                    let mut next = input.clone();
                    next.defs.truncate(at);
                    next.defs.extend(from.actions[at..].iter().cloned());
                    next.random.extend(&from.random[base.random.len()..]);
                    next.path = rebase(&input.path, &base.path, &from.path);
                    let key = self.groups[from.outcome].ending.key();
                    let nb = self.add(key, None, next, from.rejected);
                    self.reach(&input.ancestry, Reached::Branch(nb));
                }
            }
        }
    }
}

/// The decisions of a branch `from` below a fork whose own were `base`,
/// made from a branch whose own are `onto`: what `from` changed of
/// `base` (a choice given again, grown) and what it added.
fn rebase(onto: &[Decision], base: &[Decision], from: &[Decision]) -> Vec<Decision> {
    let mut path = onto.to_vec();
    for (x, d) in from.iter().enumerate() {
        if base.get(x) == Some(d) {
            continue;
        }
        let same = |p: &Decision| match (p, d) {
            (
                Decision::Choice { on, key, .. },
                Decision::Choice {
                    on: o2, key: k2, ..
                },
            ) => on == o2 && key == k2,
            _ => false,
        };
        match path.iter().position(same) {
            Some(y) if x < base.len() => path[y] = d.clone(),
            _ => path.push(d.clone()),
        }
    }
    path
}

/// The first branches: the file as it is, and with each plan of inserted
/// responses (each candidate at most once, at most one before each action).
fn roots(loaded: &Loaded, responses: &[Action], cap: usize) -> Vec<Input> {
    let base = Input {
        actions: loaded.actions.clone(),
        defs: loaded.scenario.actions.clone(),
        origin: (0..loaded.actions.len()).map(Origin::Action).collect(),
        random: loaded.scenario.random.clone(),
        path: Vec::new(),
        options: Vec::new(),
        forms_left: 0,
        ancestry: Vec::new(),
        kept: Vec::new(),
        from: 0,
    };
    let slots = loaded.actions.len() + 1;
    let mut plans: Vec<Vec<Option<usize>>> = vec![vec![None; responses.len()]];
    for r in 0..responses.len() {
        let mut more = Vec::new();
        for p in &plans {
            for slot in 0..slots {
                if !p.contains(&Some(slot)) && plans_len(&more, cap) {
                    let mut q = p.clone();
                    q[r] = Some(slot);
                    more.push(q);
                }
            }
        }
        plans.extend(more);
    }
    plans.truncate(cap);
    plans
        .iter()
        .map(|p| with_responses(loaded, responses, &base, p))
        .collect()
}

/// Whether more plans may be made (fewer than `cap`).
fn plans_len(plans: &[Vec<Option<usize>>], cap: usize) -> bool {
    plans.len() < cap
}

/// `base` with response `r` inserted before action `plan[r]`.
fn with_responses(
    loaded: &Loaded,
    responses: &[Action],
    base: &Input,
    plan: &[Option<usize>],
) -> Input {
    let mut out = Input {
        actions: Vec::new(),
        defs: Vec::new(),
        origin: Vec::new(),
        path: Vec::new(),
        ..base.clone()
    };
    for slot in 0..=base.actions.len() {
        if let Some(r) = plan.iter().position(|p| *p == Some(slot)) {
            out.actions.push(responses[r].clone());
            out.defs.push(loaded.scenario.responses[r].clone());
            out.origin.push(Origin::Response(r));
            out.path.push(Decision::Response {
                response: r,
                before: slot,
            });
        }
        if slot < base.actions.len() {
            out.actions.push(base.actions[slot].clone());
            out.defs.push(base.defs[slot].clone());
            out.origin.push(base.origin[slot]);
        }
    }
    out
}

/// What to do after running a branch.
enum Fork {
    /// Branches that make the run's earliest open decision, made during
    /// this action (`None`: before the first action).
    Children(Option<usize>, Vec<Input>),
    /// Branches that give a choice the rules made by default during this
    /// action (its other answers); the run itself goes on with the
    /// default, the choice's key left to the rules.
    Default(usize, Vec<Input>, String),
    NotLegal(String),
    Leaf,
}

/// The branches that continue `input` after its run `outcome`: its
/// earliest open decision (a random draw past the script, a choice the
/// rules made by default, the missing choice that stopped it) is made
/// every way.
fn fork(input: &Input, outcome: &Outcome, cap: usize) -> Fork {
    let open = &outcome.open;
    // Points in time: 0 before the first action, i + 1 during action i;
    // none is after every point.
    let never = usize::MAX;
    let defaulted = open
        .defaulted
        .iter()
        .find(|(i, d)| !input.kept.iter().any(|(j, k)| j == i && *k == d.key));
    let default_at = defaulted.map_or(never, |(i, _)| i + 1);
    if let Some(of) = open.random {
        let random_at = open.random_at.map_or(0, |i| i + 1);
        if random_at <= default_at {
            return random(input, of, open.random_at, cap);
        }
    }
    let stopped = match &outcome.error {
        Some(StopError {
            action: Some(i),
            error,
        }) => Some((*i, error)),
        _ => None,
    };
    let stop_at = stopped.map_or(never, |(i, e)| {
        // A choice refused or missing there is made before the default.
        let choice = matches!(
            e,
            EngineError::MissingChoice { .. } | EngineError::BadChoice { .. }
        );
        i + 1 + usize::from(!choice)
    });
    let rejected_response = first_rejected_response(input, outcome);
    let rejected_at = rejected_response.as_ref().map_or(never, |(r, _)| r + 2);
    if let Some((i, d)) = defaulted
        && default_at < stop_at
        && default_at < rejected_at
    {
        let children = match missing(input, *i, &d.key, &d.options, d.shape, cap) {
            Fork::Children(_, c) => c
                .into_iter()
                .filter(|c| !gives(c, *i, &d.key, d.default.as_ref()))
                .collect(),
            _ => Vec::new(),
        };
        return Fork::Default(*i, children, d.key.clone());
    }
    if let Some((_, why)) = rejected_response {
        return Fork::NotLegal(why);
    }
    let Some((i, error)) = stopped else {
        return Fork::Leaf;
    };
    at(
        Some(i),
        match error {
            EngineError::MissingChoice { choice, options } => {
                missing(input, i, choice, options, open.choice, cap)
            }
            EngineError::BadChoice {
                choice, options, ..
            } => refused(input, i, choice, options, cap),
            _ => Fork::Leaf,
        },
    )
}

/// Whether branch `c` gives choice `key` on action `i` the value `v`.
fn gives(c: &Input, i: usize, key: &str, v: Option<&Value>) -> bool {
    v.is_some_and(|v| c.defs[i].choices.get(key) == Some(v))
}

/// `f` with its children made at action `i`.
fn at(i: Option<usize>, f: Fork) -> Fork {
    match f {
        Fork::Children(_, c) => Fork::Children(i, c),
        f => f,
    }
}

/// One branch per result of the first draw past the script (`of`
/// results), made during action `at`.
fn random(input: &Input, of: u64, at: Option<usize>, cap: usize) -> Fork {
    let draw = input.random.len();
    Fork::Children(
        at,
        (0..of)
            .take(cap)
            .map(|value| {
                let mut next = input.clone();
                next.random.push(value);
                next.path.push(Decision::Random { draw, of, value });
                next
            })
            .collect(),
    )
}

/// A rejected response (its action, why): it cannot be made there, so
/// the branch is not a legal way. (An action of the file rejected because
/// of a choice is an outcome: the engine rules that choice illegal,
/// citing the rule.)
fn first_rejected_response(input: &Input, outcome: &Outcome) -> Option<(usize, String)> {
    outcome
        .rejections
        .iter()
        .find(|r| matches!(input.origin[r.action], Origin::Response(_)))
        .map(|r| {
            (
                r.action,
                format!("the response is rejected there ({})", r.rule),
            )
        })
}

/// The engine asks for choice `key` on action `i`.
fn missing(
    input: &Input,
    i: usize,
    key: &str,
    options: &[String],
    wanted: Option<crate::engine::Wanted>,
    cap: usize,
) -> Fork {
    let made = input.path.iter().any(
        |d| matches!(d, Decision::Choice { on, key: k, .. } if *on == input.origin[i] && k == key),
    );
    if let Some(given) = input.actions[i].choices.get(key) {
        // Asked again: a list taken one item at a time grows (an order),
        // unless the file itself gave the choice.
        if !made {
            return Fork::Leaf;
        }
        let next = domain::extend(given, options);
        if next.is_empty() {
            return Fork::NotLegal(format!("the engine does not take choice `{key}`"));
        }
        return Fork::Children(
            None,
            next.into_iter()
                .map(|v| input.with_choice(i, key, v, true))
                .collect(),
        );
    }
    if wanted.is_none() && domain::described(options) {
        // Described, not listed ("a whole number, 0 or more"): the branch
        // ends here, its outcome the engine's request for the choice.
        return Fork::Leaf;
    }
    let values = domain::candidates(options, wanted, cap);
    if values.is_empty() {
        return Fork::Leaf;
    }
    Fork::Children(
        None,
        values
            .into_iter()
            .map(|v| {
                let mut c = input.with_choice(i, key, v, false);
                c.options = options.to_vec();
                c.forms_left = if wanted.is_some() { 0 } else { 2 };
                c
            })
            .collect(),
    )
}

/// The engine refused the value this search gave choice `key` on action
/// `i`: try the value's other forms once, else it is not a legal way.
fn refused(input: &Input, i: usize, key: &str, described: &[String], cap: usize) -> Fork {
    // The last decision made (a choice left to the rules since is not one).
    let made = input
        .path
        .iter()
        .rfind(|d| !matches!(d, Decision::Default { .. }));
    let last = match made {
        Some(Decision::Choice { on, key: k, value }) if *on == input.origin[i] && k == key => value,
        _ => return Fork::Leaf,
    };
    let values = match input.forms_left {
        0 => Vec::new(),
        2 => domain::instead(last, described, &input.options, cap),
        _ => domain::arrangements(&input.options),
    };
    if values.is_empty() {
        return Fork::NotLegal(format!(
            "a form of choice `{key}` the engine refuses as input"
        ));
    }
    Fork::Children(
        None,
        values
            .into_iter()
            .map(|v| {
                let mut c = input.with_choice(i, key, v, true);
                c.forms_left = input.forms_left - 1;
                c
            })
            .collect(),
    )
}

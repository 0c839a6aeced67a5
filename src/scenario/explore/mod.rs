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
use crate::engine::{Action, EngineError, Outcome, Plan, StopError};
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
}

impl Decision {
    /// What was decided, without the answer: rows group answers by it.
    pub fn label(&self, loaded: &Loaded) -> String {
        match self {
            Decision::Choice { on, key, .. } => format!("{} `{key}`", origin_label(loaded, *on)),
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
    /// tried in its other form).
    forms_left: u8,
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
        serde_json::to_string(&(choices, &self.random)).unwrap_or_default()
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
        let outcome = loaded.module.run_planned(game, &input.actions, &plan);
        // One more answer than runs are left, so a cut shows as a search
        // stopped by the bound.
        let cap = settings.max_branches - runs + 1;
        match fork(&input, &outcome, cap) {
            Fork::Children(children) => {
                // Depth first, in the order of the options.
                for c in children.into_iter().rev() {
                    queue.push_front(c);
                }
            }
            Fork::NotLegal(why) => *found.not_legal.entry(why).or_default() += 1,
            Fork::Leaf => found.leaf(loaded, input, &outcome),
        }
    }
    Exploration {
        runs,
        branches: found.branches,
        groups: found.groups,
        not_legal: found.not_legal,
        duplicates: found.duplicates,
        truncated: !queue.is_empty(),
    }
}

#[derive(Default)]
struct Found {
    branches: Vec<Branch>,
    groups: Vec<Group>,
    /// Outcome by its ending's key (looked up only: the order is `groups`).
    index: HashMap<String, usize>,
    not_legal: BTreeMap<String, usize>,
    duplicates: usize,
}

impl Found {
    /// Records a branch that reached an outcome, merged with any identical.
    fn leaf(&mut self, loaded: &Loaded, input: Input, outcome: &Outcome) {
        let ending = Ending::of(loaded, &input.origin, outcome);
        let key = ending.key();
        let n = self.groups.len();
        let g = *self.index.entry(key).or_insert(n);
        if g == n {
            self.groups.push(Group::new(ending));
        }
        self.groups[g].branches.push(self.branches.len());
        self.branches.push(Branch {
            path: input.path,
            actions: input.defs,
            random: input.random,
            outcome: g,
            rejected: outcome
                .rejections
                .iter()
                .map(|r| (r.action, r.rule))
                .collect(),
        });
    }
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
    Children(Vec<Input>),
    NotLegal(String),
    Leaf,
}

/// The branches that continue `input` after its run `outcome`.
fn fork(input: &Input, outcome: &Outcome, cap: usize) -> Fork {
    if let Some(of) = outcome.open.random {
        let draw = input.random.len();
        return Fork::Children(
            (0..of)
                .take(cap)
                .map(|value| {
                    let mut next = input.clone();
                    next.random.push(value);
                    next.path.push(Decision::Random { draw, of, value });
                    next
                })
                .collect(),
        );
    }
    if let Some(why) = not_legal(input, outcome) {
        return Fork::NotLegal(why);
    }
    let Some(StopError {
        action: Some(i),
        error,
    }) = &outcome.error
    else {
        return Fork::Leaf;
    };
    match error {
        EngineError::MissingChoice { choice, options } => {
            missing(input, *i, choice, options, outcome.open.choice, cap)
        }
        EngineError::BadChoice {
            choice, options, ..
        } => refused(input, *i, choice, options, cap),
        _ => Fork::Leaf,
    }
}

/// A rejected response: it cannot be made there, so the branch is not a
/// legal way. (An action of the file rejected because of a choice is an
/// outcome: the engine rules that choice illegal, citing the rule.)
fn not_legal(input: &Input, outcome: &Outcome) -> Option<String> {
    outcome
        .rejections
        .iter()
        .find(|r| matches!(input.origin[r.action], Origin::Response(_)))
        .map(|r| format!("the response is rejected there ({})", r.rule))
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
    let last = match input.path.last() {
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

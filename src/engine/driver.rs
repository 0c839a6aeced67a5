//! The one driver every game runs on: it takes a scenario's actions one by
//! one, applies each atomically (rolled back when illegal), records
//! rejections, keeps the checkpoints the expectations need, stops on an
//! error and enforces the step budget per action.
//!
//! A game supplies only its rules, as a [`Rules`] value: what runs before
//! the first action, one step of its procedures, how it takes an action at
//! the step that awaits it, who is awaited, and the boards it cannot rule
//! on. Nothing here knows a game's steps, phases or clauses.

use std::collections::BTreeSet;

use serde_json::Value;

use super::machine::{Choices, EngineError, Flow, Machine};
use super::state::{Card, Game, GameResult, PlayerId};
use super::{Action, Fingerprint, Open, Outcome, Rejection, StopError, result_word, snapshot_of};

/// The hooks a game gives the driver. Every hook that changes state runs
/// inside the action's atomic scope unless its doc says otherwise, so an
/// [`EngineError::Illegal`] anywhere rolls the whole action back.
pub trait Rules {
    /// The game's procedure steps (one variant per rules procedure).
    type Step: Clone + std::fmt::Debug;

    /// Completes the board the scenario left implicit (states the rules
    /// give by default), before the checks. Default: nothing.
    fn prepare(&self, _game: &mut Game) {}

    /// Pre-run checks: a board or card text the game cannot rule on is an
    /// error before anything runs (usually `NotImplemented` citing the
    /// clause, or `BadAction` for an impossible board).
    fn check(&self, _game: &Game) -> Result<(), EngineError> {
        Ok(())
    }

    /// Schedules what runs before the first action (the rest of the phase
    /// the scenario starts in) with [`Machine::then`]; an error when the
    /// scenario cannot start there.
    fn start(&self, m: &mut Machine<Self::Step>) -> Result<(), EngineError>;

    /// Runs one step: records its trace entry, changes the state, schedules
    /// what follows; returns [`Flow::Await`] after pushing itself back when
    /// it needs a player's decision.
    fn step(&self, m: &mut Machine<Self::Step>, s: Self::Step) -> Result<Flow, EngineError>;

    /// The player the awaiting step (the top of the stack) waits for, or
    /// `None` when nothing awaits an action. The driver refuses an action
    /// when this is `None`; the default reads "someone" from a non-empty
    /// stack, so a game that does not track it still gets that check.
    fn awaited(&self, m: &Machine<Self::Step>) -> Option<PlayerId> {
        (!m.stack.is_empty()).then_some(m.game.turn.active)
    }

    /// Takes one scenario action at the awaiting step (popping it and
    /// pushing back what continues). The driver has already recorded the
    /// action's note and set its choices; it runs the steps afterwards.
    fn act(&self, m: &mut Machine<Self::Step>, a: &Action) -> Result<(), EngineError>;

    /// Runs after the steps have settled at a decision, knowing the next
    /// action: before the first action, after each accepted action (inside
    /// its atomic scope) and after a rejection (outside it). SVE passes the
    /// Quick windows the next action does not answer. Default: nothing.
    fn settle(
        &self,
        _m: &mut Machine<Self::Step>,
        _next: Option<&Action>,
    ) -> Result<(), EngineError> {
        Ok(())
    }

    /// What is in progress at the awaiting decision, in the shape the
    /// game reads back from a scenario's `state.in_progress` (and checks
    /// with `GameModule::check_in_progress`): `None` when the game cannot
    /// describe it (a dump then starts at the phase's beginning).
    /// Default: `None`.
    fn in_progress(&self, _m: &Machine<Self::Step>) -> Option<Value> {
        None
    }

    /// A card's current characteristics for snapshots (after modifiers).
    fn derived(&self, game: &Game, card: &Card) -> Vec<(&'static str, i64)>;
}

/// Which snapshots a run keeps. A snapshot is a JSON tree of the whole
/// state, so a run keeps only those its reader needs: the expectations of a
/// check, or everything for `judge run --json`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Plan {
    /// Keep the state after every action.
    pub every_action: bool,
    /// Keep the state after these actions (indices in `actions`).
    pub after: BTreeSet<usize>,
    /// Keep the final state.
    pub final_state: bool,
    /// Build only the parts of each snapshot this shape names (the union
    /// of the expected states): `None` builds the whole state. Comparing
    /// an expectation reads only the keys it names, so a pruned snapshot
    /// gives the same verdict for less work.
    pub interest: Option<Value>,
    /// Keep the whole state (the engine's, not a snapshot) after this
    /// action, in [`Outcome::open`] (`judge run --dump-at`).
    pub game_after: Option<usize>,
    /// Keep a fingerprint of the whole state before each action from this
    /// one on (0: before the first action too; [`Open::fingerprints`],
    /// `judge explore`).
    pub fingerprints_from: Option<usize>,
}

impl Plan {
    /// Every checkpoint and the final state.
    pub fn all() -> Self {
        Plan {
            every_action: true,
            final_state: true,
            ..Plan::default()
        }
    }

    /// No snapshot at all (the trace, rejections and result only).
    pub fn none() -> Self {
        Plan::default()
    }

    /// Whether the state after action `i` is kept.
    pub fn keeps(&self, i: usize) -> bool {
        self.every_action || self.after.contains(&i)
    }
}

/// Runs `actions` on `game` with `rules`, keeping the snapshots `plan`
/// names.
pub fn run<R: Rules>(rules: &R, mut game: Game, actions: &[Action], plan: &Plan) -> Outcome {
    rules.prepare(&mut game);
    let mut d = Driver {
        rules,
        plan,
        m: Machine::new(game),
        rejections: Vec::new(),
        checkpoints: Vec::new(),
        kept: None,
        open: Open::default(),
        random_found: false,
    };
    let error = d
        .check_and_start(actions)
        .err()
        .or_else(|| d.actions(actions).err());
    let Driver {
        m,
        rejections,
        checkpoints,
        kept,
        open,
        ..
    } = d;
    let state = if plan.final_state {
        snapshot_of(&m.game, &|g, c| rules.derived(g, c), plan.interest.as_ref())
    } else {
        Value::Null
    };
    let open = Open {
        random: m.game.rng.wanted(),
        choice: match &error {
            Some(StopError {
                error: EngineError::MissingChoice { choice, .. },
                ..
            }) => m.choices.wanted(choice),
            _ => None,
        },
        game: kept,
        ..open
    };
    Outcome {
        state,
        result: result_word(&m.game.result),
        trace: m.trace,
        rejections,
        checkpoints,
        error,
        steps: m.steps,
        open,
    }
}

struct Driver<'a, R: Rules> {
    rules: &'a R,
    plan: &'a Plan,
    m: Machine<R::Step>,
    rejections: Vec<Rejection>,
    checkpoints: Vec<Option<Value>>,
    /// The state after the action `plan.game_after` names.
    kept: Option<Box<Game>>,
    /// What the run left open so far: choices made by default, where the
    /// first unscripted draw was, the fingerprints.
    open: Open,
    /// Whether a draw past a strict script was made yet.
    random_found: bool,
}

impl<R: Rules> Driver<'_, R> {
    /// The pre-run checks, then the steps before the first action.
    fn check_and_start(&mut self, actions: &[Action]) -> Result<(), StopError> {
        let before = |error| StopError {
            action: None,
            error,
        };
        self.rules.check(&self.m.game).map_err(before)?;
        self.rules.start(&mut self.m).map_err(before)?;
        let rules = self.rules;
        self.m.begin_action(None);
        self.m.run(|m, s| rules.step(m, s)).map_err(before)?;
        self.rules
            .settle(&mut self.m, actions.first())
            .map_err(before)?;
        self.m.check_end().map_err(before)?;
        self.fingerprint(0);
        self.random_found = self.m.game.rng.wanted().is_some();
        random_fits(&self.m).map_err(before)
    }

    /// The fingerprint of the state now (before action `next`), if the
    /// plan keeps it.
    fn fingerprint(&mut self, next: usize) {
        if let Some(from) = self.plan.fingerprints_from {
            let f = (next >= from).then(|| fingerprint(&self.m, &self.rejections));
            self.open.fingerprints.push(f);
        }
    }

    /// Every action in turn; a stop error ends the run.
    fn actions(&mut self, actions: &[Action]) -> Result<(), StopError> {
        for (i, a) in actions.iter().enumerate() {
            if self.m.game.result != GameResult::Ongoing {
                return Err(StopError {
                    action: Some(i),
                    error: EngineError::GameOver {
                        result: result_word(&self.m.game.result),
                        action: i,
                    },
                });
            }
            let r = self.action(i, a, actions.get(i + 1));
            self.checkpoint(i);
            r.map_err(|error| StopError {
                action: Some(i),
                error,
            })?;
        }
        Ok(())
    }

    /// What one action does, inside [`Driver::action`]'s atomic run.
    fn apply(
        rules: &R,
        m: &mut Machine<R::Step>,
        a: &Action,
        next: Option<&Action>,
    ) -> Result<(), EngineError> {
        if rules.awaited(m).is_none() {
            return Err(EngineError::BadAction {
                message: "the engine is not waiting for an action (nothing is left to do)".into(),
            });
        }
        if let Some(n) = &a.note {
            m.record("note", format!("note: {n}"), &[]);
        }
        rules.act(m, a)?;
        m.run(|m, s| rules.step(m, s))?;
        rules.settle(m, next)?;
        m.check_end()?;
        random_fits(m)?;
        m.choices.finish()
    }

    /// One action: applied atomically; an illegal one is recorded as a
    /// rejection and the state is as before it.
    fn action(&mut self, i: usize, a: &Action, next: Option<&Action>) -> Result<(), EngineError> {
        let rules = self.rules;
        self.m.begin_action(Some(i));
        self.m.choices = Choices::of_action(a.choices.clone(), a.player);
        let r = self.m.atomically(|m| {
            let r = Self::apply(rules, m, a, next);
            // Issue 13: a choice written on another player's action than
            // its decider's fails the action, whatever came of it.
            match m.choices.misplaced() {
                Some(e) => Err(e),
                None => r,
            }
        });
        let defaulted = self.m.choices.take_defaulted();
        self.open
            .defaulted
            .extend(defaulted.into_iter().map(|d| (i, d)));
        match r {
            Err(EngineError::Illegal {
                rule,
                also,
                message,
                alternatives,
            }) => {
                self.reject(i, a, (rule, also), message, alternatives);
                self.m.choices = Choices::default();
                self.rules.settle(&mut self.m, next)
            }
            r => r,
        }
    }

    fn reject(
        &mut self,
        i: usize,
        a: &Action,
        (rule, also): (&'static str, Vec<&'static str>),
        message: String,
        mut alternatives: Vec<String>,
    ) {
        let cited: Vec<&'static str> = std::iter::once(rule).chain(also.iter().copied()).collect();
        // "Legal instead" never offers the rejected action itself (a game's
        // list of legal actions is computed for the state, not the action).
        alternatives.retain(|alt| !names_action(alt, a));
        let e = self.m.record(
            "rejected",
            format!(
                "action {i} ({}) is rejected: {message}; the state is as before it",
                a.kind
            ),
            &cited,
        );
        if !alternatives.is_empty() {
            e.text.push_str(&format!(
                "; legal instead: {}",
                crate::engine::machine::capped_list(&alternatives)
            ));
        }
        self.rejections.push(Rejection {
            action: i,
            rule,
            also,
            message,
            alternatives,
        });
    }

    /// The state after action `i`, if the plan keeps it.
    fn checkpoint(&mut self, i: usize) {
        if !self.random_found && self.m.game.rng.wanted().is_some() {
            self.random_found = true;
            self.open.random_at = Some(i);
        }
        self.fingerprint(i + 1);
        if self.plan.game_after == Some(i) {
            self.kept = Some(Box::new(self.m.game.clone()));
            self.open.in_progress = self.rules.in_progress(&self.m);
        }
        let kept = self.plan.keeps(i).then(|| {
            let rules = self.rules;
            let interest = self.plan.interest.as_ref();
            snapshot_of(&self.m.game, &|g, c| rules.derived(g, c), interest)
        });
        self.checkpoints.push(kept);
    }
}

/// The fingerprint of everything a run's future depends on (the game, the
/// generator where it stands, the steps waiting, the rejections so far),
/// not of how it got there (the trace, the results already drawn): two
/// runs with equal fingerprints before equal actions end the same.
///
/// It is the state's whole debug text, not a hash of it: explore merges
/// two branches when their fingerprints are equal, so equality must mean
/// equal states. Its readers compare it as a string (a `HashMap` key
/// hashes it and checks the full text on a hit), so a collision can cost
/// a lookup, never a wrong merge.
fn fingerprint<S: std::fmt::Debug>(m: &Machine<S>, rejections: &[Rejection]) -> Fingerprint {
    let g = &m.game;
    let rejected: Vec<(usize, &str)> = rejections.iter().map(|r| (r.action, r.rule)).collect();
    let text = format!(
        "{:?}|{:?}|{:?}|{:?}|{:?}|{:?}|{:?}|{:?}|{:?}|{:?}|{:?}|{:?}|{:?}",
        g.defs.keys().collect::<Vec<_>>(),
        g.players,
        g.cards,
        g.zones,
        g.turn,
        g.result,
        g.events,
        g.pending,
        g.own,
        g.next_token,
        (g.rng.continuation(), g.rng.wanted()),
        m.stack,
        rejected,
    );
    Fingerprint(text.into())
}

/// A given random result (the scenario's `random`) out of its draw's
/// range is bad input, not a result taken modulo the range.
fn random_fits<S>(m: &Machine<S>) -> Result<(), EngineError> {
    match m.game.rng.misfit() {
        Some((draw, value, range)) => Err(EngineError::BadChoice {
            choice: format!("random[{draw}]"),
            value: value.to_string(),
            options: vec![format!("a whole number from 0 to {}", range - 1)],
        }),
        None => Ok(()),
    }
}

/// Whether `alt`, an entry of a rejection's "legal instead" list
/// (`play x2`, `attack k leader`), is the action `a` itself: its word and
/// its card.
pub fn names_action(alt: &str, a: &Action) -> bool {
    let Some(card) = &a.card else {
        return false;
    };
    let mut words = alt.split_whitespace();
    words.next() == Some(a.kind.as_str()) && words.next() == Some(card.as_str())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::machine::DEFAULT_BUDGET;
    use std::collections::BTreeMap;

    /// A toy game: `tick` runs `n` steps, `bad` is illegal, `stop` is a
    /// stop error; one decision step awaits every action.
    struct Toy;

    #[derive(Debug, Clone)]
    enum S {
        Await,
        Tick(u64),
    }

    impl Rules for Toy {
        type Step = S;
        fn start(&self, m: &mut Machine<S>) -> Result<(), EngineError> {
            m.then([S::Await]);
            Ok(())
        }
        fn step(&self, m: &mut Machine<S>, s: S) -> Result<Flow, EngineError> {
            match s {
                S::Await => {
                    m.stack.push(S::Await);
                    Ok(Flow::Await)
                }
                S::Tick(0) => Ok(Flow::Continue),
                S::Tick(n) => {
                    m.game.turn.number += 1;
                    m.then([S::Tick(n - 1)]);
                    Ok(Flow::Continue)
                }
            }
        }
        fn act(&self, m: &mut Machine<S>, a: &Action) -> Result<(), EngineError> {
            m.stack.pop();
            m.record("act", a.kind.clone(), &[]);
            match a.kind.as_str() {
                "tick" => m.then([
                    S::Tick(a.target.as_deref().map_or(1, |n| n.parse().unwrap())),
                    S::Await,
                ]),
                "bad" => {
                    return Err(EngineError::Illegal {
                        rule: "1.1",
                        also: vec![],
                        message: "no".into(),
                        alternatives: vec!["tick".into()],
                    });
                }
                "done" => {}
                "end" => {
                    m.end(GameResult::Win("p1".into()), "p1 wins", &["1.3"]);
                    if a.target.as_deref() == Some("then_step") {
                        m.record("late", "a step after the end", &[]);
                    }
                }
                _ => {
                    return Err(EngineError::NotImplemented {
                        clause: "1.2",
                        what: a.kind.clone(),
                    });
                }
            }
            Ok(())
        }
        fn derived(&self, _: &Game, _: &Card) -> Vec<(&'static str, i64)> {
            Vec::new()
        }
    }

    fn action(kind: &str, target: Option<&str>) -> Action {
        Action {
            kind: kind.into(),
            player: None,
            card: None,
            from: None,
            target: target.map(str::to_string),
            choices: BTreeMap::new(),
            note: None,
        }
    }

    fn game() -> Game {
        Game::new(&[], 2, 0)
    }

    #[test]
    fn the_budget_counts_per_action() {
        // Many actions each well under the budget: more steps in all than
        // one action may take, and no budget error.
        let n = (DEFAULT_BUDGET / 3).to_string();
        let actions: Vec<Action> = (0..5).map(|_| action("tick", Some(&n))).collect();
        let o = run(&Toy, game(), &actions, &Plan::none());
        assert!(o.error.is_none(), "{:?}", o.error);
        assert!(o.steps > DEFAULT_BUDGET);
        // One action over the budget stops the run.
        let over = (DEFAULT_BUDGET + 1).to_string();
        let o = run(&Toy, game(), &[action("tick", Some(&over))], &Plan::none());
        assert!(matches!(
            o.error,
            Some(StopError {
                action: Some(0),
                error: EngineError::Budget { .. }
            })
        ));
    }

    #[test]
    fn a_rejection_rolls_back_and_is_recorded() {
        let actions = [
            action("tick", None),
            action("bad", None),
            action("tick", None),
        ];
        let o = run(&Toy, game(), &actions, &Plan::all());
        assert!(o.error.is_none());
        assert_eq!(o.rejections.len(), 1);
        assert_eq!(o.rejections[0].action, 1);
        let rejected = o.trace.iter().find(|e| e.step == "rejected").unwrap();
        assert!(rejected.text.ends_with("legal instead: tick"));
        // The rejected action's own entry was rolled back.
        assert_eq!(o.trace.iter().filter(|e| e.step == "act").count(), 2);
        assert_eq!(o.checkpoints.len(), 3);
        assert_eq!(o.checkpoints[0], o.checkpoints[1]);
    }

    #[test]
    fn the_plan_keeps_only_the_snapshots_it_names() {
        let actions = [
            action("tick", None),
            action("tick", None),
            action("tick", None),
        ];
        let plan = Plan {
            after: BTreeSet::from([1]),
            ..Plan::none()
        };
        let o = run(&Toy, game(), &actions, &plan);
        let kept: Vec<bool> = o.checkpoints.iter().map(Option::is_some).collect();
        assert_eq!(kept, [false, true, false]);
        assert_eq!(o.state, Value::Null);
        let o = run(&Toy, game(), &actions, &Plan::all());
        assert!(o.checkpoints.iter().all(Option::is_some));
        assert_eq!(o.state["turn"]["number"], game().turn.number + 3);
    }

    #[test]
    fn a_stop_error_ends_the_run_with_its_checkpoint() {
        let actions = [
            action("tick", None),
            action("what", None),
            action("tick", None),
        ];
        let o = run(&Toy, game(), &actions, &Plan::all());
        let e = o.error.unwrap();
        assert_eq!(e.action, Some(1));
        assert!(matches!(e.error, EngineError::NotImplemented { .. }));
        assert_eq!(o.checkpoints.len(), 2);
    }

    #[test]
    fn an_action_with_nothing_awaiting_stops_the_run() {
        let actions = [action("done", None), action("tick", None)];
        let o = run(&Toy, game(), &actions, &Plan::none());
        let e = o.error.unwrap();
        assert_eq!(e.action, Some(1));
        assert!(matches!(e.error, EngineError::BadAction { .. }));
    }

    #[test]
    fn the_end_is_the_last_step_and_a_step_after_it_is_an_internal_error() {
        let o = run(&Toy, game(), &[action("end", None)], &Plan::none());
        assert!(o.error.is_none(), "{:?}", o.error);
        assert_eq!(o.result, "p1");
        let last = o.trace.last().unwrap();
        assert_eq!(
            (last.step.as_str(), last.rules.as_slice()),
            ("game.end", &["1.3"][..])
        );
        // A procedure that records anything after the end stops the run
        // with an internal error (never a panic, never a quiet ruling).
        let o = run(
            &Toy,
            game(),
            &[action("end", Some("then_step"))],
            &Plan::none(),
        );
        let e = o.error.unwrap();
        assert_eq!(e.action, Some(0));
        match e.error {
            EngineError::Internal { message } => {
                assert!(
                    message.contains("`late` was recorded after the game ended (p1)"),
                    "{message}"
                );
            }
            e => panic!("{e:?}"),
        }
        // The action is undone with its end.
        assert_eq!(o.result, "ongoing");
    }
}

//! Scenario files: the format ([`format`]), loading and validation into an
//! engine game with miette diagnostics ([`load`]), and comparing a run's
//! outcome with the expected ruling ([`expect`]).

// A scenario diagnostic carries its source text for miette; it is built at
// most once per file, on the error path, so its size does not matter.
#![allow(clippy::result_large_err)]

pub mod coverage;
pub mod expect;
pub mod explore;
pub mod format;
pub mod load;
pub mod locate;
pub mod provenance;
pub mod report;
pub mod schema;
pub mod trace_match;
pub mod vocabulary;
pub mod write;

use crate::engine::Plan;
pub use format::Scenario;
pub use load::{Loaded, ScenarioError, load_file, load_str};

/// The JSON Schema of the scenario format, pretty-printed.
pub fn schema_json() -> String {
    serde_json::to_string_pretty(&schema::full()).unwrap_or_default()
}

/// Loads and runs one file: the loaded scenario and its outcome, keeping
/// only the snapshots its expectations compare ([`plan`]).
pub fn run_file(path: &std::path::Path) -> Result<(Loaded, crate::engine::Outcome), ScenarioError> {
    let loaded = load_file(path)?;
    let outcome = run_loaded(&loaded, &plan(&loaded.scenario.expect));
    Ok((loaded, outcome))
}

/// Runs a loaded scenario, keeping the snapshots `plan` names. A source
/// answered for another rulebook version opens the trace with a judge's
/// note saying so.
pub fn run_loaded(loaded: &Loaded, plan: &Plan) -> crate::engine::Outcome {
    let mut outcome = loaded
        .module
        .run_planned(loaded.game.clone(), &loaded.actions, plan);
    let bundled = crate::bundle::game(loaded.module.id())
        .map(|b| b.meta.version.clone())
        .unwrap_or_default();
    if let Some(note) = loaded.provenance.version_note(&bundled) {
        let pin = loaded.provenance.rules_version.clone().unwrap_or_default();
        outcome.trace.insert(
            0,
            crate::engine::TraceEntry {
                seq: 0,
                action: None,
                step: "source.rules_version".into(),
                text: format!(
                    "the source answers rules version {pin}; the bundled rulebook is {bundled}"
                ),
                objects: Vec::new(),
                changes: Vec::new(),
                rules: Vec::new(),
                note: Some(note),
            },
        );
        for (i, e) in outcome.trace.iter_mut().enumerate() {
            e.seq = i + 1;
        }
    }
    outcome
}

/// The snapshots a check of `expect` compares: the final state if it
/// states one, and the state after each action it has a checkpoint for.
pub fn plan(expect: &format::Expect) -> Plan {
    Plan {
        every_action: false,
        after: expect.checkpoints.iter().map(|c| c.after).collect(),
        final_state: expect.state.is_some(),
        interest: Some(interest(expect)),
        ..Plan::none()
    }
}

/// The union of the shapes of the expected states (final and checkpoints):
/// the only parts of a snapshot a check reads.
fn interest(expect: &format::Expect) -> serde_json::Value {
    use serde_json::Value;
    fn merge(into: &mut Value, from: &Value) {
        // A key named with a scalar, a list or an empty object (which
        // asserts that the whole is empty) is read whole, whatever another
        // expectation names below it.
        let Some(b) = from.as_object().filter(|b| !b.is_empty()) else {
            *into = Value::Bool(true);
            return;
        };
        if into.is_null() {
            *into = Value::Object(Default::default());
        }
        // Otherwise `into` is already read whole.
        if let Value::Object(a) = into {
            for (k, v) in b {
                merge(a.entry(k.clone()).or_insert(Value::Null), v);
            }
        }
    }
    let mut out = serde_json::Value::Object(Default::default());
    for s in expect
        .state
        .iter()
        .chain(expect.checkpoints.iter().map(|c| &c.state))
    {
        merge(&mut out, s);
    }
    out
}

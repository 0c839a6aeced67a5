//! Scenario files: the format ([`format`]), loading and validation into an
//! engine game with miette diagnostics ([`load`]), and comparing a run's
//! outcome with the expected ruling ([`expect`]).

// A scenario diagnostic carries its source text for miette; it is built at
// most once per file, on the error path, so its size does not matter.
#![allow(clippy::result_large_err)]

pub mod coverage;
pub mod expect;
pub mod format;
pub mod load;
pub mod locate;
pub mod report;

pub use format::Scenario;
pub use load::{Loaded, ScenarioError, load_file, load_str};

/// The JSON Schema of the scenario format, pretty-printed.
pub fn schema_json() -> String {
    let schema = schemars::schema_for!(Scenario);
    serde_json::to_string_pretty(&schema).unwrap_or_default()
}

/// Loads and runs one file: the loaded scenario and its outcome.
pub fn run_file(path: &std::path::Path) -> Result<(Loaded, crate::engine::Outcome), ScenarioError> {
    let loaded = load_file(path)?;
    let outcome = loaded.module.run(loaded.game.clone(), &loaded.actions);
    Ok((loaded, outcome))
}

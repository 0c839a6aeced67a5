//! `judge schema [GAME]`: the JSON Schema of the scenario format, or of one
//! game's scenarios (only the effects, targets, triggers… it implements).

use super::CmdResult;
use crate::error::{JudgeError, exit};
use crate::games;

pub const SCHEMA_EXAMPLES: &str = "\
Examples:
  judge schema                 The whole format
  judge schema sve > sve.json  Only what the SVE engine implements, for an editor";

#[derive(Debug, clap::Args)]
pub struct SchemaArgs {
    /// Restrict the schema to this game's vocabulary (`sve`, `pmv`…).
    pub game: Option<String>,
}

pub fn run(args: &SchemaArgs) -> CmdResult {
    let schema = match &args.game {
        None => crate::scenario::schema::full(),
        Some(g) => {
            let Some(m) = games::module(&g.trim().to_ascii_lowercase()) else {
                return Err(JudgeError::UnknownGame {
                    game: g.clone(),
                    valid: format!(
                        "{} (games with a scenario engine)",
                        games::supported().join(", ")
                    ),
                });
            };
            crate::scenario::schema::for_game(m)
        }
    };
    let text = serde_json::to_string_pretty(&schema).unwrap_or_default();
    crate::scenario::report::emit(&format!("{text}\n"));
    Ok(exit::OK)
}

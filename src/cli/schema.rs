//! `judge schema`: the JSON Schema of the scenario format.

use super::CmdResult;
use crate::error::exit;

pub fn run() -> CmdResult {
    crate::scenario::report::emit(&format!("{}\n", crate::scenario::schema_json()));
    Ok(exit::OK)
}

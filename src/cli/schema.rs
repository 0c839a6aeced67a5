//! `judge schema`: the JSON Schema of the scenario format.

use super::CmdResult;
use crate::error::exit;

pub fn run() -> CmdResult {
    println!("{}", crate::scenario::schema_json());
    Ok(exit::OK)
}

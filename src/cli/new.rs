//! `judge new <game>`: write a commented starting scenario.

use std::path::PathBuf;

use super::CmdResult;
use crate::error::{JudgeError, exit};
use crate::games;

#[derive(Debug, clap::Args)]
pub struct NewArgs {
    /// The game (`sve`).
    pub game: String,
    /// Write to this file instead of stdout (refuses to overwrite).
    #[arg(short, long)]
    pub output: Option<PathBuf>,
}

pub fn run(args: &NewArgs) -> CmdResult {
    let game = args.game.trim().to_ascii_lowercase();
    let Some(m) = games::module(&game) else {
        return Err(JudgeError::UnknownGame {
            game: args.game.clone(),
            valid: format!(
                "{} (games with a scenario engine)",
                games::supported().join(", ")
            ),
        });
    };
    match &args.output {
        None => crate::scenario::report::emit(m.starter()),
        Some(p) => {
            if p.exists() {
                return Err(JudgeError::Usage {
                    message: format!("`{}` already exists", p.display()),
                    help: Some("choose another file name; `judge new` never overwrites".into()),
                });
            }
            std::fs::write(p, m.starter()).map_err(|e| JudgeError::Io {
                path: p.display().to_string(),
                message: e.to_string(),
            })?;
            crate::errln!("wrote {}", p.display());
        }
    }
    Ok(exit::OK)
}

//! `judge site DIR`: writes the static offline rules site (issue 14).

use std::path::PathBuf;

use super::CmdResult;
use crate::error::{JudgeError, exit};

pub const SITE_EXAMPLES: &str = "\
Examples:
  judge site site/                 Write the site into site/ (created if missing)
  xdg-open site/index.html         Open it from file://, no network needed
  site/dz.html#第4部第9章           Any spelling of a clause id works as an anchor";

#[derive(Debug, clap::Args)]
pub struct SiteArgs {
    /// Directory to write the site into (created if missing; files are overwritten).
    #[arg(value_name = "DIR")]
    dir: PathBuf,
}

pub fn run(args: &SiteArgs) -> CmdResult {
    let files = crate::site::write(&args.dir).map_err(|e| JudgeError::Io {
        path: args.dir.display().to_string(),
        message: e.to_string(),
    })?;
    let bytes: usize = files.iter().map(|f| f.contents.len()).sum();
    eprintln!(
        "wrote {} files ({} KiB) to {}; open {}",
        files.len(),
        bytes / 1024,
        args.dir.display(),
        args.dir.join("index.html").display()
    );
    Ok(exit::OK)
}

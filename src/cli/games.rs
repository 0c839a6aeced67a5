//! `judge games`: the bundled rulebooks.

use comfy_table::Cell;
use serde::Serialize;

use super::CmdResult;
use crate::bundle;
use crate::error::exit;

use crate::output::{Style, Tone, print_json};
use crate::rulebook::DOCUMENTS;

#[derive(Debug, clap::Args)]
pub struct GamesArgs {
    /// Print JSON instead of a table.
    #[arg(long)]
    pub(crate) json: bool,
}

#[derive(Serialize)]
struct GameRow<'a> {
    game: &'a str,
    document: &'a str,
    primary: bool,
    name: &'a str,
    title: &'a str,
    version: &'a str,
    effective: Option<&'a str>,
    clauses: usize,
    file: &'a str,
    source: &'a str,
}

pub fn run(args: &GamesArgs, style: Style) -> CmdResult {
    let rows: Vec<GameRow> = DOCUMENTS
        .iter()
        .map(|d| {
            let b = bundle::document(d);
            GameRow {
                game: d.game,
                document: d.document,
                primary: d.primary,
                name: &b.meta.game_name,
                title: &b.meta.title,
                version: &b.meta.version,
                effective: b.meta.effective.as_deref(),
                clauses: b.clauses.len(),
                file: d.file,
                source: &b.meta.source,
            }
        })
        .collect();
    if args.json {
        print_json(&rows);
        return Ok(exit::OK);
    }
    let mut t = crate::output::table(style);
    t.set_header(["game", "document", "name", "version", "in force", "clauses"]);
    for r in &rows {
        t.add_row([
            style.cell(r.game, Tone::Id),
            Cell::new(r.document),
            Cell::new(format!("{}\n{}", r.name, r.title)),
            Cell::new(r.version),
            Cell::new(r.effective.unwrap_or("-")),
            Cell::new(r.clauses),
        ]);
    }
    crate::outln!("{t}");
    Ok(exit::OK)
}

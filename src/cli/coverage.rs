//! `judge coverage <game>`: which clauses of the game's rulebook the passing
//! rulings cite, which are named exceptions (with the reason), and which
//! state-changing clauses no passing ruling covers yet.

use std::collections::BTreeSet;
use std::path::PathBuf;

use comfy_table::Cell;

use super::CmdResult;
use super::check::collect;
use crate::bundle;
use crate::error::{JudgeError, exit};
use crate::games;
use crate::output::{Style, Tone, print_json};
use crate::scenario::coverage::{self, Status};
use crate::scenario::{self, expect};

pub const COVERAGE_EXAMPLES: &str = "\
Examples:
  judge coverage pmv                     Runs rulings/pmv and reports chapters 1, 4, 5, 6, 9, 10
  judge coverage pmv --all               Also list the covered clauses and the rulings citing them
  judge coverage pmv --json | jq '.rows[] | select(.status == \"uncovered\")'
  judge coverage sve --rulings my-rulings/ --strict

Only passing scenarios count: a failing or erroring ruling covers nothing.";

#[derive(Debug, clap::Args)]
pub struct CoverageArgs {
    /// Game id.
    pub game: String,
    /// Directory (or files) of rulings; default `rulings/<game>`.
    #[arg(long)]
    pub rulings: Vec<PathBuf>,
    /// List every clause, not only the uncovered ones and the exceptions.
    #[arg(long)]
    pub all: bool,
    /// Exit 1 when a clause is uncovered.
    #[arg(long)]
    pub strict: bool,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: &CoverageArgs, style: Style) -> CmdResult {
    let book = bundle::game(&args.game)?;
    let game = book.meta.game.clone();
    let Some(module) = games::module(&game) else {
        return Err(JudgeError::Usage {
            message: format!("the engine does not support `{game}` yet, so no ruling can pass"),
            help: Some(format!(
                "games with an engine: {}",
                games::supported().join(", ")
            )),
        });
    };
    let paths = if args.rulings.is_empty() {
        vec![PathBuf::from("rulings").join(&game)]
    } else {
        args.rulings.clone()
    };
    let files = collect(&paths)?;
    let mut cited = Vec::new();
    let mut run_count = 0;
    for f in &files {
        let Ok((loaded, outcome)) = scenario::run_file(f) else {
            run_count += 1;
            continue;
        };
        if loaded.scenario.game != game {
            continue;
        }
        run_count += 1;
        if outcome.error.is_some() || !expect::passes(&loaded.scenario.expect, &outcome) {
            continue;
        }
        let mentioned: BTreeSet<String> = outcome
            .trace
            .iter()
            .flat_map(|e| e.rules.iter().map(|r| r.to_string()))
            .collect();
        // What the expectations assert: their `cites`, and the rules of the
        // rejections they list (which passed, so they match).
        let ex = &loaded.scenario.expect;
        let mut asserted: BTreeSet<String> = ex.cites.iter().cloned().collect();
        if !ex.rejected.is_empty() {
            asserted.extend(outcome.rejections.iter().map(|r| r.rule.to_string()));
        }
        cited.push(coverage::Cited {
            file: f.display().to_string(),
            asserted,
            mentioned,
        });
    }
    let cov = coverage::compute(
        book,
        module.coverage_chapters(),
        &cited,
        module.coverage_exceptions(),
        run_count,
    );
    if args.json {
        print_json(&cov);
    } else {
        let mut t = crate::output::table(style);
        t.set_header(["clause", "status", "covered by / reason", "text"]);
        for r in &cov.rows {
            if r.status == Status::Covered && !args.all {
                continue;
            }
            let st = match r.status {
                Status::Covered => style.cell("covered", Tone::Good),
                Status::Mentioned => style.cell("mentioned", Tone::Dim),
                Status::Exception => style.cell("exception", Tone::Dim),
                Status::Uncovered => style.cell("UNCOVERED", Tone::Bad),
            };
            t.add_row([
                style.cell(&r.id, Tone::Id),
                st,
                Cell::new(&r.why),
                Cell::new(&r.text),
            ]);
        }
        crate::outln!("{t}");
        crate::outln!(
            "{} chapters {}: {} clauses; {} covered (asserted) by {} passing of {} rulings, {} only mentioned in traces, {} named exceptions, {} uncovered",
            cov.game,
            cov.chapters.join(", "),
            cov.rows.len(),
            cov.covered,
            cov.passing,
            cov.scenarios,
            cov.mentioned,
            cov.exceptions,
            cov.uncovered
        );
        if !cov.stale_exceptions.is_empty() {
            crate::outln!(
                "{} named exceptions no longer apply (rulings assert them): {}",
                cov.stale_exceptions.len(),
                cov.stale_exceptions.join(", ")
            );
        }
    }
    Ok(if args.strict && cov.uncovered > 0 {
        exit::NO_MATCH
    } else {
        exit::OK
    })
}

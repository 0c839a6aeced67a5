//! `judge explore <file>`: every legal way to make the decisions a
//! scenario leaves open, grouped by outcome (`scenario::explore`).

use std::path::{Path, PathBuf};

use comfy_table::{ContentArrangement, Table, presets::UTF8_FULL_CONDENSED};
use serde_json::{Value, json};

use super::CmdResult;
use crate::error::exit;
use crate::output::Style;
use crate::scenario::explore::{self, Exploration, group};
use crate::scenario::format::{Expect, ExpectRejected, RuleIds};
use crate::scenario::report::{emit, emit_json};
use crate::scenario::{self, Loaded, write};

pub const EXPLORE_EXAMPLES: &str = "\
Examples:
  judge explore rulings/sve/10.7.3-order.json     Does the order of the triggers matter?
  judge explore --json FILE | jq '.outcomes[] | .choices'
  judge explore --max-branches 100000 FILE         Allow a larger search
  judge explore --write out/ FILE && judge check out/   Each outcome as a ruling of its own

What is explored: every choice the engine asks for that the file leaves out
(targets, the order of simultaneous triggered abilities, optional effects,
the cards that pay a cost…), every result of each random draw, and the
file's candidate `responses` inserted before any of its actions. Each branch
is run; those that end the same way (final state, result, rejections) are
one row. Exit 0 when every branch was explored, 1 when --max-branches
stopped the search, 2 on bad input.";

#[derive(Debug, clap::Args)]
pub struct ExploreArgs {
    /// The scenario file (JSON); `-` reads standard input.
    pub file: PathBuf,
    /// Print the outcomes as JSON.
    #[arg(long)]
    pub json: bool,
    /// The most branches to run before stopping (the rows then cover only
    /// the branches run, and the exit code is 1).
    #[arg(long, value_name = "N", default_value_t = 10_000)]
    pub max_branches: usize,
    /// Write each outcome's example branch as a scenario file of its own
    /// into DIR (`outcome-1.json`…): the choices made, the random results,
    /// the responses inserted, and the outcome as its expectation.
    #[arg(long, value_name = "DIR")]
    pub write: Option<PathBuf>,
}

pub fn run(args: &ExploreArgs, style: Style) -> CmdResult {
    let loaded = match scenario::load_file(&args.file) {
        Ok(x) => x,
        Err(e) => return bad_input(args.json, e),
    };
    let responses = match scenario::load::responses(&loaded) {
        Ok(r) => r,
        Err(e) => return bad_input(args.json, e),
    };
    let settings = explore::Settings {
        max_branches: args.max_branches.max(1),
    };
    let found = explore::explore(&loaded, &responses, settings);
    if let Some(dir) = &args.write
        && let Err(e) = write_outcomes(&loaded, &found, dir)
    {
        crate::errln!("error: cannot write into {}: {e}", dir.display());
        return Ok(exit::USAGE);
    }
    if args.json {
        emit_json(&to_json(&loaded, &found, settings));
    } else {
        emit(&render(&loaded, &found, settings, style));
    }
    Ok(if found.truncated {
        exit::NO_MATCH
    } else {
        exit::OK
    })
}

/// Writes each outcome's example branch into `dir` (outcomes that stop
/// with an error are left out: no expectation states one).
fn write_outcomes(loaded: &Loaded, found: &Exploration, dir: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    let diffs = group::differences(&found.groups);
    for (k, g) in found.groups.iter().enumerate() {
        if g.ending.error.is_some() {
            continue;
        }
        let b = &found.branches[g.branches[0]];
        let paths = diffs[k].keys().collect();
        let expect = Expect {
            comment: Some(json!(format!(
                "judge explore: outcome {} of {}, reached by {} branch(es); the state names what tells the outcomes apart",
                k + 1,
                found.groups.len(),
                g.branches.len()
            ))),
            result: Some(g.ending.result.clone()),
            state: group::only(&g.ending.state, &paths),
            rejected: b
                .rejected
                .iter()
                .map(|(action, rule)| ExpectRejected {
                    action: *action,
                    rule: RuleIds::One(rule.to_string()),
                })
                .collect(),
            ..Expect::default()
        };
        let mut s = write::branch(loaded, b.actions.clone(), b.random.clone(), expect);
        s.name = format!("{} — outcome {} of {}", s.name, k + 1, found.groups.len());
        std::fs::write(
            dir.join(format!("outcome-{}.json", k + 1)),
            write::to_text(&s),
        )?;
    }
    Ok(())
}

fn bad_input(json: bool, e: scenario::ScenarioError) -> CmdResult {
    if json {
        emit_json(&crate::error::json_error(&e, exit::USAGE));
    }
    crate::errln!("{:?}", miette::Report::new(e));
    Ok(exit::USAGE)
}

/// The sentence under the table: one outcome, a bound hit, branches that
/// were not legal.
fn verdict(found: &Exploration, settings: explore::Settings) -> Vec<String> {
    let mut out = Vec::new();
    let n = found.branches.len();
    if found.truncated {
        out.push(format!(
            "stopped at --max-branches {}: the search was not finished, so the outcomes above are those of the {} branches run; raise --max-branches to explore every branch",
            settings.max_branches, found.runs
        ));
    } else if found.groups.is_empty() {
        out.push(
            "no branch reached an outcome: every way the engine offered was refused (see below)"
                .to_string(),
        );
    } else if let [only] = found.groups.as_slice()
        && only.ending.error.is_some()
    {
        out.push(format!(
            "every branch ({n}) stops before the end (see the outcome): the engine cannot rule on the rest, so nothing is said about the order"
        ));
    } else if found.groups.len() == 1 && n > 1 {
        out.push(format!(
            "the order does not matter: all {n} branches reach the same outcome"
        ));
    } else if found.groups.len() == 1 {
        out.push("the scenario leaves no decision open: one branch, one outcome".to_string());
    }
    for (why, count) in &found.not_legal {
        out.push(format!("{count} branch(es) left out, not legal: {why}"));
    }
    if found.duplicates > 0 {
        out.push(format!(
            "{} branch(es) made the same decisions as another and were run once",
            found.duplicates
        ));
    }
    if found.merged > 0 {
        out.push(format!(
            "{} branch(es) reached a state another had reached at the same action, before the same decisions: its branches were taken, not run again",
            found.merged
        ));
    }
    out
}

fn render(
    loaded: &Loaded,
    found: &Exploration,
    settings: explore::Settings,
    style: Style,
) -> String {
    let diffs = group::differences(&found.groups);
    let said = group::answers(loaded, found);
    let mut t = Table::new();
    t.load_style(UTF8_FULL_CONDENSED);
    t.set_content_arrangement(ContentArrangement::Dynamic);
    t.set_header([
        "#",
        "branches",
        "result",
        "outcome",
        "choices",
        "example path",
    ]);
    for (i, g) in found.groups.iter().enumerate() {
        let mut outcome: Vec<String> = diffs[i]
            .iter()
            .filter(|(k, _)| !k.contains(".zone_counts."))
            .map(|(k, v)| format!("{k} = {}", short(v)))
            .collect();
        let events = g.ending.events();
        if !events.is_empty() {
            outcome.push(events);
        }
        if outcome.is_empty() {
            outcome.push("(the only outcome)".into());
        }
        let choices: Vec<String> = group::choices(&said, g)
            .into_iter()
            .map(|(label, answers)| format!("{label}: {}", answers.join(" | ")))
            .collect();
        let example = &found.branches[g.branches[0]];
        let path: Vec<String> = example
            .path
            .iter()
            .map(|d| format!("{} = {}", d.label(loaded), d.answer(loaded)))
            .collect();
        t.add_row([
            (i + 1).to_string(),
            g.branches.len().to_string(),
            g.ending.result.clone(),
            outcome.join("\n"),
            or_none(choices),
            or_none(path),
        ]);
    }
    let mut out = format!(
        "{}: {} branch(es), {} distinct outcome(s), {} run(s)\n",
        style.title(&loaded.file),
        found.branches.len(),
        found.groups.len(),
        found.runs
    );
    out.push_str(&t.to_string());
    out.push('\n');
    for line in verdict(found, settings) {
        out.push_str(&line);
        out.push('\n');
    }
    out
}

fn or_none(lines: Vec<String>) -> String {
    if lines.is_empty() {
        "(none)".into()
    } else {
        lines.join("\n")
    }
}

/// The most characters of a value the table shows.
const SHOWN: usize = 60;

/// A value on one line: strings bare, the rest as JSON, cut at
/// [`SHOWN`] characters (`--json` has it whole).
fn short(v: &Value) -> String {
    let s = match v {
        Value::String(s) => s.clone(),
        v => v.to_string(),
    };
    if s.chars().count() <= SHOWN {
        return s;
    }
    let cut: String = s.chars().take(SHOWN).collect();
    format!("{cut}…")
}

fn to_json(loaded: &Loaded, found: &Exploration, settings: explore::Settings) -> Value {
    let diffs = group::differences(&found.groups);
    let said = group::answers(loaded, found);
    let decision = |d: &explore::Decision| json!({"decision": d.label(loaded), "answer": d.answer(loaded), "detail": d});
    let outcomes: Vec<Value> = found
        .groups
        .iter()
        .enumerate()
        .map(|(i, g)| {
            let choices: serde_json::Map<String, Value> = group::choices(&said, g)
                .into_iter()
                .map(|(k, v)| (k, json!(v)))
                .collect();
            let example = &found.branches[g.branches[0]];
            json!({
                "branches": g.branches.len(),
                "result": g.ending.result,
                "rejections": g.ending.rejections,
                "error": g.ending.error,
                "differences": diffs[i],
                "choices": choices,
                "example": example.path.iter().map(decision).collect::<Vec<_>>(),
                "state": g.ending.state,
            })
        })
        .collect();
    let branches: Vec<Value> = found
        .branches
        .iter()
        .map(|b| json!({"outcome": b.outcome + 1, "path": b.path.iter().map(decision).collect::<Vec<_>>()}))
        .collect();
    json!({
        "file": loaded.file,
        "name": loaded.scenario.name,
        "game": loaded.scenario.game,
        "runs": found.runs,
        "max_branches": settings.max_branches,
        "complete": !found.truncated,
        "order_does_not_matter": !found.truncated && found.groups.len() == 1,
        "not_legal": found.not_legal,
        "duplicates": found.duplicates,
        "merged": found.merged,
        "messages": verdict(found, settings),
        "outcomes": outcomes,
        "branches": branches,
    })
}

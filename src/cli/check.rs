//! `judge check <file|dir>…`: run scenarios and compare each outcome with its
//! expected ruling. Exit 0 when every expectation holds, 1 when a ruling
//! differs, 2 when a file is bad input.

use std::path::{Path, PathBuf};

use comfy_table::Cell;
use serde::Serialize;

use super::CmdResult;
use crate::error::{JudgeError, exit};
use crate::output::{Style, Tone};
use crate::scenario::provenance::Kind;
use crate::scenario::report::{emit, emit_json};
use crate::scenario::{self, expect};

mod summary;

pub const CHECK_EXAMPLES: &str = "\
Examples:
  judge check rulings/            Every scenario under a directory (recursively)
  judge check a.json b.json
  judge new sve | judge check -   A scenario on standard input
  judge check --json rulings/ | jq '.[] | select(.status != \"pass\")'
  judge check --kind official_qa rulings/   Only the makers' published Q&A answers
  judge check --kind published rulings/     Every published ruling (Q&A, column, errata)
  judge check --html reports/ rulings/      One HTML report per ruling and reports/index.html
  judge check --rulebook sve=sve-1.8.0.txt rulings/sve/   Which rulings a new rulebook makes stale

The summary ends with a line per kind of source: how many published answers,
rulebook examples, judge's readings and worked examples were re-proved.

Card-pool files (`*.pool.json`) are skipped when scanning directories, and
symbolic links to directories are not followed (name them on the command line).";

#[derive(Debug, clap::Args)]
pub struct CheckArgs {
    /// Scenario files or directories.
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    /// Print the results as JSON.
    #[arg(long)]
    pub json: bool,
    /// List every file in the table, passing ones too (by default only
    /// failures and errors, then the summary line).
    #[arg(long, short)]
    pub verbose: bool,
    /// Check only the rulings whose `source.kind` is this (repeatable);
    /// `published` is every kind the maker published.
    #[arg(long, value_name = "KIND", value_parser = clap::builder::PossibleValuesParser::new(KIND_WORDS))]
    pub kind: Vec<String>,
    /// Also write one HTML report per ruling (the board at each action,
    /// every cited clause expandable) and an index page into DIR.
    #[arg(long, value_name = "DIR")]
    pub html: Option<PathBuf>,
    /// A newer rulebook of a game (`sve=sve-1.8.0.txt`, repeatable): each
    /// ruling that cites a clause it changed, removed or moved is `stale`,
    /// with the word diff; the others are re-proved. Exit 1 when any is.
    #[arg(long, value_name = "GAME=FILE")]
    pub rulebook: Vec<String>,
    /// With `--json`: print an object, the rows under `rows` and the
    /// counts by kind and by game under `summary`.
    #[arg(long, requires = "json")]
    pub summary: bool,
}

/// The words `--kind` accepts.
const KIND_WORDS: [&str; 8] = [
    "official_qa",
    "official_column",
    "official_errata",
    "rulebook_example",
    "judge_reading",
    "worked_example",
    "text",
    "published",
];

/// Whether a ruling of `kind` is selected by the `--kind` words `wanted`
/// (none: every kind).
fn selected(wanted: &[String], kind: Kind) -> bool {
    wanted.is_empty()
        || wanted
            .iter()
            .any(|w| w == kind.word() || (w == "published" && kind.is_published()))
}

/// One scenario's check.
#[derive(Debug, Clone, Serialize)]
pub struct CheckRow {
    pub file: String,
    pub name: String,
    /// The kind of the ruling's source (`official_qa`, … `text` for the
    /// free-text form or a file that could not be read).
    pub kind: &'static str,
    /// `pass`, `fail` or `error`.
    pub status: &'static str,
    /// Why it failed or errored.
    pub detail: Vec<String>,
    /// The unified diff, for failures.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub diff: Option<String>,
    /// The game (empty when the file did not load).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub game: String,
    /// Every clause the ruling relies on: cited by its trace, its `cites`
    /// or its rejections.
    #[serde(skip)]
    pub cited: Vec<String>,
    /// With `--rulebook`: the cited clauses the new rulebook changed.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub stale: Vec<super::stale::StaleClause>,
}

/// Every scenario file under `paths`, sorted.
pub fn collect(paths: &[PathBuf]) -> Result<Vec<PathBuf>, JudgeError> {
    let mut out = Vec::new();
    for p in paths {
        if p.as_os_str() == "-" {
            // Standard input, as `judge run -`.
            out.push(p.clone());
        } else if p.is_dir() {
            walk(p, &mut out)?;
        } else if p.exists() {
            out.push(p.clone());
        } else {
            return Err(JudgeError::Io {
                path: p.display().to_string(),
                message: "no such file or directory".into(),
            });
        }
    }
    Ok(out)
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), JudgeError> {
    let rd = std::fs::read_dir(dir).map_err(|e| JudgeError::Io {
        path: dir.display().to_string(),
        message: e.to_string(),
    })?;
    // Symbolic links to directories are not followed (as ripgrep does by
    // default): `ln -s .. sub/up` would otherwise walk without end, and
    // `ln -s . self` count every file again. A link named on the command
    // line is followed; links to files are followed.
    // The entry's own type comes with the listing; only a link is looked
    // through (one `stat` for it, none for the others).
    // Sorted by name: the order of the paths (one parent), without parsing
    // each path into components at every comparison.
    let mut entries: Vec<(std::ffi::OsString, PathBuf, bool, bool)> = rd
        .filter_map(|e| e.ok())
        .map(|e| {
            let kind = e.file_type().ok();
            let link = kind.is_some_and(|t| t.is_symlink());
            let path = e.path();
            let dir = match kind {
                Some(t) if !link => t.is_dir(),
                _ => path.is_dir(),
            };
            (e.file_name(), path, link, dir)
        })
        .collect();
    entries.sort_unstable_by(|a, b| a.0.cmp(&b.0));
    for (_, p, link, dir) in entries {
        if dir {
            if !link {
                walk(&p, out)?;
            }
        } else {
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
            if name.ends_with(".json") && !name.ends_with(".pool.json") {
                out.push(p);
            }
        }
    }
    Ok(())
}

/// Checks `files` on all cores (each file is independent), returning the
/// results in the files' order so the output is the same on any machine.
/// Standard input (`-`) is read on the calling thread.
/// `cites`: whether each row lists the clauses its ruling relies on (only
/// a `--rulebook` comparison reads them).
fn check_all(files: &[PathBuf], cites: bool) -> Vec<(CheckRow, Option<String>)> {
    let threads = std::thread::available_parallelism()
        .map_or(1, usize::from)
        .min(files.len().max(1));
    if threads <= 1 || files.iter().any(|f| f.as_os_str() == "-") {
        return files.iter().map(|f| check_file_guarded(f, cites)).collect();
    }
    let next = std::sync::atomic::AtomicUsize::new(0);
    let mut results: Vec<Option<(CheckRow, Option<String>)>> = vec![None; files.len()];
    let done = std::sync::Mutex::new(Vec::with_capacity(files.len()));
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| {
                loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(f) = files.get(i) else { break };
                    let r = check_file_guarded(f, cites);
                    if let Ok(mut d) = done.lock() {
                        d.push((i, r));
                    }
                }
            });
        }
    });
    for (i, r) in done.into_inner().unwrap_or_default() {
        results[i] = Some(r);
    }
    results
        .into_iter()
        .zip(files)
        .map(|(r, f)| r.unwrap_or_else(|| check_file_guarded(f, cites)))
        .collect()
}

/// [`check_file`], with a panic (a bug) turned into an `error` row for that
/// file, so one bad file never aborts the whole check.
fn check_file_guarded(path: &Path, cites: bool) -> (CheckRow, Option<String>) {
    std::panic::catch_unwind(|| check_file(path, cites)).unwrap_or_else(|_| {
        (
            CheckRow {
                file: path.display().to_string(),
                name: String::new(),
                kind: peek_kind(path).word(),
                status: "error",
                detail: vec![
                    "internal error while checking this file (a bug in judge; please report it)"
                        .into(),
                ],
                diff: None,
                game: String::new(),
                cited: Vec::new(),
                stale: Vec::new(),
            },
            None,
        )
    })
}

/// The kind a file's `source` names, read without loading it (for a file
/// that does not load, so that `--kind` still selects it and its error is
/// seen); `text` when it names none.
fn peek_kind(path: &Path) -> Kind {
    let text = if path.as_os_str() == "-" {
        None
    } else {
        crate::bundle::read_user_text(path).ok()
    };
    text.and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
        .and_then(|v| v["source"]["kind"].as_str().and_then(Kind::from_word))
        .unwrap_or(Kind::Text)
}

/// The clauses a ruling relies on: cited by its trace, its `cites` or its
/// rejections, sorted, each once.
fn relied_on(loaded: &scenario::load::Loaded, outcome: &crate::engine::Outcome) -> Vec<String> {
    let mut cited: Vec<String> = outcome
        .trace
        .iter()
        .flat_map(|e| e.rules.iter().map(|r| r.to_string()))
        .chain(loaded.scenario.expect.cites.iter().cloned())
        .chain(outcome.rejections.iter().map(|r| r.rule.to_string()))
        .collect();
    cited.sort();
    cited.dedup();
    cited
}

/// Checks one file; with `cites`, its row lists the clauses it relies on
/// ([`CheckRow::cited`]).
pub fn check_file(path: &Path, cites: bool) -> (CheckRow, Option<String>) {
    let file = path.display().to_string();
    match scenario::run_file(path) {
        Err(e) => {
            let msg = e.message.clone();
            let report = format!("{:?}", miette::Report::new(e));
            (
                CheckRow {
                    kind: peek_kind(path).word(),
                    file,
                    name: String::new(),
                    status: "error",
                    detail: vec![msg],
                    diff: None,
                    game: String::new(),
                    cited: Vec::new(),
                    stale: Vec::new(),
                },
                Some(report),
            )
        }
        Ok((loaded, outcome)) => {
            for w in &loaded.warnings {
                crate::errln!("warning: {w}");
            }
            let name = loaded.scenario.name.clone();
            let kind = loaded.provenance.kind().word();
            let game = loaded.scenario.game.clone();
            let cited = if cites {
                relied_on(&loaded, &outcome)
            } else {
                Vec::new()
            };
            if let Some(e) = &outcome.error {
                let at = e
                    .action
                    .map(|a| format!("action {a}"))
                    .unwrap_or_else(|| "setup".into());
                let d = scenario::load::action_error(&loaded, e.action, &e.error);
                return (
                    CheckRow {
                        file,
                        name,
                        kind,
                        game,
                        cited,
                        stale: Vec::new(),
                        status: "error",
                        detail: vec![format!("stopped at {at}: {}", e.error)],
                        diff: None,
                    },
                    Some(format!("{:?}", miette::Report::new(d))),
                );
            }
            // Most files pass: ask first, and build the diff's two sides
            // only for one that fails.
            let passed = expect::passes(&loaded.scenario.expect, &outcome);
            debug_assert_eq!(
                passed,
                expect::check(&loaded.scenario.expect, &outcome).pass,
                "{file}: expect::passes and expect::check disagree"
            );
            if passed {
                (
                    CheckRow {
                        file,
                        name,
                        kind,
                        game,
                        cited,
                        stale: Vec::new(),
                        status: "pass",
                        detail: Vec::new(),
                        diff: None,
                    },
                    None,
                )
            } else {
                let v = expect::check(&loaded.scenario.expect, &outcome);
                let diff = v.diff(&file);
                (
                    CheckRow {
                        file,
                        name,
                        kind,
                        game,
                        cited,
                        stale: Vec::new(),
                        status: "fail",
                        detail: v.failures,
                        diff: Some(diff),
                    },
                    None,
                )
            }
        }
    }
}

pub fn run(args: &CheckArgs, style: Style) -> CmdResult {
    let files = collect(&args.paths)?;
    if files.is_empty() {
        return Err(JudgeError::Usage {
            message: "no scenario files found".into(),
            help: Some("give .json files or directories that contain them".into()),
        });
    }
    // A newer rulebook, read before any ruling runs: a bad file is bad
    // input, reported once.
    let changes = super::stale::changes(&args.rulebook)?;
    let mut rows = Vec::new();
    for (mut row, report) in check_all(&files, !changes.is_empty()) {
        if row.status != "error" {
            let stale = super::stale::stale_for(&changes, &row.game, &row.cited);
            if !stale.is_empty() {
                row.status = "stale";
                row.detail.insert(
                    0,
                    format!(
                        "the new rulebook changed {}",
                        stale
                            .iter()
                            .map(|s| format!("{} ({})", s.id, s.how))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                );
                row.stale = stale;
            }
        }
        if !Kind::from_word(row.kind).is_some_and(|k| selected(&args.kind, k)) {
            continue;
        }
        if !args.json {
            if let Some(r) = report {
                crate::errln!("{r}");
            }
            if !row.stale.is_empty() {
                emit(&format!("{} {}\n", style.bad("STALE"), row.file));
                for s in &row.stale {
                    emit(&format!("  {} {}\n", s.id, s.how));
                    if !s.words.is_empty() {
                        emit(&format!("    {}\n", s.words));
                    }
                }
                emit("\n");
            }
            if let Some(d) = &row.diff {
                emit(&format!("{} {}\n", style.bad("FAIL"), row.file));
                for l in &row.detail {
                    emit(&format!("  {l}\n"));
                }
                for line in d.lines() {
                    let s = if line.starts_with('+') && !line.starts_with("+++") {
                        style.good(line)
                    } else if line.starts_with('-') && !line.starts_with("---") {
                        style.bad(line)
                    } else {
                        line.to_string()
                    };
                    emit(&format!("{s}\n"));
                }
                emit("\n");
            }
        }
        rows.push(row);
    }
    let errors = rows.iter().filter(|r| r.status == "error").count();
    let fails = rows.iter().filter(|r| r.status == "fail").count();
    let stale = rows.iter().filter(|r| r.status == "stale").count();
    if let Some(dir) = &args.html {
        let index: Vec<crate::site::report::IndexRow> = rows
            .iter()
            .map(|r| crate::site::report::IndexRow {
                file: PathBuf::from(&r.file),
                name: r.name.clone(),
                status: r.status.to_string(),
            })
            .collect();
        match crate::site::report::write_reports(dir, &index) {
            Ok(n) => crate::errln!("wrote {n} reports and index.html to {}", dir.display()),
            Err(e) => {
                return Err(JudgeError::Usage {
                    message: format!("cannot write the reports to {}: {e}", dir.display()),
                    help: None,
                });
            }
        }
    }
    if args.json && args.summary {
        emit_json(&serde_json::json!({
            "rows": rows,
            "summary": summary::summarize(&rows),
        }));
    } else if args.json {
        emit_json(&rows);
    } else {
        // A judge scans for what went wrong: the table lists the failures
        // and errors (every file with --verbose), fitted to the terminal,
        // then one summary line.
        let mut t = crate::output::table(style);
        t.set_header(["scenario", "name", "status", "detail"]);
        for r in rows.iter().filter(|r| args.verbose || r.status != "pass") {
            let status = match r.status {
                "pass" => style.cell("pass", Tone::Good),
                "fail" => style.cell("FAIL", Tone::Bad),
                "stale" => style.cell("STALE", Tone::Bad),
                _ => style.cell("ERROR", Tone::Bad),
            };
            t.add_row([
                Cell::new(&r.file),
                Cell::new(&r.name),
                status,
                Cell::new(r.detail.join("; ")),
            ]);
        }
        if args.verbose || errors + fails + stale > 0 {
            emit(&format!("{t}\n"));
        }
        let stale_note = if args.rulebook.is_empty() {
            String::new()
        } else {
            format!(", {stale} stale")
        };
        emit(&format!(
            "{} scenarios: {} passed, {} failed, {} errors{stale_note}\n",
            rows.len(),
            rows.len() - fails - errors - stale,
            fails,
            errors
        ));
        let summary = summary::summarize(&rows);
        // The lines by game come before the lines by kind, which stay last.
        emit(&summary::by_game_lines(&summary));
        emit(&summary::by_kind_lines(&summary));
    }
    Ok(if errors > 0 {
        exit::USAGE
    } else if fails + stale > 0 {
        exit::NO_MATCH
    } else {
        exit::OK
    })
}

//! Command-line interface: argument parsing (clap) and dispatch. Each
//! command lives in its own module and returns an exit code.

pub mod check;
mod coverage;
mod diff;
pub mod dump;
mod explore;
mod games;
mod new;
mod rule;
mod run;
mod schema;
mod search;
mod site;
mod stale;

pub use rule::render_rule;

use clap::{CommandFactory, Parser, Subcommand};

use crate::error::{JudgeError, exit};
use crate::output::{ColorChoice, Style};

const AFTER_HELP: &str = "\
Examples:
  judge rule sve 10.5.2            Print a clause, its sub-clauses and references
  judge rule dz 第４部 第９章 ２－１    Any spelling a judge writes works
  judge toc pmv 6                  Table of contents of chapter 6
  judge search ward --game sve     Keyword search (Japanese or English terms)
  judge games                      The bundled rulebooks
  judge run FILE.json              Resolve a scenario and print the cited trace
  judge check rulings/             Check scenarios against their expected rulings
  judge explore FILE.json          Every way to make the decisions it leaves open, by outcome
  judge coverage pmv               Which clauses the passing PMV rulings cover
  judge new sve > my.json          A commented starting scenario
  judge completions bash > /etc/bash_completion.d/judge

Exit codes:
  0  success
  1  nothing found (search), or a ruling differs from the expectation (check)
  2  bad input: unknown game or id, malformed file, bad arguments
  70 internal error (a bug; please report it)

Colour is used only on a terminal, and never when NO_COLOR is set.";

/// A judge's assistant for Phantom Magic Vision, PSO2 TCG, Shadowverse Evolve
/// and Dimension Zero: rule lookup, search, and a rules engine with cited traces.
#[derive(Debug, Parser)]
#[command(name = "judge", version, about, after_help = AFTER_HELP)]
pub struct Cli {
    /// When to use colour.
    #[arg(long, global = true, value_enum, default_value_t = ColorChoice::Auto)]
    color: ColorChoice,

    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// List the bundled rulebooks.
    Games(games::GamesArgs),
    /// Print a clause by its number.
    #[command(after_help = rule::RULE_EXAMPLES)]
    Rule(rule::RuleArgs),
    /// Print the table of contents, or one subtree of it.
    #[command(after_help = rule::TOC_EXAMPLES)]
    Toc(rule::TocArgs),
    /// Resolve a scenario step by step and print the cited trace.
    #[command(after_help = run::RUN_EXAMPLES)]
    Run(run::RunArgs),
    /// Check scenarios against their expected rulings.
    #[command(after_help = check::CHECK_EXAMPLES)]
    Check(check::CheckArgs),
    /// Run every way to make the decisions a scenario leaves open, grouped by outcome.
    #[command(after_help = explore::EXPLORE_EXAMPLES)]
    Explore(explore::ExploreArgs),
    /// Write a commented starting scenario for a game.
    New(new::NewArgs),
    /// Print the JSON Schema of the scenario format (of one game's, with GAME).
    #[command(after_help = schema::SCHEMA_EXAMPLES)]
    Schema(schema::SchemaArgs),
    /// Which rulebook clauses the passing rulings cite, and which are left.
    #[command(after_help = coverage::COVERAGE_EXAMPLES)]
    Coverage(coverage::CoverageArgs),
    /// Search every rulebook by keyword, in Japanese or English.
    #[command(after_help = search::SEARCH_EXAMPLES)]
    Search(search::SearchArgs),
    /// Write a static offline rules site (every bundled document, hyperlinked).
    #[command(after_help = site::SITE_EXAMPLES)]
    Site(site::SiteArgs),
    /// Compare two versions of a game's rulebook clause by clause.
    #[command(after_help = diff::DIFF_EXAMPLES)]
    Diff(diff::DiffArgs),
    /// Print a shell completion script.
    Completions {
        /// The shell to generate completions for.
        shell: clap_complete::Shell,
    },
}

impl Command {
    /// Whether the command was asked for `--json` (its failures then print
    /// a JSON error object on stdout too).
    fn json(&self) -> bool {
        match self {
            Command::Games(a) => a.json,
            Command::Rule(a) => a.json,
            Command::Toc(a) => a.json,
            Command::Run(a) => a.json,
            Command::Check(a) => a.json,
            Command::Explore(a) => a.json,
            Command::Coverage(a) => a.json,
            Command::Search(a) => a.wants_json(),
            Command::Diff(a) => a.json,
            Command::New(_)
            | Command::Schema(_)
            | Command::Site(_)
            | Command::Completions { .. } => false,
        }
    }
}

/// Runs the CLI with the process arguments and returns the exit code.
pub fn main() -> i32 {
    // A deliberate bug for the test that a panic reports an internal error
    // (exit 70): no input reaches a panic that the tests know of.
    if std::env::var_os("JUDGE_TEST_INTERNAL_PANIC").is_some() {
        panic!("deliberate panic (JUDGE_TEST_INTERNAL_PANIC is set)");
    }
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() {
                exit::USAGE
            } else {
                exit::OK
            };
            // A malformed command line asked for JSON still gets a JSON
            // error object on stdout.
            if code == exit::USAGE && std::env::args().any(|a| a == "--json") {
                let first = e.to_string();
                let message = first
                    .lines()
                    .next()
                    .unwrap_or("")
                    .trim_start_matches("error: ");
                crate::scenario::report::emit_json(&serde_json::json!({
                    "error": { "message": message, "code": "judge::usage", "exit": code }
                }));
            }
            let _ = e.print();
            return code;
        }
    };
    let json = cli.command.json();
    let style = Style::detect(cli.color);
    install_miette_hook(style);
    let result = match cli.command {
        Command::Games(args) => games::run(&args, style),
        Command::Rule(args) => rule::run_rule(&args, style),
        Command::Toc(args) => rule::run_toc(&args, style),
        Command::Run(args) => run::run(&args, style),
        Command::Check(args) => check::run(&args, style),
        Command::Explore(args) => explore::run(&args, style),
        Command::New(args) => new::run(&args),
        Command::Schema(args) => schema::run(&args),
        Command::Coverage(args) => coverage::run(&args, style),
        Command::Search(args) => search::run(&args, style),
        Command::Diff(args) => diff::run(&args, style),
        Command::Site(args) => site::run(&args),
        Command::Completions { shell } => {
            clap_complete::generate(shell, &mut Cli::command(), "judge", &mut std::io::stdout());
            Ok(exit::OK)
        }
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            let code = e.exit_code();
            if json {
                crate::scenario::report::emit_json(&crate::error::json_error(&e, code));
            }
            crate::errln!("{:?}", miette::Report::new(e));
            code
        }
    }
}

/// Diagnostics follow the same colour decision as stdout, judged on stderr.
fn install_miette_hook(style: Style) {
    use std::io::IsTerminal;
    let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
    let color = style.color && std::io::stderr().is_terminal() && !no_color;
    crate::output::set_colour(style.color, color);
    let _ = miette::set_hook(Box::new(move |_| {
        Box::new(
            miette::MietteHandlerOpts::new()
                .color(color)
                .unicode(true)
                .terminal_links(false)
                .width(100)
                .build(),
        )
    }));
}

/// Result type of a command: an exit code, or a diagnostic.
pub type CmdResult = Result<i32, JudgeError>;

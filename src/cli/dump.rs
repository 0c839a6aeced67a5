//! `judge run FILE --dump-at N`: the state after action N as a scenario
//! file of its own, checked before it is written: run alone it must be
//! the state after action N, and with the remaining actions it must end
//! as the original does.

use std::collections::BTreeMap;
use std::path::PathBuf;

use serde_json::Value;

use super::CmdResult;
use crate::engine::{GameResult, Outcome, Plan, result_word};
use crate::error::exit;
use crate::scenario::explore::group::flatten;
use crate::scenario::{self, Loaded, write};

/// What `--dump-at` was asked.
pub struct DumpArgs<'a> {
    /// The action after which the state is written.
    pub at: usize,
    /// Where to write (standard output when `None`).
    pub to: Option<&'a PathBuf>,
    /// Keep the remaining actions.
    pub rest: bool,
}

pub fn run(loaded: &Loaded, args: DumpArgs<'_>) -> CmdResult {
    let n = args.at;
    if n >= loaded.actions.len() {
        crate::errln!(
            "error: --dump-at {n}: {} has {} action(s), numbered from 0",
            loaded.file,
            loaded.actions.len()
        );
        return Ok(exit::USAGE);
    }
    let text = match attempt(loaded, n, args.rest) {
        Ok(text) => text,
        Err(Refused::Stopped(why)) => {
            crate::errln!(
                "error: --dump-at {n}: the run stopped before the end of action {n}{why}"
            );
            return Ok(exit::USAGE);
        }
        Err(Refused::Over(result)) => {
            crate::errln!(
                "error: the state after action {n} cannot be written as a scenario: the game is over ({}). A scenario is a game still being played; once the game has ended no player acts and no procedure runs, so the moment has nothing left to decide. Dump an earlier action",
                over_words(&result)
            );
            return Ok(exit::NO_MATCH);
        }
        Err(Refused::Differs(why)) => {
            crate::errln!(
                "error: the state after action {n} cannot be written as a scenario that goes on the same way: {why}. A scenario holds the board and, where the game can describe it, the decision in progress (`state.in_progress`: a PMV priority with its interference, attack and block; an SVE attack at its Quick window; a DZ priority with its stack, battles and waiting triggers; a PSO2 right to act with its resolution zone and battle); anything else in progress (abilities waiting to resolve, a card on the stack, effects that last until later) starts again from the beginning of the phase"
            );
            return Ok(exit::NO_MATCH);
        }
    };
    match args.to {
        Some(path) => {
            if let Err(e) = std::fs::write(path, &text) {
                crate::errln!("error: cannot write {}: {e}", path.display());
                return Ok(exit::USAGE);
            }
            crate::errln!(
                "wrote the state after action {n} to {} (checked: it resumes as {} does)",
                path.display(),
                loaded.file
            );
        }
        None => crate::scenario::report::emit(&text),
    }
    Ok(exit::OK)
}

/// Why the state after an action was not written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refused {
    /// The run stopped before the end of the action (": why").
    Stopped(String),
    /// The written file would not go on as the original: what differs.
    Differs(String),
    /// The game ended by the end of the action (its result, `p1` or
    /// `draw`) and its board does not end it again: a scenario is a game
    /// still being played (a file's board says nothing of players who
    /// have lost), so there is no moment to resume.
    Over(String),
}

/// The result of an ended game in words.
fn over_words(result: &str) -> String {
    if result == "draw" {
        "a draw".into()
    } else {
        format!("{result} won")
    }
}

/// The state after action `n` of `loaded` as the text of a scenario
/// (with the remaining actions when `rest`), checked: alone it is the
/// board after action `n`, and with the rest it ends as the original.
pub fn attempt(loaded: &Loaded, n: usize, rest: bool) -> Result<String, Refused> {
    let plan = Plan {
        final_state: true,
        game_after: Some(n),
        ..Plan::none()
    };
    let original = scenario::run_loaded(loaded, &plan);
    let Some(game) = original.open.game.as_deref() else {
        let why = original
            .error
            .as_ref()
            .map_or_else(String::new, |e| format!(": {}", e.error));
        return Err(Refused::Stopped(why));
    };
    let dumped = write::dump(loaded, game, original.open.in_progress.as_ref(), n, rest);
    let text = write::to_text(&dumped);
    verify(loaded, &original, n, &text, rest).map_err(|why| {
        // A board on which the game ends again as it starts (a deck-out
        // the next rule processing finds) is written above; one whose end
        // came from an action (a concession, a leader defeated) is not a
        // game still being played.
        if game.result == GameResult::Ongoing {
            Refused::Differs(why)
        } else {
            Refused::Over(result_word(&game.result))
        }
    })?;
    Ok(text)
}

/// Checks the written scenario `text`: loaded and run with no action, its
/// state is the original's run to action `n` and no further; with the
/// remaining actions (`rest`), it ends with the same state, result, rejections and stop.
fn verify(
    loaded: &Loaded,
    original: &Outcome,
    n: usize,
    text: &str,
    rest: bool,
) -> Result<(), String> {
    let dumped = scenario::load_str(&loaded.file, text, None)
        .map_err(|e| format!("the file does not load ({e})"))?;
    let all = Plan {
        final_state: true,
        ..Plan::none()
    };
    let start = scenario::run_loaded(
        &Loaded {
            actions: Vec::new(),
            ..dumped.clone()
        },
        &all,
    );
    // The original stopped after action `n`: a game may settle a decision
    // by the next action (SVE passes a Quick window no action answers),
    // so the board is compared with the run that has no next action.
    let stopped = scenario::run_loaded(
        &Loaded {
            actions: loaded.actions[..=n].to_vec(),
            ..loaded.clone()
        },
        &all,
    );
    same("its board", &start.state, &stopped.state)?;
    if !rest {
        return Ok(());
    }
    let end = scenario::run_loaded(&dumped, &all);
    same("the final state", &end.state, &original.state)?;
    let rules = |o: &Outcome| -> Vec<(usize, &str)> {
        o.rejections.iter().map(|r| (r.action, r.rule)).collect()
    };
    let shifted: Vec<(usize, &str)> = rules(original)
        .into_iter()
        .filter(|(i, _)| *i > n)
        .map(|(i, r)| (i - n - 1, r))
        .collect();
    if end.result != original.result
        || rules(&end) != shifted
        || end.error.is_some() != original.error.is_some()
    {
        return Err("the result, rejections or stop of the remaining actions differ".into());
    }
    Ok(())
}

/// `Err` naming the parts where `got` differs from `want`.
fn same(what: &str, got: &Value, want: &Value) -> Result<(), String> {
    let (mut a, mut b) = (BTreeMap::new(), BTreeMap::new());
    flatten(got, "", &mut a);
    flatten(want, "", &mut b);
    let mut paths: Vec<&String> = a.keys().chain(b.keys()).collect();
    paths.sort();
    paths.dedup();
    let differ: Vec<String> = paths
        .into_iter()
        .filter(|p| a.get(*p) != b.get(*p))
        .map(|p| {
            let show =
                |m: &BTreeMap<String, Value>| m.get(p).map_or("(none)".into(), Value::to_string);
            format!("{p}: {} instead of {}", show(&a), show(&b))
        })
        .collect();
    if differ.is_empty() {
        return Ok(());
    }
    Err(format!(
        "{what} differs: {}",
        crate::engine::machine::capped_list(&differ)
    ))
}

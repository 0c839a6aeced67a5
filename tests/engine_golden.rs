//! Golden traces: the readable trace of a few representative scenarios,
//! with clause titles from the bundled rulebook. A change to the engine, the
//! effect language or the SVE rulebook parse shows up here as a diff.

use std::path::Path;

use tcg_judge::output::Style;
use tcg_judge::scenario::{self, report};

fn golden(file: &str) -> String {
    let (loaded, outcome) = scenario::run_file(Path::new(file)).expect("scenario loads");
    report::render_run(&loaded, &outcome, report::Detail::Compact, Style::PLAIN)
}

/// `--explain`: every cited clause with its title and text.
fn golden_explained(file: &str) -> String {
    let (loaded, outcome) = scenario::run_file(Path::new(file)).expect("scenario loads");
    report::render_run(&loaded, &outcome, report::Detail::Explain, Style::PLAIN)
}

#[test]
fn explained_trace() {
    insta::assert_snapshot!(golden_explained(
        "rulings/sve/12.8.2-ward-must-be-attacked.json"
    ));
}

#[test]
fn full_turn() {
    insta::assert_snapshot!(golden("scenarios/sve/01-a-full-turn.json"));
}

#[test]
fn quick_counter() {
    insta::assert_snapshot!(golden("scenarios/sve/03-quick-counter.json"));
}

#[test]
fn turn_player_triggers_first() {
    insta::assert_snapshot!(golden("rulings/sve/10.5.2.2-turn-player-first.json"));
}

#[test]
fn ward_rejections() {
    insta::assert_snapshot!(golden("rulings/sve/12.8.2-ward-must-be-attacked.json"));
}

#[test]
fn both_leaders_draw() {
    insta::assert_snapshot!(golden("rulings/sve/1.2.2-both-leaders-draw.json"));
}

#[test]
fn json_outcome_is_stable() {
    let (_, outcome) = scenario::run_file(Path::new("rulings/sve/11.3.2-bane.json")).unwrap();
    insta::assert_json_snapshot!(outcome.trace);
}

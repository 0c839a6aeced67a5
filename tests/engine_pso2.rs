//! Golden traces of PSO2 scenarios: the readable trace with clause titles
//! from the bundled rulebook. A change to the PSO2 module, the effect
//! language or the PSO2 rulebook parse shows up here as a diff.

use std::path::Path;

use tcg_judge::output::Style;
use tcg_judge::scenario::{self, report};

fn golden(file: &str) -> String {
    let (loaded, outcome) = scenario::run_file(Path::new(file)).expect("scenario loads");
    report::render_run(&loaded, &outcome, report::Detail::Compact, Style::PLAIN)
}

#[test]
fn golden_foie_barta_hp_up() {
    insta::assert_snapshot!(golden("rulings/pso2/103.6.1.7-foie-barta-hp-up.json"));
}

#[test]
fn golden_war_cry_redirect() {
    insta::assert_snapshot!(golden("scenarios/pso2/03-war-cry-redirect.json"));
}

#[test]
fn golden_raid_boss_turn() {
    insta::assert_snapshot!(golden("scenarios/pso2/07-raid-boss-turn.json"));
}

//! `judge explore` through the real binary: outcomes grouped, JSON, the
//! branch bound, one outcome, bad input.

use assert_cmd::Command;
use predicates::prelude::*;
use serde_json::Value;

fn judge() -> Command {
    let mut c = Command::cargo_bin("judge").unwrap();
    c.env("NO_COLOR", "1");
    c
}

fn json_of(args: &[&str]) -> Value {
    let out = judge().args(args).output().unwrap();
    serde_json::from_slice(&out.stdout).unwrap()
}

const ORDER: &str = "tests/explore/sve-trigger-order.json";

#[test]
fn the_order_of_two_last_words_gives_two_outcomes() {
    judge()
        .args(["explore", ORDER])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "2 branch(es), 2 distinct outcome(s)",
        ))
        .stdout(predicate::str::contains(
            r#"["f.last_words","m.last_words"]"#,
        ))
        .stdout(predicate::str::contains("players.p2.defense = 5"));
    let v = json_of(&["explore", "--json", ORDER]);
    assert_eq!(v["complete"], true);
    assert_eq!(v["order_does_not_matter"], false);
    let outcomes = v["outcomes"].as_array().unwrap();
    assert_eq!(outcomes.len(), 2);
    assert_eq!(outcomes[0]["result"], "p1");
    assert_eq!(outcomes[1]["result"], "ongoing");
    assert_eq!(v["branches"].as_array().unwrap().len(), 2);
}

#[test]
fn every_random_result_is_a_branch() {
    let v = json_of(&["explore", "--json", "scenarios/sve/10-random-target.json"]);
    let outcomes = v["outcomes"].as_array().unwrap();
    assert_eq!(outcomes.len(), 3);
    for (i, o) in outcomes.iter().enumerate() {
        assert_eq!(o["example"][0]["detail"]["value"], i);
        assert_eq!(o["example"][0]["detail"]["of"], 3);
    }
}

#[test]
fn the_bound_stops_the_search_with_a_message_and_exit_1() {
    judge()
        .args(["explore", "--max-branches", "2", ORDER])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("stopped at --max-branches 2"));
    let v = json_of(&["explore", "--json", "--max-branches", "2", ORDER]);
    assert_eq!(v["complete"], false);
    assert_eq!(v["runs"], 2);
}

#[test]
fn a_scenario_with_nothing_open_has_one_outcome() {
    judge()
        .args(["explore", "scenarios/sve/01-a-full-turn.json"])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "1 branch(es), 1 distinct outcome(s)",
        ))
        .stdout(predicate::str::contains("leaves no decision open"));
}

#[test]
fn bad_input_is_exit_2() {
    let out = judge()
        .args(["explore", "--json", "no-such-file.json"])
        .assert()
        .code(2);
    let v: Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    assert!(v["error"]["message"].is_string(), "{v}");
}

#[test]
fn each_outcome_written_is_a_ruling_that_passes() {
    let dir = std::env::temp_dir().join(format!("judge-explore-{}", std::process::id()));
    let d = dir.to_str().unwrap();
    judge()
        .args([
            "explore",
            "--write",
            d,
            "scenarios/sve/10-random-target.json",
        ])
        .assert()
        .success();
    judge()
        .args(["check", d])
        .assert()
        .success()
        .stdout(predicate::str::contains("3 passed"));
}

#[test]
fn a_candidate_response_is_tried_where_the_engine_accepts_it() {
    let v = json_of(&["explore", "--json", "tests/explore/sve-quick-response.json"]);
    let outcomes = v["outcomes"].as_array().unwrap();
    assert_eq!(outcomes.len(), 2, "{v}");
    // Without the trap the attack wins; with it the knight is destroyed.
    assert_eq!(outcomes[0]["result"], "p1");
    assert_eq!(outcomes[1]["result"], "ongoing");
    let answered = &outcomes[1]["example"][0];
    assert_eq!(answered["decision"], "response 0 (play t)");
    assert_eq!(answered["answer"], "after the last action");
    // Played before the attack, the Quick trap is rejected: not a branch.
    let left_out = v["not_legal"].as_object().unwrap();
    assert_eq!(
        left_out.values().map(|n| n.as_u64().unwrap()).sum::<u64>(),
        1
    );
}

#[test]
fn every_worked_example_of_the_four_games_explores() {
    for game in ["dz", "pmv", "pso2", "sve"] {
        let dir = std::path::Path::new("scenarios").join(game);
        let mut n = 0;
        for e in std::fs::read_dir(&dir).unwrap().flatten() {
            let p = e.path();
            let name = p.to_string_lossy().to_string();
            if !name.ends_with(".json") || name.ends_with(".pool.json") {
                continue;
            }
            let out = judge()
                .args(["explore", "--json", "--max-branches", "50", &name])
                .output()
                .unwrap();
            let code = out.status.code();
            assert!(matches!(code, Some(0 | 1)), "{name}: exit {code:?}");
            let v: Value = serde_json::from_slice(&out.stdout).unwrap();
            assert!(
                !v["outcomes"].as_array().unwrap().is_empty()
                    || !v["not_legal"].as_object().unwrap().is_empty(),
                "{name}"
            );
            n += 1;
        }
        assert!(n > 0, "{game}");
    }
}

#[test]
fn a_given_random_result_is_used_and_one_out_of_range_is_bad_input() {
    let mut v: Value = serde_json::from_str(
        &std::fs::read_to_string("scenarios/sve/10-random-target.json").unwrap(),
    )
    .unwrap();
    v["card_pool"] =
        serde_json::json!([std::fs::canonicalize("scenarios/sve/cards.pool.json").unwrap()]);
    let dir = std::env::temp_dir().join(format!("judge-random-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("r.json");
    let f = file.to_str().unwrap();
    v["random"] = serde_json::json!([2]);
    std::fs::write(&file, v.to_string()).unwrap();
    let out = json_of(&["run", "--json", f]);
    assert_eq!(out["outcome"]["state"]["cards"]["c"]["zone"], "p2.cemetery");
    v["random"] = serde_json::json!([5]);
    std::fs::write(&file, v.to_string()).unwrap();
    judge()
        .args(["run", f])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("`random[0]` = 5 is not allowed"));
}

/// `file` with the choices of its actions taken out, in a temporary file.
fn without_choices(file: &str, name: &str) -> std::path::PathBuf {
    let mut v: Value = serde_json::from_str(&std::fs::read_to_string(file).unwrap()).unwrap();
    for a in v["actions"].as_array_mut().unwrap() {
        a.as_object_mut().unwrap().remove("choices");
    }
    let dir = std::env::temp_dir().join(format!("judge-explore-open-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join(name);
    std::fs::write(&out, v.to_string()).unwrap();
    out
}

#[test]
fn a_choice_the_rules_make_by_default_is_explored_both_ways() {
    // SVE Earth Rite is a "may" (default: not used); PSO2 puts one
    // player's simultaneous abilities in the order they triggered unless
    // the player orders them (406.2.1).
    for (file, other) in [
        ("rulings/sve/13.3.3.2-earth-rite-paid.json", r#""m""#),
        (
            "rulings/pso2/406.2.1-one-players-triggers-in-chosen-order.json",
            r#"["b.on_ko","a.on_ko"]"#,
        ),
    ] {
        let open = without_choices(file, "default.json");
        let v = json_of(&["explore", "--json", open.to_str().unwrap()]);
        let outcomes = v["outcomes"].as_array().unwrap();
        assert_eq!(outcomes.len(), 2, "{file}: {v}");
        let answers: Vec<String> = v["branches"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|b| b["path"].as_array().unwrap().clone())
            .map(|d| d["answer"].as_str().unwrap().to_string())
            .collect();
        assert!(
            answers.iter().any(|a| a.contains("the rules' default")),
            "{file}: {answers:?}"
        );
        assert!(answers.iter().any(|a| a == other), "{file}: {answers:?}");
    }
}

#[test]
fn identical_states_at_the_same_action_are_merged_not_run_again() {
    let v = json_of(&["explore", "--json", "tests/explore/sve-1000-branches.json"]);
    assert_eq!(v["complete"], true);
    assert_eq!(v["branches"].as_array().unwrap().len(), 1000);
    assert_eq!(v["outcomes"].as_array().unwrap().len(), 220);
    let (runs, merged) = (v["runs"].as_u64().unwrap(), v["merged"].as_u64().unwrap());
    // Without merging: 1 + 10 + 100 + 1,000 runs.
    assert!(merged > 0 && runs < 1111, "{runs} runs, {merged} merged");
    assert!(
        v["messages"]
            .as_array()
            .unwrap()
            .iter()
            .any(|m| m.as_str().unwrap().contains("not run again")),
        "{v}"
    );
}

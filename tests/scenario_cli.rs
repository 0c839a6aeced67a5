//! The scenario commands through the real binary: check over the corpora,
//! failing diffs, bad input diagnostics, schema, new, determinism.

use assert_cmd::Command;
use predicates::prelude::*;

fn judge() -> Command {
    let mut c = Command::cargo_bin("judge").unwrap();
    c.env("NO_COLOR", "1");
    // Tables wrap to COLUMNS off a terminal; the tests read whole lines.
    c.env_remove("COLUMNS");
    c
}

fn temp(name: &str, text: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("judge-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

const BASE: &str = r#"{
  "game": "sve",
  "name": "テスト: 攻撃",
  "source": "test",
  "cards": { "f22": { "name": "ファイター", "type": "follower", "cost": 2, "attack": 2, "defense": 2 } },
  "state": {
    "turn": { "player": "p1", "phase": "main", "number": 3 },
    "players": {
      "p1": { "values": { "pp": 2, "max_pp": 2 }, "zones": { "field": [ { "id": "a", "card": "f22" } ], "deck": { "count": 5 } } },
      "p2": { "zones": { "deck": { "count": 5 } } }
    }
  },
  "actions": [ { "do": "attack", "card": "a", "target": "leader" } ],
  "expect": { "state": { "players": { "p2": { "defense": 18 } } } }
}"#;

#[test]
fn check_passes_on_the_rulings_and_scenarios() {
    judge()
        .args(["check", "rulings/", "scenarios/"])
        .assert()
        .code(0)
        .stdout(predicate::str::contains("0 failed, 0 errors"));
}

#[test]
fn a_differing_ruling_exits_1_with_a_unified_diff() {
    let p = temp(
        "wrong.json",
        &BASE.replace("\"defense\": 18", "\"defense\": 17"),
    );
    judge()
        .arg("check")
        .arg(&p)
        .assert()
        .code(1)
        .stdout(predicate::str::contains("-        \"defense\": 17"))
        .stdout(predicate::str::contains("+        \"defense\": 18"))
        .stdout(predicate::str::contains("(expected)"))
        .stdout(predicate::str::contains("1 failed"));
}

#[test]
fn malformed_json_after_japanese_points_at_line_and_column() {
    // The bad value sits after Japanese text on the same line.
    let bad = BASE.replace(
        "\"name\": \"テスト: 攻撃\",",
        "\"name\": \"テスト: 攻撃\", \"seed\": \"x\",",
    );
    let p = temp("bad_type.json", &bad);
    judge()
        .arg("run")
        .arg(&p)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("invalid scenario at `seed`"))
        .stderr(predicate::str::contains("line 3"));
}

#[test]
fn semantic_errors_name_the_path() {
    let cases = [
        (
            BASE.replace("\"card\": \"f22\" }", "\"card\": \"nope\" }"),
            "unknown card `nope`",
            "state.players.p1.zones.field[0].card",
        ),
        (
            BASE.replace("\"field\":", "\"battlefield\":"),
            "unknown zone `battlefield`",
            "state.players.p1.zones.battlefield",
        ),
        (
            BASE.replace("\"pp\": 2,", "\"pp\": 11,"),
            "value out of range",
            "state.players.p1.values.pp",
        ),
        (
            BASE.replace(
                "\"card\": \"a\", \"target\"",
                "\"card\": \"a\", \"from\": \"hand\", \"target\"",
            ),
            "the action says `a` is in `hand`, but it is in `p1.field`",
            "actions[0].from",
        ),
        (
            BASE.replace(
                "\"card\": \"a\", \"target\"",
                "\"card\": \"zz\", \"target\"",
            ),
            "unknown card id `zz`",
            "actions[0].card",
        ),
        (
            BASE.replace("\"game\": \"sve\"", "\"game\": \"mtg\""),
            "unknown game `mtg`",
            "game",
        ),
    ];
    for (i, (text, msg, path)) in cases.iter().enumerate() {
        let p = temp(&format!("sem{i}.json"), text);
        judge()
            .arg("check")
            .arg(&p)
            .assert()
            .code(2)
            .stderr(predicate::str::contains(*msg))
            .stderr(predicate::str::contains(format!("`{path}`")));
    }
}

#[test]
fn strict_mode_names_missing_and_unused_choices() {
    let text = BASE.replace(
        "\"target\": \"leader\"",
        "\"target\": \"leader\", \"choices\": { \"bogus\": 1 }",
    );
    let p = temp("unused.json", &text);
    judge()
        .arg("run")
        .arg(&p)
        .assert()
        .code(2)
        .stdout(predicate::str::contains(
            "choice `bogus` was given but never used",
        ));
    let text = BASE.replace(", \"target\": \"leader\"", "");
    let p = temp("missing.json", &text);
    judge()
        .arg("run")
        .arg(&p)
        .assert()
        .code(2)
        .stdout(predicate::str::contains(
            "does not give choice `target`; options: leader",
        ));
}

#[test]
fn run_is_deterministic_and_json_works() {
    let f = "rulings/sve/10.5.2.2-turn-player-first.json";
    let a = judge().args(["run", "--json", f]).output().unwrap();
    let b = judge().args(["run", "--json", f]).output().unwrap();
    assert_eq!(a.stdout, b.stdout);
    let v: serde_json::Value = serde_json::from_slice(&a.stdout).unwrap();
    assert_eq!(v["outcome"]["result"], "p1");
    assert!(v["outcome"]["trace"].as_array().unwrap().len() > 5);
}

#[test]
fn run_reads_the_scenario_from_standard_input() {
    let f = "rulings/sve/10.5.2.2-turn-player-first.json";
    let from_file = judge().args(["run", "--json", f]).output().unwrap();
    let piped = judge()
        .args(["run", "--json", "-"])
        .write_stdin(std::fs::read(f).unwrap())
        .output()
        .unwrap();
    assert!(piped.status.success());
    let a: serde_json::Value = serde_json::from_slice(&from_file.stdout).unwrap();
    let b: serde_json::Value = serde_json::from_slice(&piped.stdout).unwrap();
    assert_eq!(a["outcome"], b["outcome"]);
    assert_eq!(b["file"], "<stdin>");
    // Malformed input on stdin is a diagnostic naming `<stdin>`, exit 2.
    judge()
        .args(["run", "-"])
        .write_stdin("{ \"game\": ")
        .assert()
        .code(2)
        .stderr(predicate::str::contains("<stdin>"));
}

#[test]
fn schema_is_json_and_describes_the_format() {
    let out = judge().arg("schema").output().unwrap();
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    for key in ["game", "state", "actions", "expect", "cards"] {
        assert!(v["properties"].get(key).is_some(), "schema lacks {key}");
    }
}

#[test]
fn new_writes_a_scenario_that_checks() {
    let out = judge().args(["new", "sve"]).output().unwrap();
    assert!(out.status.success());
    let p = temp("new.json", std::str::from_utf8(&out.stdout).unwrap());
    judge().arg("check").arg(&p).assert().code(0);
    let out = judge().args(["new", "pmv"]).output().unwrap();
    assert!(out.status.success());
    let p = temp("new-pmv.json", std::str::from_utf8(&out.stdout).unwrap());
    judge().arg("check").arg(&p).assert().code(0);
    let out = judge().args(["new", "dz"]).output().unwrap();
    assert!(out.status.success());
    let p = temp("new-dz.json", std::str::from_utf8(&out.stdout).unwrap());
    judge().arg("check").arg(&p).assert().code(0);
}

/// A token that destroys itself on entering and comes back by Last Words;
/// `extra` is more of the Last Words' effect.
fn phoenix_loop(extra: &str) -> String {
    r#"{
      "game": "sve", "name": "loop", "source": "test",
      "cards": {
        "phoenix": { "name": "Phoenix", "type": "follower", "cost": 0, "attack": 1, "defense": 1,
          "abilities": [
            { "trigger": "fanfare", "effect": [ { "do": "destroy", "target": { "select": "this" } } ] },
            { "trigger": "last_words", "effect": [ { "do": "summon", "card": "phoenix" } EXTRA ] } ] }
      },
      "state": { "turn": { "player": "p1", "phase": "main" },
        "players": { "p1": { "zones": { "hand": [ { "id": "h", "card": "phoenix" } ] } }, "p2": {} } },
      "actions": [ { "do": "play", "card": "h" } ]
    }"#
    .replace("EXTRA", extra)
}

#[test]
fn an_unbounded_loop_hits_the_step_budget() {
    // Each time round the leader's defense goes up (no maximum, SVE
    // 1.3.2.4): the state never repeats, so only the budget stops it.
    let more = r#", { "do": "change_value", "value": "defense", "amount": 1 }"#;
    let p = temp("loop.json", &phoenix_loop(more));
    judge()
        .arg("run")
        .arg(&p)
        .assert()
        .code(2)
        .stdout(predicate::str::contains("step budget of"));
}

#[test]
fn a_repeating_loop_no_one_can_stop_is_a_draw() {
    // SVE 15.2.1 item 3: the same state comes back with nothing decided.
    let p = temp("loop-draw.json", &phoenix_loop(""));
    judge()
        .arg("run")
        .arg(&p)
        .assert()
        .stdout(predicate::str::contains("loop.draw"))
        .stdout(predicate::str::contains("15.2.1.3"));
}

#[test]
fn a_rules_version_mismatch_is_a_warning() {
    let text = BASE.replace(
        "\"game\": \"sve\",",
        "\"game\": \"sve\", \"rules_version\": \"1.6.0\",",
    );
    let p = temp("version.json", &text);
    judge()
        .arg("check")
        .arg(&p)
        .assert()
        .code(0)
        .stderr(predicate::str::contains("pinned to rules version 1.6.0"));
}

#[test]
fn explain_prints_the_clause_text() {
    judge()
        .args(["run", "--explain", "rulings/sve/11.2.1-leader-defeat.json"])
        .assert()
        .code(0)
        .stdout(predicate::str::contains("§ 11.2.1"))
        .stdout(predicate::str::contains("自身のリーダーの体力が0"));
}

/// Expectations that can state any ruling: a rejection's rule as a list
/// (any of them) or a parent clause; `cites` satisfied by a sub-clause with
/// exact prefix rules; `not_cited`.
#[test]
fn rule_lists_parent_clauses_and_not_cited() {
    let base: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string("rulings/pmv/10.21.2.a-one-per-turn.json").unwrap(),
    )
    .unwrap();
    let with = |expect: serde_json::Value| {
        let mut v = base.clone();
        v["expect"] = expect;
        v.to_string()
    };
    let cases = [
        (
            serde_json::json!({ "rejected": [{ "action": 3, "rule": ["5.2.2.b", "10.21.2.a"] }] }),
            0,
        ),
        (
            serde_json::json!({ "rejected": [{ "action": 3, "rule": "10.21.2" }] }),
            0,
        ),
        (
            serde_json::json!({ "rejected": [{ "action": 3, "rule": ["5.2.2.b", "5.2.2.c"] }] }),
            1,
        ),
        (
            serde_json::json!({ "rejected": [{ "action": 3, "rule": "10.21.2.a" }], "cites": ["10.21"] }),
            0,
        ),
        (
            serde_json::json!({ "rejected": [{ "action": 3, "rule": "10.21.2.a" }], "cites": ["10.2"] }),
            1,
        ),
        (
            serde_json::json!({ "rejected": [{ "action": 3, "rule": "10.21.2.a" }], "not_cited": ["1.5.4"] }),
            0,
        ),
        (
            serde_json::json!({ "rejected": [{ "action": 3, "rule": "10.21.2.a" }], "not_cited": ["10.21"] }),
            1,
        ),
    ];
    for (i, (expect, code)) in cases.into_iter().enumerate() {
        let f = temp(&format!("expect_forms_{i}.json"), &with(expect.clone()));
        let out = judge().arg("check").arg(&f).output().unwrap();
        assert_eq!(
            out.status.code(),
            Some(code),
            "{expect}: {}",
            String::from_utf8_lossy(&out.stdout)
        );
    }
}

/// Ordered trace patterns assert intermediate steps in order (a step, its
/// cites, its changes, its words); `never` patterns fail when a step
/// occurs; a malformed change is refused at load, located.
#[test]
fn trace_patterns_in_order_and_never() {
    let base: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string("rulings/sve/10.6.2.3-target-cost-filter-evolved.json").unwrap(),
    )
    .unwrap();
    let with = |expect: serde_json::Value| {
        let mut v = base.clone();
        v["expect"] = expect;
        v.to_string()
    };
    let targets = serde_json::json!({ "step": "play.targets", "cites": ["10.6.2.3"], "text": "legal targets: g" });
    let destroy = serde_json::json!({ "step": "effect.destroy", "objects": ["g"] });
    let moved = serde_json::json!({ "changes": { "s.zone": { "before": "p1.hand", "after": "resolution" } } });
    let cases = [
        (serde_json::json!({ "trace": [moved, targets, destroy] }), 0),
        (serde_json::json!({ "trace": [destroy, targets] }), 1),
        (
            serde_json::json!({ "trace": [{ "step": "effect" }, { "step": "effect" }] }),
            1,
        ),
        (
            serde_json::json!({ "never": [{ "step": "effect.destroy", "objects": ["o"] }] }),
            0,
        ),
        (
            serde_json::json!({ "never": [{ "step": "effect.destroy" }] }),
            1,
        ),
        (
            serde_json::json!({ "trace": [{ "changes": { "p1.pp": [1] } }] }),
            2,
        ),
        (serde_json::json!({ "trace": [{ "cites": ["99.99"] }] }), 2),
    ];
    for (i, (expect, code)) in cases.into_iter().enumerate() {
        let f = temp(&format!("trace_patterns_{i}.json"), &with(expect.clone()));
        let out = judge().arg("check").arg(&f).output().unwrap();
        assert_eq!(
            out.status.code(),
            Some(code),
            "{expect}: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
    // The diff of an unmatched pattern shows the nearest step.
    let f = temp(
        "trace_patterns_diff.json",
        &with(serde_json::json!({ "trace": [{ "step": "effect.destroy", "objects": ["o"] }] })),
    );
    let out = judge().arg("check").arg(&f).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("trace pattern 0 is not matched"), "{text}");
}

/// `//` comments are allowed in any object (card definitions, effects,
/// targets, actions); a turn number that is not the turn player's is a
/// warning that names both fields.
#[test]
fn comments_anywhere_and_the_turn_order_warning() {
    let src = std::fs::read_to_string("rulings/sve/10.6.2.3-target-cost-filter-evolved.json")
        .unwrap()
        .replacen(
            r#""do": "destroy","#,
            r#""//": ["any value", {"even": "objects"}], "do": "destroy","#,
            1,
        )
        .replacen(
            r#""select": "chosen","#,
            r#""select": "chosen", "//": 1,"#,
            1,
        );
    assert!(src.matches(r#""//""#).count() >= 3, "{src}");
    let f = temp("comments_anywhere.json", &src);
    judge().arg("check").arg(&f).assert().code(0);
    let mut v: serde_json::Value = serde_json::from_str(&src.replace(r#""//": 1,"#, "")).unwrap();
    v["state"]["turn"]["number"] = serde_json::json!(6);
    let f = temp("turn_order_warning.json", &v.to_string());
    judge()
        .arg("check")
        .arg(&f)
        .assert()
        .code(0)
        .stderr(predicate::str::contains(
            "turn 6 is p2's turn when p1 goes first",
        ));
}

/// `judge check --rulebook sve=NEW.txt`: a ruling that cites a clause the
/// new rulebook changed is stale, with the word diff; the others are
/// re-proved; `--json` lists the stale clauses; bad input exits 2.
#[test]
fn a_newer_rulebook_flags_the_rulings_it_makes_stale() {
    let old = std::fs::read_to_string("rulebooks/sve-1.7.0.txt").unwrap();
    let edited = old.replacen(
        "必殺(12.14)を持つフォロワーと交戦していた場合",
        "必殺(12.14)を持つフォロワーからダメージを受けていた場合",
        1,
    );
    assert_ne!(old, edited, "the edited clause exists");
    let book = temp("sve-edited.txt", &edited);
    let spec = format!("sve={}", book.display());
    let out = judge()
        .args(["check", "--rulebook", &spec])
        .args([
            "rulings/sve/11.3.2-bane.json",
            "rulings/sve/12.8.2-ward-must-be-attacked.json",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("STALE rulings/sve/11.3.2-bane.json"),
        "{text}"
    );
    assert!(
        text.contains("[-と交戦していた-]{+からダメージを受けていた+}"),
        "{text}"
    );
    assert!(
        text.contains("2 scenarios: 1 passed, 0 failed, 0 errors, 1 stale"),
        "{text}"
    );
    let out = judge()
        .args(["check", "--json", "--rulebook", &spec])
        .args([
            "rulings/sve/11.3.2-bane.json",
            "rulings/sve/12.8.2-ward-must-be-attacked.json",
        ])
        .output()
        .unwrap();
    let rows: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(rows[0]["status"], "stale");
    assert_eq!(rows[0]["stale"][0]["id"], "11.3.2");
    assert_eq!(rows[1]["status"], "pass");
    // The unchanged rulebook makes nothing stale.
    let same = temp("sve-same.txt", &old);
    judge()
        .args(["check", "--rulebook", &format!("sve={}", same.display())])
        .arg("rulings/sve/11.3.2-bane.json")
        .assert()
        .code(0);
    judge()
        .args(["check", "--rulebook", "sve", "rulings/sve/11.3.2-bane.json"])
        .assert()
        .code(2);
}

/// Off a terminal, `COLUMNS` fits the table to that width (a judge piping
/// into `less`); without it, rows stay on one line each.
#[test]
fn check_table_fits_columns() {
    let out = judge()
        .args(["check", "--verbose", "scenarios/sve"])
        .env("COLUMNS", "72")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let table: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with(['│', '┌', '└', '╞']))
        .collect();
    assert!(table.len() > 12, "{text}");
    for l in &table {
        assert!(l.chars().count() <= 72, "wider than 72: {l}");
    }
    let out = judge()
        .args(["check", "--verbose", "scenarios/sve"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.lines().any(|l| l.chars().count() > 72),
        "unwrapped without COLUMNS: {text}"
    );
}

/// `judge check` leads with what went wrong: a passing run prints only the
/// summary line; `--verbose` lists every file; a failure is listed by file.
#[test]
fn check_output_leads_with_failures() {
    let out = judge().args(["check", "scenarios/sve"]).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    // The summary line, then one line per kind of source (issue 13).
    assert!(
        text.lines().skip(1).all(|l| l.starts_with("re-proved ")),
        "{text}"
    );
    assert!(
        text.starts_with("12 scenarios: 12 passed") || text.contains(" passed, 0 failed, 0 errors"),
        "{text}"
    );
    let out = judge()
        .args(["check", "--verbose", "scenarios/sve"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("scenarios/sve/01-a-full-turn.json"), "{text}");
    let bad = temp("check_leads_bad.json", "[]");
    let out = judge()
        .arg("check")
        .arg(&bad)
        .arg("scenarios/sve/01-a-full-turn.json")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("check_leads_bad.json") && text.contains("ERROR"),
        "{text}"
    );
    assert!(!text.contains("01-a-full-turn.json"), "{text}");
}

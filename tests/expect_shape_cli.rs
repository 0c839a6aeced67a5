//! Expectations that could never fail, through the real binary (issue 13):
//! each is refused at load with its place in the file and what to write
//! instead, or (an empty object inside a state) means what it reads.

use assert_cmd::Command;

fn judge() -> Command {
    let mut c = Command::cargo_bin("judge").unwrap();
    c.env("NO_COLOR", "1");
    c.env_remove("COLUMNS");
    c
}

fn temp(name: &str, text: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("judge-shape-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

/// An SVE board: `a` (2/2) attacks the leader; `c` carries `counters`.
fn scenario(counters: &str, expect: &str) -> String {
    format!(
        r#"{{
  "game": "sve",
  "name": "shape",
  "source": "test",
  "cards": {{ "f22": {{ "name": "F", "type": "follower", "cost": 2, "attack": 2, "defense": 2 }} }},
  "state": {{
    "turn": {{ "player": "p1", "phase": "main", "number": 3 }},
    "players": {{
      "p1": {{ "values": {{ "pp": 2, "max_pp": 2 }}, "zones": {{ "field": [ {{ "id": "a", "card": "f22" }}, {{ "id": "c", "card": "f22", "counters": {counters} }} ], "deck": {{ "count": 5 }} }} }},
      "p2": {{ "zones": {{ "deck": {{ "count": 5 }} }} }}
    }}
  }},
  "actions": [ {{ "do": "attack", "card": "a", "target": "leader" }} ],
  "expect": {expect}
}}"#
    )
}

/// Runs `judge check` on the scenario and returns (exit code, stdout+stderr).
fn check(name: &str, text: &str) -> (i32, String) {
    let p = temp(name, text);
    let out = judge().arg("check").arg(&p).output().unwrap();
    let all = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.code().unwrap_or(-1), all)
}

#[test]
fn the_base_scenario_checks() {
    let (code, out) = check(
        "base.json",
        &scenario(
            "{}",
            r#"{ "state": { "players": { "p2": { "defense": 18 } } } }"#,
        ),
    );
    assert_eq!(code, 0, "{out}");
}

#[test]
fn an_empty_counters_object_means_no_counters() {
    let ex = r#"{ "state": { "cards": { "c": { "counters": {} } } } }"#;
    let (code, out) = check("none.json", &scenario("{}", ex));
    assert_eq!(code, 0, "no counters, `{{}}` holds: {out}");
    let (code, out) = check("some.json", &scenario(r#"{ "stack": 1 }"#, ex));
    assert_eq!(code, 1, "a counter on c must fail `counters: {{}}`: {out}");
    assert!(
        out.contains("\"stack\": 1"),
        "the diff shows the counter: {out}"
    );
}

#[test]
fn an_empty_section_means_an_empty_section() {
    // Read whole, not pruned to the keys it names (none): a and c are there.
    let ex = r#"{ "state": { "cards": {} } }"#;
    let (code, out) = check("nocards.json", &scenario("{}", ex));
    assert_eq!(
        code, 1,
        "`cards: {{}}` must fail on a board with cards: {out}"
    );
    assert!(out.contains("\"a\": {"), "the diff shows the cards: {out}");
}

/// Each never-failing shape, the path the error names, and words of its
/// message.
const REFUSED: &[(&str, &str, &str)] = &[
    (
        r#"{ "state": {} }"#,
        "expect.state",
        "an empty state asserts nothing",
    ),
    (r#"{ "state": [] }"#, "expect.state", "a state is an object"),
    (
        r#"{ "cites": [] }"#,
        "expect.cites",
        "an empty `cites` asserts nothing",
    ),
    (
        r#"{ "not_cited": [], "result": "ongoing" }"#,
        "expect.not_cited",
        "asserts nothing",
    ),
    (
        r#"{ "trace": [], "result": "ongoing" }"#,
        "expect.trace",
        "asserts nothing",
    ),
    (
        r#"{ "never": [], "result": "ongoing" }"#,
        "expect.never",
        "asserts nothing",
    ),
    (
        r#"{ "checkpoints": [], "result": "ongoing" }"#,
        "expect.checkpoints",
        "asserts nothing",
    ),
    (
        r#"{ "checkpoints": [ { "after": 0, "state": {} } ] }"#,
        "expect.checkpoints[0].state",
        "an empty state",
    ),
    (
        r#"{ "trace": [ { "//": "x" } ] }"#,
        "expect.trace[0]",
        "matches every trace entry",
    ),
    (
        r#"{ "never": [ {} ] }"#,
        "expect.never[0]",
        "matches every trace entry",
    ),
    (
        r#"{ "trace": [ { "step": "attack", "objects": [] } ] }"#,
        "expect.trace[0].objects",
        "an empty `objects`",
    ),
    (
        r#"{ "trace": [ { "step": "attack", "cites": [] } ] }"#,
        "expect.trace[0].cites",
        "an empty `cites`",
    ),
    (
        r#"{ "never": [ { "step": "attack", "changes": {} } ] }"#,
        "expect.never[0].changes",
        "an empty `changes`",
    ),
    (
        r#"{ "trace": [ { "step": "attack", "text": " " } ] }"#,
        "expect.trace[0].text",
        "a `text` of no words",
    ),
    (
        r#"{ "never": [ { "step": "" } ] }"#,
        "expect.never[0].step",
        "a blank `step` matches no trace entry",
    ),
    (
        r#"{ "result": "ongoing", "negative": " " }"#,
        "expect.negative",
        "a blank `negative`",
    ),
    (
        r#"{ "never": [ { "step": "destroy", "objects": ["zz"] } ] }"#,
        "expect.never[0].objects[0]",
        "`zz` names no card or player",
    ),
    (
        r#"{ "never": [ { "changes": { "zz.zone": "p1.cemetery" } } ] }"#,
        "expect.never[0].changes.zz.zone",
        "`zz.zone` names no card or player",
    ),
    (
        r#"{ "state": { "cards": { "zz": "<missing>" } } }"#,
        "expect.state.cards.zz",
        "`zz` names no card of this board",
    ),
    (
        r#"{ "checkpoints": [ { "after": 0, "state": { "cards": { "zz": "<missing>" } } } ] }"#,
        "expect.checkpoints[0].state.cards.zz",
        "`zz` names no card of this board",
    ),
    // `null` reads as no `state` to serde; written, it is refused.
    (r#"{ "state": null }"#, "expect.state", "not null"),
    // A pattern that says nothing but holds an empty list is refused for
    // the list, where it is written.
    (
        r#"{ "trace": [ { "changes": {} } ] }"#,
        "expect.trace[0].changes",
        "an empty `changes` asserts nothing",
    ),
];

/// `"<missing>"` asserts that a key is absent (scenarios/README.md,
/// "Asserting absence"): it holds when the key is absent and fails when it
/// is present, whatever its value.
#[test]
fn missing_asserts_a_key_is_absent() {
    let ex = r#"{ "state": { "cards": { "c": { "counters": { "stack": "<missing>" } } } } }"#;
    let (code, out) = check("absent.json", &scenario("{}", ex));
    assert_eq!(code, 0, "no stack counter, `<missing>` holds: {out}");
    let (code, out) = check("present.json", &scenario(r#"{ "stack": 1 }"#, ex));
    assert_eq!(code, 1, "a stack counter must fail `<missing>`: {out}");
    assert!(out.contains("\"stack\": 1"), "the diff shows it: {out}");
    // A card that is on the board is not absent.
    let ex = r#"{ "state": { "cards": { "c": "<missing>" } } }"#;
    let (code, out) = check("card.json", &scenario("{}", ex));
    assert_eq!(code, 1, "c is on the board: {out}");
    // A token the run may create is a name `<missing>` may use.
    let ex = r#"{ "state": { "cards": { "token.9": "<missing>" }, "players": { "p2": { "defense": 18 } } } }"#;
    let (code, out) = check("token.json", &scenario("{}", ex));
    assert_eq!(code, 0, "no token.9: {out}");
}

#[test]
fn never_failing_expectations_are_refused_where_they_are_written() {
    for (i, (expect, path, words)) in REFUSED.iter().enumerate() {
        let text = scenario("{}", expect);
        let (code, out) = check(&format!("refused{i}.json"), &text);
        assert_eq!(code, 2, "{expect} must be refused at load: {out}");
        assert!(
            out.contains(&format!("(at `{path}`)")),
            "{expect}: path {path}: {out}"
        );
        assert!(out.contains(words), "{expect}: `{words}`: {out}");
        // Located: the caret's line is shown, and help says what to write.
        assert!(out.contains("help:"), "{expect}: no help: {out}");
        assert!(out.contains(" │ "), "{expect}: no source excerpt: {out}");
    }
}

#[test]
fn what_still_asserts_something_loads() {
    for (i, expect) in [
        // No action is rejected: what any `expect` asserts.
        "{}",
        r#"{ "rejected": [] }"#,
        r#"{ "never": [ { "step": "destroy", "objects": ["a"] } ] }"#,
        r#"{ "never": [ { "changes": { "p2.defense": 17 } } ] }"#,
        r#"{ "never": [ { "objects": ["token.1"] } ] }"#,
        r#"{ "trace": [ { "step": "attack", "note": "" } ], "negative": "x" }"#,
    ]
    .iter()
    .enumerate()
    {
        let (code, out) = check(&format!("kept{i}.json"), &scenario("{}", expect));
        assert_ne!(code, 2, "{expect} must load: {out}");
    }
}

//! Dimension Zero through the real binary: the trace cites clauses the way
//! judges write them, `--json` keeps the canonical ids beside them, and
//! `judge rule dz` accepts every form the trace prints.

use assert_cmd::Command;

fn judge() -> Command {
    Command::cargo_bin("judge").unwrap()
}

const MOVE: &str = "scenarios/dz/02-a-move-answered-on-the-stack.json";

#[test]
fn the_trace_cites_dz_clauses_in_the_judges_form() {
    for explain in [false, true] {
        let mut cmd = judge();
        cmd.arg("run");
        if explain {
            cmd.arg("--explain");
        }
        let out = cmd.arg(MOVE).output().unwrap();
        assert!(out.status.success());
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(text.contains("第4部第9章 3-2"), "{text}");
        // The steps (not the file's own source line) cite the judges' form.
        assert!(
            text.lines()
                .filter(|l| l.contains('§'))
                .all(|l| !l.contains("4.9.3-2")),
            "{text}"
        );
    }
}

#[test]
fn json_keeps_the_canonical_id_beside_the_display_form() {
    let out = judge().args(["run", "--json", MOVE]).output().unwrap();
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["clause_display"]["4.9.3-2"], "第4部第9章 3-2");
    let cited: Vec<&str> = v["outcome"]["trace"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|e| e["rules"].as_array().unwrap())
        .filter_map(|r| r.as_str())
        .collect();
    assert!(cited.contains(&"4.9.3-2"));
}

#[test]
fn every_form_the_trace_prints_is_accepted_by_judge_rule() {
    let out = judge().args(["run", "--json", MOVE]).output().unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let shown = v["clause_display"].as_object().unwrap();
    assert!(!shown.is_empty());
    for (id, form) in shown {
        let out = judge()
            .args(["rule", "dz", form.as_str().unwrap(), "--json"])
            .output()
            .unwrap();
        assert!(out.status.success(), "{form}");
        let r: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(r["id"].as_str(), Some(id.as_str()), "{form}");
    }
}

#[test]
fn other_games_keep_canonical_ids_in_the_trace() {
    let out = judge()
        .args(["run", "rulings/sve/11.3.2-bane.json"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("11.3.2"), "{text}");
    assert!(!text.contains("第"), "{text}");
    let out = judge()
        .args(["run", "--json", "rulings/sve/11.3.2-bane.json"])
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(v.get("clause_display").is_none());
}

/// DZ's static abilities give keywords and add races through the shared
/// words `change_keywords` and `change_info`; the parts DZ has not built
/// (taking keywords away, changing a name) stop the run before it starts.
#[test]
fn unbuilt_parts_of_the_shared_change_words_are_not_implemented() {
    const GIVES: &str = "rulings/dz/4.14.2-ex2-a-granted-keyword-applies-as-the-unit-arrives.json";
    const ADDS: &str = "rulings/dz/4.14.5-2-ex1-races-change-before-power.json";
    for (file, from, to, says) in [
        (
            GIVES,
            r#""gain": ["haste"],"#,
            r#""gain": ["haste"], "lose": ["haste"],"#,
            "taking keywords away",
        ),
        (
            ADDS,
            r#""traits": ["ドール"],"#,
            r#""traits": ["ドール"], "name": "x","#,
            "other than adding `traits`",
        ),
    ] {
        let text = std::fs::read_to_string(file).unwrap();
        assert!(text.contains(from), "{file} no longer holds {from}");
        let dir = std::env::temp_dir().join(format!("judge-dz-change-{}", says.len()));
        std::fs::create_dir_all(&dir).unwrap();
        let scenario = dir.join("scenario.json");
        std::fs::write(&scenario, text.replacen(from, to, 1)).unwrap();
        let out = judge().arg("run").arg(&scenario).output().unwrap();
        assert!(!out.status.success());
        let all = String::from_utf8_lossy(&out.stdout).to_string()
            + &String::from_utf8_lossy(&out.stderr);
        assert!(all.contains("not implemented: clause 4.14.3"), "{all}");
        assert!(all.contains(says), "{all}");
    }
}

/// A starting board with two units of one player on one battle square (or
/// two bases on one base square) cannot arise: the rule effect would have
/// sent the later one to the graveyard, and the board cannot say which
/// came later. It is refused with a located diagnostic citing the clause;
/// one unit of each player on a square (a battle) is a legal board.
#[test]
fn a_board_no_duel_can_reach_is_refused_citing_the_rule_effect() {
    const UNITS: &str = "rulings/dz/4.16.4-6-two-of-your-units-on-one-square.json";
    const BASES: &str = "rulings/dz/4.16.4-7-two-bases-on-one-base-square.json";
    let board = |file: &str, p1: serde_json::Value, p2: serde_json::Value| {
        let mut v: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(file).unwrap()).unwrap();
        v["actions"] = serde_json::json!([]);
        v["expect"] = serde_json::json!({});
        let players = &mut v["state"]["players"];
        for (p, zones) in [("p1", p1), ("p2", p2)] {
            for (z, cards) in zones.as_object().unwrap() {
                players[p]["zones"][z] = cards.clone();
            }
        }
        let out = judge()
            .args(["run", "-"])
            .write_stdin(serde_json::to_string_pretty(&v).unwrap())
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).to_string(),
        )
    };
    let two = |z: &str, key: &str| serde_json::json!({ z: [{"id": "x1", "card": key}, {"id": "x2", "card": key}] });
    for (file, zone, key, clause) in [
        (UNITS, "R2", "v", "4.16.4-6"),
        (BASES, "base_L", "b", "4.16.4-7"),
    ] {
        for (p1, p2) in [
            (two(zone, key), serde_json::json!({})),
            (serde_json::json!({}), two(zone, key)),
        ] {
            let (code, err) = board(file, p1, p2);
            assert_eq!(code, Some(2), "{err}");
            assert!(err.contains("illegal board"), "{err}");
            assert!(err.contains(clause), "{err}");
            assert!(err.contains(&format!("on {zone} (x1, x2)")), "{err}");
            // Located: miette shows the line and column in the file.
            assert!(err.contains("╭─[<stdin>:"), "{err}");
        }
    }
    let one = |id: &str| serde_json::json!({"C2": [{"id": id, "card": "v"}]});
    let (code, err) = board(UNITS, one("x1"), one("x2"));
    assert_eq!(
        code,
        Some(0),
        "one unit of each player on a square is legal: {err}"
    );
}

/// The state after action `n` of the stack example, without the rest.
fn dumped(n: &str) -> serde_json::Value {
    json_of(&["run", MOVE, "--dump-at", n, "--no-rest"])
}

/// The JSON `judge` prints for `args`, which must succeed.
fn json_of(args: &[&str]) -> serde_json::Value {
    let out = judge().args(args).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    serde_json::from_slice(&out.stdout).unwrap()
}

/// Runs scenario `v` with `actions`: the zone of card `s` at the end.
fn zone_of_s(v: &serde_json::Value, actions: serde_json::Value) -> String {
    let mut v = v.clone();
    v["actions"] = actions;
    let dir = std::env::temp_dir().join(format!("judge-dz-resume-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join(format!("{}.json", v["actions"].to_string().len()));
    std::fs::write(&f, v.to_string()).unwrap();
    let o = json_of(&["run", "--json", f.to_str().unwrap()]);
    o["outcome"]["state"]["cards"]["s"]["zone"]
        .as_str()
        .unwrap()
        .to_string()
}

#[test]
fn a_move_on_the_stack_is_written_and_resumed() {
    // After the move is declared, it waits on the stack with p1 holding
    // priority: both passing resolves it (4.9.3).
    let v = dumped("0");
    let progress = &v["state"]["in_progress"];
    assert_eq!(progress["priority"], "p1");
    assert_eq!(progress["stack"][0]["kind"]["move"]["to"], "C2");
    let pass = serde_json::json!([{ "do": "both_pass" }]);
    assert_eq!(zone_of_s(&v, pass.clone()), "p1.C2");
    // With the stack emptied, nothing moves: both passing ends the phase.
    let mut empty = v.clone();
    empty["state"]["in_progress"]["stack"] = serde_json::json!([]);
    assert_eq!(zone_of_s(&empty, pass), "p1.C1");
}

#[test]
fn a_broken_description_in_progress_is_a_located_error() {
    let mut v = dumped("0");
    v["state"]["in_progress"]["stack"][0]["kind"]["move"]["unit"] = "nobody".into();
    let dir = std::env::temp_dir().join(format!("judge-dz-broken-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("broken.json");
    std::fs::write(&f, serde_json::to_string_pretty(&v).unwrap()).unwrap();
    let out = judge().args(["run", f.to_str().unwrap()]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("nobody") && err.contains("in_progress"),
        "{err}"
    );
}

/// The ruling of 1.2.2#ex2 with `from` replaced by `to`, run; the exit
/// code and everything it printed.
fn amount_ruling_with(from: &str, to: &str) -> (Option<i32>, String) {
    const AMOUNT: &str = "rulings/dz/1.2.2-ex2-highest-smash-of-no-unit-is-0.json";
    let text = std::fs::read_to_string(AMOUNT).unwrap();
    assert!(text.contains(from), "{AMOUNT} no longer holds {from}");
    let out = judge()
        .args(["run", "-"])
        .write_stdin(text.replacen(from, to, 1))
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr),
    )
}

/// `amount_of` reads a number the cards have: an unknown stat is refused
/// at load, located where the file writes it; around an effect whose amount
/// DZ does not set, or reading a `defense` DZ cards lack, the run stops
/// before anything happens with `not implemented`.
#[test]
fn an_amount_read_from_the_board_is_refused_where_dz_cannot_read_it() {
    let (code, all) = amount_ruling_with(r#""stat": "smash""#, r#""stat": "toughness""#);
    assert_eq!(code, Some(2), "{all}");
    assert!(all.contains("unknown stat `toughness`"), "{all}");
    assert!(all.contains("effect[0].stat"), "{all}");
    assert!(all.contains("╭─[<stdin>:"), "{all}");
    let (code, all) = amount_ruling_with(r#""stat": "smash""#, r#""stat": "defense""#);
    assert_ne!(code, Some(0), "{all}");
    assert!(all.contains("not implemented: clause 1.2.2"), "{all}");
    let (code, all) = amount_ruling_with(
        r#""do": "draw",
                "amount": 0"#,
        r#""do": "shuffle""#,
    );
    assert_ne!(code, Some(0), "{all}");
    assert!(all.contains("not implemented: clause 4.9.2-3"), "{all}");
    assert!(all.contains("`amount_of` around `shuffle`"), "{all}");
}

/// 「相手は…スクエアに置く」: a unit put onto a square by a player the
/// effect names (2.20.1-5) is not implemented, never read as the effect's
/// controller putting it.
#[test]
fn a_unit_put_by_a_player_the_effect_names_is_not_implemented() {
    const PUT: &str = "rulings/dz/2.20.1-4-ex1-put-onto-a-square-under-the-spells-controller.json";
    let text = std::fs::read_to_string(PUT).unwrap();
    let from = r#""to": "own_area","#;
    assert!(text.contains(from), "{PUT} no longer holds {from}");
    let out = judge()
        .args(["run", "-"])
        .write_stdin(text.replacen(from, r#""to": "own_area", "who": "opponent","#, 1))
        .output()
        .unwrap();
    let all =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{all}");
    assert!(all.contains("not implemented: clause 2.20.1-5"), "{all}");
}

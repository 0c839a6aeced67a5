//! Choices belong to the decision (issue 13): a choice that one player
//! decides, reached by another player's action, must be addressed to the
//! decider (`p2.graze`, `p1.a.upkeep`). Through the real binary.

use assert_cmd::Command;
use predicates::prelude::*;

fn judge() -> Command {
    let mut c = Command::cargo_bin("judge").unwrap();
    c.env("NO_COLOR", "1");
    c.env_remove("COLUMNS");
    c
}

/// `ruling` with `from` replaced by `to`, written to a temporary file of
/// its own: tests run in parallel, and two may rewrite the same ruling.
fn rewritten(ruling: &str, from: &str, to: &str) -> std::path::PathBuf {
    static WRITTEN: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let text = std::fs::read_to_string(ruling).unwrap();
    assert!(text.contains(from), "{ruling} no longer contains {from}");
    let dir = std::env::temp_dir().join(format!("judge-choices-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let name = std::path::Path::new(ruling).file_name().unwrap();
    let n = WRITTEN.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let p = dir.join(format!("{n}-{}", name.to_string_lossy()));
    std::fs::write(&p, text.replace(from, to)).unwrap();
    p
}

/// Checks `ruling` as written (it holds) and with the addressed choice
/// unaddressed (refused with exit 2, naming the addressed key).
fn addressed_holds_unaddressed_refused(ruling: &str, addressed: &str, bare: &str) {
    judge().args(["check", ruling]).assert().code(0);
    let p = rewritten(ruling, &format!("\"{addressed}\""), &format!("\"{bare}\""));
    judge()
        .arg("check")
        .arg(&p)
        .assert()
        .code(2)
        .stdout(predicate::str::contains("0 passed, 0 failed, 1 errors"))
        .stderr(predicate::str::contains(format!(
            "choice `{bare}` is decided by"
        )))
        .stderr(predicate::str::contains(format!(
            "address it as `{addressed}`"
        )));
}

/// 6.2.4.g: the player who took the damage decides graze; the action that
/// reaches the step is the attacker's pass.
#[test]
fn graze_on_the_attackers_action_must_be_addressed() {
    addressed_holds_unaddressed_refused("rulings/pmv/6.5.3-graze.json", "p2.graze", "graze");
}

/// 10.27.2.a: the turn player decides upkeep; the action that reaches the
/// maintenance phase is the other player's pass.
#[test]
fn upkeep_on_the_other_players_pass_must_be_addressed() {
    addressed_holds_unaddressed_refused(
        "rulings/pmv/10.27.2.a-upkeep-unpayable.json",
        "p1.a.upkeep",
        "a.upkeep",
    );
}

/// 10.7.3.1: the master of the pending abilities orders them; the action
/// that reaches p1's start of main phase is p2's end of phase (SVE: the
/// decider declared in the core choice store by the game's check timing).
#[test]
fn sve_trigger_order_on_the_other_players_action_must_be_addressed() {
    addressed_holds_unaddressed_refused(
        "rulings/sve/10.7.5-reading-turn-start-is-main-phase.json",
        "p1.order",
        "order",
    );
}

/// Without the order, the missing choice names the key to write on this
/// action: the decider's, addressed.
#[test]
fn sve_missing_trigger_order_names_the_addressed_key() {
    let ruling = "rulings/sve/10.7.5-reading-turn-start-is-main-phase.json";
    let p = rewritten(
        ruling,
        r#", "choices": { "p1.order": [ "b.start_of_main", "d.delayed_next_turn_start" ] }"#,
        "",
    );
    judge()
        .arg("check")
        .arg(&p)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("p1.order"))
        .stderr(predicate::str::contains("choice `order` is").not());
}

/// 205.5.2: the damaged card's controller uses its armor; the action that
/// reaches the damage is the other player's pass (PSO2).
#[test]
fn pso2_armor_on_the_other_players_pass_must_be_addressed() {
    addressed_holds_unaddressed_refused(
        "rulings/pso2/103.2.1.2-armor-reduces-damage-to-zero.json",
        "p2.armor.x",
        "armor.x",
    );
}

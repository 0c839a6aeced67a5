//! `judge run --dump-at` over the corpora, in process: how many moments
//! (the state after each action of every ruling and worked example) can
//! be written as a scenario that goes on as the original does.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use tcg_judge::cli::dump::{Refused, attempt};
use tcg_judge::scenario;

fn corpus() -> Vec<PathBuf> {
    let mut out = Vec::new();
    for dir in ["rulings", "scenarios"] {
        for game in ["dz", "pmv", "pso2", "sve"] {
            let Ok(rd) = std::fs::read_dir(Path::new(dir).join(game)) else {
                continue;
            };
            let mut files: Vec<PathBuf> = rd
                .flatten()
                .map(|e| e.path())
                .filter(|p| {
                    let n = p.to_string_lossy();
                    n.ends_with(".json") && !n.ends_with(".pool.json")
                })
                .collect();
            files.sort();
            out.extend(files);
        }
    }
    out
}

/// What a refusal names first: the kind of the first part that differs.
fn kind(why: &str) -> String {
    let first = why.split(": ").nth(1).unwrap_or(why);
    let path = first.split_whitespace().next().unwrap_or("");
    let parts: Vec<&str> = path.split('.').collect();
    match parts.as_slice() {
        ["cards", _, field, ..] => format!("cards.*.{field}"),
        ["players", _, field, ..] => format!("players.*.{field}"),
        [a, b, ..] => format!("{a}.{b}"),
        _ => why.chars().take(60).collect(),
    }
}

/// The figure (`cargo test --release --test dump_props dump_figure --
/// --ignored --nocapture`; `DUMP_GAMES=pso2` for one game's files):
/// moments written, refused (by what differs first), and stopped runs.
#[test]
#[ignore = "a measurement, not a check: prints the figure"]
fn dump_figure() {
    let (mut moments, mut written, mut stopped, mut over) = (0, 0, 0, 0);
    let mut refused: BTreeMap<String, usize> = BTreeMap::new();
    // `DUMP_GAMES=pso2,sve`: only those games' files.
    let games = std::env::var("DUMP_GAMES").ok();
    // Per game: moments, moments written, moments after the game ended.
    let mut per_game: BTreeMap<String, (usize, usize, usize)> = BTreeMap::new();
    for path in corpus() {
        let name = path.to_string_lossy().to_string();
        let game = path
            .parent()
            .and_then(|d| d.file_name())
            .map(|d| d.to_string_lossy().to_string())
            .unwrap_or_default();
        if games
            .as_deref()
            .is_some_and(|g| !g.split(',').any(|x| x == game))
        {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let Ok(loaded) = scenario::load_str(&name, &text, path.parent()) else {
            continue;
        };
        for at in 0..loaded.actions.len() {
            moments += 1;
            let g = per_game.entry(game.clone()).or_default();
            g.0 += 1;
            match attempt(&loaded, at, true) {
                Ok(_) => {
                    written += 1;
                    g.1 += 1;
                }
                Err(Refused::Stopped(_)) => stopped += 1,
                Err(Refused::Over(_)) => {
                    over += 1;
                    g.2 += 1;
                }
                Err(Refused::Differs(why)) => {
                    if std::env::var_os("DUMP_WHY").is_some() {
                        eprintln!("{name} --dump-at {at}: {why}");
                    }
                    *refused.entry(kind(&why)).or_default() += 1;
                }
            }
        }
    }
    let mut by: Vec<(&String, &usize)> = refused.iter().collect();
    by.sort_by(|a, b| b.1.cmp(a.1));
    for (k, n) in by.iter().take(25) {
        eprintln!("{n:5} refused, first difference {k}");
    }
    for (game, (n, w, o)) in &per_game {
        eprintln!("{game}: {w} of {n} moments written ({o} after the game ended)");
    }
    let no: usize = refused.values().sum();
    eprintln!(
        "{moments} moments: {written} written, {no} refused, {over} after the game ended, {stopped} after the run stopped"
    );
}

/// Files whose moments hold tokens the run created (`token.N`): each
/// moment is written, keeps the tokens' ids (the later actions name them)
/// and, run with the rest, ends as the original (`attempt` checks it).
const TOKENS: &[&str] = &[
    "rulings/sve/9.1.4.3-token-destroyed-erased.json",
    "rulings/sve/9.1.4.3-guide-banished-token-removed.json",
    "rulings/sve/5.16.1-transform-into-token.json",
    "rulings/pso2/GL-token-white-2-2.json",
];

fn load(path: &str) -> scenario::Loaded {
    let text = std::fs::read_to_string(path).unwrap();
    scenario::load_str(path, &text, Path::new(path).parent()).unwrap()
}

#[test]
fn a_moment_with_tokens_is_written_with_their_ids() {
    let mut with_tokens = 0;
    for path in TOKENS {
        let loaded = load(path);
        for at in 0..loaded.actions.len() {
            match attempt(&loaded, at, true) {
                Ok(text) => with_tokens += usize::from(text.contains("\"id\": \"token.")),
                Err(Refused::Over(_)) => {}
                Err(e) => panic!("{path} --dump-at {at}: {e:?}"),
            }
        }
    }
    assert!(
        with_tokens >= TOKENS.len(),
        "{with_tokens} dumps with tokens"
    );
}

/// A game already over after the action is refused as such, not as a
/// board that differs.
#[test]
fn a_moment_after_the_game_ended_is_refused_as_over() {
    let loaded = load("rulings/sve/1.2.3-concede.json");
    assert_eq!(attempt(&loaded, 0, true), Err(Refused::Over("p1".into())));
    let loaded = load("rulings/sve/1.2.2-both-leaders-draw.json");
    assert_eq!(attempt(&loaded, 0, true), Err(Refused::Over("draw".into())));
}

/// An SVE board with one card whose entry is `card` (JSON).
fn board_with(card: &str) -> String {
    format!(
        r#"{{
  "game": "sve",
  "name": "token ids on a board",
  "source": {{ "kind": "worked_example", "clause": "9.1.2", "summary": "token ids" }},
  "cards": {{ "fairy": {{ "name": "Fairy", "type": "follower", "cost": 1, "attack": 1, "defense": 1 }} }},
  "state": {{
    "turn": {{ "player": "p1", "phase": "main", "number": 3 }},
    "players": {{ "p1": {{ "zones": {{ "field": [ {card} ] }} }} }}
  }},
  "actions": []
}}"#
    )
}

#[test]
fn a_token_id_on_a_board_belongs_to_a_token_and_later_tokens_follow_it() {
    let ok = board_with(r#"{ "id": "token.2", "card": "fairy", "token": true }"#);
    let loaded = scenario::load_str("t.json", &ok, None).unwrap();
    // The next token the run creates is `token.3`.
    assert_eq!(loaded.game.next_token, 2);
    for (card, says) in [
        (
            r#"{ "id": "token.2", "card": "fairy" }"#,
            "only a card written `\"token\": true` may have it",
        ),
        (
            r#"{ "id": "token.x", "card": "fairy", "token": true }"#,
            "reserved for the tokens the engine creates",
        ),
        (
            r#"{ "id": "token.02", "card": "fairy", "token": true }"#,
            "reserved for the tokens the engine creates",
        ),
    ] {
        let e = scenario::load_str("t.json", &board_with(card), None)
            .err()
            .unwrap_or_else(|| panic!("{card} loaded"))
            .to_string();
        assert!(e.contains(says), "{card}: {e}");
        assert!(e.contains("state.players.p1.zones.field[0]"), "{card}: {e}");
    }
}

/// A later action names a played card waiting in PSO2's resolution zone
/// (in no player's zone: only `state.in_progress` names it): the dump
/// loads, and goes on as the original.
#[test]
fn a_later_action_may_name_a_card_the_decision_in_progress_creates() {
    for (path, at, card) in [
        ("rulings/pso2/302.6-ambush-enters-on.json", 0, "h"),
        ("rulings/pso2/302.6-ambush-enters-on.json", 1, "h"),
        (
            "rulings/pso2/GL-negate-an-active-in-the-resolution-zone.json",
            0,
            "f",
        ),
    ] {
        let text = attempt(&load(path), at, true)
            .unwrap_or_else(|e| panic!("{path} --dump-at {at}: {e:?}"));
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        let waiting = &v["state"]["in_progress"]["resolution"];
        assert!(
            waiting
                .as_array()
                .is_some_and(|w| w.iter().any(|e| e["kind"] == "card" && e["card"] == card)),
            "{path} --dump-at {at}: {waiting}"
        );
        assert!(text.contains(&format!("\"card\": \"{card}\"")), "{path}");
    }
}

/// SVE: a moment after an effect gave a card an ability (10.9.1.2) or
/// keywords is written with the change in force (`in_progress.changes`),
/// and, run with the rest, ends as the original does.
#[test]
fn an_sve_moment_with_a_change_in_force_is_written_with_it() {
    for path in [
        "rulings/sve/10.9.1.2-given-attack-ability-triggers.json",
        "rulings/sve/10.9.1.2-given-activated-ability-with-cost.json",
    ] {
        let loaded = load(path);
        let text = attempt(&loaded, 0, true).unwrap_or_else(|e| panic!("{path}: {e:?}"));
        assert!(text.contains("\"changes\""), "{path}: {text}");
        assert!(text.contains("\"gain_ability\""), "{path}: {text}");
    }
}

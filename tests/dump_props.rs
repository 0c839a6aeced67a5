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
    // A `"<missing>"` check on a token with its own id, erased before the
    // later moment: the written file drops the check (it would always hold).
    "rulings/sve/9.1.4.3-edge-attacking-token-returned-in-the-quick-window-is-erased-and-deals-no-damage.json",
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

/// A face is written only where a card's definition prints it: the
/// description PMV's `become` gives (6.1.6, 6.1.7) is none, so those
/// moments are refused as boards that do not go on the same way (they were
/// written with an `alternate` face `ogre` does not print, and the file
/// did not load); a face a set card gives (10.28.9) is written as
/// `alternate_from`, and the moment goes on as the original.
#[test]
fn only_a_printed_face_is_written() {
    for (path, at) in [
        ("rulings/pmv/6.1.6-face-up-card-made-a-character.json", 2),
        ("rulings/pmv/6.1.7-face-down-card-made-a-character.json", 2),
    ] {
        match attempt(&load(path), at, true) {
            Err(Refused::Differs(why)) => {
                assert!(why.starts_with("its board differs"), "{path}: {why}");
                assert!(why.contains("cards.o.face"), "{path}: {why}");
            }
            other => panic!("{path} --dump-at {at}: {other:?}"),
        }
    }
    let path = "rulings/pmv/10.28.9.a-set-card-description-leaves.json";
    let text = attempt(&load(path), 2, true).unwrap_or_else(|e| panic!("{path}: {e:?}"));
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let field = v["state"]["players"]["p1"]["zones"]["field"].to_string();
    assert!(field.contains(r#""alternate_from":"c""#), "{field}");
}

/// A PMV card pool with `m` showing the face `src` gives.
fn given_face(src: &str) -> String {
    format!(
        r#"{{
  "game": "pmv",
  "name": "a face another card gives",
  "source": {{ "kind": "worked_example", "clause": "10.28.9", "summary": "face" }},
  "cards": {{
    "plain": {{ "name": "P", "type": "character", "cost": 1, "attack": 1, "defense": 1, "stats": {{ "node": 0 }} }},
    "giver": {{ "name": "G", "type": "character", "cost": 1, "attack": 1, "defense": 1, "stats": {{ "node": 0 }},
      "alternate": {{ "name": "G2", "attack": 5, "defense": 5 }} }}
  }},
  "state": {{
    "turn": {{ "player": "p1", "phase": "main", "number": 3 }},
    "players": {{ "p1": {{ "zones": {{ "field": [
      {{ "id": "m", "card": "plain", "alternate_from": "{src}" }},
      {{ "id": "g", "card": "giver" }}, {{ "id": "p", "card": "plain" }} ] }} }} }}
  }},
  "actions": []
}}"#
    )
}

#[test]
fn a_face_another_card_gives_is_read_and_a_wrong_one_is_located() {
    let loaded = scenario::load_str("t.json", &given_face("g"), None).unwrap();
    assert_eq!(
        loaded.game.printed_face_source("m"),
        Some("g"),
        "m shows g's face"
    );
    assert_eq!(loaded.game.def_of("m").and_then(|d| d.attack), Some(5));
    for (src, says) in [
        ("nobody", "unknown card id `nobody`"),
        ("p", "`p` has no alternate face to give"),
    ] {
        let e = scenario::load_str("t.json", &given_face(src), None)
            .err()
            .unwrap_or_else(|| panic!("{src} loaded"))
            .to_string();
        assert!(e.contains(says), "{src}: {e}");
        assert!(
            e.contains("state.players.p1.zones.field[0].alternate_from"),
            "{src}: {e}"
        );
    }
}

/// What a PMV turn has counted (a node set, 1.8.2.c; a 1-per-turn card
/// played, 10.21.2.a) is written with the decision in progress and read
/// back: the dump of the moment after it goes on as the original
/// (`attempt` checks it), and a key that is not a turn's is refused.
#[test]
fn what_the_turn_counted_is_kept() {
    for (path, at) in [
        ("rulings/pmv/1.8.2.c-one-node-per-turn.json", 0),
        ("rulings/pmv/10.21.2.a-one-per-turn.json", 0),
    ] {
        let text = attempt(&load(path), at, true)
            .unwrap_or_else(|e| panic!("{path} --dump-at {at}: {e:?}"));
        let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
        let counted = &mut v["state"]["in_progress"]["this_turn"];
        assert!(
            counted.as_object().is_some_and(|o| !o.is_empty()),
            "{path}: {counted}"
        );
        counted["played.p1"] = 1.into();
        let e = scenario::load_str("t.json", &v.to_string(), None)
            .err()
            .unwrap_or_else(|| panic!("{path}: a key of no turn loaded"))
            .to_string();
        assert!(e.contains("not `played.p1`"), "{path}: {e}");
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

/// PSO2 (flow/lasting.rs): a moment with a name-wide once-per-turn lock,
/// a 《できない》 effect, a delayed ability or lost abilities is written with
/// them in `state.in_progress.lasting`, and the written file resumes as
/// the original goes on (checked by `attempt`).
#[test]
fn pso2_lasting_state_is_written() {
    for (file, at, word) in [
        (
            "rulings/pso2/300.8.2-name-wide-once-per-turn.json",
            2,
            "locks",
        ),
        (
            "rulings/pso2/103.1.2-cannot-attack-beats-the-rules-permission.json",
            2,
            "restrictions",
        ),
        (
            "rulings/pso2/300.2.3-delayed-end-of-turn-trigger.json",
            2,
            "delayed",
        ),
        (
            "rulings/pso2/300.7-lost-abilities-stop-applying-and-do-not-trigger.json",
            2,
            "lost",
        ),
    ] {
        let text = std::fs::read_to_string(file).unwrap();
        let loaded = scenario::load_str(file, &text, Path::new(file).parent()).unwrap();
        let out = attempt(&loaded, at, true).unwrap_or_else(|e| panic!("{file}: {e:?}"));
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        let lasting = &v["state"]["in_progress"]["lasting"];
        assert!(lasting[word].is_array(), "{file}: {lasting}");
    }
}

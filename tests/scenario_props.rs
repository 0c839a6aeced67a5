//! Property tests: no scenario input panics, and no card is lost or
//! duplicated across zones, whatever the file or the action sequence.

use std::collections::BTreeMap;
use std::path::Path;

use proptest::prelude::*;
use serde_json::Value;
use tcg_judge::scenario;

/// Every card of the snapshot is in exactly one zone list, the one its
/// `zone` names, and the cards that are not tokens are exactly `expected`.
fn assert_conserved(snap: &Value, expected: &[String]) -> Result<(), String> {
    let cards = snap["cards"].as_object().ok_or("no cards")?;
    let mut seen: BTreeMap<String, String> = BTreeMap::new();
    let mut add = |zone: String, ids: &Value| -> Result<(), String> {
        for id in ids.as_array().ok_or("zone is not a list")? {
            let id = id.as_str().ok_or("id is not a string")?.to_string();
            if let Some(z) = seen.insert(id.clone(), zone.clone()) {
                return Err(format!("{id} is in {z} and in {zone}"));
            }
        }
        Ok(())
    };
    for (p, pv) in snap["players"].as_object().ok_or("no players")? {
        for (z, ids) in pv["zones"].as_object().ok_or("no zones")? {
            add(format!("{p}.{z}"), ids)?;
        }
    }
    for (z, ids) in snap["shared_zones"].as_object().ok_or("no shared zones")? {
        add(z.clone(), ids)?;
    }
    for (id, c) in cards {
        match seen.get(id) {
            None => return Err(format!("{id} is in no zone")),
            Some(z) if c["zone"].as_str() != Some(z) => {
                return Err(format!(
                    "{id} records zone {} but is listed in {z}",
                    c["zone"]
                ));
            }
            _ => {}
        }
    }
    if seen.len() != cards.len() {
        return Err("a zone lists an unknown card".into());
    }
    let real: Vec<&String> = cards.keys().filter(|k| !k.starts_with("token.")).collect();
    if real.len() != expected.len() || real.iter().zip(expected).any(|(a, b)| *a != b) {
        return Err(format!(
            "cards changed: {} now, {} at the start",
            real.len(),
            expected.len()
        ));
    }
    Ok(())
}

fn run_and_check(name: &str, text: &str) -> Result<(), TestCaseError> {
    let Ok(loaded) = scenario::load_str(name, text, Some(Path::new("scenarios/sve"))) else {
        return Ok(());
    };
    let initial: Vec<String> = loaded.game.cards.keys().map(|k| k.to_string()).collect();
    let outcome = loaded.module.run(loaded.game.clone(), &loaded.actions);
    for snap in outcome.checkpoints.iter().flatten().chain([&outcome.state]) {
        assert_conserved(snap, &initial).map_err(TestCaseError::fail)?;
    }
    Ok(())
}

fn corpus() -> Vec<(String, String)> {
    let mut files =
        tcg_judge::cli::check::collect(&["rulings".into(), "scenarios".into()]).unwrap();
    files.sort();
    files
        .into_iter()
        .map(|p| {
            (
                p.display().to_string(),
                std::fs::read_to_string(&p).unwrap(),
            )
        })
        .collect()
}

#[test]
fn the_corpus_conserves_cards() {
    for (name, text) in corpus() {
        run_and_check(&name, &text).unwrap_or_else(|e| panic!("{name}: {e}"));
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    /// Byte-level mutations: syntax errors, truncation, stray characters.
    #[test]
    fn mutated_bytes_never_panic(file in 0usize..1000, edits in prop::collection::vec((0usize..100_000, 0u8..4, any::<u8>()), 1..6)) {
        let files = corpus();
        let (name, text) = &files[file % files.len()];
        let mut bytes = text.clone().into_bytes();
        for (pos, kind, b) in edits {
            if bytes.is_empty() { break; }
            let i = pos % bytes.len();
            match kind {
                0 => bytes[i] = b,
                1 => { bytes.remove(i); }
                2 => bytes.insert(i, b),
                _ => bytes.truncate(i),
            }
        }
        let text = String::from_utf8_lossy(&bytes).into_owned();
        run_and_check(name, &text)?;
    }

    /// Value-level mutations: numbers and ids replaced, so that the file
    /// still parses and reaches validation and the engine.
    #[test]
    fn mutated_values_never_panic(file in 0usize..1000, edits in prop::collection::vec((0usize..400, -30i64..40, 0usize..12), 1..6)) {
        let files = corpus();
        let (name, text) = &files[file % files.len()];
        let mut v: Value = serde_json::from_str(text).unwrap();
        let words = ["leader", "p1", "p2", "a", "t", "hand", "field", "engaged", "follower", "k", "g", "x"];
        for (target, n, w) in edits {
            let mut count = 0usize;
            mutate(&mut v, target, &mut count, n, words[w]);
        }
        run_and_check(name, &v.to_string())?;
    }

    /// Random action sequences on a rich board.
    #[test]
    fn random_actions_never_panic(actions in prop::collection::vec((0usize..10, 0usize..24, 0usize..25, 0usize..8), 0..12)) {
        let kinds = ["play", "attack", "evolve", "end_phase", "pass", "concede", "play", "activate", "mulligan", "keep"];
        let ids = ["a", "b", "w", "v", "h1", "h2", "h3", "h4", "q", "e", "o1", "o2", "o3", "oh", "token.1", "x9", "m", "h5", "h6", "c1", "z", "h7", "h8", "h9"];
        let n = ids.len();
        let mut list = Vec::new();
        for (k, c, t, ch) in actions {
            let mut a = serde_json::json!({ "do": kinds[k] });
            if kinds[k] != "end_phase" && kinds[k] != "pass" && ids[c] != "x9" {
                a["card"] = Value::from(ids[c]);
            }
            if kinds[k] == "concede" {
                a = serde_json::json!({ "do": "concede", "player": if c % 2 == 0 { "p1" } else { "p2" } });
            }
            if t < n && ids[t] != "x9" { a["target"] = Value::from(ids[t]); } else if t == n { a["target"] = Value::from("leader"); }
            let choice_sets = [
                serde_json::json!({}),
                serde_json::json!({ "order": ["a.last_words", "b.last_words"] }),
                serde_json::json!({ "use_ep": true }),
                serde_json::json!({ format!("{}.fanfare", ids[c]): ids[t % n] }),
                serde_json::json!({ format!("{}.spell", ids[c]): ids[t % n] }),
                serde_json::json!({ "discard": ["h1"] }),
                serde_json::json!({ format!("{}.activated", ids[c]): ids[t % n], "keep.p1.field": ["a", "b", "w", "v", "m"] }),
                serde_json::json!({ format!("{}.earth_rite", ids[c]): ids[t % n], format!("{}.spell", ids[c]): ids[t % n] }),
            ];
            a["choices"] = choice_sets[ch].clone();
            list.push(a);
        }
        let mut sc: Value = serde_json::from_str(BOARD).unwrap();
        sc["actions"] = Value::Array(list);
        run_and_check("random.json", &sc.to_string())?;
    }
}

fn mutate(v: &mut Value, target: usize, count: &mut usize, n: i64, word: &str) {
    match v {
        Value::Number(_) => {
            if *count == target {
                *v = Value::from(n);
            }
            *count += 1;
        }
        Value::String(_) => {
            if *count == target {
                *v = Value::from(word);
            }
            *count += 1;
        }
        Value::Array(a) => a.iter_mut().for_each(|x| mutate(x, target, count, n, word)),
        Value::Object(o) => o
            .values_mut()
            .for_each(|x| mutate(x, target, count, n, word)),
        _ => {}
    }
}

const BOARD: &str = r#"{
  "game": "sve", "name": "random", "source": "proptest", "seed": 3,
  "card_pool": ["cards.pool.json"],
  "cards": {
    "lw": { "name": "Fuse", "type": "follower", "cost": 1, "attack": 2, "defense": 1,
      "abilities": [ { "trigger": "last_words", "effect": [ { "do": "summon", "card": "goblin" }, { "do": "draw", "amount": 1 } ] },
        { "trigger": "feed", "cost": [ { "do": "put", "to": "race", "top": 1 }, { "do": "pay_cost", "amount": 1 } ], "effect": [ { "do": "draw", "amount": 1 } ] } ] },
    "carrot": { "name": "にんじん", "type": "amulet", "cost": 0 },
    "warp": { "name": "Warp", "type": "spell", "cost": 1,
      "abilities": [ { "trigger": "spell", "effect": [ { "do": "extra_turn" }, { "do": "skip_turn", "who": "opponent" } ] } ] },
    "hexs": { "name": "Hex", "type": "spell", "cost": 1,
      "abilities": [ { "trigger": "spell", "effect": [ { "do": "become", "card": "goblin", "target": { "select": "chosen", "side": "any", "types": ["follower", "amulet"] } } ] } ] },
    "echo": { "name": "Echo", "type": "follower", "cost": 0, "attack": 1, "defense": 1,
      "abilities": [ { "trigger": "fanfare", "effect": [ { "do": "return_to_hand", "target": { "select": "chosen", "side": "any", "types": ["follower"], "other": true } } ] } ] },
    "well": { "name": "Well", "type": "amulet", "cost": 1, "keywords": ["stack"],
      "abilities": [ { "trigger": "activated", "cost": [ { "do": "set_state", "state": "engaged", "target": { "select": "this" } }, { "do": "pay_cost", "amount": 1 } ],
        "effect": [ { "do": "put", "to": "cemetery", "top": 1 }, { "do": "evolve", "target": { "select": "chosen", "side": "you", "types": ["follower"] } } ] } ] },
    "guard": { "name": "Guard", "type": "amulet", "cost": 1,
      "abilities": [ { "trigger": "permanent", "effect": [ { "do": "modify_damage", "amount": -1, "target": { "select": "all", "side": "you", "types": ["follower"] } },
        { "do": "set_cost", "cost": 1, "types": ["spell"] } ] } ] },
    "thief": { "name": "Thief", "type": "spell", "cost": 1,
      "abilities": [ { "trigger": "spell", "effect": [ { "do": "take_control", "target": { "select": "chosen", "side": "opponent", "types": ["follower"] } } ] } ] },
    "rez": { "name": "Rez", "type": "spell", "cost": 1,
      "abilities": [ { "trigger": "spell", "condition": { "zone": "cemetery", "at_least": 1 }, "effect": [ { "do": "put", "to": "field", "target": { "select": "chosen", "side": "any", "zone": "cemetery", "types": ["follower"] } },
        { "do": "put", "to": "ex", "target": { "select": "chosen", "side": "you", "zone": "hand", "count": 2, "up_to": true } } ] } ] },
    "zap": { "name": "Zap", "type": "amulet", "cost": 1,
      "abilities": [ { "trigger": "quick_activated", "cost": [ { "do": "set_state", "state": "engaged", "target": { "select": "this" } } ],
        "effect": [ { "do": "damage", "amount": 1, "target": { "select": "chosen", "side": "opponent", "types": ["follower"], "or_leader": true } } ] } ] },
    "rite": { "name": "Rite", "type": "spell", "cost": 1,
      "abilities": [ { "trigger": "spell", "condition": { "count": "earth_rite", "at_least": 1 }, "effect": [ { "do": "damage", "amount": 2, "target": { "select": "chosen", "side": "opponent", "types": ["follower"] } } ] } ] }
  },
  "state": {
    "turn": { "player": "p1", "phase": "main", "number": 5 },
    "players": {
      "p1": { "values": { "pp": 6, "max_pp": 6, "ep": 2, "defense": 6 },
        "zones": {
          "field": [ { "id": "a", "card": "lw" }, { "id": "b", "card": "lw", "state": ["engaged"] }, { "id": "w", "card": "wolf" }, { "id": "v", "card": "viper" }, { "id": "m", "card": "well", "counters": { "stack": 1 } } ],
          "hand": [ { "id": "h1", "card": "archer" }, { "id": "h2", "card": "fire" }, { "id": "h3", "card": "echo" }, { "id": "h4", "card": "rider" }, { "id": "h5", "card": "thief" }, { "id": "h6", "card": "rez" }, { "id": "h7", "card": "rite" }, { "id": "h8", "card": "warp" }, { "id": "h9", "card": "hexs" } ],
          "cemetery": [ { "id": "c1", "card": "lw" } ],
          "evolve_deck": [ { "id": "e", "card": "wolf_evo" }, { "id": "c9", "card": "carrot" } ],
          "deck": { "count": 2 } } },
      "p2": { "values": { "pp": 2, "max_pp": 6, "defense": 5 },
        "zones": {
          "field": [ { "id": "o1", "card": "wall", "state": ["engaged"] }, { "id": "o2", "card": "bat", "state": ["engaged"] }, { "id": "o3", "card": "lw" }, { "id": "gd", "card": "guard" }, { "id": "z", "card": "zap" } ],
          "hand": [ { "id": "q", "card": "trap" }, { "id": "oh", "card": "goblin" } ],
          "deck": { "count": 1 } } }
    }
  },
  "actions": []
}"#;

//! Property tests of the PSO2 module: random action sequences on a rich
//! PSO2 board (battle, War Cry, weapons, armor, responses) never panic,
//! keep every card in exactly one zone, and run deterministically.

use proptest::prelude::*;
use serde_json::{Value, json};
use tcg_judge::scenario;

const BOARD: &str = r#"{
  "game": "pso2", "name": "random", "source": "proptest", "seed": 7,
  "cards": {
    "pc": { "name": "PLAYER", "type": "player", "defense": 20, "text": { "color": "red" } },
    "hunter": { "name": "探索者 アフィン", "type": "chara", "cost": 1, "attack": 3, "defense": 4,
      "text": { "color": "red", "class": "ハンター" }, "keywords": ["double_attack", "pierce"], "stats": { "pierce": 1 },
      "abilities": [ { "trigger": "on_ko", "effect": [ { "do": "draw", "amount": 1 } ] } ] },
    "guard": { "name": "ガード", "type": "chara", "cost": 0, "attack": 1, "defense": 5, "keywords": ["war_cry"],
      "text": { "color": "white" } },
    "gunner": { "name": "ガンナー", "type": "chara", "cost": 0, "attack": 2, "defense": 3, "keywords": ["rapid_fire", "snipe"],
      "text": { "color": "white" },
      "abilities": [ { "trigger": "on_enter", "effect": [ { "do": "damage", "amount": 1, "target": { "select": "chosen", "side": "opponent", "types": ["chara"] } } ] } ] },
    "foie": { "name": "フォイエ", "type": "active", "cost": 0, "text": { "color": "white" },
      "abilities": [ { "trigger": "effect", "effect": [ { "do": "damage", "amount": 2, "target": { "select": "chosen", "side": "any", "types": ["chara"], "or_leader": true } }, { "do": "draw", "amount": 1 } ] } ] },
    "sweep": { "name": "一掃", "type": "active", "cost": 1, "keywords": ["main"], "text": { "color": "red" },
      "abilities": [ { "trigger": "effect", "effect": [ { "do": "destroy", "target": { "select": "all", "side": "any", "types": ["chara"] } } ] } ] },
    "sword": { "name": "剣", "type": "weapon", "cost": 0, "attack": 2, "text": { "color": "white", "class": "ハンター" } },
    "armor": { "name": "鎧", "type": "armor", "cost": 0, "defense": 1, "stats": { "slots": 2 }, "text": { "color": "white" } },
    "tok": { "name": "トークン", "type": "chara", "cost": 0, "attack": 2, "defense": 2, "text": { "color": "white" } },
    "maker": { "name": "生成", "type": "active", "cost": 0, "text": { "color": "white" },
      "abilities": [ { "trigger": "effect", "effect": [ { "do": "summon", "card": "tok" } ] } ] }
  },
  "state": {
    "turn": { "player": "p1", "phase": "main", "number": 5 },
    "players": {
      "p1": { "zones": {
        "player": [ { "id": "pc1", "card": "pc" } ],
        "field": [ { "id": "a", "card": "hunter" }, { "id": "b", "card": "gunner" }, { "id": "s", "card": "sword", "attached_to": "a" } ],
        "pp": [ { "id": "pp1", "card": "hunter" }, { "id": "pp2", "card": "hunter", "state": ["off"] } ],
        "hand": [ { "id": "h1", "card": "foie" }, { "id": "h2", "card": "sweep" }, { "id": "h3", "card": "gunner" }, { "id": "h4", "card": "maker" }, { "id": "h5", "card": "sword" } ],
        "deck": { "count": 6 } } },
      "p2": { "zones": {
        "player": [ { "id": "pc2", "card": "pc" } ],
        "field": [ { "id": "g", "card": "guard" }, { "id": "x", "card": "hunter", "state": ["back"] }, { "id": "r", "card": "armor", "attached_to": "x" } ],
        "pp": [ { "id": "fd", "card": "hunter", "state": ["face_down"] } ],
        "hand": [ { "id": "o1", "card": "foie" }, { "id": "o2", "card": "maker" } ],
        "deck": { "count": 5 } } }
    }
  }
}"#;

const IDS: [&str; 17] = [
    "a", "b", "s", "pp1", "h1", "h2", "h3", "h4", "h5", "g", "x", "r", "o1", "o2", "pc2",
    "token.1", "pc1",
];

fn actions(list: &[(usize, usize, usize, usize)]) -> Value {
    let kinds = [
        "play",
        "attack",
        "activate",
        "end_phase",
        "pass",
        "pass",
        "concede",
        "pp",
    ];
    let players = ["p1", "p2"];
    let mut out = Vec::new();
    for &(k, c, t, ch) in list {
        let mut a = json!({ "do": kinds[k % kinds.len()], "player": players[ch % 2] });
        if !matches!(kinds[k % kinds.len()], "pass" | "end_phase" | "concede") {
            a["card"] = Value::from(IDS[c % IDS.len()]);
        }
        if t < IDS.len() && kinds[k % kinds.len()] != "pass" {
            a["target"] = Value::from(IDS[t]);
        }
        let choices = match ch % 6 {
            0 => json!({}),
            1 => json!({ "pay": ["pp1"] }),
            2 => json!({ "weapon.a": "s" }),
            3 => json!({ "armor.x": "r" }),
            4 => json!({ "ability": "war_cry" }),
            _ => json!({ "targets": [IDS[c % IDS.len()], IDS[t % IDS.len()]] }),
        };
        a["choices"] = choices;
        out.push(a);
    }
    Value::Array(out)
}

fn run(text: &str) -> Option<String> {
    let loaded = scenario::load_str("random.json", text, None).ok()?;
    let initial: Vec<String> = loaded.game.cards.keys().map(|k| k.to_string()).collect();
    let outcome = loaded.module.run(loaded.game.clone(), &loaded.actions);
    for snap in outcome.checkpoints.iter().flatten().chain([&outcome.state]) {
        let cards = snap["cards"].as_object().expect("cards");
        let mut seen = std::collections::BTreeSet::new();
        for pv in snap["players"].as_object().expect("players").values() {
            for ids in pv["zones"].as_object().expect("zones").values() {
                for id in ids.as_array().expect("list") {
                    assert!(seen.insert(id.as_str().unwrap().to_string()), "{id} twice");
                }
            }
        }
        for ids in snap["shared_zones"].as_object().expect("shared").values() {
            for id in ids.as_array().expect("list") {
                assert!(seen.insert(id.as_str().unwrap().to_string()), "{id} twice");
            }
        }
        assert_eq!(seen.len(), cards.len(), "a card is in no zone or unknown");
        let real: Vec<&String> = cards.keys().filter(|k| !k.starts_with("token.")).collect();
        assert_eq!(real.len(), initial.len(), "cards were lost or created");
    }
    Some(serde_json::to_string(&outcome).expect("serialises"))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    #[test]
    fn random_pso2_actions_never_panic_and_conserve_cards(
        list in prop::collection::vec((0usize..8, 0usize..17, 0usize..20, 0usize..12), 0..16)
    ) {
        let mut sc: Value = serde_json::from_str(BOARD).unwrap();
        sc["actions"] = actions(&list);
        let text = sc.to_string();
        let first = run(&text);
        let second = run(&text);
        prop_assert_eq!(first, second, "same input, same output");
    }
}

const RAID: &str = r#"{
  "game": "pso2", "name": "raid", "source": "proptest", "seed": 11,
  "cards": {
    "pc": { "name": "PLAYER", "type": "player", "defense": 20, "text": { "color": "red" } },
    "boss": { "name": "ダークファルス", "type": "boss", "attack": 2 },
    "minion": { "name": "ダーカー", "type": "chara", "cost": 0, "attack": 1, "defense": 2 },
    "zap": { "name": "一撃", "type": "active", "cost": 0,
      "abilities": [ { "trigger": "effect", "effect": [ { "do": "damage", "amount": 1, "target": { "select": "chosen", "side": "opponent", "types": ["chara"], "or_leader": true } } ] } ] },
    "guard": { "name": "ガード", "type": "chara", "cost": 0, "attack": 1, "defense": 5, "keywords": ["war_cry"] },
    "foie": { "name": "フォイエ", "type": "active", "cost": 0,
      "abilities": [ { "trigger": "effect", "effect": [ { "do": "damage", "amount": 2, "target": { "select": "chosen", "side": "opponent", "types": ["chara"], "or_leader": true } } ] } ] }
  },
  "state": {
    "turn": { "player": "p3", "phase": "start", "number": 6 },
    "players": {
      "p1": { "zones": { "player": [ { "id": "pc1", "card": "pc" } ], "field": [ { "id": "a", "card": "guard" } ], "hand": [ { "id": "h1", "card": "foie" } ], "deck": { "count": 3 } } },
      "p2": { "zones": { "player": [ { "id": "pc2", "card": "pc" } ], "field": [ { "id": "g", "card": "guard" } ], "hand": [ { "id": "o1", "card": "foie" } ], "deck": { "count": 2 } } },
      "p3": { "flags": ["raid_boss", "raid_very_hard"], "values": { "life": 6 },
        "zones": { "player": [ { "id": "boss", "card": "boss" } ], "field": [ { "id": "x", "card": "minion" } ],
          "deck": [ { "id": "z", "card": "zap" }, "minion", "minion" ] } }
    }
  }
}"#;

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn random_raid_actions_never_panic_and_conserve_cards(
        list in prop::collection::vec((0usize..8, 0usize..17, 0usize..20, 0usize..12), 0..20)
    ) {
        let mut sc: Value = serde_json::from_str(RAID).unwrap();
        let mut acts = actions(&list);
        for (i, a) in acts.as_array_mut().unwrap().iter_mut().enumerate() {
            a["player"] = Value::from(["p1", "p2", "p3"][i % 3]);
            if i % 4 == 0 {
                a["choices"] = json!({ "z.effect": ["a"] });
            }
        }
        sc["actions"] = acts;
        let text = sc.to_string();
        prop_assert_eq!(run(&text), run(&text), "same input, same output");
    }
}

#[test]
fn the_board_loads_and_runs() {
    let sc: Value = serde_json::from_str(RAID).unwrap();
    assert!(run(&sc.to_string()).is_some(), "the raid board loads");
    let mut sc: Value = serde_json::from_str(BOARD).unwrap();
    sc["actions"] = json!([{ "do": "attack", "player": "p1", "card": "a", "target": "pc2" }]);
    assert!(run(&sc.to_string()).is_some(), "the PSO2 board loads");
}

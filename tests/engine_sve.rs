//! SVE runs that must stop with `not implemented` instead of a quiet wrong
//! ruling, through the real binary: restrictions the module does not model
//! (1.3.3), the other reading of 10.9.1 when it never settles, searches
//! it does not model (5.7).

use assert_cmd::Command;
use serde_json::{Value, json};

fn judge() -> Command {
    let mut c = Command::cargo_bin("judge").unwrap();
    c.env("NO_COLOR", "1");
    c
}

/// Runs `scenario` and returns whether it succeeded and everything it said.
fn run(name: &str, scenario: &Value) -> (bool, String) {
    let dir = std::env::temp_dir().join(format!("judge-sve-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("scenario.json");
    std::fs::write(&file, serde_json::to_string_pretty(scenario).unwrap()).unwrap();
    let out = judge().arg("run").arg(&file).output().unwrap();
    let all =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    (out.status.success(), all)
}

/// A ruling file of this repository, parsed.
fn ruling(name: &str) -> Value {
    let text = std::fs::read_to_string(format!("rulings/sve/{name}.json")).unwrap();
    serde_json::from_str(&text).unwrap()
}

#[test]
fn restrictions_other_than_cant_attack_are_not_implemented() {
    let base = ruling("8.4.3.2.1-own-ability-cant-attack");
    let restrict = "/cards/wall/abilities/0/effect/0";
    assert_eq!(base.pointer(restrict).unwrap()["do"], "restrict");
    // A player's restriction (no target), another action, a chosen target
    // in a permanent ability.
    let variants = [
        (
            "player",
            json!({"do": "restrict", "action": "attack", "who": "you"}),
        ),
        (
            "play",
            json!({"do": "restrict", "action": "play", "target": {"select": "this"}}),
        ),
        (
            "chosen",
            json!({"do": "restrict", "action": "attack",
                   "target": {"select": "chosen", "side": "you", "types": ["follower"]}}),
        ),
    ];
    for (name, effect) in variants {
        let mut s = base.clone();
        *s.pointer_mut(restrict).unwrap() = effect;
        let (ok, said) = run(name, &s);
        assert!(!ok, "{name}: {said}");
        assert!(
            said.contains("not implemented: clause 1.3.3"),
            "{name}: {said}"
        );
    }
    // The file itself runs.
    let (ok, said) = run("base", &base);
    assert!(ok, "{said}");
}

/// A 10.9.1.2 change that takes Ward from followers with a trait, and a
/// 10.9.1.3 change giving that trait to followers with Ward: the judges'
/// reading settles (Ward kept, the trait given); the other reading undoes
/// what it reads round after round and is refused.
#[test]
fn the_other_filter_reading_that_never_settles_is_not_implemented() {
    let mut s = ruling("10.9.1.2-filter-does-not-read-a-later-layer");
    let cards = s["cards"].as_object_mut().unwrap();
    cards["knight"]["keywords"] = json!(["ward"]);
    cards["banner"]["abilities"][0]["effect"][0] = json!({
        "do": "change_keywords", "lose": ["ward"],
        "target": {"select": "all", "side": "you", "types": ["follower"], "trait": "Officer"}
    });
    cards["shield"] = json!({"name": "Officer's Oath", "type": "amulet", "cost": 1,
        "abilities": [{"trigger": "permanent", "effect": [{
            "do": "change_info", "traits": ["Officer"],
            "target": {"select": "all", "side": "you", "types": ["follower"], "keyword": "ward"}}]}]});
    let p1 = &mut s["state"]["players"]["p1"];
    p1["zones"]["field"] = json!([{"id": "b", "card": "banner"}, {"id": "o", "card": "shield"},
                                  {"id": "k", "card": "knight"}]);
    p1["zones"]["hand"] = json!([]);
    s["actions"] = json!([{"do": "attack", "card": "k", "target": "leader"}]);
    s.as_object_mut().unwrap().remove("expect");
    let (ok, said) = run("judges", &s);
    assert!(ok, "{said}");
    assert!(said.contains("k (in p1.field): keywords [ward]"), "{said}");
    s["state"]["players"]["p1"]["flags"] = json!(["reading_ability_filter_reads_changed_info"]);
    let (ok, said) = run("other", &s);
    assert!(!ok, "{said}");
    assert!(said.contains("not implemented: clause 10.9.1"), "{said}");
}

/// A die of other than six faces, and a target chosen in a die result
/// (chosen at play, before the roll), stop the run (5.19.1).
#[test]
fn dice_the_module_does_not_model_are_not_implemented() {
    let base = ruling("5.19.1-die-high-roll");
    let die = "/cards/dice/abilities/0/effect/0";
    assert_eq!(base.pointer(die).unwrap()["do"], "roll_die");
    let chosen = json!({"select": "chosen", "side": "opponent", "types": ["follower"]});
    let mut eight = base.clone();
    eight.pointer_mut(die).unwrap()["sides"] = json!(8);
    let mut targeted = base.clone();
    targeted.pointer_mut(die).unwrap()["results"][0]["effect"][0]["target"] = chosen;
    for (name, s) in [("eight", eight), ("targeted", targeted)] {
        let (ok, said) = run(name, &s);
        assert!(!ok, "{name}: {said}");
        assert!(
            said.contains("not implemented: clause 5.19.1"),
            "{name}: {said}"
        );
    }
}

/// A state trigger without its state (`condition`) stops the run (10.7.6).
#[test]
fn a_state_trigger_needs_its_state() {
    let mut s = ruling("10.7.6-state-trigger-empty-hand-draws");
    let ability = s.pointer_mut("/cards/refill/abilities/0").unwrap();
    assert_eq!(ability["trigger"], "state");
    ability.as_object_mut().unwrap().remove("condition");
    let (ok, said) = run("stateless", &s);
    assert!(!ok, "{said}");
    assert!(said.contains("not implemented: clause 10.7.6"), "{said}");
}

/// A delayed trigger that no ability before it creates stops the run
/// (10.7.5), at this turn's end phase or at the start of the next turn.
#[test]
fn a_delayed_trigger_needs_the_ability_creating_it() {
    for (file, card, word) in [
        (
            "10.7.5-delayed-trigger-at-end-phase",
            "fuse",
            "delayed_end_phase",
        ),
        (
            "10.7.5-delayed-trigger-at-start-of-next-turn",
            "dawn",
            "delayed_next_turn_start",
        ),
    ] {
        let mut s = ruling(file);
        let abilities = s.pointer_mut(&format!("/cards/{card}/abilities")).unwrap();
        assert_eq!(abilities[1]["trigger"], word);
        abilities.as_array_mut().unwrap().remove(0);
        let (ok, said) = run(&format!("orphan_{card}"), &s);
        assert!(!ok, "{word}: {said}");
        assert!(
            said.contains("not implemented: clause 10.7.5"),
            "{word}: {said}"
        );
    }
}

/// A search of another zone than the deck (5.7.1), one whose text skips
/// the shuffle (5.7.2) or that puts the cards found where an effect's put
/// does not go (5.4.1) stops the run.
#[test]
fn searches_the_module_does_not_model_are_not_implemented() {
    let base = ruling("5.7.1.2-a-follower-found-is-shown-then-moved-then-the-deck-shuffled");
    let search = "/cards/seeker/abilities/0/effect/0";
    assert_eq!(base.pointer(search).unwrap()["do"], "search");
    for (name, field, value, clause) in [
        ("from", "from", json!("cemetery"), "5.7.1"),
        ("unshuffled", "shuffle", json!(false), "5.7.2"),
        ("to_deck", "to", json!("deck"), "5.4.1"),
    ] {
        let mut s = base.clone();
        s.pointer_mut(search).unwrap()[field] = value;
        let (ok, said) = run(name, &s);
        assert!(!ok, "{name}: {said}");
        assert!(
            said.contains(&format!("not implemented: clause {clause}")),
            "{name}: {said}"
        );
    }
}

/// A search for a number of cards only may not find fewer than there are
/// (5.7.1.1): naming none is refused, and the ruling naming one passes.
#[test]
fn a_number_only_search_cannot_find_nothing() {
    let mut s = ruling("5.7.1.1-a-search-for-a-number-of-cards-must-find-them");
    s["actions"][0]["choices"]["x.search"] = json!([]);
    let (ok, said) = run("none", &s);
    assert!(!ok, "{said}");
    assert!(said.contains("x.search"), "{said}");
}

/// "N times per turn" (10.7.2.2): with a limit of 2 the second attack's
/// trigger pends too (the ruling's limit of 1 is what stops it); the limit
/// is refused on a trigger SVE does not count, at 0, and by a game that
/// does not implement it.
#[test]
fn a_per_turn_limit_counts_and_is_refused_where_not_modelled() {
    let base = ruling("10.7.2.2-once-per-turn-attack-ability-attacking-twice");
    let ability = "/cards/raider/abilities/0";
    assert_eq!(base.pointer(ability).unwrap()["per_turn"], 1);
    let mut twice = base.clone();
    twice.pointer_mut(ability).unwrap()["per_turn"] = json!(2);
    twice["expect"] = json!({"state": {"cards": {"d2": {"zone": "p1.hand"}}}});
    let (ok, said) = run("twice", &twice);
    assert!(ok, "{said}");
    assert!(said.contains("2 of 2 times this turn"), "{said}");
    for (name, field, value) in [
        ("last_words", "trigger", json!("last_words")),
        ("zero", "per_turn", json!(0)),
    ] {
        let mut s = base.clone();
        s.pointer_mut(ability).unwrap()[field] = value;
        let (ok, said) = run(name, &s);
        assert!(!ok, "{name}: {said}");
        assert!(said.contains("per_turn"), "{name}: {said}");
    }
    let mut pso2: Value =
        serde_json::from_str(&std::fs::read_to_string("rulings/pso2/101.6-concede.json").unwrap())
            .unwrap();
    pso2["cards"]["q"]["abilities"][0]["per_turn"] = json!(1);
    let (ok, said) = run("pso2", &pso2);
    assert!(!ok, "{said}");
    assert!(said.contains("no \"N times per turn\" limit"), "{said}");
}

/// Each variant of `base` with `field` of the object at `at` set to its
/// value stops the run with `not implemented: clause <clause>`.
fn assert_variants_not_implemented(
    base: &Value,
    at: &str,
    variants: Vec<(&str, &str, Value)>,
    clause: &str,
) {
    for (name, field, value) in variants {
        let mut s = base.clone();
        s.pointer_mut(at).unwrap()[field] = value;
        let (ok, said) = run(name, &s);
        assert!(!ok, "{name}: {said}");
        assert!(
            said.contains(&format!("not implemented: clause {clause}")),
            "{name}: {said}"
        );
    }
}

/// "For each" (5.28.1): a unit below 1 and an effect whose amount SVE does
/// not scale stop the run; another game refuses the word at load.
#[test]
fn a_for_each_the_module_does_not_scale_is_not_implemented() {
    let base = ruling("5.28.1-for-each-is-one-action");
    let each = "/cards/bolt/abilities/0/effect/0";
    assert_eq!(base.pointer(each).unwrap()["do"], "for_each");
    assert_variants_not_implemented(
        &base,
        each,
        vec![
            ("per_zero", "per", json!(0)),
            (
                "destroy",
                "effect",
                json!({"do": "destroy", "target": {"select": "all", "side": "opponent", "types": ["follower"]}}),
            ),
        ],
        "5.28.1",
    );
    let mut pso2: Value =
        serde_json::from_str(&std::fs::read_to_string("rulings/pso2/101.6-concede.json").unwrap())
            .unwrap();
    pso2["cards"]["q"]["abilities"] = json!([{"trigger": "activated", "effect": [
        base.pointer(each).unwrap().clone()
    ]}]);
    let (ok, said) = run("pso2_for_each", &pso2);
    assert!(!ok, "{said}");
    assert!(said.contains("for_each"), "{said}");
}

/// A given ability (10.9.1.2, `gain_ability`) of a kind SVE does not give
/// (a Fanfare, a per-turn limit on Last Words) or given by a permanent
/// ability stops the run. ("May" and a cost on a given triggered ability
/// are modelled, 10.4.7.3: rulings `10.9.1.2-given-attack-ability-…`.)
#[test]
fn given_abilities_the_module_does_not_model_are_not_implemented() {
    let base = ruling("10.9.1.2-given-last-words-triggers-when-destroyed");
    let gain = "/cards/gift/abilities/0/effect/0";
    assert_eq!(base.pointer(gain).unwrap()["do"], "gain_ability");
    assert_variants_not_implemented(
        &base,
        &format!("{gain}/ability"),
        vec![
            ("fanfare", "trigger", json!("fanfare")),
            ("per_turn", "per_turn", json!(1)),
        ],
        "10.9.1.2",
    );
    let mut permanent = base.clone();
    let ability = permanent.pointer_mut("/cards/gift/abilities/0").unwrap();
    ability["trigger"] = json!("permanent");
    ability["effect"][0]["target"] = json!({"select": "all", "side": "you", "types": ["follower"]});
    let (ok, said) = run("permanent_gain", &permanent);
    assert!(!ok, "{said}");
    assert!(said.contains("not implemented"), "{said}");
}

/// A printed and a given Last Words of one card pend under two names
/// (`k.last_words`, `k.last_words.given`), so their master's order (10.7.3)
/// is asked for; two given Last Words of one card would pend under one
/// name, so the run stops (10.7.3) instead of picking one.
#[test]
fn a_printed_and_a_given_ability_are_ordered_two_given_cannot_be() {
    let mut s = ruling("10.9.1.2-given-last-words-triggers-when-destroyed");
    let printed = json!([{"trigger": "last_words", "effect": [
        {"do": "damage", "amount": 1, "target": {"select": "player", "who": "opponent"}}
    ]}]);
    s["cards"]["knight"]["abilities"] = printed;
    let (ok, said) = run("printed_and_given", &s);
    assert!(!ok, "{said}");
    assert!(
        said.contains("choice `order`") && said.contains("k.last_words.given"),
        "{said}"
    );
    // A second spell giving another Last Words, played before the
    // follower is destroyed.
    let mut two = ruling("10.9.1.2-given-last-words-triggers-when-destroyed");
    let mut gift2 = two["cards"]["gift"].clone();
    gift2["abilities"][0]["effect"][0]["ability"]["effect"] = json!([
        {"do": "damage", "amount": 1, "target": {"select": "player", "who": "opponent"}}
    ]);
    two["cards"]["gift2"] = gift2;
    two["state"]["players"]["p1"]["values"]["pp"] = json!(10);
    two["state"]["players"]["p1"]["zones"]["hand"]
        .as_array_mut()
        .unwrap()
        .push(json!({"id": "g2", "card": "gift2"}));
    two["actions"].as_array_mut().unwrap().insert(
        1,
        json!({"do": "play", "card": "g2", "choices": {"g2.spell": "k"}}),
    );
    let (ok, said) = run("two_given", &two);
    assert!(!ok, "{said}");
    assert!(said.contains("not implemented: clause 10.7.3"), "{said}");
}

/// Stack's third ability (13.3.2 item 2: moving stack counters to another
/// Stack amulet) is not modelled: activating a Stack amulet that prints no
/// activated ability stops with `not implemented`, not "it has none".
#[test]
fn stacks_counter_moving_ability_is_not_implemented() {
    let mut s = ruling("13.3.2-stack-replaces-leaving");
    s["actions"] = json!([
        {"do": "play", "card": "a"},
        {"do": "activate", "card": "a"}
    ]);
    s.as_object_mut().unwrap().remove("expect");
    let (ok, said) = run("stack-move", &s);
    assert!(!ok, "{said}");
    assert!(said.contains("not implemented: clause 13.3.2.2"), "{said}");
}

/// The turns waiting (`state.in_progress.turns`, written by the dump: 5.25,
/// 5.27): an extra turn written is taken before the next turn; a seat
/// that does not exist is refused at load.
#[test]
fn waiting_extra_turns_are_read_from_in_progress() {
    let mut s = ruling("5.27.1-extra-turn");
    s["actions"] = json!([{"do": "end_phase"}]);
    s["expect"] = json!({});
    s["state"]["in_progress"] = json!({"turns": {"extra_turns": [0], "resume": 1}});
    let (ok, said) = run("turns", &s);
    assert!(ok, "{said}");
    assert!(said.contains("p1 takes an extra turn now"), "{said}");
    s["state"]["in_progress"] = json!({"turns": {"extra_turns": [5]}});
    let (ok, said) = run("turns_bad", &s);
    assert!(!ok, "{said}");
    assert!(
        said.contains("`turns` names more than the 2 seats"),
        "{said}"
    );
}

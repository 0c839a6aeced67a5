//! A game that has ended runs no procedure: the trace's last step is the
//! end itself, whatever was still resolving. PMV: a player wins or loses
//! "at that point" (1.5.2, 1.5.3) and a draw ends the game likewise (1.5.4);
//! SVE: rule processes end it (1.2.1, 11.2) and nothing is checked again.
//! Every game records the end through the core (`Machine::end`) as the step
//! `game.end`, citing its own deciding clauses (PMV 1.5.2.b / 1.5.4.a, SVE
//! 1.2.1, DZ 3.3.3, PSO2 101.4); a step recorded after it is an internal
//! error of the engine. The corpus tests cover all four games; the probes below are PMV's.

use std::path::Path;

use serde_json::Value;
use tcg_judge::engine::Outcome;
use tcg_judge::scenario;

fn run_text(text: &str) -> Outcome {
    let loaded = scenario::load_str("t.json", text, None).expect("test scenario loads");
    loaded.module.run(loaded.game.clone(), &loaded.actions)
}

/// The end step, `game.end` in every game (the core's `Machine::end`).
fn is_end(step: &str) -> bool {
    step == "game.end"
}

/// The steps recorded after the first end, if any.
fn after_end(o: &Outcome) -> Vec<String> {
    let steps: Vec<&str> = o.trace.iter().map(|e| e.step.as_str()).collect();
    match steps.iter().position(|s| is_end(s)) {
        Some(i) => steps[i + 1..].iter().map(|s| s.to_string()).collect(),
        None => Vec::new(),
    }
}

fn ends_game(o: &Outcome) -> bool {
    o.trace.iter().any(|e| is_end(&e.step))
}

/// The scenario files of a corpus folder, sorted; card pools
/// (`*.pool.json`) are not scenarios.
fn corpus_files(dir: &str) -> Vec<std::path::PathBuf> {
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.extension().is_some_and(|x| x == "json")
                && !p.to_string_lossy().ends_with(".pool.json")
        })
        .collect();
    files.sort();
    files
}

/// Every ruling and scenario that ends its game ends its trace there.
#[test]
fn no_step_follows_the_end_in_any_corpus() {
    let mut ended = std::collections::BTreeMap::new();
    for game in ["pmv", "sve"] {
        for dir in [format!("rulings/{game}"), format!("scenarios/{game}")] {
            for f in corpus_files(&dir) {
                let (_, o) = scenario::run_file(Path::new(&f)).expect("corpus file loads");
                if ends_game(&o) {
                    *ended.entry(game).or_insert(0) += 1;
                }
                let after = after_end(&o);
                assert!(
                    after.is_empty(),
                    "{}: steps after the end: {after:?}",
                    f.display()
                );
            }
        }
    }
    // Each corpus does end games (deck-out, defeat, effect win / loss, loops).
    for game in ["pmv", "sve"] {
        let n = ended.get(game).copied().unwrap_or(0);
        assert!(n >= 3, "only {n} {game} files end their game: {ended:?}");
    }
}

/// A command whose effect is `first` then a draw of 1 for its player, with
/// `extra` cards and p1's deck of `deck` cards.
fn command_then_draw(first: &str, extra: &str, field: &str) -> String {
    format!(
        r#"{{
  "game": "pmv", "name": "t", "source": "test", "seed": 1,
  "cards": {{
    "c": {{ "name": "C", "type": "command", "cost": 0, "stats": {{ "node": 0 }},
      "abilities": [ {{ "trigger": "effect", "effect": [ {first}, {{ "do": "draw", "amount": 1, "who": "you" }} ] }} ] }}
    {extra}
  }},
  "state": {{ "turn": {{ "player": "p1", "phase": "main", "number": 3 }},
    "players": {{
      "p1": {{ "zones": {{ "deck": {{ "count": 5 }}, "hand": [ {{ "id": "x", "card": "c" }} ] }} }},
      "p2": {{ "zones": {{ "deck": {{ "count": 5 }}{field} }} }}
    }} }},
  "actions": [ {{ "do": "play", "player": "p1", "card": "x" }}, {{ "do": "pass", "player": "p2" }}, {{ "do": "pass", "player": "p1" }} ]
}}"#
    )
}

fn hand_size(o: &Outcome, p: &str) -> usize {
    let s: Value = serde_json::to_value(&o.state).unwrap();
    s["players"][p]["zones"]["hand"]
        .as_array()
        .map_or(0, Vec::len)
}

#[test]
fn an_effect_that_wins_applies_nothing_after_it() {
    let o = run_text(&command_then_draw(r#"{ "do": "win" }"#, "", ""));
    assert_eq!(o.result.to_string(), "p1");
    assert_eq!(o.trace.last().unwrap().step, "game.end");
    // The draw that followed in the same effect did not happen, and the
    // command was not put into the Netherworld.
    assert!(
        !o.trace
            .iter()
            .any(|e| e.step == "draw" || e.step == "resolve.done")
    );
    assert_eq!(hand_size(&o, "p1"), 0);
}

#[test]
fn an_effect_that_loses_applies_nothing_after_it() {
    let o = run_text(&command_then_draw(
        r#"{ "do": "lose", "who": "you" }"#,
        "",
        "",
    ));
    assert_eq!(o.result.to_string(), "p2");
    assert_eq!(o.trace.last().unwrap().step, "game.end");
    assert_eq!(hand_size(&o, "p1"), 0);
}

/// A character whose discard window makes its player win: the game ends
/// inside the removal, so the card is never put into the Netherworld and
/// the rest of the destroying effect is not applied.
#[test]
fn a_win_inside_a_removal_window_ends_the_removal() {
    let v = r#", "v": { "name": "V", "type": "character", "cost": 0, "attack": 1, "defense": 3,
      "stats": { "node": 0, "graze": 0 },
      "abilities": [ { "trigger": "discarded", "effect": [ { "do": "win" } ] } ] }"#;
    let destroy = r#"{ "do": "destroy", "target": { "select": "all", "side": "opponent", "types": ["character"] } }"#;
    let o = run_text(&command_then_draw(
        destroy,
        v,
        r#", "field": [ { "id": "b", "card": "v" } ]"#,
    ));
    assert_eq!(o.result.to_string(), "p2", "{:#?}", o.trace);
    assert_eq!(o.trace.last().unwrap().step, "game.end", "{:#?}", o.trace);
    let s: Value = serde_json::to_value(&o.state).unwrap();
    let field = s["players"]["p2"]["zones"]["field"].to_string();
    assert!(
        field.contains("\"b\""),
        "b was moved after the end: {field}"
    );
    assert_eq!(hand_size(&o, "p1"), 0);
}

/// p1's attacker `a` attacks, p2 blocks with `b`, and both pass on; the
/// attacker's `trigger` ability makes p1 win, then would draw.
fn attack_with_winning_trigger(trigger: &str) -> String {
    let pass = |p: &str| format!(r#"{{ "do": "pass", "player": "{p}" }}"#);
    let passes: Vec<String> = (0..5).flat_map(|_| [pass("p1"), pass("p2")]).collect();
    format!(
        r#"{{
  "game": "pmv", "name": "t", "source": "test", "seed": 1,
  "cards": {{
    "att": {{ "name": "A", "type": "character", "cost": 0, "attack": 3, "defense": 3, "stats": {{ "node": 0, "graze": 0 }},
      "abilities": [ {{ "trigger": "{trigger}", "effect": [ {{ "do": "win" }}, {{ "do": "draw", "amount": 1, "who": "you" }} ] }} ] }},
    "blk": {{ "name": "B", "type": "character", "cost": 0, "attack": 3, "defense": 3, "stats": {{ "node": 0, "graze": 0 }} }}
  }},
  "state": {{ "turn": {{ "player": "p1", "phase": "main", "number": 3 }},
    "players": {{
      "p1": {{ "zones": {{ "deck": {{ "count": 5 }}, "field": [ {{ "id": "a", "card": "att" }} ] }} }},
      "p2": {{ "zones": {{ "deck": {{ "count": 5 }}, "field": [ {{ "id": "b", "card": "blk" }} ] }} }}
    }} }},
  "actions": [ {{ "do": "attack", "card": "a" }}, {}, {{ "do": "block", "player": "p2", "card": "b" }}, {} ]
}}"#,
        pass("p2"),
        passes.join(", ")
    )
}

/// A win in the attack (6.3), at the start of combat (6.2.4.b) or in the
/// damage procedure (1.10.12.a, d) ends the game there: no attack, combat
/// or damage step follows.
#[test]
fn a_win_during_an_attack_or_its_damage_ends_it_there() {
    for trigger in [
        "on_attack",
        "start_of_combat",
        "dealing_damage",
        "dealt_damage",
    ] {
        let o = run_text(&attack_with_winning_trigger(trigger));
        assert_eq!(o.result.to_string(), "p1", "{trigger}");
        assert_eq!(
            o.trace.last().unwrap().step,
            "game.end",
            "{trigger}: steps after the end: {:?}",
            after_end(&o)
        );
        assert_eq!(hand_size(&o, "p1"), 0, "{trigger}");
    }
}

/// PSO2 records its end as a step of its own (`game.end`, citing 101.4
/// and the deciding clauses: deck-out, concession, a card's text, the
/// raid's Boss Life or party elimination, RAID:F4), and nothing follows
/// it, in every PSO2 ruling and scenario, the raid's included.
#[test]
fn pso2_no_step_follows_the_end() {
    let mut ended = 0;
    let mut raids = 0;
    for dir in ["rulings/pso2", "scenarios/pso2"] {
        for f in corpus_files(dir) {
            let (_, o) = scenario::run_file(Path::new(&f)).expect("corpus file loads");
            let ends: Vec<_> = o.trace.iter().filter(|e| is_end(&e.step)).collect();
            if o.result != "ongoing" || !ends.is_empty() {
                assert_eq!(
                    ends.len(),
                    1,
                    "{}: a game that ends records its end once: {:?}",
                    f.display(),
                    o.trace.iter().map(|e| &e.step).collect::<Vec<_>>()
                );
                assert_eq!(ends[0].step, "game.end", "{}", f.display());
                assert!(
                    ends[0].rules.contains(&"101.4"),
                    "{}: the end cites 101.4: {:?}",
                    f.display(),
                    ends[0].rules
                );
                ended += 1;
                if ends[0].rules.iter().any(|c| c.starts_with("RAID:")) {
                    raids += 1;
                }
            }
            let after = after_end(&o);
            assert!(
                after.is_empty(),
                "{}: steps after the end: {after:?}",
                f.display()
            );
        }
    }
    assert!(ended >= 3, "only {ended} PSO2 files end their game");
    assert!(raids >= 1, "no PSO2 raid file ends its game");
}

/// DZ: a decided duel ends its trace on one `game.end` step, citing that
/// the duel ends at once (3.3.3), and a draw (both lose at once) also
/// 3.3.4; a duel still going records no end.
#[test]
fn dz_corpus_ends_on_one_game_end_step() {
    let mut ended = 0;
    for dir in ["rulings/dz", "scenarios/dz"] {
        for f in corpus_files(dir) {
            let (_, o) = scenario::run_file(Path::new(&f)).expect("corpus file loads");
            let ends: Vec<_> = o.trace.iter().filter(|e| e.step == "game.end").collect();
            let result = o.result.to_string();
            if result == "ongoing" {
                assert!(ends.is_empty(), "{}: an end on a going duel", f.display());
                continue;
            }
            ended += 1;
            assert_eq!(ends.len(), 1, "{}: ends {}", f.display(), ends.len());
            let last = o.trace.last().unwrap();
            assert_eq!(
                last.step,
                "game.end",
                "{}: steps after the end: {:?}",
                f.display(),
                after_end(&o)
            );
            let rules: Vec<String> = last.rules.iter().map(|r| r.to_string()).collect();
            assert!(rules.iter().any(|r| r == "3.3.3"), "{}", f.display());
            assert_eq!(
                result == "draw",
                rules.iter().any(|r| r == "3.3.4"),
                "{}: {rules:?}",
                f.display()
            );
        }
    }
    assert!(ended >= 3, "only {ended} DZ files end their duel");
}

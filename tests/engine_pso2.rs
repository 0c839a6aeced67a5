//! Golden traces of PSO2 scenarios: the readable trace with clause titles
//! from the bundled rulebook. A change to the PSO2 module, the effect
//! language or the PSO2 rulebook parse shows up here as a diff.

use std::path::Path;

use tcg_judge::output::Style;
use tcg_judge::scenario::{self, report};

fn golden(file: &str) -> String {
    let (loaded, outcome) = scenario::run_file(Path::new(file)).expect("scenario loads");
    report::render_run(&loaded, &outcome, report::Detail::Compact, Style::PLAIN)
}

#[test]
fn golden_foie_barta_hp_up() {
    insta::assert_snapshot!(golden("rulings/pso2/103.6.1.7-foie-barta-hp-up.json"));
}

#[test]
fn golden_war_cry_redirect() {
    insta::assert_snapshot!(golden("scenarios/pso2/03-war-cry-redirect.json"));
}

#[test]
fn golden_raid_boss_turn() {
    insta::assert_snapshot!(golden("scenarios/pso2/07-raid-boss-turn.json"));
}

/// 100.3.2: a card printing "N copies may be in a deck" (stat
/// `deck_copies`) allows N and no more; over it the setup stops with an
/// illegal deck citing 100.3.2 (a deck is checked before the game, so no
/// ruling file can expect it as a rejected action).
#[test]
fn deck_over_a_cards_own_copy_limit_is_illegal() {
    use tcg_judge::engine::EngineError;
    let deck: Vec<String> = (0..20)
        .map(|i| {
            if i < 5 {
                format!(r#"{{ "id": "m{i}", "card": "many" }}"#)
            } else {
                r#""?""#.to_string()
            }
        })
        .collect();
    let src = format!(
        r#"{{ "game": "pso2", "name": "five", "source": {{ "kind": "worked_example", "clause": "100.3.2" }},
  "cards": {{
    "pc": {{ "name": "PLAYER", "type": "player", "defense": 20, "text": {{ "color": "red" }} }},
    "many": {{ "name": "量産型", "type": "chara", "cost": 0, "attack": 1, "defense": 1,
      "text": {{ "color": "red" }}, "stats": {{ "deck_copies": 4 }} }} }},
  "state": {{ "turn": {{ "player": "p1", "phase": "setup", "number": 1 }},
    "players": {{
      "p1": {{ "zones": {{ "player": [ {{ "id": "pc1", "card": "pc" }} ], "deck": [ {} ] }} }},
      "p2": {{ "zones": {{ "player": [ {{ "id": "pc2", "card": "pc" }} ], "deck": {{ "count": 20 }} }} }} }} }},
  "actions": [ {{ "do": "pass", "player": "p1" }} ] }}"#,
        deck.join(", ")
    );
    let loaded = scenario::load_str("five.json", &src, None).expect("loads");
    let outcome = scenario::run_loaded(&loaded, &scenario::plan(&loaded.scenario.expect));
    let stop = outcome.error.expect("the setup stops");
    assert!(
        matches!(
            stop.error,
            EngineError::Illegal {
                rule: "100.3.2",
                ..
            }
        ),
        "{:?}",
        stop.error
    );
}

use super::*;
use crate::engine::CardDef;

fn def(name: &str, atk: i64, dfn: i64, kw: &[&str]) -> CardDef {
    CardDef {
        name: name.into(),
        card_type: "follower".into(),
        cost: Some(1),
        attack: Some(atk),
        defense: Some(dfn),
        stats: Default::default(),
        keywords: kw.iter().map(|s| s.to_string()).collect(),
        traits: vec![],
        text: Default::default(),
        abilities: vec![],
        alternate: None,
    }
}

fn card(id: &str, d: &str, p: PlayerId, zone: &'static str, states: &[&str]) -> Card {
    Card {
        states: states.iter().map(|s| s.to_string()).collect(),
        ..Card::new(id, d, p, ZoneId::of(p, zone))
    }
}

fn game() -> Game {
    let mut g = Game::new(super::super::ZONES, 2, 0);
    for (k, d) in [
        ("plain", def("Plain", 2, 2, &[])),
        ("ward", def("Wall", 1, 4, &["ward"])),
        ("intim", def("Brute", 2, 2, &["intimidate"])),
        ("storm", def("Rider", 3, 1, &["storm"])),
        ("assail", def("Lancer", 3, 3, &["assail"])),
        ("evo", def("Plain", 4, 4, &[])),
    ] {
        g.defs.insert(k.into(), d);
    }
    g
}

#[test]
fn only_engaged_followers_and_the_leader_are_targets() {
    let mut g = game();
    g.add_card(card("a", "plain", PlayerId::P1, zn::FIELD, &[]));
    g.add_card(card("r", "plain", PlayerId::P2, zn::FIELD, &[]));
    g.add_card(card("e", "plain", PlayerId::P2, zn::FIELD, &[st::ENGAGED]));
    g.add_card(card("i", "intim", PlayerId::P2, zn::FIELD, &[st::ENGAGED]));
    assert_eq!(
        legal_targets(&g, "a").0,
        vec!["e".to_string(), "leader".into()]
    );
}

#[test]
fn engaged_ward_narrows_targets_and_reserved_ward_does_not() {
    let mut g = game();
    g.add_card(card("a", "plain", PlayerId::P1, zn::FIELD, &[]));
    g.add_card(card("e", "plain", PlayerId::P2, zn::FIELD, &[st::ENGAGED]));
    g.add_card(card("w", "ward", PlayerId::P2, zn::FIELD, &[]));
    assert_eq!(
        legal_targets(&g, "a").0,
        vec!["e".to_string(), "leader".into()]
    );
    g.cards
        .get_mut("w")
        .unwrap()
        .states
        .insert(st::ENGAGED.into());
    let (t, rule) = legal_targets(&g, "a");
    assert_eq!(t, vec!["w".to_string()]);
    assert_eq!(rule, r::WARD);
}

#[test]
fn storm_reaches_the_leader_and_assail_reserved_followers() {
    let mut g = game();
    g.add_card(card("s", "storm", PlayerId::P1, zn::FIELD, &[st::ARRIVED]));
    g.add_card(card("l", "assail", PlayerId::P1, zn::FIELD, &[]));
    g.add_card(card("r", "plain", PlayerId::P2, zn::FIELD, &[]));
    assert_eq!(legal_targets(&g, "s").0, vec!["leader".to_string()]);
    assert_eq!(
        legal_targets(&g, "l").0,
        vec!["r".to_string(), "leader".into()]
    );
    // An arrival without Storm, Rush or evolution is no legal attacker.
    g.add_card(card("n", "plain", PlayerId::P1, zn::FIELD, &[st::ARRIVED]));
    assert!(!legal_attackers(&g).iter().any(|c| c == "n"));
}

#[test]
fn an_attached_evolve_card_supplies_the_characteristics() {
    let mut g = game();
    g.add_card(card("w", "plain", PlayerId::P1, zn::FIELD, &[]));
    let mut e = card("e", "evo", PlayerId::P1, zn::EVOLUTION, &[]);
    e.attached_to = Some("w".into());
    g.add_card(e);
    g.cards.get_mut("w").unwrap().damage = 1;
    let w = g.card("w").unwrap().clone();
    assert_eq!(eff_def_key(&g, "w").as_deref(), Some("evo"));
    assert_eq!(attack(&g, &w), 4);
    assert_eq!(
        defense(&g, &w),
        3,
        "damage taken stays after evolving (5.15.3)"
    );
}

#[test]
fn turning_a_card_over_is_not_implemented() {
    let text = r#"{ "game": "sve", "name": "t", "source": "test",
        "cards": { "s": { "name": "S", "type": "spell", "cost": 0,
            "abilities": [ { "trigger": "spell", "effect": [ { "do": "turn_face", "up": false,
              "target": { "select": "all", "side": "opponent" } } ] } ] } },
        "state": { "turn": { "player": "p1", "phase": "main", "number": 3 },
          "players": { "p1": { "zones": { "hand": [ { "id": "x", "card": "s" } ] } }, "p2": {} } },
        "actions": [ { "do": "play", "card": "x" } ] }"#;
    // SVE does not declare `turn_face`: the loader refuses it.
    let e = crate::scenario::load_str("t.json", text, None).unwrap_err();
    assert!(
        e.message
            .starts_with("`turn_face` is not supported for sve yet (clause 5.1.1)"),
        "{}",
        e.message
    );
}

#[test]
fn an_alternate_face_is_not_implemented() {
    let text = r#"{ "game": "sve", "name": "t", "source": "test",
        "cards": { "f": { "name": "F", "type": "follower", "cost": 1, "attack": 1, "defense": 1,
            "alternate": { "name": "G", "attack": 2, "defense": 2 } } },
        "state": { "turn": { "player": "p1", "phase": "main", "number": 3 },
          "players": { "p1": { "zones": { "field": [ "f" ] } }, "p2": {} } },
        "actions": [] }"#;
    let loaded = crate::scenario::load_str("t.json", text, None).expect("loads");
    let out = loaded.module.run(loaded.game.clone(), &loaded.actions);
    assert!(matches!(
        out.error.map(|e| e.error),
        Some(EngineError::NotImplemented { clause, .. }) if clause == r::CARD_INFO
    ));
}

#[test]
fn storm_reading_keeps_the_leader_out_of_reach() {
    let mut g = game();
    g.add_card(card("s", "storm", PlayerId::P1, zn::FIELD, &[st::ARRIVED]));
    assert!(legal_targets(&g, "s").0.contains(&"leader".to_string()));
    g.players[1].flags.insert(STORM_FOLLOWERS_ONLY.into());
    assert!(!legal_targets(&g, "s").0.contains(&"leader".to_string()));
}

#[test]
fn extra_turns_come_latest_first_then_the_turn_that_would_have_come() {
    let mut m = M::new(game());
    // p1 gave p2 an extra turn, then itself one, in p1's turn.
    m.game.own::<SveState>().extra_turns = vec![PlayerId::P2, PlayerId::P1];
    assert_eq!(next_turn_player(&mut m, PlayerId::P1), PlayerId::P1);
    assert_eq!(next_turn_player(&mut m, PlayerId::P1), PlayerId::P2);
    assert_eq!(next_turn_player(&mut m, PlayerId::P2), PlayerId::P2);
    assert_eq!(next_turn_player(&mut m, PlayerId::P2), PlayerId::P1);
}

#[test]
fn a_skipped_turn_gives_way_to_the_next_once() {
    let mut m = M::new(game());
    m.game.own::<SveState>().skip_next = vec![false, true];
    assert_eq!(next_turn_player(&mut m, PlayerId::P1), PlayerId::P1);
    assert_eq!(next_turn_player(&mut m, PlayerId::P1), PlayerId::P2);
}

#[test]
fn a_mulligan_of_different_cards_needs_their_order() {
    let mut m = M::new(game());
    for (id, d) in [("a", "plain"), ("b", "ward")] {
        m.game.add_card(card(id, d, PlayerId::P1, zn::HAND, &[]));
    }
    for i in 0..6 {
        m.game
            .add_card(card(&format!("d{i}"), "plain", PlayerId::P1, zn::DECK, &[]));
    }
    assert!(matches!(
        mulligan(&mut m, PlayerId::P1),
        Err(EngineError::MissingChoice { .. })
    ));
    let order = serde_json::json!(["b", "a"]);
    m.choices = crate::engine::Choices::new([("bottom".to_string(), order)].into());
    mulligan(&mut m, PlayerId::P1).unwrap();
    assert_eq!(
        m.game.zone_of(PlayerId::P1, zn::DECK),
        ["d4", "d5", "b", "a"]
    );
    assert_eq!(
        m.game.zone_of(PlayerId::P1, zn::HAND),
        ["d0", "d1", "d2", "d3"]
    );
}

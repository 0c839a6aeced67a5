//! Clauses of 第2部–第6部 that `judge coverage dz` does not expect a
//! ruling for, each with the reason: definitions and layout with no state
//! change, tournament rules, and rules the module does not implement (a
//! scenario that needs one of those stops with `not implemented: clause …`
//! or cannot be written in the scenario language at all).

/// Reason of the rules the engine does not implement.
const NI: &str = "not implemented: a scenario needing it stops with `not implemented: clause …` (or the scenario language has no way to write it)";

/// (clause, reason); an entry covers the clause's whole subtree.
pub const EXCEPTIONS: &[(&str, &str)] = &[
    (
        "2.1",
        "definitions of card, owner, player and controller: no state change",
    ),
    ("2.2", "card layout and data: definitions"),
    ("2.3", "card names: definitions"),
    ("2.4.1", "layout: where the use cost is printed"),
    (
        "2.4.2-3",
        "the five colours: a definition (the scenario language writes them as stats)",
    ),
    ("2.4.2-4", NI),
    (
        "2.4.4",
        "ties for the highest cost: no effect of the scenario language reads the highest or lowest cost",
    ),
    (
        "2.4.5",
        "ties for the lowest cost: no effect of the scenario language reads the highest or lowest cost",
    ),
    ("2.5.1", "layout: where the move cost is printed"),
    ("2.6.1", "layout: where the card type is printed"),
    ("2.6.3", NI),
    ("2.7", "illustration: no rules meaning"),
    ("2.8.1", "layout: where the race or attribute is printed"),
    ("2.8.3", NI),
    ("2.8.4", NI),
    ("2.9.1", "layout: where the timing is printed"),
    ("2.9.3", "layout: the timing icons"),
    ("2.10.1", "layout: where the text is printed"),
    (
        "2.10.2",
        "reminder text has no rules meaning: scenarios write only rules text",
    ),
    ("2.10.3-2", NI),
    ("2.10.3-3", NI),
    ("2.10.3-4", NI),
    ("2.10.3-5", NI),
    ("2.10.3-6", NI),
    ("2.10.3-7", NI),
    (
        "2.10.4",
        "the text of reprints: which card definition a scenario writes",
    ),
    ("2.11", "flavour text: no rules meaning"),
    ("2.12.1", "layout: where the power is printed"),
    (
        "2.12.2",
        "ties for the highest power: no effect of the scenario language reads them",
    ),
    (
        "2.12.3",
        "ties for the lowest power: no effect of the scenario language reads them",
    ),
    ("2.13.1", "layout: where the smash is printed"),
    ("2.14", "expansion number: no rules meaning"),
    ("2.15", "rarity: no rules meaning"),
    ("2.16", "collector number: no rules meaning"),
    ("2.17", "copyright line: no rules meaning"),
    ("2.18", "illustrator credit: no rules meaning"),
    (
        "2.19",
        "禁呪 points: deck construction, not checked by the engine",
    ),
    ("2.20.1-5", NI),
    ("2.20.1-8", NI),
    ("2.20.2-6", NI),
    (
        "2.21",
        "what a spell is: definitions (spells are played and resolved by 4.7 and 4.9)",
    ),
    ("2.22", "status: a definition"),
    (
        "2.23.1-2",
        "the order of cards in zones: no effect of the scenario language reorders them",
    ),
    ("2.23.1-6", NI),
    ("2.23.2", "the deck: a heading"),
    (
        "2.23.2-1",
        "the deck at the start of the duel: scenarios start in a turn",
    ),
    (
        "2.23.2-2",
        "the deck is one face-down pile: no state change",
    ),
    ("2.23.2-3", "counting the deck: no state change"),
    ("2.23.2-4", NI),
    (
        "2.23.4",
        "the hand: definitions (opening hand, no maximum, arranging it): no state change",
    ),
    (
        "2.23.5-2",
        "the graveyard is one face-up pile: no state change",
    ),
    ("2.23.5-3", NI),
    ("2.23.6-1", "the energy zone: a definition"),
    ("2.23.6-3", "arranging the energy zone: no state change"),
    ("2.23.7-1", "the smash zone: a definition"),
    ("2.23.7-3", "arranging the smash zone: no state change"),
    (
        "2.23.8-2",
        "own-area squares are adjacent to base squares: no rule the engine implements moves a card between them",
    ),
    (
        "2.23.8-3",
        "spells and abilities affect only squares: the scenario language's default zone",
    ),
    (
        "2.23.9-1",
        "a played card goes on the stack: asserted through 4.7.2 and 4.1.1",
    ),
    ("2.23.10-1", "the remove zone: a definition"),
    (
        "2.23.10-3",
        "sideboards and collections are not in the game: no state change",
    ),
    ("2.24.1", "groupings of squares are not zones: a definition"),
    ("2.24.2", "the base space: a definition"),
    ("2.24.3", "the battle space: a definition"),
    ("2.24.4", "lines: a definition"),
    (
        "2.24.5",
        "naming lines left, centre, right from a player: scenario files name them from P1's view",
    ),
    (
        "2.24.5-1",
        "no rule the engine implements names a line; card text reads lines from the card (支援)",
    ),
    ("2.24.6", "areas: a definition"),
    ("2.25.1", "public and hidden information: a definition"),
    ("2.26.1-2", "向き means released or frozen: a definition"),
    ("2.27.p1", "the source: a definition"),
    ("2.27.p3", "asserted through 4.2.5 (the same rule)"),
    (
        "3.1",
        "deck construction and preparation before the duel: not simulated",
    ),
    (
        "3.2",
        "start of the duel (opening hands, mulligan): scenarios start in a turn",
    ),
    ("3.3.5", NI),
    (
        "3.3.6",
        "infinite loops: decided by the players and the judge (4.18)",
    ),
    ("3.3.8", "tournament time limits: floor rules"),
    ("3.3.9", "tournament time limits: floor rules"),
    ("3.3.10", "tournament time limits: floor rules"),
    ("3.3.11", "tournament time limits: floor rules"),
    ("3.4.4", NI),
    ("3.11.1-4", NI),
    (
        "3.11.5-1",
        "units of both players placed at the same time: no effect of the scenario language places two units at once",
    ),
    ("4.1.4", NI),
    ("4.2.1", "abilities: definitions"),
    ("4.2.2", "abilities: definitions"),
    (
        "4.2.3",
        "how abilities are separated in card text: scenarios write abilities one by one",
    ),
    (
        "4.2.4",
        "costs written in text: scenarios write costs as stats",
    ),
    (
        "4.3.3",
        "which activated abilities the rules grant (creating and updating the plan zone, moving a unit): a list; their procedures are asserted under 3.8.2-3, 3.8.2-4 and 3.8.2-6 (flow/plan.rs, flow/movement.rs)",
    ),
    (
        "4.4.2",
        "a trigger does nothing by itself: asserted through 4.8.2",
    ),
    ("4.4.4-2", NI),
    ("4.7.2-4", NI),
    ("4.8.4-1", NI),
    ("4.8.4-3", NI),
    ("4.8.4-4", NI),
    ("4.8.4-5", NI),
    ("4.8.8", NI),
    ("4.8.11-2", NI),
    ("4.8.12", NI),
    ("4.8.13", NI),
    ("4.9.2-5", NI),
    ("4.9.2-7", NI),
    ("4.9.2-9-1", NI),
    ("4.9.2-9-2", NI),
    (
        "4.9.4",
        "nothing is played during a resolution: the engine resolves atomically, no action can come between",
    ),
    (
        "4.11.4",
        "a spell can't target itself: a spell is on the stack, outside every target filter",
    ),
    ("4.12.1", "one-shot effects: a definition"),
    ("4.13", "one-shot effects: a definition"),
    ("4.14.1", "continuous effects: a definition"),
    ("4.14.3-3", NI),
    (
        "4.14.5",
        "layers: race changes (`change_info` `traits`) apply before power and smash changes (4.14.5-2, ruling 4.14.5-2#ex1); controller and text changes have no effect in the scenario language, and power additions and 支援 commute",
    ),
    ("4.15.2-1", NI),
    ("4.15.2-2", NI),
    (
        "4.15.5-1",
        "not implemented: an effect's action replaced still counts as done for a later ability that reads it (4.15.5-1#ex1: a replacement from the plan zone, and a move cost set by an effect, are not built); a replaced cost is (4.15.5)",
    ),
    ("4.15.8", NI),
    ("4.16.4-11", "tournament time limits: floor rules"),
    ("4.16.4-12", "tournament time limits: floor rules"),
    ("4.16.4-15", NI),
    (
        "4.18",
        "infinite loops: decided by the players and the judge",
    ),
    (
        "4.19",
        "reversing illegal actions: the engine rejects them before they happen",
    ),
    ("5.1.1", "速攻 is a static ability: a definition"),
    ("5.2.1", "即死 is a triggered ability: a definition"),
    (
        "5.3.1",
        "召集 is a static ability changing how a unit is played: a definition",
    ),
    ("5.5.1", "支援 is a static ability: a definition"),
    (
        "5.6",
        "団結: deck construction only, not checked by the engine",
    ),
    (
        "5.7",
        "zone effects are implemented for static, activated and triggered abilities (flow/zone_effect.rs, rulings 2.10.3#ex1, 6.4.2#ex1), and 覚醒 (5.7.3, flow/awakening.rs); 5.7.1-3 (two zones at once) and 暴走 (5.7.2) are not: a scenario needing them stops with `not implemented: clause …`",
    ),
    (
        "5.8.1",
        "隊列召喚 is a static ability changing how a unit is played: a definition",
    ),
    (
        "5.8.2",
        "every formation is applied (flow/special_play.rs); ストレート (5.8.2-1) and スモールアイ (5.8.2-5) are asserted by rulings, the others not yet",
    ),
    ("5.10", NI),
    ("5.12", NI),
    ("5.14.1", "閃光 is a static ability: a definition"),
    ("5.15.1", "補給 is a static ability: a definition"),
    ("5.16.1", "急襲 is a static ability: a definition"),
    ("5.17.1", "耐性 is a static ability: a definition"),
    (
        "6.1",
        "闘気 cards are implemented (flow/attach.rs, rulings 6.1.5#ex1, 6.1.11#ex1, 6.1.4); the clauses left here are applied but not yet asserted by a ruling (6.1.2, 6.1.3, 6.1.6, 6.1.6-1, 6.1.9), or not modelled (6.1.7 swapping 闘気 cards between cards, 6.1.8 their having no type, 6.1.10 their face never read)",
    ),
    ("6.3", NI),
    (
        "6.4.3",
        "not implemented: 合成 as a strategy's additional cost (合成 as an activated ability's cost is, 6.4.1–6.4.2, flow/activate.rs)",
    ),
    ("6.5", NI),
    (
        "6.6",
        "結合 is implemented (flow/attach.rs, rulings 6.6.4#ex1, 6.6.5#ex1, 6.6.6#ex1); the clauses left here are 6.6.3 (still a strategy: cited as the bond is made, but not assertable: a bonded strategy is held in the `under` zone, which a chosen-card filter, default squares and bases, does not reach, so no effect can choose it as a strategy on its square) and 6.6.7 (not modelled: swapping bonded strategies between units)",
    ),
    ("6.7", NI),
];

/// The rulebook's 【例】 that no ruling re-proves, each with the reason:
/// those that state no outcome an engine can check (a classification or a
/// definition), and those whose card text or rule the engine does not
/// implement (the clause it would stop with). The other examples are
/// rulings in `rulings/dz/` (source kind `rulebook_example`).
pub const EXAMPLES_NOT_RULINGS: &[(&str, &str)] = &[
    (
        "1.2.3-3#ex2",
        "playing a card from the remove zone with the use cost an effect set ([無0], so X = 0) is not implemented (1.2.3-3): the example does not print 蒼覇星ティアーブレイク's text, and no effect lets a card be played from the remove zone; use costs set by static abilities are (4.7.2-3#ex4)",
    ),
    (
        "2.1.1#ex1",
        "no outcome to check: what counts as a card (a definition)",
    ),
    (
        "2.1.1#ex2",
        "no outcome to check: sleeves and marked cards (tournament practice)",
    ),
    (
        "2.2.2#ex1",
        "no outcome to check: released / frozen is not data (a definition)",
    ),
    (
        "2.20.1-5#ex1",
        "the choice in the energy zone is now writable (`targets: false`, 4.11.1), but three parts are not implemented: a unit put onto a square by a player the effect names (`put` onto a square with `who`, 2.20.1-5), the square \"the unit this effect put into the energy zone was on\", and a use cost bound read from that unit",
    ),
    (
        "4.3.1#ex1",
        "no outcome to check: the ability is classified as activated (a definition)",
    ),
    (
        "4.15.5-1#ex1",
        "a replacement effect working from the plan zone, and a move cost set by an effect, are not implemented (zone effects cover static, activated and triggered abilities, 5.7.1; 4.15.5-1)",
    ),
    (
        "6.2.2#ex4",
        "a mulligan (redraw at the start of the duel): scenarios start in a turn (3.2)",
    ),
];

#[cfg(test)]
mod tests {
    use super::EXAMPLES_NOT_RULINGS;

    /// Every example listed exists in the bundled rulebook, once.
    #[test]
    fn every_listed_example_exists() {
        let book = crate::bundle::game("dz").expect("dz is bundled");
        let mut seen = std::collections::BTreeSet::new();
        for (id, why) in EXAMPLES_NOT_RULINGS {
            assert!(!why.is_empty());
            assert!(seen.insert(*id), "{id} listed twice");
            let (clause, n) = id.split_once("#ex").expect("an example id");
            let n: usize = n.parse().expect("its number");
            let c = book
                .get(clause)
                .unwrap_or_else(|| panic!("{id}: no clause"));
            assert!(n >= 1 && n <= c.examples.len(), "{id}: no such example");
        }
    }

    /// Every 【例】 of the rulebook is either the source of a ruling in
    /// `rulings/dz` or listed with its reason, never both.
    #[test]
    fn every_example_is_a_ruling_or_listed() {
        let book = crate::bundle::game("dz").expect("dz is bundled");
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("rulings/dz");
        let mut ruled = std::collections::BTreeSet::new();
        for f in std::fs::read_dir(&dir).expect("rulings/dz") {
            let text = std::fs::read_to_string(f.expect("entry").path()).expect("a ruling");
            let v: serde_json::Value = serde_json::from_str(&text).expect("json");
            if let Some(ex) = v["source"]["example"].as_str() {
                ruled.insert(ex.to_string());
            }
        }
        let listed: std::collections::BTreeSet<String> = EXAMPLES_NOT_RULINGS
            .iter()
            .map(|(id, _)| id.to_string())
            .collect();
        for id in &ruled {
            assert!(!listed.contains(id), "{id} is a ruling and still listed");
        }
        for c in &book.clauses {
            for n in 1..=c.examples.len() {
                let id = format!("{}#ex{n}", c.id);
                assert!(
                    ruled.contains(&id) || listed.contains(&id),
                    "{id} is neither a ruling nor listed"
                );
            }
        }
    }
}

//! The synonym tables are data: every Japanese term they expand to must occur
//! in the game's bundled rulebook (compared in the search normal form, so
//! width, kana and spacing variants count as the same text).

use tcg_judge::search::synonyms::{Synonyms, TABLES};
use tcg_judge::text::fold_for_search;

fn raw(game: &str) -> String {
    let file = match game {
        "pmv" => "pmv-2.05.txt",
        "pso2" => "pso2-3.0.txt",
        "sve" => "sve-1.7.0.txt",
        "dz" => "dz-19.00.txt",
        other => panic!("no rulebook for {other}"),
    };
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("rulebooks")
        .join(file);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn every_expansion_occurs_in_its_rulebook() {
    let mut missing = Vec::new();
    for (game, text) in TABLES {
        let corpus = fold_for_search(&raw(game));
        let table = Synonyms::parse(text).expect("table parses");
        for (key, terms) in table.entries() {
            for t in terms {
                if !corpus.contains(&fold_for_search(t)) {
                    missing.push(format!("{game}: {key} → {t}"));
                }
            }
        }
    }
    assert!(
        missing.is_empty(),
        "not in the rulebook:\n{}",
        missing.join("\n")
    );
}

#[test]
fn issue_terms_have_an_expansion_somewhere() {
    // The English terms the issue names.
    for term in [
        "ward",
        "bane",
        "check timing",
        "deck out",
        "concede",
        "first strike",
        "mulligan",
    ] {
        let games: Vec<&str> = TABLES
            .iter()
            .filter(|(_, t)| !Synonyms::parse(t).unwrap().expand(term).is_empty())
            .map(|(g, _)| *g)
            .collect();
        assert!(!games.is_empty(), "{term} expands in no game");
    }
}

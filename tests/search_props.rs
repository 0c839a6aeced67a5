//! Invariants of search (proptest) and a golden ranking (insta).

use proptest::prelude::*;
use tcg_judge::search::{Engine, Scope, embedded, query};
use unicode_normalization::UnicodeNormalization;

fn engine() -> Engine<'static> {
    Engine::new(embedded().expect("embedded index"))
}

/// Whether `c` becomes an ASCII letter or digit under NFKC (it would be part
/// of a whole-word token, which a substring must not cut).
fn wordish(c: char) -> bool {
    c.to_string().nfkc().any(|d| d.is_ascii_alphanumeric())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Recall: any stretch of a clause's text, searched as a quoted phrase,
    /// finds that clause (phrase matching never loses a true occurrence).
    #[test]
    fn any_substring_of_a_clause_finds_it(doc_seed in any::<u32>(), start in any::<u32>(), len in 2usize..8) {
        let e = engine();
        let ix = e.index();
        let no = doc_seed % ix.n_docs();
        let text: Vec<char> = ix.doc(no).text.chars().collect();
        prop_assume!(text.len() > len + 1);
        let s = (start as usize) % (text.len() - len);
        let sub: String = text[s..s + len].iter().collect();
        // Do not cut an ASCII word in half, nor contain a quote.
        prop_assume!(!(s > 0 && wordish(text[s - 1]) && wordish(text[s])));
        prop_assume!(!(s + len < text.len() && wordish(text[s + len - 1]) && wordish(text[s + len])));
        prop_assume!(!sub.chars().any(|c| matches!(c, '"' | '“' | '”' | '＂')));
        prop_assume!(tcg_judge::text::search_units(&sub, 0).0.len() >= 2);
        let q = query::parse(&format!("\"{sub}\"")).unwrap();
        let hits = e.search(&q, &Scope::default());
        prop_assert!(hits.iter().any(|h| h.doc == no), "`{}` does not find doc {} ({})", sub, no, ix.doc(no).id);
    }

    /// Partial matches (issue 17) hold at least one word and lack at least
    /// one, those holding more come first, and a query with full matches has
    /// partial ones only beside them (never instead).
    #[test]
    fn partial_matches_hold_some_words_and_lack_others(a in "[ぁ-んァ-ヶ一-龠]{1,3}", b in "[ぁ-んァ-ヶ一-龠a-z]{1,4}") {
        let e = engine();
        let q = query::parse(&format!("{a} {b}")).unwrap();
        let partial = e.search_partial(&q, &Scope::default());
        let n = q.groups.len();
        for p in &partial {
            prop_assert!(p.held >= 1 && !p.missing.is_empty() && p.held + p.missing.len() == n);
        }
        prop_assert!(partial.windows(2).all(|w| w[0].held >= w[1].held));
        let full: Vec<u32> = e.search(&q, &Scope::default()).iter().map(|h| h.doc).collect();
        prop_assert!(partial.iter().all(|p| !full.contains(&p.hit.doc)));
    }

    /// The query parser and the engine never panic, whatever the input.
    #[test]
    fn arbitrary_queries_never_panic(q in "\\PC{0,12}") {
        let e = engine();
        if let Ok(parsed) = query::parse(&q) {
            let hits = e.search(&parsed, &Scope::default());
            for h in hits.iter().take(3) {
                let d = e.index().doc(h.doc);
                let _ = tcg_judge::search::snippet(&d, &h.spans, 20, 60);
            }
        }
    }
}

#[test]
fn golden_rankings() {
    let e = engine();
    let ix = e.index();
    let mut out = Vec::new();
    for (game, q) in [
        ("sve", "守護"),
        ("pmv", "投了"),
        ("dz", "ルールエフェクト"),
        ("pso2", "行動権"),
        ("sve", "check timing"),
    ] {
        let g = ix.game_index(game).unwrap();
        let hits = e.search(
            &query::parse(q).unwrap(),
            &Scope {
                games: vec![g],
                under: vec![],
            },
        );
        let top: Vec<String> = hits
            .iter()
            .take(5)
            .map(|h| format!("{} {:.3}", ix.doc(h.doc).id, h.score))
            .collect();
        out.push(serde_json::json!({"game": game, "query": q, "top": top}));
    }
    insta::assert_json_snapshot!(out);
}

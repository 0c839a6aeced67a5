//! Engine tests over synthetic rulebooks (independent of the bundled texts).

use super::engine::{Engine, Scope, snippet};
use super::index::{BookInput, Index, build};
use super::query::parse;
use super::synonyms::Synonyms;
use crate::rulebook::{Clause, ClauseKind, Example, Rulebook, RulebookMeta};

fn clause(
    id: &str,
    kind: ClauseKind,
    title: Option<&str>,
    text: &str,
    parent: Option<u32>,
) -> Clause {
    Clause {
        id: id.into(),
        display: None,
        kind,
        depth: if parent.is_some() { 2 } else { 1 },
        title: title.map(Into::into),
        text: text.into(),
        parent,
        children: Vec::new(),
        lines: (1, 1),
        examples: Vec::new(),
        refs: Vec::new(),
        flags: Vec::new(),
    }
}

fn book(game: &str, clauses: Vec<Clause>) -> Rulebook {
    let mut b = Rulebook {
        meta: RulebookMeta {
            game: game.into(),
            document: game.into(),
            title: String::new(),
            game_name: String::new(),
            version: "0".into(),
            effective: None,
            source: String::new(),
        },
        clauses,
        roots: Vec::new(),
    };
    b.link_children();
    b
}

/// Two small games. Clause 0.2 holds ダメ, メー and ージ apart (the phrase
/// false-positive case of issue 3).
fn corpus() -> Vec<u8> {
    use ClauseKind::*;
    let mut with_example = clause("1.2", Rule, None, "手札の上限は７枚です。", Some(0));
    with_example.examples.push(Example {
        id: "1.2#ex1".into(),
        text: "例：手札が９枚ならば２枚を墓場に置きます。".into(),
        lines: (1, 1),
    });
    let sve = book(
        "sve",
        vec![
            clause("1", Chapter, Some("ゲームの概要"), "", None),
            clause(
                "1.1",
                Rule,
                None,
                "プレイヤーは【守護】を持つフォロワーに３ダメージを与える。",
                Some(0),
            ),
            with_example,
            clause("10", Chapter, Some("守護"), "", None),
            clause(
                "10.1",
                Rule,
                None,
                "守護とは、相手の攻撃を制限する永続能力です。",
                Some(3),
            ),
            clause(
                "10.5",
                Rule,
                None,
                "チェックタイミングが発生します。",
                Some(3),
            ),
            clause(
                "10.50",
                Rule,
                None,
                "チェックタイミングとは、ルール処理を行う時点です。",
                Some(3),
            ),
            clause(
                "0.2",
                Rule,
                None,
                "ダメです。メーカーのページを見る。",
                None,
            ),
        ],
    );
    let dz = book(
        "dz",
        vec![
            clause("3", Part, Some("ゲームの進行"), "", None),
            clause(
                "3.3.7",
                Rule,
                None,
                "プレイヤーはいつでも投了することができます。",
                Some(0),
            ),
            clause(
                "GL:スマッシュ",
                Glossary,
                Some("スマッシュ"),
                "ユニットがプレイヤーに与えるダメージ。",
                None,
            ),
        ],
    );
    build(&[
        BookInput {
            game: "sve",
            book: &sve,
        },
        BookInput {
            game: "dz",
            book: &dz,
        },
    ])
}

fn engine(bytes: &[u8]) -> Engine<'_> {
    let index = Index::new(bytes).expect("index");
    let syn = |t: &str| Synonyms::parse(t).unwrap();
    Engine::with_synonyms(
        index,
        vec![
            syn("ward\t守護\ncheck timing\tチェックタイミング\nhand limit\t手札の上限\n"),
            syn("concede\t投了\nsmash\tスマッシュ\n"),
        ],
    )
}

fn ids(e: &Engine<'_>, q: &str, scope: &Scope) -> Vec<String> {
    let q = parse(q).unwrap();
    e.search(&q, scope)
        .iter()
        .map(|h| {
            let d = e.index().doc(h.doc);
            format!("{}:{}", e.index().game(d.game).0, d.id)
        })
        .collect()
}

#[test]
fn phrase_matching_rejects_scattered_bigrams() {
    let bytes = corpus();
    let e = engine(&bytes);
    let hits = ids(&e, "ダメージ", &Scope::default());
    assert!(hits.contains(&"sve:1.1".to_string()));
    assert!(hits.contains(&"dz:GL:スマッシュ".to_string()));
    assert!(
        !hits.contains(&"sve:0.2".to_string()),
        "0.2 holds ダメ, メー and ージ apart and must not match: {hits:?}"
    );
    // Each bigram alone does occur in 0.2, so the index really has them.
    assert!(ids(&e, "ダメ", &Scope::default()).contains(&"sve:0.2".to_string()));
    assert!(ids(&e, "メー", &Scope::default()).contains(&"sve:0.2".to_string()));
}

#[test]
fn single_characters_width_and_kana_variants_match() {
    let bytes = corpus();
    let e = engine(&bytes);
    assert!(
        ids(&e, "墓", &Scope::default()).contains(&"sve:1.2".to_string()),
        "examples are indexed"
    );
    assert_eq!(
        ids(&e, "ちぇっくたいみんぐ", &Scope::default()),
        ids(&e, "チェックタイミング", &Scope::default())
    );
    assert_eq!(
        ids(&e, "ﾁｪｯｸﾀｲﾐﾝｸﾞ", &Scope::default()),
        ids(&e, "チェックタイミング", &Scope::default())
    );
    assert_eq!(
        ids(&e, "【守護】", &Scope::default()),
        ids(&e, "守護", &Scope::default())
    );
    assert!(
        ids(&e, "７枚", &Scope::default()).contains(&"sve:1.2".to_string()),
        "full-width digits"
    );
    assert!(
        ids(&e, "7枚", &Scope::default()).contains(&"sve:1.2".to_string()),
        "half-width digits"
    );
}

#[test]
fn defining_clause_ranks_first() {
    let bytes = corpus();
    let e = engine(&bytes);
    let hits = ids(&e, "チェックタイミング", &Scope::default());
    assert_eq!(
        hits[0], "sve:10.50",
        "the とは definition comes first: {hits:?}"
    );
    let hits = ids(&e, "守護", &Scope::default());
    assert!(
        hits[..2].contains(&"sve:10".to_string()) && hits[..2].contains(&"sve:10.1".to_string()),
        "{hits:?}"
    );
}

#[test]
fn and_or_exclusion_and_phrases() {
    let bytes = corpus();
    let e = engine(&bytes);
    let all = Scope::default();
    assert_eq!(ids(&e, "守護 ダメージ", &all), vec!["sve:1.1"]);
    assert_eq!(ids(&e, "守護 -ダメージ", &all).len(), 2);
    assert!(!ids(&e, "守護 -ダメージ", &all).contains(&"sve:1.1".to_string()));
    let or = ids(&e, "投了 OR 墓場", &all);
    assert!(or.contains(&"dz:3.3.7".to_string()) && or.contains(&"sve:1.2".to_string()));
    assert!(ids(&e, "投了 墓場", &all).is_empty());
    // A quoted phrase is literal: no synonym expansion.
    assert!(ids(&e, "\"ward\"", &all).is_empty());
    assert!(!ids(&e, "ward", &all).is_empty());
}

#[test]
fn synonyms_expand_per_game_and_report_the_expansion() {
    let bytes = corpus();
    let e = engine(&bytes);
    let q = parse("check timing").unwrap();
    let hits = e.search(&q, &Scope::default());
    assert_eq!(hits.len(), 2);
    let m = &hits[0].matched[0];
    assert_eq!(
        (m.typed.as_str(), m.term.as_str(), m.expansion),
        ("check timing", "チェックタイミング", true)
    );
    // `concede` is only in the dz table.
    assert_eq!(ids(&e, "concede", &Scope::default()), vec!["dz:3.3.7"]);
    assert!(
        ids(
            &e,
            "concede",
            &Scope {
                games: vec![0],
                under: vec![]
            }
        )
        .is_empty()
    );
    assert_eq!(ids(&e, "hand limit", &Scope::default()), vec!["sve:1.2"]);
}

#[test]
fn game_and_under_filters_use_the_tree() {
    let bytes = corpus();
    let e = engine(&bytes);
    let ix = e.index();
    let dz = Scope {
        games: vec![1],
        under: vec![],
    };
    assert!(
        ids(&e, "ダメージ", &dz)
            .iter()
            .all(|h| h.starts_with("dz:"))
    );
    // Under 10.5 (doc 5): 10.50 is a sibling, not a child, even though its id
    // starts with "10.5".
    let d105 = (0..ix.n_docs()).find(|&d| ix.doc(d).id == "10.5").unwrap();
    let under = Scope {
        games: vec![],
        under: vec![d105],
    };
    assert_eq!(ids(&e, "チェックタイミング", &under), vec!["sve:10.5"]);
    let d10 = (0..ix.n_docs()).find(|&d| ix.doc(d).id == "10").unwrap();
    let under = Scope {
        games: vec![],
        under: vec![d10],
    };
    assert_eq!(ids(&e, "チェックタイミング", &under).len(), 2);
}

#[test]
fn snippets_highlight_the_hits() {
    let bytes = corpus();
    let e = engine(&bytes);
    let q = parse("ダメージ").unwrap();
    let hit = e.search(
        &q,
        &Scope {
            games: vec![0],
            under: vec![],
        },
    )[0]
    .clone();
    let doc = e.index().doc(hit.doc);
    let s = snippet(&doc, &hit.spans, 20, 60);
    assert_eq!(s.hits(), vec!["ダメージ"]);
    assert!(s.plain().contains("３ダメージを与える"), "{:?}", s.plain());
    let q = parse("守護").unwrap();
    let hit = e
        .search(
            &q,
            &Scope {
                games: vec![0],
                under: vec![],
            },
        )
        .into_iter()
        .find(|h| e.index().doc(h.doc).id == "1.1")
        .unwrap();
    let s = snippet(&e.index().doc(hit.doc), &hit.spans, 20, 60);
    assert_eq!(
        s.hits(),
        vec!["守護"],
        "brackets stay outside the highlight"
    );
}

#[test]
fn suggestions_come_from_the_vocabulary() {
    let bytes = corpus();
    let e = engine(&bytes);
    assert!(e.suggest("concde", 5).contains(&"concede".to_string()));
    assert!(e.suggest("守語", 5).is_empty() || !e.suggest("守語", 5).contains(&"守語".to_string()));
    assert!(
        e.suggest("ゲームの概況", 5)
            .contains(&"ゲームの概要".to_string())
    );
}

#[test]
fn empty_and_punctuation_only_words_match_nothing() {
    let bytes = corpus();
    let e = engine(&bytes);
    assert!(ids(&e, "、。", &Scope::default()).is_empty());
}

/// A game whose keyword is defined by a parameterised heading, used in a
/// longer clause, stated with とは, and mentioned by a raid rule (issue 17).
fn ranking_corpus() -> Vec<u8> {
    use ClauseKind::*;
    let g = book(
        "g",
        vec![
            clause("1", Chapter, Some("戦術"), "", None),
            clause("1.1", Section, Some("耐性Ａ"), "", Some(0)),
            clause(
                "1.2",
                Rule,
                None,
                "耐性を持つキャラクターは耐性の種族から戦闘ダメージを受けない。耐性は重複しない。",
                Some(0),
            ),
            clause("1.3", Section, Some("装備／場"), "", Some(0)),
            clause(
                "1.4",
                Rule,
                None,
                "装備とは、カードをセットすることである。",
                Some(0),
            ),
            clause(
                "1.5",
                Rule,
                None,
                "装備とは別のセットも存在する。装備装備。",
                Some(0),
            ),
            clause("RAID", Appendix, Some("協力レイドバトル"), "", None),
            clause(
                "RAID:S1",
                Raid,
                None,
                "ボスは耐性耐性耐性を無視する。",
                Some(6),
            ),
        ],
    );
    build(&[BookInput {
        game: "g",
        book: &g,
    }])
}

#[test]
fn heading_without_its_parameter() {
    use super::engine::heading_core;
    assert_eq!(heading_core("耐性Ａ"), "耐性");
    assert_eq!(heading_core("マナチャージ（Ｘ）"), "マナチャージ");
    assert_eq!(heading_core("回復X"), "回復");
    assert_eq!(heading_core("連結（「Ａ」＋「Ｂ」）"), "連結");
    // Not parameters: a whole ASCII word, a heading that is only brackets.
    assert_eq!(heading_core("HP"), "HP");
    assert_eq!(heading_core("PPフェイズ"), "PPフェイズ");
    assert_eq!(heading_core("（Ｘ）"), "（Ｘ）");
}

#[test]
fn the_defining_clause_ranks_before_clauses_that_use_the_term_more() {
    let bytes = ranking_corpus();
    let e = Engine::with_synonyms(Index::new(&bytes).unwrap(), vec![Synonyms::default()]);
    // The heading 耐性Ａ beats 1.2 (three mentions) and the raid rule.
    let got = ids(&e, "耐性", &Scope::default());
    assert_eq!(got[0], "g:1.1", "{got:?}");
    assert_eq!(
        got.last().unwrap(),
        "g:RAID:S1",
        "raid rules come last: {got:?}"
    );
    // A とは definition beats a heading part (装備 in 装備／場) only when it is
    // one: 1.5's "装備とは別の" is not a definition.
    let got = ids(&e, "装備", &Scope::default());
    assert_eq!(got[..2], ["g:1.3", "g:1.4"], "{got:?}");
    // Naming the mode lifts the raid rule: ボス is found only there.
    assert_eq!(ids(&e, "耐性 ボス", &Scope::default()), ["g:RAID:S1"]);
}

#[test]
fn partial_matches_hold_the_most_words_and_name_what_they_lack() {
    let bytes = ranking_corpus();
    let e = Engine::with_synonyms(Index::new(&bytes).unwrap(), vec![Synonyms::default()]);
    let q = parse("耐性 装備 セット").unwrap();
    assert!(e.search(&q, &Scope::default()).is_empty());
    let partial = e.search_partial(&q, &Scope::default());
    let first = &partial[0];
    assert_eq!(e.index().doc(first.hit.doc).id, "1.4");
    assert_eq!(
        (first.held, first.missing.clone()),
        (2, vec!["耐性".to_string()])
    );
    assert!(partial.windows(2).all(|w| w[0].held >= w[1].held));
    // A one-word query has no partial matches.
    assert!(
        e.search_partial(&parse("投了").unwrap(), &Scope::default())
            .is_empty()
    );
}

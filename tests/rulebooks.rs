//! Invariants every bundled rulebook must satisfy, whatever its format.
//! Per-game counts and golden texts live in tests/rulebook_<game>.rs.

use std::collections::HashSet;

use tcg_judge::bundle;
use tcg_judge::rulebook::DOCUMENTS;

#[test]
fn every_document_has_clauses_and_metadata() {
    for d in DOCUMENTS {
        let b = bundle::document(d);
        assert!(!b.clauses.is_empty(), "{} parsed no clauses", d.document);
        assert_eq!(b.meta.game, d.game, "{}", d.document);
        assert_eq!(b.meta.document, d.document);
        assert!(!b.meta.version.is_empty(), "{} has no version", d.document);
        assert!(!b.meta.title.is_empty(), "{} has no title", d.document);
        assert!(
            !b.meta.source.is_empty(),
            "{} has no source note",
            d.document
        );
    }
}

#[test]
fn every_id_is_unique() {
    for d in DOCUMENTS {
        let b = bundle::document(d);
        let mut seen = HashSet::new();
        for c in &b.clauses {
            assert!(
                seen.insert(c.id.as_str()),
                "{}: duplicate id {}",
                d.document,
                c.id
            );
            for e in &c.examples {
                assert!(
                    seen.insert(e.id.as_str()),
                    "{}: duplicate example id {}",
                    d.document,
                    e.id
                );
            }
        }
    }
}

#[test]
fn tree_links_are_consistent() {
    for d in DOCUMENTS {
        let b = bundle::document(d);
        for (i, c) in b.clauses.iter().enumerate() {
            for &ch in &c.children {
                assert_eq!(
                    b.clause(ch).parent,
                    Some(i as u32),
                    "{}: {}",
                    d.document,
                    c.id
                );
                assert!(
                    b.clause(ch).depth > c.depth,
                    "{}: child {} not deeper than {}",
                    d.document,
                    b.clause(ch).id,
                    c.id
                );
            }
            assert!(
                c.lines.0 >= 1 && c.lines.0 <= c.lines.1,
                "{}: {} lines {:?}",
                d.document,
                c.id,
                c.lines
            );
        }
        let reachable: usize = b.roots.iter().map(|&r| b.subtree(r).len()).sum();
        assert_eq!(
            reachable,
            b.clauses.len(),
            "{}: clauses not reachable from roots",
            d.document
        );
    }
}

#[test]
fn every_cross_reference_resolves_or_says_why() {
    for d in DOCUMENTS {
        let b = bundle::document(d);
        for c in &b.clauses {
            for r in &c.refs {
                match (&r.target, &r.note) {
                    (Some(t), _) => {
                        assert!(
                            b.get(t).is_some(),
                            "{}: {} refers to missing {t} ({})",
                            d.document,
                            c.id,
                            r.raw
                        );
                        if let Some(e) = &r.target_end {
                            assert!(
                                b.get(e).is_some(),
                                "{}: {} range end missing {e}",
                                d.document,
                                c.id
                            );
                        }
                    }
                    (None, Some(_)) => {}
                    (None, None) => panic!(
                        "{}: {} has a dangling reference {:?} with no reason",
                        d.document, c.id, r.raw
                    ),
                }
            }
        }
    }
}

#[test]
fn every_id_round_trips_through_every_spelling() {
    for d in DOCUMENTS {
        let b = bundle::document(d);
        for c in &b.clauses {
            for s in d.format.spellings(&c.id) {
                let got = tcg_judge::lookup::resolve(b, d.format, &s).unwrap_or_else(|e| {
                    panic!(
                        "{}: spelling {s:?} of {} does not resolve: {e}",
                        d.document, c.id
                    )
                });
                assert_eq!(
                    b.clause(got.clause).id,
                    c.id,
                    "{}: spelling {s:?}",
                    d.document
                );
            }
            if let Some(disp) = &c.display {
                let got = tcg_judge::lookup::resolve(b, d.format, disp).unwrap_or_else(|e| {
                    panic!(
                        "{}: display {disp:?} of {} does not resolve: {e}",
                        d.document, c.id
                    )
                });
                assert_eq!(b.clause(got.clause).id, c.id);
            }
        }
    }
}

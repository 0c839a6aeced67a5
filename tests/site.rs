//! `judge site DIR` (issue 14): every internal link resolves, every clause of
//! every bundled document has an anchor, every spelling the rulebook module
//! accepts is in the page's spelling map, and nothing requests the network.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use regex::Regex;
use tcg_judge::rulebook::DOCUMENTS;
use tcg_judge::site::{anchor, spelling_key};

mod common;
use common::write_site;

fn percent_decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' && i + 2 < b.len() {
            let hex = std::str::from_utf8(&b[i + 1..i + 3]).unwrap();
            out.push(u8::from_str_radix(hex, 16).unwrap());
            i += 3;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    String::from_utf8(out).unwrap()
}

fn unescape(s: &str) -> String {
    s.replace("&quot;", "\"")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&")
}

/// file name → (ids, hrefs and srcs).
fn read_pages(dir: &Path) -> BTreeMap<String, (BTreeSet<String>, Vec<String>)> {
    let id_re = Regex::new(r#"\bid="([^"]*)""#).unwrap();
    let link_re = Regex::new(r#"\b(?:href|src)="([^"]*)""#).unwrap();
    let mut pages = BTreeMap::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "html") {
            let text = std::fs::read_to_string(&p).unwrap();
            let ids = id_re
                .captures_iter(&text)
                .map(|c| unescape(&c[1]))
                .collect();
            let links = link_re
                .captures_iter(&text)
                .map(|c| unescape(&c[1]))
                .collect();
            pages.insert(
                p.file_name().unwrap().to_string_lossy().into_owned(),
                (ids, links),
            );
        }
    }
    pages
}

#[test]
fn every_internal_link_resolves_and_none_leaves_the_site() {
    let dir = write_site("links");
    let pages = read_pages(&dir);
    assert!(pages.contains_key("index.html"));
    let mut checked = 0;
    let mut broken = Vec::new();
    for (page, (_, links)) in &pages {
        for link in links {
            assert!(
                !link.contains("//") && !link.starts_with("data:"),
                "{page}: link leaves the site: {link}"
            );
            let (file, frag) = match link.split_once('#') {
                Some((f, a)) => (if f.is_empty() { page.as_str() } else { f }, Some(a)),
                None => (link.as_str(), None),
            };
            if !dir.join(file).exists() {
                broken.push(format!("{page}: {link} (no file)"));
                continue;
            }
            if let Some(frag) = frag {
                let id = percent_decode(frag);
                match pages.get(file) {
                    Some((ids, _)) if ids.contains(&id) => {}
                    _ => broken.push(format!("{page}: {link} (no anchor {id})")),
                }
            }
            checked += 1;
        }
    }
    assert!(
        broken.is_empty(),
        "{} broken links:\n{}",
        broken.len(),
        broken[..broken.len().min(20)].join("\n")
    );
    assert!(checked > 5000, "only {checked} links checked");
    for f in std::fs::read_dir(&dir).unwrap() {
        let p = f.unwrap().path();
        let text = std::fs::read_to_string(&p).unwrap();
        if p.file_name().is_some_and(|n| n == "search-index.js") {
            // Rule text (with the addresses the documents quote) as one JSON
            // value assigned to a global: data that cannot load anything.
            let json = text
                .split_once("window.JUDGE_SEARCH = ")
                .and_then(|(head, rest)| {
                    (head.starts_with("//") && head.lines().count() == 1).then_some(rest)
                })
                .and_then(|r| r.trim_end().strip_suffix(';'))
                .expect("search-index.js is one assignment");
            serde_json::from_str::<serde_json::Value>(json).expect("search-index.js holds JSON");
            continue;
        }
        // The document's source address appears as text (provenance), never
        // as something the page loads; the stylesheet and scripts load nothing.
        let bad: &[&str] = if p.extension().is_some_and(|x| x == "html") {
            &[
                "@import",
                "@font-face",
                "url(",
                "<link rel=\"preload",
                "<iframe",
                "<img",
            ]
        } else {
            &[
                "http://",
                "https://",
                "@import",
                "@font-face",
                "url(",
                "fetch(",
                "XMLHttpRequest",
            ]
        };
        for bad in bad {
            assert!(!text.contains(bad), "{} contains {bad}", p.display());
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn every_clause_and_example_has_an_anchor_and_every_spelling_maps_to_it() {
    let dir = write_site("anchors");
    let pages = read_pages(&dir);
    let all_ids: BTreeMap<&str, &BTreeSet<String>> = pages
        .iter()
        .map(|(p, (ids, _))| (p.as_str(), ids))
        .collect();
    let mut missing = Vec::new();
    for spec in DOCUMENTS {
        let book = tcg_judge::bundle::document(spec);
        let js =
            std::fs::read_to_string(dir.join(format!("spellings-{}.js", spec.document))).unwrap();
        let json = js
            .split_once("window.JUDGE_SPELLINGS = ")
            .unwrap()
            .1
            .trim()
            .trim_end_matches(';');
        let map: BTreeMap<String, String> = serde_json::from_str(json).unwrap();
        let doc_pages: Vec<&&BTreeSet<String>> = all_ids
            .iter()
            .filter(|(p, _)| {
                p.strip_prefix(spec.document).is_some_and(|r| {
                    r == ".html"
                        || r.starts_with('-') && r[1..].starts_with(|c: char| c.is_ascii_digit())
                })
            })
            .map(|(_, ids)| ids)
            .collect();
        for c in &book.clauses {
            let a = anchor(&c.id);
            assert!(
                doc_pages.iter().any(|ids| ids.contains(&a)),
                "{}: no anchor for clause {}",
                spec.document,
                c.id
            );
            for e in &c.examples {
                assert!(
                    doc_pages.iter().any(|ids| ids.contains(&anchor(&e.id))),
                    "{}: example {}",
                    spec.document,
                    e.id
                );
            }
            let target = map.get(&spelling_key(&c.id)).unwrap_or_else(|| {
                panic!("{}: canonical id {} not in the map", spec.document, c.id)
            });
            assert!(
                percent_decode(target).ends_with(&format!("#{a}")),
                "{} → {target}",
                c.id
            );
            for s in spec.format.spellings(&c.id) {
                // The lookup site.js does: the key, then the key without trailing dots.
                let k = spelling_key(&s);
                let t = map.get(&k).or_else(|| map.get(k.trim_end_matches('.')));
                let Some(t) = t else {
                    missing.push(format!("{} {s}", spec.document));
                    continue;
                };
                let want = spec.format.canonical_id(&s).expect("spellings resolve");
                assert!(
                    percent_decode(t).ends_with(&format!("#{}", anchor(&want))),
                    "{}: {s} → {t}, want {want}",
                    spec.document
                );
            }
        }
    }
    assert!(
        missing.is_empty(),
        "{} spellings unmapped: {:?}",
        missing.len(),
        &missing[..missing.len().min(20)]
    );
    let dz = std::fs::read_to_string(dir.join("spellings-dz.js")).unwrap();
    assert!(dz.contains("\"第4部第9章\":\"dz-"), "第4部第9章 is mapped");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn cross_references_link_both_ways_and_pmv_web_links_its_twin() {
    let dir = write_site("xref");
    let sve = std::fs::read_to_string(dir.join("sve.html")).unwrap();
    assert!(sve.contains("class=\"refs\">See: <a href=\""));
    assert!(sve.contains("class=\"refby\">Referenced by: <a href=\""));
    let web = std::fs::read_to_string(dir.join("pmv-web.html")).unwrap();
    assert!(
        web.contains("Same clause in <a href=\"pmv-"),
        "web edition links to the 総合ルール"
    );
    let pmv5 = std::fs::read_to_string(dir.join("pmv-6.html")).unwrap_or_default()
        + &std::fs::read_to_string(dir.join("pmv-5.html")).unwrap_or_default();
    assert!(
        pmv5.contains("Same clause in <a href=\"pmv-web.html#"),
        "総合ルール links back"
    );
    let idx = std::fs::read_to_string(dir.join("pmv-3.html")).unwrap();
    assert!(idx.contains("<nav class=\"crumbs\" aria-label=\"breadcrumb\"><a href=\"index.html\">Rules</a> › <a href=\"pmv.html\">"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn output_is_deterministic() {
    let a = tcg_judge::site::build();
    let b = tcg_judge::site::build();
    assert_eq!(a.len(), b.len());
    for (x, y) in a.iter().zip(&b) {
        assert_eq!(x.name, y.name);
        assert!(x.contents == y.contents, "{} differs between runs", x.name);
    }
}

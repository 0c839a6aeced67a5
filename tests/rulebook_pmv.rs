//! Per-document tests of the Phantom Magic Vision rulebooks (`pmv`, `pmv-web`).

use tcg_judge::bundle;
use tcg_judge::rulebook::{ClauseKind, DOCUMENTS, Rulebook};

fn pmv() -> &'static Rulebook {
    bundle::game("pmv").expect("pmv is bundled")
}

#[test]
#[ignore]
fn dump() {
    let b = pmv();
    for c in &b.clauses {
        println!(
            "{} {:?} d{} {:?} L{:?} |{}| flags={:?} refs={:?} ex={:?}",
            c.id, c.kind, c.depth, c.title, c.lines, c.text, c.flags, c.refs, c.examples
        );
    }
    let w = bundle::document(DOCUMENTS.iter().find(|d| d.document == "pmv-web").unwrap());
    println!("{:?}", w.meta);
    println!("{:?}", b.meta);
    for c in &w.clauses {
        println!(
            "W {} {:?} {:?} |{}| {:?}",
            c.id, c.kind, c.title, c.text, c.flags
        );
    }
    let _ = ClauseKind::Rule;
}

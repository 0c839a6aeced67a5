//! Search query parsing and evaluation over the embedded index, and clause
//! address resolution with the same string.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tcg_judge::rulebook::DOCUMENTS;
use tcg_judge::search::{Engine, Scope, embedded, query};
use tcg_judge::{bundle, lookup};

// A fresh engine per input: the engine caches term matches, and a cache
// shared across inputs would make a crash depend on earlier inputs.
fn engine() -> Engine<'static> {
    Engine::new(embedded().expect("embedded index"))
}

fuzz_target!(|data: &[u8]| {
    let Ok(q) = std::str::from_utf8(data) else {
        return;
    };
    let e = engine();
    if let Ok(parsed) = query::parse(q) {
        for h in e.search(&parsed, &Scope::default()).iter().take(3) {
            let _ = tcg_judge::search::snippet(&e.index().doc(h.doc), &h.spans, 20, 60);
        }
    }
    let _ = e.suggest(q, 5);
    for spec in DOCUMENTS {
        let _ = lookup::resolve(bundle::document(spec), spec.format, q);
    }
});

//! Structure-aware scenario fuzzing: a real ruling from the corpus
//! (`rulings/`, `scenarios/`), mutated where bugs hide: numbers replaced by
//! boundary integers, ids by reserved words, strings by control characters,
//! actions duplicated, dropped or reordered. Each mutant is loaded, run, and
//! its diagnostic rendered with miette's graphical handler (the handler
//! panicked past column 65,535) and escaped for the terminal.
#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use serde_json::Value;
use tcg_judge::{bundle, output, scenario};

/// The corpus, read once from the repository (run from its root).
fn corpus() -> &'static [Value] {
    static CORPUS: OnceLock<Vec<Value>> = OnceLock::new();
    CORPUS.get_or_init(|| {
        let mut out = Vec::new();
        for dir in ["rulings", "scenarios"] {
            collect(std::path::Path::new(dir), &mut out);
        }
        assert!(!out.is_empty(), "run from the repository root");
        out
    })
}

fn collect(dir: &std::path::Path, out: &mut Vec<Value>) {
    let Ok(rd) = std::fs::read_dir(dir) else { return };
    let mut paths: Vec<_> = rd.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    for p in paths {
        if p.is_dir() {
            collect(&p, out);
        } else if p.extension().is_some_and(|e| e == "json")
            && !p.to_string_lossy().ends_with(".pool.json")
            && let Ok(t) = std::fs::read_to_string(&p)
            && let Ok(v) = serde_json::from_str::<Value>(&t)
            && v.get("card_pool").is_none()
        {
            out.push(v);
        }
    }
}

const NUMBERS: &[i64] = &[
    i64::MAX,
    i64::MIN,
    i32::MAX as i64,
    -1,
    0,
    1,
    1_000_000,
    1_000_001,
    -1_000_001,
];
const WORDS: &[&str] = &[
    "leader",
    "p2.leader",
    "p1",
    "player",
    "token.1",
    "\u{1b}]0;x\u{7}",
    "\u{1b}[2J",
    "\u{202e}",
    "\u{0}",
    "",
];

/// Visits the `n`-th leaf (numbers and strings, depth first) and replaces it.
fn mutate_leaf(v: &mut Value, n: &mut usize, pick: u8) -> bool {
    match v {
        Value::Number(_) | Value::String(_) => {
            if *n == 0 {
                *v = if matches!(v, Value::Number(_)) {
                    NUMBERS[pick as usize % NUMBERS.len()].into()
                } else {
                    WORDS[pick as usize % WORDS.len()].into()
                };
                return true;
            }
            *n -= 1;
            false
        }
        Value::Array(items) => items.iter_mut().any(|i| mutate_leaf(i, n, pick)),
        Value::Object(map) => map.values_mut().any(|i| mutate_leaf(i, n, pick)),
        _ => false,
    }
}

fuzz_target!(|data: &[u8]| {
    let corpus = corpus();
    let Some((&which, ops)) = data.split_first() else {
        return;
    };
    let mut v = corpus[which as usize % corpus.len()].clone();
    for op in ops.chunks(3) {
        let [kind, a, b] = [op[0], *op.get(1).unwrap_or(&0), *op.get(2).unwrap_or(&0)];
        match kind % 4 {
            0 | 1 => {
                let mut n = usize::from(a) * 7 + usize::from(b);
                mutate_leaf(&mut v, &mut n, kind.wrapping_add(b));
            }
            2 => {
                if let Some(actions) = v.get_mut("actions").and_then(Value::as_array_mut)
                    && !actions.is_empty()
                {
                    let i = usize::from(a) % actions.len();
                    let copy = actions[i].clone();
                    actions.insert(usize::from(b) % (actions.len() + 1), copy);
                }
            }
            _ => {
                if let Some(actions) = v.get_mut("actions").and_then(Value::as_array_mut)
                    && !actions.is_empty()
                {
                    let i = usize::from(a) % actions.len();
                    actions.remove(i);
                }
            }
        }
    }
    let text = bundle::normalize_user_text(v.to_string());
    match scenario::load::load_str("fuzz.json", &text, None) {
        Ok(loaded) => {
            let _ = loaded.module.run(loaded.game.clone(), &loaded.actions);
        }
        Err(e) => {
            let mut s = String::new();
            let _ = miette::GraphicalReportHandler::new().render_report(&mut s, &e);
            let _ = output::terminal_safe(&s, false);
        }
    }
});

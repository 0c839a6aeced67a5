//! Rule lookup costs (in process). Whole-process timings against `grep` are
//! taken with hyperfine; see the closing notes in the project history.
//!
//! Run: `cargo bench --bench lookup`.

use tcg_judge::bundle;
use tcg_judge::rulebook::DOCUMENTS;

fn main() {
    divan::main();
}

/// Parsing a raw rulebook: what `--rulebook FILE` costs at run time (the
/// bundled ones are parsed at build time instead).
#[divan::bench(args = ["pmv", "pso2", "sve", "dz"])]
fn parse_raw_text(bencher: divan::Bencher, document: &str) {
    let spec = DOCUMENTS.iter().find(|d| d.document == document).unwrap();
    let text = std::fs::read_to_string(format!(
        "{}/rulebooks/{}",
        env!("CARGO_MANIFEST_DIR"),
        spec.file
    ))
    .unwrap();
    bencher.bench(|| spec.format.parse(divan::black_box(&text)).unwrap());
}

/// Resolving a judge's spelling and rendering the clause, on a decoded book.
#[divan::bench(args = [("sve", "10.5.2"), ("dz", "第４部 第９章 ２－１"), ("pmv", "1.10.12")])]
fn resolve_and_render(bencher: divan::Bencher, (game, id): (&str, &str)) {
    let spec = bundle::game_spec(game).unwrap();
    let book = bundle::document(spec);
    bencher.bench(|| {
        let r = tcg_judge::lookup::resolve(book, spec.format, divan::black_box(id)).unwrap();
        tcg_judge::cli::render_rule(book, r, false, tcg_judge::output::Style::PLAIN)
    });
}

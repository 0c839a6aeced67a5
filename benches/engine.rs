//! Scenario engine throughput (divan): the whole rulings corpus loaded and
//! resolved in process, and resolving alone on pre-loaded scenarios.
//! Run with `cargo bench --bench engine`.

use std::path::PathBuf;

/// The binary's allocator (src/main.rs), so figures match `judge check`.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn corpus() -> Vec<PathBuf> {
    tcg_judge::cli::check::collect(&[PathBuf::from("rulings")]).expect("rulings/ exists")
}

fn main() {
    divan::main();
}

/// Load (parse + validate) and run every scenario of rulings/, as
/// `judge check` does, without process start-up.
#[divan::bench(sample_count = 30)]
fn load_and_run_rulings(bencher: divan::Bencher) {
    let files = corpus();
    bencher
        .counter(divan::counter::ItemsCount::new(files.len()))
        .bench(|| {
            for f in &files {
                let (loaded, outcome) = tcg_judge::scenario::run_file(f).unwrap();
                let v = tcg_judge::scenario::expect::check(&loaded.scenario.expect, &outcome);
                assert!(v.pass, "{}", f.display());
            }
        });
}

/// Resolve only: the engine on already-loaded scenarios, keeping the
/// snapshots each one's expectations read, as `judge check` does.
#[divan::bench(sample_count = 30)]
fn run_only_rulings(bencher: divan::Bencher) {
    let loaded: Vec<_> = corpus()
        .iter()
        .map(|f| tcg_judge::scenario::load_file(f).unwrap())
        .collect();
    bencher
        .counter(divan::counter::ItemsCount::new(loaded.len()))
        .bench(|| {
            for l in &loaded {
                let plan = tcg_judge::scenario::plan(&l.scenario.expect);
                divan::black_box(l.module.run_planned(l.game.clone(), &l.actions, &plan));
            }
        });
}

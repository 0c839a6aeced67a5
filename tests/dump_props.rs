//! `judge run --dump-at` over the corpora, in process: how many moments
//! (the state after each action of every ruling and worked example) can
//! be written as a scenario that goes on as the original does.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use tcg_judge::cli::dump::{Refused, attempt};
use tcg_judge::scenario;

fn corpus() -> Vec<PathBuf> {
    let mut out = Vec::new();
    for dir in ["rulings", "scenarios"] {
        for game in ["dz", "pmv", "pso2", "sve"] {
            let Ok(rd) = std::fs::read_dir(Path::new(dir).join(game)) else {
                continue;
            };
            let mut files: Vec<PathBuf> = rd
                .flatten()
                .map(|e| e.path())
                .filter(|p| {
                    let n = p.to_string_lossy();
                    n.ends_with(".json") && !n.ends_with(".pool.json")
                })
                .collect();
            files.sort();
            out.extend(files);
        }
    }
    out
}

/// What a refusal names first: the kind of the first part that differs.
fn kind(why: &str) -> String {
    let first = why.split(": ").nth(1).unwrap_or(why);
    let path = first.split_whitespace().next().unwrap_or("");
    let parts: Vec<&str> = path.split('.').collect();
    match parts.as_slice() {
        ["cards", _, field, ..] => format!("cards.*.{field}"),
        ["players", _, field, ..] => format!("players.*.{field}"),
        [a, b, ..] => format!("{a}.{b}"),
        _ => why.chars().take(60).collect(),
    }
}

/// The figure (`cargo test --release --test dump_props dump_figure --
/// --ignored --nocapture`; `DUMP_GAMES=pso2` for one game's files):
/// moments written, refused (by what differs first), and stopped runs.
#[test]
#[ignore = "a measurement, not a check: prints the figure"]
fn dump_figure() {
    let (mut moments, mut written, mut stopped) = (0, 0, 0);
    let mut refused: BTreeMap<String, usize> = BTreeMap::new();
    // `DUMP_GAMES=pso2,sve`: only those games' files.
    let games = std::env::var("DUMP_GAMES").ok();
    // Per game: moments and moments written.
    let mut per_game: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    for path in corpus() {
        let name = path.to_string_lossy().to_string();
        let game = path
            .parent()
            .and_then(|d| d.file_name())
            .map(|d| d.to_string_lossy().to_string())
            .unwrap_or_default();
        if games
            .as_deref()
            .is_some_and(|g| !g.split(',').any(|x| x == game))
        {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let Ok(loaded) = scenario::load_str(&name, &text, path.parent()) else {
            continue;
        };
        for at in 0..loaded.actions.len() {
            moments += 1;
            let g = per_game.entry(game.clone()).or_default();
            g.0 += 1;
            match attempt(&loaded, at, true) {
                Ok(_) => {
                    written += 1;
                    g.1 += 1;
                }
                Err(Refused::Stopped(_)) => stopped += 1,
                Err(Refused::Differs(why)) => {
                    if std::env::var_os("DUMP_WHY").is_some() {
                        eprintln!("{name} --dump-at {at}: {why}");
                    }
                    *refused.entry(kind(&why)).or_default() += 1;
                }
            }
        }
    }
    let mut by: Vec<(&String, &usize)> = refused.iter().collect();
    by.sort_by(|a, b| b.1.cmp(a.1));
    for (k, n) in by.iter().take(25) {
        eprintln!("{n:5} refused, first difference {k}");
    }
    for (game, (n, w)) in &per_game {
        eprintln!("{game}: {w} of {n} moments written");
    }
    let no: usize = refused.values().sum();
    eprintln!(
        "{moments} moments: {written} written, {no} refused, {stopped} after the run stopped"
    );
}

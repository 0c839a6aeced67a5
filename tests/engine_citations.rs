//! Citations are data: every rule id a game module can cite exists in the
//! bundled rulebook, traces cite only declared ids, and the trace prints the
//! clause title beside each id.

use std::path::Path;

use tcg_judge::bundle;
use tcg_judge::games::MODULES;
use tcg_judge::output::Style;
use tcg_judge::scenario::{self, report};

fn files(dir: &str) -> Vec<std::path::PathBuf> {
    tcg_judge::cli::check::collect(&[Path::new(dir).to_path_buf()]).expect("corpus directory")
}

#[test]
fn every_citable_id_exists_in_the_bundled_rulebook() {
    for m in MODULES {
        let book = bundle::game(m.id()).expect("module game is bundled");
        let missing: Vec<&str> = m
            .citable()
            .iter()
            .copied()
            .filter(|id| book.get(id).is_none())
            .collect();
        assert!(
            missing.is_empty(),
            "{}: {} citable ids missing from the bundled rulebook: {:?}",
            m.id(),
            missing.len(),
            missing
        );
    }
}

#[test]
fn traces_cite_only_declared_ids() {
    for dir in ["rulings", "scenarios"] {
        for f in files(dir) {
            let (loaded, outcome) = scenario::run_file(&f).expect("corpus scenario loads");
            let citable = loaded.module.citable();
            for e in &outcome.trace {
                for r in &e.rules {
                    assert!(
                        citable.contains(r),
                        "{}: trace cites undeclared {r}",
                        f.display()
                    );
                }
            }
        }
    }
}

/// The compact trace gives ids on the step line; `--explain` gives each
/// clause with its title and its text.
#[test]
fn trace_prints_clause_titles() {
    let (loaded, outcome) =
        scenario::run_file(Path::new("rulings/sve/11.2.1-leader-defeat.json")).unwrap();
    let book = bundle::game("sve").unwrap();
    let compact = report::render_run(&loaded, &outcome, report::Detail::Compact, Style::PLAIN);
    assert!(
        compact
            .lines()
            .any(|l| l.contains("§ ") && l.contains("11.2.1")),
        "the compact trace puts the ids on the step's line:\n{compact}"
    );
    let text = report::render_run(&loaded, &outcome, report::Detail::Explain, Style::PLAIN);
    for id in ["8.4.9", "11.2.1"] {
        let title = report::clause_title(book, id)
            .unwrap_or_else(|| panic!("{id} has a title in the rulebook"));
        assert!(
            text.contains(&format!("§ {id} {title}")),
            "{id} {title} not in\n{text}"
        );
    }
    let explained = report::render_run(&loaded, &outcome, report::Detail::Explain, Style::PLAIN);
    let clause = book.get("11.2.1").unwrap();
    let first = clause.text.lines().next().unwrap();
    assert!(
        explained.contains(first),
        "--explain prints the clause text"
    );
}

/// Rejections are honest: "legal instead" never offers the rejected action
/// itself (37 of the corpus's rejections did, e.g. 10.21.2.a-one-per-turn
/// rejected `play x2` and offered `play x2`). Every rejection in rulings/
/// and scenarios/ is run to prove it.
#[test]
fn legal_instead_never_offers_the_rejected_action() {
    let mut rejections = 0;
    for dir in ["rulings", "scenarios"] {
        for f in files(dir) {
            let (loaded, outcome) = scenario::run_file(&f).expect("corpus scenario loads");
            for r in &outcome.rejections {
                rejections += 1;
                let a = &loaded.actions[r.action];
                let Some(card) = &a.card else { continue };
                let itself = format!("{} {card}", a.kind);
                assert!(
                    !r.alternatives
                        .iter()
                        .any(|alt| *alt == itself || alt.starts_with(&format!("{itself} "))),
                    "{}: action {} ({itself}) is rejected and offered: {:?}",
                    f.display(),
                    r.action,
                    r.alternatives
                );
            }
        }
    }
    assert!(rejections > 100, "the corpus holds {rejections} rejections");
}

//! `judge run FILE --html OUT` and `judge check --html DIR`: one
//! self-contained page per ruling (CSS and script inline, no request leaves
//! it) that shows the ruling as a judge explains it: the question, the
//! board drawn before the first action and after each one, the trace step
//! by step with every cited clause expandable to its text, judge's notes
//! and readings marked, and the expected-versus-actual diff.

use std::fmt::Write as _;

use serde_json::Value;

use super::html::{attr, esc};
use crate::engine::{Outcome, Plan, TraceEntry, Visibility};
use crate::rulebook::Rulebook;
use crate::scenario::Loaded;
use crate::scenario::expect::Verdict;

/// The page's stylesheet: phone first, dark mode, print.
const CSS: &str = include_str!("report.css");

/// Opens the clause named in the URL fragment (`#c-10.5.2`) and offers
/// "expand all".
const JS: &str = include_str!("report.js");

/// Runs `loaded` keeping every snapshot, and renders its report. The
/// verdict is shown when the file states expectations.
pub fn render(loaded: &Loaded) -> (String, Outcome, Option<Verdict>) {
    let outcome = crate::scenario::run_loaded(loaded, &Plan::all());
    let ex = &loaded.scenario.expect;
    let has_expect = ex.result.is_some()
        || ex.state.is_some()
        || !ex.rejected.is_empty()
        || !ex.checkpoints.is_empty()
        || !ex.cites.is_empty()
        || !ex.not_cited.is_empty()
        || !ex.trace.is_empty()
        || !ex.never.is_empty();
    let verdict = has_expect.then(|| crate::scenario::expect::check(ex, &outcome));
    let page = page(loaded, &outcome, verdict.as_ref());
    (page, outcome, verdict)
}

fn page(loaded: &Loaded, outcome: &Outcome, verdict: Option<&Verdict>) -> String {
    let sc = &loaded.scenario;
    let book = crate::bundle::game(loaded.module.id()).ok();
    let mut o = String::new();
    let _ = write!(
        o,
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>{}</title><style>{CSS}</style></head><body>\n<main>\n",
        esc(&sc.name)
    );
    let version = book.map(|b| b.meta.version.clone()).unwrap_or_default();
    let _ = write!(
        o,
        "<header><h1>{}</h1><p class=\"meta\">{} · rules {} · seed {}</p>\
         <p class=\"source\"><b>Source:</b> {}</p>",
        esc(&sc.name),
        esc(&sc.game),
        esc(&version),
        sc.seed,
        esc(&loaded.provenance.line())
    );
    if let Some(v) = verdict {
        let (class, word) = if v.pass {
            ("pass", "The engine's ruling matches the expected ruling")
        } else {
            (
                "fail",
                "The engine's ruling differs from the expected ruling",
            )
        };
        let _ = write!(o, "<p class=\"verdict {class}\">{word}</p>");
    }
    let _ = write!(
        o,
        "<p class=\"result\"><b>Result:</b> {} ({} steps)</p>\
         <button type=\"button\" id=\"expand-all\">Expand every clause</button></header>",
        esc(&outcome.result),
        outcome.steps
    );
    // The board before the first action: the start steps run, no action.
    let start = crate::scenario::run_loaded(
        &Loaded {
            actions: Vec::new(),
            ..clone_loaded(loaded)
        },
        &Plan::all(),
    );
    let display = book.filter(|_| loaded.module.cites_in_display_form());
    let steps_of = |a: Option<usize>| outcome.trace.iter().filter(move |e| e.action == a);
    o.push_str("<section class=\"step-group\"><h2>Before the first action</h2>\n");
    trace_list(&mut o, steps_of(None), book, display);
    board(&mut o, loaded, &start.state);
    o.push_str("</section>\n");
    for (i, a) in loaded.actions.iter().enumerate() {
        let who = a.player.map(crate::engine::player_name).unwrap_or_default();
        let card = a.card.as_deref().unwrap_or("");
        let _ = write!(
            o,
            "<section class=\"step-group\" id=\"action-{i}\"><h2>Action {i}: {} {} {}</h2>",
            esc(&who),
            esc(&a.kind),
            esc(card)
        );
        if let Some(r) = outcome.rejections.iter().find(|r| r.action == i) {
            let _ = write!(
                o,
                "<p class=\"rejected\"><b>Rejected</b> ({}): {}</p>",
                clause_link(r.rule, display),
                esc(&r.message)
            );
        }
        trace_list(&mut o, steps_of(Some(i)), book, display);
        if let Some(Some(snap)) = outcome.checkpoints.get(i) {
            board(&mut o, loaded, snap);
        }
        o.push_str("</section>\n");
    }
    if let Some(e) = &outcome.error {
        let _ = write!(
            o,
            "<p class=\"stopped\">Stopped: {}</p>",
            esc(&e.error.to_string())
        );
    }
    if let Some(v) = verdict.filter(|v| !v.pass) {
        let _ = write!(
            o,
            "<section><h2>Expected versus actual</h2><p>{}</p><pre class=\"diff\">{}</pre></section>",
            esc(&v.failures.join("; ")),
            esc(&v.diff(&loaded.file))
        );
    }
    let _ = write!(o, "</main>\n<script>{JS}</script>\n</body></html>\n");
    o
}

/// `Loaded` is not `Clone` (it holds a `&'static dyn` module): the fields.
fn clone_loaded(l: &Loaded) -> Loaded {
    Loaded {
        file: l.file.clone(),
        src: String::new(),
        scenario: l.scenario.clone(),
        module: l.module,
        game: l.game.clone(),
        actions: l.actions.clone(),
        warnings: Vec::new(),
        provenance: l.provenance.clone(),
    }
}

fn clause_link(id: &str, display: Option<&Rulebook>) -> String {
    let shown = display
        .and_then(|b| b.get(id))
        .and_then(|c| c.display.clone())
        .unwrap_or_else(|| id.to_string());
    format!("<a href=\"#c-{}\">{}</a>", attr(id), esc(&shown))
}

fn trace_list<'a>(
    o: &mut String,
    entries: impl Iterator<Item = &'a TraceEntry>,
    book: Option<&Rulebook>,
    display: Option<&Rulebook>,
) {
    o.push_str("<ol class=\"trace\">\n");
    for e in entries {
        let _ = write!(
            o,
            "<li value=\"{}\"><span class=\"step\">{}</span> {}",
            e.seq,
            esc(&e.step),
            esc(&e.text)
        );
        if !e.changes.is_empty() {
            o.push_str("<ul class=\"changes\">");
            for c in &e.changes {
                let _ = write!(
                    o,
                    "<li><code>{}</code>: {} → {}</li>",
                    esc(&c.what),
                    esc(&c.before),
                    esc(&c.after)
                );
            }
            o.push_str("</ul>");
        }
        if let Some(n) = &e.note {
            let _ = write!(
                o,
                "<p class=\"note\"><b>Judge's note</b> (a reading where the rulebook is silent or a choice the engine made): {}</p>",
                esc(n)
            );
        }
        for r in &e.rules {
            let shown = display
                .and_then(|b| b.get(r))
                .and_then(|c| c.display.clone())
                .unwrap_or_else(|| r.to_string());
            let title = book
                .and_then(|b| crate::scenario::report::clause_title(b, r))
                .unwrap_or_default();
            let text = book
                .and_then(|b| b.get(r))
                .map(|c| c.text.clone())
                .unwrap_or_default();
            let _ = write!(
                o,
                "<details class=\"clause\" data-id=\"{}\"><summary>§ <b>{}</b> {}</summary><p>{}</p></details>",
                attr(r),
                esc(&shown),
                esc(&title),
                esc(&text).replace('\n', "<br>")
            );
        }
        o.push_str("</li>\n");
    }
    o.push_str("</ol>\n");
}

/// Draws a snapshot: the game's board grid when it declares one (DZ's
/// squares), then each player's zones as areas with cards as boxes.
fn board(o: &mut String, loaded: &Loaded, snap: &Value) {
    let module = loaded.module;
    let grid = module.board_grid();
    o.push_str("<div class=\"board\">");
    if !grid.is_empty() {
        o.push_str("<table class=\"grid\">");
        for row in grid {
            o.push_str("<tr>");
            for zone in *row {
                let _ = write!(o, "<td><div class=\"zone-name\">{}</div>", esc(zone));
                for (p, pv) in players(snap) {
                    for id in zone_ids(pv, zone) {
                        card_box(o, loaded, snap, &id, Some(&p));
                    }
                }
                o.push_str("</td>");
            }
            o.push_str("</tr>");
        }
        o.push_str("</table>");
    }
    let in_grid = |z: &str| grid.iter().any(|r| r.contains(&z));
    for (p, pv) in players(snap) {
        let _ = write!(o, "<div class=\"player\"><h3>{}</h3>", esc(&p));
        if let Some(values) = pv.as_object() {
            let nums: Vec<String> = values
                .iter()
                .filter(|(_, v)| v.is_number())
                .map(|(k, v)| format!("{k} {v}"))
                .collect();
            let _ = write!(o, "<p class=\"values\">{}</p>", esc(&nums.join(" · ")));
        }
        for spec in module
            .zones()
            .iter()
            .filter(|s| !s.shared && !in_grid(s.name))
        {
            let ids = zone_ids(pv, spec.name);
            if ids.is_empty() {
                continue;
            }
            let _ = write!(
                o,
                "<div class=\"zone\" data-zone=\"{}\"><div class=\"zone-name\">{} ({})</div>",
                attr(spec.name),
                esc(spec.name),
                ids.len()
            );
            if matches!(spec.visibility, Visibility::Hidden) {
                o.push_str("<div class=\"facedown\">face down</div>");
            } else {
                for id in &ids {
                    card_box(o, loaded, snap, id, None);
                }
            }
            o.push_str("</div>");
        }
        o.push_str("</div>");
    }
    if let Some(shared) = snap.get("shared_zones").and_then(Value::as_object) {
        for (z, ids) in shared {
            let ids: Vec<String> = ids
                .as_array()
                .map(|a| {
                    a.iter()
                        .filter_map(|v| v.as_str().map(String::from))
                        .collect()
                })
                .unwrap_or_default();
            if ids.is_empty() {
                continue;
            }
            let _ = write!(
                o,
                "<div class=\"zone shared\"><div class=\"zone-name\">{}</div>",
                esc(z)
            );
            for id in &ids {
                card_box(o, loaded, snap, id, None);
            }
            o.push_str("</div>");
        }
    }
    o.push_str("</div>\n");
}

fn players(snap: &Value) -> Vec<(String, &Value)> {
    snap.get("players")
        .and_then(Value::as_object)
        .map(|m| m.iter().map(|(k, v)| (k.clone(), v)).collect())
        .unwrap_or_default()
}

fn zone_ids(player: &Value, zone: &str) -> Vec<String> {
    player
        .get("zones")
        .and_then(|z| z.get(zone))
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(|v| v.as_str().map(String::from))
                .collect()
        })
        .unwrap_or_default()
}

/// One card: its name and id, its numbers, damage, states, counters and
/// what it is attached to.
fn card_box(o: &mut String, loaded: &Loaded, snap: &Value, id: &str, owner: Option<&str>) {
    let c = snap.get("cards").and_then(|c| c.get(id));
    let def = c
        .and_then(|c| c.get("card"))
        .and_then(Value::as_str)
        .unwrap_or("");
    let name = loaded
        .game
        .defs
        .get(def)
        .map(|d| d.name.as_str())
        .unwrap_or("?");
    let _ = write!(o, "<div class=\"card\" data-card=\"{}\">", attr(id));
    if let Some(p) = owner {
        let _ = write!(o, "<span class=\"owner\">{}</span>", esc(p));
    }
    let _ = write!(o, "<b>{}</b> <code>{}</code>", esc(name), esc(id));
    if let Some(c) = c.and_then(Value::as_object) {
        let mut parts = Vec::new();
        for k in ["cost", "attack", "defense", "power", "hp"] {
            if let Some(v) = c.get(k).filter(|v| v.is_number()) {
                parts.push(format!("{k} {v}"));
            }
        }
        if let Some(d) = c.get("damage").and_then(Value::as_i64).filter(|d| *d != 0) {
            parts.push(format!("damage {d}"));
        }
        let _ = write!(o, "<div class=\"stats\">{}</div>", esc(&parts.join(" · ")));
        let states: Vec<&str> = c
            .get("state")
            .and_then(Value::as_array)
            .map(|a| a.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        if !states.is_empty() {
            let _ = write!(o, "<div class=\"states\">{}</div>", esc(&states.join(", ")));
        }
        if let Some(cs) = c
            .get("counters")
            .and_then(Value::as_object)
            .filter(|m| !m.is_empty())
        {
            let list: Vec<String> = cs.iter().map(|(k, v)| format!("{k} {v}")).collect();
            let _ = write!(o, "<div class=\"counters\">{}</div>", esc(&list.join(", ")));
        }
        if let Some(a) = c.get("attached_to").and_then(Value::as_str) {
            let _ = write!(o, "<div class=\"attached\">attached to {}</div>", esc(a));
        }
    }
    o.push_str("</div>");
}

/// One line of the reports' index: the file, its name and its status.
pub struct IndexRow {
    pub file: std::path::PathBuf,
    pub name: String,
    /// `pass`, `fail` or `error`.
    pub status: String,
}

/// The report file name of a scenario path: its path with separators
/// turned into `__` (`rulings/sve/x.json` → `rulings__sve__x.html`).
pub fn report_name(path: &std::path::Path) -> String {
    let s = path.to_string_lossy().replace(['/', '\\'], "__");
    let s = s.trim_start_matches("__").trim_start_matches(".__");
    format!("{}.html", s.strip_suffix(".json").unwrap_or(s))
}

/// `judge check --html DIR`: one report per loadable ruling, and
/// `index.html` listing every file with its status and a link to its
/// report. Returns the number of reports written.
pub fn write_reports(dir: &std::path::Path, rows: &[IndexRow]) -> std::io::Result<usize> {
    std::fs::create_dir_all(dir)?;
    let mut written = 0;
    let mut index = String::new();
    let _ = write!(
        index,
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>judge check: {} rulings</title><style>{CSS}</style></head><body><main>\n\
         <h1>judge check: {} rulings</h1><ol class=\"index\">\n",
        rows.len(),
        rows.len()
    );
    for r in rows {
        let link = match crate::scenario::load_file(&r.file) {
            Ok(loaded) => {
                let (page, _, _) = render(&loaded);
                let name = report_name(&r.file);
                std::fs::write(dir.join(&name), page)?;
                written += 1;
                format!(
                    "<a href=\"{}\">{}</a>",
                    attr(&name),
                    esc(&r.file.display().to_string())
                )
            }
            Err(_) => esc(&r.file.display().to_string()),
        };
        let class = match r.status.as_str() {
            "pass" => "pass",
            _ => "fail",
        };
        let _ = writeln!(
            index,
            "<li><span class=\"verdict {class}\">{}</span> {link} — {}</li>",
            esc(&r.status),
            esc(&r.name)
        );
    }
    index.push_str("</ol></main></body></html>\n");
    std::fs::write(dir.join("index.html"), index)?;
    Ok(written)
}

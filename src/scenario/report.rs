//! Rendering a run as readable text: each trace entry with the clause title
//! beside each rule id (from the bundled rulebook), and with `explain` the
//! clause text too.

use std::fmt::Write as _;

use super::Loaded;
use crate::engine::{Outcome, TraceEntry};
use crate::output::Style;
use crate::rulebook::Rulebook;

/// The title shown beside a rule id: the clause's own title, or the title of
/// its nearest titled ancestor (SVE numbers its rules under titled sections)
/// followed by the opening words of the clause.
pub fn clause_title(book: &Rulebook, id: &str) -> Option<String> {
    let idx = book.index_of(id)?;
    let c = book.clause(idx);
    if let Some(t) = &c.title {
        return Some(t.clone());
    }
    let section = book
        .breadcrumb(idx)
        .iter()
        .rev()
        .find_map(|&i| book.clause(i).title.clone());
    let words = first_line(c.text.trim(), 32);
    Some(match section {
        Some(s) if !words.is_empty() => format!("{s} › {words}"),
        Some(s) => s,
        None => words,
    })
}

/// Writes to stdout, ignoring a closed pipe (`judge run … | head` must not
/// panic) and any other write error: there is nowhere left to report it.
/// Control characters from the input are shown escaped
/// ([`crate::output::stdout_safe`]).
pub fn emit(s: &str) {
    emit_raw(&crate::output::stdout_safe(s));
}

fn emit_raw(s: &str) {
    use std::io::Write as _;
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(s.as_bytes());
    let _ = out.flush();
}

/// [`emit`] for JSON, pretty, with a trailing newline. serde_json escapes
/// the controls a terminal acts on inside strings; the text is not altered.
pub fn emit_json(v: &impl serde::Serialize) {
    let s = serde_json::to_string_pretty(v).unwrap_or_default();
    emit_raw(&format!("{s}\n"));
}

fn first_line(s: &str, max: usize) -> String {
    let line = s.lines().next().unwrap_or("");
    if line.chars().count() > max {
        format!("{}…", line.chars().take(max).collect::<String>())
    } else {
        line.to_string()
    }
}

/// Renders one trace entry; `display_from` is the book whose display
/// forms the cited clauses are shown in (`None`: canonical ids).
pub fn render_entry(
    out: &mut String,
    e: &TraceEntry,
    display_from: Option<&Rulebook>,
    book: Option<&Rulebook>,
    explain: bool,
    style: Style,
) {
    let act = match e.action {
        Some(a) => format!("[action {a}] "),
        None => String::new(),
    };
    let _ = writeln!(
        out,
        "{:>4}. {act}{} — {}",
        e.seq,
        style.title(&e.step),
        e.text
    );
    if !e.objects.is_empty() {
        let _ = writeln!(out, "      objects: {}", e.objects.join(", "));
    }
    for c in &e.changes {
        let _ = writeln!(out, "      {}: {} → {}", c.what, c.before, c.after);
    }
    for r in &e.rules {
        let title = book
            .and_then(|b| clause_title(b, r))
            .unwrap_or_else(|| "(clause not in the bundled rulebook)".into());
        // A book whose judges write clauses in a form of their own (DZ's
        // 第4部第9章 2-1) shows that form; `--json` keeps the canonical id.
        let shown = display_from
            .and_then(|b| b.get(r))
            .and_then(|c| c.display.clone())
            .unwrap_or_else(|| r.to_string());
        let _ = writeln!(out, "      § {} {}", style.id(&shown), style.dim(&title));
        if explain && let Some(c) = book.and_then(|b| b.get(r)) {
            for line in c.text.lines() {
                let _ = writeln!(out, "          {line}");
            }
        }
    }
    if let Some(n) = &e.note {
        let _ = writeln!(out, "      judge's note: {}", style.hit(n));
    }
}

/// Renders a whole run.
pub fn render_run(loaded: &Loaded, outcome: &Outcome, explain: bool, style: Style) -> String {
    let mut out = String::new();
    let sc = &loaded.scenario;
    let book = crate::bundle::game(loaded.module.id()).ok();
    let version = book.map(|b| b.meta.version.clone()).unwrap_or_default();
    let _ = writeln!(out, "{}", style.title(&sc.name));
    let _ = writeln!(
        out,
        "game: {} (rules {}), seed {}",
        sc.game,
        if version.is_empty() { "?" } else { &version },
        sc.seed
    );
    let _ = writeln!(out, "source: {}", loaded.provenance.line());
    let _ = writeln!(out);
    for e in &outcome.trace {
        render_entry(
            &mut out,
            e,
            book.filter(|_| loaded.module.cites_in_display_form()),
            book,
            explain,
            style,
        );
    }
    let _ = writeln!(out);
    for r in &outcome.rejections {
        let _ = writeln!(
            out,
            "rejected: action {} ({}): {}",
            r.action,
            r.rule,
            first_line(&r.message, 200)
        );
    }
    if let Some(e) = &outcome.error {
        let at = e
            .action
            .map(|a| format!("action {a}"))
            .unwrap_or_else(|| "setup".into());
        let _ = writeln!(
            out,
            "{}",
            style.bad(&format!("stopped at {at}: {}", e.error))
        );
    }
    let _ = writeln!(out, "result: {} ({} steps)", outcome.result, outcome.steps);
    out
}

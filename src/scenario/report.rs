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

/// Rule ids as one short list, in document order: runs of sibling clauses
/// whose last parts follow each other are grouped (`5.2.2.c, 5.2.2.a,
/// 5.2.2.b` → `5.2.2.a–c`).
pub fn group_ids(ids: &[String]) -> String {
    /// Document order: numbers compare as numbers (`1.9` before `1.10`).
    fn key(id: &str) -> Vec<(u64, String)> {
        id.split(['.', '-'])
            .map(|p| match p.parse::<u64>() {
                Ok(n) => (n, String::new()),
                Err(_) => (u64::MAX, p.to_string()),
            })
            .collect()
    }
    let mut ids: Vec<&String> = ids.iter().collect();
    ids.sort_by_key(|a| key(a));
    ids.dedup();
    /// (prefix with separator, last part) of an id: `5.2.2.` + `c`.
    fn split(id: &str) -> (&str, &str) {
        match id.rfind(['.', '-']) {
            Some(i) => (&id[..=i], &id[i + 1..]),
            None => ("", id),
        }
    }
    /// Whether `b` is the part right after `a` (c after b, 10 after 9).
    fn next(a: &str, b: &str) -> bool {
        match (a.parse::<u32>(), b.parse::<u32>()) {
            (Ok(x), Ok(y)) => y == x + 1,
            _ => {
                let (mut ca, mut cb) = (a.chars(), b.chars());
                match (ca.next(), cb.next(), ca.next(), cb.next()) {
                    (Some(x), Some(y), None, None) => {
                        x.is_ascii_lowercase() && (x as u8 + 1) as char == y
                    }
                    _ => false,
                }
            }
        }
    }
    let mut groups: Vec<(String, String, String)> = Vec::new(); // prefix, first, last
    for id in ids {
        let (prefix, last) = split(id);
        match groups.last_mut() {
            Some((p, _, l)) if p == prefix && !prefix.is_empty() && next(l, last) => {
                *l = last.to_string();
            }
            _ => groups.push((prefix.to_string(), last.to_string(), last.to_string())),
        }
    }
    groups
        .into_iter()
        .map(|(p, f, l)| {
            if f == l {
                format!("{p}{f}")
            } else {
                format!("{p}{f}–{l}")
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// How much of each trace entry a rendering shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Detail {
    /// One line per step with its clause ids, then its changes and note.
    Compact,
    /// Every cited clause on its own line with its title and text.
    Explain,
}

/// Renders one trace entry in one line with its grouped clause ids, then
/// its changes and judge's note.
pub fn render_compact(
    out: &mut String,
    e: &TraceEntry,
    display_from: Option<&Rulebook>,
    style: Style,
) {
    let act = match e.action {
        Some(a) => format!("[{a}] "),
        None => String::new(),
    };
    let ids: Vec<String> = e
        .rules
        .iter()
        .map(|r| {
            display_from
                .and_then(|b| b.get(r))
                .and_then(|c| c.display.clone())
                .unwrap_or_else(|| r.to_string())
        })
        .collect();
    // A display form (DZ's 第4部第9章 3-2) is printed whole, each one as
    // `judge rule` accepts it; canonical ids are grouped.
    let list = if display_from.is_some() {
        ids.join(", ")
    } else {
        group_ids(&ids)
    };
    let cites = if ids.is_empty() {
        String::new()
    } else {
        format!("  § {}", style.id(&list))
    };
    let _ = writeln!(
        out,
        "{:>4}. {act}{} — {}{cites}",
        e.seq,
        style.title(&e.step),
        e.text
    );
    for c in &e.changes {
        let _ = writeln!(out, "      {}: {} → {}", c.what, c.before, c.after);
    }
    if let Some(n) = &e.note {
        let _ = writeln!(out, "      judge's note: {}", style.hit(n));
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

/// Renders a whole run: compact by default, every clause's title and text
/// with [`Detail::Explain`].
pub fn render_run(loaded: &Loaded, outcome: &Outcome, detail: Detail, style: Style) -> String {
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
    let display_from = book.filter(|_| loaded.module.cites_in_display_form());
    for e in &outcome.trace {
        match detail {
            Detail::Compact => render_compact(&mut out, e, display_from, style),
            Detail::Explain => render_entry(&mut out, e, display_from, book, true, style),
        }
    }
    let _ = writeln!(out);
    for r in &outcome.rejections {
        let _ = writeln!(
            out,
            "rejected: action {} ({}): {}",
            r.action,
            std::iter::once(r.rule)
                .chain(r.also.iter().copied())
                .collect::<Vec<_>>()
                .join(", "),
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

#[cfg(test)]
mod tests {
    use super::group_ids;

    fn g(ids: &[&str]) -> String {
        group_ids(&ids.iter().map(|s| s.to_string()).collect::<Vec<_>>())
    }

    #[test]
    fn sibling_runs_are_grouped_and_order_is_kept() {
        assert_eq!(g(&["5.2.2.a", "5.2.2.b", "5.2.2.c"]), "5.2.2.a–c");
        assert_eq!(g(&["10.5.2", "10.5.3", "1.1"]), "1.1, 10.5.2–3");
        assert_eq!(
            g(&[
                "5.2.2.c", "5.2.2.a", "1.12.2", "5.2.2.b", "5.2.2.g", "5.2.2.f"
            ]),
            "1.12.2, 5.2.2.a–c, 5.2.2.f–g"
        );
        assert_eq!(g(&["5.2.2.a", "5.2.2.c"]), "5.2.2.a, 5.2.2.c");
        assert_eq!(g(&["4.9.2-1", "4.9.2-2"]), "4.9.2-1–2");
        assert_eq!(g(&["GL:無敵", "302.1@2"]), "302.1@2, GL:無敵");
        assert_eq!(g(&["10.5.2.4"]), "10.5.2.4");
        assert_eq!(g(&[]), "");
    }
}

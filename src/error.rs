//! User-facing errors. Every variant is a miette diagnostic that says what is
//! wrong, where, and what would be valid. `main` maps them to exit codes.

use miette::{Diagnostic, NamedSource, SourceSpan};
use thiserror::Error;

use crate::rulebook::ParseError;

/// Process exit codes, documented in `judge --help`.
pub mod exit {
    /// Success; for `check`, every expectation held.
    pub const OK: i32 = 0;
    /// No match (`search` found nothing), or `check` found a ruling that differs.
    pub const NO_MATCH: i32 = 1;
    /// Bad input: unknown game or id, malformed file, bad arguments.
    pub const USAGE: i32 = 2;
    /// An internal error (a bug): please report it.
    pub const INTERNAL: i32 = 70;
}

/// Replaces Rust's panic message with an internal-error report: what
/// happened, where in judge's code, and that it is a bug to report. The
/// process then exits with [`exit::INTERNAL`] (see `main`).
pub fn install_panic_hook() {
    std::panic::set_hook(Box::new(|info| {
        let what = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown panic".into());
        let at = info
            .location()
            .map(|l| format!(" at {}:{}", l.file(), l.line()))
            .unwrap_or_default();
        eprintln!(
            "judge: internal error{at}: {}\n  this is a bug in judge, not a ruling; please report it with the input that caused it (exit code {})",
            crate::output::escape_controls(&what),
            exit::INTERNAL
        );
    }));
}

/// A rulebook file that cannot be parsed; points at the offending line.
/// Boxed inside [`JudgeError`] because the source text makes it large.
#[derive(Debug, Error, Diagnostic)]
#[error("{path}: cannot parse rulebook at line {line}: {message}")]
#[diagnostic(code(judge::rulebook_parse))]
pub struct RulebookParseError {
    pub path: String,
    pub line: u32,
    pub message: String,
    #[source_code]
    pub src: NamedSource<String>,
    #[label("{message}")]
    pub span: SourceSpan,
    #[help]
    pub help: Option<String>,
}

/// Everything that can go wrong in front of a user.
#[derive(Debug, Error, Diagnostic)]
pub enum JudgeError {
    #[error("unknown game `{game}`")]
    #[diagnostic(code(judge::unknown_game), help("valid games: {valid}"))]
    UnknownGame { game: String, valid: String },

    #[error("unknown document `{document}`")]
    #[diagnostic(code(judge::unknown_document), help("valid documents: {valid}"))]
    UnknownDocument { document: String, valid: String },

    #[error("no clause `{id}` in {game} {version}")]
    #[diagnostic(code(judge::unknown_clause), help("{help}"))]
    UnknownClause {
        game: String,
        version: String,
        id: String,
        help: String,
    },

    #[error("`{input}` is not a clause id of {game}")]
    #[diagnostic(code(judge::malformed_id), help("{help}"))]
    MalformedId {
        game: String,
        input: String,
        help: String,
    },

    #[error("cannot read `{path}`: {message}")]
    #[diagnostic(code(judge::io))]
    Io { path: String, message: String },

    #[error(transparent)]
    #[diagnostic(transparent)]
    RulebookParse(Box<RulebookParseError>),

    #[error("{message}")]
    #[diagnostic(code(judge::usage))]
    Usage {
        message: String,
        #[help]
        help: Option<String>,
    },
}

impl JudgeError {
    /// A rulebook parse error pointing at the whole offending line.
    pub fn rulebook_parse(path: String, text: String, e: ParseError) -> Self {
        let (src, span) = diagnostic_source(&path, &text, line_span(&text, e.line));
        JudgeError::RulebookParse(Box::new(RulebookParseError {
            src,
            path,
            line: e.line,
            message: e.message,
            span,
            help: e.help,
        }))
    }

    /// The exit code this error maps to.
    pub fn exit_code(&self) -> i32 {
        exit::USAGE
    }
}

/// The longest source line a diagnostic shows whole, in bytes. miette's
/// graphical handler panics on columns past 65,535 and echoes every byte of
/// the lines it shows, so a minified 50 MB file would write 50 MB.
const MAX_SHOWN_LINE: usize = 240;

/// The source a diagnostic carries for `span` in `text`: the text itself
/// when the lines around the span are short, else an excerpt of the
/// offending line around the span (its line number kept by padding with
/// empty lines), so the snippet stays readable on a line of any length.
pub fn diagnostic_source(
    name: &str,
    text: &str,
    span: SourceSpan,
) -> (NamedSource<String>, SourceSpan) {
    let start = span.offset().min(text.len());
    let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
    let line_end = text[start..].find('\n').map_or(text.len(), |i| start + i);
    let prev_start = text[..line_start.saturating_sub(1)]
        .rfind('\n')
        .map_or(0, |i| i + 1);
    let next_end = text
        .get(line_end + 1..)
        .and_then(|rest| rest.find('\n'))
        .map_or(text.len(), |i| line_end + 1 + i);
    let neighbours_short = line_start.saturating_sub(prev_start) <= MAX_SHOWN_LINE + 1
        && next_end.saturating_sub(line_end) <= MAX_SHOWN_LINE + 1;
    if line_end - line_start <= MAX_SHOWN_LINE && neighbours_short {
        return (NamedSource::new(name, text.to_string()), span);
    }
    let floor = |mut i: usize| {
        while !text.is_char_boundary(i) {
            i -= 1;
        }
        i
    };
    let from = floor(start.saturating_sub(MAX_SHOWN_LINE / 2).max(line_start));
    let to = floor((start + MAX_SHOWN_LINE / 2).min(line_end));
    let line_no = text[..line_start].matches('\n').count();
    let mut excerpt = "\n".repeat(line_no);
    if from > line_start {
        excerpt.push('…');
    }
    let offset = excerpt.len() + (start - from);
    excerpt.push_str(&text[from..to]);
    if to < line_end {
        excerpt.push('…');
    }
    let len = span.len().min(to.saturating_sub(start));
    (
        NamedSource::new(name, excerpt),
        SourceSpan::new(offset.into(), len),
    )
}

/// Byte span of 1-based `line` in `text` (an empty span at the end if the
/// line does not exist).
pub fn line_span(text: &str, line: u32) -> SourceSpan {
    let mut start = 0usize;
    for (i, l) in text.split_inclusive('\n').enumerate() {
        if i + 1 == line as usize {
            let len = l.trim_end_matches(['\n', '\r']).len();
            return SourceSpan::new(start.into(), len);
        }
        start += l.len();
    }
    SourceSpan::new(text.len().into(), 0)
}

/// The JSON object a `--json` command prints on stdout when it fails, so a
/// script piping `--json` always has something to parse:
/// `{"error": {"message", "code", "help", "file", "line", "column", "exit"}}`
/// (`line` and `column` 1-based, present when the diagnostic points into a
/// file). The human diagnostic still goes to stderr.
pub fn json_error(d: &dyn miette::Diagnostic, exit: i32) -> serde_json::Value {
    let mut o = serde_json::Map::new();
    o.insert("message".into(), d.to_string().into());
    if let Some(code) = d.code() {
        o.insert("code".into(), code.to_string().into());
    }
    if let Some(help) = d.help() {
        o.insert("help".into(), help.to_string().into());
    }
    let label = d.labels().and_then(|mut l| l.next());
    if let (Some(src), Some(label)) = (d.source_code(), label)
        && let Ok(at) = src.read_span(label.inner(), 0, 0)
    {
        if let Some(name) = at.name() {
            o.insert("file".into(), name.into());
        }
        o.insert("line".into(), (at.line() + 1).into());
        o.insert("column".into(), (at.column() + 1).into());
    }
    o.insert("exit".into(), exit.into());
    serde_json::json!({ "error": o })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_lines_are_excerpted_around_the_span() {
        let text = format!("{{\n{}X{}\n}}", "a".repeat(100_000), "b".repeat(100_000));
        let at = text.find('X').unwrap();
        let (src, span) = diagnostic_source("f.json", &text, SourceSpan::new(at.into(), 1));
        let shown = src.inner();
        assert!(shown.len() < 2 * MAX_SHOWN_LINE, "{}", shown.len());
        assert_eq!(&shown[span.offset()..span.offset() + 1], "X");
        // The line number is kept: the excerpt sits on the second line.
        assert!(shown.starts_with("\n…"));
        // Short text is shown as it is.
        let (src, span) = diagnostic_source("f", "ab\ncd", SourceSpan::new(3.into(), 1));
        assert_eq!(src.inner(), "ab\ncd");
        assert_eq!(span.offset(), 3);
    }

    #[test]
    fn line_span_covers_the_line_without_newline() {
        let t = "一行目\n二行目\nthird";
        let s = line_span(t, 2);
        assert_eq!(&t[s.offset()..s.offset() + s.len()], "二行目");
        let s = line_span(t, 3);
        assert_eq!(&t[s.offset()..s.offset() + s.len()], "third");
        assert_eq!(line_span(t, 9).offset(), t.len());
    }
}

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
        let span = line_span(&text, e.line);
        JudgeError::RulebookParse(Box::new(RulebookParseError {
            src: NamedSource::new(path.clone(), text),
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

#[cfg(test)]
mod tests {
    use super::*;

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

//! `judge diff`: compare two versions of one game's rulebook clause by clause.

use std::borrow::Cow;
use std::fmt::Write as _;
use std::path::PathBuf;

use super::CmdResult;
use crate::bundle;
use crate::diff::{self, DiffReport, Segment};
use crate::error::{JudgeError, exit};
use crate::output::{Style, print_json};
use crate::rulebook::Rulebook;
use crate::rulebook::documents::{self, DocumentSpec};

pub const DIFF_EXAMPLES: &str = "\
Examples:
  judge diff pmv                          Chapter 5 of the bundled 2.05 text vs the web edition
  judge diff pmv --new-file pmv-2.06.txt  The bundled text vs your copy of a newer version
  judge diff pmv --old pmv-web --new pmv  Either side may be any bundled document of the game
  judge diff pmv --new-file new.txt --json

Width (Ｘ/X, （）/()) and spacing are normalised first and do not count as changes.
Exit codes: 0 the two agree, 1 they differ, 2 bad input.";

/// Arguments of `judge diff`.
#[derive(Debug, clap::Args)]
pub struct DiffArgs {
    /// Game id: pmv, pso2, sve or dz.
    pub game: String,
    /// Old side: a bundled document of the game (default: its main document).
    #[arg(long, value_name = "DOC", conflicts_with = "old_file")]
    pub old: Option<String>,
    /// Old side: a rulebook file in the format of the game's main document.
    #[arg(long, value_name = "FILE")]
    pub old_file: Option<PathBuf>,
    /// New side: a bundled document of the game (default: its other bundled
    /// document when neither side is given, else its main document).
    #[arg(long, value_name = "DOC", conflicts_with = "new_file")]
    pub new: Option<String>,
    /// New side: a rulebook file in the format of the game's main document
    /// (or of its other bundled document: a saved PMV web-edition page).
    #[arg(long, value_name = "FILE")]
    pub new_file: Option<PathBuf>,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

/// A bundled document of `game` by id, or a diagnostic listing the valid ones.
fn bundled_doc(game: &str, doc: &str) -> Result<&'static DocumentSpec, JudgeError> {
    documents::by_document(doc)
        .filter(|d| d.game == game)
        .ok_or_else(|| JudgeError::UnknownDocument {
            document: doc.to_string(),
            valid: documents::DOCUMENTS
                .iter()
                .filter(|d| d.game == game)
                .map(|d| d.document)
                .collect::<Vec<_>>()
                .join(", "),
        })
}

/// Loads one side: (book, origin shown in the report).
fn load(
    game: &str,
    doc: Option<&str>,
    file: Option<&PathBuf>,
    default: &'static DocumentSpec,
) -> Result<(Cow<'static, Rulebook>, String), JudgeError> {
    if let Some(path) = file {
        return Ok((
            Cow::Owned(load_file(game, path)?),
            path.display().to_string(),
        ));
    }
    let spec = match doc {
        Some(d) => bundled_doc(game, d)?,
        None => default,
    };
    Ok((
        Cow::Borrowed(bundle::document(spec)),
        format!("bundled {}", spec.file),
    ))
}

/// Parses a user's file in the format of the game's main document; if that
/// fails, in the format of the game's other bundled documents (a saved page
/// of the PMV web edition). When no format reads it, the diagnostic is the
/// main format's, naming the line.
fn load_file(game: &str, path: &std::path::Path) -> Result<Rulebook, JudgeError> {
    let err = match bundle::load_user_file(game, path) {
        Ok(b) => return Ok(b),
        Err(e) => e,
    };
    if !matches!(err, JudgeError::RulebookParse { .. }) {
        return Err(err);
    }
    let Ok(text) = bundle::read_user_text(path) else {
        return Err(err);
    };
    documents::DOCUMENTS
        .iter()
        .filter(|d| d.game == game && !d.primary)
        .find_map(|d| d.format.parse(&text).ok())
        .ok_or(err)
}

/// Runs `judge diff`.
pub fn run(args: &DiffArgs, style: Style) -> CmdResult {
    let primary = bundle::game_spec(&args.game)?;
    let game = primary.game;
    let old_given = args.old.is_some() || args.old_file.is_some();
    let new_given = args.new.is_some() || args.new_file.is_some();
    // With no side given, compare the main document with the game's other
    // bundled document (pmv: the web edition of chapter 5).
    let new_default = if !old_given && !new_given {
        documents::DOCUMENTS
            .iter()
            .find(|d| d.game == game && !d.primary)
            .ok_or_else(|| JudgeError::Usage {
                message: format!(
                    "{game} has only one bundled rulebook: nothing to compare it with"
                ),
                help: Some(format!(
                    "give a newer version to compare with: judge diff {game} --new-file FILE"
                )),
            })?
    } else {
        primary
    };
    let (old, old_origin) = load(game, args.old.as_deref(), args.old_file.as_ref(), primary)?;
    let (new, new_origin) = load(
        game,
        args.new.as_deref(),
        args.new_file.as_ref(),
        new_default,
    )?;
    let report = diff::compare(game, (&old, &old_origin), (&new, &new_origin));
    if args.json {
        print_json(&report);
    } else {
        crate::out!("{}", render(&report, style));
    }
    Ok(if report.agree {
        exit::OK
    } else {
        exit::NO_MATCH
    })
}

/// The human-readable report.
pub fn render(r: &DiffReport, style: Style) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} {} {} ({}) → {} {} ({})",
        style.title(&format!("judge diff {}:", r.game)),
        r.old.document,
        r.old.version,
        r.old.origin,
        r.new.document,
        r.new.version,
        r.new.origin,
    );
    if let Some(note) = &r.scope.note {
        let _ = writeln!(out, "{}", style.dim(&format!("scope: {note}")));
    }
    let one_line = |title: &Option<String>, text: &str| -> String {
        match title {
            Some(t) if text.is_empty() => t.clone(),
            Some(t) => format!("{t} {text}"),
            None => text.to_string(),
        }
        .replace('\n', " / ")
    };
    for c in &r.changed {
        let _ = writeln!(out, "\n{} {}", style.hit("changed"), style.id(&c.id));
        let _ = writeln!(out, "  {}", render_words(&c.words, style));
    }
    for e in &r.added {
        let _ = writeln!(
            out,
            "\n{} {}  {}",
            style.good("added"),
            style.id(&e.id),
            one_line(&e.title, &e.text)
        );
    }
    for e in &r.removed {
        let _ = writeln!(
            out,
            "\n{} {}  {}",
            style.bad("removed"),
            style.id(&e.id),
            one_line(&e.title, &e.text)
        );
    }
    for m in &r.moved {
        let _ = writeln!(
            out,
            "\n{} {} → {}  {}",
            style.hit("moved"),
            style.id(&m.from),
            style.id(&m.to),
            m.text.replace('\n', " / ")
        );
    }
    if !r.cosmetic.is_empty() {
        let _ = writeln!(
            out,
            "\n{}",
            style.dim(&format!(
                "{} clause(s) differ only in character width or spacing (not counted): {}",
                r.cosmetic.len(),
                r.cosmetic.join(", ")
            ))
        );
    }
    let s = &r.summary;
    let verdict = if r.agree {
        style.good(&format!(
            "agree: {} clauses compared, none added, removed, changed or moved",
            s.compared
        ))
    } else {
        style.bad(&format!(
            "differ: {} changed, {} added, {} removed, {} moved ({} clauses compared)",
            s.changed, s.added, s.removed, s.moved, s.compared
        ))
    };
    let _ = writeln!(out, "\n{verdict}");
    out
}

/// `equal[-deleted-]{+inserted+}` (markers also in colour on a terminal).
fn render_words(words: &[Segment], style: Style) -> String {
    words
        .iter()
        .map(|w| match w.op {
            "delete" => style.bad(&format!("[-{}-]", w.text)),
            "insert" => style.good(&format!("{{+{}+}}", w.text)),
            _ => w.text.replace('\n', " / "),
        })
        .collect()
}

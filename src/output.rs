//! Terminal output conventions: colour only on a terminal and never when
//! NO_COLOR is set; JSON written with a trailing newline.

use std::borrow::Cow;
use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};

use owo_colors::OwoColorize;

/// A results table fitted to the terminal: comfy-table's dynamic layout wraps
/// long cells to the terminal's width. Off a terminal, `COLUMNS` gives the
/// width when set (`COLUMNS=100 judge check … | less`); otherwise rows are
/// not wrapped, so scripts and pipes get one line per row. Colour comes from
/// [`Style::cell`], which comfy-table applies after the layout, so escapes
/// never count as width nor get cut by wrapping.
pub fn table(style: Style) -> comfy_table::Table {
    let mut t = comfy_table::Table::new();
    t.load_style(comfy_table::presets::UTF8_FULL_CONDENSED);
    t.set_content_arrangement(comfy_table::ContentArrangement::Dynamic);
    if style.color {
        t.enforce_styling();
    } else {
        t.force_no_tty();
    }
    if !std::io::stdout().is_terminal()
        && let Some(w) = std::env::var("COLUMNS")
            .ok()
            .and_then(|c| c.trim().parse::<u16>().ok())
            .filter(|&w| w >= 20)
    {
        t.set_width(w);
    }
    t
}

/// The colour of a whole table cell ([`Style::cell`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tone {
    Plain,
    /// A clause id (bold cyan, as [`Style::id`]).
    Id,
    /// Secondary information (as [`Style::dim`]).
    Dim,
    /// Passing (as [`Style::good`]).
    Good,
    /// Failing (as [`Style::bad`]).
    Bad,
}

/// `--color` choices.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum ColorChoice {
    /// Colour when stdout is a terminal and NO_COLOR is unset.
    #[default]
    Auto,
    Always,
    Never,
}

/// How to style text for the current stdout.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Style {
    pub color: bool,
}

impl Style {
    /// Decides colour from the choice, NO_COLOR and whether stdout is a terminal.
    pub fn detect(choice: ColorChoice) -> Style {
        let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
        let color = match choice {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => !no_color && std::io::stdout().is_terminal(),
        };
        Style { color }
    }

    /// Plain style (tests, JSON).
    pub const PLAIN: Style = Style { color: false };

    /// A table cell holding `s`, coloured by `tone` when colour is on.
    pub fn cell(&self, s: impl Into<String>, tone: Tone) -> comfy_table::Cell {
        use comfy_table::{Attribute, Cell, Color};
        let cell = Cell::new(s.into());
        if !self.color {
            return cell;
        }
        match tone {
            Tone::Plain => cell,
            Tone::Id => cell.fg(Color::Cyan).add_attribute(Attribute::Bold),
            Tone::Dim => cell.add_attribute(Attribute::Dim),
            Tone::Good => cell.fg(Color::Green),
            Tone::Bad => cell.fg(Color::Red),
        }
    }

    /// A clause id.
    pub fn id(&self, s: &str) -> String {
        if self.color {
            s.bold().cyan().to_string()
        } else {
            s.to_string()
        }
    }

    /// A heading or title.
    pub fn title(&self, s: &str) -> String {
        if self.color {
            s.bold().to_string()
        } else {
            s.to_string()
        }
    }

    /// Secondary information (breadcrumbs, line numbers).
    pub fn dim(&self, s: &str) -> String {
        if self.color {
            s.dimmed().to_string()
        } else {
            s.to_string()
        }
    }

    /// A search hit or a changed word.
    pub fn hit(&self, s: &str) -> String {
        if self.color {
            s.bold().yellow().to_string()
        } else {
            s.to_string()
        }
    }

    /// Something added (diffs) or passing (checks).
    pub fn good(&self, s: &str) -> String {
        if self.color {
            s.green().to_string()
        } else {
            s.to_string()
        }
    }

    /// Something removed (diffs) or failing (checks).
    pub fn bad(&self, s: &str) -> String {
        if self.color {
            s.red().to_string()
        } else {
            s.to_string()
        }
    }
}

/// Prints a JSON value, pretty, with a trailing newline.
pub fn print_json(value: &impl serde::Serialize) {
    let s = serde_json::to_string_pretty(value).expect("serialisable output");
    println!("{s}");
}

/// `print!` through [`stdout_safe`]: human output escapes input controls.
#[macro_export]
macro_rules! out {
    ($($t:tt)*) => {
        $crate::scenario::report::emit(&format!($($t)*))
    };
}

/// `println!` through [`stdout_safe`].
#[macro_export]
macro_rules! outln {
    ($($t:tt)*) => {
        $crate::scenario::report::emit(&format!("{}\n", format_args!($($t)*)))
    };
}

/// `eprintln!` through [`stderr_safe`].
#[macro_export]
macro_rules! errln {
    ($($t:tt)*) => {
        eprintln!("{}", $crate::output::stderr_safe(&format!($($t)*)))
    };
}

/// Whether stdout / stderr carry judge's own colour (SGR) sequences; set
/// once by the CLI. Only then do [`terminal_safe`] sinks let SGR through.
static STDOUT_SGR: AtomicBool = AtomicBool::new(false);
static STDERR_SGR: AtomicBool = AtomicBool::new(false);

/// Records whether judge colours stdout and stderr (the CLI calls it once).
pub fn set_colour(stdout: bool, stderr: bool) {
    STDOUT_SGR.store(stdout, Ordering::Relaxed);
    STDERR_SGR.store(stderr, Ordering::Relaxed);
}

/// Text for a terminal: every control character that could act on the
/// terminal is shown escaped (`\u{1b}`), so a scenario's name, a query or a
/// clause id cannot retitle the window, clear the screen, reorder the text
/// (U+202E) or hide itself (NUL). Newline and tab stay; when `allow_sgr`,
/// colour sequences (`ESC [ … m`, judge's own styling) stay too. Other
/// escape sequences, including OSC, are always escaped.
pub fn terminal_safe(s: &str, allow_sgr: bool) -> Cow<'_, str> {
    if !s.chars().any(is_terminal_control) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 16);
    let mut rest = s;
    while let Some(c) = rest.chars().next() {
        if c == '\u{1b}'
            && allow_sgr
            && let Some(len) = sgr_len(rest)
        {
            out.push_str(&rest[..len]);
            rest = &rest[len..];
            continue;
        }
        if is_terminal_control(c) {
            out.push_str(&format!("\\u{{{:x}}}", c as u32));
        } else {
            out.push(c);
        }
        rest = &rest[c.len_utf8()..];
    }
    Cow::Owned(out)
}

/// [`terminal_safe`] with the colour decision of stdout.
pub fn stdout_safe(s: &str) -> Cow<'_, str> {
    terminal_safe(s, STDOUT_SGR.load(Ordering::Relaxed))
}

/// [`terminal_safe`] with the colour decision of stderr.
pub fn stderr_safe(s: &str) -> Cow<'_, str> {
    terminal_safe(s, STDERR_SGR.load(Ordering::Relaxed))
}

/// A control character in the panic hook's message, escaped (no colour).
pub fn escape_controls(s: &str) -> String {
    terminal_safe(s, false).into_owned()
}

fn is_terminal_control(c: char) -> bool {
    match c {
        '\n' | '\t' => false,
        // C0, DEL, C1 controls.
        '\u{0}'..='\u{1f}' | '\u{7f}'..='\u{9f}' => true,
        // Bidirectional overrides and isolates, which reorder what follows.
        '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' => true,
        _ => false,
    }
}

/// Length of an SGR sequence `ESC [ digits/semicolons m` at the start of `s`.
fn sgr_len(s: &str) -> Option<usize> {
    let body = s.strip_prefix("\u{1b}[")?;
    let n = body
        .bytes()
        .take_while(|b| b.is_ascii_digit() || *b == b';')
        .count();
    (body.as_bytes().get(n) == Some(&b'm')).then_some(2 + n + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_are_escaped_and_colour_kept_only_when_allowed() {
        let evil = "a\u{1b}]0;title\u{7}b\u{1b}[2Jc\u{202e}d\u{0}e\n\tf";
        assert_eq!(
            terminal_safe(evil, true),
            "a\\u{1b}]0;title\\u{7}b\\u{1b}[2Jc\\u{202e}d\\u{0}e\n\tf"
        );
        assert_eq!(
            terminal_safe("\u{1b}[1;31mX\u{1b}[0m", true),
            "\u{1b}[1;31mX\u{1b}[0m"
        );
        assert_eq!(terminal_safe("\u{1b}[31mX", false), "\\u{1b}[31mX");
        assert!(matches!(
            terminal_safe("第4部第9章", false),
            Cow::Borrowed(_)
        ));
    }
}

//! Terminal output conventions: colour only on a terminal and never when
//! NO_COLOR is set; JSON written with a trailing newline.

use std::io::IsTerminal;

use owo_colors::OwoColorize;

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

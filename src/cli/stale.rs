//! `judge check --rulebook GAME=NEW.txt`: which rulings a newer rulebook
//! makes stale. The bundled rulebook is compared with the new file
//! (`crate::diff`); a ruling whose cited clauses (in its trace, its
//! `cites` or its rejections) were changed, removed or moved is `stale`,
//! with the word diff of each clause. The rest are re-proved as usual.

use std::collections::BTreeMap;
use std::path::PathBuf;

use serde::Serialize;

use crate::error::JudgeError;

/// One cited clause the new rulebook changed.
#[derive(Debug, Clone, Serialize)]
pub struct StaleClause {
    /// The clause id in the bundled rulebook.
    pub id: String,
    /// `changed`, `removed`, or `moved to <id>`.
    pub how: String,
    /// The word diff, `[-old-]{+new+}` (changed clauses only).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub words: String,
}

/// Per game, the clauses the new rulebook changed, by id.
pub type Changes = BTreeMap<String, BTreeMap<String, StaleClause>>;

/// Parses the `--rulebook GAME=FILE` values and compares each file with the
/// bundled rulebook of its game.
pub fn changes(specs: &[String]) -> Result<Changes, JudgeError> {
    let mut out = Changes::new();
    for s in specs {
        let Some((game, path)) = s.split_once('=') else {
            return Err(JudgeError::Usage {
                message: format!("`--rulebook {s}`: expected GAME=FILE"),
                help: Some("e.g. --rulebook sve=sve-1.8.0.txt".into()),
            });
        };
        let old = crate::bundle::game(game)?;
        let new = crate::bundle::load_user_file(game, &PathBuf::from(path))?;
        let report = crate::diff::compare(
            game,
            (old, old.meta.version.as_str()),
            (&new, new.meta.version.as_str()),
        );
        let mut by_id = BTreeMap::new();
        for c in &report.changed {
            by_id.insert(
                c.id.clone(),
                StaleClause {
                    id: c.id.clone(),
                    how: "changed".into(),
                    words: render_words(&c.words),
                },
            );
        }
        for r in &report.removed {
            by_id.insert(
                r.id.clone(),
                StaleClause {
                    id: r.id.clone(),
                    how: "removed".into(),
                    words: String::new(),
                },
            );
        }
        for m in &report.moved {
            by_id.insert(
                m.from.clone(),
                StaleClause {
                    id: m.from.clone(),
                    how: format!("moved to {}", m.to),
                    words: String::new(),
                },
            );
        }
        out.insert(game.to_string(), by_id);
    }
    Ok(out)
}

/// The clauses of `cited` that `changes` of `game` names, in order.
pub fn stale_for(changes: &Changes, game: &str, cited: &[String]) -> Vec<StaleClause> {
    let Some(by_id) = changes.get(game) else {
        return Vec::new();
    };
    let mut out: Vec<StaleClause> = cited.iter().filter_map(|c| by_id.get(c).cloned()).collect();
    out.dedup_by(|a, b| a.id == b.id);
    out
}

/// A word diff as one line: `[-deleted-]{+inserted+}`, equal runs kept.
fn render_words(segments: &[crate::diff::Segment]) -> String {
    segments
        .iter()
        .map(|s| match s.op {
            "delete" => format!("[-{}-]", s.text),
            "insert" => format!("{{+{}+}}", s.text),
            _ => s.text.clone(),
        })
        .collect::<String>()
        .replace('\n', " ")
}

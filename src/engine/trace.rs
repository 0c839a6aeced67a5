//! The trace: one entry per rules procedure the step machine ran, saying what
//! happened, to which objects, what changed (before → after), and which rule
//! clauses were applied. Where the rulebook is silent or ambiguous, the entry
//! carries the reading applied as a judge's note.

use serde::Serialize;

/// One change of one value.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Change {
    /// What changed (`p2.defense`, `f1.zone`, `f1.engaged`).
    pub what: String,
    /// The value before.
    pub before: String,
    /// The value after.
    pub after: String,
}

/// One trace entry.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TraceEntry {
    /// 1-based position in the trace.
    pub seq: usize,
    /// Index (0-based) of the scenario action being processed, `None` while
    /// the engine runs before the first action.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub action: Option<usize>,
    /// The procedure (`start_phase.draw`, `attack.target`, `check_timing`).
    pub step: String,
    /// What happened, in words.
    pub text: String,
    /// Objects involved (card ids, players).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub objects: Vec<String>,
    /// Values that changed.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub changes: Vec<Change>,
    /// Rule ids applied, each one declared citable by the game module.
    pub rules: Vec<&'static str>,
    /// The reading applied where the rules are silent or ambiguous.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

impl TraceEntry {
    /// Adds an object.
    pub fn obj(&mut self, o: impl Into<String>) -> &mut Self {
        self.objects.push(o.into());
        self
    }
    /// Adds a change.
    pub fn change(
        &mut self,
        what: impl Into<String>,
        before: impl ToString,
        after: impl ToString,
    ) -> &mut Self {
        self.changes.push(Change {
            what: what.into(),
            before: before.to_string(),
            after: after.to_string(),
        });
        self
    }
    /// Sets the judge's note.
    pub fn note(&mut self, n: impl Into<String>) -> &mut Self {
        self.note = Some(n.into());
        self
    }
    /// Adds a rule id.
    pub fn rule(&mut self, r: &'static str) -> &mut Self {
        self.rules.push(r);
        self
    }
}

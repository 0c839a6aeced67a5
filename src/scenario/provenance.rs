//! Where a ruling comes from: the structured `source` of a scenario file.
//!
//! A judge trusts `judge check` when it says which rulings re-prove what the
//! makers published, which reproduce the rulebook's own examples, which
//! follow a judge's reading of an open point, and which are worked examples
//! written beside the engine. Each file says so in `source.kind`:
//!
//! ```json
//! "source": { "kind": "official_qa", "url": "https://…", "date": "2024-05-01",
//!             "question": "Q12", "summary": "English paraphrase" }
//! "source": { "kind": "official_column" | "official_errata", "url": …, "date": …, "summary": … }
//! "source": { "kind": "rulebook_example", "example": "4.9.2-1#ex1" }
//! "source": { "kind": "judge_reading", "reading": "reading_option_name", "clause": "101.7",
//!             "summary": "what the rulebook leaves open and which reading this follows" }
//! "source": { "kind": "worked_example", "clause": "10.5.2", "summary": "…" }
//! ```
//!
//! [`parse`] validates the field against the game's bundled rulebook (an
//! example id resolves as `judge rule` resolves it, clause ids exist) and
//! the game module (a reading names an option the module offers), each
//! error located at the offending key. The free-text string of format 1 is
//! still read, as [`Kind::Text`], so that older files and other tools keep
//! loading; the project's own corpus may not use it (a test forbids it).

use schemars::JsonSchema;
use serde::Serialize;
use serde_json::Value;

use super::load::{Ctx, ScenarioError, k};
use super::locate::Seg;
use crate::games::GameModule;
use crate::rulebook::Rulebook;

/// The kind of a ruling's source.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// A question and answer published by the maker (Q&A, FAQ).
    OfficialQa,
    /// A ruling published by the maker in a column or article.
    OfficialColumn,
    /// An erratum or rule change published by the maker.
    OfficialErrata,
    /// One of the rulebook's own examples.
    RulebookExample,
    /// A judges' reading of a point the rulebook leaves open, with the
    /// option that selects the other reading.
    JudgeReading,
    /// A case worked out from the clauses by the ruling's author.
    WorkedExample,
    /// The free-text `source` of format 1 (not classified).
    Text,
}

impl Kind {
    /// Every kind, in the order `judge check` reports them.
    pub const ALL: [Kind; 7] = [
        Kind::OfficialQa,
        Kind::OfficialColumn,
        Kind::OfficialErrata,
        Kind::RulebookExample,
        Kind::JudgeReading,
        Kind::WorkedExample,
        Kind::Text,
    ];
    /// The kinds a file may name in `source.kind`.
    pub const WRITTEN: [Kind; 6] = [
        Kind::OfficialQa,
        Kind::OfficialColumn,
        Kind::OfficialErrata,
        Kind::RulebookExample,
        Kind::JudgeReading,
        Kind::WorkedExample,
    ];

    /// The word written in a file (`official_qa`); `text` for the string form.
    pub fn word(self) -> &'static str {
        match self {
            Kind::OfficialQa => "official_qa",
            Kind::OfficialColumn => "official_column",
            Kind::OfficialErrata => "official_errata",
            Kind::RulebookExample => "rulebook_example",
            Kind::JudgeReading => "judge_reading",
            Kind::WorkedExample => "worked_example",
            Kind::Text => "text",
        }
    }

    /// The kind named `word` (as `--kind` and files spell it).
    pub fn from_word(word: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.word() == word)
    }

    /// How `judge check`'s summary counts `n` rulings of this kind.
    pub fn counted(self, n: usize) -> String {
        let (one, many) = match self {
            Kind::OfficialQa => ("published Q&A answer", "published Q&A answers"),
            Kind::OfficialColumn => ("published column ruling", "published column rulings"),
            Kind::OfficialErrata => ("published erratum", "published errata"),
            Kind::RulebookExample => ("rulebook example", "rulebook examples"),
            Kind::JudgeReading => ("judge's reading", "judge's readings"),
            Kind::WorkedExample => ("worked example", "worked examples"),
            Kind::Text => ("unclassified source", "unclassified sources"),
        };
        format!("{n} {}", if n == 1 { one } else { many })
    }

    /// Whether the maker published the ruling.
    pub fn is_published(self) -> bool {
        matches!(
            self,
            Kind::OfficialQa | Kind::OfficialColumn | Kind::OfficialErrata
        )
    }

    /// (required, optional) keys of a source object of this kind, besides
    /// `kind` and `//`.
    fn keys(self) -> (&'static [&'static str], &'static [&'static str]) {
        match self {
            Kind::OfficialQa => (
                &["url", "date", "question", "summary"],
                &["clause", "rules_version"],
            ),
            Kind::OfficialColumn | Kind::OfficialErrata => (
                &["url", "date", "summary"],
                &["question", "clause", "rules_version"],
            ),
            Kind::RulebookExample => (&["example"], &["summary", "clause"]),
            Kind::JudgeReading => (&["reading", "clause", "summary"], &[]),
            Kind::WorkedExample => (&["clause"], &["summary"]),
            Kind::Text => (&[], &[]),
        }
    }
}

/// A ruling's validated source.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Provenance {
    /// What kind of source it is.
    pub kind: Option<Kind>,
    /// The published page (https).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// The publication date, YYYY-MM-DD.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub date: Option<String>,
    /// The question's id on the published page (`Q12`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub question: Option<String>,
    /// The rulebook example (`406.4.1#ex1`), as `judge rule` accepts it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub example: Option<String>,
    /// The reading option (a player flag of the game, `reading_…`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reading: Option<String>,
    /// The clauses the ruling rests on.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub clauses: Vec<String>,
    /// An English paraphrase (published answers) or explanation; the whole
    /// text of a format-1 string source.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub summary: Option<String>,
    /// The rulebook version the answer was given for (`1.50`), when it is
    /// not the bundled one: the ruling is kept as answered, pinned to it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rules_version: Option<String>,
}

impl Provenance {
    /// The kind, `text` for a format-1 string.
    pub fn kind(&self) -> Kind {
        self.kind.unwrap_or(Kind::Text)
    }

    /// The judge's note a trace opens with when the source answers another
    /// rulebook version than the `bundled` one; `None` when it names none
    /// or the same one.
    pub fn version_note(&self, bundled: &str) -> Option<String> {
        let pin = self.rules_version.as_deref()?;
        let bare = |v: &str| v.trim_start_matches(['v', 'V']).to_string();
        if bundled.is_empty() || bare(pin) == bare(bundled) {
            return None;
        }
        Some(format!(
            "this {} answers rules version {pin}, not the bundled {bundled}: it is kept as answered, pinned to {pin}; where the two versions differ, it may not hold under {bundled}",
            self.kind().word().replace('_', " ")
        ))
    }

    /// One line for a trace's header: `worked example (7.2, 8.4): …`.
    pub fn line(&self) -> String {
        let kind = self.kind();
        let mut ids: Vec<String> = Vec::new();
        ids.extend(self.example.clone());
        ids.extend(self.question.clone());
        ids.extend(self.date.clone());
        if let Some(r) = &self.reading {
            ids.push(format!("option {r}"));
        }
        ids.extend(self.clauses.iter().cloned());
        let mut line = match kind {
            Kind::Text => String::new(),
            _ => kind.word().replace('_', " "),
        };
        if !ids.is_empty() {
            line.push_str(&format!(" ({})", ids.join(", ")));
        }
        if let Some(s) = &self.summary {
            if !line.is_empty() {
                line.push_str(": ");
            }
            line.push_str(s);
        }
        if let Some(u) = &self.url {
            line.push_str(&format!(" <{u}>"));
        }
        line
    }
}

/// The published JSON Schema of `source` (documentation only: the loader
/// reads the field with [`parse`], for diagnostics at the offending key).
#[derive(JsonSchema)]
#[serde(untagged)]
#[allow(dead_code)]
pub enum SourceSchema {
    /// The structured source.
    Structured(Structured),
    /// Format 1: free text (deprecated; read as an unclassified source).
    Text(String),
}

/// One or several clause ids.
#[derive(JsonSchema)]
#[serde(untagged)]
#[allow(dead_code)]
pub enum ClauseIds {
    /// One clause id.
    One(String),
    /// Several clause ids.
    Many(Vec<String>),
}

/// The structured source, by kind.
#[derive(JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
#[allow(dead_code)]
pub enum Structured {
    /// A question and answer the maker published.
    OfficialQa {
        /// The page (https).
        url: String,
        /// The publication (or last update) date, YYYY-MM-DD, or `undated`
        /// when the page shows none.
        date: String,
        /// The question's id on the page (`Q12`).
        question: String,
        /// The question and answer paraphrased in English.
        summary: String,
        /// The clauses the answer rules on.
        clause: Option<ClauseIds>,
        /// The rulebook version the answer was given for, when not the
        /// bundled one (`1.50`): kept as answered, the trace saying so.
        rules_version: Option<String>,
        /// A comment.
        #[serde(rename = "//")]
        comment: Option<Value>,
    },
    /// A ruling the maker published in a column or article.
    OfficialColumn(Published),
    /// An erratum or rule change the maker published.
    OfficialErrata(Published),
    /// One of the bundled rulebook's examples.
    RulebookExample {
        /// The example's id as `judge rule GAME` accepts it (`406.4.1#ex1`;
        /// the clause alone when its illustration is not a labelled example).
        example: String,
        /// What the example shows.
        summary: Option<String>,
        /// Other clauses the ruling rests on.
        clause: Option<ClauseIds>,
        /// A comment.
        #[serde(rename = "//")]
        comment: Option<Value>,
    },
    /// A judges' reading of a point the rulebook leaves open.
    JudgeReading {
        /// The option (a `reading_…` player flag of the game) that selects
        /// the other reading; setting it in `state` tests that reading.
        /// `null`: the engine does not offer the other reading yet.
        reading: Option<String>,
        /// The clauses that leave the point open.
        clause: ClauseIds,
        /// What is open, and which reading the ruling follows.
        summary: String,
        /// A comment.
        #[serde(rename = "//")]
        comment: Option<Value>,
    },
    /// A case worked out from the clauses.
    WorkedExample {
        /// The clauses it works through.
        clause: ClauseIds,
        /// What it shows.
        summary: Option<String>,
        /// A comment.
        #[serde(rename = "//")]
        comment: Option<Value>,
    },
}

/// The fields of a column ruling or an erratum.
#[derive(JsonSchema)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
pub struct Published {
    /// The page (https).
    url: String,
    /// YYYY-MM-DD, or `undated`.
    date: String,
    /// The ruling or change paraphrased in English.
    summary: String,
    /// An id on the page, if any.
    question: Option<String>,
    /// The clauses it rules on or changes.
    clause: Option<ClauseIds>,
    /// The rulebook version it was given for, when not the bundled one.
    rules_version: Option<String>,
    /// A comment.
    #[serde(rename = "//")]
    comment: Option<Value>,
}

/// Reads and validates `source` (the raw JSON value of the field) for a
/// scenario of `module`, whose bundled rulebook is `book`.
pub(super) fn parse(
    cx: &Ctx,
    module: &dyn GameModule,
    book: Option<&Rulebook>,
    source: &Value,
) -> Result<Provenance, ScenarioError> {
    let at = |key: &str| vec![k("source"), k(key)];
    let obj = match source {
        Value::String(s) => {
            if s.trim().is_empty() {
                return Err(cx.err(&[k("source")], "an empty source", Some(structured_help())));
            }
            return Ok(Provenance {
                summary: Some(s.clone()),
                ..Provenance::default()
            });
        }
        Value::Object(o) => o,
        _ => {
            return Err(cx.err(
                &[k("source")],
                "a source is an object with a `kind`",
                Some(structured_help()),
            ));
        }
    };
    let kind_word = match obj.get("kind") {
        Some(Value::String(w)) => w.as_str(),
        Some(_) => {
            return Err(cx.err(&at("kind"), "`kind` is a string", Some(kinds_help())));
        }
        None => {
            return Err(cx.err(
                &[k("source")],
                "the source has no `kind`",
                Some(kinds_help()),
            ));
        }
    };
    let kind = Kind::WRITTEN
        .into_iter()
        .find(|k| k.word() == kind_word)
        .ok_or_else(|| {
            cx.err(
                &at("kind"),
                format!("unknown source kind `{kind_word}`"),
                Some(kinds_help()),
            )
        })?;
    let (required, optional) = kind.keys();
    for key in obj.keys() {
        if key != "kind"
            && key != "//"
            && !required.contains(&key.as_str())
            && !optional.contains(&key.as_str())
        {
            let mut valid: Vec<&str> = required.iter().chain(optional).copied().collect();
            valid.push("//");
            return Err(cx.err(
                &at(key),
                format!("unknown field `{key}` in a `{kind_word}` source"),
                Some(format!(
                    "fields of a `{kind_word}` source: {}",
                    valid.join(", ")
                )),
            ));
        }
    }
    if let Some(missing) = required.iter().find(|key| !obj.contains_key(**key)) {
        return Err(cx.err(
            &[k("source")],
            format!("a `{kind_word}` source needs `{missing}`"),
            Some(format!("required fields: {}", required.join(", "))),
        ));
    }
    let text = |key: &str| -> Result<Option<String>, ScenarioError> {
        match obj.get(key) {
            None => Ok(None),
            // A judge's reading the engine applies without offering the
            // other one yet (listed in scenarios/README.md).
            Some(Value::Null) if key == "reading" => Ok(None),
            Some(Value::String(s)) if !s.trim().is_empty() => Ok(Some(s.clone())),
            Some(Value::String(_)) => Err(cx.err(&at(key), format!("an empty `{key}`"), None)),
            Some(_) => Err(cx.err(&at(key), format!("`{key}` is a string"), None)),
        }
    };
    let mut p = Provenance {
        kind: Some(kind),
        url: text("url")?,
        date: text("date")?,
        question: text("question")?,
        example: text("example")?,
        reading: text("reading")?,
        summary: text("summary")?,
        rules_version: text("rules_version")?,
        clauses: Vec::new(),
    };
    if let Some(v) = &p.rules_version
        && !valid_version(v)
    {
        return Err(cx.err(
            &at("rules_version"),
            format!("`{v}` is not a rulebook version"),
            Some(
                "the version the answer was given for, as the rulebook numbers it: `2.05`, `1.7.0`"
                    .into(),
            ),
        ));
    }
    if let Some(u) = &p.url
        && let Err(why) = check_url(u)
    {
        return Err(cx.err(
            &at("url"),
            format!("not a web address: {why}"),
            Some("the published page's address as published, `https://…` (or `http://…`)".into()),
        ));
    }
    if let Some(d) = &p.date
        && d != UNDATED
        && !valid_date(d)
    {
        return Err(cx.err(
            &at("date"),
            format!("`{d}` is not a date YYYY-MM-DD"),
            Some(format!(
                "the publication date, for example `2024-05-01`, or `{UNDATED}` when the page shows none"
            )),
        ));
    }
    if let Some(c) = obj.get("clause") {
        p.clauses = clause_ids(cx, book, c)?;
    }
    if let Some(e) = &p.example {
        check_example(cx, module, book, e)?;
    }
    if let Some(r) = &p.reading {
        let offered: Vec<&str> = module
            .player_flags()
            .iter()
            .copied()
            .filter(|f| f.starts_with("reading_"))
            .collect();
        if !offered.contains(&r.as_str()) {
            return Err(cx.err(
                &at("reading"),
                format!("`{}` offers no reading option `{r}`", module.id()),
                Some(if offered.is_empty() {
                    format!(
                        "`{}` offers no reading options yet; a reading the engine applies must be offered as a `reading_…` player flag",
                        module.id()
                    )
                } else {
                    format!(
                        "reading options of `{}`: {}",
                        module.id(),
                        crate::engine::machine::capped_list(
                            &offered.iter().map(|s| s.to_string()).collect::<Vec<_>>()
                        )
                    )
                }),
            ));
        }
    }
    Ok(p)
}

fn structured_help() -> String {
    "write `\"source\": { \"kind\": …, … }`; the kinds and their fields are in scenarios/README.md"
        .into()
}

fn kinds_help() -> String {
    format!("kinds: {}", Kind::WRITTEN.map(Kind::word).join(", "))
}

/// The `date` of a published page that shows none.
pub const UNDATED: &str = "undated";

/// `Err(why)` unless `u` is a web address with a host: `https://`, or
/// `http://` for a maker's page served only that way (M.I.W's PMV site).
fn check_url(u: &str) -> Result<(), &'static str> {
    let Some(rest) = u
        .strip_prefix("https://")
        .or_else(|| u.strip_prefix("http://"))
    else {
        return Err("it does not start with `https://` (or `http://`)");
    };
    if u.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Err("it contains a space or a control character");
    }
    let host = rest.split(['/', '?', '#']).next().unwrap_or("");
    if host.is_empty() || !host.contains('.') {
        return Err("it names no host");
    }
    Ok(())
}

/// Whether `d` is a calendar date written YYYY-MM-DD.
/// Whether `v` is a rulebook version: numbers separated by dots, an
/// optional leading `v` (`2.05`, `1.7.0`, `v1.50`).
pub fn valid_version(v: &str) -> bool {
    let v = v.strip_prefix(['v', 'V']).unwrap_or(v);
    !v.is_empty()
        && v.split('.')
            .all(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

pub fn valid_date(d: &str) -> bool {
    let b = d.as_bytes();
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return false;
    }
    let num = |r: std::ops::Range<usize>| -> Option<u32> {
        let s = &d[r];
        s.bytes()
            .all(|c| c.is_ascii_digit())
            .then(|| s.parse().ok())?
    };
    let (Some(y), Some(m), Some(day)) = (num(0..4), num(5..7), num(8..10)) else {
        return false;
    };
    let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    let days = match m {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return false,
    };
    (1990..=2100).contains(&y) && (1..=days).contains(&day)
}

/// The clause ids of `source.clause` (one id or a list), each checked to
/// exist in the bundled rulebook.
fn clause_ids(cx: &Ctx, book: Option<&Rulebook>, v: &Value) -> Result<Vec<String>, ScenarioError> {
    let path = [k("source"), k("clause")];
    let ids: Vec<(String, Vec<Seg>)> = match v {
        Value::String(s) => vec![(s.clone(), path.to_vec())],
        Value::Array(list) if !list.is_empty() => {
            let mut out = Vec::new();
            for (i, item) in list.iter().enumerate() {
                let p = [path.as_slice(), &[Seg::Index(i)]].concat();
                match item {
                    Value::String(s) => out.push((s.clone(), p)),
                    _ => return Err(cx.err(&p, "a clause id is a string", None)),
                }
            }
            out
        }
        _ => {
            return Err(cx.err(
                &path,
                "`clause` is one clause id or a non-empty list of them",
                Some("for example `\"10.5.2\"` or `[\"1.11.4\", \"1.5.4.a\"]`".into()),
            ));
        }
    };
    for (id, p) in &ids {
        super::load::check_rule(cx, book, id, p)?;
    }
    Ok(ids.into_iter().map(|(id, _)| id).collect())
}

/// Checks that `id` names an example of the bundled rulebook the way
/// `judge rule GAME ID` resolves it. A clause with labelled examples must be
/// given with the example's number (`#ex2`); a clause whose illustration is
/// not a labelled example is named alone.
fn check_example(
    cx: &Ctx,
    module: &dyn GameModule,
    book: Option<&Rulebook>,
    id: &str,
) -> Result<(), ScenarioError> {
    let path = [k("source"), k("example")];
    let (Some(b), Ok(spec)) = (book, crate::bundle::game_spec(module.id())) else {
        return Ok(());
    };
    if b.clauses.is_empty() {
        return Ok(());
    }
    let r = crate::lookup::resolve(b, spec.format, id).map_err(|e| {
        cx.err(
            &path,
            format!("`judge rule {}` does not accept `{id}`: {e}", module.id()),
            Some("an example id such as `406.4.1#ex1`, as `judge rule` accepts it".into()),
        )
    })?;
    let count = b.clause(r.clause).examples.len();
    if r.example.is_none() && count > 0 {
        let c = &b.clause(r.clause).id;
        return Err(cx.err(
            &path,
            format!("{c} has {count} labelled example(s): name the one the ruling reproduces"),
            Some(format!("{c}#ex1 to {c}#ex{count}")),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Loads a minimal pmv scenario with `source`, returning the error's
    /// message, path and help, or the provenance.
    fn load(game: &str, source: &str) -> Result<Provenance, (String, Option<String>, String)> {
        let src = format!(
            r#"{{"game": "{game}", "name": "t", "source": {source},
            "state": {{"turn": {{"player": "p1", "phase": "main", "number": 1}}, "players": {{}}}}}}"#
        );
        crate::scenario::load_str("t.json", &src, None)
            .map(|l| l.provenance)
            .map_err(|e| (e.message, e.path, e.help.unwrap_or_default()))
    }

    fn err_at(game: &str, source: &str, path: &str, needle: &str) {
        let Err((message, p, help)) = load(game, source) else {
            panic!("accepted: {source}");
        };
        assert_eq!(p.as_deref(), Some(path), "{message}");
        assert!(
            message.contains(needle) || help.contains(needle),
            "{message} / {help} lacks {needle}"
        );
    }

    #[test]
    fn each_kind_is_read_with_its_fields() {
        let p = load(
            "pmv",
            r#"{"kind": "official_qa", "url": "https://example.com/qa", "date": "2024-05-01",
                "question": "Q12", "summary": "s", "clause": "1.11.4"}"#,
        )
        .unwrap();
        assert_eq!(p.kind(), Kind::OfficialQa);
        assert_eq!(p.clauses, ["1.11.4"]);
        let p = load(
            "pso2",
            r#"{"kind": "rulebook_example", "example": "406.4.1#ex1"}"#,
        )
        .unwrap();
        assert_eq!(p.kind(), Kind::RulebookExample);
        let p = load(
            "pmv",
            r#"{"kind": "judge_reading", "reading": "reading_blocker_deals_no_damage",
                "clause": ["6.2.4.d", "6.2.4.e"], "summary": "s"}"#,
        )
        .unwrap();
        assert_eq!(
            p.reading.as_deref(),
            Some("reading_blocker_deals_no_damage")
        );
        let p = load(
            "pmv",
            r#"{"kind": "worked_example", "clause": "6.2.4", "//": "c"}"#,
        )
        .unwrap();
        assert_eq!(p.kind(), Kind::WorkedExample);
        let p = load("pmv", r#""free text""#).unwrap();
        assert_eq!(p.kind(), Kind::Text);
    }

    #[test]
    fn bad_sources_are_located_at_the_field() {
        err_at("pmv", r#"{"kind": "rumour"}"#, "source.kind", "official_qa");
        err_at("pmv", r#"{"clause": "6.2.4"}"#, "source", "no `kind`");
        err_at(
            "pmv",
            r#"{"kind": "worked_example"}"#,
            "source",
            "needs `clause`",
        );
        err_at(
            "pmv",
            r#"{"kind": "worked_example", "clause": "6.2.4", "url": "https://a.b"}"#,
            "source.url",
            "unknown field",
        );
        err_at(
            "pmv",
            r#"{"kind": "worked_example", "clause": "99.99"}"#,
            "source.clause",
            "no clause",
        );
        err_at(
            "pmv",
            r#"{"kind": "worked_example", "clause": ["6.2.4", "99.99"]}"#,
            "source.clause[1]",
            "no clause",
        );
        let qa = |url: &str, date: &str| {
            format!(
                r#"{{"kind": "official_qa", "url": "{url}", "date": "{date}", "question": "Q1", "summary": "s"}}"#
            )
        };
        err_at(
            "pmv",
            &qa("example.com/qa", "2024-05-01"),
            "source.url",
            "https://",
        );
        err_at(
            "pmv",
            &qa("https://example.com", "2024-02-30"),
            "source.date",
            "YYYY-MM-DD",
        );
        assert!(load("pmv", &qa("https://example.com", "undated")).is_ok());
        err_at(
            "pso2",
            r#"{"kind": "rulebook_example", "example": "406.4.1#ex9"}"#,
            "source.example",
            "judge rule pso2",
        );
        err_at(
            "pso2",
            r#"{"kind": "rulebook_example", "example": "406.4.1"}"#,
            "source.example",
            "406.4.1#ex1",
        );
        err_at(
            "pmv",
            r#"{"kind": "judge_reading", "reading": "reading_nope", "clause": "6.2.4", "summary": "s"}"#,
            "source.reading",
            "reading_blocker_deals_no_damage",
        );
        err_at("pmv", r#"42"#, "source", "kind");
        err_at("pmv", r#""  ""#, "source", "empty");
    }

    #[test]
    fn versions_are_dotted_numbers() {
        for v in ["2.05", "1.7.0", "v1.50", "19.00"] {
            assert!(valid_version(v), "{v}");
        }
        for v in ["", "v", "two", "1..2", "1.", "2.05a"] {
            assert!(!valid_version(v), "{v}");
        }
    }

    #[test]
    fn dates_are_calendar_dates() {
        assert!(valid_date("2024-05-01"));
        assert!(valid_date("2024-02-29"));
        assert!(!valid_date("2023-02-29"));
        assert!(!valid_date("2024-13-01"));
        assert!(!valid_date("2024-5-1"));
        assert!(!valid_date("2024/05/01"));
        assert!(!valid_date("２０２４-05-01"));
    }

    #[test]
    fn urls_are_https_with_a_host() {
        assert!(check_url("https://example.com/qa#12").is_ok());
        assert!(check_url("http://example.com").is_ok());
        assert!(check_url("ftp://example.com").is_err());
        assert!(check_url("https:///x").is_err());
        assert!(check_url("https://exa mple.com").is_err());
    }

    #[test]
    fn every_written_kind_round_trips_its_word() {
        for k in Kind::ALL {
            assert_eq!(Kind::from_word(k.word()), Some(k));
        }
        assert_eq!(Kind::from_word("nope"), None);
    }
}

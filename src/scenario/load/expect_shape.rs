//! Expectations that could never fail, refused where the file writes them
//! (issue 13): an empty `state`, an empty list or pattern, a blank `step`,
//! a `text` of no words, a blank `negative`, a `never` pattern naming an
//! object the game does not have, and `"<missing>"` (the key is absent)
//! asserted of a card the game does not have. Each error says what to write
//! instead.
//! (An empty object *inside* a state is not refused: it means an empty
//! object, e.g. `"counters": {}` is "no counters"; see
//! [`crate::scenario::expect::project`]. An empty `expect` is not refused
//! either: it asserts that no action is rejected, as any `expect` does; a
//! ruling that asserts no more fails tests/corpus_hollow.rs.)
//!
//! They are read from the parsed [`Expect`], except whether a list or object
//! is written empty, which serde's defaults cannot tell from an absent one
//! ([`WrittenEmpty`]).
//!
//! [`Expect`]: crate::scenario::format::Expect

use serde_json::Value;

use super::{Ctx, ScenarioError, k};
use crate::engine::Game;
use crate::engine::state::TOKEN_PREFIX;
use crate::scenario::expect::MISSING;
use crate::scenario::format::{Expect, TracePattern};
use crate::scenario::locate::{Seg, span};

/// Lists whose being empty asserts nothing (an empty `rejected` does: no
/// action is rejected).
const LISTS: &[&str] = &["cites", "not_cited", "trace", "never", "checkpoints"];

/// Checks the parsed `expect` of the scenario text `text` (comments
/// blanked) on the starting board `game`.
pub(super) fn check_shapes(
    cx: &Ctx,
    text: &str,
    ex: &Expect,
    game: &Game,
) -> Result<(), ScenarioError> {
    let empty = WrittenEmpty::of(text);
    if let Some(n) = &ex.negative
        && n.trim().is_empty()
    {
        return Err(cx.err(
            &[k("expect"), k("negative")],
            "a blank `negative` names no naive outcome",
            Some("say which outcome the ruling rules out, e.g. \"the naive outcome is the draw: hand 8\"".into()),
        ));
    }
    for list in LISTS {
        if empty.at(&[k(list)]) {
            return Err(cx.err(
                &[k("expect"), k(list)],
                format!("an empty `{list}` asserts nothing"),
                Some(format!("remove `{list}`, or list what it must hold")),
            ));
        }
    }
    let null = Value::Null;
    let state = ex
        .state
        .as_ref()
        .or_else(|| empty.null.contains(&vec![k("state")]).then_some(&null));
    if let Some(st) = state {
        state_shape(cx, &[k("expect"), k("state")], st, game)?;
    }
    for (i, c) in ex.checkpoints.iter().enumerate() {
        let at = [k("expect"), k("checkpoints"), Seg::Index(i), k("state")];
        state_shape(cx, &at, &c.state, game)?;
    }
    for (list, patterns) in [("trace", &ex.trace), ("never", &ex.never)] {
        for (i, p) in patterns.iter().enumerate() {
            let at = [k("expect"), k(list), Seg::Index(i)];
            pattern_shape(cx, &at, p, &empty)?;
            if list == "never" {
                never_names_objects(cx, &at, p, game)?;
            }
        }
    }
    Ok(())
}

/// Where `expect` writes an empty list or object, or `null`: serde's
/// defaults cannot tell `"cites": []` or `"state": null` from no `cites` or
/// `state`, so these are read from the text. A text with no `[]`, `{}` or
/// `null` at all (most files) builds no JSON tree.
struct WrittenEmpty {
    empty: Vec<Vec<Seg>>,
    null: Vec<Vec<Seg>>,
}

impl WrittenEmpty {
    fn of(text: &str) -> Self {
        let mut found = WrittenEmpty {
            empty: Vec::new(),
            null: Vec::new(),
        };
        if !has_empty_literal(text.as_bytes())
            && memchr::memmem::find(text.as_bytes(), b"null").is_none()
        {
            return found;
        }
        let tree = span(text, &[k("expect")])
            .and_then(|(s, e)| serde_json::from_str::<Value>(&text[s..e]).ok());
        if let Some(v @ Value::Object(_)) = &tree {
            found.walk(v, &mut Vec::new());
        }
        found
    }

    fn walk(&mut self, v: &Value, path: &mut Vec<Seg>) {
        match v {
            Value::Null => self.null.push(path.clone()),
            Value::Array(a) if a.is_empty() => self.empty.push(path.clone()),
            Value::Object(o) if o.is_empty() => self.empty.push(path.clone()),
            Value::Array(a) => {
                for (i, item) in a.iter().enumerate() {
                    path.push(Seg::Index(i));
                    self.walk(item, path);
                    path.pop();
                }
            }
            Value::Object(o) => {
                for (key, item) in o {
                    path.push(k(key));
                    self.walk(item, path);
                    path.pop();
                }
            }
            _ => {}
        }
    }

    /// Whether the value at `path` (below `expect`) is written empty.
    fn at(&self, path: &[Seg]) -> bool {
        self.empty.iter().any(|p| p == path)
    }

    /// Whether a value inside the one at `path` is written empty or `null`
    /// (the value itself written `{}` is not).
    fn under(&self, path: &[Seg]) -> bool {
        self.empty
            .iter()
            .chain(&self.null)
            .any(|p| p.len() > path.len() && p.starts_with(path))
    }
}

/// Whether `b` holds `[` or `{` followed, after white space, by its closing
/// bracket (anywhere: in a string too, which only costs the slow path).
fn has_empty_literal(b: &[u8]) -> bool {
    memchr::memchr2_iter(b'[', b'{', b).any(|i| {
        let close = if b[i] == b'[' { b']' } else { b'}' };
        b[i + 1..]
            .iter()
            .find(|c| !c.is_ascii_whitespace())
            .is_some_and(|&c| c == close)
    })
}

/// A state expectation is a non-empty object: `{}` would match any state;
/// and a card asserted absent is a card of the game.
fn state_shape(cx: &Ctx, at: &[Seg], st: &Value, game: &Game) -> Result<(), ScenarioError> {
    missing_names_cards(cx, at, st, game)?;
    match st {
        Value::Object(o) if o.is_empty() => Err(cx.err(
            at,
            "an empty state asserts nothing",
            Some(
                r#"name what must hold, e.g. {"cards": {"k": {"zone": "p1.field"}}}, or remove it"#
                    .into(),
            ),
        )),
        Value::Object(_) => Ok(()),
        other => Err(cx.err(
            at,
            format!("a state is an object of the snapshot's keys, not {other}"),
            Some(r#"e.g. {"players": {"p2": {"life": 20}}}"#.into()),
        )),
    }
}

/// A trace pattern matches something in particular: not every entry.
fn pattern_shape(
    cx: &Ctx,
    at: &[Seg],
    p: &TracePattern,
    empty: &WrittenEmpty,
) -> Result<(), ScenarioError> {
    // `at` starts with `expect`; the empties are found below it.
    let below = &at[1..];
    let says_nothing = p.step.is_none()
        && p.action.is_none()
        && p.cites.is_empty()
        && p.changes.is_empty()
        && p.objects.is_empty()
        && p.text.is_none()
        && p.note.is_none();
    if says_nothing && !empty.under(below) {
        return Err(cx.err(
            at,
            "an empty pattern matches every trace entry",
            Some("give at least one of `step`, `action`, `cites`, `changes`, `objects`, `text`, `note`".into()),
        ));
    }
    for key in ["cites", "objects"] {
        if empty.at(&[below, &[k(key)]].concat()) {
            return Err(cx.err(
                &[at, &[k(key)]].concat(),
                format!("an empty `{key}` asserts nothing"),
                Some(format!("remove `{key}`, or list what the entry must name")),
            ));
        }
    }
    if empty.at(&[below, &[k("changes")]].concat()) {
        return Err(cx.err(
            &[at, &[k("changes")]].concat(),
            "an empty `changes` asserts nothing",
            Some(r#"remove it, or name a change, e.g. "p2.defense": -1"#.into()),
        ));
    }
    // Blank words: a `step` of none matches no entry, a `text` of none every
    // entry (`note: ""` is meant: the entry has a judge's note).
    let blanks = [
        (
            "step",
            &p.step,
            "a blank `step` matches no trace entry",
            "name the procedure (`attack`, `rule`…; `judge run` shows each step), or remove `step`",
        ),
        (
            "text",
            &p.text,
            "a `text` of no words matches every entry",
            "give words of the step's text, or remove `text` (`note: \"\"` asks for a judge's note)",
        ),
    ];
    for (key, value, message, help) in blanks {
        if value.as_deref().is_some_and(|w| w.trim().is_empty()) {
            return Err(cx.err(&[at, &[k(key)]].concat(), message, Some(help.into())));
        }
    }
    Ok(())
}

/// A `never` pattern naming an object that does not exist can never match:
/// it would pass whatever the engine does. Objects are the board's cards,
/// the players, parts of them (`l.pop2`), or tokens the run creates.
fn never_names_objects(
    cx: &Ctx,
    at: &[Seg],
    p: &TracePattern,
    game: &Game,
) -> Result<(), ScenarioError> {
    let players: Vec<String> = crate::engine::PlayerId::all(game.players.len())
        .map(crate::engine::player_name)
        .collect();
    let known = |name: &str| {
        name.starts_with(TOKEN_PREFIX)
            || players
                .iter()
                .map(String::as_str)
                .chain(game.cards.keys().map(|c| c.as_str()))
                .any(|id| {
                    name == id
                        || name
                            .strip_prefix(id)
                            .is_some_and(|rest| rest.starts_with('.'))
                })
    };
    for (j, name) in p.objects.iter().enumerate() {
        if !known(name) {
            return Err(unknown(
                cx,
                &[at, &[k("objects"), Seg::Index(j)]].concat(),
                name,
            ));
        }
    }
    if let Some(what) = p.changes.keys().find(|w| !known(w)) {
        return Err(unknown(cx, &[at, &[k("changes"), k(what)]].concat(), what));
    }
    Ok(())
}

/// `"<missing>"` asserts that a key is absent ([`MISSING`]); said of a card
/// that is neither on the board nor a token the run may create, it would
/// pass whatever the engine does (a misspelt id).
fn missing_names_cards(cx: &Ctx, at: &[Seg], st: &Value, game: &Game) -> Result<(), ScenarioError> {
    let Some(Value::Object(cards)) = st.get("cards") else {
        return Ok(());
    };
    let absent = cards.iter().find(|(id, v)| {
        v.as_str() == Some(MISSING)
            && !id.starts_with(TOKEN_PREFIX)
            && !game.cards.contains_key(id.as_str())
    });
    match absent {
        Some((id, _)) => Err(cx.err(
            &[at, &[k("cards"), k(id)]].concat(),
            format!("`{id}` names no card of this board or token of the run: `\"{MISSING}\"` would always hold"),
            Some("name a card of the board (its id) or a token (`token.…`), or remove the line".into()),
        )),
        None => Ok(()),
    }
}

fn unknown(cx: &Ctx, at: &[Seg], name: &str) -> ScenarioError {
    cx.err(
        at,
        format!("`{name}` names no card or player of this game: the pattern can never match"),
        Some(
            "name a card of the board (its id), a player (`p1`), or a value of one (`k.zone`)"
                .into(),
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::has_empty_literal;

    #[test]
    fn an_empty_literal_is_found_whatever_the_white_space() {
        assert!(has_empty_literal(br#"{"cites": []}"#));
        assert!(has_empty_literal(b"{\"a\": {\n  \t}}"));
        assert!(has_empty_literal(b"[ ]"));
        assert!(!has_empty_literal(br#"{"cites": ["1.2"], "a": {"b": 1}}"#));
        assert!(!has_empty_literal(b"[1, [2]"));
        assert!(!has_empty_literal(b"{"));
    }
}

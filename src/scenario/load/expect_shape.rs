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
//! These are read from the written JSON, not the parsed [`Expect`]: serde's
//! defaults cannot tell an absent list from an empty one.
//!
//! [`Expect`]: crate::scenario::format::Expect

use serde_json::Value;

use super::{Ctx, ScenarioError, k};
use crate::engine::Game;
use crate::engine::state::TOKEN_PREFIX;
use crate::scenario::expect::MISSING;
use crate::scenario::locate::{Seg, span};

/// Lists whose being empty asserts nothing (an empty `rejected` does: no
/// action is rejected).
const LISTS: &[&str] = &["cites", "not_cited", "trace", "never", "checkpoints"];

/// Checks the written `expect` of the scenario text `text` (comments
/// blanked) on the starting board `game`.
pub(super) fn check_shapes(cx: &Ctx, text: &str, game: &Game) -> Result<(), ScenarioError> {
    let Some((s, e)) = span(text, &[k("expect")]) else {
        return Ok(());
    };
    let Ok(Value::Object(ex)) = serde_json::from_str::<Value>(&text[s..e]) else {
        return Ok(());
    };
    if let Some(n) = ex.get("negative").and_then(Value::as_str)
        && n.trim().is_empty()
    {
        return Err(cx.err(
            &[k("expect"), k("negative")],
            "a blank `negative` names no naive outcome",
            Some("say which outcome the ruling rules out, e.g. \"the naive outcome is the draw: hand 8\"".into()),
        ));
    }
    for list in LISTS {
        if ex
            .get(*list)
            .and_then(Value::as_array)
            .is_some_and(Vec::is_empty)
        {
            return Err(cx.err(
                &[k("expect"), k(list)],
                format!("an empty `{list}` asserts nothing"),
                Some(format!("remove `{list}`, or list what it must hold")),
            ));
        }
    }
    if let Some(st) = ex.get("state") {
        state_shape(cx, &[k("expect"), k("state")], st, game)?;
    }
    for (i, c) in array(&ex, "checkpoints").iter().enumerate() {
        if let Some(st) = c.get("state") {
            let at = [k("expect"), k("checkpoints"), Seg::Index(i), k("state")];
            state_shape(cx, &at, st, game)?;
        }
    }
    for list in ["trace", "never"] {
        for (i, p) in array(&ex, list).iter().enumerate() {
            let at = [k("expect"), k(list), Seg::Index(i)];
            pattern_shape(cx, &at, p)?;
            if list == "never" {
                never_names_objects(cx, &at, p, game)?;
            }
        }
    }
    Ok(())
}

fn array<'a>(ex: &'a serde_json::Map<String, Value>, key: &str) -> &'a [Value] {
    ex.get(key)
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice)
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
fn pattern_shape(cx: &Ctx, at: &[Seg], p: &Value) -> Result<(), ScenarioError> {
    let Value::Object(o) = p else {
        return Ok(());
    };
    if o.keys().all(|key| key == "//") {
        return Err(cx.err(
            at,
            "an empty pattern matches every trace entry",
            Some("give at least one of `step`, `action`, `cites`, `changes`, `objects`, `text`, `note`".into()),
        ));
    }
    for key in ["cites", "objects"] {
        if o.get(key)
            .and_then(Value::as_array)
            .is_some_and(Vec::is_empty)
        {
            return Err(cx.err(
                &[at, &[k(key)]].concat(),
                format!("an empty `{key}` asserts nothing"),
                Some(format!("remove `{key}`, or list what the entry must name")),
            ));
        }
    }
    if o.get("changes")
        .and_then(Value::as_object)
        .is_some_and(|c| c.is_empty())
    {
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
            "a blank `step` matches no trace entry",
            "name the procedure (`attack`, `rule`…; `judge run` shows each step), or remove `step`",
        ),
        (
            "text",
            "a `text` of no words matches every entry",
            "give words of the step's text, or remove `text` (`note: \"\"` asks for a judge's note)",
        ),
    ];
    for (key, message, help) in blanks {
        if o.get(key)
            .and_then(Value::as_str)
            .is_some_and(|w| w.trim().is_empty())
        {
            return Err(cx.err(&[at, &[k(key)]].concat(), message, Some(help.into())));
        }
    }
    Ok(())
}

/// A `never` pattern naming an object that does not exist can never match:
/// it would pass whatever the engine does. Objects are the board's cards,
/// the players, parts of them (`l.pop2`), or tokens the run creates.
fn never_names_objects(cx: &Ctx, at: &[Seg], p: &Value, game: &Game) -> Result<(), ScenarioError> {
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
    let objects = p
        .get("objects")
        .and_then(Value::as_array)
        .map_or(&[][..], Vec::as_slice);
    for (j, o) in objects.iter().enumerate() {
        if let Some(name) = o.as_str()
            && !known(name)
        {
            return Err(unknown(
                cx,
                &[at, &[k("objects"), Seg::Index(j)]].concat(),
                name,
            ));
        }
    }
    if let Some(Value::Object(ch)) = p.get("changes")
        && let Some(what) = ch.keys().find(|w| !known(w))
    {
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

//! Loading a scenario file: JSON syntax and type errors with line and column
//! (serde_json's byte columns converted to a byte offset, so the caret is
//! right after Japanese text), then semantic validation against the game
//! module (unknown card, zone, value out of range, card not where the action
//! says…), each error naming the JSON path and pointing at the value.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use miette::{Diagnostic, NamedSource, SourceSpan};
use thiserror::Error;

use super::format::{CardEntry, Scenario, ZoneDef};
use super::locate::{Seg, render, span};
use crate::engine::state::parse_player;
use crate::engine::{Action, Card, CardDef, Effect, Game, Target, ZoneId};
use crate::games::{self, GameModule};

/// A scenario that cannot be loaded.
#[derive(Debug, Error, Diagnostic)]
#[error("{file}: {message}")]
#[diagnostic(code(judge::scenario))]
pub struct ScenarioError {
    /// The file.
    pub file: String,
    /// What is wrong.
    pub message: String,
    /// The JSON path, when known.
    pub path: Option<String>,
    #[source_code]
    src: NamedSource<String>,
    #[label("{label}")]
    span: Option<SourceSpan>,
    label: String,
    /// What would be valid.
    #[help]
    pub help: Option<String>,
}

impl ScenarioError {
    /// An error with no source position (I/O).
    pub fn plain(file: &str, message: impl Into<String>) -> Self {
        ScenarioError {
            file: file.into(),
            message: message.into(),
            path: None,
            src: NamedSource::new(file, String::new()),
            span: None,
            label: String::new(),
            help: None,
        }
    }
}

/// A validated scenario, ready to run.
#[derive(Debug, Clone)]
pub struct Loaded {
    /// Display name of the file.
    pub file: String,
    /// The file's text (for diagnostics about actions).
    pub src: String,
    /// The parsed file.
    pub scenario: Scenario,
    /// The game module.
    pub module: &'static dyn GameModule,
    /// The initial game.
    pub game: Game,
    /// The validated actions.
    pub actions: Vec<Action>,
    /// Warnings (rules-version mismatch).
    pub warnings: Vec<String>,
}

/// Byte offset of serde_json's (1-based line, byte column) position; the
/// column counts bytes consumed on the line and may be 0. Moved back to a
/// char boundary (crates.md §3: never SourceOffset::from_location).
pub fn json_offset(src: &str, line: usize, col: usize) -> usize {
    let line_start: usize = src
        .split_inclusive('\n')
        .take(line.saturating_sub(1))
        .map(str::len)
        .sum();
    let mut off = (line_start + col.saturating_sub(1)).min(src.len());
    while off > 0 && !src.is_char_boundary(off) {
        off -= 1;
    }
    off
}

/// Loads a file.
///
/// `-` is standard input, named `<stdin>` in diagnostics; its card-pool paths
/// resolve against the working directory.
pub fn load_file(path: &Path) -> Result<Loaded, ScenarioError> {
    let file = if path.as_os_str() == "-" {
        "<stdin>".to_string()
    } else {
        path.display().to_string()
    };
    // Through the one normalisation of user files (BOM, CRLF).
    let src = crate::bundle::read_user_text(path)
        .map_err(|e| ScenarioError::plain(&file, format!("cannot read: {e}")))?;
    load_str(&file, &src, path.parent())
}

struct Ctx<'a> {
    file: &'a str,
    src: &'a str,
}

impl Ctx<'_> {
    fn err(&self, path: &[Seg], message: impl Into<String>, help: Option<String>) -> ScenarioError {
        let sp = span(self.src, path).map(|(s, e)| SourceSpan::new(s.into(), e - s));
        let (src, sp) = match sp {
            Some(sp) => {
                let (src, sp) = crate::error::diagnostic_source(self.file, self.src, sp);
                (src, Some(sp))
            }
            None => (NamedSource::new(self.file, String::new()), None),
        };
        let p = render(path);
        let message = message.into();
        ScenarioError {
            file: self.file.into(),
            label: message.clone(),
            message: if p.is_empty() {
                message
            } else {
                format!("{message} (at `{p}`)")
            },
            path: Some(p),
            src: src.with_language("json"),
            span: sp,
            help,
        }
    }
}

fn k(s: &str) -> Seg {
    Seg::Key(s.into())
}

fn one_of(what: &str, valid: &[&str]) -> Option<String> {
    Some(format!("valid {what}: {}", valid.join(", ")))
}

/// The message and label of a JSON syntax or shape error, in plain words
/// for the cases serde's wording misleads a judge (item 11 of the
/// robustness issue): an empty file, a top-level value that is not an
/// object, `-0` read as a float.
fn plain_json_error(src: &str, path: &str, inner: &serde_json::Error) -> (String, String) {
    let at = format!(
        "invalid scenario at `{path}` (line {}, column {})",
        inner.line(),
        inner.column()
    );
    let raw = inner.to_string();
    let first = src.trim_start().chars().next();
    if first.is_none() {
        return (
            "the file is empty: a scenario is a JSON object".into(),
            "expected a JSON object here".into(),
        );
    }
    if first != Some('{') && path == "." {
        let what = match first {
            Some('[') => "an array",
            Some('"') => "a string",
            Some('0'..='9' | '-') => "a number",
            _ => "not a JSON object",
        };
        return (
            format!(
                "a scenario is a JSON object `{{ \"game\": …, \"state\": … }}`, but the file holds {what}"
            ),
            "expected `{`".into(),
        );
    }
    let label = raw
        .replace("floating point `-0.0`", "`-0` (a negative zero)")
        .replace("floating point `-0`", "`-0` (a negative zero)");
    (at, label)
}

/// Why `id` is reserved, if it is: action and target words name players
/// and their leader / player card (`leader`, `p2.leader`, `p1`), so a card
/// with such an id could never be told apart from them (a follower called
/// `leader` could never be attacked).
pub fn reserved_id(id: &str) -> Option<&'static str> {
    let is_player = |s: &str| {
        s.strip_prefix('p')
            .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
    };
    let (head, tail) = id.split_once('.').unwrap_or((id, ""));
    if matches!(id, "leader" | "player") {
        Some("it is a target word (the player or their leader card)")
    } else if is_player(id) {
        Some("it names a player")
    } else if is_player(head) && matches!(tail, "leader" | "player") {
        Some("it names a player's leader / player card")
    } else {
        None
    }
}

/// The largest magnitude of a number in a scenario (the seed excepted).
/// Every amount, stat, value and counter of a real card fits with room to
/// spare, and with it no sum the engine forms can overflow an `i64`: one
/// action runs at most the step budget of effects, each adding at most this.
pub const MAX_MAGNITUDE: i64 = 1_000_000;

/// Refuses any number beyond [`MAX_MAGNITUDE`], located at its field, so
/// `change_value defense +9223372036854775807` is bad input, not a
/// wrapped (or panicking) ruling.
fn check_number_ranges(cx: &Ctx, src: &str) -> Result<(), ScenarioError> {
    fn walk(cx: &Ctx, v: &serde_json::Value, path: &mut Vec<Seg>) -> Result<(), ScenarioError> {
        match v {
            serde_json::Value::Number(n) => {
                // A fraction is left to the game (PMV 1.6.1 rules on it);
                // an integer must be in range.
                let ok = n.is_f64()
                    || n.as_i64()
                        .is_some_and(|i| (-MAX_MAGNITUDE..=MAX_MAGNITUDE).contains(&i));
                if !ok {
                    return Err(cx.err(
                        path,
                        format!("number out of range: {n}"),
                        Some(format!(
                            "whole numbers in a scenario are between -{MAX_MAGNITUDE} and {MAX_MAGNITUDE} (the seed excepted)"
                        )),
                    ));
                }
            }
            serde_json::Value::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    path.push(Seg::Index(i));
                    walk(cx, item, path)?;
                    path.pop();
                }
            }
            serde_json::Value::Object(map) => {
                for (key, item) in map {
                    if path.is_empty() && key == "seed" {
                        continue;
                    }
                    path.push(Seg::Key(key.clone()));
                    walk(cx, item, path)?;
                    path.pop();
                }
            }
            _ => {}
        }
        Ok(())
    }
    // The typed parse already succeeded, so this one cannot fail.
    match serde_json::from_str::<serde_json::Value>(src) {
        Ok(v) => walk(cx, &v, &mut Vec::new()),
        Err(_) => Ok(()),
    }
}

/// Parses and validates scenario text. `base` resolves card-pool paths.
pub fn load_str(file: &str, src: &str, base: Option<&Path>) -> Result<Loaded, ScenarioError> {
    let cx = Ctx { file, src };
    let de = &mut serde_json::Deserializer::from_str(src);
    let scenario: Scenario = serde_path_to_error::deserialize(de).map_err(|e| {
        let path = e.path().to_string();
        let inner = e.into_inner();
        let off = json_offset(src, inner.line(), inner.column());
        let len = src[off..].chars().next().map(char::len_utf8).unwrap_or(0);
        let (named, sp) =
            crate::error::diagnostic_source(file, src, SourceSpan::new(off.into(), len));
        let (message, label) = plain_json_error(src, &path, &inner);
        ScenarioError {
            file: file.into(),
            message,
            path: Some(path.clone()),
            src: named.with_language("json"),
            span: Some(sp),
            label,
            help: Some("the format is documented in scenarios/README.md; `judge schema` prints the JSON Schema".into()),
        }
    })?;
    check_number_ranges(&cx, src)?;

    let Some(module) = games::module(&scenario.game) else {
        let known = crate::rulebook::documents::GAMES.contains(&scenario.game.as_str());
        return Err(cx.err(
            &[k("game")],
            if known {
                format!("the engine does not support `{}` yet", scenario.game)
            } else {
                format!("unknown game `{}`", scenario.game)
            },
            Some(format!(
                "games with an engine: {}",
                games::supported().join(", ")
            )),
        ));
    };

    let mut warnings = Vec::new();
    let book = crate::bundle::game(module.id()).ok();
    if let (Some(pin), Some(b)) = (&scenario.rules_version, book)
        && !b.meta.version.is_empty()
        && pin.trim_start_matches(['v', 'V']) != b.meta.version.trim_start_matches(['v', 'V'])
    {
        warnings.push(format!(
            "{file}: the scenario is pinned to rules version {pin}, the bundled rulebook is {}",
            b.meta.version
        ));
    }

    // Card definitions: pools first, inline definitions win.
    let mut defs: BTreeMap<String, CardDef> = BTreeMap::new();
    for (i, pool) in scenario.card_pool.iter().enumerate() {
        let p = base.map(|b| b.join(pool)).unwrap_or_else(|| pool.into());
        let text = crate::bundle::read_user_text(&p).map_err(|e| {
            cx.err(
                &[k("card_pool"), Seg::Index(i)],
                format!("cannot read card pool `{}`: {e}", p.display()),
                None,
            )
        })?;
        let pfile = p.display().to_string();
        let de = &mut serde_json::Deserializer::from_str(&text);
        let pool_defs: BTreeMap<String, CardDef> =
            serde_path_to_error::deserialize(de).map_err(|e| {
                let path = e.path().to_string();
                let inner = e.into_inner();
                let off = json_offset(&text, inner.line(), inner.column());
                if !text.trim_start().starts_with('{') {
                    // Not JSON at all (a path to the wrong file): say so
                    // without echoing the file's lines.
                    return ScenarioError::plain(
                        &pfile,
                        "is not a card pool: a card pool is a JSON object of card definitions by key",
                    );
                }
                let (named, sp) = crate::error::diagnostic_source(
                    &pfile,
                    &text,
                    SourceSpan::new(off.into(), 1),
                );
                ScenarioError {
                    file: pfile.clone(),
                    message: format!("invalid card pool at `{path}`"),
                    path: Some(path),
                    src: named.with_language("json"),
                    span: Some(sp),
                    label: inner.to_string(),
                    help: Some("a card pool is a JSON object of card definitions by key".into()),
                }
            })?;
        check_number_ranges(
            &Ctx {
                file: &pfile,
                src: &text,
            },
            &text,
        )?;
        defs.extend(pool_defs);
    }
    defs.extend(scenario.cards.clone());
    for (key, d) in &scenario.cards {
        validate_def(&cx, module, &[k("cards"), k(key)], d, &defs)?;
    }
    defs.entry("?".into()).or_insert_with(|| CardDef {
        name: "(anonymous card)".into(),
        card_type: "unknown".into(),
        cost: None,
        attack: None,
        defense: None,
        stats: BTreeMap::new(),
        keywords: Vec::new(),
        traits: Vec::new(),
        text: BTreeMap::new(),
        abilities: Vec::new(),
        alternate: None,
    });

    // The board.
    let n = module.players_for(scenario.state.players.len());
    let mut game = Game::new(module.zones(), n, scenario.seed);
    game.defs = defs;
    let st = &scenario.state;
    let turn_path = [k("state"), k("turn")];
    let parse_p = |s: &str, path: &[Seg]| {
        parse_player(s, n).ok_or_else(|| {
            cx.err(
                path,
                format!("unknown player `{s}`"),
                Some(format!("players are p1 to p{n}")),
            )
        })
    };
    game.turn.active = parse_p(&st.turn.player, &[k("state"), k("turn"), k("player")])?;
    if let Some(f) = &st.turn.first {
        game.turn.first = parse_p(f, &[k("state"), k("turn"), k("first")])?;
    }
    if !module.phases().contains(&st.turn.phase.as_str()) {
        return Err(cx.err(
            &[k("state"), k("turn"), k("phase")],
            format!("unknown phase `{}`", st.turn.phase),
            one_of("phases", module.phases()),
        ));
    }
    if st.turn.number == 0 {
        return Err(cx.err(
            &[k("state"), k("turn"), k("number")],
            "value out of range: turn numbers start at 1",
            None,
        ));
    }
    let _ = turn_path;
    game.turn.phase = st.turn.phase.clone();
    game.turn.number = st.turn.number;
    for p in 0..n {
        for v in module.values() {
            game.set_value(p, v.name, v.default);
        }
    }
    let mut attachments = Vec::new();
    let mut shown: Vec<String> = Vec::new();
    for (pname, pdef) in &st.players {
        let ppath = [k("state"), k("players"), k(pname)];
        let p = parse_p(pname, &ppath)?;
        for (vname, val) in &pdef.values {
            let vpath = [ppath.as_slice(), &[k("values"), k(vname)]].concat();
            let Some(spec) = module.values().iter().find(|v| v.name == vname) else {
                let names: Vec<&str> = module.values().iter().map(|v| v.name).collect();
                return Err(cx.err(
                    &vpath,
                    format!("unknown value `{vname}`"),
                    one_of("values", &names),
                ));
            };
            if spec.min.is_some_and(|m| *val < m) || spec.max.is_some_and(|m| *val > m) {
                return Err(cx.err(
                    &vpath,
                    format!("value out of range: {vname} = {val}"),
                    Some(format!(
                        "{vname} must be {} (rule {})",
                        match (spec.min, spec.max) {
                            (Some(a), Some(b)) => format!("between {a} and {b}"),
                            (Some(a), None) => format!("at least {a}"),
                            (None, Some(b)) => format!("at most {b}"),
                            (None, None) => "any number".into(),
                        },
                        spec.rule
                    )),
                ));
            }
            game.set_value(p, spec.name, *val);
        }
        for (i, f) in pdef.flags.iter().enumerate() {
            if !module.player_flags().contains(&f.as_str()) {
                return Err(cx.err(
                    &[ppath.as_slice(), &[k("flags"), Seg::Index(i)]].concat(),
                    format!("unknown player flag `{f}`"),
                    one_of("flags", module.player_flags()),
                ));
            }
            game.players[p].flags.insert(f.clone());
        }
        for (zname, zdef) in &pdef.zones {
            let zpath = [ppath.as_slice(), &[k("zones"), k(zname)]].concat();
            let Some(spec) = module.zones().iter().find(|z| z.name == zname && !z.shared) else {
                let names: Vec<&str> = module
                    .zones()
                    .iter()
                    .filter(|z| !z.shared)
                    .map(|z| z.name)
                    .collect();
                return Err(cx.err(
                    &zpath,
                    format!("unknown zone `{zname}`"),
                    one_of("zones", &names),
                ));
            };
            let zone = ZoneId::of(p, spec.name);
            #[allow(clippy::type_complexity)]
            let entries: Vec<(
                Option<String>,
                String,
                Option<&super::format::CardInstanceDef>,
                Vec<Seg>,
            )> = match zdef {
                ZoneDef::Count(c) => {
                    if c.count > 1000 {
                        return Err(cx.err(
                            &[zpath.as_slice(), &[k("count")]].concat(),
                            format!("value out of range: count = {}", c.count),
                            Some("at most 1000 cards per zone".into()),
                        ));
                    }
                    (0..c.count)
                        .map(|_| {
                            (
                                None,
                                c.card.clone().unwrap_or_else(|| "?".into()),
                                None,
                                [zpath.as_slice(), &[k("card")]].concat(),
                            )
                        })
                        .collect()
                }
                ZoneDef::Cards(list) => list
                    .iter()
                    .enumerate()
                    .map(|(i, e)| {
                        let ep = [zpath.as_slice(), &[Seg::Index(i)]].concat();
                        match e {
                            CardEntry::Key(key) => (None, key.clone(), None, ep),
                            CardEntry::Full(f) => (
                                f.id.clone(),
                                f.card.clone(),
                                Some(f),
                                [ep.as_slice(), &[k("card")]].concat(),
                            ),
                        }
                    })
                    .collect(),
            };
            for (i, (id, def, full, dpath)) in entries.into_iter().enumerate() {
                if !game.defs.contains_key(&def) {
                    let names: Vec<&str> = game.defs.keys().map(String::as_str).collect();
                    return Err(cx.err(
                        &dpath,
                        format!("unknown card `{def}`"),
                        one_of("cards", &names),
                    ));
                }
                let id = id.unwrap_or_else(|| format!("{pname}.{zname}.{}", i + 1));
                let epath = [zpath.as_slice(), &[Seg::Index(i)]].concat();
                if let Some(why) = reserved_id(&id) {
                    return Err(cx.err(
                        &[epath.as_slice(), &[k("id")]].concat(),
                        format!("`{id}` cannot be a card id: {why}"),
                        Some("choose another id, e.g. `k1` or `knight`".into()),
                    ));
                }
                if game.cards.contains_key(&id) || id.starts_with("token.") {
                    return Err(cx.err(
                        &epath,
                        format!("duplicate card id `{id}`"),
                        Some(
                            "every card needs its own id; ids starting with `token.` are reserved"
                                .into(),
                        ),
                    ));
                }
                let mut card = Card {
                    id: id.clone(),
                    def,
                    owner: p,
                    controller: p,
                    zone: zone.clone(),
                    states: BTreeSet::new(),
                    damage: 0,
                    counters: BTreeMap::new(),
                    attached_to: None,
                    modifiers: Vec::new(),
                    token: false,
                    incarnation: 0,
                    face: None,
                };
                if let Some(f) = full {
                    for (j, s) in f.state.iter().enumerate() {
                        if !module.card_states().contains(&s.as_str()) {
                            return Err(cx.err(
                                &[epath.as_slice(), &[k("state"), Seg::Index(j)]].concat(),
                                format!("unknown card state `{s}`"),
                                one_of("states", module.card_states()),
                            ));
                        }
                        card.states.insert(s.clone());
                    }
                    if f.damage < 0 {
                        return Err(cx.err(
                            &[epath.as_slice(), &[k("damage")]].concat(),
                            format!("value out of range: damage = {}", f.damage),
                            Some("damage is 0 or more".into()),
                        ));
                    }
                    card.damage = f.damage;
                    for (c, v) in &f.counters {
                        if *v < 0 {
                            return Err(cx.err(
                                &[epath.as_slice(), &[k("counters"), k(c)]].concat(),
                                format!("value out of range: {c} = {v}"),
                                Some("counters are 0 or more".into()),
                            ));
                        }
                    }
                    card.counters = f.counters.clone();
                    card.token = f.token;
                    if f.alternate {
                        if game
                            .defs
                            .get(&card.def)
                            .is_none_or(|d| d.alternate.is_none())
                        {
                            return Err(cx.err(
                                &[epath.as_slice(), &[k("alternate")]].concat(),
                                format!("`{}` has no alternate face", card.def),
                                Some("give the card definition an `alternate` face".into()),
                            ));
                        }
                        shown.push(id.clone());
                    }
                    if let Some(a) = &f.attached_to {
                        attachments.push((
                            id.clone(),
                            a.clone(),
                            [epath.as_slice(), &[k("attached_to")]].concat(),
                        ));
                    }
                }
                game.add_card(card);
            }
        }
    }
    for id in shown {
        game.show_alternate(&id, &id);
    }
    for (id, host, path) in attachments {
        if !game.cards.contains_key(&host) {
            return Err(cx.err(
                &path,
                format!("unknown card id `{host}`"),
                Some("attached_to names the id of another card in the state".into()),
            ));
        }
        if let Some(c) = game.cards.get_mut(&id) {
            c.attached_to = Some(host);
        }
    }

    // Actions.
    let mut actions = Vec::new();
    for (i, a) in scenario.actions.iter().enumerate() {
        let ap = [k("actions"), Seg::Index(i)];
        if !module.actions().contains(&a.kind.as_str()) {
            return Err(cx.err(
                &[ap.as_slice(), &[k("do")]].concat(),
                format!("unknown action `{}`", a.kind),
                one_of("actions", module.actions()),
            ));
        }
        let player = match &a.player {
            Some(s) => Some(parse_p(s, &[ap.as_slice(), &[k("player")]].concat())?),
            None => None,
        };
        let known = |id: &str| game.cards.contains_key(id) || id.starts_with("token.");
        if let Some(c) = &a.card
            && !known(c)
        {
            return Err(cx.err(
                &[ap.as_slice(), &[k("card")]].concat(),
                format!("unknown card id `{c}`"),
                Some(nearest_ids(&game, c)),
            ));
        }
        if let Some(z) = &a.from
            && !module.zones().iter().any(|s| s.name == z)
        {
            let names: Vec<&str> = module.zones().iter().map(|z| z.name).collect();
            return Err(cx.err(
                &[ap.as_slice(), &[k("from")]].concat(),
                format!("unknown zone `{z}`"),
                one_of("zones", &names),
            ));
        }
        if let Some(t) = &a.target
            && t != "leader"
            && !known(t)
        {
            return Err(cx.err(
                &[ap.as_slice(), &[k("target")]].concat(),
                format!("unknown target `{t}`"),
                Some(format!("a card id or `leader`; {}", nearest_ids(&game, t))),
            ));
        }
        actions.push(Action {
            kind: a.kind.clone(),
            player,
            card: a.card.clone(),
            from: a.from.clone(),
            target: a.target.clone(),
            choices: a.choices.clone(),
            note: a.note.clone(),
        });
    }

    // Expectations.
    let ex = &scenario.expect;
    let mut results = vec!["ongoing".to_string(), "draw".to_string()];
    results.extend((0..n).map(crate::engine::player_name));
    if let Some(r) = &ex.result
        && !results.contains(r)
    {
        return Err(cx.err(
            &[k("expect"), k("result")],
            format!("unknown result `{r}`"),
            Some(format!("valid results: {}", results.join(", "))),
        ));
    }
    let n_actions = scenario.actions.len();
    for (i, r) in ex.rejected.iter().enumerate() {
        if r.action >= n_actions {
            return Err(cx.err(
                &[k("expect"), k("rejected"), Seg::Index(i), k("action")],
                format!("value out of range: there is no action {}", r.action),
                Some(format!(
                    "actions are numbered 0 to {}",
                    n_actions.saturating_sub(1)
                )),
            ));
        }
        let rule_path = [k("expect"), k("rejected"), Seg::Index(i), k("rule")];
        match &r.rule {
            crate::scenario::format::RuleIds::One(id) => check_rule(&cx, book, id, &rule_path)?,
            crate::scenario::format::RuleIds::Any(ids) => {
                if ids.is_empty() {
                    return Err(cx.err(
                        &rule_path,
                        "an empty list of rules",
                        Some(
                            "give one rule id, or a list of the ids that each forbid the action"
                                .into(),
                        ),
                    ));
                }
                for (j, id) in ids.iter().enumerate() {
                    let p = [rule_path.as_slice(), &[Seg::Index(j)]].concat();
                    check_rule(&cx, book, id, &p)?;
                }
            }
        }
    }
    for (i, c) in ex.checkpoints.iter().enumerate() {
        if c.after >= n_actions {
            return Err(cx.err(
                &[k("expect"), k("checkpoints"), Seg::Index(i), k("after")],
                format!("value out of range: there is no action {}", c.after),
                Some(format!(
                    "actions are numbered 0 to {}",
                    n_actions.saturating_sub(1)
                )),
            ));
        }
    }
    for (i, c) in ex.cites.iter().enumerate() {
        check_rule(&cx, book, c, &[k("expect"), k("cites"), Seg::Index(i)])?;
    }
    for (i, c) in ex.not_cited.iter().enumerate() {
        check_rule(&cx, book, c, &[k("expect"), k("not_cited"), Seg::Index(i)])?;
    }

    Ok(Loaded {
        file: file.into(),
        src: src.to_string(),
        scenario,
        module,
        game,
        actions,
        warnings,
    })
}

/// A diagnostic for an error the engine met while running action `action`
/// (strict-mode choices, a card not where the action says…), pointing at
/// that action in the file.
pub fn action_error(
    loaded: &Loaded,
    action: Option<usize>,
    error: &crate::engine::EngineError,
) -> ScenarioError {
    use crate::engine::EngineError as E;
    let cx = Ctx {
        file: &loaded.file,
        src: &loaded.src,
    };
    let mut path = match action {
        Some(i) => vec![k("actions"), Seg::Index(i)],
        None => vec![k("state"), k("turn")],
    };
    let help = match error {
        E::MissingChoice { options, .. } | E::BadChoice { options, .. } => Some(format!(
            "options: {}",
            crate::engine::machine::capped_list(options)
        )),
        E::Budget { .. } => Some(
            "a loop that no player can stop; check the abilities that re-trigger each other".into(),
        ),
        E::NotImplemented { .. } => {
            Some("this part of the rules is not implemented in the engine yet".into())
        }
        _ => None,
    };
    if action.is_some() {
        match error {
            E::UnusedChoice { choice } | E::BadChoice { choice, .. } => {
                path.extend([k("choices"), k(choice)]);
            }
            E::MissingChoice { .. } => path.push(k("choices")),
            E::BadAction { message } if message.starts_with("the action says") => {
                path.push(k("from"))
            }
            _ => {}
        }
    }
    cx.err(&path, error.to_string(), help)
}

fn nearest_ids(game: &Game, id: &str) -> String {
    let ids: Vec<&str> = game
        .cards
        .keys()
        .map(String::as_str)
        .filter(|k| !k.contains(".deck."))
        .collect();
    let near = crate::rulebook::address::nearest(id, ids.iter().copied(), 5);
    if near.is_empty() {
        format!("card ids: {}", ids.join(", "))
    } else {
        format!("nearest card ids: {}", near.join(", "))
    }
}

fn check_rule(
    cx: &Ctx,
    book: Option<&crate::rulebook::Rulebook>,
    id: &str,
    path: &[Seg],
) -> Result<(), ScenarioError> {
    // Before the rulebook parser exists the bundle has no clauses; then
    // citations cannot be checked here (the citation test still runs).
    if let Some(b) = book
        && !b.clauses.is_empty()
        && b.get(id).is_none()
    {
        let near =
            crate::rulebook::address::nearest(id, b.clauses.iter().map(|c| c.id.as_str()), 5);
        return Err(cx.err(
            path,
            format!("no clause `{id}` in the bundled {} rulebook", b.meta.game),
            Some(format!("nearest ids: {}", near.join(", "))),
        ));
    }
    Ok(())
}

fn validate_def(
    cx: &Ctx,
    module: &dyn GameModule,
    path: &[Seg],
    d: &CardDef,
    defs: &BTreeMap<String, CardDef>,
) -> Result<(), ScenarioError> {
    let at = |rest: &[Seg]| [path, rest].concat();
    if !module.card_types().contains(&d.card_type.as_str()) {
        return Err(cx.err(
            &at(&[k("type")]),
            format!("unknown card type `{}`", d.card_type),
            one_of("types", module.card_types()),
        ));
    }
    for (i, kw) in d.keywords.iter().enumerate() {
        if !module.keywords().contains(&kw.as_str()) {
            return Err(cx.err(
                &at(&[k("keywords"), Seg::Index(i)]),
                format!("unknown keyword `{kw}`"),
                one_of("keywords", module.keywords()),
            ));
        }
    }
    for s in d.stats.keys() {
        if !module.stats().contains(&s.as_str()) {
            return Err(cx.err(
                &at(&[k("stats"), k(s)]),
                format!("unknown stat `{s}`"),
                one_of("stats", module.stats()),
            ));
        }
    }
    for s in d.text.keys() {
        if !module.text_fields().contains(&s.as_str()) {
            return Err(cx.err(
                &at(&[k("text"), k(s)]),
                format!("unknown text field `{s}`"),
                if module.text_fields().is_empty() {
                    Some("this game declares no text fields".into())
                } else {
                    one_of("text fields", module.text_fields())
                },
            ));
        }
    }
    // The alternate face is checked as the card showing it.
    if let Some(face) = &d.alternate {
        validate_def(cx, module, &at(&[k("alternate")]), &d.showing(face), defs)?;
    }
    if let Some(r) = super::vocabulary::refusal(module, d) {
        return Err(cx.err(&at(&r.path), r.message, Some(r.help)));
    }
    for (i, ab) in d.abilities.iter().enumerate() {
        let ap = at(&[k("abilities"), Seg::Index(i)]);
        if !module.triggers().contains(&ab.trigger.as_str()) {
            return Err(cx.err(
                &[ap.as_slice(), &[k("trigger")]].concat(),
                format!("unknown trigger `{}`", ab.trigger),
                one_of("triggers", module.triggers()),
            ));
        }
        if let Some(count) = ab.condition.as_ref().and_then(|c| c.count.as_deref())
            && !module.condition_counts().is_empty()
            && !module.condition_counts().contains(&count)
        {
            return Err(cx.err(
                &[ap.as_slice(), &[k("condition"), k("count")]].concat(),
                format!("unknown count `{count}`"),
                one_of("counts", module.condition_counts()),
            ));
        }
        for (j, e) in ab.effect.iter().enumerate() {
            let ep = [ap.as_slice(), &[k("effect"), Seg::Index(j)]].concat();
            match e {
                Effect::ChangeValue { value, .. }
                    if !module.values().iter().any(|v| v.name == value) =>
                {
                    let names: Vec<&str> = module.values().iter().map(|v| v.name).collect();
                    return Err(cx.err(
                        &[ep.as_slice(), &[k("value")]].concat(),
                        format!("unknown value `{value}`"),
                        one_of("values", &names),
                    ));
                }
                Effect::SetState { state, .. }
                    if !module.card_states().contains(&state.as_str()) =>
                {
                    return Err(cx.err(
                        &[ep.as_slice(), &[k("state")]].concat(),
                        format!("unknown card state `{state}`"),
                        one_of("states", module.card_states()),
                    ));
                }
                Effect::Restrict { types, .. }
                    if types
                        .iter()
                        .any(|t| !module.card_types().contains(&t.as_str())) =>
                {
                    return Err(cx.err(
                        &[ep.as_slice(), &[k("types")]].concat(),
                        format!("unknown card type in `types`: {}", types.join(", ")),
                        one_of("types", module.card_types()),
                    ));
                }
                Effect::Summon { card, .. } if !defs.contains_key(card) => {
                    return Err(cx.err(
                        &[ep.as_slice(), &[k("card")]].concat(),
                        format!("unknown card `{card}`"),
                        Some("the token's definition must be in `cards`".into()),
                    ));
                }
                Effect::Become { card, .. } if !defs.contains_key(card) => {
                    return Err(cx.err(
                        &[ep.as_slice(), &[k("card")]].concat(),
                        format!("unknown card `{card}`"),
                        Some(
                            "the description the card is treated as having must be in `cards`"
                                .into(),
                        ),
                    ));
                }
                Effect::Damage { amount, .. } | Effect::Draw { amount, .. }
                    if !(-1000..=1000).contains(amount) =>
                {
                    return Err(cx.err(
                        &[ep.as_slice(), &[k("amount")]].concat(),
                        format!("value out of range: amount = {amount}"),
                        Some("between -1000 and 1000".into()),
                    ));
                }
                Effect::Summon { count, .. } if !(0..=100).contains(count) => {
                    return Err(cx.err(
                        &[ep.as_slice(), &[k("count")]].concat(),
                        format!("value out of range: count = {count}"),
                        Some("between 0 and 100".into()),
                    ));
                }
                _ => {}
            }
            if let Some(
                Target::Chosen { filter, .. } | Target::All { filter } | Target::Random { filter },
            ) = e.target()
            {
                let tp = [ep.as_slice(), &[k("target")]].concat();
                for t in &filter.types {
                    if !module.card_types().contains(&t.as_str()) {
                        return Err(cx.err(
                            &tp,
                            format!("unknown card type `{t}`"),
                            one_of("types", module.card_types()),
                        ));
                    }
                }
                if let Some(z) = &filter.zone
                    && !module.zones().iter().any(|s| s.name == z)
                {
                    let names: Vec<&str> = module.zones().iter().map(|z| z.name).collect();
                    return Err(cx.err(
                        &tp,
                        format!("unknown zone `{z}`"),
                        one_of("zones", &names),
                    ));
                }
                if let Some(s) = &filter.state
                    && !module.card_states().contains(&s.as_str())
                {
                    return Err(cx.err(
                        &tp,
                        format!("unknown card state `{s}`"),
                        one_of("states", module.card_states()),
                    ));
                }
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_text_field_the_game_does_not_declare_is_rejected_with_its_path() {
        let src = r#"{"game": "sve", "name": "t", "source": "t",
            "cards": {"a": {"name": "A", "type": "spell", "text": {"caster": "X"}}},
            "state": {"turn": {"player": "p1", "phase": "main", "number": 1}, "players": {}},
            "actions": []}"#;
        let Err(e) = load_str("t.json", src, None) else {
            panic!("a scenario with an undeclared text field was accepted");
        };
        assert!(
            e.message.contains("unknown text field `caster`"),
            "{}",
            e.message
        );
        assert_eq!(e.path.as_deref(), Some("cards.a.text.caster"));
    }

    #[test]
    fn json_offset_counts_bytes_after_japanese() {
        // serde_json reports the column after the bad string value, counted
        // in bytes; each kana/kanji before it on the line is 3 bytes.
        let src = "{\n  \"name\": \"攻撃テスト\", \"seed\": \"x\"\n}";
        let e = serde_json::from_str::<Scenario>(src).unwrap_err();
        let off = json_offset(src, e.line(), e.column());
        assert!(src.is_char_boundary(off));
        assert_eq!(
            &src[off - 2..=off],
            "\"x\"",
            "caret on the bad value, got {:?}",
            &src[off..]
        );
        // A character count instead of bytes would land 10 bytes further on.
        assert_eq!(json_offset("ab\ncd", 2, 1), 3);
        assert_eq!(json_offset("ab\ncd", 2, 0), 3);
        assert_eq!(json_offset("あ", 1, 2), 0, "moved back to a char boundary");
    }
}

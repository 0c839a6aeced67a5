//! The `state` section: turn, players' values and flags, zones and the
//! cards in them, attachments.

use std::collections::BTreeMap;

use super::{Ctx, ScenarioError, k, one_of};
use crate::engine::state::{TOKEN_PREFIX, parse_player};
use crate::engine::{Card, CardDef, CardId, DefKey, Game, PlayerId, ZoneId};
use crate::games::GameModule;
use crate::scenario::Scenario;
use crate::scenario::format::{CardEntry, ZoneDef};
use crate::scenario::locate::Seg;

/// Player `s` of `n`, or an error at `path`.
pub(super) fn parse_p(
    cx: &Ctx,
    n: usize,
    s: &str,
    path: &[Seg],
) -> Result<PlayerId, ScenarioError> {
    parse_player(s, n).ok_or_else(|| {
        cx.err(
            path,
            format!("unknown player `{s}`"),
            Some(format!("players are p1 to p{n}")),
        )
    })
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

/// The number of the token id `id` (`token.N`) on a board: only a card
/// written `"token": true` may have one (a board `judge run --dump-at`
/// wrote keeps the id the run gave each token, which the file's later
/// actions name). The loader then numbers the tokens the run creates past
/// it, so no two share an id.
fn token_number(id: &str, token: bool) -> Result<u32, String> {
    let n = id
        .strip_prefix(TOKEN_PREFIX)
        .and_then(|n| n.parse::<u32>().ok())
        .filter(|n| *n > 0 && id == format!("{TOKEN_PREFIX}{n}"));
    match n {
        Some(n) if token => Ok(n),
        Some(_) => Err(format!(
            "`{id}` is the id of a token the engine created: only a card written `\"token\": true` may have it"
        )),
        None => Err(format!(
            "`{id}` cannot be a card id: ids starting with `token.` are reserved for the tokens the engine creates (`token.1`, `token.2`…)"
        )),
    }
}

/// The initial game: the board the `state` section describes.
/// A turn number that does not belong to the turn player, in a game of two
/// (turn 1 is the first player's, turns alternate). A warning, not an
/// error: a ruling may not care, and a judge sees the slip.
pub(super) fn turn_order_warning(game: &Game) -> Option<String> {
    if game.players.len() != 2 {
        return None;
    }
    let t = &game.turn;
    let expected = if t.number % 2 == 1 {
        t.first
    } else {
        game.opponent(t.first)
    };
    (expected != t.active).then(|| {
        format!(
            "turn {} is {}'s turn when {} goes first (`state.turn.number` counts both players' turns from 1), but `state.turn.player` is {}",
            t.number,
            crate::engine::player_name(expected),
            crate::engine::player_name(t.first),
            crate::engine::player_name(t.active)
        )
    })
}

/// The `state.in_progress` section: checked by the game against the
/// board, kept for its `start` hook.
pub(super) fn in_progress(
    cx: &Ctx,
    module: &dyn GameModule,
    scenario: &Scenario,
    game: &mut Game,
) -> Result<(), ScenarioError> {
    let Some(v) = &scenario.state.in_progress else {
        return Ok(());
    };
    module
        .check_in_progress(game, v)
        .map_err(|why| cx.err(&[k("state"), k("in_progress")], why, None))?;
    game.in_progress = Some(v.clone());
    Ok(())
}

pub(super) fn build_game(
    cx: &Ctx,
    module: &dyn GameModule,
    scenario: &Scenario,
    defs: BTreeMap<String, CardDef>,
) -> Result<Game, ScenarioError> {
    let n = module.players_for(scenario.state.players.len());
    let mut game = Game::new(module.zones(), n, scenario.seed);
    // The ids placed so far: looking each one up in `game.cards` would build
    // its index while every insert still moves it.
    let mut placed: rustc_hash::FxHashSet<CardId> = Default::default();
    // One shared copy of each definition's key, for every card of it.
    let def_keys: rustc_hash::FxHashSet<DefKey> = defs.keys().map(DefKey::from).collect();
    if !scenario.random.is_empty() {
        game.rng.script(scenario.random.clone(), false);
    }
    game.defs = defs.into();
    let st = &scenario.state;
    game.turn.active = parse_p(
        cx,
        n,
        &st.turn.player,
        &[k("state"), k("turn"), k("player")],
    )?;
    if let Some(f) = &st.turn.first {
        game.turn.first = parse_p(cx, n, f, &[k("state"), k("turn"), k("first")])?;
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
    game.turn.phase = st.turn.phase.clone();
    game.turn.number = st.turn.number;
    for p in PlayerId::all(n) {
        for v in module.values() {
            game.set_value(p, v.name, v.default);
        }
    }
    let mut attachments = Vec::new();
    let mut shown: Vec<CardId> = Vec::new();
    let mut given_faces = Vec::new();
    // The cards, added together once read: one sort of the card map.
    let mut placing = Vec::new();
    for (pname, pdef) in &st.players {
        let ppath = [k("state"), k("players"), k(pname)];
        let p = parse_p(cx, n, pname, &ppath)?;
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
                    one_of("flags", &module.player_flags()),
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
            // Each entry: its id, its card key, its full form, and where its
            // card key is written (`None`: the zone's `card`, a count
            // zone). Paths are built only for an error: a 40-card deck
            // would otherwise build 80 paths per file.
            #[allow(clippy::type_complexity)]
            let entries: Vec<(
                Option<String>,
                &str,
                Option<&crate::scenario::format::CardInstanceDef>,
                Option<usize>,
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
                        .map(|_| (None, c.card.as_deref().unwrap_or("?"), None, None))
                        .collect()
                }
                ZoneDef::Cards(list) => list
                    .iter()
                    .enumerate()
                    .map(|(i, e)| match e {
                        CardEntry::Key(key) => (None, key.as_str(), None, Some(i)),
                        CardEntry::Full(f) => {
                            (f.id.clone(), f.card.as_str(), Some(f.as_ref()), Some(i))
                        }
                    })
                    .collect(),
            };
            for (i, (id, def, full, listed)) in entries.into_iter().enumerate() {
                let epath = || [zpath.as_slice(), &[Seg::Index(i)]].concat();
                let Some(def) = def_keys.get(def).cloned() else {
                    let names: Vec<&str> = game.defs.keys().map(String::as_str).collect();
                    let dpath = match (listed, full) {
                        (None, _) => [zpath.as_slice(), &[k("card")]].concat(),
                        (Some(_), None) => epath(),
                        (Some(_), Some(_)) => [epath().as_slice(), &[k("card")]].concat(),
                    };
                    return Err(cx.err(
                        &dpath,
                        format!("unknown card `{def}`"),
                        one_of("cards", &names),
                    ));
                };
                // An id the loader makes (`p1.deck.3`) is never a reserved
                // word; only a written one is checked.
                let written = id.is_some();
                let id = id.unwrap_or_else(|| listed_id(pname, zname, i + 1));
                if written && let Some(why) = reserved_id(&id) {
                    return Err(cx.err(
                        &[epath().as_slice(), &[k("id")]].concat(),
                        format!("`{id}` cannot be a card id: {why}"),
                        Some("choose another id, e.g. `k1` or `knight`".into()),
                    ));
                }
                // One copy of the id's text, shared by the set, the card and
                // its zone.
                let id = CardId::from(id);
                if !placed.insert(id.clone()) {
                    return Err(cx.err(
                        &epath(),
                        format!("duplicate card id `{id}`"),
                        Some(
                            "every card needs its own id; ids starting with `token.` are reserved"
                                .into(),
                        ),
                    ));
                }
                if id.starts_with(TOKEN_PREFIX) {
                    let n = token_number(&id, full.is_some_and(|f| f.token))
                        .map_err(|why| cx.err(&epath(), why, None))?;
                    game.next_token = game.next_token.max(n);
                }
                let mut card = Card::new(id.clone(), def, p, zone.clone());
                if let Some(f) = full {
                    if let Some(o) = &f.owner {
                        card.owner =
                            parse_p(cx, n, o, &[epath().as_slice(), &[k("owner")]].concat())?;
                    }
                    for (j, s) in f.state.iter().enumerate() {
                        if !module.card_states().contains(&s.as_str()) {
                            return Err(cx.err(
                                &[epath().as_slice(), &[k("state"), Seg::Index(j)]].concat(),
                                format!("unknown card state `{s}`"),
                                one_of("states", module.card_states()),
                            ));
                        }
                        card.states.insert(s.clone());
                    }
                    if f.damage < 0 {
                        return Err(cx.err(
                            &[epath().as_slice(), &[k("damage")]].concat(),
                            format!("value out of range: damage = {}", f.damage),
                            Some("damage is 0 or more".into()),
                        ));
                    }
                    if f.damage != 0
                        && let Some(hint) = module.spec().board_damage_refused
                    {
                        return Err(cx.err(
                            &[epath().as_slice(), &[k("damage")]].concat(),
                            format!("`damage` is not kept on a {} card", module.id()),
                            Some(hint.into()),
                        ));
                    }
                    card.damage = f.damage;
                    for (c, v) in &f.counters {
                        if *v < 0 {
                            return Err(cx.err(
                                &[epath().as_slice(), &[k("counters"), k(c)]].concat(),
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
                                &[epath().as_slice(), &[k("alternate")]].concat(),
                                format!("`{}` has no alternate face", card.def),
                                Some("give the card definition an `alternate` face".into()),
                            ));
                        }
                        shown.push(id.clone());
                    }
                    if let Some(src) = &f.alternate_from {
                        given_faces.push((
                            id.clone(),
                            src.clone(),
                            [epath().as_slice(), &[k("alternate_from")]].concat(),
                        ));
                    }
                    if !f.modifiers.is_empty() {
                        card.modifiers = modifiers(cx, module, &f.modifiers, &epath())?;
                    }
                    if let Some(a) = &f.attached_to {
                        attachments.push((
                            id.clone(),
                            a.clone(),
                            [epath().as_slice(), &[k("attached_to")]].concat(),
                        ));
                    }
                }
                placing.push(card);
            }
        }
    }
    game.add_cards(placing);
    for id in shown {
        game.show_alternate(&id, &id);
    }
    for (id, host, path) in attachments {
        if !game.cards.contains_key(host.as_str()) {
            return Err(cx.err(
                &path,
                format!("unknown card id `{host}`"),
                Some("attached_to names the id of another card in the state".into()),
            ));
        }
        if let Some(c) = game.cards.get_mut(id.as_str()) {
            c.attached_to = Some(host.into());
        }
    }
    for (id, src, path) in given_faces {
        let prints = game.def_of_base(&src).map(|d| d.alternate.is_some());
        match prints {
            None => {
                return Err(cx.err(
                    &path,
                    format!("unknown card id `{src}`"),
                    Some(
                        "alternate_from names the id of the card whose definition prints the face"
                            .into(),
                    ),
                ));
            }
            Some(false) => {
                return Err(cx.err(
                    &path,
                    format!("`{src}` has no alternate face to give"),
                    Some("give its card definition an `alternate` face".into()),
                ));
            }
            Some(true) => {
                game.show_alternate(&id, &src);
            }
        }
    }
    Ok(game)
}

/// The changes already in force on a card (`modifiers`): each duration
/// one the game declares.
fn modifiers(
    cx: &Ctx,
    module: &dyn GameModule,
    defs: &[crate::scenario::format::ModifierDef],
    path: &[Seg],
) -> Result<Vec<crate::engine::state::Modifier>, ScenarioError> {
    let durations = &module.vocabulary().durations;
    let mut out = Vec::new();
    for (i, d) in defs.iter().enumerate() {
        let at = |f: &str| [path, &[k("modifiers"), Seg::Index(i), k(f)]].concat();
        if !durations.admits(d.until.word()) {
            return Err(cx.err(
                &at("until"),
                format!("the game does not model the duration `{}`", d.until.word()),
                one_of("durations", &durations.list(crate::engine::Until::WORDS)),
            ));
        }
        if d.stat.is_empty() || d.source.is_empty() {
            return Err(cx.err(
                &at(if d.stat.is_empty() { "stat" } else { "source" }),
                "a change in force names its characteristic and its source card",
                None,
            ));
        }
        out.push(crate::engine::state::Modifier {
            stat: d.stat.clone(),
            delta: d.delta,
            set: d.set,
            always: d.always,
            until: d.until,
            source: d.source.as_str().into(),
        });
    }
    Ok(out)
}

/// The id of the `n`th card of a player's zone written without ids
/// (`p1.deck.3`). Built by hand: every card of every deck gets one, and
/// `format!` cost a twentieth of a check.
fn listed_id(player: &str, zone: &str, n: usize) -> String {
    use std::fmt::Write;
    let mut id = String::with_capacity(player.len() + zone.len() + 6);
    id.push_str(player);
    id.push('.');
    id.push_str(zone);
    id.push('.');
    let _ = write!(id, "{n}");
    id
}

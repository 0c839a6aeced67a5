//! Writing scenario files: a branch of `judge explore` ([`branch`]) and
//! the state after an action of a run ([`dump`], `judge run --dump-at`).
//! Both are complete files the loader accepts: every card definition
//! inline, no card pool.

use std::collections::BTreeMap;

use serde_json::{Value, json};

use super::Loaded;
use super::format::{
    ActionDef, CardEntry, CardInstanceDef, Checkpoint, Expect, ExpectRejected, ModifierDef,
    PlayerDef, Scenario, StateDef, TurnDef, ZoneDef,
};
use crate::engine::{Game, PlayerId, player_name};

/// `loaded`'s scenario with `actions` and `random` in place of its own,
/// without candidate responses, expecting `expect`.
pub fn branch(
    loaded: &Loaded,
    actions: Vec<ActionDef>,
    random: Vec<u64>,
    expect: Expect,
) -> Scenario {
    Scenario {
        actions,
        random,
        responses: Vec::new(),
        expect,
        ..inline(loaded)
    }
}

/// The definition key of an anonymous card, which the loader adds itself.
const ANONYMOUS: &str = "?";

/// The scenario with its card pool inlined (so the file stands alone).
fn inline(loaded: &Loaded) -> Scenario {
    let cards = loaded
        .game
        .defs
        .iter()
        .filter(|(k, _)| k.as_str() != ANONYMOUS)
        .map(|(k, d)| (k.clone(), (**d).clone()))
        .collect();
    Scenario {
        card_pool: Vec::new(),
        cards,
        ..loaded.scenario.clone()
    }
}

/// The state `game` reached after the file's action `after`, as a
/// scenario: the board (values, flags the file may give, every zone with
/// each card's id, definition, states, damage, counters, attachment,
/// owner and face), whose turn and phase, what is in progress (`progress`,
/// the game's description, [`crate::engine::Open::in_progress`]), the
/// generator where it stands;
/// with the remaining actions when `rest`. The expectation keeps what
/// still holds by construction: the result and final state (with the
/// rest), and the checkpoints and rejections of the remaining actions,
/// renumbered.
pub fn dump(
    loaded: &Loaded,
    game: &Game,
    progress: Option<&Value>,
    after: usize,
    rest: bool,
) -> Scenario {
    let s = &loaded.scenario;
    let (seed, random) = game.rng.continuation();
    let actions: Vec<ActionDef> = if rest {
        s.actions.iter().skip(after + 1).cloned().collect()
    } else {
        Vec::new()
    };
    Scenario {
        name: format!("{} — the state after action {after}", s.name),
        seed,
        random,
        state: StateDef {
            in_progress: progress.cloned(),
            ..board(loaded, game)
        },
        actions,
        responses: Vec::new(),
        expect: if rest {
            without_settled_missing(kept_expectations(&s.expect, after), game)
        } else {
            Expect::default()
        },
        ..inline(loaded)
    }
}

/// The expectations about the actions after `after`, renumbered.
fn kept_expectations(e: &Expect, after: usize) -> Expect {
    let shift = |i: usize| i.checked_sub(after + 1);
    Expect {
        comment: Some(json!(format!(
            "kept from the original file: the result, the final state, and the checkpoints and rejections of the actions after action {after}"
        ))),
        result: e.result.clone(),
        state: e.state.clone(),
        rejected: e
            .rejected
            .iter()
            .filter_map(|r| {
                shift(r.action).map(|action| ExpectRejected {
                    action,
                    rule: r.rule.clone(),
                })
            })
            .collect(),
        checkpoints: e
            .checkpoints
            .iter()
            .filter_map(|c| {
                shift(c.after).map(|after| Checkpoint {
                    after,
                    state: c.state.clone(),
                })
            })
            .collect(),
        ..Expect::default()
    }
}

/// Drops the `"<missing>"` checks on cards that are not on the written
/// board and are not tokens the rest may create (`token.…`): such a card
/// (a token erased before the moment) cannot come back, so the check holds
/// by construction, and the loader refuses it as asserting nothing. A
/// checkpoint or final state left with nothing to assert goes too.
fn without_settled_missing(mut e: Expect, game: &Game) -> Expect {
    let settle = |st: &mut Value| {
        if let Some(Value::Object(cards)) = st.get_mut("cards") {
            cards.retain(|id, v| {
                v.as_str() != Some(super::expect::MISSING)
                    || id.starts_with(crate::engine::state::TOKEN_PREFIX)
                    || game.cards.contains_key(id.as_str())
            });
            if cards.is_empty() {
                st.as_object_mut().map(|o| o.remove("cards"));
            }
        }
        st.as_object().is_none_or(|o| !o.is_empty())
    };
    if let Some(st) = e.state.as_mut()
        && !settle(st)
    {
        e.state = None;
    }
    e.checkpoints.retain_mut(|c| settle(&mut c.state));
    e
}

/// The board of `game` as the file's `state`.
fn board(loaded: &Loaded, game: &Game) -> StateDef {
    let flags = loaded.module.player_flags();
    let players = game
        .seats()
        .map(|(p, pl)| {
            let mut zones = BTreeMap::new();
            for spec in game.zone_specs.iter().filter(|z| !z.shared) {
                let ids = game.zone_of(p, spec.name);
                if !ids.is_empty() {
                    let states = loaded.module.card_states();
                    let cards = ids.iter().map(|id| entry(game, p, id, states)).collect();
                    zones.insert(spec.name.to_string(), ZoneDef::Cards(cards));
                }
            }
            let def = PlayerDef {
                comment: None,
                values: pl.values.clone(),
                zones,
                flags: pl
                    .flags
                    .iter()
                    .filter(|f| flags.contains(&f.as_str()))
                    .cloned()
                    .collect(),
            };
            (player_name(p), def)
        })
        .collect();
    StateDef {
        comment: None,
        turn: TurnDef {
            player: player_name(game.turn.active),
            phase: game.turn.phase.clone(),
            number: game.turn.number,
            first: Some(player_name(game.turn.first)),
        },
        players,
        in_progress: None,
    }
}

/// One card of player `p`'s zone, in full (of its states, those a file
/// may give: the others are the game's own bookkeeping).
fn entry(game: &Game, p: PlayerId, id: &str, states: &[&str]) -> CardEntry {
    let Some(c) = game.card(id) else {
        return CardEntry::Key(id.to_string());
    };
    CardEntry::Full(Box::new(CardInstanceDef {
        id: Some(id.to_string()),
        card: c.def.to_string(),
        state: c
            .states
            .iter()
            .filter(|s| states.contains(&s.as_str()))
            .cloned()
            .collect(),
        damage: c.damage,
        counters: c.counters.clone(),
        attached_to: c.attached_to.as_deref().map(str::to_string),
        token: c.token,
        owner: (c.owner != p).then(|| player_name(c.owner)),
        // Only a face a card's definition prints is written: a description
        // an effect gives (PMV's `become`, 6.1.6) is none, and a board
        // without it is refused as one that does not go on the same way.
        alternate: game.printed_face_source(id) == Some(id),
        alternate_from: game
            .printed_face_source(id)
            .filter(|src| *src != id)
            .map(str::to_string),
        modifiers: c
            .modifiers
            .iter()
            .map(|m| ModifierDef {
                stat: m.stat.clone(),
                delta: m.delta,
                set: m.set,
                always: m.always,
                until: m.until,
                source: m.source.to_string(),
            })
            .collect(),
        comment: None,
    }))
}

/// A scenario as the text of a file (pretty JSON, keys in a fixed order).
pub fn to_text(s: &Scenario) -> String {
    let mut t = serde_json::to_string_pretty(s).unwrap_or_default();
    t.push('\n');
    t
}

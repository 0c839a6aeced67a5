//! Starting a scenario at a priority decision instead of at the beginning
//! of its phase (`state.in_progress`, written by `judge run --dump-at`):
//! who holds priority (1.12.1), the passes in succession (1.12.4), the open
//! interference 干渉 (1.12.5) with its played cards and their targets
//! (5.2.3.d), the attack and the block in it (6.3.4, 6.4.4), which
//! characters are attacking or blocking (6.3.4.e, 6.4.4.d), and what the
//! rules count for the rest of the turn (4.9.1.d: the node set, the normal
//! character, 世界呪符 and dolls played, restrictions "this turn").

use serde::{Deserialize, Serialize};

use super::*;

/// The scenario's description of a priority decision in progress.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct Resume {
    /// The player holding priority (`p1`).
    priority: String,
    /// Passes in succession since the last action (1.12.4, 1.12.9).
    #[serde(default, skip_serializing_if = "is_zero")]
    passes: usize,
    /// The played cards of the interference, oldest first (1.12.5).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    interference: Vec<Played>,
    /// The attacking card that opened the interference (6.3.4.c).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    attack: Option<Object>,
    /// The blocking character (6.4.4).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    blocker: Option<Object>,
    /// The holder got priority as part of the attack, to block (6.4.2.a).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    block_window: bool,
    /// Characters treated as attacking (6.3.4.e).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    attacking: Vec<String>,
    /// Characters treated as blocking (6.4.4.d).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    blocking: Vec<String>,
    /// What the turn has counted so far, lasting until it ends (4.9.1.d),
    /// by the engine's `turn.…` keys (`turn.node_set.p1`: p1 has set a
    /// node this turn, 1.8.2.c).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    this_turn: BTreeMap<String, i64>,
}

/// A played card of the interference.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Played {
    card: String,
    player: String,
    /// Targets chosen at play (5.2.3.d), by effect index.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    targets: BTreeMap<usize, Vec<Object>>,
}

/// A chosen object: a card or player id while it is the object chosen,
/// or `{"left": id}` for a card that has changed zones since (a new
/// object: it is no longer the one chosen, 8.1.3).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
enum Object {
    Same(String),
    Left { left: String },
}

/// The keys of what lasts until the turn ends (4.9.1.d).
const TURN_PREFIX: &str = "turn.";

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// The awaiting decision of `m` as a [`Resume`], when it is a priority
/// decision alone on the step stack whose interference holds only played
/// cards in a play area (an activated effect's entry is not described).
pub(super) fn describe(m: &M) -> Option<Value> {
    let [Step::Priority(p)] = m.stack.as_slice() else {
        return None;
    };
    let g = &m.game;
    let played = |e: &Entry| {
        e.activated.is_none() && g.card(&e.card).is_some_and(|c| c.zone.kind == zn::PLAY)
    };
    if p.nested || !p.chain.iter().all(played) {
        return None;
    }
    let with_state = |s: &str| -> Vec<String> {
        g.cards
            .values()
            .filter(|c| c.has(s))
            .map(|c| c.id.to_string())
            .collect()
    };
    let r = Resume {
        priority: player_name(p.holder),
        passes: p.passes,
        interference: p
            .chain
            .iter()
            .map(|e| Played {
                card: e.card.to_string(),
                player: player_name(e.player),
                targets: e
                    .targets
                    .iter()
                    .map(|(i, ts)| (*i, ts.iter().map(|t| object(g, t)).collect()))
                    .collect(),
            })
            .collect(),
        attack: p.attack.as_ref().map(|t| object(g, t)),
        blocker: p.blocker.as_ref().map(|t| object(g, t)),
        block_window: p.block_window,
        attacking: with_state(st::ATTACKING),
        blocking: with_state(st::BLOCKING),
        this_turn: vars(g)
            .iter()
            .filter(|(k, _)| k.starts_with(TURN_PREFIX))
            .map(|(k, v)| (k.clone(), *v))
            .collect(),
    };
    serde_json::to_value(r).ok()
}

/// How a chosen object is written: the same object, or one that left.
fn object(g: &Game, t: &Tgt) -> Object {
    match g.card(&t.0) {
        Some(c) if c.incarnation != t.1 => Object::Left { left: t.0.clone() },
        _ => Object::Same(t.0.clone()),
    }
}

/// `v` read and checked against the board of `g`.
pub(super) fn parse(g: &Game, v: &Value) -> Result<Resume, String> {
    let r: Resume = serde_json::from_value(v.clone()).map_err(|e| e.to_string())?;
    let n = g.players.len();
    let player = |s: &str| {
        crate::engine::state::parse_player(s, n)
            .ok_or_else(|| format!("unknown player `{s}` (players are p1 to p{n})"))
    };
    player(&r.priority)?;
    let card = |id: &str| {
        g.card(id)
            .map(|_| ())
            .ok_or_else(|| format!("no card `{id}` on the board"))
    };
    let object = |o: &Object| match o {
        Object::Same(id) if crate::engine::state::parse_player(id, n).is_some() => Ok(()),
        Object::Same(id) | Object::Left { left: id } => card(id),
    };
    for e in &r.interference {
        card(&e.card)?;
        if g.card(&e.card).is_some_and(|c| c.zone.kind != zn::PLAY) {
            return Err(format!(
                "`{}` waits on the interference but is not in a play area (3.8)",
                e.card
            ));
        }
        player(&e.player)?;
        e.targets.values().flatten().try_for_each(object)?;
    }
    r.attack.iter().chain(&r.blocker).try_for_each(object)?;
    for id in r.attacking.iter().chain(&r.blocking) {
        card(id)?;
        if g.card(id).is_some_and(|c| c.zone.kind != zn::FIELD) {
            return Err(format!(
                "`{id}` attacks or blocks but is not on the field (6.3.4.e, 6.4.4.d)"
            ));
        }
    }
    if let Some(k) = r.this_turn.keys().find(|k| !k.starts_with(TURN_PREFIX)) {
        return Err(format!(
            "`this_turn` holds what lasts until the turn ends (4.9.1.d), keys `{TURN_PREFIX}…`: not `{k}`"
        ));
    }
    if r.passes >= n {
        return Err(format!(
            "{} passes in succession end the priority (1.12.9): at most {}",
            r.passes,
            n - 1
        ));
    }
    Ok(r)
}

/// Resumes at the decision `r` describes (checked by [`parse`]): the
/// attacking and blocking states set, priority given as it stood.
pub(super) fn resume(m: &mut M, r: Resume) {
    let g = &mut m.game;
    let n = g.players.len();
    let player = |s: &str| crate::engine::state::parse_player(s, n).unwrap_or(PlayerId::P1);
    let tgt = |g: &Game, o: &Object| match o {
        Object::Same(id) => tgt(g, id),
        // Never the same object as any the game will have.
        Object::Left { left } => (left.clone(), u32::MAX),
    };
    for (ids, state) in [(&r.attacking, st::ATTACKING), (&r.blocking, st::BLOCKING)] {
        for id in ids {
            if let Some(c) = g.cards.get_mut(id.as_str()) {
                c.states.insert(state.into());
            }
        }
    }
    vars_mut(g).extend(r.this_turn.iter().map(|(k, v)| (k.clone(), *v)));
    let chain = r
        .interference
        .iter()
        .map(|e| Entry {
            card: e.card.as_str().into(),
            player: player(&e.player),
            targets: e
                .targets
                .iter()
                .map(|(i, ts)| (*i, ts.iter().map(|t| tgt(g, t)).collect()))
                .collect(),
            activated: None,
        })
        .collect();
    let p = Pri {
        holder: player(&r.priority),
        passes: r.passes,
        chain,
        attack: r.attack.as_ref().map(|t| tgt(g, t)),
        blocker: r.blocker.as_ref().map(|t| tgt(g, t)),
        block_window: r.block_window,
        nested: false,
    };
    m.then([Step::Priority(p)]);
}

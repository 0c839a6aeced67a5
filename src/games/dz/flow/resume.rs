//! Starting a scenario with the stack in use (`state.in_progress`, written
//! by `judge run --dump-at`) instead of at the beginning of the phase: the
//! player holding priority and the passes in succession (4.6.2), the stack
//! bottom first (2.23.9) with the cards on it as spells (2.21), the
//! battles in progress with their waiting stacks (3.11.2, 3.11.3), the
//! triggered abilities waiting to be stacked (4.8.2), 即死's delayed
//! abilities (5.2.2), the units played into the central area (2.20.1-6),
//! damage divided as a spell was played (4.7.2-6), the square each card
//! that left the squares was last on (4.2.6), the players whose move
//! resolved this turn (5.13.2), the energy placed this turn (3.7.1) and
//! the "can't" restrictions of resolved spells (4.14.3).
//! Each card an entry names keeps its object number (`objects`), so an
//! object that has since changed zones stays a different object (4.9.2-1).
//!
//! The shape is the module's own state (`flow::Dz`) as JSON: entries are
//! `{"controller": 0, "kind": {"spell": {…}}}`, players by seat index.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::engine::state::parse_player;
use crate::engine::{Card, CardId, Game, PlayerId, ZoneId, player_name};

use super::{Battle, Central, Delayed, Entry, Kind, M, Step, Trig, board, dz, dz_ref};

/// The scenario's description of what is in progress.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct Resume {
    /// The player holding priority (`p1`, `p2`).
    priority: String,
    /// Passes in succession before this one (4.6.2): 0 or 1.
    #[serde(default, skip_serializing_if = "is_zero")]
    passes: u8,
    /// The stack, bottom first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    stack: Vec<Entry>,
    /// The cards in the stack zone, bottom first: each a spell of the
    /// stack or of a battle's waiting stack.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    spells: Vec<StackCard>,
    /// Battles in progress, innermost last.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    battles: Vec<Battle>,
    /// The number the next battle gets.
    #[serde(default, skip_serializing_if = "is_zero")]
    next_battle: u64,
    /// Triggered abilities waiting to be stacked.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    triggered: Vec<Trig>,
    /// 即死's abilities waiting for their battle's end.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    delayed: Vec<Delayed>,
    /// Abilities created to trigger at the end of the turn (4.4.4).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    end_of_turn: Vec<super::target_place::EndOfTurn>,
    /// Units played into the central area (2.20.1-6).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    central: BTreeMap<CardId, Central>,
    /// Damage divided as a spell was played: source → target → amount.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    divided: BTreeMap<CardId, BTreeMap<CardId, i64>>,
    /// The object number of each card named above.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    objects: BTreeMap<CardId, u32>,
    /// The square each card that has left the squares was last on, for
    /// abilities measuring from it (4.2.6, 4.8.4-2, 4.9.2-6).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    last_square: BTreeMap<CardId, Square>,
    /// Players a unit of whom a resolved move put onto a square this turn
    /// (共鳴, 5.13.2).
    #[serde(default, skip_serializing_if = "BTreeSet::is_empty")]
    moved_this_turn: BTreeSet<PlayerId>,
    /// The energy special action was taken this turn (3.7.1).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    energy_done: bool,
    /// "Can't" restrictions created by resolved spells and abilities, in
    /// force until their period ends (4.14.3).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    restrictions: Vec<super::restrict::Restriction>,
}

/// A square named in the description, read back as the module's own name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
struct Square(#[serde(with = "place")] Place);

/// Whether a count is 0 (left out of the file).
fn is_zero<T: Default + PartialEq>(n: &T) -> bool {
    *n == T::default()
}

/// A card on the stack (a shared zone the board does not list).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct StackCard {
    id: CardId,
    /// Its definition.
    card: String,
    owner: String,
    controller: String,
}

/// A square's name (the alias keeps serde from borrowing it from the
/// input: it is read back as the module's own `&'static str`).
pub type Place = &'static str;

/// Serialises a square (battle or base) and reads one back as the
/// module's own name.
pub mod place {
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(s: &&'static str, ser: S) -> Result<S::Ok, S::Error> {
        ser.serialize_str(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(de: D) -> Result<&'static str, D::Error> {
        let s = String::deserialize(de)?;
        named(&s).ok_or_else(|| serde::de::Error::custom(format!("unknown square `{s}`")))
    }

    /// The battle or base square named `s`.
    pub fn named(s: &str) -> Option<&'static str> {
        super::board::square(s).or_else(|| super::board::BASES.iter().copied().find(|b| *b == s))
    }
}

/// [`place`] for an optional square.
pub mod place_opt {
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(s: &Option<&'static str>, ser: S) -> Result<S::Ok, S::Error> {
        match s {
            Some(s) => ser.serialize_some(s),
            None => ser.serialize_none(),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(de: D) -> Result<Option<&'static str>, D::Error> {
        Option::<String>::deserialize(de)?
            .map(|s| {
                super::place::named(&s)
                    .ok_or_else(|| serde::de::Error::custom(format!("unknown square `{s}`")))
            })
            .transpose()
    }
}

/// The cards a stack entry names.
fn entry_refs(k: &Kind, out: &mut BTreeSet<CardId>) {
    let targets = |ts: &Vec<Option<super::Chosen>>, out: &mut BTreeSet<CardId>| {
        out.extend(
            ts.iter()
                .flatten()
                .filter_map(super::Chosen::cards)
                .flatten()
                .map(|t| t.card.clone()),
        );
    };
    match k {
        Kind::Spell {
            card,
            targets: t,
            special,
            ..
        } => {
            out.insert(card.clone());
            targets(t, out);
            if let Some(super::special_play::Special::Muster { by }) = special {
                out.insert(by.clone());
            }
        }
        Kind::Ability {
            source, targets: t, ..
        } => {
            out.insert(source.clone());
            targets(t, out);
        }
        Kind::InstantDeath { source, unit, .. } => {
            out.extend([source.clone(), unit.clone()]);
        }
        Kind::Move { unit, .. } => {
            out.insert(unit.clone());
        }
        Kind::Exchange { hits, .. } => {
            for h in hits {
                out.extend([h.dealer.clone(), h.receiver.clone()]);
            }
        }
        Kind::Plan { .. } => {}
        Kind::EndOfTurn(d) => {
            out.insert(d.source.clone());
            out.extend(d.cards.iter().map(|t| t.card.clone()));
        }
    }
}

/// Every entry of `r`, the battles' waiting stacks and triggers included.
fn entries(r: &Resume) -> impl Iterator<Item = &Kind> {
    r.stack
        .iter()
        .map(|e| &e.kind)
        .chain(r.triggered.iter().map(|t| &t.kind))
        .chain(r.battles.iter().flat_map(|b| {
            b.waiting
                .iter()
                .map(|e| &e.kind)
                .chain(b.waiting_trigs.iter().map(|t| &t.kind))
        }))
}

/// Every card `r` names.
fn refs(r: &Resume) -> BTreeSet<CardId> {
    let mut out = BTreeSet::new();
    for k in entries(r) {
        entry_refs(k, &mut out);
    }
    for b in &r.battles {
        out.extend(b.units.keys().cloned());
        out.extend(b.attackers.iter().cloned());
        out.extend(b.attacked.iter().cloned());
        out.extend(b.dealt_first.iter().cloned());
    }
    for d in &r.delayed {
        out.extend([d.source.clone(), d.unit.clone()]);
    }
    for d in &r.end_of_turn {
        out.insert(d.source.clone());
        out.extend(d.cards.iter().map(|t| t.card.clone()));
    }
    for x in &r.restrictions {
        out.insert(x.source.clone());
        if let super::restrict::Reach::Cards(ts) = &x.reach {
            out.extend(ts.iter().map(|t| t.card.clone()));
        }
    }
    out.extend(r.central.keys().cloned());
    for (source, shares) in &r.divided {
        out.insert(source.clone());
        out.extend(shares.keys().cloned());
    }
    out
}

/// What `m` awaits, when a player holds priority with something in
/// progress (an entry on the stack, a battle, a waiting trigger, a pass):
/// `None` when nothing is, or the stack zone holds a card the description
/// cannot carry (one with states, counters, changes or an attachment).
pub(super) fn describe(m: &M) -> Option<Value> {
    let [Step::Priority(holder)] = m.stack.as_slice() else {
        return None;
    };
    let g = &m.game;
    let d = dz_ref(g).clone();
    let busy = !d.stack.is_empty()
        || !d.battles.is_empty()
        || !d.trigs.is_empty()
        || !d.delayed.is_empty()
        || !d.end_of_turn.is_empty()
        || d.passes > 0
        // What this turn has done that the phase's beginning would not
        // redo: the energy placed (3.7.1), a move resolved (5.13.2).
        || d.energy_done
        || !d.moved_this_turn.is_empty()
        || !d.restrictions.is_empty();
    if !busy || d.event_square.is_some() || d.placing.is_some() || d.target_place.is_some() {
        return None;
    }
    let mut spells = Vec::new();
    for id in g.zones.get(&ZoneId::shared("stack")).into_iter().flatten() {
        let c = g.card(id)?;
        let plain = c.states.is_empty()
            && c.counters.is_empty()
            && c.modifiers.is_empty()
            && c.attached_to.is_none()
            && c.face.is_none()
            && !c.token
            && c.damage == 0;
        if !plain {
            return None;
        }
        spells.push(StackCard {
            id: c.id.clone(),
            card: c.def.to_string(),
            owner: player_name(c.owner),
            controller: player_name(c.controller),
        });
    }
    let mut r = Resume {
        priority: player_name(*holder),
        passes: d.passes,
        stack: d.stack,
        spells,
        battles: d.battles,
        next_battle: d.next_battle,
        triggered: d.trigs,
        delayed: d.delayed,
        end_of_turn: d.end_of_turn,
        central: d.central,
        divided: d.divided,
        objects: BTreeMap::new(),
        last_square: d
            .last_square
            .iter()
            .filter(|(id, _)| g.card(id).is_some())
            .map(|(id, sq)| (id.clone(), Square(sq)))
            .collect(),
        moved_this_turn: d.moved_this_turn,
        energy_done: d.energy_done,
        restrictions: d.restrictions,
    };
    r.objects = refs(&r)
        .into_iter()
        .filter_map(|id| g.card(&id).map(|c| (id, c.incarnation)))
        .collect();
    serde_json::to_value(r).ok()
}

/// The spells `v` creates in the stack zone (none when it does not read:
/// [`parse`] says why).
pub(super) fn created(v: &Value) -> Vec<String> {
    serde_json::from_value::<Resume>(v.clone())
        .map(|r| r.spells.into_iter().map(|s| s.id.to_string()).collect())
        .unwrap_or_default()
}

/// `v` read and checked against the board of `g`.
pub(super) fn parse(g: &Game, v: &Value) -> Result<Resume, String> {
    let r: Resume = serde_json::from_value(v.clone()).map_err(|e| e.to_string())?;
    let n = g.players.len();
    let seat = |s: &str, what: &str| {
        parse_player(s, n).ok_or_else(|| format!("{what} `{s}` is not a player (p1 … p{n})"))
    };
    seat(&r.priority, "priority")?;
    if r.passes > 1 {
        return Err(format!(
            "passes {}: two passes in succession end the priority round (4.6.2), so at most 1 is in progress",
            r.passes
        ));
    }
    let mut on_stack = BTreeSet::new();
    for s in &r.spells {
        seat(&s.owner, "owner")?;
        seat(&s.controller, "controller")?;
        if g.card(&s.id).is_some() || !on_stack.insert(s.id.clone()) {
            return Err(format!(
                "spell `{}`: a card on the stack is listed once, not on the board too",
                s.id
            ));
        }
        if g.defs.get(&s.card).is_none() {
            return Err(format!("spell `{}`: no card definition `{}`", s.id, s.card));
        }
    }
    let mut played = BTreeSet::new();
    for k in entries(&r) {
        match k {
            Kind::Spell { card, .. } if !played.insert(card.clone()) => {
                return Err(format!("`{card}` is played as a spell twice"));
            }
            Kind::Ability { def, .. } if g.defs.get(def).is_none() => {
                return Err(format!(
                    "an ability read from `{def}`: no such card definition"
                ));
            }
            _ => {}
        }
        if let Kind::Spell { card, .. } = k
            && !on_stack.contains(card)
        {
            return Err(format!(
                "`{card}` is on the stack as a spell but not in `spells` (2.21)"
            ));
        }
    }
    if let Some(s) = on_stack.iter().find(|s| !played.contains(*s)) {
        return Err(format!(
            "`{s}` is in `spells` but no stack entry plays it (2.21)"
        ));
    }
    for id in refs(&r)
        .iter()
        .chain(r.objects.keys())
        .chain(r.last_square.keys())
    {
        if g.card(id).is_none() && !on_stack.contains(id) {
            return Err(format!(
                "`{id}` is named in progress but is no card of the board"
            ));
        }
    }
    if let Some(p) = r.moved_this_turn.iter().find(|p| p.index() >= n) {
        return Err(format!("moved_this_turn: {p} is no seat"));
    }
    for (i, e) in r.stack.iter().enumerate() {
        if e.controller.index() >= n {
            return Err(format!(
                "stack entry {i}: controller {} is no seat",
                e.controller
            ));
        }
    }
    Ok(r)
}

/// Resumes with `r` (checked by [`parse`]): the stack's cards put back
/// on it, the objects numbered as they were, AP or the holder with
/// priority.
pub(super) fn resume(m: &mut M, r: Resume) {
    let n = m.game.players.len();
    let seat = |s: &str| parse_player(s, n).unwrap_or_default();
    for s in &r.spells {
        let zone = ZoneId::shared("stack");
        m.game.add_card(Card {
            controller: seat(&s.controller),
            ..Card::new(s.id.clone(), s.card.clone(), seat(&s.owner), zone.clone())
        });
    }
    for (id, inc) in &r.objects {
        if let Some(c) = m.game.cards.get_mut(id) {
            c.incarnation = *inc;
        }
    }
    board::number_arrivals(&mut m.game);
    let d = dz(&mut m.game);
    d.passes = r.passes;
    d.stack = r.stack;
    d.battles = r.battles;
    d.next_battle = r.next_battle;
    d.trigs = r.triggered;
    d.delayed = r.delayed;
    d.end_of_turn = r.end_of_turn;
    d.central = r.central;
    d.divided = r.divided;
    d.last_square = r.last_square.into_iter().map(|(id, s)| (id, s.0)).collect();
    d.moved_this_turn = r.moved_this_turn;
    d.energy_done = r.energy_done;
    d.restrictions = r.restrictions;
    m.then([Step::Priority(seat(&r.priority))]);
}

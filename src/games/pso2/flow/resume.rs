//! Starting a scenario at a player's right to act 行動権 (103.6) instead
//! of at the beginning of its phase (`state.in_progress`, written by
//! `judge run --dump-at`): the window it is offered in, who holds it
//! (103.6.1.4), the passes in a row (103.6.1.7), what waits in the shared
//! resolution zone, oldest first (406.1, 103.6.1.7: the newest resolves
//! first) with the targets chosen as it was put there (406.2.2.1), and the
//! battle in progress (506) with its attacker and attack targets.
//!
//! A played card waiting in the resolution zone is in no player's zone, so
//! the board of a scenario cannot hold it: its entry here names the card
//! instance, its definition, owner, states and X (209.3.1), and the
//! instance is created in the resolution zone as the scenario starts.
//! A target or battle card that has left its zone since it was chosen is
//! written `{"left": id}`: it is a new object (400.6), no longer the one
//! chosen.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::lasting::{self, Lasting};
use super::{Battle, Chosen, Ctx, Entry, EntryKind, Foe, M, Phase, Step, Window, zn};
use crate::engine::state::parse_player;
use crate::engine::{Card, CardId, Game, PlayerId, ZoneId, player_name};

/// The scenario's description of a right to act in progress.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Resume {
    /// The window: `main`, `rule` (a rule-only phase in which a trigger
    /// was placed, 103.6.1.2), `battle_start`, `attack_participation`,
    /// `engagement`, `damage_resolution`, `turn_end`.
    window: String,
    /// For `rule`: the phase that begins when the window closes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    next: Option<String>,
    /// The player holding the right to act (`p1`).
    holder: String,
    /// Passes in a row since the last action (103.6.1.7).
    #[serde(default, skip_serializing_if = "is_zero")]
    passes: usize,
    /// The resolution zone, oldest first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    resolution: Vec<Waiting>,
    /// The battle in progress (506).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    battle: Option<BattleDef>,
    /// The raid battle's bookkeeping of the boss turn, when any is kept
    /// (RAID:B①–④).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    raid: Option<RaidDef>,
    /// What lasts beside the board: turn locks, restrictions, delayed
    /// abilities, lost abilities ([`super::lasting`]).
    #[serde(default, skip_serializing_if = "Lasting::is_empty")]
    lasting: Lasting,
    /// The pairs of cards resolved 交戦する effects made engage, waiting
    /// for their engagement step, in the order they resolved (GL:交戦する,
    /// 506.5.2; [`super::battle::engage_resolved`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    engage: Vec<[String; 2]>,
}

/// What the raid battle keeps beside the board ([`super::raid::RaidState`]):
/// the boss turn's target player (RAID:B①), the cards the Boss still plays
/// (RAID:B③), its attackers still to attack (RAID:B④; absent until the
/// battle phase lines them up), the entry order of its charas and the
/// order they were put in the back row, the last order number given,
/// Easy's Half Doll used (RAID:F1), and the turn player eliminated during
/// their own turn, the game moving straight to the end phase (RAID:F5).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct RaidDef {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    target: Option<String>,
    #[serde(default, skip_serializing_if = "is_zero_i64")]
    plays: i64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    queue: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    entries: BTreeMap<String, u64>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    back_order: BTreeMap<String, u64>,
    #[serde(default, skip_serializing_if = "is_zero_u64")]
    seq: u64,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    half_doll_used: bool,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    to_end: bool,
}

fn is_zero_i64(n: &i64) -> bool {
    *n == 0
}

fn is_zero_u64(n: &u64) -> bool {
    *n == 0
}

/// The raid's bookkeeping as written, `Some(None)` when there is none to
/// write, `None` when it holds what a file cannot give (Boss actives
/// waiting to join the zone).
fn raid_def(g: &Game) -> Option<Option<RaidDef>> {
    if !super::raid::on(g) {
        return Some(None);
    }
    let Some(s) = super::state::read(g).map(|s| &s.raid) else {
        return Some(None);
    };
    if !s.pending.is_empty() {
        return None;
    }
    let d = RaidDef {
        target: Some(player_name(s.target)),
        plays: s.plays,
        queue: s
            .queue
            .as_ref()
            .map(|q| q.iter().map(|c| c.to_string()).collect()),
        entries: s.entries.iter().map(|(c, n)| (c.to_string(), *n)).collect(),
        back_order: s
            .back_order
            .iter()
            .map(|(c, n)| (c.to_string(), *n))
            .collect(),
        seq: s.seq,
        half_doll_used: s.half_doll_used,
        to_end: s.to_end,
    };
    Some(Some(d))
}

/// One entry of the resolution zone.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Waiting {
    /// `card` (a played card, 504.2), `ability` (a triggered or activated
    /// ability), `war_cry` (302.1@2), `double_attack` (302.5), `pierce`
    /// (GL:貫通X).
    kind: String,
    /// The card: the played card's instance, or the card of the ability.
    card: String,
    /// The player who put it there (300.6).
    master: String,
    /// `card`: the definition key, when not the instance id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    def: Option<String>,
    /// `card`: its owner, when not the master.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    owner: Option<String>,
    /// `card`: its states.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    state: Vec<String>,
    /// `card`: its counters (the X chosen, 209.3.1).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    counters: BTreeMap<String, i64>,
    /// `card`: the mode chosen on declaration (406.3).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    mode: Option<usize>,
    /// `ability`: its index in the definition and its trigger word.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    ability: Option<usize>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    trigger: Option<String>,
    /// `ability`: the X chosen for an ⓧ in its cost (GL:ⓧ), when not 0.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    x: Option<i64>,
    /// `ability`: its card changed zones since the ability was put there
    /// (400.6): 「このカード」 no longer names it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    card_left: bool,
    /// `pierce`: the damaged player and the amount.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    player: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    amount: Option<i64>,
    /// Targets chosen when it was put there (406.2.2.1).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    targets: Vec<Object>,
}

/// The battle in progress.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct BattleDef {
    attacker: Object,
    /// The attacking player.
    side: String,
    /// The attack targets: cards, or `{"player": "p2"}`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    targets: Vec<Object>,
    /// Started by an effect's 交戦する (GL:交戦する): no attacker is set.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    by_effect: bool,
    /// The window a 交戦する came from, when not `main` (`turn_end`, `rule`
    /// with the battle's `next`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    from: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    next: Option<String>,
}

/// A card while it is the object chosen, `{"left": id}` once it has
/// changed zones (400.6), or a player.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
enum Object {
    Same(String),
    Left { left: String },
    Player { player: String },
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// A generation no object has: a card written `left` is never the object
/// chosen again.
const GONE: u32 = u32::MAX;

const WINDOWS: &[(&str, Window)] = &[
    ("main", Window::Main),
    ("battle_start", Window::BattleStart),
    ("attack_participation", Window::Participation),
    ("engagement", Window::Engagement),
    ("damage_resolution", Window::Damage),
    ("turn_end", Window::TurnEnd),
];

/// The phases a `rule` window goes on to, by the name a scenario's
/// `turn.phase` uses.
const PHASES: &[(&str, Phase)] = &[
    ("start", Phase::Start),
    ("draw", Phase::Draw),
    ("pp", Phase::Pp),
    ("main", Phase::Main),
    ("turn_end", Phase::TurnEnd),
    ("refresh", Phase::Refresh),
];

fn window_word(w: Window) -> (&'static str, Option<String>) {
    if let Window::Rule(p) = w {
        let next = PHASES
            .iter()
            .find(|(_, q)| *q == p)
            .map(|(n, _)| n.to_string());
        return ("rule", next);
    }
    let word = WINDOWS
        .iter()
        .find(|(_, x)| *x == w)
        .map_or("main", |(n, _)| n);
    (word, None)
}

/// The object `id` as chosen at generation `generation`.
fn object(g: &Game, id: &str, generation: u32) -> Object {
    if g.card(id).is_some_and(|c| c.incarnation == generation) {
        Object::Same(id.to_string())
    } else {
        Object::Left {
            left: id.to_string(),
        }
    }
}

/// The right to act `m` awaits, when it is all the step stack holds and
/// everything it holds can be written (otherwise not described: a dump
/// then starts at the phase's beginning and is refused if it differs).
pub fn describe(m: &M) -> Option<Value> {
    let [Step::Priority(ctx)] = m.stack.as_slice() else {
        return None;
    };
    let g = &m.game;
    // The main phase's right to act as the phase begins (504.1) is what
    // a scenario starting in `main` gives: nothing to describe.
    let fresh = ctx.window == Window::Main
        && ctx.stack.is_empty()
        && ctx.battle.is_none()
        && ctx.passes == 0
        && ctx.holder == g.turn.active;
    let raid = raid_def(g)?;
    let lasting = lasting::write(g);
    let engage: Vec<[String; 2]> = super::state::read(g)
        .map(|s| {
            s.engage
                .iter()
                .map(|(a, b)| [a.to_string(), b.to_string()])
                .collect()
        })
        .unwrap_or_default();
    if fresh && raid.is_none() && lasting.is_empty() && engage.is_empty() {
        return None;
    }
    let own = super::state::read(g);
    // What the module keeps beside the entries and a file cannot give.
    if own.is_some_and(|s| s.x_pending.is_some() || !s.negated.is_empty()) {
        return None;
    }
    // Every card in the resolution zone is a played card waiting there.
    let waiting_cards = ctx
        .stack
        .iter()
        .filter(|e| matches!(e.kind, EntryKind::Card(_)))
        .count();
    if g.zone(&ZoneId::shared(zn::RESOLUTION)).len() != waiting_cards {
        return None;
    }
    let mut resolution = Vec::new();
    for e in &ctx.stack {
        resolution.push(waiting(g, e)?);
    }
    let battle = match &ctx.battle {
        None => None,
        Some(b) => Some(battle_def(g, b)?),
    };
    let (window, next) = window_word(ctx.window);
    serde_json::to_value(Resume {
        window: window.into(),
        next,
        holder: player_name(ctx.holder),
        passes: ctx.passes,
        resolution,
        battle,
        raid,
        lasting,
        engage,
    })
    .ok()
}

/// The played cards `v` creates in the resolution zone (none when it does
/// not read: [`parse`] says why).
pub fn created(v: &Value) -> Vec<String> {
    serde_json::from_value::<Resume>(v.clone())
        .map(|r| {
            r.resolution
                .into_iter()
                .filter(|w| w.kind == "card")
                .map(|w| w.card)
                .collect()
        })
        .unwrap_or_default()
}

fn waiting(g: &Game, e: &Entry) -> Option<Waiting> {
    let mut w = Waiting {
        kind: String::new(),
        card: String::new(),
        master: player_name(e.master),
        def: None,
        owner: None,
        state: Vec::new(),
        counters: BTreeMap::new(),
        mode: None,
        ability: None,
        trigger: None,
        x: None,
        card_left: false,
        player: None,
        amount: None,
        targets: e
            .targets
            .iter()
            .map(|t| object(g, &t.id, t.generation))
            .collect(),
    };
    match &e.kind {
        EntryKind::Card(id) => {
            let c = g.card(id)?;
            // Only a card waiting in the zone as played, with nothing the
            // entry cannot say.
            if c.zone.kind != zn::RESOLUTION
                || c.token
                || c.damage != 0
                || !c.modifiers.is_empty()
                || c.attached_to.is_some()
                || c.face.is_some()
            {
                return None;
            }
            w.kind = "card".into();
            w.card = id.to_string();
            w.def = (c.def != id.as_str()).then(|| c.def.to_string());
            w.owner = (c.owner != e.master).then(|| player_name(c.owner));
            w.state = c.states.iter().cloned().collect();
            w.counters = c.counters.clone();
            w.mode = super::state::read(g).and_then(|s| s.modes.get(id).copied());
        }
        EntryKind::Ability {
            card,
            def,
            ability,
            trigger,
            x,
            generation,
        } => {
            w.kind = "ability".into();
            w.x = (*x != 0).then_some(*x);
            w.card_left = g.card(card).is_none_or(|c| c.incarnation != *generation);
            w.card = card.to_string();
            w.def = (g.card(card)?.def != *def).then(|| def.clone());
            w.ability = Some(*ability);
            w.trigger = Some(trigger.clone());
        }
        EntryKind::WarCry(id) => {
            w.kind = "war_cry".into();
            w.card = id.to_string();
        }
        EntryKind::DoubleAttack(id) => {
            w.kind = "double_attack".into();
            w.card = id.to_string();
        }
        EntryKind::Pierce {
            card,
            player,
            amount,
        } => {
            w.kind = "pierce".into();
            w.card = card.to_string();
            w.player = Some(player_name(*player));
            w.amount = Some(*amount);
        }
    }
    Some(w)
}

fn battle_def(g: &Game, b: &Battle) -> Option<BattleDef> {
    let generation = |id: &str| {
        b.generations
            .iter()
            .find(|(x, _)| x.as_str() == id)
            .map(|(_, n)| *n)
    };
    let card = |id: &str| object(g, id, generation(id).unwrap_or(GONE));
    Some(BattleDef {
        attacker: card(&b.attacker),
        side: player_name(b.side),
        targets: b
            .targets
            .iter()
            .map(|f| match f {
                Foe::Player(p) => Object::Player {
                    player: player_name(*p),
                },
                Foe::Card(id) => card(id),
            })
            .collect(),
        by_effect: b.by_effect,
        from: (b.from != Window::Main).then(|| window_word(b.from).0.to_string()),
        next: window_word(b.from).1.filter(|_| b.from != Window::Main),
    })
}

/// `v` read and checked against the board of `g`: the window fits the
/// phase, the players are seats still in the game, the cards named exist
/// (a played card's instance is not on the board yet), and each entry
/// gives what its kind needs.
pub fn parse(g: &Game, v: &Value) -> Result<Resume, String> {
    let r: Resume = serde_json::from_value(v.clone()).map_err(|e| e.to_string())?;
    let window = window_of(&r)?;
    let phase = g.turn.phase.as_str();
    let fits = match window {
        Window::Main => phase == "main",
        Window::TurnEnd => phase == "turn_end",
        Window::Rule(_) => phase == "start",
        _ => phase == "battle",
    };
    if !fits {
        return Err(format!(
            "the window `{}` is not one of the phase `{phase}` (main: `main`; start: `rule`; battle: `battle_start`, `attack_participation`, `engagement`, `damage_resolution`; turn_end: `turn_end`)",
            r.window
        ));
    }
    let holder = seat(g, &r.holder)?;
    if g.players[holder].lost {
        return Err(format!(
            "{} has left the game and holds no right to act (RAID:F5)",
            r.holder
        ));
    }
    let in_game = g.players.iter().filter(|p| !p.lost).count();
    if r.passes >= in_game {
        return Err(format!(
            "{} passes in a row: with {in_game} players in the game, the entry or the window would already be over (103.6.1.7)",
            r.passes
        ));
    }
    let mut played = BTreeSet::new();
    for w in &r.resolution {
        check_waiting(g, w, &mut played)?;
    }
    match (&r.battle, window) {
        (Some(_), Window::Main | Window::TurnEnd | Window::Rule(_)) => {
            return Err(
                "a battle is in progress only in the battle phase's steps (506.2.1)".into(),
            );
        }
        (
            None,
            Window::BattleStart | Window::Participation | Window::Engagement | Window::Damage,
        ) => {
            return Err(format!(
                "the window `{}` is a step of a battle: give the `battle`",
                r.window
            ));
        }
        (Some(b), _) => check_battle(g, b, &played)?,
        _ => {}
    }
    if let Some(d) = &r.raid {
        check_raid(g, d)?;
    }
    lasting::check(g, &r.lasting)?;
    for id in r.engage.iter().flatten() {
        if g.card(id).is_none() {
            return Err(format!("`engage`: `{id}` is not a card of this scenario"));
        }
    }
    Ok(r)
}

fn check_raid(g: &Game, d: &RaidDef) -> Result<(), String> {
    if !super::raid::on(g) {
        return Err("`raid` belongs to a raid battle (a seat with the flag `raid_boss`)".into());
    }
    if let Some(t) = &d.target {
        seat(g, t)?;
    }
    if d.plays < 0 {
        return Err("`raid.plays`: the cards the Boss still plays are 0 or more".into());
    }
    let named = d
        .queue
        .iter()
        .flatten()
        .chain(d.entries.keys())
        .chain(d.back_order.keys());
    for id in named {
        if g.card(id).is_none() {
            return Err(format!("`raid`: `{id}` is not a card of this scenario"));
        }
    }
    Ok(())
}

/// Sets the raid's bookkeeping `d` (checked by [`parse`]).
fn resume_raid(m: &mut M, d: &RaidDef) -> Result<(), String> {
    let target = match &d.target {
        Some(t) => seat(&m.game, t)?,
        None => PlayerId(0),
    };
    let s = &mut super::state::of(&mut m.game).raid;
    s.target = target;
    s.plays = d.plays;
    s.queue = d
        .queue
        .as_ref()
        .map(|q| q.iter().map(|c| CardId::from(c.as_str())).collect());
    s.entries = d
        .entries
        .iter()
        .map(|(c, n)| (CardId::from(c.as_str()), *n))
        .collect();
    s.back_order = d
        .back_order
        .iter()
        .map(|(c, n)| (CardId::from(c.as_str()), *n))
        .collect();
    s.seq = d.seq;
    s.half_doll_used = d.half_doll_used;
    s.to_end = d.to_end;
    Ok(())
}

fn window_of(r: &Resume) -> Result<Window, String> {
    named_window(&r.window, r.next.as_deref())
}

/// The window named `window` (with `next` for `rule`).
fn named_window(window: &str, next: Option<&str>) -> Result<Window, String> {
    if window == "rule" {
        let next = next.unwrap_or("");
        return PHASES
            .iter()
            .find(|(n, _)| *n == next)
            .map(|(_, p)| Window::Rule(*p))
            .ok_or_else(|| {
                format!(
                    "a `rule` window names the phase that follows it in `next` (one of {})",
                    names(PHASES.iter().map(|(n, _)| *n))
                )
            });
    }
    if next.is_some() {
        return Err("`next` belongs to a `rule` window only".into());
    }
    WINDOWS
        .iter()
        .find(|(n, _)| *n == window)
        .map(|(_, w)| *w)
        .ok_or_else(|| {
            format!(
                "unknown window `{window}` (one of {}, rule)",
                names(WINDOWS.iter().map(|(n, _)| *n))
            )
        })
}

fn names<'a>(it: impl Iterator<Item = &'a str>) -> String {
    it.collect::<Vec<_>>().join(", ")
}

fn seat(g: &Game, name: &str) -> Result<PlayerId, String> {
    parse_player(name, g.players.len()).ok_or_else(|| {
        format!(
            "`{name}` is not a seat of this game (p1 … p{})",
            g.players.len()
        )
    })
}

fn known(g: &Game, played: &BTreeSet<String>, id: &str) -> Result<(), String> {
    if g.card(id).is_some() || played.contains(id) {
        return Ok(());
    }
    Err(format!("`{id}` is not a card of this scenario"))
}

fn check_waiting(g: &Game, w: &Waiting, played: &mut BTreeSet<String>) -> Result<(), String> {
    seat(g, &w.master)?;
    let card_only = w.def.is_some() && w.kind != "ability"
        || w.owner.is_some()
        || !w.state.is_empty()
        || !w.counters.is_empty()
        || w.mode.is_some();
    let stray = match w.kind.as_str() {
        "card" => false,
        "ability" => card_only,
        "war_cry" | "double_attack" | "pierce" => card_only || w.def.is_some(),
        other => {
            return Err(format!(
                "unknown resolution entry `{other}` (card, ability, war_cry, double_attack, pierce)"
            ));
        }
    };
    if stray
        || (w.kind != "ability"
            && (w.ability.is_some() || w.trigger.is_some() || w.x.is_some() || w.card_left))
        || (w.kind != "pierce" && (w.player.is_some() || w.amount.is_some()))
    {
        return Err(format!(
            "`{}`: a field that belongs to another kind of entry",
            w.kind
        ));
    }
    match w.kind.as_str() {
        "card" => {
            if g.card(&w.card).is_some() || !played.insert(w.card.clone()) {
                return Err(format!(
                    "`{}` waits in the resolution zone: it is in no player's zone, so it appears only here",
                    w.card
                ));
            }
            let def = w.def.as_deref().unwrap_or(&w.card);
            if !g.defs.contains_key(def) {
                return Err(format!("`{def}` is not a card definition of this scenario"));
            }
            if let Some(o) = &w.owner {
                seat(g, o)?;
            }
        }
        "ability" => {
            let c = g
                .card(&w.card)
                .ok_or_else(|| format!("`{}` is not a card of this scenario", w.card))?;
            let def = w.def.as_deref().unwrap_or(&c.def);
            let ability = w
                .ability
                .ok_or("an `ability` entry gives its `ability` index")?;
            if g.ability(def, ability).is_none() {
                return Err(format!("`{def}` has no ability {ability}"));
            }
            if w.trigger.is_none() {
                return Err("an `ability` entry gives its `trigger`".into());
            }
        }
        "pierce" => {
            known(g, played, &w.card)?;
            seat(g, w.player.as_deref().unwrap_or(""))?;
            if w.amount.is_none() {
                return Err("a `pierce` entry gives its `amount`".into());
            }
        }
        _ => known(g, played, &w.card)?,
    }
    for t in &w.targets {
        match t {
            Object::Same(id) | Object::Left { left: id } => known(g, played, id)?,
            Object::Player { .. } => {
                return Err(
                    "a target is a card (a player is chosen through their Player card)".into(),
                );
            }
        }
    }
    Ok(())
}

/// The window a battle returns to (`main` unless a 交戦する came from
/// another).
fn battle_from(b: &BattleDef) -> Result<Window, String> {
    let from = match &b.from {
        None if b.next.is_none() => Window::Main,
        None => return Err("the battle's `next` goes with its `from`".into()),
        Some(w) => named_window(w, b.next.as_deref())?,
    };
    if !matches!(from, Window::Main | Window::TurnEnd | Window::Rule(_))
        || (from != Window::Main && !b.by_effect)
    {
        return Err("a battle returns to the main phase (506.6.4); only one 交戦する started returns to the turn-end step or a start phase's window (`from`)".into());
    }
    Ok(from)
}

fn check_battle(g: &Game, b: &BattleDef, played: &BTreeSet<String>) -> Result<(), String> {
    seat(g, &b.side)?;
    battle_from(b)?;
    for o in std::iter::once(&b.attacker).chain(&b.targets) {
        match o {
            Object::Same(id) | Object::Left { left: id } => known(g, played, id)?,
            Object::Player { player } => {
                seat(g, player)?;
            }
        }
    }
    if matches!(b.attacker, Object::Player { .. }) {
        return Err("the attacker is a card (a chara or a Player card)".into());
    }
    Ok(())
}

/// Resumes at the right to act `r` describes (checked by [`parse`]): the
/// played cards are created in the resolution zone, then the holder is
/// offered the right to act as before (the rule processing it repeats
/// finds nothing new).
pub fn resume(m: &mut M, r: Resume) -> Result<(), String> {
    let window = window_of(&r)?;
    let holder = seat(&m.game, &r.holder)?;
    if let Some(d) = &r.raid {
        resume_raid(m, d)?;
    }
    lasting::restore(m, &r.lasting)?;
    super::state::of(&mut m.game).engage = r
        .engage
        .iter()
        .map(|[a, b]| (CardId::from(a.as_str()), CardId::from(b.as_str())))
        .collect();
    let mut stack = Vec::new();
    for w in &r.resolution {
        stack.push(entry(m, w)?);
    }
    let battle = match &r.battle {
        None => None,
        Some(b) => Some(battle_of(&m.game, b)?),
    };
    m.then([Step::Priority(Box::new(Ctx {
        window,
        stack,
        battle,
        holder,
        passes: r.passes,
    }))]);
    Ok(())
}

/// The current object of `o`, or one no card is (`left`).
fn chosen(g: &Game, o: &Object) -> Chosen {
    match o {
        Object::Same(id) => Chosen {
            id: id.as_str().into(),
            generation: g.card(id).map_or(GONE, |c| c.incarnation),
        },
        Object::Left { left } | Object::Player { player: left } => Chosen {
            id: left.as_str().into(),
            generation: GONE,
        },
    }
}

fn entry(m: &mut M, w: &Waiting) -> Result<Entry, String> {
    let g = &m.game;
    let master = seat(g, &w.master)?;
    let targets = w.targets.iter().map(|t| chosen(g, t)).collect();
    let card: CardId = w.card.as_str().into();
    let kind = match w.kind.as_str() {
        "card" => {
            let owner = w.owner.as_deref().map_or(Ok(master), |o| seat(g, o))?;
            let def = w.def.clone().unwrap_or_else(|| w.card.clone());
            m.game.add_card(Card {
                controller: master,
                states: w.state.iter().cloned().collect(),
                counters: w.counters.clone(),
                ..Card::new(card.clone(), def, owner, ZoneId::shared(zn::RESOLUTION))
            });
            if let Some(mode) = w.mode {
                super::state::of(&mut m.game)
                    .modes
                    .insert(card.clone(), mode);
            }
            EntryKind::Card(card)
        }
        "ability" => EntryKind::Ability {
            generation: if w.card_left {
                GONE
            } else {
                g.card(&card).map_or(0, |c| c.incarnation)
            },
            def: w
                .def
                .clone()
                .or_else(|| g.card(&card).map(|c| c.def.to_string()))
                .unwrap_or_default(),
            card,
            ability: w.ability.unwrap_or_default(),
            trigger: w.trigger.clone().unwrap_or_default(),
            x: w.x.unwrap_or_default(),
        },
        "war_cry" => EntryKind::WarCry(card),
        "double_attack" => EntryKind::DoubleAttack(card),
        _ => EntryKind::Pierce {
            card,
            player: seat(g, w.player.as_deref().unwrap_or(""))?,
            amount: w.amount.unwrap_or_default(),
        },
    };
    Ok(Entry {
        kind,
        master,
        targets,
    })
}

fn battle_of(g: &Game, b: &BattleDef) -> Result<Battle, String> {
    let attacker = chosen(g, &b.attacker);
    let mut generations = vec![(attacker.id.clone(), attacker.generation)];
    let mut targets = Vec::new();
    for o in &b.targets {
        if let Object::Player { player } = o {
            targets.push(Foe::Player(seat(g, player)?));
            continue;
        }
        let t = chosen(g, o);
        generations.push((t.id.clone(), t.generation));
        targets.push(Foe::Card(t.id));
    }
    Ok(Battle {
        attacker: attacker.id,
        side: seat(g, &b.side)?,
        targets,
        generations,
        by_effect: b.by_effect,
        from: battle_from(b)?,
    })
}

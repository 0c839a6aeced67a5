//! Continuous changes of a card's information other than numbers (10.9.1):
//! abilities given or lost (能力を与える／失う, 10.9.1.2: the effect
//! `change_keywords`, keywords only) and non-numeric information changed
//! (名前・カード種類・タイプ・クラス, 10.9.1.3: `change_info`), applied in
//! that order over the base information (10.9.1.1, 10.9.1.1.1) and before
//! the numeric changes (10.9.1.4, `layers::power`).
//!
//! A change comes from a resolved effect (kept with the object it was made
//! to, 10.9.2; its time is when the ability was played, 10.9.1.6.2) or from
//! a permanent ability of a card on the field with `this` or `all` (its
//! time is when that card was put on the field, 10.9.1.6.1; cards on the
//! board when the scenario starts arrived in the order the file lists them,
//! `p1` first). Within a layer an effect whose set of cards another effect
//! of that layer would change applies after it (10.9.1.5); otherwise the
//! earlier applies first (10.9.1.6). A permanent ability's `all` may name
//! another zone (a hand, the cemetery): a card there has the change from
//! the moment it enters (10.9.3). An effect's filter reads the information
//! as the layers before it left it (a filter of a 10.9.1.2 effect does not
//! see a trait given by 10.9.1.3).

use std::borrow::Cow;
use std::collections::BTreeMap;

use super::*;
use crate::engine::CardDef;

/// The other reading of 10.9.1: the filter of a change of abilities
/// (10.9.1.2) reads name, card type, traits and text as 10.9.1.3 leaves
/// them, instead of the judges' reading (as the layers before it left them).
pub const FILTER_READS_CHANGED_INFO: &str = "reading_ability_filter_reads_changed_info";

/// Rounds of the other reading tried before a result that never settles
/// (a filter undoing the change it reads) is refused.
const ROUNDS: usize = 8;

/// A change of information a resolved effect made (10.9.1.2, 10.9.1.3),
/// kept with the object it was made to (10.9.2).
#[derive(Debug, Clone)]
pub struct InfoChange {
    /// The card changed.
    pub card: CardId,
    /// The object it was (a card that changes zones is a new object).
    pub incarnation: u32,
    /// The `change_keywords` or `change_info` effect.
    pub effect: Effect,
    /// When it was made (the game's clock, 10.9.1.6.2).
    pub at: u64,
    /// The card whose ability made it.
    pub source: CardId,
}

/// When an effect arose (10.9.1.6): the game's clock, then, for cards on
/// the board before the run (clock 0), the seat and the position in the
/// zone.
type Time = (u64, usize, usize);

/// Which cards one continuous change applies to.
#[derive(Debug, Clone)]
enum Scope {
    /// The card a resolved effect changed.
    Fixed(CardId),
    /// A permanent ability's `this` or `all`, read from the information
    /// as the layers so far left it.
    Ability {
        target: Box<Target>,
        master: PlayerId,
        source: CardId,
    },
}

/// One continuous change waiting to be applied in its layer.
#[derive(Debug, Clone)]
struct Layered {
    effect: Effect,
    scope: Scope,
    at: Time,
    source: CardId,
}

/// The information each card has after 10.9.1.2 and 10.9.1.3.
pub(super) type View = BTreeMap<CardId, CardDef>;

/// The layer of a change: 10.9.1.2 (abilities) or 10.9.1.3.
pub(super) fn layer_of(e: &Effect) -> Option<&'static str> {
    match e {
        Effect::ChangeKeywords { .. } | Effect::GainAbility { .. } => Some(r::CONTINUOUS_ABILITIES),
        Effect::ChangeInfo { .. } => Some(r::CONTINUOUS_NON_NUMERIC),
        _ => None,
    }
}

/// Whether `e` is a change this module applies as a permanent ability:
/// `this`, or `all` without a choice.
pub(super) fn supported_permanent(e: &Effect) -> bool {
    layer_of(e).is_some()
        && !matches!(e, Effect::GainAbility { .. })
        && matches!(e.target(), Some(Target::This | Target::All { .. }))
}

/// A keyword or card type in a change that SVE does not have, in an
/// ability of definition `def`: refused (the clause on card information).
pub(super) fn unknown_word(def: &str, e: &Effect) -> Option<(&'static str, String)> {
    use crate::games::GameModule;
    let words: Vec<&String> = match e {
        Effect::ChangeKeywords { gain, lose, .. } => gain.iter().chain(lose).collect(),
        _ => Vec::new(),
    };
    if let Some(w) = words
        .iter()
        .find(|w| !super::super::Sve.keywords().contains(&w.as_str()))
    {
        return Some((
            r::CONTINUOUS_ABILITIES,
            format!(
                "the keyword `{w}` in `change_keywords` of `{def}` (SVE keywords only; another ability is given with `gain_ability`)"
            ),
        ));
    }
    if let Effect::ChangeInfo {
        card_type: Some(t), ..
    } = e
        && !["follower", "amulet", "spell"].contains(&t.as_str())
    {
        return Some((
            r::CONTINUOUS_NON_NUMERIC,
            format!("the card type `{t}` in `change_info` of `{def}`"),
        ));
    }
    None
}

/// The base information of a card (10.9.1.1): printed, or while it is on
/// the field with an evolve card attached, the evolve card's (10.9.1.1.1).
pub(super) fn base_def<'g>(g: &'g Game, id: &str) -> Option<&'g CardDef> {
    eff_def_key(g, id)
        .and_then(|k| g.defs.get(&k))
        .map(|d| &**d)
}

/// The information a card has now: the base, then the changes of
/// 10.9.1.2 and 10.9.1.3.
pub(super) fn info<'g>(g: &'g Game, id: &str) -> Option<Cow<'g, CardDef>> {
    let base = base_def(g, id)?;
    Some(match info_view(g).and_then(|mut view| view.remove(id)) {
        Some(d) => Cow::Owned(d),
        None => Cow::Borrowed(base),
    })
}

/// The information of every card some continuous change of information
/// (10.9.1.2, 10.9.1.3) reaches now, computed once: `None` when no change
/// is in effect. A card missing from it has its base information. For
/// callers that read many cards at one moment (the loop fingerprint), where
/// [`info`] would apply every layer again for each card.
pub(super) fn info_view(g: &Game) -> Option<View> {
    if !any_change_possible(g) {
        return None;
    }
    let changes = layered(g);
    if changes.is_empty() {
        return None;
    }
    Some(apply_all(g, &changes).0.0)
}

/// Whether any continuous change of information can be in effect: one a
/// resolved effect made, or a permanent ability some definition of the game
/// prints. `info` is asked on every keyword and type check, and most games
/// have no such change; [`layered`] would look at every card on the field
/// to find that out.
fn any_change_possible(g: &Game) -> bool {
    g.own_ref::<SveState>()
        .is_some_and(|st| !st.info_changes.is_empty())
        || g.defs.prints_ability(|a| {
            a.trigger == "permanent" && a.effect.iter().any(supported_permanent)
        })
}

/// The arrival time of a card on the field (10.9.1.6.1).
fn arrival(g: &Game, id: &str) -> Time {
    let Some(c) = g.card(id) else {
        return (0, 0, 0);
    };
    if let Some(st) = g.own_ref::<SveState>()
        && let Some(&(inc, at)) = st.arrivals.get(id)
        && inc == c.incarnation
    {
        return (at, 0, 0);
    }
    let pos = g.zone(&c.zone).iter().position(|x| x == id).unwrap_or(0);
    (0, c.controller.index(), pos)
}

/// Notes that `id` was put on the field now (10.9.1.6.1).
pub(super) fn arrived(g: &mut Game, id: &str) {
    let Some(inc) = g.card(id).map(|c| c.incarnation) else {
        return;
    };
    let st = g.own::<SveState>();
    st.clock += 1;
    let at = st.clock;
    st.arrivals.insert(id.into(), (inc, at));
}

/// Every continuous change of information in effect now.
fn layered(g: &Game) -> Vec<Layered> {
    let mut out = Vec::new();
    if let Some(st) = g.own_ref::<SveState>() {
        for ch in &st.info_changes {
            if g.card(&ch.card)
                .is_some_and(|c| c.incarnation == ch.incarnation)
            {
                out.push(Layered {
                    effect: ch.effect.clone(),
                    scope: Scope::Fixed(ch.card.clone()),
                    at: (ch.at, 0, 0),
                    source: ch.source.clone(),
                });
            }
        }
    }
    let tp = g.turn.active;
    for p in [tp, g.opponent(tp)] {
        for id in g.zone_of(p, zn::FIELD) {
            let Some(d) = base_def(g, id) else { continue };
            for ab in d.abilities.iter().filter(|a| a.trigger == "permanent") {
                if !ab.effect.iter().any(supported_permanent)
                    || ab.condition.as_ref().is_some_and(|c| !holds(g, c, p, id).0)
                {
                    continue;
                }
                for e in ab.effect.iter().filter(|e| supported_permanent(e)) {
                    out.push(Layered {
                        effect: e.clone(),
                        scope: Scope::Ability {
                            target: Box::new(e.target().cloned().unwrap_or(Target::This)),
                            master: p,
                            source: id.clone(),
                        },
                        at: arrival(g, id),
                        source: id.clone(),
                    });
                }
            }
        }
    }
    out
}

/// The zones whose cards a change may reach: the fields, the zones a
/// permanent ability's `all` names (10.9.3), the cards changed.
fn universe(g: &Game, changes: &[Layered]) -> View {
    let mut kinds: BTreeSet<&str> = BTreeSet::from([zn::FIELD]);
    let mut ids: Vec<CardId> = Vec::new();
    for ch in changes {
        match &ch.scope {
            Scope::Fixed(id) => ids.push(id.clone()),
            Scope::Ability { target, .. } => {
                if let Target::All { filter } = &**target
                    && let Some(z) = &filter.zone
                {
                    kinds.insert(z.as_str());
                }
            }
        }
    }
    for p in g.player_ids() {
        for k in &kinds {
            ids.extend(g.zone_of(p, k).iter().cloned());
        }
    }
    ids.into_iter()
        .filter_map(|id| base_def(g, &id).map(|d| (id, d.clone())))
        .collect()
}

/// The cards `ch` applies to, reading `view`; under the other reading a
/// 10.9.1.2 change reads name, type, traits and text from `later` (the
/// information after 10.9.1.3 of the previous round).
fn scope(g: &Game, view: &View, ch: &Layered, later: Option<&View>) -> Vec<CardId> {
    match &ch.scope {
        Scope::Fixed(id) => vec![id.clone()],
        Scope::Ability { target, source, .. } if matches!(**target, Target::This) => {
            vec![source.clone()]
        }
        Scope::Ability {
            target,
            master,
            source,
        } => {
            let Target::All { filter } = &**target else {
                return Vec::new();
            };
            let later = later.filter(|_| layer_of(&ch.effect) == Some(r::CONTINUOUS_ABILITIES));
            let read = |id: &str| {
                let d = view.get(id)?;
                Some(match later.and_then(|l| l.get(id)) {
                    Some(l) => Cow::Owned(with_info_of(d, l)),
                    None => Cow::Borrowed(d),
                })
            };
            candidates_by(g, &read, filter, *master, source, false, false)
                .into_iter()
                .map(CardId::from)
                .collect()
        }
    }
}

/// `d` with the non-numeric information (10.9.1.3) of `l`.
fn with_info_of(d: &CardDef, l: &CardDef) -> CardDef {
    let mut out = d.clone();
    out.name = l.name.clone();
    out.card_type = l.card_type.clone();
    out.traits = l.traits.clone();
    out.text = l.text.clone();
    out
}

/// The parts of a `change_info`.
struct Fields<'a> {
    name: &'a Option<String>,
    card_type: &'a Option<String>,
    traits: &'a [String],
    replace_traits: &'a bool,
    text: &'a BTreeMap<String, String>,
}

fn fields(e: &Effect) -> Option<Fields<'_>> {
    match e {
        Effect::ChangeInfo {
            name,
            card_type,
            traits,
            replace_traits,
            text,
            ..
        } => Some(Fields {
            name,
            card_type,
            traits,
            replace_traits,
            text,
        }),
        _ => None,
    }
}

/// Applies change `e` to the information `d`.
fn change(d: &mut CardDef, e: &Effect) {
    match e {
        Effect::ChangeKeywords { gain, lose, .. } => {
            d.keywords.retain(|k| !lose.contains(k));
            for k in gain {
                if !d.keywords.contains(k) {
                    d.keywords.push(k.clone());
                }
            }
        }
        Effect::ChangeInfo { .. } => {
            let Some(Fields {
                name,
                card_type,
                traits,
                replace_traits,
                text,
            }) = fields(e)
            else {
                return;
            };
            if let Some(n) = name {
                d.name = n.clone();
            }
            if let Some(t) = card_type {
                d.card_type = t.clone();
            }
            if *replace_traits {
                d.traits.clear();
            }
            for t in traits {
                if !d.traits.contains(t) {
                    d.traits.push(t.clone());
                }
            }
            for (k, v) in text {
                d.text.insert(k.clone(), v.clone());
            }
        }
        _ => {}
    }
}

fn apply_one(g: &Game, view: &mut View, ch: &Layered, later: Option<&View>) -> Vec<CardId> {
    let ids = scope(g, view, ch, later);
    for id in &ids {
        if let Some(d) = view.get_mut(id) {
            change(d, &ch.effect);
        }
    }
    ids
}

/// Whether `a` depends on `b` (10.9.1.5): applying `b` first changes the
/// cards `a` applies to.
fn depends(g: &Game, view: &View, a: &Layered, b: &Layered, later: Option<&View>) -> bool {
    if matches!(a.scope, Scope::Fixed(_)) {
        return false;
    }
    let mut after = view.clone();
    apply_one(g, &mut after, b, later);
    scope(g, view, a, later) != scope(g, &after, a, later)
}

/// How the order of one layer was decided, for the trace.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(super) struct Order {
    /// The sources, in the order their changes applied, with the clause
    /// that put each there.
    pub applied: Vec<(CardId, &'static str)>,
}

/// What [`apply_all`] found: the information, the order of each layer,
/// and the cards some change applied to.
type Applied = (View, Vec<(&'static str, Order)>, BTreeSet<CardId>);

/// Applies every change, layer by layer (10.9.1.2, then 10.9.1.3); the
/// filters of 10.9.1.2 read `later` where it is given (the other reading).
fn apply_layers(g: &Game, changes: &[Layered], later: Option<&View>) -> Applied {
    let mut view = universe(g, changes);
    let mut touched = BTreeSet::new();
    let mut orders = Vec::new();
    for layer in [r::CONTINUOUS_ABILITIES, r::CONTINUOUS_NON_NUMERIC] {
        let mut todo: Vec<Layered> = changes
            .iter()
            .filter(|c| layer_of(&c.effect) == Some(layer))
            .cloned()
            .collect();
        todo.sort_by_key(|c| c.at);
        let mut order = Order::default();
        while !todo.is_empty() {
            let free = (0..todo.len()).find(|&i| {
                !todo
                    .iter()
                    .enumerate()
                    .any(|(j, b)| j != i && depends(g, &view, &todo[i], b, later))
            });
            let why = match (free, todo[0].at.0) {
                (Some(i), _) if i > 0 => r::CONTINUOUS_DEPENDENCY,
                (_, 0) => r::CONTINUOUS_PERMANENT_ORDER,
                _ if matches!(todo[0].scope, Scope::Fixed(_)) => r::CONTINUOUS_PLAYED_ORDER,
                _ => r::CONTINUOUS_PERMANENT_ORDER,
            };
            let ch = todo.remove(free.unwrap_or(0));
            touched.extend(apply_one(g, &mut view, &ch, later));
            order.applied.push((ch.source.clone(), why));
        }
        if !order.applied.is_empty() {
            orders.push((layer, order));
        }
    }
    (view, orders, touched)
}

/// Every change applied under the reading in force (see the module doc):
/// the judges' reading in one round; the other reading round after round
/// (`rounds`). The flag is `false` when the other reading never settled.
fn apply_all(g: &Game, changes: &[Layered]) -> (Applied, bool) {
    let literal = apply_layers(g, changes, None);
    if !reading(g, FILTER_READS_CHANGED_INFO) {
        return (literal, true);
    }
    rounds(g, changes, literal)
}

/// The other reading: each round's 10.9.1.2 filters read the information
/// the round before it ended with, until a round changes nothing; `false`
/// when [`ROUNDS`] rounds do not settle it.
fn rounds(g: &Game, changes: &[Layered], first: Applied) -> (Applied, bool) {
    let mut prev = first;
    for _ in 0..ROUNDS {
        let next = apply_layers(g, changes, Some(&prev.0));
        if next.0 == prev.0 {
            return (next, true);
        }
        prev = next;
    }
    (prev, false)
}

/// Whether the question of the readings can arise: a 10.9.1.2 change with
/// a filter (`all`) and some 10.9.1.3 change.
fn readings_can_differ(changes: &[Layered]) -> bool {
    let filtered_ability = changes.iter().any(|c| {
        layer_of(&c.effect) == Some(r::CONTINUOUS_ABILITIES)
            && matches!(&c.scope, Scope::Ability { target, .. } if matches!(**target, Target::All { .. }))
    });
    filtered_ability
        && changes
            .iter()
            .any(|c| layer_of(&c.effect) == Some(r::CONTINUOUS_NON_NUMERIC))
}

/// The cards whose abilities the two readings of the filters tell apart
/// (the module doc), with the note saying which reading decided them.
fn reading_note(g: &Game, changes: &[Layered], applied: &Applied) -> Option<String> {
    if !readings_can_differ(changes) {
        return None;
    }
    let flag = reading(g, FILTER_READS_CHANGED_INFO);
    let other = if flag {
        apply_layers(g, changes, None)
    } else {
        // An other reading that never settles has no answer to compare.
        match rounds(g, changes, applied.clone()) {
            (other, true) => other,
            (_, false) => return None,
        }
    };
    let differ: Vec<String> = applied
        .0
        .iter()
        .filter_map(|(id, d)| {
            let o = other.0.get(id).filter(|o| o.keywords != d.keywords)?;
            Some(format!(
                "{id} has [{}] (the other reading: [{}])",
                d.keywords.join(", "),
                o.keywords.join(", ")
            ))
        })
        .collect();
    if differ.is_empty() {
        return None;
    }
    let cards = differ.join(", ");
    Some(if flag {
        format!(
            "reading `{FILTER_READS_CHANGED_INFO}`: the filters of the changes of abilities (10.9.1.2) read names, types and traits as 10.9.1.3 changed them: {cards}"
        )
    } else {
        format!(
            "judges' reading: the filter of a change of abilities (10.9.1.2) reads the information as the layers before it left it, not the names, types or traits 10.9.1.3 changes after it: {cards}; the other reading is the flag `{FILTER_READS_CHANGED_INFO}`"
        )
    })
}

/// A resolved `change_keywords` / `change_info` (10.9.1.2, 10.9.1.3): each
/// target keeps the change while it stays where it is (10.9.2) and, for
/// `end_of_turn`, until the end of the turn (7.4.8).
pub(super) fn change_info(m: &mut M, eff: &Effect, targets: &[String], this: &str) {
    let Some(layer) = layer_of(eff) else { return };
    for t in targets {
        let Some(inc) = m.game.card(t).map(|c| c.incarnation) else {
            continue;
        };
        let st = m.game.own::<SveState>();
        st.clock += 1;
        let at = st.clock;
        st.info_changes.push(InfoChange {
            card: t.as_str().into(),
            incarnation: inc,
            effect: eff.clone(),
            at,
            source: this.into(),
        });
        let mut rules = vec![r::CONTINUOUS_ORDER, layer];
        if eff.until() != Some(Until::Permanent) {
            rules.push(r::END_DURATIONS);
        }
        if let Effect::ChangeInfo {
            card_type: Some(_), ..
        } = eff
        {
            rules.extend([
                r::TYPE_CHANGE,
                r::TYPE_CHANGE_KEEPS_INFO,
                r::TYPE_CHANGE_KEEPS_ABILITIES,
            ]);
        }
        m.record("effect.info", format!("{t}: {}", describe(eff)), &rules)
            .obj(t.clone());
    }
}

/// What a change does, in words.
fn describe(e: &Effect) -> String {
    let mut parts = Vec::new();
    match e {
        Effect::ChangeKeywords { gain, lose, .. } => {
            if !gain.is_empty() {
                parts.push(format!("gains {}", gain.join(", ")));
            }
            if !lose.is_empty() {
                parts.push(format!("loses {}", lose.join(", ")));
            }
        }
        Effect::ChangeInfo { .. } => {
            let Some(f) = fields(e) else {
                return String::new();
            };
            let (name, card_type, traits, replace_traits, text) =
                (f.name, f.card_type, f.traits, f.replace_traits, f.text);
            if let Some(n) = name {
                parts.push(format!("its name becomes {n}"));
            }
            if let Some(t) = card_type {
                parts.push(format!("its card type becomes {t}"));
            }
            if !traits.is_empty() || *replace_traits {
                let how = if *replace_traits { "become" } else { "gain" };
                parts.push(format!("its traits {how} {}", traits.join(", ")));
            }
            for (k, v) in text {
                parts.push(format!("its {k} becomes {v}"));
            }
        }
        Effect::GainAbility { ability, .. } => {
            parts.push(format!("gains the ability {}", in_words(ability)));
        }
        _ => {}
    }
    let until = match e.until() {
        Some(Until::Permanent) => "while it stays where it is",
        _ => "until the end of the turn",
    };
    format!("{} {until}", parts.join("; "))
}

/// Ends the changes lasting until the end of the turn (7.4.8); returns how
/// many ended.
pub(super) fn end_info_changes(g: &mut Game) -> usize {
    let st = g.own::<SveState>();
    let before = st.info_changes.len();
    st.info_changes
        .retain(|c| !matches!(c.effect.until(), Some(Until::EndOfTurn | Until::ThisTurn)));
    before - st.info_changes.len()
}

/// Drops the changes made to cards that have since changed zones, saying
/// so: they do not apply to the new object (10.9.2).
fn forget_moved(m: &mut M) {
    let Some(st) = m.game.own_ref::<SveState>() else {
        return;
    };
    let (keep, gone): (Vec<InfoChange>, Vec<InfoChange>) =
        st.info_changes.iter().cloned().partition(|ch| {
            m.game
                .card(&ch.card)
                .is_some_and(|c| c.incarnation == ch.incarnation)
        });
    if gone.is_empty() {
        return;
    }
    m.game.own::<SveState>().info_changes = keep;
    for ch in gone {
        m.record(
            "continuous.info",
            format!(
                "{} changed zones: the change {} made to it ({}) does not apply to it any more",
                ch.card,
                ch.source,
                describe(&ch.effect)
            ),
            &[r::CONTINUOUS_STAYS_WITH_CARDS],
        )
        .obj(ch.card.clone());
    }
}

/// Whether some change of abilities (10.9.1.2) applied.
fn keywords_touched(orders: &[(&'static str, Order)]) -> bool {
    orders.iter().any(|(l, _)| *l == r::CONTINUOUS_ABILITIES)
}

/// The conditions of the field's permanent information changes (10.3.3:
/// the text applies only while its condition holds), each with whether it
/// holds now, for the trace.
fn conditions_account(g: &Game) -> Vec<String> {
    let mut out = Vec::new();
    let tp = g.turn.active;
    for p in [tp, g.opponent(tp)] {
        for id in g.zone_of(p, zn::FIELD) {
            let Some(d) = base_def(g, id) else { continue };
            for ab in d.abilities.iter().filter(|a| a.trigger == "permanent") {
                let Some(c) = ab.condition.as_ref() else {
                    continue;
                };
                if !ab.effect.iter().any(supported_permanent) {
                    continue;
                }
                let (ok, _, why) = holds(g, c, p, id);
                out.push(format!(
                    "{id}'s text under a condition: {why}: {}",
                    if ok {
                        "it applies"
                    } else {
                        "it does not apply"
                    }
                ));
            }
        }
    }
    out
}

/// Records, when it differs from what the trace last said, the information
/// the continuous changes give each card now and the order that decided
/// it (10.9.1.2-10.9.1.6, 10.9.3).
pub(super) fn report(m: &mut M) -> R<()> {
    forget_moved(m);
    let changes = layered(&m.game);
    let ((view, orders, touched), note) = if changes.is_empty() {
        ((View::new(), Vec::new(), BTreeSet::new()), None)
    } else {
        let (applied, settled) = apply_all(&m.game, &changes);
        if !settled {
            return Err(EngineError::NotImplemented {
                clause: r::CONTINUOUS_ORDER,
                what: format!(
                    "continuous changes whose filters undo what they read: under `{FILTER_READS_CHANGED_INFO}` they do not settle in {ROUNDS} rounds"
                ),
            });
        }
        let note = reading_note(&m.game, &changes, &applied);
        (applied, note)
    };
    let mut lines = Vec::new();
    let mut rules: Vec<&'static str> = vec![r::CONTINUOUS_ORDER];
    let conditioned = conditions_account(&m.game);
    if !conditioned.is_empty() {
        rules.push(r::CONDITIONAL_TEXT);
    }
    for (id, d) in view.iter().filter(|(id, _)| touched.contains(*id)) {
        let Some(base) = base_def(&m.game, id) else {
            continue;
        };
        let mut diff = Vec::new();
        let given = given_text(&m.game, id);
        if d.keywords != base.keywords || (keywords_touched(&orders) && given.is_none()) {
            diff.push(format!("keywords [{}]", d.keywords.join(", ")));
            rules.push(r::CONTINUOUS_ABILITIES);
        }
        if let Some(g) = given {
            diff.push(g);
            rules.push(r::CONTINUOUS_ABILITIES);
        }
        if d.name != base.name
            || d.card_type != base.card_type
            || d.traits != base.traits
            || d.text != base.text
        {
            diff.push(format!(
                "name {}, type {}, traits [{}]{}",
                d.name,
                d.card_type,
                d.traits.join(", "),
                d.text
                    .iter()
                    .map(|(k, v)| format!(", {k} {v}"))
                    .collect::<String>()
            ));
            rules.push(r::CONTINUOUS_NON_NUMERIC);
        }
        if diff.is_empty() {
            continue;
        }
        let zone = m.game.card(id).map(|c| c.zone.clone());
        if zone.as_ref().is_some_and(|z| z.kind != zn::FIELD) {
            rules.push(r::CONTINUOUS_ZONE);
        }
        let at = zone.map(|z| format!(" (in {z})")).unwrap_or_default();
        lines.push(format!("{id}{at}: {}", diff.join("; ")));
    }
    let mut order_text = Vec::new();
    for (layer, order) in &orders {
        if order.applied.len() < 2 {
            continue;
        }
        order_text.push(format!(
            "{layer}: {}",
            order
                .applied
                .iter()
                .map(|(s, why)| format!("{s} ({why})"))
                .collect::<Vec<_>>()
                .join(" then ")
        ));
        rules.push(r::CONTINUOUS_TIMESTAMP);
        rules.extend(order.applied.iter().map(|(_, why)| *why));
    }
    let mut text = if lines.is_empty() {
        String::new()
    } else if order_text.is_empty() {
        lines.join("; ")
    } else {
        format!(
            "{}; applied in the order {}",
            lines.join("; "),
            order_text.join(", ")
        )
    };
    if !conditioned.is_empty() && !text.is_empty() {
        text.push_str(&format!(" ({})", conditioned.join("; ")));
    }
    let key = format!("{text}{}", note.as_deref().unwrap_or_default());
    let st = m.game.own::<SveState>();
    if st.info_report == key {
        return Ok(());
    }
    st.info_report = key;
    if text.is_empty() {
        let e = m.record(
            "continuous.info",
            "no continuous change of information applies any more",
            &[r::CONTINUOUS_ORDER],
        );
        if !conditioned.is_empty() {
            e.rule(r::CONDITIONAL_TEXT);
            e.text.push_str(&format!(" ({})", conditioned.join("; ")));
        }
        return Ok(());
    }
    if note.is_some() {
        rules.push(r::CONTINUOUS_ABILITIES);
        rules.push(r::CONTINUOUS_NON_NUMERIC);
    }
    rules.sort_unstable();
    rules.dedup();
    let entry = m.record("continuous.info", text, &rules);
    if let Some(n) = note {
        entry.note(n);
    }
    Ok(())
}

/// A change of information in force, written by a dump (flow/resume.rs):
/// made again to `card` as it is now, with a time after every card on
/// the board (the order of the written changes kept).
pub(super) fn restore_change(m: &mut M, card: &str, effect: &Effect, source: &str) {
    let Some(inc) = m.game.card(card).map(|c| c.incarnation) else {
        return;
    };
    keep_definition(m, effect, source);
    let st = m.game.own::<SveState>();
    st.clock += 1;
    let at = st.clock;
    st.info_changes.push(InfoChange {
        card: card.into(),
        incarnation: inc,
        effect: effect.clone(),
        at,
        source: source.into(),
    });
}

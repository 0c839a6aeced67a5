//! Giving a card an ability that is not a keyword (能力を与える, 10.9.1.2:
//! the core `gain_ability`, "gains 'Last Words: …' until the end of the
//! turn"). A resolved effect's change, kept with the object it was made to
//! (10.9.2): it ends with its duration or when the card changes zones, as
//! `change_keywords` does, and is recorded with the other changes of
//! 10.9.1.2 (`info`). The ability itself is kept as a definition of its own
//! (key [`GRANTED`] + a hash of its text) so that, once it triggers, it is
//! played like a printed one; "this card" in it is the card that has it.
//!
//! Triggered abilities only, of the moments a card on the field meets
//! (Last Words and leaving the field read the information the card had on
//! the field, 10.7.4.1.2), and activated ones (8.3.1: played and paid for
//! as a printed one, listed after it for the choice `<card>.activate`),
//! each with or without a condition (10.3.3, checked as the ability starts
//! resolving, as a printed one's) and with or without a per-turn limit
//! (10.7.2.2: counted for the given ability itself, not shared with a
//! printed ability of the card), with "may" or a cost (10.4.7.3) as a
//! printed one (`optional`); a permanent ability giving one and other
//! kinds of ability are refused.

use std::hash::{DefaultHasher, Hash, Hasher};

use super::*;
use crate::engine::{AbilityDef, CardDef};

/// The prefix of the key of a given ability's own definition.
const GRANTED: &str = "granted#";

/// The triggers a given ability may have.
const TRIGGERS: &[&str] = &[
    "activated",
    QUICK_ACTIVATED,
    "last_words",
    "leaves_field",
    "on_attack",
    "on_evolve",
    "start_of_main",
    "start_of_end",
];

/// A given ability the module can't carry out, for the load-time check.
pub(super) fn unsupported(key: &str, effects: &[Effect]) -> Option<(&'static str, String)> {
    effects.iter().find_map(|e| {
        let Effect::GainAbility { ability: a, .. } = e else {
            return None;
        };
        let why = if !TRIGGERS.contains(&a.trigger.as_str()) {
            format!("the trigger `{}`", a.trigger)
        } else if a.optional && !optional::may_on(&a.trigger) {
            // "May" where a printed ability may have it.
            format!("\"may\" on the trigger `{}`", a.trigger)
        } else if a.per_turn.is_some_and(|n| n == 0)
            || (a.per_turn.is_some()
                && !crate::games::sve::SPEC
                    .per_turn_triggers
                    .contains(&a.trigger.as_str()))
        {
            // 10.7.2.2 as on a printed ability: on the triggers SVE lists.
            format!("a per-turn limit on the trigger `{}`", a.trigger)
        } else if !a.cost.is_empty()
            && !["activated", QUICK_ACTIVATED].contains(&a.trigger.as_str())
            && !optional::AUTOMATIC.contains(&a.trigger.as_str())
        {
            format!("a cost on the trigger `{}`", a.trigger)
        } else if let Some(c) = a.cost.iter().find(|e| !supported_cost(e)) {
            format!("the cost action `{}`", c.word())
        } else if let Some(inner) = a.effect.iter().find(|e| {
            matches!(
                e,
                Effect::GainAbility { .. }
                    | Effect::ModifyCost { .. }
                    | Effect::SetCost { .. }
                    | Effect::ModifyDamage { .. }
            )
        }) {
            format!("the effect `{}`", inner.word())
        } else {
            return search::unsupported(key, &a.effect)
                .or_else(|| die::unsupported(key, &a.effect))
                .or_else(|| for_each::unsupported(key, &a.effect))
                .or_else(|| restrict::unsupported(key, false, &a.effect))
                .or_else(|| a.effect.iter().find_map(|e| info::unknown_word(key, e)));
        };
        Some((
            r::CONTINUOUS_ABILITIES,
            format!("an ability given by `{key}` with {why} (given abilities: triggered ones of {}, with a condition, a per-turn limit, \"may\" or a cost (10.4.7.3), or none of these)", TRIGGERS.join(", ")),
        ))
    })
}

/// Whether `def` is a given ability's own definition.
pub(super) fn is_given(def: &str) -> bool {
    def.starts_with(GRANTED)
}

/// The key of the definition holding given ability `a`.
pub(super) fn key_of(a: &AbilityDef) -> String {
    let mut h = DefaultHasher::new();
    serde_json::to_string(a).unwrap_or_default().hash(&mut h);
    format!("{GRANTED}{:016x}", h.finish())
}

/// Gives the targets the ability of `gain_ability` `eff` (10.9.1.2): its
/// definition is kept under its own key, the change recorded with the
/// other changes of information.
pub(super) fn grant(m: &mut M, eff: &Effect, targets: &[String], this: &str) {
    keep_definition(m, eff, this);
    change_info(m, eff, targets, this);
}

/// Keeps the definition of the ability `gain_ability` `eff` of `this`
/// gives, under its own key (once).
pub(super) fn keep_definition(m: &mut M, eff: &Effect, this: &str) {
    let Effect::GainAbility { ability, .. } = eff else {
        return;
    };
    let key = key_of(ability);
    if !m.game.defs.contains_key(&key) {
        // A definition holding only the ability (the giving card's, its
        // other text left out).
        let Some(source) = m.game.card(this).and_then(|c| m.game.defs.get(&c.def)) else {
            return;
        };
        let def = CardDef {
            name: format!("an ability given by {}", source.name),
            abilities: vec![(**ability).clone()],
            keywords: Vec::new(),
            alternate: None,
            ..(**source).clone()
        };
        m.game.defs.insert(key, def);
    }
}

/// The definitions of the abilities given to object `incarnation` of card
/// `id` by effects still in force.
fn given(g: &Game, id: &str, incarnation: u32) -> Vec<String> {
    g.own_ref::<SveState>().map_or_else(Vec::new, |st| {
        st.info_changes
            .iter()
            .filter(|ch| ch.card == id && ch.incarnation == incarnation)
            .filter_map(|ch| match &ch.effect {
                Effect::GainAbility { ability, .. } => Some(key_of(ability)),
                _ => None,
            })
            .collect()
    })
}

/// A given ability in words: `'last_words: draw, damage'`.
pub(super) fn in_words(a: &AbilityDef) -> String {
    let words: Vec<&str> = a.effect.iter().map(Effect::word).collect();
    format!("'{}: {}'", a.trigger, words.join(", "))
}

/// The definitions of the abilities given to card `id` as it is now.
pub(super) fn given_now(g: &Game, id: &str) -> Vec<String> {
    g.card(id)
        .map_or_else(Vec::new, |c| given(g, id, c.incarnation))
}

/// The abilities given to card `id` as it is now, in words, if any.
pub(super) fn given_text(g: &Game, id: &str) -> Option<String> {
    let abilities: Vec<String> = given_now(g, id)
        .iter()
        .filter_map(|k| g.ability(k, 0))
        .map(in_words)
        .collect();
    (!abilities.is_empty()).then(|| format!("given abilities [{}]", abilities.join(", ")))
}

/// The given abilities of card `id` that `trigger` may make pending: those
/// of the object it is, or for leaving the field (Last Words, 10.7.4.1.2)
/// of the object it was there, just before this move. None when `def` is
/// itself a given ability's definition.
pub(super) fn given_for(g: &Game, id: &str, def: &str, trigger: &str) -> Vec<String> {
    let Some(c) = g.card(id) else {
        return Vec::new();
    };
    if is_given(def) {
        return Vec::new();
    }
    let left = ["last_words", "leaves_field"].contains(&trigger);
    match c.incarnation.checked_sub(u32::from(left)) {
        Some(inc) => given(g, id, inc),
        None => Vec::new(),
    }
}

/// The name scenarios use for pending ability `p` (10.7.3): `<card>.<trigger>`,
/// or, for a given ability of a card that also prints an ability with
/// that trigger, `<card>.<trigger>.given`, so that the player's order of
/// the two (and the given one's choices) can be written.
pub(super) fn pending_key(g: &Game, p: &Pending) -> String {
    let key = p.key();
    if !is_given(&p.def) {
        return key;
    }
    let prints = g
        .card(&p.card)
        .and_then(|c| g.defs.get(&c.def))
        .is_some_and(|d| {
            d.abilities
                .iter()
                .any(|a| a.trigger.split('+').any(|t| t == p.trigger))
        });
    if prints { format!("{key}.given") } else { key }
}

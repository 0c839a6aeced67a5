//! Damage modifiers (5.13.2, 10.2.1.3.2): permanent abilities that change
//! damage dealt or taken, applied as replacements (10.10.1) of the damage
//! event, each once (10.10.2.3), by the kinds of damage of 5.13.3.

use super::*;

/// The kinds of damage a modifier may name (5.13.3.1-5.13.3.3).
pub const KINDS: &[&str] = &["attack", "combat", "ability"];

/// The kinds one damage event is (5.13.3): an attacker's damage to a
/// follower is attack and combat damage, to a leader attack damage only;
/// the target's damage back is combat damage; any other is ability damage.
pub(super) fn kinds_of(kind: &str, to_leader: bool) -> &'static [&'static str] {
    match (kind, to_leader) {
        ("attack", false) => &["attack", "combat"],
        ("attack", true) => &["attack"],
        ("combat", _) => &["combat"],
        _ => &["ability"],
    }
}

/// The cards or leaders a permanent ability's selector designates (no
/// choice is made by a permanent ability).
fn designated(g: &Game, t: &Target, master: PlayerId, this: &str) -> Vec<String> {
    match t {
        Target::This => vec![this.to_string()],
        Target::Player { who } => who_players(g, master, *who)
            .into_iter()
            .map(leader_key)
            .collect(),
        Target::All { filter } => candidates(g, filter, master, this, false, false),
        _ => Vec::new(),
    }
}

/// The damage `source` deals to `recipient` (a card id or `pN.leader`),
/// of engine kind `kind`, after every modifier that applies (5.13.2).
/// Records the replacement when one applies.
pub(super) fn modified(m: &mut M, source: &str, recipient: &str, kind: &str, base: i64) -> R<i64> {
    let kinds = kinds_of(kind, parse_leader(recipient).is_some());
    let mut applied: Vec<(i64, CardId)> = Vec::new();
    let mut any_kind = false;
    for (src, master, e) in permanent_effects(&m.game) {
        let Effect::ModifyDamage {
            amount,
            target,
            dealt,
            kind: k,
        } = e
        else {
            continue;
        };
        if k.as_deref().is_some_and(|k| !kinds.contains(&k)) {
            continue;
        }
        let who = if dealt { source } else { recipient };
        if designated(&m.game, &target, master, &src)
            .iter()
            .any(|x| x == who)
        {
            any_kind |= k.is_none();
            applied.push((amount, src));
        }
    }
    if applied.is_empty() {
        return Ok(base);
    }
    if base <= 0 {
        return Ok(unmodified_zero(m, source, recipient, base, &applied));
    }
    if damage_order_matters(base, &applied) {
        return in_order(m, source, recipient, kinds, any_kind, base, &applied);
    }
    let total = base + applied.iter().map(|(a, _)| a).sum::<i64>();
    let e = m.record(
        "replace.damage",
        format!(
            "{base} {} damage from {source} to {recipient} becomes {total} ({})",
            kinds.join("/"),
            listed(&applied)
        ),
        &[
            r::DAMAGE_MODIFIER,
            r::DAMAGE_KINDS,
            r::REPLACEMENT_KIND,
            r::REPLACED_NEVER_HAPPENED,
        ],
    );
    cite_kinds(e, kinds, any_kind);
    if applied.len() > 1 {
        e.rule(r::REPLACEMENT_ORDER).note(
            "each modifier applies once (10.10.2.3); the affected player orders them (10.10.2), and the order of additions does not change their sum",
        );
    }
    if total <= 0 {
        e.rule(r::IMPOSSIBLE);
        e.text.push_str(": no damage is dealt");
    }
    Ok(total)
}

/// 5.13.3.1-5.13.3.4: which kind this damage is.
fn cite_kinds(e: &mut crate::engine::TraceEntry, kinds: &[&str], any_kind: bool) {
    for k in kinds {
        e.rule(match *k {
            "attack" => r::ATTACK_DAMAGE_KIND,
            "combat" => r::COMBAT_DAMAGE_KIND,
            _ => r::ABILITY_DAMAGE_KIND,
        });
    }
    if any_kind {
        e.rule(r::ANY_DAMAGE_KIND);
    }
}

/// 10.10.2: modifiers whose order changes the damage, applied one by one
/// in the order the affected player decides; once the damage is 0 or
/// less it is no damage, and the rest have nothing to replace.
fn in_order(
    m: &mut M,
    source: &str,
    recipient: &str,
    kinds: &[&str],
    any_kind: bool,
    base: i64,
    applied: &[(i64, CardId)],
) -> R<i64> {
    let (ordered, decider, dealer) = order_damage(m, source, recipient, applied)?;
    let (amount, used) = apply_in_order(base, &ordered);
    let mut text = format!(
        "{} orders the modifiers of {base} {} damage from {source} to {recipient}: {}; it becomes {amount}",
        player_name(decider),
        kinds.join("/"),
        listed(&ordered[..used])
    );
    if used < ordered.len() {
        text.push_str(&format!(
            ": no damage is dealt, and {} has nothing left to replace",
            listed(&ordered[used..])
        ));
    }
    let e = m.record(
        "replace.damage",
        text,
        &[
            r::DAMAGE_MODIFIER,
            r::DAMAGE_KINDS,
            r::REPLACEMENT_KIND,
            r::REPLACED_NEVER_HAPPENED,
            r::REPLACEMENT_ORDER,
            r::REPLACEMENT_ORDER_ACTION,
            r::REPLACEMENT_ONCE,
        ],
    );
    cite_kinds(e, kinds, any_kind);
    if amount <= 0 {
        e.rule(r::IMPOSSIBLE);
    }
    e.note(if dealer {
        format!("reading `{DAMAGE_ORDER_BY_DEALER}`: the player dealing the damage (the master of {source}) orders the modifiers")
    } else {
        format!("10.10.2.2 names the player carrying out the action or the master of the card it is applied to; read as the damaged player, whom the damage affects (10.10.2) (flag `{DAMAGE_ORDER_BY_DEALER}`: the master of {source}, dealing it)")
    });
    Ok(amount)
}

/// Damage of 0 or less is no damage: no damage event happens, so a
/// modifier, which replaces dealing the damage (5.13.2, 10.10.1), has
/// nothing to replace, and a "+1" never turns an attack of 0 into 1
/// (12.14.2.1 speaks of an attack of 0 dealing no damage; the maker's card
/// Q&A of 大妖狐・ギンセツ(EVOLVE), BP06-074, answers so).
fn unmodified_zero(
    m: &mut M,
    source: &str,
    recipient: &str,
    base: i64,
    applied: &[(i64, CardId)],
) -> i64 {
    let by = listed(applied);
    m.record(
        "replace.damage",
        format!("{base} damage from {source} to {recipient} is no damage: nothing is dealt, so the modifiers ({by}) have nothing to replace"),
        &[r::DAMAGE_MODIFIER, r::BANE_ZERO],
    );
    base
}

/// The modifiers that apply, for the trace: "+1 by c, -2 by d".
fn listed(applied: &[(i64, CardId)]) -> String {
    applied
        .iter()
        .map(|(a, s)| format!("{a:+} by {s}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Whether a permanent ability's damage modifier is one this module
/// applies: a selector without a choice, a known kind.
pub(super) fn supported_modifier(e: &Effect) -> bool {
    match e {
        Effect::ModifyDamage { target, kind, .. } => {
            matches!(
                target,
                Target::This | Target::All { .. } | Target::Player { .. }
            ) && kind.as_deref().is_none_or(|k| KINDS.contains(&k))
        }
        _ => false,
    }
}

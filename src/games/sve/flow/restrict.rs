//! "Can't attack" (攻撃できない): a follower an effect keeps from attacking
//! has no attack target it can choose (8.4.3.2.1), so choosing it to attack
//! is illegal and the game goes back to before it was chosen (8.4.3.2). A
//! prohibition wins over anything allowing the attack (1.3.3: Storm, Rush,
//! evolving this turn).
//!
//! Both sources use the core's `restrict` effect, `action: attack`, with a
//! `target`:
//! - a resolved effect (`chosen`, `all`, `this`): a modifier `cant_attack`
//!   on each follower it reaches now (an `all` does not reach later
//!   arrivals, 10.9.2), ending with the turn (`end_of_turn`, 7.4.8) or when
//!   the follower changes zones (a new object, 10.9.2);
//! - a permanent ability (永続能力, 10.1.1.3) of a card on the field, `this`
//!   or `all`: while that card is on the field (and its condition holds), it
//!   reaches whatever matches at each moment.
//!
//! A player's restriction (no `target`) and the other actions (playing,
//! drawing, moving) are not implemented.

use super::*;
use crate::engine::Restricted;

/// The modifier a resolved "can't attack" puts on a follower.
const CANT_ATTACK: &str = "cant_attack";

/// The restriction of `ab`'s effects the module can't apply, for the
/// load-time check: any `restrict` but "this / these followers can't
/// attack" (a permanent ability: `this` or `all` only).
pub(super) fn unsupported(
    key: &str,
    permanent: bool,
    effects: &[Effect],
) -> Option<(&'static str, String)> {
    effects.iter().find_map(|e| {
        let Effect::Restrict { action, target, .. } = e else {
            return None;
        };
        let ok = *action == Restricted::Attack
            && match target {
                Some(Target::This | Target::All { .. }) => true,
                Some(_) => !permanent,
                None => false,
            };
        (!ok).then(|| {
            (
                r::PROHIBITION_WINS,
                format!(
                    "the restriction `{}` of `{key}` (SVE implements \"can't attack\" on followers: `action: attack` with a `target`, `this` or `all` in a permanent ability)",
                    serde_json::to_string(e).unwrap_or_default()
                ),
            )
        })
    })
}

/// Applies a resolved "can't attack" to the followers `targets`.
pub(super) fn apply_restrict(m: &mut M, eff: &Effect, targets: &[String], this: &str) {
    let Effect::Restrict { until, .. } = eff else {
        return;
    };
    let lasts = match until {
        Until::Permanent => "while it stays on the field",
        _ => "until the end of the turn",
    };
    for t in targets {
        if !on_field(&m.game, t) {
            continue;
        }
        let Some(c) = m.game.cards.get_mut(t.as_str()) else {
            continue;
        };
        c.modifiers.push(Modifier {
            stat: CANT_ATTACK.into(),
            delta: 1,
            set: false,
            always: false,
            until: *until,
            source: this.into(),
        });
        let mut rules = vec![r::CANT_ATTACK, r::CONTINUOUS_STAYS_WITH_CARDS];
        if *until != Until::Permanent {
            rules.push(r::END_DURATIONS);
        }
        m.record(
            "effect.restrict",
            format!("{t} can't attack ({lasts})"),
            &rules,
        )
        .obj(t.clone());
    }
}

/// The card whose effect keeps `follower` from attacking, if any
/// (8.4.3.2.1): a resolved restriction on it, or a permanent ability of a
/// card on the field reaching it now.
pub(super) fn cant_attack(g: &Game, follower: &str) -> Option<CardId> {
    let c = g.card(follower)?;
    if let Some(md) = c.modifiers.iter().find(|md| md.stat == CANT_ATTACK) {
        return Some(md.source.clone());
    }
    let tp = g.turn.active;
    for p in [tp, g.opponent(tp)] {
        for id in g.zone_of(p, zn::FIELD) {
            let Some(d) = base_def(g, id) else { continue };
            for ab in d.abilities.iter().filter(|a| a.trigger == "permanent") {
                if ab
                    .condition
                    .as_ref()
                    .is_some_and(|cd| !holds(g, cd, p, id).0)
                {
                    continue;
                }
                let reaches = ab.effect.iter().any(|e| match e {
                    Effect::Restrict {
                        action: Restricted::Attack,
                        target: Some(t),
                        ..
                    } => match t {
                        Target::This => id == follower,
                        Target::All { filter } => candidates(g, filter, p, id, false, false)
                            .iter()
                            .any(|x| x == follower),
                        _ => false,
                    },
                    _ => false,
                });
                if reaches {
                    return Some(id.clone());
                }
            }
        }
    }
    None
}

/// The rejection of an attack by a follower that can't attack (8.4.3.2,
/// 8.4.3.2.1; 1.3.3 where something else would have allowed it).
pub(super) fn refuse_attack(
    g: &Game,
    attacker: &str,
    source: &str,
    alternatives: Vec<String>,
) -> EngineError {
    let from = if source == attacker {
        "its own ability".to_string()
    } else {
        format!("an effect of {source}")
    };
    illegal(
        r::CANT_ATTACK,
        format!(
            "{attacker} can't attack ({from}): it has no attack target it can choose, so the attack is illegal and the game goes back to before it was chosen (8.4.3.2){}",
            if has_kw(g, attacker, "storm") || has_kw(g, attacker, "rush") {
                "; the prohibition wins over its Storm or Rush (1.3.3)"
            } else {
                ""
            }
        ),
        alternatives,
    )
}

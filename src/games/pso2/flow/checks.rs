//! Rule processing that has no source (103.2.2.1): the loss by deck-out
//! (101.3, 101.7), the standing KO checks (213.3, 215.3.1), concession
//! (101.6), and what the module refuses to run.

use super::{M, hp, ni, r, reading, reading_on, st, types, zn};
use crate::engine::{Action, EngineError, Game, GameResult, PlayerId, player_name, texts};

/// 101.3: a player whose deck is 0 loses, checked whenever no effect or
/// rule is being resolved (between steps). 101.7: when both decks are 0 at
/// that moment, the turn player loses and there is no draw.
pub fn deck_out(m: &mut M) {
    if m.game.result != GameResult::Ongoing {
        return;
    }
    refilled(m);
    if super::raid::on(&m.game) {
        super::raid::checks(m);
        return;
    }
    let n = m.game.players.len();
    let zero: Vec<PlayerId> = PlayerId::all(n)
        .filter(|&p| !m.game.players[p].lost && m.game.zone_of(p, zn::DECK).is_empty())
        .collect();
    if zero.is_empty() {
        return;
    }
    let tp = m.game.turn.active;
    let loser = if zero.len() == 1 {
        m.record(
            "rule_processing",
            format!(
                "{}'s deck is 0: {} loses",
                player_name(zero[0]),
                player_name(zero[0])
            ),
            &[r::DECK_OUT, r::LEAVES_GAME, r::GAME_ENDS],
        );
        zero[0]
    } else if reading_on(&m.game, reading::SEQUENTIAL_DECK_OUT) {
        let first = *zero
            .iter()
            .min_by_key(|p| {
                super::state::read(&m.game)
                    .and_then(|s| s.deck_zero.get(p).copied())
                    .unwrap_or(0)
            })
            .unwrap_or(&zero[0]);
        m.record(
            "rule_processing",
            format!(
                "several decks are 0; under the reading `{}` the deck that reached 0 first loses: {}",
                reading::SEQUENTIAL_DECK_OUT,
                player_name(first)
            ),
            &[r::DECK_OUT, r::BOTH_DECKS_ZERO, r::GAME_ENDS],
        );
        first
    } else {
        let loser = if zero.contains(&tp) { tp } else { zero[0] };
        m.record(
            "rule_processing",
            format!(
                "the decks of {} are 0 at the same check: the turn player {} loses; there is no draw",
                zero.iter().map(|&p| player_name(p)).collect::<Vec<_>>().join(" and "),
                player_name(loser)
            ),
            &[r::DECK_OUT, r::BOTH_DECKS_ZERO, r::GAME_ENDS],
        )
        .note(format!(
            "judges' reading: decks that reach 0 within one resolution are 0 at the same time, since 101.3 checks only after it (option `{}`: the first to reach 0 loses)",
            reading::SEQUENTIAL_DECK_OUT
        ));
        loser
    };
    let deciding: &[&'static str] = if zero.len() == 1 {
        &[r::DECK_OUT]
    } else {
        &[r::DECK_OUT, r::BOTH_DECKS_ZERO]
    };
    lose(m, loser, deciding);
}

/// 101.3 reads the deck once no effect or rule is being resolved: a deck
/// that reached 0 during a resolution and has cards again when it is over
/// loses nothing. The trace says so, and the order it reached 0 in is
/// forgotten (it counts again only if it reaches 0 again).
fn refilled(m: &mut M) {
    let back: Vec<PlayerId> = super::state::read(&m.game)
        .map(|s| {
            s.deck_zero
                .keys()
                .copied()
                .filter(|&p| !m.game.zone_of(p, zn::DECK).is_empty())
                .collect()
        })
        .unwrap_or_default();
    for p in back {
        super::state::of(&mut m.game).deck_zero.remove(&p);
        let n = m.game.zone_of(p, zn::DECK).len();
        m.record(
            "rule_processing",
            format!(
                "{}'s deck reached 0 while an effect was being resolved and holds {n} card(s) now that it is over: {} does not lose",
                player_name(p),
                player_name(p)
            ),
            &[r::DECK_OUT],
        );
    }
}

/// A player leaves the game having lost (101.5); the game ends when one
/// player is left (101.4), on a step of its own citing `deciding`.
fn lose(m: &mut M, p: PlayerId, deciding: &[&'static str]) {
    m.game.players[p].lost = true;
    let mut rules = vec![r::LEAVES_GAME];
    rules.extend_from_slice(deciding);
    super::end::when_one_is_left(m, &rules);
}

/// 101.6: conceding, at any time; it overrides everything (103.1.1).
pub fn concede(m: &mut M, a: &Action) -> Result<(), EngineError> {
    let p = a.player.unwrap_or(m.game.turn.active);
    m.record(
        "concede",
        format!("{} concedes and loses", player_name(p)),
        &[r::CONCEDE, r::GAME_ENDS],
    );
    lose(m, p, &[r::CONCEDE]);
    Ok(())
}

/// Standing checks (213.3, 215.3.1): a chara on the field whose damage is
/// at least its HP, or whose HP is 0 or less through modification, is KO'd
/// at once (unless a replacement effect applies, 103.4.3). Returns the
/// charas destroyed.
pub fn standing_ko(m: &mut M) -> Result<Vec<String>, EngineError> {
    // The HP read below includes continuous abilities as they are now
    // (300.4); the trace first says which of them began or stopped.
    let stopped = super::continuous::note(m);
    let mut out = Vec::new();
    loop {
        let hit = m.game.cards.values().find_map(|c| {
            if c.zone.kind != zn::FIELD || super::ctype(&m.game, &c.id) != types::CHARA {
                return None;
            }
            let h = hp(&m.game, c);
            if h <= 0 {
                Some((
                    c.id.clone(),
                    format!("its HP is {h} through modification"),
                    r::HP_ZERO_KO,
                ))
            } else if c.damage >= h {
                Some((
                    c.id.clone(),
                    format!("its damage {} is at least its HP {h}", c.damage),
                    r::KO,
                ))
            } else {
                None
            }
        });
        let Some((id, why, rule)) = hit else { break };
        if super::moves::destroy(
            m,
            &id,
            &format!("KO: {why}"),
            &[rule, r::KO_KEYWORD, r::RULES_FIRST, r::RULE_NO_SOURCE],
        )? {
            out.push(id);
        }
    }
    if stopped && out.is_empty() {
        nothing_to_do(m, "a continuous ability stopped applying");
    }
    Ok(texts(&out))
}

/// The standing checks ran after `what` changed the charas' HP and
/// destroyed nothing: the trace says so, with the charas that have damage
/// (a non-event: the check found nothing to do).
fn nothing_to_do(m: &mut M, what: &str) {
    let damaged: Vec<String> = m
        .game
        .cards
        .values()
        .filter(|c| c.zone.kind == zn::FIELD && c.damage > 0)
        .filter(|c| super::ctype(&m.game, &c.id) == types::CHARA)
        .map(|c| format!("{} {} of HP {}", c.id, c.damage, hp(&m.game, c)))
        .collect();
    let state = if damaged.is_empty() {
        "no chara on the field has damage".to_string()
    } else {
        format!("damage below HP: {}", damaged.join(", "))
    };
    m.record(
        "rule_processing",
        format!(
            "{what}: the rule processing checks the charas' HP and finds nothing to do ({state})"
        ),
        &[r::KO, r::HP_ZERO_KO, r::RULES_FIRST],
    );
}

/// What the module refuses to run, checked before the first step.
pub fn unsupported(g: &Game) -> Option<EngineError> {
    if let Some(b) = super::raid::boss(g) {
        if b.index() + 1 != g.players.len() {
            return Some(super::bad(format!(
                "the Boss sits after the last party player (RAID:F2): the flag `raid_boss` belongs to p{}",
                g.players.len()
            )));
        }
        if g.players.len() < 3 {
            return Some(super::bad(
                "a raid battle is several party players against the Boss (RAID:P1): seat at least p1, p2 and the Boss",
            ));
        }
    }
    if g.players.len() != 2 && !super::raid::on(g) {
        return Some(ni(
            r::RAID_PARTY,
            "more than two players play only the cooperative raid battle: mark the Boss's seat with the flag `raid_boss`",
        ));
    }
    for c in g.cards.values() {
        let Some(d) = g.def_of(&c.id) else { continue };
        if d.card_type == types::MAG_EVOLUTION && c.zone.kind != zn::MAG {
            return Some(ni(
                r::MAG_EVOLUTION,
                format!(
                    "{} is a 《マグ進化》 card outside the mag zone: such cards start under the Mag (203.4.1); moving them elsewhere is not implemented",
                    c.id
                ),
            ));
        }
        if d.has_keyword("ex") && !matches!(c.zone.kind, zn::FIELD | zn::EXCLUDED) {
            return Some(super::bad(format!(
                "{} is an 【EX】 card in {}: such a card is not in the deck at the start; it starts on the field or outside the game (`excluded`) (RAID:S13)",
                c.id, c.zone
            )));
        }
        if c.has(st::FACE_DOWN) && c.zone.kind != zn::PP {
            return Some(ni(
                r::FACE_DOWN_PP,
                format!(
                    "{} is face down outside PP: only a PP can be face down",
                    c.id
                ),
            ));
        }
        if d.alternate.is_some() {
            return Some(ni(r::CARD_TYPES, "PSO2 cards have no alternate face"));
        }
        for a in &d.abilities {
            let attach_effect =
                d.card_type == types::ACTIVE && d.has_keyword("attach") && a.trigger == "effect";
            if attach_effect
                && a.effect
                    .iter()
                    .filter(|e| !matches!(e, crate::engine::Effect::SelectTargets { .. }))
                    .any(|e| e.target().is_some_and(|t| t.chosen().is_some()))
            {
                return Some(super::bad(format!(
                    "{}: an attach (付与) active's only target is its host, chosen as it is played (204.2.2.2.1): its `effect` names the host with `all` and `region` `host` (or chooses mid-text with `select_targets`)",
                    c.id
                )));
            }
            if let Some(what) = no_such_action(&a.effect) {
                return Some(super::bad(format!(
                    "{}: a `restrict` of `{what}`: PSO2 has no such action (no blocking in the battle of 506, no play area: cards are played into the resolution zone, 504.2)",
                    c.id
                )));
            }
            if let Some(why) = connective_unsupported(&a.effect) {
                return Some(ni(r::GL_IF_DONE, format!("{}: {why}", c.id)));
            }
            if let Some(why) = engage_unsupported(&a.effect) {
                return Some(ni(r::GL_ENGAGE, format!("{}: {why}", c.id)));
            }
            let refusal = match a.trigger.as_str() {
                super::continuous::TRIGGER | super::delayed::CONTINUOUS => {
                    super::continuous::unsupported(&a.effect).map(|w| (r::CONTINUOUS, w))
                }
                super::cost::OWN_COST | super::cost::COST_CHANGE => {
                    super::cost::own_cost_unsupported(&a.effect).map(|w| (r::OWN_COST_EVERY_ZONE, w))
                }
                super::replace::DESTROY => {
                    super::replace::unsupported(&a.effect).map(|w| (r::REPLACEMENT, w))
                }
                super::replace::TO_DISCARD | super::replace::TO_HAND | super::replace::TO_DECK => {
                    super::replace::move_unsupported(&a.effect).map(|w| (r::REPLACEMENT, w))
                }
                // 209.1.3: the cost parts an ability may have.
                t if !a.cost.is_empty()
                    && super::ability_cost::unsupported(&a.cost).is_some() =>
                {
                    super::ability_cost::unsupported(&a.cost).map(|w| {
                        let clause = if t == "activated" {
                            r::ABILITY_COST
                        } else {
                            r::TRIGGER_COST
                        };
                        (clause, w)
                    })
                }
                // A condition on an active's effect or an activated
                // ability's cost is not a condition of application.
                "effect" | "activated" if a.condition.is_some() => Some((
                    r::CONTINUOUS,
                    "a condition on an active's effect or an activated ability is not implemented (only on continuous, triggered and replacement abilities)".to_string(),
                )),
                _ => None,
            };
            if let Some((clause, what)) = refusal {
                return Some(ni(clause, format!("{}: {what}", c.id)));
            }
        }
    }
    None
}

/// What a 交戦する choosing both sides needs: one card on each side
/// (two charas fight, GL:交戦する), and no other `chosen` target in the
/// ability (「それ」 would name both sides at once).
fn engage_unsupported(effects: &[crate::engine::Effect]) -> Option<&'static str> {
    let [a, b] = super::targets::engage_sides(effects)?;
    if [&a, &b].iter().any(|(_, n, up_to, _)| *n != 1 || *up_to) {
        return Some(
            "an `engage` choosing both sides chooses exactly one card on each (`count` 1, not `up_to`)",
        );
    }
    let chosen = effects
        .iter()
        .filter(|e| e.target().is_some_and(|t| t.chosen().is_some()))
        .count();
    (chosen > 1).then_some(
        "an `engage` choosing both sides with another `chosen` target in the same ability (「それ」 would name both sides)",
    )
}

/// The action word of a `restrict` forbidding what PSO2 does not have.
fn no_such_action(effects: &[crate::engine::Effect]) -> Option<&'static str> {
    use crate::engine::{Effect, Restricted};
    effects.iter().find_map(|e| match e {
        Effect::Restrict {
            action: Restricted::Block,
            ..
        } => Some("block"),
        Effect::Restrict {
            action: Restricted::MoveToPlayArea,
            ..
        } => Some("move_to_play_area"),
        _ => None,
    })
}

/// The connectives of a text and of the texts nested in it (a
/// target chosen mid-text), as [`super::connectives::unsupported`].
fn connective_unsupported(effects: &[crate::engine::Effect]) -> Option<String> {
    use crate::engine::Effect;
    super::connectives::unsupported(effects).or_else(|| {
        effects.iter().find_map(|e| match e {
            Effect::SelectTargets { then, .. } => connective_unsupported(then),
            _ => None,
        })
    })
}

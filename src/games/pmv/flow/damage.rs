//! The damage procedure 1.10.12 a–f: the four trigger windows, pierce and instant death, accumulated damage (1.10.13).

use super::*;

/// One damage event.
#[derive(Debug, Clone)]
pub(super) struct Dmg {
    pub(super) source: CardId,
    /// The card or player dealt the damage.
    pub(super) to: Recipient,
    pub(super) amount: i64,
    pub(super) combat: bool,
    pub(super) pierce: bool,
}

/// The damage procedure 1.10.12 a–f for damage dealt at the same time
/// (1.10.3), then removal (chapter 9).
pub(super) fn damage(m: &mut M, batch: Vec<Dmg>) -> R<()> {
    // While a damage procedure runs, accumulated damage reaching durability
    // makes a character 決死 only at its own step f (1.10.12.f), not in the
    // removal sweep of a procedure nested inside it (e.g. pierce at step d).
    m.game.own::<PmvState>().damage_depth += 1;
    let r = damage_inner(m, batch);
    m.game.own::<PmvState>().damage_depth -= 1;
    r?;
    process_removals(m)
}

/// Effect damage from a character with 即死 or 貫通: both trigger only on
/// combat damage (10.8.2.a, 10.5.2.a), so the trace says they do not.
fn combat_keywords_idle(m: &mut M, d: &Dmg) {
    for (kw, name, rule) in [
        ("instant_death", "instant death", r::INSTANT_DEATH),
        ("pierce", "pierce", r::PIERCE),
    ] {
        if has_kw(&m.game, &d.source, kw) {
            m.record(
                kw,
                format!(
                    "{} has {name}, but the damage it deals to {} is effect damage, not combat damage: {name} does not trigger",
                    d.source, d.to
                ),
                &[rule, r::COMBAT_NOT_EFFECT],
            );
        }
    }
}

pub(super) fn damage_inner(m: &mut M, batch: Vec<Dmg>) -> R<()> {
    let mut live = Vec::new();
    for d in batch {
        if d.amount <= 0 {
            m.record(
                "damage.none",
                format!(
                    "{} would deal {} damage to {}: 0 or less is not damage",
                    d.source, d.amount, d.to
                ),
                &[r::DAMAGE_ZERO],
            );
            continue;
        }
        if let Recipient::Card(to) = &d.to {
            if !on_field(&m.game, to) || !is_character(&m.game, to) {
                m.record(
                    "damage.void",
                    format!(
                        "{} is not a character on the field: the damage is void",
                        d.to
                    ),
                    &[r::DAMAGE_ONLY_PLAYERS_CHARS, r::DAMAGE_VOID],
                );
                continue;
            }
            if m.game.card(to).is_some_and(removing) {
                m.record(
                    "damage.void",
                    format!("{} is being removed: damage does not apply to it", d.to),
                    &[
                        r::DOOMED_IGNORES_DAMAGE,
                        r::DISCARD_IMMUNE,
                        r::DISCARD_IMMUNE_DAMAGE,
                    ],
                );
                continue;
            }
        }
        if d.combat
            && let Some(race) =
                d.to.card()
                    .and_then(|to| resisted_race(&m.game, to, &d.source))
        {
            m.record(
                "resistance",
                format!(
                    "{} has 耐性 {race}: it takes no combat damage from {}, a {race} character",
                    d.to, d.source
                ),
                &[r::RESISTANCE, r::NO_DAMAGE_TAKEN],
            )
            .obj(d.to.to_string());
            continue;
        }
        // Why 耐性 does not stop this damage: it is effect damage, or the
        // source is of another race (10.11.2.a names combat damage from a
        // character of race A only).
        if let Some(to) = d.to.card()
            && let Some(races) = resistances(&m.game, to)
        {
            let why = if d.combat {
                format!("{} is not of that race", d.source)
            } else {
                "this is effect damage, not combat damage".to_string()
            };
            m.record(
                "resistance.not_applied",
                format!("{to} has 耐性 {races}, which does not stop this damage: {why}"),
                &[r::RESISTANCE],
            )
            .obj(to.to_string());
        }
        live.push(d);
    }
    if live.is_empty() {
        return Ok(());
    }
    let in_combat = m.game.cards.values().any(|c| c.has(st::ATTACKING));
    let kind = |d: &Dmg| {
        if d.combat {
            (r::COMBAT_DAMAGE, r::COMBAT_NOT_EFFECT, "combat")
        } else if in_combat {
            (r::EFFECT_DAMAGE, r::EFFECT_DAMAGE_IN_COMBAT, "effect")
        } else {
            (r::EFFECT_DAMAGE, r::EFFECT_DAMAGE, "effect")
        }
    };
    let sources: Vec<CardId> = live.iter().map(|d| d.source.clone()).collect();
    let recips: Vec<CardId> = live.iter().filter_map(|d| d.to.card().cloned()).collect();
    // a, b: the "before" windows.
    let e = m.record(
        "damage.a",
        "1.10.12.a: effects of dealing damage resolve",
        &[
            r::DAMAGE_PROC,
            r::DAMAGE_A,
            r::DAMAGE_IMMEDIATE,
            r::DAMAGE_SOURCES,
        ],
    );
    if live.len() > 1 {
        e.rule(r::DAMAGE_SIMULTANEOUS);
        e.text.push_str(&format!(
            " ({} damages dealt at the same time go through each step together)",
            live.len()
        ));
    }
    fire(m, "dealing_damage", &sources, r::DAMAGE_A)?;
    if game_over(&m.game) {
        return Ok(());
    }
    m.record(
        "damage.b",
        "1.10.12.b: effects of receiving damage resolve",
        &[r::DAMAGE_B],
    );
    fire(m, "taking_damage", &recips, r::DAMAGE_B)?;
    if game_over(&m.game) {
        return Ok(());
    }
    // 1.10.15: a nullified damage's procedure ends here.
    leader::nullify(m, &mut live);
    if live.is_empty() {
        return Ok(());
    }
    let sources: Vec<CardId> = live.iter().map(|d| d.source.clone()).collect();
    let recips: Vec<CardId> = live.iter().filter_map(|d| d.to.card().cloned()).collect();
    // c: apply.
    let mut prior: BTreeMap<String, i64> = BTreeMap::new();
    for d in &live {
        let (rule, rule2, word) = kind(d);
        if let Some(p) = d.to.player() {
            let before = m.game.value(p, "life");
            m.game.set_value(p, "life", before - d.amount);
            if d.combat && !d.pierce && m.game.card(&d.source).is_some_and(|c| c.controller != p) {
                *vars_mut(&mut m.game)
                    .entry(format!("combat.graze_damage.{}", player_name(p)))
                    .or_default() += d.amount;
            }
            m.record(
                "damage.c",
                format!("{} deals {} {word} damage to {}", d.source, d.amount, d.to),
                &[
                    r::DAMAGE_C,
                    rule,
                    rule2,
                    r::DAMAGE_KINDS,
                    r::DAMAGE_ONE_SOURCE,
                    r::DAMAGE_TO_PLAYER,
                    r::LIFE_LOSS,
                ],
            )
            .change(format!("{}.life", d.to), before, before - d.amount);
            life_changed(m, p, before, before - d.amount);
        } else if let Some(to) = d.to.card()
            && on_field(&m.game, to)
        {
            let counter = if d.combat {
                COMBAT_DAMAGE
            } else {
                EFFECT_DAMAGE
            };
            let Some(c) = m.game.cards.get_mut(to) else {
                continue;
            };
            let before = accumulated(c);
            prior.entry(to.to_string()).or_insert(before);
            *c.counters.entry(counter.into()).or_default() += d.amount;
            m.record(
                "damage.c",
                format!("{} deals {} {word} damage to {}", d.source, d.amount, d.to),
                &[
                    r::DAMAGE_C,
                    rule,
                    rule2,
                    r::DAMAGE_KINDS,
                    r::DAMAGE_ONE_SOURCE,
                    r::DAMAGE_TO_CHAR,
                ],
            )
            .change(
                format!("{}.accumulated_damage", d.to),
                before,
                before + d.amount,
            );
        }
    }
    // d: after dealing damage, with the keyword γ effects that trigger here.
    m.record(
        "damage.d",
        "1.10.12.d: effects of having dealt damage resolve",
        &[r::DAMAGE_D],
    );
    for d in &live {
        let Some(to) = d.to.card() else { continue };
        if !d.combat {
            combat_keywords_idle(m, d);
            continue;
        }
        if !on_field(&m.game, to) {
            continue;
        }
        let opposing = m
            .game
            .card(&d.source)
            .zip(m.game.card(to))
            .is_some_and(|(a, b)| a.controller != b.controller);
        if !opposing {
            continue;
        }
        if has_kw(&m.game, &d.source, "instant_death")
            && m.game.card(to).is_some_and(|c| !removing(c))
            && !doom_effect_blocked(m, to)
        {
            if let Some(c) = m.game.cards.get_mut(to) {
                c.states.insert(st::DOOMED.into());
            }
            set_remover(&mut m.game, to, &d.source);
            m.record(
                "instant_death",
                format!(
                    "{} has instant death: {} becomes 決死 (doomed), attributed to instant death",
                    d.source, d.to
                ),
                &[
                    r::INSTANT_DEATH,
                    r::INSTANT_DEATH_ATTRIBUTION,
                    r::DOOMED_BY_EFFECT,
                ],
            )
            .obj(to.clone());
        }
        if has_kw(&m.game, &d.source, "pierce")
            && m.game.card(&d.source).is_some_and(|c| c.has(st::ATTACKING))
        {
            let (atk, dur, acc_now, victim) = {
                let a = m
                    .game
                    .card(&d.source)
                    .map(|c| attack(&m.game, c))
                    .unwrap_or(0);
                let t = m.game.card(to);
                (
                    a,
                    t.map(|c| durability(&m.game, c)).unwrap_or(0),
                    t.map(accumulated).unwrap_or(0),
                    t.map(|c| c.controller).unwrap_or(PlayerId::P1),
                )
            };
            let counts_this = reading(&m.game, PIERCE_COUNTS_THIS_DAMAGE);
            let acc = if counts_this {
                acc_now
            } else {
                prior.get(to.as_str()).copied().unwrap_or(0)
            };
            let x = atk - dur + acc;
            let e = m.record(
                "pierce",
                format!("{} has pierce: X = attack {atk} - durability {dur} + accumulated damage {acc} = {x}", d.source),
                &[r::PIERCE],
            );
            e.note(if counts_this {
                "reading chosen by the scenario (reading_pierce_counts_this_damage): the accumulated damage includes the damage just dealt"
            } else {
                "judge's reading: \"already accumulated damage\" is the damage accumulated before this combat damage (the trigger is at 1.10.12.d, after the damage is applied; counting it again would double it)"
            });
            if x > 0 {
                m.record(
                    "pierce",
                    format!(
                        "{} deals {x} combat damage to {}: a nested damage procedure inside step d",
                        d.source,
                        player_name(victim)
                    ),
                    &[r::PIERCE, r::NESTED],
                );
                damage(
                    m,
                    vec![Dmg {
                        source: d.source.clone(),
                        to: Recipient::Player(victim),
                        amount: x,
                        combat: true,
                        pierce: true,
                    }],
                )?;
            } else {
                m.record(
                    "pierce",
                    "X is 0 or less: the pierce effect does nothing",
                    &[r::PIERCE],
                );
            }
        } else if has_kw(&m.game, &d.source, "pierce") {
            m.record(
                "pierce",
                format!(
                    "{} has pierce but is not attacking: pierce does not trigger (it needs an attacking character)",
                    d.source
                ),
                &[r::PIERCE],
            );
        }
    }
    fire(m, "dealt_damage", &sources, r::DAMAGE_D)?;
    if game_over(&m.game) {
        return Ok(());
    }
    m.record(
        "damage.e",
        "1.10.12.e: effects of having received damage resolve",
        &[r::DAMAGE_E],
    );
    fire(m, "took_damage", &recips, r::DAMAGE_E)?;
    if game_over(&m.game) {
        return Ok(());
    }
    let damaged: Vec<PlayerId> = live.iter().filter_map(|d| d.to.player()).collect();
    leader::opponent_took_damage(m, &damaged)?;
    // f: doomed check.
    for id in &recips {
        let Some(c) = m.game.card(id) else { continue };
        if c.zone.kind != zn::FIELD || removing(c) {
            continue;
        }
        let (acc, dur) = (accumulated(c), raw_durability(&m.game, c));
        if acc >= dur && may_become_doomed(m, id, dur, acc) {
            let src = live
                .iter()
                .rev()
                .find(|d| d.to.card() == Some(id))
                .map(|d| (d.source.clone(), d.combat))
                .unwrap_or_default();
            if let Some(c) = m.game.cards.get_mut(id) {
                c.states.insert(st::DOOMED.into());
            }
            set_remover(&mut m.game, id, &src.0);
            m.record(
                "damage.f",
                format!("{id} has {acc} accumulated damage against durability {dur}: it becomes 決死 (doomed), made so by {}", src.0),
                &[r::DAMAGE_F, r::DOOMED_BY_DAMAGE, if src.1 { r::DOOMED_SOURCE } else { r::DOOMED_BY_EFFECT_DAMAGE }],
            )
            .obj(id.clone());
        }
    }
    Ok(())
}

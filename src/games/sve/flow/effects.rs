//! Abilities: choosing targets (10.6.2.3), the effect language, triggered abilities (10.7.3) and resolving a played card (10.6.2.8).

use super::*;
use crate::engine::card::{up_to_key, up_to_max};
use crate::engine::{Picked, TargetCount};

/// Whether `zone` is a hidden zone (非公開領域: hand, deck, evolve deck).
pub(super) fn hidden_zone(g: &Game, zone: Option<&str>) -> bool {
    let z = zone.unwrap_or(zn::FIELD);
    g.zone_spec(z)
        .is_some_and(|s| s.visibility != crate::engine::Visibility::Public)
}

/// The choice key of the `i`-th chosen selector of an ability with
/// `several` selectors.
fn selector_key(key: &str, i: usize, several: bool) -> String {
    if several {
        format!("{key}#{}", i + 1)
    } else {
        key.to_string()
    }
}

/// The `chosen` selectors of ability `ability` of definition `def`.
fn selectors(effects: &[Effect]) -> Vec<(Filter, u32, bool, bool)> {
    effects
        .iter()
        .flat_map(targets_of)
        .filter_map(|t| t.chosen())
        .map(|(f, count, up_to, or_leader)| (f.clone(), count, up_to, or_leader))
        .collect()
}

/// Every selector an effect states, in order: its target, then a swap's
/// `with` card (5.12).
pub(super) fn targets_of(e: &Effect) -> Vec<&Target> {
    // Chosen by each player as it resolves (1.3.4.1), not when played.
    if each_player_put(e) {
        return Vec::new();
    }
    let mut out: Vec<&Target> = e.target().into_iter().collect();
    if let Effect::Swap { with, .. } = e {
        out.push(with);
    }
    out
}

/// The effects ability `ability` of `def` carries out: its text, with a
/// Choose (5.17) replaced by the options picked when it is played (choice
/// `<key>.choose`, option numbers from 1), the others treated as absent
/// (5.17.4). `record`: trace the pick (once, at play).
pub(super) fn effective_effects(
    m: &mut M,
    def: &str,
    ability: usize,
    key: &str,
    at: (&str, PlayerId),
    record: bool,
) -> R<Vec<Effect>> {
    let Some(ab) = m.game.ability(def, ability).cloned() else {
        return Ok(Vec::new());
    };
    let mut out = Vec::new();
    for e in ab.effect {
        let Effect::Choose {
            count,
            up_to,
            options,
            instead,
        } = e
        else {
            out.push(e);
            continue;
        };
        let n = options.len();
        let names: Vec<String> = (1..=n).map(|i| i.to_string()).collect();
        let k = format!("{key}.choose");
        // 5.17.3.1: a number a condition decides, read as the play begins.
        let (count, up_to) =
            choose_count::decide(m, (count, up_to), instead.as_deref(), &k, at, record);
        let v = m.choices.require(&k, &names)?;
        let picks: Vec<usize> = match &v {
            Value::Array(a) => a
                .iter()
                .filter_map(|x| x.as_u64())
                .map(|x| x as usize)
                .collect(),
            Value::Number(x) => x.as_u64().map(|x| vec![x as usize]).unwrap_or_default(),
            _ => Vec::new(),
        };
        let distinct: BTreeSet<usize> = picks.iter().copied().collect();
        let want = (count as usize).min(n);
        let ok = distinct.len() == picks.len()
            && picks.iter().all(|p| (1..=n).contains(p))
            && if up_to {
                (1..=want).contains(&picks.len())
            } else {
                picks.len() == want
            };
        if !ok {
            return Err(EngineError::BadChoice {
                choice: k,
                value: v.to_string(),
                options: vec![if up_to {
                    format!("1 to {want} distinct option numbers of 1..{n}")
                } else {
                    format!("exactly {want} distinct option numbers of 1..{n}")
                }],
            });
        }
        if record {
            let mut rules = vec![r::CHOOSE, r::CHOOSE_AT_PLAY, r::CHOOSE_OTHERS_ABSENT];
            if up_to {
                rules.push(r::CHOOSE_UP_TO);
            }
            if picks.len() < n {
                rules.push(r::CHOOSE_ABSENT_NO_TARGETS);
            }
            m.record(
                "play.choose",
                format!(
                    "`{k}`: option(s) {} picked of {n}; the others are treated as absent",
                    picks
                        .iter()
                        .map(|p| p.to_string())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
                &rules,
            );
        }
        let mut sorted = picks;
        sorted.sort_unstable();
        for p in sorted {
            out.extend(options[p - 1].iter().cloned());
        }
    }
    Ok(out)
}

/// Chooses the targets of every `chosen` selector of ability `ability` of
/// definition `def` in a public zone, from the choice `<key>` (or
/// `<key>#<n>` when the ability has several). 10.6.2.3: cards in a hidden
/// zone are not targets; they are chosen when the effect is carried out
/// (an empty placeholder here, see [`choose_hidden`]).
pub(super) fn choose_targets(
    m: &mut M,
    def: &str,
    ability: usize,
    this: &str,
    master: PlayerId,
    key: &str,
) -> R<Vec<Vec<String>>> {
    // 10.3.2: a part disabled by its condition (10.3.3) makes no choices.
    if let Some(c) = application_condition(&m.game, def, ability)
        && !holds(&m.game, &c, master, this).0
    {
        m.record(
            "play.targets",
            format!("`{key}`: its condition does not hold now, so no target is chosen"),
            &[r::DISABLED_NO_CHOICE, r::CONDITIONAL_TEXT],
        );
        return Ok(Vec::new());
    }
    let effects = effective_effects(m, def, ability, key, (this, master), true)?;
    let sels = selectors(&effects);
    let several = sels.len() > 1;
    let mut out = Vec::new();
    for (i, (f, count, up_to, or_leader)) in sels.into_iter().enumerate() {
        if hidden_zone(&m.game, f.zone.as_deref()) {
            out.push(Vec::new());
            continue;
        }
        let k = selector_key(key, i, several);
        out.push(pick(
            m, &f, count, up_to, or_leader, master, this, &k, true,
        )?);
    }
    Ok(out)
}

/// Chooses the cards of a `chosen` selector in a hidden zone while the
/// effect is carried out (10.6.2.3 excludes them from the targets chosen
/// at play; 1.3.2: as many as possible, none if there are none).
pub(super) fn choose_hidden(
    m: &mut M,
    f: &Filter,
    (count, up_to): (u32, bool),
    master: PlayerId,
    this: &str,
    key: &str,
) -> R<Vec<String>> {
    pick(m, f, count, up_to, false, master, this, key, false)
}

/// "Choose N" at play with fewer than N legal targets makes the play
/// illegal (10.6.2.3.3 read literally), instead of the judges' reading
/// (10.6.2.3.1: as many as possible, illegal only with none).
pub const CHOOSE_N_NEEDS_N: &str = "reading_choose_n_needs_n";

/// 10.6.2.3.3: no legal target, so the play cannot be made. When the only
/// cards the filter admits have Aura, Aura (12.15.2) decides it too, and
/// the rejection cites both.
fn no_target(
    m: &M,
    f: &Filter,
    (master, this, or_leader): (PlayerId, &str, bool),
    k: &str,
    count: usize,
) -> EngineError {
    let shielded = candidates(&m.game, f, master, this, or_leader, false);
    if shielded.is_empty() {
        return illegal(
            r::PLAY_TARGETS_NONE,
            format!("`{k}` needs {count} target(s) and there is no legal target"),
            Vec::new(),
        );
    }
    illegal(
        r::PLAY_TARGETS_NONE,
        format!(
            "`{k}` needs {count} target(s) and there is no legal target: {} has Aura and cannot be chosen by the opponent's cards or abilities (12.15.2)",
            shielded.join(", ")
        ),
        Vec::new(),
    )
    .also_citing(r::AURA)
}

/// One selector's choice. `at_play`: a target chosen while playing
/// (10.6.2.3.3: none → the play is illegal); otherwise a choice made while
/// resolving, where fewer legal cards simply mean fewer (1.3.2).
#[allow(clippy::too_many_arguments)]
fn pick(
    m: &mut M,
    f: &Filter,
    count: u32,
    up_to: bool,
    or_leader: bool,
    master: PlayerId,
    this: &str,
    k: &str,
    at_play: bool,
) -> R<Vec<String>> {
    let legal = candidates(&m.game, f, master, this, or_leader, true);
    let count = count as usize;
    if at_play && !up_to && count >= 1 && legal.is_empty() {
        return Err(no_target(m, f, (master, this, or_leader), k, count));
    }
    if at_play && !up_to && legal.len() < count && reading(&m.game, CHOOSE_N_NEEDS_N) {
        return Err(illegal(
            r::PLAY_TARGETS_NONE,
            format!(
                "`{k}` needs {count} target(s) and only {} exist (reading `{CHOOSE_N_NEEDS_N}`: 10.6.2.3.3 read literally)",
                legal.len()
            ),
            Vec::new(),
        ));
    }
    if !at_play && legal.is_empty() {
        m.record(
            "effect.choose",
            format!("`{k}`: there is no card to choose, so none is chosen"),
            &[r::IMPOSSIBLE],
        );
        return Ok(Vec::new());
    }
    let need = count.min(legal.len());
    let (rule_some, rule_max) = if at_play {
        (r::PLAY_TARGETS, r::PLAY_TARGETS_MAX)
    } else {
        (r::IMPOSSIBLE, r::IMPOSSIBLE)
    };
    let wanted = if up_to {
        TargetCount::UpTo(count)
    } else {
        TargetCount::Exactly(need)
    };
    // At play, a card on the board the text cannot choose is an illegal
    // play (10.6.2.3: the targets are what the text says it chooses).
    // A card the text would choose but for Aura (12.15.2) is refused by
    // Aura; any other card by the text itself.
    let game = &m.game;
    let unguarded = if at_play {
        candidates(game, f, master, this, or_leader, false)
    } else {
        Vec::new()
    };
    let why = |id: &str| {
        game.card(id).filter(|_| at_play)?;
        Some(if unguarded.iter().any(|u| u == id) {
            (
                r::AURA,
                "it has Aura: the opponent's cards and abilities cannot choose it".to_string(),
            )
        } else {
            (r::PLAY_TARGETS, "the text cannot choose it".to_string())
        })
    };
    let chosen = match m.choices.targets(k, &legal, wanted, why)? {
        Picked::Given(g) => g,
        Picked::Only(only) => {
            m.record(
                "play.targets",
                format!(
                    "`{k}`: the only legal choice(s) {} are chosen",
                    only.join(", ")
                ),
                &[rule_some, rule_max],
            )
            .note("a choice with exactly one possible answer is made by the engine");
            only
        }
    };
    if at_play {
        let intimidate = chosen.iter().any(|c| has_kw(&m.game, c, "intimidate"));
        let up = up_to;
        // The trace names the legal set, so a judge sees why a card that
        // looks eligible was not (its cost, Aura, zone).
        let e = m.record(
            "play.targets",
            format!(
                "`{k}`: {} chosen; legal targets: {}",
                if chosen.is_empty() {
                    "none".to_string()
                } else {
                    chosen.join(", ")
                },
                legal.join(", ")
            ),
            &[r::PLAY_TARGETS],
        );
        // 12.12.2 item 1: Intimidate protects only from being attacked.
        if up {
            e.rule(r::PLAY_TARGETS_UP_TO);
        }
        if intimidate {
            e.rule(r::INTIMIDATE).rule(r::INTIMIDATE_ONLY_ATTACK);
            e.text
                .push_str(" (Intimidate stops only attacks, not cards or abilities choosing it)");
        }
    }
    if need < count && !up_to {
        let e = m.record(
            "play.targets",
            format!("`{k}` asks for {count}; only {need} exist, so {need} are chosen"),
            &[rule_max],
        );
        if at_play {
            e.note(format!("10.6.2.3.1 \"as many as possible\" read with 10.6.2.3.3: playable when at least 1 target exists (flag `{CHOOSE_N_NEEDS_N}`: the play needs all {count})"));
        }
    }
    Ok(chosen)
}

/// The cards a selector designates while the effect is carried out;
/// `key` is the choice key of a `chosen` selector.
pub(super) fn resolve_targets(
    m: &mut M,
    t: &Target,
    master: PlayerId,
    this: &str,
    chosen: &mut std::vec::IntoIter<Vec<String>>,
    key: &str,
) -> R<Vec<String>> {
    Ok(match t {
        Target::This => vec![this.to_string()],
        Target::Player { who } => who_players(&m.game, master, *who)
            .into_iter()
            .map(leader_key)
            .collect(),
        Target::Chosen {
            filter,
            count,
            up_to,
            ..
        } => {
            let at_play = chosen.next().unwrap_or_default();
            if hidden_zone(&m.game, filter.zone.as_deref()) {
                choose_hidden(m, filter, (*count, *up_to), master, this, key)?
            } else {
                at_play
            }
        }
        // 12.15.2 item 1: Aura forbids only choosing; "all" and a random
        // pick (5.18.1: referred to, not chosen) still reach it.
        Target::All { filter } => {
            let all = candidates(&m.game, filter, master, this, false, false);
            let aura: Vec<&String> = all
                .iter()
                .filter(|c| {
                    has_kw(&m.game, c, "aura")
                        && m.game.card(c).is_some_and(|x| x.controller != master)
                })
                .collect();
            if !aura.is_empty() {
                let list = aura
                    .iter()
                    .map(|s| s.as_str())
                    .collect::<Vec<_>>()
                    .join(", ");
                m.record(
                    "effect.aura",
                    format!("{list} has Aura, but \"all\" chooses nothing: it is affected"),
                    &[r::AURA, r::AURA_ONLY_CHOOSING],
                );
            }
            all
        }
        Target::Random { filter } => {
            let c = candidates(&m.game, filter, master, this, false, false);
            if c.is_empty() {
                Vec::new()
            } else {
                let i = m.game.rng.below(c.len() as u64) as usize;
                m.record(
                    "effect.random",
                    format!("{} is chosen at random among {}", c[i], c.join(", ")),
                    &[r::RANDOM],
                )
                .note("random choices come from the scenario's seed");
                vec![c[i].clone()]
            }
        }
    })
}

/// Carries out an ability's effects in printed order (10.6.2.8.2).
pub(super) fn run_effects(
    m: &mut M,
    def: &str,
    ability: usize,
    this: &str,
    master: PlayerId,
    chosen: Vec<Vec<String>>,
    key: &str,
) -> R<()> {
    if !applies(m, def, ability, this, master) {
        return Ok(());
    }
    let effects = effective_effects(m, def, ability, key, (this, master), false)?;
    let several = chosen.len() > 1;
    let mut chosen = chosen.into_iter();
    let mut n = 0;
    for eff in &effects {
        if m.game.result != GameResult::Ongoing {
            break;
        }
        let mut designated = Vec::new();
        for t in targets_of(eff) {
            let k = selector_key(key, n, several);
            if t.chosen().is_some() {
                n += 1;
            }
            designated.push(resolve_targets(m, t, master, this, &mut chosen, &k)?);
        }
        if let (Effect::Swap { .. }, [a, b]) = (eff, designated.as_slice()) {
            swap(m, a, b)?;
            continue;
        }
        let targets = designated.into_iter().next().unwrap_or_default();
        apply_effect(m, eff, &targets, this, master)?;
    }
    set_up(m, def, ability, this, master);
    Ok(())
}

/// One effect applied: the cards it moves move together (`watch::together`).
pub(super) fn apply_effect(
    m: &mut M,
    eff: &Effect,
    targets: &[String],
    this: &str,
    master: PlayerId,
) -> R<()> {
    together(m, |m| apply_one(m, eff, targets, this, master))
}

/// Damage that left a defense of 0 or less: the rule process (`rule`,
/// 11.2.1 or 11.3.1) is checked only at the next check timing, and only if
/// it still holds then (11.1.2). Said on the damage, so that a defense
/// raised again before then explains the card or player that stays.
fn at_zero_until_check(m: &mut M, after: i64, rule: &'static str) {
    if after > 0 {
        return;
    }
    if let Some(e) = m.trace.last_mut() {
        e.rule(r::RULE_PROCESS_ONLY_AT_CHECK).rule(rule);
        e.text.push_str(
            " (defense 0 or less: the rule process applies at the next check timing only if it still is then)",
        );
    }
}

fn apply_one(m: &mut M, eff: &Effect, targets: &[String], this: &str, master: PlayerId) -> R<()> {
    match eff {
        Effect::Damage { amount, .. } => {
            for t in targets {
                let amount = &if parse_leader(t).is_some()
                    || (on_field(&m.game, t) && is_type(&m.game, t, "follower"))
                {
                    modified(m, this, t, "ability", *amount)?
                } else {
                    *amount
                };
                if *amount <= 0 {
                    m.record(
                        "effect.damage",
                        format!("{amount} damage to {t} is not dealt"),
                        &[r::IMPOSSIBLE],
                    );
                    continue;
                }
                if let Some(p) = parse_leader(t) {
                    let old = m.game.value(p, "defense");
                    m.game.set_value(p, "defense", old - amount);
                    m.game.events.push(Event::Damaged {
                        card: None,
                        player: Some(p),
                        source: this.into(),
                        amount: *amount,
                        kind: "ability",
                    });
                    m.record(
                        "effect.damage",
                        format!(
                            "{this} deals {amount} damage to {}'s leader",
                            player_name(p)
                        ),
                        &[r::DAMAGE],
                    )
                    .change(
                        format!("{}.defense", player_name(p)),
                        old,
                        old - amount,
                    );
                    at_zero_until_check(m, old - amount, r::DEFEAT_DEFENSE);
                } else if on_field(&m.game, t) && is_type(&m.game, t, "follower") {
                    let before = defense(&m.game, &m.game.cards[t.as_str()]);
                    if let Some(c) = m.game.cards.get_mut(t.as_str()) {
                        c.damage += amount;
                    }
                    m.game.events.push(Event::Damaged {
                        card: Some(t.clone().into()),
                        player: None,
                        source: this.into(),
                        amount: *amount,
                        kind: "ability",
                    });
                    m.record(
                        "effect.damage",
                        format!("{this} deals {amount} damage to {t}"),
                        &[r::DAMAGE, r::DAMAGE_NEGATIVE],
                    )
                    .obj(t.clone())
                    .change(format!("{t}.defense"), before, before - amount);
                    at_zero_until_check(m, before - amount, r::DESTROY_DEFENSE);
                } else {
                    m.record(
                        "effect.damage",
                        format!(
                            "{t} is not a follower or leader on the field: the damage is not dealt"
                        ),
                        &[r::DAMAGE_NOT_DEALT],
                    );
                }
            }
        }
        Effect::Destroy { .. } => {
            for t in targets {
                if gone_from_field(m, "effect.destroy", t, "nothing happens") {
                    continue;
                }
                if stack_replaces_leaving(m, t) {
                    continue;
                }
                let owner = m.game.cards[t.as_str()].owner;
                m.record("effect.destroy", format!("{t} is destroyed"), &[r::DESTROY])
                    .obj(t.clone());
                mv(m, t, ZoneId::of(owner, zn::CEMETERY), false);
            }
        }
        Effect::Banish { .. } => {
            for t in targets {
                if stack_replaces_leaving(m, t) {
                    continue;
                }
                let Some(c) = m.game.card(t) else { continue };
                let owner = c.owner;
                m.record("effect.banish", format!("{t} is banished"), &[r::BANISH])
                    .obj(t.clone());
                mv(m, t, ZoneId::of(owner, zn::BANISHED), false);
            }
        }
        Effect::ReturnToHand { .. } => {
            for t in targets {
                if stack_replaces_leaving(m, t) {
                    continue;
                }
                let Some(c) = m.game.card(t) else { continue };
                let owner = c.owner;
                m.record(
                    "effect.return",
                    format!("{t} returns to its owner's hand as a new object"),
                    &[r::NEW_OBJECT],
                )
                .obj(t.clone());
                mv(m, t, ZoneId::of(owner, zn::HAND), false);
            }
        }
        Effect::Draw { amount, who } => {
            let ps = who_players(&m.game, master, *who);
            if ps.len() > 1 {
                // 1.3.4.1: a procedure with no choice is done for every
                // player at once; a deck-out loss waits for the rule
                // processes (11.2.2), so drawing them in turn is the same.
                m.record(
                    "effect.draw",
                    format!(
                        "{}: each player draws {amount} at the same time (no choice: done at once)",
                        this
                    ),
                    &[r::SIMULTANEOUS_CHOICES_ORDER],
                )
                .obj(this);
            }
            for p in ps {
                for _ in 0..(*amount).max(0) {
                    draw(m, p, r::DRAW);
                }
            }
        }
        Effect::DrawUpTo { max, who } => {
            for p in who_players(&m.game, master, *who) {
                let key = up_to_key(this, "draw", p);
                // Issue 13: the drawing player chooses how many.
                let n = m.decided_by(p, |m| m.choices.count(&key, up_to_max(*max)))?;
                m.record(
                    "effect.draw_up_to",
                    format!("{} chooses to draw {n} (up to {max})", player_name(p)),
                    &[r::DRAW],
                );
                for _ in 0..n {
                    draw(m, p, r::DRAW);
                }
            }
        }
        Effect::ChangeValue {
            value,
            amount,
            who,
            stays_above,
        } => {
            if stays_above.is_some() {
                // A printed lower limit on a value is not modelled for SVE;
                // only the rules' own bounds (1.3.2.4) are.
                return Err(EngineError::NotImplemented {
                    clause: r::BOUND_CLAMP,
                    what: "`stays_above`: a lower limit printed on an effect".into(),
                });
            }
            for p in who_players(&m.game, master, *who) {
                let old = m.game.value(p, value);
                let (new, rules): (i64, &[&'static str]) = match value.as_str() {
                    "pp" if *amount > 0 => (
                        (old + amount)
                            .min(m.game.value(p, "max_pp"))
                            .max(old.min(m.game.value(p, "max_pp"))),
                        &[r::RECOVER_PP, r::RECOVER_PP_CAP],
                    ),
                    "pp" => ((old + amount).max(0), &[r::PP_BOUNDS, r::BOUND_CLAMP]),
                    "max_pp" => (
                        (old + amount).clamp(0, 10),
                        &[r::MAX_PP_BOUNDS, r::BOUND_CLAMP],
                    ),
                    "ep" => ((old + amount).max(0), &[r::EP, r::BOUND_CLAMP]),
                    _ => (old + amount, &[r::BOUND_CLAMP]),
                };
                if value == "defense" && new < old {
                    m.game.own::<SveState>().lower_defense(p);
                }
                set_value(m, p, value, new, "effect.value", rules);
            }
        }
        Effect::Buff {
            attack: a,
            defense: d,
            until,
            ..
        } => {
            for t in targets {
                if !on_field(&m.game, t) {
                    continue;
                }
                let c = &m.game.cards[t.as_str()];
                let (ba, bd) = (attack(&m.game, c), defense(&m.game, c));
                if let Some(c) = m.game.cards.get_mut(t.as_str()) {
                    c.buff(*a, *d, *until, this);
                }
                let c = &m.game.cards[t.as_str()];
                let (na, nd) = (attack(&m.game, c), defense(&m.game, c));
                let ordered = order_matters(c);
                let e = m.record(
                    "effect.buff",
                    format!("{t} gets {a:+}/{d:+}"),
                    &[r::END_DURATIONS],
                );
                e.obj(t.clone())
                    .change(format!("{t}.attack"), ba, na)
                    .change(format!("{t}.defense"), bd, nd);
                // 10.9.1.6.2: after a set value or a swap already on it.
                if ordered {
                    e.rule(r::CONTINUOUS_NUMERIC_ORDER)
                        .rule(r::CONTINUOUS_PLAYED_ORDER);
                    e.text
                        .push_str(", counted after the changes already on it (timestamp order)");
                }
                // 10.9.2: "all" means the cards there now, not later ones.
                if matches!(eff.target(), Some(Target::All { .. })) {
                    e.rule(r::CONTINUOUS_STAYS_WITH_CARDS);
                    e.text.push_str(" (a card put there later is not affected)");
                }
            }
        }
        Effect::AddCounter {
            counter, amount, ..
        } => {
            for t in targets {
                let Some(c) = m.game.cards.get_mut(t.as_str()) else {
                    continue;
                };
                let e = c.counters.entry(counter.clone()).or_default();
                let old = *e;
                *e = (old + amount).max(0);
                let new = *e;
                m.record(
                    "effect.counter",
                    format!("{t}: {counter} counters {old} → {new}"),
                    &[r::BOUND_CLAMP, r::COUNTER_NAMES],
                )
                .obj(t.clone())
                .change(format!("{t}.counters.{counter}"), old, new);
            }
        }
        Effect::Summon { card, count, who } => {
            for p in who_players(&m.game, master, *who) {
                for _ in 0..(*count).max(0) {
                    let lim = limit(&m.game, zn::FIELD);
                    if m.game.zone_of(p, zn::FIELD).len() >= lim {
                        m.record(
                            "effect.summon",
                            format!(
                                "{}'s field is full: the token is not created",
                                player_name(p)
                            ),
                            &[r::FIELD_OVER_LIMIT],
                        );
                        continue;
                    }
                    let zone = ZoneId::of(p, zn::FIELD);
                    let id = m.game.add_token(card, p, zone.clone(), &[st::ARRIVED]);
                    arrived(&mut m.game, &id);
                    m.record(
                        "effect.summon",
                        format!(
                            "token {id} ({card}) is created on {}'s field",
                            player_name(p)
                        ),
                        &[
                            r::TOKEN_CREATE,
                            r::TOKEN_OWNER,
                            r::TOKEN_PUT,
                            r::ENTER_RESERVED,
                        ],
                    )
                    .obj(&id);
                    zone_change_triggers(m, &id, card, &ZoneId::shared("created"), &zone);
                }
            }
        }
        Effect::Become { card, .. } => transform(m, targets, card)?,
        Effect::ChangeKeywords { .. } | Effect::ChangeInfo { .. } => {
            change_info(m, eff, targets, this)
        }
        Effect::GainAbility { .. } => grant(m, eff, targets, this),
        Effect::SetState { state, clear, .. } => {
            for t in targets {
                let Some(c) = m.game.cards.get_mut(t.as_str()) else {
                    continue;
                };
                let had = c.states.contains(state);
                if *clear {
                    c.states.remove(state);
                } else {
                    c.states.insert(state.clone());
                }
                let now = !*clear;
                if had == now {
                    m.record(
                        "effect.state",
                        format!(
                            "{t} is already {}{state}: nothing happens",
                            if now { "" } else { "not " }
                        ),
                        &[r::ALREADY_IN_STATE],
                    );
                } else {
                    m.record(
                        "effect.state",
                        format!("{t}: {state} {had} → {now}"),
                        &[r::IMPOSSIBLE],
                    )
                    .change(format!("{t}.{state}"), had, now);
                }
            }
        }
        Effect::Shuffle { who } => {
            for p in who_players(&m.game, master, *who) {
                let n = m.game.shuffle_zone(&ZoneId::of(p, zn::DECK));
                let rules: &[&'static str] = if n <= 1 {
                    &[r::SHUFFLE, r::SHUFFLE_SMALL]
                } else {
                    &[r::SHUFFLE]
                };
                m.record(
                    "effect.shuffle",
                    format!("{} shuffles their deck ({n} cards)", player_name(p)),
                    rules,
                );
            }
        }
        Effect::SkipTurn { who } => {
            for p in who_players(&m.game, master, *who) {
                skip_next_turn(m, p);
            }
        }
        Effect::ExtraTurn { who } => {
            for p in who_players(&m.game, master, *who) {
                add_extra_turn(m, p);
            }
        }
        Effect::Win { who } => {
            let ps = who_players(&m.game, master, *who);
            m.game.win(&ps);
            m.record(
                "effect.win",
                format!(
                    "{this}'s effect makes {} win the battle at once: every other player loses the game",
                    crate::engine::player_names(&ps)
                ),
                &[r::EFFECT_WIN_LOSS, r::WIN_THE_BATTLE],
            );
            game_over_check(m);
        }
        Effect::Lose { who } => {
            for p in who_players(&m.game, master, *who) {
                m.game.players[p].lost = true;
            }
            m.record(
                "effect.lose",
                format!("{this}'s effect makes a player lose at once"),
                &[r::EFFECT_WIN_LOSS],
            );
            game_over_check(m);
        }
        Effect::Put { .. } if each_player_put(eff) => put_each(m, eff, this, master)?,
        Effect::Put {
            to,
            top,
            who,
            target,
            yours,
        } => {
            let to = Dest {
                zone: to,
                masters: *yours,
            };
            put(m, to, targets, *top, *who, master, target.is_some())?
        }
        Effect::Evolve { .. } => {
            for t in targets {
                evolve_by_effect(m, t, this)?;
            }
        }
        Effect::TakeControl { .. } => take_control(m, targets, master)?,
        Effect::Play { cost, .. } => play_by_effect(m, targets, *cost, master)?,
        Effect::Restrict { .. } => apply_restrict(m, eff, targets, this),
        Effect::RollDie { results, .. } => roll_die(m, results, this, master)?,
        Effect::ForEach { .. } => for_each(m, eff, targets, this, master)?,
        Effect::WithX { .. } => x_value::with_x(m, eff, targets, this, master)?,
        Effect::Reveal { .. } => reveal(m, targets, this),
        Effect::Search { .. } => search(m, eff, this, master)?,
        Effect::LookAt { .. } | Effect::LookAtUpTo { .. } => look_at(m, eff, this, master)?,
        Effect::Race { times, .. } => race(m, targets, *times),
        Effect::SetPower { .. } | Effect::SwapPower { .. } => {
            change_power(m, eff, targets, this)?;
        }
        other => {
            // The loader refuses every effect SVE does not declare
            // (`VOCABULARY`); a game built another way meets the same clause.
            return Err(EngineError::NotImplemented {
                clause: r::SPECIFIC_NOTATION,
                what: format!("the effect `{}`", other.word()),
            });
        }
    }
    Ok(())
}

/// Plays a pending ability taken at a check timing (10.7.3); a state
/// trigger may pend again once this is over (10.7.6.1).
pub(super) fn play_trigger(m: &mut M, p: Pending) -> R<()> {
    let done = play_pending(m, p);
    m.game.own::<SveState>().state_resolving = None;
    done
}

fn play_pending(m: &mut M, p: Pending) -> R<()> {
    if p.trigger == "drain" {
        let old = m.game.value(p.master, "defense");
        set_value(
            m,
            p.master,
            "defense",
            old + p.amount,
            "ability.drain",
            &[r::DRAIN],
        );
        return Ok(());
    }
    let key = pending_key(&m.game, &p);
    let targets = match choose_targets(m, &p.def, p.ability, &p.card, p.master, &key) {
        Ok(t) => t,
        Err(EngineError::Illegal { .. }) => {
            m.record(
                "ability.unplayable",
                format!(
                    "{key} cannot be played (no legal target): one pending instance is removed"
                ),
                &[r::TRIGGER_UNPLAYABLE, r::PLAY_TARGETS_NONE],
            );
            return Ok(());
        }
        Err(e) => return Err(e),
    };
    let e = m.record(
        "ability.resolve",
        format!("{key} resolves"),
        &[r::RESOLVE_TEXT],
    );
    e.obj(p.card.clone());
    // 10.7.7 / 10.6.2.8.2.1: played and resolved even though its card
    // has left the zone where it triggered.
    if !on_field(&m.game, &p.card)
        && let Some(e) = m.trace.last_mut()
    {
        e.rule(r::TRIGGER_AFTER_MOVE)
            .rule(r::RESOLVES_WITHOUT_SOURCE);
    }
    // "May" and a cost written in the ability (10.4.7.3), decided now.
    if !optional::proceed(m, &p.def, p.ability, &p.card, p.master, &key)? {
        return Ok(());
    }
    run_effects(m, &p.def, p.ability, &p.card, p.master, targets, &key)
}

pub(super) fn resolve_played(
    m: &mut M,
    card: &str,
    player: PlayerId,
    targets: Vec<Vec<Vec<String>>>,
) -> R<()> {
    let Some(def) = m.game.def_of(card).cloned() else {
        return Ok(());
    };
    match def.card_type.as_str() {
        "follower" | "amulet" => {
            if m.game.zone_of(player, zn::FIELD).len() >= limit(&m.game, zn::FIELD) {
                m.record(
                    "play.resolve",
                    format!(
                        "{}'s field is full: {card} does not enter",
                        player_name(player)
                    ),
                    &[r::RESOLVE_PERMANENT, r::FIELD_OVER_LIMIT],
                );
            } else {
                enter_field(
                    m,
                    "play.resolve",
                    card,
                    player,
                    "resolution",
                    &[r::PLAY_RESOLVE, r::RESOLVE_PERMANENT],
                );
            }
        }
        _ => {
            m.record(
                "play.resolve",
                format!("{card} resolves"),
                &[r::PLAY_RESOLVE, r::RESOLVE_TEXT],
            )
            .obj(card);
            let idx = spell_abilities(&def);
            let several = idx.len() > 1;
            let mut t = targets.into_iter();
            fix_counts(m, card);
            for (n, i) in idx.into_iter().enumerate() {
                let mine = t.next().unwrap_or_default();
                // One spell ability per `spell` entry; targets were chosen at play.
                let key = format!("{card}.spell");
                let text = selector_key(&key, n, several);
                if optional::may(m, &def_key(m, card), i, card, player, &text)? {
                    run_effects(m, &def_key(m, card), i, card, player, mine, &key)?;
                }
            }
            release_counts(m);
            // A game an effect ended (1.2.4: at once) has nothing left to do.
            if m.game.result == GameResult::Ongoing
                && m.game
                    .card(card)
                    .is_some_and(|c| c.zone.kind == zn::RESOLUTION)
            {
                let text = format!("{card} goes to its owner's cemetery");
                to_cemetery(m, card, "play.leftover", text, &[r::RESOLVE_LEFTOVER]);
            }
        }
    }
    earth_rite::end(m);
    x_value::end(m);
    Ok(())
}

/// The indices of a spell's own text (trigger `spell`).
pub(super) fn spell_abilities(def: &crate::engine::CardDef) -> Vec<usize> {
    def.abilities
        .iter()
        .enumerate()
        .filter(|(_, a)| a.trigger == "spell")
        .map(|(i, _)| i)
        .collect()
}

pub(super) fn def_key(m: &M, card: &str) -> String {
    m.game
        .card(card)
        .map(|c| c.def.to_string())
        .unwrap_or_default()
}

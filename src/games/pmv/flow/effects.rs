//! Automatic effects firing in their windows, target choice (8.2) and resolving the effect language on PMV objects (chapters 7, 8, 11).

use super::*;
use crate::engine::{Picked, TargetCount, texts};

/// Fires the 自動γ abilities with `trigger` of every card on the field,
/// turn player's first (7.1.6.a).
pub(super) fn fire_all(m: &mut M, trigger: &str, rule: &'static str) -> R<()> {
    let tp = m.game.turn.active;
    let mut ids = characters_and_field(&m.game, tp);
    ids.extend(characters_and_field(&m.game, m.game.opponent(tp)));
    fire(m, trigger, &ids, rule)
}

pub(super) fn characters_and_field(g: &Game, p: PlayerId) -> Vec<CardId> {
    g.zone_of(p, zn::FIELD).to_vec()
}

/// Fires the 自動γ abilities with `trigger` of `cards` that are on the
/// field (7.4.7), in the given order, each resolving at once at the
/// procedure step that names it (7.4.7.c).
/// Moves `ids` from a pending removal state to its "resolving" state, so a
/// removal applied inside the trigger windows does not start this one again
/// (chapter 9: one removal kind resolves for all its cards at once).
pub(super) fn mark_resolving(game: &mut Game, ids: &[CardId], pending: &str, resolving: &str) {
    for id in ids {
        if let Some(c) = game.cards.get_mut(id) {
            c.states.remove(pending);
            c.states.insert(resolving.into());
        }
    }
}

pub(super) fn fire(m: &mut M, trigger: &str, cards: &[CardId], rule: &'static str) -> R<()> {
    let depth = m.game.own::<PmvState>().nesting + 1;
    if depth > MAX_NESTING {
        // Taken as a loop no player's choice ends (12.10.1); the loss of
        // 1.5.3.e or the draw of 1.5.4.b it brings is not modelled.
        return Err(EngineError::NotImplemented {
            clause: r::LOSE_LOOP,
            what: format!(
                "automatic effects ({trigger}) nested {MAX_NESTING} deep, taken as a loop no player's choice ends (12.10.1): who loses (1.5.3.e) or the draw (1.5.4.b)"
            ),
        });
    }
    m.game.own::<PmvState>().nesting = depth;
    let r = order_simultaneous(m, trigger, cards)
        .and_then(|(ordered, met)| fire_inner(m, trigger, &ordered, &met, rule));
    m.game.own::<PmvState>().nesting = depth - 1;
    r
}

/// Whether `id` is on the field with its text and prints a 自動γ with
/// `trigger`: its effect is met when the window opens.
fn meets(g: &Game, id: &str, trigger: &str) -> bool {
    on_field(g, id)
        && !is_popularity(g, id)
        && !face_down(g, id)
        && def(g, id).is_some_and(|d| d.abilities.iter().any(|a| a.trigger == trigger))
}

/// 7.1.6.a: the effects met at the same time resolve in the order their
/// players choose, the turn player's first, then the next player's. A
/// player with several chooses with `order.<trigger>` (addressed
/// `pN.order.<trigger>` on another player's action): all of their cards
/// met, in order; not given, they resolve in the order the cards are on
/// the field. Returns the cards in resolution order and those met.
fn order_simultaneous(
    m: &mut M,
    trigger: &str,
    cards: &[CardId],
) -> R<(Vec<CardId>, BTreeSet<CardId>)> {
    let met: BTreeSet<CardId> = cards
        .iter()
        .filter(|id| meets(&m.game, id, trigger))
        .cloned()
        .collect();
    if met.len() < 2 {
        return Ok((cards.to_vec(), met));
    }
    let tp = m.game.turn.active;
    let players = [tp, m.game.opponent(tp)];
    let controller = |g: &Game, id: &str| g.card(id).map(|c| c.controller);
    let mut ordered = Vec::new();
    let mut said = Vec::new();
    for p in players {
        let mine: Vec<CardId> = cards
            .iter()
            .filter(|id| met.contains(*id) && controller(&m.game, id) == Some(p))
            .cloned()
            .collect();
        if mine.is_empty() {
            continue;
        }
        let (list, note) = player_order(m, p, &format!("order.{trigger}"), mine)?;
        said.push(note);
        ordered.extend(list);
    }
    m.record(
        "auto.order",
        format!(
            "{} automatic effects ({trigger}) are met at the same time; each player orders their own, the turn player first: {}",
            met.len(),
            said.join("; ")
        ),
        &[r::EFFECT_ONE_AT_A_TIME, r::EFFECT_ORDER_TP_FIRST],
    );
    // The cards whose effect is not met keep their place after them (a
    // face-down card's void text is still noted).
    ordered.extend(cards.iter().filter(|id| !met.contains(*id)).cloned());
    Ok((ordered, met))
}

/// The order player `p` gives their own effects met together, on `mine`'s
/// cards, with choice `key` (7.1.6.a): all of them, each once; not given,
/// the order of `mine`. Returns the order and what the trace says of it.
pub(super) fn player_order(
    m: &mut M,
    p: PlayerId,
    key: &str,
    mine: Vec<CardId>,
) -> R<(Vec<CardId>, String)> {
    let chosen = if mine.len() > 1 {
        m.decided_by(p, |m| m.choices.ids(key, &mine))?
    } else {
        None
    };
    Ok(match chosen {
        Some(list) => {
            let distinct: BTreeSet<&CardId> = list.iter().collect();
            if list.len() != mine.len() || distinct.len() != mine.len() {
                return Err(EngineError::BadChoice {
                    choice: key.to_string(),
                    value: texts(&list).join(", "),
                    options: vec![format!(
                        "every one of {} once, in order",
                        texts(&mine).join(", ")
                    )],
                });
            }
            let note = format!("{} orders {}", player_name(p), texts(&list).join(", "));
            (list, note)
        }
        None if mine.len() > 1 => {
            let note = format!(
                "{} chose no order (`{key}`): {} as they are on the field",
                player_name(p),
                texts(&mine).join(", ")
            );
            (mine, note)
        }
        None => {
            let note = format!("{}: {}", player_name(p), mine[0]);
            (mine, note)
        }
    })
}

pub(super) fn fire_inner(
    m: &mut M,
    trigger: &str,
    cards: &[CardId],
    met: &BTreeSet<CardId>,
    rule: &'static str,
) -> R<()> {
    for id in cards {
        if game_over(&m.game) {
            return Ok(());
        }
        // 7.4.7.d: an effect met when the window opened whose card left the
        // field before its turn to resolve does not resolve.
        if met.contains(id) && !on_field(&m.game, id) {
            m.record(
                "auto.lapsed",
                format!("{id}'s automatic effect ({trigger}) is not resolved: the card left the field before its turn to resolve"),
                &[r::GAMMA_LAPSES],
            )
            .obj(id.clone());
            continue;
        }
        // A 人気 card has no text (5.4.4, 5.5.4, 5.6.3).
        if !on_field(&m.game, id) || is_popularity(&m.game, id) {
            continue;
        }
        // A face-down card's face-up text is void (5.7.4): say so when it
        // prints the trigger.
        if face_down(&m.game, id) {
            void_text_noted(m, id, trigger);
            continue;
        }
        let Some(d) = def(&m.game, id).cloned() else {
            continue;
        };
        let master = m
            .game
            .card(id)
            .map(|c| c.controller)
            .unwrap_or(PlayerId::P1);
        for ab in d.abilities.iter().filter(|a| a.trigger == trigger) {
            if window_void(m, trigger, id) {
                break;
            }
            if !gamma_condition(m, ab, id, master) {
                continue;
            }
            m.record(
                format!("auto.{trigger}"),
                format!("{id}'s automatic effect ({trigger}) resolves"),
                &[r::GAMMA, rule],
            )
            .obj(id.clone());
            let key = format!("{id}.{trigger}");
            let targets = choose_targets(m, ab, id, master, &key)?;
            if is_character(&m.game, id) && !taxes_paid(m, master, id, &targets, true)? {
                // 10.29.2.a: the character's effect is nullified and the
                // character is discarded.
                if let Some(c) = m.game.cards.get_mut(id) {
                    c.states.insert(st::DISCARDING.into());
                }
                process_removals(m)?;
                continue;
            }
            apply_ability(m, ab, id, master, &targets)?;
        }
    }
    Ok(())
}

pub(super) fn candidates(g: &Game, f: &Filter, master: PlayerId, this: &str) -> Vec<String> {
    let sides: Vec<PlayerId> = match f.side {
        Side::You => vec![master],
        Side::Opponent => vec![g.opponent(master)],
        Side::Any => g.player_ids().collect(),
    };
    let zone = f.zone.clone().unwrap_or_else(|| zn::FIELD.to_string());
    let mut out = Vec::new();
    for p in sides {
        for id in g.zone_of(p, &zone) {
            if (f.other && id == this) || is_popularity(g, id) {
                continue;
            }
            if !f.types.is_empty()
                && !f
                    .types
                    .iter()
                    .any(|t| is_type(g, id, t) || (t == "character" && is_character(g, id)))
            {
                continue;
            }
            if let Some(s) = &f.state
                && !g.card(id).is_some_and(|c| c.has(s))
            {
                continue;
            }
            // A face-down card has no characteristics (5.7.1): it fails
            // every characteristic part of a filter.
            if !f.parts().is_empty()
                && !def(g, id).is_some_and(|d| f.admits_characteristics(d, d.cost))
            {
                continue;
            }
            out.push(id.clone());
        }
    }
    texts(&out)
}

/// Why `id`, chosen as a target, is not a legal one: リーダー's shield
/// (10.34.2.a) or the text's own requirement (`rule`); `None` when `id`
/// names nothing in the game (bad input, not a ruling).
fn not_a_target(
    g: &Game,
    id: &str,
    shielded: &[impl AsRef<str>],
    rule: &'static str,
) -> Option<(&'static str, String)> {
    if shielded.iter().any(|s| s.as_ref() == id) {
        return Some((
            r::LEADER,
            "it has リーダー: not the target of an effect of its opponent's command card".into(),
        ));
    }
    let known = g.card(id).is_some() || g.player_ids().any(|p| player_name(p) == id);
    known.then(|| {
        (
            rule,
            "the text cannot choose it: its zone, type or characteristics do not match".into(),
        )
    })
}

/// Chooses the 目標 of every `chosen` effect of an ability (5.2.3.d): key
/// `key` for one such effect, `key#<effect index>` for several.
pub(super) fn choose_targets(
    m: &mut M,
    ab: &AbilityDef,
    this: &str,
    master: PlayerId,
    key: &str,
) -> R<BTreeMap<usize, Vec<Tgt>>> {
    let chosen_effects: Vec<usize> = ab
        .effect
        .iter()
        .enumerate()
        .filter(|(_, e)| matches!(e.target(), Some(Target::Chosen { .. })))
        .map(|(i, _)| i)
        .collect();
    let several = chosen_effects.len() > 1;
    let mut out = BTreeMap::new();
    for i in chosen_effects {
        let Some(Target::Chosen {
            filter,
            count,
            up_to,
            or_leader,
            ..
        }) = ab.effect[i].target()
        else {
            continue;
        };
        let k = if several {
            format!("{key}#{i}")
        } else {
            key.to_string()
        };
        let mut legal = candidates(&m.game, filter, master, this);
        if *or_leader {
            legal.extend(m.game.player_ids().map(player_name));
        }
        // 10.34.2.a: an opponent's leader is not a target of command effects.
        let shielded: Vec<String> = legal
            .iter()
            .filter(|id| untargetable(&m.game, id, this, master))
            .cloned()
            .collect();
        legal.retain(|id| !shielded.contains(id));
        let count = *count as usize;
        if !up_to && legal.len() < count {
            return Err(illegal(
                if shielded.is_empty() {
                    r::PLAY_TARGETS
                } else {
                    r::LEADER
                },
                format!(
                    "`{k}` needs {count} target(s); only {} legal{}",
                    legal.len(),
                    if shielded.is_empty() {
                        String::new()
                    } else {
                        format!(
                            " ({} has リーダー: not a target of the opponent's command effects)",
                            shielded.join(", ")
                        )
                    }
                ),
                legal,
            ));
        }
        let n = if *up_to {
            TargetCount::UpTo(count)
        } else {
            TargetCount::Exactly(count)
        };
        let why = |id: &str| not_a_target(&m.game, id, &shielded, r::PLAY_TARGETS);
        let given = match m.choices.targets(&k, &legal, n, why)? {
            Picked::Given(g) => {
                m.record(
                    "targets",
                    format!("`{k}`: {} chosen as target(s)", g.join(", ")),
                    &[r::PLAY_CHOOSE_TARGETS],
                );
                // Why a リーダー leader may be the target here: 10.34.2.a
                // shields it only from its opponent's command effects.
                let own_leaders: Vec<String> = g
                    .iter()
                    .filter(|id| {
                        has_kw(&m.game, id, "leader")
                            && is_type(&m.game, this, "command")
                            && m.game.card(id).is_some_and(|c| c.controller == master)
                    })
                    .cloned()
                    .collect();
                if !own_leaders.is_empty() {
                    m.record(
                        "targets.leader",
                        format!(
                            "{} has リーダー, which keeps it only from the opponent's command effects; {this} is its own player's command",
                            own_leaders.join(", ")
                        ),
                        &[r::LEADER],
                    );
                }
                g
            }
            Picked::Only(g) => {
                m.record(
                    "targets",
                    format!(
                        "`{k}`: the only legal target(s) {} are chosen",
                        g.join(", ")
                    ),
                    &[r::PLAY_CHOOSE_TARGETS],
                )
                .note("a choice with exactly one possible answer is made by the engine");
                g
            }
        };
        super::chosen_amount::fix(m, ab, this, i, &given);
        out.insert(i, given.iter().map(|id| tgt(&m.game, id)).collect());
    }
    Ok(out)
}

/// The target of 装備 (a character on the player's field, 10.13.2.a) or
/// 呪符 (any character, 10.14.2.a), from the choice `targets`.
pub(super) fn choose_set_target(m: &mut M, k: &str, card: &str, player: PlayerId) -> R<Tgt> {
    let (mut legal, mut rule) = if k == "equip" {
        (characters(&m.game, player), r::EQUIP)
    } else {
        (all_characters(&m.game), r::CHARM)
    };
    // 10.34.2.a: an opponent's leader is not a target of command effects.
    let shielded: Vec<CardId> = legal
        .iter()
        .filter(|id| untargetable(&m.game, id, card, player))
        .cloned()
        .collect();
    legal.retain(|id| !shielded.contains(id));
    // 10.25.2.a: a 神器 card cannot target a character without 伝説.
    if has_kw(&m.game, card, "divine_artifact") {
        legal.retain(|c| has_kw(&m.game, c, "legend"));
        rule = r::DIVINE_ARTIFACT;
    }
    if legal.is_empty() && !shielded.is_empty() {
        return Err(illegal(
            r::LEADER,
            format!(
                "{card} ({k}) needs a target character; {} has リーダー and is not the target of its opponent's command effects",
                shielded.join(", ")
            ),
            texts(&legal),
        ));
    }
    if legal.is_empty() {
        return Err(illegal(
            if rule == r::DIVINE_ARTIFACT {
                rule
            } else {
                r::PLAY_TARGETS
            },
            format!("{card} ({k}) needs a target character; there is none"),
            texts(&legal),
        ));
    }
    let why = |id: &str| not_a_target(&m.game, id, &shielded, rule);
    let given = match m
        .choices
        .targets("targets", &legal, TargetCount::Exactly(1), why)?
    {
        Picked::Given(g) => g,
        Picked::Only(g) => {
            m.record(
                "targets",
                format!("`targets`: the only legal target {} is chosen", g[0]),
                &[r::PLAY_CHOOSE_TARGETS, rule],
            )
            .note("a choice with exactly one possible answer is made by the engine");
            g
        }
    };
    m.record(
        "targets",
        format!("{card} ({k}) targets {}", given[0]),
        &[r::PLAY_CHOOSE_TARGETS, rule],
    );
    Ok(tgt(&m.game, &given[0]))
}

pub(super) fn who_players(g: &Game, master: PlayerId, who: Who) -> Vec<PlayerId> {
    g.who(master, who)
}

/// The objects an effect applies to; `None` when a chosen target is no
/// longer legal (8.2.5: the effect fails).
pub(super) fn resolve_target(
    m: &mut M,
    t: &Target,
    this: &str,
    master: PlayerId,
    chosen: Option<&Vec<Tgt>>,
) -> Option<Vec<String>> {
    match t {
        Target::This => Some(vec![this.to_string()]),
        Target::Player { who } => Some(
            who_players(&m.game, master, *who)
                .into_iter()
                .map(player_name)
                .collect(),
        ),
        Target::All { filter } => Some(all_now(m, filter, this, master)),
        Target::Random { filter } => {
            let c = candidates(&m.game, filter, master, this);
            if c.is_empty() {
                return Some(Vec::new());
            }
            let i = m.game.rng.below(c.len() as u64) as usize;
            Some(vec![c[i].clone()])
        }
        Target::Chosen { .. } => {
            let list = chosen.cloned().unwrap_or_default();
            if chosen_still_legal(&m.game, &list) {
                Some(list.into_iter().map(|t| t.0).collect())
            } else {
                None
            }
        }
    }
}

/// 8.2.6.c: "all" is the cards that meet the condition as the effect is
/// applied, whichever they were when the card was played: one that came
/// in since is included, one that left is not, and none is no failure.
fn all_now(m: &mut M, filter: &Filter, this: &str, master: PlayerId) -> Vec<String> {
    let objs = candidates(&m.game, filter, master, this);
    let which = if objs.is_empty() {
        "no card meets its condition now: it applies to none, and is not an illegal target"
            .to_string()
    } else {
        format!(
            "it applies to the cards that meet its condition now: {}",
            objs.join(", ")
        )
    };
    m.record(
        "targets.all",
        format!("{this}'s effect is on all: {which}"),
        &[r::ALL_AS_OF_RESOLUTION],
    );
    objs
}

/// Whether every chosen target is still a legal one: a player, or the same
/// object it was when chosen (8.2.5).
fn chosen_still_legal(g: &Game, chosen: &[Tgt]) -> bool {
    let n = g.players.len();
    chosen
        .iter()
        .all(|t| parse_player(&t.0, n).is_some() || same_object(g, t))
}

/// 8.2.5.a: as an effect starts to resolve, every target chosen for any of
/// its parts is checked; one no longer legal fails the whole effect before
/// any part is applied (a later part's target does not wait for 8.2.5.b).
fn a_target_is_gone_at_start(
    g: &Game,
    ab: &AbilityDef,
    targets: &BTreeMap<usize, Vec<Tgt>>,
) -> bool {
    ab.effect.iter().enumerate().any(|(i, e)| {
        matches!(e.target(), Some(Target::Chosen { .. }))
            && !chosen_still_legal(g, targets.get(&i).map_or(&[][..], |v| v.as_slice()))
    })
}

/// Applies an ability's effects front to back (7.1.9); an effect whose
/// target became illegal fails: all of it when that is so as it starts to
/// resolve (8.2.5.a), the rest of it when a part's target goes while an
/// earlier part applies (8.2.5.b; 7.1.12).
/// 自動γ met while it applies wait until the outermost effect ends
/// (7.4.7.c), then resolve (timing::flush).
pub(super) fn apply_ability(
    m: &mut M,
    ab: &AbilityDef,
    this: &str,
    master: PlayerId,
    targets: &BTreeMap<usize, Vec<Tgt>>,
) -> R<bool> {
    applying(&mut m.game, 1);
    let r = apply_ability_inner(m, ab, this, master, targets);
    let before = applying(&mut m.game, -1);
    let ok = r?;
    if before == 1 {
        flush(m)?;
    }
    Ok(ok)
}

fn apply_ability_inner(
    m: &mut M,
    ab: &AbilityDef,
    this: &str,
    master: PlayerId,
    targets: &BTreeMap<usize, Vec<Tgt>>,
) -> R<bool> {
    begin_ability(&mut m.game, this);
    if a_target_is_gone_at_start(&m.game, ab, targets) {
        m.record(
            "effect.fails",
            format!("a target of {this}'s effect is no longer legal as it starts to resolve: the effect fails and none of it is applied"),
            &[r::TARGET_RECHECK_AT_START, r::EFFECT_FAILS, r::ENTRY_VOID_CONTINUES],
        );
        return Ok(false);
    }
    for (i, e) in ab.effect.iter().enumerate() {
        if game_over(&m.game) {
            return Ok(false);
        }
        let objs = match e.target() {
            Some(t) => match resolve_target(m, t, this, master, targets.get(&i)) {
                Some(o) => o,
                None => {
                    m.record(
                        "effect.fails",
                        format!("a target of {this}'s effect is no longer legal as that part is applied: the effect fails and the rest is not applied"),
                        &[r::TARGET_RECHECK_ON_APPLY, r::EFFECT_FAILS, r::ENTRY_VOID_CONTINUES],
                    );
                    return Ok(false);
                }
            },
            None => Vec::new(),
        };
        let objs = &objs;
        // The objects as they are before the effect may move them (a
        // card that leaves is a new object, 3.1.7).
        let keys = object_keys(&m.game, objs);
        apply_effect(m, e, Applied { this, master, objs })?;
        stand(m, e, this, master, keys);
        // 7.4.5.c/d: continuous effects switch on and off mid-resolution.
        recheck_continuous(m)?;
        if !discard_applied_as_written(m, e, this, objs) {
            return Ok(false);
        }
    }
    Ok(true)
}

/// 7.1.12 / 7.1.12.e: a 破棄 part that a 「破棄されない」 card (9.3.8.c)
/// kept from applying was not applied as written. On a chosen card or on
/// this card the rest of the text is not applied and the effect fails
/// (7.1.12.a); on "all" the effect still succeeds. Returns whether the
/// resolution goes on.
fn discard_applied_as_written(m: &mut M, e: &Effect, this: &str, objs: &[String]) -> bool {
    let Effect::Destroy { target } = e else {
        return true;
    };
    let stayed: Vec<&String> = objs
        .iter()
        .filter(|o| {
            m.game
                .card(o.as_str())
                .is_some_and(|c| c.zone.kind == zn::FIELD && c.has(st::CANNOT_BE_DISCARDED))
        })
        .collect();
    if stayed.is_empty() {
        return true;
    }
    let names = texts(&stayed).join(", ");
    if matches!(target, Target::All { .. }) {
        m.record(
            "effect.all_partly",
            format!("{this}'s effect discards all: it succeeds though {names} did not become 破棄, and the rest of it is applied"),
            &[r::ALL_PARTLY_APPLIED, r::CANNOT_BE_DISCARDED],
        );
        return true;
    }
    m.record(
        "effect.fails",
        format!("{this}'s effect could not discard {names} as written: the rest of it is not applied and the effect fails"),
        &[r::EFFECT_FAILS, r::EFFECT_FAILS_WHOLE, r::CANNOT_BE_DISCARDED],
    );
    false
}

/// What an effect applies to: the card whose ability applies it (`this`),
/// the ability's master (7.1.3) and the objects its target selected.
#[derive(Debug, Clone, Copy)]
pub(super) struct Applied<'a> {
    pub this: &'a str,
    pub master: PlayerId,
    pub objs: &'a [String],
}

pub(super) fn apply_effect(m: &mut M, e: &Effect, at: Applied<'_>) -> R<()> {
    let Applied { this, master, objs } = at;
    match e {
        Effect::Damage { amount, .. } => {
            let batch = objs
                .iter()
                .map(|o| Dmg {
                    source: this.into(),
                    to: Recipient::of(o, m.game.players.len()),
                    amount: *amount,
                    combat: false,
                    pierce: false,
                })
                .collect();
            damage(m, batch)?;
        }
        Effect::Destroy { .. } | Effect::Banish { .. } => {
            let (state, rule, what) = match e {
                Effect::Destroy { .. } => (st::DISCARDING, r::DISCARD_APPLIED, "破棄 (discard)"),
                _ => (st::EXCLUDING, r::EXCLUDE_APPLIED, "除外 (exclude)"),
            };
            let mut applied = Vec::new();
            for o in objs {
                if let Some(c) = m.game.cards.get_mut(o.as_str())
                    && c.zone.kind == zn::FIELD
                {
                    c.states.insert(state.into());
                    applied.push(o.clone());
                }
            }
            for o in &applied {
                set_remover(&mut m.game, o, this);
            }
            // Nothing to remove (an effect on all that found no card,
            // 8.2.6.c): no removal is applied.
            if applied.is_empty() {
                return process_removals(m);
            }
            let e = m.record(
                "removal.apply",
                format!("{this}'s effect applies {what} to {}; the effect is suspended while the removal resolves", applied.join(", ")),
                &[rule, if state == st::DISCARDING { r::DISCARD_STATE } else { r::EXCLUDE_STATE }, if state == st::DISCARDING { r::KIND_DISCARD } else { r::KIND_EXCLUDE }, r::REMOVAL, r::REMOVAL_INTERRUPTS],
            );
            for o in applied {
                e.obj(o);
            }
            process_removals(m)?;
        }
        Effect::ReturnToHand { .. } => {
            if let Some(o) = objs.iter().find(|o| !set_cards(&m.game, o).is_empty()) {
                return Err(EngineError::NotImplemented {
                    clause: r::SET_CARD_TEXT,
                    what: format!("{o} returns to the hand with cards set on it"),
                });
            }
            for o in objs {
                if let Some(owner) = m.game.card(o).map(|c| c.owner) {
                    before_leaving_field(m, o);
                    m.game.move_card(o, ZoneId::of(owner, zn::HAND), false);
                    // 3.1.6: to its owner's hand; 3.1.7: as a new card,
                    // without what was given to it on the field.
                    m.record(
                        "return_to_hand",
                        format!("{o} returns to its owner's hand; the information given to it on the field is lost"),
                        &[r::ADD_TO_HAND, r::OWNERS_ZONE, r::INFO_LOST_ON_MOVE],
                    )
                    .obj(o.clone());
                }
            }
        }
        Effect::Draw { amount, who } => {
            let mut players = who_players(&m.game, master, *who);
            if players.len() > 1 {
                // Several players add to their hands at the same time: the
                // turn player first, then in turn order (1.11.5).
                let active = m.game.turn.active;
                let count = m.game.players.len();
                players.sort_by_key(|p| (p.index() + count - active.index()) % count);
                m.record(
                    "draw.order",
                    format!(
                        "every player draws {amount} at the same time: {} first, then in turn order",
                        player_name(active)
                    ),
                    &[r::HAND_SIMULTANEOUS],
                );
            }
            draw_at_once(m, &players, *amount, r::DRAW_AT_ONCE);
        }
        Effect::DrawUpTo { max, who } => {
            // Each player's count is chosen as the effect resolves; the
            // cards are added at once (1.11.4).
            for p in who_players(&m.game, master, *who) {
                let max_n = crate::engine::card::up_to_max(*max);
                let n = m
                    .choices
                    .count(&crate::engine::card::up_to_key(this, "draw", p), max_n)?;
                let text = format!("{} draws {n} of up to {max}", player_name(p));
                m.record("draw.up_to", text, &[r::DRAW_AT_ONCE]);
                draw_at_once(
                    m,
                    &[p],
                    i64::try_from(n).unwrap_or(i64::MAX),
                    r::DRAW_AT_ONCE,
                );
                if game_over(&m.game) {
                    return Ok(());
                }
            }
        }
        Effect::ChangeValue {
            value,
            amount,
            who,
            stays_above: Some(y),
        } => change_value_limited(m, value, *amount, *who, *y, master)?,
        Effect::ChangeValue {
            value, amount, who, ..
        } => {
            if value != "life" {
                return Err(bad(format!(
                    "PMV players have no value `{value}`; valid: life"
                )));
            }
            for p in who_players(&m.game, master, *who) {
                let before = m.game.value(p, "life");
                m.game.set_value(p, "life", before + amount);
                m.record(
                    "life",
                    format!(
                        "{} {} {} life",
                        player_name(p),
                        if *amount >= 0 { "gains" } else { "loses" },
                        amount.abs()
                    ),
                    &[
                        if *amount >= 0 {
                            r::LIFE_GAIN
                        } else {
                            r::LIFE_LOSS
                        },
                        r::LIFE_UNBOUNDED,
                    ],
                )
                .change(
                    format!("{}.life", player_name(p)),
                    before,
                    before + amount,
                );
                life_changed(m, p, before, before + amount);
            }
        }
        Effect::SwapPower { until, .. } => swap_power(m, this, objs, *until)?,
        Effect::SetPower {
            attack: a,
            defense: d,
            until,
            always,
            ..
        } => {
            check_duration(&m.game, *until)?;
            for o in objs {
                if let Some(c) = m.game.cards.get_mut(o.as_str()) {
                    // Each part is a change limited to its own value, so a
                    // change of attack and one of defense do not conflict
                    // (6.1.11.a); a later change of the same value wins
                    // (6.1.11), which the order of `modifiers` records.
                    for (stat, value) in [("attack", *a), ("defense", *d)] {
                        if let Some(value) = value {
                            c.modifiers.push(Modifier {
                                stat: stat.into(),
                                delta: value,
                                set: true,
                                always: *always,
                                until: *until,
                                source: this.into(),
                            });
                        }
                    }
                }
                let part = |v: Option<i64>| v.map_or("-".to_string(), |v| v.to_string());
                let under = m.game.card(o).is_some_and(|c| {
                    continuous_stat(&m.game, c, "attack").0.is_some()
                        || continuous_stat(&m.game, c, "defense").0.is_some()
                });
                let continuous_last = reading(&m.game, CONTINUOUS_CHANGE_LAST);
                let en = m.record(
                    "modify",
                    format!(
                        "{o} has its combat power changed to {}/{}",
                        part(*a),
                        part(*d)
                    ),
                    &[
                        r::POWER_CHANGE_FIRST,
                        r::POWER_CHANGE_LAST,
                        r::POWER_NO_CONFLICT,
                        r::COMBAT_POWER_FLOOR,
                    ],
                );
                en.obj(o.clone());
                if *always {
                    // 常に: applied after every other modification (6.1.10.d).
                    en.rule(r::POWER_ALWAYS);
                    en.text
                        .push_str(" \"always\" (常に): after every other modification");
                }
                if under {
                    en.rule(r::ALPHA_ORDER);
                    en.note(if continuous_last {
                        format!("reading chosen by the scenario ({CONTINUOUS_CHANGE_LAST}): the continuous 自動α/β change is applied after this resolved change, so it wins")
                    } else {
                        format!("judge's reading: a continuous 自動α/β also changes this value; the rules do not order it against a resolved effect's change: judges apply the resolved change on top (it is the latest applied, 6.1.11; option {CONTINUOUS_CHANGE_LAST}: the continuous change wins)")
                    });
                }
            }
            process_removals(m)?;
        }
        Effect::Buff {
            attack: a,
            defense: d,
            until,
            ..
        } => {
            check_duration(&m.game, *until)?;
            for o in objs {
                if let Some(c) = m.game.cards.get_mut(o.as_str()) {
                    c.buff(*a, *d, *until, this);
                }
                let e = m.record(
                    "modify",
                    format!("{o} gets {a:+}/{d:+}"),
                    &[r::POWER_ADD, r::COMBAT_POWER_FLOOR],
                );
                e.obj(o.clone());
                if *a == 0 || *d == 0 {
                    e.rule(r::ZERO_MODIFIER);
                    e.text.push_str(" (a ±0 part is no modifier at all)");
                }
            }
            process_removals(m)?;
        }
        Effect::SetState { state, clear, .. } if state == st::DOOMED => {
            make_doomed(m, this, objs, *clear)?
        }
        Effect::ResetDamage { .. } => reset_damage_effect(m, objs)?,
        Effect::SetState { state, clear, .. } => {
            for o in objs {
                let Some(c) = m.game.cards.get_mut(o.as_str()) else {
                    continue;
                };
                let has = c.states.contains(state);
                if has != *clear {
                    m.record(
                        "state",
                        format!(
                            "{o} is already {}: the effect does not apply to it",
                            if *clear {
                                "not ".to_string() + state
                            } else {
                                state.clone()
                            }
                        ),
                        &[r::MAKE_ACTIVE_SLEEP_NOOP],
                    );
                    continue;
                }
                if *clear {
                    c.states.remove(state);
                } else {
                    c.states.insert(state.clone());
                }
                m.record(
                    "state",
                    format!("{o}: {state} {}", if *clear { "cleared" } else { "set" }),
                    &[r::SLEEP_ACTIVE],
                )
                .change(format!("{o}.{state}"), *clear, !*clear);
            }
        }
        Effect::AddCounter {
            counter, amount, ..
        } => {
            for o in objs {
                if let Some(c) = m.game.cards.get_mut(o.as_str()) {
                    *c.counters.entry(counter.clone()).or_default() += amount;
                }
            }
        }
        Effect::NullifyRemoval { removal, .. } => {
            nullify_removal(m, this, removal.as_deref(), objs)?;
        }
        Effect::Shuffle { who } => {
            for p in who_players(&m.game, master, *who) {
                let n = m.game.shuffle_zone(&ZoneId::of(p, zn::DECK));
                m.record(
                    "effect.shuffle",
                    format!("an effect shuffles {}'s deck ({n} cards); otherwise its order never changes", player_name(p)),
                    &[r::DECK_ORDER],
                );
            }
        }
        Effect::NullifyDamage { who } => {
            for p in who_players(&m.game, master, *who) {
                let key = shield_var(p);
                let n = var(&m.game, &key) + 1;
                vars_mut(&mut m.game).insert(key, n);
                m.record(
                    "nullify_damage",
                    format!(
                        "this turn, the next damage {} would take is nullified ({n} waiting)",
                        player_name(p)
                    ),
                    &[r::DAMAGE_NULLIFIED],
                );
            }
        }
        Effect::PayLife {
            amount,
            chosen,
            who,
            var,
        } => pay_life(m, amount, *chosen, *who, var, this, master)?,
        Effect::SetValue { value, amount, who } => set_life(m, value, amount, *who, this, master)?,
        Effect::PayCost {
            amount,
            life,
            optional,
            var,
            otherwise,
        } => pay_cost(m, amount, life, *optional, var, otherwise, this, master)?,
        Effect::Declare { var, .. } => declared(m, var, this)?,
        Effect::ModifyCost { .. } => {
            // A modifier is continuous text read while a card is played
            // (flow/playmods.rs); one created by a resolving effect (for
            // "the next card you play") is not modelled.
            return Err(EngineError::NotImplemented {
                clause: r::PLAY_MOD_LASTS,
                what: format!(
                    "a `modify_cost` created by {this}'s resolving effect; write it as continuous `auto_alpha` / `auto_beta` text"
                ),
            });
        }
        Effect::Win { who } => {
            let ws = who_players(&m.game, master, *who);
            m.game.win(&ws);
            let names = crate::engine::player_names(&ws);
            let text = format!("an effect makes {names} win the game");
            m.record("win.effect", text, &[r::WIN_EFFECT]);
            game_over_check(m);
        }
        Effect::Restrict { .. } => apply_restrict(m, e, at)?,
        Effect::Attack { .. } => apply_attack(m, e, at)?,
        Effect::Block { .. } => apply_block(m, this, objs)?,
        Effect::CancelAttack => apply_cancel_attack(m, this)?,
        Effect::TurnFace {
            up,
            only_from_other,
            ..
        } => turn_face(m, *up, *only_from_other, this, objs)?,
        Effect::Become { card, .. } => become_character(m, card, this, objs)?,
        Effect::ChangeInfo { .. } => change_name(m, e, this, objs)?,
        Effect::ChangeText { card, until, .. } => change_text(m, card, *until, this, objs)?,
        Effect::ChangeTarget { .. } => apply_change_target(m, e, at)?,
        Effect::Lose { who } => {
            for p in who_players(&m.game, master, *who) {
                m.game.players[p].lost = true;
                m.record(
                    "loss.effect",
                    format!("an effect makes {} lose the game", player_name(p)),
                    &[r::LOSS_EFFECT],
                );
            }
            game_over_check(m);
        }
        Effect::EndTurn
        | Effect::EndPhase
        | Effect::ExtraPhase { .. }
        | Effect::SkipPhase { .. } => apply_turn_effect(m, e, this, master)?,
        Effect::ResolveAsPlayed { .. } => resolve_as_played(m, e, at)?,
        // Returned directly (no `?`), so this frame, deep in chains of
        // automatic effects, does not grow (engine_pmv runs one to the
        // stack's limit).
        Effect::AmountOfChosen { .. } => return super::chosen_amount::apply(m, e, at),
        other => {
            // The loader refuses every effect PMV does not declare
            // (`VOCABULARY`; PMV has no tokens).
            return Err(EngineError::NotImplemented {
                clause: r::CARD_TEXT,
                what: format!("the effect `{}`", other.word()),
            });
        }
    }
    Ok(())
}

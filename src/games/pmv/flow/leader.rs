//! リーダー Leader (10.34): 人気 popularity set cards, the popularity-tier
//! text a leader gains (2.13.4–5, 10.34.2.a), its activated nullification
//! of damage (10.34.2.d with 1.10.15) and one leader per player
//! (10.34.3–4).
//!
//! A 人気 card is a card set on the leader (`attached_to`, in the field
//! zone) with the state [`st::POPULARITY`]. It has no text (5.4.4, 5.5.4,
//! 5.6.3: a card set on another card, not as 装備 / 呪符) and gives no
//! combat modifier; it is no character, so no effect of the effect language
//! reaches it. It leaves with its host (9.3.4.e–g, 9.4.4.e–l).

use super::*;
use crate::engine::{Condition, texts};

/// The count a popularity-tier `condition` bounds (`condition.count`).
pub const POPULARITY_COUNT: &str = "popularity";

/// Whether `id` is a card set as 人気 on another card.
pub(super) fn is_popularity(g: &Game, id: &str) -> bool {
    g.card(id)
        .is_some_and(|c| c.has(st::POPULARITY) && c.attached_to.is_some())
}

/// The 人気 cards set on `host`, in id order.
pub(super) fn popularity(g: &Game, host: &str) -> Vec<CardId> {
    set_cards(g, host)
        .into_iter()
        .filter(|s| is_popularity(g, s))
        .collect()
}

/// The leaders on `p`'s field.
fn leaders(g: &Game, p: PlayerId) -> Vec<CardId> {
    characters(g, p)
        .into_iter()
        .filter(|c| has_kw(g, c, "leader"))
        .collect()
}

/// The tier of 2.13.5 a popularity condition writes: 4 (人気爆発, at least
/// 4), 2 (人気者ボーナス, at least 2), 1 (通常時, at least 1) or 0
/// (不人気者ペナルティ, none).
fn tier_of(c: &Condition) -> Option<i64> {
    match (c.at_least, c.at_most) {
        (Some(n @ (4 | 2 | 1)), None) => Some(n),
        (None | Some(0), Some(0)) => Some(0),
        _ => None,
    }
}

/// The highest tier a count satisfies.
fn top_tier(n: i64) -> i64 {
    match n {
        4.. => 4,
        2..=3 => 2,
        1 => 1,
        _ => 0,
    }
}

fn tier_name(t: i64) -> &'static str {
    match t {
        4 => "人気爆発 popularity explosion (4 or more)",
        2 => "人気者ボーナス popularity bonus (2 or more)",
        1 => "通常時 normal (1 or more)",
        _ => "不人気者ペナルティ unpopularity penalty (none)",
    }
}

fn tier_rule(t: i64) -> &'static str {
    match t {
        4 => r::TIER_EXPLOSION,
        2 => r::TIER_BONUS,
        1 => r::TIER_NORMAL,
        _ => r::TIER_PENALTY,
    }
}

/// Whether the `popularity` count part of a condition holds for `id`. A
/// popularity-tier text is not the card's own text (2.13.4): only a leader
/// on the field gains it, by its 人気 count (10.34.2.a); each tier whose
/// condition holds applies (judges' reading), or only the highest with
/// [`TIERS_EXCLUSIVE`].
pub(super) fn popularity_holds(g: &Game, id: &str, c: &Condition) -> bool {
    if !has_kw(g, id, "leader") || !on_field(g, id) {
        return false;
    }
    let n = popularity(g, id).len() as i64;
    if reading(g, TIERS_EXCLUSIVE) {
        tier_of(c) == Some(top_tier(n))
    } else {
        c.bounds_hold(n)
    }
}

/// Checks the definitions the module cannot run, before anything happens:
/// a popularity condition that is not one of the four tiers of 2.13.5, and
/// リーダー on a card that is not a character.
pub(super) fn unsupported_definition(g: &Game) -> Option<EngineError> {
    for (k, d) in &g.defs {
        for ab in &d.abilities {
            if let Some(c) = &ab.condition
                && c.count.as_deref() == Some(POPULARITY_COUNT)
                && tier_of(c).is_none()
            {
                return Some(bad(format!(
                    "card `{k}`: a `popularity` condition must be one of the four tiers of 2.13.5 ({{\"at_least\": 4}}, {{\"at_least\": 2}}, {{\"at_least\": 1}} or {{\"at_most\": 0}})"
                )));
            }
        }
        if d.has_keyword("leader") && d.card_type != "character" {
            return Some(EngineError::NotImplemented {
                clause: r::LEADER_TEXT,
                what: format!("card `{k}`: リーダー on a {} card", d.card_type),
            });
        }
    }
    None
}

/// Records which popularity tiers `host` has now, with the reading.
fn record_tiers(m: &mut M, host: &str) {
    let n = popularity(&m.game, host).len() as i64;
    let exclusive = reading(&m.game, TIERS_EXCLUSIVE);
    let tiers: Vec<i64> = if exclusive || n == 0 {
        vec![top_tier(n)]
    } else {
        [4, 2, 1].into_iter().filter(|t| n >= *t).collect()
    };
    let mut rules = vec![r::LEADER, r::TIER_TEXT, r::TIERS];
    rules.extend(tiers.iter().map(|t| tier_rule(*t)));
    rules.extend([r::ALPHA_CONDITION, r::ALPHA_APPLIES, r::ALPHA_STOPS]);
    let e = m.record(
        "leader.tiers",
        format!(
            "{host} has {n} 人気: its popularity-tier text in effect is {}",
            tiers
                .iter()
                .map(|t| tier_name(*t))
                .collect::<Vec<_>>()
                .join(" + ")
        ),
        &rules,
    );
    e.obj(host.to_string());
    if n >= 2 {
        e.note(if exclusive {
            "reading chosen by the scenario (reading_popularity_tiers_exclusive): only the highest tier whose condition holds applies"
        } else {
            "judge's reading: each tier is text whose condition is \"N or more 人気\" (2.13.5 a–c), so every tier whose condition holds applies; the tiers stack"
        });
    }
}

/// Sets the top card of the leader's player's deck on `host` as 人気
/// (10.34.2.b / c). An empty deck sets nothing.
fn set_popularity(m: &mut M, host: &str, rule: &'static str) -> R<()> {
    let Some(p) = m.game.card(host).map(|c| c.controller) else {
        return Ok(());
    };
    let Some(top) = m.game.zone_of(p, zn::DECK).first().cloned() else {
        empty_deck_popularity(m, p, host, rule);
        return Ok(());
    };
    if def(&m.game, &top).is_some_and(|d| set_keyword(d).is_some()) {
        return Err(EngineError::NotImplemented {
            clause: r::SET_CARD_TEXT,
            what: format!("{top}, a 装備 / 呪符 card, set as 人気 on a character"),
        });
    }
    let before = popularity(&m.game, host).len();
    m.game.move_card(&top, ZoneId::of(p, zn::FIELD), false);
    if let Some(c) = m.game.cards.get_mut(&top) {
        c.attached_to = Some(host.into());
        c.states.insert(st::POPULARITY.into());
    }
    let no_text = no_text_rule(&m.game, &top);
    m.record(
        "leader.popularity",
        format!("the top card of {}'s deck, {top}, is set on {host} as 人気; set on another card, it has no text", player_name(p)),
        &[rule, no_text],
    )
    .obj(top.clone())
    .obj(host.to_string())
    .change(format!("{host}.popularity"), before, before + 1);
    record_tiers(m, host);
    Ok(())
}

/// The reading flag: setting the top card of an empty deck as 人気
/// (10.34.2.b / c) is a draw the deck cannot give, so its player loses
/// (1.5.3.b, 1.11.7), instead of the judges' reading (it is not a draw:
/// nothing is set and no one loses). The rulebook says neither.
pub const EMPTY_DECK_POPULARITY_LOSES: &str = "reading_empty_deck_popularity_loses";

/// 10.34.2.b / c with `p`'s deck empty: nothing is set on `host`, and
/// under [`EMPTY_DECK_POPULARITY_LOSES`] `p` loses.
fn empty_deck_popularity(m: &mut M, p: PlayerId, host: &str, rule: &'static str) {
    if reading(&m.game, EMPTY_DECK_POPULARITY_LOSES) {
        m.game.players[p].lost = true;
        m.record(
            "leader.popularity",
            format!(
                "{}'s deck is empty: nothing can be set on {host}, and {} loses at once",
                player_name(p),
                player_name(p)
            ),
            &[rule, r::DECK_OUT, r::LOSS_DECK],
        )
        .note(format!("reading chosen by the scenario ({EMPTY_DECK_POPULARITY_LOSES}): taking the deck's top card is read as a draw the deck cannot give (1.5.3.b, 1.11.7)"));
        game_over_check(m);
        return;
    }
    m.record(
        "leader.popularity",
        format!("{}'s deck is empty: nothing is set on {host}", player_name(p)),
        &[rule],
    )
    .note(format!("judge's reading: setting the top card is not a draw (1.5.3.b and 1.11.7 name only a draw), so an empty deck sets nothing and causes no loss (option {EMPTY_DECK_POPULARITY_LOSES}: it is read as a draw, and the player loses)"));
}

/// The clause that leaves a card set on another card without text, by its
/// type: 5.4.4 (character), 5.5.4 (spell), 5.6.3 (command).
pub(super) fn no_text_rule(g: &Game, id: &str) -> &'static str {
    match def(g, id).map(|d| d.card_type.as_str()) {
        Some("spell") => r::SET_SPELL_NO_TEXT,
        Some("command") => r::SET_COMMAND_NO_TEXT,
        _ => r::SET_CHARACTER_NO_TEXT,
    }
}

/// Applies 破棄 to 人気 cards of `host` (a cost or 10.34.2.e); they go to
/// their owner's Netherworld through the removal procedure (9.3.4).
fn discard_popularity(m: &mut M, host: &str, ids: &[CardId], rule: &'static str) -> R<()> {
    let before = popularity(&m.game, host).len();
    for id in ids {
        if let Some(c) = m.game.cards.get_mut(id) {
            c.states.insert(st::DISCARDING.into());
        }
    }
    m.record(
        "leader.discard",
        format!(
            "{} 人気 of {host} ({}) {} discarded",
            ids.len(),
            ids.join(", "),
            if ids.len() == 1 { "is" } else { "are" }
        ),
        &[rule, r::DISCARD_APPLIED, r::DISCARD_STATE],
    )
    .obj(host.to_string())
    .change(format!("{host}.popularity"), before, before - ids.len());
    process_removals(m)?;
    record_tiers(m, host);
    Ok(())
}

/// 10.34.3: a leader about to be set on `p`'s field when that field
/// already has one: the set fails and the card goes to the Netherworld.
/// Returns whether the set failed.
pub(super) fn second_leader_fails(m: &mut M, card: &str, p: PlayerId) -> bool {
    if !has_kw(&m.game, card, "leader") {
        return false;
    }
    let already = leaders(&m.game, p);
    if already.is_empty() {
        return false;
    }
    let owner = m.game.card(card).map(|c| c.owner).unwrap_or(p);
    m.game
        .move_card(card, ZoneId::of(owner, zn::NETHERWORLD), true);
    let note = if failed_set_counts(&m.game) {
        format!(
            "judge's reading: the play itself resolved (only the set failed), so it still counts for 5.4.1.d (option {FAILED_LEADER_NOT_COUNTED}: it does not)"
        )
    } else {
        format!(
            "reading chosen by the scenario ({FAILED_LEADER_NOT_COUNTED}): no character was set, so the play does not count for 5.4.1.d"
        )
    };
    m.record(
        "leader.set_failed",
        format!(
            "{}'s field already has a leader ({}): setting {card} fails and it is put into the Netherworld",
            player_name(p),
            already.join(", ")
        ),
        &[r::LEADER_ONE, r::LEADER_SPECIAL, r::RESOLVE_TO_NETHERWORLD],
    )
    .obj(card.to_string())
    .note(note);
    true
}

/// The reading flag: a leader whose set failed (10.34.3) does not count as
/// the turn's one character play of 5.4.1.d, instead of the judges' reading
/// (the play resolved, so it counts). The rulebook says neither.
pub const FAILED_LEADER_NOT_COUNTED: &str = "reading_failed_leader_set_not_counted";

/// Whether a leader play whose set failed still counts for 5.4.1.d.
pub(super) fn failed_set_counts(g: &Game) -> bool {
    !reading(g, FAILED_LEADER_NOT_COUNTED)
}

/// 10.34.2.b (自動β): a leader that was played and entered the field.
pub(super) fn entered(m: &mut M, card: &str) -> R<()> {
    if !has_kw(&m.game, card, "leader") || !on_field(&m.game, card) {
        return Ok(());
    }
    m.record(
        "leader.enter",
        format!("{card} has リーダー and was played onto the field: its 自動β sets the top card of its player's deck on it as 人気"),
        &[r::LEADER_SET_ON_PLAY, r::LEADER_TEXT, r::AUTO_BETA],
    )
    .obj(card.to_string());
    set_popularity(m, card, r::LEADER_SET_ON_PLAY)
}

/// 10.34.2.c (自動γ), at step 1.10.12.e: `damaged` players took damage;
/// each leader whose player's turn it is and whose opponent took damage
/// sets the top card of its deck as 人気, once per turn.
pub(super) fn opponent_took_damage(m: &mut M, damaged: &[PlayerId]) -> R<()> {
    let tp = m.game.turn.active;
    // Why a non-turn player's leader sets nothing: 10.34.2.c reads "in your
    // turn".
    for q in m.game.player_ids().filter(|q| *q != tp) {
        if damaged.iter().any(|p| *p != q) {
            for l in leaders(&m.game, q) {
                m.record(
                    "leader.not_your_turn",
                    format!(
                        "{}'s opponent took damage, but in {}'s turn: {l}'s 自動γ works only in its player's own turn",
                        player_name(q),
                        player_name(tp)
                    ),
                    &[r::LEADER_SET_ON_DAMAGE],
                )
                .obj(l.clone());
            }
        }
    }
    if !damaged.iter().any(|p| *p != tp) {
        return Ok(());
    }
    for l in leaders(&m.game, tp) {
        let key = format!("turn.leader_damage_set.{l}");
        if var(&m.game, &key) > 0 {
            m.record(
                "leader.once",
                format!("{l}'s 自動γ (an opponent took damage) already resolved this turn: it does not resolve again"),
                &[r::LEADER_SET_ON_DAMAGE],
            )
            .obj(l.clone());
            continue;
        }
        vars_mut(&mut m.game).insert(key, 1);
        m.record(
            "leader.damage",
            format!(
                "in {}'s turn the opponent took damage: {l}'s 自動γ sets the top card of the deck on it as 人気 (once per turn)",
                player_name(tp)
            ),
            &[r::LEADER_SET_ON_DAMAGE, r::GAMMA, r::DAMAGE_E],
        )
        .obj(l.clone());
        set_popularity(m, &l, r::LEADER_SET_ON_DAMAGE)?;
    }
    Ok(())
}

/// 10.34.2.e (自動γ) at end of turn: a leader with 4 or more 人気 discards
/// down to 1; its player keeps the one named by the choice
/// `<leader>.end_of_turn`.
pub(super) fn end_of_turn(m: &mut M) -> R<()> {
    let tp = m.game.turn.active;
    for p in [tp, m.game.opponent(tp)] {
        for l in leaders(&m.game, p) {
            let pop = popularity(&m.game, &l);
            if pop.len() < 4 {
                continue;
            }
            let key = format!("{l}.end_of_turn");
            let keep = match m.choices.one_id(&key, &pop)? {
                Some(k) => k,
                None => {
                    return Err(EngineError::MissingChoice {
                        choice: key,
                        options: texts(&pop),
                    });
                }
            };
            m.record(
                "leader.end_of_turn",
                format!("end of turn: {l} has {} 人気, 4 or more: its 自動γ discards down to 1, keeping {keep}", pop.len()),
                &[r::LEADER_END_OF_TURN, r::GAMMA, r::TURN_END_EFFECTS],
            )
            .obj(l.clone());
            let gone: Vec<CardId> = pop.into_iter().filter(|c| *c != keep).collect();
            discard_popularity(m, &l, &gone, r::LEADER_END_OF_TURN)?;
        }
    }
    Ok(())
}

/// Whether `id` cannot be the 目標 of an effect of `source` mastered by
/// `master`: a leader is not the target of its opponent's command-card
/// effects (10.34.2.a).
pub(super) fn untargetable(g: &Game, id: &str, source: &str, master: PlayerId) -> bool {
    has_kw(g, id, "leader")
        && on_field(g, id)
        && is_type(g, source, "command")
        && g.card(id).is_some_and(|c| c.controller != master)
}

/// The reading flag: the nullification of 10.34.2.d applies even when the
/// leader has no 人気 left to discard (the default follows 8.1.3.a: the
/// whole effect fails).
pub const LEADER_NULLIFY_WITHOUT_DISCARD: &str = "reading_leader_nullify_without_discard";

/// Uses a leader's activated effect (10.34.2.d): （相手ターン）０：… In the
/// syntax 「（タイミング）コスト：効果」 (7.3.2) the cost is 0; discarding 1 人気
/// is the first part of the *effect*, done when it resolves. It joins the
/// interference like any activated effect (7.3.4).
pub(super) fn activate(m: &mut M, p: Pri, player: PlayerId, card: &str) -> R<()> {
    let g = &m.game;
    let alts = legal_actions(g, &p);
    let fail = |rule, msg: String| illegal(rule, msg, alts.clone());
    let c = activation_source(g, &alts, player, card)?;
    if player == g.turn.active {
        return Err(fail(
            r::ACT_OPPONENT_TURN,
            format!(
                "{card}'s リーダー effect is （相手ターン）: it is used only in the opponent's turn (10.34.2.d)"
            ),
        ));
    }
    if p.used(card, is_leader_effect) {
        return Err(fail(
            r::ACT_ONCE,
            format!("{card}'s リーダー effect was already used in this interference"),
        ));
    }
    let inc = c.incarnation;
    m.record(
        "activate.declare",
        format!(
            "{} uses {card}'s リーダー effect （相手ターン）０: its cost is 0, so nothing is paid now; discarding 1 人気 and the nullification are its effect, on resolution",
            player_name(player)
        ),
        &[
            r::ACTIVATED,
            r::ACT_DECLARE,
            r::ACT_ON_FIELD,
            r::ACT_OWN_FIELD,
            r::ACT_OPPONENT_TURN,
            r::ACT_SYNTAX,
            r::LEADER_NULLIFY,
            r::PRIORITY_ACTIONS,
            r::PA_ACTIVATE,
        ],
    )
    .obj(card.to_string());
    push_activated(m, p, player, card, Activated::Leader { incarnation: inc })
}

/// リーダー's （相手ターン）０ among the activated effects (for 7.3.6).
pub(super) fn is_leader_effect(a: &Activated) -> bool {
    matches!(a, Activated::Leader { .. })
}

/// Resolves the leader's activated effect: void if the leader left the
/// field (7.3.1.b); otherwise it discards 1 人気 set on the leader (choice
/// `<leader>.discard` when there are several), then applies the
/// `nullify_damage` effect for its player.
pub(super) fn resolve(m: &mut M, e: &Entry, inc: u32) -> R<()> {
    let card = &e.card;
    if !same_on_field(&m.game, &(card.to_string(), inc)) {
        m.record(
            "activate.void",
            format!(
                "{card} left the field before its リーダー effect resolved: the effect is void"
            ),
            &[r::ACT_SOURCE_LEFT],
        );
        return Ok(());
    }
    m.record(
        "activate.resolve",
        format!("{card}'s リーダー effect resolves"),
        &[r::ACT_TIMING_RECHECK, r::ACT_RESOLVE, r::LEADER_NULLIFY],
    )
    .obj(card.clone());
    let pop = popularity(&m.game, card);
    let key = format!("{card}.discard");
    let discarded = match m.choices.one_id(&key, &pop)? {
        Some(k) => Some(k),
        None if pop.len() <= 1 => pop.first().cloned(),
        None => {
            return Err(EngineError::MissingChoice {
                choice: key,
                options: texts(&pop),
            });
        }
    };
    match &discarded {
        Some(k) => discard_popularity(m, card, std::slice::from_ref(k), r::LEADER_NULLIFY)?,
        None => {
            if !no_popularity_still_nullifies(m, card) {
                return Ok(());
            }
        }
    }
    let at = Applied {
        this: card,
        master: e.player,
        objs: &[],
    };
    apply_effect(m, &Effect::NullifyDamage { who: Who::You }, at)
}

/// 10.34.2.d with no 人気 left: 〔このキャラクターにセットされている「人気」１枚〕
/// is an object (対象, written in 〔〕) designated as the effect applies
/// (8.1.3); the whole text is one effect (7.1.9), and an effect that cannot
/// designate even part of its objects fails as a whole (8.1.3.a), so the
/// nullification does not apply either. Whether it still applies under
/// the other reading (no 「そうした場合」 ties it to the discard).
fn no_popularity_still_nullifies(m: &mut M, card: &CardId) -> bool {
    let without = reading(&m.game, LEADER_NULLIFY_WITHOUT_DISCARD);
    let (text, rules): (String, &[&'static str]) = if without {
        (
            format!(
                "{card} has no 人気 left to discard: under reading `{LEADER_NULLIFY_WITHOUT_DISCARD}` that part does nothing and the nullification still applies"
            ),
            &[r::LEADER_NULLIFY],
        )
    } else {
        (
            format!(
                "{card} has no 人気 left to discard: its object 〔「人気」１枚〕 cannot be designated, so the whole effect fails and the damage is not nullified"
            ),
            &[
                r::LEADER_NULLIFY,
                r::OBJECTS_ON_RESOLUTION,
                r::OBJECT_MISSING_WHOLE_FAILS,
                r::ONE_TEXT_ONE_EFFECT,
            ],
        )
    };
    m.record("leader.no_popularity", text, rules)
        .obj(card.clone())
        .note(format!("judge's reading: the 人気 to discard is an object in 〔〕 (8.1.3) of the one effect the text makes (7.1.9), so with none the whole effect fails (8.1.3.a); the erratum of 2016-09-07 does not say (flag `{LEADER_NULLIFY_WITHOUT_DISCARD}`: the nullification is read as a separate part, not tied to the discard by 「そうした場合」, and applies alone)"));
    without
}

/// The variable counting the nullifications waiting for `p` this turn.
pub(super) fn shield_var(p: PlayerId) -> String {
    turn_var("nullify_damage", p)
}

/// At step 1.10.12.b: a damage to a player with a nullification waiting
/// is nullified, one nullification per damage (the next damage, 10.34.2.d);
/// its procedure ends at once (1.10.15): it is removed from `live`, so
/// steps c–f and their effects do not happen for it.
pub(super) fn nullify(m: &mut M, live: &mut Vec<Dmg>) {
    let batch = live.len();
    let one_procedure = reading(&m.game, NULLIFY_ENDS_SIMULTANEOUS);
    let mut nullified = false;
    let mut kept = Vec::new();
    for d in live.drain(..) {
        let Some(p) = d.to.player() else {
            kept.push(d);
            continue;
        };
        let key = shield_var(p);
        let left = var(&m.game, &key);
        if left <= 0 {
            kept.push(d);
            continue;
        }
        vars_mut(&mut m.game).insert(key, left - 1);
        let e = m.record(
            "damage.nullified",
            format!(
                "the {} damage {} would deal to {} is nullified: its damage procedure ends here, and steps c–f do not happen for it",
                d.amount, d.source, d.to
            ),
            &[r::DAMAGE_NULLIFIED, r::DAMAGE_B],
        );
        if batch > 1 {
            e.note(if one_procedure {
                format!("reading chosen by the scenario ({NULLIFY_ENDS_SIMULTANEOUS}): damages dealt at the same time share one procedure (1.10.12), so nullifying one ends it for all")
            } else {
                format!("judge's reading: damages dealt at the same time each have their own procedure (1.10.3); nullifying one ends only that one's (option {NULLIFY_ENDS_SIMULTANEOUS}: it ends all)")
            });
        }
        nullified = true;
    }
    if nullified && one_procedure {
        for d in kept.drain(..) {
            m.record(
                "damage.nullified",
                format!(
                    "the {} damage {} would deal to {} was dealt at the same time: the shared procedure has ended, so steps c–f do not happen for it",
                    d.amount, d.source, d.to
                ),
                &[r::DAMAGE_NULLIFIED, r::DAMAGE_B],
            )
            .note(format!("reading chosen by the scenario ({NULLIFY_ENDS_SIMULTANEOUS})"));
        }
    }
    *live = kept;
}

/// The reading flag: nullifying one of several damages dealt at the same
/// time ends the procedure they go through together (1.10.12, 1.10.15), so
/// none of them is applied, instead of the judges' reading (each damage has
/// its own procedure, 1.10.3).
pub const NULLIFY_ENDS_SIMULTANEOUS: &str = "reading_nullify_ends_simultaneous_damage";

/// 10.34.4: a field with two or more leaders keeps one, chosen by that
/// field's player (`keep.<player>.leader`); the others go to the
/// Netherworld. The engine looks at the start of each action: in a
/// scenario only the starting board can hold two (10.34.3 stops a second
/// one from being set).
pub(super) fn uniqueness(m: &mut M) -> R<()> {
    for p in m.game.player_ids() {
        let ls = leaders(&m.game, p);
        if ls.len() < 2 {
            continue;
        }
        let key = format!("keep.{}.leader", player_name(p));
        let keep = match m.choices.one_id(&key, &ls)? {
            Some(k) => k,
            None => {
                return Err(EngineError::MissingChoice {
                    choice: key,
                    options: texts(&ls),
                });
            }
        };
        for l in ls.iter().filter(|l| **l != keep) {
            discard_set_cards(m, l, r::DISCARD_SET_CARDS);
            let owner = m.game.card(l).map(|c| c.owner).unwrap_or(p);
            m.game
                .move_card(l, ZoneId::of(owner, zn::NETHERWORLD), true);
            m.record(
                "leader.uniqueness",
                format!(
                    "{}'s field has {} leaders: {} keeps {keep}, and {l} is put into the Netherworld",
                    player_name(p),
                    ls.len(),
                    player_name(p)
                ),
                &[r::LEADER_TWO_OR_MORE],
            )
            .obj(l.clone())
            .note("the starting board had two leaders on one field; 10.34.4 applies at once, here before the first action is taken");
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cond(at_least: Option<i64>, at_most: Option<i64>) -> Condition {
        Condition {
            count: Some(POPULARITY_COUNT.into()),
            at_least,
            at_most,
            ..Condition::default()
        }
    }

    #[test]
    fn only_the_four_tiers_of_2_13_5_are_tiers() {
        assert_eq!(tier_of(&cond(Some(4), None)), Some(4));
        assert_eq!(tier_of(&cond(Some(2), None)), Some(2));
        assert_eq!(tier_of(&cond(Some(1), None)), Some(1));
        assert_eq!(tier_of(&cond(None, Some(0))), Some(0));
        assert_eq!(tier_of(&cond(Some(3), None)), None);
        assert_eq!(tier_of(&cond(Some(1), Some(3))), None);
    }

    #[test]
    fn the_highest_tier_a_count_reaches() {
        let tiers: Vec<i64> = (0..=6).map(top_tier).collect();
        assert_eq!(tiers, vec![0, 1, 2, 2, 4, 4, 4]);
        // Stacking: 4 人気 satisfies the conditions of three tiers.
        let held: Vec<bool> = [4, 2, 1]
            .iter()
            .map(|t| cond(Some(*t), None).bounds_hold(4))
            .collect();
        assert_eq!(held, vec![true, true, true]);
        assert!(!cond(None, Some(0)).bounds_hold(4));
    }
}

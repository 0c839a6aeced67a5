//! 壱符 first card and its Spell Break (10.18), the sideboard it draws from
//! (サイドボード: 1.2.5, 3.9), and undoing removal: nullifying 決死 (9.2.4,
//! 9.2.5) and 破棄 (9.3.5, 9.3.6) with their damage resets (1.10.13.a/b),
//! 「決死状態にならない」 (9.2.8.c) and 「破棄されない」 (9.3.8.c).

use super::*;
use crate::engine::texts;

// ---------------------------------------------------------------- setup

/// Checks `p`'s sideboard at the start of the game (1.2.5), given the deck
/// already checked against 1.2.2. An empty sideboard is no sideboard: it is
/// optional (1.2.4). A bad sideboard is a diagnostic, like a bad deck.
pub(super) fn check_sideboard(m: &mut M, p: PlayerId, deck: &[CardId]) -> R<()> {
    let side = m.game.zone_of(p, zn::SIDEBOARD).to_vec();
    if side.is_empty() {
        return Ok(());
    }
    let who = player_name(p);
    if side.len() != 10 {
        return Err(bad(format!(
            "{who}'s sideboard has {} cards; a sideboard is exactly 10 cards (1.2.5.a)",
            side.len()
        )));
    }
    if let Some(id) = side.iter().find(|id| has_kw(&m.game, id, "link")) {
        return Err(EngineError::NotImplemented {
            clause: r::LINK_NAMES,
            what: format!("the names {id} (連結) adds, counted at deck construction"),
        });
    }
    let both: Vec<&CardId> = deck.iter().chain(side.iter()).collect();
    let mut names: BTreeMap<String, usize> = BTreeMap::new();
    let mut unique: BTreeMap<String, usize> = BTreeMap::new();
    for id in &both {
        let Some(d) = def(&m.game, id) else { continue };
        // Anonymous cards (`unknown` type) stand for distinct cards.
        if d.card_type != "unknown" {
            *names.entry(d.name.clone()).or_default() += 1;
        }
        if d.has_keyword("one_per_deck") {
            let k = m
                .game
                .card(id)
                .map(|c| c.def.to_string())
                .unwrap_or_default();
            *unique.entry(k).or_default() += 1;
        }
    }
    if let Some((n, c)) = names.iter().find(|(_, c)| **c > 3) {
        return Err(bad(format!(
            "{who}'s deck and sideboard hold {c} cards named {n}; at most 3 of the same name in the deck and sideboard together (1.2.5.b)"
        )));
    }
    if let Some((k, n)) = unique.iter().find(|(_, n)| **n > 1) {
        return Err(bad(format!(
            "{who}'s deck and sideboard hold {n} copies of `{k}`, which has デッキ１枚制限: the restriction holds for the deck and sideboard together (1.2.5.c, 10.24.2.a)"
        )));
    }
    let mut rules = vec![
        r::SIDEBOARD_10,
        r::SIDEBOARD_SAME_NAME_3,
        r::SIDEBOARD_ZONE,
        r::SIDEBOARD_HIDDEN,
        r::SIDEBOARD_OWNER_LOOKS,
        r::SIDEBOARD_INERT,
    ];
    if !unique.is_empty() {
        rules.extend([r::SIDEBOARD_RESTRICTIONS, r::ONE_PER_DECK]);
    }
    m.record(
        "setup.sideboard",
        format!(
            "{who}'s sideboard of 10 cards is set aside, hidden (its owner may look at it); no name is in the deck and sideboard more than 3 times{}; it affects the game only where an effect refers to it",
            if unique.is_empty() {
                ""
            } else {
                ", and each デッキ１枚制限 card is there once in all"
            }
        ),
        &rules,
    );
    Ok(())
}

// ---------------------------------------------------------------- 壱符

/// A of 壱符: the B of the card's name 「符ノ壱“B”」 (10.18.2.a), quotes
/// removed.
pub(super) fn first_card_part(name: &str) -> Option<String> {
    let rest = name.split_once("符ノ壱")?.1;
    let b = rest
        .trim_matches(|c: char| c.is_whitespace() || "“”\"「」『』".contains(c))
        .to_string();
    (!b.is_empty()).then_some(b)
}

/// The window 9.2.3.d (決死状態になった場合) for the 決死 cards: their own
/// `doomed` automatic effects, met at the same time and ordered by their
/// players, the turn player's first (7.1.6.a), then 壱符 (10.18.2.a) card
/// by card, whose condition is this window's. The order of 壱符 against
/// other 決死 effects of the same card is its player's choice (7.1.6.a),
/// which the scenario format cannot give yet: such a card stops the run.
pub(super) fn doomed_window(m: &mut M, ids: &[CardId]) -> R<()> {
    if let Some(id) = ids.iter().find(|id| {
        has_kw(&m.game, id, "first_card")
            && def(&m.game, id).is_some_and(|d| d.abilities.iter().any(|a| a.trigger == "doomed"))
    }) {
        return Err(EngineError::NotImplemented {
            clause: r::EFFECT_ORDER_TP_FIRST,
            what: format!(
                "the order, chosen by its player, of {id}'s 壱符 and its other 決死 effects"
            ),
        });
    }
    fire(m, "doomed", ids, r::DOOMED_AFTER)?;
    for id in ids {
        if game_over(&m.game) {
            return Ok(());
        }
        first_card(m, id)?;
    }
    Ok(())
}

/// Why `cand` cannot be put onto the field by the 壱符 of a card whose A is
/// `a`, controlled by `p`; `None` if it can.
fn unfit(g: &Game, cand: &str, p: PlayerId, a: &str) -> Option<String> {
    let Some(c) = g.card(cand) else {
        return Some(format!("there is no card `{cand}`"));
    };
    if c.zone != ZoneId::of(p, zn::SIDEBOARD) {
        return Some(format!(
            "{cand} is not in {}'s sideboard (it is in {})",
            player_name(p),
            c.zone
        ));
    }
    if !is_type(g, cand, "character") {
        return Some(format!("{cand} is not a character card"));
    }
    if !has_kw(g, cand, "second_card") {
        return Some(format!("{cand} does not have 弐符"));
    }
    if !name_contains(g, cand, a) {
        let n = def(g, cand).map(|d| d.name.clone()).unwrap_or_default();
        return Some(format!("{cand}'s name 「{n}」 does not contain 「{a}」"));
    }
    None
}

/// 壱符 (10.18.2.a) of the 決死 character `id`, resolving in 9.2.3.d: its
/// controller may put one 弐符 character card from their sideboard whose
/// name contains A onto their field, asleep (a Spell Break, 10.18.3;
/// choice `<id>.spell_break`: the card's id, or `false`), may then move
/// every card set on `id` to it (choice `<id>.move_set_cards`: true or
/// false, asked only when there are set cards), and then discards `id`.
/// The 弐符 card entered through 壱符, so 10.19.2.a does not exclude it;
/// its own entering effects resolve once 壱符's effect is over (7.4.7.c).
fn first_card(m: &mut M, id: &str) -> R<()> {
    if !has_kw(&m.game, id, "first_card") || !on_field(&m.game, id) {
        return Ok(());
    }
    if !m.game.card(id).is_some_and(|c| c.has(st::DOOMED_RESOLVING)) {
        m.record(
            "first_card.void",
            format!("{id}'s 決死 was nullified: its 壱符, an effect of that 決死, is void"),
            &[r::FIRST_CARD, r::DOOMED_NULLIFY_ENDS],
        )
        .obj(id.to_string());
        return Ok(());
    }
    let name = def(&m.game, id).map(|d| d.name.clone()).unwrap_or_default();
    let Some(a) = first_card_part(&name) else {
        return Err(bad(format!(
            "{id} has 壱符 but its name 「{name}」 is not of the form 符ノ壱“B”, which gives A (10.18.2.a)"
        )));
    };
    let p = m
        .game
        .card(id)
        .map(|c| c.controller)
        .unwrap_or(PlayerId::P1);
    m.record(
        "first_card",
        format!(
            "{id} became 決死: its 壱符 resolves (A = 「{a}」, from its name 「{name}」); {} may put a 弐符 character card whose name contains 「{a}」 from their sideboard onto their field",
            player_name(p)
        ),
        &[r::GAMMA, r::FIRST_CARD, r::DOOMED_AFTER],
    )
    .obj(id.to_string());
    let legal: Vec<CardId> = m
        .game
        .zone_of(p, zn::SIDEBOARD)
        .iter()
        .filter(|c| unfit(&m.game, c, p, &a).is_none())
        .cloned()
        .collect();
    let key = format!("{id}.spell_break");
    let mut options = legal.clone();
    options.push("false".into());
    let chosen = match m.choices.take(&key) {
        None if legal.is_empty() => {
            m.record(
                "first_card.none",
                format!(
                    "{}'s sideboard holds no 弐符 character card whose name contains 「{a}」: nothing is put onto the field",
                    player_name(p)
                ),
                &[r::FIRST_CARD],
            );
            None
        }
        None => {
            return Err(EngineError::MissingChoice {
                choice: key,
                options: texts(&options),
            });
        }
        Some(Value::Bool(false)) => {
            m.record(
                "first_card.decline",
                format!(
                    "{} chooses not to put a 弐符 card onto the field (壱符 says 'may')",
                    player_name(p)
                ),
                &[r::FIRST_CARD],
            );
            None
        }
        Some(Value::String(s)) => match unfit(&m.game, &s, p, &a) {
            None => Some(s),
            Some(why) => {
                return Err(illegal(
                    r::FIRST_CARD,
                    format!(
                        "{id}'s 壱符 puts only a 弐符 character card from its player's sideboard whose name contains 「{a}」: {why}"
                    ),
                    texts(&legal),
                ));
            }
        },
        Some(v) => {
            return Err(EngineError::BadChoice {
                choice: key,
                value: v.to_string(),
                options: texts(&options),
            });
        }
    };
    if let Some(s) = &chosen {
        let from = m.game.move_card(s, ZoneId::of(p, zn::FIELD), false);
        if let Some(c) = m.game.cards.get_mut(s.as_str()) {
            c.states.insert(st::SLEEP.into());
        }
        m.record(
            "spell_break",
            format!(
                "Spell Break: {} puts {s} from their sideboard onto their field, asleep",
                player_name(p)
            ),
            &[r::FIRST_CARD, r::SPELL_BREAK, r::SIDEBOARD_INERT],
        )
        .obj(s.clone())
        .change(
            format!("{s}.zone"),
            from.map(|z| z.to_string()).unwrap_or_default(),
            format!("{}.{}", player_name(p), zn::FIELD),
        );
        m.record(
            "second_card",
            format!("{s} has 弐符 but entered the field through 壱符's effect: it is not excluded"),
            &[r::SECOND_CARD, r::SPELL_BREAK],
        )
        .obj(s.clone());
        let sets = set_cards(&m.game, id);
        if !sets.is_empty() {
            let key = format!("{id}.move_set_cards");
            let moves = match m.choices.take(&key) {
                Some(Value::Bool(b)) => b,
                None => {
                    return Err(EngineError::MissingChoice {
                        choice: key,
                        options: vec!["true".into(), "false".into()],
                    });
                }
                Some(v) => {
                    return Err(EngineError::BadChoice {
                        choice: key,
                        value: v.to_string(),
                        options: vec!["true".into(), "false".into()],
                    });
                }
            };
            if moves {
                for c in &sets {
                    if let Some(card) = m.game.cards.get_mut(c) {
                        card.attached_to = Some(s.clone().into());
                    }
                }
                m.record(
                    "first_card.move_set_cards",
                    format!("every card set on {id} ({}) moves to {s}", sets.join(", ")),
                    &[r::FIRST_CARD],
                );
            } else {
                m.record(
                    "first_card.keep_set_cards",
                    format!(
                        "the cards set on {id} ({}) are not moved: they go with it",
                        sets.join(", ")
                    ),
                    &[r::FIRST_CARD],
                );
            }
        }
    }
    if on_field(&m.game, id) {
        if let Some(c) = m.game.cards.get_mut(id) {
            c.states.insert(st::DISCARDING.into());
        }
        m.record(
            "first_card.discard",
            format!("then 壱符 discards {id}; its effect is suspended while the 破棄 resolves"),
            &[r::FIRST_CARD, r::DISCARD_APPLIED, r::REMOVAL_INTERRUPTS],
        )
        .obj(id.to_string());
        process_removals(m)?;
    }
    if let Some(s) = chosen
        && on_field(&m.game, &s)
        && def(&m.game, &s).is_some_and(|d| d.abilities.iter().any(|a| a.trigger == "on_enter"))
    {
        m.record(
            "spell_break.entered",
            format!("壱符's effect is over: the entering effects of {s} resolve now"),
            &[r::GAMMA],
        );
        fire(m, "on_enter", &[s.into()], r::GAMMA)?;
    }
    Ok(())
}

// ---------------------------------------------------------------- 決死 → 破棄

/// 9.2.3.e for the 決死 cards whose windows ran: each still 決死 and on the
/// field is treated as having 破棄 applied. A card whose 決死 was nullified
/// (9.2.4.a) or that already left the field (壱符 discarded it) is passed
/// over. A card under 「破棄されない」 (9.3.8.c) is a gap of the rules
/// (listed in scenarios/README.md); see the notes below.
pub(super) fn doomed_to_discard(m: &mut M, doomed: &[CardId]) {
    for id in doomed {
        let Some(c) = m.game.card(id) else { continue };
        if c.zone.kind != zn::FIELD || !c.has(st::DOOMED_RESOLVING) {
            continue;
        }
        let (protected, dur, acc) = (
            c.has(st::CANNOT_BE_DISCARDED),
            raw_durability(&m.game, c),
            accumulated(c),
        );
        if let Some(c) = m.game.cards.get_mut(id) {
            c.states.remove(st::DOOMED_RESOLVING);
        }
        if !protected {
            if let Some(c) = m.game.cards.get_mut(id) {
                c.states.insert(st::DISCARDING.into());
            }
            continue;
        }
        if dur <= 0 && reading(&m.game, CANNOT_BE_DISCARDED_ABOVE_DURABILITY) {
            kept_at_zero_durability(m, id, dur);
            return;
        }
        if reading(&m.game, DOOMED_IGNORES_CANNOT_BE_DISCARDED) || dur <= 0 {
            if let Some(c) = m.game.cards.get_mut(id) {
                c.states.insert(st::DISCARDING.into());
            }
            vars_mut(&mut m.game).insert(forced_key(id), 1);
            let e = m.record(
                "removal.doomed",
                format!("{id} cannot be discarded, yet the 破棄 of its 決死 applies to it"),
                &[r::DOOMED_DISCARD, r::CANNOT_BE_DISCARDED],
            );
            e.obj(id.clone());
            if dur <= 0 {
                e.rule(r::DISCARD_NULLIFY_FORBIDDEN);
                e.rule(r::DOOMED_NULLIFY_FORBIDDEN);
                e.note(format!("judge's reading: with durability {dur}, 9.3.6 and 9.2.5 put the rule above card effects, so 「破棄されない」 does not keep the card (otherwise it would become 決死 again at once, without end; option {CANNOT_BE_DISCARDED_ABOVE_DURABILITY}: it keeps the card, and that loop ends the game)"));
            } else {
                e.note("the reading chosen by the flag `reading_doomed_ignores_cannot_be_discarded`: 「破棄されない」 keeps a card from discard effects, not from the 破棄 that 決死 brings by rule (9.2.3.e)");
            }
            continue;
        }
        if let Some(c) = m.game.cards.get_mut(id) {
            c.counters.remove(COMBAT_DAMAGE);
            c.counters.remove(EFFECT_DAMAGE);
        }
        m.record(
            "removal.doomed",
            format!("{id} cannot be discarded: the 破棄 of its 決死 does not apply, it stays on the field and its accumulated damage resets"),
            &[r::DOOMED_DISCARD, r::CANNOT_BE_DISCARDED, r::RESET_NOT_DOOMED],
        )
        .obj(id.clone())
        .change(format!("{id}.accumulated_damage"), acc, 0)
        .note("judge's reading: the rules do not say what becomes of a 決死 card that cannot be discarded; 9.2.3.e's 破棄 does not apply to it (9.3.8.c), so its 決死 ends on the field and its damage resets as for a character that does not become 決死 (1.10.13.b). The flag `reading_doomed_ignores_cannot_be_discarded` discards it instead");
    }
}

/// The reading flag: 9.3.6 forbids only nullifying a card's 破棄 state
/// (9.3.5), so 「破棄されない」 (9.3.8.c: the card does not become 破棄)
/// still keeps a 決死 card at durability 0 or less, instead of the judges'
/// reading (the rule is above card effects, so it does not keep it).
pub const CANNOT_BE_DISCARDED_ABOVE_DURABILITY: &str =
    "reading_cannot_be_discarded_at_zero_durability";

/// Under [`CANNOT_BE_DISCARDED_ABOVE_DURABILITY`], a 決死 card kept by
/// 「破棄されない」 with durability `dur` (0 or less): it stays, and 9.2.5
/// makes it 決死 again at once, a loop no player's choice can end (12.10.1).
/// Its elements include the rule 9.2.5 itself, not one player's cards
/// alone (1.5.3.e), so the game is a draw (1.5.4.b). Nothing after this is
/// resolved.
fn kept_at_zero_durability(m: &mut M, id: &str, dur: i64) {
    m.record(
        "removal.doomed",
        format!("{id} cannot be discarded: the 破棄 of its 決死 does not apply and it stays on the field; with durability {dur} it becomes 決死 again at once (9.2.5), without end"),
        &[
            r::DOOMED_DISCARD,
            r::CANNOT_BE_DISCARDED,
            r::DISCARD_NULLIFY_FORBIDDEN,
            r::DOOMED_NULLIFY_FORBIDDEN,
        ],
    )
    .obj(id.to_string())
    .note(format!("reading chosen by the scenario ({CANNOT_BE_DISCARDED_ABOVE_DURABILITY}): 9.3.6 forbids only nullifying the 破棄 state (9.3.5); 「破棄されない」 keeps the card from becoming 破棄 (9.3.8.c), even at durability {dur}"));
    m.end(
        GameResult::Draw,
        "a loop no player's choice can end: its elements include the rule 9.2.5, not one player's cards alone, so the game is a draw",
        &[r::LOOP, r::DRAW_LOOP],
    );
}

fn forced_key(id: &str) -> String {
    format!("discard_forced.{id}")
}

/// 9.3.8.c: of the cards about to resolve 破棄, those under 「破棄されない」
/// do not become 破棄 and stay where they are, unless their 決死 forced it
/// (see [`doomed_to_discard`]). Returns the cards whose 破棄 resolves.
pub(super) fn discard_filter(m: &mut M, ids: Vec<CardId>) -> Vec<CardId> {
    let mut out = Vec::new();
    for id in ids {
        let forced = vars_mut(&mut m.game).remove(&forced_key(&id)).is_some();
        let protected = m
            .game
            .card(&id)
            .is_some_and(|c| c.has(st::CANNOT_BE_DISCARDED) && c.zone.kind == zn::FIELD);
        if protected && !forced {
            if let Some(c) = m.game.cards.get_mut(&id) {
                c.states.remove(st::DISCARDING);
            }
            m.record(
                "removal.discard",
                format!("{id} cannot be discarded: 破棄 does not apply to it and it stays"),
                &[r::CANNOT_BE_DISCARDED],
            )
            .obj(id.clone());
            continue;
        }
        out.push(id);
    }
    out
}

/// Whether the 破棄 of `id` was nullified during its windows (9.3.5.a): it
/// is still on the field and no longer 破棄, so 9.3.4.e–g do not happen.
pub(super) fn discard_nullified(g: &Game, id: &str) -> bool {
    g.card(id)
        .is_some_and(|c| c.zone.kind == zn::FIELD && !c.has(st::DISCARD_RESOLVING))
}

/// 9.2.4.a / 9.3.5.a inside the windows: once a card's 決死 or 破棄 was
/// nullified, its effects still to come in that resolution are void.
pub(super) fn window_void(m: &mut M, trigger: &str, id: &str) -> bool {
    let (state, rule, jp) = match trigger {
        "doomed" => (st::DOOMED_RESOLVING, r::DOOMED_NULLIFY_ENDS, "決死"),
        "discarded" => (st::DISCARD_RESOLVING, r::DISCARD_NULLIFY_ENDS, "破棄"),
        _ => return false,
    };
    if m.game.card(id).is_none_or(|c| c.has(state)) {
        return false;
    }
    m.record(
        "auto.void",
        format!("{id}'s {jp} was nullified: its other effects of that {jp} are void"),
        &[rule],
    )
    .obj(id.to_string());
    true
}

// ---------------------------------------------------------------- 9.2.8.c

/// Whether `id`, whose accumulated damage `acc` reached its durability
/// `dur` or whose durability is 0 or less, becomes 決死. Under
/// 「決死状態にならない」 (9.2.8.c) it does not and its damage resets
/// (1.10.13.b), unless its durability is 0 or less: 9.2.5 makes it 決死 even
/// so.
pub(super) fn may_become_doomed(m: &mut M, id: &str, dur: i64, acc: i64) -> bool {
    if !m.game.card(id).is_some_and(|c| c.has(st::CANNOT_BE_DOOMED)) {
        return true;
    }
    if dur <= 0 {
        m.record(
            "doomed",
            format!(
                "{id} cannot become 決死, but its durability is {dur}: it becomes 決死 even so"
            ),
            &[r::DOOMED_NULLIFY_FORBIDDEN, r::CANNOT_BE_DOOMED],
        )
        .obj(id.to_string());
        return true;
    }
    if let Some(c) = m.game.cards.get_mut(id) {
        c.counters.remove(COMBAT_DAMAGE);
        c.counters.remove(EFFECT_DAMAGE);
    }
    m.record(
        "doomed.prevented",
        format!("{id} has {acc} accumulated damage against durability {dur} but cannot become 決死: its accumulated damage resets"),
        &[r::CANNOT_BE_DOOMED, r::RESET_NOT_DOOMED],
    )
    .obj(id.to_string())
    .change(format!("{id}.accumulated_damage"), acc, 0);
    false
}

/// A make-決死 effect (9.2.2.c, e.g. 即死) on `id` under
/// 「決死状態にならない」 does not apply (9.2.8.c). Returns whether it is
/// blocked.
pub(super) fn doom_effect_blocked(m: &mut M, id: &str) -> bool {
    if !m.game.card(id).is_some_and(|c| c.has(st::CANNOT_BE_DOOMED)) {
        return false;
    }
    m.record(
        "doomed.prevented",
        format!("{id} cannot become 決死: the effect that would make it 決死 does not apply"),
        &[r::CANNOT_BE_DOOMED, r::DOOMED_BY_EFFECT],
    )
    .obj(id.to_string());
    true
}

// ---------------------------------------------------------------- nullify

/// `nullify_removal` (決死を無効にする 9.2.4, 破棄を無効にする 9.3.5): the
/// processing of that removal ends at once, effects still to come in it are
/// void (9.2.4.a, 9.3.5.a; the windows check it) and accumulated damage
/// resets (9.2.4.b, 9.3.5.b, 1.10.13.a). With durability 0 or less it
/// cannot be nullified, whatever the effect says (9.2.5, 9.3.6).
pub(super) fn nullify_removal(
    m: &mut M,
    this: &str,
    removal: Option<&str>,
    objs: &[String],
) -> R<()> {
    if let Some(k) = removal
        && k != "doomed"
        && k != "discard"
    {
        return Err(bad(format!(
            "`nullify_removal` of {this}: unknown removal `{k}`; valid: doomed (決死), discard (破棄)"
        )));
    }
    for o in objs {
        let Some(c) = m.game.card(o) else { continue };
        let doomed = c.has(st::DOOMED) || c.has(st::DOOMED_RESOLVING);
        let discarding = c.has(st::DISCARDING) || c.has(st::DISCARD_RESOLVING);
        let kind = match removal {
            None | Some("doomed") if doomed => "doomed",
            None | Some("discard") if discarding => "discard",
            _ => {
                m.record(
                    "nullify.nothing",
                    format!(
                        "{o} is not {}: {this}'s effect has nothing to nullify",
                        match removal {
                            Some("doomed") => "決死",
                            Some(_) => "破棄",
                            None => "決死 or 破棄",
                        }
                    ),
                    &[],
                )
                .obj(o.clone());
                continue;
            }
        };
        let (dur, acc) = (raw_durability(&m.game, c), accumulated(c));
        let (states, ends, reset, forbidden, jp) = if kind == "doomed" {
            (
                [st::DOOMED, st::DOOMED_RESOLVING],
                r::DOOMED_NULLIFY_ENDS,
                r::DOOMED_NULLIFY_RESET,
                r::DOOMED_NULLIFY_FORBIDDEN,
                "決死",
            )
        } else {
            (
                [st::DISCARDING, st::DISCARD_RESOLVING],
                r::DISCARD_NULLIFY_ENDS,
                r::DISCARD_NULLIFY_RESET,
                r::DISCARD_NULLIFY_FORBIDDEN,
                "破棄",
            )
        };
        if dur <= 0 {
            m.record(
                "nullify.forbidden",
                format!("{o} has durability {dur}: its {jp} cannot be nullified, whatever {this}'s effect says"),
                &[forbidden],
            )
            .obj(o.clone());
            continue;
        }
        if let Some(c) = m.game.cards.get_mut(o.as_str()) {
            for s in states {
                c.states.remove(s);
            }
            c.counters.remove(COMBAT_DAMAGE);
            c.counters.remove(EFFECT_DAMAGE);
        }
        let e = m.record(
            "nullify",
            format!("{this}'s effect nullifies the {jp} of {o}: its processing ends here, what was still to come in it is void, and its accumulated damage resets"),
            &[ends, reset],
        );
        e.obj(o.clone())
            .change(format!("{o}.accumulated_damage"), acc, 0);
        if kind == "doomed" {
            e.rule(r::RESET_NULLIFIED);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::load_str;

    #[test]
    fn a_is_the_b_of_the_first_card_name() {
        assert_eq!(
            first_card_part("符ノ壱“夢想封印”").as_deref(),
            Some("夢想封印")
        );
        assert_eq!(first_card_part("符ノ壱\"X\"").as_deref(), Some("X"));
        assert_eq!(first_card_part("霊夢"), None);
        assert_eq!(first_card_part("符ノ壱“”"), None);
    }

    fn setup_with(side: &str, deck_extra: &str) -> Outcome {
        let text = format!(
            r#"{{ "game": "pmv", "name": "t", "source": "test",
              "cards": {{ "f": {{ "name": "F", "type": "command", "cost": 0 }},
                         "x": {{ "name": "X", "type": "command", "cost": 0 }},
                         "u": {{ "name": "U", "type": "command", "cost": 0, "keywords": ["one_per_deck"] }} }},
              "state": {{ "turn": {{ "player": "p1", "phase": "setup", "number": 1 }},
                "players": {{ "p1": {{ "zones": {{ "deck": [ {deck_extra} ], "sideboard": [ {side} ] }} }},
                             "p2": {{ "zones": {{ "deck": {{ "count": 50 }} }} }} }} }},
              "actions": [] }}"#
        );
        let loaded = load_str("t.json", &text, None).expect("test scenario loads");
        loaded.module.run(loaded.game.clone(), &loaded.actions)
    }

    fn cards(key: &str, n: usize) -> String {
        vec![format!(r#""{key}""#); n].join(", ")
    }

    fn bad_message(o: &Outcome) -> String {
        match &o.error.as_ref().expect("a diagnostic").error {
            EngineError::BadAction { message } => message.clone(),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_sideboard_is_exactly_ten_cards() {
        // Anonymous deck cards: 48 `?` + 2 named ones make 50.
        let deck = format!("{}, {}", cards("?", 48), cards("x", 2));
        let o = setup_with(&cards("?", 9), &deck);
        assert!(bad_message(&o).contains("1.2.5.a"));
        let o = setup_with(&cards("?", 10), &deck);
        assert!(o.error.is_none(), "{:?}", o.error);
        assert!(o.trace.iter().any(|e| e.step == "setup.sideboard"));
    }

    #[test]
    fn the_same_name_limit_counts_deck_and_sideboard_together() {
        let deck = format!("{}, {}", cards("?", 48), cards("x", 2));
        let side = format!("{}, {}", cards("?", 8), cards("x", 2));
        assert!(bad_message(&setup_with(&side, &deck)).contains("1.2.5.b"));
        let side = format!("{}, {}", cards("?", 9), cards("x", 1));
        assert!(setup_with(&side, &deck).error.is_none());
    }

    #[test]
    fn one_per_deck_holds_for_deck_and_sideboard_together() {
        let deck = format!("{}, {}", cards("?", 49), cards("u", 1));
        let side = format!("{}, {}", cards("?", 9), cards("u", 1));
        assert!(bad_message(&setup_with(&side, &deck)).contains("1.2.5.c"));
    }

    fn doom_first_card(name: &str, abilities: &str) -> Outcome {
        let text = format!(
            r#"{{ "game": "pmv", "name": "t", "source": "test",
              "cards": {{ "bolt": {{ "name": "B", "type": "command", "cost": 0, "abilities": [ {{ "trigger": "effect",
                   "effect": [ {{ "do": "damage", "amount": 5, "target": {{ "select": "chosen", "side": "any", "types": ["character"] }} }} ] }} ] }},
                 "fc": {{ "name": "{name}", "type": "character", "cost": 0, "attack": 1, "defense": 1,
                   "keywords": ["first_card"], "abilities": [ {abilities} ] }} }},
              "state": {{ "turn": {{ "player": "p1", "phase": "main", "number": 3 }},
                "players": {{ "p1": {{ "zones": {{ "deck": {{ "count": 5 }}, "hand": [ {{ "id": "x", "card": "bolt" }} ] }} }},
                             "p2": {{ "zones": {{ "deck": {{ "count": 5 }}, "field": [ {{ "id": "b", "card": "fc" }} ] }} }} }} }},
              "actions": [ {{ "do": "play", "card": "x", "choices": {{ "targets": "b" }} }},
                           {{ "do": "pass", "player": "p2" }}, {{ "do": "pass", "player": "p1" }} ] }}"#
        );
        let loaded = load_str("t.json", &text, None).expect("test scenario loads");
        loaded.module.run(loaded.game.clone(), &loaded.actions)
    }

    #[test]
    fn first_card_with_other_doomed_effects_is_not_implemented() {
        let o = doom_first_card(
            "符ノ壱“A”",
            r#"{ "trigger": "doomed", "effect": [ { "do": "draw", "amount": 1 } ] }"#,
        );
        assert!(
            matches!(o.error.map(|e| e.error), Some(EngineError::NotImplemented { clause, .. }) if clause == r::EFFECT_ORDER_TP_FIRST)
        );
    }

    #[test]
    fn a_first_card_name_without_b_is_a_diagnostic_and_no_fit_needs_no_choice() {
        let o = doom_first_card("壱符の妖精", "");
        assert!(bad_message(&o).contains("符ノ壱"));
        // An empty sideboard: nothing fits, so no choice is needed; the
        // 壱符 character is discarded by its own effect.
        let o = doom_first_card("符ノ壱“A”", "");
        assert!(o.error.is_none(), "{:?}", o.error);
        assert_eq!(o.state["cards"]["b"]["zone"], "p2.netherworld");
        assert!(o.trace.iter().any(|e| e.step == "first_card.none"));
    }
}

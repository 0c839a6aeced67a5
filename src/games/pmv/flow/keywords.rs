//! Keyword procedures with a step of their own: the pay-or-nullify taxes of 加護 blessing (10.29) and 抵抗 resist (10.26), マナチャージ mana charge (10.12), 弐符 second card (10.19), 連結 link (10.20) and オーバードライブ overdrive (10.33).

use super::*;
use crate::engine::texts;

/// A target that prints 加護 or 抵抗 but whose text an effect changed to
/// one without it has none (10.1.2): the trace says why no tax is asked.
fn lost_by_text_change(m: &mut M, id: &str, blessing_applies: bool) {
    if !info_changed(&m.game, id) {
        return;
    }
    let printed = |k: &str| m.game.def_of_base(id).is_some_and(|d| d.has_keyword(k));
    let jp = match m.game.card(id).map(|c| c.zone.kind) {
        Some(zn::FIELD) if blessing_applies && printed("blessing") => "加護",
        Some(zn::PLAY) if printed("resist") => "抵抗",
        _ => return,
    };
    m.record(
        "keyword.lost",
        format!(
            "{id} prints {jp}, but an effect changed its text to one without it: no {jp} applies"
        ),
        &[r::KEYWORD_WORDS, r::TEXT],
    );
}

/// A non-event the trace states: 加護 taxes only an opponent's command card
/// or character effect (10.29.2.a), so a spell's effect targeting a blessed
/// character asks for nothing.
fn blessing_not_asked(m: &mut M, id: &str, source: &str) {
    m.record(
        "keyword.blessing",
        format!(
            "{id} has 加護, but {source}'s effect is neither a command card's nor a character's: no payment is asked"
        ),
        &[r::BLESSING],
    );
}

/// 加護（Ｘ） (10.29.2.a) and 抵抗（Ｘ） (10.26.2.a): when a character with
/// blessing on the field becomes the target of its opponent's command card
/// or character effect (`blessing_applies`), or a card with resist becomes,
/// while being played, the target of its opponent's card effect, that
/// opponent may pay X (choice `<keyword>.<target>`: true/false; payment
/// choices under `<keyword>.pay_sleep` / `<keyword>.pay_discard`). Returns
/// whether the effect goes on (`false`: not paid, the effect is nullified).
pub(super) fn taxes_paid(
    m: &mut M,
    master: PlayerId,
    source: &str,
    targets: &BTreeMap<usize, Vec<Tgt>>,
    blessing_applies: bool,
) -> R<bool> {
    let mut taxed: Vec<(String, &'static str, &'static str, &'static str)> = Vec::new();
    for list in targets.values() {
        for (id, _) in list {
            let Some(c) = m.game.card(id) else { continue };
            if c.controller == master {
                continue;
            }
            let found = if blessing_applies
                && c.zone.kind == zn::FIELD
                && has_kw(&m.game, id, "blessing")
            {
                Some(("blessing", "加護", r::BLESSING))
            } else if c.zone.kind == zn::PLAY && has_kw(&m.game, id, "resist") {
                Some(("resist", "抵抗", r::RESIST))
            } else {
                if !blessing_applies && c.zone.kind == zn::FIELD && has_kw(&m.game, id, "blessing")
                {
                    blessing_not_asked(m, id, source);
                }
                lost_by_text_change(m, id, blessing_applies);
                None
            };
            if let Some((kw, jp, rule)) = found
                && !taxed.iter().any(|t| &t.0 == id)
            {
                taxed.push((id.clone(), kw, jp, rule));
            }
        }
    }
    for (id, kw, jp, rule) in taxed {
        let x = stat(&m.game, &id, kw);
        let key = format!("{kw}.{id}");
        let pays = match m.choices.take(&key) {
            Some(Value::Bool(b)) => b,
            Some(v) => {
                return Err(EngineError::BadChoice {
                    choice: key,
                    value: v.to_string(),
                    options: vec!["true".into(), "false".into()],
                });
            }
            None => {
                return Err(EngineError::MissingChoice {
                    choice: key,
                    options: vec!["true".into(), "false".into()],
                });
            }
        };
        let what = format!(
            "{id} has {jp}（{x}） and became a target of {}'s {source}",
            player_name(master)
        );
        if pays {
            m.record(
                format!("{kw}.pay"),
                format!("{what}: they pay {x}"),
                &[rule],
            );
            pay_keyed(m, master, x, source, &format!("{kw}."))?;
        } else {
            m.record(
                format!("{kw}.decline"),
                format!("{what}: they do not pay {x}"),
                &[rule],
            );
            return Ok(false);
        }
    }
    Ok(true)
}

/// The card using an activated effect: it must be on its player's field
/// (7.3.1.a, 7.3.3.b); otherwise the action is rejected citing the rule.
pub(super) fn activation_source<'g>(
    g: &'g Game,
    alts: &[String],
    player: PlayerId,
    card: &str,
) -> R<&'g Card> {
    let Some(c) = g.card(card) else {
        return Err(bad(format!("no card `{card}`")));
    };
    if c.zone.kind != zn::FIELD {
        return Err(illegal(
            r::ACT_ON_FIELD,
            format!("{card} is not on the field: only cards on the field use activated effects"),
            alts.to_vec(),
        ));
    }
    if c.controller != player {
        return Err(illegal(
            r::ACT_OWN_FIELD,
            format!("{card} is not on {}'s field", player_name(player)),
            alts.to_vec(),
        ));
    }
    Ok(c)
}

/// マナチャージ（Ｘ） (10.12.2.a): （自分ターン）S：put the top X cards of
/// your deck into your node area, asleep. The activated-effect procedure
/// 7.3.4 with the sleep-icon cost of 1.8.8.
pub(super) fn activate_mana_charge(m: &mut M, p: Pri, player: PlayerId, card: &str) -> R<()> {
    let g = &m.game;
    let alts = legal_actions(g, &p);
    let fail = |rule, msg: String| illegal(rule, msg, alts.clone());
    let c = activation_source(g, &alts, player, card)?;
    if player != g.turn.active {
        return Err(fail(
            r::ACT_OWN_TURN,
            "マナチャージ is used only in its player's own turn (（自分ターン）)".into(),
        ));
    }
    if c.has(st::SLEEP) {
        return Err(fail(
            r::SLEEP_COST,
            format!(
                "{card} is asleep: the sleep-icon cost must be paid by putting this active card to sleep"
            ),
        ));
    }
    if p.used(card, |a| matches!(a, Activated::ManaCharge { .. })) {
        return Err(fail(
            r::ACT_ONCE,
            format!("{card}'s マナチャージ was already used in this interference"),
        ));
    }
    let x = stat(g, card, "mana_charge");
    let inc = c.incarnation;
    m.record(
        "activate.declare",
        format!("{} uses {card}'s マナチャージ（{x}）", player_name(player)),
        &[
            r::ACTIVATED,
            r::ACT_DECLARE,
            r::ACT_ON_FIELD,
            r::ACT_OWN_FIELD,
            r::ACT_OWN_TURN,
            r::ACT_COST_PAYABLE,
            r::MANA_CHARGE,
            r::PRIORITY_ACTIONS,
            r::PA_ACTIVATE,
        ],
    )
    .obj(card.to_string());
    if let Some(c) = m.game.cards.get_mut(card) {
        c.states.insert(st::SLEEP.into());
    }
    m.record(
        "activate.pay",
        format!("{card} goes to sleep to pay the sleep-icon cost"),
        &[r::ACT_PAY, r::SLEEP_COST, r::SLEEP_COST_OWN],
    )
    .change(format!("{card}.sleep"), false, true);
    push_activated(
        m,
        p,
        player,
        card,
        Activated::ManaCharge {
            x,
            incarnation: inc,
        },
    )
}

/// The tail of using an activated effect (7.3.4): it opens or joins the
/// interference and priority passes to the opponent (1.12.4).
pub(super) fn push_activated(
    m: &mut M,
    mut p: Pri,
    player: PlayerId,
    card: &str,
    kind: Activated,
) -> R<()> {
    let opened = !p.open();
    p.chain.push(Entry {
        card: card.into(),
        player,
        targets: BTreeMap::new(),
        activated: Some(kind),
    });
    p.passes = 0;
    p.block_window = false;
    p.holder = m.game.opponent(player);
    m.record(
        "activate.pass",
        format!(
            "{} the interference; priority passes to {}",
            if opened { "this opens" } else { "this joins" },
            player_name(p.holder)
        ),
        &[
            r::ACT_OPEN,
            r::INTERFERENCE_OPENS,
            r::OPENS_BY_ACTIVATE,
            r::PRIORITY_AFTER,
        ],
    );
    give_priority(m, p);
    Ok(())
}

pub(super) fn resolve_mana_charge(m: &mut M, e: &Entry, x: i64, inc: u32) -> R<()> {
    let card = &e.card;
    if !same_on_field(&m.game, &(card.to_string(), inc)) {
        m.record(
            "activate.void",
            format!("{card} left the field before its マナチャージ resolved: the effect is void"),
            &[r::ACT_SOURCE_LEFT],
        );
        return Ok(());
    }
    if m.game.turn.active != e.player {
        m.record(
            "activate.void",
            format!(
                "it is no longer {}'s turn: マナチャージ fails its timing check",
                player_name(e.player)
            ),
            &[r::ACT_TIMING_RECHECK],
        );
        return Ok(());
    }
    let put = top_cards_for_nodes(&m.game, e.player, x);
    let short_note = short_deck_note(&m.game, "マナチャージ");
    let before = nodes(&m.game, e.player).len();
    for id in &put {
        m.game.move_card(id, ZoneId::of(e.player, zn::NODE), false);
        if let Some(c) = m.game.cards.get_mut(id) {
            c.states.insert(st::SLEEP.into());
        }
    }
    let en = m.record(
        "activate.resolve",
        format!("{card}'s マナチャージ（{x}） resolves: the top {} card(s) of {}'s deck go to the node area, asleep", put.len(), player_name(e.player)),
        &[r::ACT_TIMING_RECHECK, r::ACT_RESOLVE, r::MANA_CHARGE, r::NODE_ADD],
    );
    en.change(
        format!("{}.nodes", player_name(e.player)),
        before,
        before + put.len(),
    );
    if (put.len() as i64) < x {
        en.note(short_note);
    }
    Ok(())
}

// ---------------------------------------------------------------- resolution

/// 弐符 second card (10.19.2.a): a character that entered the field other
/// than by 壱符's Spell Break is excluded, before its other entering
/// effects. This is called for entries by play; a Spell Break
/// (`spell_break::first_card`) puts the card onto the field without it.
/// Returns whether the card was excluded. Whether the card's own
/// entering effects still resolve after it left is not settled by the
/// text: such a card stops the run with `not implemented`.
pub(super) fn second_card(m: &mut M, card: &str, d: &crate::engine::CardDef) -> R<bool> {
    if !d.has_keyword("second_card") {
        return Ok(false);
    }
    if d.abilities.iter().any(|a| a.trigger == "on_enter") {
        return Err(EngineError::NotImplemented {
            clause: r::SECOND_CARD,
            what: format!("the entering effects of {card}, a 弐符 card excluded before them"),
        });
    }
    m.record(
        "second_card",
        format!("{card} has 弐符 and entered the field other than by 壱符's effect: it is excluded from the game before any other entering effect"),
        &[r::SECOND_CARD, r::ORDER_EXCLUDE],
    )
    .obj(card.to_string());
    if let Some(c) = m.game.cards.get_mut(card) {
        c.states.insert(st::EXCLUDING.into());
    }
    process_removals(m)?;
    Ok(true)
}

/// 連結 link (10.20.2.b) as the play resolves: the player may exclude, from
/// their field, hand or Netherworld, one card whose name contains each of
/// A, B, C…, given with `<card>.link` as a list in the order of the parts
/// (`[]` for none). Excluding none excludes this card at once and its play
/// fails (10.20.3). Cards on the field go through 除外 (9.4.4).
pub(super) fn link(m: &mut M, e: &Entry) -> R<bool> {
    let card = &e.card;
    let parts = link_parts(&m.game, card);
    let key = format!("{card}.link");
    let mut pool: Vec<CardId> = Vec::new();
    for z in [zn::FIELD, zn::HAND, zn::NETHERWORLD] {
        pool.extend(
            m.game
                .zone_of(e.player, z)
                .iter()
                .filter(|id| *id != card)
                .cloned(),
        );
    }
    let chosen = m
        .choices
        .ids(&key, &pool)?
        .ok_or_else(|| EngineError::MissingChoice {
            choice: key.clone(),
            options: texts(&pool),
        })?;
    let distinct: BTreeSet<&CardId> = chosen.iter().collect();
    let fits = !parts.is_empty()
        && chosen.len() == parts.len()
        && distinct.len() == chosen.len()
        && chosen
            .iter()
            .zip(&parts)
            .all(|(id, p)| name_contains(&m.game, id, p));
    if !chosen.is_empty() && !fits {
        return Err(EngineError::BadChoice {
            choice: key,
            value: chosen.join(", "),
            options: vec![format!(
                "[] or one distinct card of your field, hand or Netherworld per part, in order: {}",
                parts.join(" + ")
            )],
        });
    }
    if chosen.is_empty() {
        m.record(
            "link.fail",
            format!(
                "{card} has 連結 ({}) and {} excludes nothing: {card} is excluded at once and its play fails",
                parts.join(" + "),
                player_name(e.player)
            ),
            &[r::LINK, r::LINK_FAILS],
        )
        .obj(card.clone());
        if let Some(c) = m.game.cards.get_mut(card) {
            c.states.insert(st::EXCLUDING.into());
        }
        process_removals(m)?;
        return Ok(false);
    }
    m.record(
        "link",
        format!(
            "{card} has 連結 ({}): {} excludes {}, and the play goes on",
            parts.join(" + "),
            player_name(e.player),
            chosen.join(", ")
        ),
        &[r::LINK, r::NAME_REFERENCE],
    )
    .obj(card.clone());
    for id in &chosen {
        if on_field(&m.game, id) {
            if let Some(c) = m.game.cards.get_mut(id) {
                c.states.insert(st::EXCLUDING.into());
            }
        } else {
            let owner = m.game.card(id).map(|c| c.owner).unwrap_or(e.player);
            m.game
                .move_card(id, ZoneId::of(owner, zn::EXCLUSION), false);
            m.record(
                "link.exclude",
                format!("{id} is put into its owner's exclusion area"),
                &[r::LINK, r::EXCLUDE_TO_AREA],
            )
            .obj(id.clone());
        }
    }
    process_removals(m)?;
    Ok(true)
}

/// オーバードライブ overdrive (10.33.2.a) as the play resolves: the player may
/// exclude one or more cards of their Netherworld — character cards whose
/// name contains this card's caster, or spells with the same caster —
/// chosen with `<card>.overdrive` (a list, possibly empty). Excluding none
/// excludes this card at once and its play fails (10.33.3). Returns whether
/// the play goes on.
pub(super) fn overdrive(m: &mut M, e: &Entry) -> R<bool> {
    let card = &e.card;
    let caster = caster_of(&m.game, card);
    let legal: Vec<CardId> = match caster.as_deref() {
        Some(c) => m
            .game
            .zone_of(e.player, zn::NETHERWORLD)
            .iter()
            .filter(|id| {
                def(&m.game, id).is_some_and(|d| {
                    (d.card_type == "character" && name_contains(&m.game, id, c))
                        || (d.card_type == "spell" && caster_of(&m.game, id).as_deref() == Some(c))
                })
            })
            .cloned()
            .collect(),
        None => Vec::new(),
    };
    let key = format!("{card}.overdrive");
    let chosen = if legal.is_empty() {
        Vec::new()
    } else {
        m.choices
            .ids(&key, &legal)?
            .ok_or_else(|| EngineError::MissingChoice {
                choice: key.clone(),
                options: texts(&legal),
            })?
    };
    let distinct: BTreeSet<&CardId> = chosen.iter().collect();
    if distinct.len() != chosen.len() {
        return Err(EngineError::BadChoice {
            choice: key,
            value: format!("{} card(s), some twice", chosen.len()),
            options: texts(&legal),
        });
    }
    if chosen.is_empty() {
        m.record(
            "overdrive.fail",
            format!(
                "{card} has overdrive and {} excludes no card from their Netherworld{}: {card} is excluded at once and its play fails",
                player_name(e.player),
                if legal.is_empty() { " (none qualifies)" } else { "" }
            ),
            &[r::OVERDRIVE, r::OVERDRIVE_FAILS],
        )
        .obj(card.clone());
        if let Some(c) = m.game.cards.get_mut(card) {
            c.states.insert(st::EXCLUDING.into());
        }
        process_removals(m)?;
        return Ok(false);
    }
    m.record(
        "overdrive",
        format!(
            "{card} has overdrive: {} excludes {} from their Netherworld, and the play goes on",
            player_name(e.player),
            chosen.join(", ")
        ),
        &[r::OVERDRIVE],
    )
    .obj(card.clone());
    for id in &chosen {
        let owner = m.game.card(id).map(|c| c.owner).unwrap_or(e.player);
        m.game
            .move_card(id, ZoneId::of(owner, zn::EXCLUSION), false);
        m.record(
            "overdrive.exclude",
            format!("{id} is put into its owner's exclusion area"),
            &[r::OVERDRIVE, r::EXCLUDE_TO_AREA],
        )
        .obj(id.clone());
    }
    Ok(true)
}

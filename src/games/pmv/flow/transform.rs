//! 変身 transform (10.28) and the transformed description 変身状態の記述
//! (2.17).
//!
//! A card's transformed description is the core's alternate face
//! (`CardDef::alternate`): a card in the transformed state (変身状態,
//! 10.28.3) shows it, so every characteristic the module reads through
//! `def` — name, races, attack, durability, keywords, abilities, text — is
//! read from the transformed description, which is treated as the card's
//! original description (2.17.3, 10.28.8). The card stays the same object:
//! sleep, accumulated damage and combat-power changes already applied keep
//! applying on top of the new values (6.1.10). A character also has the
//! transformed descriptions of the equipment and charms set on it
//! (10.13.6, 10.14.4); the snapshot's `face` names the card whose
//! description it shows.
//!
//! Transforming: the 自動γ of 10.28.2.a when the character attacks or
//! blocks (choice `<card>.transform`), and the （常時）０ activated effect of
//! 10.28.2.b (action `activate`). Back to the normal state (通常状態): at
//! the start of the turn of the player whose field holds it (10.28.10),
//! when it loses its character information by leaving the field (10.28.11,
//! 6.1.9.c), and when the set card whose description it shows stops giving
//! it (10.28.9.a).

use super::*;
use crate::engine::texts;

/// Whether `card` is in the transformed state (10.28.3).
pub(super) fn transformed(g: &Game, card: &str) -> bool {
    // A description given by an effect (6.1.6, 6.1.7; flow/face.rs) is
    // not the transformed state.
    g.card(card)
        .is_some_and(|c| c.face.is_some() && !c.states.contains(st::MADE_CHARACTER))
        && !info_changed(g, card)
}

/// The transformed descriptions `card` has, as the ids of the cards that
/// print them: its own (2.17), then those of its set cards (10.13.6,
/// 10.14.4).
pub(super) fn descriptions(g: &Game, card: &str) -> Vec<CardId> {
    let mut v = Vec::new();
    if g.def_of_base(card).is_some_and(|d| d.alternate.is_some()) {
        v.push(card.into());
    }
    v.extend(
        set_cards(g, card)
            .into_iter()
            .filter(|s| g.def_of_base(s).is_some_and(|d| d.alternate.is_some())),
    );
    v
}

/// Whether `card` has 変身 in its normal description (what the activated
/// effect of a card that is already transformed came from).
fn normally_has_transform(g: &Game, card: &str) -> bool {
    g.def_of_base(card)
        .is_some_and(|d| d.has_keyword("transform"))
}

/// The 変身 activation `player` may declare with priority: characters of
/// their field with 変身 not yet used in this interference (7.3.6). The
/// timing is （常時） (7.1.3): either player's turn.
pub(super) fn transform_actions(g: &Game, p: &Pri) -> Vec<String> {
    characters(g, p.holder)
        .into_iter()
        .filter(|id| has_kw(g, id, "transform") && !transformed(g, id))
        .filter(|id| !p.used(id, is_transform_effect))
        .map(|id| format!("activate {id}"))
        .collect()
}

/// 変身's （常時）０ among the activated effects (for 7.3.6).
fn is_transform_effect(a: &Activated) -> bool {
    matches!(a, Activated::Transform { .. })
}

/// Whether an `activate` action on `card` is 変身's activated effect
/// (rather than マナチャージ). A card with both names the one it uses with
/// the choice `<card>.activate` (`transform` / `mana_charge`).
pub(super) fn activates_transform(m: &mut M, card: &str) -> R<bool> {
    let g = &m.game;
    let tf =
        has_kw(g, card, "transform") || (transformed(g, card) && normally_has_transform(g, card));
    if !tf {
        return Ok(false);
    }
    if !has_kw(g, card, "mana_charge") {
        return Ok(true);
    }
    let key = format!("{card}.activate");
    let options = vec!["transform".to_string(), "mana_charge".to_string()];
    match m.choices.take(&key) {
        Some(Value::String(s)) if s == "transform" => Ok(true),
        Some(Value::String(s)) if s == "mana_charge" => Ok(false),
        Some(v) => Err(EngineError::BadChoice {
            choice: key,
            value: v.to_string(),
            options,
        }),
        None => Err(EngineError::MissingChoice {
            choice: key,
            options,
        }),
    }
}

/// 10.28.2.b （常時）０ declared (7.3.4): no turn restriction (（常時）,
/// 7.1.3) and nothing to pay (cost 0). A card already transformed cannot
/// be transformed (10.28.4), so the effect is not used.
pub(super) fn activate_transform(m: &mut M, p: Pri, player: PlayerId, card: &str) -> R<()> {
    let g = &m.game;
    let alts = legal_actions(g, &p);
    let fail = |rule, msg: String| illegal(rule, msg, alts.clone());
    let c = activation_source(g, &alts, player, card)?;
    if transformed(g, card) {
        let why = if has_kw(g, card, "transform") {
            ""
        } else {
            " (and its transformed description, now its original one, has no 変身: 10.28.8)"
        };
        return Err(fail(
            r::TRANSFORM_ALREADY,
            format!(
                "{card} is already transformed: a card in the transformed state cannot be transformed{why}"
            ),
        ));
    }
    if p.used(card, is_transform_effect) {
        return Err(fail(
            r::ACT_ONCE,
            format!("{card}'s 変身 was already used in this interference"),
        ));
    }
    let inc = c.incarnation;
    m.record(
        "activate.declare",
        format!(
            "{} uses {card}'s 変身 (（常時）０): it is usable in either player's turn and costs nothing",
            player_name(player)
        ),
        &[
            r::ACTIVATED,
            r::ACT_DECLARE,
            r::ACT_ON_FIELD,
            r::ACT_OWN_FIELD,
            r::ACT_COST_PAYABLE,
            r::ACT_PAY,
            r::ACTIVATED_TIMINGS,
            r::TRANSFORM_TACTIC,
            r::TRANSFORM_TEXT,
            r::TRANSFORM_ACTIVATED,
            r::PRIORITY_ACTIONS,
            r::PA_ACTIVATE,
        ],
    )
    .obj(card.to_string());
    push_activated(
        m,
        p,
        player,
        card,
        Activated::Transform { incarnation: inc },
    )
}

/// 10.28.2.b resolves (7.3.5): if the character is still on the field
/// (7.3.1.b) and active, it transforms until the start of its
/// controller's next turn.
pub(super) fn resolve_transform(m: &mut M, e: &Entry, inc: u32) -> R<()> {
    let card = &e.card;
    if !same_on_field(&m.game, &(card.to_string(), inc)) {
        m.record(
            "activate.void",
            format!("{card} left the field before its 変身 resolved: the effect is void"),
            &[r::ACT_SOURCE_LEFT],
        );
        return Ok(());
    }
    m.record(
        "activate.resolve",
        format!("{card}'s 変身 resolves; its timing （常時） is still correct"),
        &[r::ACT_TIMING_RECHECK, r::ACT_RESOLVE, r::ACTIVATED_TIMINGS],
    );
    if m.game.card(card).is_some_and(|c| c.has(st::SLEEP)) {
        m.record(
            "transform.asleep",
            format!("{card} is asleep as 変身 resolves: it does not transform"),
            &[r::TRANSFORM_ACTIVATED],
        )
        .obj(card.clone());
        return Ok(());
    }
    if transformed(&m.game, card) {
        m.record(
            "transform.already",
            format!("{card} became transformed before this 変身 resolved: a card already transformed cannot be transformed, so nothing happens"),
            &[r::TRANSFORM_ALREADY],
        )
        .obj(card.clone());
        return Ok(());
    }
    let Some(source) = choose_description(m, card)? else {
        return Ok(());
    };
    become_transformed(m, card, &source, r::TRANSFORM_ACTIVATED)
}

/// The 自動γ effects when `card` attacks (`on_attack`, 6.3.4.d) or blocks
/// (`on_block`, 6.4.4.c): 変身's 10.28.2.a and the card's abilities with
/// that trigger. 変身 transforms 同時に (at the same time as) the attack or
/// block, so by the judges' reading it applies first and the card's other
/// effects of this step are read from the description then in force
/// (10.28.8); with the reading flag `reading_transform_after_attack_effects`
/// the card's other effects resolve first.
pub(super) fn attack_or_block_effects(
    m: &mut M,
    card: &str,
    trigger: &str,
    rule: &'static str,
) -> R<()> {
    let after = reading(&m.game, TRANSFORM_AFTER_ATTACK_EFFECTS);
    if after {
        fire(m, trigger, &[card.into()], rule)?;
    }
    if game_over(&m.game) {
        return Ok(());
    }
    transform_gamma(m, card, rule, after)?;
    if !after {
        fire(m, trigger, &[card.into()], rule)?;
    }
    Ok(())
}

/// 10.28.2.a: when this character attacks or blocks, it may transform until
/// the start of its controller's next turn: choice `<card>.transform`
/// (`false`, `true`, or with several transformed descriptions the id of the
/// card printing the one chosen, 10.28.5).
fn transform_gamma(m: &mut M, card: &str, rule: &'static str, after: bool) -> R<()> {
    let key = format!("{card}.transform");
    if !on_field(&m.game, card) {
        return Ok(());
    }
    if transformed(&m.game, card) {
        // Already transformed: whatever description it shows, it cannot be
        // transformed again (10.28.4).
        match m.choices.take(&key) {
            Some(Value::Bool(false)) => {
                m.record(
                    "transform.decline",
                    format!("{card} is already transformed and stays so"),
                    &[r::TRANSFORM_ALREADY],
                );
            }
            Some(_) => {
                return Err(illegal(
                    r::TRANSFORM_ALREADY,
                    format!(
                        "{card} is already transformed: a card in the transformed state cannot be transformed"
                    ),
                    vec![format!("{key}: false")],
                ));
            }
            None => {}
        }
        return Ok(());
    }
    if !has_kw(&m.game, card, "transform") {
        return Ok(());
    }
    let descs = descriptions(&m.game, card);
    if descs.is_empty() {
        m.record(
            "transform.none",
            format!("{card} has 変身 but no transformed description: it cannot transform"),
            &[r::TRANSFORM, r::TRANSFORMED_DESCRIPTION],
        );
        return Ok(());
    }
    let mut options = vec!["false".to_string()];
    if descs.len() == 1 {
        options.push("true".into());
    } else {
        options.extend(descs.iter().map(|d| d.to_string()));
    }
    let source = match m.choices.take(&key) {
        Some(Value::Bool(false)) => {
            m.record(
                "transform.decline",
                format!("{card} has 変身 (自動γ): its player chooses not to transform it"),
                &[r::GAMMA, rule, r::TRANSFORM],
            )
            .obj(card.to_string());
            return Ok(());
        }
        Some(Value::Bool(true)) if descs.len() == 1 => descs[0].clone(),
        Some(Value::String(s)) if descs.iter().any(|c| c == &s) => s.into(),
        Some(v) => {
            return Err(EngineError::BadChoice {
                choice: key,
                value: v.to_string(),
                options,
            });
        }
        None => {
            return Err(EngineError::MissingChoice {
                choice: key,
                options,
            });
        }
    };
    let e = m.record(
        "transform.gamma",
        format!(
            "{card} has 変身 (自動γ): its player transforms it at the same time as it {}s, until the start of their next turn",
            if rule == r::BLOCK_WHEN { "block" } else { "attack" }
        ),
        &[r::GAMMA, rule, r::TRANSFORM_TACTIC, r::TRANSFORM_TEXT, r::TRANSFORM],
    );
    e.obj(card.to_string());
    if after {
        e.note("reading flag reading_transform_after_attack_effects: the card's other effects of this step resolved first, from its normal description");
    } else {
        e.note("judge's reading: 変身 transforms 同時に (at the same time as) the attack or block, so it applies before the card's other effects of this step, which are then read from the transformed description (10.28.8); the flag reading_transform_after_attack_effects chooses the other order");
    }
    if descs.len() > 1 {
        m.record(
            "transform.choose",
            format!(
                "{card} has {} transformed descriptions ({}): its player chooses {source}'s",
                descs.len(),
                descs.join(", ")
            ),
            &[r::TRANSFORM_CHOOSE],
        );
    }
    become_transformed(m, card, &source, r::TRANSFORM)
}

/// 10.28.5: with several transformed descriptions, the one to use is
/// chosen as the transformation resolves (choice `<card>.transform`, the id
/// of the card printing it). `None`: it has none and cannot transform.
fn choose_description(m: &mut M, card: &str) -> R<Option<CardId>> {
    let descs = descriptions(&m.game, card);
    match descs.len() {
        0 => {
            m.record(
                "transform.none",
                format!("{card} has no transformed description: it cannot transform"),
                &[r::TRANSFORM_ACTIVATED, r::TRANSFORMED_DESCRIPTION],
            );
            Ok(None)
        }
        1 => Ok(descs.into_iter().next()),
        _ => {
            let key = format!("{card}.transform");
            let chosen = match m.choices.take(&key) {
                Some(Value::String(s)) if descs.iter().any(|c| c == &s) => s,
                Some(v) => {
                    return Err(EngineError::BadChoice {
                        choice: key,
                        value: v.to_string(),
                        options: texts(&descs),
                    });
                }
                None => {
                    return Err(EngineError::MissingChoice {
                        choice: key,
                        options: texts(&descs),
                    });
                }
            };
            m.record(
                "transform.choose",
                format!(
                    "{card} has {} transformed descriptions ({}): its player chooses {chosen}'s as the transformation resolves",
                    descs.len(),
                    descs.join(", ")
                ),
                &[r::TRANSFORM_CHOOSE],
            );
            Ok(Some(chosen.into()))
        }
    }
}

/// The transformation procedure (10.28.6): the card is turned upside down
/// (a) and is from then on the character of the transformed description
/// printed on `source` (b, 10.28.3, 10.28.8, 2.17.3).
fn become_transformed(m: &mut M, card: &str, source: &str, rule: &'static str) -> R<()> {
    let before = m
        .game
        .card(card)
        .map(|c| (attack(&m.game, c), durability(&m.game, c)))
        .unwrap_or((0, 0));
    let old_name = def(&m.game, card)
        .map(|d| d.name.clone())
        .unwrap_or_default();
    refuse_if_info_changed(&m.game, card)?;
    if !m.game.show_alternate(card, source) {
        return Ok(());
    }
    let (name, traits, keywords) = def(&m.game, card)
        .map(|d| (d.name.clone(), d.traits.join("/"), d.keywords.join(", ")))
        .unwrap_or_default();
    let after = m
        .game
        .card(card)
        .map(|c| (attack(&m.game, c), durability(&m.game, c)))
        .unwrap_or((0, 0));
    let from = if source == card {
        "its own transformed description".to_string()
    } else {
        format!("the transformed description it gains from {source}")
    };
    // A description gained from a set card (10.13.6, 10.14.4).
    let gained_from = (source != card).then(|| {
        if def(&m.game, source).and_then(set_keyword) == Some("equip") {
            r::EQUIP_GAINS_TEXT
        } else {
            r::CHARM_GAINS_TEXT
        }
    });
    let e = m.record(
        "transform",
        format!(
            "{card} ({old_name}) transforms: the card is turned upside down and is treated as the character of {from}, {name} (races {}; keywords {}), whose description is now its original one",
            if traits.is_empty() { "none" } else { &traits },
            if keywords.is_empty() { "none" } else { &keywords },
        ),
        &[
            rule,
            r::TRANSFORM_PROC,
            r::TRANSFORM_FLIP,
            r::TRANSFORM_TREATED,
            r::TRANSFORMED_STATE,
            r::TRANSFORMED_IS_ORIGINAL,
            r::TRANSFORMED_PRINTED,
            r::TRANSFORMED_DESCRIPTION,
            r::TRANSFORMED_ONLY_WHEN,
        ],
    );
    if let Some(gains) = gained_from {
        e.rule(gains);
    }
    e.obj(card.to_string())
        .change(format!("{card}.face"), "normal", source.to_string())
        .change(format!("{card}.attack"), before.0, after.0)
        .change(format!("{card}.durability"), before.1, after.1);
    let (mods_a, mods_d) = m
        .game
        .card(card)
        .map(|c| (c.modifier("attack"), c.modifier("defense")))
        .unwrap_or((0, 0));
    let set_value = m
        .game
        .card(card)
        .is_some_and(|c| c.set_value("attack").is_some() || c.set_value("defense").is_some());
    if mods_a != 0 || mods_d != 0 || set_value {
        m.record(
            "transform.modifiers",
            format!("{card} is the same character: the changes to its combat power already applied keep applying to the transformed description's values"),
            &[r::POWER_ORDER, r::TRANSFORMED_STATE],
        );
    }
    let set = set_cards(&m.game, card);
    if !set.is_empty() {
        m.record(
            "transform.set_cards",
            format!(
                "{} stay{} set on {card} and keep{} giving it {} combat modifiers",
                set.join(", "),
                if set.len() == 1 { "s" } else { "" },
                if set.len() == 1 { "s" } else { "" },
                if set.len() == 1 { "its" } else { "their" }
            ),
            &[r::TRANSFORM_SET_CARDS, r::SET_CARD_TEXT],
        );
    }
    // New durability may be at or below the accumulated damage (9.2.2).
    process_removals(m)
}

/// The procedure back to the normal state (10.28.7): turned upright (a),
/// the character of its own description again (b).
fn revert(m: &mut M, card: &str, why: String, rules: &[&'static str]) {
    let shown = m
        .game
        .card(card)
        .and_then(|c| c.face.as_ref().map(|f| f.source.clone()));
    let Some(shown) = shown else { return };
    m.game.show_normal(card);
    let name = m
        .game
        .def_of_base(card)
        .map(|d| d.name.clone())
        .unwrap_or_default();
    let mut cites = vec![
        r::REVERT_PROC,
        r::REVERT_FLIP,
        r::REVERT_TREATED,
        r::NORMAL_STATE,
    ];
    cites.extend_from_slice(rules);
    m.record(
        "transform.revert",
        format!("{why}: {card} returns to the normal state, turned upright, the character of its own description ({name}) again"),
        &cites,
    )
    .obj(card.to_string())
    .change(format!("{card}.face"), shown, "normal");
}

/// 10.28.10: at the start of a player's turn, the transformed characters
/// on that player's field return to the normal state.
pub(super) fn revert_at_turn_start(m: &mut M) -> R<()> {
    let tp = m.game.turn.active;
    let ids: Vec<CardId> = m
        .game
        .zone_of(tp, zn::FIELD)
        .iter()
        .filter(|id| transformed(&m.game, id))
        .cloned()
        .collect();
    for id in &ids {
        revert(
            m,
            id,
            format!(
                "the turn of {} begins, whose field holds {id}",
                player_name(tp)
            ),
            &[r::REVERT_TURN_START, r::TURN_START_EFFECTS],
        );
    }
    if !ids.is_empty() {
        // Back to its own durability, it may now be at or below its damage
        // (accumulated damage was reset at 4.3.1.a, so only a durability of
        // 0 or less matters here).
        process_removals(m)?;
    }
    Ok(())
}

/// Called just before `card` leaves the field: a transformed character
/// loses its character information (6.1.9.c) and returns to the normal
/// state at the same time (10.28.11); a character showing the transformed
/// description that `card`, a set card, gives it returns to the normal
/// state as that card stops giving it (10.28.9.a).
pub(super) fn before_leaving_field(m: &mut M, card: &str) {
    face_leaving_field(m, card);
    // 7.1.16: the modifications its resolved effects gave other cards stay.
    let kept: Vec<CardId> = m
        .game
        .cards
        .values()
        .filter(|c| c.id != card && c.modifiers.iter().any(|md| md.source == card))
        .map(|c| c.id.clone())
        .collect();
    if !kept.is_empty() {
        m.record(
            "effect.independent",
            format!(
                "{card} leaves the field; the modifications its resolved effects gave {} stay for their period",
                texts(&kept).join(", ")
            ),
            &[r::RESOLVED_INDEPENDENT],
        );
    }
    if transformed(&m.game, card) && on_field(&m.game, card) {
        revert(
            m,
            card,
            format!("{card} leaves the field and loses its character information"),
            &[
                r::REVERT_NOT_CHARACTER,
                r::LOSES_CHARACTER,
                r::LOSES_CHARACTER_LEAVING,
            ],
        );
    }
    let hosts: Vec<CardId> = m
        .game
        .cards
        .values()
        .filter(|c| c.id != card && c.face.as_ref().is_some_and(|f| f.source == card))
        .map(|c| c.id.clone())
        .collect();
    for h in hosts {
        if reading(&m.game, SET_CARD_LEAVING_KEEPS_TRANSFORM) {
            m.record(
                "transform.stays",
                format!("{card}, whose transformed description {h} shows, leaves the field; {h} stays transformed"),
                &[r::TRANSFORM_SET_CARD_FACE],
            )
            .note(format!("reading chosen by the scenario ({SET_CARD_LEAVING_KEEPS_TRANSFORM}): 10.28.9.a reverts the character only when the set card's text becomes invalid; leaving the field is not named, so the description once obtained stays"));
            continue;
        }
        revert(
            m,
            &h,
            format!(
                "{card}, whose transformed description {h} shows, leaves the field and no longer gives it"
            ),
            &[r::TRANSFORM_SET_CARD_FACE],
        );
        if let Some(e) = m.trace.last_mut() {
            e.note(format!("judge's reading: a set card leaving the field stops giving its text and transformed description, like its text becoming invalid (10.28.9.a), so the character returns to the normal state (option {SET_CARD_LEAVING_KEEPS_TRANSFORM}: it stays transformed)"));
        }
    }
}

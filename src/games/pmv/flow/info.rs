//! Names and texts given by effects: 名称の変更 (`change_info` with
//! `name`) and テキストの変更 (`change_text`).
//!
//! 「名称」 includes the names effects specify (2.3.3), so a card's name
//! and its card name may differ (2.3.5): while the change lasts, name
//! references (12.3) and "named" filters read the given name. A text
//! change replaces the card's whole text (2.13): its abilities, and its
//! 戦術 and 特殊効果, which are words written in the text (10.1.2), so a
//! 【相手ターン１枚制限】 or 抵抗 printed there is gone with it (M.I.W's
//! published answer of 2012-07-09). The caster 術者 is printed outside the
//! text (2.5) and stays. Either change is shown through the core's face
//! mechanism: a definition equal to the one the card showed, the name or
//! the text replaced.
//!
//! A change ends when its duration does (4.9.1.b "until end of turn",
//! 4.9.1.d "during this turn"), or when the card changes zones: a card
//! that moves loses every information given to it before (3.1.7), so a
//! renamed character destroyed during the turn has its printed name again
//! in the Netherworld (published answer of 2012-07-09). Not modelled, and
//! stopped with `not implemented`: a change of a card's type, races or
//! text fields, a name or text change of a card off the field (whether a
//! change given in the hand lasts into the play area, 3.1.7.a, is not
//! decided), of a face-down card or of one already showing another
//! description (変身, 6.1.6), a text change of a 幻想生物 or one adding or
//! removing continuous 自動α/β text (those are read from the printed
//! text).

use super::*;
use crate::engine::state::ShownFace;

/// What a change gives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Given {
    /// A name (2.3.3).
    Name,
    /// A text (2.13).
    Text,
}

/// A name or text given by an effect to a card.
#[derive(Debug, Clone)]
pub struct InfoChange {
    /// The card changed.
    pub card: CardId,
    /// The object changed: a later incarnation is a new object (3.1.7).
    pub incarnation: u32,
    /// How long the change lasts.
    pub until: Until,
    /// What it gives.
    pub given: Given,
    /// The zone kind the card was in when changed.
    pub from: String,
    /// The key of the definition it shows.
    pub key: String,
}

/// Applies `change_info` of `this` to `objs`: each takes the name the
/// effect gives (2.3.3, 2.3.5) for `until`.
pub(super) fn change_name(m: &mut M, e: &Effect, this: &str, objs: &[String]) -> R<()> {
    let Effect::ChangeInfo {
        name,
        card_type,
        traits,
        replace_traits,
        text,
        until,
        ..
    } = e
    else {
        return Ok(());
    };
    if card_type.is_some() || !traits.is_empty() || *replace_traits || !text.is_empty() {
        return Err(EngineError::NotImplemented {
            clause: r::CARD_TEXT,
            what: "an effect changing a card's type, races or text fields (only a name change is modelled)".into(),
        });
    }
    let Some(name) = name else {
        return Err(bad("`change_info` gives no `name`"));
    };
    check_duration(*until)?;
    for o in objs {
        if !on_field(&m.game, o) {
            return Err(EngineError::NotImplemented {
                clause: r::NAME_BY_EFFECT,
                what: format!("a name change of {o} while it is off the field"),
            });
        }
        let Some(shown) = shown_def(&m.game, o)? else {
            continue;
        };
        let was = shown.name.clone();
        let d = crate::engine::CardDef {
            name: name.clone(),
            ..shown
        };
        let key = format!("{}^name:{name}", base_key(&m.game, o));
        // Information given to a character overwrites its own (6.1.5).
        let character = is_character(&m.game, o);
        show(m, o, this, *until, Given::Name, key, d);
        let e = m.record(
            "effect.change_name",
            format!(
                "{o}'s name becomes 「{name}」 (was 「{was}」) {}: a name an effect specifies is one of its names, and its card name no longer matches; it is lost if the card leaves the field",
                lasts(*until)
            ),
            &[r::NAME_BY_EFFECT, r::NAME_MAY_DIFFER, r::INFO_LOST_ON_MOVE],
        );
        if character {
            e.rule(r::CHARACTER_GIVEN_INFO);
        }
    }
    Ok(())
}

/// Applies `change_text` of `this` to `objs`: each card's text becomes
/// that of definition `card` (2.13, 10.1.2) for `until`.
pub(super) fn change_text(
    m: &mut M,
    card: &str,
    until: Until,
    this: &str,
    objs: &[String],
) -> R<()> {
    let Some(given) = m.game.defs.get(card).cloned() else {
        return Err(bad(format!("unknown card `{card}`")));
    };
    check_duration(until)?;
    for o in objs {
        let Some(c) = m.game.card(o) else { continue };
        // In the hand, whether a change lasts into the play area when the
        // card is played (3.1.7.a) is not decided here.
        let zone = c.zone.kind;
        if zone != zn::FIELD {
            return Err(EngineError::NotImplemented {
                clause: r::INFO_LOST_ON_MOVE,
                what: format!("a text change of {o} in the {zone}"),
            });
        }
        let Some(shown) = shown_def(&m.game, o)? else {
            continue;
        };
        if shown.has_keyword("phantasm") {
            return Err(EngineError::NotImplemented {
                clause: r::TEXT,
                what: format!("a text change of a 幻想生物 on the field ({o})"),
            });
        }
        let lost = shown.keywords.join(", ");
        let mut d = shown;
        d.keywords = given.keywords.clone();
        d.abilities = given.abilities.clone();
        // The caster is printed outside the text (2.5, 2.13.1).
        d.text.retain(|k, _| k == "caster");
        d.text.extend(
            given
                .text
                .iter()
                .filter(|(k, _)| *k != "caster")
                .map(|(k, v)| (k.clone(), v.clone())),
        );
        let key = format!("{}^text:{card}", base_key(&m.game, o));
        show(m, o, this, until, Given::Text, key, d);
        let kws = if given.keywords.is_empty() {
            "none".to_string()
        } else {
            given.keywords.join(", ")
        };
        let lost = if lost.is_empty() {
            String::new()
        } else {
            format!("; the 戦術 and 特殊効果 written in its old text ({lost}) are gone with it")
        };
        m.record(
            "effect.change_text",
            format!(
                "{o}'s text becomes that of {card} {} (keywords now: {kws}){lost}: 戦術 and 特殊効果 are words of the text; it is lost if the card changes zones",
                lasts(until)
            ),
            &[r::TEXT, r::KEYWORD_WORDS, r::INFO_LOST_ON_MOVE],
        );
    }
    Ok(())
}

fn check_duration(until: Until) -> R<()> {
    if until == Until::ThisInterference {
        return Err(EngineError::NotImplemented {
            clause: r::NAME_BY_EFFECT,
            what: "a name or text given \"during this interference\"".into(),
        });
    }
    Ok(())
}

fn lasts(until: Until) -> &'static str {
    match until {
        Until::EndOfTurn => "until end of turn (4.9.1.b)",
        Until::ThisTurn => "during this turn (4.9.1.d)",
        _ => "while it stays in its zone",
    }
}

fn base_key(g: &Game, o: &str) -> String {
    g.card(o).map(|c| c.def.to_string()).unwrap_or_default()
}

/// The description `o` shows now, to be changed; refused when it is face
/// down or already shows another description.
fn shown_def(g: &Game, o: &str) -> R<Option<crate::engine::CardDef>> {
    // Whether a text change reaches the text a set card gives (10.13.6)
    // is not decided here.
    if gained::has_gained(g, o) {
        return Err(EngineError::NotImplemented {
            clause: r::EQUIP_GAINS_TEXT,
            what: format!("a name or text change of {o}, which has text gained from a set card"),
        });
    }
    if face_down(g, o) || g.card(o).is_some_and(|c| c.face.is_some()) {
        return Err(EngineError::NotImplemented {
            clause: r::NAME_BY_EFFECT,
            what: format!(
                "a name or text change of {o} while it is face down or shows another description"
            ),
        });
    }
    Ok(def(g, o).cloned())
}

fn show(
    m: &mut M,
    o: &str,
    this: &str,
    until: Until,
    given: Given,
    key: String,
    d: crate::engine::CardDef,
) {
    m.game.defs.insert_if_absent(key.clone(), || d);
    let Some(c) = m.game.cards.get_mut(o) else {
        return;
    };
    c.face = Some(ShownFace {
        source: this.into(),
        def: key.clone().into(),
    });
    let (incarnation, from) = (c.incarnation, c.zone.kind.to_string());
    m.game.own::<PmvState>().info_changes.push(InfoChange {
        card: o.into(),
        incarnation,
        until,
        given,
        from,
        key,
    });
}

/// Whether the changed object is still the same card showing the change.
fn still_changed(g: &Game, ch: &InfoChange) -> bool {
    g.card(&ch.card).is_some_and(|c| {
        c.incarnation == ch.incarnation && c.face.as_ref().is_some_and(|f| f.def == ch.key)
    })
}

/// Names and texts lost because their card changed zones (3.1.7): each is
/// traced once, the card reading its own again.
pub(super) fn note_info_lost(m: &mut M) {
    if pmv(&m.game).info_changes.is_empty() {
        return;
    }
    let list = std::mem::take(&mut m.game.own::<PmvState>().info_changes);
    let mut kept = Vec::new();
    for ch in list {
        if still_changed(&m.game, &ch) {
            kept.push(ch);
            continue;
        }
        let zone = m
            .game
            .card(&ch.card)
            .map(|c| c.zone.kind.to_string())
            .unwrap_or_default();
        let again = match ch.given {
            Given::Name => format!(
                "is 「{}」 again",
                def(&m.game, &ch.card).map_or_else(String::new, |d| d.name.clone())
            ),
            Given::Text => "has its own text again".to_string(),
        };
        let what = match ch.given {
            Given::Name => "name",
            Given::Text => "text",
        };
        let left = if ch.from == zn::FIELD && zone != zn::FIELD {
            "left the field".to_string()
        } else {
            format!("moved from the {} to the {zone}", ch.from)
        };
        m.record(
            format!("effect.change_{what}"),
            format!(
                "{} {left}: it loses the {what} its effect gave, with every information given before the move, and {again}",
                ch.card
            ),
            &[r::INFO_LOST_ON_MOVE],
        );
    }
    m.game.own::<PmvState>().info_changes = kept;
}

/// Ends the names and texts given for `until` (4.9.1.b, 4.9.1.d): each
/// card shows its own description again. Returns how many ended.
pub(super) fn end_info_changes(m: &mut M, until: Until) -> usize {
    note_info_lost(m);
    let list = std::mem::take(&mut m.game.own::<PmvState>().info_changes);
    let (ending, kept): (Vec<InfoChange>, Vec<InfoChange>) =
        list.into_iter().partition(|ch| ch.until == until);
    for ch in &ending {
        if let Some(c) = m.game.cards.get_mut(&ch.card) {
            c.face = None;
        }
    }
    m.game.own::<PmvState>().info_changes = kept;
    ending.len()
}

/// Whether `card` shows a name or text an effect gave it (not a
/// transformed or given description).
pub(super) fn info_changed(g: &Game, card: &str) -> bool {
    pmv(g)
        .info_changes
        .iter()
        .any(|ch| ch.card == card && still_changed(g, ch))
}

/// A card whose name or text an effect changed, given another description
/// (変身 10.28.6, 6.1.6), is not modelled: which applies is not decided.
pub(super) fn refuse_if_info_changed(g: &Game, card: &str) -> R<()> {
    if info_changed(g, card) {
        return Err(EngineError::NotImplemented {
            clause: r::NAME_BY_EFFECT,
            what: format!(
                "{card}, its name or text changed by an effect, shown with another description"
            ),
        });
    }
    Ok(())
}

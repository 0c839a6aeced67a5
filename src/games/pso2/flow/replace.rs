//! Replacement effects 置換効果 (103.4.3, GL:代わりに): "when this card
//! would be destroyed, instead …" (trigger `replace_destroy`, on the card
//! it protects). The replaced action never happens; the replacing one
//! happens instead (103.4.3.1). When several apply to one destruction, the
//! owner of the affected card chooses which applies (103.4.3.2, choice
//! `<card>.replace`: the ability's index); the others then have nothing
//! left to replace.
//!
//! A card's move to the discard, the hand or the deck may be replaced the
//! same way (triggers `replace_to_discard`, `replace_to_hand`,
//! `replace_to_deck`, on the card in play that would move): it goes where
//! the ability says instead ([`destination`]); a destroyed card that goes
//! elsewhere instead is still destroyed. Another card in play may grant
//! such a replacement to the cards its `all` filter covers (「自分の他の
//! キャラが捨札に置かれる場合、代わりに…」); when several apply to one
//! move, the moving card's owner chooses (103.4.3.2, `<card>.replace_move`).
//!
//! A replacement that already replaced a destruction of the same card
//! object in the same step, and left it to be destroyed again (its
//! damage still at or above its HP), does not apply again: repeating it
//! would change nothing (103.2.1.2), and the destruction happens.

use super::{M, continuous, effects, r, zn};
use crate::engine::{
    CardId, Effect, EngineError, Filter, Game, PlayerId, Target, ZoneId, player_name,
};

/// The trigger word of "if this card would be destroyed, instead …".
pub const DESTROY: &str = "replace_destroy";

/// Forgets the replacements applied during the step that ended.
pub fn forget(m: &mut M) {
    if super::state::read(&m.game).is_some_and(|s| !s.replaced.is_empty()) {
        super::state::of(&mut m.game).replaced.clear();
    }
}

/// Whether replacement ability `a` of card `id` (controlled by
/// `controller`) meets its condition of application; the trace says
/// when it does not.
fn condition_met(
    m: &mut M,
    id: &str,
    controller: crate::engine::PlayerId,
    a: &crate::engine::AbilityDef,
) -> bool {
    if a.condition
        .as_ref()
        .is_none_or(|k| continuous::holds(&m.game, controller, k))
    {
        return true;
    }
    m.record(
        "replacement",
        format!("{id}'s replacement ability does not apply: its condition is not met"),
        &[r::REPLACEMENT, r::CONTINUOUS],
    );
    false
}

/// What a replacement ability may not say (checked before the first step).
pub fn unsupported(effects: &[crate::engine::Effect]) -> Option<String> {
    effects
        .iter()
        .any(|e| {
            e.target()
                .is_some_and(|t| matches!(t, Target::Chosen { .. }))
        })
        .then(|| "a replacement effect that chooses targets is not implemented".to_string())
}

/// Replaces the destruction of field card `id` (about to happen for
/// `why`) when one of its replacement abilities applies. Returns whether
/// it was replaced (the card is then not destroyed).
pub fn destruction(m: &mut M, id: &str, why: &str) -> Result<bool, EngineError> {
    let Some(c) = m.game.card(id).cloned() else {
        return Ok(false);
    };
    if c.zone.kind != zn::FIELD {
        return Ok(false);
    }
    let Some(d) = m.game.def_of(id).cloned() else {
        return Ok(false);
    };
    if super::abilities::lost(&m.game, id) {
        if d.abilities.iter().any(|a| a.trigger == DESTROY) {
            super::abilities::say_lost(
                m,
                id,
                "replacement ability does not replace its destruction",
                &[r::REPLACEMENT],
            );
        }
        return Ok(false);
    }
    let mut fresh = Vec::new();
    for (i, a) in d.abilities.iter().enumerate() {
        if a.trigger != DESTROY {
            continue;
        }
        if !condition_met(m, id, c.controller, a) {
            continue;
        }
        let key = (CardId::from(id), c.incarnation, i);
        if super::state::read(&m.game).is_some_and(|s| s.replaced.contains(&key)) {
            m.record(
                "replacement",
                format!(
                    "{id}'s replacement ability already replaced its destruction in this step and left it to be destroyed again: applying it again would change nothing, so the destruction happens"
                ),
                &[r::REPLACEMENT, r::ACTION_NO_CHANGE],
            );
            continue;
        }
        fresh.push((i, key, a.effect.clone()));
    }
    if fresh.is_empty() {
        return Ok(false);
    }
    let pick = if fresh.len() == 1 {
        0
    } else {
        let options: Vec<String> = fresh.iter().map(|(i, _, _)| i.to_string()).collect();
        let choice = format!("{id}.replace");
        let owner = player_name(c.owner);
        // 103.4.3.2: the owner chooses, whoever's entry is resolving.
        let given = m.decided_by(c.owner, |m| Ok(m.choices.take(&choice)))?;
        match given {
            None => {
                return Err(EngineError::MissingChoice {
                    choice,
                    options: options
                        .iter()
                        .map(|o| format!("{o} (chosen by {owner}, the owner, 103.4.3.2)"))
                        .collect(),
                });
            }
            Some(v) => {
                let s = v
                    .as_u64()
                    .map(|n| n.to_string())
                    .or_else(|| v.as_str().map(str::to_string))
                    .unwrap_or_default();
                let Some(k) = options.iter().position(|o| *o == s) else {
                    return Err(EngineError::BadChoice {
                        choice,
                        value: v.to_string(),
                        options,
                    });
                };
                m.record(
                    "replacement",
                    format!(
                        "{} replacement abilities apply to the destruction of {id}: its owner {owner} chooses ability {s}",
                        fresh.len()
                    ),
                    &[r::REPLACEMENT_ORDER],
                );
                k
            }
        }
    };
    let (_, key, effects) = fresh.swap_remove(pick);
    super::state::of(&mut m.game).replaced.insert(key);
    m.record(
        "replacement",
        format!(
            "{id} would be destroyed ({why}); its replacement ability applies instead: the destruction does not happen"
        ),
        &[r::REPLACEMENT, r::REPLACED_NEVER_HAPPENS, r::GL_INSTEAD],
    )
    .obj(id.to_string());
    effects::apply_all(m, c.controller, id, &effects, &[])?;
    for _ in fresh {
        m.record(
            "replacement",
            format!("{id}'s other replacement ability has nothing left to replace: the destruction did not happen"),
            &[r::REPLACED_NEVER_HAPPENS, r::REPLACEMENT_ORDER],
        );
    }
    Ok(true)
}

/// The trigger words of "if this card would be put into the discard /
/// the hand / the deck, instead put it into …" (103.4.3, GL:代わりに):
/// the ability's one effect, `put` of `this` into another zone or
/// `banish` of `this`, names where the card goes instead.
pub const TO_DISCARD: &str = "replace_to_discard";
/// See [`TO_DISCARD`].
pub const TO_HAND: &str = "replace_to_hand";
/// See [`TO_DISCARD`].
pub const TO_DECK: &str = "replace_to_deck";

/// The zone kind a move replacement sends its card to instead, read from
/// its effects, with the cards it covers: `None` for its own card
/// (`this`), or the filter of `all` for the cards of others it covers
/// (「あなたのキャラが捨て札に置かれる場合、かわりに…」: a replacement an
/// ability grants other cards). `None` when the effects say anything else.
fn instead_zone(effects: &[Effect]) -> Option<(&'static str, Option<&Filter>)> {
    let (zone, target) = match effects {
        [
            Effect::Put {
                to,
                target: Some(t),
                top: None,
                ..
            },
        ] => (
            [zn::DISCARD, zn::HAND, zn::DECK, zn::EXCLUDED]
                .into_iter()
                .find(|z| z == to)?,
            t,
        ),
        [Effect::Banish { target: t }] => (zn::EXCLUDED, t),
        _ => return None,
    };
    match target {
        Target::This => Some((zone, None)),
        Target::All { filter } => Some((zone, Some(filter))),
        _ => None,
    }
}

/// What a move replacement may not say (checked before the first step).
pub fn move_unsupported(effects: &[Effect]) -> Option<String> {
    instead_zone(effects).is_none().then(|| {
        "a replacement of a move does one thing: `put` this card (or `all` the cards it covers) into the discard, hand, deck or `excluded`, or `banish` it".to_string()
    })
}

/// One move replacement that could apply: the card whose ability it is,
/// and where the moving card goes instead.
struct MoveReplacement {
    source: CardId,
    instead: &'static str,
}

/// The move replacements for `word` that apply to card `id`: its own while
/// it is in play (300.4.1), and those other cards in play grant it through
/// an `all` filter that covers it where it is now.
fn move_replacements(m: &mut M, id: &str, word: &str, to: &ZoneId) -> Vec<MoveReplacement> {
    let mut out = Vec::new();
    let mut sources: Vec<CardId> = m
        .game
        .cards
        .keys()
        .filter(|c| c.as_str() != id && continuous::in_play(&m.game, c))
        .cloned()
        .collect();
    if continuous::in_play(&m.game, id) {
        sources.insert(0, id.into());
    }
    for src in sources {
        let (Some(c), Some(d)) = (m.game.card(&src).cloned(), m.game.def_of(&src).cloned()) else {
            continue;
        };
        for a in d.abilities.iter().filter(|a| a.trigger == word) {
            let Some((instead, covers)) = instead_zone(&a.effect) else {
                continue;
            };
            let applies = match covers {
                None => src == id,
                Some(f) => src != id && covered(&m.game, c.controller, &src, f, id),
            };
            if !applies {
                continue;
            }
            if super::abilities::lost(&m.game, &src) {
                super::abilities::say_lost(
                    m,
                    &src,
                    &format!(
                        "replacement ability does not replace {id}'s move to the {}",
                        to.kind
                    ),
                    &[r::REPLACEMENT],
                );
                continue;
            }
            if !condition_met(m, &src, c.controller, a) {
                continue;
            }
            out.push(MoveReplacement {
                source: src.clone(),
                instead,
            });
            break;
        }
    }
    out
}

/// Whether filter `f` of card `source`'s ability (controlled by `master`)
/// covers card `id` where it is now (default the field). Not a target:
/// 選ばれない does not stop it.
fn covered(g: &Game, master: PlayerId, source: &str, f: &Filter, id: &str) -> bool {
    super::targets::admits(g, master, source, f, id)
}

/// Where card `id` goes when it would be put into zone `to`: a move
/// replacement for that destination, its own while it is in play or one
/// another card in play grants it, sends it elsewhere instead (the
/// replaced move never happens, 103.4.3.1); otherwise `to`. When several
/// apply, the owner of the moving card chooses which (103.4.3.2, choice
/// `<card>.replace_move`: the replacing card's id); absent the choice, its
/// own first, then the first in card order, and the trace says so.
pub fn destination(m: &mut M, id: &str, to: ZoneId) -> ZoneId {
    let word = match to.kind {
        zn::DISCARD => TO_DISCARD,
        zn::HAND => TO_HAND,
        zn::DECK => TO_DECK,
        _ => return to,
    };
    let Some(c) = m.game.card(id).cloned() else {
        return to;
    };
    let mut found = move_replacements(m, id, word, &to);
    if found.is_empty() {
        return to;
    }
    let pick = if found.len() == 1 {
        0
    } else {
        owners_pick(m, id, c.owner, &found)
    };
    let chosen = found.swap_remove(pick);
    let whose = if chosen.source == id {
        "its replacement ability".to_string()
    } else {
        format!("{}'s replacement ability", chosen.source)
    };
    m.record(
        "replacement",
        format!(
            "{id} would be put into the {}; {whose} applies: it is put into the {} instead, and the move to the {} never happens",
            to.kind, chosen.instead, to.kind
        ),
        &[r::REPLACEMENT, r::REPLACED_NEVER_HAPPENS, r::GL_INSTEAD],
    )
    .obj(id.to_string());
    for other in found {
        m.record(
            "replacement",
            format!(
                "{}'s replacement ability has nothing left to replace: {id}'s move to the {} did not happen",
                other.source, to.kind
            ),
            &[r::REPLACED_NEVER_HAPPENS, r::REPLACEMENT_ORDER],
        );
    }
    ZoneId::of(c.owner, chosen.instead)
}

/// 103.4.3.2: the owner of moving card `id` picks which of several move
/// replacements applies (choice `<id>.replace_move`). A value naming none
/// of them is left unread, so the action stops on the unused choice.
fn owners_pick(m: &mut M, id: &str, owner: PlayerId, found: &[MoveReplacement]) -> usize {
    let key = format!("{id}.replace_move");
    let options: Vec<String> = found.iter().map(|f| f.source.to_string()).collect();
    // 103.4.3.2: the owner decides, whoever's entry is resolving.
    // The pick itself cannot fail: the closure's `Ok` is always taken.
    m.decided_by(owner, |m| {
        Ok(owners_pick_as_decider(m, id, owner, &key, &options))
    })
    .unwrap_or(0)
}

/// [`owners_pick`] with the owner declared as the decider of `key`.
fn owners_pick_as_decider(
    m: &mut M,
    id: &str,
    owner: PlayerId,
    key: &str,
    options: &[String],
) -> usize {
    let given = m
        .choices
        .peek(key)
        .and_then(|v| v.as_str())
        .and_then(|v| options.iter().position(|o| o == v));
    if let Some(k) = given {
        m.choices.take(key);
        m.record(
            "replacement",
            format!(
                "{} replacement abilities apply to {id}'s move: its owner {} chooses {}'s",
                options.len(),
                player_name(owner),
                options[k]
            ),
            &[r::REPLACEMENT_ORDER],
        );
        return k;
    }
    if m.choices.peek(key).is_none() {
        m.choices.or_default(key, &options[1..]);
    }
    m.record(
        "replacement",
        format!(
            "{} replacement abilities apply to {id}'s move: without its owner {}'s choice `{key}` ({}), {}'s applies",
            options.len(),
            player_name(owner),
            options.join(", "),
            options[0]
        ),
        &[r::REPLACEMENT_ORDER],
    );
    0
}

//! Putting cards into a zone by an effect (`put`): 捨てる discarding
//! (GL:捨てる), 加える adding to the deck or the hand (GL:加える), 場に出す
//! putting a chara or an item onto the field, which is not playing it
//! (GL:プレイ), into PP (face up, ON by the judges' reading, 404.2, 404.6)
//! or out of the game (除外, 400.2.4), and 回復X's first mode (302.9). Cards in a hidden zone (the
//! hand, the deck) are chosen as the effect resolves, from the master's own
//! zone unless the text names the opponent (GL:捨てる, 209.1.3.1.1), with
//! the choice `<card>.put`; cards in a public zone are targets chosen on
//! declaration (406.2.2). Several cards moved at once are the one action
//! happening that many times (103.2.3). A card added to a deck goes to its
//! bottom (a text that adds cards to the deck shuffles it with `shuffle`).

use super::{M, ctype, moves, r, st, types, zn};
use crate::engine::{
    CardId, EngineError, Filter, PlayerId, Side, Target, ZoneId, player_name, texts,
};

/// A zone a card is chosen from on resolution, not as a target: its cards
/// are not public (406.2.2).
pub fn hidden(zone: Option<&str>) -> bool {
    matches!(zone, Some(zn::HAND | zn::DECK))
}

/// Whether `id` in a discard may be returned to the deck by the 回復X of
/// `source`: a card with 回復 may not (302.9).
pub fn recoverable(g: &crate::engine::Game, source: &str, id: &str) -> bool {
    let recovering = g.def_of(source).is_some_and(|d| d.has_keyword("recover"));
    !(recovering && g.def_of(id).is_some_and(|d| d.has_keyword("recover")))
}

/// Whether `master`'s opponents are the Boss alone (a party player in the
/// raid battle, RAID:S9).
fn boss_only(m: &M, master: PlayerId) -> bool {
    let g = &m.game;
    super::raid::on(g)
        && g.player_ids()
            .filter(|&q| super::raid::opposed(g, master, q))
            .all(|q| super::raid::is_boss(g, q))
}

/// Whose hidden zone `zone` a `put` takes from: the master's own, or with
/// `side: opponent` the opponent's hand, from which the opponent chooses
/// (GL:捨てる: 「相手は…」), or the opponent's deck, which the master looks
/// at to choose (GL:デッキを見る: the cards stay in that deck while they
/// are looked at). Several opponents (the raid battle's party seen from
/// the Boss): each of them in seat order, a judges' reading
/// ([`several`]). With the players, whether they are several opponents,
/// each deciding for their own hand or deck.
fn hidden_zone_players(
    m: &mut M,
    master: PlayerId,
    side: Side,
    zone: &str,
    source: &str,
) -> Result<(Vec<PlayerId>, bool), EngineError> {
    if side != Side::Opponent {
        return Ok((vec![master], false));
    }
    let g = &m.game;
    let foes: Vec<PlayerId> = g
        .player_ids()
        .filter(|&q| super::raid::opposed(g, master, q) && !g.players[q].lost)
        .collect();
    match (zone, foes.as_slice()) {
        (zn::HAND | zn::DECK, [q]) => Ok((vec![*q], false)),
        (zn::HAND, _) => Ok((several(m, source, foes, &HANDS), true)),
        (zn::DECK, _) => Ok((several(m, source, foes, &DECKS), true)),
        _ => Err(super::ni(
            r::GL_DISCARD,
            format!("an effect that takes cards from the {zone} of several opponents"),
        )),
    }
}

/// How a Boss card's effect on 「相手」's hidden zone reads with several
/// party players left, by zone: the option's flag, the clauses, and the
/// words of the trace.
struct Several {
    zone: &'static str,
    reading: &'static str,
    rules: &'static [&'static str],
    only: &'static str,
    each: &'static str,
}

/// 「相手は手札を1枚捨てる」: each party player does it, choosing from
/// their own hand (each the decider of choice `<card>.<key>`:
/// `pN.<card>.<key>` on another player's action).
const HANDS: Several = Several {
    zone: "hand",
    reading: super::reading::RAID_OPPONENT_HAND_TARGET_ONLY,
    rules: &[r::GL_DISCARD, r::RAID_PARTY],
    only: "only the target player does it",
    each: "each of them does it, in seat order, choosing from their own hand",
};

/// 「相手のデッキを見て1枚選び、捨札に置く」: each party player's deck is
/// looked at and chosen from; the Boss never decides, so the party chooses
/// (RAID:S10), each player for their own deck (the same choice keys).
const DECKS: Several = Several {
    zone: "deck",
    reading: super::reading::RAID_OPPONENT_DECK_TARGET_ONLY,
    rules: &[r::GL_LOOK_AT_DECK, r::RAID_PARTY, r::RAID_PARTY_CHOOSES],
    only: "only the target player's deck is",
    each: "each deck is looked at and chosen from, in seat order; the party chooses for the Boss (RAID:S10), each player from their own deck",
};

/// A Boss card's effect on 「相手」's hand or deck with several party
/// players left: the rulebook says 「相手」 is the opposing players
/// (101.2.2) and nothing of several. Judges' reading: it reaches each of
/// them, in seat order ([`HANDS`], [`DECKS`]); options
/// `reading_raid_opponent_hand_target_player_only` and
/// `reading_raid_opponent_deck_target_player_only`: only the boss turn's
/// target player (RAID:B①).
fn several(m: &mut M, source: &str, foes: Vec<PlayerId>, how: &Several) -> Vec<PlayerId> {
    let only_target = super::reading_on(&m.game, how.reading);
    let names: Vec<String> = foes.iter().map(|&q| player_name(q)).collect();
    let t = super::raid::target_player(&m.game);
    let e = m.record(
        "raid",
        format!(
            "{source}'s effect on the opponent's {}: the opponents are {}",
            how.zone,
            names.join(", ")
        ),
        how.rules,
    );
    if only_target {
        e.note(format!(
            "reading `{}`: {} ({})",
            how.reading,
            how.only,
            player_name(t)
        ));
        return foes.into_iter().filter(|&q| q == t).collect();
    }
    e.note(format!(
        "judges' reading: 「相手」 is every opposing player (101.2.2) and the raid rules say nothing of several, so {} (option `{}`: only the boss turn's target player)",
        how.each, how.reading
    ));
    foes
}

/// How many cards of a hidden zone an effect chooses, under which choice
/// key (`<source>.<key>`).
pub(super) struct Hidden {
    pub key: &'static str,
    pub count: u32,
    pub up_to: bool,
}

/// The cards of a hidden zone (the master's own, or the opponent's hand or
/// deck) chosen on resolution (choice `<source>.put`, `<source>.reveal`):
/// up to `count`, or exactly `count` when there are enough.
pub(super) fn chosen_hidden(
    m: &mut M,
    master: PlayerId,
    source: &str,
    filter: &Filter,
    how: Hidden,
) -> Result<Vec<CardId>, EngineError> {
    let Hidden { key, count, up_to } = how;
    let zone = filter.zone.as_deref().unwrap_or(zn::HAND);
    if filter.side == Side::Opponent && zone == zn::HAND && boss_only(m, master) {
        m.record(
            "raid",
            "the Boss's hand always counts as 0 cards: an effect making it discard does nothing",
            &[r::RAID_BOSS_DISCARD, r::RAID_BOSS_HAND],
        );
        return Ok(Vec::new());
    }
    let (holders, each_decides) = hidden_zone_players(m, master, filter.side, zone, source)?;
    let key = format!("{source}.{key}");
    let mut all = Vec::new();
    for holder in holders {
        let how = (key.clone(), count, up_to);
        let ids = if each_decides {
            m.decided_by(holder, |m| {
                chosen_from(m, master, source, filter, holder, how)
            })?
        } else {
            chosen_from(m, master, source, filter, holder, how)?
        };
        all.extend(ids);
    }
    Ok(all)
}

/// The cards of `holder`'s hidden zone chosen on resolution under choice
/// `key`: up to `count`, or exactly `count` when there are enough.
fn chosen_from(
    m: &mut M,
    master: PlayerId,
    source: &str,
    filter: &Filter,
    holder: PlayerId,
    (key, count, up_to): (String, u32, bool),
) -> Result<Vec<CardId>, EngineError> {
    let zone = filter.zone.as_deref().unwrap_or(zn::HAND);
    // The opponent chooses from their own hand; the master chooses from a
    // deck, looking at it (GL:デッキを見る), unless the master is the
    // Boss, for whom the party chooses (RAID:S10).
    let boss_master = super::raid::is_boss(&m.game, master);
    let chooser = if zone == zn::DECK && !boss_master {
        master
    } else {
        holder
    };
    let mut f = filter.clone();
    f.side = Side::Any;
    f.zone = Some(zone.to_string());
    if holder != master && zone == zn::DECK {
        m.record(
            "effect",
            format!(
                "{source}: {} looks at {}'s deck and chooses from it; the cards stay in the deck while looked at",
                player_name(master),
                player_name(holder)
            ),
            &[r::GL_LOOK_AT_DECK],
        );
    }
    let options: Vec<CardId> = m
        .game
        .zone_of(holder, zone)
        .iter()
        .filter(|id| super::targets::admits(&m.game, master, source, &f, id))
        .cloned()
        .collect();
    if chooser != master && zone == zn::DECK {
        m.record(
            "raid",
            format!(
                "{source}: the Boss never decides; {} chooses for it from their own deck",
                player_name(chooser)
            ),
            &[r::RAID_PARTY_CHOOSES],
        );
    } else if chooser != master {
        m.record(
            "effect",
            format!(
                "{source}: {} chooses the card(s) from their own {zone} (「相手は…」)",
                player_name(chooser)
            ),
            &[r::GL_DISCARD],
        );
    }
    let need = if up_to {
        0
    } else {
        (count as usize).min(options.len())
    };
    if options.is_empty() {
        m.choices.take(&key);
        return Ok(Vec::new());
    }
    let mut ids = required(m, &key, &options, &options)?;
    ids.dedup();
    if ids.len() > count as usize || ids.len() < need {
        let bound = if up_to { "up to" } else { "exactly" };
        return Err(wrong_count(
            key,
            ids.len(),
            format!("{bound} {count}"),
            &options,
        ));
    }
    Ok(ids)
}

/// A choice of `n` cards where `bound` (e.g. "up to 2") of `options` may be
/// chosen.
pub(super) fn wrong_count(key: String, n: usize, bound: String, options: &[CardId]) -> EngineError {
    EngineError::BadChoice {
        choice: key,
        value: format!("{n} card(s)"),
        options: vec![format!("{bound} of {}", options.join(", "))],
    }
}

/// The ids of the required choice `key`, each one of `allowed`; missing,
/// an error listing `options` (the cards that would be right).
pub(super) fn required(
    m: &mut M,
    key: &str,
    allowed: &[CardId],
    options: &[CardId],
) -> Result<Vec<CardId>, EngineError> {
    m.choices
        .ids(key, allowed)?
        .ok_or_else(|| EngineError::MissingChoice {
            choice: key.to_string(),
            options: texts(options),
        })
}

/// The cards a `put` moves: the top `top` cards of each named player's
/// deck, the cards chosen now from a hidden zone, or the targets.
fn cards(
    m: &mut M,
    master: PlayerId,
    source: &str,
    target: Option<&Target>,
    top: Option<(i64, Vec<PlayerId>)>,
    targeted: Vec<CardId>,
) -> Result<Vec<CardId>, EngineError> {
    if let Some((n, players)) = top {
        let mut v = Vec::new();
        for p in players {
            let deck = m.game.zone_of(p, zn::DECK).to_vec();
            v.extend(deck.into_iter().take(n.max(0) as usize));
        }
        return Ok(v);
    }
    match target {
        Some(Target::Chosen {
            filter,
            count,
            up_to,
            ..
        }) if hidden(filter.zone.as_deref()) => {
            let how = Hidden {
                key: "put",
                count: *count,
                up_to: *up_to,
            };
            chosen_hidden(m, master, source, filter, how)
        }
        _ => Ok(targeted),
    }
}

/// Applies a `put` of `source` for `master`: moves the cards one by one to
/// zone `to`. `targeted` are the cards its target names now.
pub fn put(
    m: &mut M,
    master: PlayerId,
    source: &str,
    to: &str,
    target: Option<&Target>,
    top: Option<(i64, Vec<PlayerId>)>,
    targeted: Vec<CardId>,
) -> Result<(), EngineError> {
    let moved = cards(m, master, source, target, top, targeted)?;
    if moved.is_empty() {
        m.record(
            "effect",
            format!("{source}: there is no card to put into the {to}"),
            &[r::IMPOSSIBLE_IGNORED],
        );
        return Ok(());
    }
    // Several cards at once: the one action happening that many times.
    let also: &[&'static str] = if moved.len() > 1 {
        &[r::SAME_ACTIONS_COUNT]
    } else {
        &[]
    };
    for id in moved {
        let Some(from) = m.game.card(&id).map(|c| c.zone.kind) else {
            continue;
        };
        let mv = Move {
            source,
            id: &id,
            from,
            to,
        };
        one(m, master, mv, also)?;
    }
    Ok(())
}

/// One card `id` moving from zone `from` to `to` by `source`'s effect.
struct Move<'a> {
    source: &'a str,
    id: &'a str,
    from: &'a str,
    to: &'a str,
}

/// Moves one card, recording it with the clauses that decide it and
/// `also`.
fn one(m: &mut M, master: PlayerId, mv: Move, also: &[&'static str]) -> Result<(), EngineError> {
    let Move {
        source,
        id,
        from,
        to,
    } = mv;
    let owner = m.game.card(id).map_or(master, |c| c.owner);
    let who = player_name(owner);
    let with = |rules: &[&'static str]| -> Vec<&'static str> {
        rules.iter().chain(also).copied().collect()
    };
    match (from, to) {
        (zn::FIELD, zn::DISCARD) => {
            // Putting a field card into the discard is destroying it (301.5).
            moves::destroy(
                m,
                id,
                &format!("put into the discard by {source}"),
                &with(&[r::DESTROY, r::GL_DESTROY]),
            )?;
        }
        (_, zn::DISCARD) => {
            m.record(
                "effect",
                format!("{who} discards {id} from their {from}"),
                &with(&[r::GL_DISCARD]),
            )
            .obj(id.to_string());
            moves::to_discard(m, id);
        }
        (zn::DISCARD, zn::DECK) => {
            if !recoverable(&m.game, source, id) {
                return Err(super::illegal(
                    r::RECOVER,
                    format!("{id} has 回復: 回復X returns only cards without 回復"),
                    Vec::new(),
                ));
            }
            let recover = m
                .game
                .def_of(source)
                .is_some_and(|d| d.has_keyword("recover"));
            let e = m.record(
                "effect",
                format!("{id} is added from {who}'s discard to the bottom of their deck"),
                &with(&[r::GL_ADD]),
            );
            e.obj(id.to_string());
            if recover {
                e.rule(r::RECOVER).rule(r::GL_RECOVER);
            }
            moves::move_to(m, id, ZoneId::of(owner, zn::DECK));
        }
        (_, zn::DECK | zn::HAND) => {
            let place = if to == zn::HAND {
                "hand"
            } else {
                "deck, at the bottom"
            };
            m.record(
                "effect",
                format!("{id} is added to {who}'s {place}"),
                &with(&[r::GL_ADD]),
            )
            .obj(id.to_string());
            if to == zn::HAND {
                moves::to_hand(m, id);
            } else {
                moves::move_to(m, id, ZoneId::of(owner, zn::DECK));
            }
        }
        (_, zn::FIELD) => onto_field(m, master, id, also)?,
        (_, zn::PP) => {
            let off = super::reading_on(&m.game, super::reading::PUT_PP_ARRIVES_OFF);
            let (state, note) = if off {
                (
                    "OFF",
                    "judges' reading not applied (reading_put_pp_arrives_off): a card an effect puts into PP arrives OFF",
                )
            } else {
                (
                    "ON",
                    "judges' reading: a card an effect puts into PP is ON, as one put there in the PP phase (the text may turn it OFF); option reading_put_pp_arrives_off puts it OFF",
                )
            };
            m.record(
                "effect",
                format!(
                    "{id} is put into {who}'s PP face up, {state}: as PP it has only its colour"
                ),
                &with(&[r::PP_ZONE, r::PP_FACE_UP, r::PP_ONLY_COLOR]),
            )
            .obj(id.to_string())
            .note(note);
            moves::move_to(m, id, ZoneId::of(owner, zn::PP));
            super::set_on(m, id, !off);
        }
        (_, zn::EXCLUDED) => {
            if super::effects::boss_card_kept(m, master, id) {
                return Ok(());
            }
            m.record(
                "effect",
                format!("{id} is excluded from the game"),
                &with(&[r::EXCLUDE, r::GL_EXCLUDE]),
            )
            .obj(id.to_string());
            moves::exclude(m, id);
        }
        _ => {
            return Err(super::ni(
                r::GL_ADD,
                format!("an effect putting a card from the {from} into the {to}"),
            ));
        }
    }
    Ok(())
}

/// 場に出す: a chara enters its master's front row OFF (202.2; ON with
/// 奇襲, 302.6), an item the back row ON (205.3). It is not played
/// (GL:プレイ): no cost, no resolution zone; 登場時 still triggers (302.2).
fn onto_field(
    m: &mut M,
    master: PlayerId,
    id: &str,
    also: &[&'static str],
) -> Result<(), EngineError> {
    let t = ctype(&m.game, id).to_string();
    let (on, back, rules): (bool, bool, Vec<&'static str>) = match t.as_str() {
        types::CHARA => {
            let ambush = m.game.def_of(id).is_some_and(|d| d.has_keyword("ambush"));
            let mut rules = vec![r::CHARA_ENTERS_FRONT_OFF, r::GL_PLAY_TERM];
            if ambush {
                rules.push(r::AMBUSH);
            }
            (ambush, false, rules)
        }
        types::ITEM => (true, true, vec![r::ITEM_BACK_ON, r::GL_PLAY_TERM]),
        other => {
            return Err(super::ni(
                r::GL_PLAY_TERM,
                format!("an effect putting a {other} card onto the field"),
            ));
        }
    };
    let rules: Vec<&'static str> = rules.into_iter().chain(also.iter().copied()).collect();
    moves::enter_field(m, id, master, on, back);
    m.record(
        "effect",
        format!(
            "{id} is put onto {}'s field ({} row, {}): it is not played",
            player_name(master),
            if back { "back" } else { "front" },
            if on { st::ON } else { st::OFF }
        ),
        &rules,
    )
    .obj(id.to_string());
    Ok(())
}

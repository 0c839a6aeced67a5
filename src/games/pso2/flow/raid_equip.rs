//! The Boss's weapons and armour (武器・防具) in the raid battle.
//!
//! RAID:B③ says what the Boss does with the charas and actives it plays
//! from its deck, and nothing of weapons and armour; the raid rules say
//! the party's turns follow the normal rules (RAID:F3) and that the party
//! chooses where a Boss card leaves a choice (RAID:S10). Judges' reading,
//! applied here:
//! - a weapon or armour the Boss plays is equipped as in the normal rules
//!   (205.4): to a Boss chara it may equip (class 205.4.3, 「A」専用
//!   302.12), entering ON in that chara's zone (205.4.2) at once, as a
//!   Boss chara enters at once; with several possible hosts the party
//!   chooses (choice `<card>.host`); with none it cannot be played (504.2)
//!   and goes to the discard, still one of the cards the Boss plays
//!   (option `reading_raid_unhosted_equipment_not_counted`: it is not
//!   counted, and the Boss plays the next card instead);
//! - the Boss uses its equipment whenever it can, as it plays every card
//!   and attacks with every card it can (RAID:B③, B④): an ON weapon of an
//!   engaged Boss card is declared (205.5.1), an ON armour is turned OFF
//!   against damage to its host (205.5.2), the party choosing which of
//!   several armours (choice `armor.<id>`, RAID:S10) (option
//!   `reading_raid_party_decides_boss_equipment_use`: the party decides
//!   whether the Boss uses them, choices `weapon.<id>` / `armor.<id>`, by
//!   default not).

use super::{Chosen, M, ctype, equip, moves, r, reading, reading_on};
use crate::engine::{CardId, EngineError, PlayerId, texts};

/// The Boss (`b`) plays `item`, a weapon or armour from the top of its
/// deck (RAID:B③, or instead of a draw, RAID:S4; `when` says which).
/// Returns whether it counts as one of the cards the Boss plays.
pub fn play(m: &mut M, b: PlayerId, item: &str, when: &str) -> Result<bool, EngineError> {
    let kind = ctype(&m.game, item).to_string();
    let hosts = equip::hosts(m, b, item);
    let key = format!("{item}.host");
    let host = match hosts.as_slice() {
        [] => return unhosted(m, item, &kind, when),
        [one] => one.clone(),
        _ => m
            .choices
            .one_id(&key, &hosts)?
            .ok_or_else(|| EngineError::MissingChoice {
                choice: key.clone(),
                options: texts(&hosts),
            })?,
    };
    let (how, rules) = if hosts.len() > 1 {
        (
            format!(
                "the party chooses its host among {} (`{key}`)",
                hosts.join(", ")
            ),
            vec![r::RAID_BOSS_MAIN, r::RAID_PARTY_CHOOSES, r::EQUIP],
        )
    } else {
        (
            format!("{host} is the only Boss chara it can equip"),
            vec![r::RAID_BOSS_MAIN, r::EQUIP],
        )
    };
    m.record(
        "boss_turn",
        format!("{when}: the Boss plays {kind} {item} from the top of its deck: {how}"),
        &rules,
    )
    .note(format!(
        "judges' reading: RAID:B③ names only charas and actives; a weapon or armour is equipped as in the normal rules (205.4), at once as a Boss chara enters, the party choosing among several hosts (RAID:S10); with no host it goes to the discard, counted among the Boss's plays (option `{}`: not counted)",
        reading::RAID_UNHOSTED_EQUIPMENT_NOT_COUNTED
    ));
    let generation = m.game.card(&host).map_or(0, |c| c.incarnation);
    equip::resolve(
        m,
        item,
        &Chosen {
            id: host,
            generation,
        },
    )?;
    Ok(true)
}

/// A Boss weapon or armour no Boss chara can equip: it cannot be played
/// (504.2) and goes to the discard; whether it counts among the Boss's
/// plays is the reading's.
fn unhosted(m: &mut M, item: &str, kind: &str, when: &str) -> Result<bool, EngineError> {
    let not_counted = reading_on(&m.game, reading::RAID_UNHOSTED_EQUIPMENT_NOT_COUNTED);
    let e = m.record(
        "boss_turn",
        format!(
            "{when}: the Boss turns up {kind} {item}, and no Boss chara can equip it: it cannot be played and goes to the discard{}",
            if not_counted {
                "; it is not one of the cards the Boss plays"
            } else {
                "; it counts as one of the cards the Boss plays"
            }
        ),
        &[r::PLAY, r::EQUIP_CLASS, r::RAID_BOSS_MAIN],
    );
    if not_counted {
        e.note(format!(
            "reading `{}`: a card that cannot be played is not one of the cards the Boss plays; it plays the next one instead",
            reading::RAID_UNHOSTED_EQUIPMENT_NOT_COUNTED
        ));
    } else {
        e.note(format!(
            "judges' reading: the Boss turned the card up to play it, as RAID:B③ counts the top cards of its deck (option `{}`: not counted, the Boss plays the next card instead)",
            reading::RAID_UNHOSTED_EQUIPMENT_NOT_COUNTED
        ));
    }
    moves::to_discard(m, item);
    Ok(!not_counted)
}

/// Whether the party decides whether the Boss uses its equipment
/// (`reading_raid_party_decides_boss_equipment_use`).
fn party_decides_use(m: &M) -> bool {
    reading_on(&m.game, reading::RAID_PARTY_DECIDES_BOSS_EQUIPMENT_USE)
}

/// One kind of equipment the Boss uses: its word, the choice key's
/// prefix (`<prefix>.<id>`), the trace step and the clauses.
struct Kind {
    word: &'static str,
    prefix: &'static str,
    step: &'static str,
    rules: &'static [&'static str],
}

/// A weapon declared in the engagement step (205.5.1, 506.5.2@2).
const WEAPON: Kind = Kind {
    word: "weapon",
    prefix: "weapon",
    step: "engagement_step",
    rules: &[r::WEAPON_DECLARATION, r::RAID_BOSS_BATTLE],
};

/// An armour turned OFF against damage to its host (205.5.2).
const ARMOUR: Kind = Kind {
    word: "armour",
    prefix: "armor",
    step: "damage",
    rules: &[r::ARMOR, r::RAID_PARTY_CHOOSES],
};

/// The ON weapon of the engaged Boss card `id` it declares (205.5.1): the
/// Boss uses it (judges' reading); of several, the party chooses which
/// (`weapon.<id>`, RAID:S10). Under the option, the party decides whether.
pub fn weapon(m: &mut M, id: &str, weapons: &[CardId]) -> Result<Option<CardId>, EngineError> {
    if party_decides_use(m) {
        party_says(m, id, weapons, &WEAPON)
    } else {
        boss_uses(m, id, weapons, &WEAPON)
    }
}

/// The ON armour on the Boss's `id` turned OFF against a damage (205.5.2):
/// the Boss uses one (judges' reading); of several, the party chooses
/// which (`armor.<id>`, RAID:S10). Under the option, the party decides
/// whether.
pub fn armor(m: &mut M, id: &str, options: &[CardId]) -> Result<Option<CardId>, EngineError> {
    if party_decides_use(m) {
        party_says(m, id, options, &ARMOUR)
    } else {
        boss_uses(m, id, options, &ARMOUR)
    }
}

/// The judges' reading: the Boss uses its equipment whenever it can; the
/// party chooses only which of several (RAID:S10).
fn boss_uses(
    m: &mut M,
    id: &str,
    options: &[CardId],
    kind: &Kind,
) -> Result<Option<CardId>, EngineError> {
    let key = format!("{}.{id}", kind.prefix);
    let used = match options {
        [] => return Ok(None),
        [one] => one.clone(),
        _ => m
            .choices
            .one_id(&key, options)?
            .ok_or_else(|| EngineError::MissingChoice {
                choice: key.clone(),
                options: texts(options),
            })?,
    };
    m.record(
        kind.step,
        format!(
            "{id} is a Boss card: it uses its {} {used} whenever it can",
            kind.word
        ),
        kind.rules,
    )
    .note(format!(
        "judges' reading: the Boss uses every card it can (RAID:B③, B④); the party chooses only among several (RAID:S10) (option `{}`: the party decides whether, `{key}`, by default not)",
        reading::RAID_PARTY_DECIDES_BOSS_EQUIPMENT_USE
    ));
    Ok(Some(used))
}

/// Under `reading_raid_party_decides_boss_equipment_use`: the equipment
/// the party has the Boss's `id` use (choice `<prefix>.<id>`, by default
/// none), traced either way.
fn party_says(
    m: &mut M,
    id: &str,
    options: &[CardId],
    kind: &Kind,
) -> Result<Option<CardId>, EngineError> {
    let key = format!("{}.{id}", kind.prefix);
    m.choices.default_not_one_of(&key, options);
    let used = m.choices.one_id(&key, options)?;
    let what = match &used {
        Some(a) => format!(
            "the party has the Boss's {id} use its {} {a} (`{key}`)",
            kind.word
        ),
        None => format!(
            "the party does not have the Boss's {id} use its {} ({})",
            kind.word,
            options.join(", ")
        ),
    };
    m.record(kind.step, what, &[kind.rules[0], r::RAID_PARTY_CHOOSES])
        .note(format!(
            "reading `{}`: the party decides whether the Boss uses its equipment",
            reading::RAID_PARTY_DECIDES_BOSS_EQUIPMENT_USE
        ));
    Ok(used)
}

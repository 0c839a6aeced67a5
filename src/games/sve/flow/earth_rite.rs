//! Earth Rite 土の秘術 (13.3.3): while a card or an ability is played, its
//! player may remove 1 stack counter from an amulet of theirs with Stack
//! as an optional additional cost (a pre-play choice, 10.6.2.2.1); an
//! amulet left with none goes to the cemetery; the Earth Rite text applies
//! only if the counter was removed. Written as the condition count
//! `earth_rite` (1 while the play being made paid it) on the ability.

use super::*;

/// The condition count of Earth Rite text: 1 while the play of the card
/// or ability being made paid Earth Rite's additional cost, else 0.
pub const EARTH_RITE: &str = "earth_rite";

/// The triggers whose play can pay Earth Rite: a spell's text and
/// activated abilities (Earth Rite on a triggered ability is paid when the
/// ability is played, which is not implemented).
const PAYABLE: &[&str] = &["spell", "activated", QUICK_ACTIVATED];

/// Whether ability `ability` of `def` is Earth Rite text.
fn is_earth_rite(g: &Game, def: &str, ability: usize) -> bool {
    g.ability(def, ability)
        .and_then(|a| a.condition.as_ref())
        .is_some_and(|c| c.count.as_deref() == Some(EARTH_RITE))
}

/// Whether playing ability `ability` of `def` (or, for a spell, any of its
/// spell text) offers Earth Rite.
fn offers(g: &Game, def: &str, abilities: &[usize]) -> bool {
    abilities.iter().any(|&i| is_earth_rite(g, def, i))
}

/// Earth Rite text on a trigger whose play cannot pay it here (checked
/// before the run): the clause and what is not implemented.
pub(super) fn unsupported(
    k: &str,
    ab: &crate::engine::card::AbilityDef,
) -> Option<(&'static str, String)> {
    let earth = ab
        .condition
        .as_ref()
        .is_some_and(|c| c.count.as_deref() == Some(EARTH_RITE));
    (earth && !PAYABLE.contains(&ab.trigger.as_str())).then(|| {
        (
            r::EARTH_RITE,
            format!(
                "Earth Rite on the `{}` ability of `{k}` (paid when a triggered ability is played)",
                ab.trigger
            ),
        )
    })
}

/// The amulets `p` may remove a stack counter from: theirs, on the field,
/// with Stack and at least one stack counter.
fn stack_amulets(g: &Game, p: PlayerId) -> Vec<CardId> {
    g.zone_of(p, zn::FIELD)
        .iter()
        .filter(|id| {
            is_type(g, id, "amulet")
                && has_kw(g, id, "stack")
                && g.cards[*id].counters.get("stack").copied().unwrap_or(0) > 0
        })
        .cloned()
        .collect()
}

/// 10.6.2.2.1: whether `p` pays Earth Rite for the play of `card`'s
/// abilities `abilities`: the choice `<card>.earth_rite` names the amulet,
/// or `false` (absent: not paid, said in the trace). Returns the amulet;
/// the text's condition reads the decision from now on.
pub(super) fn decide(
    m: &mut M,
    p: PlayerId,
    card: &str,
    def: &str,
    abilities: &[usize],
    alts: Vec<String>,
) -> R<Option<String>> {
    if !offers(&m.game, def, abilities) {
        return Ok(None);
    }
    let k = format!("{card}.earth_rite");
    let options = stack_amulets(&m.game, p);
    let amulet = match m.choices.or_default(&k, &options) {
        None | Some(Value::Bool(false)) => None,
        Some(Value::String(id)) if options.iter().any(|c| c == &id) => Some(id),
        Some(Value::String(id)) => {
            return Err(illegal(
                r::EARTH_RITE_MEANS,
                format!(
                    "{id} is not an amulet of {} with Stack and a stack counter",
                    player_name(p)
                ),
                alts,
            ));
        }
        Some(v) => {
            let mut options = options;
            options.push("false".into());
            return Err(EngineError::BadChoice {
                choice: k,
                value: v.to_string(),
                options: texts(&options),
            });
        }
    };
    let e = m.record(
        "play.earth_rite",
        match &amulet {
            Some(a) => format!(
                "{} will pay Earth Rite's additional cost with {a}",
                player_name(p)
            ),
            None => format!(
                "{} does not pay Earth Rite's additional cost",
                player_name(p)
            ),
        },
        &[
            r::PRE_PLAY_CHOICE,
            r::OPTIONAL_ADDITIONAL_COST,
            r::EARTH_RITE_MEANS,
        ],
    );
    e.obj(card);
    if amulet.is_some() {
        m.game.own::<SveState>().earth_rite = Some(p);
    }
    Ok(amulet)
}

/// 10.6.2.5: the additional cost: 1 stack counter removed from `amulet`;
/// left with none, it goes to the cemetery (13.3.3 item 2).
pub(super) fn pay(m: &mut M, amulet: &str) {
    let have = m.game.cards[amulet]
        .counters
        .get("stack")
        .copied()
        .unwrap_or(0);
    if let Some(c) = m.game.cards.get_mut(amulet) {
        c.counters.insert("stack".into(), have - 1);
    }
    m.record(
        "play.earth_rite",
        format!(
            "{amulet}: stack counters {have} → {} (Earth Rite)",
            have - 1
        ),
        &[r::EARTH_RITE_MEANS, r::PLAY_COST],
    )
    .obj(amulet)
    .change(format!("{amulet}.counters.stack"), have, have - 1);
    if have - 1 <= 0 {
        let text = format!("{amulet} has no stack counter left: it goes to the cemetery");
        to_cemetery(m, amulet, "play.earth_rite", text, &[r::EARTH_RITE_MEANS]);
    }
}

/// The play is over: Earth Rite text no longer reads its decision.
pub(super) fn end(m: &mut M) {
    m.game.own::<SveState>().earth_rite = None;
}

/// The count `earth_rite` for player `p` (13.3.3 item 2).
pub(super) fn paid(g: &Game, p: PlayerId) -> i64 {
    i64::from(
        g.own_ref::<SveState>()
            .is_some_and(|s| s.earth_rite == Some(p)),
    )
}

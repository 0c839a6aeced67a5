//! Places as targets and effects delayed to the end of the turn.
//!
//! 「対象のスクエア」「対象のライン」 (core `target_place`): a battle square
//! (2.23.8) or a line (2.24.5) chosen with the text's other targets when
//! the card is played or the ability stacked (4.7.2-5, 4.11.1). With
//! `holding`, the square must hold a card that filter admits (「相手のユニ
//! ットがいるスクエア」); a line has no such condition. On resolution the
//! place is checked again (4.9.2-1): a square no longer holding such a card
//! is an illegal target, so nothing is put onto it, while the text's other
//! targets still work (4.9.2-1#ex2); a place never changes zones. The
//! text's other instructions name the place: `put` `to: "target_place"`
//! (a unit onto the square; a base onto the base square of the effect's
//! controller in the line, 2.20.2-4) and filter `region: "target_place"`
//! (the cards on the square, or in the line, base squares included).
//!
//! 「ターン終了時、…」 (core `at_end_of_turn`): set up as the text resolves,
//! a triggered ability created by a spell or ability (4.4.4), which
//! triggers at the next end of turn (3.10.2), once (4.4.4). Its `chosen`
//! selectors name the cards the instruction before it acted on
//! (「そのユニット」), as they are after it; once every one of them has
//! changed zones other than square to square, it is gone (4.4.4-1).
//!
//! A place target rides in its instruction's slot of the entry's targets as
//! [`Chosen::Place`](super::Chosen), beside the slots of chosen cards.

use serde::{Deserialize, Serialize};

use crate::engine::{CardId, Effect, EngineError, Filter, Game, PlayerId, Target, player_name};

use super::Chosen;
use super::{Entry, Kind, M, Tgt, Trig, board, dz, label, ni, r, targets};

/// The kinds of place a text may target.
pub const KINDS: &[&str] = &[SQUARE, LINE];
/// A battle square.
pub const SQUARE: &str = "square";
/// A line: its three battle squares and both players' base squares.
pub const LINE: &str = "line";
/// The `put` destination and filter region naming the chosen place.
pub const TARGET_PLACE: &str = "target_place";
/// The lines, from P1's view (the letter of the squares' names).
pub const LINES: [&str; 3] = ["L", "C", "R"];
/// The line index (0..3 from P1's view) of a line's name.
fn line_index(name: &str) -> Option<usize> {
    LINES.iter().position(|l| *l == name)
}

/// The battle square or line named `s`.
fn named(s: &str) -> Option<&'static str> {
    board::square(s).or_else(|| LINES.iter().copied().find(|l| *l == s))
}

/// Serialises a chosen place (a battle square or a line) and reads one back
/// as the module's own name (`state.in_progress`, flow/resume.rs).
pub mod place_name {
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(s: &&'static str, ser: S) -> Result<S::Ok, S::Error> {
        ser.serialize_str(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(de: D) -> Result<&'static str, D::Error> {
        let s = String::deserialize(de)?;
        super::named(&s)
            .ok_or_else(|| serde::de::Error::custom(format!("unknown square or line `{s}`")))
    }
}

/// Whether the chosen place `place` holds square or base square `at`.
pub fn holds(place: &str, at: &str) -> bool {
    match line_index(place) {
        Some(i) => board::line_of(at) == Some(i),
        None => place == at,
    }
}

/// Refuses, before the run, a text using places the module does not
/// implement: a kind other than a square or a line, a `holding` on a line,
/// two places in one text, `target_place` named where the text targets no
/// place, or an `at_end_of_turn` whose effects the module does not carry
/// out later (only a `put` of `chosen` cards, the ones acted on before).
pub fn refuse(key: &str, effects: &[Effect]) -> Result<(), EngineError> {
    let places: Vec<(&String, &Option<Filter>)> = effects
        .iter()
        .filter_map(|e| match e {
            Effect::TargetPlace { place, holding } => Some((place, holding)),
            _ => None,
        })
        .collect();
    for (kind, holding) in &places {
        if !KINDS.contains(&kind.as_str()) {
            return Err(super::bad(format!(
                "card `{key}`: place `{kind}` is not one of {}",
                KINDS.join(", ")
            )));
        }
        if kind.as_str() == LINE && holding.is_some() {
            return Err(ni(
                r::LINES,
                format!("card `{key}`: a line as a target with a condition (`holding`)"),
            ));
        }
    }
    if places.len() > 1 {
        return Err(ni(
            r::TARGETING,
            format!("card `{key}`: two places as targets in one text"),
        ));
    }
    let names_place = effects.iter().any(|e| {
        matches!(e, Effect::Put { to, .. } if to == TARGET_PLACE)
            || e.filters()
                .iter()
                .any(|(_, f)| f.region.as_deref() == Some(TARGET_PLACE))
    });
    if names_place && places.is_empty() {
        return Err(super::bad(format!(
            "card `{key}`: `target_place` named, but the text targets no place (`target_place`)"
        )));
    }
    for (i, e) in effects.iter().enumerate() {
        let Effect::AtEndOfTurn { then } = e else {
            continue;
        };
        let prev = &effects[i.saturating_sub(1)];
        let ok = i > 0
            && targets::target_of(prev).is_some()
            && !targets::untargeted(prev)
            && !targets::each_player(prev)
            && then.iter().all(|t| {
                matches!(t, Effect::Put { target: Some(Target::Chosen { .. }), top: None, to, .. }
                    if super::put::ZONES.contains(&to.as_str()))
            });
        if !ok {
            return Err(ni(
                r::DELAYED,
                format!(
                    "card `{key}`: an `at_end_of_turn` other than putting into a zone the cards the instruction before it targeted"
                ),
            ));
        }
    }
    Ok(())
}

/// The places a target of kind `kind` may be, for an effect of
/// `controller` whose source is `source` (colours `cols`).
fn options(
    g: &Game,
    controller: PlayerId,
    source: &str,
    cols: &[&str],
    kind: &str,
    holding: Option<&Filter>,
) -> Vec<&'static str> {
    if kind == LINE {
        return LINES.to_vec();
    }
    board::SQUARES
        .iter()
        .copied()
        .filter(|sq| holding.is_none_or(|f| holds_match(g, controller, source, cols, f, sq)))
        .collect()
}

/// Whether square `sq` holds a card `f` admits (its zone part unused).
fn holds_match(
    g: &Game,
    controller: PlayerId,
    source: &str,
    cols: &[&str],
    f: &Filter,
    sq: &str,
) -> bool {
    let f = Filter {
        zone: None,
        zones: Vec::new(),
        ..f.clone()
    };
    board::units_on(g, sq)
        .iter()
        .any(|id| targets::matches(g, controller, source, cols, &f, id))
}

/// Chooses the place `e` targets with the choice `key` (the only one when
/// there is one). `None`: no place can be chosen, so the spell can't be
/// played or the trigger is removed (4.11.3).
pub fn choose(
    m: &mut M,
    controller: PlayerId,
    source: &str,
    cols: &[&str],
    e: &Effect,
    key: &str,
) -> Result<Option<&'static str>, EngineError> {
    let Effect::TargetPlace { place, holding } = e else {
        return Ok(None);
    };
    let legal = options(&m.game, controller, source, cols, place, holding.as_ref());
    if legal.is_empty() && m.choices.peek(key).is_none() {
        return Ok(None);
    }
    // A place that exists but does not meet the condition is an illegal
    // choice (4.7.2-5), not a bad one.
    if let Some(serde_json::Value::String(s)) = m.choices.peek(key)
        && (board::square(s).is_some() || line_index(s).is_some())
        && !legal.contains(&s.as_str())
    {
        let s = s.clone();
        m.choices.take(key);
        return Err(super::illegal(
            r::TARGETS,
            format!("{s} does not meet the target condition of {source}"),
            legal.iter().map(|l| l.to_string()).collect(),
        ));
    }
    let at = super::put::choose_square(m, key, &legal)?;
    if let Some(e) = m.trace.last_mut() {
        e.rules.push(r::TARGETING);
        e.rules
            .push(if place == LINE { r::LINES } else { r::SQUARES });
        e.text.push_str(&format!(" (the {place} {at} is a target)"));
    }
    Ok(Some(at))
}

/// Whether the place chosen for `e` (`place`) is still a legal target
/// (4.9.2-1): a square must still hold a card its condition admits.
pub fn still_legal(
    g: &Game,
    controller: PlayerId,
    source: &str,
    cols: &[&str],
    e: &Effect,
    place: &str,
) -> bool {
    let Effect::TargetPlace { holding, .. } = e else {
        return false;
    };
    holding
        .as_ref()
        .is_none_or(|f| holds_match(g, controller, source, cols, f, place))
}

/// Before a text's instructions are carried out: the place it targets, if
/// still legal, is the one its instructions name; an illegal one is named
/// by none, and the trace says so (4.9.2-1).
pub fn begin(
    m: &mut M,
    controller: PlayerId,
    source: &str,
    effects: &[Effect],
    chosen: &[Option<Chosen>],
) {
    let Some((i, e)) = effects
        .iter()
        .enumerate()
        .find(|(_, e)| matches!(e, Effect::TargetPlace { .. }))
    else {
        return;
    };
    let Some(name) = chosen
        .get(i)
        .and_then(Option::as_ref)
        .and_then(Chosen::place)
    else {
        return;
    };
    let cols = super::effects::source_colours(m, source);
    if still_legal(&m.game, controller, source, &cols, e, name) {
        dz(&mut m.game).target_place = Some(name);
        return;
    }
    m.record(
        "target",
        format!(
            "the target square {name} no longer meets {source}'s condition: it is an illegal target, and nothing the text does to it happens; the other targets are still affected"
        ),
        &[r::TARGETS_CHECKED],
    );
}

/// After the instructions: no place is named any more.
pub fn end(m: &mut M) {
    dz(&mut m.game).target_place = None;
}

/// The place the resolving text targets, still legal.
pub fn current(g: &Game) -> Option<&'static str> {
    super::dz_ref(g).target_place
}

/// An ability created to trigger at the end of the turn (4.4.4).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EndOfTurn {
    pub controller: PlayerId,
    pub source: CardId,
    /// What it does, for the cards `cards`.
    pub then: Then,
    pub cards: Vec<Tgt>,
}

/// The effects of a created ability.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Then(pub Vec<Effect>);

// The effect language holds no floating-point number: equality is total.
impl Eq for Then {}

/// 「ターン終了時、…」 reached as the text resolves: the ability is created
/// for the cards the instruction before it acted on (`cards`).
pub fn create(m: &mut M, controller: PlayerId, source: &str, then: &[Effect], cards: Vec<Tgt>) {
    let names: Vec<String> = cards.iter().map(|t| label(&m.game, &t.card)).collect();
    m.record(
        "delayed",
        format!(
            "{source} creates an ability that triggers at the end of this turn, for {}",
            if names.is_empty() {
                "no card".to_string()
            } else {
                names.join(", ")
            }
        ),
        &[r::IN_ORDER, r::DELAYED],
    );
    dz(&mut m.game).end_of_turn.push(EndOfTurn {
        controller,
        source: source.into(),
        then: Then(then.to_vec()),
        cards,
    });
}

/// The end of the turn (3.10.2): each created ability triggers, once
/// (4.4.4), unless every card it affects has left (4.4.4-1). Returns how
/// many triggered.
pub fn fire(m: &mut M) -> usize {
    let created = std::mem::take(&mut dz(&mut m.game).end_of_turn);
    let mut n = 0;
    for d in created {
        let here = |t: &Tgt| m.game.card(&t.card).is_some_and(|c| c.incarnation == t.inc);
        if !d.cards.iter().any(here) {
            m.record(
                "delayed",
                format!(
                    "the end-of-turn ability {} created is gone: every card it affects has changed zones since",
                    d.source
                ),
                &[r::DELAYED, r::DELAYED_GONE],
            );
            continue;
        }
        m.record(
            "delayed",
            format!(
                "end of turn: the ability {} created triggers for {}",
                d.source,
                player_name(d.controller)
            ),
            &[r::DELAYED, r::RECOVERY_END_OF_TURN],
        );
        dz(&mut m.game).trigs.push(Trig {
            controller: d.controller,
            kind: Kind::EndOfTurn(d),
        });
        n += 1;
    }
    n
}

/// Resolves a created end-of-turn ability: its instructions on the cards
/// it affects that are still the same objects, wherever they are
/// (「そのユニット」 names the object, not a zone; 4.4.4-1).
pub fn resolve(m: &mut M, d: EndOfTurn) -> Result<(), EngineError> {
    m.record(
        "resolve",
        format!(
            "both players passed: the end-of-turn ability {} created resolves",
            d.source
        ),
        &[r::RESOLVE, r::RESOLUTION, r::STACK_LIFO, r::DELAYED],
    );
    let cx = super::effects::Ctx {
        controller: d.controller,
        source: &d.source,
        source_colours: Vec::new(),
    };
    let same: Vec<CardId> = d
        .cards
        .iter()
        .filter(|t| m.game.card(&t.card).is_some_and(|c| c.incarnation == t.inc))
        .map(|t| t.card.clone())
        .collect();
    for e in &d.then.0 {
        // Only puts into a zone are created (`refuse`).
        if let Effect::Put { to, who, .. } = e {
            super::put::apply(m, &cx, to, same.clone(), None, *who)?;
        }
    }
    Ok(())
}

/// Puts a created ability waiting to trigger on the stack (4.8.3).
pub fn stack(m: &mut M, controller: PlayerId, d: EndOfTurn) {
    m.record(
        "stack",
        format!(
            "{}'s end-of-turn ability created by {} goes on the stack",
            player_name(controller),
            d.source
        ),
        &[r::DELAYED, r::APNAP],
    );
    dz(&mut m.game).stack.push(Entry {
        controller,
        kind: Kind::EndOfTurn(d),
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn place(kind: &str) -> Effect {
        Effect::TargetPlace {
            place: kind.into(),
            holding: None,
        }
    }

    fn put_to(to: &str) -> Effect {
        serde_json::from_value(serde_json::json!({
            "do": "put", "to": to, "target": {"select": "chosen", "types": ["unit"]}
        }))
        .unwrap()
    }

    /// A line holds its three battle squares and both players' base
    /// squares; a square holds only itself.
    #[test]
    fn a_line_holds_its_squares_and_base_squares() {
        assert!(holds("L", "L1") && holds("L", "L3") && holds("L", "base_L"));
        assert!(!holds("L", "C1") && !holds("L", "base_C"));
        assert!(holds("C2", "C2") && !holds("C2", "C1"));
    }

    /// What the module does not carry out is refused before the run.
    #[test]
    fn unbuilt_forms_are_refused() {
        assert!(refuse("k", &[place("square"), put_to(TARGET_PLACE)]).is_ok());
        assert!(refuse("k", &[place("circle")]).is_err());
        assert!(refuse("k", &[place("square"), place("line")]).is_err());
        assert!(refuse("k", &[put_to(TARGET_PLACE)]).is_err());
        let later = Effect::AtEndOfTurn {
            then: vec![put_to("graveyard")],
        };
        assert!(refuse("k", &[put_to("energy"), later.clone()]).is_ok());
        assert!(refuse("k", std::slice::from_ref(&later)).is_err());
        let draw = Effect::AtEndOfTurn {
            then: vec![Effect::Draw {
                amount: 1,
                who: crate::engine::Who::You,
            }],
        };
        assert!(refuse("k", &[put_to("energy"), draw]).is_err());
    }
}

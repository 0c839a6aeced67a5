//! Face-down cards on the field 裏向きのカード (5.7) and the effects that
//! turn a card face down or face up (`turn_face` in the effect language).
//!
//! A face-down card on the field is a card in the `face_down` state. It has
//! no information unless an effect says otherwise (5.7.1): the module's
//! `def` reads no definition for it, so it has no name, type, races,
//! combat power, keywords or abilities, and its face-up text is void
//! (5.7.4); it is no character (6.1.9.d). Turning a card over (5.7.2):
//! a character's status ends (5.7.2.a), the orientation changes while sleep
//! or active stays (5.7.2.b), and the card is treated as entering the field
//! anew (5.7.2.c): a new object, without its damage, counters, combat-power
//! changes or transformed description, still set on what it was set on. A
//! card turned face up that way is a character again if its description
//! makes it one, and its 「場に出た時」 (`on_enter`) abilities fire.
//!
//! An effect that treats a card as a character (`become`, 6.1.6–6.1.8.c)
//! gives it the description the effect names, shown through the core's
//! face mechanism with the state `made_character`: a face-up card keeps
//! only its required nodes and cost (6.1.6), a face-down card not even
//! those (0 unless given, 6.1.7). The status begins once the effect is
//! applied to the card on the field (6.1.8.c); a card that already was a
//! character loses that information first (6.1.9.b); turning the card over
//! or its leaving the field ends it (6.1.9.c, 6.1.9.d).
//!
//! Leaving the field, a face-down card takes its destination's orientation
//! (3.1.5.d), face up in the public zones: the core's zone change clears
//! the state.

use super::*;

/// Reading flag: a character made a character again (6.1.9.b) keeps its
/// damage, counters and combat-power changes (the rules list only the
/// character information it loses; the default reading ends them too).
pub const MADE_CHARACTER_KEEPS_DAMAGE: &str = "reading_made_character_keeps_damage";

/// Whether `card` is face down on the field (5.7).
pub(super) fn face_down(g: &Game, card: &str) -> bool {
    g.card(card)
        .is_some_and(|c| c.zone.kind == zn::FIELD && c.states.contains(st::FACE_DOWN))
}

/// Whether `card` has no information at all: face down on the field and
/// not given a description by an effect (5.7.1). The snapshot shows no
/// characteristics for it.
pub(crate) fn without_information(g: &Game, card: &str) -> bool {
    face_down(g, card) && !made_character(g, card)
}

/// Whether an effect treats `card` as a character (6.1.6, 6.1.7).
pub(super) fn made_character(g: &Game, card: &str) -> bool {
    g.card(card)
        .is_some_and(|c| c.states.contains(st::MADE_CHARACTER))
}

/// Applies `become` of `this` to `objs`: each is treated as a character
/// with only the information of definition `key` (6.1.6, 6.1.7, 6.1.8.c,
/// 6.1.9.b).
pub(super) fn become_character(m: &mut M, key: &str, this: &str, objs: &[String]) -> R<()> {
    let Some(given) = m.game.defs.get(key).cloned() else {
        return Err(bad(format!("unknown card `{key}`")));
    };
    if given.card_type != "character" {
        return Err(EngineError::NotImplemented {
            clause: r::MADE_CHARACTER_AFTER_MOVE,
            what: format!(
                "an effect treating a card as a `{}` rather than a character",
                given.card_type
            ),
        });
    }
    for o in objs {
        let Some(c) = m.game.card(o) else { continue };
        if c.zone.kind != zn::FIELD || c.attached_to.is_some() {
            return Err(EngineError::NotImplemented {
                clause: r::MADE_CHARACTER_AFTER_MOVE,
                what: format!(
                    "treating {o} as a character while it is moved or set, or while it is set on a card"
                ),
            });
        }
        let down = c.states.contains(st::FACE_DOWN);
        let base = c.def.clone();
        refuse_if_info_changed(&m.game, o)?;
        let own = m.game.def_of_base(o).cloned();
        let was_character = is_character(&m.game, o);
        let mut d = (*given).clone();
        d.alternate = None;
        let mut rules = vec![r::MADE_CHARACTER_AFTER_MOVE];
        let mut text = format!("{this}'s effect treats {o} as a character");
        if down {
            // 6.1.7: only what the effect gives; nodes and cost 0 unless given.
            d.cost = Some(d.cost.unwrap_or(0));
            d.stats.entry("node".into()).or_insert(0);
            rules.push(r::MADE_CHARACTER_FACE_DOWN);
            text.push_str(&format!(
                "; it is face down, so it has only the information the effect gives (required nodes {}, cost {})",
                d.stats.get("node").copied().unwrap_or(0),
                d.cost.unwrap_or(0)
            ));
        } else {
            // 6.1.6: its own required nodes and cost stay, its text is lost.
            let own_node = own.as_ref().and_then(|x| x.stats.get("node").copied());
            d.cost = own.as_ref().and_then(|x| x.cost);
            match own_node {
                Some(n) => d.stats.insert("node".into(), n),
                None => d.stats.remove("node"),
            };
            rules.push(r::MADE_CHARACTER_FACE_UP);
            text.push_str(&format!(
                "; it is face up, so it keeps only its required nodes ({}) and cost ({}) and its own text is lost",
                own_node.unwrap_or(0),
                d.cost.unwrap_or(0)
            ));
        }
        let mut note = None;
        let keep = reading(&m.game, MADE_CHARACTER_KEEPS_DAMAGE);
        if was_character {
            // 6.1.9.b: the character it was ends first; the judges' reading
            // is that what belonged to that character (damage, changes,
            // combat role) ends with it.
            rules.push(r::MADE_CHARACTER_AGAIN);
            text.push_str(
                "; it already was a character and loses that character's information first",
            );
            note = Some(if keep {
                "reading `reading_made_character_keeps_damage`: its damage, counters and combat-power changes stay on the card"
            } else {
                "judge's reading: losing its character information (6.1.9.b) also ends the damage, counters and combat-power changes on that character; the rules do not list them (flag `reading_made_character_keeps_damage` keeps them)"
            });
        }
        let def_key = format!("{base}^become:{key}");
        m.game.defs.insert(def_key.clone(), d);
        if let Some(c) = m.game.cards.get_mut(o.as_str()) {
            if was_character && !keep {
                c.counters.clear();
                c.modifiers.clear();
                c.states.remove(st::ATTACKING);
                c.states.remove(st::BLOCKING);
            }
            c.states.insert(st::MADE_CHARACTER.into());
            c.face = Some(crate::engine::ShownFace {
                source: o.clone().into(),
                def: def_key.into(),
            });
        }
        let e = m.record("face.become", text, &rules);
        e.obj(o.clone());
        e.change(format!("{o}.character"), was_character, true);
        if let Some(n) = note {
            e.note(n);
        }
    }
    process_removals(m)
}

/// A face-down card about to leave the field takes the orientation of the
/// zone it moves to at the time it moves (3.1.5.d); the core's zone change
/// clears the state, this records it.
pub(super) fn face_leaving_field(m: &mut M, card: &str) {
    if face_down(&m.game, card) {
        m.record(
            "face.leaves",
            format!("{card} leaves the field face down: its orientation changes to its destination's as it moves"),
            &[r::ZONE_ORIENTATION_ON_MOVE],
        )
        .obj(card.to_string());
    }
}

/// Records that face-down `card`'s printed `trigger` ability does not
/// apply: its face-up text is void (5.7.4).
pub(super) fn void_text_noted(m: &mut M, card: &str, trigger: &str) {
    let prints = m
        .game
        .def_of_base(card)
        .is_some_and(|d| d.abilities.iter().any(|a| a.trigger == trigger));
    if prints {
        m.record(
            "face.text_void",
            format!("{card} is face down: the {trigger} ability on its face-up side is void"),
            &[r::FACE_DOWN_TEXT_VOID],
        )
        .obj(card.to_string());
    }
}

/// Applies `turn_face` of `this` to `objs` (5.7.2–5.7.3): `up` is the
/// orientation the effect turns the cards to; `only_from_other` says the
/// text names the orientation before the change (5.7.3.a).
pub(super) fn turn_face(
    m: &mut M,
    up: bool,
    only_from_other: bool,
    this: &str,
    objs: &[String],
) -> R<()> {
    let to = if up { "face up" } else { "face down" };
    let from = if up { "face down" } else { "face up" };
    for o in objs {
        let Some(c) = m.game.card(o) else { continue };
        if c.zone.kind != zn::FIELD {
            // Orientation outside the field follows the zone (3.1.5.a–b);
            // an effect turning a card there is not modelled.
            return Err(EngineError::NotImplemented {
                clause: r::FACE_TURN,
                what: format!("turning {o} {to} outside the field"),
            });
        }
        let is_down = c.states.contains(st::FACE_DOWN);
        if is_down != up {
            // Already in the orientation asked for.
            if only_from_other {
                m.record(
                    "face.not_applied",
                    format!(
                        "{o} is not {from}: the effect turns only a {from} card {to}, so it does not apply to {o}"
                    ),
                    &[r::FACE_ABSOLUTE_FROM],
                )
                .obj(o.clone());
            } else {
                m.record(
                    "face.already",
                    format!(
                        "{o} is already {to}: turning it {to} is an absolute orientation, so the effect is treated as applied and nothing changes"
                    ),
                    &[r::FACE_ABSOLUTE],
                )
                .obj(o.clone());
            }
            continue;
        }
        if up {
            // A card turned face up enters anew (5.7.2.c); a non-character
            // card lying bare on the field has no rule of its own here.
            let kind = m.game.def_of_base(o).map(|d| {
                (
                    d.card_type == "character",
                    d.has_keyword("phantasm"),
                    d.abilities.iter().any(|a| a.trigger == "on_enter"),
                )
            });
            if let Some((false, false, _)) = kind
                && c.attached_to.is_none()
            {
                return Err(EngineError::NotImplemented {
                    clause: r::FACE_TURN_ENTERS_ANEW,
                    what: format!(
                        "turning {o}, neither a character card nor a 幻想生物, face up on the field"
                    ),
                });
            }
        }
        let was_character = is_character(&m.game, o);
        let asleep = c.states.contains(st::SLEEP);
        let set = c.attached_to.clone();
        // 5.7.2.a: the character disappears; 5.7.2.b: only the orientation
        // changes; 5.7.2.c: treated as entering anew, a new object.
        if let Some(c) = m.game.cards.get_mut(o.as_str()) {
            c.states.retain(|s| s == st::SLEEP || s == st::POPULARITY);
            if !up {
                c.states.insert(st::FACE_DOWN.into());
            }
            c.counters.clear();
            c.modifiers.clear();
            c.face = None;
            c.incarnation += 1;
        }
        let mut rules = vec![r::FACE_TURN];
        let mut text = format!("{this}'s effect turns {o} {to}");
        if was_character {
            rules.push(r::FACE_TURN_CHARACTER_VANISHES);
            rules.push(r::LOSE_CHARACTER_FACE);
            text.push_str("; it was a character, and that character disappears");
        }
        rules.push(r::FACE_TURN_KEEPS_SLEEP);
        text.push_str(&format!(
            "; it stays {}",
            if asleep { "asleep" } else { "active" }
        ));
        rules.push(r::FACE_TURN_ENTERS_ANEW);
        text.push_str(
            "; it is treated as entering the field anew (a new object: no damage, counters or changes carried over)",
        );
        if let Some(s) = &set {
            text.push_str(&format!(", still set on {s}"));
        }
        if !up {
            rules.push(r::FACE_DOWN_NO_INFO);
            rules.push(r::FACE_DOWN_TEXT_VOID);
            text.push_str("; face down it has no information and its text is void");
            if o == this {
                rules.push(r::FACE_DOWN_OWN_REFERENCE);
                text.push_str(
                    " (turned by its own effect, its face-up side may be looked at to check its text)",
                );
            }
        } else if is_character(&m.game, o) {
            text.push_str("; face up it is a character");
        }
        let e = m.record("face.turn", text, &rules);
        e.obj(o.clone());
        e.change(format!("{o}.face_down"), up, !up);
        if up {
            fire(m, "on_enter", &[o.into()], r::FACE_TURN_ENTERS_ANEW)?;
        }
    }
    process_removals(m)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::load_str;

    fn run(game: &str, cards: &str, p1: &str, actions: &str) -> Outcome {
        let turn = r#"{ "player": "p1", "phase": "main", "number": 3 }"#;
        let text = format!(
            r#"{{ "game": "{game}", "name": "t", "source": "test", "cards": {{ {cards} }},
              "state": {{ "turn": {turn},
                "players": {{ "p1": {{ "zones": {{ {p1} }} }}, "p2": {{ "zones": {{ "deck": {{ "count": 5 }} }} }} }} }},
              "actions": [ {actions} ] }}"#
        );
        let loaded = load_str("t.json", &text, None).expect("test scenario loads");
        loaded.module.run(loaded.game.clone(), &loaded.actions)
    }

    const TURN_HAND_CARD: &str = r#""c": { "name": "C", "type": "command", "cost": 0, "stats": { "node": 0 },
        "abilities": [ { "trigger": "effect", "effect": [ { "do": "turn_face", "up": false,
          "target": { "select": "chosen", "side": "you", "zone": "hand" } } ] } ] },
        "o": { "name": "O", "type": "character", "cost": 0, "attack": 1, "defense": 1 }"#;

    #[test]
    fn turning_a_card_outside_the_field_is_not_implemented() {
        let o = run(
            "pmv",
            TURN_HAND_CARD,
            r#""deck": { "count": 5 }, "hand": [ { "id": "x", "card": "c" }, { "id": "h", "card": "o" } ]"#,
            r#"{ "do": "play", "player": "p1", "card": "x", "choices": { "targets": ["h"] } },
               { "do": "pass", "player": "p2" }, { "do": "pass", "player": "p1" }"#,
        );
        assert!(matches!(
            o.error.map(|e| e.error),
            Some(EngineError::NotImplemented { clause, .. }) if clause == r::FACE_TURN
        ));
    }

    #[test]
    fn a_face_down_card_shows_no_characteristics_in_the_snapshot() {
        let o = run(
            "pmv",
            r#""o": { "name": "O", "type": "character", "cost": 2, "attack": 3, "defense": 3 }"#,
            r#""deck": { "count": 5 }, "field": [ { "id": "f", "card": "o", "state": ["face_down"] }, { "id": "u", "card": "o" } ]"#,
            "",
        );
        assert!(o.state["cards"]["f"].get("attack").is_none());
        assert_eq!(o.state["cards"]["u"]["attack"], 3);
    }
}

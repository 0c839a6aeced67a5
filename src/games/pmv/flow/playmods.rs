//! Modifying a play: continuous effects that change the node requirement
//! 必要ノード or the cost コスト of a card being played (5.2.2.h, 5.2.6),
//! the cost never going below 0 while the calculation keeps its value
//! (1.8.7.j).

use super::*;
use crate::engine::CardDef;

/// The modifications that apply to one play, read once while the card is
/// played (5.2.2.h) and kept for that play (5.2.6).
#[derive(Debug, Default)]
pub(super) struct PlayMods {
    /// The sum of the node-requirement modifiers.
    pub node: i64,
    /// The sum of the cost modifiers.
    pub cost: i64,
    /// The cards whose text modifies this play, in application order.
    pub sources: Vec<CardId>,
    /// Cards whose modification binds the player but names other card
    /// types (for the trace: why this play is not modified).
    pub other_types: Vec<CardId>,
}

impl PlayMods {
    pub(super) fn any(&self) -> bool {
        !self.sources.is_empty()
    }
}

/// The `modify_cost` effects of the continuous 自動α / 自動β that apply
/// now (7.4.5, 7.4.6: their conditions hold) to `player` playing a card of
/// `card_type`. Each names the players it binds relative to its master.
pub(super) fn play_mods(g: &Game, player: PlayerId, card_type: &str) -> PlayMods {
    let mut out = PlayMods::default();
    for (id, ab) in continuous(g) {
        let master = g.card(&id).map(|c| c.controller).unwrap_or(PlayerId::P1);
        for e in &ab.effect {
            if let Effect::ModifyCost {
                cost,
                node,
                who,
                types,
            } = e
                && who_players(g, master, *who).contains(&player)
            {
                if !(types.is_empty() || types.iter().any(|t| t == card_type)) {
                    if !out.other_types.contains(&id) {
                        out.other_types.push(id.clone());
                    }
                    continue;
                }
                out.cost += cost;
                out.node += node;
                if !out.sources.contains(&id) {
                    out.sources.push(id.clone());
                }
            }
        }
    }
    out
}

/// The cost actually asked for: the calculated `raw` cost, or 0 when it is
/// below 0 (1.8.7.j).
pub(super) fn floored(raw: i64) -> i64 {
    raw.max(0)
}

/// Records the modification of a play: the printed and the modified node
/// requirement and cost, and the floor of 1.8.7.j when it applied.
pub(super) fn note_play_mods(
    m: &mut M,
    card: &str,
    mods: &PlayMods,
    (need0, need): (i64, i64),
    (cost0, raw): (i64, i64),
) {
    if !mods.any() {
        if !mods.other_types.is_empty() {
            m.record(
                "play.modify.none",
                format!(
                    "{} modif{} only cards of other types: {card} is played with its printed node requirement {need0} and cost {cost0}",
                    mods.other_types.join(", "),
                    if mods.other_types.len() == 1 { "ies" } else { "y" },
                ),
                &[r::PLAY_MODIFIED],
            )
            .obj(card.to_string());
        }
        return;
    }
    let cost = floored(raw);
    let e = m.record(
        "play.modify",
        format!(
            "{} modif{} playing {card}: node requirement {need0} → {need}, cost {cost0} → {raw}{}; these values hold for this play until it resolves or is nullified",
            mods.sources.join(", "),
            if mods.sources.len() == 1 { "ies" } else { "y" },
            if raw < 0 {
                format!(" (below 0: {cost} is paid; the calculation keeps {raw})")
            } else {
                String::new()
            }
        ),
        &[r::PLAY_MODIFIED, r::PLAY_MOD_LASTS],
    );
    e.obj(card.to_string());
    if raw < 0 {
        e.rule(r::COST_FLOOR_ZERO);
    }
}

// ------------------------------------------------------------------ modes

/// The game variable holding the effect chosen for a card being played
/// (5.2.3.c), read when it resolves.
fn mode_var(card: &str) -> String {
    format!("play.mode.{card}")
}

/// 5.2.3.c: a card with several effects (several `effect` abilities, the
/// printed order being 1, 2, …) has its player choose which one resolves,
/// with the choice `mode` (a number from 1). Returns the chosen ability;
/// a card with one effect needs no choice.
pub(super) fn choose_mode<'a>(m: &mut M, d: &'a CardDef, card: &str) -> R<Option<&'a AbilityDef>> {
    let effects: Vec<&AbilityDef> = d
        .abilities
        .iter()
        .filter(|a| a.trigger == "effect")
        .collect();
    let options: Vec<String> = (1..=effects.len()).map(|i| i.to_string()).collect();
    let given = m.choices.take("mode");
    if effects.len() <= 1 {
        if let Some(v) = given {
            return Err(EngineError::BadChoice {
                choice: "mode".into(),
                value: v.to_string(),
                options: vec![format!("none: {card} has a single effect")],
            });
        }
        return Ok(effects.first().copied());
    }
    let Some(v) = given else {
        return Err(EngineError::MissingChoice {
            choice: "mode".into(),
            options,
        });
    };
    let Some(i) = v
        .as_u64()
        .and_then(|n| usize::try_from(n).ok())
        .filter(|n| (1..=effects.len()).contains(n))
    else {
        return Err(EngineError::BadChoice {
            choice: "mode".into(),
            value: v.to_string(),
            options,
        });
    };
    m.game.vars.insert(mode_var(card), i as i64);
    m.record(
        "play.mode",
        format!(
            "{card} has {} effects: its player chooses effect {i} to resolve",
            effects.len()
        ),
        &[r::PLAY_CHOOSE_MODE],
    )
    .obj(card.to_string());
    Ok(Some(effects[i - 1]))
}

/// The effect of `card` that resolves: the one chosen at play (5.2.3.c),
/// or its only one. Forgets the choice.
pub(super) fn resolving_effect<'a>(
    g: &mut Game,
    d: &'a CardDef,
    card: &str,
) -> Option<&'a AbilityDef> {
    let chosen = g.vars.remove(&mode_var(card));
    let mut effects = d.abilities.iter().filter(|a| a.trigger == "effect");
    match chosen {
        Some(i) if i >= 1 => effects.nth(i as usize - 1),
        _ => effects.next(),
    }
}

// --------------------------------------------------------- alternate race

/// A command's 代替レース alternate race (2.7.2: the icon's kind is the race,
/// their number the count): the text field `alternate_race` and the stat
/// `alternate_race_count` (default 1). None when not printed (2.7.3).
pub(super) fn alternate_race(d: &CardDef) -> Option<(String, i64)> {
    let race = d.text.get("alternate_race").filter(|r| !r.is_empty())?;
    let n = d.stats.get("alternate_race_count").copied().unwrap_or(1);
    Some((race.clone(), n))
}

/// 5.6.6: the choice `alternate_race_free: true` plays a command without
/// the node check, the cost check and the payment, all three together,
/// when its player has at least the printed number of characters of the
/// alternate race on their field. Returns the note of the trace entry, or
/// None when the choice is absent or false. Asking for it without the
/// characters, or on a card without an alternate race, is illegal.
pub(super) fn alternate_race_free(
    g: &Game,
    player: PlayerId,
    card: &str,
    d: &CardDef,
    choice: Option<Value>,
    alts: &[String],
) -> R<Option<String>> {
    match choice {
        None | Some(Value::Bool(false)) => return Ok(None),
        Some(Value::Bool(true)) => {}
        Some(v) => {
            return Err(EngineError::BadChoice {
                choice: "alternate_race_free".into(),
                value: v.to_string(),
                options: vec!["true".into(), "false".into()],
            });
        }
    }
    let Some((race, n)) = alternate_race(d).filter(|_| d.card_type == "command") else {
        return Err(illegal(
            r::ALT_RACE_NONE,
            format!(
                "{card} is not a command with an alternate race (代替レース): it has none to use"
            ),
            alts.to_vec(),
        ));
    };
    let with_race: Vec<CardId> = characters(g, player)
        .into_iter()
        .filter(|c| def(g, c).is_some_and(|cd| cd.traits.contains(&race)))
        .collect();
    if (with_race.len() as i64) < n {
        return Err(illegal(
            r::ALT_RACE_FREE,
            format!(
                "{card}'s alternate race asks for {n} {race} character(s) on {}'s field; there {} {}{}",
                player_name(player),
                if with_race.len() == 1 { "is" } else { "are" },
                with_race.len(),
                if with_race.is_empty() {
                    String::new()
                } else {
                    format!(" ({})", with_race.join(", "))
                }
            ),
            alts.to_vec(),
        ));
    }
    Ok(Some(format!(
        "{card}'s alternate race is {n} × {race}; {} has {} on the field: the node check, the cost check and the payment are all skipped together",
        player_name(player),
        with_race.join(", ")
    )))
}

// ----------------------------------------------------------- declarations

fn declare_var(card: &str, var: &str) -> String {
    format!("play.declare.{card}.{var}")
}

/// 5.2.3.e: the declarations the chosen effect asks for are made after
/// its targets (5.2.3.d) and before the cost (5.2.3.f), each with the
/// choice `declare.<var>`: an integer from `min` to `max`.
pub(super) fn declare_at_play(m: &mut M, ab: &AbilityDef, card: &str) -> R<()> {
    for e in &ab.effect {
        let Effect::Declare { var, min, max } = e else {
            continue;
        };
        let key = format!("declare.{var}");
        let range = vec![match max {
            Some(h) => format!("an integer from {min} to {h}"),
            None => format!("an integer of {min} or more"),
        }];
        let Some(v) = m.choices.take(&key) else {
            return Err(EngineError::MissingChoice {
                choice: key,
                options: range,
            });
        };
        let Some(n) = v.as_i64() else {
            return Err(EngineError::BadChoice {
                choice: key,
                value: v.to_string(),
                options: range,
            });
        };
        if n < *min || max.is_some_and(|h| n > h) {
            return Err(illegal(
                r::PLAY_DECLARATION,
                format!(
                    "{card} asks for a declaration of {var}: {n} is not {}",
                    range[0]
                ),
                range,
            ));
        }
        m.game.vars.insert(declare_var(card, var), n);
        m.record(
            "play.declaration",
            format!("{card}'s player declares {var} = {n}"),
            &[r::PLAY_DECLARATION],
        )
        .obj(card.to_string());
    }
    Ok(())
}

/// A `declare` effect while resolving: the variable takes the value
/// declared at play (5.2.3.e). A declaration not made at play (an
/// automatic effect's text) is not modelled.
pub(super) fn declared(m: &mut M, var: &str, this: &str) -> R<()> {
    let Some(n) = m.game.vars.remove(&declare_var(this, var)) else {
        return Err(EngineError::NotImplemented {
            clause: r::PLAY_DECLARATION,
            what: format!("a declaration of {var} by {this} other than while the card is played"),
        });
    };
    define(m, this, &Some(var.to_string()), n);
    if let Some(e) = m.trace.last_mut() {
        e.rule(r::PLAY_DECLARATION);
        e.text.push_str(" (the value declared at play)");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::floored;

    #[test]
    fn a_cost_below_zero_is_paid_as_zero() {
        assert_eq!(floored(-2), 0);
        assert_eq!(floored(0), 0);
        assert_eq!(floored(3), 3);
    }
}

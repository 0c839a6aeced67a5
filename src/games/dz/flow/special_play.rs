//! Special ways to play a unit (ユニットの特殊なプレイ): 召集 (5.3) and
//! 隊列召喚 (5.8). Each lets a unit be played to a square "as if it were
//! your own area"; 召集's unit is put on its square released (5.3.2),
//! 隊列召喚's is paid with the formation cost (5.8.2). A unit is played in
//! one special way at most (5.3.2-2, 5.8.3).
//!
//! Card text: 召集 is keyword `muster` on the card that allows it, with the
//! square condition in text `muster` (a region measured from that card's
//! square, areas seen from its controller: [`muster_region`]); 隊列召喚 is
//! keyword `formation_summon` on the unit played, the definition in text
//! `formation` ([`FORMATIONS`]) and the cost in stats with the prefix
//! `formation_` (`formation_red` …, `formation` colourless). Choices of
//! `play`: `muster` (the id of your card with 召集) or `formation` (`true`).
//!
//! Judge's reading: a unit played "as if it were your own area" is not a
//! unit played into the central area, so 2.20.1-6 / 4.16.4-8 do not destroy
//! it (without that, no formation's ★ square, all central, could keep a
//! unit); flag `reading_special_play_central_destroyed` applies them.
//!
//! Judge's reading (research A10): スモールアイ's 後方 ("behind", 5.8.2-5)
//! is the adjacent square of the line toward your own side (a unit faces
//! the enemy; the rulebook draws no grid for it); flag
//! `reading_small_eye_behind_toward_enemy` reads it as the adjacent square
//! toward the enemy's side instead.

use serde::{Deserialize, Serialize};

use crate::engine::{CardId, EngineError, PlayerId, player_name};

use super::{M, board, ctype, has_kw, illegal, label, r, text, types};

/// The reading that a unit played in a special way into the central area
/// is destroyed as any unit played there (default: it is not).
pub const CENTRAL_DESTROYED: &str = "reading_special_play_central_destroyed";

/// The reading that スモールアイ's 後方 is the adjacent square toward the
/// enemy's side (default: toward your own side).
pub const SMALL_EYE_TOWARD_ENEMY: &str = "reading_small_eye_behind_toward_enemy";

/// The stat prefix of the formation cost.
pub const PREFIX: &str = "formation_";

/// Whether `region` can be 召集's square condition: a region of
/// [`board::REGIONS`] for one square (not a condition on a group of
/// targets, nor a `put`'s destination).
pub fn muster_region(region: &str) -> bool {
    board::REGIONS.contains(&region)
        && !["same_area_as_first", "event_square", "this_square"].contains(&region)
}

/// 隊列召喚's definitions (5.8.2-1 … 5.8.2-8).
pub const FORMATIONS: &[&str] = &[
    "straight",
    "triangle",
    "x",
    "underbar",
    "small_eye",
    "big_eye",
    "big_triangle",
    "bottom_bar",
];

/// How a unit on the stack was played.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Special {
    /// By 召集 of the card `by` (5.3.2).
    Muster { by: CardId },
    /// By its own 隊列召喚 (5.8.2).
    Formation,
}

/// The special play `p` chose for `card` (choices `muster`, `formation`),
/// checked: one at most (5.3.2-2, 5.8.3), a unit, the ability there.
pub fn decide(m: &mut M, p: PlayerId, card: &str) -> Result<Option<Special>, EngineError> {
    let muster = m.choices.take("muster");
    let formation = match m.choices.take("formation") {
        None => false,
        Some(v) => v.as_bool().ok_or_else(|| EngineError::BadChoice {
            choice: "formation".into(),
            value: v.to_string(),
            options: vec!["true".into(), "false".into()],
        })?,
    };
    if muster.is_some() && formation {
        return Err(illegal(
            r::SPECIAL_ONE,
            format!(
                "{} can't be played by 召集 and 隊列召喚 at once: each changes how a unit is played, and special plays are not combined (5.3.2-2, 5.8.3)",
                label(&m.game, card)
            ),
            vec![
                format!("play {card} with `muster`"),
                format!("play {card} with `formation`"),
            ],
        ));
    }
    if (muster.is_some() || formation) && ctype(&m.game, card) != types::UNIT {
        return Err(illegal(
            if formation { r::FORMATION } else { r::MUSTER },
            format!("{card} is not a unit: only a unit is played in a special way"),
            vec![],
        ));
    }
    if formation {
        if !has_kw(&m.game, card, "formation_summon") {
            return Err(illegal(
                r::FORMATION,
                format!("{} has no 隊列召喚", label(&m.game, card)),
                vec![format!("play {card}")],
            ));
        }
        return Ok(Some(Special::Formation));
    }
    let Some(v) = muster else {
        return Ok(None);
    };
    let by = v.as_str().unwrap_or_default().to_string();
    let yours = |id: &str| {
        m.game.card(id).is_some_and(|c| {
            c.controller == p
                && board::square_of(&m.game, id).is_some()
                && has_kw(&m.game, id, "muster")
        })
    };
    if !yours(&by) {
        let options: Vec<String> = board::on_squares(&m.game)
            .iter()
            .filter(|id| yours(id))
            .map(|id| id.to_string())
            .collect();
        return Err(EngineError::BadChoice {
            choice: "muster".into(),
            value: v.to_string(),
            options,
        });
    }
    Ok(Some(Special::Muster { by: by.into() }))
}

/// The squares `p` may play `card` to in the special way `s`.
pub fn squares(m: &M, p: PlayerId, card: &str, s: &Special) -> Vec<&'static str> {
    let g = &m.game;
    match s {
        // A square meeting the condition with no unit on it (5.3.2).
        Special::Muster { by } => {
            let region = text(g, by, "muster").unwrap_or("");
            let from = board::square_of(g, by);
            board::SQUARES
                .iter()
                .copied()
                .filter(|sq| board::square_in_region(from, sq, p, region))
                .filter(|sq| g.player_ids().all(|q| g.zone_of(q, sq).is_empty()))
                .collect()
        }
        // The ★ square of a formation that stands, as if your own area:
        // none of your units there (2.20.1-2).
        Special::Formation => formation_squares(m, p, text(g, card, "formation").unwrap_or(""))
            .into_iter()
            .filter(|sq| g.zone_of(p, sq).is_empty())
            .collect(),
    }
}

/// The battle square at `line` (0 left … 2 right from P1's view) and
/// `area` as `p` sees it (0 own, 1 central, 2 enemy).
fn at(p: PlayerId, line: usize, area: usize) -> &'static str {
    let row = if p == PlayerId::P1 { area } else { 2 - area };
    board::SQUARES[row * 3 + line]
}

/// The ★ squares of formation `def` for `p` (5.8.2-1 … -8): each ◎ square
/// holds a unit of `p` (a card of `p` on a base square).
fn formation_squares(m: &M, p: PlayerId, def: &str) -> Vec<&'static str> {
    let g = &m.game;
    let mine = |sq: &str| !g.zone_of(p, sq).is_empty();
    let all = |sqs: &[&str]| sqs.iter().all(|s| mine(s));
    let centre = at(p, 1, 1);
    let (l, c, rt) = (0, 1, 2);
    let required: Vec<&str> = match def {
        "straight" => vec![at(p, l, 1), at(p, rt, 1)],
        "triangle" => vec![at(p, l, 0), at(p, rt, 0), at(p, c, 2)],
        "x" => vec![at(p, l, 0), at(p, rt, 0), at(p, l, 2), at(p, rt, 2)],
        "underbar" => vec![at(p, l, 0), at(p, c, 0), at(p, rt, 0)],
        "big_triangle" => vec![board::BASES[0], board::BASES[2], at(p, c, 2)],
        "bottom_bar" => board::BASES.to_vec(),
        // Behind one of your units in its line (後方): the adjacent square
        // toward your side, or toward the enemy's under the flag.
        "small_eye" => {
            let toward_enemy = super::reading(g, SMALL_EYE_TOWARD_ENEMY);
            return (0..3)
                .flat_map(|line| (0..2).map(move |area| (line, area)))
                .map(|(line, area)| {
                    let (unit, star) = if toward_enemy {
                        (area, area + 1)
                    } else {
                        (area + 1, area)
                    };
                    (at(p, line, unit), at(p, line, star))
                })
                .filter(|&(unit, _)| mine(unit))
                .map(|(_, star)| star)
                .collect();
        }
        "big_eye" => {
            return (0..3)
                .filter(|&line| mine(at(p, line, 0)) && mine(at(p, line, 2)))
                .map(|line| at(p, line, 1))
                .collect();
        }
        _ => return Vec::new(),
    };
    if all(&required) {
        vec![centre]
    } else {
        Vec::new()
    }
}

/// The judge's note on the reading that decided where `card` was played
/// in the special way `s`: スモールアイ's 後方 (5.8.2-5, research A10).
pub fn note(m: &M, card: &str, s: &Special) -> Option<&'static str> {
    if *s != Special::Formation || text(&m.game, card, "formation") != Some("small_eye") {
        return None;
    }
    Some(if super::reading(&m.game, SMALL_EYE_TOWARD_ENEMY) {
        "flag reading_small_eye_behind_toward_enemy: スモールアイ's 後方 (5.8.2-5) is the adjacent square of the line toward the enemy's side"
    } else {
        "judge's reading (A10): スモールアイ's 後方 (5.8.2-5) is the adjacent square of the line toward your own side; flag reading_small_eye_behind_toward_enemy reads it toward the enemy's side"
    })
}

/// The clause of formation `def`.
fn formation_rule(def: &str) -> &'static str {
    match def {
        "straight" => r::FORMATION_STRAIGHT,
        "triangle" => r::FORMATION_TRIANGLE,
        "x" => r::FORMATION_X,
        "underbar" => r::FORMATION_UNDERBAR,
        "small_eye" => r::FORMATION_SMALL_EYE,
        "big_eye" => r::FORMATION_BIG_EYE,
        "big_triangle" => r::FORMATION_BIG_TRIANGLE,
        _ => r::FORMATION_BOTTOM_BAR,
    }
}

/// The clause that decides where `card` may go in the special way `s`:
/// 召集's condition (5.3.2) or the formation's own clause.
pub fn deciding_rule(m: &M, card: &str, s: &Special) -> &'static str {
    match s {
        Special::Muster { .. } => r::MUSTER_PLAY,
        Special::Formation => formation_rule(text(&m.game, card, "formation").unwrap_or("")),
    }
}

/// The clauses that allow playing `card` in the special way `s`.
pub fn rules(m: &M, card: &str, s: &Special) -> Vec<&'static str> {
    match s {
        Special::Muster { .. } => vec![r::MUSTER, r::MUSTER_PLAY, r::SPECIAL_ONE],
        Special::Formation => vec![
            r::FORMATION,
            r::FORMATION_PLAY,
            deciding_rule(m, card, s),
            r::FORMATION_ONE,
        ],
    }
}

/// How the play is described in the trace.
pub fn describe(m: &M, s: &Special) -> String {
    match s {
        Special::Muster { by } => format!(
            "by 召集 of {} ({}), as if the square were {}'s own area",
            label(&m.game, by),
            text(&m.game, by, "muster").unwrap_or(""),
            player_name(m.game.card(by).map_or(PlayerId::P1, |c| c.controller))
        ),
        Special::Formation => {
            "by 隊列召喚 for its formation cost, as if the square were its own area".into()
        }
    }
}

/// Whether a unit played by 召集 of `by` to `sq` for `p` still meets the
/// condition as it is put onto the square (5.3.2-1).
pub fn muster_holds(m: &M, p: PlayerId, by: &str, sq: &str) -> bool {
    let g = &m.game;
    g.card(by).is_some_and(|c| c.controller == p)
        && has_kw(g, by, "muster")
        && board::square_of(g, by).is_some_and(|from| {
            board::square_in_region(Some(from), sq, p, text(g, by, "muster").unwrap_or(""))
        })
}

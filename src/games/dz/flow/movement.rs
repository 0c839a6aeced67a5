//! Moving a unit (3.8.2-6), a rule-defined activated ability: declared
//! with its unit and an orthogonally adjacent destination (4.7.3-1), its
//! move cost paid (4.7.3-4, or 急襲's bases, 5.16.2), put on the stack
//! (4.7.3-2); on resolution it is countered if the unit is no longer on
//! its square, and otherwise placed there released even if it was frozen
//! meanwhile (4.9.3-1, 4.9.3-2).

use crate::engine::{Action, CardId, EngineError, PlayerId, Restricted, player_name, texts};

use super::{
    Entry, FROZEN, Kind, M, board, cost, dz, has_kw, illegal, label, moves, play, r, stat,
};

/// The moves `p` could declare now, for "legal instead" lists.
fn legal_moves(m: &M, p: PlayerId) -> Vec<String> {
    let mut v = Vec::new();
    // A move is a Normal action (3.8.2-6): at a time no Normal action is
    // allowed (a battle, a non-empty stack, the other player's turn),
    // no move is legal instead.
    if play::check_timing(m, p, "normal", "moving", Vec::new()).is_err() {
        return v;
    }
    for sq in board::SQUARES {
        for u in m.game.zone_of(p, sq) {
            if m.game.card(u).is_some_and(|c| c.has(FROZEN))
                || !super::restrict::sources(&m.game, Restricted::Move, p, Some(u)).is_empty()
            {
                continue;
            }
            for to in board::neighbours(sq) {
                if m.game.zone_of(p, to).is_empty() {
                    v.push(format!("move {u} {to}"));
                }
            }
        }
    }
    v
}

/// Declares a move of `a.card` to `a.target` for `p`.
pub fn declare(m: &mut M, p: PlayerId, a: &Action) -> Result<(), EngineError> {
    let unit = a
        .card
        .clone()
        .ok_or_else(|| super::bad("`move` needs `card` (the unit)"))?;
    let alts = legal_moves(m, p);
    play::check_timing(
        m,
        p,
        "normal",
        &format!("moving {unit}"),
        vec!["pass".into()],
    )?;
    let Some(from) = m
        .game
        .card(&unit)
        .filter(|c| c.zone.player == Some(p))
        .and_then(|c| board::square(c.zone.kind))
    else {
        return Err(illegal(
            r::MOVE_DECLARE,
            format!(
                "{unit} is not a unit {} controls on a battle square",
                player_name(p)
            ),
            alts,
        ));
    };
    if m.game.card(&unit).is_some_and(|c| c.has(FROZEN)) {
        return Err(illegal(
            r::MOVE_DECLARE,
            format!("{unit} is frozen: only a released unit moves"),
            alts,
        ));
    }
    let forbidden = super::restrict::sources(&m.game, Restricted::Move, p, Some(&unit));
    if !forbidden.is_empty() {
        return Err(illegal(
            r::CANT_BEATS_CAN,
            format!(
                "{unit} can't move ({}): \"can't\" beats the move a released unit could make",
                forbidden.join(", ")
            ),
            alts,
        ));
    }
    let Some(to) = a.target.as_deref().and_then(board::square) else {
        return Err(illegal(
            r::MOVE_DECLARE,
            "a move names its destination battle square (`target`)",
            alts,
        ));
    };
    if !board::adjacent(from, to) {
        return Err(illegal(
            r::MOVE,
            format!(
                "{to} is not adjacent to {from}: a unit moves up, down, left or right, never diagonally"
            ),
            alts,
        ));
    }
    if !m.game.zone_of(p, to).is_empty() {
        return Err(illegal(
            r::MOVE_DECLARE,
            format!("{to} already holds a unit {} controls", player_name(p)),
            alts,
        ));
    }
    let opp = !m.game.zone_of(m.game.opponent(p), to).is_empty();
    m.record(
        "move",
        format!(
            "{} moves {} from {from} to {to}{}: the move goes on the stack",
            player_name(p),
            label(&m.game, &unit),
            if opp {
                " (an opponent's unit is there)"
            } else {
                ""
            }
        ),
        &[r::MOVE, r::MOVE_IS_ABILITY, r::MOVE_DECLARE, r::MOVE_EXTRA],
    )
    .obj(unit.clone());
    let raid = m
        .choices
        .or_default("raid", &["true"])
        .and_then(|v| v.as_bool())
        .unwrap_or(false);
    let advance = m
        .choices
        .or_default("advance", &["true"])
        .and_then(|v| v.as_bool())
        .unwrap_or(false);
    if advance && !has_kw(&m.game, &unit, "advance") {
        return Err(illegal(
            r::ADVANCE,
            format!("{unit} has no 進撃: there is no additional move cost to pay"),
            vec![],
        ));
    }
    if advance && raid {
        return Err(illegal(
            r::RAID_NO_EXTRA,
            format!("{unit} moves with 急襲: no additional move cost (進撃) can be paid"),
            vec![],
        ));
    }
    if raid {
        pay_raid(m, p, &unit)?;
    } else {
        let mut c = cost::Cost::of(m, &unit, "move_");
        if advance {
            // 進撃's additional cost, once (5.11.1, 5.11.3), paid with
            // the move cost.
            c.add(&cost::Cost::of(m, &unit, "advance_"));
        }
        m.record(
            "pay",
            format!(
                "{} pays the move cost {} of {unit}",
                player_name(p),
                c.text()
            ),
            &[r::MOVE_PAY, r::MOVE_COST, r::MOVE_LOCKED],
        );
        if advance && let Some(e) = m.trace.last_mut() {
            e.text.push_str(" with 進撃's additional cost");
            e.rules.extend([r::ADVANCE, r::ADVANCE_ONCE]);
        }
        cost::pay(m, p, &c, &format!("moving {unit}"))?;
    }
    let inc = m.game.card(&unit).map_or(0, |c| c.incarnation);
    dz(&mut m.game).stack.push(Entry {
        controller: p,
        kind: Kind::Move {
            unit: unit.clone(),
            inc,
            from,
            to,
            advance,
        },
    });
    m.record(
        "moved",
        format!("the move of {unit} has been activated; AP receives priority"),
        &[r::MOVE_ACTIVATED, r::PRIORITY_PASS],
    );
    Ok(())
}

/// A base of `p` named in `raid_bases` that is frozen: 急襲 freezes
/// released bases (5.16.2), and a frozen card can't be frozen again
/// (2.26.1-1); an illegal action, not a bad choice.
fn refuse_frozen_bases(m: &mut M, p: PlayerId) -> Result<(), EngineError> {
    let frozen = super::named_in_choice(m, "raid_bases")
        .into_iter()
        .find(|id| {
            board::BASES
                .iter()
                .any(|b| m.game.zone_of(p, b).iter().any(|c| **c == **id))
                && m.game.card(id).is_some_and(|c| c.has(FROZEN))
        });
    let Some(id) = frozen else {
        return Ok(());
    };
    m.choices.take("raid_bases");
    Err(illegal(
        r::RAID,
        format!(
            "{id} is frozen: 急襲 freezes released bases, and a frozen card can't be frozen again (2.26.1-1)"
        ),
        vec![],
    ))
}

/// 急襲[N] (5.16.2): instead of the move cost, freeze N released bases of
/// yours (choice `raid_bases`, or every released base when exactly N).
fn pay_raid(m: &mut M, p: PlayerId, unit: &str) -> Result<(), EngineError> {
    if !has_kw(&m.game, unit, "raid") {
        return Err(illegal(
            r::RAID,
            format!("{unit} has no 急襲: its move cost is paid with energy"),
            vec![],
        ));
    }
    let n = stat(&m.game, unit, "raid").max(0) as usize;
    let bases: Vec<CardId> = board::BASES
        .iter()
        .flat_map(|b| m.game.zone_of(p, b).to_vec())
        .filter(|b| m.game.card(b).is_some_and(|c| !c.has(FROZEN)))
        .collect();
    refuse_frozen_bases(m, p)?;
    let chosen = match m.choices.ids("raid_bases", &bases)? {
        Some(v) => v,
        None if bases.len() == n => bases.clone(),
        None => {
            return Err(EngineError::MissingChoice {
                choice: "raid_bases".into(),
                options: texts(&bases),
            });
        }
    };
    if chosen.len() != n {
        return Err(illegal(
            r::RAID,
            format!(
                "急襲{n} freezes {n} released base(s) of yours; {} named",
                chosen.len()
            ),
            vec![],
        ));
    }
    let e = m.record(
        "pay",
        format!(
            "急襲{n}: {} freezes {} instead of paying the move cost",
            player_name(p),
            chosen.join(", ")
        ),
        &[r::RAID, r::MOVE_PAY],
    );
    for b in &chosen {
        e.change(format!("{b}.state"), "released", "frozen");
    }
    for b in chosen {
        if let Some(c) = m.game.cards.get_mut(&b) {
            c.states.insert(FROZEN.into());
        }
    }
    Ok(())
}

/// Resolves a move (4.9.3).
pub fn resolve(
    m: &mut M,
    p: PlayerId,
    unit: &str,
    inc: u32,
    from: &'static str,
    to: &'static str,
    advance: bool,
) -> Result<(), EngineError> {
    let still = m
        .game
        .card(unit)
        .is_some_and(|c| c.incarnation == inc && c.zone.kind == from && c.zone.player == Some(p));
    if !still {
        m.record(
            "move",
            format!(
                "both players passed: the move of {unit} resolves, but {unit} is no longer on {from}: the move is illegal and countered (no refund)"
            ),
            &[r::MOVE_RESOLUTION, r::MOVE_CHECK, r::COUNTERED, r::NO_REFUND],
        );
        if advance && let Some(e) = m.trace.last_mut() {
            // 進撃 triggers only when the move resolves (5.11.2).
            e.text
                .push_str("; the move did not resolve, so 進撃 does not trigger");
            e.rules.push(r::ADVANCE_TRIGGER);
        }
        super::resonance::not_by_a_move(m, p, "the move did not resolve");
        return Ok(());
    }
    let forbidden = super::restrict::sources(&m.game, Restricted::Move, p, Some(unit));
    if !forbidden.is_empty() {
        m.record(
            "move",
            format!(
                "both players passed: the move of {unit} resolves, but {unit} can't move now ({}): \"can't\" wins, it stays on {from}",
                forbidden.join(", ")
            ),
            &[r::MOVE_RESOLUTION, r::CANT_BEATS_CAN, r::IMPOSSIBLE],
        );
        super::resonance::not_by_a_move(m, p, "the move did nothing");
        return Ok(());
    }
    let was_frozen = m.game.card(unit).is_some_and(|c| c.has(FROZEN));
    let mut rules = vec![
        r::MOVE_RESOLUTION,
        r::MOVE_CHECK,
        r::MOVE_RELEASED,
        r::SQUARE_TO_SQUARE,
        r::SQUARE_IS_ZONE,
        r::NEW_OBJECT,
    ];
    if was_frozen {
        rules.push(r::MOVE_CHECK);
    }
    m.record(
        "move",
        format!(
            "both players passed: the move resolves; {} is put on {to}, released{}",
            label(&m.game, unit),
            if was_frozen {
                " (it was frozen meanwhile: the move is still legal)"
            } else {
                ""
            }
        ),
        &rules,
    );
    moves::relocate(m, unit, to);
    if let Some(c) = m.game.cards.get_mut(unit)
        && c.states.remove(FROZEN)
        && let Some(e) = m.trace.last_mut()
    {
        e.change(format!("{unit}.state"), "frozen", "released");
    }
    super::resonance::moved(m, p);
    if advance {
        // Its targets are chosen as it goes on the stack, from the
        // destination (5.11.2).
        super::triggers::fire(m, unit, "on_advance", &[r::ADVANCE_TRIGGER]);
    }
    Ok(())
}

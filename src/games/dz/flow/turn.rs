//! The turn (3.4): the six phases in order, each phase's special action
//! (release 3.5.1, draw 3.6.1, the energy placement 3.7.1, the recovery
//! clean-up 3.10.1), the end of a phase (3.4.3) and of the turn (3.4.5).

use crate::engine::{EngineError, Flow, PlayerId, ZoneId, player_name};

use super::{FROZEN, M, Phase, Step, board, dz, illegal, label, moves, r, triggers};

/// A phase begins.
pub fn begin(m: &mut M, p: Phase) -> Result<Flow, EngineError> {
    m.game.turn.phase = p.name().to_string();
    let ap = m.game.turn.active;
    dz(&mut m.game).passes = 0;
    match p {
        Phase::Release => {
            // 3.5.1: AP releases every frozen card it controls on squares,
            // in its energy zone and in its smash zone; no stack.
            let mut released = Vec::new();
            let zones: Vec<&'static str> = board::SQUARES
                .iter()
                .chain(board::BASES.iter())
                .chain(["energy", "smash"].iter())
                .copied()
                .collect();
            for z in zones {
                for id in m.game.zone_of(ap, z).to_vec() {
                    if let Some(c) = m.game.cards.get_mut(&id)
                        && c.states.remove(FROZEN)
                    {
                        released.push(id);
                    }
                }
            }
            let e = m.record(
                "release_phase",
                format!(
                    "turn {} of {}: release phase; {} releases {} frozen card(s)",
                    m.game.turn.number,
                    player_name(ap),
                    player_name(ap),
                    released.len()
                ),
                &[r::PHASES, r::RELEASE],
            );
            for id in released {
                e.change(format!("{id}.state"), "frozen", "released");
            }
            triggers::phase_start(m, "start_of_turn");
        }
        Phase::Draw => {
            if m.game.turn.number == 1 && ap == m.game.turn.first {
                m.record(
                    "draw_phase",
                    format!(
                        "{} went first: the draw phase of the first turn is skipped",
                        player_name(ap)
                    ),
                    &[r::DRAW_SKIPPED, r::FIRST_SKIPS_DRAW],
                );
                m.then([Step::EndPhase]);
                return Ok(Flow::Continue);
            }
            m.record(
                "draw_phase",
                format!("draw phase: {} draws 1", player_name(ap)),
                &[r::DRAW],
            );
            moves::draw(m, ap, 1);
        }
        Phase::Energy => {
            dz(&mut m.game).energy_done = false;
            m.record(
                "energy_phase",
                format!(
                    "energy phase: {} may put one card from hand into the energy zone (`energy`)",
                    player_name(ap)
                ),
                &[r::ENERGY],
            );
        }
        Phase::Main => {
            m.record(
                "main_phase",
                format!("main phase of {}", player_name(ap)),
                &[r::MAIN],
            );
        }
        Phase::Smash => {
            m.record(
                "smash_phase",
                format!(
                    "smash phase: {} may smash with units in the central or enemy area (`smash`)",
                    player_name(ap)
                ),
                &[r::SMASH],
            );
        }
        Phase::Recovery => recovery_cleanup(m),
    }
    m.then([Step::Offer(ap)]);
    Ok(Flow::Continue)
}

/// 3.10.1: damage is removed from every card and "until end of turn" /
/// "this turn" effects end, at once; no stack.
fn recovery_cleanup(m: &mut M) {
    let mut healed = Vec::new();
    let mut ended = 0;
    for c in m.game.cards.values_mut() {
        if c.damage > 0 {
            healed.push((c.id.clone(), c.damage));
            c.damage = 0;
        }
        let before = c.modifiers.len();
        c.modifiers
            .retain(|md| md.until == crate::engine::Until::Permanent);
        ended += before - c.modifiers.len();
    }
    ended += super::restrict::end_of_turn(&mut m.game);
    {
        let d = dz(&mut m.game);
        d.recovery_fired = false;
        d.recovery_dirty = false;
    }
    let e = m.record(
        "recovery_phase",
        format!(
            "recovery phase: damage removed from {} card(s); {ended} effect(s) until end of turn end",
            healed.len()
        ),
        &[r::RECOVERY],
    );
    for (id, d) in healed {
        e.change(format!("{id}.damage"), d, 0);
    }
}

/// Both players passed with an empty stack in the recovery phase: the
/// end-of-turn triggers (3.10.2), then the end of the turn or a new round
/// from step 1 when anything happened (3.10.3).
pub fn recovery_passed(m: &mut M) -> Result<Flow, EngineError> {
    let ap = m.game.turn.active;
    let fired = dz(&mut m.game).recovery_fired;
    if !fired {
        dz(&mut m.game).recovery_fired = true;
        if dz(&mut m.game).end_of_turn_done {
            m.record(
                "end_of_turn",
                "both players passed: \"at end of turn\" abilities trigger only once per turn, and they already did",
                &[r::RECOVERY_END_OF_TURN, r::DELAYED],
            );
            m.then([Step::Offer(ap)]);
            return Ok(Flow::Continue);
        }
        dz(&mut m.game).end_of_turn_done = true;
        let n = triggers::phase_start(m, "end_of_turn") + super::target_place::fire(m);
        m.record(
            "end_of_turn",
            format!("both players passed: {n} \"at end of turn\" ability(ies) trigger"),
            &[r::RECOVERY_END_OF_TURN],
        );
        if n > 0 {
            dz(&mut m.game).recovery_dirty = true;
        }
        m.then([Step::Offer(ap)]);
        return Ok(Flow::Continue);
    }
    if dz(&mut m.game).recovery_dirty {
        m.record(
            "recovery_phase",
            "something triggered or a rule effect happened during the recovery phase: it repeats from its first step",
            &[r::RECOVERY_REPEAT],
        );
        m.then([Step::Begin(Phase::Recovery)]);
        return Ok(Flow::Continue);
    }
    m.record(
        "recovery_phase",
        "nothing happened during the recovery phase: it ends",
        &[r::RECOVERY_REPEAT],
    );
    m.then([Step::EndPhase]);
    Ok(Flow::Continue)
}

/// The current phase ends (3.4.3); after the recovery phase the turn ends
/// and the other player's turn begins (3.4.5, 3.4.1).
pub fn end_phase(m: &mut M) -> Result<Flow, EngineError> {
    let cur = Phase::parse(&m.game.turn.phase).unwrap_or(Phase::Main);
    match cur.next() {
        Some(next) => {
            m.record(
                "end_phase",
                format!("the {} phase ends", cur.name()),
                &[r::PHASE_ENDS],
            );
            m.then([Step::Begin(next)]);
        }
        None => {
            let next = m.game.opponent(m.game.turn.active);
            m.record(
                "end_turn",
                format!(
                    "turn {} ends; turn {} is {}'s",
                    m.game.turn.number,
                    m.game.turn.number + 1,
                    player_name(next)
                ),
                &[r::TURN_ENDS, r::TURNS],
            );
            m.game.turn.number += 1;
            m.game.turn.active = next;
            dz(&mut m.game).end_of_turn_done = false;
            dz(&mut m.game).moved_this_turn.clear();
            m.then([Step::Begin(Phase::Release)]);
        }
    }
    Ok(Flow::Continue)
}

/// The energy special action (3.7.1): in the energy phase, AP with
/// priority and an empty stack puts one card from hand into its energy
/// zone, face up and released (2.23.6-2); once per turn; no stack.
pub fn energy(m: &mut M, p: PlayerId, card: &str) -> Result<(), EngineError> {
    let d = super::dz_ref(&m.game);
    if m.game.turn.phase != "energy" || p != m.game.turn.active || !d.stack.is_empty() {
        return Err(illegal(
            r::ENERGY,
            "a card is put into the energy zone only in your own energy phase, with an empty stack",
            vec!["pass".into()],
        ));
    }
    if d.energy_done {
        return Err(illegal(
            r::ENERGY,
            "only one card is put into the energy zone in the energy phase",
            vec!["pass".into()],
        ));
    }
    if !m.game.zone_of(p, "hand").iter().any(|c| c == card) {
        let alts = m
            .game
            .zone_of(p, "hand")
            .iter()
            .map(|c| format!("energy {c}"))
            .collect();
        return Err(illegal(
            r::ENERGY,
            format!("{card} is not in {}'s hand", player_name(p)),
            alts,
        ));
    }
    dz(&mut m.game).energy_done = true;
    let l = label(&m.game, card);
    m.game.move_card(card, ZoneId::of(p, "energy"), false);
    m.record(
        "energy",
        format!(
            "{} puts {l} into the energy zone, face up and released",
            player_name(p)
        ),
        &[r::ENERGY, r::ENERGY_RELEASED],
    )
    .change(
        format!("{card}.zone"),
        format!("{}.hand", player_name(p)),
        format!("{}.energy", player_name(p)),
    );
    Ok(())
}

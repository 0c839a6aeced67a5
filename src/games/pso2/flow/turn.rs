//! The turn (500–505): start, draw and PP phases, the main phase's opening,
//! the end phase's turn-end and refresh steps, and the passing of the turn.

use super::{
    BACK_DAMAGE, Ctx, FRONT_DAMAGE, M, Phase, Step, Window, illegal, moves, r, set_on, st,
    triggers, zn,
};
use crate::engine::{
    Action, CardId, EngineError, Flow, PlayerId, Until, ZoneId, player_name, texts,
};

/// Begins a phase or step.
pub fn begin(m: &mut M, p: Phase) -> Result<Flow, EngineError> {
    let tp = m.game.turn.active;
    if matches!(p, Phase::Draw | Phase::Pp | Phase::Main) && super::raid::straight_to_end(m) {
        return Ok(Flow::Continue);
    }
    match p {
        Phase::Setup => setup(m),
        Phase::Start => start(m),
        Phase::Draw => {
            m.game.turn.phase = "draw".into();
            if m.game.turn.number == 1
                && tp == m.game.turn.first
                && !super::raid::first_turn_draw(&m.game)
            {
                let raid = super::raid::on(&m.game);
                let e = m.record(
                    "draw_phase",
                    format!(
                        "{}: the first player does not draw on the first turn",
                        player_name(tp)
                    ),
                    &[r::DRAW_PHASE],
                );
                if raid {
                    e.rule(r::RAID_DIFFICULTY).note(format!(
                        "judges' reading: the raid's \"the first player also draws on turn 1\" applies in Easy only, where it is printed (RAID:F1; option `{}`: in every difficulty)",
                        super::reading::RAID_FIRST_TURN_DRAW_ANY_DIFFICULTY
                    ));
                }
            } else {
                let first_turn = m.game.turn.number == 1 && tp == m.game.turn.first;
                let any_difficulty =
                    super::reading_on(&m.game, super::reading::RAID_FIRST_TURN_DRAW_ANY_DIFFICULTY);
                let e = m.record(
                    "draw_phase",
                    format!("{} draws 1", player_name(tp)),
                    &[r::DRAW_PHASE],
                );
                if first_turn {
                    let note = if any_difficulty {
                        format!(
                            "reading `{}`: the raid's \"the first player also draws on turn 1\" applies in every difficulty (RAID:F1)",
                            super::reading::RAID_FIRST_TURN_DRAW_ANY_DIFFICULTY
                        )
                    } else {
                        "the raid's Easy line: the first player also draws on turn 1 (RAID:F1)"
                            .to_string()
                    };
                    e.rule(r::RAID_DIFFICULTY).note(note);
                }
                moves::draw(m, tp, 1);
            }
            m.record("draw_phase", "to the PP phase", &[r::DRAW_TO_PP]);
            m.then([Step::Begin(Phase::Pp)]);
            Ok(Flow::Continue)
        }
        Phase::Pp => {
            m.game.turn.phase = "pp".into();
            m.record(
                "pp_phase",
                format!(
                    "{} may put 1 card from hand into PP (`pp`) or not (`pass`)",
                    player_name(tp)
                ),
                &[r::PP_PLACE],
            );
            m.then([Step::PpDecision]);
            Ok(Flow::Continue)
        }
        Phase::Main => {
            m.game.turn.phase = "main".into();
            m.record(
                "main_phase",
                format!("{} gets the right to act", player_name(tp)),
                &[r::PRIORITY_TP],
            );
            m.then([Step::Priority(Box::new(Ctx {
                window: Window::Main,
                stack: Vec::new(),
                battle: None,
                holder: tp,
                passes: 0,
            }))]);
            Ok(Flow::Continue)
        }
        Phase::TurnEnd => {
            let boss = super::raid::is_boss(&m.game, tp);
            m.game.turn.phase = "turn_end".into();
            let found = triggers::timed(m, "end_of_turn")?;
            let mut ctx = Ctx {
                window: Window::TurnEnd,
                stack: Vec::new(),
                battle: None,
                holder: tp,
                passes: 0,
            };
            triggers::place(m, &mut ctx, found)?;
            let stack = ctx.stack;
            let skipped = m.game.players[tp].lost;
            let e = m.record(
                "turn_end_step",
                format!(
                    "end-of-turn abilities: {}; then {} gets the right to act",
                    stack.len(),
                    first_holder(m, tp)
                ),
                &[r::END_STEPS, r::TURN_END_STEP],
            );
            if skipped {
                e.rule(r::RAID_ELIMINATION);
            }
            // RAID:B⑤: the Boss's end phase is a normal one (a, b).
            boss_end(
                e,
                boss,
                &[
                    r::RAID_BOSS_END,
                    r::RAID_BOSS_END_TRIGGERS,
                    r::RAID_BOSS_END_PARTY_ACTS,
                ],
            );
            m.then([Step::Priority(Box::new(Ctx {
                window: Window::TurnEnd,
                stack,
                battle: None,
                holder: tp,
                passes: 0,
            }))]);
            Ok(Flow::Continue)
        }
        Phase::Refresh => refresh(m),
    }
}

/// Who gets the right to act first from `tp` on: `tp`, or when the raid
/// has eliminated them during their own turn (RAID:F5) the next player in
/// seat order still in the game, as the priority offer skips them.
fn first_holder(m: &M, tp: PlayerId) -> String {
    let n = m.game.players.len();
    let holder = (0..n)
        .map(|k| tp.after(k, n))
        .find(|&q| !m.game.players[q].lost)
        .unwrap_or(tp);
    if holder == tp {
        player_name(tp)
    } else {
        format!(
            "{} ({} is eliminated)",
            player_name(holder),
            player_name(tp)
        )
    }
}

/// 102: the game setup. The scenario's `turn.first` stands for the random
/// decision of 102.1; decks are shuffled with the scenario's seed.
fn setup(m: &mut M) -> Result<Flow, EngineError> {
    super::deck::validate(m)?;
    let first = m.game.turn.first;
    let n = m.game.players.len();
    m.record(
        "setup",
        format!(
            "{} goes first (the scenario's turn.first)",
            player_name(first)
        ),
        &[r::SETUP_FIRST, r::GL_FIRST_SECOND],
    )
    .note("the random decision of 102.1 is given by the scenario's `turn.first`");
    for p in PlayerId::all(n) {
        let z = ZoneId::of(p, zn::DECK);
        let mut v = m.game.zones.get(&z).cloned().unwrap_or_default();
        m.game.rng.shuffle(&mut v);
        m.game.zones.insert(z, v);
    }
    m.record(
        "setup",
        "each player shuffles their deck and places it face down; Player and Mag cards are face up",
        &[r::SETUP_SHUFFLE, r::SETUP_PLAYER_MAG],
    );
    for k in 0..n {
        let p = first.after(k, n);
        m.record(
            "setup",
            format!("{} draws 5", player_name(p)),
            &[r::SETUP_DRAW_5],
        );
        moves::draw(m, p, 5);
    }
    for k in 1..n {
        let p = first.after(k, n);
        if let Some(top) = m.game.zone_of(p, zn::DECK).first().cloned() {
            moves::move_to(m, &top, ZoneId::of(p, zn::PP));
            if let Some(c) = m.game.cards.get_mut(&top) {
                c.states.insert(st::FACE_DOWN.into());
            }
            m.record(
                "setup",
                format!(
                    "{} puts the top card of their deck face down into PP",
                    player_name(p)
                ),
                &[r::SETUP_FACE_DOWN_PP, r::FACE_DOWN_PP_COLOR],
            )
            .obj(top.clone());
            set_on(m, &top, true);
        }
    }
    m.game.turn.number = 1;
    m.game.turn.active = first;
    m.then([Step::Begin(Phase::Start)]);
    Ok(Flow::Continue)
}

/// 501.1: untap, continuous abilities, start-of-turn triggers.
fn start(m: &mut M) -> Result<Flow, EngineError> {
    let tp = m.game.turn.active;
    m.game.turn.phase = "start".into();
    let boss_turn = super::raid::is_boss(&m.game, tp);
    if boss_turn {
        super::raid::target_phase(m);
    }
    // The Boss's turn has no draw or PP phase (RAID:B①–⑤).
    let after = if boss_turn { Phase::Main } else { Phase::Draw };
    m.record(
        "start_phase",
        format!("{}'s PP become ON", player_name(tp)),
        &[r::START_UNTAP_PP],
    );
    let pp: Vec<CardId> = m.game.zone_of(tp, zn::PP).to_vec();
    for id in pp {
        set_on(m, &id, true);
    }
    m.record(
        "start_phase",
        format!(
            "{}'s OFF player, charas, items, actives and mag become ON",
            player_name(tp)
        ),
        &[r::START_UNTAP],
    );
    for z in [zn::PLAYER, zn::FIELD, zn::MAG] {
        let ids: Vec<CardId> = m.game.zone_of(tp, z).to_vec();
        for id in ids {
            set_on(m, &id, true);
        }
    }
    m.record(
        "start_phase",
        "\"during your turn\" continuous abilities apply from now",
        &[r::START_CONTINUOUS],
    );
    let stack = triggers::timed(m, "start_of_turn")?;
    if stack.is_empty() {
        if boss_turn {
            m.record(
                "start_phase",
                "the Boss's field cards are ON; no start-of-turn ability triggers; to the main phase (the Boss's turn has no draw or PP phase)",
                &[r::START_TRIGGERS, r::RAID_BOSS_START],
            );
        } else {
            m.record(
                "start_phase",
                "no start-of-turn ability triggers; to the draw phase",
                &[r::START_TRIGGERS, r::START_TO_DRAW],
            );
        }
        m.then([Step::Begin(after)]);
    } else {
        m.record(
            "start_phase",
            format!(
                "{} start-of-turn abilities go to the resolution zone; {} gets the right to act",
                stack.len(),
                player_name(tp)
            ),
            &[r::START_TRIGGERS, r::PRIORITY_RULE_PHASES],
        );
        m.then([Step::Priority(Box::new(Ctx {
            window: Window::Rule(after),
            stack,
            battle: None,
            holder: tp,
            passes: 0,
        }))]);
    }
    Ok(Flow::Continue)
}

/// 503.1.1–503.1.2: a card from hand into PP, then an optional draw.
pub fn place_pp(m: &mut M, a: &Action) -> Result<(), EngineError> {
    let tp = m.game.turn.active;
    if a.player.is_some_and(|p| p != tp) {
        m.stack.push(Step::PpDecision);
        return Err(illegal(
            r::PP_PLACE,
            "only the turn player puts a card into PP",
            vec![],
        ));
    }
    let hand: Vec<CardId> = m.game.zone_of(tp, zn::HAND).to_vec();
    let Some(card) = a.card.clone().filter(|c| hand.contains(c)) else {
        return Err(illegal(
            r::PP_PLACE,
            "the card put into PP must be one card from the turn player's hand",
            texts(&hand),
        ));
    };
    moves::move_to(m, &card, ZoneId::of(tp, zn::PP));
    let off = super::reading_on(&m.game, super::reading::PP_PHASE_CARD_ARRIVES_OFF);
    m.record(
        "pp_phase",
        format!("{} puts {card} into PP face up", player_name(tp)),
        &[r::PP_PLACE, r::PP_FACE_UP],
    )
    .obj(card.clone())
    .note(if off {
        format!(
            "reading `{}`: the card put into PP arrives OFF (503.1.1 does not say)",
            super::reading::PP_PHASE_CARD_ARRIVES_OFF
        )
    } else {
        format!(
            "judges' reading: a card newly put into PP is ON (the rules do not say, 503.1.1; option `{}`: it arrives OFF)",
            super::reading::PP_PHASE_CARD_ARRIVES_OFF
        )
    });
    set_on(m, &card, !off);
    let draw = m
        .choices
        .or_default("draw", &["true"])
        .is_some_and(|v| v.as_bool() == Some(true));
    if draw {
        m.record(
            "pp_phase",
            format!("{} draws 1 after putting a card into PP", player_name(tp)),
            &[r::PP_DRAW, r::DRAW_ONE_BY_ONE],
        )
        .note("503.1.2 allows the draw (ことができます: optional, choice `draw`) without a number; a draw is one card from the top of the deck (102.4.1)");
        moves::draw(m, tp, 1);
    } else {
        m.record(
            "pp_phase",
            format!(
                "{} does not draw (choice `draw`: true to draw 1)",
                player_name(tp)
            ),
            &[r::PP_DRAW],
        );
    }
    m.record("pp_phase", "to the main phase", &[r::PP_TO_MAIN]);
    m.then([Step::Begin(Phase::Main)]);
    Ok(())
}

/// 503.1.1: putting no card into PP.
pub fn decline_pp(m: &mut M, a: &Action) -> Result<(), EngineError> {
    let tp = m.game.turn.active;
    if a.player.is_some_and(|p| p != tp) {
        m.stack.push(Step::PpDecision);
        return Err(illegal(
            r::PP_PLACE,
            "only the turn player decides in the PP phase",
            vec![],
        ));
    }
    m.record(
        "pp_phase",
        format!(
            "{} puts no card into PP; to the main phase",
            player_name(tp)
        ),
        &[r::PP_PLACE, r::PP_TO_MAIN],
    );
    m.then([Step::Begin(Phase::Main)]);
    Ok(())
}

/// 505.2: damage removed, "this turn" effects end, hand limit, next turn.
fn refresh(m: &mut M) -> Result<Flow, EngineError> {
    let tp = m.game.turn.active;
    m.game.turn.phase = "refresh".into();
    let boss = super::raid::is_boss(&m.game, tp);
    let e = m.record(
        "refresh_step",
        "all damage is removed from every chara on the field",
        &[r::REFRESH],
    );
    boss_end(e, boss, &[r::RAID_BOSS_END_HEAL]);
    let ids: Vec<CardId> = m.game.cards.keys().cloned().collect();
    for id in &ids {
        let Some(c) = m.game.cards.get_mut(id) else {
            continue;
        };
        if c.zone.kind != zn::FIELD {
            continue;
        }
        let before = c.damage;
        c.damage = 0;
        c.counters.remove(FRONT_DAMAGE);
        c.counters.remove(BACK_DAMAGE);
        if before > 0
            && let Some(e) = m.trace.last_mut()
        {
            e.change(format!("{id}.damage"), before, 0);
        }
    }
    let e = m.record("refresh_step", "\"this turn\" effects end", &[r::REFRESH]);
    boss_end(e, boss, &[r::RAID_BOSS_END_EFFECTS]);
    for c in m.game.cards.values_mut() {
        c.modifiers
            .retain(|md| !matches!(md.until, Until::EndOfTurn | Until::ThisTurn));
    }
    super::state::of(&mut m.game).turn_locks.clear();
    super::abilities::expire(m);
    super::delayed::expire(m);
    super::restrict::expire(m);
    let hand: Vec<CardId> = m.game.zone_of(tp, zn::HAND).to_vec();
    if hand.len() >= 8 {
        let n = hand.len() - 7;
        // Discarded in id order.
        let mut uniq = m.choices.exactly("discard", &hand, n)?;
        uniq.sort();
        m.record(
            "refresh_step",
            format!(
                "{} has {} cards and discards {n} down to 7",
                player_name(tp),
                hand.len()
            ),
            &[r::HAND_LIMIT, r::HAND_LIMIT_OWN, r::REFRESH, r::GL_DISCARD],
        );
        for id in uniq {
            moves::to_discard(m, &id);
        }
    }
    if hand.len() < 8 {
        m.record(
            "refresh_step",
            format!("{} has {} card(s) in hand: no discard (the limit is 7; the non-turn player is not checked)", player_name(tp), hand.len()),
            &[r::HAND_LIMIT_OWN],
        );
    }
    let n = m.game.players.len().max(1);
    let next = (1..=n)
        .map(|k| tp.after(k, n))
        .find(|&q| !m.game.players[q].lost)
        .unwrap_or(tp.next(n));
    m.game.turn.number += 1;
    m.game.turn.active = next;
    let e = m.record(
        "refresh_step",
        format!("the turn passes to {}", player_name(next)),
        &[r::REFRESH, r::ALTERNATE_TURNS],
    );
    e.change("turn.player", player_name(tp), player_name(next));
    boss_end(e, boss, &[r::RAID_BOSS_END_NEXT]);
    m.then([Step::Begin(Phase::Start)]);
    Ok(Flow::Continue)
}

/// RAID:B⑤: the Boss's end phase runs as in a normal game (505): its
/// entries also cite the raid's line for each part.
fn boss_end(e: &mut crate::engine::TraceEntry, boss: bool, rules: &[&'static str]) {
    if boss {
        for rule in rules {
            e.rule(rule);
        }
    }
}

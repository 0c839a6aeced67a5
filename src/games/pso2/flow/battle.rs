//! The battle (506): the attack declaration (504.1.5), the battle-start
//! step and its cancellation (506.3), the attack-participation step
//! (506.4, ウォークライ until then, 506.4.2), the engagement step with
//! weapon declarations and 連撃 (506.5, 302.5), and the damage-resolution
//! step (506.6) with armor, 狙撃, 連続射撃 and 貫通X; then back to main.

use super::abilities::keyword;
use super::state::TurnLock;
use super::{
    Battle, Ctx, Entry, EntryKind, Foe, M, Step, Window, attack, ctype, damage, illegal, is_on, r,
    reading, reading_on, set_on, st, triggers, types, zn,
};
use crate::engine::{Action, CardId, EngineError, Event, PlayerId, player_name, texts};

fn gen_of(m: &M, id: &str) -> u32 {
    m.game.card(id).map_or(0, |c| c.incarnation)
}

/// The player card of `p`, if any.
fn player_card(m: &M, p: PlayerId) -> Option<CardId> {
    m.game
        .zone_of(p, zn::PLAYER)
        .iter()
        .find(|id| matches!(ctype(&m.game, id), types::PLAYER | types::BOSS))
        .cloned()
}

/// 504.1.5: the turn player declares an attack with an ON 味方; the battle
/// phase begins (504.1.5.1) with its battle-start step (506.3.1).
pub fn declare(m: &mut M, ctx: Ctx, a: &Action) -> Result<(), EngineError> {
    let p = ctx.holder;
    if ctx.window != Window::Main || p != m.game.turn.active || !ctx.stack.is_empty() {
        return Err(illegal(
            r::EMPTY_ZONE_ACTIONS,
            "an attack is declared only by the turn player in their main phase with nothing in the resolution zone",
            vec![],
        ));
    }
    let Some(att) = a.card.clone() else {
        return Err(super::bad(
            "`attack` needs the attacking card (a chara or the Player card)",
        ));
    };
    let ok_kind = m.game.card(&att).is_some_and(|c| {
        c.controller == p
            && ((c.zone.kind == zn::FIELD && ctype(&m.game, &att) == types::CHARA)
                || (c.zone.kind == zn::PLAYER
                    && matches!(ctype(&m.game, &att), types::PLAYER | types::BOSS)))
    });
    if !ok_kind {
        return Err(illegal(
            r::ATTACK_DECLARE,
            format!(
                "{att} is not a 味方 of {} (a chara on the field or the Player card)",
                player_name(p)
            ),
            vec![],
        ));
    }
    if !is_on(&m.game, &att) {
        return Err(illegal(
            r::ATTACK_ONLY_ON,
            format!("{att} is OFF: only an ON card declares an attack"),
            vec![],
        ));
    }
    if m.game.card(&att).is_some_and(|c| c.has(st::FROZEN)) {
        return Err(illegal(
            r::FREEZE,
            format!("{att} is frozen (フリーズ) and cannot declare an attack"),
            vec![],
        ));
    }
    if m.game.def_of(&att).is_none() {
        return Err(super::bad("unknown card"));
    }
    if let Some(src) = super::restrict::forbidding(
        &m.game,
        p,
        Some(&att),
        crate::engine::Restricted::Attack,
        None,
    ) {
        return Err(super::restrict::refuse(format!("{att} can't attack"), &src));
    }
    // Legal opposing targets (506.3.1, 301.10).
    let mut options: Vec<CardId> = Vec::new();
    let n = m.game.players.len();
    for q in
        PlayerId::all(n).filter(|&q| super::raid::opposed(&m.game, p, q) && !m.game.players[q].lost)
    {
        options.push(player_card(m, q).unwrap_or_else(|| "leader".into()));
        if !keyword(&m.game, &att, "erosion") {
            for id in m.game.zone_of(q, zn::FIELD) {
                let c = m.game.card(id);
                if ctype(&m.game, id) == types::CHARA && c.is_some_and(|c| !c.has(st::UNTARGETABLE))
                {
                    options.push(id.into());
                }
            }
        }
    }
    let given: Vec<String> = match (&a.target, m.choices.ids("targets", &options)?) {
        (Some(t), None) => vec![t.clone()],
        (None, Some(v)) => texts(&v),
        (Some(_), Some(_)) => {
            return Err(super::bad(
                "give the attack target either as `target` or as the choice `targets`, not both",
            ));
        }
        (None, None) => {
            return Err(EngineError::MissingChoice {
                choice: "target".into(),
                options: texts(&options),
            });
        }
    };
    let max = if keyword(&m.game, &att, "rapid_fire") {
        2
    } else {
        1
    };
    let mut uniq = given.clone();
    uniq.dedup();
    if uniq.is_empty() || uniq.len() > max {
        return Err(illegal(
            if max == 2 {
                r::RAPID_FIRE
            } else if super::abilities::lost(&m.game, &att)
                && m.game
                    .def_of(&att)
                    .is_some_and(|d| d.has_keyword("rapid_fire"))
            {
                // Its 連続射撃 is lost with its other abilities.
                r::LOSE_ABILITIES
            } else {
                r::BATTLE_START
            },
            format!(
                "{att} may choose {} attack target(s)",
                if max == 2 { "1 or 2" } else { "1" }
            ),
            texts(&options),
        ));
    }
    let mut foes = Vec::new();
    let mut generations = vec![(att.clone(), gen_of(m, &att))];
    for t in &uniq {
        if !options.iter().any(|c| c == t) && t != "leader" {
            // In the raid another party member's card is no 相手 (RAID:S9).
            let party_member = super::raid::on(&m.game)
                && m.game.card(t).is_some_and(|c| {
                    c.controller != p && !super::raid::opposed(&m.game, p, c.controller)
                });
            let rule = if keyword(&m.game, &att, "erosion") {
                r::EROSION
            } else if party_member {
                r::RAID_NOT_ALLY
            } else {
                r::OPPONENT_SIDE
            };
            return Err(illegal(
                rule,
                format!("{t} is not a legal attack target for {att}"),
                texts(&options),
            ));
        }
        if t == "leader" {
            let q = (1..n)
                .map(|k| p.after(k, n))
                .find(|&q| super::raid::opposed(&m.game, p, q))
                .unwrap_or(p.next(n));
            foes.push(Foe::Player(q));
            continue;
        }
        match m.game.card(t).filter(|_| ctype(&m.game, t) == types::CHARA) {
            Some(_) => {
                generations.push((t.clone().into(), gen_of(m, t)));
                foes.push(Foe::Card(t.clone().into()));
            }
            None => {
                let q = m
                    .game
                    .card(t)
                    .map(|c| c.controller)
                    .or_else(|| crate::engine::state::parse_player(t, n))
                    .ok_or_else(|| super::bad(format!("unknown target {t}")))?;
                foes.push(Foe::Player(q));
            }
        }
    }
    let mut rules = vec![
        r::ATTACK_DECLARE,
        r::ATTACK_TO_BATTLE,
        r::PRIORITY_ACTIONS,
        r::BATTLE_STEPS,
        r::BATTLE_START,
        r::ALLY,
        r::OPPONENT_SIDE,
        r::GL_ATTACK,
    ];
    if max == 2 {
        rules.push(r::RAPID_FIRE);
        rules.push(r::GL_RAPID_FIRE);
    }
    if keyword(&m.game, &att, "erosion") {
        rules.push(r::EROSION);
    }
    let _ = generations;
    start(m, ctx, &att, foes, rules)
}

/// The battle phase begins with `att` attacking `foes` (504.1.5.1): the
/// battle-start step, the turn player gets the right to act (506.3.1).
pub fn start(
    m: &mut M,
    mut ctx: Ctx,
    att: &str,
    foes: Vec<Foe>,
    rules: Vec<&'static str>,
) -> Result<(), EngineError> {
    let p = m.game.turn.active;
    let mut generations = vec![(CardId::from(att), gen_of(m, att))];
    for f in &foes {
        if let Foe::Card(id) = f {
            generations.push((id.clone(), gen_of(m, id)));
        }
    }
    let names: Vec<String> = foes
        .iter()
        .map(|f| match f {
            Foe::Card(id) => id.to_string(),
            Foe::Player(q) => player_name(*q),
        })
        .collect();
    m.game.turn.phase = "battle".into();
    let mut rules = rules;
    rules.push(r::BATTLE_START);
    m.record(
        "battle_start_step",
        format!(
            "{} declares an attack with {att} on {}; battle-start step",
            player_name(p),
            names.join(" and ")
        ),
        &rules,
    )
    .obj(att.to_string());
    ctx.window = Window::BattleStart;
    ctx.battle = Some(Battle {
        attacker: att.into(),
        side: p,
        targets: foes,
        generations,
        by_effect: false,
        from: Window::Main,
    });
    ctx.holder = p;
    ctx.passes = 0;
    m.then([Step::Priority(Box::new(ctx))]);
    Ok(())
}

/// Whether a 交戦する that has resolved (waiting in the module's state)
/// starts its battle now. Judges' reading: at once, 「交戦ステップに移行し」
/// (GL:交戦する), the entries left in the resolution zone waiting in it
/// and resolving in the battle's windows as players pass (103.6.1.7);
/// with `reading_engage_after_the_zone_empties`, once they have resolved.
pub fn engage_now(m: &mut M, ctx: &Ctx) -> bool {
    let waiting = super::state::read(&m.game).is_some_and(|s| !s.engage.is_empty());
    if !waiting || m.game.result != crate::engine::GameResult::Ongoing {
        return false;
    }
    if ctx.stack.is_empty() {
        return true;
    }
    let later = reading_on(&m.game, reading::ENGAGE_AFTER_THE_ZONE_EMPTIES);
    let e = m.record(
        "battle",
        format!(
            "{} entr{} left in the resolution zone: the engagement {}",
            ctx.stack.len(),
            if ctx.stack.len() == 1 {
                "y is"
            } else {
                "ies are"
            },
            if later {
                "waits until they have resolved"
            } else {
                "begins now; they wait in the zone and resolve in the battle's windows"
            }
        ),
        &[r::GL_ENGAGE, r::ENGAGE_EFFECT],
    );
    if later {
        e.note(format!(
            "reading `{}`: the battle 交戦する starts waits for the resolution zone to empty",
            reading::ENGAGE_AFTER_THE_ZONE_EMPTIES
        ));
    } else {
        e.note(format!(
            "judges' reading: 「交戦すると指示された場合、交戦ステップに移行し」 (GL:交戦する) moves to the engagement step at once; the entries left resolve there when every player passes (103.6.1.7) (option `{}`: the battle waits until they have resolved)",
            reading::ENGAGE_AFTER_THE_ZONE_EMPTIES
        ));
    }
    !later
}

/// A resolving 交戦する made `a` and `b` engage: their battle waits for
/// the resolution to finish ([`engage_now`]). One resolving while another
/// waits (possible only when battles wait for the zone to empty): the
/// rulebook says nothing; judges' reading: each instruction is carried
/// out, the battles one after the other in the order they resolved, the
/// later one beginning once the earlier has ended back in its phase with
/// the zone empty (option `reading_engage_latest_replaces_waiting`: the
/// later 交戦する takes the waiting one's place, which never happens).
pub fn engage_resolved(m: &mut M, a: CardId, b: CardId) {
    let waiting = super::state::read(&m.game).and_then(|s| s.engage.last().cloned());
    let replace = reading_on(&m.game, reading::ENGAGE_LATEST_REPLACES_WAITING);
    let e = m.record(
        "effect",
        format!("{a} and {b} are to engage (交戦する) once this resolves"),
        &[r::ENGAGE_EFFECT, r::GL_ENGAGE],
    );
    let Some((wa, wb)) = waiting else {
        super::state::of(&mut m.game).engage.push((a, b));
        return;
    };
    if replace {
        e.note(format!(
            "reading `{}`: this 交戦する takes the place of the one waiting ({wa} and {wb}), which never happens",
            reading::ENGAGE_LATEST_REPLACES_WAITING
        ));
        let s = super::state::of(&mut m.game);
        s.engage.pop();
        s.engage.push((a, b));
    } else {
        e.note(format!(
            "judges' reading: the 交戦する of {wa} and {wb} is still waiting and the rulebook says nothing of two; each instruction is carried out, this battle beginning after that one has ended (option `{}`: this one takes its place)",
            reading::ENGAGE_LATEST_REPLACES_WAITING
        ));
        super::state::of(&mut m.game).engage.push((a, b));
    }
}

/// The earliest waiting 交戦する, taken out of the queue.
pub fn next_engagement(m: &mut M) -> Option<(CardId, CardId)> {
    let q = &mut super::state::of(&mut m.game).engage;
    (!q.is_empty()).then(|| q.remove(0))
}

/// 506.5.2, GL:交戦する: after the effect that made `a` and `b` engage has
/// resolved, the battle runs from the engagement step with them engaged
/// and no attacker set; it ends when one leaves the field (506.5.3) or
/// after the damage-resolution step, back in the phase it came from (the
/// main phase, the turn-end step, a start phase's window: GL:交戦する
/// 「元のフェイズに戻ります」). Started during a battle, see
/// [`engage_during_battle`].
pub fn engage_by_effect(m: &mut M, mut ctx: Ctx, a: CardId, b: CardId) -> Result<(), EngineError> {
    let mut from = ctx.window;
    if let Some(running) = ctx.battle.clone() {
        if !engage_during_battle(m, &running, &a, &b) {
            m.then([Step::Priority(Box::new(ctx))]);
            return Ok(());
        }
        from = running.from;
        ctx.battle = None;
    }
    let on_field = |id: &str| {
        m.game.card(id).is_some_and(|c| c.zone.kind == zn::FIELD)
            && ctype(&m.game, id) == types::CHARA
    };
    if !on_field(&a) || !on_field(&b) {
        m.record(
            "battle",
            format!("{a} and {b} cannot engage: both must be charas on the field; nothing happens"),
            &[r::GL_ENGAGE, r::IMPOSSIBLE_IGNORED],
        );
        m.then([Step::Priority(Box::new(ctx))]);
        return Ok(());
    }
    m.game.turn.phase = "battle".into();
    m.record(
        "engagement_step",
        format!("{a} and {b} engage by an effect: the battle runs from the engagement step"),
        &[r::ENGAGE_EFFECT, r::GL_ENGAGE],
    )
    .note("no attacker and no attack target are set (GL:交戦する): 攻撃中 and what needs an attacker do not apply");
    let side = m.game.card(&a).map_or(m.game.turn.active, |c| c.controller);
    ctx.battle = Some(Battle {
        attacker: a.clone(),
        side,
        targets: vec![Foe::Card(b.clone())],
        generations: vec![(a.clone(), gen_of(m, &a)), (b.clone(), gen_of(m, &b))],
        by_effect: true,
        from,
    });
    ctx.passes = 0;
    engagement(m, ctx)
}

/// GL:交戦する during a running battle: the rulebook says only that the
/// game moves to the engagement step (「交戦ステップに移行し」). Judges'
/// reading: taken as written, the running battle ends where it is (its
/// attacker and targets stop fighting, no damage between them) and the
/// two cards engage from the engagement step, play returning afterwards
/// to the phase the running battle came from; `true`. Option
/// `reading_engage_in_battle_does_nothing`: a battle cannot begin inside
/// another, the 交戦する does nothing and the running battle goes on;
/// `false`.
fn engage_during_battle(m: &mut M, running: &Battle, a: &str, b: &str) -> bool {
    let was = format!(
        "{} against {}",
        running.attacker,
        running
            .targets
            .iter()
            .map(|f| match f {
                Foe::Player(q) => player_name(*q),
                Foe::Card(id) => id.to_string(),
            })
            .collect::<Vec<_>>()
            .join(" and ")
    );
    if reading_on(&m.game, reading::ENGAGE_IN_BATTLE_DOES_NOTHING) {
        m.record(
            "battle",
            format!("{a} and {b} are to engage during the battle of {was}: a battle cannot begin inside another, so nothing happens and the running battle goes on"),
            &[r::GL_ENGAGE, r::IMPOSSIBLE_IGNORED],
        )
        .note(format!(
            "reading `{}`: an effect's 交戦する during a battle does nothing",
            reading::ENGAGE_IN_BATTLE_DOES_NOTHING
        ));
        return false;
    }
    m.record(
        "battle",
        format!("{a} and {b} engage during the battle of {was}: that battle ends where it is, with no damage between its cards, and the engagement step begins with {a} and {b}"),
        &[r::GL_ENGAGE, r::ENGAGE_EFFECT],
    )
    .note(format!(
        "judges' reading: GL:交戦する moves to the engagement step (「交戦ステップに移行し」) and the rulebook says nothing of a battle already running, so the running battle gives way to the new one, which returns to the phase the running battle came from (option `{}`: the 交戦する does nothing and the running battle goes on)",
        reading::ENGAGE_IN_BATTLE_DOES_NOTHING
    ));
    // The running battle's cards stop attacking and fighting (506.6.3).
    end_battle_states(m);
    true
}

/// Whether a battle card is still the object it was (400.6) on the field.
fn present(m: &M, b: &Battle, id: &str) -> bool {
    let g = b.generations.iter().find(|(c, _)| c == id).map(|(_, g)| *g);
    m.game
        .card(id)
        .is_some_and(|c| Some(c.incarnation) == g && matches!(c.zone.kind, zn::FIELD | zn::PLAYER))
}

/// 506.3.2, 506.4.3, 506.5.3: the attacker or every target left the field
/// (or has no target after ウォークライ): the step ends, back to main.
pub fn cancelled(m: &mut M, ctx: &mut Ctx) -> bool {
    let rule = match ctx.window {
        Window::BattleStart => r::BATTLE_START_CANCEL,
        Window::Participation => r::PARTICIPATION_CANCEL,
        Window::Engagement => r::ENGAGEMENT_CANCEL,
        _ => return false,
    };
    let Some(b) = ctx.battle.clone() else {
        return false;
    };
    let attacker_here = present(m, &b, &b.attacker);
    let live: Vec<Foe> = b
        .targets
        .iter()
        .filter(|f| match f {
            Foe::Player(q) => !m.game.players[*q].lost,
            Foe::Card(id) => present(m, &b, id),
        })
        .cloned()
        .collect();
    let lost_one = !live.is_empty() && live.len() < b.targets.len();
    let ends_on_one =
        lost_one && reading_on(&m.game, reading::RAPID_FIRE_ENDS_WHEN_A_TARGET_LEAVES);
    if attacker_here && !live.is_empty() && !ends_on_one {
        if lost_one && let Some(bb) = ctx.battle.as_mut() {
            bb.targets = live;
            m.record(
                "battle",
                "one of the two attack targets left the field: the battle goes on with the other",
                &[rule, r::RAPID_FIRE],
            )
            .note(format!(
                "judges' reading: with two targets (連続射撃, one battle, 302.7) the battle ends only when no target is left (option `{}`: it ends when either leaves)",
                reading::RAPID_FIRE_ENDS_WHEN_A_TARGET_LEAVES
            ));
        }
        return false;
    }
    if ends_on_one {
        m.record(
            "battle",
            "one of the two attack targets left the field: the battle ends",
            &[rule, r::RAPID_FIRE],
        )
        .note(format!(
            "reading `{}`: a 連続射撃 battle ends as soon as one of its targets is gone",
            reading::RAPID_FIRE_ENDS_WHEN_A_TARGET_LEAVES
        ));
    }
    let who = if attacker_here {
        "the attack target"
    } else {
        "the attacker"
    };
    let off = reading_on(&m.game, reading::CANCELLED_ATTACKER_OFF);
    let back_to = super::priority::window_name(b.from);
    let e = m.record(
        "battle",
        format!("{who} left the field or is gone: the step ends at once and play returns to the {back_to}"),
        &[rule],
    );
    if ctx.window == Window::BattleStart {
        // The note states the reading the run applies: the default, or the
        // option the scenario chose.
        e.note(if off {
            format!(
                "reading `{}`: cancelled in the battle-start step, the attacker becomes OFF (215.1.3)",
                reading::CANCELLED_ATTACKER_OFF
            )
        } else {
            format!(
                "judges' reading: cancelled in the battle-start step, the attacker was never turned OFF (506.4.1 did not happen; option `{}`: it becomes OFF, 215.1.3)",
                reading::CANCELLED_ATTACKER_OFF
            )
        });
        if attacker_here && off {
            set_on(m, &b.attacker, false);
        }
    }
    end_battle_states(m);
    return_from_battle(m, ctx);
    true
}

/// The phase name of the window a battle returns to.
fn phase_of(w: Window) -> &'static str {
    match w {
        Window::TurnEnd => "turn_end",
        Window::Rule(_) => "start",
        _ => "main",
    }
}

/// Ends the battle of `ctx`: play returns to the window it came from, the
/// turn player holding the right to act.
fn return_from_battle(m: &mut M, ctx: &mut Ctx) {
    let from = ctx.battle.as_ref().map_or(Window::Main, |b| b.from);
    m.game.turn.phase = phase_of(from).into();
    ctx.window = from;
    ctx.battle = None;
    ctx.holder = m.game.turn.active;
    ctx.passes = 0;
}

fn end_battle_states(m: &mut M) {
    for c in m.game.cards.values_mut() {
        c.states.remove(st::ATTACKING);
        c.states.remove(st::ENGAGED);
        c.states.remove(st::IN_USE);
    }
}

/// 506.6.3: the engagement ends and the attacker stops attacking, unless
/// the reading keeps 攻撃中 until the return to main (506.4.1.1).
fn end_engagement(m: &mut M) {
    let keep = reading_on(&m.game, reading::ATTACKING_UNTIL_MAIN);
    for c in m.game.cards.values_mut() {
        if !keep {
            c.states.remove(st::ATTACKING);
        }
        c.states.remove(st::ENGAGED);
        c.states.remove(st::IN_USE);
    }
}

/// 506.4.1: the attacker becomes OFF and 攻撃中.
pub fn participation(m: &mut M, mut ctx: Ctx) -> Result<(), EngineError> {
    let Some(b) = ctx.battle.clone() else {
        return Ok(());
    };
    m.record(
        "attack_participation_step",
        format!("{} becomes OFF and attacking", b.attacker),
        &[r::ATTACK_PARTICIPATION, r::BECOMES_OFF, r::ATTACKING_LASTS],
    );
    set_on(m, &b.attacker, false);
    if let Some(c) = m.game.cards.get_mut(&b.attacker) {
        c.states.insert(st::ATTACKING.into());
    }
    m.game.events.push(Event::Attacked {
        card: b.attacker.clone(),
    });
    ctx.window = Window::Participation;
    m.then([Step::Priority(Box::new(ctx))]);
    Ok(())
}

/// 506.5: engagement, weapon declarations (turn player first, 506.5.2@2),
/// 連撃 (302.5.1), then the turn player gets the right to act.
pub fn engagement(m: &mut M, mut ctx: Ctx) -> Result<(), EngineError> {
    let Some(b) = ctx.battle.clone() else {
        return Ok(());
    };
    let mut engaged = vec![b.attacker.clone()];
    for f in &b.targets {
        match f {
            Foe::Card(id) => engaged.push(id.clone()),
            Foe::Player(q) => {
                if let Some(pc) = player_card(m, *q) {
                    engaged.push(pc);
                }
            }
        }
    }
    for id in &engaged {
        if let Some(c) = m.game.cards.get_mut(id) {
            c.states.insert(st::ENGAGED.into());
        }
    }
    m.record(
        "engagement_step",
        format!("{} engaged: the battle is certain", engaged.join(" and ")),
        &[r::ENGAGEMENT],
    );
    // Weapons: the turn player's declarations first.
    let tp = m.game.turn.active;
    let mut order = engaged.clone();
    order.sort_by_key(|id| {
        m.game
            .card(id)
            .map_or(1, |c| usize::from(c.controller != tp))
    });
    for id in &order {
        let weapons: Vec<CardId> = m
            .game
            .cards
            .values()
            .filter(|w| {
                w.attached_to.as_deref() == Some(id.as_str())
                    && ctype(&m.game, &w.id) == types::WEAPON
                    && w.has(st::ON)
            })
            .map(|w| w.id.clone())
            .collect();
        if weapons.is_empty() {
            continue;
        }
        let key = format!("weapon.{id}");
        let boss = m
            .game
            .card(id)
            .is_some_and(|c| super::raid::is_boss(&m.game, c.controller));
        let used = if boss {
            super::raid_equip::weapon(m, id, &weapons)?
        } else {
            m.choices.default_not_one_of(&key, &weapons);
            m.choices.one_id(&key, &weapons)?
        };
        if let Some(w) = used {
            m.record(
                "engagement_step",
                format!("{w} is used: it becomes OFF and adds its attack to {id} while engaged (rule processing)"),
                &[r::WEAPON_DECLARATION, r::WEAPON, r::WEAPON_RULE, r::BECOMES_OFF],
            );
            set_on(m, &w, false);
            if let Some(c) = m.game.cards.get_mut(&w) {
                c.states.insert(st::IN_USE.into());
            }
        }
    }
    for id in &engaged {
        m.game.events.push(Event::Fought {
            a: id.clone(),
            b: b.attacker.clone(),
        });
    }
    let mut extra = Vec::new();
    let vs_player = b
        .targets
        .iter()
        .any(|f| matches!(f, Foe::Player(q) if *q != b.side));
    let double = keyword(&m.game, &b.attacker, "double_attack");
    if double && !vs_player {
        m.record(
            "trigger",
            format!(
                "連撃 of {} does not trigger: it is engaged with a chara, not the opponent's player",
                b.attacker
            ),
            &[r::DOUBLE_ATTACK, r::DOUBLE_ATTACK_TIMING],
        );
    }
    if vs_player && double {
        let key = TurnLock::DoubleAttack(b.attacker.clone(), gen_of(m, &b.attacker));
        if super::state::lock(&mut m.game, key) {
            m.record(
                "trigger",
                format!("連撃 of {} was already used this turn", b.attacker),
                &[r::DOUBLE_ATTACK],
            );
        } else {
            m.record(
                "trigger",
                format!(
                    "{} is engaged with the opponent's player: 連撃 triggers",
                    b.attacker
                ),
                &[r::DOUBLE_ATTACK, r::DOUBLE_ATTACK_TIMING],
            );
            extra.push(Entry {
                kind: EntryKind::DoubleAttack(b.attacker.clone()),
                master: b.side,
                targets: vec![],
            });
        }
    }
    triggers::place(m, &mut ctx, extra)?;
    ctx.window = Window::Engagement;
    ctx.holder = tp;
    m.then([Step::Priority(Box::new(ctx))]);
    Ok(())
}

/// 506.6: the engaged cards deal damage to each other at once (212.2).
pub fn damage_step(m: &mut M, mut ctx: Ctx) -> Result<(), EngineError> {
    let Some(b) = ctx.battle.clone() else {
        return Ok(());
    };
    m.record(
        "damage_resolution_step",
        "the engaged cards deal damage to each other at once",
        &[
            r::DAMAGE_STEP,
            r::BATTLE_BOTH_DEAL,
            r::WEAPON_BONUS,
            r::DAMAGE_ASSIGNED,
        ],
    );
    let a_attack = m.game.card(&b.attacker).map_or(0, |c| attack(&m.game, c));
    // Every amount is fixed before any is dealt (simultaneous).
    let mut back: Vec<(String, i64)> = Vec::new();
    for f in &b.targets {
        match f {
            Foe::Card(id) => {
                let v = m.game.card(id).map_or(0, |c| attack(&m.game, c));
                back.push((id.to_string(), v));
            }
            Foe::Player(q) => {
                let pc = player_card(m, *q);
                let v = pc
                    .as_ref()
                    .and_then(|id| m.game.card(id))
                    .map_or(0, |c| attack(&m.game, c));
                back.push((pc.map_or_else(|| player_name(*q), String::from), v));
            }
        }
    }
    let pierce = m
        .game
        .def_of(&b.attacker)
        .filter(|_| !b.by_effect && keyword(&m.game, &b.attacker, "pierce"))
        .map(|d| d.stats.get("pierce").copied().unwrap_or(0));
    let mut extra = Vec::new();
    if a_attack <= 0 {
        // 212.1.1: no printed attack is 0, and 0 deals no damage.
        m.record(
            "damage_resolution_step",
            format!(
                "{} has attack {a_attack}: it deals no battle damage",
                b.attacker
            ),
            &[r::BATTLE_BOTH_DEAL, r::ATTACK_BLANK],
        );
    }
    for f in &b.targets {
        match f {
            Foe::Card(id) => {
                let controller = m.game.card(id).map_or(PlayerId::P1, |c| c.controller);
                let died = damage::to_card(m, id, a_attack, &b.attacker, damage::Kind::Battle)?;
                if !died && let Some(x) = pierce {
                    m.record(
                        "trigger",
                        format!(
                            "貫通{x} of {} does not trigger: {id} was not destroyed by the attack",
                            b.attacker
                        ),
                        &[r::GL_PIERCE],
                    );
                }
                if died && let Some(x) = pierce {
                    m.record(
                        "trigger",
                        format!(
                            "{} destroyed {id} by attacking: 貫通{x} triggers",
                            b.attacker
                        ),
                        &[r::GL_PIERCE],
                    );
                    extra.push(Entry {
                        kind: EntryKind::Pierce {
                            card: b.attacker.clone(),
                            player: controller,
                            amount: x,
                        },
                        master: b.side,
                        targets: vec![],
                    });
                }
            }
            Foe::Player(q) => {
                m.record(
                    "damage_resolution_step",
                    format!(
                        "{} deals {a_attack} battle damage to {}",
                        b.attacker,
                        player_name(*q)
                    ),
                    &[r::BATTLE_DAMAGE, r::GL_BATTLE_DAMAGE, r::PLAYER_MILL],
                );
                damage::to_player(m, *q, a_attack);
            }
        }
    }
    for (from, v) in back {
        if v <= 0 {
            m.record(
                "damage_resolution_step",
                format!("{from} has attack {v}: it deals no damage back"),
                &[r::BATTLE_BOTH_DEAL, r::ATTACK_BLANK],
            );
            continue;
        }
        damage::to_card(m, &b.attacker, v, &from, damage::Kind::Battle)?;
    }
    triggers::place(m, &mut ctx, extra)?;
    let mut c2 = ctx.clone();
    triggers::collect(m, &mut c2)?;
    ctx = c2;
    end_engagement(m);
    if reading_on(&m.game, reading::ATTACKING_UNTIL_MAIN) {
        m.record(
            "damage_resolution_step",
            "abilities triggered by the damage go to the zone; the engagement ends and the attacker is still attacking; the turn player gets the right to act",
            &[r::DAMAGE_STEP_END],
        )
        .note(format!(
            "reading `{}`: 攻撃中 lasts until play returns to the main phase (506.4.1.1)",
            reading::ATTACKING_UNTIL_MAIN
        ));
    } else {
        m.record(
            "damage_resolution_step",
            "abilities triggered by the damage go to the zone; the engagement ends and the attacker is no longer attacking; the turn player gets the right to act",
            &[r::DAMAGE_STEP_END],
        )
        .note(format!(
            "judges' reading: 攻撃中 ends here (506.6.3), before the return to main that 506.4.1.1 names (option `{}`)",
            reading::ATTACKING_UNTIL_MAIN
        ));
    }
    ctx.window = Window::Damage;
    ctx.holder = m.game.turn.active;
    ctx.passes = 0;
    m.then([Step::Priority(Box::new(ctx))]);
    Ok(())
}

/// 506.6.4: back to the main phase; a battle 交戦する started elsewhere
/// goes back to the phase it came from (GL:交戦する).
pub fn back_to_main(m: &mut M, mut ctx: Ctx) {
    end_battle_states(m);
    let from = ctx.battle.as_ref().map_or(Window::Main, |b| b.from);
    if from == Window::Main {
        m.record(
            "battle",
            "the battle phase ends: back to the main phase",
            &[r::BACK_TO_MAIN],
        );
    } else {
        m.record(
            "battle",
            format!(
                "the battle 交戦する started ends: back to the {} it came from",
                super::priority::window_name(from)
            ),
            &[r::GL_ENGAGE],
        );
    }
    return_from_battle(m, &mut ctx);
    m.then([Step::Priority(Box::new(ctx))]);
}

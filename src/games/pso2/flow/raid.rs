//! The cooperative raid battle (協力レイドバトル): several party players
//! against the 《ボス》 (RAID:P1), seated last (RAID:F2) and marked by the
//! player flag `raid_boss`; the difficulty is a flag on the Boss's seat
//! (`raid_easy`, `raid_hard`, `raid_very_hard`; none = Normal, RAID:F1).
//! The Boss's Life is the seat's value `life` (RAID:F3).
//!
//! The Boss never decides: on its turn it runs the boss-turn procedure
//! (RAID:B①–⑤) and it passes whenever it would hold the right to act;
//! ambiguous choices of boss cards are the party's (RAID:S10), given as the
//! action's choices.

use super::{Ctx, Foe, M, Phase, Step, Window, battle, ctype, is_on, moves, r, st, types, zn};
use std::collections::BTreeMap;

use crate::engine::{CardId, EngineError, Flow, Game, GameResult, PlayerId, ZoneId, player_name};

/// The most seats a scenario may have: three party players and the Boss.
pub const MAX_SEATS: usize = 4;

/// The raid's part of the module's state ([`super::state::Pso2State`]).
#[derive(Debug, Clone, Default)]
pub struct RaidState {
    /// The boss turn's target player (RAID:B①).
    pub target: PlayerId,
    /// Cards the Boss still plays this turn (RAID:B③).
    pub plays: i64,
    /// The Boss side's attackers still to attack, in order (RAID:B④);
    /// `None` until the battle phase lines them up.
    pub queue: Option<Vec<CardId>>,
    /// Entry order of the Boss's charas.
    pub entries: BTreeMap<CardId, u64>,
    /// Order in which the Boss's charas were put in the back row.
    pub back_order: BTreeMap<CardId, u64>,
    /// The last entry number given.
    pub seq: u64,
    /// Easy's Half Doll has been used (RAID:F1).
    pub half_doll_used: bool,
    /// The turn player was eliminated during their own turn (RAID:F5).
    pub to_end: bool,
    /// Boss actives played outside its main phase (RAID:S4), waiting to go
    /// into the resolution zone with the next triggered abilities.
    pub pending: Vec<super::Entry>,
}

fn state(g: &mut Game) -> &mut RaidState {
    &mut super::state::of(g).raid
}

/// Whether the turn player was eliminated during their own turn, clearing
/// the mark (RAID:F5: straight to the end phase).
fn take_to_end(g: &mut Game) -> bool {
    on(g) && std::mem::take(&mut state(g).to_end)
}

/// RAID:F5: when the turn player was eliminated during their own turn, the
/// game moves straight to that turn's end phase, whatever phase or step it
/// is in (the draw phase's draw may be what emptied the deck). Returns
/// whether it did.
pub fn straight_to_end(m: &mut M) -> bool {
    if !take_to_end(&mut m.game) {
        return false;
    }
    m.record(
        "raid",
        "the turn player was eliminated during their own turn: straight to the end phase",
        &[r::RAID_ELIMINATION],
    );
    m.then([Step::Begin(Phase::TurnEnd)]);
    true
}

/// Remembers when a Boss chara is put in the back row (RAID:B④ orders
/// the back row by it).
pub fn moved_back(g: &mut Game, id: &str) {
    let Some(b) = boss(g) else { return };
    if g.card(id).is_none_or(|c| c.controller != b) {
        return;
    }
    let st = state(g);
    st.seq += 1;
    let seq = st.seq;
    st.back_order.insert(id.into(), seq);
}

/// Player flags of the raid.
pub mod flag {
    pub const BOSS: &str = "raid_boss";
    pub const EASY: &str = "raid_easy";
    pub const HARD: &str = "raid_hard";
    pub const VERY_HARD: &str = "raid_very_hard";
}

/// The Boss's seat, in a raid.
pub fn boss(g: &Game) -> Option<PlayerId> {
    g.players
        .iter()
        .position(|p| p.flags.contains(flag::BOSS))
        .map(PlayerId)
}

/// Whether the game is a raid battle.
pub fn on(g: &Game) -> bool {
    boss(g).is_some()
}

fn boss_flag(g: &Game, f: &str) -> bool {
    boss(g).is_some_and(|b| g.players[b].flags.contains(f))
}

/// Whether two players are on opposite sides: the party against the Boss
/// in a raid (other party members are not 味方, but not 相手 either:
/// RAID:S9), any two players otherwise.
pub fn opposed(g: &Game, a: PlayerId, b: PlayerId) -> bool {
    match boss(g) {
        Some(x) => (a == x) != (b == x),
        None => a != b,
    }
}

/// Whether `p` is the Boss.
pub fn is_boss(g: &Game, p: PlayerId) -> bool {
    boss(g) == Some(p)
}

/// The party players who joined the game (eliminated ones included,
/// RAID:F5).
fn party(g: &Game) -> Vec<PlayerId> {
    g.player_ids().filter(|&p| !is_boss(g, p)).collect()
}

/// The first player draws on turn 1 in Easy (RAID:F1), where the rule is
/// printed; under `reading_raid_first_turn_draw_any_difficulty` in every
/// raid ("レイドバトルでのみ" read as a rule of all raids).
pub fn first_turn_draw(g: &Game) -> bool {
    boss_flag(g, flag::EASY)
        || (on(g) && super::reading_on(g, super::reading::RAID_FIRST_TURN_DRAW_ANY_DIFFICULTY))
}

/// Damage to the Boss reduces its Life instead of milling (RAID:F3).
pub fn damage_boss(m: &mut M, amount: i64) {
    let Some(b) = boss(&m.game) else { return };
    let before = m.game.value(b, "life");
    let after = before - amount.max(0);
    m.game.set_value(b, "life", after);
    m.record(
        "raid",
        format!("the Boss takes {amount} damage: its Life goes down (its deck is not milled)"),
        &[r::RAID_LIFE],
    )
    .change(format!("{}.life", player_name(b)), before, after);
}

/// Rule checks of the raid, instead of 101.3/101.7: Boss Life 0 wins for
/// the party; a party deck at 0 eliminates its player and removes all their
/// cards from the game (RAID:F5, S11), or in Easy the first time reshuffles
/// their discard (Half Doll); every party player eliminated loses; an empty
/// Boss deck is refilled from its discard at once (RAID:S8).
pub fn checks(m: &mut M) {
    let Some(b) = boss(&m.game) else { return };
    if m.game.value(b, "life") <= 0 {
        let winners: Vec<String> = party(&m.game).into_iter().map(player_name).collect();
        m.record(
            "raid",
            format!(
                "the Boss's Life is 0: the party ({}) wins; the result names its first player",
                winners.join(", ")
            ),
            &[r::RAID_WIN_LOSE, r::GAME_ENDS],
        );
        m.game.players[b].lost = true;
        let result = GameResult::Win(winners.first().cloned().unwrap_or_default());
        let who = format!("the party ({})", winners.join(", "));
        super::end::record(m, result, Some(who), &[r::RAID_WIN_LOSE, r::RAID_LIFE]);
        return;
    }
    if m.game.zone_of(b, zn::DECK).is_empty() && !m.game.zone_of(b, zn::DISCARD).is_empty() {
        let mut v = m.game.zone_of(b, zn::DISCARD).to_vec();
        m.game.rng.shuffle(&mut v);
        for id in &v {
            m.game.move_card(id, ZoneId::of(b, zn::DECK), false);
        }
        m.record(
            "raid",
            format!("the Boss's deck is empty: its discard ({} cards) is shuffled into a new deck at once", v.len()),
            &[r::RAID_BOSS_RESHUFFLE],
        );
    }
    let zero: Vec<PlayerId> = party(&m.game)
        .into_iter()
        .filter(|&p| !m.game.players[p].lost && m.game.zone_of(p, zn::DECK).is_empty())
        .collect();
    let dolls = half_dolls(m, &zero);
    for p in zero {
        if dolls.contains(&p) {
            let mut v = m.game.zone_of(p, zn::DISCARD).to_vec();
            m.game.rng.shuffle(&mut v);
            for id in &v {
                m.game.move_card(id, ZoneId::of(p, zn::DECK), false);
            }
            m.record(
                "raid",
                format!("{}'s deck is 0: in Easy {} uses a Half Doll, shuffling their discard ({} card(s)) into a new deck", player_name(p), player_name(p), v.len()),
                &[r::RAID_DIFFICULTY],
            );
            if !v.is_empty() {
                continue;
            }
            // The new deck has no cards: the deck is still 0 (RAID:F5).
        }
        m.record(
            "raid",
            format!(
                "{}'s deck is 0: {} is eliminated and all their cards are removed from the game",
                player_name(p),
                player_name(p)
            ),
            &[r::RAID_ELIMINATION, r::RAID_S_ELIMINATION],
        );
        m.game.players[p].lost = true;
        let theirs: Vec<CardId> = m
            .game
            .cards
            .values()
            .filter(|c| c.owner == p && c.zone.kind != zn::EXCLUDED)
            .map(|c| c.id.clone())
            .collect();
        for id in theirs {
            m.game.move_card(&id, ZoneId::of(p, zn::EXCLUDED), false);
        }
        // Straight to the end phase, unless the turn is in it already: the
        // end phase goes on and does not begin again.
        let in_end = matches!(m.game.turn.phase.as_str(), "turn_end" | "refresh");
        if m.game.turn.active == p && !in_end {
            state(&mut m.game).to_end = true;
        } else if m.game.turn.active == p {
            m.record(
                "raid",
                format!("{} was eliminated during their own turn, which is already in its end phase: the end phase goes on (it does not begin again)", player_name(p)),
                &[r::RAID_S_ELIMINATION],
            );
        }
    }
    if party(&m.game).iter().all(|&p| m.game.players[p].lost) {
        m.record(
            "raid",
            "every party player's deck is 0: the party loses",
            &[r::RAID_WIN_LOSE, r::GAME_ENDS],
        );
        let who = format!("the Boss ({})", player_name(b));
        let deciding = [r::RAID_WIN_LOSE, r::RAID_ELIMINATION];
        super::end::record(m, GameResult::Win(player_name(b)), Some(who), &deciding);
    }
}

/// RAID:F1: who of the party players whose decks are 0 at this check
/// uses Easy's Half Doll. 「最初にデッキが0になったプレイヤー」 names one
/// player; when several reach 0 at the same check none is first, and the
/// text is silent: the judges' reading gives it to the first of them in
/// seat order (the party's turn order, RAID:F2); the option
/// `reading_raid_half_doll_each_at_once` gives it to each of them.
fn half_dolls(m: &mut M, zero: &[PlayerId]) -> Vec<PlayerId> {
    if zero.is_empty() || !boss_flag(&m.game, flag::EASY) || state(&mut m.game).half_doll_used {
        return Vec::new();
    }
    state(&mut m.game).half_doll_used = true;
    if zero.len() == 1 {
        return zero.to_vec();
    }
    let names = zero
        .iter()
        .map(|&p| player_name(p))
        .collect::<Vec<_>>()
        .join(" and ");
    let option = super::reading::RAID_HALF_DOLL_EACH_AT_ONCE;
    if super::reading_on(&m.game, option) {
        m.record(
            "raid",
            format!("the decks of {names} reach 0 at the same check: under the reading `{option}` each of them is the first and uses a Half Doll"),
            &[r::RAID_DIFFICULTY],
        );
        return zero.to_vec();
    }
    m.record(
        "raid",
        format!("the decks of {names} reach 0 at the same check: the Half Doll goes to the first of them in seat order, {}", player_name(zero[0])),
        &[r::RAID_DIFFICULTY],
    )
    .note(format!(
        "judges' reading: RAID:F1 names one player (「最初に」) and is silent on decks reaching 0 at once; seat order (the party's turn order, RAID:F2) decides (option `{option}`: each of them uses one)"
    ));
    vec![zero[0]]
}

/// Whether `id` is a card of the Boss side printing no cost: it is a cost-0
/// card (RAID:S7), for cost bounds and every read of its cost.
pub fn costless_boss_card(g: &Game, id: &str) -> bool {
    on(g)
        && g.card(id).is_some_and(|c| is_boss(g, c.owner))
        && g.def_of(id).is_some_and(|d| d.cost.is_none())
}

/// The boss turn's target player (RAID:B①).
pub fn target_player(g: &Game) -> PlayerId {
    super::state::read(g).map_or(PlayerId(0), |s| s.raid.target)
}

/// ① the target phase: the turn's target player, chosen at random among
/// the party players still in the game (RAID:B①).
pub fn target_phase(m: &mut M) {
    let live: Vec<PlayerId> = party(&m.game)
        .into_iter()
        .filter(|&p| !m.game.players[p].lost)
        .collect();
    if live.is_empty() {
        return;
    }
    let t = live[m.game.rng.below(live.len() as u64) as usize];
    state(&mut m.game).target = t;
    let joined = party(&m.game).len() as i64;
    let out: Vec<String> = party(&m.game)
        .into_iter()
        .filter(|&p| m.game.players[p].lost)
        .map(player_name)
        .collect();
    if !out.is_empty() {
        m.record(
            "boss_turn",
            format!(
                "{} eliminated, still counted among the cards the Boss plays: {joined} (one per party player who joined)",
                out.join(", ")
            ),
            &[r::RAID_S_ELIMINATION, r::RAID_BOSS_MAIN],
        );
    }
    let extra = i64::from(boss_flag(&m.game, flag::VERY_HARD));
    let st = state(&mut m.game);
    st.plays = joined + extra;
    st.queue = None;
    m.record(
        "boss_turn",
        format!(
            "target phase: the target player is {} (chosen at random, seeded)",
            player_name(t)
        ),
        &[r::RAID_BOSS_TURN],
    );
}

/// The Boss acts when it would hold the right to act: in its main phase
/// with an empty zone it plays the top cards of its deck one by one
/// (RAID:B③), then attacks in order (RAID:B④), then moves to the end
/// phase; otherwise it passes.
pub fn boss_act(m: &mut M, ctx: Ctx) -> Result<Flow, EngineError> {
    let b = ctx.holder;
    let own_turn = m.game.turn.active == b;
    if !(own_turn && ctx.window == Window::Main && ctx.stack.is_empty()) {
        m.record(
            "raid",
            "the Boss passes (it never uses the right to act)",
            &[r::RAID_BOSS_TURN],
        );
        return super::priority::pass(m, ctx).map(|()| Flow::Continue);
    }
    if state(&mut m.game).plays > 0 {
        state(&mut m.game).plays -= 1;
        return play_top(m, ctx);
    }
    if state(&mut m.game).queue.is_none() {
        queue_attacks(m, b);
    }
    let next = next_attacker(m);
    if let Some(att) = next {
        let present = m
            .game
            .card(&att)
            .is_some_and(|c| matches!(c.zone.kind, zn::FIELD | zn::PLAYER));
        let unable = !present
            || !is_on(&m.game, &att)
            || m.game.card(&att).is_some_and(|c| c.has(st::FROZEN));
        // 103.1.2: a 《できない》 effect wins over the Boss's attack order.
        let forbidden = super::restrict::forbidding(
            &m.game,
            b,
            Some(&att),
            crate::engine::Restricted::Attack,
            None,
        );
        let why = match (unable, forbidden) {
            (true, _) => Some(("it is gone, OFF or frozen".to_string(), r::ATTACK_ONLY_ON)),
            (false, Some(src)) => Some((
                format!("{src}'s 《できない》 effect forbids it"),
                r::CONFLICT_ORDER,
            )),
            (false, None) => None,
        };
        if let Some((why, rule)) = why {
            m.record(
                "boss_turn",
                format!("{att} does not attack: {why}"),
                &[rule, r::RAID_BOSS_TURN],
            );
            m.then([Step::Priority(Box::new(ctx))]);
            return Ok(Flow::Continue);
        }
        let Some(t) = attack_target(m, &att) else {
            m.then([Step::Priority(Box::new(ctx))]);
            return Ok(Flow::Continue);
        };
        battle::start(
            m,
            ctx,
            &att,
            vec![Foe::Player(t)],
            vec![r::RAID_BOSS_BATTLE],
        )?;
        return Ok(Flow::Continue);
    }
    m.record(
        "boss_turn",
        "the Boss's attacks are over: to the end phase",
        &[r::RAID_BOSS_TURN],
    );
    m.then([Step::Begin(Phase::TurnEnd)]);
    Ok(Flow::Continue)
}

/// The player `att` attacks (RAID:B④: the target player). The rulebook is
/// silent on a target player eliminated (RAID:F5) before the Boss side's
/// attacks are over: the judges' reading keeps the turn's one target
/// player, so the attacks left have no target and are not made; the
/// option `reading_raid_new_target_when_eliminated` chooses a new target
/// player at random among the party players left, as in RAID:B①.
fn attack_target(m: &mut M, att: &str) -> Option<PlayerId> {
    let t = state(&mut m.game).target;
    if !m.game.players[t].lost {
        return Some(t);
    }
    let option = super::reading::RAID_NEW_TARGET_WHEN_ELIMINATED;
    let live: Vec<PlayerId> = party(&m.game)
        .into_iter()
        .filter(|&p| !m.game.players[p].lost)
        .collect();
    if super::reading_on(&m.game, option) && !live.is_empty() {
        let n = live[m.game.rng.below(live.len() as u64) as usize];
        state(&mut m.game).target = n;
        m.record(
            "boss_turn",
            format!("the target player {} is eliminated: under the reading `{option}` the new target player is {} (chosen at random, seeded)", player_name(t), player_name(n)),
            &[r::RAID_BOSS_TURN, r::RAID_ELIMINATION],
        );
        return Some(n);
    }
    // Said once for every attacker left: the queue empties here.
    let mut left = vec![CardId::from(att)];
    if let Some(q) = state(&mut m.game).queue.as_mut() {
        left.extend(q.drain(..).filter(|c| c.as_ref() != att));
    }
    let left: Vec<&str> = left.iter().map(|c| c.as_ref()).collect();
    m.record(
        "boss_turn",
        format!(
            "{} {} not attack: the target player {} is eliminated and the Boss side attacks no one else",
            left.join(", "),
            if left.len() == 1 { "does" } else { "do" },
            player_name(t)
        ),
        &[r::RAID_BOSS_BATTLE, r::RAID_ELIMINATION],
    )
    .note(format!(
        "judges' reading: RAID:B① sets one target player for the turn and RAID:B④ is silent once that player is eliminated; the attacks left are not made (option `{option}`: a new target player is chosen at random among the party players left)"
    ));
    None
}

/// RAID:S4: an effect that makes the Boss draw `n` cards makes it play
/// that many cards from the top of its deck instead. In the Boss's own
/// main phase they join the cards it plays there (RAID:B③), one by one
/// as the resolution zone empties. Elsewhere (another phase, another
/// player's turn) they are played at once, in order from the top, as the
/// draw would have happened: a chara or an item enters the field, an
/// active goes into the resolution zone with the next triggered
/// abilities, before anyone gets the right to act.
pub fn boss_draws(m: &mut M, b: PlayerId, n: i64) -> Result<(), EngineError> {
    let n = n.max(0);
    let at_once = super::reading_on(&m.game, super::reading::BOSS_MAIN_DRAW_PLAYS_AT_ONCE);
    let in_main = m.game.turn.active == b && m.game.turn.phase == "main";
    if in_main && !at_once {
        state(&mut m.game).plays += n;
        m.record(
            "raid",
            format!("the Boss would draw {n}: instead it plays {n} card(s) from the top of its deck, one by one in its main phase"),
            &[r::RAID_BOSS_DRAW, r::RAID_BOSS_MAIN],
        )
        .note(format!("judges' reading: the cards are played the way the Boss plays cards in its main phase (RAID:B③), each once the resolution zone is empty (option `{}`: all at once, as outside the main phase)", super::reading::BOSS_MAIN_DRAW_PLAYS_AT_ONCE));
        return Ok(());
    }
    let e = m.record(
        "raid",
        format!(
            "the Boss would draw {n}{}: instead it plays {n} card(s) from the top of its deck at once",
            if in_main { "" } else { " outside its main phase" }
        ),
        &[r::RAID_BOSS_DRAW],
    );
    if in_main {
        e.note(format!(
            "reading `{}`: in its main phase too the cards are played at once",
            super::reading::BOSS_MAIN_DRAW_PLAYS_AT_ONCE
        ));
    }
    let mut left = n;
    while left > 0 {
        let Some(top) = m.game.zone_of(b, zn::DECK).first().cloned() else {
            break;
        };
        match play_card(m, b, &top, "instead of a draw")? {
            Played::Entry(entry) => state(&mut m.game).pending.push(entry),
            Played::NotCounted => continue,
            Played::Entered => {}
        }
        left -= 1;
    }
    Ok(())
}

/// Puts the Boss actives played outside its main phase (RAID:S4) into the
/// resolution zone; returns how many.
pub fn place_pending(m: &mut M, ctx: &mut Ctx) -> usize {
    if !on(&m.game) {
        return 0;
    }
    let pending = std::mem::take(&mut state(&mut m.game).pending);
    let n = pending.len();
    for e in pending {
        if let super::EntryKind::Card(id) = &e.kind {
            m.record(
                "raid",
                format!("the Boss's active {id}, played instead of a draw, goes into the resolution zone"),
                &[r::RAID_BOSS_DRAW, r::RAID_BOSS_MAIN],
            );
        }
        ctx.stack.push(e);
    }
    n
}

/// RAID:B③: the top card of the Boss deck is played in its main phase.
fn play_top(m: &mut M, mut ctx: Ctx) -> Result<Flow, EngineError> {
    let b = ctx.holder;
    let Some(top) = m.game.zone_of(b, zn::DECK).first().cloned() else {
        m.then([Step::Priority(Box::new(ctx))]);
        return Ok(Flow::Continue);
    };
    match play_card(m, b, &top, "main phase")? {
        Played::Entry(entry) => {
            ctx.stack.push(entry);
            ctx.holder = b.next(m.game.players.len());
            ctx.passes = 0;
        }
        // Another card is played instead, from what is left of the deck
        // (never from a deck refilled from the discard: RAID:S8's refill
        // would turn the same cards up again).
        Played::NotCounted if !m.game.zone_of(b, zn::DECK).is_empty() => {
            state(&mut m.game).plays += 1;
        }
        Played::NotCounted | Played::Entered => {}
    }
    m.then([Step::Priority(Box::new(ctx))]);
    Ok(Flow::Continue)
}

/// What became of a card the Boss turned up to play.
enum Played {
    /// It entered the field, or went to the discard counted as played.
    Entered,
    /// An active whose ability goes into the resolution zone.
    Entry(super::Entry),
    /// It could not be played and is not one of the cards the Boss plays
    /// (`reading_raid_unhosted_equipment_not_counted`).
    NotCounted,
}

/// The Boss plays `top` (RAID:B③): a chara enters the front row OFF, left
/// to right in entry order; an item enters the back row ON; a weapon or
/// armour is equipped ([`super::raid_equip`]); an active's ability
/// activates at once: the entry for the resolution zone is returned (none
/// when it has no legal target: it goes to the discard). `when` says why
/// it is played (the trace's prefix).
fn play_card(m: &mut M, b: PlayerId, top: &str, when: &str) -> Result<Played, EngineError> {
    let t = ctype(&m.game, top).to_string();
    let seq = {
        let st = state(&mut m.game);
        st.seq += 1;
        st.seq
    };
    match t.as_str() {
        types::CHARA => {
            moves::enter_field(m, top, b, false, false);
            state(&mut m.game).entries.insert(top.into(), seq);
            m.record(
                "boss_turn",
                format!("{when}: the Boss plays {top} from the top of its deck; it enters the front row OFF"),
                &[r::RAID_BOSS_MAIN, r::CHARA_ENTERS_FRONT_OFF],
            );
        }
        types::ITEM => {
            moves::enter_field(m, top, b, true, true);
            m.record(
                "boss_turn",
                format!("{when}: the Boss plays item {top}"),
                &[r::RAID_BOSS_MAIN, r::ITEM_BACK_ON],
            );
        }
        types::ACTIVE => {
            m.game.move_card(top, ZoneId::shared(zn::RESOLUTION), false);
            let def = m
                .game
                .def_of(top)
                .cloned()
                .ok_or_else(|| super::bad("unknown card"))?;
            let effects: Vec<_> = def
                .abilities
                .iter()
                .filter(|a| a.trigger == "effect")
                .flat_map(|a| a.effect.clone())
                .collect();
            let key = format!("{top}.effect");
            let Some(chosen) = super::targets::choose(m, b, top, &effects, &key, None)? else {
                m.record(
                    "boss_turn",
                    format!("{top} has no legal target: it goes to the discard"),
                    &[r::NO_TARGET_NO_PLAY],
                );
                moves::to_discard(m, top);
                return Ok(Played::Entered);
            };
            m.record(
                "boss_turn",
                format!("{when}: the Boss plays active {top}: its ability activates at once (the party chooses any open choice: `{key}`)"),
                &[r::RAID_BOSS_MAIN, r::RAID_PARTY_CHOOSES],
            );
            return Ok(Played::Entry(super::Entry {
                kind: super::EntryKind::Card(top.into()),
                master: b,
                targets: chosen,
            }));
        }
        types::WEAPON | types::ARMOR => {
            if !super::raid_equip::play(m, b, top, when)? {
                return Ok(Played::NotCounted);
            }
        }
        other => {
            return Err(super::ni(
                r::RAID_BOSS_TURN,
                format!("a boss {other} card played from the Boss deck"),
            ));
        }
    }
    Ok(Played::Entered)
}

/// A card's place in RAID:B④'s order as it stands now: the Boss first,
/// then the front row by entry, then the back row by when each was put
/// there.
fn attack_rank(g: &mut Game, id: &str) -> (u8, u64) {
    if ctype(g, id) == types::BOSS {
        return (0, 0);
    }
    let back = g.card(id).is_some_and(|c| c.has(st::BACK));
    let st = state(g);
    let seq = if back {
        st.back_order.get(id)
    } else {
        st.entries.get(id)
    };
    (if back { 2 } else { 1 }, seq.copied().unwrap_or(0))
}

/// The next Boss-side attacker (RAID:B④). The order is fixed as the battle
/// phase starts (judges' reading: 「順に攻撃」 lines up the attackers once;
/// the rulebook is silent on a chara changing rows before its turn to
/// attack), so a front-row chara moved to the back row keeps its place;
/// the option `reading_raid_attack_order_reread` reads the rows again
/// before each attack.
fn next_attacker(m: &mut M) -> Option<CardId> {
    let queue = state(&mut m.game).queue.clone().unwrap_or_default();
    let mut reread = queue.clone();
    let ranks: BTreeMap<CardId, (u8, u64)> = queue
        .iter()
        .map(|id| (id.clone(), attack_rank(&mut m.game, id)))
        .collect();
    reread.sort_by_key(|id| ranks.get(id).copied());
    let option = super::reading::RAID_ATTACK_ORDER_REREAD;
    let fixed = queue.first()?.clone();
    let next = if super::reading_on(&m.game, option) {
        if reread[0] != fixed {
            m.record(
                "boss_turn",
                format!(
                    "under the reading `{option}` the rows are read again: {} attacks next",
                    reread[0]
                ),
                &[r::RAID_BOSS_BATTLE],
            );
        }
        reread[0].clone()
    } else {
        if reread[0] != fixed {
            m.record(
                "boss_turn",
                format!("{fixed} attacks next: the order was fixed as the battle phase started, although a chara has changed rows since"),
                &[r::RAID_BOSS_BATTLE],
            )
            .note(format!(
                "judges' reading: RAID:B④ lines the attackers up once and is silent on a chara changing rows before its attack; each keeps its place (option `{option}`: the rows are read again before each attack, and {} attacks next)",
                reread[0]
            ));
        }
        fixed
    };
    if let Some(q) = state(&mut m.game).queue.as_mut() {
        q.retain(|id| *id != next);
    }
    Some(next)
}

/// RAID:B④: the Boss itself, then the front-row charas in the order they
/// entered, then the back-row charas in the order they were put there.
fn queue_attacks(m: &mut M, b: PlayerId) {
    let mut order: Vec<CardId> = m
        .game
        .zone_of(b, zn::PLAYER)
        .iter()
        .filter(|id| ctype(&m.game, id) == types::BOSS)
        .cloned()
        .collect();
    let mut rows: Vec<((u8, u64), CardId)> = m
        .game
        .zone_of(b, zn::FIELD)
        .iter()
        .filter(|id| ctype(&m.game, id) == types::CHARA)
        .cloned()
        .collect::<Vec<_>>()
        .into_iter()
        .map(|id| (attack_rank(&mut m.game, &id), id))
        .collect();
    rows.sort();
    order.extend(rows.into_iter().map(|(_, id)| id));
    state(&mut m.game).queue = Some(order.clone());
    m.record(
        "boss_turn",
        format!(
            "battle phase: the Boss side attacks in order: {}",
            if order.is_empty() {
                "nothing".into()
            } else {
                order.join(", ")
            }
        ),
        &[r::RAID_BOSS_BATTLE],
    );
}

//! The PSO2 procedures on the engine's step machine: the turn (500–505),
//! the right to act 行動権 and the resolution zone (103.6, 103.7, 406),
//! playing cards and paying PP (209, 504), the battle (506), damage and
//! the rows (213–215), rule processing (101.3, 213.3, 215.3.1, 404.5) and
//! triggers (300.2, 302).
//!
//! The resolution zone's entries, the window that holds the right to act
//! and the battle in progress are game state carried by the awaiting
//! [`Step::Priority`] step ([`Ctx`]), so a rejected action rolls them back
//! with the rest of the machine.

use crate::engine::{Action, Card, CardId, EngineError, Flow, Game, Machine, PlayerId, Rules};

mod abilities;
mod ability_cost;
mod battle;
mod checks;
mod connectives;
mod continuous;
mod cost;
mod damage;
mod deck;
mod delayed;
mod effects;
mod end;
mod equip;
mod lasting;
mod mag;
mod modes;
mod moves;
mod negate;
mod play;
mod priority;
mod put;
pub mod raid;
mod raid_equip;
mod replace;
mod restrict;
mod resume;
mod state;
mod targets;
pub use targets::HOST;
mod triggers;
mod turn;
mod x_amount;

use super::rules as r;

/// Card states (215 and the glossary).
pub mod st {
    /// ON 状態 (215.1.1).
    pub const ON: &str = "on";
    /// OFF 状態 (215.1.2).
    pub const OFF: &str = "off";
    /// 前列 (215.4).
    pub const FRONT: &str = "front";
    /// 後列 (215.4).
    pub const BACK: &str = "back";
    /// フリーズ (301.3): cannot declare attacks.
    pub const FROZEN: &str = "frozen";
    /// A face-down PP (102.5, 404.5).
    pub const FACE_DOWN: &str = "face_down";
    /// 無敵 (GL:無敵).
    pub const INVINCIBLE: &str = "invincible";
    /// 選ばれない: cannot be chosen (GL:選ぶ).
    pub const UNTARGETABLE: &str = "untargetable";
    /// 効果を受けない: receives no ability's effect (GL:効果を受けない).
    pub const UNAFFECTED: &str = "unaffected";
    /// 攻撃中 (506.4.1).
    pub const ATTACKING: &str = "attacking";
    /// 交戦状態 (506.5.1).
    pub const ENGAGED: &str = "engaged";
    /// A weapon used in the current engagement (506.5.2@2, 506.6.1.1).
    pub const IN_USE: &str = "in_use";
    /// Every state.
    pub const ALL: &[&str] = &[
        ON,
        OFF,
        FRONT,
        BACK,
        FROZEN,
        FACE_DOWN,
        INVINCIBLE,
        UNTARGETABLE,
        UNAFFECTED,
        ATTACKING,
        ENGAGED,
        IN_USE,
    ];
}

/// Card types (200.1, 205).
pub mod types {
    pub const PLAYER: &str = "player";
    pub const CHARA: &str = "chara";
    pub const MAG: &str = "mag";
    pub const MAG_EVOLUTION: &str = "mag_evolution";
    pub const ACTIVE: &str = "active";
    pub const ITEM: &str = "item";
    pub const WEAPON: &str = "weapon";
    pub const ARMOR: &str = "armor";
    /// 《ボス》 of the raid battle, in the Boss seat's player zone.
    pub const BOSS: &str = "boss";
    /// Every type.
    pub const ALL: &[&str] = &[
        BOSS,
        PLAYER,
        CHARA,
        MAG,
        MAG_EVOLUTION,
        ACTIVE,
        ITEM,
        WEAPON,
        ARMOR,
    ];
}

/// Zone names.
pub mod zn {
    pub const FIELD: &str = "field";
    pub const PLAYER: &str = "player";
    pub const MAG: &str = "mag";
    pub const DECK: &str = "deck";
    pub const HAND: &str = "hand";
    pub const PP: &str = "pp";
    pub const DISCARD: &str = "discard";
    pub const EXCLUDED: &str = "excluded";
    pub const RESOLUTION: &str = "resolution";
}

/// Phases and steps a scenario may start in (500.3, 505.1.1). `battle` is
/// entered only by an attack declaration (506.2).
pub const PHASES: &[&str] = &[
    "setup", "start", "draw", "pp", "main", "battle", "turn_end", "refresh",
];

/// Ability kinds: `effect` is an active card's ability (300.5),
/// `activated` an activated ability 起動能力 with the cost 【ON⇒OFF】 plus
/// `stats.ability_cost` PP (300.3, 209.1.3); the others are triggered
/// abilities (300.2): 登場時 `on_enter` (302.2), 戦闘不能時 `on_ko` (302.3),
/// ドロップ `drop` (302.4), `start_of_turn` (501.1.4), `end_of_turn`
/// (505.1.2), `on_attack` (becoming 攻撃中, 506.4.1) and `on_engage`
/// (becoming 交戦状態, 506.5.2@2). `continuous` is a continuous ability
/// (300.4, [`continuous`]); `replace_destroy` a replacement effect "if
/// this card would be destroyed, instead …" (103.4.3, [`replace`]),
/// `replace_to_discard` / `_hand` / `_deck` "if this card would be put
/// there, instead put it into …";
/// `own_cost` an ability changing its own card's cost in every zone
/// (209.4.2, 209.4.3, [`cost`]), `cost_change` another card's ability
/// changing cards' cost in every zone (209.4.2); the
/// `delayed_*` abilities are set up by their card's effect and trigger
/// later (300.2.3, [`delayed`]).
pub const TRIGGERS: &[&str] = &[
    "effect",
    "activated",
    "on_enter",
    "on_ko",
    "drop",
    "start_of_turn",
    "end_of_turn",
    "on_attack",
    "on_engage",
    continuous::TRIGGER,
    replace::DESTROY,
    replace::TO_DISCARD,
    replace::TO_HAND,
    replace::TO_DECK,
    cost::OWN_COST,
    cost::COST_CHANGE,
    delayed::ON_ENTER,
    delayed::ON_KO,
    delayed::END_OF_TURN,
    delayed::CONTINUOUS,
];

/// The abilities that may print a cost: activated ones (209.1.3.1) and
/// the triggered ones of events and timings, paid as they trigger
/// (209.1.3.2): the words of [`TRIGGERS`] from `activated` to `on_engage`.
pub const COST_TRIGGERS: &[&str] = TRIGGERS.split_at(9).0.split_at(1).1;

/// Action words.
pub const ACTIONS: &[&str] = &[
    "pass",
    "pp",
    "play",
    "activate",
    "attack",
    "end_phase",
    "concede",
    "evolve",
];

/// The readings a judge may switch (research §3.17), set as player flags
/// (on any player). Absent, the judges' reading applies and the trace says so.
pub mod reading {
    /// 213.3.1/213.3.2 read per damage instance instead of per row per turn.
    pub const ROW_DAMAGE_PER_INSTANCE: &str = "reading_row_damage_per_instance";
    /// 101.7: decks reaching 0 one after the other within one resolution
    /// are not simultaneous; the first one loses.
    pub const SEQUENTIAL_DECK_OUT: &str = "reading_sequential_deck_out";
    /// 506.3.2 vs 215.1.3: an attack cancelled in the battle-start step
    /// still turns the attacker OFF.
    pub const CANCELLED_ATTACKER_OFF: &str = "reading_cancelled_attacker_off";
    /// 204.2.2.2.2: an attach active whose host left is excluded (除外),
    /// not put in the discard.
    pub const ATTACH_HOST_GONE_EXCLUDED: &str = "reading_attach_host_gone_excluded";
    /// 506.4.1.1 vs 506.6.3: 攻撃中 lasts until the return to main, through
    /// the damage-resolution step's right to act.
    pub const ATTACKING_UNTIL_MAIN: &str = "reading_attacking_until_main";
    /// 205.5.2 vs 506.6.1.2: armor reduces only battle damage.
    pub const ARMOR_BATTLE_ONLY: &str = "reading_armor_battle_only";
    /// 404.2, 404.6: a card an effect puts into PP arrives OFF (the rules
    /// say it is face up and keeps only its colour, not whether it is ON).
    pub const PUT_PP_ARRIVES_OFF: &str = "reading_put_pp_arrives_off";
    /// GL:効果を受けない: a card that receives no ability's effect still
    /// receives those of its own card's abilities, as 無敵 does (GL:無敵).
    pub const UNAFFECTED_OWN_EFFECTS_APPLY: &str = "reading_unaffected_own_effects_apply";
    /// RAID:F1: the first player's turn-1 draw, printed in the Easy line
    /// ("レイドバトルでのみ"), applies in every difficulty the party starts.
    pub const RAID_FIRST_TURN_DRAW_ANY_DIFFICULTY: &str =
        "reading_raid_first_turn_draw_any_difficulty";
    /// 503.1.1: a card put into PP in the PP phase arrives OFF (the rule
    /// says face up, not whether it is ON).
    pub const PP_PHASE_CARD_ARRIVES_OFF: &str = "reading_pp_phase_card_arrives_off";
    /// RAID:S4 with RAID:B③: cards the Boss plays instead of a draw in its
    /// main phase are played at once, as outside it.
    pub const BOSS_MAIN_DRAW_PLAYS_AT_ONCE: &str = "reading_boss_main_draw_plays_at_once";
    /// 302.7 with 506.3.2/506.4.3: a 連続射撃 battle ends as soon as one of
    /// its two targets is gone.
    pub const RAPID_FIRE_ENDS_WHEN_A_TARGET_LEAVES: &str =
        "reading_rapid_fire_ends_when_a_target_leaves";
    /// 506.5.2, GL:交戦する: a battle an effect's 交戦する starts waits until
    /// the entries left in the resolution zone have resolved.
    pub const ENGAGE_AFTER_THE_ZONE_EMPTIES: &str = "reading_engage_after_the_zone_empties";
    /// GL:交戦する during a battle: a battle cannot begin inside another;
    /// the 交戦する does nothing and the running battle goes on.
    pub const ENGAGE_IN_BATTLE_DOES_NOTHING: &str = "reading_engage_in_battle_does_nothing";
    /// GL:交戦する resolving while another waits for the zone to empty:
    /// the later one takes the waiting one's place.
    pub const ENGAGE_LATEST_REPLACES_WAITING: &str = "reading_engage_latest_replaces_waiting";
    /// 101.2.2 in the raid: a Boss card's effect on 「相手」's hand reaches
    /// only the boss turn's target player (RAID:B①).
    pub const RAID_OPPONENT_HAND_TARGET_ONLY: &str =
        "reading_raid_opponent_hand_target_player_only";
    /// 101.2.2 in the raid: a Boss card's effect choosing from 「相手」's
    /// deck reaches only the boss turn's target player's deck (RAID:B①).
    pub const RAID_OPPONENT_DECK_TARGET_ONLY: &str =
        "reading_raid_opponent_deck_target_player_only";
    /// 204.2.2: an attach active's `effect` ability is carried out before
    /// the card is attached, from the resolution zone.
    pub const ATTACH_EFFECT_BEFORE_ATTACHING: &str = "reading_attach_effect_before_attaching";
    /// RAID:B③: a weapon or armour the Boss turns up and no Boss chara can
    /// equip is not one of the cards it plays; it plays the next instead.
    pub const RAID_UNHOSTED_EQUIPMENT_NOT_COUNTED: &str =
        "reading_raid_unhosted_equipment_not_counted";
    /// RAID:S10, 205.5: the party decides whether the Boss uses its weapon
    /// and armour (by default it does not), instead of the Boss using them
    /// whenever it can.
    pub const RAID_PARTY_DECIDES_BOSS_EQUIPMENT_USE: &str =
        "reading_raid_party_decides_boss_equipment_use";
    /// RAID:F1: when several party players' decks reach 0 at the same
    /// check in Easy, each of them is "the first" and uses a Half Doll
    /// (judges' reading: only the first of them in seat order).
    pub const RAID_HALF_DOLL_EACH_AT_ONCE: &str = "reading_raid_half_doll_each_at_once";
    /// RAID:B④: the Boss side's attack order is read again before each
    /// attack from the rows the charas are in then (judges' reading: it
    /// is fixed as the battle phase starts).
    pub const RAID_ATTACK_ORDER_REREAD: &str = "reading_raid_attack_order_reread";
    /// RAID:B①/B④: when the target player is eliminated before the Boss
    /// side's attacks are over, a new target player is chosen at random
    /// (judges' reading: the attacks left are not made).
    pub const RAID_NEW_TARGET_WHEN_ELIMINATED: &str = "reading_raid_new_target_when_eliminated";
    /// GL:“A”する事でBできる: once A is done, the player chooses again
    /// whether to do B (choice `<card>.by_doing_b`) (judges' reading: the
    /// one choice to do A is the choice to do B).
    pub const BY_DOING_B_CHOSEN_APART: &str = "reading_by_doing_b_chosen_apart";
}

/// Every reading flag.
pub const READINGS: &[&str] = &[
    reading::ROW_DAMAGE_PER_INSTANCE,
    reading::SEQUENTIAL_DECK_OUT,
    reading::CANCELLED_ATTACKER_OFF,
    reading::ATTACH_HOST_GONE_EXCLUDED,
    reading::ATTACKING_UNTIL_MAIN,
    reading::ARMOR_BATTLE_ONLY,
    reading::PUT_PP_ARRIVES_OFF,
    reading::UNAFFECTED_OWN_EFFECTS_APPLY,
    reading::RAID_FIRST_TURN_DRAW_ANY_DIFFICULTY,
    reading::PP_PHASE_CARD_ARRIVES_OFF,
    reading::BOSS_MAIN_DRAW_PLAYS_AT_ONCE,
    reading::RAPID_FIRE_ENDS_WHEN_A_TARGET_LEAVES,
    reading::ENGAGE_AFTER_THE_ZONE_EMPTIES,
    reading::ENGAGE_IN_BATTLE_DOES_NOTHING,
    reading::ENGAGE_LATEST_REPLACES_WAITING,
    reading::RAID_OPPONENT_HAND_TARGET_ONLY,
    reading::RAID_OPPONENT_DECK_TARGET_ONLY,
    reading::ATTACH_EFFECT_BEFORE_ATTACHING,
    reading::RAID_UNHOSTED_EQUIPMENT_NOT_COUNTED,
    reading::RAID_PARTY_DECIDES_BOSS_EQUIPMENT_USE,
    reading::RAID_HALF_DOLL_EACH_AT_ONCE,
    reading::RAID_ATTACK_ORDER_REREAD,
    reading::RAID_NEW_TARGET_WHEN_ELIMINATED,
    reading::BY_DOING_B_CHOSEN_APART,
];

/// Counters of damage received this turn in each row (213.3.1, 213.3.2).
pub const FRONT_DAMAGE: &str = "front_damage";
/// See [`FRONT_DAMAGE`].
pub const BACK_DAMAGE: &str = "back_damage";

/// The machine of this module.
pub type M = Machine<Step>;

/// An attack target or damage recipient: a player (represented by their
/// Player card when there is one, 101.2) or a card.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Foe {
    Player(PlayerId),
    Card(CardId),
}

/// The battle in progress (506).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Battle {
    /// The attacking 味方 (a chara or a Player card).
    pub attacker: CardId,
    /// The attacker's player.
    pub side: PlayerId,
    /// The attack targets (two with 連続射撃, 302.7); empty when a War Cry
    /// card left before its redirection resolved.
    pub targets: Vec<Foe>,
    /// The object generations of the cards involved (400.6).
    pub generations: Vec<(CardId, u32)>,
    /// Started by an effect's 交戦する (GL:交戦する): no attacker is set,
    /// so nothing that needs one (貫通X) applies.
    pub by_effect: bool,
    /// The window play returns to when the battle ends: the main phase
    /// (506.6.4), or the phase a 交戦する came from (GL:交戦する
    /// 「元のフェイズに戻ります」).
    pub from: Window,
}

/// The window in which a player may hold the right to act (103.6.1.1,
/// 103.6.1.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Window {
    Main,
    /// A rule-only phase in which a trigger was placed (103.6.1.2); when it
    /// closes, this phase begins.
    Rule(Phase),
    BattleStart,
    Participation,
    Engagement,
    Damage,
    TurnEnd,
}

/// A phase or step procedure.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// The game setup (102).
    Setup,
    Start,
    Draw,
    Pp,
    Main,
    TurnEnd,
    Refresh,
}

/// What an entry of the resolution zone is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EntryKind {
    /// A played card (504.2).
    Card(CardId),
    /// An ability of a card's definition (triggered or activated).
    Ability {
        card: CardId,
        def: String,
        ability: usize,
        trigger: String,
        /// The X chosen for an ⓧ in its cost (GL:ⓧ; 0 without one).
        x: i64,
        /// The card's generation when the ability was put into the zone:
        /// once the card changes zones it is a new object (400.6) that
        /// 「このカード」 no longer names.
        generation: u32,
    },
    /// ウォークライ (302.1@2).
    WarCry(CardId),
    /// 連撃 (302.5).
    DoubleAttack(CardId),
    /// 貫通X (GL:貫通X): X damage to a player.
    Pierce {
        card: CardId,
        player: PlayerId,
        amount: i64,
    },
}

/// A chosen target, with the object generation it was chosen as (400.6).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Chosen {
    pub id: CardId,
    pub generation: u32,
}

/// One entry of the resolution zone (406).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    pub kind: EntryKind,
    /// The player who put it there (300.6).
    pub master: PlayerId,
    /// Targets chosen when it was put there (406.2.2.1).
    pub targets: Vec<Chosen>,
}

/// The right-to-act context: the window, the resolution zone's entries
/// (last = newest), the battle in progress, and who holds the right to act.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ctx {
    pub window: Window,
    pub stack: Vec<Entry>,
    pub battle: Option<Battle>,
    pub holder: PlayerId,
    /// Consecutive passes (103.6.1.7, 103.6.1.8).
    pub passes: usize,
}

/// A procedure of the machine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    /// A phase or step begins.
    Begin(Phase),
    /// The PP phase decision (503.1.1): `pp` or `pass`.
    PpDecision,
    /// A player holds the right to act (awaits an action).
    Priority(Box<Ctx>),
}

pub use crate::engine::machine::errors::{bad, illegal, ni};

/// Whether any player set the reading flag `flag`.
pub fn reading_on(g: &Game, flag: &str) -> bool {
    g.reading_on(flag)
}

/// The card type of a card (`unknown` for an anonymous card).
pub fn ctype<'a>(g: &'a Game, id: &str) -> &'a str {
    g.card_type(id)
}

/// Whether a card is an item card (205).
pub fn is_item_type(t: &str) -> bool {
    matches!(t, types::ITEM | types::WEAPON | types::ARMOR)
}

/// The card's current attack (212): printed (blank = 0, 212.1.1) plus
/// modifications (215.3) plus a weapon in use (506.6.1.1).
pub fn attack(g: &Game, c: &Card) -> i64 {
    let printed = g.def_of(&c.id).and_then(|d| d.attack).unwrap_or(0);
    let weapons: i64 = g
        .cards
        .values()
        .filter(|w| w.attached_to.as_deref() == Some(&c.id) && w.has(st::IN_USE))
        .map(|w| g.def_of(&w.id).and_then(|d| d.attack).unwrap_or(0) + w.modifier("attack"))
        .sum();
    received(g, c, "attack", printed) + weapons + continuous::bonus(g, &c.id, "attack")
}

/// The value of `stat` from `printed` after the modifications effects made
/// to card `c` (215.3), in the order they were made: a replaced number
/// (`set_power`) replaces what was computed before it (103.5.5) and later
/// additions count on it; continuous changes, applying at the same time,
/// come after it (103.5.4, in [`attack`] and [`hp`]). While it is 無敵,
/// those of other cards' effects, received before, do not work (GL:無敵);
/// its own card's still do. While it receives no effects
/// (GL:効果を受けない) none work ([`unaffected_by`]).
fn received(g: &Game, c: &Card, stat: &str, printed: i64) -> i64 {
    let shielded = c.has(st::INVINCIBLE) || c.has(st::UNAFFECTED);
    c.modifiers
        .iter()
        .filter(|md| md.stat == stat)
        .filter(|md| {
            !shielded || (md.source == c.id.as_str() && !unaffected_by(g, &c.id, &md.source))
        })
        .fold(
            printed,
            |v, md| if md.set { md.delta } else { v + md.delta },
        )
}

/// Whether card `id` does not receive the effect of an ability of card
/// `source` because it is in the state 効果を受けない (GL:効果を受けない:
/// no ability's effect, including those received before). The judges'
/// reading takes "能力の効果" as written: its own card's abilities too;
/// under `reading_unaffected_own_effects_apply` those still apply, as
/// with 無敵 (GL:無敵: "other cards' effects").
pub fn unaffected_by(g: &Game, id: &str, source: &str) -> bool {
    g.card(id).is_some_and(|c| c.has(st::UNAFFECTED))
        && (id != source || !reading_on(g, reading::UNAFFECTED_OWN_EFFECTS_APPLY))
}

/// The card's current HP (213): the printed value (blank = 0, 213.1.1)
/// changed by modifications (213.4, 215.3).
pub fn hp(g: &Game, c: &Card) -> i64 {
    let printed = g.def_of(&c.id).and_then(|d| d.defense).unwrap_or(0);
    received(g, c, "defense", printed) + continuous::bonus(g, &c.id, "defense")
}

/// The derived characteristics shown in snapshots.
pub fn derived(g: &Game, c: &Card) -> Vec<(&'static str, i64)> {
    let Some(d) = g.def_of(&c.id) else {
        return Vec::new();
    };
    let mut v = Vec::new();
    if c.token {
        // A token's cost is 0 (GL:トークン).
        v.push(("cost", 0));
    } else if let Some(cost) = cost::current(g, &c.id) {
        // 209.3.1: X counts only in the resolution zone; 209.4.2: a
        // changed cost is the cost in every zone.
        v.push(("cost", cost));
    }
    match d.card_type.as_str() {
        types::CHARA | types::PLAYER => {
            v.push(("attack", attack(g, c)));
            v.push(("hp", hp(g, c)));
        }
        types::WEAPON => v.push(("attack", attack(g, c))),
        _ => {}
    }
    v
}

/// Sets a card ON or OFF, recording the change on the last trace entry.
pub fn set_on(m: &mut M, id: &str, on: bool) {
    let shared = mag::stack_of(&m.game, id);
    if shared.len() > 1 {
        // 203.4.5: the Mag and its evolution cards are one card for ON/OFF.
        for c in shared {
            set_one(m, &c, on);
        }
        return;
    }
    set_one(m, id, on);
}

fn set_one(m: &mut M, id: &str, on: bool) {
    let Some(c) = m.game.cards.get_mut(id) else {
        return;
    };
    let was_on = c.has(st::ON);
    let had_state = was_on || c.has(st::OFF);
    c.states.remove(st::ON);
    c.states.remove(st::OFF);
    c.states
        .insert(if on { st::ON } else { st::OFF }.to_string());
    if (was_on != on || !had_state)
        && let Some(e) = m.trace.last_mut()
    {
        let w = |b: bool| if b { "ON" } else { "OFF" };
        let before = if had_state { w(was_on) } else { "-" };
        e.change(format!("{id}.state"), before, w(on));
    }
}

/// Whether a card is ON.
pub fn is_on(g: &Game, id: &str) -> bool {
    g.card(id).is_some_and(|c| c.has(st::ON))
}

/// Gives every card of the field, PP, player and mag zones its explicit
/// ON/OFF and row states (215.1, 215.4) where the scenario left them out.
fn normalise(g: &mut Game) {
    let ids: Vec<CardId> = g.cards.keys().cloned().collect();
    for id in ids {
        let t = ctype(g, &id).to_string();
        let Some(c) = g.cards.get_mut(&id) else {
            continue;
        };
        let kind = c.zone.kind;
        if matches!(kind, zn::FIELD | zn::PP | zn::PLAYER | zn::MAG)
            && !c.has(st::ON)
            && !c.has(st::OFF)
        {
            c.states.insert(st::ON.into());
        }
        if c.has(st::ON) && c.has(st::OFF) {
            c.states.remove(st::ON);
        }
        if kind == zn::FIELD && c.attached_to.is_none() && !c.has(st::FRONT) && !c.has(st::BACK) {
            let row = if t == types::ITEM {
                st::BACK
            } else {
                st::FRONT
            };
            c.states.insert(row.into());
        }
    }
}

/// The phase a scenario's `turn.phase` starts in.
fn start_phase(name: &str) -> Option<Phase> {
    Some(match name {
        "setup" => Phase::Setup,
        "start" => Phase::Start,
        "draw" => Phase::Draw,
        "pp" => Phase::Pp,
        "main" => Phase::Main,
        "turn_end" => Phase::TurnEnd,
        "refresh" => Phase::Refresh,
        _ => return None,
    })
}

/// Runs one step.
fn step(m: &mut M, s: Step) -> Result<Flow, EngineError> {
    let flow = match s {
        Step::Begin(p) => turn::begin(m, p)?,
        Step::PpDecision => {
            m.stack.push(Step::PpDecision);
            Flow::Await
        }
        Step::Priority(ctx) => priority::offer(m, *ctx)?,
    };
    // 300.4: continuous abilities begin and stop applying with the state.
    continuous::track(m)?;
    replace::forget(m);
    // 101.3: between steps no effect or rule is being resolved.
    checks::deck_out(m);
    Ok(flow)
}

/// Carries out one scenario action against the awaiting step.
fn act(m: &mut M, a: &Action) -> Result<(), EngineError> {
    if a.kind == "concede" {
        return checks::concede(m, a);
    }
    if let (Some(z), Some(c)) = (&a.from, &a.card)
        && m.game
            .card(c)
            .is_some_and(|card| card.zone.kind != z.as_str())
    {
        return Err(bad(format!(
            "{c} is not in zone `{z}` (it is in {})",
            m.game
                .card(c)
                .map(|x| x.zone.to_string())
                .unwrap_or_default()
        )));
    }
    let Some(top) = m.stack.pop() else {
        return Err(bad(format!(
            "no decision is pending: the game is over or stopped ({})",
            a.kind
        )));
    };
    match (top, a.kind.as_str()) {
        (Step::PpDecision, "pp") => turn::place_pp(m, a),
        (Step::PpDecision, "pass") => turn::decline_pp(m, a),
        (Step::PpDecision, other) => Err(illegal(
            r::PP_PLACE,
            format!("it is the PP phase: `{other}` cannot be done now"),
            vec!["pp".into(), "pass".into()],
        )),
        (Step::Priority(ctx), _) => priority::act(m, *ctx, a),
        (Step::Begin(p), _) => Err(bad(format!("the engine is not waiting (at {p:?})"))),
    }
}

/// Checks a scenario's `state.in_progress` (flow/resume.rs).
pub fn check_in_progress(g: &Game, v: &serde_json::Value) -> Result<(), String> {
    resume::parse(g, v).map(|_| ())
}

/// The played cards a scenario's `state.in_progress` creates in the
/// resolution zone (flow/resume.rs).
pub fn in_progress_cards(v: &serde_json::Value) -> Vec<String> {
    resume::created(v)
}

/// Why ability `ab` of `def` cannot be carried out as written, refused
/// at load (flow/x_amount.rs: a `with_x` with no X, in any option of a
/// modal card or result of a die; flow/targets.rs: a selector of Player
/// cards on the field).
pub fn ability_refusal(
    def: &crate::engine::CardDef,
    ab: &crate::engine::AbilityDef,
) -> Option<String> {
    x_amount::unsupported(def, ab).or_else(|| targets::player_card_on_field(ab))
}

/// The PSO2 procedures as the driver's hooks.
impl Rules for super::Pso2 {
    type Step = Step;

    fn prepare(&self, g: &mut Game) {
        normalise(g);
    }

    fn check(&self, g: &Game) -> Result<(), EngineError> {
        match checks::unsupported(g) {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    /// The phase the scenario starts in; a battle only begins with an
    /// attack declaration.
    fn start(&self, m: &mut M) -> Result<(), EngineError> {
        if let Some(v) = m.game.in_progress.clone() {
            let r = resume::parse(&m.game, &v).map_err(bad)?;
            return resume::resume(m, r).map_err(bad);
        }
        let Some(p) = start_phase(&m.game.turn.phase) else {
            return Err(bad(format!(
                "a scenario cannot start in phase `{}`: a battle begins only with an attack declaration (506.2); start in `main` and declare the attack",
                m.game.turn.phase
            )));
        };
        m.then([Step::Begin(p)]);
        Ok(())
    }

    /// The right to act with the resolution zone and the battle
    /// (flow/resume.rs).
    fn in_progress(&self, m: &M) -> Option<serde_json::Value> {
        resume::describe(m)
    }

    fn step(&self, m: &mut M, s: Step) -> Result<Flow, EngineError> {
        step(m, s)
    }

    /// The PP-phase decision awaits the turn player; the right to act its
    /// holder (103.6.1.4).
    fn awaited(&self, m: &M) -> Option<PlayerId> {
        match m.stack.last()? {
            Step::PpDecision => Some(m.game.turn.active),
            Step::Priority(ctx) => Some(ctx.holder),
            Step::Begin(_) => None,
        }
    }

    fn act(&self, m: &mut M, a: &Action) -> Result<(), EngineError> {
        act(m, a)
    }

    fn derived(&self, g: &Game, c: &Card) -> Vec<(&'static str, i64)> {
        derived(g, c)
    }
}

#[cfg(test)]
mod tests {
    use crate::engine::{EngineError, Outcome};
    use crate::scenario::load_str;

    fn run(cards: &str, p1: &str, p2: &str, phase: &str, actions: &str) -> Outcome {
        let text = format!(
            r#"{{ "game": "pso2", "name": "t", "source": "test", "cards": {{ {cards} }},
              "state": {{ "turn": {{ "player": "p1", "phase": "{phase}", "number": 3 }},
                "players": {{ "p1": {{ "zones": {{ "deck": {{ "count": 9 }} {p1} }} }},
                             "p2": {{ "zones": {{ "deck": {{ "count": 9 }} {p2} }} }} }} }},
              "actions": [ {actions} ] }}"#
        );
        let loaded = load_str("t.json", &text, None).expect("test scenario loads");
        loaded.module.run(loaded.game.clone(), &loaded.actions)
    }

    fn not_implemented(o: &Outcome) -> &'static str {
        match o.error.as_ref().map(|e| &e.error) {
            Some(EngineError::NotImplemented { clause, .. }) => clause,
            other => panic!("expected not implemented, got {other:?}"),
        }
    }

    /// The load error of a scenario with `cards` (the effect language is
    /// checked against the declared vocabulary at load).
    fn refused(cards: &str, p1: &str) -> String {
        let text = format!(
            r#"{{ "game": "pso2", "name": "t", "source": "test", "cards": {{ {cards} }},
              "state": {{ "turn": {{ "player": "p1", "phase": "main", "number": 3 }},
                "players": {{ "p1": {{ "zones": {{ "deck": {{ "count": 9 }} {p1} }} }} }} }},
              "actions": [] }}"#
        );
        load_str("t.json", &text, None).unwrap_err().message
    }

    #[test]
    fn an_effect_pso2_does_not_model_is_not_implemented() {
        let msg = refused(
            r#""x": { "name": "X", "type": "active", "cost": 0,
                 "abilities": [ { "trigger": "effect", "effect": [ { "do": "swap_power", "target": { "select": "this" } } ] } ] }"#,
            r#", "hand": [ { "id": "x", "card": "x" } ]"#,
        );
        let clause = format!("(clause {})", super::r::EFFECT_ORDER);
        assert!(
            msg.starts_with("`swap_power` is not supported for pso2") && msg.contains(&clause),
            "{msg}"
        );
    }

    #[test]
    fn conditions_and_mag_evolution_are_not_implemented() {
        // PSO2 has no counts on cards: such a condition is refused at load.
        let msg = refused(
            r#""x": { "name": "X", "type": "chara", "cost": 0, "attack": 1, "defense": 1,
                 "abilities": [ { "trigger": "on_enter", "condition": { "count": "x", "at_least": 1 }, "effect": [] } ] }"#,
            r#", "field": [ "x" ]"#,
        );
        assert!(
            msg.contains(&format!("(clause {})", super::r::CONTINUOUS)),
            "{msg}"
        );
        let o = run(
            r#""e": { "name": "E", "type": "mag_evolution", "cost": 1 }"#,
            r#", "hand": [ "e" ]"#,
            "",
            "main",
            "",
        );
        assert_eq!(not_implemented(&o), super::r::MAG_EVOLUTION);
    }

    #[test]
    fn a_raid_needs_a_party_and_the_boss_seated_last() {
        for (players, why) in [
            (
                r#""p1": { "flags": ["raid_boss"], "zones": {} }, "p2": { "zones": {} }, "p3": { "zones": {} }"#,
                "RAID:F2",
            ),
            (
                r#""p1": { "zones": {} }, "p2": { "flags": ["raid_boss"], "zones": {} }"#,
                "RAID:P1",
            ),
        ] {
            let text = format!(
                r#"{{ "game": "pso2", "name": "t", "source": "test", "cards": {{}},
                  "state": {{ "turn": {{ "player": "p1", "phase": "main", "number": 3 }}, "players": {{ {players} }} }},
                  "actions": [] }}"#
            );
            let loaded = load_str("t.json", &text, None).expect("loads");
            let o = loaded.module.run(loaded.game.clone(), &loaded.actions);
            match o.error.map(|e| e.error) {
                Some(EngineError::BadAction { message }) => {
                    assert!(message.contains(why), "{message}")
                }
                other => panic!("expected a bad-setup error, got {other:?}"),
            }
        }
    }

    #[test]
    fn an_ex_card_never_starts_in_the_deck() {
        let o = run(
            r#""e": { "name": "E", "type": "chara", "cost": 0, "attack": 1, "defense": 1, "keywords": ["ex"] }"#,
            r#", "hand": [ "e" ]"#,
            "",
            "main",
            "",
        );
        match o.error.map(|e| e.error) {
            Some(EngineError::BadAction { message }) => {
                assert!(message.contains("RAID:S13"), "{message}")
            }
            other => panic!("expected a bad-setup error, got {other:?}"),
        }
    }

    #[test]
    fn a_battle_cannot_be_the_starting_phase() {
        let o = run("", "", "", "battle", "");
        assert!(matches!(
            o.error.map(|e| e.error),
            Some(EngineError::BadAction { .. })
        ));
    }

    #[test]
    fn the_first_player_does_not_draw_on_turn_one_but_the_second_does() {
        let text = |first: &str| {
            format!(
                r#"{{ "game": "pso2", "name": "t", "source": "test", "cards": {{}},
                  "state": {{ "turn": {{ "player": "p1", "first": "{first}", "phase": "draw", "number": 1 }},
                    "players": {{ "p1": {{ "zones": {{ "deck": {{ "count": 5 }} }} }}, "p2": {{ "zones": {{ "deck": {{ "count": 5 }} }} }} }} }},
                  "actions": [] }}"#
            )
        };
        for (first, hand) in [("p1", 0), ("p2", 1)] {
            let loaded = load_str("t.json", &text(first), None).unwrap();
            let o = loaded.module.run(loaded.game.clone(), &loaded.actions);
            assert_eq!(
                o.state["players"]["p1"]["zone_counts"]["hand"], hand,
                "first = {first}"
            );
        }
    }
}

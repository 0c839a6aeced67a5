//! Moving cards and what follows a move: zone changes, triggered abilities put on hold (10.7.2) and collected, drawing (5.9), player values, the win/loss check (1.2).

use super::*;

/// Moves a card, collecting zone-change triggers from the right side of the
/// move (10.7.4.1.2: leaving the field uses field information), and erasing
/// tokens outside the zones they may exist in (9.1.4.3).
pub(super) fn mv(m: &mut M, id: &str, to: ZoneId, top: bool) -> Option<ZoneId> {
    let before_def = eff_def_key(&m.game, id)?;
    // 5.15.4: an evolve card attached to a card leaving the field stays
    // behind, attached to nothing (11.6.1 then returns it face up).
    let attached: Vec<CardId> = m
        .game
        .cards
        .values()
        .filter(|c| c.zone.kind == zn::EVOLUTION && c.attached_to.as_deref() == Some(id))
        .map(|c| c.id.clone())
        .collect();
    remember(m, id, &to);
    // A new object (4.1.4): its "N times per turn" abilities start again.
    m.game
        .own::<SveState>()
        .per_turn
        .retain(|(c, _, _), _| c != id);
    let from = m.game.move_card(id, to.clone(), top)?;
    if to.kind == zn::FIELD {
        arrived(&mut m.game, id);
    }
    if from.kind == zn::FIELD && to.kind != zn::FIELD && !attached.is_empty() {
        m.record(
            "evolve.detach",
            format!(
                "{id} left the field: {} is attached to nothing from now on",
                attached.join(", ")
            ),
            &[r::EVOLVE_LEAVE],
        );
    }
    // The move's event is handled here, with the pre-move information.
    m.game.events.pop();
    zone_change_triggers(m, id, &before_def, &from, &to);
    // 5.21.3: a card mastered by someone other than its owner leaves the
    // field into its owner's zone.
    if from.kind == zn::FIELD
        && to.kind != zn::FIELD
        && let Some(c) = m.game.card(id)
        && from.player != Some(c.owner)
        && to.player == Some(c.owner)
    {
        m.record(
            "zone.owner",
            format!("{id} leaves {from} into its owner's {}", to.kind),
            &[r::TAKE_LEAVES_TO_OWNER, r::UNSPECIFIED_ZONE],
        )
        .obj(id);
    }
    let token = m.game.card(id).is_some_and(|c| c.token);
    if token && ![zn::FIELD, zn::EX, zn::RESOLUTION].contains(&to.kind) {
        m.game.erase(id);
        m.record(
            "token.erase",
            format!("token {id} ceases to exist in {to}"),
            &[
                r::TOKEN_ZONES,
                r::TOKEN_ERASED,
                r::TOKEN_LEFT,
                r::TOKEN_PERMANENT_ZONES,
                r::TOKEN_SPELL_ZONES,
            ],
        )
        .obj(id);
    }
    Some(from)
}

pub(super) fn zone_change_triggers(
    m: &mut M,
    id: &str,
    before_def: &str,
    from: &ZoneId,
    to: &ZoneId,
) {
    let new_def = m.game.card(id).map(|c| c.def.clone());
    // 12.4.3 Fanfare: put onto the field from anywhere other than the field.
    // 10.7.4.3: a field-to-field move is not "entering".
    if to.kind == zn::FIELD
        && from.kind != zn::FIELD
        && let (Some(d), Some(p)) = (new_def, to.player)
    {
        add_triggers(m, id, &d, "fanfare", p, 0);
        let hidden = [zn::HAND, zn::DECK, zn::EVOLVE_DECK].contains(&from.kind);
        others_entering(m, id, p, hidden);
    }
    // A card leaving the field ("when this card leaves the field"), read
    // with its field information (10.7.4.1.2); a move to the other
    // player's field is not leaving it (10.7.4.3).
    if from.kind == zn::FIELD
        && to.kind != zn::FIELD
        && let Some(p) = from.player
    {
        add_triggers(m, id, before_def, "leaves_field", p, 0);
        others_leaving(m, id, before_def, p);
    }
    // 12.5.3 Last Words: from the field into the cemetery, read with the
    // information it had on the field (10.7.4.1.2).
    if from.kind == zn::FIELD
        && to.kind == zn::CEMETERY
        && let Some(p) = from.player
    {
        add_triggers(m, id, before_def, "last_words", p, 0);
    }
}

/// 10.7.2.2: an ability of 「ターンごとにN回」 becomes pending only while
/// it has done so fewer than N times this turn; counts this one.
fn per_turn_allows(
    m: &mut M,
    a: &crate::engine::AbilityDef,
    id: &str,
    def: &str,
    ability: usize,
    key: &str,
) -> bool {
    let Some(n) = a.per_turn else {
        return true;
    };
    let counts = &mut m.game.own::<SveState>().per_turn;
    let done = counts
        .entry((id.into(), def.to_string(), ability))
        .or_default();
    if *done >= n {
        m.record(
            "trigger.per_turn",
            format!("{key} meets its trigger condition but has already become pending {n} time(s) this turn ({n} times per turn): it does not become pending"),
            &[r::TRIGGER_PER_TURN],
        )
        .obj(id);
        return false;
    }
    *done += 1;
    let k = *done;
    m.record(
        "trigger.per_turn",
        format!("{key} becomes pending ({k} of {n} times this turn)"),
        &[r::TRIGGER_PER_TURN],
    )
    .obj(id);
    true
}

pub(super) fn add_triggers(
    m: &mut M,
    id: &str,
    def: &str,
    trigger: &str,
    master: PlayerId,
    amount: i64,
) {
    let template = Pending {
        card: id.into(),
        def: def.to_string(),
        ability: 0,
        trigger: trigger.to_string(),
        master,
        amount,
    };
    // The card's own event: an ability watching other cards (`of`) is not
    // triggered by it (`watch`).
    add_triggers_where(m, template, &|a| a.of.is_none());
    // Then the abilities given by resolved effects (10.9.1.2), as the card has them.
    for k in given_for(&m.game, id, def, trigger) {
        add_triggers(m, id, &k, trigger, master, amount);
    }
}

/// The abilities of `template.def` with trigger `template.trigger` that
/// `pick` admits become pending as `template` says.
pub(super) fn add_triggers_where(
    m: &mut M,
    template: Pending,
    pick: &dyn Fn(&crate::engine::card::AbilityDef) -> bool,
) {
    let (id, trigger, master) = (
        template.card.as_str(),
        template.trigger.as_str(),
        template.master,
    );
    let Some(d) = m.game.defs.get(&template.def).cloned() else {
        return;
    };
    let idx: Vec<usize> = d
        .abilities
        .iter()
        .enumerate()
        .filter(|(_, a)| a.trigger.split('+').any(|t| t == trigger) && pick(a))
        .map(|(i, _)| i)
        .collect();
    for ability in idx {
        let combined = d.abilities[ability].trigger.contains('+');
        let p = Pending {
            ability,
            ..template.clone()
        };
        let rule = match trigger {
            "fanfare" => r::FANFARE,
            "last_words" => r::LAST_WORDS,
            "on_attack" => r::ON_ATTACK,
            "on_evolve" => r::ON_EVOLVE,
            "leaves_field" => r::LEAVE_FIELD_INFO,
            ENTERS_FIELD => r::CONTINUOUS_ZONE_ENTERING,
            "on_race" => r::ON_RACE,
            "start_of_main" => r::MAIN_TRIGGER,
            _ => r::END_TRIGGER,
        };
        let key = pending_key(&m.game, &p);
        if !per_turn_allows(m, &d.abilities[ability], id, &template.def, ability, &key) {
            continue;
        }
        // 10.7.2.1: each time the condition is met adds one instance.
        let again = m
            .game
            .pending
            .iter()
            .any(|q| pending_key(&m.game, q) == key);
        m.game.pending.push(p);
        m.record(
            "trigger.pending",
            format!(
                "{key} triggers and becomes pending for {}",
                player_name(master)
            ),
            &[rule, r::TRIGGER_PENDING],
        )
        .obj(id);
        // 10.7.4.1.2: leaving the field reads the field information.
        if ["last_words", "leaves_field"].contains(&trigger)
            && let Some(e) = m.trace.last_mut()
        {
            e.rule(r::TRIGGER_FIELD_INFO);
        }
        if is_given(&template.def)
            && let Some(e) = m.trace.last_mut()
        {
            e.rule(r::CONTINUOUS_ABILITIES);
            e.text
                .push_str(" (an ability a resolved effect gave it, 10.9.1.2)");
        }
        // 12.1.2: icons written together before one text are one ability
        // per icon; this is the one for `trigger`.
        if combined && let Some(e) = m.trace.last_mut() {
            e.rule(r::COMBINED_ICONS);
            e.text
                .push_str(" (its icons share one text: one ability per icon)");
        }
        if again && let Some(e) = m.trace.last_mut() {
            e.rule(r::TRIGGER_EACH_TIME);
            e.text.push_str(" (another instance is already pending)");
        }
    }
}

/// Turns events other than zone changes into pending abilities.
pub(super) fn collect(m: &mut M) {
    let events = std::mem::take(&mut m.game.events);
    for e in events {
        // 13.5.2: the leader's defense went down this turn.
        if let Event::Damaged {
            player: Some(p),
            amount,
            ..
        } = &e
            && *amount > 0
        {
            m.game.own::<SveState>().lower_defense(*p);
        }
        match e {
            Event::Attacked { card } => {
                if let (Some(d), Some(c)) = (eff_def_key(&m.game, &card), m.game.card(&card)) {
                    let p = c.controller;
                    add_triggers(m, &card, &d, "on_attack", p, 0);
                }
            }
            Event::Transformed { card } => {
                if let (Some(d), Some(c)) = (eff_def_key(&m.game, &card), m.game.card(&card)) {
                    let p = c.controller;
                    add_triggers(m, &card, &d, "on_evolve", p, 0);
                }
            }
            Event::Damaged {
                source,
                amount,
                kind: "attack",
                ..
            } if amount > 0 && has_kw(&m.game, &source, "drain") => {
                // 12.13.2 / 12.13.2.1: attack damage dealt as the attacker.
                // 12.13.3: several Drains count as one (one keyword here).
                let master = m
                    .game
                    .card(&source)
                    .map(|c| c.controller)
                    .unwrap_or(PlayerId::P1);
                let def = eff_def_key(&m.game, &source).unwrap_or_default();
                m.game.pending.push(Pending {
                    card: source.clone(),
                    def: def.into(),
                    ability: usize::MAX,
                    trigger: "drain".into(),
                    master,
                    amount,
                });
                m.record(
                    "trigger.pending",
                    format!("{source}.drain triggers ({amount} attack damage)"),
                    &[r::DRAIN, r::DRAIN_ATTACK_DAMAGE, r::TRIGGER_PENDING],
                )
                .obj(source);
            }
            Event::Damaged {
                source,
                amount,
                kind,
                ..
            } if amount > 0 && has_kw(&m.game, &source, "drain") => {
                // The non-event a judge is asked about: damage dealt as the
                // attack target, or by an ability, is not attack damage.
                m.record(
                    "trigger.not",
                    format!(
                        "{source} has Drain, but this {amount} damage was not dealt by attacking ({kind} damage): Drain does not trigger"
                    ),
                    &[r::DRAIN, r::DRAIN_ATTACK_DAMAGE, r::DRAIN_NOT_DEFENDING],
                )
                .obj(source);
            }
            Event::PhaseBegan { phase, player } => {
                let trigger = if phase == "main" {
                    "start_of_main"
                } else {
                    "start_of_end"
                };
                if phase != "main" {
                    end_phase_comes(m);
                }
                let ids: Vec<CardId> = m.game.zone_of(player, zn::FIELD).to_vec();
                for id in ids {
                    if let Some(d) = eff_def_key(&m.game, &id) {
                        add_triggers(m, &id, &d, trigger, player, 0);
                    }
                }
            }
            _ => {}
        }
    }
    // 10.7.6: a state that arose with these events.
    state_triggers(m);
}

pub(super) fn draw(m: &mut M, p: PlayerId, rule: &'static str) {
    let top = m.game.zone_of(p, zn::DECK).first().cloned();
    match top {
        Some(id) => {
            mv(m, &id, ZoneId::of(p, zn::HAND), false);
            let n = m.game.zone_of(p, zn::HAND).len();
            m.record(
                "draw",
                format!("{} draws {id}", player_name(p)),
                &[rule, r::DRAW],
            )
            .obj(&id)
            .change(format!("{}.hand", player_name(p)), n - 1, n);
        }
        None => {
            m.game.players[p].flags.insert(DREW_FROM_EMPTY.into());
            m.record(
                "draw.empty",
                format!(
                    "{} must draw from an empty deck: they lose at the next rule processing",
                    player_name(p)
                ),
                &[rule, r::DRAW_EMPTY],
            )
            .obj(player_name(p));
        }
    }
}

/// Records step `step` (`text`, citing `rules`) and puts `id` into its
/// owner's cemetery.
pub(super) fn to_cemetery(m: &mut M, id: &str, step: &str, text: String, rules: &[&'static str]) {
    let Some(owner) = m.game.card(id).map(|c| c.owner) else {
        return;
    };
    m.record(step, text, rules).obj(id);
    mv(m, id, ZoneId::of(owner, zn::CEMETERY), false);
}

pub(super) fn set_value(
    m: &mut M,
    p: PlayerId,
    name: &str,
    v: i64,
    step: &str,
    rules: &[&'static str],
) {
    let old = m.game.set_value(p, name, v);
    let key = format!("{}.{name}", player_name(p));
    m.record(step, format!("{key}: {old} → {v}"), rules)
        .obj(player_name(p))
        .change(key, old, v);
}

pub(super) fn game_over_check(m: &mut M) {
    let result = m.game.result_by_losses();
    let rule = match result {
        GameResult::Ongoing => return,
        GameResult::Draw => r::DRAW_SIMULTANEOUS,
        GameResult::Win(_) => r::WIN_LOSS,
    };
    let text = match &result {
        GameResult::Draw => "every player lost at the same time: the game is a draw".to_string(),
        GameResult::Win(w) => format!("{w} wins"),
        GameResult::Ongoing => String::new(),
    };
    m.end(result, text, &[rule]);
}

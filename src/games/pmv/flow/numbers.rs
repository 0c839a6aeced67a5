//! Numbers and variables (1.6), life paid or set by effects (1.9.4,
//! 1.9.7) and costs an effect demands while it resolves (1.8.9, with the
//! variable node cost of 1.8.7.h).
//!
//! Variables live in `Game::vars` under `x.<card>.<name>`, scoped to one
//! resolution of the card's ability: [`begin_ability`] clears them, so a
//! variable read before an effect of this resolution defined it is
//! undefined, and worth 0 (1.6.2.e).

use super::*;
use crate::engine::card::Num;

fn var_key(this: &str, name: &str) -> String {
    format!("x.{this}.{name}")
}

/// Clears the variables of `this`'s ability before it resolves: each
/// resolution defines its variables anew (1.6.2.a, 1.6.2.e).
pub(super) fn begin_ability(g: &mut Game, this: &str) {
    let prefix = format!("x.{this}.");
    vars_mut(g).retain(|k, _| !k.starts_with(&prefix));
}

/// Defines variable `name` of `this`'s ability (1.6.2.b).
pub(super) fn define(m: &mut M, this: &str, name: &Option<String>, value: i64) {
    if let Some(n) = name {
        vars_mut(&mut m.game).insert(var_key(this, n), value);
        m.record(
            "variable.define",
            format!("{n} of {this}'s effect is defined: {n} = {value}"),
            &[r::VARIABLE, r::VARIABLE_DEFINED_BY_EFFECT],
        );
    }
}

/// The value of a number of the effect language: a printed integer; the
/// hyphen `－`, which is no number but counts as 0 where one is asked
/// (1.6.1.b); or a variable of this ability, 0 while undefined (1.6.2.e).
pub(super) fn eval(m: &mut M, n: &Num, this: &str) -> i64 {
    match n {
        Num::Int(v) => *v,
        _ if n.is_hyphen() => {
            m.record(
                "number.hyphen",
                "the number is a hyphen (－): it is no number, and counts as 0 where a number is asked",
                &[r::INTEGERS_ONLY, r::INTEGERS_IN_PRINCIPLE, r::HYPHEN_AS_ZERO],
            );
            0
        }
        Num::Var(name) => match vars(&m.game).get(&var_key(this, name)).copied() {
            Some(v) => {
                m.record(
                    "variable.read",
                    format!("{name} = {v}, as defined earlier in {this}'s effect"),
                    &[
                        r::VARIABLE,
                        r::VARIABLE_AS_EFFECT_SAYS,
                        r::VARIABLE_DEFINED_BY_EFFECT,
                    ],
                );
                v
            }
            None => {
                m.record(
                    "variable.read",
                    format!("{name} is not defined in {this}'s effect: it counts as 0"),
                    &[r::VARIABLE, r::VARIABLE_UNDEFINED_ZERO],
                );
                0
            }
        },
    }
}

/// A number a player chooses (choice `key`): an integer (1.6.1), 0 or
/// more (1.6.3, 1.6.2.d), at most `max` (the rule `max_rule` bounds it).
fn chosen_number(m: &mut M, key: &str, max: i64, max_rule: &'static str, what: &str) -> R<i64> {
    let range = vec![format!("an integer from 0 to {}", max.max(0))];
    let v = match m.choices.take(key) {
        None => {
            return Err(EngineError::MissingChoice {
                choice: key.to_string(),
                options: range,
            });
        }
        Some(v) => v,
    };
    let Some(n) = v.as_f64() else {
        return Err(EngineError::BadChoice {
            choice: key.to_string(),
            value: v.to_string(),
            options: range,
        });
    };
    if v.as_i64().is_none() {
        return Err(illegal(
            r::INTEGERS_ONLY,
            format!("{n} is not an integer: only integers exist in the game ({what})"),
            range,
        ));
    }
    let n = v.as_i64().unwrap_or(0);
    if n < 0 {
        return Err(illegal(
            if max_rule == r::LIFE_PAY_CHOSEN {
                r::LIFE_PAY_CHOSEN
            } else {
                r::CHOSEN_NUMBER_NOT_NEGATIVE
            },
            format!("{n} is negative: a number a player chooses is 0 or more ({what})"),
            range,
        ));
    }
    if n > max {
        return Err(illegal(
            max_rule,
            format!("{n} is more than {max} ({what})"),
            range,
        ));
    }
    Ok(n)
}

/// Lowers `p`'s life by `v` as a payment (1.9.4); life has no lower
/// bound (1.9.6).
fn lose_life_as_payment(m: &mut M, p: PlayerId, v: i64, this: &str, rules: &[&'static str]) {
    let before = m.game.value(p, "life");
    m.game.set_value(p, "life", before - v);
    m.record(
        "life.pay",
        format!("{} pays {v} life for {this}", player_name(p)),
        rules,
    )
    .change(format!("{}.life", player_name(p)), before, before - v);
    life_changed(m, p, before, before - v);
}

/// `pay_life` (1.9.4): a specified amount is paid even above the current
/// life (1.9.4.a); a chosen amount (choice `<card>.pay_life`) can be
/// neither negative nor above the current life (1.9.4.b).
pub(super) fn pay_life(
    m: &mut M,
    amount: &Option<Num>,
    chosen: bool,
    who: Who,
    var: &Option<String>,
    this: &str,
    master: PlayerId,
) -> R<()> {
    let players = who_players(&m.game, master, who);
    if chosen && (amount.is_some() || players.len() != 1) {
        return Err(bad(
            "`pay_life` with `chosen` takes no `amount` and one paying player (`who`: you or opponent)",
        ));
    }
    for p in players {
        let life = m.game.value(p, "life");
        if chosen {
            let v = chosen_number(
                m,
                &format!("{this}.pay_life"),
                life,
                r::LIFE_PAY_CHOSEN,
                &format!(
                    "{} chooses how much life to pay and has {life}",
                    player_name(p)
                ),
            )?;
            lose_life_as_payment(
                m,
                p,
                v,
                this,
                &[
                    r::LIFE_PAY,
                    r::LIFE_PAY_CHOSEN,
                    r::CHOSEN_NUMBER_NOT_NEGATIVE,
                    r::LIFE_UNBOUNDED,
                ],
            );
            define(m, this, var, v);
        } else {
            let Some(a) = amount else {
                return Err(bad("`pay_life` needs `amount` or `chosen: true`"));
            };
            let v = eval(m, a, this);
            if v < 0 {
                return Err(bad(format!(
                    "`pay_life` of a negative amount ({v}) is not a payment"
                )));
            }
            lose_life_as_payment(
                m,
                p,
                v,
                this,
                &[r::LIFE_PAY, r::LIFE_PAY_SPECIFIED, r::LIFE_UNBOUNDED],
            );
            if v > life
                && let Some(e) = m.trace.last_mut()
            {
                e.text.push_str(&format!(
                    " (more than the {life} life they had: a specified amount can be paid anyway)"
                ));
            }
            define(m, this, var, v);
        }
    }
    Ok(())
}

/// `set_value` of life (1.9.7): life becomes the value; the difference is
/// neither gained nor lost.
pub(super) fn set_life(
    m: &mut M,
    value: &str,
    amount: &Num,
    who: Who,
    this: &str,
    master: PlayerId,
) -> R<()> {
    if value != "life" {
        return Err(bad(format!(
            "PMV players have no value `{value}`; valid: life"
        )));
    }
    let v = eval(m, amount, this);
    for p in who_players(&m.game, master, who) {
        let before = m.game.value(p, "life");
        m.game.set_value(p, "life", v);
        m.record(
            "life.set",
            format!(
                "{}'s life is changed to {v}: this is neither gaining nor losing the difference of {}",
                player_name(p),
                v - before
            ),
            &[r::LIFE_SET, r::LIFE_UNBOUNDED],
        )
        .change(format!("{}.life", player_name(p)), before, v);
        life_changed(m, p, before, v);
    }
    Ok(())
}

/// `pay_cost` (1.8.9): a cost the effect demands while it resolves, paid
/// at once (1.8.9.g) by the ability's master from their nodes (1.8.7),
/// with choices under `<card>.`: `<card>.pay` (true/false) when the
/// payment is optional (1.8.9.c), `<card>.pay_x` for a variable cost
/// (1.8.7.h), `<card>.pay_sleep` / `<card>.pay_discard` for the nodes.
/// Returns whether the cost was paid; when it was not, the `otherwise`
/// effects apply (1.8.9.b).
#[allow(clippy::too_many_arguments)]
pub(super) fn pay_cost(
    m: &mut M,
    amount: &Option<Num>,
    life: &Option<Num>,
    optional: bool,
    var: &Option<String>,
    otherwise: &[Effect],
    this: &str,
    master: PlayerId,
) -> R<()> {
    let have = nodes(&m.game, master).len() as i64;
    let who = player_name(master);
    // The node part: a number, a hyphen (never payable, 1.8.9.l) or a
    // variable not yet defined (the payer chooses, 1.8.7.h).
    let hyphen = amount.as_ref().is_some_and(Num::is_hyphen);
    let nodes_part: Option<i64> = match amount {
        Some(a) if !a.is_hyphen() => Some(eval(m, a, this)),
        _ => None,
    };
    let variable = amount.is_none();
    let life_part = life.as_ref().map(|l| eval(m, l, this));
    if nodes_part.is_some_and(|n| n < 0) || life_part.is_some_and(|n| n < 0) {
        return Err(bad("a cost cannot be negative"));
    }
    let payable = !hyphen && nodes_part.is_none_or(|n| n <= have);
    let desc = {
        let mut parts = Vec::new();
        if hyphen {
            parts.push("－ (hyphen)".to_string());
        } else if variable {
            parts.push("X (a variable cost)".to_string());
        } else if let Some(n) = nodes_part {
            parts.push(format!("{n} from nodes"));
        }
        if let Some(l) = life_part {
            parts.push(format!("{l} life"));
        }
        parts.join(" and ")
    };
    let key = format!("{this}.pay");
    let decision = match m.choices.take(&key) {
        None => None,
        Some(Value::Bool(b)) => Some(b),
        Some(v) => {
            return Err(EngineError::BadChoice {
                choice: key,
                value: v.to_string(),
                options: vec!["true".into(), "false".into()],
            });
        }
    };
    let unpaid = |m: &mut M, text: String, rules: &[&'static str]| -> R<()> {
        let e = m.record("cost.unpaid", text, rules);
        if otherwise.is_empty() {
            e.text
                .push_str("; the effect says nothing for this case, so nothing more happens");
        }
        for o in otherwise {
            if matches!(o.target(), Some(Target::Chosen { .. })) {
                return Err(EngineError::NotImplemented {
                    clause: r::COST_CANNOT_PAY,
                    what: "a `chosen` target in the `otherwise` effects of a cost".into(),
                });
            }
        }
        for o in otherwise {
            if game_over(&m.game) {
                break;
            }
            let objs = match o.target() {
                Some(t) => resolve_target(m, t, this, master, None).unwrap_or_default(),
                None => Vec::new(),
            };
            let objs = &objs;
            apply_effect(m, o, Applied { this, master, objs })?;
        }
        Ok(())
    };
    if !payable {
        if decision == Some(true) {
            return Err(illegal(
                if hyphen {
                    r::COST_HYPHEN
                } else {
                    r::COST_CANNOT_PAY
                },
                format!(
                    "{this}'s effect asks {who} for {desc}, which cannot be paid ({who} has {have} node(s))"
                ),
                vec![format!("`{key}`: false, or leave it out")],
            ));
        }
        let mut rules = vec![r::COST_DEMANDED, r::COST_CANNOT_PAY];
        let why = if hyphen {
            rules.push(r::COST_HYPHEN);
            "a hyphen cost cannot be paid".to_string()
        } else {
            format!("{who} has {have} node(s), each giving at most 1")
        };
        if life_part.is_some() {
            rules.push(r::COST_ALL_KINDS);
        }
        return unpaid(
            m,
            format!(
                "{this}'s effect asks {who} for {desc}: {why}, so {}it is not paid and what the effect says for that case applies",
                if life_part.is_some() {
                    "no part of it can be paid (the life part neither): "
                } else {
                    ""
                }
            ),
            &rules,
        );
    }
    if optional {
        match decision {
            None => {
                return Err(EngineError::MissingChoice {
                    choice: key,
                    options: vec!["true".into(), "false".into()],
                });
            }
            Some(false) => {
                return unpaid(
                    m,
                    format!("{this}'s effect lets {who} pay {desc}; {who} chooses not to pay"),
                    &[r::COST_DEMANDED, r::COST_OPTIONAL, r::COST_CANNOT_PAY],
                );
            }
            Some(true) => {}
        }
    } else if decision == Some(false) {
        return Err(illegal(
            r::COST_MUST_PAY,
            format!(
                "{this}'s effect asks {who} for {desc}, which {who} can pay: a payment an effect asks for must be made if possible; only an optional one may be declined"
            ),
            vec![format!("`{key}`: true, or leave it out")],
        ));
    }
    let n = if variable {
        chosen_number(
            m,
            &format!("{this}.pay_x"),
            have,
            r::PAY_VARIABLE,
            &format!("the variable cost of {this}; {who} has {have} node(s)"),
        )?
    } else {
        nodes_part.unwrap_or(0)
    };
    let e = m.record(
        "cost.demand",
        format!(
            "{this}'s effect asks {who} for {desc}{}: it is paid now, while the effect resolves",
            if optional {
                " (optional; they pay)"
            } else {
                ""
            }
        ),
        &[
            r::COST_DEMANDED,
            r::COST_AT_ONCE_RESOLVING,
            r::COST_NAMED,
            if optional {
                r::COST_OPTIONAL
            } else {
                r::COST_MUST_PAY
            },
        ],
    );
    if life_part.is_some() {
        e.rule(r::COST_ALL_KINDS);
    }
    if variable {
        e.rule(r::PAY_VARIABLE);
        e.rule(r::CHOSEN_NUMBER_NOT_NEGATIVE);
        e.rule(r::VARIABLE_CHOSEN_NOT_NEGATIVE);
        e.text.push_str(&format!(
            "; X is not yet defined, so {who} chooses to pay {n}"
        ));
    }
    let before = m.trace.len();
    pay_keyed(m, master, n, this, &format!("{this}."))?;
    // The payment entry of `pay_keyed` names the play payment (5.2.3.f);
    // this cost is an effect's, not a play's.
    for e in m.trace.iter_mut().skip(before) {
        if e.step == "play.pay" {
            e.step = "cost.pay".into();
            e.rules.retain(|x| *x != r::PLAY_PAY);
        }
    }
    if let Some(l) = life_part {
        lose_life_as_payment(
            m,
            master,
            l,
            this,
            &[
                r::LIFE_PAY,
                r::LIFE_PAY_SPECIFIED,
                r::COST_ALL_KINDS,
                r::LIFE_UNBOUNDED,
            ],
        );
    }
    if variable {
        vars_mut(&mut m.game).insert(var_key(this, var.as_deref().unwrap_or("X")), n);
        m.record(
            "variable.define",
            format!(
                "{} = {n}: the cost actually paid from nodes",
                var.as_deref().unwrap_or("X")
            ),
            &[r::PAY_VARIABLE, r::VARIABLE, r::VARIABLE_DEFINED_BY_EFFECT],
        );
    } else if let Some(n) = nodes_part {
        define(m, this, var, n);
    }
    Ok(())
}

/// `change_value` with `stays_above: Y` (1.6.5): a result of Y or less
/// goes directly to the nearest integer above Y, Y + 1 (integers only,
/// 1.6.1), without passing through the lower value: nothing sees the value
/// at or below Y (the 例えば example: a calculation of −1 under "not 0 or
/// below" is 1, never −1). The change still counts as resolved (1.6.5.a),
/// so the rest of the ability applies.
pub(super) fn change_value_limited(
    m: &mut M,
    value: &str,
    amount: i64,
    who: Who,
    y: i64,
    master: PlayerId,
) -> R<()> {
    if value != "life" {
        return Err(bad(format!(
            "PMV players have no value `{value}`; valid: life"
        )));
    }
    for p in who_players(&m.game, master, who) {
        let before = m.game.value(p, "life");
        let calculated = before + amount;
        let after = if calculated <= y { y + 1 } else { calculated };
        m.game.set_value(p, "life", after);
        let e = m.record(
            "life",
            format!(
                "{} {} {} life, and it does not go to {y} or below",
                player_name(p),
                if amount >= 0 { "gains" } else { "loses" },
                amount.abs()
            ),
            &[
                if amount >= 0 {
                    r::LIFE_GAIN
                } else {
                    r::LIFE_LOSS
                },
                r::CLAMP,
                r::CLAMP_RESOLVED,
            ],
        );
        e.change(format!("{}.life", player_name(p)), before, after);
        if calculated <= y {
            e.text.push_str(&format!(
                ": the calculation gives {calculated}, so the life goes directly to {after}; it was never {calculated}, and the change still counts as resolved"
            ));
        }
        life_changed(m, p, before, after);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::scenario::load_str;

    /// A variable belongs to the effect that defined it: another card's
    /// effect naming the same letter reads it as undefined (0, 1.6.2.e),
    /// not as the value the first card's payment gave it.
    #[test]
    fn a_variable_belongs_to_its_own_effect() {
        let text = r#"{ "game": "pmv", "name": "t", "source": "test",
            "cards": { "c": { "name": "C", "type": "command", "cost": 0, "abilities": [ { "trigger": "effect",
                "effect": [ { "do": "pay_life", "amount": "X", "who": "opponent" },
                            { "do": "pay_cost", "var": "X" } ] } ] },
                       "n": { "name": "N", "type": "command", "cost": 0 } },
            "state": { "turn": { "player": "p1", "phase": "main", "number": 3 },
              "players": { "p1": { "zones": { "deck": { "count": 5 },
                  "hand": [ { "id": "a", "card": "c" }, { "id": "b", "card": "c" } ],
                  "node": [ { "id": "n1", "card": "n" }, { "id": "n2", "card": "n" } ] } },
                "p2": { "zones": { "deck": { "count": 5 } } } } },
            "actions": [ { "do": "play", "card": "a" }, { "do": "pass", "player": "p2" },
                         { "do": "pass", "player": "p1", "choices": { "a.pay_x": 2 } },
                         { "do": "play", "card": "b" }, { "do": "pass", "player": "p2" },
                         { "do": "pass", "player": "p1", "choices": { "b.pay_x": 0 } } ] }"#;
        let loaded = load_str("t.json", text, None).expect("test scenario loads");
        let out = loaded.module.run(loaded.game.clone(), &loaded.actions[..6]);
        assert!(out.error.is_none(), "{:?}", out.error);
        // Both resolutions read X before defining it: p2 pays 0 each time.
        assert_eq!(out.state["players"]["p2"]["life"], 25);
        assert!(
            out.trace
                .iter()
                .filter(|e| e.rules.contains(&super::r::VARIABLE_UNDEFINED_ZERO))
                .count()
                == 2
        );
    }
}

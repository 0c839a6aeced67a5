//! The `expect` section: results, rejections, checkpoints and citations
//! checked against the actions and the bundled rulebook.

use super::{Ctx, ScenarioError, k};
use crate::scenario::Scenario;
use crate::scenario::locate::Seg;

/// Checks the expectations of `scenario`, a game of `n` players, against
/// its actions and the game's rulebook `book`.
pub(super) fn check_expect(
    cx: &Ctx,
    book: Option<&crate::rulebook::Rulebook>,
    scenario: &Scenario,
    n: usize,
) -> Result<(), ScenarioError> {
    let ex = &scenario.expect;
    let mut results = vec!["ongoing".to_string(), "draw".to_string()];
    results.extend(crate::engine::PlayerId::all(n).map(crate::engine::player_name));
    if let Some(r) = &ex.result
        && !results.contains(r)
    {
        return Err(cx.err(
            &[k("expect"), k("result")],
            format!("unknown result `{r}`"),
            Some(format!("valid results: {}", results.join(", "))),
        ));
    }
    let n_actions = scenario.actions.len();
    for (i, r) in ex.rejected.iter().enumerate() {
        if r.action >= n_actions {
            return Err(cx.err(
                &[k("expect"), k("rejected"), Seg::Index(i), k("action")],
                format!("value out of range: there is no action {}", r.action),
                Some(format!(
                    "actions are numbered 0 to {}",
                    n_actions.saturating_sub(1)
                )),
            ));
        }
        let rule_path = [k("expect"), k("rejected"), Seg::Index(i), k("rule")];
        match &r.rule {
            crate::scenario::format::RuleIds::One(id) => check_rule(cx, book, id, &rule_path)?,
            crate::scenario::format::RuleIds::Any(ids) => {
                if ids.is_empty() {
                    return Err(cx.err(
                        &rule_path,
                        "an empty list of rules",
                        Some(
                            "give one rule id, or a list of the ids that each forbid the action"
                                .into(),
                        ),
                    ));
                }
                for (j, id) in ids.iter().enumerate() {
                    let p = [rule_path.as_slice(), &[Seg::Index(j)]].concat();
                    check_rule(cx, book, id, &p)?;
                }
            }
        }
    }
    for (i, c) in ex.checkpoints.iter().enumerate() {
        if c.after >= n_actions {
            return Err(cx.err(
                &[k("expect"), k("checkpoints"), Seg::Index(i), k("after")],
                format!("value out of range: there is no action {}", c.after),
                Some(format!(
                    "actions are numbered 0 to {}",
                    n_actions.saturating_sub(1)
                )),
            ));
        }
    }
    for (i, c) in ex.cites.iter().enumerate() {
        check_rule(cx, book, c, &[k("expect"), k("cites"), Seg::Index(i)])?;
    }
    for (i, c) in ex.not_cited.iter().enumerate() {
        check_rule(cx, book, c, &[k("expect"), k("not_cited"), Seg::Index(i)])?;
    }
    for (list, name) in [(&ex.trace, "trace"), (&ex.never, "never")] {
        for (i, p) in list.iter().enumerate() {
            let at = [k("expect"), k(name), Seg::Index(i)];
            for (j, c) in p.cites.iter().enumerate() {
                let path = [at.as_slice(), &[k("cites"), Seg::Index(j)]].concat();
                check_rule(cx, book, c, &path)?;
            }
            if let Some(a) = p.action
                && a >= n_actions
            {
                return Err(cx.err(
                    &[at.as_slice(), &[k("action")]].concat(),
                    format!("value out of range: there is no action {a}"),
                    Some(format!(
                        "actions are numbered 0 to {}",
                        n_actions.saturating_sub(1)
                    )),
                ));
            }
            if let Some((what, v)) = p.changes.iter().find(|(_, v)| !change_shape_ok(v)) {
                return Err(cx.err(
                    &[at.as_slice(), &[k("changes"), k(what)]].concat(),
                    format!("`{what}`: a change is a value, or an object with `before` and/or `after`, not {v}"),
                    Some(r#"e.g. "p2.defense": -1 or "p2.defense": {"before": 2, "after": -1}"#.into()),
                ));
            }
        }
    }
    Ok(())
}

pub(in crate::scenario) fn check_rule(
    cx: &Ctx,
    book: Option<&crate::rulebook::Rulebook>,
    id: &str,
    path: &[Seg],
) -> Result<(), ScenarioError> {
    // Before the rulebook parser exists the bundle has no clauses; then
    // citations cannot be checked here (the citation test still runs).
    if let Some(b) = book
        && !b.clauses.is_empty()
        && !crate::bundle::has_clause(b, id)
    {
        let near =
            crate::rulebook::address::nearest(id, b.clauses.iter().map(|c| c.id.as_str()), 5);
        return Err(cx.err(
            path,
            format!("no clause `{id}` in the bundled {} rulebook", b.meta.game),
            Some(format!("nearest ids: {}", near.join(", "))),
        ));
    }
    Ok(())
}

/// A change is a scalar (the value after) or `{before?, after?}`.
fn change_shape_ok(v: &serde_json::Value) -> bool {
    match v {
        serde_json::Value::Object(o) => {
            !o.is_empty() && o.keys().all(|key| key == "before" || key == "after")
        }
        serde_json::Value::Array(_) | serde_json::Value::Null => false,
        _ => true,
    }
}

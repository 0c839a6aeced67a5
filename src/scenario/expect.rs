//! Comparing a run's outcome with the scenario's expected ruling: partial
//! state match, result, rejections, checkpoints and cited clauses. A failure
//! renders as a unified diff of expected vs actual (the actual side projected
//! onto the keys the expectation names).

use serde_json::{Map, Value, json};
use similar::TextDiff;

use super::format::{Expect, ExpectRejected, RuleIds, covers};
use crate::engine::Outcome;

/// Marker for a key the expectation names and the state lacks. Written as
/// an expected value it asserts the key is absent: a token that ceased to
/// exist, `"cards": {"token.1": "<missing>"}`; a counter removed,
/// `"counters": {"charge": "<missing>"}` (scenarios/README.md, "Asserting
/// absence"). The projection of an absent key is this marker, so the two
/// are equal exactly when the key is absent; a present key never projects
/// to it (a card's or player's values are numbers, lists and objects, and
/// names of the board's own vocabulary).
pub const MISSING: &str = "<missing>";

/// `actual` restricted to the shape of `expected`: objects keep only the
/// expected keys (absent ones become [`MISSING`]); arrays and scalars are
/// taken whole. An empty expected object is taken whole too: it means an
/// empty object (`"counters": {}` is "no counters"), never "anything".
pub fn project(actual: &Value, expected: &Value) -> Value {
    match (expected, actual) {
        (Value::Object(e), Value::Object(a)) if !e.is_empty() => {
            let mut out = Map::new();
            for (k, ev) in e {
                out.insert(
                    k.clone(),
                    match a.get(k) {
                        Some(av) => project(av, ev),
                        None => Value::String(MISSING.into()),
                    },
                );
            }
            Value::Object(out)
        }
        _ => actual.clone(),
    }
}

/// Whether `project(actual, expected) == *expected`, without building the
/// projection: a passing check (most of them) needs only the answer.
pub fn matches(actual: &Value, expected: &Value) -> bool {
    match (expected, actual) {
        (Value::Object(e), Value::Object(a)) if !e.is_empty() => {
            e.iter().all(|(k, ev)| match a.get(k) {
                Some(av) => matches(av, ev),
                None => ev.as_str() == Some(MISSING),
            })
        }
        _ => actual == expected,
    }
}

/// The result of checking one scenario.
#[derive(Debug, Clone)]
pub struct Verdict {
    /// Every expectation held.
    pub pass: bool,
    /// Expected side: every part the file states.
    pub expected: Value,
    /// Actual side, projected onto the parts the file states.
    pub actual: Value,
    /// Short descriptions of each failing part.
    pub failures: Vec<String>,
}

impl Verdict {
    /// A unified diff of the two sides as pretty JSON, expected (`-`) vs
    /// actual (`+`). Rendered only here: a passing check never needs it.
    pub fn diff(&self, file: &str) -> String {
        let pretty = |v: &Value| serde_json::to_string_pretty(v).unwrap_or_default() + "\n";
        let (expected, actual) = (pretty(&self.expected), pretty(&self.actual));
        TextDiff::from_lines(&expected, &actual)
            .unified_diff()
            .context_radius(3)
            .header(&format!("{file} (expected)"), &format!("{file} (actual)"))
            .to_string()
    }
}

/// Checks `outcome` against `expect`.
pub fn check(expect: &Expect, outcome: &Outcome) -> Verdict {
    let mut exp = Map::new();
    let mut act = Map::new();
    let mut failures = Vec::new();
    if let Some(r) = &expect.result {
        exp.insert("result".into(), json!(r));
        act.insert("result".into(), json!(outcome.result));
        if *r != outcome.result {
            failures.push(format!("result: expected {r}, got {}", outcome.result));
        }
    }
    if let Some(s) = &expect.state {
        let p = project(&outcome.state, s);
        if &p != s {
            failures.push("final state differs".into());
        }
        exp.insert("state".into(), s.clone());
        act.insert("state".into(), p);
    }
    if !expect.checkpoints.is_empty() {
        let mut e = Vec::new();
        let mut a = Vec::new();
        for c in &expect.checkpoints {
            let actual = checkpoint(outcome, c.after)
                .map(|snap| project(snap, &c.state))
                .unwrap_or_else(|| {
                    json!(format!(
                        "{MISSING}: the run stopped before action {}",
                        c.after
                    ))
                });
            if actual != c.state {
                failures.push(format!("checkpoint after action {} differs", c.after));
            }
            e.push(json!({ "after": c.after, "state": c.state }));
            a.push(json!({ "after": c.after, "state": actual }));
        }
        exp.insert("checkpoints".into(), Value::Array(e));
        act.insert("checkpoints".into(), Value::Array(a));
    }
    // Rejections: every actual rejection must be expected, and vice versa.
    let rejections = match_rejections(expect, outcome);
    if !expect.rejected.is_empty() || !rejections.unmatched.is_empty() {
        let rule_json = |r: &RuleIds| match r {
            RuleIds::One(id) => json!(id),
            RuleIds::Any(ids) => json!(ids),
        };
        let mut e = Vec::new();
        let mut a = Vec::new();
        for (r, found) in &rejections.expected {
            e.push(json!({ "action": r.action, "rule": rule_json(&r.rule) }));
            if *found {
                a.push(json!({ "action": r.action, "rule": rule_json(&r.rule) }));
            }
        }
        for (action, rule) in &rejections.unmatched {
            a.push(json!({ "action": action, "rule": rule }));
        }
        if !rejections.hold() {
            failures.push("rejected actions differ".into());
        }
        let key = |v: &Value| v["action"].as_u64().unwrap_or(0);
        a.sort_by_key(key);
        exp.insert("rejected".into(), Value::Array(e));
        act.insert("rejected".into(), Value::Array(a));
    }
    let is_cited = |c: &str| is_cited(outcome, c);
    if !expect.cites.is_empty() {
        let found: Vec<&String> = expect.cites.iter().filter(|c| is_cited(c)).collect();
        if found.len() != expect.cites.len() {
            failures.push("the trace does not cite every expected clause".into());
        }
        exp.insert("cites".into(), json!(expect.cites));
        act.insert("cites".into(), json!(found));
    }
    if !expect.not_cited.is_empty() {
        let wrongly: Vec<&String> = expect.not_cited.iter().filter(|c| is_cited(c)).collect();
        if !wrongly.is_empty() {
            failures.push("the trace cites a clause it must not".into());
        }
        let clean: Vec<&String> = expect.not_cited.iter().filter(|c| !is_cited(c)).collect();
        exp.insert("not_cited".into(), json!(expect.not_cited));
        act.insert("not_cited".into(), json!(clean));
    }
    if !expect.trace.is_empty() {
        let (e, a, f) = super::trace_match::check_order(&expect.trace, &outcome.trace);
        failures.extend(f);
        exp.insert("trace".into(), e);
        act.insert("trace".into(), a);
    }
    if !expect.never.is_empty() {
        let (e, a, f) = super::trace_match::check_never(&expect.never, &outcome.trace);
        failures.extend(f);
        exp.insert("never".into(), e);
        act.insert("never".into(), a);
    }
    Verdict {
        pass: failures.is_empty(),
        expected: Value::Object(exp),
        actual: Value::Object(act),
        failures,
    }
}

/// Whether every expectation holds: [`check`]'s `pass`, without building
/// the two sides of its diff. `judge check` asks this first and calls
/// [`check`] only for a file that fails.
pub fn passes(expect: &Expect, outcome: &Outcome) -> bool {
    expect.result.as_ref().is_none_or(|r| *r == outcome.result)
        && expect
            .state
            .as_ref()
            .is_none_or(|s| matches(&outcome.state, s))
        && expect
            .checkpoints
            .iter()
            .all(|c| checkpoint(outcome, c.after).is_some_and(|snap| matches(snap, &c.state)))
        && match_rejections(expect, outcome).hold()
        && expect.cites.iter().all(|c| is_cited(outcome, c))
        && !expect.not_cited.iter().any(|c| is_cited(outcome, c))
        && super::trace_match::order_holds(&expect.trace, &outcome.trace)
        && super::trace_match::never_holds(&expect.never, &outcome.trace)
}

/// The snapshot taken after action `after`, if the run got that far.
fn checkpoint(outcome: &Outcome, after: usize) -> Option<&Value> {
    outcome.checkpoints.get(after).and_then(Option::as_ref)
}

/// Whether the trace cites clause `c` or a sub-clause of it. A scan per
/// expected clause: a file names a few, and collecting and sorting every id
/// the trace cites cost more than the scans.
fn is_cited(outcome: &Outcome, c: &str) -> bool {
    outcome
        .trace
        .iter()
        .any(|t| t.rules.iter().any(|id| covers(c, id)))
}

/// Expected rejections paired with actual ones.
struct Rejections<'a> {
    /// Each expected rejection, by action, and whether an actual one matched it.
    expected: Vec<(&'a ExpectRejected, bool)>,
    /// Actual rejections no expected one matched: action and rule.
    unmatched: Vec<(usize, String)>,
}

impl Rejections<'_> {
    /// Every actual rejection was expected, and vice versa.
    fn hold(&self) -> bool {
        self.unmatched.is_empty() && self.expected.iter().all(|(_, found)| *found)
    }
}

/// Pairs expected and actual rejections. An expected rule accepts the cited
/// id, or its sub-clause, or any of a list; a rejection citing further
/// rules (`also`) is matched by any of them.
fn match_rejections<'a>(expect: &'a Expect, outcome: &Outcome) -> Rejections<'a> {
    let mut unmatched: Vec<(usize, String, Vec<&str>)> = outcome
        .rejections
        .iter()
        .map(|r| (r.action, r.rule.to_string(), r.also.clone()))
        .collect();
    unmatched.sort();
    let mut expected: Vec<_> = expect.rejected.iter().collect();
    expected.sort_by_key(|r| r.action);
    let expected = expected
        .into_iter()
        .map(|r| {
            let found = unmatched.iter().position(|(action, rule, also)| {
                *action == r.action
                    && (r.rule.accepts(rule) || also.iter().any(|x| r.rule.accepts(x)))
            });
            if let Some(i) = found {
                unmatched.remove(i);
            }
            (r, found.is_some())
        })
        .collect();
    Rejections {
        expected,
        unmatched: unmatched.into_iter().map(|(a, r, _)| (a, r)).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn projection_is_partial_on_objects_and_whole_on_arrays() {
        let actual = json!({"a": {"b": 1, "c": 2}, "l": [1, 2], "x": 0});
        let expected = json!({"a": {"b": 1}, "l": [1], "z": 3});
        let p = project(&actual, &expected);
        assert_eq!(p, json!({"a": {"b": 1}, "l": [1, 2], "z": MISSING}));
        assert_ne!(p, expected);
        assert_eq!(
            project(&actual, &json!({"a": {"c": 2}})),
            json!({"a": {"c": 2}})
        );
        // An empty object is an empty object, not a wildcard.
        let counters = json!({"k": {"counters": {"stack": 1}}});
        let none = json!({"k": {"counters": {}}});
        assert_ne!(project(&counters, &none), none);
        assert_eq!(project(&none, &none), none);
    }

    #[test]
    fn matches_is_projection_equality() {
        let actual = json!({"a": {"b": 1, "c": 2}, "l": [1, 2], "x": 0, "e": {}});
        for expected in [
            json!({"a": {"b": 1}}),
            json!({"a": {"b": 2}}),
            json!({"l": [1, 2]}),
            json!({"l": [1]}),
            json!({"z": MISSING}),
            json!({"x": MISSING}),
            json!({"z": 3}),
            json!({"x": {"y": 1}}),
            json!({"e": {}}),
            json!({"a": {}}),
            json!({}),
            json!(0),
        ] {
            assert_eq!(
                matches(&actual, &expected),
                project(&actual, &expected) == expected,
                "{expected}"
            );
        }
    }
}

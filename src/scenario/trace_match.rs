//! Matching trace entries against the patterns of `expect.trace` (ordered)
//! and `expect.never`: the procedure, the action, the clauses cited, the
//! values changed, the objects, the words of the text and of the judge's
//! note.

use serde_json::{Map, Value, json};

use super::format::{TracePattern, covers};
use crate::engine::TraceEntry;

/// Whether `entry` matches every part `p` gives.
pub fn matches(p: &TracePattern, entry: &TraceEntry) -> bool {
    p.step.as_ref().is_none_or(|s| step_below(s, &entry.step))
        && p.action.is_none_or(|a| entry.action == Some(a))
        && p.cites
            .iter()
            .all(|c| entry.rules.iter().any(|r| covers(c, r)))
        && p.changes.iter().all(|(what, want)| {
            entry
                .changes
                .iter()
                .any(|ch| ch.what == *what && change_holds(want, &ch.before, &ch.after))
        })
        && p.objects.iter().all(|o| entry.objects.contains(o))
        && p.text
            .as_ref()
            .is_none_or(|t| entry.text.contains(t.as_str()))
        && p.note
            .as_ref()
            .is_none_or(|n| entry.note.as_ref().is_some_and(|x| x.contains(n.as_str())))
}

/// `step` itself, or a step below it (`attack` → `attack.target`).
fn step_below(pattern: &str, step: &str) -> bool {
    step == pattern
        || step
            .strip_prefix(pattern)
            .is_some_and(|rest| rest.starts_with('.'))
}

/// A change's expected value: the value after, or `{before, after}`.
fn change_holds(want: &Value, before: &str, after: &str) -> bool {
    match want {
        Value::Object(o) => {
            o.get("before").is_none_or(|b| scalar(b) == before)
                && o.get("after").is_none_or(|a| scalar(a) == after)
        }
        v => scalar(v) == after,
    }
}

/// How the trace writes a value: numbers and booleans as JSON prints them,
/// strings without quotes.
fn scalar(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// The pattern as the diff shows it (without its comment).
pub fn pattern_json(p: &TracePattern) -> Value {
    let mut v = serde_json::to_value(p).unwrap_or(Value::Null);
    if let Some(o) = v.as_object_mut() {
        o.remove("//");
    }
    v
}

/// `entry` described in the pattern's terms, for the actual side of a
/// diff: only the parts the pattern names.
pub fn project(p: &TracePattern, entry: &TraceEntry) -> Value {
    let mut o = Map::new();
    o.insert("seq".into(), json!(entry.seq));
    if p.step.is_some() {
        o.insert("step".into(), json!(entry.step));
    }
    if p.action.is_some() {
        o.insert("action".into(), json!(entry.action));
    }
    if !p.cites.is_empty() {
        o.insert("cites".into(), json!(entry.rules));
    }
    if !p.changes.is_empty() {
        let ch: Map<String, Value> = entry
            .changes
            .iter()
            .map(|c| {
                (
                    c.what.clone(),
                    json!({ "before": c.before, "after": c.after }),
                )
            })
            .collect();
        o.insert("changes".into(), Value::Object(ch));
    }
    if !p.objects.is_empty() {
        o.insert("objects".into(), json!(entry.objects));
    }
    if p.text.is_some() {
        o.insert("text".into(), json!(entry.text));
    }
    if p.note.is_some() {
        o.insert("note".into(), json!(entry.note));
    }
    Value::Object(o)
}

/// Checks the ordered patterns: each is matched by the first entry after
/// the previous match. Returns (expected, actual, failures) for the diff.
pub fn check_order(patterns: &[TracePattern], trace: &[TraceEntry]) -> (Value, Value, Vec<String>) {
    let (mut exp, mut act, mut failures) = (Vec::new(), Vec::new(), Vec::new());
    let mut from = 0;
    for (i, p) in patterns.iter().enumerate() {
        let want = pattern_json(p);
        exp.push(want.clone());
        match trace[from.min(trace.len())..]
            .iter()
            .position(|e| matches(p, e))
        {
            Some(j) => {
                act.push(want);
                from += j + 1;
            }
            None => {
                failures.push(format!("trace pattern {i} is not matched (in order)"));
                // The nearest candidate: the next entry of the same step.
                let near = trace[from.min(trace.len())..]
                    .iter()
                    .find(|e| p.step.as_ref().is_none_or(|s| step_below(s, &e.step)));
                act.push(match near {
                    Some(e) => project(p, e),
                    None => json!(format!(
                        "{}: no step after #{from} matches",
                        super::expect::MISSING
                    )),
                });
            }
        }
    }
    (Value::Array(exp), Value::Array(act), failures)
}

/// Checks the `never` patterns: no entry may match one.
pub fn check_never(patterns: &[TracePattern], trace: &[TraceEntry]) -> (Value, Value, Vec<String>) {
    let (mut exp, mut act, mut failures) = (Vec::new(), Vec::new(), Vec::new());
    for (i, p) in patterns.iter().enumerate() {
        let want = pattern_json(p);
        exp.push(want.clone());
        match trace.iter().find(|e| matches(p, e)) {
            Some(e) => {
                failures.push(format!(
                    "trace step #{} ({}) matches `never` pattern {i}",
                    e.seq, e.step
                ));
                act.push(json!({ "occurred": project(p, e) }));
            }
            None => act.push(want),
        }
    }
    (Value::Array(exp), Value::Array(act), failures)
}

/// Whether [`check_order`] finds no failure: every pattern matched, in
/// order, each after the one before. Builds nothing.
pub fn order_holds(patterns: &[TracePattern], trace: &[TraceEntry]) -> bool {
    let mut rest = trace.iter();
    patterns.iter().all(|p| rest.any(|e| matches(p, e)))
}

/// Whether [`check_never`] finds no failure: no pattern matches any entry.
pub fn never_holds(patterns: &[TracePattern], trace: &[TraceEntry]) -> bool {
    !patterns.iter().any(|p| trace.iter().any(|e| matches(p, e)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(step: &str, rules: &[&'static str]) -> TraceEntry {
        let mut e = TraceEntry {
            seq: 1,
            action: Some(0),
            step: step.into(),
            text: "p2 takes 3 damage".into(),
            objects: vec!["p2".into()],
            changes: Vec::new(),
            rules: rules.to_vec(),
            note: None,
        };
        e.change("p2.defense", 2, -1);
        e
    }

    fn pattern(v: Value) -> TracePattern {
        serde_json::from_value(v).unwrap()
    }

    #[test]
    fn every_part_of_a_pattern_must_hold() {
        let e = entry("attack.damage", &["8.4.5.2"]);
        assert!(matches(&pattern(json!({})), &e));
        assert!(matches(&pattern(json!({"step": "attack"})), &e));
        assert!(!matches(&pattern(json!({"step": "att"})), &e));
        assert!(matches(&pattern(json!({"cites": ["8.4"]})), &e));
        assert!(!matches(&pattern(json!({"cites": ["8.4.50"]})), &e));
        assert!(matches(
            &pattern(json!({"changes": {"p2.defense": -1}})),
            &e
        ));
        assert!(matches(
            &pattern(json!({"changes": {"p2.defense": {"before": 2, "after": -1}}})),
            &e
        ));
        assert!(!matches(
            &pattern(json!({"changes": {"p2.defense": 0}})),
            &e
        ));
        assert!(matches(
            &pattern(json!({"text": "3 damage", "action": 0})),
            &e
        ));
        assert!(!matches(&pattern(json!({"action": 1})), &e));
        assert!(!matches(&pattern(json!({"note": ""})), &e), "no note");
    }

    #[test]
    fn patterns_match_in_order_and_never_patterns_fail_when_they_occur() {
        let mut a = entry("attack.declare", &["8.4.1"]);
        a.seq = 1;
        let mut b = entry("attack.damage", &["8.4.5.2"]);
        b.seq = 2;
        let trace = vec![a, b];
        let p = |s: &str| pattern(json!({ "step": s }));
        let (_, _, f) = check_order(&[p("attack.declare"), p("attack.damage")], &trace);
        assert!(f.is_empty());
        let (_, act, f) = check_order(&[p("attack.damage"), p("attack.declare")], &trace);
        assert_eq!(f.len(), 1, "out of order");
        assert!(act[1].as_str().unwrap().contains("no step after #2"));
        let (_, _, f) = check_never(&[p("check_timing")], &trace);
        assert!(f.is_empty());
        let (_, act, f) = check_never(&[p("attack")], &trace);
        assert_eq!(f.len(), 1);
        assert_eq!(act[0]["occurred"]["seq"], 1);
    }
}

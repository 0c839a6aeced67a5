//! The values a missing choice can take: from its shape when the engine
//! recorded one ([`Wanted`]), else from its list of options, with the
//! engine itself judging each candidate (a value it refuses as input is
//! not a way to make the decision).

use serde_json::{Value, json};

use crate::engine::{TargetCount, Wanted};

/// The candidate values of a missing choice with these `options`, at
/// most `cap` of them (a board of many cards must not make millions).
pub fn candidates(options: &[String], wanted: Option<Wanted>, cap: usize) -> Vec<Value> {
    match wanted {
        Some(Wanted::Number { max }) => (0..=max).take(cap).map(|n| json!(n)).collect(),
        Some(Wanted::Pick(count)) => picks(options, count, cap),
        Some(Wanted::Reorder) => reorders(options, cap),
        None => scalars(options).into_iter().take(cap).collect(),
    }
}

/// Each option as a scalar of its own type ("true" → `true`, "3" → `3`,
/// an id → a string); a described range ("a number from 0 to N") gives
/// every number in it.
fn scalars(options: &[String]) -> Vec<Value> {
    let mut out: Vec<Value> = Vec::new();
    for o in options {
        let more: Vec<Value> = match range(o) {
            Some((lo, hi)) => (lo..=hi).map(|n| json!(n)).collect(),
            None => vec![typed(o)],
        };
        for v in more {
            if !out.contains(&v) {
                out.push(v);
            }
        }
    }
    out
}

/// An option string as the JSON value a scenario would write (a note in
/// brackets after it, "0 (chosen by p2, …)", left out).
fn typed(o: &str) -> Value {
    let o = o.split_once(" (").map_or(o, |(v, _)| v);
    match o {
        "true" => Value::Bool(true),
        "false" => Value::Bool(false),
        _ => o
            .parse::<i64>()
            .map_or_else(|_| Value::String(o.to_string()), Value::from),
    }
}

/// "a number from A to B", "an integer from A to B" (the engines'
/// descriptions of a number to choose).
fn range(o: &str) -> Option<(i64, i64)> {
    let (_, rest) = o.split_once(" from ")?;
    let (lo, hi) = rest.split_once(" to ")?;
    let hi = hi.split_whitespace().next()?;
    let (lo, hi) = (lo.trim().parse().ok()?, hi.trim().parse().ok()?);
    (lo <= hi && hi - lo <= 10_000).then_some((lo, hi))
}

/// Every order of all `options` but the one listed, at most `cap`.
fn reorders(options: &[String], cap: usize) -> Vec<Value> {
    fn grow(rest: &mut Vec<String>, cur: &mut Vec<String>, out: &mut Vec<Value>, cap: usize) {
        if out.len() > cap {
            return;
        }
        if rest.is_empty() {
            out.push(json!(cur));
            return;
        }
        for i in 0..rest.len() {
            cur.push(rest.remove(i));
            grow(rest, cur, out, cap);
            rest.insert(i, cur.pop().unwrap_or_default());
        }
    }
    let mut out = Vec::new();
    grow(&mut options.to_vec(), &mut Vec::new(), &mut out, cap);
    // The first is the listed order.
    out.into_iter().skip(1).take(cap).collect()
}

/// Every list of distinct options a count allows, in the options' order:
/// exactly N (the N-subsets) or up to N (every subset of 0 to N).
fn picks(options: &[String], count: TargetCount, cap: usize) -> Vec<Value> {
    let sizes = match count {
        TargetCount::Exactly(n) => n..=n,
        TargetCount::UpTo(n) => 0..=n.min(options.len()),
    };
    let mut out = Vec::new();
    for k in sizes {
        let mut pick = Subsets {
            options,
            k,
            cap,
            out: &mut out,
        };
        pick.from(&mut Vec::new(), 0);
    }
    out
}

/// The `k`-subsets of `options` in order, until `out` holds `cap`.
struct Subsets<'a> {
    options: &'a [String],
    k: usize,
    cap: usize,
    out: &'a mut Vec<Value>,
}

impl Subsets<'_> {
    fn from(&mut self, cur: &mut Vec<String>, start: usize) {
        if self.out.len() >= self.cap {
            return;
        }
        if cur.len() == self.k {
            self.out.push(json!(cur));
            return;
        }
        for i in start..self.options.len() {
            cur.push(self.options[i].clone());
            self.from(cur, i + 1);
            cur.pop();
        }
    }
}

/// The values to try instead of `value` when the engine refused it as
/// input (`BadChoice`, its `described` options): the counts the engine
/// names ("exactly N of …", "up to N of …"), else the other form of the
/// same answer (a number as text, one id as a list of one). Empty when
/// there is nothing else to try.
pub fn instead(value: &Value, described: &[String], options: &[String], cap: usize) -> Vec<Value> {
    if let Some(count) = described.first().and_then(|d| count_in(d)) {
        return picks(options, count, cap);
    }
    match value {
        Value::Number(n) => vec![Value::String(n.to_string())],
        Value::String(s) => vec![json!([s])],
        _ => Vec::new(),
    }
}

/// The count a description states: "exactly N of …", "exactly N distinct
/// of …", "up to N of …".
fn count_in(d: &str) -> Option<TargetCount> {
    let (up_to, rest) = match d.strip_prefix("up to ") {
        Some(r) => (true, r),
        None => (false, d.strip_prefix("exactly ")?),
    };
    let n: usize = rest.split_whitespace().next()?.parse().ok()?;
    Some(if up_to {
        TargetCount::UpTo(n)
    } else {
        TargetCount::Exactly(n)
    })
}

/// The most options whose every ordered list is tried (5: 326 lists).
const ARRANGED: usize = 5;

/// Every list of distinct options in every order, the empty one first:
/// the last forms tried for a choice whose options the engine listed but
/// whose count it did not state (none when there are too many options).
pub fn arrangements(options: &[String]) -> Vec<Value> {
    fn grow(options: &[String], cur: &mut Vec<String>, out: &mut Vec<Value>) {
        out.push(json!(cur));
        for o in options {
            if !cur.contains(o) {
                cur.push(o.clone());
                grow(options, cur, out);
                cur.pop();
            }
        }
    }
    let mut out = Vec::new();
    if options.len() <= ARRANGED {
        grow(options, &mut Vec::new(), &mut out);
    }
    out
}

/// Whether the options describe the answer instead of listing it ("a
/// whole number, 0 or more"): such a choice cannot be enumerated.
pub fn described(options: &[String]) -> bool {
    options.iter().any(|o| {
        range(o).is_none()
            && o.split_once(" (")
                .map_or(o.as_str(), |(v, _)| v)
                .contains(' ')
    })
}

/// When the engine asks again for a choice already given, with `options`
/// left: the ways to continue the given `value` (a list taken one item at
/// a time, such as an order of triggered abilities, grows by one option;
/// a single answer the engine did not take becomes a list). Empty when
/// there is nothing to add.
pub fn extend(value: &Value, options: &[String]) -> Vec<Value> {
    let base: Vec<Value> = match value {
        Value::Array(a) => a.clone(),
        Value::String(_) => vec![value.clone()],
        _ => return Vec::new(),
    };
    let fresh: Vec<&String> = options
        .iter()
        .filter(|o| !base.contains(&Value::String((*o).clone())))
        .collect();
    if fresh.is_empty() {
        // The engine did not take the answer in this form: try it as a list.
        return match value {
            Value::String(_) => vec![json!(base)],
            _ => Vec::new(),
        };
    }
    fresh
        .into_iter()
        .map(|o| {
            let mut v = base.clone();
            v.push(Value::String(o.clone()));
            Value::Array(v)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn options_become_typed_scalars() {
        let v = candidates(&ids(&["true", "false"]), None, 100);
        assert_eq!(v, [json!(true), json!(false)]);
        let v = candidates(&ids(&["a number from 0 to 2"]), None, 100);
        assert_eq!(v, [json!(0), json!(1), json!(2)]);
        let v = candidates(&ids(&["c1", "2"]), None, 100);
        assert_eq!(v, [json!("c1"), json!(2)]);
        let v = candidates(&ids(&["an integer from -1 to 1"]), None, 100);
        assert_eq!(v, [json!(-1), json!(0), json!(1)]);
        let v = candidates(
            &ids(&["0 (chosen by p2, 1.2)", "1 (chosen by p2, 1.2)"]),
            None,
            100,
        );
        assert_eq!(v, [json!(0), json!(1)]);
    }

    #[test]
    fn shapes_give_exactly_the_valid_values() {
        let o = ids(&["a", "b", "c"]);
        let v = candidates(&o, Some(Wanted::Pick(TargetCount::Exactly(2))), 100);
        assert_eq!(v, [json!(["a", "b"]), json!(["a", "c"]), json!(["b", "c"])]);
        let v = candidates(&o, Some(Wanted::Pick(TargetCount::UpTo(1))), 100);
        assert_eq!(v, [json!([]), json!(["a"]), json!(["b"]), json!(["c"])]);
        let v = candidates(&[], Some(Wanted::Number { max: 1 }), 100);
        assert_eq!(v, [json!(0), json!(1)]);
    }

    #[test]
    fn another_order_is_every_order_but_the_listed_one() {
        let v = candidates(&ids(&["a", "b", "c"]), Some(Wanted::Reorder), 100);
        assert_eq!(v.len(), 5);
        assert_eq!(v[0], json!(["a", "c", "b"]));
        assert!(!v.contains(&json!(["a", "b", "c"])));
        assert_eq!(
            candidates(&ids(&["a"]), Some(Wanted::Reorder), 100),
            [] as [Value; 0]
        );
    }

    #[test]
    fn a_huge_choice_is_cut_at_the_cap() {
        let many: Vec<String> = (0..200).map(|i| format!("c{i}")).collect();
        let v = candidates(&many, Some(Wanted::Pick(TargetCount::Exactly(5))), 7);
        assert_eq!(v.len(), 7);
        let v = candidates(&[], Some(Wanted::Number { max: u64::MAX }), 3);
        assert_eq!(v, [json!(0), json!(1), json!(2)]);
    }

    #[test]
    fn a_refused_value_is_tried_in_its_other_form_or_by_the_stated_count() {
        let o = ids(&["a", "b"]);
        assert_eq!(instead(&json!("a"), &[], &o, 100), [json!(["a"])]);
        assert_eq!(instead(&json!(3), &[], &o, 100), [json!("3")]);
        let d = ids(&["exactly 2 of a, b"]);
        assert_eq!(instead(&json!("a"), &d, &o, 100), [json!(["a", "b"])]);
        let d = ids(&["up to 1 of a, b (1.2)"]);
        assert_eq!(instead(&json!("a"), &d, &o, 100).len(), 3);
        assert!(instead(&json!(true), &[], &o, 100).is_empty());
    }

    #[test]
    fn every_ordered_list_when_the_count_is_unknown() {
        let v = arrangements(&ids(&["a", "b"]));
        assert_eq!(
            v,
            [
                json!([]),
                json!(["a"]),
                json!(["a", "b"]),
                json!(["b"]),
                json!(["b", "a"])
            ]
        );
        assert_eq!(arrangements(&ids(&["a", "b", "c"])).len(), 16);
        assert!(arrangements(&ids(&["a", "b", "c", "d", "e", "f"])).is_empty());
        assert!(described(&ids(&["a whole number, 0 or more"])));
        assert!(!described(&ids(&["an integer from 0 to 3", "x (p2)"])));
    }

    #[test]
    fn an_order_grows_one_option_at_a_time() {
        let v = extend(&json!(["a"]), &ids(&["b", "c"]));
        assert_eq!(v, [json!(["a", "b"]), json!(["a", "c"])]);
        assert_eq!(extend(&json!("a"), &ids(&["a", "b"])), [json!(["a", "b"])]);
        assert_eq!(extend(&json!("a"), &ids(&["a"])), [json!(["a"])]);
        assert!(extend(&json!(["a"]), &ids(&["a"])).is_empty());
    }
}

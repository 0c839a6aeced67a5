//! Outcomes: how a branch ended (final state, result, rejections, stop
//! error), merged when identical, and what tells the outcomes apart.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;
use serde_json::Value;

use super::{Exploration, Origin, origin_label};
use crate::engine::Outcome;
use crate::scenario::Loaded;

/// How a branch ended. Two branches with equal endings are one outcome.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Ending {
    /// `ongoing`, `draw`, or the winner.
    pub result: String,
    /// The file's actions the engine rejected, with the rule.
    pub rejections: Vec<Rejected>,
    /// The error that stopped the run, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// The final state snapshot.
    pub state: Value,
}

/// A rejected action of an ending.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Rejected {
    /// "action 2 (play c1)".
    pub action: String,
    /// The rule that forbids it.
    pub rule: &'static str,
}

impl Ending {
    /// The ending of a run whose actions come from `origin`.
    pub fn of(loaded: &Loaded, origin: &[Origin], o: &Outcome) -> Ending {
        let label = |i: usize| {
            origin
                .get(i)
                .map_or(format!("action {i}"), |o| origin_label(loaded, *o))
        };
        Ending {
            result: o.result.clone(),
            rejections: o
                .rejections
                .iter()
                .map(|r| Rejected {
                    action: label(r.action),
                    rule: r.rule,
                })
                .collect(),
            error: o.error.as_ref().map(|e| match e.action {
                Some(i) => format!("{}: {}", label(i), e.error),
                None => format!("before the first action: {}", e.error),
            }),
            state: o.state.clone(),
        }
    }

    /// The identity of the ending (serde_json's maps are sorted, so equal
    /// endings give equal text).
    pub fn key(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// The rejections and stop error, in words ("" when none).
    pub fn events(&self) -> String {
        let mut parts: Vec<String> = self
            .rejections
            .iter()
            .map(|r| format!("{} rejected ({})", r.action, r.rule))
            .collect();
        if let Some(e) = &self.error {
            parts.push(format!("stopped: {e}"));
        }
        parts.join("; ")
    }
}

/// One distinct outcome and the branches that reach it.
#[derive(Debug, Clone, Serialize)]
pub struct Group {
    /// How they end.
    pub ending: Ending,
    /// Indices in [`super::Exploration::branches`].
    pub branches: Vec<usize>,
}

impl Group {
    /// A group of no branches yet.
    pub fn new(ending: Ending) -> Group {
        Group {
            ending,
            branches: Vec::new(),
        }
    }
}

/// Each decision of each branch as (what was decided, the answer), in
/// words: computed once for [`choices`].
pub fn answers(loaded: &Loaded, e: &Exploration) -> Said {
    let branches: Vec<Vec<(String, String)>> = e
        .branches
        .iter()
        .map(|b| {
            b.path
                .iter()
                .map(|d| (d.label(loaded), d.answer(loaded)))
                .collect()
        })
        .collect();
    let mut everywhere: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (label, answer) in branches.iter().flatten() {
        everywhere
            .entry(label.clone())
            .or_default()
            .insert(answer.clone());
    }
    Said {
        branches,
        everywhere,
    }
}

/// The decisions of every branch, in words ([`answers`]).
pub struct Said {
    /// Each branch's (what was decided, the answer).
    branches: Vec<Vec<(String, String)>>,
    /// Every answer given to each decision anywhere.
    everywhere: BTreeMap<String, BTreeSet<String>>,
}

/// For one group, each decision the explored branches made with the
/// answers its branches gave (`said`: [`answers`]): `any` when they gave
/// every answer given anywhere, `(not made)` for branches that did not
/// meet the decision.
pub fn choices(said: &Said, g: &Group) -> Vec<(String, Vec<String>)> {
    let mut here: BTreeMap<&String, (BTreeSet<&String>, usize)> = BTreeMap::new();
    for &b in &g.branches {
        for (label, answer) in &said.branches[b] {
            let e = here.entry(label).or_default();
            e.0.insert(answer);
            e.1 += 1;
        }
    }
    let mut out = Vec::new();
    for (label, everywhere) in &said.everywhere {
        let (mine, met) = here.get(label).cloned().unwrap_or_default();
        let all_of_them = mine.len() == everywhere.len() && everywhere.len() > 1;
        let mut shown: Vec<String> = if all_of_them {
            vec!["any".to_string()]
        } else {
            mine.into_iter().cloned().collect()
        };
        if met < g.branches.len() {
            shown.push("(not made)".to_string());
        }
        out.push((label.clone(), shown));
    }
    out
}

/// The parts of `state` at the `paths` of [`flatten`] (what tells the
/// outcomes apart), as a partial state an expectation can state.
pub fn only(state: &Value, paths: &BTreeSet<&String>) -> Option<Value> {
    fn keep(v: &Value, path: &str, paths: &BTreeSet<&String>) -> Option<Value> {
        match v {
            Value::Object(m) if !m.is_empty() => {
                let kept: serde_json::Map<String, Value> = m
                    .iter()
                    .filter_map(|(k, x)| {
                        let p = if path.is_empty() {
                            k.clone()
                        } else {
                            format!("{path}.{k}")
                        };
                        keep(x, &p, paths).map(|x| (k.clone(), x))
                    })
                    .collect();
                (!kept.is_empty()).then_some(Value::Object(kept))
            }
            _ => paths.contains(&path.to_string()).then(|| v.clone()),
        }
    }
    keep(state, "", paths)
}

/// The leaves of a snapshot, by dotted path (`cards.f1.zone`).
pub fn flatten(v: &Value, path: &str, out: &mut BTreeMap<String, Value>) {
    match v {
        Value::Object(m) if !m.is_empty() => {
            for (k, x) in m {
                let p = if path.is_empty() {
                    k.clone()
                } else {
                    format!("{path}.{k}")
                };
                flatten(x, &p, out);
            }
        }
        _ => {
            out.insert(path.to_string(), v.clone());
        }
    }
}

/// For each group, the parts of its final state that are not the same in
/// every group (path → its value there; absent parts are `null`).
pub fn differences(groups: &[Group]) -> Vec<BTreeMap<String, Value>> {
    let flat: Vec<BTreeMap<String, Value>> = groups
        .iter()
        .map(|g| {
            let mut m = BTreeMap::new();
            flatten(&g.ending.state, "", &mut m);
            m
        })
        .collect();
    let mut paths: Vec<&String> = flat.iter().flat_map(|m| m.keys()).collect();
    paths.sort();
    paths.dedup();
    let varies = |p: &String| {
        let first = flat.first().and_then(|m| m.get(p));
        flat.iter().any(|m| m.get(p) != first)
    };
    let varying: Vec<&String> = paths.into_iter().filter(|p| varies(p)).collect();
    flat.iter()
        .map(|m| {
            varying
                .iter()
                .map(|p| ((*p).clone(), m.get(*p).cloned().unwrap_or(Value::Null)))
                .collect()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn group(state: Value) -> Group {
        Group::new(Ending {
            result: "ongoing".into(),
            rejections: vec![],
            error: None,
            state,
        })
    }

    #[test]
    fn only_the_parts_that_differ_are_shown() {
        let a =
            group(json!({"cards": {"x": {"zone": "p1.hand", "damage": 0}}, "turn": {"number": 1}}));
        let b = group(
            json!({"cards": {"x": {"zone": "p1.field", "damage": 0}}, "turn": {"number": 1}}),
        );
        let d = differences(&[a, b]);
        assert_eq!(d[0].len(), 1);
        assert_eq!(d[0]["cards.x.zone"], json!("p1.hand"));
        assert_eq!(d[1]["cards.x.zone"], json!("p1.field"));
        assert!(differences(&[group(json!({"a": 1}))])[0].is_empty());
    }
}

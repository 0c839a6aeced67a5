//! The PP a play costs (10.4.4, 10.4.4.1): the printed cost changed by the
//! permanent abilities on the field (10.3.5) that set it (10.10.2.4: first)
//! or raise and lower it, never below 0 when paid (1.3.2.2.1).

use super::*;

/// What a play of one card costs, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct PlayCost {
    /// The card's cost information (unchanged by any effect, 10.4.4.1).
    pub printed: i64,
    /// The cost after the changes, before the floor at 0.
    pub raw: i64,
    /// The PP paid.
    pub pay: i64,
    /// The set value applied, if any, and its source.
    pub set: Option<(i64, CardId)>,
    /// The ± changes applied, with their sources.
    pub deltas: Vec<(i64, CardId)>,
    /// Cards whose cost-changing permanent ability is disabled now by its
    /// condition (10.3.3).
    pub disabled: Vec<CardId>,
    /// Two or more effects setting the cost to different values: the
    /// player orders them (10.10.2.1) and the last stands; `set` is the
    /// last as the cards lie until they are ordered ([`PlayCost::with_set`]).
    pub rival_sets: Vec<(i64, CardId)>,
}

/// The cards on the field with a cost-changing permanent ability whose
/// condition does not hold now (10.3.3).
fn disabled_cost_changes(g: &Game) -> Vec<CardId> {
    let mut out = Vec::new();
    for p in [g.turn.active, g.opponent(g.turn.active)] {
        for id in g.zone_of(p, zn::FIELD) {
            let Some(d) = eff_def(g, id) else { continue };
            if d.abilities.iter().any(|a| {
                a.trigger == "permanent"
                    && a.condition.as_ref().is_some_and(|c| !holds(g, c, p, id).0)
                    && a.effect
                        .iter()
                        .any(|e| matches!(e, Effect::ModifyCost { .. } | Effect::SetCost { .. }))
            }) {
                out.push(id.clone());
            }
        }
    }
    out
}

/// The permanent abilities (trigger `permanent`) of the cards on the
/// field, in the order the cards were put there (10.9.1.6.1).
pub(super) fn permanent_effects(g: &Game) -> Vec<(CardId, PlayerId, Effect)> {
    let tp = g.turn.active;
    let mut out = Vec::new();
    for p in [tp, g.opponent(tp)] {
        for id in g.zone_of(p, zn::FIELD) {
            let Some(d) = eff_def(g, id) else { continue };
            for ab in d.abilities.iter().filter(|a| {
                a.trigger == "permanent"
                    && a.condition.as_ref().is_none_or(|c| holds(g, c, p, id).0)
            }) {
                for e in &ab.effect {
                    out.push((id.clone(), p, e.clone()));
                }
            }
        }
    }
    out
}

/// 10.4.4.1 / 10.10.2.4: the PP `p` pays to play `card`.
pub(super) fn play_cost(g: &Game, p: PlayerId, card: &str) -> R<PlayCost> {
    let def = g.def_of(card);
    let printed = def.and_then(|d| d.cost).unwrap_or(0);
    let card_type = def.map(|d| d.card_type.clone()).unwrap_or_default();
    let applies = |master: PlayerId, who: Who, types: &[String]| {
        who_players(g, master, who).contains(&p) && (types.is_empty() || types.contains(&card_type))
    };
    let mut sets: Vec<(i64, CardId)> = Vec::new();
    let mut deltas = Vec::new();
    for (src, master, e) in permanent_effects(g) {
        match e {
            Effect::SetCost { cost, who, types } if applies(master, who, &types) => {
                sets.push((cost, src));
            }
            Effect::ModifyCost {
                cost, who, types, ..
            } if applies(master, who, &types) && cost != 0 => deltas.push((cost, src)),
            _ => {}
        }
    }
    sets.dedup_by(|a, b| a.0 == b.0);
    let rival_sets = if sets.len() > 1 {
        sets.clone()
    } else {
        Vec::new()
    };
    let pc = PlayCost {
        printed,
        raw: printed,
        pay: printed.max(0),
        set: None,
        deltas,
        disabled: disabled_cost_changes(g),
        rival_sets,
    };
    Ok(match sets.pop() {
        Some(s) => pc.with_set(Some(s)),
        None => pc.with_set(None),
    })
}

impl PlayCost {
    /// The cost with `set` the value set last (10.10.2.4: before the ±).
    pub fn with_set(mut self, set: Option<(i64, CardId)>) -> PlayCost {
        let base = set.as_ref().map_or(self.printed, |(v, _)| *v);
        self.raw = base + self.deltas.iter().map(|(d, _)| d).sum::<i64>();
        self.pay = self.raw.max(0);
        self.set = set;
        self
    }

    /// The least the player can pay, whichever set value they apply last.
    pub fn cheapest(&self) -> i64 {
        self.rival_sets
            .iter()
            .map(|s| self.clone().with_set(Some(s.clone())).pay)
            .chain([self.pay])
            .min()
            .unwrap_or(self.pay)
    }

    /// Whether any effect changed what is paid.
    pub fn changed(&self) -> bool {
        self.set.is_some() || !self.deltas.is_empty() || self.printed < 0
    }

    /// The trace's account of the changes.
    pub fn explain(&self) -> String {
        let mut parts = vec![format!("cost {}", self.printed)];
        if let Some((v, s)) = &self.set {
            parts.push(format!("set to {v} by {s} first"));
        }
        for (d, s) in &self.deltas {
            parts.push(format!("{d:+} by {s}"));
        }
        if self.raw < 0 {
            parts.push(format!("{} is paid as 0", self.raw));
        }
        parts.join(", ")
    }
}

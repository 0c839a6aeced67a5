//! Paying energy (1.2.3): each coloured symbol freezes one released card
//! of that colour in the payer's energy zone (1.2.3-1; a multicolour card
//! is every one of its colours, 2.4.2-2); colourless symbols freeze any
//! released energy card or released smash-zone card (1.2.3-2, 2.23.7-4).
//! Everything is paid at once (4.7.2-8); a frozen card can't be frozen
//! again (2.26.1-1), so it can't pay.

use crate::engine::{CardId, EngineError, PlayerId, player_name};

use super::{COLOURS, FROZEN, M, colours, illegal, r};

/// A cost in energy symbols.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Cost {
    /// Per colour of [`COLOURS`].
    pub coloured: [i64; 5],
    pub colourless: i64,
}

impl Cost {
    /// The symbols of a card's stats with `prefix` (`""` for the use cost,
    /// `"move_"` for the move cost; the move cost's colourless part is
    /// `move`).
    pub fn of(m: &M, card: &str, prefix: &str) -> Cost {
        let g = &m.game;
        let mut c = Cost::default();
        for (i, col) in COLOURS.iter().enumerate() {
            c.coloured[i] = super::stat(g, card, &format!("{prefix}{col}")).max(0);
        }
        c.colourless = if prefix.is_empty() {
            let symbols: i64 = c.coloured.iter().sum::<i64>() + super::stat(g, card, "colorless");
            if symbols == 0 {
                super::use_cost(g, card)
            } else {
                super::stat(g, card, "colorless")
            }
        } else {
            // `move` for the move cost, `advance` for 進撃's.
            super::stat(g, card, prefix.trim_end_matches('_'))
        }
        .max(0);
        c
    }
    /// Total number of cards to freeze.
    pub fn total(&self) -> i64 {
        self.coloured.iter().sum::<i64>() + self.colourless
    }
    /// The symbols as written: `<赤1><無色2>`.
    pub fn text(&self) -> String {
        const JA: [&str; 5] = ["赤", "黒", "青", "白", "緑"];
        let mut s = String::new();
        for (i, n) in self.coloured.iter().enumerate() {
            if *n > 0 {
                s.push_str(&format!("<{}{n}>", JA[i]));
            }
        }
        if self.colourless > 0 || s.is_empty() {
            s.push_str(&format!("<無色{}>", self.colourless));
        }
        s
    }
}

impl Cost {
    /// Adds another cost's symbols (an additional cost paid with it).
    pub fn add(&mut self, other: &Cost) {
        for (a, b) in self.coloured.iter_mut().zip(other.coloured) {
            *a += b;
        }
        self.colourless += other.colourless;
    }
    /// Adds the X symbols of `card`'s cost (stat prefix `prefix`: `""`
    /// the use cost, `awaken_` 覚醒's) for the value `x` decided:
    /// colourless X (stat `x`) and coloured X (`x_red` …, 1.2.3-3).
    pub fn add_x(&mut self, m: &M, card: &str, prefix: &str, x: i64) {
        self.colourless += x * super::stat(&m.game, card, &format!("{prefix}x")).max(0);
        for (i, col) in COLOURS.iter().enumerate() {
            let s = format!("{prefix}x_{col}");
            self.coloured[i] += x * super::stat(&m.game, card, &s).max(0);
        }
    }
}

/// Whether `card`'s cost (stat prefix `prefix`) has an X symbol (1.2.3-3).
pub fn has_x(m: &M, card: &str, prefix: &str) -> bool {
    std::iter::once(format!("{prefix}x"))
        .chain(COLOURS.iter().map(|c| format!("{prefix}x_{c}")))
        .any(|s| super::stat(&m.game, card, &s) > 0)
}

/// The value of X, decided by the player playing `card` as it is played
/// (1.2.3-3, 4.7.2-3): the choice `x`, a whole number from 0. A card with
/// no X symbol has none to decide (0).
pub fn decide_x(m: &mut M, p: PlayerId, card: &str, prefix: &str) -> Result<i64, EngineError> {
    if !has_x(m, card, prefix) {
        return Ok(0);
    }
    let x = match m.choices.take("x") {
        Some(v) => v
            .as_i64()
            .filter(|n| (0..=1000).contains(n))
            .ok_or_else(|| EngineError::BadChoice {
                choice: "x".into(),
                value: v.to_string(),
                options: vec!["a whole number from 0".into()],
            })?,
        None => {
            return Err(EngineError::MissingChoice {
                choice: "x".into(),
                options: vec!["0".into(), "1".into(), "2".into(), "…".into()],
            });
        }
    };
    m.record(
        "x",
        format!(
            "{} decides X = {x} for {card} as it is played",
            player_name(p)
        ),
        &[r::PAY_X, r::COST_FIXED],
    );
    Ok(x)
}

/// Released cards of `p` in `zone`.
fn released(m: &M, p: PlayerId, zone: &str) -> Vec<CardId> {
    m.game
        .zone_of(p, zone)
        .iter()
        .filter(|id| m.game.card(id).is_some_and(|c| !c.has(FROZEN)))
        .cloned()
        .collect()
}

/// A payment naming a frozen card of the payer's energy or smash zone is
/// an illegal action, not a bad choice: the card exists where payments
/// come from, but a frozen card can't be frozen again (2.26.1-1), so it
/// pays nothing (1.2.3-1, 1.2.3-2).
fn refuse_frozen(
    m: &mut M,
    p: PlayerId,
    cost: &Cost,
    what: &str,
    payable: &[CardId],
) -> Result<(), EngineError> {
    let named = super::named_in_choice(m, "pay");
    let frozen = |id: &String| {
        ["energy", "smash"]
            .iter()
            .any(|z| m.game.zone_of(p, z).iter().any(|c| **c == **id))
            && m.game.card(id).is_some_and(|c| c.has(FROZEN))
    };
    let Some(card) = named.iter().find(|id| frozen(id)) else {
        return Ok(());
    };
    let card = card.clone();
    m.choices.take("pay");
    Err(illegal(
        r::NO_DOUBLE_FREEZE,
        format!(
            "{what} costs {}: {card} is frozen, and a frozen card can't be frozen again to pay",
            cost.text()
        ),
        payable.iter().map(|c| c.to_string()).collect(),
    ))
}

/// Whether `cost` can be paid from the released cards `energy` and
/// `smash`: the coloured symbols by distinct energy cards of their colour,
/// the colourless ones by any cards left (1.2.3-1, 1.2.3-2).
fn can_pay(m: &M, cost: &Cost, energy: &[CardId], smash: &[CardId]) -> bool {
    match_colours(m, cost, energy)
        .is_some_and(|used| (energy.len() - used.len() + smash.len()) as i64 >= cost.colourless)
}

/// The released cards that take part in at least one legal payment of
/// `cost` (for an honest "legal instead"): none when it can't be paid at
/// all. A card pays a colourless symbol, or a coloured symbol of one of
/// its colours, with the rest paid from the other cards.
fn payable(m: &M, cost: &Cost, energy: &[CardId], smash: &[CardId]) -> Vec<CardId> {
    if !can_pay(m, cost, energy, smash) {
        return Vec::new();
    }
    let without = |v: &[CardId], c: &CardId| -> Vec<CardId> {
        v.iter().filter(|x| *x != c).cloned().collect()
    };
    let as_colourless = |c: &CardId| {
        cost.colourless > 0 && {
            let mut rest = cost.clone();
            rest.colourless -= 1;
            can_pay(m, &rest, &without(energy, c), &without(smash, c))
        }
    };
    let as_coloured = |c: &CardId| {
        energy.contains(c)
            && COLOURS.iter().enumerate().any(|(i, col)| {
                cost.coloured[i] > 0 && colours(&m.game, c).contains(col) && {
                    let mut rest = cost.clone();
                    rest.coloured[i] -= 1;
                    can_pay(m, &rest, &without(energy, c), smash)
                }
            })
    };
    energy
        .iter()
        .chain(smash)
        .filter(|c| as_colourless(c) || as_coloured(c))
        .cloned()
        .collect()
}

/// Assigns the coloured symbols to distinct cards of `pool` that have
/// that colour (augmenting paths); `None` when impossible.
fn match_colours(m: &M, cost: &Cost, pool: &[CardId]) -> Option<Vec<CardId>> {
    let slots: Vec<&str> = COLOURS
        .iter()
        .enumerate()
        .flat_map(|(i, c)| std::iter::repeat_n(*c, cost.coloured[i] as usize))
        .collect();
    let cols: Vec<Vec<&str>> = pool.iter().map(|id| colours(&m.game, id)).collect();
    let mut owner: Vec<Option<usize>> = vec![None; pool.len()];
    fn augment(
        s: usize,
        slots: &[&str],
        cols: &[Vec<&str>],
        owner: &mut Vec<Option<usize>>,
        seen: &mut Vec<bool>,
    ) -> bool {
        for j in 0..cols.len() {
            if seen[j] || !cols[j].contains(&slots[s]) {
                continue;
            }
            seen[j] = true;
            if owner[j].is_none_or(|o| augment(o, slots, cols, owner, seen)) {
                owner[j] = Some(s);
                return true;
            }
        }
        false
    }
    for s in 0..slots.len() {
        let mut seen = vec![false; pool.len()];
        if !augment(s, &slots, &cols, &mut owner, &mut seen) {
            return None;
        }
    }
    Some(
        owner
            .iter()
            .enumerate()
            .filter(|(_, o)| o.is_some())
            .map(|(j, _)| pool[j].clone())
            .collect(),
    )
}

/// Pays `cost` for `p`: the cards named by the choice `pay` (ids of the
/// energy and smash zones), or the engine's choice when it is not given
/// (single-colour energy cards for coloured symbols, smash cards first for
/// colourless, said in a judge's note). Freezes them and records it on
/// the last trace entry. An impossible payment is illegal (1.2.3).
pub fn pay(m: &mut M, p: PlayerId, cost: &Cost, what: &str) -> Result<(), EngineError> {
    let strict = super::reading(&m.game, "reading_colourless_card_cannot_pay");
    let energy: Vec<CardId> = released(m, p, "energy")
        .into_iter()
        .filter(|c| !strict || !colours(&m.game, c).is_empty())
        .collect();
    let smash = released(m, p, "smash");
    let options: Vec<CardId> = energy.iter().chain(&smash).cloned().collect();
    let n = crate::engine::TargetCount::Exactly(cost.total().max(0) as usize);
    m.choices.default_some_of("pay", &options, n);
    let can = payable(m, cost, &energy, &smash);
    let legal_instead = || can.iter().map(|c| c.to_string()).collect::<Vec<_>>();
    refuse_frozen(m, p, cost, what, &can)?;
    let chosen = m.choices.ids("pay", &options)?;
    let (cards, engine_chose) = match chosen {
        Some(list) => {
            let mut distinct = list.clone();
            distinct.sort();
            distinct.dedup();
            if distinct.len() != list.len() || list.len() as i64 != cost.total() {
                return Err(illegal(
                    r::PAY_AT_ONCE,
                    format!(
                        "{what} costs {} ({} card(s)); `pay` names {} distinct card(s)",
                        cost.text(),
                        cost.total(),
                        distinct.len()
                    ),
                    legal_instead(),
                ));
            }
            let from_energy: Vec<CardId> = list
                .iter()
                .filter(|c| energy.contains(c))
                .cloned()
                .collect();
            if match_colours(m, cost, &from_energy).is_none() {
                return Err(illegal(
                    r::PAY_COLOURED,
                    format!(
                        "{what} costs {}: its coloured symbols are paid only with released energy cards of that colour",
                        cost.text()
                    ),
                    legal_instead(),
                ));
            }
            (list, false)
        }
        None => {
            // Prefer cards of one colour for the coloured symbols.
            let mut pool = energy.clone();
            pool.sort_by_key(|id| colours(&m.game, id).len());
            let Some(coloured) = match_colours(m, cost, &pool) else {
                return Err(illegal(
                    r::PAY_COLOURED,
                    format!(
                        "{what} costs {}: {} has not enough released energy cards of the colours needed",
                        cost.text(),
                        player_name(p)
                    ),
                    vec![],
                ));
            };
            let rest: Vec<CardId> = smash
                .iter()
                .chain(energy.iter().filter(|c| !coloured.contains(c)))
                .take(cost.colourless as usize)
                .cloned()
                .collect();
            if (rest.len() as i64) < cost.colourless {
                return Err(illegal(
                    r::PAY_COLOURLESS,
                    format!(
                        "{what} costs {}: {} has not enough released energy or smash cards",
                        cost.text(),
                        player_name(p)
                    ),
                    vec![],
                ));
            }
            (coloured.into_iter().chain(rest).collect(), true)
        }
    };
    for c in &cards {
        if let Some(card) = m.game.cards.get_mut(c) {
            card.states.insert(FROZEN.into());
        }
    }
    if let Some(e) = m.trace.last_mut() {
        if !e.rules.contains(&r::PAY_AT_ONCE) {
            e.rules.push(r::PAY_AT_ONCE);
        }
        e.rules.push(r::ENERGY_ONLY_COSTS);
        if cost.coloured.iter().any(|n| *n > 0) {
            e.rules.push(r::PAY_COLOURED);
            e.rules.push(r::COLOUR);
        }
        if cards.iter().any(|c| colours(&m.game, c).len() > 1) {
            e.rules.push(r::MULTICOLOUR);
        }
        let colourless_energy = cards
            .iter()
            .any(|c| energy.contains(c) && colours(&m.game, c).is_empty());
        if colourless_energy {
            e.rules.push(r::COLOURLESS_CARD);
            e.note = Some(
                "judge's reading (A3): 1.2.3-2 pays colourless with energy cards \"of any colour\"; a colourless card (2.4.2-1) pays it too; flag reading_colourless_card_cannot_pay refuses colourless cards".into(),
            );
        }
        if cards.iter().any(|c| smash.contains(c)) {
            e.rules.push(r::SMASH_PAYS);
        }
        if cost.colourless > 0 {
            e.rules.push(r::PAY_COLOURLESS);
        }
        for c in &cards {
            e.change(format!("{c}.state"), "released", "frozen");
        }
        if engine_chose && !cards.is_empty() {
            let chose = format!(
                "payment of {} chosen by the engine (choice `pay` names the cards): {}",
                cost.text(),
                cards.join(", ")
            );
            e.note = Some(match e.note.take() {
                Some(n) => format!("{chose}; {n}"),
                None => chose,
            });
        }
    }
    Ok(())
}

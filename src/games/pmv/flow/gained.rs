//! Text a set card gives its host (装備 10.13.6, 呪符 10.14.4, 6.1.13,
//! 11.3.10.b, 11.3.12).
//!
//! A character with an equipment or a charm set on it gets that card's text
//! other than 「装備」, 「呪符」 and 「神器」 (10.13.6, 10.14.4). From the
//! moment the card is set, the text is treated as the character's
//! (11.3.10.b), so 〔このカード〕 in it is the character (6.1.13); it is
//! also the set card's effect (11.3.12). The text lasts as long as the
//! condition of 10.13.6 holds: the character has the card set on it. When
//! the set card leaves (or the character does), the character no longer
//! has it.
//!
//! It is modelled the way the module reads every text, through `def`: the
//! host is read from a definition equal to the one it shows with the set
//! cards' abilities and character keywords added, and the set card from
//! one without them (its text is the host's: it does not resolve twice).
//! [`refresh`] rebuilds both whenever a card may have been set or left
//! (with the continuous effects, `note_continuous`); `def` checks that the
//! cards are still the same objects and set, so a text never outlives its
//! set card even before the next refresh.
//!
//! Not modelled, and stopped with `not implemented`: a set card's `effect`
//! ability (its resolution is the set of 10.13.2.a / 10.14.2.a), its
//! 維持コスト upkeep (whether the host pays it or is discarded for it,
//! 〔このカード〕 being the host, is not settled here), and a name or text
//! change of a host that has gained text (info.rs).

use super::*;

/// Keywords of a set card the host gains and the module reads on a
/// character (10.13.6, 10.14.4): those of chapter 10 that act on the
/// character itself.
const CHARACTER_KEYWORDS: &[&str] = &[
    "haste",
    "ambush",
    "first_strike",
    "pierce",
    "stealth",
    "vigilance",
    "instant_death",
    "blessing",
    "resist",
];

/// The text one host has gained from its set cards.
#[derive(Debug, Clone)]
pub struct Gained {
    /// The host and the object it is (3.1.7).
    pub host: (CardId, u32),
    /// The key of the definition the host showed when it gained the text.
    pub base: String,
    /// The set cards giving text, as objects, in id order.
    pub from: Vec<(CardId, u32)>,
    /// The key of the host's definition with the text gained.
    pub key: String,
    /// The keys of the set cards' definitions without it, as `from`.
    pub set_keys: Vec<String>,
}

/// Whether `k` is a keyword the host gains.
fn gained_keyword(k: &str) -> bool {
    CHARACTER_KEYWORDS.contains(&k) || k.starts_with("resistance_")
}

/// Whether a set card's definition gives its host any text.
fn gives_text(d: &crate::engine::CardDef) -> bool {
    !d.abilities.is_empty() || d.keywords.iter().any(|k| gained_keyword(k))
}

/// The key of the definition `c` shows now.
fn shown_key(c: &Card) -> &str {
    c.face.as_ref().map_or(c.def.as_str(), |f| f.def.as_str())
}

fn same<'g>(g: &'g Game, (id, inc): &(CardId, u32)) -> Option<&'g Card> {
    g.card(id)
        .filter(|c| c.incarnation == *inc && c.zone.kind == zn::FIELD)
}

/// The entry still in force for `id` as host or as set card, with the
/// index of the set card.
fn entry<'g>(g: &'g Game, id: &str) -> Option<(&'g Gained, Option<usize>)> {
    let list = &pmv(g).gained;
    if list.is_empty() {
        return None;
    }
    let (e, i) = list.iter().find_map(|e| {
        if e.host.0 == id {
            Some((e, None))
        } else {
            e.from
                .iter()
                .position(|(c, _)| c == id)
                .map(|i| (e, Some(i)))
        }
    })?;
    let host = same(g, &e.host)?;
    let holds = shown_key(host) == e.base
        && e.from.iter().all(|s| {
            same(g, s).is_some_and(|c| c.attached_to.as_deref() == Some(e.host.0.as_ref()))
        });
    holds.then_some((e, i))
}

/// The definition `id` is read from when it is a host that gained text or a
/// set card giving it (`def` reads this first).
pub(super) fn gained_def<'g>(g: &'g Game, id: &str) -> Option<&'g crate::engine::CardDef> {
    let (e, i) = entry(g, id)?;
    let key = match i {
        None => &e.key,
        Some(i) => e.set_keys.get(i)?,
    };
    g.defs.get(key).map(|d| &**d)
}

/// The key of the definition `def` reads `c` from (without its face-down
/// check): the one with the text it gained, or the one it shows.
pub(super) fn def_key(g: &Game, c: &Card) -> String {
    match entry(g, &c.id) {
        Some((e, None)) => e.key.clone(),
        Some((e, Some(i))) => e.set_keys.get(i).cloned().unwrap_or_default(),
        None => shown_key(c).to_string(),
    }
}

/// The set cards on the field that give text, by host, in id order.
fn hosts(g: &Game) -> BTreeMap<CardId, Vec<CardId>> {
    let mut by_host: BTreeMap<CardId, Vec<CardId>> = BTreeMap::new();
    for c in g.cards.values() {
        let Some(h) = c.attached_to.as_ref() else {
            continue;
        };
        // A 人気 card has no text (5.4.4).
        if c.zone.kind != zn::FIELD || is_popularity(g, &c.id) {
            continue;
        }
        if g.def_of(&c.id)
            .is_some_and(|d| set_keyword(d).is_some() && gives_text(d))
        {
            by_host.entry(h.clone()).or_default().push(c.id.clone());
        }
    }
    by_host
}

/// The parts of set card definitions this module does not model.
pub(super) fn refuse_unmodelled(g: &Game) -> Option<EngineError> {
    g.cards.values().find_map(|c| {
        let d = g.def_of(&c.id)?;
        let k = set_keyword(d)?;
        let clause = if k == "equip" {
            r::EQUIP_GAINS_TEXT
        } else {
            r::CHARM_GAINS_TEXT
        };
        if d.abilities.iter().any(|a| a.trigger == "effect") {
            return Some(EngineError::NotImplemented {
                clause,
                what: format!(
                    "an `effect` ability on {}, a set card: its resolution is the set itself",
                    c.id
                ),
            });
        }
        if c.attached_to.is_some() && c.zone.kind == zn::FIELD && d.has_keyword("upkeep") {
            return Some(EngineError::NotImplemented {
                clause,
                what: format!(
                    "維持コスト of {}, set on {}: whether its host pays it",
                    c.id,
                    c.attached_to.as_deref().unwrap_or_default()
                ),
            });
        }
        None
    })
}

/// Rebuilds the text each host has gained from its set cards (10.13.6,
/// 10.14.4), recording what a host gains and what it no longer has.
pub(super) fn refresh(m: &mut M) -> R<()> {
    let by_host = hosts(&m.game);
    if by_host.is_empty() && pmv(&m.game).gained.is_empty() {
        return Ok(());
    }
    if let Some(e) = refuse_unmodelled(&m.game) {
        return Err(e);
    }
    let old = std::mem::take(&mut m.game.own::<PmvState>().gained);
    let mut new = Vec::new();
    for (host, sets) in &by_host {
        let Some(h) = m.game.card(host) else { continue };
        if h.zone.kind != zn::FIELD {
            continue;
        }
        let hobj = (h.id.clone(), h.incarnation);
        let base = shown_key(h).to_string();
        let from: Vec<(CardId, u32)> = sets
            .iter()
            .filter_map(|s| m.game.card(s).map(|c| (c.id.clone(), c.incarnation)))
            .collect();
        if let Some(e) = old
            .iter()
            .find(|e| e.host == hobj && e.base == base && e.from == from)
        {
            new.push(e.clone());
            continue;
        }
        new.extend(build(m, hobj, base, from));
    }
    for e in &old {
        let still: Vec<&(CardId, u32)> = new
            .iter()
            .filter(|n| n.host == e.host)
            .flat_map(|n| &n.from)
            .collect();
        let gone: Vec<CardId> = e
            .from
            .iter()
            .filter(|s| !still.contains(s))
            .map(|(s, _)| s.clone())
            .collect();
        if !gone.is_empty() {
            note_ended(m, &e.host, &gone);
        }
    }
    m.game.own::<PmvState>().gained = new;
    Ok(())
}

/// The host's and its set cards' definitions for one host, recorded.
fn build(m: &mut M, host: (CardId, u32), base: String, from: Vec<(CardId, u32)>) -> Option<Gained> {
    let mut d = crate::engine::CardDef::clone(m.game.defs.get(&base)?);
    let mut set_keys = Vec::new();
    let mut parts = Vec::new();
    let mut rules = vec![r::SET_TEXT_IS_HOSTS, r::SET_CARD_TEXT, r::SET_GAINED_BOTH];
    for (s, _) in &from {
        let Some(sd) = m.game.def_of(s).cloned() else {
            continue;
        };
        let gains: Vec<String> = sd
            .keywords
            .iter()
            .filter(|k| gained_keyword(k))
            .cloned()
            .collect();
        d.abilities.extend(sd.abilities.iter().cloned());
        for k in &gains {
            if !d.keywords.contains(k) {
                d.keywords.push(k.clone());
            }
        }
        let triggers: Vec<&str> = sd.abilities.iter().map(|a| a.trigger.as_str()).collect();
        parts.push(format!(
            "{s} (abilities: {}; keywords: {})",
            or_none(&triggers.join(", ")),
            or_none(&gains.join(", "))
        ));
        let rule = if set_keyword(&sd) == Some("equip") {
            r::EQUIP_GAINS_TEXT
        } else {
            r::CHARM_GAINS_TEXT
        };
        if !rules.contains(&rule) {
            rules.push(rule);
        }
        let mut bare = crate::engine::CardDef::clone(&sd);
        bare.abilities.clear();
        bare.keywords.retain(|k| !gained_keyword(k));
        let key = format!(
            "{}^set-on:{}",
            m.game.card(s).map_or("", |c| c.def.as_str()),
            host.0
        );
        m.game.defs.insert_if_absent(key.clone(), || bare);
        set_keys.push(key);
    }
    let names: Vec<&str> = from.iter().map(|(s, _)| s.as_ref()).collect();
    let key = format!("{base}^gains:{}", names.join("+"));
    m.game.defs.insert_if_absent(key.clone(), || d);
    m.record(
        "set_card.text",
        format!(
            "{} has the text of the cards set on it, other than 装備, 呪符 and 神器: {}; it is the character's text (\"this card\" in it is {}) and also the set card's effect, for as long as the card stays set on it",
            host.0,
            parts.join("; "),
            host.0
        ),
        &rules,
    )
    .obj(host.0.clone());
    Some(Gained {
        host,
        base,
        from,
        key,
        set_keys,
    })
}

fn or_none(s: &str) -> &str {
    if s.is_empty() { "none" } else { s }
}

/// Records that `host` no longer has the text it gained from `gone`: the
/// condition of 10.13.6 / 10.14.4, the card set on it, no longer holds.
fn note_ended(m: &mut M, host: &(CardId, u32), gone: &[CardId]) {
    let names = gone
        .iter()
        .map(|s| s.as_ref())
        .collect::<Vec<&str>>()
        .join(", ");
    let why = if same(&m.game, host).is_none() {
        format!("{} left the field", host.0)
    } else {
        format!("{names} is no longer set on {}", host.0)
    };
    let mut rules = Vec::new();
    for s in gone {
        let rule = if m.game.def_of(s).and_then(|d| set_keyword(d)) == Some("equip") {
            r::EQUIP_GAINS_TEXT
        } else {
            r::CHARM_GAINS_TEXT
        };
        if !rules.contains(&rule) {
            rules.push(rule);
        }
    }
    m.record(
        "set_card.text_ends",
        format!(
            "{why}: {} no longer has the text it gained from {names}",
            host.0
        ),
        &rules,
    )
    .obj(host.0.clone());
}

/// Whether `id` is a host whose text includes text gained from a set card.
pub(super) fn has_gained(g: &Game, id: &str) -> bool {
    entry(g, id).is_some_and(|(_, i)| i.is_none())
}

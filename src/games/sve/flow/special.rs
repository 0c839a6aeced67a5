//! Special types (特殊な種類, 2.3.3): SVE's one is EVOLVE (2.3.3.1,
//! printed 'EVOLVE'). A text naming a type refers to the cards that have
//! it (2.3.4), so 「エボルヴフォロワー」 is a follower with special type
//! EVOLVE: the filter words `types: [follower]` and `special: evolve`.

use super::*;

/// 2.3.3.1 the special type EVOLVE (エボルヴ).
pub const EVOLVE: &str = "evolve";

/// The special types a filter's `special` may name.
pub const SPECIAL_TYPES: &[&str] = &[EVOLVE];

/// Whether card `id` has special type `word` now. A card on the field
/// with an evolution-area card attached has that card's information
/// (5.15.2), its special type EVOLVE included; a card in the evolve deck
/// area or the evolution area is an evolve card (6.1.1.3: the evolve deck
/// holds EVOLVE cards only). A card put onto the field straight from the
/// evolve deck is refused at load ([`unsupported`]), so it is never misread.
pub(super) fn has_special(g: &Game, id: &str, word: &str) -> bool {
    let Some(c) = g.card(id) else {
        return false;
    };
    match (word, c.zone.kind) {
        (EVOLVE, zn::FIELD) => evolve_card_of(g, id).is_some(),
        (EVOLVE, zn::EVOLVE_DECK | zn::EVOLUTION) => true,
        _ => false,
    }
}

/// Every filter an ability of `def` writes: its effects' targets, its
/// trigger's `of`, its condition's `cards`.
fn filters(ab: &crate::engine::AbilityDef) -> Vec<&Filter> {
    let mut out: Vec<&Filter> = ab
        .effect
        .iter()
        .flat_map(|e| e.filters())
        .map(|(_, f)| f)
        .collect();
    out.extend(ab.of.iter());
    out.extend(ab.condition.iter().filter_map(|c| c.cards.as_ref()));
    out
}

/// A special-type use SVE cannot read, for the load-time check: a word
/// not in [`SPECIAL_TYPES`]; `special` on a trigger on other cards (the
/// card has left the field, and its last known special type is not kept);
/// or a card put onto the field from the evolve deck (nothing would mark it
/// EVOLVE there).
pub(super) fn unsupported(
    key: &str,
    ab: &crate::engine::AbilityDef,
) -> Option<(&'static str, String)> {
    if let Some(w) = filters(ab)
        .into_iter()
        .filter_map(|f| f.special.as_deref())
        .find(|w| !SPECIAL_TYPES.contains(w))
    {
        return Some((
            r::SPECIAL_TYPE,
            format!(
                "the special type `{w}` in `{key}` (SVE's special types: {})",
                SPECIAL_TYPES.join(", ")
            ),
        ));
    }
    if ab.of.as_ref().is_some_and(|f| f.special.is_some()) {
        return Some((
            r::SPECIAL_TYPE,
            format!(
                "`special` in the `of` of a trigger of `{key}` (the special type of a card that has left the field)"
            ),
        ));
    }
    ab.effect.iter().find_map(|e| {
        let Effect::Put { to, .. } = e else { return None };
        (to == zn::FIELD
            && e.filters()
                .iter()
                .any(|(_, f)| f.named_zones().any(|z| z == zn::EVOLVE_DECK)))
        .then(|| {
            (
                r::SPECIAL_EVOLVE,
                format!("a card of `{key}` put onto the field from the evolve deck (its special type EVOLVE is not kept there)"),
            )
        })
    })
}

//! Card names and titles (206).
//!
//! A card's printed name may carry a title (称号, 206.1.1): written either
//! as `text.title` beside the name, or inside `name` before a space
//! (`探索者 アフィン`, ASCII or ideographic space). Deck building uses the
//! title and the name together (206.1.2); during the game a reference
//! 「X」 sees the name without the title (206.2) and must match it exactly
//! (206.2.1: 「ラクーナ」 is not 「クーナ」), or a name the card is also
//! treated as (`text.also_named`, 206.3, several separated by `/`).

use crate::engine::CardDef;

fn split(name: &str) -> (Option<&str>, &str) {
    let t = name.trim();
    match t.rfind([' ', '\u{3000}']) {
        Some(i) => {
            let (title, rest) = t.split_at(i);
            let rest = rest.trim_start_matches([' ', '\u{3000}']);
            (Some(title.trim()), rest)
        }
        None => (None, t),
    }
}

/// The title, if any (206.1.1).
pub fn title(def: &CardDef) -> Option<String> {
    if let Some(t) = def.text.get("title").filter(|t| !t.trim().is_empty()) {
        return Some(t.trim().to_string());
    }
    split(&def.name).0.map(str::to_string)
}

/// The name a reference sees during the game: without the title (206.2).
pub fn game_name(def: &CardDef) -> String {
    if def.text.contains_key("title") {
        return def.name.trim().to_string();
    }
    split(&def.name).1.to_string()
}

/// The name deck building counts copies by: title and name (206.1.2).
pub fn deck_name(def: &CardDef) -> String {
    match title(def) {
        Some(t) => format!("{t} {}", game_name(def)),
        None => game_name(def),
    }
}

/// Strips the 「」 a reference may be written with (GL:「」).
fn bare(reference: &str) -> &str {
    reference
        .trim()
        .trim_start_matches('「')
        .trim_end_matches('」')
        .trim()
}

/// Whether a reference 「X」 in text names this card during the game:
/// exact match with the name without title, or with a name it is also
/// treated as (206.2, 206.2.1, 206.3). Never a substring match.
pub fn is_named(def: &CardDef, reference: &str) -> bool {
    let r = bare(reference);
    if game_name(def) == r {
        return true;
    }
    def.text
        .get("also_named")
        .is_some_and(|a| a.split('/').any(|n| bare(n) == r))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn def(name: &str, title: Option<&str>) -> CardDef {
        let mut d: CardDef =
            serde_json::from_value(serde_json::json!({ "name": name, "type": "chara" })).unwrap();
        if let Some(t) = title {
            d.text.insert("title".into(), t.into());
        }
        d
    }

    #[test]
    fn a_title_is_not_part_of_the_game_name() {
        let afin = def("探索者 アフィン", None);
        assert!(is_named(&afin, "「アフィン」"));
        assert!(!is_named(&afin, "探索者 アフィン"));
        assert_eq!(deck_name(&afin), "探索者 アフィン");
        let afin2 = def("アフィン", Some("探索者"));
        assert!(is_named(&afin2, "アフィン"));
        assert_eq!(deck_name(&afin2), "探索者 アフィン");
        // 206.1.2: different cards for deck building.
        assert_ne!(deck_name(&afin), deck_name(&def("アフィン", None)));
    }

    #[test]
    fn names_match_exactly() {
        let raquna = def("ラクーナ", None);
        assert!(!is_named(&raquna, "クーナ"));
        assert!(is_named(&def("クーナ", None), "「クーナ」"));
        let mut also = def("X", None);
        also.text
            .insert("also_named".into(), "クーナ/マトイ".into());
        assert!(is_named(&also, "マトイ"));
        assert!(!is_named(&also, "マト"));
    }
}

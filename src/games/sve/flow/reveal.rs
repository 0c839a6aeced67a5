//! Revealing (公開する, 5.20): the cards stay where they are and every
//! player sees their information (5.20.1). A card revealed in a hidden zone
//! (a hand, a deck) is hidden again when it moves to a hidden zone or when
//! the effect that revealed it finishes resolving (5.20.1.1); the scenario
//! state has no "seen" mark, so that is said in the trace only. A card in a
//! hand or deck is chosen while the effect resolves (10.6.2.3).

use super::*;

/// Reveals the cards `targets` of `this`'s effect.
pub(super) fn reveal(m: &mut M, targets: &[String], this: &str) {
    if targets.is_empty() {
        m.record(
            "effect.reveal",
            format!("{this}: there is no card to reveal"),
            &[r::REVEAL, r::IMPOSSIBLE],
        );
        return;
    }
    for t in targets {
        let Some(c) = m.game.card(t) else { continue };
        let zone = c.zone.clone();
        let name = eff_def(&m.game, t)
            .map(|d| d.name.clone())
            .unwrap_or_default();
        let hidden = hidden_zone(&m.game, Some(zone.kind));
        let mut rules = vec![r::REVEAL];
        let after = if hidden {
            rules.push(r::REVEAL_ENDS);
            "; it is hidden again once this effect has resolved or it moves to a hidden zone"
        } else {
            ""
        };
        m.record(
            "effect.reveal",
            format!("{t} ({name}) in {zone} is revealed to every player{after}"),
            &rules,
        )
        .obj(t.clone());
    }
}

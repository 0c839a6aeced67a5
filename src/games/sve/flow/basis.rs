//! Declaring the deck's basis (6.2.1.3): a player whose leader has both a
//! class and a title declares whether their deck is built on the class or
//! on the title (6.1.1.5). The scenario gives it as that player's action
//! `declare` with the choice `basis`: `class` or `title`, before the
//! mulligan decisions.

use super::*;

/// The choice key of the declaration.
const BASIS: &str = "basis";

/// The two bases a deck is built on (6.1.1.5).
const BASES: [&str; 2] = ["class", "title"];

/// Whether `p`'s leader prints both a class and a title (6.2.1.3).
pub(super) fn must_declare(g: &Game, p: PlayerId) -> bool {
    g.zone_of(p, zn::LEADER)
        .first()
        .and_then(|id| g.def_of(id))
        .is_some_and(|d| d.text.contains_key("class") && d.text.contains_key("title"))
}

/// The basis `p` declared, if they had to declare one.
pub(super) fn declared(g: &Game, p: PlayerId) -> Option<&str> {
    g.own_ref::<SveState>()
        .and_then(|s| s.basis.get(p.index()))
        .and_then(|b| b.as_deref())
}

/// The steps awaiting each declaration, in order from the first player.
pub(super) fn declarations(g: &Game, first: PlayerId) -> Vec<Step> {
    [first, g.opponent(first)]
        .into_iter()
        .filter(|&p| must_declare(g, p))
        .map(|player| Step::AwaitBasis { player })
        .collect()
}

/// `player` declares their deck's basis (6.2.1.3) with the choice `basis`.
pub(super) fn declare_basis(m: &mut M, awaiting: Step, player: PlayerId) -> R<()> {
    let Step::AwaitBasis { player: waited } = awaiting else {
        let why = "the deck's basis is declared once, before the game begins, by a player whose leader has a class and a title";
        return refuse(m, awaiting, r::PRE_GAME_BASIS, why.into(), Vec::new());
    };
    if player != waited {
        let why = format!("{} declares first", player_name(waited));
        return refuse(m, awaiting, r::PRE_GAME_BASIS, why, vec!["declare".into()]);
    }
    let value = m.choices.take(BASIS);
    let Some(basis) = value
        .as_ref()
        .and_then(|v| v.as_str())
        .filter(|b| BASES.contains(b))
    else {
        m.stack.push(awaiting);
        return Err(bad(format!(
            "`declare` needs the choice `{BASIS}`: `class` or `title` (6.2.1.3)"
        )));
    };
    let st = m.game.own::<SveState>();
    if st.basis.len() <= player.index() {
        st.basis.resize(player.index() + 1, None);
    }
    st.basis[player.index()] = Some(basis.to_string());
    m.record(
        "setup.basis",
        format!(
            "{}'s leader has a class and a title: they declare their deck is built on its {basis}",
            player_name(player)
        ),
        &[r::PRE_GAME_BASIS],
    );
    Ok(())
}

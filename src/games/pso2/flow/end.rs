//! The game's end as a step of its own (`game.end`), the last of the
//! trace: the game ends when one player is left (101.4; a player who loses
//! leaves it, 101.5), a card's text may decide it (103.1.1), and in the
//! raid battle the Boss's Life at 0 or every party deck at 0 decides it
//! (RAID:F4). The step cites the clauses that decide the end; once it is
//! recorded no procedure runs (the checks on `result` in priority and
//! resolution stop them).

use super::{M, r};
use crate::engine::GameResult;

/// Sets `result` and, when it ends the game, records the end: `winner`
/// says who wins in the trace's words (the party in a raid), `deciding`
/// the clauses that decided it (101.4 is always among them).
pub fn record(m: &mut M, result: GameResult, winner: Option<String>, deciding: &[&'static str]) {
    let text = match &result {
        GameResult::Ongoing => return,
        GameResult::Draw => "no player is left in the game: the game ends in a draw".to_string(),
        GameResult::Win(w) => format!(
            "the game ends: {} wins",
            winner.unwrap_or_else(|| w.clone())
        ),
    };
    let mut rules = vec![r::GAME_ENDS];
    rules.extend(deciding.iter().copied().filter(|c| *c != r::GAME_ENDS));
    m.end(result, text, &rules);
}

/// The end when the players left decide it (101.4, 101.5).
pub fn when_one_is_left(m: &mut M, deciding: &[&'static str]) {
    // 101.4: the one player left wins; none left is a draw.
    let result = m.game.result_by_losses();
    record(m, result, None, deciding);
}

//! Per-move playout statistics at the root, shared by `pmc`, `nmc` and the
//! `othello playouts` table: games, wins (draw = ½) and total final score,
//! all from the view of the side to move at the root.

use super::budget::Budget;
use super::playout::{win_value, Playouts, TO_THE_END};
use super::{Score, SearchResult};
use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::rng::Rng;
use crate::square::Square;

/// What the playouts after one root move gave.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MoveStat {
    /// The move.
    pub square: Square,
    /// The position after it (the opponent to move).
    pub child: Board,
    /// Games counted.
    pub games: u64,
    /// Wins, a draw counting ½.
    pub wins: f64,
    /// Sum of the outcomes (final disc differences).
    pub score_sum: i64,
}

impl MoveStat {
    /// Counts one game whose outcome `score` is from the view of the side
    /// that played [`MoveStat::square`].
    #[inline]
    pub fn add(&mut self, score: i32) {
        self.games += 1;
        self.wins += win_value(score);
        self.score_sum += i64::from(score);
    }

    /// Wins per game (0 before any game).
    pub fn win_rate(&self) -> f64 {
        self.wins / self.games.max(1) as f64
    }

    /// Mean outcome in discs (0 before any game).
    pub fn mean_score(&self) -> f64 {
        self.score_sum as f64 / self.games.max(1) as f64
    }
}

/// An empty statistic for each of `moves` of `board`, in square order.
pub fn root_stats(board: &Board, moves: Bitboard) -> Vec<MoveStat> {
    moves
        .squares()
        .map(|square| MoveStat {
            square,
            child: board.play(square),
            games: 0,
            wins: 0.0,
            score_sum: 0,
        })
        .collect()
}

/// The move with the best win rate; ties go to the better mean score, then
/// to the first. `stats` must not be empty.
pub fn best(stats: &[MoveStat]) -> &MoveStat {
    let key = |s: &MoveStat| (s.win_rate(), s.mean_score());
    stats
        .iter()
        .reduce(|a, b| if key(b) > key(a) { b } else { a })
        .expect("best() needs at least one move")
}

/// The search result of a root-statistics search: the [`best`] move, its
/// win rate, `depth` and the playouts spent.
pub fn result(stats: &[MoveStat], depth: u32, budget: &Budget) -> SearchResult {
    let chosen = best(stats);
    SearchResult {
        best: chosen.square,
        score: Score::WinRate(chosen.win_rate()),
        depth,
        nodes: budget.spent(),
        elapsed: budget.deadline().elapsed(),
    }
}

/// Plays `games` random games after each legal move of `board` (seeded by
/// `seed`, four interleaved at a time) and returns each move's statistics
/// from the view of the side to move in `board`, in square order (seed
/// 002's per-move table). Empty when the side to move has no legal move.
pub fn move_table(board: &Board, games: u64, seed: u64) -> Vec<MoveStat> {
    let runner = Playouts::new();
    let mut rng = Rng::seed_from_u64(seed);
    let mut stats = root_stats(board, board.moves());
    for stat in &mut stats {
        let children = [stat.child; 4];
        let mut left = games;
        while left > 0 {
            let scores = runner.run4(&children, &mut rng, TO_THE_END);
            for &s in scores.iter().take(left.min(4) as usize) {
                // The outcome is the opponent's: the root side's is its negation.
                stat.add(-s);
            }
            left = left.saturating_sub(4);
        }
    }
    stats
}

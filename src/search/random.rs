//! `random`: a uniformly chosen legal move.

use super::{Limits, Score, SearchResult, Strategy};
use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::rng::Rng;
use crate::square::Square;

/// Plays a uniformly random legal move.
#[derive(Clone, Debug)]
pub struct RandomPlayer {
    rng: Rng,
}

impl RandomPlayer {
    /// A random player seeded with `seed`.
    pub fn new(seed: u64) -> RandomPlayer {
        RandomPlayer {
            rng: Rng::seed_from_u64(seed),
        }
    }
}

impl Strategy for RandomPlayer {
    fn name(&self) -> &'static str {
        "random"
    }

    fn choose(&mut self, _board: &Board, moves: Bitboard, limits: &Limits) -> SearchResult {
        let best = Square::new(self.rng.pick_bit(moves.0) as u8);
        SearchResult {
            best,
            score: Score::None,
            depth: 0,
            nodes: 1,
            elapsed: limits.deadline.elapsed(),
        }
    }
}

//! `greedy`: the move that flips the most discs (seed 004's baseline).
//! Ties go to a random one of the best, so games vary.

use super::{Limits, Score, SearchResult, Strategy};
use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::rng::Rng;

/// Maximises the discs flipped by this move.
#[derive(Clone, Debug)]
pub struct Greedy {
    rng: Rng,
}

impl Greedy {
    /// A greedy player; `seed` breaks ties.
    pub fn new(seed: u64) -> Greedy {
        Greedy {
            rng: Rng::seed_from_u64(seed),
        }
    }
}

impl Strategy for Greedy {
    fn name(&self) -> &'static str {
        "greedy"
    }

    fn choose(&mut self, board: &Board, moves: Bitboard, limits: &Limits) -> SearchResult {
        let mut best_count = 0;
        let mut best_set = 0u64;
        for sq in moves {
            let n = board.flips(sq).count();
            if n > best_count {
                best_count = n;
                best_set = sq.bit();
            } else if n == best_count {
                best_set |= sq.bit();
            }
        }
        let best = crate::Square::new(self.rng.pick_bit(best_set) as u8);
        SearchResult {
            best,
            score: Score::Flips(best_count),
            depth: 1,
            nodes: moves.count() as u64,
            elapsed: limits.deadline.elapsed(),
        }
    }
}

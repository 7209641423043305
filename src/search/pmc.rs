//! `pmc`: primitive Monte Carlo (seed 000). Cycle over the legal moves,
//! playing one random game after each, score a win 1, a draw ½ and a loss
//! 0, and play the move with the best mean when the budget is spent.

use super::budget::Budget;
use super::playout::{Playouts, TO_THE_END};
use super::stats::{result, root_stats};
use super::{Limits, SearchResult, Strategy};
use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::rng::Rng;

/// Primitive Monte Carlo over the root moves.
#[derive(Clone, Debug)]
pub struct Pmc {
    rng: Rng,
    runner: Playouts,
    playouts: Option<u64>,
    playout_depth: u32,
}

impl Pmc {
    /// A player seeded with `seed`, spending at most `playouts` playouts
    /// per move (`None`: until the deadline), stopping each playout after
    /// `playout_depth` plies (`None`: at the end of the game).
    pub fn new(seed: u64, playouts: Option<u64>, playout_depth: Option<u32>) -> Pmc {
        Pmc {
            rng: Rng::seed_from_u64(seed),
            runner: Playouts::new(),
            playouts,
            playout_depth: playout_depth.unwrap_or(TO_THE_END),
        }
    }
}

impl Strategy for Pmc {
    fn name(&self) -> &'static str {
        "pmc"
    }

    fn choose(&mut self, board: &Board, moves: Bitboard, limits: &Limits) -> SearchResult {
        let mut stats = root_stats(board, moves);
        let mut budget = Budget::new(limits, self.playouts);
        let n = stats.len();
        let mut next = 0;
        // One move: nothing to compare.
        while n > 1 && !budget.exhausted() {
            // The next four moves of the cycle, played interleaved.
            let index = [0, 1, 2, 3].map(|k| (next + k) % n);
            let boards = index.map(|i| stats[i].child);
            let scores = self.runner.run4(&boards, &mut self.rng, self.playout_depth);
            let counted = budget.left().min(4) as usize;
            for (&i, &s) in index.iter().zip(&scores).take(counted) {
                // The outcome is the opponent's; ours is its negation.
                stats[i].add(-s);
            }
            budget.spend(counted as u64);
            next = (next + 4) % n;
        }
        result(&stats, 0, &budget)
    }
}

//! `minimax`: plain fixed-depth negamax without pruning (seed 000's baseline).

use super::{Limits, Score, SearchResult, Strategy};
use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::eval::{Evaluator, SCALE};

/// The depth used when none is given.
pub const DEFAULT_DEPTH: u32 = 3;

/// Fixed-depth minimax over an [`Evaluator`].
#[derive(Clone, Debug)]
pub struct Minimax {
    eval: Evaluator,
}

impl Minimax {
    /// Minimax with the given evaluation.
    pub fn new(eval: Evaluator) -> Minimax {
        Minimax { eval }
    }

    fn negamax(&mut self, board: &Board, depth: u32, nodes: &mut u64) -> i32 {
        *nodes += 1;
        let moves = board.moves();
        if moves.is_empty() {
            let passed = board.pass();
            if passed.moves().is_empty() {
                return board.final_score() * SCALE;
            }
            return -self.negamax(&passed, depth, nodes);
        }
        if depth == 0 {
            return self.eval.evaluate(board);
        }
        moves
            .squares()
            .map(|sq| -self.negamax(&board.play(sq), depth - 1, nodes))
            .max()
            .unwrap_or(i32::MIN + 1)
    }
}

impl Strategy for Minimax {
    fn name(&self) -> &'static str {
        "minimax"
    }

    fn choose(&mut self, board: &Board, moves: Bitboard, limits: &Limits) -> SearchResult {
        let depth = limits.depth.unwrap_or(DEFAULT_DEPTH).max(1);
        let mut nodes = 0;
        let mut best = None;
        for sq in moves {
            let score = -self.negamax(&board.play(sq), depth - 1, &mut nodes);
            if best.is_none_or(|(_, s)| score > s) {
                best = Some((sq, score));
            }
        }
        let (best, score) = best.expect("choose() needs at least one move");
        SearchResult {
            best,
            score: Score::Estimate(score as f64 / SCALE as f64),
            depth,
            nodes,
            elapsed: limits.deadline.elapsed(),
        }
    }
}

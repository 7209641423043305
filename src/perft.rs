//! Perft: the number of leaves of the game tree to a fixed depth.
//!
//! Conventions (those of the published Othello counts): a pass is a ply of
//! its own, and a game that ends before the depth is reached counts as one
//! leaf. No hashing; the last ply is counted in bulk with a popcount.

use crate::board::Board;
use crate::kernels;

/// Leaves of the tree of `depth` plies below `board`.
pub fn perft(board: &Board, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    perft_inner(board.player, board.opponent, depth, false)
}

/// `passed`: the previous ply was a pass (so a second one ends the game).
fn perft_inner(p: u64, o: u64, depth: u32, passed: bool) -> u64 {
    let mut moves = kernels::moves(p, o);
    if moves == 0 {
        if passed {
            return 1; // neither side can move: a finished game is one leaf
        }
        if depth == 1 {
            // The pass is the last ply, unless the game is over here.
            return 1;
        }
        return perft_inner(o, p, depth - 1, true);
    }
    if depth == 1 {
        return moves.count_ones() as u64;
    }
    let mut total = 0;
    while moves != 0 {
        let sq = moves.trailing_zeros() as usize;
        moves &= moves - 1;
        let flipped = kernels::flips(p, o, sq);
        total += perft_inner(o ^ flipped, p ^ flipped ^ (1u64 << sq), depth - 1, false);
    }
    total
}

/// The published perft counts from the start position, depth 1..=12.
pub const PUBLISHED: [u64; 12] = [
    4,
    12,
    56,
    244,
    1_396,
    8_200,
    55_092,
    390_216,
    3_005_288,
    24_571_284,
    212_258_800,
    1_939_886_636,
];

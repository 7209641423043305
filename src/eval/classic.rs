//! The hand-written evaluation: square values, mobility, and discs late.
//!
//! Square values (row 1 at the top, symmetric under the 8 symmetries):
//! ```text
//!  100 -25  10   5   5  10 -25 100
//!  -25 -50  -2  -2  -2  -2 -50 -25
//!   10  -2   2   1   1   2  -2  10
//!    5  -2   1   0   0   1  -2   5
//!    …   (mirrored)
//! ```

use super::SCALE;
use crate::board::Board;
use crate::kernels;

/// (mask of squares, value in square units) for each class of equal value.
const SQUARE_CLASSES: [(u64, i32); 9] = [
    (0x8100_0000_0000_0081, 100), // corners
    (0x4281_0000_0000_8142, -25), // C-squares
    (0x0042_0000_0000_4200, -50), // X-squares
    (0x2400_8100_0081_0024, 10),  // A-squares (c1, f1, a3, h3, ...)
    (0x1800_0081_8100_0018, 5),   // B-squares (d1, e1, a4, h4, ...)
    (0x003c_4242_4242_3c00, -2),  // second ring (c2..f2, b3..b6, ...)
    (0x0000_2400_0024_0000, 2),   // c3, f3, c6, f6
    (0x0000_1824_2418_0000, 1),   // d3, e3, c4, f4, ...
    (0x0000_0018_1800_0000, 0),   // centre
];

/// Evaluation units per square-value unit.
const SQUARE_WEIGHT: i32 = SCALE / 16;
/// Evaluation units per move of mobility advantage.
const MOBILITY_WEIGHT: i32 = SCALE / 2;
/// From this many empties down, the disc difference counts as well.
const LATE_EMPTIES: u32 = 14;
/// Weight of one disc of difference late in the game, per 1/4 disc.
const LATE_DISC_WEIGHT: i32 = SCALE / 4;

/// The score of `board` for the side to move, in 1/[`SCALE`] discs.
#[inline(always)]
pub fn evaluate(board: &Board) -> i32 {
    let (p, o) = (board.player, board.opponent);
    let mut squares = 0;
    for &(mask, value) in SQUARE_CLASSES.iter() {
        squares += value * ((p & mask).count_ones() as i32 - (o & mask).count_ones() as i32);
    }
    let mobility =
        kernels::moves(p, o).count_ones() as i32 - kernels::moves(o, p).count_ones() as i32;
    let mut score = squares * SQUARE_WEIGHT + mobility * MOBILITY_WEIGHT;
    if board.empty_count() <= LATE_EMPTIES {
        score += board.disc_difference() * LATE_DISC_WEIGHT;
    }
    score
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes_partition_the_board() {
        let mut all = 0u64;
        for &(mask, _) in SQUARE_CLASSES.iter() {
            assert_eq!(all & mask, 0, "overlapping classes");
            all |= mask;
        }
        assert_eq!(all, !0);
    }

    #[test]
    fn classes_are_symmetric() {
        for &(mask, _) in SQUARE_CLASSES.iter() {
            for s in 0..8 {
                assert_eq!(crate::board::transform(mask, s), mask);
            }
        }
    }
}

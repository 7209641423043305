//! Multi-ProbCut (Buro 1997): before searching a node to depth `d`, a
//! search to the shallow depth [`shallow_depth`]`(d)` predicts the deep
//! value; when that prediction lies beyond the window by [`margin`], the
//! deep search is skipped. The margin is the cut threshold [`CUT_T`] times
//! the standard deviation of (deep value - shallow value), fitted by
//! `train mpc` per depth and phase on self-play positions and written to
//! [`super::mpc_table`] (the recipe is in docs/search.md).

use super::mpc_table::{SIGMA, SIGMA_BUCKETS, SIGMA_BUCKET_EMPTIES};
use crate::eval::SCALE;

/// The shallowest remaining depth at which a cut is tried: below it the
/// shallow search costs about what it saves.
pub const MIN_DEPTH: u32 = 3;
/// The cut threshold `t`, in hundredths of a standard deviation: a cut is
/// taken when the shallow value lies `t`·σ beyond the window (tuned through
/// the referee, docs/search.md).
pub const CUT_T: i32 = 150;
/// A bound beyond every final score (64 discs): a margin that pushes the
/// window past it can never cut.
pub const MAX_BOUND: i32 = 64 * SCALE;

/// The depth of the shallow search that predicts a search to `depth`:
/// about a quarter of it, with the same parity (an odd and an even search
/// disagree by the side that moved last).
pub const fn shallow_depth(depth: u32) -> u32 {
    let s = depth / 4;
    if (depth - s) % 2 == 1 {
        s + 1
    } else {
        s
    }
}

/// The fitted standard deviation of (value at `depth` - value at
/// [`shallow_depth`]`(depth)`) at `empties`, in evaluation units; depths
/// beyond the table use its deepest row.
#[inline]
pub fn sigma(depth: u32, empties: u32) -> i32 {
    let row = (depth as usize).min(SIGMA.len() / SIGMA_BUCKETS - 1);
    let bucket = ((empties / SIGMA_BUCKET_EMPTIES) as usize).min(SIGMA_BUCKETS - 1);
    i32::from(SIGMA[row * SIGMA_BUCKETS + bucket] - b'#') * SCALE / 4
}

/// How far beyond the window the shallow value must lie to cut.
#[inline]
pub fn margin(depth: u32, empties: u32) -> i32 {
    sigma(depth, empties) * CUT_T / 100
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shallow_depths_are_shallower_and_keep_parity() {
        for d in MIN_DEPTH..=60 {
            let s = shallow_depth(d);
            assert!(s < d, "{d}");
            assert_eq!((d - s) % 2, 0, "{d}");
        }
        assert_eq!(shallow_depth(3), 1);
        assert_eq!(shallow_depth(10), 2);
    }

    #[test]
    fn margins_are_positive_everywhere() {
        for d in MIN_DEPTH..=60 {
            for e in 0..=60 {
                assert!(margin(d, e) > 0, "depth {d}, empties {e}");
            }
        }
    }
}

//! Probcut, the cut of a selective solve: a node of
//! [`PROBCUT_MIN_EMPTIES`] or more is cut when an evaluated shallow search
//! lies far enough beyond the window.

use super::*;

/// Deviations, in 1/[`SCALE`] discs, of (exact score - the evaluation) at
/// 10-15 empties and of (exact score - the 2-ply value) from 16 up, on the
/// positions of real games (`tests/data/match-games.txt`,
/// `examples/endgame_sigma.rs`, docs/endgame.md): root mean squares, the
/// parity's bias of about 2 discs included, 6.9-7.6 and 4.6-5.7 discs;
/// rounded up. (On FFO lines played down, lopsided: 11 and 8.)
const PROBCUT_SIGMA: [i32; 2] = [8 * SCALE, 6 * SCALE];
/// Means of those errors (exact score - shallow value), in 1/[`SCALE`]
/// discs, `[depth 0, depth 2][even, odd empties]`: they alternate with the
/// parity of the empties (the side that moves last gains), and the cut
/// window is shifted by them. Same measurement, averaged over 10-15 and
/// 16-22 empties: -2.0 / +1.3 and -1.8 / +1.0 discs.
const PROBCUT_MEAN: [[i32; 2]; 2] = [[-2 * SCALE, 13 * SCALE / 10], [-18 * SCALE / 10, SCALE]];
/// Probcut: the shallow value of (p, o) `cut`/100 standard deviations
/// above `beta` or below `alpha` gives that bound as the result.
pub fn probcut_bound(p: u64, o: u64, alpha: i32, beta: i32, n: u32, cut: i32) -> Option<i32> {
    let deep = n >= PROBCUT_DEEP_EMPTIES;
    let margin = PROBCUT_SIGMA[usize::from(deep)] * cut / 100;
    // The shallow value plus the mean error estimates the exact score.
    let mean = PROBCUT_MEAN[usize::from(deep)][(n & 1) as usize];
    let (high, low) = (beta * SCALE + margin - mean, alpha * SCALE - margin - mean);
    let reach = 64 * SCALE;
    if high > reach && low < -reach {
        return None;
    }
    let depth = if deep { 2 } else { 0 };
    // Only which side of `low..high` the value lies on matters: a
    // fail-soft search with that window tells it.
    let v = eval_search(p, o, depth, low, high);
    if v >= high && beta < 64 {
        Some(beta)
    } else if v <= low && alpha > -64 {
        Some(alpha)
    } else {
        None
    }
}

/// Negamax with alpha-beta to `depth` plies with the pattern evaluation at
/// the leaves, in 1/[`SCALE`] discs: probcut's shallow search, and the deep
/// search's sorting one ([`SORT_SEARCH_EMPTIES`]).
pub fn eval_search(p: u64, o: u64, depth: u32, mut alpha: i32, beta: i32) -> i32 {
    if depth == 0 {
        return crate::eval::pattern::evaluate(&Board::new(p, o));
    }
    let moves = kernels::moves(p, o);
    if moves == 0 {
        if kernels::moves(o, p) == 0 {
            return final_score(p, o) * SCALE;
        }
        return -eval_search(o, p, depth, -beta, -alpha);
    }
    // One ply from the leaves, each is evaluated from this node's indices.
    let leaves = (depth == 1).then(|| crate::eval::pattern::tables().children(&Board::new(p, o)));
    let mut best = -INF * SCALE;
    let mut rest = moves;
    while rest != 0 {
        let sq = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        let f = kernels::flips(p, o, sq);
        let v = match &leaves {
            Some(leaves) => -leaves.evaluate(sq, f),
            None => -eval_search(o ^ f, p ^ f ^ 1u64 << sq, depth - 1, -beta, -alpha),
        };
        if raise(&mut best, &mut alpha, v, beta) {
            break;
        }
    }
    best
}

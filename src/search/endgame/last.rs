//! The last empties, [`PARITY_EMPTIES`] and fewer: alpha-beta over the
//! empty squares, odd quadrants first (parity), a move found by its flips
//! without a move list, with stability cutoffs; three in a fixed parity
//! order; two tried in turn; the last one counted, not played.

use super::*;

/// The X- and C-squares (next to a corner): the parity search tries them
/// last within each parity class, as they tend to give the corner away.
const RISKY_SQUARES: u64 = Bitboard::X_SQUARES.0 | Bitboard::C_SQUARES.0;

/// The stability cutoff of the last empties (4 to [`PARITY_EMPTIES`]) is
/// tried when `alpha >= 2 * n + SHALLOW_STABILITY_OFFSET`, as in the deep
/// search. FFO #40-#49 (docs/journal/endgame.md, "From 23 empties down, second
/// pass"): without it 696.7 M nodes, 22.7 s; with -2 511.2 M, 21.4 s; 0
/// 578.3 M, 21.6 s; -4 503.4 M, 22.1 s. The selective passes at 22
/// empties gain nothing: probcut already cuts those subtrees.
const SHALLOW_STABILITY_OFFSET: i32 = -2;

/// The four quadrants (a1-d4, e1-h4, a5-d8, e5-h8) as masks.
const QUADRANTS: [u64; 4] = [
    0x0000_0000_0f0f_0f0f,
    0x0000_0000_f0f0_f0f0,
    0x0f0f_0f0f_0000_0000,
    0xf0f0_f0f0_0000_0000,
];

/// The parity bit (1 << quadrant) of square `sq`: rows 5-8 are quadrants
/// 2 and 3, columns e-h the odd ones.
#[inline]
const fn quadrant_bit(sq: usize) -> u32 {
    1 << ((sq >> 5) << 1 | (sq >> 2) & 1)
}

/// `PARITY_MASK[parity]`: the squares of the quadrants whose parity bit is
/// set (an odd number of empties).
pub const PARITY_MASK: [u64; 16] = parity_masks();

const fn parity_masks() -> [u64; 16] {
    let mut out = [0u64; 16];
    let mut p = 1;
    while p < 16 {
        // The mask without p's highest quadrant, plus that quadrant.
        let q = 31 - (p as u32).leading_zeros();
        out[p] = out[p & !(1 << q)] | QUADRANTS[q as usize];
        p += 1;
    }
    out
}

/// The parity bits of a set of empties: bit q set when quadrant q holds an
/// odd number of them.
#[inline(always)]
pub fn parity_of(empties: u64) -> u32 {
    let mut parity = 0;
    for (q, mask) in QUADRANTS.iter().enumerate() {
        parity |= ((empties & mask).count_ones() & 1) << q;
    }
    parity
}

/// The neighbours of each square: a move needs an opponent disc among them.
const NEIGHBOURS: [u64; 64] = neighbour_masks();

const fn neighbour_masks() -> [u64; 64] {
    let mut out = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let (c, r) = ((sq % 8) as i32, (sq / 8) as i32);
        let mut dr = -1;
        while dr <= 1 {
            let mut dc = -1;
            while dc <= 1 {
                let (nc, nr) = (c + dc, r + dr);
                if (dc != 0 || dr != 0) && nc >= 0 && nc < 8 && nr >= 0 && nr < 8 {
                    out[sq] |= 1u64 << (nr * 8 + nc);
                }
                dc += 1;
            }
            dr += 1;
        }
        sq += 1;
    }
    out
}

impl Solver {
    /// [`Solver::shallow`] in the caller's instruction set.
    #[inline(always)]
    #[allow(unsafe_code, clippy::too_many_arguments)]
    pub(super) fn shallow_child<const FAST: bool>(
        &mut self,
        p: u64,
        o: u64,
        alpha: i32,
        beta: i32,
        empties: u64,
        parity: u32,
        n: u32,
    ) -> i32 {
        #[cfg(target_arch = "x86_64")]
        if FAST {
            // SAFETY: as in `deep_child` (deep.rs).
            return unsafe { self.shallow_fast(p, o, alpha, beta, empties, parity, n) };
        }
        self.shallow_portable(p, o, alpha, beta, empties, parity, n)
    }

    #[allow(clippy::too_many_arguments)]
    fn shallow_portable(
        &mut self,
        p: u64,
        o: u64,
        alpha: i32,
        beta: i32,
        empties: u64,
        parity: u32,
        n: u32,
    ) -> i32 {
        self.shallow::<false>(p, o, alpha, beta, empties, parity, n)
    }

    fast_fn! {
        #[allow(clippy::too_many_arguments)]
        fn shallow_fast(
            &mut self,
            p: u64,
            o: u64,
            alpha: i32,
            beta: i32,
            empties: u64,
            parity: u32,
            n: u32,
        ) -> i32 {
            self.shallow::<true>(p, o, alpha, beta, empties, parity, n)
        }
    }

    /// Two empties: both moves tried in turn, no move list, no parity.
    /// Only `beta` matters: the first move's score is exact and the second
    /// is tried unless the first reached `beta`.
    #[inline(always)]
    pub(super) fn last2(&mut self, p: u64, o: u64, beta: i32, empties: u64) -> i32 {
        self.nodes += 1;
        let x1 = empties.trailing_zeros() as usize;
        let x2 = (empties & (empties - 1)).trailing_zeros() as usize;
        let mut best = -INF;
        if NEIGHBOURS[x1] & o != 0 {
            let f = kernels::flips(p, o, x1);
            if f != 0 {
                self.nodes += 1;
                best = -last1(o ^ f, p ^ f ^ 1u64 << x1, x2);
                if best >= beta {
                    return best;
                }
            }
        }
        if NEIGHBOURS[x2] & o != 0 {
            let f = kernels::flips(p, o, x2);
            if f != 0 {
                self.nodes += 1;
                best = best.max(-last1(o ^ f, p ^ f ^ 1u64 << x2, x1));
            }
        }
        if best > -INF {
            return best;
        }
        // `p` passes: the opponent picks the better of its moves.
        let mut worst = INF;
        for (x, other) in [(x1, x2), (x2, x1)] {
            if NEIGHBOURS[x] & p != 0 {
                let f = kernels::flips(o, p, x);
                if f != 0 {
                    self.nodes += 1;
                    worst = worst.min(last1(p ^ f, o ^ f ^ 1u64 << x, other));
                }
            }
        }
        if worst < INF {
            worst
        } else {
            final_score(p, o)
        }
    }

    /// Three empties: the moves in a fixed order, a square alone in its
    /// quadrant first (parity), without [`Solver::shallow`]'s loops over
    /// square classes.
    #[inline(always)]
    pub(super) fn last3(&mut self, p: u64, o: u64, mut alpha: i32, beta: i32, empties: u64) -> i32 {
        self.nodes += 1;
        let x1 = empties.trailing_zeros() as usize;
        let rest = empties & (empties - 1);
        let x2 = rest.trailing_zeros() as usize;
        let x3 = (rest & (rest - 1)).trailing_zeros() as usize;
        let (q1, q2, q3) = (quadrant_bit(x1), quadrant_bit(x2), quadrant_bit(x3));
        let order = if !self.techniques.parity {
            [x1, x2, x3]
        } else if q1 == q2 && q2 != q3 {
            [x3, x1, x2]
        } else if q1 == q3 && q1 != q2 {
            [x2, x1, x3]
        } else {
            [x1, x2, x3]
        };
        let mut best = -INF;
        for x in order {
            if NEIGHBOURS[x] & o != 0 {
                let f = kernels::flips(p, o, x);
                if f != 0 {
                    let bit = 1u64 << x;
                    let score = -self.last2(o ^ f, p ^ f ^ bit, -alpha, empties ^ bit);
                    if raise(&mut best, &mut alpha, score, beta) {
                        return best;
                    }
                }
            }
        }
        if best > -INF {
            return best;
        }
        // `p` passes: the opponent's moves, each answered by `p`'s last two.
        let mut worst = INF;
        for x in order {
            if NEIGHBOURS[x] & p != 0 {
                let f = kernels::flips(o, p, x);
                if f != 0 {
                    let bit = 1u64 << x;
                    self.nodes += 1;
                    worst = worst.min(self.last2(p ^ f, o ^ f ^ bit, beta, empties ^ bit));
                    if worst <= alpha {
                        return worst;
                    }
                }
            }
        }
        if worst < INF {
            worst
        } else {
            final_score(p, o)
        }
    }

    /// Alpha-beta over the empty squares, odd quadrants first.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn shallow<const FAST: bool>(
        &mut self,
        p: u64,
        o: u64,
        mut alpha: i32,
        beta: i32,
        empties: u64,
        parity: u32,
        n: u32,
    ) -> i32 {
        self.nodes += 1;
        if self.techniques.stability && alpha >= 2 * n as i32 + SHALLOW_STABILITY_OFFSET {
            let bound = 64 - 2 * stable_discs(o, p).count_ones() as i32;
            if bound <= alpha {
                return bound;
            }
        }
        let odd = if self.techniques.parity {
            PARITY_MASK[parity as usize]
        } else {
            !0
        };
        let mut best = -INF;
        // Within each parity class, X- and C-squares last.
        for group in [
            empties & odd & !RISKY_SQUARES,
            empties & odd & RISKY_SQUARES,
            empties & !odd & !RISKY_SQUARES,
            empties & !odd & RISKY_SQUARES,
        ] {
            let mut rest = group;
            while rest != 0 {
                let sq = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                if NEIGHBOURS[sq] & o == 0 {
                    continue;
                }
                let flips = kernels::flips(p, o, sq);
                if flips == 0 {
                    continue;
                }
                let bit = 1u64 << sq;
                let (np, no) = (o ^ flips, p ^ flips ^ bit);
                let score = if n == 4 {
                    -self.last3(np, no, -beta, -alpha, empties ^ bit)
                } else {
                    -self.shallow_child::<FAST>(
                        np,
                        no,
                        -beta,
                        -alpha,
                        empties ^ bit,
                        parity ^ quadrant_bit(sq),
                        n - 1,
                    )
                };
                if raise(&mut best, &mut alpha, score, beta) {
                    return best;
                }
            }
        }
        if best == -INF {
            // No move: pass if the opponent can move, else the game is over.
            if kernels::moves(o, p) == 0 {
                return final_score(p, o);
            }
            return -self.shallow_child::<FAST>(o, p, -beta, -alpha, empties, parity, n);
        }
        best
    }
}

/// The exact score of a position whose one empty square is `sq`, `p` to
/// move: the flips are counted on the last square, nothing is played.
#[inline(always)]
pub fn last1(p: u64, o: u64, sq: usize) -> i32 {
    let np = p.count_ones() as i32;
    // p has np discs and o has 63 - np.
    let f = kernels::last_flip_count(p, sq) as i32;
    if f > 0 {
        return 2 * (np + f) - 62;
    }
    let f = kernels::last_flip_count(o, sq) as i32;
    if f > 0 {
        return 2 * (np - f) - 64;
    }
    // Nobody can move: the empty square goes to the winner.
    let diff = 2 * np - 63;
    diff + diff.signum()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Plain minimax on raw bitboards.
    fn minimax(p: u64, o: u64) -> i32 {
        let moves = kernels::moves(p, o);
        if moves == 0 {
            if kernels::moves(o, p) == 0 {
                return final_score(p, o);
            }
            return -minimax(o, p);
        }
        Bitboard(moves)
            .squares()
            .map(|sq| {
                let f = kernels::flips(p, o, sq.index());
                -minimax(o ^ f, p ^ f ^ sq.bit())
            })
            .max()
            .unwrap_or(-INF)
    }

    /// Random discs (not reachable positions: a harder test of passes and
    /// wipe-outs) with exactly two empties.
    #[test]
    fn last1_and_last2_agree_with_minimax() {
        let mut rng = crate::rng::Rng::seed_from_u64(5);
        let mut solver = Solver::with_table_bits(Deadline::unlimited(), 4);
        for _ in 0..20_000 {
            let discs = rng.next_u64();
            let x1 = rng.below(64);
            let x2 = (x1 + 1 + rng.below(63)) % 64;
            let empties = 1u64 << x1 | 1u64 << x2;
            let (p, o) = (discs & !empties, !discs & !empties);
            assert_eq!(solver.last2(p, o, INF, empties), minimax(p, o));
            let (p1, o1) = (p | 1u64 << x1, o);
            assert_eq!(last1(p1, o1, x2 as usize), minimax(p1, o1));
        }
    }

    /// As above with three empties, in every window: a fail-soft result
    /// is exact inside the window and a bound on the right side outside.
    #[test]
    fn last3_agrees_with_minimax() {
        let mut rng = crate::rng::Rng::seed_from_u64(6);
        let mut solver = Solver::with_table_bits(Deadline::unlimited(), 4);
        for _ in 0..20_000 {
            let mut empties = 0u64;
            while empties.count_ones() < 3 {
                empties |= 1u64 << rng.below(64);
            }
            let discs = rng.next_u64();
            let (p, o) = (discs & !empties, !discs & !empties);
            let exact = minimax(p, o);
            let alpha = rng.below(129) as i32 - 64;
            let beta = alpha + 1 + rng.below(8) as i32;
            let v = solver.last3(p, o, alpha, beta, empties);
            if v <= alpha {
                assert!(exact <= v, "{p:x} {o:x} ({alpha}, {beta}): {v} vs {exact}");
            } else if v >= beta {
                assert!(exact >= v, "{p:x} {o:x} ({alpha}, {beta}): {v} vs {exact}");
            } else {
                assert_eq!(v, exact, "{p:x} {o:x} ({alpha}, {beta})");
            }
            assert_eq!(solver.last3(p, o, -INF, INF, empties), exact);
        }
    }
}

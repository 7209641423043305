//! The trained pattern evaluation (Logistello style).
//!
//! The board is read through patterns: small sets of squares whose contents
//! (empty / side to move / opponent) form a base-3 index into a table of
//! learned weights. Each pattern is read on several of the 8 symmetric images
//! of the board, so every symmetric instance shares one table; patterns that
//! map onto themselves (a row under a mirror) have tied weights, so the
//! evaluation is exactly symmetric. Weights exist for a few anchor phases
//! (by empty squares, [`weights::ANCHORS`]); a position between two anchors
//! gets the linear mix of their two scores. The tables are stored as small
//! networks ([`super::net`]), expanded once, on first use.
//!
//! Indices are computed from scratch at each leaf: the search copies boards
//! (copy-make), so there is no move/undo stream to update them from, and the
//! 8 board images cost a few dozen shifts.

use super::net;
pub use super::shape::*;
use super::weights;
use super::SCALE;
use crate::board::{images, Board};
use std::sync::OnceLock;

/// `TERNARY[bits]`: the base-3 number whose digit `i` is bit `i` of `bits`.
const TERNARY: [u16; 1024] = ternary();

const fn ternary() -> [u16; 1024] {
    let mut t = [0u16; 1024];
    let mut b = 0;
    while b < 1024 {
        let mut v = 0u16;
        let mut i = 10;
        while i > 0 {
            i -= 1;
            v = v * 3 + ((b >> i) & 1) as u16;
        }
        t[b] = v;
        b += 1;
    }
    t
}

/// Multiplier that gathers one square per column into the top byte.
const GATHER: u64 = 0x0101_0101_0101_0101;

/// The bits of pattern `k`'s squares in `b`, in digit order.
#[inline(always)]
fn key(k: usize, b: u64) -> usize {
    let diag = |d: u32, len: u32| -> usize {
        let mask = 0x8040_2010_0804_0201u64 << d & !0u64 >> (8 * d);
        (((b & mask).wrapping_mul(GATHER) >> (56 + d)) & ((1 << len) - 1)) as usize
    };
    match k {
        0 => (b >> 8 & 0xff) as usize,
        1 => (b >> 16 & 0xff) as usize,
        2 => (b >> 24 & 0xff) as usize,
        3 => diag(0, 8),
        4 => diag(1, 7),
        5 => diag(2, 6),
        6 => diag(3, 5),
        7 => diag(4, 4),
        8 => (b & 0xff | (b >> 1 & 0x100) | (b >> 5 & 0x200)) as usize,
        9 => (b & 7 | (b >> 5 & 0x38) | (b >> 10 & 0x1c0)) as usize,
        _ => (b & 0x1f | (b >> 3 & 0x3e0)) as usize,
    }
}

/// The table index (within one phase, [`OFFSETS`] included) of every
/// pattern instance of `board`, pattern by pattern, symmetry by symmetry.
#[inline]
pub fn indices(board: &Board, out: &mut [u32; INSTANCES]) {
    let p = images(board.player);
    let o = images(board.opponent);
    let mut n = 0;
    // One call per pattern, so that each reads its squares without a branch
    // on the pattern (one loop over all of them did not unroll: 8% of an
    // endgame solve's instructions went to that branch).
    put::<0>(&p, &o, out, &mut n);
    put::<1>(&p, &o, out, &mut n);
    put::<2>(&p, &o, out, &mut n);
    put::<3>(&p, &o, out, &mut n);
    put::<4>(&p, &o, out, &mut n);
    put::<5>(&p, &o, out, &mut n);
    put::<6>(&p, &o, out, &mut n);
    put::<7>(&p, &o, out, &mut n);
    put::<8>(&p, &o, out, &mut n);
    put::<9>(&p, &o, out, &mut n);
    put::<10>(&p, &o, out, &mut n);
}

/// The indices of pattern `K`'s instances, from `out[*n]` on.
#[inline(always)]
fn put<const K: usize>(p: &[u64; 8], o: &[u64; 8], out: &mut [u32; INSTANCES], n: &mut usize) {
    for &s in PATTERNS[K].syms {
        let s = s as usize;
        let t = TERNARY[key(K, p[s])] + 2 * TERNARY[key(K, o[s])];
        out[*n] = (OFFSETS[K] + t as usize) as u32;
        *n += 1;
    }
}

/// [`indices`] the slow, obvious way: square by square on transformed boards.
pub fn indices_slow(board: &Board) -> Vec<u32> {
    let mut out = Vec::with_capacity(INSTANCES);
    for (k, pattern) in PATTERNS.iter().enumerate() {
        for &s in pattern.syms {
            let b = board.symmetry(s);
            let mut t = 0;
            for &sq in pattern.squares.iter().rev() {
                let digit = (b.player >> sq & 1) + 2 * (b.opponent >> sq & 1);
                t = t * 3 + digit as usize;
            }
            out.push((OFFSETS[k] + t) as u32);
        }
    }
    out
}

/// Where `empties` falls among the anchors `at` (increasing, 0 to 60):
/// `(a, t, span)` such that the weights are those of anchor `a` times
/// `(span - t) / span` plus those of anchor `a + 1` times `t / span`.
pub fn segment(at: &[u32], empties: u32) -> (usize, u32, u32) {
    let a = at
        .iter()
        .rposition(|&x| x <= empties)
        .unwrap_or(0)
        .min(at.len() - 2);
    (a, empties - at[a], at[a + 1] - at[a])
}

/// The tables the evaluation reads: per anchor phase, every pattern's
/// entries in evaluation units; an evaluation mixes the two anchors around
/// its empties count.
#[derive(Debug)]
pub struct Tables {
    at: Vec<u32>,
    weights: Vec<i16>,
    /// `terms[starts[sq]..starts[sq + 1]]`: the instances that read square
    /// `sq`, each with the weight `3^digit` of `sq` in its index.
    starts: [u16; 65],
    terms: Vec<(u8, u16)>,
}

/// Where each square weighs in the indices: for every square, the
/// instances whose index changes when it does, with `3^digit` (the
/// difference a side-to-move disc there makes to the index of an empty
/// board). Feeds [`Children::evaluate`].
fn square_terms() -> ([u16; 65], Vec<(u8, u16)>) {
    let (mut empty, mut one) = ([0u32; INSTANCES], [0u32; INSTANCES]);
    indices(&Board::new(0, 0), &mut empty);
    let mut starts = [0u16; 65];
    let mut terms = Vec::new();
    for sq in 0..64 {
        indices(&Board::new(1 << sq, 0), &mut one);
        for (i, (a, b)) in one.iter().zip(&empty).enumerate() {
            if a != b {
                terms.push((i as u8, (a - b) as u16));
            }
        }
        starts[sq + 1] = terms.len() as u16;
    }
    (starts, terms)
}

impl Tables {
    /// Tables from anchor tables (`anchors[a]` holds [`PHASE_SIZE`] entries in
    /// evaluation units, clamped to `i16`) at empties `at`.
    ///
    /// # Panics
    /// If `at` does not increase from 0 to 60, or the sizes disagree.
    pub fn new(anchors: &[Vec<i32>], at: &[u32]) -> Tables {
        assert!(at.len() == anchors.len() && at[0] == 0 && at[at.len() - 1] == 60);
        assert!(at.windows(2).all(|w| w[0] < w[1]));
        assert!(anchors.iter().all(|a| a.len() == PHASE_SIZE));
        let limit = i32::from(i16::MAX);
        let (starts, terms) = square_terms();
        Tables {
            starts,
            terms,
            at: at.to_vec(),
            weights: anchors
                .iter()
                .flatten()
                .map(|&w| w.clamp(-limit, limit) as i16)
                .collect(),
        }
    }

    /// The score of `board` for the side to move, in 1/[`SCALE`] discs.
    #[inline]
    pub fn evaluate(&self, board: &Board) -> i32 {
        let mut idx = [0u32; INSTANCES];
        indices(board, &mut idx);
        self.score(&idx, board.empty_count())
    }

    /// What [`Children::evaluate`] needs to evaluate the positions one
    /// move after `board`: its indices with the sides swapped, which are
    /// the child's before the move changes any square.
    #[inline]
    pub fn children(&self, board: &Board) -> Children<'_> {
        let mut base = [0u32; INSTANCES];
        indices(&Board::new(board.opponent, board.player), &mut base);
        Children {
            tables: self,
            base,
            empties: board.empty_count() - 1,
        }
    }

    /// Adds `times` times square `sq`'s weight to the indices that read it.
    #[inline(always)]
    fn add_terms(&self, idx: &mut [u32; INSTANCES], sq: usize, times: u32) {
        let range = usize::from(self.starts[sq])..usize::from(self.starts[sq + 1]);
        for &(i, w) in &self.terms[range] {
            idx[usize::from(i)] += times * u32::from(w);
        }
    }

    /// The score of the position with indices `idx` and `empties` empty
    /// squares, in 1/[`SCALE`] discs.
    #[inline]
    fn score(&self, idx: &[u32; INSTANCES], empties: u32) -> i32 {
        let (a, t, span) = segment(&self.at, empties);
        let lo = &self.weights[a * PHASE_SIZE..][..PHASE_SIZE];
        let hi = &self.weights[(a + 1) * PHASE_SIZE..][..PHASE_SIZE];
        let (mut x, mut y) = (0, 0);
        for &i in idx.iter() {
            x += i32::from(lo[i as usize]);
            y += i32::from(hi[i as usize]);
        }
        let (t, span) = (t as i32, span as i32);
        ((x * (span - t) + y * t) / span).clamp(-MAX_SCORE, MAX_SCORE)
    }
}

/// The evaluations of the positions one move after a board
/// ([`Tables::children`]), for their side to move, from the board's
/// indices updated square by square rather than read afresh from 16 board
/// images.
#[derive(Debug)]
pub struct Children<'a> {
    tables: &'a Tables,
    base: [u32; INSTANCES],
    empties: u32,
}

impl Children<'_> {
    /// [`Tables::evaluate`] of the position after the move on `sq` that
    /// flips `flips`, for the opponent of the board's side to move.
    #[inline]
    pub fn evaluate(&self, sq: usize, flips: u64) -> i32 {
        let mut idx = self.base;
        // A flipped disc goes from digit 1 (the child's mover, before the
        // swap) to 2: + 3^digit; the played square from 0 to 2.
        self.tables.add_terms(&mut idx, sq, 2);
        let mut rest = flips;
        while rest != 0 {
            self.tables
                .add_terms(&mut idx, rest.trailing_zeros() as usize, 1);
            rest &= rest - 1;
        }
        self.tables.score(&idx, self.empties)
    }
}

/// Largest evaluation magnitude: below any won final score (64 discs).
pub const MAX_SCORE: i32 = 63 * SCALE;

/// The tables the compiled networks expand into, on first use.
pub fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(|| {
        let (hidden, groups) = (&weights::HIDDEN, &weights::GROUPS);
        let nets = net::decode(weights::DATA, hidden, groups);
        Tables::new(&net::expand(&nets, hidden, groups), &weights::ANCHORS)
    })
}

/// The score of `board` for the side to move, in 1/[`SCALE`] discs.
#[inline]
pub fn evaluate(board: &Board) -> i32 {
    tables().evaluate(board)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    /// Boards from random games, every ply.
    fn random_boards(games: u64) -> Vec<Board> {
        let mut rng = Rng::seed_from_u64(7);
        let mut out = Vec::new();
        for _ in 0..games {
            let mut b = Board::start();
            while !b.is_game_over() {
                if b.moves().is_empty() {
                    b = b.pass();
                }
                out.push(b);
                b = b.play(crate::Square::new(rng.pick_bit(b.moves().0) as u8));
            }
        }
        out
    }

    #[test]
    fn indices_match_the_slow_reference() {
        let mut idx = [0u32; INSTANCES];
        for b in random_boards(20) {
            indices(&b, &mut idx);
            assert_eq!(idx.to_vec(), indices_slow(&b), "\n{b}");
        }
    }

    #[test]
    fn children_evaluated_from_updated_indices_match_a_fresh_evaluation() {
        let tables = tables();
        let mut checked = 0;
        for b in random_boards(30) {
            let moves: Vec<(usize, u64)> = b
                .moves()
                .squares()
                .map(|sq| {
                    (
                        sq.index(),
                        crate::kernels::flips(b.player, b.opponent, sq.index()),
                    )
                })
                .collect();
            let children = tables.children(&b);
            for &(sq, f) in &moves {
                let child = Board::new(b.opponent ^ f, b.player ^ f ^ 1 << sq);
                let v = children.evaluate(sq, f);
                assert_eq!(v, tables.evaluate(&child), "move {sq} of\n{b}");
                checked += 1;
            }
        }
        assert!(checked > 5_000, "{checked}");
    }

    #[test]
    fn instances_are_distinct_and_cover_every_symmetry() {
        for (p, name) in PATTERNS.iter().zip(PATTERN_NAMES) {
            let set = |s: u8| -> u64 {
                // Squares read by pattern `p` on image `s` of the board.
                let mut m = 0;
                for &q in p.squares {
                    m |= (0..64u32)
                        .map(|r| 1u64 << r)
                        .find(|&bit| crate::board::transform(bit, s) == 1 << q)
                        .unwrap();
                }
                m
            };
            let chosen: Vec<u64> = p.syms.iter().map(|&s| set(s)).collect();
            for (i, a) in chosen.iter().enumerate() {
                assert!(!chosen[..i].contains(a), "{name} repeats an instance");
            }
            for s in 0..8 {
                assert!(chosen.contains(&set(s)), "{name} misses symmetry {s}");
            }
        }
    }

    #[test]
    fn evaluation_is_symmetric() {
        // Random entries, tied as the expansion ties them.
        let mut rng = Rng::seed_from_u64(3);
        let at = [0u32, 30, 60];
        let anchors: Vec<Vec<i32>> = at
            .iter()
            .map(|_| {
                let mut w = Vec::new();
                for k in 0..PATTERNS.len() {
                    let canon = canonical_indices(k);
                    let raw: Vec<i32> = (0..canon.len())
                        .map(|_| rng.below(2001) as i32 - 1000)
                        .collect();
                    w.extend(canon.iter().map(|&c| raw[c as usize]));
                }
                w
            })
            .collect();
        let tables = Tables::new(&anchors, &at);
        for b in random_boards(10) {
            let v = tables.evaluate(&b);
            for s in 1..8 {
                assert_eq!(tables.evaluate(&b.symmetry(s)), v, "symmetry {s}\n{b}");
            }
        }
    }

    #[test]
    fn compiled_networks_expand_to_their_checksum() {
        let (hidden, groups) = (&weights::HIDDEN, &weights::GROUPS);
        let anchors = net::expand(&net::decode(weights::DATA, hidden, groups), hidden, groups);
        assert_eq!(anchors.len(), weights::ANCHORS.len());
        let all = anchors.iter().flatten();
        let nonzero = all.clone().filter(|&&v| v != 0).count();
        let sum: i64 = all.map(|&v| i64::from(v.abs())).sum();
        assert_eq!((nonzero, sum), weights::CHECKSUM);
        assert!(anchors.iter().all(|a| a.len() == PHASE_SIZE));
    }

    #[test]
    fn mirrors_are_tied() {
        for (k, name) in PATTERN_NAMES.iter().enumerate() {
            let canon = canonical_indices(k);
            let tied = canon.iter().enumerate().filter(|&(i, &c)| i as u32 != c);
            let expected = if mirror(k).is_some() { 1 } else { 0 };
            assert_eq!(tied.count().min(1), expected, "{name}");
        }
    }
}

//! The hot bit kernels of the rules: legal moves and flips on raw `u64` boards.
//!
//! `p` is the side to move's discs, `o` the opponent's; bit `i` is square `i`
//! (`a1` = 0, `h1` = 7, `a8` = 56). These portable versions use only shifts
//! and masks. [`crate::reference`] holds slow ray-walking versions that the
//! tests compare them with.
//!
//! The kernels are `#[inline(always)]` so that a hot loop compiled for the
//! fast instructions ([`crate::dispatch`]) compiles them that way too: left
//! to itself the compiler called one portable copy from both loops.
//! An explicit AVX2 `moves` (four directions per register) was tried and
//! measured no faster than this code compiled with avx2 (perft 12 user time
//! 2.89-2.95 s against 2.86-3.02 s), so there is none.

#[cfg(not(cargo_equip))]
use crate::dispatch::{fast_fn, Isa};

/// Square-index steps of the 8 directions, and whether the step goes toward
/// higher bits. East +1, south +8, south-east +9, south-west +7 go up;
/// west, north, north-west, north-east go down.
const DIRECTIONS: [(i8, i8); 8] = [
    (1, 0),   // east
    (0, 1),   // south
    (1, 1),   // south-east
    (-1, 1),  // south-west
    (-1, 0),  // west
    (0, -1),  // north
    (-1, -1), // north-west
    (1, -1),  // north-east
];

/// `RAYS[sq][d]`: the squares strictly beyond `sq` in direction `d` of
/// [`DIRECTIONS`], up to the edge. Directions 0..4 go toward higher bits.
pub(crate) const RAYS: [[u64; 8]; 64] = build_rays();

const fn build_rays() -> [[u64; 8]; 64] {
    let mut rays = [[0u64; 8]; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut d = 0;
        while d < 8 {
            let (dc, dr) = DIRECTIONS[d];
            let mut c = (sq % 8) as i8 + dc;
            let mut r = (sq / 8) as i8 + dr;
            let mut mask = 0u64;
            while c >= 0 && c < 8 && r >= 0 && r < 8 {
                mask |= 1u64 << (r * 8 + c);
                c += dc;
                r += dr;
            }
            rays[sq][d] = mask;
            d += 1;
        }
        sq += 1;
    }
    rays
}

/// Columns b..g: a run that moves sideways never wraps through these.
const INNER: u64 = 0x7e7e_7e7e_7e7e_7e7e;

/// Legal moves of `p` against `o`: the empty squares from which some
/// direction holds a run of `o` discs closed by a `p` disc.
///
/// Kogge-Stone style: in each direction the run is grown by 1, then by 2
/// and 2 more, which covers the at most 6 discs a run can hold.
#[inline(always)]
pub fn moves(p: u64, o: u64) -> u64 {
    let empty = !(p | o);
    let inner = o & INNER;
    (run_up(p, inner, 1)
        | run_down(p, inner, 1)
        | run_up(p, o, 8)
        | run_down(p, o, 8)
        | run_up(p, inner, 7)
        | run_down(p, inner, 7)
        | run_up(p, inner, 9)
        | run_down(p, inner, 9))
        & empty
}

/// The squares one step past a run of `mask` discs that starts next to a
/// `p` disc, stepping toward higher bits by `shift`.
#[inline(always)]
fn run_up(p: u64, mask: u64, shift: u32) -> u64 {
    let mut run = mask & (p << shift);
    run |= mask & (run << shift);
    let pairs = mask & (mask << shift);
    run |= pairs & (run << (2 * shift));
    run |= pairs & (run << (2 * shift));
    run << shift
}

/// As [`run_up`], stepping toward lower bits.
#[inline(always)]
fn run_down(p: u64, mask: u64, shift: u32) -> u64 {
    let mut run = mask & (p >> shift);
    run |= mask & (run >> shift);
    let pairs = mask & (mask >> shift);
    run |= pairs & (run >> (2 * shift));
    run |= pairs & (run >> (2 * shift));
    run >> shift
}

/// The discs of `o` that playing on `sq` flips (0 when the move is illegal
/// or the square is taken; callers check legality with [`moves`]).
///
/// Going up, the first square of each ray that is not an opponent disc is
/// its lowest bit; if it is a `p` disc, the squares before it flip. Going
/// down, the run of opponent discs next to `sq` is grown square by square
/// and flips if a `p` disc closes it.
#[inline(always)]
pub fn flips(p: u64, o: u64, sq: usize) -> u64 {
    let rays = &RAYS[sq];
    let mut flipped = 0u64;
    let mut d = 0;
    while d < 4 {
        let ray = rays[d];
        let stop = ray & !o;
        let first = stop & stop.wrapping_neg();
        let closed = ((first & p) != 0) as u64;
        flipped |= ray & first.wrapping_sub(1) & closed.wrapping_neg();
        d += 1;
    }
    // Downward, the run is grown as in `run_down` (1, then 2 and 2 more
    // squares). The mirror of the lowest-bit trick needs the highest bit,
    // a leading-zero count, which AVX2 lacks for 64-bit lanes: the
    // vectorizer emulated it, slower than this (docs/endgame.md, FFO).
    let x = 1u64 << sq;
    let inner = o & INNER;
    for (mask, shift) in [(inner, 1), (o, 8), (inner, 7), (inner, 9)] {
        let mut run = mask & (x >> shift);
        run |= mask & (run >> shift);
        let pairs = mask & (mask >> shift);
        run |= pairs & (run >> (2 * shift));
        run |= pairs & (run >> (2 * shift));
        let closed = ((run >> shift) & p != 0) as u64;
        flipped |= run & closed.wrapping_neg();
    }
    flipped
}

/// `LINE_FLIPS[x][line]`: how many discs a move at position `x` of an
/// 8-square line flips when `line` holds the mover's discs and every other
/// square is the opponent's. Squares off a short line read as 0 (the
/// opponent's) but can never close a run, as no mover's disc is there.
static LINE_FLIPS: [[u8; 256]; 8] = line_flips_table();

const fn line_flips_table() -> [[u8; 256]; 8] {
    let mut out = [[0u8; 256]; 8];
    let mut x = 0;
    while x < 8 {
        let mut line = 0;
        while line < 256 {
            let mut total = 0;
            let mut step: i32 = -1;
            while step <= 1 {
                let (mut i, mut run) = (x as i32 + step, 0);
                while i >= 0 && i < 8 && line >> i & 1 == 0 {
                    run += 1;
                    i += step;
                }
                if i >= 0 && i < 8 {
                    total += run;
                }
                step += 2;
            }
            out[x][line] = total as u8;
            line += 1;
        }
        x += 1;
    }
    out
}

/// `DIAGONALS[sq]`: the two diagonals through `sq` (`sq` included).
static DIAGONALS: [[u64; 2]; 64] = diagonal_masks();

const fn diagonal_masks() -> [[u64; 2]; 64] {
    let mut out = [[0u64; 2]; 64];
    let mut sq = 0;
    while sq < 64 {
        let bit = 1u64 << sq;
        out[sq] = [
            RAYS[sq][2] | RAYS[sq][6] | bit,
            RAYS[sq][3] | RAYS[sq][7] | bit,
        ];
        sq += 1;
    }
    out
}

/// The squares next to `b`'s discs, in any of the 8 directions (with
/// `b`'s own discs that have a neighbour in `b`). The empty ones next to
/// the opponent's discs are the side to move's potential mobility.
#[inline(always)]
pub fn neighbours(b: u64) -> u64 {
    let h = ((b >> 1) & 0x7f7f_7f7f_7f7f_7f7f) | ((b << 1) & 0xfefe_fefe_fefe_fefe);
    let row = b | h;
    h | (row >> 8) | (row << 8)
}

/// How many discs `p` flips by playing on `sq` when `sq` is the only square
/// `p` does not hold that is not the opponent's: the last empty square
/// (the opponent's discs are then `!p` but `sq`). Equals
/// `flips(p, !p & !(1 << sq), sq).count_ones()`, from four table lookups
/// (row, column and the diagonals, each collapsed to one byte).
#[inline(always)]
pub fn last_flip_count(p: u64, sq: usize) -> u32 {
    const FILE_A: u64 = 0x0101_0101_0101_0101;
    let (x, y) = (sq & 7, sq >> 3);
    let row = (p >> (8 * y)) as u8;
    let column = (((p >> x) & FILE_A).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u8;
    let [d1, d2] = DIAGONALS[sq];
    let diag1 = ((p & d1).wrapping_mul(FILE_A) >> 56) as u8;
    let diag2 = ((p & d2).wrapping_mul(FILE_A) >> 56) as u8;
    u32::from(LINE_FLIPS[x][usize::from(row)])
        + u32::from(LINE_FLIPS[y][usize::from(column)])
        + u32::from(LINE_FLIPS[x][usize::from(diag1)])
        + u32::from(LINE_FLIPS[x][usize::from(diag2)])
}

/// Both compilations of the kernels, for tests (not in the submission).
#[cfg(not(cargo_equip))]
mod compiled {
    use super::{fast_fn, flips, moves, Isa};

    /// [`moves`] compiled for `isa`: tests compare the two compilations.
    #[allow(unsafe_code)]
    pub fn moves_with(isa: Isa, p: u64, o: u64) -> u64 {
        #[cfg(target_arch = "x86_64")]
        if isa.is_fast() {
            // SAFETY: `isa` is fast only when the CPU has every feature
            // `moves_fast` enables (see `Isa`). Not on a hot path.
            return unsafe { moves_fast(p, o) };
        }
        let _ = isa;
        moves(p, o)
    }

    /// [`flips`] compiled for `isa`: tests compare the two compilations.
    #[allow(unsafe_code)]
    pub fn flips_with(isa: Isa, p: u64, o: u64, sq: usize) -> u64 {
        #[cfg(target_arch = "x86_64")]
        if isa.is_fast() {
            // SAFETY: as in `moves_with`.
            return unsafe { flips_fast(p, o, sq) };
        }
        let _ = isa;
        flips(p, o, sq)
    }

    fast_fn! {
        fn moves_fast(p: u64, o: u64) -> u64 {
            moves(p, o)
        }
    }

    fast_fn! {
        fn flips_fast(p: u64, o: u64, sq: usize) -> u64 {
            flips(p, o, sq)
        }
    }
}
#[cfg(not(cargo_equip))]
pub use compiled::{flips_with, moves_with};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn last_flip_count_equals_counting_the_flips() {
        let mut rng = crate::rng::Rng::seed_from_u64(11);
        for _ in 0..20_000 {
            let sq = rng.below(64) as usize;
            // A quarter, a half and three quarters of the board the mover's:
            // long runs of either colour.
            let discs = match rng.below(3) {
                0 => rng.next_u64() & rng.next_u64(),
                1 => rng.next_u64(),
                _ => rng.next_u64() | rng.next_u64(),
            };
            let p = discs & !(1u64 << sq);
            let o = !p & !(1u64 << sq);
            assert_eq!(last_flip_count(p, sq), flips(p, o, sq).count_ones());
            assert_eq!(last_flip_count(o, sq), flips(o, p, sq).count_ones());
        }
    }

    #[test]
    fn neighbours_match_the_slow_reference() {
        let mut rng = crate::rng::Rng::seed_from_u64(13);
        for _ in 0..20_000 {
            let b = match rng.below(3) {
                0 => rng.next_u64() & rng.next_u64() & rng.next_u64(),
                1 => rng.next_u64() & rng.next_u64(),
                _ => rng.next_u64(),
            };
            assert_eq!(
                neighbours(b),
                crate::reference::neighbours_slow(b),
                "{b:#x}"
            );
        }
        assert_eq!(neighbours(1), 0x302);
        assert_eq!(neighbours(0), 0);
    }

    #[test]
    fn rays_of_a_corner_and_a_centre_square() {
        // a1 = 0: east is b1..h1, south is a2..a8, south-east the long diagonal.
        assert_eq!(RAYS[0][0], 0xfe);
        assert_eq!(RAYS[0][1], 0x0101_0101_0101_0100);
        assert_eq!(RAYS[0][2], 0x8040_2010_0804_0200);
        assert_eq!(
            RAYS[0][3] | RAYS[0][4] | RAYS[0][5] | RAYS[0][6] | RAYS[0][7],
            0
        );
        // d4 = 27 has 8 rays covering 3+4+4+3+3+3+3+3 squares.
        let total: u32 = RAYS[27].iter().map(|r| r.count_ones()).sum();
        assert_eq!(total, 4 + 4 + 4 + 3 + 3 + 3 + 3 + 3);
    }
}

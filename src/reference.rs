//! Slow, obviously correct rules: walk each of the 8 rays square by square.
//!
//! Nothing here is fast; it exists so that tests can check the fast kernels
//! of [`crate::kernels`] (and the run-time dispatched ones) against it.

/// Steps (column, row) of the 8 directions.
const STEPS: [(i32, i32); 8] = [
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
    (1, 1),
    (1, -1),
    (-1, 1),
    (-1, -1),
];

fn bit(c: i32, r: i32) -> u64 {
    1u64 << (r * 8 + c)
}

/// The discs of `o` flipped by `p` playing on `sq`, by walking each ray.
pub fn flips_slow(p: u64, o: u64, sq: usize) -> u64 {
    if (p | o) & (1u64 << sq) != 0 {
        return 0;
    }
    let (c0, r0) = ((sq % 8) as i32, (sq / 8) as i32);
    let mut all = 0;
    for (dc, dr) in STEPS {
        let (mut c, mut r) = (c0 + dc, r0 + dr);
        let mut run = 0u64;
        while (0..8).contains(&c) && (0..8).contains(&r) && o & bit(c, r) != 0 {
            run |= bit(c, r);
            c += dc;
            r += dr;
        }
        if (0..8).contains(&c) && (0..8).contains(&r) && p & bit(c, r) != 0 {
            all |= run;
        }
    }
    all
}

/// [`crate::kernels::neighbours`] square by square: every square one step
/// in some direction from a disc of `b`.
pub fn neighbours_slow(b: u64) -> u64 {
    let mut out = 0;
    for sq in (0..64).filter(|&sq| b >> sq & 1 != 0) {
        let (c0, r0) = (sq % 8, sq / 8);
        for (dc, dr) in STEPS {
            let (c, r) = (c0 + dc, r0 + dr);
            if (0..8).contains(&c) && (0..8).contains(&r) {
                out |= bit(c, r);
            }
        }
    }
    out
}

/// The legal moves of `p`: empty squares where [`flips_slow`] flips something.
pub fn moves_slow(p: u64, o: u64) -> u64 {
    (0..64)
        .filter(|&sq| flips_slow(p, o, sq) != 0)
        .fold(0, |acc, sq| acc | 1u64 << sq)
}

/// [`crate::board::transform`] square by square: symmetry `s` (bit 0: flip
/// columns, bit 1: flip rows, bit 2: transpose), in that order.
pub fn transform_slow(b: u64, s: u8) -> u64 {
    let mut out = 0;
    for i in 0..64u32 {
        if b >> i & 1 == 0 {
            continue;
        }
        let (mut row, mut col) = (i / 8, i % 8);
        if s & 1 != 0 {
            col = 7 - col;
        }
        if s & 2 != 0 {
            row = 7 - row;
        }
        if s & 4 != 0 {
            (row, col) = (col, row);
        }
        out |= 1u64 << (row * 8 + col);
    }
    out
}

//! The patterns' geometry: which squares each pattern reads, on which
//! symmetric images, where its table lies in a phase's weights, and which
//! indices are mirrors of each other. Both the evaluation
//! ([`super::pattern`]) and the networks that make its tables
//! ([`super::net`]) read it.

/// A pattern: its squares in digit order (digit `i` has weight `3^i`) and
/// the board symmetries ([`crate::board::transform`]) it is read through.
#[derive(Clone, Copy, Debug)]
pub struct Pattern {
    /// Squares (`a1` = 0) in digit order.
    pub squares: &'static [u8],
    /// Symmetries giving the distinct instances.
    pub syms: &'static [u8],
}

/// Symmetries that give the 4 instances of a row-like pattern (2nd, 7th row,
/// b and g columns).
const ROW_SYMS: &[u8] = &[0, 2, 4, 5];
/// Symmetries that give the 4 instances of a corner pattern.
const CORNER_SYMS: &[u8] = &[0, 1, 2, 3];
/// Symmetries that give the 4 instances of a short diagonal.
const DIAG_SYMS: &[u8] = &[0, 1, 2, 4];

/// The patterns' short names, for reports, in [`PATTERNS`]' order (a
/// table of their own, which the submission leaves out).
pub const PATTERN_NAMES: [&str; 11] = [
    "row2",
    "row3",
    "row4",
    "diag8",
    "diag7",
    "diag6",
    "diag5",
    "diag4",
    "edge+2x",
    "corner3x3",
    "corner2x5",
];

/// The patterns, in table order.
pub const PATTERNS: [Pattern; 11] = [
    Pattern {
        squares: &[8, 9, 10, 11, 12, 13, 14, 15],
        syms: ROW_SYMS,
    },
    Pattern {
        squares: &[16, 17, 18, 19, 20, 21, 22, 23],
        syms: ROW_SYMS,
    },
    Pattern {
        squares: &[24, 25, 26, 27, 28, 29, 30, 31],
        syms: ROW_SYMS,
    },
    Pattern {
        squares: &[0, 9, 18, 27, 36, 45, 54, 63],
        syms: &[0, 1],
    },
    Pattern {
        squares: &[1, 10, 19, 28, 37, 46, 55],
        syms: DIAG_SYMS,
    },
    Pattern {
        squares: &[2, 11, 20, 29, 38, 47],
        syms: DIAG_SYMS,
    },
    Pattern {
        squares: &[3, 12, 21, 30, 39],
        syms: DIAG_SYMS,
    },
    Pattern {
        squares: &[4, 13, 22, 31],
        syms: DIAG_SYMS,
    },
    Pattern {
        squares: &[0, 1, 2, 3, 4, 5, 6, 7, 9, 14],
        syms: ROW_SYMS,
    },
    Pattern {
        squares: &[0, 1, 2, 8, 9, 10, 16, 17, 18],
        syms: CORNER_SYMS,
    },
    Pattern {
        squares: &[0, 1, 2, 3, 4, 8, 9, 10, 11, 12],
        syms: &[0, 1, 2, 3, 4, 5, 6, 7],
    },
];

/// Number of pattern instances read on one board.
pub const INSTANCES: usize = count_instances();

const fn count_instances() -> usize {
    let mut n = 0;
    let mut k = 0;
    while k < PATTERNS.len() {
        n += PATTERNS[k].syms.len();
        k += 1;
    }
    n
}

/// `3^n`.
pub const fn pow3(n: usize) -> usize {
    let mut p = 1;
    let mut i = 0;
    while i < n {
        p *= 3;
        i += 1;
    }
    p
}

/// Start of each pattern's table in one phase's weights, and (last) the size.
pub const OFFSETS: [usize; PATTERNS.len() + 1] = offsets();

const fn offsets() -> [usize; PATTERNS.len() + 1] {
    let mut out = [0; PATTERNS.len() + 1];
    let mut k = 0;
    while k < PATTERNS.len() {
        out[k + 1] = out[k] + pow3(PATTERNS[k].squares.len());
        k += 1;
    }
    out
}

/// Weights of one phase: every pattern's table, end to end.
pub const PHASE_SIZE: usize = OFFSETS[PATTERNS.len()];

/// For pattern `k`: the digit permutation under which the pattern maps onto
/// itself (a mirror), if any. Digit `i` of the mirrored index is digit
/// `perm[i]` of the original.
pub fn mirror(k: usize) -> Option<Vec<usize>> {
    let squares = PATTERNS[k].squares;
    for s in 1..8 {
        let perm: Option<Vec<usize>> = squares
            .iter()
            .map(|&q| {
                let image = crate::board::transform(1u64 << q, s).trailing_zeros() as u8;
                squares.iter().position(|&r| r == image)
            })
            .collect();
        if let Some(perm) = perm {
            if perm.iter().enumerate().any(|(i, &j)| i != j) {
                return Some(perm);
            }
        }
    }
    None
}

/// For pattern `k`, the representative of every index (table-local): the
/// smaller of the index and its mirror. Mirrored indices share one weight.
pub fn canonical_indices(k: usize) -> Vec<u32> {
    let len = PATTERNS[k].squares.len();
    let size = pow3(len);
    let Some(perm) = mirror(k) else {
        return (0..size as u32).collect();
    };
    // Digit i of the index moves to digit j of the mirror, where perm[j] = i.
    let mut place = [0usize; 10];
    for (j, &i) in perm.iter().enumerate() {
        place[i] = pow3(j);
    }
    // Count through the indices like an odometer, updating the mirror.
    let mut digits = [0u8; 10];
    let mut m = 0;
    let mut out = Vec::with_capacity(size);
    for t in 0..size {
        out.push(t.min(m) as u32);
        for i in 0..len {
            if digits[i] < 2 {
                digits[i] += 1;
                m += place[i];
                break;
            }
            digits[i] = 0;
            m -= 2 * place[i];
        }
    }
    out
}

//! Stable discs: discs that no sequence of moves can ever flip. The solver
//! uses their count as an upper bound of the final score (stability cutoff).
//!
//! The set found is a safe under-estimate, as in Edax: a disc is stable if
//! it is stable on its edge (exhaustive 1-D analysis of the edge, from a
//! table), or if it lies on four full lines, or if along each of the four
//! lines through it the line is full or a neighbour is a stable disc of the
//! same colour.

use std::sync::OnceLock;

/// `EDGE[p * 256 + o]`: the discs of `p` that are stable on an 8-square
/// edge holding `p` and `o` (bit `i` is the `i`-th square of the edge),
/// considering only moves along the edge itself.
static EDGE: OnceLock<Vec<u8>> = OnceLock::new();

/// The edge table, built on first use (6,561 valid edges, in well under a
/// millisecond).
fn edge_table() -> &'static [u8] {
    EDGE.get_or_init(build_edge_table)
}

/// The discs flipped on an 8-square line when a disc of `p` lands on `x`.
fn line_flips(p: u8, o: u8, x: u32) -> u8 {
    let mut flipped = 0u8;
    for step in [1i32, -1] {
        let mut run = 0u8;
        let mut i = x as i32 + step;
        while (0..8).contains(&i) && o >> i & 1 != 0 {
            run |= 1 << i;
            i += step;
        }
        if (0..8).contains(&i) && p >> i & 1 != 0 {
            flipped |= run;
        }
    }
    flipped
}

/// Fills the edge table by dynamic programming over the number of empty
/// squares: a disc is stable if it is still `p`'s and stable after every
/// disc either side could put on any empty square of the edge.
fn build_edge_table() -> Vec<u8> {
    let mut table = vec![0u8; 1 << 16];
    // Edges in order of increasing empties, so every successor is done.
    let mut configs: Vec<(u8, u8)> = Vec::with_capacity(6561);
    for p in 0..=255u8 {
        for o in 0..=255u8 {
            if p & o == 0 {
                configs.push((p, o));
            }
        }
    }
    configs.sort_by_key(|&(p, o)| (!(p | o)).count_ones());
    for (p, o) in configs {
        let mut stable = p;
        let mut empty = !(p | o);
        while empty != 0 && stable != 0 {
            let x = empty.trailing_zeros();
            empty &= empty - 1;
            let bit = 1u8 << x;
            // `p` plays x: flipped discs of `o` become `p`'s.
            let f = line_flips(p, o, x);
            stable &= table[usize::from(p | bit | f) << 8 | usize::from(o & !f)];
            // `o` plays x: flipped discs of `p` are lost.
            let f = line_flips(o, p, x);
            stable &= table[usize::from(p & !f) << 8 | usize::from(o | bit | f)];
        }
        table[usize::from(p) << 8 | usize::from(o)] = stable & p;
    }
    table
}

/// Column `a` packed into a byte: bit `r` is row `r`.
#[inline]
fn pack_column_a(b: u64) -> usize {
    ((b & 0x0101_0101_0101_0101).wrapping_mul(0x0102_0408_1020_4080) >> 56) as usize
}

/// The inverse of [`pack_column_a`]. Bits 0..7 spread by one multiply
/// (their partial products never overlap); bit 7 would collide with bit 0,
/// so it is placed apart.
#[inline]
fn unpack_column_a(byte: u8) -> u64 {
    let low = u64::from(byte & 0x7f).wrapping_mul(0x0002_0408_1020_4081) & 0x0101_0101_0101_0101;
    low | u64::from(byte >> 7) << 56
}

/// Stable discs of `p` on the four edges.
fn edge_stable(p: u64, o: u64) -> u64 {
    let t = edge_table();
    let at = |pe: usize, oe: usize| t[pe << 8 | oe];
    let top = u64::from(at((p & 0xff) as usize, (o & 0xff) as usize));
    let bottom = u64::from(at((p >> 56) as usize, (o >> 56) as usize)) << 56;
    let left = unpack_column_a(at(pack_column_a(p), pack_column_a(o)));
    let right = unpack_column_a(at(pack_column_a(p >> 7), pack_column_a(o >> 7))) << 7;
    top | bottom | left | right
}

/// The squares whose row, column and both diagonals are all full, as four
/// masks (horizontal, vertical, and the two diagonals).
fn full_lines(occupied: u64) -> [u64; 4] {
    let mut h = 0u64;
    for row in 0..8 {
        let line = 0xffu64 << (8 * row);
        if occupied & line == line {
            h |= line;
        }
    }
    let mut cols = occupied;
    cols &= cols >> 32;
    cols &= cols >> 16;
    cols &= cols >> 8;
    let v = (cols & 0xff).wrapping_mul(0x0101_0101_0101_0101);
    let mut d9 = 0u64;
    let mut d7 = 0u64;
    for mask in DIAGONALS_9 {
        if occupied & mask == mask {
            d9 |= mask;
        }
    }
    for mask in DIAGONALS_7 {
        if occupied & mask == mask {
            d7 |= mask;
        }
    }
    [h, v, d9, d7]
}

/// The 15 diagonals running a1-h8 (index step 9), as masks.
const DIAGONALS_9: [u64; 15] = diagonals(9);
/// The 15 diagonals running h1-a8 (index step 7), as masks.
const DIAGONALS_7: [u64; 15] = diagonals(7);

const fn diagonals(step: u32) -> [u64; 15] {
    let mut out = [0u64; 15];
    let mut sq: i32 = 0;
    while sq < 64 {
        let (c, r) = (sq % 8, sq / 8);
        // Squares on one diagonal share r - c (step 9) or r + c (step 7).
        let k = if step == 9 { r - c + 7 } else { r + c };
        out[k as usize] |= 1u64 << sq;
        sq += 1;
    }
    out
}

/// The squares not on an edge.
const CENTRAL: u64 = 0x007e_7e7e_7e7e_7e00;

/// Discs of `p` that can never be flipped (a safe under-estimate).
pub fn stable_discs(p: u64, o: u64) -> u64 {
    let [h, v, d9, d7] = full_lines(p | o);
    let central = p & CENTRAL;
    let mut stable = edge_stable(p, o) | (central & h & v & d9 & d7);
    if stable == 0 {
        return 0;
    }
    loop {
        let old = stable;
        let sh = (stable >> 1) | (stable << 1) | h;
        let sv = (stable >> 8) | (stable << 8) | v;
        let s9 = (stable >> 9) | (stable << 9) | d9;
        let s7 = (stable >> 7) | (stable << 7) | d7;
        stable |= sh & sv & s9 & s7 & central;
        if stable == old {
            return stable;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use crate::rng::Rng;

    #[test]
    fn column_packing_round_trips() {
        for byte in [0u8, 1, 0x80, 0xa5, 0xff] {
            assert_eq!(pack_column_a(unpack_column_a(byte)) as u8, byte);
        }
        assert_eq!(pack_column_a(1 << 56), 0x80);
    }

    #[test]
    fn corners_are_stable_and_a_lone_edge_disc_is_not() {
        // p on a1 and b1 with o on c1: a1, b1 stable.
        assert_eq!(edge_stable(0b11, 0b100), 0b11);
        // p alone on c1: an o disc can land either side and flip... no, a
        // single disc with both neighbours empty can be flipped.
        assert_eq!(edge_stable(0b100, 0), 0);
        // A full row is stable.
        assert_eq!(edge_stable(0x0f, 0xf0) & 0xff, 0x0f);
    }

    /// Stable discs must survive every continuation: play random games and
    /// check none of the discs called stable ever changes colour.
    #[test]
    fn stable_discs_never_flip_in_random_games() {
        let mut rng = Rng::seed_from_u64(7);
        for _ in 0..300 {
            let mut board = Board::start();
            let mut me = true; // whether `board.player` is the first side
            let mut claims: Vec<(u64, bool)> = Vec::new();
            loop {
                let (first, second) = if me {
                    (board.player, board.opponent)
                } else {
                    (board.opponent, board.player)
                };
                claims.push((stable_discs(first, second), true));
                claims.push((stable_discs(second, first), false));
                for &(s, of_first) in &claims {
                    let owner = if of_first { first } else { second };
                    assert_eq!(s & owner, s, "a stable disc flipped");
                }
                let moves = board.moves();
                if moves.is_empty() {
                    if board.pass().moves().is_empty() {
                        break;
                    }
                    board = board.pass();
                } else {
                    board = board.play(crate::Square::new(rng.pick_bit(moves.0) as u8));
                }
                me = !me;
            }
        }
    }
}

//! The position: two bitboards relative to the side to move.

use crate::bitboard::Bitboard;
use crate::kernels;
use crate::square::Square;
use core::fmt;

/// A move: a disc on a square, or a pass when the side to move has none.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Move {
    /// Put a disc on the square.
    Play(Square),
    /// No legal move: the turn goes to the opponent.
    Pass,
}

// Tools and tests only: not in the submission (docs/bundle.md).
#[cfg(not(cargo_equip))]
impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Play(sq) => sq.fmt(f),
            Move::Pass => f.write_str("pass"),
        }
    }
}

/// Room for the legal moves of any position, reachable or not: one per
/// square. (A position reached from the start has at most 33; an input
/// board may have more, and the searches' fixed move lists must not
/// overflow on it.)
pub const MAX_MOVES: usize = 64;

/// A position seen from the side to move: `player` holds its discs,
/// `opponent` the other side's. `Board` is `Copy`; [`Board::play`] returns
/// the next position with the roles swapped.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Board {
    /// Discs of the side to move.
    pub player: u64,
    /// Discs of the side that just moved.
    pub opponent: u64,
}

impl Board {
    /// The start position, black (CodinGame's player 0) to move:
    /// black on `d5` and `e4`, white on `d4` and `e5`.
    pub const fn start() -> Board {
        Board {
            player: Square::from_coords(3, 4).bit() | Square::from_coords(4, 3).bit(),
            opponent: Square::from_coords(3, 3).bit() | Square::from_coords(4, 4).bit(),
        }
    }

    /// A board from the two sides' discs.
    ///
    /// # Panics
    /// If the two sets overlap.
    pub const fn new(player: u64, opponent: u64) -> Board {
        assert!(player & opponent == 0, "a square holds two discs");
        Board { player, opponent }
    }

    /// The legal moves of the side to move.
    #[inline]
    pub fn moves(&self) -> Bitboard {
        Bitboard(kernels::moves(self.player, self.opponent))
    }

    /// The opponent discs that a disc on `sq` would flip (empty if illegal).
    #[inline]
    pub fn flips(&self, sq: Square) -> Bitboard {
        Bitboard(kernels::flips(self.player, self.opponent, sq.index()))
    }

    // Tools and tests only: not in the submission (docs/bundle.md).
    #[cfg(not(cargo_equip))]
    /// Whether a disc on `sq` is a legal move.
    #[inline]
    pub fn is_legal(&self, sq: Square) -> bool {
        self.moves().contains(sq)
    }

    /// The position after the side to move plays on `sq` (copy-make).
    ///
    /// The caller must pass a legal move; an illegal square yields a
    /// position that the rules could not reach.
    #[inline]
    pub fn play(&self, sq: Square) -> Board {
        let flipped = kernels::flips(self.player, self.opponent, sq.index());
        Board {
            player: self.opponent ^ flipped,
            opponent: self.player ^ flipped ^ sq.bit(),
        }
    }

    /// The position after `mv`.
    #[inline]
    pub fn apply(&self, mv: Move) -> Board {
        match mv {
            Move::Play(sq) => self.play(sq),
            Move::Pass => self.pass(),
        }
    }

    /// The same discs with the other side to move.
    #[inline]
    pub const fn pass(&self) -> Board {
        Board {
            player: self.opponent,
            opponent: self.player,
        }
    }

    /// The empty squares.
    #[inline]
    pub const fn empties(&self) -> Bitboard {
        Bitboard(!(self.player | self.opponent))
    }

    /// The number of empty squares.
    #[inline]
    pub const fn empty_count(&self) -> u32 {
        (!(self.player | self.opponent)).count_ones()
    }

    /// Whether the side to move must pass (has no move) though the game goes on.
    pub fn must_pass(&self) -> bool {
        self.moves().is_empty() && !self.pass().moves().is_empty()
    }

    /// Whether neither side can move.
    #[inline]
    pub fn is_game_over(&self) -> bool {
        kernels::moves(self.player, self.opponent) == 0
            && kernels::moves(self.opponent, self.player) == 0
    }

    /// Side to move's discs minus the opponent's, empties not counted.
    #[inline]
    pub const fn disc_difference(&self) -> i32 {
        self.player.count_ones() as i32 - self.opponent.count_ones() as i32
    }

    /// The final score of a finished game for the side to move: the disc
    /// difference, with the empty squares given to the winner (the FFO and
    /// Edax convention). A draw with empties stays 0.
    #[inline]
    pub const fn final_score(&self) -> i32 {
        let diff = self.disc_difference();
        let empties = self.empty_count() as i32;
        if diff > 0 {
            diff + empties
        } else if diff < 0 {
            diff - empties
        } else {
            0
        }
    }

    /// The board mirrored or rotated by symmetry `s` (0..8; 0 is identity).
    pub fn symmetry(&self, s: u8) -> Board {
        Board {
            player: transform(self.player, s),
            opponent: transform(self.opponent, s),
        }
    }

    /// Parses 64 cells from `a1` to `h8`.
    ///
    /// `cells` holds 64 characters from `a1` to `h8`; `mine` and `theirs`
    /// name the characters of the side to move and of the opponent; `-`
    /// and `.` are empty.
    ///
    /// # Errors
    /// A wrong length or an unknown character, with its position.
    pub fn from_cells(cells: &str, mine: char, theirs: char) -> Result<Board, String> {
        let count = cells.chars().count();
        if count != 64 {
            return Err(format!("expected 64 cells, found {count}"));
        }
        let (mut player, mut opponent) = (0u64, 0u64);
        for (i, c) in cells.chars().enumerate() {
            if c == mine {
                player |= 1 << i;
            } else if c == theirs {
                opponent |= 1 << i;
            } else if c != '-' && c != '.' {
                return Err(format!(
                    "unknown cell character {c:?} at {}",
                    Square::new(i as u8)
                ));
            }
        }
        Ok(Board { player, opponent })
    }
}

/// Applies board symmetry `s` (bit 0: flip columns, bit 1: flip rows,
/// bit 2: transpose) to a bitboard (the square-by-square oracle is
/// `reference::transform_slow`).
pub fn transform(mut b: u64, s: u8) -> u64 {
    if s & 1 != 0 {
        b = flip_columns(b);
    }
    if s & 2 != 0 {
        b = b.swap_bytes();
    }
    if s & 4 != 0 {
        b = transpose(b);
    }
    b
}

/// The 8 images of a bitboard, indexed like [`transform`].
#[inline]
pub fn images(b: u64) -> [u64; 8] {
    let c = flip_columns(b);
    let r = b.swap_bytes();
    let cr = c.swap_bytes();
    [
        b,
        c,
        r,
        cr,
        transpose(b),
        transpose(c),
        transpose(r),
        transpose(cr),
    ]
}

/// Mirror of the columns (`a` <-> `h`) of a bitboard.
#[inline]
fn flip_columns(mut x: u64) -> u64 {
    const K1: u64 = 0x5555_5555_5555_5555;
    const K2: u64 = 0x3333_3333_3333_3333;
    const K4: u64 = 0x0f0f_0f0f_0f0f_0f0f;
    x = ((x >> 1) & K1) | ((x & K1) << 1);
    x = ((x >> 2) & K2) | ((x & K2) << 2);
    ((x >> 4) & K4) | ((x & K4) << 4)
}

/// Mirror about the `a1`-`h8` diagonal (square `(row, col)` -> `(col, row)`).
#[inline]
fn transpose(mut x: u64) -> u64 {
    const K1: u64 = 0x5500_5500_5500_5500;
    const K2: u64 = 0x3333_0000_3333_0000;
    const K4: u64 = 0x0f0f_0f0f_0000_0000;
    let t = K4 & (x ^ (x << 28));
    x ^= t ^ (t >> 28);
    let t = K2 & (x ^ (x << 14));
    x ^= t ^ (t >> 14);
    let t = K1 & (x ^ (x << 7));
    x ^= t ^ (t >> 7);
    x
}

// Tools and tests only: not in the submission (docs/bundle.md).
#[cfg(not(cargo_equip))]
impl Default for Board {
    fn default() -> Board {
        Board::start()
    }
}

// Tools and tests only: not in the submission (docs/bundle.md).
#[cfg(not(cargo_equip))]
impl fmt::Display for Board {
    /// Eight rows `a`..`h`, `X` the side to move, `O` the opponent, `.` empty.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for row in 0..8 {
            for col in 0..8 {
                let bit = Square::from_coords(col, row).bit();
                let c = if self.player & bit != 0 {
                    'X'
                } else if self.opponent & bit != 0 {
                    'O'
                } else {
                    '.'
                };
                write!(f, "{c}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_has_four_moves_d3_c4_f5_e6() {
        let names: Vec<String> = Board::start()
            .moves()
            .squares()
            .map(|s| s.to_string())
            .collect();
        assert_eq!(names, ["d3", "c4", "f5", "e6"]);
    }

    #[test]
    fn playing_flips_and_swaps_sides() {
        let b = Board::start().play(Square::parse("d3").unwrap());
        // Black now has d3, d4, d5, e4: 4 discs; white has e5 only.
        assert_eq!(b.opponent.count_ones(), 4);
        assert_eq!(b.player.count_ones(), 1);
        assert_eq!(b.disc_difference(), -3);
    }

    #[test]
    fn final_score_gives_empties_to_the_winner() {
        let b = Board::new(0b111, 0b1000);
        assert_eq!(b.final_score(), 2 + 60);
        assert_eq!(b.pass().final_score(), -62);
        assert_eq!(Board::new(1, 2).final_score(), 0);
    }

    #[test]
    fn symmetries_are_permutations() {
        let b = 0x0123_4567_89ab_cdefu64;
        for s in 0..8 {
            assert_eq!(transform(b, s).count_ones(), b.count_ones());
        }
        assert_eq!(transform(1, 1), 1 << 7);
        assert_eq!(transform(1, 2), 1 << 56);
        assert_eq!(transform(2, 4), 1 << 8);
    }

    #[test]
    fn fast_symmetries_match_the_square_by_square_reference() {
        let mut rng = crate::rng::Rng::seed_from_u64(1);
        for _ in 0..200 {
            let b = rng.next_u64();
            for (s, &image) in images(b).iter().enumerate() {
                let slow = crate::reference::transform_slow(b, s as u8);
                assert_eq!(image, slow, "images, symmetry {s}");
                assert_eq!(transform(b, s as u8), slow, "transform, symmetry {s}");
            }
        }
    }
}

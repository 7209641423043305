//! `Bitboard`: a set of squares as one `u64`, bit `i` = square `i` (`a1` = bit 0).

use crate::square::Square;
// Tools and tests only: not in the submission (docs/bundle.md).
#[cfg(not(cargo_equip))]
use core::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, Not};

/// A set of squares; bit `i` is [`Square`] `i`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, Debug)]
pub struct Bitboard(pub u64);

impl Bitboard {
    /// No square.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// Every square.
    pub const ALL: Bitboard = Bitboard(!0);
    /// The four corners `a1`, `h1`, `a8`, `h8`.
    pub const CORNERS: Bitboard = Bitboard(0x8100_0000_0000_0081);
    /// The X-squares, diagonally next to a corner: `b2`, `g2`, `b7`, `g7`.
    pub const X_SQUARES: Bitboard = Bitboard(0x0042_0000_0000_4200);
    /// The C-squares, orthogonally next to a corner.
    pub const C_SQUARES: Bitboard = Bitboard(0x4281_0000_0000_8142);
    /// Every square except column `a` (so a shift toward `a` cannot wrap).
    pub const NOT_A_FILE: Bitboard = Bitboard(0xfefe_fefe_fefe_fefe);
    /// Every square except column `h`.
    pub const NOT_H_FILE: Bitboard = Bitboard(0x7f7f_7f7f_7f7f_7f7f);
    /// Columns `b`..`g`: the squares a horizontal or diagonal run can pass through.
    pub const INNER_COLUMNS: Bitboard = Bitboard(0x7e7e_7e7e_7e7e_7e7e);

    // Tools and tests only: not in the submission (docs/bundle.md).
    #[cfg(not(cargo_equip))]
    /// The number of squares in the set.
    #[inline]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set is empty.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    // Tools and tests only: not in the submission (docs/bundle.md).
    #[cfg(not(cargo_equip))]
    /// Whether `sq` is in the set.
    #[inline]
    pub const fn contains(self, sq: Square) -> bool {
        self.0 & sq.bit() != 0
    }

    /// The set with `sq` added.
    #[inline]
    pub const fn with(self, sq: Square) -> Bitboard {
        Bitboard(self.0 | sq.bit())
    }

    /// The lowest square of the set, if any.
    #[inline]
    pub const fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::new(self.0.trailing_zeros() as u8))
        }
    }

    /// The squares of the set in increasing order.
    #[inline]
    pub fn squares(self) -> Squares {
        Squares(self.0)
    }
}

/// Iterator over the squares of a [`Bitboard`], lowest first.
#[derive(Clone, Copy, Debug)]
pub struct Squares(u64);

impl Iterator for Squares {
    type Item = Square;
    #[inline]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            return None;
        }
        let sq = Square::new(self.0.trailing_zeros() as u8);
        self.0 &= self.0 - 1;
        Some(sq)
    }
    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

// Tools and tests only: not in the submission (docs/bundle.md).
#[cfg(not(cargo_equip))]
impl ExactSizeIterator for Squares {}

impl IntoIterator for Bitboard {
    type Item = Square;
    type IntoIter = Squares;
    fn into_iter(self) -> Squares {
        self.squares()
    }
}

// Tools and tests only: not in the submission (docs/bundle.md).
#[cfg(not(cargo_equip))]
impl BitAnd for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn bitand(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 & rhs.0)
    }
}
// Tools and tests only: not in the submission (docs/bundle.md).
#[cfg(not(cargo_equip))]
impl BitOr for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn bitor(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 | rhs.0)
    }
}
// Tools and tests only: not in the submission (docs/bundle.md).
#[cfg(not(cargo_equip))]
impl BitXor for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn bitxor(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 ^ rhs.0)
    }
}
// Tools and tests only: not in the submission (docs/bundle.md).
#[cfg(not(cargo_equip))]
impl Not for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}
// Tools and tests only: not in the submission (docs/bundle.md).
#[cfg(not(cargo_equip))]
impl BitAndAssign for Bitboard {
    #[inline]
    fn bitand_assign(&mut self, rhs: Bitboard) {
        self.0 &= rhs.0;
    }
}
// Tools and tests only: not in the submission (docs/bundle.md).
#[cfg(not(cargo_equip))]
impl BitOrAssign for Bitboard {
    #[inline]
    fn bitor_assign(&mut self, rhs: Bitboard) {
        self.0 |= rhs.0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn named_masks_hold_the_named_squares() {
        let names = |b: Bitboard| b.squares().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(names(Bitboard::CORNERS), ["a1", "h1", "a8", "h8"]);
        assert_eq!(names(Bitboard::X_SQUARES), ["b2", "g2", "b7", "g7"]);
        assert_eq!(
            names(Bitboard::C_SQUARES),
            ["b1", "g1", "a2", "h2", "a7", "h7", "b8", "g8"]
        );
        assert_eq!(Bitboard::INNER_COLUMNS.count(), 48);
    }
}

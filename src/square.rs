//! Squares of the board: `a1` = 0 … `h8` = 63.
//!
//! Columns are letters `a`..`h` left to right, rows are numbers `1`..`8` top to
//! bottom (row 1 is the first line CodinGame sends). The index is
//! `row * 8 + column`, so bit `i` of a [`crate::Bitboard`] is square `i`.

use core::fmt;

/// A square of the 8×8 board, `a1` = 0 … `h8` = 63.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Square(u8);

impl Square {
    /// `a1`, the top-left corner.
    pub const A1: Square = Square(0);
    /// `h8`, the bottom-right corner.
    pub const H8: Square = Square(63);

    /// The square with index `i` (0..64).
    ///
    /// # Panics
    /// If `i >= 64`.
    #[inline]
    pub const fn new(i: u8) -> Square {
        assert!(i < 64, "square index out of range");
        Square(i)
    }

    /// The square at `column` (0 = a) and `row` (0 = row 1, the top).
    ///
    /// # Panics
    /// If either coordinate is 8 or more.
    #[inline]
    pub const fn from_coords(column: u8, row: u8) -> Square {
        assert!(column < 8 && row < 8, "coordinate out of range");
        Square(row * 8 + column)
    }

    /// The index 0..64.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The column, 0 = `a`.
    #[inline]
    pub const fn column(self) -> u8 {
        self.0 & 7
    }

    /// The row, 0 = row `1` (top).
    #[inline]
    pub const fn row(self) -> u8 {
        self.0 >> 3
    }

    /// The single-bit mask of this square.
    #[inline]
    pub const fn bit(self) -> u64 {
        1u64 << self.0
    }

    // Tools and tests only: not in the submission (docs/bundle.md).
    #[cfg(not(cargo_equip))]
    /// All 64 squares, `a1` first.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..64u8).map(Square)
    }

    /// Parses `d3`, `D3`; surrounding whitespace is not accepted here.
    ///
    /// # Errors
    /// If the text is not a column letter followed by a row digit.
    pub fn parse(text: &str) -> Result<Square, ParseSquareError> {
        let bytes = text.as_bytes();
        if bytes.len() != 2 {
            return Err(ParseSquareError);
        }
        let column = bytes[0].to_ascii_lowercase().wrapping_sub(b'a');
        let row = bytes[1].wrapping_sub(b'1');
        if column < 8 && row < 8 {
            Ok(Square::from_coords(column, row))
        } else {
            Err(ParseSquareError)
        }
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let column = (b'a' + self.column()) as char;
        let row = (b'1' + self.row()) as char;
        write!(f, "{column}{row}")
    }
}

// Tools and tests only: not in the submission (docs/bundle.md).
#[cfg(not(cargo_equip))]
impl core::str::FromStr for Square {
    type Err = ParseSquareError;
    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        Square::parse(s)
    }
}

/// The text was not a square such as `d3`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParseSquareError;

impl fmt::Display for ParseSquareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("expected a square such as d3 (column a-h, row 1-8)")
    }
}

// Tools and tests only: not in the submission (docs/bundle.md).
#[cfg(not(cargo_equip))]
impl std::error::Error for ParseSquareError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_all_squares() {
        for sq in Square::all() {
            assert_eq!(Square::parse(&sq.to_string()), Ok(sq));
        }
        assert_eq!(Square::parse("a1").unwrap().index(), 0);
        assert_eq!(Square::parse("h1").unwrap().index(), 7);
        assert_eq!(Square::parse("A8").unwrap().index(), 56);
        assert!(Square::parse("i1").is_err());
        assert!(Square::parse("a9").is_err());
        assert!(Square::parse("a").is_err());
        assert!(Square::parse("a10").is_err());
    }
}

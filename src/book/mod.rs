//! The opening book: positions from the start position with the move our
//! deep searches chose and its value in discs (`train book` grows it;
//! docs/book.md).
//!
//! Positions are keyed by their canonical image among the 8 board
//! symmetries, so one entry serves all of its mirror images, and by the
//! position alone, so a transposition finds the entry whatever the move
//! order. The book travels in the submission as a string ([`data::BOOK`],
//! the format is [`code`]'s) and is decoded once, at start-up.

pub mod code;
pub mod data;

use crate::board::{images, Board};
#[cfg(not(cargo_equip))]
use crate::rng::Rng;
use crate::square::Square;
use std::collections::HashMap;

pub use code::BookError;

/// What the book knows of one position, in its canonical image's frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookEntry {
    /// The book move, a square index of the canonical image.
    pub best: u8,
    /// Its value in discs for the side to move (rounded).
    pub score: i8,
}

/// A book move found for a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookMove {
    /// The move, in the position's own frame.
    pub best: Square,
    /// Its value in discs for the side to move.
    pub score: i32,
}

/// The opening book: canonical positions and their entries.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Book {
    table: HashMap<(u64, u64), BookEntry>,
}

/// The canonical image of `board` (the least `(player, opponent)` pair of
/// its 8 images) and the symmetry that makes it
/// ([`crate::board::transform`]'s numbering).
pub fn canonical(board: &Board) -> (Board, u8) {
    let p = images(board.player);
    let o = images(board.opponent);
    let mut s = 0;
    for t in 1..8 {
        if (p[t], o[t]) < (p[s], o[s]) {
            s = t;
        }
    }
    (Board::new(p[s], o[s]), s as u8)
}

/// The position after `sq` as the book walks it: when the side to move
/// then has no move but the other has, it passes, and `true` says so (the
/// same side moves again).
pub fn follow(board: &Board, sq: Square) -> (Board, bool) {
    let next = board.play(sq);
    if next.must_pass() {
        (next.pass(), true)
    } else {
        (next, false)
    }
}

/// The value of a move for the side that played it, from its successor's
/// value (for the successor's side to move) after [`follow`].
pub fn value_for_mover(successor: i32, passed: bool) -> i32 {
    if passed {
        successor
    } else {
        -successor
    }
}

impl Book {
    /// A book of `entries`, keyed by canonical positions.
    pub fn from_entries(entries: HashMap<(u64, u64), BookEntry>) -> Book {
        Book { table: entries }
    }

    /// The book compiled into the program ([`data::BOOK`]).
    ///
    /// # Errors
    /// The data does not decode (a test checks that it does).
    pub fn compiled() -> Result<Book, BookError> {
        code::unpack(data::BOOK)
    }

    // Tools and tests only: not in the submission.
    #[cfg(not(cargo_equip))]
    /// Positions in the book (each has a move).
    pub fn len(&self) -> usize {
        self.table.len()
    }

    // Tools and tests only: not in the submission.
    #[cfg(not(cargo_equip))]
    /// Whether the book is empty.
    pub fn is_empty(&self) -> bool {
        self.table.is_empty()
    }

    // Tools and tests only: not in the submission.
    #[cfg(not(cargo_equip))]
    /// The entries, keyed by canonical `(player, opponent)`.
    pub fn positions(&self) -> &HashMap<(u64, u64), BookEntry> {
        &self.table
    }

    // The encoder, the tools and `--book-margin` only: not in the
    // submission, which plays the book move (`lookup`).
    #[cfg(not(cargo_equip))]
    /// The entry of `board`'s canonical image.
    pub fn find(&self, board: &Board) -> Option<BookEntry> {
        let (c, _) = canonical(board);
        self.table.get(&(c.player, c.opponent)).copied()
    }

    /// The book move of `board` and its value, if the book has the
    /// position.
    pub fn lookup(&self, board: &Board) -> Option<BookMove> {
        let (c, s) = canonical(board);
        let e = self.table.get(&(c.player, c.opponent))?;
        // The move whose image under the symmetry is the book's.
        let best = board
            .moves()
            .squares()
            .find(|m| crate::board::transform(m.bit(), s) == 1u64 << e.best)?;
        Some(BookMove {
            best,
            score: i32::from(e.score),
        })
    }

    // The tools and `--book-margin` only: not in the submission.
    #[cfg(not(cargo_equip))]
    /// The moves of `board` that lead to book positions, with their values
    /// for the side to move, best first (the book move first among equals).
    pub fn moves(&self, board: &Board) -> Vec<BookMove> {
        let book_move = self.lookup(board).map(|m| m.best);
        let mut out: Vec<BookMove> = board
            .moves()
            .squares()
            .filter_map(|m| {
                let (next, passed) = follow(board, m);
                let e = self.find(&next)?;
                Some(BookMove {
                    best: m,
                    score: value_for_mover(i32::from(e.score), passed),
                })
            })
            .collect();
        out.sort_by_key(|m| (-m.score, Some(m.best) != book_move, m.best.index()));
        out
    }

    // `--book-margin` only: not in the submission.
    #[cfg(not(cargo_equip))]
    /// The move to play from the book: the book move, or with `margin`
    /// (discs) a uniform choice among it and the moves into the book whose
    /// value is within `margin` of it. `None` outside the book.
    pub fn choose(&self, board: &Board, margin: i32, rng: &mut Rng) -> Option<BookMove> {
        let best = self.lookup(board)?;
        if margin <= 0 {
            return Some(best);
        }
        let mut near: Vec<BookMove> = self
            .moves(board)
            .into_iter()
            .filter(|m| m.best != best.best && m.score >= best.score - margin)
            .collect();
        if near.is_empty() {
            return Some(best);
        }
        near.push(best);
        Some(near[rng.below(near.len() as u64) as usize])
    }

    // Tools and tests only: not in the submission.
    #[cfg(not(cargo_equip))]
    /// The principal line from the start position: the book moves while
    /// the book has the position.
    pub fn principal_line(&self) -> Vec<Square> {
        let mut line = Vec::new();
        let mut board = Board::start();
        while let Some(m) = self.lookup(&board) {
            line.push(m.best);
            board = follow(&board, m.best).0;
        }
        line
    }

    // Tools and tests only: not in the submission.
    #[cfg(not(cargo_equip))]
    /// A checksum of the positions and their book moves (wrapping sum of
    /// a mix of each key and move), the same whatever the table's order.
    pub fn checksum(&self) -> u64 {
        self.table.iter().fold(0u64, |sum, (&(p, o), e)| {
            let x = p.wrapping_mul(0x9e37_79b9_7f4a_7c15)
                ^ o.rotate_left(29).wrapping_mul(0xbf58_476d_1ce4_e5b9)
                ^ u64::from(e.best) << 7;
            sum.wrapping_add(x)
        })
    }
}

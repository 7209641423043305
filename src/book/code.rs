//! The book's packed format: a string of 15-bit characters
//! ([`crate::eval::pack`]) that the submission carries and decodes at
//! start-up.
//!
//! - Header: the number of positions (Exp-Golomb, order [`COUNT_ORDER`]),
//!   then the start position's value (signed, order [`VALUE_ORDER`]).
//! - Then every position once, depth first from the start position. At a
//!   position of value `v`, its moves ranked by [`ranked`]:
//!   - `k`, the number of its successors recorded here, in unary (`k` ones
//!     and a zero): the successors in the book that were not recorded
//!     before (the book is a graph; a transposition is recorded once);
//!   - when `k > 0`, one bit: whether the first of them is the book move;
//!   - unless it is, the book move's rank (Exp-Golomb, order [`RANK_ORDER`]);
//!   - for each successor its move's rank, and, but for a first one that
//!     is the book move, its loss: `v` minus the move's value for the side
//!     that plays it (Exp-Golomb, order [`LOSS_ORDER`]; a book move loses 0);
//!   - then each successor's own record, in that order.
//!
//! Values come top-down: the start position's is stored, every other
//! position's follows from its parent's and the loss. Nothing is stored
//! twice and a position needs no key: about 7 bits a position.

use super::{canonical, follow, value_for_mover, Book, BookEntry};
use crate::board::Board;
use crate::eval::pack::BitReader;
use crate::square::Square;
use std::collections::HashMap;
use std::fmt;

/// Exp-Golomb order of the header's position count.
pub const COUNT_ORDER: u32 = 12;
/// Exp-Golomb order of the start position's value.
pub const VALUE_ORDER: u32 = 2;
/// Exp-Golomb order of a move's rank (45% of book moves rank 0, 22% 1).
pub const RANK_ORDER: u32 = 0;
/// Exp-Golomb order of a successor's loss in discs (mostly 0-3).
pub const LOSS_ORDER: u32 = 1;
/// Most positions a book may hold (a larger count is corrupt data).
const MAX_POSITIONS: usize = 1 << 17;
/// Largest value in discs an entry holds.
const MAX_VALUE: i32 = 64;

/// Why a packed book does not decode (or a book does not encode).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookError(pub String);

impl fmt::Display for BookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "book: {}", self.0)
    }
}

// Tools and tests only: not in the submission (docs/bundle.md).
#[cfg(not(cargo_equip))]
impl std::error::Error for BookError {}

fn corrupt<T>(what: String) -> Result<T, BookError> {
    Err(BookError(what))
}

/// The moves of `board` in the order ranks count them: best first by the
/// pattern evaluation of the position after each (lowest for the
/// opponent), then by square. The moves good books play are mostly near
/// the top, so their ranks are small; the order depends on the evaluation's
/// weights, so new weights need `train book-write` (a test says so).
pub fn ranked(board: &Board) -> Vec<Square> {
    let mut moves: Vec<(i32, Square)> = board
        .moves()
        .squares()
        .map(|m| (crate::eval::pattern::evaluate(&board.play(m)), m))
        .collect();
    moves.sort_by_key(|&(v, m)| (v, m.index()));
    moves.into_iter().map(|(_, m)| m).collect()
}

/// Decodes a packed book.
///
/// # Errors
/// A rank beyond the moves, a position recorded twice or with no move,
/// a value out of range, a count that disagrees, or characters left over
/// or missing: the data is corrupt.
pub fn unpack(data: &str) -> Result<Book, BookError> {
    let mut r = BitReader::new(data);
    let count = r.exp_golomb(COUNT_ORDER) as usize;
    if count == 0 || count > MAX_POSITIONS {
        return corrupt(format!("a count of {count} positions"));
    }
    let value = r.signed(VALUE_ORDER);
    let mut entries = HashMap::with_capacity(count.min(MAX_POSITIONS));
    record(&mut r, &mut entries, Board::start(), value, count)?;
    if entries.len() != count {
        return corrupt(format!(
            "{} positions decoded, the header says {count}",
            entries.len()
        ));
    }
    if !r.at_end() {
        return corrupt("the data does not end where the positions do".into());
    }
    Ok(Book::from_entries(entries))
}

/// Decodes the record of `board` (value `v`) and its successors'.
fn record(
    r: &mut BitReader,
    entries: &mut HashMap<(u64, u64), BookEntry>,
    board: Board,
    v: i32,
    count: usize,
) -> Result<(), BookError> {
    let moves = ranked(&board);
    if r.overrun() || moves.is_empty() || v.abs() > MAX_VALUE || entries.len() >= count {
        return corrupt(format!("a bad record at position {}", entries.len() + 1));
    }
    let rank = |r: &mut BitReader| {
        let i = r.exp_golomb(RANK_ORDER) as usize;
        moves
            .get(i)
            .copied()
            .ok_or_else(|| BookError(format!("rank {i} of {} moves", moves.len())))
    };
    let mut k = 0;
    while r.bits(1) == 1 {
        k += 1;
        if k > moves.len() {
            return corrupt(format!("{k} successors of {} moves", moves.len()));
        }
    }
    let first_is_best = k > 0 && r.bits(1) == 1;
    let mut best = None;
    if !first_is_best {
        best = Some(rank(r)?);
    }
    let mut next = Vec::with_capacity(k);
    for i in 0..k {
        let m = rank(r)?;
        let loss = if i == 0 && first_is_best {
            0
        } else {
            r.exp_golomb(LOSS_ORDER)
        };
        if loss > 2 * MAX_VALUE as u32 {
            return corrupt(format!("a loss of {loss} discs"));
        }
        let loss = loss as i32;
        next.push((m, v - loss));
    }
    let best = best.unwrap_or_else(|| next[0].0);
    let (c, s) = canonical(&board);
    let best = crate::board::transform(best.bit(), s).trailing_zeros() as u8;
    let entry = BookEntry {
        best,
        score: v as i8,
    };
    if entries.insert((c.player, c.opponent), entry).is_some() {
        return corrupt(format!("position {} recorded twice", entries.len()));
    }
    for (m, value) in next {
        let (child, passed) = follow(&board, m);
        record(r, entries, child, value_for_mover(value, passed), count)?;
    }
    Ok(())
}

/// Packs `book` ([`unpack`]'s format).
///
/// # Errors
/// A position the start position does not reach through book positions,
/// a book move that is not a legal move, or values that are not a negamax
/// of each other (a successor worth more than its parent's value, or a
/// book move's successor whose value disagrees with its parent's).
#[cfg(not(cargo_equip))]
pub fn encode(book: &Book) -> Result<String, BookError> {
    use crate::eval::pack::BitWriter;
    use std::collections::HashSet;

    struct Encoder<'a> {
        book: &'a Book,
        w: BitWriter,
        recorded: HashSet<(u64, u64)>,
    }
    impl Encoder<'_> {
        fn record(&mut self, board: Board) -> Result<(), BookError> {
            let moves = ranked(&board);
            let found = self.book.lookup(&board);
            let Some(book_move) = found.filter(|m| board.is_legal(m.best)) else {
                return corrupt(format!("no legal book move in\n{board}"));
            };
            let v = book_move.score;
            let rank_of = |m: Square| moves.iter().position(|&x| x == m).unwrap_or(0) as u32;
            // Successors in the book and not recorded before: the book
            // move's first.
            let mut next: Vec<(Square, i32)> = Vec::new();
            for &m in &moves {
                let (child, passed) = follow(&board, m);
                let Some(e) = self.book.find(&child) else {
                    continue;
                };
                let (c, _) = canonical(&child);
                if self.recorded.insert((c.player, c.opponent)) {
                    let value = value_for_mover(i32::from(e.score), passed);
                    if value > v || (m == book_move.best && value != v) {
                        return corrupt(format!(
                            "{m} is worth {value:+} for the mover, the book move {} {v:+}, in\n{board}",
                            book_move.best
                        ));
                    }
                    next.push((m, v - value));
                }
            }
            let best_at = next.iter().position(|&(m, _)| m == book_move.best);
            if let Some(i) = best_at {
                next[..=i].rotate_right(1);
            }
            let first_is_best = best_at.is_some();
            self.w.bits((1 << next.len()) - 1, next.len() as u32);
            self.w.bits(0, 1);
            if !next.is_empty() {
                self.w.bits(u64::from(first_is_best), 1);
            }
            if !first_is_best {
                self.w.exp_golomb(rank_of(book_move.best), RANK_ORDER);
            }
            for (i, &(m, loss)) in next.iter().enumerate() {
                self.w.exp_golomb(rank_of(m), RANK_ORDER);
                if !(i == 0 && first_is_best) {
                    self.w.exp_golomb(loss as u32, LOSS_ORDER);
                }
            }
            for (m, _) in next {
                self.record(follow(&board, m).0)?;
            }
            Ok(())
        }
    }

    let start = Board::start();
    let Some(e) = book.find(&start) else {
        return corrupt("the start position is not in the book".into());
    };
    let mut enc = Encoder {
        book,
        w: BitWriter::default(),
        recorded: HashSet::new(),
    };
    enc.w.exp_golomb(book.len() as u32, COUNT_ORDER);
    enc.w.signed(i32::from(e.score), VALUE_ORDER);
    let (c, _) = canonical(&start);
    enc.recorded.insert((c.player, c.opponent));
    enc.record(start)?;
    if enc.recorded.len() != book.len() {
        return corrupt(format!(
            "{} of {} positions are not reached from the start position",
            book.len() - enc.recorded.len(),
            book.len()
        ));
    }
    Ok(enc.w.finish())
}

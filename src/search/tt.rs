//! The transposition table: a fixed-size array indexed by a hash of the
//! position, always-replace, with the full position kept to rule out
//! collisions.

use crate::board::Board;

/// How a stored score bounds the true one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true score is exactly this.
    Exact,
    /// The true score is at least this (a beta cut-off).
    Lower,
    /// The true score is at most this (all moves failed low).
    Upper,
}

/// One stored search result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The position, in full.
    pub board: Board,
    /// The score found.
    pub score: i32,
    /// The remaining depth it was searched to.
    pub depth: u8,
    /// What kind of bound `score` is.
    pub bound: Bound,
    /// The best move found, as a square index (64: none).
    pub best: u8,
}

/// Default table size: 2^20 entries of 32 bytes, 32 MiB, well inside
/// CodinGame's 768 MB.
pub const DEFAULT_BITS: u32 = 20;

/// A transposition table of `2^bits` entries.
#[derive(Clone, Debug)]
pub struct Table {
    entries: Vec<Option<Entry>>,
    mask: usize,
}

/// The index hash of a position: two odd multipliers folded together.
#[inline]
pub fn hash(board: &Board) -> u64 {
    let h = board.player.wrapping_mul(0x9e37_79b9_7f4a_7c15)
        ^ board
            .opponent
            .wrapping_mul(0xc2b2_ae3d_27d4_eb4f)
            .rotate_left(31);
    h ^ (h >> 29)
}

impl Table {
    /// A table of `2^bits` empty entries.
    pub fn new(bits: u32) -> Table {
        Table {
            entries: vec![None; 1 << bits],
            mask: (1 << bits) - 1,
        }
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.entries.iter_mut().for_each(|e| *e = None);
    }

    /// The entry of `board`, if stored.
    #[inline]
    pub fn probe(&self, board: &Board) -> Option<Entry> {
        let e = self.entries[hash(board) as usize & self.mask]?;
        (e.board == *board).then_some(e)
    }

    /// Stores a result, replacing whatever shared the slot.
    #[inline]
    pub fn store(&mut self, entry: Entry) {
        let i = hash(&entry.board) as usize & self.mask;
        self.entries[i] = Some(entry);
    }
}

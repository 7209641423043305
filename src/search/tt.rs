//! The transposition table: buckets of two entries indexed by a hash of the
//! position, the full position kept to rule out collisions. A position's
//! entry gives way only to a result as deep or deeper, or to any result of
//! a later search; a new position replaces the lesser entry of its bucket:
//! an empty one, else one of an earlier search, else the shallower
//! (docs/journal/search.md, "Fewer nodes (issue 48)").

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
    /// The search that stored it ([`Table::new_search`]); set by
    /// [`Table::store`].
    pub date: u8,
}

/// Default table size: 2^20 entries of 24 bytes in buckets of 64, 32 MiB,
/// well inside CodinGame's 768 MB.
pub const DEFAULT_BITS: u32 = 20;

/// Two entries on one cache line: a probe reads one line, never two (a
/// bucket of 48 bytes straddled two lines one time in two).
#[derive(Clone, Copy, Debug, Default)]
#[repr(C, align(64))]
struct Bucket([Option<Entry>; 2]);

/// A transposition table of `2^bits` entries, in buckets of two.
#[derive(Clone, Debug)]
pub struct Table {
    buckets: Vec<Bucket>,
    mask: usize,
    date: u8,
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
    /// A table of `2^bits` empty entries (`bits` at least 1).
    pub fn new(bits: u32) -> Table {
        let bits = bits.max(1);
        Table {
            buckets: crate::hugepages::filled(1 << (bits - 1), Bucket::default()),
            mask: (1 << (bits - 1)) - 1,
            date: 0,
        }
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.buckets.iter_mut().for_each(|b| *b = Bucket::default());
    }

    /// Starts a new search: what earlier ones stored is kept, but gives
    /// way to what this one stores. The stamp wraps after 256 searches,
    /// when entries 256 searches old count as new again: only their place
    /// in the bucket is at stake, never a result.
    pub fn new_search(&mut self) {
        self.date = self.date.wrapping_add(1);
    }

    /// The index of `board`'s bucket (the hash's lowest bit is not used).
    #[inline]
    fn bucket(&self, board: &Board) -> usize {
        (hash(board) >> 1) as usize & self.mask
    }

    /// Asks the CPU to start loading `board`'s bucket, so that a probe a
    /// little later finds it in cache (a hint: no effect on results).
    #[inline(always)]
    #[allow(unsafe_code)]
    pub fn prefetch(&self, board: &Board) {
        #[cfg(target_arch = "x86_64")]
        {
            let i = self.bucket(board);
            // SAFETY: prefetching reads nothing and faults on no address;
            // `i` is inside `buckets` (the mask keeps it there).
            unsafe {
                use core::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
                _mm_prefetch::<_MM_HINT_T0>(self.buckets.as_ptr().add(i).cast());
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = board;
    }

    /// The entry of `board`, if stored.
    #[inline]
    pub fn probe(&self, board: &Board) -> Option<Entry> {
        let i = self.bucket(board);
        self.buckets[i]
            .0
            .iter()
            .flatten()
            .find(|e| e.board == *board)
            .copied()
    }

    /// Stores a result: if the bucket holds the position, over its entry
    /// unless that one is deeper and of this search (then the result is
    /// dropped); else over the lesser entry: an empty one, else one of an
    /// earlier search, else the shallower.
    #[inline]
    pub fn store(&mut self, entry: Entry) {
        let entry = Entry {
            date: self.date,
            ..entry
        };
        let i = self.bucket(&entry.board);
        let date = self.date;
        let bucket = &mut self.buckets[i].0;
        if let Some(slot) = bucket
            .iter_mut()
            .find(|e| e.is_some_and(|e| e.board == entry.board))
        {
            if slot.is_some_and(|e| e.date != date || e.depth <= entry.depth) {
                *slot = Some(entry);
            }
            return;
        }
        // The victim: an empty entry, else one of an older search, else
        // the shallower.
        let worth =
            |e: &Option<Entry>| e.map_or((0, 0), |e| (1 + u32::from(e.date == date), e.depth));
        let victim = usize::from(worth(&bucket[1]) < worth(&bucket[0]));
        bucket[victim] = Some(entry);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(player: u64, depth: u8) -> Entry {
        Entry {
            board: Board::new(player, 1 << 63),
            score: i32::from(depth),
            depth,
            bound: Bound::Exact,
            best: 64,
            date: 0,
        }
    }

    /// Boards of one bucket of a 2-bucket table.
    fn same_bucket(table: &Table, n: usize) -> Vec<u64> {
        let first = table.bucket(&entry(1, 0).board);
        (1u64..)
            .filter(|&p| table.bucket(&entry(p, 0).board) == first)
            .take(n)
            .collect()
    }

    fn depth(t: &Table, player: u64) -> Option<u8> {
        t.probe(&entry(player, 0).board).map(|e| e.depth)
    }

    #[test]
    fn a_bucket_keeps_the_deepest() {
        let mut t = Table::new(2);
        let b = same_bucket(&t, 3);
        t.store(entry(b[0], 9));
        t.store(entry(b[1], 3));
        t.store(entry(b[2], 2));
        // The shallower of the two gave way.
        assert_eq!(
            (depth(&t, b[0]), depth(&t, b[1]), depth(&t, b[2])),
            (Some(9), None, Some(2))
        );
        t.store(entry(b[1], 10));
        assert_eq!(
            (depth(&t, b[0]), depth(&t, b[1]), depth(&t, b[2])),
            (Some(9), Some(10), None)
        );
        // A position's own entry is not replaced by a shallower result of
        // the same search, and is by a deeper one.
        t.store(entry(b[1], 4));
        assert_eq!(depth(&t, b[1]), Some(10));
        t.store(entry(b[0], 11));
        assert_eq!((depth(&t, b[0]), depth(&t, b[1])), (Some(11), Some(10)));
    }

    #[test]
    fn a_result_as_deep_replaces_the_positions_entry() {
        let mut t = Table::new(2);
        t.store(entry(5, 6));
        t.store(Entry {
            score: -3,
            ..entry(5, 6)
        });
        assert_eq!(t.probe(&entry(5, 0).board).map(|e| e.score), Some(-3));
    }

    #[test]
    fn the_smallest_tables_are_one_bucket_and_the_buckets_never_overlap() {
        for bits in [0, 1] {
            let mut t = Table::new(bits);
            for p in 1..40 {
                t.store(entry(p, p as u8));
            }
            // The two deepest of all, in the one bucket.
            let kept: Vec<u64> = (1..40).filter(|&p| depth(&t, p).is_some()).collect();
            assert_eq!(kept, [38, 39], "bits {bits}");
        }
        let t = Table::new(4);
        for p in 1..200u64 {
            let i = t.bucket(&entry(p, 0).board);
            assert!(i < 8, "{p}: bucket {i}");
        }
    }

    #[test]
    fn a_bucket_is_one_cache_line() {
        assert_eq!(core::mem::size_of::<Bucket>(), 64);
        assert_eq!(core::mem::align_of::<Bucket>(), 64);
        let t = Table::new(6);
        assert_eq!(t.buckets.as_ptr() as usize % 64, 0);
    }

    #[test]
    fn a_new_search_displaces_old_entries_first() {
        let mut t = Table::new(2);
        let b = same_bucket(&t, 4);
        t.store(entry(b[0], 9));
        t.store(entry(b[1], 3));
        t.new_search();
        t.store(entry(b[2], 1));
        t.store(entry(b[3], 1));
        // Both old entries went, the deep one too, before the new ones.
        assert_eq!((depth(&t, b[0]), depth(&t, b[1])), (None, None));
        assert_eq!((depth(&t, b[2]), depth(&t, b[3])), (Some(1), Some(1)));
        // An old entry of the position gives way to a shallower new one.
        t.store(entry(b[2], 8));
        t.new_search();
        t.store(entry(b[2], 2));
        assert_eq!(depth(&t, b[2]), Some(2));
    }
}

//! The solver's transposition table, and the levels that say how far its
//! bounds can be trusted.

/// One table slot: a position and the bounds proven for it.
#[derive(Clone, Copy, Debug)]
pub struct Slot {
    player: u64,
    opponent: u64,
    /// The true score is in `lower..=upper`.
    pub lower: i8,
    pub upper: i8,
    /// Best move found (64: none).
    pub best: u8,
    /// Empties of the position: deeper entries are kept in preference.
    empties: u8,
    /// The solve that wrote it; entries of older solves are replaced first.
    date: u8,
    /// How far the bounds can be trusted: [`EXACT_LEVEL`] if proven (also
    /// by a selective solve whose search of the node met no cut and no
    /// selective bound), else the [`level`] of the widest cut that would
    /// have made the same cuts (at least the solve's own), or the solve's
    /// level with [`LATE_FLAG`] if it searched late moves at a narrower
    /// cut and its search of the node was held below that level. A
    /// search uses the bounds of slots at its own level or above (a solve
    /// without late moves, only unflagged ones), and only the move of the
    /// others. A slot takes the bounds of a higher level, or of the other
    /// kind (flagged or not).
    pub level: u8,
}

impl Slot {
    /// Packs the slot into three words; all-zero words are an empty slot
    /// (no position has no disc).
    #[inline]
    fn pack(&self) -> [u64; 3] {
        let meta = u64::from(self.lower as u8)
            | u64::from(self.upper as u8) << 8
            | u64::from(self.best) << 16
            | u64::from(self.empties) << 24
            | u64::from(self.date) << 32
            | u64::from(self.level) << 40;
        [self.player, self.opponent, meta]
    }

    #[inline]
    fn unpack(words: &[u64; 3]) -> Slot {
        let meta = words[2];
        Slot {
            player: words[0],
            opponent: words[1],
            lower: meta as u8 as i8,
            upper: (meta >> 8) as u8 as i8,
            best: (meta >> 16) as u8,
            empties: (meta >> 24) as u8,
            date: (meta >> 32) as u8,
            level: (meta >> 40) as u8,
        }
    }
}

/// The solver's transposition table: buckets of two slots, the full
/// position kept so that a hit is never a collision. Stored as plain words
/// so that the allocation is zeroed memory the system hands out lazily: a
/// table made in the middle of a 150 ms turn costs no time up front.
#[derive(Clone, Debug)]
pub struct SolveTable {
    pub words: Vec<[u64; 3]>,
    mask: usize,
}

impl SolveTable {
    pub fn new(bits: u32) -> SolveTable {
        // Not on huge pages: its zeroed pages are first touched during
        // the bot's turns, and under load faulting in 2 MiB pages there
        // overran the turn (`scripts/stress.sh --burners 6`: 9-12
        // timeouts in 40 games, none with 4 KiB pages; docs/journal/search.md,
        // "Huge pages under load").
        let words = vec![[0u64; 3]; 1 << bits];
        SolveTable {
            words,
            mask: (1 << bits) - 2,
        }
    }

    #[inline]
    fn index(p: u64, o: u64) -> usize {
        let h = p.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ o.wrapping_mul(0xc2b2_ae3d_27d4_eb4f);
        (h ^ (h >> 31)) as usize
    }

    #[inline]
    pub fn probe(&self, p: u64, o: u64) -> Option<Slot> {
        let i = SolveTable::index(p, o) & self.mask;
        self.words[i..i + 2]
            .iter()
            .find(|w| w[0] == p && w[1] == o)
            .map(Slot::unpack)
    }

    /// Records that the score of (p, o) lies in `lower..=upper` as found at
    /// `level`, merging with what the slot holds at the same level: bounds
    /// of a higher level replace those of a lower one, and leave those of a
    /// higher one alone; selective bounds of the other kind ([`LATE_FLAG`])
    /// replace them.
    #[inline]
    #[allow(clippy::too_many_arguments)]
    pub fn store(&mut self, p: u64, o: u64, lower: i32, upper: i32, best: u8, date: u8, level: u8) {
        let i = SolveTable::index(p, o) & self.mask;
        let empties = (!(p | o)).count_ones() as u8;
        let bucket = &mut self.words[i..i + 2];
        let fresh = Slot {
            player: p,
            opponent: o,
            lower: lower as i8,
            upper: upper as i8,
            best,
            empties,
            date,
            level,
        };
        if let Some(w) = bucket.iter_mut().find(|w| w[0] == p && w[1] == o) {
            let mut s = Slot::unpack(w);
            s.best = best;
            s.date = date;
            if s.level == level {
                s.lower = s.lower.max(lower as i8);
                s.upper = s.upper.min(upper as i8);
                if s.lower > s.upper {
                    // Selective bounds that disagree: the newer stand.
                    // Proven bounds always overlap.
                    debug_assert!(level != EXACT_LEVEL, "proven bounds disagree");
                    s = fresh;
                }
            } else if s.level & !LATE_FLAG < level & !LATE_FLAG
                || (s.level ^ level) & LATE_FLAG != 0 && s.level != EXACT_LEVEL
            {
                s = fresh;
            }
            *w = s.pack();
            return;
        }
        // Replace an old solve's slot, else the shallower one.
        let first = Slot::unpack(&bucket[0]);
        let victim = usize::from(first.date == date && first.empties > empties);
        bucket[victim] = fresh.pack();
    }
}

#[cfg(test)]
impl SolveTable {
    /// Every filled slot, with its position (player, opponent).
    pub fn entries(&self) -> impl Iterator<Item = (u64, u64, Slot)> + '_ {
        self.words
            .iter()
            .filter(|w| w[0] | w[1] != 0)
            .map(|w| (w[0], w[1], Slot::unpack(w)))
    }
}

/// The table level of proven bounds.
pub const EXACT_LEVEL: u8 = u8::MAX;

/// Added to a selective level by a solve with late moves at a narrower cut
/// (`deep::LATE_MOVES`) where its search of a node was held below its own
/// level: a solve without does not trust those bounds.
pub const LATE_FLAG: u8 = 128;

/// The table level of a search: [`EXACT_LEVEL`] for an exact one, else its
/// cut threshold in tenths of a standard deviation (wider cuts are more
/// trustworthy), below [`LATE_FLAG`].
pub fn level(probcut: Option<i32>) -> u8 {
    match probcut {
        None => EXACT_LEVEL,
        Some(cut) => (cut / 10).clamp(0, i32::from(LATE_FLAG) - 1) as u8,
    }
}

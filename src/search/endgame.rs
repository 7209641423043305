//! The endgame solver: the exact final disc difference under perfect play,
//! or only its sign (win/loss/draw).
//!
//! Three regimes by the number of empty squares `n` (see docs/endgame.md
//! for the measured worth of each technique):
//! - `n > PARITY_EMPTIES`: negascout (null windows after the first move)
//!   with full move generation, moves tried fewest-opponent-replies first
//!   (fastest-first), a transposition table from [`TT_MIN_EMPTIES`] up
//!   (with enhanced transposition cutoffs from [`ETC_MIN_EMPTIES`]), and
//!   stability cutoffs;
//! - `3 <= n <= PARITY_EMPTIES`: plain alpha-beta over the empty squares,
//!   odd quadrants first (parity), a move found by its flips without
//!   generating the move list;
//! - `n == 2`: both squares tried in turn;
//! - `n == 1`: the last move counted, not played.
//!
//! A selective solve ([`Solver::solve_selective`]) is the same search in
//! which a node of [`PROBCUT_MIN_EMPTIES`] or more is cut when an evaluated
//! shallow search lies far enough beyond the window (probcut). Its bounds
//! go to the table marked with their cut level, so an exact solve uses
//! only their moves: exact solves of [`ID_MIN_EMPTIES`] or more run such
//! passes first, for the move ordering they leave behind.
//!
//! The search allocates nothing: move lists are fixed arrays on the stack.

use super::stability::stable_discs;
use crate::bitboard::Bitboard;
use crate::board::{Board, Move};
use crate::dispatch::{fast_fn, Isa};
use crate::eval::SCALE;
use crate::kernels;
use crate::square::Square;
use crate::time::{Deadline, NODES_PER_CLOCK_CHECK};

/// At most this many empties, the parity search takes over from the
/// sorting, table-using one.
pub const PARITY_EMPTIES: u32 = 6;
/// From this many empties up, results go to the transposition table.
pub const TT_MIN_EMPTIES: u32 = 8;
/// From this many empties up, the children are looked up in the table
/// before any is searched (enhanced transposition cutoff).
pub const ETC_MIN_EMPTIES: u32 = 10;
/// Default table size for the bot: 2^20 entries of 24 bytes (24 MiB).
pub const DEFAULT_TABLE_BITS: u32 = 20;
/// Table size for `othello solve`: 2^22 entries of 24 bytes (96 MiB).
pub const SOLVE_TABLE_BITS: u32 = 22;
/// Above any score: -INF..INF is the full window.
const INF: i32 = 65;
/// Weight of one opponent reply in the fastest-first key.
const MOBILITY_WEIGHT: i32 = 16;
/// Extra weight of an opponent reply on a corner.
const CORNER_REPLY_WEIGHT: i32 = 32;
/// Weight of one empty square next to the mover's discs (the opponent's
/// potential mobility) in the fastest-first key.
const POTENTIAL_WEIGHT: i32 = 8;
/// From this many empties up, the fastest-first key also counts the
/// pattern evaluation of the position after the move. Measured (nodes of
/// fforum-20-39 and FFO #45-#47, weight 3): from 10 empties 212 M on
/// 20-39, from 12 225 M, from 14 and 16 fewer positions gained; see
/// docs/endgame.md.
pub const EVAL_ORDER_EMPTIES: u32 = 12;
/// Key units per disc of that evaluation (a reply is [`MOBILITY_WEIGHT`]).
/// Measured from 12 empties on fforum-20-39: weight 2 gave 269 M nodes,
/// 3 225 M, 4 260 M (none: 572 M); 8 and 32 did worse on FFO #45-#47.
pub const EVAL_ORDER_WEIGHT: i32 = 3;
/// From this many empties up, a selective solve (probcut) tries to cut a
/// node on an evaluated shallow search before searching it.
pub const PROBCUT_MIN_EMPTIES: u32 = 10;
/// From this many empties up, that shallow search looks two plies ahead;
/// below, it is the evaluation alone (cheaper, less accurate).
pub const PROBCUT_DEEP_EMPTIES: u32 = 16;
/// Standard deviations, in 1/[`SCALE`] discs, of (exact score - the
/// evaluation) and of (exact score - the 2-ply value) at 8-22 empties:
/// 7-13 and 6-9.5 discs measured (`examples/endgame_sigma.rs`,
/// docs/endgame.md); the upper middle of each range.
const PROBCUT_SIGMA: [i32; 2] = [11 * SCALE, 8 * SCALE];
/// Exact solves from this many empties up first run selective solves of
/// growing width ([`ID_CUTS`]): the exact solve then finds their best
/// moves in the table. From 16 instead, the median exact solve at 16-18
/// empties took longer (18: 22 -> 30 ms; `examples/endgame_ladder.rs`).
pub const ID_MIN_EMPTIES: u32 = 20;
/// The widest cut a selective solve takes (100 standard deviations: no
/// score reaches it), which keeps the margin's arithmetic in range.
pub const MAX_CUT: i32 = 10_000;
/// From this many empties up, a selective solve first runs the passes of
/// [`ID_CUTS`] narrower than its own (at cut 200, 19 empties: median 48 ->
/// 39 ms, slowest 128 -> 87 ms on the ladder).
pub const SELECTIVE_ID_MIN_EMPTIES: u32 = 16;
/// The cut thresholds (hundredths of a standard deviation) of those
/// selective passes. FFO #40-#49, CPU s: none 121.9 (before the passes),
/// [150] 47.7, [100] 41.2, [100, 200] 38.7, [50, 100, 150, 250] 38.9,
/// [50, 100, 200] 34.8, [25, 50, 100, 200] 34.8 (docs/endgame.md).
const ID_CUTS: &[i32] = &[50, 100, 200];
/// Bonus (subtracted from the key) for a move into an odd quadrant.
const PARITY_BONUS: i32 = 4;
/// The stability cutoff is tried only when `alpha >= 2 * empties +
/// STABILITY_OFFSET`: below that, the opponent rarely has enough stable
/// discs to bring the bound under `alpha`, and counting them is a waste
/// (the shape of Edax's threshold table; the offset is not tuned here).
const STABILITY_OFFSET: i32 = -2;

/// The X- and C-squares (next to a corner): the parity search tries them
/// last within each parity class, as they tend to give the corner away.
const RISKY_SQUARES: u64 = Bitboard::X_SQUARES.0 | Bitboard::C_SQUARES.0;

/// The four quadrants (a1-d4, e1-h4, a5-d8, e5-h8) as masks.
const QUADRANTS: [u64; 4] = [
    0x0000_0000_0f0f_0f0f,
    0x0000_0000_f0f0_f0f0,
    0x0f0f_0f0f_0000_0000,
    0xf0f0_f0f0_0000_0000,
];

/// The parity bit (1 << quadrant) of square `sq`: rows 5-8 are quadrants
/// 2 and 3, columns e-h the odd ones.
#[inline]
const fn quadrant_bit(sq: usize) -> u32 {
    1 << ((sq >> 5) << 1 | (sq >> 2) & 1)
}

/// `PARITY_MASK[parity]`: the squares of the quadrants whose parity bit is
/// set (an odd number of empties).
const PARITY_MASK: [u64; 16] = parity_masks();

const fn parity_masks() -> [u64; 16] {
    let mut out = [0u64; 16];
    let mut p = 1;
    while p < 16 {
        // The mask without p's highest quadrant, plus that quadrant.
        let q = 31 - (p as u32).leading_zeros();
        out[p] = out[p & !(1 << q)] | QUADRANTS[q as usize];
        p += 1;
    }
    out
}

/// The parity bits of a set of empties: bit q set when quadrant q holds an
/// odd number of them.
#[inline(always)]
fn parity_of(empties: u64) -> u32 {
    let mut parity = 0;
    for (q, mask) in QUADRANTS.iter().enumerate() {
        parity |= ((empties & mask).count_ones() & 1) << q;
    }
    parity
}

/// The neighbours of each square: a move needs an opponent disc among them.
const NEIGHBOURS: [u64; 64] = neighbours();

const fn neighbours() -> [u64; 64] {
    let mut out = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let (c, r) = ((sq % 8) as i32, (sq / 8) as i32);
        let mut dr = -1;
        while dr <= 1 {
            let mut dc = -1;
            while dc <= 1 {
                let (nc, nr) = (c + dc, r + dr);
                if (dc != 0 || dr != 0) && nc >= 0 && nc < 8 && nr >= 0 && nr < 8 {
                    out[sq] |= 1u64 << (nr * 8 + nc);
                }
                dc += 1;
            }
            dr += 1;
        }
        sq += 1;
    }
    out
}

/// The final score of a finished game for `p`: disc difference with the
/// empties given to the winner.
#[inline(always)]
fn final_score(p: u64, o: u64) -> i32 {
    let np = p.count_ones() as i32;
    let no = o.count_ones() as i32;
    let diff = np - no;
    let empties = 64 - np - no;
    match diff.signum() {
        1 => diff + empties,
        -1 => diff - empties,
        _ => 0,
    }
}

/// Which techniques the search uses. All on by default; turning one off
/// measures its worth (see `examples/endgame_ablation.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Techniques {
    /// Null-window searches after the first move (else plain alpha-beta).
    pub negascout: bool,
    /// Fewest-opponent-replies ordering in the deep search (else the
    /// squares in index order).
    pub fastest_first: bool,
    /// Odd quadrants first near the end (else index order).
    pub parity: bool,
    /// Dedicated code for the last empties (else the deep search all the way).
    pub shallow: bool,
    /// The transposition table.
    pub table: bool,
    /// Stability cutoffs.
    pub stability: bool,
    /// The pattern evaluation in the fastest-first key from
    /// [`EVAL_ORDER_EMPTIES`] up.
    pub eval_order: bool,
    /// Selective passes before an exact solve from [`ID_MIN_EMPTIES`] up
    /// (a selective solve runs its narrower passes either way).
    pub iterative: bool,
}

impl Default for Techniques {
    fn default() -> Techniques {
        Techniques {
            negascout: true,
            fastest_first: true,
            parity: true,
            shallow: true,
            table: true,
            stability: true,
            eval_order: true,
            iterative: true,
        }
    }
}

/// What a solve found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Solution {
    /// The best move.
    pub best: Square,
    /// The exact score for the side to move (with `wld`, only its sign
    /// is meaningful: -1, 0 or 1).
    pub score: i32,
    /// Nodes visited.
    pub nodes: u64,
}

/// One table slot: a position and the bounds proven for it.
#[derive(Clone, Copy, Debug)]
struct Slot {
    player: u64,
    opponent: u64,
    /// The true score is in `lower..=upper`.
    lower: i8,
    upper: i8,
    /// Best move found (64: none).
    best: u8,
    /// Empties of the position: deeper entries are kept in preference.
    empties: u8,
    /// The solve that wrote it; entries of older solves are replaced first.
    date: u8,
    /// How far the bounds can be trusted: [`EXACT_LEVEL`] if proven, else
    /// the [`level`] of the selective solve that found them. A search uses
    /// the bounds of slots at its own level or above, and only the move of
    /// the others.
    level: u8,
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
struct Table {
    words: Vec<[u64; 3]>,
    mask: usize,
}

impl Table {
    fn new(bits: u32) -> Table {
        Table {
            words: vec![[0u64; 3]; 1 << bits],
            mask: (1 << bits) - 2,
        }
    }

    #[inline]
    fn index(p: u64, o: u64) -> usize {
        let h = p.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ o.wrapping_mul(0xc2b2_ae3d_27d4_eb4f);
        (h ^ (h >> 31)) as usize
    }

    #[inline]
    fn probe(&self, p: u64, o: u64) -> Option<Slot> {
        let i = Table::index(p, o) & self.mask;
        self.words[i..i + 2]
            .iter()
            .find(|w| w[0] == p && w[1] == o)
            .map(Slot::unpack)
    }

    /// Records that the score of (p, o) lies in `lower..=upper` as found at
    /// `level`, merging with what the slot holds at the same level: bounds
    /// of a higher level replace those of a lower one, and leave those of a
    /// higher one alone.
    #[inline]
    #[allow(clippy::too_many_arguments)]
    fn store(&mut self, p: u64, o: u64, lower: i32, upper: i32, best: u8, date: u8, level: u8) {
        let i = Table::index(p, o) & self.mask;
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
            } else if s.level < level {
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

/// The table level of proven bounds.
const EXACT_LEVEL: u8 = u8::MAX;

/// The table level of a search: [`EXACT_LEVEL`] for an exact one, else its
/// cut threshold in tenths of a standard deviation (wider cuts are more
/// trustworthy), below [`EXACT_LEVEL`].
fn level(probcut: Option<i32>) -> u8 {
    match probcut {
        None => EXACT_LEVEL,
        Some(cut) => (cut / 10).clamp(0, i32::from(EXACT_LEVEL) - 1) as u8,
    }
}

/// A move of the deep search's list: its square, flips and sort key.
#[derive(Clone, Copy, Default)]
struct Candidate {
    key: i32,
    square: u8,
    flips: u64,
}

/// The most moves a position can have (the known maximum is 33).
const MAX_MOVES: usize = 34;

/// An endgame solver with its node count, deadline and table. Keep it
/// between solves: the table's proven bounds stay valid.
#[derive(Debug)]
pub struct Solver {
    nodes: u64,
    next_check: u64,
    deadline: Deadline,
    aborted: bool,
    date: u8,
    table: Table,
    techniques: Techniques,
    /// The instruction set of the search (detected at creation).
    isa: Isa,
    /// The cut threshold of a selective solve, in hundredths of a standard
    /// deviation; `None` for an exact one.
    probcut: Option<i32>,
}

impl Solver {
    /// A solver that gives up at `deadline`, with a table of
    /// 2^[`DEFAULT_TABLE_BITS`] entries.
    pub fn new(deadline: Deadline) -> Solver {
        Solver::with_table_bits(deadline, DEFAULT_TABLE_BITS)
    }

    /// A solver with a table of `2^bits` entries (`bits` >= 1).
    pub fn with_table_bits(deadline: Deadline, bits: u32) -> Solver {
        Solver {
            nodes: 0,
            next_check: NODES_PER_CLOCK_CHECK,
            deadline,
            aborted: false,
            date: 0,
            table: Table::new(bits.max(1)),
            techniques: Techniques::default(),
            isa: Isa::detect(),
            probcut: None,
        }
    }

    /// Runs the next solves with `isa` (tests compare the portable and the
    /// fast code; a fast `Isa` comes only from [`Isa::detect`]).
    pub fn set_isa(&mut self, isa: Isa) {
        self.isa = isa;
    }

    /// Changes the deadline of the next solves.
    pub fn set_deadline(&mut self, deadline: Deadline) {
        self.deadline = deadline;
    }

    /// Forgets everything the table holds.
    pub fn clear(&mut self) {
        self.table.words.fill([0; 3]);
    }

    /// Chooses the techniques used (to measure their worth).
    pub fn set_techniques(&mut self, techniques: Techniques) {
        self.techniques = techniques;
    }

    /// Nodes visited by the last solve.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Solves `board` choosing among `moves` (non-empty, legal). With
    /// `wld` it only proves win, draw or loss. `None` if the deadline
    /// passed first (or `moves` is empty). From [`ID_MIN_EMPTIES`] up it
    /// first runs the selective passes of [`ID_CUTS`], which leave their
    /// best moves in the table.
    pub fn solve(&mut self, board: &Board, moves: Bitboard, wld: bool) -> Option<Solution> {
        self.begin();
        if self.techniques.iterative && board.empty_count() >= ID_MIN_EMPTIES {
            for &t in ID_CUTS {
                self.probcut = Some(t);
                let pass = self.root(board, moves, wld);
                self.probcut = None;
                pass?;
            }
        }
        self.root(board, moves, wld)
    }

    /// A selective solve: a search to the end in which a node is cut when
    /// an evaluated shallow search lies `cut`/100 standard deviations
    /// beyond the window (probcut; `cut` is taken in `0..=`[`MAX_CUT`]).
    /// Its score and move are probable, not proven. From
    /// [`SELECTIVE_ID_MIN_EMPTIES`] up the narrower passes of [`ID_CUTS`]
    /// run first, and when the deadline stops the last one, the result of
    /// the widest pass that finished is returned. `None` if none finished.
    pub fn solve_selective(
        &mut self,
        board: &Board,
        moves: Bitboard,
        cut: i32,
    ) -> Option<Solution> {
        let cut = cut.clamp(0, MAX_CUT);
        self.begin();
        let mut passes: Vec<i32> = Vec::new();
        if board.empty_count() >= SELECTIVE_ID_MIN_EMPTIES {
            passes.extend(ID_CUTS.iter().filter(|&&t| t < cut));
        }
        passes.push(cut);
        let mut finished = None;
        for t in passes {
            self.probcut = Some(t);
            match self.root(board, moves, false) {
                Some(s) => finished = Some(s),
                None => break,
            }
        }
        self.probcut = None;
        finished.map(|s| Solution {
            nodes: self.nodes,
            ..s
        })
    }

    /// Starts a solve: the node count, the clock and a new date.
    fn begin(&mut self) {
        self.nodes = 0;
        self.next_check = NODES_PER_CLOCK_CHECK;
        self.aborted = false;
        self.date = self.date.wrapping_add(1);
    }

    /// One search of `board` from the root, with the current `probcut`.
    fn root(&mut self, board: &Board, moves: Bitboard, wld: bool) -> Option<Solution> {
        let (p, o) = (board.player, board.opponent);
        let n = board.empty_count();
        let (alpha, beta) = if wld { (-1, 1) } else { (-INF, INF) };
        let mut list = [Candidate::default(); MAX_MOVES];
        let count = self.order(p, o, moves.0, n, &mut list);
        if let Some(s) = self.table.probe(p, o) {
            if let Some(i) = list[..count].iter().position(|c| c.square == s.best) {
                list[..=i].rotate_right(1);
            }
        }
        let (score, best) = if self.isa.is_fast() {
            self.search_list::<true>(p, o, alpha, beta, n, &list[..count])
        } else {
            self.search_list::<false>(p, o, alpha, beta, n, &list[..count])
        };
        if self.aborted || best >= 64 {
            return None;
        }
        if n >= TT_MIN_EMPTIES && self.techniques.table {
            self.table
                .store(p, o, -64, 64, best, self.date, level(self.probcut));
        }
        Some(Solution {
            best: Square::new(best),
            score: if wld { score.signum() } else { score },
            nodes: self.nodes,
        })
    }

    /// Negascout over the moves of `list`, in order: the best score
    /// (fail-soft) and its move (64 if `list` is empty). The first move gets
    /// the full window, the others a null window, widened again when one
    /// beats `alpha`. `FAST` only when `self.isa` is fast.
    #[inline(always)]
    fn search_list<const FAST: bool>(
        &mut self,
        p: u64,
        o: u64,
        mut alpha: i32,
        beta: i32,
        n: u32,
        list: &[Candidate],
    ) -> (i32, u8) {
        let mut best = -INF;
        let mut best_move = 64u8;
        for (i, &c) in list.iter().enumerate() {
            let (np, no) = (o ^ c.flips, p ^ c.flips ^ 1u64 << c.square);
            let score = if i == 0 || !self.techniques.negascout {
                -self.search::<FAST>(np, no, -beta, -alpha, n - 1)
            } else {
                let s = -self.search::<FAST>(np, no, -alpha - 1, -alpha, n - 1);
                if s > alpha && s < beta {
                    -self.search::<FAST>(np, no, -beta, -s, n - 1)
                } else {
                    s
                }
            };
            if self.aborted {
                return (0, best_move);
            }
            if score > best {
                best = score;
                best_move = c.square;
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        (best, best_move)
    }

    /// Solves `board` whatever its state: a side with no move passes, and a
    /// finished game gives its final score. Returns the move (a pass when
    /// the side to move has none) and the score; `None` if the deadline
    /// passed first.
    pub fn solve_board(&mut self, board: &Board, wld: bool) -> Option<(Move, i32)> {
        let moves = board.moves();
        if !moves.is_empty() {
            let s = self.solve(board, moves, wld)?;
            return Some((Move::Play(s.best), s.score));
        }
        let after = board.pass();
        let score = if after.moves().is_empty() {
            self.nodes = 1;
            let score = board.final_score();
            if wld {
                score.signum()
            } else {
                score
            }
        } else {
            -self.solve(&after, after.moves(), wld)?.score
        };
        Some((Move::Pass, score))
    }

    /// Dispatches on the number of empties `n`.
    #[inline(always)]
    fn search<const FAST: bool>(&mut self, p: u64, o: u64, alpha: i32, beta: i32, n: u32) -> i32 {
        if n <= PARITY_EMPTIES && self.techniques.shallow {
            let empties = !(p | o);
            if n == 1 {
                self.nodes += 1;
                return last1(p, o, empties.trailing_zeros() as usize);
            }
            if n == 2 {
                return self.last2(p, o, beta, empties);
            }
            self.shallow_child::<FAST>(p, o, alpha, beta, empties, parity_of(empties), n)
        } else {
            self.deep_child::<FAST>(p, o, alpha, beta, n)
        }
    }

    /// [`Solver::deep`] in the caller's instruction set.
    #[inline(always)]
    #[allow(unsafe_code)]
    fn deep_child<const FAST: bool>(
        &mut self,
        p: u64,
        o: u64,
        alpha: i32,
        beta: i32,
        n: u32,
    ) -> i32 {
        #[cfg(target_arch = "x86_64")]
        if FAST {
            // SAFETY: `FAST` is true only below `solve`'s branch on
            // `self.isa.is_fast()`, so the CPU has every feature `deep_fast`
            // enables. Gain: see docs/endgame.md (dispatch).
            return unsafe { self.deep_fast(p, o, alpha, beta, n) };
        }
        self.deep_portable(p, o, alpha, beta, n)
    }

    fn deep_portable(&mut self, p: u64, o: u64, alpha: i32, beta: i32, n: u32) -> i32 {
        self.deep::<false>(p, o, alpha, beta, n)
    }

    fast_fn! {
        fn deep_fast(&mut self, p: u64, o: u64, alpha: i32, beta: i32, n: u32) -> i32 {
            self.deep::<true>(p, o, alpha, beta, n)
        }
    }

    /// [`Solver::shallow`] in the caller's instruction set.
    #[inline(always)]
    #[allow(unsafe_code, clippy::too_many_arguments)]
    fn shallow_child<const FAST: bool>(
        &mut self,
        p: u64,
        o: u64,
        alpha: i32,
        beta: i32,
        empties: u64,
        parity: u32,
        n: u32,
    ) -> i32 {
        #[cfg(target_arch = "x86_64")]
        if FAST {
            // SAFETY: as in `deep_child`.
            return unsafe { self.shallow_fast(p, o, alpha, beta, empties, parity, n) };
        }
        self.shallow_portable(p, o, alpha, beta, empties, parity, n)
    }

    #[allow(clippy::too_many_arguments)]
    fn shallow_portable(
        &mut self,
        p: u64,
        o: u64,
        alpha: i32,
        beta: i32,
        empties: u64,
        parity: u32,
        n: u32,
    ) -> i32 {
        self.shallow::<false>(p, o, alpha, beta, empties, parity, n)
    }

    fast_fn! {
        #[allow(clippy::too_many_arguments)]
        fn shallow_fast(
            &mut self,
            p: u64,
            o: u64,
            alpha: i32,
            beta: i32,
            empties: u64,
            parity: u32,
            n: u32,
        ) -> i32 {
            self.shallow::<true>(p, o, alpha, beta, empties, parity, n)
        }
    }

    /// Negascout with move sorting, table and stability cutoffs.
    #[inline(always)]
    fn deep<const FAST: bool>(
        &mut self,
        p: u64,
        o: u64,
        mut alpha: i32,
        mut beta: i32,
        n: u32,
    ) -> i32 {
        self.nodes += 1;
        if self.nodes >= self.next_check {
            self.next_check = self.nodes + NODES_PER_CLOCK_CHECK;
            if self.deadline.hard_passed() {
                self.aborted = true;
            }
        }
        if self.aborted {
            return 0;
        }
        if n == 0 {
            return final_score(p, o);
        }
        let t = self.techniques;
        if t.stability && alpha >= 2 * n as i32 + STABILITY_OFFSET {
            let bound = 64 - 2 * stable_discs(o, p).count_ones() as i32;
            if bound <= alpha {
                return bound;
            }
        }
        let use_table = t.table && n >= TT_MIN_EMPTIES;
        let level = level(self.probcut);
        let mut table_move = 64u8;
        if use_table {
            if let Some(s) = self.table.probe(p, o) {
                table_move = s.best;
                // Bounds of a lower level (a narrower cut) are not trusted:
                // an exact solve uses only proven ones.
                let (lower, upper) = if s.level < level {
                    (-64, 64)
                } else {
                    (i32::from(s.lower), i32::from(s.upper))
                };
                if lower >= beta || lower == upper {
                    return lower;
                }
                if upper <= alpha {
                    return upper;
                }
                alpha = alpha.max(lower);
                beta = beta.min(upper);
            }
        }
        let moves = kernels::moves(p, o);
        if moves == 0 {
            if kernels::moves(o, p) == 0 {
                return final_score(p, o);
            }
            return -self.deep_child::<FAST>(o, p, -beta, -alpha, n);
        }
        if let Some(cut) = self.probcut {
            if n >= PROBCUT_MIN_EMPTIES {
                if let Some(bound) = probcut_bound(p, o, alpha, beta, n, cut) {
                    return bound;
                }
            }
        }
        let mut list = [Candidate::default(); MAX_MOVES];
        let count = self.order(p, o, moves, n, &mut list);
        if use_table && n >= ETC_MIN_EMPTIES {
            // Enhanced transposition cutoff: a child whose stored upper
            // bound already refutes it proves a cutoff here.
            for c in &list[..count] {
                let (np, no) = (o ^ c.flips, p ^ c.flips ^ 1u64 << c.square);
                if let Some(s) = self.table.probe(np, no) {
                    if s.level >= level && -i32::from(s.upper) >= beta {
                        return -i32::from(s.upper);
                    }
                }
            }
        }
        if table_move < 64 {
            if let Some(i) = list[..count].iter().position(|c| c.square == table_move) {
                list[..=i].rotate_right(1);
            }
        }
        let (best, best_move) = self.search_list::<FAST>(p, o, alpha, beta, n, &list[..count]);
        if self.aborted {
            return 0;
        }
        if use_table {
            let (lower, upper) = if best >= beta {
                (best, 64)
            } else if best > alpha {
                (best, best)
            } else {
                (-64, best)
            };
            self.table
                .store(p, o, lower, upper, best_move, self.date, level);
        }
        best
    }

    /// Fills `list` with `moves` in search order and returns their count.
    #[inline(always)]
    fn order(&self, p: u64, o: u64, moves: u64, n: u32, list: &mut [Candidate]) -> usize {
        let parity = if self.techniques.parity {
            PARITY_MASK[parity_of(!(p | o)) as usize]
        } else {
            0
        };
        let mut count = 0;
        let mut rest = moves;
        while rest != 0 {
            let sq = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let flips = kernels::flips(p, o, sq);
            let key = if self.techniques.fastest_first && n > PARITY_EMPTIES {
                let bit = 1u64 << sq;
                let replies = kernels::moves(o ^ flips, p ^ flips ^ bit);
                let corners = (replies & Bitboard::CORNERS.0).count_ones() as i32;
                let mine = p ^ flips ^ bit;
                let potential = (spread(mine) & !(mine | o ^ flips)).count_ones() as i32;
                let base = replies.count_ones() as i32 * MOBILITY_WEIGHT
                    + corners * CORNER_REPLY_WEIGHT
                    + potential * POTENTIAL_WEIGHT
                    - PARITY_BONUS * i32::from(parity & bit != 0);
                if self.techniques.eval_order && n >= EVAL_ORDER_EMPTIES {
                    // The opponent's view of the child: lower is better.
                    let child = Board::new(o ^ flips, p ^ flips ^ bit);
                    base + crate::eval::pattern::evaluate(&child) * EVAL_ORDER_WEIGHT
                        / crate::eval::SCALE
                } else {
                    base
                }
            } else {
                0
            };
            list[count] = Candidate {
                key,
                square: sq as u8,
                flips,
            };
            count += 1;
        }
        list[..count].sort_unstable_by_key(|c| (c.key, c.square));
        count
    }

    /// Two empties: both moves tried in turn, no move list, no parity.
    /// Only `beta` matters: the first move's score is exact and the second
    /// is tried unless the first reached `beta`.
    #[inline(always)]
    fn last2(&mut self, p: u64, o: u64, beta: i32, empties: u64) -> i32 {
        self.nodes += 1;
        let x1 = empties.trailing_zeros() as usize;
        let x2 = (empties & (empties - 1)).trailing_zeros() as usize;
        let mut best = -INF;
        if NEIGHBOURS[x1] & o != 0 {
            let f = kernels::flips(p, o, x1);
            if f != 0 {
                self.nodes += 1;
                best = -last1(o ^ f, p ^ f ^ 1u64 << x1, x2);
                if best >= beta {
                    return best;
                }
            }
        }
        if NEIGHBOURS[x2] & o != 0 {
            let f = kernels::flips(p, o, x2);
            if f != 0 {
                self.nodes += 1;
                best = best.max(-last1(o ^ f, p ^ f ^ 1u64 << x2, x1));
            }
        }
        if best > -INF {
            return best;
        }
        // `p` passes: the opponent picks the better of its moves.
        let mut worst = INF;
        for (x, other) in [(x1, x2), (x2, x1)] {
            if NEIGHBOURS[x] & p != 0 {
                let f = kernels::flips(o, p, x);
                if f != 0 {
                    self.nodes += 1;
                    worst = worst.min(last1(p ^ f, o ^ f ^ 1u64 << x, other));
                }
            }
        }
        if worst < INF {
            worst
        } else {
            final_score(p, o)
        }
    }

    /// Alpha-beta over the empty squares, odd quadrants first.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn shallow<const FAST: bool>(
        &mut self,
        p: u64,
        o: u64,
        mut alpha: i32,
        beta: i32,
        empties: u64,
        parity: u32,
        n: u32,
    ) -> i32 {
        self.nodes += 1;
        let odd = if self.techniques.parity {
            PARITY_MASK[parity as usize]
        } else {
            !0
        };
        let mut best = -INF;
        // Within each parity class, X- and C-squares last.
        for group in [
            empties & odd & !RISKY_SQUARES,
            empties & odd & RISKY_SQUARES,
            empties & !odd & !RISKY_SQUARES,
            empties & !odd & RISKY_SQUARES,
        ] {
            let mut rest = group;
            while rest != 0 {
                let sq = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                if NEIGHBOURS[sq] & o == 0 {
                    continue;
                }
                let flips = kernels::flips(p, o, sq);
                if flips == 0 {
                    continue;
                }
                let bit = 1u64 << sq;
                let (np, no) = (o ^ flips, p ^ flips ^ bit);
                let score = if n == 2 {
                    self.nodes += 1;
                    -last1(np, no, (empties ^ bit).trailing_zeros() as usize)
                } else if n == 3 {
                    -self.last2(np, no, -alpha, empties ^ bit)
                } else {
                    -self.shallow_child::<FAST>(
                        np,
                        no,
                        -beta,
                        -alpha,
                        empties ^ bit,
                        parity ^ quadrant_bit(sq),
                        n - 1,
                    )
                };
                if score > best {
                    best = score;
                    if score > alpha {
                        alpha = score;
                        if score >= beta {
                            return best;
                        }
                    }
                }
            }
        }
        if best == -INF {
            // No move: pass if the opponent can move, else the game is over.
            if kernels::moves(o, p) == 0 {
                return final_score(p, o);
            }
            return -self.shallow_child::<FAST>(o, p, -beta, -alpha, empties, parity, n);
        }
        best
    }
}

/// Probcut: the shallow value of (p, o) `cut`/100 standard deviations
/// above `beta` or below `alpha` gives that bound as the result.
fn probcut_bound(p: u64, o: u64, alpha: i32, beta: i32, n: u32, cut: i32) -> Option<i32> {
    let deep = n >= PROBCUT_DEEP_EMPTIES;
    let margin = PROBCUT_SIGMA[usize::from(deep)] * cut / 100;
    let (high, low) = (beta * SCALE + margin, alpha * SCALE - margin);
    let reach = 64 * SCALE;
    if high > reach && low < -reach {
        return None;
    }
    let depth = if deep { 2 } else { 0 };
    // Only which side of `low..high` the value lies on matters: a
    // fail-soft search with that window tells it.
    let v = eval_search(p, o, depth, low, high);
    if v >= high && beta < 64 {
        Some(beta)
    } else if v <= low && alpha > -64 {
        Some(alpha)
    } else {
        None
    }
}

/// Negamax with alpha-beta to `depth` plies with the pattern evaluation at
/// the leaves, in 1/[`SCALE`] discs: probcut's shallow search.
fn eval_search(p: u64, o: u64, depth: u32, mut alpha: i32, beta: i32) -> i32 {
    if depth == 0 {
        return crate::eval::pattern::evaluate(&Board::new(p, o));
    }
    let moves = kernels::moves(p, o);
    if moves == 0 {
        if kernels::moves(o, p) == 0 {
            return final_score(p, o) * SCALE;
        }
        return -eval_search(o, p, depth, -beta, -alpha);
    }
    let mut best = -INF * SCALE;
    let mut rest = moves;
    while rest != 0 {
        let sq = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        let f = kernels::flips(p, o, sq);
        let v = -eval_search(o ^ f, p ^ f ^ 1u64 << sq, depth - 1, -beta, -alpha);
        if v > best {
            best = v;
            if v > alpha {
                alpha = v;
                if v >= beta {
                    break;
                }
            }
        }
    }
    best
}

/// The squares next to `b`'s discs (in any of the 8 directions).
#[inline(always)]
fn spread(b: u64) -> u64 {
    let h = ((b >> 1) & 0x7f7f_7f7f_7f7f_7f7f) | ((b << 1) & 0xfefe_fefe_fefe_fefe);
    let row = b | h;
    h | (row >> 8) | (row << 8)
}

/// The exact score of a position whose one empty square is `sq`, `p` to
/// move: the flips are counted on the last square, nothing is played.
#[inline(always)]
fn last1(p: u64, o: u64, sq: usize) -> i32 {
    let np = p.count_ones() as i32;
    // p has np discs and o has 63 - np.
    let f = kernels::last_flip_count(p, sq) as i32;
    if f > 0 {
        return 2 * (np + f) - 62;
    }
    let f = kernels::last_flip_count(o, sq) as i32;
    if f > 0 {
        return 2 * (np - f) - 64;
    }
    // Nobody can move: the empty square goes to the winner.
    let diff = 2 * np - 63;
    diff + diff.signum()
}
#[cfg(test)]
mod tests {
    use super::*;

    /// Plain minimax on raw bitboards.
    fn minimax(p: u64, o: u64) -> i32 {
        let moves = kernels::moves(p, o);
        if moves == 0 {
            if kernels::moves(o, p) == 0 {
                return final_score(p, o);
            }
            return -minimax(o, p);
        }
        Bitboard(moves)
            .squares()
            .map(|sq| {
                let f = kernels::flips(p, o, sq.index());
                -minimax(o ^ f, p ^ f ^ sq.bit())
            })
            .max()
            .unwrap_or(-INF)
    }

    /// Random discs (not reachable positions: a harder test of passes and
    /// wipe-outs) with exactly two empties.
    #[test]
    fn last1_and_last2_agree_with_minimax() {
        let mut rng = crate::rng::Rng::seed_from_u64(5);
        let mut solver = Solver::with_table_bits(Deadline::unlimited(), 4);
        for _ in 0..20_000 {
            let discs = rng.next_u64();
            let x1 = rng.below(64);
            let x2 = (x1 + 1 + rng.below(63)) % 64;
            let empties = 1u64 << x1 | 1u64 << x2;
            let (p, o) = (discs & !empties, !discs & !empties);
            assert_eq!(solver.last2(p, o, INF, empties), minimax(p, o));
            let (p1, o1) = (p | 1u64 << x1, o);
            assert_eq!(last1(p1, o1, x2 as usize), minimax(p1, o1));
        }
    }
}

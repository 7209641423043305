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
//!   generating the move list, and from 4 empties stability cutoffs;
//! - `n == 2`: both squares tried in turn;
//! - `n == 1`: the last move counted, not played.
//!
//! A selective solve ([`Solver::solve_selective`]) is the same search in
//! which a node of [`PROBCUT_MIN_EMPTIES`] or more is cut when an evaluated
//! shallow search lies far enough beyond the window (probcut). Its bounds
//! go to the table marked with the widest cut that would have made the
//! same cuts, or as proven where its search cut nothing, so an exact solve
//! uses only the proven ones and the others' moves: exact solves of
//! [`ID_MIN_EMPTIES`] or more run such passes first, for the move ordering
//! (and the proven bounds) they leave behind.
//!
//! The search allocates nothing: move lists are fixed arrays on the stack.
//!
//! The files: this one holds the solver's interface and its passes (exact,
//! selective, and the selective ones before an exact solve); `deep.rs` the
//! search above [`PARITY_EMPTIES`] and the root, `last.rs` the last
//! empties, `probcut.rs` the cuts of a selective solve and `table.rs` the
//! transposition table. The submodules are private: their `pub` items are
//! the solver's alone, and the imports here serve them too (`use
//! super::*`).

use super::stability::stable_discs;
use crate::bitboard::Bitboard;
use crate::board::{Board, Move};
use crate::dispatch::{fast_fn, Isa};
use crate::eval::SCALE;
use crate::kernels;
use crate::square::Square;
use crate::time::{Deadline, NODES_PER_CLOCK_CHECK};
use std::time::{Duration, Instant};

// The calibration check (`train probcut --check`, tests), not part of the
// submission.
#[cfg(not(cargo_equip))]
pub mod calibration;
mod deep;
mod last;
mod probcut;
mod probcut_fit;
mod table;

use table::SolveTable;

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
/// From this many empties up, the fastest-first key also counts the
/// pattern evaluation of the position after the move. Measured (nodes of
/// fforum-20-39 and FFO #45-#47, weight 3): from 10 empties 212 M on
/// 20-39, from 12 225 M, from 14 and 16 fewer positions gained; see
/// docs/endgame.md.
pub const EVAL_ORDER_EMPTIES: u32 = 12;
/// In a selective solve the evaluation term joins the key from this many
/// empties up (where its probcut evaluates every node from
/// [`PROBCUT_MIN_EMPTIES`] anyway). On the strong-play and
/// tuning benches' 210 positions at 22 empties (docs/journal/endgame.md, "Seventh
/// pass") the 95% pass's median fell from 2.30-2.36 M nodes and 72-77 ms
/// to 1.92 M and 70 ms, finished within the turn on 79% against 75-77%;
/// FFO #40-#49 (whose exact solves run passes first) 511.2 M -> 498.3 M
/// nodes. From 10 in every solve the exact search after the passes slowed,
/// as on FFO before; 8 and 9 gave fewer nodes, not less time, until the
/// sort handed each child's evaluation to its probcut ("Ninth pass"): from
/// 9 the 95% pass's time fell a further 2-3% (8 empties has no probcut
/// below it to hand the evaluation to).
pub const SELECTIVE_EVAL_ORDER_EMPTIES: u32 = 9;
/// Key units per disc of that evaluation (a reply is `MOBILITY_WEIGHT`).
/// Measured from 12 empties on fforum-20-39: weight 2 gave 269 M nodes,
/// 3 225 M, 4 260 M (none: 572 M); 8 and 32 did worse on FFO #45-#47.
/// Measured again with the third generation's solver (nodes of
/// fforum-20-39 / FFO #40-#49): 2 155 M / 1,162 M, 3 134 / 1,054, 4 126
/// / 1,014, 5 123 / 965, 6 123 / 960; with the potential mobility and
/// parity weights then retuned, 5 gives 117 / 924 M. From 10 or 11
/// empties instead of 12 (weight 5) fewer nodes, more time (CPU, FFO
/// #40-#49: 29.2 s from 12, 29.8 s from 11; docs/endgame.md).
pub const EVAL_ORDER_WEIGHT: i32 = 5;
/// From this many empties up, the evaluation term of the fastest-first key
/// is no longer the child's evaluation but a 2-ply evaluated search from
/// the child ([`SORT_DEEPER_EMPTIES`]): better order where the subtrees are
/// big enough to pay for it. FFO #40-#49 (docs/journal/endgame.md, "Sorting by
/// shallow searches"): nodes 924 M -> 790 M from 18, 820 M from 19.
pub const SORT_SEARCH_EMPTIES: u32 = 18;
/// From this many empties up, that search from the child looks 3 plies
/// ahead instead of 2 (FFO #40-#49: 751.7 M nodes, against 790.0 M with 2
/// plies everywhere; callgrind 222.0 G instructions against 229.1 G).
pub const SORT_DEEPER_EMPTIES: u32 = 22;
/// From this many empties up, a selective solve (probcut) tries to cut a
/// node on an evaluated shallow search before searching it. From 8 rather
/// than 10 (issue 47, docs/endgame.md "Speed"): the passes at 22 empties
/// reached 95% in 89-94 ms instead of 107-108 (median, tuning and
/// strong-play benches), and the bot lost 0.43 / 0.51 discs a move at
/// 21-23 empties on those benches instead of 0.47 / 0.57.
pub const PROBCUT_MIN_EMPTIES: u32 = 8;
/// From this many empties up, that shallow search looks two plies ahead;
/// below, it is the evaluation alone (cheaper, less accurate).
pub const PROBCUT_DEEP_EMPTIES: u32 = 16;
/// Exact solves from this many empties up first run selective solves of
/// growing width ([`ID_CUTS`]): the exact solve then finds their best
/// moves in the table, and a solve the deadline stops still has their
/// result ([`Solver::solve_passes`]). From 16 instead, the median exact
/// solve at 16-18 empties took longer (18: 22 -> 30 ms;
/// `examples/endgame_ladder.rs`); from 19 rather than 20, the bot's solves
/// at 19 in 90 ms gave 178 proofs and 22 passes' results of 200 instead of
/// 182 proofs and 18 nothing (`examples/endgame_turns.rs`, docs/endgame.md).
pub const ID_MIN_EMPTIES: u32 = 19;
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
pub const ID_CUTS: &[i32] = &[50, 100, 200];
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
    /// [`EVAL_ORDER_EMPTIES`] up ([`SELECTIVE_EVAL_ORDER_EMPTIES`] in a
    /// selective solve).
    pub eval_order: bool,
    /// Selective passes before an exact solve from [`ID_MIN_EMPTIES`] up
    /// (a selective solve runs its narrower passes either way).
    pub iterative: bool,
    /// The sort's values handed to the children's probcut (else each
    /// computes its own: the same decisions, more time).
    pub hand_down: bool,
    /// A second probcut after the sort, on the value one ply deeper that
    /// the children's sort values make (else only the first, before it).
    pub sorted_cut: bool,
    /// A selective pass's late moves first searched at a narrower cut
    /// (else at the pass's; `deep::LATE_MOVES`).
    pub late_cut: bool,
    /// A selective pass stores a node's bounds at the level its search
    /// holds to: proven if it met no cut and no selective bound, else the
    /// widest cut that would have made the same cuts (else at the pass's
    /// level), so that wider passes and the exact solve trust them.
    pub proven_subtrees: bool,
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
            hand_down: true,
            sorted_cut: true,
            late_cut: true,
            proven_subtrees: true,
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
    /// The cut of the selective search it comes from (hundredths of a
    /// standard deviation), `None` when it is proven.
    pub cut: Option<i32>,
}

/// One finished pass of a solve (a selective search to the end, or the
/// exact one), as [`Solver::passes`] lists them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pass {
    /// The pass's cut (hundredths of a standard deviation), `None` for
    /// the exact search.
    pub cut: Option<i32>,
    /// Its best move.
    pub best: Square,
    /// Its score.
    pub score: i32,
    /// Nodes of the solve up to the end of this pass.
    pub nodes: u64,
    /// Time from the solve's start to the end of this pass.
    pub elapsed: Duration,
}

/// One cut a selective search made: at the position `(player, opponent)`
/// (side to move first), the shallow search said the score is at least
/// `bound` (`high`) or at most `bound` (not `high`), and the node returned
/// `bound` unsearched. An exact solve of the position confirms it or not
/// (`train probcut --check`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cut {
    /// The side to move's discs.
    pub player: u64,
    /// The other side's discs.
    pub opponent: u64,
    /// The bound the node returned.
    pub bound: i32,
    /// Whether it claimed the score at least `bound` (a fail high), else
    /// at most.
    pub high: bool,
}

/// An endgame solver with its node count, deadline and table. Keep it
/// between solves: the table's proven bounds stay valid.
#[derive(Debug)]
pub struct Solver {
    nodes: u64,
    next_check: u64,
    deadline: Deadline,
    aborted: bool,
    date: u8,
    table: SolveTable,
    techniques: Techniques,
    /// The instruction set of the search (detected at creation).
    isa: Isa,
    /// The cut threshold of a selective solve, in hundredths of a standard
    /// deviation; `None` for an exact one.
    probcut: Option<i32>,
    /// The passes the last solve finished, in order.
    passes: Vec<Pass>,
    /// When the last solve began.
    started: Instant,
    /// Where the selective searches' cuts are recorded, if anywhere (the
    /// calibration check's).
    cuts: Option<Vec<Cut>>,
    /// The current pass's cut rules by empties (`probcut::cut_rules`).
    cut_rules: [probcut::CutRule; 61],
    /// The second cut's rules by empties (`probcut::sorted_rules`).
    sorted_rules: [probcut::CutRule; 61],
    /// In a late move's first search: its subtree cuts narrower.
    narrow: bool,
    /// This pass's late moves cut narrower (`Techniques::late_cut`: in a
    /// solve from `deep::LATE_ROOT_EMPTIES`, passes up to
    /// `deep::LATE_MAX_CUT`).
    late: bool,
    /// The level up to which the current node's search holds
    /// ([`table::EXACT_LEVEL`] if it met no cut and no selective bound):
    /// the lowest of its cuts' reaches and of the levels of the table's
    /// bounds it used.
    valid: u8,
    /// A solve gives up after about this many nodes, like at its deadline
    /// (checked with the clock, every [`NODES_PER_CLOCK_CHECK`] nodes).
    node_limit: u64,
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
            table: SolveTable::new(bits.max(1)),
            techniques: Techniques::default(),
            isa: Isa::detect(),
            probcut: None,
            passes: Vec::new(),
            started: Instant::now(),
            cuts: None,
            cut_rules: [probcut::CutRule::default(); 61],
            sorted_rules: [probcut::CutRule::default(); 61],
            narrow: false,
            late: false,
            valid: table::EXACT_LEVEL,
            node_limit: u64::MAX,
        }
    }

    /// Runs the next solves with `isa` (tests compare the portable and the
    /// fast code; a fast `Isa` comes only from [`Isa::detect`]).
    pub fn set_isa(&mut self, isa: Isa) {
        self.isa = isa;
    }

    /// Makes the next solves give up after about `limit` nodes (the first
    /// clock check past it), as at their deadline: reproducible runs and
    /// tests of stopped solves. `u64::MAX`: no limit (the default).
    pub fn set_node_limit(&mut self, limit: u64) {
        self.node_limit = limit;
    }

    /// Changes the deadline of the next solves.
    pub fn set_deadline(&mut self, deadline: Deadline) {
        self.deadline = deadline;
    }

    // Tools and tests only: not in the submission (docs/bundle.md).
    #[cfg(not(cargo_equip))]
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

    /// Starts (`true`) or stops recording the selective searches' cuts.
    #[cfg(not(cargo_equip))]
    pub fn record_cuts(&mut self, on: bool) {
        self.cuts = on.then(Vec::new);
    }

    /// The cuts recorded since the last call (none when not recording).
    #[cfg(not(cargo_equip))]
    pub fn take_cuts(&mut self) -> Vec<Cut> {
        self.cuts.as_mut().map(std::mem::take).unwrap_or_default()
    }

    /// Records a cut at (p, o) that returned `bound`, a lower bound if
    /// `high`, when recording.
    #[inline(always)]
    fn note_cut(&mut self, p: u64, o: u64, bound: i32, high: bool) {
        if let Some(cuts) = &mut self.cuts {
            cuts.push(Cut {
                player: p,
                opponent: o,
                bound,
                high,
            });
        }
    }

    /// The passes the last solve finished, in order (its selective passes,
    /// then the exact search if it finished).
    pub fn passes(&self) -> &[Pass] {
        &self.passes
    }

    /// Solves `board` choosing among `moves` (non-empty, legal). With
    /// `wld` it only proves win, draw or loss. `None` if the deadline
    /// passed first (or `moves` is empty). From [`ID_MIN_EMPTIES`] up it
    /// first runs the selective passes of [`ID_CUTS`], which leave their
    /// best moves in the table.
    pub fn solve(&mut self, board: &Board, moves: Bitboard, wld: bool) -> Option<Solution> {
        self.solve_passes(board, moves, wld, None)
            .filter(|s| s.cut.is_none())
    }

    /// A selective solve: a search to the end in which a node is cut when
    /// an evaluated shallow search lies `cut`/100 standard deviations
    /// beyond the window (probcut; `cut` is taken in `0..=`[`MAX_CUT`]).
    /// Its score and move are probable, not proven. From
    /// [`SELECTIVE_ID_MIN_EMPTIES`] up the narrower passes of [`ID_CUTS`]
    /// run first, and when the deadline stops the last one, the result of
    /// the widest pass that finished is returned (its move improved by the
    /// stopped pass, as [`Solver::run_passes`] says). `None` if none
    /// finished.
    pub fn solve_selective(
        &mut self,
        board: &Board,
        moves: Bitboard,
        cut: i32,
    ) -> Option<Solution> {
        self.solve_passes(board, moves, false, Some(cut.clamp(0, MAX_CUT)))
    }

    /// The search at `cut` (`None`: exact), after the passes of [`ID_CUTS`]
    /// narrower than it: from [`SELECTIVE_ID_MIN_EMPTIES`] up before a
    /// selective search, from [`ID_MIN_EMPTIES`] up before an exact one
    /// (unless `Techniques::iterative` is off). The result of the widest
    /// search that finished before the deadline, its `cut` saying which
    /// ([`Solver::run_passes`]); `None` if none did.
    pub fn solve_passes(
        &mut self,
        board: &Board,
        moves: Bitboard,
        wld: bool,
        cut: Option<i32>,
    ) -> Option<Solution> {
        let narrower = match cut {
            Some(_) => board.empty_count() >= SELECTIVE_ID_MIN_EMPTIES,
            None => self.techniques.iterative && board.empty_count() >= ID_MIN_EMPTIES,
        };
        let mut passes: Vec<Option<i32>> = Vec::new();
        if narrower {
            passes.extend(
                ID_CUTS
                    .iter()
                    .filter(|&&t| cut.is_none_or(|c| t < c))
                    .map(|&t| Some(t)),
            );
        }
        passes.push(cut);
        self.run_passes(board, moves, wld, &passes)
    }

    /// Runs the searches of `passes` in turn (each a cut, `None` for the
    /// exact search) until one does not finish before the deadline: the
    /// last one that finished, its `cut` saying which; `None` if none did.
    /// When the stopped pass had already proven, in its first window, a
    /// move better than the last finished pass's move (searched in full, or
    /// failing high, on its null window or above the first window; the
    /// score is then that lower bound), the
    /// result is that move with that finished pass's `cut` (so never
    /// proven).
    /// [`Solver::passes`] lists the finished passes afterwards.
    pub fn run_passes(
        &mut self,
        board: &Board,
        moves: Bitboard,
        wld: bool,
        passes: &[Option<i32>],
    ) -> Option<Solution> {
        let deadline = self.deadline;
        self.run_passes_while(board, moves, wld, passes, &mut |_| Some(deadline))
    }

    /// [`Solver::run_passes`], asking `deadline` before each pass (with the
    /// passes finished so far) until when it may run: `None` stops there.
    pub fn run_passes_while(
        &mut self,
        board: &Board,
        moves: Bitboard,
        wld: bool,
        passes: &[Option<i32>],
        deadline: &mut dyn FnMut(&[Pass]) -> Option<Deadline>,
    ) -> Option<Solution> {
        self.begin();
        let mut finished = None;
        for &t in passes {
            match deadline(&self.passes) {
                Some(d) => self.deadline = d,
                None => break,
            }
            self.probcut = t;
            self.late = self.late_pass(board.empty_count(), t);
            if let Some(cut) = t {
                self.cut_rules = probcut::cut_rules(cut);
                self.sorted_rules = probcut::sorted_rules(cut);
            }
            match self.root(board, moves, wld) {
                Ok(s) => {
                    self.passes.push(Pass {
                        cut: t,
                        best: s.best,
                        score: s.score,
                        nodes: self.nodes,
                        elapsed: self.started.elapsed(),
                    });
                    finished = Some(s);
                }
                Err(better) => {
                    // The deadline stopped this pass after it had proven a
                    // move other than the previous pass's better: that move
                    // is played, under the previous pass's name (it beats
                    // that pass's move; the moves this one did not reach
                    // are unknown; docs/journal/endgame.md, "Second pass" and "A
                    // move proven better by its null window").
                    if let (Some((best, score)), Some(prev)) = (better, finished) {
                        finished = Some(Solution {
                            best,
                            score,
                            ..prev
                        });
                    }
                    break;
                }
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
        self.started = Instant::now();
        self.passes.clear();
        self.nodes = 0;
        self.next_check = NODES_PER_CLOCK_CHECK;
        self.aborted = false;
        self.date = self.date.wrapping_add(1);
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
}

/// The confidence of a selective pass at `cut` (hundredths of a standard
/// deviation), in percent: the share of a normal distribution within `cut`
/// deviations of its mean, rounded (110: 73, 150: 87, 200: 95, 233: 98).
/// A calibrated cut is wrong on the far side only, so each of the pass's
/// cut decisions should hold at least this often (`train probcut --check`
/// measures it).
pub fn confidence(cut: i32) -> u32 {
    (normal_within(cut) * 100.0).round() as u32
}

/// The share of a normal distribution within `cut`/100 standard
/// deviations of its mean ([`confidence`] unrounded, as a fraction).
pub fn normal_within(cut: i32) -> f64 {
    // erf by Abramowitz and Stegun 7.1.26 (error under 1.5e-7).
    let x = f64::from(cut.max(0)) / 100.0 / core::f64::consts::SQRT_2;
    let t = 1.0 / (1.0 + 0.327_591_1 * x);
    let poly = t
        * (0.254_829_592
            + t * (-0.284_496_736
                + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))));
    1.0 - poly * (-x * x).exp()
}

/// The value of `board` by the evaluated search of `depth` plies that a
/// selective solve's probcut runs (pattern evaluation at the leaves, exact
/// scores where the game ends), with a full window, in 1/[`SCALE`] discs:
/// what `train probcut` fits the cut's deviations on.
#[cfg(not(cargo_equip))]
pub fn shallow_value(board: &Board, depth: u32) -> i32 {
    probcut::eval_search(
        board.player,
        board.opponent,
        depth,
        -INF * SCALE,
        INF * SCALE,
    )
}

/// For the tools: the depth of the evaluated search that probcut runs at
/// `n` empties (`cut_depth`), and the factor its fitted deviation takes by
/// the estimate's distance from a draw (`train probcut` prints it beside
/// the measured one).
#[cfg(not(cargo_equip))]
pub use probcut::{cut_depth, sigma_factor};

/// The fail-soft bookkeeping of a move's `score`: raises `best` and
/// `alpha`; true when the score reaches `beta` (a cut).
#[inline(always)]
fn raise(best: &mut i32, alpha: &mut i32, score: i32, beta: i32) -> bool {
    if score > *best {
        *best = score;
        if score > *alpha {
            *alpha = score;
            return score >= beta;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::confidence;

    #[test]
    fn confidences_are_the_normal_shares_within_the_cut() {
        let table = [
            (0, 0),
            (110, 73),
            (150, 87),
            (200, 95),
            (233, 98),
            (260, 99),
        ];
        for (cut, percent) in table {
            assert_eq!(confidence(cut), percent, "cut {cut}");
        }
        assert_eq!(confidence(MAX), 100);
        const MAX: i32 = super::MAX_CUT;
    }
}

//! `alphabeta`: negamax with principal-variation search, iterative
//! deepening under the time budget, a transposition table with enhanced
//! transposition cut-offs, Multi-ProbCut ([`super::mpc`]), move ordering
//! (table move, then the opponent's replies and potential mobility and the
//! children's evaluation, or from depth [`SHALLOW_ORDER_MIN_DEPTH`] their
//! value by a shallow search), and a solve when few empties remain.

use super::endgame::{Solution, Solver};
use super::mpc;
use super::tt::{Bound, Entry, Table, DEFAULT_BITS};
use super::{Limits, Progress, Score, SearchResult, Strategy};
use crate::bitboard::Bitboard;
use crate::board::{Board, MAX_MOVES};
use crate::dispatch::{fast_fn, Isa};
use crate::eval::{Evaluator, SCALE};
use crate::kernels;
use crate::square::Square;
use crate::time::{Deadline, NODES_PER_CLOCK_CHECK};
use std::time::Instant;

/// At most this many empties, a solve with no time limit (or at a fixed
/// depth) is exact. A timed turn runs the passes of [`pass_cuts`] and then
/// the exact search at every count up to [`SELECTIVE_EMPTIES`]; when the
/// exact search cannot finish, the widest pass that did is played if it is
/// at least [`MIN_PLAYED_CUT`]. Measured in docs/endgame.md before those
/// passes (`examples/endgame_turns.rs`, warm tables, 90 ms: proven at 17
/// empties always, at 18 99%, 19 91%, 20 58%); with them, on the
/// strong-play bench at 135 ms, 49 of 60 proven at 20 ("From 23 empties
/// down").
pub const EXACT_EMPTIES: u32 = 20;
/// At most this many empties a timed turn runs the solve's passes
/// ([`PASS_CUTS`], then exact) before any midgame search. 23 (was 22)
/// since issue 47: on the tuning bench at 23 empties the passes lost 0.59
/// discs a move against 0.76 for the midgame search alone, at 24 on the
/// self-play bench 0.80 against 0.50 (docs/journal/endgame.md, "The turn").
pub const SELECTIVE_EMPTIES: u32 = 23;
/// The cut of a selective solve with no time limit (above the exact
/// empties), in hundredths of a standard deviation; timed turns use
/// [`PASS_CUTS`]. On the transition bench (135 ms turns) 200 lost 0.38 discs
/// a move at 21-23 empties against 0.43 with 275: its last pass finishes
/// more often in time (at 22 empties, mean 100 against 118 ms), and with
/// no time limit it lost 0.15 at 22 (275: 0.00, 150: 0.50).
pub const SELECTIVE_CUT: i32 = 200;
/// A selective result is played only from this cut up, the 73% pass (a
/// proof always is); the 38% pass (cut 50) only orders the next. Issue 43
/// found narrow passes' moves worse than the midgame search's (at 21
/// empties 0.65 discs a move against 0.15 with the old cuts 50, 100); with
/// the fitted cut, playing from 73% or from 87% was level over 21-23
/// empties on the tuning bench (0.35 / 0.61 / 0.59 against 0.36 / 0.53 /
/// 0.64 at 21 / 22 / 23; docs/journal/endgame.md, "The turn").
pub const MIN_PLAYED_CUT: i32 = 110;
/// The selective passes of a turn's solve, rising, in hundredths of a
/// standard deviation of the cut's fitted error (docs/journal/endgame.md, "The
/// selective solve's cut, calibrated"): about 38% (only orders the next;
/// 2-5 ms at 22 empties, it cut the 73% pass from 30 to 18 ms), 73%, 87%,
/// 95%, 98% and 99% confidence ([`super::endgame::confidence`]), the last
/// only from [`WIDEST_PASS_EMPTIES`]; the exact search follows them. The
/// widest finished is played.
pub const PASS_CUTS: &[i32] = &[50, 110, 150, 200, 233, 280];
/// The last of [`PASS_CUTS`] (99%) runs only from this many empties. There
/// the exact search after the 98% pass seldom finishes in the turn (on the
/// strong-play bench at 22 empties 6%, at 23 none), and the 99% pass does on
/// 71 of the 105 positions at 22 whose 98% pass did (its moves lost 12
/// discs there, the 98% pass's 22); below, it would delay proofs (at 21
/// empties on the tuning bench 61 of 150 proven instead of 76;
/// docs/journal/endgame.md, "A 99% pass at 22-23 empties").
pub const WIDEST_PASS_EMPTIES: u32 = 22;

/// The cuts of a turn's selective passes at `empties` empties.
pub fn pass_cuts(empties: u32) -> &'static [i32] {
    &PASS_CUTS[..PASS_CUTS.len() - usize::from(empties < WIDEST_PASS_EMPTIES)]
}

/// A turn's solve at `empties` empties: its selective passes
/// ([`pass_cuts`]), then the exact search (`None`), and how many passes
/// come before it.
fn pass_schedule(empties: u32) -> ([Option<i32>; PASS_CUTS.len() + 1], usize) {
    let cuts = pass_cuts(empties);
    let mut schedule = [None; PASS_CUTS.len() + 1];
    for (pass, &cut) in schedule.iter_mut().zip(cuts) {
        *pass = Some(cut);
    }
    (schedule, cuts.len())
}

/// The share of the budget the passes may take until one worth playing
/// (from [`MIN_PLAYED_CUT`]) has finished: when none has by then, the
/// midgame search gets the rest of the turn (at least 40%, not the tenth
/// it had before issue 47).
pub const FIRST_PASS_SHARE: f64 = 0.6;
/// Share of the move's budget the passes after the first playable one
/// (and a timed solve at a fixed depth, whose midgame fallback gets the
/// rest) may take; the widest finished by then is played (with the move a
/// stopped pass proved better, `Solver::run_passes`), and the rest of the
/// turn is the reply's margin. 0.95
/// (was 0.9) since issue 47's second pass: on the strong-play bench at
/// 21-23 empties 0.44 discs a move against 0.49, twice in turn (tuning
/// bench 0.33 both); the passes then end by 128 ms of the 135, before the
/// midgame search's own hard stop (docs/journal/endgame.md, "Second pass").
pub const SOLVE_SHARE: f64 = 0.95;
/// At this many empties a timed turn spends what the midgame search leaves
/// on the selective passes, so that the side's next turn, the first to
/// solve at 22, finds their moves in the table (on the strong-play bench
/// at 22 its 95% pass took about 9% fewer nodes, and finished within the
/// turn on 75% of positions against 73%, four runs each in turn; warming
/// at 25 for the turns at 23 gave nothing: docs/journal/endgame.md, "Warm tables
/// at 24 empties").
pub const WARM_EMPTIES: u32 = 24;
/// Deepest iteration of iterative deepening.
pub const MAX_DEPTH: u32 = 60;
/// From this remaining depth up, moves are sorted by opponent replies;
/// below it the sort costs more than it saves.
pub const SORT_MIN_DEPTH: u32 = 2;
/// From this remaining depth up to [`SHALLOW_ORDER_MIN_DEPTH`], the sort
/// also weighs each child's evaluation (docs/search.md: nodes to fixed
/// depths).
pub const ORDER_EVAL_MIN_DEPTH: u32 = 4;
/// Sort-key units per disc of a child's evaluation or shallow value (a
/// reply weighs 4).
pub const ORDER_EVAL_WEIGHT: i32 = 8;
/// Sort-key units per square of the opponent's potential mobility after a
/// move (the empty squares next to our discs). On the midgame bench's 76
/// positions (docs/journal/search.md, "Potential mobility in the sort"), full width
/// to depth 12 / selective to 15: without 271.4 M / 75.9 M nodes, weight 1
/// 248.2 / 73.3 M, 2 242.0 / 73.0 M; 3 (on 19 positions) cost more than 2.
pub const ORDER_POTENTIAL_WEIGHT: i32 = 2;
/// From this remaining depth up, the sort weighs each child's value by a
/// shallow search instead of its evaluation: depth 1 from here, one more
/// every [`SHALLOW_ORDER_STEP`] plies. On 19 positions of the midgame
/// bench at selective depth 16 (docs/journal/search.md, "Fewer nodes"), from 8:
/// 41.6 M nodes, against 43.2 M with the evaluation alone (from 6: 47.1 M,
/// from 10: 44.0 M).
pub const SHALLOW_ORDER_MIN_DEPTH: u32 = 8;
/// Plies of remaining depth per added ply of the sorting search.
pub const SHALLOW_ORDER_STEP: u32 = 4;
/// How far below `alpha` (in evaluation units) the sorting search still
/// tells moves apart; worse ones fail low at once.
pub const SHALLOW_ORDER_WINDOW: i32 = 8 * SCALE;
/// From this remaining depth up, the children's table entries are looked
/// up for a cut-off before the node is searched ([`AlphaBeta::etc`]). On
/// 19 positions of the midgame bench at selective depth 16 (docs/journal/search.md,
/// "Fewer nodes") from 3, 4 and 6 the nodes fell by 6%, 4% and 3%, the
/// time the same within the noise; 6 probes least.
pub const ETC_MIN_DEPTH: u32 = 6;
/// A table entry's move goes first only when the entry was searched at
/// most this many plies shallower than the node; a shallower entry's move
/// (often from a sorting search or Multi-ProbCut's shallow search) orders
/// worse than the sort. On 19 positions of the midgame bench at selective
/// depth 16 / full width depth 12 (docs/journal/search.md, "The table's move"):
/// any depth 38.9 M / 106.8 M nodes, 1 ply 35.9 / 102.4 M, 2 34.5 / 102.7
/// M, 3 34.7 / 103.5 M, 4 35.7 / 103.4 M, 8 38.7 / 106.6 M; 0 (the same
/// depth only, so no move from the previous iteration) 78.5 / 84.6 M.
pub const TABLE_MOVE_SLACK: u32 = 2;
/// A table entry's move goes first at a node of depth 2 or more only when
/// the entry was searched at least this deep: a depth-1 entry's move is
/// the child with the best evaluation (or the first above `beta`), a worse
/// guess than the sort's fewest replies. On 19 positions of the midgame
/// bench (docs/journal/search.md, "Depth-1 entries' moves"), full width to depth
/// 12: 102.7 M nodes with such moves, 68.8 M without; selective depth 16:
/// 34.5 M and 34.6 M.
pub const TABLE_MOVE_MIN_DEPTH: u32 = 2;
/// A bound beyond every evaluation and final score.
const INFINITY: i32 = 1 << 24;

/// Iterative-deepening PVS.
#[derive(Debug)]
pub struct AlphaBeta {
    eval: Evaluator,
    /// The instruction set of the search (detected once, at creation).
    isa: Isa,
    table: Table,
    nodes: u64,
    deadline: Deadline,
    node_limit: u64,
    aborted: bool,
    exact_empties: u32,
    /// Whether a fixed-depth search also solves exactly from
    /// `exact_empties` (`--exact` with `--depth`; off by default).
    fixed_depth_solves: bool,
    /// Whether Multi-ProbCut prunes (the bot's default).
    selective: bool,
    /// Made on first use, kept between moves (its table stays valid).
    solver: Option<Solver>,
    /// Where each finished iteration or playable pass shows its move.
    progress: Progress,
}

impl AlphaBeta {
    /// A searcher with `eval` and a table of 2^[`DEFAULT_BITS`] entries.
    pub fn new(eval: Evaluator) -> AlphaBeta {
        AlphaBeta::with_table_bits(eval, DEFAULT_BITS)
    }

    /// A searcher with a table of `2^bits` entries.
    pub fn with_table_bits(eval: Evaluator, bits: u32) -> AlphaBeta {
        AlphaBeta {
            eval,
            isa: Isa::detect(),
            table: Table::new(bits),
            nodes: 0,
            deadline: Deadline::unlimited(),
            node_limit: u64::MAX,
            aborted: false,
            exact_empties: EXACT_EMPTIES,
            fixed_depth_solves: false,
            selective: true,
            solver: None,
            progress: Progress::default(),
        }
    }

    /// The bot's searcher: the pattern evaluation and every default
    /// setting (as [`AlphaBeta::from_config`] builds it from the default
    /// [`Config`](super::Config)), showing its best move so far at
    /// `progress`. The CodinGame submission, which has no `Config`, plays
    /// this one.
    pub fn bot(progress: Progress) -> AlphaBeta {
        let mut search = AlphaBeta::new(crate::eval::Evaluator::patterns());
        search.progress = progress;
        search
    }

    /// The searcher `--strategy alphabeta` builds from `config` (its
    /// evaluation, Multi-ProbCut on or off, `--exact`).
    #[cfg(not(cargo_equip))]
    pub fn from_config(config: &super::Config) -> AlphaBeta {
        let mut search = AlphaBeta::new(crate::eval::Evaluator::new(config.eval, config.seed));
        search.set_selective(config.selective);
        search.progress = config.progress;
        if let Some(n) = config.exact {
            search.set_exact_empties(n);
            search.set_fixed_depth_solves(true);
        }
        search
    }

    /// The solver the search hands over to near the end (made on first
    /// use and kept, with its table, from one move to the next).
    pub fn solver(&mut self) -> &mut Solver {
        self.solver
            .get_or_insert_with(|| Solver::new(Deadline::unlimited()))
    }

    /// Changes the number of empties from which on the search solves exactly
    /// (0 turns the solver off).
    pub fn set_exact_empties(&mut self, empties: u32) {
        self.exact_empties = empties;
    }

    /// Makes a fixed-depth search solve exactly (and only exactly) from the
    /// exact empties down, as an engine level "depth d, exact from 2d"
    /// does; without it a fixed depth never solves.
    pub fn set_fixed_depth_solves(&mut self, on: bool) {
        self.fixed_depth_solves = on;
    }

    /// Turns Multi-ProbCut on (the default) or off (a full-width search).
    pub fn set_selective(&mut self, on: bool) {
        self.selective = on;
    }

    /// The value of `board` searched to `depth` plies with a full window,
    /// no time limit and no solve, in evaluation units (for fitting
    /// Multi-ProbCut and for tests).
    pub fn value(&mut self, board: &Board, depth: u32) -> i32 {
        self.nodes = 0;
        self.deadline = Deadline::unlimited();
        self.node_limit = u64::MAX;
        self.aborted = false;
        self.table.new_search();
        self.pvs_root_child(board, depth, -INFINITY, INFINITY)
    }

    /// Nodes visited since the last [`Strategy::choose`] or
    /// [`AlphaBeta::value`] began.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Changes the instruction set of the search (tests compare them).
    pub fn set_isa(&mut self, isa: Isa) {
        self.isa = isa;
    }

    /// Searches `moves` of `board` to exactly `depth` plies: the best move
    /// and its score, and whether the search finished. Stopped by the
    /// deadline or the node limit, it returns the best move proven so far,
    /// if a later move was found better than the first (whose score is then
    /// a bound: the move is still the better choice); else `None`.
    fn root(&mut self, board: &Board, moves: &[Square], depth: u32) -> Option<(Square, i32, bool)> {
        let mut alpha = -INFINITY;
        let beta = INFINITY;
        let mut best = None;
        for (i, &sq) in moves.iter().enumerate() {
            let next = board.play(sq);
            let score = if i == 0 {
                -self.pvs_root_child(&next, depth - 1, -beta, -alpha)
            } else {
                let s = -self.pvs_root_child(&next, depth - 1, -alpha - 1, -alpha);
                if s > alpha && !self.aborted {
                    -self.pvs_root_child(&next, depth - 1, -beta, -s)
                } else {
                    s
                }
            };
            if self.aborted {
                return best.map(|(sq, score)| (sq, score, false));
            }
            if score > alpha {
                alpha = score;
                best = Some((sq, score));
            }
        }
        best.map(|(sq, score)| (sq, score, true))
    }

    /// Enters [`AlphaBeta::pvs`] with the search's instruction set.
    #[allow(unsafe_code)]
    fn pvs_root_child(&mut self, board: &Board, depth: u32, alpha: i32, beta: i32) -> i32 {
        #[cfg(target_arch = "x86_64")]
        if self.isa.is_fast() {
            // SAFETY: `self.isa` is fast only when the CPU has every feature
            // `pvs_fast` enables (see `Isa`). Gain: bench 1.78 -> 1.34 s (user).
            return unsafe { self.pvs_fast(board, depth, alpha, beta, false) };
        }
        self.pvs_portable(board, depth, alpha, beta, false)
    }

    fn pvs_portable(&mut self, b: &Board, depth: u32, alpha: i32, beta: i32, passed: bool) -> i32 {
        self.pvs::<false>(b, depth, alpha, beta, passed)
    }

    fast_fn! {
        fn pvs_fast(&mut self, b: &Board, depth: u32, alpha: i32, beta: i32, passed: bool) -> i32 {
            self.pvs::<true>(b, depth, alpha, beta, passed)
        }
    }

    /// The recursion into a child, staying in the caller's instruction set.
    #[inline(always)]
    #[allow(unsafe_code)]
    fn child<const FAST: bool>(
        &mut self,
        board: &Board,
        depth: u32,
        alpha: i32,
        beta: i32,
        passed: bool,
    ) -> i32 {
        #[cfg(target_arch = "x86_64")]
        if FAST {
            // SAFETY: `pvs::<true>` runs only inside `pvs_fast`, which is
            // entered only after the CPU's features were checked.
            return unsafe { self.pvs_fast(board, depth, alpha, beta, passed) };
        }
        self.pvs_portable(board, depth, alpha, beta, passed)
    }

    /// Counts a node, and every [`NODES_PER_CLOCK_CHECK`] nodes checks
    /// the deadline and the node limit (`self.aborted`).
    #[inline(always)]
    fn tick(&mut self) {
        self.nodes += 1;
        if self.nodes.is_multiple_of(NODES_PER_CLOCK_CHECK)
            && (self.deadline.hard_passed() || self.nodes >= self.node_limit)
        {
            self.aborted = true;
        }
    }

    #[inline(always)]
    fn pvs<const FAST: bool>(
        &mut self,
        board: &Board,
        depth: u32,
        mut alpha: i32,
        beta: i32,
        passed: bool,
    ) -> i32 {
        self.tick();
        if self.aborted {
            return 0;
        }
        let moves = board.moves().0;
        if moves == 0 {
            if passed {
                return board.final_score() * SCALE;
            }
            return -self.child::<FAST>(&board.pass(), depth, -beta, -alpha, true);
        }
        if depth == 0 {
            return self.eval.evaluate(board);
        }

        let entry = self.table.probe(board);
        let mut table_move = 64u8;
        if let Some(e) = entry {
            let searched = u32::from(e.depth);
            if searched + TABLE_MOVE_SLACK >= depth && searched >= TABLE_MOVE_MIN_DEPTH.min(depth) {
                table_move = e.best;
            }
            if u32::from(e.depth) >= depth {
                match e.bound {
                    Bound::Exact => return e.score,
                    Bound::Lower if e.score >= beta => return e.score,
                    Bound::Upper if e.score <= alpha => return e.score,
                    _ => {}
                }
            }
        }

        if depth >= ETC_MIN_DEPTH {
            if let Some(cut) = self.etc(board, moves, depth, beta) {
                return cut;
            }
        }

        if self.selective && depth >= mpc::MIN_DEPTH {
            if let Some(cut) = self.probcut::<FAST>(board, depth, alpha, beta, passed) {
                return cut;
            }
        }

        // The table's move is searched first, before the others are
        // sorted: when it cuts (most cut nodes that have one), the sort and
        // its shallow searches are saved.
        let mut list = [(0i32, 0u8); MAX_MOVES];
        let table_first = table_move < 64 && moves >> table_move & 1 != 0;
        let mut n = 0;
        if table_first {
            list[0] = (0, table_move);
            n = 1;
        }
        let mut sorted = false;
        let alpha0 = alpha;
        let mut best_score = -INFINITY;
        let mut best_move = 64u8;
        // At depth 1 with the pattern evaluation, the children that are
        // leaves (not a pass) are evaluated here from this node's indices:
        // the same scores and node counts as the recursion, which would
        // read each child's indices afresh (and evaluate it twice when the
        // null window fails high).
        let leaves = if depth == 1 {
            self.eval
                .pattern_tables()
                .map(|tables| tables.children(board))
        } else {
            None
        };
        let mut i = 0;
        loop {
            if i == n {
                if sorted {
                    break;
                }
                let rest = if table_first {
                    moves & !(1u64 << table_move)
                } else {
                    moves
                };
                n += self.order::<FAST>(board, rest, depth, alpha, &mut list[n..]);
                sorted = true;
                if i == n {
                    break;
                }
            }
            let sq = list[i].1;
            let next = board.play(Square::new(sq));
            let leaf = leaves.as_ref().filter(|_| !next.moves().is_empty());
            let score = if let Some(leaves) = leaf {
                let v = -leaves.evaluate(usize::from(sq), board.opponent ^ next.player);
                // The recursion's nodes: the child, and its re-search.
                self.tick();
                if i > 0 && v > alpha && v < beta {
                    self.tick();
                }
                if self.aborted {
                    return 0;
                }
                v
            } else if i == 0 {
                -self.child::<FAST>(&next, depth - 1, -beta, -alpha, false)
            } else {
                let s = -self.child::<FAST>(&next, depth - 1, -alpha - 1, -alpha, false);
                if s > alpha && s < beta && !self.aborted {
                    -self.child::<FAST>(&next, depth - 1, -beta, -s, false)
                } else {
                    s
                }
            };
            if self.aborted {
                return 0;
            }
            if score > best_score {
                best_score = score;
                best_move = sq;
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
            i += 1;
        }
        let bound = if best_score >= beta {
            Bound::Lower
        } else if best_score > alpha0 {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.table.store(Entry {
            board: *board,
            score: best_score,
            depth: depth.min(255) as u8,
            bound,
            best: best_move,
            date: 0,
        });
        best_score
    }
}

impl AlphaBeta {
    /// Enhanced transposition cut-off: a child whose table entry, searched
    /// deep enough, proves this node at least `beta` cuts it before any
    /// search.
    #[inline(always)]
    fn etc(&self, board: &Board, moves: u64, depth: u32, beta: i32) -> Option<i32> {
        for sq in Bitboard(moves) {
            self.table.prefetch(&board.play(sq));
        }
        for sq in Bitboard(moves) {
            let next = board.play(sq);
            if let Some(e) = self.table.probe(&next) {
                if u32::from(e.depth) + 1 >= depth && e.bound != Bound::Lower && -e.score >= beta {
                    return Some(-e.score);
                }
            }
        }
        None
    }

    /// Multi-ProbCut (Buro): a shallow search predicts the deep one. When
    /// the shallow value is beyond `beta` (or below `alpha`) by the fitted
    /// margin ([`mpc::margin`]), the node is cut with that bound.
    #[inline(always)]
    fn probcut<const FAST: bool>(
        &mut self,
        board: &Board,
        depth: u32,
        alpha: i32,
        beta: i32,
        passed: bool,
    ) -> Option<i32> {
        let shallow = mpc::shallow_depth(depth);
        let margin = mpc::margin(depth, board.empty_count());
        let high = beta + margin;
        if high < mpc::MAX_BOUND {
            let v = self.child::<FAST>(board, shallow, high - 1, high, passed);
            if self.aborted {
                return Some(0);
            }
            if v >= high {
                return Some(beta);
            }
        }
        let low = alpha - margin;
        if low > -mpc::MAX_BOUND {
            let v = self.child::<FAST>(board, shallow, low, low + 1, passed);
            if self.aborted {
                return Some(0);
            }
            if v <= low {
                return Some(alpha);
            }
        }
        None
    }

    /// Fills `list` with `moves` (the table's move, searched before the
    /// sort, left out) in search order and returns their count: from depth
    /// [`SORT_MIN_DEPTH`] fewest opponent replies, with corners preferred,
    /// and its least potential mobility ([`ORDER_POTENTIAL_WEIGHT`]), and from [`ORDER_EVAL_MIN_DEPTH`] the lowest evaluation for the
    /// opponent after the move, from [`SHALLOW_ORDER_MIN_DEPTH`] its value
    /// by a shallow search.
    /// Inlined so that the fast search's copy is compiled for the fast
    /// instructions.
    #[inline(always)]
    fn order<const FAST: bool>(
        &mut self,
        board: &Board,
        moves: u64,
        depth: u32,
        alpha: i32,
        list: &mut [(i32, u8)],
    ) -> usize {
        let mut n = 0;
        let sort_depth = if depth >= SHALLOW_ORDER_MIN_DEPTH {
            1 + (depth - SHALLOW_ORDER_MIN_DEPTH) / SHALLOW_ORDER_STEP
        } else {
            0
        };
        for sq in Bitboard(moves) {
            let key = if depth >= SORT_MIN_DEPTH {
                let f = kernels::flips(board.player, board.opponent, sq.index());
                let (p, o) = (board.opponent ^ f, board.player ^ f ^ sq.bit());
                self.table.prefetch(&Board::new(p, o));
                let replies = kernels::moves(p, o);
                let corner = (sq.bit() & Bitboard::CORNERS.0 != 0) as i32;
                // Replies weigh most; a reply on a corner counts extra.
                let potential = (kernels::neighbours(o) & !(p | o)).count_ones() as i32;
                let mut key = (replies.count_ones() as i32
                    + 2 * (replies & Bitboard::CORNERS.0).count_ones() as i32)
                    * 4
                    + potential * ORDER_POTENTIAL_WEIGHT
                    - corner * 8;
                if sort_depth > 0 {
                    // The opponent's value by a shallow search, exact only
                    // for moves within the window of `alpha`: lower is
                    // better for us.
                    let window = -alpha + SHALLOW_ORDER_WINDOW;
                    let v =
                        self.child::<FAST>(&Board::new(p, o), sort_depth, -INFINITY, window, false);
                    key += v * ORDER_EVAL_WEIGHT / SCALE;
                } else if depth >= ORDER_EVAL_MIN_DEPTH {
                    // The opponent's evaluation: lower is better for us.
                    key += self.eval.evaluate(&Board::new(p, o)) * ORDER_EVAL_WEIGHT / SCALE;
                }
                key
            } else {
                0
            };
            // The square breaks ties (the order the moves were listed in),
            // so that the faster unstable sort gives a stable sort's order.
            list[n] = (key * 64 + sq.index() as i32, sq.index() as u8);
            n += 1;
        }
        list[..n].sort_unstable_by_key(|&(k, _)| k);
        n
    }
}

/// Whether a timed turn plays a solve's result of this pass: a proof
/// (`None`) or a pass from [`MIN_PLAYED_CUT`] up.
fn playable(cut: Option<i32>) -> bool {
    cut.is_none_or(|c| c >= MIN_PLAYED_CUT)
}

impl AlphaBeta {
    /// The solve of a turn near the end: from [`SELECTIVE_EMPTIES`] empties
    /// down (or `--exact`'s, if more), selective passes of rising
    /// confidence ([`pass_cuts`] at its empties) and then the exact search,
    /// each ordering the next through the table; the widest that finishes from
    /// [`MIN_PLAYED_CUT`] up is played. The passes up to the first of those
    /// may take [`FIRST_PASS_SHARE`] of the budget: when none finishes in
    /// it, the midgame search gets the rest of the turn (`deadline` becomes
    /// that). With no time limit the solve is exact from the exact empties
    /// down and selective at [`SELECTIVE_CUT`] up to [`SELECTIVE_EMPTIES`];
    /// a fixed depth solves only from the exact empties, exactly, and with a
    /// time limit too in [`SOLVE_SHARE`] of it, its widest pass played from
    /// [`MIN_PLAYED_CUT`] up, else the midgame search taking the rest.
    fn try_solve(
        &mut self,
        board: &Board,
        moves: Bitboard,
        deadline: &mut Deadline,
        fixed_depth: bool,
    ) -> Option<SearchResult> {
        let empties = board.empty_count();
        if self.exact_empties == 0 {
            return None;
        }
        let start = *deadline;
        if fixed_depth || start.is_unlimited() {
            if empties > self.exact_empties && (fixed_depth || empties > SELECTIVE_EMPTIES) {
                return None;
            }
            let cut = (empties > self.exact_empties).then_some(SELECTIVE_CUT);
            let timed = !start.is_unlimited();
            let solver = self.solver();
            solver.set_deadline(if timed {
                Deadline::new(start.start(), start.budget().mul_f64(SOLVE_SHARE))
            } else {
                start
            });
            let solution = solver.solve_passes(board, moves, false, cut);
            if let Some(sol) = solution.filter(|s| !timed || playable(s.cut)) {
                return Some(self.solved(sol, empties, &start));
            }
            if timed {
                *deadline = Deadline::new(Instant::now(), start.remaining());
            }
            return None;
        }
        if empties > SELECTIVE_EMPTIES.max(self.exact_empties) {
            return None;
        }
        let (schedule, passes) = pass_schedule(empties);
        let schedule = &schedule[..=passes];
        let first = Deadline::new(start.start(), start.budget().mul_f64(FIRST_PASS_SHARE));
        let rest = Deadline::new(start.start(), start.budget().mul_f64(SOLVE_SHARE));
        let progress = self.progress;
        let solver = self.solver();
        let solution = solver.run_passes_while(board, moves, false, schedule, &mut |done| {
            if let Some(pass) = done.last().filter(|p| playable(p.cut)) {
                progress.publish(pass.best);
            }
            Some(if done.iter().any(|p| playable(p.cut)) {
                rest
            } else {
                first
            })
        });
        self.nodes += self.solver().nodes();
        if let Some(sol) = solution.filter(|s| playable(s.cut)) {
            return Some(self.solved(sol, empties, &start));
        }
        *deadline = Deadline::new(Instant::now(), start.remaining());
        None
    }

    /// Spends what the midgame search left of a timed turn, up to
    /// [`SOLVE_SHARE`] of its budget, on the selective passes a solve at its
    /// empties would run ([`pass_cuts`]), their results not played: the
    /// side's next turn solves with their moves in the table
    /// ([`WARM_EMPTIES`]).
    fn warm(&mut self, board: &Board, moves: Bitboard, start: &Deadline) {
        let rest = Deadline::new(start.start(), start.budget().mul_f64(SOLVE_SHARE));
        if start.is_unlimited() || rest.hard_passed() || self.exact_empties == 0 {
            return;
        }
        let (schedule, passes) = pass_schedule(board.empty_count());
        let solver = self.solver();
        solver.set_deadline(rest);
        solver.run_passes(board, moves, false, &schedule[..passes]);
    }

    /// The result of a solve.
    fn solved(&self, sol: Solution, empties: u32, start: &Deadline) -> SearchResult {
        SearchResult {
            best: sol.best,
            score: match sol.cut {
                None => Score::Exact(sol.score),
                Some(cut) => Score::Probable {
                    score: sol.score,
                    cut,
                },
            },
            depth: empties,
            nodes: self.nodes.max(sol.nodes),
            elapsed: start.elapsed(),
        }
    }

    /// The result of the midgame search: `best` with `score` (evaluation
    /// units) at `depth`.
    fn midgame_result(
        &self,
        best: Square,
        score: i32,
        depth: u32,
        start: &Deadline,
    ) -> SearchResult {
        SearchResult {
            best,
            score: if self.selective {
                Score::Selective(score as f64 / SCALE as f64)
            } else {
                Score::Estimate(score as f64 / SCALE as f64)
            },
            depth,
            nodes: self.nodes,
            elapsed: start.elapsed(),
        }
    }

    /// Iterative deepening under `self.deadline` (its soft limit ends it
    /// between iterations), to `max_depth` if given: the best move, its
    /// score and the depth of the last completed iteration.
    fn iterate(
        &mut self,
        board: &Board,
        moves: Bitboard,
        max_depth: Option<u32>,
    ) -> (Square, i32, u32) {
        let fixed_depth = max_depth.is_some();
        let mut root_moves: Vec<Square> = moves.squares().collect();
        let mut result = (root_moves[0], 0, 0u32);
        let mut max_depth = max_depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        if !fixed_depth && root_moves.len() == 1 {
            // The only move: nothing to decide, only a score to show.
            max_depth = 1;
        }
        for depth in 1..=max_depth {
            let Some((best, score, finished)) = self.root(board, &root_moves, depth) else {
                break;
            };
            self.progress.publish(best);
            if !finished {
                // A later move beat the previous best before the deadline.
                result = (best, score, depth - 1);
                break;
            }
            result = (best, score, depth);
            // Search the best move first in the next iteration.
            let i = root_moves.iter().position(|&m| m == best).unwrap_or(0);
            root_moves[..=i].rotate_right(1);
            if depth >= board.empty_count() || (!fixed_depth && self.deadline.soft_passed()) {
                break;
            }
        }
        result
    }
}

impl Strategy for AlphaBeta {
    #[cfg(not(cargo_equip))]
    fn name(&self) -> &'static str {
        "alphabeta"
    }

    fn choose(&mut self, board: &Board, moves: Bitboard, limits: &Limits) -> SearchResult {
        self.nodes = 0;
        self.aborted = false;
        self.node_limit = limits.nodes.unwrap_or(u64::MAX);
        self.table.new_search();

        // Few empties: prove the result instead of estimating it.
        let mut start = limits.deadline;
        let fixed_depth = limits.depth.is_some();
        if !fixed_depth || self.fixed_depth_solves {
            if let Some(result) = self.try_solve(board, moves, &mut start, fixed_depth) {
                return result;
            }
        }
        self.deadline = start;
        let (best, score, depth) = self.iterate(board, moves, limits.depth);
        let mut result = self.midgame_result(best, score, depth, &limits.deadline);
        if !fixed_depth && board.empty_count() == WARM_EMPTIES {
            self.warm(board, moves, &limits.deadline);
            // The turn's time, warming included, as the MSG shows it.
            result.elapsed = limits.deadline.elapsed();
        }
        result
    }
}

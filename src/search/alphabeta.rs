//! `alphabeta`: negamax with principal-variation search, iterative
//! deepening under the time budget, a transposition table, move ordering
//! (table move, then fewest opponent replies), and an exact solve when few
//! empties remain.

use super::endgame::Solver;
use super::tt::{Bound, Entry, Table, DEFAULT_BITS};
use super::{Limits, Score, SearchResult, Strategy};
use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::eval::{Evaluator, SCALE};
use crate::kernels;
use crate::square::Square;
use crate::time::{Deadline, NODES_PER_CLOCK_CHECK};

/// At most this many empties, the bot solves exactly instead of estimating.
pub const EXACT_EMPTIES: u32 = 12;
/// Share of the move's budget the exact solve may take before the
/// midgame search takes over with the rest.
pub const SOLVE_SHARE: f64 = 0.6;
/// Deepest iteration of iterative deepening.
pub const MAX_DEPTH: u32 = 60;
/// From this remaining depth up, moves are sorted by opponent replies;
/// below it the sort costs more than it saves.
pub const SORT_MIN_DEPTH: u32 = 2;
/// A bound beyond every evaluation and final score.
const INFINITY: i32 = 1 << 24;

/// Iterative-deepening PVS.
#[derive(Debug)]
pub struct AlphaBeta {
    eval: Evaluator,
    table: Table,
    nodes: u64,
    deadline: Deadline,
    node_limit: u64,
    aborted: bool,
    exact_empties: u32,
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
            table: Table::new(bits),
            nodes: 0,
            deadline: Deadline::unlimited(),
            node_limit: u64::MAX,
            aborted: false,
            exact_empties: EXACT_EMPTIES,
        }
    }

    /// Changes the number of empties from which on the search solves exactly
    /// (0 turns the solver off).
    pub fn set_exact_empties(&mut self, empties: u32) {
        self.exact_empties = empties;
    }

    /// Searches `moves` of `board` to exactly `depth` plies; `None` if
    /// stopped by the deadline or the node limit.
    fn root(&mut self, board: &Board, moves: &[Square], depth: u32) -> Option<(Square, i32)> {
        let mut alpha = -INFINITY;
        let beta = INFINITY;
        let mut best = moves[0];
        for (i, &sq) in moves.iter().enumerate() {
            let next = board.play(sq);
            let score = if i == 0 {
                -self.pvs(&next, depth - 1, -beta, -alpha, false)
            } else {
                let s = -self.pvs(&next, depth - 1, -alpha - 1, -alpha, false);
                if s > alpha && !self.aborted {
                    -self.pvs(&next, depth - 1, -beta, -s, false)
                } else {
                    s
                }
            };
            if self.aborted {
                return None;
            }
            if score > alpha {
                alpha = score;
                best = sq;
            }
        }
        Some((best, alpha))
    }

    fn pvs(&mut self, board: &Board, depth: u32, mut alpha: i32, beta: i32, passed: bool) -> i32 {
        self.nodes += 1;
        if self.nodes.is_multiple_of(NODES_PER_CLOCK_CHECK)
            && (self.deadline.hard_passed() || self.nodes >= self.node_limit)
        {
            self.aborted = true;
        }
        if self.aborted {
            return 0;
        }
        let moves = board.moves().0;
        if moves == 0 {
            if passed {
                return board.final_score() * SCALE;
            }
            return -self.pvs(&board.pass(), depth, -beta, -alpha, true);
        }
        if depth == 0 {
            return self.eval.evaluate(board);
        }

        let entry = self.table.probe(board);
        let mut table_move = 64u8;
        if let Some(e) = entry {
            table_move = e.best;
            if u32::from(e.depth) >= depth {
                match e.bound {
                    Bound::Exact => return e.score,
                    Bound::Lower if e.score >= beta => return e.score,
                    Bound::Upper if e.score <= alpha => return e.score,
                    _ => {}
                }
            }
        }

        let mut list = [(0i32, 0u8); 32];
        let n = order(board, moves, table_move, depth, &mut list);
        let alpha0 = alpha;
        let mut best_score = -INFINITY;
        let mut best_move = list[0].1;
        for (i, &(_, sq)) in list[..n].iter().enumerate() {
            let next = board.play(Square::new(sq));
            let score = if i == 0 {
                -self.pvs(&next, depth - 1, -beta, -alpha, false)
            } else {
                let s = -self.pvs(&next, depth - 1, -alpha - 1, -alpha, false);
                if s > alpha && s < beta && !self.aborted {
                    -self.pvs(&next, depth - 1, -beta, -s, false)
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
        });
        best_score
    }
}

/// Fills `list` with the moves in search order and returns their count:
/// the table move first, then (at depth >= [`SORT_MIN_DEPTH`]) fewest
/// opponent replies, with corners preferred.
fn order(
    board: &Board,
    moves: u64,
    table_move: u8,
    depth: u32,
    list: &mut [(i32, u8); 32],
) -> usize {
    let mut n = 0;
    for sq in Bitboard(moves) {
        let key = if sq.index() as u8 == table_move {
            -1000
        } else if depth >= SORT_MIN_DEPTH {
            let f = kernels::flips(board.player, board.opponent, sq.index());
            let replies = kernels::moves(board.opponent ^ f, board.player ^ f ^ sq.bit());
            let corner = (sq.bit() & Bitboard::CORNERS.0 != 0) as i32;
            // Replies weigh most; a reply on a corner counts extra.
            (replies.count_ones() as i32 + 2 * (replies & Bitboard::CORNERS.0).count_ones() as i32)
                * 4
                - corner * 8
        } else {
            0
        };
        list[n] = (key, sq.index() as u8);
        n += 1;
    }
    list[..n].sort_by_key(|&(k, _)| k);
    n
}

impl Strategy for AlphaBeta {
    fn name(&self) -> &'static str {
        "alphabeta"
    }

    fn choose(&mut self, board: &Board, moves: Bitboard, limits: &Limits) -> SearchResult {
        self.nodes = 0;
        self.aborted = false;
        self.node_limit = limits.nodes.unwrap_or(u64::MAX);
        let start = limits.deadline;

        // Few empties: prove the result instead of estimating it.
        if limits.depth.is_none() && board.empty_count() <= self.exact_empties {
            let solve_deadline = if start.is_unlimited() {
                start
            } else {
                Deadline::new(start.start(), start.budget().mul_f64(SOLVE_SHARE))
            };
            let mut solver = Solver::new(solve_deadline);
            if let Some(sol) = solver.solve(board, moves, false) {
                return SearchResult {
                    best: sol.best,
                    score: Score::Exact(sol.score),
                    depth: board.empty_count(),
                    nodes: sol.nodes,
                    elapsed: start.elapsed(),
                };
            }
            self.nodes = solver.nodes();
        }

        self.deadline = start;
        let mut root_moves: Vec<Square> = moves.squares().collect();
        let mut result = (root_moves[0], 0, 0u32);
        let max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        for depth in 1..=max_depth {
            match self.root(board, &root_moves, depth) {
                Some((best, score)) => {
                    result = (best, score, depth);
                    // Search the best move first in the next iteration.
                    let i = root_moves.iter().position(|&m| m == best).unwrap_or(0);
                    root_moves[..=i].rotate_right(1);
                }
                None => break,
            }
            let fixed_depth = limits.depth.is_some();
            if depth >= board.empty_count() || (!fixed_depth && self.deadline.soft_passed()) {
                break;
            }
        }
        SearchResult {
            best: result.0,
            score: Score::Estimate(result.1 as f64 / SCALE as f64),
            depth: result.2,
            nodes: self.nodes,
            elapsed: start.elapsed(),
        }
    }
}

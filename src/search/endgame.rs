//! The endgame solver: the exact final disc difference under perfect play,
//! or only its sign (win/loss/draw).

use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::kernels;
use crate::square::Square;
use crate::time::{Deadline, NODES_PER_CLOCK_CHECK};

/// From this many empties up, moves are tried fewest-opponent-replies first.
pub const FASTEST_FIRST_EMPTIES: u32 = 6;

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

/// An endgame solver with its node count and deadline.
#[derive(Debug)]
pub struct Solver {
    nodes: u64,
    deadline: Deadline,
    aborted: bool,
}

impl Solver {
    /// A solver that gives up at `deadline`.
    pub fn new(deadline: Deadline) -> Solver {
        Solver {
            nodes: 0,
            deadline,
            aborted: false,
        }
    }

    /// Solves `board` choosing among `moves` (non-empty, legal). With
    /// `wld` it only proves win, draw or loss. `None` if the deadline
    /// passed first.
    pub fn solve(&mut self, board: &Board, moves: Bitboard, wld: bool) -> Option<Solution> {
        let (mut alpha, beta) = if wld { (-1, 1) } else { (-65, 65) };
        let mut best = None;
        for sq in ordered(board.player, board.opponent, moves.0) {
            let next = board.play(sq);
            let score = if best.is_none() {
                -self.search(next.player, next.opponent, -beta, -alpha, false)
            } else {
                let s = -self.search(next.player, next.opponent, -alpha - 1, -alpha, false);
                if s > alpha && s < beta {
                    -self.search(next.player, next.opponent, -beta, -s, false)
                } else {
                    s
                }
            };
            if self.aborted {
                return None;
            }
            if best.is_none() || score > alpha {
                best = Some(sq);
                alpha = alpha.max(score);
                if best.is_some() && score >= beta {
                    break;
                }
            }
        }
        Some(Solution {
            best: best?,
            score: alpha,
            nodes: self.nodes,
        })
    }

    fn search(&mut self, p: u64, o: u64, mut alpha: i32, beta: i32, passed: bool) -> i32 {
        self.nodes += 1;
        if self.nodes.is_multiple_of(NODES_PER_CLOCK_CHECK) && self.deadline.hard_passed() {
            self.aborted = true;
        }
        if self.aborted {
            return 0;
        }
        let moves = kernels::moves(p, o);
        if moves == 0 {
            if passed {
                return Board::new(p, o).final_score();
            }
            return -self.search(o, p, -beta, -alpha, true);
        }
        let empties = (!(p | o)).count_ones();
        let order: Vec<Square> = if empties > FASTEST_FIRST_EMPTIES {
            ordered(p, o, moves)
        } else {
            Bitboard(moves).squares().collect()
        };
        let mut best = -65;
        for sq in order {
            let f = kernels::flips(p, o, sq.index());
            let s = -self.search(o ^ f, p ^ f ^ sq.bit(), -beta, -alpha, false);
            if s > best {
                best = s;
                if s > alpha {
                    alpha = s;
                    if s >= beta {
                        break;
                    }
                }
            }
        }
        best
    }
}

/// `moves` sorted by the opponent's replies, fewest first (fastest-first).
fn ordered(p: u64, o: u64, moves: u64) -> Vec<Square> {
    let mut list: Vec<(u32, Square)> = Bitboard(moves)
        .squares()
        .map(|sq| {
            let f = kernels::flips(p, o, sq.index());
            let replies = kernels::moves(o ^ f, p ^ f ^ sq.bit()).count_ones();
            (replies, sq)
        })
        .collect();
    list.sort_unstable_by_key(|&(r, sq)| (r, sq.index()));
    list.into_iter().map(|(_, sq)| sq).collect()
}

impl Solver {
    /// Nodes visited so far.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }
}

//! `mcts`: UCT (seeds 001 and 003, done correctly).
//!
//! Each iteration descends from the root choosing, at every node, the
//! child with the highest UCB1 value `q + c·sqrt(ln N / n)`, where `q` is
//! the child's mean result *for the side to move at that node* (the side
//! that chooses), `N` the node's visits and `n` the child's; an unvisited
//! child is taken first. A leaf that was visited before is expanded (all
//! its children are created unvisited, a pass child when the side to move
//! has no move) and its first child is visited; then one random playout
//! runs from the new node and its result (win 1, draw ½, loss 0) is backed
//! up, flipped at each level. The move played is the root child with the
//! most visits.
//!
//! The tree is kept between the moves of a game: the next call looks for
//! its position among the descendants of the previous root (up to
//! [`REUSE_DEPTH`] plies, which covers our move, a pass and the
//! opponent's move) and keeps that subtree. [`Mcts::reuse`] reports how
//! often that worked and how much of the work it carried over.

use super::budget::Budget;
use super::playout::{win_value, Playouts, TO_THE_END};
use super::{Limits, Score, SearchResult, Strategy};
use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::rng::Rng;
use crate::square::Square;

pub use super::MCTS_DEFAULT_C as DEFAULT_C;
/// A leaf is expanded once it has had this many visits.
pub const EXPAND_VISITS: u32 = 1;
/// The tree's size limit in nodes (40 bytes each: 80 MB; with the spare
/// buffer that subtree reuse copies into, at most 160 MB of CodinGame's
/// 768 MB). Both buffers are reserved once, so the tree never reallocates
/// (and never holds an old and a new copy at once). A full tree stops
/// growing; iterations then play out from its leaves.
pub const MAX_NODES: usize = 2_000_000;
/// How deep below the previous root the next position is looked for.
pub const REUSE_DEPTH: u32 = 4;
/// At most this many children per node (Othello has at most 33 legal
/// moves; the tree may pass [`MAX_NODES`] by one expansion).
const MAX_CHILDREN: usize = 64;
/// The `mv` of a pass node.
const PASS: u8 = 64;
/// `first_child` of a node that has no children yet.
const NO_CHILDREN: u32 = 0;

/// A node: a position, the move that led to it, and its statistics.
#[derive(Clone, Copy, Debug)]
struct Node {
    board: Board,
    /// Results for the side that moved into this node (the parent's side
    /// to move): 1 per win, ½ per draw.
    wins: f64,
    visits: u32,
    /// Index of the first child (children are contiguous), or
    /// [`NO_CHILDREN`]; the root (index 0) is never a child.
    first_child: u32,
    children: u8,
    /// The square played to reach this node, or [`PASS`].
    mv: u8,
    /// Neither side can move here.
    terminal: bool,
}

impl Node {
    fn new(board: Board, mv: u8) -> Node {
        Node {
            board,
            wins: 0.0,
            visits: 0,
            first_child: NO_CHILDREN,
            children: 0,
            mv,
            terminal: board.is_game_over(),
        }
    }

    fn child_range(&self) -> core::ops::Range<usize> {
        let first = self.first_child as usize;
        first..first + usize::from(self.children)
    }
}

/// How much of the tree survived from one move to the next.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ReuseStats {
    /// Calls after the first of a game.
    pub turns: u64,
    /// Of those, calls whose position was found in the kept tree.
    pub hits: u64,
    /// Root visits carried over, summed over all calls.
    pub reused_visits: u64,
    /// Root visits at the end of each call, summed.
    pub total_visits: u64,
}

impl ReuseStats {
    /// Share of later turns that found their position in the tree.
    pub fn hit_rate(&self) -> f64 {
        self.hits as f64 / self.turns.max(1) as f64
    }

    /// Share of the root's final visits that came from earlier turns.
    pub fn visit_share(&self) -> f64 {
        self.reused_visits as f64 / self.total_visits.max(1) as f64
    }
}

/// UCT with subtree reuse.
#[derive(Clone, Debug)]
pub struct Mcts {
    rng: Rng,
    runner: Playouts,
    c: f64,
    playouts: Option<u64>,
    playout_depth: u32,
    tree: Vec<Node>,
    /// Where [`Mcts::keep_subtree`] copies the kept nodes; swapped with
    /// `tree`.
    spare: Vec<Node>,
    path: Vec<u32>,
    reuse: ReuseStats,
    /// Tests only: judge children from the wrong side's view.
    inverted: bool,
}

impl Mcts {
    /// UCT with exploration constant `c`, seeded with `seed`, at most
    /// `playouts` iterations per move (`None`: until the deadline), each
    /// playout cut after `playout_depth` plies (`None`: to the end).
    pub fn new(seed: u64, c: f64, playouts: Option<u64>, playout_depth: Option<u32>) -> Mcts {
        Mcts {
            rng: Rng::seed_from_u64(seed),
            runner: Playouts::new(),
            c,
            playouts,
            playout_depth: playout_depth.unwrap_or(TO_THE_END),
            tree: Vec::new(),
            spare: Vec::new(),
            path: Vec::new(),
            reuse: ReuseStats::default(),
            inverted: false,
        }
    }

    /// The subtree reuse so far.
    pub fn reuse(&self) -> ReuseStats {
        self.reuse
    }

    /// The root's children after the last call: (move, visits, win rate
    /// for the side to move at the root), in square order.
    pub fn root_children(&self) -> Vec<(Square, u32, f64)> {
        let Some(root) = self.tree.first() else {
            return Vec::new();
        };
        self.tree[root.child_range()]
            .iter()
            .filter(|c| c.mv != PASS)
            .map(|c| {
                let rate = c.wins / f64::from(c.visits.max(1));
                (Square::new(c.mv), c.visits, rate)
            })
            .collect()
    }

    /// Makes `board` the root, keeping its subtree when the previous tree
    /// holds it and its children are exactly `moves`.
    fn set_root(&mut self, board: &Board, moves: Bitboard) {
        let had_tree = !self.tree.is_empty();
        let found = if had_tree { self.find(board) } else { None };
        if had_tree {
            self.reuse.turns += 1;
        }
        match found {
            Some(index) => {
                self.keep_subtree(index);
                let root = self.tree[0];
                let children = self.tree[root.child_range()]
                    .iter()
                    .fold(0u64, |acc, c| acc | bit_of(c.mv));
                if root.first_child != NO_CHILDREN && children != moves.0 {
                    self.fresh_root(board);
                } else {
                    self.reuse.hits += 1;
                    self.reuse.reused_visits += u64::from(root.visits);
                }
            }
            None => self.fresh_root(board),
        }
        if self.tree[0].first_child == NO_CHILDREN {
            self.expand_with(0, moves);
        }
    }

    fn fresh_root(&mut self, board: &Board) {
        self.tree.clear();
        self.tree.reserve_exact(MAX_NODES + MAX_CHILDREN);
        self.tree.push(Node::new(*board, PASS));
    }

    /// The index of the node holding `board` within [`REUSE_DEPTH`] plies
    /// below the root, breadth first.
    fn find(&self, board: &Board) -> Option<usize> {
        let mut level = vec![0usize];
        for _ in 0..REUSE_DEPTH {
            let mut next = Vec::new();
            for &i in &level {
                for c in self.tree[i].child_range() {
                    if self.tree[c].board == *board {
                        return Some(c);
                    }
                    next.push(c);
                }
            }
            level = next;
        }
        None
    }

    /// Rebuilds the tree with the subtree of `index` only, breadth first so
    /// that siblings stay contiguous.
    fn keep_subtree(&mut self, index: usize) {
        let (old, new) = (&self.tree, &mut self.spare);
        new.clear();
        new.reserve_exact(MAX_NODES + MAX_CHILDREN);
        let mut origin = vec![index];
        new.push(old[index]);
        let mut i = 0;
        while i < new.len() {
            let range = old[origin[i]].child_range();
            if !range.is_empty() {
                new[i].first_child = new.len() as u32;
                for c in range {
                    new.push(old[c]);
                    origin.push(c);
                }
            }
            i += 1;
        }
        std::mem::swap(&mut self.tree, &mut self.spare);
    }

    /// Creates the children of node `index`: one per square of `moves`, or
    /// one pass child when `moves` is empty.
    fn expand_with(&mut self, index: usize, moves: Bitboard) {
        let board = self.tree[index].board;
        let first = self.tree.len() as u32;
        if moves.is_empty() {
            self.tree.push(Node::new(board.pass(), PASS));
        } else {
            for sq in moves {
                self.tree.push(Node::new(board.play(sq), sq.index() as u8));
            }
        }
        let children = (self.tree.len() as u32 - first) as u8;
        let node = &mut self.tree[index];
        node.first_child = first;
        node.children = children;
    }

    /// The child of `index` to descend to: an unvisited one, else the best
    /// by UCB1 for the side to move at `index`.
    fn select(&self, index: usize) -> usize {
        let node = &self.tree[index];
        let log_n = f64::from(node.visits.max(1)).ln();
        let mut best = (node.first_child as usize, f64::NEG_INFINITY);
        for c in node.child_range() {
            let child = &self.tree[c];
            if child.visits == 0 {
                return c;
            }
            let n = f64::from(child.visits);
            // The child's wins are already the chooser's: the side to move
            // at `index` is the side that moves into the child.
            let mut q = child.wins / n;
            if self.inverted {
                q = 1.0 - q;
            }
            let ucb = q + self.c * (log_n / n).sqrt();
            if ucb > best.1 {
                best = (c, ucb);
            }
        }
        best.0
    }

    /// One iteration: select, expand, play out, back up.
    fn iterate(&mut self) {
        self.path.clear();
        let mut index = 0usize;
        self.path.push(0);
        while self.tree[index].first_child != NO_CHILDREN {
            index = self.select(index);
            self.path.push(index as u32);
        }
        let leaf = self.tree[index];
        if !leaf.terminal && leaf.visits >= EXPAND_VISITS && self.tree.len() < MAX_NODES {
            self.expand_with(index, leaf.board.moves());
            index = self.tree[index].first_child as usize;
            self.path.push(index as u32);
        }
        let node = &self.tree[index];
        let score = if node.terminal {
            node.board.final_score()
        } else {
            self.runner
                .run(&node.board, &mut self.rng, self.playout_depth)
        };
        // `value`: the result for the side to move at the current node.
        let mut value = win_value(score);
        for &i in self.path.iter().rev() {
            let node = &mut self.tree[i as usize];
            node.visits += 1;
            node.wins += 1.0 - value;
            value = 1.0 - value;
        }
    }
}

/// The bit of a node's move (0 for a pass).
fn bit_of(mv: u8) -> u64 {
    if mv == PASS {
        0
    } else {
        1u64 << mv
    }
}

impl Strategy for Mcts {
    fn name(&self) -> &'static str {
        "mcts"
    }

    fn choose(&mut self, board: &Board, moves: Bitboard, limits: &Limits) -> SearchResult {
        self.set_root(board, moves);
        let mut budget = Budget::new(limits, self.playouts);
        if moves.count() > 1 {
            while !budget.exhausted() {
                self.iterate();
                budget.spend(1);
            }
        } else {
            // A forced move is played at once; expanding it keeps the
            // opponent's replies in the tree for the next call.
            let only = self.tree[0].first_child as usize;
            let child = self.tree[only];
            if child.first_child == NO_CHILDREN && !child.terminal {
                self.expand_with(only, child.board.moves());
            }
        }
        self.reuse.total_visits += u64::from(self.tree[0].visits);
        let root = self.tree[0];
        let chosen = self.tree[root.child_range()]
            .iter()
            .reduce(|a, b| {
                if (b.visits, b.wins) > (a.visits, a.wins) {
                    b
                } else {
                    a
                }
            })
            .copied()
            .expect("the root has children");
        SearchResult {
            best: Square::new(chosen.mv),
            score: Score::WinRate(chosen.wins / f64::from(chosen.visits.max(1))),
            depth: 0,
            nodes: budget.spent(),
            elapsed: limits.deadline.elapsed(),
        }
    }
}

#[cfg(test)]
impl Mcts {
    /// Makes the search judge each child from the wrong side's view: the
    /// seeds' bug, for the test that shows it loses.
    pub(crate) fn invert_perspective(&mut self) {
        self.inverted = true;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::endgame::Solver;
    use crate::search::playout::random_game;
    use crate::time::Deadline;

    /// The exact score of each move of `board` for its side to move.
    fn exact_scores(board: &Board) -> Vec<(Square, i32)> {
        board
            .moves()
            .squares()
            .map(|sq| {
                let mut solver = Solver::new(Deadline::unlimited());
                let only = Bitboard(sq.bit());
                (sq, solver.solve(board, only, false).unwrap().score)
            })
            .collect()
    }

    /// Positions of random games from fixed seeds with `empties` empties
    /// and the side to move to play.
    fn endgames(empties: u32) -> impl Iterator<Item = Board> {
        (0..).filter_map(move |seed| {
            let mut rng = Rng::seed_from_u64(seed);
            random_game(&Board::start(), &mut rng)
                .into_iter()
                .find(|b| b.empty_count() == empties)
        })
    }

    fn search(board: &Board, playouts: u64, inverted: bool) -> (Square, Vec<(Square, u32, f64)>) {
        let mut mcts = Mcts::new(3, DEFAULT_C, Some(playouts), None);
        if inverted {
            mcts.invert_perspective();
        }
        let limits = Limits::time(Deadline::unlimited());
        let r = mcts.choose(board, board.moves(), &limits);
        (r.best, mcts.root_children())
    }

    #[test]
    fn visits_favour_a_move_that_wins_at_once() {
        // The first position where exactly one move ends the game with a
        // win for the side to move, among several moves.
        let wins_at_once = |b: &Board, sq: Square| {
            let next = b.play(sq);
            next.is_game_over() && next.final_score() < 0
        };
        let board = (0..20_000)
            .flat_map(|seed| random_game(&Board::start(), &mut Rng::seed_from_u64(seed)))
            .find(|b| {
                let n = b
                    .moves()
                    .squares()
                    .filter(|&sq| wins_at_once(b, sq))
                    .count();
                n == 1 && b.moves().count() >= 3
            })
            .expect("no such position");
        let (best, children) = search(&board, 2000, false);
        assert!(wins_at_once(&board, best), "chose {best} in\n{board}");
        let top = children.iter().map(|c| c.1).max().unwrap();
        let winner = children.iter().find(|c| c.0 == best).unwrap();
        assert_eq!(winner.1, top);
        // It has more visits than all the others together.
        let others: u32 = children.iter().filter(|c| c.0 != best).map(|c| c.1).sum();
        assert!(winner.1 > others, "{children:?}");
    }

    #[test]
    fn ucb_takes_the_choosing_sides_view() {
        // The first 10-empty position with both winning and losing moves:
        // UCT as specified finds a winning one; with each node judged from
        // the other side's view (the seeds' bug) it picks a losing one.
        let (board, scores) = endgames(10)
            .map(|b| (b, exact_scores(&b)))
            .find(|(_, s)| s.iter().any(|m| m.1 > 0) && s.iter().any(|m| m.1 < 0))
            .expect("no such position");
        let score_of = |sq: Square| scores.iter().find(|m| m.0 == sq).unwrap().1;
        let (right, _) = search(&board, 20_000, false);
        assert!(score_of(right) > 0, "chose {right} {scores:?}\n{board}");
        let (wrong, _) = search(&board, 20_000, true);
        assert!(score_of(wrong) < 0, "inverted chose {wrong} {scores:?}");
    }

    #[test]
    fn the_tree_is_reused_after_each_reply() {
        let mut mcts = Mcts::new(1, DEFAULT_C, Some(3000), None);
        let mut opponent = crate::search::random::RandomPlayer::new(2);
        let limits = Limits::time(Deadline::unlimited());
        let mut board = Board::start();
        let mut ours = true;
        let mut calls = 0;
        while !board.is_game_over() {
            if board.moves().is_empty() {
                board = board.pass();
                ours = !ours;
                continue;
            }
            let r = if ours {
                calls += 1;
                mcts.choose(&board, board.moves(), &limits)
            } else {
                opponent.choose(&board, board.moves(), &limits)
            };
            assert!(board.is_legal(r.best));
            board = board.play(r.best);
            ours = !ours;
        }
        let reuse = mcts.reuse();
        assert_eq!(reuse.turns, calls - 1);
        assert_eq!(reuse.hits, reuse.turns, "{reuse:?}");
        // Against a random opponent, whose replies the tree explored little.
        assert!(reuse.reused_visits > 0, "{reuse:?}");
    }
}

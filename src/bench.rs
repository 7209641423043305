//! `othello bench`: a fixed-depth alpha-beta search of fixed positions.
//! The total node count is a signature of the search's behaviour: it changes
//! exactly when the search changes.

use crate::board::Board;
use crate::eval::{EvalKind, Evaluator};
use crate::rng::Rng;
use crate::search::alphabeta::AlphaBeta;
use crate::search::{Limits, Strategy};
use std::time::{Duration, Instant};

/// The depth searched when none is given.
pub const DEFAULT_DEPTH: u32 = 11;
/// How many positions the bench searches.
pub const POSITIONS: u64 = 8;
/// Plies of random play before each position: spread over the midgame.
pub const PLIES: [u32; POSITIONS as usize] = [0, 6, 12, 18, 24, 30, 36, 40];

/// The bench positions: random games from fixed seeds, cut at [`PLIES`].
pub fn positions() -> Vec<Board> {
    PLIES
        .iter()
        .enumerate()
        .map(|(i, &plies)| {
            let mut rng = Rng::seed_from_u64(1000 + i as u64);
            let mut board = Board::start();
            for _ in 0..plies {
                let moves = board.moves();
                if moves.is_empty() {
                    board = board.pass();
                    if board.moves().is_empty() {
                        break;
                    }
                    continue;
                }
                board = board.play(crate::Square::new(rng.pick_bit(moves.0) as u8));
            }
            board
        })
        .collect()
}

/// What the bench measured.
#[derive(Clone, Debug)]
pub struct BenchResult {
    /// Total nodes: the signature.
    pub nodes: u64,
    /// Total time.
    pub elapsed: Duration,
}

impl BenchResult {
    /// Nodes per second.
    pub fn nps(&self) -> f64 {
        self.nodes as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
}

/// Searches every bench position to `depth` with a fresh table.
pub fn run(depth: u32) -> BenchResult {
    run_with(depth, EvalKind::Classic, true)
}

/// [`run`] with the evaluation `eval`, Multi-ProbCut on or off.
pub fn run_with(depth: u32, eval: EvalKind, selective: bool) -> BenchResult {
    let mut nodes = 0;
    let start = Instant::now();
    for board in positions() {
        if board.moves().is_empty() {
            continue;
        }
        let mut search = AlphaBeta::new(Evaluator::new(eval, 0));
        search.set_exact_empties(0);
        search.set_selective(selective);
        let r = search.choose(&board, board.moves(), &Limits::depth(depth));
        nodes += r.nodes;
    }
    BenchResult {
        nodes,
        elapsed: start.elapsed(),
    }
}

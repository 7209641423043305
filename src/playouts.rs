//! `othello playouts`: seed 002's per-move score table (random games after
//! each legal move), and the playout speed measurement.

use crate::board::Board;
use crate::rng::Rng;
use crate::search::playout::{Kernel, Playouts, TO_THE_END};
use crate::search::stats::{root_stats, MoveStat};
use std::time::{Duration, Instant};

/// Playouts per legal move when `--games` is not given.
pub const DEFAULT_GAMES: u64 = 10_000;
/// Playouts of the speed measurement when `--games` is not given.
pub const DEFAULT_SPEED_GAMES: u64 = 1_000_000;

/// Plays `games` random games after each legal move of `board` (seeded by
/// `seed`, four interleaved at a time) and returns each move's statistics
/// from the view of the side to move in `board`, in square order. Empty
/// when the side to move has no legal move.
pub fn move_table(board: &Board, games: u64, seed: u64) -> Vec<MoveStat> {
    let runner = Playouts::new();
    let mut rng = Rng::seed_from_u64(seed);
    let mut stats = root_stats(board, board.moves());
    for stat in &mut stats {
        let children = [stat.child; 4];
        let mut left = games;
        while left > 0 {
            let scores = runner.run4(&children, &mut rng, TO_THE_END);
            for &s in scores.iter().take(left.min(4) as usize) {
                // The outcome is the opponent's: the root side's is its negation.
                stat.add(-s);
            }
            left = left.saturating_sub(4);
        }
    }
    stats
}

/// A playout speed measurement.
#[derive(Clone, Debug)]
pub struct Speed {
    /// The kernel measured.
    pub kernel: Kernel,
    /// Whether four games were interleaved.
    pub interleaved: bool,
    /// Playouts played.
    pub playouts: u64,
    /// Their total time.
    pub elapsed: Duration,
    /// Sum of the outcomes: a checksum that also keeps the work alive.
    pub score_sum: i64,
}

impl Speed {
    /// Playouts per second.
    pub fn per_second(&self) -> f64 {
        self.playouts as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
}

/// Times `playouts` random games from `board` (rounded up to a multiple of
/// 4) with `runner`, one at a time or four interleaved.
pub fn speed(board: &Board, playouts: u64, runner: Playouts, interleaved: bool) -> Speed {
    let mut rng = Rng::seed_from_u64(0);
    let rounds = playouts.div_ceil(4);
    let boards = [*board; 4];
    let mut score_sum = 0i64;
    let start = Instant::now();
    for _ in 0..rounds {
        if interleaved {
            let s = runner.run4(&boards, &mut rng, TO_THE_END);
            score_sum += s.iter().map(|&x| i64::from(x)).sum::<i64>();
        } else {
            for b in &boards {
                score_sum += i64::from(runner.run(b, &mut rng, TO_THE_END));
            }
        }
    }
    Speed {
        kernel: runner.kernel(),
        interleaved,
        playouts: rounds * 4,
        elapsed: start.elapsed(),
        score_sum,
    }
}

/// The positions of one random game from `board`, in order (the start
/// included; positions where the side to move must pass are skipped), for
/// tests and openings.
pub fn random_game(board: &Board, rng: &mut Rng) -> Vec<Board> {
    let mut log = Vec::new();
    crate::search::playout::trace(board, rng, TO_THE_END, &mut log);
    log.into_iter().map(|(b, _)| b).collect()
}

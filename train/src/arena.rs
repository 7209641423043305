//! Paired matches between two evaluations under the same alpha-beta search
//! and time rules, in this process: each random opening is played twice,
//! colours swapped.

use indicatif::ProgressBar;
use othello::eval::{EvalKind, Evaluator};
use othello::search::alphabeta::AlphaBeta;
use othello::search::{Limits, Strategy};
use othello::time::Deadline;
use othello::{Board, Square};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Mutex;

/// How the match is played.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// Evaluations of the first and second player.
    pub evals: [EvalKind; 2],
    /// Pairs of games (one opening each).
    pub pairs: u32,
    /// Hard budget per move in ms (the search's own soft limit applies).
    pub time_ms: u64,
    /// Fixed depth instead of time, for quick reproducible checks.
    pub depth: Option<u32>,
    /// Random plies of each opening.
    pub opening_plies: u32,
    /// Worker threads (each plays whole games).
    pub threads: usize,
    /// Seed of the openings.
    pub seed: u64,
}

/// The outcome for the first evaluation.
#[derive(Clone, Debug, Default)]
pub struct MatchResult {
    /// Wins, draws, losses of the first evaluation.
    pub wdl: [u32; 3],
    /// Sum of its final disc differences.
    pub discs: i64,
}

impl MatchResult {
    /// Games played.
    pub fn games(&self) -> u32 {
        self.wdl.iter().sum()
    }

    /// Points per game: a win 1, a draw 1/2.
    pub fn score(&self) -> f64 {
        (f64::from(self.wdl[0]) + 0.5 * f64::from(self.wdl[1])) / f64::from(self.games().max(1))
    }
}

fn opening(seed: u64, pair: u32, plies: u32) -> Board {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed << 32 | u64::from(pair));
    let mut board = Board::start();
    for _ in 0..plies {
        let moves: Vec<Square> = board.moves().squares().collect();
        if moves.is_empty() {
            break;
        }
        board = board.play(moves[rng.gen_range(0..moves.len())]);
    }
    board
}

/// Plays from `board` with `players[0]` to move; the final disc difference
/// for `players[0]`.
fn play(cfg: &MatchConfig, mut board: Board, players: &mut [AlphaBeta; 2]) -> i32 {
    let mut turn = 0;
    while !board.is_game_over() {
        let moves = board.moves();
        if !moves.is_empty() {
            let limits = match cfg.depth {
                Some(d) => Limits::depth(d),
                None => Limits::time(Deadline::from_now_ms(cfg.time_ms)),
            };
            board = board.play(players[turn].choose(&board, moves, &limits).best);
        } else {
            board = board.pass();
        }
        turn ^= 1;
    }
    if turn == 0 {
        board.final_score()
    } else {
        -board.final_score()
    }
}

/// Plays the match; `bar` counts games.
pub fn run(cfg: &MatchConfig, bar: &ProgressBar) -> MatchResult {
    let next = AtomicU32::new(0);
    let result = Mutex::new(MatchResult::default());
    std::thread::scope(|scope| {
        for _ in 0..cfg.threads.max(1) {
            scope.spawn(|| loop {
                let pair = next.fetch_add(1, Ordering::Relaxed);
                if pair >= cfg.pairs {
                    break;
                }
                let start = opening(cfg.seed, pair, cfg.opening_plies);
                for first in 0..2 {
                    let new =
                        |k: usize| AlphaBeta::new(Evaluator::new(cfg.evals[k], u64::from(pair)));
                    // players[0] moves first; `first` says which evaluation that is.
                    let mut players = [new(first), new(1 - first)];
                    let diff = play(cfg, start, &mut players);
                    let mine = if first == 0 { diff } else { -diff };
                    let mut r = result.lock().unwrap();
                    r.wdl[if mine > 0 {
                        0
                    } else if mine == 0 {
                        1
                    } else {
                        2
                    }] += 1;
                    r.discs += i64::from(mine);
                    bar.set_message(format!("score {:.1}%", 100.0 * r.score()));
                    bar.inc(1);
                }
            });
        }
    });
    result.into_inner().unwrap()
}

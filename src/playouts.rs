//! `othello playouts`: seed 002's per-move score table (random games after
//! each legal move), and the playout speed measurement.

use crate::board::Board;
use crate::game::{Color, Game};
use crate::rng::Rng;
use crate::search::playout::{Kernel, Playouts, TO_THE_END};
use crate::search::stats::{best, root_stats, MoveStat};
use crate::square::Square;
use core::fmt;
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

/// Seed 002's table: the board of `game` with, on each square of `stats`,
/// the move's mean final disc difference and win rate (`+1.2/53%`), the
/// side to move's discs `X` for black and `O` for white, then the best move.
/// `stats` must not be empty.
pub fn format_table(game: &Game, stats: &[MoveStat]) -> String {
    let board = game.board();
    let black = game.to_move() == Color::Black;
    let (mine, theirs) = if black { ('X', 'O') } else { ('O', 'X') };
    let games = stats.first().map_or(0, |s| s.games);
    let mut out = format!(
        "{} to move ({mine}), {games} random games after each move: \
         mean final disc difference / win %\n   ",
        game.to_move()
    );
    let columns: String = ('a'..='h').map(|c| format!("{c:^10}")).collect();
    out.push_str(columns.trim_end());
    out.push('\n');
    for row in 0..8u8 {
        let mut line = format!("{:>2} ", row + 1);
        for col in 0..8u8 {
            let sq = Square::from_coords(col, row);
            let cell = match stats.iter().find(|s| s.square == sq) {
                Some(s) => format!("{:+.1}/{:.0}%", s.mean_score(), s.win_rate() * 100.0),
                None if board.player & sq.bit() != 0 => mine.to_string(),
                None if board.opponent & sq.bit() != 0 => theirs.to_string(),
                None => ".".to_string(),
            };
            line.push_str(&format!("{cell:^10}"));
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    let best = best(stats);
    out.push_str(&format!(
        "best: {} ({:+.2} discs, {:.1}% wins)\n",
        best.square,
        best.mean_score(),
        best.win_rate() * 100.0
    ));
    out
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

impl fmt::Display for Speed {
    /// One line: kernel, mode, playouts, milliseconds, playouts per second.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mode = if self.interleaved {
            "4 interleaved"
        } else {
            "one at a time"
        };
        write!(
            f,
            "{:<8} {mode:<13} {:>9} playouts {:>7} ms {:>10.0} playouts/s",
            format!("{:?}", self.kernel),
            self.playouts,
            self.elapsed.as_millis(),
            self.per_second()
        )
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

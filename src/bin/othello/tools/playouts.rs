//! `othello playouts`: seed 002's per-move score table (random games after
//! each legal move, `othello::search::stats::move_table`) as text, and the
//! playout speed measurement.

use core::fmt;
use othello::game::{Color, Game};
use othello::rng::Rng;
use othello::search::playout::{Kernel, Playouts, TO_THE_END};
use othello::search::stats::{best, MoveStat};
use othello::{Board, Square};
use std::time::{Duration, Instant};

/// Playouts per legal move when `--games` is not given.
pub const DEFAULT_GAMES: u64 = 10_000;
/// Playouts of the speed measurement when `--games` is not given.
pub const DEFAULT_SPEED_GAMES: u64 = 1_000_000;

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
    // The sum of the outcomes keeps the work from being optimised away.
    std::hint::black_box(score_sum);
    Speed {
        kernel: runner.kernel(),
        interleaved,
        playouts: rounds * 4,
        elapsed: start.elapsed(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use othello::search::stats::move_table;

    #[test]
    fn the_playouts_table_is_an_8x8_grid_with_a_cell_per_move() {
        let game = Game::from_transcript("f5d6c3").unwrap();
        let stats = move_table(&game.board(), 8, 2);
        let text = format_table(&game, &stats);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 1 + 1 + 8 + 1, "{text}");
        assert!(lines[0].starts_with("white to move (O), 8 random games"));
        // White's 4 moves d3, f3, f4, g5 each show "mean/rate%".
        assert_eq!(text.matches('%').count() - 2, 4, "{text}");
        // Row 5: d5 white, e5 and f5 black, g5 one of white's moves.
        let row5: Vec<&str> = lines[6].split_whitespace().collect();
        assert_eq!(row5[..7], ["5", ".", ".", ".", "O", "X", "X"], "{text}");
        assert!(row5[7].ends_with('%'), "{text}");
        assert!(lines[10].starts_with("best: "));
    }
}

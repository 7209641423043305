//! Draws a position for `--watch`, `--replay` and the `human` player: the
//! last move marked, the legal moves shown, the disc counts; in colour when
//! the output is a terminal.

use othello::{Color, Game, Square};

/// ANSI: bold green, for legal moves.
const LEGAL: &str = "\x1b[32m";
/// ANSI: bold yellow, for the last move.
const LAST: &str = "\x1b[1;33m";
/// ANSI: back to normal.
const RESET: &str = "\x1b[0m";

/// The board with row and column names. Black is `X`, white `O`, the legal
/// moves of the side to move `+` (green in colour); the last move is in
/// brackets (and yellow in colour).
pub fn board(game: &Game, last: Option<Square>, colour: bool) -> String {
    let black = game.discs(Color::Black);
    let white = game.discs(Color::White);
    let legal = if game.is_over() {
        0
    } else {
        game.board().moves().0
    };
    let mut out = String::from("    a  b  c  d  e  f  g  h\n");
    for row in 0..8u8 {
        out.push_str(&format!("{} ", row + 1));
        for col in 0..8u8 {
            let sq = Square::from_coords(col, row);
            let bit = sq.bit();
            let (cell, paint) = if black & bit != 0 {
                ('X', None)
            } else if white & bit != 0 {
                ('O', None)
            } else if legal & bit != 0 {
                ('+', Some(LEGAL))
            } else {
                ('.', None)
            };
            let is_last = last == Some(sq);
            let paint = if is_last { Some(LAST) } else { paint };
            let (open, close) = if is_last { ('[', ']') } else { (' ', ' ') };
            match paint {
                Some(code) if colour => out.push_str(&format!("{open}{code}{cell}{RESET}{close}")),
                _ => out.push_str(&format!("{open}{cell}{close}")),
            }
        }
        out.push('\n');
    }
    out.push_str(&format!(
        "  X (black) {}  O (white) {}",
        black.count_ones(),
        white.count_ones()
    ));
    if !game.is_over() {
        out.push_str(&format!("  {} to move", game.to_move()));
    }
    out.push('\n');
    out
}

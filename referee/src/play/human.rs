//! The `human` player: a person types moves at the referee's terminal and
//! is told clearly when one is not legal. A human has no time limit.

use crate::play::bot::Reply;
use othello::{Color, Game, Square};
use std::io::{self, BufRead, Write};
use std::time::Instant;

/// A person at the keyboard, playing `color`.
#[derive(Debug)]
pub struct Human {
    color: Color,
}

impl Human {
    /// A person playing `color`.
    pub fn new(color: Color) -> Human {
        Human { color }
    }

    /// Reads moves until a legal one comes (the position is on the screen
    /// already: a game with a human is always watched); the end of input
    /// gives up the game.
    pub fn ask(&mut self, game: &Game) -> Reply {
        let start = Instant::now();
        let mut out = io::stdout().lock();
        let legal = game.board().moves();
        let names: Vec<String> = legal.squares().map(|s| s.to_string()).collect();
        let mut line = String::new();
        loop {
            let _ = write!(out, "your move as {} ({}): ", self.color, names.join(" "));
            let _ = out.flush();
            line.clear();
            match io::stdin().lock().read_line(&mut line) {
                Ok(0) | Err(_) => return Reply::Closed { input: false },
                Ok(_) => {}
            }
            let word = line.trim().to_ascii_lowercase();
            match check(&word, legal.0) {
                Ok(sq) => return Reply::Line(sq.to_string(), start.elapsed()),
                Err(e) => {
                    let _ = writeln!(out, "{e}");
                }
            }
        }
    }
}

/// The square typed, if it is a legal move.
fn check(word: &str, legal: u64) -> Result<Square, String> {
    let sq = Square::parse(word).map_err(|_| {
        format!("{word:?} is not a square: type a column a-h and a row 1-8, like d3")
    })?;
    if legal & sq.bit() == 0 {
        return Err(format!("{sq} is not a legal move here"));
    }
    Ok(sq)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typed_moves_are_checked() {
        let legal = othello::Board::start().moves().0;
        assert_eq!(check("d3", legal).unwrap().to_string(), "d3");
        assert!(check("a1", legal).unwrap_err().contains("not a legal move"));
        assert!(check("zz", legal).unwrap_err().contains("not a square"));
    }
}

//! A game in absolute colours: the board, whose turn it is, and the moves so far.
//!
//! [`Board`] is relative to the side to move; this wraps it with the colour
//! of that side, as the protocol and the referee need. Passes are applied
//! automatically, as on CodinGame: a side with no legal move is skipped.

#[cfg(not(cargo_equip))]
use crate::board::{Board, Move};
#[cfg(not(cargo_equip))]
use crate::square::Square;
use core::fmt;

/// A side. Black is CodinGame's player 0 and moves first.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Color {
    /// Player 0, first to move.
    Black,
    /// Player 1.
    White,
}

impl Color {
    /// The other side.
    pub const fn other(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// CodinGame's player id: 0 for black, 1 for white.
    pub const fn id(self) -> usize {
        match self {
            Color::Black => 0,
            Color::White => 1,
        }
    }

    /// The colour of CodinGame's player `id` (0 or 1).
    pub const fn from_id(id: usize) -> Option<Color> {
        match id {
            0 => Some(Color::Black),
            1 => Some(Color::White),
            _ => None,
        }
    }
}

// Tools and tests only: not in the submission (docs/bundle.md).
#[cfg(not(cargo_equip))]
impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::Black => "black",
            Color::White => "white",
        })
    }
}

#[cfg(not(cargo_equip))]
/// A game in progress: the position, the side to move and the history.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    board: Board,
    to_move: Color,
    history: Vec<Move>,
}

#[cfg(not(cargo_equip))]
impl Default for Game {
    fn default() -> Game {
        Game::new()
    }
}

#[cfg(not(cargo_equip))]
impl Game {
    /// The start position, black to move.
    pub fn new() -> Game {
        Game {
            board: Board::start(),
            to_move: Color::Black,
            history: Vec::new(),
        }
    }

    /// A game from a position and the side to move; passes at once if that
    /// side has no move but the game goes on.
    pub fn from_board(board: Board, to_move: Color) -> Game {
        let mut game = Game {
            board,
            to_move,
            history: Vec::new(),
        };
        game.skip_pass();
        game
    }

    /// The position relative to the side to move.
    pub fn board(&self) -> Board {
        self.board
    }

    /// The side to move (meaningless once the game is over).
    pub fn to_move(&self) -> Color {
        self.to_move
    }

    /// The moves so far, passes included.
    pub fn history(&self) -> &[Move] {
        &self.history
    }

    /// The discs of `color`.
    pub fn discs(&self, color: Color) -> u64 {
        if color == self.to_move {
            self.board.player
        } else {
            self.board.opponent
        }
    }

    /// Whether neither side can move.
    pub fn is_over(&self) -> bool {
        self.board.is_game_over()
    }

    /// Black's discs minus white's at the end, empties to the winner.
    pub fn final_score_black(&self) -> i32 {
        let s = self.board.final_score();
        if self.to_move == Color::Black {
            s
        } else {
            -s
        }
    }

    /// The winner when the game is over (`None` for a draw).
    pub fn winner(&self) -> Option<Color> {
        match self.final_score_black() {
            s if s > 0 => Some(Color::Black),
            s if s < 0 => Some(Color::White),
            _ => None,
        }
    }

    /// Plays `sq` for the side to move, then skips the next side if it must pass.
    ///
    /// # Errors
    /// If `sq` is not a legal move (the game is unchanged).
    pub fn play(&mut self, sq: Square) -> Result<(), IllegalMove> {
        if !self.board.is_legal(sq) {
            return Err(IllegalMove(sq));
        }
        self.board = self.board.play(sq);
        self.to_move = self.to_move.other();
        self.history.push(Move::Play(sq));
        self.skip_pass();
        Ok(())
    }

    fn skip_pass(&mut self) {
        if self.board.must_pass() {
            self.board = self.board.pass();
            self.to_move = self.to_move.other();
            self.history.push(Move::Pass);
        }
    }

    /// Plays a transcript such as `f5d6c3d3` (passes are implicit).
    ///
    /// # Errors
    /// The 1-based index of the first unreadable or illegal move.
    pub fn from_transcript(text: &str) -> Result<Game, TranscriptError> {
        let mut game = Game::new();
        let bytes = text.trim().as_bytes();
        if !bytes.len().is_multiple_of(2) {
            return Err(TranscriptError {
                index: bytes.len() / 2 + 1,
                reason: "odd number of characters".into(),
            });
        }
        for (i, pair) in bytes.chunks(2).enumerate() {
            let word = core::str::from_utf8(pair).unwrap_or("??");
            let sq = Square::parse(word).map_err(|e| TranscriptError {
                index: i + 1,
                reason: format!("{word:?}: {e}"),
            })?;
            game.play(sq).map_err(|e| TranscriptError {
                index: i + 1,
                reason: e.to_string(),
            })?;
        }
        Ok(game)
    }

    /// The moves so far as a transcript (`f5d6…`, passes left out).
    pub fn transcript(&self) -> String {
        self.history
            .iter()
            .filter_map(|m| match m {
                Move::Play(sq) => Some(sq.to_string()),
                Move::Pass => None,
            })
            .collect()
    }
}

#[cfg(not(cargo_equip))]
/// A move that is not legal in the position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IllegalMove(pub Square);

#[cfg(not(cargo_equip))]
impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} is not a legal move", self.0)
    }
}

#[cfg(not(cargo_equip))]
impl std::error::Error for IllegalMove {}

#[cfg(not(cargo_equip))]
/// A transcript that cannot be played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TranscriptError {
    /// 1-based index of the offending move.
    pub index: usize,
    /// What was wrong with it.
    pub reason: String,
}

#[cfg(not(cargo_equip))]
impl fmt::Display for TranscriptError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "move {}: {}", self.index, self.reason)
    }
}

#[cfg(not(cargo_equip))]
impl std::error::Error for TranscriptError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transcript_round_trip_and_errors() {
        let g = Game::from_transcript("f5d6c3d3").unwrap();
        assert_eq!(g.transcript(), "f5d6c3d3");
        assert_eq!(g.to_move(), Color::Black);
        let e = Game::from_transcript("f5f5").unwrap_err();
        assert_eq!(e.index, 2);
        let e = Game::from_transcript("f5z9").unwrap_err();
        assert_eq!(e.index, 2);
        assert!(Game::from_transcript("f5d").is_err());
    }
}

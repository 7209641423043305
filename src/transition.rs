//! The transition bench's positions (`othello transition`, docs/journal/endgame.md,
//! "The transition bench"), parsed from text (the library reads no files).
//!
//! A line is a game's transcript from the standard start position up to
//! the position (passes implicit, as `referee --openings` reads them),
//! then every legal move of that position with its exact final disc
//! difference for the side to move:
//!
//! ```text
//! f5d6c3d3c4f4f6f3e6e7...b7  a2:+8 b7:-6 c1:+2
//! ```
//!
//! The moves may come in any order but must be exactly the legal ones,
//! each once. Blank lines and lines starting with `#` are comments.
//!
//! Where an exact solve costs too much (27-30 empties), a line may give
//! each move's result alone, `W`, `D` or `L` for the side to move (a WLD
//! solve): `f5d6...b7  a2:W b7:L c1:D`. A line is one kind or the other.

use crate::board::{Board, Move};
use crate::game::{Color, Game};
use crate::square::Square;

/// One position of the bench.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BenchPosition {
    /// The transcript that leads to it.
    pub transcript: String,
    /// The position, seen from the side to move.
    pub board: Board,
    /// Who is to move.
    pub to_move: Color,
    /// The last earlier position of the game with the same side to move
    /// (the bot's previous turn, which warms its tables in play), if any.
    pub previous: Option<Board>,
    /// Every legal move with its exact score for the side to move (with
    /// `wld`, its sign only: 1 a win, 0 a draw, -1 a loss).
    pub scores: Vec<(Square, i32)>,
    /// Whether the scores are results only (a WLD solve's).
    pub wld: bool,
}

impl BenchPosition {
    /// A position after `transcript` (which must leave a side to move
    /// with a move) with `scores`. The scores are checked against the
    /// legal moves as [`parse_line`] does.
    ///
    /// # Errors
    /// An unplayable transcript, a finished game, or scores that are not
    /// exactly one per legal move.
    pub fn new(transcript: &str, scores: Vec<(Square, i32)>) -> Result<BenchPosition, String> {
        BenchPosition::scored(transcript, scores, false)
    }

    /// [`BenchPosition::new`] with results only (`wld`): each score -1, 0
    /// or 1.
    ///
    /// # Errors
    /// As [`BenchPosition::new`], and a result that is not -1, 0 or 1.
    pub fn with_results(
        transcript: &str,
        results: Vec<(Square, i32)>,
    ) -> Result<BenchPosition, String> {
        BenchPosition::scored(transcript, results, true)
    }

    fn scored(
        transcript: &str,
        scores: Vec<(Square, i32)>,
        wld: bool,
    ) -> Result<BenchPosition, String> {
        let game = Game::from_transcript(transcript).map_err(|e| format!("transcript {e}"))?;
        if game.is_over() {
            return Err("the game is over after the transcript".into());
        }
        let board = game.board();
        let to_move = game.to_move();
        // The bot's previous turn: the last earlier position with the same
        // side to move (two plies back, or one when the other side passed).
        let mut previous = None;
        let (mut before, mut side) = (Board::start(), Color::Black);
        for &mv in game.history() {
            if side == to_move && mv != Move::Pass {
                previous = Some(before);
            }
            before = before.apply(mv);
            side = side.other();
        }
        let legal = board.moves();
        let mut seen = 0u64;
        for &(sq, score) in &scores {
            if !legal.contains(sq) {
                return Err(format!("{sq} is not a legal move of the position"));
            }
            if seen & sq.bit() != 0 {
                return Err(format!("{sq} is scored twice"));
            }
            if !(-64..=64).contains(&score) {
                return Err(format!("{sq}: score {score} is outside -64..64"));
            }
            if wld && !(-1..=1).contains(&score) {
                return Err(format!("{sq}: result {score} is not -1, 0 or 1"));
            }
            seen |= sq.bit();
        }
        if let Some(missing) = legal.squares().find(|sq| seen & sq.bit() == 0) {
            return Err(format!("the legal move {missing} has no score"));
        }
        Ok(BenchPosition {
            transcript: transcript.to_string(),
            board,
            to_move,
            previous,
            scores,
            wld,
        })
    }

    /// The best score.
    pub fn best_score(&self) -> i32 {
        self.scores.iter().map(|&(_, s)| s).max().unwrap_or(0)
    }

    /// What playing `sq` loses against the best move, in discs (`None`
    /// for a move that is not scored, and for results only: their
    /// difference is no count of discs).
    pub fn loss(&self, sq: Square) -> Option<i32> {
        if self.wld {
            return None;
        }
        Some(self.best_score() - self.score(sq)?)
    }

    /// The file's score of `sq` (`None` for a move that is not scored).
    fn score(&self, sq: Square) -> Option<i32> {
        self.scores.iter().find(|&&(m, _)| m == sq).map(|&(_, s)| s)
    }

    /// Whether playing `sq` gives away the game's exact result: a win
    /// turned into a draw or a loss, or a draw into a loss (`None` for a
    /// move that is not scored). On CodinGame only the result counts, so a
    /// loss of discs that keeps it costs nothing there.
    pub fn changes_result(&self, sq: Square) -> Option<bool> {
        Some(self.score(sq)?.signum() < self.best_score().signum())
    }

    /// The number of empty squares.
    pub fn empties(&self) -> u32 {
        self.board.empty_count()
    }

    /// The line that [`parse_line`] reads back.
    pub fn to_line(&self) -> String {
        let mut line = self.transcript.clone();
        line.push(' ');
        for &(sq, score) in &self.scores {
            if self.wld {
                line += &format!(" {sq}:{}", RESULTS[(1 - score) as usize]);
            } else {
                line += &format!(" {sq}:{score:+}");
            }
        }
        line
    }
}

/// The letters of a win, a draw and a loss in a line of results.
const RESULTS: [char; 3] = ['W', 'D', 'L'];

/// Parses one line: `Ok(None)` for a blank or comment line.
///
/// # Errors
/// A one-line description of what is wrong (without the line number,
/// which the caller knows).
pub fn parse_line(line: &str) -> Result<Option<BenchPosition>, String> {
    let line = line.trim();
    if line.is_empty() || line.starts_with('#') {
        return Ok(None);
    }
    let mut fields = line.split_whitespace();
    let transcript = fields.next().unwrap_or_default();
    let mut scores = Vec::new();
    let mut results = 0;
    for field in fields {
        let Some((word, score)) = field.split_once(':') else {
            return Err(format!("expected `<move>:<score>`, found {field:?}"));
        };
        let sq = Square::parse(word).map_err(|e| format!("{field:?}: {e}"))?;
        let letter = RESULTS
            .iter()
            .position(|&c| score.len() == 1 && score.starts_with(c));
        let score = match letter {
            Some(k) => {
                results += 1;
                1 - k as i32
            }
            None => score.parse::<i32>().map_err(|_| {
                format!("{field:?}: the score is not a whole number, nor W, D or L")
            })?,
        };
        scores.push((sq, score));
    }
    if scores.is_empty() {
        return Err("no scored moves after the transcript".into());
    }
    match results {
        0 => BenchPosition::new(transcript, scores).map(Some),
        n if n == scores.len() => BenchPosition::with_results(transcript, scores).map(Some),
        _ => Err("a line gives either scores or results (W, D, L), not both".into()),
    }
}

/// Parses a whole bench: its positions, or every malformed line as
/// `line L: what is wrong`.
///
/// # Errors
/// The malformed lines, all of them.
pub fn parse(text: &str) -> Result<Vec<BenchPosition>, Vec<String>> {
    let mut positions = Vec::new();
    let mut errors = Vec::new();
    for (i, line) in text.lines().enumerate() {
        match parse_line(line) {
            Ok(Some(p)) => positions.push(p),
            Ok(None) => {}
            Err(e) => errors.push(format!("line {}: {e}", i + 1)),
        }
    }
    if errors.is_empty() {
        Ok(positions)
    } else {
        Err(errors)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
        Square::parse(s).unwrap()
    }

    #[test]
    fn only_a_worse_result_changes_it() {
        // A drawn position: the draws keep it, the loss gives it away.
        let p = parse_line("f5  d6:+0 f4:-2 f6:+0").unwrap().unwrap();
        assert_eq!(p.changes_result(sq("f6")), Some(false));
        assert_eq!(p.changes_result(sq("f4")), Some(true));
        // A lost one: losing by more keeps the result.
        let p = parse_line("f5  d6:-2 f4:-30 f6:-4").unwrap().unwrap();
        assert_eq!(p.loss(sq("f4")), Some(28));
        assert_eq!(p.changes_result(sq("f4")), Some(false));
        // A won one: winning by less keeps it.
        let p = parse_line("f5  d6:+20 f4:+2 f6:-2").unwrap().unwrap();
        assert_eq!(p.changes_result(sq("f4")), Some(false));
        assert_eq!(p.changes_result(sq("f6")), Some(true));
    }

    #[test]
    fn a_line_round_trips_and_gives_losses() {
        // After f5 white has d6, f6 and f4.
        let line = "f5  d6:+1 f4:-3 f6:+0";
        let p = parse_line(line).unwrap().unwrap();
        assert_eq!(p.empties(), 59);
        assert_eq!(p.to_move, Color::White);
        assert_eq!(p.previous, None);
        assert_eq!(p.best_score(), 1);
        assert_eq!(p.loss(sq("f4")), Some(4));
        assert_eq!(p.loss(sq("d6")), Some(0));
        assert_eq!(p.loss(sq("a1")), None);
        // d6 wins by 1; the draw f6 and the loss f4 give that away.
        assert_eq!(p.changes_result(sq("d6")), Some(false));
        assert_eq!(p.changes_result(sq("f6")), Some(true));
        assert_eq!(p.changes_result(sq("f4")), Some(true));
        assert_eq!(p.changes_result(sq("a1")), None);
        assert_eq!(p.to_line(), line);
        // After f5 d6 c3 white is to move and was to move after f5.
        let after = Game::from_transcript("f5d6c3").unwrap().board();
        let scores: String = after
            .moves()
            .squares()
            .map(|m| format!(" {m}:+0"))
            .collect();
        let q = parse_line(&format!("f5d6c3 {scores}")).unwrap().unwrap();
        assert_eq!(q.board, after);
        assert_eq!(
            q.previous,
            Some(Game::from_transcript("f5").unwrap().board())
        );
    }

    #[test]
    fn bad_lines_say_what_is_wrong() {
        assert_eq!(parse_line("  # comment").unwrap(), None);
        assert_eq!(parse_line("").unwrap(), None);
        let err = |line: &str| parse_line(line).unwrap_err();
        assert!(err("f5").contains("no scored moves"), "{}", err("f5"));
        assert!(err("f5 d6").contains("<move>:<score>"));
        assert!(err("f5 d6:x").contains("whole number"));
        assert!(err("f5 z9:+1").contains("z9"));
        assert!(err("f5 a1:+1").contains("a1 is not a legal move"));
        assert!(err("f5 d6:+1 d6:+1").contains("twice"));
        assert!(err("f5 d6:+1 f4:-3").contains("f6 has no score"));
        assert!(err("f5 d6:+99 f4:-3 f6:+0").contains("outside"));
        assert!(err("f5f5 d6:+1").contains("transcript move 2"));
        let errors = parse("f5 d6:+1 f4:-3 f6:+0\n\nf5 d6:+1\n# c\nf5 x\n").unwrap_err();
        assert_eq!(errors.len(), 2, "{errors:?}");
        assert!(errors[0].starts_with("line 3: ") && errors[1].starts_with("line 5: "));
        assert_eq!(parse("f5 d6:+1 f4:-3 f6:+0\n").unwrap().len(), 1);
        assert!(err("f5d d6:+1").contains("odd"));
        assert!(err("f5 d6:W f4:-3 f6:D").contains("not both"));
        assert!(err("f5 d6:X f4:L f6:D").contains("W, D or L"));
    }

    #[test]
    fn results_round_trip_and_give_away_results_but_no_disc_loss() {
        let line = "f5  d6:W f4:L f6:D";
        let p = parse_line(line).unwrap().unwrap();
        assert!(p.wld);
        assert_eq!(p.scores, [(sq("d6"), 1), (sq("f4"), -1), (sq("f6"), 0)]);
        assert_eq!(p.to_line(), line);
        assert_eq!(p.loss(sq("f4")), None);
        assert_eq!(p.changes_result(sq("f6")), Some(true));
        assert_eq!(p.changes_result(sq("d6")), Some(false));
        assert!(BenchPosition::with_results(
            "f5",
            vec![(sq("d6"), 2), (sq("f4"), 0), (sq("f6"), 0)]
        )
        .is_err());
    }
}

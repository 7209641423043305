//! `othello bench`: a fixed-depth alpha-beta search of fixed positions.
//! The total node count is a signature of the search's behaviour: it changes
//! exactly when the search changes.
//!
//! `othello bench --positions FILE` searches the positions of a file the
//! same way ([`search`] serves both), to a depth or under the bot's hard
//! budget; [`parse`] reads the file's text (the library reads no files).
//! A line is a game's transcript from the standard start position
//! (`f5d6c3...`, passes implicit, as the transition bench's lines start)
//! or an OBF line (`<64 cells> <X|O>;`, any scored moves after it
//! ignored); blank lines and lines starting with `#` are comments.

use crate::board::Board;
use crate::eval::{EvalKind, Evaluator};
use crate::game::Game;
use crate::rng::Rng;
use crate::search::alphabeta::AlphaBeta;
use crate::search::{Limits, Strategy};
use crate::time::Deadline;
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
    let settings = Settings {
        eval,
        selective,
        limit: Limit::Depth(depth),
    };
    // The time includes making each search (its table), as it always has.
    let start = Instant::now();
    let searched = search(&positions(), &settings, |_, _| {});
    BenchResult {
        nodes: searched.iter().map(|s| s.nodes).sum(),
        elapsed: start.elapsed(),
    }
}

/// How far each position is searched.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    /// To this depth, with no time limit.
    Depth(u32),
    /// Under a hard budget of this many ms, as the bot's turn
    /// ([`Deadline`]: no new iteration after its soft limit).
    TimeMs(u64),
}

/// How [`search`] searches each position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    /// The evaluation.
    pub eval: EvalKind,
    /// Multi-ProbCut on (the bot's default) or off (full width).
    pub selective: bool,
    /// Depth or time.
    pub limit: Limit,
}

/// One position searched.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Searched {
    /// Its empty squares.
    pub empties: u32,
    /// Nodes spent.
    pub nodes: u64,
    /// Time of the search alone (its table made before the clock starts).
    pub elapsed: Duration,
    /// Depth of the last completed iteration.
    pub depth: u32,
}

/// Searches each of `boards` with a fresh search and table (so that node
/// counts are reproducible), no exact solve, as `settings` say; calls
/// `each` with every position's index and result as it is found. A
/// position whose side to move has no move is not searched (0 nodes,
/// depth 0).
pub fn search(
    boards: &[Board],
    settings: &Settings,
    mut each: impl FnMut(usize, &Searched),
) -> Vec<Searched> {
    let mut out = Vec::with_capacity(boards.len());
    for (i, board) in boards.iter().enumerate() {
        let mut searched = Searched {
            empties: board.empty_count(),
            nodes: 0,
            elapsed: Duration::ZERO,
            depth: 0,
        };
        if !board.moves().is_empty() {
            let mut search = AlphaBeta::new(Evaluator::new(settings.eval, 0));
            search.set_exact_empties(0);
            search.set_selective(settings.selective);
            let limits = match settings.limit {
                Limit::Depth(depth) => Limits::depth(depth),
                Limit::TimeMs(ms) => Limits::time(Deadline::from_now_ms(ms)),
            };
            let start = Instant::now();
            let r = search.choose(board, board.moves(), &limits);
            searched.elapsed = start.elapsed();
            searched.nodes = r.nodes;
            searched.depth = r.depth;
        }
        each(i, &searched);
        out.push(searched);
    }
    out
}

/// One position of a positions file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    /// Its line in the file (from 1).
    pub line: usize,
    /// The position, seen from the side to move.
    pub board: Board,
}

/// Parses one line of a positions file: `Ok(None)` for a blank or
/// comment line.
///
/// # Errors
/// A one-line description of what is wrong (without the line number,
/// which the caller knows).
pub fn parse_line(line: &str) -> Result<Option<Board>, String> {
    let line = line.trim();
    if line.is_empty() || line.starts_with('#') {
        return Ok(None);
    }
    let mut fields = line.split_whitespace();
    let first = fields.next().unwrap_or_default();
    let board = if first.len() == 64 || line.contains(';') {
        let Some(p) = crate::obf::parse_line(line)? else {
            return Ok(None);
        };
        p.board
    } else {
        if let Some(extra) = fields.next() {
            return Err(format!(
                "expected a transcript (one word) or an OBF line `<64 cells> <X|O>;`, \
                 found {extra:?} after the first word"
            ));
        }
        let game = Game::from_transcript(first).map_err(|e| format!("transcript {e}"))?;
        game.board()
    };
    if board.is_game_over() {
        return Err("the game is over: no move to search".into());
    }
    if board.moves().is_empty() {
        return Err("the side to move has no move (it must pass)".into());
    }
    Ok(Some(board))
}

/// Parses a whole positions file: its positions, or every malformed line
/// as `line L: what is wrong`.
///
/// # Errors
/// The malformed lines, all of them.
pub fn parse(text: &str) -> Result<Vec<Position>, Vec<String>> {
    let mut positions = Vec::new();
    let mut errors = Vec::new();
    for (i, line) in text.lines().enumerate() {
        match parse_line(line) {
            Ok(Some(board)) => positions.push(Position { line: i + 1, board }),
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

    #[test]
    fn lines_are_transcripts_or_obf_and_comments() {
        let after = Game::from_transcript("f5d6c3").unwrap().board();
        assert_eq!(parse_line("  f5d6c3  ").unwrap(), Some(after));
        assert_eq!(parse_line("# a comment").unwrap(), None);
        assert_eq!(parse_line("").unwrap(), None);
        let start = "---------------------------OX------XO--------------------------- X;";
        assert_eq!(parse_line(start).unwrap(), Some(Board::start()));
        // Scored moves after an OBF position are read and ignored.
        assert_eq!(
            parse_line(&format!("{start} F5:+0;")).unwrap(),
            Some(Board::start())
        );
    }

    #[test]
    fn bad_lines_say_what_is_wrong_and_where() {
        for (line, says) in [
            ("f5f5", "move 2"),
            ("f5d", "odd number"),
            ("f5d6 c3", "one word"),
            ("f5 d6:+1", "one word"),
            ("-------- X;", "64"),
        ] {
            let e = parse_line(line).unwrap_err();
            assert!(e.contains(says), "{line}: {e}");
        }
        let full = format!("{} X;", "X".repeat(64));
        assert!(parse_line(&full).unwrap_err().contains("game is over"));
        let errors = parse("f5\n\n# c\nf5f5\nd3c3\n").unwrap_err();
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert!(errors[0].starts_with("line 4: "), "{errors:?}");
        let ok = parse("f5\n# c\nd3c3\n").unwrap();
        assert_eq!(ok.iter().map(|p| p.line).collect::<Vec<_>>(), [1, 3]);
    }

    #[test]
    fn the_shared_search_is_reproducible_and_reports_its_depth() {
        let boards = [Game::from_transcript("f5d6c3d3c4").unwrap().board()];
        let settings = Settings {
            eval: EvalKind::Classic,
            selective: false,
            limit: Limit::Depth(5),
        };
        let mut seen = Vec::new();
        let a = search(&boards, &settings, |i, s| seen.push((i, *s)));
        let b = search(&boards, &settings, |_, _| {});
        assert_eq!(seen.len(), 1);
        assert_eq!((a[0].nodes, a[0].depth, a[0].empties), (b[0].nodes, 5, 55));
        assert!(a[0].nodes > 0);
    }
}

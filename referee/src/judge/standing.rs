//! The judge of `referee standing`: where a game was decided, with no
//! evaluation in the judge. A game's position at `E` empties is solved
//! exactly (or only its result, `--wld`) by the library's solver; set
//! against the game's final result it says whether the game was already
//! decided there. No I/O here: the command ([`crate::commands::standing`])
//! reads the games and writes the standing file
//! ([`crate::files::standing_file`]); the tables are in
//! [`crate::stats::standing_table`].
//!
//! **The position at `E` empties** is the one the board shows at the first
//! moment it has `E` empty squares, with the side to move whose turn it
//! then is (a side that must pass has already passed, as CodinGame skips
//! it). The opening's moves count like the bots'. A game that ended (on the
//! board or by a fault) with more than `E` empties has none.

use othello::board::Board;
use othello::search::endgame::Solver;
use othello::square::Square;
use othello::time::Deadline;
use othello::{Color, Game};
use serde::{Deserialize, Serialize};
use std::time::Instant;

/// The most empties `--empties` accepts: an exact solve at 30 empties
/// takes minutes, every further empty 2-3 times as long.
pub const MAX_EMPTIES: u32 = 40;
/// Table size of the solver (2^bits entries of 24 bytes: 100 MB), per
/// thread: the solves at 24-30 empties fill a smaller one.
const SOLVER_TABLE_BITS: u32 = 22;

/// What is solved, recorded in the standing file's header: a file is
/// continued or read with the same settings only.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Settings {
    /// The counts of empties, from more to fewer, each once.
    pub empties: Vec<u32>,
    /// Only the result (win, draw or loss) is proven, not the score.
    pub wld: bool,
}

impl Settings {
    /// Settings for `empties` in any order (sorted from more to fewer,
    /// repeats dropped).
    ///
    /// # Errors
    /// None given, or a count outside `1..=`[`MAX_EMPTIES`].
    pub fn new(mut empties: Vec<u32>, wld: bool) -> Result<Settings, String> {
        if empties.is_empty() {
            return Err("--empties: give at least one count of empties".into());
        }
        if let Some(e) = empties.iter().find(|&&e| e == 0 || e > MAX_EMPTIES) {
            return Err(format!("--empties: each 1 to {MAX_EMPTIES}, found {e}"));
        }
        empties.sort_unstable_by(|a, b| b.cmp(a));
        empties.dedup();
        Ok(Settings { empties, wld })
    }

    /// One line for people: `exact scores at 24, 20 empties`.
    pub fn describe(&self) -> String {
        let what = if self.wld {
            "results (win, draw or loss)"
        } else {
            "exact scores"
        };
        let list: Vec<String> = self.empties.iter().map(u32::to_string).collect();
        format!("{what} at {} empties", list.join(", "))
    }
}

/// A game's position at some count of empties.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position {
    /// Its empties.
    pub empties: u32,
    /// The board, seen from the side to move.
    pub board: Board,
    /// The side to move.
    pub to_move: Color,
}

impl Position {
    /// The position as an OBF line (`<64 cells a1..h8> <X|O>;`), which
    /// `othello solve` reads.
    pub fn obf(&self) -> String {
        let (black, white) = match self.to_move {
            Color::Black => (self.board.player, self.board.opponent),
            Color::White => (self.board.opponent, self.board.player),
        };
        let cells: String = (0..64)
            .map(|i| match (black >> i & 1, white >> i & 1) {
                (1, _) => 'X',
                (_, 1) => 'O',
                _ => '-',
            })
            .collect();
        let side = if self.to_move == Color::Black {
            'X'
        } else {
            'O'
        };
        format!("{cells} {side};")
    }
}

/// The positions of a game at each count of `empties` it reached, in the
/// order of `empties`, and the empties left when its moves end.
///
/// # Errors
/// An opening or move that is not legal, with its place.
pub fn positions(
    opening: &str,
    moves: &[Square],
    empties: &[u32],
) -> Result<(Vec<Position>, u32), String> {
    let opening_squares = parse_opening(opening)?;
    let mut game = Game::new();
    let mut found: Vec<Position> = Vec::new();
    let mut note = |game: &Game| {
        let e = game.board().empty_count();
        if empties.contains(&e) && found.iter().all(|p| p.empties != e) {
            found.push(Position {
                empties: e,
                board: game.board(),
                to_move: game.to_move(),
            });
        }
    };
    note(&game);
    let all = opening_squares.iter().chain(moves).enumerate();
    for (i, &sq) in all {
        if game.is_over() || game.play(sq).is_err() {
            return Err(match i.checked_sub(opening_squares.len()) {
                None => format!("opening {opening:?}: move {} ({sq}) is not legal", i + 1),
                Some(k) => format!("move {} ({sq}) is not legal", k + 1),
            });
        }
        note(&game);
    }
    found.sort_by_key(|p| empties.iter().position(|&e| e == p.empties));
    Ok((found, game.board().empty_count()))
}

/// The squares of an opening transcript (`f5d6`).
fn parse_opening(opening: &str) -> Result<Vec<Square>, String> {
    let bytes = opening.trim().as_bytes();
    if !bytes.len().is_multiple_of(2) {
        return Err(format!("opening {opening:?}: an odd number of characters"));
    }
    bytes
        .chunks(2)
        .map(|pair| {
            let word = std::str::from_utf8(pair).unwrap_or("??");
            Square::parse(word).map_err(|e| format!("opening {opening:?}: {word:?}: {e}"))
        })
        .collect()
}

/// A position solved.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Solved {
    /// Black's final disc difference under perfect play from the position
    /// (empties to the winner); with `wld`, only its sign: -1, 0 or 1.
    pub score_black: i32,
    /// The solver's nodes.
    pub nodes: u64,
    /// Its time in ms.
    pub ms: f64,
}

/// The solver of one thread, with its table.
#[derive(Debug)]
pub struct StandingJudge {
    solver: Solver,
    wld: bool,
}

impl StandingJudge {
    /// A judge that proves scores, or only results with `wld`.
    pub fn new(wld: bool) -> StandingJudge {
        StandingJudge {
            solver: Solver::with_table_bits(Deadline::unlimited(), SOLVER_TABLE_BITS),
            wld,
        }
    }

    /// Forgets the last game: its table is new, so that a game's solves
    /// take the same time whatever was solved before.
    pub fn new_game(&mut self) {
        self.solver.clear();
    }

    /// Solves `p` (a finished game gives its final score).
    pub fn solve(&mut self, p: &Position) -> Solved {
        let start = Instant::now();
        let (_, score) = self
            .solver
            .solve_board(&p.board, self.wld)
            .expect("no deadline");
        let score = if self.wld { score.signum() } else { score };
        Solved {
            score_black: if p.to_move == Color::Black {
                score
            } else {
                -score
            },
            nodes: self.solver.nodes(),
            ms: (start.elapsed().as_secs_f64() * 1e4).round() / 10.0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use othello::obf;

    fn squares(moves: &str) -> Vec<Square> {
        moves
            .as_bytes()
            .chunks(2)
            .map(|p| Square::parse(std::str::from_utf8(p).unwrap()).unwrap())
            .collect()
    }

    #[test]
    fn settings_sort_and_refuse_counts_out_of_range() {
        let s = Settings::new(vec![20, 24, 20], true).unwrap();
        assert_eq!(s.empties, [24, 20]);
        assert_eq!(
            s.describe(),
            "results (win, draw or loss) at 24, 20 empties"
        );
        assert!(Settings::new(vec![0], false).is_err());
        assert!(Settings::new(vec![41], false)
            .unwrap_err()
            .contains("1 to 40"));
        assert!(Settings::new(vec![], false).is_err());
    }

    #[test]
    fn positions_are_found_in_the_opening_and_after_it_and_obf_reads_them_back() {
        let (found, left) = positions("f5d6c3", &squares("d3c4"), &[56, 58, 55, 40]).unwrap();
        assert_eq!(left, 55);
        let e: Vec<u32> = found.iter().map(|p| p.empties).collect();
        assert_eq!(e, [56, 58, 55], "40 was never reached");
        let at56 = Game::from_transcript("f5d6c3d3").unwrap();
        assert_eq!(found[0].board, at56.board());
        assert_eq!(found[0].to_move, Color::Black);
        for p in &found {
            let back = obf::parse_line(&p.obf()).unwrap().unwrap();
            assert_eq!(back.board, p.board);
        }
        assert!(found[1].obf().ends_with(" X;"), "black to move at 58");
        assert!(found[2].obf().ends_with(" O;"), "white to move at 55");
        let e = positions("f5d6", &squares("a1"), &[20]).unwrap_err();
        assert_eq!(e, "move 1 (a1) is not legal");
        assert!(positions("f5a1", &[], &[20])
            .unwrap_err()
            .contains("opening"));
        assert!(positions("f5d", &[], &[20]).is_err());
    }

    #[test]
    fn solves_agree_with_the_ffo_scores_from_either_side() {
        let text = include_str!("../../../tests/data/fforum-1-19.obf");
        let mut judge = StandingJudge::new(false);
        let mut wld = StandingJudge::new(true);
        for p in text
            .lines()
            .filter_map(|l| obf::parse_line(l).unwrap())
            .filter(|p| p.board.empty_count() <= 14)
            .take(3)
        {
            let best = p.best_score().unwrap();
            for to_move in [Color::Black, Color::White] {
                let position = Position {
                    empties: p.board.empty_count(),
                    board: p.board,
                    to_move,
                };
                let sign = if to_move == Color::Black { 1 } else { -1 };
                assert_eq!(judge.solve(&position).score_black, sign * best);
                assert_eq!(wld.solve(&position).score_black, sign * best.signum());
            }
        }
    }
}

//! The judge of `referee analyze`: the engine's own searches, run in-process
//! at settings the user picks, give every position of a game a value and
//! every move played its loss in discs. No I/O here: the command
//! ([`crate::commands::analyze`]) reads the games and writes the analysis file
//! ([`crate::files::analysis_file`]).
//!
//! **How a position is judged.** In the midgame (more empties than
//! `exact`), every legal move's child is searched to `depth - 1` plies
//! with a full window ([`AlphaBeta::value`], selective like the bot unless
//! `full_width`): the best value is the largest, the played move's value is
//! its child's, and the loss is their difference. Both come from the same
//! per-move searches, so the loss is never negative and is 0 exactly when
//! the move played is one of the judge's best. From `exact` empties down,
//! the position is solved exactly twice with one table (all moves, then the
//! played move alone, [`Solver::solve`]): the values and the loss are exact
//! final disc differences. A solve stopped by `time_ms` falls back to the
//! midgame searches for that position (recorded: `exact` false).
//!
//! One [`Judge`] serves one game at a time: its tables are new for each
//! game ([`Judge::new_game`]) and shared by the game's positions, which are
//! each other's successors. Without `time_ms` a game's analysis depends on
//! the settings and the game alone, not on the threads or the shard.

use othello::board::Board;
use othello::eval::{EvalKind, Evaluator, SCALE};
use othello::search::alphabeta::AlphaBeta;
use othello::search::endgame::Solver;
use othello::square::Square;
use othello::time::Deadline;
use othello::{Bitboard, Game};
use serde::{Deserialize, Serialize};

/// The midgame depth when `--depth` is not given: each child is searched
/// to `DEFAULT_DEPTH - 1` plies, selectively. About 30 ms of CPU per
/// position with [`DEFAULT_EXACT`] (a 1,000-game match in about 13 min on
/// 2 free cores); depth 12 took 4.2 times as long (docs/referee.md,
/// "Analysing a match").
pub const DEFAULT_DEPTH: u32 = 10;
/// Solve exactly from this many empties when `--exact` is not given: as
/// cheap as 18 on the measured games (a game's solves share their table,
/// each position the successor of the last).
pub const DEFAULT_EXACT: u32 = 20;
/// The deepest `--depth` accepted.
pub const MAX_DEPTH: u32 = 30;
/// The most empties `--exact` accepts (a solve of 30 empties takes hours).
pub const MAX_EXACT: u32 = 30;
/// Table size of the judge's midgame search (2^bits entries), per thread.
const SEARCH_TABLE_BITS: u32 = 20;
/// Table size of the judge's solver (2^bits entries), per thread.
const SOLVER_TABLE_BITS: u32 = 21;

/// The judge's settings, recorded in the analysis file's header: an
/// analysis is continued or merged only with the same ones.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Settings {
    /// Midgame depth: each child of a judged position is searched to
    /// `depth - 1` plies.
    pub depth: u32,
    /// Exact solves from this many empties down (0: never).
    pub exact: u32,
    /// Time limit of each exact solve in ms (`None`: none); a solve that
    /// runs out falls back to the midgame searches.
    pub time_ms: Option<u64>,
    /// Multi-ProbCut in the midgame searches (the bot's default).
    pub selective: bool,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            depth: DEFAULT_DEPTH,
            exact: DEFAULT_EXACT,
            time_ms: None,
            selective: true,
        }
    }
}

impl Settings {
    /// Checks the ranges.
    ///
    /// # Errors
    /// A depth of 0 or over [`MAX_DEPTH`], more than [`MAX_EXACT`] empties.
    pub fn check(&self) -> Result<(), String> {
        if self.depth == 0 || self.depth > MAX_DEPTH {
            return Err(format!("--depth: 1 to {MAX_DEPTH}, found {}", self.depth));
        }
        if self.exact > MAX_EXACT {
            return Err(format!(
                "--exact: 0 to {MAX_EXACT} empties, found {}",
                self.exact
            ));
        }
        Ok(())
    }

    /// One line for people: `depth 10 selective, exact from 20 empties`.
    pub fn describe(&self) -> String {
        let width = if self.selective {
            "selective"
        } else {
            "full width"
        };
        let exact = if self.exact == 0 {
            "no exact solves".to_string()
        } else {
            format!("exact from {} empties", self.exact)
        };
        let time = self
            .time_ms
            .map_or(String::new(), |t| format!(", solves limited to {t} ms"));
        format!("depth {} {width}, {exact}{time}", self.depth)
    }
}

/// The judge's verdict on one position and the move played there.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Verdict {
    /// The position's value for the side to move, in discs: that of its
    /// best move.
    pub value: f64,
    /// The judge's best move (the first found among equals).
    pub best: Square,
    /// The value of the move played, for the side that played it.
    pub played_value: f64,
    /// `value - played_value`: never negative.
    pub loss: f64,
    /// Whether the values are exact final disc differences.
    pub exact: bool,
}

/// A new midgame search at `settings`, its table empty.
fn midgame_search(settings: &Settings) -> AlphaBeta {
    let mut search =
        AlphaBeta::with_table_bits(Evaluator::new(EvalKind::Pattern, 0), SEARCH_TABLE_BITS);
    search.set_selective(settings.selective);
    search
}

/// The judge: a midgame search and a solver, with their tables.
#[derive(Debug)]
pub struct Judge {
    settings: Settings,
    search: AlphaBeta,
    solver: Solver,
    /// Positions judged since the judge was made.
    pub positions: u64,
}

impl Judge {
    /// A judge at `settings` (checked by [`Settings::check`]).
    pub fn new(settings: Settings) -> Judge {
        Judge {
            settings,
            search: midgame_search(&settings),
            solver: Solver::with_table_bits(Deadline::unlimited(), SOLVER_TABLE_BITS),
            positions: 0,
        }
    }

    /// Forgets the last game: new tables, so that a game's analysis does
    /// not depend on the games judged before it.
    pub fn new_game(&mut self) {
        self.search = midgame_search(&self.settings);
        self.solver.clear();
    }

    /// Judges `board` (whose side to move has a legal move) and the move
    /// `played` there.
    ///
    /// # Panics
    /// If `played` is not legal on `board`.
    pub fn judge(&mut self, board: &Board, played: Square) -> Verdict {
        assert!(board.is_legal(played), "{played} is not legal");
        self.positions += 1;
        if board.empty_count() <= self.settings.exact {
            if let Some(v) = self.solve(board, played) {
                return v;
            }
        }
        self.midgame(board, played)
    }

    /// The exact verdict, or `None` if a solve ran out of time.
    fn solve(&mut self, board: &Board, played: Square) -> Option<Verdict> {
        let deadline = || {
            self.settings
                .time_ms
                .map_or(Deadline::unlimited(), Deadline::from_now_ms)
        };
        self.solver.set_deadline(deadline());
        let best = self.solver.solve(board, board.moves(), false)?;
        let played_score = if best.best == played {
            best.score
        } else {
            self.solver.set_deadline(deadline());
            self.solver
                .solve(board, Bitboard::EMPTY.with(played), false)?
                .score
        };
        Some(Verdict {
            value: f64::from(best.score),
            best: best.best,
            played_value: f64::from(played_score),
            // Both proven: the best is at least the played move's score.
            loss: f64::from((best.score - played_score).max(0)),
            exact: true,
        })
    }

    /// The verdict of the per-move midgame searches.
    fn midgame(&mut self, board: &Board, played: Square) -> Verdict {
        let mut best: Option<(Square, i32)> = None;
        let mut played_units = 0;
        for sq in board.moves().squares() {
            let units = -self.search.value(&board.play(sq), self.settings.depth - 1);
            if sq == played {
                played_units = units;
            }
            if best.is_none_or(|(_, b)| units > b) {
                best = Some((sq, units));
            }
        }
        let (best, best_units) = best.expect("the side to move has a move");
        let discs = |units: i32| f64::from(units) / f64::from(SCALE);
        Verdict {
            value: discs(best_units),
            best,
            played_value: discs(played_units),
            loss: discs(best_units - played_units),
            exact: false,
        }
    }
}

/// The squares of a record's moves, checked legal from its opening on.
///
/// # Errors
/// A move that is not a square, or not legal, with its place.
pub fn record_squares(r: &crate::files::record::GameRecord) -> Result<Vec<Square>, String> {
    let squares = parse_squares(r)?;
    replay(&r.opening, &squares, |_, _, _| {})?;
    Ok(squares)
}

/// The squares of a record's moves, parsed but not replayed (a caller
/// that replays them with [`replay`] has them checked legal there).
///
/// # Errors
/// A move that is not a square, with its place.
pub fn parse_squares(r: &crate::files::record::GameRecord) -> Result<Vec<Square>, String> {
    r.moves
        .iter()
        .enumerate()
        .map(|(i, m)| {
            Square::parse(&m.square)
                .map_err(|_| format!("move {} ({:?}) is not a square", i + 1, m.square))
        })
        .collect()
}

/// Replays `opening` then `moves` and calls `each` with every position
/// where a move of `moves` is played: its index in `moves`, the board (the
/// side to move's view) and the square. Positions where a side must pass
/// are not visited: there is no choice to judge.
///
/// # Errors
/// An opening or move that is not legal, with its place.
pub fn replay(
    opening: &str,
    moves: &[Square],
    mut each: impl FnMut(usize, &Board, Square),
) -> Result<Game, String> {
    let mut game =
        Game::from_transcript(opening).map_err(|e| format!("opening {opening:?}: {e}"))?;
    for (i, &sq) in moves.iter().enumerate() {
        let board = game.board();
        if game.is_over() || !board.is_legal(sq) {
            return Err(format!("move {} ({sq}) is not legal", i + 1));
        }
        each(i, &board, sq);
        game.play(sq).expect("checked legal");
    }
    Ok(game)
}

#[cfg(test)]
mod tests {
    use super::*;
    use othello::obf;

    /// FFO positions (every move scored exactly) with at most `empties`
    /// empties.
    fn ffo(empties: u32) -> Vec<obf::ObfPosition> {
        let text = include_str!("../../../tests/data/fforum-1-19.obf");
        text.lines()
            .filter_map(|l| obf::parse_line(l).expect("a valid line"))
            .filter(|p| p.board.empty_count() <= empties)
            .collect()
    }

    #[test]
    fn exact_losses_are_the_differences_of_the_ffo_scores() {
        let settings = Settings {
            exact: 20,
            ..Settings::default()
        };
        let mut judge = Judge::new(settings);
        let positions = ffo(14);
        assert!(positions.len() >= 5, "FFO #1-#7 have 14 empties");
        for p in positions.iter().take(3) {
            let best = p.best_score().expect("scored moves");
            for &(sq, score) in &p.scored {
                let sq = sq.expect("no pass in these positions");
                let v = judge.judge(&p.board, sq);
                assert!(v.exact);
                assert_eq!(v.value, f64::from(best), "{sq}");
                assert_eq!(v.played_value, f64::from(score), "{sq}");
                assert_eq!(v.loss, f64::from(best - score), "{sq}");
                assert!(p.scored.contains(&(Some(v.best), best)));
            }
        }
    }

    #[test]
    fn a_game_of_best_moves_loses_nothing_and_keeps_its_exact_value() {
        let mut judge = Judge::new(Settings {
            exact: 20,
            ..Settings::default()
        });
        let start = &ffo(14)[1];
        let mut board = start.board;
        let mut value = f64::from(start.best_score().expect("scored"));
        let mut moves = 0;
        while !board.is_game_over() {
            if board.must_pass() {
                board = board.pass();
                value = -value;
                continue;
            }
            let any = board.moves().first().expect("a move");
            let best = judge.judge(&board, any).best;
            let v = judge.judge(&board, best);
            assert_eq!((v.loss, v.value, v.exact), (0.0, value, true), "{board}");
            board = board.play(best);
            value = -v.played_value;
            moves += 1;
        }
        assert!(moves >= 10);
        assert_eq!(f64::from(board.final_score()), value);
    }

    #[test]
    fn midgame_losses_are_never_negative_and_zero_for_the_judges_move() {
        let settings = Settings {
            depth: 4,
            exact: 0,
            ..Settings::default()
        };
        let mut judge = Judge::new(settings);
        let mut seen_positive = false;
        for p in ffo(16) {
            for sq in p.board.moves().squares() {
                let v = judge.judge(&p.board, sq);
                assert!(!v.exact);
                assert!(v.loss >= 0.0, "{v:?}");
                assert_eq!(v.loss, v.value - v.played_value);
                seen_positive |= v.loss > 0.0;
                let again = judge.judge(&p.board, v.best);
                assert_eq!(again.loss, 0.0, "{again:?}");
                assert_eq!(again.value, v.value);
            }
        }
        assert!(seen_positive, "some move must be worse than the best");
    }

    #[test]
    fn a_solve_out_of_time_falls_back_to_the_midgame_search() {
        let settings = Settings {
            depth: 2,
            exact: 30,
            time_ms: Some(0),
            selective: true,
        };
        let mut judge = Judge::new(settings);
        let p = &ffo(14)[0];
        let sq = p.scored[0].0.expect("a move");
        assert!(!judge.judge(&p.board, sq).exact);
    }

    #[test]
    fn replay_visits_the_moves_and_refuses_an_illegal_one() {
        let moves: Vec<Square> = ["c3", "d3"]
            .iter()
            .map(|s| Square::parse(s).unwrap())
            .collect();
        let mut seen = Vec::new();
        let game = replay("f5d6", &moves, |i, b, sq| {
            seen.push((i, b.empty_count(), sq.to_string()))
        })
        .unwrap();
        assert_eq!(seen, [(0, 58, "c3".into()), (1, 57, "d3".into())]);
        assert_eq!(game.transcript(), "f5d6c3d3");
        let e = replay("f5d6", &[Square::parse("a1").unwrap()], |_, _, _| {}).unwrap_err();
        assert_eq!(e, "move 1 (a1) is not legal");
        assert!(replay("a1", &[], |_, _, _| {}).is_err());
    }
}

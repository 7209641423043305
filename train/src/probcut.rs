//! `train probcut`: the data behind the selective solve's cut (the
//! endgame's probcut, `src/search/endgame/probcut.rs`). Positions of real
//! games near the end are solved exactly and searched by the cut's
//! shallow search to every depth from 0 to `max_depth`; the fit
//! ([`crate::probcut_fit`]) reads the errors (exact - shallow value) by
//! empties and depth.

use indicatif::ProgressBar;
use othello::game::Game;
use othello::search::endgame::calibration::{check_board, Checked};
use othello::search::endgame::{shallow_value, Solver, SOLVE_TABLE_BITS};
use othello::time::Deadline;
use othello::{Board, Square};
use std::collections::HashSet;
use std::fmt::Write as _;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// One measured position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    /// The position, side to move first (it has a move).
    pub board: Board,
    /// The exact final disc difference for the side to move.
    pub exact: i32,
    /// The shallow search's values at depths 0, 1, ..., in 1/256 discs.
    pub values: Vec<i32>,
}

impl Row {
    /// The position's empty squares.
    pub fn empties(&self) -> u32 {
        self.board.empty_count()
    }
}

/// The distinct positions of `games` (transcripts) with `range` empties
/// whose side to move has a move, in the games' order.
///
/// # Errors
/// A transcript that does not replay, by game and move.
pub fn positions(games: &[String], range: (u32, u32)) -> Result<Vec<Board>, String> {
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for (g, transcript) in games.iter().enumerate() {
        let mut game = Game::new();
        let bytes = transcript.as_bytes();
        for k in 0..=bytes.len() / 2 {
            let board = game.board();
            let e = board.empty_count();
            if (range.0..=range.1).contains(&e) && !board.moves().is_empty() && seen.insert(board) {
                out.push(board);
            }
            if 2 * k + 2 > bytes.len() || e < range.0 || game.is_over() {
                break;
            }
            let word = &transcript[2 * k..2 * k + 2];
            let sq =
                Square::parse(word).map_err(|e| format!("game {}: move {}: {e}", g + 1, k + 1))?;
            game.play(sq)
                .map_err(|e| format!("game {}: move {}: {e}", g + 1, k + 1))?;
        }
    }
    Ok(out)
}

/// Solves and measures `boards` on `threads` threads, calling `done` with
/// each row as it is finished (in any order); `bar` counts positions.
pub fn measure(
    boards: &[Board],
    max_depth: u32,
    threads: usize,
    bar: &ProgressBar,
    done: &(dyn Fn(Row) + Sync),
) {
    let next = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1) {
            scope.spawn(|| {
                let mut solver = Solver::with_table_bits(Deadline::unlimited(), SOLVE_TABLE_BITS);
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&board) = boards.get(i) else { break };
                    done(measure_one(&mut solver, &board, max_depth));
                    bar.inc(1);
                }
            });
        }
    });
}

/// One position's row.
pub fn measure_one(solver: &mut Solver, board: &Board, max_depth: u32) -> Row {
    let exact = solver
        .solve(board, board.moves(), false)
        .expect("no deadline")
        .score;
    let values = (0..=max_depth).map(|d| shallow_value(board, d)).collect();
    Row {
        board: *board,
        exact,
        values,
    }
}

/// `rows` with the same positions and exact scores and their shallow
/// values (as many depths as each had) searched again with the compiled
/// evaluation, in order, on `threads` threads; `bar` counts rows.
pub fn revalue(rows: &[Row], threads: usize, bar: &ProgressBar) -> Vec<Row> {
    crate::parallel::map_in_order(rows, threads, bar, |r| Row {
        values: (0..r.values.len() as u32)
            .map(|d| shallow_value(&r.board, d))
            .collect(),
        ..r.clone()
    })
}

/// One line per row: player and opponent in hex, the exact score, then
/// the values.
pub fn to_line(r: &Row) -> String {
    let mut s = format!(
        "{:016x} {:016x} {}",
        r.board.player, r.board.opponent, r.exact
    );
    for v in &r.values {
        write!(s, " {v}").unwrap();
    }
    s
}

/// Reads [`to_line`]'s lines (blank lines and `#` comments skipped).
///
/// # Errors
/// The first malformed line, by number.
pub fn from_text(text: &str) -> Result<Vec<Row>, String> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let bad = |what: &str| format!("line {}: {what}: {line:?}", i + 1);
        let mut words = line.split_whitespace();
        let mut hex = || {
            words
                .next()
                .and_then(|w| u64::from_str_radix(w, 16).ok())
                .ok_or_else(|| bad("expected two hex bitboards"))
        };
        let (p, o) = (hex()?, hex()?);
        if p & o != 0 {
            return Err(bad("overlapping discs"));
        }
        let exact: i32 = words
            .next()
            .and_then(|w| w.parse().ok())
            .filter(|s: &i32| (-64..=64).contains(s))
            .ok_or_else(|| bad("expected an exact score in -64..64"))?;
        let values = words
            .map(|w| w.parse().map_err(|_| bad("expected integer values")))
            .collect::<Result<Vec<i32>, _>>()?;
        if values.is_empty() {
            return Err(bad("no values"));
        }
        out.push(Row {
            board: Board::new(p, o),
            exact,
            values,
        });
    }
    Ok(out)
}

/// Appends rows to a file as they come (a run resumes from it).
pub struct Appender {
    file: Mutex<std::fs::File>,
    /// The first write error, if any.
    pub error: Mutex<Option<String>>,
}

impl Appender {
    /// Opens `path` for appending.
    ///
    /// # Errors
    /// The file cannot be opened.
    pub fn open(path: &std::path::Path) -> Result<Appender, String> {
        let file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        Ok(Appender {
            file: Mutex::new(file),
            error: Mutex::new(None),
        })
    }

    /// Appends one row's line.
    pub fn push(&self, row: &Row) {
        use std::io::Write;
        let mut f = self.file.lock().expect("no panics");
        if let Err(e) = writeln!(f, "{}", to_line(row)) {
            self.error
                .lock()
                .expect("no panics")
                .get_or_insert(e.to_string());
        }
    }
}

/// The calibration check (`othello::search::endgame::calibration`) on
/// each of `boards`, spread over `threads` threads: per pass of `cuts`,
/// the tallies of every board added up; at most `per_pass` decisions of
/// each board and pass are verified, drawn with `seed` and the board's
/// index. `bar` counts boards.
pub fn check(
    boards: &[Board],
    cuts: &[i32],
    per_pass: usize,
    seed: u64,
    threads: usize,
    bar: &ProgressBar,
) -> Vec<Checked> {
    let next = AtomicUsize::new(0);
    let results = Mutex::new(vec![Checked::default(); cuts.len()]);
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1) {
            scope.spawn(|| {
                let mut selective = Solver::with_table_bits(Deadline::unlimited(), 20);
                let mut exact = Solver::with_table_bits(Deadline::unlimited(), SOLVE_TABLE_BITS);
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(board) = boards.get(i) else { break };
                    let mut rng = othello::rng::Rng::seed_from_u64(seed ^ i as u64);
                    let tallies =
                        check_board(&mut selective, &mut exact, board, cuts, per_pass, &mut rng);
                    let mut all = results.lock().expect("no panics");
                    for (sum, t) in all.iter_mut().zip(&tallies) {
                        sum.add(t);
                    }
                    bar.inc(1);
                }
            });
        }
    });
    results.into_inner().expect("no panics")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_round_trip_and_bad_lines_are_named() {
        let rows = vec![
            Row {
                board: Board::start(),
                exact: 0,
                values: vec![0, -12, 300],
            },
            Row {
                board: Board::start().play(Square::new(19)),
                exact: -4,
                values: vec![5, 6, 7],
            },
        ];
        let text: String = rows.iter().map(|r| to_line(r) + "\n").collect();
        assert_eq!(from_text(&text).unwrap(), rows);
        let err = from_text("# c\n0000000810000000 0000001008000000 1 2\nzz 1 2\n").unwrap_err();
        assert!(err.starts_with("line 3:"), "{err}");
        let err = from_text("0000000810000000 0000001008000000 70 2\n").unwrap_err();
        assert!(err.contains("exact score"), "{err}");
    }

    #[test]
    fn positions_are_distinct_with_a_move_in_range() {
        let game = "f5f6f7f4f3d6e6g3c5g6g4f2e3h5c7e8h6c6c4e7d8d7f8b5b4e2g5h7a5c8b8d3c3b6d2a4a3g7b3h4a6c1e1b2";
        let games = vec![game.to_string(), game.to_string()];
        let boards = positions(&games, (20, 22)).unwrap();
        assert_eq!(boards.len(), 3);
        assert!(boards.iter().all(|b| (20..=22).contains(&b.empty_count())));
        let e = positions(&["f5f5".to_string()], (55, 60)).unwrap_err();
        assert!(e.contains("game 1: move 2"), "{e}");
    }

    #[test]
    fn a_row_holds_the_exact_score_and_the_shallow_values() {
        let game = "f5f6f7f4f3d6e6g3c5g6g4f2e3h5c7e8h6c6c4e7d8d7f8b5b4e2g5h7a5c8b8d3c3b6d2a4a3g7b3h4a6c1e1b2";
        let board = Game::from_transcript(&game[..2 * 42]).unwrap().board();
        let mut solver = Solver::with_table_bits(Deadline::unlimited(), 12);
        let row = measure_one(&mut solver, &board, 2);
        let mut fresh = Solver::with_table_bits(Deadline::unlimited(), 12);
        assert_eq!(
            row.exact,
            fresh.solve(&board, board.moves(), false).unwrap().score
        );
        assert_eq!(row.values[0], othello::eval::pattern::evaluate(&board));
        // Depth 1: the best child by its (negated) evaluation.
        let best = board
            .moves()
            .squares()
            .map(|sq| -othello::eval::pattern::evaluate(&board.play(sq)))
            .max()
            .unwrap();
        assert_eq!(row.values[1], best);
    }

    #[test]
    fn revaluing_searches_every_row_again_in_order_and_keeps_its_exact_score() {
        let game = "f5f6f7f4f3d6e6g3c5g6g4f2e3h5c7e8h6c6c4e7d8d7f8b5b4e2g5h7a5c8b8d3c3b6d2a4a3g7b3h4a6c1e1b2";
        let rows: Vec<Row> = positions(&[game.to_string()], (18, 30))
            .unwrap()
            .into_iter()
            .enumerate()
            .map(|(i, board)| Row {
                board,
                exact: i as i32 - 5,
                values: vec![9999; 1 + i % 3],
            })
            .collect();
        assert!(rows.len() > 8);
        let bar = ProgressBar::hidden();
        let again = revalue(&rows, 3, &bar);
        assert_eq!(again.len(), rows.len());
        for (r, a) in rows.iter().zip(&again) {
            assert_eq!((a.board, a.exact), (r.board, r.exact));
            let fresh: Vec<i32> = (0..r.values.len() as u32)
                .map(|d| shallow_value(&r.board, d))
                .collect();
            assert_eq!(a.values, fresh);
        }
    }
}

//! `othello solve` and `othello playouts` as library calls: text in, lines
//! out through a callback, an exit status back. The binary reads the files
//! and prints the lines.
//!
//! The CodinGame submission leaves these tools' machinery out (the OBF
//! parser, the suite runner, the Monte Carlo kernels: docs/bundle.md). There
//! each call answers with one error line and [`EXIT_USAGE`], so that the
//! binary's source is the same in both builds.

use crate::cli::{PlayoutsOptions, SolveOptions};

/// Exit status: every answer was right.
pub const EXIT_OK: u8 = 0;
/// Exit status of `solve`: an answer contradicts the file's scores.
pub const EXIT_WRONG: u8 = 1;
/// Exit status: malformed input (the other positions are still solved), or
/// a tool the build does not have.
pub const EXIT_USAGE: u8 = 2;

/// One line of a tool's report.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Output {
    /// A result line (for standard output).
    Line(String),
    /// An error line (for standard error).
    Error(String),
}

/// Solves each position of the OBF text `text` (exactly, or win/draw/loss
/// with `--wld`), reporting one line per position (see [`crate::suite`]).
/// Returns [`EXIT_USAGE`] if a line is malformed, else [`EXIT_WRONG`] if an
/// answer contradicts the file, else [`EXIT_OK`].
#[cfg(not(cargo_equip))]
pub fn solve(options: &SolveOptions, text: &str, emit: &mut dyn FnMut(Output)) -> u8 {
    use crate::search::endgame::{Solver, SOLVE_TABLE_BITS};
    use crate::time::Deadline;
    let mut solver = Solver::with_table_bits(Deadline::unlimited(), SOLVE_TABLE_BITS);
    let summary = crate::suite::run(text, options.wld, options.time_ms, &mut solver, emit);
    if summary.malformed > 0 {
        EXIT_USAGE
    } else if summary.wrong > 0 {
        EXIT_WRONG
    } else {
        EXIT_OK
    }
}

/// `othello playouts`: random games after each legal move as an 8x8 table,
/// or (`--speed`) random playouts per second of each kernel.
#[cfg(not(cargo_equip))]
pub fn playouts(options: &PlayoutsOptions, emit: &mut dyn FnMut(Output)) -> u8 {
    use crate::playouts::{self as po, DEFAULT_GAMES, DEFAULT_SPEED_GAMES};
    use crate::search::playout::Playouts;
    let board = options.game.board();
    if options.speed {
        let games = options.games.unwrap_or(DEFAULT_SPEED_GAMES);
        emit(Output::Line("random playouts, one thread".to_string()));
        for runner in [Playouts::portable(), Playouts::new()] {
            for interleaved in [false, true] {
                emit(Output::Line(
                    po::speed(&board, games, runner, interleaved).to_string(),
                ));
            }
        }
    } else {
        let games = options.games.unwrap_or(DEFAULT_GAMES);
        let stats = po::move_table(&board, games, options.seed);
        for line in po::format_table(&options.game, &stats).lines() {
            emit(Output::Line(line.to_string()));
        }
    }
    EXIT_OK
}

/// The submission's `solve`: not built in.
#[cfg(cargo_equip)]
pub fn solve(_options: &SolveOptions, _text: &str, emit: &mut dyn FnMut(Output)) -> u8 {
    emit(Output::Error(NOT_IN_SUBMISSION.to_string()));
    EXIT_USAGE
}

/// The submission's `playouts`: not built in.
#[cfg(cargo_equip)]
pub fn playouts(_options: &PlayoutsOptions, emit: &mut dyn FnMut(Output)) -> u8 {
    emit(Output::Error(NOT_IN_SUBMISSION.to_string()));
    EXIT_USAGE
}

/// What the submission's tools say.
#[cfg(cargo_equip)]
const NOT_IN_SUBMISSION: &str =
    "this tool is not part of the CodinGame submission; build the crate (cargo build --release)";

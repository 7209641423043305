//! `othello solve`: solving the positions of an OBF suite and the text of
//! its report. The caller reads the file and prints the lines.
//!
//! One line per position, in file order:
//! `<n> <best move> <signed score> <nodes> <ms> [ok | wrong (file: ...)]`,
//! where `n` counts the file's positions from 1 (malformed lines count
//! too, so the numbers stay those of the file; blank and comment lines do
//! not). With `--wld` the score is -1, 0 or +1. A position the time budget
//! cannot solve gives `<n> none timeout <nodes> <ms>`. The last line is
//! `total <positions> <nodes> <ms>`, followed by the speed and the counts
//! of wrong, malformed and timed-out positions.

use othello::board::Move;
use othello::obf;
use othello::search::endgame::Solver;
use othello::time::Deadline;
use std::time::{Duration, Instant};

/// One line of the report.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Output {
    /// A result line (for standard output).
    Line(String),
    /// An error line (for standard error).
    Error(String),
}

/// Counts over the whole suite.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Positions solved or attempted.
    pub positions: usize,
    /// Nodes of all solves.
    pub nodes: u64,
    /// Malformed lines.
    pub malformed: usize,
    /// Answers that contradict the scores listed in the file.
    pub wrong: usize,
    /// Positions the budget could not solve.
    pub timeouts: usize,
}

/// The most empties solved without `--time-ms`: FFO #59 (34 empties) takes
/// minutes; every further empty multiplies the work by about 3-4, so a
/// position much earlier would run for days.
pub const MAX_UNBOUNDED_EMPTIES: u32 = 36;

/// Solves every position of the OBF `text`, calling `emit` with each line
/// of the report as soon as it is known. `time_ms` bounds each solve;
/// without it, a position of more than [`MAX_UNBOUNDED_EMPTIES`] empties is
/// refused (an error line, counted as malformed).
pub fn run(
    text: &str,
    wld: bool,
    time_ms: Option<u64>,
    solver: &mut Solver,
    mut emit: impl FnMut(Output),
) -> Summary {
    let mut summary = Summary::default();
    let start = Instant::now();
    for (i, line) in text.lines().enumerate() {
        let position = match obf::parse_line(line) {
            Ok(None) => continue,
            Ok(Some(p)) => p,
            Err(e) => {
                summary.positions += 1;
                summary.malformed += 1;
                emit(Output::Error(format!("line {}: {e}", i + 1)));
                continue;
            }
        };
        summary.positions += 1;
        let n = summary.positions;
        let empties = position.board.empty_count();
        if time_ms.is_none() && empties > MAX_UNBOUNDED_EMPTIES {
            summary.malformed += 1;
            emit(Output::Error(format!(
                "line {}: {empties} empties cannot be solved without a time limit (at most \
                 {MAX_UNBOUNDED_EMPTIES}); bound it with --time-ms T",
                i + 1
            )));
            continue;
        }
        let t0 = Instant::now();
        solver.set_deadline(match time_ms {
            Some(ms) => Deadline::new(t0, Duration::from_millis(ms)),
            None => Deadline::unlimited(),
        });
        let result = solver.solve_board(&position.board, wld);
        let ms = t0.elapsed().as_secs_f64() * 1e3;
        let nodes = solver.nodes();
        summary.nodes += nodes;
        let Some((best, score)) = result else {
            summary.timeouts += 1;
            emit(Output::Line(format!("{n} none timeout {nodes} {ms:.1}")));
            continue;
        };
        let verdict = match verdict(&position, best, score, wld) {
            None => String::new(),
            Some(Ok(())) => " ok".to_string(),
            Some(Err(expected)) => {
                summary.wrong += 1;
                format!(" wrong (file: {expected})")
            }
        };
        let text = best.to_string().to_lowercase();
        emit(Output::Line(format!(
            "{n} {text} {score:+} {nodes} {ms:.1}{verdict}"
        )));
    }
    let ms = start.elapsed().as_secs_f64() * 1e3;
    emit(Output::Line(format!(
        "total {} {} {ms:.1} ({:.2} Mnodes/s, {} wrong, {} malformed, {} timed out)",
        summary.positions,
        summary.nodes,
        summary.nodes as f64 / ms.max(1e-3) / 1e3,
        summary.wrong,
        summary.malformed,
        summary.timeouts
    )));
    summary
}

/// Whether the answer agrees with the file's scored moves: `None` if the
/// file lists none, else `Ok` or the file's best score and moves.
fn verdict(
    position: &obf::ObfPosition,
    best: Move,
    score: i32,
    wld: bool,
) -> Option<Result<(), String>> {
    let top = position.best_score()?;
    let square = match best {
        Move::Play(sq) => Some(sq),
        Move::Pass => None,
    };
    let listed = position
        .scored
        .iter()
        .find(|&&(sq, _)| sq == square)
        .map(|&(_, s)| s);
    let good = if wld {
        score == top.signum() && listed.is_some_and(|s| s.signum() == top.signum())
    } else {
        score == top && listed == Some(top)
    };
    if good {
        return Some(Ok(()));
    }
    let names: Vec<String> = position
        .scored
        .iter()
        .filter(|&&(_, s)| s == top)
        .map(|&(sq, _)| sq.map_or("pass".to_string(), |q| q.to_string()))
        .collect();
    Some(Err(format!("{top:+} {}", names.join(" "))))
}

#[cfg(test)]
mod tests {
    use super::*;

    const FFORUM_1_19: &str = include_str!("../../../../tests/data/fforum-1-19.obf");

    fn solver() -> Solver {
        Solver::with_table_bits(Deadline::unlimited(), 20)
    }

    #[test]
    fn a_malformed_line_is_reported_with_its_number_and_the_rest_solved() {
        let mut lines: Vec<&str> = FFORUM_1_19.lines().take(3).collect();
        lines.insert(1, "this is not a position");
        let text = lines.join("\n");
        let mut out = Vec::new();
        let summary = run(&text, false, None, &mut solver(), |o| out.push(o));
        assert_eq!(
            (summary.positions, summary.malformed, summary.wrong),
            (4, 1, 0)
        );
        assert!(matches!(&out[1], Output::Error(e) if e.starts_with("line 2:")));
        let Output::Line(first) = &out[0] else {
            panic!("{out:?}")
        };
        let fields: Vec<&str> = first.split_whitespace().collect();
        assert_eq!(&fields[..3], ["1", "g8", "+18"]);
        assert!(first.ends_with(" ok"), "{first}");
        assert!(matches!(out.last(), Some(Output::Line(t)) if t.starts_with("total 4 ")));
    }

    /// An early position without a time limit is refused, naming its line;
    /// with `--time-ms` it is tried (and times out).
    #[test]
    fn an_early_position_needs_a_time_limit() {
        let start = "---------------------------OX------XO--------------------------- X;";
        let text = format!("{}\n{start}\n", FFORUM_1_19.lines().next().unwrap());
        let mut out = Vec::new();
        let summary = run(&text, false, None, &mut solver(), |o| out.push(o));
        assert_eq!((summary.positions, summary.malformed), (2, 1));
        assert!(
            matches!(&out[1], Output::Error(e) if e.starts_with("line 2: 60 empties") && e.contains("--time-ms")),
            "{out:?}"
        );
        let mut out = Vec::new();
        let summary = run(&text, false, Some(20), &mut solver(), |o| out.push(o));
        // The start position times out; whether FFO #1 is solved in 20 ms
        // depends on the machine's load, so it is not asserted.
        assert_eq!(summary.malformed, 0);
        assert!(
            matches!(&out[1], Output::Line(l) if l.starts_with("2 none timeout")),
            "{out:?}"
        );
    }
}

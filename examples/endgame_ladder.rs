//! How long exact and WLD solves take by number of empties: the measurement
//! behind the bot's `EXACT_EMPTIES` and `WLD_EMPTIES` (docs/endgame.md).
//!
//! Each position of the given OBF files is played down, by a depth-4
//! alpha-beta, to every smaller number of empties; each position met is
//! then solved from a cold table (the bot's table is warm: this is the
//! pessimistic case), exact and WLD, with a cap per solve.
//!
//! `cargo run --release --example endgame_ladder -- tests/data/fforum-1-19.obf tests/data/fforum-20-39.obf`

use othello::eval::{EvalKind, Evaluator};
use othello::obf;
use othello::search::alphabeta::AlphaBeta;
use othello::search::endgame::{Solver, DEFAULT_TABLE_BITS};
use othello::search::{Limits, Strategy};
use othello::time::Deadline;
use othello::Board;
use std::collections::BTreeMap;
use std::time::Instant;

/// Depth of the search that plays the positions down.
const LINE_DEPTH: u32 = 4;
/// Fewest empties measured.
const MIN_EMPTIES: u32 = 8;
/// Cap of one solve, in ms: a solve over it counts as "over".
const CAP_MS: u64 = 2000;

fn main() {
    let mut by_empties: BTreeMap<u32, Vec<Board>> = BTreeMap::new();
    for file in std::env::args().skip(1) {
        let text = std::fs::read_to_string(&file).unwrap_or_else(|e| {
            eprintln!("endgame_ladder: {file}: {e}");
            std::process::exit(2)
        });
        for (i, line) in text.lines().enumerate() {
            let position = match obf::parse_line(line) {
                Ok(Some(p)) => p,
                Ok(None) => continue,
                Err(e) => {
                    eprintln!("endgame_ladder: {file}: line {}: {e}", i + 1);
                    std::process::exit(2)
                }
            };
            let mut board = position.board;
            let mut search = AlphaBeta::new(Evaluator::new(EvalKind::Classic, 0));
            search.set_exact_empties(0);
            while board.empty_count() >= MIN_EMPTIES && !board.is_game_over() {
                if board.moves().is_empty() {
                    board = board.pass();
                }
                let moves = board.moves();
                by_empties
                    .entry(board.empty_count())
                    .or_default()
                    .push(board);
                let r = search.choose(&board, moves, &Limits::depth(LINE_DEPTH));
                board = board.play(r.best);
            }
        }
    }
    println!("empties positions | exact: median max over | wld: median max over  (ms)");
    for (empties, boards) in &by_empties {
        let exact = measure(boards, false);
        let wld = measure(boards, true);
        println!(
            "{empties:7} {:9} | {:7.1} {:7.1} {:4} | {:7.1} {:7.1} {:4}",
            boards.len(),
            exact.0,
            exact.1,
            exact.2,
            wld.0,
            wld.1,
            wld.2
        );
    }
}

/// Median and maximum solve time in ms, and how many went over the cap.
fn measure(boards: &[Board], wld: bool) -> (f64, f64, usize) {
    let mut times = Vec::new();
    let mut over = 0;
    let mut solver = Solver::with_table_bits(Deadline::unlimited(), DEFAULT_TABLE_BITS);
    for board in boards {
        // An empty table for each solve: the cold, pessimistic case.
        solver.clear();
        solver.set_deadline(Deadline::from_now_ms(CAP_MS));
        let t0 = Instant::now();
        if solver.solve(board, board.moves(), wld).is_none() {
            over += 1;
        }
        times.push(t0.elapsed().as_secs_f64() * 1e3);
    }
    times.sort_by(f64::total_cmp);
    (times[times.len() / 2], times[times.len() - 1], over)
}

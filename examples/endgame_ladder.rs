//! How long exact, WLD and selective solves take by number of empties, from
//! a cold table (`endgame_turns` measures the bot's warm case), with how
//! often the selective solve's score is the exact one (docs/endgame.md).
//!
//! Each position of the given sets (see `common/playdown.rs`: OBF files
//! played down by a depth-4 alpha-beta, or recorded games) is solved from a
//! cold table (the bot's table is warm: this is the pessimistic case),
//! exact, WLD and selective, with a cap per solve.
//!
//! `cargo run --release --example endgame_ladder -- tests/data/late-games.txt [--cut N] [--min E] [--max E]`
//! `cargo run --release --example endgame_ladder -- tests/data/fforum-1-19.obf tests/data/fforum-20-39.obf`

use othello::search::alphabeta::SELECTIVE_CUT;
use othello::search::endgame::{Solver, DEFAULT_TABLE_BITS};
use othello::time::Deadline;
use othello::Board;
use std::time::Instant;

#[path = "common/flags.rs"]
mod flags;
#[path = "common/playdown.rs"]
mod playdown;
use flags::number_flag;
use playdown::played_down;

/// Fewest and most empties measured (by default; `--min`, `--max`).
const MIN_EMPTIES: u32 = 8;
const MAX_EMPTIES: u32 = 26;
/// Cap of one solve, in ms: a solve over it counts as "over".
const CAP_MS: u64 = 2000;

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    // `--cut N`: the selective solve's threshold (default the bot's).
    let cut = number_flag("endgame_ladder", &mut args, "--cut", SELECTIVE_CUT.into()) as i32;
    let min = number_flag("endgame_ladder", &mut args, "--min", MIN_EMPTIES.into()) as u32;
    let max = number_flag("endgame_ladder", &mut args, "--max", MAX_EMPTIES.into()) as u32;
    let by_empties = played_down("endgame_ladder", &args, min, max);
    println!(
        "empties positions | exact: median    max  over | wld: median    max  over \
         | selective: median    max  over  same  (ms)"
    );
    for (empties, boards) in &by_empties {
        let exact = measure(boards, Some(false), cut);
        let wld = measure(boards, Some(true), cut);
        let selective = measure(boards, None, cut);
        // Selective scores equal to the exact ones (both finished).
        let same = exact
            .3
            .iter()
            .zip(&selective.3)
            .filter(|(e, s)| e.is_some() && e == s)
            .count();
        println!(
            "{empties:7} {:9} | {:7.1} {:7.1} {:4} | {:7.1} {:7.1} {:4} | {:7.1} {:7.1} {:4} {:4.0}%",
            boards.len(),
            exact.0,
            exact.1,
            exact.2,
            wld.0,
            wld.1,
            wld.2,
            selective.0,
            selective.1,
            selective.2,
            100.0 * same as f64 / boards.len() as f64
        );
    }
}

/// Median and maximum solve time in ms, how many went over the cap, and
/// each score. `Some(wld)`: an exact or WLD solve; `None`: a selective
/// solve cutting at `cut`.
fn measure(boards: &[Board], wld: Option<bool>, cut: i32) -> (f64, f64, usize, Vec<Option<i32>>) {
    let mut times = Vec::new();
    let mut scores = Vec::new();
    let mut over = 0;
    let mut solver = Solver::with_table_bits(Deadline::unlimited(), DEFAULT_TABLE_BITS);
    for board in boards {
        // An empty table for each solve: the cold, pessimistic case.
        solver.clear();
        solver.set_deadline(Deadline::from_now_ms(CAP_MS));
        let t0 = Instant::now();
        let solution = match wld {
            Some(wld) => solver.solve(board, board.moves(), wld),
            None => solver.solve_selective(board, board.moves(), cut),
        };
        times.push(t0.elapsed().as_secs_f64() * 1e3);
        if solution.is_none() {
            over += 1;
        }
        scores.push(solution.map(|s| s.score));
    }
    times.sort_by(f64::total_cmp);
    (times[times.len() / 2], times[times.len() - 1], over, scores)
}

//! How far the pattern evaluation, and shallow searches with it, miss the
//! exact final score near the end: the standard deviation of (exact score -
//! value at depth d) by number of empties, behind the selective endgame
//! search's cut margins (`endgame::PROBCUT_*`, docs/endgame.md).
//!
//! Each position of the given OBF files is played down by a depth-4
//! alpha-beta; every position met with at most `MAX_EMPTIES` empties is
//! solved exactly and searched to depths 0, 1, 2 and 4.
//!
//! `cargo run --release --example endgame_sigma -- tests/data/fforum-1-19.obf tests/data/fforum-20-39.obf tests/data/fforum-40-59.obf`

use othello::eval::{EvalKind, Evaluator, SCALE};
use othello::search::alphabeta::AlphaBeta;
use othello::search::endgame::Solver;
use othello::time::Deadline;

#[path = "common/playdown.rs"]
mod playdown;
use playdown::played_down;

/// Fewest and most empties measured.
const MIN_EMPTIES: u32 = 8;
const MAX_EMPTIES: u32 = 22;
/// The shallow depths measured.
const DEPTHS: [u32; 4] = [0, 1, 2, 4];

fn main() {
    let files: Vec<String> = std::env::args().skip(1).collect();
    let by_empties = played_down("endgame_sigma", &files, MIN_EMPTIES, MAX_EMPTIES);
    let mut solver = Solver::new(Deadline::unlimited());
    let mut search = AlphaBeta::new(Evaluator::new(EvalKind::Pattern, 0));
    search.set_exact_empties(0);
    print!("empties positions |");
    for d in DEPTHS {
        print!(" sigma d{d} (mean)");
    }
    println!("   (discs)");
    for (empties, boards) in &by_empties {
        let mut sums = [(0.0f64, 0.0f64); DEPTHS.len()];
        for board in boards {
            let exact = solver.solve_board(board, false).expect("no deadline").1 as f64;
            for (k, &d) in DEPTHS.iter().enumerate() {
                let v = search.value(board, d) as f64 / SCALE as f64;
                sums[k].0 += exact - v;
                sums[k].1 += (exact - v) * (exact - v);
            }
        }
        let n = boards.len() as f64;
        print!("{empties:7} {:9} |", boards.len());
        for (s, s2) in sums {
            let mean = s / n;
            print!(" {:8.2} ({:+5.2})", (s2 / n - mean * mean).sqrt(), mean);
        }
        println!();
    }
}

//! Which late search picks better moves: the selective solve
//! (`Solver::solve_selective`) against the bot's midgame search with the
//! same time. At every position of the given sets (see
//! `common/playdown.rs`: OBF files played down, or recorded games) with
//! `MIN_EMPTIES` to `MAX_EMPTIES` empties, each search picks a move, and the
//! move is scored by exact solves: its loss is the best exact score minus
//! the move's.
//!
//! `cargo run --release --example endgame_choice -- tests/data/late-games.txt [--cut N] [--ms T]`
//!
//! `--cut N`: the selective solve's threshold in hundredths of a standard
//! deviation (default the bot's `SELECTIVE_CUT`); `--ms T`: the time of each
//! search (default 60, the solve's share of the bot's 100 ms). A selective
//! solve that does not finish in time counts as "over" and its move is the
//! midgame search's, as in the bot (which would have only the rest of its
//! budget for it: this table does not charge that).

use othello::eval::{EvalKind, Evaluator};
use othello::search::alphabeta::{AlphaBeta, SELECTIVE_CUT};
use othello::search::endgame::Solver;
use othello::search::{Limits, Strategy};
use othello::time::Deadline;
use othello::Square;

#[path = "common/flags.rs"]
mod flags;
#[path = "common/playdown.rs"]
mod playdown;
use flags::number_flag;
use playdown::played_down;

/// Fewest and most empties measured.
const MIN_EMPTIES: u32 = 18;
const MAX_EMPTIES: u32 = 20;

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let cut = number_flag("endgame_choice", &mut args, "--cut", SELECTIVE_CUT.into()) as i32;
    let ms = number_flag("endgame_choice", &mut args, "--ms", 60) as u64;
    let by_empties = played_down("endgame_choice", &args, MIN_EMPTIES, MAX_EMPTIES);
    println!("cut {cut}, {ms} ms a search; loss in discs against perfect play");
    println!("empties positions | selective: over mean loss  best% | midgame: mean loss  best%");
    let mut judge = Solver::new(Deadline::unlimited());
    let mut selective = Solver::new(Deadline::unlimited());
    let mut midgame = AlphaBeta::new(Evaluator::new(EvalKind::Pattern, 0));
    midgame.set_exact_empties(0);
    for (empties, boards) in &by_empties {
        let (mut over, mut sel, mut mid) = (0, Vec::new(), Vec::new());
        for board in boards {
            let moves = board.moves();
            let best = judge.solve(board, moves, false).expect("unlimited").score;
            let loss = |judge: &mut Solver, sq: Square| {
                let child = board.play(sq);
                let (_, s) = judge.solve_board(&child, false).expect("unlimited");
                best + s
            };
            let m = midgame
                .choose(board, moves, &Limits::time(Deadline::from_now_ms(ms)))
                .best;
            selective.set_deadline(Deadline::from_now_ms(ms));
            let s = match selective.solve_selective(board, moves, cut) {
                Some(s) => s.best,
                None => {
                    over += 1;
                    m
                }
            };
            sel.push(loss(&mut judge, s));
            mid.push(loss(&mut judge, m));
        }
        let stats = |v: &[i32]| {
            let mean = v.iter().sum::<i32>() as f64 / v.len() as f64;
            let best = v.iter().filter(|&&l| l == 0).count() as f64 / v.len() as f64;
            (mean, 100.0 * best)
        };
        let (s, m) = (stats(&sel), stats(&mid));
        println!(
            "{empties:7} {:9} | {over:4} {:9.2} {:5.0}% | {:9.2} {:5.0}%",
            boards.len(),
            s.0,
            s.1,
            m.0,
            m.1
        );
    }
}

//! How long the bot's late solves take in play, where each side keeps its
//! solver (and its table) from one turn to the next: the warm counterpart
//! of `endgame_ladder` (cold), the measurement behind the bot's solve
//! thresholds (docs/endgame.md).
//!
//! Each recorded game (one transcript a line, `tests/data/late-games.txt`)
//! is replayed from `--from` empties (default 24) to its end; every
//! position on the way is solved by the side to move with its own solver:
//! exact at `--exact` empties or fewer (default the bot's, with its passes
//! and their fallback, `Solver::solve_passes`), WLD up to `--wld` (default
//! none), selective at `--cut` (default the bot's) up to `--selective`
//! empties. Each solve is capped at `--cap-ms` (default 2000) and counted
//! as proven, a selective result (a pass's, or the selective solve's), or
//! none; `--budget-ms` (default 60) sets the column of solves over it.
//!
//! `cargo run --release --example endgame_turns -- tests/data/late-games.txt --exact 20 --selective 24`

use othello::game::{Color, Game};
use othello::search::alphabeta::{EXACT_EMPTIES, SELECTIVE_CUT, SELECTIVE_EMPTIES};
use othello::search::endgame::Solver;
use othello::time::Deadline;
use othello::Square;
use std::collections::BTreeMap;
use std::time::Instant;

#[path = "common/flags.rs"]
mod flags;
use flags::number_flag;

const TOOL: &str = "endgame_turns";

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let from = number_flag(TOOL, &mut args, "--from", 24) as u32;
    let exact = number_flag(TOOL, &mut args, "--exact", EXACT_EMPTIES.into()) as u32;
    let wld = number_flag(TOOL, &mut args, "--wld", 0) as u32;
    let selective = number_flag(TOOL, &mut args, "--selective", SELECTIVE_EMPTIES.into()) as u32;
    let cut = number_flag(TOOL, &mut args, "--cut", SELECTIVE_CUT.into()) as i32;
    let cap = number_flag(TOOL, &mut args, "--cap-ms", 2000) as u64;
    let budget = number_flag(TOOL, &mut args, "--budget-ms", 60) as f64;
    if args.len() != 1 {
        eprintln!("{TOOL}: usage: {TOOL} GAMES.txt [--from E] [--exact E] [--wld E] [--selective E] [--cut N] [--cap-ms MS] [--budget-ms MS]");
        std::process::exit(2);
    }
    let text = std::fs::read_to_string(&args[0]).unwrap_or_else(|e| {
        eprintln!("{TOOL}: {}: {e}", args[0]);
        std::process::exit(2)
    });
    // Per empties: the solve times in ms, and how many solves gave a proof,
    // only a selective pass's result, or nothing.
    let mut times: BTreeMap<u32, (Vec<f64>, [usize; 3])> = BTreeMap::new();
    for (line, transcript) in text.lines().enumerate() {
        if transcript.trim().is_empty() {
            continue;
        }
        let fail = |e: String| -> ! {
            eprintln!("{TOOL}: {}: line {}: {e}", args[0], line + 1);
            std::process::exit(2)
        };
        let moves: Vec<Square> = transcript
            .trim()
            .as_bytes()
            .chunks(2)
            .map(|w| {
                let w = std::str::from_utf8(w).map_err(|e| e.to_string())?;
                Square::parse(w).map_err(|e| e.to_string())
            })
            .collect::<Result<_, _>>()
            .unwrap_or_else(|e| fail(e));
        let mut game = Game::new();
        let mut solvers = [
            Solver::new(Deadline::unlimited()),
            Solver::new(Deadline::unlimited()),
        ];
        for sq in moves {
            let board = game.board();
            let empties = board.empty_count();
            if empties <= from && empties <= selective && !board.moves().is_empty() {
                let solver = &mut solvers[usize::from(game.to_move() == Color::White)];
                solver.set_deadline(Deadline::from_now_ms(cap));
                let t0 = Instant::now();
                let done = if empties <= exact {
                    solver.solve_passes(&board, board.moves(), false, None)
                } else if empties <= wld {
                    solver.solve(&board, board.moves(), true)
                } else {
                    solver.solve_selective(&board, board.moves(), cut)
                };
                let entry = times.entry(empties).or_default();
                entry.0.push(t0.elapsed().as_secs_f64() * 1e3);
                entry.1[match done {
                    Some(s) if s.cut.is_none() => 0,
                    Some(_) => 1,
                    None => 2,
                }] += 1;
            }
            game.play(sq).unwrap_or_else(|e| fail(e.to_string()));
        }
    }
    println!(
        "empties kind      positions | median    p90    max  over {budget} ms | proven  pass  none  (ms, warm tables)"
    );
    for (empties, (mut t, outcome)) in times.into_iter().rev() {
        t.sort_by(f64::total_cmp);
        let over = t.iter().filter(|&&x| x > budget).count();
        let kind = if empties <= exact {
            "exact"
        } else if empties <= wld {
            "wld"
        } else {
            "selective"
        };
        println!(
            "{empties:7} {kind:9} {:9} | {:6.1} {:6.1} {:6.1} {:11} | {:6} {:5} {:5}",
            t.len(),
            t[t.len() / 2],
            t[t.len() * 9 / 10],
            t[t.len() - 1],
            over,
            outcome[0],
            outcome[1],
            outcome[2]
        );
    }
}

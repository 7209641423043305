//! How far past its hard deadline the bot's search answers when nothing
//! else runs: the part of a late reply that the engine itself causes (the
//! clock is read every `NODES_PER_CLOCK_CHECK` nodes; table clearing,
//! solver start-up and allocation cannot be interrupted). The part the
//! machine causes (the process not running) is `scripts/stress.sh`'s.
//!
//! Self-play games from random openings, with the bot's own strategy object
//! kept across a game as in the bot (its tables warm): every position is
//! searched under a hard budget drawn at random from 1 to 100 ms, so that
//! the searches stop at every stage (iterations, solves, fallbacks).
//! Prints the overrun (the answer time minus the budget) by empties.
//!
//! `cargo run --release --example deadline_overrun [-- GAMES [SEED]]`

use othello::rng::Rng;
use othello::search::{self, Config, Limits};
use othello::time::Deadline;
use othello::{Bitboard, Board};
use std::time::{Duration, Instant};

/// Random plies at the start of each game.
const OPENING_PLIES: u32 = 8;
/// The budgets drawn, in ms: 1 to this.
const MAX_BUDGET_MS: u64 = 100;

fn main() {
    let mut args = std::env::args().skip(1);
    let mut number = |what: &str, default: u64| match args.next() {
        None => default,
        Some(s) => s.parse().unwrap_or_else(|_| {
            eprintln!("deadline_overrun: {what} must be a number, not {s:?}");
            std::process::exit(2)
        }),
    };
    let games = number("GAMES", 20);
    let seed = number("SEED", 1);
    let mut rng = Rng::seed_from_u64(seed);
    // Overruns in µs by bucket of 10 empties, and the worst case's details.
    let mut buckets: Vec<Vec<i64>> = vec![Vec::new(); 7];
    let mut worst = (i64::MIN, 0u32, 0u64);
    for _ in 0..games {
        let mut strategy = search::create("alphabeta", &Config::default()).expect("alphabeta");
        let mut board = Board::start();
        let mut ply = 0;
        while !board.is_game_over() {
            if board.moves().is_empty() {
                board = board.pass();
                continue;
            }
            let moves = board.moves();
            let mv = if ply < OPENING_PLIES {
                othello::Square::new(rng.pick_bit(moves.0) as u8)
            } else {
                let budget = 1 + rng.below(MAX_BUDGET_MS);
                let start = Instant::now();
                let limits = Limits::time(Deadline::new(start, Duration::from_millis(budget)));
                let r = strategy.choose(&board, Bitboard(moves.0), &limits);
                let over = start.elapsed().as_micros() as i64 - budget as i64 * 1000;
                let empties = board.empty_count();
                buckets[(empties / 10) as usize].push(over);
                if over > worst.0 {
                    worst = (over, empties, budget);
                }
                r.best
            };
            board = board.play(mv);
            ply += 1;
        }
    }
    println!("overrun of the hard budget (answer time - budget), µs; budgets 1-{MAX_BUDGET_MS} ms");
    println!("empties   searches   median      p99      max");
    for (i, b) in buckets.iter_mut().enumerate() {
        if b.is_empty() {
            continue;
        }
        b.sort_unstable();
        let at = |q: f64| b[((b.len() - 1) as f64 * q) as usize];
        println!(
            "{:>2}-{:<2}   {:>8}   {:>6}   {:>6}   {:>6}",
            i * 10,
            i * 10 + 9,
            b.len(),
            at(0.5),
            at(0.99),
            b[b.len() - 1]
        );
    }
    println!(
        "worst: {} µs past a {} ms budget at {} empties",
        worst.0, worst.2, worst.1
    );
}

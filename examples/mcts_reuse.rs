//! Measures how much of its tree `mcts` carries from one move to the next,
//! in games against another strategy at CodinGame's time rules (our budgets:
//! 1000 ms first move, 120 ms after), in one process.
//!
//! `cargo run --release --example mcts_reuse -- [GAMES] [OPPONENT]`
//! (defaults: 4 games against `mcts`). Prints one line per game and a total.

use othello::search::mcts::{Mcts, DEFAULT_C};
use othello::search::{create, Config, Limits, Strategy};
use othello::time::{Deadline, DEFAULT_TURN_BUDGET_MS, FIRST_TURN_BUDGET_MS};
use othello::Board;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let games: u64 = match args.first().map(|s| s.parse()) {
        None => 4,
        Some(Ok(n)) if n > 0 => n,
        Some(_) => {
            eprintln!(
                "mcts_reuse: GAMES must be a positive number, found {:?}",
                args[0]
            );
            return ExitCode::from(2);
        }
    };
    let opponent_name = args.get(1).map_or("mcts", String::as_str);
    let (mut hits, mut turns, mut reused, mut total) = (0, 0, 0, 0);
    for game in 0..games {
        let mut ours = Mcts::new(game, DEFAULT_C, None, None);
        let config = Config {
            seed: game + 1000,
            ..Config::default()
        };
        let Some(mut theirs) = create(opponent_name, &config) else {
            eprintln!("mcts_reuse: unknown strategy {opponent_name:?}");
            return ExitCode::from(2);
        };
        let mut board = Board::start();
        // Colours alternate between games.
        let mut our_turn = game % 2 == 0;
        let mut first = [true, true];
        while !board.is_game_over() {
            if board.moves().is_empty() {
                board = board.pass();
                our_turn = !our_turn;
                continue;
            }
            let side = usize::from(our_turn);
            let ms = if first[side] {
                FIRST_TURN_BUDGET_MS
            } else {
                DEFAULT_TURN_BUDGET_MS
            };
            first[side] = false;
            let limits = Limits::time(Deadline::from_now_ms(ms));
            let r = if our_turn {
                ours.choose(&board, board.moves(), &limits)
            } else {
                theirs.choose(&board, board.moves(), &limits)
            };
            board = board.play(r.best);
            our_turn = !our_turn;
        }
        let s = ours.reuse();
        println!(
            "game {game}: found {}/{} positions, {:.1}% of root visits inherited",
            s.hits,
            s.turns,
            100.0 * s.visit_share()
        );
        hits += s.hits;
        turns += s.turns;
        reused += s.reused_visits;
        total += s.total_visits;
    }
    println!(
        "total vs {opponent_name}: found {hits}/{turns} positions ({:.1}%), {:.1}% of root visits inherited",
        100.0 * hits as f64 / turns.max(1) as f64,
        100.0 * reused as f64 / total.max(1) as f64
    );
    ExitCode::SUCCESS
}

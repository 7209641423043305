//! The Monte Carlo strategies (`pmc`, `mcts`, `nmc`) through the common
//! interface: legal answers on positions with one move, many moves and few
//! empties, under a time budget and under a work limit; reproducibility;
//! and the per-move table of `othello playouts`.

use othello::rng::Rng;
use othello::search::playout::random_game;
use othello::search::stats::move_table;
use othello::search::{create, Config, Limits, Strategy};
use othello::time::Deadline;
use othello::{Bitboard, Board};
use std::time::Duration;

/// A budget per move small enough to keep the tests fast.
const BUDGET_MS: u64 = 40;

/// Every Monte Carlo configuration under test: (strategy, nmc level).
const CONFIGS: [(&str, u32); 4] = [("pmc", 1), ("mcts", 1), ("nmc", 1), ("nmc", 2)];

fn strategy(name: &str, level: u32, seed: u64, playouts: Option<u64>) -> Box<dyn Strategy> {
    let config = Config {
        seed,
        level,
        playouts,
        ..Config::default()
    };
    create(name, &config).expect("a known strategy")
}

/// Positions from random games (fixed seeds) that satisfy `keep`.
fn positions(count: usize, keep: impl Fn(&Board) -> bool) -> Vec<Board> {
    (0..)
        .flat_map(|seed| random_game(&Board::start(), &mut Rng::seed_from_u64(seed)))
        .filter(|b| keep(b))
        .take(count)
        .collect()
}

fn test_positions() -> Vec<(&'static str, Board)> {
    let one = positions(2, |b| b.moves().count() == 1);
    let many = positions(2, |b| b.moves().count() >= 10);
    let end = positions(2, |b| b.empty_count() <= 4 && b.moves().count() >= 2);
    let mut all = vec![("start", Board::start())];
    all.extend(one.into_iter().map(|b| ("one move", b)));
    all.extend(many.into_iter().map(|b| ("many moves", b)));
    all.extend(end.into_iter().map(|b| ("near the end", b)));
    all
}

#[test]
fn each_strategy_answers_legally_within_its_time_budget() {
    for (name, level) in CONFIGS {
        let mut s = strategy(name, level, 1, None);
        for (kind, board) in test_positions() {
            let limits = Limits::time(Deadline::from_now_ms(BUDGET_MS));
            let r = s.choose(&board, board.moves(), &limits);
            assert!(board.is_legal(r.best), "{name}: {} on {kind}", r.best);
            assert!(r.nodes > 0 || board.moves().count() == 1, "{name} {kind}");
            // A sanity bound only: the clock is read every few playouts.
            assert!(
                r.elapsed < Duration::from_millis(10 * BUDGET_MS),
                "{name} took {:?} on {kind}",
                r.elapsed
            );
            assert!(othello::protocol::message(&r).chars().count() <= 12);
        }
    }
}

#[test]
fn each_strategy_chooses_among_the_offered_moves_under_a_work_limit() {
    for (name, level) in CONFIGS {
        for (kind, board) in test_positions() {
            let mut s = strategy(name, level, 2, Some(300));
            // Offer only the highest legal square.
            let moves = board.moves().0;
            let only = Bitboard(1u64 << (63 - moves.leading_zeros()));
            let r = s.choose(&board, only, &Limits::time(Deadline::unlimited()));
            assert_eq!(Bitboard(r.best.bit()), only, "{name} on {kind}");
            let r = s.choose(&board, board.moves(), &Limits::time(Deadline::unlimited()));
            assert!(board.is_legal(r.best), "{name} on {kind}");
            if board.moves().count() > 1 {
                assert_eq!(r.nodes, 300, "{name} on {kind}: the work limit is exact");
            }
        }
    }
}

#[test]
fn a_seed_and_a_work_limit_reproduce_the_same_choice() {
    let boards = positions(6, |b| b.moves().count() >= 6);
    for (name, level) in CONFIGS {
        for board in &boards {
            let limits = Limits {
                nodes: Some(500),
                ..Limits::time(Deadline::unlimited())
            };
            let run = || strategy(name, level, 9, None).choose(board, board.moves(), &limits);
            let (a, b) = (run(), run());
            assert_eq!(
                (a.best, a.score, a.nodes),
                (b.best, b.score, b.nodes),
                "{name}"
            );
            assert_eq!(a.nodes, 500, "{name}");
        }
    }
}

#[test]
fn the_playouts_table_counts_every_move_and_respects_the_symmetry() {
    let games = 4002;
    let stats = move_table(&Board::start(), games, 1);
    assert_eq!(stats.len(), 4);
    let rates: Vec<f64> = stats.iter().map(|s| s.win_rate()).collect();
    for s in &stats {
        assert_eq!(s.games, games);
        assert!(s.wins <= games as f64 && s.score_sum.unsigned_abs() <= 64 * games);
    }
    // The four first moves are equivalent by symmetry: their win rates
    // differ by less than 5 standard errors of a difference (about 0.011).
    let spread = rates.iter().cloned().fold(f64::MIN, f64::max)
        - rates.iter().cloned().fold(f64::MAX, f64::min);
    assert!(spread < 5.0 * (0.5 / games as f64).sqrt(), "{rates:?}");
}

#[test]
fn without_a_clock_or_a_work_limit_a_search_still_stops() {
    use othello::search::budget::UNLIMITED_FALLBACK_PLAYOUTS;
    let board = Board::start();
    for (name, level) in CONFIGS {
        let r = strategy(name, level, 3, None).choose(&board, board.moves(), &Limits::depth(3));
        assert!(board.is_legal(r.best), "{name}");
        assert_eq!(r.nodes, UNLIMITED_FALLBACK_PLAYOUTS, "{name}");
    }
}

/// A position where both legal moves take the opponent's last disc, so
/// every move ends the game: b1 and a2 each capture b2.
fn every_move_ends_the_game() -> Board {
    let bit = |name: &str| othello::Square::parse(name).unwrap().bit();
    Board::new(bit("b3") | bit("c2"), bit("b2"))
}

#[test]
fn each_strategy_answers_when_every_move_ends_the_game() {
    let board = every_move_ends_the_game();
    assert_eq!(board.moves().count(), 2);
    for name in othello::search::STRATEGY_NAMES {
        for playouts in [None, Some(500)] {
            let (tx, rx) = std::sync::mpsc::channel();
            let owned = name.to_string();
            std::thread::spawn(move || {
                let mut s = strategy(&owned, 2, 1, playouts);
                let limits = Limits {
                    deadline: Deadline::from_now_ms(50),
                    depth: None,
                    nodes: None,
                };
                let _ = tx.send(s.choose(&board, board.moves(), &limits).best);
            });
            // A search that never spends its budget would never answer.
            let best = rx
                .recv_timeout(Duration::from_secs(10))
                .unwrap_or_else(|_| panic!("{name} did not answer within 10 s"));
            assert!(board.moves().contains(best), "{name} played {best}");
        }
    }
}

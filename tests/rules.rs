//! The fast kernels against the slow ray-walking reference, on many random
//! positions: reachable ones (random games) and arbitrary disc patterns.

use othello::kernels::{flips, moves};
use othello::reference::{flips_slow, moves_slow};
use othello::rng::Rng;
use othello::{Board, Game, Square};

fn check(p: u64, o: u64) {
    assert_eq!(moves(p, o), moves_slow(p, o), "moves of p={p:#x} o={o:#x}");
    for sq in 0..64 {
        if (p | o) >> sq & 1 == 0 {
            assert_eq!(
                flips(p, o, sq),
                flips_slow(p, o, sq),
                "flips at {sq} of p={p:#x} o={o:#x}"
            );
        }
    }
}

#[test]
fn fast_equals_slow_on_positions_from_random_games() {
    let mut rng = Rng::seed_from_u64(1);
    let mut positions = 0;
    for _ in 0..600 {
        let mut board = Board::start();
        loop {
            check(board.player, board.opponent);
            positions += 1;
            let m = board.moves();
            if m.is_empty() {
                if board.pass().moves().is_empty() {
                    break;
                }
                board = board.pass();
                continue;
            }
            board = board.play(Square::new(rng.pick_bit(m.0) as u8));
        }
    }
    assert!(positions > 30_000);
}

#[test]
fn fast_equals_slow_on_arbitrary_disc_patterns() {
    let mut rng = Rng::seed_from_u64(2);
    for i in 0..20_000 {
        // Vary the density so that long runs and full boards both occur.
        let a = rng.next_u64();
        let b = rng.next_u64();
        let occupied = match i % 3 {
            0 => a | b,
            1 => a,
            _ => a & b,
        };
        let split = rng.next_u64();
        check(occupied & split, occupied & !split);
    }
}

#[test]
fn play_matches_the_reference_flips() {
    let mut rng = Rng::seed_from_u64(3);
    for _ in 0..200 {
        let mut game = Game::new();
        while !game.is_over() {
            let board = game.board();
            let m = board.moves();
            let sq = Square::new(rng.pick_bit(m.0) as u8);
            let f = flips_slow(board.player, board.opponent, sq.index());
            let next = board.play(sq);
            assert_eq!(next.opponent, board.player | f | sq.bit());
            assert_eq!(next.player, board.opponent & !f);
            game.play(sq).unwrap();
        }
        // Every game ends with the discs and empties accounted for.
        let b = game.board();
        assert_eq!(
            b.player.count_ones() + b.opponent.count_ones() + b.empty_count(),
            64
        );
    }
}

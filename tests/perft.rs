//! Perft from the start position against the published counts.

use othello::perft::{perft, PUBLISHED};
use othello::Board;

#[test]
fn perft_matches_published_counts_to_depth_10() {
    for depth in 1..=10u32 {
        assert_eq!(
            perft(&Board::start(), depth),
            PUBLISHED[depth as usize - 1],
            "perft {depth}"
        );
    }
}

#[test]
fn perft_zero_is_one_leaf() {
    assert_eq!(perft(&Board::start(), 0), 1);
}

#[test]
fn a_finished_game_is_one_leaf_at_any_depth() {
    // Black fills the board but for h8, white has no disc: no one can move.
    let board = Board::new(!0 >> 1, 0);
    assert!(board.is_game_over());
    for depth in 1..=3 {
        assert_eq!(perft(&board, depth), 1);
    }
}

#[test]
fn a_pass_counts_as_a_ply() {
    // a1 white, b1 black, c1 empty: black to move has no move (white's a1 is
    // not between black and an empty square), white can play c1.
    let board = Board::new(1 << 1, 1 << 0);
    assert!(board.moves().is_empty());
    assert!(!board.pass().moves().is_empty());
    assert_eq!(perft(&board, 1), 1, "the pass is the only leaf");
    assert_eq!(perft(&board, 2), 1, "pass, then c1");
}

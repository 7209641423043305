//! The endgame transition's reproducers (docs/journal/endgame.md, "The
//! transition"): the bot's later turns at 21 empties that the selective
//! solve's narrow pass lost. In a test binary of their own, so that no
//! other test shares the machine with their timed turns.

use othello::search::{self, Limits, Score};
use othello::time::{turn_budget_ms, Deadline};
use othello::{Board, Square};

/// A position in Edax's cell order (a1..h8) with `mover` to move.
fn board(cells: &str, mover: char) -> Board {
    let other = if mover == 'O' { 'X' } else { 'O' };
    Board::from_cells(cells, mover, other).unwrap()
}

/// The bot's move on `board` as a later turn at the default settings:
/// the pattern tables built, the later-turn budget.
fn later_turn(board: &Board) -> (Square, Score) {
    let _ = othello::eval::pattern::tables();
    let mut bot = search::create("alphabeta", &search::Config::default()).unwrap();
    let limits = Limits::time(Deadline::from_now_ms(turn_budget_ms(board.empty_count())));
    let r = bot.choose(board, board.moves(), &limits);
    (r.best, r.score)
}

/// The two reproducers (21 empties, white to move): the selective
/// solve played b7 (exact -6; a2 is +8) and b1 (22 discs below b4).
#[test]
fn the_reproducers_play_the_exact_best_move() {
    for (cells, best) in [
        (
            "-OOO--O----XXXX-XXXXXXOOOXXOXX--OOXOOX---OXOXXX---OOOX---OOOO-X-",
            "a2",
        ),
        (
            "--OOOOO---XXOO-O--XOOOOO--OXOOOO-OOOXOOO-XOXOXOO---OXXX---OO-X--",
            "b4",
        ),
    ] {
        let b = board(cells, 'O');
        assert_eq!(b.empty_count(), 21);
        let (mv, score) = later_turn(&b);
        assert_eq!(mv.to_string(), best, "{cells}: {score:?}");
    }
}

//! The positions the endgame examples measure: each position of some OBF
//! files (`.obf`) played down, by a depth-4 alpha-beta with the classic
//! evaluation, to every smaller number of empties; or, from any other file,
//! the positions of recorded games (one transcript per line, such as
//! `tests/data/late-games.txt`).

use othello::eval::{EvalKind, Evaluator};
use othello::game::Game;
use othello::obf;
use othello::search::alphabeta::AlphaBeta;
use othello::search::{Limits, Strategy};
use othello::Board;
use std::collections::BTreeMap;

/// Depth of the search that plays the positions down.
const LINE_DEPTH: u32 = 4;

/// The positions met with `min..=max` empties, by number of empties. An
/// unreadable file or a malformed line ends the program with a message
/// naming `tool`, the file and the line.
pub fn played_down(tool: &str, files: &[String], min: u32, max: u32) -> BTreeMap<u32, Vec<Board>> {
    let mut by_empties: BTreeMap<u32, Vec<Board>> = BTreeMap::new();
    for file in files {
        let text = std::fs::read_to_string(file).unwrap_or_else(|e| {
            eprintln!("{tool}: {file}: {e}");
            std::process::exit(2)
        });
        if !file.ends_with(".obf") {
            for (i, line) in text.lines().enumerate() {
                if let Err(e) = replay(line, min, max, &mut by_empties) {
                    eprintln!("{tool}: {file}: line {}: {e}", i + 1);
                    std::process::exit(2)
                }
            }
            continue;
        }
        for (i, line) in text.lines().enumerate() {
            let position = match obf::parse_line(line) {
                Ok(Some(p)) => p,
                Ok(None) => continue,
                Err(e) => {
                    eprintln!("{tool}: {file}: line {}: {e}", i + 1);
                    std::process::exit(2)
                }
            };
            let mut board = position.board;
            let mut search = AlphaBeta::new(Evaluator::new(EvalKind::Classic, 0));
            search.set_exact_empties(0);
            while board.empty_count() >= min && !board.is_game_over() {
                if board.moves().is_empty() {
                    board = board.pass();
                }
                if board.empty_count() <= max {
                    by_empties
                        .entry(board.empty_count())
                        .or_default()
                        .push(board);
                }
                let r = search.choose(&board, board.moves(), &Limits::depth(LINE_DEPTH));
                board = board.play(r.best);
            }
        }
    }
    by_empties
}

/// Records the positions of the game `transcript` with `min..=max`
/// empties in which the side to move has a move.
fn replay(
    transcript: &str,
    min: u32,
    max: u32,
    by_empties: &mut BTreeMap<u32, Vec<Board>>,
) -> Result<(), String> {
    let mut game = Game::new();
    let bytes = transcript.trim().as_bytes();
    for k in 0..=bytes.len() / 2 {
        let board = game.board();
        let empties = board.empty_count();
        if (min..=max).contains(&empties) && !board.moves().is_empty() {
            by_empties.entry(empties).or_default().push(board);
        }
        if k == bytes.len() / 2 {
            break;
        }
        let word = std::str::from_utf8(&bytes[2 * k..2 * k + 2]).map_err(|e| e.to_string())?;
        let sq = othello::Square::parse(word).map_err(|e| format!("move {}: {e}", k + 1))?;
        game.play(sq).map_err(|e| format!("move {}: {e}", k + 1))?;
    }
    Ok(())
}

//! Line values: for each position of a corpus game, the score its line
//! reached, and labels blended from them and the search's (`train fit
//! --outcome W`).
//!
//! A corpus game is played by the search that labels it, so from a
//! position the game goes on along the moves that search thought best,
//! until a random move (the opening's, or one of the later `epsilon`
//! ones) or the exact solver takes over. The label where that happens is
//! the line's value: the search's score of the position before the random
//! move (what best play was worth there), or the solver's exact score, or
//! the final score if the game ended first. A position's line value is
//! the first such value at or after it, seen from its side to move: a
//! search score looked at from deeper in its own line, and exact wherever
//! the line reaches the solver without a random move on the way.
//!
//! Which moves were random is not stored; the chunk's seed draws them
//! again ([`Dice`]), and each one replayed must be the move the game
//! holds, so a chunk played by other code is refused, not mislabelled.

use crate::corpus::{CorpusConfig, Dice, Game};
use othello::Board;

/// The line value of each position of `game`, the chunk's game number
/// `number` played with `cfg`, in discs for the side to move there.
///
/// # Errors
/// A random move drawn again that is not the game's move (the game was
/// not played by [`crate::corpus::play_game`] with these settings).
pub fn line_values(cfg: &CorpusConfig, number: u32, game: &Game) -> Result<Vec<i8>, String> {
    let mut dice = Dice::new(cfg, number);
    let mut board = Board::start();
    let mut black = true;
    // Per move: whether the line's value restarts there, and the side.
    let mut restarts = Vec::with_capacity(game.moves.len());
    let mut blacks = Vec::with_capacity(game.moves.len());
    for (ply, &sq) in game.moves.iter().enumerate() {
        if board.moves().is_empty() {
            board = board.pass();
            black = !black;
        }
        let exact = board.empty_count() <= cfg.exact_empties;
        let random = !exact && {
            let squares: Vec<_> = board.moves().squares().collect();
            match dice.roll(ply as u32, squares.len()) {
                Some(i) if squares[i] != sq => {
                    return Err(format!(
                        "game {number}: move {} ({sq}) is not the random move {} that seed {} \
                         draws there (not played by this code with these settings)",
                        ply + 1,
                        squares[i],
                        cfg.seed
                    ))
                }
                Some(_) => true,
                None => false,
            }
        };
        restarts.push(exact || random);
        blacks.push(black);
        board = board.play(sq);
        black = !black;
    }
    let side = |is_black: bool, v: i32| if is_black { v } else { -v };
    // The final score for black; then back along the game.
    let mut line = side(black, board.final_score());
    let mut out = vec![0; game.moves.len()];
    for k in (0..game.moves.len()).rev() {
        if restarts[k] {
            line = side(blacks[k], i32::from(game.labels[k]));
        }
        out[k] = side(blacks[k], line) as i8;
    }
    Ok(out)
}

/// `label` blended with `line`: `(1 - weight) * label + weight * line`,
/// rounded to a disc (halves away from zero).
pub fn blend(label: i8, line: i8, weight: f64) -> i8 {
    ((1.0 - weight) * f64::from(label) + weight * f64::from(line)).round() as i8
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::play_game;

    fn small(seed: u64) -> CorpusConfig {
        CorpusConfig {
            games: 4,
            seed,
            depth: 2,
            exact_empties: 10,
            epsilon: 0.1,
            ..CorpusConfig::default()
        }
    }

    #[test]
    fn line_values_follow_the_search_to_the_next_random_move_or_the_solver() {
        let mut checked = 0;
        for seed in [3, 4] {
            let cfg = small(seed);
            for g in 0..cfg.games {
                let game = play_game(&cfg, g);
                let values = line_values(&cfg, g, &game).unwrap();
                // The slow reference: replay the dice beside the game and,
                // for every position, walk forward to where its line stops.
                let mut dice = Dice::new(&cfg, g);
                let mut board = Board::start();
                let mut black = true;
                let mut stops = Vec::new();
                for (ply, &sq) in game.moves.iter().enumerate() {
                    if board.moves().is_empty() {
                        board = board.pass();
                        black = !black;
                    }
                    let exact = board.empty_count() <= cfg.exact_empties;
                    let n = board.moves().count() as usize;
                    let random = !exact && dice.roll(ply as u32, n).is_some();
                    stops.push((exact || random, black));
                    board = board.play(sq);
                    black = !black;
                }
                let final_black = if black {
                    board.final_score()
                } else {
                    -board.final_score()
                };
                for k in 0..game.moves.len() {
                    let stop = (k..game.moves.len()).find(|&j| stops[j].0);
                    let black_value = match stop {
                        Some(j) if stops[j].1 => i32::from(game.labels[j]),
                        Some(j) => -i32::from(game.labels[j]),
                        None => final_black,
                    };
                    let want = if stops[k].1 {
                        black_value
                    } else {
                        -black_value
                    };
                    assert_eq!(i32::from(values[k]), want, "seed {seed} game {g} move {k}");
                    checked += 1;
                }
                // The opening's random plies keep their own labels.
                assert_eq!(values[0], game.labels[0]);
                // From the solver on, labels are exact and kept.
                let mut b = Board::start();
                for (k, &sq) in game.moves.iter().enumerate() {
                    if b.moves().is_empty() {
                        b = b.pass();
                    }
                    if b.empty_count() <= cfg.exact_empties {
                        assert_eq!(values[k], game.labels[k]);
                    }
                    b = b.play(sq);
                }
            }
        }
        assert!(checked > 300, "{checked} positions checked");
    }

    #[test]
    fn without_random_moves_or_solver_every_line_ends_at_the_final_result_passes_included() {
        // After the opening, no random move and no solver: each position's
        // line value is the game's result for its side to move, counted
        // here by the library's game record (which passes by itself).
        let mut passes = 0;
        for seed in 0..60 {
            let cfg = CorpusConfig {
                seed,
                depth: 1,
                exact_empties: 0,
                epsilon: 0.0,
                random_plies: (4, 12),
                ..CorpusConfig::default()
            };
            let game = play_game(&cfg, 0);
            let values = line_values(&cfg, 0, &game).unwrap();
            let mut record = othello::Game::new();
            let opening = Dice::new(&cfg, 0).random_plies as usize;
            let mut sides = Vec::new();
            for &sq in &game.moves {
                sides.push(record.to_move());
                record.play(sq).unwrap();
            }
            assert!(record.is_over());
            passes += record
                .history()
                .iter()
                .filter(|m| **m == othello::Move::Pass)
                .count();
            let black = record.final_score_black();
            for k in opening..game.moves.len() {
                let want = if sides[k] == othello::Color::Black {
                    black
                } else {
                    -black
                };
                assert_eq!(i32::from(values[k]), want, "seed {seed} move {k}");
            }
            if passes > 0 && seed >= 10 {
                return;
            }
        }
        panic!("no game with a pass in 60 seeds");
    }

    #[test]
    fn a_line_value_differs_from_its_label_somewhere() {
        // Not a copy of the labels: a depth-2 search's scores are not
        // what its line reaches.
        let cfg = small(5);
        let game = play_game(&cfg, 0);
        let values = line_values(&cfg, 0, &game).unwrap();
        assert!(values.iter().zip(&game.labels).any(|(v, l)| v != l));
    }

    #[test]
    fn a_game_of_other_settings_is_refused() {
        let cfg = small(6);
        let game = play_game(&cfg, 1);
        let other = CorpusConfig { seed: 7, ..cfg };
        let e = line_values(&other, 1, &game).unwrap_err();
        assert!(e.contains("game 1: move") && e.contains("seed 7"), "{e}");
    }

    #[test]
    fn blends_round_halves_away_from_zero() {
        assert_eq!(blend(4, 10, 0.0), 4);
        assert_eq!(blend(4, 10, 1.0), 10);
        assert_eq!(blend(4, 9, 0.5), 7);
        assert_eq!(blend(-4, -9, 0.5), -7);
        assert_eq!(blend(-64, 64, 0.25), -32);
    }

    #[test]
    fn a_header_gives_back_its_settings() {
        let cfg = CorpusConfig {
            seed: 12,
            depth: 10,
            exact_empties: 18,
            random_plies: (8, 42),
            epsilon: 0.04,
            ..CorpusConfig::default()
        };
        assert_eq!(CorpusConfig::from_header(&cfg.header()).unwrap(), cfg);
        let sharded = CorpusConfig {
            shard: Some(shard::Shard { index: 2, count: 3 }),
            ..cfg.clone()
        };
        assert_eq!(
            CorpusConfig::from_header(&sharded.header()).unwrap(),
            sharded
        );
        assert!(CorpusConfig::from_header("othello-corpus 1 seed=1 depth=8").is_err());
        assert!(CorpusConfig::from_header("othello-endgame 1 seed=1").is_err());
    }
}

//! Relabelling: a corpus chunk's games kept move for move, their search
//! labels made again by a deeper search with the compiled evaluation
//! (`train relabel`). The games' exact labels (the solver's, at the
//! chunk's `exact` empties and below) are kept: they cannot get better.
//! Labels of the same games at two depths measure what depth buys at
//! equal data.

use crate::corpus::{self, CorpusConfig, Game};
use othello::Board;

/// The relabelled chunk's header: the source's with `depth=` set to
/// `depth`, `weights=` to the compiled weights, and the source's depth and
/// weights kept as `from=DEPTH:WEIGHTS`. The seed, openings and exact
/// field stay, so the games' lines can still be followed
/// ([`crate::outcome`]).
///
/// # Errors
/// A header that is not an unsharded corpus chunk's, or one already
/// relabelled.
pub fn header(source: &str, depth: u32) -> Result<String, String> {
    let (_, shard) = corpus::split_shard(source)?;
    if shard.is_some() {
        return Err(
            "a shard: relabel the whole chunk (`train fit` merges shards; relabel \
                    each shard's chunk once merged)"
                .into(),
        );
    }
    CorpusConfig::from_header(source)?;
    let mut from = (None, None);
    let words: Vec<String> = source
        .split(' ')
        .map(|w| match w.split_once('=') {
            Some(("depth", d)) => {
                from.0 = Some(d.to_string());
                format!("depth={depth}")
            }
            Some(("weights", id)) => {
                from.1 = Some(id.to_string());
                format!("weights={}", corpus::weights_id())
            }
            _ => w.to_string(),
        })
        .collect();
    if source.contains(" from=") {
        return Err("already relabelled: relabel its source chunk".into());
    }
    let (Some(d), Some(w)) = from else {
        return Err(format!("no depth or weights field: {source:?}"));
    };
    Ok(format!("{} from={d}:{w}", words.join(" ")))
}

/// `game` with every label above `exact_empties` empties made again by a
/// depth-`depth` search (one search table for the game, as self-play
/// has); the moves and the exact labels stay.
pub fn relabel_game(game: &Game, depth: u32, exact_empties: u32) -> Game {
    let mut search = corpus::game_search();
    let mut board = Board::start();
    let mut labels = Vec::with_capacity(game.labels.len());
    for (&sq, &label) in game.moves.iter().zip(&game.labels) {
        if board.moves().is_empty() {
            board = board.pass();
        }
        labels.push(if board.empty_count() <= exact_empties {
            label
        } else {
            corpus::search_label(&mut search, &board, depth).1
        });
        board = board.play(sq);
    }
    Game {
        moves: game.moves.clone(),
        labels,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::play_game;

    #[test]
    fn relabelling_at_the_playing_depth_gives_the_labels_back() {
        // Self-play searched each position with the game's table warm from
        // the positions before; the relabelling does the same, so at the
        // same depth it must find the same labels.
        let cfg = CorpusConfig {
            seed: 11,
            depth: 3,
            exact_empties: 10,
            ..CorpusConfig::default()
        };
        for g in 0..3 {
            let game = play_game(&cfg, g);
            assert_eq!(relabel_game(&game, 3, 10), game, "game {g}");
            let deeper = relabel_game(&game, 5, 10);
            assert_eq!(deeper.moves, game.moves);
            // Exact labels kept; some search label changed.
            let mut board = Board::start();
            for (k, &sq) in game.moves.iter().enumerate() {
                if board.moves().is_empty() {
                    board = board.pass();
                }
                if board.empty_count() <= 10 {
                    assert_eq!(deeper.labels[k], game.labels[k]);
                }
                board = board.play(sq);
            }
            assert_ne!(
                deeper.labels, game.labels,
                "game {g}: depth 5 changed nothing"
            );
        }
    }

    #[test]
    fn the_command_refuses_a_missing_depth_its_own_input_and_a_torn_chunk() {
        let dir = std::env::temp_dir().join(format!("train-relabel-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let chunk = dir.join("c.bin");
        let cfg = CorpusConfig {
            games: 2,
            depth: 2,
            exact_empties: 8,
            ..CorpusConfig::default()
        };
        corpus::generate(&cfg, &chunk, &indicatif::ProgressBar::hidden()).unwrap();
        let run = |args: String| {
            let args: Vec<String> = args.split_whitespace().map(String::from).collect();
            let (command, o) = crate::cli::parse(&args).unwrap();
            crate::command::run(&command, &o)
        };
        let (c, out) = (chunk.display(), dir.join("out.bin"));
        let e = run(format!("relabel --from {c} --out {}", out.display())).unwrap_err();
        assert!(e.contains("--depth D is required"), "{e}");
        let e = run(format!("relabel --from {c} --depth 3 --out {c}")).unwrap_err();
        assert!(e.contains("is the chunk it reads"), "{e}");
        run(format!(
            "relabel --from {c} --depth 3 --out {}",
            out.display()
        ))
        .unwrap();
        let relabelled = corpus::parse(&std::fs::read(&out).unwrap()).unwrap();
        assert_eq!(relabelled.games.len(), 2, "every game without --games");
        assert!(relabelled.header.contains(" depth=3 ") && relabelled.header.contains(" from=2:"));
        let mut torn = std::fs::read(&chunk).unwrap();
        torn.pop();
        std::fs::write(&chunk, torn).unwrap();
        let e = run(format!(
            "relabel --from {c} --depth 3 --out {}",
            dir.join("o2.bin").display()
        ))
        .unwrap_err();
        assert!(e.contains("c.bin: the last game is torn"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_header_names_the_new_depth_and_the_source() {
        let source = CorpusConfig::default().header();
        let h = header(&source, 12).unwrap();
        let cfg = CorpusConfig::from_header(&h).unwrap();
        assert_eq!(cfg.depth, 12);
        assert_eq!(cfg.seed, CorpusConfig::default().seed);
        assert!(
            h.ends_with(&format!(" from=8:{}", corpus::weights_id())),
            "{h}"
        );
        assert!(header(&h, 14).unwrap_err().contains("already relabelled"));
        let shard = CorpusConfig {
            shard: Some(shard::Shard { index: 1, count: 2 }),
            ..CorpusConfig::default()
        };
        assert!(header(&shard.header(), 12).unwrap_err().contains("a shard"));
        assert!(header("othello-endgame 1", 12).is_err());
    }
}

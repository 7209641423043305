//! Position generation: self-play games from randomized openings, each
//! position labelled with the game's final disc difference. The last
//! [`GenConfig::exact_empties`] empties are played perfectly by the exact
//! solver, so late labels are exact and earlier ones are the outcome of a
//! perfect finish.

use indicatif::ProgressBar;
use othello::eval::{EvalKind, Evaluator};
use othello::search::alphabeta::AlphaBeta;
use othello::search::endgame::Solver;
use othello::search::{Limits, Strategy};
use othello::time::Deadline;
use othello::{Board, Square};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use shard::Shard;
use std::io::{self, Read, Write};

/// One labelled position.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    /// The position, side to move first.
    pub board: Board,
    /// Final disc difference for the side to move (empties to the winner).
    pub label: i8,
    /// The game it comes from (holdout sets are split by game).
    pub game: u32,
    /// Whether its game is held out, when its data says (the endgame
    /// corpus draws it from a seed); `None`: one game number in the
    /// fit's `holdout_every` is ([`Sample::is_held_out`]).
    pub held_out: Option<bool>,
}

impl Sample {
    /// Whether the sample is in the validation set when one game in
    /// `every` is held out.
    pub fn is_held_out(&self, every: u32) -> bool {
        self.held_out
            .unwrap_or(self.game.is_multiple_of(every.max(1)))
    }
}

/// Transposition table size (log2 entries) of the self-play search.
const TABLE_BITS: u32 = 16;

/// Bytes of one sample on disk.
const RECORD: usize = 21;

/// How games are played.
#[derive(Clone, Debug)]
pub struct GenConfig {
    /// Number of games.
    pub games: u32,
    /// Seed; game `i` uses seed `seed * 2^32 + i`, so the output does not
    /// depend on the thread count.
    pub seed: u64,
    /// Worker threads.
    pub threads: usize,
    /// Opening plies played at random: uniform in this range.
    pub random_plies: (u32, u32),
    /// After the opening, chance of a random move (more varied positions).
    pub epsilon: f64,
    /// Depth of the alpha-beta search that plays the other moves.
    pub depth: u32,
    /// Evaluation of that search.
    pub eval: EvalKind,
    /// From this many empties on, the exact solver plays.
    pub exact_empties: u32,
    /// Only this part of the run's games (`--shard`); samples keep the
    /// run's game numbers.
    pub shard: Option<Shard>,
}

impl Default for GenConfig {
    fn default() -> GenConfig {
        GenConfig {
            games: 28_000,
            seed: 1,
            threads: 2,
            random_plies: (2, 12),
            epsilon: 0.05,
            depth: 6,
            eval: EvalKind::Classic,
            exact_empties: 14,
            shard: None,
        }
    }
}

/// Plays one game and returns its positions with their labels.
fn play_game(cfg: &GenConfig, game: u32, search: &mut AlphaBeta) -> Vec<Sample> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(cfg.seed << 32 | u64::from(game));
    let random_plies = rng.gen_range(cfg.random_plies.0..=cfg.random_plies.1);
    let mut board = Board::start();
    // +1 while the first player (black) is to move.
    let mut black = 1i32;
    let mut seen: Vec<(Board, i32)> = Vec::with_capacity(64);
    let mut ply = 0;
    while !board.is_game_over() {
        let moves = board.moves();
        if moves.is_empty() {
            board = board.pass();
            black = -black;
            continue;
        }
        seen.push((board, black));
        let squares: Vec<Square> = moves.squares().collect();
        let sq = if board.empty_count() <= cfg.exact_empties {
            let mut solver = Solver::new(Deadline::unlimited());
            solver
                .solve(&board, moves, false)
                .expect("no deadline")
                .best
        } else if ply < random_plies || rng.gen_bool(cfg.epsilon) {
            squares[rng.gen_range(0..squares.len())]
        } else {
            search.choose(&board, moves, &Limits::depth(cfg.depth)).best
        };
        board = board.play(sq);
        black = -black;
        ply += 1;
    }
    let final_black = board.final_score() * black;
    seen.into_iter()
        .map(|(board, side)| Sample {
            board,
            label: (final_black * side) as i8,
            game,
            held_out: None,
        })
        .collect()
}

/// Plays `cfg.games` games on `cfg.threads` threads; `bar` counts games.
pub fn generate(cfg: &GenConfig, bar: &ProgressBar) -> Vec<Sample> {
    let count = cfg.shard.map_or(cfg.games, |s| s.items_of(cfg.games));
    let games: Vec<u32> = (0..count)
        .map(|k| cfg.shard.map_or(k, |s| s.item(k)))
        .collect();
    crate::parallel::map_in_order(&games, cfg.threads, bar, |&g| {
        // A fresh table per game: a game never depends on which games its
        // thread played before.
        let mut search = AlphaBeta::with_table_bits(Evaluator::new(cfg.eval, 0), TABLE_BITS);
        search.set_exact_empties(0);
        // Full width: chunks stay reproducible across the search's
        // selectivity settings.
        search.set_selective(false);
        play_game(cfg, g, &mut search)
    })
    .into_iter()
    .flatten()
    .collect()
}

/// Writes samples: per sample player, opponent (u64 LE), label (i8), game (u32 LE).
///
/// # Errors
/// Any write error.
pub fn write(samples: &[Sample], out: &mut impl Write) -> io::Result<()> {
    let mut buf = Vec::with_capacity(samples.len() * RECORD);
    for s in samples {
        buf.extend_from_slice(&s.board.player.to_le_bytes());
        buf.extend_from_slice(&s.board.opponent.to_le_bytes());
        buf.push(s.label as u8);
        buf.extend_from_slice(&s.game.to_le_bytes());
    }
    out.write_all(&buf)
}

/// Reads samples written by [`write`].
///
/// # Errors
/// A read error, a truncated file, or overlapping discs (with the record number).
pub fn read(input: &mut impl Read) -> Result<Vec<Sample>, String> {
    let mut buf = Vec::new();
    input.read_to_end(&mut buf).map_err(|e| e.to_string())?;
    if buf.len() % RECORD != 0 {
        return Err(format!("size {} is not a multiple of {RECORD}", buf.len()));
    }
    buf.chunks_exact(RECORD)
        .enumerate()
        .map(|(i, r)| {
            let p = u64::from_le_bytes(r[0..8].try_into().unwrap());
            let o = u64::from_le_bytes(r[8..16].try_into().unwrap());
            if p & o != 0 {
                return Err(format!("record {i}: overlapping discs"));
            }
            Ok(Sample {
                board: Board::new(p, o),
                label: r[16] as i8,
                game: u32::from_le_bytes(r[17..21].try_into().unwrap()),
                held_out: None,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn late_labels_are_exact_games_reproducible_and_files_round_trip() {
        let cfg = GenConfig {
            games: 3,
            threads: 1,
            exact_empties: 10,
            depth: 2,
            ..GenConfig::default()
        };
        let samples = generate(&cfg, &ProgressBar::hidden());
        let again = generate(
            &GenConfig {
                threads: 2,
                ..cfg.clone()
            },
            &ProgressBar::hidden(),
        );
        assert_eq!(again, samples, "games depend on the thread count");
        let mut checked = 0;
        for s in samples.iter().filter(|s| s.board.empty_count() <= 8) {
            let mut solver = Solver::new(Deadline::unlimited());
            let exact = solver.solve(&s.board, s.board.moves(), false).unwrap();
            assert_eq!(i32::from(s.label), exact.score);
            checked += 1;
        }
        assert!(checked >= 3);
        let mut bytes = Vec::new();
        write(&samples, &mut bytes).unwrap();
        assert_eq!(read(&mut bytes.as_slice()).unwrap(), samples);
        assert!(read(&mut &bytes[1..]).is_err());
    }
}

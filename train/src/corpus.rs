//! The search-labelled corpus: self-play games stored compactly, one label
//! per position, in chunk files that are committed to the repository and
//! grow run after run.
//!
//! A game is played by the bot's own search (the compiled pattern
//! evaluation, Multi-ProbCut on) at a fixed depth, after a few random
//! opening plies and with a small chance of a random move later. Every
//! position where the side to move has a move is searched; the search's
//! score is its label (a depth-D label at no extra cost: the move is played
//! from the same search). From [`CorpusConfig::exact_empties`] empties on,
//! the exact solver plays and labels, so late labels are exact.
//!
//! File format (one chunk): a header line of text,
//! `othello-corpus 1 seed=S depth=D exact=E plies=A-B epsilon=X weights=N:C`,
//! then one record per game in game order: `n` (one byte, the moves
//! played, passes omitted), the `n` squares (`a1` = 0), then `n` labels
//! (signed bytes, discs for the side to move). About 120 bytes a game.
//! A record is appended as soon as its game and all earlier ones are done,
//! so an interrupted run keeps every finished game and resumes.

use crate::gen::Sample;
use indicatif::ProgressBar;
use othello::eval::{weights, EvalKind, Evaluator};
use othello::search::alphabeta::AlphaBeta;
use othello::search::endgame::Solver;
use othello::search::{Limits, Score, Strategy};
use othello::time::Deadline;
use othello::{Board, Square};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use shard::Shard;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::mpsc;

/// The header field of a shard (`shard=2/4`), last on the line.
const SHARD_KEY: &str = "shard=";

/// A header split into the chunk's header and the shard it names, if any.
///
/// # Errors
/// A malformed shard field.
pub fn split_shard(header: &str) -> Result<(&str, Option<Shard>), String> {
    match header.rsplit_once(' ') {
        Some((base, last)) if last.starts_with(SHARD_KEY) => {
            Ok((base, Some(Shard::parse(&last[SHARD_KEY.len()..])?)))
        }
        _ => Ok((header, None)),
    }
}

/// The header's first word.
const MAGIC: &str = "othello-corpus";
/// The format version.
const VERSION: u32 = 1;
/// Transposition table size (log2 entries) of the self-play search.
const TABLE_BITS: u32 = 18;
/// Exact labels are clamped to this (a full board is at most 64).
const MAX_LABEL: f64 = 64.0;

/// How a chunk is played.
#[derive(Clone, Debug, PartialEq)]
pub struct CorpusConfig {
    /// Games in the chunk.
    pub games: u32,
    /// Seed; game `i` uses seed `seed * 2^32 + i`, so a chunk does not
    /// depend on the thread count.
    pub seed: u64,
    /// Worker threads.
    pub threads: usize,
    /// Depth of the selective search that plays and labels.
    pub depth: u32,
    /// From this many empties on, the exact solver plays and labels.
    pub exact_empties: u32,
    /// Opening plies played at random: uniform in this range.
    pub random_plies: (u32, u32),
    /// After the opening, chance of a random move.
    pub epsilon: f64,
    /// Only this part of the chunk's games (`--shard`).
    pub shard: Option<Shard>,
}

impl Default for CorpusConfig {
    fn default() -> CorpusConfig {
        CorpusConfig {
            games: 5000,
            seed: 1,
            threads: 2,
            depth: 8,
            exact_empties: 18,
            random_plies: (2, 20),
            epsilon: 0.04,
            shard: None,
        }
    }
}

/// The weights that the self-play search uses, as the header names them.
pub fn weights_id() -> String {
    format!("{}:{}", weights::CHECKSUM.0, weights::CHECKSUM.1)
}

impl CorpusConfig {
    /// The header line (without its newline); a shard's ends with
    /// ` shard=I/N`.
    pub fn header(&self) -> String {
        let shard = self
            .shard
            .map_or(String::new(), |s| format!(" {SHARD_KEY}{s}"));
        format!(
            "{MAGIC} {VERSION} seed={} depth={} exact={} plies={}-{} epsilon={} weights={}{shard}",
            self.seed,
            self.depth,
            self.exact_empties,
            self.random_plies.0,
            self.random_plies.1,
            self.epsilon,
            weights_id()
        )
    }

    /// The settings a chunk's header names (its shard too; threads and
    /// games are not in it and keep their defaults).
    ///
    /// # Errors
    /// A header that is not a corpus chunk's, or a field missing or malformed.
    pub fn from_header(header: &str) -> Result<CorpusConfig, String> {
        let (base, shard) = split_shard(header)?;
        let bad = || format!("not a corpus header: {header:?}");
        let mut words = base.split(' ');
        if words.next() != Some(MAGIC) || words.next() != Some("1") {
            return Err(bad());
        }
        let fields: BTreeMap<&str, &str> = words.filter_map(|w| w.split_once('=')).collect();
        let field = |key: &str| fields.get(key).copied().ok_or_else(bad);
        let number = |key: &str| field(key)?.parse::<u64>().map_err(|_| bad());
        let (a, b) = field("plies")?.split_once('-').ok_or_else(bad)?;
        let plies = |x: &str| x.parse::<u32>().map_err(|_| bad());
        Ok(CorpusConfig {
            seed: number("seed")?,
            depth: u32::try_from(number("depth")?).map_err(|_| bad())?,
            exact_empties: u32::try_from(number("exact")?).map_err(|_| bad())?,
            random_plies: (plies(a)?, plies(b)?),
            epsilon: field("epsilon")?.parse().map_err(|_| bad())?,
            shard,
            ..CorpusConfig::default()
        })
    }

    /// The chunk's `k`-th game (from 0) in this file: game `k`, or for a
    /// shard the shard's `k`-th.
    fn game(&self, k: u32) -> u32 {
        self.shard.map_or(k, |s| s.item(k))
    }

    /// Games in this file when complete.
    pub fn file_games(&self) -> u32 {
        self.shard.map_or(self.games, |s| s.items_of(self.games))
    }
}

/// One game: its moves (passes omitted) and one label per move, the score
/// of the position before it for the side to move, in discs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    /// The moves.
    pub moves: Vec<Square>,
    /// The labels.
    pub labels: Vec<i8>,
}

fn discs(score: f64) -> i8 {
    score.round().clamp(-MAX_LABEL, MAX_LABEL) as i8
}

/// The chance moves of one game, in the order [`play_game`] draws them:
/// the number of random opening plies first, then at each searched ply
/// whether its move is random and which. [`crate::outcome`] replays them.
pub(crate) struct Dice {
    rng: Xoshiro256PlusPlus,
    pub(crate) random_plies: u32,
    epsilon: f64,
}

impl Dice {
    pub(crate) fn new(cfg: &CorpusConfig, game: u32) -> Dice {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(cfg.seed << 32 | u64::from(game));
        let random_plies = rng.gen_range(cfg.random_plies.0..=cfg.random_plies.1);
        Dice {
            rng,
            random_plies,
            epsilon: cfg.epsilon,
        }
    }

    /// At searched ply `ply` (passes not counted) with `n` legal moves:
    /// the index of the random move among them, or `None` when the
    /// search's move is played.
    pub(crate) fn roll(&mut self, ply: u32, n: usize) -> Option<usize> {
        let random = ply < self.random_plies || self.rng.gen_bool(self.epsilon);
        random.then(|| self.rng.gen_range(0..n))
    }
}

/// A fresh search for one game's positions, as self-play labels them:
/// the compiled pattern evaluation, Multi-ProbCut on, no exact solve
/// inside (the solver labels the last empties itself).
pub fn game_search() -> AlphaBeta {
    let mut search = AlphaBeta::with_table_bits(Evaluator::new(EvalKind::Pattern, 0), TABLE_BITS);
    search.set_exact_empties(0);
    search
}

/// The depth-`depth` search's move and label (its score in discs,
/// rounded) of `board`, which has a move.
pub fn search_label(search: &mut AlphaBeta, board: &Board, depth: u32) -> (Square, i8) {
    let r = search.choose(board, board.moves(), &Limits::depth(depth));
    let score = match r.score {
        Score::Selective(s) | Score::Estimate(s) => s,
        Score::Exact(s) => f64::from(s),
        other => unreachable!("alpha-beta scored {other:?}"),
    };
    (r.best, discs(score))
}

/// Plays game `game` of the chunk.
pub fn play_game(cfg: &CorpusConfig, game: u32) -> Game {
    let mut dice = Dice::new(cfg, game);
    // A fresh table per game: a game never depends on what its thread
    // played before.
    let mut search = game_search();
    let mut solver = Solver::new(Deadline::unlimited());
    let mut board = Board::start();
    let mut out = Game {
        moves: Vec::with_capacity(60),
        labels: Vec::with_capacity(60),
    };
    let mut ply = 0;
    while !board.is_game_over() {
        let moves = board.moves();
        if moves.is_empty() {
            board = board.pass();
            continue;
        }
        let (best, label) = if board.empty_count() <= cfg.exact_empties {
            let s = solver
                .solve(&board, moves, false)
                .expect("an unlimited solve finishes");
            (s.best, discs(f64::from(s.score)))
        } else {
            let (searched, label) = search_label(&mut search, &board, cfg.depth);
            let squares: Vec<Square> = moves.squares().collect();
            let pick = dice
                .roll(ply, squares.len())
                .map_or(searched, |i| squares[i]);
            (pick, label)
        };
        out.moves.push(best);
        out.labels.push(label);
        board = board.play(best);
        ply += 1;
    }
    out
}

/// Appends `game`'s record to `buf`.
pub fn encode(game: &Game, buf: &mut Vec<u8>) {
    buf.push(game.moves.len() as u8);
    buf.extend(game.moves.iter().map(|&sq| sq.index() as u8));
    buf.extend(game.labels.iter().map(|&l| l as u8));
}

/// A chunk file read back: its header and games.
#[derive(Clone, Debug)]
pub struct Chunk {
    /// The header line.
    pub header: String,
    /// The complete games, in order.
    pub games: Vec<Game>,
    /// Bytes of the complete records (with the header): a torn last record
    /// starts here.
    pub complete_len: usize,
}

/// Parses a chunk file's bytes. A torn last record (an interrupted run) is
/// left out, not an error: [`Chunk::complete_len`] says where it starts.
///
/// # Errors
/// A missing or foreign header, or a game with an illegal move or that does
/// not end the game (naming the game and the move).
pub fn parse(bytes: &[u8]) -> Result<Chunk, String> {
    let nl = bytes
        .iter()
        .position(|&b| b == b'\n')
        .ok_or("no header line (not a corpus chunk)")?;
    let header = std::str::from_utf8(&bytes[..nl])
        .map_err(|_| "the header line is not text (not a corpus chunk)")?
        .to_string();
    let mut words = header.split(' ');
    if words.next() != Some(MAGIC) || words.next() != Some("1") {
        return Err(format!(
            "line 1: expected \"{MAGIC} {VERSION} ...\", found {:?}",
            header.chars().take(60).collect::<String>()
        ));
    }
    let mut games = Vec::new();
    let mut at = nl + 1;
    while at < bytes.len() {
        let n = bytes[at] as usize;
        if at + 1 + 2 * n > bytes.len() {
            break;
        }
        let moves = &bytes[at + 1..at + 1 + n];
        let labels = &bytes[at + 1 + n..at + 1 + 2 * n];
        let g = games.len();
        let mut board = Board::start();
        let mut game = Game {
            moves: Vec::with_capacity(n),
            labels: labels.iter().map(|&l| l as i8).collect(),
        };
        for (k, &m) in moves.iter().enumerate() {
            if board.moves().is_empty() {
                board = board.pass();
            }
            let sq = Some(m)
                .filter(|&m| m < 64)
                .map(Square::new)
                .filter(|&sq| board.moves().contains(sq))
                .ok_or_else(|| format!("game {g} (byte {at}): move {} ({m}) is illegal", k + 1))?;
            if labels[k] as i8 > 64 || (labels[k] as i8) < -64 {
                return Err(format!(
                    "game {g} (byte {at}): label {} out of range",
                    k + 1
                ));
            }
            game.moves.push(sq);
            board = board.play(sq);
        }
        if !board.is_game_over() {
            return Err(format!(
                "game {g} (byte {at}): the moves do not end the game"
            ));
        }
        games.push(game);
        at += 1 + 2 * n;
    }
    Ok(Chunk {
        header,
        games,
        complete_len: at.min(bytes.len()),
    })
}

/// Parses a finished chunk's bytes, read from `name`: as [`parse`], but a
/// torn last record is an error (an interrupted `train corpus` to finish),
/// not left out.
///
/// # Errors
/// [`parse`]'s, or a torn last record; each naming `name`.
pub fn parse_complete(name: &str, bytes: &[u8]) -> Result<Chunk, String> {
    let chunk = parse(bytes).map_err(|e| format!("{name}: {e}"))?;
    if chunk.complete_len < bytes.len() {
        return Err(format!(
            "{name}: the last game is torn at byte {} (an interrupted `train corpus`: \
             run it again to finish the chunk)",
            chunk.complete_len
        ));
    }
    Ok(chunk)
}

/// The labelled positions of `games`, numbered from `first_game`.
pub fn samples(games: &[Game], first_game: u32) -> Vec<Sample> {
    let mut out = Vec::with_capacity(games.len() * 60);
    for (g, game) in games.iter().enumerate() {
        let mut board = Board::start();
        for (&sq, &label) in game.moves.iter().zip(&game.labels) {
            if board.moves().is_empty() {
                board = board.pass();
            }
            out.push(Sample {
                board,
                label,
                game: first_game + g as u32,
                held_out: None,
            });
            board = board.play(sq);
        }
    }
    out
}

/// What [`generate`] did.
#[derive(Clone, Debug)]
pub struct GenReport {
    /// Games that were already in the file.
    pub resumed: u32,
    /// Games played now.
    pub played: u32,
    /// Positions of those games.
    pub positions: usize,
}

/// Plays the chunk into `path`, resuming what the file already holds
/// (its header must match `cfg`). `bar` counts games.
///
/// # Errors
/// An unreadable or foreign file, a header for other settings or weights,
/// or a write error.
pub fn generate(cfg: &CorpusConfig, path: &Path, bar: &ProgressBar) -> Result<GenReport, String> {
    write_chunk(
        path,
        &cfg.header(),
        cfg.file_games(),
        cfg.threads,
        bar,
        |k| play_game(cfg, cfg.game(k)),
    )
}

/// Writes a chunk of `games` games with header `header` into `path`, game
/// `k` made by `make(k)` on `threads` threads, in order and a game at a
/// time, resuming what the file already holds (its header must be
/// `header`). `bar` counts games.
///
/// # Errors
/// An unreadable or foreign file, another header, or a write error.
pub fn write_chunk(
    path: &Path,
    header: &str,
    games: u32,
    threads: usize,
    bar: &ProgressBar,
    make: impl Fn(u32) -> Game + Sync,
) -> Result<GenReport, String> {
    let name = path.display();
    let mut resumed = 0;
    if path.exists() {
        let bytes = std::fs::read(path).map_err(|e| format!("{name}: {e}"))?;
        let chunk = parse(&bytes).map_err(|e| format!("{name}: {e}"))?;
        if chunk.header != header {
            return Err(format!(
                "{name}: made with other settings or weights:\n  file: {}\n  now:  {header}",
                chunk.header
            ));
        }
        // Drop a torn last record before appending.
        let f = std::fs::OpenOptions::new()
            .write(true)
            .open(path)
            .map_err(|e| format!("{name}: {e}"))?;
        f.set_len(chunk.complete_len as u64)
            .map_err(|e| format!("{name}: {e}"))?;
        resumed = chunk.games.len() as u32;
    } else {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        }
        std::fs::write(path, format!("{header}\n")).map_err(|e| format!("{name}: {e}"))?;
    }
    bar.set_position(u64::from(resumed.min(games)));
    let mut file = std::fs::OpenOptions::new()
        .append(true)
        .open(path)
        .map_err(|e| format!("{name}: {e}"))?;
    let next = AtomicU32::new(resumed);
    let (tx, rx) = mpsc::channel::<(u32, Game)>();
    let mut report = GenReport {
        resumed,
        played: 0,
        positions: 0,
    };
    let make = &make;
    std::thread::scope(|scope| -> Result<(), String> {
        for _ in 0..threads.max(1) {
            let tx = tx.clone();
            let next = &next;
            scope.spawn(move || loop {
                let k = next.fetch_add(1, Ordering::Relaxed);
                if k >= games || tx.send((k, make(k))).is_err() {
                    break;
                }
            });
        }
        drop(tx);
        // Games finish out of order: write each once all earlier ones are.
        let mut pending = BTreeMap::new();
        let mut want = resumed;
        for (k, game) in rx {
            pending.insert(k, game);
            let mut buf = Vec::new();
            while let Some(game) = pending.remove(&want) {
                encode(&game, &mut buf);
                report.played += 1;
                report.positions += game.moves.len();
                want += 1;
                bar.inc(1);
            }
            if !buf.is_empty() {
                if let Err(e) = file.write_all(&buf).and_then(|()| file.flush()) {
                    // Stop the workers: nothing more can be kept.
                    next.store(games, Ordering::Relaxed);
                    return Err(format!("{name}: {e}"));
                }
            }
        }
        Ok(())
    })?;
    Ok(report)
}

/// Whether `bytes` start like a corpus chunk.
pub fn is_chunk(bytes: &[u8]) -> bool {
    bytes.starts_with(MAGIC.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn small() -> CorpusConfig {
        CorpusConfig {
            games: 3,
            seed: 9,
            threads: 2,
            depth: 2,
            exact_empties: 8,
            ..CorpusConfig::default()
        }
    }

    #[test]
    fn late_labels_are_exact_and_games_reproducible() {
        let cfg = small();
        let game = play_game(&cfg, 1);
        assert_eq!(game, play_game(&cfg, 1));
        let samples = samples(std::slice::from_ref(&game), 0);
        assert_eq!(samples.len(), game.moves.len());
        let mut solver = Solver::new(Deadline::unlimited());
        let mut exact = 0;
        for s in samples.iter().filter(|s| s.board.empty_count() <= 8) {
            let (_, score) = solver.solve_board(&s.board, false).unwrap();
            assert_eq!(i32::from(s.label), score);
            exact += 1;
        }
        assert!(exact >= 5, "only {exact} exact positions");
    }

    #[test]
    fn a_chunk_round_trips_resumes_and_refuses_bad_files() {
        let dir = std::env::temp_dir().join(format!("corpus-test-{}", std::process::id()));
        let path = dir.join("chunk.bin");
        let _ = std::fs::remove_dir_all(&dir);
        let cfg = small();
        let bar = ProgressBar::hidden();
        let r = generate(&cfg, &path, &bar).unwrap();
        assert_eq!((r.resumed, r.played), (0, 3));
        let whole = std::fs::read(&path).unwrap();
        let chunk = parse(&whole).unwrap();
        assert_eq!(chunk.games.len(), 3);
        for (g, game) in chunk.games.iter().enumerate() {
            assert_eq!(*game, play_game(&cfg, g as u32));
        }
        // Tear the last record, then resume: the file comes back whole.
        std::fs::write(&path, &whole[..whole.len() - 7]).unwrap();
        assert_eq!(
            parse(&std::fs::read(&path).unwrap()).unwrap().games.len(),
            2
        );
        let r = generate(&cfg, &path, &bar).unwrap();
        assert_eq!((r.resumed, r.played), (2, 1));
        assert_eq!(std::fs::read(&path).unwrap(), whole);
        // Other settings are refused, the file left alone.
        let other = CorpusConfig { depth: 3, ..cfg };
        let e = generate(&other, &path, &bar).unwrap_err();
        assert!(e.contains("other settings"), "{e}");
        assert_eq!(std::fs::read(&path).unwrap(), whole);
        // An illegal move is named.
        let mut bad = whole.clone();
        let first = bad.iter().position(|&b| b == b'\n').unwrap() + 2;
        bad[first] = 0; // a1 is never legal on the first move
        let e = parse(&bad).unwrap_err();
        assert!(e.contains("game 0") && e.contains("move 1"), "{e}");
        assert!(parse(b"hello\n").unwrap_err().contains("line 1"));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

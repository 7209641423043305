//! The strong-play endgame corpus (`train endgame`, docs/training.md):
//! positions at 8-26 empties from recorded games of strong play (the
//! bot's own at CodinGame limits, and a strong engine's), each labelled
//! by the exact solver where it can be and by a wide selective solve
//! above that.
//!
//! From each game it keeps the positions of the game's line with
//! [`EndgameConfig::empties`] empties, and the positions one move off the
//! line (the children of a line position: what a search of that position
//! looks at first) with at most [`EndgameConfig::children`] empties. A
//! position where the side to move must pass is left out. Each position is
//! kept once, by the first game (in the input's order) to reach it, so the
//! chunk does not depend on how it is cut in shards.
//!
//! Labels are the final disc difference for the side to move under
//! perfect play: exact up to [`EndgameConfig::exact`] empties (a line
//! position whose children are all in the record takes the best of their
//! exact scores, which is its exact score), a selective solve at
//! [`EndgameConfig::cut`] above.
//!
//! File format (one chunk, or one shard of it): a header line of text,
//! `othello-endgame 1 seed=S empties=A-B exact=E children=C cut=T
//! games=N:HASH weights=W[ shard=I/N]`, then one record per game in game
//! order:
//! - the game's number in the input (`u32`, little-endian),
//! - `n` (one byte) and the game's `n` moves (squares, `a1` = 0; passes
//!   omitted),
//! - a flag byte (bit 0: the game is held out, drawn from the seed),
//! - the number of positions `m` (`u16`, little-endian),
//! - `m` positions of four bytes: the moves of the game played before it,
//!   the square of one more move ([`NO_CHILD`] for a line position), the
//!   label (signed, discs) and its level (0: exact; else the selective
//!   solve's cut in tenths of a deviation).
//!
//! A record is appended as soon as its game and all earlier ones are
//! labelled, so an interrupted run keeps every finished game and resumes.
//! Reading checks every label: in range and even (a final disc difference
//! always is), of the level its empties call for, and a line position's
//! exact label the best of its children's where they are all there.

use crate::gen::Sample;
use indicatif::ProgressBar;
use othello::eval::weights;
use othello::search::endgame::{Solver, SOLVE_TABLE_BITS};
use othello::time::Deadline;
use othello::{Board, Square};
use shard::Shard;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::io::Write;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;

/// The header's first word.
pub const MAGIC: &str = "othello-endgame";
/// The format version.
const VERSION: u32 = 1;
/// Where the chunks live, relative to the workspace root.
pub const DIR: &str = "train/endgame";
/// One game in this many is held out, drawn from the seed: its positions
/// are the validation set of `train fit` and the source of the held-out
/// benches.
pub const HOLDOUT_EVERY: u64 = 20;
/// The square byte of a line position (no extra move).
pub const NO_CHILD: u8 = 255;
/// The level byte of an exact label.
pub const EXACT: u8 = 0;
/// The header field of a shard, last on the line.
const SHARD_KEY: &str = "shard=";
/// Bytes of one position in a record.
const POSITION_BYTES: usize = 4;

/// What `train endgame` keeps and how it labels it.
#[derive(Clone, Debug, PartialEq)]
pub struct EndgameConfig {
    /// Seed of the holdout draw.
    pub seed: u64,
    /// Line positions kept: this many empties (inclusive).
    pub empties: (u32, u32),
    /// Up to this many empties labels are exact; above, selective.
    pub exact: u32,
    /// Children of line positions kept up to this many empties (and from
    /// the first of [`EndgameConfig::empties`]); 0: none.
    pub children: u32,
    /// The selective solve's cut above [`EndgameConfig::exact`], in
    /// hundredths of a deviation (a multiple of 10).
    pub cut: i32,
    /// Worker threads.
    pub threads: usize,
    /// Only this part of the games (`--shard`).
    pub shard: Option<Shard>,
}

/// Line positions from 24 empties (where the bot's turn starts to warm
/// the solver's table, docs/endgame.md) down to 8 (where the selective
/// solve's cuts stop). On one thread (2026-12-03, games of a strong
/// engine) the 99% labels at 25-26 cost about 2.5 s a position, more than
/// the rest of a game's labels together; at 23-24 about 0.9 s.
pub const DEFAULT_EMPTIES: (u32, u32) = (8, 24);
/// Exact labels up to 22 empties: about 0.8 s a position on one thread
/// with the table warm from the game's later positions.
pub const DEFAULT_EXACT: u32 = 22;
/// Children up to 20 empties: about seven a line position; those at 20
/// and 19 cost about 2.3 s a game, the rest about 1 s.
pub const DEFAULT_CHILDREN: u32 = 20;
/// The selective labels' cut: 280, the bot's widest pass (99%).
pub const DEFAULT_CUT: i32 = 280;

impl Default for EndgameConfig {
    fn default() -> EndgameConfig {
        EndgameConfig {
            seed: 1,
            empties: DEFAULT_EMPTIES,
            exact: DEFAULT_EXACT,
            children: DEFAULT_CHILDREN,
            cut: DEFAULT_CUT,
            threads: 2,
            shard: None,
        }
    }
}

/// The games a chunk is made from: their transcripts (passes omitted), in
/// order.
pub struct Games {
    transcripts: Vec<String>,
    moves: Vec<Vec<Square>>,
}

impl Games {
    /// Reads `transcripts` (each from its file's line, for errors).
    ///
    /// # Errors
    /// A transcript with a malformed or illegal move, named by game and
    /// move.
    pub fn new(transcripts: Vec<String>) -> Result<Games, String> {
        let mut moves = Vec::with_capacity(transcripts.len());
        for (g, t) in transcripts.iter().enumerate() {
            let at = |k: usize| format!("game {} ({t:.20}..): move {}", g + 1, k + 1);
            if t.len() % 2 != 0 || t.len() > 120 {
                return Err(format!("game {}: not a transcript: {t:?}", g + 1));
            }
            let mut board = Board::start();
            let mut list = Vec::with_capacity(t.len() / 2);
            for k in 0..t.len() / 2 {
                let sq =
                    Square::parse(&t[2 * k..2 * k + 2]).map_err(|e| format!("{}: {e}", at(k)))?;
                if board.moves().is_empty() {
                    board = board.pass();
                }
                if !board.is_legal(sq) {
                    return Err(format!("{}: {} is illegal", at(k), &t[2 * k..2 * k + 2]));
                }
                board = board.play(sq);
                list.push(sq);
            }
            moves.push(list);
        }
        Ok(Games { transcripts, moves })
    }

    /// How many games.
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    /// Each game's positions, move by move ([`line`]).
    pub fn lines(&self) -> Vec<Vec<Board>> {
        self.moves.iter().map(|m| line(m)).collect()
    }

    /// The games' identity in a header: their count and an FNV-1a hash of
    /// their transcripts.
    pub fn id(&self) -> String {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for t in &self.transcripts {
            for b in t.bytes().chain([b'\n']) {
                h = (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3);
            }
        }
        format!("{}:{h:016x}", self.transcripts.len())
    }
}

/// One kept position of a game: `ply` moves of the game played, then
/// `child` if any.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Moves of the game played before it (passes not counted).
    pub ply: u8,
    /// One more move off the line, or [`NO_CHILD`].
    pub child: u8,
}

/// A labelled position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Labelled {
    /// Which position of the game.
    pub entry: Entry,
    /// Final disc difference for the side to move.
    pub label: i8,
    /// [`EXACT`], or the selective solve's cut in tenths.
    pub level: u8,
}

/// One game's record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// The game's number in the input (from 0).
    pub game: u32,
    /// Its moves.
    pub moves: Vec<Square>,
    /// Whether it is held out.
    pub held_out: bool,
    /// Its positions, in the order they were labelled.
    pub positions: Vec<Labelled>,
}

/// The positions on the line of `moves`: for each count of moves played,
/// the board with the side to move (after a pass where it has none), and
/// whether the game goes on.
fn line(moves: &[Square]) -> Vec<Board> {
    let mut boards = Vec::with_capacity(moves.len() + 1);
    let mut board = Board::start();
    for &sq in moves {
        if board.moves().is_empty() {
            board = board.pass();
        }
        boards.push(board);
        board = board.play(sq);
    }
    if board.moves().is_empty() {
        board = board.pass();
    }
    boards.push(board);
    boards
}

/// The board of `entry` on the line `boards`.
fn board_of(boards: &[Board], entry: Entry) -> Board {
    let b = boards[usize::from(entry.ply)];
    if entry.child == NO_CHILD {
        b
    } else {
        b.play(Square::new(entry.child))
    }
}

impl EndgameConfig {
    /// The header line for `games` (without its newline).
    pub fn header(&self, games: &Games) -> String {
        let shard = self
            .shard
            .map_or(String::new(), |s| format!(" {SHARD_KEY}{s}"));
        format!(
            "{MAGIC} {VERSION} seed={} empties={}-{} exact={} children={} cut={} games={} weights={}:{}{shard}",
            self.seed,
            self.empties.0,
            self.empties.1,
            self.exact,
            self.children,
            self.cut,
            games.id(),
            weights::CHECKSUM.0,
            weights::CHECKSUM.1
        )
    }

    /// Whether game `g` is held out: one in [`HOLDOUT_EVERY`], drawn from
    /// the seed (splitmix64 of seed and game).
    pub fn held_out(&self, g: u32) -> bool {
        let mut z = self
            .seed
            .wrapping_mul(0x9e37_79b9_7f4a_7c15)
            .wrapping_add(u64::from(g))
            .wrapping_add(0x9e37_79b9_7f4a_7c15);
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        (z ^ (z >> 31)) % HOLDOUT_EVERY == 0
    }

    /// The level a position of `empties` empties is labelled at.
    fn level(&self, empties: u32) -> u8 {
        if empties <= self.exact {
            EXACT
        } else {
            (self.cut / 10) as u8
        }
    }

    /// Whether a line position of `board` is kept.
    fn keeps_line(&self, board: &Board) -> bool {
        let e = board.empty_count();
        (self.empties.0..=self.empties.1).contains(&e) && !board.moves().is_empty()
    }

    /// Whether a child `board` (one move off the line) is kept.
    fn keeps_child(&self, board: &Board) -> bool {
        let e = board.empty_count();
        e >= self.empties.0 && e <= self.children && !board.moves().is_empty()
    }

    /// Every game's positions to keep, each position once (in the first
    /// game to reach it): line positions, then children, by ply.
    pub fn entries(&self, games: &Games) -> Vec<Vec<Entry>> {
        let mut seen: HashSet<Board> = HashSet::new();
        let mut all = Vec::with_capacity(games.len());
        for moves in &games.moves {
            let boards = line(moves);
            let mut kept = Vec::new();
            for (ply, b) in boards.iter().enumerate() {
                if self.keeps_line(b) && seen.insert(*b) {
                    kept.push(Entry {
                        ply: ply as u8,
                        child: NO_CHILD,
                    });
                }
            }
            for (ply, b) in boards.iter().enumerate() {
                if b.empty_count() > self.children + 1 || b.moves().is_empty() {
                    continue;
                }
                for sq in b.moves().squares() {
                    let c = b.play(sq);
                    if self.keeps_child(&c) && seen.insert(c) {
                        kept.push(Entry {
                            ply: ply as u8,
                            child: sq.index() as u8,
                        });
                    }
                }
            }
            all.push(kept);
        }
        all
    }

    /// Labels game `g`'s `entries` with `solver` (its table cleared first,
    /// so a game's labels never depend on the games before it). Positions
    /// are labelled fewest empties first; a line position whose every
    /// child is kept takes the best of their exact labels.
    pub fn label(&self, solver: &mut Solver, games: &Games, g: u32, entries: &[Entry]) -> Record {
        solver.clear();
        let moves = &games.moves[g as usize];
        let boards = line(moves);
        let mut order: Vec<(Entry, Board)> =
            entries.iter().map(|&e| (e, board_of(&boards, e))).collect();
        order.sort_by_key(|(e, b)| (b.empty_count(), e.ply, e.child));
        let mut known: HashMap<Board, (i8, u8)> = HashMap::new();
        let mut positions = Vec::with_capacity(order.len());
        for (entry, board) in order {
            let level = self.level(board.empty_count());
            let from_children = (level == EXACT)
                .then(|| best_of_children(&board, &known))
                .flatten();
            let label = match from_children {
                Some(l) => l,
                None => {
                    let moves = board.moves();
                    let s = if level == EXACT {
                        solver.solve(&board, moves, false)
                    } else {
                        solver.solve_selective(&board, moves, self.cut)
                    };
                    s.expect("an unlimited solve finishes").score as i8
                }
            };
            known.insert(board, (label, level));
            positions.push(Labelled {
                entry,
                label,
                level,
            });
        }
        Record {
            game: g,
            moves: moves.clone(),
            held_out: self.held_out(g),
            positions,
        }
    }
}

/// The best of `board`'s children's exact labels, when every child has
/// one in `known` (a child where the side to move must pass has none, so
/// its parent is solved instead).
fn best_of_children(board: &Board, known: &HashMap<Board, (i8, u8)>) -> Option<i8> {
    let mut best: Option<i8> = None;
    for sq in board.moves().squares() {
        match known.get(&board.play(sq)) {
            Some(&(l, EXACT)) => best = Some(best.map_or(-l, |b| b.max(-l))),
            _ => return None,
        }
    }
    best
}

/// Appends `record` to `buf`.
pub fn encode(record: &Record, buf: &mut Vec<u8>) {
    buf.extend(record.game.to_le_bytes());
    buf.push(record.moves.len() as u8);
    buf.extend(record.moves.iter().map(|sq| sq.index() as u8));
    buf.push(u8::from(record.held_out));
    buf.extend((record.positions.len() as u16).to_le_bytes());
    for p in &record.positions {
        buf.extend([p.entry.ply, p.entry.child, p.label as u8, p.level]);
    }
}

/// A chunk (or shard) file read back.
#[derive(Clone, Debug)]
pub struct Chunk {
    /// The header line.
    pub header: String,
    /// The complete records, in order.
    pub records: Vec<Record>,
    /// Bytes of the complete records (with the header): a torn last
    /// record starts here.
    pub complete_len: usize,
}

/// The header's settings that reading checks against.
struct Settings {
    config: EndgameConfig,
}

impl Settings {
    fn parse(header: &str) -> Result<Settings, String> {
        let mut words = header.split(' ');
        if words.next() != Some(MAGIC) || words.next() != Some("1") {
            return Err(format!(
                "line 1: expected \"{MAGIC} {VERSION} ...\", found {:?}",
                header.chars().take(60).collect::<String>()
            ));
        }
        let mut c = EndgameConfig::default();
        let bad = |w: &str| format!("line 1: malformed field {w:?}");
        for w in words {
            let (k, v) = w.split_once('=').ok_or_else(|| bad(w))?;
            let num = |v: &str| v.parse::<u64>().map_err(|_| bad(w));
            match k {
                "seed" => c.seed = num(v)?,
                "empties" => {
                    let (a, b) = v.split_once('-').ok_or_else(|| bad(w))?;
                    c.empties = (num(a)? as u32, num(b)? as u32);
                }
                "exact" => c.exact = num(v)? as u32,
                "children" => c.children = num(v)? as u32,
                "cut" => c.cut = num(v)? as i32,
                "shard" => c.shard = Some(Shard::parse(v).map_err(|e| format!("line 1: {e}"))?),
                _ => {}
            }
        }
        Ok(Settings { config: c })
    }
}

/// Parses a chunk file's bytes, checking every record. A torn last record
/// (an interrupted run) is left out, not an error: [`Chunk::complete_len`]
/// says where it starts.
///
/// # Errors
/// A missing or foreign header, or a record that does not hold: an
/// illegal move, a position off the game or of the wrong empties, a label
/// out of range, odd, of the wrong level, or not the best of its
/// children's, each named with its byte offset in the file.
pub fn parse(bytes: &[u8]) -> Result<Chunk, String> {
    let nl = bytes
        .iter()
        .position(|&b| b == b'\n')
        .ok_or("no header line (not an endgame chunk)")?;
    let header = std::str::from_utf8(&bytes[..nl])
        .map_err(|_| "the header line is not text (not an endgame chunk)")?
        .to_string();
    let cfg = Settings::parse(&header)?.config;
    let mut records = Vec::new();
    let mut at = nl + 1;
    let mut last_game: Option<u32> = None;
    loop {
        match read_record(bytes, at, &cfg)? {
            None => break,
            Some((record, next)) => {
                if last_game.is_some_and(|g| record.game <= g) {
                    return Err(format!(
                        "byte {at}: game {} after game {}: records out of order",
                        record.game,
                        last_game.unwrap_or_default()
                    ));
                }
                last_game = Some(record.game);
                records.push(record);
                at = next;
            }
        }
    }
    Ok(Chunk {
        header,
        records,
        complete_len: at.min(bytes.len()),
    })
}

/// The record at byte `at`, checked, and where the next starts; `None`
/// at the end or for a torn record.
fn read_record(
    bytes: &[u8],
    at: usize,
    cfg: &EndgameConfig,
) -> Result<Option<(Record, usize)>, String> {
    let get = |from: usize, len: usize| bytes.get(from..from + len);
    let Some(game) = get(at, 4) else {
        return Ok(None);
    };
    let game = u32::from_le_bytes(game.try_into().expect("4 bytes"));
    let Some(&n) = bytes.get(at + 4) else {
        return Ok(None);
    };
    let n = usize::from(n);
    let Some(squares) = get(at + 5, n) else {
        return Ok(None);
    };
    let Some(head) = get(at + 5 + n, 3) else {
        return Ok(None);
    };
    let m = usize::from(u16::from_le_bytes([head[1], head[2]]));
    let body = at + 8 + n;
    let Some(list) = get(body, POSITION_BYTES * m) else {
        return Ok(None);
    };
    let err = |off: usize, what: String| format!("byte {off}: game {game}: {what}");
    let mut moves = Vec::with_capacity(n);
    let mut board = Board::start();
    for (k, &s) in squares.iter().enumerate() {
        if board.moves().is_empty() {
            board = board.pass();
        }
        let sq = Some(s)
            .filter(|&s| s < 64)
            .map(Square::new)
            .filter(|&sq| board.is_legal(sq))
            .ok_or_else(|| err(at + 5 + k, format!("move {} ({s}) is illegal", k + 1)))?;
        moves.push(sq);
        board = board.play(sq);
    }
    let held_out = head[0] & 1 == 1;
    if head[0] > 1 || held_out != cfg.held_out(game) {
        return Err(err(
            at + 5 + n,
            format!("flags {} disagree with the seed's holdout draw", head[0]),
        ));
    }
    let boards = line(&moves);
    let mut positions = Vec::with_capacity(m);
    let mut labels: HashMap<Board, (i8, u8)> = HashMap::new();
    for (i, p) in list.chunks_exact(POSITION_BYTES).enumerate() {
        let off = body + POSITION_BYTES * i;
        let entry = Entry {
            ply: p[0],
            child: p[1],
        };
        let (label, level) = (p[2] as i8, p[3]);
        if usize::from(entry.ply) > n {
            return Err(err(
                off,
                format!("position after {} moves of {n}", entry.ply),
            ));
        }
        let parent = boards[usize::from(entry.ply)];
        let b = if entry.child == NO_CHILD {
            if !cfg.keeps_line(&parent) {
                return Err(err(
                    off,
                    format!("line position after {} moves is not kept", entry.ply),
                ));
            }
            parent
        } else {
            let sq = Some(entry.child)
                .filter(|&s| s < 64)
                .map(Square::new)
                .filter(|&sq| parent.is_legal(sq))
                .ok_or_else(|| err(off, format!("child move {} is illegal", entry.child)))?;
            let c = parent.play(sq);
            if !cfg.keeps_child(&c) {
                return Err(err(
                    off,
                    format!("child {sq} after {} moves is not kept", entry.ply),
                ));
            }
            c
        };
        let what = format!("label {label} at {} empties", b.empty_count());
        if !(-64..=64).contains(&label) || (level == EXACT && label % 2 != 0) {
            return Err(err(
                off + 2,
                format!("{what}: an exact final disc difference is even, any within 64"),
            ));
        }
        if level != cfg.level(b.empty_count()) {
            return Err(err(
                off + 3,
                format!(
                    "{what}: level {level}, the header calls for {}",
                    cfg.level(b.empty_count())
                ),
            ));
        }
        if labels.insert(b, (label, level)).is_some() {
            return Err(err(
                off,
                format!("{what}: the position is in the record twice"),
            ));
        }
        positions.push(Labelled {
            entry,
            label,
            level,
        });
    }
    // A line position's exact label is the best of its children's, where
    // they are all in the record with exact labels.
    for (i, p) in positions.iter().enumerate() {
        let b = board_of(&boards, p.entry);
        if p.level != EXACT {
            continue;
        }
        if let Some(best) = best_of_children(&b, &labels) {
            if best != p.label {
                return Err(err(
                    body + POSITION_BYTES * i + 2,
                    format!(
                        "label {} at {} empties, but its children's exact labels give {best}",
                        p.label,
                        b.empty_count()
                    ),
                ));
            }
        }
    }
    let record = Record {
        game,
        moves,
        held_out,
        positions,
    };
    Ok(Some((record, body + POSITION_BYTES * m)))
}

/// Whether `bytes` start like an endgame chunk.
pub fn is_chunk(bytes: &[u8]) -> bool {
    bytes.starts_with(MAGIC.as_bytes())
}

/// The header without its shard field, and the shard.
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

/// The labelled positions of `records` as training samples; a game's
/// number is `first_game` plus its number in the input, and its holdout
/// the seed's draw.
pub fn samples(records: &[Record], first_game: u32) -> Vec<Sample> {
    let mut out = Vec::new();
    for r in records {
        let boards = line(&r.moves);
        for p in &r.positions {
            out.push(Sample {
                board: board_of(&boards, p.entry),
                label: p.label,
                game: first_game + r.game,
                held_out: Some(r.held_out),
            });
        }
    }
    out
}

/// What [`generate`] did.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// Games already in the file.
    pub resumed: usize,
    /// Games labelled now.
    pub labelled: usize,
    /// Positions of those games.
    pub positions: usize,
}

/// Labels the games of `games` that `cfg` keeps (its shard's) into
/// `path`, resuming what the file already holds (its header must be the
/// same). `bar` counts games.
///
/// # Errors
/// An unreadable or foreign file, a header of other settings, games or
/// weights, or a write error.
pub fn generate(
    cfg: &EndgameConfig,
    games: &Games,
    path: &Path,
    bar: &ProgressBar,
) -> Result<Report, String> {
    let name = path.display();
    let header = cfg.header(games);
    let entries = cfg.entries(games);
    let mine: Vec<u32> = (0..games.len() as u32)
        .filter(|&g| cfg.shard.is_none_or(|s| s.holds(u64::from(g))))
        .collect();
    let mut resumed = 0;
    if path.exists() {
        let bytes = std::fs::read(path).map_err(|e| format!("{name}: {e}"))?;
        let chunk = parse(&bytes).map_err(|e| format!("{name}: {e}"))?;
        if chunk.header != header {
            return Err(format!(
                "{name}: made with other settings, games or weights:\n  file: {}\n  now:  {header}",
                chunk.header
            ));
        }
        if chunk.records.iter().zip(&mine).any(|(r, &g)| r.game != g) {
            return Err(format!("{name}: its games are not this run's"));
        }
        let f = std::fs::OpenOptions::new()
            .write(true)
            .open(path)
            .map_err(|e| format!("{name}: {e}"))?;
        f.set_len(chunk.complete_len as u64)
            .map_err(|e| format!("{name}: {e}"))?;
        resumed = chunk.records.len();
    } else {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        }
        std::fs::write(path, format!("{header}\n")).map_err(|e| format!("{name}: {e}"))?;
    }
    bar.set_length(mine.len() as u64);
    bar.set_position(resumed.min(mine.len()) as u64);
    let mut file = std::fs::OpenOptions::new()
        .append(true)
        .open(path)
        .map_err(|e| format!("{name}: {e}"))?;
    let todo = &mine[resumed.min(mine.len())..];
    let next = AtomicUsize::new(0);
    let (tx, rx) = mpsc::channel::<(usize, Record)>();
    let mut report = Report {
        resumed,
        ..Report::default()
    };
    std::thread::scope(|scope| -> Result<(), String> {
        for _ in 0..cfg.threads.max(1) {
            let tx = tx.clone();
            let (next, entries) = (&next, &entries);
            scope.spawn(move || {
                let mut solver = Solver::with_table_bits(Deadline::unlimited(), SOLVE_TABLE_BITS);
                loop {
                    let k = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&g) = todo.get(k) else { break };
                    let record = cfg.label(&mut solver, games, g, &entries[g as usize]);
                    if tx.send((k, record)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        // Games finish out of order: write each once all earlier ones are.
        let mut pending = BTreeMap::new();
        let mut want = 0;
        for (k, record) in rx {
            pending.insert(k, record);
            let mut buf = Vec::new();
            while let Some(record) = pending.remove(&want) {
                encode(&record, &mut buf);
                report.labelled += 1;
                report.positions += record.positions.len();
                want += 1;
                bar.inc(1);
            }
            if !buf.is_empty() {
                if let Err(e) = file.write_all(&buf).and_then(|()| file.flush()) {
                    next.store(todo.len(), Ordering::Relaxed);
                    return Err(format!("{name}: {e}"));
                }
            }
        }
        Ok(())
    })?;
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    /// Two games of the bot against a strong engine (2026-12-03).
    const GAMES: [&str; 2] = [
        "d3c3c4c5d6f4f5e3g4e6f6d7c7f7c8g5e2f3g3h4h3h5h6g6f2c6h7d8d2c1e8g7e7f8b4b3d1a3b7e1f1c2h8g8b1a7b6h2b5a6a5a4h1g1g2a1a2b2a8b8",
        "e6f4d3c4c3d6f6c6f5g5g4f7h6g6e7f8d8d7c8e3f3c7e8b8b5h4c5a5h7h3g7h5g3b4b6c2d2f2a3a4h2d1e2a7e1h8g8h1a8b7a6b3a2f1g2g1c1b1b2a1",
    ];

    fn games() -> Games {
        Games::new(GAMES.iter().map(|s| s.to_string()).collect()).unwrap()
    }

    /// Small settings: lines at 8-14 empties, children up to 11, exact up
    /// to 12 (so 13-14 are selective).
    fn small() -> EndgameConfig {
        EndgameConfig {
            seed: 3,
            empties: (8, 14),
            exact: 12,
            children: 11,
            cut: 200,
            threads: 2,
            shard: None,
        }
    }

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("endgame-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn make(cfg: &EndgameConfig, path: &Path) -> Vec<u8> {
        generate(cfg, &games(), path, &ProgressBar::hidden()).unwrap();
        std::fs::read(path).unwrap()
    }

    #[test]
    fn labels_are_the_solver_s_and_each_position_is_kept_once() {
        let cfg = small();
        let games = games();
        let entries = cfg.entries(&games);
        let mut solver = Solver::with_table_bits(Deadline::unlimited(), 16);
        let mut fresh = Solver::with_table_bits(Deadline::unlimited(), 16);
        let mut seen = HashSet::new();
        let (mut exact, mut selective, mut children) = (0, 0, 0);
        for g in 0..2 {
            let r = cfg.label(&mut solver, &games, g, &entries[g as usize]);
            let boards = line(&r.moves);
            for p in &r.positions {
                let b = board_of(&boards, p.entry);
                assert!(seen.insert(b), "a position kept twice");
                let e = b.empty_count();
                if p.entry.child == NO_CHILD {
                    assert!((8..=14).contains(&e), "{e}");
                } else {
                    assert!((8..=11).contains(&e), "{e}");
                    children += 1;
                }
                fresh.clear();
                let want = if e <= 12 {
                    exact += 1;
                    assert_eq!(p.level, EXACT);
                    fresh.solve(&b, b.moves(), false).unwrap().score
                } else {
                    selective += 1;
                    assert_eq!(p.level, 20);
                    fresh.solve_selective(&b, b.moves(), 200).unwrap().score
                };
                assert_eq!(i32::from(p.label), want, "{e} empties");
            }
        }
        assert!(
            exact > 50 && selective >= 4 && children > 30,
            "{exact} {selective} {children}"
        );
    }

    #[test]
    fn the_same_games_give_the_same_bytes_on_any_threads_and_a_torn_chunk_is_continued() {
        let dir = scratch("bytes");
        let cfg = small();
        let path = dir.join("chunk.bin");
        let whole = make(&cfg, &path);
        let one = EndgameConfig {
            threads: 1,
            ..cfg.clone()
        };
        let again = dir.join("again.bin");
        assert_eq!(make(&one, &again), whole);
        let chunk = parse(&whole).unwrap();
        assert_eq!(chunk.records.len(), 2);
        assert_eq!(chunk.complete_len, whole.len());
        // Torn inside the second record: read as one, then continued to
        // the same bytes.
        std::fs::write(&path, &whole[..whole.len() - 9]).unwrap();
        let torn = parse(&std::fs::read(&path).unwrap()).unwrap();
        assert_eq!(torn.records.len(), 1);
        let r = generate(&cfg, &games(), &path, &ProgressBar::hidden()).unwrap();
        assert_eq!((r.resumed, r.labelled), (1, 1));
        assert_eq!(std::fs::read(&path).unwrap(), whole);
        // Other settings are refused, the file left alone.
        let other = EndgameConfig { cut: 150, ..cfg };
        let e = generate(&other, &games(), &path, &ProgressBar::hidden()).unwrap_err();
        assert!(e.contains("other settings"), "{e}");
        assert_eq!(std::fs::read(&path).unwrap(), whole);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_bad_label_is_refused_with_its_offset() {
        let dir = scratch("bad");
        let whole = make(&small(), &dir.join("chunk.bin"));
        let chunk = parse(&whole).unwrap();
        // The byte of the first record's k-th label.
        let first = whole.iter().position(|&b| b == b'\n').unwrap() + 1;
        let n = usize::from(whole[first + 4]);
        let label_at = |k: usize| first + 8 + n + 4 * k + 2;
        let r = &chunk.records[0];
        // An odd exact label.
        let k = r.positions.iter().position(|p| p.level == EXACT).unwrap();
        let mut bad = whole.clone();
        bad[label_at(k)] ^= 1;
        let e = parse(&bad).unwrap_err();
        assert!(
            e.starts_with(&format!("byte {}: game 0: label", label_at(k))),
            "{e}"
        );
        assert!(e.contains("even"), "{e}");
        // An even label off by two on a line position whose children are
        // all there: the family check names the parent.
        let boards = line(&r.moves);
        let k = r
            .positions
            .iter()
            .position(|p| {
                p.entry.child == NO_CHILD
                    && p.level == EXACT
                    && r.positions
                        .iter()
                        .filter(|c| c.entry.ply == p.entry.ply && c.entry.child != NO_CHILD)
                        .count()
                        >= 2
                    && board_of(&boards, p.entry).empty_count() == 12
            })
            .unwrap();
        let mut bad = whole.clone();
        bad[label_at(k)] = (r.positions[k].label + 2) as u8;
        let e = parse(&bad).unwrap_err();
        assert!(
            e.starts_with(&format!("byte {}: game 0: label", label_at(k))),
            "{e}"
        );
        assert!(e.contains("children"), "{e}");
        // A selective label where an exact one belongs.
        let mut bad = whole.clone();
        bad[label_at(0) + 1] = 20;
        let e = parse(&bad).unwrap_err();
        assert!(
            e.contains(&format!("byte {}", label_at(0) + 1)) && e.contains("level"),
            "{e}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn shards_load_as_the_whole_chunk_with_the_seed_s_holdout() {
        let dir = scratch("shards");
        let cfg = small();
        let whole = dir.join("whole.bin");
        make(&cfg, &whole);
        let parts: Vec<PathBuf> = (1..=2)
            .map(|i| {
                let p = dir.join(format!("part{i}.bin"));
                let shard = EndgameConfig {
                    shard: Some(Shard { index: i, count: 2 }),
                    ..cfg.clone()
                };
                make(&shard, &p);
                p
            })
            .collect();
        let key = |s: &Sample| (s.board, s.label, s.game, s.held_out);
        let (a, _) = crate::data::load(&[vec![whole]]).unwrap();
        let (b, _) = crate::data::load(&[vec![parts[1].clone()], vec![parts[0].clone()]]).unwrap();
        assert!(!a.is_empty());
        assert_eq!(
            a.iter().map(key).collect::<Vec<_>>(),
            b.iter().map(key).collect::<Vec<_>>()
        );
        assert!(a.iter().all(|s| s.held_out == Some(cfg.held_out(s.game))));
        // A missing shard is named.
        let e = crate::data::load(&[vec![parts[0].clone()]]).unwrap_err();
        assert!(e.contains("missing: 2/2"), "{e}");
        // The draw holds out about one game in HOLDOUT_EVERY.
        let held = (0..20_000).filter(|&g| cfg.held_out(g)).count();
        assert!((800..1200).contains(&held), "{held}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

//! Growing the opening book with our own deep searches (`train book`).
//!
//! The book is a graph of positions from the start position, each keyed
//! by its canonical image (`othello::book::canonical`), each with a search
//! record: the best of its moves that lead outside the book, and that
//! move's value, from a deep search of the position restricted to those
//! moves. A position's value is the negamax of its successors in the book
//! and that record (Logistello's drop-out expansion: every position knows
//! its best way out).
//!
//! The records are the committed results: a log of fixed-size records in
//! chunk files (`train/book/chunk-NNN.bin`), appended as searches finish
//! and read back in file order, the last record of a position winning. The
//! state, the values and the exported book are functions of the log alone,
//! so the book rebuilds byte for byte from the committed chunks, and a run
//! resumes where the last chunk stopped.
//!
//! Which position to add next is best-first. The bot plays one colour and
//! always its book move; the opponent may play anything. So every line
//! worth a place is one in which one side (the bot) plays the book move at
//! every turn and the other deviates by a total `loss` (in discs, below
//! the best, as the book values them); lines where both sides deviate are
//! never reached. A candidate's priority is its ply plus
//! [`BookConfig::loss_plies`] per disc of loss: the principal line is
//! extended, and the replies a good opponent plays, near the best, are
//! covered first.

use othello::book::{canonical, follow, value_for_mover, Book, BookEntry};
use othello::eval::{EvalKind, Evaluator, SCALE};
use othello::search::alphabeta::AlphaBeta;
use othello::search::{Limits, Score, Strategy};
use othello::{Bitboard, Board, Square};
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap, HashSet};
use std::path::{Path, PathBuf};

/// Bytes of one record in a chunk file.
pub const RECORD_BYTES: usize = 32;
/// The best move of a record that searched no move.
pub const NO_MOVE: u8 = 64;

/// How the book grows and what of it is exported.
#[derive(Clone, Debug, PartialEq)]
pub struct BookConfig {
    /// Depth of the selective search of every record (docs/book.md: the
    /// time of a search by depth).
    pub depth: u32,
    /// The searches solve exactly from this many empties (0: never).
    pub exact: u32,
    /// Stop starting rounds after this many minutes (0: only write).
    pub minutes: f64,
    /// Stop when the book holds this many positions.
    pub target: usize,
    /// New positions searched per round (their parents are searched again
    /// after them).
    pub batch: usize,
    /// A line's deviating side may lose at most this many discs in all.
    pub margin: f64,
    /// Priority cost of one disc of loss, in plies.
    pub loss_plies: f64,
    /// No position deeper than this ply is added.
    pub max_ply: u32,
    /// Before this ply both sides may deviate, and every move is a
    /// candidate, not only a position's best way out (the short openings
    /// the referee measures from are covered; CodinGame's games start at
    /// ply 0 and need none).
    pub free_plies: u32,
    /// Growth only: the bot's side may also play a move this many discs
    /// or less below its book move (the loss counts toward `margin`). Book
    /// moves flip between near-equal moves as their subtrees deepen; the
    /// subtree under the runner-up is then grown already instead of
    /// orphaned (docs/book.md "Growing"). The export walks the bot's book
    /// moves alone.
    pub bot_margin: f64,
    /// Most characters of the packed book (`src/book/data.rs`): what the
    /// submission's 99,000 (issue 80's ceiling) leave after its code and the
    /// evaluation's networks (83,385 on 2026-12-05), less about 2,600 for
    /// code to come.
    pub max_chars: usize,
    /// Where the chunk files are.
    pub dir: PathBuf,
    /// The exported book is made from the first this many chunks (0: all);
    /// growing reads them all. (Chunks grown on another line are kept
    /// aside in their own directory, `train/book/aside/`: docs/book.md.)
    pub export_chunks: usize,
    /// Worker threads.
    pub threads: usize,
    /// Deepening: the book positions on the games of `--from` (strong
    /// play's lines) are searched again to this depth (`depth_at`; 0: no
    /// deepening) before the growth goes on.
    pub deep_depth: u32,
    /// Deepening reaches the games' positions before this ply.
    pub deep_plies: u32,
    /// The games whose lines are deepened (referee games files or
    /// transcripts).
    pub deep_from: Vec<PathBuf>,
}

impl Default for BookConfig {
    fn default() -> BookConfig {
        BookConfig {
            depth: 14,
            exact: 0,
            minutes: 40.0,
            target: 200_000,
            batch: 16,
            margin: 6.0,
            loss_plies: 4.0,
            max_ply: 40,
            free_plies: 4,
            bot_margin: 1.0,
            max_chars: 13_000,
            dir: PathBuf::from("train/book"),
            export_chunks: 0,
            threads: 2,
            deep_depth: 0,
            deep_plies: 24,
            deep_from: Vec::new(),
        }
    }
}

/// A position's search: the best of `searched` (the moves leading out of
/// the book when it ran) and its value. Squares and bitboards are in the
/// canonical image's frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Record {
    /// The canonical position.
    pub board: Board,
    /// The moves the search chose among.
    pub searched: u64,
    /// The best of them.
    pub best: u8,
    /// The depth searched.
    pub depth: u8,
    /// The best move's value, in evaluation units ([`SCALE`] a disc).
    pub score: i32,
}

impl Record {
    /// The record's bytes (little-endian fields, zero padding).
    pub fn to_bytes(self) -> [u8; RECORD_BYTES] {
        let mut b = [0u8; RECORD_BYTES];
        b[0..8].copy_from_slice(&self.board.player.to_le_bytes());
        b[8..16].copy_from_slice(&self.board.opponent.to_le_bytes());
        b[16..24].copy_from_slice(&self.searched.to_le_bytes());
        b[24] = self.best;
        b[25] = self.depth;
        b[28..32].copy_from_slice(&self.score.to_le_bytes());
        b
    }

    /// Reads a record, checking it describes a search that could have run.
    ///
    /// # Errors
    /// What is wrong with it.
    pub fn from_bytes(b: &[u8]) -> Result<Record, String> {
        let word = |i: usize| u64::from_le_bytes(b[i..i + 8].try_into().expect("8 bytes"));
        let r = Record {
            board: Board::new(word(0), word(8)),
            searched: word(16),
            best: b[24],
            depth: b[25],
            score: i32::from_le_bytes(b[28..32].try_into().expect("4 bytes")),
        };
        let legal = r.board.moves().0;
        if r.board.player & r.board.opponent != 0 || canonical(&r.board).0 != r.board {
            return Err("not a canonical position".into());
        }
        if r.searched & !legal != 0 {
            return Err("searched moves that are not legal".into());
        }
        if r.searched == 0 {
            // A position whose every move leads into the book: no search.
            if r.best != NO_MOVE || r.score != 0 {
                return Err("a record with no move searched has a move".into());
            }
        } else if r.best >= 64 || r.searched >> r.best & 1 == 0 {
            return Err("a best move that was not searched".into());
        }
        if b[26..28] != [0, 0] || r.score.abs() > 64 * SCALE {
            return Err("bad padding or score".into());
        }
        Ok(r)
    }
}

/// The chunk files of `dir`, in order.
///
/// # Errors
/// The directory cannot be read.
pub fn chunk_files(dir: &Path) -> Result<Vec<PathBuf>, String> {
    if !dir.exists() {
        return Ok(Vec::new());
    }
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
            name.starts_with("chunk-") && name.ends_with(".bin")
        })
        .collect();
    // By number: chunk-1000 after chunk-999.
    files.sort_by_key(|p| (p.as_os_str().len(), p.clone()));
    Ok(files)
}

/// The book as its records make it.
#[derive(Clone, Debug, Default)]
pub struct State {
    /// The last record of every position, by canonical key.
    pub records: HashMap<(u64, u64), Record>,
    /// Records read or added, in all.
    pub log_len: usize,
}

/// A position's key.
pub fn key(b: &Board) -> (u64, u64) {
    (b.player, b.opponent)
}

impl State {
    /// Reads the chunk files in order.
    ///
    /// # Errors
    /// An unreadable file, a torn or invalid record, named by file and
    /// record number.
    pub fn load(files: &[PathBuf]) -> Result<State, String> {
        let mut state = State::default();
        for f in files {
            let bytes = std::fs::read(f).map_err(|e| format!("{}: {e}", f.display()))?;
            if bytes.len() % RECORD_BYTES != 0 {
                return Err(format!(
                    "{}: {} bytes is not a whole number of {RECORD_BYTES}-byte records: \
                     the last record is torn (truncate the file to {} bytes to drop it)",
                    f.display(),
                    bytes.len(),
                    bytes.len() / RECORD_BYTES * RECORD_BYTES
                ));
            }
            for (i, b) in bytes.chunks(RECORD_BYTES).enumerate() {
                let r = Record::from_bytes(b)
                    .map_err(|e| format!("{}: record {}: {e}", f.display(), i + 1))?;
                state.add(r);
            }
        }
        Ok(state)
    }

    /// Adds a record (the last of a position wins).
    pub fn add(&mut self, r: Record) {
        self.records.insert(key(&r.board), r);
        self.log_len += 1;
    }

    /// Positions in the book.
    pub fn len(&self) -> usize {
        self.records.len()
    }

    /// The successor of `board` (canonical) by `m`, canonical, whether a
    /// pass followed, and whether it is in the book.
    fn successor(&self, board: &Board, m: Square) -> (Board, bool, bool) {
        let (next, passed) = follow(board, m);
        let (c, _) = canonical(&next);
        (c, passed, self.records.contains_key(&key(&c)))
    }

    /// The moves of a book position that lead outside the book.
    pub fn outside(&self, board: &Board) -> u64 {
        board
            .moves()
            .squares()
            .filter(|&m| !self.successor(board, m).2)
            .fold(0, |acc, m| acc | m.bit())
    }

    /// Book positions whose record no longer matches the moves that lead
    /// outside (a successor joined the book since), sorted.
    pub fn stale(&self) -> Vec<Board> {
        let mut out: Vec<Board> = self
            .records
            .values()
            .filter(|r| {
                let out = self.outside(&r.board);
                out != 0 && out != r.searched
            })
            .map(|r| r.board)
            .collect();
        out.sort_by_key(key);
        out
    }

    /// Every book position's value (units, for its side to move) and book
    /// move: the negamax of its successors in the book and its record.
    pub fn values(&self) -> HashMap<(u64, u64), (i32, u8)> {
        let mut memo = HashMap::with_capacity(self.records.len());
        let keys: Vec<_> = self.records.keys().copied().collect();
        for k in keys {
            self.value(k, &mut memo);
        }
        memo
    }

    fn value(&self, k: (u64, u64), memo: &mut HashMap<(u64, u64), (i32, u8)>) -> (i32, u8) {
        if let Some(&v) = memo.get(&k) {
            return v;
        }
        let r = self.records[&k];
        let mut best: Option<(i32, bool, u8)> = None;
        let mut consider = |value: i32, in_book: bool, m: u8| {
            // Highest value, then a move into the book, then the lowest square.
            let better = match best {
                None => true,
                Some((v, b, s)) => (value, in_book, Reverse(m)) > (v, b, Reverse(s)),
            };
            if better {
                best = Some((value, in_book, m));
            }
        };
        // The record's move while it still leads outside (a stale record's
        // best, if still outside, is still the best of the fewer moves).
        if r.searched != 0 && self.outside(&r.board) >> r.best & 1 != 0 {
            consider(r.score, false, r.best);
        }
        for m in r.board.moves().squares() {
            let (c, passed, in_book) = self.successor(&r.board, m);
            if in_book {
                let (v, _) = self.value(key(&c), memo);
                consider(value_for_mover(v, passed), true, m.index() as u8);
            }
        }
        let (v, _, m) = best.expect("a book position has a move");
        memo.insert(k, (v, m));
        (v, m)
    }
}

/// A line's end that may join the book: the position, the move, and the
/// successor it leads to.
#[derive(Clone, Copy, Debug)]
pub struct Candidate {
    /// Ply + loss cost: lower first.
    pub priority: f64,
    /// The successor (canonical).
    pub successor: Board,
}

/// What a walk of the lines the bot can meet finds: the book positions in
/// the order of their priority, and the candidates to add.
pub struct Walk {
    /// Book positions met, each once, in order of priority.
    pub order: Vec<(u64, u64)>,
    /// Moves leading outside the book from met positions, best first.
    pub candidates: Vec<Candidate>,
}

/// Walks the lines in which one side always plays the book move (from ply
/// `config.free_plies` on) or one at most `bot_margin` discs below it, and
/// the other deviates by at most `config.margin` discs in all (the first
/// side's losses included), best-first by priority (ply plus `loss_plies`
/// per disc of loss).
pub fn walk(
    state: &State,
    values: &HashMap<(u64, u64), (i32, u8)>,
    config: &BookConfig,
    bot_margin: f64,
) -> Walk {
    // The heap orders by priority in hundredths of a ply, then by key.
    type Item = Reverse<(i64, (u64, u64), bool, u32, i64)>;
    let prio = |ply: u32, loss: i64| {
        (f64::from(ply) * 100.0 + loss as f64 / f64::from(SCALE) * config.loss_plies * 100.0)
            .round() as i64
    };
    let margin = (config.margin * f64::from(SCALE)).round() as i64;
    let bot_margin = (bot_margin * f64::from(SCALE)).round() as i32;
    let mut heap: BinaryHeap<Item> = BinaryHeap::new();
    let (start, _) = canonical(&Board::start());
    if state.records.contains_key(&key(&start)) {
        for bot_moves in [true, false] {
            heap.push(Reverse((0, key(&start), bot_moves, 0, 0)));
        }
    }
    let mut seen = HashSet::new();
    let mut met = HashSet::new();
    let mut order = Vec::new();
    let mut candidates: HashMap<(u64, u64), Candidate> = HashMap::new();
    let mut add_candidate = |priority: i64, successor: Board| {
        if successor.moves().is_empty() {
            return;
        }
        let priority = priority as f64 / 100.0;
        let c = candidates.entry(key(&successor)).or_insert(Candidate {
            priority,
            successor,
        });
        if priority < c.priority {
            c.priority = priority;
        }
    };
    while let Some(Reverse((_, k, bot_moves, ply, loss))) = heap.pop() {
        if !seen.insert((k, bot_moves)) {
            continue;
        }
        if met.insert(k) {
            order.push(k);
        }
        let r = state.records[&k];
        let (v, book_move) = values[&k];
        let outside = state.outside(&r.board);
        for m in r.board.moves().squares() {
            let sq = m.index() as u8;
            let bot_bound = bot_moves && sq != book_move && ply >= config.free_plies;
            if bot_bound && bot_margin <= 0 {
                continue;
            }
            let (c, passed, in_book) = state.successor(&r.board, m);
            let (value, next_ply) = if in_book {
                (value_for_mover(values[&key(&c)].0, passed), ply + 1)
            } else if outside >> sq & 1 != 0 && (sq == r.best || ply < config.free_plies) {
                // The best way out; before the free plies end, every move
                // out (so that every short opening gets its own search),
                // valued at the best way out's, which bounds it.
                (r.score, ply + 1)
            } else {
                // Outside the book and not its best way out: unknown.
                continue;
            };
            if bot_bound && v - value > bot_margin {
                continue;
            }
            let loss = loss + i64::from(v - value);
            if loss > margin {
                continue;
            }
            if in_book {
                heap.push(Reverse((
                    prio(next_ply, loss),
                    key(&c),
                    bot_moves == passed,
                    next_ply,
                    loss,
                )));
            } else if next_ply <= config.max_ply {
                add_candidate(prio(next_ply, loss), c);
            }
        }
    }
    let mut candidates: Vec<Candidate> = candidates.into_values().collect();
    candidates.sort_by(|a, b| {
        a.priority
            .total_cmp(&b.priority)
            .then(key(&a.successor).cmp(&key(&b.successor)))
    });
    Walk { order, candidates }
}

/// The depth a position is searched to: `config.depth` or one less, so
/// that every search's leaves have an even number of empties. A parent's
/// search and its successor's then end on the same leaves: with one depth
/// for all, the successor's search would reach one ply deeper than the
/// parent's view of it, and the evaluation's parity bias (the side to
/// move is favoured) would make every added position look worse than its
/// parent expected, flipping book moves back and forth (measured in
/// docs/book.md: 15% of the positions of a one-depth book stayed in use).
pub fn depth_for(board: &Board, config: &BookConfig) -> u32 {
    depth_at(board, config.depth)
}

/// `depth`, or one less where the search would end on an odd number of
/// empties ([`depth_for`]).
pub fn depth_at(board: &Board, depth: u32) -> u32 {
    depth - (board.empty_count() + depth) % 2
}

/// The deepening's jobs: the book positions (canonical) on `lines` before
/// ply `plies` that have moves out of the book and whose last record
/// searched shallower than [`depth_at`] `depth`; each once, sorted.
pub fn deepen_jobs(state: &State, lines: &[Vec<Board>], plies: u32, depth: u32) -> Vec<Board> {
    let mut jobs: Vec<Board> = lines
        .iter()
        .flat_map(|line| line.iter().take(plies as usize))
        .map(|b| canonical(b).0)
        .filter(|c| {
            state
                .records
                .get(&key(c))
                .is_some_and(|r| u32::from(r.depth) < depth_at(c, depth) && state.outside(c) != 0)
        })
        .collect();
    jobs.sort_by_key(key);
    jobs.dedup();
    jobs
}

/// Searches `board` restricted to `moves` to [`depth_for`]: a fresh
/// search each time (its tables empty), so the result is a function of
/// the position alone.
/// A position whose moves all lead into the book gets a record without a
/// search (`searched` 0, [`NO_MOVE`]). A position is never searched
/// shallower than `floor` (its last record's depth: a deepened position
/// stays deep when it goes stale).
pub fn search(board: &Board, moves: u64, config: &BookConfig, floor: u32) -> Record {
    if moves == 0 {
        return Record {
            board: *board,
            searched: 0,
            best: NO_MOVE,
            depth: 0,
            score: 0,
        };
    }
    let mut ab = AlphaBeta::new(Evaluator::new(EvalKind::Pattern, 0));
    if config.exact > 0 {
        ab.set_exact_empties(config.exact);
        ab.set_fixed_depth_solves(true);
    } else {
        ab.set_exact_empties(0);
    }
    let depth = depth_for(board, config).max(floor);
    let result = ab.choose(board, Bitboard(moves), &Limits::depth(depth));
    let score = match result.score {
        Score::Selective(s) | Score::Estimate(s) => (s * f64::from(SCALE)).round() as i32,
        Score::Exact(s) | Score::Probable { score: s, .. } => s * SCALE,
        other => panic!("alphabeta gave {other:?}"),
    };
    Record {
        board: *board,
        searched: moves,
        best: result.best.index() as u8,
        depth: depth.min(255) as u8,
        score,
    }
}

/// The book to export: the first positions of the walk's order, as many
/// as pack into `config.max_chars` characters, with their packed form.
///
/// # Errors
/// The records do not make a book the format can hold.
pub fn export(state: &State, config: &BookConfig) -> Result<(Book, String), String> {
    let values = state.values();
    let order = walk(state, &values, config, 0.0).order;
    let book_of = |n: usize| {
        let entries = order[..n]
            .iter()
            .map(|k| {
                let (v, m) = values[k];
                let value = (f64::from(v) / f64::from(SCALE)).round() as i8;
                (
                    *k,
                    BookEntry {
                        best: m,
                        score: value,
                    },
                )
            })
            .collect();
        Book::from_entries(entries)
    };
    let pack = |n: usize| -> Result<(Book, String), String> {
        let book = book_of(n);
        let data = othello::book::code::encode(&book).map_err(|e| e.to_string())?;
        Ok((book, data))
    };
    // The longest prefix that fits (every prefix is closed under parents).
    let (mut lo, mut hi) = (0, order.len());
    while lo < hi {
        let mid = (lo + hi).div_ceil(2);
        if pack(mid)?.1.chars().count() <= config.max_chars {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    if lo == 0 {
        return Err("no book position fits".into());
    }
    pack(lo)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn small() -> BookConfig {
        BookConfig {
            depth: 3,
            batch: 4,
            ..BookConfig::default()
        }
    }

    /// A few rounds of growth at depth 3, as `train book` runs them.
    fn grown(rounds: usize) -> State {
        grown_with(rounds, &small())
    }

    fn grown_with(rounds: usize, config: &BookConfig) -> State {
        let mut state = State::default();
        let (root, _) = canonical(&Board::start());
        state.add(search(&root, root.moves().0, config, 0));
        for _ in 0..rounds {
            for b in state.stale() {
                let r = search(&b, state.outside(&b), config, 0);
                state.add(r);
            }
            let values = state.values();
            let w = walk(&state, &values, config, config.bot_margin);
            for c in w.candidates.iter().take(config.batch) {
                let r = search(&c.successor, state.outside(&c.successor), config, 0);
                state.add(r);
            }
        }
        state
    }

    #[test]
    fn records_round_trip_and_bad_ones_are_refused() {
        let state = grown(3);
        for r in state.records.values() {
            assert_eq!(Record::from_bytes(&r.to_bytes()), Ok(*r));
            let mut bad = r.to_bytes();
            bad[24] = 64;
            assert!(Record::from_bytes(&bad).is_err());
            let mut bad = r.to_bytes();
            bad[16..24].copy_from_slice(&(!r.board.moves().0).to_le_bytes());
            assert!(Record::from_bytes(&bad).is_err());
        }
    }

    #[test]
    fn a_position_with_every_move_in_the_book_is_recorded_without_a_search() {
        let b = canonical(&Board::start()).0;
        let r = search(&b, 0, &small(), 0);
        assert_eq!((r.searched, r.best, r.score), (0, NO_MOVE, 0));
        assert_eq!(Record::from_bytes(&r.to_bytes()), Ok(r));
        let mut bad = r.to_bytes();
        bad[24] = 3;
        assert!(Record::from_bytes(&bad).is_err());
    }

    #[test]
    fn a_torn_or_bad_chunk_is_named_with_its_record() {
        let dir = std::env::temp_dir().join(format!("book-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let state = grown(1);
        let mut bytes: Vec<u8> = state.records.values().flat_map(|r| r.to_bytes()).collect();
        let file = dir.join("chunk-001.bin");
        std::fs::write(&file, &bytes[..bytes.len() - 5]).unwrap();
        let e = State::load(std::slice::from_ref(&file)).unwrap_err();
        assert!(e.contains("chunk-001.bin") && e.contains("torn"), "{e}");
        bytes[RECORD_BYTES + 24] = 99;
        std::fs::write(&file, &bytes).unwrap();
        let e = State::load(std::slice::from_ref(&file)).unwrap_err();
        assert!(e.contains("chunk-001.bin: record 2"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn deepening_searches_the_book_positions_on_a_games_line_once_and_they_stay_deep() {
        let config = small();
        let mut state = grown(4);
        // A game along the book's principal line, then out of the book.
        let values = state.values();
        let mut board = canonical(&Board::start()).0;
        let mut line = vec![board];
        while let Some(&(_, m)) = values.get(&key(&board)) {
            let (next, _) = follow(&board, Square::new(m));
            board = canonical(&next).0;
            line.push(board);
        }
        let lines = vec![line.clone(), line.clone()];
        let on_line = line
            .iter()
            .filter(|b| state.records.contains_key(&key(b)) && state.outside(b) != 0)
            .count();
        let jobs = deepen_jobs(&state, &lines, 60, 5);
        assert!(on_line >= 2, "the principal line has book positions");
        assert_eq!(
            jobs.len(),
            on_line,
            "each book position with moves out, once"
        );
        assert!(
            deepen_jobs(&state, &lines, 1, 5).len() <= 1,
            "only before the ply"
        );
        assert!(
            deepen_jobs(&state, &lines, 60, 3).is_empty(),
            "not at the book's depth"
        );
        for b in &jobs {
            let r = search(b, state.outside(b), &config, depth_at(b, 5));
            assert_eq!(u32::from(r.depth), depth_at(b, 5));
            assert!(r.depth > depth_for(b, &config) as u8);
            state.add(r);
        }
        assert!(
            deepen_jobs(&state, &lines, 60, 5).is_empty(),
            "deepened once"
        );
        // A re-search with the record's depth as its floor stays deep.
        let b = jobs[0];
        let floor = u32::from(state.records[&key(&b)].depth);
        assert_eq!(
            u32::from(search(&b, state.outside(&b), &config, floor).depth),
            floor
        );
    }

    #[test]
    fn a_grown_book_exports_every_line_the_bot_can_meet_and_packs() {
        let config = small();
        let state = grown(6);
        let values = state.values();
        // A value is the negamax of the successors in the book and the
        // record's way out.
        for (k, &(v, m)) in &values {
            let r = state.records[k];
            for sq in r.board.moves().squares() {
                let (c, passed, in_book) = state.successor(&r.board, sq);
                if in_book {
                    assert!(value_for_mover(values[&key(&c)].0, passed) <= v);
                }
            }
            assert!(r.board.moves().0 >> m & 1 == 1);
        }
        let (book, data) = export(&state, &config).unwrap();
        assert!(book.len() > 10 && book.len() <= state.len());
        assert_eq!(othello::book::code::unpack(&data).unwrap(), book);
        // The walk's first positions are the principal line's.
        let line = book.principal_line();
        assert!(!line.is_empty());
        let order = walk(&state, &values, &config, 0.0).order;
        assert_eq!(order[0], key(&canonical(&Board::start()).0));

        // A smaller budget keeps a prefix of the same walk.
        let tight = BookConfig {
            max_chars: data.chars().count() / 2,
            ..config
        };
        let (half, half_data) = export(&state, &tight).unwrap();
        assert!(half_data.chars().count() <= tight.max_chars);
        assert!(half
            .positions()
            .keys()
            .all(|k| book.positions().contains_key(k)));
    }

    #[test]
    fn growth_also_walks_the_bots_near_equal_moves_and_the_export_does_not() {
        let config = BookConfig {
            free_plies: 0,
            ..small()
        };
        let state = grown_with(8, &config);
        let values = state.values();
        let narrow = walk(&state, &values, &config, 0.0).order;
        let wide = walk(&state, &values, &config, config.bot_margin).order;
        let wide_set: HashSet<_> = wide.iter().collect();
        assert!(narrow.iter().all(|k| wide_set.contains(k)));
        assert!(wide.len() > narrow.len(), "{} {}", wide.len(), narrow.len());
        let (book, _) = export(&state, &config).unwrap();
        assert_eq!(book.len(), narrow.len());
    }

    #[test]
    fn before_the_free_plies_end_every_move_is_a_candidate() {
        // The start and its one successor up to symmetry, searched: the
        // second position has three moves (up to symmetry: diagonal,
        // perpendicular, parallel), of which its record knows one.
        let config = BookConfig {
            margin: 64.0,
            ..small()
        };
        let mut state = State::default();
        let (root, _) = canonical(&Board::start());
        state.add(search(&root, root.moves().0, &config, 0));
        let (first, _, _) = state.successor(&root, root.moves().squares().next().unwrap());
        state.add(search(&first, first.moves().0, &config, 0));
        state.add(search(&root, state.outside(&root), &config, 0));
        let values = state.values();
        let replies: HashSet<_> = first
            .moves()
            .squares()
            .map(|m| key(&state.successor(&first, m).0))
            .collect();
        assert_eq!(replies.len(), 3);
        let candidates = |free_plies| -> HashSet<_> {
            let config = BookConfig {
                free_plies,
                ..config.clone()
            };
            walk(&state, &values, &config, 0.0)
                .candidates
                .iter()
                .map(|c| key(&c.successor))
                .collect()
        };
        assert_eq!(candidates(4), replies);
        // After them, only the record's best way out.
        let best = state.records[&key(&first)].best;
        let square = first.moves().squares().find(|m| m.index() as u8 == best);
        let best_reply = key(&state.successor(&first, square.unwrap()).0);
        assert_eq!(candidates(0), HashSet::from([best_reply]));
    }

    #[test]
    fn depths_end_every_search_on_an_even_number_of_empties() {
        let config = BookConfig::default();
        let mut b = Board::start();
        for _ in 0..20 {
            let d = depth_for(&b, &config);
            assert!(d == config.depth || d == config.depth - 1);
            assert_eq!((b.empty_count() - d) % 2, 0);
            let m = b.moves().squares().next().unwrap();
            b = follow(&b, m).0;
        }
    }
}

//! `train book`: grows the opening book for `--minutes` (one chunk file of
//! search records, resumed from the chunks before it), then writes the
//! packed book into `src/book/data.rs`. With `--minutes 0` (`train
//! book-write`) it only rebuilds `src/book/data.rs` from the committed
//! chunks, byte for byte.

use crate::book::{chunk_files, deepen_jobs, export, key, search, walk, BookConfig, Record, State};
use crate::cli::Options;
use othello::book::canonical;
use othello::Board;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

/// Where the packed book goes.
const OUT: &str = "src/book/data.rs";

/// Grows, then writes.
///
/// # Errors
/// Unreadable chunks, a chunk that cannot be written, a book that does
/// not pack.
pub fn run(o: &Options) -> Result<(), String> {
    let config = &o.book;
    let files = chunk_files(&config.dir)?;
    let mut state = State::load(&files)?;
    eprintln!(
        "book: {} positions from {} records in {} chunk(s) of {}",
        state.len(),
        state.log_len,
        files.len(),
        config.dir.display()
    );
    if config.minutes > 0.0 {
        grow(&mut state, config, &files)?;
    }
    // The grown state is all the chunks: read them again only for a prefix.
    let state = if config.export_chunks == 0 {
        state
    } else {
        exported(config)?
    };
    write(&state, config, o.out.as_deref().unwrap_or(Path::new(OUT)))
}

/// The state the book is exported from: the first `config.export_chunks`
/// chunks (all at 0).
///
/// # Errors
/// Unreadable chunks, or fewer chunks than `export_chunks`.
fn exported(config: &BookConfig) -> Result<State, String> {
    let mut files = chunk_files(&config.dir)?;
    if config.export_chunks > 0 {
        if files.len() < config.export_chunks {
            return Err(format!(
                "--export-chunks {}: {} holds {} chunk(s)",
                config.export_chunks,
                config.dir.display(),
                files.len()
            ));
        }
        files.truncate(config.export_chunks);
    }
    State::load(&files)
}

/// `train book-write`: the packed book from the chunks alone.
///
/// # Errors
/// As [`run`].
pub fn write_only(o: &Options) -> Result<(), String> {
    let mut o = o.clone();
    o.book.minutes = 0.0;
    run(&o)
}

/// Searches in rounds until the time, the target or the candidates run
/// out, appending every record to a new chunk file.
fn grow(state: &mut State, config: &BookConfig, files: &[PathBuf]) -> Result<(), String> {
    let start = Instant::now();
    // Read the games before a chunk file is made: a bad one loses nothing.
    let mut deep = deepening(state, config)?;
    std::fs::create_dir_all(&config.dir).map_err(|e| format!("{}: {e}", config.dir.display()))?;
    let next = files.len() + 1;
    let path = config.dir.join(format!("chunk-{next:03}.bin"));
    let mut file = std::fs::OpenOptions::new()
        .create_new(true)
        .append(true)
        .open(&path)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let (root, _) = canonical(&Board::start());
    let mut jobs: Vec<Board> = Vec::new();
    if !state.records.contains_key(&(root.player, root.opponent)) {
        jobs.push(root);
    }
    let deep_config = BookConfig {
        depth: config.deep_depth,
        ..config.clone()
    };
    let mut searches = 0usize;
    loop {
        let mut job_config = config;
        if jobs.is_empty() {
            jobs = state.stale();
        }
        let minutes = start.elapsed().as_secs_f64() / 60.0;
        if jobs.is_empty() && !deep.is_empty() {
            if minutes >= config.minutes {
                break;
            }
            let n = deep.len().min(config.batch);
            jobs = deep.drain(..n).collect();
            job_config = &deep_config;
            eprintln!(
                "book: deepening {n} positions to depth {}, {} left, {minutes:.1} min",
                config.deep_depth,
                deep.len()
            );
        }
        if jobs.is_empty() {
            if minutes >= config.minutes || state.len() >= config.target {
                break;
            }
            let values = state.values();
            let w = walk(state, &values, config, config.bot_margin);
            jobs = w
                .candidates
                .iter()
                .take(config.batch)
                .map(|c| c.successor)
                .collect();
            if jobs.is_empty() {
                eprintln!("book: no candidate left within the margin and the ply limit");
                break;
            }
            let worst = w.candidates[jobs.len() - 1].priority;
            eprintln!(
                "book: {} positions, {} candidates, adding {} up to priority {worst:.2}, {:.1} min",
                state.len(),
                w.candidates.len(),
                jobs.len(),
                minutes
            );
        }
        let records = search_all(state, &jobs, job_config);
        let mut bytes = Vec::with_capacity(records.len() * crate::book::RECORD_BYTES);
        for r in &records {
            bytes.extend_from_slice(&r.to_bytes());
        }
        file.write_all(&bytes)
            .and_then(|_| file.flush())
            .map_err(|e| format!("{}: {e}", path.display()))?;
        searches += records.len();
        for r in records {
            state.add(r);
        }
        jobs.clear();
    }
    let secs = start.elapsed().as_secs_f64();
    let deepened = if config.deep_depth > 0 {
        format!(" (the deepened at {})", config.deep_depth)
    } else {
        String::new()
    };
    eprintln!(
        "book: {searches} searches at depth {}{deepened} in {secs:.0} s ({:.2} s each on {} \
         threads); {} positions; records in {}",
        config.depth,
        secs / searches.max(1) as f64,
        config.threads,
        state.len(),
        path.display()
    );
    Ok(())
}

/// The deepening's jobs (`--deep-depth`): the book positions on the lines
/// of the games of `--from`, in the order [`deepen_jobs`] gives.
///
/// # Errors
/// An unreadable games file, or a game with an illegal move, named.
fn deepening(state: &State, config: &BookConfig) -> Result<Vec<Board>, String> {
    if config.deep_depth == 0 {
        return Ok(Vec::new());
    }
    if config.deep_from.is_empty() {
        return Err("--deep-depth needs --from FILE[,FILE..] (games files or transcripts)".into());
    }
    let games = crate::games::read_games(&config.deep_from, crate::games::Part::All)?;
    let lines = crate::endgame::Games::new(games)?.lines();
    let jobs = deepen_jobs(state, &lines, config.deep_plies, config.deep_depth);
    // How far the games stay in the book (grown, not only exported).
    let mut in_book: Vec<usize> = lines
        .iter()
        .map(|line| {
            line.iter()
                .take_while(|b| state.records.contains_key(&key(&canonical(b).0)))
                .count()
        })
        .collect();
    in_book.sort_unstable();
    eprintln!(
        "book: {} games of {} file(s), in the book for {} plies (median; quartiles {}-{}); \
         {} book positions on their lines before ply {} to deepen",
        lines.len(),
        config.deep_from.len(),
        in_book.get(in_book.len() / 2).unwrap_or(&0),
        in_book.get(in_book.len() / 4).unwrap_or(&0),
        in_book.get(in_book.len() * 3 / 4).unwrap_or(&0),
        jobs.len(),
        config.deep_plies
    );
    Ok(jobs)
}

/// Searches every job, in parallel; the records in job order.
fn search_all(state: &State, jobs: &[Board], config: &BookConfig) -> Vec<Record> {
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<Record>>> = Mutex::new(vec![None; jobs.len()]);
    let bar = crate::progress::bar(jobs.len() as u64, "search");
    std::thread::scope(|s| {
        for _ in 0..config.threads.max(1) {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(board) = jobs.get(i) else { break };
                // Never shallower than its last record: a deepened
                // position stays deep when it goes stale.
                let floor = state
                    .records
                    .get(&key(board))
                    .map_or(0, |r| u32::from(r.depth));
                let r = search(board, state.outside(board), config, floor);
                results.lock().expect("no panic holds the lock")[i] = Some(r);
                bar.inc(1);
            });
        }
    });
    bar.finish_and_clear();
    results
        .into_inner()
        .expect("no panic holds the lock")
        .into_iter()
        .map(|r| r.expect("every job searched"))
        .collect()
}

/// Packs the book and writes the Rust source that carries it.
fn write(state: &State, config: &BookConfig, out: &Path) -> Result<(), String> {
    let (text, summary) = source(state, config)?;
    std::fs::write(out, text).map_err(|e| format!("{}: {e}", out.display()))?;
    eprintln!("book: wrote {}: {summary}", out.display());
    Ok(())
}

/// The Rust source of the packed book (`src/book/data.rs`) and a one-line
/// summary.
///
/// # Errors
/// No records, or a book that does not pack and decode to itself.
pub fn source(state: &State, config: &BookConfig) -> Result<(String, String), String> {
    if state.len() == 0 {
        return Err(format!(
            "no records in {}: grow the book first (train book --minutes M)",
            config.dir.display()
        ));
    }
    let (book, data) = export(state, config)?;
    let decoded = othello::book::code::unpack(&data).map_err(|e| e.to_string())?;
    if decoded != book {
        return Err("the packed book does not decode to itself".into());
    }
    let line = book.principal_line();
    let line_text: String = line.iter().map(|m| m.to_string()).collect();
    let chars = data.chars().count();
    let depths: std::collections::BTreeSet<u8> = state.records.values().map(|r| r.depth).collect();
    let root_value = book.lookup(&Board::start()).map_or(0, |m| m.score);
    let text = format!(
        "//! The opening book written by `train book` (docs/book.md): do not edit.\n\
         //! Rebuild it from the committed search records with `cargo run --release -p train -- book-write`.\n\
         //!\n\
         //! From {}.\n\
         //! {} positions of the {} searched (search depths {:?}), walk margin {} discs,\n\
         //! {} plies per disc of loss, both sides free before ply {}, to ply {}, at most {} characters;\n\
         //! start position {:+} discs; principal line ({} plies): {line_text}\n\n\
         /// Positions in the book.\n\
         pub const POSITIONS: usize = {};\n\
         /// The sum of the positions' keys and book moves (`Book::checksum`):\n\
         /// a decoder that reads the data otherwise (new evaluation weights\n\
         /// reorder the ranks) fails the library's test.\n\
         pub const CHECKSUM: u64 = {};\n\
         /// The packed book ({chars} characters; see `book::code`).\n\
         pub const BOOK: &str = \"{data}\";\n",
        match config.export_chunks {
            0 => "all the chunks".to_string(),
            n => format!("the first {n} chunk(s) (`--export-chunks`)"),
        },
        book.len(),
        state.len(),
        depths,
        config.margin,
        config.loss_plies,
        config.free_plies,
        config.max_ply,
        config.max_chars,
        root_value,
        line.len(),
        book.len(),
        book.checksum(),
    );
    let bits = chars as f64 * f64::from(othello::eval::pack::BITS_PER_CHAR);
    let summary = format!(
        "{} positions in {chars} characters ({:.1} bits a position), principal line {} plies: \
         {line_text}; start {:+} discs",
        book.len(),
        bits / book.len() as f64,
        line.len(),
        root_value,
    );
    Ok((text, summary))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exporting_more_chunks_than_there_are_is_refused() {
        let dir = std::env::temp_dir().join(format!("book-export-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("chunk-001.bin"), []).unwrap();
        let config = BookConfig {
            dir: dir.clone(),
            export_chunks: 2,
            ..BookConfig::default()
        };
        let e = exported(&config).unwrap_err();
        assert!(
            e.contains("--export-chunks 2") && e.contains("holds 1 chunk(s)"),
            "{e}"
        );
        let all = BookConfig {
            export_chunks: 0,
            ..config
        };
        assert_eq!(exported(&all).unwrap().log_len, 0);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn bad_deepening_games_are_refused_before_a_chunk_is_made() {
        let dir = std::env::temp_dir().join(format!("book-deepen-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let games = dir.join("games.txt");
        std::fs::write(&games, "f5d6c3\nf5f5\n").unwrap();
        let config = BookConfig {
            dir: dir.clone(),
            minutes: 1.0,
            deep_depth: 16,
            ..BookConfig::default()
        };
        let mut state = State::default();
        let e = grow(&mut state, &config, &[]).unwrap_err();
        assert!(e.contains("--deep-depth needs --from"), "{e}");
        let with_games = BookConfig {
            deep_from: vec![games],
            ..config
        };
        let e = grow(&mut state, &with_games, &[]).unwrap_err();
        assert!(e.contains("game 2") && e.contains("f5 is illegal"), "{e}");
        assert!(!dir.join("chunk-001.bin").exists(), "no chunk file made");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_committed_book_rebuilds_from_the_committed_chunks() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let config = BookConfig {
            dir: root.join("train/book"),
            ..BookConfig::default()
        };
        let state = exported(&config).unwrap();
        let (text, _) = source(&state, &config).unwrap();
        let committed = std::fs::read_to_string(root.join(OUT)).unwrap();
        assert!(
            text == committed,
            "src/book/data.rs is not what the chunks make: run `cargo run --release -p train -- book-write`"
        );
    }
}

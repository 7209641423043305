//! The `--games-out` file: a header line naming the match, then one JSON
//! game record per line, each flushed as its game ends, so that `--resume`
//! and `--replay` can read it back after a crash or Ctrl-C.

use crate::files::record::{GameRecord, Header};
use serde::de::DeserializeOwned;
use serde::Deserialize;
use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// Appends records to a games file.
#[derive(Debug)]
pub struct GamesWriter {
    out: BufWriter<File>,
}

impl GamesWriter {
    /// Creates (or truncates) `path` and writes the header.
    ///
    /// # Errors
    /// The file cannot be written.
    pub fn create(path: &Path, header: &Header) -> Result<GamesWriter, String> {
        GamesWriter::create_with(path, header)
    }

    /// Opens `path` to append after its first `keep` bytes (the valid
    /// lines that [`read`] found; a torn last line is cut off).
    ///
    /// # Errors
    /// The file cannot be written.
    pub fn append(path: &Path, keep: u64) -> Result<GamesWriter, String> {
        let open = || -> std::io::Result<File> {
            let mut file = OpenOptions::new().write(true).open(path)?;
            file.set_len(keep)?;
            file.seek(SeekFrom::End(0))?;
            Ok(file)
        };
        let file = open().map_err(|e| format!("{}: {e}", path.display()))?;
        Ok(GamesWriter {
            out: BufWriter::new(file),
        })
    }

    /// Gives `path` the header `header` in place of its own, keeps its
    /// records of its first `keep` bytes (a torn last line is cut off), and
    /// opens it to append. The new file is written next to it and renamed
    /// over it, so a crash leaves one or the other whole.
    ///
    /// # Errors
    /// The file cannot be read or written.
    pub fn rewrite(
        path: &Path,
        header: &impl serde::Serialize,
        keep: u64,
    ) -> Result<GamesWriter, String> {
        let at = |e: std::io::Error| format!("{}: {e}", path.display());
        let mut name = path.as_os_str().to_owned();
        name.push(".rewrite");
        let temporary = std::path::PathBuf::from(name);
        let mut w = GamesWriter::create_with(&temporary, header)?;
        let mut old = BufReader::new(File::open(path).map_err(at)?).take(keep);
        old.read_until(b'\n', &mut Vec::new()).map_err(at)?;
        std::io::copy(&mut old, &mut w.out).map_err(at)?;
        w.out.flush().map_err(at)?;
        w.out.get_ref().sync_all().map_err(at)?;
        std::fs::rename(&temporary, path).map_err(at)?;
        Ok(w)
    }

    /// Writes one record and flushes it.
    ///
    /// # Errors
    /// The write fails.
    pub fn write(&mut self, record: &GameRecord) -> std::io::Result<()> {
        self.line(&serde_json::to_string(record).expect("a record serializes"))
    }

    /// Creates (or truncates) `path` and writes `header`, of any kind.
    ///
    /// # Errors
    /// The file cannot be written.
    pub fn create_with(path: &Path, header: &impl serde::Serialize) -> Result<GamesWriter, String> {
        let file = File::create(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let mut w = GamesWriter {
            out: BufWriter::new(file),
        };
        w.line(&serde_json::to_string(header).expect("a header serializes"))
            .map_err(|e| format!("{}: {e}", path.display()))?;
        Ok(w)
    }

    /// Writes one JSON value as a line and flushes it.
    ///
    /// # Errors
    /// The write fails.
    pub fn write_value(&mut self, value: &impl serde::Serialize) -> std::io::Result<()> {
        self.line(&serde_json::to_string(value).expect("a record serializes"))
    }

    fn line(&mut self, text: &str) -> std::io::Result<()> {
        writeln!(self.out, "{text}")?;
        self.out.flush()
    }
}

/// A games file read back.
#[derive(Debug)]
pub struct GamesFile {
    /// The match it belongs to.
    pub header: Header,
    /// Its complete records, in file order.
    pub records: Vec<GameRecord>,
    /// The length in bytes of the complete lines (a torn last line, left by
    /// a crash in the middle of a write, is not counted).
    pub valid_len: u64,
}

/// Reads a games file.
///
/// # Errors
/// `FILE:LINE: reason` for a missing or wrong header, a bad record before
/// the last line, a game number 0 or a game recorded twice. Record `i`
/// (from 0) is on line `i + 2`.
pub fn read(path: &Path) -> Result<GamesFile, String> {
    let mut records = Vec::new();
    let (header, valid_len) = stream(path, Header::KIND, |_, _, r| {
        records.push(r);
        Ok(())
    })?;
    Ok(GamesFile {
        header,
        records,
        valid_len,
    })
}

/// The `kind` of a games file's first line.
#[derive(Deserialize)]
struct Kind {
    kind: String,
}

/// What a games file of `kind` holds, for messages.
fn describe(kind: &str) -> &'static str {
    if kind == crate::files::record::TournamentHeader::KIND {
        "a tournament's"
    } else {
        "a match's"
    }
}

/// The `kind` in the header of the games file `path` (its first line only
/// is read).
///
/// # Errors
/// The file cannot be read, or its first line is not a header of this
/// referee's.
pub fn kind(path: &Path) -> Result<String, String> {
    let first = first_line(path)?;
    let kind = header_kind(&first).map_err(|e| format!("{}:1: {e}", path.display()))?;
    Ok(kind)
}

fn header_kind(first: &[u8]) -> Result<String, String> {
    if first.is_empty() {
        return Err("empty file, no header".into());
    }
    let text = std::str::from_utf8(first).map_err(|_| "not a games file of this referee")?;
    let kind: Kind = serde_json::from_str(text).map_err(|e| e.to_string())?;
    let known = [Header::KIND, crate::files::record::TournamentHeader::KIND];
    if !known.contains(&kind.kind.as_str()) || !text.ends_with('\n') {
        return Err("not a games file of this referee".into());
    }
    Ok(kind.kind)
}

/// The header of the games file `path`, which must be of `kind` (its first
/// line only is read).
///
/// # Errors
/// As [`read`] for the first line.
pub fn header<H: DeserializeOwned>(path: &Path, kind: &str) -> Result<H, String> {
    let first = first_line(path)?;
    header_of(&first, kind).map_err(|e| format!("{}:1: {e}", path.display()))
}

/// The first line of `path` with its line end (empty for an empty file).
///
/// # Errors
/// The file cannot be opened or read, named.
pub fn first_line(path: &Path) -> Result<Vec<u8>, String> {
    let file = File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut first = Vec::new();
    BufReader::new(file)
        .read_until(b'\n', &mut first)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(first)
}

/// Parses a header line of `kind`.
fn header_of<H: DeserializeOwned>(first: &[u8], kind: &str) -> Result<H, String> {
    let found = header_kind(first)?;
    if found != kind {
        return Err(format!(
            "{} games file, not {} (see docs/referee.md)",
            describe(&found),
            describe(kind)
        ));
    }
    let text = std::str::from_utf8(first).expect("checked by header_kind");
    serde_json::from_str(text).map_err(|e| e.to_string())
}

/// Reads a games file whose header is of `kind` line by line, without
/// holding it: `each` gets every complete record with its line number and
/// the byte offset where that line starts, in file order. Returns the header and the length in bytes of the complete
/// lines (a torn last line is not counted).
///
/// # Errors
/// As [`read`], and whatever `each` returns.
pub fn stream<H: DeserializeOwned>(
    path: &Path,
    kind: &str,
    mut each: impl FnMut(usize, u64, GameRecord) -> Result<(), String>,
) -> Result<(H, u64), String> {
    lines(
        path,
        |first| header_of(first, kind),
        |line: Line<GameRecord>| {
            let at = line.at();
            match line.value {
                Ok(r) if line.complete => {
                    if r.game == 0 {
                        return Err(at(&"game 0 (games are numbered from 1)"));
                    }
                    each(line.number, line.offset, r)?;
                    Ok(true)
                }
                _ if line.last => Ok(false),
                Ok(_) => unreachable!("only the last line can lack its end"),
                Err(e) => Err(at(&e)),
            }
        },
    )
}

/// A line that records one game: a game record, a game's analysis.
pub trait GameLine {
    /// The game's number.
    fn game(&self) -> usize;
}

impl GameLine for GameRecord {
    fn game(&self) -> usize {
        self.game
    }
}

/// One line after the header of a file of game lines (a games file, an
/// analysis file), as [`lines`] gives it.
pub struct Line<'a, T> {
    /// The file.
    pub path: &'a Path,
    /// Its line number (the header is line 1).
    pub number: usize,
    /// Its offset in bytes: the length of the lines before it.
    pub offset: u64,
    /// Its value, or why it is not one.
    pub value: Result<T, String>,
    /// Whether it has its line end. Only the last line can lack it: one
    /// torn by an interrupted write.
    pub complete: bool,
    /// Whether it is the file's last line.
    pub last: bool,
}

impl<'a, T> Line<'a, T> {
    /// What names this line in a message: `at(e)` is `FILE:LINE: e`.
    pub fn at(&self) -> impl Fn(&dyn std::fmt::Display) -> String + 'a {
        let (path, number) = (self.path, self.number);
        move |e| format!("{}:{number}: {e}", path.display())
    }
}

/// Reads a file of game lines: its first line by `header`, then each line
/// after it, parsed as JSON, handed to `each` in order until it returns
/// `Ok(false)` (that line is then not counted). A complete line whose game
/// was on an earlier line is refused ("recorded twice").
///
/// Returns the header and the length in bytes of the lines that were read
/// and counted (where an append continues: a torn last line is cut).
///
/// # Errors
/// The file cannot be read, `header`'s error for line 1, a game twice, or
/// `each`'s error as it is.
pub fn lines<H, T: DeserializeOwned + GameLine>(
    path: &Path,
    header: impl FnOnce(&[u8]) -> Result<H, String>,
    mut each: impl FnMut(Line<T>) -> Result<bool, String>,
) -> Result<(H, u64), String> {
    let at = |line: usize, e: &dyn std::fmt::Display| format!("{}:{line}: {e}", path.display());
    let file = File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut reader = BufReader::with_capacity(1 << 16, file);
    let mut next_line = |buf: &mut Vec<u8>, line: usize| {
        buf.clear();
        reader.read_until(b'\n', buf).map_err(|e| at(line, &e))
    };
    let mut current = Vec::new();
    next_line(&mut current, 1)?;
    let header = header(&current).map_err(|e| at(1, &e))?;
    let mut valid_len = current.len() as u64;
    let mut seen = std::collections::HashMap::new();
    let mut line = 1;
    let mut next = Vec::new();
    next_line(&mut current, 2)?;
    while !current.is_empty() {
        line += 1;
        next_line(&mut next, line + 1)?;
        let complete = current.ends_with(b"\n");
        let value = std::str::from_utf8(&current)
            .map_err(|_| "not UTF-8 text".to_string())
            .and_then(|t| serde_json::from_str::<T>(t).map_err(|e| e.to_string()));
        if let (Ok(v), true) = (&value, complete) {
            if let Some(before) = seen.insert(v.game(), line) {
                return Err(at(
                    line,
                    &format!(
                        "game {} is recorded twice (also on line {before})",
                        v.game()
                    ),
                ));
            }
        }
        let length = current.len() as u64;
        let go_on = each(Line {
            path,
            number: line,
            offset: valid_len,
            value,
            complete,
            last: next.is_empty(),
        })?;
        if !go_on {
            break;
        }
        valid_len += length;
        std::mem::swap(&mut current, &mut next);
    }
    Ok((header, valid_len))
}

/// Whether the games files are a tournament's (by the first one's header;
/// the others must agree, which reading them checks).
pub fn is_tournament(files: &[PathBuf]) -> Result<bool, String> {
    match files.first() {
        Some(path) => Ok(kind(path)? == crate::files::record::TournamentHeader::KIND),
        None => Ok(false),
    }
}

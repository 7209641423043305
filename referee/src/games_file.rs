//! The `--games-out` file: a header line naming the match, then one JSON
//! game record per line, each flushed as its game ends, so that `--resume`
//! and `--replay` can read it back after a crash or Ctrl-C.

use crate::record::{GameRecord, Header};
use std::fs::{File, OpenOptions};
use std::io::{BufWriter, Seek, SeekFrom, Write};
use std::path::Path;

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
        let file = File::create(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let mut w = GamesWriter {
            out: BufWriter::new(file),
        };
        w.line(&serde_json::to_string(header).expect("a header serializes"))
            .map_err(|e| format!("{}: {e}", path.display()))?;
        Ok(w)
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

    /// Writes one record and flushes it.
    ///
    /// # Errors
    /// The write fails.
    pub fn write(&mut self, record: &GameRecord) -> std::io::Result<()> {
        self.line(&serde_json::to_string(record).expect("a record serializes"))
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
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let at = |line: usize, e: &dyn std::fmt::Display| format!("{}:{line}: {e}", path.display());
    let mut lines = text.split_inclusive('\n').enumerate().peekable();
    let (_, first) = lines
        .next()
        .ok_or_else(|| at(1, &"empty file, no header"))?;
    let header: Header = serde_json::from_str(first).map_err(|e| at(1, &e))?;
    if header.kind != Header::KIND || !first.ends_with('\n') {
        return Err(at(1, &"not a games file of this referee"));
    }
    let mut valid_len = first.len() as u64;
    let mut records = Vec::new();
    let mut seen = std::collections::HashMap::new();
    while let Some((i, line)) = lines.next() {
        let last = lines.peek().is_none();
        match serde_json::from_str::<GameRecord>(line) {
            Ok(r) if line.ends_with('\n') => {
                if r.game == 0 {
                    return Err(at(i + 1, &"game 0 (games are numbered from 1)"));
                }
                if let Some(before) = seen.insert(r.game, i + 1) {
                    return Err(at(
                        i + 1,
                        &format!("game {} is recorded twice (also on line {before})", r.game),
                    ));
                }
                records.push(r);
                valid_len += line.len() as u64;
            }
            _ if last => break,
            Ok(_) => unreachable!("only the last line can lack its end"),
            Err(e) => return Err(at(i + 1, &e)),
        }
    }
    Ok(GamesFile {
        header,
        records,
        valid_len,
    })
}

//! What the files that judge a match's games share (`referee analyze`'s
//! analysis file, `referee standing`'s standing file): a header line of a
//! known `kind`, then one JSON line per game, flushed as each game is done,
//! so that an interrupted run continues where it stopped (a torn last line
//! is cut and its game done again). Each file says what it is in a
//! [`FileKind`], for the messages.

use crate::files::games_file::{self, GameLine, Line};
use crate::files::record::Shard;
use serde::de::DeserializeOwned;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// A kind of judged file, and its words for messages.
#[derive(Clone, Copy, Debug)]
pub struct FileKind {
    /// The header's `kind`.
    pub kind: &'static str,
    /// The file, with its article: `an analysis file`.
    pub file: &'static str,
    /// What it is, with its article: `an analysis`.
    pub what: &'static str,
    /// What a line is: `a game's analysis`.
    pub line: &'static str,
    /// The command that writes it: `referee analyze`.
    pub command: &'static str,
    /// Infix of its default name: `run.jsonl` -> `run.<infix>.jsonl`.
    pub infix: &'static str,
}

/// A judged file read back.
#[derive(Debug)]
pub struct JudgedFile<H, T> {
    /// Its header.
    pub header: H,
    /// Its games by number, with their line.
    pub games: BTreeMap<usize, (usize, T)>,
    /// The length in bytes of its complete lines.
    pub valid_len: u64,
    /// The line number of a torn last line, if there is one.
    pub torn: Option<usize>,
}

/// Reads a judged file of `kind`. A torn last line (an interrupted run) is
/// reported in [`JudgedFile::torn`] when `allow_torn`, else refused.
///
/// # Errors
/// `FILE:LINE: reason`: not such a file, a line that is not a game's, a
/// game twice, a torn last line unless allowed.
pub fn read<H: DeserializeOwned, T: DeserializeOwned + GameLine>(
    path: &Path,
    kind: &FileKind,
    allow_torn: bool,
) -> Result<JudgedFile<H, T>, String> {
    let mut games = BTreeMap::new();
    let mut torn = None;
    let (header, valid_len) = games_file::lines(
        path,
        |first| header_of(first, kind),
        |line: Line<T>| {
            let at = line.at();
            if !line.complete {
                // Only the last line can lack its end: an interrupted write.
                if allow_torn {
                    torn = Some(line.number);
                    return Ok(false);
                }
                return Err(at(&format!(
                    "torn last line (an interrupted `{}`: run it again to finish it)",
                    kind.command
                )));
            }
            let g = line
                .value
                .map_err(|e| at(&format!("not {}: {e}", kind.line)))?;
            games.insert(g.game(), (line.number, g));
            Ok(true)
        },
    )?;
    Ok(JudgedFile {
        header,
        games,
        valid_len,
        torn,
    })
}

/// The `kind` of a line.
#[derive(Deserialize)]
struct Kind {
    kind: String,
}

/// The header of a file of `kind`, from its first line.
///
/// # Errors
/// No header line, or one of another kind.
pub fn header_of<H: DeserializeOwned>(first: &[u8], kind: &FileKind) -> Result<H, String> {
    let text = std::str::from_utf8(first)
        .ok()
        .filter(|t| t.ends_with('\n'))
        .ok_or_else(|| format!("not {} of this referee (no header line)", kind.file))?;
    let found: Kind = serde_json::from_str(text)
        .map_err(|_| format!("not {} of this referee (see `{}`)", kind.file, kind.command))?;
    if found.kind != kind.kind {
        return Err(format!(
            "a file of kind {:?}, not {} (see `{}`)",
            found.kind, kind.what, kind.command
        ));
    }
    serde_json::from_str(text).map_err(|e| e.to_string())
}

/// Whether `path` starts like a file of `kind` (its first line only is
/// read): `Ok(false)` for an empty file.
///
/// # Errors
/// The file cannot be read, or its first line is something else.
pub fn is_kind<H: DeserializeOwned>(path: &Path, kind: &FileKind) -> Result<bool, String> {
    let first = games_file::first_line(path)?;
    if first.is_empty() {
        return Ok(false);
    }
    header_of::<H>(&first, kind)
        .map(|_| true)
        .map_err(|e| format!("{}:1: {e}", path.display()))
}

/// The file's name when `-o` is not given: beside the first games file,
/// `.jsonl` replaced by `.<infix>.jsonl` (`run.jsonl` ->
/// `run.analysis.jsonl`; a shard's `run.analysis-2-of-4.jsonl`). The
/// commands that read it look there when it is not named.
pub fn beside(games: &Path, kind: &FileKind, shard: Option<Shard>) -> PathBuf {
    let name = games
        .file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    let stem = name.strip_suffix(".jsonl").unwrap_or(&name);
    let suffix = shard.map_or(String::new(), |s| format!("-{}-of-{}", s.index, s.count));
    games.with_file_name(format!("{stem}.{}{suffix}.jsonl", kind.infix))
}

//! The recorded games the commands read (`--from`, `--check`): the
//! referee's games files, transcripts (one game a line), and the games of
//! endgame chunks (`train endgame`'s), of the part `--part` names.
//!
//! `train transition`, `midgame`, `probcut` and `endgame` read their games
//! here; `cli.rs` parses `--part` into a [`Part`].

use crate::endgame;
use std::path::{Path, PathBuf};

/// Which games of an endgame chunk a command reads (`--part`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    /// The games `train fit` trains on.
    Training,
    /// The held-out games (validation, benches).
    HeldOut,
    /// Every game.
    All,
}

impl Part {
    /// Parses `training`, `held-out` or `all`.
    pub fn parse(text: &str) -> Option<Part> {
        match text {
            "training" => Some(Part::Training),
            "held-out" => Some(Part::HeldOut),
            "all" => Some(Part::All),
            _ => None,
        }
    }

    /// Its name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Part::Training => "training",
            Part::HeldOut => "held-out",
            Part::All => "all",
        }
    }
}

/// The games of `files` (games files, transcripts, or endgame chunks:
/// the games of their `part`), in order.
pub fn read_games(files: &[PathBuf], part: Part) -> Result<Vec<String>, String> {
    let mut games = Vec::new();
    for file in files {
        let bytes = std::fs::read(file).map_err(|e| format!("{}: {e}", file.display()))?;
        if endgame::is_chunk(&bytes) {
            let list = chunk_games(&bytes, part).map_err(|e| format!("{}: {e}", file.display()))?;
            games.extend(list);
            continue;
        }
        let text = String::from_utf8(bytes).map_err(|_| format!("{}: not text", file.display()))?;
        games.extend(transcripts(file, &text)?);
    }
    Ok(games)
}

/// The transcripts of the games in `text` (from `file`, for errors): a
/// line starting with `{` is a referee games-file record (its header and
/// other records without moves are skipped), any other non-blank line not
/// starting with `#` a transcript.
pub fn transcripts(file: &Path, text: &str) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        let at = || format!("{}: line {}", file.display(), i + 1);
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if !line.starts_with('{') {
            out.push(line.to_string());
            continue;
        }
        let value: serde_json::Value =
            serde_json::from_str(line).map_err(|e| format!("{}: {e}", at()))?;
        let Some(moves) = value.get("moves").and_then(|m| m.as_array()) else {
            continue;
        };
        let mut t = value
            .get("opening")
            .and_then(|o| o.as_str())
            .unwrap_or_default()
            .to_string();
        for m in moves {
            let sq = m
                .get("square")
                .and_then(|s| s.as_str())
                .ok_or_else(|| format!("{}: a move without a square", at()))?;
            t += sq;
        }
        out.push(t);
    }
    Ok(out)
}

/// The transcripts of the games of an endgame chunk (`train endgame`'s)
/// in `part`: a bench of strong play's held-out games.
///
/// # Errors
/// The chunk's own (`crate::endgame::parse`).
pub fn chunk_games(bytes: &[u8], part: Part) -> Result<Vec<String>, String> {
    let chunk = endgame::parse(bytes)?;
    Ok(chunk
        .records
        .iter()
        .filter(|r| match part {
            Part::Training => !r.held_out,
            Part::HeldOut => r.held_out,
            Part::All => true,
        })
        .map(|r| r.moves.iter().map(|sq| sq.to_string()).collect())
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_files_and_transcripts_give_the_same_games() {
        let jsonl = concat!(
            r#"{"kind":"othello-referee-games","p1":"a"}"#,
            "\n",
            r#"{"game":1,"opening":"f5d6","moves":[{"by":"p1","square":"c3"},{"by":"p2","square":"d3"}]}"#,
            "\n"
        );
        let t = transcripts(Path::new("g.jsonl"), jsonl).unwrap();
        assert_eq!(t, vec!["f5d6c3d3".to_string()]);
        let t = transcripts(Path::new("g.txt"), "# c\n\nf5d6c3d3\n").unwrap();
        assert_eq!(t, vec!["f5d6c3d3".to_string()]);
        let e = transcripts(Path::new("g.jsonl"), "{bad\n").unwrap_err();
        assert!(e.contains("g.jsonl: line 1"), "{e}");
    }
}

//! Games files read back as one match: a plain run, a resumed one, or the
//! shards of a sharded match (`--shard I/N`), merged by game number. Used
//! by `referee summary` and `referee report`.

use crate::files::games_file;
use crate::files::record::{GameRecord, Header, Shard};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// What the games files of one run (a match or a tournament, whole or in
/// shards) have shown so far, and the checks each file and game passes:
/// a shard given once, a game in its file's shard and in one place only.
#[derive(Debug, Default)]
pub struct Seen {
    /// Each shard's file.
    pub shards: BTreeMap<Shard, PathBuf>,
    /// Where each game was read: the file's index in the files, the line.
    pub games: BTreeMap<usize, (usize, usize)>,
}

impl Seen {
    /// Notes the file `path`, of shard `shard` if it is one.
    ///
    /// # Errors
    /// The shard was another file's.
    pub fn file(&mut self, path: &Path, shard: Option<Shard>) -> Result<(), String> {
        if let Some(shard) = shard {
            if let Some(other) = self.shards.insert(shard, path.to_path_buf()) {
                return Err(format!(
                    "{}: shard {shard} is also {}",
                    path.display(),
                    other.display()
                ));
            }
        }
        Ok(())
    }

    /// Notes game `game`, read at `line` of `files[file]`, a file of shard
    /// `shard` if it is one.
    ///
    /// # Errors
    /// The game is not the shard's, or was read before.
    pub fn game(
        &mut self,
        files: &[PathBuf],
        file: usize,
        line: usize,
        shard: Option<Shard>,
        game: usize,
    ) -> Result<(), String> {
        let path = files[file].display();
        if let Some(shard) = shard {
            if !crate::files::record::in_shard(shard, game) {
                return Err(format!(
                    "{path}:{line}: game {game} does not belong to shard {shard}"
                ));
            }
        }
        if let Some((other, other_line)) = self.games.insert(game, (file, line)) {
            return Err(format!(
                "{path}:{line}: game {game} is also in {}:{other_line}",
                files[other].display()
            ));
        }
        Ok(())
    }
}

/// A match read as a stream: what is left once its games went by.
#[derive(Debug)]
pub struct Streamed {
    /// The first file's header.
    pub header: Header,
    /// The shards present, if the files are shards.
    pub shards: BTreeSet<Shard>,
    /// The game numbers read.
    pub games: BTreeSet<usize>,
}

impl Streamed {
    /// What the match lacks.
    pub fn gaps(&self) -> Gaps {
        gaps_of(&self.header, &self.shards, &self.games)
    }
}

/// Reads and merges the games files of one match line by line, and hands
/// each game to `each` in file order without keeping it, with the
/// index of its file in `files`, its line number and the byte offset of
/// its line.
///
/// # Errors
/// A file that cannot be read (with its line), a file of another match
/// (other players, seed, openings or limits; another number of games or of
/// shards), a shard given twice, or a game recorded in two files.
pub fn stream(
    files: &[PathBuf],
    mut each: impl FnMut(usize, usize, u64, GameRecord),
) -> Result<Streamed, String> {
    let mut first: Option<(PathBuf, Header)> = None;
    let mut seen = Seen::default();
    for (file, path) in files.iter().enumerate() {
        let header: Header = games_file::header(path, Header::KIND)?;
        if let Some((first_path, h0)) = &first {
            if h0.shard().is_some() != header.shard().is_some() {
                return Err(format!(
                    "{}: {} a shard and {} is not: give the shards of one match, or one file",
                    path.display(),
                    if header.shard().is_some() {
                        "is"
                    } else {
                        "is not"
                    },
                    first_path.display()
                ));
            }
            let size = |h: &Header| {
                h.settings
                    .as_ref()
                    .map(|s| (s.games, s.shard.map(|s| s.count)))
            };
            if !h0.same_match(&header) || size(h0) != size(&header) {
                return Err(format!(
                    "{}: another match than {} (players, seed, openings, limits, games or \
                     shard count differ)",
                    path.display(),
                    first_path.display()
                ));
            }
        }
        seen.file(path, header.shard())?;
        games_file::stream::<Header>(path, Header::KIND, |line, offset, r| {
            seen.game(files, file, line, header.shard(), r.game)?;
            each(file, line, offset, r);
            Ok(())
        })?;
        if first.is_none() {
            first = Some((path.clone(), header));
        }
    }
    let (_, header) = first.ok_or("no games file given")?;
    Ok(Streamed {
        header,
        shards: seen.shards.into_keys().collect(),
        games: seen.games.into_keys().collect(),
    })
}

/// What a merged match lacks.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Gaps {
    /// Games of the match (its `--games`; the highest game number when the
    /// files do not record it).
    pub planned: usize,
    /// Shards with no file.
    pub missing_shards: Vec<Shard>,
    /// Game numbers with no record (those of missing shards included).
    pub missing_games: Vec<usize>,
}

impl Gaps {
    /// Whether nothing is missing.
    pub fn is_empty(&self) -> bool {
        self.missing_shards.is_empty() && self.missing_games.is_empty()
    }

    /// One line: the missing shards and games (the first 20 of them).
    pub fn describe(&self, recorded: usize) -> String {
        let mut parts = Vec::new();
        if !self.missing_shards.is_empty() {
            let names: Vec<String> = self.missing_shards.iter().map(|s| s.to_string()).collect();
            parts.push(format!("shards missing: {}", names.join(", ")));
        }
        if !self.missing_games.is_empty() {
            let shown: Vec<String> = self
                .missing_games
                .iter()
                .take(20)
                .map(|g| g.to_string())
                .collect();
            let more = if self.missing_games.len() > 20 {
                ", ..."
            } else {
                ""
            };
            parts.push(format!(
                "{} games missing: {}{more}",
                self.missing_games.len(),
                shown.join(", ")
            ));
        }
        format!(
            "{recorded} of {} games recorded; {}",
            self.planned,
            parts.join("; ")
        )
    }
}

/// What a match of `header` lacks when `shards` and `records` are there:
/// shards without a file, and games without a record.
pub fn gaps(header: &Header, shards: &BTreeSet<Shard>, records: &[GameRecord]) -> Gaps {
    gaps_of(header, shards, &records.iter().map(|r| r.game).collect())
}

/// As [`gaps`], from the game numbers there are.
fn gaps_of(header: &Header, shards: &BTreeSet<Shard>, have: &BTreeSet<usize>) -> Gaps {
    let highest = have.last().copied().unwrap_or(0);
    let planned = header
        .settings
        .as_ref()
        .map_or(highest, |s| s.games.max(highest));
    let missing_shards = match header.shard() {
        Some(s) => s.all().filter(|s| !shards.contains(s)).collect(),
        None => Vec::new(),
    };
    Gaps {
        planned,
        missing_shards,
        missing_games: (1..=planned).filter(|g| !have.contains(g)).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::files::record::testing::{header, record};
    use crate::files::record::Side;

    #[test]
    fn seen_refuses_a_shard_twice_a_game_outside_its_shard_and_a_game_twice() {
        let files = [PathBuf::from("a.jsonl"), PathBuf::from("b.jsonl")];
        let one = Shard::parse("1/2").unwrap();
        let mut seen = Seen::default();
        seen.file(&files[0], Some(one)).unwrap();
        let e = seen.file(&files[1], Some(one)).unwrap_err();
        assert_eq!(e, "b.jsonl: shard 1/2 is also a.jsonl");
        // Games 1 and 2 (the first pair) are shard 1/2's, 3 and 4 are 2/2's.
        seen.game(&files, 0, 1, Some(one), 2).unwrap();
        let e = seen.game(&files, 0, 2, Some(one), 3).unwrap_err();
        assert_eq!(e, "a.jsonl:2: game 3 does not belong to shard 1/2");
        let e = seen.game(&files, 1, 7, None, 2).unwrap_err();
        assert_eq!(e, "b.jsonl:7: game 2 is also in a.jsonl:1");
        seen.game(&files, 1, 8, None, 3).unwrap();
        assert_eq!(seen.games.keys().copied().collect::<Vec<_>>(), [2, 3]);
    }

    #[test]
    fn gaps_name_missing_games_and_shards() {
        let records = [record(1, Some(Side::P1), 50.0), record(4, None, 50.0)];
        let none = BTreeSet::new();
        let g = gaps(&header(Some(6)), &none, &records);
        assert_eq!((g.planned, g.missing_games.clone()), (6, vec![2, 3, 5, 6]));
        assert_eq!(
            g.describe(2),
            "2 of 6 games recorded; 4 games missing: 2, 3, 5, 6"
        );
        // Without settings, only the gaps below the highest game show.
        let g = gaps(&header(None), &none, &records);
        assert_eq!((g.planned, g.missing_games), (4, vec![2, 3]));
        // Complete, or extended by --resume beyond the header's games.
        let all: Vec<GameRecord> = (1..=4).map(|n| record(n, None, 50.0)).collect();
        assert!(gaps(&header(Some(4)), &none, &all).is_empty());
        assert!(gaps(&header(Some(2)), &none, &all).is_empty());
        // Shard 2 of 2 missing: its pairs' games too.
        let mut h = header(Some(8));
        let first = Shard { index: 1, count: 2 };
        h.settings.as_mut().unwrap().shard = Some(first);
        let mine: Vec<GameRecord> = [1, 2, 5, 6]
            .iter()
            .map(|&n| record(n, None, 50.0))
            .collect();
        let g = gaps(&h, &BTreeSet::from([first]), &mine);
        assert_eq!(g.missing_shards, vec![Shard { index: 2, count: 2 }]);
        assert_eq!(g.missing_games, vec![3, 4, 7, 8]);
    }
}

//! The standing file of `referee standing`: a header line naming the match
//! and what was solved, then one JSON line per game, flushed as each game
//! is solved ([`crate::files::judged_file`]: continued after an
//! interruption), in the order games finish.
//!
//! ```json
//! {"kind":"othello-referee-standing","settings":{"empties":[24],"wld":false},
//!  "p1":"...","p2":"...","seed":1,"openings":"file openings/balanced-8.txt","names":["ours","strong"]}
//! {"game":7,"file":"run.jsonl","line":8,"moves_hash":"5e0c...","black":"p1","winner":"p1","result_black":12,
//!  "final_empties":0,"at":[{"empties":24,"position":"--XO...O X;","score_black":4,"nodes":8123456,"ms":1432.1}],"ms":1432.5}
//! ```

use crate::files::games_file::{self, GameLine};
use crate::files::judged_file::{self, FileKind, JudgedFile};
use crate::files::record::{GameRecord, Header, Side};
use crate::judge::standing::Settings;
use crate::stats::standing_table::{self, StandingSummary};
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The header of a standing file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StandingHeader {
    /// Always [`KIND`]'s.
    pub kind: String,
    /// What was solved.
    pub settings: Settings,
    /// The match's p1 command (from its games files).
    pub p1: String,
    /// The match's p2 command.
    pub p2: String,
    /// The match's seed.
    pub seed: u64,
    /// Where the match's openings came from.
    pub openings: String,
    /// The players' display names.
    pub names: [String; 2],
}

/// What a standing file is, for [`judged_file`]'s reading and messages.
pub const KIND: FileKind = FileKind {
    kind: "othello-referee-standing",
    file: "a standing file",
    what: "a standing file",
    line: "a game's standing",
    command: "referee standing",
    infix: "standing",
};

impl StandingHeader {
    /// The header of the standings of the match of `games`.
    pub fn new(games: &Header, settings: Settings) -> StandingHeader {
        StandingHeader {
            kind: KIND.kind.into(),
            settings,
            p1: games.p1.clone(),
            p2: games.p2.clone(),
            seed: games.seed,
            openings: games.openings.clone(),
            names: crate::files::record::names(games),
        }
    }

    /// Whether these are standings of the match of `games` (same players,
    /// seed and openings).
    pub fn of_match(&self, games: &Header) -> bool {
        (&self.p1, &self.p2, self.seed, &self.openings)
            == (&games.p1, &games.p2, games.seed, &games.openings)
    }
}

/// A game's position at some empties, solved.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StandingAt {
    /// Its empties.
    pub empties: u32,
    /// The position as an OBF line (`othello solve` reads it).
    pub position: String,
    /// Black's final disc difference under perfect play (empties to the
    /// winner); with `wld`, its sign only (-1, 0, 1).
    pub score_black: i32,
    /// The solver's nodes.
    pub nodes: u64,
    /// The solve's time in ms.
    pub ms: f64,
}

/// One game's standings: a line of the file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameStanding {
    /// The game's number in its match.
    pub game: usize,
    /// The games file it was read from, as given.
    pub file: String,
    /// Its line in that file.
    pub line: usize,
    /// [`crate::files::analysis_file::moves_hash`] of the game.
    pub moves_hash: String,
    /// Who played black.
    pub black: Side,
    /// The winner (`None`: a draw), as the game ended (a fault included).
    pub winner: Option<Side>,
    /// Black's final disc difference (empties to the winner) when the game
    /// ended on the board; `None` when a fault decided it.
    pub result_black: Option<i32>,
    /// The empties left when the game ended.
    pub final_empties: u32,
    /// The solved positions, in the order of the settings' empties; a
    /// count the game never reached has none.
    pub at: Vec<StandingAt>,
    /// Time of the game's solves, in ms.
    pub ms: f64,
}

impl GameLine for GameStanding {
    fn game(&self) -> usize {
        self.game
    }
}

/// A standing file read back.
pub type StandingFile = JudgedFile<StandingHeader, GameStanding>;

/// Reads a standing file (a torn last line is allowed only when
/// `allow_torn`, see [`judged_file::read`]).
///
/// # Errors
/// `FILE:LINE: reason`.
pub fn read(path: &Path, allow_torn: bool) -> Result<StandingFile, String> {
    judged_file::read(path, &KIND, allow_torn)
}

/// Whether `path` starts like a standing file (`Ok(false)` when empty).
///
/// # Errors
/// The file cannot be read, or its first line is something else.
pub fn is_standing(path: &Path) -> Result<bool, String> {
    judged_file::is_kind::<StandingHeader>(path, &KIND)
}

/// `run.jsonl` -> `run.standing.jsonl`.
pub fn default_output(games: &Path) -> PathBuf {
    judged_file::beside(games, &KIND, None)
}

/// Checks that `g` (read at `line` of `path`) solved `record`.
///
/// # Errors
/// Its moves differ: standings of other games.
pub fn check_game(
    path: &Path,
    line: usize,
    g: &GameStanding,
    record: &GameRecord,
) -> Result<(), String> {
    if g.moves_hash != crate::files::analysis_file::moves_hash(record) {
        return Err(format!(
            "{}:{line}: game {}'s moves differ from the games file's (standings of other games)",
            path.display(),
            record.game
        ));
    }
    Ok(())
}

/// The standings of a match's games for a page or a summary, checked
/// against the games as they go by ([`StandingMatcher::game`]).
#[derive(Debug)]
pub struct StandingMatcher {
    path: PathBuf,
    file: StandingFile,
    /// Named by the user (else found beside the games, and left out with a
    /// warning when it does not fit them).
    given: bool,
    seen: BTreeSet<usize>,
    error: Option<String>,
}

impl StandingMatcher {
    /// The standings of the games files `files`: the file `given`, else the
    /// one beside the first games file if there is one (said on stderr).
    /// `None` when there is none. A file found beside the games that cannot
    /// be read or is of another match is ignored with a warning: the user
    /// did not name it.
    ///
    /// # Errors
    /// `given` unreadable, or standings of another match.
    pub fn for_games(
        files: &[PathBuf],
        given: Option<&Path>,
    ) -> Result<Option<StandingMatcher>, String> {
        let header: Header = games_file::header(&files[0], Header::KIND)?;
        let path = given.map_or_else(|| default_output(&files[0]), Path::to_path_buf);
        if given.is_none() && !path.is_file() {
            return Ok(None);
        }
        let found = read(&path, false).and_then(|f| {
            if f.header.of_match(&header) {
                Ok(f)
            } else {
                Err(format!(
                    "{}:1: standings of another match (players, seed or openings differ from \
                     the games files')",
                    path.display()
                ))
            }
        });
        let file = match (found, given) {
            (Ok(f), _) => f,
            (Err(e), Some(_)) => return Err(e),
            (Err(e), None) => {
                ignored(&e);
                return Ok(None);
            }
        };
        if given.is_none() {
            eprintln!("referee: using the standings {}", path.display());
        }
        Ok(Some(StandingMatcher {
            path,
            file,
            given: given.is_some(),
            seen: BTreeSet::new(),
            error: None,
        }))
    }

    /// Checks the standings of `r`, if there are some (a mismatch is kept
    /// for [`StandingMatcher::finish`]).
    pub fn game(&mut self, r: &GameRecord) {
        if let Some((line, g)) = self.file.games.get(&r.game) {
            if let Err(e) = check_game(&self.path, *line, g, r) {
                self.error.get_or_insert(e);
            }
            self.seen.insert(r.game);
        }
    }

    /// The summary, once every game went by: `None` for standings found
    /// beside the games that do not fit them (said on stderr).
    ///
    /// # Errors
    /// Named standings of other games: a game's moves differ, or a game is
    /// not among the games.
    pub fn finish(self) -> Result<Option<StandingSummary>, String> {
        let unseen = self.file.games.iter().find(|(g, _)| !self.seen.contains(g));
        let error = self.error.or_else(|| {
            unseen.map(|(game, (line, _))| {
                format!(
                    "{}:{line}: game {game} is not in the games files (standings of other games)",
                    self.path.display()
                )
            })
        });
        match (error, self.given) {
            (Some(e), true) => Err(e),
            (Some(e), false) => {
                ignored(&e);
                Ok(None)
            }
            (None, _) => {
                let games: Vec<&GameStanding> = self.file.games.values().map(|(_, g)| g).collect();
                let h = &self.file.header;
                Ok(Some(standing_table::summarize(
                    &h.names,
                    &h.settings,
                    &games,
                )))
            }
        }
    }
}

/// Says on stderr that the standing file beside the games is not used.
pub fn ignored(why: &str) {
    eprintln!(
        "referee: warning: ignoring the standings beside the games, {why} (run `referee \
         standing` again, or name one as --standing FILE)"
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_output_sits_beside_the_games() {
        assert_eq!(
            default_output(Path::new("runs/a.jsonl")),
            PathBuf::from("runs/a.standing.jsonl")
        );
    }
}

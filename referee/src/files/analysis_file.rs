//! The analysis file of `referee analyze`: a header line naming the match
//! and the judge's settings, then one JSON line per game, flushed as each
//! game is judged (so that an interrupted analysis continues where it
//! stopped), in the order games finish.
//!
//! ```json
//! {"kind":"othello-referee-analysis","judge":{"depth":10,"exact":20,"time_ms":null,"selective":true},
//!  "p1":"...","p2":"...","seed":1,"openings":"file openings/balanced-8.txt","names":["d6","d3"],"shard":null}
//! {"game":7,"file":"run.jsonl","line":8,"moves_hash":"5e0c...","black":"p1","winner":"p1","result_black":12,
//!  "moves":[{"n":9,"by":"p1","square":"c4","best":"c4","value":1.5,"played_value":1.5,"loss":0.0,"exact":false}, ...],
//!  "positions":52,"ms":812.4}
//! ```

use crate::files::games_file::{self, GameLine};
use crate::files::judged_file::{self, FileKind, JudgedFile};
use crate::files::record::{GameRecord, Header, Shard, Side};
use crate::judge::analyze::Settings;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The header of an analysis file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AnalysisHeader {
    /// Always [`AnalysisHeader::KIND`].
    pub kind: String,
    /// The judge's settings.
    pub judge: Settings,
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
    /// `--shard`: the part of the match's games this file judges.
    #[serde(default)]
    pub shard: Option<Shard>,
}

impl AnalysisHeader {
    /// The `kind` of an analysis file.
    pub const KIND: &'static str = "othello-referee-analysis";

    /// The header of an analysis of the match of `games` by `judge`.
    pub fn new(games: &Header, judge: Settings, shard: Option<Shard>) -> AnalysisHeader {
        AnalysisHeader {
            kind: AnalysisHeader::KIND.into(),
            judge,
            p1: games.p1.clone(),
            p2: games.p2.clone(),
            seed: games.seed,
            openings: games.openings.clone(),
            names: crate::files::record::names(games),
            shard,
        }
    }

    /// Whether this analyses the match of `games` (same players, seed and
    /// openings).
    pub fn of_match(&self, games: &Header) -> bool {
        (&self.p1, &self.p2, self.seed, &self.openings)
            == (&games.p1, &games.p2, games.seed, &games.openings)
    }

    /// Whether `other` analyses the same match as this (same players, seed
    /// and openings; the judge and the shard aside).
    pub fn same_match(&self, other: &AnalysisHeader) -> bool {
        (&self.p1, &self.p2, self.seed, &self.openings)
            == (&other.p1, &other.p2, other.seed, &other.openings)
    }
}

/// The judge's verdict on one move of a game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MoveVerdict {
    /// Move number (the opening's moves counted, passes not).
    pub n: usize,
    /// Who played it.
    pub by: Side,
    /// The square played.
    pub square: String,
    /// The judge's best move.
    pub best: String,
    /// The position's value for the mover, in discs (its best move's).
    pub value: f64,
    /// The value of the move played, for the mover.
    pub played_value: f64,
    /// `value - played_value`, never negative: 0 for a best move.
    pub loss: f64,
    /// Whether the values are exact final disc differences.
    pub exact: bool,
}

/// One game's analysis: a line of the file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameAnalysis {
    /// The game's number in its match.
    pub game: usize,
    /// The games file it was read from, as given to `referee analyze`.
    pub file: String,
    /// Its line in that file.
    pub line: usize,
    /// [`moves_hash`] of the game: tells an analysis of other games.
    pub moves_hash: String,
    /// Who played black.
    pub black: Side,
    /// The winner (`None`: a draw).
    pub winner: Option<Side>,
    /// Black's final disc difference (empties to the winner) when the game
    /// ended on the board; `None` when a fault decided it.
    pub result_black: Option<i32>,
    /// The bots' moves, judged, in order (the opening's are not judged).
    pub moves: Vec<MoveVerdict>,
    /// Positions judged.
    pub positions: usize,
    /// Time the judge took, in ms.
    pub ms: f64,
}

/// A fingerprint of a game's moves (the opening, then the bots' moves):
/// 64-bit FNV-1a, in hex.
pub fn moves_hash(r: &GameRecord) -> String {
    const OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
    const PRIME: u64 = 0x0000_0100_0000_01b3;
    let mut h = OFFSET;
    let mut add = |bytes: &[u8]| {
        for &b in bytes {
            h ^= u64::from(b);
            h = h.wrapping_mul(PRIME);
        }
    };
    add(r.opening.as_bytes());
    add(b"/");
    for m in &r.moves {
        add(m.square.as_bytes());
    }
    format!("{h:016x}")
}

/// What an analysis file is, for [`judged_file`]'s reading and messages.
pub const KIND: FileKind = FileKind {
    kind: AnalysisHeader::KIND,
    file: "an analysis file",
    what: "an analysis",
    line: "a game's analysis",
    command: "referee analyze",
    infix: "analysis",
};

/// An analysis file read back.
pub type AnalysisFile = JudgedFile<AnalysisHeader, GameAnalysis>;

/// Reads an analysis file. A torn last line (an interrupted analysis) is
/// reported in [`JudgedFile::torn`] when `allow_torn`, else refused.
///
/// # Errors
/// `FILE:LINE: reason`: not an analysis file, a line that is not a game's
/// analysis, a game twice, a torn last line unless allowed.
pub fn read(path: &Path, allow_torn: bool) -> Result<AnalysisFile, String> {
    judged_file::read(path, &KIND, allow_torn)
}

impl GameLine for GameAnalysis {
    fn game(&self) -> usize {
        self.game
    }
}

/// Whether `path` starts like an analysis file (its first line only is
/// read): `Ok(false)` for an empty file.
///
/// # Errors
/// The file cannot be read, or its first line is something else.
pub fn is_analysis(path: &Path) -> Result<bool, String> {
    judged_file::is_kind::<AnalysisHeader>(path, &KIND)
}

/// Several analysis files of one match (shards, or parts judged apart),
/// merged by game number.
#[derive(Debug)]
pub struct Merged {
    /// The first file's header.
    pub header: AnalysisHeader,
    /// Every game's analysis, with its file's index and line.
    pub games: BTreeMap<usize, (usize, usize, GameAnalysis)>,
}

/// Reads and merges analysis files of the match of `games` (a torn line is
/// refused).
///
/// # Errors
/// A file that cannot be read (with its line), of another match, judged at
/// other settings than the first, or a game in two files.
pub fn merge(files: &[PathBuf], games: &Header) -> Result<Merged, String> {
    let mut out: Option<Merged> = None;
    for (i, path) in files.iter().enumerate() {
        let f = read(path, false)?;
        if !f.header.of_match(games) {
            return Err(format!(
                "{}:1: an analysis of another match (players, seed or openings differ from the \
                 games files')",
                path.display()
            ));
        }
        let merged = out.get_or_insert_with(|| Merged {
            header: f.header.clone(),
            games: BTreeMap::new(),
        });
        if merged.header.judge != f.header.judge {
            return Err(format!(
                "{}:1: judged at other settings ({}) than {} ({})",
                path.display(),
                f.header.judge.describe(),
                files[0].display(),
                merged.header.judge.describe()
            ));
        }
        for (game, (line, g)) in f.games {
            if let Some((other, other_line, _)) = merged.games.insert(game, (i, line, g)) {
                return Err(format!(
                    "{}:{line}: game {game} is also in {}:{other_line}",
                    path.display(),
                    files[other].display()
                ));
            }
        }
    }
    out.ok_or_else(|| "no analysis file given".into())
}

/// The analysis of a match's games, checked against them as they go by.
#[derive(Debug)]
pub struct Matcher {
    paths: Vec<PathBuf>,
    merged: Merged,
    analysed: BTreeSet<usize>,
    error: Option<String>,
}

impl Matcher {
    /// The analysis of the games files `files`: the files `given`, else
    /// the analysis beside the first games file if it exists and judged
    /// these very games (said on stderr), else none. A stale analysis
    /// found beside the games (the match was played again into the same
    /// file) is ignored with a warning: the user did not name it. `naming`
    /// says how the calling command names an analysis (`--analysis FILE`,
    /// `GAMES:ANALYSIS`), for that warning.
    ///
    /// # Errors
    /// As [`merge`], for the files `given`.
    pub fn for_games(
        files: &[PathBuf],
        given: &[PathBuf],
        naming: &str,
    ) -> Result<Option<Matcher>, String> {
        let header: Header = games_file::header(&files[0], Header::KIND)?;
        if !given.is_empty() {
            return Ok(Some(Matcher::new(given.to_vec(), merge(given, &header)?)));
        }
        let beside = default_output(&files[0], None);
        if !beside.is_file() {
            return Ok(None);
        }
        let found = merge(std::slice::from_ref(&beside), &header)
            .map(|merged| Matcher::new(vec![beside.clone()], merged))
            .and_then(|mut m| m.verify(files).map(|()| m));
        match found {
            Ok(m) => {
                eprintln!("referee: using the analysis {}", beside.display());
                Ok(Some(m))
            }
            Err(e) => {
                eprintln!(
                    "referee: warning: ignoring the analysis beside the games, {e} \
                     (run `referee analyze` again, or name one as {naming})"
                );
                Ok(None)
            }
        }
    }

    fn new(paths: Vec<PathBuf>, merged: Merged) -> Matcher {
        Matcher {
            paths,
            merged,
            analysed: BTreeSet::new(),
            error: None,
        }
    }

    /// Reads the games once and checks that every analysed game is among
    /// them with the same moves; then the matcher starts afresh.
    fn verify(&mut self, files: &[PathBuf]) -> Result<(), String> {
        crate::files::merge::stream(files, |_, _, _, r| {
            self.game(&r);
        })?;
        let result = self.unmatched();
        self.analysed.clear();
        self.error = None;
        result
    }

    /// The first mismatch seen, or the first analysed game not seen.
    fn unmatched(&self) -> Result<(), String> {
        if let Some(e) = &self.error {
            return Err(e.clone());
        }
        if let Some((game, (i, line, _))) = self
            .merged
            .games
            .iter()
            .find(|(g, _)| !self.analysed.contains(g))
        {
            return Err(format!(
                "{}:{line}: game {game} is not in the games files (an analysis of other games)",
                self.paths[*i].display()
            ));
        }
        Ok(())
    }

    /// The analysis of `r`, if there is one and it judged these moves (a
    /// mismatch is kept for [`Matcher::finish`]).
    pub fn game(&mut self, r: &GameRecord) -> Option<&GameAnalysis> {
        let (i, line, g) = self.merged.games.get(&r.game)?;
        match check_game(&self.paths[*i], *line, g, r) {
            Ok(()) => {
                self.analysed.insert(r.game);
                Some(g)
            }
            Err(e) => {
                self.error.get_or_insert(e);
                None
            }
        }
    }

    /// The analysis, once every game went by.
    ///
    /// # Errors
    /// A game analysed with other moves, or not among the games.
    pub fn finish(self) -> Result<Merged, String> {
        self.unmatched()?;
        Ok(self.merged)
    }
}

/// Checks that `analysis` (read at `line` of `path`) judged `record`.
///
/// # Errors
/// Its moves differ: an analysis of other games.
pub fn check_game(
    path: &Path,
    line: usize,
    analysis: &GameAnalysis,
    record: &GameRecord,
) -> Result<(), String> {
    if analysis.moves_hash != moves_hash(record) || analysis.moves.len() != record.moves.len() {
        return Err(format!(
            "{}:{line}: game {}'s moves differ from the games file's (an analysis of other games)",
            path.display(),
            record.game
        ));
    }
    Ok(())
}

/// The analysis file's name when `-o` is not given: beside the first games
/// file, `.jsonl` replaced by `.analysis.jsonl` (`run.jsonl` ->
/// `run.analysis.jsonl`; a shard's `run.analysis-2-of-4.jsonl`). `referee
/// report` and `referee summary` look there when `--analysis` is not given.
pub fn default_output(games: &Path, shard: Option<Shard>) -> PathBuf {
    judged_file::beside(games, &KIND, shard)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::files::record::testing::{header, record};

    #[test]
    fn the_default_output_sits_beside_the_games() {
        let shard = Shard::parse("2/4").unwrap();
        assert_eq!(
            default_output(Path::new("runs/a.jsonl"), None),
            PathBuf::from("runs/a.analysis.jsonl")
        );
        assert_eq!(
            default_output(Path::new("a.jsonl"), Some(shard)),
            PathBuf::from("a.analysis-2-of-4.jsonl")
        );
        assert_eq!(
            default_output(Path::new("games"), None),
            PathBuf::from("games.analysis.jsonl")
        );
    }

    fn scratch(name: &str) -> std::path::PathBuf {
        std::env::temp_dir().join(format!("analysis-file-{}-{name}", std::process::id()))
    }

    fn analysis(game: usize) -> GameAnalysis {
        let r = record(game, Some(Side::P1), 50.0);
        GameAnalysis {
            game,
            file: "g.jsonl".into(),
            line: game + 1,
            moves_hash: moves_hash(&r),
            black: r.black,
            winner: r.winner,
            result_black: Some(16),
            moves: Vec::new(),
            positions: 0,
            ms: 1.0,
        }
    }

    fn write(path: &Path, lines: &[String]) {
        std::fs::write(path, lines.concat()).unwrap();
    }

    fn head() -> String {
        let h = AnalysisHeader::new(&header(Some(4)), Settings::default(), None);
        serde_json::to_string(&h).unwrap() + "\n"
    }

    #[test]
    fn the_hash_tells_games_apart() {
        let a = record(1, None, 50.0);
        let mut b = a.clone();
        assert_eq!(moves_hash(&a), moves_hash(&b));
        b.moves[2].square = "c4".into();
        assert_ne!(moves_hash(&a), moves_hash(&b));
        let e = check_game(Path::new("a.jsonl"), 3, &analysis(1), &b).unwrap_err();
        assert_eq!(
            e,
            "a.jsonl:3: game 1's moves differ from the games file's (an analysis of other games)"
        );
        check_game(Path::new("a.jsonl"), 3, &analysis(1), &a).unwrap_err(); // 0 moves judged
    }

    #[test]
    fn a_torn_last_line_is_cut_when_resuming_and_refused_otherwise() {
        let path = scratch("torn");
        let g1 = serde_json::to_string(&analysis(1)).unwrap() + "\n";
        let g2 = serde_json::to_string(&analysis(2)).unwrap();
        write(&path, &[head(), g1.clone(), g2[..20].to_string()]);
        let f = read(&path, true).unwrap();
        assert_eq!(f.torn, Some(3));
        assert_eq!(f.games.keys().copied().collect::<Vec<_>>(), [1]);
        assert_eq!(f.valid_len as usize, head().len() + g1.len());
        let e = read(&path, false).unwrap_err();
        assert!(
            e.starts_with(&format!("{}:3: torn last line", path.display())),
            "{e}"
        );
        // A bad line that is not the last is an error either way.
        write(&path, &[head(), "{\"game\":\n".into(), g1.clone()]);
        let e = read(&path, true).unwrap_err();
        assert!(
            e.starts_with(&format!("{}:2: not a game's analysis", path.display())),
            "{e}"
        );
        // A game twice.
        write(&path, &[head(), g1.clone(), g1.clone()]);
        let e = read(&path, true).unwrap_err();
        assert!(
            e.contains(":3: game 1 is recorded twice (also on line 2)"),
            "{e}"
        );
        // Not an analysis at all.
        write(&path, &["{\"kind\":\"othello-referee-games\"}\n".into()]);
        let e = read(&path, true).unwrap_err();
        assert!(
            e.contains(":1: a file of kind \"othello-referee-games\""),
            "{e}"
        );
        std::fs::remove_file(&path).unwrap();
    }

    #[test]
    fn merging_refuses_other_settings_other_matches_and_games_twice() {
        let (a, b) = (scratch("merge-a"), scratch("merge-b"));
        let line = |g| serde_json::to_string(&analysis(g)).unwrap() + "\n";
        write(&a, &[head(), line(1), line(2)]);
        write(&b, &[head(), line(3)]);
        let games = header(Some(4));
        let m = merge(&[a.clone(), b.clone()], &games).unwrap();
        assert_eq!(m.games.keys().copied().collect::<Vec<_>>(), [1, 2, 3]);
        write(&b, &[head(), line(2)]);
        let e = merge(&[a.clone(), b.clone()], &games).unwrap_err();
        assert_eq!(
            e,
            format!("{}:2: game 2 is also in {}:3", b.display(), a.display())
        );
        let mut other = AnalysisHeader::new(&games, Settings::default(), None);
        other.judge.depth += 1;
        write(&b, &[serde_json::to_string(&other).unwrap() + "\n"]);
        let e = merge(&[a.clone(), b.clone()], &games).unwrap_err();
        assert!(e.contains(":1: judged at other settings (depth 11"), "{e}");
        let mut foreign = games.clone();
        foreign.seed += 1;
        let e = merge(std::slice::from_ref(&a), &foreign).unwrap_err();
        assert!(e.contains(":1: an analysis of another match"), "{e}");
        std::fs::remove_file(&a).unwrap();
        std::fs::remove_file(&b).unwrap();
    }
}

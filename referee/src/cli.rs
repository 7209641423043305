//! The command line (clap), and its checks that clap cannot make.

use crate::files::record::Shard;
use crate::files::record::{default_name, Format};
use crate::judge::mistakes::{EmptiesBuckets, DEFAULT_EMPTIES_BUCKETS};
use crate::play::game::PlayerSpec;
use crate::stats::elo::Sprt;
use clap::{Parser, Subcommand};
use std::path::PathBuf;

/// Runs Othello matches between bot processes under CodinGame's rules.
///
/// With no arguments at all it plays a short demonstration match: the
/// default `othello` bot against `othello --strategy greedy`.
#[derive(Parser, Debug, Clone, Default)]
#[command(name = "referee", version, args_conflicts_with_subcommands = true)]
pub struct Args {
    /// A command on games files instead of a match.
    #[command(subcommand)]
    pub command: Option<Command>,
    /// First player: a shell-style command line, or `human`.
    #[arg(long, value_name = "CMD")]
    pub p1: Option<String>,
    /// Second player: a shell-style command line, or `human`.
    #[arg(long, value_name = "CMD")]
    pub p2: Option<String>,
    /// Display name of p1 (default: derived from the command).
    #[arg(long)]
    pub name1: Option<String>,
    /// Display name of p2 (default: derived from the command).
    #[arg(long)]
    pub name2: Option<String>,
    /// Number of games; openings are played in pairs, colours swapped.
    #[arg(long, default_value_t = 10)]
    pub games: usize,
    #[command(flatten)]
    pub play: PlayArgs,
    /// Match seed: random openings and the bots' seeds (OTHELLO_SEED).
    /// Default: from the clock (printed, and kept in --games-out).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Stop early on the pentanomial SPRT:
    /// `elo0=0,elo1=10,alpha=0.05,beta=0.05` (logistic Elo).
    #[arg(long, value_name = "SPEC")]
    pub sprt: Option<String>,
    /// Write the summary as JSON.
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// Play only shard I of N (1 <= I <= N): every N-th pair of games, with
    /// the openings and bot seeds the whole match gives them. Each shard
    /// writes its own --games-out; `referee summary` merges them.
    #[arg(long, value_name = "I/N", value_parser = Shard::parse)]
    pub shard: Option<Shard>,
    /// Write the match's HTML report (as `referee report`) when it ends.
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
    /// Write one JSON line per game, flushed as each game ends.
    #[arg(long, value_name = "FILE")]
    pub games_out: Option<PathBuf>,
    /// Export the games in GGF.
    #[arg(long, value_name = "FILE")]
    pub ggf: Option<PathBuf>,
    /// Keep each bot's stderr per game in this directory.
    #[arg(long, value_name = "DIR")]
    pub stderr_dir: Option<PathBuf>,
    /// Continue the match of the --games-out file: play only its missing games.
    #[arg(long, requires = "games_out")]
    pub resume: bool,
    /// Play a single game and draw the board after every move.
    #[arg(long)]
    pub watch: bool,
    /// Redraw game N of a --games-out file move by move.
    #[arg(long, value_name = "FILE:N", conflicts_with_all = ["p1", "p2", "watch"])]
    pub replay: Option<String>,
    /// Pause between moves of --watch and --replay, in ms.
    #[arg(long, default_value_t = 0)]
    pub delay_ms: u64,
}

/// Commands on games files.
#[derive(Subcommand, Debug, Clone)]
pub enum Command {
    /// Write one self-contained HTML page of a match (summary, charts,
    /// every game replayable) from its games files: one file, a resumed
    /// one, or several shards of the same match. A tournament's files give
    /// its rating list and crosstable.
    Report(ReportArgs),
    /// Print the summary of a match from its games files (one file, a
    /// resumed one, or the shards of a sharded match), as the referee
    /// prints it after a match; of a tournament, its rating list and
    /// crosstable.
    Summary(SummaryArgs),
    /// Play a tournament of many bots, every pair (round-robin) or the
    /// first bot against each other (gauntlet), and fit one rating list
    /// (maximum likelihood) over all its games.
    Tournament(Box<TournamentArgs>),
    /// Judge every move of a match's games with the engine's own search
    /// and solver: each position's value and each move's loss in discs,
    /// one JSON line per game (docs/referee.md, "Analysing a match").
    Analyze(AnalyzeArgs),
    /// Openings for endgame matches: the positions of real games where a
    /// number of empties remain, kept when the games' judge (`referee
    /// analyze`) puts them near a draw, as a file `--openings` reads
    /// (docs/referee.md, "Openings from real games").
    Openings(OpeningsArgs),
    /// Where the games were decided: each game's position at N empties
    /// solved exactly (no evaluation in the judge), against how the game
    /// ended, per player (docs/referee.md, "Where games were decided").
    Standing(StandingArgs),
}

/// `referee standing`.
#[derive(clap::Args, Debug, Clone)]
pub struct StandingArgs {
    /// Games files (`--games-out`) of one match: one file, a resumed one,
    /// or several shards.
    #[arg(required = true, value_name = "GAMES_FILE")]
    pub files: Vec<PathBuf>,
    /// The counts of empties to solve the games at, comma-separated, each
    /// 1-40 (a solve at 24 takes about 3 s, every further empty 2-3 times
    /// as long).
    #[arg(long, value_name = "E,E,...", value_delimiter = ',', default_value = "24",
          value_parser = clap::value_parser!(u32).range(1..=i64::from(crate::judge::standing::MAX_EMPTIES)))]
    pub empties: Vec<u32>,
    /// Prove only the result (win, draw or loss), not the score: about
    /// twice as fast at 26 empties.
    #[arg(long)]
    pub wld: bool,
    /// The standing file (default: beside the first games file,
    /// `run.jsonl` -> `run.standing.jsonl`). An existing one of the same
    /// match with the same settings is continued.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Write the summary (every count of empties, every game) as JSON.
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// Games solved at once (default: the number of cores).
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
}

/// `referee openings`.
#[derive(clap::Args, Debug, Clone)]
pub struct OpeningsArgs {
    /// Each a games file (`--games-out`) of one match, with its analysis
    /// after a colon; without one, the analysis beside the games file
    /// (`run.jsonl` -> `run.analysis.jsonl`).
    #[arg(required = true, value_name = "GAMES[:ANALYSIS]")]
    pub files: Vec<String>,
    /// The counts of empties to cut the games at, comma-separated, each
    /// 1-59; the file lists them in this order.
    #[arg(long, value_name = "E,E,...", value_delimiter = ',', default_value = "26,24",
          value_parser = clap::value_parser!(u32).range(1..=59))]
    pub empties: Vec<u32>,
    /// Keep a position when the judge's value there is at most this many
    /// discs from a draw.
    #[arg(long, value_name = "DISCS", default_value_t = 6.0, value_parser = parse_within,
          allow_negative_numbers = true)]
    pub within: f64,
    /// Write the openings to this file instead of stdout.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

/// `--within`: a number of discs, 0 or more.
fn parse_within(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(d) if d.is_finite() && d >= 0.0 => Ok(d),
        _ => Err(format!(
            "expected a number of discs, 0 or more, not {text:?}"
        )),
    }
}

/// `referee analyze`.
#[derive(clap::Args, Debug, Clone)]
pub struct AnalyzeArgs {
    /// Games files (`--games-out`) of one match: one file, a resumed one,
    /// or several shards.
    #[arg(required = true, value_name = "GAMES_FILE")]
    pub files: Vec<PathBuf>,
    /// The analysis file (default: beside the first games file,
    /// `run.jsonl` -> `run.analysis.jsonl`). An existing analysis of the
    /// same match at the same settings is continued.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Midgame depth: each legal move's child is searched to DEPTH - 1
    /// plies.
    #[arg(long, default_value_t = crate::judge::analyze::DEFAULT_DEPTH)]
    pub depth: u32,
    /// Solve exactly from this many empties down (0: never).
    #[arg(long, value_name = "E", default_value_t = crate::judge::analyze::DEFAULT_EXACT)]
    pub exact: u32,
    /// Time limit of each exact solve in ms; one that runs out falls back
    /// to the midgame search (default: none, reproducible).
    #[arg(long, value_name = "MS")]
    pub time_ms: Option<u64>,
    /// No Multi-ProbCut in the midgame searches.
    #[arg(long)]
    pub full_width: bool,
    /// Games judged at once (default: the number of cores).
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
    /// Judge only shard I of N of the match's games (every N-th pair, as
    /// `--shard` plays them); `referee report` and `referee summary` merge
    /// the shards' analyses (`--analysis A1 --analysis A2 ...`).
    #[arg(long, value_name = "I/N", value_parser = Shard::parse)]
    pub shard: Option<Shard>,
}

/// `referee tournament`.
#[derive(clap::Args, Debug, Clone)]
pub struct TournamentArgs {
    /// A bot: `NAME=COMMAND` (a shell-style command line); repeatable.
    #[arg(long = "bot", value_name = "NAME=COMMAND")]
    pub bot: Vec<String>,
    /// A TOML file of bots: `[[bot]]` tables with `name` and `command`
    /// (they come before any --bot).
    #[arg(long = "bots", value_name = "FILE")]
    pub bots: Option<PathBuf>,
    /// `round-robin`: every pair; `gauntlet`: the first bot against each
    /// other.
    #[arg(long, value_enum, default_value_t = Format::RoundRobin)]
    pub format: Format,
    /// Games of each pair of bots (even: each opening twice, colours
    /// swapped).
    #[arg(long, default_value_t = 10)]
    pub games_per_pair: usize,
    /// The bot rated 0 (default: the first).
    #[arg(long, value_name = "NAME")]
    pub anchor: Option<String>,
    #[command(flatten)]
    pub play: PlayArgs,
    /// Tournament seed: random openings and the bots' seeds.
    #[arg(long)]
    pub seed: Option<u64>,
    /// Write the summary (rating list, crosstable) as JSON.
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// Write one JSON line per game, flushed as each game ends.
    #[arg(long, value_name = "FILE")]
    pub games_out: Option<PathBuf>,
    /// Continue the tournament of the --games-out file: play only its
    /// missing games (a larger --games-per-pair adds games to every pair).
    #[arg(long, requires = "games_out")]
    pub resume: bool,
    /// Export the games in GGF (those of a resumed file too).
    #[arg(long, value_name = "FILE")]
    pub ggf: Option<PathBuf>,
    /// Keep each bot's stderr per game in this directory
    /// (`game-0007-p1.stderr`: p1 is the game's first bot).
    #[arg(long, value_name = "DIR")]
    pub stderr_dir: Option<PathBuf>,
    /// Play only shard I of N: every N-th pair of games.
    #[arg(long, value_name = "I/N", value_parser = Shard::parse)]
    pub shard: Option<Shard>,
    /// Write the tournament's HTML report when it ends.
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
}

/// `referee summary`.
#[derive(clap::Args, Debug, Clone)]
pub struct SummaryArgs {
    /// Games files (`--games-out`) of one match or one tournament.
    #[arg(required = true, value_name = "GAMES_FILE")]
    pub files: Vec<PathBuf>,
    /// Write the summary as JSON, as `--json` does after a match.
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// Summarise what there is when shards or games are missing (else that
    /// is an error naming them).
    #[arg(long)]
    pub partial: bool,
    /// Analysis files (`referee analyze`) of these games: print each
    /// bot's mean loss per move by phase and by empties (default: the
    /// analysis beside the first games file, if there is one).
    #[arg(long, value_name = "FILE")]
    pub analysis: Vec<PathBuf>,
    /// Buckets of empties before a move for the analysis's losses, each
    /// from more empties to fewer: A-B,C-D,...
    #[arg(long, value_name = "BUCKETS", default_value = DEFAULT_EMPTIES_BUCKETS,
          value_parser = EmptiesBuckets::parse)]
    pub empties_buckets: EmptiesBuckets,
    /// The standing file (`referee standing`) of these games: print where
    /// the games were decided (default: the one beside the first games
    /// file, if there is one).
    #[arg(long, value_name = "FILE")]
    pub standing: Option<PathBuf>,
}

/// `referee report`.
#[derive(clap::Args, Debug, Clone)]
pub struct ReportArgs {
    /// Games files (`--games-out`) of one match or one tournament.
    #[arg(required = true, value_name = "GAMES_FILE")]
    pub files: Vec<PathBuf>,
    /// The page to write.
    #[arg(short, long, value_name = "FILE")]
    pub output: PathBuf,
    /// Analysis files (`referee analyze`) of these games: the judge's
    /// value over each game with the mistakes marked, losses by phase and
    /// by empties, turning points (default: the analysis beside the first
    /// games file, if there is one).
    #[arg(long, value_name = "FILE")]
    pub analysis: Vec<PathBuf>,
    /// Buckets of empties before a move for the analysis's losses, each
    /// from more empties to fewer: A-B,C-D,...
    #[arg(long, value_name = "BUCKETS", default_value = DEFAULT_EMPTIES_BUCKETS,
          value_parser = EmptiesBuckets::parse)]
    pub empties_buckets: EmptiesBuckets,
    /// The standing file (`referee standing`) of these games: the games'
    /// perfect-play standing by stage, and each game's (default: the one
    /// beside the first games file, if there is one).
    #[arg(long, value_name = "FILE")]
    pub standing: Option<PathBuf>,
}

/// A player as given on the command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerArg {
    /// The command line as typed.
    pub command: String,
    /// How to start it.
    pub spec: PlayerSpec,
    /// Its display name.
    pub name: String,
}

/// Reads a `--p1`/`--p2` value: `human`, or a command whose program must
/// exist.
///
/// # Errors
/// An empty or unparsable command, or a program that cannot be found.
pub fn player(flag: &str, command: &str, name: Option<&str>) -> Result<PlayerArg, String> {
    if command.trim() == "human" {
        return Ok(PlayerArg {
            command: command.to_string(),
            spec: PlayerSpec::Human,
            name: name.unwrap_or("human").to_string(),
        });
    }
    let argv = shlex::split(command)
        .ok_or_else(|| format!("{flag}: cannot split the command line {command:?}"))?;
    let program = argv
        .first()
        .ok_or_else(|| format!("{flag}: empty command"))?;
    match find_program(program) {
        None => return Err(format!("{flag}: program {program:?} not found")),
        Some(path) if !is_executable(&path) => {
            return Err(format!(
                "{flag}: program {program:?} is not executable (chmod +x {})",
                path.display()
            ))
        }
        Some(_) => {}
    }
    Ok(PlayerArg {
        command: command.to_string(),
        name: name.map_or_else(|| default_name(&argv), str::to_string),
        spec: PlayerSpec::Command(argv),
    })
}

/// Where `program` is: itself if it names a path, else the first
/// executable match in `PATH` (as a shell looks it up).
pub fn find_program(program: &str) -> Option<PathBuf> {
    if program.contains('/') {
        let p = PathBuf::from(program);
        return p.is_file().then_some(p);
    }
    std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|dir| dir.join(program))
            .find(|p| p.is_file() && is_executable(p))
    })
}

/// Whether any execute permission bit of `path` is set.
fn is_executable(path: &std::path::Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).is_ok_and(|m| m.permissions().mode() & 0o111 != 0)
}

/// Reads `--sprt`.
///
/// # Errors
/// A malformed specification.
pub fn sprt(spec: Option<&str>) -> Result<Option<Sprt>, String> {
    spec.map(|s| Sprt::parse(s).map_err(|e| format!("--sprt: {e}")))
        .transpose()
}

/// Reads `--replay FILE:N`.
///
/// # Errors
/// No `:N`, or N not a positive number.
pub fn replay(spec: &str) -> Result<(PathBuf, usize), String> {
    let (file, n) = spec
        .rsplit_once(':')
        .ok_or_else(|| format!("--replay: expected FILE:N, found {spec:?}"))?;
    let n: usize = n
        .parse()
        .ok()
        .filter(|&n| n > 0)
        .ok_or_else(|| format!("--replay: game number must be 1 or more, found {n:?}"))?;
    Ok((PathBuf::from(file), n))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn players_and_specs() {
        let p = player("--p1", "sh -c 'echo d3'", None).unwrap();
        assert_eq!(p.name, "sh -c echo d3");
        assert_eq!(
            p.spec,
            PlayerSpec::Command(vec!["sh".into(), "-c".into(), "echo d3".into()])
        );
        assert_eq!(
            player("--p2", "human", None).unwrap().spec,
            PlayerSpec::Human
        );
        assert!(player("--p1", "", None).unwrap_err().contains("empty"));
        assert!(player("--p1", "/no/such/bot", None)
            .unwrap_err()
            .contains("not found"));
        assert!(player("--p1", "sh -c 'open", None).is_err());
        let plain = std::env::temp_dir().join(format!("not-executable-{}", std::process::id()));
        std::fs::write(&plain, "#!/bin/sh\necho d3\n").unwrap();
        let e = player("--p1", &plain.display().to_string(), None).unwrap_err();
        std::fs::remove_file(&plain).unwrap();
        assert!(e.contains("is not executable"), "{e}");
        assert_eq!(replay("g.jsonl:3").unwrap(), (PathBuf::from("g.jsonl"), 3));
        assert!(replay("g.jsonl").is_err());
        assert!(replay("g.jsonl:0").is_err());
    }
}

/// How games are played, for a match and a tournament alike.
#[derive(Parser, Debug, Clone, Default)]
pub struct PlayArgs {
    /// Games played at once (default: the number of cores).
    #[arg(long, value_name = "K")]
    pub concurrency: Option<usize>,
    /// Allow more games at once than cores.
    #[arg(long)]
    pub force_concurrency: bool,
    /// Limit of every turn after a player's first, in ms.
    #[arg(long, default_value_t = 150)]
    pub turn_ms: u64,
    /// Limit of a player's first turn, in ms.
    #[arg(long, default_value_t = 2000)]
    pub first_turn_ms: u64,
    /// Tolerance added to every limit, in ms (0: strict like CodinGame).
    #[arg(long, default_value_t = 0)]
    pub margin_ms: u64,
    /// Memory limit of each bot in MB, like CodinGame's 768 (0: none). The
    /// bot process's peak resident memory (VmHWM) is read after every
    /// answer; over the limit, it loses by a `memory` fault. Children are
    /// not counted: a wrapper script should `exec` its bot.
    #[arg(long, default_value_t = 768)]
    pub memory_mb: u64,
    /// Openings file: one transcript per line (`f5d6c3d3`), `#` comments.
    #[arg(long, value_name = "FILE", conflicts_with = "random_openings")]
    pub openings: Option<PathBuf>,
    /// Random balanced openings of this many moves (default 0: the start
    /// position).
    #[arg(long, value_name = "PLIES")]
    pub random_openings: Option<usize>,
}

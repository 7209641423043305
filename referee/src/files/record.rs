//! What a game leaves behind: its moves, think times, result and fault, as
//! written to `--games-out` (one JSON object per line) and read back by
//! `--resume` and `--replay`.

use serde::{Deserialize, Serialize};

/// One of the two players of a match (`--p1`, `--p2`), whatever its colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    /// `--p1`.
    P1,
    /// `--p2`.
    P2,
}

impl Side {
    /// Both sides, p1 first.
    pub const BOTH: [Side; 2] = [Side::P1, Side::P2];

    /// 0 for p1, 1 for p2.
    pub fn index(self) -> usize {
        match self {
            Side::P1 => 0,
            Side::P2 => 1,
        }
    }

    /// The other player.
    pub fn other(self) -> Side {
        match self {
            Side::P1 => Side::P2,
            Side::P2 => Side::P1,
        }
    }
}

impl std::fmt::Display for Side {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Side::P1 => "p1",
            Side::P2 => "p2",
        })
    }
}

/// How a player lost by breaking the rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FaultKind {
    /// No answer within the turn's limit.
    Timeout,
    /// The process died (or could not start, or stopped reading).
    Crash,
    /// The process closed its output with exit status 0 and never answered.
    NoOutput,
    /// A square that is not among the listed actions.
    Illegal,
    /// A line that is not a move.
    Unreadable,
    /// The process's peak resident memory went over `--memory-mb`.
    Memory,
}

impl std::fmt::Display for FaultKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            FaultKind::Timeout => "timeout",
            FaultKind::Crash => "crash",
            FaultKind::NoOutput => "no output",
            FaultKind::Illegal => "illegal move",
            FaultKind::Unreadable => "unreadable answer",
            FaultKind::Memory => "memory",
        })
    }
}

/// A rule broken by one player, which loses the game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Fault {
    /// The offender.
    pub by: Side,
    /// What it did.
    pub kind: FaultKind,
    /// A one-line explanation (the answer, the exit status...).
    pub detail: String,
    /// For a timeout answered late: by how much the answer missed the limit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub overrun_ms: Option<f64>,
    /// For a crash: the last lines of the bot's stderr.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stderr_tail: Option<String>,
}

/// One move a player chose (the opening's moves are not recorded here).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MoveRecord {
    /// Who played it.
    pub by: Side,
    /// The square, `a1`..`h8`.
    pub square: String,
    /// Think time measured by the referee, from sending the turn to reading
    /// the answer line, in ms.
    pub ms: f64,
    /// The limit of that turn (margin included), in ms.
    pub limit_ms: f64,
    /// The text after `MSG`, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub msg: Option<String>,
}

/// A finished game, as one line of `--games-out`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    /// 1-based game number; games `2k-1` and `2k` share an opening.
    pub game: usize,
    /// Who played black (and moved first from the opening on).
    pub black: Side,
    /// The opening transcript the referee played before the bots took over.
    pub opening: String,
    /// The moves the bots chose, in order.
    pub moves: Vec<MoveRecord>,
    /// The winner, or `None` for a draw.
    pub winner: Option<Side>,
    /// Black's discs at the end (or when the game stopped on a fault).
    pub discs_black: u32,
    /// White's discs at the end (or when the game stopped on a fault).
    pub discs_white: u32,
    /// The broken rule that decided the game, if one did.
    pub fault: Option<Fault>,
    /// The seeds handed to p1 and p2 through `OTHELLO_SEED`.
    pub seeds: [u64; 2],
    /// Players that did not exit after the end of input and were killed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub killed_after_end: Vec<Side>,
}

impl GameRecord {
    /// The opening pair this game belongs to (0-based).
    pub fn pair(&self) -> usize {
        (self.game - 1) / 2
    }

    /// `side`'s points: 1 for a win, 0.5 for a draw, 0 for a loss.
    pub fn points(&self, side: Side) -> f64 {
        match self.winner {
            None => 0.5,
            Some(w) if w == side => 1.0,
            Some(_) => 0.0,
        }
    }

    /// `side`'s final disc difference, empties to the winner, for a game
    /// that ended on the board; `None` for a game decided by a fault.
    pub fn disc_diff(&self, side: Side) -> Option<i32> {
        if self.fault.is_some() {
            return None;
        }
        let (b, w) = (self.discs_black as i32, self.discs_white as i32);
        let empties = 64 - b - w;
        let black = match b.cmp(&w) {
            std::cmp::Ordering::Greater => b - w + empties,
            std::cmp::Ordering::Less => b - w - empties,
            std::cmp::Ordering::Equal => 0,
        };
        Some(if side == self.black { black } else { -black })
    }
}

/// The first line of a `--games-out` file: what match the games belong to,
/// so that `--resume` continues the same match and no other.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Header {
    /// Always [`Header::KIND`].
    pub kind: String,
    /// p1's command line.
    pub p1: String,
    /// p2's command line.
    pub p2: String,
    /// The match seed.
    pub seed: u64,
    /// Where the openings came from.
    pub openings: String,
    /// The rest of the match's settings (absent in files written before
    /// they were recorded).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub settings: Option<Settings>,
}

/// A match's settings beyond its players, seed and openings: what a report
/// shows, and what tells a complete match from a partial one.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Settings {
    /// Games in the match (`--games`).
    pub games: usize,
    /// Display names of p1 and p2.
    pub names: [String; 2],
    /// `--turn-ms`.
    pub turn_ms: u64,
    /// `--first-turn-ms`.
    pub first_turn_ms: u64,
    /// `--margin-ms`.
    pub margin_ms: u64,
    /// `--memory-mb` (0: none).
    pub memory_mb: u64,
    /// `--sprt`, as given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sprt: Option<String>,
    /// `--shard`: the part of the match this file holds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<Shard>,
}

/// A part of a match or tournament (`--shard I/N`): its pairs `p` (from 0)
/// with `p % count == index - 1`, both games of a pair together.
pub use shard::Shard;

/// Whether game `game` (from 1) of a match or tournament is in `shard`.
pub fn in_shard(shard: Shard, game: usize) -> bool {
    shard.holds(((game - 1) / 2) as u64)
}

impl Header {
    /// The `kind` of a games file.
    pub const KIND: &'static str = "othello-referee-games";

    /// Whether `other` describes the same match: the same players, seed and
    /// openings and, when both record them, the same time and memory
    /// limits. The number of games may differ (a match can be extended),
    /// and so may the display names, the SPRT and the shard.
    pub fn same_match(&self, other: &Header) -> bool {
        let limits = |s: &Settings| (s.turn_ms, s.first_turn_ms, s.margin_ms, s.memory_mb);
        let limits_agree = match (&self.settings, &other.settings) {
            (Some(a), Some(b)) => limits(a) == limits(b),
            _ => true,
        };
        (&self.kind, &self.p1, &self.p2, self.seed, &self.openings)
            == (
                &other.kind,
                &other.p1,
                &other.p2,
                other.seed,
                &other.openings,
            )
            && limits_agree
    }

    /// The shard this file holds, if the match was sharded.
    pub fn shard(&self) -> Option<Shard> {
        self.settings.as_ref().and_then(|s| s.shard)
    }
}

/// Records for unit tests.
/// Who plays whom.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "kebab-case")]
pub enum Format {
    /// Every pair of bots.
    RoundRobin,
    /// The first bot against each of the others.
    Gauntlet,
}

impl Format {
    /// `round-robin` or `gauntlet`.
    pub fn name(self) -> &'static str {
        match self {
            Format::RoundRobin => "round-robin",
            Format::Gauntlet => "gauntlet",
        }
    }
}

/// A bot of a tournament.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BotEntry {
    /// Its display name (unique in the tournament).
    pub name: String,
    /// Its command line.
    pub command: String,
}

/// How a tournament numbers its games.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Numbering {
    /// Pair by pair: pair `p` (from 0) owns games `p·N+1 ... p·N+N` (N games
    /// per pair). Files written before the numbering was recorded; they
    /// cannot grow, as more games per pair would renumber them.
    #[default]
    ByPair,
    /// Opening by opening: the two games of every pair's first opening,
    /// pair after pair, then those of the second opening... More games per
    /// pair only add game numbers after the last.
    ByOpening,
}

/// The first line of a tournament's `--games-out` file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TournamentHeader {
    /// Always [`TournamentHeader::KIND`].
    pub kind: String,
    /// The bots, in order.
    pub bots: Vec<BotEntry>,
    /// Who plays whom.
    pub format: Format,
    /// Games of each pair.
    pub games_per_pair: usize,
    /// The tournament seed.
    pub seed: u64,
    /// Where the openings came from.
    pub openings: String,
    /// `--turn-ms`.
    pub turn_ms: u64,
    /// `--first-turn-ms`.
    pub first_turn_ms: u64,
    /// `--margin-ms`.
    pub margin_ms: u64,
    /// `--memory-mb` (0: none).
    pub memory_mb: u64,
    /// The bot rated 0.
    pub anchor: String,
    /// `--shard`: the part of the tournament this file holds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<Shard>,
    /// How its games are numbered (`by-pair` when absent).
    #[serde(default)]
    pub numbering: Numbering,
}

impl TournamentHeader {
    /// The `kind` of a tournament's games file.
    pub const KIND: &'static str = "othello-referee-tournament";

    /// The pairs of bots, in schedule order: `(p1, p2)` of each.
    pub fn pairs(&self) -> Vec<(usize, usize)> {
        let n = self.bots.len();
        match self.format {
            Format::RoundRobin => (0..n)
                .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
                .collect(),
            Format::Gauntlet => (1..n).map(|j| (0, j)).collect(),
        }
    }

    /// How many pairs play: [`TournamentHeader::pairs`]' length.
    pub fn pair_count(&self) -> usize {
        let n = self.bots.len();
        match self.format {
            Format::RoundRobin => n * n.saturating_sub(1) / 2,
            Format::Gauntlet => n.saturating_sub(1),
        }
    }

    /// Games in the whole tournament.
    pub fn games(&self) -> usize {
        self.pair_count() * self.games_per_pair
    }

    /// Where game `game` (from 1) is played, if the tournament has it:
    /// its pair's index in [`TournamentHeader::pairs`] and its number in
    /// that pair's match (from 1; games `2k-1` and `2k` share opening `k`,
    /// colours swapped).
    pub fn place(&self, game: usize) -> Option<(usize, usize)> {
        let (pairs, per_pair) = (self.pair_count(), self.games_per_pair);
        if game == 0 || game > pairs * per_pair {
            return None;
        }
        let i = game - 1;
        Some(match self.numbering {
            Numbering::ByPair => (i / per_pair, i % per_pair + 1),
            Numbering::ByOpening => {
                let (opening, within) = (i / (2 * pairs), i % (2 * pairs));
                (within / 2, 2 * opening + within % 2 + 1)
            }
        })
    }

    /// Whether `other` is the same tournament, perhaps grown: everything
    /// but the shard, the anchor and the games per pair agrees.
    pub fn same_tournament(&self, other: &TournamentHeader) -> bool {
        let plain = |h: &TournamentHeader| TournamentHeader {
            shard: None,
            anchor: String::new(),
            games_per_pair: 0,
            ..h.clone()
        };
        plain(self) == plain(other)
    }

    /// The anchor's index (the first bot if the name is not found).
    pub fn anchor_index(&self) -> usize {
        self.bots
            .iter()
            .position(|b| b.name == self.anchor)
            .unwrap_or(0)
    }
}

/// The players' display names of a games file: recorded in its header,
/// else derived from the commands as the referee does.
pub fn names(header: &Header) -> [String; 2] {
    match &header.settings {
        Some(s) => s.names.clone(),
        None => [&header.p1, &header.p2]
            .map(|c| shlex::split(c).map_or_else(|| c.clone(), |argv| default_name(&argv))),
    }
}

/// A player's name when none is given: its program's file name and its
/// arguments.
pub fn default_name(argv: &[String]) -> String {
    let Some((program, rest)) = argv.split_first() else {
        return String::new();
    };
    let base = std::path::Path::new(program)
        .file_name()
        .map_or(program.clone(), |n| n.to_string_lossy().into_owned());
    std::iter::once(base)
        .chain(rest.iter().cloned())
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
pub mod testing {
    use super::*;

    /// A tournament of `n` bots `b0`, `b1`...
    pub fn tournament_header(n: usize, format: Format, games_per_pair: usize) -> TournamentHeader {
        TournamentHeader {
            kind: TournamentHeader::KIND.into(),
            bots: (0..n)
                .map(|i| BotEntry {
                    name: format!("b{i}"),
                    command: format!("bot --depth {i}"),
                })
                .collect(),
            format,
            games_per_pair,
            seed: 1,
            openings: "start".into(),
            turn_ms: 150,
            first_turn_ms: 2000,
            margin_ms: 0,
            memory_mb: 768,
            anchor: "b0".into(),
            shard: None,
            numbering: Numbering::ByOpening,
        }
    }

    pub fn header(games: Option<usize>) -> Header {
        Header {
            kind: Header::KIND.into(),
            p1: "./bots/new --depth 3".into(),
            p2: "old".into(),
            seed: 1,
            openings: "start".into(),
            settings: games.map(|games| Settings {
                games,
                names: ["new".into(), "old".into()],
                turn_ms: 150,
                first_turn_ms: 2000,
                margin_ms: 0,
                memory_mb: 768,
                sprt: None,
                shard: None,
            }),
        }
    }

    /// Game `game` won by `winner`, p1's moves taking `ms` each after its
    /// first (an 18-move opening, so the bots' moves are numbers 19...).
    pub fn record(game: usize, winner: Option<Side>, ms: f64) -> GameRecord {
        let mv = |by, ms, msg: &str| MoveRecord {
            by,
            square: "d3".into(),
            ms,
            limit_ms: 150.0,
            msg: Some(msg.into()),
        };
        GameRecord {
            game,
            black: if game % 2 == 1 { Side::P1 } else { Side::P2 },
            opening: "d3".repeat(18),
            moves: vec![
                mv(Side::P1, 900.0, "d12 +1"),
                mv(Side::P2, 5.0, ""),
                mv(Side::P1, ms, "s7 -2 50ms"),
            ],
            winner,
            discs_black: 40,
            discs_white: 24,
            fault: None,
            seeds: [0, 0],
            killed_after_end: Vec::new(),
        }
    }
}

//! The searches, each in its own file behind one interface, [`Strategy`].
//!
//! A strategy gets a position, the moves it may choose among, and
//! [`Limits`]; it returns a [`SearchResult`] and prints nothing.

use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::square::Square;
use crate::time::Deadline;
use std::time::Duration;

pub mod alphabeta;
pub mod endgame;
pub mod mpc;
pub mod mpc_table;
pub mod stability;
pub mod tt;

// The baselines and the Monte Carlo family: playable locally and in the
// referee, left out of the CodinGame submission, which plays alphabeta
// (docs/bundle.md).
#[cfg(not(cargo_equip))]
pub mod budget;
#[cfg(not(cargo_equip))]
pub mod greedy;
#[cfg(not(cargo_equip))]
pub mod mcts;
#[cfg(not(cargo_equip))]
pub mod minimax;
#[cfg(not(cargo_equip))]
pub mod nmc;
#[cfg(not(cargo_equip))]
pub mod random;
// Run-time dispatched x86 kernels.
#[cfg(not(cargo_equip))]
#[allow(unsafe_code)]
pub mod playout;
#[cfg(not(cargo_equip))]
pub mod pmc;
#[cfg(not(cargo_equip))]
pub mod stats;

/// `mcts`: the exploration constant when `--c` is not given. UCB1's
/// theoretical value for rewards in 0..1 is sqrt(2) (Auer et al. 2002);
/// measured here with 2000 playouts per move, 100 paired games each
/// (docs/experiments.md), 0.35 scored 71.5 % against 1.414, 59 % against 0.5
/// and 55 % against 0.2; 0.7 scored 61 % against 1.414.
pub const MCTS_DEFAULT_C: f64 = 0.35;
/// `nmc`: the level when `--level` is not given.
pub const NMC_DEFAULT_LEVEL: u32 = 2;
/// `nmc`: the highest level accepted: a level-3 root evaluation costs about
/// 60 × 10 × 600 playouts, far over a 150 ms turn.
pub const NMC_MAX_LEVEL: u32 = 3;

/// What a search may spend.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Soft and hard time limits.
    pub deadline: Deadline,
    /// A fixed depth, for depth-limited strategies (`--depth`).
    pub depth: Option<u32>,
    /// A work limit (nodes or playouts) that makes runs reproducible.
    pub nodes: Option<u64>,
}

impl Limits {
    /// Time-limited only.
    pub fn time(deadline: Deadline) -> Limits {
        Limits {
            deadline,
            depth: None,
            nodes: None,
        }
    }

    /// A fixed depth and no time limit.
    pub fn depth(depth: u32) -> Limits {
        Limits {
            deadline: Deadline::unlimited(),
            depth: Some(depth),
            nodes: None,
        }
    }
}

/// What a search found.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult {
    /// The move to play.
    pub best: Square,
    /// Its score in the strategy's own unit; [`SearchResult::score_text`]
    /// gives the shown form.
    pub score: Score,
    /// Depth of the last completed iteration (0 when not applicable).
    pub depth: u32,
    /// Nodes (or playouts) spent.
    pub nodes: u64,
    /// Time spent.
    pub elapsed: Duration,
}

/// A search's verdict on its best move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Score {
    /// No score (random play).
    None,
    /// A heuristic estimate, in discs (may be fractional).
    Estimate(f64),
    /// An estimate from a selective search (Multi-ProbCut): the depth it
    /// reached is shown as `s<N>`, not `d<N>`.
    Selective(f64),
    /// The exact final disc difference under perfect play.
    Exact(i32),
    /// A win/loss/draw proof: the sign of the exact score.
    Wld(i32),
    /// The final disc difference found by a selective search to the end
    /// (probcut): probable, not proven. Shown as `e<N> ~+6`, against
    /// `e<N> =+6` for a proof.
    Probable(i32),
    /// A win rate in 0..1 from playouts.
    WinRate(f64),
    /// Flipped discs (greedy).
    Flips(u32),
}

impl SearchResult {
    /// The MSG text, at most 12 characters: what was searched, the score,
    /// then the milliseconds, for example `d9 +4 31ms` (`s9 +4 31ms` when
    /// selective), `e18 =+6 90ms`
    /// (exact), `e19 ~+6 40ms` (selective to the end), `w19 W 120ms` (win/loss/draw) or `12kp 55%` (playouts). When
    /// that is too long the `ms` goes, then the end of the time: the score
    /// always shows.
    pub fn message(&self) -> String {
        let ms = self.elapsed.as_millis();
        let (what, score) = match self.score {
            Score::None => return format!("{ms}ms"),
            Score::Estimate(s) => (format!("d{}", self.depth), format!("{s:+.0}")),
            Score::Selective(s) => (format!("s{}", self.depth), format!("{s:+.0}")),
            Score::Exact(s) => (format!("e{}", self.depth), format!("={s:+}")),
            Score::Probable(s) => (format!("e{}", self.depth), format!("~{s:+}")),
            Score::Wld(s) => {
                let verdict = match s.signum() {
                    1 => "W",
                    -1 => "L",
                    _ => "D",
                };
                (format!("w{}", self.depth), verdict.to_string())
            }
            Score::WinRate(r) => {
                return format!("{}p {:.0}%", compact(self.nodes), r * 100.0);
            }
            Score::Flips(n) => (format!("f{n}"), String::new()),
        };
        let head = if score.is_empty() {
            what
        } else {
            format!("{what} {score}")
        };
        let max = crate::protocol::MSG_MAX_CHARS;
        let full = format!("{head} {ms}ms");
        if full.chars().count() <= max {
            return full;
        }
        format!("{head} {ms}").chars().take(max).collect()
    }
}

/// `12345` -> `12k`, `2500000` -> `2.5M`: counts that fit a short MSG.
pub fn compact(n: u64) -> String {
    if n >= 10_000_000 {
        format!("{}M", n / 1_000_000)
    } else if n >= 1_000_000 {
        format!("{:.1}M", n as f64 / 1e6)
    } else if n >= 10_000 {
        format!("{}k", n / 1000)
    } else {
        n.to_string()
    }
}

/// A way of choosing moves. Implementations keep their own state (tables,
/// trees, random generators) between the moves of one game.
pub trait Strategy {
    /// The name given to `--strategy`.
    fn name(&self) -> &'static str;

    /// Chooses one of `moves` (a non-empty subset of `board.moves()`).
    fn choose(&mut self, board: &Board, moves: Bitboard, limits: &Limits) -> SearchResult;
}

/// Settings shared by the strategies that [`create`] builds.
#[derive(Clone, Copy, Debug)]
pub struct Config {
    /// Seed of every random choice.
    pub seed: u64,
    /// The evaluation of the searches that use one.
    pub eval: crate::eval::EvalKind,
    /// Monte Carlo searches: playouts per move decision (`--playouts`;
    /// `None`: until the deadline).
    pub playouts: Option<u64>,
    /// Monte Carlo searches: plies after which a playout stops and is
    /// judged by discs (`--playout-depth`; `None`: play to the end).
    pub playout_depth: Option<u32>,
    /// `mcts`: the UCB1 exploration constant (`--c`).
    pub c: f64,
    /// `nmc`: the nesting level (`--level`).
    pub level: u32,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            seed: 0,
            eval: crate::eval::EvalKind::Pattern,
            playouts: None,
            playout_depth: None,
            c: MCTS_DEFAULT_C,
            level: NMC_DEFAULT_LEVEL,
        }
    }
}

/// The strategy the bot plays when none is named: the strongest measured.
pub const DEFAULT_STRATEGY: &str = "alphabeta";

/// The names `--strategy` accepts.
#[cfg(not(cargo_equip))]
pub const STRATEGY_NAMES: &[&str] = &[
    "alphabeta",
    "minimax",
    "greedy",
    "random",
    "pmc",
    "mcts",
    "nmc",
];
/// The names `--strategy` accepts in the CodinGame submission.
#[cfg(cargo_equip)]
pub const STRATEGY_NAMES: &[&str] = &["alphabeta"];

/// Builds the strategy called `name`, or `None` for an unknown name.
pub fn create(name: &str, config: &Config) -> Option<Box<dyn Strategy>> {
    use crate::eval::Evaluator;
    let eval = Evaluator::new(config.eval, config.seed);
    Some(match name {
        "alphabeta" => Box::new(alphabeta::AlphaBeta::new(eval)),
        #[cfg(not(cargo_equip))]
        "minimax" => Box::new(minimax::Minimax::new(eval)),
        #[cfg(not(cargo_equip))]
        "greedy" => Box::new(greedy::Greedy::new(config.seed)),
        #[cfg(not(cargo_equip))]
        "random" => Box::new(random::RandomPlayer::new(config.seed)),
        #[cfg(not(cargo_equip))]
        "pmc" => Box::new(pmc::Pmc::new(
            config.seed,
            config.playouts,
            config.playout_depth,
        )),
        #[cfg(not(cargo_equip))]
        "mcts" => Box::new(mcts::Mcts::new(
            config.seed,
            config.c,
            config.playouts,
            config.playout_depth,
        )),
        #[cfg(not(cargo_equip))]
        "nmc" => Box::new(nmc::Nmc::new(
            config.seed,
            config.level,
            config.playouts,
            config.playout_depth,
        )),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn result(score: Score, depth: u32, ms: u64) -> SearchResult {
        SearchResult {
            best: Square::new(19),
            score,
            depth,
            nodes: 12_345,
            elapsed: Duration::from_millis(ms),
        }
    }

    #[test]
    fn messages_keep_the_score_within_twelve_characters() {
        let cases = [
            (Score::Estimate(4.2), 9, 31, "d9 +4 31ms"),
            (Score::Estimate(-12.0), 14, 1000, "d14 -12 1000"),
            (Score::Selective(-12.0), 14, 1000, "s14 -12 1000"),
            (Score::Selective(3.4), 9, 7, "s9 +3 7ms"),
            (Score::Exact(18), 14, 60, "e14 =+18 60"),
            (Score::Exact(-64), 20, 1999, "e20 =-64 199"),
            (Score::Probable(6), 19, 40, "e19 ~+6 40ms"),
            (Score::Probable(-12), 19, 56, "e19 ~-12 56"),
            (Score::Wld(1), 19, 120, "w19 W 120ms"),
            (Score::Wld(0), 19, 5, "w19 D 5ms"),
            (Score::WinRate(0.55), 0, 100, "12kp 55%"),
            (Score::None, 0, 7, "7ms"),
            (Score::Flips(3), 0, 2, "f3 2ms"),
        ];
        for (score, depth, ms, expected) in cases {
            let text = result(score, depth, ms).message();
            assert_eq!(text, expected, "{score:?}");
            assert!(text.chars().count() <= crate::protocol::MSG_MAX_CHARS);
        }
    }
}

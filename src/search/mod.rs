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
pub mod budget;
pub mod endgame;
pub mod greedy;
pub mod mcts;
pub mod minimax;
pub mod nmc;
// Run-time dispatched x86 kernels: the only unsafe code of the crate.
#[allow(unsafe_code)]
pub mod playout;
pub mod pmc;
pub mod random;
pub mod stability;
pub mod stats;
pub mod tt;

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
    /// The exact final disc difference under perfect play.
    Exact(i32),
    /// A win/loss/draw proof: the sign of the exact score.
    Wld(i32),
    /// A win rate in 0..1 from playouts.
    WinRate(f64),
    /// Flipped discs (greedy).
    Flips(u32),
}

impl SearchResult {
    /// The MSG text, at most 12 characters: depth, milliseconds and score,
    /// for example `d9 31ms +4`, `e18 90ms =+6` (exact) or `wld 5ms W`.
    pub fn message(&self) -> String {
        let ms = self.elapsed.as_millis();
        let text = match self.score {
            Score::None => format!("{ms}ms"),
            Score::Estimate(s) => format!("d{} {ms}ms {:+.0}", self.depth, s),
            Score::Exact(s) => format!("e{} {ms}ms ={:+}", self.depth, s),
            Score::Wld(s) => {
                let verdict = match s.signum() {
                    1 => "W",
                    -1 => "L",
                    _ => "D",
                };
                format!("w{} {ms}ms {verdict}", self.depth)
            }
            Score::WinRate(r) => format!("{}p {:.0}%", compact(self.nodes), r * 100.0),
            Score::Flips(n) => format!("{ms}ms f{n}"),
        };
        text.chars().take(crate::protocol::MSG_MAX_CHARS).collect()
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
            c: mcts::DEFAULT_C,
            level: nmc::DEFAULT_LEVEL,
        }
    }
}

/// The strategy the bot plays when none is named: the strongest measured.
pub const DEFAULT_STRATEGY: &str = "alphabeta";

/// The names `--strategy` accepts.
pub const STRATEGY_NAMES: [&str; 7] = [
    "alphabeta",
    "minimax",
    "greedy",
    "random",
    "pmc",
    "mcts",
    "nmc",
];

/// Builds the strategy called `name`, or `None` for an unknown name.
pub fn create(name: &str, config: &Config) -> Option<Box<dyn Strategy>> {
    use crate::eval::Evaluator;
    let eval = Evaluator::new(config.eval, config.seed);
    Some(match name {
        "alphabeta" => Box::new(alphabeta::AlphaBeta::new(eval)),
        "minimax" => Box::new(minimax::Minimax::new(eval)),
        "greedy" => Box::new(greedy::Greedy::new(config.seed)),
        "random" => Box::new(random::RandomPlayer::new(config.seed)),
        "pmc" => Box::new(pmc::Pmc::new(
            config.seed,
            config.playouts,
            config.playout_depth,
        )),
        "mcts" => Box::new(mcts::Mcts::new(
            config.seed,
            config.c,
            config.playouts,
            config.playout_depth,
        )),
        "nmc" => Box::new(nmc::Nmc::new(
            config.seed,
            config.level,
            config.playouts,
            config.playout_depth,
        )),
        _ => return None,
    })
}

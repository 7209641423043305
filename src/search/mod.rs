//! The searches, each in its own file behind one interface, [`Strategy`].
//!
//! A strategy gets a position, the moves it may choose among, and
//! [`Limits`]; it returns a [`SearchResult`] and prints nothing: the bot
//! says it (the MSG text is the protocol's).

use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::square::Square;
use crate::time::Deadline;
use std::sync::atomic::{AtomicU8, Ordering};
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
/// (docs/journal/experiments.md), 0.35 scored 71.5 % against 1.414, 59 % against 0.5
/// and 55 % against 0.2; 0.7 scored 61 % against 1.414.
#[cfg(not(cargo_equip))]
pub const MCTS_DEFAULT_C: f64 = 0.35;
/// `nmc`: the level when `--level` is not given.
#[cfg(not(cargo_equip))]
pub const NMC_DEFAULT_LEVEL: u32 = 2;
/// `nmc`: the highest level accepted: a level-3 root evaluation costs about
/// 60 × 10 × 600 playouts, far over a 150 ms turn.
#[cfg(not(cargo_equip))]
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
    // Tools and tests only: not in the submission (docs/bundle.md).
    #[cfg(not(cargo_equip))]
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
    /// Its score in the strategy's own unit.
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
    /// The final disc difference found by a selective search to the end
    /// (probcut): probable, not proven. Shown as `e<N>~95 +6` (the pass's
    /// confidence in percent, [`endgame::confidence`]), against `e<N> =+6`
    /// for a proof.
    Probable {
        /// The score.
        score: i32,
        /// The pass's cut, in hundredths of a standard deviation.
        cut: i32,
    },
    /// A win rate in 0..1 from playouts.
    WinRate(f64),
    /// Flipped discs (greedy).
    Flips(u32),
    /// A move of the opening book, with its book value in discs
    /// (docs/book.md): shown as `book +2`.
    Book(i32),
}

/// A way of choosing moves. Implementations keep their own state (tables,
/// trees, random generators) between the moves of one game.
pub trait Strategy {
    /// The name given to `--strategy` (not in the submission, which plays
    /// alphabeta alone).
    #[cfg(not(cargo_equip))]
    fn name(&self) -> &'static str;

    /// Chooses one of `moves` (a non-empty subset of `board.moves()`).
    fn choose(&mut self, board: &Board, moves: Bitboard, limits: &Limits) -> SearchResult;
}

/// Where a search shows the best move it has so far (a square's index),
/// for a thread that may answer in its place when the machine holds it
/// past its time (the bot's watchdog). Nothing by default.
#[derive(Clone, Copy, Debug, Default)]
pub struct Progress(pub Option<&'static AtomicU8>);

impl Progress {
    /// Shows `best` as the move to play so far.
    pub fn publish(self, best: Square) {
        if let Some(cell) = self.0 {
            cell.store(best.index() as u8, Ordering::Relaxed);
        }
    }

    /// The move shown last, if progress is shown at all.
    pub fn best(self) -> Option<Square> {
        self.0.map(|cell| Square::new(cell.load(Ordering::Relaxed)))
    }
}

/// Settings shared by the strategies that [`create`] builds. Not in the
/// submission: its bot plays [`alphabeta::AlphaBeta::bot`].
#[cfg(not(cargo_equip))]
#[derive(Clone, Copy, Debug)]
pub struct Config {
    /// Seed of every random choice.
    pub seed: u64,
    /// The evaluation of the searches that use one.
    pub eval: crate::eval::EvalKind,
    /// `alphabeta`: Multi-ProbCut on (`false`: full width, `--full-width`).
    pub selective: bool,
    /// `alphabeta`: solve exactly from this many empties (`--exact`), also
    /// at a fixed depth; `None`: the bot's default, and no solve at a fixed
    /// depth.
    pub exact: Option<u32>,
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
    /// `alphabeta`: where it shows its best move so far.
    pub progress: Progress,
}

#[cfg(not(cargo_equip))]
impl Default for Config {
    fn default() -> Config {
        Config {
            seed: 0,
            eval: crate::eval::EvalKind::Pattern,
            selective: true,
            exact: None,
            playouts: None,
            playout_depth: None,
            c: MCTS_DEFAULT_C,
            level: NMC_DEFAULT_LEVEL,
            progress: Progress::default(),
        }
    }
}

/// The strategy the bot plays when none is named: the strongest measured.
#[cfg(not(cargo_equip))]
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

/// Builds the strategy called `name`, or `None` for an unknown name.
#[cfg(not(cargo_equip))]
pub fn create(name: &str, config: &Config) -> Option<Box<dyn Strategy>> {
    #[cfg(not(cargo_equip))]
    let eval = crate::eval::Evaluator::new(config.eval, config.seed);
    Some(match name {
        "alphabeta" => Box::new(alphabeta::AlphaBeta::from_config(config)),
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

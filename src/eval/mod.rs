//! Evaluation functions: a score for the side to move, in 1/[`SCALE`] discs.
//!
//! The CodinGame submission has the pattern evaluation alone (no `--eval`):
//! its [`Evaluator`] has no kind and no state (docs/bundle.md).

use crate::board::Board;
#[cfg(not(cargo_equip))]
use crate::rng::Rng;

#[cfg(not(cargo_equip))]
pub mod classic;
pub mod net;
pub mod pack;
pub mod pattern;
pub mod shape;
pub mod weights;

/// Evaluation units per disc: a score of `SCALE` means "one disc ahead".
pub const SCALE: i32 = 256;

/// The evaluations that `--eval` selects.
#[cfg(not(cargo_equip))]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EvalKind {
    /// Positional square table, mobility and corners ([`classic`]).
    Classic,
    /// Disc difference alone.
    Disc,
    /// Seed 004's: disc difference × 256 plus a random 0..255 tie-break.
    DiscNoise,
    /// Trained pattern weights ([`pattern`]).
    Pattern,
}

#[cfg(not(cargo_equip))]
impl EvalKind {
    /// The names `--eval` accepts.
    pub const NAMES: [&'static str; 4] = ["classic", "disc", "disc-noise", "pattern"];

    /// Parses a `--eval` value.
    pub fn parse(name: &str) -> Option<EvalKind> {
        match name {
            "classic" => Some(EvalKind::Classic),
            "disc" => Some(EvalKind::Disc),
            "disc-noise" => Some(EvalKind::DiscNoise),
            "pattern" => Some(EvalKind::Pattern),
            _ => None,
        }
    }
}

/// An evaluation with its state (the noise generator).
#[cfg(not(cargo_equip))]
#[derive(Clone, Debug)]
pub struct Evaluator {
    kind: EvalKind,
    rng: Rng,
}

/// The submission's evaluation: the patterns, with no state.
#[cfg(cargo_equip)]
#[derive(Clone, Debug)]
pub struct Evaluator;

impl Evaluator {
    /// An evaluator of `kind`; `seed` feeds the noise of `DiscNoise`.
    #[cfg(not(cargo_equip))]
    pub fn new(kind: EvalKind, seed: u64) -> Evaluator {
        Evaluator {
            kind,
            rng: Rng::seed_from_u64(seed),
        }
    }

    /// The bot's evaluation: the patterns (`new(EvalKind::Pattern, 0)`).
    #[cfg(not(cargo_equip))]
    pub fn patterns() -> Evaluator {
        Evaluator::new(EvalKind::Pattern, 0)
    }

    /// The bot's evaluation: the patterns.
    #[cfg(cargo_equip)]
    pub fn patterns() -> Evaluator {
        Evaluator
    }

    /// The kind.
    #[cfg(not(cargo_equip))]
    pub fn kind(&self) -> EvalKind {
        self.kind
    }

    /// The pattern tables when the kind is `Pattern`: a search may then
    /// evaluate a node's children from its indices
    /// ([`pattern::Tables::children`]), with the same scores.
    #[cfg(not(cargo_equip))]
    pub fn pattern_tables(&self) -> Option<&'static pattern::Tables> {
        (self.kind == EvalKind::Pattern).then(pattern::tables)
    }

    /// The submission's pattern tables, always.
    #[cfg(cargo_equip)]
    pub fn pattern_tables(&self) -> Option<&'static pattern::Tables> {
        Some(pattern::tables())
    }

    /// The score of `board` for the side to move, in 1/[`SCALE`] discs.
    #[cfg(not(cargo_equip))]
    #[inline(always)]
    pub fn evaluate(&mut self, board: &Board) -> i32 {
        match self.kind {
            EvalKind::Classic => classic::evaluate(board),
            EvalKind::Disc => board.disc_difference() * SCALE,
            EvalKind::DiscNoise => board.disc_difference() * SCALE + self.rng.below(256) as i32,
            EvalKind::Pattern => pattern::evaluate(board),
        }
    }

    /// The submission's score of `board`: the patterns'.
    #[cfg(cargo_equip)]
    #[inline(always)]
    pub fn evaluate(&mut self, board: &Board) -> i32 {
        pattern::evaluate(board)
    }
}

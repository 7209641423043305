//! Evaluation functions: a score for the side to move, in 1/[`SCALE`] discs.

use crate::board::Board;
use crate::rng::Rng;

pub mod classic;
pub mod net;
pub mod pack;
pub mod pattern;
pub mod shape;
pub mod weights;

/// Evaluation units per disc: a score of `SCALE` means "one disc ahead".
pub const SCALE: i32 = 256;

/// The evaluations that `--eval` selects.
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
#[derive(Clone, Debug)]
pub struct Evaluator {
    kind: EvalKind,
    rng: Rng,
}

impl Evaluator {
    /// An evaluator of `kind`; `seed` feeds the noise of `DiscNoise`.
    pub fn new(kind: EvalKind, seed: u64) -> Evaluator {
        Evaluator {
            kind,
            rng: Rng::seed_from_u64(seed),
        }
    }

    /// The kind.
    pub fn kind(&self) -> EvalKind {
        self.kind
    }

    /// The pattern tables when the kind is `Pattern`: a search may then
    /// evaluate a node's children from its indices
    /// ([`pattern::Tables::children`]), with the same scores.
    pub fn pattern_tables(&self) -> Option<&'static pattern::Tables> {
        (self.kind == EvalKind::Pattern).then(pattern::tables)
    }

    /// The score of `board` for the side to move, in 1/[`SCALE`] discs.
    #[inline(always)]
    pub fn evaluate(&mut self, board: &Board) -> i32 {
        match self.kind {
            EvalKind::Classic => classic::evaluate(board),
            EvalKind::Disc => board.disc_difference() * SCALE,
            EvalKind::DiscNoise => board.disc_difference() * SCALE + self.rng.below(256) as i32,
            EvalKind::Pattern => pattern::evaluate(board),
        }
    }
}

//! What every fit shares: float tables as a [`Model`] (the networks expand
//! into one, `crate::net`), weights linearly interpolated between anchor
//! phases exactly as `othello::eval::pattern::Tables` does, mirrored indices
//! tied; the holdout split by game; errors by phase; bootstrapped labels.

use crate::gen::Sample;
use othello::eval::pattern::{self, INSTANCES, OFFSETS, PATTERNS, PHASE_SIZE};

/// Weights in discs: per anchor, the bias then [`PHASE_SIZE`] weights
/// (only representatives of mirrored pairs are used).
#[derive(Clone, Debug)]
pub struct Model {
    /// Anchor empties.
    pub anchors: Vec<u32>,
    /// `anchors.len() * (1 + PHASE_SIZE)` weights.
    pub weights: Vec<f32>,
}

/// The representative of every phase index (mirrors share weights).
pub fn canonical_map() -> Vec<u32> {
    let mut map = Vec::with_capacity(PHASE_SIZE);
    for (k, &offset) in OFFSETS[..PATTERNS.len()].iter().enumerate() {
        map.extend(
            pattern::canonical_indices(k)
                .iter()
                .map(|&c| c + offset as u32),
        );
    }
    map
}

/// The features of one sample: anchor, the two interpolation weights, and
/// the representative indices.
struct Features {
    base: [usize; 2],
    mix: [f32; 2],
    idx: [u32; INSTANCES],
}

impl Model {
    fn features(&self, canon: &[u32], board: &othello::Board) -> Features {
        let (a, t, span) = pattern::segment(&self.anchors, board.empty_count());
        let t = t as f32 / span as f32;
        let mut idx = [0u32; INSTANCES];
        pattern::indices(board, &mut idx);
        for i in idx.iter_mut() {
            *i = canon[*i as usize];
        }
        Features {
            base: [a * (1 + PHASE_SIZE), (a + 1) * (1 + PHASE_SIZE)],
            mix: [1.0 - t, t],
            idx,
        }
    }

    fn predict_features(&self, f: &Features) -> f32 {
        let mut sum = 0.0;
        for j in 0..2 {
            let w = &self.weights[f.base[j]..][..1 + PHASE_SIZE];
            let s: f32 = w[0] + f.idx.iter().map(|&i| w[1 + i as usize]).sum::<f32>();
            sum += f.mix[j] * s;
        }
        sum
    }

    /// The model's estimate of `board`, in discs.
    pub fn predict(&self, canon: &[u32], board: &othello::Board) -> f32 {
        self.predict_features(&self.features(canon, board))
    }
}

/// Mean absolute error in discs of `predict` over `samples` by empties, in
/// buckets of 10 (0-9, 10-19, ...): (error, count) per bucket.
pub fn mae_by_empties(
    samples: &[&Sample],
    predict: impl Fn(&othello::Board) -> f64,
) -> Vec<(f64, usize)> {
    let mut sums = vec![(0.0, 0); 7];
    for s in samples {
        let b = (s.board.empty_count() / 10) as usize;
        sums[b].0 += (predict(&s.board) - f64::from(s.label)).abs();
        sums[b].1 += 1;
    }
    sums.into_iter()
        .map(|(e, n)| (e / n.max(1) as f64, n))
        .collect()
}

/// Splits by game: every `every`-th game is validation.
pub fn split(samples: &[Sample], every: u32) -> (Vec<&Sample>, Vec<&Sample>) {
    samples.iter().partition(|s| !s.is_held_out(every))
}

/// Replaces the label of every training position (validation ones keep
/// theirs) with `teacher`'s estimate of it, rounded to a disc: a smaller
/// network then learns the teacher's function instead of the labels' noise
/// (distillation, `train fit --teacher`).
pub fn distil(samples: &[Sample], teacher: &Model, holdout_every: u32) -> Vec<Sample> {
    let canon = canonical_map();
    let mut out = samples.to_vec();
    for s in out.iter_mut().filter(|s| !s.is_held_out(holdout_every)) {
        let estimate = teacher.predict(&canon, &s.board);
        s.label = estimate.round().clamp(-64.0, 64.0) as i8;
    }
    out
}

/// Positions with at most this many empties keep their label when
/// bootstrapping: theirs is exact (the generator solves them).
pub const BOOTSTRAP_MIN_EMPTIES: u32 = 14;

/// Replaces the label of every training position (validation ones are left
/// alone) with `model`'s estimate of the position `plies` recorded moves
/// later in the same game: a temporal-difference target, far less noisy than
/// the outcome of a game whose remaining moves were played by a weak search.
/// Positions with a drawn outcome (side unknown), too few moves left, or at
/// most [`BOOTSTRAP_MIN_EMPTIES`] empties keep theirs.
pub fn bootstrap(
    samples: &[Sample],
    model: &Model,
    plies: usize,
    holdout_every: u32,
) -> Vec<Sample> {
    let canon = canonical_map();
    let mut out = samples.to_vec();
    for (i, s) in out.iter_mut().enumerate() {
        let Some(later) = samples.get(i + plies) else {
            continue;
        };
        if s.is_held_out(holdout_every)
            || later.game != s.game
            || s.label == 0
            || s.board.empty_count() <= BOOTSTRAP_MIN_EMPTIES
        {
            continue;
        }
        // Both labels are the same outcome, seen from each side to move.
        let sign = f32::from(s.label.signum() * later.label.signum());
        let estimate = sign * model.predict(&canon, &later.board);
        s.label = estimate.round().clamp(-64.0, 64.0) as i8;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distillation_relabels_the_training_positions_and_keeps_the_held_out_ones() {
        // A teacher that says 3.4 discs (its biases) wherever it looks.
        let anchors = vec![0, 60];
        let mut weights = vec![0.0; anchors.len() * (1 + PHASE_SIZE)];
        weights[0] = 3.4;
        weights[1 + PHASE_SIZE] = 3.4;
        let teacher = Model { anchors, weights };
        let sample = |game| Sample {
            board: othello::Board::start(),
            label: 10,
            game,
            held_out: None,
        };
        let samples: Vec<Sample> = (0..6).map(sample).collect();
        let out = distil(&samples, &teacher, 3);
        let labels: Vec<i8> = out.iter().map(|s| s.label).collect();
        // Games 0 and 3 are held out (one in 3): they keep their labels.
        assert_eq!(labels, [10, 3, 3, 10, 3, 3]);
    }
}

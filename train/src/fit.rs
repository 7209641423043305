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

/// Error of `predict` on `samples`, by each count of empties.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Errors {
    pub empties: u32,
    /// Mean absolute error.
    pub mae: f64,
    /// Mean signed error, `label - predict`: the bias an evaluation leaves
    /// at this count. One that alternates between odd and even counts shows
    /// a parity the evaluation misjudges.
    pub bias: f64,
    /// Mean absolute error once `bias` is taken off every estimate: what a
    /// search can feel. A constant at one count of empties shifts every
    /// leaf of a fixed-depth search alike; only leaves reached through a
    /// pass or a game's end mix counts, so it barely moves a choice.
    pub centred: f64,
    pub positions: usize,
}

/// [`Errors`] of `predict` on `samples` by each count of empties, in
/// increasing order.
pub fn by_empties(samples: &[&Sample], predict: impl Fn(&othello::Board) -> f64) -> Vec<Errors> {
    let mut errors: std::collections::BTreeMap<u32, Vec<f64>> = Default::default();
    for s in samples {
        let error = f64::from(s.label) - predict(&s.board);
        errors.entry(s.board.empty_count()).or_default().push(error);
    }
    errors
        .into_iter()
        .map(|(empties, v)| {
            let n = v.len() as f64;
            let bias = v.iter().sum::<f64>() / n;
            Errors {
                empties,
                mae: v.iter().map(|x| x.abs()).sum::<f64>() / n,
                bias,
                centred: v.iter().map(|x| (x - bias).abs()).sum::<f64>() / n,
                positions: v.len(),
            }
        })
        .collect()
}

/// The mean absolute error over `rows`, weighted by their positions.
pub fn mean_mae<'a>(rows: impl Iterator<Item = &'a Errors>) -> f64 {
    let (sum, n) = rows.fold((0.0, 0), |(sum, n), r| {
        (sum + r.mae * r.positions as f64, n + r.positions)
    });
    sum / n.max(1) as f64
}

/// The lines comparing two sets of per-count rows of the same positions
/// by ten empties, the buckets that hold any: `after`'s MAE (the new
/// networks') against `before`'s (the compiled weights').
pub fn tens_lines(after: &[Errors], before: &[Errors]) -> Vec<String> {
    by_tens(after)
        .into_iter()
        .zip(by_tens(before))
        .enumerate()
        .filter(|(_, ((_, n), _))| *n > 0)
        .map(|(b, ((e, n), (old, _)))| {
            format!(
                "empties {:>2}-{:>2}: validation MAE {e:.3}, compiled weights {old:.3} ({n} positions)",
                b * 10,
                b * 10 + 9
            )
        })
        .collect()
}

/// `rows` summed by ten empties (0-9, ..., 60-69): (MAE, positions).
pub fn by_tens(rows: &[Errors]) -> Vec<(f64, usize)> {
    (0..7)
        .map(|b| {
            let of = || rows.iter().filter(move |r| r.empties / 10 == b);
            (mean_mae(of()), of().map(|r| r.positions).sum())
        })
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

    /// By each count of empties: the absolute, signed and centred errors
    /// and the count, worked out by hand.
    #[test]
    fn errors_by_empties_are_absolute_and_signed() {
        let start = othello::Board::start();
        let later = start.play(start.moves().first().unwrap());
        let sample = |board, label| Sample {
            board,
            label,
            game: 0,
            held_out: None,
        };
        let samples = [
            sample(start, 3),
            sample(start, -1),
            sample(later, 5),
            sample(later, 6),
            sample(later, 0),
        ];
        let refs: Vec<&Sample> = samples.iter().collect();
        // An estimate of 1 at 60 empties, 2 at 59.
        let rows = by_empties(&refs, |b| f64::from(61 - b.empty_count() as i32));
        let row = |empties, mae, bias, centred, positions| Errors {
            empties,
            mae,
            bias,
            centred,
            positions,
        };
        // At 60: errors +2 and -2, bias 0. At 59: errors +3, +4 and -2,
        // bias 5/3; off it, 4/3, 7/3 and 11/3 (not MAE - |bias|, 4/3).
        let want = [
            row(59, 3.0, 5.0 / 3.0, 22.0 / 9.0, 3),
            row(60, 2.0, 0.0, 2.0, 2),
        ];
        assert_eq!(rows.len(), want.len());
        for (got, want) in rows.iter().zip(&want) {
            assert_eq!((got.empties, got.positions), (want.empties, want.positions));
            for (g, w) in [
                (got.mae, want.mae),
                (got.bias, want.bias),
                (got.centred, want.centred),
            ] {
                assert!((g - w).abs() < 1e-12, "{got:?} against {want:?}");
            }
        }
        // Summed by ten empties and in all, weighted by positions.
        let tens = by_tens(&rows);
        assert_eq!(tens[5], (3.0, 3));
        assert_eq!(tens[6], (2.0, 2));
        assert!(tens[..5].iter().all(|&(e, n)| e == 0.0 && n == 0));
        assert!((mean_mae(rows.iter()) - 13.0 / 5.0).abs() < 1e-12);
        // Compared by ten empties with a set that errs 1 disc at both counts:
        // only the buckets that hold positions.
        let ones: Vec<Errors> = rows.iter().map(|r| Errors { mae: 1.0, ..*r }).collect();
        assert_eq!(
            tens_lines(&rows, &ones),
            [
                "empties 50-59: validation MAE 3.000, compiled weights 1.000 (3 positions)",
                "empties 60-69: validation MAE 2.000, compiled weights 1.000 (2 positions)",
            ]
        );
    }

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

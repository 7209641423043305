//! Fitting the pattern weights: least squares by stochastic gradient
//! descent, weights linearly interpolated between anchor phases exactly as
//! `othello::eval::pattern::Tables` does, mirrored indices tied, early
//! stopping on a holdout set split by game.

use crate::gen::Sample;
use indicatif::ProgressBar;
use othello::eval::pattern::{self, INSTANCES, OFFSETS, PATTERNS, PHASE_SIZE};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

/// How to fit.
#[derive(Clone, Debug)]
pub struct FitConfig {
    /// Empties of the anchor phases, increasing from 0 to 60.
    pub anchors: Vec<u32>,
    /// Passes over the training set.
    pub epochs: u32,
    /// Step size of the first epoch (per unit of squared feature norm).
    pub learning_rate: f32,
    /// Factor applied to the step size after each epoch.
    pub decay: f32,
    /// One game in `holdout_every` goes to the validation set.
    pub holdout_every: u32,
    /// Seed of the shuffles.
    pub seed: u64,
    /// Weights seen in fewer training positions than this are set to 0:
    /// they are mostly noise, and zeros pack into almost nothing.
    pub min_count: u32,
}

impl Default for FitConfig {
    fn default() -> FitConfig {
        FitConfig {
            anchors: vec![0, 15, 30, 45, 60],
            epochs: 8,
            learning_rate: 0.002,
            decay: 0.85,
            holdout_every: 20,
            seed: 1,
            min_count: 64,
        }
    }
}

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
        map.extend(pattern::canonical(k).iter().map(|&c| c + offset as u32));
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

/// Mean absolute error in discs over `samples`.
pub fn mae(model: &Model, canon: &[u32], samples: &[&Sample]) -> f64 {
    let total: f64 = samples
        .iter()
        .map(|s| (model.predict(canon, &s.board) - f32::from(s.label)).abs() as f64)
        .sum();
    total / samples.len().max(1) as f64
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

/// What fitting reports.
#[derive(Clone, Debug)]
pub struct FitReport {
    /// Training and validation set sizes.
    pub sizes: (usize, usize),
    /// Training and validation MAE (discs) after each epoch.
    pub history: Vec<(f64, f64)>,
    /// The epoch kept (lowest validation MAE), 1-based.
    pub best_epoch: usize,
    /// Validation MAE and size by empties (buckets of 10) of the kept model.
    pub by_empties: Vec<(f64, usize)>,
}

/// Splits by game: every `every`-th game is validation.
pub fn split(samples: &[Sample], every: u32) -> (Vec<&Sample>, Vec<&Sample>) {
    samples.iter().partition(|s| s.game % every.max(1) != 0)
}

/// Fits a model; `bar` counts epochs.
pub fn fit(samples: &[Sample], cfg: &FitConfig, bar: &ProgressBar) -> (Model, FitReport) {
    let canon = canonical_map();
    let (train, valid) = split(samples, cfg.holdout_every);
    let mut model = Model {
        anchors: cfg.anchors.clone(),
        weights: vec![0.0; cfg.anchors.len() * (1 + PHASE_SIZE)],
    };
    let mut best = (f64::INFINITY, model.clone(), 0);
    let mut history = Vec::new();
    let mut order: Vec<usize> = (0..train.len()).collect();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(cfg.seed);
    let mut counts = vec![0u32; model.weights.len()];
    for s in train.iter() {
        let f = model.features(&canon, &s.board);
        for j in 0..2 {
            if f.mix[j] > 0.0 {
                for &i in f.idx.iter() {
                    counts[f.base[j] + 1 + i as usize] += 1;
                }
            }
        }
    }
    let prune = |m: &mut Model| {
        for (i, w) in m.weights.iter_mut().enumerate() {
            // Biases (index 0 of each anchor) are never pruned.
            if i % (1 + PHASE_SIZE) != 0 && counts[i] < cfg.min_count {
                *w = 0.0;
            }
        }
    };
    let mut lr = cfg.learning_rate;
    for epoch in 1..=cfg.epochs {
        order.shuffle(&mut rng);
        let mut train_abs = 0.0f64;
        for &i in order.iter() {
            let s = train[i];
            let f = model.features(&canon, &s.board);
            let err = f32::from(s.label) - model.predict_features(&f);
            train_abs += err.abs() as f64;
            for j in 0..2 {
                let g = lr * err * f.mix[j];
                if g == 0.0 {
                    continue;
                }
                let w = &mut model.weights[f.base[j]..][..1 + PHASE_SIZE];
                w[0] += g;
                for &i in f.idx.iter() {
                    w[1 + i as usize] += g;
                }
            }
        }
        lr *= cfg.decay;
        prune(&mut model);
        let v = mae(&model, &canon, &valid);
        history.push((train_abs / train.len().max(1) as f64, v));
        if v < best.0 {
            best = (v, model.clone(), epoch as usize);
        }
        bar.set_message(format!("validation MAE {v:.3}"));
        bar.inc(1);
    }
    let report = FitReport {
        sizes: (train.len(), valid.len()),
        history,
        best_epoch: best.2,
        by_empties: mae_by_empties(&valid, |b| f64::from(best.1.predict(&canon, b))),
    };
    (best.1, report)
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
        if s.game % holdout_every.max(1) == 0
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

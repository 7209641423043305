//! Fitting the pattern networks (`othello::eval::net`): least squares on
//! the positions, through the tables the networks expand into.
//!
//! Each step expands every network into float tables (one forward pass per
//! representative index), runs the positions through the tables exactly as
//! the evaluation does (anchor interpolation included) to get the loss's
//! gradient per table entry, then back-propagates each entry's gradient
//! through its network. The positions touch each table entry many times,
//! the networks see each entry once: a step costs one pass over the data
//! plus one over the ~114,000 representatives. Adam, full or mini-batch,
//! with a linearly decayed step size; the step with the lowest validation
//! error is kept.
//!
//! Every sum is taken over fixed parts in a fixed order, so the result does
//! not depend on the number of threads.

use crate::fit::{self, Model};
use crate::gen::Sample;
use indicatif::ProgressBar;
use othello::eval::net::{self, LEAK};
use othello::eval::pattern::{self, INSTANCES, OFFSETS, PATTERNS, PHASE_SIZE};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// Parts every pass is cut into (its partial sums are added in order).
const PARTS: usize = 8;
/// Adam's moment decays and epsilon.
const ADAM: (f32, f32, f32) = (0.9, 0.999, 1e-8);

/// How to fit the networks.
#[derive(Clone, Debug)]
pub struct NetConfig {
    /// Empties of the anchor phases (one network output each).
    pub anchors: Vec<u32>,
    /// Hidden layer sizes.
    pub hidden: Vec<usize>,
    /// Outputs of each pattern's networks, in anchor order (they add up to
    /// the anchors): one network per group.
    pub groups: Vec<usize>,
    /// Optimizer steps.
    pub steps: u32,
    /// Adam's step size at the start (decayed linearly to a tenth).
    pub learning_rate: f32,
    /// Mini-batches per pass over the training set (1: full batch).
    pub batches: u32,
    /// Validate every this many steps.
    pub validate_every: u32,
    /// One game in `holdout_every` goes to the validation set.
    pub holdout_every: u32,
    /// Seed of the initial weights.
    pub seed: u64,
    /// Worker threads (the result does not depend on it).
    pub threads: usize,
}

impl Default for NetConfig {
    fn default() -> NetConfig {
        NetConfig {
            anchors: vec![0, 10, 20, 30, 40, 50, 60],
            hidden: vec![64, 32],
            groups: vec![3, 4],
            steps: 6000,
            learning_rate: 0.01,
            batches: 32,
            validate_every: 20,
            holdout_every: 20,
            seed: 1,
            threads: 2,
        }
    }
}

/// The networks: per pattern, its parameters (`othello::eval::net` layout).
#[derive(Clone, Debug)]
pub struct Nets {
    /// Anchor empties (one output each).
    pub anchors: Vec<u32>,
    /// Hidden layer sizes.
    pub hidden: Vec<usize>,
    /// Outputs of each network of a pattern.
    pub groups: Vec<usize>,
    /// Per pattern and group (index `k * groups + g`), the parameters.
    pub params: Vec<Vec<f32>>,
}

impl Nets {
    /// Layer sizes of network `i` (pattern `i / groups`, group `i % groups`).
    pub fn sizes(&self, i: usize) -> Vec<usize> {
        let g = self.groups.len();
        net::layer_sizes(
            PATTERNS[i / g].squares.len(),
            &self.hidden,
            self.groups[i % g],
        )
    }

    /// The float tables the networks expand into, as a [`Model`] (biases 0).
    pub fn model(&self) -> Model {
        let reps = Reps::new();
        let table = reps.forward_all(self, &Threads(1));
        let outputs = self.anchors.len();
        let mut weights = vec![0.0; outputs * (1 + PHASE_SIZE)];
        for (i, &r) in reps.of_index.iter().enumerate() {
            for a in 0..outputs {
                weights[a * (1 + PHASE_SIZE) + 1 + i] = table[r as usize * outputs + a];
            }
        }
        Model {
            anchors: self.anchors.clone(),
            weights,
        }
    }
}

/// The representative table indices, numbered across patterns.
struct Reps {
    /// Per representative: pattern and table-local index.
    list: Vec<(u8, u32)>,
    /// Per phase index: its representative's number.
    of_index: Vec<u32>,
}

impl Reps {
    fn new() -> Reps {
        let mut list = Vec::new();
        let mut of_index = vec![0; PHASE_SIZE];
        for k in 0..PATTERNS.len() {
            let canon = pattern::canonical(k);
            let mut number = vec![0; canon.len()];
            for (t, &c) in canon.iter().enumerate() {
                if c as usize == t {
                    number[t] = list.len() as u32;
                    list.push((k as u8, t as u32));
                }
                of_index[OFFSETS[k] + t] = number[c as usize];
            }
        }
        Reps { list, of_index }
    }

    /// Every representative's outputs, `[rep * outputs + anchor]`.
    fn forward_all(&self, nets: &Nets, threads: &Threads) -> Vec<f32> {
        let outputs = nets.anchors.len();
        let g = nets.groups.len();
        let sizes: Vec<Vec<usize>> = (0..nets.params.len()).map(|i| nets.sizes(i)).collect();
        let parts = threads.map(self.list.len(), |range| {
            let mut out = Vec::with_capacity(range.len() * outputs);
            for &(k, t) in &self.list[range] {
                let k = k as usize;
                let active = net::active_inputs(t as usize, PATTERNS[k].squares.len());
                for (params, size) in nets.params[k * g..(k + 1) * g]
                    .iter()
                    .zip(&sizes[k * g..(k + 1) * g])
                {
                    out.extend(net::forward(params, size, &active));
                }
            }
            out
        });
        parts.concat()
    }
}

/// Runs closures over fixed parts of a range on a few threads.
struct Threads(usize);

impl Threads {
    /// `f` on each of [`PARTS`] consecutive parts of `0..len`, results in
    /// part order.
    fn map<T: Send>(&self, len: usize, f: impl Fn(std::ops::Range<usize>) -> T + Sync) -> Vec<T> {
        let bounds: Vec<std::ops::Range<usize>> = (0..PARTS)
            .map(|p| p * len / PARTS..(p + 1) * len / PARTS)
            .collect();
        let mut results: Vec<Option<T>> = (0..PARTS).map(|_| None).collect();
        let workers = self.0.clamp(1, PARTS);
        std::thread::scope(|scope| {
            let handles: Vec<_> = (0..workers)
                .map(|w| {
                    let (f, bounds) = (&f, &bounds);
                    scope.spawn(move || {
                        (w..PARTS)
                            .step_by(workers)
                            .map(|p| (p, f(bounds[p].clone())))
                            .collect::<Vec<_>>()
                    })
                })
                .collect();
            for h in handles {
                for (p, r) in h.join().expect("a worker panicked") {
                    results[p] = Some(r);
                }
            }
        });
        results
            .into_iter()
            .map(|r| r.expect("every part ran"))
            .collect()
    }
}

/// The positions as the fit reads them.
struct Data {
    /// Representative numbers, [`INSTANCES`] per position.
    idx: Vec<u32>,
    /// Lower anchor of each position.
    anchor: Vec<u8>,
    /// Weight of the upper anchor.
    mix: Vec<f32>,
    /// Labels in discs.
    label: Vec<f32>,
}

impl Data {
    fn new(samples: &[&Sample], reps: &Reps, anchors: &[u32]) -> Data {
        let mut d = Data {
            idx: Vec::with_capacity(samples.len() * INSTANCES),
            anchor: Vec::with_capacity(samples.len()),
            mix: Vec::with_capacity(samples.len()),
            label: Vec::with_capacity(samples.len()),
        };
        let mut idx = [0u32; INSTANCES];
        for s in samples {
            pattern::indices(&s.board, &mut idx);
            d.idx.extend(idx.iter().map(|&i| reps.of_index[i as usize]));
            let (a, t, span) = pattern::segment(anchors, s.board.empty_count());
            d.anchor.push(a as u8);
            d.mix.push(t as f32 / span as f32);
            d.label.push(f32::from(s.label));
        }
        d
    }

    fn len(&self) -> usize {
        self.label.len()
    }

    fn predict(&self, i: usize, table: &[f32], outputs: usize) -> f32 {
        let a = self.anchor[i] as usize;
        let (mut x, mut y) = (0.0, 0.0);
        for &r in &self.idx[i * INSTANCES..][..INSTANCES] {
            let e = &table[r as usize * outputs + a..][..2];
            x += e[0];
            y += e[1];
        }
        let t = self.mix[i];
        (1.0 - t) * x + t * y
    }

    /// Mean absolute error of the float tables.
    fn mae(&self, table: &[f32], outputs: usize, threads: &Threads) -> f64 {
        let sums = threads.map(self.len(), |range| {
            range
                .map(|i| f64::from((self.predict(i, table, outputs) - self.label[i]).abs()))
                .sum::<f64>()
        });
        sums.iter().sum::<f64>() / self.len().max(1) as f64
    }

    /// The gradient of the mean squared error over `batch` with respect to
    /// every table entry, and the mean absolute error.
    fn table_gradient(
        &self,
        batch: std::ops::Range<usize>,
        table: &[f32],
        outputs: usize,
        threads: &Threads,
    ) -> (Vec<f32>, f64) {
        let n = batch.len().max(1) as f32;
        let start = batch.start;
        let parts = threads.map(batch.len(), |range| {
            let mut g = vec![0.0f32; table.len()];
            let mut abs = 0.0f64;
            for i in range.start + start..range.end + start {
                let err = self.predict(i, table, outputs) - self.label[i];
                abs += f64::from(err.abs());
                let a = self.anchor[i] as usize;
                let t = self.mix[i];
                let (g0, g1) = (2.0 * err * (1.0 - t) / n, 2.0 * err * t / n);
                for &r in &self.idx[i * INSTANCES..][..INSTANCES] {
                    let e = &mut g[r as usize * outputs + a..][..2];
                    e[0] += g0;
                    e[1] += g1;
                }
            }
            (g, abs)
        });
        let mut total = vec![0.0f32; table.len()];
        let mut abs = 0.0;
        for (g, a) in parts {
            for (t, v) in total.iter_mut().zip(&g) {
                *t += v;
            }
            abs += a;
        }
        (total, abs / f64::from(n))
    }
}

/// Adds to `grad` the gradient of `sum(out · dout)` with respect to the
/// parameters of a network, for binary inputs of which `active` are 1.
fn backward(params: &[f32], sizes: &[usize], active: &[usize], dout: &[f32], grad: &mut [f32]) {
    // Forward, keeping every layer's pre-activation.
    let layers = sizes.len() - 1;
    let mut offsets = Vec::with_capacity(layers);
    let mut off = 0;
    for w in sizes.windows(2) {
        offsets.push(off);
        off += (w[0] + 1) * w[1];
    }
    let mut pre: Vec<Vec<f32>> = Vec::with_capacity(layers);
    for l in 0..layers {
        let (ni, no) = (sizes[l], sizes[l + 1]);
        let w = &params[offsets[l]..][..ni * no];
        let mut y = params[offsets[l] + ni * no..][..no].to_vec();
        if l == 0 {
            for &i in active {
                for (yj, &wij) in y.iter_mut().zip(&w[i * no..][..no]) {
                    *yj += wij;
                }
            }
        } else {
            for (i, &p) in pre[l - 1].iter().enumerate() {
                let x = if p < 0.0 { p * LEAK } else { p };
                for (yj, &wij) in y.iter_mut().zip(&w[i * no..][..no]) {
                    *yj += x * wij;
                }
            }
        }
        pre.push(y);
    }
    // Backward.
    let mut delta = dout.to_vec();
    for l in (0..layers).rev() {
        let (ni, no) = (sizes[l], sizes[l + 1]);
        let (wo, bo) = (offsets[l], offsets[l] + ni * no);
        for (g, d) in grad[bo..][..no].iter_mut().zip(&delta) {
            *g += d;
        }
        if l == 0 {
            for &i in active {
                for (g, d) in grad[wo + i * no..][..no].iter_mut().zip(&delta) {
                    *g += d;
                }
            }
            break;
        }
        let mut next = vec![0.0; ni];
        for (i, p) in pre[l - 1].iter().enumerate() {
            let x = if *p < 0.0 { p * LEAK } else { *p };
            let row = wo + i * no;
            let mut back = 0.0;
            for (j, d) in delta.iter().enumerate() {
                grad[row + j] += x * d;
                back += params[row + j] * d;
            }
            next[i] = if *p < 0.0 { back * LEAK } else { back };
        }
        delta = next;
    }
}

/// What fitting the networks reports.
#[derive(Clone, Debug)]
pub struct NetReport {
    /// Training and validation set sizes.
    pub sizes: (usize, usize),
    /// (step, training MAE of the step's batch, validation MAE) at each validation.
    pub history: Vec<(u32, f64, f64)>,
    /// The step kept (lowest validation MAE).
    pub best_step: u32,
    /// Validation MAE of the kept networks.
    pub best_mae: f64,
}

/// Fits the networks; `bar` counts steps.
pub fn fit_nets(samples: &[Sample], cfg: &NetConfig, bar: &ProgressBar) -> (Nets, NetReport) {
    let threads = Threads(cfg.threads);
    let reps = Reps::new();
    let (mut train, valid) = fit::split(samples, cfg.holdout_every);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(cfg.seed);
    // Mini-batches are consecutive parts of the training set: shuffled, each
    // is a sample of every phase and every chunk.
    train.shuffle(&mut rng);
    let train = Data::new(&train, &reps, &cfg.anchors);
    let valid = Data::new(&valid, &reps, &cfg.anchors);
    let outputs = cfg.anchors.len();
    let mut nets = Nets {
        anchors: cfg.anchors.clone(),
        hidden: cfg.hidden.clone(),
        groups: cfg.groups.clone(),
        params: Vec::new(),
    };
    for i in 0..PATTERNS.len() * cfg.groups.len() {
        let sizes = nets.sizes(i);
        let mut p = Vec::with_capacity(net::param_count(&sizes));
        for (l, w) in sizes.windows(2).enumerate() {
            // He-like scale for the hidden layers, small outputs at first.
            let fan_in = if l == 0 { sizes[0] / 2 } else { w[0] };
            let scale = if l + 2 == sizes.len() {
                0.1
            } else {
                (2.0 / fan_in as f32).sqrt()
            };
            p.extend((0..w[0] * w[1]).map(|_| scale * (rng.gen::<f32>() * 2.0 - 1.0) * 1.7));
            p.extend(std::iter::repeat_n(0.0, w[1]));
        }
        nets.params.push(p);
    }
    let total: usize = nets.params.iter().map(Vec::len).sum();
    let g = cfg.groups.len();
    // Adam's b1^step and b2^step.
    let mut decay = (1.0f32, 1.0f32);
    let (mut m, mut v) = (vec![0.0f32; total], vec![0.0f32; total]);
    let mut best = (f64::INFINITY, nets.clone(), 0);
    let mut history = Vec::new();
    let batches = cfg.batches.max(1) as usize;
    for step in 1..=cfg.steps {
        let table = reps.forward_all(&nets, &threads);
        let b = (step as usize - 1) % batches;
        let batch = b * train.len() / batches..(b + 1) * train.len() / batches;
        let (g_table, train_mae) = train.table_gradient(batch, &table, outputs, &threads);
        // Back-propagate each representative's gradient through its network.
        let grads = threads.map(reps.list.len(), |range| {
            let mut grad: Vec<Vec<f32>> = nets.params.iter().map(|p| vec![0.0; p.len()]).collect();
            for r in range {
                let dout = &g_table[r * outputs..][..outputs];
                if dout.iter().all(|&d| d == 0.0) {
                    continue;
                }
                let (k, t) = reps.list[r];
                let k = k as usize;
                let active = net::active_inputs(t as usize, PATTERNS[k].squares.len());
                let mut from = 0;
                for i in k * g..(k + 1) * g {
                    let d = &dout[from..][..cfg.groups[i % g]];
                    from += d.len();
                    backward(&nets.params[i], &nets.sizes(i), &active, d, &mut grad[i]);
                }
            }
            grad
        });
        // Linear decay to a tenth; no library maths (cos, powf), so the
        // weights are the same wherever they are rebuilt.
        let progress = (step - 1) as f32 / cfg.steps as f32;
        let lr = cfg.learning_rate * (1.0 - 0.9 * progress);
        let (b1, b2, eps) = ADAM;
        decay.0 *= b1;
        decay.1 *= b2;
        let (c1, c2) = (1.0 - decay.0, 1.0 - decay.1);
        let mut at = 0;
        for (i, params) in nets.params.iter_mut().enumerate() {
            for (j, p) in params.iter_mut().enumerate() {
                let g: f32 = grads.iter().map(|g| g[i][j]).sum();
                m[at] = b1 * m[at] + (1.0 - b1) * g;
                v[at] = b2 * v[at] + (1.0 - b2) * g * g;
                *p -= lr * (m[at] / c1) / ((v[at] / c2).sqrt() + eps);
                at += 1;
            }
        }
        if step % cfg.validate_every == 0 || step == cfg.steps {
            let table = reps.forward_all(&nets, &threads);
            let mae = valid.mae(&table, outputs, &threads);
            history.push((step, train_mae, mae));
            if mae < best.0 {
                best = (mae, nets.clone(), step);
            }
            bar.set_message(format!("validation MAE {mae:.3}"));
        }
        bar.inc(1);
    }
    let report = NetReport {
        sizes: (train.len(), valid.len()),
        history,
        best_step: best.2,
        best_mae: best.0,
    };
    (best.1, report)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backward_matches_finite_differences() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
        let sizes = net::layer_sizes(4, &[6, 5], 3);
        let params: Vec<f32> = (0..net::param_count(&sizes))
            .map(|_| rng.gen::<f32>() - 0.5)
            .collect();
        let active = [0, 3, 6];
        let dout = [0.7, -1.3, 0.4];
        let mut grad = vec![0.0; params.len()];
        backward(&params, &sizes, &active, &dout, &mut grad);
        let f = |p: &[f32]| -> f64 {
            net::forward(p, &sizes, &active)
                .iter()
                .zip(&dout)
                .map(|(o, d)| f64::from(o * d))
                .sum()
        };
        for j in 0..params.len() {
            let h = 1e-2;
            let (mut up, mut down) = (params.clone(), params.clone());
            up[j] += h;
            down[j] -= h;
            let numeric = (f(&up) - f(&down)) / (2.0 * f64::from(h));
            assert!(
                (numeric - f64::from(grad[j])).abs() < 1e-3,
                "parameter {j}: {numeric} vs {}",
                grad[j]
            );
        }
    }

    #[test]
    fn representatives_cover_every_index_once() {
        let reps = Reps::new();
        for (i, &r) in reps.of_index.iter().enumerate() {
            let (k, t) = reps.list[r as usize];
            let k = k as usize;
            assert!(OFFSETS[k] <= i && i < OFFSETS[k + 1]);
            assert_eq!(pattern::canonical(k)[i - OFFSETS[k]], t);
        }
    }
}

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
//!
//! The networks' rounding to the packed precision ([`quantize_nets`],
//! packed by `encode.rs`) is here too: a quantization-aware fit sees the
//! rounded parameters.

use crate::fit::{self, Model};
use crate::gen::Sample;
use indicatif::ProgressBar;
use othello::eval::net::{self, LEAK};
use othello::eval::pattern::{self, INSTANCES, OFFSETS, PATTERNS, PHASE_SIZE};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// Calls `$f($args..)`, or its twin `$fast` compiled for AVX2 when the
/// processor has it: wider vectors, the same arithmetic (Rust never fuses a
/// multiply and an add), so the same results bit for bit. `$f`'s body is
/// `#[inline(always)]`, so that the twin's copy of it is compiled for AVX2.
macro_rules! with_avx2 {
    ($f:ident, $fast:ident, $($arg:expr),*) => {{
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("avx2") {
                // SAFETY: the processor has AVX2.
                unsafe { $fast($($arg),*) }
            } else {
                $f($($arg),*)
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            $f($($arg),*)
        }
    }};
}

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
    /// Quantization-aware fitting: from this step on, each step's forward
    /// and backward passes (and the validation) use the parameters rounded
    /// as they will be packed, `(step, magnitude bits)`, and the gradient
    /// goes to the unrounded ones (the straight-through estimator).
    /// `None`: the committed recipe, rounded only at the end.
    pub quantize_from: Option<(u32, u32)>,
    /// Networks to start from instead of random ones (`train fit --init`):
    /// a fine-tune. Their anchors, hidden sizes and groups must be these.
    pub init: Option<Nets>,
    /// Groups whose networks stay as they start (`train fit --freeze`):
    /// with `init`, the others are fitted around them, say the endgame's
    /// group on endgame positions with the midgame's kept.
    pub frozen_groups: Vec<usize>,
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
            quantize_from: None,
            init: None,
            frozen_groups: Vec::new(),
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
    /// Whether these networks have `cfg`'s anchors, hidden sizes and groups:
    /// the shape a fit from them (`NetConfig::init`) needs.
    pub fn has_shape_of(&self, cfg: &NetConfig) -> bool {
        (&self.anchors, &self.hidden, &self.groups) == (&cfg.anchors, &cfg.hidden, &cfg.groups)
    }

    /// Layer sizes of network `i` (pattern `i / groups`, group `i % groups`).
    pub fn sizes(&self, i: usize) -> Vec<usize> {
        let g = self.groups.len();
        net::layer_sizes(
            PATTERNS[i / g].squares.len(),
            &self.hidden,
            self.groups[i % g],
        )
    }

    /// Every network's [`Shape`].
    fn shapes(&self) -> Vec<Shape> {
        (0..self.params.len())
            .map(|i| Shape::new(self.sizes(i)))
            .collect()
    }

    /// The networks with each layer rounded as they are packed at `bits`
    /// magnitude bits ([`quantize_nets`], then [`dequantize`]).
    pub fn rounded(&self, bits: u32) -> Nets {
        Nets {
            params: dequantize(&quantize_nets(self, bits)),
            ..self.clone()
        }
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

/// One layer of a network, quantized: its shift (step `2^-shift`) and its
/// weights then biases in steps.
pub type Layer = (u32, Vec<i32>);

/// Rounds every layer of every network to the power-of-two step that keeps
/// its largest magnitude within `bits` bits (sign apart).
pub fn quantize_nets(nets: &Nets, bits: u32) -> Vec<Vec<Layer>> {
    let limit = ((1u32 << bits) - 1) as f32;
    let max_shift = (1 << net::SHIFT_BITS) - 1;
    (0..nets.params.len())
        .map(|i| {
            let sizes = nets.sizes(i);
            let mut rest = nets.params[i].as_slice();
            sizes
                .windows(2)
                .map(|w| {
                    let (layer, r) = rest.split_at((w[0] + 1) * w[1]);
                    rest = r;
                    let max = layer.iter().fold(0.0f32, |m, v| m.max(v.abs()));
                    let mut shift = 0;
                    while shift < max_shift && max * (1u64 << (shift + 1)) as f32 <= limit {
                        shift += 1;
                    }
                    let scale = (1u64 << shift) as f32;
                    (
                        shift,
                        layer.iter().map(|v| (v * scale).round() as i32).collect(),
                    )
                })
                .collect()
        })
        .collect()
}

/// The parameters quantized networks decode to.
pub fn dequantize(q: &[Vec<Layer>]) -> Vec<Vec<f32>> {
    q.iter()
        .map(|layers| {
            layers
                .iter()
                .flat_map(|(shift, v)| {
                    let step = 1.0 / (1u64 << shift) as f32;
                    v.iter().map(move |&x| x as f32 * step)
                })
                .collect()
        })
        .collect()
}

/// The representative table indices, numbered across patterns.
struct Reps {
    /// Per representative: pattern and table-local index.
    list: Vec<(u8, u32)>,
    /// Per representative: its networks' active inputs
    /// ([`net::active_inputs`]).
    active: Vec<Vec<usize>>,
    /// Per phase index: its representative's number.
    of_index: Vec<u32>,
}

impl Reps {
    fn new() -> Reps {
        let mut list = Vec::new();
        let mut of_index = vec![0; PHASE_SIZE];
        for k in 0..PATTERNS.len() {
            let canon = pattern::canonical_indices(k);
            let mut number = vec![0; canon.len()];
            for (t, &c) in canon.iter().enumerate() {
                if c as usize == t {
                    number[t] = list.len() as u32;
                    list.push((k as u8, t as u32));
                }
                of_index[OFFSETS[k] + t] = number[c as usize];
            }
        }
        let active = list
            .iter()
            .map(|&(k, t)| net::active_inputs(t as usize, PATTERNS[k as usize].squares.len()))
            .collect();
        Reps {
            list,
            active,
            of_index,
        }
    }

    /// Every representative's outputs, `[rep * outputs + anchor]`.
    fn forward_all(&self, nets: &Nets, threads: &Threads) -> Vec<f32> {
        let outputs = nets.anchors.len();
        let shapes = nets.shapes();
        let parts = threads.map(self.list.len(), |range| {
            let mut out = Vec::with_capacity(range.len() * outputs);
            with_avx2!(
                forward_part,
                forward_part_avx2,
                self,
                nets,
                &shapes,
                range,
                &mut out
            );
            out
        });
        parts.concat()
    }
}

/// Where a network's layers lie in its parameters (`othello::eval::net`
/// layout: each layer's weights, input by input, then its biases) and in its
/// transposed weights ([`Shape::transpose`]).
struct Shape {
    /// Layer sizes, inputs first.
    sizes: Vec<usize>,
    /// Where each layer's weights start.
    offsets: Vec<usize>,
    /// Where each layer's weights start in the transposed copy (layers from
    /// the second: the first's inputs need no gradient).
    t_offsets: Vec<usize>,
    /// Where each layer's outputs start in [`Scratch::layers`].
    starts: Vec<usize>,
}

impl Shape {
    fn new(sizes: Vec<usize>) -> Shape {
        let (mut offsets, mut t_offsets, mut starts) = (Vec::new(), Vec::new(), Vec::new());
        let (mut off, mut t_off, mut start) = (0, 0, 0);
        for (l, w) in sizes.windows(2).enumerate() {
            offsets.push(off);
            t_offsets.push(t_off);
            starts.push(start);
            off += (w[0] + 1) * w[1];
            start += w[1];
            if l > 0 {
                t_off += w[0] * w[1];
            }
        }
        Shape {
            sizes,
            offsets,
            t_offsets,
            starts,
        }
    }

    /// The weights of the layers from the second, output by output: the
    /// backward pass's sums over a layer's outputs then run over contiguous
    /// memory, for all its inputs at once.
    fn transpose(&self, params: &[f32]) -> Vec<f32> {
        let mut t = Vec::new();
        for l in 1..self.sizes.len() - 1 {
            let (ni, no) = (self.sizes[l], self.sizes[l + 1]);
            let w = &params[self.offsets[l]..][..ni * no];
            t.extend((0..no).flat_map(|j| (0..ni).map(move |i| w[i * no + j])));
        }
        t
    }
}

/// Buffers a worker reuses from one network to the next.
#[derive(Default)]
struct Scratch {
    /// Layer values (pre-activations for [`backward`]), one layer after
    /// another.
    layers: Vec<f32>,
    /// The gradient with respect to the current layer's outputs.
    delta: Vec<f32>,
    /// The gradient with respect to its inputs.
    next: Vec<f32>,
}

/// Every network's outputs for the representatives of `range`, appended to
/// `out` (a part of [`Reps::forward_all`]).
#[inline(always)]
fn forward_part(
    reps: &Reps,
    nets: &Nets,
    shapes: &[Shape],
    range: std::ops::Range<usize>,
    out: &mut Vec<f32>,
) {
    let g = nets.groups.len();
    let mut scratch = Scratch::default();
    for r in range {
        let k = reps.list[r].0 as usize;
        let networks = k * g..(k + 1) * g;
        for (params, shape) in nets.params[networks.clone()].iter().zip(&shapes[networks]) {
            out.extend_from_slice(forward(params, shape, &reps.active[r], &mut scratch));
        }
    }
}

/// [`forward_part`] compiled for AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn forward_part_avx2(
    reps: &Reps,
    nets: &Nets,
    shapes: &[Shape],
    range: std::ops::Range<usize>,
    out: &mut Vec<f32>,
) {
    forward_part(reps, nets, shapes, range, out)
}

/// What a step's back-propagation reads.
struct Backward<'a> {
    reps: &'a Reps,
    nets: &'a Nets,
    /// Every network's [`Shape::transpose`].
    transposed: &'a [Vec<f32>],
    shapes: &'a [Shape],
    /// The loss's gradient per table entry, `[rep * outputs + anchor]`.
    g_table: &'a [f32],
}

/// Adds to `grad` (per network) the gradient of the loss through the
/// networks of the representatives of `range`.
#[inline(always)]
fn backward_part(at: &Backward, range: std::ops::Range<usize>, grad: &mut [Vec<f32>]) {
    let nets = at.nets;
    let (g, outputs) = (nets.groups.len(), nets.anchors.len());
    let mut scratch = Scratch::default();
    for r in range {
        let dout = &at.g_table[r * outputs..][..outputs];
        if dout.iter().all(|&d| d == 0.0) {
            continue;
        }
        let k = at.reps.list[r].0 as usize;
        let mut from = 0;
        for i in k * g..(k + 1) * g {
            let d = &dout[from..][..nets.groups[i % g]];
            from += d.len();
            backward(
                &nets.params[i],
                &at.transposed[i],
                &at.shapes[i],
                &at.reps.active[r],
                d,
                &mut grad[i],
                &mut scratch,
            );
        }
    }
}

/// [`backward_part`] compiled for AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn backward_part_avx2(at: &Backward, range: std::ops::Range<usize>, grad: &mut [Vec<f32>]) {
    backward_part(at, range, grad)
}

/// `y[j] += x * row[j]` for each `(x, row)` in turn. Every `y[j]` gets the
/// same additions in the same order whatever the width; the usual widths
/// of the hidden layers stay in registers meanwhile. (`1.0 * w` is `w`
/// exactly.)
#[inline(always)]
fn accumulate<'w>(y: &mut [f32], rows: impl Iterator<Item = (f32, &'w [f32])>) {
    #[inline(always)]
    fn fixed<'w, const N: usize>(y: &mut [f32; N], rows: impl Iterator<Item = (f32, &'w [f32])>) {
        let mut acc = *y;
        for (x, row) in rows {
            let row: &[f32; N] = row.try_into().expect("a row of the layer's width");
            for (a, &w) in acc.iter_mut().zip(row) {
                *a += x * w;
            }
        }
        *y = acc;
    }
    match y.len() {
        32 => fixed::<32>(y.try_into().expect("32 wide"), rows),
        64 => fixed::<64>(y.try_into().expect("64 wide"), rows),
        _ => {
            for (x, row) in rows {
                for (yj, &w) in y.iter_mut().zip(row) {
                    *yj += x * w;
                }
            }
        }
    }
}

/// The leaky rectifier.
#[inline(always)]
fn leaky(p: f32) -> f32 {
    if p < 0.0 {
        p * LEAK
    } else {
        p
    }
}

/// `othello::eval::net::forward`, bit for bit (the same sums in the same
/// order), without allocating: the outputs, in `scratch`.
#[inline(always)]
fn forward<'a>(
    params: &[f32],
    shape: &Shape,
    active: &[usize],
    scratch: &'a mut Scratch,
) -> &'a [f32] {
    let layers = &mut scratch.layers;
    layers.clear();
    let last = shape.sizes.len() - 2;
    for l in 0..=last {
        let (ni, no) = (shape.sizes[l], shape.sizes[l + 1]);
        let w = &params[shape.offsets[l]..][..ni * no];
        layers.extend_from_slice(&params[shape.offsets[l] + ni * no..][..no]);
        let (x, y) = layers.split_at_mut(shape.starts[l]);
        let row = |i: usize| &w[i * no..][..no];
        if l == 0 {
            accumulate(y, active.iter().map(|&i| (1.0, row(i))));
        } else {
            let x = &x[shape.starts[l - 1]..];
            accumulate(
                y,
                x.iter()
                    .enumerate()
                    .filter(|&(_, &xi)| xi != 0.0)
                    .map(|(i, &xi)| (xi, row(i))),
            );
        }
        if l < last {
            for v in y.iter_mut() {
                if *v < 0.0 {
                    *v *= LEAK;
                }
            }
        }
    }
    &layers[shape.starts[last]..]
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
/// parameters of a network, for binary inputs of which `active` are 1;
/// `transposed` is [`Shape::transpose`] of `params`.
#[inline(always)]
fn backward(
    params: &[f32],
    transposed: &[f32],
    shape: &Shape,
    active: &[usize],
    dout: &[f32],
    grad: &mut [f32],
    scratch: &mut Scratch,
) {
    let sizes = &shape.sizes;
    let layers = sizes.len() - 1;
    // Forward, keeping every layer's pre-activation.
    let (pre, starts) = (&mut scratch.layers, &shape.starts);
    pre.clear();
    for l in 0..layers {
        let (ni, no) = (sizes[l], sizes[l + 1]);
        let w = &params[shape.offsets[l]..][..ni * no];
        pre.extend_from_slice(&params[shape.offsets[l] + ni * no..][..no]);
        let (x, y) = pre.split_at_mut(starts[l]);
        let row = |i: usize| &w[i * no..][..no];
        if l == 0 {
            accumulate(y, active.iter().map(|&i| (1.0, row(i))));
        } else {
            let x = &x[starts[l - 1]..];
            accumulate(y, x.iter().enumerate().map(|(i, &p)| (leaky(p), row(i))));
        }
    }
    // Backward.
    let (delta, next) = (&mut scratch.delta, &mut scratch.next);
    delta.clear();
    delta.extend_from_slice(dout);
    for l in (0..layers).rev() {
        let (ni, no) = (sizes[l], sizes[l + 1]);
        let (wo, bo) = (shape.offsets[l], shape.offsets[l] + ni * no);
        for (g, d) in grad[bo..][..no].iter_mut().zip(delta.iter()) {
            *g += d;
        }
        if l == 0 {
            for &i in active {
                for (g, d) in grad[wo + i * no..][..no].iter_mut().zip(delta.iter()) {
                    *g += d;
                }
            }
            break;
        }
        let inputs = &pre[starts[l - 1]..][..ni];
        for (i, &p) in inputs.iter().enumerate() {
            let x = leaky(p);
            for (g, d) in grad[wo + i * no..][..no].iter_mut().zip(delta.iter()) {
                *g += x * d;
            }
        }
        // Each input's sum over the outputs, in output order from 0.0 (as
        // a plain dot product would add them), for all inputs at once
        // (`d * w` is `w * d` exactly).
        next.clear();
        next.resize(ni, 0.0);
        let t = &transposed[shape.t_offsets[l]..][..ni * no];
        accumulate(
            next,
            delta
                .iter()
                .zip(t.chunks_exact(ni))
                .map(|(&d, column)| (d, column)),
        );
        for (b, &p) in next.iter_mut().zip(inputs) {
            if p < 0.0 {
                *b *= LEAK;
            }
        }
        std::mem::swap(delta, next);
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
    if let Some(init) = &cfg.init {
        assert!(
            init.has_shape_of(cfg),
            "the start's networks are not of the fit's shape"
        );
        nets.params.clone_from(&init.params);
    }
    for i in nets.params.len()..PATTERNS.len() * cfg.groups.len() {
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
    let shapes = nets.shapes();
    // Adam's b1^step and b2^step.
    let mut decay = (1.0f32, 1.0f32);
    let (mut m, mut v) = (vec![0.0f32; total], vec![0.0f32; total]);
    let mut best = (f64::INFINITY, nets.clone(), 0);
    let mut history = Vec::new();
    let batches = cfg.batches.max(1) as usize;
    for step in 1..=cfg.steps {
        // The parameters the step sees: rounded once quantization-aware.
        let rounded = cfg
            .quantize_from
            .filter(|&(from, _)| step >= from)
            .map(|(_, bits)| nets.rounded(bits));
        let seen = rounded.as_ref().unwrap_or(&nets);
        let table = reps.forward_all(seen, &threads);
        let b = (step as usize - 1) % batches;
        let batch = b * train.len() / batches..(b + 1) * train.len() / batches;
        let (g_table, train_mae) = train.table_gradient(batch, &table, outputs, &threads);
        // Back-propagate each representative's gradient through its network.
        let transposed: Vec<Vec<f32>> = seen
            .params
            .iter()
            .zip(&shapes)
            .map(|(p, shape)| shape.transpose(p))
            .collect();
        let grads = threads.map(reps.list.len(), |range| {
            let mut grad: Vec<Vec<f32>> = nets.params.iter().map(|p| vec![0.0; p.len()]).collect();
            let at = Backward {
                reps: &reps,
                nets: seen,
                transposed: &transposed,
                shapes: &shapes,
                g_table: &g_table,
            };
            with_avx2!(backward_part, backward_part_avx2, &at, range, &mut grad);
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
            if cfg.frozen_groups.contains(&(i % cfg.groups.len())) {
                at += params.len();
                continue;
            }
            for (j, p) in params.iter_mut().enumerate() {
                let g: f32 = grads.iter().map(|g| g[i][j]).sum();
                m[at] = b1 * m[at] + (1.0 - b1) * g;
                v[at] = b2 * v[at] + (1.0 - b2) * g * g;
                *p -= lr * (m[at] / c1) / ((v[at] / c2).sqrt() + eps);
                at += 1;
            }
        }
        if step % cfg.validate_every == 0 || step == cfg.steps {
            // Quantization-aware, every validation measures what would be
            // packed, so the kept step is the best packed one.
            let rounded = cfg.quantize_from.map(|(_, bits)| nets.rounded(bits));
            let table = reps.forward_all(rounded.as_ref().unwrap_or(&nets), &threads);
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

    /// Random positions of random games, labelled with a smooth function
    /// of the position (the disc difference, the corners twice).
    fn synthetic(games: u32) -> Vec<Sample> {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
        let mut out = Vec::new();
        for game in 0..games {
            let mut b = othello::Board::start();
            while !b.is_game_over() {
                if b.moves().is_empty() {
                    b = b.pass();
                    continue;
                }
                let corners = 0x8100_0000_0000_0081u64;
                let label = b.disc_difference()
                    + 2 * ((b.player & corners).count_ones() as i32
                        - (b.opponent & corners).count_ones() as i32);
                out.push(Sample {
                    board: b,
                    label: label.clamp(-64, 64) as i8,
                    game,
                    held_out: None,
                });
                let moves: Vec<_> = b.moves().squares().collect();
                b = b.play(moves[rng.gen_range(0..moves.len())]);
            }
        }
        out
    }

    #[test]
    fn a_quantization_aware_fit_packs_better_than_one_rounded_at_the_end() {
        let samples = synthetic(300);
        let base = NetConfig {
            hidden: vec![8, 4],
            groups: vec![7],
            steps: 120,
            batches: 2,
            validate_every: 10,
            learning_rate: 0.02,
            ..NetConfig::default()
        };
        let bits = 3;
        let qat = NetConfig {
            quantize_from: Some((40, bits)),
            ..base.clone()
        };
        let (_, valid) = fit::split(&samples, base.holdout_every);
        let packed_mae = |cfg: &NetConfig| {
            let (nets, report) = fit_nets(&samples, cfg, &ProgressBar::hidden());
            let rounded = nets.rounded(bits);
            let model = rounded.model();
            let canon = fit::canonical_map();
            let mae = valid
                .iter()
                .map(|s| (f64::from(model.predict(&canon, &s.board)) - f64::from(s.label)).abs())
                .sum::<f64>()
                / valid.len() as f64;
            (mae, report.best_mae)
        };
        let (plain, _) = packed_mae(&base);
        let (aware, validated) = packed_mae(&qat);
        // The aware fit validated the rounded networks it keeps.
        assert!((aware - validated).abs() < 0.05, "{aware} vs {validated}");
        assert!(
            aware < plain,
            "aware {aware} against rounded at the end {plain}"
        );
    }

    #[test]
    fn a_fine_tune_keeps_its_frozen_group_and_fits_the_other() {
        let samples = synthetic(200);
        let base = NetConfig {
            hidden: vec![8, 4],
            steps: 40,
            batches: 2,
            validate_every: 10,
            learning_rate: 0.02,
            ..NetConfig::default()
        };
        let (start, _) = fit_nets(&samples, &base, &ProgressBar::hidden());
        // New labels: the fine-tune must move toward them.
        let shifted: Vec<Sample> = samples
            .iter()
            .map(|s| Sample {
                label: (s.label as i32 + 6).clamp(-64, 64) as i8,
                ..*s
            })
            .collect();
        let tune = NetConfig {
            init: Some(start.clone()),
            frozen_groups: vec![1],
            ..base.clone()
        };
        let (tuned, report) = fit_nets(&shifted, &tune, &ProgressBar::hidden());
        let groups = base.groups.len();
        for (i, (a, b)) in start.params.iter().zip(&tuned.params).enumerate() {
            if i % groups == 1 {
                assert_eq!(a, b, "network {i} of the frozen group moved");
            } else {
                assert_ne!(a, b, "network {i} of the fitted group did not move");
            }
        }
        let (_, valid) = fit::split(&shifted, base.holdout_every);
        let canon = fit::canonical_map();
        let model = start.model();
        let before = valid
            .iter()
            .map(|s| (f64::from(model.predict(&canon, &s.board)) - f64::from(s.label)).abs())
            .sum::<f64>()
            / valid.len() as f64;
        assert!(
            report.best_mae < before - 0.5,
            "fine-tuned {} against the start's {before}",
            report.best_mae
        );
    }

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
        let shape = Shape::new(sizes.clone());
        let t = shape.transpose(&params);
        backward(
            &params,
            &t,
            &shape,
            &active,
            &dout,
            &mut grad,
            &mut Scratch::default(),
        );
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

    /// The plain back-propagation that [`backward`] speeds up: a dot
    /// product per input, allocations per call.
    fn backward_reference(
        params: &[f32],
        sizes: &[usize],
        active: &[usize],
        dout: &[f32],
        grad: &mut [f32],
    ) {
        let layers = sizes.len() - 1;
        let mut offsets = Vec::new();
        let mut off = 0;
        for w in sizes.windows(2) {
            offsets.push(off);
            off += (w[0] + 1) * w[1];
        }
        let mut pre: Vec<Vec<f32>> = Vec::new();
        for l in 0..layers {
            let (ni, no) = (sizes[l], sizes[l + 1]);
            let w = &params[offsets[l]..][..ni * no];
            let mut y = params[offsets[l] + ni * no..][..no].to_vec();
            let inputs: Vec<(usize, f32)> = if l == 0 {
                active.iter().map(|&i| (i, 1.0)).collect()
            } else {
                pre[l - 1].iter().map(|&p| leaky(p)).enumerate().collect()
            };
            for (i, x) in inputs {
                for j in 0..no {
                    y[j] += x * w[i * no + j];
                }
            }
            pre.push(y);
        }
        let mut delta = dout.to_vec();
        for l in (0..layers).rev() {
            let (ni, no) = (sizes[l], sizes[l + 1]);
            let (wo, bo) = (offsets[l], offsets[l] + ni * no);
            for j in 0..no {
                grad[bo + j] += delta[j];
            }
            if l == 0 {
                for &i in active {
                    for j in 0..no {
                        grad[wo + i * no + j] += delta[j];
                    }
                }
                break;
            }
            let mut next = vec![0.0; ni];
            for i in 0..ni {
                let p = pre[l - 1][i];
                let mut back = 0.0;
                for j in 0..no {
                    grad[wo + i * no + j] += leaky(p) * delta[j];
                    back += params[wo + i * no + j] * delta[j];
                }
                next[i] = if p < 0.0 { back * LEAK } else { back };
            }
            delta = next;
        }
    }

    /// Random networks of the patterns' real shapes, with some weights
    /// exactly zero (the forward pass skips zero inputs).
    fn random_nets(seed: u64) -> Nets {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut nets = Nets {
            anchors: vec![0, 10, 20, 30, 40, 50, 60],
            hidden: vec![64, 32],
            groups: vec![3, 4],
            params: Vec::new(),
        };
        for i in 0..PATTERNS.len() * 2 {
            let n = net::param_count(&nets.sizes(i));
            let p = (0..n)
                .map(|_| {
                    if rng.gen_range(0..8) == 0 {
                        0.0
                    } else {
                        rng.gen::<f32>() - 0.5
                    }
                })
                .collect();
            nets.params.push(p);
        }
        nets
    }

    #[test]
    fn the_fast_forward_pass_gives_the_library_s_outputs_bit_for_bit() {
        let (reps, nets) = (Reps::new(), random_nets(5));
        let shapes = nets.shapes();
        let g = nets.groups.len();
        // Every 61st representative, through the portable code and, where
        // the processor has it, the AVX2 twin.
        for r in (0..reps.list.len()).step_by(61) {
            let k = reps.list[r].0 as usize;
            let mut expected = Vec::new();
            for i in k * g..(k + 1) * g {
                expected.extend(net::forward(
                    &nets.params[i],
                    &nets.sizes(i),
                    &reps.active[r],
                ));
            }
            let mut portable = Vec::new();
            forward_part(&reps, &nets, &shapes, r..r + 1, &mut portable);
            let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            assert_eq!(bits(&portable), bits(&expected), "representative {r}");
            let mut dispatched = Vec::new();
            with_avx2!(
                forward_part,
                forward_part_avx2,
                &reps,
                &nets,
                &shapes,
                r..r + 1,
                &mut dispatched
            );
            assert_eq!(
                bits(&dispatched),
                bits(&expected),
                "representative {r}, dispatched"
            );
        }
    }

    #[test]
    fn the_fast_backward_pass_adds_the_plain_one_s_gradient_bit_for_bit() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(9);
        // The real widths (kept in registers) and a narrow one (plain loops).
        for sizes in [
            net::layer_sizes(10, &[64, 32], 4),
            net::layer_sizes(8, &[64, 32], 3),
            net::layer_sizes(4, &[6, 5], 3),
        ] {
            let shape = Shape::new(sizes.clone());
            for _ in 0..50 {
                let params: Vec<f32> = (0..net::param_count(&sizes))
                    .map(|_| rng.gen::<f32>() - 0.5)
                    .collect();
                let t = shape.transpose(&params);
                let active: Vec<usize> = (0..sizes[0] / 2)
                    .filter_map(|sq| match rng.gen_range(0..3) {
                        0 => None,
                        d => Some(2 * sq + d - 1),
                    })
                    .collect();
                let dout: Vec<f32> = (0..sizes[sizes.len() - 1])
                    .map(|_| rng.gen::<f32>() - 0.5)
                    .collect();
                // Gradients already holding something, as a part's do.
                let start: Vec<f32> = (0..params.len()).map(|_| rng.gen::<f32>()).collect();
                let (mut fast, mut plain) = (start.clone(), start);
                backward(
                    &params,
                    &t,
                    &shape,
                    &active,
                    &dout,
                    &mut fast,
                    &mut Scratch::default(),
                );
                backward_reference(&params, &sizes, &active, &dout, &mut plain);
                let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
                assert_eq!(bits(&fast), bits(&plain), "sizes {sizes:?}");
            }
        }
    }

    #[test]
    fn representatives_cover_every_index_once() {
        let reps = Reps::new();
        for (i, &r) in reps.of_index.iter().enumerate() {
            let (k, t) = reps.list[r as usize];
            let k = k as usize;
            assert!(OFFSETS[k] <= i && i < OFFSETS[k + 1]);
            assert_eq!(pattern::canonical_indices(k)[i - OFFSETS[k]], t);
        }
    }
}

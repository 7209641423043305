//! Pattern networks: the tables of the pattern evaluation, stored as one
//! tiny network per pattern and expanded into the tables at start-up.
//!
//! A pattern's network reads the pattern's squares (two inputs per square:
//! a disc of the side to move, a disc of the opponent), passes them through
//! small hidden layers (leaky ReLU) and gives one output per anchor phase:
//! the table entries of that index at each anchor, in discs. The search
//! reads the expanded tables ([`super::pattern::Tables`]), so a node costs
//! the same as with stored tables; the networks only cost their decoding
//! (well under the first turn's budget: docs/evaluation.md).
//!
//! The expansion uses only additions, multiplications and comparisons of
//! `f32` in a fixed order, so the tables are the same on every machine.

use super::pack::BitReader;
use super::shape::{canonical_indices, pow3, PATTERNS, PHASE_SIZE};
use super::SCALE;
use crate::dispatch::{fast_fn, Isa};

/// Slope of the leaky ReLU below zero.
pub const LEAK: f32 = 0.0625;
/// Bits that give each layer's quantization shift (its step is `2^-shift`).
pub const SHIFT_BITS: u32 = 5;
/// Bits that give each layer's Exp-Golomb order.
pub const ORDER_BITS: u32 = 4;

/// The layer sizes of a network for a pattern of `squares` squares: inputs
/// (two per square), the hidden layers, then `outputs` (one per anchor of
/// its group). A small pattern's hidden layers are narrower: at most a
/// sixteenth of its table, at least 4.
pub fn layer_sizes(squares: usize, hidden: &[usize], outputs: usize) -> Vec<usize> {
    let cap = (pow3(squares) / 16).max(4);
    let mut sizes = vec![2 * squares];
    sizes.extend(hidden.iter().map(|&h| h.min(cap)));
    sizes.push(outputs);
    sizes
}

/// Parameters of a network of these layer sizes. Each layer stores its
/// weights input by input (`inputs × outputs`), then its biases.
pub fn param_count(sizes: &[usize]) -> usize {
    sizes.windows(2).map(|w| (w[0] + 1) * w[1]).sum()
}

/// The active inputs of table index `t` of a pattern of `squares` squares:
/// input `2i` for a disc of the side to move on digit `i`, `2i + 1` for one
/// of the opponent.
pub fn active_inputs(mut t: usize, squares: usize) -> Vec<usize> {
    let mut active = Vec::with_capacity(squares);
    for i in 0..squares {
        let digit = t % 3;
        t /= 3;
        if digit > 0 {
            active.push(2 * i + digit - 1);
        }
    }
    active
}

// Tools and tests only: not in the submission (docs/bundle.md).
#[cfg(not(cargo_equip))]
/// The outputs of a network (`params` laid out as [`param_count`] says) for
/// binary inputs of which `active` are 1.
pub fn forward(params: &[f32], sizes: &[usize], active: &[usize]) -> Vec<f32> {
    forward_in(params, sizes, active, &mut Default::default()).to_vec()
}

/// [`forward`] with the layers' values in `layers`, which a caller reuses
/// from one call to the next (no allocation); returns the outputs.
#[inline(always)]
fn forward_in<'a>(
    params: &[f32],
    sizes: &[usize],
    active: &[usize],
    layers: &'a mut [Vec<f32>; 2],
) -> &'a [f32] {
    let [x, y] = layers;
    x.clear();
    x.resize(sizes[0], 0.0);
    for &i in active {
        x[i] = 1.0;
    }
    let mut p = params;
    for (l, w) in sizes.windows(2).enumerate() {
        let (weights, rest) = p.split_at(w[0] * w[1]);
        let (bias, rest) = rest.split_at(w[1]);
        p = rest;
        y.clear();
        y.extend_from_slice(bias);
        for (&xi, row) in x.iter().zip(weights.chunks(w[1])) {
            if xi != 0.0 {
                for (yj, &wij) in y.iter_mut().zip(row) {
                    *yj += xi * wij;
                }
            }
        }
        if l + 2 < sizes.len() {
            for v in y.iter_mut() {
                if *v < 0.0 {
                    *v *= LEAK;
                }
            }
        }
        std::mem::swap(x, y);
    }
    x
}

/// Decodes the networks packed by `train`, pattern by pattern and, within
/// a pattern, group by group (`groups`: the outputs of each network, in
/// anchor order): per layer the shift and the code order, then the layer's
/// weights and biases as signed Exp-Golomb codes in steps of `2^-shift`.
pub fn decode(data: &str, hidden: &[usize], groups: &[usize]) -> Vec<Vec<f32>> {
    let mut r = BitReader::new(data);
    let mut nets = Vec::new();
    for p in PATTERNS.iter() {
        for &outputs in groups {
            let sizes = layer_sizes(p.squares.len(), hidden, outputs);
            let mut params = Vec::with_capacity(param_count(&sizes));
            for w in sizes.windows(2) {
                let step = 1.0 / (1u64 << r.bits(SHIFT_BITS)) as f32;
                let order = r.bits(ORDER_BITS);
                for _ in 0..(w[0] + 1) * w[1] {
                    params.push(r.signed(order) as f32 * step);
                }
            }
            nets.push(params);
        }
    }
    nets
}

/// Expands the networks ([`decode`]'s order) into the anchors' tables, in
/// evaluation units: per anchor [`PHASE_SIZE`] entries, the mirrors of a symmetric pattern filled
/// in from their representative.
#[allow(unsafe_code)]
pub fn expand(nets: &[Vec<f32>], hidden: &[usize], groups: &[usize]) -> Vec<Vec<i32>> {
    #[cfg(target_arch = "x86_64")]
    if Isa::detect().is_fast() {
        // SAFETY: the CPU has every feature `expand_fast` enables. The
        // tables are the same either way: the compiler does not fuse a
        // multiplication and an addition unasked. Measured: docs/evaluation.md.
        return unsafe { expand_fast(nets, hidden, groups) };
    }
    expand_in(nets, hidden, groups)
}

fast_fn! {
    fn expand_fast(nets: &[Vec<f32>], hidden: &[usize], groups: &[usize]) -> Vec<Vec<i32>> {
        expand_in(nets, hidden, groups)
    }
}

#[inline(always)]
fn expand_in(nets: &[Vec<f32>], hidden: &[usize], groups: &[usize]) -> Vec<Vec<i32>> {
    let outputs = groups.iter().sum();
    let mut anchors = vec![Vec::with_capacity(PHASE_SIZE); outputs];
    let mut layers = Default::default();
    for (k, (p, nets)) in PATTERNS.iter().zip(nets.chunks(groups.len())).enumerate() {
        let n = p.squares.len();
        let sizes: Vec<_> = groups.iter().map(|&g| layer_sizes(n, hidden, g)).collect();
        let canon = canonical_indices(k);
        let mut values = vec![0; pow3(n) * outputs];
        for (t, &c) in canon.iter().enumerate() {
            let c = c as usize;
            if c == t {
                let active = active_inputs(t, n);
                let mut a = t * outputs;
                for (params, sizes) in nets.iter().zip(&sizes) {
                    for v in forward_in(params, sizes, &active, &mut layers) {
                        values[a] = (v * SCALE as f32).round() as i32;
                        a += 1;
                    }
                }
            } else {
                values.copy_within(c * outputs..(c + 1) * outputs, t * outputs);
            }
        }
        for (a, anchor) in anchors.iter_mut().enumerate() {
            anchor.extend(values.iter().skip(a).step_by(outputs));
        }
    }
    debug_assert!(anchors.iter().all(|a| a.len() == PHASE_SIZE));
    anchors
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    #[test]
    fn active_inputs_read_the_digits() {
        // Digits (low first) 1, 0, 2, 1: side to move, empty, opponent, side to move.
        let t = 1 + 2 * 9 + 27;
        assert_eq!(active_inputs(t, 4), vec![0, 5, 6]);
        assert!(active_inputs(0, 10).is_empty());
    }

    /// The layer computed as a dense matrix product, the slow obvious way.
    fn forward_slow(params: &[f32], sizes: &[usize], x: &[f32]) -> Vec<f32> {
        let mut x = x.to_vec();
        let mut off = 0;
        for l in 0..sizes.len() - 1 {
            let (ni, no) = (sizes[l], sizes[l + 1]);
            let mut y = vec![0.0f64; no];
            for (j, yj) in y.iter_mut().enumerate() {
                *yj = f64::from(params[off + ni * no + j]);
                for (i, &xi) in x.iter().enumerate() {
                    *yj += f64::from(xi) * f64::from(params[off + i * no + j]);
                }
                if l + 2 < sizes.len() && *yj < 0.0 {
                    *yj *= f64::from(LEAK);
                }
            }
            off += (ni + 1) * no;
            x = y.iter().map(|&v| v as f32).collect();
        }
        x
    }

    #[test]
    fn expansion_matches_the_networks_entry_by_entry() {
        // Small random networks in two groups (1 + 2 anchors).
        let mut rng = Rng::seed_from_u64(11);
        let (hidden, groups) = ([6, 3], [1, 2]);
        let nets: Vec<Vec<f32>> = PATTERNS
            .iter()
            .flat_map(|p| groups.map(|g| layer_sizes(p.squares.len(), &hidden, g)))
            .map(|sizes| {
                (0..param_count(&sizes))
                    .map(|_| rng.below(2001) as f32 / 500.0 - 2.0)
                    .collect()
            })
            .collect();
        let anchors = expand(&nets, &hidden, &groups);
        assert_eq!(anchors.len(), 3);
        for (k, p) in PATTERNS.iter().enumerate() {
            let n = p.squares.len();
            let canon = canonical_indices(k);
            for _ in 0..50 {
                let t = rng.below(pow3(n) as u64) as usize;
                // Slow: the representative's inputs through the dense reference.
                let c = canon[t] as usize;
                let mut x = vec![0.0; 2 * n];
                let mut rest = c;
                for i in 0..n {
                    if !rest.is_multiple_of(3) {
                        x[2 * i + rest % 3 - 1] = 1.0;
                    }
                    rest /= 3;
                }
                let mut outputs = Vec::new();
                for (g, &size) in groups.iter().enumerate() {
                    let params = &nets[k * groups.len() + g];
                    outputs.extend(forward_slow(params, &layer_sizes(n, &hidden, size), &x));
                }
                let offset = crate::eval::shape::OFFSETS[k];
                for (a, v) in outputs.iter().enumerate() {
                    let entry = anchors[a][offset + t];
                    assert!(
                        (entry as f32 - v * SCALE as f32).abs() <= 1.0,
                        "{} index {t} anchor {a}: {entry} vs {v}",
                        crate::eval::shape::PATTERN_NAMES[k]
                    );
                }
            }
        }
    }

    #[test]
    fn forward_matches_a_dense_reference() {
        let mut rng = Rng::seed_from_u64(9);
        let sizes = layer_sizes(5, &[7, 4], 3);
        let params: Vec<f32> = (0..param_count(&sizes))
            .map(|_| rng.below(2001) as f32 / 1000.0 - 1.0)
            .collect();
        for t in 0..pow3(5) {
            let active = active_inputs(t, 5);
            let mut x = vec![0.0; 10];
            for &i in &active {
                x[i] = 1.0;
            }
            let fast = forward(&params, &sizes, &active);
            let slow = forward_slow(&params, &sizes, &x);
            for (a, b) in fast.iter().zip(&slow) {
                assert!((a - b).abs() < 1e-4, "index {t}: {fast:?} vs {slow:?}");
            }
        }
    }
}

//! Packing the quantized networks ([`crate::net::quantize_nets`]) into the
//! Rust source file `src/eval/weights.rs`, in the format that
//! `othello::eval::net::decode` reads.

use crate::net::{dequantize, Layer, Nets};
use othello::eval::net;
use othello::eval::pack::BitWriter;

/// Length in bits of the Exp-Golomb code of order `k` of `x`.
pub fn exp_golomb_len(x: u32, k: u32) -> u32 {
    let q = (u64::from(x) >> k) + 1;
    2 * (64 - q.leading_zeros()) - 1 + k
}

/// 0, -1, 1, -2, ... -> 0, 1, 2, 3, ...
fn zigzag(v: i32) -> u32 {
    ((v << 1) ^ (v >> 31)) as u32
}

/// Non-zero entries and the sum of absolute values of expanded anchors:
/// the checksum the library's decoding test compares with.
pub fn checksum(anchors: &[Vec<i32>]) -> (usize, i64) {
    let all = anchors.iter().flatten();
    let nonzero = all.clone().filter(|&&v| v != 0).count();
    (nonzero, all.map(|&v| i64::from(v.abs())).sum())
}

/// Packs quantized networks in the format `othello::eval::net::decode` reads.
pub fn encode_nets(q: &[Vec<Layer>]) -> String {
    let mut w = BitWriter::default();
    for layers in q {
        for (shift, values) in layers {
            let max_order = (1 << net::ORDER_BITS) - 1;
            let order = (0..=max_order)
                .min_by_key(|&k| {
                    values
                        .iter()
                        .map(|&v| exp_golomb_len(zigzag(v), k))
                        .sum::<u32>()
                })
                .unwrap_or(0);
            w.bits(u64::from(*shift), net::SHIFT_BITS);
            w.bits(u64::from(order), net::ORDER_BITS);
            for &v in values {
                w.signed(v, order);
            }
        }
    }
    w.finish()
}

/// The text of `src/eval/weights.rs` for networks.
pub fn nets_source(nets: &Nets, q: &[Vec<Layer>], summary: &str) -> String {
    let data = encode_nets(q);
    let tables = net::expand(&dequantize(q), &nets.hidden, &nets.groups);
    let (nonzero, sum) = checksum(&tables);
    let list = |v: &[String]| v.join(", ");
    let at: Vec<String> = nets.anchors.iter().map(u32::to_string).collect();
    let hidden: Vec<String> = nets.hidden.iter().map(usize::to_string).collect();
    let groups: Vec<String> = nets.groups.iter().map(usize::to_string).collect();
    let mut s = String::new();
    s.push_str("//! Pattern networks written by the `train` crate (docs/evaluation.md): do not edit.\n//!\n");
    for line in summary.lines() {
        s.push_str(&format!("//! {line}\n").replace("//! \n", "//!\n"));
    }
    s.push_str(&format!(
        "\n/// Empties of the anchor phases (one network output each); weights in\n\
         /// between are interpolated.\n\
         pub const ANCHORS: [u32; {}] = [{}];\n\
         /// Sizes of the networks' hidden layers.\n\
         pub const HIDDEN: [usize; {}] = [{}];\n\
         /// Outputs of each of a pattern's networks, in anchor order.\n\
         pub const GROUPS: [usize; {}] = [{}];\n\
         /// Non-zero entries of the expanded tables and the sum of their\n\
         /// magnitudes, in evaluation units: the expansion test's checksum.\n\
         pub const CHECKSUM: (usize, i64) = ({nonzero}, {sum});\n\
         /// The packed networks ({} characters; see `net::decode`).\n\
         pub const DATA: &str = \"{data}\";\n",
        at.len(),
        list(&at),
        hidden.len(),
        list(&hidden),
        groups.len(),
        list(&groups),
        data.chars().count(),
    ));
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::quantize_nets;
    use othello::eval::pack::{BASE, BITS_PER_CHAR};
    use othello::eval::pattern::PATTERNS;
    use rand::{Rng, SeedableRng};

    #[test]
    fn decoding_gives_back_the_quantized_networks() {
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(5);
        let nets = Nets {
            anchors: vec![0, 30, 45, 60],
            hidden: vec![5, 3],
            groups: vec![1, 3],
            params: Vec::new(),
        };
        let params: Vec<Vec<f32>> = (0..2 * PATTERNS.len())
            .map(|i| {
                let n = net::param_count(&nets.sizes(i));
                // Mostly small, a few large values, some zeros.
                (0..n)
                    .map(|_| match rng.gen_range(0..10) {
                        0..=1 => 0.0,
                        2..=8 => rng.gen_range(-1.0..1.0),
                        _ => rng.gen_range(-40.0..40.0),
                    })
                    .collect()
            })
            .collect();
        let nets = Nets { params, ..nets };
        for bits in [7, 9, 12] {
            let q = quantize_nets(&nets, bits);
            for (layers, p) in q.iter().zip(&nets.params) {
                let max = layers
                    .iter()
                    .flat_map(|l| &l.1)
                    .map(|v| v.unsigned_abs())
                    .max();
                assert!(max.unwrap() < 1 << bits, "{bits} bits: {max:?}");
                assert_eq!(layers.iter().map(|l| l.1.len()).sum::<usize>(), p.len());
            }
            let data = encode_nets(&q);
            assert!(data
                .chars()
                .all(|c| (BASE..BASE + (1 << BITS_PER_CHAR)).contains(&(c as u32))));
            let decoded = net::decode(&data, &nets.hidden, &nets.groups);
            assert_eq!(decoded, dequantize(&q));
            // The quantization error is at most half a step of each layer.
            for (i, layers) in q.iter().enumerate() {
                let steps = layers
                    .iter()
                    .flat_map(|(shift, v)| v.iter().map(move |_| 1.0 / (1u64 << shift) as f32));
                for ((d, p), step) in decoded[i].iter().zip(&nets.params[i]).zip(steps) {
                    assert!((d - p).abs() <= step / 2.0, "{d} vs {p}, step {step}");
                }
            }
        }
    }

    #[test]
    fn exp_golomb_lengths_match_the_writer() {
        for k in 0..6 {
            for x in [0, 1, 2, 7, 100, 65535] {
                let mut w = BitWriter::default();
                w.exp_golomb(x, k);
                assert_eq!(w.bit_len(), u64::from(exp_golomb_len(x, k)));
            }
        }
    }
}

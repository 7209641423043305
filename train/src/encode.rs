//! Quantizing the fitted weights and packing them into the Rust source
//! file `src/eval/weights.rs`, in the format that
//! `othello::eval::pattern::decode_anchors` reads.

use crate::fit::{canonical_map, Model};
use othello::eval::pack::{BASE, BITS_PER_CHAR};
use othello::eval::pattern::{
    self, BIAS_CODE_ORDER, CODE_ORDER_BITS, OFFSETS, PATTERNS, PHASE_SIZE,
};
use othello::eval::SCALE;

/// Writes bits most significant first into 15-bit characters.
#[derive(Default)]
pub struct BitWriter {
    out: String,
    buf: u64,
    len: u32,
}

/// Length in bits of the Exp-Golomb code of order `k` of `x`.
pub fn exp_golomb_len(x: u32, k: u32) -> u32 {
    let q = (u64::from(x) >> k) + 1;
    2 * (64 - q.leading_zeros()) - 1 + k
}

/// 0, -1, 1, -2, ... -> 0, 1, 2, 3, ...
fn zigzag(v: i32) -> u32 {
    ((v << 1) ^ (v >> 31)) as u32
}

impl BitWriter {
    /// Appends the low `n` bits of `value`.
    pub fn bits(&mut self, value: u64, n: u32) {
        for i in (0..n).rev() {
            self.buf = self.buf << 1 | (value >> i & 1);
            self.len += 1;
            if self.len == BITS_PER_CHAR {
                self.out
                    .push(char::from_u32(BASE + self.buf as u32).expect("BMP"));
                self.buf = 0;
                self.len = 0;
            }
        }
    }

    /// Appends the Exp-Golomb code of order `k` of `x`.
    pub fn exp_golomb(&mut self, x: u32, k: u32) {
        let q = (u64::from(x) >> k) + 1;
        let n = 64 - q.leading_zeros();
        self.bits(0, n - 1);
        self.bits(q, n);
        self.bits(u64::from(x), k);
    }

    /// Appends a signed number (zigzag form, order `k`).
    pub fn signed(&mut self, v: i32, k: u32) {
        self.exp_golomb(zigzag(v), k);
    }

    /// The characters, the last one padded with zeros.
    pub fn finish(mut self) -> String {
        if self.len > 0 {
            self.bits(0, BITS_PER_CHAR - self.len);
        }
        self.out
    }
}

/// Rounds the model to steps of `step` evaluation units; per anchor the
/// bias then [`PHASE_SIZE`] weights with mirrors filled in.
pub fn quantize(model: &Model, step: i32) -> Vec<Vec<i32>> {
    let canon = canonical_map();
    let scale = SCALE as f32 / step as f32;
    model
        .weights
        .chunks(1 + PHASE_SIZE)
        .map(|w| {
            let mut q = vec![(w[0] * scale).round() as i32];
            q.extend(
                canon
                    .iter()
                    .map(|&c| (w[1 + c as usize] * scale).round() as i32),
            );
            q
        })
        .collect()
}

/// Packs quantized anchors (mirrors tied) into characters.
pub fn encode(anchors: &[Vec<i32>]) -> String {
    encode_counting(anchors).0
}

/// [`encode`], and the bits spent on each pattern (all anchors together).
pub fn encode_counting(anchors: &[Vec<i32>]) -> (String, Vec<u64>) {
    let mut bits = vec![0u64; PATTERNS.len()];
    let mut w = BitWriter::default();
    for anchor in anchors {
        w.signed(anchor[0], BIAS_CODE_ORDER);
        for k in 0..PATTERNS.len() {
            let canon = pattern::canonical(k);
            let values: Vec<i32> = (0..canon.len())
                .filter(|&i| canon[i] as usize == i)
                .map(|i| anchor[1 + OFFSETS[k] + i])
                .collect();
            // Tokens: (zeros before, value), and a last run to the end.
            let mut tokens = Vec::new();
            let mut run = 0;
            for &v in values.iter() {
                if v == 0 {
                    run += 1;
                } else {
                    tokens.push((run, Some(zigzag(v) - 1)));
                    run = 0;
                }
            }
            tokens.push((run, None));
            let max_order = (1 << CODE_ORDER_BITS) - 1;
            let best = |f: &dyn Fn(u32) -> u32| (0..=max_order).min_by_key(|&k| f(k)).unwrap();
            let kr = best(&|k| tokens.iter().map(|&(r, _)| exp_golomb_len(r, k)).sum());
            let kv = best(&|k| {
                tokens
                    .iter()
                    .filter_map(|&(_, v)| v.map(|v| exp_golomb_len(v, k)))
                    .sum()
            });
            w.bits(u64::from(kr), CODE_ORDER_BITS);
            w.bits(u64::from(kv), CODE_ORDER_BITS);
            bits[k] += u64::from(2 * CODE_ORDER_BITS);
            for &(r, v) in tokens.iter() {
                w.exp_golomb(r, kr);
                bits[k] += u64::from(exp_golomb_len(r, kr));
                if let Some(v) = v {
                    w.exp_golomb(v, kv);
                    bits[k] += u64::from(exp_golomb_len(v, kv));
                }
            }
        }
    }
    (w.finish(), bits)
}

/// Non-zero entries and the sum of absolute values of expanded anchors:
/// the checksum the library's decoding test compares with.
pub fn checksum(anchors: &[Vec<i32>]) -> (usize, i64) {
    let all = anchors.iter().flatten();
    let nonzero = all.clone().filter(|&&v| v != 0).count();
    (nonzero, all.map(|&v| i64::from(v.abs())).sum())
}

/// The text of `src/eval/weights.rs`.
pub fn rust_source(anchors_at: &[u32], step: i32, anchors: &[Vec<i32>], summary: &str) -> String {
    let data = encode(anchors);
    let (nonzero, sum) = checksum(anchors);
    let at: Vec<String> = anchors_at.iter().map(u32::to_string).collect();
    let mut s = String::new();
    s.push_str("//! Pattern weights written by the `train` crate (docs/evaluation.md): do not edit.\n//!\n");
    for line in summary.lines() {
        s.push_str(&format!("//! {line}\n").replace("//! \n", "//!\n"));
    }
    s.push_str(&format!(
        "\n/// Empties of the anchor phases; weights in between are interpolated.\n\
         pub const ANCHORS: [u32; {}] = [{}];\n\
         /// Evaluation units per quantized step.\n\
         pub const STEP: i32 = {step};\n\
         /// Non-zero decoded weights (mirrors and biases included) and the sum of\n\
         /// their magnitudes, in steps: the decoding test's checksum.\n\
         pub const CHECKSUM: (usize, i64) = ({nonzero}, {sum});\n\
         /// The packed weights ({} characters; see `pattern::decode_anchors`).\n\
         pub const DATA: &str = \"{data}\";\n",
        at.len(),
        at.join(", "),
        data.chars().count(),
    ));
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    #[test]
    fn decoding_gives_back_the_quantized_weights() {
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(5);
        let canon = canonical_map();
        let anchors: Vec<Vec<i32>> = (0..3)
            .map(|a| {
                // Mostly zeros, a few small and a few large values.
                let raw: Vec<i32> = (0..PHASE_SIZE)
                    .map(|_| match rng.gen_range(0..10) {
                        0..=5 => 0,
                        6..=8 => rng.gen_range(-20..=20),
                        _ => rng.gen_range(-5000..=5000),
                    })
                    .collect();
                let mut q = vec![a * 1000 - 1234];
                q.extend(canon.iter().map(|&c| raw[c as usize]));
                q
            })
            .collect();
        let data = encode(&anchors);
        assert!(data
            .chars()
            .all(|c| (BASE..BASE + (1 << BITS_PER_CHAR)).contains(&(c as u32))));
        assert_eq!(pattern::decode_anchors(&data, anchors.len()), anchors);
    }

    #[test]
    fn exp_golomb_lengths_match_the_writer() {
        for k in 0..6 {
            for x in [0, 1, 2, 7, 100, 65535] {
                let mut w = BitWriter::default();
                w.exp_golomb(x, k);
                assert_eq!(
                    w.out.chars().count() as u32 * BITS_PER_CHAR + w.len,
                    exp_golomb_len(x, k)
                );
            }
        }
    }
}

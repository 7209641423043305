//! `train repack`: pattern networks quantized again at another precision,
//! without refitting (docs/training.md): the packed size and the held-out
//! error of the runtime tables, by ten empties and by each count of
//! empties, against the compiled weights; optionally the weights file.
//! `--weights FILE` reads another weights file's networks (a candidate
//! written by `train fit --out`) instead of the compiled ones.

use crate::cli::Options;
use crate::data::{data_or_corpus, load};
use crate::gen::Sample;
use crate::net::{dequantize, quantize_nets, Nets};
use crate::{encode, fit};
use othello::eval::pattern::Tables;
use othello::eval::{net, weights, SCALE};
use othello::Board;
use std::collections::BTreeMap;
use std::path::Path;

/// The networks of a weights file written by `train fit` (its `ANCHORS`,
/// `HIDDEN`, `GROUPS` and `DATA`).
///
/// # Errors
/// An unreadable file or one without those constants.
pub fn read_weights(path: &Path) -> Result<Nets, String> {
    let name = path.display();
    let text = std::fs::read_to_string(path).map_err(|e| format!("{name}: {e}"))?;
    let list = |key: &str| -> Result<Vec<usize>, String> {
        let at = text
            .find(&format!("pub const {key}:"))
            .ok_or_else(|| format!("{name}: no constant {key}"))?;
        let rest = &text[at..];
        let open = rest
            .find("= [")
            .ok_or_else(|| format!("{name}: {key}: no list"))?
            + 3;
        let close = rest[open..]
            .find(']')
            .ok_or_else(|| format!("{name}: {key}: no list"))?;
        rest[open..open + close]
            .split(',')
            .map(|v| {
                v.trim()
                    .parse()
                    .map_err(|_| format!("{name}: {key}: {v:?} is not a number"))
            })
            .collect()
    };
    let anchors: Vec<u32> = list("ANCHORS")?.into_iter().map(|a| a as u32).collect();
    let hidden = list("HIDDEN")?;
    let groups = list("GROUPS")?;
    let at = text
        .find("pub const DATA: &str = \"")
        .ok_or_else(|| format!("{name}: no constant DATA"))?
        + "pub const DATA: &str = \"".len();
    let end = text[at..]
        .find('"')
        .ok_or_else(|| format!("{name}: DATA is not closed"))?;
    let params = net::decode(&text[at..at + end], &hidden, &groups);
    Ok(Nets {
        anchors,
        hidden,
        groups,
        params,
    })
}

/// Error of `predict` on `samples`, by each count of empties.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Errors {
    empties: u32,
    /// Mean absolute error.
    mae: f64,
    /// Mean signed error, `label - predict`: the bias an evaluation leaves
    /// at this count. One that alternates between odd and even counts shows
    /// a parity the evaluation misjudges.
    bias: f64,
    /// Mean absolute error once `bias` is taken off every estimate: what a
    /// search can feel. A constant at one count of empties shifts every
    /// leaf of a fixed-depth search alike; only leaves reached through a
    /// pass or a game's end mix counts, so it barely moves a choice.
    centred: f64,
    positions: usize,
}

/// [`Errors`] of `predict` on `samples` by each count of empties, in
/// increasing order.
fn by_empties(samples: &[&Sample], predict: impl Fn(&Board) -> f64) -> Vec<Errors> {
    let mut errors: BTreeMap<u32, Vec<f64>> = BTreeMap::new();
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
fn mean_mae<'a>(rows: impl Iterator<Item = &'a Errors>) -> f64 {
    let (sum, n) = rows.fold((0.0, 0), |(sum, n), r| {
        (sum + r.mae * r.positions as f64, n + r.positions)
    });
    sum / n.max(1) as f64
}

/// `rows` summed by ten empties (0-9, ..., 60-69): (MAE, positions).
fn by_tens(rows: &[Errors]) -> Vec<(f64, usize)> {
    (0..7)
        .map(|b| {
            let of = || rows.iter().filter(move |r| r.empties / 10 == b);
            (mean_mae(of()), of().map(|r| r.positions).sum())
        })
        .collect()
}

/// Runs the command: `--bits` gives the precision (default 8, the
/// committed one).
pub fn run(o: &Options) -> Result<(), String> {
    let nets = match &o.weights {
        Some(path) => read_weights(path)?,
        None => Nets {
            anchors: weights::ANCHORS.to_vec(),
            hidden: weights::HIDDEN.to_vec(),
            groups: weights::GROUPS.to_vec(),
            params: net::decode(weights::DATA, &weights::HIDDEN, &weights::GROUPS),
        },
    };
    let quantized = quantize_nets(&nets, o.bits);
    let data = encode::encode_nets(&quantized);
    let params = dequantize(&quantized);
    let tables = Tables::new(
        &net::expand(&params, &nets.hidden, &nets.groups),
        &nets.anchors,
    );
    let groups = data_or_corpus(&o.data)?;
    let (samples, _) = load(&groups)?;
    let (_, valid) = fit::split(&samples, o.fit.holdout_every);
    let scale = f64::from(SCALE);
    let now = |b: &Board| f64::from(tables.evaluate(b)) / scale;
    let compiled = |b: &Board| f64::from(othello::eval::pattern::evaluate(b)) / scale;
    let count: usize = params.iter().map(Vec::len).sum();
    let chars = data.chars().count();
    println!(
        "{} bits: {chars} characters ({:.2} bits a parameter; compiled: {} characters)",
        o.bits,
        chars as f64 * f64::from(othello::eval::pack::BITS_PER_CHAR) / count as f64,
        weights::DATA.chars().count()
    );
    // What an ideal coder would need: each layer's values at their own
    // empirical entropy (a static model per layer, its table not counted).
    let mut ideal = 0.0;
    for layers in &quantized {
        for (_, v) in layers {
            let mut counts = std::collections::HashMap::new();
            for x in v {
                *counts.entry(*x).or_insert(0usize) += 1;
            }
            let n = v.len() as f64;
            ideal -= counts
                .values()
                .map(|&c| c as f64 * (c as f64 / n).log2())
                .sum::<f64>();
        }
    }
    println!(
        "entropy of each layer's values: {:.0} characters ({:.2} bits a parameter)",
        ideal / f64::from(othello::eval::pack::BITS_PER_CHAR),
        ideal / count as f64
    );
    // Each position is evaluated once by each side; the ten-empties lines
    // and the total are the per-count rows summed.
    let after = by_empties(&valid, now);
    let before = by_empties(&valid, compiled);
    for ((b, (e, n)), (old, _)) in by_tens(&after)
        .into_iter()
        .enumerate()
        .zip(by_tens(&before))
    {
        if n > 0 {
            println!(
                "empties {:>2}-{:>2}: validation MAE {e:.3}, compiled {old:.3} ({n} positions)",
                b * 10,
                b * 10 + 9
            );
        }
    }
    let all = |rows: &[Errors]| mean_mae(rows.iter());
    println!(
        "all: validation MAE {:.3}, compiled {:.3} ({} positions)",
        all(&after),
        all(&before),
        valid.len()
    );
    println!(
        "by empties (validation MAE, compiled; mean of label - estimate, compiled; MAE with \
         that mean taken off, compiled; positions):"
    );
    for (a, b) in after.iter().zip(&before) {
        println!(
            "  {:>2}: {:.3} {:.3} {:+.3} {:+.3} {:.3} {:.3} {}",
            a.empties, a.mae, b.mae, a.bias, b.bias, a.centred, b.centred, a.positions
        );
    }
    if let Some(out) = &o.out {
        let summary = format!(
            "The networks of {}, quantized again to {} magnitude bits per layer (`train repack \
             --bits {}`).",
            o.weights
                .as_ref()
                .map_or("the previous weights file".to_string(), |p| p
                    .file_name()
                    .unwrap_or_default()
                    .to_string_lossy()
                    .into_owned()),
            o.bits,
            o.bits
        );
        let source = encode::nets_source(&nets, &quantized, &summary);
        std::fs::write(out, source).map_err(|e| format!("{}: {e}", out.display()))?;
        println!("wrote {}", out.display());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// By each count of empties: the absolute, signed and centred errors
    /// and the count, worked out by hand.
    #[test]
    fn errors_by_empties_are_absolute_and_signed() {
        let start = Board::start();
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
    }

    /// The committed weights file reads back as the compiled networks.
    #[test]
    fn the_committed_weights_file_reads_as_the_compiled_networks() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let nets = read_weights(&root.join("src/eval/weights.rs")).unwrap();
        assert_eq!(nets.anchors, weights::ANCHORS);
        assert_eq!(nets.hidden, weights::HIDDEN);
        assert_eq!(nets.groups, weights::GROUPS);
        assert_eq!(
            nets.params,
            net::decode(weights::DATA, &weights::HIDDEN, &weights::GROUPS)
        );
        let e = read_weights(&root.join("Cargo.toml")).unwrap_err();
        assert!(e.contains("no constant ANCHORS"), "{e}");
    }
}

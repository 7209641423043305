//! `train repack`: pattern networks quantized again at another precision,
//! without refitting (docs/training.md): the packed size and the held-out
//! error of the runtime tables, by ten empties and by each count of
//! empties, against the compiled weights; optionally the weights file.
//! `--weights FILE` reads another weights file's networks (a candidate
//! written by `train fit --out`) instead of the compiled ones.

use crate::cli::Options;
use crate::data::{data_or_corpus, load};
use crate::net::{dequantize, quantize_nets, Nets};
use crate::{encode, fit};
use othello::eval::pattern::Tables;
use othello::eval::{net, weights, SCALE};
use othello::Board;
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
    let after = fit::by_empties(&valid, now);
    let before = fit::by_empties(&valid, compiled);
    for line in fit::tens_lines(&after, &before) {
        println!("{line}");
    }
    let all = |rows: &[fit::Errors]| fit::mean_mae(rows.iter());
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

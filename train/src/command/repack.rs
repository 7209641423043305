//! `train repack`: the compiled pattern networks quantized again at
//! another precision, without refitting (docs/training.md): the packed
//! size and the held-out error of the runtime tables, and optionally the
//! weights file.

use crate::cli::Options;
use crate::data::{data_or_corpus, load};
use crate::net::Nets;
use crate::{encode, fit};
use othello::eval::pattern::Tables;
use othello::eval::{net, weights, SCALE};
use std::path::PathBuf;

/// Runs the command: `--bits` gives the precision (default 8, the
/// committed one).
pub fn run(o: &Options) -> Result<(), String> {
    let nets = Nets {
        anchors: weights::ANCHORS.to_vec(),
        hidden: weights::HIDDEN.to_vec(),
        groups: weights::GROUPS.to_vec(),
        params: net::decode(weights::DATA, &weights::HIDDEN, &weights::GROUPS),
    };
    let quantized = encode::quantize_nets(&nets, o.bits);
    let data = encode::encode_nets(&quantized);
    let params = encode::dequantize(&quantized);
    let tables = Tables::new(
        &net::expand(&params, &nets.hidden, &nets.groups),
        &nets.anchors,
    );
    let groups = data_or_corpus(&o.data)?;
    let (samples, _) = load(&groups)?;
    let (_, valid) = fit::split(&samples, o.fit.holdout_every);
    let scale = f64::from(SCALE);
    let now = fit::mae_by_empties(&valid, |b| f64::from(tables.evaluate(b)) / scale);
    let before = fit::mae_by_empties(&valid, |b| {
        f64::from(othello::eval::pattern::evaluate(b)) / scale
    });
    let all = |m: &[(f64, usize)]| {
        let n: usize = m.iter().map(|x| x.1).sum();
        m.iter().map(|(e, k)| e * *k as f64).sum::<f64>() / n.max(1) as f64
    };
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
    for (b, ((e, n), (old, _))) in now.iter().zip(&before).enumerate() {
        println!(
            "empties {:>2}-{:>2}: validation MAE {e:.3}, compiled {old:.3} ({n} positions)",
            b * 10,
            b * 10 + 9
        );
    }
    println!(
        "all: validation MAE {:.3}, compiled {:.3}",
        all(&now),
        all(&before)
    );
    if let Some(out) = &o.out {
        let summary = format!(
            "The networks of the previous weights file, quantized again to {} magnitude bits per \
             layer (`train repack --bits {}`).",
            o.bits, o.bits
        );
        let source = encode::nets_source(&nets, &quantized, &summary);
        std::fs::write(out, source).map_err(|e| format!("{}: {e}", out.display()))?;
        println!("wrote {}", PathBuf::from(out).display());
    }
    Ok(())
}

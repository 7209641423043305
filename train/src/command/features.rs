//! `train features`: how much of the compiled evaluation's held-out error a
//! linear term in each feature the patterns do not see would explain
//! (`crate::features`).

use crate::cli::Options;
use crate::data::{data_or_corpus, load};
use crate::features::{by_empties, explain, Feature, BUCKETS, FEATURES};
use othello::eval::{pattern, SCALE};

/// `train features`: the intercept alone, one line per feature, then all
/// of them together; with `--by-empties N`, the evaluation's error by
/// count of empties instead.
pub fn run(o: &Options) -> Result<(), String> {
    let groups = data_or_corpus(&o.data)?;
    let (samples, _) = load(&groups)?;
    let residual = |s: &crate::gen::Sample| {
        f64::from(s.label) - f64::from(pattern::evaluate(&s.board)) / f64::from(SCALE)
    };
    if let Some(max_label) = o.by_empties {
        println!(
            "the compiled evaluation's error (label - evaluation, discs) by empties, \
             {} positions, labels within {max_label} discs of a draw",
            samples.len()
        );
        println!("empties   positions   mean     sd    MAE  |label|");
        for (e, at) in by_empties(&samples, max_label, residual).iter().enumerate() {
            if at.count > 0 {
                println!(
                    "{e:7} {:11} {:+6.2} {:6.2} {:6.2} {:8.2}",
                    at.count, at.mean, at.sd, at.mae, at.mean_abs_label
                );
            }
        }
        return Ok(());
    }
    let every = o.fit.holdout_every;
    println!(
        "validation MAE of the compiled evaluation (discs), before -> after a per-empties \
         linear term; {} positions, one game in {every} held out",
        samples.len()
    );
    println!("feature              | empties 0-9, 10-19, .., 50-59 | all");
    let all: Vec<&Feature> = FEATURES.iter().collect();
    // The intercept alone first: what the features add is measured from it.
    let sets = std::iter::once(("(intercept only)", Vec::new()))
        .chain(FEATURES.iter().map(|f| (f.name, vec![f])))
        .chain(std::iter::once(("all four", all)));
    for (name, set) in sets {
        let e = explain(&samples, every, residual, &set);
        let by: Vec<String> = (0..BUCKETS)
            .map(|b| format!("{:.2}->{:.2}", e.before[b], e.after[b]))
            .collect();
        println!(
            "{name:20} | {} | {:.3} -> {:.3}",
            by.join(" "),
            e.before[BUCKETS],
            e.after[BUCKETS]
        );
    }
    Ok(())
}

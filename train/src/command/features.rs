//! `train features`: how much of the compiled evaluation's held-out error a
//! linear term in each feature the patterns do not see would explain
//! (`crate::features`).

use crate::cli::Options;
use crate::data::{data_or_corpus, load};
use crate::features::{explain, Feature, BUCKETS, FEATURES};
use othello::eval::{pattern, SCALE};

/// `train features`: the intercept alone, one line per feature, then all
/// of them together.
pub fn run(o: &Options) -> Result<(), String> {
    let groups = data_or_corpus(&o.data)?;
    let (samples, _) = load(&groups)?;
    let residual = |s: &crate::gen::Sample| {
        f64::from(s.label) - f64::from(pattern::evaluate(&s.board)) / f64::from(SCALE)
    };
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

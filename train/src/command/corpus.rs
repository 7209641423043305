//! `train corpus`: one chunk of the search-labelled corpus.

use crate::cli::Options;
use crate::corpus;
use crate::data::CORPUS_DIR;
use crate::progress::bar;
use std::path::PathBuf;
use std::time::Instant;

/// `train corpus`: plays (or resumes) one chunk of the search-labelled
/// corpus, or one shard of it.
pub fn run(o: &Options) -> Result<(), String> {
    let cfg = &o.corpus;
    let out = o.out.clone().unwrap_or_else(|| {
        PathBuf::from(match cfg.shard {
            Some(s) => format!(
                "{CORPUS_DIR}/games-seed{}-shard{}of{}.bin",
                cfg.seed, s.index, s.count
            ),
            None => format!("{CORPUS_DIR}/games-seed{}.bin", cfg.seed),
        })
    });
    let start = Instant::now();
    println!("{}: {}", out.display(), cfg.header());
    let report = corpus::generate(cfg, &out, &bar(u64::from(cfg.file_games()), "games"))?;
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{}: {} games resumed, {} played ({} positions) in {:.0} s on {} thread(s): \
         {:.2} s a game, {:.0} games an hour",
        out.display(),
        report.resumed,
        report.played,
        report.positions,
        secs,
        cfg.threads,
        secs / f64::from(report.played.max(1)),
        f64::from(report.played) * 3600.0 / secs.max(1e-9)
    );
    Ok(())
}

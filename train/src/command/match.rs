//! `train match`: one evaluation against another under the same search.

use crate::arena;
use crate::cli::Options;
use crate::progress::bar;
use std::time::Instant;

/// `train match`: paired games of two evaluations under the same search.
pub fn run(o: &Options) -> Result<(), String> {
    let cfg = &o.arena;
    let start = Instant::now();
    let r = arena::run(cfg, &bar(u64::from(cfg.pairs) * 2, "games"));
    let rules = match cfg.depth {
        Some(d) => format!("depth {d}"),
        None => format!("{} ms per move", cfg.time_ms),
    };
    println!(
        "{:?} vs {:?}, alphabeta, {rules}, {} games from {}-ply random openings (seed {}), colours swapped:",
        cfg.evals[0], cfg.evals[1], r.games(), cfg.opening_plies, cfg.seed
    );
    println!(
        "  wins {} draws {} losses {}: score {:.1}%, mean disc difference {:+.2}; {:.0} s",
        r.wdl[0],
        r.wdl[1],
        r.wdl[2],
        100.0 * r.score(),
        r.discs as f64 / f64::from(r.games().max(1)),
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

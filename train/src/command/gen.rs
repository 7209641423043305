//! `train gen`: self-play positions labelled with the games' outcomes.

use crate::cli::Options;
use crate::gen::{self, Sample};
use crate::progress::bar;
use std::path::Path;
use std::time::Instant;

/// `train gen`: self-play games, their positions labelled with the games'
/// outcomes, saved to `--out`.
pub fn run(o: &Options) -> Result<(), String> {
    let out = o.out.clone().ok_or("gen: --out FILE is required")?;
    save(&generate(o)?, &out)
}

/// Plays the games of `o.gen` (its shard's only, if it names one).
pub fn generate(o: &Options) -> Result<Vec<Sample>, String> {
    let start = Instant::now();
    let games = o.gen.shard.map_or(o.gen.games, |s| s.items_of(o.gen.games));
    let samples = gen::generate(&o.gen, &bar(u64::from(games), "games"));
    println!(
        "generated {} positions from {} games in {:.0} s ({:?})",
        samples.len(),
        o.gen.games,
        start.elapsed().as_secs_f64(),
        o.gen
    );
    Ok(samples)
}

/// Writes `samples` to `path`, making its directory if needed.
pub fn save(samples: &[Sample], path: &Path) -> Result<(), String> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    let mut f = std::fs::File::create(path).map_err(|e| format!("{}: {e}", path.display()))?;
    gen::write(samples, &mut f).map_err(|e| format!("{}: {e}", path.display()))
}

//! `train all`: the whole pipeline from self-play games to the weights
//! file.

use super::fit::{fit_and_write, DEFAULT_BOOTSTRAP};
use super::gen::{generate, save};
use crate::cli::Options;
use crate::data::load;
use std::path::PathBuf;
use std::time::Instant;

/// Games per data file (and per seed) of `all`.
const CHUNK_GAMES: u32 = 4000;
/// Where `all` keeps the generated positions.
const DATA_DIR: &str = "train/data";

/// `train all`: self-play chunks of [`CHUNK_GAMES`] games, then the fit.
pub fn run(o: &Options) -> Result<(), String> {
    let start = Instant::now();
    // Chunks of CHUNK_GAMES games, seeds seed, seed + 1, ...: a longer run
    // extends a shorter one, and each chunk is saved as soon as it is done.
    let chunks = o.gen.games.div_ceil(CHUNK_GAMES).max(1);
    let mut files = Vec::new();
    for c in 0..chunks {
        let mut chunk = o.clone();
        chunk.gen.seed = o.gen.seed + u64::from(c);
        chunk.gen.games = CHUNK_GAMES.min(o.gen.games - c * CHUNK_GAMES);
        let path = PathBuf::from(format!("{DATA_DIR}/chunk-seed{}.bin", chunk.gen.seed));
        save(&generate(&chunk)?, &path)?;
        files.push(path);
    }
    let groups: Vec<Vec<PathBuf>> = files.iter().map(|f| vec![f.clone()]).collect();
    let (samples, _) = load(&groups)?;
    let mut o = o.clone();
    o.bootstrap = o.bootstrap.or(Some(DEFAULT_BOOTSTRAP));
    let o = &o;
    let g = &o.gen;
    let how = format!(
        "data: {} positions from {} self-play games (seeds {}..={}, up to {} games per seed; {}..{} random \
         opening plies, then depth-{} {:?} alpha-beta with {}% random moves; exact solver from \
         {} empties)",
        samples.len(),
        g.games,
        g.seed,
        g.seed + u64::from(chunks) - 1,
        CHUNK_GAMES,
        g.random_plies.0,
        g.random_plies.1,
        g.depth,
        g.eval,
        g.epsilon * 100.0,
        g.exact_empties
    );
    fit_and_write(o, &samples, &how)?;
    println!("pipeline took {:.0} s", start.elapsed().as_secs_f64());
    Ok(())
}

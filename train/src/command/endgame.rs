//! `train endgame`: one chunk of the strong-play endgame corpus
//! (`crate::endgame`, docs/training.md).

use crate::cli::Options;
use crate::endgame::{self, Games};
use crate::games::{read_games, Part};
use std::path::PathBuf;
use std::time::Instant;

/// The chunk's file when `--out` is not given.
pub fn default_out(o: &Options) -> PathBuf {
    let c = &o.endgame;
    let shard = c
        .shard
        .map_or(String::new(), |s| format!("-shard{}of{}", s.index, s.count));
    PathBuf::from(endgame::DIR).join(format!("chunk-seed{}{shard}.bin", c.seed))
}

/// Runs the command.
pub fn run(o: &Options) -> Result<(), String> {
    let c = &o.endgame;
    let from = &o.transition.from;
    if from.is_empty() {
        return Err("endgame needs --from FILE[,FILE..] (games files or transcripts)".into());
    }
    if c.empties.0 > c.empties.1 || c.children > c.empties.1 {
        return Err(format!(
            "--children {}: at most the last of --empties ({})",
            c.children, c.empties.1
        ));
    }
    // The games' own files: an endgame chunk's games are all its games.
    let games = Games::new(read_games(from, Part::All)?)?;
    let out = o.out.clone().unwrap_or_else(|| default_out(o));
    let start = Instant::now();
    let bar = crate::progress::bar(games.len() as u64, "games");
    let r = endgame::generate(c, &games, &out, &bar)?;
    bar.finish();
    eprintln!(
        "{}: {} games resumed, {} labelled now ({} positions) in {:.0} s",
        out.display(),
        r.resumed,
        r.labelled,
        r.positions,
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

//! `train relabel`: a corpus chunk's games labelled again by a deeper
//! search, into a chunk of their own.

use crate::cli::Options;
use crate::corpus::{self, CorpusConfig};
use crate::progress::bar;
use crate::relabel;
use std::time::Instant;

/// `train relabel --from CHUNK --depth D --out FILE [--games N]`: the
/// chunk's first N games (default: all) with their search labels made
/// again at depth D; resumes FILE.
pub fn run(o: &Options) -> Result<(), String> {
    let [from] = &o.transition.from[..] else {
        return Err("relabel: --from takes one corpus chunk".into());
    };
    let out = o.out.as_ref().ok_or("relabel: --out FILE is required")?;
    if out == from {
        return Err(format!(
            "relabel: --out {} is the chunk it reads",
            out.display()
        ));
    }
    let name = from.display();
    let bytes = std::fs::read(from).map_err(|e| format!("{name}: {e}"))?;
    if !corpus::is_chunk(&bytes) {
        return Err(format!("{name}: not a corpus chunk (`train corpus`)"));
    }
    let depth = o.depth_given.ok_or("relabel: --depth D is required")?;
    let chunk = corpus::parse_complete(&name.to_string(), &bytes)?;
    let header = relabel::header(&chunk.header, depth).map_err(|e| format!("{name}: {e}"))?;
    let exact = CorpusConfig::from_header(&chunk.header)
        .map_err(|e| format!("{name}: {e}"))?
        .exact_empties;
    let all = chunk.games.len() as u32;
    let games = o.games_given.map_or(all, |n| n.min(all));
    println!("{}: {header}", out.display());
    let start = Instant::now();
    let report = corpus::write_chunk(
        out,
        &header,
        games,
        o.corpus.threads,
        &bar(u64::from(games), "games"),
        |k| relabel::relabel_game(&chunk.games[k as usize], depth, exact),
    )?;
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{}: {} games resumed, {} relabelled ({} positions) in {secs:.0} s on {} thread(s): \
         {:.2} ms a position",
        out.display(),
        report.resumed,
        report.played,
        report.positions,
        o.corpus.threads,
        secs * 1000.0 / report.positions.max(1) as f64
    );
    Ok(())
}

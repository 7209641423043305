//! `train mpc`: Multi-ProbCut's deviations, fitted and written as
//! `src/search/mpc_table.rs`.

use crate::cli::Options;
use crate::mpc;
use crate::progress::bar;
use indicatif::ProgressBar;
use std::path::PathBuf;
use std::time::Instant;

/// Where `mpc` writes the table, relative to the workspace root.
const MPC_TABLE_PATH: &str = "src/search/mpc_table.rs";
/// Positions `mpc` takes from each self-play game.
const MPC_PER_GAME: usize = 2;
/// `mpc`'s deepest measured depth when `--max-depth` is not given.
const MPC_MAX_DEPTH: u32 = 10;
/// Positions `mpc` measures between two appends to the values file.
const MPC_CHUNK: usize = 100;

/// `train mpc`: measures (or resumes measuring) self-play positions at
/// every depth and writes Multi-ProbCut's table.
pub fn run(o: &Options) -> Result<(), String> {
    let start = Instant::now();
    let max_depth = o.max_depth.unwrap_or(MPC_MAX_DEPTH);
    // The values file is written chunk by chunk: an interrupted run resumes
    // where it stopped (positions are reproducible from the seed).
    let mut rows = match &o.values {
        Some(path) if path.exists() => {
            let text =
                std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
            mpc::from_text(&text).map_err(|e| format!("{}: {e}", path.display()))?
        }
        _ => Vec::new(),
    };
    if rows.len() < o.positions {
        let mut cfg = o.gen.clone();
        cfg.games = o.positions.div_ceil(MPC_PER_GAME) as u32;
        let mut boards = mpc::positions(&cfg, MPC_PER_GAME, &bar(u64::from(cfg.games), "games"));
        boards.truncate(o.positions);
        if let Some(i) = rows.iter().zip(&boards).position(|(r, b)| r.board != *b) {
            return Err(format!(
                "mpc: line {} of the values file is not this seed's position {}: \
                 another seed or generator made it",
                i + 1,
                i + 1
            ));
        }
        while rows.len() < boards.len() {
            let chunk = &boards[rows.len()..(rows.len() + MPC_CHUNK).min(boards.len())];
            let done = mpc::measure(chunk, max_depth, o.gen.threads, &ProgressBar::hidden());
            if let Some(path) = &o.values {
                if let Some(dir) = path.parent() {
                    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
                }
                let mut f = std::fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(path)
                    .map_err(|e| format!("{}: {e}", path.display()))?;
                std::io::Write::write_all(&mut f, mpc::to_text(&done).as_bytes())
                    .map_err(|e| format!("{}: {e}", path.display()))?;
            }
            rows.extend(done);
            println!(
                "measured {}/{} positions to depth {} ({:.0} s)",
                rows.len(),
                boards.len(),
                max_depth,
                start.elapsed().as_secs_f64()
            );
        }
    }
    rows.truncate(o.positions);
    let (cells, all) = mpc::fit(&rows);
    println!("depth shallow  phase(empties)  n  sigma  [regression: slope intercept residual]");
    for d in othello::search::mpc::MIN_DEPTH as usize..cells.len() {
        let s = othello::search::mpc::shallow_depth(d as u32);
        for (b, c) in cells[d].iter().enumerate().filter(|(_, c)| c.n > 0) {
            println!(
                "{d:>5} {s:>7}  {:>2}-{:<2}  {:>6} {:6.2}  [{:.3} {:+.2} {:.2}]",
                b * 10,
                b * 10 + 9,
                c.n,
                c.rms,
                c.slope,
                c.intercept,
                c.residual
            );
        }
        let a = all[d];
        println!(
            "{d:>5} {s:>7}  all    {:>6} {:6.2}  [{:.3} {:+.2} {:.2}]",
            a.n, a.rms, a.slope, a.intercept, a.residual
        );
    }
    let source = match &o.values {
        Some(path) => format!(
            "{} positions from {} (2 per self-play game), measured to depth {}.",
            rows.len(),
            path.display(),
            rows.iter().map(|m| m.values.len()).min().unwrap_or(1) - 1
        ),
        None => format!("{} self-play positions.", rows.len()),
    };
    let table = mpc::table(&cells, &all);
    let out = o
        .out
        .clone()
        .unwrap_or_else(|| PathBuf::from(MPC_TABLE_PATH));
    std::fs::write(&out, mpc::rust_source(&table, &source))
        .map_err(|e| format!("{}: {e}", out.display()))?;
    println!("wrote {}", out.display());
    Ok(())
}

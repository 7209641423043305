//! `train bench`: othello's bench with two evaluations.

use crate::cli::Options;

/// `train bench`: the fixed-depth search of othello's bench with each
/// evaluation of `--evals`: nodes, time and speed.
pub fn run(o: &Options) -> Result<(), String> {
    let depth = o.arena.depth.unwrap_or(othello::bench::DEFAULT_DEPTH);
    for eval in o.arena.evals {
        let r = othello::bench::run_with(depth, eval, true);
        println!(
            "{eval:?}: depth {depth}, nodes {}, time {} ms, nps {:.0}",
            r.nodes,
            r.elapsed.as_millis(),
            r.nps()
        );
    }
    Ok(())
}

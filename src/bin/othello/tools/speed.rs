//! `othello perft` and `othello bench`: the engine's speed tools (left out
//! of the submission, docs/bundle.md).

use crate::cli::{number, parse_eval};
use othello::eval::EvalKind;
use othello::{perft, Board};
use std::time::Instant;

/// The deepest `perft` accepted: about an hour on one core (depth 11
/// takes 0.4 s, and every ply multiplies the count by about 8).
pub const MAX_PERFT_DEPTH: u32 = 15;

/// Options of `bench`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BenchOptions {
    /// `--depth N` (default [`othello::bench::DEFAULT_DEPTH`]).
    pub depth: Option<u32>,
    /// `--eval NAME` (default classic, for a stable signature).
    pub eval: EvalKind,
    /// Multi-ProbCut on (the default) or off (`--full-width`).
    pub selective: bool,
}

/// The arguments after `perft`: `DEPTH`.
pub fn parse_perft<'a>(mut it: impl Iterator<Item = &'a String>) -> Result<u32, String> {
    let depth = number("perft", it.next())?;
    if depth > MAX_PERFT_DEPTH {
        return Err(format!(
            "perft: depth {depth} cannot finish (each ply costs about 8 times the one \
             before: depth 11 takes under a second, {MAX_PERFT_DEPTH} about an hour); \
             give at most {MAX_PERFT_DEPTH}"
        ));
    }
    if let Some(extra) = it.next() {
        return Err(format!("perft: unexpected argument {extra:?}"));
    }
    Ok(depth)
}

/// The arguments after `bench`: `[--depth N] [--eval NAME] [--full-width]`.
pub fn parse_bench<'a>(mut it: impl Iterator<Item = &'a String>) -> Result<BenchOptions, String> {
    let mut options = BenchOptions {
        depth: None,
        eval: EvalKind::Classic,
        selective: true,
    };
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--depth" => options.depth = Some(number("--depth", it.next())?),
            "--eval" => options.eval = parse_eval(it.next())?,
            "--full-width" => options.selective = false,
            _ => return Err(format!("bench: unknown argument {arg:?}")),
        }
    }
    Ok(options)
}

/// `othello perft DEPTH`: the leaf count, then the time and speed.
pub fn run_perft(depth: u32) {
    let start = Instant::now();
    let count = perft::perft(&Board::start(), depth);
    let secs = start.elapsed().as_secs_f64();
    println!("{count}");
    println!(
        "depth {depth}: {:.3} s, {:.1} M leaves/s",
        secs,
        count as f64 / secs.max(1e-9) / 1e6
    );
}

/// `othello bench`: the node signature, time and speed.
pub fn run_bench(options: &BenchOptions) {
    let depth = options.depth.unwrap_or(othello::bench::DEFAULT_DEPTH);
    let r = othello::bench::run_with(depth, options.eval, options.selective);
    println!(
        "positions {} depth {depth} eval {:?}{}",
        othello::bench::POSITIONS,
        options.eval,
        if options.selective { "" } else { " full-width" }
    );
    println!("nodes {}", r.nodes);
    println!("time {} ms", r.elapsed.as_millis());
    println!("nps {:.0}", r.nps());
    println!("isa {}", othello::dispatch::Isa::detect().name());
}

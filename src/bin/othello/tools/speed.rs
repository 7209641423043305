//! `othello perft` and `othello bench`: the engine's speed tools (left out
//! of the submission, docs/bundle.md).

use crate::cli::{number, parse_eval, positive};
use othello::eval::EvalKind;
use othello::{perft, Board};
use std::time::Instant;

/// The deepest `perft` accepted: about an hour on one core (depth 11
/// takes 0.4 s, and every ply multiplies the count by about 8).
pub const MAX_PERFT_DEPTH: u32 = 15;

/// Options of `bench`.
#[derive(Clone, Debug, PartialEq)]
pub struct BenchOptions {
    /// `--depth N` (default [`othello::bench::DEFAULT_DEPTH`]).
    pub depth: Option<u32>,
    /// `--eval NAME` (default classic for the fixed positions, for a
    /// stable signature; pattern, the bot's, for `--positions`).
    pub eval: EvalKind,
    /// Multi-ProbCut on (the default) or off (`--full-width`).
    pub selective: bool,
    /// `--positions FILE`: that file's positions instead of the fixed ones
    /// (`tools/positions.rs`).
    pub positions: Option<String>,
    /// `--time-ms T` (with `--positions` only): each position under the
    /// bot's hard budget of T ms instead of to a depth.
    pub time_ms: Option<u64>,
    /// `--list` (with `--positions` only): one line per position.
    pub list: bool,
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

/// The arguments after `bench`: `[--depth N] [--eval NAME] [--full-width]`,
/// and `[--positions FILE [--time-ms T] [--list]]`.
pub fn parse_bench<'a>(mut it: impl Iterator<Item = &'a String>) -> Result<BenchOptions, String> {
    let mut options = BenchOptions {
        depth: None,
        eval: EvalKind::Classic,
        selective: true,
        positions: None,
        time_ms: None,
        list: false,
    };
    let mut eval = None;
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--depth" => options.depth = Some(number("--depth", it.next())?),
            "--eval" => eval = Some(parse_eval(it.next())?),
            "--full-width" => options.selective = false,
            "--positions" => {
                let file = it.next().ok_or("bench: --positions needs a file")?;
                options.positions = Some(file.clone());
            }
            "--time-ms" => options.time_ms = Some(positive("--time-ms", it.next())?),
            "--list" => options.list = true,
            _ => return Err(format!("bench: unknown argument {arg:?}")),
        }
    }
    if options.positions.is_none() {
        for (flag, given) in [
            ("--time-ms", options.time_ms.is_some()),
            ("--list", options.list),
        ] {
            if given {
                return Err(format!("bench: {flag} needs --positions FILE"));
            }
        }
    }
    if options.depth.is_some() && options.time_ms.is_some() {
        return Err("bench: give --depth or --time-ms, not both".into());
    }
    options.eval = eval.unwrap_or(if options.positions.is_some() {
        EvalKind::Pattern
    } else {
        EvalKind::Classic
    });
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

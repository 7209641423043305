//! The command line of the `othello` binary, parsed without I/O so that
//! tests can check every error.

use crate::eval::EvalKind;
use crate::search::{DEFAULT_STRATEGY, STRATEGY_NAMES};

/// The usage text printed by `--help` and after an argument error.
pub const USAGE: &str = "\
usage:
  othello [OPTIONS]          play on CodinGame's protocol (stdin/stdout)
  othello perft DEPTH        count leaves from the start position
  othello bench [--depth N]  fixed-depth search of fixed positions: nodes, time, nps
  othello --help

options of the bot:
  --strategy NAME   alphabeta (default), minimax, greedy, random
  --depth N         search to a fixed depth N (alphabeta, minimax)
  --time-ms N       hard budget per move in ms (default 120; first move 1000)
  --nodes N         stop after N nodes (reproducible runs)
  --eval NAME       pattern (default, trained), classic, disc, disc-noise (seed 004)
  --seed N          seed of every random choice (default: $OTHELLO_SEED, else 0)
";

/// What the binary was asked to do.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// Play the CodinGame protocol.
    Bot(BotOptions),
    /// `perft DEPTH`.
    Perft(u32),
    /// `bench [--depth N]`.
    Bench(Option<u32>),
    /// `--help`.
    Help,
}

/// How the bot plays.
#[derive(Clone, Debug, PartialEq)]
pub struct BotOptions {
    /// The strategy's name.
    pub strategy: String,
    /// `--depth`.
    pub depth: Option<u32>,
    /// `--time-ms`.
    pub time_ms: Option<u64>,
    /// `--nodes`.
    pub nodes: Option<u64>,
    /// `--eval`.
    pub eval: EvalKind,
    /// `--seed` (None: the caller falls back to `$OTHELLO_SEED`, then 0).
    pub seed: Option<u64>,
}

impl Default for BotOptions {
    fn default() -> BotOptions {
        BotOptions {
            strategy: DEFAULT_STRATEGY.to_string(),
            depth: None,
            time_ms: None,
            nodes: None,
            eval: EvalKind::Pattern,
            seed: None,
        }
    }
}

fn number<T: core::str::FromStr>(flag: &str, value: Option<&String>) -> Result<T, String> {
    let value = value.ok_or_else(|| format!("{flag} needs a value"))?;
    value
        .parse()
        .map_err(|_| format!("{flag}: expected a non-negative number, found {value:?}"))
}

/// Parses the arguments after the program name.
///
/// # Errors
/// A one-line message for an unknown flag, a missing or bad value, or an
/// unknown subcommand.
pub fn parse(args: &[String]) -> Result<Command, String> {
    let mut it = args.iter();
    match args.first().map(String::as_str) {
        Some("perft") => {
            it.next();
            let depth = number("perft", it.next())?;
            if let Some(extra) = it.next() {
                return Err(format!("perft: unexpected argument {extra:?}"));
            }
            return Ok(Command::Perft(depth));
        }
        Some("bench") => {
            it.next();
            let mut depth = None;
            while let Some(arg) = it.next() {
                match arg.as_str() {
                    "--depth" => depth = Some(number("--depth", it.next())?),
                    _ => return Err(format!("bench: unknown argument {arg:?}")),
                }
            }
            return Ok(Command::Bench(depth));
        }
        _ => {}
    }
    let mut options = BotOptions::default();
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--help" | "-h" => return Ok(Command::Help),
            "--strategy" => {
                let name = it.next().ok_or("--strategy needs a value")?;
                if !STRATEGY_NAMES.contains(&name.as_str()) {
                    return Err(format!(
                        "--strategy: unknown strategy {name:?} (known: {})",
                        STRATEGY_NAMES.join(", ")
                    ));
                }
                options.strategy = name.clone();
            }
            "--depth" => {
                let d: u32 = number("--depth", it.next())?;
                if d == 0 || d > 60 {
                    return Err(format!("--depth: must be 1..60, found {d}"));
                }
                options.depth = Some(d);
            }
            "--time-ms" => {
                let t: u64 = number("--time-ms", it.next())?;
                if t == 0 {
                    return Err("--time-ms: must be at least 1".into());
                }
                options.time_ms = Some(t);
            }
            "--nodes" => options.nodes = Some(number("--nodes", it.next())?),
            "--seed" => options.seed = Some(number("--seed", it.next())?),
            "--eval" => {
                let name = it.next().ok_or("--eval needs a value")?;
                options.eval = EvalKind::parse(name).ok_or_else(|| {
                    format!(
                        "--eval: unknown evaluation {name:?} (known: {})",
                        EvalKind::NAMES.join(", ")
                    )
                })?;
            }
            other => return Err(format!("unknown argument {other:?}")),
        }
    }
    Ok(Command::Bot(options))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn parses_the_documented_forms() {
        assert_eq!(parse(&args("")), Ok(Command::Bot(BotOptions::default())));
        assert_eq!(parse(&args("perft 9")), Ok(Command::Perft(9)));
        assert_eq!(parse(&args("bench")), Ok(Command::Bench(None)));
        assert_eq!(parse(&args("bench --depth 6")), Ok(Command::Bench(Some(6))));
        assert_eq!(parse(&args("--help")), Ok(Command::Help));
        let Ok(Command::Bot(o)) = parse(&args(
            "--strategy minimax --depth 3 --seed 7 --eval disc-noise",
        )) else {
            panic!("not a bot command")
        };
        assert_eq!(
            (o.strategy.as_str(), o.depth, o.seed, o.eval),
            ("minimax", Some(3), Some(7), EvalKind::DiscNoise)
        );
    }

    #[test]
    fn rejects_bad_arguments_with_a_message() {
        for bad in [
            "--bogus",
            "--depth",
            "--depth x",
            "--depth 0",
            "--strategy nope",
            "--eval nope",
            "perft",
            "perft x",
            "bench --fast",
            "--time-ms 0",
        ] {
            let e = parse(&args(bad)).unwrap_err();
            assert!(!e.is_empty(), "{bad}");
        }
    }
}

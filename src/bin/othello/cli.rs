//! The bot's command line, parsed without I/O so that tests can check
//! every error, and the number parsing the tools' commands share. The
//! tools' commands are `tools/`'s: `main.rs` asks them first. This module
//! uses neither.
//!
//! The CodinGame submission, which is run without arguments, knows only
//! `--depth`, `--time-ms` and `--help` (the bundle's tests use the first
//! two): the other options and their fields are under
//! `#[cfg(not(cargo_equip))]` (docs/bundle.md).

#[cfg(not(cargo_equip))]
use othello::eval::EvalKind;
use othello::search::Limits;
#[cfg(not(cargo_equip))]
use othello::search::{
    self, DEFAULT_STRATEGY, MCTS_DEFAULT_C, NMC_DEFAULT_LEVEL, NMC_MAX_LEVEL, STRATEGY_NAMES,
};
use othello::time::Deadline;

/// The usage text printed by `--help` and after an argument error.
#[cfg(not(cargo_equip))]
pub const USAGE: &str = "\
usage:
  othello [OPTIONS]          play on CodinGame's protocol (stdin/stdout)
  othello perft DEPTH        count leaves from the start position (DEPTH <= 15)
  othello bench [--depth N] [--eval NAME] [--full-width]
                             fixed-depth search of fixed positions: nodes, time, nps
                             (the node signature is that of the default: classic,
                             Multi-ProbCut on; --full-width turns it off)
  othello bench --positions FILE [--depth N | --time-ms T] [--list] [--eval NAME]
                [--full-width]
                             each position of FILE (transcripts or OBF lines) with a
                             fresh table, to depth N (default 11) or under the bot's
                             hard budget of T ms (depth reached: mean, median, lowest);
                             default eval pattern; --list: each position
  othello solve FILE.obf [--wld] [--time-ms T]
                             solve each position of an Edax OBF file exactly
                             (or win/loss/draw), T ms at most per position;
                             over 36 empties needs --time-ms
  othello playouts [--moves TRANSCRIPT] [--games N] [--seed S]
                             N random games after each legal move (default 10000):
                             mean final disc difference and win rate as an 8x8 table
  othello playouts --speed [--moves TRANSCRIPT] [--games N]
                             random playouts per second, each kernel (default 1000000)
  othello book [TRANSCRIPT]  the opening book: its size and principal line, or the
                             book move and value of the position after TRANSCRIPT
  othello transition FILE [--cold] [--list] [--passes [CUTS]] [--cap-ms MS] [OPTIONS]
                             the bot (with OPTIONS) on each position of a transition
                             bench as a later turn, judged by the file's exact
                             scores: mean loss, mistakes, results given away
                             and time by empties
                             (--cold: no warming turn; --list: each position;
                             --passes: instead of the turn, the solver's selective
                             passes of CUTS (comma-separated cuts in hundredths of
                             a deviation, e.g. 110,150,200; default: all the
                             bot's, whose last it skips below 22 empties) then the
                             exact search, each timed, MS at most a position
                             (default 5000))
  othello --help, othello TOOL --help
                             this text

options of the bot:
  --strategy NAME   alphabeta (default), minimax, greedy, random, pmc, mcts, nmc
  --depth N         search to a fixed depth N (alphabeta, minimax), with no time
                    limit unless --time-ms is also given
  --time-ms N       hard budget per move in ms (default 130, 135 at 20-26 empties,
                    first move 1000, all shortened on a loaded machine; a given
                    N is kept)
  --nodes N         stop after N nodes (reproducible runs)
  --eval NAME       pattern (default, trained), classic, disc, disc-noise (seed 004)
  --full-width      alphabeta: no Multi-ProbCut (with --depth: the evaluation's
                    knowledge per ply, without its pruning)
  --exact E         alphabeta: solve exactly from E empties (default 20; 0: never);
                    with --depth too, where it is otherwise off (an engine level
                    of depth N, exact from 2N: --depth N --exact 2N)
  --seed N          seed of every random choice (default: $OTHELLO_SEED, else 0)
  --book, --no-book play the opening book's moves, or not (default: alphabeta with
                    no --depth or --nodes plays them; docs/book.md)
  --book-margin D   play a seeded choice among book moves within D discs of the
                    best (default 0: the best)
  --playouts N      pmc, mcts, nmc: playouts per move (default: until the deadline)
  --playout-depth D pmc, mcts, nmc: stop playouts after D plies, judge by discs
  --c X             mcts: UCB1 exploration constant (default 0.35)
  --level L         nmc: nesting level 1..3 (default 2)
";

/// The usage text of the CodinGame submission, which has the bot only and
/// its two limits (docs/bundle.md).
#[cfg(cargo_equip)]
pub const USAGE: &str = "usage: othello [--depth N] [--time-ms N] (see the crate's --help)\n";

/// What the bot's arguments ask for.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// Play the CodinGame protocol.
    Bot(BotOptions),
    /// `--help`.
    Help,
}

/// How the bot plays.
#[derive(Clone, Debug, PartialEq)]
pub struct BotOptions {
    /// The strategy's name.
    #[cfg(not(cargo_equip))]
    pub strategy: String,
    /// `--depth`.
    pub depth: Option<u32>,
    /// `--time-ms`.
    pub time_ms: Option<u64>,
    /// `--nodes`.
    #[cfg(not(cargo_equip))]
    pub nodes: Option<u64>,
    /// `--eval`.
    #[cfg(not(cargo_equip))]
    pub eval: EvalKind,
    /// `--full-width`: Multi-ProbCut off.
    #[cfg(not(cargo_equip))]
    pub full_width: bool,
    /// `--exact`: solve exactly from this many empties, also at a fixed depth.
    #[cfg(not(cargo_equip))]
    pub exact: Option<u32>,
    /// `--seed` (None: the caller falls back to `$OTHELLO_SEED`, then 0).
    #[cfg(not(cargo_equip))]
    pub seed: Option<u64>,
    /// `--book` / `--no-book` (None: [`BotOptions::uses_book`]'s default).
    #[cfg(not(cargo_equip))]
    pub book: Option<bool>,
    /// `--book-margin`: discs below the best a book move may be.
    #[cfg(not(cargo_equip))]
    pub book_margin: u32,
    /// `--playouts`.
    #[cfg(not(cargo_equip))]
    pub playouts: Option<u64>,
    /// `--playout-depth`.
    #[cfg(not(cargo_equip))]
    pub playout_depth: Option<u32>,
    /// `--c`.
    #[cfg(not(cargo_equip))]
    pub c: f64,
    /// `--level`.
    #[cfg(not(cargo_equip))]
    pub level: u32,
}

impl BotOptions {
    /// Whether the bot plays the opening book: as `--book`/`--no-book`
    /// say, else when it plays alphabeta under the clock (a fixed depth or
    /// node count measures the engine, not the book).
    #[cfg(not(cargo_equip))]
    pub fn uses_book(&self) -> bool {
        self.book.unwrap_or(
            self.strategy == DEFAULT_STRATEGY && self.depth.is_none() && self.nodes.is_none(),
        )
    }

    /// The submission's: under the clock, that is without `--depth`.
    #[cfg(cargo_equip)]
    pub fn uses_book(&self) -> bool {
        self.depth.is_none()
    }

    /// The seed: `--seed`, else `$OTHELLO_SEED`, else 0.
    #[cfg(not(cargo_equip))]
    pub fn seed(&self) -> u64 {
        self.seed.unwrap_or_else(|| {
            std::env::var("OTHELLO_SEED")
                .ok()
                .and_then(|s| s.trim().parse().ok())
                .unwrap_or(0)
        })
    }

    /// The limits of a turn that started at `start` with a hard budget of
    /// `budget_ms`: a fixed depth is searched in full unless a time is
    /// also given.
    pub fn limits(&self, start: std::time::Instant, budget_ms: u64) -> Limits {
        let deadline = if self.depth.is_some() && self.time_ms.is_none() {
            Deadline::unlimited()
        } else {
            Deadline::new(start, std::time::Duration::from_millis(budget_ms))
        };
        Limits {
            deadline,
            depth: self.depth,
            #[cfg(not(cargo_equip))]
            nodes: self.nodes,
            #[cfg(cargo_equip)]
            nodes: None,
        }
    }

    /// The settings of the strategy these options build.
    #[cfg(not(cargo_equip))]
    pub fn config(&self) -> search::Config {
        search::Config {
            seed: self.seed(),
            eval: self.eval,
            selective: !self.full_width,
            exact: self.exact,
            playouts: self.playouts,
            playout_depth: self.playout_depth,
            c: self.c,
            level: self.level,
            progress: search::Progress::default(),
        }
    }
}

impl Default for BotOptions {
    fn default() -> BotOptions {
        BotOptions {
            #[cfg(not(cargo_equip))]
            strategy: DEFAULT_STRATEGY.to_string(),
            depth: None,
            time_ms: None,
            #[cfg(not(cargo_equip))]
            nodes: None,
            #[cfg(not(cargo_equip))]
            eval: EvalKind::Pattern,
            #[cfg(not(cargo_equip))]
            full_width: false,
            #[cfg(not(cargo_equip))]
            exact: None,
            #[cfg(not(cargo_equip))]
            seed: None,
            #[cfg(not(cargo_equip))]
            book: None,
            #[cfg(not(cargo_equip))]
            book_margin: 0,
            #[cfg(not(cargo_equip))]
            playouts: None,
            #[cfg(not(cargo_equip))]
            playout_depth: None,
            #[cfg(not(cargo_equip))]
            c: MCTS_DEFAULT_C,
            #[cfg(not(cargo_equip))]
            level: NMC_DEFAULT_LEVEL,
        }
    }
}

/// The number after `flag`.
pub fn number<T: core::str::FromStr>(flag: &str, value: Option<&String>) -> Result<T, String> {
    let value = value.ok_or_else(|| format!("{flag} needs a value"))?;
    value
        .parse()
        .map_err(|_| format!("{flag}: expected a non-negative number, found {value:?}"))
}

/// Parses the bot's arguments (those after the program name that name no
/// tool).
///
/// # Errors
/// A one-line message for an unknown flag or a missing or bad value.
pub fn parse(args: &[String]) -> Result<Command, String> {
    let mut it = args.iter();
    let mut options = BotOptions::default();
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--help" | "-h" => return Ok(Command::Help),
            #[cfg(not(cargo_equip))]
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
            #[cfg(not(cargo_equip))]
            "--nodes" => options.nodes = Some(number("--nodes", it.next())?),
            #[cfg(not(cargo_equip))]
            "--seed" => options.seed = Some(number("--seed", it.next())?),
            #[cfg(not(cargo_equip))]
            "--eval" => options.eval = parse_eval(it.next())?,
            #[cfg(not(cargo_equip))]
            "--full-width" => options.full_width = true,
            #[cfg(not(cargo_equip))]
            "--book" => options.book = Some(true),
            #[cfg(not(cargo_equip))]
            "--no-book" => options.book = Some(false),
            #[cfg(not(cargo_equip))]
            "--book-margin" => {
                let d: u32 = number("--book-margin", it.next())?;
                if d > 64 {
                    return Err(format!("--book-margin: must be 0..64, found {d}"));
                }
                options.book_margin = d;
            }
            #[cfg(not(cargo_equip))]
            "--exact" => {
                let n: u32 = number("--exact", it.next())?;
                if n > 60 {
                    return Err(format!("--exact: must be 0..60, found {n}"));
                }
                options.exact = Some(n);
            }
            #[cfg(not(cargo_equip))]
            other => match monte_carlo_flag(other, &mut it, &mut options) {
                Some(set) => set?,
                None => return Err(format!("unknown argument {other:?}")),
            },
            #[cfg(cargo_equip)]
            other => return Err(format!("unknown argument {other:?}")),
        }
    }
    Ok(Command::Bot(options))
}

/// The Monte Carlo strategies' flags: `Some` if `flag` is one (its value
/// taken from `it`), `None` if it is not.
#[cfg(not(cargo_equip))]
fn monte_carlo_flag(
    flag: &str,
    it: &mut dyn Iterator<Item = &String>,
    options: &mut BotOptions,
) -> Option<Result<(), String>> {
    Some(match flag {
        "--playouts" => positive(flag, it.next()).map(|n| options.playouts = Some(n)),
        "--playout-depth" => positive(flag, it.next()).map(|n| options.playout_depth = Some(n)),
        "--c" => exploration(it.next()).map(|c| options.c = c),
        "--level" => level(it.next()).map(|l| options.level = l),
        _ => return None,
    })
}

/// The value of `--c`: a finite number, at least 0.
#[cfg(not(cargo_equip))]
fn exploration(value: Option<&String>) -> Result<f64, String> {
    let value = value.ok_or("--c needs a value")?;
    value
        .parse()
        .ok()
        .filter(|c: &f64| c.is_finite() && *c >= 0.0)
        .ok_or_else(|| format!("--c: expected a number >= 0, found {value:?}"))
}

/// The value of `--level`: 1 to [`NMC_MAX_LEVEL`].
#[cfg(not(cargo_equip))]
fn level(value: Option<&String>) -> Result<u32, String> {
    let level: u32 = number("--level", value)?;
    if !(1..=NMC_MAX_LEVEL).contains(&level) {
        return Err(format!(
            "--level: must be 1..{NMC_MAX_LEVEL}, found {level}"
        ));
    }
    Ok(level)
}

/// The number after `flag`, at least 1.
#[cfg(not(cargo_equip))]
pub fn positive<T: core::str::FromStr + PartialEq + From<u8>>(
    flag: &str,
    value: Option<&String>,
) -> Result<T, String> {
    let n: T = number(flag, value)?;
    if n == T::from(0) {
        return Err(format!("{flag}: must be at least 1"));
    }
    Ok(n)
}

/// The value of `--eval`.
#[cfg(not(cargo_equip))]
pub fn parse_eval(value: Option<&String>) -> Result<EvalKind, String> {
    let name = value.ok_or("--eval needs a value")?;
    EvalKind::parse(name).ok_or_else(|| {
        format!(
            "--eval: unknown evaluation {name:?} (known: {})",
            EvalKind::NAMES.join(", ")
        )
    })
}

/// Test arguments: `s` split at spaces.
#[cfg(test)]
pub fn test_args(s: &str) -> Vec<String> {
    s.split_whitespace().map(String::from).collect()
}

#[cfg(test)]
mod tests {
    use super::test_args as args;
    use super::*;

    #[test]
    fn parses_the_documented_forms() {
        assert_eq!(parse(&args("")), Ok(Command::Bot(BotOptions::default())));
        assert_eq!(parse(&args("--help")), Ok(Command::Help));
        let Ok(Command::Bot(o)) = parse(&args(
            "--strategy minimax --depth 3 --seed 7 --eval disc-noise --full-width --exact 6",
        )) else {
            panic!("not a bot command")
        };
        assert_eq!(
            (
                o.strategy.as_str(),
                o.depth,
                o.seed,
                o.eval,
                o.full_width,
                o.exact
            ),
            (
                "minimax",
                Some(3),
                Some(7),
                EvalKind::DiscNoise,
                true,
                Some(6)
            )
        );
        assert!(!BotOptions::default().full_width);
    }

    #[test]
    fn the_book_is_on_under_the_clock_and_as_asked() {
        let uses = |a: &str| match parse(&args(a)) {
            Ok(Command::Bot(o)) => o.uses_book(),
            other => panic!("{a}: {other:?}"),
        };
        assert!(uses(""));
        assert!(uses("--time-ms 50"));
        assert!(!uses("--depth 8"));
        assert!(!uses("--nodes 1000"));
        assert!(!uses("--no-book"));
        assert!(uses("--depth 8 --book"));
        let Ok(Command::Bot(o)) = parse(&args("--book-margin 2")) else {
            panic!("not a bot command")
        };
        assert_eq!(o.book_margin, 2);
    }

    #[test]
    fn parses_the_monte_carlo_options() {
        let Ok(Command::Bot(o)) = parse(&args(
            "--strategy nmc --playouts 200 --playout-depth 8 --c 0.7 --level 1",
        )) else {
            panic!("not a bot command")
        };
        assert_eq!(
            (o.playouts, o.playout_depth, o.c, o.level),
            (Some(200), Some(8), 0.7, 1)
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
            "--time-ms 0",
            "--playouts 0",
            "--playout-depth x",
            "--c -1",
            "--c nan",
            "--level 0",
            "--level 4",
            "--exact 61",
            "--exact",
            "--book-margin",
            "--book-margin 65",
            "--book-margin -1",
        ] {
            let e = parse(&args(bad)).unwrap_err();
            assert!(!e.is_empty(), "{bad}");
        }
    }
}

//! The tools of the full binary, left out of the CodinGame submission
//! (docs/bundle.md): `othello perft`, `othello bench` (and `bench
//! --positions`), `othello solve`, `othello playouts`, `othello book` and
//! `othello transition`. `main.rs` asks [`parse`] first and gives the bot the
//! arguments that name no tool; it declares a stub in this module's place
//! for the submission. The number parsing is `cli.rs`'s.

mod book;
mod playouts;
mod positions;
mod speed;
mod suite;
mod transition;

use crate::cli::{number, positive};
use othello::game::Game;
use othello::search::endgame::{Solver, SOLVE_TABLE_BITS};
use othello::search::playout::Playouts;
use othello::time::Deadline;
pub use speed::BenchOptions;
use std::io::Write;
use std::process::ExitCode;
use suite::Output;

/// Exit status of `solve`: an answer contradicts the file's scores.
const EXIT_WRONG: u8 = 1;
/// Exit status: an unreadable file or a malformed line (the other
/// positions are still solved).
const EXIT_USAGE: u8 = 2;

/// A tool command.
#[derive(Clone, Debug, PartialEq)]
pub enum Tool {
    /// `perft DEPTH`.
    Perft(u32),
    /// `bench [--depth N] [--eval NAME] [--full-width]` (the signature
    /// uses classic, selective), or the positions of a file:
    /// `bench --positions FILE [--depth N | --time-ms T] [--list] ...`.
    Bench(BenchOptions),
    /// `solve FILE [--wld] [--time-ms T]`.
    Solve(SolveOptions),
    /// `playouts ...`.
    Playouts(PlayoutsOptions),
    /// `book [TRANSCRIPT]`.
    Book(Option<String>),
    /// `transition FILE [--cold] [--list] [--passes [CUTS]] [--cap-ms MS]
    /// [bot options]`.
    Transition(transition::TransitionOptions),
    /// `TOOL --help` (or `-h`) anywhere after a tool's name: the usage.
    Help,
}

/// What `othello solve` solves and how.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SolveOptions {
    /// The OBF file.
    pub file: String,
    /// Prove only win, draw or loss.
    pub wld: bool,
    /// Budget per position in ms (None: unlimited).
    pub time_ms: Option<u64>,
}

/// `othello playouts`: the position and how many games.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayoutsOptions {
    /// The position after `--moves` (the start position without it).
    pub game: Game,
    /// `--games` (None: the command's default).
    pub games: Option<u64>,
    /// `--seed`.
    pub seed: u64,
    /// `--speed`: measure playouts per second instead.
    pub speed: bool,
}

/// The tools' names, as [`parse`] dispatches them.
const TOOLS: &[&str] = &["perft", "bench", "solve", "playouts", "book", "transition"];

/// The tool command of `args`, if they name one (else `None`: they are the
/// bot's).
pub fn parse(args: &[String]) -> Option<Result<Tool, String>> {
    let mut it = args.iter();
    let name = it.next()?.as_str();
    if TOOLS.contains(&name) && args[1..].iter().any(|a| a == "--help" || a == "-h") {
        return Some(Ok(Tool::Help));
    }
    match name {
        "perft" => Some(speed::parse_perft(it).map(Tool::Perft)),
        "bench" => Some(speed::parse_bench(it).map(Tool::Bench)),
        "solve" => Some(parse_solve(it).map(Tool::Solve)),
        "playouts" => Some(parse_playouts(it).map(Tool::Playouts)),
        "book" => Some(parse_book(it).map(Tool::Book)),
        "transition" => Some(transition::parse(it).map(Tool::Transition)),
        _ => None,
    }
}

fn parse_book<'a>(mut it: impl Iterator<Item = &'a String>) -> Result<Option<String>, String> {
    let transcript = it.next().cloned();
    if let Some(extra) = it.next() {
        return Err(format!(
            "book: unexpected argument {extra:?} (one transcript at most)"
        ));
    }
    Ok(transcript)
}

/// The file a tool reads first: `what` names it in the errors, and a
/// flag in its place is one (`solve --wld f.obf`: the file comes first).
pub fn file_first<'a>(
    tool: &str,
    what: &str,
    mut it: impl Iterator<Item = &'a String>,
) -> Result<String, String> {
    let file = it.next().ok_or_else(|| format!("{tool} needs {what}"))?;
    if file.starts_with("--") {
        return Err(format!(
            "{tool}: {what} comes first, found the flag {file:?}"
        ));
    }
    Ok(file.clone())
}

fn parse_solve<'a>(mut it: impl Iterator<Item = &'a String>) -> Result<SolveOptions, String> {
    let file = file_first("solve", "an OBF file", it.by_ref())?;
    let mut options = SolveOptions {
        file,
        wld: false,
        time_ms: None,
    };
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--wld" => options.wld = true,
            "--time-ms" => options.time_ms = Some(number("--time-ms", it.next())?),
            _ => return Err(format!("solve: unknown argument {arg:?}")),
        }
    }
    Ok(options)
}

fn parse_playouts<'a>(mut it: impl Iterator<Item = &'a String>) -> Result<PlayoutsOptions, String> {
    let mut options = PlayoutsOptions {
        game: Game::new(),
        games: None,
        seed: 0,
        speed: false,
    };
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--moves" => {
                let text = it.next().ok_or("--moves needs a value")?;
                options.game = Game::from_transcript(text)
                    .map_err(|e| format!("--moves: move {}: {}", e.index, e.reason))?;
            }
            "--games" => options.games = Some(positive("--games", it.next())?),
            "--seed" => options.seed = number("--seed", it.next())?,
            "--speed" => options.speed = true,
            _ => return Err(format!("playouts: unknown argument {arg:?}")),
        }
    }
    if options.game.is_over() {
        return Err("--moves: the game is over: no move to judge".into());
    }
    Ok(options)
}

/// Runs a tool, printing its report.
pub fn run(tool: Tool) -> ExitCode {
    match tool {
        Tool::Perft(depth) => {
            speed::run_perft(depth);
            ExitCode::SUCCESS
        }
        Tool::Bench(options) => match &options.positions {
            Some(file) => positions::run(file, &options),
            None => {
                speed::run_bench(&options);
                ExitCode::SUCCESS
            }
        },
        Tool::Solve(options) => run_solve(&options),
        Tool::Playouts(options) => run_playouts(&options),
        Tool::Transition(options) => transition::run(&options),
        Tool::Help => {
            print!("{}", crate::cli::USAGE);
            ExitCode::SUCCESS
        }
        Tool::Book(transcript) => {
            // The ranks read the pattern tables: expanded first, timed apart.
            let start = std::time::Instant::now();
            othello::eval::pattern::tables();
            let tables_ms = start.elapsed().as_secs_f64() * 1000.0;
            let start = std::time::Instant::now();
            let decoded = othello::book::Book::compiled();
            let ms = start.elapsed().as_secs_f64() * 1000.0;
            let report = decoded.map_err(|e| e.to_string()).and_then(|b| {
                let text = book::report(&b, transcript.as_deref())?;
                Ok(match transcript {
                    None => format!(
                        "{text}decoded in {ms:.1} ms (after the pattern tables, expanded in {tables_ms:.0} ms)\n"
                    ),
                    Some(_) => text,
                })
            });
            match report {
                Ok(text) => {
                    print(Output::Line(text), "");
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    eprintln!("othello: {e}");
                    ExitCode::from(EXIT_USAGE)
                }
            }
        }
    }
}

/// `othello solve`: exit status 2 if the file is unreadable or a line is
/// malformed (the other positions are still solved), else 1 if an answer
/// contradicts the file's scores, else 0.
fn run_solve(options: &SolveOptions) -> ExitCode {
    let file = &options.file;
    let text = match std::fs::read_to_string(file) {
        Ok(text) => text,
        Err(e) => {
            eprintln!("othello: {file}: {e}");
            return ExitCode::from(EXIT_USAGE);
        }
    };
    let mut solver = Solver::with_table_bits(Deadline::unlimited(), SOLVE_TABLE_BITS);
    let summary = suite::run(&text, options.wld, options.time_ms, &mut solver, |out| {
        print(out, file)
    });
    if summary.malformed > 0 {
        ExitCode::from(EXIT_USAGE)
    } else if summary.wrong > 0 {
        ExitCode::from(EXIT_WRONG)
    } else {
        ExitCode::SUCCESS
    }
}

/// `othello playouts`: random games after each legal move as an 8x8 table,
/// or (`--speed`) random playouts per second of each kernel.
fn run_playouts(options: &PlayoutsOptions) -> ExitCode {
    let board = options.game.board();
    if options.speed {
        let games = options.games.unwrap_or(playouts::DEFAULT_SPEED_GAMES);
        print(Output::Line("random playouts, one thread".into()), "");
        for runner in [Playouts::portable(), Playouts::new()] {
            for interleaved in [false, true] {
                let speed = playouts::speed(&board, games, runner, interleaved);
                print(Output::Line(speed.to_string()), "");
            }
        }
    } else {
        let games = options.games.unwrap_or(playouts::DEFAULT_GAMES);
        let stats = othello::search::stats::move_table(&board, games, options.seed);
        print(
            Output::Line(playouts::format_table(&options.game, &stats)),
            "",
        );
    }
    ExitCode::SUCCESS
}

/// Prints one line of a report; errors name `context`.
fn print(out: Output, context: &str) {
    match out {
        // A closed pipe (`| head`) is not worth a panic.
        Output::Line(line) => {
            let mut stdout = std::io::stdout();
            let _ = writeln!(stdout, "{}", line.trim_end_matches('\n'));
        }
        Output::Error(e) => eprintln!("othello: {context}: {e}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::test_args as args;
    use othello::eval::EvalKind;

    #[test]
    fn transition_takes_a_file_its_flags_and_the_bots_options() {
        let Some(Ok(Tool::Transition(t))) = parse(&args("transition b.txt --cold --time-ms 130"))
        else {
            panic!("not parsed");
        };
        assert_eq!(t.file, "b.txt");
        assert!(t.cold && !t.list);
        assert_eq!(t.bot.time_ms, Some(130));
        let e = parse(&args("transition")).expect("transition").unwrap_err();
        assert!(e.contains("bench file"), "{e}");
        let e = parse(&args("transition b.txt --depth 0"))
            .expect("transition")
            .unwrap_err();
        assert!(e.contains("--depth"), "{e}");
    }

    #[test]
    fn parses_the_tools_and_leaves_the_rest_to_the_bot() {
        assert_eq!(parse(&args("")), None);
        assert_eq!(parse(&args("--depth 3")), None);
        assert_eq!(parse(&args("perft 9")), Some(Ok(Tool::Perft(9))));
        assert_eq!(parse(&args("perft 15")), Some(Ok(Tool::Perft(15))));
        let e = parse(&args("perft 99")).expect("perft").unwrap_err();
        assert!(
            e.contains("cannot finish") && e.contains("at most 15"),
            "{e}"
        );
        assert_eq!(
            parse(&args("bench")),
            Some(Ok(Tool::Bench(BenchOptions {
                depth: None,
                eval: EvalKind::Classic,
                selective: true,
                positions: None,
                time_ms: None,
                list: false,
            })))
        );
        assert_eq!(
            parse(&args("bench --depth 6 --eval pattern --full-width")),
            Some(Ok(Tool::Bench(BenchOptions {
                depth: Some(6),
                eval: EvalKind::Pattern,
                selective: false,
                positions: None,
                time_ms: None,
                list: false,
            })))
        );
        // A positions file searches with the bot's evaluation by default.
        let Some(Ok(Tool::Bench(b))) = parse(&args("bench --positions m.txt --time-ms 100 --list"))
        else {
            panic!("not parsed");
        };
        assert_eq!(
            (b.positions.as_deref(), b.time_ms, b.list, b.eval, b.depth),
            (Some("m.txt"), Some(100), true, EvalKind::Pattern, None)
        );
        let Some(Ok(Tool::Bench(b))) = parse(&args("bench --positions m.txt --eval classic"))
        else {
            panic!("not parsed");
        };
        assert_eq!(b.eval, EvalKind::Classic);
        assert_eq!(
            parse(&args("solve f.obf --wld --time-ms 50")),
            Some(Ok(Tool::Solve(SolveOptions {
                file: "f.obf".into(),
                wld: true,
                time_ms: Some(50)
            })))
        );
        let Some(Ok(Tool::Playouts(p))) = parse(&args("playouts --moves f5d6 --games 50 --seed 4"))
        else {
            panic!("not a playouts command")
        };
        assert_eq!(
            (p.game.transcript().as_str(), p.games, p.seed, p.speed),
            ("f5d6", Some(50), 4, false)
        );
        assert!(matches!(
            parse(&args("playouts --speed")),
            Some(Ok(Tool::Playouts(p))) if p.speed
        ));
    }

    #[test]
    fn every_tool_is_dispatched() {
        for name in TOOLS {
            assert!(parse(&args(name)).is_some(), "{name}");
        }
    }

    #[test]
    fn help_after_a_tool_is_the_usage_and_a_flag_is_no_file() {
        for asked in [
            "perft --help",
            "bench --positions m.txt -h",
            "solve --help",
            "playouts --help",
            "book -h",
            "transition b.txt --help",
        ] {
            assert_eq!(parse(&args(asked)), Some(Ok(Tool::Help)), "{asked}");
        }
        // The bot's own --help stays the bot's.
        assert_eq!(parse(&args("--help")), None);
        let e = parse(&args("transition --bogus x"))
            .expect("transition")
            .unwrap_err();
        assert!(e.contains("comes first") && e.contains("--bogus"), "{e}");
        let e = parse(&args("solve --time-ms 5 f.obf"))
            .expect("solve")
            .unwrap_err();
        assert!(e.contains("OBF file comes first"), "{e}");
    }

    #[test]
    fn rejects_bad_tool_arguments_with_a_message() {
        for bad in [
            "perft",
            "perft x",
            "perft 3 4",
            "bench --fast",
            "bench --eval nope",
            "bench --time-ms 100",
            "bench --list",
            "bench --positions",
            "bench --positions m.txt --time-ms 0",
            "bench --positions m.txt --depth 5 --time-ms 50",
            "bench --positions m.txt --fast",
            "solve",
            "solve f.obf --exact",
            "solve f.obf --time-ms",
            "playouts --moves f5f5",
            "playouts --moves f5d",
            "playouts --games 0",
            "playouts --fast",
            "solve --wld f.obf",
            "transition --cold b.txt",
        ] {
            let e = parse(&args(bad)).expect(bad).unwrap_err();
            assert!(!e.is_empty(), "{bad}");
        }
    }
}

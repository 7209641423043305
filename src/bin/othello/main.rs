//! The `othello` binary: the CodinGame bot (no arguments) and, outside the
//! submission, the tools of `tools/` (`perft`, `bench`, `solve`,
//! `playouts`). All reading and printing happens here and in the modules
//! beside this file; the engine is the library.

mod cli;
mod input;
mod watchdog;
// The submission leaves the tools out: `bundle finish` drops what is under
// `#[cfg(not(cargo_equip))]` here (items, statements, fields, arms) and keeps
// what is under `#[cfg(cargo_equip)]` (docs/bundle.md), as cargo-equip does
// in the library.
#[cfg(not(cargo_equip))]
mod tools;

use cli::{BotOptions, Command};
use input::CheckedLines;
use othello::book::Book;
use othello::protocol::{self, Lines};
#[cfg(not(cargo_equip))]
use othello::rng::Rng;
use othello::search::{self, Score, SearchResult};
#[cfg(cargo_equip)]
use othello::search::{alphabeta::AlphaBeta, Strategy};
use othello::time::{turn_budget_ms, LagGuard, FIRST_TURN_BUDGET_MS};
use othello::Bitboard;
use std::io::{self, BufRead, Write};
use std::process::ExitCode;
use std::sync::atomic::AtomicU8;
use std::time::{Duration, Instant};
use watchdog::Watchdog;

/// Exit status for malformed input or bad arguments.
const EXIT_USAGE: u8 = 2;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    // Arguments that name a tool are the tool's; all others the bot's.
    #[cfg(not(cargo_equip))]
    let command = match tools::parse(&args) {
        Some(Ok(tool)) => return tools::run(tool),
        Some(Err(message)) => Err(message),
        None => cli::parse(&args),
    };
    // The submission has no tools.
    #[cfg(cargo_equip)]
    let command = cli::parse(&args);
    match command {
        Ok(Command::Help) => {
            print!("{}", cli::USAGE);
            ExitCode::SUCCESS
        }
        Ok(Command::Bot(options)) => run_bot(&options),
        Err(message) => {
            eprintln!("othello: {message}");
            eprint!("{}", cli::USAGE);
            ExitCode::from(EXIT_USAGE)
        }
    }
}

/// Plays the CodinGame protocol until the input ends.
fn run_bot(options: &BotOptions) -> ExitCode {
    #[cfg(not(cargo_equip))]
    let seed = options.seed();
    // The search's best move so far, for the watchdog.
    static BEST: AtomicU8 = AtomicU8::new(0);
    let progress = search::Progress(Some(&BEST));
    #[cfg(not(cargo_equip))]
    let config = search::Config {
        progress,
        ..options.config()
    };
    #[cfg(not(cargo_equip))]
    let Some(mut strategy) = search::create(&options.strategy, &config) else {
        eprintln!("othello: unknown strategy {:?}", options.strategy);
        return ExitCode::from(EXIT_USAGE);
    };
    // The submission plays alphabeta with the default settings.
    #[cfg(cargo_equip)]
    let mut strategy = AlphaBeta::bot(progress);

    let stdin = io::stdin();
    let mut lines = Lines::new(CheckedLines::new(stdin.lock()));
    let mut watchdog = Watchdog::new(write_line, progress);

    // No input at all is not an error: there was no game.
    let Some(first) = next_nonblank(&mut lines) else {
        return end_of_input(&lines);
    };
    let init = match protocol::read_init(first, &mut lines) {
        Ok(init) => init,
        Err(e) => return malformed(&lines, &e),
    };
    let mut book = Book::default();
    #[cfg(not(cargo_equip))]
    let mut book_rng = Rng::seed_from_u64(seed);
    let mut first_turn = true;
    // A loaded machine (late answers, waits for a CPU) shortens the
    // default budgets; `--time-ms` is taken as given.
    let mut lag = LagGuard::default();
    loop {
        // The end of input between turns ends the game quietly.
        let Some(first) = next_nonblank(&mut lines) else {
            return end_of_input(&lines);
        };
        let start = Instant::now();
        let waited_before = cpu_wait();
        let turn = match protocol::read_turn(first, &mut lines, init.color, false) {
            Ok(turn) => turn,
            Err(e) => return malformed(&lines, &e),
        };
        if first_turn {
            // Inside the first turn's clock (its budget counts them): the
            // pattern tables, expanded here and not by the first search,
            // which after book moves has only 150 ms; then the book, whose
            // ranks read them. A book that does not decode is played
            // without, never a panic (docs/book.md).
            #[cfg(not(cargo_equip))]
            let _ = othello::eval::Evaluator::new(options.eval, seed).pattern_tables();
            #[cfg(cargo_equip)]
            let _ = othello::eval::pattern::tables();
            if options.uses_book() {
                book = Book::compiled().unwrap_or_else(|e| {
                    eprintln!("othello: {e}; playing without the book");
                    Book::default()
                });
            }
        }
        let budget_ms = options.time_ms.unwrap_or_else(|| {
            lag.budget_ms(if first_turn {
                FIRST_TURN_BUDGET_MS
            } else {
                turn_budget_ms(turn.board.empty_count())
            })
        });
        first_turn = false;
        let limits = options.limits(start, budget_ms);
        if let Some(warning) = turn.consistency_warning() {
            eprintln!("othello: {warning}");
        }
        let candidates = turn.action_set() & turn.board.moves().0;
        let first = Bitboard(candidates)
            .squares()
            .next()
            .unwrap_or(turn.actions[0]);
        watchdog.begin(&limits.deadline, first);
        let answer = if candidates == 0 {
            // The board and the list disagree entirely: trust the list.
            format!("{} MSG desync", turn.actions[0])
        } else {
            #[cfg(not(cargo_equip))]
            let in_book = book.choose(&turn.board, options.book_margin as i32, &mut book_rng);
            // The submission plays the book move (no `--book-margin`).
            #[cfg(cargo_equip)]
            let in_book = book.lookup(&turn.board);
            let in_book = in_book.filter(|m| candidates & m.best.bit() != 0);
            let result = match in_book {
                Some(m) => SearchResult {
                    best: m.best,
                    score: Score::Book(m.score),
                    depth: 0,
                    nodes: 0,
                    elapsed: start.elapsed(),
                },
                None => strategy.choose(&turn.board, Bitboard(candidates), &limits),
            };
            format!("{} MSG {}", result.best, protocol::message(&result))
        };
        if watchdog.answer(&answer).is_err() {
            // The referee closed our output: nothing left to do.
            return ExitCode::SUCCESS;
        }
        let waited = cpu_wait()
            .zip(waited_before)
            .map(|(b, a)| b.saturating_sub(a));
        lag.record(Duration::from_millis(budget_ms), start.elapsed(), waited);
    }
}

/// Writes an answer to the referee.
fn write_line(line: &str) -> io::Result<()> {
    let mut out = io::stdout().lock();
    writeln!(out, "{line}")?;
    out.flush()
}

/// How long this process has waited, runnable, for a CPU (Linux's
/// `/proc/self/schedstat`: run time, run delay, time slices; in ns).
/// `None` where the system does not say.
fn cpu_wait() -> Option<Duration> {
    let text = std::fs::read_to_string("/proc/self/schedstat").ok()?;
    let ns = text.split_whitespace().nth(1)?.parse().ok()?;
    Some(Duration::from_nanos(ns))
}

/// The next line that is not blank, or `None` at the end of input.
fn next_nonblank<I: Iterator<Item = String>>(lines: &mut Lines<I>) -> Option<String> {
    loop {
        match lines.next_opt() {
            Some(line) if line.is_empty() => continue,
            other => return other,
        }
    }
}

/// The bad line that cut the input short, if one did, with its number.
fn input_error<R: BufRead>(lines: &Lines<CheckedLines<R>>) -> Option<String> {
    let e = lines.source().error()?;
    Some(format!("line {}: {e}", lines.line_number() + 1))
}

/// The input ended between turns: quietly, unless a bad line ended it.
fn end_of_input<R: BufRead>(lines: &Lines<CheckedLines<R>>) -> ExitCode {
    match input_error(lines) {
        Some(e) => report_malformed(&e),
        None => ExitCode::SUCCESS,
    }
}

/// A protocol error; a bad line that cut the input short is named instead.
fn malformed<R: BufRead>(lines: &Lines<CheckedLines<R>>, e: &protocol::ProtocolError) -> ExitCode {
    report_malformed(&input_error(lines).unwrap_or_else(|| e.to_string()))
}

fn report_malformed(what: &str) -> ExitCode {
    eprintln!("othello: malformed input: {what}");
    ExitCode::from(EXIT_USAGE)
}

//! The `othello` binary: the CodinGame bot (no arguments), and the engine's
//! tools (`perft`, `bench`). All reading and printing happens here.

use othello::cli::{self, BotOptions, Command, PlayoutsOptions};
use othello::protocol::{self, Lines};
use othello::search::{self, Limits};
use othello::time::{Deadline, DEFAULT_TURN_BUDGET_MS, FIRST_TURN_BUDGET_MS};
use othello::tools;
use othello::{perft, Bitboard, Board};
use std::io::{self, BufRead, Write};
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// Exit status for malformed input or bad arguments.
const EXIT_USAGE: u8 = 2;

/// The longest input line the bot accepts, in bytes. CodinGame's longest
/// line, a list of legal moves, is about 100.
const MAX_LINE_BYTES: usize = 4096;

/// Bytes of a rejected line quoted in the error.
const QUOTED_BYTES: usize = 40;

/// Lines of a reader, at most [`MAX_LINE_BYTES`] long and valid UTF-8. The
/// iteration ends at the end of input or at the first bad line, which
/// [`CheckedLines::error`] then describes (the line's number is the one
/// after the last line [`Lines`] received).
struct CheckedLines<R> {
    reader: R,
    error: Option<String>,
}

impl<R: BufRead> CheckedLines<R> {
    fn new(reader: R) -> CheckedLines<R> {
        CheckedLines {
            reader,
            error: None,
        }
    }

    /// Why the lines ended early, if they did.
    fn error(&self) -> Option<&str> {
        self.error.as_deref()
    }
}

impl<R: BufRead> Iterator for CheckedLines<R> {
    type Item = String;

    fn next(&mut self) -> Option<String> {
        if self.error.is_some() {
            return None;
        }
        let mut buf = Vec::new();
        let cap = MAX_LINE_BYTES as u64 + 1;
        match <&mut R as io::Read>::take(&mut self.reader, cap).read_until(b'\n', &mut buf) {
            Ok(0) => return None,
            Ok(_) => {}
            Err(e) => {
                self.error = Some(format!("read error: {e}"));
                return None;
            }
        }
        if buf.last() == Some(&b'\n') {
            buf.pop();
        } else if buf.len() > MAX_LINE_BYTES {
            let start = String::from_utf8_lossy(&buf[..QUOTED_BYTES]).into_owned();
            self.error = Some(format!(
                "longer than {MAX_LINE_BYTES} bytes (it starts {start:?})"
            ));
            return None;
        }
        match String::from_utf8(buf) {
            Ok(text) => Some(text),
            Err(e) => {
                let at = e.utf8_error().valid_up_to();
                self.error = Some(format!("not UTF-8 text (byte {})", at + 1));
                None
            }
        }
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match cli::parse(&args) {
        Ok(Command::Help) => {
            print!("{}", cli::USAGE);
            ExitCode::SUCCESS
        }
        Ok(Command::Perft(depth)) => {
            run_perft(depth);
            ExitCode::SUCCESS
        }
        Ok(Command::Bench(options)) => {
            run_bench(&options);
            ExitCode::SUCCESS
        }
        Ok(Command::Solve(options)) => run_solve(&options),
        Ok(Command::Playouts(options)) => run_playouts(&options),
        Ok(Command::Bot(options)) => run_bot(&options),
        Err(message) => {
            eprintln!("othello: {message}");
            eprint!("{}", cli::USAGE);
            ExitCode::from(EXIT_USAGE)
        }
    }
}

fn run_perft(depth: u32) {
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

fn run_bench(options: &cli::BenchOptions) {
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

/// `othello solve`: exit status 2 if the file is unreadable or a line is
/// malformed (the other positions are still solved), else 1 if an answer
/// contradicts the file's scores, else 0.
fn run_solve(options: &cli::SolveOptions) -> ExitCode {
    let text = match std::fs::read_to_string(&options.file) {
        Ok(text) => text,
        Err(e) => {
            eprintln!("othello: {}: {e}", options.file);
            return ExitCode::from(EXIT_USAGE);
        }
    };
    let file = &options.file;
    ExitCode::from(tools::solve(options, &text, &mut |out| {
        print_tool_output(out, file)
    }))
}

/// `othello playouts`: the per-move table, or the speed measurement.
fn run_playouts(options: &PlayoutsOptions) -> ExitCode {
    ExitCode::from(tools::playouts(options, &mut |out| {
        print_tool_output(out, "playouts")
    }))
}

/// Prints one line of a tool's report; errors name `context`.
fn print_tool_output(out: tools::Output, context: &str) {
    match out {
        // A closed pipe (`| head`) is not worth a panic.
        tools::Output::Line(line) => {
            let _ = writeln!(io::stdout(), "{line}");
        }
        tools::Output::Error(e) => eprintln!("othello: {context}: {e}"),
    }
}

/// Plays the CodinGame protocol until the input ends.
fn run_bot(options: &BotOptions) -> ExitCode {
    let seed = options.seed.unwrap_or_else(|| {
        std::env::var("OTHELLO_SEED")
            .ok()
            .and_then(|s| s.trim().parse().ok())
            .unwrap_or(0)
    });
    let config = search::Config {
        seed,
        eval: options.eval,
        playouts: options.playouts,
        playout_depth: options.playout_depth,
        c: options.c,
        level: options.level,
    };
    let Some(mut strategy) = search::create(&options.strategy, &config) else {
        eprintln!("othello: unknown strategy {:?}", options.strategy);
        return ExitCode::from(EXIT_USAGE);
    };

    let stdin = io::stdin();
    let mut lines = Lines::new(CheckedLines::new(stdin.lock()));
    let stdout = io::stdout();
    let mut out = stdout.lock();

    // No input at all is not an error: there was no game.
    let Some(first) = next_nonblank(&mut lines) else {
        return end_of_input(&lines);
    };
    let init = match protocol::read_init(first, &mut lines) {
        Ok(init) => init,
        Err(e) => return malformed(&lines, &e),
    };
    let mut first_turn = true;
    loop {
        // The end of input between turns ends the game quietly.
        let Some(first) = next_nonblank(&mut lines) else {
            return end_of_input(&lines);
        };
        let start = Instant::now();
        let turn = match protocol::read_turn(first, &mut lines, init.color, false) {
            Ok(turn) => turn,
            Err(e) => return malformed(&lines, &e),
        };
        let budget_ms = options.time_ms.unwrap_or(if first_turn {
            FIRST_TURN_BUDGET_MS
        } else {
            DEFAULT_TURN_BUDGET_MS
        });
        first_turn = false;
        // A fixed depth is searched in full unless a time is also given.
        let deadline = if options.depth.is_some() && options.time_ms.is_none() {
            Deadline::unlimited()
        } else {
            Deadline::new(start, Duration::from_millis(budget_ms))
        };
        let limits = Limits {
            deadline,
            depth: options.depth,
            nodes: options.nodes,
        };
        if let Some(warning) = turn.consistency_warning() {
            eprintln!("othello: {warning}");
        }
        let candidates = turn.action_set() & turn.board.moves().0;
        let answer = if candidates == 0 {
            // The board and the list disagree entirely: trust the list.
            format!("{} MSG desync", turn.actions[0])
        } else {
            let result = strategy.choose(&turn.board, Bitboard(candidates), &limits);
            format!("{} MSG {}", result.best, result.message())
        };
        if writeln!(out, "{answer}").and_then(|_| out.flush()).is_err() {
            // The referee closed our output: nothing left to do.
            return ExitCode::SUCCESS;
        }
    }
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

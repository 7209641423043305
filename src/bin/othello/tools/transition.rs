//! `othello transition FILE [--cold] [--list] [bot options]`: the bot's
//! moves on the transition bench (docs/endgame.md, "The transition
//! bench"), each judged by the file's exact scores.
//!
//! Each position is played as a later turn of a game would be: the
//! pattern tables built beforehand, one search kept for the whole run (as
//! the bot keeps one for a game), its tables first warmed by the bot's
//! previous turn of the same game (the last earlier
//! position with the same side to move, searched under the same rules;
//! `--cold` leaves that out), then the position under the later-turn
//! budget (`time::turn_budget_ms`, or `--time-ms`). The book is not
//! played: no bench position is in it.

use crate::cli::{self, BotOptions, Command};
use othello::board::Board;
use othello::search::{self, SearchResult, Strategy};
use othello::time::turn_budget_ms;
use othello::transition::{self, BenchPosition};
use std::fmt::Write as _;
use std::time::{Duration, Instant};

/// A move that loses at least this many discs is a mistake (the
/// referee's analysis counts them the same way).
pub const MISTAKE_DISCS: i32 = 2;

/// What `othello transition` reads and how it plays.
#[derive(Clone, Debug, PartialEq)]
pub struct TransitionOptions {
    /// The bench file.
    pub file: String,
    /// `--cold`: no warming turn before each position.
    pub cold: bool,
    /// `--list`: one line per position before the table.
    pub list: bool,
    /// The bot's options (`--time-ms`, `--exact`, ...).
    pub bot: BotOptions,
}

/// Parses `transition FILE [--cold] [--list] [bot options]`.
pub fn parse<'a>(mut it: impl Iterator<Item = &'a String>) -> Result<TransitionOptions, String> {
    let file = it.next().ok_or("transition needs a bench file")?.clone();
    let (mut cold, mut list) = (false, false);
    let mut rest = Vec::new();
    for arg in it {
        match arg.as_str() {
            "--cold" => cold = true,
            "--list" => list = true,
            _ => rest.push(arg.clone()),
        }
    }
    let bot = match cli::parse(&rest).map_err(|e| format!("transition: {e}"))? {
        Command::Bot(bot) => bot,
        Command::Help => return Err("transition: --help is not an option here".into()),
    };
    Ok(TransitionOptions {
        file,
        cold,
        list,
        bot,
    })
}

/// One position played: its empties, the move's loss, the time taken.
#[derive(Clone, Copy, Debug)]
pub struct Played {
    /// Empty squares before the move.
    pub empties: u32,
    /// Discs lost against the best move.
    pub loss: i32,
    /// Time from the turn's start to the answer.
    pub elapsed: Duration,
}

/// Plays the bot of `options` on `position` as a later turn: the search's
/// result and the move's loss.
pub fn play(
    options: &TransitionOptions,
    strategy: &mut dyn Strategy,
    position: &BenchPosition,
) -> (SearchResult, Played) {
    if let Some(previous) = position.previous.filter(|_| !options.cold) {
        turn(&options.bot, strategy, &previous);
    }
    let result = turn(&options.bot, strategy, &position.board);
    let loss = position
        .loss(result.best)
        .expect("a search chooses among the legal moves");
    let played = Played {
        empties: position.empties(),
        loss,
        elapsed: result.elapsed,
    };
    (result, played)
}

/// One later turn on `board`, timed from its start as the bot's are.
fn turn(bot: &BotOptions, strategy: &mut dyn Strategy, board: &Board) -> SearchResult {
    let start = Instant::now();
    let budget = bot
        .time_ms
        .unwrap_or_else(|| turn_budget_ms(board.empty_count()));
    let limits = bot.limits(start, budget);
    let mut result = strategy.choose(board, board.moves(), &limits);
    result.elapsed = start.elapsed();
    result
}

/// The losses of some moves.
#[derive(Clone, Copy, Debug, Default)]
struct Tally {
    moves: u64,
    loss: i64,
    mistakes: u64,
    worst: i32,
    ms: f64,
    slowest: f64,
}

impl Tally {
    fn add(&mut self, p: &Played) {
        let ms = p.elapsed.as_secs_f64() * 1000.0;
        self.moves += 1;
        self.loss += i64::from(p.loss);
        self.mistakes += u64::from(p.loss >= MISTAKE_DISCS);
        self.worst = self.worst.max(p.loss);
        self.ms += ms;
        self.slowest = self.slowest.max(ms);
    }

    fn row(&self, label: &str) -> String {
        if self.moves == 0 {
            return format!("{label:>7} {:>9}\n", 0);
        }
        let n = self.moves as f64;
        format!(
            "{label:>7} {:>9} {:>9.2} {:>8} {:>5} {:>7.1} {:>10.1}\n",
            self.moves,
            self.loss as f64 / n,
            self.mistakes,
            self.worst,
            self.ms / n,
            self.slowest
        )
    }
}

/// The report's table: by empties, then the groups and all.
pub fn table(played: &[Played]) -> String {
    let mut out = format!(
        "{:>7} {:>9} {:>9} {:>8} {:>5} {:>7} {:>10}\n",
        "empties", "positions", "mean loss", "mistakes", "worst", "mean ms", "slowest ms"
    );
    let lo = played.iter().map(|p| p.empties).min().unwrap_or(0);
    let hi = played.iter().map(|p| p.empties).max().unwrap_or(0);
    let tally = |f: &dyn Fn(u32) -> bool| {
        let mut t = Tally::default();
        played
            .iter()
            .filter(|p| f(p.empties))
            .for_each(|p| t.add(p));
        t
    };
    for e in lo..=hi {
        let t = tally(&|x| x == e);
        if t.moves > 0 {
            out += &t.row(&e.to_string());
        }
    }
    for (a, b) in GROUPS {
        out += &tally(&|x| (a..=b).contains(&x)).row(&format!("{a}-{b}"));
    }
    out += &tally(&|_| true).row("all");
    let _ = writeln!(
        out,
        "(loss in discs against perfect play; a mistake loses {MISTAKE_DISCS} or more; ms from the turn's start)"
    );
    out
}

/// The groups of empties the report adds up (the goals: 21-23
/// and 24-26).
const GROUPS: [(u32, u32); 2] = [(21, 23), (24, 26)];

/// Runs the bench: exit status 2 if the file cannot be read or a line is
/// malformed (nothing is played then), else 0.
pub fn run(options: &TransitionOptions) -> std::process::ExitCode {
    let file = &options.file;
    let positions = match std::fs::read_to_string(file) {
        Err(e) => Err(vec![format!("{file}: {e}")]),
        Ok(text) => transition::parse(&text)
            .map_err(|errors| errors.iter().map(|e| format!("{file}: {e}")).collect()),
    };
    let positions = match positions {
        Ok(p) if p.is_empty() => Err(vec![format!("{file}: no positions")]),
        other => other,
    };
    let positions = match positions {
        Ok(p) => p,
        Err(errors) => {
            for e in errors {
                eprintln!("othello: {e}");
            }
            return std::process::ExitCode::from(super::EXIT_USAGE);
        }
    };
    // As on the bot's first turn: the tables exist before any turn is timed.
    let _ = othello::eval::Evaluator::new(options.bot.eval, options.bot.seed()).pattern_tables();
    // One search for the whole bench, as the bot keeps one for a game:
    // its tables' memory is in use, as it is from a game's second turn on
    // (a new search per position ran some positions slower by the page
    // faults of its new tables: 0.40-0.80 discs a move at 22 empties by
    // the file's order alone). Their entries of other positions never
    // match (they hold the whole position).
    let mut strategy = search::create(&options.bot.strategy, &options.bot.config())
        .expect("the command line accepts known strategies only");
    let mut played = Vec::new();
    let mut stdout = std::io::stdout();
    for (n, position) in positions.iter().enumerate() {
        let (result, p) = play(options, strategy.as_mut(), position);
        if options.list {
            use std::io::Write as _;
            let _ = writeln!(
                stdout,
                "{:>4} {:>2} {} loss {:>2} {:>6.1} ms  {}",
                n + 1,
                p.empties,
                result.best,
                p.loss,
                p.elapsed.as_secs_f64() * 1000.0,
                othello::protocol::message(&result)
            );
        }
        played.push(p);
    }
    super::print(super::suite::Output::Line(table(&played)), file);
    std::process::ExitCode::SUCCESS
}

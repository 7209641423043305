//! `othello transition FILE [--cold] [--list] [bot options]`: the bot's
//! moves on the transition bench (docs/journal/endgame.md, "The transition
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
use othello::search::alphabeta::AlphaBeta;
use othello::search::alphabeta::PASS_CUTS;
use othello::search::endgame::{confidence, Pass};
use othello::search::{self, Score, SearchResult, Strategy};
use othello::time::turn_budget_ms;
use othello::time::Deadline;
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
    /// `--passes`: instead of the bot's turn, the solver's passes of these
    /// cuts then the exact search, each timed (`None`: not this mode).
    pub passes: Option<Vec<i32>>,
    /// `--cap-ms`: the passes mode's limit per position.
    pub cap_ms: u64,
    /// The bot's options (`--time-ms`, `--exact`, ...).
    pub bot: BotOptions,
}

/// The passes mode's limit per position when `--cap-ms` is not given.
pub const DEFAULT_CAP_MS: u64 = 5000;

/// Parses `transition FILE [--cold] [--list] [--passes [CUTS]] [--cap-ms MS]
/// [bot options]`.
pub fn parse<'a>(it: impl Iterator<Item = &'a String>) -> Result<TransitionOptions, String> {
    let mut it = it.peekable();
    let file = super::file_first("transition", "a bench file", it.by_ref())?;
    let (mut cold, mut list, mut passes, mut cap_ms) = (false, false, None, DEFAULT_CAP_MS);
    let mut rest = Vec::new();
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--cold" => cold = true,
            "--list" => list = true,
            "--passes" => {
                // An optional list of cuts follows.
                let cuts = match it.peek().filter(|v| !v.starts_with("--")) {
                    Some(v) => {
                        let cuts = v
                            .split(',')
                            .map(|c| c.parse::<i32>().ok().filter(|&c| c > 0))
                            .collect::<Option<Vec<i32>>>()
                            .ok_or_else(|| {
                                format!("transition: --passes: expected cuts like 110,150,200, found {v:?}")
                            })?;
                        it.next();
                        cuts
                    }
                    None => PASS_CUTS.to_vec(),
                };
                passes = Some(cuts);
            }
            "--cap-ms" => {
                let v = it.next().ok_or("transition: --cap-ms needs a value")?;
                cap_ms = v.parse().ok().filter(|&ms| ms > 0).ok_or_else(|| {
                    format!("transition: --cap-ms: expected milliseconds, found {v:?}")
                })?;
            }
            _ => rest.push(arg.clone()),
        }
    }
    let bot = match cli::parse(&rest).map_err(|e| format!("transition: {e}"))? {
        Command::Bot(bot) => bot,
        // `tools::parse` answers `--help` before any tool parses.
        Command::Help => return Err("transition: --help comes alone".into()),
    };
    Ok(TransitionOptions {
        file,
        cold,
        list,
        passes,
        cap_ms,
        bot,
    })
}

/// What kind of answer a move was.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kind {
    /// An exact solve's proof.
    Proven,
    /// A selective pass to the end, by its cut (hundredths of a standard
    /// deviation), widest first.
    Pass(core::cmp::Reverse<i32>),
    /// The midgame search's move.
    Midgame,
    /// Anything else (another strategy's answer).
    Other,
}

impl Kind {
    /// The kind of `result`'s answer.
    pub fn of(result: &SearchResult) -> Kind {
        match result.score {
            Score::Exact(_) => Kind::Proven,
            Score::Probable { cut, .. } => Kind::Pass(core::cmp::Reverse(cut)),
            Score::Selective(_) | Score::Estimate(_) => Kind::Midgame,
            _ => Kind::Other,
        }
    }

    /// The kind's column heading.
    pub fn label(&self) -> String {
        match self {
            Kind::Proven => "proven".into(),
            Kind::Pass(cut) => format!("pass {}%", confidence(cut.0)),
            Kind::Midgame => "midgame".into(),
            Kind::Other => "other".into(),
        }
    }
}

/// One position played: its empties, the move's loss, the time taken.
#[derive(Clone, Copy, Debug)]
pub struct Played {
    /// Empty squares before the move.
    pub empties: u32,
    /// Discs lost against the best move (`None` where the bench gives
    /// results only).
    pub loss: Option<i32>,
    /// Whether the move gave away the exact result (win or draw).
    pub result_lost: bool,
    /// Time from the turn's start to the answer.
    pub elapsed: Duration,
    /// What kind of answer it was.
    pub kind: Kind,
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
    let loss = (!position.wld).then(|| {
        position
            .loss(result.best)
            .expect("a search chooses among the legal moves")
    });
    let played = Played {
        empties: position.empties(),
        loss,
        result_lost: position.changes_result(result.best) == Some(true),
        elapsed: result.elapsed,
        kind: Kind::of(&result),
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
    /// Moves whose loss in discs is known (exact scores).
    scored: u64,
    loss: i64,
    mistakes: u64,
    results: u64,
    worst: i32,
    ms: f64,
    slowest: f64,
}

impl Tally {
    fn add(&mut self, p: &Played) {
        let ms = p.elapsed.as_secs_f64() * 1000.0;
        self.moves += 1;
        if let Some(loss) = p.loss {
            self.scored += 1;
            self.loss += i64::from(loss);
            self.mistakes += u64::from(loss >= MISTAKE_DISCS);
            self.worst = self.worst.max(loss);
        }
        self.results += u64::from(p.result_lost);
        self.ms += ms;
        self.slowest = self.slowest.max(ms);
    }

    /// The mean loss of the moves whose loss is known, two decimals
    /// (`n/a` where none is: results only).
    fn mean_loss(&self) -> String {
        if self.scored == 0 {
            return "n/a".into();
        }
        format!("{:.2}", self.loss as f64 / self.scored as f64)
    }

    fn row(&self, label: &str) -> String {
        if self.moves == 0 {
            return format!("{label:>7} {:>9}\n", 0);
        }
        let n = self.moves as f64;
        // Results only: no discs, so no mistakes and no worst loss either.
        let discs = |x: i64| {
            if self.scored == 0 {
                "-".to_string()
            } else {
                x.to_string()
            }
        };
        format!(
            "{label:>7} {:>9} {:>9} {:>8} {:>7} {:>5} {:>7.1} {:>10.1}\n",
            self.moves,
            self.mean_loss(),
            discs(self.mistakes as i64),
            self.results,
            discs(i64::from(self.worst)),
            self.ms / n,
            self.slowest
        )
    }
}

/// The report's table: by empties, then the groups and all.
pub fn table(played: &[Played]) -> String {
    let mut out = format!(
        "{:>7} {:>9} {:>9} {:>8} {:>7} {:>5} {:>7} {:>10}\n",
        "empties",
        "positions",
        "mean loss",
        "mistakes",
        "results",
        "worst",
        "mean ms",
        "slowest ms"
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
        "(loss in discs against perfect play, over the positions with exact scores; a mistake loses {MISTAKE_DISCS} or more; results: moves that give away \
         the exact result, a win or a draw; ms from the turn's start)"
    );
    out + &kinds(played)
}

/// The answers' kinds by empties: for each kind, how many, their mean
/// loss and the slowest.
pub fn kinds(played: &[Played]) -> String {
    let mut kinds: Vec<Kind> = played.iter().map(|p| p.kind).collect();
    kinds.sort();
    kinds.dedup();
    let mut out = String::from("\nanswers by kind (count / mean loss / slowest ms):\n");
    let _ = write!(out, "{:>7}", "empties");
    for k in &kinds {
        let _ = write!(out, " {:>20}", k.label());
    }
    out.push('\n');
    let mut counts: Vec<u32> = played.iter().map(|p| p.empties).collect();
    counts.sort_unstable();
    counts.dedup();
    let rows = counts
        .iter()
        .map(|&e| {
            (
                e.to_string(),
                Box::new(move |x: u32| x == e) as Box<dyn Fn(u32) -> bool>,
            )
        })
        .chain([(
            "all".to_string(),
            Box::new(|_| true) as Box<dyn Fn(u32) -> bool>,
        )]);
    for (label, keep) in rows {
        let _ = write!(out, "{label:>7}");
        for k in &kinds {
            let mut t = Tally::default();
            played
                .iter()
                .filter(|p| p.kind == *k && keep(p.empties))
                .for_each(|p| t.add(p));
            if t.moves == 0 {
                let _ = write!(out, " {:>20}", "-");
            } else {
                let cell = format!("{} / {} / {:.1}", t.moves, t.mean_loss(), t.slowest);
                let _ = write!(out, " {cell:>20}");
            }
        }
        out.push('\n');
    }
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
    if let Some(cuts) = &options.passes {
        if let Some(p) = positions.iter().find(|p| p.wld) {
            eprintln!(
                "othello: {file}: --passes needs exact scores, and {} gives results only",
                p.transcript
            );
            return std::process::ExitCode::from(super::EXIT_USAGE);
        }
        let report = passes_report(options, &positions, cuts);
        super::print(super::suite::Output::Line(report), file);
        return std::process::ExitCode::SUCCESS;
    }
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
                p.loss.map_or("-".to_string(), |l| l.to_string()),
                p.elapsed.as_secs_f64() * 1000.0,
                othello::protocol::message(&result)
            );
        }
        played.push(p);
    }
    super::print(super::suite::Output::Line(table(&played)), file);
    std::process::ExitCode::SUCCESS
}

/// One position of the passes mode: its empties, and for each pass of the
/// schedule, if it finished within the cap, its time (ms) and its move's
/// loss.
struct PassRow {
    empties: u32,
    passes: Vec<Option<(f64, i32, u64)>>,
}

/// The passes mode (`--passes`): each position after its warming turn
/// (the bot's, as usual), then the solver's passes of `cuts` and the exact
/// search one after the other, capped at `--cap-ms`; by empties and pass,
/// the share that finished within the turn's budget, their moves' mean
/// loss, and the median time to the end of the pass.
fn passes_report(options: &TransitionOptions, positions: &[BenchPosition], cuts: &[i32]) -> String {
    let mut bot = AlphaBeta::from_config(&options.bot.config());
    let schedule: Vec<Option<i32>> = cuts.iter().map(|&c| Some(c)).chain([None]).collect();
    let mut rows = Vec::new();
    let mut out = String::new();
    for (n, position) in positions.iter().enumerate() {
        if let Some(previous) = position.previous.filter(|_| !options.cold) {
            turn(&options.bot, &mut bot, &previous);
        }
        let board = position.board;
        let solver = bot.solver();
        solver.set_deadline(Deadline::from_now_ms(options.cap_ms));
        solver.run_passes(&board, board.moves(), false, &schedule);
        let finished: Vec<Pass> = solver.passes().to_vec();
        let passes: Vec<Option<(f64, i32, u64)>> = schedule
            .iter()
            .enumerate()
            .map(|(i, _)| {
                finished.get(i).map(|p| {
                    let loss = position.loss(p.best).expect("exact scores, checked before");
                    (p.elapsed.as_secs_f64() * 1000.0, loss, p.nodes)
                })
            })
            .collect();
        if options.list {
            let _ = write!(out, "{:>4} {:>2}", n + 1, position.empties());
            for (cut, p) in schedule.iter().zip(&passes) {
                let name = cut.map_or("exact".to_string(), |c| format!("{}%", confidence(c)));
                match p {
                    Some((ms, loss, _)) => {
                        let _ = write!(out, "  {name} {ms:.1} ms loss {loss}");
                    }
                    None => {
                        let _ = write!(out, "  {name} -");
                    }
                }
            }
            out.push('\n');
        }
        rows.push(PassRow {
            empties: position.empties(),
            passes,
        });
    }
    let _ = writeln!(
        out,
        "passes: finished within the turn's budget / mean loss of the move (finished within {} ms) / median ms / median k nodes",
        options.cap_ms
    );
    let _ = write!(out, "{:>7} {:>9} {:>6}", "empties", "positions", "budget");
    for cut in &schedule {
        let name = cut.map_or("exact".to_string(), |c| {
            format!("cut {c} ({}%)", confidence(c))
        });
        let _ = write!(out, " {name:>28}");
    }
    out.push('\n');
    let mut counts: Vec<u32> = rows.iter().map(|r| r.empties).collect();
    counts.sort_unstable();
    counts.dedup();
    for e in counts {
        let here: Vec<&PassRow> = rows.iter().filter(|r| r.empties == e).collect();
        let budget = options.bot.time_ms.unwrap_or_else(|| turn_budget_ms(e)) as f64;
        let _ = write!(out, "{e:>7} {:>9} {budget:>6}", here.len());
        for i in 0..schedule.len() {
            let done: Vec<(f64, i32, u64)> = here.iter().filter_map(|r| r.passes[i]).collect();
            let in_budget = done.iter().filter(|d| d.0 <= budget).count();
            let cell = if done.is_empty() {
                "-".to_string()
            } else {
                let mut ms: Vec<f64> = done.iter().map(|d| d.0).collect();
                ms.sort_by(f64::total_cmp);
                let mut nodes: Vec<u64> = done.iter().map(|d| d.2).collect();
                nodes.sort_unstable();
                let loss = done.iter().map(|d| f64::from(d.1)).sum::<f64>() / done.len() as f64;
                format!(
                    "{:.0}% / {loss:.2} / {:.0} / {}",
                    100.0 * in_budget as f64 / here.len() as f64,
                    ms[ms.len() / 2],
                    nodes[nodes.len() / 2] / 1000
                )
            };
            let _ = write!(out, " {cell:>28}");
        }
        out.push('\n');
    }
    out
}

//! `referee standing GAMES... --empties E,...`: where the games were decided.
//! Each game's position at each count of empties is solved exactly
//! ([`crate::judge::standing`]), games in parallel on `--threads` threads,
//! each game's line written as it is done
//! ([`crate::files::standing_file`]; an existing output is continued). Then
//! the tables ([`crate::stats::standing_table`]) are printed, and written
//! as JSON with `--json`.

use crate::cli::StandingArgs;
use crate::commands::output;
use crate::files::games_file::GamesWriter;
use crate::files::outputs::{check_writable, write_file};
use crate::files::record::{self, GameRecord};
use crate::files::standing_file::{self, GameStanding, StandingAt, StandingHeader};
use crate::files::{analysis_file, merge};
use crate::judge::analyze;
use crate::judge::standing::{self, Position, Settings, StandingJudge};
use crate::stats::standing_table;
use std::collections::{BTreeMap, VecDeque};
use std::path::{Path, PathBuf};
use std::sync::{mpsc, Arc, Mutex};
use std::time::Instant;

/// One game to solve.
#[derive(Debug)]
struct Job {
    record: GameRecord,
    /// Its file's index in the inputs, and its line there.
    file: usize,
    line: usize,
    positions: Vec<Position>,
    final_empties: u32,
}

/// Runs `referee standing`.
///
/// # Errors
/// Bad settings, unreadable or inconsistent games files, a game whose
/// moves are not legal, an output that is not a standing file of this
/// match with these settings, or a write that failed: one line naming the
/// file (and line). Everything is checked before the first solve, and
/// nothing is written when a check fails.
pub fn run(args: &StandingArgs) -> Result<(), String> {
    let settings = Settings::new(args.empties.clone(), args.wld)?;
    if crate::files::games_file::kind(&args.files[0])? != record::Header::KIND {
        return Err(format!(
            "{}: a tournament's games file: `referee standing` reads the games files of a match",
            args.files[0].display()
        ));
    }
    let mut jobs = Vec::new();
    let mut error = None;
    let m = merge::stream(&args.files, |file, line, _, r| {
        if error.is_some() {
            return;
        }
        let found = analyze::parse_squares(&r)
            .and_then(|moves| standing::positions(&r.opening, &moves, &settings.empties));
        match found {
            Ok((positions, final_empties)) => jobs.push(Job {
                record: r,
                file,
                line,
                positions,
                final_empties,
            }),
            Err(e) => {
                error = Some(format!(
                    "{}:{line}: game {}: {e}",
                    args.files[file].display(),
                    r.game
                ));
            }
        }
    })?;
    if let Some(e) = error {
        return Err(e);
    }
    let gaps = m.gaps();
    if !gaps.is_empty() {
        eprintln!("referee: warning: {}", gaps.describe(m.games.len()));
    }
    let header = StandingHeader::new(&m.header, settings.clone());
    let output = args
        .output
        .clone()
        .unwrap_or_else(|| standing_file::default_output(&args.files[0]));
    if args.files.contains(&output) {
        return Err(format!(
            "-o {}: that is a games file given as input",
            output.display()
        ));
    }
    if let Some(path) = &args.json {
        check_writable(path).map_err(|e| format!("--json {}: {e}", path.display()))?;
    }
    let (mut writer, mut done) = open_output(&output, &header, &args.files, &jobs)?;
    jobs.retain(|j| !done.contains_key(&j.record.game));
    jobs.sort_by_key(|j| j.record.game);
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1)
        .min(jobs.len().max(1));
    let solves: u64 = jobs.iter().map(|j| j.positions.len() as u64).sum();
    if !done.is_empty() {
        eprintln!(
            "referee: resuming {}: {} games already solved, {} to solve",
            output.display(),
            done.len(),
            jobs.len()
        );
    }
    eprintln!(
        "referee: solving {solves} positions of {} games on {threads} threads: {}",
        jobs.len(),
        settings.describe()
    );
    let names: Vec<String> = args.files.iter().map(|p| p.display().to_string()).collect();
    let bar = indicatif::ProgressBar::new(solves);
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "{elapsed_precise} [{bar:30}] {pos}/{len} solves ({per_sec}, eta {eta}) {msg}",
        )
        .expect("a valid template")
        .progress_chars("=> "),
    );
    let start = Instant::now();
    let total = jobs.len();
    let queue = Arc::new(Mutex::new(VecDeque::from(jobs)));
    let (send, receive) = mpsc::channel::<GameStanding>();
    let workers: Vec<_> = (0..threads)
        .map(|_| {
            let queue = Arc::clone(&queue);
            let send = send.clone();
            let names = names.clone();
            let wld = settings.wld;
            std::thread::spawn(move || {
                let mut judge = StandingJudge::new(wld);
                loop {
                    let Some(job) = queue.lock().expect("no panic holding it").pop_front() else {
                        break;
                    };
                    if send
                        .send(solve_game(&mut judge, &job, &names[job.file]))
                        .is_err()
                    {
                        break;
                    }
                }
            })
        })
        .collect();
    drop(send);
    let mut failed = None;
    let mut solved = 0;
    for g in receive {
        bar.inc(g.at.len() as u64);
        solved += 1;
        bar.set_message(format!("{solved}/{total} games"));
        // After a failed write nothing more is written: a part-line left by
        // the failure must stay the file's last line, which the next run
        // cuts as torn and solves again.
        if failed.is_some() {
            continue;
        }
        if let Err(e) = writer.write_value(&g) {
            failed = Some(format!("{}: {e}", output.display()));
            queue.lock().expect("no panic holding it").clear();
            continue;
        }
        done.insert(g.game, g);
    }
    for w in workers {
        w.join()
            .map_err(|_| "a solving thread panicked".to_string())?;
    }
    bar.finish_and_clear();
    if let Some(e) = failed {
        return Err(e);
    }
    eprintln!(
        "referee: {total} games, {solves} positions solved in {:.1} s on {threads} threads -> {}",
        start.elapsed().as_secs_f64(),
        output.display()
    );
    let games: Vec<&GameStanding> = done.values().collect();
    let s = standing_table::summarize(&header.names, &settings, &games);
    output::print(&standing_table::text(&s));
    match &args.json {
        Some(path) => {
            let text = serde_json::to_string_pretty(&s).expect("the summary serializes");
            write_file(path, &(text + "\n"), "--json").map_or(Ok(()), Err)
        }
        None => Ok(()),
    }
}

/// Opens the standing file to write: a new one with `header`, or an
/// existing one of the same match with the same settings, continued;
/// returns the games it already holds.
///
/// # Errors
/// An existing file that is not such a standing file, or holds games that
/// are not these (other moves, or not in the inputs).
fn open_output(
    path: &Path,
    header: &StandingHeader,
    inputs: &[PathBuf],
    jobs: &[Job],
) -> Result<(GamesWriter, BTreeMap<usize, GameStanding>), String> {
    let exists = path.metadata().is_ok_and(|m| m.len() > 0);
    if !exists
        || !standing_file::is_standing(path)
            .map_err(|e| format!("{e} (-o would overwrite it: give another file)"))?
    {
        return Ok((GamesWriter::create_with(path, header)?, BTreeMap::new()));
    }
    let f = standing_file::read(path, true)?;
    if f.header.settings != header.settings {
        return Err(format!(
            "{}:1: solved with other settings ({}) than these ({}): give another -o",
            path.display(),
            f.header.settings.describe(),
            header.settings.describe()
        ));
    }
    if f.header.names != header.names
        || (
            &f.header.p1,
            &f.header.p2,
            f.header.seed,
            &f.header.openings,
        ) != (&header.p1, &header.p2, header.seed, &header.openings)
    {
        return Err(format!(
            "{}:1: standings of another match than {}",
            path.display(),
            inputs[0].display()
        ));
    }
    let by_game: std::collections::HashMap<usize, &Job> =
        jobs.iter().map(|j| (j.record.game, j)).collect();
    let mut done = BTreeMap::new();
    for (game, (line, g)) in f.games {
        let Some(j) = by_game.get(&game) else {
            return Err(format!(
                "{}:{line}: game {game} is not in the games files",
                path.display()
            ));
        };
        standing_file::check_game(path, line, &g, &j.record)?;
        done.insert(game, g);
    }
    if let Some(line) = f.torn {
        eprintln!(
            "referee: {}:{line}: torn last line (an interrupted run) cut; its game is solved again",
            path.display()
        );
    }
    let writer = GamesWriter::append(path, f.valid_len)?;
    Ok((writer, done))
}

/// Solves one game's positions, the most empties first (their table helps
/// the later ones).
fn solve_game(judge: &mut StandingJudge, job: &Job, file: &str) -> GameStanding {
    let start = Instant::now();
    judge.new_game();
    let r = &job.record;
    let at = job
        .positions
        .iter()
        .map(|p| {
            let s = judge.solve(p);
            StandingAt {
                empties: p.empties,
                position: p.obf(),
                score_black: s.score_black,
                nodes: s.nodes,
                ms: s.ms,
            }
        })
        .collect();
    GameStanding {
        game: r.game,
        file: file.to_string(),
        line: job.line,
        moves_hash: analysis_file::moves_hash(r),
        black: r.black,
        winner: r.winner,
        result_black: r.disc_diff(r.black),
        final_empties: job.final_empties,
        at,
        ms: (start.elapsed().as_secs_f64() * 1e4).round() / 10.0,
    }
}

//! `referee standing GAMES... --empties E,...`: where the games were decided.
//! Each game's position at each count of empties is solved exactly
//! ([`crate::judge::standing`]), games in parallel on `--threads` threads,
//! each game's line written as it is done
//! ([`crate::files::standing_file`]; an existing output is continued). Then
//! the tables ([`crate::stats::standing_table`]) are printed, and written
//! as JSON with `--json`.

use crate::cli::StandingArgs;
use crate::commands::judging;
use crate::commands::output;
use crate::files::analysis_file;
use crate::files::games_file::GamesWriter;
use crate::files::outputs::{check_writable_later, write_file};
use crate::files::record::GameRecord;
use crate::files::standing_file::{self, GameStanding, StandingAt, StandingHeader};
use crate::judge::analyze;
use crate::judge::standing::{self, Position, Settings, StandingJudge};
use crate::stats::standing_table;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
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
    let (mut jobs, m) = judging::read_jobs(
        &args.files,
        "standing",
        |_| true,
        |r, file, line| {
            let moves = analyze::parse_squares(&r)?;
            let (positions, final_empties) =
                standing::positions(&r.opening, &moves, &settings.empties)?;
            Ok(Job {
                record: r,
                file,
                line,
                positions,
                final_empties,
            })
        },
    )?;
    let gaps = m.gaps();
    if !gaps.is_empty() {
        eprintln!("referee: warning: {}", gaps.describe(m.games.len()));
    }
    let header = StandingHeader::new(&m.header, settings.clone());
    let output = args
        .output
        .clone()
        .unwrap_or_else(|| standing_file::default_output(&args.files[0]));
    if let Some(path) = &args.json {
        if args.files.contains(path) || *path == output {
            return Err(format!(
                "--json {}: that is an input or the standing file",
                path.display()
            ));
        }
        check_writable_later(path).map_err(|e| format!("--json {}: {e}", path.display()))?;
    }
    let (mut writer, mut done) = open_output(&output, &header, &args.files, &jobs)?;
    jobs.retain(|j| !done.contains_key(&j.record.game));
    jobs.sort_by_key(|j| j.record.game);
    let threads = judging::threads(args.threads, jobs.len());
    let solves: u64 = jobs.iter().map(|j| j.positions.len() as u64).sum();
    judging::say_continued(&output, done.len(), jobs.len(), ("solved", "solve"));
    eprintln!(
        "referee: solving {solves} positions of {} games on {threads} thread(s): {}",
        jobs.len(),
        settings.describe()
    );
    let names: Vec<String> = args.files.iter().map(|p| p.display().to_string()).collect();
    let start = Instant::now();
    let total = jobs.len();
    let wld = settings.wld;
    let solved = judging::judge_all(
        jobs,
        threads,
        (solves, "solves"),
        || StandingJudge::new(wld),
        |judge, job| solve_game(judge, job, &names[job.file]),
        |g| g.at.len() as u64,
        &mut writer,
        &output,
    )?;
    done.extend(solved.into_iter().map(|g| (g.game, g)));
    eprintln!(
        "referee: {total} games, {solves} positions solved in {:.1} s on {threads} thread(s) -> {}",
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
    let records = jobs.iter().map(|j| (j.record.game, &j.record)).collect();
    let fits = |found: &StandingHeader| {
        if found.settings != header.settings {
            return Err(format!(
                "solved with other settings ({}) than these ({}): give another -o",
                found.settings.describe(),
                header.settings.describe()
            ));
        }
        if (&found.p1, &found.p2, found.seed, &found.openings)
            != (&header.p1, &header.p2, header.seed, &header.openings)
        {
            return Err(format!(
                "standings of another match than {}",
                inputs[0].display()
            ));
        }
        Ok(())
    };
    let belongs = judging::belongs(path, &records, "", standing_file::check_game);
    judging::open_output(path, inputs, &standing_file::KIND, header, fits, belongs)
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

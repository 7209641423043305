//! `referee analyze GAMES... -o ANALYSIS`: every game of a match judged
//! move by move ([`crate::judge::analyze`]), games in parallel on `--threads`
//! threads, each game's line written as it is done
//! ([`crate::files::analysis_file`]). An existing output is continued: its games
//! are skipped, a torn last line is cut and its game judged again.

use crate::cli::AnalyzeArgs;
use crate::commands::judging;
use crate::files::analysis_file::{self, AnalysisHeader, GameAnalysis, MoveVerdict};
use crate::files::games_file::GamesWriter;
use crate::files::record::{self, GameRecord};
use crate::judge::analyze::{self, Judge, Settings};
use othello::Square;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// One game to judge.
#[derive(Debug)]
struct Job {
    record: GameRecord,
    /// Its file's index in the inputs, and its line there.
    file: usize,
    line: usize,
    squares: Vec<Square>,
}

/// Runs `referee analyze`.
///
/// # Errors
/// Bad settings, unreadable or inconsistent games files, a game whose
/// moves are not legal, an output that is not an analysis of this match at
/// these settings, or a write that failed: one line naming the file (and
/// line). Everything is checked before the first game is judged.
pub fn run(args: &AnalyzeArgs) -> Result<(), String> {
    let settings = Settings {
        depth: args.depth,
        exact: args.exact,
        time_ms: args.time_ms,
        selective: !args.full_width,
    };
    settings.check()?;
    // The games, checked: legal moves throughout.
    let in_shard = |r: &GameRecord| args.shard.is_none_or(|s| record::in_shard(s, r.game));
    let (mut jobs, m) = judging::read_jobs(&args.files, "analyze", in_shard, |r, file, line| {
        analyze::record_squares(&r).map(|squares| Job {
            record: r,
            file,
            line,
            squares,
        })
    })?;
    let header = AnalysisHeader::new(&m.header, settings, args.shard);
    let output = args
        .output
        .clone()
        .unwrap_or_else(|| analysis_file::default_output(&args.files[0], args.shard));
    let (mut writer, done) = open_output(&output, &header, &args.files, &jobs)?;
    jobs.retain(|j| !done.contains(&j.record.game));
    jobs.sort_by_key(|j| j.record.game);
    let threads = judging::threads(args.threads, jobs.len());
    let positions: u64 = jobs.iter().map(|j| j.squares.len() as u64).sum();
    judging::say_continued(&output, done.len(), jobs.len(), ("judged", "judge"));
    eprintln!(
        "referee: judging {} games ({positions} positions) on {threads} threads: {}",
        jobs.len(),
        settings.describe()
    );
    let names: Vec<String> = args.files.iter().map(|p| p.display().to_string()).collect();
    let start = Instant::now();
    let judged = judging::judge_all(
        jobs,
        threads,
        (positions, "positions"),
        || Judge::new(settings),
        |judge, job| judge_game(judge, job, &names[job.file]),
        |a| a.positions as u64,
        &mut writer,
        &output,
    )?
    .len();
    let seconds = start.elapsed().as_secs_f64();
    eprintln!(
        "referee: {judged} games, {positions} positions judged in {seconds:.1} s ({:.1} positions/s) -> {}",
        positions as f64 / seconds.max(1e-9),
        output.display()
    );
    Ok(())
}

/// Opens the analysis file to write: a new one with `header`, or an
/// existing analysis of the same match at the same settings (and shard),
/// continued; returns the games it already holds.
///
/// # Errors
/// An existing file that is not such an analysis, or holds games that are
/// not these (other moves, or not in the inputs).
fn open_output(
    path: &Path,
    header: &AnalysisHeader,
    inputs: &[PathBuf],
    jobs: &[Job],
) -> Result<(GamesWriter, BTreeSet<usize>), String> {
    let records = jobs.iter().map(|j| (j.record.game, &j.record)).collect();
    let fits = |found: &AnalysisHeader| {
        if found.judge != header.judge {
            return Err(format!(
                "judged at other settings ({}) than these ({}): give another -o to analyse again",
                found.judge.describe(),
                header.judge.describe()
            ));
        }
        if !found.same_match(header) || found.shard != header.shard {
            return Err(format!(
                "an analysis of another match or shard than {}",
                inputs[0].display()
            ));
        }
        Ok(())
    };
    let belongs = judging::belongs(
        path,
        &records,
        " (of this shard)",
        analysis_file::check_game,
    );
    let (writer, done) =
        judging::open_output(path, inputs, &analysis_file::KIND, header, fits, belongs)?;
    Ok((writer, done.into_keys().collect()))
}

/// Judges every move of one game.
fn judge_game(judge: &mut Judge, job: &Job, file: &str) -> GameAnalysis {
    let start = Instant::now();
    judge.new_game();
    let r = &job.record;
    let opening_plies = r.opening.len() / 2;
    let mut moves = Vec::with_capacity(job.squares.len());
    analyze::replay(&r.opening, &job.squares, |i, board, sq| {
        let v = judge.judge(board, sq);
        moves.push(MoveVerdict {
            n: opening_plies + i + 1,
            by: r.moves[i].by,
            square: sq.to_string(),
            best: v.best.to_string(),
            value: v.value,
            played_value: v.played_value,
            loss: v.loss,
            exact: v.exact,
        });
    })
    .expect("checked before judging");
    let result_black = r.disc_diff(r.black);
    GameAnalysis {
        game: r.game,
        file: file.to_string(),
        line: job.line,
        moves_hash: analysis_file::moves_hash(r),
        black: r.black,
        winner: r.winner,
        result_black,
        positions: moves.len(),
        moves,
        ms: (start.elapsed().as_secs_f64() * 1e4).round() / 10.0,
    }
}

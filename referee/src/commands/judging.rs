//! What `referee analyze` and `referee standing` share: the games read and
//! checked before any is judged, the output opened (or continued), the games judged
//! in parallel, each thread with its own judge, each game's line written
//! to the output as it is done (so that an interrupted run continues), with
//! a progress bar.

use crate::files::games_file::{GameLine, GamesWriter};
use crate::files::judged_file::{self, FileKind, JudgedFile};
use crate::files::merge::{self, Streamed};
use crate::files::record::{self, GameRecord};
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::collections::{BTreeMap, HashMap, VecDeque};
use std::path::{Path, PathBuf};
use std::sync::{mpsc, Mutex};

/// The games of a match's games files `files` that `keep` keeps, each made
/// a job by `job` (with its file's index and its line) before anything is
/// judged, and the match they belong to. `command` names the command in
/// the message that refuses a tournament's files.
///
/// # Errors
/// Unreadable or inconsistent files ([`merge::stream`]), a tournament's,
/// or `job`'s error, named `FILE:LINE: game N: ...`.
pub fn read_jobs<J>(
    files: &[PathBuf],
    command: &str,
    keep: impl Fn(&GameRecord) -> bool,
    mut job: impl FnMut(GameRecord, usize, usize) -> Result<J, String>,
) -> Result<(Vec<J>, Streamed), String> {
    if crate::files::games_file::kind(&files[0])? != record::Header::KIND {
        return Err(format!(
            "{}: a tournament's games file: `referee {command}` reads the games files of a match",
            files[0].display()
        ));
    }
    let mut jobs = Vec::new();
    let mut error = None;
    let m = merge::stream(files, |file, line, _, r| {
        if error.is_some() || !keep(&r) {
            return;
        }
        let game = r.game;
        match job(r, file, line) {
            Ok(j) => jobs.push(j),
            Err(e) => {
                error = Some(format!(
                    "{}:{line}: game {game}: {e}",
                    files[file].display()
                ))
            }
        }
    })?;
    error.map_or(Ok((jobs, m)), Err)
}

/// The check of an existing output's game line at `line` of `path`: the
/// game must be among `records` (else an error saying so, `where_` naming
/// where it was looked for), and `same` must accept it against its record.
///
/// # Errors
/// As said.
pub fn belongs<'a, T: GameLine>(
    path: &'a Path,
    records: &'a HashMap<usize, &'a GameRecord>,
    where_: &'a str,
    same: impl Fn(&Path, usize, &T, &GameRecord) -> Result<(), String> + 'a,
) -> impl Fn(usize, &T) -> Result<(), String> + 'a {
    move |line, g| {
        let Some(r) = records.get(&g.game()) else {
            return Err(format!(
                "{}:{line}: game {} is not in the games files{where_}",
                path.display(),
                g.game()
            ));
        };
        same(path, line, g, r)
    }
}

/// The number of threads for `jobs` games: `threads`, else the number of
/// cores, at most one a game.
pub fn threads(threads: Option<usize>, jobs: usize) -> usize {
    threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1)
        .min(jobs.max(1))
}

/// Judges `jobs` on `threads` threads: each thread makes its judge with
/// `judge`, and `work` judges one job. Each result is written to `writer`
/// (the file `output`) as it comes, in the order the games finish, and
/// moves the progress bar (of `units` `unit` in all) by `done(result)`.
/// Returns the results written.
///
/// # Errors
/// A write that failed (named by `output`): nothing more is written and no
/// new job starts (those under way finish), so that a part-line left by
/// the failure stays the file's last line, which the next run cuts as torn
/// and judges again.
#[allow(clippy::too_many_arguments)]
pub fn judge_all<J: Send, S, R: Serialize + Send>(
    jobs: Vec<J>,
    threads: usize,
    (units, unit): (u64, &str),
    judge: impl Fn() -> S + Sync,
    work: impl Fn(&mut S, &J) -> R + Sync,
    done: impl Fn(&R) -> u64,
    writer: &mut GamesWriter,
    output: &Path,
) -> Result<Vec<R>, String> {
    let bar = indicatif::ProgressBar::new(units);
    bar.set_style(
        indicatif::ProgressStyle::with_template(&format!(
            "{{elapsed_precise}} [{{bar:30}}] {{pos}}/{{len}} {unit} ({{per_sec}}, eta {{eta}}) {{msg}}"
        ))
        .expect("a valid template")
        .progress_chars("=> "),
    );
    let total = jobs.len();
    let queue = Mutex::new(VecDeque::from(jobs));
    let (send, receive) = mpsc::channel::<R>();
    let mut failed = None;
    let mut written = Vec::with_capacity(total);
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                let send = send.clone();
                let (queue, judge, work) = (&queue, &judge, &work);
                scope.spawn(move || {
                    let mut state = judge();
                    loop {
                        let Some(job) = queue.lock().expect("no panic holding it").pop_front()
                        else {
                            break;
                        };
                        if send.send(work(&mut state, &job)).is_err() {
                            break;
                        }
                    }
                })
            })
            .collect();
        drop(send);
        for (k, result) in receive.into_iter().enumerate() {
            bar.inc(done(&result));
            bar.set_message(format!("{}/{total} games", k + 1));
            if failed.is_some() {
                continue;
            }
            if let Err(e) = writer.write_value(&result) {
                failed = Some(format!("{}: {e}", output.display()));
                queue.lock().expect("no panic holding it").clear();
                continue;
            }
            written.push(result);
        }
        // A thread that panicked is an error of its own, not a panic here
        // (a joined thread's panic does not reach the scope).
        if workers.into_iter().any(|w| w.join().is_err()) {
            failed.get_or_insert_with(|| "a judging thread panicked".to_string());
        }
    });
    bar.finish_and_clear();
    failed.map_or(Ok(written), Err)
}

/// Says on stderr that `path` is continued: `done` games already in it
/// and `todo` to do (`verbs`: the past and the infinitive, `judged`,
/// `judge`). Nothing when nothing was done before.
pub fn say_continued(path: &Path, done: usize, todo: usize, (past, verb): (&str, &str)) {
    if done > 0 {
        eprintln!(
            "referee: resuming {}: {done} games already {past}, {todo} to {verb}",
            path.display()
        );
    }
}

/// Opens the output of a judging command to write: a new file of `kind`
/// with `header`, or an existing one continued, whose header `fits` (the
/// same match and settings: else its error, after the file's name and
/// line 1) and whose every game `belongs` (`FILE:LINE: ...` else); returns
/// the games it already holds. A torn last line is cut (said on stderr):
/// its game is judged again.
///
/// # Errors
/// `path` among the `inputs`, an existing file of another kind (not
/// overwritten), or one that does not fit or holds games that do not belong.
pub fn open_output<H: Serialize + DeserializeOwned, T: DeserializeOwned + GameLine>(
    path: &Path,
    inputs: &[PathBuf],
    kind: &FileKind,
    header: &H,
    fits: impl Fn(&H) -> Result<(), String>,
    belongs: impl Fn(usize, &T) -> Result<(), String>,
) -> Result<(GamesWriter, BTreeMap<usize, T>), String> {
    if inputs.iter().any(|i| i == path) {
        return Err(format!(
            "-o {}: that is a games file given as input",
            path.display()
        ));
    }
    let exists = path.metadata().is_ok_and(|m| m.len() > 0);
    if !exists
        || !judged_file::is_kind::<H>(path, kind)
            .map_err(|e| format!("{e} (-o would overwrite it: give another file)"))?
    {
        return Ok((GamesWriter::create_with(path, header)?, BTreeMap::new()));
    }
    let f: JudgedFile<H, T> = judged_file::read(path, kind, true)?;
    fits(&f.header).map_err(|e| format!("{}:1: {e}", path.display()))?;
    let mut done = BTreeMap::new();
    for (game, (line, g)) in f.games {
        belongs(line, &g)?;
        done.insert(game, g);
    }
    if let Some(line) = f.torn {
        eprintln!(
            "referee: {}:{line}: torn last line (an interrupted run) cut; its game is done again",
            path.display()
        );
    }
    Ok((GamesWriter::append(path, f.valid_len)?, done))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_result_is_written_and_a_panicking_judge_is_an_error() {
        let path = std::env::temp_dir().join(format!("judging-{}.jsonl", std::process::id()));
        let mut writer = GamesWriter::create_with(&path, &"header").unwrap();
        let mut out = judge_all(
            (1..=5).collect(),
            2,
            (5, "games"),
            || (),
            |(), &n: &u32| n * 10,
            |_| 1,
            &mut writer,
            &path,
        )
        .unwrap();
        out.sort_unstable();
        assert_eq!(out, [10, 20, 30, 40, 50]);
        assert_eq!(std::fs::read_to_string(&path).unwrap().lines().count(), 6);
        let e = judge_all(
            vec![1u32, 2, 3],
            2,
            (3, "games"),
            || (),
            |(), &n: &u32| if n == 2 { panic!("a bug") } else { n },
            |_| 1,
            &mut writer,
            &path,
        )
        .unwrap_err();
        assert_eq!(e, "a judging thread panicked");
        let _ = std::fs::remove_file(&path);
    }
}

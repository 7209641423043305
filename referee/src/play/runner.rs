//! Runs many games at once: K worker threads take game numbers from a
//! shared queue, and the caller's thread receives each record as its game
//! ends (to print, save and decide whether to stop early).

use crate::files::record::GameRecord;
use crate::play::game::{self, GameSetup, PlayerSpec};
use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Mutex};
use std::time::Duration;

/// Plays `setups` with at most `concurrency` games at a time. `on_done`
/// gets every record in the order games end; when it returns `false` no
/// new game starts (games under way still finish and are reported).
pub fn run(
    players: &[PlayerSpec; 2],
    setups: Vec<GameSetup>,
    concurrency: usize,
    on_done: impl FnMut(GameRecord) -> bool,
) {
    let games = setups.into_iter().map(|s| (s, players.clone())).collect();
    run_each(games, concurrency, on_done);
}

/// As [`run`], each game with its own players (a tournament's).
pub fn run_each(
    games: Vec<(GameSetup, [PlayerSpec; 2])>,
    concurrency: usize,
    mut on_done: impl FnMut(GameRecord) -> bool,
) {
    let queue = Mutex::new(VecDeque::from(games));
    let stop = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel();
    std::thread::scope(|scope| {
        for _ in 0..concurrency.max(1) {
            let tx = tx.clone();
            let (queue, stop) = (&queue, &stop);
            scope.spawn(move || loop {
                if stop.load(Ordering::SeqCst) {
                    break;
                }
                let next = queue.lock().unwrap_or_else(|e| e.into_inner()).pop_front();
                let Some((setup, players)) = next else { break };
                if tx.send(game::play(&setup, &players, None)).is_err() {
                    break;
                }
            });
        }
        drop(tx);
        for record in rx {
            if !on_done(record) {
                stop.store(true, Ordering::SeqCst);
            }
        }
    });
}

/// The games to play at once: `--concurrency` (default: the cores), at
/// least 1, and at most the cores unless `--force-concurrency`.
///
/// # Errors
/// 0, or more than the cores without `force`.
pub fn concurrency(requested: Option<usize>, force: bool) -> Result<usize, String> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let concurrency = requested.unwrap_or(cores);
    if concurrency == 0 {
        return Err("--concurrency must be at least 1".into());
    }
    if concurrency > cores && !force {
        return Err(format!(
            "--concurrency {concurrency} is more than the {cores} cores: timings would be unfair (add --force-concurrency to insist)"
        ));
    }
    Ok(concurrency)
}

/// CPU time the referee itself used so far (all its threads, not the
/// bots): its overhead.
pub fn cpu_time() -> Duration {
    // SAFETY: getrusage fills in the plain struct it is given.
    let usage = unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        libc::getrusage(libc::RUSAGE_SELF, &mut usage);
        usage
    };
    let tv = |t: libc::timeval| Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
    tv(usage.ru_utime) + tv(usage.ru_stime)
}

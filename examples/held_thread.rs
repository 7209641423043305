//! Whether a second thread runs while the machine holds the first: the
//! question behind the bot's watchdog (`src/bin/othello/watchdog.rs`).
//!
//! The main thread plays a bot's rhythm: 130 ms of busy work reading the
//! clock (a turn), then 130 ms asleep (the opponent's turn). A second
//! thread wakes every 2 ms during the turns and notes the time. Each
//! stretch of more than 8 ms between two of the main thread's clock reads
//! is a hold; the report says, by the hold's length, whether the second
//! thread woke inside it (at least 3 ms after it began, 1 ms before it
//! ended), and lists the holds of 16 ms and more.
//!
//! Run it beside a load, two of them half a turn apart, as the bots of a
//! match alternate (docs/search.md, "The watchdog"):
//!
//! ```sh
//! cargo build --release --example held_thread
//! sh -c 'while :; do :; done' & sh -c 'while :; do :; done' &
//! target/release/examples/held_thread 240 0 & target/release/examples/held_thread 240 130
//! kill %1 %2
//! ```
//!
//! `held_thread [SECONDS [OFFSET_MS]]` (default 60 and 0).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// A turn's busy time and the sleep after it (ms).
const TURN_MS: u64 = 130;
/// A gap between two clock reads longer than this is a hold (ms).
const HOLD_MS: f64 = 8.0;
/// The second thread's sleep between wake-ups (ms).
const WAKE_MS: u64 = 2;
/// The hold lengths reported apart (ms): 8-12, 12-16, 16-24, 24 and more.
const BUCKETS: [f64; 3] = [12.0, 16.0, 24.0];

fn main() {
    let mut args = std::env::args().skip(1);
    let mut number = |what: &str, default: u64| match args.next() {
        None => default,
        Some(s) => s.parse().unwrap_or_else(|_| {
            eprintln!("held_thread: {what} must be a number, not {s:?}");
            std::process::exit(2)
        }),
    };
    let seconds = number("SECONDS", 60);
    let offset = number("OFFSET_MS", 0);

    let t0 = Instant::now();
    let ms = move |t: Instant| (t - t0).as_secs_f64() * 1e3;
    let busy = Arc::new(AtomicBool::new(false));
    let stop = Arc::new(AtomicBool::new(false));
    let wakes = Arc::new(Mutex::new(Vec::new()));
    let watcher = {
        let (busy, stop, wakes) = (busy.clone(), stop.clone(), wakes.clone());
        std::thread::spawn(move || {
            let mut seen = Vec::new();
            while !stop.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(WAKE_MS));
                if busy.load(Ordering::Relaxed) {
                    seen.push(ms(Instant::now()));
                }
            }
            *wakes.lock().unwrap() = seen;
        })
    };

    std::thread::sleep(Duration::from_millis(offset));
    let (mut holds, mut turns) = (Vec::new(), 0);
    while t0.elapsed().as_secs() < seconds {
        busy.store(true, Ordering::Relaxed);
        let start = Instant::now();
        let mut last = start;
        while last - start < Duration::from_millis(TURN_MS) {
            let now = Instant::now();
            if ms(now) - ms(last) > HOLD_MS {
                holds.push((ms(last), ms(now)));
            }
            last = now;
        }
        busy.store(false, Ordering::Relaxed);
        turns += 1;
        std::thread::sleep(Duration::from_millis(TURN_MS));
    }
    stop.store(true, Ordering::Relaxed);
    watcher.join().unwrap();

    let wakes = wakes.lock().unwrap();
    // [ran inside, did not] by bucket.
    let mut counts = [[0u32; 2]; BUCKETS.len() + 1];
    for &(a, b) in &holds {
        let bucket = BUCKETS.iter().filter(|&&x| b - a >= x).count();
        let ran = wakes.iter().any(|&t| t > a + 3.0 && t < b - 1.0);
        counts[bucket][usize::from(!ran)] += 1;
        if b - a >= BUCKETS[1] {
            println!(
                "hold of {:.1} ms at {a:.0} ms: the second thread ran inside: {ran}",
                b - a
            );
        }
    }
    println!(
        "{turns} turns; holds of 8-12, 12-16, 16-24, 24+ ms (second thread ran inside / not):"
    );
    println!("{counts:?}");
}

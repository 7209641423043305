//! The watchdog: a thread that answers a turn in the search's place when
//! the machine holds the search past its time.
//!
//! The search stops itself at its budget, but a process the machine does
//! not run cannot look at its clock: under load the bot has been held for
//! 20-40 ms at the end of a turn, past CodinGame's 150 ms, and a late
//! answer loses (docs/journal/search.md, "Under load"). Another thread often runs
//! meanwhile, on the other core or as soon as its timer wakes it. The
//! watchdog sleeps until [`GRACE`] after the turn's budget and, if the
//! turn is still unanswered then, answers with the best move the search
//! has shown ([`Progress`]). Exactly one of the two answers each turn.

use othello::search::Progress;
use othello::time::Deadline;
use othello::Square;
use std::io;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How long after its budget a turn waits for the search's own answer
/// before the watchdog answers: the default budgets (at most 135 ms) then
/// answer by 139 ms. A search the machine runs nearly always answers
/// within 1 ms of its budget (docs/journal/search.md, "Under load"; "The
/// watchdog"). 8 ms until later on 2026-12-02, when a watch answered at
/// 148.5 ms under `scripts/stress.sh`.
pub const GRACE: Duration = Duration::from_millis(4);

/// Answers each turn once: by the search ([`Watchdog::answer`]), or by the
/// turn's watch, a thread that wakes [`GRACE`] after the turn's budget.
pub struct Watchdog {
    /// Whether the current turn is answered.
    answered: Arc<AtomicBool>,
    progress: Progress,
    /// Writes an answer line.
    write: fn(&str) -> io::Result<()>,
}

impl Watchdog {
    /// A watchdog whose answers, and [`Watchdog::answer`]'s, go to
    /// `write`; it answers with the move `progress` shows.
    pub fn new(write: fn(&str) -> io::Result<()>, progress: Progress) -> Watchdog {
        Watchdog {
            answered: Arc::new(AtomicBool::new(true)),
            progress,
            write,
        }
    }

    /// A new turn, whose search stops at `deadline`'s hard limit (an
    /// unlimited one: no watch), its best move so far `first`. Without a
    /// thread for its watch (the system refused one) the search alone
    /// answers.
    pub fn begin(&mut self, deadline: &Deadline, first: Square) {
        self.progress.publish(first);
        let answered = Arc::new(AtomicBool::new(false));
        self.answered = Arc::clone(&answered);
        let (progress, write) = (self.progress, self.write);
        if !deadline.is_unlimited() {
            let due = deadline.start() + deadline.budget() + GRACE;
            let _ = std::thread::Builder::new().spawn(move || {
                std::thread::sleep(due.saturating_duration_since(Instant::now()));
                if let Some(best) = progress.best() {
                    if !answered.swap(true, Ordering::SeqCst) {
                        // A closed output ends the game; the main thread sees it.
                        let _ = write(&format!("{best} MSG w"));
                    }
                }
            });
        }
    }

    /// Answers the turn with `line`, unless its watch has: whether it was
    /// written, or the error that stopped it.
    pub fn answer(&self, line: &str) -> io::Result<bool> {
        if self.answered.swap(true, Ordering::SeqCst) {
            return Ok(false);
        }
        (self.write)(line)?;
        Ok(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicU8;
    use std::sync::Mutex;

    fn square(name: &str) -> Square {
        Square::parse(name).unwrap()
    }

    /// A test's output: each test has its own.
    macro_rules! output {
        ($out:ident, $write:ident) => {
            static $out: Mutex<String> = Mutex::new(String::new());
            fn $write(line: &str) -> io::Result<()> {
                $out.lock().unwrap().push_str(&format!("{line}\n"));
                Ok(())
            }
        };
    }

    #[test]
    fn a_held_turn_is_answered_once_with_the_move_shown_last() {
        output!(OUT, write);
        static CELL: AtomicU8 = AtomicU8::new(0);
        let progress = Progress(Some(&CELL));
        let mut watchdog = Watchdog::new(write, progress);
        let start = Instant::now();
        watchdog.begin(
            &Deadline::new(start, Duration::from_millis(50)),
            square("d3"),
        );
        progress.publish(square("f5"));
        // The search "held" past its budget: nobody answers here.
        let text = || OUT.lock().unwrap().clone();
        while text().is_empty() && start.elapsed() < Duration::from_secs(5) {
            std::thread::sleep(Duration::from_millis(1));
        }
        assert_eq!(text(), "f5 MSG w\n");
        assert!(start.elapsed() >= Duration::from_millis(50) + GRACE);
        // The search's own answer, late, is not written.
        assert!(!watchdog.answer("c4 MSG s9 +2 160ms").unwrap());
        assert_eq!(text(), "f5 MSG w\n");
        // The next turn is the search's again.
        watchdog.begin(&Deadline::from_now_ms(60_000), square("e6"));
        assert!(watchdog.answer("e6 MSG s9 +2 100ms").unwrap());
        assert_eq!(text(), "f5 MSG w\ne6 MSG s9 +2 100ms\n");
    }

    #[test]
    fn a_turn_answered_in_time_is_not_answered_again() {
        output!(OUT, write);
        static CELL: AtomicU8 = AtomicU8::new(0);
        let mut watchdog = Watchdog::new(write, Progress(Some(&CELL)));
        watchdog.begin(&Deadline::from_now_ms(200), square("d3"));
        assert!(watchdog.answer("c4 MSG s9 +2 12ms").unwrap());
        // The next turn, begun before the first one's watch wakes, is not
        // the first one's to answer.
        watchdog.begin(&Deadline::from_now_ms(60_000), square("e6"));
        std::thread::sleep(Duration::from_millis(400));
        assert_eq!(*OUT.lock().unwrap(), "c4 MSG s9 +2 12ms\n");
    }

    #[test]
    fn an_untimed_turn_or_one_without_progress_is_left_to_the_search() {
        output!(OUT, write);
        static CELL: AtomicU8 = AtomicU8::new(0);
        let mut watchdog = Watchdog::new(write, Progress(Some(&CELL)));
        watchdog.begin(&Deadline::unlimited(), square("d3"));
        let mut silent = Watchdog::new(write, Progress::default());
        silent.begin(&Deadline::from_now_ms(0), square("d3"));
        std::thread::sleep(Duration::from_millis(100));
        assert_eq!(*OUT.lock().unwrap(), "");
        assert!(watchdog.answer("d3 MSG d30 +4 9000ms").unwrap());
        assert!(silent.answer("d3 MSG s1 +0 1ms").unwrap());
    }
}

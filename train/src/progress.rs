//! The commands' progress bars.
//!
//! On a terminal a bar redraws itself in place. When standard error is not
//! a terminal (a job under `nohup`, its output in a log), indicatif would draw
//! nothing at all, so a long fit or corpus chunk left no trace until its end;
//! there the bar instead writes its state as a plain line at most every
//! [`LOG_EVERY`] (at its next step), and its last state when it ends.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressFinish, ProgressStyle, TermLike};
use std::io::{self, IsTerminal, Write};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How often a bar writes a line when standard error is not a terminal: a
/// line a minute keeps an hour-long job's log at about 60 lines.
pub const LOG_EVERY: Duration = Duration::from_secs(60);

/// Redraws a second that indicatif makes of a bar in a log: each costs a
/// formatted line, and all but one a minute are dropped.
const LOG_DRAWS_PER_SECOND: u8 = 1;

/// A progress bar of `len` steps, labelled `what`.
pub fn bar(len: u64, what: &str) -> ProgressBar {
    let bar = ProgressBar::new(len);
    let terminal = io::stderr().is_terminal();
    // A log gets no bar: its blocks say nothing the counts do not.
    let shape = if terminal { " {wide_bar}" } else { "" };
    bar.set_style(
        ProgressStyle::with_template(&format!(
            "{what:>8} [{{elapsed_precise}}]{shape} {{pos}}/{{len}} eta {{eta}} {{msg}}"
        ))
        .expect("valid template"),
    );
    if terminal {
        return bar;
    }
    bar.set_draw_target(ProgressDrawTarget::term_like_with_hz(
        Box::new(LogLines::new(io::stderr(), LOG_EVERY)),
        LOG_DRAWS_PER_SECOND,
    ));
    // Dropped, the bar draws its final count (instead of clearing it),
    // which the log then gets as its last line.
    bar.with_finish(ProgressFinish::AndLeave)
}

/// A draw target that turns a bar's redraws into whole lines, at most one
/// every `every` (the first at once), and the last one held back when it
/// is dropped. Cursor moves and clears mean nothing in a log and are
/// ignored.
#[derive(Debug)]
struct LogLines<W: Write> {
    state: Mutex<LogState<W>>,
    every: Duration,
}

#[derive(Debug)]
struct LogState<W> {
    out: W,
    /// What the current redraw wrote so far.
    pending: String,
    /// When the last line went out; `None` before the first.
    last: Option<Instant>,
    /// The newest redraw not written (it came too soon after the last).
    held: Option<String>,
}

impl<W: Write> LogLines<W> {
    fn new(out: W, every: Duration) -> Self {
        LogLines {
            state: Mutex::new(LogState {
                out,
                pending: String::new(),
                last: None,
                held: None,
            }),
            every,
        }
    }

    fn state(&self) -> std::sync::MutexGuard<'_, LogState<W>> {
        // A panic while the lock was held leaves only a half-drawn line.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The end of a redraw at `now`: its text goes out as one line if
    /// `every` has passed since the last, and is held back otherwise.
    fn flush_at(&self, now: Instant) -> io::Result<()> {
        let mut state = self.state();
        let text = std::mem::take(&mut state.pending);
        // The end pads the line with spaces; its start is the label's.
        let line = text.trim_end().trim_start_matches('\n');
        if line.trim().is_empty() {
            return Ok(());
        }
        if state.last.is_some_and(|last| now - last < self.every) {
            state.held = Some(line.to_string());
            return Ok(());
        }
        state.last = Some(now);
        state.held = None;
        let line = format!("{line}\n");
        state.out.write_all(line.as_bytes())?;
        state.out.flush()
    }
}

impl<W: Write> Drop for LogLines<W> {
    /// The last state, if it was held back, ends the log.
    fn drop(&mut self) {
        let state = self.state.get_mut().unwrap_or_else(|e| e.into_inner());
        if let Some(line) = state.held.take() {
            // Nowhere to report a failed write to a log.
            let _ = state.out.write_all(format!("{line}\n").as_bytes());
            let _ = state.out.flush();
        }
    }
}

/// The width indicatif is told a log has (only a `wide_bar` would use it,
/// and a log's bar has none).
const LOG_WIDTH: u16 = 200;

impl<W: Write + Send + std::fmt::Debug> TermLike for LogLines<W> {
    fn width(&self) -> u16 {
        LOG_WIDTH
    }
    fn move_cursor_up(&self, _: usize) -> io::Result<()> {
        Ok(())
    }
    fn move_cursor_down(&self, _: usize) -> io::Result<()> {
        Ok(())
    }
    fn move_cursor_right(&self, _: usize) -> io::Result<()> {
        Ok(())
    }
    fn move_cursor_left(&self, _: usize) -> io::Result<()> {
        Ok(())
    }
    fn write_line(&self, s: &str) -> io::Result<()> {
        let mut state = self.state();
        state.pending.push_str(s);
        state.pending.push('\n');
        Ok(())
    }
    fn write_str(&self, s: &str) -> io::Result<()> {
        self.state().pending.push_str(s);
        Ok(())
    }
    fn clear_line(&self) -> io::Result<()> {
        Ok(())
    }
    fn flush(&self) -> io::Result<()> {
        self.flush_at(Instant::now())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    /// A writer the test keeps a handle on after the target is dropped.
    #[derive(Debug, Clone, Default)]
    struct Shared(Arc<Mutex<Vec<u8>>>);
    impl Write for Shared {
        fn write(&mut self, b: &[u8]) -> io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(b);
            Ok(b.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }
    impl Shared {
        fn text(&self) -> String {
            String::from_utf8(self.0.lock().unwrap().clone()).unwrap()
        }
    }

    /// A log gets whole lines: the first redraw at once, then one only
    /// when `every` has passed, and the newest held-back one at the end.
    #[test]
    fn a_log_gets_a_line_per_interval_and_the_last_state() {
        let out = Shared::default();
        let log = LogLines::new(out.clone(), Duration::from_secs(60));
        let t0 = Instant::now();
        let draw = |text: &str, at: u64| {
            log.clear_line().unwrap();
            log.write_str(text).unwrap();
            log.write_str("      ").unwrap();
            log.flush_at(t0 + Duration::from_secs(at)).unwrap();
        };
        draw("   steps 1/10", 0);
        draw("   steps 2/10", 30);
        draw("   steps 7/10 validation MAE 3.4", 61);
        draw("   steps 8/10", 100);
        draw("   steps 9/10", 110);
        assert_eq!(
            out.text(),
            "   steps 1/10\n   steps 7/10 validation MAE 3.4\n"
        );
        drop(log);
        assert_eq!(
            out.text(),
            "   steps 1/10\n   steps 7/10 validation MAE 3.4\n   steps 9/10\n"
        );
    }

    /// Nothing held back, nothing more at the end.
    #[test]
    fn a_log_ends_without_repeating_its_last_line() {
        let out = Shared::default();
        let log = LogLines::new(out.clone(), Duration::from_secs(60));
        log.write_str("done 5/5").unwrap();
        log.flush_at(Instant::now()).unwrap();
        drop(log);
        assert_eq!(out.text(), "done 5/5\n");
    }

    /// Through indicatif itself: a bar on a `LogLines` target writes its
    /// first state, and its final count when it is dropped, as plain lines.
    #[test]
    fn indicatif_draws_through_it() {
        let out = Shared::default();
        let target = LogLines::new(out.clone(), Duration::from_secs(3600));
        let bar = ProgressBar::with_draw_target(
            Some(5),
            ProgressDrawTarget::term_like_with_hz(Box::new(target), LOG_DRAWS_PER_SECOND),
        )
        .with_finish(ProgressFinish::AndLeave);
        bar.set_style(ProgressStyle::with_template("steps {pos}/{len} {msg}").unwrap());
        bar.set_message("validation MAE 3.375");
        bar.inc(3);
        bar.inc(2);
        drop(bar);
        let text = out.text();
        assert_eq!(
            text.lines().collect::<Vec<_>>(),
            [
                "steps 0/5 validation MAE 3.375",
                "steps 5/5 validation MAE 3.375"
            ],
            "{text:?}"
        );
    }
}

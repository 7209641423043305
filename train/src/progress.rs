//! The commands' progress bars.
//!
//! On a terminal a bar redraws itself in place. When standard error is not
//! a terminal (a job under `nohup`, its output in a log), indicatif would draw
//! nothing at all, so a long fit or corpus chunk left no trace until its end;
//! there the bar instead writes its state as a plain line every
//! [`LOG_EVERY`].

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle, TermLike};
use std::io::{self, IsTerminal, Write};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How often a bar writes a line when standard error is not a terminal: a
/// line a minute keeps an hour-long job's log at about 60 lines.
pub const LOG_EVERY: Duration = Duration::from_secs(60);

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
    if !terminal {
        bar.set_draw_target(ProgressDrawTarget::term_like(Box::new(LogLines::new(
            io::stderr(),
            LOG_EVERY,
        ))));
    }
    bar
}

/// A draw target that turns a bar's redraws into whole lines, at most one
/// every `every` (the first at once). Cursor moves and clears mean nothing in
/// a log and are ignored.
#[derive(Debug)]
struct LogLines<W> {
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
}

impl<W: Write> LogLines<W> {
    fn new(out: W, every: Duration) -> Self {
        LogLines {
            state: Mutex::new(LogState {
                out,
                pending: String::new(),
                last: None,
            }),
            every,
        }
    }

    fn state(&self) -> std::sync::MutexGuard<'_, LogState<W>> {
        // A panic while the lock was held leaves only a half-drawn line.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// The width indicatif is told a log has (it truncates longer lines).
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
    /// The end of a redraw: its text goes out as one line if `every` has
    /// passed since the last, and is dropped otherwise.
    fn flush(&self) -> io::Result<()> {
        let now = Instant::now();
        let mut state = self.state();
        let text = std::mem::take(&mut state.pending);
        let line = text.trim();
        let due = state.last.is_none_or(|last| now - last >= self.every);
        if line.is_empty() || !due {
            return Ok(());
        }
        state.last = Some(now);
        let line = line.to_string();
        writeln!(state.out, "{line}")?;
        state.out.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A bar drawn into a log writes its first state at once and then
    /// nothing until `every` has passed; each line is whole.
    #[test]
    fn a_log_gets_whole_lines_at_most_once_per_interval() {
        let log = LogLines::new(Vec::new(), Duration::from_millis(300));
        let draw = |log: &LogLines<Vec<u8>>, text: &str| {
            log.clear_line().unwrap();
            log.write_str(text).unwrap();
            log.flush().unwrap();
        };
        draw(&log, "1/10");
        draw(&log, "2/10");
        std::thread::sleep(Duration::from_millis(350));
        draw(&log, "7/10 validation MAE 3.4");
        draw(&log, "8/10");
        let out = String::from_utf8(log.state().out.clone()).unwrap();
        assert_eq!(out, "1/10\n7/10 validation MAE 3.4\n");
    }

    /// Through indicatif itself: a bar on a `LogLines` target writes its
    /// position as a line.
    #[test]
    fn indicatif_draws_through_it() {
        let log = std::sync::Arc::new(Mutex::new(Vec::<u8>::new()));
        #[derive(Debug, Clone)]
        struct Shared(std::sync::Arc<Mutex<Vec<u8>>>);
        impl Write for Shared {
            fn write(&mut self, b: &[u8]) -> io::Result<usize> {
                self.0.lock().unwrap().extend_from_slice(b);
                Ok(b.len())
            }
            fn flush(&mut self) -> io::Result<()> {
                Ok(())
            }
        }
        let target = LogLines::new(Shared(log.clone()), Duration::from_secs(3600));
        let bar =
            ProgressBar::with_draw_target(Some(5), ProgressDrawTarget::term_like(Box::new(target)));
        bar.set_style(ProgressStyle::with_template("steps {pos}/{len} {msg}").unwrap());
        bar.set_message("validation MAE 3.375");
        bar.inc(3);
        bar.finish();
        let out = String::from_utf8(log.lock().unwrap().clone()).unwrap();
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 1, "{out:?}");
        assert!(lines[0].starts_with("steps "), "{out:?}");
        assert!(!out.contains('\r') && !out.contains('\u{1b}'), "{out:?}");
    }
}

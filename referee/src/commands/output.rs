//! What the referee prints while a match runs: on a terminal a progress
//! bar with the live score and Elo, otherwise one plain line per game.

use crate::files::record::{GameRecord, Side};
use crate::stats::summary::Live;
use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;

/// The live display.
pub struct Output {
    bar: Option<ProgressBar>,
    total: usize,
}

impl Output {
    /// A display for `total` games; a bar only on a terminal and not while
    /// watching a game.
    pub fn new(total: usize, watch: bool) -> Output {
        let bar = (std::io::stdout().is_terminal() && !watch).then(|| {
            let bar = ProgressBar::new(total as u64);
            bar.set_style(
                ProgressStyle::with_template(
                    "[{elapsed_precise}] {bar:30} {pos}/{len} games  {msg}",
                )
                .expect("a valid template"),
            );
            bar
        });
        Output { bar, total }
    }

    /// A line of information.
    pub fn note(&self, text: &str) {
        match &self.bar {
            Some(bar) => bar.println(text),
            None => print(&format!("{text}\n")),
        }
    }

    /// Shows the state before the first new game.
    pub fn start(&self, done: usize, live: &Live) {
        self.progress(done, live);
    }

    /// Reports a finished game.
    pub fn game(&self, r: &GameRecord, names: &[String; 2]) {
        self.note(&game_line(r, names, self.total));
    }

    /// Updates the bar.
    pub fn progress(&self, done: usize, live: &Live) {
        if let Some(bar) = &self.bar {
            bar.set_position(done as u64);
            bar.set_message(live.status.clone());
        }
    }

    /// Removes the bar.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

/// `game 3/10 [p1 black] f5d6: p1 wins 40-24 (+16)`, or the fault.
pub fn game_line(r: &GameRecord, names: &[String; 2], total: usize) -> String {
    let opening = if r.opening.is_empty() {
        String::new()
    } else {
        format!(" {}", r.opening)
    };
    let who = |s: Side| format!("{s} {}", names[s.index()]);
    let result = match r.winner {
        None => "draw".to_string(),
        Some(w) => format!("{} wins", who(w)),
    };
    let detail = match &r.fault {
        Some(f) => {
            let tail = f
                .stderr_tail
                .as_deref()
                .and_then(|t| t.lines().last())
                .map_or(String::new(), |l| format!("; stderr: {l}"));
            format!(" ({} {}: {}{tail})", f.by, f.kind, f.detail)
        }
        None => format!(
            " {}-{} ({:+} for p1)",
            r.discs_black,
            r.discs_white,
            r.disc_diff(Side::P1).unwrap_or(0)
        ),
    };
    format!(
        "game {}/{total} [{} black]{opening}: {result}{detail}",
        r.game, r.black
    )
}

/// Prints to stdout, ignoring a closed pipe (`referee ... | head`).
pub fn print(text: &str) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(text.as_bytes()).and_then(|()| out.flush());
}

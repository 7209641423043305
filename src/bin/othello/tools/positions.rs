//! `othello bench --positions FILE [--depth N | --time-ms T] [--list]
//! [--eval NAME] [--full-width]`: the midgame search on each position of a
//! file (docs/search.md, "The midgame bench"), with a fresh search and
//! table each (`othello::bench::search`, the fixed bench's loop), to a
//! depth or under the bot's hard budget. It prints the nodes, time, speed
//! and depth reached, in total and by empties.
//!
//! The file is read whole first: a malformed line is named and nothing is
//! searched (exit status 2).

use super::speed::BenchOptions;
use othello::bench::{self, Limit, Searched, Settings};
use othello::eval::Evaluator;
use std::fmt::Write as _;
use std::io::Write as _;
use std::process::ExitCode;

/// The empties buckets of the report: the midgame bench's 30-48 in
/// fives (positions outside them are counted under "other").
pub const BUCKETS: [(u32, u32); 4] = [(30, 34), (35, 39), (40, 44), (45, 48)];

/// Runs the bench on `file`: exit status 2 if it cannot be read, holds
/// no position or has a malformed line (nothing is searched then), else 0.
pub fn run(file: &str, options: &BenchOptions) -> ExitCode {
    let positions = match std::fs::read_to_string(file) {
        Err(e) => Err(vec![format!("{file}: {e}")]),
        Ok(text) => match bench::parse(&text) {
            Ok(p) if p.is_empty() => Err(vec![format!("{file}: no positions")]),
            Ok(p) => Ok(p),
            Err(errors) => Err(errors.iter().map(|e| format!("{file}: {e}")).collect()),
        },
    };
    let positions = match positions {
        Ok(p) => p,
        Err(errors) => {
            for e in errors {
                eprintln!("othello: {e}");
            }
            return ExitCode::from(super::EXIT_USAGE);
        }
    };
    let limit = match options.time_ms {
        Some(ms) => Limit::TimeMs(ms),
        None => Limit::Depth(options.depth.unwrap_or(bench::DEFAULT_DEPTH)),
    };
    let settings = Settings {
        eval: options.eval,
        selective: options.selective,
        limit,
    };
    // As on the bot's first turn: the tables exist before any search is timed.
    let _ = Evaluator::new(options.eval, 0).pattern_tables();
    let mut stdout = std::io::stdout();
    let _ = writeln!(
        stdout,
        "positions {} ({file}) {} eval {:?}{}",
        positions.len(),
        match limit {
            Limit::Depth(d) => format!("depth {d}"),
            Limit::TimeMs(ms) => format!("time {ms} ms a position"),
        },
        options.eval,
        if options.selective { "" } else { " full-width" }
    );
    if options.list {
        let _ = writeln!(
            stdout,
            "{:>4} {:>5} {:>7} {:>5} {:>12} {:>9} {:>11}",
            "n", "line", "empties", "depth", "nodes", "ms", "nps"
        );
    }
    let boards: Vec<_> = positions.iter().map(|p| p.board).collect();
    let searched = bench::search(&boards, &settings, |i, s| {
        if options.list {
            let _ = writeln!(
                stdout,
                "{:>4} {:>5} {:>7} {:>5} {:>12} {:>9.1} {:>11.0}",
                i + 1,
                positions[i].line,
                s.empties,
                s.depth,
                s.nodes,
                ms(s),
                nps(s.nodes, ms(s))
            );
        }
    });
    let _ = write!(stdout, "{}", report(&searched));
    let _ = writeln!(stdout, "isa {}", othello::dispatch::Isa::detect().name());
    ExitCode::SUCCESS
}

/// A search's time in ms.
fn ms(s: &Searched) -> f64 {
    s.elapsed.as_secs_f64() * 1000.0
}

/// Nodes per second of `nodes` in `ms`.
fn nps(nodes: u64, ms: f64) -> f64 {
    nodes as f64 / (ms / 1000.0).max(1e-9)
}

/// The totals (as the fixed bench prints them, time the sum of the
/// searches') and the table by empties bucket: positions, nodes, time,
/// speed, and the depth reached (mean, median, lowest, highest).
pub fn report(searched: &[Searched]) -> String {
    let nodes: u64 = searched.iter().map(|s| s.nodes).sum();
    let total_ms: f64 = searched.iter().map(ms).sum();
    let mut out = format!(
        "nodes {nodes}\ntime {total_ms:.0} ms\nnps {:.0}\n",
        nps(nodes, total_ms)
    );
    let _ = writeln!(
        out,
        "{:>7} {:>9} {:>12} {:>9} {:>11} {:>5} {:>6} {:>6} {:>7}",
        "empties", "positions", "nodes", "ms", "nps", "mean", "median", "lowest", "highest"
    );
    let in_bucket = |e: u32| BUCKETS.iter().any(|&(a, b)| (a..=b).contains(&e));
    let rows = BUCKETS
        .iter()
        .map(|&(a, b)| {
            (
                format!("{a}-{b}"),
                Box::new(move |e: u32| (a..=b).contains(&e)) as Box<dyn Fn(u32) -> bool>,
            )
        })
        .chain([
            (
                "other".to_string(),
                Box::new(move |e: u32| !in_bucket(e)) as Box<dyn Fn(u32) -> bool>,
            ),
            ("all".to_string(), Box::new(|_| true)),
        ]);
    for (label, keep) in rows {
        let here: Vec<&Searched> = searched.iter().filter(|s| keep(s.empties)).collect();
        if here.is_empty() {
            if label != "other" {
                let _ = writeln!(out, "{label:>7} {:>9}", 0);
            }
            continue;
        }
        let nodes: u64 = here.iter().map(|s| s.nodes).sum();
        let total_ms: f64 = here.iter().map(|s| ms(s)).sum();
        let mut depths: Vec<u32> = here.iter().map(|s| s.depth).collect();
        depths.sort_unstable();
        let mean = f64::from(depths.iter().sum::<u32>()) / depths.len() as f64;
        let _ = writeln!(
            out,
            "{label:>7} {:>9} {nodes:>12} {total_ms:>9.0} {:>11.0} {mean:>5.1} {:>6} {:>6} {:>7}",
            here.len(),
            nps(nodes, total_ms),
            depths[depths.len() / 2],
            depths[0],
            depths[depths.len() - 1]
        );
    }
    out += "(depth: of the last completed iteration; median: the upper middle; \
            ms: the searches alone, each table made before its clock starts)\n";
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn s(empties: u32, nodes: u64, ms: u64, depth: u32) -> Searched {
        Searched {
            empties,
            nodes,
            elapsed: Duration::from_millis(ms),
            depth,
        }
    }

    #[test]
    fn the_report_adds_up_by_bucket_with_median_and_lowest_depth() {
        let text = report(&[
            s(30, 100, 10, 9),
            s(34, 300, 30, 11),
            s(31, 200, 20, 10),
            s(48, 1000, 100, 8),
            s(20, 50, 5, 12),
        ]);
        assert!(
            text.starts_with("nodes 1650\ntime 165 ms\nnps 10000\n"),
            "{text}"
        );
        let row = |label: &str| {
            text.lines()
                .find(|l| l.split_whitespace().next() == Some(label))
                .unwrap_or_else(|| panic!("no {label} row: {text}"))
                .split_whitespace()
                .skip(1)
                .map(String::from)
                .collect::<Vec<_>>()
        };
        // positions, nodes, ms, nps, mean, median, lowest, highest
        assert_eq!(
            row("30-34"),
            ["3", "600", "60", "10000", "10.0", "10", "9", "11"]
        );
        assert_eq!(row("35-39"), ["0"]);
        assert_eq!(
            row("45-48"),
            ["1", "1000", "100", "10000", "8.0", "8", "8", "8"]
        );
        assert_eq!(
            row("other"),
            ["1", "50", "5", "10000", "12.0", "12", "12", "12"]
        );
        assert_eq!(
            row("all"),
            ["5", "1650", "165", "10000", "10.0", "10", "8", "12"]
        );
        // No "other" row when every position is in a bucket.
        assert!(!report(&[s(30, 1, 1, 1)]).contains("other"));
    }
}

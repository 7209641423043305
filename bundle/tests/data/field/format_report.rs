//! A puzzle solution that prints a report: heavy `format!` use (widths and
//! precisions from arguments, named and positional arguments, `{:#?}`,
//! `write!` into a `String`, `Display` implementations).

use std::collections::BTreeMap;
use std::fmt::{self, Write as _};
use std::io::Read;

/// One player's line of the scoreboard.
#[derive(Debug, Clone, PartialEq)]
struct Entry {
    /// The player's name.
    name: String,
    /// Points scored.
    points: u32,
    /// Seconds played.
    seconds: f64,
}

/// How an entry is shown.
#[derive(Debug, Clone, Copy)]
enum Style {
    /// Aligned columns.
    Table { width: usize, precision: usize },
    /// One compact line.
    Compact,
}

impl fmt::Display for Entry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let rate = self.points as f64 / self.seconds.max(1.0);
        write!(f, "{}: {} pts ({rate:.2}/s)", self.name, self.points)
    }
}

/// Renders `entries` in `style`.
fn render(entries: &[Entry], style: Style) -> String {
    let mut text = String::new();
    match style {
        Style::Table { width, precision } => {
            writeln!(text, "{:<width$}|{:>6}|{:>w2$}", "name", "pts", "secs", w2 = width / 2).unwrap();
            for (rank, entry) in entries.iter().enumerate() {
                let Entry { name, points, seconds } = entry;
                writeln!(
                    text,
                    "{name:<width$}|{points:>6}|{seconds:>w2$.precision$} #{0}",
                    rank + 1,
                    w2 = width / 2
                )
                .unwrap();
            }
        }
        Style::Compact => {
            let parts: Vec<String> = entries.iter().map(|e| format!("{e}")).collect();
            text = format!("{}\n", parts.join("; "));
        }
    }
    text
}

fn main() {
    let mut input = String::new();
    std::io::stdin().read_to_string(&mut input).unwrap();
    let mut entries: Vec<Entry> = input
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let mut fields = line.split(',');
            Entry {
                name: fields.next().unwrap().trim().to_string(),
                points: fields.next().unwrap().trim().parse().unwrap(),
                seconds: fields.next().unwrap().trim().parse().unwrap(),
            }
        })
        .collect();
    entries.sort_by(|a, b| b.points.cmp(&a.points).then(a.name.cmp(&b.name)));
    let widest = entries.iter().map(|e| e.name.len()).max().unwrap_or(4) + 2;
    print!("{}", render(&entries, Style::Table { width: widest, precision: 1 }));
    print!("{}", render(&entries, Style::Compact));
    let mut by_initial: BTreeMap<char, Vec<&str>> = BTreeMap::new();
    for e in &entries {
        by_initial.entry(e.name.chars().next().unwrap()).or_default().push(&e.name);
    }
    println!("{by_initial:?}");
    let best = &entries[0];
    println!("{best:#?}");
    println!("{:?} {:?}", Style::Compact, Style::Table { width: 3, precision: 0 });
    let total: u32 = entries.iter().map(|e| e.points).sum();
    let mean = total as f64 / entries.len() as f64;
    println!(
        "{total:>8} {mean:08.3} {hex:#x} {bin:#010b} {signed:+} {0}-{0}",
        "x",
        hex = total,
        bin = total % 256,
        signed = -(mean as i64)
    );
    let label = "done";
    let padding = 10;
    println!("[{label:^padding$}] [{:>1$}] [{:.*}]", label, padding, mean);
}

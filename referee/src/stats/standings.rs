//! A tournament's results: the crosstable and each bot's faults, gathered
//! game by game (nothing else of a game is kept), and the summary made of
//! them: one rating list ([`crate::stats::rating`]), the crosstable, the faults,
//! as text and as the `--json` object.

use crate::files::record::{FaultKind, GameRecord, Side};
use crate::files::record::{Format, TournamentHeader};
use crate::stats::rating::{self, Cell};
use serde::Serialize;
use std::fmt::Write as _;

/// How the ratings are made, as the summary states it.
pub const MODEL: &str = "Bradley-Terry (logistic) over all games, draws count half a win, \
                         with the prior's virtual draws (maximum a posteriori); 95% error \
                         bars from the curvature of the log-posterior at its maximum";

/// The prior of the rating list, as the summary states it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Prior {
    /// Virtual draws added between each pair of bots that played each
    /// other.
    pub virtual_draws_per_pair: f64,
    /// The same in words.
    pub description: String,
}

impl Prior {
    /// The tournament's prior ([`rating::PRIOR_DRAWS`]).
    fn tournament() -> Prior {
        let d = rating::PRIOR_DRAWS;
        Prior {
            virtual_draws_per_pair: d,
            description: format!(
                "{d} virtual draw{} between each pair of bots that played each other",
                if d == 1.0 { "" } else { "s" }
            ),
        }
    }
}

/// A bot that won or lost every game it played: the games alone would
/// rate it at plus or minus infinity, the prior holds it finite.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Extreme {
    /// Won every game: its Elo is at least what the list says.
    WonAll,
    /// Lost every game: its Elo is at most what the list says.
    LostAll,
}

impl Extreme {
    /// `>=` or `<=`, before its Elo.
    pub fn sign(self) -> &'static str {
        match self {
            Extreme::WonAll => ">=",
            Extreme::LostAll => "<=",
        }
    }
}

/// One bot's losses by breaking the rules.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Faults {
    /// Losses by timeout.
    pub timeouts: u64,
    /// Losses by crash.
    pub crashes: u64,
    /// Losses by an illegal move or an unreadable answer.
    pub illegal: u64,
    /// Of `illegal`: the unreadable answers.
    pub unreadable: u64,
    /// Losses by exiting without answering.
    pub no_output: u64,
    /// Losses by a peak resident memory over the limit.
    pub memory: u64,
    /// Games after which the bot had to be killed.
    pub killed_after_end: u64,
}

/// A tournament's results so far.
#[derive(Clone, Debug, PartialEq)]
pub struct Standings {
    /// `cells[i][j]`: bot `i`'s results against bot `j`.
    pub cells: Vec<Vec<Cell>>,
    /// Each bot's faults.
    pub faults: Vec<Faults>,
    /// Games counted.
    pub games: u64,
}

impl Standings {
    /// No games yet, `bots` bots.
    pub fn new(bots: usize) -> Standings {
        Standings {
            cells: vec![vec![Cell::default(); bots]; bots],
            faults: vec![Faults::default(); bots],
            games: 0,
        }
    }

    /// Counts game `r`, played by bots `pair` (p1's, p2's).
    pub fn add(&mut self, pair: (usize, usize), r: &GameRecord) {
        let bots = [pair.0, pair.1];
        let (a, b) = pair;
        match r.winner {
            Some(Side::P1) => {
                self.cells[a][b].wins += 1;
                self.cells[b][a].losses += 1;
            }
            Some(Side::P2) => {
                self.cells[a][b].losses += 1;
                self.cells[b][a].wins += 1;
            }
            None => {
                self.cells[a][b].draws += 1;
                self.cells[b][a].draws += 1;
            }
        }
        if let Some(f) = &r.fault {
            let faults = &mut self.faults[bots[f.by.index()]];
            match f.kind {
                FaultKind::Timeout => faults.timeouts += 1,
                FaultKind::Crash => faults.crashes += 1,
                FaultKind::NoOutput => faults.no_output += 1,
                FaultKind::Illegal => faults.illegal += 1,
                FaultKind::Unreadable => {
                    faults.illegal += 1;
                    faults.unreadable += 1;
                }
                FaultKind::Memory => faults.memory += 1,
            }
        }
        for side in &r.killed_after_end {
            self.faults[bots[side.index()]].killed_after_end += 1;
        }
        self.games += 1;
    }

    /// One bot's results against all.
    fn total(&self, bot: usize) -> Cell {
        self.cells[bot].iter().fold(Cell::default(), |t, c| Cell {
            wins: t.wins + c.wins,
            draws: t.draws + c.draws,
            losses: t.losses + c.losses,
        })
    }
}

/// One bot's line of the rating list.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BotSummary {
    /// Place in the rating list from 1 (by score when there is no list).
    pub rank: usize,
    /// Display name.
    pub name: String,
    /// Command line.
    pub command: String,
    /// Elo relative to the anchor (null when the games cannot be rated).
    pub elo: Option<f64>,
    /// 95% half-width of the Elo relative to the anchor's (0 for the anchor).
    pub elo_error: Option<f64>,
    /// Whether it won or lost every game it played (its Elo rests on the
    /// prior: `won_all`, at least this; `lost_all`, at most).
    pub extreme: Option<Extreme>,
    /// Games played.
    pub games: u64,
    /// Games won.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games lost.
    pub losses: u64,
    /// Mean score, 0..1.
    pub score: Option<f64>,
    /// Its losses by faults.
    pub faults: Faults,
}

/// The whole summary of a tournament (the `--json` file).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TournamentSummary {
    /// Always `tournament`.
    pub kind: &'static str,
    /// `round-robin` or `gauntlet`.
    pub format: Format,
    /// Games counted.
    pub games: u64,
    /// Games of each pair.
    pub games_per_pair: usize,
    /// The bot rated 0.
    pub anchor: String,
    /// How the ratings are made.
    pub model: &'static str,
    /// The prior of the ratings.
    pub prior: Prior,
    /// Why there is no rating list, if there is none.
    pub unrated: Option<String>,
    /// Bots (or groups) that won or lost every game against the others,
    /// whose ratings the prior holds finite.
    pub note: Option<String>,
    /// The bots, in the order of the tournament (see `rank`).
    pub bots: Vec<BotSummary>,
    /// `crosstable[i][j]`: bot `i`'s results against bot `j` (`bots` order).
    pub crosstable: Vec<Vec<Cell>>,
    /// The tournament seed.
    pub seed: u64,
}

/// The summary of `standings` under `header`, Elo relative to `anchor`.
pub fn summarize(
    header: &TournamentHeader,
    standings: &Standings,
    anchor: usize,
) -> TournamentSummary {
    let names: Vec<String> = header.bots.iter().map(|b| b.name.clone()).collect();
    let fitted = rating::fit(&standings.cells, &names, anchor, rating::PRIOR_DRAWS);
    let totals: Vec<Cell> = (0..names.len()).map(|i| standings.total(i)).collect();
    let score = |c: &Cell| (c.games() > 0).then(|| c.points() / c.games() as f64);
    // Best first: by Elo when rated, else by score; the tournament's order
    // breaks ties.
    let key = |i: usize| match &fitted {
        Ok(r) => r.elo[i],
        Err(_) => score(&totals[i]).unwrap_or(0.0),
    };
    let mut order: Vec<usize> = (0..names.len()).collect();
    order.sort_by(|&a, &b| key(b).total_cmp(&key(a)).then(a.cmp(&b)));
    let mut rank = vec![0; names.len()];
    for (place, &i) in order.iter().enumerate() {
        rank[i] = place + 1;
    }
    let bots = header
        .bots
        .iter()
        .enumerate()
        .map(|(i, b)| BotSummary {
            rank: rank[i],
            name: b.name.clone(),
            command: b.command.clone(),
            elo: fitted.as_ref().ok().map(|r| r.elo[i]),
            elo_error: fitted.as_ref().ok().map(|r| r.error[i]),
            extreme: score(&totals[i]).and_then(|x| {
                if x == 1.0 {
                    Some(Extreme::WonAll)
                } else if x == 0.0 {
                    Some(Extreme::LostAll)
                } else {
                    None
                }
            }),
            games: totals[i].games(),
            wins: totals[i].wins,
            draws: totals[i].draws,
            losses: totals[i].losses,
            score: score(&totals[i]),
            faults: standings.faults[i].clone(),
        })
        .collect();
    TournamentSummary {
        kind: "tournament",
        format: header.format,
        games: standings.games,
        games_per_pair: header.games_per_pair,
        anchor: names[anchor].clone(),
        model: MODEL,
        prior: Prior::tournament(),
        note: fitted.as_ref().ok().and_then(|r| r.note.clone()),
        unrated: fitted.err(),
        bots,
        crosstable: standings.cells.clone(),
        seed: header.seed,
    }
}

/// The bots' indices, best first.
pub fn ranked(s: &TournamentSummary) -> Vec<usize> {
    let mut order: Vec<usize> = (0..s.bots.len()).collect();
    order.sort_by_key(|&i| s.bots[i].rank);
    order
}

fn opt(x: Option<f64>, digits: usize) -> String {
    x.map_or_else(|| "n/a".into(), |v| format!("{v:.digits$}"))
}

/// A bot's Elo as text: `>=` or `<=` before it when it won or lost every
/// game; `n/a` when there is no list.
pub fn elo_text(b: &BotSummary) -> String {
    match (b.elo, b.extreme) {
        (Some(elo), Some(x)) => format!("{}{elo:.1}", x.sign()),
        (elo, _) => opt(elo, 1),
    }
}

/// What the rating list's `>=`, `<=` mean, if any bot has one.
pub fn extreme_legend(s: &TournamentSummary) -> Option<String> {
    let marked = |x: Extreme| {
        let names: Vec<&str> = s
            .bots
            .iter()
            .filter(|b| b.elo.is_some() && b.extreme == Some(x))
            .map(|b| b.name.as_str())
            .collect();
        (!names.is_empty()).then(|| names.join(", "))
    };
    let parts: Vec<String> = [
        (
            Extreme::WonAll,
            "won every game (>=: the games alone would rate it higher)",
        ),
        (
            Extreme::LostAll,
            "lost every game (<=: the games alone would rate it lower)",
        ),
    ]
    .into_iter()
    .filter_map(|(x, what)| marked(x).map(|names| format!("{names} {what}")))
    .collect();
    (!parts.is_empty()).then(|| {
        format!(
            "{}; their Elo and error bar rest on the prior",
            parts.join("; ")
        )
    })
}

/// A crosstable cell as text: the row's points of the games (`6.5/10`).
pub fn cell_text(c: &Cell) -> String {
    if c.games() == 0 {
        return "-".into();
    }
    let points = c.points();
    if points.fract() == 0.0 {
        format!("{points:.0}/{}", c.games())
    } else {
        format!("{points:.1}/{}", c.games())
    }
}

/// The summary as text: the rating list, the crosstable, the faults.
pub fn text(s: &TournamentSummary) -> String {
    let mut t = String::new();
    let order = ranked(s);
    let width = s
        .bots
        .iter()
        .map(|b| b.name.chars().count())
        .max()
        .unwrap_or(0)
        .max(3);
    let _ = writeln!(
        t,
        "Tournament ({}): {} bots, {} games, {} per pair",
        s.format.name(),
        s.bots.len(),
        s.games,
        s.games_per_pair
    );
    match &s.unrated {
        None => {
            let _ = writeln!(
                t,
                "Ratings: Bradley-Terry (draws count half), prior {}, anchor {} = 0, \
                 error bars 95%",
                s.prior.description, s.anchor
            );
        }
        Some(why) => {
            let _ = writeln!(t, "No rating list: {why}");
        }
    }
    let _ = writeln!(
        t,
        "{:>4}  {:<width$}  {:>8}  {:>6}  {:>6}  {:>7}  {:>6}",
        "rank", "bot", "Elo", "+/-", "games", "score", "draws"
    );
    for &i in &order {
        let b = &s.bots[i];
        let _ = writeln!(
            t,
            "{:>4}  {:<width$}  {:>8}  {:>6}  {:>6}  {:>5} %  {:>4} %",
            b.rank,
            b.name,
            elo_text(b),
            opt(b.elo_error, 1),
            b.games,
            opt(b.score.map(|x| x * 100.0), 1),
            opt(
                (b.games > 0).then(|| b.draws as f64 * 100.0 / b.games as f64),
                1
            )
        );
    }
    for note in extreme_legend(s).iter().chain(&s.note) {
        let _ = writeln!(t, "Note: {note}");
    }
    let _ = writeln!(t, "Crosstable (the row's points against the column):");
    let cells: Vec<Vec<String>> = order
        .iter()
        .map(|&i| {
            order
                .iter()
                .map(|&j| cell_text(&s.crosstable[i][j]))
                .collect()
        })
        .collect();
    let column = cells
        .iter()
        .flatten()
        .map(String::len)
        .chain(order.iter().map(|&j| s.bots[j].name.chars().count()))
        .max()
        .unwrap_or(1);
    let mut head = format!("{:<width$}", "");
    for &j in &order {
        let _ = write!(head, "  {:>column$}", s.bots[j].name);
    }
    let _ = writeln!(t, "{}", head.trim_end());
    for (row, &i) in cells.iter().zip(&order) {
        let mut line = format!("{:<width$}", s.bots[i].name);
        for (k, c) in row.iter().enumerate() {
            let c = if order[k] == i { "." } else { c.as_str() };
            let _ = write!(line, "  {c:>column$}");
        }
        let _ = writeln!(t, "{line}");
    }
    for &i in &order {
        let b = &s.bots[i];
        let f = &b.faults;
        let _ = writeln!(
            t,
            "{}: {} timeouts, {} crashes, {} illegal ({} unreadable), {} no output, {} over memory, {} killed after the end",
            b.name, f.timeouts, f.crashes, f.illegal, f.unreadable, f.no_output, f.memory, f.killed_after_end
        );
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::files::record::testing::record;
    use crate::files::record::testing::tournament_header as header;

    #[test]
    fn games_fill_the_crosstable_and_the_list() {
        let h = header(3, Format::RoundRobin, 2);
        let mut s = Standings::new(3);
        // b0-b1: p1 (b0) wins both; b0-b2: a draw and a b2 win; b1-b2: 1-1.
        s.add((0, 1), &record(1, Some(Side::P1), 10.0));
        s.add((0, 1), &record(2, Some(Side::P1), 10.0));
        s.add((0, 2), &record(3, None, 10.0));
        let mut timeout = record(4, Some(Side::P2), 10.0);
        timeout.fault = Some(crate::files::record::Fault {
            by: Side::P1,
            kind: FaultKind::Timeout,
            detail: String::new(),
            overrun_ms: None,
            stderr_tail: None,
        });
        s.add((0, 2), &timeout);
        s.add((1, 2), &record(5, Some(Side::P1), 10.0));
        s.add((1, 2), &record(6, Some(Side::P2), 10.0));
        assert_eq!(
            s.cells[0][1],
            Cell {
                wins: 2,
                draws: 0,
                losses: 0
            }
        );
        assert_eq!(s.cells[2][0].points(), 1.5);
        assert_eq!(s.faults[0].timeouts, 1);
        let sum = summarize(&h, &s, 0);
        assert_eq!(sum.games, 6);
        assert_eq!(sum.bots[0].score, Some(2.5 / 4.0));
        // b1 took no point from b0 but did from b2, which drew b0: rated.
        assert_eq!(sum.unrated, None, "{sum:?}");
        assert_eq!(sum.bots[0].elo, Some(0.0));
        let text = text(&sum);
        assert!(text.contains("anchor b0 = 0"), "{text}");
        assert!(text.contains("1.5/2"), "{text}");
        assert!(text.contains("b0: 1 timeouts"), "{text}");
        assert_eq!(cell_text(&s.cells[1][0]), "0/2");
    }
}

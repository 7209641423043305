//! The match summary: results, faults, Elo, LOS, pentanomial counts, SPRT
//! and the tuning report, as text and as the `--json` object.

use crate::files::record::{names, FaultKind, GameRecord, Header, Side};
use crate::stats::elo::{self, Estimate, Pentanomial, Sprt};
use crate::stats::tuning::{self, PlayerTiming};
use serde::Serialize;
use std::collections::HashMap;
use std::fmt::Write as _;

/// One player's results.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PlayerSummary {
    /// Display name.
    pub name: String,
    /// Command line.
    pub command: String,
    /// Games won.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games lost.
    pub losses: u64,
    /// Losses by timeout.
    pub timeouts: u64,
    /// Losses by crash (death, failure to start, closed input).
    pub crashes: u64,
    /// Losses by an illegal move or an unreadable answer.
    pub illegal: u64,
    /// Of `illegal`: the unreadable answers.
    pub unreadable: u64,
    /// Losses by exiting with status 0 without answering.
    pub no_output: u64,
    /// Losses by a peak resident memory over `--memory-mb`.
    #[serde(default)]
    pub memory: u64,
    /// Mean final disc difference (empties to the winner) over the games
    /// that ended on the board; `null` if none did.
    pub mean_disc_diff: Option<f64>,
    /// Games after which the player had to be killed.
    pub killed_after_end: u64,
}

/// An SPRT's state.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SprtSummary {
    /// H0's Elo.
    pub elo0: f64,
    /// H1's Elo.
    pub elo1: f64,
    /// False positive rate.
    pub alpha: f64,
    /// False negative rate.
    pub beta: f64,
    /// The pentanomial log-likelihood ratio.
    pub llr: f64,
    /// Accept H0 at or below this.
    pub lower: f64,
    /// Accept H1 at or above this.
    pub upper: f64,
    /// `H0`, `H1` or `continue`.
    pub result: &'static str,
}

/// Elo from the win/draw/loss counts alone.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct WdlSummary {
    /// Elo (null when infinite).
    pub elo: Option<f64>,
    /// 95% half-width (null when not finite).
    pub elo_error: Option<f64>,
    /// Likelihood of superiority.
    pub los: Option<f64>,
}

/// p1's disc margin a complete pair of games: the sum of its final disc
/// differences in the pair's two games (same opening, colours swapped).
/// Finer than the results where most pairs split, as they do from endgame
/// positions (docs/journal/endgame.md, "Endgame matches").
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PairMargin {
    /// Pairs counted (complete, neither game ended by a fault).
    pub pairs: u64,
    /// Of those, the pairs whose margin is not 0.
    pub not_level: u64,
    /// The mean margin, in discs.
    pub mean: f64,
    /// Its 95% half-width ([`elo::CI95_Z`] standard errors of the mean).
    pub error: f64,
}

/// Sums of the pairs' margins, gathered pair by pair.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct MarginTally {
    pairs: u64,
    not_level: u64,
    sum: i64,
    squares: i64,
}

impl MarginTally {
    fn add(&mut self, margin: i32) {
        self.pairs += 1;
        self.not_level += u64::from(margin != 0);
        self.sum += i64::from(margin);
        self.squares += i64::from(margin) * i64::from(margin);
    }

    fn finish(&self) -> Option<PairMargin> {
        (self.pairs > 0).then(|| {
            let n = self.pairs as f64;
            let mean = self.sum as f64 / n;
            let variance = (self.squares as f64 / n - mean * mean).max(0.0);
            PairMargin {
                pairs: self.pairs,
                not_level: self.not_level,
                mean,
                error: elo::CI95_Z * (variance / n).sqrt(),
            }
        })
    }
}

/// Per-player timing.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Timing {
    /// p1's.
    pub p1: PlayerTiming,
    /// p2's.
    pub p2: PlayerTiming,
}

/// The whole summary (the `--json` file).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Summary {
    /// Games played.
    pub games: u64,
    /// p1's results.
    pub p1: PlayerSummary,
    /// p2's results.
    pub p2: PlayerSummary,
    /// p1's mean score, 0..1.
    pub score: Option<f64>,
    /// p1's Elo advantage: pentanomial when a pair is complete, else WDL.
    pub elo: Option<f64>,
    /// Its 95% half-width.
    pub elo_error: Option<f64>,
    /// Likelihood that p1 is stronger.
    pub los: Option<f64>,
    /// `pentanomial` or `wdl`: where `elo`, `elo_error` and `los` come from.
    pub elo_model: &'static str,
    /// The WDL estimate.
    pub elo_wdl: WdlSummary,
    /// Pair counts by p1's points: 0, 0.5, 1, 1.5, 2 (LL, LD, WL+DD, WD, WW).
    pub pentanomial: Pentanomial,
    /// p1's disc margin a pair (null before the first complete pair).
    pub pair_margin: Option<PairMargin>,
    /// Share of drawn games.
    pub draw_ratio: Option<f64>,
    /// The SPRT, if one was asked for.
    pub sprt: Option<SprtSummary>,
    /// The tuning report.
    pub timing: Timing,
    /// The match seed.
    pub seed: u64,
}

/// Counts the pairs: games `2k-1` and `2k` (same opening, colours swapped)
/// by p1's total points in them.
pub fn pentanomial(records: &[GameRecord]) -> Pentanomial {
    let mut points = std::collections::BTreeMap::<usize, (u32, f64)>::new();
    for r in records {
        let e = points.entry(r.pair()).or_default();
        e.0 += 1;
        e.1 += r.points(Side::P1);
    }
    let mut penta = [0; 5];
    for (games, pts) in points.values() {
        if *games == 2 {
            penta[pentanomial_bucket(*pts)] += 1;
        }
    }
    penta
}

/// The pentanomial count a pair goes to, by p1's points in it (0..=2).
pub fn pentanomial_bucket(p1_points: f64) -> usize {
    (p1_points * 2.0).round() as usize
}

/// The summary of a match's `records` under its `header` (names, commands,
/// SPRT and seed from there), as `--json` writes it.
pub fn of_match(header: &Header, records: &[GameRecord]) -> Summary {
    let mut tally = Tally::default();
    for r in records {
        tally.add(r);
    }
    tally.finish(header)
}

fn finite(x: f64) -> Option<f64> {
    x.is_finite().then_some(x)
}

/// One player's counts.
#[derive(Clone, Debug, Default, PartialEq)]
struct PlayerTally {
    wins: u64,
    timeouts: u64,
    crashes: u64,
    illegal: u64,
    unreadable: u64,
    no_output: u64,
    memory: u64,
    disc_sum: i64,
    disc_games: u64,
    killed_after_end: u64,
}

/// A match's summary gathered game by game, in any order: what
/// `referee summary` keeps instead of the games (their counts, the pairs
/// still waiting for their second game, and the think times as
/// histograms), so that its memory does not grow with the games' size.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tally {
    games: u64,
    draws: u64,
    players: [PlayerTally; 2],
    /// Pairs with one game so far: its number of games, p1's points and
    /// p1's disc difference (`None` after a fault).
    open_pairs: HashMap<usize, (u32, f64, Option<i32>)>,
    penta: Pentanomial,
    margins: MarginTally,
    timing: [tuning::TimingTally; 2],
}

impl Tally {
    /// Counts game `r`.
    pub fn add(&mut self, r: &GameRecord) {
        self.games += 1;
        if r.winner.is_none() {
            self.draws += 1;
        }
        for side in Side::BOTH {
            let p = &mut self.players[side.index()];
            if r.winner == Some(side) {
                p.wins += 1;
            }
            if let Some(f) = r.fault.as_ref().filter(|f| f.by == side) {
                match f.kind {
                    FaultKind::Timeout => p.timeouts += 1,
                    FaultKind::Crash => p.crashes += 1,
                    FaultKind::NoOutput => p.no_output += 1,
                    FaultKind::Illegal => p.illegal += 1,
                    FaultKind::Unreadable => {
                        p.illegal += 1;
                        p.unreadable += 1;
                    }
                    FaultKind::Memory => p.memory += 1,
                }
            }
            if let Some(d) = r.disc_diff(side) {
                p.disc_sum += i64::from(d);
                p.disc_games += 1;
            }
            if r.killed_after_end.contains(&side) {
                p.killed_after_end += 1;
            }
            self.timing[side.index()].add(r, side);
        }
        let pair = self.open_pairs.entry(r.pair()).or_insert((0, 0.0, Some(0)));
        pair.0 += 1;
        pair.1 += r.points(Side::P1);
        pair.2 = pair.2.zip(r.disc_diff(Side::P1)).map(|(a, b)| a + b);
        if pair.0 == 2 {
            let (_, points, margin) = *pair;
            self.open_pairs.remove(&r.pair());
            self.penta[pentanomial_bucket(points)] += 1;
            if let Some(m) = margin {
                self.margins.add(m);
            }
        }
    }

    fn player(&self, side: Side, name: &str, command: &str) -> PlayerSummary {
        let p = &self.players[side.index()];
        PlayerSummary {
            name: name.to_string(),
            command: command.to_string(),
            wins: p.wins,
            draws: self.draws,
            losses: self.players[side.other().index()].wins,
            timeouts: p.timeouts,
            crashes: p.crashes,
            illegal: p.illegal,
            unreadable: p.unreadable,
            no_output: p.no_output,
            memory: p.memory,
            mean_disc_diff: (p.disc_games > 0).then(|| p.disc_sum as f64 / p.disc_games as f64),
            killed_after_end: p.killed_after_end,
        }
    }

    /// The summary of the games counted, in the match of `header`.
    pub fn finish(&self, header: &Header) -> Summary {
        let names = names(header);
        let sprt = header
            .settings
            .as_ref()
            .and_then(|s| s.sprt.as_deref())
            .and_then(|spec| Sprt::parse(spec).ok());
        self.summary(
            [&names[0], &names[1]],
            [&header.p1, &header.p2],
            sprt.as_ref(),
            header.seed,
        )
    }

    fn summary(
        &self,
        names: [&str; 2],
        commands: [&str; 2],
        sprt: Option<&Sprt>,
        seed: u64,
    ) -> Summary {
        let p1 = self.player(Side::P1, names[0], commands[0]);
        let p2 = self.player(Side::P2, names[1], commands[1]);
        let penta = self.penta;
        let wdl = elo::elo_wdl(p1.wins, p1.draws, p1.losses);
        let pen = elo::elo_pentanomial(&penta);
        let (main, model): (Option<Estimate>, _) = match pen {
            Some(e) => (Some(e), "pentanomial"),
            None => (wdl, "wdl"),
        };
        let games = self.games;
        let [t1, t2] = [self.timing[0].finish(), self.timing[1].finish()];
        Summary {
            games,
            score: wdl.map(|e| e.score),
            elo: main.and_then(|e| finite(e.elo)),
            elo_error: main.and_then(|e| finite(e.error)),
            los: main.and_then(|e| finite(e.los)),
            elo_model: model,
            elo_wdl: WdlSummary {
                elo: wdl.and_then(|e| finite(e.elo)),
                elo_error: wdl.and_then(|e| finite(e.error)),
                los: wdl.and_then(|e| finite(e.los)),
            },
            pentanomial: penta,
            pair_margin: self.margins.finish(),
            draw_ratio: (games > 0).then(|| p1.draws as f64 / games as f64),
            sprt: sprt.map(|s| {
                let llr = s.llr(&penta);
                SprtSummary {
                    elo0: s.elo0,
                    elo1: s.elo1,
                    alpha: s.alpha,
                    beta: s.beta,
                    llr,
                    lower: s.lower(),
                    upper: s.upper(),
                    result: s.result(llr).name(),
                }
            }),
            timing: Timing { p1: t1, p2: t2 },
            seed,
            p1,
            p2,
        }
    }
}

fn opt(x: Option<f64>, digits: usize) -> String {
    match x {
        Some(v) => {
            let text = format!("{v:.digits$}");
            // A value that rounds to zero is shown without a sign ("-0.0").
            if text
                .trim_start_matches('-')
                .chars()
                .all(|c| c == '0' || c == '.')
            {
                text.trim_start_matches('-').to_string()
            } else {
                text
            }
        }
        None => "n/a".into(),
    }
}

/// The live state of a match, cheap enough to recompute after every game.
#[derive(Clone, Debug, PartialEq)]
pub struct Live {
    /// `W - L - D  elo E +/- e  LLR x`.
    pub status: String,
    /// Whether the SPRT (if any) has not decided yet.
    pub go_on: bool,
}

/// The live state: p1's results, Elo and the SPRT.
pub fn live(records: &[GameRecord], sprt: Option<&Sprt>) -> Live {
    let count = |w: Option<Side>| records.iter().filter(|r| r.winner == w).count() as u64;
    let (wins, losses, draws) = (count(Some(Side::P1)), count(Some(Side::P2)), count(None));
    let penta = pentanomial(records);
    let est = elo::elo_pentanomial(&penta).or(elo::elo_wdl(wins, draws, losses));
    let mut status = format!(
        "{wins} - {losses} - {draws}  elo {} +/- {}",
        opt(est.and_then(|e| finite(e.elo)), 1),
        opt(est.and_then(|e| finite(e.error)), 1)
    );
    let mut go_on = true;
    if let Some(s) = sprt {
        let llr = s.llr(&penta);
        status.push_str(&format!("  LLR {llr:.2}"));
        go_on = s.result(llr) == elo::SprtResult::Continue;
    }
    Live { status, go_on }
}

/// The summary as text.
pub fn text(s: &Summary) -> String {
    let mut t = String::new();
    let _ = writeln!(
        t,
        "Score of {} vs {}: {} - {} - {}  [{}] {} games",
        s.p1.name,
        s.p2.name,
        s.p1.wins,
        s.p1.losses,
        s.p1.draws,
        opt(s.score, 3),
        s.games
    );
    let _ = writeln!(
        t,
        "Elo difference: {} +/- {}, LOS: {} %, draw ratio: {} % ({})",
        opt(s.elo, 1),
        opt(s.elo_error, 1),
        opt(s.los.map(|l| l * 100.0), 1),
        opt(s.draw_ratio.map(|d| d * 100.0), 1),
        s.elo_model
    );
    let _ = writeln!(
        t,
        "Pentanomial [LL, LD, WL+DD, WD, WW]: {:?}",
        s.pentanomial
    );
    if let Some(m) = &s.pair_margin {
        let _ = writeln!(
            t,
            "Disc margin a pair for {}: {:+.2} +/- {:.2} ({} of {} pairs not level)",
            s.p1.name, m.mean, m.error, m.not_level, m.pairs
        );
    }
    if let Some(sp) = &s.sprt {
        let _ = writeln!(
            t,
            "SPRT elo0={} elo1={} alpha={} beta={}: LLR {:.2} [{:.2}, {:.2}] {}",
            sp.elo0, sp.elo1, sp.alpha, sp.beta, sp.llr, sp.lower, sp.upper, sp.result
        );
    }
    for (p, timing) in [(&s.p1, &s.timing.p1), (&s.p2, &s.timing.p2)] {
        let _ = writeln!(
            t,
            "{}: {} timeouts, {} crashes, {} illegal ({} unreadable), {} no output, {} over memory, {} killed after the end; mean disc diff {}",
            p.name,
            p.timeouts,
            p.crashes,
            p.illegal,
            p.unreadable,
            p.no_output,
            p.memory,
            p.killed_after_end,
            opt(p.mean_disc_diff, 1)
        );
        for ph in &timing.phases {
            let _ = writeln!(
                t,
                "  moves {:>5}: {:>4} moves  median {:>7.1} ms  p95 {:>7.1} ms  max {:>7.1} ms  depth median {} min {}",
                ph.phase,
                ph.moves,
                ph.median_ms,
                ph.p95_ms,
                ph.max_ms,
                opt(ph.depth_median, 1),
                ph.depth_min.map_or("n/a".into(), |d| d.to_string())
            );
        }
        let _ = writeln!(
            t,
            "  first turns: median {} ms, max {} ms; closest to the limit: {} ms left",
            opt(timing.first_turn_median_ms, 1),
            opt(timing.first_turn_max_ms, 1),
            opt(timing.closest_ms, 1)
        );
        if timing.book_moves > 0 {
            let _ = writeln!(
                t,
                "  book moves (MSG \"{}\"): {:.2} a game, none in {} of {} games",
                tuning::BOOK_WORD,
                timing.book_moves as f64 / timing.games.max(1) as f64,
                timing.games_without_book,
                timing.games
            );
        }
    }
    t
}

#[cfg(test)]
mod tests {
    use super::{opt, Tally};
    use crate::files::record::{Fault, FaultKind, GameRecord, Side};
    use crate::stats::elo::CI95_Z;

    fn game(game: usize, black: Side, discs_black: u32, discs_white: u32) -> GameRecord {
        let winner = match discs_black.cmp(&discs_white) {
            std::cmp::Ordering::Greater => Some(black),
            std::cmp::Ordering::Less => Some(black.other()),
            std::cmp::Ordering::Equal => None,
        };
        GameRecord {
            game,
            black,
            opening: String::new(),
            moves: vec![],
            winner,
            discs_black,
            discs_white,
            fault: None,
            seeds: [0, 0],
            killed_after_end: vec![],
        }
    }

    /// p1's margin a pair sums its disc differences in the pair's two
    /// games; a pair with a fault or without its second game is left out.
    #[test]
    fn pair_margins_sum_both_games_of_complete_pairs() {
        let mut faulted = game(6, Side::P2, 20, 30);
        faulted.fault = Some(Fault {
            by: Side::P1,
            kind: FaultKind::Timeout,
            detail: String::new(),
            overrun_ms: None,
            stderr_tail: None,
        });
        let records = [
            // p1 wins by 16 as black, loses by 8 as white.
            game(1, Side::P1, 40, 24),
            game(2, Side::P2, 36, 28),
            // The same game twice: the pair is level.
            game(3, Side::P1, 33, 31),
            game(4, Side::P2, 33, 31),
            game(5, Side::P1, 40, 24),
            faulted,
            game(7, Side::P1, 64, 0),
        ];
        let mut tally = Tally::default();
        for r in records.iter().rev() {
            tally.add(r);
        }
        let m = tally
            .summary(["a", "b"], ["a", "b"], None, 0)
            .pair_margin
            .expect("two complete pairs");
        assert_eq!((m.pairs, m.not_level), (2, 1));
        // Margins +8 (40-24: +16; 36-28 for p2: -8) and 0.
        assert_eq!(m.mean, 4.0);
        assert!(
            (m.error - CI95_Z * 8f64.sqrt()).abs() < 1e-12,
            "{}",
            m.error
        );
        assert!(Tally::default()
            .summary(["a", "b"], ["a", "b"], None, 0)
            .pair_margin
            .is_none());
    }

    #[test]
    fn a_value_that_rounds_to_zero_has_no_sign() {
        assert_eq!(opt(Some(-0.0), 1), "0.0");
        assert_eq!(opt(Some(-0.04), 1), "0.0");
        assert_eq!(opt(Some(-0.06), 1), "-0.1");
        assert_eq!(opt(Some(12.34), 1), "12.3");
        assert_eq!(opt(None, 1), "n/a");
    }
}

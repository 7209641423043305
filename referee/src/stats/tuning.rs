//! The tuning report: each player's think time per game phase (median, p95,
//! max), the search depth it reports in its MSG as `d<N>` (or `s<N>`), and its closest
//! approach to the time limit. A player's first turn, which has its own
//! larger limit, is reported apart and left out of the phases. Its book
//! moves (MSG starting with [`BOOK_WORD`], as our bot writes) are counted a
//! game.

use crate::files::record::{GameRecord, MoveRecord, Side};
use serde::Serialize;
use std::collections::HashMap;

/// The first word of the MSG of a move played from an opening book.
pub const BOOK_WORD: &str = "book";

/// The game phases, by move number (the opening's moves count too).
pub const PHASES: [(&str, usize, usize); 3] =
    [("1-20", 1, 20), ("21-40", 21, 40), ("41-60", 41, 60)];

/// One player's numbers in one phase.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PhaseTiming {
    /// The phase, `1-20`, `21-40` or `41-60`.
    pub phase: &'static str,
    /// Moves measured.
    pub moves: usize,
    /// Median think time (mean of the two middle values for an even count).
    pub median_ms: f64,
    /// 95th percentile (nearest rank).
    pub p95_ms: f64,
    /// Longest think time.
    pub max_ms: f64,
    /// Median depth from `d<N>` or `s<N>` in the MSG, if the player writes one.
    pub depth_median: Option<f64>,
    /// Smallest such depth.
    pub depth_min: Option<u32>,
}

/// One player's report.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PlayerTiming {
    /// Per phase, only phases with moves; first turns left out.
    pub phases: Vec<PhaseTiming>,
    /// Median think time of the player's first turns, in ms.
    pub first_turn_median_ms: Option<f64>,
    /// Longest first turn, in ms.
    pub first_turn_max_ms: Option<f64>,
    /// The least time left before a turn's limit over all answered turns
    /// (negative when an answer was late), in ms.
    pub closest_ms: Option<f64>,
    /// Games counted.
    pub games: usize,
    /// Moves whose MSG starts with [`BOOK_WORD`].
    pub book_moves: usize,
    /// Games in which the player made no such move.
    pub games_without_book: usize,
}

/// The report of both players, p1 first.
#[cfg(test)]
pub fn report(records: &[GameRecord]) -> [PlayerTiming; 2] {
    Side::BOTH.map(|side| {
        let mut tally = TimingTally::default();
        for r in records {
            tally.add(r, side);
        }
        tally.finish()
    })
}

/// Counts of whole numbers (think times in microseconds, as recorded;
/// depths): exact medians and quantiles in memory that grows with the
/// number of distinct values, not with the number of games.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Histogram {
    counts: HashMap<u64, u64>,
    n: u64,
}

/// Order statistics of a [`Histogram`]: the median and p95 as values, the
/// extremes as counted.
pub struct Order {
    /// The median.
    pub median: f64,
    /// The 95th percentile (nearest rank).
    pub p95: f64,
    /// The smallest value counted.
    pub min: u64,
    /// The largest value counted.
    pub max: u64,
}

impl Histogram {
    /// Counts `value` once.
    pub fn add(&mut self, value: u64) {
        *self.counts.entry(value).or_default() += 1;
        self.n += 1;
    }

    /// Values counted.
    pub fn count(&self) -> u64 {
        self.n
    }

    /// The median (mean of the two middle values for an even count) and
    /// the p95 (nearest rank: the value at rank ceil(0.95 n)) of the values mapped
    /// by `value`, and the extremes; `None` when empty.
    pub fn order(&self, value: impl Fn(u64) -> f64) -> Option<Order> {
        if self.n == 0 {
            return None;
        }
        let mut sorted: Vec<(u64, u64)> = self.counts.iter().map(|(&k, &c)| (k, c)).collect();
        sorted.sort_unstable();
        // The value of 0-based rank `k` in the sorted values.
        let at = |k: u64| {
            let mut seen = 0;
            for &(v, c) in &sorted {
                seen += c;
                if k < seen {
                    return v;
                }
            }
            sorted[sorted.len() - 1].0
        };
        let n = self.n;
        let median = if n % 2 == 1 {
            value(at(n / 2))
        } else {
            (value(at(n / 2 - 1)) + value(at(n / 2))) / 2.0
        };
        let rank = ((0.95 * n as f64).ceil() as u64).clamp(1, n);
        Some(Order {
            median,
            p95: value(at(rank - 1)),
            min: sorted[0].0,
            max: sorted[sorted.len() - 1].0,
        })
    }
}

/// A think time in whole microseconds (records hold ms rounded to the
/// microsecond, so nothing is lost).
pub fn micros(ms: f64) -> u64 {
    (ms * 1e3).round().max(0.0) as u64
}

/// Microseconds back to ms, the very value the record held.
pub fn ms(micros: u64) -> f64 {
    micros as f64 / 1e3
}

/// One player's tuning report gathered game by game.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TimingTally {
    times: [Histogram; 3],
    depths: [Histogram; 3],
    first_turns: Histogram,
    closest: Option<f64>,
    games: usize,
    book_moves: usize,
    games_without_book: usize,
}

impl TimingTally {
    /// Counts `side`'s moves of game `r`.
    pub fn add(&mut self, r: &GameRecord, side: Side) {
        self.games += 1;
        let mut book = 0;
        for (number, first, m) in turns(r, side) {
            let first_word = m.msg.as_deref().and_then(|t| t.split_whitespace().next());
            book += usize::from(first_word == Some(BOOK_WORD));
            let spare = m.limit_ms - m.ms;
            self.closest = Some(self.closest.map_or(spare, |c: f64| c.min(spare)));
            if first {
                self.first_turns.add(micros(m.ms));
                continue;
            }
            let phase = PHASES
                .iter()
                .position(|&(_, lo, hi)| (lo..=hi).contains(&number))
                .unwrap_or(PHASES.len() - 1);
            self.times[phase].add(micros(m.ms));
            if let Some(d) = m.msg.as_deref().and_then(depth) {
                self.depths[phase].add(u64::from(d));
            }
        }
        self.book_moves += book;
        self.games_without_book += usize::from(book == 0);
    }

    /// The report.
    pub fn finish(&self) -> PlayerTiming {
        let phases = PHASES
            .iter()
            .zip(self.times.iter().zip(self.depths.iter()))
            .filter_map(|(&(phase, _, _), (t, d))| {
                let times = t.order(ms)?;
                let depths = d.order(|x| x as f64);
                Some(PhaseTiming {
                    phase,
                    moves: t.count() as usize,
                    median_ms: times.median,
                    p95_ms: times.p95,
                    max_ms: ms(times.max),
                    depth_median: depths.as_ref().map(|o| o.median),
                    depth_min: depths.map(|o| o.min as u32),
                })
            })
            .collect();
        let first = self.first_turns.order(ms);
        PlayerTiming {
            phases,
            first_turn_median_ms: first.as_ref().map(|o| o.median),
            first_turn_max_ms: first.map(|o| ms(o.max)),
            closest_ms: self.closest,
            games: self.games,
            book_moves: self.book_moves,
            games_without_book: self.games_without_book,
        }
    }
}

/// `side`'s moves in game `r`: each with its move number (the opening's
/// moves count too) and whether it was the player's first turn, which has
/// its own larger limit.
pub fn turns(r: &GameRecord, side: Side) -> impl Iterator<Item = (usize, bool, &MoveRecord)> {
    let opening_plies = r.opening.len() / 2;
    r.moves
        .iter()
        .enumerate()
        .filter(move |(_, m)| m.by == side)
        .enumerate()
        .map(move |(k, (i, m))| (opening_plies + i + 1, k == 0, m))
}

/// The median of sorted, non-empty values (what [`Histogram`] computes).
#[cfg(test)]
pub fn median(sorted: &[f64]) -> f64 {
    let n = sorted.len();
    if n % 2 == 1 {
        sorted[n / 2]
    } else {
        (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0
    }
}

/// The `q` quantile of sorted, non-empty values by the nearest-rank rule:
/// the value at rank ceil(q n) (what [`Histogram`] computes for the p95).
#[cfg(test)]
pub fn nearest_rank(sorted: &[f64], q: f64) -> f64 {
    let rank = (q * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

/// The depth `N` of the first word `d<N>` (or `s<N>`, a selective
/// search's depth) in a MSG.
pub fn depth(msg: &str) -> Option<u32> {
    msg.split_whitespace().find_map(|w| {
        w.strip_prefix('d')
            .or_else(|| w.strip_prefix('s'))
            .and_then(|n| n.parse().ok())
    })
}

/// The score in a MSG: the first word that is a signed number, `=` before
/// it allowed (`s14 -12 100ms`: -12; `e20 =+18`: 18). Bare numbers are not
/// taken, so that a depth or a time is never read as a score.
pub fn score(msg: &str) -> Option<f64> {
    msg.split_whitespace().find_map(|w| {
        let w = w.strip_prefix('=').unwrap_or(w);
        if !(w.starts_with('+') || w.starts_with('-')) {
            return None;
        }
        w.parse::<f64>().ok().filter(|x| x.is_finite())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_are_the_signed_numbers_of_a_msg() {
        assert_eq!(score("s14 -12 100ms"), Some(-12.0));
        assert_eq!(score("d9 +4 31ms"), Some(4.0));
        assert_eq!(score("e20 =+18 60"), Some(18.0));
        assert_eq!(score("e20 =-64 199"), Some(-64.0));
        assert_eq!(score("w19 W 120ms"), None);
        assert_eq!(score("12kp 55%"), None);
        assert_eq!(score("d12 100ms"), None);
        assert_eq!(score("eval -inf"), None);
    }

    #[test]
    fn histograms_give_the_same_order_statistics_as_sorting() {
        let values = [112.437, 0.012, 5.0, 149.999, 5.0, 88.5, 0.013, 140.25];
        for n in 1..=values.len() {
            let mut h = Histogram::default();
            for &v in &values[..n] {
                h.add(micros(v));
            }
            let mut sorted = values[..n].to_vec();
            sorted.sort_by(f64::total_cmp);
            let o = h.order(ms).unwrap();
            assert_eq!(o.median, median(&sorted));
            assert_eq!(o.p95, nearest_rank(&sorted, 0.95));
            assert_eq!(ms(o.max), sorted[n - 1]);
            assert_eq!(ms(o.min), sorted[0]);
        }
        assert!(Histogram::default().order(ms).is_none());
    }

    #[test]
    fn quantiles_and_depths() {
        let v: Vec<f64> = (1..=20).map(f64::from).collect();
        assert_eq!(median(&v), 10.5);
        assert_eq!(nearest_rank(&v, 0.95), 19.0);
        assert_eq!(median(&[3.0]), 3.0);
        assert_eq!(nearest_rank(&[3.0], 0.95), 3.0);
        assert_eq!(depth("d9 131ms +4"), Some(9));
        assert_eq!(depth("e18 90ms =+6"), None);
        assert_eq!(depth("x dd d12"), Some(12));
        assert_eq!(depth("s14 +3 20ms"), Some(14));
    }

    #[test]
    fn first_turns_apart_phases_by_move_number() {
        use crate::files::record::MoveRecord;
        let mv = |by, ms, limit_ms, msg: &str| MoveRecord {
            by,
            square: "d3".into(),
            ms,
            limit_ms,
            msg: Some(msg.into()),
        };
        // An 18-move opening: the bots' moves are numbers 19, 20, 21, 22.
        let r = GameRecord {
            game: 1,
            black: Side::P1,
            opening: "d3".repeat(18),
            moves: vec![
                mv(Side::P1, 900.0, 2000.0, "d12"),
                mv(Side::P2, 5.0, 2000.0, ""),
                mv(Side::P1, 100.0, 150.0, "d7"),
                mv(Side::P2, 1.0, 150.0, ""),
                mv(Side::P1, 140.0, 150.0, "d9 x"),
            ],
            winner: None,
            discs_black: 32,
            discs_white: 32,
            fault: None,
            seeds: [0, 0],
            killed_after_end: vec![],
        };
        let [p1, p2] = report(std::slice::from_ref(&r));
        assert_eq!((p1.book_moves, p1.games_without_book), (0, 1));
        // Book moves are counted a game, by the MSG's first word.
        let mut booked = r.clone();
        booked.moves[0].msg = Some("book -1".into());
        booked.moves[2].msg = Some("book +0 3ms".into());
        booked.moves[4].msg = Some("d9 book".into());
        let [b1, b2] = report(&[booked, r]);
        assert_eq!((b1.games, b1.book_moves, b1.games_without_book), (2, 2, 1));
        assert_eq!((b2.book_moves, b2.games_without_book), (0, 2));
        assert_eq!(p1.first_turn_max_ms, Some(900.0));
        assert_eq!(p1.phases.len(), 1);
        let ph = &p1.phases[0];
        assert_eq!((ph.phase, ph.moves, ph.max_ms), ("21-40", 2, 140.0));
        assert_eq!(
            (ph.median_ms, ph.depth_median, ph.depth_min),
            (120.0, Some(8.0), Some(7))
        );
        assert_eq!(p1.closest_ms, Some(10.0));
        assert_eq!(p2.phases[0].phase, "21-40");
        assert_eq!(p2.phases[0].depth_min, None);
        assert_eq!(p2.closest_ms, Some(149.0));
    }
}

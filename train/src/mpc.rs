//! `train mpc`: fits Multi-ProbCut's deviations. Self-play positions are
//! searched full width to every depth from 0 to `max_depth`; for each depth
//! `d` and phase bucket, the standard deviation of (value at `d` - value at
//! `shallow_depth(d)`) becomes one entry of `src/search/mpc_table.rs`.
//! Deeper rows than were measured are extrapolated linearly in `d`.

use crate::gen::{self, GenConfig};
use indicatif::ProgressBar;
use othello::eval::{EvalKind, Evaluator, SCALE};
use othello::search::alphabeta::AlphaBeta;
use othello::search::mpc;
use othello::Board;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use std::fmt::Write as _;

/// Table size (log2 entries) of the measuring searches.
const TABLE_BITS: u32 = 18;
/// Empties per phase bucket (the bot's table uses the same).
pub const BUCKET_EMPTIES: u32 = othello::search::mpc_table::SIGMA_BUCKET_EMPTIES;
/// Phase buckets: 0-9, 10-19, ..., 60 empties.
pub const BUCKETS: usize = 7;
/// The table's rows: depths 0 to this (deeper searches use the last row).
pub const TABLE_DEPTHS: u32 = 24;
/// Positions of a bucket below which its deviation is taken from all
/// phases together.
const MIN_BUCKET_POSITIONS: usize = 50;
/// Positions with fewer empties are solved exactly in play: not sampled.
const MIN_EMPTIES: u32 = 16;

/// One measured position: its values at depths 0, 1, ..., in 1/256 discs.
#[derive(Clone, Debug, PartialEq)]
pub struct Measured {
    /// The position, side to move first.
    pub board: Board,
    /// Full-width values by depth.
    pub values: Vec<i32>,
}

/// Picks `per_game` positions with at least [`MIN_EMPTIES`] empties from
/// each self-play game of `cfg`.
pub fn positions(cfg: &GenConfig, per_game: usize, bar: &ProgressBar) -> Vec<Board> {
    let samples = gen::generate(cfg, bar);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(cfg.seed);
    let mut out = Vec::new();
    let mut start = 0;
    while start < samples.len() {
        let game = samples[start].game;
        let end = start
            + samples[start..]
                .iter()
                .take_while(|s| s.game == game)
                .count();
        let mut pick: Vec<Board> = samples[start..end]
            .iter()
            .map(|s| s.board)
            .filter(|b| b.empty_count() >= MIN_EMPTIES)
            .collect();
        pick.shuffle(&mut rng);
        out.extend(pick.into_iter().take(per_game));
        start = end;
    }
    out
}

/// Searches every board to depths 0..=`max_depth` (full width, pattern
/// evaluation) on `threads` threads; `bar` counts positions.
pub fn measure(
    boards: &[Board],
    max_depth: u32,
    threads: usize,
    bar: &ProgressBar,
) -> Vec<Measured> {
    crate::parallel::map_in_order(boards, threads, bar, |&board| {
        // A fresh table: values never depend on the thread.
        let mut search =
            AlphaBeta::with_table_bits(Evaluator::new(EvalKind::Pattern, 0), TABLE_BITS);
        search.set_selective(false);
        let values = (0..=max_depth).map(|d| search.value(&board, d)).collect();
        Measured { board, values }
    })
}

/// One line per position: player and opponent in hex, then the values.
pub fn to_text(rows: &[Measured]) -> String {
    let mut s = String::new();
    for m in rows {
        write!(s, "{:016x} {:016x}", m.board.player, m.board.opponent).unwrap();
        for v in &m.values {
            write!(s, " {v}").unwrap();
        }
        s.push('\n');
    }
    s
}

/// Reads [`to_text`]'s lines.
///
/// # Errors
/// The first malformed line, by number.
pub fn from_text(text: &str) -> Result<Vec<Measured>, String> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, line)| {
            let bad = |what: &str| format!("line {}: {what}: {line:?}", i + 1);
            let mut words = line.split_whitespace();
            let mut hex = || {
                words
                    .next()
                    .and_then(|w| u64::from_str_radix(w, 16).ok())
                    .ok_or_else(|| bad("expected two hex bitboards"))
            };
            let (p, o) = (hex()?, hex()?);
            if p & o != 0 {
                return Err(bad("overlapping discs"));
            }
            let values = words
                .map(|w| w.parse().map_err(|_| bad("expected integer values")))
                .collect::<Result<Vec<i32>, _>>()?;
            if values.is_empty() {
                return Err(bad("no values"));
            }
            Ok(Measured {
                board: Board::new(p, o),
                values,
            })
        })
        .collect()
}

/// What the fit found for one (depth, bucket).
#[derive(Clone, Copy, Debug, Default)]
pub struct Cell {
    /// Positions.
    pub n: usize,
    /// Root mean square of deep - shallow, in discs (the bot's σ).
    pub rms: f64,
    /// Regression of deep on shallow: slope, intercept (discs), residual
    /// standard deviation (discs): for the report.
    pub slope: f64,
    pub intercept: f64,
    pub residual: f64,
}

/// Fits every measured depth from [`mpc::MIN_DEPTH`]: `cells[d][bucket]`,
/// and `all[d]` over every phase.
pub fn fit(rows: &[Measured]) -> (Vec<[Cell; BUCKETS]>, Vec<Cell>) {
    let depths = rows.iter().map(|m| m.values.len()).min().unwrap_or(0) as u32;
    let mut cells = vec![[Cell::default(); BUCKETS]; depths as usize];
    let mut all = vec![Cell::default(); depths as usize];
    for d in mpc::MIN_DEPTH..depths {
        let s = mpc::shallow_depth(d);
        let pairs = |bucket: Option<usize>| -> Vec<(f64, f64)> {
            rows.iter()
                .filter(|m| {
                    bucket.is_none_or(|b| (m.board.empty_count() / BUCKET_EMPTIES) as usize == b)
                })
                .map(|m| {
                    let scale = f64::from(SCALE);
                    (
                        f64::from(m.values[s as usize]) / scale,
                        f64::from(m.values[d as usize]) / scale,
                    )
                })
                .collect()
        };
        for (b, c) in cells[d as usize].iter_mut().enumerate() {
            *c = cell(&pairs(Some(b)));
        }
        all[d as usize] = cell(&pairs(None));
    }
    (cells, all)
}

fn cell(pairs: &[(f64, f64)]) -> Cell {
    let n = pairs.len();
    if n < 2 {
        return Cell {
            n,
            ..Cell::default()
        };
    }
    let nf = n as f64;
    let mx = pairs.iter().map(|p| p.0).sum::<f64>() / nf;
    let my = pairs.iter().map(|p| p.1).sum::<f64>() / nf;
    let sxx = pairs.iter().map(|p| (p.0 - mx).powi(2)).sum::<f64>();
    let sxy = pairs.iter().map(|p| (p.0 - mx) * (p.1 - my)).sum::<f64>();
    let slope = if sxx > 0.0 { sxy / sxx } else { 1.0 };
    let intercept = my - slope * mx;
    let residual = (pairs
        .iter()
        .map(|p| (p.1 - slope * p.0 - intercept).powi(2))
        .sum::<f64>()
        / (nf - 2.0).max(1.0))
    .sqrt();
    let rms = (pairs.iter().map(|p| (p.1 - p.0).powi(2)).sum::<f64>() / nf).sqrt();
    Cell {
        n,
        rms,
        slope,
        intercept,
        residual,
    }
}

/// Deviations are stored in quarter discs.
pub const UNITS_PER_DISC: f64 = 4.0;
/// The largest storable deviation, in quarter discs: the stored byte is
/// `b'#' + value`, which stays a printable character before the backslash
/// (`#` is 35, `\\` is 92).
pub const MAX_STORED: u8 = 91 - b'#';

/// The table's rows for depths 0..=[`TABLE_DEPTHS`], in quarter discs
/// (clamped to 1..=[`MAX_STORED`]): the
/// measured deviation where a bucket has enough positions (else the
/// all-phase one), and beyond the measured depths a least-squares line
/// through each bucket's measured rows, in the gap `d - shallow_depth(d)`
/// (never below the deepest measured row).
pub fn table(cells: &[[Cell; BUCKETS]], all: &[Cell]) -> Vec<[u8; BUCKETS]> {
    let first = mpc::MIN_DEPTH as usize;
    let sigma = |d: usize, b: usize| -> f64 {
        let c = cells[d][b];
        if c.n >= MIN_BUCKET_POSITIONS {
            c.rms
        } else {
            all[d].rms
        }
    };
    let mut rows = Vec::new();
    for d in 0..=TABLE_DEPTHS as usize {
        let mut row = [0u8; BUCKETS];
        for (b, out) in row.iter_mut().enumerate() {
            let discs = if d < first {
                0.0
            } else if d < cells.len() {
                sigma(d, b)
            } else {
                // Line through the measured (gap, sigma) of this bucket,
                // where the gap is d - shallow_depth(d).
                let gap = |k: usize| (k as u32 - mpc::shallow_depth(k as u32)) as f64;
                let pts: Vec<(f64, f64)> = (first..cells.len())
                    .map(|k| (gap(k), sigma(k, b)))
                    .collect();
                let n = pts.len() as f64;
                let mx = pts.iter().map(|p| p.0).sum::<f64>() / n;
                let my = pts.iter().map(|p| p.1).sum::<f64>() / n;
                let sxx = pts.iter().map(|p| (p.0 - mx).powi(2)).sum::<f64>();
                let sxy = pts.iter().map(|p| (p.0 - mx) * (p.1 - my)).sum::<f64>();
                let slope = if sxx > 0.0 { sxy / sxx } else { 0.0 };
                let last = sigma(cells.len() - 1, b);
                (my + slope * (gap(d) - mx)).max(last)
            };
            *out = (discs * UNITS_PER_DISC)
                .round()
                .clamp(1.0, f64::from(MAX_STORED)) as u8;
        }
        rows.push(row);
    }
    rows
}

/// `src/search/mpc_table.rs` with `rows`, and `how` as its provenance.
pub fn rust_source(rows: &[[u8; BUCKETS]], how: &str) -> String {
    let mut s = String::new();
    s.push_str("//! Multi-ProbCut's fitted deviations (see [`super::mpc`]). Generated by\n");
    s.push_str("//! `train mpc`; do not edit by hand.\n//!\n");
    for line in how.lines() {
        writeln!(s, "//! {line}").unwrap();
    }
    s.push_str("\n/// Empties per phase bucket of [`SIGMA`].\n");
    writeln!(s, "pub const SIGMA_BUCKET_EMPTIES: u32 = {BUCKET_EMPTIES};").unwrap();
    s.push_str("/// Phase buckets per depth in [`SIGMA`].\n");
    writeln!(s, "pub const SIGMA_BUCKETS: usize = {BUCKETS};").unwrap();
    s.push_str("\n/// `SIGMA[depth * SIGMA_BUCKETS + empties / SIGMA_BUCKET_EMPTIES] - b'#'`:\n");
    s.push_str("/// the standard deviation of (value at `depth` - value at the shallow\n");
    s.push_str("/// depth), in quarter discs.\n");
    s.push_str("pub const SIGMA: &[u8] = b\"");
    for row in rows {
        s.extend(row.iter().map(|&v| char::from(b'#' + v)));
    }
    s.push_str("\";\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_round_trip_and_bad_lines_are_named() {
        let rows = vec![
            Measured {
                board: Board::start(),
                values: vec![0, -12, 300],
            },
            Measured {
                board: Board::start().play(othello::Square::new(19)),
                values: vec![5, 6, 7],
            },
        ];
        assert_eq!(from_text(&to_text(&rows)).unwrap(), rows);
        let err = from_text("0000000810000000 0000001008000000 1\nzz 1 2\n").unwrap_err();
        assert!(err.starts_with("line 2:"), "{err}");
    }

    #[test]
    fn measured_values_are_full_width_search_values() {
        let board = Board::start().play(othello::Square::new(19));
        let rows = measure(&[board], 3, 1, &ProgressBar::hidden());
        let mut eval = Evaluator::new(EvalKind::Pattern, 0);
        assert_eq!(rows[0].values[0], eval.evaluate(&board));
        // Depth 1: the best child by its (negated) evaluation.
        let best = board
            .moves()
            .squares()
            .map(|sq| -eval.evaluate(&board.play(sq)))
            .max()
            .unwrap();
        assert_eq!(rows[0].values[1], best);
    }

    #[test]
    fn a_fit_on_a_known_spread_finds_it() {
        // Deep = shallow + 2 discs on half the positions, - 2 on the other.
        let rows: Vec<Measured> = (0..200)
            .map(|i| {
                let mut values = vec![0; 8];
                values[7] = if i % 2 == 0 { 512 } else { -512 };
                values[3] = if i % 2 == 0 { 512 } else { -512 }; // shallow of 3 is 1
                Measured {
                    board: Board::start(),
                    values,
                }
            })
            .collect();
        let (cells, all) = fit(&rows);
        // shallow_depth(7) = 1: values[1] = 0, so deep - shallow = ±2 discs.
        assert!((all[7].rms - 2.0).abs() < 1e-9);
        assert!((cells[7][6].rms - 2.0).abs() < 1e-9);
        let t = table(&cells, &all);
        assert_eq!(t[7][6], 8);
        let source = rust_source(&t, "test");
        assert!(source.contains("pub const SIGMA: &[u8] = b\""), "{source}");
        assert!(!source[source.find("b\"").unwrap() + 2..]
            .trim_end()
            .trim_end_matches("\";")
            .contains(['\\', '"']));
        assert_eq!(t.len(), TABLE_DEPTHS as usize + 1);
    }
}

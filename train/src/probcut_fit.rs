//! The fit of the selective solve's cut (`train probcut`): from the errors
//! (exact score - shallow value) measured by [`crate::probcut`], smooth
//! functions of the empties `n` and the shallow depth `d`:
//!
//! - the standard deviation, `σ(n, d) = s0 + s1·d + s2·(n - d) + s3·(n - d)²`
//!   discs (the error shrinks as the shallow search looks further, and
//!   depends on how far its leaves are from the end);
//! - the mean, one quadratic in `n` plus a term in `d` for each parity of
//!   `n` and of `d` (the side that moves last at the leaves gains:
//!   `μ = m0 + m1·n + m2·n² + m3·d`).
//!
//! Both are weighted least squares over the (n, d) cells, each weighted by
//! its positions; cells whose leaves lie closer than [`MIN_GAP`] empties to
//! the end are left out (the cut never searches that close). The solver
//! evaluates them only inside the measured empties (`FIT_EMPTIES`).

use crate::probcut::Row;
use othello::eval::SCALE;
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// Cells with `n - d` below this are not fitted.
pub const MIN_GAP: u32 = 4;

/// One (empties, depth) cell of the measurement.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cell {
    /// Empties.
    pub n: u32,
    /// Shallow depth.
    pub d: u32,
    /// Positions.
    pub count: usize,
    /// Mean of exact - value, discs.
    pub mean: f64,
    /// Standard deviation of exact - value, discs.
    pub sd: f64,
}

/// The fitted functions.
#[derive(Clone, Debug, PartialEq)]
pub struct Fit {
    /// `σ(n, d)`'s coefficients `s0..s3`.
    pub sigma: [f64; 4],
    /// `μ`'s coefficients by `[n % 2][d % 2]`.
    pub mean: [[[f64; 4]; 2]; 2],
    /// The empties measured (fewest, most).
    pub empties: (u32, u32),
}

impl Fit {
    /// The fitted standard deviation at `n` empties and depth `d`, discs.
    pub fn sigma(&self, n: u32, d: u32) -> f64 {
        let (n, d) = (f64::from(n), f64::from(d));
        let g = n - d;
        self.sigma[0] + self.sigma[1] * d + self.sigma[2] * g + self.sigma[3] * g * g
    }

    /// The fitted mean error at `n` empties and depth `d`, discs.
    pub fn mean(&self, n: u32, d: u32) -> f64 {
        let m = &self.mean[(n % 2) as usize][(d % 2) as usize];
        let (n, d) = (f64::from(n), f64::from(d));
        m[0] + m[1] * n + m[2] * n * n + m[3] * d
    }
}

/// The cells of `rows`.
pub fn cells(rows: &[Row]) -> Vec<Cell> {
    let mut errors: BTreeMap<(u32, u32), Vec<f64>> = BTreeMap::new();
    for r in rows {
        for (d, &v) in r.values.iter().enumerate() {
            let e = f64::from(r.exact) - f64::from(v) / f64::from(SCALE);
            errors.entry((r.empties(), d as u32)).or_default().push(e);
        }
    }
    errors
        .into_iter()
        .map(|((n, d), e)| {
            let k = e.len() as f64;
            let mean = e.iter().sum::<f64>() / k;
            let sd = (e.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / k).sqrt();
            Cell {
                n,
                d,
                count: e.len(),
                mean,
                sd,
            }
        })
        .collect()
}

/// Weighted least squares: the coefficients `b` minimising
/// `Σ w (y - x·b)²` (normal equations, Gauss-Jordan with pivoting).
///
/// # Panics
/// If the rows do not determine the coefficients.
pub fn least_squares<const K: usize>(points: &[([f64; K], f64, f64)]) -> [f64; K] {
    let mut a = [[0.0; K]; K];
    let mut b = [0.0; K];
    for (x, y, w) in points {
        for i in 0..K {
            b[i] += w * x[i] * y;
            for (aij, xj) in a[i].iter_mut().zip(x) {
                *aij += w * x[i] * xj;
            }
        }
    }
    for col in 0..K {
        let pivot = (col..K)
            .max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))
            .expect("rows");
        a.swap(col, pivot);
        b.swap(col, pivot);
        assert!(a[col][col].abs() > 1e-12, "singular least squares");
        for row in 0..K {
            if row != col {
                let f = a[row][col] / a[col][col];
                let pivot_row = a[col];
                for (arj, pj) in a[row].iter_mut().zip(pivot_row) {
                    *arj -= f * pj;
                }
                b[row] -= f * b[col];
            }
        }
    }
    std::array::from_fn(|i| b[i] / a[i][i])
}

/// Fits both functions to `cells`.
pub fn fit(cells: &[Cell]) -> Fit {
    let used: Vec<&Cell> = cells.iter().filter(|c| c.n >= c.d + MIN_GAP).collect();
    let sigma = least_squares(
        &used
            .iter()
            .map(|c| {
                let (n, d) = (f64::from(c.n), f64::from(c.d));
                let g = n - d;
                ([1.0, d, g, g * g], c.sd, c.count as f64)
            })
            .collect::<Vec<_>>(),
    );
    let mut mean = [[[0.0; 4]; 2]; 2];
    for (pn, row) in mean.iter_mut().enumerate() {
        for (pd, m) in row.iter_mut().enumerate() {
            *m = least_squares(
                &used
                    .iter()
                    .filter(|c| (c.n % 2) as usize == pn && (c.d % 2) as usize == pd)
                    .map(|c| {
                        let (n, d) = (f64::from(c.n), f64::from(c.d));
                        ([1.0, n, n * n, d], c.mean, c.count as f64)
                    })
                    .collect::<Vec<_>>(),
            );
        }
    }
    let lo = used.iter().map(|c| c.n).min().unwrap_or(0);
    let hi = used.iter().map(|c| c.n).max().unwrap_or(0);
    Fit {
        sigma,
        mean,
        empties: (lo, hi),
    }
}

/// The cells against the fit: measured and fitted mean and deviation.
pub fn report(cells: &[Cell], fit: &Fit) -> String {
    let mut s = String::from(
        "empties depth     n   mean (fit)     sd (fit)   [exact - shallow value, discs]\n",
    );
    for c in cells.iter().filter(|c| c.n >= c.d + MIN_GAP) {
        let _ = writeln!(
            s,
            "{:>7} {:>5} {:>5} {:+6.2} ({:+6.2}) {:6.2} ({:6.2})",
            c.n,
            c.d,
            c.count,
            c.mean,
            fit.mean(c.n, c.d),
            c.sd,
            fit.sigma(c.n, c.d)
        );
    }
    let (mut sd2, mut mean2, mut w) = (0.0, 0.0, 0.0);
    for c in cells.iter().filter(|c| c.n >= c.d + MIN_GAP) {
        let k = c.count as f64;
        sd2 += k * (c.sd - fit.sigma(c.n, c.d)).powi(2);
        mean2 += k * (c.mean - fit.mean(c.n, c.d)).powi(2);
        w += k;
    }
    let _ = writeln!(
        s,
        "weighted rms of the cells about the fit: mean {:.3}, sd {:.3} discs",
        (mean2 / w).sqrt(),
        (sd2 / w).sqrt()
    );
    s
}

/// The width of a band of estimated scores in [`by_estimate`], discs.
pub const BAND_DISCS: u32 = 4;
/// The bands of [`by_estimate`]: the last holds every estimate beyond.
pub const BANDS: u32 = 7;

/// The rows of one band of estimated scores.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Band {
    /// Its nearest distance from a draw, discs.
    pub from: u32,
    /// Positions.
    pub count: usize,
    /// The root mean square of (exact - estimate) / σ(n, d).
    pub rms: f64,
    /// The share of those beyond 2 in absolute value.
    pub beyond_two: f64,
}

/// The errors of the rows whose cut searches to depth `d`
/// (`depth_of(n) == d`), in fitted deviations, by the distance of the
/// estimate (shallow value plus fitted mean) from a draw: where the
/// deviation depends on more than `n` and `d`.
pub fn by_estimate(rows: &[Row], fit: &Fit, depth_of: impl Fn(u32) -> u32, d: u32) -> Vec<Band> {
    let mut bands: Vec<Vec<f64>> = vec![Vec::new(); BANDS as usize];
    for r in rows {
        let n = r.empties();
        if depth_of(n) != d || d as usize >= r.values.len() || n < fit.empties.0 {
            continue;
        }
        let estimate = f64::from(r.values[d as usize]) / f64::from(SCALE) + fit.mean(n, d);
        let z = (f64::from(r.exact) - estimate) / fit.sigma(n, d);
        let band = ((estimate.abs() / f64::from(BAND_DISCS)) as usize).min(BANDS as usize - 1);
        bands[band].push(z);
    }
    bands
        .iter()
        .enumerate()
        .filter(|(_, z)| !z.is_empty())
        .map(|(i, z)| {
            let k = z.len() as f64;
            Band {
                from: i as u32 * BAND_DISCS,
                count: z.len(),
                rms: (z.iter().map(|x| x * x).sum::<f64>() / k).sqrt(),
                beyond_two: z.iter().filter(|x| x.abs() > 2.0).count() as f64 / k,
            }
        })
        .collect()
}

/// [`by_estimate`] for each depth the cut uses, beside the factor the
/// solver applies (`othello::search::endgame::sigma_factor`).
pub fn by_estimate_report(rows: &[Row], fit: &Fit) -> String {
    use othello::search::endgame::{cut_depth, sigma_factor};
    let mut depths: Vec<u32> = (fit.empties.0..=fit.empties.1).map(cut_depth).collect();
    depths.dedup();
    let mut s = String::from(
        "depth  |estimate| discs     n  rms (exact - estimate)/σ  beyond 2σ  solver's factor\n",
    );
    for d in depths {
        for b in by_estimate(rows, fit, cut_depth, d) {
            let mid = f64::from(b.from) + f64::from(BAND_DISCS) / 2.0;
            let band = if b.from + BAND_DISCS >= BANDS * BAND_DISCS {
                format!("{}-", b.from)
            } else {
                format!("{}-{}", b.from, b.from + BAND_DISCS)
            };
            let _ = writeln!(
                s,
                "{d:>5}  {band:>15}  {:>5}  {:>24.2}  {:>8.1}%  {:>15.2}",
                b.count,
                b.rms,
                100.0 * b.beyond_two,
                sigma_factor(d, mid)
            );
        }
    }
    s
}

/// The solver's source file of the fit (`src/search/endgame/probcut_fit.rs`),
/// with `how` as its provenance.
pub fn rust_source(fit: &Fit, how: &str) -> String {
    let mut s = String::new();
    s.push_str("//! The selective solve's fitted cut deviations and means (see\n");
    s.push_str(
        "//! [`super::probcut`]). Generated by `train probcut`; do not edit by hand.\n//!\n",
    );
    for line in how.lines() {
        let _ = writeln!(s, "//! {line}");
    }
    let f = |x: f64| format!("{x:.5}");
    s.push_str("\n/// The empties measured: outside them the functions are read at the\n");
    s.push_str("/// nearest measured count of the same parity.\n");
    let _ = writeln!(
        s,
        "pub const FIT_EMPTIES: (u32, u32) = ({}, {});",
        fit.empties.0, fit.empties.1
    );
    s.push_str("/// `σ(n, d) = S0 + S1·d + S2·(n - d) + S3·(n - d)²` discs: the standard\n");
    s.push_str("/// deviation of (exact score - depth-`d` value) at `n` empties.\n");
    let _ = writeln!(
        s,
        "pub const DEVIATION: [f64; 4] = [{}];",
        fit.sigma.map(f).join(", ")
    );
    s.push_str("/// `MEAN[n % 2][d % 2]`: `M0 + M1·n + M2·n² + M3·d` discs, the mean of\n");
    s.push_str("/// (exact score - depth-`d` value) at `n` empties.\n");
    // Laid out as rustfmt lays it out, so that `cargo fmt` leaves it.
    s.push_str("pub const MEAN: [[[f64; 4]; 2]; 2] = [\n");
    for row in &fit.mean {
        s.push_str("    [\n");
        for m in row {
            let _ = writeln!(s, "        [{}],", m.map(f).join(", "));
        }
        s.push_str("    ],\n");
    }
    s.push_str("];\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn least_squares_recovers_a_known_line() {
        let points: Vec<([f64; 2], f64, f64)> = (0..10)
            .map(|i| {
                let x = f64::from(i);
                ([1.0, x], 3.0 - 0.5 * x, 1.0 + x)
            })
            .collect();
        let b = least_squares(&points);
        assert!(
            (b[0] - 3.0).abs() < 1e-9 && (b[1] + 0.5).abs() < 1e-9,
            "{b:?}"
        );
    }

    #[test]
    fn a_fit_of_known_cells_finds_their_functions() {
        let truth = Fit {
            sigma: [6.0, -0.4, 0.25, -0.01],
            mean: [
                [[0.8, -0.47, 0.02, 0.05], [-1.5, -0.24, 0.005, 0.26]],
                [[3.5, -0.4, 0.018, -0.01], [1.2, -0.19, 0.005, 0.18]],
            ],
            empties: (8, 22),
        };
        let cells: Vec<Cell> = (8..=22)
            .flat_map(|n| (0..=6).map(move |d| (n, d)))
            .map(|(n, d)| Cell {
                n,
                d,
                count: 500,
                mean: truth.mean(n, d),
                sd: truth.sigma(n, d),
            })
            .collect();
        let got = fit(&cells);
        for (n, d) in [(10, 0), (16, 2), (22, 4), (13, 3)] {
            assert!((got.sigma(n, d) - truth.sigma(n, d)).abs() < 1e-6);
            assert!((got.mean(n, d) - truth.mean(n, d)).abs() < 1e-6);
        }
        assert_eq!(got.empties, (8, 22));
        let source = rust_source(&got, "test");
        assert!(source.contains("pub const DEVIATION: [f64; 4] = [6.00000, -0.40000"));
        assert!(source.contains("pub const FIT_EMPTIES: (u32, u32) = (8, 22);"));
    }

    /// Rows whose errors are one deviation near a draw and three far from
    /// it: the bands tell them apart, and rows of another depth are left out.
    #[test]
    fn errors_by_estimate_find_wider_misses_far_from_a_draw() {
        let fit = Fit {
            sigma: [6.0, -0.4, 0.25, -0.01],
            mean: [[[0.5, 0.0, 0.0, 0.0]; 2]; 2],
            empties: (8, 22),
        };
        // 10 empties: the first 54 squares filled.
        let board = othello::Board::new(0x0000_5555_5555_5555, 0x003f_aaaa_aaaa_aaaa);
        assert_eq!(board.empty_count(), 10);
        let sigma = fit.sigma(10, 0);
        let row = |estimate: f64, z: f64| {
            let exact = (estimate + z * sigma).round();
            // The shallow value that gives exactly that error.
            let value = ((exact - z * sigma - 0.5) * f64::from(SCALE)).round() as i32;
            Row {
                board,
                exact: exact as i32,
                values: vec![value; 3],
            }
        };
        let mut rows = Vec::new();
        for sign in [-1.0, 1.0] {
            rows.push(row(1.0, sign));
            rows.push(row(-2.0, sign));
            rows.push(row(22.0, 3.0 * sign));
        }
        let bands = by_estimate(&rows, &fit, |_| 0, 0);
        assert_eq!(bands.iter().map(|b| b.from).collect::<Vec<_>>(), [0, 20]);
        assert_eq!(bands[0].count, 4);
        assert!((bands[0].rms - 1.0).abs() < 0.02, "{bands:?}");
        assert!((bands[1].rms - 3.0).abs() < 0.02, "{bands:?}");
        assert_eq!((bands[0].beyond_two, bands[1].beyond_two), (0.0, 1.0));
        assert!(by_estimate(&rows, &fit, |_| 2, 0).is_empty());
    }
}

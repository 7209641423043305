//! Whether a feature that the patterns do not see would still pay: how much
//! of the evaluation's held-out error a linear term in it explains.
//!
//! For each number of empties, the residual (label minus the compiled
//! evaluation) of the training positions is fitted by least squares to an
//! intercept plus the chosen features; the validation positions' mean
//! absolute error is then measured with and without that correction. An
//! upper bound of sorts on what the feature adds to the tables (a joint fit
//! could do a little better, the search's cost per node is not counted).

use crate::fit;
use crate::gen::Sample;
use othello::Board;

/// A named feature of a position, from the side to move's point of view.
pub struct Feature {
    pub name: &'static str,
    pub value: fn(&Board) -> f64,
}

/// The squares next to `b`'s discs.
fn around(b: u64) -> u64 {
    let h = ((b >> 1) & 0x7f7f_7f7f_7f7f_7f7f) | ((b << 1) & 0xfefe_fefe_fefe_fefe);
    let row = b | h;
    (h | (row >> 8) | (row << 8)) & !b
}

/// The features `train features` measures.
pub const FEATURES: [Feature; 4] = [
    Feature {
        name: "mobility",
        value: |b| f64::from(b.moves().count()) - f64::from(b.pass().moves().count()),
    },
    Feature {
        name: "potential mobility",
        value: |b| {
            let empty = !(b.player | b.opponent);
            f64::from((around(b.opponent) & empty).count_ones())
                - f64::from((around(b.player) & empty).count_ones())
        },
    },
    Feature {
        name: "corner moves",
        value: |b| {
            let corners = othello::Bitboard::CORNERS.0;
            f64::from((b.moves().0 & corners).count_ones())
                - f64::from((b.pass().moves().0 & corners).count_ones())
        },
    },
    Feature {
        name: "odd quadrants",
        value: |b| {
            let empty = !(b.player | b.opponent);
            let quadrants = [
                0x0f0f_0f0f,
                0xf0f0_f0f0,
                0x0f0f_0f0f << 32,
                0xf0f0_f0f0u64 << 32,
            ];
            quadrants
                .iter()
                .map(|q| f64::from((empty & q).count_ones() & 1))
                .sum()
        },
    },
];

/// Buckets of 10 empties, as in docs/evaluation.md's tables.
pub const BUCKETS: usize = 6;

/// Validation MAE (discs) by bucket and overall, before and after.
#[derive(Clone, Debug, PartialEq)]
pub struct Explained {
    pub before: [f64; BUCKETS + 1],
    pub after: [f64; BUCKETS + 1],
}

/// Solves `a x = y` (`a` symmetric, positive semi-definite) by Gaussian
/// elimination with a small ridge.
fn solve(mut a: Vec<Vec<f64>>, mut y: Vec<f64>) -> Vec<f64> {
    let n = y.len();
    for (i, row) in a.iter_mut().enumerate() {
        row[i] += 1e-6;
    }
    for i in 0..n {
        let (top, rest) = a.split_at_mut(i + 1);
        let pivot = &top[i];
        for (k, row) in rest.iter_mut().enumerate() {
            let f = row[i] / pivot[i];
            for (x, p) in row[i..].iter_mut().zip(&pivot[i..]) {
                *x -= f * p;
            }
            y[i + 1 + k] -= f * y[i];
        }
    }
    let mut x = vec![0.0; n];
    for i in (0..n).rev() {
        let s: f64 = (i + 1..n).map(|j| a[i][j] * x[j]).sum();
        x[i] = (y[i] - s) / a[i][i];
    }
    x
}

/// How much a per-empties linear term in `features` explains of
/// `residual` on the validation positions (one game in `holdout_every`).
pub fn explain(
    samples: &[Sample],
    holdout_every: u32,
    residual: impl Fn(&Sample) -> f64,
    features: &[&Feature],
) -> Explained {
    let row = |b: &Board| -> Vec<f64> {
        std::iter::once(1.0)
            .chain(features.iter().map(|f| (f.value)(b)))
            .collect()
    };
    let n = 1 + features.len();
    let (train, valid) = fit::split(samples, holdout_every);
    let mut normal = vec![(vec![vec![0.0; n]; n], vec![0.0; n]); 61];
    for s in &train {
        let (a, y) = &mut normal[s.board.empty_count() as usize];
        let (x, r) = (row(&s.board), residual(s));
        for i in 0..n {
            y[i] += x[i] * r;
            for j in 0..n {
                a[i][j] += x[i] * x[j];
            }
        }
    }
    let weights: Vec<Vec<f64>> = normal.into_iter().map(|(a, y)| solve(a, y)).collect();
    let mut sums = [(0.0, 0.0, 0usize); BUCKETS + 1];
    for s in &valid {
        let e = s.board.empty_count() as usize;
        let r = residual(s);
        let c: f64 = row(&s.board)
            .iter()
            .zip(&weights[e])
            .map(|(x, w)| x * w)
            .sum();
        for b in [(e / 10).min(BUCKETS - 1), BUCKETS] {
            sums[b].0 += r.abs();
            sums[b].1 += (r - c).abs();
            sums[b].2 += 1;
        }
    }
    let mean = |i: usize, total: f64| total / sums[i].2.max(1) as f64;
    Explained {
        before: std::array::from_fn(|i| mean(i, sums[i].0)),
        after: std::array::from_fn(|i| mean(i, sums[i].1)),
    }
}

/// The residual's statistics at one count of empties.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ErrorAt {
    /// Positions counted.
    pub count: usize,
    /// Mean residual (label - evaluation), discs.
    pub mean: f64,
    /// Its standard deviation.
    pub sd: f64,
    /// Mean absolute residual.
    pub mae: f64,
    /// Mean absolute label: how one-sided the positions are.
    pub mean_abs_label: f64,
}

/// `residual` by count of empties (index 0-60), over every sample whose
/// label is within `max_label` discs of a draw.
pub fn by_empties(
    samples: &[Sample],
    max_label: i32,
    residual: impl Fn(&Sample) -> f64,
) -> Vec<ErrorAt> {
    let mut sums = [(0.0, 0.0, 0.0, 0.0, 0usize); 61];
    for s in samples
        .iter()
        .filter(|s| i32::from(s.label).abs() <= max_label)
    {
        let r = residual(s);
        let t = &mut sums[s.board.empty_count() as usize];
        t.0 += r;
        t.1 += r * r;
        t.2 += r.abs();
        t.3 += f64::from(s.label).abs();
        t.4 += 1;
    }
    sums.iter()
        .map(|&(sum, squares, abs, labels, count)| {
            let k = count.max(1) as f64;
            let mean = sum / k;
            ErrorAt {
                count,
                mean,
                sd: (squares / k - mean * mean).max(0.0).sqrt(),
                mae: abs / k,
                mean_abs_label: labels / k,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Positions of a few random games, labelled 0.
    fn samples() -> Vec<Sample> {
        let mut rng = othello::rng::Rng::seed_from_u64(5);
        let mut out = Vec::new();
        for game in 0..200 {
            let mut b = Board::start();
            while !b.is_game_over() {
                if b.moves().is_empty() {
                    b = b.pass();
                }
                out.push(Sample {
                    board: b,
                    label: 0,
                    game,
                    held_out: None,
                });
                let moves: Vec<_> = b.moves().squares().collect();
                b = b.play(moves[rng.below(moves.len() as u64) as usize]);
            }
        }
        out
    }

    #[test]
    fn errors_by_empties_count_mean_and_spread_of_the_kept_labels() {
        let samples: Vec<Sample> = samples()
            .into_iter()
            .enumerate()
            .map(|(i, s)| Sample {
                label: [3, -3, 40][i % 3],
                ..s
            })
            .collect();
        // The residual: +1 for even games, -1 for odd ones, and 100 for
        // the labels the filter drops.
        let residual = |s: &Sample| {
            if s.label == 40 {
                100.0
            } else if s.game.is_multiple_of(2) {
                1.0
            } else {
                -1.0
            }
        };
        let kept = |e: u32| {
            samples
                .iter()
                .filter(|s| s.board.empty_count() == e && s.label != 40)
                .collect::<Vec<_>>()
        };
        let at = by_empties(&samples, 10, residual);
        assert_eq!(at.len(), 61);
        for e in [20, 40, 59] {
            let here = kept(e);
            let even = here.iter().filter(|s| s.game.is_multiple_of(2)).count() as f64;
            let k = here.len() as f64;
            let mean = (2.0 * even - k) / k;
            assert_eq!(at[e as usize].count, here.len(), "{e}");
            assert!(
                (at[e as usize].mean - mean).abs() < 1e-9,
                "{e}: {:?}",
                at[e as usize]
            );
            assert!((at[e as usize].sd - (1.0 - mean * mean).sqrt()).abs() < 1e-9);
            assert!((at[e as usize].mae - 1.0).abs() < 1e-9);
            assert!((at[e as usize].mean_abs_label - 3.0).abs() < 1e-9);
        }
        // With every label kept, the dropped ones count again.
        let all = by_empties(&samples, 64, residual);
        assert!(
            all[40].count > at[40].count && all[40].mae > 10.0,
            "{:?}",
            all[40]
        );
    }

    #[test]
    fn a_residual_made_of_a_feature_is_explained_and_an_unrelated_one_is_not() {
        let samples = samples();
        let mobility = &FEATURES[0];
        let made = |s: &Sample| 3.0 * (mobility.value)(&s.board) - 2.0;
        let e = explain(&samples, 5, made, &[mobility]);
        assert!(e.before[BUCKETS] > 1.0, "{e:?}");
        assert!(e.after[BUCKETS] < 1e-3, "{e:?}");
        // Noise the feature knows nothing of stays (a parity of the game's number).
        let noise = |s: &Sample| if s.game.is_multiple_of(2) { 4.0 } else { -4.0 };
        let e = explain(&samples, 5, noise, &[mobility]);
        assert!(e.after[BUCKETS] > 3.0, "{e:?}");
    }
}

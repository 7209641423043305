//! One rating list from all the games of a tournament: the Bradley-Terry
//! (logistic) model fitted over every game at once, as ordo and BayesElo
//! do, not an average of pair results.
//!
//! Bot `i` has a strength `r_i` (natural units); it scores against `j` on
//! average `1 / (1 + e^(r_j - r_i))`. A draw counts as half a win and half
//! a loss (ordo's default), so the likelihood of the results is
//! `prod p_ij^s_ij (1 - p_ij)^(n_ij - s_ij)` over pairs, `s_ij` being `i`'s
//! points in its `n_ij` games against `j`.
//!
//! The prior: `prior_draws` virtual draws between each pair of bots that
//! played each other (one in the tournament's list, [`PRIOR_DRAWS`]), added
//! to their games before the fit, so the fit is the maximum a posteriori.
//! It keeps the list finite when a bot (or a group) won or lost every game,
//! where the maximum likelihood alone runs to infinity. Newton's method
//! with step halving climbs the (concave) log-posterior to its maximum,
//! with the anchor's strength held at 0. The error bars come from the
//! inverse of its negative Hessian at the maximum (the Laplace
//! approximation of the posterior; the virtual draws count there as the
//! games they are). Elo is `400 log10(e) r`.
//!
//! The list needs games that link every bot to every other (Zermelo,
//! Ford): [`fit`] refuses anything else, naming the bots, and with no
//! prior it also refuses a group of bots that lost every game against the
//! others.

/// Virtual draws the tournament's rating list adds between each pair of
/// bots that played each other.
pub const PRIOR_DRAWS: f64 = 1.0;
/// Elo per natural unit of strength: `400 / ln 10`.
pub const ELO_PER_NAT: f64 = 400.0 / std::f64::consts::LN_10;
/// Newton iterations at most (a few dozen are enough for any real table).
const MAX_ITERATIONS: usize = 200;
/// Convergence: the largest step of a strength, in natural units.
const TOLERANCE: f64 = 1e-10;

/// One bot's results against another (the row's against the column's).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Cell {
    /// Games the row won.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games the row lost.
    pub losses: u64,
}

impl Cell {
    /// Games played.
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// The row's points: wins and half the draws.
    pub fn points(&self) -> f64 {
        self.wins as f64 + self.draws as f64 / 2.0
    }
}

/// A fitted rating list.
#[derive(Clone, Debug, PartialEq)]
pub struct Ratings {
    /// Each bot's Elo, the anchor's 0.
    pub elo: Vec<f64>,
    /// Each bot's 95% error bar (half-width) relative to the anchor, in
    /// Elo; the anchor's is 0.
    pub error: Vec<f64>,
    /// Newton iterations used.
    pub iterations: usize,
    /// When the games alone have no maximum (a bot or a group won or lost
    /// every game against the rest): who, held finite by the prior.
    pub note: Option<String>,
}

/// Games and the row's points of each pair, virtual draws included:
/// `(games, points)`.
type Tally = Vec<Vec<(f64, f64)>>;

/// Fits the ratings of the bots of `cells` (`cells[i][j]`: `i`'s results
/// against `j`; `cells[j][i]` must mirror it), Elo relative to `anchor`,
/// with `prior_draws` virtual draws between each pair of bots that played
/// each other (0: the maximum likelihood alone).
///
/// # Errors
/// Fewer than two bots, no games, bots that the games do not link, or
/// (with no prior only) a group of bots that lost (or won) every game
/// against the others: their Elo would be infinite. The message names
/// them with `names`.
pub fn fit(
    cells: &[Vec<Cell>],
    names: &[String],
    anchor: usize,
    prior_draws: f64,
) -> Result<Ratings, String> {
    let n = cells.len();
    if n < 2 {
        return Err("a rating list needs at least two bots".into());
    }
    if cells.iter().flatten().all(|c| c.games() == 0) {
        return Err(format!(
            "cannot rate: no game was played between {}",
            list(names, 0..n)
        ));
    }
    check_connected(cells, names, anchor)?;
    let note = match unbounded(cells, names) {
        // A single bot's perfect or zero score is plain from its score; a
        // group's is worth a note.
        Some((said, bots, largest)) if prior_draws > 0.0 => (largest > 1).then(|| {
            format!(
                "{said}; the prior's virtual draws keep {} finite",
                if bots == 1 { "it" } else { "them" }
            )
        }),
        Some((said, bots, _)) => {
            return Err(format!(
                "cannot rate: {said}; play more games or leave {} out",
                if bots == 1 { "it" } else { "them" }
            ))
        }
        None => None,
    };
    let tally: Tally = cells
        .iter()
        .map(|row| {
            row.iter()
                .map(|c| match c.games() {
                    0 => (0.0, 0.0),
                    g => (g as f64 + prior_draws, c.points() + prior_draws / 2.0),
                })
                .collect()
        })
        .collect();
    let free: Vec<usize> = (0..n).filter(|&i| i != anchor).collect();
    let mut r = vec![0.0; n];
    let mut iterations = 0;
    let mut current = log_likelihood(&tally, &r);
    while iterations < MAX_ITERATIONS {
        iterations += 1;
        let (gradient, information) = derivatives(&tally, &r, &free);
        let Some(step) = solve(information, gradient) else {
            return Err("the rating fit failed (singular information matrix)".into());
        };
        // Step halving keeps every iteration uphill.
        let mut t = 1.0;
        let mut next = r.clone();
        for _ in 0..60 {
            for (k, &i) in free.iter().enumerate() {
                next[i] = r[i] + t * step[k];
            }
            let value = log_likelihood(&tally, &next);
            if value >= current - 1e-12 * current.abs().max(1.0) {
                current = value;
                break;
            }
            t /= 2.0;
        }
        let largest = step.iter().fold(0.0f64, |m, s| m.max((t * s).abs()));
        r = next;
        if largest < TOLERANCE {
            break;
        }
    }
    let (_, information) = derivatives(&tally, &r, &free);
    let covariance =
        invert(information).ok_or("the rating fit failed (singular information matrix)")?;
    let mut error = vec![0.0; n];
    for (k, &i) in free.iter().enumerate() {
        error[i] = crate::stats::elo::CI95_Z * covariance[k][k].max(0.0).sqrt() * ELO_PER_NAT;
    }
    Ok(Ratings {
        elo: r.iter().map(|x| x * ELO_PER_NAT).collect(),
        error,
        iterations,
        note,
    })
}

/// The expected score of strength `a` against strength `b`.
fn expected(a: f64, b: f64) -> f64 {
    1.0 / (1.0 + (b - a).exp())
}

/// `ln(1 / (1 + e^-x))`, without overflow.
fn log_sigmoid(x: f64) -> f64 {
    if x > 0.0 {
        -(-x).exp().ln_1p()
    } else {
        x - x.exp().ln_1p()
    }
}

fn log_likelihood(tally: &Tally, r: &[f64]) -> f64 {
    let mut sum = 0.0;
    for (i, row) in tally.iter().enumerate() {
        for (j, &(games, s)) in row.iter().enumerate().skip(i + 1) {
            if games == 0.0 {
                continue;
            }
            let d = r[i] - r[j];
            sum += s * log_sigmoid(d) + (games - s) * log_sigmoid(-d);
        }
    }
    sum
}

/// The gradient of the log-likelihood and the Fisher information (its
/// negative Hessian), over the `free` strengths.
fn derivatives(tally: &Tally, r: &[f64], free: &[usize]) -> (Vec<f64>, Vec<Vec<f64>>) {
    let n = tally.len();
    let mut gradient = vec![0.0; n];
    let mut info = vec![vec![0.0; n]; n];
    for (i, row) in tally.iter().enumerate() {
        for (j, &(games, points)) in row.iter().enumerate() {
            if i == j || games == 0.0 {
                continue;
            }
            let p = expected(r[i], r[j]);
            gradient[i] += points - games * p;
            let w = games * p * (1.0 - p);
            info[i][i] += w;
            info[i][j] -= w;
        }
    }
    let g = free.iter().map(|&i| gradient[i]).collect();
    let m = free
        .iter()
        .map(|&i| free.iter().map(|&j| info[i][j]).collect())
        .collect();
    (g, m)
}

/// Solves `a x = b` by Gaussian elimination with partial pivoting; `None`
/// if `a` is singular.
#[allow(clippy::needless_range_loop)] // rows and columns, as in the textbook
fn solve(mut a: Vec<Vec<f64>>, mut b: Vec<f64>) -> Option<Vec<f64>> {
    let m = b.len();
    for col in 0..m {
        let pivot = (col..m).max_by(|&x, &y| a[x][col].abs().total_cmp(&a[y][col].abs()))?;
        if a[pivot][col].abs() < 1e-300 {
            return None;
        }
        a.swap(col, pivot);
        b.swap(col, pivot);
        for row in col + 1..m {
            let f = a[row][col] / a[col][col];
            if f != 0.0 {
                for k in col..m {
                    a[row][k] -= f * a[col][k];
                }
                b[row] -= f * b[col];
            }
        }
    }
    let mut x = vec![0.0; m];
    for row in (0..m).rev() {
        let rest: f64 = (row + 1..m).map(|k| a[row][k] * x[k]).sum();
        x[row] = (b[row] - rest) / a[row][row];
    }
    Some(x)
}

/// The inverse of `a`, column by column; `None` if singular.
fn invert(a: Vec<Vec<f64>>) -> Option<Vec<Vec<f64>>> {
    let m = a.len();
    let mut inverse = vec![vec![0.0; m]; m];
    for col in 0..m {
        let mut unit = vec![0.0; m];
        unit[col] = 1.0;
        let x = solve(a.clone(), unit)?;
        for (row, v) in x.into_iter().enumerate() {
            inverse[row][col] = v;
        }
    }
    Some(inverse)
}

fn list(names: &[String], members: impl Iterator<Item = usize>) -> String {
    members
        .map(|i| names[i].as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

/// Refuses bots that the games do not link to the anchor.
fn check_connected(cells: &[Vec<Cell>], names: &[String], anchor: usize) -> Result<(), String> {
    let n = cells.len();
    let mut reached = vec![false; n];
    reached[anchor] = true;
    let mut stack = vec![anchor];
    while let Some(i) = stack.pop() {
        for (j, c) in cells[i].iter().enumerate() {
            if !reached[j] && c.games() > 0 {
                reached[j] = true;
                stack.push(j);
            }
        }
    }
    if reached.iter().all(|&r| r) {
        return Ok(());
    }
    let cut: Vec<usize> = (0..n).filter(|&i| !reached[i]).collect();
    Err(format!(
        "cannot rate: {} played no game linking them, directly or through others, to {} \
         (the rating list needs one connected set of games)",
        list(names, cut.iter().copied()),
        list(names, (0..n).filter(|&i| reached[i]))
    ))
}

/// A group of bots that lost every game against the others, or won every
/// game, where the likelihood alone has no maximum (their Elo runs to
/// infinity): what they did, how many bots that is, and the largest
/// group's size.
fn unbounded(cells: &[Vec<Cell>], names: &[String]) -> Option<(String, usize, usize)> {
    let n = cells.len();
    // took[i][j]: i took points from j, directly or through others.
    let mut took: Vec<Vec<bool>> = (0..n)
        .map(|i| {
            (0..n)
                .map(|j| i == j || cells[i][j].points() > 0.0)
                .collect()
        })
        .collect();
    for k in 0..n {
        let through = took[k].clone();
        for row in took.iter_mut().filter(|row| row[k]) {
            for (to, &via) in row.iter_mut().zip(&through) {
                *to |= via;
            }
        }
    }
    // The smallest group that took no point from outside itself (it lost
    // every game against the rest), and the smallest that gave none (it won
    // them all).
    let smallest = |group: &dyn Fn(usize) -> Vec<usize>| {
        (0..n)
            .map(group)
            .filter(|g| g.len() < n)
            .min_by_key(Vec::len)
    };
    let lost = smallest(&|i| (0..n).filter(|&j| took[i][j]).collect());
    let won = smallest(&|i| (0..n).filter(|&j| took[j][i]).collect());
    let problems: Vec<(Vec<usize>, &str)> = match (lost, won) {
        (None, None) => return None,
        // One cut seen from both sides: name the smaller side.
        (Some(l), Some(w)) if l.len() + w.len() == n && l.iter().all(|i| !w.contains(i)) => {
            if l.len() <= w.len() {
                vec![(l, "lost")]
            } else {
                vec![(w, "won")]
            }
        }
        (l, w) => l
            .map(|l| (l, "lost"))
            .into_iter()
            .chain(w.map(|w| (w, "won")))
            .collect(),
    };
    let bots: usize = problems.iter().map(|(g, _)| g.len()).sum();
    let said: Vec<String> = problems
        .iter()
        .map(|(group, what)| {
            let minus = if *what == "lost" { "minus " } else { "" };
            if group.len() == 1 {
                format!(
                    "{} {what} every game it played (its Elo would be {minus}infinite)",
                    names[group[0]]
                )
            } else {
                format!(
                    "{} {what} every game against the other bots (their Elo would be \
                     {minus}infinite)",
                    list(names, group.iter().copied())
                )
            }
        })
        .collect();
    let largest = problems.iter().map(|(g, _)| g.len()).max().unwrap_or(0);
    Some((said.join("; "), bots, largest))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(n: usize) -> Vec<String> {
        (0..n).map(|i| format!("b{i}")).collect()
    }

    /// A crosstable from `(i, j, wins, draws, losses)` of i against j.
    fn table(n: usize, results: &[(usize, usize, u64, u64, u64)]) -> Vec<Vec<Cell>> {
        let mut cells = vec![vec![Cell::default(); n]; n];
        for &(i, j, wins, draws, losses) in results {
            cells[i][j] = Cell {
                wins,
                draws,
                losses,
            };
            cells[j][i] = Cell {
                wins: losses,
                draws,
                losses: wins,
            };
        }
        cells
    }

    fn close(a: f64, b: f64, tol: f64) {
        assert!((a - b).abs() <= tol, "{a} != {b} (tolerance {tol})");
    }

    #[test]
    fn two_bots_at_75_percent_are_190_8_elo_apart() {
        // b0 scores 3 of 4 (2 wins, 2 draws): p = 0.75, r = ln 3,
        // Elo 400 log10 3 = 190.849; information 4 * 0.75 * 0.25 = 0.75,
        // 95% error 1.959964 * sqrt(1 / 0.75) * 400 / ln 10 = 393.15.
        let cells = table(2, &[(0, 1, 2, 2, 0)]);
        let r = fit(&cells, &names(2), 1, 0.0).unwrap();
        close(r.elo[0], 400.0 * 3f64.log10(), 1e-6);
        close(r.elo[0], 190.849, 1e-3);
        assert_eq!((r.elo[1], r.error[1]), (0.0, 0.0));
        close(r.error[0], 393.15, 0.01);
        // The other anchor: the same list, shifted.
        let r = fit(&cells, &names(2), 0, 0.0).unwrap();
        close(r.elo[1], -190.849, 1e-3);
    }

    #[test]
    #[allow(clippy::needless_range_loop)] // bots by index, as in the formulas
    fn the_fit_recovers_known_ratings_from_synthetic_games() {
        // Five bots of known Elo, every pair 4,000 games drawn from the
        // model (10% draws, the rest won so that the mean score is the
        // model's), on a fixed seed.
        let truth = [0.0, 120.0, -80.0, 250.0, 40.0];
        let n = truth.len();
        let mut rng = othello::rng::Rng::seed_from_u64(2024);
        let mut results = Vec::new();
        for i in 0..n {
            for j in i + 1..n {
                let p = crate::stats::elo::elo_to_score(truth[i] - truth[j]);
                let (mut w, mut d, mut l) = (0, 0, 0);
                for _ in 0..4000 {
                    let u = rng.unit_f64();
                    if u < 0.1 {
                        d += 1;
                    } else if u < 0.1 + (p - 0.05) {
                        w += 1;
                    } else {
                        l += 1;
                    }
                }
                results.push((i, j, w, d, l));
            }
        }
        let cells = table(n, &results);
        let r = fit(&cells, &names(n), 0, 0.0).unwrap();
        for i in 0..n {
            close(r.elo[i], truth[i], 15.0);
            if i > 0 {
                assert!(r.error[i] > 5.0 && r.error[i] < 15.0, "{:?}", r.error);
            }
        }
        // At the maximum, every bot's expected points equal its points.
        for i in 0..n {
            let (mut expected_points, mut points) = (0.0, 0.0);
            for j in 0..n {
                let c = cells[i][j];
                points += c.points();
                expected_points +=
                    c.games() as f64 * crate::stats::elo::elo_to_score(r.elo[i] - r.elo[j]);
            }
            close(expected_points, points, 1e-6);
        }
        assert!(r.iterations < 20, "{} iterations", r.iterations);
    }

    #[test]
    fn bots_that_never_met_are_rated_through_common_opponents() {
        // b0 beats b1 3-1 and draws b2 1-1 (2 games); b1 and b2 never met.
        // The fit rates b1 and b2 through b0: b1 -190.8, b2 0.
        let cells = table(3, &[(0, 1, 3, 0, 1), (0, 2, 0, 2, 0)]);
        let r = fit(&cells, &names(3), 0, 0.0).unwrap();
        close(r.elo[1], -190.849, 1e-3);
        close(r.elo[2], 0.0, 1e-9);
    }

    #[test]
    fn what_cannot_be_rated_is_refused_by_name() {
        // b2 and b3 only played each other.
        let cells = table(4, &[(0, 1, 1, 0, 1), (2, 3, 1, 0, 1)]);
        let e = fit(&cells, &names(4), 0, 0.0).unwrap_err();
        assert!(e.contains("b2, b3 played no game linking them"), "{e}");
        assert!(e.contains("to b0, b1"), "{e}");
        // b2 lost every game.
        let cells = table(3, &[(0, 1, 1, 1, 1), (0, 2, 2, 0, 0), (1, 2, 3, 0, 0)]);
        let e = fit(&cells, &names(3), 0, 0.0).unwrap_err();
        assert!(e.contains("b2 lost every game it played"), "{e}");
        // b1 won every game.
        let cells = table(3, &[(0, 1, 0, 0, 2), (0, 2, 1, 1, 1), (1, 2, 3, 0, 0)]);
        let e = fit(&cells, &names(3), 0, 0.0).unwrap_err();
        assert!(e.contains("b1 won every game it played"), "{e}");
        // b2 and b3 lost every game against b0 and b1 (not each other).
        let cells = table(
            4,
            &[
                (0, 1, 1, 0, 1),
                (0, 2, 1, 0, 0),
                (1, 3, 1, 0, 0),
                (2, 3, 1, 0, 1),
            ],
        );
        let e = fit(&cells, &names(4), 0, 0.0).unwrap_err();
        assert!(
            e.contains("b0, b1 won every game against the other bots")
                || e.contains("b2, b3 lost every game against the other bots"),
            "{e}"
        );
        // With the prior they are rated, and the group is noted.
        let r = fit(&cells, &names(4), 0, PRIOR_DRAWS).unwrap();
        let note = r.note.expect("a group that lost every game is noted");
        assert!(
            note.contains("every game against the other bots")
                && note.ends_with("the prior's virtual draws keep them finite"),
            "{note}"
        );
        assert!(r.elo[1] > r.elo[2] && r.elo[1] > r.elo[3], "{:?}", r.elo);
        assert!(fit(&table(1, &[]), &names(1), 0, 0.0).is_err());
    }

    #[test]
    fn the_prior_rates_a_perfect_score_as_computed_by_hand() {
        // A gauntlet: b0 beats b1 4-0 and splits 2-2 with b2. One virtual
        // draw per pair makes b0-b1 4.5 of 5 points: p = 0.9, r = -ln 9
        // for b1, Elo -400 log10 9 = -381.697; information 5 * 0.9 * 0.1 =
        // 0.45, 95% error 1.959964 * sqrt(1 / 0.45) * 400 / ln 10 = 507.56.
        // b0-b2 is 2.5 of 5: Elo 0, information 5 * 0.25 = 1.25, error
        // 1.959964 * sqrt(1 / 1.25) * 400 / ln 10 = 304.54. (The games alone
        // would give b1 minus infinity; their information at p = 0.9, 0.36,
        // would give a wider 567.47.)
        let cells = table(3, &[(0, 1, 4, 0, 0), (0, 2, 2, 0, 2)]);
        let r = fit(&cells, &names(3), 0, PRIOR_DRAWS).unwrap();
        close(r.elo[1], -400.0 * 9f64.log10(), 1e-6);
        close(r.elo[1], -381.697, 1e-3);
        close(r.error[1], 507.56, 0.01);
        close(r.elo[2], 0.0, 1e-9);
        close(r.error[2], 304.54, 0.01);
        assert_eq!((r.elo[0], r.error[0]), (0.0, 0.0));
        assert_eq!(r.note, None, "a single bot: its score says it");
        // Without the prior the same games are refused.
        let e = fit(&cells, &names(3), 0, 0.0).unwrap_err();
        assert!(e.contains("cannot rate: b1 lost every game"), "{e}");
    }

    #[test]
    #[allow(clippy::needless_range_loop)] // bots by index, as in the formulas
    fn with_the_prior_expected_points_equal_points_plus_half_the_virtual_draws() {
        // b0 won everything, b3 lost everything; b1 and b2 in between.
        let cells = table(
            4,
            &[
                (0, 1, 3, 0, 0),
                (0, 2, 2, 0, 0),
                (0, 3, 2, 0, 0),
                (1, 2, 2, 1, 1),
                (1, 3, 4, 0, 0),
                (2, 3, 2, 0, 0),
            ],
        );
        let r = fit(&cells, &names(4), 1, PRIOR_DRAWS).unwrap();
        for i in 0..4 {
            assert!(r.elo[i].is_finite() && r.error[i].is_finite(), "{r:?}");
            let (mut expected_points, mut points) = (0.0, 0.0);
            for j in 0..4 {
                let c = cells[i][j];
                if c.games() > 0 {
                    points += c.points() + PRIOR_DRAWS / 2.0;
                    expected_points += (c.games() as f64 + PRIOR_DRAWS)
                        * crate::stats::elo::elo_to_score(r.elo[i] - r.elo[j]);
                }
            }
            close(expected_points, points, 1e-6);
        }
        assert!(r.elo[0] > r.elo[1] && r.elo[1] > r.elo[2] && r.elo[2] > r.elo[3]);
        // Disconnected bots and no games stay refused, by name.
        let cells = table(4, &[(0, 1, 1, 0, 1), (2, 3, 2, 0, 0)]);
        let e = fit(&cells, &names(4), 0, PRIOR_DRAWS).unwrap_err();
        assert!(e.contains("b2, b3 played no game linking them"), "{e}");
        let e = fit(&table(2, &[]), &names(2), 0, PRIOR_DRAWS).unwrap_err();
        assert_eq!(e, "cannot rate: no game was played between b0, b1");
    }
}

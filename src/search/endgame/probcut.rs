//! Probcut, the cut of a selective solve: a node of
//! [`PROBCUT_MIN_EMPTIES`] or more is cut when an evaluated shallow search
//! lies far enough beyond the window.

use super::*;

use super::probcut_fit::{DEVIATION, FIT_EMPTIES, MEAN};

/// The evaluation alone (the cut below [`PROBCUT_DEEP_EMPTIES`]) misses
/// less near a draw than far from it: its deviation, in hundredths of the
/// fitted one, is `CLOSE_SIGMA_PCT` up to `KNEE_DISCS` discs of estimated
/// score either side of 0 and grows by `FAR_SIGMA_PCT_PER_DISC` for each
/// disc beyond (the errors of the fit's 7,886 positions by estimated
/// score, docs/endgame.md "Eighth pass"). The deeper shallow search
/// showed no such trend and keeps the fitted deviation.
const CLOSE_SIGMA_PCT: i32 = 91;
/// See [`CLOSE_SIGMA_PCT`].
const KNEE_DISCS: i32 = 8;
/// See [`CLOSE_SIGMA_PCT`].
const FAR_SIGMA_PCT_PER_DISC: i32 = 3;

/// The deviation's shape for a shallow search of `depth`: hundredths of
/// the fitted one within [`KNEE_DISCS`] of a draw, and more per disc
/// beyond. Only the evaluation alone widens: its value is exact, where a
/// deeper search's windowed value is only a bound.
fn sigma_pcts(depth: u32) -> (i32, i32) {
    if depth == 0 {
        (CLOSE_SIGMA_PCT, FAR_SIGMA_PCT_PER_DISC)
    } else {
        (100, 0)
    }
}

/// How many times the fitted deviation the cut at `depth` takes for an
/// estimate `estimate` discs from a draw (for the tools).
#[cfg(not(cargo_equip))]
pub fn sigma_factor(depth: u32, estimate: f64) -> f64 {
    let (close, far_pct) = sigma_pcts(depth);
    let far = (estimate.abs() - f64::from(KNEE_DISCS)).max(0.0);
    (f64::from(close) + f64::from(far_pct) * far) / 100.0
}

/// The depth of the shallow search that predicts a node of `n` empties:
/// the evaluation alone below [`PROBCUT_DEEP_EMPTIES`], two plies from
/// there.
#[inline]
pub fn cut_depth(n: u32) -> u32 {
    if n >= PROBCUT_DEEP_EMPTIES {
        2
    } else {
        0
    }
}

/// `n` moved inside the fitted empties, keeping its parity.
fn fitted_empties(n: u32) -> u32 {
    let (lo, hi) = FIT_EMPTIES;
    if n < lo {
        lo + (n + lo) % 2
    } else if n > hi {
        hi - (n + hi) % 2
    } else {
        n
    }
}

/// The fitted standard deviation of (exact score - depth-`d` value) at `n`
/// empties, in discs (`train probcut`, docs/endgame.md).
pub fn deviation(n: u32, d: u32) -> f64 {
    let (n, d) = (f64::from(fitted_empties(n)), f64::from(d));
    let g = n - d;
    DEVIATION[0] + DEVIATION[1] * d + DEVIATION[2] * g + DEVIATION[3] * g * g
}

/// The fitted mean of (exact score - depth-`d` value) at `n` empties, in
/// discs: it alternates with the parities of `n` and `d` (the side that
/// moves last at the leaves gains).
pub fn mean(n: u32, d: u32) -> f64 {
    let n = fitted_empties(n);
    let m = &MEAN[(n % 2) as usize][(d % 2) as usize];
    let (n, d) = (f64::from(n), f64::from(d));
    m[0] + m[1] * n + m[2] * n * n + m[3] * d
}

/// What a pass's cut needs at one count of empties: the shallow depth, the
/// margin (`cut`/100 fitted deviations) with its shape by the estimate
/// ([`sigma_pcts`]), and the mean error, in 1/[`SCALE`] discs.
#[derive(Clone, Copy, Debug, Default)]
pub struct CutRule {
    /// The shallow search's depth.
    pub depth: u8,
    /// `cut`/100 fitted deviations.
    pub margin: i32,
    /// The share of `margin`, in hundredths, the estimate must lie beyond
    /// the window within [`KNEE_DISCS`] of a draw.
    pub close_pct: i32,
    /// Hundredths of `margin` more for each disc the estimate lies beyond.
    pub far_pct: i32,
    /// The mean error, added to the shallow value to estimate the score.
    pub mean: i32,
}

/// The rules of a pass at `cut` for every count of empties.
pub fn cut_rules(cut: i32) -> [CutRule; 61] {
    rules_at(cut, cut_depth)
}

/// The depth of the value the sort of a node of `n` empties gives it in a
/// selective solve: one ply more than the children's sort values (their
/// evaluation from [`SELECTIVE_EVAL_ORDER_EMPTIES`], or their searches
/// from [`SORT_SEARCH_EMPTIES`]). At 16-17 empties it is shallower than
/// the first cut's ([`cut_depth`]): a second opinion, not a sharper
/// one (docs/journal/endgame.md, "Tenth pass").
pub fn sorted_depth(n: u32) -> u32 {
    if n >= SORT_SEARCH_EMPTIES {
        3 + u32::from(n >= SORT_DEEPER_EMPTIES)
    } else {
        1
    }
}

/// The rules of the second cut, after the sort, of a pass at `cut`.
pub fn sorted_rules(cut: i32) -> [CutRule; 61] {
    rules_at(cut, sorted_depth)
}

/// The rules of a pass at `cut` with the shallow depth `depth(n)`.
fn rules_at(cut: i32, depth: fn(u32) -> u32) -> [CutRule; 61] {
    core::array::from_fn(|n| {
        let n = n as u32;
        let d = depth(n);
        let scale = f64::from(SCALE);
        let (close_pct, far_pct) = sigma_pcts(d);
        CutRule {
            depth: d as u8,
            margin: (deviation(n, d) * f64::from(cut) / 100.0 * scale).round() as i32,
            close_pct,
            far_pct,
            mean: (mean(n, d) * scale).round() as i32,
        }
    })
}

/// A shallow value not known yet ([`probcut_bound`]'s `known`).
pub const UNKNOWN: i32 = i32::MIN;

/// A probcut's result: the bound it returns, and how far beyond the
/// window the estimate lay, in hundredths of the rule's margin (at least
/// 100 when the margin is positive; a lower bound of it when the shallow
/// search was windowed). A pass at that many hundredths of the rule's cut
/// would still cut here (to the rounding of the rules' margins, a few
/// hundredths of a disc).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProbCut {
    pub bound: i32,
    pub reach_pct: i32,
}

/// Probcut: the shallow value of (p, o), corrected by the mean error,
/// lying the rule's margin at that estimate above `beta` or below `alpha`
/// gives that bound as the result. `known` is that shallow value when the
/// caller has it from a full-window search (a parent's sort, or the
/// node's own for the second cut), else [`UNKNOWN`]: the decision is the
/// same either way.
#[inline(always)]
pub fn probcut_bound(
    p: u64,
    o: u64,
    alpha: i32,
    beta: i32,
    rule: CutRule,
    known: i32,
) -> Option<ProbCut> {
    // The shallow value plus the mean error estimates the exact score.
    let mean = rule.mean;
    // The margin near a draw, the narrowest.
    let close = rule.margin * rule.close_pct / 100;
    let (high, low) = (beta * SCALE + close - mean, alpha * SCALE - close - mean);
    let reach = 64 * SCALE;
    if high > reach && low < -reach {
        return None;
    }
    // At depth 2 only which side of `low..high` the value lies on
    // matters: a fail-soft search with that window tells it, as does the
    // exact value. At depth 0, whose margin widens with the estimate, the
    // value is exact either way.
    let value = if known == UNKNOWN {
        eval_search(p, o, u32::from(rule.depth), low, high)
    } else {
        known
    };
    let estimate = value + mean;
    let far = (estimate.abs() - KNEE_DISCS * SCALE).max(0);
    let margin = rule.margin * (rule.close_pct + rule.far_pct * far / SCALE) / 100;
    let pct_of_margin = |excess: i32| excess * 100 / margin.max(1);
    if estimate >= beta * SCALE + margin && beta < 64 {
        Some(ProbCut {
            bound: beta,
            reach_pct: pct_of_margin(estimate - beta * SCALE),
        })
    } else if estimate <= alpha * SCALE - margin && alpha > -64 {
        Some(ProbCut {
            bound: alpha,
            reach_pct: pct_of_margin(alpha * SCALE - estimate),
        })
    } else {
        None
    }
}

/// Negamax with alpha-beta to `depth` plies with the pattern evaluation at
/// the leaves, in 1/[`SCALE`] discs: probcut's shallow search, and the deep
/// search's sorting one ([`SORT_SEARCH_EMPTIES`]).
pub fn eval_search(p: u64, o: u64, depth: u32, mut alpha: i32, beta: i32) -> i32 {
    if depth == 0 {
        return crate::eval::pattern::evaluate(&Board::new(p, o));
    }
    let moves = kernels::moves(p, o);
    if moves == 0 {
        if kernels::moves(o, p) == 0 {
            return final_score(p, o) * SCALE;
        }
        return -eval_search(o, p, depth, -beta, -alpha);
    }
    // One ply from the leaves, each is evaluated from this node's indices.
    let leaves = (depth == 1).then(|| crate::eval::pattern::tables().children(&Board::new(p, o)));
    let mut best = -INF * SCALE;
    let mut rest = moves;
    while rest != 0 {
        let sq = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        let f = kernels::flips(p, o, sq);
        let v = match &leaves {
            Some(leaves) => -leaves.evaluate(sq, f),
            None => -eval_search(o ^ f, p ^ f ^ 1u64 << sq, depth - 1, -beta, -alpha),
        };
        if raise(&mut best, &mut alpha, v, beta) {
            break;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    /// A cut's reach is the widest cut that still makes it: the rules of a
    /// pass at that cut (one hundredth less, for the rounding of their
    /// margins) cut the same way, those of a pass a little wider (by the
    /// reach's rounding) do not.
    #[test]
    fn a_cut_is_made_up_to_its_reach_and_not_beyond() {
        let mut rng = Rng::seed_from_u64(63);
        let mut checked = 0;
        for _ in 0..40 {
            let game = crate::search::playout::random_game(&Board::start(), &mut rng);
            for b in game.iter().filter(|b| (8..=23).contains(&b.empty_count())) {
                let (p, o, n) = (b.player, b.opponent, b.empty_count() as usize);
                for cut in [50, 150, 233] {
                    let rule = cut_rules(cut)[n];
                    let window = INF * SCALE;
                    let known = eval_search(p, o, u32::from(rule.depth), -window, window);
                    let centre = (known + rule.mean) / SCALE;
                    let alpha = (centre + rng.below(41) as i32 - 20).clamp(-64, 63);
                    let beta = alpha + 1;
                    let Some(made) = probcut_bound(p, o, alpha, beta, rule, known) else {
                        continue;
                    };
                    let widest = cut * made.reach_pct / 100;
                    let at = |c: i32| probcut_bound(p, o, alpha, beta, cut_rules(c)[n], known);
                    assert_eq!(
                        at(widest - 1).map(|c| c.bound),
                        Some(made.bound),
                        "{b} {made:?}"
                    );
                    // The reach is whole hundredths, rounded down.
                    assert_eq!(at(widest + cut / 100 + 3), None, "{b} cut {cut} {made:?}");
                    checked += 1;
                }
            }
        }
        assert!(checked > 500, "{checked}");
    }

    /// The value a sort hands down (the full-window shallow value) gives
    /// the same decision as the cut's own windowed search, at the first
    /// cut's two shallow depths and the second cut's three (1, 3, 4), at
    /// four cuts, in windows around the value;
    /// which rests on the margin not widening with a windowed value
    /// (only the evaluation's, which is exact, does).
    #[test]
    fn a_known_shallow_value_decides_as_the_search_would() {
        let mut rng = Rng::seed_from_u64(48);
        let cuts = [50, 110, 200, 233];
        let rules: Vec<_> = cuts
            .map(cut_rules)
            .into_iter()
            .chain(cuts.map(sorted_rules))
            .collect();
        for rule in rules.iter().flatten() {
            assert!(rule.depth == 0 || rule.far_pct == 0, "{rule:?}");
        }
        let mut checked = [0; 2];
        for _ in 0..60 {
            let game = crate::search::playout::random_game(&Board::start(), &mut rng);
            for b in game.iter().filter(|b| (9..=23).contains(&b.empty_count())) {
                let (p, o, n) = (b.player, b.opponent, b.empty_count() as usize);
                for rules in &rules {
                    let rule = rules[n];
                    let window = INF * SCALE;
                    let known = eval_search(p, o, u32::from(rule.depth), -window, window);
                    let centre = known / SCALE;
                    for _ in 0..4 {
                        let alpha = (centre + rng.below(41) as i32 - 20).clamp(-64, 63);
                        let beta = (alpha + 1 + rng.below(4) as i32).min(64);
                        let alone = probcut_bound(p, o, alpha, beta, rule, UNKNOWN);
                        let with = probcut_bound(p, o, alpha, beta, rule, known);
                        assert_eq!(with.map(|c| c.bound), alone.map(|c| c.bound), "{b}");
                        // The windowed search's reach is a lower bound of
                        // the exact value's, and both reach the margin.
                        if let (Some(with), Some(alone)) = (with, alone) {
                            assert!(100 <= alone.reach_pct, "{b} {alone:?}");
                            assert!(alone.reach_pct <= with.reach_pct, "{b} {alone:?} {with:?}");
                        }
                        checked[usize::from(alone.is_some())] += 1;
                    }
                }
            }
        }
        // Both decisions were met many times.
        assert!(checked.iter().all(|&c| c > 500), "{checked:?}");
    }
}

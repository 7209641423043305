//! Match statistics with fastchess's formulas: Elo and its 95% error bar
//! from the win/draw/loss counts (`elo_wdl`) and from the pentanomial
//! counts of opening pairs (`elo_pentanomial`), the likelihood of
//! superiority, and the pentanomial SPRT log-likelihood ratio (generalized
//! likelihood ratio under the logistic Elo model).

/// The two-sided 95% quantile of the standard normal distribution.
pub const CI95_Z: f64 = 1.959_963_984_540_054;
/// Pseudo-count that replaces an empty pentanomial cell in the SPRT, as
/// fastchess does, so that the likelihood stays finite.
pub const EMPTY_CELL: f64 = 1e-3;
/// Bisection steps of the maximum-likelihood solve (each halves the
/// interval, so 200 reach the limits of f64).
const BISECTION_STEPS: usize = 200;

/// An Elo estimate.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    /// Mean score per game, 0..1.
    pub score: f64,
    /// Logistic Elo difference (infinite at a score of 0 or 1).
    pub elo: f64,
    /// Half the width of the 95% interval, in Elo.
    pub error: f64,
    /// Likelihood of superiority, 0..1.
    pub los: f64,
}

/// The logistic Elo difference of a mean score.
pub fn score_to_elo(score: f64) -> f64 {
    -400.0 * (1.0 / score - 1.0).log10()
}

/// The mean score of a logistic Elo difference.
pub fn elo_to_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// An estimate from outcomes of per-game score `values[i]` seen
/// `counts[i]` times (an outcome is a game, or a pair of games); `None`
/// without data.
fn estimate(values: &[f64], counts: &[u64]) -> Option<Estimate> {
    let n: u64 = counts.iter().sum();
    if n == 0 {
        return None;
    }
    let n = n as f64;
    let score: f64 = values
        .iter()
        .zip(counts)
        .map(|(v, &c)| v * c as f64 / n)
        .sum();
    let variance: f64 = values
        .iter()
        .zip(counts)
        .map(|(v, &c)| c as f64 / n * (v - score).powi(2))
        .sum();
    let per_outcome = variance / n;
    let upper = score + CI95_Z * per_outcome.sqrt();
    let lower = score - CI95_Z * per_outcome.sqrt();
    Some(Estimate {
        score,
        elo: score_to_elo(score),
        error: (score_to_elo(upper) - score_to_elo(lower)) / 2.0,
        los: (1.0 - libm::erf(-(score - 0.5) / (2.0 * per_outcome).sqrt())) / 2.0,
    })
}

/// fastchess's `elo_wdl`: from wins, draws and losses.
pub fn elo_wdl(wins: u64, draws: u64, losses: u64) -> Option<Estimate> {
    estimate(&[1.0, 0.5, 0.0], &[wins, draws, losses])
}

/// The pentanomial counts of opening pairs, by the pair's points for the
/// player: `[0, 0.5, 1, 1.5, 2]` points, i.e. `[LL, LD, WL+DD, WD, WW]`.
pub type Pentanomial = [u64; 5];

/// The score of each pentanomial cell, per game.
const PENTA_SCORES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

/// fastchess's `elo_pentanomial`: from the pair counts.
pub fn elo_pentanomial(penta: &Pentanomial) -> Option<Estimate> {
    estimate(&PENTA_SCORES, penta)
}

/// An SPRT test: H0 "p1 is `elo0` stronger" against H1 "p1 is `elo1`
/// stronger", with error rates `alpha` and `beta`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// Elo under H0.
    pub elo0: f64,
    /// Elo under H1.
    pub elo1: f64,
    /// False positive rate.
    pub alpha: f64,
    /// False negative rate.
    pub beta: f64,
}

/// The state of an SPRT.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtResult {
    /// The LLR reached the upper bound: H1 accepted.
    H1,
    /// The LLR reached the lower bound: H0 accepted.
    H0,
    /// Neither yet.
    Continue,
}

impl SprtResult {
    /// `"H1"`, `"H0"` or `"continue"`.
    pub fn name(self) -> &'static str {
        match self {
            SprtResult::H1 => "H1",
            SprtResult::H0 => "H0",
            SprtResult::Continue => "continue",
        }
    }
}

impl Sprt {
    /// Parses `elo0=0,elo1=10,alpha=0.05,beta=0.05` (alpha and beta default
    /// to 0.05).
    ///
    /// # Errors
    /// An unknown key, a non-number, a missing elo, elo0 >= elo1, or an
    /// error rate outside (0, 1) or alpha + beta >= 1.
    pub fn parse(spec: &str) -> Result<Sprt, String> {
        let (mut elo0, mut elo1, mut alpha, mut beta) = (None, None, 0.05, 0.05);
        for part in spec.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (key, value) = part
                .split_once('=')
                .ok_or_else(|| format!("expected key=value, found {part:?}"))?;
            let v: f64 = value
                .trim()
                .parse()
                .map_err(|_| format!("{key}: not a number: {value:?}"))?;
            match key.trim() {
                "elo0" => elo0 = Some(v),
                "elo1" => elo1 = Some(v),
                "alpha" => alpha = v,
                "beta" => beta = v,
                other => return Err(format!("unknown key {other:?} (elo0, elo1, alpha, beta)")),
            }
        }
        let elo0 = elo0.ok_or("elo0 is missing")?;
        let elo1 = elo1.ok_or("elo1 is missing")?;
        if elo0 >= elo1 {
            return Err("elo0 must be less than elo1".into());
        }
        if !(alpha > 0.0 && alpha < 1.0 && beta > 0.0 && beta < 1.0 && alpha + beta < 1.0) {
            return Err("alpha and beta must be in (0, 1) with alpha + beta < 1".into());
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
        })
    }

    /// The LLR below which H0 is accepted: ln(beta / (1 - alpha)).
    pub fn lower(&self) -> f64 {
        (self.beta / (1.0 - self.alpha)).ln()
    }

    /// The LLR above which H1 is accepted: ln((1 - beta) / alpha).
    pub fn upper(&self) -> f64 {
        ((1.0 - self.beta) / self.alpha).ln()
    }

    /// The generalized log-likelihood ratio of H1 against H0 given the
    /// pair counts: the pentanomial distributions closest to the observed
    /// one (maximum likelihood) with mean scores `elo_to_score(elo1)` and
    /// `elo_to_score(elo0)`, compared on the observations.
    pub fn llr(&self, penta: &Pentanomial) -> f64 {
        if penta.iter().sum::<u64>() == 0 {
            return 0.0;
        }
        let cells = penta.map(|c| if c == 0 { EMPTY_CELL } else { c as f64 });
        let total: f64 = cells.iter().sum();
        let probs = cells.map(|c| c / total);
        let p0 = mle(&probs, elo_to_score(self.elo0));
        let p1 = mle(&probs, elo_to_score(self.elo1));
        total
            * (0..5)
                .map(|i| probs[i] * (p1[i].ln() - p0[i].ln()))
                .sum::<f64>()
    }

    /// What the LLR says.
    pub fn result(&self, llr: f64) -> SprtResult {
        if llr >= self.upper() {
            SprtResult::H1
        } else if llr <= self.lower() {
            SprtResult::H0
        } else {
            SprtResult::Continue
        }
    }
}

/// The distribution over the pentanomial cells nearest to `probs` (in the
/// maximum-likelihood sense) whose mean score is `s`:
/// `p_i = probs_i / (1 + theta (a_i - s))` with theta solving
/// `sum probs_i (a_i - s) / (1 + theta (a_i - s)) = 0` (M. Van den Bergh,
/// "Comments on normalized Elo", proposition 1.1). The left side falls
/// strictly with theta, so bisection finds the root.
fn mle(probs: &[f64; 5], s: f64) -> [f64; 5] {
    let a = PENTA_SCORES;
    let f = |theta: f64| -> f64 {
        (0..5)
            .map(|i| probs[i] * (a[i] - s) / (1.0 + theta * (a[i] - s)))
            .sum()
    };
    let mut lo = -1.0 / (a[4] - s);
    let mut hi = -1.0 / (a[0] - s);
    for _ in 0..BISECTION_STEPS {
        let mid = (lo + hi) / 2.0;
        if mid <= lo || mid >= hi {
            break;
        }
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let theta = (lo + hi) / 2.0;
    std::array::from_fn(|i| probs[i] / (1.0 + theta * (a[i] - s)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) {
        assert!((a - b).abs() <= tol, "{a} != {b}");
    }

    #[test]
    fn elo_wdl_matches_a_hand_computation() {
        // 6 wins, 2 draws, 2 losses: score 0.7; variance 0.6*0.09 + 0.2*0.04
        // + 0.2*0.49 = 0.16, 0.016 per game, sd 0.126491; score interval
        // 0.7 -+ 1.96*0.126491 = [0.452082, 0.947918]; Elo -400 log10(1/s-1):
        // 147.19 at 0.7, -33.40 and 504.02 at the ends, error 268.72;
        // LOS (1 - erf(-0.2 / sqrt(0.032))) / 2 = (1 + erf(1.118)) / 2 = 0.94308.
        let e = elo_wdl(6, 2, 2).unwrap();
        close(e.score, 0.7, 1e-12);
        close(e.elo, 147.190_714, 1e-5);
        close(e.error, 268.716_321, 1e-5);
        close(e.los, 0.943_076_851, 1e-8);
        let e = elo_wdl(30, 40, 20).unwrap();
        close(e.elo, 38.764_005, 1e-5);
        close(e.error, 54.011_913, 1e-5);
        close(e.los, 0.923_669_310, 1e-8);
        let even = elo_wdl(5, 0, 5).unwrap();
        close(even.elo, 0.0, 1e-12);
        close(even.los, 0.5, 1e-12);
        assert_eq!(elo_wdl(0, 0, 0), None);
        assert!(elo_wdl(3, 0, 0).unwrap().elo.is_infinite());
    }

    #[test]
    fn elo_pentanomial_matches_a_hand_computation() {
        // Pairs [LL, LD, WL+DD, WD, WW] = [1, 3, 10, 4, 2] (20 pairs):
        // score (3*0.25 + 10*0.5 + 4*0.75 + 2) / 20 = 0.5375.
        let e = elo_pentanomial(&[1, 3, 10, 4, 2]).unwrap();
        close(e.score, 0.5375, 1e-12);
        close(e.elo, 26.106_693, 1e-5);
        close(e.error, 74.895_276, 1e-5);
        close(e.los, 0.756_956_267, 1e-8);
    }

    #[test]
    fn sprt_llr_and_bounds_match_a_hand_computation() {
        let s = Sprt::parse("elo0=0,elo1=10,alpha=0.05,beta=0.05").unwrap();
        close(s.lower(), -2.944_438_979, 1e-9);
        close(s.upper(), 2.944_438_979, 1e-9);
        // Reference values from an independent script of the same
        // maximum-likelihood construction (empty cells count 0.001).
        close(s.llr(&[1, 3, 10, 4, 2]), 0.148_356_269, 1e-6);
        close(s.llr(&[10, 20, 40, 20, 10]), -0.137_899_222, 1e-6);
        close(s.llr(&[0, 5, 30, 20, 15]), 1.985_559_336, 1e-6);
        assert_eq!(s.llr(&[0; 5]), 0.0);
        assert_eq!(s.result(3.0), SprtResult::H1);
        assert_eq!(s.result(-3.0), SprtResult::H0);
        assert_eq!(s.result(0.1), SprtResult::Continue);
        // A strong, long run accepts H1; an even one drifts to H0.
        assert_eq!(s.result(s.llr(&[0, 50, 300, 200, 150])), SprtResult::H1);
        assert_eq!(
            s.result(s.llr(&[500, 1000, 2000, 1000, 500])),
            SprtResult::H0
        );
    }

    #[test]
    fn sprt_specs_are_checked() {
        assert_eq!(Sprt::parse("elo0=0,elo1=5").unwrap().alpha, 0.05);
        for bad in [
            "elo1=5",
            "elo0=5,elo1=0",
            "elo0=0,elo1=5,alpha=1",
            "elo0=0,elo1=5,gamma=1",
            "elo0=x,elo1=5",
            "elo0",
        ] {
            assert!(Sprt::parse(bad).is_err(), "{bad}");
        }
    }
}

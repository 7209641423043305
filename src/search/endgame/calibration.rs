//! The calibration check of the selective passes: does a pass's cut mean
//! what it says? Each cut decision a pass makes (the node returned a bound
//! unsearched, [`Cut`]) is checked by an exact solve of the node: it is
//! confirmed when the exact score lies on the side of the bound the cut
//! claimed. A pass at cut `t` (hundredths of a standard deviation of the
//! fitted error) claims each decision with the one-sided normal
//! probability of `t` deviations (`(1 + normal_within(t)) / 2`: 86% at
//! 110, 93% at 150, 98% at 200, 99% at 233); `train probcut --check`
//! measures it on held-out games (docs/endgame.md).

use super::*;

/// The check's tally of one pass: decisions made, and by empties of the
/// cut node, how many were verified and how many confirmed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Checked {
    /// Decisions made in all (verified or not).
    pub made: u64,
    /// `empties -> (verified, confirmed)`.
    pub by_empties: std::collections::BTreeMap<u32, (u64, u64)>,
}

impl Checked {
    /// Verified and confirmed decisions over all empties.
    pub fn totals(&self) -> (u64, u64) {
        self.by_empties
            .values()
            .fold((0, 0), |(a, b), &(n, k)| (a + n, b + k))
    }

    /// Adds `other`'s counts to this one's.
    pub fn add(&mut self, other: &Checked) {
        self.made += other.made;
        for (&e, &(n, k)) in &other.by_empties {
            let cell = self.by_empties.entry(e).or_default();
            cell.0 += n;
            cell.1 += k;
        }
    }
}

/// The share of its decisions a pass at `cut` claims: one-sided normal.
pub fn claimed(cut: i32) -> f64 {
    0.5 + normal_within(cut) / 2.0
}

/// Checks the passes `cuts` on `board` (which must have a move), run one
/// after the other on `selective` (its table cleared first, kept between
/// the passes as in the bot's turn, but each pass a solve of its own: no
/// root aspiration around the previous pass's score and no 38% pass
/// first, so the decisions are those of each pass's own windows, and its
/// late moves at its own cut: `Techniques::late_cut` off), each
/// pass's decisions recorded; at most `per_pass` of each
/// pass's distinct decisions, drawn with `rng`, are solved exactly with
/// `exact`. One tally per pass, in the order of `cuts`.
pub fn check_board(
    selective: &mut Solver,
    exact: &mut Solver,
    board: &Board,
    cuts: &[i32],
    per_pass: usize,
    rng: &mut crate::rng::Rng,
) -> Vec<Checked> {
    selective.clear();
    selective.record_cuts(true);
    // The late moves' narrower cuts are another pass's claims: off here.
    let techniques = selective.techniques;
    selective.techniques.late_cut = false;
    let mut out = Vec::with_capacity(cuts.len());
    for &cut in cuts {
        selective.run_passes(board, board.moves(), false, &[Some(cut)]);
        let mut made = selective.take_cuts();
        let mut checked = Checked {
            made: made.len() as u64,
            ..Checked::default()
        };
        made.sort_by_key(|c| (c.player, c.opponent, c.bound, c.high));
        made.dedup();
        // A partial Fisher-Yates draw of `per_pass` decisions.
        let take = per_pass.min(made.len());
        for i in 0..take {
            let j = i + rng.below((made.len() - i) as u64) as usize;
            made.swap(i, j);
        }
        for c in &made[..take] {
            let node = Board::new(c.player, c.opponent);
            let (_, score) = exact
                .solve_board(&node, false)
                .expect("the exact solver has no deadline");
            let ok = if c.high {
                score >= c.bound
            } else {
                score <= c.bound
            };
            let cell = checked.by_empties.entry(node.empty_count()).or_default();
            cell.0 += 1;
            cell.1 += u64::from(ok);
        }
        out.push(checked);
    }
    selective.record_cuts(false);
    selective.techniques = techniques;
    out
}

//! The calibration check of the selective passes on a small committed
//! sample (docs/journal/endgame.md, "The selective solve's cut, calibrated"): each
//! pass's cut decisions are confirmed by exact solves at least as often as
//! the pass claims, within [`TOLERANCE`].

use othello::game::Game;
use othello::rng::Rng;
use othello::search::alphabeta::PASS_CUTS;
use othello::search::endgame::calibration::{check_board, claimed, Checked};
use othello::search::endgame::Solver;
use othello::time::Deadline;
use othello::Board;

/// How far below its claim a pass's confirmed share may lie on this small
/// sample (about 500 decisions a pass: the binomial's standard error is
/// under 1.6 points at the 73% pass's claim of 86%, under 0.5 at 99%).
const TOLERANCE: f64 = 0.03;
/// Roots of the sample, and their empties (their cut nodes have 10-15:
/// quick to solve exactly).
const ROOTS: usize = 8;
const ROOT_EMPTIES: u32 = 16;
/// Decisions verified per root and pass.
const PER_PASS: usize = 60;

/// The positions with [`ROOT_EMPTIES`] empties of the first games of the
/// strong-play games (held out of the cut's fit), side to move with a move.
fn roots() -> Vec<Board> {
    let text = include_str!("data/strong-games.txt");
    let mut out = Vec::new();
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let game = Game::from_transcript(&line[..2 * (60 - ROOT_EMPTIES as usize)]).unwrap();
        let board = game.board();
        if board.empty_count() == ROOT_EMPTIES && !board.moves().is_empty() {
            out.push(board);
        }
        if out.len() == ROOTS {
            break;
        }
    }
    assert_eq!(out.len(), ROOTS);
    out
}

fn check() -> Vec<Checked> {
    let mut selective = Solver::with_table_bits(Deadline::unlimited(), 18);
    let mut exact = Solver::with_table_bits(Deadline::unlimited(), 20);
    let mut rng = Rng::seed_from_u64(47);
    let mut sum = vec![Checked::default(); PASS_CUTS.len()];
    for board in roots() {
        let tallies = check_board(
            &mut selective,
            &mut exact,
            &board,
            PASS_CUTS,
            PER_PASS,
            &mut rng,
        );
        for (s, t) in sum.iter_mut().zip(&tallies) {
            s.add(t);
        }
    }
    sum
}

#[test]
fn every_pass_keeps_its_cut_decisions_as_often_as_it_claims() {
    let checked = check();
    for (&cut, c) in PASS_CUTS.iter().zip(&checked) {
        let (verified, confirmed) = c.totals();
        assert!(verified >= 200, "cut {cut}: only {verified} decisions");
        let share = confirmed as f64 / verified as f64;
        assert!(
            share >= claimed(cut) - TOLERANCE,
            "cut {cut}: {confirmed} of {verified} confirmed ({:.1}%), claimed {:.1}%",
            share * 100.0,
            claimed(cut) * 100.0
        );
    }
    // The check tells the passes apart: the first (38%) pass's decisions
    // do not hold as often as the 98% pass claims its own do.
    let (verified, confirmed) = checked[0].totals();
    let wide = *PASS_CUTS
        .iter()
        .find(|&&c| othello::search::endgame::confidence(c) == 98)
        .expect("a 98% pass");
    assert!(
        (confirmed as f64 / verified as f64) < claimed(wide),
        "{confirmed} of {verified}"
    );
}

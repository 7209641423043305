//! `train openings`: openings files for the referee's `--openings`.
//!
//! - `--count N` (N > 0): N balanced openings: random games of `--plies
//!   A-B` moves drawn from `--seed`, one per position up to symmetry, kept
//!   when a selective search to `--depth` scores them within `--within`
//!   discs of even. Each line carries the score as a comment.
//! - `--count 0`: every opening of `--plies A-B` moves, one per position
//!   up to symmetry (the start position's neighbourhood, as CodinGame plays
//!   it), in transcript order.
//!
//! The file's header says how it was made; the same command writes the
//! same file.

use crate::cli::{OpeningsConfig, Options};
use othello::book::canonical;
use othello::eval::{EvalKind, Evaluator};
use othello::game::Game;
use othello::rng::Rng;
use othello::search::alphabeta::AlphaBeta;
use othello::search::{Limits, Score, Strategy};
use othello::Square;
use std::collections::HashSet;

/// Candidates drawn and scored per round.
const ROUND: usize = 64;
/// Draws a round may take to find new positions before it stops (short
/// openings have few positions: 3 of 2 moves up to symmetry).
const MAX_DRAWS_PER_ROUND: usize = 100_000;

/// Writes the openings file.
///
/// # Errors
/// No `--out`, or the file cannot be written.
pub fn run(o: &Options) -> Result<(), String> {
    let out = o.out.as_ref().ok_or("openings needs --out FILE")?;
    if !std::env::args().any(|a| a == "--plies") {
        return Err("openings needs --plies A-B (the openings' lengths)".into());
    }
    let (lo, hi) = o.corpus.random_plies;
    let config = &o.openings;
    let command = std::env::args().skip(1).collect::<Vec<_>>().join(" ");
    let mut text = format!("# train {command}\n");
    if config.count == 0 {
        let all = enumerate(lo, hi);
        text += &format!(
            "# every opening of {lo}-{hi} moves, one per position up to symmetry: {}\n",
            all.len()
        );
        for t in &all {
            text += &format!("{t}\n");
        }
        eprintln!("openings: {} openings of {lo}-{hi} moves", all.len());
    } else {
        let kept = balanced(lo, hi, o.gen.seed, o.gen.threads, config);
        text += &format!(
            "# {} random openings of {lo}-{hi} moves (seed {}), one per position up to symmetry, \
             scored within {} discs of even by a selective depth-{} search (side to move's view)\n",
            kept.len(),
            o.gen.seed,
            config.within,
            config.depth
        );
        for (t, score) in &kept {
            text += &format!("{t} # {score:+.1}\n");
        }
    }
    std::fs::write(out, text).map_err(|e| format!("{}: {e}", out.display()))
}

/// Every game of `lo..=hi` moves, the first of each position's symmetry
/// class in transcript order.
fn enumerate(lo: u32, hi: u32) -> Vec<String> {
    fn walk(game: &Game, lo: u32, hi: u32, seen: &mut HashSet<(u64, u64)>, out: &mut Vec<String>) {
        let plies = game.history().len() as u32;
        if plies >= lo {
            let (c, _) = canonical(&game.board());
            // Openings of different lengths never share a position.
            if seen.insert((c.player, c.opponent)) {
                out.push(game.transcript());
            }
        }
        if plies == hi || game.is_over() {
            return;
        }
        for m in game.board().moves().squares() {
            let mut next = game.clone();
            next.play(m).expect("a legal move");
            walk(&next, lo, hi, seen, out);
        }
    }
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    walk(&Game::new(), lo, hi, &mut seen, &mut out);
    out.retain(|t| !t.is_empty());
    out
}

/// Random openings scored within the margin, `config.count` of them, in
/// the order drawn.
fn balanced(
    lo: u32,
    hi: u32,
    seed: u64,
    threads: usize,
    config: &OpeningsConfig,
) -> Vec<(String, f64)> {
    let mut rng = Rng::seed_from_u64(seed);
    let mut seen = HashSet::new();
    let mut kept = Vec::new();
    let mut scored = 0usize;
    let bar = crate::progress::bar(config.count as u64, "openings");
    while kept.len() < config.count {
        let mut round = Vec::with_capacity(ROUND);
        let mut draws = 0;
        while round.len() < ROUND && draws < MAX_DRAWS_PER_ROUND {
            draws += 1;
            let plies = lo + (rng.next_u64() % u64::from(hi - lo + 1)) as u32;
            let Some(game) = draw(plies, &mut rng) else {
                continue;
            };
            let (c, _) = canonical(&game.board());
            if seen.insert((c.player, c.opponent)) {
                round.push(game);
            }
        }
        if round.is_empty() {
            eprintln!(
                "openings: no new position in {MAX_DRAWS_PER_ROUND} draws: {lo}-{hi} moves have fewer \
                 positions than asked; keeping {}",
                kept.len()
            );
            break;
        }
        let scores = score_all(&round, threads, config.depth);
        scored += round.len();
        for (game, score) in round.iter().zip(scores) {
            if score.abs() <= config.within && kept.len() < config.count {
                kept.push((game.transcript(), score));
                bar.inc(1);
            }
        }
    }
    bar.finish_and_clear();
    eprintln!(
        "openings: kept {} of {scored} scored ({:.0}%)",
        kept.len(),
        100.0 * kept.len() as f64 / scored as f64
    );
    kept
}

/// `plies` uniform random moves from the start; `None` if the game ended.
fn draw(plies: u32, rng: &mut Rng) -> Option<Game> {
    let mut game = Game::new();
    for _ in 0..plies {
        if game.is_over() {
            return None;
        }
        let moves: Vec<Square> = game.board().moves().squares().collect();
        if moves.is_empty() {
            return None;
        }
        let m = moves[(rng.next_u64() % moves.len() as u64) as usize];
        game.play(m).expect("a legal move");
    }
    (!game.is_over()).then_some(game)
}

/// Each game's score in discs for its side to move, from a fresh selective
/// search to `depth`.
fn score_all(games: &[Game], threads: usize, depth: u32) -> Vec<f64> {
    let bar = indicatif::ProgressBar::hidden();
    crate::parallel::map_in_order(games, threads, &bar, |game| {
        let board = game.board();
        let mut ab = AlphaBeta::new(Evaluator::new(EvalKind::Pattern, 0));
        ab.set_exact_empties(0);
        let r = ab.choose(&board, board.moves(), &Limits::depth(depth));
        match r.score {
            Score::Selective(s) | Score::Estimate(s) => s,
            Score::Exact(s) | Score::Probable { score: s, .. } => f64::from(s),
            _ => 0.0,
        }
    })
}

//! `train transition`: the transition bench (docs/journal/endgame.md, "The
//! transition bench"). Positions with 20-26 empties are drawn from
//! recorded games (the referee's games files, or one transcript per
//! line), and every legal move of each is solved exactly; the result is
//! `othello transition`'s file (`othello::transition`).
//!
//! The draw is seeded: the same games and options give the same
//! positions. Each position is appended to the output as soon as it is
//! solved, and a run resumes the positions already there, so a long run
//! can be cut into chunks; the finished file is rewritten in bench order.

use crate::cli::Options;
use crate::games::read_games;
use othello::game::Game;
use othello::search::endgame::{Solver, SOLVE_TABLE_BITS};
use othello::time::Deadline;
use othello::transition::{self, BenchPosition};
use othello::{Board, Square};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use std::collections::{BTreeMap, HashSet};
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// The bench's default file.
pub const DEFAULT_OUT: &str = "tests/data/transition.txt";

/// The candidate positions of `games`: by empties in `range`, each
/// position once (the first game to reach it), where the side to move
/// has at least two moves (one move is no choice).
pub fn candidates(
    games: &[String],
    range: (u32, u32),
) -> Result<BTreeMap<u32, Vec<String>>, String> {
    let mut seen = HashSet::new();
    let mut by_empties: BTreeMap<u32, Vec<String>> = BTreeMap::new();
    for (g, transcript) in games.iter().enumerate() {
        let mut game = Game::new();
        for k in 0..=transcript.len() / 2 {
            let board = game.board();
            let e = board.empty_count();
            if (range.0..=range.1).contains(&e) && board.moves().count() >= 2 && seen.insert(board)
            {
                by_empties
                    .entry(e)
                    .or_default()
                    .push(transcript[..2 * k].to_string());
            }
            if 2 * k + 2 > transcript.len() || e < range.0 {
                break;
            }
            let sq = Square::parse(&transcript[2 * k..2 * k + 2])
                .map_err(|e| format!("game {}: move {}: {e}", g + 1, k + 1))?;
            game.play(sq)
                .map_err(|e| format!("game {}: move {}: {e}", g + 1, k + 1))?;
        }
    }
    Ok(by_empties)
}

/// Up to `per_empties` positions of each empties count of `by_empties`
/// ([`candidates`]), drawn with `seed`: most empties first, each count in
/// draw order. Each count has its own generator, so a narrower range of
/// empties draws the same positions at the counts it keeps (a run can be
/// cut in chunks).
pub fn draw(by_empties: BTreeMap<u32, Vec<String>>, per_empties: usize, seed: u64) -> Vec<String> {
    let mut drawn: Vec<String> = Vec::new();
    for (e, mut list) in by_empties.into_iter().rev() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed ^ u64::from(e) << 32);
        list.shuffle(&mut rng);
        list.truncate(per_empties);
        drawn.extend(list);
    }
    drawn
}

/// Every legal move of the position after `transcript` with its exact
/// score for the side to move, or with `wld` its result only.
pub fn solve(solver: &mut Solver, transcript: &str, wld: bool) -> Result<BenchPosition, String> {
    let board: Board = Game::from_transcript(transcript)
        .map_err(|e| e.to_string())?
        .board();
    let scores = board
        .moves()
        .squares()
        .map(|sq| {
            let (_, s) = solver
                .solve_board(&board.play(sq), wld)
                .expect("no deadline");
            (sq, if wld { -s.signum() } else { -s })
        })
        .collect();
    if wld {
        BenchPosition::with_results(transcript, scores)
    } else {
        BenchPosition::new(transcript, scores)
    }
}

/// Runs the command.
pub fn run(o: &Options) -> Result<(), String> {
    let c = &o.transition;
    if c.from.is_empty() {
        return Err("transition needs --from FILE[,FILE..] (games files or transcripts)".into());
    }
    let games = read_games(&c.from, o.endgame_part)?;
    let drawn = draw(candidates(&games, c.empties)?, c.per_empties, o.gen.seed);
    let out = o.out.clone().unwrap_or_else(|| PathBuf::from(DEFAULT_OUT));
    // Resume: the positions already solved in the output, kept in the
    // finished file whether or not this run draws them (a chunk of other
    // empties adds to it).
    let mut done: BTreeMap<String, BenchPosition> = BTreeMap::new();
    let mut earlier: Vec<String> = Vec::new();
    if let Ok(text) = std::fs::read_to_string(&out) {
        let positions = transition::parse(&text)
            .map_err(|errors| format!("{}: {}", out.display(), errors[0]))?;
        if let Some(p) = positions.iter().find(|p| p.wld != c.wld) {
            return Err(format!(
                "{}: {} gives {}, and this run solves {}: give another --out",
                out.display(),
                p.transcript,
                if p.wld {
                    "results only"
                } else {
                    "exact scores"
                },
                if c.wld {
                    "results only (--labels wld)"
                } else {
                    "exact scores"
                }
            ));
        }
        let drawn: HashSet<&String> = drawn.iter().collect();
        for p in positions {
            if !drawn.contains(&p.transcript) && !done.contains_key(&p.transcript) {
                earlier.push(p.transcript.clone());
            }
            done.insert(p.transcript.clone(), p);
        }
    }
    let todo: Vec<&String> = drawn.iter().filter(|t| !done.contains_key(*t)).collect();
    eprintln!(
        "{} games, {} positions drawn ({} per empties count at most), {} to solve",
        games.len(),
        drawn.len(),
        c.per_empties,
        todo.len()
    );
    let file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&out)
        .map_err(|e| format!("{}: {e}", out.display()))?;
    let file = Mutex::new(file);
    let solved = Mutex::new(Vec::new());
    let next = AtomicUsize::new(0);
    let bar = crate::progress::bar(todo.len() as u64, "solve");
    let failure = Mutex::new(None);
    std::thread::scope(|scope| {
        for _ in 0..o.gen.threads.max(1) {
            scope.spawn(|| {
                let mut solver = Solver::with_table_bits(Deadline::unlimited(), SOLVE_TABLE_BITS);
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(t) = todo.get(i) else { break };
                    match solve(&mut solver, t, c.wld) {
                        Ok(p) => {
                            let mut f = file.lock().expect("no panics");
                            if let Err(e) = writeln!(f, "{}", p.to_line()) {
                                *failure.lock().expect("no panics") = Some(e.to_string());
                                break;
                            }
                            solved.lock().expect("no panics").push(p);
                            bar.inc(1);
                        }
                        Err(e) => {
                            *failure.lock().expect("no panics") = Some(e);
                            break;
                        }
                    }
                }
            });
        }
    });
    bar.finish();
    if let Some(e) = failure.into_inner().expect("no panics") {
        return Err(format!("{}: {e}", out.display()));
    }
    for p in solved.into_inner().expect("no panics") {
        done.insert(p.transcript.clone(), p);
    }
    // The finished bench: most empties first, each count in draw order.
    let mut all: Vec<&BenchPosition> = earlier.iter().chain(&drawn).map(|t| &done[t]).collect();
    all.sort_by_key(|p| std::cmp::Reverse(p.empties()));
    let mut counts: BTreeMap<u32, usize> = BTreeMap::new();
    for p in &all {
        *counts.entry(p.empties()).or_default() += 1;
    }
    let counts: Vec<String> = counts
        .iter()
        .rev()
        .map(|(e, n)| format!("{n} at {e}"))
        .collect();
    let how = if c.wld {
        "for its result only (W, D, L for the side to move; --labels wld)"
    } else {
        "exactly (score for the side to move)"
    };
    let mut text = format!(
        "# The transition bench (docs/endgame.md, \"The transition bench\"): {} positions ({}),\n\
         # every legal move solved {how}. Made by `train transition`.\n",
        all.len(),
        counts.join(", ")
    );
    for p in &all {
        text += &p.to_line();
        text.push('\n');
    }
    std::fs::write(&out, text).map_err(|e| format!("{}: {e}", out.display()))?;
    eprintln!("wrote {} positions to {}", all.len(), out.display());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn candidates_are_unique_positions_with_a_choice() {
        // Two games through the same positions: each position once.
        let games = vec!["f5d6c3d3c4".to_string(), "f5d6c3d3c4".to_string()];
        let c = candidates(&games, (55, 60)).unwrap();
        let n: usize = c.values().map(Vec::len).sum();
        assert_eq!(n, 6, "{c:?}");
        assert_eq!(c[&60], vec![String::new()]);
        assert_eq!(c[&56], vec!["f5d6c3d3".to_string()]);
        let e = candidates(&["f5f5".to_string()], (55, 60)).unwrap_err();
        assert!(e.contains("game 1: move 2"), "{e}");
    }

    #[test]
    fn every_move_is_solved_exactly() {
        // A late position of a real game: each move's score is the exact
        // solve of its child, the best the exact solve of the position.
        let game = "f5f6f7f4f3d6e6g3c5g6g4f2e3h5c7e8h6c6c4e7d8d7f8b5b4e2g5h7a5c8b8d3c3b6d2a4a3g7b3h4a6c1e1b2";
        let t = &game[..2 * 42];
        let mut solver = Solver::with_table_bits(Deadline::unlimited(), 16);
        let p = solve(&mut solver, t, false).unwrap();
        let board = Game::from_transcript(t).unwrap().board();
        let mut fresh = Solver::with_table_bits(Deadline::unlimited(), 16);
        let best = fresh.solve(&board, board.moves(), false).unwrap();
        assert_eq!(p.best_score(), best.score);
        assert_eq!(p.loss(best.best), Some(0));
        assert_eq!(p.scores.len() as u32, board.moves().count());
        // Results only: the signs of the exact scores.
        let r = solve(&mut fresh, t, true).unwrap();
        assert!(r.wld && !p.wld);
        let signs: Vec<(Square, i32)> = p.scores.iter().map(|&(m, s)| (m, s.signum())).collect();
        assert_eq!(r.scores, signs);
    }
}

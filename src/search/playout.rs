//! Fast random playouts: the machinery every Monte Carlo strategy shares.
//!
//! A playout plays uniformly random legal moves (a pass when there is none)
//! until the game ends or a ply limit is reached, and returns the outcome
//! from the view of the side to move at its start: the final score (empties
//! to the winner) when the game ended, the disc difference when the ply
//! limit stopped it.
//!
//! [`Playouts`] picks, once, the fastest loop the processor can run: on
//! x86-64 with popcnt, bmi1, bmi2, lzcnt and avx2 (checked at run time) a
//! copy of the loop compiled with those features, picking the k-th legal
//! move with `pdep`; elsewhere a portable loop. [`Playouts::run4`]
//! interleaves four independent games in one thread, which hides the
//! latency of each game's serial chain of dependent instructions (and,
//! with avx2 enabled, lets the compiler use vector registers for it).
//!
//! Measured from the start position, one thread, best of 3 on a shared
//! 2-core AMD EPYC (`othello playouts --speed`): portable 0.58 M/s one game
//! at a time; dispatched 0.89 M/s one at a time and 1.32 M/s four
//! interleaved. Enabling avx2 on the one-at-a-time loop made it slower
//! (0.67-0.83 M/s), so only the interleaved loop enables it.

use crate::board::Board;
use crate::kernels;
use crate::rng::Rng;
use crate::square::Square;

/// No ply limit: play to the end of the game.
pub const TO_THE_END: u32 = u32::MAX;

/// The outcome of a playout as a win value for the side to move at its
/// start: 1 for a win, ½ for a draw, 0 for a loss.
#[inline]
pub fn win_value(score: i32) -> f64 {
    match score.signum() {
        1 => 1.0,
        0 => 0.5,
        _ => 0.0,
    }
}

/// Chooses the `k`-th (from 0) set bit of a mask: the move picker.
trait Pick {
    fn nth_bit(mask: u64, k: u32) -> u64;
}

/// Portable picker: clear the `k` lowest set bits.
struct PortablePick;

impl Pick for PortablePick {
    #[inline(always)]
    fn nth_bit(mut mask: u64, k: u32) -> u64 {
        for _ in 0..k {
            mask &= mask - 1;
        }
        mask & mask.wrapping_neg()
    }
}

/// bmi2 picker: `pdep(1 << k, mask)` deposits the bit on the k-th set bit.
#[cfg(target_arch = "x86_64")]
struct Bmi2Pick;

#[cfg(target_arch = "x86_64")]
impl Pick for Bmi2Pick {
    #[inline(always)]
    fn nth_bit(mask: u64, k: u32) -> u64 {
        // SAFETY: `Bmi2Pick` is only used inside `run_bmi2` / `run4_bmi2`,
        // which are only called after `is_x86_feature_detected!("bmi2")`
        // returned true (see `Playouts::new`), and by `nth_bit`, which
        // asserts the same; so the instruction exists. Gain: pdep replaces
        // a loop of k steps; with the other features the one-game loop went
        // from 0.58 to 0.89 M playouts/s (module docs).
        unsafe { core::arch::x86_64::_pdep_u64(1u64 << k, mask) }
    }
}

/// A uniform index in `0..n` from 32 random bits (multiply-shift; the bias
/// is at most n / 2^32, far below what a playout can notice).
#[inline(always)]
fn index_below(random: u32, n: u32) -> u32 {
    ((u64::from(random) * u64::from(n)) >> 32) as u32
}

/// One random game from (`p`, `o`), `p` to move. `observe` sees every
/// position and the square played there (a no-op in the fast paths).
#[inline(always)]
fn play_out<P: Pick, F: FnMut(u64, u64, u64)>(
    mut p: u64,
    mut o: u64,
    rng: &mut Rng,
    max_plies: u32,
    mut observe: F,
) -> i32 {
    // Whether the side to move is the starting side's opponent.
    let mut swapped = false;
    let mut plies = 0u32;
    let score = loop {
        let mut moves = kernels::moves(p, o);
        if moves == 0 {
            moves = kernels::moves(o, p);
            if moves == 0 {
                break Board::new(p, o).final_score();
            }
            core::mem::swap(&mut p, &mut o);
            swapped = !swapped;
        }
        if plies >= max_plies {
            break Board::new(p, o).disc_difference();
        }
        let k = index_below(rng.next_u64() as u32, moves.count_ones());
        let bit = P::nth_bit(moves, k);
        let sq = bit.trailing_zeros() as usize;
        observe(p, o, bit);
        let flipped = kernels::flips(p, o, sq);
        (p, o) = (o ^ flipped, p ^ flipped ^ bit);
        swapped = !swapped;
        plies += 1;
    };
    if swapped {
        -score
    } else {
        score
    }
}

/// Four random games at once, each as [`play_out`] would play it; the
/// games are independent, so their instructions overlap in the processor.
#[inline(always)]
fn play_out4<P: Pick>(boards: &[Board; 4], rng: &mut Rng, max_plies: u32) -> [i32; 4] {
    let mut p = boards.map(|b| b.player);
    let mut o = boards.map(|b| b.opponent);
    let mut swapped = [false; 4];
    let mut score = [0i32; 4];
    let mut done = [false; 4];
    let mut plies = 0u32;
    let mut running = 4;
    while running > 0 {
        let random = rng.next_u64();
        for i in 0..4 {
            if done[i] {
                continue;
            }
            let mut moves = kernels::moves(p[i], o[i]);
            let mut stop = None;
            if moves == 0 {
                moves = kernels::moves(o[i], p[i]);
                if moves == 0 {
                    stop = Some(Board::new(p[i], o[i]).final_score());
                } else {
                    core::mem::swap(&mut p[i], &mut o[i]);
                    swapped[i] = !swapped[i];
                }
            }
            if stop.is_none() && plies >= max_plies {
                stop = Some(Board::new(p[i], o[i]).disc_difference());
            }
            if let Some(s) = stop {
                score[i] = if swapped[i] { -s } else { s };
                done[i] = true;
                running -= 1;
                continue;
            }
            // 16 random bits per game per ply: 4 games share one draw.
            let r = ((random >> (16 * i)) as u32) << 16;
            let bit = P::nth_bit(moves, index_below(r, moves.count_ones()));
            let flipped = kernels::flips(p[i], o[i], bit.trailing_zeros() as usize);
            (p[i], o[i]) = (o[i] ^ flipped, p[i] ^ flipped ^ bit);
            swapped[i] = !swapped[i];
        }
        plies += 1;
    }
    score
}

fn run_portable(board: &Board, rng: &mut Rng, max_plies: u32) -> i32 {
    play_out::<PortablePick, _>(board.player, board.opponent, rng, max_plies, |_, _, _| {})
}

fn run4_portable(boards: &[Board; 4], rng: &mut Rng, max_plies: u32) -> [i32; 4] {
    play_out4::<PortablePick>(boards, rng, max_plies)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt")]
fn run_bmi2(board: &Board, rng: &mut Rng, max_plies: u32) -> i32 {
    play_out::<Bmi2Pick, _>(board.player, board.opponent, rng, max_plies, |_, _, _| {})
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt,avx2")]
fn run4_bmi2(boards: &[Board; 4], rng: &mut Rng, max_plies: u32) -> [i32; 4] {
    play_out4::<Bmi2Pick>(boards, rng, max_plies)
}

/// Which compiled loop runs the playouts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kernel {
    /// Shifts and masks only: runs everywhere.
    Portable,
    /// x86-64 with popcnt, bmi1, bmi2, lzcnt and avx2 (Haswell and later).
    Bmi2,
}

/// The playout runner: the fastest [`Kernel`] this processor supports.
#[derive(Clone, Copy, Debug)]
pub struct Playouts {
    kernel: Kernel,
}

impl Default for Playouts {
    fn default() -> Playouts {
        Playouts::new()
    }
}

impl Playouts {
    /// Detects the processor's features and picks the fastest kernel.
    pub fn new() -> Playouts {
        #[cfg(target_arch = "x86_64")]
        {
            if std::is_x86_feature_detected!("popcnt")
                && std::is_x86_feature_detected!("bmi1")
                && std::is_x86_feature_detected!("bmi2")
                && std::is_x86_feature_detected!("lzcnt")
                && std::is_x86_feature_detected!("avx2")
            {
                return Playouts {
                    kernel: Kernel::Bmi2,
                };
            }
        }
        Playouts::portable()
    }

    /// The portable kernel, whatever the processor.
    pub fn portable() -> Playouts {
        Playouts {
            kernel: Kernel::Portable,
        }
    }

    /// The kernel in use.
    pub fn kernel(&self) -> Kernel {
        self.kernel
    }

    /// One random game from `board`, stopped after `max_plies` moves (not
    /// counting passes; [`TO_THE_END`] for none). The outcome is for the
    /// side to move in `board`: the final score if the game ended, else the
    /// disc difference.
    #[inline]
    pub fn run(&self, board: &Board, rng: &mut Rng, max_plies: u32) -> i32 {
        match self.kernel {
            Kernel::Portable => run_portable(board, rng, max_plies),
            #[cfg(target_arch = "x86_64")]
            // SAFETY: `Kernel::Bmi2` is only set by `Playouts::new` after
            // run-time detection of every feature `run_bmi2` enables.
            Kernel::Bmi2 => unsafe { run_bmi2(board, rng, max_plies) },
            #[cfg(not(target_arch = "x86_64"))]
            Kernel::Bmi2 => run_portable(board, rng, max_plies),
        }
    }

    /// Four independent random games, one from each board, interleaved;
    /// each outcome as [`Playouts::run`] gives it.
    #[inline]
    pub fn run4(&self, boards: &[Board; 4], rng: &mut Rng, max_plies: u32) -> [i32; 4] {
        match self.kernel {
            Kernel::Portable => run4_portable(boards, rng, max_plies),
            #[cfg(target_arch = "x86_64")]
            // SAFETY: as in `run`: the features were detected at run time.
            Kernel::Bmi2 => unsafe { run4_bmi2(boards, rng, max_plies) },
            #[cfg(not(target_arch = "x86_64"))]
            Kernel::Bmi2 => run4_portable(boards, rng, max_plies),
        }
    }
}

/// The positions of one random game from `board`, in order (the start
/// included; positions where the side to move must pass are skipped), for
/// tests and openings.
pub fn random_game(board: &Board, rng: &mut Rng) -> Vec<Board> {
    let mut log = Vec::new();
    trace(board, rng, TO_THE_END, &mut log);
    log.into_iter().map(|(b, _)| b).collect()
}

/// One random game played by the portable loop, recording every position
/// (side to move first) and the square played there: for tests of
/// legality and uniformity. Returns the outcome as [`Playouts::run`] does.
pub fn trace(board: &Board, rng: &mut Rng, max_plies: u32, log: &mut Vec<(Board, Square)>) -> i32 {
    play_out::<PortablePick, _>(board.player, board.opponent, rng, max_plies, |p, o, bit| {
        log.push((Board::new(p, o), Square::new(bit.trailing_zeros() as u8)));
    })
}

/// The k-th set bit as each kernel's picker finds it (for tests).
pub fn nth_bit(kernel: Kernel, mask: u64, k: u32) -> u64 {
    match kernel {
        Kernel::Portable => PortablePick::nth_bit(mask, k),
        #[cfg(target_arch = "x86_64")]
        Kernel::Bmi2 => {
            assert!(
                std::is_x86_feature_detected!("bmi2"),
                "bmi2 is not available"
            );
            Bmi2Pick::nth_bit(mask, k)
        }
        #[cfg(not(target_arch = "x86_64"))]
        Kernel::Bmi2 => PortablePick::nth_bit(mask, k),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reference::{flips_slow, moves_slow};

    #[test]
    fn each_kernel_picks_the_kth_set_bit() {
        let mut rng = Rng::seed_from_u64(7);
        let kernels = [Playouts::portable().kernel(), Playouts::new().kernel()];
        for _ in 0..1000 {
            let mask = rng.next_u64() & rng.next_u64();
            let bits: Vec<u64> = (0..64)
                .map(|i| 1u64 << i)
                .filter(|b| mask & b != 0)
                .collect();
            for (k, &bit) in bits.iter().enumerate() {
                for kernel in kernels {
                    assert_eq!(nth_bit(kernel, mask, k as u32), bit, "{kernel:?}");
                }
            }
        }
    }

    #[test]
    fn playouts_play_legal_moves_and_return_the_final_score() {
        let mut rng = Rng::seed_from_u64(1);
        for _ in 0..300 {
            let mut log = Vec::new();
            let score = trace(&Board::start(), &mut rng, TO_THE_END, &mut log);
            // Positions alternate sides, with passes between them, from the start.
            let mut expected = Board::start();
            let mut swapped = false;
            for &(board, sq) in &log {
                if board != expected {
                    assert_eq!(board, expected.pass(), "not the position reached");
                    assert_eq!(moves_slow(expected.player, expected.opponent), 0);
                    swapped = !swapped;
                }
                let legal = moves_slow(board.player, board.opponent);
                assert!(legal & sq.bit() != 0, "{sq} is not legal in\n{board}");
                let f = flips_slow(board.player, board.opponent, sq.index());
                expected = Board::new(board.opponent ^ f, board.player ^ f ^ sq.bit());
                swapped = !swapped;
            }
            assert!(expected.is_game_over());
            let final_for_start = if swapped {
                -expected.final_score()
            } else {
                expected.final_score()
            };
            assert_eq!(score, final_for_start);
        }
    }

    #[test]
    fn the_dispatched_kernel_plays_the_same_games_as_the_portable_one() {
        let (portable, fast) = (Playouts::portable(), Playouts::new());
        let mut boards = [Board::start(); 4];
        for seed in 0..200 {
            let (mut a, mut b) = (Rng::seed_from_u64(seed), Rng::seed_from_u64(seed));
            let depth = if seed % 2 == 0 { TO_THE_END } else { 20 };
            assert_eq!(
                portable.run(&boards[0], &mut a, depth),
                fast.run(&boards[0], &mut b, depth)
            );
            assert_eq!(
                portable.run4(&boards, &mut a, depth),
                fast.run4(&boards, &mut b, depth)
            );
            // Vary the boards: one random move from each.
            for board in &mut boards {
                let moves = board.moves();
                if !moves.is_empty() {
                    *board = board.play(Square::new(a.pick_bit(moves.0) as u8));
                }
            }
        }
    }

    #[test]
    fn the_move_choice_is_uniform() {
        // After f5 d6 c3 d3 c4 white has 6 moves; count the first choice of
        // 30,000 one-ply playouts and compare with the uniform law.
        let board = crate::game::Game::from_transcript("f5d6c3d3c4")
            .unwrap()
            .board();
        let legal: Vec<u64> = board.moves().squares().map(|s| s.bit()).collect();
        let n = legal.len();
        let mut counts = vec![0u32; n];
        let mut rng = Rng::seed_from_u64(11);
        let total = 5000 * n as u32;
        for _ in 0..total {
            let mut log = Vec::new();
            trace(&board, &mut rng, 1, &mut log);
            let i = legal.iter().position(|&b| b == log[0].1.bit()).unwrap();
            counts[i] += 1;
        }
        let expected = f64::from(total) / n as f64;
        let chi2: f64 = counts
            .iter()
            .map(|&c| (f64::from(c) - expected).powi(2) / expected)
            .sum();
        // The 0.1 % critical value of chi-square with 5 degrees of freedom.
        assert_eq!(n, 6);
        assert!(chi2 < 20.5, "chi2 {chi2}, counts {counts:?}");
    }

    #[test]
    fn interleaved_games_have_the_distribution_of_single_ones() {
        let runner = Playouts::new();
        let mut rng = Rng::seed_from_u64(5);
        let games = 20_000;
        let (mut single, mut four) = (0.0, 0.0);
        for _ in 0..games / 4 {
            for _ in 0..4 {
                single += f64::from(runner.run(&Board::start(), &mut rng, TO_THE_END));
            }
            four += runner
                .run4(&[Board::start(); 4], &mut rng, TO_THE_END)
                .iter()
                .map(|&s| f64::from(s))
                .sum::<f64>();
        }
        // Final scores from the start have a standard deviation near 24:
        // the two means differ by far less than 5 standard errors.
        let se = 24.0 * (2.0 / games as f64).sqrt();
        let diff = (single - four) / games as f64;
        assert!(diff.abs() < 5.0 * se, "means differ by {diff}");
    }
}

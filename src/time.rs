//! Time budgets: a soft limit (start no new iteration after it) and a hard
//! deadline (abort the search), both measured from the turn's first line.

use std::time::{Duration, Instant};

/// CodinGame's limit for the first turn, in ms.
pub const CODINGAME_FIRST_TURN_MS: u64 = 2000;
/// CodinGame's limit for every later turn, in ms.
pub const CODINGAME_TURN_MS: u64 = 150;
/// Our hard budget for a later turn: 20 ms below the limit for process
/// scheduling and pipe latency, the lag and waiting cuts below shortening
/// it on a loaded machine. 130 (was 100) since issue 48: 1,000 games
/// against 100 gave +19.1 +/- 17.3 Elo, mean midgame depth 14.7 against
/// 14.2 on the midgame bench, and with six busy loops beside a match the
/// slowest reply took 131.9 ms, no timeout (docs/journal/search.md, "The time plan
/// at 100, 115 and 130 ms"). Before the cuts, 120 ms saw answers over
/// 150 ms with about ten busy processes on the 2-core machine.
pub const DEFAULT_TURN_BUDGET_MS: u64 = 130;
/// Our hard budget for the first turn: half the 2000 ms limit. The first
/// turn also pays for start-up (tables, weights decoding).
pub const FIRST_TURN_BUDGET_MS: u64 = 1000;
/// The hard budget of a later turn in the transition, from
/// [`TRANSITION_EMPTIES`]: where the midgame search hands over to the
/// solver and games are decided. On the transition bench (docs/journal/endgame.md,
/// "The transition") 135 ms instead of 100, with the solve's rules of
/// that page, took the loss at 21-23 empties from 0.83 to 0.45-0.47 discs
/// a move (120 ms did less); at 24-26 it bought nothing measurable. Under
/// load (`scripts/stress.sh`, 2-16 burners) the slowest answer was
/// 139.4 ms, no timeout.
pub const TRANSITION_TURN_BUDGET_MS: u64 = 135;
/// The empties (before the move) of the transition's later turns.
pub const TRANSITION_EMPTIES: core::ops::RangeInclusive<u32> = 20..=26;

/// The hard budget (ms) of a later turn with `empties` empty squares
/// before the move: [`TRANSITION_TURN_BUDGET_MS`] in the transition,
/// [`DEFAULT_TURN_BUDGET_MS`] elsewhere.
pub fn turn_budget_ms(empties: u32) -> u64 {
    if TRANSITION_EMPTIES.contains(&empties) {
        TRANSITION_TURN_BUDGET_MS
    } else {
        DEFAULT_TURN_BUDGET_MS
    }
}
/// The soft limit as a fraction of the hard budget: no iteration of
/// iterative deepening starts after this share of the budget is gone. An
/// iteration the hard budget stops still plays a move it proved better
/// than the previous iteration's, so a late start is not wasted, and
/// CodinGame has no time bank: time saved on one turn is lost. 0.7 (was
/// 0.45) since 2026-11-27: 1,000 games against 0.45 at CodinGame limits
/// gave +26.8 +/- 18.7 Elo, no timeout (docs/journal/search.md, "The soft limit
/// again"); in 2026-11, before the table and the 130 ms budget, 0.6 and
/// stopping once the best move was stable had shown nothing.
pub const SOFT_FRACTION: f64 = 0.7;
/// How many nodes a search visits between two looks at the clock.
pub const NODES_PER_CLOCK_CHECK: u64 = 1024;
/// An answer later than its hard budget by up to this much (ms) is normal
/// jitter: on an idle machine the bot's own clock reads at most about
/// 1 ms past it, with two busy processes beside a match up to 7 ms
/// (docs/journal/search.md, "Under load").
pub const LAG_TOLERANCE_MS: f64 = 5.0;
/// A machine that kept the bot waiting once will likely do it again: each
/// later budget is cut by this many times the remembered lateness.
pub const LAG_CUT_FACTOR: f64 = 2.0;
/// The remembered lateness and waiting fade by this factor every turn.
pub const LAG_DECAY: f64 = 0.9;
/// The share of a turn the process may spend runnable but waiting for a
/// CPU at no cost to the budget. 0.35 (was 0.5) since 2026-12-02: beside
/// two busy loops on two cores (`scripts/stress.sh`) a bot waits about
/// half of each turn, and 0.35 cuts about 15 ms there instead of 4, which
/// keeps the slowest replies 10 ms further from the limit (none over 140
/// ms in six runs, 19 before). It does not cover the 20-40 ms the machine
/// now and then does not run the bot at a turn's end (about once in
/// 6,000-12,000 turns there, one timeout in six runs before and after).
/// On an idle machine (two games on two cores) the waits average a fifth
/// of a turn and the cut grows by about 2 ms a turn on average
/// (docs/journal/search.md, "The wait share at 0.35").
pub const WAIT_FREE: f64 = 0.35;
/// The cut (ms) when the process waited for a CPU the whole turn; it grows
/// linearly from nothing at [`WAIT_FREE`].
pub const WAIT_CUT_MS: f64 = 60.0;
/// The cuts never take a budget below this (ms).
pub const MIN_TURN_BUDGET_MS: u64 = 30;

/// The time limits of one move.
#[derive(Clone, Copy, Debug)]
pub struct Deadline {
    start: Instant,
    soft: Instant,
    hard: Instant,
    unlimited: bool,
}

impl Deadline {
    /// A hard budget of `budget` from `start`, with the soft limit at
    /// [`SOFT_FRACTION`] of it.
    pub fn new(start: Instant, budget: Duration) -> Deadline {
        Deadline {
            start,
            soft: start + budget.mul_f64(SOFT_FRACTION),
            hard: start + budget,
            unlimited: false,
        }
    }

    /// A budget in milliseconds from now.
    pub fn from_now_ms(ms: u64) -> Deadline {
        Deadline::new(Instant::now(), Duration::from_millis(ms))
    }

    /// No time limit (fixed-depth or fixed-work searches).
    pub fn unlimited() -> Deadline {
        let now = Instant::now();
        let far = now + Duration::from_secs(365 * 24 * 3600);
        Deadline {
            start: now,
            soft: far,
            hard: far,
            unlimited: true,
        }
    }

    /// Whether this deadline never expires.
    pub fn is_unlimited(&self) -> bool {
        self.unlimited
    }

    /// When the move's clock started.
    pub fn start(&self) -> Instant {
        self.start
    }

    /// Time since the start.
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// The whole hard budget.
    pub fn budget(&self) -> Duration {
        self.hard - self.start
    }

    /// Time left before the hard deadline (zero once past it).
    pub fn remaining(&self) -> Duration {
        self.hard.saturating_duration_since(Instant::now())
    }

    /// Whether the soft limit has passed: start no new iteration.
    pub fn soft_passed(&self) -> bool {
        !self.unlimited && Instant::now() >= self.soft
    }

    /// Whether the hard deadline has passed: abort now.
    pub fn hard_passed(&self) -> bool {
        !self.unlimited && Instant::now() >= self.hard
    }
}

/// Watches for a loaded machine and shortens the next budgets while it
/// lasts. Two signs: answers later than the bot's own hard budget (the
/// search reads the clock every [`NODES_PER_CLOCK_CHECK`] nodes, well under
/// a millisecond apart, so a late answer means the process was not
/// running), and, where the system tells it, the share of each turn the
/// process spent runnable but waiting for a CPU. The same waits outside the
/// bot's clock (before it reads the turn, after it writes the move) are
/// then likely too, and only a shorter budget leaves room for them.
#[derive(Clone, Copy, Debug, Default)]
pub struct LagGuard {
    lag_ms: f64,
    waited_ms: f64,
    turn_ms: f64,
}

impl LagGuard {
    /// The budget to use instead of `base_ms`.
    pub fn budget_ms(&self, base_ms: u64) -> u64 {
        let lag_cut = self.lag_ms * LAG_CUT_FACTOR;
        let wait = if self.turn_ms > 0.0 {
            self.waited_ms / self.turn_ms
        } else {
            0.0
        };
        let wait_cut = WAIT_CUT_MS * ((wait - WAIT_FREE) / (1.0 - WAIT_FREE)).clamp(0.0, 1.0);
        let cut = lag_cut.max(wait_cut) as u64;
        base_ms
            .saturating_sub(cut)
            .max(MIN_TURN_BUDGET_MS.min(base_ms))
    }

    /// Records an answer given `elapsed` after its turn started, under a
    /// hard budget of `budget`, having waited `waited` for a CPU during the
    /// turn (`None` where the system does not say).
    pub fn record(&mut self, budget: Duration, elapsed: Duration, waited: Option<Duration>) {
        let ms = |d: Duration| d.as_secs_f64() * 1000.0;
        let late = ms(elapsed) - ms(budget);
        self.lag_ms = (self.lag_ms * LAG_DECAY).max(late - LAG_TOLERANCE_MS);
        if let Some(waited) = waited {
            self.waited_ms = self.waited_ms * LAG_DECAY + ms(waited).min(ms(elapsed));
            self.turn_ms = self.turn_ms * LAG_DECAY + ms(elapsed);
        }
    }

    /// The lateness remembered, in ms (0 on time).
    #[cfg(test)]
    fn lag_ms(&self) -> f64 {
        self.lag_ms
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn a_late_answer_cuts_the_next_budgets_until_the_lag_fades() {
        let mut guard = LagGuard::default();
        guard.record(ms(100), ms(104), None);
        assert_eq!(guard.budget_ms(100), 100, "within the tolerance");
        guard.record(ms(100), ms(125), None);
        assert_eq!(guard.lag_ms(), 20.0);
        assert_eq!(guard.budget_ms(100), 60);
        assert_eq!(guard.budget_ms(1000), 960);
        let mut budgets = Vec::new();
        for _ in 0..40 {
            guard.record(ms(60), ms(50), None);
            budgets.push(guard.budget_ms(100));
        }
        assert!(budgets.windows(2).all(|w| w[0] <= w[1]), "{budgets:?}");
        assert_eq!(budgets[0], 64);
        assert_eq!(*budgets.last().unwrap(), 100);
        guard.record(ms(100), ms(400), None);
        assert_eq!(guard.budget_ms(100), MIN_TURN_BUDGET_MS);
    }

    #[test]
    fn waiting_for_a_cpu_cuts_the_budget_beyond_the_free_share() {
        let mut guard = LagGuard::default();
        guard.record(ms(100), ms(90), Some(ms(30)));
        assert_eq!(guard.budget_ms(100), 100, "a third waiting is free");
        let mut guard = LagGuard::default();
        guard.record(ms(100), ms(80), Some(ms(60)));
        // Three quarters: (0.75 - 0.35) / 0.65 of the 60 ms cut.
        assert_eq!(guard.budget_ms(100), 64, "three quarters");
        guard.record(ms(100), ms(80), Some(ms(80)));
        assert!(guard.budget_ms(100) < 64, "more waiting, more cut");
        let mut budgets = Vec::new();
        for _ in 0..10 {
            guard.record(ms(100), ms(90), Some(ms(0)));
            budgets.push(guard.budget_ms(100));
        }
        assert!(budgets.windows(2).all(|w| w[0] <= w[1]), "{budgets:?}");
        assert_eq!(*budgets.last().unwrap(), 100, "the wait fades");
    }
}

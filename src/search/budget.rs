//! The work and time budget of the Monte Carlo searches: a count of
//! random playouts, an optional work limit on it, and the hard deadline,
//! read from the clock only every [`PLAYOUTS_PER_CLOCK_CHECK`] playouts.

use super::Limits;
use crate::time::Deadline;

/// Playouts between two looks at the clock. A playout takes about 1-3 µs,
/// a clock read about 25 ns: checking every 16 costs under 1 % and
/// overshoots the deadline by well under a millisecond.
pub const PLAYOUTS_PER_CLOCK_CHECK: u64 = 16;

/// The work limit of a search given neither a deadline nor a work limit:
/// about a tenth of a second of playouts.
pub const UNLIMITED_FALLBACK_PLAYOUTS: u64 = 100_000;

/// Counts playouts and says when to stop.
#[derive(Clone, Debug)]
pub struct Budget {
    deadline: Deadline,
    limit: u64,
    spent: u64,
    next_check: u64,
    stopped: bool,
}

impl Budget {
    /// The budget of `limits`: its hard deadline, and at most the smaller
    /// of `limits.nodes` and `playouts` playouts (if both are `None`, no
    /// work limit, unless the deadline is unlimited too: then
    /// [`UNLIMITED_FALLBACK_PLAYOUTS`]).
    pub fn new(limits: &Limits, playouts: Option<u64>) -> Budget {
        let limit = match (limits.nodes, playouts) {
            (Some(a), Some(b)) => a.min(b),
            (Some(a), None) | (None, Some(a)) => a,
            // Neither a clock nor a work limit (e.g. `Limits::depth`, which
            // Monte Carlo searches ignore): still stop.
            (None, None) if limits.deadline.is_unlimited() => UNLIMITED_FALLBACK_PLAYOUTS,
            (None, None) => u64::MAX,
        };
        Budget {
            deadline: limits.deadline,
            limit,
            spent: 0,
            next_check: PLAYOUTS_PER_CLOCK_CHECK,
            stopped: false,
        }
    }

    /// Records `n` more playouts.
    #[inline]
    pub fn spend(&mut self, n: u64) {
        self.spent += n;
    }

    /// Playouts spent so far.
    pub fn spent(&self) -> u64 {
        self.spent
    }

    /// Playouts left before the work limit (`u64::MAX` when unlimited).
    pub fn left(&self) -> u64 {
        self.limit.saturating_sub(self.spent)
    }

    /// Whether the work limit is reached or the hard deadline has passed.
    /// Once true it stays true.
    #[inline]
    pub fn exhausted(&mut self) -> bool {
        if !self.stopped {
            if self.spent >= self.limit {
                self.stopped = true;
            } else if self.spent >= self.next_check {
                self.next_check = self.spent + PLAYOUTS_PER_CLOCK_CHECK;
                self.stopped = self.deadline.hard_passed();
            }
        }
        self.stopped
    }

    /// The deadline.
    pub fn deadline(&self) -> &Deadline {
        &self.deadline
    }
}

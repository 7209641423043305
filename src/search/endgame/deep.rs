//! The deep search, above [`PARITY_EMPTIES`] empties: negascout over the
//! moves sorted fastest-first, with the transposition table, enhanced
//! transposition cutoffs, stability cutoffs and (selective solves) probcut;
//! and the root of every solve.

use super::{last::*, probcut::*, table::*, *};
use crate::board::MAX_MOVES;

// The key's weights were swept on the nodes of fforum-20-39 and FFO
// #40-#49 (one file each, one process; docs/journal/endgame.md, "FFO #40-#49,
// third generation, evening"), one at a time around the kept values:
// replies 12 / 16 / 20, corner replies 24 / 32 / 40 / 48, potential
// mobility 4 / 5 / 6 / 7 / 8 / 10 / 12, parity 0 / 2 / 4 / 6 / 8 / 16.

/// The root window of a pass after the first: this many discs either
/// side of the previous pass's score, widened on the side it fails (on
/// the tuning bench at 22 empties the passes' nodes fell by about 5%:
/// medians of the 87% and 95% passes 2.21 -> 2.05 M and 4.06 -> 3.89 M;
/// 1 and 4 discs did no better).
const ROOT_ASPIRATION: i32 = 2;
/// Re-searches of the root with a window narrowed around the last failed
/// score before the full window is used: a selective pass's score depends
/// on its window, and without this limit fail-low and fail-high could
/// alternate without end when no deadline stops the solve (found in
/// review, then seen: `referee analyze --exact 22` never finished game 57
/// of issue 47's match, test `the_judges_solves_of_a_game_end`; an exact
/// pass never needs more than two).
const ROOT_RESEARCHES: u32 = 2;
/// Weight of one opponent reply in the fastest-first key.
const MOBILITY_WEIGHT: i32 = 16;
/// Extra weight of an opponent reply on a corner.
const CORNER_REPLY_WEIGHT: i32 = 32;
/// Weight of one empty square next to the mover's discs (the opponent's
/// potential mobility) in the fastest-first key (8 before the evaluation's
/// weight went from 3 to 5).
const POTENTIAL_WEIGHT: i32 = 5;
/// Bonus (subtracted from the key) for a move into an odd quadrant (4
/// before the evaluation's weight went from 3 to 5).
const PARITY_BONUS: i32 = 2;
/// The stability cutoff is tried only when `alpha >= 2 * empties +
/// STABILITY_OFFSET`: below that, the opponent rarely has enough stable
/// discs to bring the bound under `alpha`, and counting them is a waste
/// (the shape of Edax's threshold table; the offset is not tuned here).
const STABILITY_OFFSET: i32 = -2;
/// In a selective pass up to [`LATE_MAX_CUT`] of a solve from
/// [`LATE_ROOT_EMPTIES`] empties up, the moves of a node after its first
/// `LATE_MOVES` (the root's excepted) are first searched at a narrower
/// cut, [`LATE_CUT_PCT`] hundredths of the pass's, from
/// [`LATE_MIN_EMPTIES`] empties up: only a move that fails high there is
/// searched again at the pass's own cut, as late move reductions do with
/// depth (docs/journal/endgame.md, "Late moves at a narrower cut").
const LATE_MOVES: usize = 5;
/// See [`LATE_MOVES`].
const LATE_CUT_PCT: i32 = 55;
/// See [`LATE_MOVES`].
const LATE_MIN_EMPTIES: u32 = 10;
/// See [`LATE_MOVES`]: at 20-21 empties, where the passes finish, the
/// narrower cuts lost more than they saved.
const LATE_ROOT_EMPTIES: u32 = 22;
/// See [`LATE_MOVES`]: only the passes up to this cut (87%) search late
/// moves narrower; the wider ones, whose moves the turn plays when they
/// finish, search every move at their own cut. On the strong-play bench
/// at 22 empties this kept most of the gain of late moves in every pass
/// (docs/journal/endgame.md, "Late moves at a narrower cut, in the narrow passes").
const LATE_MAX_CUT: i32 = 150;

/// A move of the deep search's list: its square, flips and sort key, and
/// the child's shallow value for its own probcut if the sort computed it
/// ([`UNKNOWN`] if not): the child then does not search it again.
#[derive(Clone, Copy)]
struct Candidate {
    key: i32,
    square: u8,
    flips: u64,
    shallow: i32,
}

impl Default for Candidate {
    fn default() -> Self {
        Candidate {
            key: 0,
            square: 0,
            flips: 0,
            shallow: UNKNOWN,
        }
    }
}

impl Solver {
    /// One search of `board` from the root, with the current `probcut`.
    /// When it does not finish (`Err`): the move it proved better than the
    /// previous pass's, with its score (or a lower bound of it), if any.
    pub(super) fn root(
        &mut self,
        board: &Board,
        moves: Bitboard,
        wld: bool,
    ) -> Result<Solution, Option<(Square, i32)>> {
        let (p, o) = (board.player, board.opponent);
        let n = board.empty_count();
        let (alpha, beta) = if wld { (-1, 1) } else { (-INF, INF) };
        let mut list = [Candidate::default(); MAX_MOVES];
        let count = Self::list_moves(p, o, moves.0, &mut list);
        if let Some(s) = self.table.probe(p, o) {
            put_first(&mut list[..count], s.best);
        }
        // Around the previous pass's score (aspiration), widened on the
        // side it fails: a narrow window first costs fewer nodes. A
        // selective pass's score depends on its window (probcut returns
        // its bounds), so a re-search could fail low, then high, then low
        // again: after `ROOT_RESEARCHES` the window is the full one.
        let mut researches = 0;
        let last = self.passes.last().copied();
        let previous = last.map(|p| p.best.index() as u8);
        // A move the first window proved better than the previous pass's
        // (by failing high above it), kept for a stop in the re-search.
        let mut proven = None;
        let (mut lo, mut hi) = match last {
            Some(prev) if !wld => (
                (prev.score - ROOT_ASPIRATION).max(alpha),
                (prev.score + ROOT_ASPIRATION).min(beta),
            ),
            _ => (alpha, beta),
        };
        let (score, best) = loop {
            let (score, best, _) = if self.isa.is_fast() {
                self.search_list::<true>(p, o, lo, hi, n, &mut list[..count], false)
            } else {
                self.search_list::<false>(p, o, lo, hi, n, &mut list[..count], false)
            };
            if self.aborted {
                // Stopped in the first window, after the previous pass's
                // move was searched first: a move with a score above `lo`,
                // searched in full since or proven above the best so far
                // by its null window (`search_list` then gives that bound),
                // beats it by this pass (the previous move scored at most
                // `lo`, or exactly and less). After a re-search the first
                // move is no longer the previous pass's, and a score at
                // most `lo` is only a bound: neither tells which move is
                // better, but a move the first window proved better is.
                let first = list[0].square;
                let anchored = researches == 0 && !wld && previous == Some(first);
                return Err((anchored && best < 64 && best != first && score > lo)
                    .then(|| (Square::new(best), score))
                    .or(proven));
            }
            if best >= 64 {
                return Err(None);
            }
            let (low, high) = (score <= lo && lo > alpha, score >= hi && hi < beta);
            if !low && !high {
                break (score, best);
            }
            if high && researches == 0 && !wld && previous == Some(list[0].square) {
                // Another move failed high above the previous pass's, which
                // scored below `hi`: proven better, unless a re-search says
                // otherwise (a selective pass's bounds depend on its window).
                proven = (best != list[0].square).then(|| (Square::new(best), score));
            } else if low {
                proven = None;
            }
            (lo, hi) = if researches == ROOT_RESEARCHES {
                (alpha, beta)
            } else if low {
                (alpha, score + 1)
            } else {
                (score - 1, beta)
            };
            researches += 1;
            put_first(&mut list[..count], best);
        };
        if n >= TT_MIN_EMPTIES && self.techniques.table {
            self.table.store(
                p,
                o,
                -64,
                64,
                best,
                self.date,
                level(self.probcut) | self.flag(),
            );
        }
        Ok(Solution {
            best: Square::new(best),
            score: if wld { score.signum() } else { score },
            nodes: self.nodes,
            cut: self.probcut,
        })
    }

    /// Negascout over the moves of `list`, lowest `(key, square)` first:
    /// the best score (fail-soft) and its move (64 if `list` is empty);
    /// at the root (`!cut_here`), when the deadline stops the re-search of
    /// a move whose null window failed high, that move and its null
    /// window's bound. The
    /// first move gets the full window, the others a null window, widened
    /// again when one beats `alpha`. `FAST` only when `self.isa` is fast.
    /// Each move is picked from the rest as its turn comes (a selection
    /// sort), so a cut at the first move leaves the others unsorted. With
    /// `cut_here`, a selective solve's second probcut, on the value the
    /// sort made, may end it: the third value is then true, the score is
    /// that cut's bound and the move means nothing.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn search_list<const FAST: bool>(
        &mut self,
        p: u64,
        o: u64,
        mut alpha: i32,
        beta: i32,
        n: u32,
        list: &mut [Candidate],
        cut_here: bool,
    ) -> (i32, u8, bool) {
        let mut best = -INF;
        let mut best_move = 64u8;
        for i in 0..list.len() {
            // The keys are made when the table's move (first, if any) did
            // not cut: a cut there saves them all.
            if i == usize::from(list[0].key == TABLE_MOVE) {
                let value = self.set_keys(p, o, n, list, i, cut_here);
                if value != UNKNOWN {
                    let rule = self.rule(&self.sorted_rules, n);
                    if let Some(cut) = probcut_bound(p, o, alpha, beta, rule, value) {
                        // The calibration's record: not in the submission.
                        #[cfg(not(cargo_equip))]
                        self.note_cut(p, o, cut.bound, cut.bound >= beta);
                        self.hold_to(cut);
                        return (cut.bound, best_move, true);
                    }
                }
            }
            let mut m = i;
            for j in i + 1..list.len() {
                if (list[j].key, list[j].square) < (list[m].key, list[m].square) {
                    m = j;
                }
            }
            list.swap(i, m);
            let c = list[i];
            let (np, no) = (o ^ c.flips, p ^ c.flips ^ 1u64 << c.square);
            let shallow = c.shallow;
            let score = if i == 0 || !self.techniques.negascout {
                -self.search::<FAST>(np, no, -beta, -alpha, n - 1, shallow)
            } else {
                // A late move first at a narrower cut ([`LATE_MOVES`]; a
                // narrowed subtree stays as narrow). `self.late` is only set
                // in a selective pass ([`Solver::late_pass`]).
                let late = self.late
                    && i >= LATE_MOVES
                    && n >= LATE_MIN_EMPTIES
                    && cut_here
                    && !self.narrow;
                self.narrow |= late;
                let mut s = -self.search::<FAST>(np, no, -alpha - 1, -alpha, n - 1, shallow);
                if late {
                    self.narrow = false;
                    if s > alpha {
                        s = -self.search::<FAST>(np, no, -alpha - 1, -alpha, n - 1, shallow);
                    }
                }
                if s > alpha && s < beta {
                    if self.aborted {
                        return (best, best_move, false);
                    }
                    let full = -self.search::<FAST>(np, no, -beta, -s, n - 1, shallow);
                    if self.aborted && !cut_here {
                        // At the root, stopped in the re-search of a move
                        // whose null window proved it above `alpha`: that
                        // bound and move are the result ([`Solver::root`]).
                        return (s, c.square, false);
                    }
                    full
                } else {
                    s
                }
            };
            if self.aborted {
                return (best, best_move, false);
            }
            if score > best {
                best = score;
                best_move = c.square;
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        (best, best_move, false)
    }

    /// Dispatches on the number of empties `n`; `shallow` is the
    /// position's shallow value for its probcut, or [`UNKNOWN`].
    #[inline(always)]
    fn search<const FAST: bool>(
        &mut self,
        p: u64,
        o: u64,
        alpha: i32,
        beta: i32,
        n: u32,
        shallow: i32,
    ) -> i32 {
        if n <= PARITY_EMPTIES && self.techniques.shallow {
            let empties = !(p | o);
            if n == 1 {
                self.nodes += 1;
                return last1(p, o, empties.trailing_zeros() as usize);
            }
            if n == 2 {
                return self.last2(p, o, beta, empties);
            }
            if n == 3 {
                return self.last3(p, o, alpha, beta, empties);
            }
            self.shallow_child::<FAST>(p, o, alpha, beta, empties, parity_of(empties), n)
        } else {
            self.deep_child::<FAST>(p, o, alpha, beta, n, shallow)
        }
    }

    /// [`Solver::deep`] in the caller's instruction set.
    #[inline(always)]
    #[allow(unsafe_code)]
    fn deep_child<const FAST: bool>(
        &mut self,
        p: u64,
        o: u64,
        alpha: i32,
        beta: i32,
        n: u32,
        shallow: i32,
    ) -> i32 {
        #[cfg(target_arch = "x86_64")]
        if FAST {
            // SAFETY: `FAST` is true only below `solve`'s branch on
            // `self.isa.is_fast()`, so the CPU has every feature `deep_fast`
            // enables. Gain: see docs/endgame.md (dispatch).
            return unsafe { self.deep_fast(p, o, alpha, beta, n, shallow) };
        }
        self.deep_portable(p, o, alpha, beta, n, shallow)
    }

    fn deep_portable(
        &mut self,
        p: u64,
        o: u64,
        alpha: i32,
        beta: i32,
        n: u32,
        shallow: i32,
    ) -> i32 {
        self.deep::<false>(p, o, alpha, beta, n, shallow)
    }

    fast_fn! {
        fn deep_fast(&mut self, p: u64, o: u64, alpha: i32, beta: i32, n: u32, shallow: i32) -> i32 {
            self.deep::<true>(p, o, alpha, beta, n, shallow)
        }
    }

    /// Negascout with move sorting, table and stability cutoffs; `shallow`
    /// is the position's shallow value for its probcut if the parent's sort
    /// computed it, else [`UNKNOWN`]. The level its search holds to bounds
    /// its parent's ([`Solver::valid`]).
    #[inline(always)]
    fn deep<const FAST: bool>(
        &mut self,
        p: u64,
        o: u64,
        alpha: i32,
        beta: i32,
        n: u32,
        shallow: i32,
    ) -> i32 {
        let outer = std::mem::replace(&mut self.valid, EXACT_LEVEL);
        let score = self.deep_node::<FAST>(p, o, alpha, beta, n, shallow);
        self.valid = self.valid.min(outer);
        score
    }

    /// [`Solver::deep`]'s search of one node.
    #[inline(always)]
    fn deep_node<const FAST: bool>(
        &mut self,
        p: u64,
        o: u64,
        mut alpha: i32,
        mut beta: i32,
        n: u32,
        shallow: i32,
    ) -> i32 {
        self.nodes += 1;
        if self.nodes >= self.next_check {
            self.next_check = self.nodes + NODES_PER_CLOCK_CHECK;
            if self.deadline.hard_passed() || self.nodes >= self.node_limit {
                self.aborted = true;
            }
        }
        if self.aborted {
            return 0;
        }
        if n == 0 {
            return final_score(p, o);
        }
        let t = self.techniques;
        if t.stability && alpha >= 2 * n as i32 + STABILITY_OFFSET {
            let bound = 64 - 2 * stable_discs(o, p).count_ones() as i32;
            if bound <= alpha {
                return bound;
            }
        }
        let use_table = t.table && n >= TT_MIN_EMPTIES;
        let level = level(self.cut());
        let mut table_move = 64u8;
        if use_table {
            if let Some(s) = self.table.probe(p, o) {
                table_move = s.best;
                // Bounds of a lower level (a narrower cut) are not trusted:
                // an exact solve uses only proven ones.
                let (lower, upper) = if !self.trusts(s.level, level) {
                    (-64, 64)
                } else {
                    let bounds = (i32::from(s.lower), i32::from(s.upper));
                    if bounds.0 > alpha || bounds.1 < beta {
                        self.rest_on(s.level);
                    }
                    bounds
                };
                if lower >= beta || lower == upper {
                    return lower;
                }
                if upper <= alpha {
                    return upper;
                }
                alpha = alpha.max(lower);
                beta = beta.min(upper);
            }
        }
        let moves = kernels::moves(p, o);
        if moves == 0 {
            if kernels::moves(o, p) == 0 {
                return final_score(p, o);
            }
            return -self.deep_child::<FAST>(o, p, -beta, -alpha, n, UNKNOWN);
        }
        if self.probcut.is_some() && n >= PROBCUT_MIN_EMPTIES {
            let rule = self.rule(&self.cut_rules, n);
            let known = if t.hand_down { shallow } else { UNKNOWN };
            if let Some(cut) = probcut_bound(p, o, alpha, beta, rule, known) {
                // The calibration's record: not in the submission.
                #[cfg(not(cargo_equip))]
                self.note_cut(p, o, cut.bound, cut.bound >= beta);
                self.hold_to(cut);
                return cut.bound;
            }
        }
        let mut list = [Candidate::default(); MAX_MOVES];
        let count = Self::list_moves(p, o, moves, &mut list);
        if use_table && n >= ETC_MIN_EMPTIES {
            // Enhanced transposition cutoff: a child whose stored upper
            // bound already refutes it proves a cutoff here.
            for c in &list[..count] {
                let (np, no) = (o ^ c.flips, p ^ c.flips ^ 1u64 << c.square);
                if let Some(s) = self.table.probe(np, no) {
                    if self.trusts(s.level, level) && -i32::from(s.upper) >= beta {
                        self.rest_on(s.level);
                        return -i32::from(s.upper);
                    }
                }
            }
        }
        put_first(&mut list[..count], table_move);
        let (best, best_move, cut) =
            self.search_list::<FAST>(p, o, alpha, beta, n, &mut list[..count], true);
        if self.aborted {
            return 0;
        }
        if cut {
            return best;
        }
        if use_table {
            let (lower, upper) = if best >= beta {
                (best, 64)
            } else if best > alpha {
                (best, best)
            } else {
                (-64, best)
            };
            // A search that met no selective result proved its bounds;
            // else they hold up to the widest cut that would have made the
            // same cuts, unless a late pass's search was held below its
            // own level (flagged, as all its bounds were before).
            let level = if !t.proven_subtrees {
                level | self.flag()
            } else if self.valid == EXACT_LEVEL {
                EXACT_LEVEL
            } else if self.late && self.valid < level {
                level | self.flag()
            } else {
                self.valid.max(level)
            };
            self.table
                .store(p, o, lower, upper, best_move, self.date, level);
        }
        best
    }

    /// Fills `list` with `moves` and their flips (keys come later, from
    /// [`Solver::set_keys`]) and returns their count.
    #[inline(always)]
    fn list_moves(p: u64, o: u64, moves: u64, list: &mut [Candidate]) -> usize {
        let mut count = 0;
        let mut rest = moves;
        while rest != 0 {
            let sq = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            list[count] = Candidate {
                key: 0,
                square: sq as u8,
                flips: kernels::flips(p, o, sq),
                shallow: UNKNOWN,
            };
            count += 1;
        }
        count
    }

    /// The fastest-first keys of the moves of `list` from `from` on (left
    /// as they were without that technique or at [`PARITY_EMPTIES`] and
    /// fewer). A child's evaluation or shallow search that its probcut
    /// needs is kept for it ([`Candidate::shallow`]). With `cut` in a
    /// selective solve and [`Techniques::sorted_cut`], the value the
    /// children's make one ply deeper ([`sorted_depth`]) is returned for
    /// the second probcut (the move before `from`, searched already, is
    /// valued and keyed too: harmless), else [`UNKNOWN`] (also below the
    /// sort's evaluation, [`Solver::eval_order_empties`]).
    #[inline(always)]
    fn set_keys(
        &self,
        p: u64,
        o: u64,
        n: u32,
        list: &mut [Candidate],
        from: usize,
        cut: bool,
    ) -> i32 {
        if !self.techniques.fastest_first || n <= PARITY_EMPTIES {
            return UNKNOWN;
        }
        let valued =
            cut && self.probcut.is_some() && self.techniques.sorted_cut && n >= PROBCUT_MIN_EMPTIES;
        let list = &mut list[if valued { 0 } else { from }..];
        // The children's probcut (in a selective solve) searches to this
        // depth.
        let cut_depth = u32::from(self.cut_rules[n as usize - 1].depth);
        let parity = if self.techniques.parity {
            PARITY_MASK[parity_of(!(p | o)) as usize]
        } else {
            0
        };
        for c in list.iter_mut() {
            let (flips, bit) = (c.flips, 1u64 << c.square);
            let replies = kernels::moves(o ^ flips, p ^ flips ^ bit);
            let corners = (replies & Bitboard::CORNERS.0).count_ones() as i32;
            let mine = p ^ flips ^ bit;
            let potential = (kernels::neighbours(mine) & !(mine | o ^ flips)).count_ones() as i32;
            c.key = replies.count_ones() as i32 * MOBILITY_WEIGHT
                + corners * CORNER_REPLY_WEIGHT
                + potential * POTENTIAL_WEIGHT
                - PARITY_BONUS * i32::from(parity & bit != 0);
        }
        // A loop of its own: with the evaluation inside it, the loop above
        // compiled its `moves` without the vector instructions (callgrind:
        // +11.6 G instructions on FFO #45, 100.9 -> 108.5 G).
        // The evaluation term takes the opponent's view of the child: lower
        // is better.
        if !self.techniques.eval_order || n < self.eval_order_empties() {
            return UNKNOWN;
        }
        // Each child's evaluation, or from [`SORT_SEARCH_EMPTIES`] an
        // evaluated search from it: one ply less than `sorted_depth`.
        let depth = sorted_depth(n) - 1;
        let children =
            (depth == 0).then(|| crate::eval::pattern::tables().children(&Board::new(p, o)));
        let window = INF * SCALE;
        // The lowest of the children's values, from their side.
        let mut lowest = i32::MAX;
        for c in list {
            let v = match &children {
                Some(children) => children.evaluate(usize::from(c.square), c.flips),
                None => {
                    let (np, no) = (o ^ c.flips, p ^ c.flips ^ 1u64 << c.square);
                    eval_search(np, no, depth, -window, window)
                }
            };
            c.key += v * EVAL_ORDER_WEIGHT / SCALE;
            if depth == cut_depth {
                c.shallow = v;
            }
            lowest = lowest.min(v);
        }
        // A valued list holds every move: `lowest` is one of them.
        if valued {
            -lowest
        } else {
            UNKNOWN
        }
    }

    /// Whether a pass at `cut` of a solve from `empties` searches its late
    /// moves at a narrower cut ([`LATE_MOVES`]).
    pub(super) fn late_pass(&self, empties: u32, cut: Option<i32>) -> bool {
        self.techniques.late_cut
            && empties >= LATE_ROOT_EMPTIES
            && cut.is_some_and(|c| c <= LATE_MAX_CUT)
    }

    /// The table flag of this solve's selective bounds held below its
    /// level: a solve with late moves at a narrower cut ([`LATE_MOVES`])
    /// marks them with [`LATE_FLAG`], so that a solve without trusts none
    /// of them.
    #[inline(always)]
    fn flag(&self) -> u8 {
        if self.late && self.probcut.is_some() {
            LATE_FLAG
        } else {
            0
        }
    }

    /// Whether this solve, at table level `level`, trusts the bounds of an
    /// entry of level `entry`: proven ones always; selective ones of at
    /// least its level, a flagged one ([`Solver::flag`]) only in a solve
    /// with late moves.
    #[inline(always)]
    fn trusts(&self, entry: u8, level: u8) -> bool {
        entry == EXACT_LEVEL
            || if self.late {
                entry & !LATE_FLAG >= level
            } else {
                entry & LATE_FLAG == 0 && entry >= level
            }
    }

    /// Holds the current node's search to the widest cut at which `cut`
    /// would still be made ([`Solver::valid`]): the highest level whose
    /// every cut (up to nine more than ten times the level) is within its
    /// reach.
    #[inline(always)]
    fn hold_to(&mut self, cut: ProbCut) {
        let pass = self.cut().unwrap_or(0);
        let widest = pass.saturating_mul(cut.reach_pct) / 100;
        self.valid = self.valid.min(level(Some(widest - 9)));
    }

    /// Holds the current node's search to the level of a table entry
    /// whose bounds it used ([`Solver::valid`]): none for proven ones; a
    /// flagged one ([`LATE_FLAG`], held below its late pass's level) keeps
    /// the node's bounds flagged too.
    #[inline(always)]
    fn rest_on(&mut self, entry: u8) {
        if entry != EXACT_LEVEL {
            let held = if entry & LATE_FLAG != 0 { 0 } else { entry };
            self.valid = self.valid.min(held);
        }
    }

    /// The pass's cut, narrowed in a late move's first search
    /// ([`LATE_MOVES`]).
    #[inline(always)]
    fn cut(&self) -> Option<i32> {
        self.probcut.map(|c| {
            if self.narrow {
                c * LATE_CUT_PCT / 100
            } else {
                c
            }
        })
    }

    /// The rule of `rules` at `n` empties, its margin narrowed in a late
    /// move's first search.
    #[inline(always)]
    fn rule(&self, rules: &[CutRule; 61], n: u32) -> CutRule {
        let mut r = rules[n as usize];
        if self.narrow {
            r.margin = r.margin * LATE_CUT_PCT / 100;
        }
        r
    }

    /// From this many empties up the fastest-first key weighs the child's
    /// evaluation: [`SELECTIVE_EVAL_ORDER_EMPTIES`] in a selective solve,
    /// else [`EVAL_ORDER_EMPTIES`].
    #[inline(always)]
    fn eval_order_empties(&self) -> u32 {
        if self.probcut.is_some() {
            SELECTIVE_EVAL_ORDER_EMPTIES
        } else {
            EVAL_ORDER_EMPTIES
        }
    }
}

/// Puts the move on `square` (the table's), if listed, first, and gives it
/// the key [`TABLE_MOVE`]: it is searched before the others get their keys
/// (and keeps it, but for a selective solve's second cut).
#[inline(always)]
fn put_first(list: &mut [Candidate], square: u8) {
    if let Some(i) = list.iter().position(|c| c.square == square) {
        list.swap(0, i);
        list[0].key = TABLE_MOVE;
    }
}

/// The key of the table's move: below any other.
const TABLE_MOVE: i32 = i32::MIN;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    /// The value the sort gives a node for its second probcut is the
    /// full-window evaluated search one ply deeper than the children's
    /// values (`sorted_depth`), whether the table's move was searched
    /// before the sort or not; outside a selective solve, or with the
    /// technique off, there is none.
    #[test]
    fn the_sort_values_a_node_as_the_deeper_search_would() {
        let mut rng = Rng::seed_from_u64(49);
        let mut solver = Solver::with_table_bits(Deadline::unlimited(), 10);
        let mut checked = 0;
        for _ in 0..30 {
            let game = crate::search::playout::random_game(&Board::start(), &mut rng);
            for b in game.iter().filter(|b| (9..=23).contains(&b.empty_count())) {
                let (p, o, n) = (b.player, b.opponent, b.empty_count());
                let moves = kernels::moves(p, o);
                if moves == 0 {
                    continue;
                }
                let window = INF * SCALE;
                let deeper = eval_search(p, o, sorted_depth(n), -window, window);
                for (cut, sorted_cut) in [(Some(200), true), (None, true), (Some(200), false)] {
                    solver.probcut = cut;
                    solver.cut_rules = cut_rules(200);
                    solver.techniques.sorted_cut = sorted_cut;
                    for from in 0..2 {
                        let mut list = [Candidate::default(); MAX_MOVES];
                        let count = Solver::list_moves(p, o, moves, &mut list);
                        let from = from.min(count);
                        let value = solver.set_keys(p, o, n, &mut list[..count], from, true);
                        let expected = if cut.is_some() && sorted_cut {
                            deeper
                        } else {
                            UNKNOWN
                        };
                        assert_eq!(value, expected, "{b} cut {cut:?} from {from}");
                        checked += 1;
                    }
                }
            }
        }
        assert!(checked > 1000, "{checked}");
    }

    /// Checks a slot's proven bounds against `exact`'s solve of its
    /// position (stored positions have a move).
    fn assert_proven(exact: &mut Solver, p: u64, o: u64, slot: Slot) {
        let b = Board::new(p, o);
        let score = exact
            .solve(&b, b.moves(), false)
            .expect("no deadline")
            .score;
        assert!(
            i32::from(slot.lower) <= score && score <= i32::from(slot.upper),
            "{b}: proven {}..={}, exact {score}",
            slot.lower,
            slot.upper
        );
    }

    /// The bounds a selective solve stores as proven (their search met no
    /// cut and no selective bound) are the exact score's, and it stores
    /// many; without the technique it stores none. With it, many other
    /// bounds take levels that the same solve without it never stores
    /// (the widest cut that would have made the same cuts).
    #[test]
    fn a_selective_solve_stores_proven_bounds_only_where_nothing_was_cut() {
        let mut rng = Rng::seed_from_u64(61);
        let mut exact = Solver::with_table_bits(Deadline::unlimited(), 16);
        let (mut proven, mut wider) = (0, 0);
        for game in 0..16 {
            let boards = crate::search::playout::random_game(&Board::start(), &mut rng);
            let Some(board) = boards.iter().find(|b| b.empty_count() == 18) else {
                continue;
            };
            let moves = board.moves();
            if moves.is_empty() {
                continue;
            }
            let cut = [50, 110, 150, 200][game % 4];
            let mut levels = Vec::new();
            for on in [false, true] {
                let mut solver = Solver::with_table_bits(Deadline::unlimited(), 16);
                solver.techniques.proven_subtrees = on;
                solver
                    .solve_selective(board, moves, cut)
                    .expect("no deadline");
                for (p, o, slot) in solver.table.entries() {
                    if slot.level != EXACT_LEVEL {
                        if !on {
                            levels.push(slot.level);
                        } else if !levels.contains(&slot.level) {
                            wider += 1;
                        }
                        continue;
                    }
                    assert!(on, "{board} cut {cut}: proven bounds without the technique");
                    assert_proven(&mut exact, p, o, slot);
                    proven += 1;
                }
            }
        }
        assert!(
            proven > 10_000 && wider > 1_000,
            "{proven} proven, {wider} wider"
        );
    }

    /// A node whose result rests on a selective bound from the table (read
    /// by its own probe, or by its enhanced transposition cutoff) is not
    /// stored as proven: false bounds planted two or three plies below the
    /// root, at a level the pass trusts, leave no false proven bound.
    #[test]
    fn a_result_resting_on_selective_bounds_is_not_proven() {
        let mut rng = Rng::seed_from_u64(62);
        let mut exact = Solver::with_table_bits(Deadline::unlimited(), 16);
        let mut checked = [0; 2];
        for game in 0..40 {
            // Below a root at 10 empties the planted bounds are probed (9 <
            // ETC_MIN_EMPTIES); below one at 14, read by ETC.
            let empties = [10, 14][game % 2];
            let boards = crate::search::playout::random_game(&Board::start(), &mut rng);
            let Some(board) = boards.iter().find(|b| b.empty_count() == empties) else {
                continue;
            };
            if board.moves().is_empty() {
                continue;
            }
            let mut solver = Solver::with_table_bits(Deadline::unlimited(), 16);
            // Two plies down at 10 empties, three at 14 (the grandchildren
            // at 12 cut by ETC and store nothing; their parents store).
            let mut planted = vec![*board];
            for _ in 0..[2, 3][game % 2] {
                planted = planted
                    .iter()
                    .flat_map(|b| b.moves().squares().map(|sq| b.play(sq)))
                    .collect();
            }
            for b in &planted {
                solver
                    .table
                    .store(b.player, b.opponent, -64, -64, 64, 0, 100);
            }
            solver
                .solve_selective(board, board.moves(), 200)
                .expect("no deadline");
            for (p, o, slot) in solver.table.entries() {
                if slot.level == EXACT_LEVEL {
                    assert_proven(&mut exact, p, o, slot);
                    checked[game % 2] += 1;
                }
            }
        }
        assert!(checked.iter().all(|&c| c > 20), "{checked:?}");
    }

    /// Late moves are searched narrower in the passes up to
    /// [`LATE_MAX_CUT`] of solves from [`LATE_ROOT_EMPTIES`] empties, and
    /// in no other pass or solve, nor with the technique off.
    #[test]
    fn only_the_narrow_passes_of_solves_from_22_empties_have_late_moves() {
        let mut solver = Solver::with_table_bits(Deadline::unlimited(), 10);
        for (empties, cut, late) in [
            (LATE_ROOT_EMPTIES, Some(50), true),
            (LATE_ROOT_EMPTIES + 3, Some(LATE_MAX_CUT), true),
            (LATE_ROOT_EMPTIES, Some(LATE_MAX_CUT + 1), false),
            (LATE_ROOT_EMPTIES, Some(233), false),
            (LATE_ROOT_EMPTIES, None, false),
            (LATE_ROOT_EMPTIES - 1, Some(110), false),
        ] {
            assert_eq!(solver.late_pass(empties, cut), late, "{empties} {cut:?}");
        }
        solver.techniques.late_cut = false;
        assert!(!solver.late_pass(LATE_ROOT_EMPTIES, Some(50)));
    }

    /// A solve with late moves marks its selective bounds; a solve without
    /// trusts none of them, a solve with trusts both kinds at its level or
    /// above, and every solve trusts proven bounds. A late move's first
    /// search cuts at [`LATE_CUT_PCT`] hundredths of the pass's cut, its
    /// rules' margins as narrow.
    #[test]
    fn late_bounds_stay_with_late_solves() {
        let mut solver = Solver::with_table_bits(Deadline::unlimited(), 10);
        solver.probcut = Some(200);
        solver.cut_rules = cut_rules(200);
        let plain = level(Some(200));
        for late in [false, true] {
            solver.late = late;
            let flagged = plain | solver.flag();
            assert_eq!(flagged & LATE_FLAG != 0, late);
            assert!(solver.trusts(EXACT_LEVEL, plain));
            assert!(solver.trusts(flagged, plain));
            assert!(solver.trusts(plain, plain));
            assert_eq!(solver.trusts(plain | LATE_FLAG, plain), late);
            assert!(!solver.trusts((plain - 1) | solver.flag(), plain));
        }
        solver.probcut = None;
        assert_eq!(solver.flag(), 0, "proven bounds carry no flag");
        solver.probcut = Some(200);
        let wide = solver.rule(&solver.cut_rules, 20);
        assert_eq!(solver.cut(), Some(200));
        solver.narrow = true;
        assert_eq!(solver.cut(), Some(200 * LATE_CUT_PCT / 100));
        let narrow = solver.rule(&solver.cut_rules, 20);
        assert_eq!(narrow.margin, wide.margin * LATE_CUT_PCT / 100);
        assert!(narrow.margin < wide.margin);
    }
}

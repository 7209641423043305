//! What an analysis says about a match (`referee report --analysis`,
//! `referee summary --analysis`): each bot's mean loss per move by game
//! phase and by the empties before the move, its mistakes and each game's turning point (the chart of the
//! judge's value over a game is drawn by [`crate::html::judge_chart`]).

use crate::files::analysis_file::{GameAnalysis, MoveVerdict};
use crate::files::record::Side;
use serde::Serialize;

/// A move that loses at least this many discs (by the judge) is a mistake,
/// marked on the game's chart and counted by phase.
pub const MISTAKE_DISCS: f64 = 2.0;
/// The phases, by move number (the opening's moves counted): 1-20, 21-40,
/// 41-60, as in the think-time report.
pub const PHASES: [&str; 3] = ["1-20", "21-40", "41-60"];
/// Moves per phase.
const PHASE_MOVES: usize = 20;

/// The buckets of empties before a move when `--empties-buckets` is not
/// given: the opening (60-41), the midgame (40-27), the positions before
/// the bot's solves (26-23), its selective solves to the end (22-21) and
/// its exact solves (20-1).
pub const DEFAULT_EMPTIES_BUCKETS: &str = "60-41,40-27,26-23,22-21,20-1";

/// The empty squares before move number `n` (from 1, as in
/// [`crate::files::analysis_file::MoveVerdict::n`]): 60 before the first.
/// The move number counts the discs placed (the opening's moves and the
/// bots', passes not, as a pass places none), so before move `n` the board
/// holds `n + 3` discs: `61 - n` empties whatever the passes.
pub fn empties_before(n: usize) -> u32 {
    61u32.saturating_sub(u32::try_from(n).unwrap_or(u32::MAX))
}

/// Buckets of empties before a move (`--empties-buckets`), each from more
/// empties to fewer, the buckets in that order and apart. A move whose
/// empties are in no bucket is counted in none.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EmptiesBuckets(Vec<(u32, u32)>);

impl EmptiesBuckets {
    /// Reads `A-B,C-D,...` (`N` alone: `N-N`), each bucket from `A`
    /// empties down to `B`, 60 >= A >= B >= 1.
    ///
    /// # Errors
    /// What is wrong, with the bucket: not numbers from 1 to 60, a bucket
    /// from fewer empties to more, or buckets out of order or overlapping.
    pub fn parse(text: &str) -> Result<EmptiesBuckets, String> {
        let mut buckets: Vec<(u32, u32)> = Vec::new();
        for part in text.split(',') {
            let (a, b) = part.split_once('-').unwrap_or((part, part));
            let count = |s: &str| s.trim().parse().ok().filter(|n| (1..=60).contains(n));
            let (Some(most), Some(fewest)) = (count(a), count(b)) else {
                return Err(format!(
                    "{part:?} is not a bucket of empties: A-B, from 60 >= A to B >= 1 \
                     (the default: {DEFAULT_EMPTIES_BUCKETS})"
                ));
            };
            if most < fewest {
                return Err(format!(
                    "{part:?}: a bucket goes from more empties to fewer ({fewest}-{most})"
                ));
            }
            if let Some(&(before, last)) = buckets.last() {
                if most >= last {
                    return Err(format!(
                        "{part:?} after {before}-{last}: the buckets go from more empties \
                         to fewer, without overlapping"
                    ));
                }
            }
            buckets.push((most, fewest));
        }
        Ok(EmptiesBuckets(buckets))
    }

    /// The bucket of a move with `empties` empties before it.
    pub fn bucket(&self, empties: u32) -> Option<usize> {
        self.0
            .iter()
            .position(|&(most, fewest)| (fewest..=most).contains(&empties))
    }

    /// The buckets' names, as given: `60-41`, ...
    pub fn names(&self) -> Vec<String> {
        self.0
            .iter()
            .map(|&(most, fewest)| {
                if most == fewest {
                    most.to_string()
                } else {
                    format!("{most}-{fewest}")
                }
            })
            .collect()
    }
}

impl Default for EmptiesBuckets {
    fn default() -> EmptiesBuckets {
        EmptiesBuckets::parse(DEFAULT_EMPTIES_BUCKETS).expect("the default buckets are valid")
    }
}

impl Serialize for EmptiesBuckets {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.names().serialize(s)
    }
}

/// The phase of move number `n` (from 1).
pub fn phase(n: usize) -> usize {
    (n.saturating_sub(1) / PHASE_MOVES).min(PHASES.len() - 1)
}

/// One bot's losses in one phase.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct PhaseLoss {
    /// Moves judged.
    pub moves: u64,
    /// Their losses summed, in discs.
    pub loss: f64,
    /// Moves that lost [`MISTAKE_DISCS`] or more.
    pub mistakes: u64,
    /// Moves the judge proved gave the game's result away (a win turned
    /// into a draw or a loss, a draw into a loss): counted only where its
    /// verdict is exact, since an estimate's sign is not a result.
    pub results: u64,
}

impl PhaseLoss {
    /// Counts one move.
    fn count(&mut self, m: &MoveVerdict) {
        self.moves += 1;
        self.loss += m.loss;
        self.mistakes += u64::from(m.loss >= MISTAKE_DISCS);
        self.results += u64::from(gives_result_away(m));
    }

    /// The mean loss per move, `None` without moves.
    pub fn mean(&self) -> Option<f64> {
        (self.moves > 0).then(|| self.loss / self.moves as f64)
    }
}

/// Where a game was decided: the move after which the judge's value, from
/// the eventual winner's side, stayed above 0 to the end.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct TurningPoint {
    /// Its move number.
    pub n: usize,
    /// Who played it.
    pub by: Side,
    /// Its loss.
    pub loss: f64,
}

/// The losses and turning points of the games analysed so far.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MatchLosses {
    /// Games counted.
    pub games: u64,
    /// p1's and p2's losses by phase.
    pub phases: [[PhaseLoss; 3]; 2],
    /// The buckets of empties before a move (serialized as their names).
    pub empties_buckets: EmptiesBuckets,
    /// p1's and p2's losses by bucket of empties before the move.
    pub empties: [Vec<PhaseLoss>; 2],
    /// Decisive games (on the board) by the phase of their turning point.
    pub turning_points: [u64; 3],
    /// Decisive games whose loser was behind from its first judged
    /// position on (no turning point among the bots' moves).
    pub lost_from_the_start: u64,
}

impl Default for MatchLosses {
    fn default() -> MatchLosses {
        MatchLosses::new(EmptiesBuckets::default())
    }
}

impl MatchLosses {
    /// No game yet; losses by empties in `buckets`.
    pub fn new(buckets: EmptiesBuckets) -> MatchLosses {
        let none = vec![PhaseLoss::default(); buckets.0.len()];
        MatchLosses {
            games: 0,
            phases: [[PhaseLoss::default(); 3]; 2],
            empties_buckets: buckets,
            empties: [none.clone(), none],
            turning_points: [0; 3],
            lost_from_the_start: 0,
        }
    }

    /// Counts one game.
    pub fn add(&mut self, g: &GameAnalysis) {
        self.games += 1;
        for m in &g.moves {
            self.phases[m.by.index()][phase(m.n)].count(m);
            if let Some(k) = self.empties_buckets.bucket(empties_before(m.n)) {
                self.empties[m.by.index()][k].count(m);
            }
        }
        match turning_point(g) {
            Some(Some(t)) => self.turning_points[phase(t.n)] += 1,
            Some(None) => self.lost_from_the_start += 1,
            None => {}
        }
    }

    /// Lines for the terminal summary.
    pub fn text(&self, names: &[String; 2], judge: &str) -> String {
        let mut out = format!(
            "Analysis ({} games, judge: {judge}): mean loss per move in discs, mistakes (>= {MISTAKE_DISCS} discs), \
             results given away (proven: where the judge is exact)\n",
            self.games
        );
        for side in Side::BOTH {
            let all = self.phases[side.index()]
                .iter()
                .fold(PhaseLoss::default(), |a, p| PhaseLoss {
                    moves: a.moves + p.moves,
                    loss: a.loss + p.loss,
                    mistakes: a.mistakes + p.mistakes,
                    results: a.results + p.results,
                });
            out += &format!("{}: all {}\n", names[side.index()], describe(&all));
            for (k, p) in self.phases[side.index()].iter().enumerate() {
                out += &format!("  moves {:>5}: {}\n", PHASES[k], describe(p));
            }
            let names = self.empties_buckets.names();
            for (name, p) in names.iter().zip(&self.empties[side.index()]) {
                out += &format!("  empties {name:>5}: {}\n", describe(p));
            }
        }
        let tp: Vec<String> = PHASES
            .iter()
            .zip(self.turning_points)
            .map(|(name, n)| format!("moves {name}: {n}"))
            .collect();
        out += &format!(
            "Turning points of the decisive games: {}; loser behind at every judged position: {}\n",
            tp.join(", "),
            self.lost_from_the_start
        );
        out
    }
}

fn describe(p: &PhaseLoss) -> String {
    match p.mean() {
        Some(mean) => format!(
            "{:>4} moves  mean loss {mean:5.2}  mistakes {:>3}  results {:>3}",
            p.moves, p.mistakes, p.results
        ),
        None => "   0 moves".into(),
    }
}

/// Whether the judge proved that move `m` gave the result away: its
/// verdict is exact and the move's value has a worse sign than the
/// position's.
pub fn gives_result_away(m: &MoveVerdict) -> bool {
    let sign = |v: f64| i32::from(v > 0.0) - i32::from(v < 0.0);
    m.exact && sign(m.played_value) < sign(m.value)
}

/// The judge's value before each judged move from p1's side, and the
/// game's final result from p1's side (when it ended on the board).
pub fn p1_values(g: &GameAnalysis) -> (Vec<(usize, f64)>, Option<f64>) {
    let view = |by: Side, v: f64| if by == Side::P1 { v } else { -v };
    let values = g.moves.iter().map(|m| (m.n, view(m.by, m.value))).collect();
    let result = g.result_black.map(|r| view(g.black, f64::from(r)));
    (values, result)
}

/// The turning point of a game decided on the board: `None` for a draw or
/// a game decided by a fault; `Some(None)` when the loser's side was below
/// 0 at every judged position; else the move after which the judge's
/// value, from the loser's side, went from 0 or more to below 0 for the
/// last time (and so stayed below to the end).
///
/// The value is read at the loser's turns only: before each of its moves
/// (the position's value), after it (the value of the move played, from
/// the same searches), then the final result. Comparing positions with the
/// same side to move keeps the midgame search's tempo bias (its values
/// zigzag by a disc or two from one side's turn to the other's) out of
/// the comparison. A fall across a loser's move is that move (a loss of
/// more than 0); a fall between two of its turns is the winner's move in
/// between (the first one, if the loser passed nothing), or the loser's
/// last move when the winner played none after it.
pub fn turning_point(g: &GameAnalysis) -> Option<Option<TurningPoint>> {
    let winner = g.winner?;
    let (_, result) = p1_values(g);
    let result = result?;
    let loser = winner.other();
    let final_loser = if loser == Side::P1 { result } else { -result };
    // (value, index of the move that leads to the next entry).
    let mut series: Vec<(f64, usize)> = Vec::new();
    for (i, m) in g.moves.iter().enumerate().filter(|(_, m)| m.by == loser) {
        series.push((m.value, i));
        // After the loser's move: the next move (the winner's) is what
        // leads on, else this one.
        let next = if g.moves.get(i + 1).is_some_and(|n| n.by == winner) {
            i + 1
        } else {
            i
        };
        series.push((m.played_value, next));
    }
    series.push((final_loser, usize::MAX));
    let fall = series
        .windows(2)
        .rposition(|w| w[0].0 >= 0.0 && w[1].0 < 0.0)
        .map(|k| series[k].1);
    Some(fall.map(|i| TurningPoint {
        n: g.moves[i].n,
        by: g.moves[i].by,
        loss: g.moves[i].loss,
    }))
}

#[cfg(test)]
pub mod testing {
    use super::*;

    /// A game with moves from number 9 on, alternately p1 (black) and p2,
    /// whose positions have `values` for the mover and moves `losses`.
    pub fn game(values: &[f64], losses: &[f64], result_black: Option<i32>) -> GameAnalysis {
        let moves = values
            .iter()
            .zip(losses)
            .enumerate()
            .map(|(i, (&value, &loss))| MoveVerdict {
                n: 9 + i,
                by: if i % 2 == 0 { Side::P1 } else { Side::P2 },
                square: "d3".into(),
                best: "c4".into(),
                value,
                played_value: value - loss,
                loss,
                exact: false,
            })
            .collect();
        let winner = result_black.and_then(|r| match r.signum() {
            1 => Some(Side::P1),
            -1 => Some(Side::P2),
            _ => None,
        });
        GameAnalysis {
            game: 1,
            file: "g.jsonl".into(),
            line: 2,
            moves_hash: String::new(),
            black: Side::P1,
            winner,
            result_black,
            moves,
            positions: values.len(),
            ms: 0.0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::testing::game;
    use super::*;

    #[test]
    fn empties_buckets_are_read_and_checked() {
        let b = EmptiesBuckets::default();
        assert_eq!(b.names(), ["60-41", "40-27", "26-23", "22-21", "20-1"]);
        assert_eq!(
            [60, 41, 40, 23, 22, 21, 20, 1].map(|e| b.bucket(e)),
            [
                Some(0),
                Some(0),
                Some(1),
                Some(2),
                Some(3),
                Some(3),
                Some(4),
                Some(4)
            ]
        );
        let b = EmptiesBuckets::parse("30-21,20,12-1").unwrap();
        assert_eq!(b.names(), ["30-21", "20", "12-1"]);
        assert_eq!(
            [31, 20, 15, 12].map(|e| b.bucket(e)),
            [None, Some(1), None, Some(2)]
        );
        for (bad, says) in [
            ("", "\"\" is not a bucket of empties"),
            ("60-41,x", "\"x\" is not a bucket of empties"),
            ("61-1", "\"61-1\" is not a bucket"),
            ("0", "\"0\" is not a bucket"),
            ("20-40", "from more empties to fewer (40-20)"),
            (
                "60-30,40-1",
                "\"40-1\" after 60-30: the buckets go from more empties to fewer",
            ),
            ("20-1,60-21", "\"60-21\" after 20-1"),
        ] {
            let e = EmptiesBuckets::parse(bad).expect_err(bad);
            assert!(e.contains(says), "{bad}: {e}");
        }
    }

    #[test]
    fn the_empties_before_a_move_are_its_boards_passes_and_all() {
        // Random games, replayed as `referee analyze` numbers their moves
        // (an opening of 4, then the bots' moves; passes are not moves).
        let mut rng = othello::rng::Rng::seed_from_u64(44);
        let mut passes = 0;
        for _ in 0..100 {
            let mut game = othello::Game::new();
            let mut moves = Vec::new();
            while !game.is_over() {
                let legal: Vec<othello::Square> = game.board().moves().squares().collect();
                let sq = legal[rng.below(legal.len() as u64) as usize];
                game.play(sq).unwrap();
                moves.push(sq);
            }
            passes += game
                .history()
                .iter()
                .filter(|m| **m == othello::Move::Pass)
                .count();
            let opening: String = moves[..4].iter().map(ToString::to_string).collect();
            crate::judge::analyze::replay(&opening, &moves[4..], |i, board, _| {
                let discs = (board.player | board.opponent).count_ones();
                assert_eq!(empties_before(4 + i + 1), 64 - discs);
            })
            .unwrap();
        }
        assert!(passes > 0, "no pass in the games: the test shows nothing");
        assert_eq!(empties_before(1), 60);
        assert_eq!(empties_before(60), 1);
    }

    #[test]
    fn phases_split_at_moves_20_and_40() {
        assert_eq!(
            [1, 20, 21, 40, 41, 60, 61].map(phase),
            [0, 0, 1, 1, 2, 2, 2]
        );
    }

    #[test]
    fn the_turning_point_is_the_last_fall_of_the_losers_side_below_zero() {
        // Mover's values; p1 (black) moves at 9, 11, 13, p2 at 10, 12, 14.
        // From p2's side (p1 wins by 10): -1, +2, +3, -1, -4, -5, final
        // -10: the last fall below 0 is move 11's (+3 before, -1 after).
        let g = game(&[1.0, 2.0, -3.0, -1.0, 4.0, -5.0], &[0.0; 6], Some(10));
        let t = turning_point(&g).expect("decisive").expect("a fall");
        assert_eq!((t.n, t.by), (11, Side::P1));
        // The loser behind all along.
        let g = game(&[3.0, -3.0, 4.0], &[0.0; 3], Some(6));
        assert_eq!(turning_point(&g), Some(None));
        // The fall at the very end: the last move, into the final result.
        let g = game(&[-1.0, 1.0], &[0.0, 5.0], Some(4));
        let t = turning_point(&g).unwrap().unwrap();
        assert_eq!((t.n, t.by, t.loss), (10, Side::P2, 5.0));
        // Draws and faults have none.
        assert_eq!(turning_point(&game(&[1.0], &[0.0], Some(0))), None);
        assert_eq!(turning_point(&game(&[1.0], &[0.0], None)), None);
    }

    #[test]
    fn only_exact_verdicts_give_a_result_away() {
        let verdict = |value: f64, loss: f64, exact: bool| MoveVerdict {
            n: 45,
            by: Side::P1,
            square: "d3".into(),
            best: "c4".into(),
            value,
            played_value: value - loss,
            loss,
            exact,
        };
        // A win into a draw, a win into a loss, a draw into a loss.
        assert!(gives_result_away(&verdict(2.0, 2.0, true)));
        assert!(gives_result_away(&verdict(2.0, 6.0, true)));
        assert!(gives_result_away(&verdict(0.0, 2.0, true)));
        // Fewer discs, the same result; a best move; an estimate.
        assert!(!gives_result_away(&verdict(20.0, 10.0, true)));
        assert!(!gives_result_away(&verdict(-4.0, 20.0, true)));
        assert!(!gives_result_away(&verdict(2.0, 0.0, true)));
        assert!(!gives_result_away(&verdict(2.0, 6.0, false)));
        // Counted by phase and by empties (move 45 has 16 empties before it).
        let mut g = game(&[0.0], &[0.0], Some(0));
        g.moves = vec![verdict(2.0, 6.0, true), verdict(10.0, 2.0, true)];
        let mut m = MatchLosses::default();
        m.add(&g);
        assert_eq!((m.phases[0][2].moves, m.phases[0][2].results), (2, 1));
        assert_eq!((m.empties[0][4].moves, m.empties[0][4].results), (2, 1));
        let text = m.text(&["a".into(), "b".into()], "depth 4");
        assert!(
            text.contains(
                "  empties  20-1:    2 moves  mean loss  4.00  mistakes   2  results   1"
            ),
            "{text}"
        );
    }

    #[test]
    fn losses_are_summed_by_side_and_phase_and_mistakes_counted() {
        let mut values = vec![0.0; 14];
        let mut losses = vec![0.0; 14];
        losses[0] = 2.0; // move 9, p1: a mistake
        losses[1] = 1.5; // move 10, p2: not one
        losses[12] = 6.0; // move 21, p1: a mistake in the middle phase
        values[13] = 1.0;
        let mut m = MatchLosses::default();
        m.add(&game(&values, &losses, Some(-8)));
        let [p1, p2] = m.phases;
        assert_eq!((p1[0].moves, p1[0].loss, p1[0].mistakes), (6, 2.0, 1));
        assert_eq!((p1[1].moves, p1[1].loss, p1[1].mistakes), (1, 6.0, 1));
        assert_eq!((p2[0].moves, p2[0].loss, p2[0].mistakes), (6, 1.5, 0));
        assert_eq!(p2[0].mean(), Some(0.25));
        assert_eq!(p2[2].mean(), None);
        let text = m.text(&["a".into(), "b".into()], "depth 4");
        assert!(
            text.contains("a: all    7 moves  mean loss  1.14  mistakes   2"),
            "{text}"
        );
        assert!(
            text.contains("  moves 21-40:    1 moves  mean loss  6.00"),
            "{text}"
        );
        // By empties: moves 9-20 have 52-41 empties, move 21 has 40.
        let [e1, e2] = &m.empties;
        assert_eq!((e1[0].moves, e1[0].loss, e1[0].mistakes), (6, 2.0, 1));
        assert_eq!((e1[1].moves, e1[1].loss, e1[1].mistakes), (1, 6.0, 1));
        assert_eq!((e2[0].moves, e2[1].moves, e2[4].moves), (6, 1, 0));
        assert!(
            text.contains("  empties 40-27:    1 moves  mean loss  6.00  mistakes   1"),
            "{text}"
        );
        assert!(text.contains("  empties  20-1:    0 moves\n"), "{text}");
        // No verdict of this game is exact: no result given away.
        assert_eq!(m.empties[0].iter().map(|p| p.results).sum::<u64>(), 0);
        // Other buckets.
        let mut m = MatchLosses::new(EmptiesBuckets::parse("52").unwrap());
        m.add(&game(&values, &losses, Some(-8)));
        assert_eq!((m.empties[0][0].moves, m.empties[0][0].loss), (1, 2.0));
        assert_eq!(m.empties[1][0].moves, 0);
    }
}

//! What an analysis says about a match (`referee report --analysis`,
//! `referee summary --analysis`): each bot's mean loss per move by game
//! phase, its mistakes and each game's turning point (the chart of the
//! judge's value over a game is drawn by [`crate::html::judge_chart`]).

use crate::files::analysis_file::GameAnalysis;
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
}

impl PhaseLoss {
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
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct MatchLosses {
    /// Games counted.
    pub games: u64,
    /// p1's and p2's losses by phase.
    pub phases: [[PhaseLoss; 3]; 2],
    /// Decisive games (on the board) by the phase of their turning point.
    pub turning_points: [u64; 3],
    /// Decisive games whose loser was behind from its first judged
    /// position on (no turning point among the bots' moves).
    pub lost_from_the_start: u64,
}

impl MatchLosses {
    /// Counts one game.
    pub fn add(&mut self, g: &GameAnalysis) {
        self.games += 1;
        for m in &g.moves {
            let p = &mut self.phases[m.by.index()][phase(m.n)];
            p.moves += 1;
            p.loss += m.loss;
            p.mistakes += u64::from(m.loss >= MISTAKE_DISCS);
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
            "Analysis ({} games, judge: {judge}): mean loss per move in discs, mistakes (>= {MISTAKE_DISCS} discs)\n",
            self.games
        );
        for side in Side::BOTH {
            let all = self.phases[side.index()]
                .iter()
                .fold(PhaseLoss::default(), |a, p| PhaseLoss {
                    moves: a.moves + p.moves,
                    loss: a.loss + p.loss,
                    mistakes: a.mistakes + p.mistakes,
                });
            out += &format!("{}: all {}\n", names[side.index()], describe(&all));
            for (k, p) in self.phases[side.index()].iter().enumerate() {
                out += &format!("  moves {:>5}: {}\n", PHASES[k], describe(p));
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
            "{:>4} moves  mean loss {mean:5.2}  mistakes {:>3}",
            p.moves, p.mistakes
        ),
        None => "   0 moves".into(),
    }
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
    use crate::files::analysis_file::MoveVerdict;

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
    }
}

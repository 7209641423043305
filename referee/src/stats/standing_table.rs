//! What the standings of a match's games say (`referee standing`): at each
//! count of empties, how the games stood under perfect play against how
//! they ended, for each player; the mean exact score there; the games whose
//! result changed after it. As text and as the `--json` summary (which the
//! HTML report draws too).

use crate::files::record::Side;
use crate::files::standing_file::GameStanding;
use crate::judge::standing::Settings;
use serde::Serialize;

/// The words of a result, from a player's side: won, drawn, lost.
const RESULTS: [&str; 3] = ["won", "drawn", "lost"];

/// 0 for a win, 1 for a draw, 2 for a loss, from the sign of a score.
fn result_of(score: i32) -> usize {
    match score.signum() {
        1 => 0,
        0 => 1,
        _ => 2,
    }
}

/// A player's score in `[0, 1]` from its won, drawn and lost counts
/// (`None` without games).
fn score_share(c: [u64; 3]) -> Option<f64> {
    let n = c.iter().sum::<u64>();
    (n > 0).then(|| (c[0] as f64 + c[1] as f64 / 2.0) / n as f64)
}

/// A game whose result changed after the stage.
#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct Changed {
    /// The game's number.
    pub game: usize,
    /// p1's result under perfect play at the stage: `won`, `drawn`, `lost`.
    pub standing: &'static str,
    /// p1's result at the end of the game.
    pub result: &'static str,
    /// p1's exact score at the stage (its sign only with `wld`).
    pub score: i32,
    /// p1's final disc difference (`None`: a fault decided the game).
    pub final_score: Option<i32>,
}

/// One player's view of a stage.
#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct PlayerStage {
    /// Its name.
    pub name: String,
    /// Its won, drawn, lost counts under perfect play at the stage.
    pub standing: [u64; 3],
    /// Its won, drawn, lost counts at the end of the same games.
    pub result: [u64; 3],
    /// Its score at the stage, in `[0, 1]`.
    pub stood: Option<f64>,
    /// Its score at the end of the same games.
    pub finished: Option<f64>,
    /// Its mean exact score at the stage, in discs (`None` with `wld`).
    pub mean_score: Option<f64>,
}

/// The games at one count of empties.
#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct Stage {
    /// The count of empties.
    pub empties: u32,
    /// Games that reached it.
    pub games: u64,
    /// Games that ended with more empties (on the board or by a fault),
    /// counted apart: p1's won, drawn, lost counts.
    pub ended_before: [u64; 3],
    /// p1's standing (rows: won, drawn, lost) against its result (columns).
    pub table: [[u64; 3]; 3],
    /// p1's view, then p2's.
    pub players: [PlayerStage; 2],
    /// The games whose result changed after the stage, by number.
    pub changed: Vec<Changed>,
}

/// One game's standings, from p1's side.
#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct GameRow {
    /// The game's number.
    pub game: usize,
    /// Who played black.
    pub black: Side,
    /// The winner (`None`: a draw).
    pub winner: Option<Side>,
    /// p1's final disc difference (`None`: a fault decided the game).
    pub final_score: Option<i32>,
    /// p1's exact score (with `wld`, its sign) at each count of empties of
    /// the settings, `None` where the game ended before.
    pub scores: Vec<Option<i32>>,
}

/// The summary: every stage, every game.
#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct StandingSummary {
    /// Always `standing`.
    pub kind: &'static str,
    /// The players' names.
    pub names: [String; 2],
    /// What was solved.
    pub settings: Settings,
    /// Games in all.
    pub games: u64,
    /// One per count of empties, from more to fewer.
    pub stages: Vec<Stage>,
    /// Each game, by number.
    pub per_game: Vec<GameRow>,
}

/// The summary of `games` (in any order; listed by number).
pub fn summarize(
    names: &[String; 2],
    settings: &Settings,
    games: &[&GameStanding],
) -> StandingSummary {
    let mut rows: Vec<GameRow> = games.iter().map(|g| row(settings, g)).collect();
    rows.sort_by_key(|r| r.game);
    let stages = settings
        .empties
        .iter()
        .enumerate()
        .map(|(k, &empties)| stage(names, settings.wld, empties, k, &rows))
        .collect();
    StandingSummary {
        kind: "standing",
        names: names.clone(),
        settings: settings.clone(),
        games: rows.len() as u64,
        stages,
        per_game: rows,
    }
}

/// A game's row: its scores from p1's side.
fn row(settings: &Settings, g: &GameStanding) -> GameRow {
    let p1 = |black: i32| if g.black == Side::P1 { black } else { -black };
    GameRow {
        game: g.game,
        black: g.black,
        winner: g.winner,
        final_score: g.result_black.map(p1),
        scores: settings
            .empties
            .iter()
            .map(|&e| {
                g.at.iter()
                    .find(|a| a.empties == e)
                    .map(|a| p1(a.score_black))
            })
            .collect(),
    }
}

/// The stage at `empties`, the `k`-th of the settings.
fn stage(names: &[String; 2], wld: bool, empties: u32, k: usize, rows: &[GameRow]) -> Stage {
    let mut table = [[0u64; 3]; 3];
    let mut ended_before = [0u64; 3];
    let mut score_sum = 0i64;
    let mut changed = Vec::new();
    for r in rows {
        let result = match r.winner {
            Some(Side::P1) => 0,
            None => 1,
            Some(Side::P2) => 2,
        };
        let Some(score) = r.scores[k] else {
            ended_before[result] += 1;
            continue;
        };
        let standing = result_of(score);
        table[standing][result] += 1;
        score_sum += i64::from(score);
        if standing != result {
            changed.push(Changed {
                game: r.game,
                standing: RESULTS[standing],
                result: RESULTS[result],
                score,
                final_score: r.final_score,
            });
        }
    }
    let games: u64 = table.iter().flatten().sum();
    let view = |side: usize| {
        // p2's counts are p1's mirrored: p1's wins are its losses.
        let flip = |c: [u64; 3]| if side == 0 { c } else { [c[2], c[1], c[0]] };
        let standing = flip(table.map(|r| r.iter().sum()));
        let result = flip([0, 1, 2].map(|c| table.iter().map(|r| r[c]).sum()));
        let sign = if side == 0 { 1.0 } else { -1.0 };
        PlayerStage {
            name: names[side].clone(),
            standing,
            result,
            stood: score_share(standing),
            finished: score_share(result),
            mean_score: (!wld && games > 0).then(|| sign * score_sum as f64 / games as f64),
        }
    };
    Stage {
        empties,
        games,
        ended_before,
        table,
        players: [view(0), view(1)],
        changed,
    }
}

/// `+3`, `-2`, `0`.
fn signed(x: i32) -> String {
    if x > 0 {
        format!("+{x}")
    } else {
        x.to_string()
    }
}

/// `W-D-L`.
fn wdl(c: [u64; 3]) -> String {
    format!("{}-{}-{}", c[0], c[1], c[2])
}

/// A share as a percentage with one decimal, or `n/a`.
fn percent(x: Option<f64>) -> String {
    x.map_or_else(|| "n/a".into(), |x| format!("{:.1}%", 100.0 * x))
}

/// The summary as text, a block per count of empties.
pub fn text(s: &StandingSummary) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    let judged = if s.settings.wld {
        "results only (--wld)"
    } else {
        "exact scores"
    };
    let _ = writeln!(
        out,
        "Standing under perfect play ({judged}) of {} games: {} vs {}",
        s.games, s.names[0], s.names[1]
    );
    for st in &s.stages {
        let e = st.empties;
        let before = st.ended_before.iter().sum::<u64>();
        let _ = write!(out, "\nat {e} empties: {} games", st.games);
        if before > 0 {
            let _ = write!(
                out,
                "; {before} ended before (for {}: {})",
                s.names[0],
                wdl(st.ended_before)
            );
        }
        out.push('\n');
        let width = s.names.iter().map(String::len).max().unwrap_or(0) + 10;
        for (side, p) in st.players.iter().enumerate() {
            let _ = writeln!(
                out,
                "  {:<width$} games  then won  drawn  lost",
                format!("{} at {e}", p.name)
            );
            for (k, label) in RESULTS.iter().enumerate() {
                // Rows and columns from this player's side: p2's are p1's
                // mirrored.
                let (r, flip) = if side == 0 { (k, false) } else { (2 - k, true) };
                let cells = st.table[r];
                let cells = if flip {
                    [cells[2], cells[1], cells[0]]
                } else {
                    cells
                };
                let _ = writeln!(
                    out,
                    "    {:<w2$} {:>5}  {:>8}  {:>5}  {:>4}",
                    label,
                    cells.iter().sum::<u64>(),
                    cells[0],
                    cells[1],
                    cells[2],
                    w2 = width - 2
                );
            }
        }
        for p in &st.players {
            let moved = match (p.stood, p.finished) {
                (Some(a), Some(b)) => {
                    format!(": {:+.1} points in 100 after {e} empties", 100.0 * (b - a))
                }
                _ => String::new(),
            };
            let mean = p.mean_score.map_or(String::new(), |m| {
                format!("; mean exact score at {e} {m:+.2} discs")
            });
            let _ = writeln!(
                out,
                "  {}: stood {} ({}), finished {} ({}){moved}{mean}",
                p.name,
                percent(p.stood),
                wdl(p.standing),
                percent(p.finished),
                wdl(p.result),
            );
        }
        if st.changed.is_empty() {
            let _ = writeln!(out, "  no game changed result after {e} empties");
        } else {
            let list: Vec<String> = st
                .changed
                .iter()
                .map(|c| {
                    let at = if s.settings.wld {
                        String::new()
                    } else {
                        format!("{} at {e}, ", signed(c.score))
                    };
                    let end = c.final_score.map_or_else(|| "a fault".to_string(), signed);
                    format!(
                        "game {} {} -> {} ({at}final {end})",
                        c.game, c.standing, c.result
                    )
                })
                .collect();
            let _ = writeln!(
                out,
                "  changed after {e} empties (for {}): {}",
                s.names[0],
                list.join("; ")
            );
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::files::standing_file::StandingAt;

    fn game(
        n: usize,
        black: Side,
        winner: Option<Side>,
        result_black: i32,
        at: &[(u32, i32)],
    ) -> GameStanding {
        GameStanding {
            game: n,
            file: "g.jsonl".into(),
            line: n + 1,
            moves_hash: String::new(),
            black,
            winner,
            result_black: Some(result_black),
            final_empties: 0,
            at: at
                .iter()
                .map(|&(empties, score_black)| StandingAt {
                    empties,
                    position: String::new(),
                    score_black,
                    nodes: 1,
                    ms: 0.0,
                })
                .collect(),
            ms: 0.0,
        }
    }

    #[test]
    fn the_tables_count_each_side_and_list_the_changed_games() {
        let names = ["a".to_string(), "b".to_string()];
        let settings = Settings::new(vec![24, 20], false).unwrap();
        let games = [
            // p1 black, won at 24 and at the end.
            game(1, Side::P1, Some(Side::P1), 10, &[(24, 4), (20, 6)]),
            // p1 white: black +2 at 24 is p1 -2 (lost), then p1 won by 4.
            game(2, Side::P2, Some(Side::P1), -4, &[(24, 2), (20, -2)]),
            // A draw at 24 that p1 lost.
            game(3, Side::P1, Some(Side::P2), -2, &[(24, 0), (20, -2)]),
            // Ended before 20 (a wipe-out): counted apart there.
            game(4, Side::P1, Some(Side::P1), 64, &[(24, 8)]),
        ];
        let refs: Vec<&GameStanding> = games.iter().rev().collect();
        let s = summarize(&names, &settings, &refs);
        assert_eq!(s.per_game[1].scores, [Some(-2), Some(2)]);
        assert_eq!(s.per_game[1].final_score, Some(4));
        let at24 = &s.stages[0];
        assert_eq!(at24.games, 4);
        assert_eq!(at24.table, [[2, 0, 0], [0, 0, 1], [1, 0, 0]]);
        assert_eq!(at24.players[0].standing, [2, 1, 1]);
        assert_eq!(at24.players[0].result, [3, 0, 1]);
        assert_eq!(at24.players[1].standing, [1, 1, 2]);
        assert_eq!(at24.players[0].stood, Some(0.625));
        assert_eq!(at24.players[1].finished, Some(0.25));
        assert_eq!(
            at24.players[0].mean_score,
            Some((4.0 - 2.0 + 0.0 + 8.0) / 4.0)
        );
        assert_eq!(at24.players[1].mean_score, Some(-2.5));
        let changed: Vec<usize> = at24.changed.iter().map(|c| c.game).collect();
        assert_eq!(changed, [2, 3]);
        assert_eq!(
            (at24.changed[0].standing, at24.changed[0].result),
            ("lost", "won")
        );
        let at20 = &s.stages[1];
        assert_eq!((at20.games, at20.ended_before), (3, [1, 0, 0]));
        assert!(at20.changed.is_empty());
        let t = text(&s);
        assert!(
            t.contains("at 20 empties: 3 games; 1 ended before (for a: 1-0-0)"),
            "{t}"
        );
        assert!(
            t.contains("a: stood 62.5% (2-1-1), finished 75.0% (3-0-1): +12.5 points"),
            "{t}"
        );
        assert!(t.contains("game 2 lost -> won (-2 at 24, final +4)"), "{t}");
        assert!(t.contains("no game changed result after 20 empties"), "{t}");
        // p2's rows from its side: its win at 24 is p1's loss (game 2),
        // which p1 then won, so p2 lost it.
        let rows: Vec<Vec<&str>> = t
            .lines()
            .skip_while(|l| !l.contains("b at 24"))
            .skip(1)
            .take(3)
            .map(|l| l.split_whitespace().collect())
            .collect();
        assert_eq!(rows[0], ["won", "1", "0", "0", "1"], "{t}");
        assert_eq!(rows[1], ["drawn", "1", "1", "0", "0"], "{t}");
        assert_eq!(rows[2], ["lost", "2", "0", "0", "2"], "{t}");
    }
}

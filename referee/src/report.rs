//! `referee report` and `--html`: one self-contained HTML page of a match.
//! The page holds the match's data as JSON, the viewer's script and style,
//! and the charting library (uPlot, `assets/uplot/`), all inline: it opens
//! from disk with no network.
//!
//! The numbers are computed here (the summary is the `--json` one, the
//! per-move statistics use the tuning report's rules); the page only draws
//! them and replays the games.

use crate::merge::{self, Gaps};
use crate::record::{GameRecord, Header, Side};
use crate::stats::{self, Pentanomial};
use crate::summary::{self, Summary};
use crate::tuning;
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

const TEMPLATE: &str = include_str!("../assets/report.html");
const STYLE: &str = include_str!("../assets/report.css");
const SCRIPT: &str = include_str!("../assets/report.js");
const UPLOT_STYLE: &str = include_str!("../assets/uplot/uPlot.min.css");
const UPLOT_SCRIPT: &str = include_str!("../assets/uplot/uPlot.iife.min.js");

/// The last move number charted (a game has at most 60 moves).
const MAX_MOVE: usize = 60;

/// `referee report FILES -o OUT`.
///
/// # Errors
/// Unreadable or inconsistent input (see [`merge::read`]), or an unwritable
/// page.
pub fn write(files: &[PathBuf], output: &Path) -> Result<(), String> {
    let m = merge::read(files)?;
    let summary = summary::of_match(&m.header, &m.records);
    let page = html(&m.header, &m.records, &summary, &m.gaps());
    std::fs::write(output, page).map_err(|e| format!("{}: {e}", output.display()))?;
    eprintln!("referee: {} games -> {}", m.records.len(), output.display());
    Ok(())
}

/// The whole page of the match of `header`: its `records`, their
/// `summary` ([`summary::of_match`]), and what it lacks (`gaps`).
pub fn html(header: &Header, records: &[GameRecord], summary: &Summary, gaps: &Gaps) -> String {
    let data = Data {
        names: summary::names(header),
        header,
        partial: (!gaps.is_empty()).then(|| Partial {
            played: records.len(),
            planned: gaps.planned,
            missing: gaps
                .missing_games
                .iter()
                .take(MISSING_SHOWN)
                .copied()
                .collect(),
            missing_shards: gaps.missing_shards.iter().map(|s| s.to_string()).collect(),
        }),
        summary,
        per_move: Side::BOTH.map(|side| per_move(records, side)),
        elo: elo_series(records),
        games: records.iter().map(game).collect(),
    };
    let json = serde_json::to_string(&data).expect("the report's data serializes");
    // Inside <script>, "</" would end the element: JSON allows "<\/".
    let json = json.replace("</", "<\\/");
    let title = format!("{} vs {}", data.names[0], data.names[1]);
    TEMPLATE
        .replace("{{TITLE}}", &escape(&title))
        .replace("{{UPLOT_STYLE}}", UPLOT_STYLE)
        .replace("{{STYLE}}", STYLE)
        .replace("{{UPLOT_SCRIPT}}", UPLOT_SCRIPT)
        .replace("{{SCRIPT}}", SCRIPT)
        .replace("{{DATA}}", &json)
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// What the page shows.
#[derive(Serialize)]
struct Data<'a> {
    names: [String; 2],
    header: &'a Header,
    partial: Option<Partial>,
    summary: &'a Summary,
    per_move: [PerMove; 2],
    elo: EloSeries,
    games: Vec<GameData>,
}

/// A match with games missing.
#[derive(Serialize, Debug, PartialEq)]
struct Partial {
    /// Games recorded.
    played: usize,
    /// Games of the match (its `--games`, or the highest game number when
    /// the file does not say).
    planned: usize,
    /// The first missing game numbers (at most [`MISSING_SHOWN`]).
    missing: Vec<usize>,
    /// Shards without a file (`2/4`).
    missing_shards: Vec<String>,
}

/// Missing game numbers listed by the page.
const MISSING_SHOWN: usize = 20;

/// One player's think times and depths by move number (index 0 is move 1);
/// first turns, which have their own limit, are left out as in the tuning
/// report. `None` where the player made no such move.
#[derive(Serialize, Debug, Default)]
struct PerMove {
    median_ms: Vec<Option<f64>>,
    p95_ms: Vec<Option<f64>>,
    max_ms: Vec<Option<f64>>,
    depth_median: Vec<Option<f64>>,
}

fn per_move(records: &[GameRecord], side: Side) -> PerMove {
    let mut times: Vec<Vec<f64>> = vec![Vec::new(); MAX_MOVE];
    let mut depths: Vec<Vec<f64>> = vec![Vec::new(); MAX_MOVE];
    for r in records {
        for (number, first, m) in tuning::turns(r, side) {
            if first {
                continue;
            }
            let number = number.min(MAX_MOVE);
            times[number - 1].push(m.ms);
            if let Some(d) = m.msg.as_deref().and_then(tuning::depth) {
                depths[number - 1].push(f64::from(d));
            }
        }
    }
    let mut out = PerMove::default();
    for (t, d) in times.iter_mut().zip(depths.iter_mut()) {
        t.sort_by(f64::total_cmp);
        d.sort_by(f64::total_cmp);
        let some = |f: &dyn Fn(&[f64]) -> f64, v: &[f64]| (!v.is_empty()).then(|| round1(f(v)));
        out.median_ms.push(some(&tuning::median, t));
        out.p95_ms.push(some(&|v| tuning::nearest_rank(v, 0.95), t));
        out.max_ms.push(some(&|v| v[v.len() - 1], t));
        out.depth_median.push(some(&tuning::median, d));
    }
    out
}

/// p1's Elo estimate (pentanomial) and its 95% interval after each
/// complete pair, in game order.
#[derive(Serialize, Debug, Default, PartialEq)]
struct EloSeries {
    games: Vec<usize>,
    elo: Vec<Option<f64>>,
    low: Vec<Option<f64>>,
    high: Vec<Option<f64>>,
}

fn elo_series(records: &[GameRecord]) -> EloSeries {
    let mut pairs: BTreeMap<usize, Vec<&GameRecord>> = BTreeMap::new();
    for r in records {
        pairs.entry(r.pair()).or_default().push(r);
    }
    let mut penta: Pentanomial = [0; 5];
    let mut series = EloSeries::default();
    let mut games = 0;
    for pair in pairs.values() {
        games += pair.len();
        if pair.len() != 2 {
            continue;
        }
        let points: f64 = pair.iter().map(|r| r.points(Side::P1)).sum();
        penta[summary::pentanomial_bucket(points)] += 1;
        let e = stats::elo_pentanomial(&penta);
        let finite = |x: f64| x.is_finite().then(|| round1(x));
        series.games.push(games);
        series.elo.push(e.and_then(|e| finite(e.elo)));
        series.low.push(e.and_then(|e| finite(e.elo - e.error)));
        series.high.push(e.and_then(|e| finite(e.elo + e.error)));
    }
    series
}

/// One game, compactly: the page replays it.
#[derive(Serialize, Debug)]
struct GameData {
    /// Game number.
    g: usize,
    /// Who played black: 0 for p1, 1 for p2.
    b: usize,
    /// The opening transcript.
    o: String,
    /// The bots' moves, concatenated (`d3c5...`).
    m: String,
    /// Who made each move: 0 for p1, 1 for p2.
    p: Vec<u8>,
    /// Think time of each move, ms (one decimal).
    t: Vec<f64>,
    /// Each move's MSG ("" when none).
    s: Vec<String>,
    /// The score each MSG gives (the mover's view), if it gives one.
    v: Vec<Option<f64>>,
    /// The winner: 0 for p1, 1 for p2, `None` for a draw.
    w: Option<usize>,
    /// Final discs, black then white.
    d: [u32; 2],
    /// The fault that decided the game.
    f: Option<FaultData>,
}

#[derive(Serialize, Debug)]
struct FaultData {
    /// The offender: 0 for p1, 1 for p2.
    by: usize,
    /// What it did (`timeout`, `crash`...).
    kind: String,
    /// The referee's explanation.
    detail: String,
}

fn game(r: &GameRecord) -> GameData {
    GameData {
        g: r.game,
        b: r.black.index(),
        o: r.opening.clone(),
        m: r.moves.iter().map(|m| m.square.as_str()).collect(),
        p: r.moves.iter().map(|m| m.by.index() as u8).collect(),
        t: r.moves.iter().map(|m| round1(m.ms)).collect(),
        s: r.moves
            .iter()
            .map(|m| m.msg.clone().unwrap_or_default())
            .collect(),
        v: r.moves
            .iter()
            .map(|m| m.msg.as_deref().and_then(tuning::score))
            .collect(),
        w: r.winner.map(Side::index),
        d: [r.discs_black, r.discs_white],
        f: r.fault.as_ref().map(|f| FaultData {
            by: f.by.index(),
            kind: f.kind.to_string(),
            detail: f.detail.clone(),
        }),
    }
}

fn round1(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::testing::{header, record};

    #[test]
    fn names_come_from_the_settings_or_from_the_commands() {
        assert_eq!(summary::names(&header(Some(4))), ["new", "old"]);
        assert_eq!(summary::names(&header(None)), ["new --depth 3", "old"]);
    }

    #[test]
    fn the_elo_series_has_a_point_per_complete_pair() {
        let (w, l) = (Some(Side::P1), Some(Side::P2));
        // Pairs: WW, (3 alone), WL, LD, WD.
        let results = [
            (1, w),
            (2, w),
            (3, w),
            (5, w),
            (6, l),
            (7, l),
            (8, None),
            (9, w),
            (10, None),
        ];
        let records: Vec<GameRecord> = results.iter().map(|&(g, r)| record(g, r, 50.0)).collect();
        let s = elo_series(&records);
        assert_eq!(s.games, vec![2, 5, 7, 9]);
        // After one WW pair the estimate is not finite; at the end it is
        // the summary's, inside its interval.
        assert_eq!(s.elo[0], None);
        let e = stats::elo_pentanomial(&[0, 1, 1, 1, 1]).expect("an estimate");
        assert_eq!(s.elo[3], Some(round1(e.elo)));
        assert!(s.low[3] < s.elo[3] && s.elo[3] < s.high[3], "{s:?}");
        assert!(s.low[3].is_some());
    }

    #[test]
    fn per_move_statistics_leave_first_turns_out() {
        let records: Vec<GameRecord> = [10.0, 20.0, 90.0]
            .iter()
            .enumerate()
            .map(|(i, &ms)| record(i + 1, None, ms))
            .collect();
        let pm = per_move(&records, Side::P1);
        // p1's first move is number 19 (left out), its second number 21.
        assert_eq!(pm.median_ms[18], None);
        assert_eq!(pm.median_ms[20], Some(20.0));
        assert_eq!(pm.p95_ms[20], Some(90.0));
        assert_eq!(pm.max_ms[20], Some(90.0));
        assert_eq!(pm.depth_median[20], Some(7.0));
        assert_eq!(per_move(&records, Side::P2).median_ms[19], None);
    }

    #[test]
    fn the_page_is_one_file_whose_data_cannot_close_its_script() {
        let mut r = record(1, Some(Side::P1), 50.0);
        r.moves[2].msg = Some("</script><b>".into());
        let (h, records) = (header(Some(1)), [r]);
        let page = html(
            &h,
            &records,
            &summary::of_match(&h, &records),
            &Gaps::default(),
        );
        assert!(page.contains("<\\/script><b>"));
        assert_eq!(page.matches("</script>").count(), 3, "data, uPlot, viewer");
        assert!(!page.contains("{{"), "every placeholder filled");
        let g = game(&record(1, None, 50.0));
        assert_eq!(
            (g.m.as_str(), g.p.as_slice()),
            ("d3d3d3", [0, 1, 0].as_slice())
        );
        assert_eq!(g.v, vec![Some(1.0), None, Some(-2.0)]);
    }
}

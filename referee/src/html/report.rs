//! `referee report` and `--html`: one self-contained HTML page of a match.
//! The page holds the match's data as JSON, the viewer's script and style,
//! and the charting library (uPlot, `assets/uplot/`), all inline: it opens
//! from disk with no network.
//!
//! The numbers are computed here (the summary is the `--json` one, the
//! per-move statistics use the tuning report's rules); the page only draws
//! them and replays the games.

use super::{escape, judge_chart, round1, STYLE};
use crate::files::analysis_file::{self, GameAnalysis};
use crate::files::merge::{self, Gaps};
use crate::files::record::{self, GameRecord, Header, Side};
use crate::files::standing_file::StandingMatcher;
use crate::judge::mistakes::{self, EmptiesBuckets};
use crate::stats::elo::{self, Pentanomial};
use crate::stats::standing_table::StandingSummary;
use crate::stats::summary::{self, Summary};
use crate::stats::tuning;
use serde::Serialize;
use std::collections::BTreeMap;
use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

const TEMPLATE: &str = include_str!("../../assets/report.html");
const SCRIPT: &str = include_str!("../../assets/report.js");
const UPLOT_STYLE: &str = include_str!("../../assets/uplot/uPlot.min.css");
const UPLOT_SCRIPT: &str = include_str!("../../assets/uplot/uPlot.iife.min.js");

/// The last move number charted (a game has at most 60 moves).
const MAX_MOVE: usize = 60;

/// `referee report FILES -o OUT`, with the analysis files `analysis`
/// (losses by empties in `buckets`)
/// (`referee analyze`) when given, else the analysis beside the first
/// games file if there is one ([`crate::commands::analyze::default_output`]).
///
/// The files are read twice, as streams: once for the numbers (the games
/// go by, only their tallies stay), once to copy each game into the page in
/// the order of their numbers, so that memory does not grow with the games.
/// The page is written to a temporary file beside `output`, renamed over
/// it when complete.
///
/// # Errors
/// Unreadable or inconsistent input (see [`merge::stream`]), an analysis of
/// other games ([`analysis_file::check_game`]), or an unwritable page.
pub fn write(
    files: &[PathBuf],
    analysis: &[PathBuf],
    standing_given: Option<&Path>,
    buckets: &EmptiesBuckets,
    output: &Path,
) -> Result<(), String> {
    let mut matcher = analysis_file::Matcher::for_games(files, analysis, "--analysis FILE")?;
    let mut standing = StandingMatcher::for_games(files, standing_given)?;
    let mut numbers = Numbers {
        losses: mistakes::MatchLosses::new(buckets.clone()),
        ..Numbers::default()
    };
    // Where each game is: its number, its file, the offset of its line.
    let mut places: Vec<(usize, usize, u64)> = Vec::new();
    let m = merge::stream(files, |file, _, offset, r| {
        numbers.add(&r);
        places.push((r.game, file, offset));
        if let Some(g) = matcher.as_mut().and_then(|a| a.game(&r)) {
            numbers.losses.add(g);
        }
        if let Some(s) = standing.as_mut() {
            s.game(&r);
        }
    })?;
    let analysis = matcher.map(analysis_file::Matcher::finish).transpose()?;
    let standing = standing.map(StandingMatcher::finish).transpose()?.flatten();
    places.sort_unstable();
    let summary = numbers.tally.finish(&m.header);
    let gaps = m.gaps();
    let mut readers: Vec<Option<BufReader<File>>> = files.iter().map(|_| None).collect();
    let mut line = Vec::new();
    let names = record::names(&m.header);
    let judged = analysis.as_ref();
    let games = places
        .iter()
        .map(|&(_, file, offset)| -> Result<GameData, String> {
            let path = &files[file];
            let failed = |e: &dyn std::fmt::Display| format!("{}: {e}", path.display());
            if readers[file].is_none() {
                readers[file] = Some(BufReader::new(File::open(path).map_err(|e| failed(&e))?));
            }
            let reader = readers[file].as_mut().expect("opened");
            reader
                .seek(SeekFrom::Start(offset))
                .map_err(|e| failed(&e))?;
            line.clear();
            reader
                .read_until(b'\n', &mut line)
                .map_err(|e| failed(&e))?;
            let r: GameRecord = serde_json::from_slice(&line)
                .map_err(|e| failed(&format!("changed while being read: {e}")))?;
            let mut g = game(&r);
            if let Some((_, _, a)) = judged.and_then(|j| j.games.get(&r.game)) {
                g.judge(a, &names);
            }
            Ok(g)
        });
    let analysis_data = analysis.as_ref().map(|a| AnalysisData {
        judge: a.header.judge.describe(),
        games: numbers.losses.games,
        losses: numbers.losses.clone(),
        mistake_discs: mistakes::MISTAKE_DISCS,
    });
    let mut name = output.as_os_str().to_owned();
    name.push(".partial");
    let temporary = PathBuf::from(name);
    let file = File::create(&temporary).map_err(|e| format!("{}: {e}", output.display()))?;
    let mut out = BufWriter::new(file);
    let written = page(
        &mut out,
        &m.header,
        &summary,
        &gaps,
        numbers.finish(),
        (analysis_data.as_ref(), standing.as_ref()),
        games,
    )
    .and_then(|()| out.flush().map_err(|e| e.to_string()))
    .and_then(|()| std::fs::rename(&temporary, output).map_err(|e| e.to_string()));
    if let Err(e) = written {
        let _ = std::fs::remove_file(&temporary);
        return Err(format!("{}: {e}", output.display()));
    }
    eprintln!("referee: {} games -> {}", places.len(), output.display());
    Ok(())
}

/// The whole page of the match of `header`: its `records`, their
/// `summary` ([`summary::of_match`]), and what it lacks (`gaps`).
pub fn html(header: &Header, records: &[GameRecord], summary: &Summary, gaps: &Gaps) -> String {
    let mut numbers = Numbers::default();
    for r in records {
        numbers.add(r);
    }
    let mut sorted: Vec<&GameRecord> = records.iter().collect();
    sorted.sort_by_key(|r| r.game);
    let mut out = Vec::new();
    page(
        &mut out,
        header,
        summary,
        gaps,
        numbers.finish(),
        (None, None),
        sorted.into_iter().map(|r| Ok(game(r))),
    )
    .expect("writing to memory succeeds");
    String::from_utf8(out).expect("the page is UTF-8")
}

/// What the page needs of the games besides the games themselves,
/// gathered one game at a time.
#[derive(Default)]
struct Numbers {
    tally: summary::Tally,
    per_move: [PerMoveTally; 2],
    /// Each pair's games so far and p1's points in them.
    pairs: BTreeMap<usize, (usize, f64)>,
    /// The analysed games' losses.
    losses: mistakes::MatchLosses,
}

impl Numbers {
    fn add(&mut self, r: &GameRecord) {
        self.tally.add(r);
        for side in Side::BOTH {
            self.per_move[side.index()].add(r, side);
        }
        let pair = self.pairs.entry(r.pair()).or_default();
        pair.0 += 1;
        pair.1 += r.points(Side::P1);
    }

    fn finish(&self) -> ([PerMove; 2], EloSeries) {
        (
            [self.per_move[0].finish(), self.per_move[1].finish()],
            elo_series(&self.pairs),
        )
    }
}

/// Writes the page: the template with the data's JSON inline, the games
/// one at a time.
fn page(
    out: &mut impl Write,
    header: &Header,
    summary: &Summary,
    gaps: &Gaps,
    (per_move, elo): ([PerMove; 2], EloSeries),
    (analysis, standing): (Option<&AnalysisData>, Option<&StandingSummary>),
    games: impl Iterator<Item = Result<GameData, String>>,
) -> Result<(), String> {
    let data = Data {
        names: record::names(header),
        header,
        partial: (!gaps.is_empty()).then(|| Partial {
            played: summary.games as usize,
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
        per_move,
        elo,
        analysis,
        standing,
    };
    let head = script_json(&data);
    let head = head.strip_suffix('}').expect("an object");
    let title = format!("{} vs {}", data.names[0], data.names[1]);
    let fill = |part: &str| {
        part.replace("{{TITLE}}", &escape(&title))
            .replace("{{UPLOT_STYLE}}", UPLOT_STYLE)
            .replace("{{STYLE}}", STYLE)
            .replace("{{UPLOT_SCRIPT}}", UPLOT_SCRIPT)
            .replace("{{SCRIPT}}", SCRIPT)
    };
    let (before, after) = TEMPLATE
        .split_once("{{DATA}}")
        .expect("the template has {{DATA}}");
    let io = |e: std::io::Error| e.to_string();
    out.write_all(fill(before).as_bytes()).map_err(io)?;
    out.write_all(head.as_bytes()).map_err(io)?;
    out.write_all(b",\"games\":[").map_err(io)?;
    for (i, g) in games.enumerate() {
        if i > 0 {
            out.write_all(b",").map_err(io)?;
        }
        out.write_all(script_json(&g?).as_bytes()).map_err(io)?;
    }
    out.write_all(b"]}").map_err(io)?;
    out.write_all(fill(after).as_bytes()).map_err(io)?;
    Ok(())
}

/// `value` as JSON to put inside a `<script>` element, where "</" would
/// end the element: JSON allows "<\\/".
fn script_json(value: &impl Serialize) -> String {
    serde_json::to_string(value)
        .expect("the report's data serializes")
        .replace("</", "<\\/")
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
    /// What the judge said of the match, when an analysis was given.
    analysis: Option<&'a AnalysisData>,
    /// The games' perfect-play standings, when a standing file was given.
    standing: Option<&'a StandingSummary>,
}

/// The analysis's numbers over the match.
#[derive(Serialize, Debug)]
struct AnalysisData {
    /// The judge's settings, in words.
    judge: String,
    /// Games analysed.
    games: u64,
    /// Losses by bot and phase, turning points by phase.
    losses: mistakes::MatchLosses,
    /// [`mistakes::MISTAKE_DISCS`].
    mistake_discs: f64,
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

/// One player's think times (to 0.1 ms, the charts' resolution, so that
/// memory stays small however many games) and depths by move number.
#[derive(Default)]
struct PerMoveTally {
    times: Vec<tuning::Histogram>,
    depths: Vec<tuning::Histogram>,
}

impl PerMoveTally {
    fn add(&mut self, r: &GameRecord, side: Side) {
        if self.times.is_empty() {
            self.times = vec![tuning::Histogram::default(); MAX_MOVE];
            self.depths = vec![tuning::Histogram::default(); MAX_MOVE];
        }
        for (number, first, m) in tuning::turns(r, side) {
            if first {
                continue;
            }
            let number = number.min(MAX_MOVE);
            self.times[number - 1].add((m.ms * 10.0).round().max(0.0) as u64);
            if let Some(d) = m.msg.as_deref().and_then(tuning::depth) {
                self.depths[number - 1].add(u64::from(d));
            }
        }
    }

    fn finish(&self) -> PerMove {
        let mut out = PerMove::default();
        for k in 0..MAX_MOVE {
            let tenths = |x: u64| x as f64 / 10.0;
            let t = self.times.get(k).and_then(|h| h.order(tenths));
            let d = self.depths.get(k).and_then(|h| h.order(|x| x as f64));
            out.median_ms.push(t.as_ref().map(|o| round1(o.median)));
            out.p95_ms.push(t.as_ref().map(|o| round1(o.p95)));
            out.max_ms.push(t.as_ref().map(|o| round1(tenths(o.max))));
            out.depth_median.push(d.map(|o| round1(o.median)));
        }
        out
    }
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

/// The series from each pair's games and p1's points in them.
fn elo_series(pairs: &BTreeMap<usize, (usize, f64)>) -> EloSeries {
    let mut penta: Pentanomial = [0; 5];
    let mut series = EloSeries::default();
    let mut games = 0;
    for &(count, points) in pairs.values() {
        games += count;
        if count != 2 {
            continue;
        }
        penta[summary::pentanomial_bucket(points)] += 1;
        let e = elo::elo_pentanomial(&penta);
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
    /// The judge's chart of the game (SVG), when it was analysed.
    #[serde(skip_serializing_if = "Option::is_none")]
    j: Option<String>,
    /// Each move's loss by the judge (one decimal), when analysed.
    #[serde(skip_serializing_if = "Option::is_none")]
    l: Option<Vec<f64>>,
    /// Each move's mistake flag (1: it lost [`mistakes::MISTAKE_DISCS`] or
    /// more), when analysed: from the unrounded loss, so that a loss shown
    /// as 2.0 but below 2 discs is not marked, as the chart does not mark it.
    #[serde(skip_serializing_if = "Option::is_none")]
    k: Option<Vec<u8>>,
    /// The judge's best move at each move, when analysed.
    #[serde(skip_serializing_if = "Option::is_none")]
    jb: Option<Vec<String>>,
    /// The turning point's move number (`None`: none, or not analysed).
    #[serde(skip_serializing_if = "Option::is_none")]
    tp: Option<usize>,
}

impl GameData {
    /// Adds the judge's verdicts on the game.
    fn judge(&mut self, a: &GameAnalysis, names: &[String; 2]) {
        self.j = Some(judge_chart::svg(a, names));
        self.l = Some(a.moves.iter().map(|m| round1(m.loss)).collect());
        self.k = Some(
            a.moves
                .iter()
                .map(|m| u8::from(m.loss >= mistakes::MISTAKE_DISCS))
                .collect(),
        );
        self.jb = Some(a.moves.iter().map(|m| m.best.clone()).collect());
        self.tp = mistakes::turning_point(a).flatten().map(|t| t.n);
    }
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
        j: None,
        l: None,
        k: None,
        jb: None,
        tp: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::files::record::testing::{header, record};

    #[test]
    fn a_move_is_marked_a_mistake_by_its_unrounded_loss() {
        // 1.953125 discs (500/256) shows as 2.0 but is no mistake.
        let a = mistakes::testing::game(&[1.0, 0.0, 3.0], &[1.953_125, 2.0, 0.0], Some(4));
        let mut g = game(&record(1, Some(Side::P1), 10.0));
        g.judge(&a, &["a".to_string(), "b".to_string()]);
        assert_eq!(g.l, Some(vec![2.0, 2.0, 0.0]));
        assert_eq!(g.k, Some(vec![0, 1, 0]));
        // The match's count agrees with the marks.
        let mut losses = mistakes::MatchLosses::default();
        losses.add(&a);
        let counted: u64 = losses.phases.iter().flatten().map(|p| p.mistakes).sum();
        assert_eq!(counted, 1);
    }

    fn numbers(records: &[GameRecord]) -> Numbers {
        let mut n = Numbers::default();
        for r in records {
            n.add(r);
        }
        n
    }

    #[test]
    fn names_come_from_the_settings_or_from_the_commands() {
        assert_eq!(record::names(&header(Some(4))), ["new", "old"]);
        assert_eq!(record::names(&header(None)), ["new --depth 3", "old"]);
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
        let s = numbers(&records).finish().1;
        assert_eq!(s.games, vec![2, 5, 7, 9]);
        // After one WW pair the estimate is not finite; at the end it is
        // the summary's, inside its interval.
        assert_eq!(s.elo[0], None);
        let e = elo::elo_pentanomial(&[0, 1, 1, 1, 1]).expect("an estimate");
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
        let [pm, p2] = numbers(&records).finish().0;
        // p1's first move is number 19 (left out), its second number 21.
        assert_eq!(pm.median_ms[18], None);
        assert_eq!(pm.median_ms[20], Some(20.0));
        assert_eq!(pm.p95_ms[20], Some(90.0));
        assert_eq!(pm.max_ms[20], Some(90.0));
        assert_eq!(pm.depth_median[20], Some(7.0));
        assert_eq!(p2.median_ms[19], None);
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

//! `referee analyze` on a small real match of fixed-depth bots, and its
//! analysis in `referee report` and `referee summary`: shards merged, an
//! interrupted analysis continued, bad input named by file and line.

use crate::common::{othello, run, scratch};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// A cheap judge: the tests check the bookkeeping, the unit tests the
/// values (against exact FFO scores).
const JUDGE: [&str; 4] = ["--depth", "3", "--exact", "10"];

/// A 6-game match of `othello --depth 2` against `--depth 1`.
fn small_match(dir: &Path, seed: &str) -> PathBuf {
    let bot = othello();
    let games = dir.join(format!("games-{seed}.jsonl"));
    run(
        &[
            "--p1",
            &format!("{} --depth 2", bot.display()),
            "--p2",
            &format!("{} --depth 1", bot.display()),
            "--games",
            "6",
            "--seed",
            seed,
            "--random-openings",
            "4",
            "--concurrency",
            "2",
            "--games-out",
            games.to_str().unwrap(),
        ],
        0,
    );
    games
}

fn analyze(games: &[&Path], out: &Path, extra: &[&str], status: i32) -> String {
    let mut args = vec!["analyze"];
    args.extend(games.iter().map(|p| p.to_str().unwrap()));
    args.extend(["-o", out.to_str().unwrap()]);
    // The tests that change the depth give it.
    let judge = if extra.contains(&"--depth") {
        &JUDGE[2..]
    } else {
        &JUDGE[..]
    };
    args.extend(judge);
    args.extend(extra);
    errors(&run(&args, status))
}

/// The analysis's game lines by game number, without the judge's time
/// (the only field that changes from run to run).
fn lines(path: &Path) -> Vec<(u64, Value)> {
    let mut out: Vec<(u64, Value)> = std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .skip(1)
        .map(|l| {
            let mut v: Value = serde_json::from_str(l).expect("a JSON line");
            v.as_object_mut().unwrap().remove("ms");
            (v["game"].as_u64().unwrap(), v)
        })
        .collect();
    out.sort_by_key(|(g, _)| *g);
    out
}

fn text(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn errors(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Writes `analysis` to `to` with line `row`'s moves hash changed (a game
/// analysed with other moves); returns that game's number.
fn with_other_moves(analysis: &Path, row: usize, to: &Path) -> u64 {
    let text = std::fs::read_to_string(analysis).unwrap();
    let mut rows: Vec<String> = text.lines().map(str::to_string).collect();
    let mut game: Value = serde_json::from_str(&rows[row]).unwrap();
    game["moves_hash"] = Value::from("0000000000000000");
    rows[row] = game.to_string();
    std::fs::write(to, rows.join("\n") + "\n").unwrap();
    game["game"].as_u64().unwrap()
}

/// A refused report leaves the file it would have written as it was.
const EARLIER_REPORT: &str = "an earlier report";

fn assert_untouched(html: &Path) {
    assert_eq!(
        std::fs::read_to_string(html).unwrap(),
        EARLIER_REPORT,
        "nothing written"
    );
}

#[test]
fn a_match_is_judged_move_by_move_resumed_sharded_and_reported() {
    let dir = scratch("analyze");
    let games = small_match(&dir, "5");
    let whole = dir.join("whole.jsonl");
    analyze(&[&games], &whole, &["--threads", "2"], 0);

    // One line per game; every move of the bots judged, in order.
    let records: Vec<Value> = crate::common::games(&games);
    let analysed = lines(&whole);
    assert_eq!(analysed.len(), 6);
    let mut mistakes = 0;
    for (game, a) in &analysed {
        let r = records.iter().find(|r| r["game"] == *game).unwrap();
        let moves = a["moves"].as_array().unwrap();
        let played: Vec<&Value> = r["moves"].as_array().unwrap().iter().collect();
        assert_eq!(moves.len(), played.len(), "game {game}");
        for (m, p) in moves.iter().zip(&played) {
            assert_eq!(m["square"], p["square"]);
            assert_eq!(m["by"], p["by"]);
            let loss = m["loss"].as_f64().unwrap();
            assert!(loss >= 0.0, "{m}");
            let (v, pv) = (
                m["value"].as_f64().unwrap(),
                m["played_value"].as_f64().unwrap(),
            );
            assert!((loss - (v - pv)).abs() < 1e-9, "{m}");
            if m["best"] == m["square"] {
                assert_eq!(loss, 0.0, "{m}");
            }
            mistakes += usize::from(loss >= 2.0);
            // Positions of 10 empties or fewer are solved (move n is
            // played on 61 - n empties: passes place no disc).
            let empties = 61 - m["n"].as_u64().unwrap();
            assert_eq!(m["exact"], empties <= 10, "{m}");
        }
    }
    assert!(mistakes > 0, "a depth-1 bot makes mistakes");

    // Interrupted in the middle of a line: continued, the torn line cut,
    // the same analysis as in one go.
    let resumed = dir.join("resumed.jsonl");
    let full = std::fs::read_to_string(&whole).unwrap();
    let cut: Vec<&str> = full.split_inclusive('\n').collect();
    let torn = cut[..3].concat() + &cut[3][..cut[3].len() / 2];
    std::fs::write(&resumed, &torn).unwrap();
    // The report refuses the torn line, and an earlier report stays...
    let html = dir.join("report.html");
    std::fs::write(&html, EARLIER_REPORT).unwrap();
    let o = run(
        &[
            "report",
            games.to_str().unwrap(),
            "--analysis",
            resumed.to_str().unwrap(),
            "-o",
            html.to_str().unwrap(),
        ],
        2,
    );
    let e = errors(&o);
    assert!(
        e.contains(&format!("{}:4: torn last line", resumed.display())),
        "{e}"
    );
    assert_untouched(&html);
    // ...and analyze continues it.
    let e = analyze(&[&games], &resumed, &[], 0);
    assert!(e.contains("2 games already judged, 4 to judge"), "{e}");
    assert!(e.contains(":4: torn last line"), "{e}");
    assert_eq!(lines(&resumed), analysed);
    // Nothing left: nothing judged again.
    let e = analyze(&[&games], &resumed, &[], 0);
    assert!(e.contains("6 games already judged, 0 to judge"), "{e}");

    // Two shards, merged by the report and the summary.
    let (s1, s2) = (dir.join("s1.jsonl"), dir.join("s2.jsonl"));
    analyze(&[&games], &s1, &["--shard", "1/2"], 0);
    analyze(&[&games], &s2, &["--shard", "2/2"], 0);
    assert_eq!(lines(&s1).len() + lines(&s2).len(), 6);
    let mut merged = lines(&s1);
    merged.extend(lines(&s2));
    merged.sort_by_key(|(g, _)| *g);
    assert_eq!(merged, analysed, "shards judge as the whole does");
    let summary_of = |analysis: &[&Path]| {
        let mut args = vec!["summary", games.to_str().unwrap()];
        for a in analysis {
            args.extend(["--analysis", a.to_str().unwrap()]);
        }
        text(&run(&args, 0))
    };
    let one = summary_of(&[&whole]);
    assert_eq!(summary_of(&[&s1, &s2]), one);
    assert!(one.contains("Analysis (6 games, judge: depth 3 selective, exact from 10 empties)"));
    assert!(one.contains("  moves 41-60:"), "{one}");
    // By empties before the move (61 - n: the analysis numbers the moves
    // that place a disc): p1's moves with 20 empties or fewer, and the
    // same with other buckets; bad buckets are refused by name.
    let p1_moves = |empties: std::ops::RangeInclusive<u64>| {
        analysed
            .iter()
            .flat_map(|(_, a)| a["moves"].as_array().unwrap())
            .filter(|m| m["by"] == "p1" && empties.contains(&(61 - m["n"].as_u64().unwrap())))
            .count()
    };
    let line = |text: &str, bucket: &str| -> String {
        let at = text
            .find(&format!("  empties {bucket:>5}: "))
            .expect(bucket);
        text[at..].lines().next().unwrap().to_string()
    };
    assert!(
        line(&one, "20-1").starts_with(&format!("  empties  20-1: {:>4} moves", p1_moves(1..=20))),
        "{one}"
    );
    assert!(one.contains("  empties 60-41:"), "{one}");
    let mut args = vec!["summary", games.to_str().unwrap(), "--analysis"];
    args.extend([whole.to_str().unwrap(), "--empties-buckets", "30-11,9"]);
    let other = text(&run(&args, 0));
    assert!(
        line(&other, "30-11")
            .starts_with(&format!("  empties 30-11: {:>4} moves", p1_moves(11..=30))),
        "{other}"
    );
    assert!(
        line(&other, "9").starts_with(&format!("  empties     9: {:>4} moves", p1_moves(9..=9))),
        "{other}"
    );
    assert!(!other.contains("  empties 60-41"), "{other}");
    for (bad, says) in [
        (
            "20-40",
            "\"20-40\": a bucket goes from more empties to fewer (40-20)",
        ),
        ("60-41,61", "\"61\" is not a bucket of empties"),
    ] {
        let g = games.to_str().unwrap();
        for args in [
            vec!["summary", g, "--empties-buckets", bad],
            vec!["report", g, "-o", "x.html", "--empties-buckets", bad],
        ] {
            let o = run(&args, 2);
            let e = errors(&o);
            assert!(e.contains(says), "{args:?}: {e}");
        }
    }

    // The report: the page's data holds each game's chart, its mistakes
    // marked, as many as the analysis has.
    run(
        &[
            "report",
            games.to_str().unwrap(),
            "--analysis",
            s1.to_str().unwrap(),
            "--analysis",
            s2.to_str().unwrap(),
            "-o",
            html.to_str().unwrap(),
        ],
        0,
    );
    let page = std::fs::read_to_string(&html).unwrap();
    assert_eq!(
        page.matches("<circle class=\\\"mistake").count(),
        mistakes,
        "one mark per mistake"
    );
    assert_eq!(page.matches("<svg class=\\\"judge-chart").count(), 6);
    assert!(page.contains("\"analysis\":{\"judge\":\"depth 3 selective, exact from 10 empties\""));
    assert!(
        page.contains("\"empties_buckets\":[\"60-41\",\"40-27\",\"26-23\",\"22-21\",\"20-1\"]"),
        "the page's data has the losses by empties"
    );
    // The analysis beside the games file is found without --analysis.
    let beside = dir.join("games-5.analysis.jsonl");
    std::fs::copy(&whole, &beside).unwrap();
    let html2 = dir.join("report2.html");
    run(
        &[
            "report",
            games.to_str().unwrap(),
            "-o",
            html2.to_str().unwrap(),
        ],
        0,
    );
    assert_eq!(std::fs::read_to_string(&html2).unwrap(), page);
    // A stale analysis beside the games (one game's moves differ, as after
    // the match was played again into the same file) is ignored with a
    // warning, not an error: the user did not name it.
    with_other_moves(&beside, 1, &beside);
    let o = run(
        &[
            "report",
            games.to_str().unwrap(),
            "-o",
            html2.to_str().unwrap(),
        ],
        0,
    );
    let e = errors(&o);
    assert!(
        e.contains("warning: ignoring the analysis beside the games")
            && e.contains(":2: game ")
            && e.contains("or name one as --analysis FILE)"),
        "{e}"
    );
    let plain = std::fs::read_to_string(&html2).unwrap();
    assert_eq!(
        plain.matches("<svg class=\\\"judge-chart").count(),
        0,
        "no analysis used"
    );
    // Named with --analysis, the same file is an error.
    run(
        &[
            "report",
            games.to_str().unwrap(),
            "--analysis",
            beside.to_str().unwrap(),
            "-o",
            html2.to_str().unwrap(),
        ],
        2,
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_analysis_of_other_games_and_bad_games_are_refused_by_file_and_line() {
    let dir = scratch("analyze-bad");
    let games = small_match(&dir, "6");
    let good = dir.join("good.jsonl");
    analyze(&[&games], &good, &["--threads", "1"], 0);
    let html = dir.join("r.html");
    std::fs::write(&html, EARLIER_REPORT).unwrap();
    let report = |analysis: &Path| {
        let o = run(
            &[
                "report",
                games.to_str().unwrap(),
                "--analysis",
                analysis.to_str().unwrap(),
                "-o",
                html.to_str().unwrap(),
            ],
            2,
        );
        errors(&o)
    };

    // A game whose moves differ (its hash): named by its analysis line.
    let other = dir.join("other.jsonl");
    let game = with_other_moves(&good, 2, &other);
    let e = report(&other);
    assert!(
        e.contains(&format!(
            "{}:3: game {game}'s moves differ from the games file's (an analysis of other games)",
            other.display()
        )),
        "{e}"
    );
    assert_untouched(&html);
    // ...and analyze will not continue it either.
    let e = analyze(&[&games], &other, &[], 2);
    assert!(
        e.contains(&format!(
            "{}:3: game {game}'s moves differ",
            other.display()
        )),
        "{e}"
    );

    // The analysis of another match.
    let foreign = small_match(&dir, "7");
    let o = run(
        &[
            "summary",
            foreign.to_str().unwrap(),
            "--analysis",
            good.to_str().unwrap(),
        ],
        2,
    );
    let e = errors(&o);
    assert!(
        e.contains(&format!(
            "{}:1: an analysis of another match",
            good.display()
        )),
        "{e}"
    );

    // Other settings are not continued; a games file is not overwritten.
    let e = analyze(&[&games], &good, &["--depth", "4"], 2);
    assert!(
        e.contains(&format!("{}:1: judged at other settings", good.display())),
        "{e}"
    );
    let before = std::fs::read(&foreign).unwrap();
    let e = analyze(&[&games], &foreign, &[], 2);
    assert!(e.contains("not an analysis"), "{e}");
    assert_eq!(std::fs::read(&foreign).unwrap(), before);

    // A games file with an illegal move: named, nothing written.
    let records = std::fs::read_to_string(&games).unwrap();
    let mut rows: Vec<String> = records.lines().map(str::to_string).collect();
    let mut r: Value = serde_json::from_str(&rows[3]).unwrap();
    let g = r["game"].as_u64().unwrap();
    r["moves"][0]["square"] = Value::from("a1");
    rows[3] = r.to_string();
    let broken = dir.join("broken.jsonl");
    std::fs::write(&broken, rows.join("\n") + "\n").unwrap();
    let out = dir.join("never.jsonl");
    let e = analyze(&[&broken], &out, &[], 2);
    assert!(
        e.contains(&format!(
            "{}:4: game {g}: move 1 (a1) is not legal",
            broken.display()
        )),
        "{e}"
    );
    assert!(!out.exists(), "nothing written");
    // Bad settings.
    let e = analyze(&[&games], &out, &["--depth", "0"], 2);
    assert!(e.contains("--depth: 1 to 30, found 0"), "{e}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The games' positions where `empties` remain and their judged values,
/// the slow way: the transcript of each judged move whose number says it
/// was played there (move n on 61 - n empties), from the two files.
fn expected_cuts(games: &Path, analysis: &Path, empties: u64) -> Vec<(String, f64)> {
    let records: Vec<Value> = crate::common::games(games);
    let mut out = Vec::new();
    for (game, a) in lines(analysis) {
        let r = records.iter().find(|r| r["game"] == game).unwrap();
        let mut transcript = r["opening"].as_str().unwrap().to_string();
        for (m, p) in a["moves"]
            .as_array()
            .unwrap()
            .iter()
            .zip(r["moves"].as_array().unwrap())
        {
            if 61 - m["n"].as_u64().unwrap() == empties {
                out.push((transcript.clone(), m["value"].as_f64().unwrap()));
                break;
            }
            transcript.push_str(p["square"].as_str().unwrap());
        }
    }
    out
}

/// `referee openings` output's positions: (transcript, empties, value).
fn openings_lines(text: &str) -> Vec<(String, u64, f64)> {
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| {
            let (transcript, comment) = l.split_once(" # ").expect("a comment");
            let (count, value) = comment
                .split_once(" empties, judge ")
                .expect("count and value");
            (
                transcript.into(),
                count.parse().unwrap(),
                value.parse().unwrap(),
            )
        })
        .collect()
}

#[test]
fn openings_are_cut_from_judged_games_near_a_draw() {
    let dir = scratch("openings");
    let games = small_match(&dir, "9");
    // The analysis beside the games file, found without being named.
    let beside = dir.join("games-9.analysis.jsonl");
    analyze(&[&games], &beside, &["--threads", "2"], 0);
    let g = games.to_str().unwrap();

    let all = text(&run(
        &["openings", g, "--empties", "40,50", "--within", "64"],
        0,
    ));
    assert!(
        all.starts_with("# referee openings --empties 40,50 --within 64 "),
        "{all}"
    );
    let got = openings_lines(&all);
    // Every game reaches 50 and 40 empties; the counts in the order given,
    // each transcript once, the value as printed (one decimal).
    let mut want: Vec<(String, u64, f64)> = Vec::new();
    let mut raw = Vec::new();
    for empties in [40, 50] {
        for (t, v) in expected_cuts(&games, &beside, empties) {
            if !want.iter().any(|w| w.0 == t) {
                want.push((t.clone(), empties, format!("{v:.1}").parse().unwrap()));
                raw.push((t, empties, v));
            }
        }
    }
    assert!(want.len() >= 6, "{want:?}");
    let by_count = |a: &(String, u64, f64), b: &(String, u64, f64)| (a.1, &a.0).cmp(&(b.1, &b.0));
    let (mut sorted_got, mut sorted_want) = (got.clone(), want.clone());
    sorted_got.sort_by(by_count);
    sorted_want.sort_by(by_count);
    assert_eq!(sorted_got, sorted_want);
    assert!(
        got.windows(2).all(|w| !(w[0].1 == 50 && w[1].1 == 40)),
        "40 first: {got:?}"
    );
    for (t, e, _) in &got {
        let game = othello::Game::from_transcript(t).expect("a legal transcript");
        assert_eq!(u64::from(game.board().empty_count()), *e, "{t}");
    }

    // A narrower margin keeps exactly the positions within it (seed 9
    // has some within 3 discs at 50 empties, and some beyond); the file it
    // writes is one `--openings` plays.
    let file = dir.join("near.txt");
    let spec = format!("{g}:{}", beside.display());
    let out_file = file.to_str().unwrap();
    run(
        &[
            "openings",
            &spec,
            "--empties",
            "50",
            "--within",
            "3",
            "-o",
            out_file,
        ],
        0,
    );
    let near = openings_lines(&std::fs::read_to_string(&file).unwrap());
    let mut within: Vec<(String, u64, f64)> = raw
        .iter()
        .filter(|w| w.1 == 50 && w.2.abs() <= 3.0)
        .map(|w| (w.0.clone(), w.1, format!("{:.1}", w.2).parse().unwrap()))
        .collect();
    assert!(!within.is_empty(), "seed 9 keeps some at 50 empties");
    assert!(
        within.len() < raw.iter().filter(|w| w.1 == 50).count(),
        "and leaves some out"
    );
    let mut sorted_near = near.clone();
    sorted_near.sort_by(by_count);
    within.sort_by(by_count);
    assert_eq!(sorted_near, within);
    let bot = format!("{} --depth 1", othello().display());
    let out = dir.join("from-near.jsonl");
    run(
        &[
            "--p1",
            &bot,
            "--p2",
            &bot,
            "--games",
            "2",
            "--openings",
            file.to_str().unwrap(),
            "--games-out",
            out.to_str().unwrap(),
        ],
        0,
    );
    let played = crate::common::games(&out);
    assert_eq!(played[0]["opening"].as_str().unwrap(), near[0].0);

    // Bad input is named: no analysis, an analysis of other games, a bad
    // count or margin, an output that cannot be written or is an input
    // (which stays as it was).
    let alone = dir.join("alone.jsonl");
    std::fs::copy(&games, &alone).unwrap();
    let e = errors(&run(&["openings", alone.to_str().unwrap()], 2));
    assert!(e.contains("alone.jsonl: no analysis of these games"), "{e}");
    // A stale analysis beside the games is ignored with a warning that
    // names this command's way of naming one.
    let stale = dir.join("stale.jsonl");
    std::fs::copy(&games, &stale).unwrap();
    with_other_moves(&beside, 2, &dir.join("stale.analysis.jsonl"));
    let e = errors(&run(&["openings", stale.to_str().unwrap()], 2));
    let warning = e
        .lines()
        .find(|l| l.contains("warning: ignoring the analysis beside"));
    assert!(
        warning.is_some_and(|w| w.contains("or name one as GAMES:ANALYSIS)"))
            && e.contains("stale.jsonl: no analysis of these games"),
        "{e}"
    );
    let other = dir.join("other.analysis.jsonl");
    let game = with_other_moves(&beside, 2, &other);
    let spec = format!("{g}:{}", other.display());
    let e = errors(&run(&["openings", &spec], 2));
    assert!(
        e.contains(&format!("game {game}'s moves differ")) && e.contains("other.analysis.jsonl"),
        "{e}"
    );
    let e = errors(&run(&["openings", g, "--empties", "26,60"], 2));
    assert!(e.contains("--empties"), "{e}");
    let e = errors(&run(&["openings", g, "--empties", "26,24,26"], 2));
    assert!(e.contains("--empties: 26 is given twice"), "{e}");
    let e = errors(&run(&["openings", g, "--within", "-1"], 2));
    assert!(e.contains("expected a number of discs"), "{e}");
    let nowhere = dir.join("missing-dir").join("x.txt");
    let e = errors(&run(&["openings", g, "-o", nowhere.to_str().unwrap()], 2));
    assert!(e.contains("--output"), "{e}");
    let before = std::fs::read_to_string(&games).unwrap();
    let e = errors(&run(&["openings", g, "-o", g], 2));
    assert!(e.contains("is the input"), "{e}");
    assert_eq!(
        std::fs::read_to_string(&games).unwrap(),
        before,
        "the games file untouched"
    );
    // A failed run leaves no output behind.
    let left = dir.join("left.txt");
    let e = errors(&run(&["openings", &spec, "-o", left.to_str().unwrap()], 2));
    assert!(e.contains("moves differ"), "{e}");
    assert!(!left.exists(), "no empty file left");
}

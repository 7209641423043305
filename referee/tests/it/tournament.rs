//! `referee tournament`: a round-robin of fixed-depth bots rated in the
//! order of their depths, a gauntlet, shards merged equal to the whole run,
//! a run killed with SIGKILL and resumed, and the refusals.

use crate::common::{arg, bot, games, json, othello, run, scratch};
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::Path;

/// `NAME=othello --depth D`.
fn depth(d: u32) -> String {
    format!("d{d}={} --depth {d}", othello().display())
}

/// A tournament of `bots` with `extra` options; panics unless the referee
/// exits with `status`.
fn tournament(bots: &[String], extra: &[&str], status: i32) -> std::process::Output {
    let mut args = vec!["tournament".to_string()];
    for b in bots {
        args.push("--bot".into());
        args.push(b.clone());
    }
    args.extend(extra.iter().map(|s| s.to_string()));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    run(&args, status)
}

fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// The bot of `summary` named `name`.
fn named<'a>(summary: &'a Value, name: &str) -> &'a Value {
    summary["bots"]
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["name"] == name)
        .unwrap_or_else(|| panic!("no bot {name} in {summary}"))
}

fn elo(summary: &Value, name: &str) -> f64 {
    named(summary, name)["elo"].as_f64().expect("rated")
}

/// The options of the 3-bot round-robin of these tests.
const ROUND_ROBIN: [&str; 8] = [
    "--games-per-pair",
    "12",
    "--seed",
    "5",
    "--random-openings",
    "6",
    "--concurrency",
    "2",
];

/// A gauntlet of 2 games per pair, seed 1.
const SMALL_GAUNTLET: [&str; 6] = [
    "--format",
    "gauntlet",
    "--games-per-pair",
    "2",
    "--seed",
    "1",
];

#[test]
fn a_round_robin_of_three_depths_rates_them_by_depth() {
    let dir = scratch("tourney-rr");
    let (out_json, out_html, games_out) =
        (dir.join("t.json"), dir.join("t.html"), dir.join("t.jsonl"));
    let bots = [depth(1), depth(2), depth(3)];
    let mut extra = ROUND_ROBIN.to_vec();
    extra.extend([
        "--json",
        arg(&out_json),
        "--html",
        arg(&out_html),
        "--games-out",
        arg(&games_out),
        "--anchor",
        "d2",
    ]);
    let out = tournament(&bots, &extra, 0);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("anchor d2 = 0"), "{text}");
    assert!(
        text.contains("prior 1 virtual draw between each pair of bots that played each other"),
        "{text}"
    );
    assert!(text.contains("Crosstable"), "{text}");
    let s = json(&out_json);
    assert_eq!(s["games"], 36);
    assert_eq!(s["format"], "round-robin");
    assert!(s["unrated"].is_null(), "{s}");
    assert_eq!(elo(&s, "d2"), 0.0);
    assert!(
        elo(&s, "d3") > elo(&s, "d2") && elo(&s, "d2") > elo(&s, "d1"),
        "{s}"
    );
    assert_eq!(named(&s, "d3")["rank"], 1);
    assert_eq!(named(&s, "d1")["rank"], 3);
    for b in s["bots"].as_array().unwrap() {
        assert_eq!(b["games"], 24);
    }
    // Every pair played 12 games on 6 openings, colours swapped.
    let records = games(&games_out);
    assert_eq!(records.len(), 36);
    let numbers: BTreeSet<u64> = records
        .iter()
        .map(|g| g["game"].as_u64().unwrap())
        .collect();
    assert_eq!(numbers, (1..=36).collect());
    // Numbered opening by opening: games 1-6 are the first opening of
    // each pair (two games each, colours swapped), 7-12 the second...
    let game = |n: u64| records.iter().find(|g| g["game"] == n).unwrap();
    assert_eq!(game(1)["bots"], serde_json::json!(["d1", "d2"]));
    assert_eq!(game(3)["bots"], serde_json::json!(["d1", "d3"]));
    assert_eq!(game(6)["bots"], serde_json::json!(["d2", "d3"]));
    assert_eq!(game(7)["bots"], serde_json::json!(["d1", "d2"]));
    assert_eq!(game(36)["bots"], serde_json::json!(["d2", "d3"]));
    assert_eq!(game(3)["opening"], game(1)["opening"]);
    assert_eq!(game(6)["opening"], game(1)["opening"]);
    assert_eq!(game(8)["opening"], game(7)["opening"]);
    assert_eq!(
        (game(5)["black"].as_str(), game(6)["black"].as_str()),
        (Some("p1"), Some("p2"))
    );
    // The crosstable mirrors itself.
    let x = &s["crosstable"];
    assert_eq!(x[0][1]["wins"], x[1][0]["losses"]);
    assert_eq!(x[2][0]["draws"], x[0][2]["draws"]);
    // The page has the list and the crosstable; `referee summary` and
    // `referee report` of the file say the same as the run.
    let page = std::fs::read_to_string(&out_html).unwrap();
    assert!(page.contains("id=\"rating-list\"") && page.contains("id=\"crosstable\""));
    let again = dir.join("again.json");
    run(&["summary", arg(&games_out), "--json", arg(&again)], 0);
    assert_eq!(json(&again), s);
    let report = dir.join("report.html");
    run(&["report", arg(&games_out), "-o", arg(&report)], 0);
    assert_eq!(std::fs::read_to_string(&report).unwrap(), page);
}

#[test]
fn a_gauntlet_plays_the_first_bot_against_each_other() {
    let dir = scratch("tourney-gauntlet");
    let bots_file = dir.join("bots.toml");
    let bot = othello();
    std::fs::write(
        &bots_file,
        format!(
            "# the candidate first\n[[bot]]\nname = \"d2\"\ncommand = \"{0} --depth 2\"\n\n\
             [[bot]]\nname = \"twin\"\ncommand = \"{0} --depth 2\"\n",
            bot.display()
        ),
    )
    .unwrap();
    let out_json = dir.join("g.json");
    let out = run(
        &[
            "tournament",
            "--bots",
            arg(&bots_file),
            "--bot",
            &depth(3),
            "--format",
            "gauntlet",
            "--games-per-pair",
            "8",
            "--seed",
            "3",
            "--random-openings",
            "6",
            "--concurrency",
            "2",
            "--json",
            arg(&out_json),
        ],
        0,
    );
    let s = json(&out_json);
    assert_eq!(s["format"], "gauntlet");
    assert_eq!(s["games"], 16);
    assert_eq!(s["anchor"], "d2");
    let names: Vec<&str> = s["bots"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["d2", "twin", "d3"]);
    assert_eq!(named(&s, "d2")["games"], 16);
    assert_eq!(named(&s, "twin")["games"], 8);
    assert_eq!(named(&s, "d3")["games"], 8);
    // Rated through the candidate: twin and d3 never met.
    assert!(s["unrated"].is_null(), "{s}");
    assert!(elo(&s, "d3") > 0.0, "{s}");
    let x = &s["crosstable"];
    assert_eq!(
        x[1][2],
        serde_json::json!({"wins": 0, "draws": 0, "losses": 0})
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("Tournament (gauntlet): 3 bots, 16 games"),
        "{text}"
    );
}

/// A summary without what differs from run to run: nothing (a tournament
/// summary has no think times), so the whole of it.
fn summary_of(dir: &Path, files: &[&Path], name: &str) -> Value {
    let out = dir.join(name);
    let mut args = vec!["summary"];
    args.extend(files.iter().map(|f| arg(f)));
    args.extend(["--json", arg(&out)]);
    run(&args, 0);
    json(&out)
}

#[test]
fn shards_merged_and_a_run_killed_and_resumed_equal_the_whole_run() {
    let dir = scratch("tourney-shards");
    let bots = [depth(1), depth(2), depth(3)];
    let base = [
        "--games-per-pair",
        "4",
        "--seed",
        "11",
        "--random-openings",
        "4",
        "--concurrency",
        "1",
    ];
    let whole = dir.join("whole.jsonl");
    tournament(
        &bots,
        &[&base[..], &["--games-out", arg(&whole)]].concat(),
        0,
    );
    let expected = summary_of(&dir, &[&whole], "whole.json");
    assert_eq!(expected["games"], 12);

    let shards = [dir.join("s1.jsonl"), dir.join("s2.jsonl")];
    for (i, shard) in shards.iter().enumerate() {
        let spec = format!("{}/2", i + 1);
        tournament(
            &bots,
            &[&base[..], &["--shard", &spec, "--games-out", arg(shard)]].concat(),
            0,
        );
    }
    assert_eq!(
        summary_of(&dir, &[&shards[1], &shards[0]], "merged.json"),
        expected
    );
    // Shard 2/2 holds pairs 1, 3, 5 of games: games 3, 4, 7, 8, 11, 12.
    let numbers: BTreeSet<u64> = games(&shards[1])
        .iter()
        .map(|g| g["game"].as_u64().unwrap())
        .collect();
    assert_eq!(numbers, BTreeSet::from([3, 4, 7, 8, 11, 12]));
    // A missing shard is named; the same shard twice is refused.
    let out = run(&["summary", arg(&shards[0])], 2);
    assert!(
        stderr(&out).contains("shards missing: 2/2"),
        "{}",
        stderr(&out)
    );
    let out = run(&["summary", arg(&shards[0]), arg(&shards[0])], 2);
    assert!(
        stderr(&out).contains("shard 1/2 is also"),
        "{}",
        stderr(&out)
    );

    // Killed with SIGKILL after a few games, a torn line left behind; the
    // same command with --resume completes it, each game once.
    let killed = dir.join("killed.jsonl");
    let mut args = vec!["tournament".to_string()];
    for b in &bots {
        args.extend(["--bot".to_string(), b.clone()]);
    }
    args.extend(base.iter().map(|s| s.to_string()));
    args.extend(["--games-out".to_string(), arg(&killed).to_string()]);
    let mut child = crate::common::referee()
        .args(&args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let waited = std::time::Instant::now();
    while std::fs::read_to_string(&killed).map_or(0, |t| t.lines().count()) < 3 {
        assert!(waited.elapsed().as_secs() < 60, "no game finished");
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let mut text = std::fs::read_to_string(&killed).unwrap();
    // Complete lines only: the kill may have torn the last one.
    let before = text
        .split_inclusive('\n')
        .skip(1)
        .filter(|l| l.ends_with('\n') && serde_json::from_str::<Value>(l).is_ok())
        .count();
    assert!(before >= 2, "{before} games before the kill");
    text.push_str("{\"game\":12,\"black\":\"p2\",\"open");
    std::fs::write(&killed, text).unwrap();
    args.push("--resume".into());
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = run(&args, 0);
    if before < 12 {
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            text.contains(&format!("resuming: {before} games")),
            "{text}"
        );
    }
    let numbers: Vec<u64> = games(&killed)
        .iter()
        .map(|g| g["game"].as_u64().unwrap())
        .collect();
    assert_eq!(numbers.len(), 12, "{numbers:?}");
    assert_eq!(
        numbers.iter().copied().collect::<BTreeSet<_>>(),
        (1..=12).collect()
    );
    assert_eq!(summary_of(&dir, &[&killed], "resumed.json"), expected);

    // A resume of another tournament, or of a shard as the whole: refused.
    let mut other: Vec<&str> = args.clone();
    let seed = other.iter().position(|&a| a == "11").unwrap();
    other[seed] = "12";
    let out = run(&other, 2);
    assert!(
        stderr(&out).contains("belongs to another tournament"),
        "{}",
        stderr(&out)
    );
    let mut as_shard = args.clone();
    as_shard.extend(["--shard", "1/2"]);
    let out = run(&as_shard, 2);
    assert!(
        stderr(&out).contains("holds the whole tournament, not shard 1/2"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn what_cannot_be_played_or_rated_is_refused() {
    let dir = scratch("tourney-refusals");
    let d1 = depth(1);
    let refused = |args: &[&str], expected: &str| {
        let mut all = vec!["tournament"];
        all.extend_from_slice(args);
        let out = run(&all, 2);
        let err = stderr(&out);
        assert!(err.contains(expected), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "one line: {err}");
        assert!(out.stdout.is_empty(), "no game played: {args:?}");
    };
    refused(&["--bot", &d1], "at least two bots");
    refused(&["--bot", &d1, "--bot", &d1], "two bots are named \"d1\"");
    refused(
        &["--bot", &d1, "--bot", "nameless"],
        "expected NAME=COMMAND",
    );
    refused(&["--bot", &d1, "--bot", "x=/no/such/bot"], "not found");
    refused(&["--bot", &d1, "--bot", "me=human"], "not human players");
    refused(
        &["--bot", &d1, "--bot", &depth(2), "--games-per-pair", "3"],
        "--games-per-pair must be even",
    );
    refused(
        &["--bot", &d1, "--bot", &depth(2), "--anchor", "d9"],
        "--anchor: no bot is named \"d9\" (the bots: d1, d2)",
    );
    let bad = dir.join("bad.toml");
    std::fs::write(
        &bad,
        "[[bot]]\nname = \"a\"\ncommand = \"x\"\n\n[[bot]]\nname = 3\n",
    )
    .unwrap();
    refused(
        &["--bots", arg(&bad)],
        &format!("--bots {}:6:", bad.display()),
    );
    std::fs::write(
        &bad,
        "[[bot]]\nname = \"a\"\ncommand = \"sh\"\ncolour = 1\n",
    )
    .unwrap();
    refused(
        &["--bots", arg(&bad)],
        &format!("--bots {}:4:", bad.display()),
    );
    std::fs::write(
        &bad,
        "[[bot]]\nname = \"a\"\ncommand = \"sh\"\n[[bot]]\nname = \"a\"\ncommand = \"sh\"\n",
    )
    .unwrap();
    refused(
        &["--bots", arg(&bad)],
        &format!("--bots {}:5: two bots are named \"a\"", bad.display()),
    );

    // Bots that the games do not link: a gauntlet's first shard alone. The
    // refusal names them, after the crosstable.
    let shard = dir.join("shard.jsonl");
    tournament(
        &[d1.clone(), depth(2), depth(3)],
        &[
            &SMALL_GAUNTLET[..],
            &["--concurrency", "1", "--shard", "1/2"],
            &["--games-out", arg(&shard)],
        ]
        .concat(),
        0,
    );
    let out = run(&["summary", "--partial", arg(&shard)], 2);
    let err = stderr(&out);
    assert!(
        err.contains(
            "cannot rate: d3 played no game linking them, directly or through others, to d1, d2"
        ),
        "{err}"
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("Crosstable") && text.contains("No rating list: cannot rate: d3"),
        "{text}"
    );

    // A match's file is not a tournament's, and the other way round.
    let match_file = dir.join("match.jsonl");
    crate::common::play(
        &bot("first.sh"),
        &bot("first.sh"),
        &["--games", "2", "--games-out", arg(&match_file)],
        0,
    );
    let out = run(&["summary", arg(&shard), arg(&match_file)], 2);
    assert!(
        stderr(&out).contains("a match's games file, not a tournament's"),
        "{}",
        stderr(&out)
    );
    let out = run(&["--replay", &format!("{}:1", arg(&shard))], 2);
    assert!(stderr(&out).contains("a tournament's games file, not a match's"));
}

/// `referee summary --json` of `file`, and its exit status checked.
fn summary_json(dir: &Path, file: &Path, name: &str) -> Value {
    let out = dir.join(name);
    run(&["summary", arg(file), "--json", arg(&out)], 0);
    json(&out)
}

#[test]
fn a_gauntlet_with_a_perfect_score_rates_everyone_with_the_prior() {
    // The candidate `mid` plays legal moves and then quits on its third
    // turn: it loses both games to `strong` (a perfect score) and wins both
    // against `ill` (which answers an illegal move: a zero score).
    let dir = scratch("tourney-perfect");
    let (out_json, games_out, out_html) =
        (dir.join("p.json"), dir.join("p.jsonl"), dir.join("p.html"));
    let out = tournament(
        &[
            format!("mid={} quit", bot("first.sh")),
            depth(1).replacen("d1=", "strong=", 1),
            format!("ill={}", bot("illegal.sh")),
        ],
        &[
            &SMALL_GAUNTLET[..],
            &[
                "--concurrency",
                "2",
                "--json",
                arg(&out_json),
                "--games-out",
                arg(&games_out),
                "--html",
                arg(&out_html),
            ],
        ]
        .concat(),
        0,
    );
    let s = json(&out_json);
    assert!(s["unrated"].is_null(), "{s}");
    assert_eq!(s["prior"]["virtual_draws_per_pair"], 1.0, "{s}");
    assert_eq!(
        s["prior"]["description"],
        "1 virtual draw between each pair of bots that played each other"
    );
    assert_eq!(named(&s, "strong")["wins"], 2);
    assert_eq!(named(&s, "ill")["losses"], 2);
    assert_eq!(named(&s, "mid")["faults"]["no_output"], 2);
    // By hand: 2-0 and one virtual draw is 2.5 points of 3, p = 5/6, Elo
    // 400 log10 5 = 279.588; information 3 * 5/6 * 1/6, 95% error
    // 1.959964 * sqrt(36 / 15) * 400 / ln 10 = 527.470.
    let gap = 400.0 * 5f64.log10();
    for (name, sign, rank, extreme) in [
        ("strong", 1.0, 1, "won_all"),
        ("mid", 0.0, 2, ""),
        ("ill", -1.0, 3, "lost_all"),
    ] {
        let b = named(&s, name);
        assert!((elo(&s, name) - sign * gap).abs() < 1e-6, "{name}: {b}");
        assert_eq!(b["rank"], rank, "{b}");
        if extreme.is_empty() {
            assert!(b["extreme"].is_null(), "{b}");
            assert_eq!(b["elo_error"], 0.0);
        } else {
            assert_eq!(b["extreme"], extreme, "{b}");
            let error = b["elo_error"].as_f64().unwrap();
            assert!((error - 527.470).abs() < 0.001, "{b}");
        }
    }
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains(">=279.6") && text.contains("<=-279.6"),
        "{text}"
    );
    assert!(
        text.contains("Note: strong won every game (>=: the games alone would rate it higher)"),
        "{text}"
    );
    assert!(text.contains("ill lost every game (<="), "{text}");
    let page = std::fs::read_to_string(&out_html).unwrap();
    assert!(
        page.contains("&gt;=279.6") && page.contains("Prior: 1 virtual draw"),
        "{page}"
    );
    // `referee summary` of the file rates it the same way, and exits 0.
    assert_eq!(summary_json(&dir, &games_out, "again.json"), s);
}

#[test]
fn a_tournament_grows_on_resume_playing_only_the_new_games() {
    let dir = scratch("tourney-grow");
    let bots = [depth(1), depth(2), format!("first={}", bot("first.sh"))];
    let base = [
        "--seed",
        "9",
        "--random-openings",
        "4",
        "--concurrency",
        "2",
    ];
    let (grown, whole) = (dir.join("grown.jsonl"), dir.join("whole.jsonl"));
    let (ggf, errors) = (dir.join("grown.ggf"), dir.join("stderr"));
    fn with<'a>(base: &[&'a str], extra: &[&'a str]) -> Vec<&'a str> {
        [base, extra].concat()
    }
    tournament(
        &bots,
        &with(
            &base,
            &["--games-per-pair", "2", "--games-out", arg(&grown)],
        ),
        0,
    );
    let before = std::fs::read_to_string(&grown).unwrap();
    assert_eq!(games(&grown).len(), 6);
    let out = tournament(
        &bots,
        &with(
            &base,
            &[
                "--games-per-pair",
                "4",
                "--games-out",
                arg(&grown),
                "--resume",
                "--ggf",
                arg(&ggf),
                "--stderr-dir",
                arg(&errors),
            ],
        ),
        0,
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("resuming: 6 games already played, 6 to play"),
        "{text}"
    );
    // The six games kept as they were (only the header changed), six new
    // ones numbered after them; only those were played: their bots'
    // stderr files are there, not the others'.
    let after = std::fs::read_to_string(&grown).unwrap();
    let header = |t: &str| serde_json::from_str::<Value>(t.lines().next().unwrap()).unwrap();
    assert_eq!(header(&before)["games_per_pair"], 2);
    assert_eq!(header(&after)["games_per_pair"], 4);
    let old_lines: Vec<&str> = before.lines().skip(1).collect();
    let kept: Vec<&str> = after.lines().skip(1).take(6).collect();
    assert_eq!(kept, old_lines);
    let numbers: Vec<u64> = games(&grown)
        .iter()
        .map(|g| g["game"].as_u64().unwrap())
        .collect();
    assert_eq!(numbers.len(), 12);
    assert_eq!(
        numbers.iter().copied().collect::<BTreeSet<_>>(),
        (1..=12).collect()
    );
    let files: BTreeSet<String> = std::fs::read_dir(&errors)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    let expected: BTreeSet<String> = (7..=12)
        .flat_map(|g| ["p1", "p2"].map(|s| format!("game-{g:04}-{s}.stderr")))
        .collect();
    assert_eq!(files, expected);
    // The GGF file holds all twelve games, the resumed ones too, with the
    // names of each game's bots.
    let ggf_text = std::fs::read_to_string(&ggf).unwrap();
    assert_eq!(ggf_text.lines().count(), 12, "{ggf_text}");
    assert!(ggf_text.lines().all(|l| l.starts_with("(;GM[Othello]")));
    assert!(ggf_text.contains("PB[d1]PW[d2]") && ggf_text.contains("PW[first]"));
    // The grown tournament is the tournament of 4 games per pair.
    tournament(
        &bots,
        &with(
            &base,
            &["--games-per-pair", "4", "--games-out", arg(&whole)],
        ),
        0,
    );
    assert_eq!(
        summary_json(&dir, &grown, "grown.json"),
        summary_json(&dir, &whole, "whole.json")
    );
    // It cannot shrink; a file numbered pair by pair (an older referee's)
    // cannot grow.
    let resume = |per_pair: &str, file: &Path| {
        tournament(
            &bots,
            &with(
                &base,
                &[
                    "--games-per-pair",
                    per_pair,
                    "--games-out",
                    arg(file),
                    "--resume",
                ],
            ),
            2,
        )
    };
    let err = stderr(&resume("2", &grown));
    assert!(err.contains("can grow, not shrink (found 2)"), "{err}");
    let older = dir.join("older.jsonl");
    let first_line = before.lines().next().unwrap();
    assert!(
        first_line.contains(",\"numbering\":\"by-opening\""),
        "{first_line}"
    );
    std::fs::write(
        &older,
        before.replacen(",\"numbering\":\"by-opening\"", "", 1),
    )
    .unwrap();
    let err = stderr(&resume("4", &older));
    assert!(err.contains("numbers its games pair by pair"), "{err}");
}

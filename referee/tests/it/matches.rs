//! The match runner: paired openings, seeds, resume, SPRT, outputs, and the
//! errors for bad arguments.

use crate::common::{arg, bot, games, json, play, run, scratch};
use std::collections::BTreeSet;

#[test]
fn openings_are_paired_with_colours_swapped() {
    let dir = scratch("pairs");
    let file = dir.join("openings.txt");
    std::fs::write(&file, "# two openings\nf5d6c3\n\nf5f6 # parallel\n").unwrap();
    let games_out = dir.join("games.jsonl");
    let summary = dir.join("summary.json");
    let ggf = dir.join("games.ggf");
    play(
        &bot("first.sh"),
        &bot("first.sh"),
        &[
            "--games",
            "5",
            "--openings",
            arg(&file),
            "--games-out",
            arg(&games_out),
            "--json",
            arg(&summary),
            "--ggf",
            arg(&ggf),
        ],
        0,
    );
    let mut records = games(&games_out);
    records.sort_by_key(|g| g["game"].as_u64());
    let seen: Vec<(&str, &str)> = records
        .iter()
        .map(|g| (g["opening"].as_str().unwrap(), g["black"].as_str().unwrap()))
        .collect();
    assert_eq!(
        seen,
        [
            ("f5d6c3", "p1"),
            ("f5d6c3", "p2"),
            ("f5f6", "p1"),
            ("f5f6", "p2"),
            ("f5d6c3", "p1")
        ]
    );
    let s = json(&summary);
    assert_eq!(s["games"], 5);
    let p1 = &s["p1"];
    let total = p1["wins"].as_u64().unwrap() + p1["draws"].as_u64().unwrap();
    assert_eq!(total + p1["losses"].as_u64().unwrap(), 5);
    // Identical deterministic bots: each pair is one win each.
    assert_eq!(s["pentanomial"], serde_json::json!([0, 0, 2, 0, 0]));
    assert!(s["sprt"].is_null());
    for key in ["score", "elo", "elo_error", "los", "timing"] {
        assert!(s.get(key).is_some(), "summary lacks {key}");
    }
    let phases = s["timing"]["p1"]["phases"].as_array().unwrap();
    assert_eq!(phases[0]["phase"], "1-20");
    let ggf = std::fs::read_to_string(&ggf).unwrap();
    assert_eq!(ggf.lines().count(), 5);
    assert!(ggf.lines().all(|l| l.starts_with("(;GM[Othello]")));
}

#[test]
fn a_seed_fixes_random_openings_and_bot_seeds() {
    let dir = scratch("seed");
    let play = |name: &str, seed: &str| {
        let path = dir.join(name);
        play(
            &bot("first.sh"),
            &bot("first.sh"),
            &[
                "--games",
                "4",
                "--random-openings",
                "6",
                "--seed",
                seed,
                "--games-out",
                arg(&path),
            ],
            0,
        );
        let mut g = games(&path);
        g.sort_by_key(|g| g["game"].as_u64());
        g.iter()
            .map(|g| (g["opening"].to_string(), g["seeds"].to_string()))
            .collect::<Vec<_>>()
    };
    let a = play("a.jsonl", "7");
    assert_eq!(a, play("b.jsonl", "7"));
    assert_ne!(a, play("c.jsonl", "8"));
    assert_eq!(a[0].0, a[1].0, "a pair shares its opening");
    assert_ne!(a[0].0, a[2].0);
    assert_eq!(a[0].0.len(), 12 + 2, "6 moves, quoted");
}

#[test]
fn resume_plays_only_the_missing_games() {
    let dir = scratch("resume");
    let games_out = dir.join("games.jsonl");
    let (first, flood) = (bot("first.sh"), bot("flood.sh"));
    let base = [
        "--games",
        "6",
        "--seed",
        "3",
        "--games-out",
        arg(&games_out),
    ];
    play(&first, &flood, &base, 0);
    let complete = std::fs::read_to_string(&games_out).unwrap();
    let lines: Vec<&str> = complete.lines().collect();
    assert_eq!(lines.len(), 7);

    // An interrupted run: the header, two games, and a line torn mid-write.
    let torn = format!(
        "{}\n{}\n{}\n{}",
        lines[0],
        lines[1],
        lines[2],
        &lines[3][..40]
    );
    std::fs::write(&games_out, &torn).unwrap();
    let summary = dir.join("summary.json");
    let resumed = [&base[..], &["--resume", "--json", arg(&summary)]].concat();
    let out = play(&first, &flood, &resumed, 0);
    assert!(String::from_utf8_lossy(&out.stdout).contains("resuming: 2 games already played"));
    let text = std::fs::read_to_string(&games_out).unwrap();
    let new_lines: Vec<&str> = text.lines().collect();
    assert_eq!(new_lines.len(), 7, "{text}");
    assert_eq!(&new_lines[..3], &lines[..3], "kept games are untouched");
    let numbers: BTreeSet<u64> = games(&games_out)
        .iter()
        .map(|g| g["game"].as_u64().unwrap())
        .collect();
    assert_eq!(numbers, (1..=6).collect());
    assert_eq!(json(&summary)["games"], 6);

    // A file of another match is refused.
    let other = [&base[..], &["--resume"]].concat();
    let out = play(&first, &first, &other, 2);
    assert!(String::from_utf8_lossy(&out.stderr).contains("belongs to another match"));

    // A game recorded twice, or a smaller --games than the file's, is
    // refused with the line; the file is left as it was.
    let twice = format!("{text}{}\n", new_lines[2]);
    std::fs::write(&games_out, &twice).unwrap();
    let out = play(&first, &flood, &other, 2);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("games.jsonl:8: game "), "{err}");
    assert!(err.contains(" is recorded twice (also on line 3)"), "{err}");
    assert_eq!(std::fs::read_to_string(&games_out).unwrap(), twice);
    std::fs::write(&games_out, &text).unwrap();
    let fewer = [&base[2..], &["--games", "2", "--resume"]].concat();
    let out = play(&first, &flood, &fewer, 2);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("is outside this match of 2 games"), "{err}");
    assert_eq!(std::fs::read_to_string(&games_out).unwrap(), text);
}

#[test]
fn a_match_interrupted_by_ctrl_c_resumes_without_losing_or_repeating_games() {
    let dir = scratch("interrupt");
    let games_out = dir.join("games.jsonl");
    let paused = format!("{} pause", bot("first.sh"));
    let args = [
        "--p1",
        &paused,
        "--p2",
        &paused,
        "--games",
        "4",
        "--concurrency",
        "1",
        "--seed",
        "9",
        "--games-out",
        arg(&games_out),
    ];
    let mut child = crate::common::referee()
        .args(args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let waited = std::time::Instant::now();
    while std::fs::read_to_string(&games_out).map_or(0, |t| t.lines().count()) < 2 {
        assert!(waited.elapsed().as_secs() < 60, "no game finished");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let pid = child.id().to_string();
    let status = std::process::Command::new("kill")
        .args(["-INT", &pid])
        .status()
        .unwrap();
    assert!(status.success());
    assert_eq!(child.wait().unwrap().code(), Some(130));
    let before = games(&games_out).len();
    assert!(
        (1..4).contains(&before),
        "{before} games before the interrupt"
    );
    // The resumed command may leave the seed out: the file's is used.
    let resumed: Vec<&str> = args
        .iter()
        .copied()
        .filter(|&a| a != "--seed" && a != "9")
        .collect();
    run(&[&resumed[..], &["--resume"]].concat(), 0);
    let numbers: Vec<u64> = games(&games_out)
        .iter()
        .map(|g| g["game"].as_u64().unwrap())
        .collect();
    let unique: BTreeSet<u64> = numbers.iter().copied().collect();
    assert_eq!(numbers.len(), 4, "{numbers:?}");
    assert_eq!(unique, (1..=4).collect());
}

#[test]
fn sprt_stops_a_lopsided_match_early() {
    let dir = scratch("sprt");
    let summary = dir.join("summary.json");
    play(
        &bot("first.sh"),
        &bot("illegal.sh"),
        &[
            "--games",
            "400",
            "--sprt",
            "elo0=0,elo1=20,alpha=0.05,beta=0.05",
            "--json",
            arg(&summary),
        ],
        0,
    );
    let s = json(&summary);
    let played = s["games"].as_u64().unwrap();
    assert!(played < 400, "played {played}");
    assert_eq!(s["sprt"]["result"], "H1");
    assert!(s["sprt"]["llr"].as_f64().unwrap() >= s["sprt"]["upper"].as_f64().unwrap());
    assert_eq!(s["p1"]["wins"].as_u64().unwrap(), played);
}

#[test]
fn an_openings_file_with_a_bad_line_is_refused_with_its_line_number() {
    let dir = scratch("bad-openings");
    let file = dir.join("openings.txt");
    std::fs::write(&file, "f5d6\n# fine so far\nf5d6c3c3\n").unwrap();
    let out = play(
        &bot("first.sh"),
        &bot("first.sh"),
        &["--openings", arg(&file)],
        2,
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("line 3: move 4: c3 is not a legal move"),
        "{err}"
    );
    let out = play(
        &bot("first.sh"),
        &bot("first.sh"),
        &["--openings", "/no/such/file"],
        2,
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("/no/such/file"));
}

#[test]
fn bad_arguments_exit_2_with_a_message() {
    let first = bot("first.sh");
    let cases: &[(&[&str], &str)] = &[
        (&["--p1", &first], "missing --p2"),
        (&["--p1", &first, "--p2", "/no/such/bot"], "not found"),
        (&["--p1", &first, "--p2", &first, "--bogus"], "--bogus"),
        (&["--p1", &first, "--p2", &first, "--games", "x"], "--games"),
        (
            &["--p1", &first, "--p2", &first, "--sprt", "elo0=5,elo1=1"],
            "--sprt",
        ),
        (
            &["--p1", &first, "--p2", &first, "--concurrency", "999"],
            "cores",
        ),
        (&["--p1", &first, "--p2", "sh -c 'open"], "--p2"),
        (&["--replay", "x.jsonl"], "FILE:N"),
        (&["--replay", "/no/such/file:1"], "/no/such/file"),
        // Unwritable outputs are refused before the first game.
        (
            &[
                "--p1",
                &first,
                "--p2",
                &first,
                "--json",
                "/no/such/dir/m.json",
            ],
            "--json /no/such/dir/m.json",
        ),
        (
            &["--p1", &first, "--p2", &first, "--ggf", "/tmp"],
            "--ggf /tmp: is a directory",
        ),
        (
            &[
                "--p1",
                &first,
                "--p2",
                &first,
                "--games-out",
                "/no/such/dir/g.jsonl",
            ],
            "/no/such/dir/g.jsonl",
        ),
    ];
    for (args, expected) in cases {
        let out = run(args, 2);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(expected), "{args:?}: {err}");
        assert!(
            !String::from_utf8_lossy(&out.stdout).contains("Score of"),
            "{args:?}: a match was played"
        );
    }
}

#[test]
fn replay_redraws_a_saved_game() {
    let dir = scratch("replay");
    let games_out = dir.join("games.jsonl");
    play(
        &bot("first.sh"),
        &bot("first.sh"),
        &["--games", "2", "--games-out", arg(&games_out)],
        0,
    );
    let spec = format!("{}:2", games_out.display());
    let out = run(&["--replay", &spec], 0);
    let text = String::from_utf8_lossy(&out.stdout);
    let g = games(&games_out)
        .into_iter()
        .find(|g| g["game"] == 2)
        .unwrap();
    let moves = g["moves"].as_array().unwrap().len();
    assert_eq!(text.matches(" plays ").count(), moves);
    let last = text
        .lines()
        .rev()
        .find(|l| l.contains("X (black)"))
        .unwrap();
    let expected = format!(
        "X (black) {}  O (white) {}",
        g["discs_black"], g["discs_white"]
    );
    assert!(last.contains(&expected), "{last} vs {expected}");
    let out = run(&["--replay", &format!("{}:9", games_out.display())], 2);
    assert!(String::from_utf8_lossy(&out.stderr).contains("no game 9"));
}

//! Sharded matches (`--shard I/N`) merged by `referee summary`: the same
//! games and the same results as one unsharded run; refusals of files that
//! do not make one match; the same through GNU parallel.
//!
//! GNU parallel comes from the system (`apt-get install parallel`). Where it
//! is missing that test says so and stops, unless
//! `REFEREE_PARALLEL=required` (CI sets it and installs parallel).

use crate::common::{json, othello, run, scratch};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// The match of these tests: reproducible fixed-depth bots, 10 games
/// (5 pairs) on random 4-ply openings.
fn match_args() -> Vec<String> {
    let bot = othello();
    [
        "--p1",
        &format!("{} --depth 3", bot.display()),
        "--p2",
        &format!("{} --depth 2", bot.display()),
        "--games",
        "10",
        "--seed",
        "21",
        "--random-openings",
        "4",
        "--concurrency",
        "1",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect()
}

fn play(extra: &[&str]) {
    let mut args = match_args();
    args.extend(extra.iter().map(|s| s.to_string()));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    run(&args, 0);
}

/// The games of games files, by number: what was played, not how long it
/// took (think times differ from run to run).
fn games(files: &[PathBuf]) -> Vec<Value> {
    let mut out: Vec<Value> = files
        .iter()
        .flat_map(|f| {
            std::fs::read_to_string(f)
                .unwrap()
                .lines()
                .skip(1)
                .map(|l| serde_json::from_str::<Value>(l).unwrap())
                .collect::<Vec<_>>()
        })
        .map(|g| {
            let squares: Vec<Value> = g["moves"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| m["square"].clone())
                .collect();
            serde_json::json!([
                g["game"],
                g["black"],
                g["opening"],
                squares,
                g["winner"],
                g["discs_black"],
                g["discs_white"],
                g["seeds"]
            ])
        })
        .collect();
    out.sort_by_key(|g| g[0].as_u64());
    out
}

/// A summary's results, without its think times.
fn results(summary: &Value) -> Value {
    let mut s = summary.clone();
    let map = s.as_object_mut().unwrap();
    map.remove("timing");
    s
}

fn path(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn shards_merged_equal_one_run_game_for_game() {
    let dir = scratch("shards");
    let whole = dir.join("whole.jsonl");
    let whole_json = dir.join("whole.json");
    play(&["--games-out", path(&whole), "--json", path(&whole_json)]);
    let shards: Vec<PathBuf> = (1..=3)
        .map(|i| dir.join(format!("shard{i}.jsonl")))
        .collect();
    for (i, shard) in shards.iter().enumerate() {
        play(&[
            "--shard",
            &format!("{}/3", i + 1),
            "--games-out",
            path(shard),
        ]);
    }
    assert_eq!(games(&shards), games(std::slice::from_ref(&whole)));
    // Shard 2 of 3 holds pairs 1 and 4: games 3, 4, 9, 10.
    let numbers: Vec<u64> = games(&shards[1..2])
        .iter()
        .map(|g| g[0].as_u64().unwrap())
        .collect();
    assert_eq!(numbers, [3, 4, 9, 10]);

    let merged_json = dir.join("merged.json");
    let out = run(
        &[
            "summary",
            path(&shards[2]),
            path(&shards[0]),
            path(&shards[1]),
            "--json",
            path(&merged_json),
        ],
        0,
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("Elo difference"), "{text}");
    assert_eq!(results(&json(&merged_json)), results(&json(&whole_json)));
    // The whole run's own file summarises to the same.
    let again = dir.join("again.json");
    run(&["summary", path(&whole), "--json", path(&again)], 0);
    assert_eq!(json(&again), json(&whole_json));

    // A missing shard is named; --partial summarises what is there.
    let out = run(&["summary", path(&shards[0]), path(&shards[2])], 2);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("shards missing: 2/3") && err.contains("games missing: 3, 4, 9, 10"),
        "{err}"
    );
    let out = run(
        &["summary", "--partial", path(&shards[0]), path(&shards[2])],
        0,
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("partial: 6 of 10 games recorded"), "{text}");

    // The same shard twice, a game in two files, another match: refused.
    let out = run(&["summary", path(&shards[0]), path(&shards[0])], 2);
    assert!(String::from_utf8_lossy(&out.stderr).contains("shard 1/3 is also"));
    let copy = dir.join("copy.jsonl");
    std::fs::copy(&shards[0], &copy).unwrap();
    let out = run(&["summary", path(&whole), path(&copy)], 2);
    assert!(String::from_utf8_lossy(&out.stderr).contains("is a shard and"));
    let other = dir.join("other.jsonl");
    let text =
        std::fs::read_to_string(&shards[1])
            .unwrap()
            .replacen("\"seed\":21", "\"seed\":22", 1);
    std::fs::write(&other, text).unwrap();
    let out = run(
        &["summary", path(&shards[0]), path(&other), path(&shards[2])],
        2,
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("another match"));
    // A game recorded twice across shards of one match (a file edited by hand).
    let twice = dir.join("twice.jsonl");
    let mut lines: Vec<String> = std::fs::read_to_string(&shards[1])
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    let stolen = std::fs::read_to_string(&shards[0])
        .unwrap()
        .lines()
        .nth(1)
        .unwrap()
        .to_string();
    lines.push(stolen);
    std::fs::write(&twice, lines.join("\n") + "\n").unwrap();
    let out = run(
        &["summary", path(&shards[0]), path(&twice), path(&shards[2])],
        2,
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("is also in") || err.contains("does not belong to shard 2/3"),
        "{err}"
    );

    // A shard resumes like any run, and only as that shard.
    let out = run(
        &{
            let mut a = match_args();
            a.extend(
                [
                    "--shard",
                    "2/3",
                    "--games-out",
                    path(&shards[0]),
                    "--resume",
                ]
                .map(String::from),
            );
            a
        }
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>(),
        2,
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("holds shard 1/3, not shard 2/3"));
}

#[test]
fn shards_run_by_gnu_parallel_merge_to_the_same_results() {
    let Some(parallel) = crate::system::find("parallel") else {
        let required = std::env::var("REFEREE_PARALLEL").is_ok_and(|v| v == "required");
        assert!(
            !required,
            "REFEREE_PARALLEL=required but no GNU parallel: apt-get install parallel"
        );
        eprintln!("no GNU parallel (apt-get install parallel): test not run");
        return;
    };
    let dir = scratch("parallel");
    let whole_json = dir.join("whole.json");
    play(&["--json", path(&whole_json)]);
    // parallel runs `referee ARGS --shard {}/2 --games-out DIR/shard{}.jsonl`
    // for {} = 1, 2, two jobs at a time, as the docs' recipe does.
    let referee = env!("CARGO_BIN_EXE_referee");
    let quoted: Vec<String> = match_args()
        .iter()
        .map(|a| shlex::try_quote(a).unwrap().into_owned())
        .collect();
    let command = format!(
        "{referee} {} --shard {{}}/2 --games-out {}/shard{{}}.jsonl",
        quoted.join(" "),
        dir.display()
    );
    let status = std::process::Command::new(parallel)
        .args([
            "--will-cite",
            "--halt",
            "now,fail=1",
            "-j",
            "2",
            &command,
            ":::",
            "1",
            "2",
        ])
        .stdout(std::process::Stdio::null())
        .status()
        .expect("parallel runs");
    assert!(status.success(), "parallel: {status}");
    let merged_json = dir.join("merged.json");
    let shards = [dir.join("shard1.jsonl"), dir.join("shard2.jsonl")];
    run(
        &[
            "summary",
            path(&shards[0]),
            path(&shards[1]),
            "--json",
            path(&merged_json),
        ],
        0,
    );
    assert_eq!(results(&json(&merged_json)), results(&json(&whole_json)));
}

//! `referee standing` on committed games (tests/data/standing-games.jsonl:
//! 8 games of greedy against random, seed 45, with passes (game 5 at 8
//! empties); game 4 ends with
//! 39 empties, game 6 with 20): every solve agrees with `othello solve` on
//! the same positions, the tables agree with the games' results, an
//! interrupted run continues, `--wld` gives the signs, the report shows the
//! standings, and bad input is refused with nothing written.

use crate::common::{json, othello, run, scratch};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Small counts, so that the solves are instant.
const EMPTIES: &str = "20,12,6";

fn data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/standing-games.jsonl")
}

/// The file's game lines by number, without the times (the only fields
/// that change from run to run).
fn lines(path: &Path) -> BTreeMap<u64, Value> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .skip(1)
        .map(|l| {
            let mut v: Value = serde_json::from_str(l).expect("a JSON line");
            v.as_object_mut().unwrap().remove("ms");
            for a in v["at"].as_array_mut().unwrap() {
                a.as_object_mut().unwrap().remove("ms");
            }
            (v["game"].as_u64().unwrap(), v)
        })
        .collect()
}

/// `othello solve`'s score for each OBF line (for the side to move).
fn solve(positions: &[String], wld: bool, dir: &Path) -> Vec<i64> {
    let file = dir.join(format!("positions-{wld}.obf"));
    std::fs::write(&file, positions.join("\n") + "\n").unwrap();
    let mut cmd = Command::new(othello());
    cmd.arg("solve").arg(&file);
    if wld {
        cmd.arg("--wld");
    }
    let out = cmd.output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with("total"))
        .map(|l| l.split_whitespace().nth(2).unwrap().parse().unwrap())
        .collect()
}

/// 0 won, 1 drawn, 2 lost, from a score's sign.
fn result_of(score: i64) -> usize {
    (1 - score.signum()) as usize
}

#[test]
fn standings_agree_with_othello_solve_and_with_the_games_results() {
    let dir = scratch("standing");
    let games = dir.join("games.jsonl");
    std::fs::copy(data(), &games).unwrap();
    let summary = dir.join("summary.json");
    let out = run(
        &[
            "standing",
            games.to_str().unwrap(),
            "--empties",
            EMPTIES,
            "--threads",
            "2",
            "--json",
            summary.to_str().unwrap(),
        ],
        0,
    );
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let file = dir.join("games.standing.jsonl");
    let got = lines(&file);
    assert_eq!(got.len(), 8, "every game has its line");

    // Every position, solved again by `othello solve`: the same score.
    let records: BTreeMap<u64, Value> = crate::common::games(&games)
        .into_iter()
        .map(|g| (g["game"].as_u64().unwrap(), g))
        .collect();
    let mut positions = Vec::new();
    let mut passed_before = 0;
    for g in got.values() {
        for a in g["at"].as_array().unwrap() {
            let obf = a["position"].as_str().unwrap().to_string();
            let black_to_move = obf.ends_with(" X;");
            let played = 60 - a["empties"].as_u64().unwrap();
            // Without a pass black moves after an even number of moves.
            passed_before += usize::from(black_to_move != played.is_multiple_of(2));
            positions.push(obf);
        }
    }
    assert!(passed_before > 0, "some position comes after a pass");
    let scores = solve(&positions, false, &dir);
    let mut k = 0;
    // p1's expected standing (rows) against its result (columns), per count.
    let mut expected = [[[0u64; 3]; 3]; 3];
    let mut ended_before = [[0u64; 3]; 3];
    for (n, g) in &got {
        let r = &records[n];
        let p1_black = r["black"] == "p1";
        let result = match r["winner"].as_str() {
            Some("p1") => 0,
            None => 1,
            _ => 2,
        };
        let at = g["at"].as_array().unwrap();
        for (stage, e) in [20, 12, 6].iter().enumerate() {
            match at.iter().find(|a| a["empties"] == *e) {
                Some(a) => {
                    let black = a["position"].as_str().unwrap().ends_with(" X;");
                    let solved = if black { scores[k] } else { -scores[k] };
                    k += 1;
                    assert_eq!(
                        a["score_black"].as_i64().unwrap(),
                        solved,
                        "game {n} at {e}"
                    );
                    let p1 = if p1_black { solved } else { -solved };
                    expected[stage][result_of(p1)][result] += 1;
                }
                None => ended_before[stage][result] += 1,
            }
        }
    }
    assert_eq!(k, scores.len());
    assert_eq!(
        got[&4]["at"],
        Value::Array(vec![]),
        "game 4 ended at 39 empties"
    );
    assert_eq!(got[&4]["final_empties"], 39);
    let at6 = got[&6]["at"].as_array().unwrap();
    assert_eq!(at6.len(), 1, "game 6 ended at 20 empties: there, not at 12");
    assert_eq!(
        at6[0]["score_black"], got[&6]["result_black"],
        "a finished game's score"
    );

    let s = json(&summary);
    for (stage, e) in [20, 12, 6].iter().enumerate() {
        let st = &s["stages"][stage];
        assert_eq!(st["empties"], *e);
        let table: Vec<Vec<u64>> = serde_json::from_value(st["table"].clone()).unwrap();
        assert_eq!(table, expected[stage].map(Vec::from).to_vec(), "at {e}");
        assert_eq!(
            st["ended_before"],
            serde_json::json!(ended_before[stage]),
            "at {e}"
        );
        assert_eq!(
            st["games"].as_u64().unwrap(),
            expected[stage].iter().flatten().sum::<u64>()
        );
        let p = &st["players"][0];
        assert!(text.contains(&format!(
            "{}: stood {:.1}%",
            p["name"].as_str().unwrap(),
            100.0 * p["stood"].as_f64().unwrap()
        )));
    }
    assert_eq!(s["stages"][0]["ended_before"], serde_json::json!([1, 0, 0]));
    assert_eq!(
        s["stages"][1]["ended_before"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_u64().unwrap())
            .sum::<u64>(),
        2
    );
    assert_eq!(s["per_game"].as_array().unwrap().len(), 8);
    assert!(
        text.contains("at 12 empties: 6 games; 2 ended before"),
        "{text}"
    );

    // Interrupted: three games and a torn line. The same command continues.
    let full = std::fs::read_to_string(&file).unwrap();
    let kept: Vec<&str> = full.lines().take(4).collect();
    let torn = &full.lines().nth(4).unwrap()[..30];
    std::fs::write(&file, kept.join("\n") + "\n" + torn).unwrap();
    let out = run(
        &["standing", games.to_str().unwrap(), "--empties", EMPTIES],
        0,
    );
    let errors = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(
        errors.contains("3 games already solved, 5 to solve"),
        "{errors}"
    );
    assert!(errors.contains(":5: torn last line"), "{errors}");
    assert_eq!(lines(&file), got);
    // Other settings are refused, the file kept.
    let e = run(&["standing", games.to_str().unwrap(), "--empties", "14"], 2);
    assert!(String::from_utf8_lossy(&e.stderr).contains("other settings"));
    assert_eq!(lines(&file), got);

    // Results only: the signs of the exact scores.
    let wld = dir.join("wld.jsonl");
    run(
        &[
            "standing",
            games.to_str().unwrap(),
            "--empties",
            EMPTIES,
            "--wld",
            "-o",
            wld.to_str().unwrap(),
        ],
        0,
    );
    for (n, g) in lines(&wld) {
        for (a, b) in g["at"]
            .as_array()
            .unwrap()
            .iter()
            .zip(got[&n]["at"].as_array().unwrap())
        {
            let exact = b["score_black"].as_i64().unwrap();
            assert_eq!(
                a["score_black"].as_i64().unwrap(),
                exact.signum(),
                "game {n}"
            );
        }
    }

    // The report finds the standings beside the games.
    let page = dir.join("page.html");
    run(
        &[
            "report",
            games.to_str().unwrap(),
            "-o",
            page.to_str().unwrap(),
        ],
        0,
    );
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(
        html.contains("\"standing\":{\"kind\":\"standing\""),
        "the page has the standings"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_input_is_named_and_nothing_is_written() {
    let dir = scratch("standing-bad");
    let out = dir.join("out.jsonl");
    let o = out.to_str().unwrap();
    let summary = dir.join("summary.json");
    let refused = |args: &[&str], says: &str| {
        let mut args = args.to_vec();
        if !args.contains(&"--json") {
            args.extend(["--json", summary.to_str().unwrap()]);
        }
        let e = String::from_utf8_lossy(&run(&args, 2).stderr).into_owned();
        assert!(e.contains(says), "{args:?}: {e}");
        assert!(
            !out.exists() && !summary.exists(),
            "{args:?}: nothing written"
        );
    };
    let data = data();
    let games = data.to_str().unwrap();
    refused(&["standing", games, "--empties", "41", "-o", o], "41");
    refused(&["standing", games, "--empties", "0", "-o", o], "--empties");
    refused(
        &["standing", games, "-o", o, "--json", games],
        "that is an input",
    );
    refused(&["standing", games, "--empties", "x", "-o", o], "--empties");
    let not_games = dir.join("notes.txt");
    std::fs::write(&not_games, "hello\n").unwrap();
    refused(
        &["standing", not_games.to_str().unwrap(), "-o", o],
        &format!("{}:1:", not_games.display()),
    );
    // Game 3's fifth move made illegal.
    let text = std::fs::read_to_string(&data).unwrap();
    let mut rows: Vec<String> = text.lines().map(str::to_string).collect();
    let mut g: Value = serde_json::from_str(&rows[3]).unwrap();
    assert_eq!(g["game"], 3);
    g["moves"][4]["square"] = Value::from("a1");
    rows[3] = g.to_string();
    let bad = dir.join("bad.jsonl");
    std::fs::write(&bad, rows.join("\n") + "\n").unwrap();
    refused(
        &["standing", bad.to_str().unwrap(), "-o", o],
        &format!("{}:4: game 3: move 5 (a1) is not legal", bad.display()),
    );
    // A file that is not a standing file is not overwritten, and the
    // summary is not written.
    std::fs::write(&out, "my notes\n").unwrap();
    let json = summary.to_str().unwrap();
    let e = run(
        &[
            "standing",
            games,
            "--empties",
            "12",
            "-o",
            o,
            "--json",
            json,
        ],
        2,
    );
    assert!(String::from_utf8_lossy(&e.stderr).contains("give another file"));
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "my notes\n");
    assert!(!summary.exists());
    let _ = std::fs::remove_dir_all(&dir);
}

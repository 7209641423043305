//! `othello bench --positions FILE` (docs/search.md, "The midgame bench"):
//! the midgame search on each position of a file, on committed samples.

use othello::bench::{positions, PLIES};
use othello::rng::Rng;
use othello::{Board, Square};
use std::collections::BTreeMap;

/// `othello bench` with `args`: status, stdout, stderr.
fn bench(args: &[&str]) -> (i32, String, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_othello"))
        .arg("bench")
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The `nodes N` line of a report.
fn nodes(out: &str) -> u64 {
    out.lines()
        .find_map(|l| l.strip_prefix("nodes "))
        .unwrap_or_else(|| panic!("no nodes line: {out}"))
        .parse()
        .unwrap()
}

/// The columns after the label of the table row `label`.
fn row(out: &str, label: &str) -> Vec<String> {
    out.lines()
        .find(|l| l.split_whitespace().next() == Some(label))
        .unwrap_or_else(|| panic!("no {label} row: {out}"))
        .split_whitespace()
        .skip(1)
        .map(String::from)
        .collect()
}

const BENCH_POSITIONS: &str = "tests/data/bench-positions.txt";
const SAMPLE: &str = "tests/data/midgame-sample.txt";
const MIDGAME: &str = "tests/data/midgame.txt";

/// The lines of `bench-positions.txt`: `othello::bench::positions()`'s
/// random games (the same seeds and moves) written down as transcripts;
/// the start position, whose transcript is empty (a blank line), as an
/// OBF line.
fn bench_lines() -> Vec<String> {
    PLIES
        .iter()
        .enumerate()
        .map(|(i, &plies)| {
            let mut rng = Rng::seed_from_u64(1000 + i as u64);
            let (mut board, mut transcript) = (Board::start(), String::new());
            for _ in 0..plies {
                let moves = board.moves();
                if moves.is_empty() {
                    board = board.pass();
                    if board.moves().is_empty() {
                        break;
                    }
                    continue;
                }
                let sq = Square::new(rng.pick_bit(moves.0) as u8);
                transcript += &sq.to_string();
                board = board.play(sq);
            }
            if transcript.is_empty() {
                "---------------------------OX------XO--------------------------- X;".into()
            } else {
                transcript
            }
        })
        .collect()
}

/// The file holds the fixed bench's positions, and searching it as the
/// fixed bench does gives the bench's signature.
#[test]
fn the_fixed_positions_file_gives_the_signature() {
    let text = std::fs::read_to_string(BENCH_POSITIONS).unwrap();
    let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(lines, bench_lines(), "the file is not the bench's games");
    let boards: Vec<Board> = othello::bench::parse(&text)
        .unwrap()
        .iter()
        .map(|p| p.board)
        .collect();
    assert_eq!(boards, positions());
    let (status, out, err) = bench(&[
        "--positions",
        BENCH_POSITIONS,
        "--eval",
        "classic",
        "--depth",
        "11",
    ]);
    assert_eq!(status, 0, "{err}");
    assert_eq!(nodes(&out), othello::bench::run(11).nodes, "{out}");
}

/// The same search twice spends the same nodes; the report counts the
/// positions by empties and gives the depth reached.
#[test]
fn a_depth_search_is_reproducible() {
    let args = ["--positions", SAMPLE, "--depth", "7", "--list"];
    let (status, first, err) = bench(&args);
    assert_eq!(status, 0, "{err}");
    let (_, second, _) = bench(&args);
    assert_eq!(nodes(&first), nodes(&second), "{first}\n{second}");
    assert!(first.starts_with("positions 8 ("), "{first}");
    assert!(first.contains(" depth 7 eval Pattern\n"), "{first}");
    for bucket in ["30-34", "35-39", "40-44", "45-48"] {
        let cols = row(&first, bucket);
        // positions ... mean median lowest highest
        assert_eq!(cols[0], "2", "{bucket}: {first}");
        assert_eq!(&cols[4..], ["7.0", "7", "7", "7"], "{bucket}: {first}");
    }
    assert_eq!(row(&first, "all")[1], nodes(&first).to_string());
    // --list: one line per position, its nodes adding up to the total.
    let listed: u64 = first
        .lines()
        .skip(2)
        .take(8)
        .map(|l| l.split_whitespace().nth(4).unwrap().parse::<u64>().unwrap())
        .sum();
    assert_eq!(listed, nodes(&first), "{first}");
    // Full width spends more.
    let (_, full, _) = bench(&["--positions", SAMPLE, "--depth", "7", "--full-width"]);
    assert!(full.contains(" full-width\n"), "{full}");
    assert!(nodes(&full) > nodes(&first), "{full}\n{first}");
}

/// Under a time budget every position reaches some depth (no timing is
/// asserted: the machine may be loaded).
#[test]
fn a_timed_search_reports_the_depths_reached() {
    let (status, out, err) = bench(&["--positions", SAMPLE, "--time-ms", "20"]);
    assert_eq!(status, 0, "{err}");
    assert!(
        out.contains(" time 20 ms a position eval Pattern\n"),
        "{out}"
    );
    let all = row(&out, "all");
    assert_eq!(all[0], "8", "{out}");
    let lowest: u32 = all[5].parse().unwrap();
    assert!(lowest >= 1, "{out}");
}

/// The midgame bench: 30-48 empties, the same count at each, each
/// position once, every side to move with a choice.
#[test]
fn the_midgame_bench_is_what_its_header_says() {
    let text = std::fs::read_to_string(MIDGAME).unwrap();
    let positions = othello::bench::parse(&text).unwrap();
    let mut by_empties: BTreeMap<u32, usize> = BTreeMap::new();
    for p in &positions {
        *by_empties.entry(p.board.empty_count()).or_default() += 1;
        assert!(p.board.moves().count() >= 2, "line {}", p.line);
    }
    assert_eq!(
        by_empties.keys().copied().collect::<Vec<_>>(),
        (30..=48).collect::<Vec<_>>()
    );
    assert!(by_empties.values().all(|&n| n == 16), "{by_empties:?}");
    let mut boards: Vec<Board> = positions.iter().map(|p| p.board).collect();
    boards.sort_by_key(|b| (b.player, b.opponent));
    boards.dedup();
    assert_eq!(boards.len(), positions.len());
    assert!(
        text.contains("# Made by: train midgame --from "),
        "no command"
    );
    // The sample is part of it.
    let sample = othello::bench::parse(&std::fs::read_to_string(SAMPLE).unwrap()).unwrap();
    assert!(sample.iter().all(|s| boards.contains(&s.board)));
}

/// A malformed file names its line and searches nothing; a missing file,
/// an empty one and a wrong flag are refused.
#[test]
fn bad_input_is_refused() {
    let dir = std::env::temp_dir().join(format!("othello-bench-positions-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.txt");
    let good = std::fs::read_to_string(SAMPLE).unwrap();
    let n = good.lines().count();
    std::fs::write(&bad, format!("{good}f5d6c3 c4\nf5f5\n")).unwrap();
    let bad = bad.to_str().unwrap();
    let (status, out, err) = bench(&["--positions", bad, "--depth", "3"]);
    assert_eq!(status, 2);
    assert!(out.is_empty(), "{out}");
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 2, "{err}");
    assert!(
        lines[0].starts_with(&format!("othello: {bad}: line {}: ", n + 1)),
        "{err}"
    );
    assert!(
        lines[1].starts_with(&format!(
            "othello: {bad}: line {}: transcript move 2",
            n + 2
        )),
        "{err}"
    );
    let empty = dir.join("empty.txt");
    std::fs::write(&empty, "# nothing\n").unwrap();
    let (status, _, err) = bench(&["--positions", empty.to_str().unwrap()]);
    assert_eq!(status, 2);
    assert!(err.contains("no positions"), "{err}");
    let (status, _, err) = bench(&["--positions", "/nonexistent/m.txt"]);
    assert_eq!(status, 2);
    assert!(err.contains("/nonexistent/m.txt"), "{err}");
    for args in [
        &["--positions", SAMPLE, "--fast"][..],
        &["--positions", SAMPLE, "--depth", "5", "--time-ms", "10"],
        &["--time-ms", "10"],
    ] {
        let (status, out, err) = bench(args);
        assert_eq!(status, 2, "{args:?}");
        assert!(out.is_empty(), "{args:?}: {out}");
        assert!(err.starts_with("othello: bench: "), "{args:?}: {err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

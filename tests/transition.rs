//! The transition bench's tool, `othello transition` (docs/journal/endgame.md,
//! "The transition"), on a committed sample of the bench.

use othello::Square;

/// `othello transition` with `args`: status, stdout, stderr.
fn tool(args: &[&str]) -> (i32, String, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_othello"))
        .arg("transition")
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

const SAMPLE: &str = "tests/data/transition-sample.txt";

/// The sample's positions, read by the library.
fn sample() -> Vec<othello::transition::BenchPosition> {
    othello::transition::parse(&std::fs::read_to_string(SAMPLE).unwrap()).unwrap()
}

/// An exact solve of every sample position loses nothing; the table
/// counts them by empties.
#[test]
fn the_tool_finds_no_loss_for_an_exact_solve() {
    let positions = sample();
    assert_eq!(positions.len(), 4);
    let (status, out, err) = tool(&[SAMPLE, "--depth", "1", "--exact", "30"]);
    assert_eq!(status, 0, "{err}");
    let row = out
        .lines()
        .find(|l| l.trim_start().starts_with("20 "))
        .unwrap();
    let cols: Vec<&str> = row.split_whitespace().collect();
    // empties, positions, mean loss, mistakes, results given away, worst.
    assert_eq!(&cols[..6], ["20", "4", "0.00", "0", "0", "0"], "{out}");
    assert!(out.contains("    all         4      0.00"), "{out}");
}

/// Each listed move's loss is the file's best score minus the move's, and
/// the results column counts the listed moves that give the file's exact
/// result away.
#[test]
fn the_tools_losses_are_the_files() {
    let positions = sample();
    let (status, out, err) = tool(&[SAMPLE, "--list", "--strategy", "greedy", "--seed", "3"]);
    assert_eq!(status, 0, "{err}");
    let (mut total, mut results) = (0, 0);
    let listed: Vec<&str> = out.lines().take(positions.len()).collect();
    for (p, line) in positions.iter().zip(&listed) {
        let cols: Vec<&str> = line.split_whitespace().collect();
        // `n empties move loss L ms ...`
        let mv = Square::parse(cols[2]).unwrap();
        let loss: i32 = cols[4].parse().unwrap();
        assert_eq!(Some(loss), p.loss(mv), "{line}");
        assert_eq!(cols[1], p.empties().to_string());
        total += loss;
        results += u32::from(p.changes_result(mv).unwrap());
    }
    let mean = format!("{:.2}", f64::from(total) / positions.len() as f64);
    let all = out
        .lines()
        .find(|l| l.trim_start().starts_with("all"))
        .unwrap();
    assert_eq!(all.split_whitespace().nth(2), Some(mean.as_str()), "{out}");
    assert_eq!(
        all.split_whitespace().nth(4),
        Some(results.to_string().as_str()),
        "{out}"
    );
}

/// A malformed bench names its file and line and plays nothing; a missing
/// file and a wrong flag are refused.
#[test]
fn the_tool_refuses_bad_input() {
    let dir = std::env::temp_dir().join(format!("othello-transition-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.txt");
    let good = std::fs::read_to_string(SAMPLE).unwrap();
    std::fs::write(&bad, format!("{good}f5 d6:+1 f4:-3\n")).unwrap();
    let (status, out, err) = tool(&[bad.to_str().unwrap()]);
    assert_eq!(status, 2);
    assert!(out.is_empty(), "{out}");
    assert!(
        err.contains("bad.txt: line 6: the legal move f6 has no score"),
        "{err}"
    );
    let (status, _, err) = tool(&[dir.join("none.txt").to_str().unwrap()]);
    assert_eq!(status, 2);
    assert!(err.contains("none.txt"), "{err}");
    let (status, _, err) = tool(&[SAMPLE, "--bogus"]);
    assert_eq!(status, 2);
    assert!(err.contains("--bogus"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The kinds table: exact solves are counted as proven, a midgame search
/// (no solve) as midgame, each with its mean loss; a pass of the solver
/// is named by its confidence.
#[test]
fn the_tool_tells_the_answers_kinds() {
    let kinds = |out: &str| -> Vec<String> {
        let at = out.find("answers by kind").expect("a kinds table");
        out[at..].lines().map(str::to_string).collect()
    };
    let (status, out, err) = tool(&[SAMPLE, "--depth", "1", "--exact", "30"]);
    assert_eq!(status, 0, "{err}");
    let table = kinds(&out);
    assert!(
        table[1].split_whitespace().eq(["empties", "proven"]),
        "{out}"
    );
    let row: Vec<&str> = table[2].split_whitespace().collect();
    assert_eq!(row, ["20", "4", "/", "0.00", "/", row[5]], "{out}");
    let (status, out, err) = tool(&[SAMPLE, "--depth", "2", "--exact", "0", "--list"]);
    assert_eq!(status, 0, "{err}");
    let table = kinds(&out);
    assert!(
        table[1].split_whitespace().eq(["empties", "midgame"]),
        "{out}"
    );
    // The midgame column's mean loss is the table's.
    let mean = out
        .lines()
        .find(|l| l.trim_start().starts_with("20 "))
        .and_then(|l| l.split_whitespace().nth(2).map(str::to_string))
        .unwrap();
    let row: Vec<&str> = table[2].split_whitespace().collect();
    assert_eq!((row[1], row[3]), ("4", mean.as_str()), "{out}");
}

/// The passes mode times each pass: with a generous cap every pass and
/// the exact search finish on the sample, the exact search loses nothing,
/// and a bad list of cuts is refused.
#[test]
fn the_passes_mode_runs_every_pass() {
    let (status, out, err) = tool(&[SAMPLE, "--passes", "110,200", "--cap-ms", "60000", "--list"]);
    assert_eq!(status, 0, "{err}");
    let listed: Vec<&str> = out.lines().take(4).collect();
    for line in &listed {
        assert!(line.contains(" 73% ") && line.contains(" 95% "), "{line}");
        assert!(line.contains("exact") && line.ends_with("loss 0"), "{line}");
    }
    let header = out.lines().find(|l| l.contains("cut 110 (73%)")).unwrap();
    assert!(
        header.contains("cut 200 (95%)") && header.contains("exact"),
        "{out}"
    );
    let (status, _, err) = tool(&[SAMPLE, "--passes", "110,x"]);
    assert_eq!(status, 2);
    assert!(err.contains("--passes"), "{err}");
}

/// A bench of results only (`train transition --labels wld`): the same
/// positions with W, D, L in place of the scores give the same results
/// given away, no loss in discs, and `--passes` (which needs discs) is
/// refused.
#[test]
fn results_only_count_the_results_given_away() {
    let positions = sample();
    let dir = std::env::temp_dir().join(format!("othello-transition-wld-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let wld = dir.join("wld.txt");
    let lines: Vec<String> = positions
        .iter()
        .map(|p| {
            let signs = p.scores.iter().map(|&(m, s)| (m, s.signum())).collect();
            othello::transition::BenchPosition::with_results(&p.transcript, signs)
                .unwrap()
                .to_line()
        })
        .collect();
    std::fs::write(&wld, lines.join("\n") + "\n").unwrap();
    let file = wld.to_str().unwrap();
    let (status, out, err) = tool(&[file, "--list", "--strategy", "greedy", "--seed", "3"]);
    assert_eq!(status, 0, "{err}");
    let mut results = 0;
    for (p, line) in positions.iter().zip(out.lines()) {
        let cols: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(cols[4], "-", "no loss in discs: {line}");
        results += u32::from(p.changes_result(Square::parse(cols[2]).unwrap()).unwrap());
    }
    let all: Vec<&str> = out
        .lines()
        .find(|l| l.trim_start().starts_with("all"))
        .unwrap()
        .split_whitespace()
        .collect();
    assert_eq!(
        (all[2], all[4]),
        ("n/a", results.to_string().as_str()),
        "{out}"
    );
    let (status, _, err) = tool(&[file, "--passes", "200"]);
    assert_eq!(status, 2);
    assert!(err.contains("needs exact scores"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

//! Helpers of the referee's integration tests: run the binary, find the
//! test bots and the othello bot, make scratch directories.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The referee under test.
pub fn referee() -> Command {
    Command::new(env!("CARGO_BIN_EXE_referee"))
}

/// A test bot of `tests/bots/` as a command line, with its arguments.
pub fn bot(name: &str) -> String {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/bots");
    format!("{}/{name}", dir.display())
}

/// The othello bot binary, built next to the referee by
/// `cargo test --workspace --release`.
pub fn othello() -> PathBuf {
    let dir = Path::new(env!("CARGO_BIN_EXE_referee"))
        .parent()
        .expect("the referee has a directory");
    let bot = dir.join("othello");
    assert!(
        bot.is_file(),
        "{} is missing: run `cargo test --workspace --release` (or `cargo build --release`) \
         so that the othello bot is built next to the referee",
        bot.display()
    );
    bot
}

/// A fresh, empty scratch directory for one test.
pub fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("referee-test-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch directory");
    dir
}

/// Runs the referee with `args`; panics with its output unless it exits
/// with `status`.
pub fn run(args: &[&str], status: i32) -> Output {
    let out = referee().args(args).output().expect("the referee runs");
    assert_eq!(
        out.status.code(),
        Some(status),
        "args {args:?}\nstdout:\n{}\nstderr:\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// Reads a JSON file.
pub fn json(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).expect("the file exists"))
        .expect("valid JSON")
}

/// The game records of a `--games-out` file (its header left out).
pub fn games(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .expect("the games file exists")
        .lines()
        .skip(1)
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect()
}

/// Runs a match of `p1` against `p2` with `extra` options; panics unless
/// the referee exits with `status`.
pub fn play(p1: &str, p2: &str, extra: &[&str], status: i32) -> Output {
    let mut args = vec!["--p1", p1, "--p2", p2];
    args.extend_from_slice(extra);
    run(&args, status)
}

/// A path as an argument.
pub fn arg(path: &Path) -> &str {
    path.to_str().expect("a UTF-8 path")
}

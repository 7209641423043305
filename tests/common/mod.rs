//! Helpers shared by the integration tests that run a binary.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

/// Runs `binary args` with `input` written to its stdin (then closed) and
/// returns its exit status, stdout and stderr. A program that exits before
/// reading all of its input is not an error here.
pub fn run_with_input(binary: &Path, args: &[&str], input: impl AsRef<[u8]>) -> Output {
    let mut child = Command::new(binary)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{binary:?} does not start: {e}"));
    let mut stdin = child.stdin.take().unwrap();
    if let Err(e) = stdin.write_all(input.as_ref()) {
        assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "{e}");
    }
    drop(stdin);
    child.wait_with_output().unwrap()
}

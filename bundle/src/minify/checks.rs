//! The checks of `bundle minify`'s output: its string literals are the
//! input's, it parses, and (`--check`) it compiles when the input does.
//! Every refusal names the input's line and the identifier or literal.

use super::print::Printed;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The edition `--check` compiles with (the one the renamer's tests use).
pub const CHECK_EDITION: &str = "2021";

/// The byte offset of line `line` (1-based), column `column` (0-based, in
/// characters) of `text`; the end of `text` past its last line.
pub fn offset(text: &str, line: usize, column: usize) -> usize {
    let start = if line <= 1 {
        0
    } else {
        match text.match_indices('\n').nth(line - 2) {
            Some((k, _)) => k + 1,
            None => return text.len(),
        }
    };
    text[start..]
        .char_indices()
        .nth(column)
        .map_or(text.len(), |(k, _)| start + k)
}

/// The 1-based line of byte offset `at` of `text`.
pub fn line_at(text: &str, at: usize) -> usize {
    text[..at.min(text.len())].matches('\n').count() + 1
}

/// Every string literal of the output must be the input's, in order,
/// except the format strings rewritten ((old, new) pairs) and the
/// literals of the doc attributes dropped (`dropped`: their byte offsets
/// in `before`; a `///` comment is no literal of the input).
pub fn check_strings(
    before: &str,
    printed: &Printed,
    rewritten: &[(String, String)],
    dropped: &[usize],
) -> Result<(), String> {
    let after = printed.text.as_str();
    let b: Vec<(usize, &str)> = crate::string_literals(before)?
        .into_iter()
        .filter(|l| !dropped.contains(&l.start))
        .map(|l| (l.start, &before[l.start..l.end]))
        .collect();
    let a: Vec<(usize, &str)> = crate::string_literals(after)?
        .into_iter()
        .map(|l| (l.start, &after[l.start..l.end]))
        .collect();
    for k in 0..b.len().max(a.len()) {
        match (b.get(k), a.get(k)) {
            (Some(&(at, x)), Some(&(_, y))) => {
                if x != y && !rewritten.iter().any(|(o, n)| o == x && n == y) {
                    return Err(format!(
                        "line {}: cannot rename `{x}`: the string literal became {y}",
                        line_at(before, at)
                    ));
                }
            }
            (Some(&(at, x)), None) => {
                return Err(format!(
                    "line {}: cannot rename `{x}`: the string literal is missing from the output",
                    line_at(before, at)
                ))
            }
            (None, Some(&(at, y))) => {
                let (line, _) = printed.origin(at);
                return Err(format!(
                    "line {line}: cannot rename `{y}`: a string literal the input does not have"
                ));
            }
            (None, None) => {}
        }
    }
    Ok(())
}

/// The output must parse again; the error names the input line and token
/// where the parse failed.
pub fn check_parses(printed: &Printed) -> Result<(), String> {
    let Err(e) = syn::parse_file(&printed.text) else {
        return Ok(());
    };
    let at = e.span().start();
    let (line, token) = printed.origin(offset(&printed.text, at.line, at.column));
    Err(format!(
        "line {line}: cannot rename `{token}`: the renamed program does not parse there ({e})"
    ))
}

/// Counts the files written by [`rustc_output`] (one directory each).
static CHECKS: AtomicUsize = AtomicUsize::new(0);

/// Compiles `src` as a binary crate (type check only: `--emit=metadata`,
/// edition [`CHECK_EDITION`], then `args`) with the `rustc` on the PATH or
/// `$RUSTC`, in a directory of its own removed afterwards: rustc's output,
/// whether it compiled or not; `Err` when rustc cannot run.
pub fn rustc_output(src: &str, args: &[&str]) -> Result<std::process::Output, String> {
    let n = CHECKS.fetch_add(1, Ordering::Relaxed);
    let dir: PathBuf =
        std::env::temp_dir().join(format!("bundle-check-{}-{n}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let file = dir.join("main.rs");
    std::fs::write(&file, src).map_err(|e| format!("cannot write {}: {e}", file.display()))?;
    let mut all = vec![
        "--edition",
        CHECK_EDITION,
        "--crate-type",
        "bin",
        "--emit=metadata",
    ];
    all.extend_from_slice(args);
    let out = crate::compiler::compile(&all, &dir.join("main.rmeta"), &file);
    let _ = std::fs::remove_dir_all(&dir);
    out
}

/// [`rustc_output`] with every error in short format and no lint:
/// `Ok(None)` when `src` compiles, `Ok(Some(stderr))` when it does not.
pub fn rustc_stderr(src: &str) -> Result<Option<String>, String> {
    let out = rustc_output(src, &["--error-format=short", "--cap-lints", "allow"])?;
    Ok((!out.status.success()).then(|| String::from_utf8_lossy(&out.stderr).into_owned()))
}

/// The first error line of rustc's `stderr` ("rustc failed" if none).
pub fn first_error(stderr: &str) -> String {
    stderr
        .lines()
        .find(|l| l.contains("error"))
        .unwrap_or("rustc failed")
        .to_string()
}

/// [`rustc_stderr`]'s verdict with only the first error line.
pub fn rustc_errors(src: &str) -> Result<Option<String>, String> {
    Ok(rustc_stderr(src)?.map(|stderr| first_error(&stderr)))
}

/// `--check`: the output must compile when the input does. `Ok(Some(..))`
/// is a warning (the input does not compile: nothing to compare with).
pub fn check_compiles(input: &str, printed: &Printed) -> Result<Option<String>, String> {
    if let Some(e) = rustc_errors(input)? {
        return Ok(Some(format!(
            "the input does not compile, so the output was not checked ({e})"
        )));
    }
    let Some(e) = rustc_errors(&printed.text)? else {
        return Ok(None);
    };
    // `PATH:LINE:COLUMN: error...` (short format; columns count from 1).
    let position = e.split(": ").next().and_then(|p| {
        let mut parts = p.rsplitn(3, ':');
        let column: usize = parts.next()?.parse().ok()?;
        let line: usize = parts.next()?.parse().ok()?;
        Some((line, column))
    });
    let (line, token) = match position {
        Some((l, c)) => printed.origin(offset(&printed.text, l, c.saturating_sub(1))),
        None => (0, String::new()),
    };
    let message = e.split_once(": ").map_or(e.as_str(), |(_, m)| m);
    Err(format!(
        "line {line}: cannot rename `{token}`: the renamed program does not compile: {message}"
    ))
}

//! Running rustc on one file, for the renamer's `--check` and for the
//! tests that compile programs before and after renaming. The compiler is
//! `$RUSTC`, else the `rustc` on the PATH, as cargo does.

use std::path::Path;
use std::process::{Command, Output};

/// The compiler's command: `$RUSTC`, else `rustc`.
pub fn rustc() -> String {
    std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into())
}

/// Runs the compiler with `args` on `file`, writing `out` (`-o`); its
/// output, whether it compiled or not.
///
/// # Errors
/// The compiler cannot run, named.
pub fn compile(args: &[&str], out: &Path, file: &Path) -> Result<Output, String> {
    let rustc = rustc();
    Command::new(&rustc)
        .args(args)
        .arg("-o")
        .arg(out)
        .arg(file)
        .output()
        .map_err(|e| format!("cannot run {rustc}: {e}"))
}

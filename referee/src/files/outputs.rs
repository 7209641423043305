//! The output files of a match or tournament (`--json`, `--ggf`,
//! `--html`, `--stderr-dir`): checked before the first game, written after
//! the last.

use std::path::{Path, PathBuf};

/// Checks every output file of a match or tournament (`(flag, path)`)
/// before the first game, not after the last: an unwritable path must not
/// cost the games. Creates `--stderr-dir`.
///
/// # Errors
/// A file that cannot be written, or a directory that cannot be made, with
/// its flag.
pub fn check_outputs(
    files: &[(&str, &Option<PathBuf>)],
    stderr_dir: Option<&Path>,
) -> Result<(), String> {
    for (flag, path) in files {
        if let Some(path) = path {
            check_writable(path).map_err(|e| format!("{flag} {}: {e}", path.display()))?;
        }
    }
    if let Some(dir) = stderr_dir {
        std::fs::create_dir_all(dir).map_err(|e| format!("--stderr-dir {}: {e}", dir.display()))?;
    }
    Ok(())
}

/// Whether `path` can be written, without changing an existing file (a
/// missing one is created empty, as the match will write it anyway).
pub fn check_writable(path: &Path) -> std::io::Result<()> {
    if path.is_dir() {
        return Err(std::io::Error::other("is a directory"));
    }
    std::fs::OpenOptions::new()
        .append(true)
        .create(true)
        .open(path)
        .map(drop)
}

/// Whether `path` can be written later, creating nothing: an existing file
/// must open for writing (it is not changed), a missing one needs an
/// existing directory.
///
/// # Errors
/// What stands in the way.
pub fn check_writable_later(path: &Path) -> std::io::Result<()> {
    if path.exists() {
        return check_writable(path);
    }
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    if dir.is_dir() {
        Ok(())
    } else {
        Err(std::io::Error::other(format!(
            "no directory {}",
            dir.display()
        )))
    }
}

/// Writes an output file: the error, if it fails (the match is not undone).
pub fn write_file(path: &Path, text: &str, flag: &str) -> Option<String> {
    std::fs::write(path, text)
        .err()
        .map(|e| format!("{flag} {}: {e}", path.display()))
}

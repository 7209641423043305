//! Programs of the system the tests drive: a program on the PATH, and
//! headless Chromium (also used by `examples/report_open.rs`, which
//! includes this file).

use headless_chrome::{Browser, LaunchOptions};
use std::path::PathBuf;

/// `program` on the PATH, if it is there.
pub fn find(program: &str) -> Option<PathBuf> {
    let paths = std::env::var_os("PATH")?;
    std::env::split_paths(&paths)
        .map(|dir| dir.join(program))
        .find(|p| p.is_file())
}

/// The Chromium to drive: `$CHROMIUM`, else the first of `chromium`,
/// `chromium-browser` and `google-chrome` on the PATH.
pub fn chromium() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("CHROMIUM") {
        return Some(PathBuf::from(path));
    }
    ["chromium", "chromium-browser", "google-chrome"]
        .iter()
        .find_map(|name| find(name))
}

/// Starts `chromium` headless and without its sandbox (which needs a
/// non-root user; these pages are our own files).
///
/// # Errors
/// Chromium could not be started.
pub fn launch(chromium: PathBuf) -> Result<Browser, String> {
    let options = LaunchOptions::default_builder()
        .headless(true)
        .sandbox(false)
        .path(Some(chromium))
        .build()
        .map_err(|e| e.to_string())?;
    Browser::new(options).map_err(|e| e.to_string())
}

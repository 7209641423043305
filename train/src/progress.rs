//! The commands' progress bars.

use indicatif::{ProgressBar, ProgressStyle};

/// A progress bar of `len` steps, labelled `what`.
pub fn bar(len: u64, what: &str) -> ProgressBar {
    let bar = ProgressBar::new(len);
    bar.set_style(
        ProgressStyle::with_template(&format!(
            "{what:>8} [{{elapsed_precise}}] {{wide_bar}} {{pos}}/{{len}} eta {{eta}} {{msg}}"
        ))
        .expect("valid template"),
    );
    bar
}

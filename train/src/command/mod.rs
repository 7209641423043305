//! `train`'s commands, one file each, and what they share.

pub mod all;
pub mod bench;
pub mod book;
pub mod corpus;
pub mod decode_time;
pub mod features;
pub mod fit;
pub mod gen;
pub mod r#match;
pub mod mpc;
pub mod openings;
pub mod transition;

use crate::cli::Options;
use indicatif::{ProgressBar, ProgressStyle};

/// Runs the command called `name`.
///
/// # Errors
/// An unknown command, or the command's own error.
pub fn run(name: &str, o: &Options) -> Result<(), String> {
    match name {
        "all" => all::run(o),
        "gen" => gen::run(o),
        "corpus" => corpus::run(o),
        "fit" => fit::run(o),
        "features" => features::run(o),
        "match" => r#match::run(o),
        "bench" => bench::run(o),
        "mpc" => mpc::run(o),
        "book" => book::run(o),
        "book-write" => book::write_only(o),
        "openings" => openings::run(o),
        "transition" => transition::run(o),
        "decode-time" => decode_time::run(),
        other => Err(format!("unknown command {other:?}")),
    }
}

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

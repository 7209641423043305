//! `train`: the pattern evaluation's training pipeline.
//!
//! `cargo run --release -p train -- all` plays self-play games, fits the
//! weights, packs them into `src/eval/weights.rs` and reports the validation
//! error; the steps also run alone (`gen`, `fit`), and `match` measures the
//! pattern evaluation against another under the same search.
//!
//! `cli.rs` reads the command line, `command/` holds one file per command,
//! `data.rs` reads the training data and `games.rs` the recorded games
//! several commands draw positions from; the other modules are the
//! pipeline's parts.

mod arena;
mod book;
mod cli;
mod command;
mod corpus;
mod data;
mod encode;
mod endgame;
mod features;
mod fit;
mod games;
mod gen;
mod mpc;
mod net;
mod outcome;
mod parallel;
mod probcut;
mod probcut_fit;
mod progress;
mod relabel;

use std::process::ExitCode;

/// Exit status for bad arguments or input.
const EXIT_USAGE: u8 = 2;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match cli::parse(&args).and_then(|(name, o)| {
        if name == cli::HELP {
            print!("{}", cli::USAGE);
            return Ok(());
        }
        command::run(&name, &o)
    }) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("train: {e} (train --help for usage)");
            ExitCode::from(EXIT_USAGE)
        }
    }
}

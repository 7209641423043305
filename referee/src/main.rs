//! `referee`: runs Othello matches between bot processes under CodinGame's
//! rules. See docs/referee.md. This binary parses the command line and
//! hands it to the library ([`referee::commands::run`]).

use clap::Parser;
use referee::cli::{Args, Command};
use referee::play::bot;
use std::process::ExitCode;

/// Exit status for bad arguments or unreadable input files.
const EXIT_USAGE: u8 = 2;

fn main() -> ExitCode {
    let demo = std::env::args_os().len() == 1;
    let args = Args::parse();
    bot::adopt_orphans();
    // Bots live in their own process groups, out of reach of the
    // terminal's Ctrl-C: kill them before leaving. Finished games are
    // already in --games-out, so --resume continues the match.
    let analyzing = matches!(
        args.command,
        Some(Command::Analyze(_) | Command::Standing(_))
    );
    let _ = ctrlc::set_handler(move || {
        bot::kill_all();
        if analyzing {
            eprintln!("\nreferee: interrupted (the same command continues where it stopped)");
        } else {
            eprintln!(
                "\nreferee: interrupted (run again with --resume to continue a --games-out match)"
            );
        }
        std::process::exit(130);
    });
    match referee::commands::run(args, demo) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("referee: {message}");
            ExitCode::from(EXIT_USAGE)
        }
    }
}

//! The subcommands, one driver each: `play_match` (the default command:
//! two players, one match; `--replay`), `tournament`, `summary`, `analyze`,
//! `openings`, `standing` and `report` (here: it only picks the page). A driver checks its
//! options, reads and writes the files (`files`), plays the games
//! (`play`), computes the numbers (`stats`, `judge`) and draws the pages
//! (`html`); what it prints on the terminal is in `output`.

pub mod analyze;
pub mod judging;
pub mod openings;
pub mod output;
pub mod play_match;
pub mod standing;
pub mod summary;
pub mod tournament;

use crate::cli::{Args, Command};
use crate::files::games_file::is_tournament;
use crate::html::{report, tournament_report};

/// Runs the command `args` names; `demo`: the referee was started with no
/// arguments at all (a short demonstration match).
///
/// # Errors
/// Bad arguments, unreadable input or a lost output, as one message.
pub fn run(args: Args, demo: bool) -> Result<(), String> {
    match &args.command {
        Some(Command::Report(r)) if is_tournament(&r.files)? => {
            let t = tournament::read(&r.files)?;
            tournament_report::write(&t.header, &t.standings, &t.gaps, &r.output)
        }
        Some(Command::Report(r)) => report::write(
            &r.files,
            &r.analysis,
            r.standing.as_deref(),
            &r.empties_buckets,
            &r.output,
        ),
        Some(Command::Summary(s)) => summary::run(s),
        Some(Command::Tournament(t)) => tournament::run(t),
        Some(Command::Analyze(a)) => analyze::run(a),
        Some(Command::Openings(o)) => openings::run(o),
        Some(Command::Standing(s)) => standing::run(s),
        None => play_match::run(args, demo),
    }
}

//! `referee`: runs Othello matches between bot processes under CodinGame's
//! rules, and reads, summarises, judges and draws them. See
//! docs/referee.md. The binary (`main.rs`) only parses the command line
//! and calls [`commands::run`].
//!
//! The modules, by concern (each folder's `mod.rs` says more):
//! - [`play`]: how a game is played: bot processes, the human player, one
//!   game under CodinGame's rules, many at once, openings, watching;
//! - [`files`]: what the referee reads and writes: game records, the games
//!   file, the analysis file, merging shards, GGF, output files;
//! - [`stats`]: the numbers: Elo, LOS and SPRT, the match summary, think
//!   times, a tournament's rating list and standings;
//! - [`judge`]: judging moves with the engine's search, and what an
//!   analysis says about a match (losses, mistakes, turning points);
//! - [`html`]: the report pages;
//! - [`commands`]: one driver per subcommand, on top of the others;
//! - [`cli`]: the command line's options and their checks.

pub mod cli;
pub mod commands;
pub mod files;
pub mod html;
pub mod judge;
pub mod play;
pub mod stats;

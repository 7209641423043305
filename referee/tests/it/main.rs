//! The referee's integration tests, one binary: each module is one concern
//! (faults, matches, the Othello game, the HTML report, shards,
//! tournaments, the documentation), and they share `common` (run the
//! referee, the test bots, scratch directories) and `system` (programs on
//! the PATH, Chromium).

mod analyze;
mod common;
mod docs;
mod faults;
mod matches;
mod openings_files;
mod othello_game;
mod report;
mod shards;
mod standing;
mod system;
mod tournament;

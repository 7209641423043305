//! The integration tests that share one test crate (Cargo.toml, `[[test]]`):
//! each module is a file of this directory, as it was when each was a crate of
//! its own. `bundle.rs` and `transition_reproducers.rs` stay crates of their
//! own: their turns are timed.

mod common;

mod bench_positions;
mod book;
mod bot_protocol;
mod calibration;
mod montecarlo;
mod perft;
mod rng;
mod rules;
mod search;
mod solver;
mod transition;

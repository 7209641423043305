//! How a game is played: a bot is a child process speaking CodinGame's
//! protocol (`bot`, its stderr in `stderr`), or a human at the terminal
//! (`human`); `game` plays one game between two of them under CodinGame's
//! rules and time limits and records it; `runner` plays many games at
//! once on worker threads; `openings` gives the openings each pair of games
//! starts from; `watch` and `display` draw games on the terminal.

pub mod bot;
pub mod display;
pub mod game;
pub mod human;
pub mod openings;
pub mod runner;
pub mod stderr;
pub mod watch;

//! An Othello engine for CodinGame: bitboard rules, evaluations, searches,
//! an endgame solver and the CodinGame protocol. The library does no I/O;
//! the `othello` binary (`src/bin/othello/`: the bot, its command line and
//! the tools) reads and prints.
//!
//! ```
//! use othello::{Board, perft::perft};
//! let start = Board::start();
//! assert_eq!(start.moves().count(), 4);
//! assert_eq!(perft(&start, 4), 244);
//! ```
#![deny(missing_docs)]
// Unsafe code only where a run-time dispatched `#[target_feature]` kernel
// needs it (dispatch, search::playout), each block with a `// SAFETY:` comment.
#![deny(unsafe_code)]

// The speed tools (`othello perft`, `othello bench`) are not part of the
// submission (docs/bundle.md).
#[cfg(not(cargo_equip))]
pub mod bench;
pub mod bitboard;
pub mod board;
pub mod book;
pub mod dispatch;
pub mod eval;
pub mod game;
pub mod hugepages;
pub mod kernels;
// The OBF suites' format (`othello solve`), not part of the CodinGame
// submission (docs/bundle.md).
#[cfg(not(cargo_equip))]
pub mod obf;
#[cfg(not(cargo_equip))]
pub mod perft;
pub mod protocol;
// The slow test oracle is not part of the submission.
#[cfg(not(cargo_equip))]
pub mod reference;
// Random choices: the Monte Carlo family, `--eval disc-noise`,
// `--book-margin` and the tests; none is in the submission.
#[cfg(not(cargo_equip))]
pub mod rng;
pub mod search;
pub mod square;
pub mod time;
// The transition bench's file format (`othello transition`), not part of
// the submission.
#[cfg(not(cargo_equip))]
pub mod transition;

pub use bitboard::Bitboard;
pub use board::{Board, Move};
pub use game::Color;
#[cfg(not(cargo_equip))]
pub use game::Game;
pub use square::Square;

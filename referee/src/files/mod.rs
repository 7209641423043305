//! The files a match reads and writes: `record` (what a game leaves
//! behind, and the headers naming a match or a tournament), `games_file`
//! (the `--games-out` JSON-lines file and its reading back), `merge` (games
//! files of one run, shards or resumed parts, read as one match),
//! `analysis_file` (what `referee analyze` writes), `ggf` (export for
//! other Othello tools), and `outputs` (checking and writing `--json`,
//! `--html` and the like).

pub mod analysis_file;
pub mod games_file;
pub mod ggf;
pub mod judged_file;
pub mod merge;
pub mod outputs;
pub mod record;
pub mod standing_file;

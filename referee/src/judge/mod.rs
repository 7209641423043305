//! Judging moves: `analyze` gives every position of a game a value and
//! every move played its loss in discs, with the engine's own search run
//! in-process; `mistakes` says what an analysis means for a match (each
//! bot's mean loss and mistakes by game phase, each game's turning point).
//! Reading and writing the analysis file is in `files::analysis_file`,
//! the command in `commands::analyze`.

pub mod analyze;
pub mod mistakes;
pub mod standing;

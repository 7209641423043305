//! The numbers of a match or tournament: `elo` (Elo and its error bars,
//! LOS and the pentanomial SPRT, with fastchess's formulas), `summary` (a
//! match's results, faults and estimates, as text and `--json`), `tuning`
//! (think time and depth per game phase), and for tournaments `rating`
//! (one Bradley-Terry rating list over all games) and `standings` (the
//! crosstable, faults and rating list as text and `--json`).

pub mod elo;
pub mod rating;
pub mod standing_table;
pub mod standings;
pub mod summary;
pub mod tuning;

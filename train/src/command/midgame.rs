//! `train midgame`: the midgame bench (docs/search.md, "The midgame
//! bench"), positions with 30-48 empties drawn from recorded games for
//! `othello bench --positions`. Nothing is searched: the file holds the
//! positions' transcripts only.
//!
//! The games are read and the positions drawn as `train transition` draws
//! its own ([`transcripts`], [`candidates`], [`draw`]): each position
//! once, only where the side to move has at least two moves, up to
//! `--per-empties` at each count of empties, seeded.

use super::transition::{candidates, draw};
use crate::cli::{Options, TRANSITION_EMPTIES, TRANSITION_PER_EMPTIES};
use crate::games::transcripts;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The bench's default file.
pub const DEFAULT_OUT: &str = "tests/data/midgame.txt";
/// The default empties: the midgame after the book, before the
/// transition (20-26) and the endgame.
pub const DEFAULT_EMPTIES: (u32, u32) = (30, 48);
/// The default positions per count of empties (19 counts: about 300).
pub const DEFAULT_PER_EMPTIES: usize = 16;

/// Counts of empties on one line of the header.
const COUNTS_PER_LINE: usize = 7;

/// The bench's text for `games` (read from `from`): the header, then one
/// transcript per line, most empties first.
///
/// # Errors
/// A game that cannot be replayed.
pub fn bench(
    games: &[String],
    from: &[PathBuf],
    empties: (u32, u32),
    per_empties: usize,
    seed: u64,
    out: &Path,
) -> Result<String, String> {
    let by_empties = candidates(games, empties)?;
    let available: BTreeMap<u32, usize> = by_empties.iter().map(|(&e, l)| (e, l.len())).collect();
    let drawn = draw(by_empties, per_empties, seed);
    let mut counts: BTreeMap<u32, usize> = BTreeMap::new();
    for t in &drawn {
        // Each transcript is one move (two characters) a disc.
        *counts.entry(60 - t.len() as u32 / 2).or_default() += 1;
    }
    // `empties: drawn/candidates`, a few to a comment line.
    let counts: Vec<String> = counts
        .iter()
        .rev()
        .map(|(e, n)| format!("{e}: {n}/{}", available[e]))
        .collect::<Vec<_>>()
        .chunks(COUNTS_PER_LINE)
        .map(|c| format!("#   {}", c.join(", ")))
        .collect();
    let from: Vec<String> = from.iter().map(|f| f.display().to_string()).collect();
    let mut text = format!(
        "# The midgame bench (docs/search.md, \"The midgame bench\"): {} positions with {}-{} empties\n\
         # of {} recorded games, each position once, its side to move with at least 2 moves,\n\
         # one transcript from the start position per line (`othello bench --positions`).\n\
         # Made by: train midgame --from {} --per-empties {per_empties} --empties {}-{} --seed {seed} --out {}\n\
         # Positions at each count of empties (empties: drawn/distinct candidates):\n{}\n",
        drawn.len(),
        empties.0,
        empties.1,
        games.len(),
        from.join(","),
        empties.0,
        empties.1,
        out.display(),
        counts.join("\n")
    );
    for t in &drawn {
        let _ = writeln!(text, "{t}");
    }
    Ok(text)
}

/// Runs the command.
pub fn run(o: &Options) -> Result<(), String> {
    let c = &o.transition;
    if c.from.is_empty() {
        return Err("midgame needs --from FILE[,FILE..] (games files or transcripts)".into());
    }
    // The flags are `train transition`'s; its defaults stand for "not given".
    let empties = if c.empties == TRANSITION_EMPTIES {
        DEFAULT_EMPTIES
    } else {
        c.empties
    };
    let per_empties = if c.per_empties == TRANSITION_PER_EMPTIES {
        DEFAULT_PER_EMPTIES
    } else {
        c.per_empties
    };
    let mut games = Vec::new();
    for file in &c.from {
        let text = std::fs::read_to_string(file).map_err(|e| format!("{}: {e}", file.display()))?;
        games.extend(transcripts(file, &text)?);
    }
    let out = o.out.clone().unwrap_or_else(|| PathBuf::from(DEFAULT_OUT));
    let text = bench(&games, &c.from, empties, per_empties, o.gen.seed, &out)?;
    std::fs::write(&out, &text).map_err(|e| format!("{}: {e}", out.display()))?;
    let n = text.lines().filter(|l| !l.starts_with('#')).count();
    eprintln!(
        "{} games, {n} positions written to {}",
        games.len(),
        out.display()
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two games of `tests/data/match-games.txt`.
    const GAMES: [&str; 2] = [
        "f5f6c4g5e6d7e7d6c5c6d8b5f4b3b4c3d3c7a6f8c8g3c2a5a3a7a4a2b6f3f7e3d2d1g6c1e2f1e1e8g8f2g4h3g1h1h4h5h6b7b2a1b1h7h2g2b8a8h8g7",
        "f5f6c4g5e6d7e7d6c5c6d8b5f4b3b4c3d3c7a6f8c8g3d2a5a4f3a3e3g4b6e8b8g7h5a7c1e1c2d1f1e2f2b2g6f7b1h4h6h2a1g1h1h8h7g8g2a8b7a2h3",
    ];

    #[test]
    fn the_bench_is_seeded_and_reads_back_as_positions_with_a_choice() {
        let games: Vec<String> = GAMES.iter().map(|g| g.to_string()).collect();
        let from = [PathBuf::from("g.txt")];
        let out = Path::new("m.txt");
        let text = bench(&games, &from, (30, 48), 1, 7, out).unwrap();
        assert_eq!(text, bench(&games, &from, (30, 48), 1, 7, out).unwrap());
        assert!(
            text.contains("# Made by: train midgame --from g.txt --per-empties 1 --empties 30-48 --seed 7 --out m.txt\n"),
            "{text}"
        );
        // One position at each count that has a candidate, most empties
        // first, each with a choice of moves.
        let available = candidates(&games, (30, 48)).unwrap();
        let positions = othello::bench::parse(&text).unwrap();
        let empties: Vec<u32> = positions.iter().map(|p| p.board.empty_count()).collect();
        let expected: Vec<u32> = available.keys().rev().copied().collect();
        assert_eq!(empties, expected, "{text}");
        assert!(positions.iter().all(|p| p.board.moves().count() >= 2));
        // The games part after 22 moves: two candidates at some counts
        // below 38 empties, both drawn with --per-empties 2, each once.
        assert!(available.values().any(|l| l.len() == 2), "{available:?}");
        let two = bench(&games, &from, (30, 48), 2, 7, out).unwrap();
        let mut boards: Vec<_> = othello::bench::parse(&two)
            .unwrap()
            .iter()
            .map(|p| (p.board.player, p.board.opponent))
            .collect();
        let n: usize = available.values().map(Vec::len).sum();
        assert_eq!(boards.len(), n);
        boards.sort_unstable();
        boards.dedup();
        assert_eq!(boards.len(), n);
    }
}

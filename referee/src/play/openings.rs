//! Openings, each played twice with colours swapped: read from a file of
//! transcripts, or drawn at random from the seed and kept only when a
//! shallow search of the library finds them balanced.

use othello::eval::{EvalKind, Evaluator};
use othello::rng::Rng;
use othello::search::alphabeta::AlphaBeta;
use othello::search::{Limits, Score, Strategy};
use othello::Game;

/// Depth of the search that judges a random opening.
pub const FILTER_DEPTH: u32 = 6;
/// A random opening is kept when that search scores it within this many
/// discs of even (classic evaluation, side to move's view).
pub const FILTER_MAX_ABS_DISCS: f64 = 2.0;
/// Random draws tried per opening before the most balanced one seen is
/// taken anyway.
pub const FILTER_MAX_TRIES: usize = 200;
/// Transposition table size (log2 entries) of the filter search: small,
/// since it searches a few thousand nodes.
const FILTER_TABLE_BITS: u32 = 14;

/// Reads an openings file: one transcript per line such as `f5d6c3d3`;
/// `#` starts a comment, blank lines are skipped.
///
/// # Errors
/// `LINE: reason` for the first transcript that is not a legal game (or
/// that ends the game); an error if the file has no opening at all.
pub fn parse(text: &str) -> Result<Vec<String>, String> {
    let mut openings = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let transcript = line.to_ascii_lowercase();
        let game =
            Game::from_transcript(&transcript).map_err(|e| format!("line {}: {e}", i + 1))?;
        if game.is_over() {
            return Err(format!("line {}: the opening ends the game", i + 1));
        }
        openings.push(transcript);
    }
    if openings.is_empty() {
        return Err("no opening in the file".into());
    }
    Ok(openings)
}

/// The random opening of pair `pair`: `plies` uniform random moves from
/// the start, drawn from a generator seeded by `seed` and `pair`, redrawn
/// until [`is_balanced`] (at most [`FILTER_MAX_TRIES`] times, then the
/// most balanced draw).
pub fn random(plies: usize, seed: u64, pair: usize) -> String {
    let mut rng = Rng::seed_from_u64(seed ^ (pair as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15));
    let mut best: Option<(f64, String)> = None;
    for _ in 0..FILTER_MAX_TRIES {
        let Some(game) = draw(plies, &mut rng) else {
            continue;
        };
        let score = balance(&game);
        if score <= FILTER_MAX_ABS_DISCS {
            return game.transcript();
        }
        if best.as_ref().is_none_or(|(s, _)| score < *s) {
            best = Some((score, game.transcript()));
        }
    }
    best.map(|(_, t)| t).unwrap_or_default()
}

/// `plies` random moves from the start; `None` if the game ended first.
fn draw(plies: usize, rng: &mut Rng) -> Option<Game> {
    let mut game = Game::new();
    for _ in 0..plies {
        if game.is_over() {
            return None;
        }
        let moves = game.board().moves().0;
        let sq = othello::Square::new(rng.pick_bit(moves) as u8);
        game.play(sq).expect("picked among the legal moves");
    }
    (!game.is_over()).then_some(game)
}

/// The absolute score, in discs, of a [`FILTER_DEPTH`] search with the
/// classic evaluation and a fresh table (so that the verdict depends on the
/// position alone).
fn balance(game: &Game) -> f64 {
    let mut search =
        AlphaBeta::with_table_bits(Evaluator::new(EvalKind::Classic, 0), FILTER_TABLE_BITS);
    search.set_exact_empties(0);
    // Full width: the openings stay those of earlier versions.
    search.set_selective(false);
    let board = game.board();
    let r = search.choose(&board, board.moves(), &Limits::depth(FILTER_DEPTH));
    match r.score {
        Score::Estimate(s) | Score::Selective(s) => s.abs(),
        Score::Exact(s) => f64::from(s.abs()),
        _ => f64::INFINITY,
    }
}

/// Whether a transcript passes the random-opening filter.
/// The openings of `pairs` pairs of games, from `--openings FILE` or
/// `--random-openings PLIES` (else the start position), and where they
/// came from.
pub fn openings_for(
    file: Option<&std::path::Path>,
    random: Option<usize>,
    pairs: usize,
    seed: u64,
) -> Result<(Vec<String>, String), String> {
    if let Some(path) = file {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("--openings {}: {e}", path.display()))?;
        let list = parse(&text).map_err(|e| format!("--openings {}: {e}", path.display()))?;
        return Ok((list, format!("file {}", path.display())));
    }
    match random {
        Some(plies) if plies > 0 => {
            if plies > 50 {
                return Err(format!(
                    "--random-openings: at most 50 moves, found {plies}"
                ));
            }
            let list = (0..pairs)
                .map(|pair| self::random(plies, seed, pair))
                .collect();
            Ok((list, format!("random {plies}")))
        }
        _ => Ok((vec![String::new()], "start".into())),
    }
}

#[cfg(test)]
fn is_balanced(transcript: &str) -> bool {
    let Ok(game) = Game::from_transcript(transcript) else {
        return false;
    };
    !game.is_over() && balance(&game) <= FILTER_MAX_ABS_DISCS
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_lines_are_checked_with_their_numbers() {
        let ok = parse("# openings\nf5d6c3 # a comment\n\nF5F6\n").unwrap();
        assert_eq!(ok, vec!["f5d6c3".to_string(), "f5f6".to_string()]);
        assert_eq!(
            parse("f5d6\nf5f5\n").unwrap_err(),
            "line 2: move 2: f5 is not a legal move"
        );
        assert!(parse("f5\nf5z9").unwrap_err().starts_with("line 2: move 2"));
        assert!(parse("# nothing\n").is_err());
    }

    #[test]
    fn random_openings_are_reproducible_legal_and_balanced() {
        let a: Vec<String> = (0..4).map(|p| random(8, 42, p)).collect();
        let b: Vec<String> = (0..4).map(|p| random(8, 42, p)).collect();
        assert_eq!(a, b);
        assert_ne!(a[0], a[1]);
        for t in &a {
            assert_eq!(t.len(), 16, "{t}");
            assert!(is_balanced(t), "{t}");
        }
    }
}

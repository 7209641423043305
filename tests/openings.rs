//! The committed openings files (`openings/`, read by `referee --openings`):
//! every line a legal transcript from the start position, none twice.

use othello::game::Game;
use std::collections::HashSet;

/// The transcripts of an openings file with their 1-based line numbers and
/// comments (`#` starts one), each played from the start position.
fn openings(text: &str) -> Vec<(usize, Game, String)> {
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let (moves, comment) = line.split_once('#').unwrap_or((line, ""));
        let moves = moves.trim();
        if moves.is_empty() {
            continue;
        }
        let game = Game::from_transcript(moves).unwrap_or_else(|e| panic!("line {}: {e}", i + 1));
        assert!(
            seen.insert(moves.to_string()),
            "line {}: a duplicate",
            i + 1
        );
        out.push((i + 1, game, comment.trim().to_string()));
    }
    out
}

#[test]
fn the_balanced_and_short_openings_are_legal() {
    let balanced = openings(include_str!("../openings/balanced-8.txt"));
    assert_eq!(balanced.len(), 2000);
    assert!(balanced
        .iter()
        .all(|(_, g, _)| g.board().empty_count() == 52));
    let short = openings(include_str!("../openings/start-2-4.txt"));
    assert!(short
        .iter()
        .all(|(_, g, _)| (56..=58).contains(&g.board().empty_count())));
}

/// The endgame matches' positions (docs/endgame.md, "Endgame matches"):
/// each leaves the empties its comment names, with the game not over, and
/// its judge's value within 6 discs of a draw; no position is in both files.
#[test]
fn the_endgame_openings_leave_the_empties_they_say() {
    let mut all = HashSet::new();
    for (text, counts) in [
        (
            include_str!("../openings/strong-26-24.txt"),
            [(26, 127), (24, 126)],
        ),
        (
            include_str!("../openings/strong-25-23.txt"),
            [(25, 114), (23, 120)],
        ),
    ] {
        let mut found = [0; 2];
        for (line, game, comment) in openings(text) {
            let words: Vec<&str> = comment.split_whitespace().collect();
            let empties: u32 = words[0].parse().unwrap_or_else(|_| panic!("line {line}"));
            let value: f64 = words[3].parse().unwrap_or_else(|_| panic!("line {line}"));
            assert_eq!(game.board().empty_count(), empties, "line {line}");
            assert!(!game.board().is_game_over(), "line {line}");
            assert!((0.0..=6.0).contains(&value), "line {line}");
            let slot = counts.iter().position(|&(e, _)| e == empties);
            found[slot.unwrap_or_else(|| panic!("line {line}: {empties} empties"))] += 1;
            assert!(all.insert(game.transcript()), "line {line}: in both files");
        }
        assert_eq!(found, [counts[0].1, counts[1].1]);
    }
}

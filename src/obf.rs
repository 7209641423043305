//! Edax's OBF position lines, parsed from text (the library reads no files).
//!
//! A line is `<64 cells a1..h8> <side>;` optionally followed by scored moves
//! `G8:+18; H1:+12;`. Cells are `X` (black), `O` (white) and `-` or `.`
//! (empty); the side to move is `X` or `O`. A pass is written `PS` or `PA`.
//! Blank lines and lines starting with `%` or `#` are comments.

use crate::board::Board;
use crate::square::Square;

/// One position of an OBF file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ObfPosition {
    /// The position, seen from the side to move.
    pub board: Board,
    /// The scored moves the line lists (`None` is a pass), in line order.
    pub scored: Vec<(Option<Square>, i32)>,
}

impl ObfPosition {
    /// The best score among the listed moves, if any are listed.
    pub fn best_score(&self) -> Option<i32> {
        self.scored.iter().map(|&(_, s)| s).max()
    }

    /// Whether `best` (with `score`) agrees with the listed moves: `score`
    /// is the best listed score and `best` is listed with it. `None` when
    /// the line lists no moves.
    pub fn matches(&self, best: Option<Square>, score: i32) -> Option<bool> {
        let top = self.best_score()?;
        Some(score == top && self.scored.contains(&(best, score)))
    }
}

/// Parses one line: `Ok(None)` for a blank or comment line.
///
/// # Errors
/// A one-line description of what is wrong (without the line number,
/// which the caller knows).
pub fn parse_line(line: &str) -> Result<Option<ObfPosition>, String> {
    let line = line.trim();
    if line.is_empty() || line.starts_with('%') || line.starts_with('#') {
        return Ok(None);
    }
    let mut fields = line.split(';');
    let head = fields.next().unwrap_or_default().trim();
    let mut parts = head.split_whitespace();
    let (Some(cells), Some(side), None) = (parts.next(), parts.next(), parts.next()) else {
        return Err(format!(
            "expected `<64 cells> <X|O>;`, found {:?}",
            truncate(head)
        ));
    };
    let board = match side {
        "X" | "x" => Board::from_cells(cells, 'X', 'O'),
        "O" | "o" => Board::from_cells(cells, 'O', 'X'),
        _ => return Err(format!("side to move must be X or O, found {side:?}")),
    }?;
    if !line.contains(';') {
        return Err("missing `;` after the side to move".into());
    }
    let mut scored = Vec::new();
    for field in fields {
        let field = field.trim();
        if field.is_empty() {
            continue;
        }
        scored.push(parse_scored_move(field)?);
    }
    Ok(Some(ObfPosition { board, scored }))
}

/// Parses `G8:+18` (or `PS:-4` for a pass).
fn parse_scored_move(field: &str) -> Result<(Option<Square>, i32), String> {
    let bad = || format!("expected a scored move like `G8:+18`, found {field:?}");
    let (mv, score) = field.split_once(':').ok_or_else(bad)?;
    let mv = mv.trim();
    let square = if mv.eq_ignore_ascii_case("PS") || mv.eq_ignore_ascii_case("PA") {
        None
    } else {
        Some(Square::parse(mv).map_err(|_| bad())?)
    };
    let score: i32 = score
        .trim()
        .trim_start_matches('+')
        .parse()
        .map_err(|_| bad())?;
    if !(-64..=64).contains(&score) {
        return Err(format!("score out of -64..64 in {field:?}"));
    }
    Ok((square, score))
}

/// The first characters of `text`, enough to recognise it in a message.
fn truncate(text: &str) -> String {
    const SHOWN: usize = 80;
    text.chars().take(SHOWN).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const FIRST: &str =
        "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+18; H1:+12;";

    #[test]
    fn parses_a_scored_line() {
        let p = parse_line(FIRST).unwrap().unwrap();
        assert_eq!(p.board.empty_count(), 14);
        assert_eq!(p.scored.len(), 2);
        assert_eq!(p.scored[0], (Some(Square::parse("g8").unwrap()), 18));
        assert_eq!(p.best_score(), Some(18));
        assert_eq!(
            p.matches(Square::parse("g8").ok(), 18),
            Some(true),
            "g8 is listed with the best score"
        );
        assert_eq!(p.matches(Square::parse("h1").ok(), 18), Some(false));
        // X to move: the X cells are the player's.
        assert_eq!(p.board.player & 0b100, 0b100);
    }

    #[test]
    fn white_to_move_swaps_the_sides() {
        let line = FIRST.replacen(" X;", " O;", 1);
        let p = parse_line(&line).unwrap().unwrap();
        assert_eq!(p.board.opponent & 0b100, 0b100);
    }

    #[test]
    fn blank_and_comment_lines_are_skipped() {
        assert_eq!(parse_line("   "), Ok(None));
        assert_eq!(parse_line("% a comment"), Ok(None));
    }

    #[test]
    fn malformed_lines_say_what_is_wrong() {
        let short = &FIRST[1..];
        assert!(parse_line(short).unwrap_err().contains("64 cells"));
        let side = FIRST.replacen(" X;", " Z;", 1);
        assert!(parse_line(&side).unwrap_err().contains("X or O"));
        let no_semicolon = &FIRST[..66];
        assert!(parse_line(no_semicolon).unwrap_err().contains('`'));
        let bad_move = FIRST.replacen("G8:+18", "Z9:+18", 1);
        assert!(parse_line(&bad_move).unwrap_err().contains("Z9"));
        let bad_score = FIRST.replacen("G8:+18", "G8:+99", 1);
        assert!(parse_line(&bad_score).unwrap_err().contains("out of"));
        let cell = FIRST.replacen('-', "?", 1);
        assert!(parse_line(&cell).unwrap_err().contains("'?'"));
    }
}

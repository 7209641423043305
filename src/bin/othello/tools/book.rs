//! `othello book [TRANSCRIPT]`: what the compiled opening book holds.
//! Without a transcript, its size and principal line; with one, that
//! position's book move, value and the other moves that stay in the book.

use othello::book::{follow, Book};
use othello::game::Game;

/// The report of `othello book`, or an error naming what was wrong.
pub fn report(book: &Book, transcript: Option<&str>) -> Result<String, String> {
    let Some(text) = transcript else {
        let mut board = othello::Board::start();
        let mut line = String::new();
        let mut plies = 0;
        while let Some(m) = book.lookup(&board) {
            line += &m.best.to_string();
            plies += 1;
            board = follow(&board, m.best).0;
        }
        let value = book.lookup(&othello::Board::start()).map_or(0, |m| m.score);
        return Ok(format!(
            "{} positions (8 symmetries folded into one)\n\
             start position: {value:+} discs for black\n\
             principal line, {plies} plies: {line}\n",
            group(book.len())
        ));
    };
    let game =
        Game::from_transcript(text).map_err(|e| format!("book: move {}: {}", e.index, e.reason))?;
    if game.is_over() {
        return Err("book: the game is over".into());
    }
    let board = game.board();
    let mover = game.to_move();
    let Some(best) = book.lookup(&board) else {
        return Ok(format!(
            "{}: not in the book ({} to move)\n",
            display(text),
            mover
        ));
    };
    let mut out = format!(
        "{}: book move {}, {:+} discs for {mover}\n",
        display(text),
        best.best,
        best.score
    );
    let others: Vec<String> = book
        .moves(&board)
        .iter()
        .filter(|m| m.best != best.best)
        .map(|m| format!("{} {:+}", m.best, m.score))
        .collect();
    if !others.is_empty() {
        out += &format!("other moves into the book: {}\n", others.join(", "));
    }
    Ok(out)
}

/// The transcript, or the start position's name.
fn display(text: &str) -> &str {
    if text.is_empty() {
        "start"
    } else {
        text
    }
}

/// `21345` -> `21,345`.
fn group(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_thousands() {
        assert_eq!(group(7), "7");
        assert_eq!(group(21345), "21,345");
        assert_eq!(group(1234567), "1,234,567");
    }

    #[test]
    fn reports_the_book_and_a_position_or_an_error() {
        let book = Book::compiled().expect("the compiled book decodes");
        let summary = report(&book, None).unwrap();
        assert!(
            summary.contains(&format!("{} positions", group(book.len()))),
            "{summary}"
        );
        let start = report(&book, Some("")).unwrap();
        assert!(start.starts_with("start: book move "), "{start}");
        assert!(report(&book, Some("a1")).unwrap_err().contains("move 1"));
        let far = report(&book, Some("f5d6c3d3c4f4f6f3e6e7d7g6")).unwrap();
        assert!(
            far.contains("book move") || far.contains("not in the book"),
            "{far}"
        );
    }
}

//! `othello book [TRANSCRIPT]`: what the compiled opening book holds.
//! Without a transcript, its size and principal line; with one, that
//! position's book move, value and the other moves that stay in the book.

use othello::book::Book;
use othello::game::Game;

/// The report of `othello book`, or an error naming what was wrong.
pub fn report(book: &Book, transcript: Option<&str>) -> Result<String, String> {
    let Some(text) = transcript else {
        let line = book.principal_line();
        let plies = line.len();
        let line: String = line.iter().map(|m| m.to_string()).collect();
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
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
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
        // A position on the principal line.
        let line: String = book.principal_line()[..4]
            .iter()
            .map(|m| m.to_string())
            .collect();
        let board = othello::game::Game::from_transcript(&line).unwrap().board();
        let expected = book.lookup(&board).unwrap();
        let on = report(&book, Some(&line)).unwrap();
        assert!(
            on.starts_with(&format!(
                "{line}: book move {}, {:+}",
                expected.best, expected.score
            )),
            "{on}"
        );
        // Random moves from the start until the book has no move.
        let mut rng = othello::rng::Rng::seed_from_u64(5);
        let mut game = othello::game::Game::new();
        while book.lookup(&game.board()).is_some() {
            let moves: Vec<_> = game.board().moves().squares().collect();
            game.play(moves[rng.below(moves.len() as u64) as usize])
                .unwrap();
        }
        let off = report(&book, Some(&game.transcript())).unwrap();
        assert!(off.contains(": not in the book ("), "{off}");
    }
}

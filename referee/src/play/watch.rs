//! Watching games move by move: `--watch` draws a live game, `--replay`
//! redraws a saved one.

use crate::files::record::GameRecord;
use crate::play::display;
use crate::play::game::MoveEvent;
use othello::{Game, Square};
use std::io::{IsTerminal, Write};
use std::time::Duration;

/// Draws the board after each move of a live game, with the mover's name,
/// think time and MSG.
pub fn observer(names: [String; 2], delay: Duration) -> impl FnMut(MoveEvent<'_>) {
    let colour = std::io::stdout().is_terminal();
    move |e: MoveEvent<'_>| {
        let sq = Square::parse(&e.record.square).ok();
        let line = format!(
            "{} ({}) plays {} in {:.1} ms{}",
            names[e.record.by.index()],
            e.record.by,
            e.record.square,
            e.record.ms,
            e.record
                .msg
                .as_deref()
                .map_or(String::new(), |m| format!("  MSG {m}"))
        );
        show(e.game, sq, &line, colour, delay);
    }
}

/// Draws the position a live game starts from (after its opening).
pub fn start(setup: &crate::play::game::GameSetup, names: &[String; 2]) {
    let game = Game::from_transcript(&setup.opening).expect("openings are checked");
    let caption = format!(
        "game {}: {} black, {} white{}",
        setup.game,
        names[setup.black.index()],
        names[setup.black.other().index()],
        if setup.opening.is_empty() {
            String::new()
        } else {
            format!(", after the opening {}", setup.opening)
        }
    );
    show(
        &game,
        None,
        &caption,
        std::io::stdout().is_terminal(),
        Duration::ZERO,
    );
}

fn show(game: &Game, last: Option<Square>, caption: &str, colour: bool, delay: Duration) {
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{caption}");
    let _ = writeln!(out, "{}", display::board(game, last, colour));
    let _ = out.flush();
    std::thread::sleep(delay);
}

/// Redraws `record` from the start position, every move of the opening
/// and of the bots.
pub fn replay(record: &GameRecord, names: [&str; 2], delay: Duration) {
    let colour = std::io::stdout().is_terminal();
    let mut game = Game::new();
    show(
        &game,
        None,
        &format!(
            "game {}: {} black, {} white, opening {:?}",
            record.game,
            names[record.black.index()],
            names[record.black.other().index()],
            record.opening
        ),
        colour,
        delay,
    );
    let opening = record
        .opening
        .as_bytes()
        .chunks(2)
        .map(|p| (String::from_utf8_lossy(p).into_owned(), None));
    let bots = record.moves.iter().map(|m| (m.square.clone(), Some(m)));
    for (word, m) in opening.chain(bots) {
        let Ok(sq) = Square::parse(&word) else { break };
        let mover = game.to_move();
        if game.play(sq).is_err() {
            break;
        }
        let caption = match m {
            None => format!("opening: {mover} plays {sq}"),
            Some(m) => format!(
                "{} ({}, {mover}) plays {sq} in {:.1} ms{}",
                names[m.by.index()],
                m.by,
                m.ms,
                m.msg
                    .as_deref()
                    .map_or(String::new(), |t| format!("  MSG {t}"))
            ),
        };
        show(&game, Some(sq), &caption, colour, delay);
    }
}

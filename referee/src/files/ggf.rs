//! Export in GGF, the Generic Game Format of the Othello servers (GGS),
//! which Edax, WZebra and other tools read.

use crate::files::record::{FaultKind, GameRecord, Side};
use othello::{Color, Game, Move, Square};
use std::path::Path;

/// Writes `--ggf`: one game per line, each with the names of its p1 and
/// p2, in the order given; the error, if it fails.
pub fn write<'a>(
    path: &Path,
    games: impl Iterator<Item = (&'a GameRecord, [&'a str; 2])>,
) -> Option<String> {
    let text: String = games.map(|(r, names)| game(r, names) + "\n").collect();
    crate::files::outputs::write_file(path, &text, "--ggf")
}

/// One game as a GGF record. Moves carry the referee's think time in
/// seconds (`B[d3//0.012]`); a pass is `PA`. The result is black's disc
/// difference, `+64:t` / `-64:t` for a loss on time and `:r` for any other
/// fault.
pub fn game(r: &GameRecord, names: [&str; 2]) -> String {
    let name = |side: Side| names[side.index()].replace([']', '\\'], "_");
    let mut g = Game::new();
    let mut moves = String::new();
    let opening = r.opening.as_bytes().chunks(2);
    let times = std::iter::repeat_n(None, opening.len()).chain(r.moves.iter().map(|m| Some(m.ms)));
    for (pair, ms) in opening
        .map(|p| String::from_utf8_lossy(p).into_owned())
        .chain(r.moves.iter().map(|m| m.square.clone()))
        .zip(times)
    {
        let Ok(sq) = Square::parse(&pair) else { break };
        let color = g.to_move();
        if g.play(sq).is_err() {
            break;
        }
        let time = ms.map_or(String::new(), |ms| format!("//{:.3}", ms / 1e3));
        moves.push_str(&format!(
            "{}[{}{time}]",
            tag(color),
            sq.to_string().to_uppercase()
        ));
        if g.history().last() == Some(&Move::Pass) {
            moves.push_str(&format!("{}[PA]", tag(color.other())));
        }
    }
    let black = r.black;
    let result = match &r.fault {
        None => {
            let d = r.disc_diff(black).unwrap_or(0);
            format!("{d:+}")
        }
        Some(f) => {
            let sign = if f.by == black { '-' } else { '+' };
            let why = if f.kind == FaultKind::Timeout {
                't'
            } else {
                'r'
            };
            format!("{sign}64:{why}")
        }
    };
    format!(
        "(;GM[Othello]PC[referee]PB[{}]PW[{}]RE[{result}]TY[8]BO[8 {} *]{moves};)",
        name(black),
        name(black.other()),
        start_board()
    )
}

fn tag(c: Color) -> char {
    match c {
        Color::Black => 'B',
        Color::White => 'W',
    }
}

/// The start position in GGF's `BO` notation (`*` black, `O` white).
fn start_board() -> String {
    let g = Game::new();
    (0..64u8)
        .map(|i| {
            let bit = Square::new(i).bit();
            if g.discs(Color::Black) & bit != 0 {
                '*'
            } else if g.discs(Color::White) & bit != 0 {
                'O'
            } else {
                '-'
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_board_and_a_short_record() {
        assert_eq!(
            start_board(),
            format!("{}O*{}*O{}", "-".repeat(27), "-".repeat(6), "-".repeat(27))
        );
        let r = GameRecord {
            game: 1,
            black: Side::P2,
            opening: "f5".into(),
            moves: vec![crate::files::record::MoveRecord {
                by: Side::P1,
                square: "d6".into(),
                ms: 12.0,
                limit_ms: 2000.0,
                msg: None,
            }],
            winner: Some(Side::P1),
            discs_black: 3,
            discs_white: 3,
            fault: Some(crate::files::record::Fault {
                by: Side::P2,
                kind: FaultKind::Timeout,
                detail: String::new(),
                overrun_ms: None,
                stderr_tail: None,
            }),
            seeds: [0, 0],
            killed_after_end: vec![],
        };
        let text = game(&r, ["a", "b"]);
        assert!(text.contains("PB[b]PW[a]RE[-64:t]"), "{text}");
        assert!(text.ends_with("B[F5]W[D6//0.012];)"), "{text}");
    }
}

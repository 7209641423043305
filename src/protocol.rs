//! CodinGame's Othello text protocol, both directions, without I/O.
//!
//! The bot feeds the lines it reads to [`Lines`], [`read_init`] and
//! [`read_turn`]; the referee builds the same text with [`format_init`] and
//! [`format_turn`] and reads answers with [`parse_answer`]. Lines may end in
//! CRLF and carry stray spaces around their content.

use crate::board::{Board, Move};
use crate::game::Color;
use crate::search::{Score, SearchResult};
use crate::square::Square;
use core::fmt;

/// The longest message CodinGame shows after `MSG`.
pub const MSG_MAX_CHARS: usize = 12;

/// The bot's MSG text for a search's result, at most [`MSG_MAX_CHARS`]:
/// what was searched, the score, then the milliseconds, for example
/// `d9 +4 31ms` (`s9 +4 31ms` when selective), `e18 =+6 90ms` (exact),
/// `e21~95 +6 40` (selective to the end, the pass at 95% confidence) or
/// `12kp 55%` (playouts). When that is too long the `ms` goes, then the
/// whole time: the score always shows, and a time never shows cut (a
/// cut `128` reads as `12`).
pub fn message(r: &SearchResult) -> String {
    let ms = r.elapsed.as_millis();
    let d = r.depth;
    let head = match r.score {
        Score::None => return format!("{ms}ms"),
        Score::Estimate(s) => format!("d{d} {s:+.0}"),
        Score::Selective(s) => format!("s{d} {s:+.0}"),
        Score::Exact(s) => format!("e{d} ={s:+}"),
        Score::Probable { score, cut } => {
            format!("e{d}~{} {score:+}", crate::search::endgame::confidence(cut))
        }
        Score::WinRate(w) => return format!("{}p {:.0}%", compact(r.nodes), w * 100.0),
        Score::Flips(n) => format!("f{n}"),
        Score::Book(v) => return format!("book {v:+}"),
    };
    let full = format!("{head} {ms}ms");
    if full.chars().count() <= MSG_MAX_CHARS {
        return full;
    }
    let bare = format!("{head} {ms}");
    if bare.chars().count() <= MSG_MAX_CHARS {
        return bare;
    }
    head.chars().take(MSG_MAX_CHARS).collect()
}

/// `12345` -> `12k`, `2500000` -> `2.5M`: counts that fit a short MSG.
fn compact(n: u64) -> String {
    if n >= 10_000_000 {
        format!("{}M", n / 1_000_000)
    } else if n >= 1_000_000 {
        format!("{:.1}M", n as f64 / 1e6)
    } else if n >= 10_000 {
        format!("{}k", n / 1000)
    } else {
        n.to_string()
    }
}

/// A protocol violation, with the 1-based number of the offending line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProtocolError {
    /// 1-based line number in the input (0: end of input before any line).
    pub line: usize,
    /// What was wrong.
    pub what: String,
}

impl fmt::Display for ProtocolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.what)
    }
}

// Tools and tests only: not in the submission (docs/bundle.md).
#[cfg(not(cargo_equip))]
impl std::error::Error for ProtocolError {}

/// Numbered input lines; trims CR, LF and spaces from each.
#[derive(Debug)]
pub struct Lines<I> {
    inner: I,
    number: usize,
}

impl<I: Iterator<Item = String>> Lines<I> {
    /// Wraps a source of lines.
    pub fn new(inner: I) -> Lines<I> {
        Lines { inner, number: 0 }
    }

    /// The source of the lines.
    pub fn source(&self) -> &I {
        &self.inner
    }

    /// The number of lines read so far (the last line's number).
    pub fn line_number(&self) -> usize {
        self.number
    }

    /// The next line, trimmed, or `None` at the end of input.
    pub fn next_opt(&mut self) -> Option<String> {
        let line = self.inner.next()?;
        self.number += 1;
        Some(line.trim().to_string())
    }

    /// The next line, trimmed; the end of input is an error naming `what`
    /// was expected.
    ///
    /// # Errors
    /// The end of input.
    pub fn next_required(&mut self, what: &str) -> Result<String, ProtocolError> {
        match self.next_opt() {
            Some(line) => Ok(line),
            None => Err(ProtocolError {
                line: self.number + 1,
                what: format!("unexpected end of input, expected {what}"),
            }),
        }
    }

    fn error(&self, what: String) -> ProtocolError {
        ProtocolError {
            line: self.number,
            what,
        }
    }

    fn number_field(&self, line: &str, what: &str) -> Result<usize, ProtocolError> {
        line.parse::<usize>()
            .map_err(|_| self.error(format!("expected {what} (a number), found {line:?}")))
    }
}

/// The two initialisation lines.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Init {
    /// Our colour (id 0 is black and moves first).
    pub color: Color,
}

/// Reads the initialisation: our id (0 or 1) on `first`, which the caller
/// already read, then the board size (8).
///
/// # Errors
/// A missing line, a non-number, an id other than 0/1 or a size other than 8.
pub fn read_init<I: Iterator<Item = String>>(
    first: String,
    lines: &mut Lines<I>,
) -> Result<Init, ProtocolError> {
    let line = first;
    let id = lines.number_field(&line, "the player id")?;
    let color = Color::from_id(id)
        .ok_or_else(|| lines.error(format!("player id must be 0 or 1, found {id}")))?;
    let line = lines.next_required("the board size")?;
    let size = lines.number_field(&line, "the board size")?;
    if size != 8 {
        return Err(lines.error(format!("board size must be 8, found {size}")));
    }
    Ok(Init { color })
}

/// One turn's input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Turn {
    /// The position from our side (we are to move).
    pub board: Board,
    /// The legal moves as the referee listed them, in its order.
    pub actions: Vec<Square>,
    /// In EXPERT mode, the opponent's moves since our last one.
    pub opponent_moves: Option<Vec<Move>>,
}

impl Turn {
    /// The listed actions as a set.
    pub fn action_set(&self) -> u64 {
        self.actions.iter().fold(0, |acc, sq| acc | sq.bit())
    }

    /// A warning when the legal moves of the parsed board differ from the
    /// listed actions (the bot then still plays a listed move).
    pub fn consistency_warning(&self) -> Option<String> {
        let listed = self.action_set();
        let legal = self.board.moves().0;
        if listed == legal {
            return None;
        }
        let names = |m: u64| {
            crate::Bitboard(m)
                .squares()
                .map(|s| s.to_string())
                .collect::<Vec<_>>()
                .join(" ")
        };
        Some(format!(
            "warning: the board's legal moves [{}] differ from the listed actions [{}]",
            names(legal),
            names(listed)
        ))
    }
}

/// Reads one turn whose first board row, `first`, the caller already read
/// (so that it can start its clock there and see the end of input between
/// turns). `expert`: an opponent-moves line follows the board.
///
/// # Errors
/// A short or long row, an unknown cell, a missing line, a bad count or a
/// bad action, each naming its line.
pub fn read_turn<I: Iterator<Item = String>>(
    first: String,
    lines: &mut Lines<I>,
    me: Color,
    expert: bool,
) -> Result<Turn, ProtocolError> {
    let (mine, theirs) = match me {
        Color::Black => ('0', '1'),
        Color::White => ('1', '0'),
    };
    let mut board = Board::new(0, 0);
    let mut row_text = first;
    for row in 0..8u8 {
        if row > 0 {
            row_text = lines.next_required(&format!("board row {}", row + 1))?;
        }
        let cells: Vec<char> = row_text.chars().collect();
        if cells.len() != 8 {
            return Err(lines.error(format!(
                "board row {} must have 8 cells, found {} in {:?}",
                row + 1,
                cells.len(),
                row_text
            )));
        }
        for (col, &c) in cells.iter().enumerate() {
            let bit = Square::from_coords(col as u8, row).bit();
            if c == mine {
                board.player |= bit;
            } else if c == theirs {
                board.opponent |= bit;
            } else if c != '.' {
                return Err(lines.error(format!(
                    "unknown cell character {c:?} in board row {} (expected '.', '0' or '1')",
                    row + 1
                )));
            }
        }
    }
    let opponent_moves = if expert {
        let line = lines.next_required("the opponent's moves (EXPERT mode)")?;
        Some(parse_opponent_moves(&line).map_err(|e| lines.error(e))?)
    } else {
        None
    };
    let line = lines.next_required("the action count")?;
    let count = lines.number_field(&line, "the action count")?;
    if count == 0 || count > 64 {
        return Err(lines.error(format!("action count must be 1..64, found {count}")));
    }
    let mut actions = Vec::with_capacity(count);
    for i in 0..count {
        let line = lines.next_required(&format!("action {} of {count}", i + 1))?;
        let sq =
            Square::parse(&line).map_err(|e| lines.error(format!("bad action {line:?}: {e}")))?;
        actions.push(sq);
    }
    Ok(Turn {
        board,
        actions,
        opponent_moves,
    })
}

/// Parses EXPERT mode's `c4;e6;` / `pass;` list (empty on the first turn).
fn parse_opponent_moves(line: &str) -> Result<Vec<Move>, String> {
    line.split(';')
        .map(str::trim)
        .filter(|w| !w.is_empty())
        .map(|w| {
            if w.eq_ignore_ascii_case("pass") {
                Ok(Move::Pass)
            } else {
                Square::parse(w)
                    .map(Move::Play)
                    .map_err(|e| format!("bad opponent move {w:?}: {e}"))
            }
        })
        .collect()
}

#[cfg(not(cargo_equip))]
/// The initialisation text for player `color`.
pub fn format_init(color: Color) -> String {
    format!("{}\n8\n", color.id())
}

#[cfg(not(cargo_equip))]
/// One turn's text: the 8 rows (`0` black, `1` white), in EXPERT mode the
/// opponent's moves since the player's last turn, then the actions.
pub fn format_turn(
    black: u64,
    white: u64,
    opponent_moves: Option<&[Move]>,
    actions: u64,
) -> String {
    let mut text = String::with_capacity(128);
    for row in 0..8u8 {
        for col in 0..8u8 {
            let bit = Square::from_coords(col, row).bit();
            text.push(if black & bit != 0 {
                '0'
            } else if white & bit != 0 {
                '1'
            } else {
                '.'
            });
        }
        text.push('\n');
    }
    if let Some(moves) = opponent_moves {
        for m in moves {
            text.push_str(&m.to_string());
            text.push(';');
        }
        text.push('\n');
    }
    text.push_str(&format!("{}\n", actions.count_ones()));
    for sq in crate::Bitboard(actions).squares() {
        text.push_str(&format!("{sq}\n"));
    }
    text
}

#[cfg(not(cargo_equip))]
/// A bot's answer line, read as CodinGame reads it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// The move played.
    pub square: Square,
    /// The message after `MSG`, cut to [`MSG_MAX_CHARS`].
    pub message: Option<String>,
    /// The answer began with `EXPERT`: from the next turn on the bot gets
    /// the opponent-moves line.
    pub expert: bool,
}

#[cfg(not(cargo_equip))]
/// Parses `d3`, `d3 MSG text` or `EXPERT d3 ...`: split at `MSG`, strip
/// whitespace, lower-case the move.
///
/// # Errors
/// The move part is not a square (`pass` included: it is never legal).
pub fn parse_answer(line: &str) -> Result<Answer, String> {
    let (head, message) = match line.find("MSG") {
        Some(at) => (&line[..at], Some(line[at + 3..].trim())),
        None => (line, None),
    };
    let mut head = head.trim();
    let mut expert = false;
    if let Some(rest) = head.strip_prefix("EXPERT") {
        expert = true;
        head = rest.trim();
    }
    let lowered = head.to_ascii_lowercase();
    let square = Square::parse(&lowered).map_err(|_| format!("unreadable move {head:?}"))?;
    let message = message.map(|m| m.chars().take(MSG_MAX_CHARS).collect());
    Ok(Answer {
        square,
        message,
        expert,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn result(score: Score, depth: u32, ms: u64) -> SearchResult {
        SearchResult {
            best: Square::new(19),
            score,
            depth,
            nodes: 12_345,
            elapsed: Duration::from_millis(ms),
        }
    }

    #[test]
    fn messages_keep_the_score_within_twelve_characters() {
        let cases = [
            (Score::Estimate(4.2), 9, 31, "d9 +4 31ms"),
            (Score::Estimate(-12.0), 14, 1000, "d14 -12 1000"),
            (Score::Selective(-12.0), 14, 1000, "s14 -12 1000"),
            (Score::Selective(3.4), 9, 7, "s9 +3 7ms"),
            (Score::Exact(18), 14, 60, "e14 =+18 60"),
            (Score::Exact(-64), 20, 1999, "e20 =-64"),
            (Score::Probable { score: 0, cut: 200 }, 22, 128, "e22~95 +0"),
            (
                Score::Probable { score: 6, cut: 200 },
                19,
                40,
                "e19~95 +6 40",
            ),
            (
                Score::Probable {
                    score: -12,
                    cut: 110,
                },
                22,
                5,
                "e22~73 -12 5",
            ),
            (Score::Probable { score: 1, cut: 260 }, 9, 5, "e9~99 +1 5ms"),
            (Score::WinRate(0.55), 0, 100, "12kp 55%"),
            (Score::None, 0, 7, "7ms"),
            (Score::Flips(3), 0, 2, "f3 2ms"),
            (Score::Book(2), 0, 0, "book +2"),
            (Score::Book(-64), 0, 0, "book -64"),
        ];
        for (score, depth, ms, expected) in cases {
            let text = message(&result(score, depth, ms));
            assert_eq!(text, expected, "{score:?}");
            assert!(text.chars().count() <= MSG_MAX_CHARS);
        }
    }

    /// A message's time, when it shows, is the whole time: its last word,
    /// unsigned, is the milliseconds (with or without `ms`).
    #[test]
    fn a_time_shows_whole_or_not_at_all() {
        let scores = [
            Score::Estimate(-63.0),
            Score::Selective(5.0),
            Score::Exact(-12),
            Score::Probable {
                score: 10,
                cut: 280,
            },
            Score::Probable {
                score: -3,
                cut: 110,
            },
        ];
        let mut cut = 0;
        for score in scores {
            for depth in [5, 19, 22] {
                for ms in [0, 7, 99, 128, 135, 1000, 1999] {
                    let text = message(&result(score, depth, ms));
                    assert!(text.chars().count() <= MSG_MAX_CHARS, "{text}");
                    let last = text.rsplit(' ').next().unwrap_or("");
                    let time = last.strip_suffix("ms").unwrap_or(last);
                    if time.bytes().all(|b| b.is_ascii_digit()) {
                        assert_eq!(time, ms.to_string(), "{text}");
                    } else {
                        cut += 1;
                    }
                }
            }
        }
        // Some were too long for their time.
        assert!(cut > 5, "{cut}");
    }

    #[test]
    fn counts_are_compacted() {
        for (n, text) in [
            (9_999, "9999"),
            (12_345, "12k"),
            (2_500_000, "2.5M"),
            (12_000_000, "12M"),
        ] {
            assert_eq!(compact(n), text);
        }
    }

    #[test]
    fn answers_are_read_like_codingame() {
        let a = parse_answer("  D3 MSG d9 131ms +4 and more\r").unwrap();
        assert_eq!(a.square.to_string(), "d3");
        assert_eq!(a.message.as_deref(), Some("d9 131ms +4 "));
        assert!(!a.expert);
        assert!(parse_answer("EXPERT c4").unwrap().expert);
        assert!(parse_answer("pass").is_err());
        assert!(parse_answer("").is_err());
    }

    #[test]
    fn format_then_read_gives_the_position_back() {
        let b = Board::start();
        let text = format!(
            "{}{}",
            format_init(Color::White),
            format_turn(b.player, b.opponent, None, b.moves().0)
        );
        let mut lines = Lines::new(text.lines().map(String::from));
        let first = lines.next_opt().unwrap();
        let init = read_init(first, &mut lines).unwrap();
        assert_eq!(init.color, Color::White);
        let first = lines.next_opt().unwrap();
        let turn = read_turn(first, &mut lines, init.color, false).unwrap();
        assert_eq!(turn.board, b.pass());
        assert_eq!(turn.actions.len(), 4);
    }
}

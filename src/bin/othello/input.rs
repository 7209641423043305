//! The bot's input: lines of at most [`MAX_LINE_BYTES`] bytes of UTF-8.

use std::io::{self, BufRead};

/// The longest input line the bot accepts, in bytes. CodinGame's longest
/// line, a list of legal moves, is about 100.
const MAX_LINE_BYTES: usize = 4096;

/// Bytes of a rejected line quoted in the error.
const QUOTED_BYTES: usize = 40;

/// Lines of a reader, at most [`MAX_LINE_BYTES`] long and valid UTF-8. The
/// iteration ends at the end of input or at the first bad line, which
/// [`CheckedLines::error`] then describes (the line's number is the one
/// after the last line `othello::protocol::Lines` received).
pub struct CheckedLines<R> {
    reader: R,
    error: Option<String>,
}

impl<R: BufRead> CheckedLines<R> {
    pub fn new(reader: R) -> CheckedLines<R> {
        CheckedLines {
            reader,
            error: None,
        }
    }

    /// Why the lines ended early, if they did.
    pub fn error(&self) -> Option<&str> {
        self.error.as_deref()
    }
}

impl<R: BufRead> Iterator for CheckedLines<R> {
    type Item = String;

    fn next(&mut self) -> Option<String> {
        if self.error.is_some() {
            return None;
        }
        let mut buf = Vec::new();
        let cap = MAX_LINE_BYTES as u64 + 1;
        match <&mut R as io::Read>::take(&mut self.reader, cap).read_until(b'\n', &mut buf) {
            Ok(0) => return None,
            Ok(_) => {}
            Err(e) => {
                self.error = Some(format!("read error: {e}"));
                return None;
            }
        }
        if buf.last() == Some(&b'\n') {
            buf.pop();
        } else if buf.len() > MAX_LINE_BYTES {
            let start = String::from_utf8_lossy(&buf[..QUOTED_BYTES]).into_owned();
            self.error = Some(format!(
                "longer than {MAX_LINE_BYTES} bytes (it starts {start:?})"
            ));
            return None;
        }
        match String::from_utf8(buf) {
            Ok(text) => Some(text),
            Err(e) => {
                let at = e.utf8_error().valid_up_to();
                self.error = Some(format!("not UTF-8 text (byte {})", at + 1));
                None
            }
        }
    }
}

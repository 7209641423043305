//! A bot's stderr: always drained (so a bot that floods it never blocks),
//! optionally written to a file up to a cap, and its tail kept for crash
//! reports. It never reaches the referee's own output.

use std::fs::File;
use std::io::{BufWriter, Read, Write};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::thread::{self, JoinHandle};

/// The most bytes of one bot's stderr kept in a `--stderr-dir` file per
/// game; a note marks the cut.
pub const FILE_CAP_BYTES: u64 = 1 << 20;
/// How many bytes of the end of stderr a crash report quotes.
pub const TAIL_BYTES: usize = 600;

#[derive(Debug, Default)]
struct State {
    tail: Vec<u8>,
    file: Option<BufWriter<File>>,
    written: u64,
}

/// Where one bot's stderr goes.
#[derive(Debug, Clone)]
pub struct StderrSink {
    state: Arc<Mutex<State>>,
}

impl StderrSink {
    /// A sink that also writes to `path` (created or truncated); an
    /// unwritable path keeps the tail only.
    pub fn new(path: Option<PathBuf>) -> StderrSink {
        let file = path.and_then(|p| File::create(p).ok()).map(BufWriter::new);
        StderrSink {
            state: Arc::new(Mutex::new(State {
                file,
                ..State::default()
            })),
        }
    }

    /// Starts a thread that copies `stream` into this sink until it ends.
    pub fn drain<R: Read + Send + 'static>(&self, mut stream: R) -> JoinHandle<()> {
        let sink = self.clone();
        thread::spawn(move || {
            let mut buf = [0u8; 8192];
            while let Ok(n) = stream.read(&mut buf) {
                if n == 0 {
                    break;
                }
                sink.push(&buf[..n]);
            }
        })
    }

    fn push(&self, bytes: &[u8]) {
        let mut s = self.state.lock().unwrap_or_else(|e| e.into_inner());
        s.tail.extend_from_slice(bytes);
        if s.tail.len() > 2 * TAIL_BYTES {
            let cut = s.tail.len() - TAIL_BYTES;
            s.tail.drain(..cut);
        }
        let room = FILE_CAP_BYTES.saturating_sub(s.written);
        let written = s.written;
        if let Some(file) = s.file.as_mut() {
            if room > 0 {
                let take = (bytes.len() as u64).min(room) as usize;
                let _ = file.write_all(&bytes[..take]);
                if written + take as u64 >= FILE_CAP_BYTES {
                    let _ = writeln!(file, "\n[referee: stderr cut at {FILE_CAP_BYTES} bytes]");
                }
            }
        }
        s.written += bytes.len() as u64;
    }

    /// The last [`TAIL_BYTES`] or so, as text, trimmed.
    pub fn tail(&self) -> String {
        let s = self.state.lock().unwrap_or_else(|e| e.into_inner());
        let start = s.tail.len().saturating_sub(TAIL_BYTES);
        String::from_utf8_lossy(&s.tail[start..]).trim().to_string()
    }

    /// Flushes the file, if any.
    pub fn flush(&self) {
        let mut s = self.state.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(file) = s.file.as_mut() {
            let _ = file.flush();
        }
    }
}

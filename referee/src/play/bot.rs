//! A bot process: started in its own process group, fed through its stdin,
//! read line by line from its stdout with a time limit, its stderr drained
//! so that it can never block, and always killed and reaped at the end.

use crate::play::stderr::StderrSink;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::Mutex;
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

/// The environment variable that carries each bot's seed.
pub const SEED_ENV: &str = "OTHELLO_SEED";
/// How long a bot may take to exit once its input is closed before its
/// process group is killed.
pub const EXIT_GRACE: Duration = Duration::from_millis(300);
/// How long the referee keeps listening after a missed limit, only to
/// report by how much the answer was late.
pub const LATE_ANSWER_GRACE: Duration = Duration::from_millis(500);
/// How long to wait for the exit status of a bot that closed its output.
pub const CRASH_STATUS_WAIT: Duration = Duration::from_millis(500);
/// The longest answer line kept; the rest of a longer line is dropped.
pub const MAX_LINE_BYTES: usize = 4096;
/// Answer lines read ahead and not yet asked for; a bot that floods its
/// stdout then blocks on its own writes instead of filling the referee's
/// memory.
const READ_AHEAD_LINES: usize = 64;
/// How often the exit of a bot is polled while waiting for it.
const POLL: Duration = Duration::from_millis(2);

/// The process groups of the bots alive now, so that an interrupted
/// referee can kill them all ([`kill_all`]).
static LIVE_GROUPS: Mutex<Vec<u32>> = Mutex::new(Vec::new());

fn live_groups() -> std::sync::MutexGuard<'static, Vec<u32>> {
    LIVE_GROUPS.lock().unwrap_or_else(|e| e.into_inner())
}

/// Kills the process groups of every bot still running (on Ctrl-C).
pub fn kill_all() {
    for &pid in live_groups().iter() {
        kill_group(pid);
    }
}

/// What came back for one turn.
#[derive(Debug)]
pub enum Reply {
    /// An answer line (without its line end) and the time it took.
    Line(String, Duration),
    /// No answer within the limit; `Some((late, line))` if one came during
    /// [`LATE_ANSWER_GRACE`] after the limit, `late` past the limit.
    Timeout(Option<(Duration, String)>),
    /// The bot closed a pipe without answering: its input (`input: true`,
    /// the turn could not be written) or its output.
    Closed {
        /// Whether it was the input.
        input: bool,
    },
}

/// How a process ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExitKind {
    /// `exit(code)`.
    Code(i32),
    /// Killed by a signal.
    Signal(i32),
}

impl std::fmt::Display for ExitKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ExitKind::Code(c) => write!(f, "exit status {c}"),
            ExitKind::Signal(s) => write!(f, "killed by signal {s}"),
        }
    }
}

/// A running bot.
#[derive(Debug)]
pub struct Bot {
    child: Child,
    stdin: Option<ChildStdin>,
    /// Answer lines with the moment the reader thread read each.
    lines: Receiver<(Instant, String)>,
    stderr: StderrSink,
    threads: Vec<JoinHandle<()>>,
}

impl Bot {
    /// Starts `argv` in a new process group with `OTHELLO_SEED=seed`; its
    /// stderr goes to `stderr_file` (if any) and to a short tail kept for
    /// crash reports.
    ///
    /// # Errors
    /// The program cannot be started.
    pub fn spawn(argv: &[String], seed: u64, stderr_file: Option<PathBuf>) -> io::Result<Bot> {
        let (program, args) = argv
            .split_first()
            .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "empty command"))?;
        // Registered under the lock it is started under: a concurrent
        // game's sweep of orphans never sees it unregistered.
        let mut live = live_groups();
        let mut child = Command::new(program)
            .args(args)
            .env(SEED_ENV, seed.to_string())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0)
            .spawn()?;
        live.push(child.id());
        drop(live);
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().expect("stdout is piped");
        let stderr = child.stderr.take().expect("stderr is piped");
        let (tx, lines) = mpsc::sync_channel(READ_AHEAD_LINES);
        let reader = thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            while let Some(line) = read_line_capped(&mut reader) {
                if tx.send((Instant::now(), line)).is_err() {
                    break;
                }
            }
        });
        let sink = StderrSink::new(stderr_file);
        let drainer = sink.drain(stderr);
        Ok(Bot {
            child,
            stdin,
            lines,
            stderr: sink,
            // The stderr drainer last: `stderr_tail` waits for it.
            threads: vec![reader, drainer],
        })
    }

    /// Writes `text` to the bot's input (no answer expected).
    ///
    /// # Errors
    /// The bot no longer reads its input.
    pub fn send(&mut self, text: &str) -> io::Result<()> {
        let stdin = self
            .stdin
            .as_mut()
            .ok_or_else(|| io::Error::new(io::ErrorKind::BrokenPipe, "input closed"))?;
        stdin.write_all(text.as_bytes())?;
        stdin.flush()
    }

    /// Sends a turn and waits at most `limit` for the answer line. The
    /// clock starts just before the turn is written and stops when the
    /// reader thread has read the line (so that a referee thread woken late
    /// by a busy machine does not add to the bot's time).
    pub fn ask(&mut self, text: &str, limit: Duration) -> Reply {
        let start = Instant::now();
        if self.send(text).is_err() {
            return Reply::Closed { input: true };
        }
        let late = |at: Instant| at.saturating_duration_since(start).saturating_sub(limit);
        match self
            .lines
            .recv_timeout(limit.saturating_sub(start.elapsed()))
        {
            Ok((at, line)) => {
                let took = at.saturating_duration_since(start);
                if took <= limit {
                    Reply::Line(line, took)
                } else {
                    Reply::Timeout(Some((late(at), line)))
                }
            }
            Err(RecvTimeoutError::Disconnected) => Reply::Closed { input: false },
            Err(RecvTimeoutError::Timeout) => {
                let answer = self.lines.recv_timeout(LATE_ANSWER_GRACE).ok();
                Reply::Timeout(answer.map(|(at, line)| (late(at), line)))
            }
        }
    }

    /// The exit status of a bot that closed its output, waiting at most
    /// [`CRASH_STATUS_WAIT`]; `None` if it is still running. The process
    /// is not reaped (see [`Bot::finish`]).
    pub fn exit_status(&mut self) -> Option<ExitKind> {
        let until = Instant::now() + CRASH_STATUS_WAIT;
        loop {
            if let Some(kind) = peek_exit(self.child.id()) {
                return Some(kind);
            }
            if Instant::now() >= until {
                return None;
            }
            thread::sleep(POLL);
        }
    }

    /// The bot process's peak resident memory so far (`VmHWM` of
    /// `/proc/PID/status`), in kB; `None` once it has exited or where
    /// `/proc` does not say.
    pub fn peak_memory_kb(&self) -> Option<u64> {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).ok()?;
        status
            .lines()
            .find_map(|l| l.strip_prefix("VmHWM:"))?
            .trim()
            .trim_end_matches("kB")
            .trim()
            .parse()
            .ok()
    }

    /// The last lines the bot wrote to stderr. The stderr thread may still
    /// be copying what a bot wrote just before it exited: wait for it to
    /// reach the end of the stream, at most [`CRASH_STATUS_WAIT`] (a child
    /// the bot left running may hold the stream open).
    pub fn stderr_tail(&self) -> String {
        let until = Instant::now() + CRASH_STATUS_WAIT;
        let drainer = self.threads.last();
        while drainer.is_some_and(|t| !t.is_finished()) && Instant::now() < until {
            thread::sleep(POLL);
        }
        self.stderr.tail()
    }

    /// Ends the game for this bot: closes its input, gives it
    /// [`EXIT_GRACE`] to exit, then kills its whole process group (its
    /// children too) and reaps it. Returns whether it had to be killed.
    pub fn finish(mut self) -> bool {
        drop(self.stdin.take());
        let pid = self.child.id();
        let until = Instant::now() + EXIT_GRACE;
        let mut exited = peek_exit(pid).is_some();
        while !exited && Instant::now() < until {
            thread::sleep(POLL);
            exited = peek_exit(pid).is_some();
        }
        // Descendants that left the group (setsid) are found through their
        // parents while those still live.
        let escaped = descendants(pid);
        // The leader is not reaped yet, so its pid still names this group
        // and no other: killing it cannot hit an unrelated process.
        kill_group(pid);
        for &p in &escaped {
            kill(p);
        }
        // Out of the registry before the pid is freed by reaping.
        let mut live = live_groups();
        live.retain(|&p| p != pid);
        let _ = self.child.wait();
        // Orphans whose parent died earlier were adopted by the referee
        // (a child subreaper): every child that is not a live bot is one.
        sweep_orphans(&live);
        drop(live);
        // The pipes close once every process of the group is dead; a
        // grandchild that left the group could keep them open, so the
        // threads are waited for briefly and then left behind.
        let until = Instant::now() + EXIT_GRACE;
        while self.threads.iter().any(|t| !t.is_finished()) && Instant::now() < until {
            thread::sleep(POLL);
        }
        self.stderr.flush();
        !exited
    }
}

/// Reads one line of at most [`MAX_LINE_BYTES`] (the rest is dropped),
/// without its line end; `None` at the end of the stream.
fn read_line_capped<R: Read>(reader: &mut BufReader<R>) -> Option<String> {
    let mut line = Vec::new();
    loop {
        let buf = match reader.fill_buf() {
            Ok(buf) => buf,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(_) => return None,
        };
        if buf.is_empty() {
            return if line.is_empty() {
                None
            } else {
                Some(String::from_utf8_lossy(&line).into_owned())
            };
        }
        let (chunk, done) = match buf.iter().position(|&b| b == b'\n') {
            Some(at) => (&buf[..at], Some(at + 1)),
            None => (buf, None),
        };
        let room = MAX_LINE_BYTES.saturating_sub(line.len());
        line.extend_from_slice(&chunk[..chunk.len().min(room)]);
        let used = done.unwrap_or(buf.len());
        reader.consume(used);
        if done.is_some() {
            if line.last() == Some(&b'\r') {
                line.pop();
            }
            return Some(String::from_utf8_lossy(&line).into_owned());
        }
    }
}

/// How the process `pid` ended, if it has, without reaping it.
fn peek_exit(pid: u32) -> Option<ExitKind> {
    // SAFETY: `info` is a plain C struct that waitid fills in; WNOWAIT
    // leaves the child waitable, so std's `Child::wait` still reaps it.
    unsafe {
        let mut info: libc::siginfo_t = std::mem::zeroed();
        let rc = libc::waitid(
            libc::P_PID,
            pid as libc::id_t,
            &mut info,
            libc::WEXITED | libc::WNOHANG | libc::WNOWAIT,
        );
        if rc != 0 || info.si_pid() == 0 {
            return None;
        }
        let status = info.si_status();
        Some(if info.si_code == libc::CLD_EXITED {
            ExitKind::Code(status)
        } else {
            ExitKind::Signal(status)
        })
    }
}

/// Makes the referee the reaper of every orphaned descendant of its bots
/// (Linux's child subreaper), so that none outlives the match.
pub fn adopt_orphans() {
    // SAFETY: prctl with PR_SET_CHILD_SUBREAPER only sets a flag on this
    // process.
    unsafe {
        libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
    }
}

/// The parent of every process, from `/proc/PID/stat`.
fn parents() -> Vec<(u32, u32)> {
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    dir.filter_map(|e| {
        let pid: u32 = e.ok()?.file_name().to_str()?.parse().ok()?;
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
        // `pid (comm) state ppid ...`; comm may hold spaces and parentheses.
        let ppid = stat
            .rsplit(')')
            .next()?
            .split_whitespace()
            .nth(1)?
            .parse()
            .ok()?;
        Some((pid, ppid))
    })
    .collect()
}

/// Every living descendant of `root`, by parent links.
fn descendants(root: u32) -> Vec<u32> {
    let links = parents();
    let mut found = vec![root];
    let mut i = 0;
    while i < found.len() {
        let p = found[i];
        found.extend(links.iter().filter(|&&(_, pp)| pp == p).map(|&(c, _)| c));
        i += 1;
    }
    found.remove(0);
    found
}

/// Kills and reaps the referee's children that are not live bots: orphans
/// adopted through [`adopt_orphans`]. `live` is the locked registry.
fn sweep_orphans(live: &[u32]) {
    let me = std::process::id();
    for (pid, _) in parents()
        .into_iter()
        .filter(|&(p, pp)| pp == me && !live.contains(&p))
    {
        kill(pid);
        // SAFETY: waitpid on our own child, which SIGKILL ends promptly.
        unsafe {
            libc::waitpid(pid as libc::pid_t, std::ptr::null_mut(), 0);
        }
    }
}

/// Sends SIGKILL to the process `pid`.
fn kill(pid: u32) {
    // SAFETY: kill only sends a signal; a process already gone gives ESRCH.
    unsafe {
        libc::kill(pid as libc::pid_t, libc::SIGKILL);
    }
}

/// Sends SIGKILL to the process group led by `pid`.
fn kill_group(pid: u32) {
    // SAFETY: killpg only sends a signal; an already empty group gives
    // ESRCH, which is ignored.
    unsafe {
        libc::killpg(pid as libc::pid_t, libc::SIGKILL);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_lines_are_cut_and_line_ends_removed() {
        let mut text = vec![b'x'; MAX_LINE_BYTES + 10];
        text.extend_from_slice(b"\nd3 MSG hi\r\nlast");
        let mut r = BufReader::with_capacity(16, &text[..]);
        assert_eq!(read_line_capped(&mut r).unwrap().len(), MAX_LINE_BYTES);
        assert_eq!(read_line_capped(&mut r).unwrap(), "d3 MSG hi");
        assert_eq!(read_line_capped(&mut r).unwrap(), "last");
        assert_eq!(read_line_capped(&mut r), None);
    }
}

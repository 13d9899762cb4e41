//! A bot's output streams: stdout read into lines (with a bound on the length) where the
//! referee waits for a reply, stderr drained by a task of its own into a capped log, so that
//! a bot chatty on stderr never blocks on a full pipe. The end of stderr also carries the sandbox launcher's report
//! ([`quads_sandbox::BoxReport`]), taken out of the log, and the bot's last words.

use std::sync::{Arc, Mutex};

use quads_protocol::MAX_LINE;
use quads_sandbox::BoxReport;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, BufReader};
use tokio::sync::watch;

/// The bot's standard error (and its `info` lines), kept up to a cap; the rest is counted.
#[derive(Debug, Default)]
pub struct Log {
    /// What was kept.
    pub kept: Vec<u8>,
    /// Bytes past the cap, not kept.
    pub dropped: u64,
    cap: usize,
}

impl Log {
    /// An empty log that keeps up to `cap` bytes.
    pub(crate) fn with_cap(cap: usize) -> Log {
        Log {
            cap,
            ..Log::default()
        }
    }

    fn push(&mut self, bytes: &[u8]) {
        let room = self.cap.saturating_sub(self.kept.len());
        let take = room.min(bytes.len());
        self.kept.extend_from_slice(&bytes[..take]);
        self.dropped += (bytes.len() - take) as u64;
    }

    /// What the log has gathered so far, leaving it empty (with its cap).
    pub(crate) fn take(&mut self) -> Log {
        Log {
            kept: std::mem::take(&mut self.kept),
            dropped: std::mem::take(&mut self.dropped),
            cap: self.cap,
        }
    }
}

/// How many bytes of the end of stderr are kept for the report and the last words.
const TAIL: usize = 4096;

/// What the stderr task leaves for the process: the log, the end of the stream, and, once
/// it has ended, the launcher's report.
#[derive(Debug, Default)]
pub(crate) struct Stderr {
    pub(crate) log: Log,
    tail: Vec<u8>,
    pub(crate) report: Option<BoxReport>,
}

impl Stderr {
    pub(crate) fn new(cap: usize) -> Stderr {
        Stderr {
            log: Log::with_cap(cap),
            ..Stderr::default()
        }
    }

    fn push(&mut self, bytes: &[u8]) {
        self.log.push(bytes);
        self.tail.extend_from_slice(bytes);
        if self.tail.len() > 2 * TAIL {
            self.tail.drain(..self.tail.len() - TAIL);
        }
    }

    /// At the end of the stream: takes the launcher's report (marked by `nonce`) out of the
    /// tail and the log.
    fn finish(&mut self, nonce: Option<&str>) {
        let Some(nonce) = nonce else { return };
        let Some((report, at)) = BoxReport::find(&self.tail, nonce) else {
            return;
        };
        let len = (self.tail.len() - at) as u64;
        self.tail.truncate(at);
        let kept = self.log.kept.len() as u64;
        // The report is the stream's last bytes: kept whole, kept in part, or dropped whole.
        let dropped_part = len.min(self.log.dropped);
        self.log.dropped -= dropped_part;
        let kept_part = (len - dropped_part).min(kept);
        self.log.kept.truncate((kept - kept_part) as usize);
        self.report = Some(report);
    }

    /// The last `n` non-blank lines of stderr, each cut at 200 characters, joined with ` / `.
    pub(crate) fn last_words(&self, n: usize) -> String {
        let text = String::from_utf8_lossy(&self.tail);
        let lines: Vec<String> = text
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(|l| l.trim().chars().take(200).collect())
            .collect();
        lines[lines.len().saturating_sub(n)..].join(" / ")
    }
}

/// What reading stdout gives.
pub(crate) enum Event {
    Line(String),
    TooLong(String),
    Closed,
}

/// A bot's stdout, read where the referee waits for a reply: no task of its own, so a line
/// costs no hand-over between tasks (and no extra turn of the runtime). `info` lines go to the
/// log as they are read; a line past [`MAX_LINE`] is reported once, and the rest of the
/// stream is then thrown away.
pub(crate) struct Stdout {
    reader: BufReader<tokio::process::ChildStdout>,
    /// The line being read: kept here, so that a wait given up (the deadline) loses nothing.
    line: Vec<u8>,
    err: Arc<Mutex<Stderr>>,
    too_long: bool,
}

impl Stdout {
    pub(crate) fn new(stdout: tokio::process::ChildStdout, err: Arc<Mutex<Stderr>>) -> Stdout {
        Stdout {
            reader: BufReader::new(stdout),
            line: Vec::new(),
            err,
            too_long: false,
        }
    }

    /// The next line that is not `info`, or the stream's end. Cancel-safe: every await is a
    /// read whose bytes are taken only once it completes.
    pub(crate) async fn next(&mut self) -> Event {
        loop {
            if self.too_long {
                let mut sink = [0u8; 8192];
                while matches!(self.reader.read(&mut sink).await, Ok(n) if n > 0) {}
                return Event::Closed;
            }
            let buf = match self.reader.fill_buf().await {
                Ok([]) | Err(_) => return Event::Closed,
                Ok(buf) => buf,
            };
            let (chunk, complete) = match buf.iter().position(|&b| b == b'\n') {
                Some(i) => (&buf[..i], true),
                None => (buf, false),
            };
            let line = &mut self.line;
            let take = chunk.len().min(MAX_LINE + 1 - line.len().min(MAX_LINE + 1));
            line.extend_from_slice(&chunk[..take]);
            let used = chunk.len() + usize::from(complete);
            self.reader.consume(used);
            if line.len() > MAX_LINE {
                self.too_long = true;
                return Event::TooLong(String::from_utf8_lossy(&line[..200]).into_owned());
            }
            if complete {
                if line.last() == Some(&b'\r') {
                    line.pop();
                }
                let text = String::from_utf8_lossy(line).into_owned();
                line.clear();
                if text.starts_with("info ") || text == "info" {
                    let mut err = self.err.lock().expect("log lock");
                    err.log.push(b"stdout: ");
                    err.log.push(text.as_bytes());
                    err.log.push(b"\n");
                    continue;
                }
                return Event::Line(text);
            }
        }
    }
}

/// Drains stderr into `err` until its end, then takes out the report marked by `nonce` and
/// says so on `ended`.
pub(crate) async fn drain_stderr(
    mut stderr: tokio::process::ChildStderr,
    err: Arc<Mutex<Stderr>>,
    nonce: Option<String>,
    ended: watch::Sender<bool>,
) {
    let mut buf = vec![0u8; 64 * 1024];
    while let Ok(n) = stderr.read(&mut buf).await {
        if n == 0 {
            break;
        }
        err.lock().expect("log lock").push(&buf[..n]);
    }
    err.lock().expect("log lock").finish(nonce.as_deref());
    let _ = ended.send(true);
}

/// Whether bytes wait to be read in pipe `fd`.
pub(crate) fn pending(fd: &std::os::fd::OwnedFd) -> bool {
    use nix::poll::{poll, PollFd, PollFlags, PollTimeout};
    use std::os::fd::AsFd;
    let mut fds = [PollFd::new(fd.as_fd(), PollFlags::POLLIN)];
    matches!(poll(&mut fds, PollTimeout::ZERO), Ok(n) if n > 0)
        && fds[0]
            .revents()
            .is_some_and(|r| r.contains(PollFlags::POLLIN))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_report_is_taken_out_of_the_log_wherever_the_cap_cut_it() {
        let report = BoxReport {
            status: 256,
            leaked: 1,
            oom_kills: 0,
            forks_refused: 0,
        };
        let line = report.line("n");
        for cap in [1000, 12, 3] {
            let mut e = Stderr::new(cap);
            e.push(b"hello\nworld");
            e.push(line.as_bytes());
            e.finish(Some("n"));
            assert_eq!(e.report, Some(report));
            let all = b"hello\nworld";
            let kept = cap.min(all.len());
            assert_eq!(
                (e.log.kept.as_slice(), e.log.dropped),
                (&all[..kept], (all.len() - kept) as u64),
                "cap {cap}"
            );
            assert_eq!(e.last_words(3), "hello / world");
        }
        let mut forged = Stderr::new(100);
        forged.push(report.line("guess").as_bytes());
        forged.finish(Some("n"));
        assert_eq!(forged.report, None);
    }
}

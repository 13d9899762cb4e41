//! Bot processes: start one in a process group of its own, talk to it line by line against a
//! deadline, and make sure that it and everything it started are gone afterwards.
//!
//! Stdout is read by a task of its own into a channel, with a bound on the line length, so that
//! waiting for a reply is one `select!` over the next line, the deadline and the process's exit:
//! a hung bot never blocks the referee. Stderr is drained concurrently into a capped in-memory
//! log, so that a chatty bot never blocks on a full pipe.

use std::path::PathBuf;
use std::process::{ExitStatus, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use nix::sys::signal::{killpg, Signal};
use nix::unistd::Pid;
use quads_protocol::MAX_LINE;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::process::{Child, ChildStdin, Command};
use tokio::sync::mpsc;
use tokio::time::{sleep, sleep_until, timeout, Instant};

use crate::descendants::{self, Proc, TOKEN_VAR};
use crate::reaping::{group_members, reap, reap_orphans, signal_all, stopped, stragglers};
use crate::sandbox::{self, jail_path, SandboxSpec, JAIL};

/// How to start a bot.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BotCommand {
    /// The program and its arguments, or with `shell` a single shell command line.
    pub argv: Vec<String>,
    /// Run `argv[0]` through `sh -c`.
    pub shell: bool,
    /// The working directory, if not the referee's.
    pub dir: Option<PathBuf>,
    /// The walls around it, as asked for (what the machine can enforce is decided at start).
    pub sandbox: SandboxSpec,
}

impl BotCommand {
    /// `argv` run directly in the referee's folder, inside the default sandbox.
    pub fn new(argv: Vec<String>) -> BotCommand {
        BotCommand {
            argv,
            shell: false,
            dir: None,
            sandbox: SandboxSpec::default(),
        }
    }

    /// The command as a user would type it.
    pub fn display(&self) -> String {
        self.argv.join(" ")
    }
}

/// Why a bot could not be started.
#[derive(Debug, thiserror::Error)]
#[error("cannot start bot `{command}`: {source}")]
pub struct SpawnError {
    command: String,
    #[source]
    source: std::io::Error,
}

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
    fn push(&mut self, bytes: &[u8]) {
        let room = self.cap.saturating_sub(self.kept.len());
        let take = room.min(bytes.len());
        self.kept.extend_from_slice(&bytes[..take]);
        self.dropped += (bytes.len() - take) as u64;
    }
}

/// What the stdout task hands over.
enum Event {
    Line(String),
    TooLong(String),
    Closed,
}

/// What came back while waiting for a reply.
#[derive(Debug)]
pub enum Reply {
    /// A complete line (without its line ending).
    Line(String),
    /// A line longer than [`MAX_LINE`]; its start.
    TooLong(String),
    /// Nothing complete by the deadline.
    Timeout,
    /// Stdout was closed while the process kept running.
    Closed,
    /// The process exited.
    Exited(ExitStatus),
}

/// How a bot process ended, for the record.
#[derive(Debug, Default, Clone, Copy)]
pub struct Ended {
    /// Processes of the bot's group still alive after the bot itself had exited (children that
    /// outlived it and had to be killed).
    pub leaked: u32,
    /// Whether SIGTERM had to be sent to the group.
    pub terminated: bool,
    /// Whether SIGKILL had to be sent to the group.
    pub killed: bool,
}

/// A running bot.
pub struct BotProcess {
    child: Child,
    pgid: Pid,
    stdin: Option<ChildStdin>,
    events: mpsc::Receiver<Event>,
    stdout_closed: bool,
    status: Option<ExitStatus>,
    log: Arc<Mutex<Log>>,
    readers: Vec<tokio::task::JoinHandle<()>>,
    /// Set once [`BotProcess::shutdown`] has ended the group.
    finished: bool,
    /// The bot's token, in its environment and its descendants' ([`TOKEN_VAR`]).
    token: String,
    /// A second handle on the read end of its stderr pipe, to see whether bytes wait in it.
    stderr_probe: Option<std::os::fd::OwnedFd>,
    /// Its private temporary folder, removed when this is dropped (after the bot is gone).
    _tmp: Option<sandbox::BotTmp>,
}

/// A bot dropped without [`BotProcess::shutdown`] (a game abandoned on Ctrl-C, a task
/// aborted) is killed with its whole group at once.
impl Drop for BotProcess {
    fn drop(&mut self) {
        if !self.finished {
            let before = descendants::of(&descendants::fresh(), self.pgid, &self.token);
            let _ = killpg(self.pgid, Signal::SIGKILL);
            let _ = self.child.try_wait();
            let stragglers = stragglers(self.pgid, &self.token, &before);
            signal_all(&stragglers, Signal::SIGKILL);
            reap(&stragglers);
            reap_orphans(self.pgid);
            descendants::finished(self.pgid.as_raw());
        }
    }
}

impl BotProcess {
    /// Starts the bot in a new process group, with piped stdin, stdout and stderr.
    pub fn spawn(cmd: &BotCommand, log_cap: usize) -> Result<BotProcess, SpawnError> {
        descendants::become_subreaper();
        let error = |source| SpawnError {
            command: cmd.display(),
            source,
        };
        let argv = if cmd.shell {
            vec!["sh".to_owned(), "-c".to_owned(), cmd.argv.join(" ")]
        } else {
            cmd.argv.clone()
        };
        if argv.is_empty() {
            return Err(error(std::io::Error::other("empty command")));
        }
        let dir = match &cmd.dir {
            Some(dir) => dir.clone(),
            None => std::env::current_dir().map_err(error)?,
        };
        let mut tmp = None;
        let (walls, _) =
            sandbox::enforce(&cmd.sandbox).map_err(|e| error(std::io::Error::other(e)))?;
        let mut command = if walls.is_on() {
            let jail = jail_path().ok_or_else(|| {
                error(std::io::Error::other(format!(
                    "{JAIL} is not beside the referee: build it with `cargo build --release --workspace`"
                )))
            })?;
            sandbox::runnable(&argv[0], &dir).map_err(error)?;
            let bot_tmp = sandbox::private_tmp(&walls).map_err(error)?;
            let mut c = Command::new(jail);
            c.args(walls.jail_args(&argv, &dir, bot_tmp.path(), bot_tmp.bot_id()));
            c.env("TMPDIR", bot_tmp.path());
            tmp = Some(bot_tmp);
            c
        } else {
            let mut c = Command::new(&argv[0]);
            c.args(&argv[1..]);
            c
        };
        command.current_dir(&dir);
        static STARTED: AtomicU64 = AtomicU64::new(0);
        let token = format!(
            "{}-{}",
            std::process::id(),
            STARTED.fetch_add(1, Ordering::Relaxed)
        );
        command.env(TOKEN_VAR, &token);
        command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0)
            .kill_on_drop(true);
        let mut child = command.spawn().map_err(error)?;
        let pid = child.id().expect("a child that was just started has an id");
        descendants::started(pid as i32);
        let pgid = Pid::from_raw(pid as i32);
        let log = Arc::new(Mutex::new(Log {
            cap: log_cap,
            ..Log::default()
        }));
        let (tx, events) = mpsc::channel(64);
        let stdout = child.stdout.take().expect("stdout is piped");
        let stderr = child.stderr.take().expect("stderr is piped");
        let stderr_probe = {
            use std::os::fd::AsFd;
            stderr.as_fd().try_clone_to_owned().ok()
        };
        let readers = vec![
            tokio::spawn(read_stdout(stdout, tx, Arc::clone(&log))),
            tokio::spawn(drain_stderr(stderr, Arc::clone(&log))),
        ];
        Ok(BotProcess {
            stdin: child.stdin.take(),
            child,
            pgid,
            events,
            stdout_closed: false,
            status: None,
            log,
            readers,
            finished: false,
            token,
            stderr_probe,
            _tmp: tmp,
        })
    }

    /// Stops the bot and everything in its group (SIGSTOP): no pondering on the opponent's
    /// time. Returns once every process of the group is seen stopped (or after 100 ms).
    pub async fn pause(&self) {
        let _ = killpg(self.pgid, Signal::SIGSTOP);
        // A stopped process cannot fork: the members found now are all there will be.
        let pgid = self.pgid;
        let members = off_runtime(move || group_members(pgid)).await;
        let until = Instant::now() + Duration::from_millis(100);
        while Instant::now() < until {
            if members.iter().all(|&pid| stopped(pid)) {
                return;
            }
            sleep(Duration::from_millis(1)).await;
        }
    }

    /// Continues a paused bot (SIGCONT); harmless on one that runs.
    pub fn resume(&self) {
        let _ = killpg(self.pgid, Signal::SIGCONT);
    }

    /// The process group id (the bot's pid).
    pub fn pgid(&self) -> i32 {
        self.pgid.as_raw()
    }

    /// Whether the process has been seen to exit.
    pub fn has_exited(&mut self) -> bool {
        if self.status.is_none() {
            if let Ok(Some(status)) = self.child.try_wait() {
                self.status = Some(status);
            }
        }
        self.status.is_some()
    }

    /// Writes one line. On failure, reports how the bot is gone.
    pub async fn send(&mut self, line: &str) -> Result<(), Reply> {
        let Some(stdin) = self.stdin.as_mut() else {
            return Err(self.gone().await);
        };
        let mut bytes = Vec::with_capacity(line.len() + 1);
        bytes.extend_from_slice(line.as_bytes());
        bytes.push(b'\n');
        // A bot that stops reading fills the pipe; do not wait on it forever.
        let written = timeout(Duration::from_secs(5), async {
            stdin.write_all(&bytes).await?;
            stdin.flush().await
        })
        .await;
        match written {
            Ok(Ok(())) => Ok(()),
            _ => {
                self.stdin = None;
                Err(self.gone().await)
            }
        }
    }

    /// After a failed write or the end of stdout: the exit status if the process exits within
    /// a second, else "closed". A crashing process closes its output a moment before its exit
    /// can be seen; on a busy machine (the soak run, 16 games on 2 cores) that moment passed
    /// 200 ms, and a crash was recorded as a closed output.
    async fn gone(&mut self) -> Reply {
        match self.wait_exit(Duration::from_secs(1)).await {
            Some(status) => Reply::Exited(status),
            None => Reply::Closed,
        }
    }

    async fn wait_exit(&mut self, grace: Duration) -> Option<ExitStatus> {
        if let Some(status) = self.status {
            return Some(status);
        }
        if let Ok(Ok(status)) = timeout(grace, self.child.wait()).await {
            self.status = Some(status);
        }
        self.status
    }

    /// Waits for the next line until `deadline`, the end of stdout, or the process's exit.
    pub async fn recv(&mut self, deadline: Instant) -> Reply {
        if self.stdout_closed {
            return self.gone().await;
        }
        let exited = self.status.is_some();
        tokio::select! {
            biased;
            event = self.events.recv() => match event {
                Some(Event::Line(line)) => Reply::Line(line),
                Some(Event::TooLong(start)) => Reply::TooLong(start),
                Some(Event::Closed) | None => {
                    self.stdout_closed = true;
                    self.gone().await
                }
            },
            status = self.child.wait(), if !exited => {
                if let Ok(status) = status {
                    self.status = Some(status);
                }
                // A last line written just before the exit may still be on its way.
                match timeout(Duration::from_millis(50), self.events.recv()).await {
                    Ok(Some(Event::Line(line))) => Reply::Line(line),
                    _ => Reply::Exited(self.status.expect("just set")),
                }
            }
            () = sleep_until(deadline) => Reply::Timeout,
        }
    }

    /// Waits until what the bot wrote to stderr before its last reply is in the log: the
    /// stderr pipe is empty (the drain task has read it), up to a bound.
    pub async fn settle_log(&self) {
        let Some(probe) = &self.stderr_probe else {
            return;
        };
        for _ in 0..1000 {
            if !pending(probe) {
                return;
            }
            tokio::task::yield_now().await;
        }
    }

    /// Takes what the log has gathered so far (used per game when a bot is kept alive).
    pub fn take_log(&self) -> Log {
        let mut log = self.log.lock().expect("log lock");
        Log {
            kept: std::mem::take(&mut log.kept),
            dropped: std::mem::take(&mut log.dropped),
            cap: log.cap,
        }
    }

    /// Ends the bot: `quit`, a grace period, SIGTERM to the group, a grace period, SIGKILL to
    /// the group; then the same to every descendant still alive, wherever it moved (another
    /// group, another session, an orphan). Returns once all of them are gone and reaped.
    pub async fn shutdown(mut self, grace: Duration) -> (Ended, Log) {
        let mut ended = Ended::default();
        // Seen while the bot still runs, the tree links its children to it.
        let before = self.descendants().await;
        if self.stdin.is_some() && self.status.is_none() {
            let _ = self.send("quit").await;
        }
        self.stdin = None; // closing stdin is a second hint
        self.wait_exit(grace).await;
        let mut stragglers = self.stragglers(&before).await;
        ended.leaked = if self.status.is_some() {
            stragglers.len()
        } else {
            // A bot that must be signalled takes its group with it; what left the group
            // would outlive it.
            stragglers
                .iter()
                .filter(|p| p.pgrp != self.pgid.as_raw())
                .count()
        } as u32;
        if !self.has_exited() || !stragglers.is_empty() {
            ended.terminated = true;
            let _ = killpg(self.pgid, Signal::SIGTERM);
            stragglers = self.wait_all(&before, Signal::SIGTERM, grace).await;
        }
        if !self.has_exited() || !stragglers.is_empty() {
            ended.killed = true;
            let _ = killpg(self.pgid, Signal::SIGKILL);
            self.wait_all(&before, Signal::SIGKILL, Duration::from_secs(2))
                .await;
        }
        self.wait_exit(Duration::from_secs(1)).await;
        let pgid = self.pgid;
        off_runtime(move || reap_orphans(pgid)).await;
        self.finished = true;
        descendants::finished(pgid.as_raw());
        for reader in self.readers.drain(..) {
            // Every writer of the pipes is dead, so the readers end; bound it all the same.
            let _ = timeout(Duration::from_millis(500), reader).await;
        }
        (ended, self.take_log())
    }

    /// The bot's descendants now, zombies included.
    async fn descendants(&self) -> Vec<Proc> {
        let (pgid, token) = (self.pgid, self.token.clone());
        off_runtime(move || descendants::of(&descendants::fresh(), pgid, &token)).await
    }

    /// Descendants alive now (see [`stragglers`]).
    async fn stragglers(&self, before: &[Proc]) -> Vec<Proc> {
        let (pgid, token, before) = (self.pgid, self.token.clone(), before.to_vec());
        off_runtime(move || stragglers(pgid, &token, &before)).await
    }

    /// Sends `signal` to the bot's descendants, again to any that appear, and waits up to
    /// `limit` for them and the bot to be gone, reaping as it goes. Returns the descendants
    /// still alive.
    async fn wait_all(&mut self, before: &[Proc], signal: Signal, limit: Duration) -> Vec<Proc> {
        let end = Instant::now() + limit;
        let mut signalled: Vec<Proc> = Vec::new();
        let mut alive = self.stragglers(before).await;
        // Each look scans /proc: often at first, when most processes are gone, then less.
        let mut pause = Duration::from_millis(2);
        loop {
            for p in &alive {
                if !signalled
                    .iter()
                    .any(|s| s.pid == p.pid && s.start == p.start)
                {
                    signal_all(std::slice::from_ref(p), signal);
                    signalled.push(*p);
                }
            }
            self.wait_exit(pause).await;
            alive = self.stragglers(before).await;
            if (self.has_exited() && alive.is_empty()) || Instant::now() >= end {
                return alive;
            }
            sleep(pause).await;
            pause = (pause * 2).min(Duration::from_millis(50));
        }
    }
}

/// Runs a look at the machine's processes on a blocking thread: a scan of /proc reads a file
/// per process on the machine, and the runtime's threads must stay free to time the moves of
/// the bots of every other game.
async fn off_runtime<T: Default + Send + 'static>(job: impl FnOnce() -> T + Send + 'static) -> T {
    // It fails only when the runtime shuts down before the job starts: then nothing is found.
    tokio::task::spawn_blocking(job).await.unwrap_or_default()
}

/// Whether bytes wait to be read in pipe `fd`.
fn pending(fd: &std::os::fd::OwnedFd) -> bool {
    use nix::poll::{poll, PollFd, PollFlags, PollTimeout};
    use std::os::fd::AsFd;
    let mut fds = [PollFd::new(fd.as_fd(), PollFlags::POLLIN)];
    matches!(poll(&mut fds, PollTimeout::ZERO), Ok(n) if n > 0)
        && fds[0]
            .revents()
            .is_some_and(|r| r.contains(PollFlags::POLLIN))
}

async fn read_stdout(
    stdout: tokio::process::ChildStdout,
    tx: mpsc::Sender<Event>,
    log: Arc<Mutex<Log>>,
) {
    let mut reader = BufReader::new(stdout);
    let mut line: Vec<u8> = Vec::new();
    loop {
        let buf = match reader.fill_buf().await {
            Ok([]) | Err(_) => {
                let _ = tx.send(Event::Closed).await;
                return;
            }
            Ok(buf) => buf,
        };
        let (chunk, complete) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (&buf[..i], true),
            None => (buf, false),
        };
        let take = chunk.len().min(MAX_LINE + 1 - line.len().min(MAX_LINE + 1));
        line.extend_from_slice(&chunk[..take]);
        let used = chunk.len() + usize::from(complete);
        reader.consume(used);
        if line.len() > MAX_LINE {
            let start = String::from_utf8_lossy(&line[..200]).into_owned();
            let _ = tx.send(Event::TooLong(start)).await;
            // Keep draining so the bot never blocks on a full pipe; ignore the rest.
            let mut sink = [0u8; 8192];
            while matches!(reader.read(&mut sink).await, Ok(n) if n > 0) {}
            return;
        }
        if complete {
            if line.last() == Some(&b'\r') {
                line.pop();
            }
            let text = String::from_utf8_lossy(&line).into_owned();
            line.clear();
            if text.starts_with("info ") || text == "info" {
                let mut log = log.lock().expect("log lock");
                log.push(b"stdout: ");
                log.push(text.as_bytes());
                log.push(b"\n");
                continue;
            }
            if tx.send(Event::Line(text)).await.is_err() {
                return;
            }
        }
    }
}

async fn drain_stderr(mut stderr: tokio::process::ChildStderr, log: Arc<Mutex<Log>>) {
    let mut buf = vec![0u8; 64 * 1024];
    while let Ok(n) = stderr.read(&mut buf).await {
        if n == 0 {
            return;
        }
        log.lock().expect("log lock").push(&buf[..n]);
    }
}

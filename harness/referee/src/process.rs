//! Bot processes: start one (in its box, or with the sandbox off as a plain process group),
//! talk to it line by line against a deadline, and make sure that it and everything it started
//! are gone afterwards.
//!
//! Waiting for a reply is one `select!` over the next line, the deadline and the process's
//! exit ([`crate::stdio`] reads the streams): a hung bot never blocks the referee.
//!
//! A boxed bot is the launcher's keeper and what it runs ([`quads_sandbox`]): everything the
//! bot starts lives in the box's PID namespace and cgroups, so its end ends them all and the
//! launcher counts what was left; no scan of the machine's processes is needed, and nothing
//! the bot can change is trusted. A bot with the sandbox off is found and ended by
//! [`crate::plain`].

use std::os::unix::process::ExitStatusExt;
use std::path::PathBuf;
use std::process::{ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use nix::sys::signal::{killpg, Signal};
use nix::unistd::Pid;
use quads_sandbox::{BoxHandle, SandboxSpec};
use tokio::io::{AsyncWrite, AsyncWriteExt};
use tokio::process::{Child, ChildStdin, Command};
use tokio::sync::watch;
use tokio::time::{sleep, sleep_until, timeout, Instant};

use crate::descendants;
use crate::reaping::{group_members, off_runtime, stopped};
use crate::stdio::{drain_stderr, pending, Event, Stderr, Stdout};

pub use crate::stdio::Log;

/// How to start a bot.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BotCommand {
    /// The program and its arguments, or with `shell` a single shell command line.
    pub argv: Vec<String>,
    /// Run `argv[0]` through `sh -c`.
    pub shell: bool,
    /// Its own folder (its working directory, and all of the machine it may read beside the
    /// system's folders); the referee's folder when not given.
    pub dir: Option<PathBuf>,
    /// Variables set in its environment, beyond the box's own (`PATH`, `HOME`, `TMPDIR`,
    /// `LANG`).
    pub env: Vec<(String, String)>,
    /// The walls around it, as asked for (what the machine can enforce is decided at start).
    pub sandbox: SandboxSpec,
    /// Whether it may think on its opponent's time; if not, its whole box is stopped then.
    /// Trusted bots may (the default); a competition's entrants may not unless the host says.
    pub ponder: bool,
}

impl BotCommand {
    /// `argv` run directly in the referee's folder, inside the default sandbox.
    pub fn new(argv: Vec<String>) -> BotCommand {
        BotCommand {
            argv,
            shell: false,
            dir: None,
            env: Vec::new(),
            sandbox: SandboxSpec::default(),
            ponder: true,
        }
    }

    /// The command as a user would type it.
    pub fn display(&self) -> String {
        self.argv.join(" ")
    }

    /// Its folder, as the box names it: `dir` (relative to the referee's folder) or the
    /// referee's folder.
    pub fn folder(&self) -> std::io::Result<PathBuf> {
        let here = std::env::current_dir()?;
        let dir = match &self.dir {
            Some(d) => here.join(d),
            None => here,
        };
        dir.canonicalize()
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

/// How a bot's process ended, as far as the referee can tell when it sees the end.
#[derive(Clone, Debug)]
pub struct Exit {
    /// The bot's own exit status.
    pub status: ExitStatus,
    /// Processes of its box the kernel killed at the box's memory limit.
    pub oom_kills: u64,
    /// Forks the kernel refused at the box's process limit.
    pub forks_refused: u64,
    /// The last lines of its stderr.
    pub last_words: String,
    /// The folder it could read (beside the system's), when it ran in a box.
    pub folder: Option<PathBuf>,
}

impl Exit {
    fn plain(status: ExitStatus) -> Exit {
        Exit {
            status,
            oom_kills: 0,
            forks_refused: 0,
            last_words: String::new(),
            folder: None,
        }
    }
}

/// What came back while waiting for a reply.
#[derive(Debug)]
pub enum Reply {
    /// A complete line (without its line ending).
    Line(String),
    /// A line longer than [`quads_protocol::MAX_LINE`]; its start.
    TooLong(String),
    /// Nothing complete by the deadline.
    Timeout,
    /// Stdout was closed while the process kept running.
    Closed,
    /// The process exited.
    Exited(Exit),
}

/// How a bot process ended, for the record.
#[derive(Debug, Default, Clone, Copy)]
pub struct Shutdown {
    /// Processes of the bot still alive after the bot itself had exited (children that
    /// outlived it and had to be killed).
    pub leaked: u32,
    /// Whether SIGTERM had to be sent.
    pub terminated: bool,
    /// Whether SIGKILL had to be sent.
    pub killed: bool,
}

/// How the bot is held: in a box, or as a plain process group with a token.
pub(crate) enum Held {
    /// In its box.
    Boxed(BoxHandle),
    /// With the sandbox off.
    Plain {
        /// Its token.
        token: String,
    },
}

/// A running bot.
pub struct BotProcess {
    pub(crate) child: Child,
    pub(crate) pgid: Pid,
    pub(crate) stdin: Option<ChildStdin>,
    stdout: Stdout,
    stdout_closed: bool,
    pub(crate) status: Option<ExitStatus>,
    pub(crate) err: Arc<Mutex<Stderr>>,
    /// Set once stderr has ended (and the launcher's report, if any, is read).
    stderr_ended: watch::Receiver<bool>,
    stderr_reader: Option<tokio::task::JoinHandle<()>>,
    /// Set once [`BotProcess::shutdown`] has ended it.
    finished: bool,
    pub(crate) held: Held,
    /// The folder it could read, when boxed.
    folder: Option<PathBuf>,
    /// A second handle on the read end of its stderr pipe, to see whether bytes wait in it.
    stderr_probe: Option<std::os::fd::OwnedFd>,
    /// Set by [`BotProcess::pause`], cleared by [`BotProcess::resume`]: a bot that was never
    /// paused is not signalled (or its freezer written) before every move.
    paused: AtomicBool,
}

/// A bot dropped without [`BotProcess::shutdown`] (a game abandoned on Ctrl-C, a task
/// aborted) is killed with everything it started at once.
impl Drop for BotProcess {
    fn drop(&mut self) {
        if self.finished {
            return;
        }
        match &self.held {
            // Its keeper ends the box, removes its cgroups and exits:
            // [`wait_for_dropped_boxes`] waits for that.
            Held::Boxed(_) => self.held.end_dropped_box(self.pgid),
            Held::Plain { token } => {
                let token = token.clone();
                self.kill_plain(&token);
            }
        }
    }
}

impl BotProcess {
    /// Starts the bot (in its box unless the sandbox is off), in a new process group, with
    /// piped stdin, stdout and stderr. What the box needs (the machine's walls, the program
    /// and its interpreter found) is worked out on a blocking thread: it reads the file system
    /// and may ask pyenv or rustup, and the runtime's threads time other games' moves.
    pub async fn spawn(cmd: &BotCommand, log_cap: usize) -> Result<BotProcess, SpawnError> {
        let error = |source| SpawnError {
            command: cmd.display(),
            source,
        };
        if cmd.argv.is_empty() || cmd.argv[0].is_empty() {
            return Err(error(std::io::Error::other("empty command")));
        }
        let owned = cmd.clone();
        let prepared = tokio::task::spawn_blocking(move || {
            let (walls, _) =
                quads_sandbox::enforce(&owned.sandbox).map_err(std::io::Error::other)?;
            if walls.is_on() {
                owned.boxed(&walls)
            } else {
                owned.plain()
            }
        })
        .await
        .map_err(|e| error(std::io::Error::other(e.to_string())))?;
        let (command, held, folder) = prepared.map_err(error)?;
        let mut command = Command::from(command);
        command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0)
            // A box's keeper is not killed with its handle: it must outlive the box to remove
            // its cgroups (dropping a boxed bot ends its box, and the keeper then exits).
            .kill_on_drop(matches!(held, Held::Plain { .. }));
        let mut child = command.spawn().map_err(error)?;
        let pid = child.id().expect("a child that was just started has an id");
        let mut held = held;
        match &mut held {
            Held::Boxed(h) => h.started(pid),
            Held::Plain { .. } => descendants::started(pid as i32),
        }
        let nonce = match &held {
            Held::Boxed(h) => Some(h.nonce().to_owned()),
            Held::Plain { .. } => None,
        };
        let err = Arc::new(Mutex::new(Stderr::new(log_cap)));
        let (ended_tx, stderr_ended) = watch::channel(false);
        let stdout = child.stdout.take().expect("stdout is piped");
        let stderr = child.stderr.take().expect("stderr is piped");
        let stderr_probe = {
            use std::os::fd::AsFd;
            stderr.as_fd().try_clone_to_owned().ok()
        };
        let stderr_reader = Some(tokio::spawn(drain_stderr(
            stderr,
            Arc::clone(&err),
            nonce,
            ended_tx,
        )));
        let stdout = Stdout::new(stdout, Arc::clone(&err));
        Ok(BotProcess {
            stdin: child.stdin.take(),
            child,
            pgid: Pid::from_raw(pid as i32),
            stdout,
            stdout_closed: false,
            status: None,
            err,
            stderr_ended,
            stderr_reader,
            finished: false,
            held,
            folder,
            stderr_probe,
            paused: AtomicBool::new(false),
        })
    }

    /// Stops the bot and everything it started: no pondering on the opponent's time. In a box
    /// with a freezer that is every process of the box, whatever group or session it moved
    /// to; else the bot's process group (SIGSTOP). Returns once all are seen stopped (or
    /// after 100 ms).
    pub async fn pause(&self) {
        self.paused.store(true, Ordering::Relaxed);
        let until = Instant::now() + Duration::from_millis(100);
        let group = match &self.held {
            Held::Boxed(h) => {
                if h.freeze() {
                    while Instant::now() < until && h.frozen() != Some(true) {
                        sleep(Duration::from_millis(1)).await;
                    }
                    return;
                }
                match h.group() {
                    Some(g) => g,
                    None => return,
                }
            }
            Held::Plain { .. } => {
                let _ = killpg(self.pgid, Signal::SIGSTOP);
                self.pgid
            }
        };
        // A stopped process cannot fork: the members found now are all there will be.
        let members = off_runtime(move || group_members(group)).await;
        while Instant::now() < until {
            if members.iter().all(|&pid| stopped(pid)) {
                return;
            }
            sleep(Duration::from_millis(1)).await;
        }
    }

    /// Continues a paused bot; does nothing (no system call) to one that was not paused.
    pub fn resume(&self) {
        if !self.paused.swap(false, Ordering::Relaxed) {
            return;
        }
        match &self.held {
            Held::Boxed(h) => h.thaw(),
            Held::Plain { .. } => {
                let _ = killpg(self.pgid, Signal::SIGCONT);
            }
        }
    }

    /// The process group id (the pid of the bot, or of its box's launcher).
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
        // Nearly always the pipe has room and one write takes the whole line: no timer then.
        let first = std::future::poll_fn(|cx| {
            std::task::Poll::Ready(std::pin::Pin::new(&mut *stdin).poll_write(cx, &bytes))
        })
        .await;
        let rest = match first {
            std::task::Poll::Ready(Ok(n)) => &bytes[n..],
            std::task::Poll::Ready(Err(_)) => {
                self.stdin = None;
                return Err(self.gone().await);
            }
            std::task::Poll::Pending => &bytes[..],
        };
        if rest.is_empty() {
            return Ok(());
        }
        // A bot that stops reading fills the pipe; do not wait on it forever.
        let written = timeout(Duration::from_secs(5), async {
            stdin.write_all(rest).await?;
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

    /// After a failed write or the end of stdout: the exit if the process exits within a
    /// second, else "closed". A crashing process closes its output a moment before its exit
    /// can be seen; on a busy machine (the soak run, 16 games on 2 cores) that moment passed
    /// 200 ms, and a crash was recorded as a closed output.
    async fn gone(&mut self) -> Reply {
        match self.wait_exit(Duration::from_secs(1)).await {
            Some(status) => Reply::Exited(self.exit(status).await),
            None => Reply::Closed,
        }
    }

    pub(crate) async fn wait_exit(&mut self, grace: Duration) -> Option<ExitStatus> {
        if let Some(status) = self.status {
            return Some(status);
        }
        if let Ok(Ok(status)) = timeout(grace, self.child.wait()).await {
            self.status = Some(status);
        }
        self.status
    }

    /// Waits (a little) for stderr to end: once the process is gone, its last bytes and the
    /// launcher's report follow at once.
    pub(crate) async fn stderr_end(&mut self, limit: Duration) {
        let mut ended = self.stderr_ended.clone();
        let _ = timeout(limit, ended.wait_for(|&e| e)).await;
    }

    /// The exit as the record tells it: the status, and for a boxed bot what its box said.
    async fn exit(&mut self, status: ExitStatus) -> Exit {
        let Held::Boxed(_) = self.held else {
            let mut e = Exit::plain(status);
            e.last_words = self.err.lock().expect("log lock").last_words(3);
            return e;
        };
        self.stderr_end(Duration::from_secs(1)).await;
        let err = self.err.lock().expect("log lock");
        let report = err.report.unwrap_or_default();
        Exit {
            // The launcher exits as the bot did; its report says exactly how.
            status: err
                .report
                .map_or(status, |r| ExitStatus::from_raw(r.status)),
            oom_kills: report.oom_kills,
            forks_refused: report.forks_refused,
            last_words: err.last_words(3),
            folder: self.folder.clone(),
        }
    }

    /// Waits for the next line until `deadline`, the end of stdout, or the process's exit.
    pub async fn recv(&mut self, deadline: Instant) -> Reply {
        if self.stdout_closed {
            return self.gone().await;
        }
        let exited = self.status.is_some();
        tokio::select! {
            biased;
            event = self.stdout.next() => match event {
                Event::Line(line) => Reply::Line(line),
                Event::TooLong(start) => Reply::TooLong(start),
                Event::Closed => {
                    self.stdout_closed = true;
                    self.gone().await
                }
            },
            status = self.child.wait(), if !exited => {
                if let Ok(status) = status {
                    self.status = Some(status);
                }
                // A last line written just before the exit may still be on its way.
                match timeout(Duration::from_millis(50), self.stdout.next()).await {
                    Ok(Event::Line(line)) => Reply::Line(line),
                    _ => {
                        let status = self.status.expect("just set");
                        Reply::Exited(self.exit(status).await)
                    }
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
        self.err.lock().expect("log lock").log.take()
    }

    /// Ends the bot: `quit`, a grace period, SIGTERM, a grace period, SIGKILL; then for a
    /// boxed bot its box's report says what it left behind (all of it gone with the box),
    /// for a plain one [`crate::plain`] finds and ends its descendants. Returns once all of
    /// them are gone and reaped.
    pub async fn shutdown(mut self, grace: Duration) -> (Shutdown, Log) {
        let ended = match &self.held {
            Held::Boxed(_) => self.shutdown_boxed(grace).await,
            Held::Plain { token } => {
                let token = token.clone();
                self.shutdown_plain(&token, grace).await
            }
        };
        self.finished = true;
        // Every writer of the pipes is dead, so both streams end; bound it all the same. What
        // stdout still held is read for its `info` lines, which go to the log.
        let stdout = &mut self.stdout;
        let _ = timeout(Duration::from_millis(500), async {
            while !matches!(stdout.next().await, Event::Closed) {}
        })
        .await;
        if let Some(reader) = self.stderr_reader.take() {
            let _ = timeout(Duration::from_millis(500), reader).await;
        }
        (ended, self.take_log())
    }

    /// Waits up to `grace` for the exit (for [`crate::plain`]).
    pub(crate) async fn exit_within(&mut self, grace: Duration) -> Option<ExitStatus> {
        self.wait_exit(grace).await
    }
}

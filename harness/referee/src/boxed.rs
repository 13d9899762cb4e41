//! A boxed bot's own steps: its launcher's command line, its end (`quit`, SIGTERM to its box,
//! SIGKILL to the box's init), and the keepers of boxes dropped without an end, waited for
//! before the program exits.

use std::path::PathBuf;
use std::sync::Mutex;
use std::time::Duration;

use nix::sys::signal::{killpg, Signal};
use nix::unistd::Pid;
use quads_sandbox::{BoxHandle, Sandbox};

use crate::process::{BotCommand, BotProcess, Held, Shutdown};

impl BotCommand {
    /// The launcher's command for this bot, in its box.
    pub(crate) fn boxed(
        &self,
        walls: &Sandbox,
    ) -> std::io::Result<(std::process::Command, Held, Option<PathBuf>)> {
        let cmd = self;
        let folder = cmd.folder()?;
        let request = quads_sandbox::Request {
            argv: &cmd.argv,
            shell: cmd.shell,
            folder: &folder,
            env: &cmd.env,
            walls,
            work_from: None,
        };
        let prepared = quads_sandbox::prepare(&request).map_err(|e| match e {
            quads_sandbox::SandboxError::Program { source, .. } => source,
            other => std::io::Error::other(other.to_string()),
        })?;
        Ok((
            prepared.command,
            Held::Boxed(prepared.handle),
            Some(prepared.folder),
        ))
    }
}

impl BotProcess {
    pub(crate) async fn shutdown_boxed(&mut self, grace: Duration) -> Shutdown {
        let mut ended = Shutdown::default();
        self.resume();
        if self.stdin.is_some() && self.status.is_none() {
            let _ = self.send("quit").await;
        }
        self.stdin = None; // closing stdin is a second hint
        let boxed = |p: &BotProcess, f: fn(&BoxHandle)| {
            if let Held::Boxed(h) = &p.held {
                f(h);
            }
        };
        if self.wait_exit(grace).await.is_none() {
            ended.terminated = true;
            boxed(self, BoxHandle::terminate);
            if self.wait_exit(grace).await.is_none() {
                ended.killed = true;
                boxed(self, BoxHandle::kill);
                if self.wait_exit(Duration::from_secs(2)).await.is_none() {
                    let _ = killpg(self.pgid, Signal::SIGKILL);
                    self.wait_exit(Duration::from_secs(2)).await;
                }
            }
        }
        self.stderr_end(Duration::from_secs(2)).await;
        ended.leaked = self
            .err
            .lock()
            .expect("log lock")
            .report
            .map_or(0, |r| r.leaked);
        ended
    }
}

/// The keepers of boxed bots dropped without a shutdown, still ending their boxes.
static DROPPED: Mutex<Vec<Pid>> = Mutex::new(Vec::new());

impl Held {
    /// A boxed bot was dropped without its end: its box ends now, and its keeper `pgid` will
    /// exit once it has removed the box's cgroups ([`wait_for_dropped_boxes`] waits for it).
    pub(crate) fn end_dropped_box(&self, pgid: Pid) {
        if let Held::Boxed(handle) = self {
            handle.kill();
            DROPPED.lock().unwrap_or_else(|e| e.into_inner()).push(pgid);
        }
    }
}

/// Waits, up to `limit`, until the keepers of the boxed bots dropped without a shutdown (a run
/// interrupted) have ended their boxes and exited. Call it before the program exits.
pub fn wait_for_dropped_boxes(limit: Duration) {
    use nix::sys::wait::{waitpid, WaitPidFlag, WaitStatus};
    let end = std::time::Instant::now() + limit;
    let mut keepers = std::mem::take(&mut *DROPPED.lock().unwrap_or_else(|e| e.into_inner()));
    while !keepers.is_empty() && std::time::Instant::now() < end {
        // A keeper already reaped (by the runtime) is not a child any more: done too.
        keepers.retain(|&k| {
            matches!(
                waitpid(k, Some(WaitPidFlag::WNOHANG)),
                Ok(WaitStatus::StillAlive)
            )
        });
        if !keepers.is_empty() {
            std::thread::sleep(Duration::from_millis(2));
        }
    }
}

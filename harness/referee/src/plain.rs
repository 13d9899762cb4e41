//! Ending a bot that ran with the sandbox off: it has no box, so what it started is found
//! through the process tree, its process group and the token in its environment
//! ([`crate::descendants`]), and signalled and reaped one by one.

use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use nix::sys::signal::{killpg, Signal};
use nix::unistd::Pid;
use tokio::process::Child;
use tokio::time::{sleep, Instant};

use crate::descendants::TOKEN_VAR;
use crate::descendants::{self, Proc};
use crate::process::{BotCommand, BotProcess, Held, Shutdown};
use crate::reaping::{off_runtime, reap, reap_orphans, signal_all, stragglers};

impl BotProcess {
    /// Dropped without a shutdown: its group and descendants killed at once.
    pub(crate) fn kill_plain(&mut self, token: &str) {
        kill_now(self.pgid, token, &mut self.child);
    }

    /// Its end, with the sandbox off: see [`shutdown`].
    pub(crate) async fn shutdown_plain(&mut self, token: &str, grace: Duration) -> Shutdown {
        shutdown(self, token, grace).await
    }
}

/// A bot dropped without a shutdown: its group and descendants killed at once.
fn kill_now(pgid: Pid, token: &str, child: &mut Child) {
    let before = descendants::of(&descendants::fresh(), pgid, token);
    let _ = killpg(pgid, Signal::SIGKILL);
    let _ = child.try_wait();
    let stragglers = stragglers(pgid, token, &before);
    signal_all(&stragglers, Signal::SIGKILL);
    reap(&stragglers);
    reap_orphans(pgid);
    descendants::finished(pgid.as_raw());
}

/// `quit`, a grace period, SIGTERM to the group, a grace period, SIGKILL to the group; then
/// the same to every descendant still alive, wherever it moved (another group, another
/// session, an orphan). Returns once all of them are gone and reaped.
async fn shutdown(p: &mut BotProcess, token: &str, grace: Duration) -> Shutdown {
    let mut ended = Shutdown::default();
    let pgid = p.pgid;
    // Seen while the bot still runs, the tree links its children to it.
    let before = look(pgid, token, |pgid, token| {
        descendants::of(&descendants::fresh(), pgid, &token)
    })
    .await;
    if p.stdin.is_some() && p.status.is_none() {
        let _ = p.send("quit").await;
    }
    p.stdin = None; // closing stdin is a second hint
    p.exit_within(grace).await;
    let mut left = alive(pgid, token, &before).await;
    ended.leaked = if p.status.is_some() {
        left.len()
    } else {
        // A bot that must be signalled takes its group with it; what left the group would
        // outlive it.
        left.iter().filter(|q| q.pgrp != pgid.as_raw()).count()
    } as u32;
    if !p.has_exited() || !left.is_empty() {
        ended.terminated = true;
        let _ = killpg(pgid, Signal::SIGTERM);
        left = wait_all(p, token, &before, Signal::SIGTERM, grace).await;
    }
    if !p.has_exited() || !left.is_empty() {
        ended.killed = true;
        let _ = killpg(pgid, Signal::SIGKILL);
        wait_all(p, token, &before, Signal::SIGKILL, Duration::from_secs(2)).await;
    }
    p.exit_within(Duration::from_secs(1)).await;
    off_runtime(move || reap_orphans(pgid)).await;
    descendants::finished(pgid.as_raw());
    ended
}

async fn look(
    pgid: Pid,
    token: &str,
    f: impl FnOnce(Pid, String) -> Vec<Proc> + Send + 'static,
) -> Vec<Proc> {
    let token = token.to_owned();
    off_runtime(move || f(pgid, token)).await
}

/// Descendants alive now (see [`stragglers`]).
async fn alive(pgid: Pid, token: &str, before: &[Proc]) -> Vec<Proc> {
    let before = before.to_vec();
    look(pgid, token, move |pgid, token| {
        stragglers(pgid, &token, &before)
    })
    .await
}

/// Sends `signal` to the bot's descendants, again to any that appear, and waits up to
/// `limit` for them and the bot to be gone, reaping as it goes. Returns the descendants
/// still alive.
async fn wait_all(
    p: &mut BotProcess,
    token: &str,
    before: &[Proc],
    signal: Signal,
    limit: Duration,
) -> Vec<Proc> {
    let end = Instant::now() + limit;
    let mut signalled: Vec<Proc> = Vec::new();
    let mut left = alive(p.pgid, token, before).await;
    // Each look scans /proc: often at first, when most processes are gone, then less.
    let mut pause = Duration::from_millis(2);
    loop {
        for q in &left {
            if !signalled
                .iter()
                .any(|s| s.pid == q.pid && s.start == q.start)
            {
                signal_all(std::slice::from_ref(q), signal);
                signalled.push(*q);
            }
        }
        p.exit_within(pause).await;
        left = alive(p.pgid, token, before).await;
        if (p.has_exited() && left.is_empty()) || Instant::now() >= end {
            return left;
        }
        sleep(pause).await;
        pause = (pause * 2).min(Duration::from_millis(50));
    }
}

/// A bot with the sandbox off: its own command, in its folder, with a token of its own in its
/// environment that its descendants inherit ([`TOKEN_VAR`]).
impl BotCommand {
    /// This bot's own command, with the sandbox off.
    pub(crate) fn plain(&self) -> std::io::Result<(std::process::Command, Held, Option<PathBuf>)> {
        let cmd = self;
        descendants::become_subreaper();
        let argv = if cmd.shell {
            vec!["sh".to_owned(), "-c".to_owned(), cmd.argv.join(" ")]
        } else {
            cmd.argv.clone()
        };
        let mut c = std::process::Command::new(&argv[0]);
        c.args(&argv[1..]);
        if let Some(dir) = &cmd.dir {
            c.current_dir(dir);
        }
        c.envs(cmd.env.iter().map(|(k, v)| (k, v)));
        static STARTED: AtomicU64 = AtomicU64::new(0);
        let token = format!(
            "{}-{}",
            std::process::id(),
            STARTED.fetch_add(1, Ordering::Relaxed)
        );
        c.env(TOKEN_VAR, &token);
        Ok((c, Held::Plain { token }, None))
    }
}

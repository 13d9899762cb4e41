//! What a bot leaves behind, found, signalled and reaped: the synchronous work on /proc that
//! [`crate::process`] runs off the async runtime's threads.

use nix::sys::signal::{kill, killpg, Signal};
use nix::sys::wait::{waitpid, WaitPidFlag};
use nix::unistd::Pid;

use crate::descendants::{self, Proc};

/// Descendants of the bot (group `pgid`, `token`) alive now: those found now, and those of
/// `before` that still run. The zombies among them that are this process's are reaped.
pub(crate) fn stragglers(pgid: Pid, token: &str, before: &[Proc]) -> Vec<Proc> {
    let found = descendants::of(&descendants::fresh(), pgid, token);
    reap(&found);
    let mut alive: Vec<Proc> = found.into_iter().filter(|p| !p.zombie).collect();
    for p in descendants::still_alive(before) {
        if !alive.iter().any(|a| a.pid == p.pid) {
            alive.push(p);
        }
    }
    alive
}

/// Sends `signal` to each process of `procs`, and to the process group each leads.
pub(crate) fn signal_all(procs: &[Proc], signal: Signal) {
    for p in procs {
        let _ = kill(Pid::from_raw(p.pid), signal);
        if p.pgrp == p.pid {
            let _ = killpg(Pid::from_raw(p.pgrp), signal);
        }
    }
}

/// Reaps those of `procs` that are zombies of this process.
pub(crate) fn reap(procs: &[Proc]) {
    let me = std::process::id() as i32;
    for p in procs {
        if descendants::read(p.pid)
            .is_some_and(|now| now.zombie && now.ppid == me && now.start == p.start)
        {
            let _ = waitpid(Pid::from_raw(p.pid), Some(WaitPidFlag::WNOHANG));
        }
    }
}

/// Whether any process of group `pgid` exists, zombies included.
pub fn group_exists(pgid: i32) -> bool {
    descendants::fresh().iter().any(|p| p.pgrp == pgid)
}

/// Live (not zombie) processes in process group `pgid`.
pub fn group_members(pgid: Pid) -> Vec<i32> {
    descendants::fresh()
        .iter()
        .filter(|p| p.pgrp == pgid.as_raw() && !p.zombie)
        .map(|p| p.pid)
        .collect()
}

/// Whether process `pid` is stopped (state `T` in /proc), or gone.
pub(crate) fn stopped(pid: i32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).map_or(true, |stat| {
        stat.rsplit(')')
            .next()
            .is_some_and(|rest| rest.trim_start().starts_with('T'))
    })
}

/// Reaps the zombies of group `pgid` that were reparented to this process.
pub(crate) fn reap_orphans(pgid: Pid) {
    let group: Vec<Proc> = descendants::fresh()
        .iter()
        .copied()
        .filter(|p| p.pgrp == pgid.as_raw() && p.pid != pgid.as_raw())
        .collect();
    reap(&group);
}

/// Runs a look at the machine's processes on a blocking thread: a scan of /proc reads a file
/// per process on the machine, and the runtime's threads must stay free to time the moves of
/// the bots of every other game.
pub(crate) async fn off_runtime<T: Default + Send + 'static>(
    job: impl FnOnce() -> T + Send + 'static,
) -> T {
    // It fails only when the runtime shuts down before the job starts: then nothing is found.
    tokio::task::spawn_blocking(job).await.unwrap_or_default()
}

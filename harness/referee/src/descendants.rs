//! Finding everything a bot started, wherever it went: the Linux-only process code.
//!
//! A bot runs in a process group of its own, and signalling the group ends what stays in it.
//! But a child may leave the group: `setsid` (a new session), `setpgid`, or a double fork that
//! leaves a grandchild with no parent. Three facts find such processes:
//! - the process tree: every process whose parent chain leads to the bot;
//! - the referee is a child subreaper, so an orphaned descendant is reparented to the referee,
//!   never to init, and stays within reach;
//! - every bot is started with a token of its own in its environment
//!   ([`TOKEN_VAR`]), which its descendants inherit: an orphan reparented to the referee is
//!   told apart from another bot's by that token.
//!
//! Elsewhere than Linux these scans find nothing and only the process group is signalled.

use nix::unistd::Pid;

/// Makes this process the reaper of its descendants' orphans (once): a bot's grandchildren
/// are then reparented to the referee, which can find and reap them, rather than to an init
/// that may not.
#[cfg(target_os = "linux")]
pub fn become_subreaper() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let _ = nix::sys::prctl::set_child_subreaper(true);
    });
}

/// Elsewhere orphans go to init as usual.
#[cfg(not(target_os = "linux"))]
pub fn become_subreaper() {}

/// The environment variable that carries a bot's token to everything it starts.
pub const TOKEN_VAR: &str = "QUADS_ARENA_BOT";

/// One process, as `/proc/PID/stat` shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Proc {
    /// Its pid.
    pub pid: i32,
    /// Its parent's pid.
    pub ppid: i32,
    /// Its process group.
    pub pgrp: i32,
    /// Whether it has exited and waits to be reaped.
    pub zombie: bool,
    /// Its start time in clock ticks since boot: with the pid, it names one process even
    /// after the pid is reused.
    pub start: u64,
}

/// Every process of the system (the ones readable now).
#[cfg(target_os = "linux")]
pub fn all() -> Vec<Proc> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter_map(|e| e.file_name().to_str()?.parse::<i32>().ok())
        .filter_map(read)
        .collect()
}

/// Every process of the system: nothing to scan elsewhere.
#[cfg(not(target_os = "linux"))]
pub fn all() -> Vec<Proc> {
    Vec::new()
}

/// One process's `/proc/PID/stat`, if it still exists.
#[cfg(target_os = "linux")]
pub fn read(pid: i32) -> Option<Proc> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // "pid (comm) state ppid pgrp ...": comm may hold spaces and parentheses.
    let rest = &stat[stat.rfind(')')? + 1..];
    let fields: Vec<&str> = rest.split_ascii_whitespace().collect();
    // After comm: state is field 3 of stat(5), so starttime (field 22) is at index 19.
    Some(Proc {
        pid,
        ppid: fields.get(1)?.parse().ok()?,
        pgrp: fields.get(2)?.parse().ok()?,
        zombie: matches!(*fields.first()?, "Z" | "X"),
        start: fields.get(19)?.parse().ok()?,
    })
}

/// One process: nothing to read elsewhere.
#[cfg(not(target_os = "linux"))]
pub fn read(_pid: i32) -> Option<Proc> {
    None
}

/// Whether process `pid` has `token` as its [`TOKEN_VAR`].
#[cfg(target_os = "linux")]
fn carries(pid: i32, token: &str) -> bool {
    let Ok(environ) = std::fs::read(format!("/proc/{pid}/environ")) else {
        return false;
    };
    let wanted = format!("{TOKEN_VAR}={token}");
    environ.split(|&b| b == 0).any(|v| v == wanted.as_bytes())
}

#[cfg(not(target_os = "linux"))]
fn carries(_pid: i32, _token: &str) -> bool {
    false
}

/// The bot `root`'s descendants in `procs`, zombies included, the bot itself not: the members
/// of its process group, the processes whose parent chain leads to it, the referee's
/// reparented orphans that carry its `token`, and everything those started.
pub fn of(procs: &[Proc], root: Pid, token: &str) -> Vec<Proc> {
    let me = std::process::id() as i32;
    let root = root.as_raw();
    let mut found: Vec<Proc> = procs
        .iter()
        .filter(|p| {
            p.pid != root
                && (p.pgrp == root || p.ppid == root || (p.ppid == me && carries(p.pid, token)))
        })
        .copied()
        .collect();
    // Close over the parent links: children of anything found are found.
    let mut i = 0;
    while i < found.len() {
        let parent = found[i].pid;
        for p in procs {
            if p.ppid == parent && p.pid != root && !found.iter().any(|f| f.pid == p.pid) {
                found.push(*p);
            }
        }
        i += 1;
    }
    found
}

/// Those of `known` that are still the same processes and alive (not zombies).
pub fn still_alive(known: &[Proc]) -> Vec<Proc> {
    known
        .iter()
        .filter_map(|k| read(k.pid).filter(|p| p.start == k.start && !p.zombie))
        .collect()
}

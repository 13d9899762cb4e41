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

use crate::shared::Shared;

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

/// The pids of the bots this process started and has not finished with: its own children,
/// never orphans, so that a scan need not read their environment to tell them apart. At
/// 1,000 games at once the referee has 2,000 such children, and reading each one's environ
/// for every bot that stops made stopping them all quadratic (408 s of CPU, docs/scale.md).
static BOTS: std::sync::Mutex<Vec<i32>> = std::sync::Mutex::new(Vec::new());

/// Notes that `pid` is a bot this process started.
pub fn started(pid: i32) {
    let mut bots = BOTS.lock().unwrap_or_else(|e| e.into_inner());
    if let Err(at) = bots.binary_search(&pid) {
        bots.insert(at, pid);
    }
}

/// Notes that bot `pid` is gone (its pid may be reused by anything).
pub fn finished(pid: i32) {
    let mut bots = BOTS.lock().unwrap_or_else(|e| e.into_inner());
    if let Ok(at) = bots.binary_search(&pid) {
        bots.remove(at);
    }
}

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

/// Every process of the system, from a scan that began after this call: the scan may be one
/// that another caller started, so that callers who ask at once share one.
///
/// A scan reads a file per process on the machine, and each bot ending takes several: with
/// many games at once and bots that keep dozens of processes (up to the sandbox's limit), one
/// scan per caller cost the referee more CPU than its bots used. Callers block while a scan
/// runs: call it off the async runtime's threads.
pub fn fresh() -> std::sync::Arc<Vec<Proc>> {
    static SCANS: Shared<Vec<Proc>> = Shared::new();
    SCANS.fresh(all)
}

/// One process's `/proc/PID/stat`, if it still exists.
#[cfg(target_os = "linux")]
pub fn read(pid: i32) -> Option<Proc> {
    use std::io::Read;
    // A scan reads one of these per process on the machine, many times a game: into a buffer
    // on the stack, not a new string each time. The line is a few hundred bytes; comm, the
    // only field of any length, is at most 64.
    let mut buf = [0u8; 1024];
    let mut file = std::fs::File::open(format!("/proc/{pid}/stat")).ok()?;
    let mut len = 0;
    while len < buf.len() {
        match file.read(&mut buf[len..]) {
            Ok(0) => break,
            Ok(n) => len += n,
            Err(_) => return None,
        }
    }
    parse_stat(pid, &buf[..len])
}

/// The fields of a `/proc/PID/stat` line that matter here.
fn parse_stat(pid: i32, stat: &[u8]) -> Option<Proc> {
    // "pid (comm) state ppid pgrp ...": comm may hold spaces and parentheses.
    let after = stat.iter().rposition(|&b| b == b')')? + 1;
    let rest = std::str::from_utf8(&stat[after..]).ok()?;
    let mut fields = rest.split_ascii_whitespace();
    // After comm: state is field 3 of stat(5), ppid 4, pgrp 5, and starttime 22.
    let state = fields.next()?;
    let ppid = fields.next()?.parse().ok()?;
    let pgrp = fields.next()?.parse().ok()?;
    let start = fields.nth(16)?.parse().ok()?;
    Some(Proc {
        pid,
        ppid,
        pgrp,
        zombie: matches!(state, "Z" | "X"),
        start,
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
/// reparented orphans that carry its `token` (the referee's own bots are not orphans, and
/// their environment is not read), and everything those started.
pub fn of(procs: &[Proc], root: Pid, token: &str) -> Vec<Proc> {
    let me = std::process::id() as i32;
    let root = root.as_raw();
    let bots = BOTS.lock().unwrap_or_else(|e| e.into_inner()).clone();
    let orphan = |p: &Proc| p.ppid == me && bots.binary_search(&p.pid).is_err();
    let mut found: Vec<Proc> = procs
        .iter()
        .filter(|p| {
            p.pid != root
                && (p.pgrp == root || p.ppid == root || (orphan(p) && carries(p.pid, token)))
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stat_line_reads_whatever_its_command_name_holds() {
        let line =
            b"4242 (a (b) c) S 17 4242 4242 0 -1 4194560 113 0 0 0 1 2 0 0 20 0 1 0 987654 1 2\n";
        assert_eq!(
            parse_stat(4242, line),
            Some(Proc {
                pid: 4242,
                ppid: 17,
                pgrp: 4242,
                zombie: false,
                start: 987654,
            })
        );
        let zombie = b"7 (x) Z 1 7 7 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 55 0 0";
        assert_eq!(
            parse_stat(7, zombie).map(|p| (p.zombie, p.start)),
            Some((true, 55))
        );
        assert_eq!(parse_stat(7, b"7 (x) Z 1"), None);
        assert_eq!(parse_stat(7, b"garbage"), None);
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn this_process_is_found_with_its_parent() {
        let me = std::process::id() as i32;
        let found = read(me).expect("this process has a stat file");
        assert_eq!(found.ppid, nix::unistd::getppid().as_raw());
        assert_eq!(found.pgrp, nix::unistd::getpgrp().as_raw());
        assert!(!found.zombie);
        assert!(all().contains(&found));
    }
}

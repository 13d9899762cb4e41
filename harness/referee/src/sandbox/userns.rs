//! User and network namespaces for a bot, so that its process limit binds and it has no
//! network.
//!
//! `RLIMIT_NPROC` does not bind for the kernel's root user, so a referee running as root gives
//! each bot a user id of its own outside: the launcher starts a second stage of itself, which
//! enters new namespaces and stops; the launcher (still root outside) maps uid 0 to root and
//! uid 1 to the bot's own id, continues it, and waits for it, passing its exit status on. The
//! second stage becomes uid 1 and keeps one capability, `CAP_DAC_READ_SEARCH`, so that it can
//! still read root-owned folders such as `/root/.pyenv` (Landlock decides what it may read).
//! A referee that is not root needs none of this: its own id binds the limit, and the
//! namespaces it may make map its own id only.

use std::os::unix::process::ExitStatusExt;
use std::process::Command;

use caps::{CapSet, Capability};
use nix::sched::{unshare, CloneFlags};
use nix::sys::signal::{kill, raise, Signal};
use nix::sys::wait::{waitpid, WaitPidFlag, WaitStatus};
use nix::unistd::{getgid, getuid, setgroups, setresgid, setresuid, Gid, Pid, Uid};

/// The first id outside given to bots when the referee is root.
pub const FIRST_BOT_ID: u32 = 200_000;
/// How many ids bots are given in turn.
pub const BOT_IDS: u32 = 800_000;

fn flags(no_network: bool) -> CloneFlags {
    if no_network {
        CloneFlags::CLONE_NEWUSER | CloneFlags::CLONE_NEWNET
    } else {
        CloneFlags::CLONE_NEWUSER
    }
}

/// Not root: new namespaces in this very process, mapping the caller's own ids.
pub fn enter_as_user(no_network: bool) -> Result<(), String> {
    let (uid, gid) = (getuid(), getgid());
    unshare(flags(no_network)).map_err(|e| format!("cannot make a namespace of its own: {e}"))?;
    write_maps(
        "self",
        &format!("{uid} {uid} 1"),
        &format!("{gid} {gid} 1"),
        true,
    )
}

fn write_maps(pid: &str, uid_map: &str, gid_map: &str, deny_groups: bool) -> Result<(), String> {
    let write = |file: &str, text: &str| {
        std::fs::write(format!("/proc/{pid}/{file}"), text)
            .map_err(|e| format!("cannot write /proc/{pid}/{file}: {e}"))
    };
    if deny_groups {
        write("setgroups", "deny")?;
    }
    write("uid_map", uid_map)?;
    write("gid_map", gid_map)
}

/// Root, first stage: runs `stage_two` (this program again with its arguments), maps its ids
/// once it has entered its namespaces, and waits for it. Never returns.
pub fn supervise(
    stage_two: &mut Command,
    outside: u32,
) -> Result<std::convert::Infallible, String> {
    let child = stage_two
        .spawn()
        .map_err(|e| format!("cannot start the second stage: {e}"))?;
    let pid = Pid::from_raw(child.id() as i32);
    // The parent's copies of the bot's stdin and stdout must not keep them open once the bot
    // closes them (its stderr stays: the launcher's own errors go to the bot's log).
    let null = std::fs::File::options()
        .read(true)
        .write(true)
        .open("/dev/null")
        .map_err(|e| format!("cannot open /dev/null: {e}"))?;
    {
        use std::os::fd::AsRawFd;
        for fd in 0..2 {
            let _ = nix::unistd::dup2(null.as_raw_fd(), fd);
        }
    }
    match waitpid(pid, Some(WaitPidFlag::WUNTRACED)) {
        Ok(WaitStatus::Stopped(_, Signal::SIGSTOP)) => {}
        other => {
            return Err(format!(
                "the second stage did not stop as expected: {other:?}"
            ))
        }
    }
    write_maps(
        &pid.to_string(),
        &format!("0 0 1\n1 {outside} 1"),
        &format!("0 0 1\n1 {outside} 1"),
        false,
    )?;
    kill(pid, Signal::SIGCONT).map_err(|e| format!("cannot continue the second stage: {e}"))?;
    let mut child = child;
    let status = child
        .wait()
        .map_err(|e| format!("cannot wait for the second stage: {e}"))?;
    match status.signal() {
        Some(sig) => {
            // Die the same way, so the referee reads the bot's own end (SIGPIPE is ignored by
            // the Rust runtime: report it as the shell would).
            let sig = Signal::try_from(sig).unwrap_or(Signal::SIGKILL);
            if sig != Signal::SIGPIPE {
                let _ = raise(sig);
            }
            std::process::exit(128 + sig as i32)
        }
        None => std::process::exit(status.code().unwrap_or(1)),
    }
}

/// Root, second stage: enters new namespaces and stops until the first stage has mapped the
/// ids; then becomes uid 1 (the bot's own id outside) with `CAP_DAC_READ_SEARCH` only.
pub fn enter_as_bot(no_network: bool) -> Result<(), String> {
    unshare(flags(no_network)).map_err(|e| format!("cannot make a namespace of its own: {e}"))?;
    raise(Signal::SIGSTOP).map_err(|e| format!("cannot stop for the id maps: {e}"))?;
    setgroups(&[]).map_err(|e| format!("cannot drop groups: {e}"))?;
    setresgid(Gid::from_raw(1), Gid::from_raw(1), Gid::from_raw(1))
        .map_err(|e| format!("cannot change group: {e}"))?;
    nix::sys::prctl::set_keepcaps(true).map_err(|e| format!("cannot keep capabilities: {e}"))?;
    setresuid(Uid::from_raw(1), Uid::from_raw(1), Uid::from_raw(1))
        .map_err(|e| format!("cannot change user: {e}"))?;
    let keep: caps::CapsHashSet = [Capability::CAP_DAC_READ_SEARCH].into_iter().collect();
    let cap_err = |e: caps::errors::CapsError| format!("capabilities: {e}");
    caps::set(None, CapSet::Permitted, &keep).map_err(cap_err)?;
    caps::set(None, CapSet::Effective, &keep).map_err(cap_err)?;
    caps::set(None, CapSet::Inheritable, &keep).map_err(cap_err)?;
    caps::raise(None, CapSet::Ambient, Capability::CAP_DAC_READ_SEARCH).map_err(cap_err)?;
    Ok(())
}

//! The box's init: PID 1 of the box's PID namespace (or, without one, the command's parent and
//! the reaper of its orphans). It builds the box's root, starts the command, reaps, and when
//! the command ends counts what it left, kills it and tells the keeper.

use std::io::{Read, Write};
use std::os::fd::{AsFd, OwnedFd};

use nix::poll::{poll, PollFd, PollFlags, PollTimeout};
use nix::sched::{unshare, CloneFlags};
use nix::sys::signal::{kill, SigSet, Signal};
use nix::sys::wait::{waitpid, WaitStatus};
use nix::unistd::{getpid, Pid};

use super::fork::{fork, Forked};
use super::{copy, exec, root, userns, FAILED};
use crate::plan::Plan;

/// The signals the init ignores (it ends only by SIGKILL, or when the command ends): the
/// referee's SIGTERM to the box's process group is for the command.
const BLOCKED: [Signal; 6] = [
    Signal::SIGTERM,
    Signal::SIGINT,
    Signal::SIGHUP,
    Signal::SIGQUIT,
    Signal::SIGUSR1,
    Signal::SIGUSR2,
];

/// The init's whole life.
pub fn run(plan: &Plan, go_r: OwnedFd, report_w: OwnedFd) -> ! {
    let mut go = std::fs::File::from(go_r);
    let mut byte = [0u8; 1];
    // The keeper's byte: the process that forked this one is gone, the keeper is the parent.
    if go.read_exact(&mut byte).is_err() {
        std::process::exit(FAILED);
    }
    if nix::sys::prctl::set_pdeathsig(Signal::SIGKILL).is_err() || hung_up(&go) {
        std::process::exit(FAILED); // the keeper died before the line above could take effect
    }
    let mut blocked = SigSet::empty();
    for s in BLOCKED {
        blocked.add(s);
    }
    let _ = blocked.thread_block();
    let _ = nix::unistd::setsid();
    let _ = nix::sys::prctl::set_child_subreaper(true);
    let mut report = std::fs::File::from(report_w);
    let mut failed = |why: String| -> ! {
        eprintln!("quads-jail: {why}");
        let _ = report.write_all(b"failed");
        std::process::exit(FAILED)
    };
    // What the box shows is opened with the referee's rights on the machine's files, before
    // this process becomes the box's user.
    let sources = match root::open(plan) {
        Ok(s) => s,
        Err(e) => failed(e),
    };
    if let Err(e) = userns::become_box_user(plan.id) {
        failed(e);
    }
    if !plan.cgroups.is_empty() && plan.walls.isolation {
        // The box's own cgroups become its root: it sees nothing of the machine's tree.
        if let Err(e) = unshare(CloneFlags::CLONE_NEWCGROUP) {
            failed(format!("cannot make a cgroup namespace: {e}"));
        }
    }
    let work_out = match root::build(plan, sources) {
        Ok(out) => out,
        Err(e) => failed(e),
    };
    if plan.walls.isolation {
        let _ = nix::unistd::sethostname("quads-box");
    }
    let _ = nix::sys::prctl::set_dumpable(false);
    if let Some(work) = &plan.work {
        if let Err(e) = copy::tree(&work.from, &plan.folder) {
            failed(format!(
                "cannot copy {} into the build's folder (of {} bytes at most): {e}",
                work.from.display(),
                work.size
            ));
        }
    }
    let null = std::fs::File::options()
        .read(true)
        .write(true)
        .open("/dev/null");
    let command = match fork() {
        Ok(Forked::Child) => exec::run(plan),
        Ok(Forked::Parent(pid)) => pid,
        Err(e) => failed(e),
    };
    if let Ok(null) = &null {
        let _ = super::let_go_of_stdio_with(null);
    }
    let mut status = reap_until(command);
    let leaked = descendants().len() as u32;
    end_all(plan.walls.isolation);
    if let (Some(out), 0) = (work_out, status) {
        if let Err(e) = root::copy_out(&plan.folder, out) {
            eprintln!("quads-jail: cannot copy the build's folder out: {e}");
            status = FAILED << 8;
        }
    }
    let _ = write!(report, "{status} {leaked}");
    std::process::exit(0)
}

/// Whether the other end of `pipe` is closed.
fn hung_up(pipe: &std::fs::File) -> bool {
    let mut fds = [PollFd::new(pipe.as_fd(), PollFlags::empty())];
    matches!(poll(&mut fds, PollTimeout::ZERO), Ok(n) if n > 0)
        && fds[0]
            .revents()
            .is_some_and(|r| r.contains(PollFlags::POLLHUP))
}

/// Reaps children (the command and the orphans that come to this process) until `command`
/// has ended; returns its wait status.
fn reap_until(command: Pid) -> i32 {
    loop {
        match waitpid(Pid::from_raw(-1), None) {
            Ok(WaitStatus::Exited(pid, code)) if pid == command => return code << 8,
            Ok(WaitStatus::Signaled(pid, sig, core)) if pid == command => {
                return sig as i32 | if core { 0x80 } else { 0 }
            }
            Ok(_) | Err(nix::errno::Errno::EINTR) => continue,
            Err(_) => return FAILED << 8,
        }
    }
}

/// The live processes below this one (every process of the box, when it has its own PID
/// namespace: there this is PID 1 and every orphan comes to it).
fn descendants() -> Vec<i32> {
    let me = getpid().as_raw();
    let mut procs: Vec<(i32, i32)> = Vec::new();
    if let Ok(entries) = std::fs::read_dir("/proc") {
        for e in entries.flatten() {
            let Some(pid) = e.file_name().to_str().and_then(|n| n.parse::<i32>().ok()) else {
                continue;
            };
            let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
                continue;
            };
            let Some(rest) = stat
                .rsplit_once(')')
                .map(|(_, r)| r.trim_start().to_owned())
            else {
                continue;
            };
            let mut fields = rest.split_whitespace();
            let state = fields.next().unwrap_or("Z");
            let ppid: i32 = fields.next().and_then(|p| p.parse().ok()).unwrap_or(0);
            if state != "Z" && state != "X" {
                procs.push((pid, ppid));
            }
        }
    }
    let mut found = vec![me];
    let mut i = 0;
    while i < found.len() {
        let parent = found[i];
        found.extend(
            procs
                .iter()
                .filter(|(p, pp)| *pp == parent && !found.contains(p))
                .map(|(p, _)| *p)
                .collect::<Vec<_>>(),
        );
        i += 1;
    }
    found.retain(|&p| p != me);
    found
}

/// Kills everything below this process and reaps it: with a PID namespace of its own, every
/// process in it at once (`kill(-1)` from its init).
fn end_all(own_namespace: bool) {
    for _ in 0..1000 {
        if own_namespace {
            let _ = kill(Pid::from_raw(-1), Signal::SIGKILL);
        } else {
            for pid in descendants() {
                let _ = kill(Pid::from_raw(pid), Signal::SIGKILL);
            }
        }
        // Reap whatever has ended; stop when nothing is left to wait for.
        loop {
            match waitpid(
                Pid::from_raw(-1),
                Some(nix::sys::wait::WaitPidFlag::WNOHANG),
            ) {
                Ok(WaitStatus::StillAlive) => break,
                Ok(_) => continue,
                Err(nix::errno::Errno::ECHILD) => {
                    if descendants().is_empty() {
                        return;
                    }
                    break;
                }
                Err(_) => break,
            }
        }
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
}

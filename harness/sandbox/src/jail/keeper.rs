//! The keeper: the launcher's process outside the box, the referee's child. It creates the
//! cgroups, has the namespaces made, maps the box's user, and then waits for the box to end,
//! or for the referee to end, when it ends the box. It outlives everything in the box, so its
//! report on stderr is the stream's last line.

use std::io::{Read, Write};
use std::os::fd::{AsFd, OwnedFd};

use nix::fcntl::OFlag;
use nix::poll::{poll, PollFd, PollFlags, PollTimeout};
use nix::sched::{unshare, CloneFlags};
use nix::sys::resource::{setrlimit, Resource};
use nix::sys::signal::{kill, raise, SigSet, Signal};
use nix::sys::signalfd::{SfdFlags, SignalFd};
use nix::sys::wait::{waitpid, WaitPidFlag, WaitStatus};
use nix::unistd::{getppid, pipe2, Pid};

use super::fork::{fork, Forked};
use super::{fail, init, userns, FAILED};
use crate::cgroup::{BoxDir, Limits};
use crate::plan::Plan;
use crate::report::BoxReport;

/// The keeper's whole life. Never returns: it exits as the command did.
pub fn run(plan: &Plan) -> ! {
    // A command that dies of a signal is mirrored by raising it here: never leave a core.
    let _ = setrlimit(Resource::RLIMIT_CORE, 0, 0);
    // SIGTERM asks the keeper to end the box (the referee's way when the box's init is not
    // known yet): it waits, blocked, until the keeper can act on it. The command unblocks it.
    let mut term = SigSet::empty();
    term.add(Signal::SIGTERM);
    let _ = term.thread_block();
    let referee = plan
        .parent
        .map(|pid| watch(pid).unwrap_or_else(|e| fail(&e)));
    let _ = nix::sys::prctl::set_child_subreaper(true);
    let limits = Limits {
        memory: plan.walls.memory,
        processes: plan.walls.processes,
        cores: plan.walls.cores,
    };
    let mut made: Vec<&BoxDir> = Vec::new();
    for dir in &plan.cgroups {
        if let Err(e) = dir.create(&limits) {
            remove(&made);
            fail(&e.to_string());
        }
        made.push(dir);
    }
    let pipe =
        || pipe2(OFlag::O_CLOEXEC).unwrap_or_else(|e| fail(&format!("cannot make a pipe: {e}")));
    let (pid_r, pid_w) = pipe();
    let (go_r, go_w) = pipe();
    let (report_r, report_w) = pipe();
    let s2 = match fork() {
        Ok(Forked::Child) => {
            drop((pid_r, go_w, report_r));
            make_namespaces(plan, pid_w, go_r, report_w)
        }
        Ok(Forked::Parent(pid)) => pid,
        Err(e) => {
            remove(&made);
            fail(&e)
        }
    };
    drop((pid_w, go_r, report_w));
    let _ = super::let_go_of_stdio();
    let init = match start(plan, s2, pid_r, &made) {
        Ok(init) => init,
        Err((code, why)) => {
            let _ = kill(s2, Signal::SIGKILL);
            let _ = waitpid(s2, None);
            remove(&made);
            if !why.is_empty() {
                eprintln!("quads-jail: {why}");
            }
            std::process::exit(code)
        }
    };
    // init waits for this byte: it may now watch for this process's end.
    let mut go = std::fs::File::from(go_w);
    if go.write_all(b"g").is_err() {
        fail("the box's init is gone before it started");
    }
    let signals = SignalFd::with_flags(&term, SfdFlags::SFD_CLOEXEC).ok();
    let status = wait(init, referee, signals, &made);
    let mut said = String::new();
    let _ = std::fs::File::from(report_r).read_to_string(&mut said);
    end_all(&made);
    let (oom_kills, forks_refused) = made
        .iter()
        .map(|d| d.events())
        .fold((0, 0), |a, b| (a.0 + b.0, a.1 + b.1));
    remove(&made);
    drop(go);
    let report = match said.split_whitespace().collect::<Vec<_>>()[..] {
        ["failed"] => std::process::exit(FAILED),
        [s, l] => BoxReport {
            status: s.parse().unwrap_or(status),
            leaked: l.parse().unwrap_or(0),
            oom_kills,
            forks_refused,
        },
        // init was killed (with the box, by the referee or by this keeper): so was the command.
        _ => BoxReport {
            status: Signal::SIGKILL as i32,
            leaked: 0,
            oom_kills,
            forks_refused,
        },
    };
    if let Some(nonce) = &plan.nonce {
        let mut err = std::io::stderr().lock();
        let _ = err.write_all(report.line(nonce).as_bytes());
        let _ = err.flush();
    }
    mirror(report.status)
}

/// A pidfd on the referee, checked to be this process's parent still.
fn watch(pid: u32) -> Result<OwnedFd, String> {
    let fd = rustix::process::Pid::from_raw(pid as i32)
        .ok_or("--parent takes a pid")
        .and_then(|p| {
            rustix::process::pidfd_open(p, rustix::process::PidfdFlags::empty())
                .map_err(|_| "the referee is gone")
        })?;
    if getppid().as_raw() as u32 != pid {
        return Err("the referee is gone".to_owned());
    }
    Ok(fd)
}

/// In the forked child: makes the namespaces, stops until the keeper has mapped the user and
/// filled the cgroups, then forks the box's init (PID 1 of the new PID namespace), hands its
/// pid to the keeper and exits.
fn make_namespaces(plan: &Plan, pid_w: OwnedFd, go_r: OwnedFd, report_w: OwnedFd) -> ! {
    let w = &plan.walls;
    let mut flags = CloneFlags::CLONE_NEWUSER;
    if w.filesystem || w.isolation {
        flags |= CloneFlags::CLONE_NEWNS;
    }
    if w.isolation {
        flags |= CloneFlags::CLONE_NEWPID | CloneFlags::CLONE_NEWIPC | CloneFlags::CLONE_NEWUTS;
    }
    if !w.network {
        flags |= CloneFlags::CLONE_NEWNET;
    }
    if let Err(e) = unshare(flags) {
        fail(&format!("cannot make the box's namespaces: {e}"));
    }
    if let Err(e) = raise(Signal::SIGSTOP) {
        fail(&format!("cannot stop for the user map: {e}"));
    }
    match fork() {
        Ok(Forked::Child) => {
            drop(pid_w);
            init::run(plan, go_r, report_w)
        }
        Ok(Forked::Parent(init)) => {
            let mut out = std::fs::File::from(pid_w);
            let _ = write!(out, "{init}");
            std::process::exit(0)
        }
        Err(e) => fail(&e),
    }
}

/// The keeper's side of the start: maps the user, fills the cgroups, continues the child and
/// learns the init's pid once the child is gone (init is then this process's child). On
/// failure, the exit code and what to say.
fn start(plan: &Plan, s2: Pid, pid_r: OwnedFd, made: &[&BoxDir]) -> Result<Pid, (i32, String)> {
    match waitpid(s2, Some(WaitPidFlag::WUNTRACED)) {
        Ok(WaitStatus::Stopped(_, Signal::SIGSTOP)) => {}
        // It said why on stderr.
        Ok(WaitStatus::Exited(_, code)) => return Err((code, String::new())),
        other => {
            return Err((
                FAILED,
                format!("the box's namespaces: unexpected {other:?}"),
            ))
        }
    }
    userns::map(s2, plan.id).map_err(|e| (FAILED, e))?;
    for dir in made {
        dir.join(s2.as_raw()).map_err(|e| (FAILED, e.to_string()))?;
    }
    kill(s2, Signal::SIGCONT).map_err(|e| (FAILED, format!("cannot continue: {e}")))?;
    let mut text = String::new();
    let _ = std::fs::File::from(pid_r).read_to_string(&mut text);
    match waitpid(s2, None) {
        Ok(WaitStatus::Exited(_, 0)) => {}
        Ok(WaitStatus::Exited(_, code)) => return Err((code, String::new())),
        other => {
            return Err((
                FAILED,
                format!("the box's namespaces: unexpected {other:?}"),
            ))
        }
    }
    text.trim()
        .parse()
        .map(Pid::from_raw)
        .map_err(|_| (FAILED, "the box's init did not start".to_owned()))
}

/// Waits for the box's init to end, ending the box if the referee ends first or asks for it
/// (SIGTERM). Returns the init's wait status.
fn wait(
    init: Pid,
    mut referee: Option<OwnedFd>,
    mut signals: Option<SignalFd>,
    made: &[&BoxDir],
) -> i32 {
    let init_fd = rustix::process::Pid::from_raw(init.as_raw())
        .and_then(|p| rustix::process::pidfd_open(p, rustix::process::PidfdFlags::empty()).ok());
    // Without a pidfd (an old kernel), the child alone is waited for.
    while let Some(fd) = &init_fd {
        let never = referee.as_ref().map_or(fd.as_fd(), |r| r.as_fd());
        let mut fds = vec![
            PollFd::new(fd.as_fd(), PollFlags::POLLIN),
            PollFd::new(
                never,
                if referee.is_some() {
                    PollFlags::POLLIN
                } else {
                    PollFlags::empty()
                },
            ),
        ];
        if let Some(s) = &signals {
            fds.push(PollFd::new(s.as_fd(), PollFlags::POLLIN));
        }
        if poll(&mut fds, PollTimeout::NONE).is_err() {
            continue; // interrupted
        }
        let ready = |f: &PollFd| {
            f.revents()
                .is_some_and(|r| r.contains(PollFlags::POLLIN) || r.contains(PollFlags::POLLHUP))
        };
        if ready(&fds[0]) {
            break;
        }
        let gone = referee.is_some() && ready(&fds[1]);
        let asked = fds.get(2).is_some_and(ready);
        if gone || asked {
            // The referee is gone, however it went, or asks for the end: so is the box.
            for dir in made {
                let _ = dir.set_frozen(false);
                let _ = dir.kill();
            }
            let _ = kill(init, Signal::SIGKILL);
            if gone {
                referee = None;
            }
            if asked {
                signals = None;
            }
        }
    }
    loop {
        match waitpid(init, None) {
            Ok(WaitStatus::Exited(_, code)) => return code << 8,
            Ok(WaitStatus::Signaled(_, sig, _)) => return sig as i32,
            Ok(_) => continue,
            Err(nix::errno::Errno::EINTR) => continue,
            Err(_) => return Signal::SIGKILL as i32,
        }
    }
}

/// Kills whatever is still in the box's cgroups (nothing, when the box had a PID namespace:
/// its end took everything with it) and waits until they are empty.
fn end_all(made: &[&BoxDir]) {
    for dir in made {
        let _ = dir.set_frozen(false);
        for _ in 0..2000 {
            let _ = dir.kill();
            if dir.procs().is_empty() {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
    }
}

/// Removes the box's cgroup folders (the kernel may take a moment to let go of the last
/// processes' accounting).
fn remove(made: &[&BoxDir]) {
    for dir in made {
        for _ in 0..200 {
            match dir.remove() {
                Ok(()) => break,
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => break,
                Err(_) => std::thread::sleep(std::time::Duration::from_millis(1)),
            }
        }
    }
}

/// Exits as a process with wait status `status` did: by the same signal, or the same code.
fn mirror(status: i32) -> ! {
    if libc::WIFSIGNALED(status) {
        let sig = libc::WTERMSIG(status);
        if let Ok(signal) = Signal::try_from(sig) {
            // The Rust runtime ignores SIGPIPE: report it as the shell would, then.
            if signal != Signal::SIGPIPE {
                let _ = raise(signal);
            }
        }
        std::process::exit(128 + sig)
    }
    std::process::exit(libc::WEXITSTATUS(status))
}

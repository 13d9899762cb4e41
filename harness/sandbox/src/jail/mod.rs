//! `quads-jail`, the launcher every box is built by: the referee starts it with a
//! [`Plan`](crate::plan::Plan) as its arguments, and it becomes three processes.
//!
//! - The **keeper** ([`keeper`]) stays outside, in the referee's view of the machine. It
//!   creates the box's cgroups, forks a process that makes the namespaces, writes its user id
//!   map and puts it into the cgroups, then waits: for the box's init to end, or for the
//!   referee to end (a pidfd), when it kills the box. Last, it reads what the kernel counted,
//!   removes the cgroups, writes its [`BoxReport`](crate::report::BoxReport) on stderr and exits
//!   as the command did.
//! - The box's **init** ([`init`]) is PID 1 of a PID namespace of its own, in new user, mount,
//!   network, IPC, UTS and cgroup namespaces. It dies with the keeper (`PR_SET_PDEATHSIG`),
//!   and when it dies the kernel ends every process in its namespace. It builds the box's
//!   root ([`root`]), starts the command, reaps what is orphaned, and when the command ends
//!   counts what is left and kills it.
//! - The **command** ([`exec`]) drops to the box's user with no capability, sets its limits,
//!   Landlock and the syscall filter ([`seccomp`]), and executes the program with the box's
//!   environment.
//!
//! A wall that cannot be built stops the launcher with status [`FAILED`] and one line on
//! stderr, so a command never runs with less than it was given. `quads-jail --probe` builds
//! each wall in a throwaway box and prints what holds ([`probe`]).

mod copy;
mod exec;
mod fork;
mod init;
mod keeper;
mod probe;
mod root;
mod seccomp;
mod userns;

use crate::plan::Plan;

/// The status the launcher exits with when it cannot build a wall or start the command.
pub const FAILED: i32 = 125;

/// The launcher's `main`.
pub fn jail_main() -> ! {
    let args: Vec<std::ffi::OsString> = std::env::args_os().skip(1).collect();
    match args.first().and_then(|a| a.to_str()) {
        Some("--probe") => probe::run(),
        Some("--inside") => probe::inside(&args[1..]),
        _ => {}
    }
    match Plan::parse(args) {
        Ok(mut plan) => {
            plan.nonce = std::env::var(crate::plan::NONCE_VAR).ok();
            std::env::remove_var(crate::plan::NONCE_VAR);
            keeper::run(&plan)
        }
        Err(e) => fail(&e.to_string()),
    }
}

/// Puts `/dev/null` in place of this process's stdin and stdout: once the command has them,
/// the launcher must not keep them open (the referee must see the command close its output).
/// Its stderr stays: the launcher's own words go to the command's log.
fn let_go_of_stdio() -> std::io::Result<()> {
    let null = std::fs::File::options()
        .read(true)
        .write(true)
        .open("/dev/null")?;
    let_go_of_stdio_with(&null)
}

fn let_go_of_stdio_with(null: &std::fs::File) -> std::io::Result<()> {
    use std::os::fd::AsRawFd;
    for fd in 0..2 {
        nix::unistd::dup2(null.as_raw_fd(), fd)?;
    }
    Ok(())
}

/// One line on stderr and [`FAILED`].
fn fail(why: &str) -> ! {
    eprintln!("quads-jail: {why}");
    std::process::exit(FAILED)
}

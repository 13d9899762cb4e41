//! The launcher's one use of `fork`: it is single-threaded from start to end (no runtime, no
//! thread is ever started), so a child of `fork` may call anything its parent could.

use nix::unistd::{ForkResult, Pid};

/// Which side of a fork this is.
pub enum Forked {
    /// The new process.
    Child,
    /// The process that forked, with the child's pid.
    Parent(Pid),
}

/// Forks this (single-threaded) process.
pub fn fork() -> Result<Forked, String> {
    // SAFETY: quads-jail never starts a thread, so the child is a whole copy of a
    // single-threaded process: no lock can be held by a thread that is not there.
    #[expect(unsafe_code, reason = "fork in a single-threaded launcher")]
    let forked = unsafe { nix::unistd::fork() };
    match forked {
        Ok(ForkResult::Child) => Ok(Forked::Child),
        Ok(ForkResult::Parent { child }) => Ok(Forked::Parent(child)),
        Err(e) => Err(format!("cannot fork: {e}")),
    }
}

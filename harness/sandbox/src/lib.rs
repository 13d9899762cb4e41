//! The box around every bot and every build: a view of the machine that holds only what it
//! needs, processes of its own that all end with it, limits counted for the whole box, a
//! syscall filter, and no privilege.
//!
//! The referee starts each box through `quads-jail` ([`jail`]), a small single-threaded
//! launcher built with the workspace beside `quads`, with a [`Plan`] as its arguments
//! ([`prepare`] writes it). The kernel's own mechanisms do the work (docs/sandbox.md names
//! each): user, mount, PID, network, IPC, UTS and cgroup namespaces, `pivot_root` into a root
//! of bind mounts and tmpfs, cgroups (v2 or v1) for memory, processes, the CPU quota and the
//! freezer, `setrlimit` for CPU time and file size, Landlock as a second wall, seccomp, and no
//! capability with `no_new_privs`.
//!
//! What this machine can build is asked once per run ([`machine()`], `quads sandbox`); a default
//! the machine cannot give is dropped with a warning, one the user named is an error
//! ([`enforce`]).

pub mod boxed;
pub mod cgroup;
pub mod ids;
mod jail;
pub mod machine;
pub mod plan;
pub mod report;
pub mod resolve;
pub mod spec;
pub mod walls;

pub use boxed::{owner, prepare, BoxHandle, Prepared, Request, SandboxError};
pub use jail::jail_main;
pub use machine::{
    enforce, enforce_on, jail_path, machine, pause_off, preflight, probe, Probe, Unavailable,
    WallError, JAIL,
};
pub use plan::Plan;
pub use report::BoxReport;
pub use spec::{SandboxSpec, SandboxSpecError};
pub use walls::{Sandbox, PROTECTIONS};

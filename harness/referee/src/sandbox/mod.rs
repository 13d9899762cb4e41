//! The wall around each bot: resource limits, a file-system view, no network, no reach into
//! other processes. The referee starts every bot through `quads-jail` (`src/bin`), a small
//! launcher that sets the walls up in its own single-threaded process and then executes the
//! bot's command, so the bot and everything it starts live inside them.
//!
//! The kernel's own mechanisms do the work: `setrlimit` (`RLIMIT_DATA` for memory, never
//! `RLIMIT_AS`, which breaks V8, the JVM and Go; `RLIMIT_NPROC`, `RLIMIT_CPU`,
//! `RLIMIT_FSIZE`), a user namespace of its own so that the process limit binds even when the
//! referee runs as root, a network namespace of its own, `no_new_privs`, and Landlock for the
//! file system, TCP, signals and abstract Unix sockets (a Landlock domain also keeps a bot from
//! tracing or reading the memory of any process outside it).

mod enforce;
mod jail;
mod policy;
mod spec;
mod tmp;
mod userns;

pub use enforce::{enforce, enforce_on, machine, preflight};
pub use jail::{jail_main, Probe};
pub use policy::{jail_path, probe, runnable, Sandbox, JAIL, PROTECTIONS};
pub use spec::{SandboxSpec, SandboxSpecError};
pub use tmp::{private_tmp, BotTmp};

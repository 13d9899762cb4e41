//! A box as the referee holds it: the launcher's command line for a bot or a build
//! ([`prepare`]), and, once it runs, the calls that pause, end and read it ([`BoxHandle`]).

use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;

use nix::sys::signal::{kill, killpg, Signal};
use nix::unistd::Pid;

use crate::cgroup::{self, BoxDir, Controller};
use crate::ids::{self, Id};
use crate::machine::{jail_path, JAIL};
use crate::plan::{environment, Plan, Work};
use crate::resolve::{self, Program};
use crate::walls::Sandbox;

/// What a box is asked to run.
#[derive(Clone, Copy, Debug)]
pub struct Request<'a> {
    /// A program and its arguments, or (with `shell`) one shell command line.
    pub argv: &'a [String],
    /// Run `argv[0]` with `sh -c`.
    pub shell: bool,
    /// The bot's own folder (relative to the referee's): read-only, its working directory.
    pub folder: &'a Path,
    /// Set in its environment after the box's own variables.
    pub env: &'a [(String, String)],
    /// The walls, as this machine can build them ([`crate::enforce`]).
    pub walls: &'a Sandbox,
    /// For a build: where its files come from; `folder` (outside) then receives the result.
    pub work_from: Option<&'a Path>,
}

/// Why a box cannot be started: the user's mistake, reported before anything runs.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SandboxError {
    /// The launcher is not where the referee is.
    #[error("{JAIL} is not beside the referee: build it with `cargo build --release --workspace`")]
    NoLauncher,
    /// The command's program cannot be found or run.
    #[error("{source}")]
    Program {
        /// The program as written.
        program: String,
        /// Why.
        #[source]
        source: io::Error,
    },
    /// The box's user may not enter the bot's folder (or, without the filesystem wall, a
    /// folder above it): the referee runs as root, the box as a user of its own.
    #[error(
        "the box's user may not enter {} (mode {mode:04o}): let others in (`chmod o+x {}`) or run from a folder they may enter",
        folder.display(),
        folder.display()
    )]
    Unreachable {
        /// The folder the box's user cannot pass.
        folder: PathBuf,
        /// Its permission bits.
        mode: u32,
    },
    /// The bot's folder is not there.
    #[error("its folder {}: {source}", folder.display())]
    Folder {
        /// The folder as given.
        folder: PathBuf,
        /// Why.
        #[source]
        source: io::Error,
    },
}

/// A box ready to start: run `command` (in a process group of its own, its three standard
/// streams piped), then tell `handle` the pid it got.
#[derive(Debug)]
pub struct Prepared {
    /// The launcher's command line.
    pub command: std::process::Command,
    /// The box, once started.
    pub handle: BoxHandle,
    /// The folder the box shows as its own, as the box names it.
    pub folder: PathBuf,
}

/// A running box: its cgroups, its id, the secret of its report, its keeper.
#[derive(Debug)]
pub struct BoxHandle {
    cgroups: Vec<BoxDir>,
    nonce: String,
    keeper: Option<i32>,
    _id: Option<Id>,
}

/// The folder `folder` as the box names it: absolute, links resolved.
fn absolute(folder: &Path) -> Result<PathBuf, SandboxError> {
    folder
        .canonicalize()
        .map_err(|source| SandboxError::Folder {
            folder: folder.to_path_buf(),
            source,
        })
}

/// Whether a user of the box's own (no group, not the owner) may enter `folder`: the folder
/// itself, shown at its own path in the box's root, and without the filesystem wall every
/// folder above it too.
fn reachable(folder: &Path, filesystem: bool) -> Result<(), SandboxError> {
    use std::os::unix::fs::PermissionsExt;
    let passed: Vec<&Path> = if filesystem {
        vec![folder]
    } else {
        folder.ancestors().collect()
    };
    for dir in passed {
        let Ok(meta) = std::fs::metadata(dir) else {
            continue;
        };
        let mode = meta.permissions().mode() & 0o7777;
        if mode & 0o001 == 0 {
            return Err(SandboxError::Unreachable {
                folder: dir.to_path_buf(),
                mode,
            });
        }
    }
    Ok(())
}

/// The launcher's command line for `req`.
pub fn prepare(req: &Request<'_>) -> Result<Prepared, SandboxError> {
    let jail = jail_path().ok_or(SandboxError::NoLauncher)?;
    let folder = absolute(req.folder)?;
    let search = std::env::var_os("PATH").unwrap_or_default();
    let argv: Vec<String> = if req.shell {
        vec!["sh".to_owned(), "-c".to_owned(), req.argv.join(" ")]
    } else {
        req.argv.to_vec()
    };
    let program: Program =
        resolve::find(&argv[0], &folder, &search).map_err(|source| SandboxError::Program {
            program: argv[0].clone(),
            source,
        })?;
    let mut shown = program.shown();
    let mut path_dirs = program.path_dirs();
    if req.shell {
        // The shell line's first program (an interpreter, most often) is shown as any would be.
        let first = req.argv.join(" ");
        if let Some(word) = first.split_whitespace().find(|w| !w.contains('=')) {
            if let Ok(p) = resolve::find(word, &folder, &search) {
                shown.extend(
                    p.shown()
                        .into_iter()
                        .filter(|s| !shown.contains(s))
                        .collect::<Vec<_>>(),
                );
                path_dirs.extend(
                    p.path_dirs()
                        .into_iter()
                        .filter(|s| !path_dirs.contains(s))
                        .collect::<Vec<_>>(),
                );
            }
        }
    }
    let root = nix::unistd::geteuid().is_root();
    if root {
        reachable(&folder, req.walls.filesystem)?;
    }
    let id = root.then(ids::take);
    let cgroups = box_cgroups(req.walls);
    let nonce = crate::report::nonce();
    let plan = Plan {
        walls: req.walls.clone(),
        folder: folder.clone(),
        shown,
        work: req.work_from.map(|from| Work {
            from: from.canonicalize().unwrap_or_else(|_| from.to_path_buf()),
            size: req.walls.tmp,
        }),
        cgroups: cgroups.clone(),
        id: id.as_ref().map(Id::get),
        parent: Some(std::process::id()),
        nonce: Some(nonce.clone()),
        env: environment(&path_dirs, req.env),
        exec: program.path,
        argv: argv.iter().map(Into::into).collect(),
    };
    let mut command = std::process::Command::new(jail);
    command
        .args(plan.args())
        .env(crate::plan::NONCE_VAR, &nonce)
        .current_dir(&folder);
    Ok(Prepared {
        command,
        handle: BoxHandle {
            cgroups,
            nonce,
            keeper: None,
            _id: id,
        },
        folder,
    })
}

/// The user id a box of `prepared` runs as outside, when the referee is root (a build's
/// folder must belong to it).
pub fn owner(prepared: &Prepared) -> Option<u32> {
    prepared.handle._id.as_ref().map(Id::get)
}

/// The cgroup folders of a new box with `walls`: those whose controllers it uses, and the
/// freezer always (for the pause).
fn box_cgroups(walls: &Sandbox) -> Vec<BoxDir> {
    static PREPARED: OnceLock<()> = OnceLock::new();
    static BOXES: AtomicU64 = AtomicU64::new(0);
    PREPARED.get_or_init(|| {
        let _ = cgroup::prepare_delegated();
        cgroup::machine().remove_stale();
    });
    let needs = |d: &BoxDir| {
        (walls.memory.is_some() && d.kind.gives(Controller::Memory))
            || (walls.processes.is_some() && d.kind.gives(Controller::Pids))
            || (walls.cores.is_some() && d.kind.gives(Controller::Cpu))
            || d.kind.gives(Controller::Freezer)
            // What runtimes read to size themselves, in the box's own view.
            || (walls.isolation && (d.kind.gives(Controller::Cpuacct) || d.kind.gives(Controller::Cpuset)))
    };
    let name = format!(
        "{}-{}",
        std::process::id(),
        BOXES.fetch_add(1, Ordering::Relaxed)
    );
    cgroup::machine()
        .box_dirs(&name)
        .into_iter()
        .filter(needs)
        .collect()
}

impl BoxHandle {
    /// The launcher started as process `keeper`.
    pub fn started(&mut self, keeper: u32) {
        self.keeper = Some(keeper as i32);
    }

    /// The secret of this box's report.
    pub fn nonce(&self) -> &str {
        &self.nonce
    }

    fn freezer(&self) -> Option<&BoxDir> {
        self.cgroups
            .iter()
            .find(|d| d.kind.gives(Controller::Freezer))
    }

    /// The box's init, once the box is up: the keeper's child.
    pub fn init(&self) -> Option<Pid> {
        let k = self.keeper?;
        let children = std::fs::read_to_string(format!("/proc/{k}/task/{k}/children")).ok()?;
        children
            .split_whitespace()
            .next()?
            .parse()
            .ok()
            .map(Pid::from_raw)
    }

    /// Stops every process of the box: the freezer, or without one SIGSTOP to its process
    /// group. Returns whether it had a freezer.
    pub fn freeze(&self) -> bool {
        match self.freezer() {
            Some(d) if d.set_frozen(true).is_ok() => true,
            _ => {
                if let Some(init) = self.init() {
                    let _ = killpg(init, Signal::SIGSTOP);
                }
                false
            }
        }
    }

    /// Whether every process of the box is stopped (with the freezer), or `None` when only
    /// the process group was signalled.
    pub fn frozen(&self) -> Option<bool> {
        self.freezer().map(BoxDir::is_frozen)
    }

    /// The process group SIGSTOP stops without a freezer: the box's init's.
    pub fn group(&self) -> Option<Pid> {
        self.init()
    }

    /// Lets the box run again.
    pub fn thaw(&self) {
        if let Some(d) = self.freezer() {
            let _ = d.set_frozen(false);
        }
        if let Some(init) = self.init() {
            let _ = killpg(init, Signal::SIGCONT);
        }
    }

    /// Asks the command to end: SIGTERM to the box's process group (its init ignores it).
    pub fn terminate(&self) {
        self.thaw();
        if let Some(init) = self.init() {
            let _ = killpg(init, Signal::SIGTERM);
        }
    }

    /// Ends the box at once: SIGKILL to its init (the kernel ends everything in its PID
    /// namespace) and every process in its cgroups, or, before the box is up, SIGTERM to its
    /// keeper, which then ends it; the keeper then removes its cgroups, reports and exits.
    pub fn kill(&self) {
        self.thaw();
        match self.init() {
            Some(init) => {
                let _ = kill(init, Signal::SIGKILL);
            }
            None => {
                if let Some(k) = self.keeper {
                    let _ = kill(Pid::from_raw(k), Signal::SIGTERM);
                }
            }
        }
        for d in &self.cgroups {
            let _ = d.kill();
        }
    }
}

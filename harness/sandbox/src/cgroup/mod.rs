//! A cgroup per box: memory (shared memory and tmpfs pages included) and processes counted
//! for the whole box, a CPU quota, the freezer for the no-pondering pause, and `cgroup.kill`.
//!
//! Each controller is taken from wherever this machine offers it: the cgroup v2 hierarchy when
//! the controller is enabled there, else its cgroup v1 hierarchy (a machine may mount both, as
//! this project's CI machine does: memory, pids, cpu and freezer in v1, v2 beside them with
//! none of those, but with its own freezer and `cgroup.kill`). A box has one folder per
//! hierarchy it uses, named alike in each.
//!
//! Where the boxes go: in each v1 hierarchy, below the referee's own cgroup (so that the
//! referee's own limits cover its bots), when the referee may write there; in v2, below the
//! root when the referee is root (v2 allows no processes beside controlled children), or, for
//! an ordinary user whose own cgroup was delegated to it (systemd's `Delegate=yes`), beside the
//! referee, which first moves itself into a leaf of its own.
//!
//! The launcher's keeper creates a box's folders, writes its limits and puts the box in; the
//! referee freezes and thaws it; the keeper reads what the kernel counted (OOM kills, forks
//! refused) and removes the folders when the box is gone.

use std::io::{Error, ErrorKind, Result};
use std::path::{Path, PathBuf};

/// The folder, in each hierarchy, that holds the boxes.
pub const PARENT: &str = "quads-arena";

/// A controller a box uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Controller {
    /// Memory for the whole box.
    Memory,
    /// Threads and processes for the whole box.
    Pids,
    /// The CPU quota.
    Cpu,
    /// The pause (in v2 every cgroup has it, with `cgroup.kill`).
    Freezer,
    /// CPU time used (v1): not a limit, but runtimes look for it.
    Cpuacct,
    /// The CPUs and memory nodes (v1): not a limit either; the JVM will not size itself from
    /// v1 cgroups without it.
    Cpuset,
}

impl Controller {
    const ALL: [Controller; 6] = [
        Controller::Memory,
        Controller::Pids,
        Controller::Cpu,
        Controller::Freezer,
        Controller::Cpuacct,
        Controller::Cpuset,
    ];

    /// The kernel's name.
    pub fn name(self) -> &'static str {
        match self {
            Controller::Memory => "memory",
            Controller::Pids => "pids",
            Controller::Cpu => "cpu",
            Controller::Freezer => "freezer",
            Controller::Cpuacct => "cpuacct",
            Controller::Cpuset => "cpuset",
        }
    }

    fn from_name(name: &str) -> Option<Controller> {
        Controller::ALL.into_iter().find(|c| c.name() == name)
    }
}

/// Which hierarchy a box folder is in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A cgroup v1 hierarchy, with the controllers mounted in it (`cpu,cpuacct` often go
    /// together).
    V1(Vec<Controller>),
    /// The cgroup v2 hierarchy, with the controllers enabled for the box (its freezer and
    /// `cgroup.kill` come with every v2 cgroup).
    V2(Vec<Controller>),
}

impl Kind {
    /// Whether this folder gives `c`.
    pub fn gives(&self, c: Controller) -> bool {
        match self {
            Kind::V1(list) => list.contains(&c),
            Kind::V2(list) => c == Controller::Freezer || list.contains(&c),
        }
    }

    /// The controllers' names, joined with `sep`.
    pub fn names(&self, sep: &str) -> String {
        let list = match self {
            Kind::V1(l) | Kind::V2(l) => l,
        };
        list.iter().map(|c| c.name()).collect::<Vec<_>>().join(sep)
    }

    /// As the launcher's argument writes it: `v1-memory`, `v1-cpu+cpuacct`, `v2-memory+pids`,
    /// `v2`.
    pub fn arg(&self) -> String {
        match self {
            Kind::V1(_) => format!("v1-{}", self.names("+")),
            Kind::V2(list) if list.is_empty() => "v2".to_owned(),
            Kind::V2(_) => format!("v2-{}", self.names("+")),
        }
    }

    /// Reads [`Kind::arg`] back.
    pub fn parse(text: &str) -> Option<Kind> {
        if text == "v2" {
            return Some(Kind::V2(Vec::new()));
        }
        let (v1, list) = match (text.strip_prefix("v1-"), text.strip_prefix("v2-")) {
            (Some(l), _) => (true, l),
            (_, Some(l)) => (false, l),
            _ => return None,
        };
        let list = list
            .split('+')
            .map(Controller::from_name)
            .collect::<Option<Vec<_>>>()?;
        Some(if v1 { Kind::V1(list) } else { Kind::V2(list) })
    }
}

/// One folder of a box.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoxDir {
    /// Its hierarchy.
    pub kind: Kind,
    /// The folder.
    pub path: PathBuf,
}

/// The limits a box's cgroups enforce.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Bytes of memory (swap none).
    pub memory: Option<u64>,
    /// Threads and processes.
    pub processes: Option<u64>,
    /// Thousandths of a core.
    pub cores: Option<u32>,
}

/// The CPU quota's period, in microseconds.
const PERIOD_US: u64 = 100_000;

pub(crate) fn write(dir: &Path, file: &str, text: &str) -> Result<()> {
    std::fs::write(dir.join(file), text).map_err(|e| {
        Error::new(
            e.kind(),
            format!("cannot write {}: {e}", dir.join(file).display()),
        )
    })
}

pub(crate) fn read(dir: &Path, file: &str) -> Result<String> {
    std::fs::read_to_string(dir.join(file))
}

/// `key N` from a flat-keyed file (`memory.events`, `pids.events`, `memory.oom_control`).
fn counter(text: &str, key: &str) -> u64 {
    text.lines()
        .find_map(|l| l.strip_prefix(key)?.strip_prefix(' ')?.trim().parse().ok())
        .unwrap_or(0)
}

impl BoxDir {
    /// Creates the folder and writes the limits its hierarchy enforces.
    pub fn create(&self, limits: &Limits) -> Result<()> {
        let cpuset = matches!(&self.kind, Kind::V1(l) if l.contains(&Controller::Cpuset));
        if let Some(parent) = self.path.parent() {
            match std::fs::create_dir(parent) {
                Ok(()) if cpuset => inherit_cpuset(parent)?,
                Ok(()) => {}
                Err(e) if e.kind() == ErrorKind::AlreadyExists => {}
                Err(e) => {
                    return Err(Error::new(
                        e.kind(),
                        format!("cannot create {}: {e}", parent.display()),
                    ))
                }
            }
        }
        std::fs::create_dir(&self.path).map_err(|e| {
            Error::new(
                e.kind(),
                format!("cannot create {}: {e}", self.path.display()),
            )
        })?;
        if cpuset {
            inherit_cpuset(&self.path)?;
        }
        let v2 = matches!(self.kind, Kind::V2(_));
        if let (true, Some(m)) = (self.kind.gives(Controller::Memory), limits.memory) {
            if v2 {
                write(&self.path, "memory.max", &m.to_string())?;
                if self.path.join("memory.swap.max").exists() {
                    write(&self.path, "memory.swap.max", "0")?;
                }
            } else {
                write(&self.path, "memory.limit_in_bytes", &m.to_string())?;
                if self.path.join("memory.memsw.limit_in_bytes").exists() {
                    write(&self.path, "memory.memsw.limit_in_bytes", &m.to_string())?;
                }
            }
        }
        if let (true, Some(p)) = (self.kind.gives(Controller::Pids), limits.processes) {
            write(&self.path, "pids.max", &p.to_string())?;
        }
        if let (true, Some(c)) = (self.kind.gives(Controller::Cpu), limits.cores) {
            let quota = u64::from(c) * PERIOD_US / 1000;
            if v2 {
                write(&self.path, "cpu.max", &format!("{quota} {PERIOD_US}"))?;
            } else {
                write(&self.path, "cpu.cfs_period_us", &PERIOD_US.to_string())?;
                write(&self.path, "cpu.cfs_quota_us", &quota.to_string())?;
            }
        }
        Ok(())
    }

    /// Moves process `pid` (and so everything it will start) into the folder.
    pub fn join(&self, pid: i32) -> Result<()> {
        write(&self.path, "cgroup.procs", &pid.to_string())
    }

    /// What the kernel counted: processes killed for memory, and forks refused at the limit.
    pub fn events(&self) -> (u64, u64) {
        let mut oom = 0;
        let mut refused = 0;
        if self.kind.gives(Controller::Memory) {
            let file = if matches!(self.kind, Kind::V2(_)) {
                "memory.events"
            } else {
                "memory.oom_control"
            };
            oom = counter(&read(&self.path, file).unwrap_or_default(), "oom_kill");
        }
        if self.kind.gives(Controller::Pids) {
            refused = counter(&read(&self.path, "pids.events").unwrap_or_default(), "max");
        }
        (oom, refused)
    }

    /// Asks the kernel to stop (`true`) or continue every process of the box (a folder
    /// without the freezer does nothing).
    pub fn set_frozen(&self, frozen: bool) -> Result<()> {
        match (&self.kind, frozen) {
            (Kind::V2(_), true) => write(&self.path, "cgroup.freeze", "1"),
            (Kind::V2(_), false) => write(&self.path, "cgroup.freeze", "0"),
            (Kind::V1(l), true) if l.contains(&Controller::Freezer) => {
                write(&self.path, "freezer.state", "FROZEN")
            }
            (Kind::V1(l), false) if l.contains(&Controller::Freezer) => {
                write(&self.path, "freezer.state", "THAWED")
            }
            _ => Ok(()),
        }
    }

    /// Whether every process of the box is stopped.
    pub fn is_frozen(&self) -> bool {
        match &self.kind {
            Kind::V2(_) => {
                read(&self.path, "cgroup.events").is_ok_and(|t| counter(&t, "frozen") == 1)
            }
            _ => read(&self.path, "freezer.state").is_ok_and(|t| t.trim() == "FROZEN"),
        }
    }

    /// Kills every process of the box: v2's `cgroup.kill`, else each process listed.
    pub fn kill(&self) -> Result<()> {
        if matches!(self.kind, Kind::V2(_)) {
            return write(&self.path, "cgroup.kill", "1");
        }
        for pid in self.procs() {
            let _ = nix::sys::signal::kill(
                nix::unistd::Pid::from_raw(pid),
                nix::sys::signal::Signal::SIGKILL,
            );
        }
        Ok(())
    }

    /// The processes in the box now.
    pub fn procs(&self) -> Vec<i32> {
        read(&self.path, "cgroup.procs")
            .unwrap_or_default()
            .lines()
            .filter_map(|l| l.trim().parse().ok())
            .collect()
    }

    /// Removes the folder (it must hold no process any more).
    pub fn remove(&self) -> Result<()> {
        std::fs::remove_dir(&self.path)
    }
}

/// A new v1 cpuset cgroup has no CPU and no memory node until given its parent's.
fn inherit_cpuset(dir: &Path) -> Result<()> {
    let parent = dir.parent().unwrap_or(Path::new("/"));
    for file in ["cpuset.cpus", "cpuset.mems"] {
        let value = read(parent, file)?;
        write(dir, file, value.trim())?;
    }
    Ok(())
}

mod machine;

pub(crate) use machine::unescape;
pub use machine::{machine, prepare_delegated, Cgroups};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_read_back_and_say_what_they_give() {
        for k in [
            Kind::V1(vec![Controller::Memory]),
            Kind::V1(vec![Controller::Cpu, Controller::Cpuacct]),
            Kind::V2(vec![]),
            Kind::V2(vec![Controller::Memory, Controller::Cpu]),
        ] {
            assert_eq!(Kind::parse(&k.arg()), Some(k.clone()));
        }
        assert_eq!(Kind::V2(vec![Controller::Pids]).arg(), "v2-pids");
        assert!(Kind::V2(vec![]).gives(Controller::Freezer));
        assert!(!Kind::V1(vec![Controller::Memory]).gives(Controller::Freezer));
        assert_eq!(
            Kind::V1(vec![Controller::Cpu, Controller::Cpuacct]).arg(),
            "v1-cpu+cpuacct"
        );
        assert_eq!(Kind::parse("v3"), None);
        assert_eq!(Kind::parse("v1-blkio"), None);
    }

    #[test]
    fn counters_are_read_by_key() {
        let oom = "oom_kill_disable 0\nunder_oom 0\noom_kill 3\n";
        assert_eq!(counter(oom, "oom_kill"), 3);
        assert_eq!(counter("max 12\n", "max"), 12);
        assert_eq!(counter("populated 1\nfrozen 0\n", "frozen"), 0);
        assert_eq!(counter("", "max"), 0);
    }

    #[test]
    fn limits_are_written_in_each_hierarchys_files() {
        let root = tempfile::tempdir().unwrap();
        let limits = Limits {
            memory: Some(1 << 30),
            processes: Some(64),
            cores: Some(1500),
        };
        let v1 = BoxDir {
            kind: Kind::V1(vec![Controller::Cpu]),
            path: root.path().join("v1/box"),
        };
        v1.create(&limits).unwrap();
        let r = |d: &BoxDir, f: &str| read(&d.path, f).unwrap();
        assert_eq!(
            (r(&v1, "cpu.cfs_period_us"), r(&v1, "cpu.cfs_quota_us")),
            ("100000".into(), "150000".into())
        );
        assert!(!v1.path.join("memory.limit_in_bytes").exists());
        let v2 = BoxDir {
            kind: Kind::V2(vec![Controller::Memory, Controller::Pids, Controller::Cpu]),
            path: root.path().join("v2/box"),
        };
        v2.create(&limits).unwrap();
        assert_eq!(
            (r(&v2, "memory.max"), r(&v2, "pids.max"), r(&v2, "cpu.max")),
            ("1073741824".into(), "64".into(), "150000 100000".into())
        );
        assert_eq!(
            v2.create(&limits).unwrap_err().kind(),
            ErrorKind::AlreadyExists
        );
    }
}

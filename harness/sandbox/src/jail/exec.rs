//! The command's last steps inside the box before it runs: its limits, no capability at all,
//! `no_new_privs`, Landlock behind the mount namespace, the syscall filter, and the box's
//! environment.

use std::os::unix::process::CommandExt;
use std::path::Path;

use caps::CapSet;
use landlock::{
    Access, AccessFs, AccessNet, CompatLevel, Compatible, PathBeneath, PathFd, Ruleset,
    RulesetAttr, RulesetCreatedAttr, Scope, ABI,
};
use nix::sys::resource::{setrlimit, Resource};

use super::{fail, seccomp};
use crate::plan::Plan;
use crate::walls::Sandbox;

/// Never returns: the command runs, or the launcher says why not and exits with
/// [`super::FAILED`].
pub fn run(plan: &Plan) -> ! {
    if let Err(e) = limits(&plan.walls) {
        fail(&e);
    }
    if let Err(e) = drop_capabilities() {
        fail(&e);
    }
    if let Err(e) = nix::sys::prctl::set_no_new_privs() {
        fail(&format!("cannot set no_new_privs: {e}"));
    }
    if let Err(e) = landlock(plan) {
        fail(&e);
    }
    if plan.walls.syscalls {
        if let Err(e) = seccomp::install() {
            fail(&e);
        }
    }
    let (program, rest) = plan.argv.split_first().expect("a plan has a command");
    let err = std::process::Command::new(&plan.exec)
        .arg0(program)
        .args(rest)
        .env_clear()
        .envs(plan.env.iter().map(|(k, v)| (k, v)))
        .exec();
    fail(&format!("cannot run {}: {err}", program.to_string_lossy()))
}

/// The per-process limits: memory, processes, CPU time, file size; no core files.
fn limits(w: &Sandbox) -> Result<(), String> {
    let limit = |resource, value: Option<u64>, name: &str| -> Result<(), String> {
        match value {
            Some(v) => setrlimit(resource, v, v).map_err(|e| format!("cannot limit {name}: {e}")),
            None => Ok(()),
        }
    };
    limit(Resource::RLIMIT_DATA, w.memory, "memory")?;
    limit(Resource::RLIMIT_NPROC, w.processes, "processes")?;
    limit(Resource::RLIMIT_FSIZE, w.file_size, "file size")?;
    limit(Resource::RLIMIT_CORE, Some(0), "core files")?;
    // The hard limit a second above the soft one: at the soft limit the kernel sends SIGXCPU
    // (which the referee reads as the limit), at the hard one SIGKILL.
    if let Some(cpu) = w.cpu {
        setrlimit(Resource::RLIMIT_CPU, cpu, cpu + 1)
            .map_err(|e| format!("cannot limit CPU time: {e}"))?;
    }
    Ok(())
}

/// Every capability gone, from every set: the box's user holds none, even in its own
/// namespaces, and can gain none by executing anything.
fn drop_capabilities() -> Result<(), String> {
    let e = |e: caps::errors::CapsError| format!("cannot drop capabilities: {e}");
    caps::clear(None, CapSet::Ambient).map_err(e)?;
    for cap in caps::all() {
        caps::drop(None, CapSet::Bounding, cap).map_err(e)?;
    }
    caps::clear(None, CapSet::Inheritable).map_err(e)?;
    caps::clear(None, CapSet::Effective).map_err(e)?;
    caps::clear(None, CapSet::Permitted).map_err(e)
}

/// Landlock, a second wall behind the namespaces: inside its root the box reads and runs
/// anything and writes only its `/tmp`, `/dev/shm`, a build's folder and the harmless devices;
/// no TCP without the network; no signal or abstract socket outside its own domain. Where the
/// kernel has less of Landlock, what it has is used (`quads sandbox` says what).
fn landlock(plan: &Plan) -> Result<(), String> {
    let w = &plan.walls;
    if !w.filesystem && w.network && !w.isolation {
        return Ok(());
    }
    let abi = ABI::V6;
    let err = |e: landlock::RulesetError| format!("Landlock: {e}");
    let mut ruleset = Ruleset::default().set_compatibility(CompatLevel::BestEffort);
    if w.filesystem {
        ruleset = ruleset
            .handle_access(AccessFs::from_all(abi))
            .map_err(err)?;
    }
    if !w.network {
        ruleset = ruleset
            .handle_access(AccessNet::BindTcp | AccessNet::ConnectTcp)
            .map_err(err)?;
    }
    if w.isolation {
        ruleset = ruleset
            .scope(Scope::Signal | Scope::AbstractUnixSocket)
            .map_err(err)?;
    }
    let mut created = ruleset.create().map_err(err)?;
    if w.filesystem {
        let mut rules: Vec<(&Path, landlock::BitFlags<AccessFs>)> =
            vec![(Path::new("/"), AccessFs::from_read(abi))];
        for p in ["/tmp", "/dev/shm"] {
            rules.push((Path::new(p), AccessFs::from_all(abi)));
        }
        if plan.work.is_some() {
            rules.push((plan.folder.as_path(), AccessFs::from_all(abi)));
        }
        let device = AccessFs::ReadFile | AccessFs::WriteFile;
        let devices: Vec<std::path::PathBuf> = ["null", "zero", "full", "random", "urandom"]
            .iter()
            .map(|d| Path::new("/dev").join(d))
            .collect();
        for d in &devices {
            rules.push((d.as_path(), device));
        }
        for (path, access) in rules {
            let Ok(fd) = PathFd::new(path) else { continue };
            let access = if path.is_dir() {
                access
            } else {
                access & AccessFs::from_file(abi)
            };
            created = created
                .add_rule(PathBeneath::new(fd, access))
                .map_err(err)?;
        }
    }
    created.restrict_self().map_err(err)?;
    Ok(())
}

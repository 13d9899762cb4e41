//! What this machine can enforce, asked once per run (`quads-jail --probe`), and a spec turned
//! into the walls that will really stand: a default protection the machine cannot give is
//! dropped (or, for memory, kept per process) with a warning; one the user named is an error
//! before the first game.

use std::path::PathBuf;
use std::sync::OnceLock;

use crate::spec::SandboxSpec;
use crate::walls::Sandbox;

/// The launcher's file name.
pub const JAIL: &str = "quads-jail";

/// What `quads-jail --probe` found: per protection, `None` when it holds or why it does not.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Probe {
    /// `(protection, None when enforced or Some(reason))`, in the probe's order.
    pub protections: Vec<(String, Option<String>)>,
}

impl Probe {
    /// Reads the probe's output.
    pub fn parse(text: &str) -> Probe {
        let protections = text
            .lines()
            .filter_map(|l| {
                let mut words = l.splitn(3, ' ');
                let name = words.next()?.to_owned();
                match words.next()? {
                    "on" => Some((name, None)),
                    _ => Some((name, Some(words.next().unwrap_or("").to_owned()))),
                }
            })
            .collect();
        Probe { protections }
    }

    /// Why `name` is off, or `None` if it holds here.
    pub fn off(&self, name: &str) -> Option<&str> {
        match self.protections.iter().find(|(n, _)| n == name) {
            Some((_, why)) => why.as_deref(),
            None => Some("not reported by the probe"),
        }
    }
}

/// Where `quads-jail` is: `$QUADS_JAIL` if set, else beside the running program or one folder
/// up (test programs run from `target/release/deps`).
pub fn jail_path() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("QUADS_JAIL") {
        return Some(PathBuf::from(path));
    }
    let exe = std::env::current_exe().ok()?;
    let here = exe.parent()?;
    [here.join(JAIL), here.parent()?.join(JAIL)]
        .into_iter()
        .find(|p| p.is_file())
}

/// Why the launcher cannot run on this machine at all.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Unavailable {
    /// `quads-jail` is not beside the referee (nor named by `$QUADS_JAIL`).
    #[error("{JAIL} is not beside the referee: build it with `cargo build --release --workspace`")]
    NoLauncher,
    /// It could not be started.
    #[error("cannot run {}: {why}", path.display())]
    CannotRun {
        /// The launcher.
        path: PathBuf,
        /// The system's words.
        why: String,
    },
    /// Its probe failed.
    #[error("{} --probe failed: {stderr}", path.display())]
    ProbeFailed {
        /// The launcher.
        path: PathBuf,
        /// What it said.
        stderr: String,
    },
}

/// A wall asked for by name that this machine cannot give.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum WallError {
    /// Walls were named, and the launcher cannot run.
    #[error("the sandbox cannot run on this machine: {0}")]
    CannotRun(Unavailable),
    /// This wall cannot be enforced here.
    #[error("the sandbox cannot enforce `{wall}` on this machine: {why}")]
    CannotEnforce {
        /// The wall, as `quads sandbox` names it.
        wall: &'static str,
        /// Why, as the probe says.
        why: String,
    },
}

/// Runs `quads-jail --probe`: which protections this machine enforces.
pub fn probe() -> Result<Probe, Unavailable> {
    let jail = jail_path().ok_or(Unavailable::NoLauncher)?;
    let out = std::process::Command::new(&jail)
        .arg("--probe")
        .stdin(std::process::Stdio::null())
        .output()
        .map_err(|e| Unavailable::CannotRun {
            path: jail.clone(),
            why: e.to_string(),
        })?;
    if !out.status.success() {
        return Err(Unavailable::ProbeFailed {
            path: jail,
            stderr: String::from_utf8_lossy(&out.stderr).trim().to_owned(),
        });
    }
    Ok(Probe::parse(&String::from_utf8_lossy(&out.stdout)))
}

/// This machine's probe, run once (`Err` when `quads-jail` cannot run at all).
pub fn machine() -> &'static Result<Probe, Unavailable> {
    static MACHINE: OnceLock<Result<Probe, Unavailable>> = OnceLock::new();
    MACHINE.get_or_init(probe)
}

/// Why `protection` cannot be had here, if it cannot.
fn missing(machine: &Result<Probe, Unavailable>, protection: &str) -> Option<String> {
    match machine {
        Err(why) => Some(why.to_string()),
        Ok(p) => p.off(protection).map(str::to_owned),
    }
}

/// The walls `spec` asks for that `machine` can build, and a warning for each default
/// protection left out (or, for memory, kept per process only). Fails, naming it, on a
/// protection the spec names that cannot be had.
pub fn enforce_on(
    spec: &SandboxSpec,
    machine: &Result<Probe, Unavailable>,
) -> Result<(Sandbox, Vec<String>), WallError> {
    let mut s = spec.sandbox.clone();
    if !s.is_on() {
        return Ok((Sandbox::OFF, Vec::new()));
    }
    let mut warnings = Vec::new();
    if let Err(why) = machine {
        if !spec.named.is_empty() {
            return Err(WallError::CannotRun(why.clone()));
        }
        return Ok((
            Sandbox::OFF,
            vec![format!("the sandbox is off on this machine: {why}")],
        ));
    }
    let named = |n: &str| spec.named.contains(&n);
    let wanted: [(&str, bool); 7] = [
        ("filesystem", s.filesystem),
        ("isolation", s.isolation),
        ("network", !s.network),
        ("syscalls", s.syscalls),
        ("memory", s.memory.is_some()),
        ("processes", s.processes.is_some()),
        ("cores", s.cores.is_some()),
    ];
    for (name, on) in wanted {
        let Some(why) = on.then(|| missing(machine, name)).flatten() else {
            continue;
        };
        if named(name) {
            return Err(WallError::CannotEnforce { wall: name, why });
        }
        match name {
            "filesystem" => s.filesystem = false,
            "isolation" => s.isolation = false,
            "network" => s.network = true,
            "syscalls" => s.syscalls = false,
            // RLIMIT_DATA still holds for each process.
            "memory" => {
                warnings.push(format!(
                    "the sandbox's `memory` limit holds per process only on this machine (RLIMIT_DATA): {why}"
                ));
                continue;
            }
            "processes" => s.processes = None,
            _ => s.cores = None,
        }
        warnings.push(format!(
            "the sandbox's `{name}` protection is off on this machine: {why}"
        ));
    }
    for layer in ["landlock", "privileges"] {
        if let Some(why) = missing(machine, layer) {
            warnings.push(format!(
                "the sandbox's `{layer}` layer is off on this machine: {why}"
            ));
        }
    }
    Ok((s, warnings))
}

/// [`enforce_on`] this machine.
pub fn enforce(spec: &SandboxSpec) -> Result<(Sandbox, Vec<String>), WallError> {
    if !spec.sandbox.is_on() {
        return Ok((Sandbox::OFF, Vec::new()));
    }
    enforce_on(spec, machine())
}

/// Why this machine cannot stop a whole box (the freezer), if it cannot: then a paused bot's
/// process group is stopped with SIGSTOP, and a process that left it is not.
pub fn pause_off() -> Option<String> {
    missing(machine(), "pause")
}

/// Before a run: the warnings for every bot's walls (each once), or the first protection asked
/// for that this machine cannot give.
pub fn preflight<'a>(
    specs: impl IntoIterator<Item = &'a SandboxSpec>,
) -> Result<Vec<String>, WallError> {
    let mut warnings: Vec<String> = Vec::new();
    for spec in specs {
        for w in enforce(spec)?.1 {
            if !warnings.contains(&w) {
                warnings.push(w);
            }
        }
    }
    Ok(warnings)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn probe(text: &str) -> Result<Probe, Unavailable> {
        Ok(Probe::parse(text))
    }

    const ALL_ON: &str = "filesystem on\ntmp on\nisolation on\nnetwork on\nmemory on\nprocesses on\ncores on\npause on\ncpu on\nfile_size on\nsyscalls on\nlandlock on\nprivileges on\n";

    #[test]
    fn what_the_machine_gives_is_kept() {
        let spec = SandboxSpec::default();
        assert_eq!(
            enforce_on(&spec, &probe(ALL_ON)),
            Ok((Sandbox::default(), vec![]))
        );
    }

    #[test]
    fn a_default_the_machine_lacks_is_dropped_with_a_warning() {
        let no_cgroups = ALL_ON
            .replace("memory on", "memory off no memory cgroup")
            .replace("cores on", "cores off no cpu cgroup")
            .replace("landlock on", "landlock off Landlock: not supported");
        let (s, w) = enforce_on(&SandboxSpec::default(), &probe(&no_cgroups)).unwrap();
        assert_eq!(
            (s.memory, s.cores, s.filesystem),
            (Some(1 << 30), None, true)
        );
        assert_eq!(
            w,
            [
                "the sandbox's `memory` limit holds per process only on this machine (RLIMIT_DATA): no memory cgroup",
                "the sandbox's `cores` protection is off on this machine: no cpu cgroup",
                "the sandbox's `landlock` layer is off on this machine: Landlock: not supported",
            ]
        );
        let no_jail: Result<Probe, Unavailable> = Err(Unavailable::NoLauncher);
        let (s, w) = enforce_on(&SandboxSpec::default(), &no_jail).unwrap();
        assert_eq!(s, Sandbox::OFF);
        assert_eq!(
            w,
            ["the sandbox is off on this machine: quads-jail is not beside the referee: build it with `cargo build --release --workspace`"]
        );
    }

    #[test]
    fn a_named_protection_the_machine_lacks_is_an_error() {
        let spec: SandboxSpec = "memory=256MiB".parse().unwrap();
        let no_memcg = ALL_ON.replace("memory on", "memory off no memory cgroup");
        let e = enforce_on(&spec, &probe(&no_memcg)).unwrap_err();
        assert_eq!(
            e.to_string(),
            "the sandbox cannot enforce `memory` on this machine: no memory cgroup"
        );
        assert_eq!(
            enforce_on(&spec, &probe(&no_memcg)),
            Err(WallError::CannotEnforce {
                wall: "memory",
                why: "no memory cgroup".to_owned()
            })
        );
        assert_eq!(
            enforce_on(
                &"isolation=on".parse().unwrap(),
                &probe(&ALL_ON.replace("isolation on", "isolation off no PID namespace"))
            ),
            Err(WallError::CannotEnforce {
                wall: "isolation",
                why: "no PID namespace".to_owned()
            })
        );
    }
}

//! A box as the referee plans it and the launcher builds it: the walls, what it shows, its
//! cgroups, its environment and what it runs. [`Plan::args`] writes it as the launcher's
//! arguments and [`Plan::parse`] reads them back: the one format, defined here.

use std::ffi::{OsStr, OsString};
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

use crate::cgroup::{BoxDir, Kind};
use crate::walls::Sandbox;

/// A build's folder: a tmpfs of `size` bytes at the plan's folder, filled from `from` before
/// the command runs and, when it succeeds, copied back to the plan's folder outside.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Work {
    /// The folder whose files the build starts from (shown read-only at its own path).
    pub from: PathBuf,
    /// The most the build's folder may hold.
    pub size: u64,
}

/// Everything the launcher needs for one box.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    /// The walls, as this machine can build them.
    pub walls: Sandbox,
    /// The bot's own folder: shown read-only at its own path, and its working directory.
    pub folder: PathBuf,
    /// More to show read-only at their own paths: a program file that lies elsewhere, an
    /// interpreter's installation.
    pub shown: Vec<PathBuf>,
    /// For a build: its writable folder.
    pub work: Option<Work>,
    /// The box's cgroup folders (created by the launcher, removed when the box is gone).
    pub cgroups: Vec<BoxDir>,
    /// When the referee is root: the unprivileged user and group id the box runs as.
    pub id: Option<u32>,
    /// The process whose end ends the box (the referee).
    pub parent: Option<u32>,
    /// The secret that marks the launcher's last report on stderr (see [`crate::report`]).
    /// It travels in the launcher's environment ([`NONCE_VAR`]), not among its arguments: a
    /// box can read its init's command line, never its environment.
    pub nonce: Option<String>,
    /// The whole environment of the command.
    pub env: Vec<(OsString, OsString)>,
    /// The file the launcher executes.
    pub exec: PathBuf,
    /// The command's words, `argv[0]` as the user wrote it.
    pub argv: Vec<OsString>,
}

/// The launcher's environment variable that carries [`Plan::nonce`].
pub const NONCE_VAR: &str = "QUADS_JAIL_NONCE";

/// Launcher arguments that do not read as a plan.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[non_exhaustive]
pub enum PlanError {
    /// A flag without its value.
    #[error("{0} takes a value")]
    NoValue(String),
    /// A flag whose value is not a whole number.
    #[error("{0} takes a whole number")]
    NotANumber(String),
    /// A cgroup kind the launcher does not know.
    #[error("--cgroup: unknown kind {0}")]
    CgroupKind(String),
    /// An `--env` without `=`.
    #[error("--env takes KEY=VALUE")]
    Env,
    /// An argument the launcher does not take.
    #[error("unknown argument {0}")]
    Unknown(String),
    /// Nothing to run.
    #[error("no command after --")]
    NoCommand,
    /// A relative `--folder`.
    #[error("--folder takes an absolute path")]
    RelativeFolder,
    /// One of `--work-from` and `--work-size` without the other.
    #[error("--work-from and --work-size go together")]
    HalfWork,
}

impl Plan {
    /// The launcher's arguments.
    pub fn args(&self) -> Vec<OsString> {
        let mut a: Vec<OsString> = Vec::new();
        let mut flag = |name: &str, value: Option<String>| {
            if let Some(v) = value {
                a.push(format!("--{name}").into());
                a.push(v.into());
            }
        };
        let w = &self.walls;
        flag("memory", w.memory.map(|v| v.to_string()));
        flag("processes", w.processes.map(|v| v.to_string()));
        flag("cpu", w.cpu.map(|v| v.to_string()));
        flag("cores", w.cores.map(|v| v.to_string()));
        flag("file-size", w.file_size.map(|v| v.to_string()));
        flag("tmp", Some(w.tmp.to_string()));
        flag("id", self.id.map(|v| v.to_string()));
        flag("parent", self.parent.map(|v| v.to_string()));
        for (on, name) in [
            (!w.network, "--no-network"),
            (w.filesystem, "--filesystem"),
            (w.isolation, "--isolation"),
            (w.syscalls, "--syscalls"),
        ] {
            if on {
                a.push(name.into());
            }
        }
        a.push("--folder".into());
        a.push(self.folder.clone().into());
        for p in &self.shown {
            a.push("--show".into());
            a.push(p.clone().into());
        }
        if let Some(work) = &self.work {
            a.push("--work-from".into());
            a.push(work.from.clone().into());
            a.push("--work-size".into());
            a.push(work.size.to_string().into());
        }
        for d in &self.cgroups {
            a.push("--cgroup".into());
            a.push(d.kind.arg().into());
            a.push(d.path.clone().into());
        }
        for (k, v) in &self.env {
            let mut kv = k.clone();
            kv.push("=");
            kv.push(v);
            a.push("--env".into());
            a.push(kv);
        }
        a.push("--exec".into());
        a.push(self.exec.clone().into());
        a.push("--".into());
        a.extend(self.argv.iter().cloned());
        a
    }

    /// Reads [`Plan::args`] back.
    pub fn parse(args: Vec<OsString>) -> Result<Plan, PlanError> {
        let mut p = Plan {
            walls: Sandbox {
                network: true,
                filesystem: false,
                isolation: false,
                syscalls: false,
                ..Sandbox::OFF
            },
            folder: PathBuf::new(),
            shown: Vec::new(),
            work: None,
            cgroups: Vec::new(),
            id: None,
            parent: None,
            nonce: None,
            env: Vec::new(),
            exec: PathBuf::new(),
            argv: Vec::new(),
        };
        let mut work_from = None;
        let mut work_size = None;
        let mut it = args.into_iter();
        while let Some(arg) = it.next() {
            let name = arg.to_string_lossy().into_owned();
            let mut value = || it.next().ok_or_else(|| PlanError::NoValue(name.clone()));
            let number = |v: OsString| -> Result<u64, PlanError> {
                v.to_str()
                    .and_then(|t| t.parse().ok())
                    .ok_or_else(|| PlanError::NotANumber(name.clone()))
            };
            match name.as_str() {
                "--memory" => p.walls.memory = Some(number(value()?)?),
                "--processes" => p.walls.processes = Some(number(value()?)?),
                "--cpu" => p.walls.cpu = Some(number(value()?)?),
                "--cores" => p.walls.cores = Some(number(value()?)? as u32),
                "--file-size" => p.walls.file_size = Some(number(value()?)?),
                "--tmp" => p.walls.tmp = number(value()?)?,
                "--id" => p.id = Some(number(value()?)? as u32),
                "--parent" => p.parent = Some(number(value()?)? as u32),
                "--no-network" => p.walls.network = false,
                "--filesystem" => p.walls.filesystem = true,
                "--isolation" => p.walls.isolation = true,
                "--syscalls" => p.walls.syscalls = true,
                "--folder" => p.folder = value()?.into(),
                "--show" => p.shown.push(value()?.into()),
                "--work-from" => work_from = Some(PathBuf::from(value()?)),
                "--work-size" => work_size = Some(number(value()?)?),
                "--cgroup" => {
                    let kind = value()?;
                    let kind = Kind::parse(&kind.to_string_lossy()).ok_or_else(|| {
                        PlanError::CgroupKind(kind.to_string_lossy().into_owned())
                    })?;
                    p.cgroups.push(BoxDir {
                        kind,
                        path: value()?.into(),
                    });
                }
                "--env" => {
                    let kv = value()?;
                    let bytes = kv.as_bytes();
                    let at = bytes
                        .iter()
                        .position(|&b| b == b'=')
                        .ok_or(PlanError::Env)?;
                    p.env.push((
                        OsStr::from_bytes(&bytes[..at]).into(),
                        OsStr::from_bytes(&bytes[at + 1..]).into(),
                    ));
                }
                "--exec" => p.exec = value()?.into(),
                "--" => {
                    p.argv = it.collect();
                    break;
                }
                other => return Err(PlanError::Unknown(other.to_owned())),
            }
        }
        if p.argv.is_empty() || p.exec.as_os_str().is_empty() {
            return Err(PlanError::NoCommand);
        }
        if !p.folder.is_absolute() {
            return Err(PlanError::RelativeFolder);
        }
        p.work = match (work_from, work_size) {
            (Some(from), Some(size)) => Some(Work { from, size }),
            (None, None) => None,
            _ => return Err(PlanError::HalfWork),
        };
        Ok(p)
    }

    /// The folders the box shows read-only at their own paths, the system's included (those
    /// this machine has), in the order they are mounted.
    pub fn read_only(&self) -> Vec<PathBuf> {
        let mut all: Vec<PathBuf> = crate::resolve::SYSTEM
            .iter()
            .map(PathBuf::from)
            .filter(|p| p.exists())
            .chain(self.shown.iter().cloned())
            .chain(self.work.as_ref().map(|w| w.from.clone()))
            .chain(self.work.is_none().then(|| self.folder.clone()))
            .collect();
        // Parents first, and nothing a folder already shown holds.
        all.sort_by_key(|p| p.components().count());
        let mut out: Vec<PathBuf> = Vec::new();
        for p in all {
            if !out.iter().any(|o| p.starts_with(o)) {
                out.push(p);
            }
        }
        out
    }
}

/// The environment a box gets: `PATH` (the interpreters' folders, then the system's), `HOME`
/// and `TMPDIR` (its `/tmp`), `LANG` (the referee's, or `C.UTF-8`), then `extra` (what the
/// bot's configuration sets), in that order. Nothing else of the referee's environment.
pub fn environment(path_dirs: &[PathBuf], extra: &[(String, String)]) -> Vec<(OsString, OsString)> {
    let mut path = OsString::new();
    for d in path_dirs {
        path.push(d);
        path.push(":");
    }
    path.push(crate::resolve::BOX_PATH);
    let lang = std::env::var_os("LANG").unwrap_or_else(|| "C.UTF-8".into());
    let mut env: Vec<(OsString, OsString)> = vec![
        ("PATH".into(), path),
        ("HOME".into(), "/tmp".into()),
        ("TMPDIR".into(), "/tmp".into()),
        ("LANG".into(), lang),
    ];
    for (k, v) in extra {
        env.retain(|(old, _)| old != Path::new(k).as_os_str());
        env.push((k.into(), v.into()));
    }
    env
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cgroup::Controller;

    #[test]
    fn a_plan_reads_back_from_its_arguments() {
        let plan = Plan {
            walls: Sandbox::default(),
            folder: "/srv/bots/ann".into(),
            shown: vec!["/root/.pyenv/versions/3.11.7".into()],
            work: Some(Work {
                from: "/srv/entrants/ann".into(),
                size: 1 << 30,
            }),
            cgroups: vec![
                BoxDir {
                    kind: Kind::V1(vec![Controller::Memory]),
                    path: "/sys/fs/cgroup/memory/quads-arena/1-2".into(),
                },
                BoxDir {
                    kind: Kind::V2(vec![]),
                    path: "/sys/fs/cgroup/unified/quads-arena/1-2".into(),
                },
            ],
            id: Some(200_001),
            parent: Some(4242),
            nonce: Some("n0nce".into()),
            env: environment(
                &["/root/.pyenv/versions/3.11.7/bin".into()],
                &[("A".into(), "b=c".into())],
            ),
            exec: "/root/.pyenv/versions/3.11.7/bin/python3.11".into(),
            argv: vec!["python3".into(), "bot.py".into()],
        };
        assert_eq!(
            Plan::parse(plan.args()),
            Ok(Plan {
                nonce: None,
                ..plan.clone()
            })
        );
        let off = Plan {
            walls: Sandbox {
                tmp: 1 << 20,
                ..Sandbox::OFF
            },
            work: None,
            cgroups: vec![],
            id: None,
            parent: None,
            nonce: None,
            ..plan
        };
        assert_eq!(Plan::parse(off.args()), Ok(off));
        assert_eq!(
            Plan::parse(vec!["--memory".into(), "x".into()]),
            Err(PlanError::NotANumber("--memory".into()))
        );
        assert_eq!(
            Plan::parse(vec![
                "--folder".into(),
                "a".into(),
                "--exec".into(),
                "/bin/true".into(),
                "--".into(),
                "true".into()
            ]),
            Err(PlanError::RelativeFolder)
        );
    }

    #[test]
    fn the_environment_is_an_allow_list() {
        let env = environment(
            &["/opt/lang/bin".into()],
            &[
                ("LANG".into(), "sl_SI.UTF-8".into()),
                ("JAVA_TOOL_OPTIONS".into(), "-Xss4m".into()),
            ],
        );
        let text: Vec<String> = env
            .iter()
            .map(|(k, v)| format!("{}={}", k.to_string_lossy(), v.to_string_lossy()))
            .collect();
        assert_eq!(
            text,
            [
                format!("PATH=/opt/lang/bin:{}", crate::resolve::BOX_PATH),
                "HOME=/tmp".to_owned(),
                "TMPDIR=/tmp".to_owned(),
                "LANG=sl_SI.UTF-8".to_owned(),
                "JAVA_TOOL_OPTIONS=-Xss4m".to_owned(),
            ]
        );
    }
}

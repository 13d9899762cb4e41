//! `quads-jail`: sets up the walls in its own process, then executes the bot's command.
//!
//! `quads-jail [--memory BYTES] [--processes N] [--cpu SECONDS] [--file-size BYTES]
//! [--no-network] [--isolate] [--read PATH]... [--write PATH]... -- PROGRAM [ARGS...]`
//!
//! `quads-jail --probe` sets up every wall in a throwaway process and prints one line per
//! protection: `NAME on` or `NAME off REASON`. A wall that cannot be built stops the launcher
//! with status 125 and one line on stderr, so a bot never runs with less than it was given.

use std::ffi::OsString;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};

use landlock::{
    Access, AccessFs, AccessNet, CompatLevel, Compatible, Ruleset, RulesetAttr, RulesetCreatedAttr,
    RulesetStatus, Scope, ABI,
};
use nix::sys::resource::{setrlimit, Resource};
use nix::unistd::getuid;

use super::userns;

/// The status the launcher exits with when it cannot build a wall.
pub const FAILED: i32 = 125;

/// What `quads-jail --probe` found: per protection, `Ok(())` or why it is off.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Probe {
    /// `(protection, None when enforced or Some(reason))`, in a fixed order.
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

    /// Why `name` is off, or `None` if it is enforced here.
    pub fn off(&self, name: &str) -> Option<&str> {
        self.protections
            .iter()
            .find(|(n, _)| n == name)
            .and_then(|(_, why)| why.as_deref())
    }
}

/// What the launcher was asked for.
#[derive(Default, Debug)]
struct Walls {
    memory: Option<u64>,
    processes: Option<u64>,
    cpu: Option<u64>,
    file_size: Option<u64>,
    no_network: bool,
    isolate: bool,
    read: Vec<PathBuf>,
    write: Vec<PathBuf>,
    probe: bool,
    /// The bot's own id outside, when the referee is root.
    bot_id: Option<u64>,
    /// Set on the second stage that a root launcher starts (see `userns`).
    stage_two: bool,
    /// Probe helper: whether starting processes fails under this process's limit.
    fork_test: bool,
    command: Vec<OsString>,
}

fn parse(args: Vec<OsString>) -> Result<Walls, String> {
    let mut w = Walls::default();
    let mut it = args.into_iter();
    while let Some(arg) = it.next() {
        let arg = arg.to_string_lossy().into_owned();
        let number = |it: &mut std::vec::IntoIter<OsString>| -> Result<u64, String> {
            it.next()
                .and_then(|v| v.to_str().and_then(|v| v.parse().ok()))
                .ok_or_else(|| format!("{arg} takes a whole number"))
        };
        match arg.as_str() {
            "--memory" => w.memory = Some(number(&mut it)?),
            "--processes" => w.processes = Some(number(&mut it)?),
            "--cpu" => w.cpu = Some(number(&mut it)?),
            "--file-size" => w.file_size = Some(number(&mut it)?),
            "--no-network" => w.no_network = true,
            "--isolate" => w.isolate = true,
            "--probe" => w.probe = true,
            "--bot-id" => w.bot_id = Some(number(&mut it)?),
            "--stage-two" => w.stage_two = true,
            "--fork-test" => w.fork_test = true,
            "--read" => w.read.push(it.next().ok_or("--read takes a path")?.into()),
            "--write" => w
                .write
                .push(it.next().ok_or("--write takes a path")?.into()),
            "--" => {
                w.command = it.collect();
                break;
            }
            other => return Err(format!("unknown argument {other}")),
        }
    }
    if w.command.is_empty() && !w.probe && !w.fork_test {
        return Err("no command after --".to_owned());
    }
    Ok(w)
}

/// The launcher's `main`: builds the walls and executes the command, or exits with
/// [`FAILED`] and one line on stderr.
pub fn jail_main() -> ! {
    let walls = match parse(std::env::args_os().skip(1).collect()) {
        Ok(w) => w,
        Err(e) => fail(&e),
    };
    if walls.probe {
        probe();
    }
    if walls.fork_test {
        fork_test();
    }
    if getuid().is_root() && walls.processes.is_some() && !walls.stage_two {
        let mut stage_two = std::process::Command::new(
            std::env::current_exe().unwrap_or_else(|e| fail(&format!("cannot find itself: {e}"))),
        );
        stage_two
            .arg("--stage-two")
            .args(std::env::args_os().skip(1));
        let id = walls.bot_id.unwrap_or(u64::from(userns::FIRST_BOT_ID)) as u32;
        match userns::supervise(&mut stage_two, id) {
            Err(e) => fail(&e),
            Ok(never) => match never {},
        }
    }
    if let Err(e) = build(&walls) {
        fail(&e);
    }
    let (program, args) = walls.command.split_first().expect("checked: a command");
    let err = std::process::Command::new(program).args(args).exec();
    fail(&format!("cannot run {}: {err}", program.to_string_lossy()))
}

fn fail(why: &str) -> ! {
    eprintln!("quads-jail: {why}");
    std::process::exit(FAILED)
}

/// Every wall asked for, in order: namespaces, limits, then Landlock (which also sets
/// `no_new_privs`).
fn build(w: &Walls) -> Result<(), String> {
    if w.stage_two {
        userns::enter_as_bot(w.no_network)?;
    } else if w.processes.is_some() || w.no_network {
        userns::enter_as_user(w.no_network)?;
    }
    let limit = |resource, value: Option<u64>, name: &str| -> Result<(), String> {
        match value {
            Some(v) => setrlimit(resource, v, v).map_err(|e| format!("cannot limit {name}: {e}")),
            None => Ok(()),
        }
    };
    limit(Resource::RLIMIT_DATA, w.memory, "memory")?;
    limit(Resource::RLIMIT_NPROC, w.processes, "processes")?;
    // The hard limit a second above the soft one: at the soft limit the kernel sends SIGXCPU
    // (which the referee reads as the limit), at the hard one SIGKILL.
    if let Some(cpu) = w.cpu {
        setrlimit(Resource::RLIMIT_CPU, cpu, cpu + 1)
            .map_err(|e| format!("cannot limit CPU time: {e}"))?;
    }
    limit(Resource::RLIMIT_FSIZE, w.file_size, "file size")?;
    nix::sys::prctl::set_no_new_privs().map_err(|e| format!("cannot set no_new_privs: {e}"))?;
    landlock(w)
}

/// Folders every program needs to read and run: the system's libraries, interpreters and
/// settings.
const SYSTEM: [&str; 9] = [
    "/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/etc", "/opt", "/sys",
];
/// Devices a program may read and write.
const DEVICES: [&str; 5] = [
    "/dev/null",
    "/dev/zero",
    "/dev/random",
    "/dev/urandom",
    "/dev/tty",
];

/// Landlock: the file system (read and run the system and the bot's own folders, write its
/// temporary folder), TCP when the network is off, signals and abstract sockets when isolated.
fn landlock(w: &Walls) -> Result<(), String> {
    let filesystem = !w.write.is_empty() || !w.read.is_empty();
    if !filesystem && !w.no_network && !w.isolate {
        return Ok(());
    }
    let abi = ABI::V6;
    let err = |e: landlock::RulesetError| format!("Landlock: {e}");
    let mut ruleset = Ruleset::default().set_compatibility(CompatLevel::HardRequirement);
    if filesystem {
        ruleset = ruleset
            .handle_access(AccessFs::from_all(abi))
            .map_err(err)?;
    }
    if w.no_network {
        ruleset = ruleset
            .handle_access(AccessNet::BindTcp | AccessNet::ConnectTcp)
            .map_err(err)?;
    }
    if w.isolate {
        ruleset = ruleset
            .scope(Scope::Signal | Scope::AbstractUnixSocket)
            .map_err(err)?;
    }
    let mut created = ruleset.create().map_err(err)?;
    if filesystem {
        let read = AccessFs::from_read(abi);
        let mut rules: Vec<(PathBuf, _)> = Vec::new();
        for p in SYSTEM
            .iter()
            .map(PathBuf::from)
            .chain(w.read.iter().cloned())
        {
            rules.push((p, read));
        }
        rules.push(("/proc".into(), AccessFs::ReadFile | AccessFs::ReadDir));
        for p in DEVICES.iter().map(PathBuf::from) {
            rules.push((p, AccessFs::ReadFile | AccessFs::WriteFile));
        }
        for p in &w.write {
            rules.push((p.clone(), AccessFs::from_all(abi)));
        }
        for (path, access) in rules {
            let Ok(fd) = landlock::PathFd::new(&path) else {
                continue; // a system folder this machine does not have
            };
            let access = if is_dir(&path) {
                access
            } else {
                access & AccessFs::from_file(abi)
            };
            created = created
                .add_rule(landlock::PathBeneath::new(fd, access))
                .map_err(err)?;
        }
    }
    let status = created.restrict_self().map_err(err)?;
    if status.ruleset != RulesetStatus::FullyEnforced {
        return Err(format!(
            "Landlock is not fully enforced here ({:?})",
            status.ruleset
        ));
    }
    Ok(())
}

fn is_dir(path: &Path) -> bool {
    path.is_dir()
}

/// Sets up each wall in this throwaway process and prints what holds.
fn probe() -> ! {
    let mut lines = Vec::new();
    let mut report = |name: &str, outcome: Result<(), String>| {
        lines.push(match outcome {
            Ok(()) => format!("{name} on"),
            Err(why) => format!("{name} off {why}"),
        });
    };
    report("processes", processes_bind());
    report("network", {
        let net = std::process::Command::new(
            std::env::current_exe()
                .map_err(|e| e.to_string())
                .unwrap_or_default(),
        )
        .args(["--no-network", "--", "/bin/true"])
        .output();
        match net {
            Ok(o) if o.status.success() => Ok(()),
            Ok(o) => Err(String::from_utf8_lossy(&o.stderr).trim().to_owned()),
            Err(e) => Err(e.to_string()),
        }
    });
    report(
        "memory",
        setrlimit(Resource::RLIMIT_DATA, 1 << 40, 1 << 40).map_err(|e| e.to_string()),
    );
    report(
        "cpu",
        setrlimit(Resource::RLIMIT_CPU, 1 << 20, 1 << 20).map_err(|e| e.to_string()),
    );
    report(
        "file_size",
        setrlimit(Resource::RLIMIT_FSIZE, 1 << 40, 1 << 40).map_err(|e| e.to_string()),
    );
    let ruleset = |f: &dyn Fn(Ruleset) -> Result<Ruleset, landlock::RulesetError>| {
        f(Ruleset::default().set_compatibility(CompatLevel::HardRequirement))
            .and_then(Ruleset::create)
            .map(drop)
            .map_err(|e| format!("Landlock: {e}"))
    };
    report(
        "filesystem",
        ruleset(&|r| r.handle_access(AccessFs::from_all(ABI::V6))),
    );
    report(
        "tcp",
        ruleset(&|r| r.handle_access(AccessNet::BindTcp | AccessNet::ConnectTcp)),
    );
    report(
        "isolation",
        ruleset(&|r| r.scope(Scope::Signal | Scope::AbstractUnixSocket)),
    );
    report(
        "no_new_privs",
        nix::sys::prctl::set_no_new_privs().map_err(|e| e.to_string()),
    );
    for l in lines {
        println!("{l}");
    }
    std::process::exit(0)
}

/// Whether a limit of 3 processes, set up as for a bot, stops the fourth.
fn processes_bind() -> Result<(), String> {
    let me = std::env::current_exe().map_err(|e| e.to_string())?;
    let out = std::process::Command::new(&me)
        .args(["--processes", "3", "--"])
        .arg(&me)
        .arg("--fork-test")
        .output()
        .map_err(|e| e.to_string())?;
    match out.status.code() {
        Some(0) => Ok(()),
        Some(1) => Err("RLIMIT_NPROC does not bind here".to_owned()),
        _ => Err(String::from_utf8_lossy(&out.stderr).trim().to_owned()),
    }
}

/// Starts children until one fails: exit 0 if one did within 8, 1 if none did.
fn fork_test() -> ! {
    let mut children = Vec::new();
    for _ in 0..8 {
        match std::process::Command::new("/bin/sleep").arg("5").spawn() {
            Ok(c) => children.push(c),
            Err(_) => {
                for mut c in children {
                    let _ = c.kill();
                    let _ = c.wait();
                }
                std::process::exit(0)
            }
        }
    }
    for mut c in children {
        let _ = c.kill();
        let _ = c.wait();
    }
    std::process::exit(1)
}

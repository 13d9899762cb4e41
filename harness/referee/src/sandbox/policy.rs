//! What a bot's walls are ([`Sandbox`]), with the defaults written once, and how the referee
//! turns them into a `quads-jail` command line.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// The launcher's file name.
pub const JAIL: &str = "quads-jail";

/// The protections of one bot. `None` or `false` turns one off.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sandbox {
    /// Bytes of data memory (heap, anonymous mappings): `RLIMIT_DATA`.
    pub memory: Option<u64>,
    /// Threads and processes: `RLIMIT_NPROC`, counted in a user namespace of the bot's own.
    pub processes: Option<u64>,
    /// CPU seconds for the bot's process: `RLIMIT_CPU`, a runaway guard.
    pub cpu: Option<u64>,
    /// The largest file the bot may write, in bytes: `RLIMIT_FSIZE`.
    pub file_size: Option<u64>,
    /// Whether the bot may use the network; if not, it gets a network namespace of its own
    /// (nothing but a loopback that is down) and Landlock denies TCP.
    pub network: bool,
    /// Whether the file system is limited to reading the bot's own folder and the system's,
    /// and writing its private temporary folder (Landlock).
    pub filesystem: bool,
    /// Whether the bot is kept from signalling, tracing or reading the memory of processes
    /// outside its own group, and from abstract Unix sockets made outside it (Landlock).
    pub isolation: bool,
}

impl Default for Sandbox {
    /// Every protection on: 1 GiB of memory, 64 threads and processes, 10 CPU minutes, 64 MiB
    /// files, no network, the file system and other processes out of reach.
    fn default() -> Sandbox {
        Sandbox {
            memory: Some(1 << 30),
            processes: Some(64),
            cpu: Some(600),
            file_size: Some(64 << 20),
            network: false,
            filesystem: true,
            isolation: true,
        }
    }
}

impl Sandbox {
    /// No protection at all: the bot runs with the referee's rights.
    pub const OFF: Sandbox = Sandbox {
        memory: None,
        processes: None,
        cpu: None,
        file_size: None,
        network: true,
        filesystem: false,
        isolation: false,
    };

    /// Whether anything is on.
    pub fn is_on(&self) -> bool {
        self != &Sandbox::OFF
    }

    /// The launcher's arguments for a bot whose command is `argv`, run in `dir`, with `tmp`
    /// as its private temporary folder.
    pub fn jail_args(
        &self,
        argv: &[String],
        dir: &Path,
        tmp: &Path,
        bot_id: Option<u64>,
    ) -> Vec<OsString> {
        let mut args: Vec<OsString> = Vec::new();
        let mut flag = |name: &str, value: Option<u64>| {
            if let Some(v) = value {
                args.push(format!("--{name}").into());
                args.push(v.to_string().into());
            }
        };
        flag("memory", self.memory);
        flag("processes", self.processes);
        flag("cpu", self.cpu);
        flag("file-size", self.file_size);
        flag("bot-id", bot_id);
        if !self.network {
            args.push("--no-network".into());
        }
        if self.isolation {
            args.push("--isolate".into());
        }
        if self.filesystem {
            for path in readable(argv, dir) {
                args.push("--read".into());
                args.push(path.into());
            }
            args.push("--write".into());
            args.push(tmp.into());
        }
        args.push("--".into());
        args.extend(argv.iter().map(OsString::from));
        args
    }
}

/// The bot's own folders: its working directory, the program's folder, and the folder of the
/// first file among its arguments (the script an interpreter runs), so that `python3 bot.py`
/// and `node ../kits/bot.js` can read what they run. Files named later (data, a path it is
/// told about) give no access.
fn readable(argv: &[String], dir: &Path) -> Vec<PathBuf> {
    let mut out = vec![dir.to_path_buf()];
    let folder = |word: &String| {
        let path = dir.join(word);
        path.is_file()
            .then(|| path.canonicalize().ok()?.parent().map(Path::to_path_buf))
            .flatten()
    };
    let program = argv.first().and_then(folder);
    let script = argv.iter().skip(1).find_map(folder);
    for f in [program, script].into_iter().flatten() {
        if !out.contains(&f) {
            out.push(f);
        }
    }
    out
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

/// Each protection `quads-jail --probe` reports, with what it does by default.
pub const PROTECTIONS: [(&str, &str); 9] = [
    ("processes", "64 threads and processes per bot (RLIMIT_NPROC, in a user namespace of its own)"),
    ("network", "a network namespace of its own: nothing but a loopback that is down"),
    ("memory", "1 GiB of data memory per bot process (RLIMIT_DATA)"),
    ("cpu", "600 CPU seconds per bot process, a runaway guard (RLIMIT_CPU)"),
    ("file_size", "files of at most 64 MiB (RLIMIT_FSIZE)"),
    ("filesystem", "read the bot's own folder and the system's; write only its private TMPDIR (Landlock)"),
    ("tcp", "no TCP connect or bind (Landlock)"),
    ("isolation", "no signals to, tracing of or memory reads from processes outside its group; no abstract sockets made outside (Landlock)"),
    ("no_new_privs", "no set-user-id or file-capability gains"),
];

/// Runs `quads-jail --probe`: which protections this machine enforces.
pub fn probe() -> Result<super::Probe, String> {
    let jail = jail_path().ok_or_else(|| {
        format!(
            "{JAIL} is not beside the referee: build it with `cargo build --release --workspace`"
        )
    })?;
    let out = std::process::Command::new(&jail)
        .arg("--probe")
        .output()
        .map_err(|e| format!("cannot run {}: {e}", jail.display()))?;
    if !out.status.success() {
        return Err(format!(
            "{} --probe failed: {}",
            jail.display(),
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    Ok(super::Probe::parse(&String::from_utf8_lossy(&out.stdout)))
}

/// Whether `program` (run in `dir`) can be started: found on the `PATH` when it has no `/`,
/// a file with an execute bit. Checked before the launcher starts, so that a command that
/// cannot start is the user's error, as without the sandbox, and not the bot's crash.
pub fn runnable(program: &str, dir: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    let executable = |p: &Path| {
        p.metadata()
            .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    };
    let found = if program.contains('/') {
        let path = dir.join(program);
        if path.exists() && !executable(&path) {
            return Err(std::io::Error::from_raw_os_error(13));
        }
        executable(&path)
    } else {
        std::env::var_os("PATH").is_some_and(|paths| {
            std::env::split_paths(&paths).any(|d| executable(&d.join(program)))
        })
    };
    if found {
        Ok(())
    } else {
        Err(std::io::Error::from_raw_os_error(2))
    }
}

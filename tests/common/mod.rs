//! What the integration tests share: a temporary folder per test in which the real `quads`
//! binary runs, the bundled bot next to it, and the games a run recorded.
//!
//! Each test file is its own crate and does `mod common;`, so an item here that one of them
//! does not use says so with an `allow(dead_code)` and its reason.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A test's own temporary folder, removed at the end; `quads` runs in it.
pub struct Quads {
    dir: tempfile::TempDir,
}

impl Quads {
    pub fn new() -> Quads {
        Quads {
            dir: tempfile::tempdir().expect("temporary folder"),
        }
    }

    /// The folder `quads` runs in.
    pub fn dir(&self) -> &Path {
        self.dir.path()
    }

    /// `quads` with arguments, in the folder, not yet started.
    pub fn command(&self, args: &[&str]) -> Command {
        let mut command = Command::new(env!("CARGO_BIN_EXE_quads"));
        command.args(args).current_dir(self.dir());
        command
    }

    /// Runs `quads` to the end, whatever its exit code.
    pub fn run(&self, args: &[&str]) -> Output {
        self.command(args).output().expect("quads runs")
    }

    /// Runs and expects success; returns stdout.
    #[allow(dead_code, reason = "sprt.rs checks its exit codes 0, 1 and 2 itself")]
    pub fn ok(&self, args: &[&str]) -> String {
        let out = self.run(args);
        assert!(
            out.status.success(),
            "quads {args:?} failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).expect("UTF-8 output")
    }

    /// Runs and expects exit code 2 with one line on stderr; returns that line.
    #[allow(dead_code, reason = "sprt.rs checks its exit codes 0, 1 and 2 itself")]
    pub fn fails(&self, args: &[&str]) -> String {
        let out = self.run(args);
        assert_eq!(out.status.code(), Some(2), "quads {args:?}");
        assert!(out.stdout.is_empty(), "no output on stdout for an error");
        let err = String::from_utf8(out.stderr).expect("UTF-8 errors");
        assert_eq!(err.lines().count(), 1, "one-line error, got {err:?}");
        err.trim_end().to_owned()
    }
}

/// The bundled bot, `quads-bot`, built next to `quads`.
#[allow(dead_code, reason = "cli.rs starts no bot")]
pub fn quads_bot() -> PathBuf {
    let bot = Path::new(env!("CARGO_BIN_EXE_quads"))
        .parent()
        .expect("target folder")
        .join("quads-bot");
    assert!(
        bot.exists(),
        "{} is missing: build the workspace (cargo build --release --workspace)",
        bot.display()
    );
    bot
}

/// The records of a `games.jsonl` file, in its order.
#[allow(dead_code, reason = "sprt.rs reads no games")]
pub fn games(path: &Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[allow(dead_code, reason = "used by the soak run and the shards' tests only")]
/// How the result files of two runs differ, timing apart (the records' `timing`, results.csv's
/// duration): the first difference of each file. Two runs of the same config and seed with
/// deterministic bots, however cut into shards, give none. A file missing from either run is a
/// difference (two runs that both failed to write it do not compare equal).
pub fn differences(a: &Path, b: &Path) -> Vec<String> {
    let mut broken = Vec::new();
    let mut missing = |out: &Path, file: &str| -> bool {
        let gone = !out.join(file).is_file();
        if gone {
            broken.push(format!("{} is missing", out.join(file).display()));
        }
        gone
    };
    let lacks = [
        "games.jsonl",
        "results.csv",
        "standings.csv",
        "pairwise.csv",
        "standings.txt",
        "games.pgn",
        "elo.svg",
        "crosstable.svg",
        "convergence.svg",
    ]
    .iter()
    .fold(false, |any, f| missing(a, f) | missing(b, f) | any);
    if lacks {
        return broken;
    }
    let games = |out: &Path| -> Vec<String> {
        games(&out.join("games.jsonl"))
            .into_iter()
            .map(|mut g| {
                if let Some(o) = g.as_object_mut() {
                    o.remove("timing");
                }
                g.to_string()
            })
            .collect()
    };
    let (ga, gb) = (games(a), games(b));
    if ga.len() != gb.len() {
        broken.push(format!(
            "games.jsonl: {} games, then {}",
            ga.len(),
            gb.len()
        ));
    } else if let Some((x, y)) = ga.iter().zip(&gb).find(|(x, y)| x != y) {
        broken.push(format!("games.jsonl differs:\n  {x}\n  {y}"));
    }
    // results.csv ends each row with the game's duration: the one column measured.
    let results = |out: &Path| -> Vec<String> {
        std::fs::read_to_string(out.join("results.csv"))
            .expect("results.csv, checked above")
            .lines()
            .map(|l| l.rsplit_once(',').map_or(l, |(rest, _)| rest).to_owned())
            .collect()
    };
    if results(a) != results(b) {
        broken.push("results.csv differs between the two runs (duration_ms apart)".into());
    }
    for file in [
        "standings.csv",
        "pairwise.csv",
        "standings.txt",
        "games.pgn",
        "elo.svg",
        "crosstable.svg",
        "convergence.svg",
    ] {
        let read = |out: &Path| std::fs::read(out.join(file)).expect("checked above");
        if read(a) != read(b) {
            broken.push(format!("{file} differs between the two runs"));
        }
    }
    broken
}

#[allow(dead_code, reason = "used by the soak run and the limits' tests only")]
/// What one of the referee's bots left alive: a process with its token in the environment
/// (bots with the sandbox off carry `QUADS_ARENA_BOT=<referee pid>-<n>`), and a box of the
/// referee's still in the machine's cgroups (boxes are named `<referee pid>-<n>`; a box's
/// keeper removes it once nothing of the box is left), with what it holds.
pub fn leftovers(referee: u32) -> Vec<String> {
    let prefix = format!("QUADS_ARENA_BOT={referee}-");
    let mut left = Vec::new();
    for entry in std::fs::read_dir("/proc").expect("/proc").flatten() {
        let name = entry.file_name();
        let Some(pid) = name.to_str().and_then(|n| n.parse::<u32>().ok()) else {
            continue;
        };
        let Ok(environ) = std::fs::read(format!("/proc/{pid}/environ")) else {
            continue;
        };
        if environ
            .split(|&b| b == 0)
            .any(|v| v.starts_with(prefix.as_bytes()))
        {
            let cmdline = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
            let cmdline = String::from_utf8_lossy(&cmdline).replace('\0', " ");
            left.push(format!(
                "process {pid} outlived the run: {}",
                cmdline.trim()
            ));
        }
    }
    for dir in boxes_of(referee) {
        let procs = std::fs::read_to_string(format!("{dir}/cgroup.procs")).unwrap_or_default();
        let procs: Vec<&str> = procs.split_whitespace().collect();
        left.push(format!(
            "box {dir} outlived the run, holding [{}]",
            procs.join(", ")
        ));
    }
    left
}

#[allow(dead_code, reason = "used by the tests of what bots leave behind only")]
/// The box folders of referee `pid` in the machine's cgroup hierarchies.
pub fn boxes_of(pid: u32) -> Vec<String> {
    let mut found = Vec::new();
    let mut stack = vec![PathBuf::from("/sys/fs/cgroup")];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for e in entries.flatten() {
            let path = e.path();
            if !e.file_type().is_ok_and(|t| t.is_dir()) {
                continue;
            }
            let name = e.file_name().to_string_lossy().into_owned();
            if dir.ends_with("quads-arena") && name.starts_with(&format!("{pid}-")) {
                found.push(path.display().to_string());
            } else if path.components().count() < 12 {
                stack.push(path);
            }
        }
    }
    found
}

#[allow(dead_code, reason = "used by the tests of what bots leave behind only")]
/// The live processes of the machine whose command line holds `marker` as a word.
pub fn marked(marker: &str) -> Vec<i32> {
    std::fs::read_dir("/proc")
        .expect("/proc")
        .flatten()
        .filter_map(|e| e.file_name().to_str()?.parse::<i32>().ok())
        .filter(|pid| {
            let alive = std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|s| {
                !s.rsplit(')')
                    .next()
                    .unwrap_or("")
                    .trim_start()
                    .starts_with('Z')
            });
            alive
                && std::fs::read(format!("/proc/{pid}/cmdline"))
                    .is_ok_and(|c| c.split(|&b| b == 0).any(|w| w == marker.as_bytes()))
        })
        .collect()
}

/// The variable that turns a skipped test into a failed one. The README's test command
/// (`scripts/test`, and so CI) sets it to 1, so that a run can never pass by skipping.
pub const NO_SKIPS: &str = "QUADS_TEST_NO_SKIPS";

/// Whether this machine has what a test needs: a program on the PATH (`tmux`), a file
/// (`/usr/bin/python3`), or `root`. When something is missing the test should return at once:
/// this says so in one line on the terminal (not captured, so `cargo test` shows it), or, with
/// `QUADS_TEST_NO_SKIPS=1`, fails the test with that line.
#[allow(dead_code, reason = "only the tests that need an outside tool ask")]
pub fn needs(what: &[&str]) -> bool {
    use std::io::Write;
    let missing: Vec<&str> = what.iter().copied().filter(|w| !present(w)).collect();
    if missing.is_empty() {
        return true;
    }
    let test = std::thread::current().name().unwrap_or("a test").to_owned();
    let line = format!(
        "skipped {test}: it needs {}, which this machine lacks (scripts/test installs it)",
        missing.join(", ")
    );
    if std::env::var_os(NO_SKIPS).is_some_and(|v| v == "1") {
        panic!("{line}; {NO_SKIPS}=1 turns a skip into a failure");
    }
    // std::io::stderr(), not eprintln!: the test harness captures the macros only.
    let _ = writeln!(std::io::stderr(), "{line}");
    false
}

fn present(what: &str) -> bool {
    if what == "root" {
        return nix::unistd::geteuid().is_root();
    }
    if what.contains('/') {
        return Path::new(what).exists();
    }
    std::env::var_os("PATH").is_some_and(|path| {
        std::env::split_paths(&path).any(|dir| {
            use std::os::unix::fs::PermissionsExt;
            std::fs::metadata(dir.join(what))
                .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
        })
    })
}

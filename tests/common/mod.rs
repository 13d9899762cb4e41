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

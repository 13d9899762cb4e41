//! A terminal for the tests of `quads play`: a tmux server of the test's own (its socket in a
//! temporary folder), one window of a fixed size running a command, keys sent as a person
//! types them, and the screen read back as text. The server is killed when this is dropped,
//! also when the test fails.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// How long a screen may take to show what a test waits for.
const PATIENCE: Duration = Duration::from_secs(60);

pub struct Tmux {
    socket: PathBuf,
    _dir: tempfile::TempDir,
}

impl Tmux {
    /// Starts `program args...` in `dir`, in a window of `width` × `height`, with `env` set.
    /// When the program exits the shell prints `exited CODE` and waits for a line, so that
    /// what the program printed last can still be read.
    pub fn start(dir: &Path, program: &Path, args: &[&str], env: &[(&str, &str)]) -> Tmux {
        let tmp = tempfile::tempdir().expect("a folder for the socket");
        let socket = tmp.path().join("tmux.sock");
        let quote = |s: &str| format!("'{}'", s.replace('\'', "'\\''"));
        // The caller's locale must not choose the language for a test that did not ask.
        let mut line = "env -u LC_ALL -u LC_MESSAGES -u LANG ".to_owned();
        for (k, v) in env {
            line.push_str(&format!("{k}={} ", quote(v)));
        }
        line.push_str(&quote(&program.display().to_string()));
        for a in args {
            line.push(' ');
            line.push_str(&quote(a));
        }
        let script = format!(
            "cd {} && {line}; echo \"exited $?\"; read x",
            quote(&dir.display().to_string())
        );
        let status = Command::new("tmux")
            .arg("-S")
            .arg(&socket)
            .args([
                "-f",
                "/dev/null",
                "new-session",
                "-d",
                "-s",
                "play",
                "-x",
                "110",
                "-y",
                "32",
            ])
            .arg("sh")
            .arg("-c")
            .arg(script)
            .env("TERM", "xterm-256color")
            .status()
            .expect("tmux runs (Debian's tmux; .ci/run installs it)");
        assert!(status.success(), "tmux new-session failed");
        Tmux { socket, _dir: tmp }
    }

    fn tmux(&self) -> Command {
        let mut c = Command::new("tmux");
        c.arg("-S").arg(&self.socket);
        c
    }

    /// The screen now, as text.
    pub fn screen(&self) -> String {
        let out = self
            .tmux()
            .args(["capture-pane", "-p", "-t", "play"])
            .output()
            .expect("tmux capture-pane");
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// Types `text` (each character a key press).
    pub fn type_text(&self, text: &str) {
        let status = self
            .tmux()
            .args(["send-keys", "-t", "play", "-l", text])
            .status()
            .expect("tmux send-keys");
        assert!(status.success());
    }

    /// Presses keys by tmux's names: `Enter`, `Up`, `F2`, `C-z`, `Escape`.
    pub fn press(&self, keys: &[&str]) {
        let status = self
            .tmux()
            .args(["send-keys", "-t", "play"])
            .args(keys)
            .status()
            .expect("tmux send-keys");
        assert!(status.success());
    }

    /// Waits until the screen satisfies `ok`, and returns it; fails the test with the screen
    /// if it does not within a minute.
    pub fn wait(&self, what: &str, ok: impl Fn(&str) -> bool) -> String {
        let start = Instant::now();
        loop {
            let screen = self.screen();
            if ok(&screen) {
                return screen;
            }
            assert!(
                start.elapsed() < PATIENCE,
                "the screen never showed {what}:\n{screen}"
            );
            // A poll, not a wait for something: the screen is read again until it shows it.
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Waits until the screen shows `text`.
    pub fn wait_for(&self, text: &str) -> String {
        self.wait(&format!("`{text}`"), |s| s.contains(text))
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = self.tmux().arg("kill-server").status();
    }
}

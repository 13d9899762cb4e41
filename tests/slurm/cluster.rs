//! The one-node Slurm cluster the tests start (tests/slurm/up.sh, stopped by down.sh), and
//! what its tests share: waiting on a job, the processes of a command line.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

pub const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// A one-node cluster, stopped when dropped.
pub struct Cluster {
    dir: PathBuf,
    conf: String,
    _turn: std::sync::MutexGuard<'static, ()>,
}

/// One cluster at a time.
static TURN: std::sync::Mutex<()> = std::sync::Mutex::new(());

impl Cluster {
    pub fn up(dir: &Path) -> Cluster {
        let turn = TURN.lock().unwrap_or_else(|e| e.into_inner());
        let out = Command::new("bash")
            .arg(Path::new(ROOT).join("tests/slurm/up.sh"))
            .env("SLURM_DIR", dir)
            .output()
            .expect("bash runs");
        let cluster = Cluster {
            dir: dir.to_owned(),
            conf: String::from_utf8_lossy(&out.stdout).trim().to_owned(),
            _turn: turn,
        };
        assert!(
            out.status.success(),
            "the cluster did not start (needs root, slurm-wlm and munge): {}",
            String::from_utf8_lossy(&out.stderr)
        );
        cluster
    }

    /// A Slurm command (`sbatch`, `scontrol`...) aimed at this cluster.
    pub fn command(&self, program: &str) -> Command {
        let mut command = Command::new(program);
        command.env("SLURM_CONF", &self.conf);
        command
    }

    /// A Slurm command's output; fails the test if the command fails.
    pub fn ok(&self, program: &str, args: &[&str]) -> String {
        let out = self.command(program).args(args).output().expect("runs");
        assert!(
            out.status.success(),
            "{program} {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// A job's (or array task's) state: PENDING, RUNNING, COMPLETED, FAILED...
    pub fn state(&self, job: &str) -> String {
        let shown = self.ok("scontrol", &["show", "job", "-o", job]);
        shown
            .split_whitespace()
            .find_map(|w| w.strip_prefix("JobState="))
            .unwrap_or("UNKNOWN")
            .to_owned()
    }

    /// What the cluster's logs and the jobs' outputs say, for a failure's message.
    pub fn story(&self, out: &Path) -> String {
        let mut text = self.ok("squeue", &["-a", "-l"]);
        for log in [
            self.dir.join("log/slurmctld.log"),
            self.dir.join("log/slurmd.log"),
        ] {
            let all = std::fs::read_to_string(&log).unwrap_or_default();
            let tail: Vec<&str> = all.lines().rev().take(15).collect();
            text += &format!(
                "\n{}:\n{}",
                log.display(),
                tail.into_iter().rev().collect::<Vec<_>>().join("\n")
            );
        }
        for entry in std::fs::read_dir(out).into_iter().flatten().flatten() {
            if entry.path().extension().is_some_and(|e| e == "out") {
                text += &format!(
                    "\n{}:\n{}",
                    entry.path().display(),
                    std::fs::read_to_string(entry.path()).unwrap_or_default()
                );
            }
        }
        text
    }
}

impl Cluster {
    /// configs/slurm/submit.sh: `config` as `shards` shards of one core each into `out`, run
    /// from `dir`; the job ids of the array and of the merge.
    pub fn submit(&self, config: &Path, out: &Path, shards: u32, dir: &Path) -> (String, String) {
        let submitted = self
            .command(&format!("{ROOT}/configs/slurm/submit.sh"))
            .arg(config)
            .arg(out)
            .args([&shards.to_string(), "--cpus-per-task=1"])
            .env("QUADS", env!("CARGO_BIN_EXE_quads"))
            .current_dir(dir)
            .output()
            .unwrap();
        assert!(
            submitted.status.success(),
            "submit.sh: {}",
            String::from_utf8_lossy(&submitted.stderr)
        );
        let ids = String::from_utf8(submitted.stdout).unwrap();
        let (array, merge) = ids.trim().split_once(' ').expect("two job ids");
        (array.to_owned(), merge.to_owned())
    }

    /// Waits for the merge job `merge` to complete (five minutes at most); fails the test with
    /// the cluster's story of `out` if it does anything else.
    pub fn until_merged(&self, merge: &str, out: &Path) {
        let story = || self.story(out);
        wait_for(
            Duration::from_secs(300),
            "the merge job never completed",
            story,
            || {
                let state = self.state(merge);
                assert!(
                    ["PENDING", "RUNNING", "COMPLETING", "COMPLETED"].contains(&state.as_str()),
                    "merge job {state}:\n{}",
                    story()
                );
                state == "COMPLETED"
            },
        );
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        let _ = Command::new("bash")
            .arg(Path::new(ROOT).join("tests/slurm/down.sh"))
            .env("SLURM_DIR", &self.dir)
            .status();
    }
}

/// Waits for `done` to hold, checking every 50 ms; fails the test with `what` and the
/// cluster's story after `limit`.
pub fn wait_for(
    limit: Duration,
    what: &str,
    story: impl Fn() -> String,
    mut done: impl FnMut() -> bool,
) {
    let end = Instant::now() + limit;
    while !done() {
        assert!(
            Instant::now() < end,
            "{what}, after {limit:?}:\n{}",
            story()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The pids of processes whose command line holds every one of `words`.
pub fn pids_with(words: &[&str]) -> Vec<i32> {
    std::fs::read_dir("/proc")
        .unwrap()
        .flatten()
        .filter_map(|e| {
            let pid: i32 = e.file_name().to_str()?.parse().ok()?;
            let cmd = std::fs::read(e.path().join("cmdline")).ok()?;
            let cmd = String::from_utf8_lossy(&cmd).replace('\0', " ");
            words.iter().all(|w| cmd.contains(w)).then_some(pid)
        })
        .collect()
}

pub fn lines(path: &Path) -> usize {
    std::fs::read_to_string(path).map_or(0, |t| t.matches('\n').count())
}

//! A tournament on a real Slurm cluster: a one-node cluster started on this machine
//! (tests/slurm/up.sh; it needs root and Debian's slurm-wlm and munge, which .ci/run installs),
//! the project's own submit script (configs/slurm/submit.sh) sending a 4-shard job array and
//! its merge job, one task killed with SIGKILL mid-shard and requeued, and the merged files
//! compared with one machine's run of the same config; and a `quads serve` event's remote
//! workers as a job array (configs/slurm/worker.sbatch) playing its ladder. The cluster stops at
//! the end of each test, also when it fails; the tests take turns, as one machine has one
//! cluster's ports.

mod common;

use common::Quads;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// A one-node cluster, stopped when dropped.
struct Cluster {
    dir: PathBuf,
    conf: String,
    _turn: std::sync::MutexGuard<'static, ()>,
}

/// One cluster at a time.
static TURN: std::sync::Mutex<()> = std::sync::Mutex::new(());

impl Cluster {
    fn up(dir: &Path) -> Cluster {
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
    fn command(&self, program: &str) -> Command {
        let mut command = Command::new(program);
        command.env("SLURM_CONF", &self.conf);
        command
    }

    /// A Slurm command's output; fails the test if the command fails.
    fn ok(&self, program: &str, args: &[&str]) -> String {
        let out = self.command(program).args(args).output().expect("runs");
        assert!(
            out.status.success(),
            "{program} {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// A job's (or array task's) state: PENDING, RUNNING, COMPLETED, FAILED...
    fn state(&self, job: &str) -> String {
        let shown = self.ok("scontrol", &["show", "job", "-o", job]);
        shown
            .split_whitespace()
            .find_map(|w| w.strip_prefix("JobState="))
            .unwrap_or("UNKNOWN")
            .to_owned()
    }

    /// What the cluster's logs and the jobs' outputs say, for a failure's message.
    fn story(&self, out: &Path) -> String {
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
fn wait_for(
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
fn pids_with(words: &[&str]) -> Vec<i32> {
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

fn lines(path: &Path) -> usize {
    std::fs::read_to_string(path).map_or(0, |t| t.matches('\n').count())
}

#[test]
fn a_sharded_tournament_on_slurm_survives_a_killed_task_and_merges_to_one_machines_files() {
    if !common::needs(&["root", "slurmctld", "slurmd", "munged", "sbatch"]) {
        return;
    }
    let q = Quads::new();
    let bot = common::quads_bot().display().to_string();
    // Bots that think 40 ms a move: a shard takes a few seconds, time to kill one mid-way.
    let config = q.dir().join("cluster.toml");
    std::fs::write(
        &config,
        format!(
            r#"name = "on-slurm"
seed = 11
pairs = 4
variants = ["quads", "classic"]
openings = {{ random_moves = 2 }}
time = {{ movetime = "5s" }}

[[bot]]
name = "greedy"
command = "{bot} --strategy greedy --think-ms 40"

[[bot]]
name = "random"
command = "{bot} --strategy random --think-ms 40"

[[bot]]
name = "first"
command = "{bot} --strategy first --think-ms 40"
"#
        ),
    )
    .unwrap();
    let whole = q.dir().join("whole");
    q.ok(&[
        "tournament",
        config.to_str().unwrap(),
        "--out",
        whole.to_str().unwrap(),
        "--concurrency",
        "2",
        "--quiet",
    ]);

    let cluster = Cluster::up(&q.dir().join("slurm"));
    let out = q.dir().join("cluster-out");
    // One core per task, so two tasks run at once on this 2-core node.
    let submitted = cluster
        .command(&format!("{ROOT}/configs/slurm/submit.sh"))
        .args([
            config.to_str().unwrap(),
            out.to_str().unwrap(),
            "4",
            "--cpus-per-task=1",
        ])
        .env("QUADS", env!("CARGO_BIN_EXE_quads"))
        .current_dir(q.dir())
        .output()
        .unwrap();
    assert!(
        submitted.status.success(),
        "submit.sh: {}",
        String::from_utf8_lossy(&submitted.stderr)
    );
    let ids = String::from_utf8(submitted.stdout).unwrap();
    let (array, merge) = ids.trim().split_once(' ').expect("two job ids");
    let story = || cluster.story(&out);

    // Task 1 is killed with SIGKILL once it has recorded two games, as a node lost would.
    let journal = out.join("shard-1/journal.jsonl");
    wait_for(
        Duration::from_secs(120),
        "shard 1 never recorded two games",
        story,
        || lines(&journal) >= 2,
    );
    let task = format!("{array}_1");
    let referee = pids_with(&["tournament", "--shard 1/4"]);
    assert_eq!(referee.len(), 1, "one referee plays shard 1: {referee:?}");
    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(referee[0]),
        nix::sys::signal::Signal::SIGKILL,
    )
    .unwrap();
    wait_for(
        Duration::from_secs(60),
        "the killed task never ended",
        story,
        || !["RUNNING", "COMPLETING"].contains(&cluster.state(&task).as_str()),
    );
    assert_eq!(cluster.state(&task), "FAILED", "{}", story());
    let before = lines(&journal);
    assert!(before >= 2, "{before} games recorded before the kill");
    assert_eq!(
        cluster.state(merge),
        "PENDING",
        "the merge waits for every shard"
    );

    // configs/slurm/resume.sh requeues it and points the merge at every task again.
    let resumed = cluster
        .command(&format!("{ROOT}/configs/slurm/resume.sh"))
        .args([array, merge])
        .output()
        .unwrap();
    assert!(
        resumed.status.success(),
        "resume.sh: {}",
        String::from_utf8_lossy(&resumed.stderr)
    );
    wait_for(
        Duration::from_secs(300),
        "the merge job never completed",
        story,
        || {
            let state = cluster.state(merge);
            assert!(
                ["PENDING", "RUNNING", "COMPLETING", "COMPLETED"].contains(&state.as_str()),
                "merge job {state}:\n{}",
                story()
            );
            state == "COMPLETED"
        },
    );
    for i in 0..4 {
        assert_eq!(cluster.state(&format!("{array}_{i}")), "COMPLETED");
    }
    // The requeued task resumed: it did not play again the games it had recorded.
    let printed = std::fs::read_to_string(out.join("slurm-shard-1.out")).unwrap();
    assert!(
        printed.contains(&format!("{before} games were already in the journal")),
        "{printed}"
    );
    let merged = out.join("merged");
    assert_eq!(common::games(&merged.join("games.jsonl")).len(), 48);
    assert_eq!(common::differences(&whole, &merged), Vec::<String>::new());
    drop(cluster);
    assert!(
        pids_with(&["slurmctld", q.dir().to_str().unwrap()]).is_empty(),
        "the cluster stopped"
    );
}

/// A `quads serve` event for the workers' test, killed when dropped.
struct Event {
    child: std::process::Child,
    url: String,
}

impl Drop for Event {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// (status, JSON) of a call with an optional bearer token and JSON body.
fn call(
    url: &str,
    token: Option<&str>,
    body: Option<serde_json::Value>,
) -> (u16, serde_json::Value) {
    let req = match body {
        Some(_) => ureq::post(url),
        None => ureq::get(url),
    };
    let req = match token {
        Some(t) => req.set("Authorization", &format!("Bearer {t}")),
        None => req,
    };
    let answer = match body {
        Some(b) => req.send_json(b),
        None => req.call(),
    };
    match answer {
        Ok(r) => (r.status(), r.into_json().unwrap()),
        Err(ureq::Error::Status(code, r)) => (code, r.into_json().unwrap()),
        Err(e) => panic!("{url}: {e}"),
    }
}

#[test]
fn remote_workers_as_a_slurm_job_array_play_a_servers_ladder() {
    if !common::needs(&["root", "slurmctld", "slurmd", "munged", "sbatch"]) {
        return;
    }
    use std::io::BufRead;
    let q = Quads::new();
    const HOST: &str = "host-token-0123456789";
    // An event whose server plays nothing itself: every match is a Slurm task's.
    let config = q.dir().join("server.toml");
    std::fs::write(
        &config,
        format!(
            "name = \"slurm-cup\"\nlisten = \"127.0.0.1:0\"\ndata = \"{}\"\nadmin_token = \"{HOST}\"\n\
             signup = \"open\"\nworkers = 0\nlease = \"10s\"\n",
            q.dir().join("data").display()
        ),
    )
    .unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_quads"))
        .args(["serve", "--config"])
        .arg(&config)
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    std::io::BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let url = line.trim().rsplit(' ').next().unwrap().to_owned();
    let event = Event { child, url };
    for name in ["alice", "bob"] {
        let (code, body) = call(
            &format!("{}/api/entrants", event.url),
            None,
            Some(serde_json::json!({ "name": name })),
        );
        assert_eq!(code, 201, "{body}");
        let token = body["token"].as_str().unwrap().to_owned();
        let folder = Path::new(ROOT).join("examples/entrants").join(name);
        q.ok(&[
            "submit",
            "--server",
            &event.url,
            "--token",
            &token,
            folder.to_str().unwrap(),
        ]);
        let (_, v) = call(
            &format!("{}/api/versions/1?wait=100", event.url),
            Some(&token),
            None,
        );
        assert_eq!(v["status"], "admitted", "{v}");
    }
    let (code, worker) = call(
        &format!("{}/api/admin/workers", event.url),
        Some(HOST),
        Some(serde_json::json!({ "name": "cluster" })),
    );
    assert_eq!(code, 201, "{worker}");
    let token_file = q.dir().join("worker-token");
    std::fs::write(&token_file, worker["token"].as_str().unwrap()).unwrap();

    let cluster = Cluster::up(&q.dir().join("slurm"));
    let out = q.dir().join("workers-out");
    std::fs::create_dir_all(&out).unwrap();
    // Two tasks of one core each, one token between them, two matches each.
    let submitted = cluster.ok(
        "sbatch",
        &[
            "--parsable",
            "--array=0-1",
            "--cpus-per-task=1",
            &format!("--output={}/worker-%a.out", out.display()),
            &format!(
                "--export=ALL,SERVER={},TOKEN_FILE={},MATCHES=2,QUADS={},DATA={}/task",
                event.url,
                token_file.display(),
                env!("CARGO_BIN_EXE_quads"),
                out.display()
            ),
            &format!("{ROOT}/configs/slurm/worker.sbatch"),
        ],
    );
    let array = submitted.trim().split(';').next().unwrap().to_owned();
    let story = || cluster.story(&out);
    wait_for(
        Duration::from_secs(300),
        "the workers' tasks never ended",
        story,
        || {
            (0..2).all(|i| {
                let state = cluster.state(&format!("{array}_{i}"));
                !["PENDING", "RUNNING", "COMPLETING", "CONFIGURING"].contains(&state.as_str())
            })
        },
    );
    for i in 0..2 {
        assert_eq!(
            cluster.state(&format!("{array}_{i}")),
            "COMPLETED",
            "{}",
            story()
        );
    }
    // Four matches, each played once by one of the two tasks; both tasks played.
    let (_, board) = call(&format!("{}/api/leaderboard", event.url), None, None);
    assert_eq!(board["games"], 8, "{board}");
    let mut processes = std::collections::HashSet::new();
    for id in 1..=4 {
        let (_, m) = call(&format!("{}/api/matches/{id}", event.url), None, None);
        assert_eq!(
            (&m["match"]["state"], &m["match"]["attempts"]),
            (&serde_json::json!("done"), &serde_json::json!(1)),
            "{m}"
        );
        let holder = m["match"]["worker"].as_str().unwrap();
        let slot = holder
            .strip_prefix("cluster/")
            .expect("the cluster's worker");
        processes.insert(slot.rsplit_once('-').unwrap().0.to_owned());
    }
    assert_eq!(processes.len(), 2, "{processes:?}\n{}", story());
    for i in 0..2 {
        let printed = std::fs::read_to_string(out.join(format!("worker-{i}.out"))).unwrap();
        assert_eq!(printed.matches("(counted)").count(), 2, "{printed}");
    }
}

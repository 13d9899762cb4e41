//! A tournament on a real Slurm cluster: a one-node cluster started on this machine
//! (tests/slurm/up.sh; it needs root and Debian's slurm-wlm and munge, which .ci/run installs),
//! the project's own submit script (configs/slurm/submit.sh) sending a 4-shard job array and
//! its merge job, one task killed with SIGKILL mid-shard and requeued, and the merged files
//! compared with one machine's run of the same config; and a `quads serve` event's remote
//! workers as a job array (configs/slurm/worker.sbatch) playing its ladder. The cluster stops at
//! the end of each test, also when it fails; the tests take turns, as one machine has one
//! cluster's ports.

#[path = "slurm/cluster.rs"]
mod cluster;
mod common;
#[path = "slurm/server.rs"]
mod server;

use cluster::*;
use common::Quads;
use std::time::Duration;

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
    let (array, merge) = cluster.submit(&config, &out, 4, q.dir());
    let (array, merge) = (array.as_str(), merge.as_str());
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
    cluster.until_merged(merge, &out);
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

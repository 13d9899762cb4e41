//! `quads serve` with Slurm: remote workers as a job array playing the ladder, and the final
//! tournament run as shards from the server's snapshot and published by the server.

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use crate::cluster::*;
use crate::common::{self, Quads};

/// A `quads serve` event, killed when dropped.
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

const HOST: &str = "host-token-0123456789";

/// An event served by a `quads serve` of its own in `q`'s folder, its server playing
/// `workers` matches at once itself (0: every match a remote worker's), with `alice` and `bob`
/// from examples/entrants signed up, uploaded and admitted.
fn event(q: &Quads, workers: u32) -> Event {
    use std::io::BufRead;
    let config = q.dir().join("server.toml");
    std::fs::write(
        &config,
        format!(
            "name = \"slurm-cup\"\nlisten = \"127.0.0.1:0\"\ndata = \"{}\"\nadmin_token = \"{HOST}\"\n\
             signup = \"open\"\nworkers = {workers}\nlease = \"10s\"\n",
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
    event
}

#[test]
fn remote_workers_as_a_slurm_job_array_play_a_servers_ladder() {
    if !common::needs(&["root", "slurmctld", "slurmd", "munged", "sbatch"]) {
        return;
    }
    let q = Quads::new();
    // An event whose server plays nothing itself: every match is a Slurm task's.
    let event = event(&q, 0);
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
                "--export=ALL,SERVER={},TOKEN_FILE={},MATCHES=2,QUADS={},DATA={}",
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
    if board["games"] != 8 {
        // What the server knows, for the failure's message: the board once it has waited for
        // the eight games, every match, and what the tasks printed.
        let (_, waited) = call(
            &format!("{}/api/leaderboard?games=8&wait=15", event.url),
            None,
            None,
        );
        let (_, matches) = call(&format!("{}/api/matches?limit=50", event.url), None, None);
        panic!(
            "the board right after: {board}\nwaited for: {waited}\nmatches: {matches}\n{}",
            story()
        );
    }
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

#[test]
fn the_final_runs_as_slurm_shards_from_the_servers_snapshot_and_the_server_publishes_it() {
    if !common::needs(&["root", "slurmctld", "slurmd", "munged", "sbatch"]) {
        return;
    }
    let q = Quads::new();
    let event = event(&q, 1);
    let (code, snap) = call(
        &format!("{}/api/admin/final", event.url),
        Some(HOST),
        Some(serde_json::json!({})),
    );
    assert_eq!(code, 201, "{snap}");
    let config = snap["config"].as_str().unwrap().to_owned();
    let slurm_out = snap["slurm_out"].as_str().unwrap().to_owned();
    assert_eq!(
        snap["slurm"],
        format!("configs/slurm/submit.sh {config} {slurm_out} SHARDS")
    );
    // The same final on one machine, for the comparison.
    let whole = q.dir().join("whole");
    q.ok(&[
        "tournament",
        &config,
        "--out",
        whole.to_str().unwrap(),
        "--quiet",
    ]);

    let cluster = Cluster::up(&q.dir().join("slurm"));
    let out = Path::new(&slurm_out);
    let (_, merge) = cluster.submit(Path::new(&config), out, 2, q.dir());
    // Not published before the merge.
    let (code, _) = text(&format!("{}/final", event.url));
    assert!(code == 404 || cluster.state(&merge) == "COMPLETED");
    cluster.until_merged(&merge, out);
    drop(cluster);
    // The shards merged are the one machine's final, file for file, and the server publishes
    // their report.
    let merged = out.join("merged");
    assert_eq!(common::differences(&whole, &merged), Vec::<String>::new());
    let games = common::games(&merged.join("games.jsonl"));
    assert_eq!(games.len(), 20, "10 pairs of alice against bob");
    let (code, page) = text(&format!("{}/final", event.url));
    assert_eq!(code, 200);
    assert_eq!(
        page,
        std::fs::read_to_string(merged.join("report.html")).unwrap()
    );
    assert!(page.contains("alice") && page.contains("bob"));
}

/// (status, text) of a GET.
fn text(url: &str) -> (u16, String) {
    match ureq::get(url).call() {
        Ok(r) => (r.status(), r.into_string().unwrap()),
        Err(ureq::Error::Status(code, r)) => (code, r.into_string().unwrap()),
        Err(e) => panic!("{url}: {e}"),
    }
}

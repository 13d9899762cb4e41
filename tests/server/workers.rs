//! Remote workers (`quads worker`): real worker processes on the loopback, with tokens the
//! host made, playing a server's ladder that has no workers of its own; their calls refused to
//! anyone else; games that are not the match's refused; a second worker given a running
//! worker's folder refuses it; a worker killed with SIGKILL mid-match loses its lease, and
//! another plays the match again, counted once.

use std::path::Path;
use std::process::{Command, Output, Stdio};

use serde_json::{json, Value};

use crate::harness::*;

/// A server with no workers of its own and a short lease, and two admitted entrants whose
/// bots are made by `bot`.
fn event(dir: &Path, bot: impl Fn(&Path, &str) -> std::path::PathBuf) -> (Server, Vec<String>) {
    let config = write_config_with(dir, "workers = 0\nlease = \"2s\"\nmovetime = \"2s\"\n");
    let server = start(&config);
    let mut tokens = Vec::new();
    for name in ["ann", "bob"] {
        let token = server.entrant(name);
        assert_eq!(server.submit(&token, &bot(dir, name)).0, 0);
        assert_eq!(server.wait(&token, 1, None)["status"], "admitted");
        tokens.push(token);
    }
    (server, tokens)
}

impl Server {
    /// A worker's token, made by the host.
    pub(crate) fn worker_token(&self, name: &str) -> String {
        let (code, body) = self.post("/api/admin/workers", ADMIN, json!({ "name": name }));
        assert_eq!(code, 201, "{body}");
        assert_eq!(body["name"], name);
        body["token"].as_str().unwrap().to_owned()
    }

    /// `quads worker` with its data under `dir`, and more arguments.
    pub(crate) fn worker(&self, token: &str, dir: &Path, more: &[&str]) -> Command {
        let mut c = Command::new(env!("CARGO_BIN_EXE_quads"));
        c.args(["worker", "--server", &self.url, "--token", token, "--data"])
            .arg(dir)
            .args(more);
        c
    }
}

fn text(out: &Output) -> (String, String) {
    let t = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (t(&out.stdout), t(&out.stderr))
}

#[test]
fn a_remote_worker_plays_the_ladder_and_hands_in_its_games_and_logs() {
    let dir = tempfile::tempdir().unwrap();
    // Bots that say something on stderr, so that each game leaves logs to hand in.
    let talkative = |dir: &Path, name: &str| {
        edited_bot(
            dir,
            name,
            (
                SEED_LINE,
                &format!(
                    "{SEED_LINE}\n        print(\"{name} here\", file=sys.stderr, flush=True)"
                ),
            ),
        )
    };
    let (server, _) = event(dir.path(), talkative);
    let token = server.worker_token("box-1");
    let out = server
        .worker(
            &token,
            &dir.path().join("w"),
            &["--concurrency", "2", "--matches", "3"],
        )
        .output()
        .unwrap();
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(0), "{stdout}{stderr}");
    // Each version built once on the worker, then three matches taken and counted.
    let built: Vec<&str> = stdout.lines().filter(|l| l.starts_with("built ")).collect();
    assert_eq!(built.len(), 2, "{stdout}");
    assert!(built.iter().all(|l| l.ends_with(": admitted")), "{stdout}");
    let counted = stdout.lines().filter(|l| l.ends_with("(counted)")).count();
    assert_eq!(counted, 3, "{stdout}");
    let (_, board) = server.get("/api/leaderboard", None);
    assert_eq!(board["games"], 6, "{board}");
    // Each match was played by one of the worker's slots, once, with both games and logs.
    let mut processes = std::collections::HashSet::new();
    for id in 1..=3 {
        let m = server.wait_match(id, None);
        assert_eq!(m["match"]["state"], "done", "{m}");
        assert_eq!(m["match"]["attempts"], 1, "{m}");
        let holder = m["match"]["worker"].as_str().unwrap();
        // `box-1/` + the process's name + `-` + the slot's number.
        let (process, slot) = holder
            .strip_prefix("box-1/")
            .unwrap()
            .rsplit_once('-')
            .unwrap();
        assert!(["1", "2"].contains(&slot), "{m}");
        processes.insert(process.to_owned());
        let games: Vec<&Value> = m["games"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| &g["game"])
            .collect();
        assert_eq!(games, [&json!(1), &json!(2)], "{m}");
        let (code, log) = server.text(
            &format!("/api/matches/{id}/logs/game-0001-first-ann.log"),
            Some(ADMIN),
        );
        assert_eq!(m["games"][0]["first"], "ann", "{m}");
        assert_eq!((code, log.as_str()), (200, "ann here\n"), "{m}");
        // The games are kept once, in the database: the match's folder has the logs only.
        let folder = dir.path().join("data").join("matches").join(id.to_string());
        assert!(folder
            .join("logs")
            .join("game-0001-first-ann.log")
            .is_file());
        assert!(!folder.join("games.jsonl").exists(), "{}", folder.display());
    }
    assert_eq!(processes.len(), 1, "{processes:?}");
    // The worker is listed, holding nothing now; its token opens nothing else.
    let (code, list) = server.get("/api/admin/workers", Some(ADMIN));
    assert_eq!(code, 200);
    assert_eq!(
        list,
        json!({ "workers": [{ "name": "box-1", "running": [] }] })
    );
    assert_eq!(server.get("/api/me", Some(&token)).0, 401);
    assert_eq!(server.get("/api/games.jsonl", Some(&token)).0, 401);
}

/// A real game's record (moves and all), renumbered and reseated.
fn record(game: u32, first: &str, second: &str) -> Value {
    let bot = |name: &str| json!({ "name": name, "command": "python3 bot.py", "ponder": false });
    json!({
        "game": game, "rules": "quads", "seed": 7, "time_control": "movetime 2000",
        "start": "..../..../..../.... -", "first": bot(first), "second": bot(second),
        "moves": ["BDQF", "A2 BDRF", "A1 BLQH", "B4 SLRH", "D4 SDQH", "D2 BLRF", "C4 BDRH",
                  "D1 BLRH", "B1 SLQH", "B3 BLQF", "A3 SLRF", "A4"],
        "end": "SLRFBLQHBLRFSLRH/BLQFSLQH../BDQF..SDQH/BDRFBLRH.BDRH -",
        "result": "0-1", "reason": "normal", "failures": [],
        "timing": { "started": "2026-12-03T20:06:02.779Z", "duration_ms": 1.0, "moves_ms": [],
                    "leaked": [0, 0], "log_bytes": [0, 0], "log_dropped": [0, 0] }
    })
}

#[test]
fn a_log_a_worker_never_handed_in_is_not_found() {
    let dir = tempfile::tempdir().unwrap();
    let (server, _) = event(dir.path(), bot_folder);
    let token = server.worker_token("box-1");
    let (code, claimed) = server.post("/api/worker/claim", &token, json!({ "slot": "s" }));
    assert_eq!(code, 200, "{claimed}");
    let id = claimed["match"]["id"].as_i64().unwrap();
    // Its games say ann wrote to her stderr in each, but no log comes with them.
    let mut games = [record(1, "ann", "bob"), record(2, "bob", "ann")];
    games[0]["timing"]["log_bytes"] = json!([9, 0]);
    games[1]["timing"]["log_bytes"] = json!([0, 9]);
    let (code, held) = server.post(
        &format!("/api/worker/matches/{id}/finish"),
        &token,
        json!({ "slot": "s", "games": games }),
    );
    assert_eq!((code, &held), (200, &json!({ "held": true })));
    let (code, text) = server.text(
        &format!("/api/matches/{id}/logs/game-0001-first-ann.log"),
        Some(ADMIN),
    );
    assert_eq!(code, 404, "{text}");
    assert!(
        text.contains("this log was not handed in with the match's games"),
        "{text}"
    );
}

#[test]
fn worker_calls_are_refused_to_everyone_else_and_foreign_games_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let (server, tokens) = event(dir.path(), bot_folder);
    let token = server.worker_token("box-1");
    // Only a worker's token opens the worker's calls, and only the host makes workers.
    let claim = json!({ "slot": "by-hand-1" });
    for (who, code) in [
        (ADMIN, 403),
        (tokens[0].as_str(), 403),
        ("guess-0123456789", 401),
    ] {
        let (got, body) = server.post("/api/worker/claim", who, claim.clone());
        assert_eq!(got, code, "{body}");
        assert!(body["error"].as_str().is_some(), "{body}");
    }
    let (code, _) = server.post("/api/admin/workers", &tokens[0], json!({ "name": "mine" }));
    assert_eq!(code, 403);
    let (code, body) = server.post("/api/admin/workers", ADMIN, json!({ "name": "box-1" }));
    assert_eq!(
        (code, body["error"].as_str().unwrap()),
        (409, "there is a worker named `box-1` already")
    );
    let (code, _) = server.post("/api/admin/workers", ADMIN, json!({ "name": "local-9" }));
    assert_eq!(code, 400);
    for slot in [json!(""), json!("a/b"), json!(1), json!("x".repeat(49))] {
        let (code, body) = server.post("/api/worker/claim", &token, json!({ "slot": slot }));
        assert_eq!(code, 400, "{body}");
    }
    // A pack by a made-up or malformed digest is not there.
    for digest in ["0".repeat(64), "..%2F..%2Fquads.db".to_owned()] {
        let (code, _) = server.text(&format!("/api/worker/packs/{digest}"), Some(&token));
        assert_eq!(code, 404, "{digest}");
    }
    // Slot 1 takes match 1 by hand.
    let (code, claimed) = server.post("/api/worker/claim", &token, json!({ "slot": "by-hand-1" }));
    assert_eq!(code, 200, "{claimed}");
    let job = &claimed["match"];
    assert_eq!(job["id"], 1, "{claimed}");
    assert_eq!(
        (&job["first"]["entrant"], &job["second"]["entrant"]),
        (&json!("ann"), &json!("bob"))
    );
    assert_eq!(job["lease"], 2);
    // Asked again, as a worker whose answer was lost would: the same match, not a second one.
    let (code, again) = server.post("/api/worker/claim", &token, json!({ "slot": "by-hand-1" }));
    assert_eq!((code, &again["match"]), (200, job), "{again}");
    // Its packs are the entrants' uploads, byte for byte.
    let (_, ann_pack) = server.download(&tokens[0], 1);
    let digest = job["first"]["digest"].as_str().unwrap();
    let got = ureq::get(&format!("{}/api/worker/packs/{digest}", server.url))
        .set("Authorization", &format!("Bearer {token}"))
        .call()
        .unwrap();
    let mut bytes = Vec::new();
    std::io::Read::read_to_end(&mut got.into_reader(), &mut bytes).unwrap();
    assert_eq!(bytes, ann_pack);
    // Another slot, which never held it, counts nothing.
    let (code, held) = server.post(
        "/api/worker/matches/1/finish",
        &token,
        json!({ "slot": "by-hand-2", "games": [] }),
    );
    assert_eq!((code, &held), (200, &json!({ "held": false })));
    // Games that are not the match's are refused, and the match stays the slot's.
    let mut forged = record(2, "bob", "ann");
    forged["moves"][1] = json!("A1 BDRF");
    let refusals = [
        (
            json!([record(1, "ann", "bob")]),
            "a match has 2 games; 1 were sent",
        ),
        (
            json!([{ "game": 1 }, record(2, "bob", "ann")]),
            "game 1: not a game record: ",
        ),
        (
            json!([record(1, "bob", "ann"), record(2, "ann", "bob")]),
            "game 1 is not this match's: its bots are bob and ann",
        ),
        (
            json!([record(2, "ann", "bob"), record(2, "bob", "ann")]),
            "game 1 is not this match's: it is numbered 2",
        ),
    ];
    for (games, want) in refusals {
        let (code, body) = server.post(
            "/api/worker/matches/1/finish",
            &token,
            json!({ "slot": "by-hand-1", "games": games }),
        );
        let why = body["error"].as_str().unwrap_or_default();
        assert!(
            code == 400 && why.starts_with(want),
            "{code} {body}, wanted {want}"
        );
    }
    let m = server.get("/api/matches/1", None).1;
    assert_eq!(
        (&m["match"]["state"], &m["match"]["worker"]),
        (&json!("running"), &json!("box-1/by-hand-1")),
        "{m}"
    );
    // Given up with a reason, it is failed and named so.
    let (code, held) = server.post(
        "/api/worker/matches/1/fail",
        &token,
        json!({ "slot": "by-hand-1", "reason": "no python3 here" }),
    );
    assert_eq!((code, &held), (200, &json!({ "held": true })));
    let m = server.get("/api/matches/1", None).1;
    assert_eq!(m["match"]["state"], "failed");
    assert_eq!(
        m["match"]["reason"],
        "worker box-1/by-hand-1: no python3 here"
    );
}

/// The processes of the machine: (pid, command line, working folder).
fn processes() -> Vec<(u32, String, String)> {
    let mut found = Vec::new();
    for e in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = e.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let cmd = std::fs::read(e.path().join("cmdline")).unwrap_or_default();
        let cwd = std::fs::read_link(e.path().join("cwd")).unwrap_or_default();
        let cmd = String::from_utf8_lossy(&cmd).replace('\0', " ");
        found.push((pid, cmd, cwd.display().to_string()));
    }
    found
}

/// The folders the sandboxes of `referee`'s bots run in, from their launchers' command lines.
fn boxes_of(referee: u32) -> Vec<String> {
    let parent = format!(" --parent {referee} ");
    processes()
        .into_iter()
        .filter(|(_, cmd, _)| cmd.contains(&parent))
        .filter_map(|(_, cmd, _)| {
            let rest = &cmd[cmd.find(" --folder ")? + 10..];
            Some(rest.split(' ').next()?.to_owned())
        })
        .collect()
}

#[test]
fn a_worker_killed_mid_match_loses_its_lease_and_the_match_is_played_once_more() {
    let dir = tempfile::tempdir().unwrap();
    // Bots that take a while over each move, so that the kill comes mid-match.
    let slow = |dir: &Path, name: &str| {
        let folder = edited_bot(
            dir,
            name,
            ("print(\"move\",", "time.sleep(0.2); print(\"move\","),
        );
        let script = std::fs::read_to_string(folder.join("bot.py")).unwrap();
        std::fs::write(folder.join("bot.py"), format!("import time\n{script}")).unwrap();
        folder
    };
    let (server, _) = event(dir.path(), slow);
    let first = server.worker_token("box-a");
    let second = server.worker_token("box-b");
    let a_dir = dir.path().join("a");
    let mut a = Running(
        server
            .worker(&first, &a_dir, &[])
            .stdout(Stdio::null())
            .spawn()
            .unwrap(),
    );
    let m = server.wait_match(1, Some("queued"));
    let holder = m["match"]["worker"].as_str().unwrap();
    assert_eq!(m["match"]["state"], "running", "{m}");
    assert!(
        holder.starts_with("box-a/") && holder.ends_with("-1"),
        "{m}"
    );
    // Once its bots run (building and checking them comes first), the worker is killed.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
    let boxes = loop {
        let boxes = boxes_of(a.id());
        if !boxes.is_empty() || std::time::Instant::now() > deadline {
            break boxes;
        }
        std::thread::yield_now();
    };
    assert!(!boxes.is_empty(), "box-a never ran a bot");
    // A second worker given box-a's folder refuses it, in one line, and box-a plays on.
    // (Bounded: without the lock the twin would wait for matches for ever.)
    let twin = Running(
        server
            .worker(&second, &a_dir, &[])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap(),
    )
    .output_within(std::time::Duration::from_secs(60))
    .expect("the twin took the folder");
    let (_, stderr) = text(&twin);
    assert_eq!(twin.status.code(), Some(2), "{stderr}");
    assert_eq!(
        stderr,
        format!(
            "quads: {} is in use by another quads worker: give each worker its own --data\n",
            a_dir.display()
        )
    );
    assert!(a.try_wait().unwrap().is_none(), "box-a stopped");
    a.kill().unwrap(); // SIGKILL
    a.wait().unwrap();
    // Worker b takes over once box-a's lease has run out, and plays match 1 again.
    let mut b = Running(
        server
            .worker(&second, &dir.path().join("b"), &[])
            .stdout(Stdio::null())
            .spawn()
            .unwrap(),
    );
    let m = server.wait_match(1, None);
    assert_eq!(m["match"]["state"], "done", "{m}");
    assert_eq!(m["match"]["attempts"], 2, "{m}");
    assert!(
        m["match"]["worker"].as_str().unwrap().starts_with("box-b/"),
        "{m}"
    );
    let numbers: Vec<&Value> = m["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| &g["game"])
        .collect();
    assert_eq!(numbers, [&json!(1), &json!(2)]);
    // No bot of the killed worker's lives on: no launcher of its, nothing in its boxes.
    assert_eq!(boxes_of(a.id()), Vec::<String>::new());
    let left: Vec<_> = processes()
        .into_iter()
        .filter(|(_, _, cwd)| boxes.iter().any(|b| cwd.starts_with(b.as_str())))
        .collect();
    assert_eq!(left, vec![], "{boxes:?}");
    b.kill().unwrap();
    b.wait().unwrap();
    // Every game is counted once: the done matches' games, and nothing else.
    let (_, list) = server.get("/api/matches?limit=500", None);
    let done = list["matches"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["state"] == "done")
        .count();
    let (_, all) = server.text("/api/games.jsonl", Some(ADMIN));
    let mut seen = std::collections::HashSet::new();
    for line in all.lines() {
        let r: Value = serde_json::from_str(line).unwrap();
        assert!(
            seen.insert((r["seed"].clone(), r["game"].clone())),
            "twice: {r}"
        );
    }
    assert_eq!(seen.len(), 2 * done);
    assert_eq!(
        server.get("/api/leaderboard", None).1["games"],
        2 * done as u64
    );
}

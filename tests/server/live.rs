//! Matches watched as they are played: a match whose bot stops answering mid-game (so the match
//! is surely still running while the test looks) streams its moves as server-sent events
//! before any game is handed in, from the server's own worker and from a remote one; the home
//! page and the match page show them in a real browser; the host's cancel ends the stream with
//! the match's state; a match over answers its end at once; the server's stop ends a stream.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_json::{json, Value};

use crate::browser;
use crate::harness::*;
use crate::web::{accessible, errors, go, wait_for};

/// A bot that plays its first move of each game and then thinks forever (past the event's
/// minute per move), in the ladder's games only: `quads check` (seed 1) sees a bot that plays.
fn stalling_bot(dir: &Path, name: &str) -> PathBuf {
    let folder = edited_bot(
        dir,
        name,
        (
            SEED_LINE,
            &format!(
                "{SEED_LINE}\n        stall = words[words.index(\"seed\") + 1] != \"1\"\n        answered = False"
            ),
        ),
    );
    let script = std::fs::read_to_string(folder.join("bot.py")).unwrap();
    let go = "print(\"move\", choose(words, rules), flush=True)";
    assert!(script.contains(go), "the kit changed");
    let script = script.replace(
        go,
        &format!("if stall and answered:\n            time.sleep(3600)\n        answered = True\n        {go}"),
    );
    std::fs::write(folder.join("bot.py"), format!("import time\n{script}")).unwrap();
    folder
}

/// A server (with `extra` config) where ann's ordinary bot meets bob's stalling one.
fn event(dir: &Path, extra: &str) -> Server {
    let config = write_config_with(dir, &format!("movetime = \"60s\"\n{extra}"));
    let server = start(&config);
    let ann = server.entrant("ann");
    assert_eq!(server.submit(&ann, &bot_folder(dir, "ann")).0, 0);
    let bob = server.entrant("bob");
    assert_eq!(server.submit(&bob, &stalling_bot(dir, "bob")).0, 0);
    for token in [&ann, &bob] {
        assert_eq!(server.wait(token, 1, None)["status"], "admitted");
    }
    server
}

/// A stream of server-sent events, read a frame at a time.
struct Events(BufReader<Box<dyn std::io::Read + Send + Sync>>);

impl Events {
    fn open(server: &Server, path: &str) -> Events {
        // A read waits at most two minutes: a stream that stalls fails the test.
        let answer = ureq::AgentBuilder::new()
            .timeout_read(Duration::from_secs(120))
            .build()
            .get(&format!("{}{path}", server.url))
            .call()
            .unwrap();
        assert_eq!(
            answer.header("content-type"),
            Some("text/event-stream"),
            "{path}"
        );
        Events(BufReader::new(answer.into_reader()))
    }

    /// The next event: its name and its data; none once the stream ends.
    fn next(&mut self) -> Option<(String, Value)> {
        let (mut name, mut data) = (String::new(), String::new());
        loop {
            let mut line = String::new();
            if self.0.read_line(&mut line).unwrap() == 0 {
                return None;
            }
            let line = line.trim_end_matches(['\n', '\r']);
            if line.is_empty() {
                if !data.is_empty() {
                    return Some((name, serde_json::from_str(&data).unwrap()));
                }
                continue; // a keep-alive's end
            }
            if let Some(n) = line.strip_prefix("event:") {
                name = n.trim().to_owned();
            } else if let Some(d) = line.strip_prefix("data:") {
                data.push_str(d.trim_start());
            }
        }
    }

    /// Events until `n` moves have come: every event read.
    fn moves(&mut self, n: usize) -> Vec<(String, Value)> {
        let mut seen = Vec::new();
        while seen.iter().filter(|(e, _)| e == "move").count() < n {
            let event = self.next().expect("the stream ended before the moves");
            seen.push(event);
        }
        seen
    }
}

/// The moves, game and seats of a stream's first events, checked against each other: a `game`
/// first, then moves numbered from 1, by the seats in turn, each board one piece fuller.
fn check_game(events: &[(String, Value)], id: i64) {
    assert_eq!(events[0].0, "game", "{events:?}");
    let game = &events[0].1;
    assert_eq!(game["match"], id);
    assert_eq!(game["game"], 1);
    let mut seats = [
        game["first"].as_str().unwrap(),
        game["second"].as_str().unwrap(),
    ];
    seats.sort_unstable();
    assert_eq!(seats, ["ann", "bob"]);
    for (i, (name, m)) in events[1..].iter().enumerate() {
        assert_eq!(name, "move", "{events:?}");
        assert_eq!(m["ply"], i + 1);
        assert_eq!(m["by"], if i % 2 == 0 { "first" } else { "second" });
        let placed = m["board"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|c| !c.is_null())
            .count();
        assert_eq!(placed, i, "the first move places nothing: {m}");
    }
}

fn state(server: &Server, id: i64) -> Value {
    let (code, m) = server.get(&format!("/api/matches/{id}"), None);
    assert_eq!(code, 200, "{m}");
    m["match"]["state"].clone()
}

#[test]
fn a_running_match_streams_its_moves_and_its_end() {
    let dir = tempfile::tempdir().unwrap();
    let server = event(dir.path(), "");
    assert_eq!(
        server.wait_match(1, Some("queued"))["match"]["state"],
        "running"
    );
    // Two moves come while the match runs: bob plays one and then thinks for an hour.
    let mut stream = Events::open(&server, "/matches/1/live");
    let seen = stream.moves(2);
    check_game(&seen, 1);
    assert_eq!(state(&server, 1), "running");
    // A second watcher is given the game as it stands, then follows it.
    let mut late = Events::open(&server, "/matches/1/live");
    check_game(&late.moves(2), 1);
    // The home page's stream shows the one match played now.
    let mut now = Events::open(&server, "/live");
    let first = now.next().unwrap();
    assert_eq!((first.0.as_str(), &first.1["match"]), ("game", &json!(1)));
    // The host cancels it: each stream ends with the match's state, and the match page's ends.
    let (code, body) = server.post("/api/admin/matches/1/cancel", ADMIN, json!({}));
    assert_eq!(code, 200, "{body}");
    for s in [&mut stream, &mut late] {
        let end = std::iter::from_fn(|| s.next())
            .find(|(e, _)| e == "end")
            .expect("an end");
        assert_eq!(
            end.1,
            json!({ "kind": "end", "match": 1, "state": "cancelled" })
        );
        assert!(s.next().is_none(), "the stream ends with the match");
    }
    // A match over answers its end at once; a match that is not one is 404.
    let mut over = Events::open(&server, "/matches/1/live");
    assert_eq!(over.next().unwrap().1["state"], "cancelled");
    assert!(over.next().is_none());
    let (code, _) = server.text("/matches/99/live", None);
    assert_eq!(code, 404);
    // A watcher waiting for the next match does not hold the server's stop: its stream ends.
    let mut waiting = Events::open(&server, "/live");
    let stopped = std::process::Command::new("kill")
        .args(["-TERM", &server.child.id().to_string()])
        .status()
        .unwrap();
    assert!(stopped.success());
    assert_eq!(waiting.next(), None);
}

#[test]
fn a_remote_workers_match_streams_its_moves_before_it_hands_in() {
    let dir = tempfile::tempdir().unwrap();
    let server = event(dir.path(), "workers = 0\n");
    let token = server.worker_token("box-1");
    let mut worker = server
        .worker(&token, &dir.path().join("w"), &["--concurrency", "1"])
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // The ladder queues the match when the worker first asks for work.
    assert_eq!(
        server.wait_match(1, Some("queued"))["match"]["state"],
        "running"
    );
    let mut stream = Events::open(&server, "/matches/1/live");
    let seen = stream.moves(2);
    check_game(&seen, 1);
    // Played by the worker's slot, and not handed in: no game is counted yet.
    let (_, m) = server.get("/api/matches/1", None);
    assert_eq!(m["match"]["state"], "running", "{m}");
    assert!(
        m["match"]["worker"].as_str().unwrap().starts_with("box-1"),
        "{m}"
    );
    assert_eq!(m["games"], json!([]), "{m}");
    // News from anyone but the slot holding the match is refused or dropped.
    let (code, body) = server.post(
        "/api/worker/matches/1/live",
        &token,
        json!({ "slot": "another-1", "news": [{ "kind": "moved", "game": 1, "mv": "A1 BDRH" }] }),
    );
    assert_eq!((code, &body["held"]), (200, &json!(false)), "{body}");
    let (code, _) = server.post(
        "/api/worker/matches/1/live",
        ADMIN,
        json!({ "slot": "another-1", "news": [] }),
    );
    assert_eq!(code, 403);
    worker.kill().unwrap();
    worker.wait().unwrap();
}

#[tokio::test(flavor = "current_thread")]
async fn the_pages_show_a_match_move_by_move_while_it_is_played() {
    let dir = tempfile::tempdir().unwrap();
    let server = event(dir.path(), "");
    assert_eq!(
        server.wait_match(1, Some("queued"))["match"]["state"],
        "running"
    );
    let b = browser::open(390, 844).await;
    // The match page: the moves appear, the board is drawn, and the match still runs.
    go(&b, &format!("{}/matches/1", server.url)).await;
    wait_for(&b, "#live-moves li[data-ply='2'] code").await;
    wait_for(&b, "#live-board svg g.piece").await;
    assert_eq!(state(&server, 1), "running");
    let heading = wait_for(&b, "#live-game").await.text().await.unwrap();
    assert!(heading.contains("game 1"), "{heading}");
    accessible(&b, "a running match's page").await;
    // The home page shows the match played now, linked.
    go(&b, &server.url).await;
    wait_for(&b, "#live-game a[href='/matches/1']").await;
    wait_for(&b, "#live-moves li[data-ply='2']").await;
    accessible(&b, "the home page with a match playing").await;
    // Cancelled, the match page comes back to the match as it ended, at the same address.
    go(&b, &format!("{}/matches/1", server.url)).await;
    let (code, body) = server.post("/api/admin/matches/1/cancel", ADMIN, json!({}));
    assert_eq!(code, 200, "{body}");
    wait_for(&b, "#match[data-live-now='cancelled']").await;
    assert_eq!(errors(&b).await, Vec::<String>::new());
}

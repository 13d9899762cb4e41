//! Matches on the ladder and asked for: a bot that crashes in every ladder game is paused with
//! the reason, its logs are its owner's and the host's only; a test match is played now and
//! not rated; the host freezes uploads, pauses the ladder, disables an entrant, reruns a match
//! (the same games again) and snapshots the final tournament, whose report the server then
//! publishes; a server killed mid-match plays that match again, and no game is lost or
//! counted twice.

use std::process::Command;

use serde_json::{json, Value};

use crate::harness::*;

/// The seat (`first` or `second`) `name` has in a match's game.
fn seat_of(game: &Value, name: &str) -> &'static str {
    if game["first"] == name {
        "first"
    } else {
        "second"
    }
}

fn lines(text: &str) -> usize {
    text.lines().count()
}

#[test]
fn a_bot_that_crashes_on_the_ladder_is_paused_and_its_logs_are_its_owners() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(&write_config_with(dir.path(), "crash_streak = 2\n"));
    let ann = server.entrant("ann");
    assert_eq!(server.submit(&ann, &bot_folder(dir.path(), "ann")).0, 0);
    assert_eq!(server.wait(&ann, 1, None)["status"], "admitted");
    let cy = server.entrant("cy");
    assert_eq!(server.submit(&cy, &crashing_bot(dir.path(), "cy")).0, 0);
    // It passes the check (which plays with seed 1), then crashes in both games of its first
    // match: two faults in a row pause it.
    assert_eq!(server.wait(&cy, 1, None)["status"], "admitted");
    let v = server.wait(&cy, 1, Some("admitted"));
    assert_eq!(v["status"], "paused", "{v}");
    let (_, list) = server.get("/api/matches", None);
    let matches = list["matches"].as_array().unwrap();
    assert_eq!(matches.len(), 1, "a paused bot plays no more: {list}");
    let m = server.wait_match(matches[0]["id"].as_i64().unwrap(), None);
    assert_eq!(
        (&m["match"]["state"], &m["match"]["kind"]),
        (&json!("done"), &json!("ladder"))
    );
    let games = m["games"].as_array().unwrap();
    assert_eq!(games.len(), 2, "{m}");
    for g in games {
        let f = g["failures"].as_array().unwrap();
        assert_eq!(f.len(), 1, "{g}");
        assert_eq!(f[0]["seat"], seat_of(g, "cy"), "{g}");
        assert_eq!(f[0]["reason"], "crash", "{g}");
    }
    let last = &games[1]["failures"][0];
    assert_eq!(
        v["paused"],
        format!(
            "paused: its last 2 games were lost by faults of its own (the last: crash: {}); upload a new version",
            last["detail"].as_str().unwrap()
        )
    );
    let (_, board) = server.get("/api/leaderboard", None);
    assert_eq!(board["games"], 2, "{board}");
    // cy's log of game 1 is cy's and the host's, nobody else's.
    let id = m["match"]["id"].as_i64().unwrap();
    let log = format!(
        "/api/matches/{id}/logs/game-0001-{}-cy.log",
        seat_of(&games[0], "cy")
    );
    let (code, text) = server.text(&log, Some(&cy));
    assert_eq!(code, 200, "{text}");
    assert!(text.contains("crashing on purpose"), "{text}");
    assert_eq!(server.text(&log, Some(ADMIN)), (200, text));
    // The games are kept once, in the database: the server's own worker leaves the logs in
    // the match's folder and removes the referee's copy of the games once they are counted.
    let folder = dir.path().join("data").join("matches").join(id.to_string());
    assert!(folder.join("logs").is_dir(), "{}", folder.display());
    assert!(!folder.join("games.jsonl").exists(), "{}", folder.display());
    assert_eq!(
        server.get(&log, Some(&ann)),
        (
            403,
            json!({ "error": "a bot's logs are for its owner and the host only" })
        )
    );
    assert_eq!(server.get(&log, None).0, 401);
    let missing = format!("/api/matches/{id}/logs/game-0009-first-cy.log");
    assert_eq!(
        server.get(&missing, Some(&cy)),
        (404, json!({ "error": "no such log" }))
    );
    // The games: an entrant's own, the host's all; the host's download is the host's only.
    let (code, mine) = server.text("/api/me/games.jsonl", Some(&cy));
    assert_eq!((code, lines(&mine)), (200, 2));
    let (code, all) = server.text("/api/games.jsonl", Some(ADMIN));
    assert_eq!((code, all), (200, mine));
    assert_eq!(server.get("/api/games.jsonl", Some(&ann)).0, 403);
}

#[test]
fn test_matches_and_the_hosts_actions() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(&write_config(dir.path()));
    let paused = json!({ "frozen": false, "ladder_paused": true });
    let switch = json!({ "ladder_paused": true });
    assert_eq!(
        server.post("/api/admin/switches", ADMIN, switch.clone()),
        (200, paused)
    );
    let ann = server.entrant("ann");
    let bob = server.entrant("bob");
    assert_eq!(
        server.post("/api/admin/switches", &ann, switch).0,
        403,
        "only the host flips switches"
    );
    for (name, token) in [("ann", &ann), ("bob", &bob)] {
        assert_eq!(server.submit(token, &bot_folder(dir.path(), name)).0, 0);
        assert_eq!(server.wait(token, 1, None)["status"], "admitted");
    }
    // The paused ladder plays nothing; a test match is played now, and not rated.
    let (_, list) = server.get("/api/matches", None);
    assert_eq!(list["matches"], json!([]));
    let ask = |opponent: &str, rules: Option<&str>| {
        server.post(
            "/api/matches",
            &ann,
            json!({ "opponent": opponent, "rules": rules }),
        )
    };
    assert_eq!(
        ask("bob", None),
        (201, json!({ "match": 1, "state": "queued" }))
    );
    let first = server.wait_match(1, None);
    assert_eq!(first["match"]["state"], "done", "{first}");
    assert_eq!(first["match"]["kind"], "test");
    assert_eq!(first["games"].as_array().unwrap().len(), 2);
    assert_eq!(
        first["replay"],
        "quads match --bot ann --bot bob --rules quads --movetime 1s --games 2 --seed 1 --keep-alive"
    );
    assert_eq!(server.get("/api/leaderboard", None).1["games"], 0);
    assert_eq!(lines(&server.text("/api/me/games.jsonl", Some(&ann)).1), 2);
    let refused = [
        (
            ask("ann", None),
            400,
            "a test match needs an opponent other than you",
        ),
        (ask("zed", None), 404, "no entrant `zed` on the ladder"),
        (
            ask("bob", Some("classic")),
            400,
            "variant `classic` is not one of the event's: quads",
        ),
    ];
    for ((code, body), want_code, want) in refused {
        assert_eq!((code, body), (want_code, json!({ "error": want })));
    }
    // A rerun plays the same games again (the same seed, deterministic bots); the old match
    // is cancelled and its games no longer count.
    assert_eq!(
        server.post("/api/admin/matches/1/rerun", ADMIN, json!({})),
        (200, json!({ "match": 1, "state": "cancelled", "rerun": 2 }))
    );
    let again = server.wait_match(2, None);
    assert_eq!(again["match"]["state"], "done", "{again}");
    let old = server.wait_match(1, None);
    assert_eq!(
        (&old["match"]["state"], &old["match"]["reason"]),
        (&json!("cancelled"), &json!("rerun as match 2"))
    );
    let moves = |m: &Value| {
        server
            .text(
                &format!("/api/matches/{}/games.jsonl", m["match"]["id"]),
                None,
            )
            .1
            .lines()
            .map(|l| serde_json::from_str::<Value>(l).unwrap()["moves"].clone())
            .collect::<Vec<_>>()
    };
    assert_eq!(moves(&again), moves(&old));
    assert_eq!(lines(&server.text("/api/me/games.jsonl", Some(&ann)).1), 2);
    assert_eq!(
        server.post("/api/admin/matches/2/cancel", ADMIN, json!({})),
        (
            409,
            json!({ "error": "match 2 is not one, or is over: rerun it instead" })
        )
    );
    // Frozen: no uploads; disabled: no uploads, no test matches against it.
    let frozen = json!({ "frozen": true });
    assert_eq!(
        server.post("/api/admin/switches", ADMIN, frozen).1["frozen"],
        true
    );
    let (code, _, err) = server.submit(&ann, &bot_folder(dir.path(), "ann"));
    assert_ne!(code, 0);
    assert!(err.contains("uploads are frozen"), "{err}");
    server.post("/api/admin/switches", ADMIN, json!({ "frozen": false }));
    let why = json!({ "disabled": "copied code" });
    assert_eq!(server.post("/api/admin/entrants/bob", ADMIN, why).0, 200);
    let (code, _, err) = server.submit(&bob, &bot_folder(dir.path(), "bob"));
    assert_ne!(code, 0);
    assert!(
        err.contains("the host disabled this account: copied code"),
        "{err}"
    );
    assert_eq!(ask("bob", None).0, 404);
    // The final: the active versions of those not disabled, for `quads tournament`.
    let (code, snap) = server.post("/api/admin/final", ADMIN, json!({}));
    assert_eq!(code, 201, "{snap}");
    assert_eq!(snap["entrants"], json!([{ "name": "ann", "version": 1 }]));
    server.post(
        "/api/admin/entrants/bob",
        ADMIN,
        json!({ "disabled": null }),
    );
    let (_, snap) = server.post("/api/admin/final", ADMIN, json!({}));
    assert_eq!(
        snap["entrants"],
        json!([{ "name": "ann", "version": 1 }, { "name": "bob", "version": 1 }])
    );
    let folder = std::path::Path::new(snap["folder"].as_str().unwrap());
    assert!(folder.join("ann/bot.toml").is_file() && folder.join("bob/bot.py").is_file());
    assert_eq!(
        server.text("/final", None),
        (
            404,
            "no final report yet: the host has not run the final tournament".to_owned()
        )
    );
    let config = snap["config"].as_str().unwrap();
    assert_eq!(snap["command"], format!("quads tournament {config}"));
    let status = Command::new(env!("CARGO_BIN_EXE_quads"))
        .args(["tournament", config, "--pairs", "1", "--quiet"])
        .status()
        .unwrap();
    assert!(status.success());
    let (code, page) = server.text("/final", None);
    assert_eq!(code, 200);
    assert!(
        page.contains("<td>ann</td>") || page.contains(">ann<"),
        "the report names ann"
    );
    // Resumed, the ladder plays.
    server.post(
        "/api/admin/switches",
        ADMIN,
        json!({ "ladder_paused": false }),
    );
    let (_, board) = server.get("/api/leaderboard?games=2&wait=100", None);
    assert!(board["games"].as_u64().unwrap() >= 2, "{board}");
}

#[test]
fn a_server_killed_mid_match_plays_it_again_and_counts_each_game_once() {
    let dir = tempfile::tempdir().unwrap();
    let config = write_config_with(dir.path(), "movetime = \"2s\"\n");
    let mut server = start(&config);
    // Bots that take a while over each move, so that the kill comes mid-match.
    let slow = ("print(\"move\",", "time.sleep(0.2); print(\"move\",");
    let slow_bot = |name: &str| {
        let folder = edited_bot(dir.path(), name, slow);
        let script = std::fs::read_to_string(folder.join("bot.py")).unwrap();
        std::fs::write(folder.join("bot.py"), format!("import time\n{script}")).unwrap();
        folder
    };
    let mut tokens = Vec::new();
    for name in ["ann", "bob"] {
        let token = server.entrant(name);
        assert_eq!(server.submit(&token, &slow_bot(name)).0, 0);
        assert_eq!(server.wait(&token, 1, None)["status"], "admitted");
        tokens.push(token);
    }
    assert_eq!(
        server.wait_match(1, Some("queued"))["match"]["state"],
        "running"
    );
    server.child.kill().unwrap(); // SIGKILL
    server.child.wait().unwrap();
    let server = start(&config);
    let m = server.wait_match(1, None);
    assert_eq!(m["match"]["state"], "done", "{m}");
    let numbers: Vec<&Value> = m["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| &g["game"])
        .collect();
    assert_eq!(numbers, [&json!(1), &json!(2)]);
    // The ladder stops taking matches; what it counts is then read between two looks at the
    // matches, until they agree (a match may end meanwhile).
    server.post(
        "/api/admin/switches",
        ADMIN,
        json!({ "ladder_paused": true }),
    );
    let done = || {
        let (_, list) = server.get("/api/matches?limit=500", None);
        let list = list["matches"].as_array().unwrap().clone();
        list.iter().filter(|m| m["state"] == "done").count()
    };
    loop {
        let before = done();
        let (_, all) = server.text("/api/games.jsonl", Some(ADMIN));
        let rated = server.get("/api/leaderboard", None).1["games"]
            .as_u64()
            .unwrap() as usize;
        if done() != before {
            continue;
        }
        let records: Vec<Value> = all
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        // Each done match has its two games, once, and the ladder counts exactly those.
        let mut seen = std::collections::HashSet::new();
        for r in &records {
            assert!(
                seen.insert((r["seed"].clone(), r["game"].clone())),
                "twice: {r}"
            );
        }
        assert_eq!(records.len(), 2 * before);
        assert_eq!(rated, records.len());
        break;
    }
}

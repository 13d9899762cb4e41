//! Games against entrants' bots whose turns remote workers play (issue 49), on a server that
//! plays none itself (`turn_workers = 0`): a real `quads worker` plays a whole game's turns and
//! a crashing bot's, the bots built from their packs on the worker; a worker's answers that do
//! not count (another slot's, a stale one) are not kept, and answers no referee gives (an
//! illegal move, a made-up fault, a move and a fault at once) are refused in one line.

use std::process::Stdio;

use quads_rules::Rules;
use serde_json::{json, Value};

use crate::harness::*;
use crate::play::{moved, replayed, started};
use crate::play_bots::{ready, settled};

/// A server that plays neither matches nor bots' turns itself.
fn remote_only(dir: &std::path::Path) -> Server {
    start(&write_config_with(dir, "workers = 0\nturn_workers = 0\n"))
}

#[test]
fn a_remote_worker_plays_the_bots_turns_of_a_whole_game_and_a_crash_loses_it() {
    let dir = tempfile::tempdir().unwrap();
    let server = remote_only(dir.path());
    // The ladder paused (its matches would pause the crashing bot): people's games go on.
    let (code, body) = server.post(
        "/api/admin/switches",
        ADMIN,
        json!({ "ladder_paused": true }),
    );
    assert_eq!(code, 200, "{body}");
    ready(&server, "alice", &bot_folder(dir.path(), "alice"));
    ready(&server, "crashy", &crashing_bot(dir.path(), "crashy"));
    // Alice opens: her turn waits, and no one on the server takes it.
    let game = started(
        &server,
        json!({ "mode": "bot:alice", "rules": "classic", "first": false }),
    );
    assert_eq!(game["waiting"], true, "{game}");
    let id = game["id"].as_str().unwrap().to_owned();
    let (code, body) = server.get(&format!("/api/play/{id}?wait=1"), None);
    assert_eq!(
        (code, &body["game"]["waiting"]),
        (200, &json!(true)),
        "{body}"
    );

    let token = server.worker_token("box-1");
    let log = dir.path().join("worker.out");
    let _worker = Running(
        server
            .worker(&token, &dir.path().join("w"), &[])
            .stdout(std::fs::File::create(&log).unwrap())
            .stderr(Stdio::null())
            .spawn()
            .unwrap(),
    );
    let rules: Rules = "classic".parse().unwrap();
    let mut game = settled(&server, game);
    assert_eq!(game["moves"].as_array().unwrap().len(), 1, "{game}");
    while game["result"].is_null() {
        let mv = *replayed(&game).legal_moves(&rules).last().unwrap();
        let before = game["moves"].as_array().unwrap().len();
        game = settled(&server, moved(&server, &game, &mv.to_string()));
        let now = game["moves"].as_array().unwrap().len();
        assert!(!game["result"].is_null() || now == before + 2, "{game}");
    }
    replayed(&game);
    assert!(game["forfeit"].is_null(), "{game}");

    // A bot that crashes on the worker loses, with the referee's reason.
    let crash = started(&server, json!({ "mode": "bot:crashy" }));
    let mv = replayed(&crash).legal_moves(&Rules::QUADS)[0];
    let crash = settled(&server, moved(&server, &crash, &mv.to_string()));
    assert_eq!(crash["result"], "1-0", "{crash}");
    let why = crash["forfeit"].as_str().unwrap();
    assert!(
        why.starts_with("crash: exited with status 3 while waiting for readyok"),
        "{why}"
    );
    // The worker played them (the server could not: it has no worker of turns).
    let said = std::fs::read_to_string(&log).unwrap();
    assert!(
        said.contains(&format!("alice's turn in game {id}: ")) && said.contains("(counted)"),
        "{said}"
    );
    assert!(said.contains("crashy's turn in game "), "{said}");
}

/// A worker's answer to turn `play`: (status, body).
fn answer(server: &Server, token: &str, play: &str, body: Value) -> (u16, Value) {
    server.post(&format!("/api/worker/turns/{play}/answer"), token, body)
}

#[test]
fn only_the_slot_holding_a_turn_answers_it_and_only_with_what_a_referee_says() {
    let dir = tempfile::tempdir().unwrap();
    let server = remote_only(dir.path());
    ready(&server, "alice", &bot_folder(dir.path(), "alice"));
    let game = started(&server, json!({ "mode": "bot:alice", "first": false }));
    let id = game["id"].as_str().unwrap();
    let token = server.worker_token("box-1");
    let (code, claimed) = server.post("/api/worker/claim", &token, json!({ "slot": "s1" }));
    assert_eq!(code, 200, "{claimed}");
    let turn = &claimed["turn"];
    assert_eq!(turn["play"], id, "{claimed}");
    assert!(claimed["match"].is_null(), "{claimed}");
    assert_eq!(turn["side"]["entrant"], "alice", "{claimed}");
    assert_eq!(turn["game"]["moves"], json!([]), "{claimed}");
    // Nothing else to give meanwhile: the turn is held.
    let (_, other) = server.post("/api/worker/claim", &token, json!({ "slot": "s2" }));
    assert!(
        other["turn"].is_null() && other["match"].is_null(),
        "{other}"
    );

    let legal = replayed(&game).legal_moves(&Rules::QUADS)[0].to_string();
    for (body, code, says) in [
        (
            json!({ "slot": "s1", "after": 0, "move": "Z9" }),
            400,
            "move `Z9`",
        ),
        (
            json!({ "slot": "s1", "after": 0, "move": legal, "fault": "crash: x" }),
            400,
            "a move or a fault, not both",
        ),
        (
            json!({ "slot": "s1", "after": 0, "fault": "bored: it left" }),
            400,
            "the referee's reason",
        ),
        (
            json!({ "slot": "s1", "after": 0, "fault": "crash: a\nb" }),
            400,
            "in one line",
        ),
    ] {
        let (got, said) = answer(&server, &token, id, body.clone());
        assert_eq!(got, code, "{body}: {said}");
        assert!(
            said["error"].as_str().unwrap().contains(says),
            "{body}: {said}"
        );
    }
    // A move that is not legal here: the bot's first move gives a piece, it places none.
    let (got, said) = answer(
        &server,
        &token,
        id,
        json!({ "slot": "s1", "after": 0, "move": "A1 BDRF" }),
    );
    assert_eq!(got, 400, "{said}");
    assert!(
        said["error"]
            .as_str()
            .unwrap()
            .contains("is not legal here"),
        "{said}"
    );
    // Another slot's answer, or one after other moves, does not count.
    for body in [
        json!({ "slot": "s2", "after": 0, "move": legal, "took_ms": 3.0 }),
        json!({ "slot": "s1", "after": 1, "move": legal, "took_ms": 3.0 }),
    ] {
        let (got, said) = answer(&server, &token, id, body.clone());
        assert_eq!((got, &said), (200, &json!({ "held": false })), "{body}");
    }
    let (_, now) = server.get(&format!("/api/play/{id}"), None);
    assert_eq!(now["game"]["moves"], json!([]), "{now}");
    // The holder's answer is kept, once.
    let body = json!({ "slot": "s1", "after": 0, "move": legal, "took_ms": 3.0 });
    let (got, said) = answer(&server, &token, id, body.clone());
    assert_eq!((got, &said), (200, &json!({ "held": true })));
    let (got, said) = answer(&server, &token, id, body);
    assert_eq!((got, &said), (200, &json!({ "held": false })));
    let (_, now) = server.get(&format!("/api/play/{id}"), None);
    assert_eq!(now["game"]["moves"], json!([legal]), "{now}");
    assert_eq!(now["game"]["waiting"], false, "{now}");
    // The person's move then: the bot's turn waits again, for any slot.
    let game = moved(
        &server,
        &now["game"],
        &replayed(&now["game"]).legal_moves(&Rules::QUADS)[0].to_string(),
    );
    assert_eq!(game["waiting"], true, "{game}");
    let (_, claimed) = server.post("/api/worker/claim", &token, json!({ "slot": "s2" }));
    assert_eq!(
        claimed["turn"]["game"]["moves"].as_array().unwrap().len(),
        2,
        "{claimed}"
    );
    // Only a worker's token opens the call.
    let (got, _) = answer(
        &server,
        ADMIN,
        id,
        json!({ "slot": "s2", "after": 2, "move": legal }),
    );
    assert_eq!(got, 403);
}

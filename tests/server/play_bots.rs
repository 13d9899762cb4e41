//! Games people play against entrants' bots (issue 49), through the API: the bot's turns are
//! played by the server's worker of turns, the bot in its box under the event's limit per
//! move; a whole game to its end, its record naming the bot; a bot that crashes loses the game
//! with the referee's reason and the person's move kept; what cannot be played is refused in
//! one line.

use quads_record::GameRecord;
use quads_rules::Rules;
use serde_json::{json, Value};

use crate::harness::*;
use crate::play::{moved, post, replayed, started};

/// The game once no bot's turn waits in it (asked again, each ask a long poll of 20 s; a turn
/// still waiting after two minutes fails the test).
pub(crate) fn settled(server: &Server, game: Value) -> Value {
    let mut game = game;
    for _ in 0..6 {
        if game["waiting"] != true {
            return game;
        }
        let id = game["id"].as_str().unwrap();
        let (code, body) = server.get(&format!("/api/play/{id}?wait=20"), None);
        assert_eq!(code, 200, "{body}");
        game = body["game"].clone();
    }
    assert_ne!(game["waiting"], true, "the bot never answered: {game}");
    game
}

/// Entrant `name`'s bot (from `folder`), admitted and ready to be played: its token.
pub(crate) fn ready(server: &Server, name: &str, folder: &std::path::Path) -> String {
    let token = server.entrant(name);
    let (code, out, err) = server.submit(&token, folder);
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(server.wait(&token, 1, None)["status"], "admitted");
    let (code, body) = server.get(&format!("/api/play/bots?name={name}&wait=60"), None);
    assert_eq!(code, 200, "{body}");
    assert!(
        body["bots"].as_array().unwrap().contains(&json!(name)),
        "{body}"
    );
    token
}

#[test]
fn a_whole_game_against_an_entrants_bot_and_a_bot_that_crashes_loses_it() {
    let dir = tempfile::tempdir().unwrap();
    // No worker of matches: the bots' turns have a worker of their own.
    let server = start(&write_config_with(dir.path(), "workers = 0\n"));
    ready(&server, "alice", &bot_folder(dir.path(), "alice"));
    ready(&server, "crashy", &crashing_bot(dir.path(), "crashy"));
    let (_, page) = server.text("/play", None);
    assert!(page.contains("value=\"bot:alice\""), "{page}");

    // Alice's bot opens: its give is made by the time the game is settled.
    let rules: Rules = "classic".parse().unwrap();
    let mut game = settled(
        &server,
        started(
            &server,
            json!({ "mode": "bot:alice", "rules": "classic", "first": false }),
        ),
    );
    assert_eq!(
        (&game["bot"], &game["person"]),
        (&json!("alice"), &json!("second"))
    );
    assert_eq!(game["moves"].as_array().unwrap().len(), 1, "{game}");
    while game["result"].is_null() {
        assert_eq!(game["yours"], true, "{game}");
        let pos = replayed(&game);
        let mv = *pos.legal_moves(&rules).last().unwrap();
        let before = game["moves"].as_array().unwrap().len();
        game = settled(&server, moved(&server, &game, &mv.to_string()));
        let now = game["moves"].as_array().unwrap();
        assert_eq!(now[before], mv.to_string());
        // The bot answered (with a legal move: replayed above) unless the move ended it.
        assert!(
            !game["result"].is_null() || now.len() == before + 2,
            "{game}"
        );
    }
    replayed(&game);
    assert!(game["forfeit"].is_null(), "{game}");
    // Its record names the bot in its seat, and replays.
    let id = game["id"].as_str().unwrap();
    let (code, text) = server.text(&format!("/api/play/{id}/games.jsonl"), None);
    assert_eq!(code, 200, "{text}");
    let record: GameRecord = serde_json::from_str(text.trim()).unwrap();
    assert_eq!(
        (record.first.name.as_str(), record.second.name.as_str()),
        ("alice", "you")
    );
    assert_eq!(record.result.to_string(), game["result"].as_str().unwrap());
    assert!(quads_record::replay::replay(&record).error.is_none());

    // A bot that crashes loses: the person's move is kept, and the referee's reason.
    let game = started(&server, json!({ "mode": "bot:crashy" }));
    let pos = replayed(&game);
    let mv = pos.legal_moves(&Rules::QUADS)[0];
    let game = settled(&server, moved(&server, &game, &mv.to_string()));
    assert_eq!(game["moves"], json!([mv.to_string()]), "{game}");
    assert_eq!(game["result"], "1-0", "{game}");
    let why = game["forfeit"].as_str().unwrap();
    // It crashes on `newgame` with a seed other than 1, as the kit's bot reads it.
    assert!(
        why.starts_with("crash: exited with status 3 while waiting for readyok"),
        "{why}"
    );
    let id = game["id"].as_str().unwrap();
    let (_, page) = server.text(&format!("/play/{id}"), None);
    assert!(
        page.contains("crashy&#39;s bot lost by a fault of its own (crash: ")
            || page.contains("crashy's bot lost by a fault of its own (crash: "),
        "{page}"
    );
    let (_, text) = server.text(&format!("/api/play/{id}/games.jsonl"), None);
    let record: GameRecord = serde_json::from_str(text.trim()).unwrap();
    assert_eq!(record.failures.len(), 1, "{text}");
    assert_eq!(record.failures[0].reason.to_string(), "crash");
    // A move on it now is refused: the game is over.
    let (code, body) = post(
        &server,
        &format!("/api/play/{id}/moves"),
        json!({ "move": "A1", "after": 1 }),
    );
    assert_eq!(code, 409, "{body}");

    // What cannot be played, refused in one line.
    for (mode, code, says) in [
        ("bot:nobody", 404, "nobody has no bot ready to play"),
        ("bot:../x", 400, "a name has 1 to 32 letters"),
    ] {
        let (got, body) = post(&server, "/api/play", json!({ "mode": mode }));
        assert_eq!(got, code, "{body}");
        assert!(body["error"].as_str().unwrap().contains(says), "{body}");
    }
}

#[test]
fn a_game_whose_bot_was_replaced_goes_on_against_the_newer_version_after_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let config = write_config_with(dir.path(), "workers = 0\n");
    let server = start(&config);
    let folder = bot_folder(dir.path(), "alice");
    let alice = ready(&server, "alice", &folder);
    let game = started(&server, json!({ "mode": "bot:alice" }));
    // A second version, admitted while the game waits for the person's first move.
    let script = folder.join("bot.py");
    let text = std::fs::read_to_string(&script).unwrap();
    std::fs::write(&script, format!("{text}\n# version 2\n")).unwrap();
    let (code, out, err) = server.submit(&alice, &folder);
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(server.wait(&alice, 2, None)["status"], "admitted");
    // Started again, the server builds the active version only: the first is gone.
    drop(server);
    let server = start(&config);
    let (code, body) = server.get("/api/play/bots?name=alice&wait=60", None);
    assert_eq!((code, &body["bots"]), (200, &json!(["alice"])), "{body}");
    let pos = replayed(&game);
    let mv = pos.legal_moves(&Rules::QUADS)[0];
    let game = settled(&server, moved(&server, &game, &mv.to_string()));
    assert_eq!(game["moves"].as_array().unwrap().len(), 2, "{game}");
    assert!(game["forfeit"].is_null(), "{game}");
    replayed(&game);
}

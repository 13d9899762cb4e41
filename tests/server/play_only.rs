//! `quads serve` with no config (issue 49): no event, only the play page and its API, on the
//! loopback at a port the system gives and the server prints, its games kept in a folder of its
//! own (the XDG data folder's by default) and there again after a restart. Everything an
//! event's server has besides (accounts, uploads, the ladder, the host's calls) is not there.

use std::path::Path;
use std::process::Command;

use serde_json::json;

use crate::harness::{call, spawn_serve, Server};

/// `quads serve` with `args` and no config, HOME at `home`: the server and the folder its
/// first line says its games are kept in.
fn serve(home: &Path, args: &[&str]) -> (Server, String) {
    let (child, line) = spawn_serve(
        Command::new(env!("CARGO_BIN_EXE_quads"))
            .arg("serve")
            .args(args)
            .args(["--log", "warn"])
            .env("HOME", home)
            .env_remove("XDG_DATA_HOME"),
    );
    // "quads serve: the play page (games kept in DIR) at http://127.0.0.1:PORT/play"
    let (said, url) = line
        .trim()
        .rsplit_once(" at ")
        .unwrap_or_else(|| panic!("unexpected first line: {line:?}"));
    let data = said
        .strip_prefix("quads serve: the play page (games kept in ")
        .and_then(|d| d.strip_suffix(')'))
        .unwrap_or_else(|| panic!("unexpected first line: {line:?}"))
        .to_owned();
    let base = url
        .strip_suffix("/play")
        .unwrap_or_else(|| panic!("not the play page's address: {line:?}"));
    let port: u16 = base
        .strip_prefix("http://127.0.0.1:")
        .unwrap_or_else(|| panic!("not on the loopback: {line:?}"))
        .parse()
        .unwrap();
    assert_ne!(port, 0);
    let server = Server {
        child,
        url: base.to_owned(),
        config: Default::default(),
    };
    (server, data)
}

fn get(server: &Server, path: &str) -> u16 {
    let agent = ureq::AgentBuilder::new().redirects(0).build();
    match agent.get(&format!("{}{path}", server.url)).call() {
        Ok(r) => r.status(),
        Err(ureq::Error::Status(code, _)) => code,
        Err(e) => panic!("{path}: {e}"),
    }
}

#[test]
fn with_no_config_only_the_play_page_on_the_loopback_its_games_kept() {
    let home = tempfile::tempdir().unwrap();
    let (server, data) = serve(home.path(), &[]);
    assert_eq!(
        Path::new(&data),
        home.path().join(".local/share/quads/play"),
        "the XDG data folder's by default"
    );
    // The play page and its API.
    let (code, body) = call(
        ureq::post(&format!("{}/api/play", server.url)),
        Some(json!({ "mode": "level-1" })),
    );
    assert_eq!(code, 201, "{body}");
    let id = body["game"]["id"].as_str().unwrap().to_owned();
    let (code, body) = call(
        ureq::post(&format!("{}/api/play/{id}/moves", server.url)),
        Some(json!({ "move": "BDRF", "after": 0 })),
    );
    assert_eq!(code, 200, "{body}");
    let moves = body["game"]["moves"].clone();
    assert_eq!(moves.as_array().unwrap().len(), 2, "the level answered");
    for path in ["/play", &format!("/play/{id}"), "/assets/site.css"] {
        assert_eq!(get(&server, path), 200, "{path}");
    }
    let page = ureq::get(&format!("{}/play", server.url))
        .call()
        .unwrap()
        .into_string()
        .unwrap();
    for absent in [
        "href=\"/login\"",
        "href=\"/signup\"",
        "href=\"/final\"",
        ">leaderboard<",
    ] {
        assert!(!page.contains(absent), "{absent} on the page");
    }
    // `/` is the play page; nothing of an event is there.
    assert_eq!(get(&server, "/"), 303);
    for path in [
        "/login",
        "/signup",
        "/admin",
        "/final",
        "/matches/1",
        "/entrants/x",
        "/api/leaderboard",
        "/api/me",
        "/api/matches",
    ] {
        assert_eq!(get(&server, path), 404, "{path}");
    }
    let (code, _) = call(
        ureq::post(&format!("{}/api/entrants", server.url)),
        Some(json!({ "name": "x" })),
    );
    assert_eq!(code, 404);
    // No event, no entrants' bots: none offered, and none played.
    let (code, body) = call(ureq::get(&format!("{}/api/play/bots", server.url)), None);
    assert_eq!((code, &body["bots"]), (200, &json!([])), "{body}");
    let (code, body) = call(
        ureq::post(&format!("{}/api/play", server.url)),
        Some(json!({ "mode": "bot:x" })),
    );
    assert_eq!(code, 400, "{body}");
    assert_eq!(
        body["error"],
        "games against entrants' bots are played in an event: this server has none"
    );
    // Stopped and started again on the same folder (the default), the game is there.
    drop(server);
    let (server, again) = serve(home.path(), &[]);
    assert_eq!(again, data);
    let (code, body) = call(ureq::get(&format!("{}/api/play/{id}", server.url)), None);
    assert_eq!(code, 200, "{body}");
    assert_eq!(body["game"]["moves"], moves);
    // A folder of one's own, given.
    let mine = home.path().join("mine");
    let (_server, data) = serve(home.path(), &["--data", mine.to_str().unwrap()]);
    assert_eq!(Path::new(&data), mine);
    assert!(mine.join("quads.db").exists());
}

#[test]
fn a_config_and_a_data_folder_together_are_refused_in_one_line() {
    let out = Command::new(env!("CARGO_BIN_EXE_quads"))
        .args(["serve", "--config", "x.toml", "--data", "d"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("'--config <CONFIG>' cannot be used with '--data <DATA>'"),
        "{err}"
    );
}

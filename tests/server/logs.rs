//! The server's log: one JSON object a line at the level the host chose, an event for each
//! version checked and each match played with its fields, a line per request at `debug` (the
//! path, never the query), other crates held at `warn`, and never a token or an invite.

use std::path::Path;
use std::process::Command;

use serde_json::Value;

use crate::harness::*;

fn lines(log: &Path) -> Vec<String> {
    std::fs::read_to_string(log)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect()
}

#[test]
fn the_log_is_json_lines_with_each_events_fields_and_no_secret() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("serve.log");
    let config = write_config(dir.path());
    let server = start_logged(&config, &["--log", "debug", "--log-format", "json"], &log);
    let invite = server.invite();
    let (code, body) = server.sign_up("ann", Some(&invite));
    assert_eq!(code, 201, "{body}");
    let ann = body["token"].as_str().unwrap().to_owned();
    let bob = server.entrant("bob");
    for (token, name) in [(&ann, "ann"), (&bob, "bob")] {
        let folder = bot_folder(&dir.path().join(name), name);
        assert_eq!(server.submit(token, &folder).0, 0);
        assert_eq!(server.wait(token, 1, None)["status"], "admitted");
    }
    // A query the log must leave out: an invite in a page's address.
    let (code, _) = server.text(&format!("/signup?invite={invite}"), None);
    assert_eq!(code, 200);
    let m = server.wait_match(1, None);
    assert_eq!(m["match"]["state"], "done", "{m}");
    drop(server);

    let lines = lines(&log);
    let events: Vec<Value> = lines
        .iter()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l}")))
        .collect();
    let found = |what: &dyn Fn(&Value) -> bool| events.iter().any(what);
    for name in ["ann", "bob"] {
        assert!(
            found(&|e| e["level"] == "INFO"
                && e["fields"]["message"] == "version checked"
                && e["fields"]["entrant"] == name
                && e["fields"]["version"] == 1
                && e["fields"]["status"] == "admitted"),
            "no `version checked` for {name}: {lines:#?}"
        );
    }
    assert!(
        found(&|e| e["level"] == "INFO"
            && e["fields"]["message"] == "match played"
            && e["fields"]["match"] == 1
            && e["fields"]["games"].as_u64() > Some(0)),
        "no `match played` for match 1: {lines:#?}"
    );
    assert!(
        found(&|e| e["level"] == "DEBUG"
            && e["span"]["path"] == "/api/versions/1"
            && e["span"]["method"] == "GET"
            && e["fields"]["status"] == 200),
        "no request line for GET /api/versions/1: {lines:#?}"
    );
    assert!(found(&|e| e["span"]["path"] == "/signup"));
    // The database driver logs every statement at debug: it is held at warn.
    let chatty: Vec<&Value> = events
        .iter()
        .filter(|e| !e["target"].as_str().unwrap_or("").starts_with("quads"))
        .filter(|e| !e["target"].as_str().unwrap_or("").starts_with("tower_http"))
        .filter(|e| e["level"] != "WARN" && e["level"] != "ERROR")
        .collect();
    assert!(chatty.is_empty(), "other crates below warn: {chatty:#?}");
    let text = lines.join("\n");
    for secret in [ann.as_str(), bob.as_str(), ADMIN, invite.as_str()] {
        assert!(!text.contains(secret), "a secret in the log: {secret}");
    }
}

#[test]
fn at_warn_the_log_says_nothing_of_what_went_well_and_a_bad_level_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("serve.log");
    let config = write_config(dir.path());
    let server = start_logged(&config, &["--log", "warn"], &log);
    let ann = server.entrant("ann");
    assert_eq!(server.submit(&ann, &bot_folder(dir.path(), "ann")).0, 0);
    assert_eq!(server.wait(&ann, 1, None)["status"], "admitted");
    drop(server);
    let lines = lines(&log);
    assert!(
        lines
            .iter()
            .all(|l| !l.contains("version checked") && !l.contains("INFO")),
        "{lines:#?}"
    );
    let out = Command::new(env!("CARGO_BIN_EXE_quads"))
        .args(["serve", "--config"])
        .arg(&config)
        .args(["--log", "loud"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.starts_with("quads: invalid value 'loud' for '--log <LEVEL>'"),
        "{err}"
    );
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
}
